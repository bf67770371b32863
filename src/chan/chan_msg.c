/*
 * rck_chan messages: the line rings, credits, the bulk path, send and
 * receive. The wire format and the ring invariants are at the top of
 * chan_internal.h.
 */
#include "chan_internal.h"

#include <string.h>

/* ---- shared-DRAM access and waiting ---- */

double rck__chan_now(chan_core_t *c)
{
    double t = 0;

    rck_hal_wtime(c->hal, &t);
    return t;
}

int64_t rck__chan_left(chan_core_t *c, double deadline)
{
    double left;

    if (deadline < 0)
        return -1;
    left = deadline - rck__chan_now(c);
    return left > 0 ? (int64_t)(left * 1e9) + 1 : 0;
}

static double deadline_of(chan_core_t *c, int64_t timeout_ns)
{
    return timeout_ns < 0 ? -1.0 : rck__chan_now(c) + (double)timeout_ns * 1e-9;
}

rck_status_t rck__chan_read(chan_core_t *c, uint32_t rel, void *dst,
                            size_t len)
{
    /* Lines of an MPBT mapping another core may have written: drop the
     * L1 copies first, or they are read stale. */
    rck_hal_cl1invmb(c->hal);
    return rck_hal_shm_read(c->hal, rck__chan_shm(c, rel), dst, len);
}

rck_status_t rck__chan_write(chan_core_t *c, uint32_t rel, const void *src,
                             size_t len)
{
    return rck_hal_shm_write(c->hal, rck__chan_shm(c, rel), src, len);
}

/* Write one word that publishes what was written before it (a sequence
 * number, a counter, a flag), and push it out of the write-combine
 * buffer. */
rck_status_t rck__chan_write32(chan_core_t *c, uint32_t rel, uint32_t v)
{
    rck_status_t st = rck__chan_write(c, rel, &v, sizeof(v));

    rck_hal_wcb_flush(c->hal);
    if (st == RCK_OK)
        st = rck_hal_shm_flush(c->hal);
    return st;
}

static rck_hal_cond_t shm_cond(chan_core_t *c, uint32_t rel, uint32_t value,
                               rck_cond_op_t op)
{
    rck_hal_cond_t k = {.space = RCK_SPACE_SHM,
                        .core = 0,
                        .offset = (uint32_t)rck__chan_shm(c, rel),
                        .mask = ~0u,
                        .value = value,
                        .op = op};
    return k;
}

rck_status_t rck__chan_wait(chan_core_t *c, const rck_hal_cond_t *conds,
                            int n, int64_t timeout_ns)
{
    unsigned flags = c->nnotified > 0 ? RCK_WAIT_IRQ : 0;
    rck_status_t st;

    /* An interrupt taken inside another HAL wait (a TAS acquire, RCCE)
     * only set the flag; PENDING stays set until we drain, so no other
     * interrupt would come: drain now instead of waiting for one. */
    if (c->irq_flag) {
        c->irq_flag = 0;
        rck__chan_drain(c);
        return RCK_OK;
    }
    st = rck_hal_wait(c->hal, conds, n, flags, timeout_ns, NULL);
    if (st == RCK_INTERRUPTED) {
        rck__chan_drain(c);
        return RCK_OK;
    }
    return st;
}

rck_status_t rck__chan_wait_ge(chan_core_t *c, uint32_t line, uint32_t word,
                               uint32_t target, uint32_t closed_word,
                               int64_t timeout_ns, int *closed,
                               uint32_t *value)
{
    double deadline = deadline_of(c, timeout_ns);

    *closed = 0;
    for (;;) {
        uint32_t l[CHAN_LINE / 4], v;
        rck_hal_cond_t k[2];
        int64_t left;
        rck_status_t st = rck__chan_read(c, line, l, sizeof(l));

        if (st != RCK_OK)
            return st;
        v = l[word / 4];
        if (value != NULL)
            *value = v;
        if ((int32_t)(v - target) >= 0)
            return RCK_OK;
        if (closed_word != CHAN_NO_WORD && l[closed_word / 4] != 0) {
            *closed = 1;
            return RCK_OK;
        }
        left = rck__chan_left(c, deadline);
        if (left == 0)
            return RCK_ERR_TIMEDOUT;
        k[0] = shm_cond(c, line + word, v, RCK_COND_NE);
        k[1] = shm_cond(c, line + (closed_word != CHAN_NO_WORD ? closed_word
                                                               : 0),
                        0, RCK_COND_NE);
        st = rck__chan_wait(c, k, closed_word != CHAN_NO_WORD ? 2 : 1, left);
        if (st != RCK_OK && st != RCK_ERR_TIMEDOUT)
            return st;
    }
}

