/*
 * rck_snetq: the S-Net runtime's "scc" distribution layer's transport
 * (docs/SNET.md, "Across the chip"): messages of any length from one UE to
 * another through a ring in the receiver's MPB.
 *
 *   every core's MPB holds a header line (read position, write position,
 *   a "handling" flag the receiver sets while it drains, and this core's
 *   "slab busy" word) and a ring of 32-byte lines after it, reserved at
 *   the top of the MPB (rck_snetq_init must run before RCCE_init);
 *
 *   a sender takes the receiver's test-and-set lock, appends a message if
 *   the ring has room, releases the lock and raises a GIC interrupt only
 *   if the receiver is not already draining; a full ring makes it wait (a
 *   HAL wait, no spin) for the receiver to move its read position, and it
 *   keeps draining its own ring meanwhile (queued locally), so two UEs
 *   sending to each other cannot deadlock;
 *
 *   a message longer than half the ring and up to 64 KiB goes through it in
 *   pieces (reassembled per sender); a longer one is not copied through
 *   it: the sender
 *   writes it (in pieces of at most its slab) into its own slab of shared
 *   DRAM and sends a reference (offset, length); the receiver copies the
 *   piece out and frees the slab by clearing the sender's "slab busy"
 *   word (with an interrupt). Shared DRAM: one slab per UE, reserved at
 *   the top of the shared window.
 *
 * Messages from one sender arrive in the order they were sent. All
 * functions return rck_status_t codes (rck/status.h).
 */
#ifndef RCK_SNETQ_H
#define RCK_SNETQ_H

#include "rck/status.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push(default) /* exported API: see RCCE.h */

/** Set up this core's ring and slab (attaching to the chip if needed).
 *  Idempotent. Must precede RCCE_init on every UE. */
rck_status_t rck_snetq_init(void);

/** Tear down (messages not received are dropped). */
rck_status_t rck_snetq_finalize(void);

/** @return this UE's id, or -1 before rck_snetq_init. */
int rck_snetq_ue(void);
/** @return the number of UEs, or 0 before rck_snetq_init. */
int rck_snetq_num_ues(void);

/**
 * Send @p len bytes (two parts, sent as one message: @p hdr then
 * @p data; either may be empty) to UE @p dest (not this UE). Returns when
 * the message is in the receiver's ring or (long messages) when the
 * receiver has copied its last piece.
 * @return RCK_OK; RCK_ERR_INVALID (bad UE, NULL with a length);
 *         RCK_ERR_STATE before init; the wait's errors (RCK_ERR_PEER_DEAD,
 *         RCK_ERR_DEADLOCK).
 */
rck_status_t rck_snetq_send(int dest, const void *hdr, size_t hlen,
                            const void *data, size_t len);

/**
 * Receive the next message from any UE (the oldest one queued locally, else
 * the ring's next), waiting (HAL wait) for one.
 * @param [out] src   sending UE.
 * @param [out] data  the message (malloc'd, the caller frees it).
 * @param [out] len   its length.
 * @param [in] timeout_ns  < 0: no timeout.
 * @return RCK_OK, RCK_ERR_TIMEDOUT, or the wait's errors.
 */
rck_status_t rck_snetq_recv(int *src, void **data, size_t *len,
                            int64_t timeout_ns);

/** Counters of this UE since rck_snetq_init. */
typedef struct {
    uint64_t sent, received, bytes_sent, by_reference, ring_full_waits,
        interrupts_raised;
} rck_snetq_stats_t;
void rck_snetq_stats(rck_snetq_stats_t *stats);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif
