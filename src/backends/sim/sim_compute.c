/*
 * Compute models: how many core cycles the program's own code between two
 * HAL calls costs (RCK_COMPUTE, from the configuration table; see
 * docs/SIM.md).
 *
 *   none               zero
 *   host[:REL]         host thread CPU time x core_mhz / REL; REL is the
 *                      SCC core's speed relative to the host core (default
 *                      the chip's relative_core_speed, 0.05)
 *   instructions[:CPI] retired user instructions (perf_event_open) x CPI;
 *                      falls back to host where the counter is unavailable
 *   p54c, p54c-fast    the program's own instructions, counted under QEMU,
 *                      timed as a P54C with (p54c) or without its caches
 *                      (sim_p54c.c)
 *
 * Owns: the compute clock of a core (sim_t.compute*). May call: nothing
 * else of the sim. Called by the HAL slots (sim.c: enter, leave), the
 * segment (the compute settings of a run) and the reports (model names).
 */
#include "sim_compute.h"
#include "sim_state.h"
#include "sim_p54c.h"
#include "sim_costs.h"

#include "rck/config.h"
#include "rck/log.h"
#include <inttypes.h>

#include <errno.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#if defined(__linux__) && defined(__GLIBC__) && \
    (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 35)) && \
    (defined(__x86_64__) || defined(__aarch64__))
#include <sys/rseq.h>
#define SIM_HAVE_RSEQ 1
#endif

/* The reference host of relative_core_speed: a 3.07 GHz Core i7-950. With
 * one instruction per cycle there, an SCC core at relative speed r retires
 * r x 3070 M instructions per second, so CPI = core_mhz / (r x 3070). */
#define SIM_REF_HOST_MHZ 3070.0

static int perf_open(void)
{
    struct perf_event_attr a;

    memset(&a, 0, sizeof(a));
    a.size = sizeof(a);
    a.type = PERF_TYPE_HARDWARE;
    a.config = PERF_COUNT_HW_INSTRUCTIONS;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1,
                        PERF_FLAG_FD_CLOEXEC);
}

static int parse_pos(const char *s, double *out)
{
    char *end;
    double v;

    errno = 0;
    v = strtod(s, &end);
    if (errno != 0 || end == s || *end != '\0' || !(v > 0) || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

rck_status_t sim_compute_configure(sim_hdr_t *h, const char *program)
{
    const char *s = rck_config_get("COMPUTE");
    const rck_chip_t *c = &h->chip;

    h->compute_rel = sim_costs(c)->relative_core_speed > 0
                         ? sim_costs(c)->relative_core_speed
                         : 0.05;
    h->compute_cpi = c->core_mhz / (h->compute_rel * SIM_REF_HOST_MHZ);
    if (!strcmp(s, "auto")) {
        /* the P54C model where it costs no more than host's: programs
         * that count their own instructions (docs/P54C.md) */
        int counted = sim_p54c_counted(program, 0);
        if (counted >= 1) {
            /* engine_choose: counted, known; with memory checks
             * (rckcc -rck-mem), the caches too */
            h->p54c.from_auto = (uint32_t)counted;
            return sim_p54c_configure(h, counted == 2 ? "p54c" : "p54c-fast",
                                      program);
        }
        if (sim_p54c_is_script(program)) {
            /* a script: the program it starts is read when it attaches
             * (counted: p54c-fast; else that core uses host) */
            h->p54c.from_auto = 1;
            return sim_p54c_configure(h, "p54c-fast", program);
        }
        h->compute = COMPUTE_HOST;
    } else if (*s == '\0' || !strcmp(s, "host")) {
        h->compute = COMPUTE_HOST;
    } else if (!strncmp(s, "p54c", 4)) {
        return sim_p54c_configure(h, s, program);
    } else if (!strcmp(s, "none")) {
        h->compute = COMPUTE_NONE;
    } else if (!strncmp(s, "host:", 5)) {
        h->compute = COMPUTE_HOST;
        if (parse_pos(s + 5, &h->compute_rel) != 0)
            goto bad;
    } else if (!strcmp(s, "instructions") ||
               !strncmp(s, "instructions:", 13)) {
        int fd;

        h->compute = COMPUTE_INSTR;
        if (s[12] == ':' && parse_pos(s + 13, &h->compute_cpi) != 0)
            goto bad;
        fd = perf_open();
        if (fd < 0) {
            rck_warn("RCK_COMPUTE=%s: the retired-instruction counter is "
                     "not available here (perf_event_open: %s); using the "
                     "host compute model (RCK_COMPUTE=host)",
                     s, strerror(errno));
            h->compute = COMPUTE_HOST;
        } else {
            close(fd);
        }
    } else {
        goto bad;
    }
    return RCK_OK;

bad:
    rck_error("RCK_COMPUTE='%s' is not one of auto, none, "
              "host[:RELATIVE_SPEED], instructions[:CPI], p54c, p54c-fast",
              s);
    return RCK_ERR_CONFIG;
}

#define SIM_OVH_SAMPLES 63

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static uint64_t clock_ns(clockid_t id)
{
    struct timespec ts;

    clock_gettime(id, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * The thread's CPU time, cheaply. CLOCK_THREAD_CPUTIME_ID is a system
 * call (about 1 us here, two per HAL call: as much as the rest of a
 * call). But between two context switches a thread's CPU time advances
 * with the wall clock (a vDSO read, 40 ns). So: while the thread has not
 * been switched out since the last exact reading, the CPU time is that
 * reading plus the wall time since; otherwise read the clock again.
 * Hand-overs (the core sleeps) cost one exact reading; program code
 * between HAL calls costs none.
 *
 * How a switch is seen, best first:
 *
 * rseq: glibc registers a struct rseq for every thread; its rseq_cs field
 * names the restartable sequence in progress, and the kernel sets it to
 * NULL when it preempts the thread, migrates it or delivers a signal
 * outside that sequence (the ABI in linux/rseq.h). We point it at a
 * sequence of no instructions, so every switch clears it: one store to
 * arm, one load to check, and nothing at all in the kernel's context
 * switch. Checked when the core attaches (a sleep must clear it);
 * anything else that uses rseq_cs (a library's own sequences) only makes
 * readings exact more often.
 *
 * perf: the user page of a software task-clock perf event of the thread,
 * whose seqlock the kernel bumps at every context switch (and some timer
 * ticks). The event makes every context switch of the thread dearer
 * (about 2 us here): used only where rseq is not there.
 */
#ifdef SIM_HAVE_RSEQ
/* A restartable sequence of no instructions, with the signature the
 * kernel checks before the abort address (it reads it even when it only
 * clears the pointer). */
static const uint32_t rseq_sig_abort[2] = {RSEQ_SIG, 0};
static struct rseq_cs rseq_none __attribute__((aligned(32)));

static inline volatile uint64_t *rseq_cs_word(void)
{
    struct rseq *r =
        (struct rseq *)((char *)__builtin_thread_pointer() + __rseq_offset);
    return (volatile uint64_t *)&r->rseq_cs;
}

static inline void rseq_arm(void)
{
    __atomic_store_n(rseq_cs_word(), (uint64_t)(uintptr_t)&rseq_none,
                     __ATOMIC_RELAXED);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

static inline int rseq_armed(void)
{
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    return __atomic_load_n(rseq_cs_word(), __ATOMIC_RELAXED) ==
           (uint64_t)(uintptr_t)&rseq_none;
}

/* rseq registered, and a sleep clears an armed word (the kernel honours
 * the ABI): then the switch detector is usable. */
static int rseq_usable(void)
{
    struct timespec ts = {0, 1000};

    if (__rseq_size == 0)
        return 0; /* not registered (glibc.pthread.rseq=0, old kernel) */
    rseq_none.version = 0;
    rseq_none.flags = 0;
    rseq_none.start_ip = (uint64_t)(uintptr_t)&rseq_sig_abort[1];
    rseq_none.post_commit_offset = 0;
    rseq_none.abort_ip = (uint64_t)(uintptr_t)&rseq_sig_abort[1];
    rseq_arm();
    if (!rseq_armed())
        return 0;
    nanosleep(&ts, NULL);
    if (rseq_armed()) {
        *rseq_cs_word() = 0;
        return 0;
    }
    return 1;
}
#endif

static void fast_clock_open(sim_t *s)
{
    struct perf_event_attr a;
    void *pg;

    s->clock_fd = -1;
    s->clock_page = NULL;
    s->clock_rseq = 0;
#ifdef SIM_HAVE_RSEQ
    if (rseq_usable()) {
        s->clock_rseq = 1;
        s->clock_valid = 0;
        return;
    }
#endif
    memset(&a, 0, sizeof(a));
    a.size = sizeof(a);
    a.type = PERF_TYPE_SOFTWARE;
    a.config = PERF_COUNT_SW_TASK_CLOCK;
    s->clock_fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1,
                               PERF_FLAG_FD_CLOEXEC);
    if (s->clock_fd < 0)
        return;
    pg = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED,
              s->clock_fd, 0);
    if (pg == MAP_FAILED) {
        close(s->clock_fd);
        s->clock_fd = -1;
        return;
    }
    s->clock_page = pg;
    s->clock_valid = 0;
}

static void fast_clock_close(sim_t *s)
{
    if (s->clock_page != NULL)
        munmap((void *)s->clock_page, (size_t)sysconf(_SC_PAGESIZE));
    if (s->clock_fd >= 0)
        close(s->clock_fd);
    s->clock_page = NULL;
    s->clock_fd = -1;
}

/* The wall clock the readings are extrapolated with. (The time stamp
 * counter is cheaper than the vDSO's CLOCK_MONOTONIC, 12 against 30 ns
 * here, but the compute charged for the short intervals between the HAL
 * calls of a library call is mostly the cost of the readings themselves
 * less their measured overhead, and with the TSC it came out 12% higher:
 * a 32-byte pingpong's chip time 0.047 s against 0.042 s. So the vDSO's
 * clock stays, as the model was calibrated with it.) */
static inline uint64_t wall_ns(sim_t *s)
{
    (void)s;
    return clock_ns(CLOCK_MONOTONIC);
}

/* Wall time a reading may be extrapolated over: the thread's CPU time
 * lags the wall clock by the time the host stole from the vCPU and the
 * time spent in interrupts, which no switch reveals. */
#define SIM_CLOCK_RESYNC_NS 1000000ull

static uint64_t thread_cpu_raw(sim_t *s)
{
    const volatile struct perf_event_mmap_page *pg = s->clock_page;
    uint32_t seq;

#ifdef SIM_HAVE_RSEQ
    if (s->clock_rseq) {
        /* armed before the exact reading: a switch after it clears it.
         * Per thread: the reading must be this thread's. */
        const volatile void *me = rseq_cs_word();
        if (s->clock_valid && s->clock_tls == me) {
            uint64_t w = wall_ns(s);
            if (rseq_armed() && w - s->clock_wall < SIM_CLOCK_RESYNC_NS) {
                s->clock_at = w;
                s->clock_at_est = s->clock_est;
                return s->clock_cpu + (w - s->clock_wall);
            }
        }
        rseq_arm();
        s->clock_cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID);
        s->clock_wall = wall_ns(s);
        s->clock_tls = me;
        s->clock_valid = 1;
        s->clock_est = 0;
        s->clock_at = s->clock_wall;
        s->clock_at_est = 0;
        return s->clock_cpu;
    }
#endif
    s->clock_at_est = 0;
    if (pg == NULL) {
        s->clock_at = wall_ns(s);
        return clock_ns(CLOCK_THREAD_CPUTIME_ID);
    }
    /* Acquire loads rather than fences: ThreadSanitizer builds reject
     * atomic_thread_fence. */
    seq = __atomic_load_n(&pg->lock, __ATOMIC_ACQUIRE);
    if (s->clock_valid && seq == s->clock_seq) {
        uint64_t w = wall_ns(s);
        if (__atomic_load_n(&pg->lock, __ATOMIC_ACQUIRE) == seq) {
            s->clock_at = w;
            return s->clock_cpu + (w - s->clock_wall);
        }
    }
    s->clock_cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    s->clock_wall = wall_ns(s);
    s->clock_at = s->clock_wall;
    s->clock_seq = seq;
    s->clock_valid = !(seq & 1); /* odd: the kernel was rewriting it */
    return s->clock_cpu;
}

/* Never backwards: an extrapolated reading can exceed the exact one that
 * follows it (the lag above); the compute charged from it is then 0, not
 * a wrapped difference. */
static uint64_t thread_cpu_ns(sim_t *s)
{
    uint64_t v = thread_cpu_raw(s);

    if (v < s->clock_last)
        return s->clock_last;
    s->clock_last = v;
    return v;
}

static uint64_t instructions(sim_t *s)
{
    uint64_t v = 0;

    if (read(s->perf_fd, &v, sizeof(v)) != (ssize_t)sizeof(v))
        return s->compute_mark;
    return v;
}

/*
 * Across a sleep for the token. The thread's CPU time does not advance
 * while it sleeps, so the reading before the sleep, continued with the
 * wall clock from the wake-up, serves as the next readings' base without
 * a system call (about 1 us here, one per hand-over). It misses the
 * kernel's own time in the futex calls (a few us), which belongs to the
 * HAL call and is charged to nobody either way, unless the thread is
 * switched out again before its next HAL call: that call's exact reading
 * then includes it, and the compute charged is capped at the wall time
 * of the interval (sim_compute_take), which no CPU time can exceed.
 *
 * Disarmed before the sleep, the rseq word also spares the kernel reading
 * and checking our sequence's descriptor on the way back to user mode.
 */
void sim_compute_sleep(sim_t *s)
{
#ifdef SIM_HAVE_RSEQ
    if (!s->clock_rseq)
        return;
    s->sleep_ok = 0;
    if (s->clock_valid && s->clock_tls == rseq_cs_word() && rseq_armed()) {
        uint64_t w = wall_ns(s);
        if (rseq_armed() && w - s->clock_wall < SIM_CLOCK_RESYNC_NS) {
            s->sleep_cpu = s->clock_cpu + (w - s->clock_wall);
            s->sleep_ok = 1;
        }
    }
    *rseq_cs_word() = 0;
#else
    (void)s;
#endif
}

void sim_compute_woke(sim_t *s)
{
#ifdef SIM_HAVE_RSEQ
    if (!s->clock_rseq || !s->sleep_ok)
        return;
    s->sleep_ok = 0;
    rseq_arm();
    s->clock_cpu = s->sleep_cpu;
    s->clock_wall = wall_ns(s);
    s->clock_tls = rseq_cs_word();
    s->clock_valid = 1;
    s->clock_est = 1;
#else
    (void)s;
#endif
}

void sim_compute_init(sim_t *s)
{
    s->compute = s->hdr->compute;
    s->compute_rel = s->hdr->compute_rel;
    s->compute_cpi = s->hdr->compute_cpi;
    s->perf_fd = -1;
    s->clock_fd = -1;
    s->clock_page = NULL;
    if (s->compute == COMPUTE_INSTR) {
        s->perf_fd = perf_open();
        if (s->perf_fd < 0) {
            rck_warn("the retired-instruction counter is not available to "
                     "this core (perf_event_open: %s); it uses the host "
                     "compute model",
                     strerror(errno));
            s->compute = COMPUTE_HOST;
        }
    }
    if (sim_p54c_core_init(s) != RCK_OK)
        _exit(1); /* said why; the launcher aborts the run */
    /* (after: a program a script started without counters falls back) */
    if (s->compute == COMPUTE_HOST)
        fast_clock_open(s);
    /* A reading costs time (a system call) that the model must not charge
     * as the program's: the median of back-to-back readings. */
    s->compute_ovh = 0;
    if (s->compute == COMPUTE_HOST || s->compute == COMPUTE_INSTR) {
        uint64_t d[SIM_OVH_SAMPLES];
        for (int i = 0; i < SIM_OVH_SAMPLES; i++) {
            uint64_t a;
            sim_compute_mark(s);
            a = s->compute_mark;
            sim_compute_mark(s);
            d[i] = s->compute_mark - a;
        }
        qsort(d, SIM_OVH_SAMPLES, sizeof(*d), cmp_u64);
        s->compute_ovh = d[SIM_OVH_SAMPLES / 2];
    }
}

void sim_compute_start(sim_t *s)
{
    if (s->compute_started)
        return;
    s->compute_started = 1;
    sim_compute_mark(s);
}

void sim_compute_fini(sim_t *s)
{
    if (s->perf_fd >= 0)
        close(s->perf_fd);
    s->perf_fd = -1;
    fast_clock_close(s);
    sim_p54c_core_fini(s);
}

void sim_compute_mark(sim_t *s)
{
    switch (s->compute) {
    case COMPUTE_HOST:
        s->clock_at_est = 0;
        s->compute_mark = thread_cpu_ns(s);
        s->mark_at = s->clock_at;
        s->mark_est = s->clock_at_est;
        break;
    case COMPUTE_INSTR:
        s->compute_mark = instructions(s);
        break;
    case COMPUTE_P54C:
    case COMPUTE_P54C_FAST:
        sim_p54c_mark(s);
        break;
    default:
        break;
    }
}

double sim_compute_take(sim_t *s, int at_entry)
{
    double cyc = 0;
    uint64_t d, now, wall;

    switch (s->compute) {
    case COMPUTE_HOST:
        s->clock_at_est = 0;
        now = thread_cpu_ns(s);
        /* the wall time between the two readings (each reading notes
         * its own: no clock read for this) */
        wall = s->clock_at > s->mark_at ? s->clock_at - s->mark_at : 0;
        d = now > s->compute_mark ? now - s->compute_mark : 0;
        if (d > wall) {
            /* CPU time cannot outrun the wall clock: a reading was off,
             * or an estimated mark met an exact reading (see
             * sim_compute_sleep) */
            if (!s->mark_est)
                rck_debug("sim: compute slice of %" PRIu64 " ns in %" PRIu64
                          " ns of wall time; charging the wall time",
                          d, wall);
            d = wall;
        }
        d = d > s->compute_ovh ? d - s->compute_ovh : 0;
        if (s->compute_discount_slices > 0) {
            /* a trap's host time: from this slice, the rest from the next
             * one (where the return from the signal handler falls) */
            uint64_t x = d < s->compute_discount_ns ? d
                                                    : s->compute_discount_ns;
            d -= x;
            s->compute_discount_ns -= x;
            if (--s->compute_discount_slices == 0)
                s->compute_discount_ns = 0;
        }
        cyc = (double)d * s->chip->core_mhz / 1000.0 / s->compute_rel;
        break;
    case COMPUTE_INSTR:
        d = instructions(s) - s->compute_mark;
        d = d > s->compute_ovh ? d - s->compute_ovh : 0;
        s->me->instructions += d;
        cyc = (double)d * s->compute_cpi;
        break;
    case COMPUTE_P54C:
    case COMPUTE_P54C_FAST:
        return sim_p54c_take(s, at_entry); /* whole cycles; its own carry */
    default:
        return 0;
    }
    cyc += s->compute_carry;
    s->compute_carry = cyc - floor(cyc);
    return floor(cyc);
}
