/*
 * rck_mbox: MetalSVM-style mailboxes over the rockcreek HAL.
 *
 * Every core's MPB holds one 32-byte mailbox per possible sender (one per
 * core of the chip: 48 x 32 B = 1.5 KiB on the SCC), reserved at the top of
 * the MPB; the rest stays with RCCE's allocator. A mailbox has a single
 * writer (its sender) and a single reader (the MPB's owner), so no lock is
 * needed:
 *
 *   sender:   waits until the mailbox is empty (its flag is clear), writes
 *             the whole line (payload + header with the flag set) into the
 *             receiver's MPB, and raises a GIC interrupt that carries its
 *             id, so the receiver's handler reads only that mailbox;
 *   receiver: reads its own MPB line (after CL1INVMB), hands the mail to
 *             the handler or to rck_mbox_recv(), and clears the flag.
 *
 * Mails from one sender arrive in the order they were sent (one mailbox,
 * one mail in flight). Mails from different senders have no order.
 *
 * Receiving is either handler-driven (rck_mbox_set_handler: the handler
 * runs on the receiving core inside any HAL wait or poll, i.e. inside any
 * blocking rockcreek call or rck_mbox_poll) or polled (no handler:
 * rck_mbox_recv / rck_mbox_try_recv). On the chip, an interrupt preempts
 * compute; here it is taken at the receiver's next HAL call (documented in
 * docs/MBOX.md).
 *
 * A full mailbox: rck_mbox_send() waits until the receiver empties it,
 * and while it waits it keeps receiving its own mails (handler mode), so
 * two cores sending to each other cannot deadlock; rck_mbox_try_send()
 * returns RCK_ERR_BUSY instead.
 *
 * Waiting for an answer while serving mails: a library above the HAL that
 * mailed a request waits with rck_hal_wait(..., RCK_WAIT_IRQ, ...); the
 * wait runs the mailbox handler for every mail that arrives and returns
 * RCK_INTERRUPTED, and the caller re-checks its condition (SVM does this).
 *
 * Interrupts: mailboxes take the GIC interrupts of the HAL through their
 * library descriptor's handler, chained with those of the other libraries
 * on that line (IP, S-Net's queues) while the mailboxes are initialised;
 * notification channels take the pin.
 *
 * Order of initialisation: rck_mbox_init() reserves its MPB area, so it
 * must run before RCCE_init (which takes the rest of the MPB) on every
 * core; after RCCE_init it fails with RCK_ERR_BUSY and says so.
 *
 * All functions return rck_status_t codes (rck/status.h): RCK_OK or a
 * negative error; rck_status_string() names them.
 */
#ifndef RCK_MBOX_H
#define RCK_MBOX_H

#include "rck/status.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push(default) /* exported API: see RCCE.h */

/** Bytes of one mailbox (one MPB line). */
#define RCK_MBOX_LINE 32
/** Payload bytes one mail carries. */
#define RCK_MBOX_PAYLOAD 28

/** One received mail. */
typedef struct {
    int sender;                         /* sending UE */
    uint16_t tag;                       /* the sender's tag */
    uint8_t len;                        /* payload bytes, 0..RCK_MBOX_PAYLOAD */
    uint8_t payload[RCK_MBOX_PAYLOAD];
} rck_mail_t;

/**
 * Mail handler: runs on the receiving core for every mail, from interrupt
 * context (inside a HAL wait or poll). It may send mails (rck_mbox_try_send
 * or rck_mbox_send) and make non-blocking HAL calls; it must not wait for
 * other mails (it is not re-entered).
 * @param [in] mail  the mail; valid during the call only.
 * @param [in] arg   the pointer given to rck_mbox_set_handler().
 */
typedef void (*rck_mbox_handler_t)(const rck_mail_t *mail, void *arg);

/**
 * Set up this core's mailboxes (attaching to the chip if needed).
 * Idempotent. Must precede RCCE_init.
 */
rck_status_t rck_mbox_init(void);

/** Tear down: drops the handler; pending mails are discarded. */
rck_status_t rck_mbox_finalize(void);

/** @return this core's UE id (after rck_mbox_init), or -1. */
int rck_mbox_ue(void);
/** @return the number of UEs (after rck_mbox_init), or 0. */
int rck_mbox_num_ues(void);

/**
 * Install the mail handler (interrupt-driven receive); NULL returns to
 * polled receive. Mails already waiting are handed to the new handler at
 * the next HAL wait or poll.
 */
rck_status_t rck_mbox_set_handler(rck_mbox_handler_t handler, void *arg);

/**
 * Send a mail; waits while the receiver's mailbox is still full.
 * @param [in] dest  receiving UE (may be this UE).
 * @param [in] tag   user tag.
 * @param [in] data  @p len bytes (NULL allowed if @p len is 0).
 * @param [in] len   0 .. RCK_MBOX_PAYLOAD.
 * @return RCK_OK; RCK_ERR_INVALID for a UE that does not exist or a
 *         length over RCK_MBOX_PAYLOAD; RCK_ERR_STATE before init;
 *         RCK_ERR_PEER_DEAD/RCK_ERR_DEADLOCK/RCK_ERR_TIMEDOUT from the wait.
 */
rck_status_t rck_mbox_send(int dest, uint16_t tag, const void *data,
                           size_t len);

/** As rck_mbox_send(), but RCK_ERR_BUSY if the mailbox is full. */
rck_status_t rck_mbox_try_send(int dest, uint16_t tag, const void *data,
                               size_t len);

/**
 * Polled receive: wait for the next mail (senders served round robin).
 * Fails with RCK_ERR_STATE while a handler is installed.
 * @param [out] mail        the mail.
 * @param [in]  timeout_ns  < 0: no timeout.
 * @return RCK_OK or RCK_ERR_TIMEDOUT (and the wait's errors).
 */
rck_status_t rck_mbox_recv(rck_mail_t *mail, int64_t timeout_ns);

/** Non-blocking polled receive: RCK_ERR_NOT_FOUND if no mail waits. */
rck_status_t rck_mbox_try_recv(rck_mail_t *mail);

/**
 * Hand every waiting mail to the handler now (interrupt-driven mode
 * without waiting for a HAL call to take the interrupts).
 * @param [out] handled  mails handled (may be NULL).
 */
rck_status_t rck_mbox_poll(int *handled);

/**
 * Handler mode: block until at least one mail has been handled (or the
 * timeout passes), e.g. a core with nothing to do but serve requests.
 * @param [in]  timeout_ns  < 0: no timeout.
 * @param [out] handled     mails handled (may be NULL).
 * @return RCK_OK, RCK_ERR_TIMEDOUT, RCK_ERR_STATE without a handler, or
 *         the wait's errors (RCK_ERR_DEADLOCK, RCK_ERR_PEER_DEAD).
 */
rck_status_t rck_mbox_serve(int64_t timeout_ns, int *handled);

/** Counters of this core since rck_mbox_init (for reports and benches). */
typedef struct {
    uint64_t sent, received, busy_waits, interrupts;
} rck_mbox_stats_t;
void rck_mbox_stats(rck_mbox_stats_t *stats);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif
