/*
 * The P54C compute model's default CPI table: cycles per instruction of
 * each class (p54c_abi.h), from the published Pentium (P54C) timings:
 * Intel, "Pentium Processor Family Developer's Manual, Volume 3", and
 * A. Fog, "Instruction tables", section "Intel Pentium and Pentium MMX";
 * the atomics from the SCC measurement in the chip file
 * (local_ops.lock_dec). Where a class mixes instructions of different
 * costs, the figure is an assumption, stated in docs/P54C.md.
 *
 * Shared by the launcher (sim_p54c.c: a chip file may change it) and the
 * compiled counters' assembler (tools/rck-as.c: it bakes the defaults
 * into the program, which the launcher checks against the chip's table).
 * Plain C, no rockcreek headers.
 */
#ifndef RCK_SIM_P54C_CPI_H
#define RCK_SIM_P54C_CPI_H

#include "p54c_abi.h"

static const struct {
    const char *key;
    double cpi;
} p54c_cpi_default[P54C_NCLASS] = {
    [P54C_C_INT] = {"int", 0.75},   /* 1 cycle, two pair in U+V: half pair */
    [P54C_C_MEM] = {"mem", 1.5},    /* mov r,m / m,r 1; alu r,m 2; m,r 3 */
    [P54C_C_BRANCH] = {"branch", 1.5}, /* 1 predicted; 3-4 mispredicted */
    [P54C_C_MUL] = {"mul", 10},     /* IMUL r32 10 */
    [P54C_C_DIV] = {"div", 41},     /* DIV r32 41 (IDIV 46) */
    [P54C_C_FADD] = {"fadd", 2},    /* FADD throughput 1, latency 3 */
    [P54C_C_FMUL] = {"fmul", 3},    /* FMUL throughput 2, latency 3 */
    [P54C_C_FDIV] = {"fdiv", 39},   /* FDIV 39 (extended precision) */
    [P54C_C_FSQRT] = {"fsqrt", 70}, /* FSQRT 70 */
    [P54C_C_STRING] = {"string", 1},/* REP MOVSD ~1 per iteration */
    [P54C_C_OTHER] = {"other", 36}, /* locked RMW on the SCC: 35-39 */
};

/* @return @p cycles in the counters' fixed point (1/P54C_FIX cycle),
 * rounded to the nearest unit. */
static inline uint32_t p54c_units_of(double cycles)
{
    double u = cycles * P54C_FIX + 0.5;
    return u <= 0 ? 0u : (uint32_t)u;
}

/* The default table in those units: what the compiled counters carry. */
static inline void p54c_default_units(uint32_t out[P54C_NCLASS])
{
    for (int k = 0; k < P54C_NCLASS; k++)
        out[k] = p54c_units_of(p54c_cpi_default[k].cpi);
}

#endif
