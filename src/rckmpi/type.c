/*
 * Datatypes (docs/MPI.md, "Datatypes"): every type is flattened at
 * creation into the byte blocks of one item (offset, length, size of its
 * basic elements), adjacent blocks merged, so packing is a loop of
 * memcpy; a type whose item is one block [0, size) with extent == size
 * is contiguous and travels straight from the user's buffer.
 */
#include "rckmpi.h"

#include <stdlib.h>
#include <string.h>

typedef struct { float a; int b; } pair_fi;
typedef struct { double a; int b; } pair_di;
typedef struct { long a; int b; } pair_li;
typedef struct { short a; int b; } pair_si;
typedef struct { long double a; int b; } pair_ldi;

static struct {
    rk_type_t *tab;
    int n, cap;
} ty;

static const struct {
    MPI_Datatype h;
    size_t size, align;
} basics[] = {
    {MPI_CHAR, 1, 1}, {MPI_SIGNED_CHAR, 1, 1}, {MPI_UNSIGNED_CHAR, 1, 1},
    {MPI_BYTE, 1, 1}, {MPI_WCHAR, sizeof(wchar_t), sizeof(wchar_t)},
    {MPI_SHORT, sizeof(short), sizeof(short)},
    {MPI_UNSIGNED_SHORT, sizeof(short), sizeof(short)},
    {MPI_INT, sizeof(int), sizeof(int)},
    {MPI_UNSIGNED, sizeof(int), sizeof(int)},
    {MPI_LONG, sizeof(long), sizeof(long)},
    {MPI_UNSIGNED_LONG, sizeof(long), sizeof(long)},
    {MPI_LONG_LONG_INT, sizeof(long long), sizeof(long long)},
    {MPI_UNSIGNED_LONG_LONG, sizeof(long long), sizeof(long long)},
    {MPI_FLOAT, sizeof(float), sizeof(float)},
    {MPI_DOUBLE, sizeof(double), sizeof(double)},
    {MPI_LONG_DOUBLE, sizeof(long double), sizeof(long double)},
    {MPI_PACKED, 1, 1}, {MPI_INT8_T, 1, 1}, {MPI_INT16_T, 2, 2},
    {MPI_INT32_T, 4, 4}, {MPI_INT64_T, 8, 8}, {MPI_UINT8_T, 1, 1},
    {MPI_UINT16_T, 2, 2}, {MPI_UINT32_T, 4, 4}, {MPI_UINT64_T, 8, 8},
    {MPI_C_BOOL, sizeof(_Bool), sizeof(_Bool)},
    {MPI_AINT, sizeof(MPI_Aint), sizeof(MPI_Aint)},
    {MPI_OFFSET, sizeof(MPI_Offset), sizeof(MPI_Offset)},
    {MPI_COUNT, sizeof(MPI_Count), sizeof(MPI_Count)},
};

static void set_bounds(rk_type_t *t);

/* a predefined type of one block, or the pair types' two */
static void predefined(MPI_Datatype h, size_t size, size_t esize,
                       size_t off2, size_t size2, size_t extent)
{
    rk_type_t *t = &ty.tab[h];
    int nb = size2 ? 2 : 1;

    t->used = t->committed = t->predefined = 1;
    t->blocks = calloc((size_t)nb, sizeof(rk_block_t));
    t->blocks[0] = (rk_block_t){0, size, (uint32_t)esize};
    if (size2)
        t->blocks[1] = (rk_block_t){(MPI_Aint)off2, size2, (uint32_t)size2};
    t->nblocks = nb;
    t->size = size + size2;
    t->lb = 0;
    t->extent = (MPI_Aint)extent;
    t->basic = h;
    t->nbasic = 1;
    t->combiner = MPI_COMBINER_NAMED;
    set_bounds(t);
    t->extent = (MPI_Aint)extent;
}

