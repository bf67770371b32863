/*
 * rck_chan: Barrelfish-style point-to-point message channels with
 * interrupt notification, over the rockcreek HAL (docs/CHAN.md).
 *
 * A channel joins two UEs and carries typed, variable-size messages both
 * ways, in order. Each direction is a ring of 32-byte message lines in
 * shared DRAM (mapped MPBT), owned by the receiving side: the last word of
 * every line is its sequence number, so the receiver knows a line is new
 * without any other flag, and the receiver writes back how many lines it
 * consumed (a credit word) so the sender never overwrites an unread line.
 * A message takes one line (20 payload bytes) plus one line per further
 * 28 bytes; messages above the channel's inline limit go through a bulk
 * buffer of the receiver in pieces (double-buffered, with flow control),
 * the ring carrying only their header.
 *
 * Notification: how a receiver learns which of its channels have news is
 * its choice, per core (rck_chan_init) or per channel (rck_chan_open_ex):
 *   RCK_CHAN_NOTIFY_RING  the sender appends the 16-bit channel id to a
 *                         ring in the receiver's MPB under the receiver's
 *                         TAS lock and raises a pin interrupt unless one is
 *                         pending; a full ring makes rck_chan_try_send()
 *                         return RCK_ERR_BUSY (nothing was sent: retry);
 *   RCK_CHAN_NOTIFY_TREE  the sender sets the channel's bit in a two-level
 *                         bitmap in the receiver's MPB (same lock, same
 *                         interrupt); it never fills up;
 *   RCK_CHAN_NOTIFY_POLL  nothing: the receiver scans its channels.
 * rck_chan_dispatch() waits for any of them and hands ready channels to
 * their handlers (or returns one). Channels own the HAL's pin interrupt
 * (mailboxes own the GIC one).
 *
 * Binding, without a server: rck_chan_open(peer, port) on both UEs, with
 * the same port, pairs up through a bind line per ordered pair of UEs in
 * the library's shared DRAM; it blocks until the peer opens the same port.
 * Opens between the same two UEs must be made in the same order on both
 * sides (cross-ordered blocking opens deadlock, as any rendezvous).
 *
 * Initialisation is collective and comes before RCCE_init (it reserves the
 * top of every MPB and of the shared window); every UE passes the same
 * rck_chan_attr_t. rck_chan_finalize() comes before RCCE_finalize.
 *
 * All functions return rck_status_t codes (rck/status.h): RCK_OK or a
 * negative error; rck_status_string() names them. Bad arguments give
 * RCK_ERR_INVALID, a closed or stale handle RCK_ERR_STATE; the cause is
 * logged. Not thread-safe: one thread per UE calls the library.
 */
#ifndef RCK_CHAN_H
#define RCK_CHAN_H

#include "rck/status.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push(default) /* exported API: see RCCE.h */

/**
 * A channel handle: an integer (local channel id in the low 16 bits, a
 * generation above), so a handle kept after rck_chan_close() is recognised
 * and refused with RCK_ERR_STATE, never undefined behaviour.
 */
typedef uint32_t rck_chan_t;

/** No channel (never a valid handle). */
#define RCK_CHAN_NONE ((rck_chan_t)0)
/** Channels one UE can have open at once (16-bit channel ids). */
#define RCK_CHAN_MAX_CHANNELS 65536
/** Ports are 0 .. RCK_CHAN_PORTS - 1. */
#define RCK_CHAN_PORTS 65536
/** Largest message, bytes (the bulk path streams it in pieces). */
#define RCK_CHAN_MAX_MSG ((size_t)1 << 30)
/** In rck_chan_open_attr_t: take the core's setting from rck_chan_init. */
#define RCK_CHAN_INHERIT UINT32_MAX

/** How a receiver is told that a channel has news. */
typedef enum {
    RCK_CHAN_NOTIFY_DEFAULT = 0, /* open: the core's kind; init: ring */
    RCK_CHAN_NOTIFY_RING = 1,    /* id ring in the MPB + pin interrupt */
    RCK_CHAN_NOTIFY_TREE = 2,    /* two-level bitmap in the MPB + interrupt */
    RCK_CHAN_NOTIFY_POLL = 3     /* none: the receiver scans */
} rck_chan_notify_t;

/**
 * Per-core settings of rck_chan_init(). Fill with rck_chan_attr_init()
 * and change what you need; every UE must pass the same values (the MPB
 * and shared-DRAM layout follow from them).
 */
typedef struct {
    /** Default notification of channels this core receives on. */
    rck_chan_notify_t notify;
    /** Notification ring: channel ids it holds (2..1024; 0 = no ring).
     *  MPB cost: 2 bytes each, rounded up to lines. Default 64. */
    uint32_t ring_slots;
    /** Notification tree: second-level 32-bit words (1..32; 0 = no tree),
     *  i.e. 32 x tree_words leaf bits (ids share a bit modulo that).
     *  Default 32. */
    uint32_t tree_words;
    /** Message lines of each channel direction (8..1024). Default 64. */
    uint32_t ring_lines;
    /** Bulk buffer of each channel direction, bytes (0 = messages are
     *  limited to the inline size; else 1 KiB .. 16 MiB, a multiple of 64),
     *  allocated at the first large message. Default 16 KiB. */
    uint32_t bulk_bytes;
    /** Largest message sent inline through ring lines (0 = as large as
     *  half the ring allows); larger ones take the bulk path. */
    uint32_t inline_max;
    /** Shared DRAM per UE for the rings and bulk buffers it receives on
     *  (0 = a quarter of the window shared among the UEs, at most 1 MiB). */
    size_t slice_bytes;
} rck_chan_attr_t;

