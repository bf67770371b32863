/*
 * The timing model: pure functions of the chip data (rck_chip_t) and of the
 * issue time, returning ticks or a completion time ("time in, time out").
 * The formulas and their sources are in docs/SIM.md; the only state is the
 * memory controllers' queues, passed in.
 *
 * With sim_charge.h this is the cost model: no other file reads a cost of
 * the chip file. May call: nothing else of the sim (rck_chip_t helpers of
 * the HAL only; the DRAM latency formula is the HAL's,
 * rck_chip_dram_latency_parts). Called by every file that charges time;
 * its header, sim_cost.h, includes nothing of the sim but sim_tx.h.
 */
#include "sim_cost.h"
#include "sim_costs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The sim's parameter schema (sim_costs.h), registered with the chip
 * loader when the library is loaded: it reads them into rck_chip_t.params
 * from sim_costs_first on, in the order of sim_costs_t. */
static const rck_chip_param_t sim_cost_keys[] = {
#define SIM_COST_KEY(field, group, key, type, min, min_open, max, unit,       \
                     has_default, dflt, wrap, doc)                            \
    {group, key, RCK_PARAM_##type, min, max, min_open, unit, doc,             \
     "sim_costs_t." #field, has_default, dflt, wrap},
    SIM_COSTS(SIM_COST_KEY)
#undef SIM_COST_KEY
};

int sim_costs_first;

_Static_assert(sizeof(sim_costs_t) ==
                   sizeof(double) *
                       (sizeof(sim_cost_keys) / sizeof(sim_cost_keys[0])),
               "sim_costs_t is one double per key");

__attribute__((constructor)) static void sim_costs_register(void)
{
    int first = rck_chip_register_params(
        sim_cost_keys, (int)(sizeof(sim_cost_keys) / sizeof(sim_cost_keys[0])));

    sim_costs_first = first > 0 ? first : 0;
}

/* Where the system interface (and the system FPGA with the GIC, atomic
 * counters and global timestamp counter) meets the mesh: the router of
 * tile (3, 0) on the SCC. Clamped into smaller meshes. */
#define SIM_SIF_X 3
#define SIM_SIF_Y 0

uint64_t sim_core_ticks(const rck_chip_t *c, int fdiv, double cycles)
{
    return sim_ticks_at_mhz(c, rck_chip_fdiv_mhz(c, fdiv), cycles);
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

/* The published DRAM latency model (rck_chip_dram_latency_parts): the
 * core part runs at the core's clock, the rest at the mesh's and the
 * memory's; the mesh part is split into its two ways. */
static void dram_parts(const rck_chip_t *c, int fdiv, int hops,
                       uint64_t *core_part, uint64_t *one_way,
                       uint64_t *mem_part)
{
    rck_dram_latency_t p;

    rck_chip_dram_latency_parts(c, sim_costs(c)->dram_core_cycles,
                                sim_costs(c)->dram_mesh_cycles_per_hop,
                                sim_costs(c)->dram_mem_cycles, hops, &p);
    *core_part = sim_core_ticks(c, fdiv, p.core);
    *one_way = sim_ticks(p.mesh / 2.0);
    *mem_part = sim_ticks(p.mem);
}

uint64_t sim_dram_latency(const rck_chip_t *c, int core, int fdiv, int hops)
{
    uint64_t cp, ow, mp;

    (void)core;
    dram_parts(c, fdiv, hops, &cp, &ow, &mp);
    return cp + 2 * ow + mp;
}

/* Core cycles per byte of a published sustained bandwidth (MiB/s). */
static double cycles_per_byte(const rck_chip_t *c, double mib_s)
{
    return mib_s > 0 ? c->core_mhz * 1e6 / (mib_s * 1048576.0) : 0;
}

/* The issue overhead of one DRAM access, I = the fitted extra of an
 * uncached line write over eight latencies, per DWORD (chip.c). */
static double issue_cycles(const rck_chip_t *c)
{
    return sim_costs(c)->dram_line_write_uncached_extra / 8.0;
}

void sim_cost_tx(const rck_chip_t *c, int fdiv, int hops, sim_tx_t kind,
                 sim_tx_cost_t *out)
{
    uint64_t cp, ow, mp;
    double issue = issue_cycles(c), bytes = 4, bw = 0;

    dram_parts(c, fdiv, hops, &cp, &ow, &mp);
    switch (kind) {
    case SIM_TX_DW_READ:
        bw = sim_costs(c)->bw_mib_s_uncached_read;
        break;
    case SIM_TX_DW_WRITE:
        bw = sim_costs(c)->bw_mib_s_uncached_write;
        break;
    case SIM_TX_LINE_READ:
        bytes = c->line_bytes;
        bw = sim_costs(c)->bw_mib_s_mpbt_read;
        break;
    case SIM_TX_LINE_WRITE:
        /* filling the write-combine buffer costs one more issue */
        bytes = c->line_bytes;
        bw = sim_costs(c)->bw_mib_s_mpbt_write;
        issue *= 2;
        break;
    }
    out->before = sim_core_ticks(c, fdiv, issue) + cp;
    out->one_way = ow;
    out->mem = mp;
    out->interval =
        sim_core_ticks(c, fdiv, bytes * cycles_per_byte(c, bw));
}

uint64_t sim_cost_l2_fill(const rck_chip_t *c, int fdiv)
{
    double line = c->line_bytes * cycles_per_byte(c, sim_costs(c)->bw_mib_s_l2hit_read);
    double rest = (c->line_bytes / 4.0 - 1.0) * SIM_L1_HIT_CYCLES;

    return sim_core_ticks(c, fdiv, line > rest ? line - rest : 0);
}

uint64_t sim_cost_l2_write(const rck_chip_t *c, int fdiv)
{
    return sim_core_ticks(c, fdiv,
                          4.0 * cycles_per_byte(c, sim_costs(c)->bw_mib_s_l2hit_write));
}

uint64_t sim_cost_fpga(const rck_chip_t *c, int core, int fdiv)
{
    int x = SIM_SIF_X < c->mesh_x ? SIM_SIF_X : c->mesh_x - 1;
    int y = SIM_SIF_Y < c->mesh_y ? SIM_SIF_Y : c->mesh_y - 1;

    return sim_dram_latency(c, core, fdiv, sim_hops_to_tile(c, core, x, y));
}

/* The published figure (at least cost_ipi_delivery on one tile, "more
 * across the mesh") runs from the raise to the receiver's handler and
 * includes the receiver's trap, which irq_run charges separately as
 * cost_null_syscall: the delivery itself is the difference. The extra mesh
 * distance costs what it costs an MPB line write. */
uint64_t sim_cost_irq_delivery(const rck_chip_t *c, int from, int to)
{
    int h = hops_clamped(c, rck_chip_hops(c, from, to));
    double extra = c->mpb_line_write_by_hops[h] - c->mpb_line_write_by_hops[0];
    double base = sim_costs(c)->cost_ipi_delivery - sim_costs(c)->cost_null_syscall;

    return sim_ticks((base > 0 ? base : 0) + (extra > 0 ? extra : 0));
}

/* Dimension-ordered routing: X first, then Y; one packet of @p bytes of
 * data over every directed link on the way. */
void sim_mesh_route_n(const rck_chip_t *c, sim_link_t *links, int from_tile,
                      int to_tile, uint64_t bytes, uint64_t packets)
{
    int x = from_tile % c->mesh_x, y = from_tile / c->mesh_x;
    int tx = to_tile % c->mesh_x, ty = to_tile / c->mesh_x;

    while (x != tx) {
        int dir = tx > x ? SIM_LINK_E : SIM_LINK_W;
        sim_link_t *l = &links[(y * c->mesh_x + x) * SIM_LINK_DIRS + dir];
        l->bytes += bytes;
        l->packets += packets;
        x += tx > x ? 1 : -1;
    }
    while (y != ty) {
        int dir = ty > y ? SIM_LINK_S : SIM_LINK_N;
        sim_link_t *l = &links[(y * c->mesh_x + x) * SIM_LINK_DIRS + dir];
        l->bytes += bytes;
        l->packets += packets;
        y += ty > y ? 1 : -1;
    }
}

void sim_mesh_route(const rck_chip_t *c, sim_link_t *links, int from_tile,
                    int to_tile, uint64_t bytes)
{
    sim_mesh_route_n(c, links, from_tile, to_tile, bytes, 1);
}

int sim_tile_of_mc(const rck_chip_t *c, int mc)
{
    return c->mc[mc].y * c->mesh_x + c->mc[mc].x;
}

int sim_tile_of_sif(const rck_chip_t *c)
{
    int x = SIM_SIF_X < c->mesh_x ? SIM_SIF_X : c->mesh_x - 1;
    int y = SIM_SIF_Y < c->mesh_y ? SIM_SIF_Y : c->mesh_y - 1;

    return y * c->mesh_x + x;
}