void rk_types_init(void)
{
    ty.cap = 256;
    ty.tab = calloc((size_t)ty.cap, sizeof(rk_type_t));
    ty.n = RCKMPI_NPREDEFINED;
    for (size_t i = 0; i < sizeof basics / sizeof basics[0]; i++)
        predefined(basics[i].h, basics[i].size, basics[i].size, 0, 0,
                   basics[i].size);
    predefined(MPI_FLOAT_INT, sizeof(float), sizeof(float),
               offsetof(pair_fi, b), sizeof(int), sizeof(pair_fi));
    predefined(MPI_DOUBLE_INT, sizeof(double), sizeof(double),
               offsetof(pair_di, b), sizeof(int), sizeof(pair_di));
    predefined(MPI_LONG_INT, sizeof(long), sizeof(long),
               offsetof(pair_li, b), sizeof(int), sizeof(pair_li));
    predefined(MPI_SHORT_INT, sizeof(short), sizeof(short),
               offsetof(pair_si, b), sizeof(int), sizeof(pair_si));
    predefined(MPI_LONG_DOUBLE_INT, sizeof(long double), sizeof(long double),
               offsetof(pair_ldi, b), sizeof(int), sizeof(pair_ldi));
    predefined(MPI_2INT, sizeof(int), sizeof(int), sizeof(int), sizeof(int),
               2 * sizeof(int));
    /* markers of MPI-1 struct bounds: no data */
    predefined(MPI_UB, 0, 1, 0, 0, 0);
    predefined(MPI_LB, 0, 1, 0, 0, 0);
    ty.tab[MPI_UB].nblocks = ty.tab[MPI_LB].nblocks = 0;
    /* external32: long and its pair are 4 bytes, wchar_t 2, long double a
     * 16-byte quad */
    ty.tab[MPI_LONG].ext_odd = ty.tab[MPI_UNSIGNED_LONG].ext_odd =
        ty.tab[MPI_LONG_INT].ext_odd = sizeof(long) != 4;
    ty.tab[MPI_WCHAR].ext_odd = sizeof(wchar_t) != 2;
    ty.tab[MPI_LONG_DOUBLE].ext_odd = ty.tab[MPI_LONG_DOUBLE_INT].ext_odd = 1;
}

void rk_types_finalize(void)
{
    for (int i = 0; i < ty.n; i++) {
        free(ty.tab[i].blocks);
        rk_attr_drop(ty.tab[i].attrs);
        free(ty.tab[i].c_ints);
        free(ty.tab[i].c_aints);
        free(ty.tab[i].c_types);
    }
    free(ty.tab);
    memset(&ty, 0, sizeof ty);
}

rk_type_t *rk_type(MPI_Datatype t)
{
    if (t <= 0 || t >= ty.n || !ty.tab[t].used)
        return NULL;
    return &ty.tab[t];
}

rk_type_t *rk_type_live(MPI_Datatype t)
{
    rk_type_t *p = rk_type(t);
    return p != NULL && !p->freed ? p : NULL;
}

const rk_type_t *rk_type_fast(MPI_Datatype t)
{
    return (unsigned)t < (unsigned)ty.n && ty.tab[t].fast ? &ty.tab[t] : NULL;
}

/* After any change of used, freed, committed or contig. */
static void refresh_fast(rk_type_t *t)
{
    t->fast = t->used && !t->freed && t->committed && t->contig &&
              t != &ty.tab[MPI_UB] && t != &ty.tab[MPI_LB];
}

void rk_type_give(MPI_Datatype h)
{
    rk_type_t *t = rk_type(h);

    if (t->freed) { /* freed by the program, held by a type made of it */
        t->freed = 0;
        t->urefs = 1;
        refresh_fast(t);
    } else
        t->urefs++;
}

static void forget(rk_type_t *t)
{
    MPI_Datatype *held = t->c_types;
    int n = t->c_nt;

    free(t->c_ints);
    free(t->c_aints);
    t->c_ints = NULL;
    t->c_aints = NULL;
    t->c_types = NULL;
    t->c_ni = t->c_na = t->c_nt = 0;
    for (int i = 0; i < n; i++)
        rk_type_drop(held[i]); /* may release it (and the table stays) */
    free(held);
}

static void type_release(rk_type_t *t)
{
    rk_attr_drop(t->attrs);
    free(t->blocks);
    t->blocks = NULL;
    t->attrs = NULL;
    t->used = 0; /* no longer findable while its parts are dropped */
    forget(t);
    memset(t, 0, sizeof *t);
}

int rk_type_remember(MPI_Datatype h, int combiner, int ni, const int *ints,
                     int na, const MPI_Aint *aints, int nt,
                     const MPI_Datatype *types)
{
    rk_type_t *t = rk_type(h);
    int *ci = ni ? malloc((size_t)ni * sizeof(int)) : NULL;
    MPI_Aint *ca = na ? malloc((size_t)na * sizeof(MPI_Aint)) : NULL;
    MPI_Datatype *ct = nt ? malloc((size_t)nt * sizeof(MPI_Datatype)) : NULL;

    if ((ni && ci == NULL) || (na && ca == NULL) || (nt && ct == NULL)) {
        free(ci);
        free(ca);
        free(ct);
        return MPI_ERR_NO_MEM;
    }
    if (ni)
        memcpy(ci, ints, (size_t)ni * sizeof(int));
    if (na)
        memcpy(ca, aints, (size_t)na * sizeof(MPI_Aint));
    for (int i = 0; i < nt; i++) {
        ct[i] = types[i];
        rk_type_hold(types[i]);
    }
    forget(t);
    t = rk_type(h);
    t->c_ints = ci;
    t->c_aints = ca;
    t->c_types = ct;
    t->c_ni = ni;
    t->c_na = na;
    t->c_nt = nt;
    t->combiner = combiner;
    return MPI_SUCCESS;
}

