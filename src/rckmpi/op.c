/* Reduction operations (docs/MPI-COLLECTIVES.md): every predefined
 * operation on the types MPI allows for it, user operations
 * (MPI_Op_create), MPI_Reduce_local. Derived types reduce through their
 * one basic type (rckmpi_type_basic): contiguous ones in place, others
 * packed, reduced and unpacked. */
#include "rkcoll.h"

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define RKOP_FIRST_USER 32
#define RKOP_MAX_USER 256

static struct {
    MPI_User_function *fn;
    int commute;
} user_ops[RKOP_MAX_USER];

/* the classes of basic types (MPI-3.1 5.9.2); MPI_CHAR counts as a C
 * integer, as in MPICH (RCKMPI's base) and Open MPI, although the
 * standard leaves it out: OSU's accumulate benchmarks sum MPI_CHARs */
enum { C_NONE, C_INT, C_FLOAT, C_BOOL, C_BYTE, C_PAIR };

static int type_class(MPI_Datatype t)
{
    switch (t) {
    case MPI_CHAR: case MPI_SIGNED_CHAR: case MPI_UNSIGNED_CHAR:
    case MPI_SHORT: case MPI_UNSIGNED_SHORT: case MPI_INT: case MPI_UNSIGNED:
    case MPI_LONG:
    case MPI_UNSIGNED_LONG: case MPI_LONG_LONG_INT:
    case MPI_UNSIGNED_LONG_LONG: case MPI_INT8_T: case MPI_INT16_T:
    case MPI_INT32_T: case MPI_INT64_T: case MPI_UINT8_T: case MPI_UINT16_T:
    case MPI_UINT32_T: case MPI_UINT64_T: case MPI_AINT: case MPI_OFFSET:
    case MPI_COUNT:
        return C_INT;
    case MPI_FLOAT: case MPI_DOUBLE: case MPI_LONG_DOUBLE:
        return C_FLOAT;
    case MPI_C_BOOL:
        return C_BOOL;
    case MPI_BYTE:
        return C_BYTE;
    case MPI_FLOAT_INT: case MPI_DOUBLE_INT: case MPI_LONG_INT:
    case MPI_2INT: case MPI_SHORT_INT: case MPI_LONG_DOUBLE_INT:
        return C_PAIR;
    default:
        return C_NONE;
    }
}

static bool op_allows(MPI_Op op, int cls)
{
    switch (op) {
    case MPI_MAX: case MPI_MIN: case MPI_SUM: case MPI_PROD:
        return cls == C_INT || cls == C_FLOAT;
    case MPI_LAND: case MPI_LOR: case MPI_LXOR:
        return cls == C_INT || cls == C_BOOL;
    case MPI_BAND: case MPI_BOR: case MPI_BXOR:
        return cls == C_INT || cls == C_BYTE;
    case MPI_MAXLOC: case MPI_MINLOC:
        return cls == C_PAIR;
    default:
        return false;
    }
}

static MPI_User_function *user_fn(MPI_Op op)
{
    if (op < RKOP_FIRST_USER || op >= RKOP_FIRST_USER + RKOP_MAX_USER)
        return NULL;
    return user_ops[op - RKOP_FIRST_USER].fn;
}

int rkop_check(MPI_Op op, MPI_Datatype type)
{
    int n;

    if (user_fn(op) != NULL)
        return MPI_SUCCESS;
    if (op < MPI_MAX || op > MPI_MINLOC)
        return MPI_ERR_OP;
    return op_allows(op, type_class(rckmpi_type_basic(type, &n)))
               ? MPI_SUCCESS
               : MPI_ERR_OP;
}

int rkop_commutative(MPI_Op op)
{
    MPI_User_function *fn = user_fn(op);

    return fn == NULL ? 1 : user_ops[op - RKOP_FIRST_USER].commute;
}

/* ---- the element loops: b[i] = a[i] op b[i] ---- */

#define LOOP(T, EXPR)                                                        \
    do {                                                                     \
        const T *a = in;                                                     \
        T *b = io;                                                           \
        for (size_t i = 0; i < n; i++)                                       \
            b[i] = (T)(EXPR);                                                \
    } while (0)

