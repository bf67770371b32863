/*
 * The sim backend's HAL slots: every operation of rck_sim_ops, each made
 * of the same steps: enter (charge the compute since the last HAL call),
 * order (become the earliest core: sim_engine_order, which may hand the
 * token over and sleep), effect (the memory model, sim_mem.c, or the
 * chip state in the segment), charge (the cost model, sim_charge.h),
 * wake (sim_notify, sim_wait.c) and leave.
 *
 * Every slot that touches state other cores can see starts with begin()
 * (enter, then order). Plain writes start with write_begin() instead (a
 * core that is not the earliest queues them: invariant 5 in sim_state.h),
 * and a wait that must park may do so without its turn
 * (sim_wait_park_now). Slots that only look at this core's own state (its
 * clock, its L1, its console) skip the ordering. Functional effects happen
 * at the issue time of the event; writes record when they become visible
 * (completion), and a parked wait resumes at that visibility time plus one
 * poll.
 *
 * Owns: the ops table, interrupts (pin and GIC), the job and attach
 * slots, the registration of the lazy-write hook with the engine. May
 * call every other file of the sim backend; nothing calls up into it.
 */
#include "sim.h"
#include "sim_charge.h"
#include "sim_lazy.h"
#include "sim_mem.h"
#include "sim_wait.h"
#include "sim_seg.h"
#include "sim_engine.h"
#include "sim_power.h"
#include "sim_sched.h"
#include "sim_compute.h"
#include "sim_p54c.h"
#include "sim_monitor.h"
#include "sim_report.h"
#include "sim_l1.h"
#include "sim_cost.h"
#include "sim_stack.h"
#include "common/chipstate.h"
#include "common/defaults.h"

#include "rck/log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static sim_t *sim_live; /* the attached core of this process, for atexit */

/* The parts above the engine, as the engine reaches them (it calls none
 * of them directly). */
static const sim_engine_hooks_t engine_hooks = {
    .first = sim_pending_first,
    .apply = sim_pending_apply,
    .sleep = sim_compute_sleep,
    .woke = sim_compute_woke,
    .deadlock = sim_report_deadlock,
    .spinner = sim_report_spinner,
    .view = sim_view_init,
};

/* ---- the job (the launcher) ---- */

static rck_status_t sim_job_create(const rck_job_params_t *p,
                                   rck_job_t **job_out)
{
    rck_status_t st;

    sim_engine_set_hooks(&engine_hooks);
    st = sim_seg_create(p, job_out);
    if (st != RCK_OK)
        return st;
    st = sim_p54c_job_create((*job_out)->hdr);
    if (st != RCK_OK) {
        sim_seg_destroy(*job_out);
        *job_out = NULL;
    }
    return st;
}

static rck_status_t sim_job_child_setup(rck_job_t *job, int ue)
{
    return sim_seg_child_setup(job, ue);
}

/* A core under a P54C model (QEMU or native): its stack and arguments at
 * fixed addresses (sim_stack.c). @return the command to exec, or NULL. */
static char **sim_job_child_wrap(rck_job_t *job, int ue, char *const *argv)
{
    const sim_p54c_job_t *p = &job->hdr->p54c;
    size_t q = sim_stack_quantum(p->l1i_bytes, p->l1d_bytes, p->l1_ways,
                                 p->l2_bytes, p->l2_ways);
    char **a = NULL, **v;

    if (p->fd >= 0 && sim_stack_argv(argv, &a) != RCK_OK)
        _exit(127);
    v = sim_p54c_child_wrap(job->hdr, ue, a != NULL ? a : argv);
    if (p->fd >= 0 &&
        sim_stack_pad(a != NULL ? a : argv, v != NULL, q) == RCK_ERR_NOMEM)
        _exit(127);
    return v != NULL ? v : a;
}

static int sim_job_core_attached(rck_job_t *job, int ue)
{
    if (job == NULL || ue < 0 || ue >= (int)job->hdr->nues)
        return 1;
    return atomic_load(&job->hdr->ue_state[ue]) != UE_ABSENT;
}

static void sim_job_core_exited(rck_job_t *job, int ue, int failed)
{
    if (job == NULL || ue < 0 || ue >= (int)job->hdr->nues)
        return;
    sim_engine_core_exited(job->hdr, ue, failed);
}

static int sim_job_tick(rck_job_t *job)
{
    return sim_progress_tick(job->hdr);
}

static rck_status_t sim_job_destroy(rck_job_t *job)
{
    rck_status_t st;

    if (job == NULL)
        return RCK_OK;
    sim_progress_end(job->hdr);
    st = sim_report_write(job->hdr);
    sim_p54c_job_destroy(job->hdr);
    sim_seg_destroy(job);
    return st;
}

/* ---- entry and exit of every HAL call ---- */

static void enter(sim_t *s)
{
    uint64_t exit_t = s->me->vt; /* the previous call's exit */
    /* a call's entry: the P54C model may get back in line meanwhile */
    double cyc = sim_compute_take(s, 1);

    /* seq_cst: the handshake with the watchdog (sim_engine.c, steal) */
    atomic_store(&s->me->in_hal, 1);
    s->me->events++;
    if (cyc > 0)
        advance_cycles(s, cyc, CAT_COMPUTE);
    if (s->hdr->sched_seed != 0)
        advance(s, sim_sched_compute_ticks(s->hdr, s->ue, s->me->events),
                CAT_COMPUTE);
    if (s->trace.buf != NULL)
        sim_trace_context(s, exit_t);
    if (!s->unordered && atomic_load(&s->hdr->token) != s->ue)
        sim_engine_reclaim(s);
}

static void leave(sim_t *s)
{
    /* only this core writes it */
    atomic_store_explicit(
        &s->me->hal_seq,
        atomic_load_explicit(&s->me->hal_seq, memory_order_relaxed) + 1,
        memory_order_relaxed);
    atomic_store_explicit(&s->me->in_hal, 0, memory_order_release);
    sim_compute_mark(s);
}

/* Enter, then become the earliest core. @return 0 when the event is in
 * order, -1 when the run was aborted (the call then runs unordered). */
static int begin_entered(sim_t *s)
{
    if (sim_engine_order(s) != RCK_OK)
        return -1;
    s->floor_valid = 0;
    if (s->hdr->nparked_shm > 0)
        sim_poll_shm_waiters(s);
    return 0;
}

static int begin(sim_t *s)
{
    enter(s);
    if (sim_engine_order(s) != RCK_OK)
        return -1;
    s->floor_valid = 0;
    if (s->hdr->nparked_shm > 0)
        sim_poll_shm_waiters(s);
    return 0;
}

/* The prologue and epilogue of the HAL slots, in one place:
 * SIM_CALL(s, SIM_ORDERED) { effect; advance(...); } runs the block after
 * begin() (SIM_ORDERED: state other cores see; an aborted run goes on
 * unordered) or enter() alone (SIM_LOCAL: the core's own state), then
 * leave(). The block must not return, break or goto out of itself. The
 * slots whose writes may be queued (write_begin) and the wait, which
 * parks in the middle, keep their own. */
enum { SIM_LOCAL = 0, SIM_ORDERED = 1 };

static inline void sim_call_enter(sim_t *s, int how)
{
    if (how == SIM_ORDERED)
        begin(s);
    else
        enter(s);
}

#define SIM_CALL(s, how)                                                      \
    for (int sim_call_once_ = (sim_call_enter((s), (how)), 1);               \
         sim_call_once_; sim_call_once_ = 0, leave(s))

/* Enter a call that only writes. @return 1 when the write is to be
 * queued (this core is not the earliest; nothing is ordered), 0 when it
 * is to be done now, in order (begin()'s work done). */
static int write_begin(sim_t *s, uint32_t len)
{
    sim_hdr_t *h = s->hdr;
    uint64_t skip;

    enter(s);
    if (s->unordered || atomic_load_explicit(&h->abort,
                                             memory_order_relaxed) != 0 ||
        h->lookahead > 0)
        goto ordered;
    if (sim_before(s->me->vt, s->ue, s->hz_vt, s->hz_ue)) {
        if (h->npending > 0)
            sim_pending_apply(s, s->me->vt, s->ue);
        if (sim_before(s->me->vt, s->ue, s->hz_vt, s->hz_ue))
            goto ordered; /* the earliest: no need to queue */
    }
    if (sim_pending_fits(sim_hdr_pwq(h, s->ue), len, &skip))
        return 1;
ordered:
    if (sim_engine_order(s) != RCK_OK)
        return 0;
    s->floor_valid = 0;
    if (h->nparked_shm > 0)
        sim_poll_shm_waiters(s);
    return 0;
}

/* ---- spawning (rck_hal_spawn) ---- */

/* In virtual-time order: the dormant UEs join at this core's time. The
 * start-up of a process on the chip (SCC Linux) is not modelled. */
static rck_status_t sim_spawn_claim(rck_hal_t *hal, int n, int *ues)
{
    sim_t *s = sim_of(hal);
    int got = 0;

    SIM_CALL(s, SIM_ORDERED) {
        for (int ue = 0; ue < (int)s->hdr->nues && got < n; ue++)
            if (atomic_load(sim_state(s->hdr, ue)) == UE_DORMANT)
                ues[got++] = ue;
        if (got == n)
            for (int i = 0; i < n; i++)
                sim_engine_join(s, ues[i]);
    }
    return got == n ? RCK_OK : RCK_ERR_BUSY;
}

static void sim_spawn_release(rck_hal_t *hal, int n, const int *ues)
{
    sim_t *s = sim_of(hal);

    for (int i = 0; i < n; i++)
        sim_engine_unjoin(s, ues[i]);
}

/* ---- attach ---- */

static void sim_atexit(void);

static rck_status_t sim_attach(rck_hal_t *hal)
{
    static int atexit_done;
    rck_status_t st;
    sim_t *s;

    sim_engine_set_hooks(&engine_hooks);
    st = sim_seg_attach(hal, &s);
    if (st != RCK_OK)
        return st;
    atomic_store(&s->me->pid, (int32_t)getpid());
    if (atomic_load(sim_state(s->hdr, s->ue)) == UE_JOIN) {
        /* spawned: it starts at the spawner's time (its wake time) */
        s->me->vt = *sim_wake(s->hdr, s->ue);
        atomic_store(sim_state(s->hdr, s->ue), UE_RUN);
    } else {
        s->me->vt = 0;
        *sim_wake(s->hdr, s->ue) = 0;
        atomic_store(sim_state(s->hdr, s->ue), UE_RUN);
        if (atomic_fetch_add(&s->hdr->settled, 1) + 1 == s->hdr->nstart)
            sim_engine_start(s->hdr);
    }
    st = sim_engine_await(s);
    if (st != RCK_OK) {
        rck_error("sim: the run ended before this core could start: %s",
                  rck_status_string(st));
        atomic_store(sim_state(s->hdr, s->ue), UE_DONE);
        hal->backend = NULL;
        sim_seg_detach(s);
        return st;
    }
    sim_engine_horizon(s);
    sim_trace_open(s);
    sim_compute_init(s);
    sim_live = s;
    if (!atexit_done) {
        atexit_done = 1;
        atexit(sim_atexit);
        /* runs first: a deadlocked core leaves, then ends with status 3 */
        rck_be_deadlock_exit_setup(sim_atexit);
    }
    return RCK_OK;
}

