/*
 * The channels of the MPI library (docs/MPI.md, "Channels"): from every
 * process to every process an ordered, reliable pipe of packets through
 * the MPBs, after RCKMPI's SCCMPB channel and its improved version
 * (sccmpb-ext) presented at the 4th MARC symposium.
 *
 * Each receiver's MPB holds one exclusive write section (EWS) per sender,
 * and only that sender writes it:
 *   word 0  send sequence number (the sender writes it last: the flag)
 *   word 1  gEWS bitmap: the sender's gEWS slots holding the rest of the
 *           packet, most significant bit = slot 0 (sccmpb-ext)
 *   word 2  packet bytes (base payload + gEWS part)
 *   word 3  the sender's receive sequence number: how many packets it has
 *           consumed from this MPB's owner (the acknowledgement of the
 *           opposite pipe carried by a packet, so a reply acknowledges)
 *   payload
 * After the base EWS, every MPB holds one acknowledgement word per
 * receiver (the ack area): a receiver stores there, in the sender's MPB,
 * how many of its packets it has consumed. The acknowledgement does not
 * share a line with the EWS the sender polls for the reply: a store there
 * would pull that line away from the poller once more per round trip.
 * A sender reads the ack area only when no packet came back with the
 * acknowledgement in word 3 (a stream in one direction).
 * sccmpb: the reserved MPB space split evenly among the senders (at 48
 * processes 160 B: 144 B payload). sccmpb-ext: 48 base EWS of 64 B (48 B
 * payload) whatever the process count, and in every sender's MPB a 4 KiB
 * general-purpose EWS (gEWS) of 32 slots of 128 B that it lends to any
 * receiver; the receiver reads the base payload, then the named slots
 * from the sender's MPB, then acknowledges. When no slot is free the
 * packet is the base payload alone: the transfer falls back to 48 B per
 * round trip and never stalls. One packet per pair is in flight.
 *
 * sccshm and sccmulti (RCKMPI's shared-memory channels) add a ring per
 * ordered pair in the shared DRAM window, several packets in flight (below,
 * "the rings in shared DRAM"): sccshm sends every packet through the
 * rings, sccmulti those larger than an sccmpb-ext packet.
 */
#include "rckmpi.h"

#include "rck/config.h"
#include "rck/log.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#define EXT_BASE_EWS 48
#define EXT_EWS 64u

static uint32_t ews_at(int sender)
{
    return rk.chan.ews_off + (uint32_t)sender * rk.chan.ews_size;
}

static uint32_t ack_at(int receiver)
{
    return rk.chan.ack_off + 4u * (uint32_t)receiver;
}

/* sccmulti keeps its rings' flags in the MPBs, beside the MPB path's: the
 * flag word of an EWS holds the MPB sequence number in its low half and
 * the ring's head (ring packets written) in its high half, and an ack area
 * word the MPB and ring packets consumed the same way. A wait then sleeps
 * on the waiter's own MPB (on native, a wake-up of that core alone; shared
 * DRAM has one doorbell for every sleeper of the job). */
static int split(void)
{
    return rk.chan.kind == RK_CHAN_SCCMULTI;
}

static uint32_t halves(uint32_t mpb, uint32_t ring)
{
    return (mpb & 0xffffu) | ring << 16;
}

static int core_of(int ue)
{
    return rk.hal->ue_core[ue];
}

static const char *const chan_names[] = {"sccmpb", "sccmpb-ext", "sccshm",
                                         "sccmulti"};

const char *rk_chan_name(void)
{
    return chan_names[rk.chan.kind];
}

int rckmpi_coll_host_memory(void)
{
    return (rck_hal_caps(rk.hal) & (RCK_CAP_SHARED_MEMORY | RCK_CAP_TIMED)) ==
           RCK_CAP_SHARED_MEMORY;
}

/* The collectives' area in the shared window (native only; coll_flat.c,
 * coll_slot.c), reserved by rk_chan_init; 0 bytes when not reserved:
 *   one slot of RKC_SLOT_BYTES per UE (the allreduce's vectors),
 *   per UE a ring of RKC_GSLOT_N gather entries of GSLOT_ENTRY bytes
 *   (word 0 the gather number written, by the UE; word 1 the length; the
 *   data from byte 8), then per UE RKC_GSLOT_N words, the gather number
 *   the root has read from each entry (written by the roots). */
#define GSLOT_ENTRY 64
static size_t coll_slots_off, coll_slot_bytes, coll_gslot_off,
    coll_gdone_off;

static void coll_slots_init(void)
{
    size_t off, n = (size_t)rk.nues;
    size_t bytes = n * RKC_SLOT_BYTES + n * RKC_GSLOT_N * (GSLOT_ENTRY + 4);

    coll_slot_bytes = 0;
    if (!rckmpi_coll_host_memory() ||
        rck_hal_shm_reserve(rk.hal, rck__mpi_lib, bytes, 64, &off) != RCK_OK)
        return;
    coll_slots_off = off;
    coll_gslot_off = off + n * RKC_SLOT_BYTES;
    coll_gdone_off = coll_gslot_off + n * RKC_GSLOT_N * GSLOT_ENTRY;
    coll_slot_bytes = RKC_SLOT_BYTES;
}

size_t rckmpi_coll_slot_bytes(void)
{
    return coll_slot_bytes;
}

/* The offset of @p ue's slot in the shared window, or (size_t)-1 when
 * @p ue or @p len is out of bounds. */
static size_t slot_off(int ue, size_t len)
{
    if (ue < 0 || ue >= rk.nues || len > coll_slot_bytes)
        return (size_t)-1;
    return coll_slots_off + (size_t)ue * coll_slot_bytes;
}

