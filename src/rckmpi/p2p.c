/*
 * Point-to-point messages over the channels (docs/MPI.md, "Protocols").
 *
 * A message travels as frames on the sender->receiver pipe; a frame
 * starts a packet, or follows whole frames in one, and may run over many.
 * Its 16-byte header:
 *   word 0  kind (bits 24-31) | context id (bits 0-23)
 *   word 1  tag (EAGER, RTS) or the receiver's token (CTS)
 *   word 2  message bytes (EAGER, RTS) or bytes that follow (DATA)
 *   word 3  the sender's request (RTS, CTS) or the receiver's token (DATA)
 * EAGER carries the data (messages up to RCK_MPI_EAGER bytes in standard,
 * ready and buffered mode). Larger messages and every synchronous send
 * go by rendezvous: RTS (the envelope), then once a receive matches it
 * the receiver answers CTS and the sender streams one DATA frame straight
 * into the receive buffer. Envelopes are matched in arrival order, and the
 * pipe keeps each pair's frames in order, so MPI's ordering holds on both
 * channels. A frame that matches no posted receive goes to the
 * unexpected queue (eager data is buffered there).
 */
#include "rckmpi.h"

#include "rck/config.h"
#include "rck/log.h"
#include "rck/monitor.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

enum { F_EAGER = 1, F_RTS = 2, F_RTS_SYNC = 3, F_CTS = 4, F_DATA = 5 };
#define HDR 16u

/* Data of a held frame up to this many bytes live in the frame itself. */
#define OUT_INLINE 64u

typedef struct rk_out {
    struct rk_out *next;
    uint32_t hdr[4];
    const char *data;
    size_t len, off;
    int hdr_sent;
    MPI_Request req; /* completed when the frame is out (0: none) */
    size_t held;     /* outbox bytes its copy of the data takes (0: none) */
    char *copy;      /* that copy, when not in inl */
    char inl[OUT_INLINE];
} rk_out_t;

#define UQ_KEYS 256u

static unsigned uq_key(uint32_t ctx, int tag)
{
    uint32_t h = (ctx * 0x9e3779b1u) ^ ((uint32_t)tag * 0x85ebca77u);

    return (h ^ (h >> 16)) % UQ_KEYS;
}

#define MSG_INLINE 64

typedef struct rk_msg {
    struct rk_msg *next; /* the next from the same sender */
    unsigned long long seq; /* arrival order among all senders */
    int kind;
    uint32_t ctx;
    int src, tag;      /* UE, tag */
    size_t size, got;
    char *data;        /* eager data */
    uint32_t sreq;     /* RTS: the sender's request */
    MPI_Request waiter;
    char inl[MSG_INLINE]; /* data of up to MSG_INLINE bytes (data = inl) */
} rk_msg_t;

/* Unexpected messages, kept for the next ones: a root whose senders run
 * ahead takes every small message unexpected, and a calloc, a malloc and
 * two frees per message were a quarter of its time (perf on the root of
 * an 8-process 4-byte gather, docs/MPI.md "The gather's root"). At most
 * MSG_FREE_MAX are kept. */
static rk_msg_t *msg_free_list;
static int msg_free_n;
#define MSG_FREE_MAX 4096

static rk_msg_t *msg_new(void)
{
    rk_msg_t *m = msg_free_list;

    if (m != NULL) {
        msg_free_list = m->next;
        msg_free_n--;
        memset(m, 0, offsetof(rk_msg_t, inl));
        return m;
    }
    return calloc(1, sizeof *m);
}

static void msg_free(rk_msg_t *m)
{
    if (m->data != m->inl)
        free(m->data);
    if (msg_free_n >= MSG_FREE_MAX) {
        free(m);
        return;
    }
    m->next = msg_free_list;
    msg_free_list = m;
    msg_free_n++;
}

typedef struct {
    int active;        /* inside a frame */
    size_t left;
    char *dst;         /* where the rest goes (NULL: dropped) */
    rk_msg_t *msg;     /* unexpected eager message being filled */
    MPI_Request req;   /* receive being filled */
} rk_in_t;

static struct {
    rk_out_t **head, **tail; /* per destination */
    rk_in_t *in;             /* per source */
    /* unexpected messages, per sender in arrival order (a receive from one
     * sender searches its list only: a root whose senders ran ahead had a
     * list of thousands to walk for the one sender it waited for), and
     * their count; seq numbers the arrivals for MPI_ANY_SOURCE */
    rk_msg_t **uq, **uq_tail;
    size_t uq_n;
    unsigned long long uq_seq;
    /* how many of them have each (context, tag) hash: a search for a tag
     * none has ends at once (world rank 0's name service probes for its
     * tag in every progress call, and walked every message queued) */
    unsigned uq_keys[UQ_KEYS];
    rk_req_t *posted, *posted_tail;
    rck_hal_cond_t *conds;
    char *pkt, *ack_wait;
    int first;
    int busy; /* destinations with frames queued */
    size_t held, held_max; /* the outbox: bytes held, RCK_MPI_OUTBOX */
} p2p;

/* RCK_MPI_EAGER: a size, or auto: RCKMPI's 16 KiB on the MPB channels;
 * on the ring channels what a pair's ring holds (an eager message is then
 * written whole while the receiver wakes: one wake-up instead of the
 * rendezvous's three), at least 16 KiB and at most 256 KiB. */
static size_t eager_limit(void)
{
    const char *v = rck_config_get("MPI_EAGER");
    size_t n = 16384, ring = (size_t)rk.chan.ring_slots *
                             (rk.chan.slot_bytes > RK_EWS_HDR
                                  ? rk.chan.slot_bytes - RK_EWS_HDR
                                  : 0);

    if (strcmp(v, "auto") != 0) {
        if (rck_config_parse_size(v, &n) != 0)
            n = 16384; /* the launcher has refused anything else */
        return n;
    }
    if (ring > n)
        n = ring < 262144 ? ring : 262144;
    return n;
}

int rk_p2p_init(void)
{
    size_t n = (size_t)rk.nues;

    p2p.head = calloc(n, sizeof(*p2p.head));
    p2p.tail = calloc(n, sizeof(*p2p.tail));
    p2p.in = calloc(n, sizeof(*p2p.in));
    p2p.conds = calloc(3 * n + 1, sizeof(*p2p.conds));
    p2p.pkt = malloc(rk_chan_maxpkt());
    p2p.ack_wait = calloc(n, 1);
    p2p.uq = calloc(n, sizeof(*p2p.uq));
    p2p.uq_tail = calloc(n, sizeof(*p2p.uq_tail));
    if (!p2p.head || !p2p.tail || !p2p.in || !p2p.conds || !p2p.pkt ||
        !p2p.ack_wait || !p2p.uq || !p2p.uq_tail)
        return MPI_ERR_NO_MEM;
    rk.eager = eager_limit();
    p2p.held_max = rck_config_get_size("MPI_OUTBOX");
    return MPI_SUCCESS;
}

/* Finished outgoing frames, kept for the next ones (a malloc and a free
 * per message were a tenth of a small message's instructions). */
static rk_out_t *out_free;

void rk_p2p_finalize(void)
{
    for (int s = 0; p2p.uq != NULL && s < rk.nues; s++)
        while (p2p.uq[s] != NULL) {
            rk_msg_t *m = p2p.uq[s];
            p2p.uq[s] = m->next;
            m->next = NULL;
            msg_free(m);
        }
    while (msg_free_list != NULL) {
        rk_msg_t *m = msg_free_list;
        msg_free_list = m->next;
        free(m);
    }
    msg_free_n = 0;
    free(p2p.uq);
    free(p2p.uq_tail);
    while (out_free != NULL) {
        rk_out_t *o = out_free;
        out_free = o->next;
        free(o);
    }
    free(p2p.head);
    free(p2p.tail);
    free(p2p.in);
    free(p2p.conds);
    free(p2p.pkt);
    free(p2p.ack_wait);
    memset(&p2p, 0, sizeof p2p);
}

static void out_release(rk_out_t *o)
{
    if (o->held > 0) {
        p2p.held -= o->held;
        free(o->copy);
        o->copy = NULL;
        o->held = 0;
    }
    o->next = out_free;
    out_free = o;
}

/* A frame's header (see the top). */
static void frame_hdr(uint32_t hdr[4], int kind, uint32_t ctx, uint32_t w1,
                      size_t size, uint32_t w3)
{
    hdr[0] = (uint32_t)kind << 24 | (ctx & 0xffffffu);
    hdr[1] = w1;
    hdr[2] = (uint32_t)size;
    hdr[3] = w3;
}

static int enqueue(int d, int kind, uint32_t ctx, uint32_t w1, size_t size,
                   uint32_t w3, const void *data, size_t len, MPI_Request req)
{
    rk_out_t *o = out_free;

    if (o != NULL) {
        out_free = o->next;
        memset(o, 0, sizeof *o);
    } else if ((o = calloc(1, sizeof *o)) == NULL) {
        return MPI_ERR_NO_MEM;
    }
    frame_hdr(o->hdr, kind, ctx, w1, size, w3);
    o->data = data;
    o->len = len;
    o->req = req;
    if (p2p.tail[d] != NULL) {
        p2p.tail[d]->next = o;
    } else {
        p2p.head[d] = o;
        p2p.busy++;
    }
    p2p.tail[d] = o;
    return MPI_SUCCESS;
}

static void req_complete(rk_req_t *r, MPI_Request h)
{
    r->done = 1;
    rk_mt_progress++; /* a waiting thread's request, perhaps (lock.c) */
    if (r->own_data) {
        free(r->data);
        r->data = NULL;
        r->own_data = 0;
    }
    if (r->bsend) {
        rk_bsend_release(r->bsend);
        r->bsend = 0;
    }
    if (r->freed)
        rk_req_release(h);
}

/* Bytes of frame @p o still to send. */
static size_t frame_want(const rk_out_t *o)
{
    return (o->hdr_sent ? 0 : HDR) + (o->len - o->off);
}

/* Pieces of one packet (two per frame: its header and its data), so at
 * most 16 frames in a packet. */
#define PACK_PARTS 32

/* The head frame @p o is out: unlink it, complete its request. */
static void frame_sent(int d, rk_out_t *o)
{
    p2p.head[d] = o->next;
    if (p2p.head[d] == NULL) {
        p2p.tail[d] = NULL;
        p2p.busy--;
    }
    if (o->req != MPI_REQUEST_NULL) {
        rk_req_t *r = rk_req(o->req);
        if (r != NULL)
            req_complete(r, o->req);
    }
    out_release(o);
}

/* Push one packet to @p d if its pipe is free: 1 if it went through a
 * ring, where the next one may follow at once (several in flight). A
 * packet carries the head frame (or what of it fits) and, when that one
 * ends in it, the whole frames queued behind it that fit too (the
 * receiver reads frame after frame: packet_in): a stream of small
 * messages held while the pipe was busy goes out in one packet and one
 * wake-up of the receiver. */
static int push_one(int d)
{
    rk_out_t *o = p2p.head[d], *q, *last;
    const void *parts[PACK_PARTS];
    size_t lens[PACK_PARTS], want, room, n, all, total;
    int np = 0, route;

    if (o == NULL)
        return 0;
    want = frame_want(o);
    if (!rk_chan_ready(d, want))
        return 0;
    /* the frames this packet could carry (no more than the packing below
     * takes: a queue of thousands of held 4-byte frames was walked whole
     * for every packet) */
    all = want;
    int k = 0;
    for (q = o->next; q != NULL && all < 65536 && k < PACK_PARTS / 2;
         q = q->next, k++)
        all += HDR + q->len;
    room = rk_chan_room(d, all);
    n = want < room ? want : room;
    total = n;
    if (!o->hdr_sent) {
        parts[np] = o->hdr;
        lens[np++] = HDR;
        n -= HDR;
    }
    if (n > 0) {
        parts[np] = o->data + o->off;
        lens[np++] = n;
    }
    last = o;
    if (o->off + n == o->len) {
        for (q = o->next; q != NULL && np + 2 <= PACK_PARTS; q = q->next) {
            if (total + HDR + q->len > room)
                break;
            parts[np] = q->hdr;
            lens[np++] = HDR;
            if (q->len > 0) {
                parts[np] = q->data;
                lens[np++] = q->len;
            }
            total += HDR + q->len;
            last = q;
        }
    }
    if (rk_chan_put(d, parts, lens, np) != MPI_SUCCESS)
        return 0;
    route = rk.chan.pipe[d].route;
    o->hdr_sent = 1;
    o->off += n;
    if (o->off < o->len)
        return route;
    for (;;) {
        q = p2p.head[d];
        frame_sent(d, q);
        if (q == last)
            break;
    }
    return route;
}

/* Push to @p d what its pipe takes now: one packet through the MPBs (one
 * in flight), as many as the ring has free slots. */
static void push(int d)
{
    for (int k = 0; k < 64 && push_one(d); k++)
        ;
}

static int tag_match(int want, int tag)
{
    return want == MPI_ANY_TAG || want == tag;
}

static int env_match(const rk_req_t *r, uint32_t ctx, int src, int tag)
{
    if (r->ctx != ctx || !tag_match(r->tag, tag))
        return 0;
    if (r->peer == MPI_ANY_SOURCE) {
        const rk_comm_t *c = rk_comm_any(r->comm);
        return c != NULL && c->rank_of[src] >= 0;
    }
    return r->peer_ue == src;
}

static size_t capacity(const rk_req_t *r)
{
    return rk_type(r->type)->size * (size_t)r->count;
}

/* The receive @p r matched a message of @p size bytes from UE @p src:
 * status, truncation, and where the data goes. */
static char *recv_target(rk_req_t *r, int src, int tag, size_t size)
{
    const rk_type_t *t = rk_type(r->type);
    const rk_comm_t *c = rk_comm_any(r->comm);
    size_t cap = capacity(r);

    r->peer_ue = src;
    r->st.MPI_SOURCE = c != NULL ? c->rank_of[src] : src;
    r->st.MPI_TAG = tag;
    r->bytes = size < cap ? size : cap;
    if (size > cap)
        r->err = MPI_ERR_TRUNCATE;
    if (t->contig && size <= cap)
        return r->buf;
    r->data = malloc(size ? size : 1);
    r->own_data = 1;
    return r->data;
}

static void recv_finish(rk_req_t *r, MPI_Request h)
{
    if (r->own_data && r->data != NULL)
        rk_unpack(r->data, r->bytes, r->count, rk_type(r->type), r->buf);
    r->st.MPI_ERROR = r->err;
    r->st.rck_bytes = (long long)r->bytes;
    req_complete(r, h);
}

static void send_cts(rk_req_t *r, MPI_Request h, uint32_t sreq)
{
    r->token = (uint32_t)h;
    enqueue(r->peer_ue, F_CTS, 0, (uint32_t)h, 0, sreq, NULL, 0,
            MPI_REQUEST_NULL);
}

/* A receive matched an unexpected message: take it over. */
static void take_unexpected(rk_req_t *r, MPI_Request h, rk_msg_t *m)
{
    char *dst = recv_target(r, m->src, m->tag, m->size);

    if (m->kind != F_EAGER) {
        r->bytes = m->size < capacity(r) ? m->size : capacity(r);
        send_cts(r, h, m->sreq);
        msg_free(m);
        return;
    }
    if (m->got < m->size) {
        /* still arriving: the frame delivers to the receive at its end */
        m->waiter = h;
        return;
    }
    if (r->bytes > 0)
        memcpy(dst, m->data, r->bytes);
    msg_free(m);
    recv_finish(r, h);
}

