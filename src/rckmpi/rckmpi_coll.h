/* The interface between the MPI library's core (point-to-point, communicators,
 * datatypes: mpicore) and its collectives and reduction operations (mpicoll). */
#ifndef RCKMPI_COLL_H
#define RCKMPI_COLL_H
#include "mpi.h"

#include <stddef.h>
#include <stdint.h>
/* Point-to-point on comm's collective context: never matches user traffic.
 * tag >= 0. Requests complete with the public MPI_Wait/MPI_Waitall/MPI_Test. */
int rckmpi_coll_send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm);
int rckmpi_coll_recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status *status);
/* A synchronous send (rendezvous whatever its size: the data move only once the receive is
 * posted, straight into its buffer, never through the receiver's unexpected queue). */
int rckmpi_coll_ssend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm);
int rckmpi_coll_isend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request *req);
int rckmpi_coll_irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request *req);
/* Raise error class err on comm (its error handler: fatal aborts with a message naming func;
 * MPI_ERRORS_RETURN returns err). */
int rckmpi_error(MPI_Comm comm, int err, const char *func);
/* MPI_SUCCESS if MPI is initialised and not finalised, else the error (fatal message naming func). */
int rckmpi_check_init(const char *func);
/* MPI_SUCCESS or MPI_ERR_COMM (null/freed/invalid handle), MPI_ERR_TYPE (invalid or uncommitted). */
int rckmpi_comm_check(MPI_Comm comm);   /* also: an intercommunicator gives MPI_ERR_COMM */
int rckmpi_type_check(MPI_Datatype t);
/* The one predefined basic type a datatype is made of and how many of them one item holds
 * (for reductions on derived types); MPI_DATATYPE_NULL if it mixes basic types. Pair types
 * such as MPI_DOUBLE_INT are their own basic type here (n = 1). */
MPI_Datatype rckmpi_type_basic(MPI_Datatype t, int *n);
/* The sequence number of the next non-blocking collective on comm (counted per communicator,
 * the same at every member since collectives start in the same order everywhere): its tags on the
 * collective context are its own, so that several outstanding never match each other's messages. */
unsigned rckmpi_coll_nbc_seq(MPI_Comm comm);
/* 1 when the processes run in host memory without a model of the chip's time (the native
 * backend: every wait a futex sleep and wake-up when the host's CPUs are oversubscribed), else 0
 * (the sim, the mpi backend). The collectives choose their algorithm by it. */
int rckmpi_coll_host_memory(void);
/* The GIC atomic counter the collectives may use (MPI_Barrier on MPI_COMM_WORLD, coll_flat.c):
 * the chip's third counter from the top (SVM takes the last two). With @p old NULL: 0 if the chip
 * has it, else -1. Otherwise increments it, *old its value before; -1 if that failed. */
#define RKC_COUNTER_FROM_TOP 3
int rckmpi_coll_counter(int32_t *old);
/* The job's UEs (MPI_UNIVERSE_SIZE: the world plus the cores spawning can use). */
int rckmpi_coll_universe(void);
/* Slots in the shared window for the collectives (MPI_Allreduce on MPI_COMM_WORLD, coll_flat.c),
 * one per UE, on native only: their size (0: none), and a copy into or out of UE @p ue's slot
 * (0, or -1 when len is larger than a slot or the HAL failed). */
#define RKC_SLOT_BYTES 2112
size_t rckmpi_coll_slot_bytes(void);
int rckmpi_coll_slot_write(int ue, const void *buf, size_t len);
int rckmpi_coll_slot_read(int ue, void *buf, size_t len);
/* The small gather's entries (native, with the slots): a ring of RKC_GSLOT_N entries of up to
 * RKC_GSLOT_DATA bytes per UE. Gather number @p g (1, 2, ... counted alike by every rank) of a UE
 * goes into its entry g mod RKC_GSLOT_N (rckmpi_coll_gslot_put: waits, taking packets, until the
 * root of gather g - RKC_GSLOT_N has read that entry); the root takes it from there
 * (rckmpi_coll_gslot_take: waits until it is written, reads @p len bytes, which must be what was
 * written, and marks the entry read). MPI_SUCCESS or an error class. */
#define RKC_GSLOT_DATA 56
#define RKC_GSLOT_N 256
int rckmpi_coll_gslot_put(unsigned long long g, const void *buf, size_t len);
int rckmpi_coll_gslot_take(int ue, unsigned long long g, void *buf, size_t len);
/* the root's own entry of gather @p g, which it does not use: marked read */
int rckmpi_coll_gslot_root(unsigned long long g);
/* With @p on, the waits to come expect to be long (the HAL's RCK_WAIT_SLEEP: on native with more
 * processes than CPUs they sleep at once, without spinning or yielding first); 0 ends that. */
void rckmpi_coll_wait_long(int on);
/* core internal: progress until the shared window's word at @p off equals @p value (wait.c), and
 * one progress wait that also ends when it does (p2p.c: 1 then, 0 after a packet or with
 * something to send, -1 on failure); the offset of UE @p ue's entry for gather @p g, or of the
 * word that says it was read (@p done; chan.c: 0 without the slots) */
int rk_wait_shm_word(size_t off, uint32_t value, const char *call);
int rk_progress_wait_shm(size_t off, uint32_t value, const char *call);
size_t rk_chan_gslot(int ue, unsigned long long g, int done);
/* Implemented by mpicoll: called from MPI_Init after the communicators exist, and from MPI_Finalize. */
int rckmpi_coll_init(void);
void rckmpi_coll_finalize(void);
#endif