#define ARITH_CASES(T)                                                       \
    case MPI_MAX: LOOP(T, a[i] > b[i] ? a[i] : b[i]); break;                 \
    case MPI_MIN: LOOP(T, a[i] < b[i] ? a[i] : b[i]); break;                 \
    case MPI_SUM: LOOP(T, a[i] + b[i]); break;                               \
    case MPI_PROD: LOOP(T, a[i] * b[i]); break;                              \
    case MPI_LAND: LOOP(T, (a[i] != 0) && (b[i] != 0)); break;               \
    case MPI_LOR: LOOP(T, (a[i] != 0) || (b[i] != 0)); break;                \
    case MPI_LXOR: LOOP(T, (a[i] != 0) != (b[i] != 0)); break;

#define INT_FN(NAME, T)                                                      \
    static void NAME(MPI_Op op, const void *in, void *io, size_t n)          \
    {                                                                        \
        switch (op) {                                                        \
        ARITH_CASES(T)                                                       \
        case MPI_BAND: LOOP(T, a[i] & b[i]); break;                          \
        case MPI_BOR: LOOP(T, a[i] | b[i]); break;                           \
        case MPI_BXOR: LOOP(T, a[i] ^ b[i]); break;                          \
        default: break;                                                      \
        }                                                                    \
    }

#define FLOAT_FN(NAME, T)                                                    \
    static void NAME(MPI_Op op, const void *in, void *io, size_t n)          \
    {                                                                        \
        switch (op) {                                                        \
        ARITH_CASES(T)                                                       \
        default: break;                                                      \
        }                                                                    \
    }

INT_FN(op_i8, int8_t)
INT_FN(op_u8, uint8_t)
INT_FN(op_i16, int16_t)
INT_FN(op_u16, uint16_t)
INT_FN(op_i32, int32_t)
INT_FN(op_u32, uint32_t)
INT_FN(op_i64, int64_t)
INT_FN(op_u64, uint64_t)
FLOAT_FN(op_f, float)
FLOAT_FN(op_d, double)
FLOAT_FN(op_ld, long double)

static void op_bool(MPI_Op op, const void *in, void *io, size_t n)
{
    switch (op) {
    case MPI_LAND: LOOP(bool, a[i] && b[i]); break;
    case MPI_LOR: LOOP(bool, a[i] || b[i]); break;
    case MPI_LXOR: LOOP(bool, a[i] != b[i]); break;
    default: break;
    }
}

/* integers by size and signedness; the rest by type */
typedef void op_fn(MPI_Op op, const void *in, void *io, size_t n);

static op_fn *int_fn(size_t size, bool is_signed)
{
    switch (size) {
    case 1: return is_signed ? op_i8 : op_u8;
    case 2: return is_signed ? op_i16 : op_u16;
    case 4: return is_signed ? op_i32 : op_u32;
    case 8: return is_signed ? op_i64 : op_u64;
    default: return NULL;
    }
}

static op_fn *basic_fn(MPI_Datatype t)
{
    switch (t) {
    case MPI_CHAR: return int_fn(1, CHAR_MIN < 0);
    case MPI_SIGNED_CHAR: case MPI_INT8_T: return op_i8;
    case MPI_UNSIGNED_CHAR: case MPI_UINT8_T: case MPI_BYTE: return op_u8;
    case MPI_SHORT: case MPI_INT16_T: return op_i16;
    case MPI_UNSIGNED_SHORT: case MPI_UINT16_T: return op_u16;
    case MPI_INT: case MPI_INT32_T: return op_i32;
    case MPI_UNSIGNED: case MPI_UINT32_T: return op_u32;
    case MPI_LONG: return int_fn(sizeof(long), true);
    case MPI_UNSIGNED_LONG: return int_fn(sizeof(unsigned long), false);
    case MPI_LONG_LONG_INT: case MPI_INT64_T: return op_i64;
    case MPI_UNSIGNED_LONG_LONG: case MPI_UINT64_T: return op_u64;
    case MPI_AINT: return int_fn(sizeof(MPI_Aint), true);
    case MPI_OFFSET: return int_fn(sizeof(MPI_Offset), true);
    case MPI_COUNT: return int_fn(sizeof(MPI_Count), true);
    case MPI_FLOAT: return op_f;
    case MPI_DOUBLE: return op_d;
    case MPI_LONG_DOUBLE: return op_ld;
    case MPI_C_BOOL: return op_bool;
    default: return NULL;
    }
}

