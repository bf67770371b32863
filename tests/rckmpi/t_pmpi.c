/* The profiling interface (docs/MPI.md): linked with the counting wrapper
 * pmpi_wrap.c ahead of librckmpi (shared: rckmpi_pmpi; static, where the
 * weak aliases matter: rckmpi_pmpi_static). Ranks pass a token around the
 * ring ROUNDS times with MPI_Send, then exchange with MPI_Isend + MPI_Wait,
 * MPI_Sendrecv, MPI_Mprobe/MPI_Mrecv and MPI_Allreduce, which use the
 * point-to-point and wait calls inside the library. The wrapper must have
 * seen exactly the program's MPI_Init, MPI_Send and MPI_Wait calls (the
 * library's own calls go to PMPI_ and are not seen), and the data must be
 * right. */
#include "mpitest.h"
#include "pmpi_wrap.h"

#define ROUNDS 10

int main(int argc, char **argv)
{
    int rank, size, inits, sends, waits;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;

    /* a token around the ring, incremented at every hop */
    int token = 0, my_sends = 0;
    for (int r = 0; r < ROUNDS; r++) {
        if (rank == 0) {
            MPI_Send(&token, 1, MPI_INT, next, 1, MPI_COMM_WORLD);
            my_sends++;
            MPI_Recv(&token, 1, MPI_INT, prev, 1, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            token++;
        } else {
            MPI_Recv(&token, 1, MPI_INT, prev, 1, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            token++;
            MPI_Send(&token, 1, MPI_INT, next, 1, MPI_COMM_WORLD);
            my_sends++;
        }
    }
    if (rank == 0)
        CHECK(token == ROUNDS * size, "token %d, expected %d", token,
              ROUNDS * size);

    /* calls that the library makes of its own calls */
    MPI_Request req;
    int out = rank, in = -1;
    MPI_Isend(&out, 1, MPI_INT, next, 2, MPI_COMM_WORLD, &req);
    MPI_Recv(&in, 1, MPI_INT, prev, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECK(in == prev, "isend: got %d from %d", in, prev);

    in = -1;
    MPI_Sendrecv(&out, 1, MPI_INT, next, 3, &in, 1, MPI_INT, prev, 3,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(in == prev, "sendrecv: got %d from %d", in, prev);

    MPI_Message msg;
    in = -1;
    MPI_Isend(&out, 1, MPI_INT, next, 4, MPI_COMM_WORLD, &req);
    MPI_Mprobe(prev, 4, MPI_COMM_WORLD, &msg, MPI_STATUS_IGNORE);
    MPI_Mrecv(&in, 1, MPI_INT, &msg, MPI_STATUS_IGNORE);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECK(in == prev, "mrecv: got %d from %d", in, prev);

    int sum = 0;
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(sum == size * (size - 1) / 2, "allreduce: %d", sum);
    MPI_Barrier(MPI_COMM_WORLD);

    pmpi_wrap_counts(&inits, &sends, &waits);
    CHECK(inits == 1, "the wrapper saw %d MPI_Init calls, expected 1", inits);
    CHECK(sends == my_sends, "the wrapper saw %d MPI_Send calls, expected %d",
          sends, my_sends);
    CHECK(waits == 2, "the wrapper saw %d MPI_Wait calls, expected 2", waits);
    if (mpitest_failures == 0)
        printf("t_pmpi: rank %d: the wrapper saw %d MPI_Send calls\n", rank,
               sends);
    return mpitest_end("t_pmpi");
}
