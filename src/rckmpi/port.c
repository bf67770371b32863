/*
 * MPI_Open_port, MPI_Close_port, MPI_Comm_accept, MPI_Comm_connect
 * between groups of one job (docs/MPI-ONESIDED-IO.md). A port is named
 * "rckmpi-port:<ue>:<n>": the UE that opened it and its number there.
 * The connecting root sends its group (size, contexts in use ORed over
 * the group, UEs) to the port's UE on MPI_COMM_WORLD's collective context
 * with tag RK_TAG_PORT + n; the accepting root, which must be the port's
 * owner, ORs in its own group's contexts, takes the lowest pair free in
 * both and answers with it and its group. Each root hands the outcome to
 * its group, which builds the intercommunicator as MPI_Intercomm_create
 * does (intercomm.c).
 */
#include "rckmpi.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PORT_PREFIX "rckmpi-port:"
#define MAX_PORTS 0xfff /* per process, ever */

static struct {
    unsigned char *open; /* open[n]: my port n is open */
    int next;
} pt;

/* Parse @p name: its UE and number, 0 if well formed. */
static int port_parse(const char *name, int *ue, int *n)
{
    char tail;

    if (name == NULL || strncmp(name, PORT_PREFIX, strlen(PORT_PREFIX)) != 0)
        return -1;
    if (sscanf(name + strlen(PORT_PREFIX), "%d:%d%c", ue, n, &tail) != 2)
        return -1;
    if (*ue < 0 || *ue >= rk.nues || *n < 1 || *n > MAX_PORTS)
        return -1;
    return 0;
}

int PMPI_Open_port(MPI_Info info, char *port_name)
{
    RK_MPI_GUARD;
    int err = rk_check_init("MPI_Open_port");

    (void)info;
    if (err != MPI_SUCCESS)
        return err;
    if (port_name == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Open_port",
                      "port_name is NULL");
    if (pt.open == NULL) {
        pt.open = calloc(MAX_PORTS + 1, 1);
        if (pt.open == NULL)
            return rk_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, "MPI_Open_port",
                          "no memory");
    }
    if (pt.next >= MAX_PORTS)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_PORT, "MPI_Open_port",
                      "every one of the process's %d port numbers was used",
                      MAX_PORTS);
    pt.open[++pt.next] = 1;
    snprintf(port_name, MPI_MAX_PORT_NAME, PORT_PREFIX "%d:%d", rk.ue,
             pt.next);
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Open_port);

/* My open port @p name: its number, or -1. */
static int my_port(const char *name)
{
    int ue, n;

    if (port_parse(name, &ue, &n) != 0 || ue != rk.ue || pt.open == NULL ||
        !pt.open[n])
        return -1;
    return n;
}

int PMPI_Close_port(const char *port_name)
{
    RK_MPI_GUARD;
    int err = rk_check_init("MPI_Close_port"), n;

    if (err != MPI_SUCCESS)
        return err;
    n = my_port(port_name);
    if (n < 0)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_PORT, "MPI_Close_port",
                      "'%s' is not a port this process opened",
                      port_name != NULL ? port_name : "(null)");
    pt.open[n] = 0;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Close_port);

/* The common part: @p comm's root talks to the other side (@p accept:
 * waits for a connection on its port), then everyone builds the
 * intercommunicator. */
