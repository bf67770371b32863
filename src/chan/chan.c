/*
 * rck_chan: set-up, the channel table, the slice allocator, binding
 * (rck_chan_open) and closing. The layout and the invariants are at the
 * top of chan_internal.h.
 */
#include "chan_internal.h"

#include <stdlib.h>
#include <string.h>

chan_core_t rck__chan;

/* ---- settings ---- */

void rck_chan_attr_init(rck_chan_attr_t *attr)
{
    if (attr == NULL)
        return;
    memset(attr, 0, sizeof(*attr));
    attr->notify = RCK_CHAN_NOTIFY_RING;
    attr->ring_slots = 64;
    attr->tree_words = 32;
    attr->ring_lines = 64;
    attr->bulk_bytes = 16u << 10;
    attr->inline_max = 0;
    attr->slice_bytes = 0;
}

void rck_chan_open_attr_init(rck_chan_open_attr_t *attr)
{
    if (attr == NULL)
        return;
    attr->notify = RCK_CHAN_NOTIFY_DEFAULT;
    attr->ring_lines = RCK_CHAN_INHERIT;
    attr->bulk_bytes = RCK_CHAN_INHERIT;
}

const char *rck_chan_notify_name(rck_chan_notify_t kind)
{
    switch (kind) {
    case RCK_CHAN_NOTIFY_DEFAULT:
        return "default";
    case RCK_CHAN_NOTIFY_RING:
        return "ring";
    case RCK_CHAN_NOTIFY_TREE:
        return "tree";
    case RCK_CHAN_NOTIFY_POLL:
        return "poll";
    }
    return "unknown";
}

static int kind_valid(rck_chan_notify_t k)
{
    return k == RCK_CHAN_NOTIFY_RING || k == RCK_CHAN_NOTIFY_TREE ||
           k == RCK_CHAN_NOTIFY_POLL;
}

static rck_status_t check_lines(uint32_t lines, const char *what)
{
    if (lines < CHAN_LINES_MIN || lines > CHAN_LINES_MAX) {
        rck_error("%s: %u ring lines (must be %u..%u)", what, lines,
                  CHAN_LINES_MIN, CHAN_LINES_MAX);
        return RCK_ERR_INVALID;
    }
    return RCK_OK;
}

static rck_status_t check_bulk(uint32_t bytes, const char *what)
{
    if (bytes != 0 &&
        (bytes < CHAN_BULK_MIN || bytes > CHAN_BULK_MAX || bytes % 64)) {
        rck_error("%s: bulk buffer of %u bytes (must be 0, or %u..%u and a "
                  "multiple of 64)",
                  what, bytes, CHAN_BULK_MIN, CHAN_BULK_MAX);
        return RCK_ERR_INVALID;
    }
    return RCK_OK;
}

static rck_status_t attr_check(const rck_chan_attr_t *a)
{
    const char *w = "rck_chan_init";
    rck_status_t st;

    if (!kind_valid(a->notify)) {
        rck_error("%s: unknown notification kind %d", w, (int)a->notify);
        return RCK_ERR_INVALID;
    }
    if (a->ring_slots == 1 || a->ring_slots > CHAN_RING_SLOTS_MAX) {
        rck_error("%s: notification ring of %u ids (must be 0 or 2..%u)", w,
                  a->ring_slots, CHAN_RING_SLOTS_MAX);
        return RCK_ERR_INVALID;
    }
    if (a->tree_words > CHAN_TREE_WORDS_MAX) {
        rck_error("%s: notification tree of %u words (must be 0..%u)", w,
                  a->tree_words, CHAN_TREE_WORDS_MAX);
        return RCK_ERR_INVALID;
    }
    if ((a->notify == RCK_CHAN_NOTIFY_RING && a->ring_slots == 0) ||
        (a->notify == RCK_CHAN_NOTIFY_TREE && a->tree_words == 0)) {
        rck_error("%s: default notification '%s' but its %s is disabled", w,
                  rck_chan_notify_name(a->notify),
                  a->notify == RCK_CHAN_NOTIFY_RING ? "ring" : "tree");
        return RCK_ERR_INVALID;
    }
    st = check_lines(a->ring_lines, w);
    if (st == RCK_OK)
        st = check_bulk(a->bulk_bytes, w);
    if (st == RCK_OK && a->slice_bytes != 0 &&
        (a->slice_bytes < CHAN_SLICE_MIN || a->slice_bytes % 4096 ||
         a->slice_bytes > ((size_t)1 << 30))) {
        rck_error("%s: slice of %zu bytes (must be 0, or a multiple of "
                  "4096 from %u to 1 GiB)",
                  w, a->slice_bytes, CHAN_SLICE_MIN);
        st = RCK_ERR_INVALID;
    }
    return st;
}

