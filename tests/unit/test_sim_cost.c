/*
 * The sim's timing model (src/backends/sim/sim_cost.c, sim_cost.h) as pure
 * functions: each cost from explicit inputs (the chip, its parameters, two
 * cores or a hop count, a divider), checked against the formula written
 * out here from the chip's own tables, without a run. The memory
 * controllers' booking has its own test (test_sim_mc.c).
 *   - DRAM latency: the HAL's formula (rck_chip_dram_latency) on numbers
 *     chosen by hand, then the sim's ticks at every distance and at a
 *     slower divider (only the core's part scales);
 *   - mesh hops and XY routing: hop counts on the 6x4 mesh, the links a
 *     packet crosses (X first, then Y), nothing else touched;
 *   - MPB access: line write and DWORD read from the published tables,
 *     growing with distance;
 *   - a DRAM transaction's parts (sim_cost_tx), L2 hits, the system
 *     interface, and an interrupt's delivery from the same parameters.
 */
#include "rck/chip.h"
#include "sim/sim_cost.h"
#include "sim/sim_costs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

/* ticks of @p cycles at the base clock, as the model rounds them */
static uint64_t ticks(double cycles)
{
    return (uint64_t)llround(cycles * 65536.0);
}

static void test_formula(void)
{
    rck_chip_t c;
    rck_dram_latency_t p;

    memset(&c, 0, sizeof(c));
    c.core_mhz = 500;
    c.mesh_mhz = 1000;
    c.mem_mhz = 250;
    /* 10 core cycles; 3 hops of 4 mesh cycles = 12 mesh cycles = 6 core
     * cycles; 5 memory cycles = 10 core cycles */
    rck_chip_dram_latency_parts(&c, 10, 4, 5, 3, &p);
    CHECK(p.core == 10);
    CHECK(p.mesh == 6);
    CHECK(p.mem == 10);
    CHECK(rck_chip_dram_latency(&c, 10, 4, 5, 3) == 26);
    CHECK(rck_chip_dram_latency(&c, 10, 4, 5, 0) == 20);
}

static void test_dram(const rck_chip_t *c)
{
    const sim_costs_t *k = sim_costs(c);
    double mesh_hop = k->dram_mesh_cycles_per_hop * c->core_mhz / c->mesh_mhz;
    double mem = k->dram_mem_cycles * c->core_mhz / c->mem_mhz;
    uint64_t prev = 0;
    int slow = c->default_fdiv + 1;
    double mhz = rck_chip_fdiv_mhz(c, slow);

    CHECK(k->dram_core_cycles > 0 && k->dram_mesh_cycles_per_hop > 0 &&
          k->dram_mem_cycles > 0);
    for (int h = 0; h <= c->max_hops; h++) {
        uint64_t t = sim_dram_latency(c, 0, c->default_fdiv, h);
        /* the parts are rounded one by one: within a tick per part */
        uint64_t want = ticks(k->dram_core_cycles + h * mesh_hop + mem);

        CHECK(t + 3 >= want && t <= want + 3);
        CHECK(t > prev);
        CHECK(fabs((double)t / 65536.0 -
                   rck_chip_dram_latency(c, k->dram_core_cycles,
                                         k->dram_mesh_cycles_per_hop,
                                         k->dram_mem_cycles, h)) < 1e-3);
        prev = t;
    }
    /* at a slower clock only the core's part takes longer */
    CHECK(mhz > 0 && mhz < c->core_mhz);
    if (mhz > 0) {
        uint64_t t = sim_dram_latency(c, 0, slow, 2);
        uint64_t want = ticks(k->dram_core_cycles * c->core_mhz / mhz +
                              2 * mesh_hop + mem);

        CHECK(t + 3 >= want && t <= want + 3);
    }
}

