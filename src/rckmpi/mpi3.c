/*
 * MPI-2.2/3.x calls that complete the library toward MPI-3.1 (issue 27;
 * docs/MPI.md "MPI-3.1"): address arithmetic, the MPI_Count (_x) forms of
 * the size queries, communicator and window hints (MPI_Info), datatype
 * names, MPI_Type_match_size, generalized requests of the program's own.
 * (The program's error classes and codes are in err.c, with the other
 * error codes.)
 *
 * May call: the bottom (err.c, the tables), requests, datatypes,
 * windows' lookups, communicators; nothing calls into this file but the
 * MPI_* names (MPI_Cancel reaches a generalized request's cancel through
 * rk_req_t.cancel).
 */
#include "rckmpi.h"
#include "rckmpi_greq.h"
#include "win_int.h"

#include <stdlib.h>
#include <string.h>
#include <stdio.h>

/* ---- address arithmetic (MPI-3.1 4.1.5) ---- */

MPI_Aint PMPI_Aint_add(MPI_Aint base, MPI_Aint disp)
{
    RK_MPI_GUARD;
    return (MPI_Aint)((uintptr_t)base + (uintptr_t)disp);
}
RK_MPI_ALIAS(Aint_add);

MPI_Aint PMPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2)
{
    RK_MPI_GUARD;
    return (MPI_Aint)((uintptr_t)addr1 - (uintptr_t)addr2);
}
RK_MPI_ALIAS(Aint_diff);

/* ---- MPI_Count forms ---- */

static int type_q(MPI_Datatype type, const void *out, rk_type_t **t,
                  const char *func)
{
    int err = rk_check_init(func);

    if (err != MPI_SUCCESS)
        return err;
    *t = rk_type_live(type);
    if (*t == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_TYPE, func,
                      "invalid datatype %d", type);
    if (out == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, func,
                      "an output argument is NULL");
    return MPI_SUCCESS;
}

int PMPI_Type_size_x(MPI_Datatype type, MPI_Count *size)
{
    RK_MPI_GUARD;
    rk_type_t *t;
    int err = type_q(type, size, &t, "MPI_Type_size_x");

    if (err == MPI_SUCCESS)
        *size = (MPI_Count)t->size;
    return err;
}
RK_MPI_ALIAS(Type_size_x);

int PMPI_Type_get_extent_x(MPI_Datatype type, MPI_Count *lb,
                           MPI_Count *extent)
{
    RK_MPI_GUARD;
    rk_type_t *t;
    int err = type_q(type, lb != NULL && extent != NULL ? lb : NULL, &t,
                     "MPI_Type_get_extent_x");

    if (err == MPI_SUCCESS) {
        *lb = t->lb;
        *extent = t->extent;
    }
    return err;
}
RK_MPI_ALIAS(Type_get_extent_x);

int PMPI_Type_get_true_extent_x(MPI_Datatype type, MPI_Count *true_lb,
                                MPI_Count *true_extent)
{
    RK_MPI_GUARD;
    rk_type_t *t;
    int err = type_q(type, true_lb != NULL && true_extent != NULL ? true_lb
                                                                 : NULL,
                     &t, "MPI_Type_get_true_extent_x");

    if (err == MPI_SUCCESS) {
        *true_lb = t->true_lb;
        *true_extent = t->true_ub - t->true_lb;
    }
    return err;
}
RK_MPI_ALIAS(Type_get_true_extent_x);

int PMPI_Get_elements_x(const MPI_Status *status, MPI_Datatype type,
                        MPI_Count *count)
{
    RK_MPI_GUARD;
    rk_type_t *t;
    int err = type_q(type, count, &t, "MPI_Get_elements_x");

    if (err != MPI_SUCCESS)
        return err;
    if (status == NULL || status == MPI_STATUS_IGNORE)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Get_elements_x",
                      "no status (NULL or MPI_STATUS_IGNORE)");
    *count = rk_type_elements(t, status->rck_bytes);
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Get_elements_x);

/* The bytes of @p count basic elements of @p t, item after item: what
 * MPI_Get_elements turns back into @p count. */
int PMPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype type,
                               MPI_Count count)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Status_set_elements_x";
    rk_type_t *t;
    long long per, bytes, rem;
    int err = type_q(type, status, &t, f);

    if (err != MPI_SUCCESS)
        return err;
    if (status == MPI_STATUS_IGNORE)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, f,
                      "status is MPI_STATUS_IGNORE");
    if (count < 0)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_COUNT, f, "negative count %lld",
                      (long long)count);
    per = rk_type_elements(t, (long long)t->size);
    if (per == 0) {
        if (count != 0)
            return rk_err(MPI_COMM_WORLD, MPI_ERR_COUNT, f,
                          "datatype %d has no elements, count %lld", type,
                          (long long)count);
        status->rck_bytes = 0;
        return MPI_SUCCESS;
    }
    bytes = (count / per) * (long long)t->size;
    rem = count % per;
    for (int b = 0; b < t->nblocks && rem > 0; b++) {
        long long e = t->blocks[b].esize ? t->blocks[b].esize : 1;
        long long n = (long long)t->blocks[b].len / e;
        long long take = rem < n ? rem : n;
        bytes += take * e;
        rem -= take;
    }
    status->rck_bytes = bytes;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Status_set_elements_x);

int PMPI_Status_set_elements(MPI_Status *status, MPI_Datatype type, int count)
{
    RK_MPI_GUARD;
    return PMPI_Status_set_elements_x(status, type, count);
}
RK_MPI_ALIAS(Status_set_elements);

/* ---- hints of communicators and windows ---- */

/* a copy of @p info in @p *out (MPI_INFO_NULL: none) */
static int info_copy(MPI_Info info, MPI_Info *out)
{
    *out = MPI_INFO_NULL;
    if (info == MPI_INFO_NULL)
        return MPI_SUCCESS;
    return PMPI_Info_dup(info, out);
}

/* a new info object for the caller: a copy of @p held, or empty */
static int info_give(MPI_Info held, MPI_Info *out)
{
    if (held != MPI_INFO_NULL)
        return PMPI_Info_dup(held, out);
    return PMPI_Info_create(out);
}

/* @p *held becomes @p copy (the hints it had are freed) */
static void info_replace(MPI_Info *held, MPI_Info copy)
{
    if (*held != MPI_INFO_NULL)
        PMPI_Info_free(held);
    *held = copy;
}

/* MPI_Xxx_set_info of an object whose hints are @p *held (errors to
 * @p ecomm's handler, named @p f) */
static int info_set(MPI_Comm ecomm, MPI_Info *held, MPI_Info info,
                    const char *f)
{
    MPI_Info copy;
    int err = info_copy(info, &copy);

    if (err != MPI_SUCCESS)
        return rk_err(ecomm, err, f, "invalid info %d", info);
    info_replace(held, copy);
    return MPI_SUCCESS;
}

/* MPI_Xxx_get_info of an object whose hints are @p held */
static int info_get(MPI_Comm ecomm, MPI_Info held, MPI_Info *info_used,
                    const char *f)
{
    if (info_used == NULL)
        return rk_err(ecomm, MPI_ERR_ARG, f, "info_used is NULL");
    return info_give(held, info_used);
}

int PMPI_Comm_set_info(MPI_Comm comm, MPI_Info info)
{
    RK_MPI_GUARD;
    rk_comm_t *c;
    int err = rk_comm_arg(comm, &c, "MPI_Comm_set_info");

    if (err != MPI_SUCCESS)
        return err;
    return info_set(comm, &c->info, info, "MPI_Comm_set_info");
}
RK_MPI_ALIAS(Comm_set_info);

int PMPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used)
{
    RK_MPI_GUARD;
    rk_comm_t *c;
    int err = rk_comm_arg(comm, &c, "MPI_Comm_get_info");

    if (err != MPI_SUCCESS)
        return err;
    return info_get(comm, c->info, info_used, "MPI_Comm_get_info");
}
RK_MPI_ALIAS(Comm_get_info);

