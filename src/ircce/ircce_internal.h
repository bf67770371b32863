/*
 * iRCCE internals shared by the files of src/ircce.
 *
 * INVARIANTS (read before touching the engine in ircce.c):
 *
 * Wire format. iRCCE uses RCCE's communication buffer (rcce.combuf_off,
 * rcce.combuf_len) and RCCE's flags: sent[S] in R's MPB, ready[R] in S's
 * MPB. A piece travels exactly as with RCCE_send: S writes it into its own
 * combuf, sets sent[S] at R to 1; R clears it, copies the piece out and
 * sets ready[R] at S to 1; S clears that and goes on. So RCCE_send and
 * RCCE_recv interoperate with iRCCE's plain messages.
 *
 * With whole-line flags (every shape but SINGLEBITFLAGS) the rest of the
 * sent line carries iRCCE's framing, which RCCE never reads or writes:
 *   word 1 = RCK_IRCCE_HDR_MAGIC | kind, words 2,3 = message length
 *     (written by an iRCCE sender before the first piece's flag; word 0 is
 *     then 1, as RCCE expects), or
 *   word 0 = RCK_IRCCE_INLINE_BASE + len, words 1..7 = len <= 28 payload
 *     bytes (a tagged message of issend/ssend; only iRCCE receives it).
 * Word 1 is non-magic whenever no framed message from S to R is in flight:
 * the sender clears it (a remote store) as soon as the first piece is
 * acknowledged, i.e. after the receiver has read the framing. A message
 * without framing (RCCE_send, iRCCE_msend) is therefore recognised as such.
 *
 * Collective traffic. A message sent inside a collective (RCCE's bcast,
 * reduce, allreduce; iRCCE_bcast; RCCE_comm's collectives: rcce.coll > 0
 * when posted) has RCK_IRCCE_HDR_COLL set in word 1 (RCCE's plain ones:
 * RCK_RCCE_COLL_MARK, see rcce_internal.h). Any-source receives and probes
 * never bind to such a message: a UE that finished its point-to-point
 * traffic may already be sending its part of the next collective while
 * this UE still has any-source receives to match (issue 9). A blocked
 * any-source wait waits on word 1 of such a source (it changes only after
 * this UE took the message), never spins on its set flag. With
 * SINGLEBITFLAGS there is no word 1: the mark, and this protection, are
 * missing, as in the original iRCCE.
 *
 * Kinds: PLAIN pieces use the whole chunk at combuf offset 0. PIPE pieces
 * are half a chunk (line-rounded) and alternate between the two halves; the
 * receiver acknowledges a piece before copying it out (so the sender fills
 * the other half meanwhile) except the last, acknowledged after the copy,
 * so a completed send means the whole message has been read.
 *
 * Queues. One FIFO of send requests: only its head is active (has a piece
 * in flight); sends complete in issue order. One FIFO of receive requests
 * per source (only the head may consume pieces from that source) and one
 * FIFO of any-source requests; the head of the latter is bound to a source
 * whose own queue is empty and whose sent flag is set, searching round
 * robin from the source after the last one bound, so no sender starves.
 *
 * Progress happens only inside iRCCE calls. A test advances only its own
 * request (and only if it is at the head of its queue); push, wait and
 * every blocking call advance every queue. Blocking is rck_hal_wait on the
 * words that could let some queued request progress, never a polling loop.
 *
 * Request lifecycle (rck_state): QUEUED (in a queue, nothing exchanged;
 * cancellable) -> ACTIVE (started) -> DONE | FAILED; QUEUED -> CANCELLED.
 * Only QUEUED and ACTIVE requests are in a queue; the library never touches
 * a request after it has left its queue.
 */
#ifndef RCK_IRCCE_INTERNAL_H
#define RCK_IRCCE_INTERNAL_H

#include "iRCCE.h"
#include "rcce_internal.h"

#include <stdint.h>

#define RCK_IRCCE_REQ_MAGIC 0x69524351u  /* "iRCQ" */
#define RCK_IRCCE_HDR_MAGIC RCK_RCCE_FRAME_MAGIC /* "iR" in the upper half */
#define RCK_IRCCE_HDR_MASK RCK_RCCE_FRAME_MASK
#define RCK_IRCCE_HDR_COLL RCK_RCCE_FRAME_COLL /* sent by a collective */
#define RCK_IRCCE_INLINE_BASE 0x100u

enum {
    IRCCE_ST_QUEUED = 1,
    IRCCE_ST_ACTIVE = 2,
    IRCCE_ST_DONE = 3,
    IRCCE_ST_CANCELLED = 4,
    IRCCE_ST_FAILED = 5
};

enum {
    IRCCE_KIND_PLAIN = 1, /* RCCE's protocol, no framing */
    IRCCE_KIND_FRAMED = 2, /* RCCE's protocol, framing words */
    IRCCE_KIND_PIPE = 3,  /* pipelined halves, framing words */
    IRCCE_KIND_INLINE = 4 /* payload in the flag line */
};

