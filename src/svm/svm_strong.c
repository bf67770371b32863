/*
 * SVM_STRONG: one owner per page, ownership moved by mailbox requests
 * (docs/SVM.md, "Strong model"). The invariants are at the top of
 * svm_internal.h.
 *
 * Faulting core R, page p (svm_strong_acquire, from the SIGSEGV handler):
 *   read owner[p]; SVM_NOBODY: claim the page under the claim lock;
 *   itself: done; otherwise mail (p, R, seq) to that owner and wait, with
 *   interrupts, until owner[p] == R or nack[R] == seq. A NACK means "ask
 *   again": read owner[p] and mail whoever it names now.
 * Any core X receiving (p, R, seq) in its mail handler:
 *   owner[p] == R     drop (R has the page: a stale duplicate);
 *   owner[p] == X     X is acquiring p itself: keep the request until
 *                     the faulting access is done, then serve it again
 *                     (X mails itself a kick, taken at its next wait);
 *                     otherwise give: unmap, flush, owner[p] = R;
 *   owner[p] == O     forward the mail to O (try_send: a handler must not
 *                     block); if O's box is full, or the mail has been
 *                     forwarded nues times already, NACK;
 *   SVM_NOBODY        NACK (R claims it).
 */
#include "svm_internal.h"

#include "rck/log.h"
#include "rck_mbox.h"

#include <string.h>
#include <sys/mman.h>

static rck_status_t owner_read(svm_t *s, size_t p, uint32_t *o)
{
    return rck_hal_shm_read(s->hal, s->owner_off + 4 * p, o, sizeof(*o));
}

static rck_status_t owner_write(svm_t *s, size_t p, uint32_t o)
{
    return rck_hal_shm_write(s->hal, s->owner_off + 4 * p, &o, sizeof(o));
}

rck_status_t svm_strong_reset(svm_t *s, size_t first, size_t n)
{
    uint32_t nobody[256];
    rck_status_t st = RCK_OK;

    for (size_t i = 0; i < 256; i++)
        nobody[i] = SVM_NOBODY;
    for (size_t done = 0; done < n && st == RCK_OK;) {
        size_t k = n - done < 256 ? n - done : 256;

        st = rck_hal_shm_write(s->hal, s->owner_off + 4 * (first + done),
                               nobody, 4 * k);
        done += k;
    }
    return st;
}

/* The claim lock: a ticket from a GIC atomic counter, the ticket now
 * served in shared DRAM. Held for one read and one write of owner[p]. */
static rck_status_t claim(svm_t *s, size_t p, int *got)
{
    size_t serving = s->region_off + SVM_CTL_CLAIM;
    int32_t ticket;
    uint32_t o, next;
    rck_status_t st;

    *got = 0;
    st = rck_hal_atomic_inc(s->hal, s->ctr_claim, &ticket);
    if (st != RCK_OK)
        return st;
    rck_hal_cond_t c = {.space = RCK_SPACE_SHM,
                        .offset = (uint32_t)serving,
                        .mask = ~0u,
                        .value = (uint32_t)ticket,
                        .op = RCK_COND_EQ};
    st = svm_wait(s, &c, 1, NULL);
    if (st != RCK_OK)
        return st;
    st = owner_read(s, p, &o);
    if (st == RCK_OK && o == SVM_NOBODY) {
        st = owner_write(s, p, (uint32_t)s->ue);
        *got = st == RCK_OK;
    }
    next = (uint32_t)ticket + 1u;
    if (rck_hal_shm_write(s->hal, serving, &next, sizeof(next)) != RCK_OK)
        st = RCK_ERR_IO;
    return st;
}

/* A protocol mail: counted as SVM's message, not as a mailbox's. */
static rck_status_t mail_try_send(svm_t *s, int dest, const svm_req_t *r)
{
    int as = rck_hal_comm_as(s->hal, rck__svm_lib);
    rck_status_t st = rck_mbox_try_send(dest, SVM_TAG, r, sizeof(*r));

    rck_hal_comm_as(s->hal, as);
    return st;
}

rck_status_t svm_strong_acquire(svm_t *s, size_t p)
{
    uint32_t me = (uint32_t)s->ue, o;
    rck_status_t st;
    int as;

    s->stats.faults++;
    rck_hal_set_context(s->hal, "svm page fault", -1);
    for (;;) {
        svm_req_t req;
        int which = -1;

        st = owner_read(s, p, &o);
        if (st != RCK_OK)
            break;
        if (o == me)
            break;
        if (o == SVM_NOBODY) {
            int got;

            st = claim(s, p, &got);
            if (st != RCK_OK)
                break;
            if (got) {
                s->stats.claims++;
                break;
            }
            continue;
        }
        if (o >= (uint32_t)s->nues) {
            rck_error("svm: owner of page %zu is %u, not a UE", p, o);
            st = RCK_ERR_STATE;
            break;
        }
        if (++s->seq == 0)
            s->seq = 1;
        req.kind = SVM_REQ_PAGE;
        req.page = (uint32_t)p;
        req.requester = me;
        req.seq = s->seq;
        req.hops = 0;
        rck_hal_set_context(s->hal, "svm page fault", (int)o);
        as = rck_hal_comm_as(s->hal, rck__svm_lib);
        st = rck_mbox_send((int)o, SVM_TAG, &req, sizeof(req));
        rck_hal_comm_as(s->hal, as);
        if (st != RCK_OK)
            break;
        s->stats.requests_sent++;
        rck_hal_cond_t c[2] = {
            {.space = RCK_SPACE_SHM,
             .offset = (uint32_t)(s->owner_off + 4 * p),
             .mask = ~0u,
             .value = me,
             .op = RCK_COND_EQ},
            {.space = RCK_SPACE_SHM,
             .offset = (uint32_t)(s->nack_off + 4 * me),
             .mask = ~0u,
             .value = req.seq,
             .op = RCK_COND_EQ}};
        st = svm_wait(s, c, 2, &which);
        if (st != RCK_OK)
            break;
        if (which == 0)
            break;
        s->stats.retries++;
    }
    rck_hal_set_context(s->hal, NULL, -1);
    if (st != RCK_OK)
        return st;
    s->pst[p] |= PS_OWNED;
    /* the previous owner's writes are in memory: drop stale lines */
    rck_hal_cl1invmb(s->hal);
    return RCK_OK;
}

