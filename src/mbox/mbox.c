/*
 * Mailboxes (include/rck_mbox.h): one 32-byte line per sender core in
 * every core's MPB, single writer / single reader, GIC interrupts that name
 * the sender.
 *
 * Line layout (little-endian words):
 *   bytes  0..27  payload
 *   word   7      control: bits 0..15 tag, 16..23 length, bit 24 full
 * The sender writes the payload, then the control word (both go through
 * the write-combine buffer into one line; the word store publishes the
 * mail); the receiver reads the control word, then the payload, and clears
 * the control word with one DWORD store into its own MPB once it has
 * copied the mail out.
 *
 * Why interrupts are never missed: a sender writes the mail before it
 * raises the interrupt. If the raise is lost because one from the same
 * sender is still pending, that pending interrupt is taken later than the
 * write, and the handler reads the mailbox after taking it, so it sees the
 * mail. Mails found by a scan (rck_mbox_poll, rck_mbox_recv) need no
 * interrupt at all.
 */
#include "rck_mbox.h"

#include "rck/hal.h"
#include "rck/log.h"

#include <stdlib.h>
#include <string.h>

/* The mailboxes' library id (mbox_desc.c, rck/lib.h). */
extern int rck__mbox_lib;
/* The descriptor's hooks (mbox_desc.c). */
rck_status_t rck__mbox_attach(rck_hal_t *hal);
void rck__mbox_fini(rck_hal_t *hal, rck_lib_fini_why_t why);
void rck__mbox_on_gic(rck_hal_t *hal, rck_irq_kind_t kind, int sender,
                      void *arg);

#define CTRL_WORD 28u           /* byte offset of the control word */
#define CTRL_FULL (1u << 24)

static struct {
    rck_hal_t *hal;
    int ready;
    uint32_t base;              /* offset of mailbox 0 in every MPB */
    int ncores;
    int *core_ue;               /* physical core -> UE, -1 if not in job */
    rck_mbox_handler_t handler;
    void *arg;
    int in_handler;
    int rr;                     /* next mailbox a scan starts at */
    rck_mbox_stats_t stats;
} mb;

static uint32_t slot_off(int sender_core)
{
    return mb.base + (uint32_t)sender_core * RCK_MBOX_LINE;
}

static rck_status_t need_init(const char *call)
{
    if (!mb.ready) {
        rck_error("%s: rck_mbox_init has not been called", call);
        return RCK_ERR_STATE;
    }
    return RCK_OK;
}

/* Copy the mail in our mailbox of @p sender_core out and free the box.
 * @return 1 if there was one, 0 if the box was empty. */
static int take(int sender_core, rck_mail_t *mail)
{
    rck_hal_t *hal = mb.hal;
    uint32_t off = slot_off(sender_core), ctrl;

    /* The sender wrote our MPB: drop our stale copy of the line first.
     * The control word first: the payload is complete once it is set. */
    rck_hal_cl1invmb(hal);
    if (rck_hal_mpb_load32(hal, hal->core, off + CTRL_WORD, &ctrl) !=
            RCK_OK ||
        !(ctrl & CTRL_FULL))
        return 0;
    if (rck_hal_mpb_read(hal, hal->core, off, mail->payload,
                         RCK_MBOX_PAYLOAD) != RCK_OK)
        return 0;
    mail->sender = mb.core_ue[sender_core];
    mail->tag = (uint16_t)(ctrl & 0xffffu);
    mail->len = (uint8_t)((ctrl >> 16) & 0xffu);
    if (mail->len > RCK_MBOX_PAYLOAD)
        mail->len = RCK_MBOX_PAYLOAD;
    rck_hal_mpb_store32(hal, hal->core, off + CTRL_WORD, 0);
    mb.stats.received++;
    rck_hal_comm_recv(hal, rck__mbox_lib, sender_core, mail->len);
    return 1;
}

static void deliver(int sender_core)
{
    rck_mail_t mail;

    if (mb.handler == NULL || !take(sender_core, &mail))
        return;
    mb.in_handler++;
    mb.handler(&mail, mb.arg);
    mb.in_handler--;
}

/* GIC interrupts (the descriptor's handler, mbox_desc.c): the HAL names
 * the sender, so only its box is read. */
void rck__mbox_on_gic(rck_hal_t *hal, rck_irq_kind_t kind, int sender,
                      void *arg)
{
    (void)hal;
    (void)kind;
    (void)arg;
    mb.stats.interrupts++;
    if (sender >= 0 && sender < mb.ncores)
        deliver(sender);
}

rck_status_t rck_mbox_init(void)
{
    rck_hal_t *hal;
    rck_status_t st;

    if (mb.ready)
        return RCK_OK;
    st = rck_hal_open(NULL, &hal);
    if (st != RCK_OK) {
        rck_error("rck_mbox_init: cannot attach to the chip: %s",
                  rck_status_string(st));
        return st;
    }
    /* the HAL runs rck__mbox_attach, then chains rck__mbox_on_gic */
    return rck_lib_attach(hal, rck__mbox_lib);
}

/* The descriptor's init (mbox_desc.c): the boxes and this core's state. */
rck_status_t rck__mbox_attach(rck_hal_t *hal)
{
    rck_status_t st;
    uint32_t off;

    if (!rck_hal_world_is_job(hal, "rck_mbox_init"))
        return RCK_ERR_CONFIG;
    if (hal->chip.line_bytes != RCK_MBOX_LINE) {
        rck_error("rck_mbox_init: mailboxes need %d-byte MPB lines; the "
                  "chip has %u",
                  RCK_MBOX_LINE, hal->chip.line_bytes);
        return RCK_ERR_CONFIG;
    }
    st = rck_hal_mpb_reserve(hal, rck__mbox_lib, (uint32_t)hal->chip.ncores * RCK_MBOX_LINE,
                             &off);
    if (st != RCK_OK) {
        rck_error("rck_mbox_init: cannot reserve %d mailboxes of %d bytes "
                  "in the MPB",
                  hal->chip.ncores, RCK_MBOX_LINE);
        return st;
    }
    mb.core_ue = malloc((size_t)hal->chip.ncores * sizeof(int));
    if (mb.core_ue == NULL)
        return RCK_ERR_NOMEM;
    for (int c = 0; c < hal->chip.ncores; c++)
        mb.core_ue[c] = -1;
    for (int u = 0; u < hal->nues; u++)
        mb.core_ue[hal->ue_core[u]] = u;
    mb.hal = hal;
    mb.base = off;
    mb.ncores = hal->chip.ncores;
    mb.handler = NULL;
    mb.rr = 0;
    memset(&mb.stats, 0, sizeof mb.stats);
    /* The HAL chains the GIC handler next, so interrupts are taken from
     * the start: in polled mode they are taken and dropped (the mail waits
     * for rck_mbox_recv), as a core that polls would mask them. The boxes
     * start empty: the MPBs of a job start zeroed and only mailboxes use
     * this area. */
    mb.ready = 1;
    return RCK_OK;
}

/* The descriptor's fini: rck_mbox_finalize, or the HAL going down under
 * the mailboxes (RCCE_finalize first); the handler is unchained already. */
void rck__mbox_fini(rck_hal_t *hal, rck_lib_fini_why_t why)
{
    (void)hal;
    (void)why;
    free(mb.core_ue);
    mb.core_ue = NULL;
    mb.handler = NULL;
    mb.hal = NULL;
    mb.ready = 0;
}

rck_status_t rck_mbox_finalize(void)
{
    if (!mb.ready)
        return RCK_OK;
    rck_lib_detach(mb.hal, rck__mbox_lib);
    return RCK_OK;
}

int rck_mbox_ue(void)
{
    return mb.ready ? mb.hal->ue : -1;
}

int rck_mbox_num_ues(void)
{
    return mb.ready ? mb.hal->nues : 0;
}

rck_status_t rck_mbox_set_handler(rck_mbox_handler_t handler, void *arg)
{
    rck_status_t st = need_init("rck_mbox_set_handler");

    if (st != RCK_OK)
        return st;
    mb.handler = handler;
    mb.arg = arg;
    return RCK_OK;
}

static rck_status_t check_send(const char *call, int dest, const void *data,
                               size_t len)
{
    rck_status_t st = need_init(call);

    if (st != RCK_OK)
        return st;
    if (dest < 0 || dest >= mb.hal->nues) {
        rck_error("%s: UE %d does not exist (the job has %d UEs)", call, dest,
                  mb.hal->nues);
        return RCK_ERR_INVALID;
    }
    if (len > RCK_MBOX_PAYLOAD || (len > 0 && data == NULL)) {
        rck_error("%s: %zu bytes%s; a mail carries at most %d", call, len,
                  len > 0 && data == NULL ? " from a NULL buffer" : "",
                  RCK_MBOX_PAYLOAD);
        return RCK_ERR_INVALID;
    }
    return RCK_OK;
}