typedef struct {
    iRCCE_RECV_REQUEST *head, *tail;
} ircce_rqueue_t;

/** The per-process iRCCE state. */
typedef struct {
    int initialized;
    rck_hal_t *hal;             /* the RCCE run it belongs to */
    int tagged;                 /* sent flags are whole lines */
    iRCCE_SEND_REQUEST *sq_head, *sq_tail;
    ircce_rqueue_t *rq;         /* one per source UE */
    ircce_rqueue_t aq;          /* any-source requests */
    int rr;                     /* next source an any-source search tries */
    int recent_source;
    long recent_length;
    int next_air;
    iRCCE_AIR *airs;            /* chip->atomic_counters of them */
    unsigned char **mpb;        /* every UE's MPB mapping */
} ircce_t;

extern ircce_t ircce;
/* iRCCE's library id (ircce_desc.c, rck/lib.h). */
extern int rck__ircce_lib;

/**
 * Make sure iRCCE is set up (lazily, so programs that never call
 * iRCCE_init work too).
 * @param [in] call     name for the log.
 * @param [in] msgpass  non-zero if the call needs RCCE's buffers.
 * @return iRCCE_SUCCESS, iRCCE_ERROR or RCCE_ERROR_ILLEGAL_OP.
 */
int ircce_ready(const char *call, int msgpass);

/* request bookkeeping */
int ircce_send_post(iRCCE_SEND_REQUEST *r, char *buf, ssize_t size, int dest,
                    int sync, const char *call);
int ircce_recv_post(iRCCE_RECV_REQUEST *r, char *buf, ssize_t size,
                    int source, int sync, const char *call);
int ircce_send_queued(const iRCCE_SEND_REQUEST *r);
int ircce_recv_queued(const iRCCE_RECV_REQUEST *r);
void ircce_send_unlink(iRCCE_SEND_REQUEST *r);
void ircce_recv_unlink(iRCCE_RECV_REQUEST *r);

/** Advance one send request if it heads the queue; never waits. */
int ircce_send_test_one(iRCCE_SEND_REQUEST *r);
/** Advance one receive request if it heads its queue; never waits. */
int ircce_recv_test_one(iRCCE_RECV_REQUEST *r);

/** Push only the send queue / only the receive queues.
 *  @return iRCCE_SUCCESS if that queue is empty afterwards, else
 *  iRCCE_PENDING. */
int ircce_isend_push_only(void);
int ircce_irecv_push_only(void);

/** Advance every queue as far as it goes without waiting.
 *  @return iRCCE_SUCCESS or an error from the HAL. */
int ircce_progress(void);

#define IRCCE_WATCH_NONE (-2)

/**
 * Block (progressing every queue) until @p done returns non-zero.
 * @param [in] done   completion test, called after each progress pass.
 * @param [in] arg    its argument.
 * @param [in] call   name for the log and deadlock reports.
 * @param [in] peer   UE named in deadlock reports (-1: none).
 * @param [in] watch  also wake on the sent flag of this source
 *                    (iRCCE_ANY_SOURCE: of every source;
 *                    IRCCE_WATCH_NONE: none), for probes.
 * @return iRCCE_SUCCESS, or iRCCE_ERROR if the wait failed.
 */
int ircce_block(int (*done)(void *), void *arg, const char *call, int peer,
                int watch);
/** ircce_block for a call of one message of @p size bytes (negative: not
 *  known), which the sim's trace shows on the call. */
int ircce_block_sized(int (*done)(void *), void *arg, const char *call,
                      int peer, int watch, ssize_t size);

/** A source whose queue is empty and whose message is announced (round
 *  robin from the last bound one, not moving it), or -1; never waits. */
int ircce_any_ready(void);

/** Whether a point-to-point message (not a collective's) from @p s is
 *  announced; never waits. */
int ircce_p2p_announced(int s);

/** Length of the announced message from @p source from its framing, or
 *  iRCCE_ANY_LENGTH if it carries none (or none is announced). */
long ircce_peek_length(int source);

/** Copy the first min(@p size, first piece) bytes of the message
 *  announced from @p source (the inline payload of a tagged one) into
 *  @p buf, consuming nothing; *copied = 0 if none is announced. */
int ircce_peek_first(int source, char *buf, size_t size, size_t *copied);

/** Terminal state of a request: its return code for test/wait. */
int ircce_final_code(int state, int status);

/** Whether a send request is complete/terminal, for ircce_block. */
int ircce_send_over(void *r);
int ircce_recv_over(void *r);

/** Is @p ue a valid peer (0..n-1, not oneself)? */
static inline int ircce_peer_ok(int ue)
{
    return ue >= 0 && ue < rcce.nues && ue != rcce.ue;
}

/** Error code for a failed HAL call inside an iRCCE call. */
int ircce_hal_fail(rck_status_t st, const char *call);

#endif