/* ---- layout ---- */

static uint32_t round_line(uint32_t n)
{
    return (n + CHAN_LINE - 1) / CHAN_LINE * CHAN_LINE;
}

/* The memory controller nearest @p core (lowest index on a tie). */
static int nearest_mc(const rck_chip_t *chip, int core)
{
    int x, y, best = RCK_MC_INTERLEAVE, best_h = 1 << 30;

    rck_chip_core_xy(chip, core, &x, &y);
    for (int m = 0; m < chip->nmc; m++) {
        int h = abs(chip->mc[m].x - x) + abs(chip->mc[m].y - y);
        if (h < best_h) {
            best_h = h;
            best = m;
        }
    }
    return best;
}

static rck_status_t layout_make(chan_core_t *c)
{
    rck_hal_t *hal = c->hal;
    const rck_chan_attr_t *a = &c->attr;
    void *base;
    size_t win, avail, total;
    rck_status_t st;

    c->mpb_bytes = CHAN_LINE + round_line(2 * a->ring_slots) +
                   round_line(4 * a->tree_words);
    st = rck_hal_mpb_reserve(hal, rck__chan_lib, c->mpb_bytes, &c->mpb_off);
    if (st != RCK_OK) {
        rck_error("rck_chan_init: cannot reserve %u bytes of the MPB for "
                  "the notification ring and tree (%s)%s",
                  c->mpb_bytes, rck_status_string(st),
                  st == RCK_ERR_BUSY ? ": call rck_chan_init before RCCE_init"
                                     : "");
        return st;
    }
    c->tree_off = c->mpb_off + MPB_RING + round_line(2 * a->ring_slots);

    st = rck_hal_shm_map(hal, &base, &win);
    if (st != RCK_OK)
        return st;
    avail = win > hal->shm_reserved ? win - hal->shm_reserved : 0;
    c->bind_bytes = ((size_t)c->nues * (size_t)c->nues * CHAN_LINE + 4095) /
                    4096 * 4096;
    c->slice_bytes = a->slice_bytes;
    if (c->slice_bytes == 0) {
        size_t share = win / 4 > c->bind_bytes ? win / 4 - c->bind_bytes : 0;
        c->slice_bytes = share / (size_t)c->nues / 4096 * 4096;
        if (c->slice_bytes > CHAN_SLICE_MAX_DEFAULT)
            c->slice_bytes = CHAN_SLICE_MAX_DEFAULT;
    }
    if (c->slice_bytes < CHAN_SLICE_MIN) {
        rck_error("rck_chan_init: a quarter of the %zu-byte shared window "
                  "leaves %zu bytes per UE for channels (at least %u needed): "
                  "raise RCK_SHM_SIZE or set slice_bytes",
                  win, c->slice_bytes, CHAN_SLICE_MIN);
        return RCK_ERR_NOSPACE;
    }
    total = c->bind_bytes + (size_t)c->nues * c->slice_bytes;
    if (total > avail || total >= ((size_t)1 << 32) - 4096) {
        rck_error("rck_chan_init: %zu bytes of shared DRAM needed (%d UEs x "
                  "%zu-byte slices + %zu of bind lines), %zu free in the "
                  "window: raise RCK_SHM_SIZE or lower slice_bytes",
                  total, c->nues, c->slice_bytes, c->bind_bytes, avail);
        return RCK_ERR_NOSPACE;
    }
    st = rck_hal_shm_reserve(hal, rck__chan_lib, total, 4096, &c->shm_off);
    if (st != RCK_OK) {
        rck_error("rck_chan_init: cannot reserve %zu bytes of shared DRAM "
                  "(%s)",
                  total, rck_status_string(st));
        return st;
    }
    c->shm_bytes = total;
    return RCK_OK;
}

/* This core's view of the library's window: MPBT; each slice homed on the
 * controller nearest its owner (as sccKit's LUTs would place it). */
static void layout_map(chan_core_t *c)
{
    rck_hal_t *hal = c->hal;
    rck_status_t st;

    st = rck_hal_shm_set_map(hal, c->shm_off, c->bind_bytes, RCK_MAP_MPBT,
                             RCK_MC_INTERLEAVE);
    for (int u = 0; u < c->nues && st == RCK_OK; u++)
        st = rck_hal_shm_set_map(
            hal, c->shm_off + c->bind_bytes + (size_t)u * c->slice_bytes,
            c->slice_bytes, RCK_MAP_MPBT,
            nearest_mc(&hal->chip, hal->ue_core[u]));
    if (st != RCK_OK && st != RCK_ERR_UNSUPPORTED)
        rck_warn("rck_chan_init: cannot map the channels' shared DRAM MPBT "
                 "(%s); timing follows the default mapping",
                 rck_status_string(st));
}

