/*
 * The kinds of shared-DRAM transaction and their costs (sim_cost_tx in
 * sim_cost.c): a header of their own, because the P54C model's per-core
 * state (sim_p54c.h) keeps costs it computed once.
 */
#ifndef RCK_SIM_TX_H
#define RCK_SIM_TX_H

#include <stdint.h>

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
