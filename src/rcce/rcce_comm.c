/*
 * Communicators, the linear barrier, and the collectives of RCCE
 * (bcast, reduce, allreduce) over the non-gory send/recv.
 */
#include "rcce_internal.h"

#include <stdlib.h>
#include <string.h>

#define RCK_COMM_MAGIC 0x434f4d4d /* "COMM" */

/*
 * Every member array this file allocates is on the list below until
 * RCCE_comm_free frees it or RCCE_finalize frees what is left. A second
 * split gives a communicator a new array and leaves the old one on the
 * list: a program may have copied the communicator (Intel's RCCE_P_COMM is
 * a struct copy of RCCE_V_COMM), and the copy still points at it.
 */
static struct owned {
    int *members;
    struct owned *next;
} *owned;

static int *members_new(int size)
{
    int *m = malloc((size_t)size * sizeof(int));
    struct owned *o = malloc(sizeof(*o));

    if (m == NULL || o == NULL) {
        free(m);
        free(o);
        return NULL;
    }
    o->members = m;
    o->next = owned;
    owned = o;
    return m;
}

static void members_free(int *m)
{
    for (struct owned **p = &owned; *p != NULL; p = &(*p)->next) {
        if ((*p)->members == m) {
            struct owned *o = *p;

            *p = o->next;
            free(o);
            break;
        }
    }
    free(m);
}

void rcce_comm_fini(void)
{
    while (owned != NULL) {
        struct owned *o = owned;

        owned = o->next;
        /* RCCE_finalize frees the world's own array. */
        if (o->members != RCCE_COMM_WORLD.rck_members)
            free(o->members);
        free(o);
    }
}

static void members_set(RCCE_COMM *comm, int *m, const int *members,
                        int size, int me)
{
    comm->rck_members = m;
    memset(comm->member, 0, sizeof(comm->member));
    for (int i = 0; i < size; i++) {
        m[i] = members[i];
        if (i < RCCE_MAXNP)
            comm->member[i] = members[i];
        if (members[i] == me)
            comm->my_rank = i;
    }
    comm->size = size;
}

static int comm_make(RCCE_COMM *comm, const int *members, int size, int me)
{
    int st;
    int *m;

    memset(comm, 0, sizeof(*comm));
    m = members_new(size);
    if (m == NULL)
        return RCCE_ERROR_MALLOC;
    members_set(comm, m, members, size, me);
    /* Every UE allocates the flags of every new communicator, in the same
     * order, so their offsets agree in every MPB. */
    st = rcce_flag_alloc(&comm->gather);
    if (st == RCCE_SUCCESS)
        st = rcce_flag_alloc(&comm->release);
    if (st != RCCE_SUCCESS) {
        members_free(comm->rck_members);
        comm->rck_members = NULL;
        return rcce_error(RCCE_DEBUG_SYNCH, st, "RCCE_comm_split",
                          "no MPB space for the barrier flags");
    }
    comm->label = rcce.next_label++;
    comm->initialized = RCK_COMM_MAGIC;
    return RCCE_SUCCESS;
}

/* Replaces the membership of a valid communicator; its flags stay. */
static int comm_remember(RCCE_COMM *comm, const int *members, int size,
                         int me)
{
    int *m = members_new(size);

    if (m == NULL)
        return RCCE_ERROR_MALLOC;
    members_set(comm, m, members, size, me);
    return RCCE_SUCCESS;
}

int rcce_comm_init_world(void)
{
    int *m = malloc((size_t)rcce.nues * sizeof(int));
    int st;

    if (m == NULL)
        return RCCE_ERROR_MALLOC;
    for (int i = 0; i < rcce.nues; i++)
        m[i] = i;
    st = comm_make(&RCCE_COMM_WORLD, m, rcce.nues, rcce.ue);
    free(m);
    return st;
}

int rcce_comm_valid(const RCCE_COMM *comm)
{
    return comm != NULL && comm->initialized == RCK_COMM_MAGIC &&
           comm->rck_members != NULL && comm->size > 0 &&
           comm->label >= 0 && comm->label < rcce.next_label;
}

