/*
 * Groups and communicators (docs/MPI.md, "Communicators"). A
 * communicator is a list of UEs and a pair of context ids (point-to-point,
 * collective). New communicators get their contexts by agreement over the
 * parent's collective context: rank 0 of the parent gathers every member's
 * (color, key) and its set of contexts in use, takes the lowest pair free
 * everywhere, and sends the result back; the communicators of one split
 * share it (their members are disjoint).
 *
 * Owns: creating, splitting, duplicating and freeing communicators and
 * groups, the agreement on contexts. The table itself and its lookups
 * (rk_comm, rk_group, MPI_Comm_size/rank) are in comm_tab.c, below
 * everything, so that a file that only looks a communicator up does not
 * depend on this one. May call: the table, the error path, the
 * requests (the agreement's messages), attributes, info, topologies.
 */
#include "rckmpi.h"

#include <stdlib.h>
#include <string.h>

#define NCTXW RK_NCTXW             /* words of the bitmap of context pairs */


void rk_comm_hold(MPI_Comm h)
{
    rk_comm_t *c = rk_comm_any(h);
    if (c != NULL)
        c->refs++;
}

void rk_comm_drop(MPI_Comm h)
{
    rk_comm_t *c = rk_comm_any(h);
    if (c != NULL && --c->refs == 0 && c->freed)
        rk_comm_release(h);
}

static void ctx_mark(uint32_t ctx, int on)
{
    uint32_t pair = ctx / 2;
    if (on)
        rk_cm.used[pair / 32] |= 1u << (pair % 32);
    else
        rk_cm.used[pair / 32] &= ~(1u << (pair % 32));
}

void rk_ctx_used(uint32_t *out)
{
    memcpy(out, rk_cm.used, sizeof rk_cm.used);
}

uint32_t rk_ctx_pick(const uint32_t *used)
{
    for (uint32_t pair = 2; pair < NCTXW * 32; pair++)
        if (!(used[pair / 32] & (1u << (pair % 32))))
            return 2 * pair;
    return 0;
}

/* A new communicator of @p n UEs; @p me my rank in it. */
static MPI_Comm comm_new(const int *ue, int n, int me, uint32_t ctx)
{
    return rk_comm_new(ue, n, me, ctx, NULL, 0);
}

MPI_Comm rk_comm_new(const int *ue, int n, int me, uint32_t ctx,
                     const int *peer, int psize)
{
    int h;
    rk_comm_t *c;

    for (h = 1; h < rk_cm.nc; h++)
        if (!rk_cm.c[h].used)
            break;
    if (h == rk_cm.nc) {
        rk_comm_t *nc = realloc(rk_cm.c, (size_t)(rk_cm.nc + 8) * sizeof(*nc));
        if (nc == NULL)
            return MPI_COMM_NULL;
        memset(nc + rk_cm.nc, 0, 8 * sizeof(*nc));
        rk_cm.c = nc;
        rk_cm.nc += 8;
    }
    c = &rk_cm.c[h];
    memset(c, 0, sizeof *c);
    c->ue = malloc((size_t)(n ? n : 1) * sizeof(int));
    c->rank_of = malloc((size_t)rk.nues * sizeof(int));
    if (c->ue == NULL || c->rank_of == NULL) {
        free(c->ue);
        free(c->rank_of);
        return MPI_COMM_NULL;
    }
    memcpy(c->ue, ue, (size_t)n * sizeof(int));
    c->peer = c->ue;
    c->psize = n;
    if (peer != NULL) {
        c->peer = malloc((size_t)(psize ? psize : 1) * sizeof(int));
        if (c->peer == NULL) {
            free(c->ue);
            free(c->rank_of);
            return MPI_COMM_NULL;
        }
        memcpy(c->peer, peer, (size_t)psize * sizeof(int));
        c->psize = psize;
        c->inter = 1;
    }
    for (int u = 0; u < rk.nues; u++)
        c->rank_of[u] = -1;
    for (int i = 0; i < c->psize; i++)
        c->rank_of[c->peer[i]] = i;
    c->used = 1;
    c->size = n;
    c->rank = me;
    c->ctx = ctx;
    c->eh = MPI_ERRORS_ARE_FATAL;
    ctx_mark(ctx, 1);
    return h;
}