int rckmpi_coll_slot_write(int ue, const void *buf, size_t len)
{
    size_t off = slot_off(ue, len);

    if (off == (size_t)-1)
        return -1;
    return rck_hal_shm_write(rk.hal, off, buf, len) == RCK_OK ? 0 : -1;
}

int rckmpi_coll_slot_read(int ue, void *buf, size_t len)
{
    size_t off = slot_off(ue, len);

    if (off == (size_t)-1)
        return -1;
    return rck_hal_shm_read(rk.hal, off, buf, len) == RCK_OK ? 0 : -1;
}

size_t rk_chan_gslot(int ue, unsigned long long g, int done)
{
    size_t k = (size_t)ue * RKC_GSLOT_N + (size_t)(g % RKC_GSLOT_N);

    if (coll_slot_bytes == 0 || ue < 0 || ue >= rk.nues)
        return 0;
    return done ? coll_gdone_off + k * 4 : coll_gslot_off + k * GSLOT_ENTRY;
}

int rckmpi_coll_counter(int32_t *old)
{
    int ctr = rk.hal->chip.atomic_counters - RKC_COUNTER_FROM_TOP;

    if (ctr < 0)
        return -1;
    if (old == NULL)
        return 0;
    return rck_hal_atomic_inc(rk.hal, ctr, old) == RCK_OK ? 0 : -1;
}

int rckmpi_coll_universe(void)
{
    return rk.nues;
}

static int chan_kind(const char *name)
{
    if (strcmp(name, "auto") == 0)
        /* host memory: the rings win for large messages (docs/MPI.md,
         * "Performance"); every model of the chip: RCKMPI's default */
        name = (rck_hal_caps(rk.hal) &
                (RCK_CAP_SHARED_MEMORY | RCK_CAP_TIMED)) ==
                       RCK_CAP_SHARED_MEMORY
                   ? "sccmulti"
                   : "sccmpb-ext";
    for (int k = 0; k < (int)(sizeof chan_names / sizeof *chan_names); k++)
        if (strcmp(name, chan_names[k]) == 0)
            return k;
    return -1;
}

static int chan_layout(rk_chan_t *c, uint32_t *need)
{
    rck_hal_t *hal = rk.hal;
    uint32_t line = hal->chip.line_bytes;
    /* the HAL keeps one line for the rest of the MPB */
    uint32_t avail = hal->chip.mpb_bytes - hal->mpb_reserved - line;
    int nbase = rk.nues > EXT_BASE_EWS ? rk.nues : EXT_BASE_EWS;
    /* the ack area: a word per receiver, whole lines */
    uint32_t acks = ((uint32_t)nbase * 4u + line - 1) / line * line;

    if (avail < acks) {
        rck_error("MPI_Init: the MPB has %u bytes free, fewer than the "
                  "channel's %u bytes of acknowledgements", avail, acks);
        return MPI_ERR_NO_MEM;
    }
    if (c->kind == RK_CHAN_SCCMPB_EXT || c->kind == RK_CHAN_SCCMULTI) {
        c->ews_size = EXT_EWS;
        c->gews_slots = RK_GEWS_SLOTS;
        *need = RK_GEWS_SLOTS * RK_GEWS_SLOT + (uint32_t)nbase * EXT_EWS +
                acks;
        if (EXT_EWS % line != 0 || RK_GEWS_SLOT % line != 0) {
            rck_error("MPI_Init: the sccmpb-ext channel needs MPB lines "
                      "that divide 64 bytes; the chip has %u", line);
            return MPI_ERR_OTHER;
        }
    } else {
        c->ews_size = (avail - acks) / (uint32_t)rk.nues / line * line;
        c->gews_slots = 0;
        *need = c->ews_size * (uint32_t)rk.nues + acks;
    }
    c->payload = c->ews_size - RK_EWS_HDR;
    /* the ack area ends the reservation (rk_chan_init adds its offset) */
    c->ack_off = *need - acks;
    if (c->ews_size < 2 * RK_EWS_HDR || *need > avail) {
        rck_error("MPI_Init: the %s channel needs %u bytes of every MPB "
                  "for %d processes; %u are free (MPB %u bytes, %u "
                  "reserved by other libraries)",
                  chan_names[c->kind], *need, rk.nues, avail,
                  hal->chip.mpb_bytes, hal->mpb_reserved);
        return MPI_ERR_NO_MEM;
    }
    return MPI_SUCCESS;
}

/* A ring's lines (the layout: below, "the rings in shared DRAM") */
#define RING_HEAD 0u
#define RING_TAIL 64u
#define RING_SLOTS 128u

static size_t ring_at(int s, int r)
{
    return rk.chan.ring_base +
           ((size_t)s * (size_t)rk.nues + (size_t)r) * rk.chan.ring_bytes;
}

/* Ring sizes (sccshm, sccmulti): at most RING_MAX_SLOTS slots of
 * RING_MAX_SLOT bytes per ordered pair, fewer and smaller when the
 * window's share (RCK_MPI_SHM_CHAN) split among n * n pairs is smaller. */
#define RING_MAX_SLOTS 8u
#define RING_MAX_SLOT 65536u
#define RING_MIN_SLOT 256u
#define RING_CTRL 128u
/* RCK_MPI_SHM_CHAN=auto on native: the share per ordered pair (the same
 * as src/backends/native/native.h's RCK_NATIVE_SHM_PAIR) */
#define RING_AUTO_PAIR ((size_t)256 << 10)