int RCCE_comm_split(int (*color)(int, void *), void *aux, RCCE_COMM *comm)
{
    int *m, n = 0, mine, st, resplit;

    if (!rcce_ready("RCCE_comm_split"))
        return RCCE_ERROR_COMM_UNDEFINED;
    if (comm == NULL || color == NULL)
        return RCCE_ERROR_COMM_UNDEFINED;
    /* A communicator this library initialised may be split again (Intel's
     * RCCE: "it is legal to overwrite an initialized communicator"; HPL
     * does, once per process grid): the membership is replaced and the
     * barrier flags, allocated on every UE at the same offsets, are kept. */
    resplit = rcce_comm_valid(comm);
    /* The new communicator may get the flag lines (or bits) of one freed
     * earlier, whose last barrier another group's master may still be
     * finishing (clearing a gather flag). A barrier over WORLD, which
     * every UE enters only after leaving its previous barriers, makes the
     * reuse safe. */
    st = RCCE_barrier(&RCCE_COMM_WORLD);
    if (st != RCCE_SUCCESS)
        return st;
    m = malloc((size_t)rcce.nues * sizeof(int));
    if (m == NULL)
        return RCCE_ERROR_MALLOC;
    /* As in RCCE, the colour function is evaluated locally for every UE;
     * it must give the same answers on every UE. */
    mine = color(rcce.ue, aux);
    for (int ue = 0; ue < rcce.nues; ue++) {
        if (color(ue, aux) == mine)
            m[n++] = ue;
    }
    st = resplit ? comm_remember(comm, m, n, rcce.ue)
                 : comm_make(comm, m, n, rcce.ue);
    free(m);
    return st;
}

int RCCE_comm_free(RCCE_COMM *comm)
{
    if (!rcce_comm_valid(comm))
        return RCCE_ERROR_COMM_UNDEFINED;
    rcce_flag_free(&comm->gather);
    rcce_flag_free(&comm->release);
    if (comm != &RCCE_COMM_WORLD) {
        members_free(comm->rck_members);
        comm->rck_members = NULL;
        comm->initialized = 0;
    }
    return RCCE_SUCCESS;
}

int RCCE_comm_size(RCCE_COMM comm, int *size)
{
    if (!rcce_comm_valid(&comm))
        return RCCE_ERROR_COMM_UNDEFINED;
    if (size == NULL)
        return RCCE_ERROR_VAL_UNDEFINED;
    *size = comm.size;
    return RCCE_SUCCESS;
}

int RCCE_comm_rank(RCCE_COMM comm, int *rank)
{
    if (!rcce_comm_valid(&comm))
        return RCCE_ERROR_COMM_UNDEFINED;
    if (rank == NULL)
        return RCCE_ERROR_VAL_UNDEFINED;
    *rank = comm.my_rank;
    return RCCE_SUCCESS;
}

/*
 * The linear barrier: every member sets its own gather flag (a local
 * write); member 0 waits for each in turn, clears it, then sets every
 * other member's release flag; each member clears its own release flag
 * before it leaves. Every flag is back to UNSET when the barrier ends, so
 * a communicator's flag lines can be freed and reused by a new one at any
 * time. (Sense reversal would save the clears, but a reused line would
 * then carry a stale sense into the new communicator.)
 */
int RCCE_barrier(RCCE_COMM *comm)
{
    int st = RCCE_SUCCESS;

    if (!rcce_ready("RCCE_barrier"))
        return RCCE_ERROR_COMM_UNDEFINED;
    if (!rcce_comm_valid(comm))
        return rcce_error(RCCE_DEBUG_SYNCH, RCCE_ERROR_COMM_UNDEFINED,
                          "RCCE_barrier", "invalid communicator");
    if (comm->size == 1)
        return RCCE_SUCCESS;
    rck_hal_set_context(rcce.hal, "RCCE_barrier", -1);
    if (comm->my_rank == 0) {
        for (int r = 1; r < comm->size && st == RCCE_SUCCESS; r++) {
            int ue = rcce_comm_member(comm, r);
            st = rcce_flag_wait(&comm->gather, RCCE_FLAG_SET, ue);
            if (st == RCCE_SUCCESS)
                st = rcce_flag_set(&comm->gather, RCCE_FLAG_UNSET, ue);
        }
        for (int r = 1; r < comm->size && st == RCCE_SUCCESS; r++)
            st = rcce_flag_set(&comm->release, RCCE_FLAG_SET,
                               rcce_comm_member(comm, r));
    } else {
        st = rcce_flag_set(&comm->gather, RCCE_FLAG_SET, rcce.ue);
        if (st == RCCE_SUCCESS)
            st = rcce_flag_wait(&comm->release, RCCE_FLAG_SET, rcce.ue);
        if (st == RCCE_SUCCESS)
            st = rcce_flag_set(&comm->release, RCCE_FLAG_UNSET, rcce.ue);
    }
    rck_hal_set_context(rcce.hal, NULL, -1);
    return st;
}

