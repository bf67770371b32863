/*
 * snetq.c: the S-Net scc layer's transport (include/rck_snetq.h describes
 * the protocol; docs/SNET.md, "Across the chip"). Over the HAL only: MPB
 * reads and writes, the TAS registers, GIC interrupts, rck_hal_wait (never
 * a spin on memory) and the shared window.
 */
#include "rck_snetq.h"

#include "rck/hal.h"
#include "rck/log.h"
#include "rck/lut.h"
#include "rck/lutwin.h"

#include <stdlib.h>
#include <string.h>

/* snetq's library id (snetq_desc.c, rck/lib.h). */
extern int rck__snetq_lib;
/* The descriptor's hooks (snetq_desc.c). */
rck_status_t rck__snetq_attach(rck_hal_t *hal);
void rck__snetq_fini(rck_hal_t *hal, rck_lib_fini_why_t why);
void rck__snetq_on_gic(rck_hal_t *hal, rck_irq_kind_t kind, int sender,
                       void *arg);

/* the header line at the base of every core's reserved area */
#define H_HEAD 0u     /* bytes the receiver has consumed (receiver writes) */
#define H_TAIL 4u     /* bytes senders have appended (under the TAS lock) */
#define H_HANDLING 8u /* the receiver is draining: no interrupt needed */
#define H_SLAB 12u    /* this core's slab holds a piece not yet copied */
#define LINE 32u
#define RING 4096u    /* ring bytes after the header line */

/* an entry: one header line, then its payload lines */
enum { E_INLINE = 1, E_REF = 2, E_WRAP = 3, E_PART = 4 };
typedef struct {
    uint32_t size;  /* entry bytes, header included, a multiple of LINE */
    uint32_t kind;
    uint32_t len;   /* payload bytes (E_INLINE) or piece bytes (E_REF) */
    uint32_t total; /* the whole message's bytes */
    uint32_t pos;   /* the piece's offset in the message (E_REF) */
    uint32_t slab;  /* the piece's offset in the shared window (E_REF) */
    uint32_t pad[2];
} entry_t;
#define INLINE_MAX (RING / 2 - LINE)
/* messages up to this long go through the ring in pieces (E_PART) rather
 * than through shared DRAM: the MPB path is the faster one for them */
#define STREAM_MAX (64u << 10)

typedef struct msg {
    struct msg *next;
    int src;
    size_t len;
    unsigned char *data;
} msg_t;

static struct {
    rck_hal_t *hal;
    int ready;
    uint32_t base;     /* the area's offset in every MPB */
    size_t slab_base;  /* UE u's slab at slab_base + u * slab_bytes */
    size_t slab_bytes;
    int ncores;
    int *core_ue;
    msg_t *qhead, *qtail;  /* complete messages taken from the ring */
    msg_t **partial;       /* per sender core: a long message being built */
    size_t *partial_got;
    rck_snetq_stats_t stats;
    /* LUT pages: run[s] = pages of the run starting at slot s, 0 if free
     * (slots below POOL_END: own pages; from MAP_LO: mapped others') */
    unsigned char run[RCK_LUT_ENTRIES];
} q;

#define POOL_LO 0x01 /* own private pages of the default map: 0x01..0x28 */
#define POOL_END (RCK_LUT_SLOT_PRIVATE + RCK_LUT_PRIVATE_PAGES)
/* empty slots of the default map, 0x29..0x7f: mappings held (remap) in
 * 0x29..0x57, transient ones (a copy) in 0x58..0x7f, room for the longest
 * run (the pool's 40 pages) whatever the held ones take */
#define MAP_LO POOL_END
#define MAP_MID (RCK_LUT_SLOT_SHARED - (POOL_END - POOL_LO))
#define MAP_END RCK_LUT_SLOT_SHARED

static rck_status_t need_init(const char *call)
{
    if (!q.ready) {
        rck_error("%s: rck_snetq_init has not been called", call);
        return RCK_ERR_STATE;
    }
    return RCK_OK;
}

/* The descriptor's GIC handler (snetq_desc.c). */
void rck__snetq_on_gic(rck_hal_t *hal, rck_irq_kind_t kind, int sender,
                       void *arg)
{
    /* shared line: the work is found by the waits that this wakes */
    (void)hal;
    (void)kind;
    (void)sender;
    (void)arg;
}