/* ---- MAXLOC/MINLOC on pairs (value, int index) ----
 * The larger (smaller) value wins; on equal values the smaller index. A
 * pair is read at stride bytes, its index at ioff (memcpy: a packed pair
 * may be unaligned). */

#define PAIR_FN(NAME, T)                                                     \
    static void NAME(MPI_Op op, const char *in, char *io, size_t n,          \
                     size_t stride, size_t ioff)                             \
    {                                                                        \
        for (size_t i = 0; i < n; i++, in += stride, io += stride) {         \
            T va, vb;                                                        \
            int ia, ib;                                                      \
            memcpy(&va, in, sizeof va);                                      \
            memcpy(&vb, io, sizeof vb);                                      \
            memcpy(&ia, in + ioff, sizeof ia);                               \
            memcpy(&ib, io + ioff, sizeof ib);                               \
            bool take = op == MPI_MAXLOC ? va > vb : va < vb;                \
            if (take || (va == vb && ia < ib)) {                             \
                memcpy(io, &va, sizeof va);                                  \
                memcpy(io + ioff, &ia, sizeof ia);                           \
            }                                                                \
        }                                                                    \
    }

PAIR_FN(pair_f, float)
PAIR_FN(pair_d, double)
PAIR_FN(pair_l, long)
PAIR_FN(pair_i, int)
PAIR_FN(pair_s, short)
PAIR_FN(pair_ld, long double)

struct pair_desc {
    void (*fn)(MPI_Op, const char *, char *, size_t, size_t, size_t);
    size_t vsize, stride, ioff; /* native layout */
};

#define PAIR_DESC(FN, T)                                                     \
    {                                                                        \
        FN, sizeof(T), sizeof(struct { T v; int i; }),                       \
            offsetof(struct { T v; int i; }, i)                              \
    }

static struct pair_desc pair_desc(MPI_Datatype t)
{
    static const struct pair_desc none = {NULL, 0, 0, 0};

    switch (t) {
    case MPI_FLOAT_INT: { struct pair_desc d = PAIR_DESC(pair_f, float); return d; }
    case MPI_DOUBLE_INT: { struct pair_desc d = PAIR_DESC(pair_d, double); return d; }
    case MPI_LONG_INT: { struct pair_desc d = PAIR_DESC(pair_l, long); return d; }
    case MPI_2INT: { struct pair_desc d = PAIR_DESC(pair_i, int); return d; }
    case MPI_SHORT_INT: { struct pair_desc d = PAIR_DESC(pair_s, short); return d; }
    case MPI_LONG_DOUBLE_INT: { struct pair_desc d = PAIR_DESC(pair_ld, long double); return d; }
    default: return none;
    }
}

/* n basic items laid out as in memory (packed: pairs without padding) */
static void apply_basic(MPI_Op op, MPI_Datatype basic, const void *in,
                        void *io, size_t n, bool packed)
{
    if (type_class(basic) == C_PAIR) {
        struct pair_desc d = pair_desc(basic);
        size_t stride = packed ? d.vsize + sizeof(int) : d.stride;
        d.fn(op, in, io, n, stride, packed ? d.vsize : d.ioff);
    } else {
        basic_fn(basic)(op, in, io, n);
    }
}

