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

#define RCK_CHIP_MAX_PARAMS 64

/** The type of a model parameter's value. */
typedef enum {
    RCK_PARAM_NUMBER = 0, /* any finite number in the range */
    RCK_PARAM_INTEGER     /* a whole number in the range */
} rck_param_type_t;

/*
 * One row of a timing model's parameter schema: a scalar the chip file
 * may set, read for the model that owns it (the sim's cost and power
 * table, src/backends/sim/sim_costs.h, registers its rows with
 * rck_chip_register_params). The HAL knows them only by these rows: it
 * reads, checks (type, range), dumps (`rck config --dump`) and describes
 * (`rck config --schema`, docs/PARAMS.md) them generically, in the
 * registered order, into rck_chip_t.params. docs/ARCHITECTURE.md, "Where
 * a parameter lives", says how to add one.
 */
typedef struct {
    const char *group;  /* path of the enclosing object, "" = top level;
                         * at most two levels ("a" or "a.b") */
    const char *key;
    rck_param_type_t type;
    double min, max;    /* the range: min (< or <=, min_open) .. max (<=) */
    int min_open;       /* 1: must be greater than min; 0: at least min */
    const char *unit;
    const char *doc;    /* one line: what it is, where its value comes from */
    const char *field;  /* where it lives in the model's state */
    int has_default;    /* 1: dflt applies where the built-in chip has no
                         * value (a model assumption whose home is the
                         * schema); 0: the built-in chip gives it (from
                         * config/published.json or the chip file) */
    double dflt;
    int wrap;           /* dump layout: starts a new line in its object */
} rck_chip_param_t;

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
    /* voltage regulators (the "dvfs" object): island voltages lie in
     * [volts_min, volts_max] in volt_step_mv steps; a change takes
     * volt_change_cycles cycles of the base core clock (core_mhz); the
     * mesh island runs at mesh_volts; every island starts at volts_start
     * (docs/POWER.md) */
    double volts_min, volts_max, volt_step_mv, volt_change_cycles;
    double mesh_volts, volts_start;

    /* published MPB latencies by distance, core cycles at core_mhz (the
     * sim's other costs are model parameters, below) */
    int max_hops;               /* derived: (mesh_x - 1) + (mesh_y - 1) */
    double mpb_line_write_by_hops[RCK_CHIP_MAX_HOPS + 1];
    double mpb_dword_read_by_hops[RCK_CHIP_MAX_HOPS + 1];
    /* the registered model parameters (rck_chip_register_params), in
     * their order; the HAL does not name them */
    int nparams;
    double params[RCK_CHIP_MAX_PARAMS];
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

/**
 * Add a model's parameters to the keys the loader reads (the sim's cost
 * table does, when the library is loaded). They come after the ones
 * registered before, in rck_chip_t.params, and are dumped in that order
 * after the latency tables.
 * @param [in] params  @p n keys (static storage).
 * @return the index of the first in rck_chip_t.params, or -1 when there
 *         is no room (logged).
 */
int rck_chip_register_params(const rck_chip_param_t *params, int n);

/** Recompute derived fields and check invariants; logs the first problem. */
rck_status_t rck_chip_validate(rck_chip_t *chip);

/** Print the resolved configuration as JSON (`rck config --dump`). */
void rck_chip_print(FILE *fp, const rck_chip_t *chip);

/**
 * Print the registered parameters' schema as JSON (`rck config --schema`):
 * an array of {"key", "type", "unit", "min", "min_open", "max", "default",
 * "default_from", "doc", "field"}, the default being @p dflt's value (the
 * built-in chip's).
 */
void rck_chip_print_schema(FILE *fp, const rck_chip_t *dflt);

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

/** The published zero-load DRAM latency model (docs/SIM.md, "Cost
 *  model"), in parts, each in cycles of the base core clock: @p core_cycles
 *  core cycles, @p hops x @p mesh_cycles_per_hop mesh cycles (there and
 *  back), @p mem_cycles memory cycles. The three numbers are the timing
 *  model's parameters (the sim's dram_latency_model keys), which the chip
 *  loader fits a parameter with (chip.c), the sim charges (sim_cost.c) and
 *  the calibration test checks: the formula's one home. */
typedef struct {
    double core;               /* the core's part */
    double mesh;               /* the mesh's, there and back */
    double mem;                /* the memory's */
} rck_dram_latency_t;

static inline void rck_chip_dram_latency_parts(const rck_chip_t *chip,
                                               double core_cycles,
                                               double mesh_cycles_per_hop,
                                               double mem_cycles, double hops,
                                               rck_dram_latency_t *out)
{
    out->core = core_cycles;
    out->mesh = hops * mesh_cycles_per_hop * chip->core_mhz / chip->mesh_mhz;
    out->mem = mem_cycles * chip->core_mhz / chip->mem_mhz;
}

/** @return the sum of rck_chip_dram_latency_parts' parts (base cycles). */
static inline double rck_chip_dram_latency(const rck_chip_t *chip,
                                           double core_cycles,
                                           double mesh_cycles_per_hop,
                                           double mem_cycles, double hops)
{
    rck_dram_latency_t p;

    rck_chip_dram_latency_parts(chip, core_cycles, mesh_cycles_per_hop,
                                mem_cycles, hops, &p);
    return p.core + p.mesh + p.mem;
}

/** @return voltage island of @p core (islands of island_w x island_h tiles). */
int rck_chip_island(const rck_chip_t *chip, int core);

/** @return core MHz for divider @p fdiv, or 0 if the table lacks it. */
double rck_chip_fdiv_mhz(const rck_chip_t *chip, int fdiv);

/** @return minimum volts for divider @p fdiv, or 0 if the table lacks it. */
double rck_chip_fdiv_volts(const rck_chip_t *chip, int fdiv);

/** @return millivolts divider @p fdiv needs (its DVFS entry, rounded up to
 *  a whole millivolt), or -1 if the table lacks it. */
int rck_chip_fdiv_need_mv(const rck_chip_t *chip, int fdiv);

/** @return @p mv rounded up to the regulator's step (whole millivolts), or
 *  -1 if it is outside [volts_min, volts_max]. */
int rck_chip_volt_step(const rck_chip_t *chip, int mv);

/** @return the islands' voltage at the start of a run, millivolts. */
int rck_chip_start_mv(const rck_chip_t *chip);

#endif
