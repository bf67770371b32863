/* Reduction operations: every predefined operation on every type MPI
 * allows for it, through MPI_Allreduce, MPI_Reduce (root p-1) and
 * MPI_Reduce_local, against a reference folded here in rank order; the
 * MAXLOC/MINLOC tie rule; MPI_ERR_OP for the combinations MPI forbids;
 * user operations (commutative and not). */
#include "colltest.h"

#include <stdbool.h>
#include <stdint.h>

#define N 5
static int rank, size;

/* the value rank r contributes at position i, per kind of operation */
static long val(MPI_Op op, int r, int i)
{
    switch (op) {
    case MPI_PROD: return (r + i) % 13 == 0 ? 2 : 1;
    case MPI_LAND: case MPI_LOR: case MPI_LXOR: return (r + i) % 3 != 0;
    case MPI_BAND: case MPI_BOR: case MPI_BXOR: return (r * 37 + i * 11) & 0x7f;
    default: return (r * 7 + i * 3) % 11 - (op == MPI_SUM ? 0 : 5);
    }
}

/* the reference: a op b in type T (bitwise ones through long long) */
#define REF_FN(NAME, T)                                                      \
    static T NAME(MPI_Op op, T a, T b)                                       \
    {                                                                        \
        long long x = (long long)a, y = (long long)b;                        \
        switch (op) {                                                        \
        case MPI_MAX: return a > b ? a : b;                                  \
        case MPI_MIN: return a < b ? a : b;                                  \
        case MPI_SUM: return (T)(a + b);                                   \
        case MPI_PROD: x *= y; return (T)x;                                  \
        case MPI_LAND: return (T)(a != 0 && b != 0);                         \
        case MPI_LOR: return (T)(a != 0 || b != 0);                          \
        case MPI_LXOR: return (T)((a != 0) != (b != 0));                     \
        case MPI_BAND: return (T)(x & y);                                    \
        case MPI_BOR: return (T)(x | y);                                     \
        default: return (T)(x ^ y);                                          \
        }                                                                    \
    }

static const MPI_Op arith[] = {MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD,
                               MPI_LAND, MPI_LOR, MPI_LXOR};
static const MPI_Op bits[] = {MPI_BAND, MPI_BOR, MPI_BXOR};