/* after a constructor: remember, or undo it (MPI_ERR_NO_MEM, raised) */
static int remember(int err, MPI_Datatype *newtype, int combiner, int ni,
                    const int *ints, int na, const MPI_Aint *aints, int nt,
                    const MPI_Datatype *types, const char *func)
{
    if (err != MPI_SUCCESS)
        return err;
    if (rk_type_remember(*newtype, combiner, ni, ints, na, aints, nt,
                         types) != MPI_SUCCESS) {
        type_release(rk_type(*newtype));
        *newtype = MPI_DATATYPE_NULL;
        return rk_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, func, "no memory");
    }
    return MPI_SUCCESS;
}

/* ints of an indexed constructor: count, (blocklength | lengths), disps */
static int *ints_of(int count, const int *a, int na, const int *b, int nb,
                    int head2, int has2)
{
    int *v = malloc((size_t)(1 + has2 + na + nb) * sizeof(int));
    int k = 0;

    if (v == NULL)
        return NULL;
    v[k++] = count;
    if (has2)
        v[k++] = head2;
    for (int i = 0; i < na; i++)
        v[k++] = a[i];
    for (int i = 0; i < nb; i++)
        v[k++] = b[i];
    return v;
}

void rk_type_hold(MPI_Datatype t)
{
    rk_type_t *p = rk_type(t);
    if (p != NULL && !p->predefined)
        p->refs++;
}

void rk_type_drop(MPI_Datatype t)
{
    rk_type_t *p = rk_type(t);
    if (p != NULL && !p->predefined && --p->refs == 0 && p->freed)
        type_release(p);
}

int rckmpi_type_check(MPI_Datatype t)
{
    rk_type_t *p = rk_type_live(t);

    if (p == NULL || !p->committed || t == MPI_UB || t == MPI_LB)
        return MPI_ERR_TYPE;
    return MPI_SUCCESS;
}

MPI_Datatype rckmpi_type_basic(MPI_Datatype t, int *n)
{
    rk_type_t *p = rk_type(t);

    if (p == NULL) {
        *n = 0;
        return MPI_DATATYPE_NULL;
    }
    *n = p->nbasic;
    return p->basic;
}

/* bounds of the data and contiguity from the blocks */
static void set_bounds(rk_type_t *t)
{
    MPI_Aint lo = 0, hi = 0;

    for (int i = 0; i < t->nblocks; i++) {
        MPI_Aint a = t->blocks[i].off, b = a + (MPI_Aint)t->blocks[i].len;
        if (i == 0 || a < lo)
            lo = a;
        if (i == 0 || b > hi)
            hi = b;
    }
    t->true_lb = lo;
    t->true_ub = hi;
    t->contig = t->lb == 0 && t->extent == (MPI_Aint)t->size &&
                (t->size == 0 ||
                 (t->nblocks == 1 && t->blocks[0].off == 0));
    refresh_fast(t);
}

void rk_pack(const void *in, int count, const rk_type_t *t, void *out)
{
    const char *src = in;
    char *dst = out;

    if (t->contig) {
        if (t->size * (size_t)count > 0)
            memcpy(dst, src, t->size * (size_t)count);
        return;
    }
    for (int i = 0; i < count; i++, src += t->extent)
        for (int b = 0; b < t->nblocks; b++) {
            memcpy(dst, src + t->blocks[b].off, t->blocks[b].len);
            dst += t->blocks[b].len;
        }
}

void rk_unpack(const void *in, size_t bytes, int count, const rk_type_t *t,
               void *out)
{
    const char *src = in;
    char *dst = out;

    if (t->contig) {
        if (bytes > 0)
            memcpy(dst, src, bytes);
        return;
    }
    for (int i = 0; i < count && bytes > 0; i++, dst += t->extent)
        for (int b = 0; b < t->nblocks && bytes > 0; b++) {
            size_t n = t->blocks[b].len < bytes ? t->blocks[b].len : bytes;
            memcpy(dst + t->blocks[b].off, src, n);
            src += n;
            bytes -= n;
        }
}

