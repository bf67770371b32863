/*
 * LUT windows and the protection of sequestered cores (rck/lutwin.h,
 * docs/LUT.md).
 *
 * Owns: the window's mappings, the SIGSEGV handler of window faults.
 * May call: the LUT format (lut.c), the settings, the logger; never the
 * HAL's entry points (hal.c, crb*.c: they call this): a CRB fault goes to
 * the function the HAL installed (rck_lutwin_fault_install).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* REG_ERR */
#endif
#include "rck/lutwin.h"
#include "rck/crb.h"
#include "rck/config.h"
#include "rck/lib.h"
#include "rck/log.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#define WIN_BYTES ((size_t)RCK_LUT_ENTRIES * RCK_LUT_PAGE_BYTES)
#define DRAM_PAGES_PER_MC 1024u

static const rck_config_entry_t lutwin_settings[] = {
    {"LUT_WINDOWS", "on", RCK_CONFIG_BOOL,
     "native, sim, mpi on one node: give each core a 4 GiB window where LUT "
     "slot i shows the 16 MiB page its LUT entry i names "
     "(rck_hal_lut_addr; docs/LUT.md)",
     "on|off"},
    {"SEQUESTER", "off", RCK_CONFIG_BOOL,
     "native, sim, mpi on one node: each core may touch only its own "
     "private pages, its own MPB and the shared pages; LUT writes and "
     "configuration-register writes other than TAS and interrupts stop the "
     "core (exit status 5; docs/LUT.md); rck run --sequester",
     "on|off"},
    {NULL, NULL, RCK_CONFIG_STRING, NULL, NULL}};

__attribute__((constructor)) static void lutwin_settings_register(void)
{
    rck_config_register(lutwin_settings, RCK_HAL_CONFIG_RANK + 1);
}

struct rck_lutwin {
    rck_lutwin_params_t p;
    rck_chip_t chip;
    unsigned char *base;
    int sequester;
    uint32_t mapped[RCK_LUT_ENTRIES];
    rck_lut_target_t target[RCK_LUT_ENTRIES];
    unsigned char *view;   /* sequestered: the MPBs for mpb_map, only the
                            * core's own mapped; NULL otherwise */
    size_t view_bytes;
    struct sigaction old_segv;
    int installed;
    rck_lutwin_crb_fn crb;  /* a fault in a CRB slot (the HAL's) */
    void *crb_arg;
};

static rck_lutwin_t *win_self; /* for the fault handler */

int rck_lutwin_enabled(void)
{
    return rck_config_get_bool("LUT_WINDOWS");
}

int rck_lutwin_sequestered(void)
{
    return rck_config_get_bool("SEQUESTER");
}

rck_status_t rck_lutwin_dram_create(const rck_chip_t *chip, int *fd_out)
{
    int fd = (int)syscall(SYS_memfd_create, "rockcreek-dram", 1u);
    off_t bytes = (off_t)chip->nmc * DRAM_PAGES_PER_MC *
                  (off_t)RCK_LUT_PAGE_BYTES;

    if (fd < 0) {
        rck_error("LUT windows: memfd_create failed: %s", strerror(errno));
        return RCK_ERR_IO;
    }
    if (ftruncate(fd, bytes) != 0) {
        rck_error("LUT windows: cannot size the private-DRAM segment "
                  "(%lld bytes, sparse): %s (RCK_LUT_WINDOWS=off turns the "
                  "windows off)",
                  (long long)bytes, strerror(errno));
        close(fd);
        return RCK_ERR_NOMEM;
    }
    *fd_out = fd;
    return RCK_OK;
}

rck_status_t rck_lutwin_child_env(int fd)
{
    char buf[32];
    int flags;

    if (fd < 0)
        return RCK_OK;
    flags = fcntl(fd, F_GETFD);
    if (flags < 0 || fcntl(fd, F_SETFD, flags & ~FD_CLOEXEC) < 0)
        return RCK_ERR_IO;
    snprintf(buf, sizeof(buf), "%d", fd);
    return setenv("RCK_LUT_DRAM_FD", buf, 1) == 0 ? RCK_OK : RCK_ERR_IO;
}

int rck_lutwin_dram_fd(void)
{
    const char *s = getenv("RCK_LUT_DRAM_FD");

    return s != NULL && *s != '\0' ? atoi(s) : -1;
}

/* The byte range of the backing a DRAM or shared slot shows from its
 * start: *len 0 = nothing mapped (MPBs: slot_map_mpb). */