static uint32_t slice_start(const chan_core_t *c, int ue)
{
    return (uint32_t)(c->bind_bytes + (size_t)ue * c->slice_bytes);
}

/* ---- set-up ---- */

static rck_status_t local_alloc(chan_core_t *c)
{
    c->ready_q = calloc(RCK_CHAN_MAX_CHANNELS, sizeof(*c->ready_q));
    c->ready_bits = calloc(RCK_CHAN_MAX_CHANNELS / 8, 1);
    c->scratch = calloc(CHAN_LINES_MAX / 2 + 1, CHAN_LINE);
    c->rx_scratch = calloc(CHAN_LINES_MAX / 2 + 1, CHAN_LINE);
    c->offers_made = calloc((size_t)c->nues, sizeof(*c->offers_made));
    c->offers_taken = calloc((size_t)c->nues, sizeof(*c->offers_taken));
    c->bind_loaded = calloc((size_t)c->nues, 1);
    c->free_cap = 16;
    c->freel = calloc(c->free_cap, sizeof(*c->freel));
    if (c->ready_q == NULL || c->ready_bits == NULL || c->scratch == NULL ||
        c->rx_scratch == NULL ||
        c->offers_made == NULL || c->offers_taken == NULL ||
        c->bind_loaded == NULL || c->freel == NULL) {
        rck_error("rck_chan_init: out of memory");
        return RCK_ERR_NOMEM;
    }
    c->freel[0].off = slice_start(c, c->me);
    c->freel[0].len = (uint32_t)c->slice_bytes;
    c->nfree = 1;
    return RCK_OK;
}

rck_status_t rck_chan_init(const rck_chan_attr_t *attr)
{
    chan_core_t *c = &rck__chan;
    rck_chan_attr_t a;
    rck_hal_t *hal;
    rck_status_t st;

    if (c->initialized)
        return RCK_OK;
    if (attr != NULL)
        a = *attr;
    else
        rck_chan_attr_init(&a);
    if (a.notify == RCK_CHAN_NOTIFY_DEFAULT)
        a.notify = RCK_CHAN_NOTIFY_RING;
    st = attr_check(&a);
    if (st != RCK_OK)
        return st;
    st = rck_hal_open(NULL, &hal);
    if (st != RCK_OK) {
        rck_error("rck_chan_init: cannot attach to the chip (%s)",
                  rck_status_string(st));
        return st;
    }
    /* the HAL runs rck__chan_attach, then chains rck__chan_irq */
    c->want = a;
    return rck_lib_attach(hal, rck__chan_lib);
}

/* The descriptor's init (chan_desc.c), with rck_chan_init's attributes. */
rck_status_t rck__chan_attach(rck_hal_t *hal)
{
    chan_core_t *c = &rck__chan;
    rck_chan_attr_t a = c->want;
    rck_status_t st;

    if (!rck_hal_world_is_job(hal, "rck_chan_init"))
        return RCK_ERR_CONFIG;
    if (hal->chip.line_bytes != CHAN_LINE) {
        rck_error("rck_chan_init: channels need %u-byte lines; the chip has "
                  "%u",
                  CHAN_LINE, hal->chip.line_bytes);
        return RCK_ERR_CONFIG;
    }
    if (c->layout_done) {
        /* A second session reuses the layout (reservations cannot be
         * repeated after RCCE_init) and the local bookkeeping of the
         * shared memory, which outlives the channels. */
        if (c->hal != hal || memcmp(&c->attr, &a, sizeof(a)) != 0) {
            rck_error("rck_chan_init: initialised again with other "
                      "attributes (or another chip attachment) than the "
                      "first time; the layout cannot change");
            return RCK_ERR_INVALID;
        }
    } else {
        c->hal = hal;
        c->attr = a;
        c->me = hal->ue;
        c->nues = hal->nues;
        st = layout_make(c);
        if (st != RCK_OK)
            return st;
        layout_map(c);
        st = local_alloc(c);
        if (st != RCK_OK)
            return st;
        c->layout_done = 1;
    }
    memset(&c->stats, 0, sizeof(c->stats));
    c->irq_flag = 0;
    c->lost = 0;
    c->initialized = 1;
    return RCK_OK;
}

rck_status_t rck_chan_finalize(void)
{
    chan_core_t *c = &rck__chan;

    if (c->lost) {
        /* the HAL went down first (rck__chan_fini): nothing on the chip
         * could be touched any more */
        rck_error("rck_chan_finalize: the chip was detached (RCCE_finalize?) "
                  "first; the peers are not told about the closes");
        c->lost = 0;
        return RCK_ERR_STATE;
    }
    if (!c->initialized)
        return RCK_OK;
    for (uint32_t id = 0; id < c->next_id; id++) {
        chan_t *ch = rck__chan_by_id(c, id);
        if (ch != NULL && ch->state == CH_OPEN)
            rck_chan_close(rck__chan_handle(ch, id));
    }
    rck_lib_detach(c->hal, rck__chan_lib);
    return RCK_OK;
}

/* The descriptor's fini: rck_chan_finalize (the channels are closed), or
 * the HAL going down under open channels (RCCE_finalize first): then the
 * peers are not told, the layout is forgotten and rck_chan_finalize says
 * so. The pin handler is unchained already. */
void rck__chan_fini(rck_hal_t *hal, rck_lib_fini_why_t why)
{
    chan_core_t *c = &rck__chan;

    (void)hal;
    c->ready_head = 0;
    c->ready_n = 0;
    memset(c->ready_bits, 0, RCK_CHAN_MAX_CHANNELS / 8);
    c->initialized = 0;
    if (why == RCK_LIB_HAL_DOWN) {
        c->lost = 1;
        c->layout_done = 0;
    }
}

int rck_chan_ue(void)
{
    return rck__chan.initialized ? rck__chan.me : -1;
}

int rck_chan_num_ues(void)
{
    return rck__chan.initialized ? rck__chan.nues : 0;
}

void rck_chan_stats(rck_chan_stats_t *stats)
{
    if (stats == NULL)
        return;
    if (rck__chan.initialized)
        *stats = rck__chan.stats;
    else
        memset(stats, 0, sizeof(*stats));
}

rck_status_t rck__chan_ready_check(chan_core_t *c, const char *what)
{
    if (c->lost) {
        /* rck__chan_fini: the HAL went down under the channels */
        rck_error("%s: the chip was detached (RCCE_finalize?) before "
                  "rck_chan_finalize",
                  what);
        return RCK_ERR_STATE;
    }
    if (!c->initialized) {
        rck_error("%s: channels are not initialised (rck_chan_init)", what);
        return RCK_ERR_STATE;
    }
    return RCK_OK;
}

/* ---- the channel table ---- */

chan_t *rck__chan_by_id(chan_core_t *c, uint32_t id)
{
    chan_t *chunk;

    if (id >= c->next_id)
        return NULL;
    chunk = c->chunk[id / CHAN_CHUNK];
    return chunk != NULL ? &chunk[id % CHAN_CHUNK] : NULL;
}

rck_chan_t rck__chan_handle(const chan_t *ch, uint32_t id)
{
    return ((rck_chan_t)ch->gen << 16) | id;
}

rck_status_t rck__chan_get(chan_core_t *c, rck_chan_t h, const char *what,
                           chan_t **out)
{
    uint32_t id = h & 0xffffu, gen = h >> 16;
    chan_t *ch;
    rck_status_t st = rck__chan_ready_check(c, what);

    if (st != RCK_OK)
        return st;
    ch = rck__chan_by_id(c, id);
    if (gen == 0 || ch == NULL || ch->gen == 0) {
        rck_error("%s: 0x%x is not a channel handle of this UE", what, h);
        return RCK_ERR_INVALID;
    }
    if (gen != ch->gen || ch->state != CH_OPEN) {
        rck_error("%s: channel 0x%x is closed", what, h);
        return RCK_ERR_STATE;
    }
    *out = ch;
    return RCK_OK;
}

static rck_status_t id_alloc(chan_core_t *c, uint32_t *id_out)
{
    uint32_t id;

    if (c->nfree_ids > 0) {
        id = c->free_ids[--c->nfree_ids];
    } else {
        if (c->next_id >= RCK_CHAN_MAX_CHANNELS) {
            rck_error("rck_chan_open: all %d channel ids of this UE are in "
                      "use",
                      RCK_CHAN_MAX_CHANNELS);
            return RCK_ERR_NOSPACE;
        }
        id = c->next_id;
        if (c->chunk[id / CHAN_CHUNK] == NULL) {
            c->chunk[id / CHAN_CHUNK] = calloc(CHAN_CHUNK, sizeof(chan_t));
            if (c->chunk[id / CHAN_CHUNK] == NULL) {
                rck_error("rck_chan_open: out of memory");
                return RCK_ERR_NOMEM;
            }
        }
        c->next_id++;
    }
    *id_out = id;
    return RCK_OK;
}