rck_status_t rck_snetq_init(void)
{
    rck_hal_t *hal;
    rck_status_t st;

    if (q.ready)
        return RCK_OK;
    st = rck_hal_open(NULL, &hal);
    if (st != RCK_OK) {
        rck_error("rck_snetq_init: cannot attach to the chip: %s",
                  rck_status_string(st));
        return st;
    }
    /* the HAL runs rck__snetq_attach, then chains rck__snetq_on_gic */
    return rck_lib_attach(hal, rck__snetq_lib);
}

/* The descriptor's init (snetq_desc.c): the ring, the slabs, the state. */
rck_status_t rck__snetq_attach(rck_hal_t *hal)
{
    rck_status_t st;
    uint32_t off;
    size_t soff, window = 0;
    void *wbase;

    if (!rck_hal_world_is_job(hal, "rck_snetq_init"))
        return RCK_ERR_CONFIG;
    if (hal->chip.line_bytes != LINE) {
        rck_error("rck_snetq_init: the ring needs %u-byte MPB lines; the "
                  "chip has %u", LINE, hal->chip.line_bytes);
        return RCK_ERR_CONFIG;
    }
    st = rck_hal_mpb_reserve(hal, rck__snetq_lib, LINE + RING, &off);
    if (st != RCK_OK) {
        rck_error("rck_snetq_init: cannot reserve %u bytes of ring in the "
                  "MPB", LINE + RING);
        return st;
    }
    /* one slab per UE: a quarter of the window shared out, at most 4 MiB */
    st = rck_hal_shm_map(hal, &wbase, &window);
    if (st != RCK_OK)
        return st;
    size_t per = window / 4 / (size_t)hal->nues;
    if (per > (4u << 20))
        per = 4u << 20;
    per &= ~(size_t)4095;
    if (per < 4096) {
        rck_error("rck_snetq_init: the shared window (%zu bytes) has no "
                  "room for a slab per UE (%d UEs); raise RCK_SHM_SIZE",
                  window, hal->nues);
        return RCK_ERR_NOSPACE;
    }
    st = rck_hal_shm_reserve(hal, rck__snetq_lib, per * (size_t)hal->nues, 4096, &soff);
    if (st != RCK_OK) {
        rck_error("rck_snetq_init: cannot reserve %zu bytes of shared DRAM",
                  per * (size_t)hal->nues);
        return st;
    }
    /* the slabs as the SCC mapped shared DRAM for messages: MPBT (L1 only,
     * writes through the write-combine buffer; a reader invalidates its
     * MPBT lines first), not uncached */
    st = rck_hal_shm_set_map(hal, soff, per * (size_t)hal->nues,
                             RCK_MAP_MPBT, RCK_MC_INTERLEAVE);
    if (st != RCK_OK && st != RCK_ERR_UNSUPPORTED) {
        rck_error("rck_snetq_init: cannot map the slabs MPBT: %s",
                  rck_status_string(st));
        return st;
    }
    q.core_ue = malloc((size_t)hal->chip.ncores * sizeof(int));
    q.partial = calloc((size_t)hal->chip.ncores, sizeof(*q.partial));
    q.partial_got = calloc((size_t)hal->chip.ncores, sizeof(size_t));
    if (q.core_ue == NULL || q.partial == NULL || q.partial_got == NULL)
        return RCK_ERR_NOMEM;
    for (int c = 0; c < hal->chip.ncores; c++)
        q.core_ue[c] = -1;
    for (int u = 0; u < hal->nues; u++)
        q.core_ue[hal->ue_core[u]] = u;
    q.hal = hal;
    q.base = off;
    q.slab_base = soff;
    q.slab_bytes = per;
    q.ncores = hal->chip.ncores;
    memset(&q.stats, 0, sizeof q.stats);
    memset(q.run, 0, sizeof q.run);
    /* the area starts zeroed (a job's MPBs do, and only we use it) */
    q.ready = 1;
    return RCK_OK;
}

rck_status_t rck_snetq_finalize(void)
{
    if (!q.ready)
        return RCK_OK;
    rck_lib_detach(q.hal, rck__snetq_lib);
    return RCK_OK;
}

/* The descriptor's fini: rck_snetq_finalize, or the HAL going down under
 * the queues (the handler is unchained already). */
void rck__snetq_fini(rck_hal_t *hal, rck_lib_fini_why_t why)
{
    (void)hal;
    (void)why;
    while (q.qhead != NULL) {
        msg_t *m = q.qhead;
        q.qhead = m->next;
        free(m->data);
        free(m);
    }
    q.qtail = NULL;
    for (int c = 0; c < q.ncores; c++)
        if (q.partial[c] != NULL) {
            free(q.partial[c]->data);
            free(q.partial[c]);
        }
    free(q.partial);
    free(q.partial_got);
    free(q.core_ue);
    q.partial = NULL;
    q.partial_got = NULL;
    q.core_ue = NULL;
    q.hal = NULL;
    q.ready = 0;
}

int rck_snetq_ue(void)
{
    return q.ready ? q.hal->ue : -1;
}

int rck_snetq_num_ues(void)
{
    return q.ready ? q.hal->nues : 0;
}

void rck_snetq_stats(rck_snetq_stats_t *stats)
{
    if (stats != NULL)
        *stats = q.stats;
}

static void enqueue(int src_core, unsigned char *data, size_t len)
{
    msg_t *m = malloc(sizeof(*m));
    if (m == NULL) {
        rck_error("rck_snetq: out of memory queueing a message");
        abort();
    }
    m->next = NULL;
    m->src = q.core_ue[src_core];
    m->len = len;
    m->data = data;
    if (q.qtail != NULL)
        q.qtail->next = m;
    else
        q.qhead = m;
    q.qtail = m;
    q.stats.received++;
    rck_hal_comm_recv(q.hal, rck__snetq_lib, src_core, len);
}

/* One entry of our ring at ring offset at. */
static rck_status_t take_entry(uint32_t at, entry_t *e)
{
    rck_hal_t *hal = q.hal;
    rck_status_t st = rck_hal_mpb_read(hal, hal->core, q.base + LINE + at, e,
                                       sizeof(*e));
    if (st != RCK_OK)
        return st;
    if (e->kind == E_WRAP)
        return RCK_OK;
    int src = (int)e->pad[0];
    if (src < 0 || src >= q.ncores || q.core_ue[src] < 0 ||
        e->size < LINE || e->size > RING) {
        rck_error("rck_snetq: a corrupt ring entry (sender %d, size %u)",
                  src, e->size);
        return RCK_ERR_STATE;
    }
    if (e->kind == E_INLINE) {
        unsigned char *d = malloc(e->len ? e->len : 1);
        if (d == NULL)
            return RCK_ERR_NOMEM;
        if (e->len > 0 &&
            (st = rck_hal_mpb_read(hal, hal->core, q.base + LINE + at + LINE,
                                   d, e->len)) != RCK_OK)
            return st;
        enqueue(src, d, e->len);
        return RCK_OK;
    }
    /* a piece of a long message: in the ring (E_PART), or in the sender's
     * slab (E_REF: copy it out and free the slab; the sender waits on its
     * own word) */
    msg_t *m = q.partial[src];
    if (m == NULL) {
        m = calloc(1, sizeof(*m));
        if (m == NULL || (m->data = malloc(e->total ? e->total : 1)) == NULL)
            return RCK_ERR_NOMEM;
        m->len = e->total;
        q.partial[src] = m;
        q.partial_got[src] = 0;
    }
    if ((size_t)e->pos + e->len > m->len) {
        rck_error("rck_snetq: a piece beyond its message's end");
        return RCK_ERR_STATE;
    }
    if (e->kind == E_PART) {
        st = rck_hal_mpb_read(hal, hal->core, q.base + LINE + at + LINE,
                              m->data + e->pos, e->len);
        if (st != RCK_OK)
            return st;
    } else {
        rck_hal_cl1invmb(hal); /* no stale MPBT lines of an earlier piece */
        st = rck_hal_shm_read(hal, e->slab, m->data + e->pos, e->len);
        if (st != RCK_OK)
            return st;
        q.stats.by_reference++;
        st = rck_hal_mpb_store32(hal, src, q.base + H_SLAB, 0);
        if (st != RCK_OK)
            return st;
        rck_hal_wcb_flush(hal);
        (void)rck_hal_irq_raise(hal, src, RCK_IRQ_GIC);
    }
    q.partial_got[src] += e->len;
    if (q.partial_got[src] == m->len) {
        q.partial[src] = NULL;
        enqueue(src, m->data, m->len);
        free(m);
    }
    return RCK_OK;
}

/* Take every entry of our ring into the queue (under our own TAS lock, as
 * senders append under it). @p got: entries taken. */
static rck_status_t drain(int *got)
{
    rck_hal_t *hal = q.hal;
    uint32_t head, tail;
    rck_status_t st;

    *got = 0;
    for (;;) {
        if ((st = rck_hal_tas_acquire(hal, hal->core)) != RCK_OK)
            return st;
        rck_hal_cl1invmb(hal);
        rck_hal_mpb_load32(hal, hal->core, q.base + H_HEAD, &head);
        rck_hal_mpb_load32(hal, hal->core, q.base + H_TAIL, &tail);
        /* set while there is work: senders then raise no interrupt; clear
         * only when the ring is empty under the lock */
        rck_hal_mpb_store32(hal, hal->core, q.base + H_HANDLING,
                            head != tail);
        rck_hal_wcb_flush(hal);
        rck_hal_tas_release(hal, hal->core);
        if (head == tail)
            return RCK_OK;
        while (head != tail) {
            entry_t e;
            uint32_t at = head % RING;
            if ((st = take_entry(at, &e)) != RCK_OK)
                return st;
            head += e.kind == E_WRAP ? RING - at : e.size;
            (*got)++;
        }
        rck_hal_mpb_store32(hal, hal->core, q.base + H_HEAD, head);
        rck_hal_wcb_flush(hal);
    }
}

/* Wait (HAL wait, interrupts taken) until @p cond holds, an entry is in
 * our own ring or an interrupt comes, then drain our ring. The own-ring
 * condition is what keeps two senders on each other's full rings apart:
 * the interrupt that announced our entries may have been taken inside an
 * earlier HAL call (a TAS acquire), and then no wait would see it. */
static rck_status_t wait_and_drain(const rck_hal_cond_t *cond, int ncond,
                                   int64_t timeout_ns)
{
    int got;
    rck_hal_cond_t c[4];
    uint32_t head;

    if (ncond < 1 || ncond > 3)
        return RCK_ERR_INVALID;
    for (int i = 0; i < ncond; i++)
        c[i] = cond[i];
    rck_hal_mpb_load32(q.hal, q.hal->core, q.base + H_HEAD, &head);
    c[ncond] = (rck_hal_cond_t){.space = RCK_SPACE_MPB, .core = q.hal->core,
                                .offset = q.base + H_TAIL, .mask = ~0u,
                                .value = head, .op = RCK_COND_NE};
    rck_status_t st = rck_hal_wait(q.hal, c, ncond + 1, RCK_WAIT_IRQ,
                                   timeout_ns, NULL);
    if (st != RCK_OK && st != RCK_INTERRUPTED)
        return st;
    return drain(&got);
}

