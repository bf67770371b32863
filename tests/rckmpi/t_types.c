/* MPI datatypes: every constructor sent and received (round trips
 * between ranks and through Pack/Unpack), extents, sizes, Get_elements,
 * the pair types, a struct of mixed members. */
#include "mpitest.h"

#include <stddef.h>

typedef struct {
    char c;
    double d;
    int i[3];
} rec_t;

static MPI_Datatype rec_type(void)
{
    int bl[3] = {1, 1, 3};
    MPI_Aint disp[3] = {offsetof(rec_t, c), offsetof(rec_t, d),
                        offsetof(rec_t, i)};
    MPI_Datatype types[3] = {MPI_CHAR, MPI_DOUBLE, MPI_INT}, t, r;

    MPI_Type_create_struct(3, bl, disp, types, &t);
    MPI_Type_create_resized(t, 0, sizeof(rec_t), &r);
    MPI_Type_free(&t);
    MPI_Type_commit(&r);
    return r;
}

/* send @p count of @p t from @p src to the peer and back, compare the
 * bytes the type covers */
static void roundtrip(const char *name, MPI_Datatype t, int count,
                      int rank, int size)
{
    MPI_Aint lb, ext;
    int tsize, peer = (rank + 1) % size, from = (rank + size - 1) % size;
    double *a, *b;
    size_t n;

    MPI_Type_get_extent(t, &lb, &ext);
    MPI_Type_size(t, &tsize);
    n = (size_t)(ext * count + 64) / sizeof(double) + 1;
    a = malloc(n * sizeof(double));
    b = malloc(n * sizeof(double));
    for (size_t i = 0; i < n; i++) {
        a[i] = rank * 1000.0 + (double)i;
        b[i] = -1;
    }
    MPI_Sendrecv(a, count, t, peer, 1, b, count, t, from, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    /* what the type covers came from @p from; pack both and compare */
    {
        int psize, pos = 0, pos2 = 0;
        char *pa, *pb;
        MPI_Pack_size(count, t, MPI_COMM_WORLD, &psize);
        CHECK(psize == tsize * count, "%s: pack size %d", name, psize);
        pa = malloc((size_t)psize + 1);
        pb = malloc((size_t)psize + 1);
        for (size_t i = 0; i < n; i++)
            a[i] = from * 1000.0 + (double)i;
        MPI_Pack(a, count, t, pa, psize, &pos, MPI_COMM_WORLD);
        MPI_Pack(b, count, t, pb, psize, &pos2, MPI_COMM_WORLD);
        CHECK(pos == psize && memcmp(pa, pb, (size_t)psize) == 0,
              "%s: received data", name);
        /* unpack into a fresh buffer and pack again */
        for (size_t i = 0; i < n; i++)
            b[i] = -2;
        pos = 0;
        MPI_Unpack(pa, psize, &pos, b, count, t, MPI_COMM_WORLD);
        pos2 = 0;
        MPI_Pack(b, count, t, pb, psize, &pos2, MPI_COMM_WORLD);
        CHECK(memcmp(pa, pb, (size_t)psize) == 0, "%s: unpack", name);
        free(pa);
        free(pb);
    }
    free(a);
    free(b);
}

static void constructors(int rank, int size)
{
    MPI_Datatype t;
    MPI_Aint lb, ext, tlb, text;
    int sz;

    MPI_Type_contiguous(5, MPI_INT, &t);
    MPI_Type_commit(&t);
    MPI_Type_size(t, &sz);
    MPI_Type_get_extent(t, &lb, &ext);
    CHECK(sz == 20 && lb == 0 && ext == 20, "contiguous: %d %ld %ld", sz,
          (long)lb, (long)ext);
    roundtrip("contiguous", t, 3, rank, size);
    MPI_Type_free(&t);
    CHECK(t == MPI_DATATYPE_NULL, "free sets NULL");

    MPI_Type_vector(4, 2, 3, MPI_DOUBLE, &t);
    MPI_Type_commit(&t);
    MPI_Type_size(t, &sz);
    MPI_Type_get_extent(t, &lb, &ext);
    CHECK(sz == 64 && ext == (3 * 3 + 2) * 8, "vector: %d %ld", sz,
          (long)ext);
    roundtrip("vector", t, 2, rank, size);
    MPI_Type_free(&t);

    MPI_Type_create_hvector(3, 1, 40, MPI_INT, &t);
    MPI_Type_commit(&t);
    MPI_Type_get_extent(t, &lb, &ext);
    CHECK(ext == 84, "hvector extent %ld", (long)ext);
    roundtrip("hvector", t, 2, rank, size);
    MPI_Type_free(&t);

    int bl[3] = {2, 1, 3}, dp[3] = {5, 0, 9};
    MPI_Type_indexed(3, bl, dp, MPI_DOUBLE, &t);
    MPI_Type_commit(&t);
    MPI_Type_size(t, &sz);
    MPI_Type_get_true_extent(t, &tlb, &text);
    CHECK(sz == 48 && tlb == 0 && text == 96, "indexed: %d %ld %ld", sz,
          (long)tlb, (long)text);
    roundtrip("indexed", t, 2, rank, size);
    MPI_Type_free(&t);

    MPI_Aint hd[3] = {16, 0, 64};
    MPI_Type_create_hindexed(3, bl, hd, MPI_INT, &t);
    MPI_Type_commit(&t);
    roundtrip("hindexed", t, 3, rank, size);
    MPI_Type_free(&t);

    int bdp[3] = {4, 0, 8};
    MPI_Type_create_indexed_block(3, 2, bdp, MPI_FLOAT, &t);
    MPI_Type_commit(&t);
    MPI_Type_size(t, &sz);
    CHECK(sz == 24, "indexed_block size %d", sz);
    roundtrip("indexed_block", t, 2, rank, size);
    MPI_Type_free(&t);

    t = rec_type();
    MPI_Type_size(t, &sz);
    MPI_Type_get_extent(t, &lb, &ext);
    CHECK(sz == 1 + 8 + 12 && ext == sizeof(rec_t), "struct: %d %ld", sz,
          (long)ext);
    roundtrip("struct", t, 4, rank, size);
    /* a big message of a derived type: rendezvous with packing */
    roundtrip("struct-large", t, 3000, rank, size);
    MPI_Type_free(&t);

    /* a vector of vectors */
    MPI_Datatype inner;
    MPI_Type_vector(2, 1, 2, MPI_INT, &inner);
    MPI_Type_create_resized(inner, 0, 4 * sizeof(int), &t);
    MPI_Type_commit(&t);
    MPI_Type_get_extent(t, &lb, &ext);
    CHECK(ext == 16, "resized extent %ld", (long)ext);
    roundtrip("resized", t, 5, rank, size);
    MPI_Type_free(&t);
    MPI_Type_free(&inner);
}

/* receive with a different type than sent; Get_count/Get_elements */
static void counts(int rank, int size)
{
    MPI_Datatype v;
    MPI_Status st;
    int peer = (rank + 1) % size, from = (rank + size - 1) % size, c, e;
    int s[12], r[12];

    for (int i = 0; i < 12; i++)
        s[i] = rank * 100 + i;
    MPI_Type_contiguous(3, MPI_INT, &v);
    MPI_Type_commit(&v);
    MPI_Sendrecv(s, 7, MPI_INT, peer, 2, r, 4, v, from, 2, MPI_COMM_WORLD,
                 &st);
    MPI_Get_count(&st, v, &c);
    MPI_Get_elements(&st, v, &e);
    CHECK(c == MPI_UNDEFINED && e == 7, "count %d elements %d", c, e);
    MPI_Get_count(&st, MPI_INT, &c);
    CHECK(c == 7 && r[6] == from * 100 + 6, "count as int %d", c);
    MPI_Type_free(&v);

    /* pair types */
    struct { double v; int i; } di[3], dr[3];
    for (int i = 0; i < 3; i++) {
        di[i].v = rank + 0.5 * i;
        di[i].i = rank * 10 + i;
    }
    MPI_Sendrecv(di, 3, MPI_DOUBLE_INT, peer, 3, dr, 3, MPI_DOUBLE_INT, from,
                 3, MPI_COMM_WORLD, &st);
    for (int i = 0; i < 3; i++)
        CHECK(dr[i].v == from + 0.5 * i && dr[i].i == from * 10 + i,
              "double_int %d", i);
}

/* a type freed while a receive still uses it: the receive completes */
static void free_pending(int rank, int size)
{
    MPI_Datatype v;
    MPI_Request rq;
    int s[8], r[8] = {0}, peer = (rank + 1) % size,
        from = (rank + size - 1) % size;

    for (int i = 0; i < 8; i++)
        s[i] = rank * 10 + i;
    MPI_Type_vector(4, 1, 2, MPI_INT, &v);
    MPI_Type_commit(&v);
    MPI_Irecv(r, 1, v, from, 9, MPI_COMM_WORLD, &rq);
    MPI_Type_free(&v);
    MPI_Send(s, 4, MPI_INT, peer, 9, MPI_COMM_WORLD);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    CHECK(r[0] == from * 10 && r[2] == from * 10 + 1 && r[6] == from * 10 + 3
              && r[1] == 0,
          "receive with a freed type: %d %d %d", r[0], r[2], r[6]);
}

int main(int argc, char **argv)
{
    int rank, size;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    constructors(rank, size);
    counts(rank, size);
    free_pending(rank, size);
    return mpitest_end("t_types");
}
