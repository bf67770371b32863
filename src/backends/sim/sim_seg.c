/*
 * The sim backend's segment and its lifecycle: the layout of the shared
 * segment (sim_state.h), its creation with the run's settings (by the
 * launcher), the default LUT, the CPU a run is pinned to, a process's view
 * of the segment, and a core's attachment (mapping, L1, L2, map, cost
 * caches) and detachment.
 *
 * Owns: struct rck_job, the segment's layout and initial state.
 * May call: seg.c (the shared memfd helpers), the cost model (sim_cost.c:
 * the nearest memory controller), the compute models (their settings),
 * the caches (sim_l1.c). Called by the HAL slots (sim.c), and by the
 * engine through the hook sim.c registers (sim_view_init).
 */
#include "sim_seg.h"
#include "sim_state.h"
#include "sim_power.h"
#include "sim_sched.h"
#include "sim_compute.h"
#include "sim_monitor.h"
#include "sim_report.h"
#include "sim_l1.h"
#include "sim_cost.h"
#include "sim_mc.h"
#include "sim_charge.h"
#include "common/backend.h"
#include "common/seg.h"

#include "rck/config.h"
#include "rck/log.h"
#include "rck/lutwin.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/socket.h>
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

/* The sim backend's settings (listed by `rck config --list`), resolved
 * into the segment by settings_resolve (and the compute models and
 * schedule seeds, sim_compute.c, sim_sched.c). */
static const rck_config_entry_t sim_settings[] = {
    {"COMPUTE", "auto", RCK_CONFIG_STRING,
     "sim: compute model between HAL calls: auto (p54c-fast when the program "
     "was built by rckcc with its counters, else host), host[:REL] (host CPU "
     "time, REL = SCC speed relative to the host, default from the chip), "
     "none, instructions[:CPI] (retired instructions x CPI; falls back to "
     "host), p54c or p54c-fast (docs/P54C.md)",
     "auto|none|host|host:#.#|instructions|instructions:#.#|p54c|p54c-fast"},
    {"P54C_QEMU", "qemu-x86_64", RCK_CONFIG_STRING,
     "sim, compute p54c: QEMU's user-mode emulator each core runs under", NULL},
    {"P54C_PLUGIN", "", RCK_CONFIG_STRING,
     "sim, compute p54c: the P54C QEMU plugin (empty = the one built with "
     "rockcreek)", NULL},
    {"P54C_ORDER", "1000", RCK_CONFIG_STRING,
     "sim, compute p54c: book a compute slice's DRAM transactions in time "
     "order with the other cores, at most this many cycles (of the chip's "
     "clock) ahead of "
     "the earliest (0: exact order; off: the whole slice at once, ahead of "
     "the cores that book later)",
     "off|#.#"},
    {"P54C_ENGINE", "auto", RCK_CONFIG_STRING,
     "sim, compute p54c-fast: what counts the instructions: compiled (the "
     "program's own counters, built in by rckcc), qemu (the QEMU plugin), or "
     "auto (compiled when the program has them)",
     "auto|compiled|qemu"},
    {"P54C_QEMU_COUNTS", "compiled", RCK_CONFIG_STRING,
     "sim, compute p54c/p54c-fast, QEMU engine, a program with compiled "
     "counters: what counts as its work: compiled (what the compiled engine "
     "counts: not the C library or any other module without counters) or "
     "all (every module but the simulator's own code and the PLT stubs, as "
     "for a program without counters)",
     "compiled|all"},
    {"P54C_QEMU_STACK", "linux", RCK_CONFIG_STRING,
     "sim, compute p54c, QEMU engine: where the caches see the program's "
     "stack: linux (where Linux puts it, as the compiled engine sees it: "
     "qemu-x86_64 maps it elsewhere and gives a shorter auxiliary vector) "
     "or qemu (where qemu put it; a check)",
     "linux|qemu"},
    {"P54C_BOOK_OTHERS", "1", RCK_CONFIG_BOOL,
     "sim, compute p54c: the run token's holder books the next step of a "
     "core stopped in time order (RCK_P54C_ORDER) instead of handing it the "
     "token (0: hand over; the same answers, slower; a check)", NULL},
    {"P54C_NATIVE", "1", RCK_CONFIG_BOOL,
     "sim, compute p54c: book the DRAM transactions natively in the plugin "
     "(0: in the HAL under QEMU, the same answers, slower; a check)", NULL},
    {"P54C_FETCH_SHORTCUTS", "1", RCK_CONFIG_BOOL,
     "sim, compute p54c, compiled engine: settle a block's instruction "
     "fetches at its start and outdate the fetch filter by L1I set (0: each "
     "segment of a block checks its own fetch, any change of L1I outdates "
     "every entry; the same answers, slower; a check)", NULL},
    {"SIM_REPORT", "rck-sim-report.json", RCK_CONFIG_STRING,
     "sim: where the deterministic JSON report goes (none = no file)", NULL},
    {"SIM_TRACE", "none", RCK_CONFIG_STRING,
     "sim: Chrome trace-event JSON file (opens in Perfetto); none = off", NULL},
    {"SIM_SUMMARY", "1", RCK_CONFIG_BOOL,
     "sim: print the short human summary on stderr at exit", NULL},
    {"SIM_HAZARDS", "0", RCK_CONFIG_BOOL,
     "sim: report every stale MPB read (a read skipped CL1INVMB)", NULL},
    {"SIM_PIN", "auto", RCK_CONFIG_STRING,
     "sim: pin every core of the run to one host CPU: auto = one no other "
     "sim run holds (none: no pinning), off, or a CPU number",
     "auto|none|off|no|-1|#"},
    {"SIM_SPIN_NS", "auto", RCK_CONFIG_STRING,
     "sim: how long a core spins for the run token before it sleeps "
     "(nanoseconds; auto = spin only when cores <= host CPUs)",
     "auto|#.#"},
    {"SIM_LOOKAHEAD", "0", RCK_CONFIG_INT,
     "sim: cycles a core may run ahead of the earliest core (0 = strict "
     "order; larger is faster but can reorder nearby events)",
     "0.."},
    {"SIM_SCHEDULE", "0", RCK_CONFIG_INT,
     "sim: schedule seed: 0 = the model's own order; another number takes "
     "another legal interleaving (seeded jitter), the same one every time",
     "0..18446744073709551615"},
    {"SIM_WATCHDOG", "5", RCK_CONFIG_INT,
     "sim: seconds a core may hold the run token without a HAL call before "
     "it is warned about and the others proceed",
     "0..2147483647"},
        {NULL, NULL, RCK_CONFIG_STRING, NULL, NULL}};