/* Append one entry (header + payload) to dest's ring; waits for room. */
static rck_status_t append(int dcore, entry_t *e, const void *p1, size_t l1,
                           const void *p2, size_t l2)
{
    rck_hal_t *hal = q.hal;
    rck_status_t st;
    uint32_t need = LINE + (uint32_t)((l1 + l2 + LINE - 1) / LINE * LINE);

    e->size = need;
    e->pad[0] = (uint32_t)hal->core;
    for (;;) {
        uint32_t head, tail, handling;
        if ((st = rck_hal_tas_acquire(hal, dcore)) != RCK_OK)
            return st;
        rck_hal_cl1invmb(hal);
        rck_hal_mpb_load32(hal, dcore, q.base + H_HEAD, &head);
        rck_hal_mpb_load32(hal, dcore, q.base + H_TAIL, &tail);
        rck_hal_mpb_load32(hal, dcore, q.base + H_HANDLING, &handling);
        uint32_t at = tail % RING, used = tail - head;
        uint32_t skip = RING - at < need ? RING - at : 0;
        if (used + skip + need <= RING) {
            if (skip > 0) { /* no room before the end: wrap */
                entry_t w = {.size = skip, .kind = E_WRAP};
                rck_hal_mpb_write(hal, dcore, q.base + LINE + at, &w,
                                  sizeof(w));
                tail += skip;
                at = 0;
            }
            uint32_t o = q.base + LINE + at;
            rck_hal_mpb_write(hal, dcore, o, e, sizeof(*e));
            if (l1 > 0)
                rck_hal_mpb_write(hal, dcore, o + LINE, p1, l1);
            if (l2 > 0)
                rck_hal_mpb_write(hal, dcore, o + LINE + (uint32_t)l1, p2,
                                  l2);
            rck_hal_wcb_flush(hal);
            rck_hal_mpb_store32(hal, dcore, q.base + H_TAIL, tail + need);
            rck_hal_wcb_flush(hal);
            rck_hal_tas_release(hal, dcore);
            if (!handling) {
                q.stats.interrupts_raised++;
                if ((st = rck_hal_irq_raise(hal, dcore, RCK_IRQ_GIC)) !=
                    RCK_OK)
                    return st;
            }
            return RCK_OK;
        }
        rck_hal_tas_release(hal, dcore);
        /* full: wait for the receiver to move its read position, taking
         * our own messages meanwhile */
        q.stats.ring_full_waits++;
        rck_hal_cond_t c = {.space = RCK_SPACE_MPB, .core = dcore,
                            .offset = q.base + H_HEAD, .mask = ~0u,
                            .value = head, .op = RCK_COND_NE};
        if ((st = wait_and_drain(&c, 1, -1)) != RCK_OK)
            return st;
    }
}

rck_status_t rck_snetq_send(int dest, const void *hdr, size_t hlen,
                            const void *data, size_t len)
{
    rck_status_t st = need_init("rck_snetq_send");
    if (st != RCK_OK)
        return st;
    rck_hal_t *hal = q.hal;
    if (dest < 0 || dest >= hal->nues || dest == hal->ue) {
        rck_error("rck_snetq_send: UE %d is not another UE of the job (%d "
                  "UEs, this is UE %d)", dest, hal->nues, hal->ue);
        return RCK_ERR_INVALID;
    }
    if ((hlen > 0 && hdr == NULL) || (len > 0 && data == NULL) ||
        hlen + len > UINT32_MAX || hlen + len < hlen) {
        rck_error("rck_snetq_send: %zu + %zu bytes from a NULL buffer or "
                  "over 4 GiB", hlen, len);
        return RCK_ERR_INVALID;
    }
    int dcore = hal->ue_core[dest];
    size_t total = hlen + len;
    rck_hal_set_context(hal, "rck_snetq_send", dest);
    rck_hal_set_message(hal, (long long)total, -1, -1);
    q.stats.sent++;
    q.stats.bytes_sent += total;
    /* counted with the mailboxes' messages: the communication matrix has
     * no library of its own for this transport (rck/monitor.h) */
    rck_hal_comm_count(hal, rck__snetq_lib, dcore, total);
    if (total <= INLINE_MAX) {
        entry_t e = {.kind = E_INLINE, .len = (uint32_t)total,
                     .total = (uint32_t)total};
        st = append(dcore, &e, hdr, hlen, data, len);
        rck_hal_set_context(hal, NULL, -1);
        return st;
    }
    if (total <= STREAM_MAX) { /* piece by piece through the ring */
        unsigned char *tmp = malloc(INLINE_MAX);
        if (tmp == NULL)
            return RCK_ERR_NOMEM;
        for (size_t pos = 0; pos < total && st == RCK_OK;) {
            size_t n = total - pos < INLINE_MAX ? total - pos : INLINE_MAX;
            size_t a = pos < hlen ? (hlen - pos < n ? hlen - pos : n) : 0;
            if (a > 0)
                memcpy(tmp, (const char *)hdr + pos, a);
            if (n > a)
                memcpy(tmp + a, (const char *)data + (pos + a - hlen), n - a);
            entry_t e = {.kind = E_PART, .len = (uint32_t)n,
                         .total = (uint32_t)total, .pos = (uint32_t)pos};
            st = append(dcore, &e, tmp, n, NULL, 0);
            pos += n;
        }
        free(tmp);
        rck_hal_set_context(hal, NULL, -1);
        return st;
    }
    /* long: piece by piece through our slab, one piece in flight */
    size_t slab = q.slab_base + (size_t)hal->ue * q.slab_bytes;
    for (size_t pos = 0; pos < total && st == RCK_OK;) {
        size_t n = total - pos < q.slab_bytes ? total - pos : q.slab_bytes;
        /* the part of hdr, then of data, that falls in [pos, pos + n) */
        size_t done = 0;
        if (pos < hlen) {
            size_t k = hlen - pos < n ? hlen - pos : n;
            st = rck_hal_shm_write(hal, slab, (const char *)hdr + pos, k);
            done = k;
        }
        if (st == RCK_OK && done < n)
            st = rck_hal_shm_write(hal, slab + done,
                                   (const char *)data + (pos + done - hlen),
                                   n - done);
        if (st != RCK_OK)
            break;
        rck_hal_mpb_store32(hal, hal->core, q.base + H_SLAB, 1);
        rck_hal_wcb_flush(hal);
        entry_t e = {.kind = E_REF, .len = (uint32_t)n,
                     .total = (uint32_t)total, .pos = (uint32_t)pos,
                     .slab = (uint32_t)slab};
        if ((st = append(dcore, &e, NULL, 0, NULL, 0)) != RCK_OK)
            break;
        /* the receiver copies the piece out and clears our word */
        for (;;) {
            uint32_t busy;
            rck_hal_cl1invmb(hal);
            rck_hal_mpb_load32(hal, hal->core, q.base + H_SLAB, &busy);
            if (!busy)
                break;
            rck_hal_cond_t c = {.space = RCK_SPACE_MPB, .core = hal->core,
                                .offset = q.base + H_SLAB, .mask = ~0u,
                                .value = 0, .op = RCK_COND_EQ};
            if ((st = wait_and_drain(&c, 1, -1)) != RCK_OK)
                break;
        }
        pos += n;
    }
    rck_hal_set_context(hal, NULL, -1);
    return st;
}