/* One attempt: RCK_OK if the mail went out, RCK_ERR_BUSY if the box is
 * still full. */
static rck_status_t send_once(int dcore, uint16_t tag, const void *data,
                              size_t len)
{
    rck_hal_t *hal = mb.hal;
    unsigned char payload[RCK_MBOX_PAYLOAD] = {0};
    uint32_t off = slot_off(hal->core), ctrl;
    rck_status_t st;

    /* Is our box at the receiver free? Read it fresh. */
    rck_hal_cl1invmb(hal);
    st = rck_hal_mpb_load32(hal, dcore, off + CTRL_WORD, &ctrl);
    if (st != RCK_OK)
        return st;
    if (ctrl & CTRL_FULL)
        return RCK_ERR_BUSY;
    if (len > 0)
        memcpy(payload, data, len);
    /* Payload, then the control word: both land in the write-combine
     * buffer's one line, and the word store publishes the mail (a reader
     * that sees "full" sees the payload). */
    st = rck_hal_mpb_write(hal, dcore, off, payload, sizeof payload);
    if (st != RCK_OK)
        return st;
    ctrl = (uint32_t)tag | ((uint32_t)len << 16) | CTRL_FULL;
    st = rck_hal_mpb_store32(hal, dcore, off + CTRL_WORD, ctrl);
    if (st != RCK_OK)
        return st;
    rck_hal_wcb_flush(hal);
    st = rck_hal_irq_raise(hal, dcore, RCK_IRQ_GIC);
    if (st == RCK_OK) {
        mb.stats.sent++;
        rck_hal_comm_count(hal, rck__mbox_lib, dcore, len);
    }
    return st;
}

rck_status_t rck_mbox_try_send(int dest, uint16_t tag, const void *data,
                               size_t len)
{
    rck_status_t st = check_send("rck_mbox_try_send", dest, data, len);

    if (st != RCK_OK)
        return st;
    return send_once(mb.hal->ue_core[dest], tag, data, len);
}

rck_status_t rck_mbox_send(int dest, uint16_t tag, const void *data,
                           size_t len)
{
    rck_status_t st = check_send("rck_mbox_send", dest, data, len);
    rck_hal_t *hal = mb.hal;
    int dcore;

    if (st != RCK_OK)
        return st;
    dcore = hal->ue_core[dest];
    rck_hal_set_context(hal, "rck_mbox_send", dest);
    rck_hal_set_message(hal, (long long)len, tag, -1);
    for (;;) {
        rck_hal_cond_t c = {.space = RCK_SPACE_MPB,
                            .core = dcore,
                            .offset = slot_off(hal->core) + CTRL_WORD,
                            .mask = CTRL_FULL,
                            .value = 0,
                            .op = RCK_COND_EQ};
        st = send_once(dcore, tag, data, len);
        if (st != RCK_ERR_BUSY)
            break;
        mb.stats.busy_waits++;
        /* Full: wait for the receiver to empty it, taking our own mails
         * meanwhile (not from inside a handler: handlers do not nest). */
        st = rck_hal_wait(hal, &c, 1, mb.in_handler ? 0 : RCK_WAIT_IRQ, -1,
                          NULL);
        if (st != RCK_OK && st != RCK_INTERRUPTED)
            break;
    }
    rck_hal_set_context(hal, NULL, -1);
    return st;
}

/* Scan every box once, round robin from the cursor. @return the sender
 * core of the first full box, or -1. */
static int scan(void)
{
    rck_hal_t *hal = mb.hal;

    rck_hal_cl1invmb(hal);
    for (int i = 0; i < mb.ncores; i++) {
        int c = (mb.rr + i) % mb.ncores;
        uint32_t ctrl;
        if (mb.core_ue[c] < 0)
            continue;
        if (rck_hal_mpb_load32(hal, hal->core, slot_off(c) + CTRL_WORD,
                               &ctrl) == RCK_OK &&
            (ctrl & CTRL_FULL)) {
            mb.rr = (c + 1) % mb.ncores;
            return c;
        }
    }
    return -1;
}