__attribute__((constructor)) static void sim_settings_register(void)
{
    rck_config_register(sim_settings, RCK_SIM_CONFIG_RANK);
}


/* ---- segment ---- */

static rck_status_t seg_layout(const rck_chip_t *c, int nues,
                               size_t shm_bytes, sim_hdr_t *h)
{
    size_t nc = (size_t)c->ncores, regs[SIM_NREGS];
    rck_status_t st;

    regs[SIM_REG_UES] = sizeof(sim_ue_t) * (size_t)nues;
    regs[SIM_REG_GIC] = sizeof(uint64_t) * nc * nc;
    regs[SIM_REG_VIS] = sizeof(uint64_t) * nc * (c->mpb_bytes / c->line_bytes);
    regs[SIM_REG_MC] = sizeof(sim_mc_t) * (size_t)c->nmc;
    regs[SIM_REG_MATRIX] = sizeof(sim_pair_t) * (size_t)nues * nc;
    regs[SIM_REG_LINKS] = sizeof(sim_link_t) * (size_t)nues *
                          (size_t)c->ntiles * SIM_LINK_DIRS;
    regs[SIM_REG_PW] = sizeof(sim_pwq_t) * (size_t)nues;
    regs[SIM_REG_COMM] = nues < 1 ? 0
                                  : sizeof(uint64_t) *
                                        rck_comm_row_words(nues) *
                                        (size_t)nues;
    st = rck_cs_layout(c, nues, shm_bytes, sizeof(sim_hdr_t),
                       sizeof(sim_core_t), regs, SIM_NREGS, &h->layout);
    if (st != RCK_OK)
        return st;
    h->shm_bytes = h->layout.shm_bytes;
    h->seg_bytes = h->layout.seg_bytes;
    return RCK_OK;
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

static rck_status_t settings_resolve(sim_hdr_t *h, int nues,
                                    const char *program)
{
    const char *spin = rck_config_get("SIM_SPIN_NS");
    rck_status_t st = sim_compute_configure(h, program);
    double v;

    if (st == RCK_OK)
        st = sim_sched_configure(h);
    if (st == RCK_OK)
        st = sim_power_configure(h);
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
    st = setting_path(*rck_config_get("REPORT") != '\0' ? "REPORT"
                                                        : "SIM_REPORT",
                      h->report_path, sizeof(h->report_path));
    if (st == RCK_OK)
        st = sim_progress_configure(h);
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
    if (st == RCK_OK && sim_trace_gz(h->trace_path) && !sim_trace_gz_ok()) {
        rck_error("RCK_SIM_TRACE: '%s' asks for a compressed trace, and this "
                  "build has no zlib (Debian zlib1g-dev, then configure "
                  "again); give a name without .gz",
                  h->trace_path);
        return RCK_ERR_CONFIG;
    }
    return st;
}

static void seg_init(sim_hdr_t *h, const rck_chip_t *chip, int nues,
                     const int *cores)
{
    sim_core_t *cs = sim_hdr_cores(h);
    sim_ue_t *u = sim_hdr_ues(h);
    uint64_t *gic = (uint64_t *)((char *)h +
                                 h->layout.extra_off[SIM_REG_GIC]);
    rck_cs_t state;
    size_t nc = (size_t)chip->ncores;
    uint32_t mv = (uint32_t)rck_chip_start_mv(chip);

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
    rck_cs_view(&state, h, &h->layout, chip, NULL);
    rck_cs_init(&state, chip); /* dividers, LUTs */
    for (size_t c = 0; c < nc; c++) {
        cs[c].ue = -1;
        cs[c].pin_at = SIM_INF;
        cs[c].irq_next = SIM_INF;
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

rck_status_t sim_seg_create(const rck_job_params_t *p, rck_job_t **job_out)
{
    sim_hdr_t layout;
    rck_job_t *job;
    rck_status_t st;
    void *map;

    memset(&layout, 0, sizeof(layout));
    st = seg_layout(p->chip, p->nues, p->shm_bytes, &layout);
    if (st != RCK_OK) {
        rck_error("sim backend: the chip '%s' with %d UEs does not fit",
                  p->chip->name, p->nues);
        return st;
    }
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
    st = settings_resolve(job->hdr, p->nues, p->program);
    if (st != RCK_OK)
        goto err_unmap;
    if (job->hdr->pin_cpu == SIM_PIN_AUTO)
        job->hdr->pin_cpu = job->hdr->spin_ns > 0 || p->nues < 2
                                ? -1
                                : pin_auto(&job->pin_fd);
    seg_init(job->hdr, p->chip, p->nues, p->cores);
    job->hdr->nstart = p->nstart > 0 && p->nstart < p->nues ? p->nstart
                                                              : p->nues;
    for (int ue = job->hdr->nstart; ue < p->nues; ue++)
        atomic_store(&job->hdr->ue_state[ue], UE_DORMANT);
    job->dram_fd = -1;
    if (rck_lutwin_enabled() &&
        (st = rck_lutwin_dram_create(p->chip, &job->dram_fd)) != RCK_OK)
        goto err_unmap;
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

rck_status_t sim_seg_child_setup(rck_job_t *job, int ue)
{
    rck_status_t st = rck_seg_child_env(job->fd, "RCK_SIM_FD", ue, "sim");

    return st == RCK_OK ? rck_lutwin_child_env(job->dram_fd) : st;
}

void sim_seg_destroy(rck_job_t *job)
{
    munmap(job->hdr, job->bytes);
    close(job->fd);
    if (job->pin_fd >= 0)
        close(job->pin_fd);
    if (job->dram_fd >= 0)
        close(job->dram_fd);
    free(job);
}

/* ---- the segment seen from a process ---- */

void sim_view_init(sim_t *v, sim_hdr_t *h)
{
    memset(v, 0, sizeof(*v));
    v->fd = -1;
    v->perf_fd = -1;
    v->hdr = h;
    v->ues = sim_hdr_ues(h);
    rck_cs_view(&v->cs, h, &h->layout, &h->chip, NULL);
    v->cores = sim_hdr_cores(h);
    v->gic = (uint64_t *)((char *)h + h->layout.extra_off[SIM_REG_GIC]);
    v->counters = v->cs.counters;
    v->vis = (uint64_t *)((char *)h + h->layout.extra_off[SIM_REG_VIS]);
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

static rck_status_t attach_private(int *fd_out)
{
    rck_job_t *job;
    rck_status_t st;

    st = rck_be_solo_job(sim_seg_create, &job);
    if (st != RCK_OK)
        return st;
    job->hdr->private_job = 1;
    *fd_out = job->fd;
    /* the window finds the private DRAM through the environment */
    if (job->dram_fd >= 0 && rck_lutwin_child_env(job->dram_fd) != RCK_OK)
        close(job->dram_fd);
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

static uint32_t sim_lut_get(void *arg, int idx)
{
    return atomic_load_explicit(&((sim_core_t *)arg)->lut[idx],
                                memory_order_acquire);
}

static const sim_hdr_t *sim_win_hdr;

static uint64_t sim_mpb_of(void *arg, int core)
{
    (void)arg;
    return sim_win_hdr->layout.mpb_off +
           (uint64_t)core * sim_win_hdr->chip.mpb_bytes;
}

static sim_t *sim_win_sim;

/* Tell the P54C models what a window slot shows (p54c_abi.h): its own
 * private pages and other DRAM pages as cached memory of their controller,
 * shared pages as the shared window, the rest not timed. */
static void sim_win_on_map(void *arg, int idx, const rck_lut_target_t *t,
                           void *base)
{
    p54c_slot_t *slot = sim_win_sim != NULL ? sim_win_sim->p54c.slot : NULL;

    (void)arg;
    if (slot == NULL)
        return;
    slot->win_base = (uint64_t)(uintptr_t)base;
    slot->win_kind[idx] = t->kind == RCK_LUT_DRAM     ? P54C_WIN_DRAM
                          : t->kind == RCK_LUT_SHARED ? P54C_WIN_SHARED
                                                      : P54C_WIN_NONE;
    slot->win_mc[idx] = (uint8_t)(t->mc >= 0 ? t->mc : 0);
    slot->win_page[idx] = (uint16_t)t->page;
}

/* What this core's LUT window maps (rck/lutwin.h). Accesses through it
 * are the program's own loads and stores: only the P54C models see them
 * (docs/LUT.md, "On the sim"). */
rck_status_t sim_seg_lut_window(rck_hal_t *hal, rck_lutwin_params_t *p)
{
    sim_t *s = hal->backend;

    sim_win_hdr = s->hdr;
    p->shm_fd = s->fd;
    p->mpb_fd = s->fd;
    p->mpb_of = sim_mpb_of;
    p->shm_off = s->hdr->layout.shm_off;
    p->shm_bytes = s->hdr->shm_bytes;
    p->dram_fd = rck_lutwin_dram_fd();
    p->lut_get = sim_lut_get;
    p->lut_arg = &s->cores[hal->core];
    sim_win_sim = s;
    p->on_map = sim_win_on_map;
    return RCK_OK;
}

rck_status_t sim_seg_attach(rck_hal_t *hal, sim_t **out)
{
    const char *fds = getenv("RCK_SIM_FD");
    const char *ues = getenv("RCK_UE");
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
    sim_charge_init(s);
    if (atomic_load(sim_state(s->hdr, s->ue)) != UE_ABSENT &&
        atomic_load(sim_state(s->hdr, s->ue)) != UE_JOIN) {
        rck_error("UE %d is attached twice, or was not started", s->ue);
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
    hal->comm_row = sim_hdr_comm(s->hdr, s->ue);
    hal->backend = s;
    snprintf(tag, sizeof(tag), "core %d", hal->core);
    rck_log_set_tag(tag);
    pin(s);
    *out = s;
    return RCK_OK;

err_map:
    sim_l2_fini(&s->l2);
    sim_map_fini(&s->map);
    sim_charge_fini(s);
err_unmap:
    munmap(map, hdr.seg_bytes);
err_close:
    close(s->fd);
err_free:
    hal->backend = NULL;
    free(s);
    return st;
}

void sim_seg_detach(sim_t *s)
{
    sim_l1_fini(&s->l1);
    sim_l2_fini(&s->l2);
    sim_map_fini(&s->map);
    sim_charge_fini(s);
    munmap(s->hdr, s->hdr->seg_bytes);
    close(s->fd);
    free(s);
}