static void uq_remove(rk_msg_t *m, rk_msg_t *prev)
{
    int s = m->src;

    if (prev != NULL)
        prev->next = m->next;
    else
        p2p.uq[s] = m->next;
    if (p2p.uq_tail[s] == m)
        p2p.uq_tail[s] = prev;
    m->next = NULL;
    p2p.uq_n--;
    p2p.uq_keys[uq_key(m->ctx, m->tag)]--;
}

/* The earliest unexpected message that @p match accepts: from UE @p src
 * (its list only), or from any sender (src < 0: the first match of every
 * sender's list, the earliest of them). *prev is its predecessor in its
 * list, for uq_remove. */
static rk_msg_t *uq_find(int src, uint32_t ctx, int tag,
                         int (*match)(const rk_msg_t *, const void *),
                         const void *arg, rk_msg_t **prev)
{
    rk_msg_t *best = NULL;

    if (p2p.uq_n == 0 ||
        (tag != MPI_ANY_TAG && p2p.uq_keys[uq_key(ctx, tag)] == 0))
        return NULL;
    for (int s = src >= 0 ? src : 0; s < (src >= 0 ? src + 1 : rk.nues);
         s++) {
        rk_msg_t *pv = NULL;
        for (rk_msg_t *m = p2p.uq[s]; m != NULL; pv = m, m = m->next)
            if (match(m, arg)) {
                if (best == NULL || m->seq < best->seq) {
                    best = m;
                    *prev = pv;
                }
                break;
            }
    }
    return best;
}

static int recv_matches(const rk_msg_t *m, const void *r)
{
    return env_match(r, m->ctx, m->src, m->tag);
}

int rk_start_recv(MPI_Request h)
{
    rk_req_t *r = rk_req(h);
    rk_msg_t *m, *prev = NULL;

    r->done = 0;
    r->err = MPI_SUCCESS;
    r->bytes = 0;
    r->st.rck_cancelled = 0;
    if (r->peer == MPI_PROC_NULL) {
        r->st.MPI_SOURCE = MPI_PROC_NULL;
        r->st.MPI_TAG = MPI_ANY_TAG;
        recv_finish(r, h);
        return MPI_SUCCESS;
    }
    m = uq_find(r->peer == MPI_ANY_SOURCE ? -1 : r->peer_ue, r->ctx, r->tag,
                recv_matches, r, &prev);
    if (m != NULL) {
        uq_remove(m, prev);
        take_unexpected(r, h, m);
        return MPI_SUCCESS;
    }
    r->next = NULL;
    if (p2p.posted_tail != NULL)
        p2p.posted_tail->next = r;
    else
        p2p.posted = r;
    p2p.posted_tail = r;
    return MPI_SUCCESS;
}

static void posted_unlink(rk_req_t *q, rk_req_t *prev)
{
    if (prev != NULL)
        prev->next = q->next;
    else
        p2p.posted = q->next;
    if (p2p.posted_tail == q)
        p2p.posted_tail = prev;
    q->next = NULL;
}

int rk_cancel_recv(rk_req_t *r)
{
    rk_req_t *q, *prev = NULL;

    for (q = p2p.posted; q != NULL; prev = q, q = q->next)
        if (q == r) {
            posted_unlink(q, prev);
            r->st.rck_cancelled = 1;
            r->st.MPI_ERROR = MPI_SUCCESS;
            r->done = 1;
            return 1;
        }
    return 0;
}

/* The first posted receive matching the envelope, unlinked; or NULL. */
static rk_req_t *posted_take(uint32_t ctx, int src, int tag)
{
    rk_req_t *q, *prev = NULL;

    for (q = p2p.posted; q != NULL; prev = q, q = q->next)
        if (env_match(q, ctx, src, tag)) {
            posted_unlink(q, prev);
            return q;
        }
    return NULL;
}

/* An EAGER or RTS envelope arrived from @p s. */
static void frame_envelope(int s, int kind, const uint32_t *hdr)
{
    rk_in_t *in = &p2p.in[s];
    uint32_t ctx = hdr[0] & 0xffffffu;
    int tag = (int)hdr[1];
    size_t size = hdr[2];
    rk_req_t *r = posted_take(ctx, s, tag);
    rk_msg_t *m;

    if (r != NULL) {
        MPI_Request h = r->self;
        char *dst = recv_target(r, s, tag, size);
        if (kind != F_EAGER) {
            send_cts(r, h, hdr[3]);
            return;
        }
        in->req = h;
        in->dst = dst;
        in->left = size;
        return;
    }
    m = msg_new();
    if (m == NULL) {
        rck_error("MPI: out of memory for an unexpected message");
        abort();
    }
    m->kind = kind;
    m->ctx = ctx;
    m->src = s;
    m->tag = tag;
    m->size = size;
    m->sreq = hdr[3];
    if (kind == F_EAGER) {
        m->data = size <= MSG_INLINE ? m->inl : malloc(size);
        if (m->data == NULL) {
            rck_error("MPI: out of memory for an unexpected message of %zu "
                      "bytes", size);
            abort();
        }
        in->msg = m;
        in->dst = m->data;
        in->left = size;
    }
    m->seq = p2p.uq_seq++;
    if (p2p.uq_tail[s] != NULL)
        p2p.uq_tail[s]->next = m;
    else
        p2p.uq[s] = m;
    p2p.uq_tail[s] = m;
    p2p.uq_n++;
    p2p.uq_keys[uq_key(ctx, tag)]++;
}

