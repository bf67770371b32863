/*
 * The sim's parameter schema: ONE row per scalar parameter of the timing
 * and power model that a chip file may set. From the rows come the fields
 * of sim_costs_t and the schema rows (rck_chip_param_t) the sim registers
 * with the chip loader (sim_cost.c), which reads, checks (type, range),
 * dumps (`rck config --dump`) and describes (`rck config --schema`,
 * docs/PARAMS.md) them generically, in this order.
 *   X(field: of sim_costs_t, where the model reads it,
 *     group: the enclosing object's path ("" = top level, at most "a.b"),
 *     key, type (NUMBER or INTEGER), min, min_open (1: must be > min),
 *     max, unit,
 *     has_default, dflt: 1 when the value's home is this row (a model
 *       assumption); 0 when the built-in chip gives it (a published figure
 *       from config/published.json, or the chip file),
 *     wrap: the dump starts a new line before it, doc)
 * Costs are in core cycles at core_mhz unless the unit says otherwise.
 * Adding a parameter: docs/ARCHITECTURE.md, "Where a parameter lives".
 *
 * Owns: the model's parameters. Used by the cost model (sim_cost.c,
 * sim_charge.h), the power model (sim_power.c) and the calibration test.
 */
#ifndef RCK_SIM_COSTS_H
#define RCK_SIM_COSTS_H

#include "rck/chip.h"
#include "p54c_cpi.h"

#include <math.h>

#define SIM_NOMAX INFINITY

#define SIM_COSTS(X)                                                          \
    X(dram_core_cycles, "dram_latency_model", "core_cycles", NUMBER, 0, 0,    \
      SIM_NOMAX, "core cycles", 0, 0, 0,                                      \
      "core part of one DRAM access (published latency model)")              \
    X(dram_mesh_cycles_per_hop, "dram_latency_model", "mesh_cycles_per_hop",  \
      NUMBER, 0, 0, SIM_NOMAX, "mesh cycles", 0, 0, 0,                        \
      "mesh part of one DRAM access per hop, there and back")               \
    X(dram_mem_cycles, "dram_latency_model", "memory_cycles", NUMBER, 0, 0,   \
      SIM_NOMAX, "memory cycles", 0, 0, 0,                                    \
      "memory part of one DRAM access")                                      \
    X(dram_line_write_uncached_extra, "dram_latency_model",                   \
      "line_write_uncached_extra", NUMBER, 0, 0, SIM_NOMAX, "core cycles", 0, \
      0, 1,                                                                   \
      "an uncached line write's extra over 8 latencies; fitted from "         \
      "dram_from_core_0_by_mc unless given (docs/SIM.md)")                    \
    X(bw_mib_s_l2hit_read, "bandwidth_one_core_mib_s.l2_hit", "read", NUMBER, \
      0, 1, SIM_NOMAX, "MiB/s", 0, 0, 0,                                      \
      "one core's read bandwidth, L2 hit: the L2 fill time")                 \
    X(bw_mib_s_l2hit_write, "bandwidth_one_core_mib_s.l2_hit", "write",       \
      NUMBER, 0, 1, SIM_NOMAX, "MiB/s", 0, 0, 0,                              \
      "one core's write bandwidth, L2 hit: a write into L2")                 \
    X(bw_mib_s_uncached_read, "bandwidth_one_core_mib_s.uncached", "read",    \
      NUMBER, 0, 1, SIM_NOMAX, "MiB/s", 0, 0, 0,                              \
      "one core's uncached read bandwidth: a DWORD's controller interval")   \
    X(bw_mib_s_uncached_write, "bandwidth_one_core_mib_s.uncached", "write",  \
      NUMBER, 0, 1, SIM_NOMAX, "MiB/s", 0, 0, 0,                              \
      "one core's uncached write bandwidth: a DWORD's controller interval")  \
    X(bw_mib_s_mpbt_read, "bandwidth_one_core_mib_s.mpbt", "read", NUMBER, 0, \
      1, SIM_NOMAX, "MiB/s", 0, 0, 0,                                         \
      "one core's MPBT read bandwidth: a line's controller interval")        \
    X(bw_mib_s_mpbt_write, "bandwidth_one_core_mib_s.mpbt", "write", NUMBER,  \
      0, 1, SIM_NOMAX, "MiB/s", 0, 0, 0,                                      \
      "one core's MPBT write bandwidth: a line's controller interval")       \
    X(l2_full_flush_cycles, "", "l2_full_flush_cycles", NUMBER, 0, 0,         \
      SIM_NOMAX, "core cycles", 0, 0, 0, "a software flush of the whole L2")  \
    X(l2_flush_line_clean, "l2_flush_per_line_cycles", "clean", NUMBER, 0, 0, \
      SIM_NOMAX, "core cycles", 0, 0, 0, "flushing one clean L2 line")        \
    X(l2_flush_line_dirty, "l2_flush_per_line_cycles", "dirty", NUMBER, 0, 0, \
      SIM_NOMAX, "core cycles", 0, 0, 0, "flushing one dirty L2 line")        \
    X(cost_null_syscall, "local_ops", "null_syscall", NUMBER, 0, 0,           \
      SIM_NOMAX, "core cycles", 0, 0, 0,                                      \
      "a trap in and out of the kernel (console write, interrupt entry)")    \
    X(cost_rdtsc, "local_ops", "rdtsc", NUMBER, 0, 0, SIM_NOMAX,              \
      "core cycles", 0, 0, 0, "reading the cycle counter")                   \
    X(cost_xchg, "local_ops", "xchg", NUMBER, 0, 0, SIM_NOMAX, "core cycles", \
      0, 0, 0, "XCHG")                                                        \
    X(cost_lock_cmpxchg, "local_ops", "lock_cmpxchg", NUMBER, 0, 0,           \
      SIM_NOMAX, "core cycles", 0, 0, 0, "LOCK CMPXCHG")                      \
    X(cost_lock_dec, "local_ops", "lock_dec", NUMBER, 0, 0, SIM_NOMAX,        \
      "core cycles", 0, 0, 1, "LOCK DEC")                                     \
    X(cost_nop, "local_ops", "nop", NUMBER, 0, 0, SIM_NOMAX, "core cycles",   \
      0, 0, 0, "NOP")                                                         \
    X(cost_cl1invmb, "local_ops", "cl1invmb", NUMBER, 0, 0, SIM_NOMAX,        \
      "core cycles", 0, 0, 0, "CL1INVMB")                                     \
    X(cost_ipi_delivery, "interrupts", "ipi_delivery_min", NUMBER, 0, 0,      \
      SIM_NOMAX, "core cycles", 0, 0, 0,                                      \
      "an interrupt, raise to handler, same tile, incl. the trap")           \
    X(cost_kernel_send, "interrupts",                                         \
      "kernel_send_syscall_write_mpb_raise_pin", NUMBER, 0, 0, SIM_NOMAX,     \
      "core cycles", 0, 0, 1,                                                 \
      "a kernel-level send (system call, MPB write, raise the pin)")         \
    X(cost_mpb_write_raise, "interrupts", "write_mpb_and_raise_pin", NUMBER,  \
      0, 0, SIM_NOMAX, "core cycles", 0, 0, 1,                                \
      "writing the MPB and raising the pin")                                  \
    X(cost_thread_switch, "", "thread_switch_round_trip", NUMBER, 0, 0,       \
      SIM_NOMAX, "core cycles", 0, 0, 0, "a thread switch, round trip")       \
    X(relative_core_speed, "", "relative_core_speed_vs_3ghz_i7", NUMBER, 0,   \
      1, SIM_NOMAX, "ratio", 0, 0, 0,                                         \
      "a core's speed on ordinary code against a 3.07 GHz Core i7-950 "       \
      "(compute model host)")                                                 \
    X(power_act_compute, "power_model.activity", "compute", NUMBER, 0, 0, 1,  \
      "fraction", 1, 1.0, 0,                                                  \
      "switching activity of a core computing (the calibration points ran "   \
      "every core; docs/POWER.md)")                                           \
    X(power_act_mpb, "power_model.activity", "mpb", NUMBER, 0, 0, 1,          \
      "fraction", 1, 0.6, 0,                                                  \
      "activity of a core stalled on the MPB (pipeline partly idle)")        \
    X(power_act_dram, "power_model.activity", "dram", NUMBER, 0, 0, 1,        \
      "fraction", 1, 0.6, 0, "activity of a core stalled on DRAM")           \
    X(power_act_wait, "power_model.activity", "wait", NUMBER, 0, 0, 1,        \
      "fraction", 1, 0.3, 0,                                                  \
      "activity of a core parked on a flag (spins on an L1 line)")           \
    X(power_act_irq, "power_model.activity", "irq", NUMBER, 0, 0, 1,          \
      "fraction", 1, 1.0, 0, "activity of a core in an interrupt handler")   \
    X(power_act_other, "power_model.activity", "other", NUMBER, 0, 0, 1,      \
      "fraction", 1, 1.0, 0, "activity of a core doing anything else")       \
    X(power_e_mpb_line, "power_model.energy_j", "mpb_line", NUMBER, 0, 0,     \
      SIM_NOMAX, "J", 1, 0.5e-9, 0,                                           \
      "energy of one 32-byte MPB line with its mesh trip")                    \
    X(power_e_dram_tx, "power_model.energy_j", "dram_tx", NUMBER, 0, 0,       \
      SIM_NOMAX, "J", 1, 18e-9, 0,                                            \
      "energy of one DRAM transaction (about 70 pJ/bit x 256 bit)")          \
    X(p54c_l1i_bytes, "p54c", "l1i_bytes", INTEGER, 0, 0, 16777216, "bytes", \
      1, 0, 0, "the P54C model's L1 instruction cache (0: as l1d_bytes)")    \
    X(p54c_l1_ways, "p54c", "l1_ways", INTEGER, 1, 0, 16777216, "ways", 1, 2, \
      0, "the P54C model's L1 associativity")                                \
    X(p54c_l2_ways, "p54c", "l2_ways", INTEGER, 1, 0, 16777216, "ways", 1, 4, \
      0, "the P54C model's L2 associativity")                                \
    X(p54c_cpi_int, "p54c.cpi", "int", NUMBER, 0, 0, 1e6,                     \
      "cycles per instruction", 1, P54C_CPI_INT, 0,                           \
      "P54C instruction class: integer and logic")                            \
    X(p54c_cpi_mem, "p54c.cpi", "mem", NUMBER, 0, 0, 1e6,                     \
      "cycles per instruction", 1, P54C_CPI_MEM, 0,                           \
      "P54C instruction class: with a memory operand")                        \
    X(p54c_cpi_branch, "p54c.cpi", "branch", NUMBER, 0, 0, 1e6,               \
      "cycles per instruction", 1, P54C_CPI_BRANCH, 0,                        \
      "P54C instruction class: branches")                                     \
    X(p54c_cpi_mul, "p54c.cpi", "mul", NUMBER, 0, 0, 1e6,                     \
      "cycles per instruction", 1, P54C_CPI_MUL, 0,                           \
      "P54C instruction class: integer multiplies")                           \
    X(p54c_cpi_div, "p54c.cpi", "div", NUMBER, 0, 0, 1e6,                     \
      "cycles per instruction", 1, P54C_CPI_DIV, 0,                           \
      "P54C instruction class: integer divides")                              \
    X(p54c_cpi_fadd, "p54c.cpi", "fadd", NUMBER, 0, 0, 1e6,                   \
      "cycles per instruction", 1, P54C_CPI_FADD, 0,                          \
      "P54C instruction class: x87 add/subtract")                             \
    X(p54c_cpi_fmul, "p54c.cpi", "fmul", NUMBER, 0, 0, 1e6,                   \
      "cycles per instruction", 1, P54C_CPI_FMUL, 0,                          \
      "P54C instruction class: x87 multiplies")                               \
    X(p54c_cpi_fdiv, "p54c.cpi", "fdiv", NUMBER, 0, 0, 1e6,                   \
      "cycles per instruction", 1, P54C_CPI_FDIV, 0,                          \
      "P54C instruction class: x87 divides")                                  \
    X(p54c_cpi_fsqrt, "p54c.cpi", "fsqrt", NUMBER, 0, 0, 1e6,                 \
      "cycles per instruction", 1, P54C_CPI_FSQRT, 0,                         \
      "P54C instruction class: x87 square roots")                             \
    X(p54c_cpi_string, "p54c.cpi", "string", NUMBER, 0, 0, 1e6,               \
      "cycles per instruction", 1, P54C_CPI_STRING, 0,                        \
      "P54C instruction class: string, per iteration")                        \
    X(p54c_cpi_other, "p54c.cpi", "other", NUMBER, 0, 0, 1e6,                 \
      "cycles per instruction", 1, P54C_CPI_OTHER, 0,                         \
      "P54C instruction class: all else, locked RMW")

typedef struct {
#define SIM_COST_FIELD(field, group, key, type, min, min_open, max, unit,    \
                       has_default, dflt, wrap, doc)                          \
    double field;
    SIM_COSTS(SIM_COST_FIELD)
#undef SIM_COST_FIELD
} sim_costs_t;

/** Where the sim's keys start in rck_chip_t.params (sim_cost.c). */
extern int sim_costs_first;

/** The sim's costs of chip @p c, as the loader read them. */
static inline const sim_costs_t *sim_costs(const rck_chip_t *c)
{
    return (const sim_costs_t *)&c->params[sim_costs_first];
}

/** The same, to change (tests). */
static inline sim_costs_t *sim_costs_mut(rck_chip_t *c)
{
    return (sim_costs_t *)&c->params[sim_costs_first];
}

#endif