/* MPI_Comm_dup, then @p info's hints in place of the ones copied */
int PMPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    RK_MPI_GUARD;
    MPI_Info copy;
    rk_comm_t *c;
    int err = rk_comm_arg(comm, &c, "MPI_Comm_dup_with_info");

    if (err != MPI_SUCCESS)
        return err;
    if (newcomm == NULL)
        return rk_err(comm, MPI_ERR_ARG, "MPI_Comm_dup_with_info",
                      "newcomm is NULL");
    /* checked before the dup, which every member must reach */
    err = info_copy(info, &copy);
    if (err != MPI_SUCCESS)
        return rk_err(comm, err, "MPI_Comm_dup_with_info", "invalid info %d",
                      info);
    err = PMPI_Comm_dup(comm, newcomm);
    if (err != MPI_SUCCESS) {
        if (copy != MPI_INFO_NULL)
            PMPI_Info_free(&copy);
        return err;
    }
    info_replace(&rk_comm(*newcomm)->info, copy);
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Comm_dup_with_info);

int PMPI_Win_set_info(MPI_Win win, MPI_Info info)
{
    RK_MPI_GUARD;
    rk_win_t *w;
    int err = rk_win_arg(win, &w, "MPI_Win_set_info");

    if (err != MPI_SUCCESS)
        return err;
    return info_set(w->comm, &w->info, info, "MPI_Win_set_info");
}
RK_MPI_ALIAS(Win_set_info);

int PMPI_Win_get_info(MPI_Win win, MPI_Info *info_used)
{
    RK_MPI_GUARD;
    rk_win_t *w;
    int err = rk_win_arg(win, &w, "MPI_Win_get_info");

    if (err != MPI_SUCCESS)
        return err;
    return info_get(w->comm, w->info, info_used, "MPI_Win_get_info");
}
RK_MPI_ALIAS(Win_get_info);

/* ---- datatype names ---- */

static const char *const predef_name[RCKMPI_NPREDEFINED] = {
    [MPI_CHAR] = "MPI_CHAR",
    [MPI_SIGNED_CHAR] = "MPI_SIGNED_CHAR",
    [MPI_UNSIGNED_CHAR] = "MPI_UNSIGNED_CHAR",
    [MPI_BYTE] = "MPI_BYTE",
    [MPI_WCHAR] = "MPI_WCHAR",
    [MPI_SHORT] = "MPI_SHORT",
    [MPI_UNSIGNED_SHORT] = "MPI_UNSIGNED_SHORT",
    [MPI_INT] = "MPI_INT",
    [MPI_UNSIGNED] = "MPI_UNSIGNED",
    [MPI_LONG] = "MPI_LONG",
    [MPI_UNSIGNED_LONG] = "MPI_UNSIGNED_LONG",
    [MPI_LONG_LONG_INT] = "MPI_LONG_LONG_INT",
    [MPI_UNSIGNED_LONG_LONG] = "MPI_UNSIGNED_LONG_LONG",
    [MPI_FLOAT] = "MPI_FLOAT",
    [MPI_DOUBLE] = "MPI_DOUBLE",
    [MPI_LONG_DOUBLE] = "MPI_LONG_DOUBLE",
    [MPI_PACKED] = "MPI_PACKED",
    [MPI_INT8_T] = "MPI_INT8_T",
    [MPI_INT16_T] = "MPI_INT16_T",
    [MPI_INT32_T] = "MPI_INT32_T",
    [MPI_INT64_T] = "MPI_INT64_T",
    [MPI_UINT8_T] = "MPI_UINT8_T",
    [MPI_UINT16_T] = "MPI_UINT16_T",
    [MPI_UINT32_T] = "MPI_UINT32_T",
    [MPI_UINT64_T] = "MPI_UINT64_T",
    [MPI_C_BOOL] = "MPI_C_BOOL",
    [MPI_AINT] = "MPI_AINT",
    [MPI_OFFSET] = "MPI_OFFSET",
    [MPI_FLOAT_INT] = "MPI_FLOAT_INT",
    [MPI_DOUBLE_INT] = "MPI_DOUBLE_INT",
    [MPI_LONG_INT] = "MPI_LONG_INT",
    [MPI_2INT] = "MPI_2INT",
    [MPI_SHORT_INT] = "MPI_SHORT_INT",
    [MPI_LONG_DOUBLE_INT] = "MPI_LONG_DOUBLE_INT",
    [MPI_UB] = "MPI_UB",
    [MPI_LB] = "MPI_LB",
    [MPI_COUNT] = "MPI_COUNT",
};