static void frame_control(int s, int kind, const uint32_t *hdr)
{
    rk_in_t *in = &p2p.in[s];

    if (kind == F_CTS) {
        /* the receiver matched our RTS: stream the data */
        rk_req_t *r = rk_req((MPI_Request)hdr[3]);
        if (r == NULL) {
            rck_error("MPI: clear-to-send for an unknown request %u",
                      hdr[3]);
            return;
        }
        enqueue(s, F_DATA, 0, 0, r->bytes, hdr[1], r->data, r->bytes,
                (MPI_Request)hdr[3]);
        return;
    }
    /* F_DATA: into the receive named by the token */
    rk_req_t *r = rk_req((MPI_Request)hdr[3]);
    in->req = (MPI_Request)hdr[3];
    in->left = hdr[2];
    in->dst = r == NULL ? NULL : (r->own_data ? r->data : r->buf);
}

/* The frame from @p s is complete. */
static void frame_done(int s)
{
    rk_in_t *in = &p2p.in[s];

    if (in->msg != NULL) {
        rk_msg_t *m = in->msg;
        m->got = m->size;
        if (m->waiter != MPI_REQUEST_NULL) {
            /* a receive took it over while it arrived (already unlinked) */
            MPI_Request h = m->waiter;
            rk_req_t *r = rk_req(h);
            if (r->bytes > 0)
                memcpy(r->own_data ? r->data : r->buf, m->data, r->bytes);
            msg_free(m);
            recv_finish(r, h);
        }
    } else if (in->req != MPI_REQUEST_NULL) {
        rk_req_t *r = rk_req(in->req);
        if (r != NULL)
            recv_finish(r, in->req);
    }
    memset(in, 0, sizeof *in);
}

/* Copy @p n bytes of the current frame's data. */
/* Where the frame's next data bytes go: the unexpected message being
 * filled, the receive's target (its own buffer when the message fits,
 * else staging: recv_target), or NULL (dropped). The target holds the
 * whole message. */
static char *frame_to(const rk_in_t *in)
{
    return in->msg != NULL ? in->msg->data + in->msg->got : in->dst;
}

/* @p n more data bytes of the frame are where frame_to said. */
static void frame_advance(rk_in_t *in, size_t n)
{
    if (in->msg != NULL)
        in->msg->got += n;
    else if (in->dst != NULL)
        in->dst += n;
    in->left -= n;
}

static void frame_data(int s, const char *p, size_t n)
{
    rk_in_t *in = &p2p.in[s];
    char *to = frame_to(in);

    if (n > in->left)
        n = in->left;
    if (n == 0)
        return;
    if (to != NULL)
        memcpy(to, p, n);
    frame_advance(in, n);
}

/* The packet from @p s, @p len bytes read into p2p.pkt: frames start,
 * continue and end. */
static void packet_in(int s, size_t len)
{
    rk_in_t *in = &p2p.in[s];
    const char *p = p2p.pkt;

    /* frame after frame: every frame but the last ends in the packet
     * (push_one) */
    for (;;) {
        size_t n;

        if (!in->active) {
            uint32_t hdr[4];
            int kind;

            if (len < HDR) {
                if (len > 0)
                    rck_error("MPI: %zu stray bytes after the frames of a "
                              "packet from UE %d", len, s);
                return;
            }
            memcpy(hdr, p, HDR);
            p += HDR;
            len -= HDR;
            kind = (int)(hdr[0] >> 24);
            memset(in, 0, sizeof *in);
            in->active = 1;
            if (kind == F_EAGER || kind == F_RTS || kind == F_RTS_SYNC)
                frame_envelope(s, kind, hdr);
            else
                frame_control(s, kind, hdr);
            if (kind == F_CTS || kind == F_RTS || kind == F_RTS_SYNC) {
                memset(in, 0, sizeof *in);
                continue;
            }
        }
        n = len < in->left ? len : in->left;
        frame_data(s, p, n);
        p += n;
        len -= n;
        if (in->left == 0)
            frame_done(s);
        if (len == 0)
            return;
    }
}

static void packet(int s)
{
    rk_in_t *in = &p2p.in[s];
    char head[RK_CHAN_HEAD];
    char *to = in->active ? frame_to(in) : NULL;
    size_t len;

    if (to == NULL) {
        packet_in(s, rk_chan_get(s, p2p.pkt));
        return;
    }
    /* inside a frame: a packet that is all data goes straight where the
     * frame's data goes (the receive's buffer, or the unexpected message),
     * one copy fewer than through p2p.pkt */
    len = rk_chan_peek(s, head);
    if (len == 0 || len > in->left) {
        rk_chan_take(s, head, 0, p2p.pkt);
        packet_in(s, len);
        return;
    }
    rk_chan_take(s, head, 0, to);
    frame_advance(in, len);
    if (in->left == 0)
        frame_done(s);
}

static void push_all(void)
{
    for (int d = 0; d < rk.nues; d++)
        if (p2p.head[d] != NULL)
            push(d);
}

/* A packet from @p s is taken: the next poll starts after it. */
static int took_from(int s)
{
    p2p.first = s + 1 < rk.nues ? s + 1 : 0;
    return s;
}

void (*rk_progress_hook)(void);

