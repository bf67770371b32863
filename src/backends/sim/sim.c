/*
 * The sim backend's operations: the functional effect of every HAL call on
 * the chip state in the segment, its cost from the timing model, and the
 * engine calls that put it in global virtual-time order (sim_engine.c).
 *
 * Every slot that touches state other cores can see starts with begin():
 * charge the compute since the last HAL call, then become the earliest
 * core (which may hand the token over and sleep). Plain writes start with
 * write_begin() instead (a core that is not the earliest queues them:
 * invariant 5 in sim_internal.h), and a wait that must park may do so
 * without its turn (wait_park_now). Slots that only look at this core's
 * own state (its clock, its L1, its console) skip the ordering. Functional effects happen at the issue time of the event;
 * writes record when they become visible (completion), and a parked wait
 * resumes at that visibility time plus one poll.
 */
#include "sim_internal.h"
#include "seg.h"

#include "rck/config.h"
#include "rck/log.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

/* How long a core that gave the token away spins for it by default: not
 * at all. With more cores than CPUs a spinner steals the CPU the token's
 * holder needs (measured 6 times slower with 48 cores on 2); and since
 * plain writes no longer hand over (lazy writes), the token comes back
 * after a whole request, not a single access, so even 2 cores on 2 CPUs
 * were 3-5 times slower spinning 50 us (which then mostly misses and
 * leaves the cores on different CPUs, where every futex wake-up crosses
 * CPUs) than sleeping at once (docs/SIM.md). */
#define SIM_SPIN_NS_AUTO 0


struct rck_job {
    int fd;
    sim_hdr_t *hdr;
    size_t bytes;
    int pin_fd;                /* holds this run's CPU (pin_auto), or -1 */
};

static sim_t *sim_live; /* the attached core of this process, for atexit */

/* ---- segment ---- */

static size_t align_up(size_t v, size_t a)
{
    return (v + a - 1) / a * a;
}

static void seg_layout(const rck_chip_t *c, int nues, size_t shm_bytes,
                       sim_hdr_t *h)
{
    size_t nc = (size_t)c->ncores;
    size_t off = align_up(sizeof(sim_hdr_t), 4096);

    h->ues_off = off;
    off += align_up(sizeof(sim_ue_t) * (size_t)nues, 4096);
    h->cores_off = off;
    off += align_up(sizeof(sim_core_t) * nc, 4096);
    h->gic_off = off;
    off += align_up(sizeof(uint64_t) * nc * nc, 4096);
    h->counters_off = off;
    off += align_up(sizeof(int32_t) * (size_t)c->atomic_counters, 4096);
    h->vis_off = off;
    off += align_up(sizeof(uint64_t) * nc * (c->mpb_bytes / c->line_bytes),
                    4096);
    h->mc_off = off;
    off += align_up(sizeof(sim_mc_t) * (size_t)c->nmc, 4096);
    h->matrix_off = off;
    off += align_up(sizeof(sim_pair_t) * (size_t)nues * nc, 4096);
    h->links_off = off;
    off += align_up(sizeof(sim_link_t) * (size_t)nues *
                        (size_t)c->ntiles * SIM_LINK_DIRS,
                    4096);
    h->pw_off = off;
    off += align_up(sizeof(sim_pwq_t) * (size_t)nues, 4096);
    h->mpb_off = off;
    off += align_up((size_t)c->mpb_bytes * nc, 4096);
    h->shm_off = off;
    h->shm_bytes = align_up(shm_bytes, 4096);
    h->seg_bytes = off + h->shm_bytes;
}

/* The default LUT, after the sccKit layout (the same as the native
 * backend's): private DRAM pages first, shared DRAM at 0x80, MPBs of the
 * tiles from 0xc0, CRBs from 0xe0. Entry = tile << 13 | subdest << 10 |
 * page. Storage only: nothing translates addresses through it. */
static uint32_t lut_default(const rck_chip_t *chip, int core, int idx)
{
    enum { SUB_CRB = 2, SUB_MPB = 3, SUB_PORT = 4 };
    int mc = sim_mc_nearest(chip, core);

    if (idx < 0x29) {
        int mtile = chip->mc[mc].y * chip->mesh_x + chip->mc[mc].x;
        return ((uint32_t)mtile << 13) | (SUB_PORT << 10) |
               (uint32_t)(core * 0x29 + idx) % 1024;
    }
    if (idx >= 0x80 && idx < 0x84) {
        int m = (idx - 0x80) % chip->nmc;
        int mtile = chip->mc[m].y * chip->mesh_x + chip->mc[m].x;
        return ((uint32_t)mtile << 13) | (SUB_PORT << 10) | 0x3f0u;
    }
    if (idx >= 0xc0 && idx < 0xc0 + chip->ntiles && idx < 0xe0)
        return ((uint32_t)(idx - 0xc0) << 13) | (SUB_MPB << 10);
    if (idx >= 0xe0 && idx < 0xe0 + chip->ntiles && idx < 0x100)
        return ((uint32_t)(idx - 0xe0) << 13) | (SUB_CRB << 10);
    return 0;
}

/* RCK_SIM_PIN: "auto" (default), "off", or a host CPU to pin every core of
 * the run to. Only one core runs at a time, and a hand-over within one CPU
 * is cheaper than one that wakes the other CPU (a 48-core stencil 3-12%
 * faster pinned on a 2-vCPU VM, more under load; docs/SIM.md); but two
 * runs pinned to the same CPU take twice as long. So "auto" takes a CPU
 * that no other run on the machine has taken (pin_auto), and pins nothing
 * when there is none. */
#define SIM_PIN_AUTO (-2)
static int pin_choice(void)
{
    const char *s = rck_config_get("SIM_PIN");
    char *end;
    long v;

    if (*s == '\0' || !strcasecmp(s, "auto"))
        return SIM_PIN_AUTO;
    if (!strcasecmp(s, "off") || !strcasecmp(s, "no") || !strcmp(s, "-1"))
        return -1;
    v = strtol(s, &end, 10);
    if (*end == '\0' && v >= 0 && v < CPU_SETSIZE)
        return (int)v;
    rck_warn("RCK_SIM_PIN='%s' is not auto, off or a CPU number; not "
             "pinning",
             s);
    return -1;
}

/* A CPU of the launcher's set that no other sim run holds, starting with
 * the one the launcher runs on: a run holds its CPU by binding an abstract
 * UNIX socket named after it for its whole length (the kernel lets one
 * process bind a name, and frees it when that process ends, however it
 * ends). @return the CPU and the socket in *fd, or -1 (one CPU only, or
 * every CPU taken). */
static int pin_auto(int *fd)
{
    cpu_set_t set;
    int here = sched_getcpu();

    *fd = -1;
    if (sched_getaffinity(0, sizeof(set), &set) != 0 || CPU_COUNT(&set) < 2)
        return -1;
    if (here < 0)
        here = 0;
    for (int k = 0; k < CPU_SETSIZE; k++) {
        int cpu = (here + k) % CPU_SETSIZE;
        struct sockaddr_un a;
        socklen_t len;
        int s;

        if (!CPU_ISSET(cpu, &set))
            continue;
        s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (s < 0)
            return -1;
        memset(&a, 0, sizeof(a));
        a.sun_family = AF_UNIX;
        /* abstract: sun_path[0] == 0, no file */
        len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 +
                          (size_t)snprintf(a.sun_path + 1,
                                           sizeof(a.sun_path) - 1,
                                           "rockcreek-sim-cpu-%d", cpu));
        if (bind(s, (struct sockaddr *)&a, len) == 0) {
            *fd = s;
            return cpu;
        }
        close(s);
    }
    return -1;
}

/* A setting that must be a number >= 0 (rck_config_get_int would fall
 * back to the default on a typo; a simulation setting that is silently
 * ignored is worse than a run that does not start). */
static int setting_number(const char *name, const char *what, double max,
                          double *out)
{
    const char *s = rck_config_get(name);
    char *end;
    double v;

    errno = 0;
    v = strtod(s, &end);
    if (errno != 0 || end == s || *end != '\0' || !(v >= 0) || v > max) {
        rck_error("RCK_%s='%s' is not %s", name, s, what);
        return -1;
    }
    *out = v;
    return 0;
}

/* A file name setting; "none"/"off"/empty: no file. */
static rck_status_t setting_path(const char *name, char *buf, size_t len)
{
    const char *s = rck_config_get(name);

    if (*s == '\0' || !strcasecmp(s, "none") || !strcasecmp(s, "off"))
        s = "";
    if (strlen(s) >= len) {
        rck_error("RCK_%s: path too long", name);
        return RCK_ERR_CONFIG;
    }
    snprintf(buf, len, "%s", s);
    return RCK_OK;
}

static rck_status_t settings_resolve(sim_hdr_t *h, int nues)
{
    const char *spin = rck_config_get("SIM_SPIN_NS");
    rck_status_t st = sim_compute_configure(h);
    double v;

    if (st == RCK_OK)
        st = sim_sched_configure(h);
    if (st != RCK_OK)
        return st;
    h->hazards = rck_config_get_bool("SIM_HAZARDS");
    h->summary = rck_config_get_bool("SIM_SUMMARY");
    h->pin_cpu = pin_choice();
    if (setting_number("SIM_WATCHDOG", "a number of seconds", INT32_MAX,
                       &v) != 0)
        return RCK_ERR_CONFIG;
    h->watchdog_s = (int32_t)v;
    h->spin_ns = -1;
    if (*spin != '\0' && strcasecmp(spin, "auto") != 0) {
        if (setting_number("SIM_SPIN_NS", "auto or a number of nanoseconds",
                           1e15, &v) != 0)
            return RCK_ERR_CONFIG;
        h->spin_ns = (int64_t)v;
    }
    if (h->spin_ns < 0)
        h->spin_ns = h->pin_cpu < 0 && nues <= sysconf(_SC_NPROCESSORS_ONLN)
                         ? SIM_SPIN_NS_AUTO
                         : 0;
    if (setting_number("SIM_LOOKAHEAD", "a number of cycles", 1e12, &v) != 0)
        return RCK_ERR_CONFIG;
    h->lookahead = sim_ticks(v);
    st = setting_path("SIM_REPORT", h->report_path, sizeof(h->report_path));
    if (st == RCK_OK)
        st = setting_path("SIM_TRACE", h->trace_path, sizeof(h->trace_path));
    if (st == RCK_OK && h->trace_path[0] != '\0' && h->trace_path[0] != '/') {
        /* the cores write their parts themselves, wherever they run */
        char cwd[SIM_PATH_LEN];
        if (getcwd(cwd, sizeof(cwd)) == NULL ||
            strlen(cwd) + strlen(h->trace_path) + 2 > sizeof(h->trace_path)) {
            rck_error("RCK_SIM_TRACE: cannot make '%s' an absolute path",
                      h->trace_path);
            return RCK_ERR_CONFIG;
        }
        memmove(h->trace_path + strlen(cwd) + 1, h->trace_path,
                strlen(h->trace_path) + 1);
        memcpy(h->trace_path, cwd, strlen(cwd));
        h->trace_path[strlen(cwd)] = '/';
    }
    return st;
}

static void seg_init(sim_hdr_t *h, const rck_chip_t *chip, int nues,
                     const int *cores)
{
    sim_core_t *cs = sim_hdr_cores(h);
    sim_ue_t *u = sim_hdr_ues(h);
    uint64_t *gic = (uint64_t *)((char *)h + h->gic_off);
    size_t nc = (size_t)chip->ncores;
    uint32_t mv = (uint32_t)(rck_chip_fdiv_volts(chip, chip->default_fdiv) *
                                 1000.0 +
                             0.5);

    h->chip = *chip;
    h->nues = (uint32_t)nues;
    h->host_t0_ns = sim_host_ns();
    for (int i = 0; i < nues; i++)
        h->ue_core[i] = cores[i];
    atomic_store(&h->token, -1);
    atomic_store(&h->spinner, -1);
    atomic_store(&h->watcher, -1);
    atomic_store(&h->failed_core, -1);
    for (int i = 0; i < chip->nislands && i < SIM_MAX_ISLANDS; i++)
        h->volt_mv[i] = mv;
    for (size_t c = 0; c < nc; c++) {
        cs[c].fdiv = (uint32_t)chip->default_fdiv;
        cs[c].ue = -1;
        cs[c].pin_at = SIM_INF;
        cs[c].irq_next = SIM_INF;
        for (int i = 0; i < 256; i++)
            cs[c].lut[i] = lut_default(chip, (int)c, i);
    }
    for (size_t i = 0; i < nc * nc; i++)
        gic[i] = SIM_INF;
    for (int i = 0; i < RCK_CHIP_MAX_CORES; i++)
        h->pend_t[i] = SIM_INF;
    for (int i = 0; i < nues; i++) {
        cs[cores[i]].ue = i;
        h->ue_wake[i] = SIM_INF;
        u[i].sat_which = -1;
        u[i].ctx_peer = -1;
    }
}

static rck_status_t sim_job_create(const rck_job_params_t *p,
                                   rck_job_t **job_out)
{
    sim_hdr_t layout;
    rck_job_t *job;
    rck_status_t st;
    void *map;

    if (p->chip->ncores > RCK_CHIP_MAX_CORES ||
        p->chip->atomic_counters > SIM_MAX_COUNTERS ||
        p->chip->nislands > SIM_MAX_ISLANDS) {
        rck_error("sim backend: chip too large");
        return RCK_ERR_CONFIG;
    }
    memset(&layout, 0, sizeof(layout));
    seg_layout(p->chip, p->nues, p->shm_bytes, &layout);
    job = calloc(1, sizeof(*job));
    if (job == NULL)
        return RCK_ERR_NOMEM;
    st = rck_seg_create("rockcreek-sim", layout.seg_bytes, &job->fd, &map);
    if (st != RCK_OK)
        goto err_free;
    job->hdr = map;
    job->bytes = layout.seg_bytes;
    memcpy(job->hdr, &layout, sizeof(layout));
    job->pin_fd = -1;
    st = settings_resolve(job->hdr, p->nues);
    if (st != RCK_OK)
        goto err_unmap;
    if (job->hdr->pin_cpu == SIM_PIN_AUTO)
        job->hdr->pin_cpu = job->hdr->spin_ns > 0 || p->nues < 2
                                ? -1
                                : pin_auto(&job->pin_fd);
    seg_init(job->hdr, p->chip, p->nues, p->cores);
    job->hdr->magic = SIM_MAGIC;
    *job_out = job;
    return RCK_OK;

err_unmap:
    munmap(map, layout.seg_bytes);
    close(job->fd);
err_free:
    free(job);
    return st;
}

static rck_status_t sim_job_child_setup(rck_job_t *job, int ue)
{
    return rck_seg_child_env(job->fd, "RCK_SIM_FD", ue, "sim");
}

static void sim_job_core_exited(rck_job_t *job, int ue, int failed)
{
    if (job == NULL || ue < 0 || ue >= (int)job->hdr->nues)
        return;
    sim_engine_core_exited(job->hdr, ue, failed);
}

static void sim_job_destroy(rck_job_t *job)
{
    if (job == NULL)
        return;
    sim_report_write(job->hdr);
    munmap(job->hdr, job->bytes);
    close(job->fd);
    if (job->pin_fd >= 0)
        close(job->pin_fd);
    free(job);
}

/* ---- time ---- */

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
    double mhz = my_mhz(s);

    if (mhz <= 0 || mhz == s->chip->core_mhz)
        return sim_ticks(cycles);
    return sim_ticks(cycles * s->chip->core_mhz / mhz);
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

static void advance(sim_t *s, uint64_t ticks, int cat)
{
    sim_ue_t *me = s->me;
    double mhz = my_mhz(s);

    me->vt += ticks;
    me->cat[cat] += ticks;
    if (mhz <= 0 || mhz == s->chip->core_mhz)
        me->cyc += ticks;
    else
        me->cyc += (uint64_t)llround((double)ticks * mhz / s->chip->core_mhz);
}

static void advance_to(sim_t *s, uint64_t t, int cat)
{
    if (t > s->me->vt)
        advance(s, t - s->me->vt, cat);
}

static void advance_cycles(sim_t *s, double cycles, int cat)
{
    advance(s, core_ticks(s, cycles), cat);
}

static int mc_of(sim_t *s, size_t off, int mc)
{
    return mc == RCK_MC_INTERLEAVE ? sim_mc_of_shm(s->chip, off) : mc;
}

static inline uint64_t shm_l1_idx(sim_t *s, uint64_t line)
{
    return (uint64_t)s->chip->ncores * s->lines_per_mpb + line;
}

/* A request and its answer between this core and @p tile: @p out bytes of
 * data go there, @p back bytes come back. */
static void mesh_xfer(sim_t *s, int tile, uint64_t out, uint64_t back)
{
    int me = rck_chip_tile(s->chip, s->core);

    if (tile == me)
        return;
    sim_mesh_route(s->chip, s->links, me, tile, out);
    sim_mesh_route(s->chip, s->links, tile, me, back);
}

/* @p n such requests and answers, @p out and @p back bytes in all. */
static void mesh_xfer_n(sim_t *s, int tile, uint64_t out, uint64_t back,
                        uint64_t n)
{
    int me = rck_chip_tile(s->chip, s->core);

    if (tile == me || n == 0)
        return;
    sim_mesh_route_n(s->chip, s->links, me, tile, out, n);
    sim_mesh_route_n(s->chip, s->links, tile, me, back, n);
}

/* ---- entry and exit of every HAL call ---- */