static void id_free(chan_core_t *c, uint32_t id)
{
    if (c->nfree_ids % 256 == 0) {
        uint16_t *n = realloc(c->free_ids,
                              (c->nfree_ids + 256) * sizeof(*c->free_ids));
        if (n == NULL)
            return; /* the id is lost, nothing else */
        c->free_ids = n;
    }
    c->free_ids[c->nfree_ids++] = (uint16_t)id;
}

/* ---- the slice allocator (whole lines, first fit) ---- */

static void quarantine_scan(chan_core_t *c)
{
    for (uint32_t i = 0; i < c->nquar;) {
        chan_quar_t *q = &c->quar[i];
        uint32_t closed = 0;

        if (rck__chan_read(c, q->blk + TX_CLOSED, &closed, 4) == RCK_OK &&
            closed != 0) {
            rck__chan_free(c, q->blk, q->blk_bytes);
            if (q->bulk_bytes != 0)
                rck__chan_free(c, q->bulk_off, q->bulk_bytes);
            c->quar[i] = c->quar[--c->nquar];
        } else {
            i++;
        }
    }
}

rck_status_t rck__chan_alloc(chan_core_t *c, uint32_t len, uint32_t *off)
{
    len = round_line(len);
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t i = 0; i < c->nfree; i++) {
            if (c->freel[i].len < len)
                continue;
            *off = c->freel[i].off;
            c->freel[i].off += len;
            c->freel[i].len -= len;
            if (c->freel[i].len == 0) {
                memmove(&c->freel[i], &c->freel[i + 1],
                        (c->nfree - i - 1) * sizeof(*c->freel));
                c->nfree--;
            }
            return RCK_OK;
        }
        if (pass == 0 && c->nquar > 0)
            quarantine_scan(c);
    }
    rck_error("no room for %u bytes in this UE's %zu-byte channel slice "
              "(slice_bytes; closed channels are reclaimed once their peer "
              "closes too)",
              len, c->slice_bytes);
    return RCK_ERR_NOSPACE;
}

void rck__chan_free(chan_core_t *c, uint32_t off, uint32_t len)
{
    uint32_t i = 0;

    len = round_line(len);
    while (i < c->nfree && c->freel[i].off < off)
        i++;
    /* merge with the neighbours where they touch */
    if (i > 0 && c->freel[i - 1].off + c->freel[i - 1].len == off) {
        c->freel[i - 1].len += len;
        if (i < c->nfree && off + len == c->freel[i].off) {
            c->freel[i - 1].len += c->freel[i].len;
            memmove(&c->freel[i], &c->freel[i + 1],
                    (c->nfree - i - 1) * sizeof(*c->freel));
            c->nfree--;
        }
        return;
    }
    if (i < c->nfree && off + len == c->freel[i].off) {
        c->freel[i].off = off;
        c->freel[i].len += len;
        return;
    }
    if (c->nfree == c->free_cap) {
        chan_extent_t *n =
            realloc(c->freel, 2 * c->free_cap * sizeof(*c->freel));
        if (n == NULL)
            return; /* the memory is lost, nothing else */
        c->freel = n;
        c->free_cap *= 2;
    }
    memmove(&c->freel[i + 1], &c->freel[i],
            (c->nfree - i) * sizeof(*c->freel));
    c->freel[i].off = off;
    c->freel[i].len = len;
    c->nfree++;
}

static void quarantine_add(chan_core_t *c, const chan_t *ch)
{
    if (c->nquar == c->quar_cap) {
        uint32_t cap = c->quar_cap ? 2 * c->quar_cap : 16;
        chan_quar_t *n = realloc(c->quar, cap * sizeof(*c->quar));
        if (n == NULL)
            return; /* never reused: safe */
        c->quar = n;
        c->quar_cap = cap;
    }
    c->quar[c->nquar].blk = ch->in_blk;
    c->quar[c->nquar].blk_bytes = ch->in_blk_bytes;
    c->quar[c->nquar].bulk_off =
        ch->in_bulk_off != BULK_OFF_FAILED ? ch->in_bulk_off : 0;
    c->quar[c->nquar].bulk_bytes =
        ch->in_bulk_off != BULK_OFF_FAILED ? ch->in_bulk_bytes : 0;
    c->nquar++;
}

/* ---- binding ---- */

static uint32_t bind_line(const chan_core_t *c, int from, int to)
{
    return (uint32_t)(((size_t)from * (size_t)c->nues + (size_t)to) *
                      CHAN_LINE);
}

