/*
 * Native backend.
 *
 * Segment layout (one memfd, mapped at the same address in every core):
 * common/chipstate.h's rck_cs_layout, with the backend's header seg_hdr_t
 * and two regions of its own, how each core waits (core_state_t x ncores)
 * and the communication matrix:
 *
 *   [seg_hdr_t][core_state_t x ncores][comm rows][the chip's state:
 *   rck_cs_core_t x ncores, counters, voltages][MPB x ncores][shm]
 *
 * The chip's functional effects (MPB, TAS, interrupts, counters, LUT,
 * dividers, voltages, console) are the common slots rck_cs_*; this file
 * adds how a core waits and wakes the others (native_cs_ops) and the
 * shared-DRAM watch.
 *
 * Waking protocol (the invariant every writer and waiter relies on):
 *   waiter:  waiters++ (seq_cst); seq = doorbell; re-check the condition;
 *            rck_be_futex_wait(doorbell, seq); waiters--.
 *   writer:  store the data; seq_cst fence; if (waiters) { doorbell++;
 *            rck_be_futex_wake(doorbell) }.
 *   With seq_cst on both sides either the writer sees the waiter (and
 *   wakes it) or the waiter's re-check sees the data.
 *   The writer's fence waits until its stores reach the target's cache
 *   line, which costs a cross-core round trip on every message. Where the
 *   kernel has membarrier(2) (RCK_NATIVE_MEMBARRIER=auto) the fence moves
 *   to the sleeper, which is rare: every core registers for
 *   MEMBARRIER_CMD_GLOBAL_EXPEDITED at attach, writers then order their
 *   stores before the waiters load only for the compiler, and a sleeper
 *   issues MEMBARRIER_CMD_GLOBAL_EXPEDITED between counting itself in and
 *   its re-check. That makes every running core execute a full barrier:
 *   a writer whose data store came before it has the data visible to the
 *   re-check, and one whose store came after it loads waiters after the
 *   barrier and sees the sleeper (the asymmetric fence of userspace RCU).
 *   Each core's MPB has its own doorbell; waits that span several MPBs
 *   or TAS registers of other cores sleep on the segment-wide doorbell,
 *   which writers ring only while someone sleeps on it. A wait on
 *   shared-DRAM words (alone or with words of its own MPB) sleeps on the
 *   core's own doorbell and names the words to the writers first (its
 *   watch: core_state_t.shm_watch and the words, or the range they span
 *   when there are more than NATIVE_WATCH_WORDS; hdr->shm_watchers counts
 *   the watching cores); a shared-DRAM write rings only the cores that
 *   watch a word it wrote, rck_hal_shm_flush (no address) every watching
 *   core. rck_hal_shm_write takes the asymmetric fence above as the MPB
 *   writes do; rck_hal_shm_flush keeps its full fence.
 *   Before, every such wait slept on the segment-wide doorbell and
 *   every shared-DRAM write woke all of them (at 48 processes, every
 *   packet of the sccshm channel woke every sleeper). The
 *   asymmetric fence holds only while the job's cores fit the host's CPUs
 *   (asym_setup); a woken sleeper counts as awake until it runs
 *   (hdr->woken, rck__nat_spin_now).
 *
 * Deadlock detection (RCK_DEADLOCK_S seconds, 0 = off). A core asleep in
 * a wait without a deadline publishes it (seqlock dl_pub: the conditions,
 * up to NATIVE_DL_CONDS of them, the bell and its value) and sleeps with a
 * timeout, so that it looks at the others now and then. Every core counts
 * what it does that can wake another (MPB and shared-DRAM writes, TAS
 * releases, interrupts, atomic counters) and every wait it leaves
 * satisfied, in its own progress word. The run is deadlocked when every
 * UE's core has ended or is asleep so published, with its bell unrung,
 * none of its published conditions true and no interrupt pending for it,
 * and the sum of the progress words has not moved for RCK_DEADLOCK_S
 * seconds (one observer's view; each sleeping core observes). A woken core
 * that has not run yet has a rung bell; a slow host only delays reports.
 * The observer that decides (hdr->deadlock 0 -> 1) prints the report (the
 * sim's format) while every other wait stays in place, then sets
 * hdr->deadlock to 2 and wakes everyone: every wait then fails with
 * RCK_ERR_DEADLOCK, and the core ends with RCK_HAL_EXIT_DEADLOCK (at its
 * next wait, or at exit) so the run fails even if the program ignores
 * the error.
 */
#include "native_internal.h"
#include "common/backend.h"
#include "common/defaults.h"
#include "common/comm.h"
#include "common/seg.h"

#include "rck/config.h"
#include "rck/copy.h"
#include "rck/log.h"
#include "rck/lutwin.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>


