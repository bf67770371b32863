/*
 * HAL entry points: argument checks in one place, then the backend's slot.
 *
 * Owns: the registered backends, this process's HAL (rck_hal_self), its
 * LUT window. May call: the backends' ops tables, the LUT window
 * (lutwin.c, below it; the window's CRB faults come back through the
 * function installed with rck_lutwin_fault_install, not by name), the CRB
 * emulation (crb_fault.c, which calls crb.c, which calls these entry
 * points: a circle of three), the monitor, the settings, the logger.
 */
#include "rck/hal.h"
#include "rck/lutwin.h"
#include "rck/spawn.h"
#include "rck/config.h"
#include "rck/crash.h"
#include "rck/log.h"
#include "lutwin_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static rck_hal_t *hal_self;

/* The backends, as registered (in order) by the backends layer. */
#define RCK_HAL_MAX_BACKENDS 16
static const rck_hal_ops_t *hal_backends[RCK_HAL_MAX_BACKENDS];
static int hal_nbackends;
static char hal_backend_names[256];

/* Every slot of the two tables (rck/hal.h: every slot filled). */
#define HAL_JOB_SLOTS(X)                                                      \
    X(create) X(child_setup) X(child_wrap) X(core_attached) X(core_exited)    \
    X(tick) X(shm_auto) X(destroy)
#define HAL_CORE_SLOTS(X)                                                     \
    X(attach) X(attach_end) X(detach) X(mpb_map) X(mpb_write) X(mpb_read)     \
    X(mpb_copy) X(mpb_store32) X(mpb_load32) X(cl1invmb) X(mpb_prefetch)      \
    X(wcb_flush) X(tas_try) X(tas_release) X(irq_raise) X(irq_poll) X(wait)   \
    X(gtsc_read) X(atomic_inc) X(atomic_read) X(atomic_write) X(lut_read)     \
    X(lut_write) X(shm_map) X(shm_set_map) X(shm_flush) X(dcache_flush)       \
    X(shm_write) X(shm_read) X(shm_touch) X(syscall) X(trap) X(freq_set)      \
    X(freq_get) X(volt_set) X(volt_get) X(volt_wait) X(power_read) X(cycles)  \
    X(wtime) X(perfctr_read) X(console_write) X(set_context) X(monitor)       \
    X(spawn_claim) X(spawn_release) X(mpb_write_flag) X(set_message)          \
    X(lut_window)

const char *rck_hal_ops_missing(const rck_hal_ops_t *ops)
{
    if (ops == NULL || ops->name == NULL)
        return "name";
    if (ops->job == NULL)
        return "job";
#define JOB_SLOT(s)                                                           \
    if (ops->job->s == NULL)                                                  \
        return "job->" #s;
#define CORE_SLOT(s)                                                          \
    if (ops->s == NULL)                                                       \
        return #s;
    HAL_JOB_SLOTS(JOB_SLOT)
    HAL_CORE_SLOTS(CORE_SLOT)
#undef JOB_SLOT
#undef CORE_SLOT
    return NULL;
}

rck_status_t rck_hal_backend_register(const rck_hal_ops_t *ops)
{
    size_t len = strlen(hal_backend_names);
    const char *missing = rck_hal_ops_missing(ops);

    if (missing != NULL) {
        rck_error("backend '%s' not registered: its ops table leaves the "
                  "slot %s empty (every slot is filled: src/backends/common/"
                  "defaults.h has the shared ones)",
                  ops != NULL && ops->name != NULL ? ops->name : "?",
                  missing);
        return RCK_ERR_INVALID;
    }
    if (rck_hal_backend_find(ops->name) != NULL)
        return RCK_OK;
    if (hal_nbackends == RCK_HAL_MAX_BACKENDS)
        return RCK_ERR_CONFIG;
    hal_backends[hal_nbackends++] = ops;
    snprintf(hal_backend_names + len, sizeof(hal_backend_names) - len,
             "%s%s", len > 0 ? ", " : "", ops->name);
    return RCK_OK;
}

const rck_hal_ops_t *rck_hal_backend_find(const char *name)
{
    for (int i = 0; i < hal_nbackends; i++) {
        if (!strcmp(hal_backends[i]->name, name))
            return hal_backends[i];
    }
    return NULL;
}

const rck_hal_ops_t *rck_hal_backend_with(unsigned caps)
{
    for (int i = 0; i < hal_nbackends; i++) {
        if ((hal_backends[i]->caps & caps) == caps)
            return hal_backends[i];
    }
    return NULL;
}

