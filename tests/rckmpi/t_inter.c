/* Intercommunicators: the even and the odd ranks of MPI_COMM_WORLD joined
 * by MPI_Intercomm_create; point-to-point across; remote size and group;
 * MPI_Intercomm_merge in both orders; dup refused (MPI_ERR_COMM); free. Needs 2 or more processes. */
#include "mpitest.h"

int main(int argc, char **argv)
{
    int rank, size, color, lr, ls, rs, flag, res;
    MPI_Comm half, inter, merged;
    MPI_Group rg;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    color = rank % 2;
    MPI_Comm_split(MPI_COMM_WORLD, color, rank, &half);
    MPI_Comm_rank(half, &lr);
    MPI_Comm_size(half, &ls);
    /* leaders: world ranks 0 (evens) and 1 (odds) */
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - color, 7, &inter);
    MPI_Comm_test_inter(inter, &flag);
    MPI_Comm_remote_size(inter, &rs);
    CHECK(flag && rs == (color ? (size + 1) / 2 : size / 2),
          "inter: flag %d remote size %d", flag, rs);
    MPI_Comm_remote_group(inter, &rg);
    {
        int n;
        MPI_Group_size(rg, &n);
        CHECK(n == rs, "remote group size %d", n);
        MPI_Group_free(&rg);
    }
    /* every even rank i sends to odd rank i % rs and the reverse */
    {
        int v = rank, got, nsend = 0;
        MPI_Request rq[64];
        MPI_Status st;
        MPI_Isend(&v, 1, MPI_INT, lr % rs, 3, inter, &rq[nsend++]);
        /* receive from every remote rank j with j % ls == lr */
        for (int j = 0; j < rs; j++) {
            if (j % ls != lr)
                continue;
            MPI_Recv(&got, 1, MPI_INT, j, 3, inter, &st);
            CHECK(st.MPI_SOURCE == j && got == 2 * j + (1 - color),
                  "inter p2p: from %d got %d", st.MPI_SOURCE, got);
        }
        MPI_Waitall(nsend, rq, MPI_STATUSES_IGNORE);
    }
    {
        /* not implemented on intercommunicators: a clear error class */
        MPI_Comm d;
        int err;
        MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
        err = MPI_Comm_dup(inter, &d);
        CHECK(err == MPI_ERR_COMM, "dup of an intercommunicator: %d", err);
    }
    /* merge: evens low (first), then the other order */
    MPI_Intercomm_merge(inter, color, &merged);
    {
        int mr, ms;
        MPI_Comm_rank(merged, &mr);
        MPI_Comm_size(merged, &ms);
        CHECK(ms == size && mr == (color ? (size + 1) / 2 + lr : lr),
              "merge low evens: rank %d of %d", mr, ms);
        int v = mr, w = -1;
        MPI_Sendrecv(&v, 1, MPI_INT, (mr + 1) % ms, 4, &w, 1, MPI_INT,
                     (mr + ms - 1) % ms, 4, merged, MPI_STATUS_IGNORE);
        CHECK(w == (mr + ms - 1) % ms, "ring in merged: %d", w);
        MPI_Comm_free(&merged);
    }
    MPI_Intercomm_merge(inter, 1 - color, &merged);
    {
        int mr;
        MPI_Comm_rank(merged, &mr);
        CHECK(mr == (color ? lr : size / 2 + lr), "merge low odds: rank %d",
              mr);
        MPI_Comm_compare(merged, MPI_COMM_WORLD, &res);
        CHECK(res == MPI_SIMILAR, "compare %d", res);
        MPI_Comm_free(&merged);
    }
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
    return mpitest_end("t_inter");
}