static void slot_backing(const rck_lutwin_t *w, const rck_lut_target_t *t,
                         int *fd, uint64_t *off, size_t *len)
{
    *fd = -1;
    *off = 0;
    *len = 0;
    switch (t->kind) {
    case RCK_LUT_DRAM:
        if (w->p.dram_fd < 0 || (w->sequester && t->owner != w->p.core))
            return;
        *fd = w->p.dram_fd;
        *off = ((uint64_t)t->mc * DRAM_PAGES_PER_MC + t->page) *
               RCK_LUT_PAGE_BYTES;
        *len = RCK_LUT_PAGE_BYTES;
        return;
    case RCK_LUT_SHARED: {
        size_t from = (size_t)t->page * RCK_LUT_PAGE_BYTES;
        size_t n = w->p.shm_bytes - from;
        *fd = w->p.shm_fd;
        *off = w->p.shm_off + from;
        *len = n < RCK_LUT_PAGE_BYTES ? n : RCK_LUT_PAGE_BYTES;
        return;
    }
    default:
        return; /* CRBs and the rest: registers, not memory */
    }
}

/* The MPBs of tile @p tile, one core's after the other as on the chip;
 * only the core's own when it is sequestered, none that the backend
 * cannot map page by page. */
static void slot_map_mpb(rck_lutwin_t *w, unsigned char *slot, int tile)
{
    const rck_chip_t *c = &w->chip;
    long pg = sysconf(_SC_PAGESIZE);

    if (w->p.mpb_of == NULL || c->mpb_bytes % (uint32_t)pg != 0)
        return;
    for (int z = 0; z < c->cores_per_tile; z++) {
        int core = tile * c->cores_per_tile + z;
        uint64_t off = w->p.mpb_of(w->p.lut_arg, core);
        if (core >= c->ncores || off == UINT64_MAX || off % (uint64_t)pg)
            continue;
        if (w->sequester && core != w->p.core)
            continue;
        if (mmap(slot + (size_t)z * c->mpb_bytes, c->mpb_bytes,
                 PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, w->p.mpb_fd,
                 (off_t)off) == MAP_FAILED)
            rck_error("LUT window: cannot map the MPB of core %d: %s", core,
                      strerror(errno));
    }
}

static void slot_map(rck_lutwin_t *w, int i, uint32_t entry)
{
    unsigned char *slot = w->base + (size_t)i * RCK_LUT_PAGE_BYTES;
    rck_lut_target_t t;
    const char *why = NULL;
    int fd;
    uint64_t off;
    size_t len;

    if (rck_lut_decode(&w->chip, w->p.shm_bytes, entry, &t, &why) != 0) {
        t.kind = RCK_LUT_NONE;
        t.tile = t.mc = t.owner = -1;
    }
    w->target[i] = t;
    w->mapped[i] = entry;
    if (w->p.on_map != NULL)
        w->p.on_map(w->p.lut_arg, i, &t, w->base);
    slot_backing(w, &t, &fd, &off, &len);
    if (mmap(slot, RCK_LUT_PAGE_BYTES, PROT_NONE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1,
             0) == MAP_FAILED)
        rck_error("LUT window: cannot clear slot 0x%02x: %s", i,
                  strerror(errno));
    if (t.kind == RCK_LUT_MPB) {
        slot_map_mpb(w, slot, t.tile);
        return;
    }
    if (len == 0)
        return;
    if (mmap(slot, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
             fd, (off_t)off) == MAP_FAILED)
        rck_error("LUT window: cannot map slot 0x%02x (entry 0x%06x): %s", i,
                  entry, strerror(errno));
}

/* A sequestered core's view of the MPBs for pointers (mpb_map): every
 * core's MPB at its place, only its own backed; the HAL's own MPB calls
 * keep the backend's mapping. */
