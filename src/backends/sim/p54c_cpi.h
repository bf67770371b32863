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

/* The defaults, one constant per class: the table below (the compiled
 * counters bake it in) and the sim's parameter schema (sim_costs.h,
 * "p54c.cpi.*", which a chip file may change) both read them. */
#define P54C_CPI_INT 0.75    /* 1 cycle, two pair in U+V: half pair */
#define P54C_CPI_MEM 1.5     /* mov r,m / m,r 1; alu r,m 2; m,r 3 */
#define P54C_CPI_BRANCH 1.5  /* 1 predicted; 3-4 mispredicted */
#define P54C_CPI_MUL 10      /* IMUL r32 10 */
#define P54C_CPI_DIV 41      /* DIV r32 41 (IDIV 46) */
#define P54C_CPI_FADD 2      /* FADD throughput 1, latency 3 */
#define P54C_CPI_FMUL 3      /* FMUL throughput 2, latency 3 */
#define P54C_CPI_FDIV 39     /* FDIV 39 (extended precision) */
#define P54C_CPI_FSQRT 70    /* FSQRT 70 */
#define P54C_CPI_STRING 1    /* REP MOVSD ~1 per iteration */
#define P54C_CPI_OTHER 36    /* locked RMW on the SCC: 35-39 */

static const struct {
    const char *key;
    double cpi;
} p54c_cpi_default[P54C_NCLASS] = {
    [P54C_C_INT] = {"int", P54C_CPI_INT},
    [P54C_C_MEM] = {"mem", P54C_CPI_MEM},
    [P54C_C_BRANCH] = {"branch", P54C_CPI_BRANCH},
    [P54C_C_MUL] = {"mul", P54C_CPI_MUL},
    [P54C_C_DIV] = {"div", P54C_CPI_DIV},
    [P54C_C_FADD] = {"fadd", P54C_CPI_FADD},
    [P54C_C_FMUL] = {"fmul", P54C_CPI_FMUL},
    [P54C_C_FDIV] = {"fdiv", P54C_CPI_FDIV},
    [P54C_C_FSQRT] = {"fsqrt", P54C_CPI_FSQRT},
    [P54C_C_STRING] = {"string", P54C_CPI_STRING},
    [P54C_C_OTHER] = {"other", P54C_CPI_OTHER},
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