static rck_status_t bind_load(chan_core_t *c, int peer)
{
    uint32_t w[8];
    rck_status_t st;

    if (c->bind_loaded[peer])
        return RCK_OK;
    /* Our own line says how far we got in an earlier session. */
    st = rck__chan_read(c, bind_line(c, c->me, peer), w, sizeof(w));
    if (st != RCK_OK)
        return st;
    c->offers_taken[peer] = w[6];
    c->offers_made[peer] = w[7];
    c->bind_loaded[peer] = 1;
    return RCK_OK;
}

/* Post our offer to @p peer once it has taken the previous one. */
static rck_status_t bind_offer(chan_core_t *c, int peer, const uint32_t *w6)
{
    uint32_t mine = bind_line(c, c->me, peer);
    uint32_t theirs = bind_line(c, peer, c->me);
    rck_status_t st;
    int closed;

    st = rck__chan_wait_ge(c, theirs, 6 * 4, c->offers_made[peer], CHAN_NO_WORD,
                           -1, &closed, NULL);
    if (st != RCK_OK)
        return st;
    st = rck__chan_write(c, mine, w6, 6 * 4);
    if (st == RCK_OK)
        st = rck__chan_write32(c, mine + 7 * 4, c->offers_made[peer] + 1);
    if (st == RCK_OK)
        c->offers_made[peer]++;
    return st;
}

static rck_status_t stash_add(chan_core_t *c, int peer, const uint32_t *w)
{
    chan_stash_t *s = calloc(1, sizeof(*s)), **tail = &c->stash;

    if (s == NULL) {
        rck_error("rck_chan_open: out of memory");
        return RCK_ERR_NOMEM;
    }
    s->peer = peer;
    memcpy(s->w, w, sizeof(s->w));
    while (*tail != NULL)
        tail = &(*tail)->next;
    *tail = s;
    return RCK_OK;
}

static int stash_take(chan_core_t *c, int peer, uint32_t port, uint32_t *w)
{
    for (chan_stash_t **p = &c->stash; *p != NULL; p = &(*p)->next) {
        if ((*p)->peer == peer && (*p)->w[0] == port) {
            chan_stash_t *s = *p;
            memcpy(w, s->w, sizeof(s->w));
            *p = s->next;
            free(s);
            return 1;
        }
    }
    return 0;
}

/* Find @p peer's offer for @p port: stashed, or the next ones it posts. */
static rck_status_t bind_match(chan_core_t *c, int peer, uint32_t port,
                               uint32_t *w6)
{
    uint32_t mine = bind_line(c, c->me, peer);
    uint32_t theirs = bind_line(c, peer, c->me);
    rck_status_t st;

    if (stash_take(c, peer, port, w6))
        return RCK_OK;
    for (;;) {
        uint32_t w[8];
        int closed;

        st = rck__chan_wait_ge(c, theirs, 7 * 4, c->offers_taken[peer] + 1,
                               CHAN_NO_WORD, -1, &closed, NULL);
        if (st != RCK_OK)
            return st;
        st = rck__chan_read(c, theirs, w, sizeof(w));
        if (st != RCK_OK)
            return st;
        c->offers_taken[peer]++;
        st = rck__chan_write32(c, mine + 6 * 4, c->offers_taken[peer]);
        if (st != RCK_OK)
            return st;
        if (w[0] == port) {
            memcpy(w6, w, 6 * sizeof(*w));
            return RCK_OK;
        }
        st = stash_add(c, peer, w);
        if (st != RCK_OK)
            return st;
    }
}

/* Zero a new block (ACK and TX lines and the ring): a reused one may hold
 * the sequence numbers of an earlier channel. */
static rck_status_t block_clear(chan_core_t *c, uint32_t blk, uint32_t bytes)
{
    static const unsigned char zero[1024];
    rck_status_t st = RCK_OK;

    for (uint32_t done = 0; done < bytes && st == RCK_OK;) {
        uint32_t n = bytes - done < sizeof(zero) ? bytes - done
                                                 : (uint32_t)sizeof(zero);
        st = rck__chan_write(c, blk + done, zero, n);
        done += n;
    }
    if (st == RCK_OK)
        st = rck_hal_shm_flush(c->hal);
    return st;
}

/* What the MPB layout depends on, exchanged in offers to catch UEs that
 * passed different settings. */
static uint32_t layout_word(const chan_core_t *c)
{
    return c->attr.ring_slots | (c->attr.tree_words << 16);
}

static size_t inline_cap(uint32_t lines)
{
    uint32_t maxl = (lines - 1) / 2;
    return CHAN_FIRST_PAYLOAD + (size_t)(maxl - 1) * CHAN_NEXT_PAYLOAD;
}

rck_status_t rck_chan_open(int peer, uint32_t port, rck_chan_t *ch)
{
    return rck_chan_open_ex(peer, port, NULL, ch);
}

