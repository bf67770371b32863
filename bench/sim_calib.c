/*
 * sim_calib: the published SCC measurements (SCC-HARDWARE.md section 2),
 * repeated on the modelled chip through the HAL, as one measures on the
 * chip: rck_hal_cycles() before and after an operation, minus the cost of
 * an empty measurement (two consecutive readings).
 *
 *   rck run --backend sim --compute none --cores 0,1,47 --report none \
 *       --no-prefix -- sim_calib
 *
 * UE 0 (core 0) measures; UE 1 (core 1, same tile) and UE 2 (core 47,
 * 8 hops away) only take the interrupts UE 0 raises at the end. With the
 * `none` compute model the program's own code is free, so every figure is
 * the model's and the run is deterministic.
 *
 * It prints model figures only; the published values, ratios and verdicts
 * are the harness's (python/src/rockcreek/bench/simbench.py). Output contract, one
 * measurement per line ('#' lines are comments):
 *
 *   id=info core_mhz=<MHz> ncores=<n> nmc=<n> shm_bytes=<n> set_map=<status>
 *   id=<row> [hops=<n>] [mc=<n>] [map=pinned|default] cycles=<mean cycles>
 *   id=<row> bytes=<n> cycles=<cycles> [map=...]      (bandwidth rows)
 *   id=<row> unsupported=<HAL call>                   (not modelled yet)
 *   id=<row> error=<text>                             (a call failed)
 *
 * Rows: mpb_write.xXyY / mpb_read.xXyY (one 32-byte line written, one DWORD
 * read after CL1INVMB, core 0 -> first core of tile (X, Y)); dram_read.mcK
 * (uncached DWORD read), dram_write_uc.mcK (a line as 8 uncached DWORD
 * writes), dram_write_mpbt.mcK (a line as one 32-byte MPBT write);
 * bw.MAPPING.read|write (64 KiB, DWORD loads/stores, MPBT stores by line);
 * local.OP; irq.KIND.TARGET (raise -> handler) and irq.pin_write_raise.*.
 */
#include "rck/hal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SAMPLES 16         /* accesses averaged per DRAM latency row */
#define BW_BYTES (64u << 10)
#define MPB_OFF 6144u      /* scratch line in every target MPB */
#define RES_OFF 4096u      /* interrupt results in core 0's MPB */
#define MIB ((size_t)1 << 20)
#define PAGE ((size_t)16 << 20) /* the default interleave page */

static rck_hal_t *hal;
static uint64_t ovh;
static int set_map_status = RCK_OK;

static uint64_t now(void)
{
    uint64_t c = 0;
    if (rck_hal_cycles(hal, &c) != RCK_OK) {
        fprintf(stderr, "sim_calib: rck_hal_cycles failed\n");
        exit(3);
    }
    return c;
}

static double since(uint64_t t0)
{
    uint64_t t1 = now();
    return (double)(t1 - t0) - (double)ovh;
}

static int failed(const char *id, const char *call, rck_status_t st)
{
    if (st == RCK_OK)
        return 0;
    if (st == RCK_ERR_UNSUPPORTED)
        printf("id=%s unsupported=%s\n", id, call);
    else
        printf("id=%s error=%s:%s\n", id, call, rck_status_string(st));
    return 1;
}

static void row(const char *id, const char *extra, double cycles)
{
    printf("id=%s%s%s cycles=%.2f\n", id, extra[0] ? " " : "", extra, cycles);
}

/* Time one HAL call and print its row, or why it could not be measured. */
#define TIMED_ROW(id, call, expr)                                             \
    do {                                                                      \
        uint64_t t0_ = now();                                                 \
        rck_status_t st_ = (expr);                                            \
        double cyc_ = since(t0_);                                             \
        if (!failed((id), (call), st_))                                       \
            row((id), "", cyc_);                                              \
    } while (0)

/* ---- MPB ---- */