/* ---- collectives ---- */

static int coll_args(const char *call, const RCCE_COMM *comm, int root,
                     const void *buf, size_t bytes)
{
    if (!rcce_ready(call))
        return RCCE_ERROR_COMM_UNDEFINED;
    if (rcce.shape & RCK_RCCE_SHAPE_GORY)
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_ILLEGAL_OP, call,
                          "collectives need the library's buffers, which "
                          "the gory shape does not reserve");
    if (!rcce_comm_valid(comm))
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_COMM_UNDEFINED, call,
                          "invalid communicator");
    if (root < 0 || root >= comm->size)
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_ID, call,
                          "root %d is not a rank of the communicator", root);
    if (buf == NULL && bytes > 0)
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_TARGET, call,
                          "NULL buffer");
    return RCCE_SUCCESS;
}

static int bcast_impl(char *buf, size_t num, int root, const RCCE_COMM *comm)
{
    int st = RCCE_SUCCESS;

    if (comm->my_rank == root) {
        for (int r = 0; r < comm->size && st == RCCE_SUCCESS; r++) {
            if (r != root)
                st = RCCE_send(buf, num, rcce_comm_member(comm, r));
        }
    } else {
        st = RCCE_recv(buf, num, rcce_comm_member(comm, root));
    }
    return st;
}

int RCCE_bcast(char *buf, size_t num, int root, RCCE_COMM comm)
{
    int st = coll_args("RCCE_bcast", &comm, root, buf, num);

    if (st != RCCE_SUCCESS || comm.size == 1 || num == 0)
        return st;
    rcce.coll++;
    st = bcast_impl(buf, num, root, &comm);
    rcce.coll--;
    return st;
}

size_t rcce_type_size(int type)
{
    switch (type) {
    case RCCE_INT: return sizeof(int);
    case RCCE_LONG: return sizeof(long);
    case RCCE_FLOAT: return sizeof(float);
    case RCCE_DOUBLE: return sizeof(double);
    default: return 0;
    }
}

/* Integer sums and products wrap (computed unsigned, no undefined
 * overflow), so any order of combination gives the same bits. */
#define RCK_COMBINE_INT(T, U)                                                 \
    do {                                                                      \
        T *a = (T *)acc;                                                      \
        const T *b = (const T *)in;                                           \
        for (size_t i = 0; i < num; i++) {                                    \
            switch (op) {                                                     \
            case RCCE_SUM: a[i] = (T)((U)a[i] + (U)b[i]); break;              \
            case RCCE_PROD: a[i] = (T)((U)a[i] * (U)b[i]); break;             \
            case RCCE_MIN: a[i] = b[i] < a[i] ? b[i] : a[i]; break;           \
            default: a[i] = b[i] > a[i] ? b[i] : a[i]; break;                 \
            }                                                                 \
        }                                                                     \
    } while (0)

#define RCK_COMBINE_FLT(T)                                                    \
    do {                                                                      \
        T *a = (T *)acc;                                                      \
        const T *b = (const T *)in;                                           \
        for (size_t i = 0; i < num; i++) {                                    \
            switch (op) {                                                     \
            case RCCE_SUM: a[i] = a[i] + b[i]; break;                         \
            case RCCE_PROD: a[i] = a[i] * b[i]; break;                        \
            case RCCE_MIN: a[i] = b[i] < a[i] ? b[i] : a[i]; break;           \
            default: a[i] = b[i] > a[i] ? b[i] : a[i]; break;                 \
            }                                                                 \
        }                                                                     \
    } while (0)

