/*
 * Dynamic processes (docs/MPI.md, "Dynamic processes"), as RCKMPI had
 * them: MPI_Comm_spawn starts a program on idle cores of the chip, the
 * job's dormant UEs (`rck run -n N --universe U`), through rck_hal_spawn;
 * MPI_Comm_get_parent gives the children their intercommunicator;
 * MPI_Intercomm_merge (intercomm.c) works on it.
 *
 * The parents agree on two free context pairs (one for the user's
 * intercommunicator, one for a hidden twin that MPI_Finalize exchanges
 * over, so that parents and children stay connected until both finalize
 * even if the program frees its handle). The spawning root hands them to
 * the children in RCK_MPI_PARENT ("ctx,ctx2,root:ue,ue,..."), the
 * parents' UEs in rank order. Spawning returns once every child is in
 * MPI_Init: the children gather at their rank 0, which tells the root.
 */
#include "rckmpi.h"

#include "rckmpi_coll.h"
#include "rck/exec.h"
#include "rck/spawn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PARENT_VAR "RCK_MPI_PARENT"

static struct {
    MPI_Comm parent;     /* MPI_Comm_get_parent's, or MPI_COMM_NULL */
    MPI_Comm *fin;       /* hidden twins of every spawn connection */
    int nfin;
    char msg[512];       /* the root's reason for a failed spawn */
} sp = {MPI_COMM_NULL, NULL, 0, ""};

static int fin_add(MPI_Comm c)
{
    MPI_Comm *f = realloc(sp.fin, (size_t)(sp.nfin + 1) * sizeof(*f));

    if (f == NULL)
        return MPI_ERR_NO_MEM;
    sp.fin = f;
    sp.fin[sp.nfin++] = c;
    return MPI_SUCCESS;
}

/* "RCK_MPI_PARENT=ctx,ctx2,root:ue,..." for the parents @p c. */
static char *parent_env(const rk_comm_t *c, uint32_t ctx, uint32_t ctx2,
                        int root)
{
    size_t cap = 64 + (size_t)c->size * 8, len;
    char *s = malloc(cap);

    if (s == NULL)
        return NULL;
    len = (size_t)snprintf(s, cap, "%s=%u,%u,%d:", PARENT_VAR, ctx, ctx2,
                           root);
    for (int i = 0; i < c->size; i++)
        len += (size_t)snprintf(s + len, cap - len, "%s%d", i ? "," : "",
                                c->ue[i]);
    return s;
}

/* The root's part: check, agree contexts, ask the HAL. Fills @p res
 * ([err, ctx, ctx2, m, ues...]) and sp.msg. */
static int spawn_root(const char *command, char *argv[], int maxprocs,
                      MPI_Info info, const rk_comm_t *c, uint32_t *used,
                      int *res)
{
    uint32_t ctx, ctx2;
    char *env[2] = {NULL, NULL}, **full;
    size_t nargs = 0;
    rck_status_t st;

    if (maxprocs < 1 || maxprocs > rk.nues) {
        snprintf(sp.msg, sizeof sp.msg, "maxprocs %d: the job has %d UEs",
                 maxprocs, rk.nues);
        return MPI_ERR_ARG;
    }
    if (info != MPI_INFO_NULL) {
        snprintf(sp.msg, sizeof sp.msg, "only MPI_INFO_NULL is implemented");
        return MPI_ERR_INFO;
    }
    if (rck_exec_find(command, NULL, 0) != 0) {
        snprintf(sp.msg, sizeof sp.msg, "cannot execute '%s'",
                 command != NULL ? command : "(null)");
        return MPI_ERR_SPAWN;
    }
    ctx = rk_ctx_pick(used);
    used[ctx / 64] |= 1u << (ctx / 2 % 32);
    ctx2 = ctx != 0 ? rk_ctx_pick(used) : 0;
    if (ctx2 == 0) {
        snprintf(sp.msg, sizeof sp.msg, "no communicator context is free");
        return MPI_ERR_INTERN;
    }
    while (argv != MPI_ARGV_NULL && argv[nargs] != NULL)
        nargs++;
    full = calloc(nargs + 2, sizeof(char *));
    env[0] = parent_env(c, ctx, ctx2, c->rank);
    if (full == NULL || env[0] == NULL) {
        free(full);
        free(env[0]);
        snprintf(sp.msg, sizeof sp.msg, "no memory");
        return MPI_ERR_NO_MEM;
    }
    full[0] = (char *)command;
    for (size_t i = 0; i < nargs; i++)
        full[i + 1] = argv[i];
    st = rck_hal_spawn(rk.hal, full, env, maxprocs, res + 4);
    free(full);
    free(env[0]);
    if (st == RCK_ERR_BUSY) {
        snprintf(sp.msg, sizeof sp.msg, "fewer than %d of the job's %d UEs "
                 "are idle (start the job with a larger 'rck run "
                 "--universe')", maxprocs, rk.nues);
        return MPI_ERR_SPAWN;
    }
    if (st == RCK_ERR_UNSUPPORTED) {
        snprintf(sp.msg, sizeof sp.msg, "this job has no idle cores to start "
                 "processes on (start it with 'rck run -n N --universe U' "
                 "on the native or sim backend)");
        return MPI_ERR_SPAWN;
    }
    if (st != RCK_OK) {
        snprintf(sp.msg, sizeof sp.msg, "the processes cannot be started: "
                 "%s", rck_status_string(st));
        return MPI_ERR_SPAWN;
    }
    res[1] = (int)ctx;
    res[2] = (int)ctx2;
    res[3] = maxprocs;
    return MPI_SUCCESS;
}

/* After the agreement: the intercommunicator and its twin; the root
 * waits for the children's rank 0, then lets the other parents go. */
static int spawn_connect(MPI_Comm comm, int root, const int *res,
                         MPI_Comm *intercomm)
{
    /* copies: making a communicator may move the table rk_comm points
     * into */
    const rk_comm_t *c = rk_comm(comm);
    int size = c->size, rank = c->rank;
    MPI_Errhandler eh = c->eh;
    MPI_Comm fin = MPI_COMM_NULL;
    int *ue = malloc((size_t)size * sizeof(int)), go = 0, err;

    if (ue == NULL)
        return MPI_ERR_NO_MEM;
    memcpy(ue, c->ue, (size_t)size * sizeof(int));
    err = rk_inter_new(ue, size, rank, (uint32_t)res[1], res + 4, res[3], eh,
                       intercomm);
    if (err == MPI_SUCCESS)
        err = rk_inter_new(ue, size, rank, (uint32_t)res[2], res + 4, res[3],
                           MPI_ERRORS_RETURN, &fin);
    free(ue);
    if (err == MPI_SUCCESS)
        err = fin_add(fin);
    if (err != MPI_SUCCESS)
        return err;
    if (rank == root) {
        MPI_Request r;
        err = rk_irecv(NULL, 0, MPI_BYTE, 0, RK_TAG_SPAWN, *intercomm, 1, &r,
                       "MPI_Comm_spawn");
        if (err == MPI_SUCCESS)
            err = rk_wait_req(&r, MPI_STATUS_IGNORE, "MPI_Comm_spawn");
    }
    go = err;
    {
        int e = rk_local_bcast(comm, root, &go, 1);
        return err != MPI_SUCCESS ? err : e != MPI_SUCCESS ? e : go;
    }
}

int PMPI_Comm_spawn(const char *command, char *argv[], int maxprocs,
                    MPI_Info info, int root, MPI_Comm comm,
                    MPI_Comm *intercomm, int array_of_errcodes[])
{
    RK_MPI_GUARD;
    rk_comm_t *c;
    int err = rk_comm_arg(comm, &c, "MPI_Comm_spawn"), cap, *res;
    uint32_t used[RK_NCTXW];

    if (err != MPI_SUCCESS)
        return err;
    if (c->inter || root < 0 || root >= c->size)
        return rk_err(comm, c->inter ? MPI_ERR_COMM : MPI_ERR_ROOT,
                      "MPI_Comm_spawn", "root %d of a group of %d (an "
                      "intracommunicator is needed)", root, c->size);
    if (intercomm == NULL)
        return rk_err(comm, MPI_ERR_ARG, "MPI_Comm_spawn",
                      "intercomm is NULL");
    cap = 4 + rk.nues;
    res = calloc((size_t)cap, sizeof(int));
    if (res == NULL)
        return rk_err(comm, MPI_ERR_NO_MEM, "MPI_Comm_spawn", "no memory");
    sp.msg[0] = '\0';
    err = rk_local_or(comm, root, used);
    c = rk_comm(comm);
    if (c->rank == root)
        res[0] = err != MPI_SUCCESS ? err
                                    : spawn_root(command, argv, maxprocs,
                                                 info, c, used, res);
    if (err == MPI_SUCCESS)
        err = rk_local_bcast(comm, root, res, cap);
    if (err == MPI_SUCCESS)
        err = res[0];
    if (err == MPI_SUCCESS)
        err = spawn_connect(comm, root, res, intercomm);
    for (int i = 0; array_of_errcodes != MPI_ERRCODES_IGNORE && i < maxprocs;
         i++)
        array_of_errcodes[i] = err;
    free(res);
    if (err != MPI_SUCCESS) {
        *intercomm = MPI_COMM_NULL;
        return rk_err(comm, err, "MPI_Comm_spawn", "%s",
                      sp.msg[0] ? sp.msg
                                : "the spawning root failed (see its error)");
    }
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Comm_spawn);