static void mpb_rows(void)
{
    const rck_chip_t *c = &hal->chip;
    unsigned char line[64];
    char id[64], extra[64];

    memset(line, 0x5a, sizeof(line));
    for (int y = 0; y < c->mesh_y; y++) {
        for (int x = 0; x < c->mesh_x; x++) {
            int target = (y * c->mesh_x + x) * c->cores_per_tile;
            int hops = rck_chip_hops(c, 0, target);
            uint64_t t0;
            uint32_t v;
            rck_status_t st;

            snprintf(extra, sizeof(extra), "hops=%d core=%d", hops, target);
            snprintf(id, sizeof(id), "mpb_write.x%dy%d", x, y);
            t0 = now();
            st = rck_hal_mpb_write(hal, target, MPB_OFF, line, c->line_bytes);
            double w = since(t0);
            if (!failed(id, "mpb_write", st))
                row(id, extra, w);

            snprintf(id, sizeof(id), "mpb_read.x%dy%d", x, y);
            rck_hal_cl1invmb(hal);
            t0 = now();
            st = rck_hal_mpb_load32(hal, target, MPB_OFF, &v);
            double r = since(t0);
            if (!failed(id, "mpb_load32", st))
                row(id, extra, r);
        }
    }
}

/* ---- shared DRAM ---- */

/* Map [off, off + len) as type on controller mc. Returns 1 if pinned, 0 if
 * the backend does not model mappings (RCK_ERR_UNSUPPORTED), -1 on another
 * error (printed as a comment). */
static int map_range(size_t off, size_t len, rck_map_t type, int mc)
{
    rck_status_t st = rck_hal_shm_set_map(hal, off, len, type, mc);
    if (st == RCK_OK)
        return 1;
    if (st == RCK_ERR_UNSUPPORTED)
        return 0;
    printf("# shm_set_map(%zu, %zu, %d, %d): %s\n", off, len, (int)type, mc,
           rck_status_string(st));
    return -1;
}

/* A row that could not be mapped: not modelled yet, or an error. */
static void map_failed(const char *id, int m)
{
    if (m == 0)
        printf("id=%s unsupported=shm_set_map\n", id);
    else
        printf("id=%s error=shm_set_map\n", id);
}

/* hops from core 0 to controller mc */
static int mc_hops(int mc)
{
    const rck_chip_t *c = &hal->chip;
    return c->mc[mc].x + c->mc[mc].y; /* core 0 sits on tile (0, 0) */
}

static void dram_rows(size_t shm_len)
{
    const rck_chip_t *c = &hal->chip;
    uint32_t L = c->line_bytes;
    unsigned char line[64];
    char id[64], extra[64];

    memset(line, 0xa5, sizeof(line));
    for (int mc = 0; mc < c->nmc; mc++) {
        size_t uc = 1 * MIB + (size_t)mc * 4096, mp = 2 * MIB + (size_t)mc * 4096;
        int pinned = map_range(uc, 4096, RCK_MAP_UNCACHED, mc);
        const char *how = "pinned";
        double sum;
        rck_status_t st = RCK_OK;
        uint32_t v;

        if (pinned == 0 && (size_t)(mc + 1) * PAGE <= shm_len &&
            (size_t)c->nmc * PAGE <= shm_len) {
            /* Not modelled yet: the default mapping is uncached and
             * interleaved over the controllers in 16 MiB pages (page k on
             * controller k), so page mc is on this controller. */
            uc = (size_t)mc * PAGE + 1 * MIB;
            how = "default";
            pinned = 1;
        }
        snprintf(extra, sizeof(extra), "hops=%d mc=%d map=%s", mc_hops(mc),
                 mc, how);

        snprintf(id, sizeof(id), "dram_read.mc%d", mc);
        if (pinned != 1) {
            map_failed(id, pinned);
        } else {
            sum = 0;
            for (int i = 0; i < SAMPLES && st == RCK_OK; i++) {
                uint64_t t0 = now();
                st = rck_hal_shm_read(hal, uc + (size_t)i * L, &v, 4);
                sum += since(t0);
            }
            if (!failed(id, "shm_read", st))
                row(id, extra, sum / SAMPLES);
        }

        snprintf(id, sizeof(id), "dram_write_uc.mc%d", mc);
        if (pinned != 1) {
            map_failed(id, pinned);
        } else {
            sum = 0;
            st = RCK_OK;
            for (int i = 0; i < SAMPLES && st == RCK_OK; i++) {
                size_t off = uc + (size_t)(SAMPLES + i) * L;
                uint64_t t0 = now();
                for (uint32_t d = 0; d < L / 4 && st == RCK_OK; d++)
                    st = rck_hal_shm_write(hal, off + 4 * d, line, 4);
                sum += since(t0);
            }
            if (!failed(id, "shm_write", st))
                row(id, extra, sum / SAMPLES);
        }

        snprintf(id, sizeof(id), "dram_write_mpbt.mc%d", mc);
        int mpinned = map_range(mp, 4096, RCK_MAP_MPBT, mc);
        if (mpinned != 1) {
            map_failed(id, mpinned);
        } else {
            snprintf(extra, sizeof(extra), "hops=%d mc=%d map=pinned",
                     mc_hops(mc), mc);
            sum = 0;
            st = RCK_OK;
            for (int i = 0; i < SAMPLES && st == RCK_OK; i++) {
                uint64_t t0 = now();
                st = rck_hal_shm_write(hal, mp + (size_t)i * L, line, L);
                sum += since(t0);
            }
            if (!failed(id, "shm_write", st))
                row(id, extra, sum / SAMPLES);
        }
    }
}

/* DWORD loads over [off, off + len): the cycles they took. */
static rck_status_t read_dwords(size_t off, size_t len, double *cycles)
{
    rck_status_t st = RCK_OK;
    uint32_t v;
    uint64_t t0 = now();
    for (size_t i = 0; i < len && st == RCK_OK; i += 4)
        st = rck_hal_shm_read(hal, off + i, &v, 4);
    *cycles = since(t0);
    return st;
}

/* Stores over [off, off + len) in pieces of `piece` bytes. */
static rck_status_t write_pieces(size_t off, size_t len, size_t piece,
                                 double *cycles)
{
    static unsigned char buf[64];
    rck_status_t st = RCK_OK;
    uint64_t t0 = now();
    for (size_t i = 0; i < len && st == RCK_OK; i += piece)
        st = rck_hal_shm_write(hal, off + i, buf, piece);
    *cycles = since(t0);
    return st;
}

static void bw_row(const char *id, rck_status_t st, const char *call,
                   double cycles, const char *how)
{
    if (!failed(id, call, st))
        printf("id=%s bytes=%u map=%s cycles=%.2f\n", id, BW_BYTES, how,
               cycles);
}

