/*
 * The sim's power model: its state in the segment (types only; the
 * functions are declared in sim_power.h). docs/POWER.md
 * describes the model and the source of every constant.
 *
 * Owns: island voltage changes in flight, the DVFS log, per-UE energy and
 * its power-over-time bins. Used by sim.c (the HAL's freq/volt/power
 * slots), sim_charge.h (advance charges energy), the report and the trace.
 */
#ifndef RCK_SIM_POWER_TYPES_H
#define RCK_SIM_POWER_TYPES_H

#include <stdint.h>

#define SIM_PW_BINS 1024       /* power samples kept per UE */
#define SIM_DVFS_LOG 2048      /* DVFS changes kept for the report */
#define SIM_PW_ISLANDS 256     /* = SIM_MAX_ISLANDS */

enum { SIM_DVFS_FREQ = 0, SIM_DVFS_VOLT = 1 };

typedef struct {
    uint64_t t;                /* ticks: when it was requested */
    uint64_t done;             /* ticks: when it took effect */
    int32_t island, core, what, value; /* divider or millivolts */
} sim_dvfs_ev_t;

/* In sim_hdr_t. Changed only by the token holder. */
typedef struct {
    double period_us;          /* sensor period (RCK_SIM_POWER_PERIOD_US) */
    uint64_t period;           /* the same in ticks, 0 until first used */
    uint32_t target_mv[SIM_PW_ISLANDS]; /* voltage of the change in flight */
    uint64_t done[SIM_PW_ISLANDS];      /* its completion, 0: none */
    uint32_t nlog, lost;
    sim_dvfs_ev_t log[SIM_DVFS_LOG];
} sim_power_hdr_t;

/* In sim_ue_t. Written by the UE itself. */
typedef struct {
    double dyn_j;              /* dynamic and per-access energy */
    uint64_t mpb_seen, dram_seen; /* accesses already charged */
    uint32_t shift;            /* its bins are period << shift wide */
    double bin[SIM_PW_BINS];   /* energy (J) per bin */
} sim_power_ue_t;

#endif