/* The HAL's own part of the attach is done: the program's work is charged
 * from here (its reads of the environment, its allocations are not). */
static void sim_attach_end(rck_hal_t *hal)
{
    sim_t *s = sim_of(hal);

    if (s != NULL)
        sim_compute_start(s);
}

/* Leave the simulation: the core's time stops here. */
static void sim_quit(sim_t *s, uint32_t end)
{
    sim_compute_start(s); /* (rck_hal_open failed after the attach) */
    enter(s);
    sim_engine_leave(s, end);
    s->detached = 1;
    atomic_store(&s->me->in_hal, 0);
    sim_trace_close(s);
    if (s->hdr->private_job)
        sim_report_write(s->hdr);
}

static void sim_detach(rck_hal_t *hal)
{
    sim_t *s = sim_of(hal);

    if (s == NULL)
        return;
    if (!s->detached)
        sim_quit(s, UE_END_DETACHED);
    if (sim_live == s)
        sim_live = NULL;
    sim_compute_fini(s);
    sim_seg_detach(s);
    hal->backend = NULL;
}

/* A program that returns from main without RCCE_finalize (or calls exit)
 * still leaves the simulation in order, if it holds the token; otherwise
 * (exit from a signal handler while asleep) the launcher acts for it. */
static void sim_atexit(void)
{
    sim_t *s = sim_live;

    if (s == NULL || s->detached)
        return;
    if (!s->unordered && atomic_load(&s->hdr->token) != s->ue &&
        atomic_load(sim_state(s->hdr, s->ue)) != UE_FREE)
        return;
    sim_quit(s, UE_END_DETACHED);
}

/* ---- MPB ---- */

static rck_status_t sim_mpb_map(rck_hal_t *hal, int core, void **base)
{
    *base = mpb_at(sim_of(hal), core, 0);
    return RCK_OK;
}

static rck_status_t sim_mpb_write(rck_hal_t *hal, int core, uint32_t off,
                                  const void *src, size_t len)
{
    sim_t *s = sim_of(hal);

    if (write_begin(s, (uint32_t)len)) {
        advance(s, sim_mpb_write_lines(s, core, off, src, len, 1), CAT_MPB);
    } else {
        uint64_t t0 = s->me->vt;
        advance(s, sim_mpb_write_lines(s, core, off, src, len, 0), CAT_MPB);
        sim_notify(s, RCK_SPACE_MPB, core, off, len, t0, s->ue);
    }
    leave(s);
    return RCK_OK;
}

static rck_status_t sim_mpb_read(rck_hal_t *hal, int core, uint32_t off,
                                 void *dst, size_t len)
{
    sim_t *s = sim_of(hal);

    SIM_CALL(s, SIM_ORDERED) {
        advance(s, sim_mpb_read_l1(s, core, off, dst, len), CAT_MPB);
    }
    return RCK_OK;
}

static rck_status_t sim_mpb_copy(rck_hal_t *hal, int dst_core,
                                 uint32_t dst_off, int src_core,
                                 uint32_t src_off, size_t len)
{
    sim_t *s = sim_of(hal);
    unsigned char *buf = malloc(len);
    uint64_t t0;

    if (buf == NULL)
        return RCK_ERR_NOMEM;
    SIM_CALL(s, SIM_ORDERED) {
        advance(s, sim_mpb_read_l1(s, src_core, src_off, buf, len), CAT_MPB);
        t0 = s->me->vt;
        advance(s, sim_mpb_write_lines(s, dst_core, dst_off, buf, len, 0),
                CAT_MPB);
        sim_notify(s, RCK_SPACE_MPB, dst_core, dst_off, len, t0, s->ue);
    }
    free(buf);
    return RCK_OK;
}

static rck_status_t sim_mpb_store32(rck_hal_t *hal, int core, uint32_t off,
                                    uint32_t value)
{
    sim_t *s = sim_of(hal);

    if (write_begin(s, 4)) {
        advance(s,
                sim_mpb_write_lines(s, core, off,
                                    (const unsigned char *)&value, 4, 1),
                CAT_MPB);
    } else {
        uint64_t t0 = s->me->vt;
        advance(s,
                sim_mpb_write_lines(s, core, off,
                                    (const unsigned char *)&value, 4, 0),
                CAT_MPB);
        sim_notify(s, RCK_SPACE_MPB, core, off, 4, t0, s->ue);
    }
    leave(s);
    return RCK_OK;
}

static rck_status_t sim_mpb_load32(rck_hal_t *hal, int core, uint32_t off,
                                   uint32_t *value)
{
    sim_t *s = sim_of(hal);
    uint32_t v;

    SIM_CALL(s, SIM_ORDERED) {
        advance(s, sim_mpb_read_l1(s, core, off, (unsigned char *)&v, 4),
                CAT_MPB);
    }
    *value = v;
    return RCK_OK;
}

