/* Every non-blocking collective of MPI-3 against references computed here:
 * gather(v), scatter(v), allgather(v), alltoall(v/w), reduce, allreduce,
 * reduce_scatter(_block), scan, exscan; several roots, MPI_IN_PLACE where
 * the standard allows it, a non-commutative operation (rank order), a
 * derived datatype; many operations outstanding on one communicator,
 * completed in another order; progress while a process is blocked in a
 * point-to-point receive that needs the collective done elsewhere; the
 * error classes of bad arguments. Any number of processes. */
#include "colltest.h"

#define N 5 /* items per block */

static int val(int from, int to, int i)
{
    return from * 10000 + to * 100 + i;
}

static void wait1(MPI_Request *r)
{
    int flag = 0;
    /* half of them tested first (no spinning: processes share cores on
     * native), then waited for */
    static int k;
    if (k++ % 2)
        MPI_Test(r, &flag, MPI_STATUS_IGNORE);
    if (!flag)
        MPI_Wait(r, MPI_STATUS_IGNORE);
    CHECK(*r == MPI_REQUEST_NULL, "request not freed");
}

static void test_gather_scatter(int rank, int size)
{
    int *all = malloc((size_t)size * N * sizeof(int) * 2);
    int mine[N], bad;
    int *counts = malloc((size_t)size * sizeof(int));
    int *displs = malloc((size_t)size * sizeof(int));
    MPI_Request r;

    for (int root = 0; root < size; root += (size > 3 ? size / 3 : 1)) {
        for (int i = 0; i < N; i++)
            mine[i] = val(rank, root, i);
        for (int inplace = 0; inplace < 2; inplace++) {
            for (int i = 0; i < size * N; i++)
                all[i] = -1;
            if (inplace && rank == root)
                memcpy(all + root * N, mine, sizeof mine);
            MPI_Igather(inplace && rank == root ? MPI_IN_PLACE : mine, N,
                        MPI_INT, all, N, MPI_INT, root, MPI_COMM_WORLD, &r);
            wait1(&r);
            if (rank == root) {
                bad = 0;
                for (int q = 0; q < size; q++)
                    for (int i = 0; i < N; i++)
                        bad += all[q * N + i] != val(q, root, i);
                CHECK(bad == 0, "igather root %d inplace %d: %d wrong", root,
                      inplace, bad);
            }
            /* scatter back: rank q gets block q */
            int got[N];
            memset(got, 0xff, sizeof got);
            if (inplace && rank == root)
                memcpy(got, all + root * N, sizeof got);
            MPI_Iscatter(all, N, MPI_INT,
                         inplace && rank == root ? MPI_IN_PLACE : got, N,
                         MPI_INT, root, MPI_COMM_WORLD, &r);
            wait1(&r);
            bad = 0;
            for (int i = 0; i < N; i++)
                bad += got[i] != val(rank, root, i);
            CHECK(bad == 0, "iscatter root %d inplace %d", root, inplace);
        }
        /* v-variants: rank q gives q % 3 + 1 items, stored backwards with
         * a gap of one item */
        int off = 0;
        for (int q = size - 1; q >= 0; q--) {
            counts[q] = q % 3 + 1;
            displs[q] = off;
            off += counts[q] + 1;
        }
        for (int i = 0; i < off; i++)
            all[i] = -1;
        MPI_Igatherv(mine, rank % 3 + 1, MPI_INT, all, counts, displs,
                     MPI_INT, root, MPI_COMM_WORLD, &r);
        wait1(&r);
        if (rank == root) {
            bad = 0;
            for (int q = 0; q < size; q++) {
                for (int i = 0; i < counts[q]; i++)
                    bad += all[displs[q] + i] != val(q, root, i);
                bad += all[displs[q] + counts[q]] != -1;
            }
            CHECK(bad == 0, "igatherv root %d: %d wrong", root, bad);
        }
        int got[N] = {0};
        MPI_Iscatterv(all, counts, displs, MPI_INT, got, rank % 3 + 1,
                      MPI_INT, root, MPI_COMM_WORLD, &r);
        wait1(&r);
        bad = 0;
        for (int i = 0; i < rank % 3 + 1; i++)
            bad += got[i] != val(rank, root, i);
        CHECK(bad == 0, "iscatterv root %d", root);
    }
    free(all);
    free(counts);
    free(displs);
}