void rk_progress(void)
{
    int s, budget = 4 * rk.nues;

    /* out first (a send just queued leaves at once), then in, then out
     * again (what the packets just read may have queued: CTS, DATA) */
    push_all();
    while (budget-- > 0 && (s = rk_chan_poll(p2p.first)) >= 0)
        packet(took_from(s));
    push_all();
    /* non-blocking collectives start their next steps (req.c) */
    if (rk_greqs_active()) {
        rk_greqs_progress();
        push_all();
    }
    if (rk_progress_hook != NULL)
        rk_progress_hook(); /* one-sided targets (win.c) */
}

/* The request the next wait is for (rk_progress_wait_req; peer -1:
 * none), for the HAL's context. */
static struct {
    int peer, tag, comm;
    long long bytes;
} wait_msg = {-1, -1, -1, -1};

/* wait_conds: nothing held, poll again (MPI_THREAD_MULTIPLE: the lock
 * went to other threads, or a slice of the wait ended) */
#define WAIT_AGAIN (-2)

/* Block in the HAL until one of @p n conditions holds: its index,
 * WAIT_AGAIN, or -1 once the failure is reported. */
static int wait_conds(const rck_hal_cond_t *conds, int n, const char *call)
{
    int which = -1;
    int64_t tmo = rk.wait_timeout_ns;
    rck_status_t st;

    /* MPI_THREAD_MULTIPLE: the other threads first, then a slice (lock.c) */
    if (rk_mt && !rk_mt_wait_begin(&tmo))
        return WAIT_AGAIN;
    rck_hal_set_context(rk.hal, call, wait_msg.peer);
    if (wait_msg.bytes >= 0 || wait_msg.tag >= 0 || wait_msg.comm >= 0)
        rck_hal_set_message(rk.hal, wait_msg.bytes, wait_msg.tag,
                            wait_msg.comm);
    st = rck_hal_wait(rk.hal, conds, n, rk.wait_flags, tmo, &which);
    rck_hal_set_context(rk.hal, NULL, -1);
    if (rk_mt && (st == RCK_OK || st == RCK_ERR_TIMEDOUT) &&
        rk_mt_wait_end(st == RCK_OK) && st != RCK_OK)
        return WAIT_AGAIN;
    if (st == RCK_OK)
        return which;
    if (st == RCK_ERR_TIMEDOUT) {
        rk_err(MPI_COMM_WORLD, MPI_ERR_OTHER, call,
               "no progress within RCK_WAIT_TIMEOUT: probable deadlock");
    } else {
        rck_error("%s: waiting for messages failed: %s", call,
                  rck_status_string(st));
        rk_err(MPI_COMM_WORLD, MPI_ERR_OTHER, call, "the wait failed");
    }
    return -1;
}

/* The sender of condition @p which of the incoming list from p2p.first;
 * the list starts after it next time (took_from). */
static int sender_of(int which)
{
    return took_from(rk_chan_sender(p2p.first, which));
}

void rk_progress_wait_req(const char *call, const rk_req_t *r)
{
    if (r->kind == RK_REQ_SEND || r->kind == RK_REQ_RECV) {
        wait_msg.peer = r->peer_ue;
        wait_msg.bytes = r->kind == RK_REQ_SEND ? (long long)r->bytes : -1;
        wait_msg.tag = r->tag >= 0 ? r->tag : -1;
        wait_msg.comm = (int)r->comm >= 0 ? (int)r->comm : -1;
    }
    rk_progress_wait(call);
    wait_msg.peer = wait_msg.tag = wait_msg.comm = -1;
    wait_msg.bytes = -1;
}

/* rk_progress_wait with one more condition (@p extra, or NULL): 1 when
 * that one holds, 0 after a packet or something to send, -1 on failure */

static int progress_wait_or(const char *call, const rck_hal_cond_t *extra)
{
    int n = rk_chan_nin(), which, acks = 0;
    const rck_hal_cond_t *conds;

    for (int d = 0; p2p.busy > 0 && d < rk.nues; d++) {
        p2p.ack_wait[d] = 0;
        if (p2p.head[d] != NULL) {
            if (rk_chan_ready(d, frame_want(p2p.head[d])))
                return 0; /* something to send now */
            p2p.ack_wait[d] = 1;
            acks = 1;
        }
    }
    if (acks) {
        n = rk_chan_conds(p2p.conds, p2p.first, p2p.ack_wait);
        conds = p2p.conds;
    } else {
        conds = rk_chan_incoming(p2p.first);
    }
    if (extra != NULL) {
        if (conds != p2p.conds)
            memcpy(p2p.conds, conds, sizeof(*conds) * (size_t)n);
        p2p.conds[n++] = *extra;
        conds = p2p.conds;
    }
    which = wait_conds(conds, n, call);
    if (which == WAIT_AGAIN)
        return 0;
    if (which < 0)
        return -1;
    if (extra != NULL && which == n - 1)
        return 1;
    /* a packet: take it now (the conditions start at p2p.first) */
    if (which < rk_chan_nin())
        packet(sender_of(which));
    return 0;
}

void rk_progress_wait(const char *call)
{
    (void)progress_wait_or(call, NULL);
}

int rk_progress_wait_shm(size_t off, uint32_t value, const char *call)
{
    rck_hal_cond_t c = {RCK_SPACE_SHM, 0, (uint32_t)off, 0xffffffffu, value,
                        RCK_COND_EQ};

    return progress_wait_or(call, &c);
}