static void nack(svm_t *s, const svm_req_t *r)
{
    rck_hal_shm_write(s->hal, s->nack_off + 4 * r->requester, &r->seq,
                      sizeof(r->seq));
    s->stats.nacks++;
}

/* A request for the page this core is acquiring waits here until the
 * faulting access is done (invariant 3). One entry per requester: each
 * has one request in flight. */
static void defer(svm_t *s, const svm_req_t *r)
{
    for (int i = 0; i < s->ndeferred; i++) {
        if (s->deferred[i].requester == r->requester) {
            s->deferred[i] = *r;
            return;
        }
    }
    if (s->ndeferred < s->nues)
        s->deferred[s->ndeferred++] = *r;
    else
        nack(s, r);
}

/* The fault is over: serve the deferred requests at this core's next HAL
 * wait, after the faulting access has been retried, by mailing ourselves
 * a kick (if one is already on its way, it does). */
void svm_strong_done(svm_t *s)
{
    svm_req_t kick = {.kind = SVM_REQ_KICK, .requester = (uint32_t)s->ue};

    if (s->ndeferred == 0)
        return;
    if (mail_try_send(s, s->ue, &kick) != RCK_OK &&
        !s->kick_pending) {
        /* cannot happen (our own box is empty unless a kick is in it);
         * refuse rather than leave the requesters waiting */
        for (int i = 0; i < s->ndeferred; i++)
            nack(s, &s->deferred[i]);
        s->ndeferred = 0;
        return;
    }
    s->kick_pending = 1;
}

/* Give page @p p to UE @p to: unmap it here, write back what this core
 * wrote (the cost model's epoch write-back, then the WCB), and only then
 * name the new owner. */
static void give(svm_t *s, size_t p, uint32_t to)
{
    uint8_t *ps = &s->pst[p];

    if (s->model_pages && (*ps & PS_DIRTY))
        rck_hal_shm_touch(s->hal, svm_page_off(s, p), s->page, 1);
    if (*ps & (PS_R | PS_W))
        svm_protect(s, p, 1, PROT_NONE);
    *ps = 0;
    rck_hal_shm_flush(s->hal);
    owner_write(s, p, to);
    s->stats.pages_given++;
}

/* One request, at the core it reached (the table at the top). */
static void serve(svm_t *s, svm_req_t *r)
{
    uint32_t o;

    if (owner_read(s, r->page, &o) != RCK_OK)
        return;
    rck_debug("svm: UE %d: request (page %u, UE %u, seq %u, hops %u); "
              "owner %d, acquiring %ld",
              s->ue, r->page, r->requester, r->seq, r->hops,
              o == SVM_NOBODY ? -1 : (int)o, s->acquiring);
    if (o == r->requester)
        return;
    if (o == (uint32_t)s->ue) {
        if (s->acquiring == (long)r->page)
            defer(s, r);
        else
            give(s, r->page, r->requester);
        return;
    }
    if (o >= (uint32_t)s->nues || r->hops >= (uint32_t)s->nues) {
        nack(s, r);
        return;
    }
    r->hops++;
    if (mail_try_send(s, (int)o, r) == RCK_OK)
        s->stats.forwards++;
    else
        nack(s, r);
}

static void svm_mail(const rck_mail_t *mail, void *arg)
{
    svm_t *s = arg;
    svm_req_t r;

    if (mail->tag != SVM_TAG || mail->len != sizeof(r)) {
        rck_warn("svm: dropping a mail with tag %u and %u bytes from UE %d "
                 "(SVM owns the mailbox handler)",
                 mail->tag, mail->len, mail->sender);
        return;
    }
    memcpy(&r, mail->payload, sizeof(r));
    if (!s->ready)
        return;
    if (r.kind == SVM_REQ_KICK && mail->sender == s->ue) {
        int n = s->ndeferred;

        s->kick_pending = 0;
        memcpy(s->deferred_work, s->deferred, (size_t)n * sizeof(r));
        s->ndeferred = 0;
        for (int i = 0; i < n; i++)
            serve(s, &s->deferred_work[i]);
        if (s->ndeferred > 0 && s->acquiring < 0)
            svm_strong_done(s);
        return;
    }
    if (r.kind != SVM_REQ_PAGE || r.page >= s->npages ||
        r.requester >= (uint32_t)s->nues ||
        r.requester == (uint32_t)s->ue ||
        svm_block_of_page(s, r.page) == NULL) {
        rck_warn("svm: dropping a bad request from UE %d (page %u, "
                 "requester %u)",
                 mail->sender, r.page, r.requester);
        return;
    }
    serve(s, &r);
}

rck_status_t svm_strong_start(svm_t *s)
{
    rck_status_t st = rck_mbox_set_handler(svm_mail, s);

    if (st != RCK_OK)
        rck_error("svm_init: cannot install the mail handler: %s",
                  rck_status_string(st));
    return st;
}

void svm_strong_stop(svm_t *s)
{
    (void)s;
    rck_mbox_set_handler(NULL, NULL);
}