unsigned rck_hal_caps(const rck_hal_t *hal)
{
    return hal != NULL && hal->ops != NULL ? hal->ops->caps : 0u;
}

const char *rck_hal_backend_names(void)
{
    return hal_backend_names;
}

const rck_hal_ops_t *rck_hal_backend_at(int i)
{
    return i >= 0 && i < hal_nbackends ? hal_backends[i] : NULL;
}

rck_status_t rck_hal_unsupported(void)
{
    return RCK_ERR_UNSUPPORTED;
}

/* This core's LUT window, from what the backend says it maps. A backend
 * that cannot leaves the reason for rck_hal_lut_addr. */
static void hal_lutwin_open(rck_hal_t *hal)
{
    rck_lutwin_params_t p;

    if (!rck_lutwin_enabled()) {
        hal->lutwin_none = "RCK_LUT_WINDOWS=off";
        return;
    }
    memset(&p, 0, sizeof(p));
    p.chip = &hal->chip;
    p.core = hal->core;
    p.dram_fd = -1;
    p.shm_fd = -1;
    p.mpb_fd = -1;
    if (hal->ops->lut_window(hal, &p) != RCK_OK) {
        if (hal->lutwin_none == NULL)
            hal->lutwin_none = "the backend could not say what it maps";
        return;
    }
    if (rck_lutwin_create(&p, &hal->lutwin) != RCK_OK) {
        hal->lutwin = NULL;
        hal->lutwin_none = "the window could not be made (see above)";
    }
}

/* The LUT window's fault handler hands a CRB slot's fault here. */
static int hal_crb_fault(void *hal, void *uc, int tile, uint32_t off,
                         const char **why)
{
    return rck__crb_fault(hal, uc, tile, off, why);
}

rck_status_t rck_hal_open(const char *backend, rck_hal_t **hal_out)
{
    const rck_hal_ops_t *ops;
    rck_hal_t *hal;
    rck_status_t st;

    if (hal_self != NULL) {
        *hal_out = hal_self;
        return RCK_OK;
    }
    if (backend == NULL)
        backend = rck_config_get("BACKEND");
    ops = rck_hal_backend_find(backend);
    if (ops == NULL) {
        rck_error("unknown backend '%s' (compiled in: %s)", backend,
                  rck_hal_backend_names());
        return RCK_ERR_CONFIG;
    }
    hal = calloc(1, sizeof(*hal));
    if (hal == NULL)
        return RCK_ERR_NOMEM;
    hal->ops = ops;
    st = ops->attach(hal);
    if (st == RCK_OK && (st = rck__hal_world_init(hal)) != RCK_OK)
        ops->detach(hal);
    if (st == RCK_OK && rck__monitor_attach(hal) != 0) {
        ops->detach(hal);
        free(hal->world);
        st = RCK_ERR_NOMEM;
    }
    if (st != RCK_OK) {
        free(hal);
        return st;
    }
    hal_self = hal;
    *hal_out = hal;
    hal_lutwin_open(hal);
    rck_crash_install(hal->core, hal->ue);
    rck_lutwin_fault_install(hal->lutwin, hal_crb_fault, hal);
    hal->ops->attach_end(hal);
    return RCK_OK;
}

void rck_hal_close(rck_hal_t *hal)
{
    if (hal == NULL)
        return;
    /* the libraries leave while the chip is still there */
    if (hal == hal_self)
        rck__lib_hal_down(hal);
    hal->ops->detach(hal);
    rck_lutwin_destroy(hal->lutwin);
    hal->lutwin = NULL;
    rck__monitor_detach(hal);
    free(hal->world);
    if (hal == hal_self)
        hal_self = NULL;
    free(hal);
}

rck_hal_t *rck_hal_self(void)
{
    return hal_self;
}

static rck_status_t hal_check_core(const rck_hal_t *hal, int core,
                                   const char *what)
{
    if (!rck_hal_core_valid(hal, core)) {
        rck_error("%s: core %d does not exist (the chip has %d cores)", what,
                  core, hal->chip.ncores);
        return RCK_ERR_INVALID;
    }
    return RCK_OK;
}