long long rk_type_elements(const rk_type_t *t, long long bytes)
{
    long long n = 0;

    if (t->size == 0)
        return 0;
    while (bytes > 0)
        for (int b = 0; b < t->nblocks && bytes > 0; b++) {
            long long len = (long long)t->blocks[b].len;
            long long e = t->blocks[b].esize ? t->blocks[b].esize : 1;
            long long take = len < bytes ? len : bytes;
            n += take / e;
            bytes -= take;
        }
    return n;
}

/* ---- construction ---- */

typedef struct {
    rk_block_t *b;
    int n, cap;
    MPI_Datatype basic;
    long long nbasic;
    int mixed;
    int ext_odd;
    int has, mk_has_lb, mk_has_ub; /* bounds from items; MPI_LB/UB markers */
    MPI_Aint lb, ub, mk_lb, mk_ub;
} builder_t;

static int add_block(builder_t *B, MPI_Aint off, size_t len, uint32_t esize)
{
    if (len == 0)
        return 0;
    if (B->n > 0) {
        rk_block_t *l = &B->b[B->n - 1];
        if (l->esize == esize && l->off + (MPI_Aint)l->len == off) {
            l->len += len;
            return 0;
        }
    }
    if (B->n == B->cap) {
        int cap = B->cap ? 2 * B->cap : 8;
        rk_block_t *nb = realloc(B->b, (size_t)cap * sizeof(*nb));
        if (nb == NULL)
            return -1;
        B->b = nb;
        B->cap = cap;
    }
    B->b[B->n++] = (rk_block_t){off, len, esize};
    return 0;
}

/* Append @p blocklen items of @p old at displacement @p disp. */
static int add_items(builder_t *B, const rk_type_t *old, MPI_Datatype oh,
                     MPI_Aint disp, int blocklen)
{
    if (oh == MPI_LB || oh == MPI_UB) {
        int *has = oh == MPI_LB ? &B->mk_has_lb : &B->mk_has_ub;
        MPI_Aint *v = oh == MPI_LB ? &B->mk_lb : &B->mk_ub;
        if (!*has || (oh == MPI_LB ? disp < *v : disp > *v))
            *v = disp;
        *has = 1;
        return 0;
    }
    for (int k = 0; k < blocklen; k++) {
        MPI_Aint base = disp + (MPI_Aint)k * old->extent;
        for (int i = 0; i < old->nblocks; i++)
            if (add_block(B, base + old->blocks[i].off, old->blocks[i].len,
                          old->blocks[i].esize) != 0)
                return -1;
    }
    if (blocklen > 0 && old->size > 0) {
        B->ext_odd |= old->ext_odd;
        if (B->basic == MPI_DATATYPE_NULL && !B->mixed)
            B->basic = old->basic;
        else if (B->basic != old->basic)
            B->mixed = 1;
        B->nbasic += (long long)blocklen * old->nbasic;
    }
    /* the bounds the items span (old->lb .. old->lb + extent each) */
    if (blocklen > 0) {
        MPI_Aint lo = disp + old->lb;
        MPI_Aint hi = disp + old->lb + (MPI_Aint)blocklen * old->extent;
        if (old->extent < 0) {
            MPI_Aint t = lo;
            lo = hi;
            hi = t;
        }
        if (!B->has || lo < B->lb)
            B->lb = lo;
        if (!B->has || hi > B->ub)
            B->ub = hi;
        B->has = 1;
    }
    return 0;
}

static int new_type(builder_t *B, int combiner, MPI_Datatype *out)
{
    rk_type_t *t;
    int h;

    for (h = RCKMPI_NPREDEFINED; h < ty.n; h++)
        if (!ty.tab[h].used)
            break; /* (a freed type still held is still used) */
    if (h == ty.n) {
        if (ty.n == ty.cap) {
            rk_type_t *nt = realloc(ty.tab, 2 * (size_t)ty.cap * sizeof(*nt));
            if (nt == NULL)
                return MPI_ERR_NO_MEM;
            ty.tab = nt;
            ty.cap *= 2;
        }
        ty.n++;
    }
    t = &ty.tab[h];
    memset(t, 0, sizeof *t);
    t->used = 1;
    t->blocks = B->b;
    t->nblocks = B->n;
    t->size = 0;
    for (int i = 0; i < B->n; i++)
        t->size += B->b[i].len;
    t->lb = B->mk_has_lb ? B->mk_lb : B->has ? B->lb : 0;
    t->extent = (B->mk_has_ub ? B->mk_ub : B->has ? B->ub : 0) - t->lb;
    t->basic = B->mixed ? MPI_DATATYPE_NULL : B->basic;
    t->nbasic = B->mixed ? 0 : (int)B->nbasic;
    t->combiner = combiner;
    t->ext_odd = B->ext_odd;
    t->urefs = 1;
    set_bounds(t);
    *out = h;
    return MPI_SUCCESS;
}

