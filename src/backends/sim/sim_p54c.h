/*
 * The P54C compute model (RCK_COMPUTE=p54c, p54c-fast): types kept in the
 * sim segment's header and in each core's sim_t. The functions are
 * declared in sim_internal.h (they take its types); the code is in
 * sim_p54c.c, the instrumentation in qemu/p54c_plugin.c (docs/P54C.md).
 */
#ifndef RCK_SIM_P54C_H
#define RCK_SIM_P54C_H

#include "p54c_abi.h"
#include "sim_tx.h"

#include <stdint.h>

#define SIM_P54C_PATH 1024

/* In the segment's header: resolved once by the launcher. */
typedef struct {
    int32_t fd;                /* memory file of the slots, -1: model off */
    uint32_t detailed;         /* p54c (1) or p54c-fast (0) */
    uint64_t slot_bytes;       /* page-aligned size of one slot */
    double cpi[P54C_NCLASS];   /* cycles per instruction of each class */
    uint32_t l1i_bytes, l1d_bytes, l1_ways, l2_bytes, l2_ways;
    char qemu[SIM_P54C_PATH];  /* absolute path of qemu-x86_64 */
    char plugin[SIM_P54C_PATH];/* absolute path of librck_p54c.so */
} sim_p54c_job_t;

/* In each core's sim_t. */
typedef struct {
    p54c_slot_t *slot;         /* NULL: model off */
    uint64_t mark_insns, mark_units; /* the counters at the last HAL exit */
    double carry;              /* fractional cycles not charged yet */
    /* the core's port to memory for the program's own transactions */
    uint64_t rd_next, wr_next, wr_done;
    uint64_t floor;            /* no booking can arrive before (take) */
    /* Per controller, the transaction costs at the frequency divider
     * they were computed for (+1; 0: none yet): sim_cost_tx is floating
     * point, which the HAL runs under QEMU's soft float. */
    struct {
        int32_t fdiv1;
        int32_t hops, mc_tile;
        sim_tx_cost_t k[4];
    } cost[P54C_MAX_MC];
} sim_p54c_core_t;

#endif