static void view_create(rck_lutwin_t *w)
{
    const rck_chip_t *c = &w->chip;
    size_t bytes = (size_t)c->ncores * c->mpb_bytes;
    uint64_t off = w->p.mpb_of != NULL ? w->p.mpb_of(w->p.lut_arg, w->p.core)
                                       : UINT64_MAX;
    long pg = sysconf(_SC_PAGESIZE);
    void *v;

    if (off == UINT64_MAX || off % (uint64_t)pg || c->mpb_bytes % (uint32_t)pg)
        return;
    v = mmap(NULL, bytes, PROT_NONE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (v == MAP_FAILED)
        return;
    if (mmap((unsigned char *)v + (size_t)w->p.core * c->mpb_bytes,
             c->mpb_bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
             w->p.mpb_fd, (off_t)off) == MAP_FAILED) {
        munmap(v, bytes);
        return;
    }
    w->view = v;
    w->view_bytes = bytes;
}

rck_status_t rck_lutwin_create(const rck_lutwin_params_t *p,
                               rck_lutwin_t **out)
{
    rck_lutwin_t *w = calloc(1, sizeof(*w));
    void *base;

    if (w == NULL)
        return RCK_ERR_NOMEM;
    w->p = *p;
    w->chip = *p->chip;
    w->p.chip = &w->chip;
    w->sequester = rck_lutwin_sequestered();
    base = mmap(NULL, WIN_BYTES, PROT_NONE,
                MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED) {
        rck_error("LUT windows: cannot reserve %zu bytes of address space: "
                  "%s (RCK_LUT_WINDOWS=off)",
                  WIN_BYTES, strerror(errno));
        free(w);
        return RCK_ERR_NOMEM;
    }
    w->base = base;
    for (int i = 0; i < RCK_LUT_ENTRIES; i++)
        slot_map(w, i, p->lut_get(p->lut_arg, i));
    if (w->sequester)
        view_create(w);
    *out = w;
    return RCK_OK;
}

void *rck_lutwin_mpb_view(rck_lutwin_t *w)
{
    return w != NULL ? w->view : NULL;
}

void rck_lutwin_destroy(rck_lutwin_t *w)
{
    if (w == NULL)
        return;
    if (w->installed)
        sigaction(SIGSEGV, &w->old_segv, NULL);
    if (win_self == w)
        win_self = NULL;
    munmap(w->base, WIN_BYTES);
    if (w->view != NULL)
        munmap(w->view, w->view_bytes);
    free(w);
}

void rck_lutwin_sync(rck_lutwin_t *w)
{
    for (int i = 0; i < RCK_LUT_ENTRIES; i++) {
        uint32_t e = w->p.lut_get(w->p.lut_arg, i);
        if (e != w->mapped[i])
            slot_map(w, i, e);
    }
}

void *rck_lutwin_addr(rck_lutwin_t *w, int idx)
{
    return w->base + (size_t)idx * RCK_LUT_PAGE_BYTES;
}

/* ---- protection faults (async-signal-safe from here) ---- */

typedef struct {
    char b[512];
    size_t n;
} sbuf_t;

static void put_s(sbuf_t *s, const char *t)
{
    while (*t != '\0' && s->n < sizeof(s->b) - 1)
        s->b[s->n++] = *t++;
}

static void put_u(sbuf_t *s, uint64_t v, int hex)
{
    char tmp[24];
    int k = 0;

    if (hex)
        put_s(s, "0x");
    do {
        tmp[k++] = "0123456789abcdef"[v % (hex ? 16 : 10)];
        v /= hex ? 16 : 10;
    } while (v != 0 && k < (int)sizeof(tmp));
    while (k > 0 && s->n < sizeof(s->b) - 1)
        s->b[s->n++] = tmp[--k];
}

void rck_lutwin_stop(int core, const char *what, uint64_t addr,
                     const char *whose)
{
    sbuf_t s = {.n = 0};
    ssize_t r;

    put_s(&s, "rockcreek core ");
    put_u(&s, (uint64_t)core, 0);
    put_s(&s, ": error: protection fault: ");
    put_s(&s, what);
    put_s(&s, " at ");
    put_u(&s, addr, 1);
    put_s(&s, ", ");
    put_s(&s, whose);
    put_s(&s, "; core stopped (exit status 5, docs/LUT.md)\n");
    r = write(2, s.b, s.n);
    (void)r;
    _exit(RCK_HAL_EXIT_PROTECTION);
}

/* "whose resource" of an access at @p in bytes into slot @p i. */
static void describe(const rck_lutwin_t *w, int i, size_t in, sbuf_t *s)
{
    const rck_lut_target_t *t = &w->target[i];
    const rck_chip_t *c = &w->chip;

    put_s(s, "LUT slot ");
    put_u(s, (uint64_t)i, 1);
    put_s(s, " (entry ");
    put_u(s, w->mapped[i], 1);
    put_s(s, "): ");
    switch (t->kind) {
    case RCK_LUT_DRAM:
        if (t->owner >= 0) {
            put_s(s, "private memory of core ");
            put_u(s, (uint64_t)t->owner, 0);
        } else {
            put_s(s, "a DRAM page no core owns");
        }
        put_s(s, " (controller ");
        put_u(s, (uint64_t)t->mc, 0);
        put_s(s, ", page ");
        put_u(s, t->page, 1);
        put_s(s, ")");
        return;
    case RCK_LUT_MPB:
        if (in >= (size_t)c->mpb_bytes * (size_t)c->cores_per_tile) {
            put_s(s, "beyond the MPB of tile ");
            put_u(s, (uint64_t)t->tile, 0);
            return;
        }
        put_s(s, "the MPB of core ");
        put_u(s, (uint64_t)(t->tile * c->cores_per_tile +
                            (int)(in / c->mpb_bytes)),
              0);
        return;
    case RCK_LUT_CRB:
        put_s(s, "the configuration registers of tile ");
        put_u(s, (uint64_t)t->tile, 0);
        return;
    case RCK_LUT_SHARED:
        put_s(s, "beyond the shared window");
        return;
    default:
        put_s(s, "nothing (no memory behind the entry)");
        return;
    }
}

static void lutwin_segv(int sig, siginfo_t *si, void *uc_)
{
    rck_lutwin_t *w = win_self;
    uintptr_t a = (uintptr_t)si->si_addr;
    ucontext_t *uc = uc_;
    sbuf_t s = {.n = 0};
    int i, write_access = 0;

#if defined(__x86_64__)
    write_access = (uc->uc_mcontext.gregs[REG_ERR] & 2) != 0;
#else
    (void)uc;
#endif
    if (w != NULL && w->view != NULL && a >= (uintptr_t)w->view &&
        a < (uintptr_t)w->view + w->view_bytes) {
        put_s(&s, "the MPB of core ");
        put_u(&s, (uint64_t)((a - (uintptr_t)w->view) / w->chip.mpb_bytes),
              0);
        put_s(&s, " through an MPB pointer (rck_hal_mpb_map), not this "
                  "core's (sequestered; the HAL's MPB calls are the way to "
                  "other MPBs)");
        s.b[s.n] = '\0';
        rck_lutwin_stop(w->p.core,
                        write_access ? "write through an MPB pointer"
                                     : "read through an MPB pointer",
                        (uint64_t)a, s.b);
    }
    if (w == NULL || a < (uintptr_t)w->base ||
        a >= (uintptr_t)w->base + WIN_BYTES) {
        struct sigaction *o = w != NULL ? &w->old_segv : NULL;
        if (o != NULL && (o->sa_flags & SA_SIGINFO) &&
            o->sa_sigaction != NULL) {
            o->sa_sigaction(sig, si, uc_);
            return;
        }
        if (o != NULL && o->sa_handler != SIG_DFL &&
            o->sa_handler != SIG_IGN) {
            o->sa_handler(sig);
            return;
        }
        signal(SIGSEGV, SIG_DFL);
        raise(SIGSEGV);
        return;
    }
    i = (int)((a - (uintptr_t)w->base) / RCK_LUT_PAGE_BYTES);
    if (w->p.lut_get(w->p.lut_arg, i) != w->mapped[i]) {
        /* another core rewrote this core's LUT: show it and retry */
        slot_map(w, i, w->p.lut_get(w->p.lut_arg, i));
        return;
    }
    if (w->target[i].kind == RCK_LUT_CRB && w->crb != NULL) {
        size_t in = a - (uintptr_t)w->base - (size_t)i * RCK_LUT_PAGE_BYTES;
        const char *why = "no register at this offset";
        if (in < RCK_CRB_END &&
            w->crb(w->crb_arg, uc_, w->target[i].tile, (uint32_t)in, &why) ==
                0)
            return;
        put_s(&s, why);
        put_s(&s, ": ");
    }
    describe(w, i, a - (uintptr_t)w->base - (size_t)i * RCK_LUT_PAGE_BYTES,
             &s);
    if (w->sequester)
        put_s(&s, ", not this core's (sequestered)");
    s.b[s.n] = '\0';
    rck_lutwin_stop(w->p.core,
                    write_access ? "write through the LUT window"
                                 : "read through the LUT window",
                    (uint64_t)a, s.b);
}

void rck_lutwin_fault_install(rck_lutwin_t *w, rck_lutwin_crb_fn crb,
                              void *crb_arg)
{
    struct sigaction sa;

    if (w == NULL || w->installed)
        return;
    w->crb = crb;
    w->crb_arg = crb_arg;
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = lutwin_segv;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGSEGV, &sa, &w->old_segv) == 0) {
        w->installed = 1;
        win_self = w;
    }
}