rck_status_t rck_snetq_recv(int *src, void **data, size_t *len,
                            int64_t timeout_ns)
{
    rck_status_t st = need_init("rck_snetq_recv");
    if (st != RCK_OK)
        return st;
    if (src == NULL || data == NULL || len == NULL) {
        rck_error("rck_snetq_recv: NULL output");
        return RCK_ERR_INVALID;
    }
    rck_hal_t *hal = q.hal;
    rck_hal_set_context(hal, "rck_snetq_recv", -1);
    int got;
    st = drain(&got);
    while (st == RCK_OK && q.qhead == NULL) {
        uint32_t head;
        rck_hal_mpb_load32(hal, hal->core, q.base + H_HEAD, &head);
        rck_hal_cond_t c = {.space = RCK_SPACE_MPB, .core = hal->core,
                            .offset = q.base + H_TAIL, .mask = ~0u,
                            .value = head, .op = RCK_COND_NE};
        st = wait_and_drain(&c, 1, timeout_ns);
    }
    rck_hal_set_context(hal, NULL, -1);
    if (st != RCK_OK)
        return st;
    msg_t *m = q.qhead;
    q.qhead = m->next;
    if (q.qhead == NULL)
        q.qtail = NULL;
    *src = m->src;
    *data = m->data;
    *len = m->len;
    free(m);
    return RCK_OK;
}

/* ---- LUT pages --------------------------------------------------------- */

int rck_snetq_pages_usable(const char **why)
{
    const char *w = NULL;
    if (!q.ready)
        w = "the scc transport is not up";
    else if (q.hal->lutwin == NULL)
        w = q.hal->lutwin_none != NULL ? q.hal->lutwin_none
                                       : "this backend has no LUT window";
    else if (rck_lutwin_sequestered())
        w = "the core is sequestered (RCK_SEQUESTER): it may not write its "
            "LUT";
    if (why != NULL)
        *why = w;
    return w == NULL;
}

/* n free consecutive slots in [lo, end): the first, or -1 */
static int find_run(int lo, int end, int n)
{
    for (int s = lo; s + n <= end;) {
        int k = 0;
        while (k < n && q.run[s + k] == 0)
            k++;
        if (k == n)
            return s;
        s += k;
        s += q.run[s] ? q.run[s] : 1; /* skip the run in the way */
    }
    return -1;
}