static void enter(sim_t *s)
{
    double cyc = sim_compute_take(s);

    /* seq_cst: the handshake with the watchdog (sim_engine.c, steal) */
    atomic_store(&s->me->in_hal, 1);
    s->me->events++;
    if (cyc > 0)
        advance_cycles(s, cyc, CAT_COMPUTE);
    if (s->hdr->sched_seed != 0)
        advance(s, sim_sched_compute_ticks(s->hdr, s->ue, s->me->events),
                CAT_COMPUTE);
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

static void poll_shm_waiters(sim_t *s);

/* Enter, then become the earliest core. @return 0 when the event is in
 * order, -1 when the run was aborted (the call then runs unordered). */
static int begin_entered(sim_t *s)
{
    if (sim_engine_order(s) != RCK_OK)
        return -1;
    s->order_vt = s->me->vt;
    if (s->hdr->nparked_shm > 0)
        poll_shm_waiters(s);
    return 0;
}

static int begin(sim_t *s)
{
    enter(s);
    if (sim_engine_order(s) != RCK_OK)
        return -1;
    s->order_vt = s->me->vt;
    if (s->hdr->nparked_shm > 0)
        poll_shm_waiters(s);
    return 0;
}

/* ---- words, conditions and waking ---- */

/* off / line_bytes and off % line_bytes */
static inline uint32_t line_div(const sim_t *s, uint32_t off)
{
    return s->line_shift ? off >> s->line_shift : off / s->chip->line_bytes;
}
static inline uint32_t line_mod(const sim_t *s, uint32_t off)
{
    return s->line_shift ? off & ((1u << s->line_shift) - 1)
                         : off % s->chip->line_bytes;
}

static inline unsigned char *mpb_at(sim_t *s, int core, uint32_t off)
{
    return s->mpb + (size_t)core * s->chip->mpb_bytes + off;
}

uint32_t sim_word(sim_hdr_t *h, const rck_hal_cond_t *c)
{
    switch (c->space) {
    case RCK_SPACE_MPB:
        return __atomic_load_n(
            (uint32_t *)(sim_hdr_mpb(h) +
                         (size_t)c->core * h->chip.mpb_bytes + c->offset),
            __ATOMIC_RELAXED);
    case RCK_SPACE_SHM:
        return __atomic_load_n((uint32_t *)(sim_hdr_shm(h) + c->offset),
                               __ATOMIC_RELAXED);
    case RCK_SPACE_TAS:
        return atomic_load_explicit(&sim_hdr_cores(h)[c->core].tas,
                                    memory_order_relaxed);
    }
    return 0;
}

static int conds_eval(sim_hdr_t *h, const rck_hal_cond_t *c, int n)
{
    for (int i = 0; i < n; i++) {
        int eq = (sim_word(h, &c[i]) & c[i].mask) == c[i].value;
        if (eq == (c[i].op == RCK_COND_EQ))
            return i;
    }
    return -1;
}

/* When the value a condition looks at became visible. */
static uint64_t cond_vis(sim_t *s, const rck_hal_cond_t *c)
{
    switch (c->space) {
    case RCK_SPACE_MPB:
        return s->vis[(size_t)c->core * s->lines_per_mpb +
                      c->offset / s->chip->line_bytes];
    case RCK_SPACE_TAS:
        return s->cores[c->core].tas_vis;
    default:
        return 0;
    }
}

/* One poll of a condition by this core: CL1INVMB and a DWORD read of the
 * MPB, a read of the TAS register, or an uncached DWORD read of shared
 * DRAM from the word's controller (under this core's map). The waiter
 * publishes it with its wait (sim_ue_t.poll), so that a writer can wake
 * it at the right time. */
static uint64_t cond_poll_cost(sim_t *s, const rck_hal_cond_t *c)
{
    const rck_chip_t *ch = s->chip;
    int fdiv = my_fdiv(s);

    switch (c->space) {
    case RCK_SPACE_MPB:
        return sim_core_ticks(ch, fdiv, ch->cost_cl1invmb) +
               cost_dword_read(s, c->core);
    case RCK_SPACE_TAS:
        return cost_dword_read(s, c->core);
    case RCK_SPACE_SHM: {
        int type, mc;
        size_t until;
        sim_tx_cost_t k;

        sim_map_lookup(&s->map, c->offset, &type, &mc, &until);
        mc = mc_of(s, c->offset, mc);
        sim_cost_tx(ch, fdiv,
                    sim_hops_to_tile(ch, s->core, ch->mc[mc].x, ch->mc[mc].y),
                    SIM_TX_DW_READ, &k);
        return k.before + 2 * k.one_way + k.mem;
    }
    }
    return 0;
}

/* The mesh traffic of one poll (when the wait is satisfied). */
static void cond_poll_traffic(sim_t *s, const rck_hal_cond_t *c)
{
    switch (c->space) {
    case RCK_SPACE_MPB:
        mesh_xfer(s, rck_chip_tile(s->chip, c->core), 0, s->chip->line_bytes);
        break;
    case RCK_SPACE_TAS:
        mesh_xfer(s, rck_chip_tile(s->chip, c->core), 0, 4);
        break;
    case RCK_SPACE_SHM: {
        int type, mc;
        size_t until;

        sim_map_lookup(&s->map, c->offset, &type, &mc, &until);
        mesh_xfer(s, sim_tile_of_mc(s->chip, mc_of(s, c->offset, mc)), 0, 4);
        break;
    }
    }
}

static int ue_has_shm(const sim_ue_t *u)
{
    for (int i = 0; i < u->nconds; i++) {
        if (u->conds[i].space == RCK_SPACE_SHM)
            return 1;
    }
    return 0;
}

/* A write with key time @p tw changed a word parked UE @p w waits for.
 * One whose condition now holds continues at the time the value became
 * visible (not before it parked) plus one poll; one whose condition no
 * longer holds stays parked (invariant 3 holds: this happens before its
 * wake time, since the caller is the earliest core).
 *
 * A wait that parked lazily (sim_wait: without waiting for its turn) can
 * see writes with keys before its own time u->vt applied after it
 * parked. They stand for the state its check at u->vt would have seen,
 * as if it had not parked: the last of them decides (its wake time is
 * set, not only lowered), and once the state at u->vt holds the wait is
 * satisfied as it would have been at once, which later writes cannot
 * undo. In strict order no write older than a parked wait comes in. */
static void try_wake(sim_t *s, int w, uint64_t not_before, uint64_t tw,
                     int uw)
{
    sim_ue_t *u = sim_ue(s->hdr, w);
    int i = conds_eval(s->hdr, u->conds, u->nconds);
    int before = tw < u->vt || (tw == u->vt && uw <= w);
    uint64_t t;

    if (i < 0) {
        if (before || !u->sat_early)
            sim_engine_unwake(s, w);
        return;
    }
    if (!before && u->sat_early && u->sat_which >= 0)
        return; /* satisfied at its time already */
    t = sim_max(sim_max(u->vt, not_before), cond_vis(s, &u->conds[i])) +
        u->poll[i];
    if (before) {
        *sim_wake(s->hdr, w) = u->park_wake; /* set, not lowered */
        s->wake_gen++;
        u->sat_which = -1;
        u->sat_early = 1;
    } else {
        u->sat_early = 0;
    }
    sim_engine_wake(s, w, t, i);
}

static void notify_one(sim_t *s, int w, rck_space_t space, int core,
                       uint32_t off, size_t len, uint64_t tw, int uw)
{
    sim_ue_t *u = &s->ues[w];
    int hit = 0;

    /* the caller itself may be parked: a queued write applied while it
     * parks (sim_engine_settle) can satisfy its own wait */
    if (atomic_load_explicit(sim_state(s->hdr, w), memory_order_relaxed) !=
        UE_PARK)
        return;
    for (int i = 0; i < u->nconds && !hit; i++) {
        const rck_hal_cond_t *c = &u->conds[i];
        hit = c->space == space &&
              (space == RCK_SPACE_SHM || c->core == core) &&
              (uint64_t)c->offset + 4 > off &&
              (uint64_t)c->offset < (uint64_t)off + len;
    }
    /* shared DRAM keeps no visibility times: the write is visible from
     * the writer's time on (as in poll_shm_waiters) */
    if (hit)
        try_wake(s, w, space == RCK_SPACE_SHM ? s->me->vt : 0, tw, uw);
}

/* A write to [off, off + len) of @p space (core's MPB or TAS, or shared
 * DRAM) happened: wake the parked waits it may satisfy. */
static void notify(sim_t *s, rck_space_t space, int core, uint32_t off,
                   size_t len, uint64_t tw, int uw)
{
    if (s->unordered)
        return;
    if (space != RCK_SPACE_SHM && s->cores[core].watchers == 0)
        return;
    if (space == RCK_SPACE_SHM && s->hdr->nparked_shm == 0)
        return;
    if (space == RCK_SPACE_SHM) {
        for (int w = 0; w < (int)s->hdr->nues; w++)
            notify_one(s, w, space, core, off, len, tw, uw);
        return;
    }
    /* the UEs parked on a word of this core, in UE order */
    for (uint32_t i = 0; i * 64 < s->hdr->nues; i++) {
        uint64_t bits = s->cores[core].watch_ues[i];

        while (bits != 0) {
            int b = __builtin_ctzll(bits);

            bits &= bits - 1;
            notify_one(s, (int)(i * 64) + b, space, core, off, len, tw, uw);
        }
    }
}

/* Shared DRAM is also written with plain stores that no HAL call sees:
 * every event looks at the parked waits on DRAM words (there are few). */
static void poll_shm_waiters(sim_t *s)
{
    for (int w = 0; w < (int)s->hdr->nues; w++) {
        sim_ue_t *u = &s->ues[w];

        if (w != s->ue &&
            atomic_load_explicit(sim_state(s->hdr, w),
                                 memory_order_relaxed) == UE_PARK &&
            ue_has_shm(u))
            try_wake(s, w, s->me->vt, s->me->vt, s->ue);
    }
}

/* ---- the segment seen from a process ---- */

void sim_view_init(sim_t *v, sim_hdr_t *h)
{
    memset(v, 0, sizeof(*v));
    v->fd = -1;
    v->perf_fd = -1;
    v->hdr = h;
    v->ues = sim_hdr_ues(h);
    v->cores = sim_hdr_cores(h);
    v->gic = (uint64_t *)((char *)h + h->gic_off);
    v->counters = (_Atomic int32_t *)((char *)h + h->counters_off);
    v->vis = (uint64_t *)((char *)h + h->vis_off);
    v->mcs = sim_hdr_mcs(h);
    v->matrix = sim_hdr_matrix(h);
    v->mpb = sim_hdr_mpb(h);
    v->shm = sim_hdr_shm(h);
    v->chip = &h->chip;
    v->lines_per_mpb = v->chip->mpb_bytes / v->chip->line_bytes;
    v->line_shift = (v->chip->line_bytes & (v->chip->line_bytes - 1)) == 0
                        ? (uint32_t)__builtin_ctz(v->chip->line_bytes)
                        : 0;
    v->mhz_fdiv = -1;
    v->ue = -1;
    v->core = -1;
    v->hz_vt = SIM_INF;
    v->hz_ue = INT_MAX;
}

/* ---- lazy writes (invariant 5 in sim_internal.h) ---- */

int sim_pending_first(sim_hdr_t *h, uint64_t *t, int *ue)
{
    uint64_t bt = SIM_INF;
    int best = -1;

    if (h->npending == 0)
        return 0;
    if (!h->pend_min_ok) {
        /* the UEs with queued writes, in UE order */
        for (uint32_t j = 0; j * 64 < h->nues; j++) {
            uint64_t bits = h->pend_ues[j];

            while (bits != 0) {
                int i = (int)(j * 64) + __builtin_ctzll(bits);

                bits &= bits - 1;
                if (h->pend_t[i] < bt) {
                    bt = h->pend_t[i];
                    best = i;
                }
            }
        }
        h->pend_min_t = bt;
        h->pend_min_ue = best;
        h->pend_min_ok = 1;
    }
    *t = h->pend_min_t;
    *ue = h->pend_min_ue;
    return h->pend_min_ue >= 0;
}

/* The effect of one queued write of UE @p ue, at its key. */
static void pending_do(sim_t *s, int ue, const sim_pw_t *w,
                       const unsigned char *data)
{
    const rck_chip_t *ch = s->chip;
    uint32_t L = ch->line_bytes, off = w->off, len = w->len;
    uint64_t when = w->t;

    if (w->kind == SIM_PW_TAS) {
        atomic_store(&s->cores[w->core].tas, 0);
        s->cores[w->core].tas_vis = w->t + w->per;
        notify(s, RCK_SPACE_TAS, w->core, 0, 4, w->t, ue);
        return;
    }
    memcpy(mpb_at(s, w->core, off), data, len);
    while (len > 0) {
        uint32_t lo = line_mod(s, off);
        uint32_t n = L - lo < len ? L - lo : len;
        uint64_t idx = (uint64_t)w->core * s->lines_per_mpb + line_div(s, off);
        when += w->per;
        s->vis[idx] = sim_max(s->vis[idx], when);
        off += n;
        len -= n;
    }
    /* this may wake the writer itself: it may have parked (lazily, on
     * memory without this write) on a word it wrote */
    notify(s, RCK_SPACE_MPB, w->core, w->off, w->len, w->t, ue);
}

void sim_pending_apply(sim_t *s, uint64_t t, int ue)
{
    sim_hdr_t *h = s->hdr;
    uint64_t pt;
    int pu;

    while (sim_pending_first(h, &pt, &pu) &&
           (pt < t || (pt == t && pu <= ue))) {
        sim_pwq_t *q = sim_hdr_pwq(h, pu);
        sim_pw_t w = q->e[q->head % SIM_PW_SLOTS];

        pending_do(s, pu, &w, q->data + w.data);
        q->head++;
        q->dhead = w.dend;
        h->npending--;
        h->pend_t[pu] =
            q->head == q->tail ? SIM_INF : q->e[q->head % SIM_PW_SLOTS].t;
        if (q->head == q->tail)
            h->pend_ues[pu / 64] &= ~(1ull << (pu % 64));
        h->pend_min_ok = 0;
    }
}

/* Room in @p q for a write of @p len bytes; *skip: bytes to leave at the
 * end of the data ring so that the data is contiguous. */
static int pending_fits(const sim_pwq_t *q, uint32_t len, uint64_t *skip)
{
    uint64_t pos = q->dtail % SIM_PW_DATA;

    *skip = pos + len > SIM_PW_DATA ? SIM_PW_DATA - pos : 0;
    return q->tail - q->head < SIM_PW_SLOTS && len <= SIM_PW_DATA / 2 &&
           q->dtail + *skip + len - q->dhead <= SIM_PW_DATA;
}

/* Queue a write of this core at its current time (write_begin said it
 * fits). */
static void pending_push(sim_t *s, int kind, int core, uint32_t off,
                         const void *data, uint32_t len, uint64_t per)
{
    sim_hdr_t *h = s->hdr;
    sim_pwq_t *q = sim_hdr_pwq(h, s->ue);
    uint64_t skip;
    sim_pw_t *w;

    pending_fits(q, len, &skip);
    q->dtail += skip;
    w = &q->e[q->tail % SIM_PW_SLOTS];
    w->t = s->me->vt;
    w->per = per;
    w->kind = kind;
    w->core = core;
    w->off = off;
    w->len = len;
    w->data = (uint32_t)(q->dtail % SIM_PW_DATA);
    if (len > 0)
        memcpy(q->data + w->data, data, len);
    q->dtail += len;
    w->dend = q->dtail;
    if (q->head == q->tail) {
        h->pend_t[s->ue] = w->t;
        h->pend_ues[s->ue / 64] |= 1ull << (s->ue % 64);
        if (h->npending == 0) {
            h->pend_min_t = w->t;
            h->pend_min_ue = s->ue;
            h->pend_min_ok = 1;
        } else if (h->pend_min_ok &&
                   sim_before(w->t, s->ue, h->pend_min_t, h->pend_min_ue)) {
            h->pend_min_t = w->t;
            h->pend_min_ue = s->ue;
        }
    }
    q->tail++;
    h->npending++;
    h->lazy_writes++;
}

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
    if (pending_fits(sim_hdr_pwq(h, s->ue), len, &skip))
        return 1;
ordered:
    if (sim_engine_order(s) != RCK_OK)
        return 0;
    s->order_vt = s->me->vt;
    if (h->nparked_shm > 0)
        poll_shm_waiters(s);
    return 0;
}

