/* MPI_Type_create_subarray and MPI_Type_create_darray against layouts
 * worked out by hand and against an independent reference: the memory
 * offsets, in increasing order, of the elements a process owns by the
 * distribution's definition (block: index / blocksize; cyclic: (index /
 * blocksize) mod p; the process grid row-major), in C and Fortran order;
 * every process's part of a darray together covers the array exactly once;
 * sizes, extents and bounds; a subarray sent around a ring; the error
 * classes of bad arguments. Any number of processes (the darray cases
 * compute every rank's part locally). */
#include "mpitest.h"

#define MAXE 4096

/* the elements a type selects from an array whose element k holds k (oldtype
 * MPI_INT), in typemap order */
static int selected(MPI_Datatype t, int total, int *out)
{
    int *arr = malloc((size_t)total * sizeof(int)), size, pos = 0;

    for (int k = 0; k < total; k++)
        arr[k] = k;
    MPI_Type_size(t, &size);
    MPI_Pack(arr, 1, t, out, MAXE * (int)sizeof(int), &pos, MPI_COMM_WORLD);
    free(arr);
    return size / (int)sizeof(int);
}

/* offset of multi-index idx in an array of gsizes in @p order */
static int offset(int nd, const int *g, const int *idx, int order)
{
    int off = 0;

    if (order == MPI_ORDER_C)
        for (int d = 0; d < nd; d++)
            off = off * g[d] + idx[d];
    else
        for (int d = nd - 1; d >= 0; d--)
            off = off * g[d] + idx[d];
    return off;
}

static void index_of(int nd, const int *g, int off, int order, int *idx)
{
    if (order == MPI_ORDER_C)
        for (int d = nd - 1; d >= 0; d--) {
            idx[d] = off % g[d];
            off /= g[d];
        }
    else
        for (int d = 0; d < nd; d++) {
            idx[d] = off % g[d];
            off /= g[d];
        }
}

static int owner(int dist, int darg, int g, int p, int i)
{
    if (dist == MPI_DISTRIBUTE_NONE)
        return 0;
    if (dist == MPI_DISTRIBUTE_BLOCK) {
        int b = darg == MPI_DISTRIBUTE_DFLT_DARG ? (g + p - 1) / p : darg;
        return i / b;
    }
    int b = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
    return i / b % p;
}

static void check_type(MPI_Datatype t, int total, const int *ref, int n,
                       const char *what)
{
    static int got[MAXE];
    MPI_Aint lb, ext;
    int m = selected(t, total, got), bad = 0;

    MPI_Type_get_extent(t, &lb, &ext);
    CHECK(lb == 0 && ext == (MPI_Aint)total * (MPI_Aint)sizeof(int),
          "%s: lb %ld extent %ld (total %d)", what, (long)lb, (long)ext,
          total);
    CHECK(m == n, "%s: %d elements, %d expected", what, m, n);
    for (int i = 0; i < n && i < m; i++)
        bad += got[i] != ref[i];
    CHECK(bad == 0, "%s: %d elements wrong", what, bad);
}

struct dcase {
    int nd, g[3], dist[3], darg[3], p[3];
};

static void test_darray_case(const struct dcase *c, int order)
{
    int size = 1, total = 1, idx[3], coord[3];
    static int ref[MAXE], seen[MAXE];
    char what[96];

    for (int d = 0; d < c->nd; d++) {
        size *= c->p[d];
        total *= c->g[d];
    }
    memset(seen, 0, sizeof seen);
    for (int r = 0; r < size; r++) {
        MPI_Datatype t;
        int n = 0;
        for (int d = c->nd - 1, x = r; d >= 0; d--) {
            coord[d] = x % c->p[d];
            x /= c->p[d];
        }
        for (int off = 0; off < total; off++) {
            int mine = 1;
            index_of(c->nd, c->g, off, order, idx);
            for (int d = 0; d < c->nd; d++)
                mine &= owner(c->dist[d], c->darg[d], c->g[d], c->p[d],
                              idx[d]) == coord[d];
            if (mine) {
                ref[n++] = off;
                seen[off]++;
            }
        }
        snprintf(what, sizeof what, "darray %dd %dx%dx%d %s rank %d/%d",
                 c->nd, c->g[0], c->nd > 1 ? c->g[1] : 1,
                 c->nd > 2 ? c->g[2] : 1, order == MPI_ORDER_C ? "C" : "F",
                 r, size);
        CHECK(MPI_Type_create_darray(size, r, c->nd, c->g, c->dist, c->darg,
                                     c->p, order, MPI_INT, &t) ==
                  MPI_SUCCESS, "%s: create", what);
        MPI_Type_commit(&t);
        check_type(t, total, ref, n, what);
        MPI_Type_free(&t);
    }
    int bad = 0;
    for (int off = 0; off < total; off++)
        bad += seen[off] != 1;
    CHECK(bad == 0, "darray: the parts do not cover the array once");
}

