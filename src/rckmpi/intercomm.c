/*
 * Intercommunicators (docs/MPI.md): MPI_Intercomm_create and
 * MPI_Intercomm_merge, point-to-point between the two groups (the peer
 * group of rk_comm_t), remote size and group. Both need a context pair
 * free at every member of both groups: each group ORs its members' sets
 * of contexts in use at its leader, the leaders exchange theirs, and both
 * take the lowest pair free in the union (the same answer on both sides).
 * An intercommunicator keeps a hidden communicator of its local group on
 * the same contexts, whose collective context carries the local group's
 * own set-up messages. The collectives refuse intercommunicators
 * (rckmpi_comm_check).
 */
#include "rckmpi.h"

#include <stdlib.h>
#include <string.h>

/* Gather the local group's contexts in use at @p leader (rank in @p lc),
 * ORed into @p used (the leader's result; others send theirs). */
int rk_local_or(MPI_Comm lc, int leader, uint32_t *used)
{
    rk_comm_t *c = rk_comm(lc);
    uint32_t tmp[RK_NCTXW];
    int err = MPI_SUCCESS;

    rk_ctx_used(used);
    if (c->rank != leader)
        return rckmpi_coll_send(used, RK_NCTXW, MPI_UINT32_T, leader,
                                RK_TAG_INTER, lc);
    for (int r = 0; r < c->size && err == MPI_SUCCESS; r++) {
        if (r == leader)
            continue;
        err = rckmpi_coll_recv(tmp, RK_NCTXW, MPI_UINT32_T, r, RK_TAG_INTER,
                               lc, MPI_STATUS_IGNORE);
        for (int w = 0; w < RK_NCTXW; w++)
            used[w] |= tmp[w];
    }
    return err;
}

/* The leader's @p buf (count ints) to every other member of @p lc. */
int rk_local_bcast(MPI_Comm lc, int leader, int *buf, int count)
{
    rk_comm_t *c = rk_comm(lc);
    int err = MPI_SUCCESS;

    if (c->rank != leader)
        return rckmpi_coll_recv(buf, count, MPI_INT, leader, RK_TAG_INTER,
                                lc, MPI_STATUS_IGNORE);
    for (int r = 0; r < c->size && err == MPI_SUCCESS; r++)
        if (r != leader)
            err = rckmpi_coll_send(buf, count, MPI_INT, r, RK_TAG_INTER, lc);
    return err;
}

int rk_inter_new(const int *ue, int n, int me, uint32_t ctx,
                 const int *peer, int psize, MPI_Errhandler eh,
                 MPI_Comm *out)
{
    MPI_Comm hidden = rk_comm_new(ue, n, me, ctx, NULL, 0), inter;

    if (hidden == MPI_COMM_NULL)
        return MPI_ERR_NO_MEM;
    inter = rk_comm_new(ue, n, me, ctx, peer, psize);
    if (inter == MPI_COMM_NULL) {
        PMPI_Comm_free(&hidden);
        return MPI_ERR_NO_MEM;
    }
    rk_comm(inter)->local = hidden;
    rk_comm(inter)->eh = eh;
    *out = inter;
    return MPI_SUCCESS;
}

/* The two leaders swap @p out for @p in (up to @p cap ints) over @p comm's
 * collective context with @p peer (a rank of comm's peer group). */
static int leaders_swap(MPI_Comm comm, int peer, int tag, const int *out,
                        int n, int *in, int cap)
{
    MPI_Request r[2];
    int err = rk_irecv(in, cap, MPI_INT, peer, tag, comm, 1, &r[0],
                       "MPI_Intercomm");

    if (err == MPI_SUCCESS)
        err = rk_isend(out, n, MPI_INT, peer, tag, comm, 1, RK_MODE_STD, &r[1],
                       "MPI_Intercomm");
    if (err != MPI_SUCCESS)
        return err;
    rk_wait_req(&r[1], MPI_STATUS_IGNORE, "MPI_Intercomm");
    return rk_wait_req(&r[0], MPI_STATUS_IGNORE, "MPI_Intercomm");
}