/* ---- attach ---- */

static void sim_atexit(void);

static rck_status_t attach_private(int *fd_out)
{
    rck_chip_t chip;
    rck_job_params_t p;
    rck_job_t *job;
    rck_status_t st;
    int core0;

    st = rck_seg_solo_params(&chip, &core0, &p);
    if (st != RCK_OK)
        return st;
    st = sim_job_create(&p, &job);
    if (st != RCK_OK)
        return st;
    job->hdr->private_job = 1;
    *fd_out = job->fd;
    munmap(job->hdr, job->bytes);
    if (job->pin_fd >= 0)
        close(job->pin_fd); /* one core: nothing to gain */
    free(job);
    return RCK_OK;
}

static void pin(sim_t *s)
{
    cpu_set_t set;

    if (s->hdr->pin_cpu < 0)
        return;
    CPU_ZERO(&set);
    CPU_SET(s->hdr->pin_cpu, &set);
    if (sched_setaffinity(0, sizeof(set), &set) != 0)
        rck_debug("cannot pin to CPU %d: %s", s->hdr->pin_cpu,
                  strerror(errno));
}

static rck_status_t sim_attach(rck_hal_t *hal)
{
    const char *fds = getenv("RCK_SIM_FD");
    const char *ues = getenv("RCK_UE");
    static int atexit_done;
    sim_hdr_t hdr;
    sim_t *s;
    void *map;
    size_t bytes;
    rck_status_t st;
    char tag[32];

    s = calloc(1, sizeof(*s));
    if (s == NULL)
        return RCK_ERR_NOMEM;
    s->fd = -1;
    s->perf_fd = -1;
    hal->ue = 0;
    if (fds != NULL && ues != NULL) {
        s->fd = atoi(fds);
        hal->ue = atoi(ues);
    } else {
        st = attach_private(&s->fd);
        if (st != RCK_OK)
            goto err_free;
    }
    st = rck_seg_attach(s->fd, SIM_MAGIC, SIM_MAP_ADDR,
                        "rockcreek sim segment (start programs with 'rck "
                        "run --backend sim')",
                        &map, &bytes);
    if (st != RCK_OK)
        goto err_close;
    memcpy(&hdr, map, sizeof(hdr));
    {
        int fd = s->fd, pfd = s->perf_fd;
        sim_view_init(s, map);
        s->fd = fd;
        s->perf_fd = pfd;
    }
    if (hal->ue < 0 || hal->ue >= (int)hdr.nues) {
        rck_error("RCK_UE=%d outside the job's %u UEs", hal->ue, hdr.nues);
        st = RCK_ERR_CONFIG;
        goto err_unmap;
    }
    s->ue = hal->ue;
    s->core = s->hdr->ue_core[s->ue];
    s->me = &s->ues[s->ue];
    s->ctx_peer = -1;
    s->links = sim_hdr_links(map) + (size_t)s->ue *
                                        (size_t)s->chip->ntiles *
                                        SIM_LINK_DIRS;
    sim_l2_init(&s->l2, s->chip);
    sim_map_init(&s->map);
    s->cost_lw = calloc((size_t)s->chip->ncores, sizeof(*s->cost_lw));
    s->cost_dr = calloc((size_t)s->chip->ncores, sizeof(*s->cost_dr));
    if (atomic_load(sim_state(s->hdr, s->ue)) != UE_ABSENT) {
        rck_error("UE %d is attached twice", s->ue);
        st = RCK_ERR_STATE;
        goto err_map;
    }
    st = sim_l1_init(&s->l1, s->chip);
    if (st != RCK_OK)
        goto err_map;
    hal->chip = s->hdr->chip;
    hal->nues = (int)hdr.nues;
    hal->ue_core = s->hdr->ue_core;
    hal->core = s->core;
    hal->backend = s;
    snprintf(tag, sizeof(tag), "core %d", hal->core);
    rck_log_set_tag(tag);
    pin(s);

    s->me->vt = 0;
    *sim_wake(s->hdr, s->ue) = 0;
    atomic_store(&s->me->pid, (int32_t)getpid());
    atomic_store(sim_state(s->hdr, s->ue), UE_RUN);
    if (atomic_fetch_add(&s->hdr->settled, 1) + 1 == (int32_t)hdr.nues)
        sim_engine_start(s->hdr);
    st = sim_engine_await(s);
    if (st != RCK_OK) {
        rck_error("sim: the run ended before this core could start: %s",
                  rck_status_string(st));
        atomic_store(sim_state(s->hdr, s->ue), UE_DONE);
        goto err_l1;
    }
    sim_engine_horizon(s);
    sim_compute_init(s);
    sim_trace_open(s);
    sim_live = s;
    if (!atexit_done) {
        atexit_done = 1;
        atexit(sim_atexit);
    }
    return RCK_OK;

err_l1:
    sim_l1_fini(&s->l1);
err_map:
    sim_map_fini(&s->map);
    free(s->cost_lw);
    free(s->cost_dr);
err_unmap:
    munmap(map, hdr.seg_bytes);
err_close:
    close(s->fd);
err_free:
    hal->backend = NULL;
    free(s);
    return st;
}

