/*
 * The chip file's p54c section (docs/P54C.md, "Settings"): the cache
 * geometry and CPI table the P54C model takes from the chip. They are rows
 * of the sim's parameter schema (sim_costs.h, "p54c.*"), so the chip loader
 * has read and checked them (type, range, unknown keys) with the rest of
 * the chip; this copies them into the job.
 *
 * Owns: sim_p54c_chip_section. May call: the schema's accessors
 * (sim_costs.h).
 */
#include "sim_state.h"
#include "sim_p54c.h"
#include "sim_costs.h"

/* The chip's "p54c" parameters into @p p. Cache sizes otherwise from the
 * chip (l1d_bytes, l2_bytes; l1i_bytes 0: as l1d_bytes). */
rck_status_t sim_p54c_chip_section(sim_p54c_job_t *p, const rck_chip_t *c)
{
    const sim_costs_t *k = sim_costs(c);
    const double cpi[P54C_NCLASS] = {
        [P54C_C_INT] = k->p54c_cpi_int,
        [P54C_C_MEM] = k->p54c_cpi_mem,
        [P54C_C_BRANCH] = k->p54c_cpi_branch,
        [P54C_C_MUL] = k->p54c_cpi_mul,
        [P54C_C_DIV] = k->p54c_cpi_div,
        [P54C_C_FADD] = k->p54c_cpi_fadd,
        [P54C_C_FMUL] = k->p54c_cpi_fmul,
        [P54C_C_FDIV] = k->p54c_cpi_fdiv,
        [P54C_C_FSQRT] = k->p54c_cpi_fsqrt,
        [P54C_C_STRING] = k->p54c_cpi_string,
        [P54C_C_OTHER] = k->p54c_cpi_other,
    };

    if (k->p54c_l1i_bytes > 0)
        p->l1i_bytes = (uint32_t)k->p54c_l1i_bytes;
    p->l1_ways = (uint32_t)k->p54c_l1_ways;
    p->l2_ways = (uint32_t)k->p54c_l2_ways;
    for (int i = 0; i < P54C_NCLASS; i++)
        p->cpi[i] = cpi[i];
    return RCK_OK;
}
