/*
 * The code the QEMU engine leaves out (sim_p54c_skip.c, docs/P54C.md
 * "What QEMU counts").
 */
#ifndef RCK_SIM_P54C_SKIP_H
#define RCK_SIM_P54C_SKIP_H

#include "p54c_abi.h"

#include <stdint.h>

/* Fill @p slot's skip ranges from the modules loaded now (the
 * simulator's own section and every PLT; with @p only_counted and a
 * program with compiled counters, every module without them too), then
 * publish them (skip_gen). @return the ranges that did not fit (0
 * normally). */
uint32_t sim_p54c_skip_scan(p54c_slot_t *slot, int only_counted);

#endif
