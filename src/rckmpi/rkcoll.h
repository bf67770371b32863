/* Internal interface of the collectives and reduction operations
 * (coll_*.c, op.c; docs/MPI-COLLECTIVES.md). Built only on rckmpi_coll.h
 * and the public MPI calls. */
#ifndef RKCOLL_H
#define RKCOLL_H
#include "rckmpi_coll.h"
#include "rckmpi_pmpi.h"
#include <stddef.h>

/* op.c */
/* MPI_SUCCESS, or MPI_ERR_OP if op is not a valid operation for type
 * (checked without raising: the caller raises on its communicator). */
int rkop_check(MPI_Op op, MPI_Datatype type);
/* inout[i] = in[i] op inout[i] for count items of type (valid pair). */
int rkop_apply(MPI_Op op, const void *in, void *inout, int count,
               MPI_Datatype type);
int rkop_commutative(MPI_Op op);

/* coll_util.c */
/* a buffer for count items of type: *base to free, returns the address
 * to use as the buffer (true lower bound accounted for) */
void *rkc_tmpbuf(int count, MPI_Datatype type, void **base);
/* copy count items of type from src to dst (same type both sides) */
void rkc_copy(const void *src, int scount, MPI_Datatype stype, void *dst,
              int rcount, MPI_Datatype rtype);
/* address of item i of a buffer of type */
char *rkc_at(const void *buf, MPI_Aint i, MPI_Datatype type);
/* common argument checks: init, comm; returns the error class or 0 */
int rkc_begin(MPI_Comm comm, const char *func, int *rank, int *size);
int rkc_check_buf(MPI_Comm comm, const char *func, const void *buf,
                  int count, MPI_Datatype type);
int rkc_check_root(MPI_Comm comm, const char *func, int root, int size);
int rkc_check_op(MPI_Comm comm, const char *func, MPI_Op op,
                 MPI_Datatype type);

/* tags of the collective context: one per operation, so that an
 * operation's messages never meet another's even if ranks run ahead */
enum {
    RKC_TAG_BARRIER = 1, RKC_TAG_BCAST, RKC_TAG_GATHER, RKC_TAG_SCATTER,
    RKC_TAG_ALLGATHER, RKC_TAG_ALLTOALL, RKC_TAG_REDUCE, RKC_TAG_ALLREDUCE,
    RKC_TAG_SCAN, RKC_TAG_RSCATTER, RKC_TAG_IBARRIER, RKC_TAG_IBCAST,
    RKC_TAG_IALLREDUCE
};

/* the non-blocking collectives' tags: RKC_TAG_NBC + RKC_NBC_TAGS times
 * the operation's sequence number on its communicator
 * (rckmpi_coll_nbc_seq) modulo RKC_NBC_SEQS, plus a step's own offset
 * below RKC_NBC_TAGS (0 but in the neighbourhood collectives on Cartesian
 * grids): never one of the tags above, never another outstanding
 * operation's */
#define RKC_TAG_NBC 0x1000
#define RKC_NBC_SEQS 0x400000
#define RKC_NBC_TAGS 64

/* coll_sched.c: a non-blocking collective is a schedule of rounds, run by
 * a generalized request (rckmpi_greq.h). A round's sends and receives are
 * posted together, in the order they were added; once all are done its
 * local steps run in order (copies, reductions), then the next round
 * starts. A round with no transfers runs its local steps at once. The
 * adding calls record a lack of memory, which rkc_sched_start reports. */
typedef struct rkc_sched rkc_sched_t;
/* a schedule on @p comm with its own tag (NULL: no memory) */
rkc_sched_t *rkc_sched_new(MPI_Comm comm);
void rkc_sched_send(rkc_sched_t *s, const void *buf, int count,
                    MPI_Datatype type, int peer);
void rkc_sched_recv(rkc_sched_t *s, void *buf, int count, MPI_Datatype type,
                    int peer);
/* the same with the operation's tag + @p tagoff (< RKC_NBC_TAGS) */
void rkc_sched_send_tag(rkc_sched_t *s, const void *buf, int count,
                        MPI_Datatype type, int peer, int tagoff);
void rkc_sched_recv_tag(rkc_sched_t *s, void *buf, int count,
                        MPI_Datatype type, int peer, int tagoff);
/* dst (rcount of rtype) = src (scount of stype), as rkc_copy */
void rkc_sched_copy(rkc_sched_t *s, const void *src, int scount,
                    MPI_Datatype stype, void *dst, int rcount,
                    MPI_Datatype rtype);
/* inout = in op inout (count items of type) */
void rkc_sched_reduce(rkc_sched_t *s, MPI_Op op, const void *in, void *inout,
                      int count, MPI_Datatype type);
/* the current round ends here */
void rkc_sched_round(rkc_sched_t *s);
/* a buffer for count items of type, freed with the schedule */
void *rkc_sched_tmp(rkc_sched_t *s, int count, MPI_Datatype type);
/* start it as *req (the error raised on comm, and s freed, on failure) */
int rkc_sched_start(rkc_sched_t *s, MPI_Request *req, const char *func);
void rkc_sched_free(rkc_sched_t *s);

/* internal (no argument checks) */
int rkc_bcast(void *buf, int count, MPI_Datatype type, int root,
              MPI_Comm comm);