int PMPI_Type_set_name(MPI_Datatype type, const char *name)
{
    RK_MPI_GUARD;
    rk_type_t *t;
    int err = type_q(type, name, &t, "MPI_Type_set_name");

    if (err != MPI_SUCCESS)
        return err;
    snprintf(t->name, sizeof t->name, "%s", name);
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Type_set_name);

int PMPI_Type_get_name(MPI_Datatype type, char *name, int *resultlen)
{
    RK_MPI_GUARD;
    rk_type_t *t;
    const char *n;
    int err = type_q(type, name != NULL && resultlen != NULL ? name : NULL,
                     &t, "MPI_Type_get_name");

    if (err != MPI_SUCCESS)
        return err;
    n = t->name;
    if (n[0] == '\0' && type > 0 && type < RCKMPI_NPREDEFINED &&
        predef_name[type] != NULL)
        n = predef_name[type];
    *resultlen = snprintf(name, MPI_MAX_OBJECT_NAME, "%s", n);
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Type_get_name);

/* ---- MPI_Type_match_size (MPI-3.1 17.1.9) ---- */

int PMPI_Type_match_size(int typeclass, int size, MPI_Datatype *type)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Type_match_size";
    static const MPI_Datatype reals[] = {MPI_FLOAT, MPI_DOUBLE,
                                         MPI_LONG_DOUBLE};
    static const MPI_Datatype ints[] = {MPI_INT8_T, MPI_INT16_T, MPI_INT32_T,
                                        MPI_INT64_T};
    const MPI_Datatype *c;
    int n, err = rk_check_init(f);

    if (err != MPI_SUCCESS)
        return err;
    if (type == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, f, "datatype is NULL");
    switch (typeclass) {
    case MPI_TYPECLASS_REAL:
        c = reals;
        n = 3;
        break;
    case MPI_TYPECLASS_INTEGER:
        c = ints;
        n = 4;
        break;
    case MPI_TYPECLASS_COMPLEX:
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, f,
                      "no complex datatypes in this library (size %d)", size);
    default:
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, f, "invalid type class %d",
                      typeclass);
    }
    for (int i = 0; i < n; i++)
        if (rk_type(c[i])->size == (size_t)size) {
            *type = c[i];
            return MPI_SUCCESS;
        }
    return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, f,
                  "no datatype of class %d with size %d", typeclass, size);
}
RK_MPI_ALIAS(Type_match_size);

/* ---- generalized requests of the program (MPI-3.1 12.2) ----
 * On the library's own (rckmpi_greq.h): the request is done once
 * MPI_Grequest_complete was called; then query_fn fills its status (its
 * error is the request's), and free_fn runs when the request is released
 * (MPI_Wait/Test, or MPI_Request_free). */
typedef struct {
    MPI_Grequest_query_function *query;
    MPI_Grequest_free_function *free_fn;
    MPI_Grequest_cancel_function *cancel;
    void *extra;
    MPI_Request self;
    int completed;
} ugreq_t;

static int ugreq_poll(void *state, int *done)
{
    ugreq_t *g = state;
    rk_req_t *r;
    MPI_Status st;
    int err;

    if (!g->completed)
        return MPI_SUCCESS;
    *done = 1;
    r = rk_req(g->self);
    st = r->st;
    st.MPI_ERROR = MPI_SUCCESS;
    err = g->query != NULL ? g->query(g->extra, &st) : MPI_SUCCESS;
    r = rk_req(g->self); /* the callback may have made requests */
    r->st.MPI_SOURCE = st.MPI_SOURCE;
    r->st.MPI_TAG = st.MPI_TAG;
    r->st.rck_cancelled = st.rck_cancelled;
    r->st.rck_bytes = st.rck_bytes;
    return err;
}

static void ugreq_release(void *state)
{
    ugreq_t *g = state;

    if (g->free_fn != NULL)
        g->free_fn(g->extra);
    free(g);
}

/* MPI_Cancel of the request (rk_req_t.cancel, set at the start) */
static int ugreq_cancel(void *state)
{
    ugreq_t *g = state;

    return g->cancel != NULL ? g->cancel(g->extra, g->completed)
                             : MPI_SUCCESS;
}

