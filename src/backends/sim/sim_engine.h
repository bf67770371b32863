/*
 * The engine (sim_engine.c): the run token, the order of events, park and
 * wake, the horizon, the watchdog, deadlock detection. It knows no model
 * and no output: what it needs of the parts above it (the lazy-write
 * queue, the compute clock around a sleep, the reports, the segment's
 * view) it reaches through the hooks the HAL slots register
 * (sim_engine_set_hooks). The invariants are at the top of sim_state.h.
 */
#ifndef RCK_SIM_ENGINE_H
#define RCK_SIM_ENGINE_H

#include "sim_state.h"

/* ---- engine (sim_engine.c) ---- */
/** What the engine reaches of the parts above it, registered by the HAL
 * slots (sim.c, sim_engine_set_hooks) before the engine runs: the engine
 * calls no other file of the sim but the schedule seeds, so it knows no
 * model and no output (docs/SIM.md, "Source files"). */
typedef struct {
    /** The lazy-write queue (sim_lazy.c): the first queued write, its key
     *  in *t, *ue; 0 if none. */
    int (*first)(sim_hdr_t *h, uint64_t *t, int *ue);
    /** Apply every queued write with key <= (t, ue), in key order. */
    void (*apply)(sim_t *s, uint64_t t, int ue);
    /** The compute model: the core is about to sleep, and woke up. */
    void (*sleep)(sim_t *s);
    void (*woke)(sim_t *s);
    /** The report: every parked core's wait (deadlock); UE @p k outside
     *  the HAL for @p secs seconds holds everyone up (the watchdog). */
    void (*deadlock)(sim_hdr_t *h);
    void (*spinner)(sim_hdr_t *h, int k, double secs);
    /** The segment: a view of it for a process without a core. */
    void (*view)(sim_t *v, sim_hdr_t *h);
} sim_engine_hooks_t;
void sim_engine_set_hooks(const sim_engine_hooks_t *hooks);
/** The P54C model's booking in time order, as the engine reaches it
 * (sim_p54c.c registers it): when the earliest core is one stopped in the
 * middle of booking a compute slice, the holder books that core's next
 * step for it instead of handing it the token. @p step gets the core and
 * its horizon (the earliest other core: @p hz_vt, @p hz_ue) and returns
 * 0 when it booked a step and the core stopped again (its clock and wake
 * time moved to the new stop), else nonzero (nothing booked: the core is
 * not stopped or cannot be booked for here; or its slice is booked whole
 * and it must run). */
void sim_engine_set_book(int (*step)(sim_t *s, int ue, uint64_t hz_vt,
                                     int hz_ue));
sim_ue_t *sim_ue(sim_hdr_t *h, int ue);
/** Give the token to the earliest runnable UE, or find a deadlock. */
void sim_engine_start(sim_hdr_t *h);
/** The launcher saw a UE end (job_core_exited). */
void sim_engine_core_exited(sim_hdr_t *h, int ue, int failed);
/** Wait until this UE holds the token (attach). */
rck_status_t sim_engine_await(sim_t *s);
/** Invariant 2 before an event on shared state; may hand over. */
rck_status_t sim_engine_order(sim_t *s);
/** Park (wake/state/conds set by the caller) until the token returns. */
rck_status_t sim_engine_park(sim_t *s);
/** Leave the runnable set (detach, exit); passes the token on. */
void sim_engine_leave(sim_t *s, uint32_t end);
/** A parked UE @p w may now continue at @p t (if earlier than planned). */
void sim_engine_wake(sim_t *s, int w, uint64_t t, int which);
/** The condition that was to wake parked UE @p w no longer holds. */
void sim_engine_unwake(sim_t *s, int w);
/** At a HAL call: get back in line if the watchdog took the token. */
void sim_engine_reclaim(sim_t *s);
/** Give the token to the earliest core (applying the queued writes that
 *  come before it); -1 and a deadlock check when nobody can run. */
int sim_engine_settle(sim_t *s, uint64_t *t_out);
/** Recompute the horizon after getting the token. */
void sim_engine_horizon(sim_t *s);
/** No core can issue a request before this any more (ticks): the earliest
 *  clock among the cores that may still run, parked ones included (lazy
 *  parking can wake a core at its own, earlier, time), less the
 *  lookahead. A lower bound for the memory controllers' queues. */
uint64_t sim_engine_floor(sim_t *s);
/** The earliest clock among the other cores that may still run (SIM_INF:
 *  none), without the lookahead. */
uint64_t sim_engine_others(sim_t *s);
/** The same for UE @p ue, by any holder. */
uint64_t sim_engine_others_of(sim_hdr_t *h, int ue);
/** UE @p ue (dormant) joins the run at this core's time (rck_hal_spawn);
 *  sim_engine_unjoin undoes it before its process was asked for. */
void sim_engine_join(sim_t *s, int ue);
void sim_engine_unjoin(sim_t *s, int ue);
/** Status for an aborted run. */
rck_status_t sim_engine_abort_status(sim_hdr_t *h);
/** Wake every core (abort). */
void sim_engine_wake_all(sim_hdr_t *h);

#endif