static rck_status_t hal_check_mpb(const rck_hal_t *hal, int core, uint32_t off,
                                  size_t len, const char *what)
{
    rck_status_t st = hal_check_core(hal, core, what);

    if (st != RCK_OK)
        return st;
    if ((size_t)off > hal->chip.mpb_bytes || len > hal->chip.mpb_bytes - off) {
        rck_error("%s: MPB range [%u, %u+%zu) is outside the %u-byte MPB",
                  what, off, off, len, hal->chip.mpb_bytes);
        return RCK_ERR_RANGE;
    }
    return RCK_OK;
}

rck_status_t rck_hal_mpb_map(rck_hal_t *hal, int core, void **base)
{
    rck_status_t st = hal_check_core(hal, core, "mpb_map");
    unsigned char *view;

    if (st != RCK_OK)
        return st;
    /* sequestered: pointers into other cores' MPBs fault (rck/lutwin.h) */
    view = rck_lutwin_mpb_view(hal->lutwin);
    if (view != NULL) {
        *base = view + (size_t)core * hal->chip.mpb_bytes;
        return RCK_OK;
    }
    return hal->ops->mpb_map(hal, core, base);
}

/* The usual case of hal_check_mpb in a few instructions (every message
 * passes here); hal_check_mpb names what is wrong. */
static inline int hal_mpb_ok(const rck_hal_t *hal, int core, uint32_t off,
                             size_t len)
{
    return (unsigned)core < (unsigned)hal->chip.ncores && len > 0 &&
           len <= hal->chip.mpb_bytes && off <= hal->chip.mpb_bytes - len;
}

rck_status_t rck_hal_mpb_write(rck_hal_t *hal, int core, uint32_t off,
                               const void *src, size_t len)
{
    if (hal_mpb_ok(hal, core, off, len))
        return hal->ops->mpb_write(hal, core, off, src, len);
    return hal_check_mpb(hal, core, off, len, "mpb_write");
}

rck_status_t rck_hal_mpb_read(rck_hal_t *hal, int core, uint32_t off,
                              void *dst, size_t len)
{
    if (hal_mpb_ok(hal, core, off, len))
        return hal->ops->mpb_read(hal, core, off, dst, len);
    return hal_check_mpb(hal, core, off, len, "mpb_read");
}

rck_status_t rck_hal_mpb_copy(rck_hal_t *hal, int dst_core, uint32_t dst_off,
                              int src_core, uint32_t src_off, size_t len)
{
    rck_status_t st = hal_check_mpb(hal, dst_core, dst_off, len, "mpb_copy");
    if (st == RCK_OK)
        st = hal_check_mpb(hal, src_core, src_off, len, "mpb_copy");
    if (st != RCK_OK || len == 0)
        return st;
    return hal->ops->mpb_copy(hal, dst_core, dst_off, src_core, src_off, len);
}

static __attribute__((cold, noinline)) rck_status_t
hal_word_error(const rck_hal_t *hal, int core, uint32_t off, const char *what)
{
    rck_status_t st = hal_check_mpb(hal, core, off, 4, what);
    if (st == RCK_OK && (off & 3) != 0) {
        rck_error("%s: MPB offset %u is not 4-byte aligned", what, off);
        st = RCK_ERR_ALIGN;
    }
    return st;
}

/* The usual case in a few instructions, inline (every flag access, and the
 * MPI library's polls pass one condition per process); hal_word_error
 * names what is wrong. */
static inline rck_status_t hal_check_word(const rck_hal_t *hal, int core,
                                          uint32_t off, const char *what)
{
    if ((unsigned)core < (unsigned)hal->chip.ncores &&
        off <= hal->chip.mpb_bytes - 4 && (off & 3) == 0)
        return RCK_OK;
    return hal_word_error(hal, core, off, what);
}

rck_status_t rck_hal_mpb_store32(rck_hal_t *hal, int core, uint32_t off,
                                 uint32_t value)
{
    rck_status_t st = hal_check_word(hal, core, off, "mpb_store32");
    if (st != RCK_OK)
        return st;
    return hal->ops->mpb_store32(hal, core, off, value);
}

rck_status_t rck_hal_mpb_load32(rck_hal_t *hal, int core, uint32_t off,
                                uint32_t *value)
{
    rck_status_t st = hal_check_word(hal, core, off, "mpb_load32");
    if (st != RCK_OK)
        return st;
    return hal->ops->mpb_load32(hal, core, off, value);
}

void rck_hal_cl1invmb(rck_hal_t *hal)
{
    hal->ops->cl1invmb(hal);
}