/** Per-channel settings of rck_chan_open_ex() (for the direction this UE
 *  receives on). Fill with rck_chan_open_attr_init(). */
typedef struct {
    rck_chan_notify_t notify; /* RCK_CHAN_NOTIFY_DEFAULT: the core's */
    uint32_t ring_lines;      /* RCK_CHAN_INHERIT: the core's */
    uint32_t bulk_bytes;      /* RCK_CHAN_INHERIT: the core's; 0: none */
} rck_chan_open_attr_t;

/** What rck_chan_info() tells about an open channel. */
typedef struct {
    int peer;                    /* the other UE */
    uint32_t port;
    uint16_t id;                 /* local channel id (notifications) */
    uint16_t peer_id;            /* the peer's id of the same channel */
    rck_chan_notify_t in_notify; /* how this UE is notified */
    rck_chan_notify_t out_notify;/* how this UE notifies the peer */
    uint32_t in_lines, out_lines;/* ring lines of each direction */
    size_t inline_max;           /* largest inline message this UE sends */
    uint32_t out_bulk_bytes;     /* the peer's bulk buffer (0: none) */
    int peer_closed;             /* the peer closed its side */
} rck_chan_info_t;

/** Counters of this UE since rck_chan_init (for reports and benches). */
typedef struct {
    uint64_t sent, received;           /* messages */
    uint64_t bytes_sent, bytes_received;
    uint64_t notifies;                 /* ring or tree notifications made */
    uint64_t irqs_raised;              /* pin interrupts raised */
    uint64_t interrupts;               /* pin interrupts taken */
    uint64_t busy_notify;              /* try_send: notification ring full */
    uint64_t busy_credit;              /* try_send: message ring full */
    uint64_t bulk_pieces_sent, bulk_pieces_received;
    uint64_t dispatch_waits;           /* dispatch blocked in the HAL */
    uint64_t drains;                   /* ring/tree drains that found news */
} rck_chan_stats_t;

/**
 * Message handler, run by rck_chan_dispatch() (not in interrupt context)
 * when its channel has a message, or the peer closed it. It receives with
 * rck_chan_recv()/rck_chan_try_recv() (it may take several messages, or
 * none) and may send, open or close channels.
 * @param [in] ch   the channel.
 * @param [in] arg  the pointer given to rck_chan_set_handler().
 */
typedef void (*rck_chan_handler_t)(rck_chan_t ch, void *arg);

/** Fill @p attr with the defaults. */
void rck_chan_attr_init(rck_chan_attr_t *attr);

/** Fill @p attr with "inherit everything from the core". */
void rck_chan_open_attr_init(rck_chan_open_attr_t *attr);

/**
 * Set up channels on this UE (attaching to the chip if needed): reserves
 * the MPB area (notification ring and tree) and the shared DRAM (bind
 * lines and one slice per UE), maps it MPBT, installs the pin interrupt
 * handler. Collective in the sense that every UE must call it with the
 * same @p attr before RCCE_init; it does not wait for the others.
 * A second call while initialised returns RCK_OK; after
 * rck_chan_finalize() it may be called again with the same attributes.
 * @param [in] attr  settings, or NULL for the defaults.
 * @return RCK_OK; RCK_ERR_INVALID for bad settings; RCK_ERR_BUSY after
 *         RCCE_init; RCK_ERR_NOSPACE if the MPB or window is too small.
 */
rck_status_t rck_chan_init(const rck_chan_attr_t *attr);

/**
 * Close every open channel and drop the interrupt handler. The HAL stays
 * attached (RCCE_finalize or process exit detaches it).
 */
rck_status_t rck_chan_finalize(void);

/** @return this UE's id (after rck_chan_init), or -1. */
int rck_chan_ue(void);
/** @return the number of UEs (after rck_chan_init), or 0. */
int rck_chan_num_ues(void);

/**
 * Open a channel with @p peer on @p port; the peer must open the same
 * port with this UE. Blocks until it does.
 * @param [in]  peer  the other UE (not this one).
 * @param [in]  port  0 .. RCK_CHAN_PORTS - 1.
 * @param [out] ch    the handle, set on success.
 * @return RCK_OK; RCK_ERR_INVALID (bad peer or port, NULL @p ch);
 *         RCK_ERR_NOSPACE (no channel id or slice memory left);
 *         RCK_ERR_STATE before init; the HAL's wait errors
 *         (RCK_ERR_PEER_DEAD, RCK_ERR_DEADLOCK).
 */
rck_status_t rck_chan_open(int peer, uint32_t port, rck_chan_t *ch);

