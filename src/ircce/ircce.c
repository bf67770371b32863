/*
 * The iRCCE engine: set-up, the send and receive state machines, queues,
 * any-source matching, progress and blocking. The wire format and the
 * queue invariants are stated at the top of ircce_internal.h.
 */
#include "ircce_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

ircce_t ircce;

/* scratch for the conditions of one wait (nues + 1 words at most) */
static rck_hal_cond_t *wait_conds;
static int *wait_src;

static void ircce_teardown(void)
{
    free(ircce.rq);
    free(ircce.mpb);
    free(ircce.airs);
    free(wait_conds);
    free(wait_src);
    wait_conds = NULL;
    wait_src = NULL;
    memset(&ircce, 0, sizeof(ircce));
}

static int ircce_setup(void)
{
    int n = rcce.nues;

    ircce_teardown();
    ircce.rq = calloc((size_t)n, sizeof(*ircce.rq));
    ircce.mpb = calloc((size_t)n, sizeof(*ircce.mpb));
    ircce.airs = calloc((size_t)(rcce.hal->chip.atomic_counters > 0
                                     ? rcce.hal->chip.atomic_counters
                                     : 1),
                        sizeof(*ircce.airs));
    wait_conds = calloc((size_t)n + 2, sizeof(*wait_conds));
    wait_src = calloc((size_t)n + 2, sizeof(*wait_src));
    if (ircce.rq == NULL || ircce.mpb == NULL || ircce.airs == NULL ||
        wait_conds == NULL || wait_src == NULL) {
        rck_error("iRCCE: out of memory for %d UEs", n);
        ircce_teardown();
        return iRCCE_ERROR;
    }
    for (int ue = 0; ue < n; ue++) {
        void *base;
        if (rck_hal_mpb_map(rcce.hal, rcce_core_of(ue), &base) != RCK_OK) {
            ircce_teardown();
            return iRCCE_ERROR;
        }
        ircce.mpb[ue] = base;
    }
    ircce.hal = rcce.hal;
    ircce.tagged = !(rcce.shape & RCK_RCCE_SHAPE_SINGLEBITFLAGS);
    ircce.rr = (rcce.ue + 1) % n;
    ircce.recent_source = iRCCE_ANY_SOURCE;
    ircce.recent_length = iRCCE_ANY_LENGTH;
    ircce.initialized = 1;
    return iRCCE_SUCCESS;
}

int ircce_ready(const char *call, int msgpass)
{
    if (!rcce.initialized) {
        rck_error("%s called before RCCE_init", call);
        return iRCCE_ERROR;
    }
    /* A new RCCE run (RCCE_finalize, then RCCE_init) starts afresh. */
    if ((!ircce.initialized || ircce.hal != rcce.hal) &&
        ircce_setup() != iRCCE_SUCCESS)
        return iRCCE_ERROR;
    if (msgpass && (rcce.shape & RCK_RCCE_SHAPE_GORY))
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_ILLEGAL_OP, call,
                          "iRCCE message passing uses RCCE's buffers, which "
                          "the gory shape does not reserve");
    return iRCCE_SUCCESS;
}

int iRCCE_init(void)
{
    int st = ircce_ready("iRCCE_init", 0);

    if (st != iRCCE_SUCCESS)
        return st;
    return RCCE_barrier(&RCCE_COMM_WORLD);
}

int ircce_hal_fail(rck_status_t st, const char *call)
{
    if (st == RCK_ERR_TIMEDOUT)
        rck_error("%s: a wait did not complete within RCK_WAIT_TIMEOUT: "
                  "probable deadlock",
                  call);
    else
        rck_error("%s: a wait failed (%s)", call, rck_status_string(st));
    return iRCCE_ERROR;
}

int ircce_final_code(int state, int status)
{
    switch (state) {
    case IRCCE_ST_DONE: return iRCCE_SUCCESS;
    case IRCCE_ST_CANCELLED: return iRCCE_NOT_ENQUEUED;
    case IRCCE_ST_FAILED: return status;
    default: return iRCCE_PENDING;
    }
}

/* ---- pieces ---- */

/* Offset in the communication buffer and length of piece @p idx, of which
 * @p done bytes came before. */
static void piece_geom(int kind, size_t chunk, size_t size, size_t done,
                       int idx, uint32_t *off, size_t *len)
{
    size_t span = chunk;

    *off = 0;
    if (kind == IRCCE_KIND_PIPE) {
        span = chunk / 2 / rcce.line * rcce.line;
        *off = (idx % 2) ? (uint32_t)span : 0;
    }
    *len = size - done < span ? size - done : span;
}

/* ---- send state machine ---- */

static void send_fail(iRCCE_SEND_REQUEST *r, int code)
{
    r->rck_state = IRCCE_ST_FAILED;
    r->rck_status = code;
}

static int send_piece(iRCCE_SEND_REQUEST *r)
{
    uint32_t off;
    size_t len;
    int st;

    piece_geom(r->rck_kind, r->chunk, r->size, r->wsize, r->label, &off,
               &len);
    r->nbytes = len;
    r->bufptr = r->privbuf + r->wsize;
    r->remainder = r->size - r->wsize;
    st = rcce_put_piece(r->bufptr, rcce.combuf_off + off, len);
    if (st == iRCCE_SUCCESS)
        st = rcce_flag_set(r->sent, RCCE_FLAG_SET, r->dest);
    return st;
}

static int send_start(iRCCE_SEND_REQUEST *r)
{
    int dcore = rcce_core_of(r->dest);
    uint32_t line = rcce_flag_offset(r->sent);
    rck_status_t hs;

    r->rck_state = IRCCE_ST_ACTIVE;
    r->chunk = rcce.combuf_len;
    r->combuf = ircce.mpb[rcce.ue] + rcce.combuf_off;
    if (r->rck_kind == IRCCE_KIND_PIPE &&
        r->chunk / 2 / rcce.line * rcce.line == 0)
        r->rck_kind = IRCCE_KIND_FRAMED;
    r->subchunk1 = r->chunk / 2 / rcce.line * rcce.line;
    r->subchunk2 = r->chunk - r->subchunk1;
    if (r->rck_kind == IRCCE_KIND_INLINE) {
        unsigned char tag[RCCE_LINE_SIZE - 4] = {0};
        if (r->size > 0)
            memcpy(tag, r->privbuf, r->size);
        r->nbytes = r->size;
        hs = rck_hal_mpb_write(rcce.hal, dcore, line + 4, tag, sizeof(tag));
        if (hs == RCK_OK)
            hs = rck_hal_mpb_store32(rcce.hal, dcore, line,
                                     RCK_IRCCE_INLINE_BASE +
                                         (uint32_t)r->size);
        return hs == RCK_OK ? iRCCE_SUCCESS : RCCE_ERROR_TARGET;
    }
    if (r->rck_kind != IRCCE_KIND_PLAIN) {
        uint32_t hdr[3] = {RCK_IRCCE_HDR_MAGIC | (uint32_t)r->rck_kind |
                               (r->rck_coll ? RCK_IRCCE_HDR_COLL : 0u),
                           (uint32_t)r->size,
                           (uint32_t)((uint64_t)r->size >> 32)};
        hs = rck_hal_mpb_write(rcce.hal, dcore, line + 4, hdr, sizeof(hdr));
        if (hs != RCK_OK)
            return RCCE_ERROR_TARGET;
    }
    return send_piece(r);
}

/* One step of the head send: start it, or take an acknowledgement and
 * send the next piece. @return 1 if anything happened. */
static int send_step(iRCCE_SEND_REQUEST *r)
{
    RCCE_FLAG_STATUS v = RCCE_FLAG_UNSET;
    int st;

    if (r->rck_state == IRCCE_ST_QUEUED) {
        st = send_start(r);
        if (st != iRCCE_SUCCESS)
            send_fail(r, st);
        return 1;
    }
    if (r->rck_state != IRCCE_ST_ACTIVE)
        return 0;
    st = rcce_flag_get(r->ready, &v, rcce.ue);
    if (st == RCCE_SUCCESS && v == RCCE_FLAG_UNSET)
        return 0;
    if (st == RCCE_SUCCESS)
        st = rcce_flag_set(r->ready, RCCE_FLAG_UNSET, rcce.ue);
    if (st == RCCE_SUCCESS && r->label == 0 &&
        r->rck_kind != IRCCE_KIND_PLAIN &&
        rck_hal_mpb_store32(rcce.hal, rcce_core_of(r->dest),
                            rcce_flag_offset(r->sent) + 4, 0) != RCK_OK)
        st = RCCE_ERROR_TARGET;
    if (st != RCCE_SUCCESS) {
        send_fail(r, st);
        return 1;
    }
    r->wsize += r->nbytes;
    r->label++;
    if (r->rck_kind == IRCCE_KIND_INLINE || r->wsize >= r->size) {
        r->remainder = 0;
        r->nbytes = 0;
        r->finished = 1;
        r->rck_state = IRCCE_ST_DONE;
        return 1;
    }
    st = send_piece(r);
    if (st != iRCCE_SUCCESS)
        send_fail(r, st);
    return 1;
}

/* ---- receive state machine ---- */

static void recv_fail(iRCCE_RECV_REQUEST *r, int code, const char *why)
{
    rcce_error(RCCE_DEBUG_COMM, code, "iRCCE receive", "from UE %d: %s",
               r->source, why);
    r->rck_state = IRCCE_ST_FAILED;
    r->rck_status = code;
}

static void recv_done(iRCCE_RECV_REQUEST *r)
{
    r->finished = 1;
    r->remainder = 0;
    r->rck_state = IRCCE_ST_DONE;
    rck_hal_comm_recv(rcce.hal, rck__ircce_lib, rcce_core_of(r->source),
                      r->size);
    ircce.recent_source = r->source;
    ircce.recent_length = (long)r->size;
}

/* Read the framing of the message whose first piece is announced by the
 * value @p v of sent[source]: kind and length (length unknown without
 * framing). */
static int read_framing(int source, uint32_t v, int *kind, size_t *len,
                        unsigned char *payload)
{
    uint32_t w[RCCE_LINE_SIZE / 4 - 1];

    *kind = IRCCE_KIND_PLAIN;
    *len = 0;
    if (!ircce.tagged)
        return iRCCE_SUCCESS;
    if (rck_hal_mpb_read(rcce.hal, rcce_core_of(rcce.ue),
                         rcce_flag_offset(&rcce.sent[source]) + 4, w,
                         sizeof(w)) != RCK_OK)
        return RCCE_ERROR_SOURCE;
    if (v == RCCE_FLAG_SET &&
        (w[0] & RCK_IRCCE_HDR_MASK) == RCK_IRCCE_HDR_MAGIC) {
        uint32_t k = w[0] & ~(RCK_IRCCE_HDR_MASK | RCK_IRCCE_HDR_COLL);
        if (k == IRCCE_KIND_FRAMED || k == IRCCE_KIND_PIPE) {
            *kind = (int)k;
            *len = (size_t)((uint64_t)w[1] | (uint64_t)w[2] << 32);
        }
    } else if (v >= RCK_IRCCE_INLINE_BASE &&
               v <= RCK_IRCCE_INLINE_BASE + (uint32_t)iRCCE_MAX_TAGGED_LEN) {
        *kind = IRCCE_KIND_INLINE;
        *len = v - RCK_IRCCE_INLINE_BASE;
        memcpy(payload, w, *len);
    }
    return iRCCE_SUCCESS;
}

/* The first piece of the message for @p r has been announced: check its
 * framing against what was posted. @return 1 to go on, 0 if @p r failed
 * or completed (inline). */
static int recv_first(iRCCE_RECV_REQUEST *r, uint32_t v)
{
    unsigned char payload[RCCE_LINE_SIZE];
    size_t len;
    int kind, st;

    st = read_framing(r->source, v, &kind, &len, payload);
    if (st != iRCCE_SUCCESS) {
        recv_fail(r, st, "cannot read the sent flag");
        return 0;
    }
    if (r->rck_any_length) {
        if (kind == IRCCE_KIND_PLAIN) {
            recv_fail(r, RCCE_ERROR_MESSAGE_LENGTH,
                      "iRCCE_ANY_LENGTH for a message that does not carry "
                      "its length (sent by RCCE_send or iRCCE_msend)");
            return 0;
        }
        r->size = len;
    } else if (kind != IRCCE_KIND_PLAIN && len != r->size) {
        char why[96];
        snprintf(why, sizeof(why),
                 "the message has %zu bytes, the receive expects %zu", len,
                 r->size);
        recv_fail(r, RCCE_ERROR_MESSAGE_LENGTH, why);
        return 0;
    } else if (kind == IRCCE_KIND_PLAIN && r->size == 0) {
        recv_fail(r, RCCE_ERROR_MESSAGE_LENGTH,
                  "a zero-byte synchronous receive met a message without "
                  "framing");
        return 0;
    }
    r->rck_kind = kind;
    r->started = 1;
    r->rck_state = IRCCE_ST_ACTIVE;
    r->chunk = rcce.combuf_len;
    r->combuf = ircce.mpb[r->source] + rcce.combuf_off;
    r->subchunk1 = r->chunk / 2 / rcce.line * rcce.line;
    r->subchunk2 = r->chunk - r->subchunk1;
    if (kind != IRCCE_KIND_INLINE)
        return 1;
    if (len > 0)
        memcpy(r->privbuf, payload, len);
    st = rcce_flag_set(r->sent, RCCE_FLAG_UNSET, rcce.ue);
    if (st == RCCE_SUCCESS)
        st = rcce_flag_set(r->ready, RCCE_FLAG_SET, r->source);
    if (st != RCCE_SUCCESS) {
        recv_fail(r, st, "flag write failed");
        return 0;
    }
    r->wsize = len;
    recv_done(r);
    return 0;
}

/* One step of the head receive of its source: take the announced piece.
 * @return 1 if anything happened. */
static int recv_step(iRCCE_RECV_REQUEST *r)
{
    RCCE_FLAG_STATUS v = RCCE_FLAG_UNSET;
    uint32_t off;
    size_t len;
    int st, last;

    if (r->rck_state != IRCCE_ST_QUEUED && r->rck_state != IRCCE_ST_ACTIVE)
        return 0;
    st = rcce_flag_get(r->sent, &v, rcce.ue);
    if (st != RCCE_SUCCESS) {
        recv_fail(r, st, "cannot read the sent flag");
        return 1;
    }
    if (v == RCCE_FLAG_UNSET)
        return 0;
    if (!r->started && !recv_first(r, (uint32_t)v))
        return 1;
    piece_geom(r->rck_kind, r->chunk, r->size, r->wsize, r->label, &off,
               &len);
    last = r->wsize + len >= r->size;
    r->nbytes = len;
    r->bufptr = r->privbuf + r->wsize;
    st = rcce_flag_set(r->sent, RCCE_FLAG_UNSET, rcce.ue);
    if (r->rck_kind == IRCCE_KIND_PIPE && !last) {
        /* early acknowledgement: the sender fills the other half while
         * this one is copied out */
        if (st == RCCE_SUCCESS)
            st = rcce_flag_set(r->ready, RCCE_FLAG_SET, r->source);
        if (st == RCCE_SUCCESS)
            st = rcce_get_piece(r->bufptr, rcce.combuf_off + off, len,
                                rcce_core_of(r->source));
    } else {
        if (st == RCCE_SUCCESS)
            st = rcce_get_piece(r->bufptr, rcce.combuf_off + off, len,
                                rcce_core_of(r->source));
        if (st == RCCE_SUCCESS)
            st = rcce_flag_set(r->ready, RCCE_FLAG_SET, r->source);
    }
    if (st != RCCE_SUCCESS) {
        recv_fail(r, st, "piece transfer failed");
        return 1;
    }
    r->wsize += len;
    r->remainder = r->size - r->wsize;
    r->label++;
    if (last)
        recv_done(r);
    return 1;
}

/* ---- queues ---- */

static int terminal(int state)
{
    return state != IRCCE_ST_QUEUED && state != IRCCE_ST_ACTIVE;
}

int ircce_send_queued(const iRCCE_SEND_REQUEST *r)
{
    for (const iRCCE_SEND_REQUEST *q = ircce.sq_head; q != NULL; q = q->next)
        if (q == r)
            return 1;
    return 0;
}

static int rq_contains(const ircce_rqueue_t *q, const iRCCE_RECV_REQUEST *r)
{
    for (const iRCCE_RECV_REQUEST *p = q->head; p != NULL; p = p->next)
        if (p == r)
            return 1;
    return 0;
}

int ircce_recv_queued(const iRCCE_RECV_REQUEST *r)
{
    if (r->source == iRCCE_ANY_SOURCE)
        return rq_contains(&ircce.aq, r);
    if (r->source < 0 || r->source >= rcce.nues)
        return 0;
    return rq_contains(&ircce.rq[r->source], r);
}

void ircce_send_unlink(iRCCE_SEND_REQUEST *r)
{
    iRCCE_SEND_REQUEST **pp = &ircce.sq_head, *prev = NULL;

    while (*pp != NULL && *pp != r) {
        prev = *pp;
        pp = &(*pp)->next;
    }
    if (*pp == NULL)
        return;
    *pp = r->next;
    if (ircce.sq_tail == r)
        ircce.sq_tail = prev;
    r->next = NULL;
}

static void rq_unlink(ircce_rqueue_t *q, iRCCE_RECV_REQUEST *r)
{
    iRCCE_RECV_REQUEST **pp = &q->head, *prev = NULL;

    while (*pp != NULL && *pp != r) {
        prev = *pp;
        pp = &(*pp)->next;
    }
    if (*pp == NULL)
        return;
    *pp = r->next;
    if (q->tail == r)
        q->tail = prev;
    r->next = NULL;
}

static void rq_append(ircce_rqueue_t *q, iRCCE_RECV_REQUEST *r)
{
    r->next = NULL;
    if (q->tail != NULL)
        q->tail->next = r;
    else
        q->head = r;
    q->tail = r;
}

void ircce_recv_unlink(iRCCE_RECV_REQUEST *r)
{
    if (r->source == iRCCE_ANY_SOURCE)
        rq_unlink(&ircce.aq, r);
    else if (r->source >= 0 && r->source < rcce.nues)
        rq_unlink(&ircce.rq[r->source], r);
}

/* Condition "the flag at this UE's MPB is set" for rck_hal_wait. */
static rck_hal_cond_t flag_cond(const RCCE_FLAG *f)
{
    rck_hal_cond_t c = {.space = RCK_SPACE_MPB,
                        .core = rcce_core_of(rcce.ue),
                        .offset = rcce_flag_offset(f),
                        .mask = rcce_flag_bits(f),
                        .value = 0,
                        .op = RCK_COND_NE};
    return c;
}

/* Sources an any-source request could take now (own queue empty), in
 * round-robin order from ircce.rr. @return how many. */
static int any_candidates(rck_hal_cond_t *conds, int *src)
{
    int k = 0;

    for (int i = 0; i < rcce.nues; i++) {
        int s = (ircce.rr + i) % rcce.nues;
        if (s == rcce.ue || ircce.rq[s].head != NULL)
            continue;
        conds[k] = flag_cond(&rcce.sent[s]);
        src[k++] = s;
    }
    return k;
}

/* Word 1 of sent[s]'s line (the framing, see ircce_internal.h) if the
 * message announced there belongs to a collective, else 0. @p v is the
 * flag's value. */
static uint32_t coll_mark(int s, uint32_t v)
{
    uint32_t w = 0;

    if (!ircce.tagged || v != RCCE_FLAG_SET ||
        rck_hal_mpb_load32(rcce.hal, rcce_core_of(rcce.ue),
                           rcce_flag_offset(&rcce.sent[s]) + 4,
                           &w) != RCK_OK)
        return 0;
    return (w & RCK_IRCCE_HDR_MASK) == RCK_IRCCE_HDR_MAGIC &&
                   (w & RCK_IRCCE_HDR_COLL)
               ? w
               : 0;
}

/* The first source, in round-robin order, that an any-source request can
 * take now: own queue empty, a message announced, and not a collective's
 * (those belong to a receive of that collective); never waits.
 * @return the source or -1. */
static int any_pick(void)
{
    int k = any_candidates(wait_conds, wait_src), k0 = k;

    while (k > 0) {
        int which = -1, s;
        RCCE_FLAG_STATUS v = RCCE_FLAG_UNSET;

        if (rck_hal_wait(rcce.hal, wait_conds, k, 0, 0, &which) != RCK_OK ||
            which < 0)
            break;
        s = wait_src[which];
        if (rcce_flag_get(&rcce.sent[s], &v, rcce.ue) != RCCE_SUCCESS)
            break;
        if (v != RCCE_FLAG_UNSET && coll_mark(s, (uint32_t)v) == 0)
            return s;
        /* a collective's message: try the sources after it */
        memmove(&wait_conds[which], &wait_conds[which + 1],
                (size_t)(k - which - 1) * sizeof(*wait_conds));
        memmove(&wait_src[which], &wait_src[which + 1],
                (size_t)(k - which - 1) * sizeof(*wait_src));
        k--;
    }
    if (k0 > 0 && k == k0) {
        /* nothing there: still charge one poll, as the search costs time
         * on the chip (keeps polling loops advancing on sim) */
        RCCE_FLAG_STATUS v;
        rcce_flag_get(&rcce.sent[wait_src[0]], &v, rcce.ue);
    }
    return -1;
}

/* Look for a source for the any-source request @p r; never waits. On
 * success @p r moves to the head of that source's (empty) queue.
 * @return 1 if bound. */
static int bind_any(iRCCE_RECV_REQUEST *r)
{
    int s = any_pick();

    if (s < 0)
        return 0;
    rq_unlink(&ircce.aq, r);
    r->source = s;
    r->sent = &rcce.sent[r->source];
    r->ready = &rcce.ready[rcce.ue];
    rq_append(&ircce.rq[r->source], r);
    ircce.rr = (r->source + 1) % rcce.nues;
    return 1;
}

int ircce_any_ready(void)
{
    return any_pick();
}

int ircce_p2p_announced(int s)
{
    RCCE_FLAG_STATUS v = RCCE_FLAG_UNSET;

    if (rcce_flag_get(&rcce.sent[s], &v, rcce.ue) != RCCE_SUCCESS)
        return 0;
    return v != RCCE_FLAG_UNSET && coll_mark(s, (uint32_t)v) == 0;
}

