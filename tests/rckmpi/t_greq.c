/* Generalized requests (src/rckmpi/rckmpi_greq.h), which the non-blocking
 * collectives are built on: a two-step schedule (a ring shift on the
 * collective context, then a second shift of what arrived) completed by
 * MPI_Wait, MPI_Test loops and MPI_Waitall beside ordinary requests.
 * Linked statically: the interface is internal to the library. */
#include "mpitest.h"

#include "rckmpi_coll.h"
#include "rckmpi_greq.h"

typedef struct {
    int step, val, got, got2;
    MPI_Request r[2];
    int released;
} shift_t;

static int shift_poll(void *arg, int *done)
{
    shift_t *s = arg;
    int rank, size, flag;

    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    switch (s->step) {
    case 0:
        rckmpi_coll_irecv(&s->got, 1, MPI_INT, (rank + size - 1) % size, 5,
                          MPI_COMM_WORLD, &s->r[0]);
        rckmpi_coll_isend(&s->val, 1, MPI_INT, (rank + 1) % size, 5,
                          MPI_COMM_WORLD, &s->r[1]);
        s->step = 1;
        /* fall through */
    case 1:
        MPI_Testall(2, s->r, &flag, MPI_STATUSES_IGNORE);
        if (!flag)
            return MPI_SUCCESS;
        rckmpi_coll_irecv(&s->got2, 1, MPI_INT, (rank + size - 1) % size, 6,
                          MPI_COMM_WORLD, &s->r[0]);
        rckmpi_coll_isend(&s->got, 1, MPI_INT, (rank + 1) % size, 6,
                          MPI_COMM_WORLD, &s->r[1]);
        s->step = 2;
        /* fall through */
    case 2:
        MPI_Testall(2, s->r, &flag, MPI_STATUSES_IGNORE);
        *done = flag;
        return MPI_SUCCESS;
    }
    return MPI_ERR_INTERN;
}

static void release(void *arg)
{
    ((shift_t *)arg)->released = 1;
}

int main(int argc, char **argv)
{
    int rank, size, flag = 0, x, y = -1;
    shift_t s = {0}, t = {0};
    MPI_Request g, rq[3];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    s.val = rank * 10;
    rckmpi_greq_start(shift_poll, &s, release, MPI_COMM_WORLD, &g);
    MPI_Wait(&g, MPI_STATUS_IGNORE);
    CHECK(g == MPI_REQUEST_NULL && s.released, "released");
    CHECK(s.got2 == ((rank + 2 * size - 2) % size) * 10, "wait: got %d",
          s.got2);
    /* with MPI_Test, and beside user traffic under MPI_Waitall */
    t.val = rank + 1;
    rckmpi_greq_start(shift_poll, &t, NULL, MPI_COMM_WORLD, &rq[0]);
    x = rank;
    MPI_Irecv(&y, 1, MPI_INT, (rank + size - 1) % size, 5, MPI_COMM_WORLD,
              &rq[1]);
    MPI_Isend(&x, 1, MPI_INT, (rank + 1) % size, 5, MPI_COMM_WORLD, &rq[2]);
    while (!flag)
        MPI_Test(&rq[0], &flag, MPI_STATUS_IGNORE);
    MPI_Waitall(2, rq + 1, MPI_STATUSES_IGNORE);
    CHECK(t.got2 == (rank + 2 * size - 2) % size + 1, "test: got %d", t.got2);
    CHECK(y == (rank + size - 1) % size, "user message beside it: %d", y);
    return mpitest_end("t_greq");
}