/* The status of a message found whole (unless @p st is
 * MPI_STATUS_IGNORE). */
static void status_of(MPI_Status *st, int rank, int tag, size_t bytes)
{
    if (st == MPI_STATUS_IGNORE)
        return;
    st->MPI_SOURCE = rank;
    st->MPI_TAG = tag;
    st->MPI_ERROR = MPI_SUCCESS;
    st->rck_cancelled = 0;
    st->rck_bytes = (long long)bytes;
}

int rk_recv_short(void *buf, int count, MPI_Datatype type, int source,
                  int tag, MPI_Comm comm, MPI_Status *status)
{
    const rk_comm_t *c;
    const rk_type_t *t;
    char head[RK_CHAN_HEAD];
    uint32_t hdr[4];
    size_t len, size;
    int s, want;

    if (!rk.init || rk.finalized || count < 0 || p2p.uq_n > 0 ||
        p2p.posted != NULL || p2p.busy > 0 || rk_greqs_active() ||
        (tag != MPI_ANY_TAG && (tag < 0 || tag > RK_TAG_UB)))
        return 0;
    t = rk_type_fast(type);
    c = rk_comm(comm);
    /* beyond 4 GiB: the general path reports MPI_ERR_COUNT */
    if (t == NULL || c == NULL || c->inter ||
        t->size * (size_t)count > UINT32_MAX)
        return 0;
    if (source == MPI_ANY_SOURCE)
        want = -1;
    else if (source >= 0 && source < c->psize)
        want = c->peer[source];
    else
        return 0; /* MPI_PROC_NULL and bad ranks: the general path */
    s = rk_chan_poll(p2p.first);
    if (s >= 0) {
        took_from(s);
    } else {
        int which;

        wait_msg.peer = want;
        wait_msg.tag = tag >= 0 ? tag : -1;
        wait_msg.comm = (int)comm >= 0 ? (int)comm : -1;
        which = wait_conds(rk_chan_incoming(p2p.first), rk_chan_nin(),
                           "MPI_Recv");
        wait_msg.peer = wait_msg.tag = wait_msg.comm = -1;
        if (which < 0)
            return 0;
        s = sender_of(which);
    }
    /* the packet's first bytes say whether it is this receive's whole
     * message: then its data go straight to @p buf */
    len = rk_chan_peek(s, head);
    memcpy(hdr, head + RK_EWS_HDR, HDR);
    size = hdr[2];
    if (p2p.in[s].active || len < HDR || (int)(hdr[0] >> 24) != F_EAGER ||
        (hdr[0] & 0xffffffu) != c->ctx || !tag_match(tag, (int)hdr[1]) ||
        (want >= 0 ? s != want : c->rank_of[s] < 0) || size != len - HDR ||
        size > t->size * (size_t)count) {
        rk_chan_take(s, head, 0, p2p.pkt);
        packet_in(s, len);
        return 0;
    }
    rk_chan_take(s, head, HDR, buf);
    status_of(status, c->rank_of[s], (int)hdr[1], size);
    return 1;
}

struct probe_env {
    uint32_t ctx;
    int tag;
    const rk_comm_t *c;
};

static int probe_matches(const rk_msg_t *m, const void *arg)
{
    const struct probe_env *e = arg;

    return m->ctx == e->ctx && tag_match(e->tag, m->tag) &&
           e->c->rank_of[m->src] >= 0;
}

int rk_probe(uint32_t ctx, int src_ue, int tag, const rk_comm_t *c,
             MPI_Status *st, void **take)
{
    struct probe_env e = {ctx, tag, c};
    rk_msg_t *prev = NULL,
             *m = uq_find(src_ue, ctx, tag, probe_matches, &e, &prev);

    if (m == NULL)
        return 0;
    if (take != NULL) {
        /* matched probe: the message leaves the queue for *take */
        uq_remove(m, prev);
        *take = m;
    }
    status_of(st, c->rank_of[m->src], m->tag, m->size);
    return 1;
}

void rk_start_recv_msg(MPI_Request h, void *msg)
{
    rk_req_t *r = rk_req(h);

    r->done = 0;
    r->err = MPI_SUCCESS;
    r->bytes = 0;
    r->st.rck_cancelled = 0;
    take_unexpected(r, h, msg);
}

/* MPI_Send's short way (docs/MPI.md, "Protocols"): a standard-mode send of
 * contiguous data that fits one eager packet, to a pipe with nothing queued
 * and free, goes out at once without a request: the same packet push()
 * would write. Returns 0 (nothing done) whenever anything differs, an
 * argument is wrong included: the general path then reports it. */
_Static_assert(HDR == 16u, "rk_chan_put_short takes a 16-byte frame header");