static void test_allgather_alltoall(int rank, int size)
{
    int n = size * N;
    int *sb = malloc((size_t)n * sizeof(int) * 2),
        *rb = malloc((size_t)n * sizeof(int) * 2);
    int *sc = malloc((size_t)size * sizeof(int)),
        *sd = malloc((size_t)size * sizeof(int));
    int *rc = malloc((size_t)size * sizeof(int)),
        *rd = malloc((size_t)size * sizeof(int));
    MPI_Datatype *types = malloc((size_t)size * sizeof(MPI_Datatype));
    MPI_Request r;
    int bad;

    for (int inplace = 0; inplace < 2; inplace++) {
        for (int i = 0; i < n; i++)
            rb[i] = -1;
        for (int i = 0; i < N; i++)
            sb[i] = val(rank, 0, i);
        if (inplace)
            memcpy(rb + rank * N, sb, N * sizeof(int));
        MPI_Iallgather(inplace ? MPI_IN_PLACE : sb, N, MPI_INT, rb, N,
                       MPI_INT, MPI_COMM_WORLD, &r);
        wait1(&r);
        bad = 0;
        for (int q = 0; q < size; q++)
            for (int i = 0; i < N; i++)
                bad += rb[q * N + i] != val(q, 0, i);
        CHECK(bad == 0, "iallgather inplace %d: %d wrong", inplace, bad);
        /* alltoall: block q of rank p is val(p, q, i) */
        for (int q = 0; q < size; q++)
            for (int i = 0; i < N; i++)
                sb[q * N + i] = val(rank, q, i);
        if (inplace)
            memcpy(rb, sb, (size_t)n * sizeof(int));
        MPI_Ialltoall(inplace ? MPI_IN_PLACE : sb, N, MPI_INT, rb, N, MPI_INT,
                      MPI_COMM_WORLD, &r);
        wait1(&r);
        bad = 0;
        for (int q = 0; q < size; q++)
            for (int i = 0; i < N; i++)
                bad += rb[q * N + i] != val(q, rank, i);
        CHECK(bad == 0, "ialltoall inplace %d: %d wrong", inplace, bad);
    }
    /* allgatherv: q gives q % 4 items at displs backwards */
    int off = 0;
    for (int q = size - 1; q >= 0; q--) {
        rc[q] = q % 4;
        rd[q] = off;
        off += rc[q];
    }
    for (int i = 0; i < N; i++)
        sb[i] = val(rank, 1, i);
    for (int i = 0; i < off; i++)
        rb[i] = -1;
    MPI_Iallgatherv(sb, rank % 4, MPI_INT, rb, rc, rd, MPI_INT,
                    MPI_COMM_WORLD, &r);
    wait1(&r);
    bad = 0;
    for (int q = 0; q < size; q++)
        for (int i = 0; i < rc[q]; i++)
            bad += rb[rd[q] + i] != val(q, 1, i);
    CHECK(bad == 0, "iallgatherv: %d wrong", bad);
    /* alltoallv: p sends (p + q) % 3 items to q */
    int so = 0, ro = 0;
    for (int q = 0; q < size; q++) {
        sc[q] = (rank + q) % 3;
        sd[q] = so;
        so += sc[q];
        rc[q] = (q + rank) % 3;
        rd[q] = ro;
        ro += rc[q];
        for (int i = 0; i < sc[q]; i++)
            sb[sd[q] + i] = val(rank, q, i);
    }
    for (int i = 0; i < ro; i++)
        rb[i] = -1;
    MPI_Ialltoallv(sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, MPI_COMM_WORLD,
                   &r);
    wait1(&r);
    bad = 0;
    for (int q = 0; q < size; q++)
        for (int i = 0; i < rc[q]; i++)
            bad += rb[rd[q] + i] != val(q, rank, i);
    CHECK(bad == 0, "ialltoallv: %d wrong", bad);
    /* alltoallw: byte displacements, one item of N ints each (a
     * contiguous type on the send side, MPI_INT x N on the receive side) */
    MPI_Datatype blk;
    MPI_Type_contiguous(N, MPI_INT, &blk);
    MPI_Type_commit(&blk);
    MPI_Datatype *rtypes = malloc((size_t)size * sizeof(MPI_Datatype));
    for (int q = 0; q < size; q++) {
        types[q] = blk;
        rtypes[q] = MPI_INT;
        sc[q] = 1;
        rc[q] = N;
        sd[q] = (size - 1 - q) * N * (int)sizeof(int);
        rd[q] = q * N * (int)sizeof(int);
        for (int i = 0; i < N; i++)
            sb[(size - 1 - q) * N + i] = val(rank, q, i) + 7;
    }
    for (int i = 0; i < n; i++)
        rb[i] = -1;
    MPI_Ialltoallw(sb, sc, sd, types, rb, rc, rd, rtypes, MPI_COMM_WORLD, &r);
    wait1(&r);
    bad = 0;
    for (int q = 0; q < size; q++)
        for (int i = 0; i < N; i++)
            bad += rb[q * N + i] != val(q, rank, i) + 7;
    CHECK(bad == 0, "ialltoallw: %d wrong", bad);
    /* a strided send type: every other int of a 2n buffer */
    MPI_Datatype strided;
    MPI_Type_vector(N, 1, 2, MPI_INT, &strided);
    MPI_Type_create_resized(strided, 0, 2 * N * (MPI_Aint)sizeof(int),
                            &types[0]);
    MPI_Type_commit(&types[0]);
    for (int q = 0; q < size; q++)
        for (int i = 0; i < N; i++) {
            sb[q * 2 * N + 2 * i] = val(rank, q, i) + 3;
            sb[q * 2 * N + 2 * i + 1] = -5;
        }
    MPI_Ialltoall(sb, 1, types[0], rb, N, MPI_INT, MPI_COMM_WORLD, &r);
    wait1(&r);
    bad = 0;
    for (int q = 0; q < size; q++)
        for (int i = 0; i < N; i++)
            bad += rb[q * N + i] != val(q, rank, i) + 3;
    CHECK(bad == 0, "ialltoall strided: %d wrong", bad);
    MPI_Type_free(&types[0]);
    MPI_Type_free(&strided);
    MPI_Type_free(&blk);
    free(rtypes);
    free(sb);
    free(rb);
    free(sc);
    free(sd);
    free(rc);
    free(rd);
    free(types);
}