static void sim_cl1invmb(rck_hal_t *hal)
{
    sim_t *s = sim_of(hal);

    SIM_CALL(s, SIM_LOCAL) {
        sim_l1_invalidate(&s->l1);
        advance(s, cost_cl1invmb(s), CAT_MPB);
    }
}

/* The line writes were charged by mpb_write; pushing the buffer out adds
 * nothing the model distinguishes yet. */
static void sim_wcb_flush(rck_hal_t *hal)
{
    sim_t *s = sim_of(hal);

    SIM_CALL(s, SIM_LOCAL) {
    }
}

/* ---- TAS ---- */

static rck_status_t sim_tas_try(rck_hal_t *hal, int core, int *acquired)
{
    sim_t *s = sim_of(hal);

    SIM_CALL(s, SIM_ORDERED) {
        *acquired = rck_cs_tas_take(&s->cs, core);
        if (*acquired)
            sim_notify(s, RCK_SPACE_TAS, core, 0, 4, s->me->vt, s->ue);
        mesh_xfer(s, rck_chip_tile(s->chip, core), 0, 4);
        advance(s, cost_dword_read(s, core), CAT_OTHER);
    }
    return RCK_OK;
}

static rck_status_t sim_tas_release(rck_hal_t *hal, int core)
{
    sim_t *s = sim_of(hal);
    uint64_t cost;

    cost = cost_line_write(s, core);
    mesh_xfer(s, rck_chip_tile(s->chip, core), 4, 0);
    if (write_begin(s, 0)) {
        sim_pending_push(s, SIM_PW_TAS, core, 0, NULL, 0, cost);
        advance(s, cost, CAT_OTHER);
    } else {
        rck_cs_tas_free(&s->cs, core);
        uint64_t t0 = s->me->vt;
        if (!s->unordered)
            s->cores[core].tas_vis = t0 + cost;
        advance(s, cost, CAT_OTHER);
        sim_notify(s, RCK_SPACE_TAS, core, 0, 4, t0, s->ue);
    }
    leave(s);
    return RCK_OK;
}

/* ---- interrupts ---- */

static void irq_next_update(sim_t *s, int core)
{
    sim_core_t *c = &s->cores[core];
    const uint64_t *g = &s->gic[(size_t)core * (size_t)s->chip->ncores];
    uint64_t t = c->pin_at;

    for (int i = 0; i < s->chip->ncores; i++)
        t = sim_min(t, g[i]);
    c->irq_next = t;
}

static rck_status_t sim_irq_raise(rck_hal_t *hal, int core,
                                  rck_irq_kind_t kind)
{
    sim_t *s = sim_of(hal);
    sim_core_t *c = &s->cores[core];
    uint64_t cost, at;

    SIM_CALL(s, SIM_ORDERED) {
        cost = kind == RCK_IRQ_PIN
                   ? cost_line_write(s, core)
                   : sim_cost_fpga(s->chip, s->core, my_fdiv(s));
        at = s->me->vt + sim_cost_irq_delivery(s->chip, s->core, core);
        if (kind == RCK_IRQ_PIN) {
            mesh_xfer(s, rck_chip_tile(s->chip, core), 4, 0);
        } else {
            int sif = sim_tile_of_sif(s->chip);
            mesh_xfer(s, sif, 4, 0);
            sim_mesh_route(s->chip, s->links, sif, rck_chip_tile(s->chip, core),
                           4);
        }
        if (kind == RCK_IRQ_PIN) {
            if (c->pin_at != SIM_INF)
                rck_debug("interrupt to core %d lost: one is already pending",
                          core);
            else
                c->pin_at = at;
        } else {
            uint64_t *g = &s->gic[(size_t)core * (size_t)s->chip->ncores +
                                  (size_t)s->core];
            if (*g != SIM_INF)
                rck_debug("GIC interrupt %d -> %d lost: already pending",
                          s->core, core);
            else
                *g = at;
        }
        c->irq_next = sim_min(c->irq_next, at);
        if (!s->unordered && c->ue >= 0 && c->ue != s->ue) {
            sim_ue_t *u = &s->ues[c->ue];
            if (atomic_load_explicit(sim_state(s->hdr, c->ue),
                                     memory_order_relaxed) == UE_PARK &&
                (u->park_flags & (PARK_IRQ | PARK_HANDLER))) {
                uint64_t t = sim_max(at, u->vt);
                u->park_wake = sim_min(u->park_wake, t);
                sim_engine_wake(s, c->ue, t, u->sat_which);
            }
        }
        if (s->trace.buf != NULL)
            sim_trace_flow(s, kind == RCK_IRQ_PIN ? "interrupt (pin)"
                                                  : "interrupt (GIC)",
                           "irq", core, s->me->vt, s->me->vt + cost, at, 0);
        advance(s, cost, CAT_OTHER);
    }
    return RCK_OK;
}

/* Run the handler for every interrupt delivered by now (pin first, then
 * GIC ones by sender). The handler's own code is compute; each interrupt
 * costs the receiver a trap into the kernel and back. */
static int irq_run(sim_t *s, rck_hal_t *hal)
{
    sim_core_t *c = &s->cores[s->core];
    uint64_t *g = &s->gic[(size_t)s->core * (size_t)s->chip->ncores];
    int n = 0;

    if (hal->irq_handler == NULL || s->in_handler || c->irq_next > s->me->vt)
        return 0;
    s->in_handler = 1;
    if (c->pin_at <= s->me->vt) {
        c->pin_at = SIM_INF;
        irq_next_update(s, s->core);
        advance(s, cost_null_syscall(s), CAT_IRQ);
        s->me->irqs++;
        leave(s);
        hal->irq_handler(hal, RCK_IRQ_PIN, -1, hal->irq_arg);
        enter(s);
        n++;
    }
    for (int snd = 0; snd < s->chip->ncores; snd++) {
        if (g[snd] > s->me->vt)
            continue;
        g[snd] = SIM_INF;
        irq_next_update(s, s->core);
        advance(s, cost_null_syscall(s), CAT_IRQ);
        s->me->irqs++;
        leave(s);
        hal->irq_handler(hal, RCK_IRQ_GIC, snd, hal->irq_arg);
        enter(s);
        n++;
    }
    s->in_handler = 0;
    return n;
}

static rck_status_t sim_irq_poll(rck_hal_t *hal, int *count)
{
    sim_t *s = sim_of(hal);

    SIM_CALL(s, SIM_ORDERED) {
        *count = irq_run(s, hal);
    }
    return RCK_OK;
}

/* ---- waiting ---- */

/* The run was aborted: look once, never block. */
static rck_status_t wait_unordered(sim_t *s, rck_hal_t *hal,
                                   const rck_hal_cond_t *conds, int nc,
                                   unsigned flags, int *which)
{
    rck_status_t st = sim_engine_abort_status(s->hdr);
    int i;

    if ((flags & RCK_WAIT_IRQ) && s->cores[s->core].irq_next != SIM_INF) {
        irq_run(s, hal);
        *which = -1;
        return RCK_INTERRUPTED;
    }
    i = sim_conds_eval(s->hdr, conds, nc);
    if (i >= 0) {
        *which = i;
        return RCK_OK;
    }
    atomic_store(&s->me->end, st == RCK_ERR_DEADLOCK ? UE_END_DEADLOCK
                                                     : UE_END_ABORTED);
    if (st == RCK_ERR_DEADLOCK)
        rck_be_deadlock_exit_arm();
    return st;
}

static rck_status_t sim_wait(rck_hal_t *hal, const rck_hal_cond_t *conds,
                             int nc, unsigned flags, int64_t timeout_ns,
                             int *which)
{
    sim_t *s = sim_of(hal);
    sim_ue_t *me = s->me;
    int want_irq = (flags & RCK_WAIT_IRQ) != 0;
    uint64_t start, deadline;
    int woke = 0, parked = 0, lazy, early = -1;
    rck_status_t st;

    if (nc > SIM_MAX_CONDS) {
        rck_error("sim: a wait on %d words (at most %d)", nc, SIM_MAX_CONDS);
        return RCK_ERR_UNSUPPORTED;
    }
    enter(s);
    lazy = sim_wait_park_now(s, hal, conds, nc, flags);
    if (!lazy && begin_entered(s) != 0) {
        st = wait_unordered(s, hal, conds, nc, flags, which);
        leave(s);
        return st;
    }
    start = me->vt;
    deadline = SIM_INF;
    if (timeout_ns >= 0) {
        uint64_t d = sim_ns_to_ticks(s->chip, timeout_ns);
        deadline = d >= SIM_INF - start ? SIM_INF - 1 : start + d;
    }
    for (;;) {
        int irq_matters = want_irq || hal->irq_handler != NULL;
        int i;

        if (lazy) {
            lazy = 0;
            goto park;
        }
        if (early < 0 && irq_matters &&
            s->cores[s->core].irq_next <= me->vt) {
            /* Without a handler the core still takes the trap that tells
             * it an interrupt is pending (the published delivery figure
             * includes it; see sim_cost_irq_delivery). */
            if (irq_run(s, hal) == 0 && want_irq)
                advance(s, cost_null_syscall(s), CAT_IRQ);
            if (want_irq) {
                *which = -1;
                st = RCK_INTERRUPTED;
                break;
            }
            if (sim_engine_order(s) != RCK_OK) {
                st = wait_unordered(s, hal, conds, nc, flags, which);
                break;
            }
            woke = 0;
        }
        /* satisfied at its own time by an older write (try_wake): as if
         * it had not parked, whatever happened since */
        i = early >= 0 ? early : sim_conds_eval(s->hdr, conds, nc);
        early = -1;
        if (i >= 0) {
            if (!woke)
                advance_to(s,
                           sim_max(me->vt, sim_cond_vis(s, &conds[i])) +
                               sim_cond_poll_cost(s, &conds[i]),
                           CAT_WAIT);
            sim_cond_poll_traffic(s, &conds[i]);
            /* The wait polls as RCCE does: CL1INVMB, then read. */
            if (sim_conds_have_mpb(conds, nc))
                sim_l1_invalidate(&s->l1);
            *which = i;
            st = RCK_OK;
            break;
        }
        if (me->vt >= deadline) {
            st = RCK_ERR_TIMEDOUT;
            break;
        }
    park:
        sim_wait_publish(s, conds, nc, flags, hal);
        me->wait_start = start;
        me->park_wake = deadline;
        if (irq_matters)
            me->park_wake = sim_min(me->park_wake,
                                    sim_max(s->cores[s->core].irq_next,
                                            me->vt));
        *sim_wake(s->hdr, s->ue) = me->park_wake;
        atomic_store(sim_state(s->hdr, s->ue), UE_PARK);
        parked = 1;
        st = sim_engine_park(s);
        if (st != RCK_OK) {
            atomic_store(&me->end, st == RCK_ERR_DEADLOCK ? UE_END_DEADLOCK
                                                          : UE_END_ABORTED);
            if (st == RCK_ERR_DEADLOCK)
                rck_be_deadlock_exit_arm();
            break; /* stays published for the reports */
        }
        sim_wait_unpublish(s);
        woke = me->sat_which >= 0;
        if (woke && me->sat_early)
            early = me->sat_which;
        advance_to(s, *sim_wake(s->hdr, s->ue), CAT_WAIT);
        atomic_store(sim_state(s->hdr, s->ue), UE_RUN);
    }
    if (parked && s->trace.buf != NULL)
        sim_trace_wait(s, conds, nc, start, st);
    leave(s);
    return st;
}

