/*
 * The table of communicators and groups (docs/MPI.md, "Communicators")
 * and its lookups: a handle is an index into it. comm.c fills and empties
 * it; everything else only looks up.
 *
 * Owns: rk_cm. May call: the error path (err.c: MPI_Comm_size/rank check
 * their argument); nothing else.
 */
#include "rckmpi.h"

rk_comm_tab_t rk_cm;

rk_comm_t *rk_comm_any(MPI_Comm h)
{
    if (h <= 0 || h >= rk_cm.nc || !rk_cm.c[h].used)
        return NULL;
    return &rk_cm.c[h];
}

rk_comm_t *rk_comm(MPI_Comm h)
{
    rk_comm_t *c = rk_comm_any(h);
    return c != NULL && !c->freed ? c : NULL;
}

rk_group_t *rk_group(MPI_Group h)
{
    if (h <= 0 || h >= rk_cm.ng || !rk_cm.g[h].used)
        return NULL;
    return &rk_cm.g[h];
}

unsigned rckmpi_coll_nbc_seq(MPI_Comm comm)
{
    rk_comm_t *c = rk_comm(comm);
    return c != NULL ? c->nbc_seq++ : 0;
}

int rckmpi_comm_check(MPI_Comm comm)
{
    rk_comm_t *c = rk_comm(comm);
    return c != NULL && !c->inter ? MPI_SUCCESS : MPI_ERR_COMM;
}

int PMPI_Comm_size(MPI_Comm comm, int *size)
{
    RK_MPI_GUARD;
    rk_comm_t *c;
    int err = rk_comm_arg(comm, &c, "MPI_Comm_size");

    if (err == MPI_SUCCESS)
        *size = c->size;
    return err;
}
RK_MPI_ALIAS(Comm_size);

int PMPI_Comm_rank(MPI_Comm comm, int *rank)
{
    RK_MPI_GUARD;
    rk_comm_t *c;
    int err = rk_comm_arg(comm, &c, "MPI_Comm_rank");

    if (err == MPI_SUCCESS)
        *rank = c->rank;
    return err;
}
RK_MPI_ALIAS(Comm_rank);