int PMPI_Grequest_start(MPI_Grequest_query_function *query_fn,
                        MPI_Grequest_free_function *free_fn,
                        MPI_Grequest_cancel_function *cancel_fn,
                        void *extra_state, MPI_Request *request)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Grequest_start";
    ugreq_t *g;
    int err = rk_check_init(f);

    if (err != MPI_SUCCESS)
        return err;
    if (request == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, f, "request is NULL");
    g = calloc(1, sizeof *g);
    if (g == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, f, "no memory");
    g->query = query_fn;
    g->free_fn = free_fn;
    g->cancel = cancel_fn;
    g->extra = extra_state;
    err = rckmpi_greq_start(ugreq_poll, g, ugreq_release, MPI_COMM_WORLD,
                            request);
    if (err != MPI_SUCCESS) {
        free(g);
        return err;
    }
    g->self = *request;
    rk_req(*request)->cancel = ugreq_cancel;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Grequest_start);

int PMPI_Grequest_complete(MPI_Request request)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Grequest_complete";
    rk_req_t *r;
    ugreq_t *g;
    int err = rk_check_init(f);

    if (err != MPI_SUCCESS)
        return err;
    r = rk_req(request);
    if (r == NULL || r->kind != RK_REQ_GEN || r->poll != ugreq_poll)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_REQUEST, f,
                      "request %d is not one of MPI_Grequest_start's",
                      request);
    g = r->state;
    if (g->completed)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_REQUEST, f,
                      "request %d was completed already", request);
    g->completed = 1;
    /* done now: a request MPI_Request_free'd is released here */
    rk_greq_poll(r);
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Grequest_complete);

int PMPI_Status_set_cancelled(MPI_Status *status, int flag)
{
    RK_MPI_GUARD;
    if (status == NULL || status == MPI_STATUS_IGNORE)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Status_set_cancelled",
                      "no status");
    status->rck_cancelled = flag != 0;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Status_set_cancelled);

/* ---- canonical packing: external32 (MPI-3.1 4.3, 13.5.2) ----
 * external32 is big-endian with fixed sizes; for every element whose
 * external size is its native size the canonical form is the native pack
 * with each element's bytes reversed on a little-endian host. long and
 * unsigned long (8 bytes here, 4 in external32) are converted with a
 * range check when the datatype holds nothing else; wchar_t (2 bytes in
 * external32), long double (a 16-byte IEEE quad) and datatypes that mix
 * long with other elements are refused with MPI_ERR_TYPE (docs/MPI.md). */

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define RK_NATIVE_BE 1
#else
#define RK_NATIVE_BE 0
#endif

enum { EXT_SWAP, EXT_LONG, EXT_ULONG };

/* how @p t goes to external32, or the error (raised) */
static int ext_kind(const char *datarep, MPI_Datatype type, rk_type_t **tp,
                    int *kind, const char *f)
{
    rk_type_t *t;
    int err = rk_check_init(f);

    if (err != MPI_SUCCESS)
        return err;
    if (datarep == NULL || strcmp(datarep, "external32") != 0)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_UNSUPPORTED_DATAREP, f,
                      "data representation \"%s\" (only \"external32\")",
                      datarep ? datarep : "(null)");
    t = rk_type_live(type);
    if (t == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_TYPE, f, "invalid datatype %d",
                      type);
    if (!t->committed)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_TYPE, f,
                      "datatype %d is not committed", type);
    *tp = t;
    *kind = EXT_SWAP;
    if (!t->ext_odd)
        return MPI_SUCCESS;
    if (t->basic == MPI_LONG || t->basic == MPI_UNSIGNED_LONG) {
        *kind = t->basic == MPI_LONG ? EXT_LONG : EXT_ULONG;
        return MPI_SUCCESS;
    }
    return rk_err(MPI_COMM_WORLD, MPI_ERR_TYPE, f,
                  "datatype %d holds wchar_t, long double or long mixed with "
                  "other elements: their external32 form is not implemented",
                  type);
}