/* The constructors: @p disps in bytes (or items of old with @p scale). */
static int build(int count, const int *blens, int blen_all,
                 const MPI_Aint *disps, MPI_Aint stride, int scale_disp,
                 const MPI_Datatype *types, MPI_Datatype old, int combiner,
                 MPI_Datatype *newtype, const char *func)
{
    builder_t B = {0};
    int err = rk_check_init(func);

    if (err != MPI_SUCCESS)
        return err;
    if (count < 0)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_COUNT, func, "negative count %d",
                      count);
    if (newtype == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, func, "newtype is NULL");
    for (int i = 0; i < count; i++) {
        MPI_Datatype th = types ? types[i] : old;
        const rk_type_t *o = rk_type_live(th);
        int bl = blens ? blens[i] : blen_all;
        MPI_Aint d = disps ? disps[i] : (MPI_Aint)i * stride;
        if (o == NULL)
            err = MPI_ERR_TYPE;
        else if (bl < 0)
            err = MPI_ERR_ARG;
        if (err != MPI_SUCCESS) {
            free(B.b);
            return rk_err(MPI_COMM_WORLD, err, func,
                          "block %d: invalid datatype %d or length %d", i, th,
                          bl);
        }
        if (scale_disp)
            d *= o->extent;
        if (add_items(&B, o, th, d, bl) != 0) {
            free(B.b);
            return rk_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, func, "no memory");
        }
    }
    if (count == 0 && rk_type_live(old) == NULL && types == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_TYPE, func,
                      "invalid datatype %d", old);
    return new_type(&B, combiner, newtype);
}

int PMPI_Type_contiguous(int count, MPI_Datatype old, MPI_Datatype *newtype)
{
    RK_MPI_GUARD;
    if (count < 0)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_COUNT, "MPI_Type_contiguous",
                      "negative count %d", count);
    return remember(build(1, NULL, count, NULL, 0, 0, NULL, old,
                          MPI_COMBINER_CONTIGUOUS, newtype,
                          "MPI_Type_contiguous"),
                    newtype, MPI_COMBINER_CONTIGUOUS, 1, &count, 0, NULL, 1,
                    &old, "MPI_Type_contiguous");
}
RK_MPI_ALIAS(Type_contiguous);

int PMPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype old,
                     MPI_Datatype *newtype)
{
    RK_MPI_GUARD;
    int v[3] = {count, blocklength, stride};
    return remember(build(count, NULL, blocklength, NULL, stride, 1, NULL,
                          old, MPI_COMBINER_VECTOR, newtype,
                          "MPI_Type_vector"),
                    newtype, MPI_COMBINER_VECTOR, 3, v, 0, NULL, 1, &old,
                    "MPI_Type_vector");
}
RK_MPI_ALIAS(Type_vector);

int PMPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride,
                             MPI_Datatype old, MPI_Datatype *newtype)
{
    RK_MPI_GUARD;
    int v[2] = {count, blocklength};
    return remember(build(count, NULL, blocklength, NULL, stride, 0, NULL,
                          old, MPI_COMBINER_HVECTOR, newtype,
                          "MPI_Type_create_hvector"),
                    newtype, MPI_COMBINER_HVECTOR, 2, v, 1, &stride, 1, &old,
                    "MPI_Type_create_hvector");
}
RK_MPI_ALIAS(Type_create_hvector);

int PMPI_Type_hvector(int count, int blocklength, MPI_Aint stride,
                      MPI_Datatype old, MPI_Datatype *newtype)
{
    RK_MPI_GUARD;
    return PMPI_Type_create_hvector(count, blocklength, stride, old, newtype);
}
RK_MPI_ALIAS(Type_hvector);

/* integer displacements (in items) as MPI_Aint */
static int indexed(int count, const int *blens, int blen_all,
                   const int *disps, MPI_Datatype old, int combiner,
                   MPI_Datatype *newtype, const char *func)
{
    MPI_Aint *d;
    int err;

    if (count < 0)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_COUNT, func, "negative count %d",
                      count);
    if (count > 0 && disps == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, func, "NULL displacements");
    d = malloc(((size_t)count + 1) * sizeof(*d));
    if (d == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, func, "no memory");
    for (int i = 0; i < count; i++)
        d[i] = disps[i];
    err = build(count, blens, blen_all, d, 0, 1, NULL, old, combiner, newtype,
                func);
    free(d);
    return err;
}