static void test_mesh(const rck_chip_t *c)
{
    size_t n = (size_t)(c->mesh_x * c->mesh_y) * SIM_LINK_DIRS;
    sim_link_t *links = calloc(n, sizeof(*links));
    int last = c->ncores - 1, lx = c->mesh_x - 1, ly = c->mesh_y - 1;
    uint64_t crossed = 0;

    CHECK(c->mesh_x == 6 && c->mesh_y == 4 && c->ncores == 48);
    CHECK(sim_hops_to_tile(c, 0, 0, 0) == 0);
    CHECK(sim_hops_to_tile(c, 1, 0, 0) == 0); /* the tile's other core */
    CHECK(sim_hops_to_tile(c, 0, lx, ly) == lx + ly);
    CHECK(sim_hops_to_tile(c, last, 0, 0) == lx + ly);
    CHECK(sim_hops_to_tile(c, 2, 3, 2) == 2 + 2);
    CHECK(c->max_hops == lx + ly);
    if (links == NULL)
        return;
    /* tile 0 (0,0) to the last tile: east along row 0, then south along
     * the last column, one packet of 32 bytes on each link */
    sim_mesh_route(c, links, 0, c->mesh_x * c->mesh_y - 1, 32);
    for (int x = 0; x < lx; x++) {
        sim_link_t *l = &links[(0 * c->mesh_x + x) * SIM_LINK_DIRS +
                               SIM_LINK_E];
        CHECK(l->bytes == 32 && l->packets == 1);
    }
    for (int y = 0; y < ly; y++) {
        sim_link_t *l = &links[(y * c->mesh_x + lx) * SIM_LINK_DIRS +
                               SIM_LINK_S];
        CHECK(l->bytes == 32 && l->packets == 1);
    }
    for (size_t i = 0; i < n; i++)
        crossed += links[i].packets;
    CHECK(crossed == (uint64_t)(lx + ly));
    /* and back: west then north, 3 packets carrying 96 bytes */
    memset(links, 0, n * sizeof(*links));
    sim_mesh_route_n(c, links, c->mesh_x * c->mesh_y - 1, 0, 96, 3);
    CHECK(links[(ly * c->mesh_x + lx) * SIM_LINK_DIRS + SIM_LINK_W]
              .packets == 3);
    CHECK(links[(1 * c->mesh_x + 0) * SIM_LINK_DIRS + SIM_LINK_N].bytes ==
          96);
    CHECK(links[(0 * c->mesh_x + 0) * SIM_LINK_DIRS + SIM_LINK_N].bytes ==
          0);
    free(links);
    /* the controllers' tiles, and core 0's nearest one */
    for (int m = 0; m < c->nmc; m++)
        CHECK(sim_tile_of_mc(c, m) == c->mc[m].y * c->mesh_x + c->mc[m].x);
    {
        int best = sim_mc_nearest(c, 0);
        for (int m = 0; m < c->nmc; m++)
            CHECK(sim_hops_to_tile(c, 0, c->mc[best].x, c->mc[best].y) <=
                  sim_hops_to_tile(c, 0, c->mc[m].x, c->mc[m].y));
    }
    /* shared DRAM: 16 MiB pages round-robin over the controllers */
    CHECK(sim_mc_of_shm(c, 0) == 0);
    CHECK(sim_mc_of_shm(c, (size_t)1 << 24) == 1 % c->nmc);
    CHECK(sim_mc_of_shm(c, ((size_t)c->nmc << 24) + 5) == 0);
}

static void test_mpb(const rck_chip_t *c)
{
    /* core 0 to itself, to its tile's other core, and across the chip */
    int far = c->ncores - 1;

    CHECK(sim_cost_line_write(c, 0, 0) ==
          ticks(c->mpb_line_write_by_hops[0]));
    CHECK(sim_cost_line_write(c, 0, 1) == sim_cost_line_write(c, 0, 0));
    CHECK(sim_cost_line_write(c, 0, far) ==
          ticks(c->mpb_line_write_by_hops[c->max_hops]));
    CHECK(sim_cost_dword_read(c, 0, far) ==
          ticks(c->mpb_dword_read_by_hops[c->max_hops]));
    CHECK(sim_cost_dword_read(c, far, 0) == sim_cost_dword_read(c, 0, far));
    for (int to = 0; to + 2 < c->ncores; to += 2)
        CHECK(sim_cost_line_write(c, 0, to + 2) >=
                  sim_cost_line_write(c, 0, to) ||
              rck_chip_hops(c, 0, to + 2) < rck_chip_hops(c, 0, to));
    CHECK(sim_cost_line_write(c, 0, far) > sim_cost_line_write(c, 0, 0));
}

static void test_tx(const rck_chip_t *c)
{
    const sim_costs_t *k = sim_costs(c);
    sim_tx_cost_t rd, wr, lr, lw;
    int f = c->default_fdiv;
    double issue = k->dram_line_write_uncached_extra / 8.0;
    double cpb = c->core_mhz * 1e6 / (k->bw_mib_s_uncached_read * 1048576.0);

    sim_cost_tx(c, f, 4, SIM_TX_DW_READ, &rd);
    sim_cost_tx(c, f, 4, SIM_TX_DW_WRITE, &wr);
    sim_cost_tx(c, f, 4, SIM_TX_LINE_READ, &lr);
    sim_cost_tx(c, f, 4, SIM_TX_LINE_WRITE, &lw);
    /* the zero-load latency is issue + core + both ways + memory */
    CHECK(rd.before + 2 * rd.one_way + rd.mem ==
          sim_core_ticks(c, f, issue) + sim_dram_latency(c, 0, f, 4));
    CHECK(rd.one_way == lr.one_way && rd.mem == lw.mem);
    /* a line through the WCB issues twice */
    CHECK(lw.before == rd.before + sim_core_ticks(c, f, issue) ||
          lw.before + 1 == rd.before + sim_core_ticks(c, f, issue) ||
          lw.before == rd.before + sim_core_ticks(c, f, issue) + 1);
    /* the spacing of reads: 4 bytes at the published bandwidth */
    CHECK(rd.interval == sim_core_ticks(c, f, 4 * cpb));
    CHECK(lr.interval > rd.interval);
    /* an L2 hit: a line at the published L2 bandwidth, less the DWORDs
     * that hit in L1 anyway; a store that hits L2: one DWORD's worth */
    {
        double l2 = c->core_mhz * 1e6 / (k->bw_mib_s_l2hit_read * 1048576.0);
        double line = c->line_bytes * l2 - (c->line_bytes / 4.0 - 1.0);
        double w = 4 * c->core_mhz * 1e6 /
                   (k->bw_mib_s_l2hit_write * 1048576.0);

        CHECK(sim_cost_l2_fill(c, f) ==
              sim_core_ticks(c, f, line > 0 ? line : 0));
        CHECK(sim_cost_l2_write(c, f) == sim_core_ticks(c, f, w));
        CHECK(sim_cost_l2_fill(c, f + 1) > sim_cost_l2_fill(c, f));
    }
    /* the system interface's router: tile (3, 0) on the SCC */
    CHECK(sim_tile_of_sif(c) == 3);
    /* the FPGA is one DRAM latency away, at the system interface */
    CHECK(sim_cost_fpga(c, 0, f) >= sim_dram_latency(c, 0, f, 0));
    /* an interrupt on one tile: the published delivery less the trap */
    CHECK(sim_cost_irq_delivery(c, 0, 1) ==
          ticks(k->cost_ipi_delivery > k->cost_null_syscall
                    ? k->cost_ipi_delivery - k->cost_null_syscall
                    : 0));
    CHECK(sim_cost_irq_delivery(c, 0, c->ncores - 1) >
          sim_cost_irq_delivery(c, 0, 1));
}

int main(void)
{
    rck_chip_t c;

    test_formula();
    if (rck_chip_load_default(&c) != RCK_OK) {
        fprintf(stderr, "the built-in chip does not load\n");
        return 1;
    }
    test_dram(&c);
    test_mesh(&c);
    test_mpb(&c);
    test_tx(&c);
    if (failures == 0)
        printf("test_sim_cost: ok\n");
    return failures != 0;
}