static void test_darray(void)
{
    const int D = MPI_DISTRIBUTE_DFLT_DARG, B = MPI_DISTRIBUTE_BLOCK,
              C = MPI_DISTRIBUTE_CYCLIC, N = MPI_DISTRIBUTE_NONE;
    const struct dcase cases[] = {
        {2, {6, 5}, {B, C}, {D, 2}, {2, 2}},
        {3, {7, 4, 3}, {C, B, N}, {D, D, D}, {3, 2, 1}},
        {1, {10}, {C}, {3}, {4}},
        {2, {5, 9}, {B, B}, {4, D}, {2, 3}},
        {1, {3}, {B}, {2}, {3}}, /* rank 2 owns nothing */
        {1, {2}, {C}, {D}, {3}}, /* rank 2 owns nothing */
        {3, {4, 6, 5}, {C, C, B}, {2, D, 3}, {2, 3, 2}},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        test_darray_case(&cases[k], MPI_ORDER_C);
        test_darray_case(&cases[k], MPI_ORDER_FORTRAN);
    }
    /* by hand: 6x5 ints, rows in blocks of 3 over 2, columns cyclic(2)
     * over 2, C order; rank 1 = coords (0, 1): rows 0-2, columns 2, 3 */
    int g[2] = {6, 5}, dist[2] = {B, C}, darg[2] = {D, 2}, p[2] = {2, 2};
    int hand[] = {2, 3, 7, 8, 12, 13};
    MPI_Datatype t;
    MPI_Type_create_darray(4, 1, 2, g, dist, darg, p, MPI_ORDER_C, MPI_INT,
                           &t);
    MPI_Type_commit(&t);
    check_type(t, 30, hand, 6, "darray by hand");
    MPI_Type_free(&t);
    /* the same in Fortran order, rank 2 = coords (1, 0): rows 3-5 of the
     * first index, columns 0, 1, 4 of the second (offset i + 6 j) */
    int handf[] = {3, 4, 5, 9, 10, 11, 27, 28, 29};
    MPI_Type_create_darray(4, 2, 2, g, dist, darg, p, MPI_ORDER_FORTRAN,
                           MPI_INT, &t);
    MPI_Type_commit(&t);
    check_type(t, 30, handf, 9, "darray Fortran by hand");
    MPI_Type_free(&t);
    /* errors */
    p[0] = 3;
    CHECK(MPI_Type_create_darray(4, 0, 2, g, dist, darg, p, MPI_ORDER_C,
                                 MPI_INT, &t) == MPI_ERR_ARG,
          "grid of 6 for size 4");
    p[0] = 2;
    darg[0] = 2; /* 2 x 2 < 6 */
    CHECK(MPI_Type_create_darray(4, 0, 2, g, dist, darg, p, MPI_ORDER_C,
                                 MPI_INT, &t) == MPI_ERR_ARG,
          "blocks too small");
    darg[0] = D;
    dist[1] = N; /* NONE on 2 processes */
    CHECK(MPI_Type_create_darray(4, 0, 2, g, dist, darg, p, MPI_ORDER_C,
                                 MPI_INT, &t) == MPI_ERR_ARG,
          "NONE on 2 processes");
    dist[1] = C;
    CHECK(MPI_Type_create_darray(4, 4, 2, g, dist, darg, p, MPI_ORDER_C,
                                 MPI_INT, &t) == MPI_ERR_ARG, "rank 4 of 4");
    CHECK(MPI_Type_create_darray(4, 0, 2, g, dist, darg, p, 3, MPI_INT, &t) ==
              MPI_ERR_ARG, "bad order");
}