/* the same with the messages' tag (an operation's own) */
int rkc_bcast_tag(void *buf, int count, MPI_Datatype type, int root,
                  MPI_Comm comm, int tag);
/* send @p count items of @p buf from the rank @p rel places after @p root
 * to its children in MPI_Bcast's tree (k-ary, or binomial when the
 * fan-out is 0): the second half of rkc_bcast_tag, and how the counter
 * barrier's and allreduce's releases go down (coll_flat.c) */
int rkc_bcast_children(const void *buf, int count, MPI_Datatype type,
                       int tag, int root, int rel, int size, MPI_Comm comm);
int rkc_reduce(const void *sendbuf, void *recvbuf, int count,
               MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm);
int rkc_gatherv(const void *sendbuf, int scount, MPI_Datatype stype,
                void *recvbuf, const int rcounts[], const int displs[],
                MPI_Datatype rtype, int root, MPI_Comm comm, int tag);
int rkc_scatterv(const void *sendbuf, const int scounts[], const int displs[],
                 MPI_Datatype stype, void *recvbuf, int rcount,
                 MPI_Datatype rtype, int root, MPI_Comm comm);
/* coll.c: a gather's (and gatherv's) blocks of at least
 * rkc_gather_sync_min() bytes go synchronously (rckmpi_coll_ssend):
 * RCK_MPI_GATHER_SYNC, auto: RKC_GATHER_SYNC_HOST on native, never on the
 * sim and the mpi backend */
#define RKC_GATHER_SYNC_HOST 32768
long rkc_gather_sync_min(void);
/* coll_tree.c: binomial gather/scatter of uniform blocks; used for
 * blocks of at most RKC_TREE_MAX bytes */
#define RKC_TREE_MAX 128
/* a gather's on sccmpb-ext, where 47 direct senders contend for the
 * root's gEWS (measured: docs/MPI-COLLECTIVES.md) */
#define RKC_TREE_MAX_EXT_GATHER 4096
int rkc_tree_gather(const void *sendbuf, int scount, MPI_Datatype stype,
                    void *recvbuf, int rcount, MPI_Datatype rtype, int root,
                    MPI_Comm comm);
int rkc_tree_scatter(const void *sendbuf, int scount, MPI_Datatype stype,
                     void *recvbuf, int rcount, MPI_Datatype rtype, int root,
                     MPI_Comm comm);
/* a collective's setting "auto|N" (RCK_<name>): N, or -1 for auto (the
 * launcher checked the value before the run) */
long rkc_setting_auto(const char *name);

/* MPI_Bcast's tree (and the answers of the flat barrier and allreduce,
 * and the broadcast of the reduce-then-broadcast allreduce): 0 binomial,
 * k a k-ary tree (RCK_MPI_BCAST_FANOUT; auto: RKC_BCAST_FANOUT_HOST on
 * native, where the root's sends are what its caller waits for, the
 * binomial tree on every model of the chip). docs/MPI.md, "The
 * broadcast's root". */
#define RKC_BCAST_FANOUT_HOST 2
int rkc_bcast_fanout(void);
/* coll_flat.c: every rank to rank 0 and back, one wait per rank: the
 * barrier and the allreduce of vectors up to RKC_ALLREDUCE_RD_MAX bytes up
 * to rkc_flat_max() processes (RCK_MPI_COLL_FLAT; auto: RKC_FLAT_MAX_HOST
 * on the native backend, 0 elsewhere) */
#define RKC_FLAT_MAX_HOST 1024
int rkc_flat_max(void);
int rkc_flat_barrier(MPI_Comm comm);
/* the counter barrier (coll_flat.c): whether @p comm takes it
 * (RCK_MPI_BARRIER_COUNTER; auto: MPI_COMM_WORLD on native when no process
 * can be spawned), and the barrier */
int rkc_counter_barrier_ok(MPI_Comm comm);
int rkc_counter_barrier(MPI_Comm comm);
/* the counter allreduce (coll_flat.c): MPI_COMM_WORLD when it takes the
 * counter barrier and the packed vector fits a slot of the shared window
 * (rckmpi_coll_slot_bytes) */
int rkc_counter_allreduce_ok(MPI_Comm comm, int count, MPI_Datatype type);
int rkc_counter_allreduce(void *recvbuf, int count, MPI_Datatype type,
                          MPI_Op op, MPI_Comm comm);
/* coll_slot.c: MPI_Gather's blocks through the shared window's entries
 * (rckmpi_coll_gslot_put/take): the largest block that takes them on
 * @p comm (0: none; RCK_MPI_GATHER_SLOTS, auto RKC_GSLOT_DATA; only where
 * the counter barrier is taken), and the gather */
long rkc_slot_gather_max(MPI_Comm comm);
/* ... on communicators of at most this many processes (beyond, the tree) */
#define RKC_GSLOT_PROCS 16
int rkc_slot_gather(const void *sendbuf, int scount, MPI_Datatype stype,
                    void *recvbuf, int rcount, MPI_Datatype rtype, int root,
                    MPI_Comm comm);
int rkc_flat_allreduce(void *recvbuf, int count, MPI_Datatype type,
                       MPI_Op op, MPI_Comm comm);
#endif
