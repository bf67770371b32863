/*
 * The timing model: pure functions of the chip data (rck_chip_t) and of the
 * issue time, returning ticks or a completion time ("time in, time out").
 * The formulas and their sources are in docs/SIM.md; the only state is the
 * memory controllers' queues, passed in.
 */
#include "sim_internal.h"

#include <math.h>
#include <stdlib.h>

/* Where the system interface (and the system FPGA with the GIC, atomic
 * counters and global timestamp counter) meets the mesh: the router of
 * tile (3, 0) on the SCC. Clamped into smaller meshes. */
#define SIM_SIF_X 3
#define SIM_SIF_Y 0

uint64_t sim_ticks(double base_cycles)
{
    if (base_cycles <= 0)
        return 0;
    return (uint64_t)llround(base_cycles * (double)SIM_TICKS);
}

static double core_mhz_of(const rck_chip_t *c, int fdiv)
{
    double mhz = rck_chip_fdiv_mhz(c, fdiv);
    return mhz > 0 ? mhz : c->core_mhz;
}

uint64_t sim_core_ticks(const rck_chip_t *c, int fdiv, double cycles)
{
    double mhz = core_mhz_of(c, fdiv);

    if (mhz == c->core_mhz)
        return sim_ticks(cycles);
    return sim_ticks(cycles * c->core_mhz / mhz);
}

static int hops_clamped(const rck_chip_t *c, int h)
{
    return h < 0 ? 0 : h > c->max_hops ? c->max_hops : h;
}

uint64_t sim_cost_line_write(const rck_chip_t *c, int from, int to)
{
    return sim_ticks(
        c->mpb_line_write_by_hops[hops_clamped(c, rck_chip_hops(c, from, to))]);
}

uint64_t sim_cost_dword_read(const rck_chip_t *c, int from, int to)
{
    return sim_ticks(
        c->mpb_dword_read_by_hops[hops_clamped(c, rck_chip_hops(c, from, to))]);
}

int sim_hops_to_tile(const rck_chip_t *c, int core, int x, int y)
{
    int cx, cy;

    rck_chip_core_xy(c, core, &cx, &cy);
    return abs(cx - x) + abs(cy - y);
}

/* The sccKit LUT gives every core's shared pages 0x80.. one per memory
 * controller, 16 MiB each: the window is interleaved over the controllers
 * in 16 MiB pages. */
int sim_mc_of_shm(const rck_chip_t *c, size_t off)
{
    return (int)((off >> 24) % (size_t)c->nmc);
}

int sim_mc_nearest(const rck_chip_t *c, int core)
{
    int best = 0, bh = -1;

    for (int i = 0; i < c->nmc; i++) {
        int h = sim_hops_to_tile(c, core, c->mc[i].x, c->mc[i].y);
        if (bh < 0 || h < bh) {
            bh = h;
            best = i;
        }
    }
    return best;
}

/* The published DRAM latency model: core_cycles core cycles + hops x
 * mesh_cycles_per_hop mesh cycles (there and back) + memory_cycles memory
 * cycles. The core part runs at the core's clock, the rest at the mesh's
 * and the memory's. */
static void dram_parts(const rck_chip_t *c, int fdiv, int hops,
                       uint64_t *core_part, uint64_t *one_way,
                       uint64_t *mem_part)
{
    *core_part = sim_core_ticks(c, fdiv, c->dram_core_cycles);
    *one_way = sim_ticks(hops * c->dram_mesh_cycles_per_hop / 2.0 *
                         c->core_mhz / c->mesh_mhz);
    *mem_part = sim_ticks(c->dram_mem_cycles * c->core_mhz / c->mem_mhz);
}

uint64_t sim_dram_latency(const rck_chip_t *c, int core, int fdiv, int hops)
{
    uint64_t cp, ow, mp;

    (void)core;
    dram_parts(c, fdiv, hops, &cp, &ow, &mp);
    return cp + 2 * ow + mp;
}

/* Queueing: the controller serves one access at a time for its memory
 * part; a request that arrives while it is busy waits (FIFO in event
 * order). Zero load gives exactly the published latency. */
uint64_t sim_dram_access(const rck_chip_t *c, sim_mc_t *mc, int mcid,
                         int core, int fdiv, uint64_t t)
{
    int hops = sim_hops_to_tile(c, core, c->mc[mcid].x, c->mc[mcid].y);
    uint64_t cp, ow, mp, arrive, start;

    dram_parts(c, fdiv, hops, &cp, &ow, &mp);
    arrive = t + cp + ow;
    start = sim_max(arrive, mc->busy_until);
    mc->busy_until = start + mp;
    mc->accesses++;
    mc->queued += start - arrive;
    return start + mp + ow;
}

uint64_t sim_cost_fpga(const rck_chip_t *c, int core, int fdiv)
{
    int x = SIM_SIF_X < c->mesh_x ? SIM_SIF_X : c->mesh_x - 1;
    int y = SIM_SIF_Y < c->mesh_y ? SIM_SIF_Y : c->mesh_y - 1;

    return sim_dram_latency(c, core, fdiv, sim_hops_to_tile(c, core, x, y));
}

/* At least cost_ipi_delivery on one tile, "more across the mesh": the
 * extra mesh distance costs what it costs an MPB line write. */
uint64_t sim_cost_irq_delivery(const rck_chip_t *c, int from, int to)
{
    int h = hops_clamped(c, rck_chip_hops(c, from, to));
    double extra = c->mpb_line_write_by_hops[h] - c->mpb_line_write_by_hops[0];

    return sim_ticks(c->cost_ipi_delivery + (extra > 0 ? extra : 0));
}
