/*
 * The sim's cost table: ONE row per scalar cost key of the chip file, in
 * core cycles at core_mhz unless the key says otherwise. From the rows
 * come the fields of sim_costs_t and the keys the sim registers with the
 * chip loader (sim_cost.c), which parses, checks and dumps them (`rck
 * config --dump`) in this order; their defaults come from the built-in
 * chip file. The chip file's format is unchanged.
 *   X(field, group: the enclosing object's path ("" = top level), key,
 *     positive: must be > 0 (else >= 0),
 *     pre / post: the dump's text before "key": and after the value)
 *
 * Owns: the cost keys. Used by the cost model (sim_cost.c, sim_charge.h)
 * and the calibration test.
 */
#ifndef RCK_SIM_COSTS_H
#define RCK_SIM_COSTS_H

#include "rck/chip.h"

#define SIM_COSTS(X)                                                     \
    X(dram_core_cycles, "dram_latency_model", "core_cycles", 0,               \
      "  \"dram_latency_model\": {", "")                                      \
    X(dram_mesh_cycles_per_hop, "dram_latency_model", "mesh_cycles_per_hop",  \
      0, ", ", "")                                                            \
    X(dram_mem_cycles, "dram_latency_model", "memory_cycles", 0, ", ", "")    \
    X(dram_line_write_uncached_extra, "dram_latency_model",                   \
      "line_write_uncached_extra", 0, ",\n                         ", "},\n")  \
    X(bw_mib_s_l2hit_read, "bandwidth_one_core_mib_s.l2_hit", "read", 1,      \
      "  \"bandwidth_one_core_mib_s\": {\n    \"l2_hit\": {", "")             \
    X(bw_mib_s_l2hit_write, "bandwidth_one_core_mib_s.l2_hit", "write", 1,    \
      ", ", "},\n")                                                           \
    X(bw_mib_s_uncached_read, "bandwidth_one_core_mib_s.uncached", "read", 1, \
      "    \"uncached\": {", "")                                              \
    X(bw_mib_s_uncached_write, "bandwidth_one_core_mib_s.uncached", "write",  \
      1, ", ", "},\n")                                                        \
    X(bw_mib_s_mpbt_read, "bandwidth_one_core_mib_s.mpbt", "read", 1,         \
      "    \"mpbt\": {", "")                                                  \
    X(bw_mib_s_mpbt_write, "bandwidth_one_core_mib_s.mpbt", "write", 1, ", ", \
      "}\n  },\n")                                                            \
    X(l2_full_flush_cycles, "", "l2_full_flush_cycles", 0, "  ", ",\n")       \
    X(l2_flush_line_clean, "l2_flush_per_line_cycles", "clean", 0,            \
      "  \"l2_flush_per_line_cycles\": {", "")                                \
    X(l2_flush_line_dirty, "l2_flush_per_line_cycles", "dirty", 0, ", ",      \
      "},\n")                                                                 \
    X(cost_null_syscall, "local_ops", "null_syscall", 0,                      \
      "  \"local_ops\": {", "")                                               \
    X(cost_rdtsc, "local_ops", "rdtsc", 0, ", ", "")                          \
    X(cost_xchg, "local_ops", "xchg", 0, ", ", "")                            \
    X(cost_lock_cmpxchg, "local_ops", "lock_cmpxchg", 0, ", ", "")            \
    X(cost_lock_dec, "local_ops", "lock_dec", 0, ",\n                ", "")   \
    X(cost_nop, "local_ops", "nop", 0, ", ", "")                              \
    X(cost_cl1invmb, "local_ops", "cl1invmb", 0, ", ", "},\n")                \
    X(cost_ipi_delivery, "interrupts", "ipi_delivery_min", 0,                 \
      "  \"interrupts\": {", "")                                              \
    X(cost_kernel_send, "interrupts",                                         \
      "kernel_send_syscall_write_mpb_raise_pin", 0,                           \
      ",\n                 ", "")                                             \
    X(cost_mpb_write_raise, "interrupts", "write_mpb_and_raise_pin", 0,       \
      ",\n                 ", "},\n")                                        \
    X(cost_thread_switch, "", "thread_switch_round_trip", 0, "  ", ",\n")     \
    X(relative_core_speed, "", "relative_core_speed_vs_3ghz_i7", 1, "  ",     \
      ",\n")

typedef struct {
#define SIM_COST_FIELD(field, group, key, positive, pre, post) double field;
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