static void test_subarray(int rank, int size)
{
    int sizes[2] = {4, 5}, sub[2] = {2, 3}, start[2] = {1, 2};
    int handc[] = {7, 8, 9, 12, 13, 14};   /* (1..2, 2..4): 5 i + j */
    int handf[] = {9, 10, 13, 14, 17, 18}; /* i + 4 j */
    MPI_Datatype t;
    MPI_Aint tlb, text;

    MPI_Type_create_subarray(2, sizes, sub, start, MPI_ORDER_C, MPI_INT, &t);
    MPI_Type_commit(&t);
    check_type(t, 20, handc, 6, "subarray C by hand");
    MPI_Type_get_true_extent(t, &tlb, &text);
    CHECK(tlb == 7 * (MPI_Aint)sizeof(int) &&
              text == 8 * (MPI_Aint)sizeof(int),
          "subarray true extent %ld %ld", (long)tlb, (long)text);
    /* around the ring: my subarray to the next rank as 6 ints */
    int a[20], got[6], from = (rank - 1 + size) % size;
    for (int k = 0; k < 20; k++)
        a[k] = rank * 100 + k;
    MPI_Sendrecv(a, 1, t, (rank + 1) % size, 3, got, 6, MPI_INT, from, 3,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    int bad = 0;
    for (int i = 0; i < 6; i++)
        bad += got[i] != from * 100 + handc[i];
    CHECK(bad == 0, "subarray over the ring");
    /* and received into a subarray: two of them in one message */
    int two[40];
    for (int k = 0; k < 40; k++)
        two[k] = -1;
    int src[12];
    for (int i = 0; i < 12; i++)
        src[i] = 1000 + i;
    MPI_Sendrecv(src, 12, MPI_INT, (rank + 1) % size, 4, two, 2, t, from, 4,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    bad = 0;
    for (int i = 0; i < 12; i++)
        bad += two[(i / 6) * 20 + handc[i % 6]] != 1000 + i;
    CHECK(bad == 0, "received into two subarrays");
    MPI_Type_free(&t);
    MPI_Type_create_subarray(2, sizes, sub, start, MPI_ORDER_FORTRAN, MPI_INT,
                             &t);
    MPI_Type_commit(&t);
    check_type(t, 20, handf, 6, "subarray Fortran by hand");
    MPI_Type_free(&t);
    /* 3-d against the reference */
    for (int order = MPI_ORDER_C; order <= MPI_ORDER_FORTRAN; order++) {
        int g3[3] = {3, 4, 5}, s3[3] = {2, 2, 3}, st3[3] = {1, 1, 2};
        int ref[60], n = 0, idx[3];
        for (int off = 0; off < 60; off++) {
            int in = 1;
            index_of(3, g3, off, order, idx);
            for (int d = 0; d < 3; d++)
                in &= idx[d] >= st3[d] && idx[d] < st3[d] + s3[d];
            if (in)
                ref[n++] = off;
        }
        CHECK(offset(3, g3, st3, order) == ref[0], "reference start");
        MPI_Type_create_subarray(3, g3, s3, st3, order, MPI_INT, &t);
        MPI_Type_commit(&t);
        check_type(t, 60, ref, n, order == MPI_ORDER_C ? "subarray 3d C"
                                                        : "subarray 3d F");
        MPI_Type_free(&t);
    }
    /* a derived oldtype: pairs of doubles (extent 16) */
    MPI_Datatype pair;
    MPI_Type_contiguous(2, MPI_DOUBLE, &pair);
    MPI_Type_create_subarray(2, sizes, sub, start, MPI_ORDER_C, pair, &t);
    MPI_Type_commit(&t);
    double d[40], packed[12];
    int pos = 0;
    for (int k = 0; k < 40; k++)
        d[k] = k * 0.5;
    MPI_Pack(d, 1, t, packed, sizeof packed, &pos, MPI_COMM_WORLD);
    bad = pos != (int)sizeof packed;
    for (int i = 0; i < 12; i++)
        bad += packed[i] != (2 * handc[i / 2] + i % 2) * 0.5;
    CHECK(bad == 0, "subarray of pairs");
    MPI_Type_free(&t);
    MPI_Type_free(&pair);
    /* errors */
    sub[1] = 6;
    CHECK(MPI_Type_create_subarray(2, sizes, sub, start, MPI_ORDER_C, MPI_INT,
                                   &t) == MPI_ERR_ARG, "subsize > size");
    sub[1] = 3;
    start[1] = 3;
    CHECK(MPI_Type_create_subarray(2, sizes, sub, start, MPI_ORDER_C, MPI_INT,
                                   &t) == MPI_ERR_ARG, "start + subsize");
    start[1] = 2;
    CHECK(MPI_Type_create_subarray(0, sizes, sub, start, MPI_ORDER_C, MPI_INT,
                                   &t) == MPI_ERR_ARG, "ndims 0");
    CHECK(MPI_Type_create_subarray(2, sizes, sub, start, 99, MPI_INT, &t) ==
              MPI_ERR_ARG, "bad order");
    CHECK(MPI_Type_create_subarray(2, sizes, sub, start, MPI_ORDER_C,
                                   MPI_DATATYPE_NULL, &t) == MPI_ERR_TYPE,
          "null oldtype");
}

int main(int argc, char **argv)
{
    int rank, size;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    test_subarray(rank, size);
    test_darray();
    return mpitest_end("t_darray");
}