/* the external32 bytes of @p count items */
static long long ext_bytes(const rk_type_t *t, int kind, int count)
{
    long long n = (long long)t->size * count;
    return kind == EXT_SWAP ? n : n / (long long)sizeof(long) * 4;
}

/* reverse every element's bytes of @p count packed items of @p t */
static void ext_swap(char *p, const rk_type_t *t, int count)
{
    if (RK_NATIVE_BE)
        return;
    for (int k = 0; k < count; k++)
        for (int b = 0; b < t->nblocks; b++) {
            size_t e = t->blocks[b].esize ? t->blocks[b].esize : 1;
            for (size_t o = 0; o + e <= t->blocks[b].len; o += e) {
                for (size_t i = 0; i < e / 2; i++) {
                    char c = p[o + i];
                    p[o + i] = p[o + e - 1 - i];
                    p[o + e - 1 - i] = c;
                }
            }
            p += t->blocks[b].len;
        }
}

/* The checks the three external32 calls share: the representation and
 * the type (ext_kind), the count, and the output @p out (named @p what)
 * not NULL. */
static int ext_args(const char *datarep, MPI_Datatype type, int count,
                    const void *out, const char *what, rk_type_t **t,
                    int *kind, const char *f)
{
    int err = ext_kind(datarep, type, t, kind, f);

    if (err != MPI_SUCCESS)
        return err;
    if (count < 0)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_COUNT, f, "negative count %d",
                      count);
    if (out == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, f, "%s is NULL", what);
    return MPI_SUCCESS;
}

int PMPI_Pack_external_size(const char datarep[], int incount,
                            MPI_Datatype type, MPI_Aint *size)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Pack_external_size";
    rk_type_t *t;
    int kind, err = ext_args(datarep, type, incount, size, "size", &t, &kind,
                             f);

    if (err != MPI_SUCCESS)
        return err;
    *size = (MPI_Aint)ext_bytes(t, kind, incount);
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Pack_external_size);

int PMPI_Pack_external(const char datarep[], const void *inbuf, int incount,
                       MPI_Datatype type, void *outbuf, MPI_Aint outsize,
                       MPI_Aint *position)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Pack_external";
    rk_type_t *t;
    long long need;
    int kind, err = ext_args(datarep, type, incount, position, "position",
                             &t, &kind, f);

    if (err != MPI_SUCCESS)
        return err;
    need = ext_bytes(t, kind, incount);
    if (*position < 0 || *position + need > outsize)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_TRUNCATE, f,
                      "%lld bytes at position %ld do not fit %ld bytes", need,
                      (long)*position, (long)outsize);
    if (kind == EXT_SWAP) {
        char *out = (char *)outbuf + *position;
        rk_pack(inbuf, incount, t, out);
        ext_swap(out, t, incount);
    } else {
        size_t n = t->size * (size_t)incount / sizeof(long);
        long *tmp = malloc(n ? n * sizeof(long) : 1);
        unsigned char *out = (unsigned char *)outbuf + *position;
        if (tmp == NULL)
            return rk_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, f, "no memory");
        rk_pack(inbuf, incount, t, tmp);
        for (size_t i = 0; i < n; i++) {
            long v = tmp[i];
            unsigned long u = (unsigned long)v;
            if (kind == EXT_LONG ? (v < -2147483647L - 1 || v > 2147483647L)
                                 : u > 4294967295UL) {
                free(tmp);
                return rk_err(MPI_COMM_WORLD, MPI_ERR_CONVERSION, f,
                              "element %zu (%ld) does not fit external32's "
                              "4-byte long",
                              i, v);
            }
            out[4 * i] = (unsigned char)(u >> 24);
            out[4 * i + 1] = (unsigned char)(u >> 16);
            out[4 * i + 2] = (unsigned char)(u >> 8);
            out[4 * i + 3] = (unsigned char)u;
        }
        free(tmp);
    }
    *position += (MPI_Aint)need;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Pack_external);