long ircce_peek_length(int source)
{
    unsigned char payload[RCCE_LINE_SIZE];
    RCCE_FLAG_STATUS v = RCCE_FLAG_UNSET;
    size_t len;
    int kind;

    if (rcce_flag_get(&rcce.sent[source], &v, rcce.ue) != RCCE_SUCCESS ||
        v == RCCE_FLAG_UNSET ||
        read_framing(source, (uint32_t)v, &kind, &len, payload) !=
            iRCCE_SUCCESS ||
        kind == IRCCE_KIND_PLAIN)
        return iRCCE_ANY_LENGTH;
    return (long)len;
}

int ircce_peek_first(int source, char *buf, size_t size, size_t *copied)
{
    unsigned char payload[RCCE_LINE_SIZE];
    RCCE_FLAG_STATUS v = RCCE_FLAG_UNSET;
    size_t len, avail;
    int kind, st;

    *copied = 0;
    st = rcce_flag_get(&rcce.sent[source], &v, rcce.ue);
    if (st == RCCE_SUCCESS && v == RCCE_FLAG_UNSET)
        return iRCCE_SUCCESS;
    if (st == RCCE_SUCCESS)
        st = read_framing(source, (uint32_t)v, &kind, &len, payload);
    if (st != RCCE_SUCCESS)
        return st;
    if (kind == IRCCE_KIND_INLINE) {
        avail = len < size ? len : size;
        if (avail > 0)
            memcpy(buf, payload, avail);
        *copied = avail;
        return iRCCE_SUCCESS;
    }
    /* the first piece is at the start of the sender's buffer: the whole
     * chunk, or its first half for a pipelined message (piece_geom) */
    avail = rcce.combuf_len;
    if (kind == IRCCE_KIND_PIPE)
        avail = avail / 2 / rcce.line * rcce.line;
    if (kind != IRCCE_KIND_PLAIN && len < avail)
        avail = len;
    if (size < avail)
        avail = size;
    if (avail > 0) {
        st = rcce_get_piece(buf, rcce.combuf_off, avail, rcce_core_of(source));
        if (st != RCCE_SUCCESS)
            return st;
    }
    *copied = avail;
    return iRCCE_SUCCESS;
}

static int progress_sends(void)
{
    int any = 0;

    while (ircce.sq_head != NULL) {
        iRCCE_SEND_REQUEST *r = ircce.sq_head;
        int p = send_step(r);
        if (terminal(r->rck_state)) {
            ircce_send_unlink(r);
            any = 1;
            continue;
        }
        any |= p;
        break;
    }
    return any;
}

static int progress_source(int s)
{
    int any = 0;

    while (ircce.rq[s].head != NULL) {
        iRCCE_RECV_REQUEST *r = ircce.rq[s].head;
        int p = recv_step(r);
        if (terminal(r->rck_state)) {
            rq_unlink(&ircce.rq[s], r);
            any = 1;
            continue;
        }
        any |= p;
        break;
    }
    return any;
}

static int progress_recvs(void)
{
    int any = 0;

    while (ircce.aq.head != NULL && bind_any(ircce.aq.head))
        any = 1;
    for (int s = 0; s < rcce.nues; s++)
        if (ircce.rq[s].head != NULL)
            any |= progress_source(s);
    return any;
}

int ircce_progress(void)
{
    while (progress_sends() | progress_recvs())
        ;
    return iRCCE_SUCCESS;
}

int ircce_isend_push_only(void)
{
    while (progress_sends())
        ;
    return ircce.sq_head == NULL ? iRCCE_SUCCESS : iRCCE_PENDING;
}

int ircce_irecv_push_only(void)
{
    int pending = ircce.aq.head != NULL;

    while (progress_recvs())
        ;
    pending = ircce.aq.head != NULL;
    for (int s = 0; s < rcce.nues && !pending; s++)
        pending = ircce.rq[s].head != NULL;
    return pending ? iRCCE_PENDING : iRCCE_SUCCESS;
}

int ircce_send_test_one(iRCCE_SEND_REQUEST *r)
{
    if (r != ircce.sq_head)
        return iRCCE_RESERVED;
    send_step(r);
    if (terminal(r->rck_state)) {
        ircce_send_unlink(r);
        return ircce_final_code(r->rck_state, r->rck_status);
    }
    return iRCCE_PENDING;
}