static void test_reductions(int rank, int size)
{
    int in[N], out[N], ref[N], bad;
    unsigned m[4], mo[4], mref[4];
    MPI_Datatype mat;
    MPI_Op mop;
    MPI_Request r;

    MPI_Type_contiguous(4, MPI_UNSIGNED, &mat);
    MPI_Type_commit(&mat);
    MPI_Op_create(matmul, 0, &mop);
    mat_of(rank, m);
    for (int root = size - 1; root >= 0; root -= (size > 3 ? size / 3 : 1)) {
        for (int i = 0; i < N; i++) {
            in[i] = rank * 3 + i;
            ref[i] = 3 * size * (size - 1) / 2 + size * i;
            out[i] = -1;
        }
        for (int inplace = 0; inplace < 2; inplace++) {
            if (inplace && rank == root)
                memcpy(out, in, sizeof in);
            MPI_Ireduce(inplace && rank == root ? MPI_IN_PLACE : in, out, N,
                        MPI_INT, MPI_SUM, root, MPI_COMM_WORLD, &r);
            wait1(&r);
            if (rank == root)
                CHECK(memcmp(out, ref, sizeof ref) == 0,
                      "ireduce sum root %d inplace %d", root, inplace);
        }
        MPI_Ireduce(m, mo, 1, mat, mop, root, MPI_COMM_WORLD, &r);
        wait1(&r);
        mat_prefix(0, size, mref);
        if (rank == root)
            CHECK(memcmp(mo, mref, sizeof mref) == 0,
                  "ireduce non-commutative root %d", root);
    }
    MPI_Iallreduce(m, mo, 1, mat, mop, MPI_COMM_WORLD, &r);
    wait1(&r);
    CHECK(memcmp(mo, mref, sizeof mref) == 0, "iallreduce non-commutative");
    /* scan and exscan, also non-commutative and in place */
    for (int i = 0; i < N; i++)
        in[i] = rank + i;
    MPI_Iscan(in, out, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r);
    wait1(&r);
    bad = 0;
    for (int i = 0; i < N; i++)
        bad += out[i] != rank * (rank + 1) / 2 + (rank + 1) * i;
    CHECK(bad == 0, "iscan sum");
    memcpy(out, in, sizeof in);
    MPI_Iexscan(MPI_IN_PLACE, out, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r);
    wait1(&r);
    bad = 0;
    for (int i = 0; rank > 0 && i < N; i++)
        bad += out[i] != rank * (rank - 1) / 2 + rank * i;
    CHECK(bad == 0, "iexscan sum in place");
    memcpy(mo, m, sizeof m);
    MPI_Iscan(MPI_IN_PLACE, mo, 1, mat, mop, MPI_COMM_WORLD, &r);
    wait1(&r);
    mat_prefix(0, rank + 1, mref);
    CHECK(memcmp(mo, mref, sizeof mref) == 0, "iscan non-commutative");
    MPI_Iexscan(m, mo, 1, mat, mop, MPI_COMM_WORLD, &r);
    wait1(&r);
    if (rank > 0) {
        mat_prefix(0, rank, mref);
        CHECK(memcmp(mo, mref, sizeof mref) == 0, "iexscan non-commutative");
    }
    /* reduce_scatter_block and reduce_scatter (block q: q % 3 + 1 items) */
    int total = 0, *counts = malloc((size_t)size * sizeof(int));
    int *vec = malloc((size_t)size * 3 * sizeof(int) + sizeof(int));
    int got[3 * N];
    for (int q = 0; q < size; q++) {
        counts[q] = q % 3 + 1;
        total += counts[q];
    }
    for (int inplace = 0; inplace < 2; inplace++) {
        for (int i = 0; i < size * 2; i++)
            vec[i] = rank + i;
        MPI_Ireduce_scatter_block(inplace ? MPI_IN_PLACE : vec,
                                  inplace ? (void *)vec : got, 2, MPI_INT,
                                  MPI_SUM, MPI_COMM_WORLD, &r);
        wait1(&r);
        int *res = inplace ? vec : got;
        CHECK(res[0] == size * (size - 1) / 2 + size * (2 * rank) &&
                  res[1] == size * (size - 1) / 2 + size * (2 * rank + 1),
              "ireduce_scatter_block inplace %d: %d %d", inplace, res[0],
              res[1]);
    }
    for (int i = 0; i < total; i++)
        vec[i] = rank * 2 + i;
    MPI_Ireduce_scatter(vec, got, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                        &r);
    wait1(&r);
    int start = 0;
    for (int q = 0; q < rank; q++)
        start += counts[q];
    bad = 0;
    for (int i = 0; i < counts[rank]; i++)
        bad += got[i] != size * (size - 1) + size * (start + i);
    CHECK(bad == 0, "ireduce_scatter: %d wrong", bad);
    free(counts);
    free(vec);
    MPI_Op_free(&mop);
    MPI_Type_free(&mat);
}