/* The native backend's settings (listed by `rck config --list`). */
static const rck_config_entry_t native_settings[] = {
    {"SPIN_NS", "auto", RCK_CONFIG_STRING,
     "native: how long a wait spins before it sleeps in the kernel "
     "(nanoseconds; auto = long when cores <= host CPUs, short otherwise)",
     "auto|#"},
    {"YIELD_NS", "100000", RCK_CONFIG_INT,
     "native: after spinning, how long a wait yields the CPU to other cores "
     "(sched_yield) before it sleeps in the kernel (nanoseconds)",
     "0.."},
    {"YIELD_CROWD", "0", RCK_CONFIG_INT,
     "native, auto spin: a job with at least this many live cores per host "
     "CPU yields RCK_YIELD_CROWDED_NS instead of RCK_YIELD_NS before it "
     "sleeps (0 = never; 24 took 48-rank collectives on 2 idle CPUs to "
     "0.33-0.63x but lost beside other jobs)",
     "0.."},
    {"YIELD_CROWDED_NS", "5000000", RCK_CONFIG_INT,
     "native, auto spin: how long a wait yields before it sleeps when the "
     "job's live cores outnumber the host CPUs RCK_YIELD_CROWD times "
     "(nanoseconds; not while the host's other tasks fill the CPUs)",
     "0.."},
    {"SPIN_LOADED_NS", "5000", RCK_CONFIG_INT,
     "native, auto spin: how long a wait spins before it sleeps while the "
     "host's other runnable tasks fill its CPUs (nanoseconds; no yield then)",
     "0.."},
    {"NATIVE_MEMBARRIER", "auto", RCK_CONFIG_STRING,
     "native: auto = writers skip the wake-up protocol's fence and a "
     "sleeping core issues membarrier(2) instead, when the kernel has "
     "MEMBARRIER_CMD_GLOBAL_EXPEDITED and the job's cores fit the host's "
     "CPUs; off = a fence in every write",
     "auto|off"},
    {"DEADLOCK_S", "3", RCK_CONFIG_INT,
     "native: seconds every running core may wait with nothing changing "
     "before the run is reported as deadlocked and stopped (0 = off)",
     "0.."},
    {NULL, NULL, RCK_CONFIG_STRING, NULL, NULL}};

__attribute__((constructor)) static void native_settings_register(void)
{
    rck_config_register(native_settings, 10 /* first of the backends */);
}

/* ---- segment ---- */

/* MemAvailable of /proc/meminfo in bytes, or 0 if unknown. */
static size_t host_mem_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[128];
    unsigned long long kb = 0;

    if (f == NULL)
        return 0;
    while (fgets(line, sizeof(line), f) != NULL) {
        if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
            break;
    }
    fclose(f);
    return (size_t)kb << 10;
}

size_t rck_native_shm_auto(int nues, int *capped, size_t *want_out)
{
    size_t n = nues > 0 ? (size_t)nues : 1, want, avail;
    size_t least = rck_config_size_auto("SHM_SIZE"); /* every backend's */

    want = ((size_t)32 << 20) + 2 * n * n * RCK_NATIVE_SHM_PAIR;
    if (want < least)
        want = least;
    if (want > RCK_NATIVE_SHM_MAX)
        want = RCK_NATIVE_SHM_MAX;
    if (want_out != NULL)
        *want_out = want;
    if (capped != NULL)
        *capped = 0;
    avail = host_mem_available() / 2 / ((size_t)1 << 20) * ((size_t)1 << 20);
    if (avail != 0 && want > avail && want > least) {
        if (capped != NULL)
            *capped = 1;
        return avail > least ? avail : least;
    }
    return want;
}

static const rck_cs_ops_t native_cs_ops;

static rck_status_t seg_layout(const rck_chip_t *chip, int nues,
                               size_t shm_bytes, rck_cs_layout_t *l)
{
    size_t regs[NATIVE_NREGS];

    regs[NATIVE_REG_CORES] = sizeof(core_state_t) * (size_t)chip->ncores;
    regs[NATIVE_REG_COMM] = nues < 1 ? 0
                                     : sizeof(uint64_t) *
                                           rck_comm_row_words(nues) *
                                           (size_t)nues;
    return rck_cs_layout(chip, nues, shm_bytes, sizeof(seg_hdr_t), 0, regs,
                         NATIVE_NREGS, l);
}

static void seg_init(seg_hdr_t *h, const rck_cs_layout_t *l,
                     const rck_chip_t *chip, int nues, const int *cores)
{
    core_state_t *cs;
    rck_cs_t view;

    h->layout = *l;
    h->seg_bytes = l->seg_bytes;
    h->chip = *chip;
    h->nues = (uint32_t)nues;
    h->t0_ns = rck_be_now_ns();
    for (int i = 0; i < nues; i++)
        h->ue_core[i] = cores[i];
    atomic_store(&h->failed_core, -1);
    rck_cs_view(&view, h, l, chip, &native_cs_ops);
    rck_cs_init(&view, chip);
    cs = native_cores(h);
    for (int c = 0; c < chip->ncores; c++)
        atomic_store(&cs[c].ctx_peer, -1);
}

