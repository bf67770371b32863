/*
 * calib.c: calibration microchecks of the sim backend's timing model,
 * measured the way one measures on the chip: rck_hal_cycles() before and
 * after an operation, minus the cost of an empty measurement. Run with
 * `RCK_COMPUTE=none rck run -n 2 --backend sim calib` (cores 0 and 1, the
 * default chip): no compute is charged, so every difference is the model's.
 *
 * UE 0 measures MPB line writes and DWORD reads at every hop count (the
 * published tables), multi-line writes, L1 hits, CL1INVMB, TAS accesses,
 * and DRAM reads through two memory controllers; both UEs read through
 * MC0 at the same time (the second waits for the controller); UE 0 raises
 * a GIC interrupt that UE 1 waits for (delivery latency).
 */
#include "rck/hal.h"
#include "rck_published.h"
#include "sim/sim_costs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static rck_hal_t *hal;
static int failures;
static uint64_t ovh;

static void ok(rck_status_t st, const char *what)
{
    if (st != RCK_OK && st != RCK_INTERRUPTED) {
        fprintf(stderr, "calib: %s failed: %s\n", what, rck_status_string(st));
        exit(3);
    }
}

static uint64_t now(void)
{
    uint64_t c = 0;
    ok(rck_hal_cycles(hal, &c), "cycles");
    return c;
}

/* measured is whole cycles of a clock that counts fractions: allow the
 * rounding of the two readings */
static void expect(const char *what, double measured, double want, double tol)
{
    int good = fabs(measured - want) <= tol;
    printf("calib: %-40s measured %8.2f expected %8.2f %s\n", what, measured,
           want, good ? "ok" : "FAILED");
    if (!good)
        failures++;
}

/* first core of the tile at (x, y) */
static int core_at(int x, int y)
{
    return (y * hal->chip.mesh_x + x) * hal->chip.cores_per_tile;
}

/* An uncached DWORD read: the issue overhead (the fitted extra of an
 * uncached line write, per DWORD) plus the published latency model. */
static double dram_latency(int hops)
{
    const rck_chip_t *c = &hal->chip;
    return sim_costs(c)->dram_line_write_uncached_extra / 8.0 +
           rck_chip_dram_latency(c, sim_costs(c)->dram_core_cycles,
                                 sim_costs(c)->dram_mesh_cycles_per_hop,
                                 sim_costs(c)->dram_mem_cycles, hops);
}

/* within 5% of a published figure */
static void expect_pub(const char *what, double measured, double published)
{
    int good = fabs(measured - published) <= 0.05 * published;
    printf("calib: %-40s measured %8.2f published %7.1f ratio %.3f %s\n",
           what, measured, published, measured / published,
           good ? "ok" : "FAILED");
    if (!good)
        failures++;
}

static void ok_map(size_t off, size_t len, rck_map_t type, int mc)
{
    ok(rck_hal_shm_set_map(hal, off, len, type, mc), "shm_set_map");
}

/* MiB/s of @p bytes in @p cycles at the chip's clock */
static double mib_s(double bytes, double cycles)
{
    return bytes / (cycles / (hal->chip.core_mhz * 1e6)) / 1048576.0;
}

/* The published single-core DRAM measurements (config/published.json:
 * SCC-HARDWARE.md 2.2 and 2.3), measured as the bench does: from core 0,
 * through pages mapped on each controller; bandwidth as DWORD loads and
 * stores (MPBT stores a line at a time) over 64 KiB on MC0. */