/* many outstanding on one communicator, completed in reverse order */
static void test_outstanding(int rank, int size)
{
    enum { K = 6 };
    int b[K][64], s[K][4];
    MPI_Request r[2 * K + 1];

    for (int k = 0; k < K; k++) {
        int root = (k * 7) % size;
        for (int i = 0; i < 64; i++)
            b[k][i] = rank == root ? k * 1000 + i : -1;
        for (int i = 0; i < 4; i++)
            s[k][i] = rank * (k + 1) + i;
        MPI_Ibcast(b[k], 64, MPI_INT, root, MPI_COMM_WORLD, &r[2 * k]);
        MPI_Iallreduce(MPI_IN_PLACE, s[k], 4, MPI_INT, MPI_SUM,
                       MPI_COMM_WORLD, &r[2 * k + 1]);
    }
    MPI_Ibarrier(MPI_COMM_WORLD, &r[2 * K]);
    for (int k = 2 * K; k >= 0; k--)
        MPI_Wait(&r[k], MPI_STATUS_IGNORE);
    int bad = 0;
    for (int k = 0; k < K; k++) {
        for (int i = 0; i < 64; i++)
            bad += b[k][i] != k * 1000 + i;
        for (int i = 0; i < 4; i++)
            bad += s[k][i] != (k + 1) * size * (size - 1) / 2 + size * i;
    }
    CHECK(bad == 0, "%d operations outstanding: %d wrong", 2 * K + 1, bad);
}