static rck_status_t native_job_create(const rck_job_params_t *p,
                                      rck_job_t **job_out)
{
    rck_cs_layout_t layout;
    rck_job_t *job;
    rck_status_t st;
    void *map;

    st = seg_layout(p->chip, p->nues, p->shm_bytes, &layout);
    if (st != RCK_OK) {
        rck_error("native backend: the chip '%s' with %d UEs does not fit",
                  p->chip->name, p->nues);
        return st;
    }
    job = calloc(1, sizeof(*job));
    if (job == NULL)
        return RCK_ERR_NOMEM;
    st = rck_seg_create("rockcreek-native", layout.seg_bytes, &job->fd, &map);
    if (st != RCK_OK)
        goto err_free;
    job->hdr = map;
    job->bytes = layout.seg_bytes;
    seg_init(job->hdr, &layout, p->chip, p->nues, p->cores);
    if (p->nstart > 0 && p->nstart < p->nues) {
        core_state_t *cs = native_cores(job->hdr);
        for (int ue = p->nstart; ue < p->nues; ue++)
            atomic_store(&cs[p->cores[ue]].state, CORE_DORMANT);
        atomic_store(&job->hdr->dormant, p->nues - p->nstart);
    }
    job->dram_fd = -1;
    if (rck_lutwin_enabled() &&
        (st = rck_lutwin_dram_create(p->chip, &job->dram_fd)) != RCK_OK) {
        munmap(job->hdr, job->bytes);
        close(job->fd);
        goto err_free;
    }
    job->hdr->magic = NATIVE_MAGIC;
    *job_out = job;
    return RCK_OK;

err_free:
    free(job);
    return st;
}

static rck_status_t native_job_child_setup(rck_job_t *job, int ue)
{
    rck_status_t st = rck_seg_child_env(job->fd, "RCK_NATIVE_FD", ue,
                                        "native");

    return st == RCK_OK ? rck_lutwin_child_env(job->dram_fd) : st;
}


static int native_job_core_attached(rck_job_t *job, int ue)
{
    seg_hdr_t *h = job->hdr;
    core_state_t *cs = native_cores(h);

    if (ue < 0 || ue >= (int)h->nues)
        return 1;
    return atomic_load(&cs[h->ue_core[ue]].state) != CORE_IDLE;
}

static void native_job_core_exited(rck_job_t *job, int ue, int failed)
{
    seg_hdr_t *h = job->hdr;
    core_state_t *cs = native_cores(h);
    int core;

    if (ue < 0 || ue >= (int)h->nues)
        return;
    core = h->ue_core[ue];
    atomic_store(&cs[core].state, failed ? CORE_FAILED : CORE_DONE);
    atomic_fetch_add(&h->progress, 1);
    if (failed) {
        int32_t none = -1;
        atomic_compare_exchange_strong(&h->failed_core, &none, core);
        wake_everyone(h);
    }
}

static rck_status_t native_job_destroy(rck_job_t *job)
{
    const char *report = rck_be_report_path();
    rck_status_t st = RCK_OK;

    if (job == NULL)
        return RCK_OK;
    if (*report != '\0')
        st = rck_be_report_write(
            report, &rck_native_ops, &job->hdr->chip, (int)job->hdr->nues,
            (double)(rck_be_now_ns() - job->hdr->t0_ns) * 1e-9,
            (const uint64_t *)((char *)job->hdr +
                               job->hdr->layout.extra_off[NATIVE_REG_COMM]));
    munmap(job->hdr, job->bytes);
    close(job->fd);
    if (job->dram_fd >= 0)
        close(job->dram_fd);
    free(job);
    return st;
}

/* ---- attach ---- */

static rck_status_t native_attach_private(rck_hal_t *hal, native_t *n)
{
    rck_job_t *job;
    rck_status_t st;

    st = rck_be_solo_job(native_job_create, &job);
    if (st != RCK_OK)
        return st;
    n->fd = job->fd;
    /* the window finds the private DRAM through the environment */
    if (job->dram_fd >= 0 && rck_lutwin_child_env(job->dram_fd) != RCK_OK)
        close(job->dram_fd);
    munmap(job->hdr, job->bytes);
    free(job);
    return RCK_OK;
}

/* The asymmetric fence (see the top): register this process, so that a
 * sleeper's MEMBARRIER_CMD_GLOBAL_EXPEDITED reaches its CPU. A core that
 * cannot register keeps its fences as a writer. Only while the job's cores
 * fit the host's CPUs and waits spin: oversubscribed, waits sleep all the
 * time, and a membarrier per sleep doubled the time of a 48-core
 * collective on 2 CPUs. Every core of a job decides alike (same UE count,
 * host and settings). */