/* Checks rck_chan_open's arguments and resolves its attributes (the
 * open's own, else those given at rck_chan_init). */
static rck_status_t open_args(const chan_core_t *c, int peer, uint32_t port,
                              const rck_chan_open_attr_t *oa,
                              const rck_chan_t *out, rck_chan_notify_t *kindp,
                              uint32_t *linesp, uint32_t *bulkp)
{
    const char *w = "rck_chan_open";
    rck_chan_notify_t kind;
    uint32_t lines, bulk;
    rck_status_t st;

    if (out == NULL) {
        rck_error("%s: NULL handle pointer", w);
        return RCK_ERR_INVALID;
    }
    if (peer < 0 || peer >= c->nues || peer == c->me) {
        rck_error("%s: peer UE %d %s (UEs 0..%d, this is %d)", w, peer,
                  peer == c->me ? "is this UE: a channel joins two UEs"
                                : "does not exist",
                  c->nues - 1, c->me);
        return RCK_ERR_INVALID;
    }
    if (port >= RCK_CHAN_PORTS) {
        rck_error("%s: port %u out of range (0..%d)", w, port,
                  RCK_CHAN_PORTS - 1);
        return RCK_ERR_INVALID;
    }
    kind = c->attr.notify;
    lines = c->attr.ring_lines;
    bulk = c->attr.bulk_bytes;
    if (oa != NULL) {
        if (oa->notify != RCK_CHAN_NOTIFY_DEFAULT)
            kind = oa->notify;
        if (oa->ring_lines != RCK_CHAN_INHERIT)
            lines = oa->ring_lines;
        if (oa->bulk_bytes != RCK_CHAN_INHERIT)
            bulk = oa->bulk_bytes;
    }
    if (!kind_valid(kind)) {
        rck_error("%s: unknown notification kind %d", w, (int)kind);
        return RCK_ERR_INVALID;
    }
    if ((kind == RCK_CHAN_NOTIFY_RING && c->attr.ring_slots == 0) ||
        (kind == RCK_CHAN_NOTIFY_TREE && c->attr.tree_words == 0)) {
        rck_error("%s: notification '%s' was disabled at rck_chan_init", w,
                  rck_chan_notify_name(kind));
        return RCK_ERR_INVALID;
    }
    st = check_lines(lines, w);
    if (st == RCK_OK)
        st = check_bulk(bulk, w);
    if (st != RCK_OK)
        return st;
    *kindp = kind;
    *linesp = lines;
    *bulkp = bulk;
    return RCK_OK;
}