/* Leave the simulation: the core's time stops here. */
static void sim_quit(sim_t *s, uint32_t end)
{
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
    sim_l1_fini(&s->l1);
    sim_l2_fini(&s->l2);
    sim_map_fini(&s->map);
    free(s->cost_lw);
    free(s->cost_dr);
    munmap(s->hdr, s->hdr->seg_bytes);
    close(s->fd);
    free(s);
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

/* A stale read at @p off of core @p target's MPB, or of shared DRAM when
 * @p target < 0. */
static void hazard(sim_t *s, int target, size_t off)
{
    sim_ue_t *me = s->me;
    const char *ctx = s->ctx_call != NULL ? s->ctx_call : "";
    size_t line = off / s->chip->line_bytes * s->chip->line_bytes;

    me->stale_reads++;
    for (uint32_t i = 0; i < me->nhaz; i++) {
        sim_hazard_t *z = &me->haz[i];
        if (z->target == target &&
            z->off / s->chip->line_bytes * s->chip->line_bytes == line &&
            z->peer == s->ctx_peer && !strncmp(z->ctx, ctx, SIM_CTX_LEN - 1)) {
            z->count++;
            return;
        }
    }
    if (me->nhaz < SIM_MAX_HAZARDS) {
        sim_hazard_t *z = &me->haz[me->nhaz++];
        z->target = target;
        z->off = off;
        z->count = 1;
        z->first_tick = me->vt;
        z->peer = s->ctx_peer;
        snprintf(z->ctx, sizeof(z->ctx), "%s", ctx);
    }
}

static void shm_hazard(sim_t *s, size_t off)
{
    hazard(s, -1, off);
}

/* Read through this core's L1: a cached line is returned as cached (stale
 * if another core wrote the MPB since); a missing one is fetched and
 * cached. @return the cost in ticks. */
static uint64_t read_l1(sim_t *s, int target, uint32_t off,
                        unsigned char *dst, size_t len)
{
    const rck_chip_t *ch = s->chip;
    uint32_t L = ch->line_bytes;
    uint64_t miss = cost_dword_read(s, target);
    uint64_t hit = core_ticks(s, SIM_L1_HIT_CYCLES);
    uint64_t cost = 0, fills = 0;
    uint64_t base = (uint64_t)target * s->lines_per_mpb;
    unsigned char *mpb = mpb_at(s, target, 0);
    sim_l1_t *l1 = &s->l1;

    while (len > 0) {
        uint32_t lo = line_mod(s, off);
        uint32_t n = len < L - lo ? (uint32_t)len : L - lo;
        uint32_t dwords = (lo + n + 3) / 4 - lo / 4;
        uint64_t idx = base + line_div(s, off);
        unsigned char *mem = mpb + (off - lo);
        long e = sim_l1_lookup(l1, idx);

        if (e >= 0) {
            unsigned char *c = l1->data + (size_t)e * L;
            if (memcmp(c + lo, mem + lo, n) != 0) {
                uint32_t k = 0;
                while (c[lo + k] == mem[lo + k])
                    k++;
                hazard(s, target, off + k);
            }
            memcpy(dst, c + lo, n);
            cost += dwords * hit;
        } else {
            sim_l1_install(l1, idx, mem);
            fills++;
            memcpy(dst, mem + lo, n);
            cost += miss + (dwords - 1) * hit;
        }
        dst += n;
        off += n;
        len -= n;
    }
    s->me->l1_misses += fills;
    s->me->mpb_lines_read += fills;
    mesh_xfer_n(s, rck_chip_tile(ch, target), 0, fills * L, fills);
    return cost;
}

/* Write through to the MPB (updating this core's cached copies; a write
 * miss does not allocate). One line write per line touched, back to back;
 * each line becomes visible when its write completes. @return the cost. */
static uint64_t write_lines(sim_t *s, int target, uint32_t off,
                            const unsigned char *src, size_t len, int lazy)
{
    const rck_chip_t *ch = s->chip;
    uint32_t L = ch->line_bytes, off0 = off;
    uint64_t per = cost_line_write(s, target);
    uint64_t when = s->me->vt, bytes = len, lines = 0;
    const unsigned char *src0 = src;

    s->matrix[(size_t)s->ue * (size_t)ch->ncores + (size_t)target].bytes +=
        len;
    s->matrix[(size_t)s->ue * (size_t)ch->ncores + (size_t)target].writes++;
    if (!lazy)
        memcpy(mpb_at(s, target, off), src, len);
    while (len > 0) {
        uint32_t lo = line_mod(s, off);
        uint32_t n = len < L - lo ? (uint32_t)len : L - lo;
        uint64_t idx = (uint64_t)target * s->lines_per_mpb + line_div(s, off);
        long e = sim_l1_lookup(&s->l1, idx);

        if (e >= 0)
            memcpy(s->l1.data + (size_t)e * L + lo, src, n);
        lines++;
        when += per;
        if (!s->unordered && !lazy)
            s->vis[idx] = sim_max(s->vis[idx], when);
        src += n;
        off += n;
        len -= n;
    }
    s->me->mpb_lines_written += lines;
    mesh_xfer_n(s, rck_chip_tile(ch, target), bytes, 0, lines);
    if (lazy)
        pending_push(s, SIM_PW_MPB, target, off0, src0, (uint32_t)bytes, per);
    if (target != s->core && s->trace.fp != NULL)
        sim_trace_flow(s, "MPB write", target, s->me->vt, when, bytes);
    return when - s->me->vt;
}

static rck_status_t sim_mpb_write(rck_hal_t *hal, int core, uint32_t off,
                                  const void *src, size_t len)
{
    sim_t *s = sim_of(hal);

    if (write_begin(s, (uint32_t)len)) {
        advance(s, write_lines(s, core, off, src, len, 1), CAT_MPB);
    } else {
        uint64_t t0 = s->me->vt;
        advance(s, write_lines(s, core, off, src, len, 0), CAT_MPB);
        notify(s, RCK_SPACE_MPB, core, off, len, t0, s->ue);
    }
    leave(s);
    return RCK_OK;
}

static rck_status_t sim_mpb_read(rck_hal_t *hal, int core, uint32_t off,
                                 void *dst, size_t len)
{
    sim_t *s = sim_of(hal);

    begin(s);
    advance(s, read_l1(s, core, off, dst, len), CAT_MPB);
    leave(s);
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
    begin(s);
    advance(s, read_l1(s, src_core, src_off, buf, len), CAT_MPB);
    t0 = s->me->vt;
    advance(s, write_lines(s, dst_core, dst_off, buf, len, 0), CAT_MPB);
    notify(s, RCK_SPACE_MPB, dst_core, dst_off, len, t0, s->ue);
    leave(s);
    free(buf);
    return RCK_OK;
}

static rck_status_t sim_mpb_store32(rck_hal_t *hal, int core, uint32_t off,
                                    uint32_t value)
{
    sim_t *s = sim_of(hal);

    if (write_begin(s, 4)) {
        advance(s,
                write_lines(s, core, off, (const unsigned char *)&value, 4, 1),
                CAT_MPB);
    } else {
        uint64_t t0 = s->me->vt;
        advance(s,
                write_lines(s, core, off, (const unsigned char *)&value, 4, 0),
                CAT_MPB);
        notify(s, RCK_SPACE_MPB, core, off, 4, t0, s->ue);
    }
    leave(s);
    return RCK_OK;
}

static rck_status_t sim_mpb_load32(rck_hal_t *hal, int core, uint32_t off,
                                   uint32_t *value)
{
    sim_t *s = sim_of(hal);
    uint32_t v;

    begin(s);
    advance(s, read_l1(s, core, off, (unsigned char *)&v, 4), CAT_MPB);
    leave(s);
    *value = v;
    return RCK_OK;
}

static void sim_cl1invmb(rck_hal_t *hal)
{
    sim_t *s = sim_of(hal);

    enter(s);
    sim_l1_invalidate(&s->l1);
    advance_cycles(s, s->chip->cost_cl1invmb, CAT_MPB);
    leave(s);
}

/* The line writes were charged by mpb_write; pushing the buffer out adds
 * nothing the model distinguishes yet. */
static void sim_wcb_flush(rck_hal_t *hal)
{
    sim_t *s = sim_of(hal);

    enter(s);
    leave(s);
}

/* ---- TAS ---- */

static rck_status_t sim_tas_try(rck_hal_t *hal, int core, int *acquired)
{
    sim_t *s = sim_of(hal);

    begin(s);
    *acquired = atomic_exchange(&s->cores[core].tas, 1) == 0;
    if (*acquired)
        notify(s, RCK_SPACE_TAS, core, 0, 4, s->me->vt, s->ue);
    mesh_xfer(s, rck_chip_tile(s->chip, core), 0, 4);
    advance(s, cost_dword_read(s, core), CAT_OTHER);
    leave(s);
    return RCK_OK;
}

static rck_status_t sim_tas_release(rck_hal_t *hal, int core)
{
    sim_t *s = sim_of(hal);
    uint64_t cost;

    cost = cost_line_write(s, core);
    mesh_xfer(s, rck_chip_tile(s->chip, core), 4, 0);
    if (write_begin(s, 0)) {
        pending_push(s, SIM_PW_TAS, core, 0, NULL, 0, cost);
        advance(s, cost, CAT_OTHER);
    } else {
        atomic_store(&s->cores[core].tas, 0);
        uint64_t t0 = s->me->vt;
        if (!s->unordered)
            s->cores[core].tas_vis = t0 + cost;
        advance(s, cost, CAT_OTHER);
        notify(s, RCK_SPACE_TAS, core, 0, 4, t0, s->ue);
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

    begin(s);
    cost = kind == RCK_IRQ_PIN ? cost_line_write(s, core)
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
        uint64_t *g =
            &s->gic[(size_t)core * (size_t)s->chip->ncores + (size_t)s->core];
        if (*g != SIM_INF)
            rck_debug("GIC interrupt %d -> %d lost: already pending", s->core,
                      core);
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
    if (s->trace.fp != NULL)
        sim_trace_flow(s, kind == RCK_IRQ_PIN ? "interrupt (pin)"
                                              : "interrupt (GIC)",
                       core, s->me->vt, at, 0);
    advance(s, cost, CAT_OTHER);
    leave(s);
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
        advance_cycles(s, s->chip->cost_null_syscall, CAT_IRQ);
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
        advance_cycles(s, s->chip->cost_null_syscall, CAT_IRQ);
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

    begin(s);
    *count = irq_run(s, hal);
    leave(s);
    return RCK_OK;
}

/* ---- waiting ---- */

static void wait_publish(sim_t *s, const rck_hal_cond_t *conds, int nc,
                         unsigned flags, rck_hal_t *hal)
{
    sim_ue_t *me = s->me;
    int shm = 0;

    if (nc > 0)
        memcpy(me->conds, conds, sizeof(*conds) * (size_t)nc);
    for (int i = 0; i < nc; i++)
        me->poll[i] = cond_poll_cost(s, &conds[i]);
    me->nconds = nc;
    me->park_flags = ((flags & RCK_WAIT_IRQ) ? PARK_IRQ : 0) |
                     (hal->irq_handler != NULL ? PARK_HANDLER : 0);
    me->sat_which = -1;
    me->sat_early = 0;
    me->ctx_peer = s->ctx_peer;
    if (s->ctx_call != NULL) {
        size_t n = strnlen(s->ctx_call, sizeof(me->ctx) - 1);
        memcpy(me->ctx, s->ctx_call, n);
        me->ctx[n] = '\0';
    } else {
        me->ctx[0] = '\0';
    }
    for (int i = 0; i < nc; i++) {
        if (conds[i].space == RCK_SPACE_SHM) {
            shm = 1;
        } else {
            sim_core_t *c = &s->cores[conds[i].core];
            c->watchers++;
            c->watch_ues[s->ue / 64] |= 1ull << (s->ue % 64);
        }
    }
    if (shm)
        s->hdr->nparked_shm++;
}

static void wait_unpublish(sim_t *s)
{
    sim_ue_t *me = s->me;
    int shm = 0;

    for (int i = 0; i < me->nconds; i++) {
        if (me->conds[i].space == RCK_SPACE_SHM) {
            shm = 1;
        } else {
            sim_core_t *c = &s->cores[me->conds[i].core];
            if (c->watchers > 0)
                c->watchers--;
            c->watch_ues[s->ue / 64] &= ~(1ull << (s->ue % 64));
        }
    }
    if (shm && s->hdr->nparked_shm > 0)
        s->hdr->nparked_shm--;
}

static int conds_have_mpb(const rck_hal_cond_t *c, int n)
{
    for (int i = 0; i < n; i++) {
        if (c[i].space == RCK_SPACE_MPB)
            return 1;
    }
    return 0;
}

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
    i = conds_eval(s->hdr, conds, nc);
    if (i >= 0) {
        *which = i;
        return RCK_OK;
    }
    atomic_store(&s->me->end, st == RCK_ERR_DEADLOCK ? UE_END_DEADLOCK
                                                     : UE_END_ABORTED);
    return st;
}

static uint64_t ns_to_ticks(const rck_chip_t *c, int64_t ns)
{
    double t = (double)ns * c->core_mhz * 1e-3 * (double)SIM_TICKS;

    return t >= 1.8e19 ? SIM_INF - 1 : (uint64_t)t;
}

/* A wait that blocked, as a slice of the trace. */
static void trace_wait(sim_t *s, const rck_hal_cond_t *conds, int nc,
                       uint64_t start, rck_status_t st)
{
    char args[160], what[96] = "an interrupt";

    if (nc > 0 && conds[0].space == RCK_SPACE_MPB)
        snprintf(what, sizeof(what), "MPB word of core %d at 0x%x",
                 conds[0].core, conds[0].offset);
    else if (nc > 0 && conds[0].space == RCK_SPACE_TAS)
        snprintf(what, sizeof(what), "TAS register of core %d",
                 conds[0].core);
    else if (nc > 0)
        snprintf(what, sizeof(what), "shared DRAM word at 0x%x",
                 conds[0].offset);
    snprintf(args, sizeof(args), "{\"for\": \"%s%s\", \"result\": \"%s\"}",
             what, nc > 1 ? " (or others)" : "", rck_status_string(st));
    sim_trace_slice(s, "wait", "wait", start, s->me->vt, args);
}

/* A wait by a core that is not the earliest may park at once, without
 * waiting for its turn, when its words do not hold in memory now: every
 * write that still comes before its time (queued, or not issued yet) is
 * applied later in key order and wakes it, or puts it back to sleep,
 * exactly as if it had parked in order (invariant 5). When they do hold,
 * an earlier write may still undo that: the wait must take its turn. */
static int wait_park_now(sim_t *s, rck_hal_t *hal, const rck_hal_cond_t *conds,
                         int nc, unsigned flags)
{
    sim_hdr_t *h = s->hdr;

    if (s->unordered || h->lookahead > 0 ||
        atomic_load_explicit(&h->abort, memory_order_relaxed) != 0 ||
        sim_before(s->me->vt, s->ue, s->hz_vt, s->hz_ue))
        return 0;
    if (((flags & RCK_WAIT_IRQ) || hal->irq_handler != NULL) &&
        s->cores[s->core].irq_next <= s->me->vt)
        return 0;
    if (atomic_load(&h->token) != s->ue)
        return 0;
    return conds_eval(h, conds, nc) < 0;
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
    lazy = wait_park_now(s, hal, conds, nc, flags);
    if (!lazy && begin_entered(s) != 0) {
        st = wait_unordered(s, hal, conds, nc, flags, which);
        leave(s);
        return st;
    }
    start = me->vt;
    deadline = SIM_INF;
    if (timeout_ns >= 0) {
        uint64_t d = ns_to_ticks(s->chip, timeout_ns);
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
                advance_cycles(s, s->chip->cost_null_syscall, CAT_IRQ);
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
        i = early >= 0 ? early : conds_eval(s->hdr, conds, nc);
        early = -1;
        if (i >= 0) {
            if (!woke)
                advance_to(s,
                           sim_max(me->vt, cond_vis(s, &conds[i])) +
                               cond_poll_cost(s, &conds[i]),
                           CAT_WAIT);
            cond_poll_traffic(s, &conds[i]);
            /* The wait polls as RCCE does: CL1INVMB, then read. */
            if (conds_have_mpb(conds, nc))
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
        wait_publish(s, conds, nc, flags, hal);
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
            break; /* stays published for the reports */
        }
        wait_unpublish(s);
        woke = me->sat_which >= 0;
        if (woke && me->sat_early)
            early = me->sat_which;
        advance_to(s, *sim_wake(s->hdr, s->ue), CAT_WAIT);
        atomic_store(sim_state(s->hdr, s->ue), UE_RUN);
    }
    if (parked && s->trace.fp != NULL)
        trace_wait(s, conds, nc, start, st);
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

    enter(s);
    fpga_access(s);
    *ticks = (uint64_t)((double)s->me->vt / (double)SIM_TICKS *
                        s->chip->mesh_mhz / s->chip->core_mhz);
    leave(s);
    return RCK_OK;
}

static rck_status_t sim_atomic_inc(rck_hal_t *hal, int ctr, int32_t *old)
{
    sim_t *s = sim_of(hal);

    begin(s);
    *old = atomic_fetch_add(&s->counters[ctr], 1);
    fpga_access(s);
    leave(s);
    return RCK_OK;
}

static rck_status_t sim_atomic_read(rck_hal_t *hal, int ctr, int32_t *value)
{
    sim_t *s = sim_of(hal);

    begin(s);
    *value = atomic_load(&s->counters[ctr]);
    fpga_access(s);
    leave(s);
    return RCK_OK;
}

static rck_status_t sim_atomic_write(rck_hal_t *hal, int ctr, int32_t value)
{
    sim_t *s = sim_of(hal);

    begin(s);
    atomic_store(&s->counters[ctr], value);
    fpga_access(s);
    leave(s);
    return RCK_OK;
}

static rck_status_t sim_lut_read(rck_hal_t *hal, int core, int idx,
                                 uint32_t *entry)
{
    sim_t *s = sim_of(hal);

    begin(s);
    *entry = s->cores[core].lut[idx];
    mesh_xfer(s, rck_chip_tile(s->chip, core), 0, 4);
    advance(s, cost_dword_read(s, core), CAT_OTHER);
    leave(s);
    return RCK_OK;
}

static rck_status_t sim_lut_write(rck_hal_t *hal, int core, int idx,
                                  uint32_t entry)
{
    sim_t *s = sim_of(hal);

    begin(s);
    s->cores[core].lut[idx] = entry;
    mesh_xfer(s, rck_chip_tile(s->chip, core), 4, 0);
    advance(s, cost_line_write(s, core), CAT_OTHER);
    leave(s);
    return RCK_OK;
}

static rck_status_t sim_shm_set_map(rck_hal_t *hal, size_t off, size_t len,
                                    rck_map_t type, int mc)
{
    sim_t *s = sim_of(hal);
    rck_status_t st;

    enter(s);
    st = sim_map_set(&s->map, off, len, (int)type, mc);
    leave(s);
    return st;
}

static rck_status_t sim_shm_map(rck_hal_t *hal, void **base, size_t *len)
{
    sim_t *s = sim_of(hal);

    *base = s->shm;
    *len = s->hdr->shm_bytes;
    return RCK_OK;
}

/*
 * Shared DRAM through this core's map. A HAL call is charged as the
 * sequence of accesses the core makes (docs/SIM.md, "Shared DRAM"):
 * uncached, one DWORD transaction per DWORD touched; MPBT, a line fill per
 * line missing in L1 and a line through the WCB per line written; cached,
 * L1, then L2, then memory, with write-around. Transactions of one kind
 * leave the core at least their published-bandwidth interval apart; reads
 * wait for their data (in-order core), the eight DWORD reads of an L2 line
 * fill have up to two in flight (P54C), and writes complete one at a time.
 * A long call gets back in line after every SIM_SHM_ORDER_EVERY
 * transactions, so that the requests of all cores are booked at the
 * controllers in time order. Measured with 24 cores reading one
 * controller at once: every transaction in order gives the ideal
 * work-conserving slowdown (7.2 times alone), every 4th 8.1, every 16th
 * 8.9 (a controller books first fit, and requests booked ahead of time
 * leave gaps too short to use) at a fifth of the hand-overs.
 */
#define SIM_SHM_ORDER_EVERY 1

/* No request can reach a controller before this any more: the time of
 * the last ordered event of this core (the earliest core then), less the
 * lookahead. */
static uint64_t mc_floor(sim_t *s)
{
    uint64_t la = s->hdr->lookahead;

    return s->order_vt > la ? s->order_vt - la : 0;
}

/* Get back in line in the middle of a long call. */
static void shm_reorder(sim_t *s, unsigned *count)
{
    if (++*count % SIM_SHM_ORDER_EVERY != 0 || s->unordered)
        return;
    if (sim_engine_order(s) == RCK_OK)
        s->order_vt = s->me->vt;
}

/* One transaction through controller @p mc, leaving the core at @p ready
 * at the earliest. @return its completion. */
static uint64_t dram_tx(sim_t *s, int mc, sim_tx_t kind, uint64_t ready,
                        uint64_t bytes)
{
    const rck_chip_t *ch = s->chip;
    sim_port_t *p = &s->port;
    int write = kind == SIM_TX_DW_WRITE || kind == SIM_TX_LINE_WRITE;
    int hops = sim_hops_to_tile(ch, s->core, ch->mc[mc].x, ch->mc[mc].y);
    sim_mc_t scratch;
    sim_mc_t *m = &s->mcs[mc];
    sim_tx_cost_t k;
    uint64_t start, served, done;

    if (s->unordered) {
        memset(&scratch, 0, sizeof(scratch));
        m = &scratch;
    }
    sim_cost_tx(ch, my_fdiv(s), hops, kind, &k);
    start = write ? sim_max(ready, sim_max(p->wr_next, p->wr_done))
                  : sim_max(ready, p->rd_next);
    served = sim_mc_reserve(m, start + k.before + k.one_way, k.mem,
                            mc_floor(s));
    done = served + k.mem + k.one_way;
    if (write) {
        p->wr_start = start;
        p->wr_next = start + k.interval;
        p->wr_done = done;
    } else {
        p->rd_start = start;
        p->rd_next = start + k.interval;
        p->rd_done = sim_max(p->rd_done, done);
    }
    mesh_xfer(s, sim_tile_of_mc(ch, mc), write ? bytes : 0,
              write ? 0 : bytes);
    s->me->dram_tx++;
    return done;
}

static void shm_hazard(sim_t *s, size_t off);

/* Data served from a cache: a stale read if it differs from memory
 * (unless this core's own dirty L2 line is the newer copy). */
static void shm_check_stale(sim_t *s, size_t off, const unsigned char *c,
                            size_t n, int dirty)
{
    const unsigned char *mem = s->shm + off;

    if (dirty || memcmp(c, mem, n) == 0)
        return;
    for (size_t k = 0; k < n; k++) {
        if (c[k] != mem[k]) {
            shm_hazard(s, off + k);
            return;
        }
    }
}

/* Write a dirty L2 entry back to memory (an eviction): one line through
 * the write path; the core does not wait for it. */
static void l2_write_back(sim_t *s, long e)
{
    uint32_t L = s->chip->line_bytes;
    size_t off = (size_t)(s->l2.tag[e] - 1) * L;
    int type, mc;
    size_t until;

    memcpy(s->shm + off, s->l2.data + (size_t)e * L, L);
    s->l2.dirty[e] = 0;
    sim_map_lookup(&s->map, off, &type, &mc, &until);
    dram_tx(s, mc_of(s, off, mc), SIM_TX_LINE_WRITE, s->me->vt, L);
    s->me->l2_writebacks++;
    notify(s, RCK_SPACE_SHM, 0, (uint32_t)off, L, s->me->vt, s->ue);
}

/* An L2 miss: the line comes from memory as eight DWORD reads, up to two
 * in flight. @return when the line is in L1 and L2. */
static uint64_t l2_fill(sim_t *s, int mc, size_t line_off, uint64_t line,
                        unsigned *count)
{
    uint32_t L = s->chip->line_bytes;
    uint64_t inflight[2] = {0, 0}, t = s->me->vt, done = t;
    long e;

    for (uint32_t d = 0; d < L / 4; d++) {
        uint64_t ready = sim_max(t, inflight[d % 2]);
        inflight[d % 2] = dram_tx(s, mc, SIM_TX_DW_READ, ready, 4);
        done = sim_max(done, inflight[d % 2]);
    }
    *count += L / 4;
    e = sim_l2_victim(&s->l2, line);
    if (e >= 0) {
        if (s->l2.tag[e] != 0 && s->l2.dirty[e])
            l2_write_back(s, e);
        sim_l2_install(&s->l2, e, line, s->shm + line_off);
    }
    sim_l1_fill(&s->l1, shm_l1_idx(s, line), s->shm + line_off, 0);
    return done;
}

static void shm_read_range(sim_t *s, size_t off, unsigned char *dst,
                           size_t len)
{
    const rck_chip_t *ch = s->chip;
    uint32_t L = ch->line_bytes;
    uint64_t hit = core_ticks(s, SIM_L1_HIT_CYCLES);
    unsigned count = 0;

    while (len > 0) {
        int type, mc;
        size_t until, n;

        sim_map_lookup(&s->map, off, &type, &mc, &until);
        mc = mc_of(s, off, mc);
        if (type == RCK_MAP_UNCACHED) {
            /* one DWORD transaction per DWORD touched */
            size_t lo = off % 4;
            n = 4 - lo < len ? 4 - lo : len;
            if (until - off < n)
                n = until - off;
            advance_to(s, dram_tx(s, mc, SIM_TX_DW_READ, s->me->vt, 4),
                       CAT_DRAM);
            memcpy(dst, s->shm + off, n);
            count++;
        } else {
            size_t lo = off % L;
            uint64_t line = off / L, idx = shm_l1_idx(s, line);
            unsigned char *c = sim_l1_find(&s->l1, idx);
            uint32_t dwords;
            long e = -1;

            n = L - lo < len ? L - lo : len;
            if (until - off < n)
                n = until - off;
            dwords = (uint32_t)((lo + n + 3) / 4 - lo / 4);
            if (type == RCK_MAP_CACHED)
                e = sim_l2_find(&s->l2, line);
            if (c != NULL) {
                shm_check_stale(s, off, c + lo, n, e >= 0 && s->l2.dirty[e]);
                memcpy(dst, c + lo, n);
                advance(s, dwords * hit, CAT_DRAM);
            } else if (type == RCK_MAP_MPBT) {
                uint64_t t = dram_tx(s, mc, SIM_TX_LINE_READ, s->me->vt, L);
                sim_l1_fill(&s->l1, idx, s->shm + off - lo, 1);
                memcpy(dst, s->shm + off, n);
                advance_to(s, t + (dwords - 1) * hit, CAT_DRAM);
                s->me->l1_misses++;
                count++;
            } else if (e >= 0) {
                unsigned char *d = s->l2.data + (size_t)e * L;
                shm_check_stale(s, off, d + lo, n, s->l2.dirty[e]);
                sim_l1_fill(&s->l1, idx, d, 0);
                memcpy(dst, d + lo, n);
                advance(s, sim_cost_l2_fill(ch, my_fdiv(s)) +
                               (dwords - 1) * hit,
                        CAT_DRAM);
                s->me->l2_hits++;
            } else {
                uint64_t t = l2_fill(s, mc, off - lo, line, &count);
                memcpy(dst, s->shm + off, n);
                advance_to(s, t + (dwords - 1) * hit, CAT_DRAM);
                s->me->l2_misses++;
                s->me->l1_misses++;
            }
        }
        dst += n;
        off += n;
        len -= n;
        shm_reorder(s, &count);
    }
}

static void shm_write_range(sim_t *s, size_t off, const unsigned char *src,
                            size_t len)
{
    const rck_chip_t *ch = s->chip;
    uint32_t L = ch->line_bytes;
    unsigned count = 0;

    while (len > 0) {
        int type, mc;
        size_t until, n, lo;
        uint64_t line;
        unsigned char *c;

        sim_map_lookup(&s->map, off, &type, &mc, &until);
        mc = mc_of(s, off, mc);
        line = off / L;
        if (type == RCK_MAP_MPBT) {
            /* one line through the WCB per line touched */
            lo = off % L;
            n = L - lo < len ? L - lo : len;
        } else {
            /* one DWORD store per DWORD touched */
            lo = off % 4;
            n = 4 - lo < len ? 4 - lo : len;
        }
        if (until - off < n)
            n = until - off;
        c = sim_l1_find(&s->l1, shm_l1_idx(s, line));
        if (c != NULL) /* write-through */
            memcpy(c + off % L, src, n);
        if (type == RCK_MAP_CACHED) {
            long e = sim_l2_find(&s->l2, line);
            if (e >= 0) {
                memcpy(s->l2.data + (size_t)e * L + off % L, src, n);
                s->l2.dirty[e] = 1;
                advance(s, sim_cost_l2_write(ch, my_fdiv(s)), CAT_DRAM);
                goto next;
            }
        }
        memcpy(s->shm + off, src, n);
        advance_to(s,
                   dram_tx(s, mc,
                           type == RCK_MAP_MPBT ? SIM_TX_LINE_WRITE
                                                : SIM_TX_DW_WRITE,
                           s->me->vt, n),
                   CAT_DRAM);
        count++;
    next:
        src += n;
        off += n;
        len -= n;
        shm_reorder(s, &count);
    }
}

/* The WCB content was charged when it was written: making the writes
 * visible is waiting for the one outstanding write. */
static rck_status_t sim_shm_flush(rck_hal_t *hal)
{
    sim_t *s = sim_of(hal);

    begin(s);
    advance_to(s, s->port.wr_done, CAT_DRAM);
    leave(s);
    return RCK_OK;
}

/* Write back every dirty L2 line and drop both caches. The cost is the
 * cheaper of the two published methods: reading a flush area through the
 * whole L2 (l2_full_flush_cycles), or a system call that flushes line by
 * line (l2_flush_per_line_cycles clean / dirty, for the lines the L2
 * holds). */
static rck_status_t sim_dcache_flush(rck_hal_t *hal)
{
    sim_t *s = sim_of(hal);
    const rck_chip_t *ch = s->chip;
    uint64_t clean = 0, dirty = 0, t0;
    double cyc;

    begin(s);
    t0 = s->me->vt;
    if (s->l2.tag != NULL) {
        size_t n = (size_t)s->l2.nsets * s->l2.ways;
        for (size_t e = 0; e < n; e++) {
            if (s->l2.tag[e] == 0)
                continue;
            if (s->l2.dirty[e]) {
                l2_write_back(s, (long)e);
                dirty++;
            } else {
                clean++;
            }
            s->l2.tag[e] = 0;
        }
    }
    sim_l1_drop_all(&s->l1);
    cyc = ch->cost_null_syscall + (double)clean * ch->l2_flush_line_clean +
          (double)dirty * ch->l2_flush_line_dirty;
    if (cyc > ch->l2_full_flush_cycles)
        cyc = ch->l2_full_flush_cycles;
    advance_to(s, t0 + sim_core_ticks(ch, my_fdiv(s), cyc), CAT_DRAM);
    leave(s);
    return RCK_OK;
}

static rck_status_t sim_shm_write(rck_hal_t *hal, size_t off, const void *src,
                                  size_t len)
{
    sim_t *s = sim_of(hal);
    uint64_t t0;

    begin(s);
    t0 = s->me->vt;
    shm_write_range(s, off, src, len);
    notify(s, RCK_SPACE_SHM, 0, (uint32_t)off,
           len > UINT32_MAX ? UINT32_MAX : len, t0, s->ue);
    leave(s);
    return RCK_OK;
}

static rck_status_t sim_shm_read(rck_hal_t *hal, size_t off, void *dst,
                                 size_t len)
{
    sim_t *s = sim_of(hal);

    begin(s);
    shm_read_range(s, off, dst, len);
    leave(s);
    return RCK_OK;
}

/* A touched range is booked in order every SIM_TOUCH_ORDER_EVERY lines
 * (a 4 KiB page is 128): the access pattern is a guess anyway (docs/SVM.md),
 * and getting back in line for every line costs a hand-over each. */
#ifndef SIM_TOUCH_ORDER_EVERY
#define SIM_TOUCH_ORDER_EVERY 16
#endif

static void touch_reorder(sim_t *s, unsigned *count)
{
    if (++*count % SIM_TOUCH_ORDER_EVERY != 0 || s->unordered)
        return;
    if (sim_engine_order(s) == RCK_OK)
        s->order_vt = s->me->vt;
}

/* Code that touched shared DRAM with plain loads and stores (SVM pages):
 * one line transaction per line, at the range's controller, in the order
 * of the addresses; the data already moved on the host. */
static rck_status_t sim_shm_touch(rck_hal_t *hal, size_t off, size_t len,
                                  int write)
{
    sim_t *s = sim_of(hal);
    uint32_t L = s->chip->line_bytes;
    size_t end = off + len;
    unsigned count = 0;

    begin(s);
    for (off -= off % L; off < end; off += L) {
        int type, mc;
        size_t until;
        sim_tx_t kind;

        sim_map_lookup(&s->map, off, &type, &mc, &until);
        mc = mc_of(s, off, mc);
        if (type == RCK_MAP_UNCACHED)
            kind = write ? SIM_TX_DW_WRITE : SIM_TX_DW_READ;
        else
            kind = write ? SIM_TX_LINE_WRITE : SIM_TX_LINE_READ;
        advance_to(s, dram_tx(s, mc, kind, s->me->vt,
                              type == RCK_MAP_UNCACHED ? 4 : L),
                   CAT_DRAM);
        if (!write)
            s->me->l1_misses++;
        count++;
        touch_reorder(s, &count);
    }
    leave(s);
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
    begin(s);
    advance_cycles(s, s->chip->cost_null_syscall, CAT_OTHER);
    leave(s);
}

/* Kernel work: a trap in and out, then the work itself, whose host time
 * is not the program's compute (leave() restarts the compute clock). */
static void sim_syscall(rck_hal_t *hal, void (*fn)(void *arg), void *arg)
{
    sim_t *s = sim_of(hal);

    begin(s);
    advance_cycles(s, s->chip->cost_null_syscall, CAT_OTHER);
    fn(arg);
    leave(s);
}

/* ---- power, clocks, console ---- */

static rck_status_t sim_freq_set(rck_hal_t *hal, int core, int fdiv)
{
    sim_t *s = sim_of(hal);
    int tile = rck_chip_tile(s->chip, core);
    int cpt = s->chip->cores_per_tile;

    begin(s);
    mesh_xfer(s, tile, 4, 0);
    advance(s, cost_line_write(s, core), CAT_OTHER);
    /* The divider is per tile: both cores change, from their next event. */
    for (int c = tile * cpt; c < (tile + 1) * cpt; c++)
        s->cores[c].fdiv = (uint32_t)fdiv;
    leave(s);
    return RCK_OK;
}

static rck_status_t sim_freq_get(rck_hal_t *hal, int core, int *fdiv)
{
    sim_t *s = sim_of(hal);

    begin(s);
    *fdiv = (int)s->cores[core].fdiv;
    mesh_xfer(s, rck_chip_tile(s->chip, core), 0, 4);
    advance(s, cost_dword_read(s, core), CAT_OTHER);
    leave(s);
    return RCK_OK;
}

static rck_status_t sim_volt_set(rck_hal_t *hal, int island, int mv)
{
    sim_t *s = sim_of(hal);

    begin(s);
    s->hdr->volt_mv[island] = (uint32_t)mv;
    fpga_access(s);
    leave(s);
    return RCK_OK;
}

static rck_status_t sim_volt_get(rck_hal_t *hal, int island, int *mv)
{
    sim_t *s = sim_of(hal);

    begin(s);
    *mv = (int)s->hdr->volt_mv[island];
    fpga_access(s);
    leave(s);
    return RCK_OK;
}

static rck_status_t sim_cycles(rck_hal_t *hal, uint64_t *cycles)
{
    sim_t *s = sim_of(hal);

    enter(s);
    advance_cycles(s, s->chip->cost_rdtsc, CAT_OTHER);
    *cycles = s->me->cyc / SIM_TICKS;
    leave(s);
    return RCK_OK;
}

static rck_status_t sim_wtime(rck_hal_t *hal, double *seconds)
{
    sim_t *s = sim_of(hal);

    enter(s);
    advance_cycles(s, s->chip->cost_rdtsc, CAT_OTHER);
    *seconds = (double)s->me->vt / (double)SIM_TICKS /
               (s->chip->core_mhz * 1e6);
    leave(s);
    return RCK_OK;
}

/* Counter 0: instructions retired as the compute model knows them
 * (counted with RCK_COMPUTE=instructions, compute cycles / CPI otherwise);
 * counter 1: MPB lines fetched into L1. */
static rck_status_t sim_perfctr_read(rck_hal_t *hal, int idx, uint64_t *value)
{
    sim_t *s = sim_of(hal);

    enter(s);
    advance_cycles(s, s->chip->cost_rdtsc, CAT_OTHER);
    if (idx == 0)
        *value = s->compute == COMPUTE_INSTR
                     ? s->me->instructions
                     : (uint64_t)((double)s->me->cat[CAT_COMPUTE] /
                                  (double)SIM_TICKS / s->compute_cpi);
    else
        *value = s->me->l1_misses;
    leave(s);
    return RCK_OK;
}

static rck_status_t sim_console_write(rck_hal_t *hal, const char *buf,
                                      size_t len)
{
    sim_t *s = sim_of(hal);
    rck_status_t st = RCK_OK;

    enter(s);
    advance_cycles(s, s->chip->cost_null_syscall, CAT_OTHER);
    while (len > 0) {
        ssize_t w = write(STDOUT_FILENO, buf, len);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            st = RCK_ERR_IO;
            break;
        }
        buf += w;
        len -= (size_t)w;
    }
    leave(s);
    return st;
}

/* Remembered locally; copied to the segment when the core parks, which is
 * when a deadlock report may need it. */
static void sim_set_context(rck_hal_t *hal, const char *call, int peer)
{
    sim_t *s = sim_of(hal);

    s->ctx_call = call;
    s->ctx_peer = peer;
    if (s->trace.fp != NULL && !s->detached) {
        /* the call starts after the program's code since the last HAL
         * call: charge it now (tracing only) */
        double cyc = sim_compute_take(s);
        if (cyc > 0)
            advance_cycles(s, cyc, CAT_COMPUTE);
        sim_compute_mark(s);
        sim_trace_call(s, call, peer);
    }
}

const rck_hal_ops_t rck_sim_ops = {
    .name = "sim",
    .job_create = sim_job_create,
    .job_child_setup = sim_job_child_setup,
    .job_core_exited = sim_job_core_exited,
    .job_destroy = sim_job_destroy,
    .attach = sim_attach,
    .detach = sim_detach,
    .mpb_map = sim_mpb_map,
    .mpb_write = sim_mpb_write,
    .mpb_read = sim_mpb_read,
    .mpb_copy = sim_mpb_copy,
    .mpb_store32 = sim_mpb_store32,
    .mpb_load32 = sim_mpb_load32,
    .cl1invmb = sim_cl1invmb,
    .wcb_flush = sim_wcb_flush,
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
    .cycles = sim_cycles,
    .wtime = sim_wtime,
    .perfctr_read = sim_perfctr_read,
    .console_write = sim_console_write,
    .set_context = sim_set_context,
};
