/*
 * Waits and wake-ups (sim_wait.c).
 */
#ifndef RCK_SIM_WAIT_H
#define RCK_SIM_WAIT_H

#include "sim_state.h"

/** The first of @p n conditions that holds now, or -1 (inline: every
 * wait and every wake-up evaluates them). */
static inline int sim_conds_eval(sim_hdr_t *h, const rck_hal_cond_t *c,
                                 int n)
{
    for (int i = 0; i < n; i++) {
        if (rck_be_cond_holds(sim_word(h, &c[i]), &c[i]))
            return i;
    }
    return -1;
}

/** When the value a condition looks at became visible. */
uint64_t sim_cond_vis(sim_t *s, const rck_hal_cond_t *c);
/** One poll of a condition by this core, in ticks. */
uint64_t sim_cond_poll_cost(sim_t *s, const rck_hal_cond_t *c);
/** The mesh traffic of one poll (when the wait is satisfied). */
void sim_cond_poll_traffic(sim_t *s, const rck_hal_cond_t *c);
/** A write to [off, off + len) of @p space with key (tw, uw) happened:
 * wake the parked waits it may satisfy. */
void sim_notify(sim_t *s, rck_space_t space, int core, uint32_t off,
                size_t len, uint64_t tw, int uw);
/** Look at the parked waits on shared DRAM words (every ordered event). */
void sim_poll_shm_waiters(sim_t *s);
/** Publish this core's wait before it parks, and take it back after. */
void sim_wait_publish(sim_t *s, const rck_hal_cond_t *conds, int nc,
                      unsigned flags, rck_hal_t *hal);
void sim_wait_unpublish(sim_t *s);
int sim_conds_have_mpb(const rck_hal_cond_t *c, int n);
uint64_t sim_ns_to_ticks(const rck_chip_t *c, int64_t ns);
/** A wait that blocked, as a slice of the trace. */
void sim_trace_wait(sim_t *s, const rck_hal_cond_t *conds, int nc,
                    uint64_t start, rck_status_t st);
/** May this wait park at once, without its turn (invariant 5)? */
int sim_wait_park_now(sim_t *s, rck_hal_t *hal, const rck_hal_cond_t *conds,
                      int nc, unsigned flags);

#endif