int PMPI_Type_indexed(int count, const int blocklengths[],
                      const int displacements[], MPI_Datatype old,
                      MPI_Datatype *newtype)
{
    RK_MPI_GUARD;
    if (count > 0 && blocklengths == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Type_indexed",
                      "NULL block lengths");
    int err = indexed(count, blocklengths, 0, displacements, old,
                      MPI_COMBINER_INDEXED, newtype, "MPI_Type_indexed");
    int *v = err == MPI_SUCCESS ? ints_of(count, blocklengths, count,
                                          displacements, count, 0, 0)
                                : NULL;

    err = remember(err == MPI_SUCCESS && v == NULL ? MPI_ERR_NO_MEM : err,
                   newtype, MPI_COMBINER_INDEXED, 2 * count + 1, v, 0, NULL,
                   1, &old, "MPI_Type_indexed");
    free(v);
    return err;
}
RK_MPI_ALIAS(Type_indexed);

int PMPI_Type_create_indexed_block(int count, int blocklength,
                                   const int displacements[], MPI_Datatype old,
                                   MPI_Datatype *newtype)
{
    RK_MPI_GUARD;
    int err = indexed(count, NULL, blocklength, displacements, old,
                      MPI_COMBINER_INDEXED_BLOCK, newtype,
                      "MPI_Type_create_indexed_block");
    int *v = err == MPI_SUCCESS ? ints_of(count, displacements, count, NULL,
                                          0, blocklength, 1)
                                : NULL;

    err = remember(err == MPI_SUCCESS && v == NULL ? MPI_ERR_NO_MEM : err,
                   newtype, MPI_COMBINER_INDEXED_BLOCK, count + 2, v, 0, NULL,
                   1, &old, "MPI_Type_create_indexed_block");
    free(v);
    return err;
}
RK_MPI_ALIAS(Type_create_indexed_block);

int PMPI_Type_create_hindexed(int count, const int blocklengths[],
                              const MPI_Aint displacements[], MPI_Datatype old,
                              MPI_Datatype *newtype)
{
    RK_MPI_GUARD;
    if (count > 0 && (blocklengths == NULL || displacements == NULL))
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Type_create_hindexed",
                      "NULL arrays");
    int err = build(count, blocklengths, 0, displacements, 0, 0, NULL, old,
                    MPI_COMBINER_HINDEXED, newtype,
                    "MPI_Type_create_hindexed");
    int *v = err == MPI_SUCCESS ? ints_of(count, blocklengths, count, NULL,
                                          0, 0, 0)
                                : NULL;

    err = remember(err == MPI_SUCCESS && v == NULL ? MPI_ERR_NO_MEM : err,
                   newtype, MPI_COMBINER_HINDEXED, count + 1, v, count,
                   displacements, 1, &old, "MPI_Type_create_hindexed");
    free(v);
    return err;
}
RK_MPI_ALIAS(Type_create_hindexed);

int PMPI_Type_hindexed(int count, const int blocklengths[],
                       const MPI_Aint displacements[], MPI_Datatype old,
                       MPI_Datatype *newtype)
{
    RK_MPI_GUARD;
    return PMPI_Type_create_hindexed(count, blocklengths, displacements, old,
                                     newtype);
}
RK_MPI_ALIAS(Type_hindexed);

int PMPI_Type_create_hindexed_block(int count, int blocklength,
                                    const MPI_Aint displacements[],
                                    MPI_Datatype old, MPI_Datatype *newtype)
{
    RK_MPI_GUARD;
    if (count > 0 && displacements == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG,
                      "MPI_Type_create_hindexed_block", "NULL displacements");
    if (blocklength < 0)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG,
                      "MPI_Type_create_hindexed_block",
                      "negative block length %d", blocklength);
    int v[2] = {count, blocklength};
    return remember(build(count, NULL, blocklength, displacements, 0, 0,
                          NULL, old, MPI_COMBINER_HINDEXED_BLOCK, newtype,
                          "MPI_Type_create_hindexed_block"),
                    newtype, MPI_COMBINER_HINDEXED_BLOCK, 2, v, count,
                    displacements, 1, &old,
                    "MPI_Type_create_hindexed_block");
}
RK_MPI_ALIAS(Type_create_hindexed_block);

int PMPI_Type_create_struct(int count, const int blocklengths[],
                            const MPI_Aint displacements[],
                            const MPI_Datatype types[], MPI_Datatype *newtype)
{
    RK_MPI_GUARD;
    if (count > 0 &&
        (blocklengths == NULL || displacements == NULL || types == NULL))
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Type_create_struct",
                      "NULL arrays");
    int err = build(count, blocklengths, 0, displacements, 0, 0, types,
                    MPI_DATATYPE_NULL, MPI_COMBINER_STRUCT, newtype,
                    "MPI_Type_create_struct");
    int *v = err == MPI_SUCCESS ? ints_of(count, blocklengths, count, NULL,
                                          0, 0, 0)
                                : NULL;

    err = remember(err == MPI_SUCCESS && v == NULL ? MPI_ERR_NO_MEM : err,
                   newtype, MPI_COMBINER_STRUCT, count + 1, v, count,
                   displacements, count, types, "MPI_Type_create_struct");
    free(v);
    return err;
}
RK_MPI_ALIAS(Type_create_struct);