static int join(const char *port_name, int root, MPI_Comm comm, int accept,
                MPI_Comm *newcomm, const char *func)
{
    rk_comm_t *c;
    int err = rk_comm_arg(comm, &c, func), cap, *out, *in, n, me, ue = -1,
        num = -1;
    uint32_t used[RK_NCTXW];
    char why[160] = "";

    if (err != MPI_SUCCESS)
        return err;
    if (c->inter || root < 0 || root >= c->size)
        return rk_err(comm, c->inter ? MPI_ERR_COMM : MPI_ERR_ROOT, func,
                      "root %d of a group of %d (an intracommunicator is "
                      "needed)", root, c->size);
    if (newcomm == NULL)
        return rk_err(comm, MPI_ERR_ARG, func, "newcomm is NULL");
    n = c->size;
    cap = 2 + RK_NCTXW + rk.nues;
    out = calloc((size_t)cap, sizeof(int));
    in = calloc((size_t)cap, sizeof(int));
    if (out == NULL || in == NULL) {
        free(out);
        free(in);
        return rk_err(comm, MPI_ERR_NO_MEM, func, "no memory");
    }
    err = rk_local_or(comm, root, used);
    c = rk_comm(comm);
    if (err == MPI_SUCCESS && c->rank == root) {
        MPI_Request r[2];
        int tag;
        if (accept) {
            num = my_port(port_name);
            if (num < 0) {
                err = MPI_ERR_PORT;
                snprintf(why, sizeof why, "'%s' is not a port the root "
                         "opened", port_name != NULL ? port_name : "(null)");
            }
        } else if (port_parse(port_name, &ue, &num) != 0) {
            err = MPI_ERR_PORT;
            snprintf(why, sizeof why, "'%s' is not a port name of this job",
                     port_name != NULL ? port_name : "(null)");
        }
        tag = RK_TAG_PORT + num;
        if (err == MPI_SUCCESS && accept) {
            /* [n, used..., UEs...] from the connecting root */
            MPI_Status st;
            err = rk_irecv(in, cap, MPI_INT, MPI_ANY_SOURCE, tag,
                           MPI_COMM_WORLD, 1, &r[0], func);
            if (err == MPI_SUCCESS)
                err = rk_wait_req(&r[0], &st, func);
            if (err == MPI_SUCCESS) {
                ue = st.MPI_SOURCE;
                for (int w = 0; w < RK_NCTXW; w++)
                    used[w] |= (uint32_t)in[1 + w];
                out[0] = (int)rk_ctx_pick(used);
                out[1] = in[0];
                memcpy(out + 2, in + 1 + RK_NCTXW, (size_t)in[0] * sizeof(int));
                /* my answer: [ctx, n, my UEs...] */
                in[0] = out[0];
                in[1] = n;
                memcpy(in + 2, c->ue, (size_t)n * sizeof(int));
                err = rk_isend(in, 2 + n, MPI_INT, ue, tag, MPI_COMM_WORLD,
                               1, RK_MODE_STD, &r[1], func);
                if (err == MPI_SUCCESS)
                    err = rk_wait_req(&r[1], MPI_STATUS_IGNORE, func);
            }
        } else if (err == MPI_SUCCESS) {
            in[0] = n;
            memcpy(in + 1, used, sizeof used);
            memcpy(in + 1 + RK_NCTXW, c->ue, (size_t)n * sizeof(int));
            err = rk_irecv(out, cap, MPI_INT, ue, tag, MPI_COMM_WORLD, 1,
                           &r[0], func);
            if (err == MPI_SUCCESS)
                err = rk_isend(in, 1 + RK_NCTXW + n, MPI_INT, ue, tag,
                               MPI_COMM_WORLD, 1, RK_MODE_STD, &r[1], func);
            if (err == MPI_SUCCESS)
                err = rk_wait_req(&r[1], MPI_STATUS_IGNORE, func);
            if (err == MPI_SUCCESS)
                err = rk_wait_req(&r[0], MPI_STATUS_IGNORE, func);
        }
        if (err != MPI_SUCCESS || out[0] == 0) {
            if (err == MPI_SUCCESS)
                err = MPI_ERR_INTERN;
            out[0] = 0;
            out[1] = err;
        }
        {
            int e = rk_local_bcast(comm, root, out, cap);
            err = err != MPI_SUCCESS ? err : e;
        }
    } else if (err == MPI_SUCCESS) {
        err = rk_local_bcast(comm, root, out, cap);
        if (err == MPI_SUCCESS && out[0] == 0)
            err = out[1];
    }
    if (err == MPI_SUCCESS) {
        int *mine = malloc((size_t)n * sizeof(int));
        c = rk_comm(comm);
        me = c->rank;
        if (mine == NULL) {
            err = MPI_ERR_NO_MEM;
        } else {
            memcpy(mine, c->ue, (size_t)n * sizeof(int));
            err = rk_inter_new(mine, n, me, (uint32_t)out[0], out + 2, out[1],
                               c->eh, newcomm);
            free(mine);
        }
    }
    free(out);
    free(in);
    if (err != MPI_SUCCESS) {
        *newcomm = MPI_COMM_NULL;
        return rk_err(comm, err, func, "%s",
                      why[0] ? why : "no intercommunicator made");
    }
    return MPI_SUCCESS;
}

int PMPI_Comm_accept(const char *port_name, MPI_Info info, int root,
                     MPI_Comm comm, MPI_Comm *newcomm)
{
    RK_MPI_GUARD;
    (void)info;
    return join(port_name, root, comm, 1, newcomm, "MPI_Comm_accept");
}
RK_MPI_ALIAS(Comm_accept);

int PMPI_Comm_connect(const char *port_name, MPI_Info info, int root,
                      MPI_Comm comm, MPI_Comm *newcomm)
{
    RK_MPI_GUARD;
    (void)info;
    return join(port_name, root, comm, 0, newcomm, "MPI_Comm_connect");
}
RK_MPI_ALIAS(Comm_connect);

/* ---- the name service (MPI_Publish_name, MPI_Lookup_name,
 * MPI_Unpublish_name): a table at world rank 0, which answers from its
 * progress hook (win.c) whenever it is inside an MPI call ---- */

typedef struct {
    char op; /* 'P', 'U', 'L' */
    char name[MPI_MAX_PORT_NAME];
    char port[MPI_MAX_PORT_NAME];
} name_req_t;

typedef struct {
    int err;
    char port[MPI_MAX_PORT_NAME];
} name_rep_t;

static struct {
    char (*name)[MPI_MAX_PORT_NAME];
    char (*port)[MPI_MAX_PORT_NAME];
    int n;
} ns;

static int ns_find(const char *name)
{
    for (int i = 0; i < ns.n; i++)
        if (strcmp(ns.name[i], name) == 0)
            return i;
    return -1;
}

static void ns_answer(const name_req_t *q, name_rep_t *a)
{
    int i = ns_find(q->name);

    memset(a, 0, sizeof *a);
    if (q->op == 'L') {
        if (i < 0)
            a->err = MPI_ERR_NAME;
        else
            memcpy(a->port, ns.port[i], sizeof a->port);
    } else if (q->op == 'U') {
        if (i < 0 || strcmp(ns.port[i], q->port) != 0) {
            a->err = MPI_ERR_SERVICE;
        } else {
            ns.n--;
            memmove(ns.name[i], ns.name[ns.n], sizeof ns.name[i]);
            memmove(ns.port[i], ns.port[ns.n], sizeof ns.port[i]);
        }
    } else if (i >= 0) {
        a->err = MPI_ERR_SERVICE; /* published already */
    } else {
        void *nn = realloc(ns.name, (size_t)(ns.n + 1) * sizeof *ns.name);
        void *np = nn != NULL ? realloc(ns.port, (size_t)(ns.n + 1) *
                                                     sizeof *ns.port)
                              : NULL;
        if (nn != NULL)
            ns.name = nn;
        if (np == NULL) {
            a->err = MPI_ERR_NO_MEM;
            return;
        }
        ns.port = np;
        memcpy(ns.name[ns.n], q->name, sizeof ns.name[0]);
        memcpy(ns.port[ns.n++], q->port, sizeof ns.port[0]);
    }
}

int rk_names_serve(void)
{
    rk_comm_t *c = rk_comm(MPI_COMM_WORLD);
    MPI_Status st;
    int n = 0;

    while (c != NULL && rk_probe(c->ctx + 1, -1, RK_TAG_NAME, c, &st, NULL)) {
        name_req_t q;
        name_rep_t a;
        MPI_Request r;
        int from = st.MPI_SOURCE;
        if (rk_irecv(&q, (int)sizeof q, MPI_BYTE, from, RK_TAG_NAME,
                     MPI_COMM_WORLD, 1, &r, "MPI_Publish_name") !=
                MPI_SUCCESS ||
            rk_wait_req(&r, MPI_STATUS_IGNORE, "MPI_Publish_name") !=
                MPI_SUCCESS)
            break;
        q.name[sizeof q.name - 1] = q.port[sizeof q.port - 1] = '\0';
        ns_answer(&q, &a);
        if (rk_isend(&a, (int)sizeof a, MPI_BYTE, from, RK_TAG_NAME_R,
                     MPI_COMM_WORLD, 1, RK_MODE_STD, &r,
                     "MPI_Publish_name") == MPI_SUCCESS)
            rk_wait_req(&r, MPI_STATUS_IGNORE, "MPI_Publish_name");
        n++;
        c = rk_comm(MPI_COMM_WORLD);
    }
    return n;
}

/* One request to world rank 0 and its answer. */
static int ns_call(char op, const char *name, const char *port, char *out,
                   const char *func)
{
    name_req_t q;
    name_rep_t a;
    MPI_Request r[2];
    int err = rk_check_init(func);

    if (err != MPI_SUCCESS)
        return err;
    if (name == NULL || name[0] == '\0' ||
        strlen(name) >= MPI_MAX_PORT_NAME)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_SERVICE, func,
                      "service name %s", name == NULL ? "NULL" : "empty or "
                      "of MPI_MAX_PORT_NAME characters or more");
    if ((op != 'L' && (port == NULL || strlen(port) >= MPI_MAX_PORT_NAME)) ||
        (op == 'L' && out == NULL))
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, func,
                      "port_name NULL or too long");
    memset(&q, 0, sizeof q);
    q.op = op;
    strcpy(q.name, name);
    if (op != 'L')
        strcpy(q.port, port);
    err = rk_irecv(&a, (int)sizeof a, MPI_BYTE, 0, RK_TAG_NAME_R,
                   MPI_COMM_WORLD, 1, &r[0], func);
    if (err == MPI_SUCCESS)
        err = rk_isend(&q, (int)sizeof q, MPI_BYTE, 0, RK_TAG_NAME,
                       MPI_COMM_WORLD, 1, RK_MODE_STD, &r[1], func);
    if (err == MPI_SUCCESS)
        err = rk_wait_req(&r[1], MPI_STATUS_IGNORE, func);
    if (err == MPI_SUCCESS)
        err = rk_wait_req(&r[0], MPI_STATUS_IGNORE, func);
    if (err != MPI_SUCCESS)
        return rk_err(MPI_COMM_WORLD, err, func, "no answer from rank 0");
    if (a.err != MPI_SUCCESS)
        return rk_err(MPI_COMM_WORLD, a.err, func, "'%s': %s", name,
                      a.err == MPI_ERR_NAME ? "not published"
                      : op == 'P'           ? "published already"
                                            : "not published with that port");
    if (out != NULL) {
        memcpy(out, a.port, MPI_MAX_PORT_NAME);
        out[MPI_MAX_PORT_NAME - 1] = '\0';
    }
    return MPI_SUCCESS;
}

int PMPI_Publish_name(const char *service_name, MPI_Info info,
                      const char *port_name)
{
    RK_MPI_GUARD;
    (void)info;
    return ns_call('P', service_name, port_name, NULL, "MPI_Publish_name");
}
RK_MPI_ALIAS(Publish_name);

int PMPI_Unpublish_name(const char *service_name, MPI_Info info,
                        const char *port_name)
{
    RK_MPI_GUARD;
    (void)info;
    return ns_call('U', service_name, port_name, NULL, "MPI_Unpublish_name");
}
RK_MPI_ALIAS(Unpublish_name);

int PMPI_Lookup_name(const char *service_name, MPI_Info info,
                     char *port_name)
{
    RK_MPI_GUARD;
    (void)info;
    return ns_call('L', service_name, NULL, port_name, "MPI_Lookup_name");
}
RK_MPI_ALIAS(Lookup_name);

/* ---- MPI_Comm_join (MPI-3.1 10.5.4) ----
 * Over the program's connected socket @p fd: each side writes its UE and
 * the contexts it uses and reads the other's; the side of the lower UE
 * takes the lowest pair free at both and writes it; both build the
 * intercommunicator of the two (one process each), as connect/accept
 * does. Both processes are UEs of this job (the socket carries only the
 * hand-shake). */
static int fd_all(int fd, void *buf, size_t len, int wr)
{
    char *p = buf;

    while (len > 0) {
        ssize_t k = wr ? write(fd, p, len) : read(fd, p, len);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return k == 0 ? -2 : -1;
        p += k;
        len -= (size_t)k;
    }
    return 0;
}

int PMPI_Comm_join(int fd, MPI_Comm *intercomm)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Comm_join";
    int err = rk_check_init(f), hello[1 + RK_NCTXW], peer[1 + RK_NCTXW];
    int ctx = 0, k, me, other;
    uint32_t used[RK_NCTXW];

    if (err != MPI_SUCCESS)
        return err;
    if (intercomm == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, f, "intercomm is NULL");
    *intercomm = MPI_COMM_NULL;
    if (fd < 0)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, f, "invalid fd %d", fd);
    rk_ctx_used(used);
    hello[0] = rk.ue;
    memcpy(hello + 1, used, sizeof used);
    k = fd_all(fd, hello, sizeof hello, 1);
    if (k == 0)
        k = fd_all(fd, peer, sizeof peer, 0);
    if (k != 0)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_OTHER, f,
                      "the hand-shake over fd %d failed: %s", fd,
                      k == -2 ? "the other side closed it" : strerror(errno));
    me = rk.ue;
    other = peer[0];
    if (other < 0 || other >= rk.nues || other == me)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, f,
                      "the other side is UE %d (this is UE %d of %d): not "
                      "another process of this job",
                      other, me, rk.nues);
    if (me < other) {
        for (int w = 0; w < RK_NCTXW; w++)
            used[w] |= (uint32_t)peer[1 + w];
        ctx = (int)rk_ctx_pick(used);
        k = fd_all(fd, &ctx, sizeof ctx, 1);
    } else
        k = fd_all(fd, &ctx, sizeof ctx, 0);
    if (k != 0)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_OTHER, f,
                      "the hand-shake over fd %d failed: %s", fd,
                      k == -2 ? "the other side closed it" : strerror(errno));
    if (ctx == 0)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_INTERN, f,
                      "no communicator context is free at both");
    err = rk_inter_new(&me, 1, 0, (uint32_t)ctx, &other, 1,
                       rk_comm(MPI_COMM_WORLD)->eh, intercomm);
    if (err != MPI_SUCCESS)
        return rk_err(MPI_COMM_WORLD, err, f, "no intercommunicator made");
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Comm_join);