int PMPI_Intercomm_create(MPI_Comm local_comm, int local_leader,
                          MPI_Comm peer_comm, int remote_leader, int tag,
                          MPI_Comm *newintercomm)
{
    RK_MPI_GUARD;
    rk_comm_t *lc;
    int err = rk_comm_arg(local_comm, &lc, "MPI_Intercomm_create");
    int n, cap = 2 + RK_NCTXW + rk.nues, *out = NULL, *in = NULL;
    uint32_t used[RK_NCTXW];

    if (err != MPI_SUCCESS)
        return err;
    if (lc->inter || local_leader < 0 || local_leader >= lc->size)
        return rk_err(local_comm, lc->inter ? MPI_ERR_COMM : MPI_ERR_RANK,
                      "MPI_Intercomm_create",
                      "local leader %d of a group of %d (an intracommunicator"
                      " is needed)", local_leader, lc->size);
    n = lc->size;
    out = malloc((size_t)cap * sizeof(int));
    in = malloc((size_t)cap * sizeof(int));
    if (out == NULL || in == NULL) {
        free(out);
        free(in);
        return rk_err(local_comm, MPI_ERR_NO_MEM, "MPI_Intercomm_create",
                      "no memory");
    }
    err = rk_local_or(local_comm, local_leader, used);
    lc = rk_comm(local_comm);
    out[0] = 0; /* no context: the leader failed */
    if (err == MPI_SUCCESS && lc->rank == local_leader) {
        /* [n, used..., UEs...] with the other leader over peer_comm */
        rk_comm_t *pc = rk_comm(peer_comm);
        if (pc == NULL || remote_leader < 0 || remote_leader >= pc->psize) {
            err = MPI_ERR_RANK;
        } else {
            out[0] = n;
            memcpy(out + 1, used, sizeof used);
            memcpy(out + 1 + RK_NCTXW, lc->ue, (size_t)n * sizeof(int));
            err = leaders_swap(peer_comm, remote_leader,
                               RK_TAG_INTER + 1 + tag % 0x100, out,
                               1 + RK_NCTXW + n, in, cap);
        }
        if (err == MPI_SUCCESS) {
            for (int w = 0; w < RK_NCTXW; w++)
                used[w] |= (uint32_t)in[1 + w];
            /* [ctx, m, remote UEs...] to the local group */
            out[0] = (int)rk_ctx_pick(used);
            out[1] = in[0];
            memcpy(out + 2, in + 1 + RK_NCTXW, (size_t)in[0] * sizeof(int));
        } else {
            out[0] = 0;
        }
        /* the group hears of the leader's failure too (out[0] == 0) */
        int e = rk_local_bcast(local_comm, local_leader, out, cap);
        err = err != MPI_SUCCESS ? err : e;
    } else if (err == MPI_SUCCESS) {
        err = rk_local_bcast(local_comm, local_leader, out, cap);
    }
    if (err == MPI_SUCCESS && out[0] == 0)
        err = MPI_ERR_INTERN; /* no context free, or the leader failed */
    if (err == MPI_SUCCESS) {
        lc = rk_comm(local_comm);
        int me = lc->rank, *ue = malloc((size_t)n * sizeof(int));
        if (ue == NULL)
            err = MPI_ERR_NO_MEM;
        else {
            memcpy(ue, lc->ue, (size_t)n * sizeof(int));
            err = rk_inter_new(ue, n, me, (uint32_t)out[0], out + 2, out[1],
                               lc->eh, newintercomm);
            free(ue);
        }
    }
    free(out);
    free(in);
    if (err != MPI_SUCCESS)
        return rk_err(local_comm, err, "MPI_Intercomm_create",
                      "no intercommunicator made (bad remote leader or "
                      "peer communicator?)");
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Intercomm_create);

static int inter_arg(MPI_Comm comm, rk_comm_t **c, const char *func)
{
    int err = rk_comm_arg(comm, c, func);

    if (err == MPI_SUCCESS && !(*c)->inter)
        return rk_err(comm, MPI_ERR_COMM, func,
                      "not an intercommunicator");
    return err;
}

int PMPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newcomm)
{
    RK_MPI_GUARD;
    rk_comm_t *c;
    int err = inter_arg(intercomm, &c, "MPI_Intercomm_merge");
    int out[1 + RK_NCTXW + 1], in[1 + RK_NCTXW + 1], res[2] = {0, 0};
    uint32_t used[RK_NCTXW];
    MPI_Comm local;

    if (err != MPI_SUCCESS)
        return err;
    local = c->local;
    err = rk_local_or(local, 0, used);
    c = rk_comm(intercomm);
    if (err == MPI_SUCCESS && c->rank == 0) {
        out[0] = high != 0;
        memcpy(out + 1, used, sizeof used);
        out[1 + RK_NCTXW] = c->ue[0];
        err = leaders_swap(intercomm, 0, RK_TAG_INTER, out, 2 + RK_NCTXW, in,
                           2 + RK_NCTXW);
        for (int w = 0; w < RK_NCTXW; w++)
            used[w] |= (uint32_t)in[1 + w];
        res[0] = (int)rk_ctx_pick(used);
        /* the low group first; on a tie, the group of the lower leader */
        res[1] = out[0] != in[0] ? out[0] < in[0]
                                 : out[1 + RK_NCTXW] < in[1 + RK_NCTXW];
    }
    if (err == MPI_SUCCESS)
        err = rk_local_bcast(local, 0, res, 2);
    if (err == MPI_SUCCESS && res[0] == 0)
        err = MPI_ERR_INTERN;
    if (err == MPI_SUCCESS) {
        c = rk_comm(intercomm);
        int n = c->size + c->psize, *ue = malloc((size_t)n * sizeof(int));
        int me = res[1] ? c->rank : c->psize + c->rank;
        if (ue == NULL) {
            err = MPI_ERR_NO_MEM;
        } else {
            const int *first = res[1] ? c->ue : c->peer;
            const int *second = res[1] ? c->peer : c->ue;
            int nfirst = res[1] ? c->size : c->psize;
            memcpy(ue, first, (size_t)nfirst * sizeof(int));
            memcpy(ue + nfirst, second, (size_t)(n - nfirst) * sizeof(int));
            MPI_Errhandler eh = c->eh;
            *newcomm = rk_comm_new(ue, n, me, (uint32_t)res[0], NULL, 0);
            free(ue);
            if (*newcomm == MPI_COMM_NULL)
                err = MPI_ERR_NO_MEM;
            else
                rk_comm(*newcomm)->eh = eh;
        }
    }
    if (err != MPI_SUCCESS)
        return rk_err(intercomm, err, "MPI_Intercomm_merge",
                      "no communicator made");
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Intercomm_merge);

int PMPI_Comm_remote_size(MPI_Comm comm, int *size)
{
    RK_MPI_GUARD;
    rk_comm_t *c;
    int err = inter_arg(comm, &c, "MPI_Comm_remote_size");

    if (err == MPI_SUCCESS)
        *size = c->psize;
    return err;
}
RK_MPI_ALIAS(Comm_remote_size);

int PMPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group)
{
    RK_MPI_GUARD;
    rk_comm_t *c;
    int err = inter_arg(comm, &c, "MPI_Comm_remote_group");

    if (err != MPI_SUCCESS)
        return err;
    return rk_group_of(c->peer, c->psize, group, "MPI_Comm_remote_group");
}
RK_MPI_ALIAS(Comm_remote_group);
