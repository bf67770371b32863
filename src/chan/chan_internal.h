/*
 * rck_chan internals: layout, wire format, local state.
 *
 * LAYOUT. rck_chan_init reserves, identically on every UE:
 *   - at the top of every MPB (rck_hal_mpb_reserve), at mpb_off:
 *       line 0   header: HEAD (ids ever appended, senders), TAIL (ids
 *                taken, receiver), PENDING (an interrupt was raised and
 *                not drained yet), OVERFLOW (a notification was dropped:
 *                rescan every channel), TOP (tree level 1: bit w set =
 *                tree word w may be non-zero)
 *       ring     ring_slots 16-bit channel ids, whole lines
 *       tree     tree_words 32-bit words (level 2), whole lines
 *   - at the top of the shared window (rck_hal_shm_reserve, 4 KiB
 *     aligned), at shm_off, mapped MPBT by every UE:
 *       bind     nues x nues lines; line (a, b) is written by a only
 *       slices   one per UE (slice_bytes), homed on the memory controller
 *                nearest the UE's core; UE u allocates there the blocks of
 *                the channel directions it receives on.
 *   All offsets inside the library's window part are relative to shm_off
 *   (32 bits).
 *
 * BLOCK of one channel direction (owner = its receiver R, writer = its
 * sender S), in R's slice:
 *   line ACK (written by R): lines consumed, R closed, bulk pieces
 *                consumed, bulk buffer offset (0 none yet, ~0 failed), its
 *                size;
 *   line TX  (written by S): S closed, bulk pieces written;
 *   ring     ring lines of 32 bytes; the last word of each is its
 *            sequence number.
 *
 * RING INVARIANTS (one direction):
 *   - line number n (0-based, counted over the channel's life) lives in
 *     slot n % lines and carries seq n + 1 (mod 2^32). A slot holds the
 *     seq of its previous lap (or 0) until rewritten, never the expected
 *     value, so "seq == expected" is the only validity test.
 *   - S never has more than lines - 1 unacknowledged lines in the ring:
 *     one slot is kept for the close marker, which needs no credit.
 *   - a message's lines are written in one pass with its first line's seq
 *     word set to ~seq, then that word alone: once R sees the first line
 *     valid, the whole message is there (two HAL writes are ordered; the
 *     bytes of one are not, on a host).
 *   - S marks a message ACKREQ when it leaves more than half the usable
 *     lines unacknowledged; R writes its credit word on every ACKREQ
 *     message and whenever half the ring is unacknowledged. An inline
 *     message takes at most half the usable lines, so a sender that finds
 *     no room has sent an ACKREQ message whose ack will give it room.
 *
 * BULK (one direction): pieces of bulk_bytes / 2, piece k in half k % 2;
 *   S writes piece k only when R has consumed piece k - 2 (ACK bulk count
 *   >= k - 1), then TX bulk count = k + 1; R reads piece k when TX bulk
 *   count >= k + 1, then writes ACK bulk count = k + 1. Counts are over
 *   the channel's life. R allocates the buffer at the first bulk header.
 *
 * NOTIFICATION RING / TREE (in R's MPB): changed only under R's TAS lock,
 *   by senders (append / set bits; raise the pin interrupt when PENDING
 *   was 0, then set it) and by R (take everything, clear PENDING, TOP and
 *   the tree words). Every id appended after a drain finds PENDING 0 and
 *   raises an interrupt, or finds a pin already pending: R's next wait for
 *   interrupts returns. rck_chan_dispatch always drains before it waits,
 *   and waits only if no interrupt was taken since its drain began.
 *
 * BIND LINE (a, b), written by a: words 0-5 a's current offer to b (port,
 *   id | kind << 16, block offset, ring lines, bulk bytes, ring slots |
 *   tree words << 16 to check the MPB layouts agree), word 6 how many
 *   of b's offers a has consumed, word 7 how many offers a has made to b.
 *   a makes a new offer only when b has consumed the previous one, so an
 *   offer is never overwritten unread; offers a consumes for other ports
 *   wait in a local stash for a later open.
 *
 * CLOSED CHANNELS: the handle's generation changes at close. The block
 *   stays quarantined until the peer's TX "closed" word says it has
 *   stopped writing into it; only then is the memory reused.
 */
#ifndef RCK_CHAN_INTERNAL_H
#define RCK_CHAN_INTERNAL_H

#include "rck_chan.h"

#include "rck/hal.h"
#include "rck/log.h"

#include <stddef.h>
#include <stdint.h>

#define CHAN_LINE 32u
#define CHAN_SEQ_OFF 28u        /* the seq word of a line */
#define CHAN_FIRST_PAYLOAD 20u  /* payload bytes of a message's first line */
#define CHAN_NEXT_PAYLOAD 28u   /* payload bytes of each further line */

/* First line: u16 type, u8 kind, u8 flags, u32 len, 20 bytes, u32 seq. */
enum { MSG_INLINE = 1, MSG_BULK = 2, MSG_CLOSE = 3 };
enum { MSG_F_ACKREQ = 1 };