void rck_hal_mpb_prefetch(rck_hal_t *hal, int core, uint32_t off, size_t len)
{
    if (hal_mpb_ok(hal, core, off, len))
        hal->ops->mpb_prefetch(hal, core, off, len);
}

void rck_hal_wcb_flush(rck_hal_t *hal)
{
    hal->ops->wcb_flush(hal);
}

rck_status_t rck_hal_mpb_write_flag(rck_hal_t *hal, int core, uint32_t off,
                                    const void *src, size_t len,
                                    uint32_t flag_off, uint32_t flag)
{
    rck_status_t st;

    if (!hal_mpb_ok(hal, core, off, len)) {
        st = hal_check_mpb(hal, core, off, len, "mpb_write_flag");
        if (st != RCK_OK)
            return st;
    }
    st = hal_check_word(hal, core, flag_off, "mpb_write_flag");
    if (st != RCK_OK)
        return st;
    return hal->ops->mpb_write_flag(hal, core, off, src, len, flag_off, flag);
}

rck_status_t rck_hal_tas_try(rck_hal_t *hal, int core, int *acquired)
{
    rck_status_t st = hal_check_core(hal, core, "tas_try");
    if (st != RCK_OK)
        return st;
    return hal->ops->tas_try(hal, core, acquired);
}

rck_status_t rck_hal_tas_acquire(rck_hal_t *hal, int core)
{
    rck_status_t st = hal_check_core(hal, core, "tas_acquire");
    int got = 0;

    if (st != RCK_OK)
        return st;
    for (;;) {
        rck_hal_cond_t free_cond = {.space = RCK_SPACE_TAS,
                                    .core = core,
                                    .mask = 1,
                                    .value = 0,
                                    .op = RCK_COND_EQ};
        int which;

        st = hal->ops->tas_try(hal, core, &got);
        if (st != RCK_OK || got)
            return st;
        st = hal->ops->wait(hal, &free_cond, 1, 0, -1, &which);
        if (st != RCK_OK)
            return st;
    }
}

rck_status_t rck_hal_tas_release(rck_hal_t *hal, int core)
{
    rck_status_t st = hal_check_core(hal, core, "tas_release");
    if (st != RCK_OK)
        return st;
    return hal->ops->tas_release(hal, core);
}

rck_status_t rck_hal_irq_raise(rck_hal_t *hal, int core, rck_irq_kind_t kind)
{
    rck_status_t st = hal_check_core(hal, core, "irq_raise");
    if (st != RCK_OK)
        return st;
    if (kind != RCK_IRQ_PIN && kind != RCK_IRQ_GIC) {
        rck_error("irq_raise: unknown interrupt kind %d", (int)kind);
        return RCK_ERR_INVALID;
    }
    return hal->ops->irq_raise(hal, core, kind);
}

void rck_hal_irq_set_handler(rck_hal_t *hal, rck_hal_irq_handler_t handler,
                             void *arg)
{
    hal->irq_handler = handler;
    hal->irq_arg = arg;
}

rck_status_t rck_hal_irq_poll(rck_hal_t *hal, int *count)
{
    int dummy;
    return hal->ops->irq_poll(hal, count != NULL ? count : &dummy);
}

rck_status_t rck_hal_wait(rck_hal_t *hal, const rck_hal_cond_t *conds, int n,
                          unsigned flags, int64_t timeout_ns, int *which)
{
    int dummy;

    if (n < 0 || (n > 0 && conds == NULL) ||
        (n == 0 && !(flags & RCK_WAIT_IRQ) && timeout_ns < 0)) {
        rck_error("wait: %d conditions and no interrupt or timeout to wait "
                  "for",
                  n);
        return RCK_ERR_INVALID;
    }
    for (int i = 0; i < n; i++) {
        rck_status_t st = RCK_OK;
        if (conds[i].space == RCK_SPACE_MPB)
            st = hal_check_word(hal, conds[i].core, conds[i].offset, "wait");
        else if (conds[i].space == RCK_SPACE_TAS)
            st = hal_check_core(hal, conds[i].core, "wait");
        else if (conds[i].space != RCK_SPACE_SHM || (conds[i].offset & 3))
            st = RCK_ERR_INVALID;
        if (st != RCK_OK)
            return st;
    }
    return hal->ops->wait(hal, conds, n, flags, timeout_ns,
                          which != NULL ? which : &dummy);
}