int PMPI_Unpack_external(const char datarep[], const void *inbuf,
                         MPI_Aint insize, MPI_Aint *position, void *outbuf,
                         int outcount, MPI_Datatype type)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Unpack_external";
    rk_type_t *t;
    long long need;
    size_t n;
    char *tmp;
    int kind, err = ext_args(datarep, type, outcount, position, "position",
                             &t, &kind, f);

    if (err != MPI_SUCCESS)
        return err;
    need = ext_bytes(t, kind, outcount);
    if (*position < 0 || *position + need > insize)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_TRUNCATE, f,
                      "%lld bytes at position %ld: past the %ld-byte buffer",
                      need, (long)*position, (long)insize);
    n = t->size * (size_t)outcount;
    tmp = malloc(n ? n : 1);
    if (tmp == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, f, "no memory");
    if (kind == EXT_SWAP) {
        memcpy(tmp, (const char *)inbuf + *position, n);
        ext_swap(tmp, t, outcount);
    } else {
        const unsigned char *in = (const unsigned char *)inbuf + *position;
        long *l = (long *)(void *)tmp;
        for (size_t i = 0; i < n / sizeof(long); i++) {
            unsigned long u = (unsigned long)in[4 * i] << 24 |
                              (unsigned long)in[4 * i + 1] << 16 |
                              (unsigned long)in[4 * i + 2] << 8 |
                              (unsigned long)in[4 * i + 3];
            if (kind == EXT_LONG && (u & 0x80000000UL))
                l[i] = (long)u - 4294967296L; /* sign-extended */
            else
                l[i] = (long)u;
        }
    }
    rk_unpack(tmp, n, outcount, t, outbuf);
    free(tmp);
    *position += (MPI_Aint)need;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Unpack_external);

/* ---- decoding a datatype (MPI-3.1 4.1.13) ----
 * Every constructor records its arguments (type.c, type_sub.c). The
 * derived datatypes handed out are the very ones used, each with one more
 * handle the program frees with MPI_Type_free (a type the program had
 * freed comes back to life for it: the constructed type held it). */

int PMPI_Type_get_envelope(MPI_Datatype type, int *num_integers,
                           int *num_addresses, int *num_datatypes,
                           int *combiner)
{
    RK_MPI_GUARD;
    rk_type_t *t;
    int err = type_q(type,
                     num_integers && num_addresses && num_datatypes &&
                             combiner
                         ? combiner
                         : NULL,
                     &t, "MPI_Type_get_envelope");

    if (err != MPI_SUCCESS)
        return err;
    if (t->predefined) {
        *num_integers = *num_addresses = *num_datatypes = 0;
        *combiner = MPI_COMBINER_NAMED;
        return MPI_SUCCESS;
    }
    *num_integers = t->c_ni;
    *num_addresses = t->c_na;
    *num_datatypes = t->c_nt;
    *combiner = t->combiner;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Type_get_envelope);

int PMPI_Type_get_contents(MPI_Datatype type, int max_integers,
                           int max_addresses, int max_datatypes,
                           int array_of_integers[],
                           MPI_Aint array_of_addresses[],
                           MPI_Datatype array_of_datatypes[])
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Type_get_contents";
    rk_type_t *t;
    int err = type_q(type, f, &t, f); /* no output to check here */

    if (err != MPI_SUCCESS)
        return err;
    if (t->predefined)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_TYPE, f,
                      "datatype %d is predefined (MPI_COMBINER_NAMED)", type);
    if (max_integers < t->c_ni || max_addresses < t->c_na ||
        max_datatypes < t->c_nt)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, f,
                      "room for %d/%d/%d, the envelope says %d/%d/%d",
                      max_integers, max_addresses, max_datatypes, t->c_ni,
                      t->c_na, t->c_nt);
    if ((t->c_ni && array_of_integers == NULL) ||
        (t->c_na && array_of_addresses == NULL) ||
        (t->c_nt && array_of_datatypes == NULL))
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, f, "a NULL array");
    if (t->c_ni)
        memcpy(array_of_integers, t->c_ints, (size_t)t->c_ni * sizeof(int));
    if (t->c_na)
        memcpy(array_of_addresses, t->c_aints,
               (size_t)t->c_na * sizeof(MPI_Aint));
    for (int i = 0; i < t->c_nt; i++) {
        MPI_Datatype h = t->c_types[i];
        array_of_datatypes[i] = h;
        if (rk_type(h)->predefined)
            continue;
        rk_type_give(h); /* one more handle of it for the program */
    }
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Type_get_contents);