static int ring_layout(rk_chan_t *c, const char *name, int quiet)
{
    rck_hal_t *hal = rk.hal;
    size_t pairs = (size_t)rk.nues * (size_t)rk.nues, len = 0, off, budget,
           per, slot = 0, want = rck_config_get_size("MPI_SHM_CHAN");
    uint32_t slots = RING_MAX_SLOTS;
    void *base = NULL;

    /* auto on native: RING_AUTO_PAIR per pair, for which the native
     * launcher's RCK_SHM_SIZE=auto sized the window (rck_native_shm_auto) */
    if (rck_config_size_is_auto("MPI_SHM_CHAN") && rckmpi_coll_host_memory() &&
        pairs * RING_AUTO_PAIR > want)
        want = pairs * RING_AUTO_PAIR;

    if (rck_hal_shm_map(hal, &base, &len) != RCK_OK || base == NULL ||
        len < hal->shm_reserved) {
        if (!quiet)
            rck_error("MPI_Init: the %s channel needs the shared DRAM "
                      "window, which this backend does not map", name);
        return MPI_ERR_OTHER;
    }
    /* at most half of what is free: the rest stays for RCCE, SVM and the
     * one-sided windows */
    budget = (len - hal->shm_reserved) / 2;
    if (want < budget)
        budget = want;
    per = budget / pairs;
    for (;;) {
        slot = per > RING_CTRL ? (per - RING_CTRL) / slots / 64 * 64 : 0;
        if (slot > RING_MAX_SLOT)
            slot = RING_MAX_SLOT;
        if (slot >= 1024 || slots == 2)
            break;
        slots /= 2;
    }
    if (slot < RING_MIN_SLOT) {
        if (quiet)
            return MPI_ERR_NO_MEM;
        rck_error("MPI_Init: the %s channel needs %zu bytes of the shared "
                  "window for %d processes (rings of 2 slots of %u bytes per "
                  "ordered pair); it may take %zu (RCK_MPI_SHM_CHAN %zu, "
                  "half of the %zu free of the window: RCK_SHM_SIZE)",
                  name, pairs * (RING_CTRL + 2 * RING_MIN_SLOT), rk.nues,
                  RING_MIN_SLOT, budget, want, len - hal->shm_reserved);
        return MPI_ERR_NO_MEM;
    }
    /* auto: rings whose slots carry no more than an MPB packet (many
     * processes) would only add packets; sccmpb-ext instead */
    if (quiet && c->kind == RK_CHAN_SCCMULTI &&
        slot - RK_EWS_HDR <= c->mpb_max)
        return MPI_ERR_NO_MEM;
    c->ring_slots = slots;
    c->slot_bytes = (uint32_t)slot;
    c->ring_bytes = RING_CTRL + (size_t)slots * slot;
    if (rck_hal_shm_reserve(hal, rck__mpi_lib, pairs * c->ring_bytes, 4096, &off) !=
        RCK_OK) {
        if (!quiet)
            rck_error("MPI_Init: cannot reserve %zu bytes of the shared "
                      "window for the %s channel", pairs * c->ring_bytes,
                      name);
        return MPI_ERR_NO_MEM;
    }
    c->ring_base = off;
    if (rk.ue == 0)
        rck_info("MPI_Init: %s rings of %u slots of %u bytes per ordered "
                 "pair, %zu bytes of the %zu-byte shared window", name,
                 slots, (unsigned)slot, pairs * c->ring_bytes, len);
    return MPI_SUCCESS;
}

static rck_hal_cond_t cond_in(int s)
{
    rk_chan_t *c = &rk.chan;

    if (c->kind == RK_CHAN_SCCSHM)
        return (rck_hal_cond_t){.space = RCK_SPACE_SHM,
                                .offset = (uint32_t)(c->pipe[s].ring_rx +
                                                     RING_HEAD),
                                .mask = 0xffffffffu,
                                .value = 0,
                                .op = RCK_COND_NE};
    return (rck_hal_cond_t){.space = RCK_SPACE_MPB,
                            .core = rk.hal->core,
                            .offset = ews_at(s),
                            .mask = 0xffffffffu,
                            .value = 0,
                            .op = RCK_COND_NE};
}

int rk_chan_init(void)
{
    rk_chan_t *c = &rk.chan;
    const char *name = rck_config_get("MPI_CHANNEL");
    int n = rk.nues, rings, mpb;
    uint32_t need, off;
    rck_status_t st;
    int err;

    memset(c, 0, sizeof *c);
    c->kind = chan_kind(name);
    if (c->kind < 0) {
        rck_error("MPI_Init: RCK_MPI_CHANNEL=%s: unknown channel (sccmpb-ext, "
                  "sccmpb, sccshm, sccmulti or auto)", name);
        return MPI_ERR_OTHER;
    }
    name = chan_names[c->kind];
    rings = c->kind == RK_CHAN_SCCSHM || c->kind == RK_CHAN_SCCMULTI;
    mpb = c->kind != RK_CHAN_SCCSHM;
    if (rk.hal->reserve_owner != NULL) {
        rck_error("MPI_Init: the MPB layout is frozen by %s: call MPI_Init "
                  "before it to use both", rk.hal->reserve_owner);
        return MPI_ERR_OTHER;
    }
    if (mpb) {
        err = chan_layout(c, &need);
        if (err != MPI_SUCCESS)
            return err;
        st = rck_hal_mpb_reserve(rk.hal, rck__mpi_lib, need, &off);
        if (st != RCK_OK) {
            rck_error("MPI_Init: cannot reserve %u bytes of the MPBs for the "
                      "%s channel", need, name);
            return MPI_ERR_NO_MEM;
        }
        c->base = off;
        c->gews_off = off;
        c->ews_off = off + (uint32_t)c->gews_slots * RK_GEWS_SLOT;
        c->ack_off += off;
        c->gews_free = c->gews_slots ? 0xffffffffu : 0;
        c->my_ews = ews_at(rk.ue);
        c->my_ack = ack_at(rk.ue);
        c->mpb_max = (uint32_t)(c->payload +
                                (size_t)c->gews_slots * RK_GEWS_SLOT);
    }
    if (rings) {
        /* auto: sccmpb-ext (the same MPB layout) when the window has no
         * room for the rings */
        int fallback = c->kind == RK_CHAN_SCCMULTI &&
                       strcmp(rck_config_get("MPI_CHANNEL"), "auto") == 0;
        err = ring_layout(c, name, fallback);
        if (err != MPI_SUCCESS && fallback) {
            c->kind = RK_CHAN_SCCMPB_EXT;
            rings = 0;
            err = MPI_SUCCESS;
        }
        if (err != MPI_SUCCESS)
            return err;
    }
    if (rings) {
        if (!mpb)
            c->payload = c->slot_bytes - RK_EWS_HDR;
        /* sccmulti asked for by name with slots no larger than an MPB
         * packet: everything takes the MPBs */
        if (c->kind == RK_CHAN_SCCMULTI &&
            c->slot_bytes - RK_EWS_HDR <= c->mpb_max)
            c->mpb_max = UINT32_MAX;
    }
    /* sccmulti: one condition per sender, on the whole flag word (its MPB
     * packets in the low half, its ring packets in the high half): a wait
     * or a poll looked at 2n conditions, copied into a scratch list every
     * time (the 48-process barrier took 3-7x as long on sccmulti as on
     * sccmpb-ext; docs/MPI.md, "The barrier on sccmulti") */
    c->nin = n;
    c->pipe = calloc((size_t)n, sizeof(*c->pipe));
    c->in = calloc(2 * (size_t)n, sizeof(*c->in));
    c->rin = calloc(2 * (size_t)n, sizeof(*c->rin));
    if (!c->pipe || !c->in || !c->rin)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < n; i++) {
        c->pipe[i].core = core_of(i);
        c->pipe[i].ews = ews_at(i);
        if (rings) {
            c->pipe[i].ring_tx = ring_at(rk.ue, i);
            c->pipe[i].ring_rx = ring_at(i, rk.ue);
        }
    }
    for (int i = 0; i < 2 * n; i++) {
        c->in[i] = cond_in(i % n);
        if (rings && split()) {
            c->in[i].mask = 0xffffffffu;
            c->rin[i] = c->in[i];
        } else if (rings)
            c->rin[i] = (rck_hal_cond_t){
                .space = RCK_SPACE_SHM,
                .offset = (uint32_t)(c->pipe[i % n].ring_rx + RING_HEAD),
                .mask = 0xffffffffu,
                .value = 0,
                .op = RCK_COND_NE};
    }
    if (c->kind == RK_CHAN_SCCSHM) {
        /* one list: ring_take updates it */
        free(c->rin);
        c->rin = c->in;
    }
    coll_slots_init();
    return MPI_SUCCESS;
}

void rk_chan_finalize(void)
{
    rk_chan_t *c = &rk.chan;

    free(c->pipe);
    free(c->in);
    if (c->rin != c->in)
        free(c->rin);
    c->pipe = NULL;
    c->in = c->rin = NULL;
}

size_t rk_chan_maxpkt(void)
{
    rk_chan_t *c = &rk.chan;
    size_t mpb = c->payload + (size_t)c->gews_slots * RK_GEWS_SLOT;
    size_t ring = c->slot_bytes > RK_EWS_HDR ? c->slot_bytes - RK_EWS_HDR : 0;

    return mpb > ring ? mpb : ring;
}

/* The receiver of pipe @p p has consumed every packet I sent it: its
 * slots are free. */
static void acked(rk_chan_t *c, rk_pipe_t *p)
{
    p->acked = p->sent;
    c->gews_free |= p->lent;
    p->lent = 0;
}

static int mpb_ready(int d)
{
    rk_chan_t *c = &rk.chan;
    rk_pipe_t *p = c->pipe + d;
    uint32_t ack;

    if (p->sent == p->acked)
        return 1;
    rck_hal_cl1invmb(rk.hal);
    if (rck_hal_mpb_load32(rk.hal, rk.hal->core, ack_at(d), &ack) != RCK_OK)
        return 0;
    if (split() ? (ack & 0xffffu) != (p->sent & 0xffffu) : ack != p->sent)
        return 0;
    acked(c, p);
    return 1;
}

static size_t mpb_room(int d, size_t want)
{
    rk_chan_t *c = &rk.chan;
    size_t room = c->payload + (size_t)__builtin_popcount(c->gews_free) *
                                   RK_GEWS_SLOT;

    if (room >= want || c->gews_slots == 0)
        return room;
    /* take back the slots of packets acknowledged since */
    for (int r = 0; r < rk.nues; r++)
        if (c->pipe[r].lent != 0 && r != d)
            mpb_ready(r);
    room = c->payload + (size_t)__builtin_popcount(c->gews_free) *
                            RK_GEWS_SLOT;
    if (room == c->payload)
        c->fallbacks++; /* the gEWS is busy: base payload only */
    return room;
}

/* Take the first free slots (from slot 0) for @p n bytes. */
static uint32_t take_slots(rk_chan_t *c, size_t n)
{
    uint32_t map = 0;

    for (int k = 0; k < c->gews_slots && n > 0; k++) {
        uint32_t bit = 0x80000000u >> k;
        if (c->gews_free & bit) {
            map |= bit;
            n = n > RK_GEWS_SLOT ? n - RK_GEWS_SLOT : 0;
        }
    }
    c->gews_free &= ~map;
    return map;
}