rck_status_t rck_hal_wait_mpb_eq(rck_hal_t *hal, int core, uint32_t off,
                                 uint32_t mask, uint32_t value,
                                 int64_t timeout_ns)
{
    rck_hal_cond_t c = {.space = RCK_SPACE_MPB,
                        .core = core,
                        .offset = off,
                        .mask = mask,
                        .value = value,
                        .op = RCK_COND_EQ};
    return rck_hal_wait(hal, &c, 1, 0, timeout_ns, NULL);
}

rck_status_t rck_hal_gtsc_read(rck_hal_t *hal, uint64_t *ticks)
{
    return hal->ops->gtsc_read(hal, ticks);
}

static rck_status_t hal_check_ctr(const rck_hal_t *hal, int ctr)
{
    if (ctr < 0 || ctr >= hal->chip.atomic_counters) {
        rck_error("atomic counter %d does not exist (the chip has %d)", ctr,
                  hal->chip.atomic_counters);
        return RCK_ERR_INVALID;
    }
    return RCK_OK;
}

rck_status_t rck_hal_atomic_inc(rck_hal_t *hal, int ctr, int32_t *old)
{
    rck_status_t st = hal_check_ctr(hal, ctr);
    int32_t dummy;
    if (st != RCK_OK)
        return st;
    return hal->ops->atomic_inc(hal, ctr, old != NULL ? old : &dummy);
}

rck_status_t rck_hal_atomic_read(rck_hal_t *hal, int ctr, int32_t *value)
{
    rck_status_t st = hal_check_ctr(hal, ctr);
    if (st != RCK_OK)
        return st;
    return hal->ops->atomic_read(hal, ctr, value);
}

rck_status_t rck_hal_atomic_write(rck_hal_t *hal, int ctr, int32_t value)
{
    rck_status_t st = hal_check_ctr(hal, ctr);
    if (st != RCK_OK)
        return st;
    return hal->ops->atomic_write(hal, ctr, value);
}

static rck_status_t hal_check_lut(const rck_hal_t *hal, int core, int idx)
{
    rck_status_t st = hal_check_core(hal, core, "lut");
    if (st == RCK_OK && (idx < 0 || idx > 255)) {
        rck_error("LUT entry %d does not exist (0..255)", idx);
        st = RCK_ERR_INVALID;
    }
    return st;
}

rck_status_t rck_hal_lut_read(rck_hal_t *hal, int core, int idx,
                              uint32_t *entry)
{
    rck_status_t st = hal_check_lut(hal, core, idx);
    if (st != RCK_OK)
        return st;
    if (hal->lutwin != NULL)
        rck_lutwin_sync(hal->lutwin);
    return hal->ops->lut_read(hal, core, idx, entry);
}

rck_status_t rck_hal_lut_write(rck_hal_t *hal, int core, int idx,
                               uint32_t entry)
{
    rck_status_t st = hal_check_lut(hal, core, idx);
    rck_lut_target_t t;
    const char *why;

    if (st != RCK_OK)
        return st;
    if (rck_lut_decode(&hal->chip, SIZE_MAX, entry, &t, &why) != 0) {
        rck_error("lut_write: entry 0x%x for slot 0x%02x of core %d: %s",
                  entry, idx, core, why);
        return RCK_ERR_INVALID;
    }
    if (rck_lutwin_sequestered()) {
        char whose[128];
        int z = core % hal->chip.cores_per_tile;
        uint64_t reg = ((uint64_t)RCK_LUT_SLOT_CRB +
                        (uint64_t)rck_chip_tile(&hal->chip, core))
                           << 24 |
                       (uint64_t)((z ? 0x1000 : 0x800) + 8 * idx);
        snprintf(whose, sizeof(whose),
                 "LUT entry 0x%02x of core %d (%s; value 0x%x): sequestered",
                 idx, core,
                 core == hal->core ? "its own LUT" : "another core's LUT",
                 entry);
        rck_lutwin_stop(hal->core, "write of a LUT entry", reg, whose);
    }
    st = hal->ops->lut_write(hal, core, idx, entry);
    if (st == RCK_OK && core == hal->core && hal->lutwin != NULL)
        rck_lutwin_sync(hal->lutwin);
    return st;
}