/** rck_chan_open() with per-channel settings (NULL: as rck_chan_open). */
rck_status_t rck_chan_open_ex(int peer, uint32_t port,
                              const rck_chan_open_attr_t *attr,
                              rck_chan_t *ch);

/**
 * Close this side: the peer's receives return RCK_ERR_STATE once they
 * have taken the messages sent before, and its sends fail with
 * RCK_ERR_STATE when they next need credit (messages it sends meanwhile
 * are dropped). Messages still unread here are dropped. Never blocks.
 * @return RCK_OK; RCK_ERR_STATE if @p ch is not open (closed twice,
 *         stale or never opened).
 */
rck_status_t rck_chan_close(rck_chan_t ch);

/**
 * Send a message; waits while the ring is full or, with ring
 * notification, while the peer's notification ring is full. Large
 * messages (above the inline limit) stream through the peer's bulk
 * buffer and return when the peer has taken every piece but the last two.
 * @param [in] ch    an open channel.
 * @param [in] type  user type of the message, delivered with it.
 * @param [in] data  @p len bytes (NULL allowed if @p len is 0).
 * @param [in] len   0 .. RCK_CHAN_MAX_MSG; above the inline limit only if
 *                   the peer has a bulk buffer.
 * @return RCK_OK; RCK_ERR_INVALID; RCK_ERR_STATE (closed handle, or the
 *         peer closed); RCK_ERR_NOSPACE (the peer could not allocate its
 *         bulk buffer); the HAL's wait errors.
 */
rck_status_t rck_chan_send(rck_chan_t ch, uint16_t type, const void *data,
                           size_t len);

/**
 * As rck_chan_send(), but never waits to start: RCK_ERR_BUSY, with
 * nothing sent, when the message ring has no room or the peer's
 * notification ring is full (retry later; stats tell which). A large
 * message, once started, still streams its pieces with flow control.
 */
rck_status_t rck_chan_try_send(rck_chan_t ch, uint16_t type,
                               const void *data, size_t len);

/**
 * Receive the next message of @p ch, waiting for it.
 * @param [in]  ch          an open channel.
 * @param [out] type        the message's type (may be NULL).
 * @param [out] buf         @p cap bytes (NULL allowed if @p cap is 0).
 * @param [in]  cap         room in @p buf.
 * @param [out] len         the message's length.
 * @param [in]  timeout_ns  < 0: no timeout; 0: do not wait.
 * @return RCK_OK; RCK_ERR_TIMEDOUT; RCK_ERR_NOSPACE if the message is
 *         longer than @p cap (it stays in the channel; *len tells its
 *         size); RCK_ERR_STATE (closed handle, or the peer closed and
 *         every message it sent before was taken); RCK_ERR_INVALID.
 */
rck_status_t rck_chan_recv(rck_chan_t ch, uint16_t *type, void *buf,
                           size_t cap, size_t *len, int64_t timeout_ns);

/** As rck_chan_recv() without waiting: RCK_ERR_NOT_FOUND if nothing. */
rck_status_t rck_chan_try_recv(rck_chan_t ch, uint16_t *type, void *buf,
                               size_t cap, size_t *len);

/**
 * Look at the next message without taking it.
 * @param [out] type  its type (may be NULL).
 * @param [out] len   its length.
 * @return RCK_OK; RCK_ERR_NOT_FOUND if none; RCK_ERR_STATE.
 */
rck_status_t rck_chan_peek(rck_chan_t ch, uint16_t *type, size_t *len);

/**
 * Install the handler rck_chan_dispatch() calls for @p ch (NULL: the
 * channel is returned by rck_chan_dispatch() instead).
 */
rck_status_t rck_chan_set_handler(rck_chan_t ch, rck_chan_handler_t handler,
                                  void *arg);

/**
 * Wait until channels of this UE have messages, then run the handlers of
 * the ready channels (each at most once per call) and stop at the first
 * ready channel without a handler, returned in @p ready. Readiness is
 * level-triggered: a channel still holding a message is reported again by
 * the next call.
 * @param [in]  timeout_ns  < 0: no timeout; 0: look once.
 * @param [out] ready       a ready channel without a handler, or
 *                          RCK_CHAN_NONE if only handlers ran (may be
 *                          NULL if every channel has a handler).
 * @return RCK_OK; RCK_ERR_TIMEDOUT; RCK_ERR_STATE (not initialised, or no
 *         channel open); RCK_ERR_INVALID if @p ready is NULL and a channel
 *         without a handler has a message; the HAL's wait errors.
 * Handlers must not call rck_chan_dispatch themselves.
 */
rck_status_t rck_chan_dispatch(int64_t timeout_ns, rck_chan_t *ready);

/** Describe an open channel. */
rck_status_t rck_chan_info(rck_chan_t ch, rck_chan_info_t *info);

/** This UE's counters (zeros before rck_chan_init). */
void rck_chan_stats(rck_chan_stats_t *stats);

/** @return a static name of a notification kind ("ring", "tree", ...). */
const char *rck_chan_notify_name(rck_chan_notify_t kind);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif
