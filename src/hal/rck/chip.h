/*
 * The chip configuration: everything about the modelled chip that is data
 * rather than code. Loaded from a JSON file (config/chips/NAME.json, or the
 * built-in copy of the SCC 533/800/800 calibration). Plain old data with no
 * pointers, so it can be copied into a shared segment.
 *
 * Invariants after rck_chip_load_* and rck_chip_validate succeed:
 *   ncores == mesh_x * mesh_y * cores_per_tile <= RCK_CHIP_MAX_CORES
 *   core c sits on tile c / cores_per_tile; tile t is at (t % mesh_x,
 *   t / mesh_x); hops are the Manhattan distance between tiles (XY routing)
 *   every *_by_hops table has entries for 0 .. max_hops (extrapolated
 *   linearly from the last two given values when the file gives fewer).
 */
#ifndef RCK_CHIP_H
#define RCK_CHIP_H

#include "rck/status.h"

#include <stdint.h>
#include <stdio.h>

#define RCK_CHIP_MAX_CORES 1024
#define RCK_CHIP_MAX_MC 16
#define RCK_CHIP_MAX_HOPS 64
#define RCK_CHIP_MAX_DVFS 32
#define RCK_CHIP_NAME_LEN 64

typedef struct {
    int x, y;           /* tile coordinates of the controller's router */
} rck_chip_mc_t;

/*
 * The scalar published costs, in core cycles at core_mhz unless the key
 * says otherwise: ONE row per key of the chip file, from which the field
 * of rck_chip_t, its parsing and check (chip.c: chip_apply_costs,
 * chip_check_nums) and its line in `rck config --dump` (rck_chip_print)
 * are generated. Defaults come from the built-in chip file.
 *   X(field, group: the enclosing object's path ("" = top level), key,
 *     positive: must be > 0 (else >= 0),
 *     pre / post: the dump's text before "key": and after the value)
 * The rows are in the dump's order.
 */
#define RCK_CHIP_COSTS(X)                                                     \
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
    X(cost_thread_switch, "", "thread_switch_round_trip", 0, "  ", ",\n")

typedef struct {
    char name[RCK_CHIP_NAME_LEN];

    /* organisation */
    int mesh_x, mesh_y;         /* tiles */
    int cores_per_tile;
    int ncores;                 /* derived */
    int ntiles;                 /* derived */
    int island_w, island_h;     /* voltage island size in tiles (2 x 2) */
    int nislands;               /* derived */
    uint32_t mpb_bytes;         /* MPB bytes per core (8192) */
    uint32_t line_bytes;        /* cache line (32) */
    uint32_t l1d_bytes, l2_bytes;
    int nmc;
    rck_chip_mc_t mc[RCK_CHIP_MAX_MC];
    int atomic_counters;        /* GIC atomic increment counters */

    /* clocks (MHz) */
    double core_mhz, mesh_mhz, mem_mhz;

    /* DVFS table: fdiv -> core MHz and minimum volts */
    int ndvfs;
    int dvfs_fdiv[RCK_CHIP_MAX_DVFS];
    double dvfs_mhz[RCK_CHIP_MAX_DVFS];
    double dvfs_volts[RCK_CHIP_MAX_DVFS];
    int default_fdiv;           /* divider of core_mhz (3 for 533 MHz) */

    /* published costs, core cycles at core_mhz */
    int max_hops;               /* derived: (mesh_x - 1) + (mesh_y - 1) */
    double mpb_line_write_by_hops[RCK_CHIP_MAX_HOPS + 1];
    double mpb_dword_read_by_hops[RCK_CHIP_MAX_HOPS + 1];
    /* the scalar costs: one field per row of RCK_CHIP_COSTS */
#define RCK_CHIP_COST_FIELD(field, group, key, positive, pre, post) \
    double field;
    RCK_CHIP_COSTS(RCK_CHIP_COST_FIELD)
#undef RCK_CHIP_COST_FIELD
    double relative_core_speed;  /* vs a 3 GHz desktop core (0.05) */
} rck_chip_t;

/**
 * Load the built-in default chip (the SCC at 533/800/800 MHz).
 * @param [out] chip  filled on success.
 */
rck_status_t rck_chip_load_default(rck_chip_t *chip);

/**
 * Load a chip from a JSON file in the calibration format; keys missing
 * from the file keep the built-in default's values.
 * @param [in]  path  file name.
 * @param [out] chip  filled on success; errors are logged with the key.
 */
rck_status_t rck_chip_load_file(const char *path, rck_chip_t *chip);

/**
 * Load from a JSON text held in memory (same rules as the file).
 * @param [in]  text  NUL-terminated JSON.
 * @param [in]  what  name used in error messages.
 * @param [out] chip  filled on success.
 */
rck_status_t rck_chip_load_string(const char *text, const char *what,
                                  rck_chip_t *chip);

/** Recompute derived fields and check invariants; logs the first problem. */
rck_status_t rck_chip_validate(rck_chip_t *chip);

/** Print the resolved configuration as JSON (`rck config --dump`). */
void rck_chip_print(FILE *fp, const rck_chip_t *chip);

/** @return tile of @p core. */
static inline int rck_chip_tile(const rck_chip_t *chip, int core)
{
    return core / chip->cores_per_tile;
}

/** Tile coordinates of @p core. */
static inline void rck_chip_core_xy(const rck_chip_t *chip, int core, int *x,
                                    int *y)
{
    int t = rck_chip_tile(chip, core);
    *x = t % chip->mesh_x;
    *y = t / chip->mesh_x;
}

/** @return mesh hops between the routers of two cores (XY routing). */
static inline int rck_chip_hops(const rck_chip_t *chip, int a, int b)
{
    int ax, ay, bx, by;
    rck_chip_core_xy(chip, a, &ax, &ay);
    rck_chip_core_xy(chip, b, &bx, &by);
    return (ax > bx ? ax - bx : bx - ax) + (ay > by ? ay - by : by - ay);
}

/** @return voltage island of @p core (islands of island_w x island_h tiles). */
int rck_chip_island(const rck_chip_t *chip, int core);

/** @return core MHz for divider @p fdiv, or 0 if the table lacks it. */
double rck_chip_fdiv_mhz(const rck_chip_t *chip, int fdiv);

/** @return minimum volts for divider @p fdiv, or 0 if the table lacks it. */
double rck_chip_fdiv_volts(const rck_chip_t *chip, int fdiv);

#endif