static void asym_setup(native_t *n, int nues)
{
    if (nues <= n->ncpu && n->spin_ns != 0)
        rck_be_asym_setup("NATIVE_MEMBARRIER",
                          rck_config_get("NATIVE_MEMBARRIER"), &n->asym,
                          &n->asym_sleep);
}

/* The sleeper's half of the asymmetric fence; false if it failed (the
 * sleep must then be short: a writer may not have seen this sleeper). */
static int asym_sleeper_fence(native_t *n)
{
    return !n->asym_sleep || rck_be_asym_fence();
}

static rck_status_t native_attach(rck_hal_t *hal)
{
    const char *fds = getenv("RCK_NATIVE_FD");
    const char *ues = getenv("RCK_UE");
    native_t *n;
    seg_hdr_t hdr;
    void *map;
    size_t bytes;
    rck_status_t st;
    char tag[32];

    n = calloc(1, sizeof(*n));
    if (n == NULL)
        return RCK_ERR_NOMEM;
    n->fd = -1;
    hal->ue = 0;
    if (fds != NULL && ues != NULL) {
        n->fd = atoi(fds);
        hal->ue = atoi(ues);
    } else {
        st = native_attach_private(hal, n);
        if (st != RCK_OK)
            goto err_free;
    }
    st = rck_seg_attach(n->fd, NATIVE_MAGIC, NATIVE_MAP_ADDR,
                        "rockcreek native segment (start programs with "
                        "'rck run')",
                        &map, &bytes);
    if (st != RCK_OK)
        goto err_close;
    memcpy(&hdr, map, sizeof(hdr));
    n->hdr = map;
    n->cores = native_cores(n->hdr);
    rck_cs_view(&n->cs, map, &hdr.layout, &hdr.chip, &native_cs_ops);
    if (hal->ue < 0 || hal->ue >= (int)hdr.nues) {
        rck_error("RCK_UE=%d outside the job's %u UEs", hal->ue, hdr.nues);
        st = RCK_ERR_CONFIG;
        goto err_unmap;
    }
    hal->chip = n->hdr->chip;
    hal->nues = (int)hdr.nues;
    hal->ue_core = n->hdr->ue_core;
    hal->core = n->hdr->ue_core[hal->ue];
    hal->comm_row = (uint64_t *)((char *)map +
                                 hdr.layout.extra_off[NATIVE_REG_COMM]) +
                    rck_comm_row_words(hal->nues) * (size_t)hal->ue;
    hal->backend = n;
    n->spin_ns = rck__nat_spin_budget();
    n->ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
    n->yield_ns = rck_config_get_int("YIELD_NS");
    n->crowd = (int)rck_config_get_int("YIELD_CROWD");
    n->crowd_yield_ns = rck_config_get_int("YIELD_CROWDED_NS");
    n->load_fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
    n->loaded_spin_ns = rck_config_get_int("SPIN_LOADED_NS");
    if (n->loaded_spin_ns < 0)
        n->loaded_spin_ns = 0;
    n->load_running = -1;
    n->progress = &n->cores[hal->core].progress;
    {
        long dl = rck_config_get_int("DEADLOCK_S");
        n->dl_ns = dl > 0 ? (int64_t)dl * 1000000000 : 0;
    }
    rck_be_deadlock_exit_setup(NULL);
    asym_setup(n, hal->nues);
    atomic_store(&n->cores[hal->core].pid, (int32_t)getpid());
    atomic_store(&n->cores[hal->core].state, CORE_RUNNING);
    snprintf(tag, sizeof(tag), "core %d", hal->core);
    rck_log_set_tag(tag);
    return RCK_OK;

err_unmap:
    munmap(map, hdr.seg_bytes);
err_close:
    close(n->fd);
err_free:
    free(n);
    return st;
}

static void native_detach(rck_hal_t *hal)
{
    native_t *n = nat(hal);

    atomic_store(&n->cores[hal->core].state, CORE_DONE);
    if (n->load_fd >= 0)
        close(n->load_fd);
    munmap(n->hdr, n->hdr->seg_bytes);
    close(n->fd);
    free(n);
    hal->backend = NULL;
}

/* ---- how writes and interrupts wake (the chip state's hooks) ---- */

static __attribute__((noinline)) void ring_bells(native_t *n, int core)
{
    woke(n, rck_be_bell_ring(&n->cores[core].waiters,
                             &n->cores[core].doorbell) +
                rck_be_bell_ring(&n->hdr->any_waiters, &n->hdr->any_doorbell));
}

/* After a store into core's MPB or TAS register (inlined into the slots
 * below). */
