/* Non-blocking barrier, broadcast and allreduce: against local
 * references, several roots and sizes, IN_PLACE, a non-commutative user
 * operation (rank order), two operations outstanding at once, and
 * argument errors. */
#include "colltest.h"

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Request rq[3];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Ibarrier(MPI_COMM_WORLD, &rq[0]);
    MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
    CHECK(rq[0] == MPI_REQUEST_NULL, "ibarrier request not freed");
    int counts[] = {1, 300, 5000};
    int *buf = malloc(5000 * sizeof(int)), *sum = malloc(5000 * sizeof(int));
    for (int k = 0; k < 3; k++) {
        int n = counts[k], root = (k * 5) % size;
        for (int i = 0; i < n; i++) {
            buf[i] = rank == root ? i * 3 + root : -1;
            sum[i] = rank + i;
        }
        MPI_Ibcast(buf, n, MPI_INT, root, MPI_COMM_WORLD, &rq[0]);
        MPI_Iallreduce(MPI_IN_PLACE, sum, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                       &rq[1]);
        MPI_Ibarrier(MPI_COMM_WORLD, &rq[2]);
        MPI_Waitall(3, rq, MPI_STATUSES_IGNORE);
        int bad = 0;
        for (int i = 0; i < n; i++)
            bad += buf[i] != i * 3 + root ||
                   sum[i] != size * (size - 1) / 2 + size * i;
        CHECK(bad == 0, "ibcast/iallreduce %d: %d wrong", n, bad);
    }
    /* non-commutative: the product of the ranks' matrices in rank order */
    MPI_Datatype mat;
    MPI_Op mop;
    unsigned in[4], out[4], ref[4];
    MPI_Type_contiguous(4, MPI_UNSIGNED, &mat);
    MPI_Type_commit(&mat);
    MPI_Op_create(matmul, 0, &mop);
    mat_of(rank, in);
    mat_prefix(0, size, ref);
    MPI_Iallreduce(in, out, 1, mat, mop, MPI_COMM_WORLD, &rq[0]);
    int flag = 0;
    while (!flag)
        MPI_Test(&rq[0], &flag, MPI_STATUS_IGNORE);
    CHECK(memcmp(out, ref, sizeof ref) == 0, "non-commutative iallreduce");
    MPI_Op_free(&mop);
    MPI_Type_free(&mat);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK(MPI_Ibcast(buf, 1, MPI_INT, size, MPI_COMM_WORLD, &rq[0]) ==
              MPI_ERR_ROOT, "ibcast bad root");
    CHECK(MPI_Iallreduce(buf, sum, 1, MPI_DOUBLE, MPI_BAND, MPI_COMM_WORLD,
                         &rq[0]) == MPI_ERR_OP, "iallreduce bad op");
    CHECK(MPI_Ibarrier(MPI_COMM_NULL, &rq[0]) == MPI_ERR_COMM,
          "ibarrier null comm");
    free(buf);
    free(sum);
    return mpitest_end("t_nbc");
}