int ircce_recv_test_one(iRCCE_RECV_REQUEST *r)
{
    /* Any-source requests bind in the order they were posted: a test of
     * one behind the head must not bind it, or a message announced between
     * the head's test and this one overtakes (issue 9). */
    if (r->source == iRCCE_ANY_SOURCE &&
        (r != ircce.aq.head || !bind_any(r)))
        return iRCCE_RESERVED;
    if (r != ircce.rq[r->source].head)
        return iRCCE_RESERVED;
    recv_step(r);
    if (terminal(r->rck_state)) {
        rq_unlink(&ircce.rq[r->source], r);
        return ircce_final_code(r->rck_state, r->rck_status);
    }
    return iRCCE_PENDING;
}

int ircce_send_over(void *r)
{
    return terminal(((iRCCE_SEND_REQUEST *)r)->rck_state);
}

int ircce_recv_over(void *r)
{
    return terminal(((iRCCE_RECV_REQUEST *)r)->rck_state);
}

/* The words whose change could let a queued request progress, and the
 * sent flags of the source(s) @p watch names (IRCCE_WATCH_NONE,
 * iRCCE_ANY_SOURCE or a UE). */
static int blocked_conds(rck_hal_cond_t *conds, int watch)
{
    int k = 0;

    if (ircce.sq_head != NULL && ircce.sq_head->rck_state == IRCCE_ST_ACTIVE)
        conds[k++] = flag_cond(ircce.sq_head->ready);
    for (int s = 0; s < rcce.nues; s++) {
        RCCE_FLAG_STATUS v = RCCE_FLAG_UNSET;
        uint32_t mark;

        if (s == rcce.ue)
            continue;
        if (ircce.rq[s].head != NULL) {
            conds[k++] = flag_cond(&rcce.sent[s]);
            continue;
        }
        if (ircce.aq.head == NULL && watch != iRCCE_ANY_SOURCE && watch != s)
            continue;
        /* only an any-source request or a probe looks at this source: a
         * collective's message there cannot satisfy it, so wait for its
         * word 1 to change (the next message) instead of the set flag */
        conds[k] = flag_cond(&rcce.sent[s]);
        if (rcce_flag_get(&rcce.sent[s], &v, rcce.ue) == RCCE_SUCCESS &&
            (mark = coll_mark(s, (uint32_t)v)) != 0) {
            conds[k].offset += 4;
            conds[k].mask = 0xffffffffu;
            conds[k].value = mark;
        }
        k++;
    }
    return k;
}

int ircce_block(int (*done)(void *), void *arg, const char *call, int peer,
                int watch)
{
    return ircce_block_sized(done, arg, call, peer, watch, -1);
}

int ircce_block_sized(int (*done)(void *), void *arg, const char *call,
                      int peer, int watch, ssize_t size)
{
    int st = iRCCE_SUCCESS;

    rck_hal_set_context(rcce.hal, call, peer);
    if (size >= 0)
        rck_hal_set_message(rcce.hal, (long long)size, -1, -1);
    for (;;) {
        int k;
        rck_status_t hs;

        ircce_progress();
        if (done(arg))
            break;
        k = blocked_conds(wait_conds, watch);
        if (k == 0) {
            rck_error("%s: nothing queued can complete", call);
            st = iRCCE_ERROR;
            break;
        }
        hs = rck_hal_wait(rcce.hal, wait_conds, k, 0, rcce.wait_timeout_ns,
                          NULL);
        if (hs != RCK_OK) {
            st = ircce_hal_fail(hs, call);
            break;
        }
    }
    rck_hal_set_context(rcce.hal, NULL, -1);
    return st;
}

/* ---- posting ---- */

static char sync_dummy_out, sync_dummy_in;

