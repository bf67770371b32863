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
    uint64_t pages_alloced, pages_mapped; /* LUT pages (below) */
} rck_snetq_stats_t;
void rck_snetq_stats(rck_snetq_stats_t *stats);

/*
 * LUT pages (docs/SNET.md, "Long fields through the LUTs"): the S-Net
 * layer's single-copy and remap modes. A UE allocates long data in runs of
 * its own private 16 MiB pages (its LUT slots 0x01..0x28 of the default
 * map, seen through its LUT window); another UE that is sent the run's LUT
 * entries writes them into free slots of its own LUT (0x29..0x7f) and
 * reads the owner's bytes in place through its window.
 */

/** @return 1 if this UE can use LUT pages (scc transport up, a LUT
 *  window, not sequestered), else 0 (@p why, if not NULL, says why). */
int rck_snetq_pages_usable(const char **why);
/**
 * A run of whole own pages for @p bytes (> 0): @p addr its address in the
 * window, @p run its number (for _free and _entries).
 * @return RCK_OK; RCK_ERR_NOSPACE when no run of that many free pages is
 *         left (not logged: the caller falls back); RCK_ERR_UNSUPPORTED
 *         when pages are not usable; RCK_ERR_INVALID for 0 bytes.
 */
rck_status_t rck_snetq_page_alloc(size_t bytes, void **addr, int *run);
/** Give run @p run back to the pool. */
void rck_snetq_page_free(int run);
/** The LUT entries of run @p run (at most @p max), for another UE.
 *  @return the number of entries, or -1 for a bad run. */
int rck_snetq_page_entries(int run, uint32_t *entries, int max);
/**
 * Show the @p n pages @p entries name in @p n free consecutive slots of
 * this UE's LUT (rck_hal_lut_write); @p addr: where they begin, @p map: the
 * mapping's number for _unmap. @p hold: 1 for a mapping kept (remap:
 * slots 0x29..0x57), 0 for one undone at once (a copy: 0x58..0x7f, always
 * room for a run of the pool's size when the previous one was unmapped).
 * @return RCK_OK; RCK_ERR_NOSPACE when no n free slots are left (not
 *         logged); RCK_ERR_INVALID for an entry the LUT refuses.
 */
rck_status_t rck_snetq_map(const uint32_t *entries, int n, int hold,
                           void **addr, int *map);
/** Free the slots of mapping @p map (they keep showing the pages until
 *  the next _map reuses them). */
void rck_snetq_unmap(int map);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif
