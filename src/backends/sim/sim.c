/*
 * The sim backend's operations: the functional effect of every HAL call on
 * the chip state in the segment, its cost from the timing model, and the
 * engine calls that put it in global virtual-time order (sim_engine.c).
 *
 * Every slot that touches state other cores can see starts with begin():
 * charge the compute since the last HAL call, then become the earliest
 * core (which may hand the token over and sleep). Slots that only look at
 * this core's own state (its clock, its L1, its console) skip the
 * ordering. Functional effects happen at the issue time of the event;
 * writes record when they become visible (completion), and a parked wait
 * resumes at that visibility time plus one poll.
 */
#include "sim_internal.h"

#include "rck/config.h"
#include "rck/log.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/* How long a core that gave the token away spins for it, when every core
 * has a host CPU (with more cores than CPUs a spinner steals the CPU the
 * token's holder needs: measured 6 times slower with 48 cores on 2). */
#define SIM_SPIN_NS_AUTO 50000

/* A DWORD load that hits in L1 (P54C: one cycle). */
#define SIM_L1_HIT_CYCLES 1.0

struct rck_job {
    int fd;
    sim_hdr_t *hdr;
    size_t bytes;
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
    off += align_up(sizeof(uint64_t) * (size_t)nues * nc, 4096);
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

static int env_bool(const char *name)
{
    const char *s = getenv(name);

    return s != NULL && (!strcasecmp(s, "1") || !strcasecmp(s, "yes") ||
                         !strcasecmp(s, "true") || !strcasecmp(s, "on"));
}

/* RCK_SIM_PIN: "off" (default) or a host CPU to pin every core of the run
 * to. Only one core runs at a time, and a futex hand-over on one CPU is a
 * little cheaper than between two (measured 3-5% with 48 cores), but two
 * runs pinned to the same CPU take twice as long, and the kernel keeps a
 * run's hand-overs on one CPU by itself: so no pinning unless asked. */
static int pin_choice(void)
{
    const char *s = getenv("RCK_SIM_PIN");
    char *end;
    long v;

    if (s == NULL || *s == '\0' || !strcasecmp(s, "off") ||
        !strcasecmp(s, "no") || !strcasecmp(s, "auto") || !strcmp(s, "-1"))
        return -1;
    v = strtol(s, &end, 10);
    if (*end == '\0' && v >= 0 && v < CPU_SETSIZE)
        return (int)v;
    rck_warn("RCK_SIM_PIN='%s' is not off or a CPU number; not pinning", s);
    return -1;
}

static rck_status_t settings_resolve(sim_hdr_t *h, int nues)
{
    const char *rep = getenv("RCK_SIM_REPORT");
    const char *wd = getenv("RCK_SIM_WATCHDOG");
    const char *spin = getenv("RCK_SIM_SPIN_NS");
    const char *la = getenv("RCK_SIM_LOOKAHEAD");
    rck_status_t st = sim_compute_configure(h);

    if (st != RCK_OK)
        return st;
    h->hazards = env_bool("RCK_SIM_HAZARDS");
    h->pin_cpu = pin_choice();
    h->watchdog_s = 5;
    if (wd != NULL && *wd != '\0') {
        char *end;
        long v = strtol(wd, &end, 10);
        if (*end != '\0' || v < 0) {
            rck_error("RCK_SIM_WATCHDOG='%s' is not a number of seconds", wd);
            return RCK_ERR_CONFIG;
        }
        h->watchdog_s = (int32_t)(v > INT32_MAX ? INT32_MAX : v);
    }
    h->spin_ns = -1;
    if (spin != NULL && *spin != '\0' && strcasecmp(spin, "auto") != 0) {
        char *end;
        long long v = strtoll(spin, &end, 10);
        if (*end != '\0' || v < 0) {
            rck_error("RCK_SIM_SPIN_NS='%s' is not auto or a number of "
                      "nanoseconds",
                      spin);
            return RCK_ERR_CONFIG;
        }
        h->spin_ns = v;
    }
    if (h->spin_ns < 0)
        h->spin_ns = h->pin_cpu < 0 && nues <= sysconf(_SC_NPROCESSORS_ONLN)
                         ? SIM_SPIN_NS_AUTO
                         : 0;
    if (la != NULL && *la != '\0') {
        char *end;
        double v = strtod(la, &end);
        if (*end != '\0' || !(v >= 0) || v > 1e12) {
            rck_error("RCK_SIM_LOOKAHEAD='%s' is not a number of cycles", la);
            return RCK_ERR_CONFIG;
        }
        h->lookahead = sim_ticks(v);
    }
    if (rep == NULL || *rep == '\0')
        rep = "rck-sim-report.json";
    if (!strcasecmp(rep, "none") || !strcasecmp(rep, "off"))
        rep = "";
    if (strlen(rep) >= sizeof(h->report_path)) {
        rck_error("RCK_SIM_REPORT: path too long");
        return RCK_ERR_CONFIG;
    }
    snprintf(h->report_path, sizeof(h->report_path), "%s", rep);
    return RCK_OK;
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
    for (int i = 0; i < nues; i++) {
        cs[cores[i]].ue = i;
        u[i].wake = SIM_INF;
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
    job->fd = (int)syscall(SYS_memfd_create, "rockcreek-sim", 1u /* CLOEXEC */);
    if (job->fd < 0) {
        rck_error("memfd_create failed: %s", strerror(errno));
        st = RCK_ERR_IO;
        goto err_free;
    }
    if (ftruncate(job->fd, (off_t)layout.seg_bytes) != 0) {
        rck_error("cannot size the %llu-byte shared segment: %s",
                  (unsigned long long)layout.seg_bytes, strerror(errno));
        st = RCK_ERR_NOMEM;
        goto err_close;
    }
    map = mmap(NULL, layout.seg_bytes, PROT_READ | PROT_WRITE, MAP_SHARED,
               job->fd, 0);
    if (map == MAP_FAILED) {
        rck_error("cannot map the shared segment: %s", strerror(errno));
        st = RCK_ERR_NOMEM;
        goto err_close;
    }
    job->hdr = map;
    job->bytes = layout.seg_bytes;
    memcpy(job->hdr, &layout, sizeof(layout));
    st = settings_resolve(job->hdr, p->nues);
    if (st != RCK_OK)
        goto err_unmap;
    seg_init(job->hdr, p->chip, p->nues, p->cores);
    job->hdr->magic = SIM_MAGIC;
    *job_out = job;
    return RCK_OK;

err_unmap:
    munmap(map, layout.seg_bytes);
err_close:
    close(job->fd);
err_free:
    free(job);
    return st;
}

static rck_status_t sim_job_child_setup(rck_job_t *job, int ue)
{
    char buf[32];
    int flags = fcntl(job->fd, F_GETFD);

    if (flags < 0 || fcntl(job->fd, F_SETFD, flags & ~FD_CLOEXEC) < 0)
        return RCK_ERR_IO;
    snprintf(buf, sizeof(buf), "%d", job->fd);
    if (setenv("RCK_SIM_FD", buf, 1) != 0)
        return RCK_ERR_IO;
    snprintf(buf, sizeof(buf), "%d", ue);
    if (setenv("RCK_UE", buf, 1) != 0 || setenv("RCK_BACKEND", "sim", 1) != 0)
        return RCK_ERR_IO;
    return RCK_OK;
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
    free(job);
}

/* ---- time ---- */

static inline int my_fdiv(sim_t *s)
{
    return (int)s->cores[s->core].fdiv;
}

static void advance(sim_t *s, uint64_t ticks, int cat)
{
    sim_ue_t *me = s->me;
    double mhz = rck_chip_fdiv_mhz(s->chip, my_fdiv(s));

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
    advance(s, sim_core_ticks(s->chip, my_fdiv(s), cycles), cat);
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
    if (!s->unordered && atomic_load(&s->hdr->token) != s->ue)
        sim_engine_reclaim(s);
}

static void leave(sim_t *s)
{
    atomic_store_explicit(&s->me->last_host_ns, sim_host_ns(),
                          memory_order_relaxed);
    atomic_fetch_add_explicit(&s->me->hal_seq, 1, memory_order_relaxed);
    atomic_store_explicit(&s->me->in_hal, 0, memory_order_release);
    sim_compute_mark(s);
}

static void poll_shm_waiters(sim_t *s);

/* Enter, then become the earliest core. @return 0 when the event is in
 * order, -1 when the run was aborted (the call then runs unordered). */
static int begin(sim_t *s)
{
    enter(s);
    if (sim_engine_order(s) != RCK_OK)
        return -1;
    if (s->hdr->nparked_shm > 0)
        poll_shm_waiters(s);
    return 0;
}

/* ---- words, conditions and waking ---- */

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

/* One poll of a condition by @p core: CL1INVMB and a DWORD read of the
 * MPB, a read of the TAS register, or an uncached DRAM read. */
static uint64_t cond_poll_cost(sim_t *s, int core, const rck_hal_cond_t *c)
{
    const rck_chip_t *ch = s->chip;
    int fdiv = (int)s->cores[core].fdiv;

    switch (c->space) {
    case RCK_SPACE_MPB:
        return sim_core_ticks(ch, fdiv, ch->cost_cl1invmb) +
               sim_cost_dword_read(ch, core, c->core);
    case RCK_SPACE_TAS:
        return sim_cost_dword_read(ch, core, c->core);
    case RCK_SPACE_SHM: {
        int mc = sim_mc_of_shm(ch, c->offset);
        return sim_dram_latency(
            ch, core, fdiv,
            sim_hops_to_tile(ch, core, ch->mc[mc].x, ch->mc[mc].y));
    }
    }
    return 0;
}

static int ue_has_shm(const sim_ue_t *u)
{
    for (int i = 0; i < u->nconds; i++) {
        if (u->conds[i].space == RCK_SPACE_SHM)
            return 1;
    }
    return 0;
}

/* A parked UE whose condition now holds continues at the time the value
 * became visible (not before it parked) plus one poll; one whose condition
 * no longer holds stays parked (invariant 3 holds: this happens before
 * its wake time, since the caller is the earliest core). */
static void try_wake(sim_t *s, int w, uint64_t not_before)
{
    sim_ue_t *u = sim_ue(s->hdr, w);
    int i = conds_eval(s->hdr, u->conds, u->nconds);
    uint64_t t;

    if (i < 0) {
        sim_engine_unwake(s, w);
        return;
    }
    t = sim_max(sim_max(u->vt, not_before), cond_vis(s, &u->conds[i])) +
        cond_poll_cost(s, s->hdr->ue_core[w], &u->conds[i]);
    sim_engine_wake(s, w, t, i);
}

/* A write to [off, off + len) of @p space (core's MPB or TAS, or shared
 * DRAM) happened: wake the parked waits it may satisfy. */
static void notify(sim_t *s, rck_space_t space, int core, uint32_t off,
                   size_t len)
{
    if (s->unordered)
        return;
    if (space != RCK_SPACE_SHM && s->cores[core].watchers == 0)
        return;
    if (space == RCK_SPACE_SHM && s->hdr->nparked_shm == 0)
        return;
    for (int w = 0; w < (int)s->hdr->nues; w++) {
        sim_ue_t *u = &s->ues[w];
        int hit = 0;

        if (w == s->ue ||
            atomic_load_explicit(&u->state, memory_order_relaxed) != UE_PARK)
            continue;
        for (int i = 0; i < u->nconds && !hit; i++) {
            const rck_hal_cond_t *c = &u->conds[i];
            hit = c->space == space &&
                  (space == RCK_SPACE_SHM || c->core == core) &&
                  (uint64_t)c->offset + 4 > off &&
                  (uint64_t)c->offset < (uint64_t)off + len;
        }
        if (hit)
            try_wake(s, w, 0);
    }
}

/* Shared DRAM is also written with plain stores that no HAL call sees:
 * every event looks at the parked waits on DRAM words (there are few). */
static void poll_shm_waiters(sim_t *s)
{
    for (int w = 0; w < (int)s->hdr->nues; w++) {
        sim_ue_t *u = &s->ues[w];

        if (w != s->ue &&
            atomic_load_explicit(&u->state, memory_order_relaxed) ==
                UE_PARK &&
            ue_has_shm(u))
            try_wake(s, w, s->me->vt);
    }
}

/* ---- attach ---- */

static void sim_atexit(void);

static rck_status_t attach_private(int *fd_out)
{
    rck_chip_t chip;
    const char *path = rck_config_get("CHIP");
    rck_job_params_t p;
    rck_job_t *job;
    rck_status_t st;
    int core0 = 0;

    st = path[0] ? rck_chip_load_file(path, &chip)
                 : rck_chip_load_default(&chip);
    if (st != RCK_OK)
        return st;
    p.chip = &chip;
    p.nues = 1;
    p.cores = &core0;
    p.shm_bytes = rck_config_get_size("SHM_SIZE");
    st = sim_job_create(&p, &job);
    if (st != RCK_OK)
        return st;
    job->hdr->private_job = 1;
    *fd_out = job->fd;
    munmap(job->hdr, job->bytes);
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
    if (pread(s->fd, &hdr, sizeof(hdr), 0) != (ssize_t)sizeof(hdr) ||
        hdr.magic != SIM_MAGIC) {
        rck_error("RCK_SIM_FD=%d is not a rockcreek sim segment (start "
                  "programs with 'rck run --backend sim')",
                  s->fd);
        st = RCK_ERR_CONFIG;
        goto err_close;
    }
    map = mmap((void *)SIM_MAP_ADDR, hdr.seg_bytes, PROT_READ | PROT_WRITE,
               MAP_SHARED | MAP_FIXED_NOREPLACE, s->fd, 0);
    if (map == MAP_FAILED || map != (void *)SIM_MAP_ADDR) {
        rck_error("cannot map the shared segment at %p: %s",
                  (void *)SIM_MAP_ADDR,
                  map == MAP_FAILED ? strerror(errno) : "address taken");
        if (map != MAP_FAILED)
            munmap(map, hdr.seg_bytes);
        st = RCK_ERR_NOMEM;
        goto err_close;
    }
    s->hdr = map;
    s->ues = sim_hdr_ues(map);
    s->cores = sim_hdr_cores(map);
    s->gic = (uint64_t *)((char *)map + hdr.gic_off);
    s->counters = (_Atomic int32_t *)((char *)map + hdr.counters_off);
    s->vis = (uint64_t *)((char *)map + hdr.vis_off);
    s->mcs = sim_hdr_mcs(map);
    s->matrix = sim_hdr_matrix(map);
    s->mpb = sim_hdr_mpb(map);
    s->shm = sim_hdr_shm(map);
    s->chip = &s->hdr->chip;
    s->lines_per_mpb = s->chip->mpb_bytes / s->chip->line_bytes;
    if (hal->ue < 0 || hal->ue >= (int)hdr.nues) {
        rck_error("RCK_UE=%d outside the job's %u UEs", hal->ue, hdr.nues);
        st = RCK_ERR_CONFIG;
        goto err_unmap;
    }
    s->ue = hal->ue;
    s->core = s->hdr->ue_core[s->ue];
    s->me = &s->ues[s->ue];
    s->last_shm_mc = -1;
    s->ctx_peer = -1;
    if (atomic_load(&s->me->state) != UE_ABSENT) {
        rck_error("UE %d is attached twice", s->ue);
        st = RCK_ERR_STATE;
        goto err_unmap;
    }
    st = sim_l1_init(&s->l1, s->chip);
    if (st != RCK_OK)
        goto err_unmap;
    hal->chip = s->hdr->chip;
    hal->nues = (int)hdr.nues;
    hal->ue_core = s->hdr->ue_core;
    hal->core = s->core;
    hal->backend = s;
    snprintf(tag, sizeof(tag), "core %d", hal->core);
    rck_log_set_tag(tag);
    pin(s);

    s->me->vt = 0;
    s->me->wake = 0;
    atomic_store(&s->me->pid, (int32_t)getpid());
    atomic_store(&s->me->state, UE_RUN);
    if (atomic_fetch_add(&s->hdr->settled, 1) + 1 == (int32_t)hdr.nues)
        sim_engine_start(s->hdr);
    st = sim_engine_await(s);
    if (st != RCK_OK) {
        rck_error("sim: the run ended before this core could start: %s",
                  rck_status_string(st));
        atomic_store(&s->me->state, UE_DONE);
        goto err_l1;
    }
    sim_engine_horizon(s);
    sim_compute_init(s);
    atomic_store(&s->me->last_host_ns, sim_host_ns());
    sim_live = s;
    if (!atexit_done) {
        atexit_done = 1;
        atexit(sim_atexit);
    }
    return RCK_OK;

err_l1:
    sim_l1_fini(&s->l1);
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
        atomic_load(&s->me->state) != UE_FREE)
        return;
    sim_quit(s, UE_END_DETACHED);
}

/* ---- MPB ---- */

static rck_status_t sim_mpb_map(rck_hal_t *hal, int core, void **base)
{
    *base = mpb_at(sim_of(hal), core, 0);
    return RCK_OK;
}

static void hazard(sim_t *s, int target, uint32_t off)
{
    sim_ue_t *me = s->me;
    const char *ctx = s->ctx_call != NULL ? s->ctx_call : "";
    uint32_t line = off / s->chip->line_bytes * s->chip->line_bytes;

    me->stale_reads++;
    for (uint32_t i = 0; i < me->nhaz; i++) {
        sim_hazard_t *z = &me->haz[i];
        if ((int)z->target == target &&
            z->off / s->chip->line_bytes * s->chip->line_bytes == line &&
            z->peer == s->ctx_peer && !strncmp(z->ctx, ctx, SIM_CTX_LEN - 1)) {
            z->count++;
            return;
        }
    }
    if (me->nhaz < SIM_MAX_HAZARDS) {
        sim_hazard_t *z = &me->haz[me->nhaz++];
        z->target = (uint32_t)target;
        z->off = off;
        z->count = 1;
        z->first_tick = me->vt;
        z->peer = s->ctx_peer;
        snprintf(z->ctx, sizeof(z->ctx), "%s", ctx);
    }
}

/* Read through this core's L1: a cached line is returned as cached (stale
 * if another core wrote the MPB since); a missing one is fetched and
 * cached. @return the cost in ticks. */
static uint64_t read_l1(sim_t *s, int target, uint32_t off,
                        unsigned char *dst, size_t len)
{
    const rck_chip_t *ch = s->chip;
    uint32_t L = ch->line_bytes;
    uint64_t miss = sim_cost_dword_read(ch, s->core, target);
    uint64_t hit = sim_core_ticks(ch, my_fdiv(s), SIM_L1_HIT_CYCLES);
    uint64_t cost = 0;

    while (len > 0) {
        uint32_t lo = off % L;
        uint32_t n = len < L - lo ? (uint32_t)len : L - lo;
        uint32_t dwords = (lo + n + 3) / 4 - lo / 4;
        uint64_t idx = (uint64_t)target * s->lines_per_mpb + off / L;
        unsigned char *mem = mpb_at(s, target, off - lo);
        unsigned char *c = sim_l1_find(&s->l1, idx);

        if (c != NULL) {
            if (memcmp(c + lo, mem + lo, n) != 0) {
                uint32_t k = 0;
                while (c[lo + k] == mem[lo + k])
                    k++;
                hazard(s, target, off + k);
            }
            memcpy(dst, c + lo, n);
            cost += dwords * hit;
        } else {
            sim_l1_fill(&s->l1, idx, mem);
            memcpy(dst, mem + lo, n);
            cost += miss + (dwords - 1) * hit;
            s->me->l1_misses++;
            s->me->mpb_lines_read++;
        }
        dst += n;
        off += n;
        len -= n;
    }
    return cost;
}

/* Write through to the MPB (updating this core's cached copies; a write
 * miss does not allocate). One line write per line touched, back to back;
 * each line becomes visible when its write completes. @return the cost. */
static uint64_t write_lines(sim_t *s, int target, uint32_t off,
                            const unsigned char *src, size_t len)
{
    const rck_chip_t *ch = s->chip;
    uint32_t L = ch->line_bytes;
    uint64_t per = sim_cost_line_write(ch, s->core, target);
    uint64_t when = s->me->vt;

    s->matrix[(size_t)s->ue * (size_t)ch->ncores + (size_t)target] += len;
    while (len > 0) {
        uint32_t lo = off % L;
        uint32_t n = len < L - lo ? (uint32_t)len : L - lo;
        uint64_t idx = (uint64_t)target * s->lines_per_mpb + off / L;
        unsigned char *c = sim_l1_find(&s->l1, idx);

        memcpy(mpb_at(s, target, off), src, n);
        if (c != NULL)
            memcpy(c + lo, src, n);
        when += per;
        if (!s->unordered)
            s->vis[idx] = sim_max(s->vis[idx], when);
        s->me->mpb_lines_written++;
        src += n;
        off += n;
        len -= n;
    }
    return when - s->me->vt;
}

static rck_status_t sim_mpb_write(rck_hal_t *hal, int core, uint32_t off,
                                  const void *src, size_t len)
{
    sim_t *s = sim_of(hal);

    begin(s);
    advance(s, write_lines(s, core, off, src, len), CAT_MPB);
    notify(s, RCK_SPACE_MPB, core, off, len);
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

    if (buf == NULL)
        return RCK_ERR_NOMEM;
    begin(s);
    advance(s, read_l1(s, src_core, src_off, buf, len), CAT_MPB);
    advance(s, write_lines(s, dst_core, dst_off, buf, len), CAT_MPB);
    notify(s, RCK_SPACE_MPB, dst_core, dst_off, len);
    leave(s);
    free(buf);
    return RCK_OK;
}

static rck_status_t sim_mpb_store32(rck_hal_t *hal, int core, uint32_t off,
                                    uint32_t value)
{
    sim_t *s = sim_of(hal);

    begin(s);
    advance(s, write_lines(s, core, off, (const unsigned char *)&value, 4),
            CAT_MPB);
    notify(s, RCK_SPACE_MPB, core, off, 4);
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
        notify(s, RCK_SPACE_TAS, core, 0, 4);
    advance(s, sim_cost_dword_read(s->chip, s->core, core), CAT_OTHER);
    leave(s);
    return RCK_OK;
}

static rck_status_t sim_tas_release(rck_hal_t *hal, int core)
{
    sim_t *s = sim_of(hal);
    uint64_t cost;

    begin(s);
    cost = sim_cost_line_write(s->chip, s->core, core);
    atomic_store(&s->cores[core].tas, 0);
    if (!s->unordered)
        s->cores[core].tas_vis = s->me->vt + cost;
    advance(s, cost, CAT_OTHER);
    notify(s, RCK_SPACE_TAS, core, 0, 4);
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
    cost = kind == RCK_IRQ_PIN ? sim_cost_line_write(s->chip, s->core, core)
                               : sim_cost_fpga(s->chip, s->core, my_fdiv(s));
    at = s->me->vt + sim_cost_irq_delivery(s->chip, s->core, core);
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
        if (atomic_load_explicit(&u->state, memory_order_relaxed) ==
                UE_PARK &&
            (u->park_flags & (PARK_IRQ | PARK_HANDLER))) {
            uint64_t t = sim_max(at, u->vt);
            u->park_wake = sim_min(u->park_wake, t);
            sim_engine_wake(s, c->ue, t, u->sat_which);
        }
    }
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
    me->nconds = nc;
    me->park_flags = ((flags & RCK_WAIT_IRQ) ? PARK_IRQ : 0) |
                     (hal->irq_handler != NULL ? PARK_HANDLER : 0);
    me->sat_which = -1;
    me->ctx_peer = s->ctx_peer;
    snprintf(me->ctx, sizeof(me->ctx), "%s",
             s->ctx_call != NULL ? s->ctx_call : "");
    for (int i = 0; i < nc; i++) {
        if (conds[i].space == RCK_SPACE_SHM)
            shm = 1;
        else
            s->cores[conds[i].core].watchers++;
    }
    if (shm)
        s->hdr->nparked_shm++;
}

static void wait_unpublish(sim_t *s)
{
    sim_ue_t *me = s->me;
    int shm = 0;

    for (int i = 0; i < me->nconds; i++) {
        if (me->conds[i].space == RCK_SPACE_SHM)
            shm = 1;
        else if (s->cores[me->conds[i].core].watchers > 0)
            s->cores[me->conds[i].core].watchers--;
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

static rck_status_t sim_wait(rck_hal_t *hal, const rck_hal_cond_t *conds,
                             int nc, unsigned flags, int64_t timeout_ns,
                             int *which)
{
    sim_t *s = sim_of(hal);
    sim_ue_t *me = s->me;
    int want_irq = (flags & RCK_WAIT_IRQ) != 0;
    uint64_t start, deadline;
    int woke = 0;
    rck_status_t st;

    if (nc > SIM_MAX_CONDS) {
        rck_error("sim: a wait on %d words (at most %d)", nc, SIM_MAX_CONDS);
        return RCK_ERR_UNSUPPORTED;
    }
    if (begin(s) != 0) {
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

        if (irq_matters && s->cores[s->core].irq_next <= me->vt) {
            irq_run(s, hal);
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
        i = conds_eval(s->hdr, conds, nc);
        if (i >= 0) {
            if (!woke)
                advance_to(s,
                           sim_max(me->vt, cond_vis(s, &conds[i])) +
                               cond_poll_cost(s, s->core, &conds[i]),
                           CAT_WAIT);
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
        wait_publish(s, conds, nc, flags, hal);
        me->wait_start = start;
        me->park_wake = deadline;
        if (irq_matters)
            me->park_wake = sim_min(me->park_wake,
                                    sim_max(s->cores[s->core].irq_next,
                                            me->vt));
        me->wake = me->park_wake;
        atomic_store(&me->state, UE_PARK);
        st = sim_engine_park(s);
        if (st != RCK_OK) {
            atomic_store(&me->end, st == RCK_ERR_DEADLOCK ? UE_END_DEADLOCK
                                                          : UE_END_ABORTED);
            break; /* stays published for the reports */
        }
        wait_unpublish(s);
        woke = me->sat_which >= 0;
        advance_to(s, me->wake, CAT_WAIT);
        atomic_store(&me->state, UE_RUN);
    }
    leave(s);
    return st;
}

/* ---- counters, LUT, shared DRAM ---- */

static rck_status_t sim_gtsc_read(rck_hal_t *hal, uint64_t *ticks)
{
    sim_t *s = sim_of(hal);

    enter(s);
    advance(s, sim_cost_fpga(s->chip, s->core, my_fdiv(s)), CAT_OTHER);
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
    advance(s, sim_cost_fpga(s->chip, s->core, my_fdiv(s)), CAT_OTHER);
    leave(s);
    return RCK_OK;
}

static rck_status_t sim_atomic_read(rck_hal_t *hal, int ctr, int32_t *value)
{
    sim_t *s = sim_of(hal);

    begin(s);
    *value = atomic_load(&s->counters[ctr]);
    advance(s, sim_cost_fpga(s->chip, s->core, my_fdiv(s)), CAT_OTHER);
    leave(s);
    return RCK_OK;
}

static rck_status_t sim_atomic_write(rck_hal_t *hal, int ctr, int32_t value)
{
    sim_t *s = sim_of(hal);

    begin(s);
    atomic_store(&s->counters[ctr], value);
    advance(s, sim_cost_fpga(s->chip, s->core, my_fdiv(s)), CAT_OTHER);
    leave(s);
    return RCK_OK;
}

static rck_status_t sim_lut_read(rck_hal_t *hal, int core, int idx,
                                 uint32_t *entry)
{
    sim_t *s = sim_of(hal);

    begin(s);
    *entry = s->cores[core].lut[idx];
    advance(s, sim_cost_dword_read(s->chip, s->core, core), CAT_OTHER);
    leave(s);
    return RCK_OK;
}

static rck_status_t sim_lut_write(rck_hal_t *hal, int core, int idx,
                                  uint32_t entry)
{
    sim_t *s = sim_of(hal);

    begin(s);
    s->cores[core].lut[idx] = entry;
    advance(s, sim_cost_line_write(s->chip, s->core, core), CAT_OTHER);
    leave(s);
    return RCK_OK;
}

static rck_status_t sim_shm_set_map(rck_hal_t *hal, size_t off, size_t len,
                                    rck_map_t type, int mc)
{
    return rck_hal_unsupported();
}

static rck_status_t sim_shm_map(rck_hal_t *hal, void **base, size_t *len)
{
    sim_t *s = sim_of(hal);

    *base = s->shm;
    *len = s->hdr->shm_bytes;
    return RCK_OK;
}

/* Lines of [off, off + len) one after the other through their memory
 * controllers (the window is interleaved over them). */
static void dram_lines(sim_t *s, size_t off, size_t len)
{
    uint32_t L = s->chip->line_bytes;
    size_t first = off / L, last = (off + len - 1) / L;
    uint64_t t = s->me->vt;

    for (size_t l = first; l <= last; l++) {
        int mc = sim_mc_of_shm(s->chip, l * L);
        sim_mc_t scratch = {0, 0, 0};
        sim_mc_t *m = s->unordered ? &scratch : &s->mcs[mc];

        t = sim_dram_access(s->chip, m, mc, s->core, my_fdiv(s), t);
        s->last_shm_mc = mc;
        s->me->dram_lines++;
    }
    advance_to(s, t, CAT_DRAM);
}

static rck_status_t sim_shm_flush(rck_hal_t *hal)
{
    sim_t *s = sim_of(hal);
    int mc;

    begin(s);
    mc = s->last_shm_mc >= 0 ? s->last_shm_mc
                             : sim_mc_nearest(s->chip, s->core);
    if (!s->unordered)
        advance_to(s,
                   sim_dram_access(s->chip, &s->mcs[mc], mc, s->core,
                                   my_fdiv(s), s->me->vt),
                   CAT_DRAM);
    leave(s);
    return RCK_OK;
}

static rck_status_t sim_dcache_flush(rck_hal_t *hal)
{
    sim_t *s = sim_of(hal);

    begin(s);
    advance_cycles(s, s->chip->l2_full_flush_cycles, CAT_DRAM);
    sim_l1_invalidate(&s->l1);
    leave(s);
    return RCK_OK;
}

static rck_status_t sim_shm_write(rck_hal_t *hal, size_t off, const void *src,
                                  size_t len)
{
    sim_t *s = sim_of(hal);

    begin(s);
    memcpy(s->shm + off, src, len);
    dram_lines(s, off, len);
    notify(s, RCK_SPACE_SHM, 0, (uint32_t)off,
           len > UINT32_MAX ? UINT32_MAX : len);
    leave(s);
    return RCK_OK;
}

static rck_status_t sim_shm_read(rck_hal_t *hal, size_t off, void *dst,
                                 size_t len)
{
    sim_t *s = sim_of(hal);

    begin(s);
    memcpy(dst, s->shm + off, len);
    dram_lines(s, off, len);
    leave(s);
    return RCK_OK;
}

/* ---- power, clocks, console ---- */

static rck_status_t sim_freq_set(rck_hal_t *hal, int core, int fdiv)
{
    sim_t *s = sim_of(hal);
    int tile = rck_chip_tile(s->chip, core);
    int cpt = s->chip->cores_per_tile;

    begin(s);
    advance(s, sim_cost_line_write(s->chip, s->core, core), CAT_OTHER);
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
    advance(s, sim_cost_dword_read(s->chip, s->core, core), CAT_OTHER);
    leave(s);
    return RCK_OK;
}

static rck_status_t sim_volt_set(rck_hal_t *hal, int island, int mv)
{
    sim_t *s = sim_of(hal);

    begin(s);
    s->hdr->volt_mv[island] = (uint32_t)mv;
    advance(s, sim_cost_fpga(s->chip, s->core, my_fdiv(s)), CAT_OTHER);
    leave(s);
    return RCK_OK;
}

static rck_status_t sim_volt_get(rck_hal_t *hal, int island, int *mv)
{
    sim_t *s = sim_of(hal);

    begin(s);
    *mv = (int)s->hdr->volt_mv[island];
    advance(s, sim_cost_fpga(s->chip, s->core, my_fdiv(s)), CAT_OTHER);
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