rck_status_t rck_chan_open_ex(int peer, uint32_t port,
                              const rck_chan_open_attr_t *oa, rck_chan_t *out)
{
    chan_core_t *c = &rck__chan;
    const char *w = "rck_chan_open";
    rck_chan_notify_t kind;
    uint32_t lines, bulk, id, blk, offer[6], theirs[6];
    chan_t *ch;
    rck_status_t st = rck__chan_ready_check(c, w);

    if (st != RCK_OK)
        return st;
    st = open_args(c, peer, port, oa, out, &kind, &lines, &bulk);
    if (st != RCK_OK)
        return st;

    st = id_alloc(c, &id);
    if (st != RCK_OK)
        return st;
    ch = rck__chan_by_id(c, id);
    st = rck__chan_alloc(c, BLK_RING + lines * CHAN_LINE, &blk);
    if (st != RCK_OK)
        goto err_id;
    st = block_clear(c, blk, BLK_RING + lines * CHAN_LINE);
    if (st == RCK_OK)
        st = bind_load(c, peer);
    if (st != RCK_OK)
        goto err_blk;

    rck_hal_set_context(c->hal, "rck_chan_open", peer);
    offer[0] = port;
    offer[1] = id | ((uint32_t)kind << 16);
    offer[2] = blk;
    offer[3] = lines;
    offer[4] = bulk;
    offer[5] = layout_word(c);
    st = bind_offer(c, peer, offer);
    if (st == RCK_OK)
        st = bind_match(c, peer, port, theirs);
    rck_hal_set_context(c->hal, NULL, -1);
    if (st != RCK_OK) {
        /* The offer may be out: the block can never be reused. */
        rck_error("%s: binding port %u with UE %d failed (%s)", w, port,
                  peer, rck_status_string(st));
        id_free(c, id);
        return st;
    }

    {
        /* A new generation: handles of the id's earlier channels are
         * refused from now on (0 is never a generation). */
        uint16_t gen = (uint16_t)(ch->gen + 1);
        memset(ch, 0, sizeof(*ch));
        ch->gen = gen != 0 ? gen : 1;
    }
    ch->peer = peer;
    ch->peer_core = c->hal->ue_core[peer];
    ch->port = port;
    ch->in_kind = (uint8_t)kind;
    ch->in_blk = blk;
    ch->in_blk_bytes = BLK_RING + lines * CHAN_LINE;
    ch->in_lines = lines;
    ch->in_bulk_want = bulk;
    ch->peer_id = (uint16_t)(theirs[1] & 0xffffu);
    ch->out_kind = (uint8_t)(theirs[1] >> 16);
    ch->out_blk = theirs[2];
    ch->out_lines = theirs[3];
    ch->out_bulk_bytes = theirs[4];
    if (theirs[5] != layout_word(c)) {
        rck_error("%s: UE %d initialised channels with another notification "
                  "ring or tree size (%u ids, %u words) than this UE (%u, %u): "
                  "every UE must pass the same rck_chan_attr_t",
                  w, peer, theirs[5] & 0xffffu, theirs[5] >> 16,
                  c->attr.ring_slots, c->attr.tree_words);
        st = RCK_ERR_CONFIG;
        goto err_id;
    }
    if (!kind_valid((rck_chan_notify_t)ch->out_kind) ||
        ch->out_lines < CHAN_LINES_MIN || ch->out_lines > CHAN_LINES_MAX ||
        ch->out_blk < slice_start(c, peer) ||
        ch->out_blk >= slice_start(c, peer) + c->slice_bytes) {
        rck_error("%s: UE %d's offer for port %u is corrupt", w, peer, port);
        st = RCK_ERR_IO;
        goto err_id;
    }
    ch->inline_max = inline_cap(ch->out_lines);
    if (c->attr.inline_max != 0 && ch->out_bulk_bytes != 0 &&
        c->attr.inline_max < ch->inline_max)
        ch->inline_max = c->attr.inline_max;
    ch->state = CH_OPEN;
    c->nopen++;
    if (kind == RCK_CHAN_NOTIFY_POLL)
        rck__chan_polled_add(c, ch, id);
    else
        c->nnotified++;
    *out = rck__chan_handle(ch, id);
    return RCK_OK;

err_blk:
    rck__chan_free(c, blk, BLK_RING + lines * CHAN_LINE);
err_id:
    id_free(c, id);
    return st;
}

rck_status_t rck_chan_close(rck_chan_t h)
{
    chan_core_t *c = &rck__chan;
    uint32_t id = h & 0xffffu;
    chan_t *ch;
    rck_status_t st = rck__chan_get(c, h, "rck_chan_close", &ch);

    if (st != RCK_OK)
        return st;
    rck__chan_send_close(c, ch);
    quarantine_add(c, ch);
    if (ch->in_kind == RCK_CHAN_NOTIFY_POLL)
        rck__chan_polled_remove(c, ch);
    else
        c->nnotified--;
    c->nopen--;
    ch->state = CH_FREE;
    ch->handler = NULL;
    ch->head_valid = 0;
    id_free(c, id);
    return RCK_OK;
}

rck_status_t rck_chan_set_handler(rck_chan_t h, rck_chan_handler_t handler,
                                  void *arg)
{
    chan_t *ch;
    rck_status_t st = rck__chan_get(&rck__chan, h, "rck_chan_set_handler",
                                    &ch);

    if (st != RCK_OK)
        return st;
    ch->handler = handler;
    ch->arg = arg;
    /* Messages already waiting go to the new handler at the next
     * dispatch. */
    rck__chan_ready_add(&rck__chan, h & 0xffffu);
    return RCK_OK;
}

rck_status_t rck_chan_info(rck_chan_t h, rck_chan_info_t *info)
{
    chan_t *ch;
    rck_status_t st = rck__chan_get(&rck__chan, h, "rck_chan_info", &ch);

    if (st != RCK_OK)
        return st;
    if (info == NULL) {
        rck_error("rck_chan_info: NULL info");
        return RCK_ERR_INVALID;
    }
    memset(info, 0, sizeof(*info));
    info->peer = ch->peer;
    info->port = ch->port;
    info->id = (uint16_t)(h & 0xffffu);
    info->peer_id = ch->peer_id;
    info->in_notify = (rck_chan_notify_t)ch->in_kind;
    info->out_notify = (rck_chan_notify_t)ch->out_kind;
    info->in_lines = ch->in_lines;
    info->out_lines = ch->out_lines;
    info->inline_max = ch->inline_max;
    info->out_bulk_bytes = ch->out_bulk_bytes;
    info->peer_closed = ch->peer_closed;
    return RCK_OK;
}