/* Write @p len bytes into my gEWS slots of @p map, in slot order; runs of
 * consecutive slots in one write. */
static void write_slots(rk_chan_t *c, uint32_t map, const char *src,
                        size_t len)
{
    int k = 0;

    while (len > 0 && k < c->gews_slots) {
        int run = 0;
        size_t n;

        while (k < c->gews_slots && !(map & (0x80000000u >> k)))
            k++;
        while (k + run < c->gews_slots && (map & (0x80000000u >> (k + run))))
            run++;
        n = (size_t)run * RK_GEWS_SLOT;
        if (n > len)
            n = len;
        rck_hal_mpb_write(rk.hal, rk.hal->core,
                          c->gews_off + (uint32_t)k * RK_GEWS_SLOT, src, n);
        src += n;
        len -= n;
        k += run;
    }
}

static int mpb_put(int d, const void *const *parts, const size_t *lens,
                   int nparts)
{
    rk_chan_t *c = &rk.chan;
    rk_pipe_t *pp = c->pipe + d;
    static char *stage;
    char *p;
    const char *src_rest = NULL;
    size_t total = 0, base, rest, last;
    uint32_t map = 0, *hdr;

    if (stage == NULL) {
        stage = malloc(rk_chan_maxpkt() + RK_EWS_HDR);
        if (stage == NULL)
            return MPI_ERR_NO_MEM;
    }
    for (int i = 0; i < nparts; i++)
        total += lens[i];
    base = total < c->payload ? total : c->payload;
    rest = total - base;
    last = nparts > 0 ? lens[nparts - 1] : 0; /* bytes staged of it */
    /* stage: [words 1-3 of the header][base payload], and the gEWS part
     * after it unless that part lies in the last piece (the data of a
     * message: written from there, no copy) */
    if (rest > 0 && nparts > 0 && total - lens[nparts - 1] <= base) {
        last = lens[nparts - 1] - rest;
        src_rest = (const char *)parts[nparts - 1] + last;
    }
    p = stage + 12;
    for (int i = 0; i + 1 < nparts; i++) {
        rck_copy(p, parts[i], lens[i]);
        p += lens[i];
    }
    if (nparts > 0)
        rck_copy(p, parts[nparts - 1], last);
    if (rest > 0) {
        map = take_slots(c, rest);
        write_slots(c, map, src_rest ? src_rest : stage + 12 + base, rest);
        pp->lent = map;
        if (map == 0 || (size_t)__builtin_popcount(map) * RK_GEWS_SLOT < rest)
            return MPI_ERR_INTERN; /* callers stay within rk_chan_room */
    }
    hdr = (uint32_t *)(void *)stage;
    hdr[0] = map;
    /* sccmulti: the high half counts the ring packets sent before it (the
     * receiver takes them first) */
    hdr[1] = (uint32_t)total | (pp->rsent & 0xffffu) << 16;
    hdr[2] = pp->seen; /* my acknowledgement of d's packets */
    ++pp->sent;
    rck_hal_mpb_write_flag(rk.hal, pp->core, c->my_ews + 4, stage, 12 + base,
                           c->my_ews,
                           split() ? halves(pp->sent, pp->rsent) : pp->sent);
    return MPI_SUCCESS;
}

/* mpb_put of a frame header and a short message (rk_chan_put_short):
 * words 1-3 of the EWS header, the frame header and the data up to the
 * base payload staged in one local buffer of fixed-size moves, the rest
 * (at most one gEWS slot: a 64-byte message on sccmpb-ext) written from
 * the message where it lies into my first free slot, then one write with
 * the flag: the packet mpb_put would write. */
static int mpb_put_short(rk_chan_t *c, rk_pipe_t *pp, const uint32_t frame[4],
                         const void *buf, size_t bytes)
{
    uint32_t w[3 + 4 + RK_CHAN_SHORT_MAX / 4];
    uint32_t total = 16u + (uint32_t)bytes, base = total, map = 0;

    if (bytes > RK_CHAN_SHORT_MAX)
        return MPI_ERR_INTERN; /* rk_chan_put_short's test */
    if (total > c->payload) {
        int k = __builtin_clz(c->gews_free);

        base = c->payload < total ? c->payload : total;
        map = 0x80000000u >> k;
        c->gews_free &= ~map;
        pp->lent = map;
        rck_hal_mpb_write(rk.hal, rk.hal->core,
                          c->gews_off + (uint32_t)k * RK_GEWS_SLOT,
                          (const char *)buf + (base - 16u), total - base);
    }
    w[0] = map;
    w[1] = total | (pp->rsent & 0xffffu) << 16;
    w[2] = pp->seen;
    memcpy(w + 3, frame, 16);
    rck_copy_small(w + 7, buf, base - 16u);
    ++pp->sent;
    rck_hal_mpb_write_flag(rk.hal, pp->core, c->my_ews + 4, w, 12 + base,
                           c->my_ews,
                           split() ? halves(pp->sent, pp->rsent) : pp->sent);
    return MPI_SUCCESS;
}

/* The gEWS part of a packet from @p p: @p rest bytes in the slots of
 * @p map, in slot order, runs of consecutive slots in one read. */