/* rank 0 blocks in MPI_Recv from the last rank, which sends only once its
 * reduce (rooted at itself, through rank 0: tree to 0, then to the root)
 * is done: rank 0's schedule must move on inside MPI_Recv */
static void test_progress(int rank, int size)
{
    enum { M = 20000 }; /* above the eager limit: rendezvous */
    int *in = malloc(M * sizeof(int)), *out = malloc(M * sizeof(int));
    int token = 0, last = size - 1;
    MPI_Request r;

    for (int i = 0; i < M; i++)
        in[i] = rank + i;
    MPI_Ireduce(in, out, M, MPI_INT, MPI_SUM, last, MPI_COMM_WORLD, &r);
    if (size > 1 && rank == 0) {
        MPI_Recv(&token, 1, MPI_INT, last, 77, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        CHECK(token == 42, "token %d", token);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    } else {
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        if (size > 1 && rank == last) {
            token = 42;
            MPI_Send(&token, 1, MPI_INT, 0, 77, MPI_COMM_WORLD);
        }
    }
    if (rank == last) {
        int bad = 0;
        for (int i = 0; i < M; i++)
            bad += out[i] != size * (size - 1) / 2 + size * i;
        CHECK(bad == 0, "ireduce under a blocking receive: %d wrong", bad);
    }
    free(in);
    free(out);
}

static void test_errors(int rank, int size)
{
    int buf[4] = {0}, out[4];
    MPI_Request r;

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK(MPI_Igather(buf, 1, MPI_INT, out, 1, MPI_INT, size, MPI_COMM_WORLD,
                      &r) == MPI_ERR_ROOT, "igather bad root");
    CHECK(MPI_Ireduce(buf, out, 1, MPI_DOUBLE, MPI_BAND, 0, MPI_COMM_WORLD,
                      &r) == MPI_ERR_OP, "ireduce bad op");
    CHECK(MPI_Iallgather(buf, 1, MPI_INT, out, 1, MPI_INT, MPI_COMM_NULL,
                         &r) == MPI_ERR_COMM, "iallgather null comm");
    CHECK(MPI_Ialltoall(buf, 1, MPI_INT, out, 1, MPI_INT, MPI_COMM_WORLD,
                        NULL) == MPI_ERR_REQUEST, "ialltoall null request");
    CHECK(MPI_Iscan(buf, out, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r) ==
              MPI_ERR_COUNT, "iscan negative count");
    CHECK(MPI_Iexscan(buf, out, 1, MPI_DATATYPE_NULL, MPI_SUM,
                      MPI_COMM_WORLD, &r) == MPI_ERR_TYPE, "iexscan type");
    if (size > 1)
        CHECK(MPI_Ireduce(MPI_IN_PLACE, out, 1, MPI_INT, MPI_SUM,
                          rank == 0 ? 1 : 0, MPI_COMM_WORLD, &r) ==
                  MPI_ERR_BUFFER, "ireduce IN_PLACE off the root");
    CHECK(MPI_Ireduce_scatter(buf, out, NULL, MPI_INT, MPI_SUM,
                              MPI_COMM_WORLD, &r) == MPI_ERR_ARG,
          "ireduce_scatter NULL counts");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    int rank, size, quick = argc > 1 && strcmp(argv[1], "quick") == 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    test_gather_scatter(rank, size);
    test_allgather_alltoall(rank, size);
    test_reductions(rank, size);
    test_outstanding(rank, size);
    test_progress(rank, size);
    if (!quick) {
        /* the same on a split communicator (every other rank) */
        MPI_Comm half;
        MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
        int hr, hs;
        MPI_Comm_rank(half, &hr);
        MPI_Comm_size(half, &hs);
        int x = hr, sum = -1;
        MPI_Request r;
        MPI_Iallreduce(&x, &sum, 1, MPI_INT, MPI_SUM, half, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        CHECK(sum == hs * (hs - 1) / 2, "iallreduce on a split: %d", sum);
        MPI_Comm_free(&half);
    }
    test_errors(rank, size);
    return mpitest_end("t_nbcall");
}