int rk_send_short(const void *buf, int count, MPI_Datatype type, int dest,
                  int tag, MPI_Comm comm)
{
    const rk_comm_t *c;
    const rk_type_t *t;
    size_t bytes;
    uint32_t hdr[4];
    int d;

    if (!rk.init || rk.finalized || count < 0 || tag < 0 ||
        tag > RK_TAG_UB || dest < 0)
        return 0;
    t = rk_type_fast(type);
    c = rk_comm(comm);
    if (t == NULL || c == NULL || dest >= c->psize)
        return 0;
    bytes = t->size * (size_t)count;
    d = c->peer[dest];
    if (bytes > rk.eager || p2p.head[d] != NULL ||
        !rk_chan_ready(d, HDR + bytes))
        return 0;
    /* the base payload is always there; the gEWS may not be */
    if (HDR + bytes > rk.chan.payload &&
        rk_chan_room(d, HDR + bytes) < HDR + bytes)
        return 0;
    rck_hal_comm_count(rk.hal, rck__mpi_lib, rk.hal->ue_core[d], bytes);
    frame_hdr(hdr, F_EAGER, c->ctx, (uint32_t)tag, bytes, 0);
    return rk_chan_put_short(d, hdr, buf, bytes) == MPI_SUCCESS;
}

/* Messages up to this size may be held: a larger one is not worth a copy
 * (8 processes, rckmpi_bench: holding 64 KiB messages too made the 64 KiB
 * gather, scatter and allreduce 2-3 times slower: the senders ran ahead
 * into the root's unexpected queue, one more copy each). */
#define HOLD_MSG_MAX 4096u

/* The outbox (RCK_MPI_OUTBOX): an eager frame of a standard or ready
 * send of a collective that its pipe did not take at once (the packet before is not yet
 * acknowledged, or frames wait before it) gets a copy of its data and its
 * send completes now, as an eager send to a free buffer would; the
 * progress engine sends it later, behind the frames before it (order
 * kept), and several in one packet (push_one). The sender's MPI calls
 * move it on, as with any queued frame (no progress thread). Open MPI's
 * ob1 completes an eager send the same way once its data are copied into
 * a fragment, sent or queued. Messages of up to HOLD_MSG_MAX bytes, and
 * at most RCK_MPI_OUTBOX bytes held in all.
 * Only the collectives' messages (a communicator's collective context):
 * a held message reaches its receiver in the sender's next MPI call, and
 * programs do leave MPI after a point-to-point send to wait for their
 * peer by other means (t_mpi3's MPI_Comm_join test: two MPI_Send, then
 * accept() on a socket that the receiver connects only after both
 * messages came: with point-to-point sends held it hung). Not the
 * library's own messages either (tags above RK_TAG_UB): MPI_Finalize's
 * exchange must leave nothing behind, and its sends, queued behind
 * everything held for a peer, complete only when all of it is out. */
static void hold(int d, rk_req_t *r, MPI_Request h)
{
    rk_out_t *o = p2p.tail[d];
    const rk_comm_t *c = rk_comm_any(r->comm);

    if (o == NULL || o->req != h || c == NULL || r->ctx != c->ctx + 1 ||
        r->tag > RK_TAG_UB ||
        (r->mode != RK_MODE_STD && r->mode != RK_MODE_READY) ||
        p2p.held_max == 0 || r->bytes > p2p.held_max - p2p.held ||
        r->bytes > HOLD_MSG_MAX)
        return;
    if (r->bytes <= OUT_INLINE) {
        memcpy(o->inl, o->data, r->bytes);
        o->data = o->inl;
        o->held = 1; /* one byte counted: held > 0 marks a held frame */
    } else {
        o->copy = malloc(r->bytes);
        if (o->copy == NULL)
            return;
        memcpy(o->copy, o->data, r->bytes);
        o->data = o->copy;
        o->held = r->bytes;
    }
    p2p.held += o->held;
    o->req = MPI_REQUEST_NULL;
    req_complete(r, h);
}

int rk_start_send(MPI_Request h)
{
    rk_req_t *r = rk_req(h);
    const rk_type_t *t = rk_type(r->type);
    int kind;

    r->done = 0;
    r->err = MPI_SUCCESS;
    r->bytes = t->size * (size_t)r->count;
    if (r->peer == MPI_PROC_NULL) {
        req_complete(r, h);
        return MPI_SUCCESS;
    }
    if (r->data == NULL) {
        if (t->contig) {
            r->data = r->buf;
        } else {
            r->data = malloc(r->bytes ? r->bytes : 1);
            if (r->data == NULL)
                return MPI_ERR_NO_MEM;
            r->own_data = 1;
            rk_pack(r->buf, r->count, t, r->data);
        }
    }
    /* the communication matrix: one message, counted once at its start
     * whatever the protocol (eager, or rendezvous with its data later) */
    rck_hal_comm_count(rk.hal, rck__mpi_lib, rk.hal->ue_core[r->peer_ue],
                       r->bytes);
    if (r->mode == RK_MODE_SYNC)
        kind = F_RTS_SYNC;
    else if (r->bytes > rk.eager)
        kind = F_RTS;
    else
        kind = F_EAGER;
    if (kind == F_EAGER) {
        int d = r->peer_ue;
        int err = enqueue(d, F_EAGER, r->ctx, (uint32_t)r->tag, r->bytes, 0,
                          r->data, r->bytes, h);
        /* alone in its queue: out at once, so that a blocking send of a
         * small message completes without a progress round (which polls
         * every sender) */
        if (err == MPI_SUCCESS && p2p.head[d] != NULL &&
            p2p.head[d]->next == NULL)
            push(d);
        if (err == MPI_SUCCESS && !r->done)
            hold(d, r, h);
        return err;
    }
    return enqueue(r->peer_ue, kind, r->ctx, (uint32_t)r->tag, r->bytes,
                   (uint32_t)h, NULL, 0, MPI_REQUEST_NULL);
}
