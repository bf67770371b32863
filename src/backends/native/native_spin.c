/*
 * native_spin.c: how long a native wait spins and yields before it sleeps
 * in the kernel (RCK_SPIN_NS, RCK_YIELD_NS, RCK_SPIN_LOADED_NS): from the
 * job's awake cores and the host's runnable tasks. See the top of native.c.
 */
#include "native_internal.h"
#include "common/backend.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rck/config.h"
#include "rck/log.h"

/* RCK_SPIN_NS: a number fixes the budget; "auto" (-1 here) decides at
 * each wait from how many cores are awake. */
int64_t rck__nat_spin_budget(void)
{
    const char *s = rck_config_get("SPIN_NS");
    char *end;
    long v;

    if (strcmp(s, "auto") != 0) {
        v = strtol(s, &end, 0);
        if (*s != '\0' && *end == '\0' && v >= 0)
            return v;
        rck_warn("RCK_SPIN_NS='%s' is not a number of nanoseconds; using auto",
                 s);
    }
    return -1;
}

/* How often a wait may look at the host's load (a read of /proc/loadavg
 * costs a few microseconds; the load changes slowly): every 20 ms while
 * the runnable tasks fit the CPUs, every 1 ms while they do not. The count
 * is one instant's: a task that is runnable for a moment (a process
 * starting, a launcher, a kernel thread) would otherwise make the cores
 * yield instead of spin for 20 ms (the first 20 ms of a 2-rank MPI
 * pingpong ran at 3-4 times its latency about every second run). */
#define NATIVE_LOAD_NS 20000000ull
#define NATIVE_LOAD_BUSY_NS 1000000ull

/* The host's runnable tasks now (the "R" of /proc/loadavg's "R/T" field,
 * this run's awake cores included), at most NATIVE_LOAD_NS old; -1 if it
 * cannot be read. */
static int rck__nat_host_runnable(native_t *n, uint64_t now)
{
    char buf[128];
    ssize_t len;
    char *p;
    int field = 0;

    if (n->load_fd < 0)
        return -1;
    if (n->load_at != 0 &&
        now - n->load_at < (n->load_running > n->ncpu ? NATIVE_LOAD_BUSY_NS
                                                      : NATIVE_LOAD_NS))
        return n->load_running;
    n->load_at = now;
    len = pread(n->load_fd, buf, sizeof(buf) - 1, 0);
    n->load_running = -1;
    if (len <= 0)
        return -1;
    buf[len] = '\0';
    for (p = buf; *p != '\0' && field < 3; p++) {
        if (*p == ' ')
            field++;
    }
    if (field == 3 && *p >= '0' && *p <= '9')
        n->load_running = atoi(p);
    return n->load_running;
}

/* Spinning only pays when every awake core has a host CPU of its own: then
 * a hand-over costs a cache-line transfer instead of a futex round trip.
 * Oversubscribed, a spinning core steals the CPU its peer needs, whether
 * the other runnable tasks are this run's cores or the host's. When the
 * host's own tasks fill the CPUs, yielding is no better: a core that spins
 * or yields stays runnable beside busy tasks, is preempted when its slice
 * is used up and then waits for every busy task's slice (tens of ms; with
 * 200 us spins a 2-UE pingpong stalled for tens of seconds), while one
 * that sleeps is woken with the scheduler's credit for sleepers. Then the
 * wait spins only RCK_SPIN_LOADED_NS and sleeps (*yield = 0).
 * A crowded job (its live cores at least RCK_YIELD_CROWD times the CPUs;
 * off by default) yields RCK_YIELD_CROWDED_NS (5 ms) instead of
 * RCK_YIELD_NS (100 us): there, every hop of a collective is a futex
 * sleep and wake-up through a scheduler with dozens of the job's tasks.
 * On an idle 2-CPU host yielding longer took 0.33-0.63x of the time at 48
 * processes, where at 8 it lost 10-25% on small operations; beside other
 * oversubscribed jobs it lost at 16 and at 48 (up to 10x on some points),
 * so no threshold is the default (docs/MPI.md, "The wait policy by job
 * size"). The rule counts the job's live cores (those not dormant
 * in the spawn pool), not its awake ones: with the short yield most of
 * them sleep, and an awake count would keep the short yield that put them
 * to sleep.
 * @param [out] yield  how long to yield after spinning (ns). */
int64_t rck__nat_spin_now(native_t *n, int nues, uint64_t now, int64_t *yield)
{
    int awake, run, others, live;

    *yield = n->yield_ns;
    if (n->spin_ns >= 0)
        return n->spin_ns;
    int woken = atomic_load_explicit(&n->hdr->woken, memory_order_relaxed);
    live = nues -
           atomic_load_explicit(&n->hdr->dormant, memory_order_relaxed);
    if (n->crowd > 0 && live >= n->crowd * n->ncpu &&
        n->crowd_yield_ns > *yield)
        *yield = n->crowd_yield_ns;

    /* the woken sleepers that wait for a CPU count as awake: a core that
     * spun while they waited kept them off the CPU for its whole spin */
    awake = live -
            atomic_load_explicit(&n->hdr->sleepers, memory_order_relaxed) +
            (woken > 0 ? woken : 0);
    run = rck__nat_host_runnable(n, now);
    if (run < 0)
        return awake <= n->ncpu ? 200000 : 0;
    others = run > awake ? run - awake : 0;
    if (others >= n->ncpu) {
        *yield = 0;
        return n->loaded_spin_ns;
    }
    return awake + others <= n->ncpu ? 200000 : 0;
}