static void bandwidth_rows(void)
{
    const size_t hit = 4 * MIB, miss_r = 5 * MIB, miss_w = 6 * MIB,
                 unc = 7 * MIB, mpbt = 8 * MIB;
    double cyc;
    rck_status_t st;

    /* L2-cached, hit: read the same 64 KiB twice, time the second pass;
     * then write it (the lines are cached). */
    int m = map_range(hit, BW_BYTES, RCK_MAP_CACHED, 0);
    if (m == 1) {
        st = read_dwords(hit, BW_BYTES, &cyc);
        if (st == RCK_OK)
            st = read_dwords(hit, BW_BYTES, &cyc);
        bw_row("bw.l2hit.read", st, "shm_read", cyc, "pinned");
        st = write_pieces(hit, BW_BYTES, 4, &cyc);
        bw_row("bw.l2hit.write", st, "shm_write", cyc, "pinned");
    } else {
        map_failed("bw.l2hit.read", m);
        map_failed("bw.l2hit.write", m);
    }
    /* L2-cached, miss: 64 KiB never touched before. */
    m = map_range(miss_r, BW_BYTES, RCK_MAP_CACHED, 0);
    if (m == 1)
        m = map_range(miss_w, BW_BYTES, RCK_MAP_CACHED, 0);
    if (m == 1) {
        st = read_dwords(miss_r, BW_BYTES, &cyc);
        bw_row("bw.l2miss.read", st, "shm_read", cyc, "pinned");
        st = write_pieces(miss_w, BW_BYTES, 4, &cyc);
        bw_row("bw.l2miss.write", st, "shm_write", cyc, "pinned");
    } else {
        map_failed("bw.l2miss.read", m);
        map_failed("bw.l2miss.write", m);
    }
    /* Uncached: every DWORD goes to the controller. The window's default
     * mapping is uncached (page 0 is on MC0), so this needs no set_map. */
    m = map_range(unc, BW_BYTES, RCK_MAP_UNCACHED, 0);
    if (m < 0) {
        map_failed("bw.uncached.read", m);
        map_failed("bw.uncached.write", m);
    } else {
        const char *how = m == 1 ? "pinned" : "default";
        st = read_dwords(unc, BW_BYTES, &cyc);
        bw_row("bw.uncached.read", st, "shm_read", cyc, how);
        st = write_pieces(unc, BW_BYTES, 4, &cyc);
        bw_row("bw.uncached.write", st, "shm_write", cyc, how);
    }
    /* MPBT: loads through L1 only; stores combined by the WCB, a line at a
     * time. */
    m = map_range(mpbt, BW_BYTES, RCK_MAP_MPBT, 0);
    if (m == 1) {
        rck_hal_cl1invmb(hal);
        st = read_dwords(mpbt, BW_BYTES, &cyc);
        bw_row("bw.mpbt.read", st, "shm_read", cyc, "pinned");
        st = write_pieces(mpbt, BW_BYTES, hal->chip.line_bytes, &cyc);
        bw_row("bw.mpbt.write", st, "shm_write", cyc, "pinned");
    } else {
        map_failed("bw.mpbt.read", m);
        map_failed("bw.mpbt.write", m);
    }
}

/* ---- local operations ---- */

static void local_rows(void)
{
    uint64_t t0, u64;
    uint32_t v;
    int32_t i32;
    int got, fdiv;
    rck_status_t st;

    row("local.rdtsc", "", (double)ovh);

    t0 = now();
    rck_hal_cl1invmb(hal);
    row("local.cl1invmb", "", since(t0));

    st = rck_hal_mpb_load32(hal, 0, MPB_OFF, &v); /* the line is in L1 now */
    t0 = now();
    if (st == RCK_OK)
        st = rck_hal_mpb_load32(hal, 0, MPB_OFF, &v);
    double l1 = since(t0);
    if (!failed("local.l1_hit", "mpb_load32", st))
        row("local.l1_hit", "", l1);

    TIMED_ROW("local.tas_read", "tas_try", rck_hal_tas_try(hal, 0, &got));
    TIMED_ROW("local.tas_write", "tas_release", rck_hal_tas_release(hal, 0));

    TIMED_ROW("local.gtsc_read", "gtsc_read", rck_hal_gtsc_read(hal, &u64));

    TIMED_ROW("local.atomic_inc", "atomic_inc", rck_hal_atomic_inc(hal, 0, &i32));

    TIMED_ROW("local.atomic_read", "atomic_read", rck_hal_atomic_read(hal, 0, &i32));

    TIMED_ROW("local.lut_read", "lut_read", rck_hal_lut_read(hal, 0, 0, &v));

    TIMED_ROW("local.freq_get", "freq_get", rck_hal_freq_get(hal, 0, &fdiv));

    TIMED_ROW("local.perfctr_read", "perfctr_read", rck_hal_perfctr_read(hal, 0, &u64));

    /* prints "#", a comment line */
    t0 = now();
    st = rck_hal_console_write(hal, "#\n", 2);
    double cw = since(t0);
    fflush(stdout);
    if (!failed("local.console_write", "console_write", st))
        row("local.console_write", "", cw);

    TIMED_ROW("local.dcache_flush", "dcache_flush", rck_hal_dcache_flush(hal));
}

/* ---- interrupts ---- */

static volatile uint64_t handler_cycles;
static volatile int handler_runs;

static void handler(rck_hal_t *h, rck_irq_kind_t kind, int sender, void *arg)
{
    uint64_t c = 0;
    (void)kind;
    (void)sender;
    (void)arg;
    rck_hal_cycles(h, &c);
    if (handler_runs++ == 0)
        handler_cycles = c;
}

#define IRQ_TESTS_PER_RECEIVER 2

/* UE 1 and 2: take the interrupts, send core 0 the handler's clock. */
static int receiver(void)
{
    rck_hal_irq_set_handler(hal, handler, NULL);
    for (int i = 0; i < IRQ_TESTS_PER_RECEIVER; i++) {
        uint32_t slot = RES_OFF + (uint32_t)((hal->ue - 1) *
                                             IRQ_TESTS_PER_RECEIVER + i) * 32u;
        int which;
        handler_runs = 0;
        rck_status_t st =
            rck_hal_wait(hal, NULL, 0, RCK_WAIT_IRQ, -1, &which);
        if (st == RCK_ERR_DEADLOCK || st == RCK_ERR_PEER_DEAD) {
            /* core 0 gave up (it reports the row); nothing more to do */
            printf("# UE %d: interrupt wait ended: %s\n", hal->ue,
                   rck_status_string(st));
            return 0;
        }
        if (st != RCK_OK && st != RCK_INTERRUPTED) {
            fprintf(stderr, "sim_calib: UE %d: wait: %s\n", hal->ue,
                    rck_status_string(st));
            return 1;
        }
        uint64_t h = handler_cycles;
        rck_hal_mpb_store32(hal, 0, slot + 4, (uint32_t)h);
        rck_hal_mpb_store32(hal, 0, slot + 8, (uint32_t)(h >> 32));
        rck_hal_mpb_store32(hal, 0, slot, handler_runs > 0 ? 1 : 2);
    }
    return 0;
}

/* UE 0: one interrupt to UE `ue`; with `write_first`, a line is written
 * into the target's MPB just before the raise (section 2.5's "write the
 * MPB and raise the pin"). */
static void irq_row(int ue, int test, rck_irq_kind_t kind, int write_first)
{
    const rck_chip_t *c = &hal->chip;
    int target = hal->ue_core[ue];
    uint32_t slot = RES_OFF + (uint32_t)((ue - 1) * IRQ_TESTS_PER_RECEIVER +
                                         test) * 32u;
    const char *kname = kind == RCK_IRQ_GIC ? "gic" : "pin";
    const char *where = rck_chip_tile(c, target) == 0 ? "same_tile" : "mesh";
    unsigned char line[64];
    char id[64], extra[64];
    uint32_t flag = 0, lo = 0, hi = 0;
    uint64_t t0 = 0, tr;
    rck_status_t st;
    int which;

    memset(line, 0x3c, sizeof(line));
    snprintf(id, sizeof(id), "irq.%s.%s", kname, where);
    snprintf(extra, sizeof(extra), "hops=%d core=%d",
             rck_chip_hops(c, 0, target), target);
    /* let the receiver park first: 20 us of virtual time */
    st = rck_hal_wait(hal, NULL, 0, 0, 20000, &which);
    if (st != RCK_ERR_TIMEDOUT && st != RCK_OK) {
        printf("id=%s error=delay:%s\n", id, rck_status_string(st));
        return;
    }
    if (write_first) {
        t0 = now();
        st = rck_hal_mpb_write(hal, target, MPB_OFF, line, c->line_bytes);
        if (st != RCK_OK) {
            printf("id=%s error=mpb_write:%s\n", id, rck_status_string(st));
            return;
        }
    }
    tr = now();
    st = rck_hal_irq_raise(hal, target, kind);
    if (write_first) {
        char wid[64];
        double wr = since(t0) - (double)ovh; /* the reading between */
        snprintf(wid, sizeof(wid), "irq.pin_write_raise.%s", where);
        if (!failed(wid, "irq_raise", st))
            row(wid, extra, wr);
    }
    if (failed(id, "irq_raise", st))
        return;
    /* the result, within 10 ms of virtual time */
    st = rck_hal_wait_mpb_eq(hal, 0, slot, ~0u, 1, 10000000);
    if (st == RCK_OK || st == RCK_ERR_TIMEDOUT) {
        rck_hal_cl1invmb(hal);
        rck_hal_mpb_load32(hal, 0, slot, &flag);
        rck_hal_mpb_load32(hal, 0, slot + 4, &lo);
        rck_hal_mpb_load32(hal, 0, slot + 8, &hi);
    }
    if (flag == 1) {
        uint64_t h = (uint64_t)lo | ((uint64_t)hi << 32);
        row(id, extra, (double)h - (double)tr - (double)ovh);
    } else if (flag == 2) {
        printf("id=%s unsupported=irq_handler\n", id);
    } else {
        printf("id=%s error=no_delivery:%s\n", id,
               st == RCK_OK ? "no result" : rck_status_string(st));
    }
}