static MPI_Group group_new(const int *ue, int n)
{
    int h;
    rk_group_t *g;

    for (h = 2; h < rk_cm.ng; h++)
        if (!rk_cm.g[h].used)
            break;
    if (h == rk_cm.ng) {
        rk_group_t *ng = realloc(rk_cm.g, (size_t)(rk_cm.ng + 8) * sizeof(*ng));
        if (ng == NULL)
            return MPI_GROUP_NULL;
        memset(ng + rk_cm.ng, 0, 8 * sizeof(*ng));
        rk_cm.g = ng;
        rk_cm.ng += 8;
    }
    g = &rk_cm.g[h];
    g->ue = malloc((size_t)(n ? n : 1) * sizeof(int));
    if (g->ue == NULL)
        return MPI_GROUP_NULL;
    memcpy(g->ue, ue, (size_t)n * sizeof(int));
    g->size = n;
    g->used = 1;
    g->refs = 1;
    return h;
}

int rk_comms_init(void)
{
    /* the world: the UEs this process was started with (all of the job's
     * unless it has dormant UEs or this process was spawned) */
    const rck_hal_t *hal = rk.hal;
    int n = hal->world_size, me = 0;
    int *all = malloc((size_t)n * sizeof(int));

    if (all == NULL)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < n; i++) {
        all[i] = hal->world[i];
        if (all[i] == rk.ue)
            me = i;
    }
    rk_cm.nc = 3;
    rk_cm.c = calloc(3, sizeof(rk_comm_t));
    rk_cm.ng = 2;
    rk_cm.g = calloc(2, sizeof(rk_group_t));
    if (rk_cm.c == NULL || rk_cm.g == NULL) {
        free(all);
        return MPI_ERR_NO_MEM;
    }
    rk_cm.g[MPI_GROUP_EMPTY].used = 1; /* size 0 */
    /* handles 1 and 2: the first two free slots */
    if (comm_new(all, n, me, 0) != MPI_COMM_WORLD ||
        comm_new(&rk.ue, 1, 0, 2) != MPI_COMM_SELF) {
        free(all);
        return MPI_ERR_NO_MEM;
    }
    strcpy(rk_cm.c[MPI_COMM_WORLD].name, "MPI_COMM_WORLD");
    strcpy(rk_cm.c[MPI_COMM_SELF].name, "MPI_COMM_SELF");
    free(all);
    return MPI_SUCCESS;
}

void rk_comms_finalize(void)
{
    for (int h = 0; h < rk_cm.nc; h++) {
        rk_topo_free(rk_cm.c[h].topo);
        rk_attr_drop(rk_cm.c[h].attrs);
        if (rk_cm.c[h].peer != rk_cm.c[h].ue)
            free(rk_cm.c[h].peer);
        free(rk_cm.c[h].ue);
        free(rk_cm.c[h].rank_of);
    }
    for (int h = 0; h < rk_cm.ng; h++)
        free(rk_cm.g[h].ue);
    free(rk_cm.c);
    free(rk_cm.g);
    memset(&rk_cm, 0, sizeof rk_cm);
}

/* ---- agreement ---- */

/* The agreement among @p n members of @p parent (their parent ranks in
 * @p mem, NULL: all of them, @p me my index among them), with tag @p tag
 * on the parent's collective context: every member's (color, key) into
 * @p ck (2 per member, then the context) and a context pair free at every
 * member into @p ctx. */