static void read_slots(const rk_chan_t *c, const rk_pipe_t *p, uint32_t map,
                       char *dst, size_t rest)
{
    for (int k = 0; rest > 0 && k < RK_GEWS_SLOTS; k++) {
        int run = 0;
        size_t n;

        if (!(map & (0x80000000u >> k)))
            continue;
        while (k + run < RK_GEWS_SLOTS && (map & (0x80000000u >> (k + run))))
            run++;
        n = (size_t)run * RK_GEWS_SLOT;
        if (n > rest)
            n = rest;
        rck_hal_mpb_read(rk.hal, p->core,
                         c->gews_off + (uint32_t)k * RK_GEWS_SLOT, dst, n);
        dst += n;
        rest -= n;
        k += run - 1;
    }
}

/* Payload bytes rk_chan_peek reads with the header. */
static size_t first_read(const rk_chan_t *c)
{
    return c->payload < RK_CHAN_FIRST ? c->payload : RK_CHAN_FIRST;
}

/* Hint the first lines (up to 256 bytes of @p rest) of the gEWS slots
 * @p map (not 0) of @p p's sender. */
static void hint_slots(const rk_chan_t *c, const rk_pipe_t *p, uint32_t map,
                       size_t rest)
{
    rck_hal_mpb_prefetch(rk.hal, p->core,
                         c->gews_off +
                             (uint32_t)__builtin_clz(map) * RK_GEWS_SLOT,
                         rest < 256 ? rest : 256);
}

/* mpb_peek after the caller's cl1invmb (@p inv 0) or with its own. */
static size_t mpb_peek_inv(int s, void *head, int inv);

static size_t mpb_peek(int s, void *head)
{
    return mpb_peek_inv(s, head, 1);
}

static size_t mpb_peek_inv(int s, void *head, int inv)
{
    rk_chan_t *c = &rk.chan;
    rk_pipe_t *p = c->pipe + s;
    uint32_t total, map;

    /* the sender's gEWS slots of its last packet are likely this one's:
     * start their transfer before the header is read */
    if (p->last_rest > 0)
        hint_slots(c, p, p->last_map, p->last_rest);
    /* the header and the first line or so of payload in one read (a
     * whole base EWS on sccmpb-ext); rk_chan_take reads the rest */
    if (inv)
        rck_hal_cl1invmb(rk.hal);
    rck_hal_mpb_read(rk.hal, rk.hal->core, p->ews, head,
                     RK_EWS_HDR + first_read(c));
    memcpy(&total, (const char *)head + 8, 4);
    total &= 0xffffu;
    memcpy(&map, (const char *)head + 4, 4);
    /* the slots it names, if not those hinted: their transfer starts
     * while the caller looks at the head */
    if (map != 0 && map != p->last_map && total > c->payload)
        hint_slots(c, p, map, total - c->payload);
    return total;
}

static void mpb_take(int s, const void *head, size_t skip, void *buf)
{
    rk_chan_t *c = &rk.chan;
    rk_pipe_t *p = c->pipe + s;
    uint32_t w[4];
    size_t total, base, first = first_read(c);
    char *dst = buf;

    memcpy(w, head, sizeof w);
    total = w[2] & 0xffffu;
    base = total < c->payload ? total : c->payload;
    if (first > base)
        first = base;
    assert(skip <= base); /* callers skip a frame header at most */
    /* payload bytes [skip, total): from the head, the rest of the base
     * EWS, the gEWS slots */
    if (skip < first) {
        rck_copy(dst, (const char *)head + RK_EWS_HDR + skip, first - skip);
        dst += first - skip;
        skip = first;
    }
    if (skip < base) {
        rck_hal_mpb_read(rk.hal, rk.hal->core,
                         p->ews + RK_EWS_HDR + (uint32_t)skip, dst,
                         base - skip);
        dst += base - skip;
    }
    p->last_map = w[1];
    p->last_rest = 0;
    if (total > base) {
        p->last_rest = w[1] != 0 ? (uint32_t)(total - base) : 0;
        read_slots(c, p, w[1], dst, total - base);
    }
    p->seen = split() ? p->seen + 1 : w[0];
    c->in[s].value = c->in[s + rk.nues].value =
        split() ? halves(p->seen, p->rseen) : w[0];
    /* the packet acknowledges mine (written after s read them) */
    if (w[3] == p->sent && p->acked != p->sent)
        acked(c, p);
    /* acknowledge in the sender's MPB, in my word of its ack area */
    rck_hal_mpb_store32(rk.hal, p->core, c->my_ack,
                        split() ? halves(p->seen, p->rseen) : w[0]);
}

/* ---- the rings in shared DRAM (sccshm, sccmulti) ----
 *
 * Every ordered pair (s, r) has a ring at ring_base + (s * n + r) *
 * ring_bytes: a line with the head (packets the sender has written; the
 * flag the receiver waits on), a line with the tail (packets the receiver
 * has consumed: the acknowledgement), then ring_slots slots of slot_bytes,
 * packet k in slot k % ring_slots. A slot starts with the channel's 16
 * bytes of metadata (as an EWS):
 *   word 0  the packet's ring sequence number
 *   word 1  MPB packets the sender had sent to r before it (sccmulti:
 *           the receiver takes those first)
 *   word 2  packet bytes
 *   word 3  0
 * then the payload. The sender may be ring_slots packets ahead: it copies
 * the next packets in while the receiver copies the earlier ones out. All
 * of it goes through rck_hal_shm_read/rck_hal_shm_write (timed by the
 * memory model on the sim; the window is uncached on the chip) and the
 * waits are rck_hal_wait conditions on the head and tail words. */
static size_t slot_at(const rk_chan_t *c, size_t ring, uint32_t seq)
{
    return ring + RING_SLOTS + (size_t)(seq % c->ring_slots) * c->slot_bytes;
}