/* ---- counters, LUT, shared DRAM ---- */

/* A register access in the system FPGA (GIC counters, global timestamp,
 * voltage): a request and its answer through the system interface. */
static void fpga_access(sim_t *s)
{
    mesh_xfer(s, sim_tile_of_sif(s->chip), 4, 4);
    advance(s, sim_cost_fpga(s->chip, s->core, my_fdiv(s)), CAT_OTHER);
}

static rck_status_t sim_gtsc_read(rck_hal_t *hal, uint64_t *ticks)
{
    sim_t *s = sim_of(hal);

    SIM_CALL(s, SIM_LOCAL) {
        fpga_access(s);
        *ticks = (uint64_t)((double)s->me->vt / (double)SIM_TICKS *
                            s->chip->mesh_mhz / s->chip->core_mhz);
    }
    return RCK_OK;
}

static rck_status_t sim_atomic_inc(rck_hal_t *hal, int ctr, int32_t *old)
{
    sim_t *s = sim_of(hal);

    SIM_CALL(s, SIM_ORDERED) {
        *old = atomic_fetch_add(&s->counters[ctr], 1);
        fpga_access(s);
    }
    return RCK_OK;
}

static rck_status_t sim_atomic_read(rck_hal_t *hal, int ctr, int32_t *value)
{
    sim_t *s = sim_of(hal);

    SIM_CALL(s, SIM_ORDERED) {
        *value = atomic_load(&s->counters[ctr]);
        fpga_access(s);
    }
    return RCK_OK;
}

static rck_status_t sim_atomic_write(rck_hal_t *hal, int ctr, int32_t value)
{
    sim_t *s = sim_of(hal);

    SIM_CALL(s, SIM_ORDERED) {
        atomic_store(&s->counters[ctr], value);
        fpga_access(s);
    }
    return RCK_OK;
}

static rck_status_t sim_lut_read(rck_hal_t *hal, int core, int idx,
                                 uint32_t *entry)
{
    sim_t *s = sim_of(hal);

    SIM_CALL(s, SIM_ORDERED) {
        *entry = rck_cs_lut_get(&s->cs, core, idx);
        mesh_xfer(s, rck_chip_tile(s->chip, core), 0, 4);
        advance(s, cost_dword_read(s, core), CAT_OTHER);
    }
    return RCK_OK;
}

static rck_status_t sim_lut_write(rck_hal_t *hal, int core, int idx,
                                  uint32_t entry)
{
    sim_t *s = sim_of(hal);

    SIM_CALL(s, SIM_ORDERED) {
        rck_cs_lut_set(&s->cs, core, idx, entry);
        mesh_xfer(s, rck_chip_tile(s->chip, core), 4, 0);
        advance(s, cost_line_write(s, core), CAT_OTHER);
    }
    return RCK_OK;
}

static rck_status_t sim_shm_set_map(rck_hal_t *hal, size_t off, size_t len,
                                    rck_map_t type, int mc)
{
    sim_t *s = sim_of(hal);
    rck_status_t st;

    SIM_CALL(s, SIM_LOCAL) {
        st = sim_map_set(&s->map, off, len, (int)type, mc);
        if (st == RCK_OK)
            sim_p54c_map(s);
    }
    return st;
}

static rck_status_t sim_shm_map(rck_hal_t *hal, void **base, size_t *len)
{
    sim_t *s = sim_of(hal);

    *base = s->shm;
    *len = s->hdr->shm_bytes;
    return RCK_OK;
}

/* The WCB content was charged when it was written: making the writes
 * visible is waiting for the one outstanding write. */
static rck_status_t sim_shm_flush(rck_hal_t *hal)
{
    sim_t *s = sim_of(hal);

    SIM_CALL(s, SIM_ORDERED) {
        advance_to(s, s->port.wr_done, CAT_DRAM);
    }
    return RCK_OK;
}

/* Write back every dirty L2 line and drop both caches (the cost:
 * cost_dcache_flush). */
static rck_status_t sim_dcache_flush(rck_hal_t *hal)
{
    sim_t *s = sim_of(hal);
    uint64_t clean, dirty, t0;

    SIM_CALL(s, SIM_ORDERED) {
        t0 = s->me->vt;
        sim_caches_flush(s, &clean, &dirty);
        sim_p54c_flush(s, &clean, &dirty);
        advance_to(s, t0 + cost_dcache_flush(s, clean, dirty), CAT_DRAM);
    }
    return RCK_OK;
}

static rck_status_t sim_shm_write(rck_hal_t *hal, size_t off, const void *src,
                                  size_t len)
{
    sim_t *s = sim_of(hal);
    uint64_t t0;

    SIM_CALL(s, SIM_ORDERED) {
        t0 = s->me->vt;
        sim_shm_write_range(s, off, src, len);
        sim_notify(s, RCK_SPACE_SHM, 0, (uint32_t)off,
               len > UINT32_MAX ? UINT32_MAX : len, t0, s->ue);
    }
    return RCK_OK;
}

static rck_status_t sim_shm_read(rck_hal_t *hal, size_t off, void *dst,
                                 size_t len)
{
    sim_t *s = sim_of(hal);

    SIM_CALL(s, SIM_ORDERED) {
        sim_shm_read_range(s, off, dst, len);
    }
    return RCK_OK;
}

static rck_status_t sim_shm_touch(rck_hal_t *hal, size_t off, size_t len,
                                  int write)
{
    sim_t *s = sim_of(hal);

    SIM_CALL(s, SIM_ORDERED) {
        sim_shm_touch_range(s, off, len, write);
    }
    return RCK_OK;
}

/* A trap delivered as a signal: its host cost is not the program's
 * compute (sim_compute_take discounts it from this slice and the next,
 * where the return from the handler falls); the chip pays a null system
 * call. */
static void sim_trap(rck_hal_t *hal, uint64_t host_ns)
{
    sim_t *s = sim_of(hal);

    s->compute_discount_ns = host_ns;
    s->compute_discount_slices = 2;
    SIM_CALL(s, SIM_ORDERED) {
        advance(s, cost_null_syscall(s), CAT_OTHER);
    }
}

/* Kernel work: a trap in and out, then the work itself, whose host time
 * is not the program's compute (leave() restarts the compute clock). */
static void sim_syscall(rck_hal_t *hal, void (*fn)(void *arg), void *arg)
{
    sim_t *s = sim_of(hal);

    SIM_CALL(s, SIM_ORDERED) {
        advance(s, cost_null_syscall(s), CAT_OTHER);
        fn(arg);
    }
}

/* ---- power, clocks, console ---- */

static rck_status_t sim_freq_set(rck_hal_t *hal, int core, int fdiv)
{
    sim_t *s = sim_of(hal);
    int tile = rck_chip_tile(s->chip, core);

    SIM_CALL(s, SIM_ORDERED) {
        mesh_xfer(s, tile, 4, 0);
        advance(s, cost_line_write(s, core), CAT_OTHER);
        /* The divider is per tile: both cores change, from their next event. */
        rck_cs_fdiv_set(&s->cs, core, fdiv);
        sim_power_log(s, rck_chip_island(s->chip, core), SIM_DVFS_FREQ, fdiv,
                      s->me->vt);
    }
    return RCK_OK;
}

static rck_status_t sim_freq_get(rck_hal_t *hal, int core, int *fdiv)
{
    sim_t *s = sim_of(hal);

    SIM_CALL(s, SIM_ORDERED) {
        *fdiv = rck_cs_fdiv_get(&s->cs, core);
        mesh_xfer(s, rck_chip_tile(s->chip, core), 0, 4);
        advance(s, cost_dword_read(s, core), CAT_OTHER);
    }
    return RCK_OK;
}

static rck_status_t sim_volt_set(rck_hal_t *hal, int island, int mv)
{
    sim_t *s = sim_of(hal);

    rck_status_t st;

    SIM_CALL(s, SIM_ORDERED) {
        fpga_access(s);
        st = sim_power_volt_set(s, island, mv);
    }
    return st;
}

static rck_status_t sim_volt_get(rck_hal_t *hal, int island, int *mv)
{
    sim_t *s = sim_of(hal);

    SIM_CALL(s, SIM_ORDERED) {
        fpga_access(s);
        *mv = sim_power_volt_get(s, island);
    }
    return RCK_OK;
}

/* The regulator's change completes at a known time: the core waits for
 * it (polling the regulator's status costs what volt_get does). */
static rck_status_t sim_volt_wait(rck_hal_t *hal, int island)
{
    sim_t *s = sim_of(hal);
    uint64_t done;

    SIM_CALL(s, SIM_ORDERED) {
        fpga_access(s);
        done = sim_power_volt_done(s, island);
        if (done != 0) {
            advance_to(s, done, CAT_WAIT);
            fpga_access(s);
            sim_power_volt_get(s, island);
        }
    }
    return RCK_OK;
}

/* The chip's power sensor, read through the system FPGA. */
static rck_status_t sim_power_read(rck_hal_t *hal, double *watts)
{
    sim_t *s = sim_of(hal);

    SIM_CALL(s, SIM_ORDERED) {
        fpga_access(s);
        *watts = sim_power_sensor(s);
    }
    return RCK_OK;
}

static rck_status_t sim_cycles(rck_hal_t *hal, uint64_t *cycles)
{
    sim_t *s = sim_of(hal);

    SIM_CALL(s, SIM_LOCAL) {
        advance(s, cost_rdtsc(s), CAT_OTHER);
        *cycles = s->me->cyc / SIM_TICKS;
    }
    return RCK_OK;
}

static rck_status_t sim_wtime(rck_hal_t *hal, double *seconds)
{
    sim_t *s = sim_of(hal);

    SIM_CALL(s, SIM_LOCAL) {
        advance(s, cost_rdtsc(s), CAT_OTHER);
        *seconds = (double)s->me->vt / (double)SIM_TICKS /
                   (s->chip->core_mhz * 1e6);
    }
    return RCK_OK;
}

/* The event each counter counts (rck_hal_perfctr_select; sim_monitor.c
 * and docs/MONITORING.md say which exist under which compute model). */
static rck_status_t sim_perfctr_read(rck_hal_t *hal, int idx, uint64_t *value)
{
    sim_t *s = sim_of(hal);
    rck_status_t st;

    SIM_CALL(s, SIM_LOCAL) {
        advance(s, cost_rdtsc(s), CAT_OTHER);
        st = sim_perfctr_event(s, hal->perfctr_event[idx], value);
    }
    return st;
}

static rck_status_t sim_console_write(rck_hal_t *hal, const char *buf,
                                      size_t len)
{
    sim_t *s = sim_of(hal);
    rck_status_t st = RCK_OK;

    SIM_CALL(s, SIM_LOCAL) {
        advance(s, cost_null_syscall(s), CAT_OTHER);
        st = rck_cs_console_write(hal, buf, len);
    }
    return st;
}

/* Remembered locally; copied to the segment when the core parks, which is
 * when a deadlock report may need it. The trace sees it at the next entry
 * (sim_trace_context): this runs as the program's code (under the P54C
 * models, counted), so it does the same whether the run is traced or not. */
static void sim_set_context(rck_hal_t *hal, const char *call, int peer)
{
    sim_t *s = sim_of(hal);

    s->ctx_call = call;
    s->ctx_peer = peer;
    s->ctx_log[s->ctx_n % SIM_CTX_LOG] =
        (sim_ctx_t){.call = call, .peer = peer, .tag = -1, .comm = -1,
                    .bytes = -1};
    s->ctx_n++;
}

/* The message of the call just named (the libraries call it right after
 * set_context, before the trace can have seen the call): program code
 * too, so the same whether traced or not. */
static void sim_set_message(rck_hal_t *hal, long long bytes, int tag,
                            int comm)
{
    sim_t *s = sim_of(hal);
    sim_ctx_t *c = &s->ctx_log[(s->ctx_n - 1) % SIM_CTX_LOG];

    c->bytes = bytes;
    c->tag = tag;
    c->comm = comm;
}

static const rck_job_ops_t sim_job_ops = {
    .create = sim_job_create,
    .child_setup = sim_job_child_setup,
    .child_wrap = sim_job_child_wrap,
    .core_attached = sim_job_core_attached,
    .core_exited = sim_job_core_exited,
    .tick = sim_job_tick,
    .shm_auto = rck_be_job_shm_auto_fixed,
    .destroy = sim_job_destroy,
};
const rck_hal_ops_t rck_sim_ops = {
    .name = "sim",
    .caps = RCK_CAP_TIMED | RCK_CAP_SCHEDULES | RCK_CAP_SHARED_MEMORY |
            RCK_CAP_IDLE_CORES | RCK_CAP_STDIN_ROUTE | RCK_CAP_PROGRESS,
    .job = &sim_job_ops,
    .attach = sim_attach,
    .attach_end = sim_attach_end,
    .detach = sim_detach,
    .mpb_map = sim_mpb_map,
    .mpb_write = sim_mpb_write,
    .mpb_read = sim_mpb_read,
    .mpb_copy = sim_mpb_copy,
    .mpb_store32 = sim_mpb_store32,
    .mpb_load32 = sim_mpb_load32,
    .cl1invmb = sim_cl1invmb,
    .mpb_prefetch = rck_be_mpb_prefetch_none,
    .wcb_flush = sim_wcb_flush,
    .mpb_write_flag = rck_be_mpb_write_flag_composed,
    .tas_try = sim_tas_try,
    .tas_release = sim_tas_release,
    .irq_raise = sim_irq_raise,
    .irq_poll = sim_irq_poll,
    .wait = sim_wait,
    .gtsc_read = sim_gtsc_read,
    .atomic_inc = sim_atomic_inc,
    .atomic_read = sim_atomic_read,
    .atomic_write = sim_atomic_write,
    .lut_read = sim_lut_read,
    .lut_write = sim_lut_write,
    .shm_map = sim_shm_map,
    .shm_set_map = sim_shm_set_map,
    .shm_flush = sim_shm_flush,
    .dcache_flush = sim_dcache_flush,
    .shm_write = sim_shm_write,
    .shm_read = sim_shm_read,
    .shm_touch = sim_shm_touch,
    .syscall = sim_syscall,
    .trap = sim_trap,
    .freq_set = sim_freq_set,
    .freq_get = sim_freq_get,
    .volt_set = sim_volt_set,
    .volt_get = sim_volt_get,
    .volt_wait = sim_volt_wait,
    .power_read = sim_power_read,
    .cycles = sim_cycles,
    .wtime = sim_wtime,
    .perfctr_read = sim_perfctr_read,
    .console_write = sim_console_write,
    .set_context = sim_set_context,
    .set_message = sim_set_message,
    .lut_window = sim_seg_lut_window,
    .monitor = sim_monitor_run,
    .spawn_claim = sim_spawn_claim,
    .spawn_release = sim_spawn_release,
};