static void dram_published(void)
{
    static const double rd[4] = RCK_PUB_DRAM_DWORD_READ_UNCACHED;
    static const double uc[4] = RCK_PUB_DRAM_LINE_WRITE_UNCACHED;
    static const double mp[4] = RCK_PUB_DRAM_LINE_WRITE_MPBT;
    const size_t MiB = 1u << 20, BW = 64u << 10;
    uint32_t L = hal->chip.line_bytes, v = 0;
    unsigned char buf[64] = {0};
    char what[64];
    uint64_t t0;
    double sum = 0;

    for (int mc = 0; mc < 4 && mc < hal->chip.nmc; mc++) {
        size_t u = 1 * MiB + (size_t)mc * 4096, m = 2 * MiB + (size_t)mc * 4096;

        ok_map(u, 4096, RCK_MAP_UNCACHED, mc);
        ok_map(m, 4096, RCK_MAP_MPBT, mc);
        sum = 0;
        for (int i = 0; i < 16; i++) {
            t0 = now();
            ok(rck_hal_shm_read(hal, u + (size_t)i * L, &v, 4), "shm_read");
            sum += (double)(now() - t0 - ovh);
        }
        snprintf(what, sizeof(what), "DWORD read uncached, MC%d", mc);
        expect_pub(what, sum / 16, rd[mc]);
        sum = 0;
        for (int i = 0; i < 16; i++) {
            t0 = now();
            for (uint32_t d = 0; d < L / 4; d++)
                ok(rck_hal_shm_write(hal, u + 2048 + (size_t)i * L + 4 * d,
                                     buf, 4),
                   "shm_write");
            sum += (double)(now() - t0 - ovh);
        }
        snprintf(what, sizeof(what), "line as 8 uncached DWORDs, MC%d", mc);
        expect_pub(what, sum / 16, uc[mc]);
        sum = 0;
        for (int i = 0; i < 16; i++) {
            t0 = now();
            ok(rck_hal_shm_write(hal, m + (size_t)i * L, buf, L), "write");
            sum += (double)(now() - t0 - ovh);
        }
        snprintf(what, sizeof(what), "line written MPBT, MC%d", mc);
        expect_pub(what, sum / 16, mp[mc]);
    }

    /* bandwidth, MC0: one DWORD (or MPBT line) per HAL call, as a loop of
     * loads and stores on the chip */
    struct {
        const char *what;
        rck_map_t type;
        size_t off;
        int write, twice, line;
        double published;
    } bw[] = {
        {"bandwidth L2 hit, read", RCK_MAP_CACHED, 4, 0, 1, 0,
         RCK_PUB_BW_L2HIT_READ},
        {"bandwidth L2 hit, write", RCK_MAP_CACHED, 4, 1, 0, 0,
         RCK_PUB_BW_L2HIT_WRITE},
        {"bandwidth L2 miss, read", RCK_MAP_CACHED, 5, 0, 0, 0,
         RCK_PUB_BW_L2MISS_READ},
        {"bandwidth L2 miss, write", RCK_MAP_CACHED, 6, 1, 0, 0,
         RCK_PUB_BW_L2MISS_WRITE},
        {"bandwidth uncached, read", RCK_MAP_UNCACHED, 7, 0, 0, 0,
         RCK_PUB_BW_UNCACHED_READ},
        {"bandwidth uncached, write", RCK_MAP_UNCACHED, 7, 1, 0, 0,
         RCK_PUB_BW_UNCACHED_WRITE},
        {"bandwidth MPBT, read", RCK_MAP_MPBT, 8, 0, 0, 0,
         RCK_PUB_BW_MPBT_READ},
        {"bandwidth MPBT, write", RCK_MAP_MPBT, 8, 1, 0, 1,
         RCK_PUB_BW_MPBT_WRITE},
    };
    for (size_t k = 0; k < sizeof(bw) / sizeof(bw[0]); k++) {
        size_t base = bw[k].off * MiB, step = bw[k].line ? L : 4;

        ok_map(base, BW, bw[k].type, 0);
        rck_hal_cl1invmb(hal);
        for (int pass = 0; pass <= bw[k].twice; pass++) {
            t0 = now();
            for (size_t i = 0; i < BW; i += step) {
                if (bw[k].write)
                    ok(rck_hal_shm_write(hal, base + i, buf, step), "write");
                else
                    ok(rck_hal_shm_read(hal, base + i, &v, 4), "read");
            }
            sum = (double)(now() - t0 - ovh);
        }
        expect_pub(bw[k].what, mib_s(BW, sum), bw[k].published);
    }

    /* one read of 64 KiB is charged as the DWORD loads it is made of */
    t0 = now();
    {
        static unsigned char big[64u << 10];
        ok(rck_hal_shm_read(hal, 7 * MiB, big, BW), "shm_read");
    }
    expect_pub("bandwidth uncached, one 64 KiB read", mib_s(BW, now() - t0 - ovh),
               RCK_PUB_BW_UNCACHED_READ);
    /* a cached line costs nothing more to read again after CL1INVMB (not
     * MPBT), an MPBT line does */
    ok(rck_hal_shm_read(hal, 8 * MiB, &v, 4), "read");
    ok(rck_hal_shm_read(hal, 4 * MiB, &v, 4), "read");
    rck_hal_cl1invmb(hal);
    t0 = now();
    ok(rck_hal_shm_read(hal, 4 * MiB, &v, 4), "read");
    expect("cached DWORD, L1 hit after CL1INVMB", (double)(now() - t0 - ovh), 1,
           0);
    t0 = now();
    ok(rck_hal_shm_read(hal, 8 * MiB, &v, 4), "read");
    expect("MPBT DWORD, L1 miss after CL1INVMB", (double)(now() - t0 - ovh),
           dram_latency(0), 1);
}