static int ring_ready(int d)
{
    rk_chan_t *c = &rk.chan;
    rk_pipe_t *p = c->pipe + d;
    uint32_t tail;

    if (p->rsent - p->racked < c->ring_slots)
        return 1;
    if (split()) {
        /* the high half of d's word in my ack area */
        rck_hal_cl1invmb(rk.hal);
        if (rck_hal_mpb_load32(rk.hal, rk.hal->core, ack_at(d), &tail) !=
            RCK_OK)
            return 0;
        tail = p->rsent - ((p->rsent - (tail >> 16)) & 0xffffu);
    } else if (rck_hal_shm_read(rk.hal, p->ring_tx + RING_TAIL, &tail, 4) !=
               RCK_OK) {
        return 0;
    }
    p->racked = tail;
    return p->rsent - p->racked < c->ring_slots;
}

static int ring_put(int d, const void *const *parts, const size_t *lens,
                    int nparts)
{
    rk_chan_t *c = &rk.chan;
    rk_pipe_t *p = c->pipe + d;
    static char *stage;
    size_t slot = slot_at(c, p->ring_tx, p->rsent), total = 0, staged;
    uint32_t *w;
    int direct;

    if (stage == NULL) {
        stage = malloc(c->slot_bytes);
        if (stage == NULL)
            return MPI_ERR_NO_MEM;
    }
    for (int i = 0; i < nparts; i++)
        total += lens[i];
    if (total > c->slot_bytes - RK_EWS_HDR)
        return MPI_ERR_INTERN; /* callers stay within rk_chan_room */
    /* metadata and the small pieces in one write; a large last piece (the
     * data of a message) from where it is, no copy */
    direct = nparts > 0 && lens[nparts - 1] > 256;
    staged = RK_EWS_HDR;
    for (int i = 0; i < nparts - direct; i++) {
        rck_copy(stage + staged, parts[i], lens[i]);
        staged += lens[i];
    }
    w = (uint32_t *)(void *)stage;
    w[0] = p->rsent + 1;
    w[1] = p->sent;
    w[2] = (uint32_t)total;
    w[3] = 0;
    rck_hal_shm_write(rk.hal, slot, stage, staged);
    if (direct)
        rck_hal_shm_write(rk.hal, slot + staged, parts[nparts - 1],
                          lens[nparts - 1]);
    p->rsent++;
    c->ring_pkts++;
    /* the head last: the flag (sccmulti: in d's MPB, my EWS's flag word) */
    if (split())
        rck_hal_mpb_store32(rk.hal, p->core, c->my_ews,
                            halves(p->sent, p->rsent));
    else
        rck_hal_shm_write(rk.hal, p->ring_tx + RING_HEAD, &p->rsent, 4);
    return MPI_SUCCESS;
}

static size_t ring_peek(int s, void *head)
{
    rk_chan_t *c = &rk.chan;
    rk_pipe_t *p = c->pipe + s;
    uint32_t total;

    /* the metadata and the first bytes in one read (a slot holds more) */
    rck_hal_shm_read(rk.hal, slot_at(c, p->ring_rx, p->rseen), head,
                     RK_CHAN_HEAD);
    memcpy(&total, (const char *)head + 8, 4);
    return total;
}

static void ring_take(int s, const void *head, size_t skip, void *buf)
{
    rk_chan_t *c = &rk.chan;
    rk_pipe_t *p = c->pipe + s;
    size_t slot = slot_at(c, p->ring_rx, p->rseen), total, first;
    uint32_t w[4];
    char *dst = buf;

    memcpy(w, head, sizeof w);
    total = w[2];
    first = total < RK_CHAN_FIRST ? total : RK_CHAN_FIRST;
    assert(skip <= total);
    if (skip < first) {
        rck_copy(dst, (const char *)head + RK_EWS_HDR + skip, first - skip);
        dst += first - skip;
        skip = first;
    }
    if (skip < total)
        rck_hal_shm_read(rk.hal, slot + RK_EWS_HDR + skip, dst, total - skip);
    p->rseen++;
    /* acknowledge: the slot is free */
    if (split()) {
        c->in[s].value = c->in[s + rk.nues].value = halves(p->seen, p->rseen);
        rck_hal_mpb_store32(rk.hal, p->core, c->my_ack,
                            halves(p->seen, p->rseen));
    } else {
        c->rin[s].value = c->rin[s + rk.nues].value = p->rseen;
        rck_hal_shm_write(rk.hal, p->ring_rx + RING_TAIL, &p->rseen, 4);
    }
}

/* sccmulti: is the next packet from @p s in its ring? The one whose
 * predecessors on the other path are all consumed: an MPB packet names
 * the ring packets sent before it, a ring packet the MPB packets. */
static int multi_from_ring(int s, void *head)
{
    rk_pipe_t *p = rk.chan.pipe + s;
    uint32_t seq, w2;

    rck_hal_cl1invmb(rk.hal);
    if (rck_hal_mpb_load32(rk.hal, rk.hal->core, p->ews, &seq) != RCK_OK ||
        (seq & 0xffffu) == (p->seen & 0xffffu))
        return 1; /* no MPB packet: the ring has it */
    mpb_peek_inv(s, head, 0); /* invalidated just now */
    memcpy(&w2, (const char *)head + 8, 4);
    return (w2 >> 16) != (p->rseen & 0xffffu);
}

/* ---- the channel's calls: the path of each kind ---- */