#define TEST_TYPE(NAME, T, MT, NOPS, OPS)                                    \
    REF_FN(NAME##_ref, T)                                                    \
    static void NAME(void)                                                   \
    {                                                                        \
        for (int k = 0; k < NOPS; k++) {                                     \
            MPI_Op op = OPS[k];                                              \
            T in[N], out[N], red[N], ref[N], loc[N];                         \
            for (int i = 0; i < N; i++) {                                    \
                in[i] = (T)val(op, rank, i);                                 \
                ref[i] = (T)val(op, 0, i);                                   \
                for (int r = 1; r < size; r++)                               \
                    ref[i] = NAME##_ref(op, ref[i], (T)val(op, r, i));           \
            }                                                                \
            int e = MPI_Allreduce(in, out, N, MT, op, MPI_COMM_WORLD);       \
            CHECK(e == MPI_SUCCESS, #T " op %d: error %d", op, e);           \
            e = MPI_Reduce(in, red, N, MT, op, size - 1, MPI_COMM_WORLD);    \
            CHECK(e == MPI_SUCCESS, #T " op %d: reduce error %d", op, e);    \
            for (int i = 0; i < N; i++) {                                    \
                CHECK(out[i] == ref[i], #T " allreduce op %d [%d]", op, i);  \
                CHECK(rank != size - 1 || red[i] == ref[i],                  \
                      #T " reduce op %d [%d]", op, i);                       \
                loc[i] = (T)val(op, 1, i);                                   \
            }                                                                \
            MPI_Reduce_local(in, loc, N, MT, op);                            \
            for (int i = 0; i < N; i++)                                      \
                CHECK(loc[i] == NAME##_ref(op, (T)val(op, rank, i),              \
                                       (T)val(op, 1, i)),                    \
                      #T " reduce_local op %d [%d]", op, i);                 \
        }                                                                    \
    }

#define INT_TYPE(NAME, T, MT)                                                \
    TEST_TYPE(NAME##_a, T, MT, 7, arith)                                     \
    TEST_TYPE(NAME##_b, T, MT, 3, bits)                                      \
    static void NAME(void) { NAME##_a(); NAME##_b(); }

INT_TYPE(t_char, char, MPI_CHAR) /* MPICH's extension (op.c) */
INT_TYPE(t_schar, signed char, MPI_SIGNED_CHAR)
INT_TYPE(t_uchar, unsigned char, MPI_UNSIGNED_CHAR)
INT_TYPE(t_short, short, MPI_SHORT)
INT_TYPE(t_ushort, unsigned short, MPI_UNSIGNED_SHORT)
INT_TYPE(t_int, int, MPI_INT)
INT_TYPE(t_uint, unsigned, MPI_UNSIGNED)
INT_TYPE(t_long, long, MPI_LONG)
INT_TYPE(t_ulong, unsigned long, MPI_UNSIGNED_LONG)
INT_TYPE(t_ll, long long, MPI_LONG_LONG)
INT_TYPE(t_ull, unsigned long long, MPI_UNSIGNED_LONG_LONG)
INT_TYPE(t_i8, int8_t, MPI_INT8_T)
INT_TYPE(t_i16, int16_t, MPI_INT16_T)
INT_TYPE(t_i32, int32_t, MPI_INT32_T)
INT_TYPE(t_i64, int64_t, MPI_INT64_T)
INT_TYPE(t_u8, uint8_t, MPI_UINT8_T)
INT_TYPE(t_u16, uint16_t, MPI_UINT16_T)
INT_TYPE(t_u32, uint32_t, MPI_UINT32_T)
INT_TYPE(t_u64, uint64_t, MPI_UINT64_T)
INT_TYPE(t_aint, MPI_Aint, MPI_AINT)
INT_TYPE(t_off, MPI_Offset, MPI_OFFSET)
INT_TYPE(t_count, MPI_Count, MPI_COUNT)
TEST_TYPE(t_float, float, MPI_FLOAT, 4, arith)
TEST_TYPE(t_double, double, MPI_DOUBLE, 4, arith)
TEST_TYPE(t_ldouble, long double, MPI_LONG_DOUBLE, 4, arith)
TEST_TYPE(t_bool, bool, MPI_C_BOOL, 3, (arith + 4))
TEST_TYPE(t_byte, unsigned char, MPI_BYTE, 3, bits)

/* MAXLOC/MINLOC: values with ties, the smaller index wins */
#define PAIR_TEST(NAME, T, MT)                                               \
    static void NAME(void)                                                   \
    {                                                                        \
        struct { T v; int i; } in[N], out[N], ref[N];                        \
        for (int k = 0; k < 2; k++) {                                        \
            MPI_Op op = k ? MPI_MINLOC : MPI_MAXLOC;                         \
            for (int j = 0; j < N; j++) {                                    \
                in[j].v = (T)((rank * (j + 1)) % 3);                         \
                in[j].i = size - rank; /* ties: the larger rank wins */      \
                ref[j].v = (T)0;                                             \
                ref[j].i = size;                                             \
                for (int r = 0; r < size; r++) {                             \
                    T v = (T)((r * (j + 1)) % 3);                            \
                    int better = k ? v < ref[j].v : v > ref[j].v;            \
                    if (better || (v == ref[j].v && size - r < ref[j].i)) {  \
                        ref[j].v = v;                                        \
                        ref[j].i = size - r;                                 \
                    }                                                        \
                }                                                            \
            }                                                                \
            MPI_Allreduce(in, out, N, MT, op, MPI_COMM_WORLD);               \
            for (int j = 0; j < N; j++)                                      \
                CHECK(out[j].v == ref[j].v && out[j].i == ref[j].i,          \
                      #MT " op %d [%d]: (%g,%d) not (%g,%d)", op, j,         \
                      (double)out[j].v, out[j].i, (double)ref[j].v,          \
                      ref[j].i);                                             \
        }                                                                    \
    }

PAIR_TEST(t_float_int, float, MPI_FLOAT_INT)
PAIR_TEST(t_double_int, double, MPI_DOUBLE_INT)
PAIR_TEST(t_long_int, long, MPI_LONG_INT)
PAIR_TEST(t_2int, int, MPI_2INT)
PAIR_TEST(t_short_int, short, MPI_SHORT_INT)
PAIR_TEST(t_ldouble_int, long double, MPI_LONG_DOUBLE_INT)

/* the combinations MPI forbids */
static void forbidden(void)
{
    static const struct { MPI_Op op; MPI_Datatype t; } bad[] = {
        {MPI_SUM, MPI_BYTE}, {MPI_BAND, MPI_DOUBLE}, {MPI_MAXLOC, MPI_INT},
        {MPI_LAND, MPI_FLOAT}, {MPI_SUM, MPI_WCHAR}, {MPI_MAX, MPI_C_BOOL},
        {MPI_REPLACE, MPI_INT}, {MPI_OP_NULL, MPI_INT}, {MPI_SUM, MPI_2INT},
        {999, MPI_INT}};
    double a[4] = {0}, b[4] = {0};

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        int e = MPI_Allreduce(a, b, 1, bad[k].t, bad[k].op, MPI_COMM_WORLD);
        CHECK(e == MPI_ERR_OP, "op %d on type %d: %d, not MPI_ERR_OP",
              bad[k].op, bad[k].t, e);
        e = MPI_Reduce_local(a, b, 1, bad[k].t, bad[k].op);
        CHECK(e == MPI_ERR_OP, "reduce_local op %d type %d: %d", bad[k].op,
              bad[k].t, e);
    }
    MPI_Op p = MPI_SUM;
    CHECK(MPI_Op_free(&p) == MPI_ERR_OP, "freeing MPI_SUM");
}

static void user_ops(void)
{
    MPI_Datatype mat;
    MPI_Op mop, sop;
    int commute = -1;
    unsigned in[8], out[8], ref[4];

    MPI_Type_contiguous(4, MPI_UNSIGNED, &mat);
    MPI_Type_commit(&mat);
    MPI_Op_create(matmul, 0, &mop);
    MPI_Op_create(usum, 1, &sop);
    MPI_Op_commutative(mop, &commute);
    CHECK(commute == 0, "matmul commutative %d", commute);
    MPI_Op_commutative(MPI_SUM, &commute);
    CHECK(commute == 1, "MPI_SUM commutative %d", commute);
    mat_prefix(0, size, ref);
    mat_of(rank, in);
    mat_of(rank, in + 4);
    for (int root = 0; root < size; root += size > 2 ? size - 2 : 1) {
        memset(out, 0, sizeof out);
        MPI_Reduce(in, out, 2, mat, mop, root, MPI_COMM_WORLD);
        if (rank == root)
            CHECK(memcmp(out, ref, sizeof ref) == 0 &&
                      memcmp(out + 4, ref, sizeof ref) == 0,
                  "non-commutative reduce at root %d", root);
    }
    memset(out, 0, sizeof out);
    MPI_Allreduce(in, out, 2, mat, mop, MPI_COMM_WORLD);
    CHECK(memcmp(out + 4, ref, sizeof ref) == 0, "non-commutative allreduce");
    int x = rank + 1, s = 0;
    MPI_Allreduce(&x, &s, 1, MPI_INT, sop, MPI_COMM_WORLD);
    CHECK(s == size * (size + 1) / 2, "user sum %d", s);
    MPI_Op_free(&mop);
    CHECK(mop == MPI_OP_NULL, "freed op not MPI_OP_NULL");
    MPI_Op_free(&sop);
    MPI_Type_free(&mat);
}

/* a derived type reduced through its basic type (vector with holes) */
static void derived(void)
{
    MPI_Datatype vec;
    int in[12], out[12];

    MPI_Type_vector(3, 2, 4, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    for (int i = 0; i < 12; i++) {
        in[i] = rank + i;
        out[i] = -1;
    }
    MPI_Allreduce(in, out, 1, vec, MPI_SUM, MPI_COMM_WORLD);
    for (int i = 0; i < 12; i++) {
        int used = i % 4 < 2 && i < 10;
        int want = used ? size * (size - 1) / 2 + size * i : -1;
        CHECK(out[i] == want, "vector sum [%d] = %d not %d", i, out[i], want);
    }
    MPI_Type_free(&vec);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    void (*tests[])(void) = {
        t_char, t_schar, t_uchar, t_short, t_ushort, t_int, t_uint, t_long, t_ulong,
        t_ll, t_ull, t_i8, t_i16, t_i32, t_i64, t_u8, t_u16, t_u32, t_u64,
        t_aint, t_off, t_count, t_float, t_double, t_ldouble, t_bool, t_byte,
        t_float_int, t_double_int, t_long_int, t_2int, t_short_int,
        t_ldouble_int, forbidden, user_ops, derived};
    for (size_t k = 0; k < sizeof tests / sizeof tests[0]; k++)
        tests[k]();
    return mpitest_end("t_ops");
}