void *rck_hal_lut_addr(rck_hal_t *hal, int idx)
{
    if (idx < 0 || idx >= RCK_LUT_ENTRIES) {
        rck_error("lut_addr: LUT slot %d does not exist (0..255)", idx);
        return NULL;
    }
    if (hal->lutwin == NULL) {
        rck_error("lut_addr: the %s backend gives this core no LUT window: "
                  "%s (docs/LUT.md)",
                  hal->ops->name,
                  hal->lutwin_none != NULL ? hal->lutwin_none : "unknown");
        return NULL;
    }
    rck_lutwin_sync(hal->lutwin);
    return rck_lutwin_addr(hal->lutwin, idx);
}

rck_status_t rck_hal_shm_map(rck_hal_t *hal, void **base, size_t *len)
{
    return hal->ops->shm_map(hal, base, len);
}

rck_status_t rck_hal_shm_flush(rck_hal_t *hal)
{
    return hal->ops->shm_flush(hal);
}

rck_status_t rck_hal_dcache_flush(rck_hal_t *hal)
{
    return hal->ops->dcache_flush(hal);
}

static rck_status_t hal_check_shm(rck_hal_t *hal, size_t off, size_t len,
                                  const char *what)
{
    void *base;
    size_t size;
    rck_status_t st = hal->ops->shm_map(hal, &base, &size);

    if (st != RCK_OK)
        return st;
    if (off > size || len > size - off) {
        rck_error("%s: range [%zu, %zu+%zu) is outside the %zu-byte shared "
                  "window",
                  what, off, off, len, size);
        return RCK_ERR_RANGE;
    }
    return RCK_OK;
}

rck_status_t rck_hal_shm_set_map(rck_hal_t *hal, size_t off, size_t len,
                                 rck_map_t type, int mc)
{
    rck_status_t st = hal_check_shm(hal, off, len, "shm_set_map");

    if (st != RCK_OK)
        return st;
    if (type != RCK_MAP_UNCACHED && type != RCK_MAP_MPBT &&
        type != RCK_MAP_CACHED) {
        rck_error("shm_set_map: unknown mapping type %d", (int)type);
        return RCK_ERR_INVALID;
    }
    if (mc != RCK_MC_INTERLEAVE && (mc < 0 || mc >= hal->chip.nmc)) {
        rck_error("shm_set_map: memory controller %d does not exist (0..%d)",
                  mc, hal->chip.nmc - 1);
        return RCK_ERR_INVALID;
    }
    return hal->ops->shm_set_map(hal, off, len, type, mc);
}

rck_status_t rck_hal_shm_write(rck_hal_t *hal, size_t off, const void *src,
                               size_t len)
{
    rck_status_t st = hal_check_shm(hal, off, len, "shm_write");
    if (st != RCK_OK || len == 0)
        return st;
    return hal->ops->shm_write(hal, off, src, len);
}

rck_status_t rck_hal_shm_read(rck_hal_t *hal, size_t off, void *dst,
                              size_t len)
{
    rck_status_t st = hal_check_shm(hal, off, len, "shm_read");
    if (st != RCK_OK || len == 0)
        return st;
    return hal->ops->shm_read(hal, off, dst, len);
}

rck_status_t rck_hal_shm_touch(rck_hal_t *hal, size_t off, size_t len,
                               int write)
{
    rck_status_t st = hal_check_shm(hal, off, len, "shm_touch");

    if (st != RCK_OK)
        return st;
    return hal->ops->shm_touch(hal, off, len, write != 0);
}

void rck_hal_syscall(rck_hal_t *hal, void (*fn)(void *arg), void *arg)
{
    if (fn != NULL)
        hal->ops->syscall(hal, fn, arg);
}

void rck_hal_trap(rck_hal_t *hal, uint64_t host_ns)
{
    hal->ops->trap(hal, host_ns);
}

/* The chip's rule: a tile's divider needs at least its DVFS table voltage
 * on the tile's island (a real chip would crash, so the HAL refuses). */
rck_status_t rck_hal_freq_set(rck_hal_t *hal, int core, int fdiv)
{
    rck_status_t st = hal_check_core(hal, core, "freq_set");
    int need = rck_chip_fdiv_need_mv(&hal->chip, fdiv), mv = 0;
    int island;

    if (st != RCK_OK)
        return st;
    if (need < 0) {
        rck_error("freq_set: frequency divider %d is not in the chip's DVFS "
                  "table",
                  fdiv);
        return RCK_ERR_INVALID;
    }
    island = rck_chip_island(&hal->chip, core);
    st = hal->ops->volt_get(hal, island, &mv);
    if (st != RCK_OK)
        return st;
    if (mv < need) {
        rck_error("freq_set: divider %d (%.0f MHz) needs %d mV; voltage "
                  "island %d is at %d mV",
                  fdiv, rck_chip_fdiv_mhz(&hal->chip, fdiv), need, island,
                  mv);
        return RCK_ERR_INVALID;
    }
    return hal->ops->freq_set(hal, core, fdiv);
}