int PMPI_Type_struct(int count, const int blocklengths[],
                     const MPI_Aint displacements[], const MPI_Datatype types[],
                     MPI_Datatype *newtype)
{
    RK_MPI_GUARD;
    return PMPI_Type_create_struct(count, blocklengths, displacements, types,
                                   newtype);
}
RK_MPI_ALIAS(Type_struct);

int PMPI_Type_create_resized(MPI_Datatype old, MPI_Aint lb, MPI_Aint extent,
                             MPI_Datatype *newtype)
{
    RK_MPI_GUARD;
    int err = build(1, NULL, 1, NULL, 0, 0, NULL, old, MPI_COMBINER_RESIZED,
                    newtype, "MPI_Type_create_resized");
    rk_type_t *t;

    if (err != MPI_SUCCESS)
        return err;
    t = rk_type(*newtype);
    t->lb = lb;
    t->extent = extent;
    set_bounds(t);
    {
        MPI_Aint a[2] = {lb, extent};
        return remember(MPI_SUCCESS, newtype, MPI_COMBINER_RESIZED, 0, NULL,
                        2, a, 1, &old, "MPI_Type_create_resized");
    }
}
RK_MPI_ALIAS(Type_create_resized);

int PMPI_Type_dup(MPI_Datatype old, MPI_Datatype *newtype)
{
    RK_MPI_GUARD;
    int err = build(1, NULL, 1, NULL, 0, 0, NULL, old, MPI_COMBINER_DUP,
                    newtype, "MPI_Type_dup");
    err = remember(err, newtype, MPI_COMBINER_DUP, 0, NULL, 0, NULL, 1, &old,
                   "MPI_Type_dup");
    if (err == MPI_SUCCESS && rk_type(old)->committed) {
        rk_type(*newtype)->committed = 1;
        refresh_fast(rk_type(*newtype));
    }
    /* the attributes go with the copy by their copy callbacks */
    if (err == MPI_SUCCESS && (err = rk_attr_type_dup(old, *newtype)) !=
                                  MPI_SUCCESS) {
        type_release(rk_type(*newtype));
        *newtype = MPI_DATATYPE_NULL;
        return rk_err(MPI_COMM_WORLD, err, "MPI_Type_dup",
                      "an attribute's copy function failed");
    }
    return err;
}
RK_MPI_ALIAS(Type_dup);

static int type_arg(MPI_Datatype t, const char *func)
{
    int err = rk_check_init(func);

    if (err != MPI_SUCCESS)
        return err;
    if (rk_type_live(t) == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_TYPE, func, "invalid datatype %d",
                      t);
    return MPI_SUCCESS;
}

int PMPI_Type_commit(MPI_Datatype *type)
{
    RK_MPI_GUARD;
    int err = type_arg(type ? *type : 0, "MPI_Type_commit");

    if (err == MPI_SUCCESS) {
        rk_type(*type)->committed = 1;
        refresh_fast(rk_type(*type));
    }
    return err;
}
RK_MPI_ALIAS(Type_commit);

int PMPI_Type_free(MPI_Datatype *type)
{
    RK_MPI_GUARD;
    int err = type_arg(type ? *type : 0, "MPI_Type_free");
    rk_type_t *t;

    if (err != MPI_SUCCESS)
        return err;
    t = rk_type(*type);
    if (t->predefined)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_TYPE, "MPI_Type_free",
                      "datatype %d is predefined", *type);
    /* MPI_Type_get_contents gave the program more handles of it */
    if (t->urefs > 1) {
        t->urefs--;
        *type = MPI_DATATYPE_NULL;
        return MPI_SUCCESS;
    }
    /* the attributes' delete callbacks first (MPI-3.1 6.7.4) */
    err = rk_attr_type_delete_all(*type);
    if (err != MPI_SUCCESS)
        return rk_err(MPI_COMM_WORLD, err, "MPI_Type_free",
                      "an attribute's delete callback failed");
    t = rk_type(*type);
    /* requests still using it keep it until they are released */
    if (t->refs > 0) {
        t->freed = 1;
        refresh_fast(t);
    } else
        type_release(t);
    *type = MPI_DATATYPE_NULL;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Type_free);