int ircce_send_post(iRCCE_SEND_REQUEST *r, char *buf, ssize_t size, int dest,
                    int sync, const char *call)
{
    int st = ircce_ready(call, 1);

    if (st != iRCCE_SUCCESS)
        return st;
    if (r == NULL)
        return iRCCE_ERROR;
    if (size < 0)
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_MESSAGE_LENGTH, call,
                          "negative size %zd", size);
    if (!ircce_peer_ok(dest))
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_ID, call,
                          "UE %d is not a valid peer (0..%d, not self)", dest,
                          rcce.nues - 1);
    if (buf == NULL && size > 0)
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_TARGET, call,
                          "NULL buffer");
    if (r->rck_magic == RCK_IRCCE_REQ_MAGIC && !terminal(r->rck_state) &&
        ircce_send_queued(r)) {
        rck_info("%s: the request is still queued (reused before it "
                 "completed)",
                 call);
        return iRCCE_ERROR;
    }
    memset(r, 0, sizeof(*r));
    r->rck_magic = RCK_IRCCE_REQ_MAGIC;
    r->privbuf = buf;
    r->size = (size_t)size;
    r->dest = dest;
    r->sync = sync;
    r->rck_coll = rcce.coll > 0;
    if (size > 0 || sync)
        rck_hal_comm_count(rcce.hal,
                           r->rck_coll ? rck__rcce_lib : rck__ircce_lib,
                           rcce_core_of(dest), (size_t)size);
    r->ready = &rcce.ready[dest];
    r->sent = &rcce.sent[rcce.ue];
    r->flag_set_value = RCCE_FLAG_SET;
    r->chunk = rcce.combuf_len;
    r->combuf = ircce.mpb[rcce.ue] + rcce.combuf_off;
    if (size == 0 && !sync) {
        r->finished = 1;
        r->rck_state = IRCCE_ST_DONE;
        return iRCCE_SUCCESS;
    }
    if (size == 0 && !ircce.tagged) {
        /* a synchronising zero-byte message is one byte without framing */
        r->privbuf = &sync_dummy_out;
        r->size = 1;
    }
    if (!ircce.tagged)
        r->rck_kind = IRCCE_KIND_PLAIN;
    else if (sync && size <= iRCCE_MAX_TAGGED_LEN)
        r->rck_kind = IRCCE_KIND_INLINE;
    else if (sync)
        r->rck_kind = IRCCE_KIND_PIPE;
    else
        r->rck_kind = IRCCE_KIND_FRAMED;
    r->rck_state = IRCCE_ST_QUEUED;
    if (ircce.sq_tail != NULL)
        ircce.sq_tail->next = r;
    else
        ircce.sq_head = r;
    ircce.sq_tail = r;
    if (r != ircce.sq_head)
        return iRCCE_RESERVED;
    return ircce_send_test_one(r);
}

int ircce_recv_post(iRCCE_RECV_REQUEST *r, char *buf, ssize_t size,
                    int source, int sync, const char *call)
{
    int st = ircce_ready(call, 1);

    if (st != iRCCE_SUCCESS)
        return st;
    if (r == NULL)
        return iRCCE_ERROR;
    if (size < 0 && size != iRCCE_ANY_LENGTH)
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_MESSAGE_LENGTH, call,
                          "negative size %zd", size);
    if (size == iRCCE_ANY_LENGTH && !ircce.tagged)
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_MESSAGE_LENGTH, call,
                          "iRCCE_ANY_LENGTH needs whole-line flags (not "
                          "available with SINGLEBITFLAGS)");
    if (source != iRCCE_ANY_SOURCE && !ircce_peer_ok(source))
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_ID, call,
                          "UE %d is not a valid peer (0..%d, not self)",
                          source, rcce.nues - 1);
    if (buf == NULL && size != 0)
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_TARGET, call,
                          "NULL buffer");
    if (r->rck_magic == RCK_IRCCE_REQ_MAGIC && !terminal(r->rck_state) &&
        ircce_recv_queued(r)) {
        rck_info("%s: the request is still queued (reused before it "
                 "completed)",
                 call);
        return iRCCE_ERROR;
    }
    memset(r, 0, sizeof(*r));
    r->rck_magic = RCK_IRCCE_REQ_MAGIC;
    r->privbuf = buf;
    r->source = source;
    r->sync = sync;
    r->flag_set_value = RCCE_FLAG_SET;
    r->ready = &rcce.ready[rcce.ue];
    r->chunk = rcce.combuf_len;
    if (source != iRCCE_ANY_SOURCE) {
        r->sent = &rcce.sent[source];
        r->combuf = ircce.mpb[source] + rcce.combuf_off;
    }
    if (size == iRCCE_ANY_LENGTH) {
        r->rck_any_length = 1;
        r->size = 0;
    } else {
        r->size = (size_t)size;
    }
    if (size == 0 && !sync) {
        r->finished = 1;
        r->rck_state = IRCCE_ST_DONE;
        return iRCCE_SUCCESS;
    }
    if (size == 0 && !ircce.tagged) {
        r->privbuf = &sync_dummy_in;
        r->size = 1;
    }
    r->rck_state = IRCCE_ST_QUEUED;
    if (source == iRCCE_ANY_SOURCE) {
        rq_append(&ircce.aq, r);
        if (r != ircce.aq.head)
            return iRCCE_RESERVED;
    } else {
        rq_append(&ircce.rq[source], r);
        if (r != ircce.rq[source].head)
            return iRCCE_RESERVED;
    }
    return ircce_recv_test_one(r);
}