static int agree(MPI_Comm parent, const int *mem, int n, int me, int tag,
                 int color, int key, int *ck, uint32_t *ctx)
{
    int len = 2 + NCTXW, err = MPI_SUCCESS;
    int *msg = malloc((size_t)len * sizeof(int));
    uint32_t used[NCTXW];

#define MEMBER(i) (mem != NULL ? mem[i] : (i))
    if (msg == NULL)
        return MPI_ERR_NO_MEM;
    rk_cm.agreeing++; /* MPI_Comm_idup reserves nothing meanwhile */
    msg[0] = color;
    msg[1] = key;
    memcpy(msg + 2, rk_cm.used, sizeof rk_cm.used);
    if (me != 0) {
        err = rckmpi_coll_send(msg, len, MPI_INT, MEMBER(0), tag, parent);
        if (err == MPI_SUCCESS)
            err = rckmpi_coll_recv(ck, 2 * n + 1, MPI_INT, MEMBER(0), tag,
                                   parent, MPI_STATUS_IGNORE);
        free(msg);
        *ctx = (uint32_t)ck[2 * n];
        rk_cm.agreeing--;
        return err;
    }
    memcpy(used, rk_cm.used, sizeof used);
    ck[0] = color;
    ck[1] = key;
    for (int r = 1; r < n && err == MPI_SUCCESS; r++) {
        err = rckmpi_coll_recv(msg, len, MPI_INT, MEMBER(r), tag, parent,
                               MPI_STATUS_IGNORE);
        ck[2 * r] = msg[0];
        ck[2 * r + 1] = msg[1];
        for (int w = 0; w < NCTXW; w++)
            used[w] |= (uint32_t)msg[2 + w];
    }
    free(msg);
    *ctx = rk_ctx_pick(used);
    if (*ctx == 0)
        err = MPI_ERR_INTERN; /* every context in use: the ones sent carry 0 */
    ck[2 * n] = (int)*ctx;
    for (int r = 1; r < n; r++) {
        int e = rckmpi_coll_send(ck, 2 * n + 1, MPI_INT, MEMBER(r), tag,
                                 parent);
        if (err == MPI_SUCCESS)
            err = e;
    }
#undef MEMBER
    rk_cm.agreeing--;
    return err;
}

/* Build my communicator from the agreed (color, key) of every member. */
static int split_build(const int *pue, int size, int mine, const int *ck,
                       uint32_t ctx, MPI_Comm *out)
{
    int mycolor = ck[2 * mine], n = 0, me = -1;
    int *idx, *ue;

    *out = MPI_COMM_NULL;
    if (mycolor == MPI_UNDEFINED)
        return MPI_SUCCESS;
    idx = malloc((size_t)size * sizeof(int));
    ue = malloc((size_t)size * sizeof(int));
    if (idx == NULL || ue == NULL) {
        free(idx);
        free(ue);
        return MPI_ERR_NO_MEM;
    }
    for (int r = 0; r < size; r++) {
        if (ck[2 * r] != mycolor)
            continue;
        /* insertion by (key, parent rank) */
        int i = n++;
        while (i > 0 && ck[2 * idx[i - 1] + 1] > ck[2 * r + 1]) {
            idx[i] = idx[i - 1];
            i--;
        }
        idx[i] = r;
    }
    for (int i = 0; i < n; i++) {
        ue[i] = pue[idx[i]];
        if (idx[i] == mine)
            me = i;
    }
    *out = comm_new(ue, n, me, ctx);
    free(idx);
    free(ue);
    return *out == MPI_COMM_NULL ? MPI_ERR_NO_MEM : MPI_SUCCESS;
}

static int split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm,
                 const char *func)
{
    rk_comm_t *p;
    int *ck, err = rk_comm_arg(comm, &p, func);
    uint32_t ctx;
    MPI_Errhandler eh;

    if (err != MPI_SUCCESS)
        return err;
    if (p->inter)
        return rk_err(comm, MPI_ERR_COMM, func,
                      "not implemented on an intercommunicator (docs/MPI.md)");
    if (newcomm == NULL)
        return rk_err(comm, MPI_ERR_ARG, func, "newcomm is NULL");
    if (color < 0 && color != MPI_UNDEFINED)
        return rk_err(comm, MPI_ERR_ARG, func, "negative color %d", color);
    eh = p->eh;
    ck = malloc((2 * (size_t)p->size + 1) * sizeof(int));
    if (ck == NULL)
        return rk_err(comm, MPI_ERR_NO_MEM, func, "no memory");
    err = agree(comm, NULL, p->size, p->rank, RK_TAG_COMM, color, key, ck,
                &ctx);
    p = rk_comm(comm); /* the table may have moved */
    if (err == MPI_SUCCESS)
        err = split_build(p->ue, p->size, p->rank, ck, ctx, newcomm);
    free(ck);
    if (err != MPI_SUCCESS)
        return rk_err(comm, err, func, "no communicator made");
    if (*newcomm != MPI_COMM_NULL)
        rk_comm(*newcomm)->eh = eh;
    return MPI_SUCCESS;
}

int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    RK_MPI_GUARD;
    return split(comm, color, key, newcomm, "MPI_Comm_split");
}
RK_MPI_ALIAS(Comm_split);

/* Every process of a job is on one chip: MPI_COMM_TYPE_SHARED groups them
 * all. */
int PMPI_Comm_split_type(MPI_Comm comm, int split_type, int key,
                         MPI_Info info, MPI_Comm *newcomm)
{
    RK_MPI_GUARD;
    (void)info;
    if (split_type != MPI_COMM_TYPE_SHARED && split_type != MPI_UNDEFINED)
        return rk_err(comm, MPI_ERR_ARG, "MPI_Comm_split_type",
                      "split type %d (only MPI_COMM_TYPE_SHARED)", split_type);
    return split(comm, split_type == MPI_UNDEFINED ? MPI_UNDEFINED : 0, key,
                 newcomm, "MPI_Comm_split_type");
}
RK_MPI_ALIAS(Comm_split_type);

int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    RK_MPI_GUARD;
    rk_comm_t *c;
    int err = rk_comm_arg(comm, &c, "MPI_Comm_dup");

    if (err != MPI_SUCCESS)
        return err;
    err = split(comm, 0, c->rank, newcomm, "MPI_Comm_dup");
    if (err != MPI_SUCCESS)
        return err;
    return rk_comm_dup_tail(comm, newcomm);
}
RK_MPI_ALIAS(Comm_dup);

/* what goes with a duplicate: the topology, the attributes (topo.c,
 * attr.c) and the hints; on failure the new communicator is released */
int rk_comm_dup_tail(MPI_Comm comm, MPI_Comm *newcomm)
{
    rk_comm_t *c;
    int err;

    c = rk_comm(comm);
    if (c->topo != NULL) {
        rk_comm(*newcomm)->topo = rk_topo_dup(c->topo);
        if (rk_comm(*newcomm)->topo == NULL) {
            rk_comm_release(*newcomm);
            *newcomm = MPI_COMM_NULL;
            return rk_err(comm, MPI_ERR_NO_MEM, "MPI_Comm_dup",
                          "no memory for the topology");
        }
    }
    err = rk_attr_dup(comm, *newcomm);
    if (err != MPI_SUCCESS) {
        rk_comm_release(*newcomm);
        *newcomm = MPI_COMM_NULL;
        return rk_err(comm, err, "MPI_Comm_dup",
                      "an attribute's copy function failed");
    }
    /* the hints too (MPI-3.1 6.4.2) */
    if (rk_comm(comm)->info != MPI_INFO_NULL &&
        PMPI_Info_dup(rk_comm(comm)->info, &rk_comm(*newcomm)->info) !=
            MPI_SUCCESS) {
        rk_comm_release(*newcomm);
        *newcomm = MPI_COMM_NULL;
        return rk_err(comm, MPI_ERR_NO_MEM, "MPI_Comm_dup",
                      "no memory for the hints");
    }
    return MPI_SUCCESS;
}

int PMPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    RK_MPI_GUARD;
    rk_comm_t *c;
    rk_group_t *g;
    int err = rk_comm_arg(comm, &c, "MPI_Comm_create"), pos = -1;

    if (err != MPI_SUCCESS)
        return err;
    if (c->inter)
        return rk_err(comm, MPI_ERR_COMM, "MPI_Comm_create",
                      "not implemented on an intercommunicator (docs/MPI.md)");
    g = rk_group(group);
    if (g == NULL)
        return rk_err(comm, MPI_ERR_GROUP, "MPI_Comm_create",
                      "invalid group %d", group);
    for (int i = 0; i < g->size; i++) {
        if (c->rank_of[g->ue[i]] < 0)
            return rk_err(comm, MPI_ERR_GROUP, "MPI_Comm_create",
                          "the group holds a process outside the "
                          "communicator");
        if (g->ue[i] == rk.ue)
            pos = i;
    }
    return split(comm, pos < 0 ? MPI_UNDEFINED : 0, pos, newcomm,
                 "MPI_Comm_create");
}
RK_MPI_ALIAS(Comm_create);

/* Collective over the group's members only: the agreement runs among
 * them (tag-separated on the parent's collective context). */
int PMPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag,
                           MPI_Comm *newcomm)
{
    RK_MPI_GUARD;
    rk_comm_t *c;
    rk_group_t *g;
    int err = rk_comm_arg(comm, &c, "MPI_Comm_create_group"), me = -1;
    int *mem, *ck;
    uint32_t ctx;
    MPI_Errhandler eh;

    if (err != MPI_SUCCESS)
        return err;
    if (c->inter)
        return rk_err(comm, MPI_ERR_COMM, "MPI_Comm_create_group",
                      "not implemented on an intercommunicator (docs/MPI.md)");
    g = rk_group(group);
    if (g == NULL)
        return rk_err(comm, MPI_ERR_GROUP, "MPI_Comm_create_group",
                      "invalid group %d", group);
    if (tag < 0 || tag > RK_TAG_UB)
        return rk_err(comm, MPI_ERR_TAG, "MPI_Comm_create_group",
                      "tag %d outside 0..MPI_TAG_UB", tag);
    mem = malloc(((size_t)g->size + 1) * sizeof(int));
    ck = malloc((2 * (size_t)g->size + 1) * sizeof(int));
    if (mem == NULL || ck == NULL) {
        free(mem);
        free(ck);
        return rk_err(comm, MPI_ERR_NO_MEM, "MPI_Comm_create_group",
                      "no memory");
    }
    for (int i = 0; i < g->size; i++) {
        mem[i] = c->rank_of[g->ue[i]];
        if (g->ue[i] == rk.ue)
            me = i;
        if (mem[i] < 0)
            err = MPI_ERR_GROUP;
    }
    *newcomm = MPI_COMM_NULL;
    eh = c->eh;
    if (err == MPI_SUCCESS && me >= 0) {
        /* the library's agreement tags sit above MPI_TAG_UB */
        err = agree(comm, mem, g->size, me, RK_TAG_GROUP + tag % 0x3fffe000,
                    0, me, ck, &ctx);
        if (err == MPI_SUCCESS)
            err = split_build(g->ue, g->size, me, ck, ctx, newcomm);
    }
    free(mem);
    free(ck);
    if (err != MPI_SUCCESS)
        return rk_err(comm, err, "MPI_Comm_create_group",
                      err == MPI_ERR_GROUP ? "the group holds a process "
                                             "outside the communicator"
                                           : "no communicator made");
    if (*newcomm != MPI_COMM_NULL)
        rk_comm(*newcomm)->eh = eh;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Comm_create_group);

int PMPI_Comm_free(MPI_Comm *comm)
{
    RK_MPI_GUARD;
    rk_comm_t *c;
    int err = rk_comm_arg(comm ? *comm : MPI_COMM_NULL, &c, "MPI_Comm_free");

    if (err != MPI_SUCCESS)
        return err;
    if (*comm == MPI_COMM_WORLD || *comm == MPI_COMM_SELF)
        return rk_err(*comm, MPI_ERR_COMM, "MPI_Comm_free",
                      "MPI_COMM_WORLD and MPI_COMM_SELF cannot be freed");
    err = rk_attr_delete_all(*comm);
    if (err != MPI_SUCCESS)
        return rk_err(*comm, err, "MPI_Comm_free",
                      "an attribute's delete function failed");
    c = rk_comm(*comm);
    /* requests still using it (pending receives) keep it until they are
     * released */
    if (c->refs > 0)
        c->freed = 1;
    else
        rk_comm_release(*comm);
    *comm = MPI_COMM_NULL;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Comm_free);

void rk_comm_release(MPI_Comm h)
{
    rk_comm_t *c = rk_comm_any(h);
    MPI_Comm local = c->local;

    if (!c->inter || local == MPI_COMM_NULL)
        ctx_mark(c->ctx, 0); /* an intercomm's hidden twin holds its mark */
    rk_attr_delete_all(h);
    c = rk_comm_any(h);
    rk_topo_free(c->topo);
    if (c->info != MPI_INFO_NULL)
        PMPI_Info_free(&c->info);
    if (c->peer != c->ue)
        free(c->peer);
    free(c->ue);
    free(c->rank_of);
    memset(c, 0, sizeof *c);
    if (local != MPI_COMM_NULL)
        rk_comm_release(local);
}

int PMPI_Comm_test_inter(MPI_Comm comm, int *flag)
{
    RK_MPI_GUARD;
    rk_comm_t *c;
    int err = rk_comm_arg(comm, &c, "MPI_Comm_test_inter");

    if (err == MPI_SUCCESS)
        *flag = c->inter;
    return err;
}
RK_MPI_ALIAS(Comm_test_inter);

int PMPI_Comm_set_name(MPI_Comm comm, const char *name)
{
    RK_MPI_GUARD;
    rk_comm_t *c;
    int err = rk_comm_arg(comm, &c, "MPI_Comm_set_name");

    if (err == MPI_SUCCESS)
        snprintf(c->name, sizeof c->name, "%s", name);
    return err;
}
RK_MPI_ALIAS(Comm_set_name);

int PMPI_Comm_get_name(MPI_Comm comm, char *name, int *resultlen)
{
    RK_MPI_GUARD;
    rk_comm_t *c;
    int err = rk_comm_arg(comm, &c, "MPI_Comm_get_name");

    if (err == MPI_SUCCESS) {
        strcpy(name, c->name);
        *resultlen = (int)strlen(name);
    }
    return err;
}
RK_MPI_ALIAS(Comm_get_name);

/* IDENT, SIMILAR (same members) or UNEQUAL for two UE lists */
static int members_compare(const int *a, int na, const int *b, int nb)
{
    int same_order = 1;

    if (na != nb)
        return MPI_UNEQUAL;
    for (int i = 0; i < na; i++) {
        int found = 0;
        if (a[i] != b[i])
            same_order = 0;
        for (int j = 0; j < nb && !found; j++)
            found = a[i] == b[j];
        if (!found)
            return MPI_UNEQUAL;
    }
    return same_order ? MPI_IDENT : MPI_SIMILAR;
}

int PMPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result)
{
    RK_MPI_GUARD;
    rk_comm_t *a, *b;
    int err = rk_comm_arg(comm1, &a, "MPI_Comm_compare");

    if (err == MPI_SUCCESS)
        err = rk_comm_arg(comm2, &b, "MPI_Comm_compare");
    if (err != MPI_SUCCESS)
        return err;
    if (comm1 == comm2) {
        *result = MPI_IDENT;
        return MPI_SUCCESS;
    }
    if (a->inter || b->inter) {
        /* intercommunicators: the same two groups or not */
        *result = a->inter && b->inter &&
                          members_compare(a->ue, a->size, b->ue, b->size) ==
                              MPI_IDENT &&
                          members_compare(a->peer, a->psize, b->peer,
                                          b->psize) == MPI_IDENT
                      ? MPI_CONGRUENT
                      : MPI_UNEQUAL;
        return MPI_SUCCESS;
    }
    *result = members_compare(a->ue, a->size, b->ue, b->size);
    if (*result == MPI_IDENT)
        *result = MPI_CONGRUENT;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Comm_compare);

int rk_group_of(const int *ue, int n, MPI_Group *group, const char *func)
{
    *group = group_new(ue, n);
    return *group == MPI_GROUP_NULL
               ? rk_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, func, "no memory")
               : MPI_SUCCESS;
}

int PMPI_Comm_group(MPI_Comm comm, MPI_Group *group)
{
    RK_MPI_GUARD;
    rk_comm_t *c;
    int err = rk_comm_arg(comm, &c, "MPI_Comm_group");

    if (err != MPI_SUCCESS)
        return err;
    return rk_group_of(c->ue, c->size, group, "MPI_Comm_group");
}
RK_MPI_ALIAS(Comm_group);

/* ---- groups ---- */

static int group_arg(MPI_Group h, rk_group_t **g, const char *func)
{
    int err = rk_check_init(func);

    if (err != MPI_SUCCESS)
        return err;
    *g = rk_group(h);
    if (*g == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_GROUP, func, "invalid group %d",
                      h);
    return MPI_SUCCESS;
}

static int group_out(MPI_Group *out, const int *ue, int n, const char *func)
{
    *out = n == 0 ? MPI_GROUP_EMPTY : group_new(ue, n);
    return *out == MPI_GROUP_NULL
               ? rk_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, func, "no memory")
               : MPI_SUCCESS;
}

int PMPI_Group_size(MPI_Group group, int *size)
{
    RK_MPI_GUARD;
    rk_group_t *g;
    int err = group_arg(group, &g, "MPI_Group_size");

    if (err == MPI_SUCCESS)
        *size = g->size;
    return err;
}
RK_MPI_ALIAS(Group_size);

static int rank_in(const rk_group_t *g, int ue)
{
    for (int i = 0; i < g->size; i++)
        if (g->ue[i] == ue)
            return i;
    return MPI_UNDEFINED;
}

int PMPI_Group_rank(MPI_Group group, int *rank)
{
    RK_MPI_GUARD;
    rk_group_t *g;
    int err = group_arg(group, &g, "MPI_Group_rank");

    if (err == MPI_SUCCESS)
        *rank = rank_in(g, rk.ue);
    return err;
}
RK_MPI_ALIAS(Group_rank);

int PMPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[],
                               MPI_Group group2, int ranks2[])
{
    RK_MPI_GUARD;
    rk_group_t *a, *b;
    int err = group_arg(group1, &a, "MPI_Group_translate_ranks");

    if (err == MPI_SUCCESS)
        err = group_arg(group2, &b, "MPI_Group_translate_ranks");
    if (err != MPI_SUCCESS)
        return err;
    for (int i = 0; i < n; i++) {
        if (ranks1[i] == MPI_PROC_NULL) {
            ranks2[i] = MPI_PROC_NULL;
            continue;
        }
        if (ranks1[i] < 0 || ranks1[i] >= a->size)
            return rk_err(MPI_COMM_WORLD, MPI_ERR_RANK,
                          "MPI_Group_translate_ranks",
                          "rank %d is not in the group (size %d)", ranks1[i],
                          a->size);
        ranks2[i] = rank_in(b, a->ue[ranks1[i]]);
    }
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Group_translate_ranks);

int PMPI_Group_compare(MPI_Group group1, MPI_Group group2, int *result)
{
    RK_MPI_GUARD;
    rk_group_t *a, *b;
    int err = group_arg(group1, &a, "MPI_Group_compare");

    if (err == MPI_SUCCESS)
        err = group_arg(group2, &b, "MPI_Group_compare");
    if (err == MPI_SUCCESS)
        *result = members_compare(a->ue, a->size, b->ue, b->size);
    return err;
}
RK_MPI_ALIAS(Group_compare);

/* op 0 union, 1 intersection, 2 difference */
static int group_setop(MPI_Group g1, MPI_Group g2, MPI_Group *out, int op,
                       const char *func)
{
    rk_group_t *a, *b;
    int *ue, n = 0, err = group_arg(g1, &a, func);

    if (err == MPI_SUCCESS)
        err = group_arg(g2, &b, func);
    if (err != MPI_SUCCESS)
        return err;
    ue = malloc((size_t)(a->size + b->size + 1) * sizeof(int));
    if (ue == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, func, "no memory");
    for (int i = 0; i < a->size; i++) {
        int inb = rank_in(b, a->ue[i]) != MPI_UNDEFINED;
        if (op == 0 || (op == 1 && inb) || (op == 2 && !inb))
            ue[n++] = a->ue[i];
    }
    for (int i = 0; op == 0 && i < b->size; i++)
        if (rank_in(a, b->ue[i]) == MPI_UNDEFINED)
            ue[n++] = b->ue[i];
    err = group_out(out, ue, n, func);
    free(ue);
    return err;
}

int PMPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    RK_MPI_GUARD;
    return group_setop(group1, group2, newgroup, 0, "MPI_Group_union");
}
RK_MPI_ALIAS(Group_union);

int PMPI_Group_intersection(MPI_Group group1, MPI_Group group2,
                            MPI_Group *newgroup)
{
    RK_MPI_GUARD;
    return group_setop(group1, group2, newgroup, 1, "MPI_Group_intersection");
}
RK_MPI_ALIAS(Group_intersection);

int PMPI_Group_difference(MPI_Group group1, MPI_Group group2,
                          MPI_Group *newgroup)
{
    RK_MPI_GUARD;
    return group_setop(group1, group2, newgroup, 2, "MPI_Group_difference");
}
RK_MPI_ALIAS(Group_difference);

/* the members of @p g at @p n ranks (incl) or all but them (excl) */
static int group_pick(MPI_Group group, int n, const int ranks[], int excl,
                      MPI_Group *out, const char *func)
{
    rk_group_t *g;
    int *ue, *pick, m = 0, err = group_arg(group, &g, func);

    if (err != MPI_SUCCESS)
        return err;
    if (n < 0 || n > g->size)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, func, "bad count %d", n);
    pick = calloc((size_t)g->size + 1, sizeof(int));
    ue = malloc(((size_t)g->size + 1) * sizeof(int));
    if (pick == NULL || ue == NULL) {
        free(pick);
        free(ue);
        return rk_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, func, "no memory");
    }
    for (int i = 0; i < n; i++) {
        if (ranks[i] < 0 || ranks[i] >= g->size || pick[ranks[i]]) {
            free(pick);
            free(ue);
            return rk_err(MPI_COMM_WORLD, MPI_ERR_RANK, func,
                          "rank %d is invalid or repeated (group size %d)",
                          ranks[i], g->size);
        }
        pick[ranks[i]] = 1;
        if (!excl)
            ue[m++] = g->ue[ranks[i]];
    }
    for (int i = 0; excl && i < g->size; i++)
        if (!pick[i])
            ue[m++] = g->ue[i];
    err = group_out(out, ue, m, func);
    free(pick);
    free(ue);
    return err;
}

int PMPI_Group_incl(MPI_Group group, int n, const int ranks[],
                    MPI_Group *newgroup)
{
    RK_MPI_GUARD;
    return group_pick(group, n, ranks, 0, newgroup, "MPI_Group_incl");
}
RK_MPI_ALIAS(Group_incl);

int PMPI_Group_excl(MPI_Group group, int n, const int ranks[],
                    MPI_Group *newgroup)
{
    RK_MPI_GUARD;
    return group_pick(group, n, ranks, 1, newgroup, "MPI_Group_excl");
}
RK_MPI_ALIAS(Group_excl);

/* expand (first, last, stride) triplets into ranks */
static int ranges(MPI_Group group, int n, int r[][3], int excl,
                  MPI_Group *out, const char *func)
{
    rk_group_t *g;
    int *ranks, m = 0, err = group_arg(group, &g, func);

    if (err != MPI_SUCCESS)
        return err;
    ranks = malloc(((size_t)g->size + 1) * sizeof(int));
    if (ranks == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, func, "no memory");
    for (int i = 0; i < n; i++) {
        int first = r[i][0], last = r[i][1], stride = r[i][2];
        if (stride == 0 || (last - first) / stride < 0) {
            free(ranks);
            return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, func,
                          "bad range (%d, %d, %d)", first, last, stride);
        }
        for (int k = first; stride > 0 ? k <= last : k >= last; k += stride) {
            if (m == g->size) {
                free(ranks);
                return rk_err(MPI_COMM_WORLD, MPI_ERR_RANK, func,
                              "the ranges name more ranks than the group "
                              "holds");
            }
            ranks[m++] = k;
        }
    }
    err = group_pick(group, m, ranks, excl, out, func);
    free(ranks);
    return err;
}

int PMPI_Group_range_incl(MPI_Group group, int n, int r[][3],
                          MPI_Group *newgroup)
{
    RK_MPI_GUARD;
    return ranges(group, n, r, 0, newgroup, "MPI_Group_range_incl");
}
RK_MPI_ALIAS(Group_range_incl);

int PMPI_Group_range_excl(MPI_Group group, int n, int r[][3],
                          MPI_Group *newgroup)
{
    RK_MPI_GUARD;
    return ranges(group, n, r, 1, newgroup, "MPI_Group_range_excl");
}
RK_MPI_ALIAS(Group_range_excl);

int PMPI_Group_free(MPI_Group *group)
{
    RK_MPI_GUARD;
    rk_group_t *g;
    int err = group_arg(group ? *group : MPI_GROUP_NULL, &g, "MPI_Group_free");

    if (err != MPI_SUCCESS)
        return err;
    if (*group != MPI_GROUP_EMPTY) {
        free(g->ue);
        memset(g, 0, sizeof *g);
    }
    *group = MPI_GROUP_NULL;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Group_free);

/* MPI_Comm_idup (comm_idup.c): reserve or release a context pair; is a
 * blocking agreement under way here */
void rk_ctx_reserve(uint32_t ctx, int on)
{
    ctx_mark(ctx, on);
}

int rk_ctx_agreeing(void)
{
    return rk_cm.agreeing;
}