int PMPI_Type_size(MPI_Datatype type, int *size)
{
    RK_MPI_GUARD;
    int err = type_arg(type, "MPI_Type_size");

    if (err == MPI_SUCCESS)
        *size = (int)rk_type(type)->size;
    return err;
}
RK_MPI_ALIAS(Type_size);

int PMPI_Type_get_extent(MPI_Datatype type, MPI_Aint *lb, MPI_Aint *extent)
{
    RK_MPI_GUARD;
    int err = type_arg(type, "MPI_Type_get_extent");

    if (err == MPI_SUCCESS) {
        *lb = rk_type(type)->lb;
        *extent = rk_type(type)->extent;
    }
    return err;
}
RK_MPI_ALIAS(Type_get_extent);

int PMPI_Type_extent(MPI_Datatype type, MPI_Aint *extent)
{
    RK_MPI_GUARD;
    MPI_Aint lb;
    return PMPI_Type_get_extent(type, &lb, extent);
}
RK_MPI_ALIAS(Type_extent);

int PMPI_Type_lb(MPI_Datatype type, MPI_Aint *displacement)
{
    RK_MPI_GUARD;
    MPI_Aint ext;
    return PMPI_Type_get_extent(type, displacement, &ext);
}
RK_MPI_ALIAS(Type_lb);

int PMPI_Type_ub(MPI_Datatype type, MPI_Aint *displacement)
{
    RK_MPI_GUARD;
    MPI_Aint lb, ext;
    int err = PMPI_Type_get_extent(type, &lb, &ext);

    if (err == MPI_SUCCESS)
        *displacement = lb + ext;
    return err;
}
RK_MPI_ALIAS(Type_ub);

int PMPI_Type_get_true_extent(MPI_Datatype type, MPI_Aint *true_lb,
                              MPI_Aint *true_extent)
{
    RK_MPI_GUARD;
    int err = type_arg(type, "MPI_Type_get_true_extent");

    if (err == MPI_SUCCESS) {
        *true_lb = rk_type(type)->true_lb;
        *true_extent = rk_type(type)->true_ub - rk_type(type)->true_lb;
    }
    return err;
}
RK_MPI_ALIAS(Type_get_true_extent);

int PMPI_Get_address(const void *location, MPI_Aint *address)
{
    RK_MPI_GUARD;
    *address = (MPI_Aint)location;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Get_address);

int PMPI_Address(void *location, MPI_Aint *address)
{
    RK_MPI_GUARD;
    return PMPI_Get_address(location, address);
}
RK_MPI_ALIAS(Address);

int PMPI_Pack_size(int incount, MPI_Datatype type, MPI_Comm comm, int *size)
{
    RK_MPI_GUARD;
    int err = type_arg(type, "MPI_Pack_size");

    if (err != MPI_SUCCESS)
        return err;
    if (incount < 0)
        return rk_err(comm, MPI_ERR_COUNT, "MPI_Pack_size",
                      "negative count %d", incount);
    *size = (int)(rk_type(type)->size * (size_t)incount);
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Pack_size);

int PMPI_Pack(const void *inbuf, int incount, MPI_Datatype type, void *outbuf,
              int outsize, int *position, MPI_Comm comm)
{
    RK_MPI_GUARD;
    int size, err = PMPI_Pack_size(incount, type, comm, &size);

    if (err != MPI_SUCCESS)
        return err;
    if (rckmpi_type_check(type) != MPI_SUCCESS)
        return rk_err(comm, MPI_ERR_TYPE, "MPI_Pack",
                      "datatype %d is not committed", type);
    if (*position < 0 || *position + size > outsize)
        return rk_err(comm, MPI_ERR_TRUNCATE, "MPI_Pack",
                      "%d bytes at position %d do not fit %d bytes", size,
                      *position, outsize);
    rk_pack(inbuf, incount, rk_type(type), (char *)outbuf + *position);
    *position += size;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Pack);

int PMPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf,
                int outcount, MPI_Datatype type, MPI_Comm comm)
{
    RK_MPI_GUARD;
    int size, err = PMPI_Pack_size(outcount, type, comm, &size);

    if (err != MPI_SUCCESS)
        return err;
    if (rckmpi_type_check(type) != MPI_SUCCESS)
        return rk_err(comm, MPI_ERR_TYPE, "MPI_Unpack",
                      "datatype %d is not committed", type);
    if (*position < 0 || *position + size > insize)
        return rk_err(comm, MPI_ERR_TRUNCATE, "MPI_Unpack",
                      "%d bytes at position %d: only %d in the buffer", size,
                      *position, insize);
    rk_unpack((const char *)inbuf + *position, (size_t)size, outcount,
              rk_type(type), outbuf);
    *position += size;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Unpack);