int main(void)
{
    const rck_chip_t *c;
    unsigned char line[128];
    uint64_t t0, t1;
    uint32_t v;
    void *shm;
    size_t shm_len;
    int which;

    ok(rck_hal_open(NULL, &hal), "rck_hal_open");
    c = &hal->chip;
    if (hal->nues != 2 || hal->core != hal->ue || c->ncores < 48) {
        fprintf(stderr, "calib: run on cores 0 and 1 of the default chip\n");
        return 2;
    }
    ok(rck_hal_shm_map(hal, &shm, &shm_len), "shm_map");

    /* an empty measurement */
    t0 = now();
    t1 = now();
    ovh = t1 - t0;
    expect("empty measurement (RDTSC)", (double)ovh, sim_costs(c)->cost_rdtsc, 0);

    /* both cores read MC0 at the same time: UE 1 queues behind UE 0 */
    t0 = now();
    ok(rck_hal_shm_read(hal, 64, &v, 4), "shm_read");
    t1 = now();
    expect(hal->ue == 0 ? "DRAM read MC0, first in the queue"
                        : "DRAM read MC0, second in the queue",
           (double)(t1 - t0 - ovh),
           dram_latency(0) + (hal->ue == 0 ? 0 : sim_costs(c)->dram_mem_cycles *
                                                     c->core_mhz / c->mem_mhz),
           1);

    if (hal->ue == 1) {
        uint32_t raised_lo;
        ok(rck_hal_wait(hal, NULL, 0, RCK_WAIT_IRQ, -1, &which), "wait irq");
        t1 = now();
        ok(rck_hal_wait_mpb_eq(hal, 0, 4096, ~0u, 1, -1), "wait result");
        ok(rck_hal_mpb_load32(hal, 0, 4100, &raised_lo), "load");
        expect("GIC interrupt delivery, same tile",
               (double)((uint32_t)t1 - raised_lo - (uint32_t)ovh),
               sim_costs(c)->cost_ipi_delivery, 1);
        rck_hal_close(hal);
        return failures ? 1 : 0;
    }

    /* UE 0: interrupt UE 1 (which waits for it) */
    t0 = now();
    ok(rck_hal_irq_raise(hal, 1, RCK_IRQ_GIC), "irq_raise");
    uint32_t raised = (uint32_t)t0;

    for (int h = 0; h <= 8; h++) {
        int x = h < c->mesh_x - 1 ? h : c->mesh_x - 1;
        int target = core_at(x, h - x);
        char what[64];

        memset(line, h, sizeof(line));
        t0 = now();
        ok(rck_hal_mpb_write(hal, target, 1024, line, c->line_bytes),
           "mpb_write");
        t1 = now();
        snprintf(what, sizeof(what), "MPB line write, %d hops (core %d)", h,
                 target);
        expect(what, (double)(t1 - t0 - ovh), c->mpb_line_write_by_hops[h],
               0);

        rck_hal_cl1invmb(hal);
        t0 = now();
        ok(rck_hal_mpb_load32(hal, target, 1024, &v), "load32");
        t1 = now();
        snprintf(what, sizeof(what), "MPB DWORD read, %d hops", h);
        expect(what, (double)(t1 - t0 - ovh), c->mpb_dword_read_by_hops[h],
               0);
    }
    if (!strcmp(c->name, "scc-533-800-800")) {
        static const double pw[] = RCK_PUB_MPB_LINE_WRITE_BY_HOPS;
        static const double pr[] = RCK_PUB_MPB_DWORD_READ_BY_HOPS;
        expect("published: line write core 0 -> 47",
               c->mpb_line_write_by_hops[rck_chip_hops(c, 0, 47)], pw[8], 0);
        expect("published: DWORD read core 0 -> 47",
               c->mpb_dword_read_by_hops[rck_chip_hops(c, 0, 47)], pr[8], 0);
    }

    /* a cached line: the second load hits L1 */
    ok(rck_hal_mpb_load32(hal, 47, 1024, &v), "load32");
    t0 = now();
    ok(rck_hal_mpb_load32(hal, 47, 1024, &v), "load32");
    t1 = now();
    expect("MPB DWORD read, L1 hit", (double)(t1 - t0 - ovh), 1, 0);

    t0 = now();
    rck_hal_cl1invmb(hal);
    t1 = now();
    expect("CL1INVMB", (double)(t1 - t0 - ovh), sim_costs(c)->cost_cl1invmb, 0);

    /* four lines to core 47: one line write each, back to back */
    t0 = now();
    ok(rck_hal_mpb_write(hal, 47, 2048, line, 4 * c->line_bytes), "write");
    t1 = now();
    expect("MPB 4-line write, 8 hops", (double)(t1 - t0 - ovh),
           4 * c->mpb_line_write_by_hops[8], 0);

    /* four lines from core 47: a line fill each, the other DWORDs hit */
    rck_hal_cl1invmb(hal);
    t0 = now();
    ok(rck_hal_mpb_read(hal, 47, 2048, line, 4 * c->line_bytes), "read");
    t1 = now();
    expect("MPB 4-line read, 8 hops", (double)(t1 - t0 - ovh),
           4 * (c->mpb_dword_read_by_hops[8] + (c->line_bytes / 4 - 1)), 0);

    int got = 0;
    t0 = now();
    ok(rck_hal_tas_try(hal, 47, &got), "tas_try");
    t1 = now();
    expect("TAS read, 8 hops", (double)(t1 - t0 - ovh),
           c->mpb_dword_read_by_hops[8], 0);
    t0 = now();
    ok(rck_hal_tas_release(hal, 47), "tas_release");
    t1 = now();
    expect("TAS write, 8 hops", (double)(t1 - t0 - ovh),
           c->mpb_line_write_by_hops[8], 0);

    t0 = now();
    ok(rck_hal_shm_read(hal, 128, &v, 4), "shm_read");
    t1 = now();
    expect("DRAM read MC0 (0 hops), no queue", (double)(t1 - t0 - ovh),
           dram_latency(0), 1);
    if (shm_len > (16u << 20) && c->nmc >= 2) {
        t0 = now();
        ok(rck_hal_shm_read(hal, 16u << 20, &v, 4), "shm_read");
        t1 = now();
        expect("DRAM read MC1 (5 hops)", (double)(t1 - t0 - ovh),
               dram_latency(5), 1);
    }

    dram_published();

    /* mesh costs are fixed in time: at a slower divider they take fewer
     * of the core's own cycles */
    int fdiv = 0;
    ok(rck_hal_freq_get(hal, 0, &fdiv), "freq_get");
    double mhz = rck_chip_fdiv_mhz(c, fdiv * 2);
    if (mhz > 0) {
        ok(rck_hal_freq_set(hal, 0, fdiv * 2), "freq_set");
        t0 = now();
        t1 = now();
        uint64_t slow_ovh = t1 - t0;
        t0 = now();
        ok(rck_hal_mpb_write(hal, 0, 1024, line, c->line_bytes), "write");
        t1 = now();
        expect("MPB line write, 0 hops, half the clock",
               (double)(t1 - t0 - slow_ovh),
               c->mpb_line_write_by_hops[0] * mhz / c->core_mhz, 1);
        ok(rck_hal_freq_set(hal, 0, fdiv), "freq_set");
    }

    /* tell UE 1 when the interrupt was raised */
    ok(rck_hal_mpb_store32(hal, 0, 4100, raised), "store");
    ok(rck_hal_mpb_store32(hal, 0, 4096, 1), "store");
    rck_hal_close(hal);
    return failures ? 1 : 0;
}