int main(void)
{
    const rck_chip_t *c;
    void *shm;
    size_t shm_len = 0;
    rck_status_t st;

    st = rck_hal_open(NULL, &hal);
    if (st != RCK_OK) {
        fprintf(stderr, "sim_calib: rck_hal_open: %s\n",
                rck_status_string(st));
        return 3;
    }
    c = &hal->chip;
    if (hal->ue == 0 &&
        (hal->core != 0 || hal->nues != 3 || hal->ue_core[1] != 1 ||
         rck_chip_tile(c, hal->ue_core[2]) == 0 || c->ncores < 4)) {
        fprintf(stderr, "sim_calib: run on cores 0, 1 and one core of "
                        "another tile (--cores 0,1,47)\n");
        rck_hal_close(hal);
        return 2;
    }
    if (hal->ue != 0) {
        int rc = receiver();
        rck_hal_close(hal);
        return rc;
    }
    if (rck_hal_shm_map(hal, &shm, &shm_len) != RCK_OK)
        shm_len = 0;
    setvbuf(stdout, NULL, _IOLBF, 0);

    /* an empty measurement: the cost of reading the clock */
    uint64_t t0 = now();
    uint64_t t1 = now();
    ovh = t1 - t0;

    set_map_status = rck_hal_shm_set_map(hal, 0, 4096, RCK_MAP_UNCACHED,
                                         RCK_MC_INTERLEAVE);
    printf("# sim_calib: core 0 measures; cycles of a %.0f MHz core, minus "
           "%" PRIu64 " for reading the clock\n",
           c->core_mhz, ovh);
    printf("id=info core_mhz=%.3f ncores=%d nmc=%d shm_bytes=%zu "
           "set_map=%s\n",
           c->core_mhz, c->ncores, c->nmc, shm_len,
           set_map_status == RCK_OK ? "ok"
           : set_map_status == RCK_ERR_UNSUPPORTED
               ? "unsupported"
               : rck_status_string(set_map_status));

    mpb_rows();
    if (shm_len >= 9 * MIB) {
        dram_rows(shm_len);
        bandwidth_rows();
    } else {
        printf("# shared DRAM window too small (%zu bytes, need 9 MiB)\n",
               shm_len);
    }
    local_rows();
    irq_row(1, 0, RCK_IRQ_GIC, 0);
    irq_row(1, 1, RCK_IRQ_PIN, 1);
    irq_row(2, 0, RCK_IRQ_GIC, 0);
    irq_row(2, 1, RCK_IRQ_PIN, 1);
    rck_hal_close(hal);
    return 0;
}
