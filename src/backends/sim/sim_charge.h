/*
 * The cost model, as one core charges it (with sim_cost.c, the pure
 * functions of the chip): the only place where a cost of the chip file
 * (the chip's cost_* and L2 flush fields, SIM_L1_HIT_CYCLES) is turned into
 * ticks, and where ticks are charged to a core's clock and its categories
 * (advance*). Everything else asks here what an operation costs and
 * charges it with advance().
 *
 * Owns: the per-core cached costs (sim_t.cost_lw, cost_dr, mhz), the
 * charging of virtual time. May call: sim_cost.c. Included by the HAL
 * slots (sim.c), the memory model (sim_mem.c) and the waits (sim_wait.c).
 */
#ifndef RCK_SIM_CHARGE_H
#define RCK_SIM_CHARGE_H

#include "sim_cost.h"
#include "sim_costs.h"
#include "sim_state.h"
#include "sim_power.h"

#include <math.h>
#include <stdlib.h>

static inline int my_fdiv(sim_t *s)
{
    return (int)s->cores[s->core].fdiv;
}

/* The clock of this core's current divider (its table entry, 0 if none),
 * looked up again only when the divider changed. */
static inline double my_mhz(sim_t *s)
{
    int fdiv = my_fdiv(s);

    if (fdiv != s->mhz_fdiv) {
        s->mhz_fdiv = fdiv;
        s->mhz = rck_chip_fdiv_mhz(s->chip, fdiv);
    }
    return s->mhz;
}

/* sim_core_ticks for this core's divider. */
static inline uint64_t core_ticks(sim_t *s, double cycles)
{
    return sim_ticks_at_mhz(s->chip, my_mhz(s), cycles);
}

/* sim_cost_line_write / sim_cost_dword_read from this core (pure
 * functions of the two cores: kept per target). */
static inline uint64_t cost_line_write(sim_t *s, int to)
{
    if (s->cost_lw == NULL)
        return sim_cost_line_write(s->chip, s->core, to);
    if (s->cost_lw[to] == 0)
        s->cost_lw[to] = sim_cost_line_write(s->chip, s->core, to);
    return s->cost_lw[to];
}

static inline uint64_t cost_dword_read(sim_t *s, int to)
{
    if (s->cost_dr == NULL)
        return sim_cost_dword_read(s->chip, s->core, to);
    if (s->cost_dr[to] == 0)
        s->cost_dr[to] = sim_cost_dword_read(s->chip, s->core, to);
    return s->cost_dr[to];
}

/* advance() in its parts. The core's own clock, which counts its cycles
 * at its divider's frequency @p mhz (DVFS; <= 0: the base clock): */
static inline void charge_own_clock(sim_ue_t *me, const rck_chip_t *c,
                                    uint64_t ticks, double mhz)
{
    if (mhz <= 0 || mhz == c->core_mhz)
        me->cyc += ticks;
    else
        me->cyc += (uint64_t)llround((double)ticks * mhz / c->core_mhz);
}

/* where the cycles went (category @p cat, CAT_*): */
static inline void charge_category(sim_ue_t *me, uint64_t ticks, int cat)
{
    me->cat[cat] += ticks;
}

/* virtual time itself: */
static inline void charge_time(sim_ue_t *me, uint64_t ticks)
{
    me->vt += ticks;
}

/* Charge @p ticks of category @p cat to this core: the energy they take
 * (the power model, at the core's clock), its virtual time, the category,
 * its own clock. */
static inline void advance(sim_t *s, uint64_t ticks, int cat)
{
    sim_ue_t *me = s->me;
    double mhz = my_mhz(s);

    sim_power_charge(s, ticks, cat, mhz);
    charge_time(me, ticks);
    charge_category(me, ticks, cat);
    charge_own_clock(me, s->chip, ticks, mhz);
}

static inline void advance_to(sim_t *s, uint64_t t, int cat)
{
    if (t > s->me->vt)
        advance(s, t - s->me->vt, cat);
}

static inline void advance_cycles(sim_t *s, double cycles, int cat)
{
    advance(s, core_ticks(s, cycles), cat);
}

/* The per-target cost caches of a core (sim_t.cost_lw, cost_dr; a failed
 * allocation leaves them NULL: the costs are then computed every time). */
static inline void sim_charge_init(sim_t *s)
{
    s->cost_lw = calloc((size_t)s->chip->ncores, sizeof(*s->cost_lw));
    s->cost_dr = calloc((size_t)s->chip->ncores, sizeof(*s->cost_dr));
}

static inline void sim_charge_fini(sim_t *s)
{
    free(s->cost_lw);
    free(s->cost_dr);
    s->cost_lw = s->cost_dr = NULL;
}

/* One uncached DWORD read of shared DRAM from controller @p mc, there and
 * back (the poll of a wait on a shared-DRAM word). */
static inline uint64_t cost_shm_poll(sim_t *s, int mc)
{
    const rck_chip_t *ch = s->chip;
    sim_tx_cost_t k;

    sim_cost_tx(ch, my_fdiv(s),
                sim_hops_to_tile(ch, s->core, ch->mc[mc].x, ch->mc[mc].y),
                SIM_TX_DW_READ, &k);
    return k.before + 2 * k.one_way + k.mem;
}

/* The fixed costs of the chip file, in ticks of this core's clock. */
static inline uint64_t cost_null_syscall(sim_t *s)
{
    return core_ticks(s, sim_costs(s->chip)->cost_null_syscall);
}

static inline uint64_t cost_cl1invmb(sim_t *s)
{
    return core_ticks(s, sim_costs(s->chip)->cost_cl1invmb);
}

static inline uint64_t cost_rdtsc(sim_t *s)
{
    return core_ticks(s, sim_costs(s->chip)->cost_rdtsc);
}

static inline uint64_t cost_l1_hit(sim_t *s)
{
    return core_ticks(s, SIM_L1_HIT_CYCLES);
}

/* Writing back @p dirty and dropping @p clean L2 lines (sim_dcache_flush):
 * the cheaper of the two published methods, reading a flush area through
 * the whole L2 (l2_full_flush_cycles), or a system call that flushes line
 * by line (l2_flush_per_line_cycles clean / dirty). */
static inline uint64_t cost_dcache_flush(sim_t *s, uint64_t clean,
                                         uint64_t dirty)
{
    const rck_chip_t *ch = s->chip;
    double cyc = sim_costs(ch)->cost_null_syscall +
                 (double)clean * sim_costs(ch)->l2_flush_line_clean +
                 (double)dirty * sim_costs(ch)->l2_flush_line_dirty;

    if (cyc > sim_costs(ch)->l2_full_flush_cycles)
        cyc = sim_costs(ch)->l2_full_flush_cycles;
    return sim_core_ticks(ch, my_fdiv(s), cyc);
}

#endif
