/*
 * RCCE_comm.h: the collectives of UT Austin's RCCE_comm (RCCE-API.md
 * section 3) for rockcreek. Programs include it beside RCCE.h; the
 * functions are in the same library.
 *
 * Sizes: num counts bytes per UE for scatter, gather, allgather and
 * alltoall (MPI-like: block i of the root's or every UE's buffer belongs
 * to rank i of the communicator); counts[i] counts elements of @p type for
 * reduce_scatter. All calls are collective over @p comm and must be made
 * by every member with the same root, sizes, type and op.
 *
 * RCCE_comm_bcast, RCCE_comm_reduce and RCCE_comm_allreduce take the
 * arguments of RCCE_bcast, RCCE_reduce and RCCE_allreduce and give
 * byte-identical results with faster algorithms (for INT and LONG, whose
 * operations are exact in any order, binomial trees and recursive doubling
 * below 16 KiB; otherwise a pipelined chain in rank order, which keeps
 * RCCE's left-to-right order of combination; MPB multicast for broadcasts
 * from 256 bytes on; docs/IRCCE.md). A program that defines
 * RCCE_COMM_REPLACES_RCCE before including this header gets them under
 * RCCE's names, as when it was linked with the RCCE_comm library.
 *
 * The collectives move data with iRCCE (include/iRCCE.h): as in iRCCE,
 * no collective may start while the calling UE has iRCCE requests
 * outstanding.
 *
 * Return codes are RCCE's: RCCE_SUCCESS; RCCE_ERROR_COMM_UNDEFINED (an
 * invalid communicator); RCCE_ERROR_ID (root not a rank of comm);
 * RCCE_ERROR_TARGET / RCCE_ERROR_SOURCE (a NULL buffer that is needed);
 * RCCE_ERROR_ILLEGAL_TYPE, RCCE_ERROR_ILLEGAL_OP; RCCE_ERROR_MESSAGE_LENGTH
 * (a negative element count); RCCE_ERROR_VAL_UNDEFINED (counts NULL);
 * RCCE_ERROR_ILLEGAL_OP in the gory shape (no library buffers);
 * RCCE_ERROR_MALLOC.
 */
#ifndef RCCE_COMM_H
#define RCCE_COMM_H

#include "RCCE.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push(default) /* exported API: see RCCE.h */

/**
 * The root's @p in holds comm.size blocks of @p num bytes; rank i receives
 * block i into @p out (@p in is read only at the root).
 */
int RCCE_scatter(char *in, char *out, size_t num, int root, RCCE_COMM comm);

/** Rank i's @p num bytes of @p in become block i of the root's @p out. */
int RCCE_gather(char *in, char *out, size_t num, int root, RCCE_COMM comm);

/** Every rank's @p num bytes, block i from rank i, in every @p out. */
int RCCE_allgather(char *in, char *out, size_t num, RCCE_COMM comm);

/** Block j of rank i's @p in becomes block i of rank j's @p out. */
int RCCE_alltoall(char *in, char *out, size_t num, RCCE_COMM comm);

/**
 * Reduce @p in (sum of counts[] elements of @p type on every rank) with
 * @p op element by element, in rank order as RCCE_reduce does; rank i gets
 * the counts[i] elements that start after those of ranks 0..i-1.
 */
int RCCE_reduce_scatter(char *in, char *out, int *counts, int type, int op,
                        RCCE_COMM comm);

/** RCCE_bcast with a binomial tree. */
int RCCE_comm_bcast(char *buf, size_t num, int root, RCCE_COMM comm);

/** RCCE_reduce, same result, faster (see above). */
int RCCE_comm_reduce(char *in, char *out, int num, int type, int op,
                     int root, RCCE_COMM comm);

/** RCCE_allreduce, same result, faster (see above). */
int RCCE_comm_allreduce(char *in, char *out, int num, int type, int op,
                        RCCE_COMM comm);

#ifdef RCCE_COMM_REPLACES_RCCE
#define RCCE_bcast RCCE_comm_bcast
#define RCCE_reduce RCCE_comm_reduce
#define RCCE_allreduce RCCE_comm_allreduce
#endif

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif
