/* The flat barrier and allreduce (coll_flat.c, docs/MPI-COLLECTIVES.md):
 * run with RCK_MPI_COLL_FLAT set so that they are taken (or not: the same
 * checks hold for dissemination and recursive doubling).
 *
 * - barrier: no rank leaves before every rank entered. After leaving
 *   barrier k a rank sends "left k" to its right neighbour; before
 *   entering barrier k a rank probes (with progress, a rank-dependent
 *   number of times) for "left k" from its left neighbour, which a correct
 *   barrier makes impossible (a broken one is caught when the probe sees
 *   it); barriers in a row with other collectives and point-to-point
 *   traffic between them.
 * - allreduce: vectors of 0, 1, 3, 7, 255, 512 (2 KiB, the flat limit)
 *   and 513 ints (past it), MPI_SUM and MPI_MAX, MPI_IN_PLACE, a
 *   non-commutative user operation (rank order), MPI_DOUBLE_INT with
 *   MPI_MAXLOC, and all of it on split communicators (non-powers of two,
 *   reversed key order), so that the root is not world rank 0.
 * - an intercommunicator is refused (MPI_ERR_COMM) by both. */
#include "colltest.h"

#define NB 40

static void barrier_checks(MPI_Comm comm)
{
    int rank, size;

    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int right = (rank + 1) % size, left = (rank - 1 + size) % size;
    for (int k = 0; k < NB; k++) {
        int flag = 0, probes = 1 + (rank * 7 + k * 3) % 11;
        for (int i = 0; i < probes && !flag && size > 1; i++)
            MPI_Iprobe(left, 100 + k, comm, &flag, MPI_STATUS_IGNORE);
        CHECK(!flag, "barrier %d: rank %d left it before rank %d entered",
              k, left, rank);
        CHECK(MPI_Barrier(comm) == MPI_SUCCESS, "barrier %d", k);
        if (size > 1) {
            int got = -1;
            MPI_Request r;
            MPI_Isend(&k, 1, MPI_INT, right, 100 + k, comm, &r);
            MPI_Recv(&got, 1, MPI_INT, left, 100 + k, comm,
                     MPI_STATUS_IGNORE);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
            CHECK(got == k, "barrier %d: got %d", k, got);
        }
        if (k % 5 == 0) { /* another collective between barriers */
            int one = 1, sum = 0;
            MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, comm);
            CHECK(sum == size, "allreduce between barriers: %d", sum);
        }
    }
}

static void allreduce_checks(MPI_Comm comm, MPI_Op mop, MPI_Datatype mat)
{
    static const int counts[] = {0, 1, 3, 7, 255, 512, 513};
    int rank, size;

    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int *in = malloc(sizeof(int) * 513), *out = malloc(sizeof(int) * 513);
    for (size_t c = 0; c < sizeof counts / sizeof *counts; c++) {
        int n = counts[c];
        for (int i = 0; i < n; i++)
            in[i] = rank * 1000 + i;
        memset(out, 0xff, sizeof(int) * 513);
        CHECK(MPI_Allreduce(in, out, n, MPI_INT, MPI_SUM, comm) ==
                  MPI_SUCCESS,
              "allreduce sum %d", n);
        int bad = 0;
        for (int i = 0; i < n; i++)
            bad += out[i] != 1000 * (size * (size - 1) / 2) + size * i;
        CHECK(bad == 0 && (n == 513 || out[n] == -1),
              "allreduce sum of %d ints: %d wrong", n, bad);
        /* in place, MPI_MAX */
        for (int i = 0; i < n; i++)
            out[i] = (rank * 13 + i * 5) % (size + 3);
        MPI_Allreduce(MPI_IN_PLACE, out, n, MPI_INT, MPI_MAX, comm);
        bad = 0;
        for (int i = 0; i < n; i++) {
            int want = 0;
            for (int r = 0; r < size; r++) {
                int v = (r * 13 + i * 5) % (size + 3);
                want = v > want ? v : want;
            }
            bad += out[i] != want;
        }
        CHECK(bad == 0, "allreduce max in place of %d ints: %d wrong", n,
              bad);
    }
    /* non-commutative: the product in rank order, 1 and 100 matrices
     * (16 B and 1,600 B: both under the flat limit) */
    for (int nm = 1; nm <= 100; nm += 99) {
        unsigned *m = malloc(sizeof(unsigned) * 4 * (size_t)nm);
        unsigned *p = malloc(sizeof(unsigned) * 4 * (size_t)nm), want[4];
        for (int k = 0; k < nm; k++)
            mat_of(rank, m + 4 * k);
        MPI_Allreduce(m, p, nm, mat, mop, comm);
        mat_prefix(0, size, want);
        int bad = 0;
        for (int k = 0; k < nm; k++)
            bad += memcmp(p + 4 * k, want, sizeof want) != 0;
        CHECK(bad == 0, "non-commutative allreduce of %d matrices: %d wrong",
              nm, bad);
        free(m);
        free(p);
    }
    /* MAXLOC on pairs: the largest value, the lowest rank on ties */
    struct {
        double v;
        int r;
    } pin = {(double)(rank % 3), rank}, pout;
    MPI_Allreduce(&pin, &pout, 1, MPI_DOUBLE_INT, MPI_MAXLOC, comm);
    int top = size >= 3 ? 2 : size - 1;
    CHECK(pout.v == (double)(top % 3) && pout.r == top,
          "maxloc: %g at %d", pout.v, pout.r);
    free(in);
    free(out);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Op mop;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Datatype mat;
    MPI_Op_create(matmul, 0, &mop);
    MPI_Type_contiguous(4, MPI_UNSIGNED, &mat);
    MPI_Type_commit(&mat);

    barrier_checks(MPI_COMM_WORLD);
    allreduce_checks(MPI_COMM_WORLD, mop, mat);

    /* thirds, reversed key order: sizes that are not powers of two and a
     * rank 0 that is not world rank 0 */
    MPI_Comm third;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 3, size - rank, &third);
    barrier_checks(third);
    allreduce_checks(third, mop, mat);
    MPI_Comm_free(&third);

    /* an intercommunicator between two halves: refused */
    if (size >= 2) {
        MPI_Comm half, inter;
        int color = rank < size / 2;
        MPI_Comm_split(MPI_COMM_WORLD, color, rank, &half);
        MPI_Intercomm_create(half, 0, MPI_COMM_WORLD,
                             color ? size / 2 : 0, 7, &inter);
        /* an intercommunicator is not a valid communicator for these:
         * the error is raised on MPI_COMM_WORLD */
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
        int a = 1, b = 0, cls = 0;
        int err = MPI_Barrier(inter);
        MPI_Error_class(err, &cls);
        CHECK(cls == MPI_ERR_COMM, "barrier on an intercommunicator: %d",
              err);
        err = MPI_Allreduce(&a, &b, 1, MPI_INT, MPI_SUM, inter);
        MPI_Error_class(err, &cls);
        CHECK(cls == MPI_ERR_COMM, "allreduce on an intercommunicator: %d",
              err);
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
        MPI_Comm_free(&inter);
        MPI_Comm_free(&half);
    }
    MPI_Op_free(&mop);
    MPI_Type_free(&mat);
    return mpitest_end("t_flat");
}