int rkop_apply(MPI_Op op, const void *in, void *inout, int count,
               MPI_Datatype type)
{
    MPI_User_function *fn = user_fn(op);
    MPI_Aint lb, extent;
    int n, size;

    if (count <= 0)
        return MPI_SUCCESS;
    if (fn != NULL) {
        MPI_Datatype t = type;
        fn((void *)in, inout, &count, &t);
        return MPI_SUCCESS;
    }
    MPI_Datatype basic = rckmpi_type_basic(type, &n);
    if (rkop_check(op, type) != MPI_SUCCESS)
        return MPI_ERR_OP;
    PMPI_Type_get_extent(type, &lb, &extent);
    PMPI_Type_size(type, &size);
    if (type == basic) {
        apply_basic(op, basic, in, inout, (size_t)count, false);
        return MPI_SUCCESS;
    }
    MPI_Aint tlb, text;
    PMPI_Type_get_true_extent(type, &tlb, &text);
    if (type_class(basic) != C_PAIR && (MPI_Aint)size == extent &&
        text == extent && tlb == lb) {
        /* every byte of the extent is data: the layout of the basic
         * items does not matter to an elementwise operation */
        apply_basic(op, basic, (const char *)in + lb, (char *)inout + lb,
                    (size_t)count * (size_t)n, false);
        return MPI_SUCCESS;
    }
    int bytes = size * count, pos = 0;
    char *pa = malloc((size_t)bytes * 2 + 1), *pb = pa + bytes;
    if (pa == NULL)
        return MPI_ERR_NO_MEM;
    PMPI_Pack(in, count, type, pa, bytes, &pos, MPI_COMM_SELF);
    pos = 0;
    PMPI_Pack(inout, count, type, pb, bytes, &pos, MPI_COMM_SELF);
    apply_basic(op, basic, pa, pb, (size_t)count * (size_t)n, true);
    pos = 0;
    PMPI_Unpack(pb, bytes, &pos, inout, count, type, MPI_COMM_SELF);
    free(pa);
    return MPI_SUCCESS;
}

/* ---- public ---- */

int PMPI_Op_create(MPI_User_function *function, int commute, MPI_Op *op)
{
    RK_MPI_GUARD;
    int err = rckmpi_check_init("MPI_Op_create");

    if (err != MPI_SUCCESS)
        return err;
    if (function == NULL || op == NULL)
        return rckmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Op_create");
    for (int i = 0; i < RKOP_MAX_USER; i++) {
        if (user_ops[i].fn == NULL) {
            user_ops[i].fn = function;
            user_ops[i].commute = commute != 0;
            *op = RKOP_FIRST_USER + i;
            return MPI_SUCCESS;
        }
    }
    return rckmpi_error(MPI_COMM_WORLD, MPI_ERR_OTHER, "MPI_Op_create");
}
RK_MPI_ALIAS(Op_create);

int PMPI_Op_free(MPI_Op *op)
{
    RK_MPI_GUARD;
    int err = rckmpi_check_init("MPI_Op_free");

    if (err != MPI_SUCCESS)
        return err;
    if (op == NULL || user_fn(*op) == NULL)
        return rckmpi_error(MPI_COMM_WORLD, MPI_ERR_OP, "MPI_Op_free");
    user_ops[*op - RKOP_FIRST_USER].fn = NULL;
    *op = MPI_OP_NULL;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Op_free);

int PMPI_Op_commutative(MPI_Op op, int *commute)
{
    RK_MPI_GUARD;
    if (user_fn(op) == NULL && (op < MPI_MAX || op > MPI_REPLACE))
        return rckmpi_error(MPI_COMM_WORLD, MPI_ERR_OP, "MPI_Op_commutative");
    *commute = rkop_commutative(op);
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Op_commutative);

int PMPI_Reduce_local(const void *inbuf, void *inoutbuf, int count,
                      MPI_Datatype datatype, MPI_Op op)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Reduce_local";
    int err = rckmpi_check_init(f);

    if (err != MPI_SUCCESS)
        return err;
    if (rckmpi_type_check(datatype) != MPI_SUCCESS)
        return rckmpi_error(MPI_COMM_WORLD, MPI_ERR_TYPE, f);
    if (count < 0)
        return rckmpi_error(MPI_COMM_WORLD, MPI_ERR_COUNT, f);
    if (count > 0 && (inbuf == NULL || inoutbuf == NULL ||
                      inbuf == MPI_IN_PLACE || inoutbuf == MPI_IN_PLACE))
        return rckmpi_error(MPI_COMM_WORLD, MPI_ERR_BUFFER, f);
    if (rkop_check(op, datatype) != MPI_SUCCESS)
        return rckmpi_error(MPI_COMM_WORLD, MPI_ERR_OP, f);
    err = rkop_apply(op, inbuf, inoutbuf, count, datatype);
    return err == MPI_SUCCESS ? err : rckmpi_error(MPI_COMM_WORLD, err, f);
}
RK_MPI_ALIAS(Reduce_local);

int rckmpi_coll_init(void)
{
    return MPI_SUCCESS;
}

void rckmpi_coll_finalize(void)
{
    memset(user_ops, 0, sizeof user_ops);
}