/* Block lines and words (byte offsets in the block). */
enum {
    BLK_ACK = 0,
    ACK_LINES = 0,
    ACK_CLOSED = 4,
    ACK_BULK = 8,
    ACK_BULK_OFF = 12,
    ACK_BULK_BYTES = 16,
    BLK_TX = 32,
    TX_CLOSED = 32,
    TX_BULK = 36,
    BLK_RING = 64
};
#define BULK_OFF_FAILED UINT32_MAX
#define CHAN_NO_WORD UINT32_MAX

/* MPB header words (byte offsets from mpb_off). */
enum {
    MPB_HEAD = 0,
    MPB_TAIL = 4,
    MPB_PENDING = 8,
    MPB_OVERFLOW = 12,
    MPB_TOP = 16,
    MPB_RING = 32
};

/* Limits of the settings. */
#define CHAN_RING_SLOTS_MAX 1024u
#define CHAN_TREE_WORDS_MAX 32u
#define CHAN_LINES_MIN 8u
#define CHAN_LINES_MAX 1024u
#define CHAN_BULK_MIN 1024u
#define CHAN_BULK_MAX (16u << 20)
#define CHAN_SLICE_MIN (16u << 10)
#define CHAN_SLICE_MAX_DEFAULT ((size_t)1 << 20)
/* Most polled channels one dispatch wait watches word by word; more are
 * rescanned every CHAN_POLL_RESCAN_NS. */
#define CHAN_WAIT_MAX 64
#define CHAN_POLL_RESCAN_NS 20000

enum { CH_FREE = 0, CH_OPEN = 1 };

/** One channel as this UE sees it. */
typedef struct {
    uint16_t gen;         /* handle generation (never 0 for a live one) */
    uint8_t state;        /* CH_FREE, CH_OPEN */
    uint8_t in_kind;      /* how this UE is notified (rck_chan_notify_t) */
    uint8_t out_kind;     /* how this UE notifies the peer */
    uint8_t peer_closed;  /* the close marker or TX closed was seen */
    uint8_t head_valid;   /* head_line holds line rx_count, valid */
    uint8_t polled_idx_set;
    uint8_t ring_was_full; /* the last notification found the ring full */
    int peer, peer_core;
    uint32_t port;
    uint16_t peer_id;
    uint32_t polled_idx;  /* index in the polled list */
    /* inbound: this UE's block */
    uint32_t in_blk, in_blk_bytes, in_lines, in_bulk_want;
    uint32_t in_bulk_off, in_bulk_bytes; /* 0 until allocated */
    uint32_t rx_count, rx_acked, rx_pieces;
    /* outbound: the peer's block */
    uint32_t out_blk, out_lines, out_bulk_bytes;
    uint32_t out_bulk_off; /* 0 until the peer published it */
    uint32_t tx_count, tx_acked, tx_pieces, tx_pieces_acked;
    size_t inline_max;
    rck_chan_handler_t handler;
    void *arg;
    unsigned char head_line[CHAN_LINE];
} chan_t;

/** A free or quarantined extent of this UE's slice. */
typedef struct {
    uint32_t off, len;
} chan_extent_t;

/** A block waiting for its writer to close (then freed). */
typedef struct {
    uint32_t blk, blk_bytes, bulk_off, bulk_bytes;
} chan_quar_t;

/** An offer consumed from a peer for a port not opened yet. */
typedef struct chan_stash {
    struct chan_stash *next;
    int peer;
    uint32_t w[6];
} chan_stash_t;

#define CHAN_CHUNK 256 /* channels per table chunk */

/** The library's state on this UE (one per process). */
typedef struct {
    rck_hal_t *hal;
    int initialized;
    int layout_done;        /* reservations made (survive finalize) */
    int lost;               /* the HAL went down under the channels */
    rck_chan_attr_t attr;
    rck_chan_attr_t want;   /* rck_chan_init's, for the descriptor's init */
    int me, nues;
    /* layout */
    uint32_t mpb_off, mpb_bytes, tree_off;
    size_t shm_off, shm_bytes, bind_bytes, slice_bytes;
    /* channels */
    chan_t *chunk[RCK_CHAN_MAX_CHANNELS / CHAN_CHUNK];
    uint32_t next_id;       /* ids below it were used at least once */
    uint16_t *free_ids;
    uint32_t nfree_ids;
    uint32_t nopen, nnotified; /* open channels; of them ring/tree */
    /* polled channels (ids) */
    uint16_t *polled;
    uint32_t npolled, polled_cap;
    /* ready set: FIFO of ids + membership bitmap */
    uint16_t *ready_q;
    uint32_t ready_head, ready_n;
    uint8_t *ready_bits;
    volatile int irq_flag;  /* set by the pin handler */
    /* slice allocator */
    chan_extent_t *freel;
    uint32_t nfree, free_cap;
    chan_quar_t *quar;
    uint32_t nquar, quar_cap;
    /* binding, per peer */
    uint32_t *offers_made, *offers_taken;
    uint8_t *bind_loaded;
    chan_stash_t *stash;
    /* scratch for one inline message, sent and received */
    unsigned char *scratch, *rx_scratch;
    rck_chan_stats_t stats;
} chan_core_t;