/* "ctx,ctx2,root:ue,ue,...". @return the parents' count, or -1. */
static int parent_parse(const char *text, uint32_t *ctx, uint32_t *ctx2,
                        int *root, int *ues)
{
    unsigned a, b;
    int r, n = 0, off = 0;
    const char *p;

    if (sscanf(text, "%u,%u,%d:%n", &a, &b, &r, &off) != 3 || off == 0)
        return -1;
    p = text + off;
    while (*p != '\0' && n < rk.nues) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || v < 0 || v >= rk.nues || (*end != ',' && *end))
            return -1;
        ues[n++] = (int)v;
        p = *end == ',' ? end + 1 : end;
    }
    if (n == 0 || *p != '\0' || r < 0 || r >= n)
        return -1;
    *ctx = a;
    *ctx2 = b;
    *root = r;
    return n;
}

/* The children's side of the hand-shake: every child is in MPI_Init when
 * rank 0 tells the spawning root. */
static int children_ready(int root)
{
    rk_comm_t *w = rk_comm(MPI_COMM_WORLD);
    MPI_Request r;
    int err = MPI_SUCCESS;

    if (w->rank != 0)
        return rckmpi_coll_send(NULL, 0, MPI_BYTE, 0, RK_TAG_SPAWN,
                                MPI_COMM_WORLD);
    for (int i = 1; i < w->size && err == MPI_SUCCESS; i++)
        err = rckmpi_coll_recv(NULL, 0, MPI_BYTE, i, RK_TAG_SPAWN,
                               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (err == MPI_SUCCESS)
        err = rk_isend(NULL, 0, MPI_BYTE, root, RK_TAG_SPAWN, sp.parent, 1,
                       RK_MODE_STD, &r, "MPI_Init");
    if (err == MPI_SUCCESS)
        err = rk_wait_req(&r, MPI_STATUS_IGNORE, "MPI_Init");
    return err;
}

int rk_spawn_init(void)
{
    const char *text = getenv(PARENT_VAR);
    rk_comm_t *w = rk_comm(MPI_COMM_WORLD);
    MPI_Comm fin;
    uint32_t ctx, ctx2;
    int root, n, err, *parents;

    if (text == NULL)
        return MPI_SUCCESS;
    parents = malloc((size_t)rk.nues * sizeof(int));
    if (parents == NULL)
        return MPI_ERR_NO_MEM;
    n = parent_parse(text, &ctx, &ctx2, &root, parents);
    if (n < 0) {
        fprintf(stderr, "MPI_Init: %s='%s' is not a parent description\n",
                PARENT_VAR, text);
        free(parents);
        return MPI_ERR_OTHER;
    }
    err = rk_inter_new(w->ue, w->size, w->rank, ctx, parents, n,
                       MPI_ERRORS_ARE_FATAL, &sp.parent);
    w = rk_comm(MPI_COMM_WORLD);
    if (err == MPI_SUCCESS)
        err = rk_inter_new(w->ue, w->size, w->rank, ctx2, parents, n,
                           MPI_ERRORS_RETURN, &fin);
    free(parents);
    if (err == MPI_SUCCESS)
        err = fin_add(fin);
    if (err == MPI_SUCCESS)
        err = children_ready(root);
    return err;
}

int rk_spawn_finalize_post(MPI_Request *reqs)
{
    int nr = 0;

    for (int i = 0; i < sp.nfin; i++) {
        rk_comm_t *c = rk_comm(sp.fin[i]);
        if (c == NULL)
            continue;
        for (int j = 0; j < c->psize; j++) {
            if (rk_irecv(NULL, 0, MPI_BYTE, j, RK_TAG_FINALIZE, sp.fin[i], 1,
                         &reqs[nr], "MPI_Finalize") == MPI_SUCCESS)
                nr++;
            if (rk_isend(NULL, 0, MPI_BYTE, j, RK_TAG_FINALIZE, sp.fin[i], 1,
                         RK_MODE_STD, &reqs[nr], "MPI_Finalize") ==
                MPI_SUCCESS)
                nr++;
        }
    }
    free(sp.fin);
    sp.fin = NULL;
    sp.nfin = 0;
    sp.parent = MPI_COMM_NULL;
    return nr;
}

int PMPI_Comm_get_parent(MPI_Comm *parent)
{
    RK_MPI_GUARD;
    int err = rk_check_init("MPI_Comm_get_parent");

    if (err != MPI_SUCCESS)
        return err;
    if (sp.parent != MPI_COMM_NULL && rk_comm(sp.parent) == NULL)
        sp.parent = MPI_COMM_NULL; /* the program freed it */
    *parent = sp.parent;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Comm_get_parent);

/* As MPI_Comm_free: a freed communicator waits for its requests
 * (p2p.c). The processes stay connected for MPI_Finalize (the twin). */
int PMPI_Comm_disconnect(MPI_Comm *comm)
{
    RK_MPI_GUARD;
    MPI_Comm c = comm != NULL ? *comm : MPI_COMM_NULL;
    int err = PMPI_Comm_free(comm);

    if (err == MPI_SUCCESS && c == sp.parent)
        sp.parent = MPI_COMM_NULL;
    return err;
}
RK_MPI_ALIAS(Comm_disconnect);
