/*
 * The timing model (sim_cost.c): pure functions of the chip's data
 * (rck_chip_t and the model's parameters, sim_costs.h) and of their
 * explicit arguments, in ticks ("time in, time out"). They never see the
 * sim's state: a core's clock, its caches, the segment. The one piece of
 * state a cost depends on, a memory controller's queue, is its own part
 * (sim_mc.h), passed in by whoever books. The formulas and their sources
 * are in docs/SIM.md, "Cost model"; the DRAM latency formula's home is the
 * HAL (rck_chip_dram_latency), which the chip loader fits a parameter with.
 * Unit tests: tests/unit/test_sim_cost.c.
 *
 * Owns: the costs. May call: the HAL's chip helpers only. Used by the
 * charging of a core's time (sim_charge.h), the memory model, the waits,
 * the P54C model, the power model and the calibration test.
 */
#ifndef RCK_SIM_COST_H
#define RCK_SIM_COST_H

#include "rck/chip.h"
#include "sim_tx.h"

#include <stddef.h>
#include <stdint.h>

/* A DWORD load that hits in L1 (P54C: one cycle). */
#define SIM_L1_HIT_CYCLES 1.0

/* @p cycles of a core clocked at @p mhz (<= 0: the base clock), in ticks
 * (base cycles x SIM_TICKS): sim_core_ticks and core_ticks both. */
static inline uint64_t sim_ticks_at_mhz(const rck_chip_t *c, double mhz,
                                        double cycles)
{
    if (mhz <= 0 || mhz == c->core_mhz)
        return sim_ticks(cycles);
    return sim_ticks(cycles * c->core_mhz / mhz);
}

/* One directed mesh link out of a tile's router. */
enum { SIM_LINK_E = 0, SIM_LINK_W = 1, SIM_LINK_S = 2, SIM_LINK_N = 3,
       SIM_LINK_DIRS = 4 };
typedef struct {
    uint64_t bytes;            /* data carried */
    uint64_t packets;          /* packets (requests, data, acks) */
} sim_link_t;

/** Ticks of @p cycles of a core running at divider @p fdiv. */
uint64_t sim_core_ticks(const rck_chip_t *c, int fdiv, double cycles);
uint64_t sim_cost_line_write(const rck_chip_t *c, int from, int to);
uint64_t sim_cost_dword_read(const rck_chip_t *c, int from, int to);
int sim_mc_of_shm(const rck_chip_t *c, size_t off);
int sim_mc_nearest(const rck_chip_t *c, int core);
int sim_hops_to_tile(const rck_chip_t *c, int core, int x, int y);
/** The parts of one DRAM transaction of @p kind at @p hops. */
void sim_cost_tx(const rck_chip_t *c, int fdiv, int hops, sim_tx_t kind,
                 sim_tx_cost_t *out);
/** An L1 line fill from L2 (L2 hit), ticks. */
uint64_t sim_cost_l2_fill(const rck_chip_t *c, int fdiv);
/** A DWORD store that hits L2, ticks. */
uint64_t sim_cost_l2_write(const rck_chip_t *c, int fdiv);
/** Count one packet of @p bytes over the links from tile to tile. */
void sim_mesh_route(const rck_chip_t *c, sim_link_t *links, int from_tile,
                    int to_tile, uint64_t bytes);
/** The same for @p packets packets carrying @p bytes in all. */
void sim_mesh_route_n(const rck_chip_t *c, sim_link_t *links, int from_tile,
                      int to_tile, uint64_t bytes, uint64_t packets);
int sim_tile_of_mc(const rck_chip_t *c, int mc);
int sim_tile_of_sif(const rck_chip_t *c);
/** Zero-load DRAM latency model (no queue, no issue overhead), ticks. */
uint64_t sim_dram_latency(const rck_chip_t *c, int core, int fdiv, int hops);
/** An access to the system FPGA (GIC, counters, timestamp). */
uint64_t sim_cost_fpga(const rck_chip_t *c, int core, int fdiv);
/** Interrupt delivery latency from @p from to @p to. */
uint64_t sim_cost_irq_delivery(const rck_chip_t *c, int from, int to);

#endif