rck_status_t rck_hal_freq_get(rck_hal_t *hal, int core, int *fdiv)
{
    rck_status_t st = hal_check_core(hal, core, "freq_get");
    if (st != RCK_OK)
        return st;
    return hal->ops->freq_get(hal, core, fdiv);
}

static rck_status_t hal_check_island(rck_hal_t *hal, int island,
                                     const char *op)
{
    if (island < 0 || island >= hal->chip.nislands) {
        rck_error("%s: voltage island %d does not exist", op, island);
        return RCK_ERR_INVALID;
    }
    return RCK_OK;
}

/* A voltage must lie in the regulator's range and sustain the divider of
 * every tile of the island (lower the dividers first). */
rck_status_t rck_hal_volt_set(rck_hal_t *hal, int island, int millivolts)
{
    const rck_chip_t *c = &hal->chip;
    rck_status_t st = hal_check_island(hal, island, "volt_set");
    int mv = rck_chip_volt_step(c, millivolts);

    if (st != RCK_OK)
        return st;
    if (mv < 0) {
        rck_error("volt_set: %d mV is outside the chip's range %.0f..%.0f mV",
                  millivolts, c->volts_min * 1000.0, c->volts_max * 1000.0);
        return RCK_ERR_INVALID;
    }
    for (int core = 0; core < c->ncores; core += c->cores_per_tile) {
        int fdiv = 0, need;
        if (rck_chip_island(c, core) != island)
            continue;
        st = hal->ops->freq_get(hal, core, &fdiv);
        if (st != RCK_OK)
            return st;
        need = rck_chip_fdiv_need_mv(c, fdiv);
        if (mv < need) {
            rck_error("volt_set: %d mV cannot sustain divider %d of tile %d "
                      "(it needs %d mV): lower the frequency first",
                      mv, fdiv, rck_chip_tile(c, core), need);
            return RCK_ERR_INVALID;
        }
    }
    return hal->ops->volt_set(hal, island, mv);
}

rck_status_t rck_hal_volt_get(rck_hal_t *hal, int island, int *millivolts)
{
    rck_status_t st = hal_check_island(hal, island, "volt_get");
    if (st != RCK_OK)
        return st;
    return hal->ops->volt_get(hal, island, millivolts);
}

rck_status_t rck_hal_volt_wait(rck_hal_t *hal, int island)
{
    rck_status_t st = hal_check_island(hal, island, "volt_wait");
    if (st != RCK_OK)
        return st;
    return hal->ops->volt_wait(hal, island);
}

rck_status_t rck_hal_power_read(rck_hal_t *hal, double *watts)
{
    if (watts == NULL) {
        rck_error("power_read: no place for the result");
        return RCK_ERR_INVALID;
    }
    return hal->ops->power_read(hal, watts);
}

rck_status_t rck_hal_cycles(rck_hal_t *hal, uint64_t *cycles)
{
    return hal->ops->cycles(hal, cycles);
}

rck_status_t rck_hal_wtime(rck_hal_t *hal, double *seconds)
{
    return hal->ops->wtime(hal, seconds);
}

rck_status_t rck_hal_perfctr_read(rck_hal_t *hal, int idx, uint64_t *value)
{
    if (idx < 0 || idx > 1) {
        rck_error("perfctr_read: counter %d does not exist (0 or 1)", idx);
        return RCK_ERR_INVALID;
    }
    return hal->ops->perfctr_read(hal, idx, value);
}

rck_status_t rck_hal_console_write(rck_hal_t *hal, const char *buf,
                                   size_t len)
{
    return hal->ops->console_write(hal, buf, len);
}

void rck_hal_set_context(rck_hal_t *hal, const char *call, int peer)
{
    hal->ops->set_context(hal, call, peer);
    rck__monitor_context(hal, call);
}

void rck_hal_set_message(rck_hal_t *hal, long long bytes, int tag, int comm)
{
    hal->ops->set_message(hal, bytes, tag, comm);
}

/* ---- library reservations ---- */