rck_status_t rck_mbox_try_recv(rck_mail_t *mail)
{
    rck_status_t st = need_init("rck_mbox_try_recv");
    int c;

    if (st != RCK_OK)
        return st;
    if (mail == NULL) {
        rck_error("rck_mbox_try_recv: NULL mail");
        return RCK_ERR_INVALID;
    }
    if (mb.handler != NULL) {
        rck_error("rck_mbox_try_recv: a handler is installed; mails go to "
                  "it");
        return RCK_ERR_STATE;
    }
    c = scan();
    if (c >= 0 && take(c, mail))
        return RCK_OK;
    return RCK_ERR_NOT_FOUND;
}

/* One condition per UE's box: "its mail is here". */
static rck_hal_cond_t *box_conds(void)
{
    rck_hal_t *hal = mb.hal;
    rck_hal_cond_t *conds = malloc((size_t)hal->nues * sizeof(*conds));

    if (conds == NULL)
        return NULL;
    for (int u = 0; u < hal->nues; u++)
        conds[u] = (rck_hal_cond_t){.space = RCK_SPACE_MPB,
                                    .core = hal->core,
                                    .offset =
                                        slot_off(hal->ue_core[u]) + CTRL_WORD,
                                    .mask = CTRL_FULL,
                                    .value = CTRL_FULL,
                                    .op = RCK_COND_EQ};
    return conds;
}

rck_status_t rck_mbox_recv(rck_mail_t *mail, int64_t timeout_ns)
{
    rck_hal_cond_t *conds;
    rck_status_t st;

    st = rck_mbox_try_recv(mail);
    if (st != RCK_ERR_NOT_FOUND)
        return st;
    conds = box_conds();
    if (conds == NULL)
        return RCK_ERR_NOMEM;
    rck_hal_set_context(mb.hal, "rck_mbox_recv", -1);
    for (;;) {
        st = rck_hal_wait(mb.hal, conds, mb.hal->nues, 0, timeout_ns, NULL);
        if (st != RCK_OK)
            break;
        st = rck_mbox_try_recv(mail);
        if (st != RCK_ERR_NOT_FOUND)
            break;
    }
    rck_hal_set_context(mb.hal, NULL, -1);
    free(conds);
    return st;
}

rck_status_t rck_mbox_poll(int *handled)
{
    rck_status_t st = need_init("rck_mbox_poll");
    int irqs = 0, c;
    uint64_t before;

    if (handled != NULL)
        *handled = 0;
    if (st != RCK_OK)
        return st;
    if (mb.handler == NULL) {
        rck_error("rck_mbox_poll: no handler installed (use rck_mbox_recv)");
        return RCK_ERR_STATE;
    }
    /* Interrupts first (they also run other libraries' handlers), then
     * whatever arrived without one being taken yet. */
    before = mb.stats.received;
    st = rck_hal_irq_poll(mb.hal, &irqs);
    if (st != RCK_OK && st != RCK_ERR_UNSUPPORTED)
        return st;
    if (mb.in_handler == 0) {
        while ((c = scan()) >= 0) {
            uint64_t got = mb.stats.received;
            deliver(c);
            if (mb.stats.received == got)
                break;
        }
    }
    if (handled != NULL)
        *handled = (int)(mb.stats.received - before);
    return RCK_OK;
}

rck_status_t rck_mbox_serve(int64_t timeout_ns, int *handled)
{
    rck_status_t st = RCK_OK;
    rck_hal_cond_t *conds;
    uint64_t before = mb.stats.received;

    if (handled != NULL)
        *handled = 0;
    st = rck_mbox_poll(NULL);
    if (st != RCK_OK)
        return st;
    if (mb.stats.received == before) {
        conds = box_conds();
        if (conds == NULL)
            return RCK_ERR_NOMEM;
        rck_hal_set_context(mb.hal, "rck_mbox_serve", -1);
        while (mb.stats.received == before) {
            st = rck_hal_wait(mb.hal, conds, mb.hal->nues, RCK_WAIT_IRQ,
                              timeout_ns, NULL);
            if (st != RCK_OK && st != RCK_INTERRUPTED)
                break;
            st = rck_mbox_poll(NULL);
            if (st != RCK_OK)
                break;
        }
        rck_hal_set_context(mb.hal, NULL, -1);
        free(conds);
    }
    if (handled != NULL)
        *handled = (int)(mb.stats.received - before);
    return st;
}

void rck_mbox_stats(rck_mbox_stats_t *stats)
{
    if (stats != NULL)
        *stats = mb.stats;
}
