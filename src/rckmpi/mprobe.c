/*
 * Matched probe (MPI-3): MPI_Improbe/MPI_Mprobe take the matching message
 * out of the unexpected queue into a message handle, so no other receive
 * can take it; MPI_Mrecv/MPI_Imrecv receive exactly that message.
 */
#include "rckmpi.h"

#include <stdlib.h>

static struct {
    void **msg;       /* the taken message, NULL: free slot */
    MPI_Comm *comm;
    int n;
} mp;

static MPI_Message msg_new(void *m, MPI_Comm comm)
{
    int i;

    for (i = 0; i < mp.n && mp.msg[i] != NULL; i++)
        ;
    if (i == mp.n) {
        int n = mp.n ? 2 * mp.n : 16;
        void **nm = realloc(mp.msg, (size_t)n * sizeof(*nm));
        MPI_Comm *nc;
        if (nm == NULL)
            return MPI_MESSAGE_NULL;
        mp.msg = nm;
        nc = realloc(mp.comm, (size_t)n * sizeof(*nc));
        if (nc == NULL)
            return MPI_MESSAGE_NULL;
        mp.comm = nc;
        for (int k = mp.n; k < n; k++)
            mp.msg[k] = NULL;
        mp.n = n;
    }
    mp.msg[i] = m;
    mp.comm[i] = comm;
    return i + 1;
}

static int improbe(int source, int tag, MPI_Comm comm, int block, int *flag,
                   MPI_Message *message, MPI_Status *status, const char *func)
{
    rk_comm_t *c;
    void *m = NULL;
    int err = rk_probe_args(source, tag, comm, &c, func);

    if (err != MPI_SUCCESS)
        return err;
    if (message == NULL)
        return rk_err(comm, MPI_ERR_ARG, func, "message pointer is NULL");
    if (source == MPI_PROC_NULL) {
        *flag = 1;
        *message = MPI_MESSAGE_NO_PROC;
        rk_proc_null_status(status);
        return MPI_SUCCESS;
    }
    for (;;) {
        rk_progress();
        c = rk_comm(comm);
        *flag = rk_probe(c->ctx,
                         source == MPI_ANY_SOURCE ? -1 : c->peer[source], tag,
                         c, status, &m);
        if (*flag || !block)
            break;
        rk_progress_wait(func);
    }
    if (!*flag)
        return MPI_SUCCESS;
    *message = msg_new(m, comm);
    if (*message == MPI_MESSAGE_NULL)
        return rk_err(comm, MPI_ERR_NO_MEM, func, "no message handle");
    return MPI_SUCCESS;
}

int PMPI_Improbe(int source, int tag, MPI_Comm comm, int *flag,
                 MPI_Message *message, MPI_Status *status)
{
    RK_MPI_GUARD;
    return improbe(source, tag, comm, 0, flag, message, status,
                   "MPI_Improbe");
}
RK_MPI_ALIAS(Improbe);

int PMPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message,
                MPI_Status *status)
{
    RK_MPI_GUARD;
    int flag;
    return improbe(source, tag, comm, 1, &flag, message, status,
                   "MPI_Mprobe");
}
RK_MPI_ALIAS(Mprobe);

int PMPI_Imrecv(void *buf, int count, MPI_Datatype type, MPI_Message *message,
                MPI_Request *request)
{
    RK_MPI_GUARD;
    int err = rk_check_init("MPI_Imrecv"), i;
    void *m;

    if (err != MPI_SUCCESS)
        return err;
    if (message == NULL || request == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Imrecv",
                      "NULL message or request");
    if (*message == MPI_MESSAGE_NO_PROC) {
        /* a receive from MPI_PROC_NULL */
        *message = MPI_MESSAGE_NULL;
        return PMPI_Irecv(buf, count, type, MPI_PROC_NULL, 0, MPI_COMM_SELF,
                          request);
    }
    i = *message - 1;
    if (i < 0 || i >= mp.n || mp.msg[i] == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Imrecv",
                      "invalid message handle %d", *message);
    err = rk_prepare(buf, count, type, MPI_ANY_SOURCE, MPI_ANY_TAG,
                     mp.comm[i], 0, RK_REQ_RECV, RK_MODE_STD, request,
                     "MPI_Imrecv");
    if (err != MPI_SUCCESS)
        return err;
    m = mp.msg[i];
    mp.msg[i] = NULL;
    *message = MPI_MESSAGE_NULL;
    rk_start_recv_msg(*request, m);
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Imrecv);

int PMPI_Mrecv(void *buf, int count, MPI_Datatype type, MPI_Message *message,
               MPI_Status *status)
{
    RK_MPI_GUARD;
    MPI_Request r;
    int err = PMPI_Imrecv(buf, count, type, message, &r);

    if (err != MPI_SUCCESS)
        return err;
    return PMPI_Wait(&r, status);
}
RK_MPI_ALIAS(Mrecv);