void rcce_combine(void *acc, const void *in, size_t num, int type, int op)
{
    switch (type) {
    case RCCE_INT: RCK_COMBINE_INT(int, unsigned); break;
    case RCCE_LONG: RCK_COMBINE_INT(long, unsigned long); break;
    case RCCE_FLOAT: RCK_COMBINE_FLT(float); break;
    default: RCK_COMBINE_FLT(double); break;
    }
}

static int reduce_args(const char *call, const char *in, const char *out,
                       int num, int type, int op, int root,
                       const RCCE_COMM *comm, size_t *bytes)
{
    int st;

    if (num < 0)
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_MESSAGE_LENGTH, call,
                          "negative count %d", num);
    if (rcce_type_size(type) == 0)
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_ILLEGAL_TYPE, call,
                          "unknown type %d", type);
    if (op != RCCE_SUM && op != RCCE_MIN && op != RCCE_MAX && op != RCCE_PROD)
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_ILLEGAL_OP, call,
                          "unknown operator %d", op);
    *bytes = (size_t)num * rcce_type_size(type);
    st = coll_args(call, comm, root, in, *bytes);
    if (st == RCCE_SUCCESS && out == NULL && *bytes > 0 &&
        comm->my_rank == root)
        st = rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_TARGET, call,
                        "NULL output buffer");
    return st;
}

/* Reduce in rank order (rank 0 op rank 1 op ...), so the result is the
 * same whichever rank is the root. */
static int reduce_impl(const char *in, char *out, int num, int type, int op,
                       int root, const RCCE_COMM *comm, size_t bytes)
{
    char *acc, *tmp;
    int st = RCCE_SUCCESS;

    if (comm->my_rank != root)
        return RCCE_send((char *)in, bytes, rcce_comm_member(comm, root));
    acc = malloc(bytes ? bytes : 1);
    tmp = malloc(bytes ? bytes : 1);
    if (acc == NULL || tmp == NULL) {
        free(acc);
        free(tmp);
        return RCCE_ERROR_MALLOC;
    }
    for (int r = 0; r < comm->size && st == RCCE_SUCCESS; r++) {
        const char *src = in;
        if (r != root) {
            st = RCCE_recv(tmp, bytes, rcce_comm_member(comm, r));
            src = tmp;
        }
        if (r == 0)
            memcpy(acc, src, bytes);
        else
            rcce_combine(acc, src, (size_t)num, type, op);
    }
    if (st == RCCE_SUCCESS)
        memcpy(out, acc, bytes);
    free(acc);
    free(tmp);
    return st;
}

int RCCE_reduce(char *in, char *out, int num, int type, int op, int root,
                RCCE_COMM comm)
{
    size_t bytes = 0;
    int st = reduce_args("RCCE_reduce", in, out, num, type, op, root, &comm,
                         &bytes);

    if (st != RCCE_SUCCESS)
        return st;
    if (comm.size == 1) {
        memmove(out, in, bytes);
        return RCCE_SUCCESS;
    }
    rck_hal_set_context(rcce.hal, "RCCE_reduce", root);
    rcce.coll++;
    st = reduce_impl(in, out, num, type, op, root, &comm, bytes);
    rcce.coll--;
    rck_hal_set_context(rcce.hal, NULL, -1);
    return st;
}

int RCCE_allreduce(char *in, char *out, int num, int type, int op,
                   RCCE_COMM comm)
{
    size_t bytes = 0;
    int st = reduce_args("RCCE_allreduce", in, out, num, type, op, 0, &comm,
                         &bytes);

    if (st == RCCE_SUCCESS && out == NULL && bytes > 0)
        st = RCCE_ERROR_TARGET;
    if (st != RCCE_SUCCESS)
        return st;
    if (comm.size == 1) {
        memmove(out, in, bytes);
        return RCCE_SUCCESS;
    }
    rck_hal_set_context(rcce.hal, "RCCE_allreduce", -1);
    rcce.coll++;
    st = reduce_impl(in, out, num, type, op, 0, &comm, bytes);
    if (st == RCCE_SUCCESS && bytes > 0)
        st = bcast_impl(out, bytes, 0, &comm);
    rcce.coll--;
    rck_hal_set_context(rcce.hal, NULL, -1);
    return st;
}