static inline __attribute__((always_inline)) void native_wrote(rck_cs_t *cs,
                                                              int core)
{
    native_t *n = (native_t *)(void *)cs; /* its first member */

    progress_bump(n);
    /* the protocol's fence (see the top): a sleeper's membarrier stands in
     * for it when this core is registered */
    rck_be_writer_fence(n->asym);
    /* nobody asleep, the usual case while the cores spin: two loads */
    if (__builtin_expect(
            (atomic_load_explicit(&n->cores[core].waiters,
                                  memory_order_relaxed) |
             atomic_load_explicit(&n->hdr->any_waiters,
                                  memory_order_relaxed)) != 0,
            0))
        ring_bells(n, core);
}

/* Interrupts always ring: the target may sleep on its own doorbell
 * without having registered as a waiter for data. */
static void native_raised(rck_hal_t *hal, int core)
{
    native_t *n = nat(hal);

    progress_bump(n);
    woke(n, rck_be_bell_wake(&n->cores[core].doorbell));
    atomic_thread_fence(memory_order_seq_cst);
    woke(n, rck_be_bell_ring(&n->hdr->any_waiters, &n->hdr->any_doorbell));
}

/* A counter changed: progress, for the deadlock detection. */
static void native_counted(rck_hal_t *hal)
{
    progress_bump(nat(hal));
}

_Static_assert(offsetof(native_t, cs) == 0,
               "the chip state's slots find native_t through its view");

static const rck_cs_ops_t native_cs_ops = {
    .wrote = native_wrote,
    .raised = native_raised,
    .counted = native_counted,
};

/* The chip state's writes with this backend's wake-up inlined. */
static rck_status_t native_mpb_write(rck_hal_t *hal, int core, uint32_t off,
                                     const void *src, size_t len)
{
    return rck_cs_mpb_write_with(hal, core, off, src, len, native_wrote);
}

static rck_status_t native_mpb_copy(rck_hal_t *hal, int dst_core,
                                    uint32_t dst_off, int src_core,
                                    uint32_t src_off, size_t len)
{
    return rck_cs_mpb_copy_with(hal, dst_core, dst_off, src_core, src_off,
                                len, native_wrote);
}

static rck_status_t native_mpb_store32(rck_hal_t *hal, int core, uint32_t off,
                                       uint32_t value)
{
    return rck_cs_mpb_store32_with(hal, core, off, value, native_wrote);
}

static rck_status_t native_mpb_write_flag(rck_hal_t *hal, int core,
                                          uint32_t off, const void *src,
                                          size_t len, uint32_t flag_off,
                                          uint32_t flag)
{
    return rck_cs_mpb_write_flag_with(hal, core, off, src, len, flag_off,
                                      flag, native_wrote);
}

static rck_status_t native_tas_release(rck_hal_t *hal, int core)
{
    return rck_cs_tas_release_with(hal, core, native_wrote);
}

/* The lines the caller reads next: their transfers start now. */
static void native_mpb_prefetch(rck_hal_t *hal, int core, uint32_t off,
                                size_t len)
{
    const char *p = (const char *)rck_cs_mpb_at(&nat(hal)->cs, core, off);

    for (size_t k = 0; k < len; k += 64)
        __builtin_prefetch(p + k, 0, 3);
}

/* ---- waiting ---- */


static void native_publish_context(rck_hal_t *hal)
{
    native_t *n = nat(hal);
    core_state_t *cs = &n->cores[hal->core];

    char buf[NATIVE_CTX_LEN];

    /* Another core's deadlock report may read the text at any moment:
     * write it only when it changes, and never through snprintf, which
     * clears the first byte before it formats (a reader then saw no
     * context at all for a core that had one). */
    if (n->pub_done && n->pub_call == n->ctx_call &&
        n->pub_peer == n->ctx_peer)
        return;
    snprintf(buf, sizeof(buf), "%s", n->ctx_call != NULL ? n->ctx_call : "");
    memcpy(cs->ctx, buf, sizeof(buf));
    atomic_store_explicit(&cs->ctx_peer, n->ctx_peer, memory_order_relaxed);
    n->pub_call = n->ctx_call;
    n->pub_peer = n->ctx_peer;
    n->pub_done = 1;
}

/* The run was reported deadlocked: the wait fails, and a core that goes
 * on waiting after a failed wait ends. */
static rck_status_t wait_deadlocked(native_t *n)
{
    if (n->dl_failed) {
        /* the program went on waiting after a failed wait */
        fflush(NULL);
        _exit(RCK_HAL_EXIT_DEADLOCK);
    }
    n->dl_failed = 1;
    rck_be_deadlock_exit_arm();
    rck_error("deadlock reported; abandoning the wait");
    return RCK_ERR_DEADLOCK;
}

/* A wait without deadline is about to sleep: publish it (the first time;
 * later sleeps of the same wait only update the bell's value) and cap the
 * sleep so that this core looks at the others now and then (see the top).
 * @return the sleep's timeout (ns, < 0 = none). */