/* ---- lines ---- */

static void put32(unsigned char *p, uint32_t v)
{
    memcpy(p, &v, 4);
}

static uint32_t get32(const unsigned char *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static uint32_t lines_for(size_t len)
{
    return len <= CHAN_FIRST_PAYLOAD
               ? 1
               : 1 + (uint32_t)((len - CHAN_FIRST_PAYLOAD +
                                 CHAN_NEXT_PAYLOAD - 1) /
                                CHAN_NEXT_PAYLOAD);
}

/* Library offset of ring line @p n (counted over the channel's life). */
static uint32_t ring_line(uint32_t blk, uint32_t lines, uint32_t n)
{
    return blk + BLK_RING + (n % lines) * CHAN_LINE;
}

int rck__chan_has_msg(chan_core_t *c, chan_t *ch)
{
    uint32_t line = ring_line(ch->in_blk, ch->in_lines, ch->rx_count);
    uint32_t seq;

    if (ch->head_valid)
        return 1;
    /* The seq word first, then the line: read in one go, the payload could
     * be loaded before the writer stored it and the seq after (a host
     * reorders nothing here, but one copy's loads have no order). The
     * second read is an L1 hit on the chip. */
    if (rck__chan_read(c, line + CHAN_SEQ_OFF, &seq, sizeof(seq)) != RCK_OK ||
        seq != ch->rx_count + 1)
        return 0;
    if (rck_hal_shm_read(c->hal, rck__chan_shm(c, line), ch->head_line,
                         CHAN_LINE) != RCK_OK)
        return 0;
    ch->head_valid = 1;
    return 1;
}

/* The lines of one message, seq words still unset. */
static void msg_build(unsigned char *buf, uint16_t type, uint8_t kind,
                      const void *data, size_t len, uint32_t n)
{
    const unsigned char *d = data;

    memset(buf, 0, (size_t)n * CHAN_LINE);
    memcpy(buf, &type, 2);
    buf[2] = kind;
    buf[3] = 0;
    put32(buf + 4, (uint32_t)len);
    if (kind != MSG_INLINE || len == 0)
        return;
    memcpy(buf + 8, d, len < CHAN_FIRST_PAYLOAD ? len : CHAN_FIRST_PAYLOAD);
    for (uint32_t i = 1; i < n; i++) {
        size_t at = CHAN_FIRST_PAYLOAD + (size_t)(i - 1) * CHAN_NEXT_PAYLOAD;
        size_t k = len - at < CHAN_NEXT_PAYLOAD ? len - at : CHAN_NEXT_PAYLOAD;
        memcpy(buf + (size_t)i * CHAN_LINE, d + at, k);
    }
}

/* ---- sending ---- */

enum { WHY_CREDIT = 1, WHY_NOTIFY = 2 };

/*
 * Put one message's @p n lines into the peer's ring and notify it.
 * @p close: the close marker (no credit needed, never busy).
 * @return RCK_OK; RCK_ERR_BUSY with *why (nothing was written).
 */
static rck_status_t msg_post(chan_core_t *c, chan_t *ch, unsigned char *buf,
                             uint32_t n, int close, int *why, uint32_t *tail)
{
    rck_hal_t *hal = c->hal;
    uint32_t usable = ch->out_lines - 1, inflight, first, slot;
    int locked = 0, raise = 0;
    rck_status_t st;

    inflight = ch->tx_count - ch->tx_acked;
    if (!close && inflight + n > usable) {
        uint32_t a[2];
        st = rck__chan_read(c, ch->out_blk + BLK_ACK, a, sizeof(a));
        if (st != RCK_OK)
            return st;
        if ((int32_t)(a[0] - ch->tx_acked) > 0)
            ch->tx_acked = a[0];
        if (a[1] != 0) {
            ch->peer_closed = 1;
            rck_debug("channel to UE %d port %u: the peer closed it",
                      ch->peer, ch->port);
            return RCK_ERR_STATE;
        }
        inflight = ch->tx_count - ch->tx_acked;
        if (inflight + n > usable) {
            c->stats.busy_credit++;
            *why = WHY_CREDIT;
            return RCK_ERR_BUSY;
        }
    }
    buf[3] = (uint8_t)(!close && 2 * (inflight + n) > usable ? MSG_F_ACKREQ
                                                             : 0);
    for (uint32_t i = 0; i < n; i++)
        put32(buf + (size_t)i * CHAN_LINE + CHAN_SEQ_OFF, ch->tx_count + 1 + i);
    /* the first line's seq is written last, alone */
    put32(buf + CHAN_SEQ_OFF, ~(ch->tx_count + 1));

    if (ch->out_kind == RCK_CHAN_NOTIFY_RING) {
        /* A sender retrying against a full ring looks without the lock
         * first, so that retries do not keep the lock from the others
         * (47 senders retrying starved some of them on the model). */
        if (!close && ch->ring_was_full && rck__chan_ring_full(c, ch, tail)) {
            c->stats.busy_notify++;
            *why = WHY_NOTIFY;
            return RCK_ERR_BUSY;
        }
        st = rck_hal_tas_acquire(hal, ch->peer_core);
        if (st != RCK_OK)
            return st;
        locked = 1;
        st = rck__chan_notify_locked(c, ch, close, &raise, tail);
        ch->ring_was_full = st == RCK_ERR_BUSY;
        if (st != RCK_OK) {
            rck_hal_tas_release(hal, ch->peer_core);
            if (st == RCK_ERR_BUSY) {
                c->stats.busy_notify++;
                *why = WHY_NOTIFY;
            }
            return st;
        }
    }
    slot = ch->tx_count % ch->out_lines;
    first = ch->out_lines - slot < n ? ch->out_lines - slot : n;
    st = rck__chan_write(c, ring_line(ch->out_blk, ch->out_lines,
                                      ch->tx_count),
                         buf, (size_t)first * CHAN_LINE);
    if (st == RCK_OK && first < n)
        st = rck__chan_write(c, ch->out_blk + BLK_RING,
                             buf + (size_t)first * CHAN_LINE,
                             (size_t)(n - first) * CHAN_LINE);
    if (st == RCK_OK)
        st = rck__chan_write32(c,
                               ring_line(ch->out_blk, ch->out_lines,
                                         ch->tx_count) +
                                   CHAN_SEQ_OFF,
                               ch->tx_count + 1);
    if (st == RCK_OK) {
        ch->tx_count += n;
        if (ch->out_kind == RCK_CHAN_NOTIFY_TREE) {
            st = rck_hal_tas_acquire(hal, ch->peer_core);
            if (st == RCK_OK) {
                locked = 1;
                st = rck__chan_notify_locked(c, ch, 1, &raise, NULL);
            }
        }
    }
    if (st == RCK_OK && raise) {
        st = rck_hal_irq_raise(hal, ch->peer_core, RCK_IRQ_PIN);
        c->stats.irqs_raised++;
    }
    if (locked)
        rck_hal_tas_release(hal, ch->peer_core);
    return st;
}

/* Wait until a post that was busy for @p why may succeed. */
static rck_status_t send_wait(chan_core_t *c, chan_t *ch, int why,
                              uint32_t tail)
{
    rck_hal_cond_t k[2];

    if (why == WHY_CREDIT) {
        k[0] = shm_cond(c, ch->out_blk + BLK_ACK + ACK_LINES, ch->tx_acked,
                        RCK_COND_NE);
        k[1] = shm_cond(c, ch->out_blk + BLK_ACK + ACK_CLOSED, 0, RCK_COND_NE);
        return rck__chan_wait(c, k, 2, -1);
    }
    k[0].space = RCK_SPACE_MPB;
    k[0].core = ch->peer_core;
    k[0].offset = c->mpb_off + MPB_TAIL;
    k[0].mask = ~0u;
    k[0].value = tail;
    k[0].op = RCK_COND_NE;
    return rck__chan_wait(c, k, 1, -1);
}

static rck_status_t bulk_send(chan_core_t *c, chan_t *ch, const void *data,
                              size_t len)
{
    const unsigned char *d = data;
    uint32_t piece;
    rck_status_t st;
    int closed;

    if (ch->out_bulk_off == 0) {
        uint32_t a[CHAN_LINE / 4];

        /* the receiver allocates its buffer at the first bulk header */
        st = rck__chan_wait_ge(c, ch->out_blk + BLK_ACK, ACK_BULK_OFF, 1,
                               ACK_CLOSED, -1, &closed, NULL);
        if (st == RCK_OK)
            st = rck__chan_read(c, ch->out_blk + BLK_ACK, a, sizeof(a));
        if (st != RCK_OK)
            return st;
        if (a[ACK_BULK_OFF / 4] == 0 && closed) {
            ch->peer_closed = 1;
            return RCK_ERR_STATE;
        }
        if (a[ACK_BULK_OFF / 4] == BULK_OFF_FAILED) {
            rck_error("rck_chan_send: UE %d has no room for the bulk buffer "
                      "of port %u; the %zu-byte message was dropped",
                      ch->peer, ch->port, len);
            return RCK_ERR_NOSPACE;
        }
        ch->out_bulk_off = a[ACK_BULK_OFF / 4];
        ch->out_bulk_bytes = a[ACK_BULK_BYTES / 4];
    }
    piece = ch->out_bulk_bytes / 2;
    for (size_t done = 0; done < len;) {
        uint32_t k = ch->tx_pieces, n;

        if (k - ch->tx_pieces_acked >= 2) {
            st = rck__chan_wait_ge(c, ch->out_blk + BLK_ACK, ACK_BULK, k - 1,
                                   ACK_CLOSED, -1, &closed,
                                   &ch->tx_pieces_acked);
            if (st != RCK_OK)
                return st;
            if (closed) {
                ch->peer_closed = 1;
                return RCK_ERR_STATE;
            }
        }
        n = len - done < piece ? (uint32_t)(len - done) : piece;
        st = rck__chan_write(c, ch->out_bulk_off + (k % 2) * piece, d + done,
                             n);
        if (st == RCK_OK)
            st = rck__chan_write32(c, ch->out_blk + TX_BULK, k + 1);
        if (st != RCK_OK)
            return st;
        ch->tx_pieces++;
        c->stats.bulk_pieces_sent++;
        done += n;
    }
    return RCK_OK;
}

static rck_status_t send_common(rck_chan_t h, uint16_t type, const void *data,
                                size_t len, int blocking, const char *what)
{
    chan_core_t *c = &rck__chan;
    unsigned char *buf;
    uint32_t n, tail = 0;
    int bulk, why = 0;
    chan_t *ch;
    rck_status_t st = rck__chan_get(c, h, what, &ch);

    if (st != RCK_OK)
        return st;
    if (data == NULL && len > 0) {
        rck_error("%s: NULL data for %zu bytes", what, len);
        return RCK_ERR_INVALID;
    }
    if (len > RCK_CHAN_MAX_MSG) {
        rck_error("%s: %zu bytes is above the largest message (%zu)", what,
                  len, RCK_CHAN_MAX_MSG);
        return RCK_ERR_INVALID;
    }
    bulk = len > ch->inline_max;
    if (bulk && ch->out_bulk_bytes == 0) {
        rck_error("%s: %zu bytes is above the %zu-byte inline limit and UE "
                  "%d gave port %u no bulk region",
                  what, len, ch->inline_max, ch->peer, ch->port);
        return RCK_ERR_INVALID;
    }
    if (ch->peer_closed) {
        rck_debug("%s: UE %d closed port %u", what, ch->peer, ch->port);
        return RCK_ERR_STATE;
    }
    n = bulk ? 1 : lines_for(len);
    buf = c->scratch;
    msg_build(buf, type, bulk ? MSG_BULK : MSG_INLINE, data, len, n);
    rck_hal_set_context(c->hal, what, ch->peer);
    for (;;) {
        st = msg_post(c, ch, buf, n, 0, &why, &tail);
        if (st != RCK_ERR_BUSY || !blocking)
            break;
        st = send_wait(c, ch, why, tail);
        if (st != RCK_OK)
            break;
    }
    if (st == RCK_OK && bulk)
        st = bulk_send(c, ch, data, len);
    if (st == RCK_OK) {
        c->stats.sent++;
        c->stats.bytes_sent += len;
        rck_hal_comm_count(c->hal, rck__chan_lib, c->hal->ue_core[ch->peer],
                           len);
    }
    rck_hal_set_context(c->hal, NULL, -1);
    return st;
}

rck_status_t rck_chan_send(rck_chan_t ch, uint16_t type, const void *data,
                           size_t len)
{
    return send_common(ch, type, data, len, 1, "rck_chan_send");
}

rck_status_t rck_chan_try_send(rck_chan_t ch, uint16_t type,
                               const void *data, size_t len)
{
    return send_common(ch, type, data, len, 0, "rck_chan_try_send");
}

void rck__chan_send_close(chan_core_t *c, chan_t *ch)
{
    rck_status_t st = RCK_OK;
    uint32_t tail;
    int why;

    if (!ch->peer_closed) {
        unsigned char *buf = c->scratch;
        msg_build(buf, 0, MSG_CLOSE, NULL, 0, 1);
        st = msg_post(c, ch, buf, 1, 1, &why, &tail);
    }
    /* The peer's receives end (TX), its sends fail (ACK), and it may
     * reuse its block once it sees TX. */
    if (st == RCK_OK)
        st = rck__chan_write32(c, ch->out_blk + TX_CLOSED, 1);
    if (st == RCK_OK)
        st = rck__chan_write32(c, ch->in_blk + BLK_ACK + ACK_CLOSED, 1);
    if (st != RCK_OK)
        rck_warn("rck_chan_close: telling UE %d about the close of port %u "
                 "failed (%s)",
                 ch->peer, ch->port, rck_status_string(st));
}

/* ---- receiving ---- */

static rck_status_t rx_ack(chan_core_t *c, chan_t *ch, uint8_t flags)
{
    if (!(flags & MSG_F_ACKREQ) &&
        ch->rx_count - ch->rx_acked < ch->in_lines / 2)
        return RCK_OK;
    ch->rx_acked = ch->rx_count;
    return rck__chan_write32(c, ch->in_blk + BLK_ACK + ACK_LINES, ch->rx_count);
}

static rck_status_t bulk_recv(chan_core_t *c, chan_t *ch, void *buf,
                              size_t len)
{
    unsigned char *d = buf;
    uint32_t piece;
    rck_status_t st;
    int closed;

    if (ch->in_bulk_off == BULK_OFF_FAILED) {
        rck_error("rck_chan_recv: no bulk buffer for port %u: the %zu-byte "
                  "message from UE %d is dropped",
                  ch->port, len, ch->peer);
        return RCK_ERR_NOSPACE;
    }
    if (ch->in_bulk_off == 0) {
        uint32_t off;

        if (ch->in_bulk_want == 0 ||
            rck__chan_alloc(c, ch->in_bulk_want, &off) != RCK_OK) {
            ch->in_bulk_off = BULK_OFF_FAILED;
            rck__chan_write32(c, ch->in_blk + BLK_ACK + ACK_BULK_OFF,
                              BULK_OFF_FAILED);
            rck_error("rck_chan_recv: no bulk buffer for port %u: the "
                      "%zu-byte message from UE %d is dropped",
                      ch->port, len, ch->peer);
            return RCK_ERR_NOSPACE;
        }
        ch->in_bulk_off = off;
        ch->in_bulk_bytes = ch->in_bulk_want;
        st = rck__chan_write32(c, ch->in_blk + BLK_ACK + ACK_BULK_BYTES,
                               ch->in_bulk_bytes);
        if (st == RCK_OK)
            st = rck__chan_write32(c, ch->in_blk + BLK_ACK + ACK_BULK_OFF,
                                   off);
        if (st != RCK_OK)
            return st;
    }
    piece = ch->in_bulk_bytes / 2;
    for (size_t done = 0; done < len;) {
        uint32_t k = ch->rx_pieces, n;

        st = rck__chan_wait_ge(c, ch->in_blk + BLK_TX, TX_BULK - BLK_TX, k + 1,
                               TX_CLOSED - BLK_TX, -1, &closed, NULL);
        if (st != RCK_OK)
            return st;
        if (closed) {
            ch->peer_closed = 1;
            rck_error("rck_chan_recv: UE %d closed port %u in the middle of "
                      "a %zu-byte message",
                      ch->peer, ch->port, len);
            return RCK_ERR_STATE;
        }
        n = len - done < piece ? (uint32_t)(len - done) : piece;
        st = rck__chan_read(c, ch->in_bulk_off + (k % 2) * piece, d + done, n);
        if (st == RCK_OK)
            st = rck__chan_write32(c, ch->in_blk + BLK_ACK + ACK_BULK, k + 1);
        if (st != RCK_OK)
            return st;
        ch->rx_pieces++;
        c->stats.bulk_pieces_received++;
        done += n;
    }
    return RCK_OK;
}

/* Copy an inline message whose first line is cached out of the ring. */
static rck_status_t inline_take(chan_core_t *c, chan_t *ch, void *buf,
                                size_t len)
{
    unsigned char *d = buf, *l = c->rx_scratch;
    uint32_t n = lines_for(len), rest = n - 1, slot, first;
    rck_status_t st;

    if (len == 0)
        return RCK_OK;
    memcpy(d, ch->head_line + 8,
           len < CHAN_FIRST_PAYLOAD ? len : CHAN_FIRST_PAYLOAD);
    if (rest == 0)
        return RCK_OK;
    /* the first line was written last: the others are all there */
    slot = (ch->rx_count + 1) % ch->in_lines;
    first = ch->in_lines - slot < rest ? ch->in_lines - slot : rest;
    st = rck__chan_read(c, ring_line(ch->in_blk, ch->in_lines,
                                     ch->rx_count + 1),
                        l, (size_t)first * CHAN_LINE);
    if (st == RCK_OK && first < rest)
        st = rck_hal_shm_read(c->hal, rck__chan_shm(c, ch->in_blk + BLK_RING),
                              l + (size_t)first * CHAN_LINE,
                              (size_t)(rest - first) * CHAN_LINE);
    if (st != RCK_OK)
        return st;
    for (uint32_t i = 1; i < n; i++) {
        const unsigned char *li = l + (size_t)(i - 1) * CHAN_LINE;
        size_t at = CHAN_FIRST_PAYLOAD + (size_t)(i - 1) * CHAN_NEXT_PAYLOAD;
        size_t k = len - at < CHAN_NEXT_PAYLOAD ? len - at : CHAN_NEXT_PAYLOAD;

        if (get32(li + CHAN_SEQ_OFF) != ch->rx_count + 1 + i) {
            rck_error("rck_chan_recv: line %u of a message from UE %d on "
                      "port %u has seq %u, expected %u",
                      i, ch->peer, ch->port, get32(li + CHAN_SEQ_OFF),
                      ch->rx_count + 1 + i);
            return RCK_ERR_IO;
        }
        memcpy(d + at, li, k);
    }
    return RCK_OK;
}

enum { RX_WAIT = 0, RX_TRY = 1, RX_PEEK = 2 };

static rck_status_t recv_common(rck_chan_t h, uint16_t *type, void *buf,
                                size_t cap, size_t *len, int64_t timeout_ns,
                                int mode, const char *what)
{
    chan_core_t *c = &rck__chan;
    double deadline;
    uint32_t mlen;
    uint16_t mtype;
    uint8_t kind, flags;
    chan_t *ch;
    rck_status_t st = rck__chan_get(c, h, what, &ch);

    if (st != RCK_OK)
        return st;
    if (len == NULL || (buf == NULL && cap > 0)) {
        rck_error("%s: NULL %s", what, len == NULL ? "length" : "buffer");
        return RCK_ERR_INVALID;
    }
    deadline = deadline_of(c, mode == RX_WAIT ? timeout_ns : 0);
    while (!rck__chan_has_msg(c, ch)) {
        uint32_t closed = 0;
        rck_hal_cond_t k[2];
        int64_t left;

        if (ch->peer_closed)
            goto peer_closed;
        st = rck__chan_read(c, ch->in_blk + TX_CLOSED, &closed, 4);
        if (st != RCK_OK)
            return st;
        if (closed) {
            /* the close marker, if any, was written before the word */
            if (rck__chan_has_msg(c, ch))
                break;
            ch->peer_closed = 1;
            goto peer_closed;
        }
        left = rck__chan_left(c, deadline);
        if (left == 0)
            return mode == RX_WAIT ? RCK_ERR_TIMEDOUT : RCK_ERR_NOT_FOUND;
        k[0] = shm_cond(c,
                        ring_line(ch->in_blk, ch->in_lines, ch->rx_count) +
                            CHAN_SEQ_OFF,
                        ch->rx_count + 1, RCK_COND_EQ);
        k[1] = shm_cond(c, ch->in_blk + TX_CLOSED, 0, RCK_COND_NE);
        rck_hal_set_context(c->hal, what, ch->peer);
        st = rck__chan_wait(c, k, 2, left);
        rck_hal_set_context(c->hal, NULL, -1);
        if (st != RCK_OK && st != RCK_ERR_TIMEDOUT)
            return st;
    }
    memcpy(&mtype, ch->head_line, 2);
    kind = ch->head_line[2];
    flags = ch->head_line[3];
    mlen = get32(ch->head_line + 4);
    if (kind == MSG_CLOSE) {
        ch->rx_count++;
        ch->head_valid = 0;
        ch->peer_closed = 1;
        goto peer_closed;
    }
    if ((kind != MSG_INLINE && kind != MSG_BULK) ||
        (kind == MSG_INLINE && lines_for(mlen) > (ch->in_lines - 1) / 2) ||
        mlen > RCK_CHAN_MAX_MSG) {
        rck_error("%s: corrupt message header from UE %d on port %u (kind "
                  "%u, %u bytes)",
                  what, ch->peer, ch->port, kind, mlen);
        return RCK_ERR_IO;
    }
    *len = mlen;
    if (type != NULL)
        *type = mtype;
    if (mode == RX_PEEK)
        return RCK_OK;
    if (mlen > cap) {
        rck_error("%s: the next message on port %u has %u bytes, the buffer "
                  "%zu; it stays in the channel",
                  what, ch->port, mlen, cap);
        return RCK_ERR_NOSPACE;
    }
    rck_hal_set_context(c->hal, what, ch->peer);
    if (kind == MSG_INLINE) {
        st = inline_take(c, ch, buf, mlen);
        if (st == RCK_OK) {
            ch->rx_count += lines_for(mlen);
            ch->head_valid = 0;
            st = rx_ack(c, ch, flags);
        }
    } else {
        ch->rx_count++;
        ch->head_valid = 0;
        st = rx_ack(c, ch, flags);
        if (st == RCK_OK)
            st = bulk_recv(c, ch, buf, mlen);
    }
    if (st == RCK_OK)
        rck_hal_comm_recv(c->hal, rck__chan_lib, c->hal->ue_core[ch->peer],
                          mlen);
    rck_hal_set_context(c->hal, NULL, -1);
    if (st == RCK_OK) {
        c->stats.received++;
        c->stats.bytes_received += mlen;
    }
    rck__chan_drain_if_busy(c);
    return st;

peer_closed:
    rck_debug("%s: UE %d closed port %u", what, ch->peer, ch->port);
    return RCK_ERR_STATE;
}

rck_status_t rck_chan_recv(rck_chan_t ch, uint16_t *type, void *buf,
                           size_t cap, size_t *len, int64_t timeout_ns)
{
    return recv_common(ch, type, buf, cap, len, timeout_ns, RX_WAIT,
                       "rck_chan_recv");
}

rck_status_t rck_chan_try_recv(rck_chan_t ch, uint16_t *type, void *buf,
                               size_t cap, size_t *len)
{
    return recv_common(ch, type, buf, cap, len, 0, RX_TRY,
                       "rck_chan_try_recv");
}

rck_status_t rck_chan_peek(rck_chan_t ch, uint16_t *type, size_t *len)
{
    return recv_common(ch, type, NULL, 0, len, 0, RX_PEEK, "rck_chan_peek");
}