static int pages_for(size_t bytes)
{
    return (int)((bytes + RCK_LUT_PAGE_BYTES - 1) / RCK_LUT_PAGE_BYTES);
}

rck_status_t rck_snetq_page_alloc(size_t bytes, void **addr, int *run)
{
    if (bytes == 0 || addr == NULL || run == NULL)
        return RCK_ERR_INVALID;
    if (!rck_snetq_pages_usable(NULL))
        return RCK_ERR_UNSUPPORTED;
    if (bytes > (size_t)(POOL_END - POOL_LO) * RCK_LUT_PAGE_BYTES)
        return RCK_ERR_NOSPACE;
    int n = pages_for(bytes);
    int s = find_run(POOL_LO, POOL_END, n);
    if (s < 0)
        return RCK_ERR_NOSPACE;
    void *a = rck_hal_lut_addr(q.hal, s);
    if (a == NULL)
        return RCK_ERR_UNSUPPORTED;
    /* each of the run's slots must show one of our own DRAM pages */
    for (int k = 0; k < n; k++) {
        uint32_t e;
        if (rck_hal_lut_read(q.hal, q.hal->core, s + k, &e) != RCK_OK ||
            e == 0)
            return RCK_ERR_UNSUPPORTED;
    }
    for (int k = 0; k < n; k++)
        q.run[s + k] = (unsigned char)(k == 0 ? n : 0xff);
    q.run[s] = (unsigned char)n;
    q.stats.pages_alloced += (uint64_t)n;
    *addr = a;
    *run = s;
    return RCK_OK;
}

static void run_free(int s, int lo, int end)
{
    if (s < lo || s >= end || q.run[s] == 0 || q.run[s] == 0xff) {
        rck_error("rck_snetq: freeing LUT slot 0x%x, which starts no run", s);
        return;
    }
    int n = q.run[s];
    for (int k = 0; k < n; k++)
        q.run[s + k] = 0;
}

void rck_snetq_page_free(int run)
{
    run_free(run, POOL_LO, POOL_END);
}

int rck_snetq_page_entries(int run, uint32_t *entries, int max)
{
    if (!q.ready || run < POOL_LO || run >= POOL_END || q.run[run] == 0 ||
        q.run[run] == 0xff || q.run[run] > max)
        return -1;
    int n = q.run[run];
    for (int k = 0; k < n; k++)
        if (rck_hal_lut_read(q.hal, q.hal->core, run + k, &entries[k]) !=
            RCK_OK)
            return -1;
    return n;
}

rck_status_t rck_snetq_map(const uint32_t *entries, int n, int hold,
                           void **addr, int *map)
{
    if (entries == NULL || n <= 0 || addr == NULL || map == NULL)
        return RCK_ERR_INVALID;
    if (!rck_snetq_pages_usable(NULL))
        return RCK_ERR_UNSUPPORTED;
    int s = hold ? find_run(MAP_LO, MAP_MID, n)
                 : find_run(MAP_MID, MAP_END, n);
    if (s < 0)
        return RCK_ERR_NOSPACE;
    for (int k = 0; k < n; k++) {
        uint32_t cur;
        if (rck_hal_lut_read(q.hal, q.hal->core, s + k, &cur) != RCK_OK)
            return RCK_ERR_STATE;
        if (cur == entries[k])
            continue; /* already shows that page */
        rck_status_t st = rck_hal_lut_write(q.hal, q.hal->core, s + k,
                                            entries[k]);
        if (st != RCK_OK) {
            rck_error("rck_snetq_map: LUT entry 0x%x refused for slot 0x%x",
                      entries[k], s + k);
            return st;
        }
    }
    void *a = rck_hal_lut_addr(q.hal, s);
    if (a == NULL)
        return RCK_ERR_UNSUPPORTED;
    for (int k = 0; k < n; k++)
        q.run[s + k] = 0xff;
    q.run[s] = (unsigned char)n;
    q.stats.pages_mapped += (uint64_t)n;
    *addr = a;
    *map = s;
    return RCK_OK;
}

void rck_snetq_unmap(int map)
{
    run_free(map, MAP_LO, MAP_END);
}
