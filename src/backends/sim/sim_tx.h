/*
 * The kinds of shared-DRAM transaction and their costs (sim_cost_tx in
 * sim_cost.c): a header of their own, because the P54C model's per-core
 * state (sim_p54c.h) keeps costs it computed once.
 */
#ifndef RCK_SIM_TX_H
#define RCK_SIM_TX_H

#include <math.h>
#include <stdint.h>

#define SIM_TICKS 65536ull              /* ticks per base cycle */

/* Ticks of @p base_cycles cycles of the chip's base clock, rounded. */
static inline uint64_t sim_ticks(double base_cycles)
{
    double t = base_cycles * (double)SIM_TICKS;

    if (!(t > 0))
        return 0;
    /* llround of 2^63 or more is undefined (x86 gives 2^63 ticks) */
    if (t >= 9.0e18)
        return (uint64_t)9.0e18;
    return (uint64_t)llround(t);
}

static inline uint64_t sim_max(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

static inline uint64_t sim_min(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

/* Kinds of shared-DRAM transaction (sim_cost_tx). */
typedef enum {
    SIM_TX_DW_READ = 0,        /* uncached DWORD read; a DWORD of an L2 fill */
    SIM_TX_DW_WRITE = 1,       /* uncached DWORD write; a write-around store */
    SIM_TX_LINE_READ = 2,      /* an MPBT line fill */
    SIM_TX_LINE_WRITE = 3      /* a line through the WCB; an L2 write-back */
} sim_tx_t;

typedef struct {
    uint64_t before;           /* issue + core part, before the request
                                  leaves the core */
    uint64_t one_way;          /* mesh, each way */
    uint64_t mem;              /* the controller's service */
    uint64_t interval;         /* least spacing of two of this kind */
} sim_tx_cost_t;

#endif
