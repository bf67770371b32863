/* Every collective against a reference computed locally: roots, counts
 * from 0 to past the eager limit, MPI_IN_PLACE, v-variants with uneven
 * counts and gaps, derived datatypes, a non-commutative user operation,
 * on MPI_COMM_WORLD and on sub-communicators from MPI_Comm_split; then the
 * argument errors under MPI_ERRORS_RETURN. "quick" runs smaller sizes. */
#include "colltest.h"

static int big = 20000; /* ints: past the eager limit of both channels */

/* the value rank r puts at position i */
static int v(int r, int i) { return r * 1000 + i; }

static void t_bcast(MPI_Comm c, int rank, int size)
{
    int counts[] = {0, 1, 37, big};
    int *buf = malloc(sizeof(int) * (size_t)big);

    for (int root = 0; root < size; root += size > 3 ? size / 3 : 1) {
        for (int k = 0; k < 4; k++) {
            for (int i = 0; i < counts[k]; i++)
                buf[i] = rank == root ? v(root, i) : -1;
            MPI_Bcast(buf, counts[k], MPI_INT, root, c);
            int bad = 0;
            for (int i = 0; i < counts[k]; i++)
                bad += buf[i] != v(root, i);
            CHECK(bad == 0, "bcast root %d count %d: %d wrong", root,
                  counts[k], bad);
        }
    }
    /* a vector type: every other int of 2*n */
    MPI_Datatype vec;
    int n = 50, *w = calloc(2 * (size_t)n, sizeof(int));
    MPI_Type_vector(n, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    for (int i = 0; i < 2 * n; i++)
        w[i] = rank == 0 ? v(0, i) : -1;
    MPI_Bcast(w, 1, vec, 0, c);
    for (int i = 0; i < 2 * n; i++)
        CHECK(w[i] == (i % 2 == 0 || rank == 0 ? v(0, i) : -1),
              "bcast vector [%d]", i);
    MPI_Type_free(&vec);
    free(w);
    free(buf);
}

/* gather/scatter uniform and IN_PLACE, gatherv/scatterv uneven, reversed
 * blocks with gaps */
static void t_gather_scatter(MPI_Comm c, int rank, int size)
{
    int *all = malloc(sizeof(int) * (size_t)(64 * size + 3 * size));
    int mine[64], *counts = malloc(sizeof(int) * (size_t)size * 2);
    int *displs = counts + size, total = 0;

    /* 5 ints go by the binomial tree, 64 (256 B) straight to the root */
    for (int k = 0, n = 5; k < 4; k++, n = k % 2 ? 64 : 5) {
        int root = k < 2 ? 0 : size - 1;
        for (int i = 0; i < n; i++)
            mine[i] = v(rank, i);
        for (int i = 0; i < n * size; i++)
            all[i] = rank == root ? v(i / n, i % n) : -1;
        int inplace = k >= 2;
        MPI_Gather(inplace && rank == root ? MPI_IN_PLACE : mine, n, MPI_INT,
                   all, n, MPI_INT, root, c);
        if (rank == root)
            for (int i = 0; i < n * size; i++)
                CHECK(all[i] == v(i / n, i % n), "gather root %d [%d]", root,
                      i);
        memset(mine, 0xff, sizeof mine);
        MPI_Scatter(all, n, MPI_INT, inplace && rank == root ? MPI_IN_PLACE
                                                             : mine,
                    n, MPI_INT, root, c);
        if (!(inplace && rank == root))
            for (int i = 0; i < n; i++)
                CHECK(mine[i] == v(rank, i), "scatter root %d [%d]", root, i);
    }
    /* uneven: rank i has i % 4 items, blocks reversed, one int gaps */
    total = 0;
    for (int i = size - 1; i >= 0; i--) {
        counts[i] = i % 4;
        displs[i] = total;
        total += counts[i] + 1;
    }
    int root = size / 2;
    for (int i = 0; i < total; i++)
        all[i] = -7;
    for (int i = 0; i < rank % 4; i++)
        mine[i] = v(rank, i);
    MPI_Gatherv(mine, rank % 4, MPI_INT, all, counts, displs, MPI_INT, root,
                c);
    if (rank == root)
        for (int r = 0; r < size; r++) {
            for (int i = 0; i < counts[r]; i++)
                CHECK(all[displs[r] + i] == v(r, i), "gatherv %d[%d]", r, i);
            CHECK(all[displs[r] + counts[r]] == -7, "gatherv gap %d", r);
        }
    memset(mine, 0, sizeof mine);
    MPI_Scatterv(all, counts, displs, MPI_INT, mine, rank % 4, MPI_INT, root,
                 c);
    for (int i = 0; i < rank % 4; i++)
        CHECK(mine[i] == v(rank, i), "scatterv [%d]", i);
    free(all);
    free(counts);
}

static void t_allgather(MPI_Comm c, int rank, int size)
{
    int n = 3, *all = malloc(sizeof(int) * (size_t)(4 * size + 8));
    int mine[4], *counts = malloc(sizeof(int) * (size_t)size * 2);
    int *displs = counts + size, total = 0;

    for (int inplace = 0; inplace < 2; inplace++) {
        for (int i = 0; i < n * size; i++)
            all[i] = inplace && i / n == rank ? v(rank, i % n) : -1;
        for (int i = 0; i < n; i++)
            mine[i] = v(rank, i);
        MPI_Allgather(inplace ? MPI_IN_PLACE : mine, n, MPI_INT, all, n,
                      MPI_INT, c);
        for (int i = 0; i < n * size; i++)
            CHECK(all[i] == v(i / n, i % n), "allgather in_place %d [%d]",
                  inplace, i);
    }
    for (int i = 0; i < size; i++) {
        counts[i] = (i * 7) % 5;
        displs[i] = total;
        total += counts[i];
    }
    for (int i = 0; i < counts[rank]; i++)
        mine[i] = v(rank, i);
    MPI_Allgatherv(mine, counts[rank], MPI_INT, all, counts, displs, MPI_INT,
                   c);
    for (int r = 0; r < size; r++)
        for (int i = 0; i < counts[r]; i++)
            CHECK(all[displs[r] + i] == v(r, i), "allgatherv %d[%d]", r, i);
    free(all);
    free(counts);
}

static void t_alltoall(MPI_Comm c, int rank, int size)
{
    int n = 2, *s = malloc(sizeof(int) * (size_t)(8 * size));
    int *r = malloc(sizeof(int) * (size_t)(8 * size));
    int *sc = malloc(sizeof(int) * (size_t)size * 4);
    int *sd = sc + size, *rc = sc + 2 * size, *rd = sc + 3 * size;

    for (int inplace = 0; inplace < 2; inplace++) {
        for (int i = 0; i < n * size; i++) {
            s[i] = v(rank, i); /* block j goes to rank j */
            r[i] = inplace ? s[i] : -1;
        }
        MPI_Alltoall(inplace ? MPI_IN_PLACE : s, n, MPI_INT, r, n, MPI_INT,
                     c);
        for (int i = 0; i < n * size; i++)
            CHECK(r[i] == v(i / n, rank * n + i % n),
                  "alltoall in_place %d [%d]", inplace, i);
    }
    /* v: rank a sends (a + b) % 3 items to rank b */
    int st = 0, rt = 0;
    for (int j = 0; j < size; j++) {
        sc[j] = (rank + j) % 3;
        sd[j] = st;
        st += sc[j];
        rc[j] = (rank + j) % 3;
        rd[j] = rt;
        rt += rc[j] + 1;
    }
    for (int j = 0; j < size; j++)
        for (int i = 0; i < sc[j]; i++)
            s[sd[j] + i] = v(rank, j * 10 + i);
    for (int i = 0; i < rt; i++)
        r[i] = -3;
    MPI_Alltoallv(s, sc, sd, MPI_INT, r, rc, rd, MPI_INT, c);
    for (int j = 0; j < size; j++) {
        for (int i = 0; i < rc[j]; i++)
            CHECK(r[rd[j] + i] == v(j, rank * 10 + i), "alltoallv %d[%d]", j,
                  i);
        CHECK(r[rd[j] + rc[j]] == -3, "alltoallv gap %d", j);
    }
    /* w: the same in bytes, MPI_INT everywhere */
    MPI_Datatype *ty = malloc(sizeof *ty * (size_t)size);
    for (int j = 0; j < size; j++) {
        ty[j] = MPI_INT;
        sd[j] *= (int)sizeof(int);
        rd[j] *= (int)sizeof(int);
    }
    for (int i = 0; i < rt; i++)
        r[i] = -3;
    MPI_Alltoallw(s, sc, sd, ty, r, rc, rd, ty, c);
    for (int j = 0; j < size; j++)
        for (int i = 0; i < rc[j]; i++)
            CHECK(r[rd[j] / 4 + i] == v(j, rank * 10 + i), "alltoallw %d[%d]",
                  j, i);
    free(ty);
    free(s);
    free(r);
    free(sc);
}

static void t_reduce(MPI_Comm c, int rank, int size)
{
    int counts[] = {0, 1, 700, big};
    int *in = malloc(sizeof(int) * (size_t)big);
    int *out = malloc(sizeof(int) * (size_t)big);

    for (int k = 0; k < 4; k++) {
        int n = counts[k], root = k % size;
        for (int inplace = 0; inplace < 2; inplace++) {
            for (int i = 0; i < n; i++)
                in[i] = out[i] = v(rank, i);
            MPI_Allreduce(inplace ? MPI_IN_PLACE : in, out, n, MPI_INT,
                          MPI_SUM, c);
            int bad = 0;
            for (int i = 0; i < n; i++)
                bad += out[i] != size * (size - 1) / 2 * 1000 + size * i;
            CHECK(bad == 0, "allreduce %d in_place %d: %d wrong", n, inplace,
                  bad);
            for (int i = 0; i < n; i++)
                out[i] = v(rank, i);
            MPI_Reduce(inplace && rank == root ? MPI_IN_PLACE : in, out, n,
                       MPI_INT, MPI_MAX, root, c);
            bad = 0;
            for (int i = 0; rank == root && i < n; i++)
                bad += out[i] != v(size - 1, i);
            CHECK(bad == 0, "reduce %d in_place %d: %d wrong", n, inplace,
                  bad);
        }
    }
    free(in);
    free(out);
}

static void t_reduce_scatter(MPI_Comm c, int rank, int size)
{
    int *counts = malloc(sizeof(int) * (size_t)size), total = 0, first = 0;

    for (int i = 0; i < size; i++) {
        counts[i] = i % 3 + 1;
        first += i < rank ? counts[i] : 0;
        total += counts[i];
    }
    int *in = malloc(sizeof(int) * (size_t)total), out[4];
    for (int inplace = 0; inplace < 2; inplace++) {
        for (int i = 0; i < total; i++)
            in[i] = v(rank, i);
        if (inplace)
            MPI_Reduce_scatter(MPI_IN_PLACE, in, counts, MPI_INT, MPI_SUM, c);
        else
            MPI_Reduce_scatter(in, out, counts, MPI_INT, MPI_SUM, c);
        int *res = inplace ? in : out;
        for (int i = 0; i < counts[rank]; i++)
            CHECK(res[i] == size * (size - 1) / 2 * 1000 + size * (first + i),
                  "reduce_scatter in_place %d [%d]", inplace, i);
    }
    for (int i = 0; i < 2 * size; i++)
        in[i % total] = 0;
    int *blk = malloc(sizeof(int) * 2 * (size_t)size);
    for (int i = 0; i < 2 * size; i++)
        blk[i] = v(rank, i);
    MPI_Reduce_scatter_block(blk, out, 2, MPI_INT, MPI_SUM, c);
    for (int i = 0; i < 2; i++)
        CHECK(out[i] == size * (size - 1) / 2 * 1000 + size * (2 * rank + i),
              "reduce_scatter_block [%d]", i);
    free(blk);
    free(in);
    free(counts);
}

static void t_scan(MPI_Comm c, int rank, int size)
{
    MPI_Datatype mat;
    MPI_Op mop;
    unsigned in[4], out[4], ref[4];
    int x = rank + 1, s = -1;

    MPI_Scan(&x, &s, 1, MPI_INT, MPI_SUM, c);
    CHECK(s == (rank + 1) * (rank + 2) / 2, "scan sum %d", s);
    s = -1;
    MPI_Exscan(&x, &s, 1, MPI_INT, MPI_SUM, c);
    CHECK(rank == 0 || s == rank * (rank + 1) / 2, "exscan sum %d", s);
    s = x;
    MPI_Scan(MPI_IN_PLACE, &s, 1, MPI_INT, MPI_SUM, c);
    CHECK(s == (rank + 1) * (rank + 2) / 2, "scan in place %d", s);
    MPI_Type_contiguous(4, MPI_UNSIGNED, &mat);
    MPI_Type_commit(&mat);
    MPI_Op_create(matmul, 0, &mop);
    mat_of(rank, in);
    MPI_Scan(in, out, 1, mat, mop, c);
    mat_prefix(0, rank + 1, ref);
    CHECK(memcmp(out, ref, sizeof ref) == 0, "non-commutative scan");
    MPI_Exscan(in, out, 1, mat, mop, c);
    if (rank > 0)
        mat_prefix(0, rank, ref);
    CHECK(rank == 0 || memcmp(out, ref, sizeof ref) == 0,
          "non-commutative exscan");
    MPI_Op_free(&mop);
    MPI_Type_free(&mat);
}

static void all_tests(MPI_Comm c)
{
    int rank, size;

    MPI_Comm_rank(c, &rank);
    MPI_Comm_size(c, &size);
    MPI_Barrier(c);
    t_bcast(c, rank, size);
    t_gather_scatter(c, rank, size);
    t_allgather(c, rank, size);
    t_alltoall(c, rank, size);
    t_reduce(c, rank, size);
    t_reduce_scatter(c, rank, size);
    t_scan(c, rank, size);
    MPI_Barrier(c);
}

#define EXPECT(call, cls)                                                    \
    do {                                                                     \
        int e_ = (call);                                                     \
        CHECK(e_ == (cls), "%s: %d, not %s", #call, e_, #cls);               \
    } while (0)

static void t_errors(int rank, int size)
{
    int b[4] = {0}, r[4 * 48], counts[48] = {0}, displs[48] = {0};

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    EXPECT(MPI_Bcast(b, 1, MPI_INT, -1, MPI_COMM_WORLD), MPI_ERR_ROOT);
    EXPECT(MPI_Bcast(b, 1, MPI_INT, size, MPI_COMM_WORLD), MPI_ERR_ROOT);
    EXPECT(MPI_Bcast(b, -1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
    EXPECT(MPI_Bcast(b, 1, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD),
           MPI_ERR_TYPE);
    EXPECT(MPI_Bcast(NULL, 1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    EXPECT(MPI_Bcast(b, 1, MPI_INT, 0, MPI_COMM_NULL), MPI_ERR_COMM);
    EXPECT(MPI_Barrier(MPI_COMM_NULL), MPI_ERR_COMM);
    EXPECT(MPI_Reduce(b, r, 1, MPI_INT, MPI_SUM, size + 3, MPI_COMM_WORLD),
           MPI_ERR_ROOT);
    EXPECT(MPI_Allreduce(b, r, 1, MPI_DOUBLE, MPI_BXOR, MPI_COMM_WORLD),
           MPI_ERR_OP);
    EXPECT(MPI_Allreduce(b, r, -2, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
           MPI_ERR_COUNT);
    EXPECT(MPI_Gather(b, 1, MPI_INT, r, 1, MPI_INT, -1, MPI_COMM_WORLD),
           MPI_ERR_ROOT);
    EXPECT(MPI_Scatter(b, 1, MPI_INT, r, -1, MPI_INT, 0, MPI_COMM_WORLD),
           MPI_ERR_COUNT);
    EXPECT(MPI_Allgather(b, 1, MPI_INT, r, 1, MPI_DATATYPE_NULL,
                         MPI_COMM_WORLD), MPI_ERR_TYPE);
    EXPECT(MPI_Scan(b, r, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD),
           MPI_ERR_OP);
    EXPECT(MPI_Exscan(b, r, 1, MPI_INT, MPI_MAXLOC, MPI_COMM_WORLD),
           MPI_ERR_OP);
    EXPECT(MPI_Alltoall(b, -1, MPI_INT, r, 1, MPI_INT, MPI_COMM_WORLD),
           MPI_ERR_COUNT);
    counts[0] = -1;
    if (rank == 0)
        EXPECT(MPI_Gatherv(b, 0, MPI_INT, r, counts, displs, MPI_INT, 0,
                           MPI_COMM_WORLD), MPI_ERR_COUNT);
    EXPECT(MPI_Reduce_scatter(b, r, counts, MPI_INT, MPI_SUM,
                              MPI_COMM_WORLD), MPI_ERR_COUNT);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Comm half, dup;

    MPI_Init(&argc, &argv);
    if (argc > 1 && strcmp(argv[1], "quick") == 0)
        big = 3000;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    all_tests(MPI_COMM_WORLD);
    /* sub-communicators: halves in reversed rank order, and a dup */
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &half);
    all_tests(half);
    MPI_Comm_free(&half);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    t_reduce(dup, rank, size);
    MPI_Comm_free(&dup);
    t_errors(rank, size);
    return mpitest_end("t_coll");
}