int rk_chan_ready(int d, size_t want)
{
    rk_chan_t *c = &rk.chan;
    rk_pipe_t *p = c->pipe + d;

    /* the usual case first: an MPB packet, the one before acknowledged
     * (sccmpb and sccmpb-ext take the MPBs whatever @p want) */
    if (c->kind != RK_CHAN_SCCSHM && want <= c->mpb_max &&
        p->sent == p->acked) {
        p->route = 0;
        return 1;
    }
    switch (c->kind) {
    case RK_CHAN_SCCSHM:
        p->route = 1;
        return ring_ready(d);
    case RK_CHAN_SCCMULTI:
        p->route = want > c->mpb_max;
        if (p->route)
            return ring_ready(d);
        if (mpb_ready(d))
            return 1;
        /* the MPB packet before is not acknowledged yet: a small packet
         * takes a free ring slot instead of waiting (several in flight) */
        if (c->mpb_max != UINT32_MAX && ring_ready(d)) {
            p->route = 1;
            return 1;
        }
        p->route = 0;
        return 0;
    default:
        p->route = 0;
        return mpb_ready(d);
    }
}

size_t rk_chan_room(int d, size_t want)
{
    rk_chan_t *c = &rk.chan;

    /* sccmulti: the path rk_chan_ready chose */
    if (c->kind == RK_CHAN_SCCSHM ||
        (c->kind == RK_CHAN_SCCMULTI && c->pipe[d].route)) {
        c->pipe[d].route = 1;
        return c->slot_bytes - RK_EWS_HDR;
    }
    c->pipe[d].route = 0;
    return mpb_room(d, want);
}

int rk_chan_put(int d, const void *const *parts, const size_t *lens,
                int nparts)
{
    if (rk.chan.pipe[d].route)
        return ring_put(d, parts, lens, nparts);
    return mpb_put(d, parts, lens, nparts);
}

int rk_chan_put_short(int d, const uint32_t frame[4], const void *buf,
                      size_t bytes)
{
    rk_chan_t *c = &rk.chan;
    rk_pipe_t *p = c->pipe + d;

    /* the base payload, or it and one free gEWS slot (payload >= 16) */
    if (!p->route && bytes <= RK_CHAN_SHORT_MAX &&
        (16u + bytes <= c->payload ||
         (c->gews_free != 0 && 16u + bytes - c->payload <= RK_GEWS_SLOT)))
        return mpb_put_short(c, p, frame, buf, bytes);
    {
        const void *parts[2] = {frame, buf};
        size_t lens[2] = {16u, bytes};

        return rk_chan_put(d, parts, lens, bytes > 0 ? 2 : 1);
    }
}

size_t rk_chan_peek(int s, void *head)
{
    rk_chan_t *c = &rk.chan;
    rk_pipe_t *p = c->pipe + s;

    switch (c->kind) {
    case RK_CHAN_SCCSHM:
        p->in_ring = 1;
        return ring_peek(s, head);
    case RK_CHAN_SCCMULTI:
        p->in_ring = multi_from_ring(s, head);
        if (!p->in_ring) {
            uint32_t total;
            memcpy(&total, (const char *)head + 8, 4);
            return total & 0xffffu; /* read by multi_from_ring */
        }
        return ring_peek(s, head);
    default:
        p->in_ring = 0;
        return mpb_peek(s, head);
    }
}

void rk_chan_take(int s, const void *head, size_t skip, void *buf)
{
    if (rk.chan.pipe[s].in_ring)
        ring_take(s, head, skip, buf);
    else
        mpb_take(s, head, skip, buf);
}

size_t rk_chan_get(int s, void *buf)
{
    char head[RK_CHAN_HEAD];
    size_t total = rk_chan_peek(s, head);

    rk_chan_take(s, head, 0, buf);
    return total;
}

int rk_chan_nin(void)
{
    return rk.chan.nin;
}

const rck_hal_cond_t *rk_chan_incoming(int first)
{
    return rk.chan.in + first;
}

int rk_chan_sender(int first, int which)
{
    int s = first + which % rk.nues;

    return s < rk.nues ? s : s - rk.nues;
}

int rk_chan_conds(rck_hal_cond_t *conds, int first, const char *waiting_ack)
{
    rk_chan_t *c = &rk.chan;
    int n = c->nin;

    memcpy(conds, rk_chan_incoming(first), (size_t)n * sizeof(*conds));
    for (int d = 0; waiting_ack != NULL && d < rk.nues; d++) {
        if (!waiting_ack[d])
            continue;
        if (c->pipe[d].route && split())
            conds[n++] = (rck_hal_cond_t){
                .space = RCK_SPACE_MPB,
                .core = rk.hal->core,
                .offset = ack_at(d),
                .mask = 0xffff0000u,
                .value = c->pipe[d].racked << 16,
                .op = RCK_COND_NE};
        else if (c->pipe[d].route)
            conds[n++] = (rck_hal_cond_t){
                .space = RCK_SPACE_SHM,
                .core = 0,
                .offset = (uint32_t)(c->pipe[d].ring_tx + RING_TAIL),
                .mask = 0xffffffffu,
                .value = c->pipe[d].racked,
                .op = RCK_COND_NE};
        else
            conds[n++] = (rck_hal_cond_t){
                .space = RCK_SPACE_MPB,
                .core = rk.hal->core,
                .offset = ack_at(d),
                .mask = split() ? 0xffffu : 0xffffffffu,
                .value = split() ? c->pipe[d].sent & 0xffffu
                                 : c->pipe[d].sent,
                .op = RCK_COND_EQ};
    }
    return n;
}

/* Index of a sender with a packet waiting, or -1; never blocks. */
int rk_chan_poll(int first)
{
    int which = -1;

    if (rck_hal_wait(rk.hal, rk_chan_incoming(first), rk.chan.nin, 0, 0,
                     &which) != RCK_OK)
        return -1;
    return rk_chan_sender(first, which);
}