static int64_t dl_before_sleep(native_t *n, int core,
                               const rck_hal_cond_t *conds, int nc, int irq,
                               _Atomic uint32_t *bell, uint32_t seq,
                               uint64_t start, int *blocked, int64_t ns)
{
    int64_t look = n->dl_ns / 6 < 500000000 ? n->dl_ns / 6 : 500000000;

    if (!*blocked)
        native_dl_publish(n, core, conds, nc, irq,
                          bell == &n->hdr->any_doorbell, seq, start);
    else
        atomic_store(&n->cores[core].dl_bell_seq, seq);
    *blocked = 1;
    return ns < 0 || ns > look ? look : ns;
}

/* A wait with a zero timeout (the MPI library's poll, once per progress
 * round): native_wait's loop without its clock and doorbell. */
static rck_status_t wait_poll(rck_hal_t *hal, const rck_hal_cond_t *conds,
                              int nc, int want_irq, int *which)
{
    native_t *n = nat(hal);
    int i;

    if ((want_irq || hal->irq_handler != NULL) &&
        irq_any_pending(n, hal->core)) {
        int cnt;
        rck_cs_irq_poll(hal, &cnt);
        if (want_irq) {
            *which = -1;
            return RCK_INTERRUPTED;
        }
    }
    i = conds_check(n, conds, nc);
    if (i >= 0) {
        *which = i;
        progress_bump(n);
        return RCK_OK;
    }
    if (atomic_load_explicit(&n->hdr->failed_core, memory_order_relaxed) >=
        0) {
        /* Once: every later wait fails the same way (a program that
         * finalizes after a failed call waits again), and one line per
         * surviving core is enough. */
        if (!n->peer_dead_said)
            rck_error("core %d failed; abandoning the wait",
                      (int)atomic_load(&n->hdr->failed_core));
        n->peer_dead_said = 1;
        return RCK_ERR_PEER_DEAD;
    }
    if (atomic_load_explicit(&n->hdr->deadlock, memory_order_relaxed) == 2)
        return wait_deadlocked(n);
    return RCK_ERR_TIMEDOUT;
}

static rck_status_t native_wait(rck_hal_t *hal, const rck_hal_cond_t *conds,
                                int nc, unsigned flags, int64_t timeout_ns,
                                int *which)
{
    native_t *n = nat(hal);
    _Atomic uint32_t *bell, *waiters;
    uint64_t start, deadline = UINT64_MAX;
    int want_irq = (flags & RCK_WAIT_IRQ) != 0;
    int shm = rck__nat_wait_has_shm(conds, nc);
    int i;
    rck_status_t st0;

    int blocked = 0;

    if (timeout_ns == 0)
        return wait_poll(hal, conds, nc, want_irq, which);
    /* what is there already takes one look, without the clock */
    st0 = wait_poll(hal, conds, nc, want_irq, which);
    if (st0 != RCK_ERR_TIMEDOUT)
        return st0;
    rck__nat_wait_doorbell(n, conds, nc, hal->core, &bell, &waiters);
    start = rck_be_now_ns();
    if (timeout_ns >= 0)
        deadline = start + (uint64_t)timeout_ns;
    for (;;) {
        int irq_matters = want_irq || hal->irq_handler != NULL;
        uint64_t t;

        rck_status_t st = wait_poll(hal, conds, nc, want_irq, which);

        if (st != RCK_ERR_TIMEDOUT) {
            if (blocked)
                native_dl_unpublish(n, hal->core);
            return st;
        }
        t = rck_be_now_ns();
        if (t >= deadline) {
            if (blocked)
                native_dl_unpublish(n, hal->core);
            return RCK_ERR_TIMEDOUT;
        }
        int64_t yield_ns;
        int64_t spin = rck__nat_spin_now(n, hal->nues, t, &yield_ns);
        if ((flags & RCK_WAIT_SLEEP) && hal->nues > n->ncpu)
            spin = 0; /* the yield, where the policy has one, stays */
        if ((int64_t)(t - start) < spin) {
            /* Spin on the words themselves; look at the clock, interrupts
             * and failures only now and then. */
            for (int k = 0; k < 256; k++) {
                rck_be_cpu_relax();
                if (irq_matters && irq_any_pending(n, hal->core))
                    break;
                i = conds_check(n, conds, nc);
                if (i >= 0) {
                    *which = i;
                    progress_bump(n);
                    return RCK_OK;
                }
            }
            continue;
        }
        /* Oversubscribed, give the CPU to a core that can make progress
         * for a while before paying a futex sleep and wake-up. */
        if ((int64_t)(t - start) < spin + yield_ns) {
            sched_yield();
            continue;
        }
        /* sleep */
        if (shm && bell != &n->hdr->any_doorbell)
            rck__nat_shm_watch_begin(n, hal->core, conds, nc);
        atomic_fetch_add(waiters, 1);
        uint32_t seq = atomic_load(bell);
        int fenced = asym_sleeper_fence(n);
        i = conds_check(n, conds, nc);
        if (i < 0 && !(irq_matters && irq_any_pending(n, hal->core)) &&
            atomic_load(&n->hdr->failed_core) < 0) {
            int64_t ns = deadline == UINT64_MAX ? -1 : (int64_t)(deadline - t);
            /* Shared DRAM is written with plain stores that ring no bell:
             * poll it. */
            if ((shm || !fenced) && (ns < 0 || ns > 200000))
                ns = 200000;
            native_publish_context(hal);
            if (n->dl_ns > 0 && deadline == UINT64_MAX)
                ns = dl_before_sleep(n, hal->core, conds, nc, irq_matters,
                                     bell, seq, start, &blocked, ns);
            atomic_fetch_add(&n->hdr->sleepers, 1);
            int slept = rck_be_futex_wait(bell, seq, ns);
            atomic_fetch_sub(&n->hdr->sleepers, 1);
            if (slept == 0) /* woken: running now */
                atomic_fetch_sub_explicit(&n->hdr->woken, 1,
                                          memory_order_relaxed);
            if (slept == 0 || slept == EAGAIN)
                atomic_fetch_add_explicit(&n->cores[hal->core].bell_wakes, 1,
                                          memory_order_relaxed);
        }
        atomic_fetch_sub(waiters, 1);
        if (shm && bell != &n->hdr->any_doorbell)
            rck__nat_shm_watch_end(n, hal->core);
        if (blocked) {
            uint64_t now = rck_be_now_ns();
            if (now >= n->dl_next) {
                n->dl_next = now + (uint64_t)(n->dl_ns / 6);
                native_dl_look(n, hal, now);
            }
        }
    }
}

/* ---- clocks, shared DRAM ---- */

static rck_status_t native_gtsc_read(rck_hal_t *hal, uint64_t *ticks)
{
    uint64_t ns = rck_be_now_ns() - nat(hal)->hdr->t0_ns;
    *ticks = (uint64_t)((double)ns * hal->chip.mesh_mhz / 1000.0);
    return RCK_OK;
}

/* Host memory has one kind of mapping: nothing to record. */
static rck_status_t native_shm_set_map(rck_hal_t *hal, size_t off, size_t len,
                                       rck_map_t type, int mc)
{
    return RCK_OK;
}

/* No address: every watching core may have been written to. */
static rck_status_t native_shm_flush(rck_hal_t *hal)
{
    native_t *n = nat(hal);

    progress_bump(n);
    atomic_thread_fence(memory_order_seq_cst);
    rck__nat_shm_ring(n, 0, UINT64_MAX / 2);
    return RCK_OK;
}

static rck_status_t native_dcache_flush(rck_hal_t *hal)
{
    atomic_thread_fence(memory_order_seq_cst);
    return RCK_OK;
}

static rck_status_t native_shm_write(rck_hal_t *hal, size_t off,
                                     const void *src, size_t len)
{
    native_t *n = nat(hal);

    memcpy(n->cs.shm + off, src, len);
    progress_bump(n);
    /* the protocol's fence, or the sleepers' membarrier (as ring()) */
    rck_be_writer_fence(n->asym);
    /* nobody watching or asleep on the segment-wide doorbell, the usual
     * case while the cores spin: two loads */
    if (__builtin_expect(
            (atomic_load_explicit(&n->hdr->shm_watchers,
                                  memory_order_relaxed) |
             (int32_t)atomic_load_explicit(&n->hdr->any_waiters,
                                           memory_order_relaxed)) != 0,
            0))
        rck__nat_shm_ring(n, off, len);
    return RCK_OK;
}

/* Native runs on the host's memory: nothing to account. */
static rck_status_t native_shm_touch(rck_hal_t *hal, size_t off, size_t len,
                                     int write)
{
    (void)hal;
    (void)off;
    (void)len;
    (void)write;
    return RCK_OK;
}

static void native_syscall(rck_hal_t *hal, void (*fn)(void *arg), void *arg)
{
    (void)hal;
    fn(arg);
}

static void native_trap(rck_hal_t *hal, uint64_t host_ns)
{
    (void)hal;
    (void)host_ns;
}

/* ---- clocks ---- */

static rck_status_t native_wtime(rck_hal_t *hal, double *seconds)
{
    *seconds = (double)(rck_be_now_ns() - nat(hal)->hdr->t0_ns) * 1e-9;
    return RCK_OK;
}

/* Native cycles: host time at the core's current modelled frequency. */
static rck_status_t native_cycles(rck_hal_t *hal, uint64_t *cycles)
{
    native_t *n = nat(hal);
    double s;
    int fdiv = rck_cs_fdiv_get(&n->cs, hal->core);

    native_wtime(hal, &s);
    *cycles = (uint64_t)(s * rck_chip_fdiv_mhz(&hal->chip, fdiv) * 1e6);
    return RCK_OK;
}

/* No portable, cheap instruction counter here (see HOST-FACTS.md). */
static rck_status_t native_perfctr_read(rck_hal_t *hal, int idx,
                                        uint64_t *value)
{
    return rck_hal_unsupported();
}

/* Remembered locally (a hot path); copied to the segment only when the
 * core goes to sleep, which is when a report may need it. */
static void native_set_context(rck_hal_t *hal, const char *call, int peer)
{
    native_t *n = nat(hal);

    n->ctx_call = call;
    n->ctx_peer = peer;
}

/* ---- spawning (rck_hal_spawn) ---- */

static void native_spawn_release(rck_hal_t *hal, int n, const int *ues)
{
    native_t *nt = nat(hal);

    for (int i = 0; i < n; i++) {
        uint32_t idle = CORE_IDLE;
        if (atomic_compare_exchange_strong(
                &nt->cores[hal->ue_core[ues[i]]].state, &idle, CORE_DORMANT))
            atomic_fetch_add(&nt->hdr->dormant, 1);
    }
}

static rck_status_t native_spawn_claim(rck_hal_t *hal, int n, int *ues)
{
    native_t *nt = nat(hal);
    int got = 0;

    for (int ue = 0; ue < hal->nues && got < n; ue++) {
        uint32_t dormant = CORE_DORMANT;
        if (atomic_compare_exchange_strong(
                &nt->cores[hal->ue_core[ue]].state, &dormant, CORE_IDLE)) {
            atomic_fetch_sub(&nt->hdr->dormant, 1);
            ues[got++] = ue;
        }
    }
    if (got == n)
        return RCK_OK;
    native_spawn_release(hal, got, ues);
    return RCK_ERR_BUSY;
}

static const rck_job_ops_t native_job_ops = {
    .create = native_job_create,
    .child_setup = native_job_child_setup,
    .child_wrap = rck_be_job_child_wrap_none,
    .core_attached = native_job_core_attached,
    .core_exited = native_job_core_exited,
    .tick = rck_be_job_tick_none,
    .shm_auto = rck_native_shm_auto,
    .destroy = native_job_destroy,
};

const rck_hal_ops_t rck_native_ops = {
    .name = "native",
    .caps = RCK_CAP_SHARED_MEMORY | RCK_CAP_IDLE_CORES | RCK_CAP_STDIN_ROUTE,
    .job = &native_job_ops,
    .attach = native_attach,
    .attach_end = rck_be_attach_end_none,
    .detach = native_detach,
    .mpb_map = rck_cs_mpb_map,
    .mpb_write = native_mpb_write,
    .mpb_read = rck_cs_mpb_read,
    .mpb_copy = native_mpb_copy,
    .mpb_store32 = native_mpb_store32,
    .mpb_load32 = rck_cs_mpb_load32,
    .cl1invmb = rck_cs_cl1invmb,
    .mpb_prefetch = native_mpb_prefetch,
    .wcb_flush = rck_cs_wcb_flush,
    .mpb_write_flag = native_mpb_write_flag,
    .lut_window = native_lut_window,
    .tas_try = rck_cs_tas_try,
    .tas_release = native_tas_release,
    .irq_raise = rck_cs_irq_raise,
    .irq_poll = rck_cs_irq_poll,
    .wait = native_wait,
    .gtsc_read = native_gtsc_read,
    .atomic_inc = rck_cs_atomic_inc,
    .atomic_read = rck_cs_atomic_read,
    .atomic_write = rck_cs_atomic_write,
    .lut_read = rck_cs_lut_read,
    .lut_write = rck_cs_lut_write,
    .shm_map = rck_cs_shm_map,
    .shm_set_map = native_shm_set_map,
    .shm_flush = native_shm_flush,
    .dcache_flush = native_dcache_flush,
    .shm_write = native_shm_write,
    .shm_read = rck_cs_shm_read,
    .shm_touch = native_shm_touch,
    .syscall = native_syscall,
    .trap = native_trap,
    .freq_set = rck_cs_freq_set,
    .freq_get = rck_cs_freq_get,
    .volt_set = rck_cs_volt_set,
    .volt_get = rck_cs_volt_get,
    .volt_wait = rck_be_volt_wait_instant,
    .power_read = rck_be_power_unsupported,
    .cycles = native_cycles,
    .wtime = native_wtime,
    .perfctr_read = native_perfctr_read,
    .console_write = rck_cs_console_write,
    .set_context = native_set_context,
    .set_message = rck_be_set_message_none,
    .monitor = rck_be_monitor_now,
    .spawn_claim = native_spawn_claim,
    .spawn_release = native_spawn_release,
};