extern chan_core_t rck__chan;
/* The channels' library id (chan_desc.c, rck/lib.h). */
extern int rck__chan_lib;

/* chan.c */
/**
 * Resolve a handle (logs why not): RCK_ERR_INVALID if it never was one,
 * RCK_ERR_STATE if its channel is closed or not initialised.
 */
rck_status_t rck__chan_get(chan_core_t *c, rck_chan_t h, const char *what,
                           chan_t **out);
/** The channel with local id @p id, or NULL if that id was never used. */
chan_t *rck__chan_by_id(chan_core_t *c, uint32_t id);
rck_chan_t rck__chan_handle(const chan_t *ch, uint32_t id);
rck_status_t rck__chan_ready_check(chan_core_t *c, const char *what);
/** Allocate @p len bytes of this UE's slice (whole lines). */
rck_status_t rck__chan_alloc(chan_core_t *c, uint32_t len, uint32_t *off);
void rck__chan_free(chan_core_t *c, uint32_t off, uint32_t len);
/** Shared-window offset of library-relative offset @p rel. */
static inline size_t rck__chan_shm(const chan_core_t *c, uint32_t rel)
{
    return c->shm_off + rel;
}

/* chan_msg.c */
/** Read the line at library offset @p rel (after CL1INVMB). */
rck_status_t rck__chan_read(chan_core_t *c, uint32_t rel, void *dst,
                            size_t len);
rck_status_t rck__chan_write(chan_core_t *c, uint32_t rel, const void *src,
                             size_t len);
rck_status_t rck__chan_write32(chan_core_t *c, uint32_t rel, uint32_t v);
/**
 * Wait until the counter at byte @p word of the line at library offset
 * @p line reaches @p target (it only grows; compared mod 2^32), or the
 * word at byte @p closed_word of the same line (CHAN_NO_WORD: none)
 * becomes non-zero. Serves notifications while it waits.
 * @param [out] closed  1 if the closed word ended it (counter short).
 * @param [out] value   the counter's last value read (may be NULL).
 */
rck_status_t rck__chan_wait_ge(chan_core_t *c, uint32_t line, uint32_t word,
                               uint32_t target, uint32_t closed_word,
                               int64_t timeout_ns, int *closed,
                               uint32_t *value);
/**
 * One library wait: rck_hal_wait on @p conds, also woken by interrupts
 * when this UE has notified channels; an interrupt drains the
 * notifications (so senders blocked on a full ring go on) and returns
 * RCK_OK for the caller to look again.
 */
rck_status_t rck__chan_wait(chan_core_t *c, const rck_hal_cond_t *conds,
                            int n, int64_t timeout_ns);
/** Deadline helpers: virtual time on sim. */
double rck__chan_now(chan_core_t *c);
int64_t rck__chan_left(chan_core_t *c, double deadline);
/** @return non-zero if @p ch has a message (or close marker) waiting;
 *  reads its head line into the channel's cache. */
int rck__chan_has_msg(chan_core_t *c, chan_t *ch);
/** Write the close marker and the closed words of @p ch. */
void rck__chan_send_close(chan_core_t *c, chan_t *ch);

/* chan_notify.c */
/**
 * Notify the receiver of @p ch, holding its TAS lock: append the peer's id
 * of the channel to its ring, or set its tree bits, and set PENDING.
 * @param [in]  overflow_ok  a full ring sets OVERFLOW instead of failing.
 * @param [out] raise        1 if the caller must raise the pin interrupt
 *                           (after writing the message, before unlocking).
 * @param [out] tail         the ring's TAIL when full (may be NULL).
 * @return RCK_OK; RCK_ERR_BUSY if the ring is full.
 */
rck_status_t rck__chan_notify_locked(chan_core_t *c, chan_t *ch,
                                     int overflow_ok, int *raise,
                                     uint32_t *tail);
/** @return non-zero if the peer's notification ring looks full (read
 *  without its lock: a hint); *tail = its TAIL then. */
int rck__chan_ring_full(chan_core_t *c, chan_t *ch, uint32_t *tail);
/** Drain when the notification ring is at least half full (receivers
 *  that take messages without rck_chan_dispatch keep it from filling). */
void rck__chan_drain_if_busy(chan_core_t *c);
/** Take every notification waiting in this UE's MPB into the ready set. */
rck_status_t rck__chan_drain(chan_core_t *c);
void rck__chan_ready_add(chan_core_t *c, uint32_t id);
/* The descriptor's hooks (chan_desc.c): the pin handler, attach, leave. */
void rck__chan_irq(rck_hal_t *hal, rck_irq_kind_t kind, int sender,
                   void *arg);
rck_status_t rck__chan_attach(rck_hal_t *hal);
void rck__chan_fini(rck_hal_t *hal, rck_lib_fini_why_t why);
void rck__chan_polled_add(chan_core_t *c, chan_t *ch, uint32_t id);
void rck__chan_polled_remove(chan_core_t *c, chan_t *ch);

#endif