static rck_status_t reserve_check(rck_hal_t *hal, const char *what)
{
    if (hal->reserve_owner != NULL) {
        rck_error("%s: %s already laid out the MPB and the shared window; "
                  "initialise this library before %s",
                  what, hal->reserve_owner, hal->reserve_owner);
        return RCK_ERR_BUSY;
    }
    return RCK_OK;
}

/* Index of library @p lib in mpb_held / shm_held. */
static int held_slot(int lib)
{
    return lib >= 0 && lib < RCK_LIB_MAX ? lib : RCK_LIB_MAX;
}

static const char *held_name(int slot)
{
    return slot < RCK_LIB_MAX ? rck_lib_name(slot) : "other libraries";
}

void rck_hal_reserve_holders(const rck_hal_t *hal, int mpb, char *buf,
                             size_t len)
{
    size_t at = 0;

    if (len == 0)
        return;
    buf[0] = '\0';
    for (int s = 0; s <= RCK_LIB_MAX; s++) {
        size_t n = mpb ? hal->mpb_held[s] : hal->shm_held[s];
        int w;
        if (n == 0 || at >= len)
            continue;
        w = snprintf(buf + at, len - at, "%s%s %zu", at ? ", " : "",
                     held_name(s), n);
        at += w > 0 ? (size_t)w : 0;
    }
    if (at == 0)
        snprintf(buf, len, "nothing reserved");
    else if (at < len)
        snprintf(buf + at, len - at, " bytes");
}

rck_status_t rck_hal_mpb_reserve(rck_hal_t *hal, int lib, uint32_t bytes,
                                 uint32_t *off)
{
    uint32_t line = hal->chip.line_bytes, top;
    rck_status_t st = reserve_check(hal, "rck_hal_mpb_reserve");

    if (st != RCK_OK)
        return st;
    if (bytes == 0 || off == NULL) {
        rck_error("rck_hal_mpb_reserve: %s", off == NULL ? "NULL offset"
                                                         : "zero bytes");
        return RCK_ERR_INVALID;
    }
    bytes = (bytes + line - 1) / line * line;
    top = hal->chip.mpb_bytes - hal->mpb_reserved;
    /* keep at least one line for the rest of the MPB */
    if (bytes >= top) {
        char held[160];
        rck_hal_reserve_holders(hal, 1, held, sizeof(held));
        rck_error("rck_hal_mpb_reserve: %s asks for %u bytes of every MPB; "
                  "%u of the %u-byte MPB are still free (held: %s) and "
                  "one line must stay for the rest: these libraries do "
                  "not fit together in this layout",
                  held_name(held_slot(lib)), bytes, top, hal->chip.mpb_bytes,
                  held);
        return RCK_ERR_NOSPACE;
    }
    hal->mpb_reserved += bytes;
    hal->mpb_held[held_slot(lib)] += bytes;
    *off = top - bytes;
    return RCK_OK;
}

rck_status_t rck_hal_shm_reserve(rck_hal_t *hal, int lib, size_t bytes,
                                 size_t align, size_t *off)
{
    void *base;
    size_t len, top, start;
    rck_status_t st = reserve_check(hal, "rck_hal_shm_reserve");

    if (st != RCK_OK)
        return st;
    if (bytes == 0 || off == NULL || align == 0 || (align & (align - 1))) {
        rck_error("rck_hal_shm_reserve: bad arguments (bytes %zu, align "
                  "%zu)",
                  bytes, align);
        return RCK_ERR_INVALID;
    }
    st = hal->ops->shm_map(hal, &base, &len);
    if (st != RCK_OK)
        return st;
    top = len - hal->shm_reserved;
    if (bytes > top) {
        char held[160];
        rck_hal_reserve_holders(hal, 0, held, sizeof(held));
        rck_error("rck_hal_shm_reserve: %s asks for %zu bytes of the shared "
                  "window; %zu are still free (held: %s; RCK_SHM_SIZE)",
                  held_name(held_slot(lib)), bytes, top, held);
        return RCK_ERR_NOSPACE;
    }
    start = (top - bytes) & ~(align - 1);
    hal->shm_held[held_slot(lib)] += len - start - hal->shm_reserved;
    hal->shm_reserved = len - start;
    *off = start;
    return RCK_OK;
}

void rck_hal_reserve_freeze(rck_hal_t *hal, const char *owner)
{
    if (hal->reserve_owner == NULL)
        hal->reserve_owner = owner;
}
