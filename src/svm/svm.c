/*
 * rck_svm: shared virtual memory over the HAL (include/rck_svm.h,
 * docs/SVM.md). This file: set-up, blocks, the SIGSEGV handler, the
 * per-epoch cost model of the sim backend, barriers and locks. The
 * ownership protocol of SVM_STRONG is in svm_strong.c.
 */
#include "svm_internal.h"

#include "rck/config.h"
#include "rck/log.h"
#include "rck_mbox.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#define SVM_PAGE_MIN 4096u
#define SVM_DEFAULT_SIZE (24u << 20)

svm_t svm_state = {.acquiring = -1};

/* SVM's signal handlers realign the stack on entry. The x86-64 ABI gives a
 * handler the stack of a called function ((rsp + 8) % 16 == 0), and the
 * compiler relies on it (movaps to stack slots); QEMU 7.2's user mode
 * (qemu-x86_64, the p54c compute models) enters every x86-64 signal
 * handler with rsp % 16 == 0, so the first movaps in the handler or in
 * anything it calls (the mailbox's send) takes #GP, which QEMU turns into
 * a SIGSEGV the blocked handler cannot take: the core dies (docs/P54C.md,
 * "SVM under QEMU"). A few instructions per fault natively. */
#if defined(__x86_64__) || defined(__i386__)
#define SVM_SIGNAL_ENTRY __attribute__((force_align_arg_pointer))
#else
#define SVM_SIGNAL_ENTRY
#endif

/* SVM's settings (listed by `rck config --list`; svm_init reads
 * RCK_SVM_SIZE itself: its default depends on RCK_SHM_SIZE). */
static const rck_config_entry_t svm_settings[] = {
    {"SVM_SIZE", "24m", RCK_CONFIG_SIZE,
     "bytes SVM takes from the top of the shared window at svm_init (unset: "
     "24m, or 3/8 of RCK_SHM_SIZE if that is less)", NULL},
    {NULL, NULL, RCK_CONFIG_STRING, NULL, NULL}};

/* Named by the static links of earlier releases (their pkg-config file
 * and rckcc); links now pull this object by its id, rck__svm_lib (CMake's
 * RCK_STATIC_REGISTRIES), so that `rck config --list` lists SVM's
 * settings there too. */
const int rck_svm_settings_registered = 1;

/* SVM's descriptor (rck/lib.h): its protocol's mails are counted as
 * "svm"; its settings are listed after the mpi backend's. */
static const rck_lib_desc_t svm_lib_desc = {
    .name = "svm",
    .rank = 30,
    .flags = RCK_LIB_LISTED,
    .settings = svm_settings,
};

int rck__svm_lib = -1;

__attribute__((constructor)) static void svm_settings_register(void)
{
    rck__svm_lib = rck_lib_register(&svm_lib_desc);
}

/* The reservation outlives svm_finalize: the HAL cannot give it back, and
 * a later svm_init must find the same region on every core. */
static struct {
    int done;
    size_t off, bytes;
} svm_resv;

static size_t align_up(size_t v, size_t a)
{
    return (v + a - 1) / a * a;
}

static int svm_ready(const char *call)
{
    if (!svm_state.ready) {
        rck_error("%s: SVM is not initialised (call svm_init first)", call);
        return 0;
    }
    return 1;
}

/* ---- protection and the cost model ---- */

typedef struct {
    void *addr;
    size_t len;
    int prot;
    int err;
} svm_prot_call_t;

static void svm_prot_fn(void *arg)
{
    svm_prot_call_t *c = arg;

    c->err = mprotect(c->addr, c->len, c->prot) == 0 ? 0 : errno;
}

rck_status_t svm_protect(svm_t *s, size_t first, size_t n, int prot)
{
    svm_prot_call_t c = {.addr = s->data + first * s->page,
                         .len = n * s->page,
                         .prot = prot,
                         .err = 0};

    if (n == 0)
        return RCK_OK;
    rck_hal_syscall(s->hal, svm_prot_fn, &c);
    if (c.err != 0) {
        rck_error("svm: mprotect of pages %zu..%zu failed: %s", first,
                  first + n - 1, strerror(c.err));
        return RCK_ERR_IO;
    }
    return RCK_OK;
}

/* Re-protect the runs of pages in [first, first+n) whose state has any
 * bit of @p has, then clear @p clear in them. */
static rck_status_t protect_runs(svm_t *s, size_t first, size_t n, uint8_t has,
                                 int prot, uint8_t clear)
{
    size_t end = first + n, p = first;
    rck_status_t st = RCK_OK;

    while (p < end) {
        size_t q;

        if (!(s->pst[p] & has)) {
            p++;
            continue;
        }
        for (q = p; q < end && (s->pst[q] & has); q++)
            s->pst[q] &= (uint8_t)~clear;
        if (svm_protect(s, p, q - p, prot) != RCK_OK)
            st = RCK_ERR_IO;
        p = q;
    }
    return st;
}

/* Cost model, end of an epoch (a flush): the pages written since the last
 * flush go back to memory, one line write per line; the model stops
 * tracking them as written (@p downgrade: map them read-only so the next
 * write is seen). */
static rck_status_t model_flush(svm_t *s, size_t first, size_t n,
                                int downgrade)
{
    if (!s->model_pages)
        return RCK_OK;
    for (size_t p = first; p < first + n; p++) {
        if (s->pst[p] & PS_DIRTY) {
            rck_hal_shm_touch(s->hal, svm_page_off(s, p), s->page, 1);
            s->pst[p] &= (uint8_t)~PS_DIRTY;
        }
    }
    return downgrade ? protect_runs(s, first, n, PS_W, PROT_READ, PS_W)
                     : RCK_OK;
}

/* Cost model, start of an epoch (an invalidate): every page mapped here
 * is unmapped, so its first touch in the new epoch reads it again. */
static rck_status_t model_invalidate(svm_t *s, size_t first, size_t n)
{
    if (!s->model_pages)
        return RCK_OK;
    return protect_runs(s, first, n, PS_R | PS_W, PROT_NONE,
                        PS_R | PS_W | PS_TOUCHED);
}

/* Give this core access to page @p p for a read or a write: the fault
 * path. Strong model: become the owner first. Cost model: the first touch
 * in an epoch reads the page's lines, the first write marks it dirty. */
static rck_status_t svm_access(svm_t *s, size_t p, int write)
{
    uint8_t *ps = &s->pst[p];
    int prot = PROT_READ | PROT_WRITE;
    rck_status_t st;

    if (s->model == SVM_STRONG && !(*ps & PS_OWNED)) {
        s->acquiring = (long)p;
        st = svm_strong_acquire(s, p);
        if (st != RCK_OK) {
            s->acquiring = -1;
            svm_strong_done(s);
            return st;
        }
    } else {
        s->stats.soft_faults++;
    }
    if (s->model_pages) {
        if (!(*ps & PS_TOUCHED)) {
            rck_hal_shm_touch(s->hal, svm_page_off(s, p), s->page, 0);
            *ps |= PS_TOUCHED;
        }
        if (write)
            *ps |= PS_DIRTY | PS_W;
        *ps |= PS_R;
        if (!(*ps & PS_W))
            prot = PROT_READ;
    } else {
        *ps |= PS_R | PS_W;
    }
    st = svm_protect(s, p, 1, prot);
    s->acquiring = -1;
    if (s->ndeferred > 0)
        svm_strong_done(s);
    return st;
}

/* ---- the fault handler ---- */

/* Whether the faulting access was a write: the page-fault error code on
 * x86-64; elsewhere every fault counts as a write (the cost model then
 * charges a write-back for pages that were only read). */
static int fault_is_write(const void *uc)
{
#if defined(__x86_64__) && defined(REG_ERR)
    const ucontext_t *u = uc;
    return (u->uc_mcontext.gregs[REG_ERR] & 2) != 0;
#else
    (void)uc;
    return 1;
#endif
}

SVM_SIGNAL_ENTRY static void svm_segv(int sig, siginfo_t *si, void *uc)
{
    svm_t *s = &svm_state;
    int saved = errno;
    uintptr_t a = (uintptr_t)si->si_addr, base = (uintptr_t)s->data;

    (void)sig;
    if (s->ready && a >= base && a - base < s->npages * s->page) {
        size_t p = (a - base) / s->page;
        int write = fault_is_write(uc);
        uint8_t ps = s->pst[p];

        /* the fault's own host cost is not the program's compute */
        rck_hal_trap(s->hal, s->trap_ns);

        if (svm_block_of_page(s, p) == NULL) {
            rck_error("svm: access to %p: SVM memory that is not allocated "
                      "(freed, or outside every svm_alloc block)",
                      si->si_addr);
        } else if (!(ps & PS_W) && (write || !(ps & PS_R))) {
            rck_status_t st = svm_access(s, p, write);

            if (st == RCK_OK) {
                errno = saved;
                return;
            }
            rck_error("svm: the page fault at %p (page %zu) cannot be "
                      "served: %s; giving up",
                      si->si_addr, p, rck_status_string(st));
            exit(EXIT_FAILURE);
        }
    }
    /* Not an SVM fault: hand it to whoever had SIGSEGV before us (the
     * default action, or a sanitizer); the access is retried and crashes
     * as it would have without SVM. */
    sigaction(SIGSEGV, &s->old_segv, NULL);
    errno = saved;
}

/* ---- the host cost of a fault ---- */

/* A fault on a private page whose handler only unprotects it: the round
 * trip (fault, signal delivery, handler, sigreturn) minus the mprotect,
 * measured so that rck_hal_trap can keep it out of the program's compute
 * on the sim backend. Runs as kernel work (not charged as compute). */
static void *calib_page;
static size_t calib_len;

SVM_SIGNAL_ENTRY static void calib_segv(int sig, siginfo_t *si, void *uc)
{
    (void)sig;
    (void)si;
    (void)uc;
    mprotect(calib_page, calib_len, PROT_READ | PROT_WRITE);
}

static uint64_t mono_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

#define CALIB_N 15

static void calib_fn(void *arg)
{
    uint64_t *out = arg, f[CALIB_N], m[CALIB_N];
    struct sigaction sa, old;

    *out = 0;
    calib_len = svm_state.page;
    calib_page = mmap(NULL, calib_len, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (calib_page == MAP_FAILED)
        return;
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = calib_segv;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGSEGV, &sa, &old) == 0) {
        for (int i = 0; i < CALIB_N; i++) {
            uint64_t t0;
            mprotect(calib_page, calib_len, PROT_NONE);
            t0 = mono_ns();
            *(volatile char *)calib_page = 1;
            f[i] = mono_ns() - t0;
            mprotect(calib_page, calib_len, PROT_NONE);
            t0 = mono_ns();
            mprotect(calib_page, calib_len, PROT_READ | PROT_WRITE);
            m[i] = mono_ns() - t0;
        }
        sigaction(SIGSEGV, &old, NULL);
        qsort(f, CALIB_N, sizeof(*f), cmp_u64);
        qsort(m, CALIB_N, sizeof(*m), cmp_u64);
        *out = f[CALIB_N / 2] > m[CALIB_N / 2] ? f[CALIB_N / 2] - m[CALIB_N / 2]
                                               : 0;
    }
    munmap(calib_page, calib_len);
}

/* ---- blocks ---- */

const svm_block_t *svm_block_of_page(const svm_t *s, size_t p)
{
    size_t lo = 0, hi = s->nblocks;

    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        const svm_block_t *b = &s->blocks[mid];

        if (p < b->first)
            hi = mid;
        else if (p >= b->first + b->npages)
            lo = mid + 1;
        else
            return b;
    }
    return NULL;
}

/* The block [addr, addr+len) lies in, or NULL with the reason logged. */
static const svm_block_t *block_of_range(svm_t *s, const char *call,
                                         const void *addr, size_t len)
{
    uintptr_t a = (uintptr_t)addr, base = (uintptr_t)s->data;
    const svm_block_t *b = NULL;

    if (addr != NULL && a >= base && a - base < s->npages * s->page)
        b = svm_block_of_page(s, (a - base) / s->page);
    if (b == NULL) {
        rck_error("%s: %p is not SVM memory from svm_alloc", call, addr);
        return NULL;
    }
    if (len > (b->first + b->npages) * s->page - (a - base)) {
        rck_error("%s: [%p, +%zu) runs past the end of its svm_alloc block "
                  "(%zu bytes at %p)",
                  call, addr, len, b->npages * s->page,
                  (void *)(s->data + b->first * s->page));
        return NULL;
    }
    return b;
}

/* First fit among the gaps between the (sorted) blocks. */
static int block_find_gap(const svm_t *s, size_t np, size_t *first,
                          size_t *idx)
{
    size_t at = 0;

    for (size_t i = 0; i <= s->nblocks; i++) {
        size_t end = i < s->nblocks ? s->blocks[i].first : s->npages;

        if (end - at >= np) {
            *first = at;
            *idx = i;
            return 0;
        }
        if (i < s->nblocks)
            at = s->blocks[i].first + s->blocks[i].npages;
    }
    return -1;
}

static rck_status_t block_insert(svm_t *s, size_t idx, size_t first,
                                 size_t np, int mc)
{
    if (s->nblocks == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 16;
        svm_block_t *b = realloc(s->blocks, cap * sizeof(*b));

        if (b == NULL)
            return RCK_ERR_NOMEM;
        s->blocks = b;
        s->cap = cap;
    }
    memmove(&s->blocks[idx + 1], &s->blocks[idx],
            (s->nblocks - idx) * sizeof(*s->blocks));
    s->blocks[idx].first = first;
    s->blocks[idx].npages = np;
    s->blocks[idx].mc = mc;
    s->nblocks++;
    return RCK_OK;
}

static void block_remove(svm_t *s, const svm_block_t *b)
{
    size_t idx = (size_t)(b - s->blocks);

    memmove(&s->blocks[idx], &s->blocks[idx + 1],
            (s->nblocks - idx - 1) * sizeof(*s->blocks));
    s->nblocks--;
}

/* ---- waiting, barriers ---- */

/* After a handler ran, look at the words before waiting again: a wait
 * that finds an interrupt pending returns before it looks at them, so
 * under a stream of mails it would never see its condition hold. */
static int shm_conds_hold(svm_t *s, const rck_hal_cond_t *c, int n,
                          int *which)
{
    for (int i = 0; i < n; i++) {
        uint32_t w;

        if (rck_hal_shm_read(s->hal, c[i].offset, &w, sizeof(w)) != RCK_OK)
            return 0;
        if (((w & c[i].mask) == c[i].value) == (c[i].op == RCK_COND_EQ)) {
            if (which != NULL)
                *which = i;
            return 1;
        }
    }
    return 0;
}

rck_status_t svm_wait(svm_t *s, const rck_hal_cond_t *c, int n, int *which)
{
    for (;;) {
        rck_status_t st = rck_hal_wait(s->hal, c, n, (unsigned)s->wait_flags,
                                       -1, which);
        if (st != RCK_INTERRUPTED)
            return st;
        for (int i = 0; i < n; i++) {
            if (c[i].space != RCK_SPACE_SHM)
                return RCK_INTERRUPTED; /* the caller looks again */
        }
        if (shm_conds_hold(s, c, n, which))
            return RCK_OK;
    }
}

/* The plain barrier: a GIC atomic counter gathers the arrivals; the last
 * one publishes the barrier's epoch in shared DRAM, where the others wait
 * for it (serving mails meanwhile). The counter is never reset: after
 * barrier k it holds k * nues (mod 2^32), and every core knows k. */
static rck_status_t sync_barrier(svm_t *s, const char *call)
{
    uint32_t k = s->bar_epoch + 1;
    int32_t old;
    rck_status_t st;

    rck_hal_set_context(s->hal, call, -1);
    st = rck_hal_atomic_inc(s->hal, s->ctr_barrier, &old);
    if (st == RCK_OK && (uint32_t)old + 1u == k * (uint32_t)s->nues) {
        st = rck_hal_shm_write(s->hal, s->region_off + SVM_CTL_BARRIER, &k,
                               sizeof(k));
    } else if (st == RCK_OK) {
        rck_hal_cond_t c = {.space = RCK_SPACE_SHM,
                            .offset = (uint32_t)(s->region_off +
                                                 SVM_CTL_BARRIER),
                            .mask = ~0u,
                            .value = k,
                            .op = RCK_COND_EQ};
        st = svm_wait(s, &c, 1, NULL);
    }
    rck_hal_set_context(s->hal, NULL, -1);
    if (st != RCK_OK) {
        rck_error("%s: barrier failed: %s", call, rck_status_string(st));
        return st;
    }
    s->bar_epoch = k;
    return RCK_OK;
}

/* Flush every page this core wrote (lazy model: the release), for the
 * cost model in both. */
static rck_status_t flush_all(svm_t *s, int downgrade)
{
    rck_status_t st = model_flush(s, 0, s->npages, downgrade);

    if (rck_hal_shm_flush(s->hal) != RCK_OK)
        st = RCK_ERR_IO;
    s->stats.flushes++;
    return st;
}

static rck_status_t invalidate_all(svm_t *s)
{
    rck_hal_cl1invmb(s->hal);
    s->stats.invalidates++;
    return model_invalidate(s, 0, s->npages);
}

/* ---- set-up ---- */

static rck_status_t svm_size_setting(size_t window, size_t *bytes)
{
    const char *env = getenv("RCK_SVM_SIZE");
    size_t v;

    if (env == NULL || *env == '\0') {
        v = window / 8 * 3;
        *bytes = v < SVM_DEFAULT_SIZE ? v : SVM_DEFAULT_SIZE;
        return RCK_OK;
    }
    if (rck_config_parse_size(env, &v) != 0 || v == 0) {
        rck_error("svm_init: RCK_SVM_SIZE='%s' is not a size (e.g. 24m)",
                  env);
        return RCK_ERR_CONFIG;
    }
    *bytes = v;
    return RCK_OK;
}

static rck_status_t svm_reserve(svm_t *s, size_t page)
{
    void *base;
    size_t window, want;
    rck_status_t st;

    st = rck_hal_shm_map(s->hal, &base, &window);
    if (st != RCK_OK)
        return st;
    if ((uintptr_t)base % page != 0) {
        rck_error("svm_init: the shared window (%p) is not aligned to the "
                  "%zu-byte page",
                  base, page);
        return RCK_ERR_ALIGN;
    }
    s->win = base;
    if (svm_resv.done)
        return RCK_OK;
    st = svm_size_setting(window, &want);
    if (st != RCK_OK)
        return st;
    want = want / page * page;
    if (want < 4 * page) {
        rck_error("svm_init: RCK_SVM_SIZE gives %zu bytes; SVM needs at "
                  "least %zu (4 pages)",
                  want, 4 * page);
        return RCK_ERR_CONFIG;
    }
    st = rck_hal_shm_reserve(s->hal, rck__svm_lib, want, page, &svm_resv.off);
    if (st != RCK_OK) {
        rck_error("svm_init: cannot reserve %zu bytes of SVM at the top of "
                  "the %zu-byte shared window (RCK_SVM_SIZE, RCK_SHM_SIZE; "
                  "svm_init must come before RCCE_init)",
                  want, window);
        return st;
    }
    svm_resv.bytes = want;
    svm_resv.done = 1;
    return RCK_OK;
}

/* Control words, nack[] and owner[], then as many pages as fit. */
static void svm_layout(svm_t *s)
{
    size_t owner_rel = align_up(SVM_CTL_NACK + 4 * (size_t)s->nues, 64);
    size_t np = (svm_resv.bytes - align_up(owner_rel, s->page)) /
                (s->page + 4);

    while (np > 0 &&
           align_up(owner_rel + 4 * np, s->page) + np * s->page >
               svm_resv.bytes)
        np--;
    s->region_off = svm_resv.off;
    s->nack_off = svm_resv.off + SVM_CTL_NACK;
    s->owner_off = svm_resv.off + owner_rel;
    s->data_off = svm_resv.off + align_up(owner_rel + 4 * np, s->page);
    s->data = s->win + s->data_off;
    s->npages = np;
}

static void svm_release_local(svm_t *s)
{
    free(s->pst);
    free(s->locks_held);
    free(s->blocks);
    free(s->deferred);
    free(s->deferred_work);
    s->deferred_work = NULL;
    s->kick_pending = 0;
    s->pst = NULL;
    s->locks_held = NULL;
    s->deferred = NULL;
    s->ndeferred = 0;
    s->blocks = NULL;
    s->nblocks = s->cap = 0;
}

rck_status_t svm_init(svm_model_t model)
{
    svm_t *s = &svm_state;
    long host_page = sysconf(_SC_PAGESIZE);
    struct sigaction sa;
    rck_status_t st;

    if (s->ready) {
        rck_error("svm_init: SVM is already initialised (svm_finalize "
                  "first)");
        return RCK_ERR_STATE;
    }
    if (model != SVM_STRONG && model != SVM_LAZY) {
        rck_error("svm_init: unknown consistency model %d (SVM_STRONG or "
                  "SVM_LAZY)",
                  (int)model);
        return RCK_ERR_INVALID;
    }
    memset(&s->stats, 0, sizeof(s->stats));
    s->model = model;
    if (model == SVM_STRONG) {
        st = rck_mbox_init();
        if (st != RCK_OK) {
            rck_error("svm_init: mailboxes: %s", rck_status_string(st));
            return st;
        }
        s->hal = rck_hal_self();
        if (s->hal == NULL)
            return RCK_ERR_STATE;
    } else {
        st = rck_hal_open(NULL, &s->hal);
        if (st != RCK_OK)
            return st;
    }
    s->ue = s->hal->ue;
    s->nues = s->hal->nues;
    s->page = host_page > (long)SVM_PAGE_MIN ? (size_t)host_page
                                             : SVM_PAGE_MIN;
    s->model_pages = (s->hal->ops->caps & RCK_CAP_TIMED) != 0;
    s->trap_ns = 0;
    if (s->model_pages)
        rck_hal_syscall(s->hal, calib_fn, &s->trap_ns);
    if (s->hal->chip.atomic_counters < 2) {
        rck_error("svm_init: the chip has %d GIC atomic counters; SVM "
                  "needs 2",
                  s->hal->chip.atomic_counters);
        return RCK_ERR_UNSUPPORTED;
    }
    s->ctr_barrier = s->hal->chip.atomic_counters - 1;
    s->ctr_claim = s->hal->chip.atomic_counters - 2;
    st = svm_reserve(s, s->page);
    if (st != RCK_OK)
        return st;
    svm_layout(s);
    if (s->owner_off + 4 * s->npages > UINT32_MAX) {
        /* HAL waits name shared DRAM words by 32-bit offsets */
        rck_error("svm_init: the SVM control words lie beyond 4 GiB into "
                  "the shared window (RCK_SHM_SIZE); use a window under "
                  "4 GiB");
        return RCK_ERR_CONFIG;
    }
    s->pst = calloc(s->npages, 1);
    s->locks_held = calloc((size_t)s->nues, 1);
    s->deferred = calloc((size_t)s->nues, sizeof(*s->deferred));
    s->deferred_work = calloc((size_t)s->nues, sizeof(*s->deferred));
    if (s->pst == NULL || s->locks_held == NULL || s->deferred == NULL ||
        s->deferred_work == NULL) {
        st = RCK_ERR_NOMEM;
        goto err_local;
    }
    s->acquiring = -1;
    s->alloc_seq = 0;
    st = svm_protect(s, 0, s->npages, PROT_NONE);
    if (st != RCK_OK)
        goto err_local;
    st = rck_hal_shm_read(s->hal, s->region_off + SVM_CTL_BARRIER,
                          &s->bar_epoch, sizeof(s->bar_epoch));
    if (st != RCK_OK)
        goto err_local;
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = svm_segv;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGSEGV, &sa, &s->old_segv) != 0) {
        rck_error("svm_init: cannot install the SIGSEGV handler: %s",
                  strerror(errno));
        st = RCK_ERR_IO;
        goto err_local;
    }
    s->wait_flags = 0;
    if (model == SVM_STRONG) {
        st = svm_strong_start(s);
        if (st != RCK_OK)
            goto err_signal;
        s->wait_flags = RCK_WAIT_IRQ;
    }
    s->ready = 1;
    st = sync_barrier(s, "svm_init");
    if (st != RCK_OK)
        goto err_ready;
    return RCK_OK;

err_ready:
    s->ready = 0;
    if (model == SVM_STRONG)
        svm_strong_stop(s);
err_signal:
    sigaction(SIGSEGV, &s->old_segv, NULL);
err_local:
    svm_release_local(s);
    return st;
}

rck_status_t svm_finalize(void)
{
    svm_t *s = &svm_state;
    rck_status_t st;

    if (!svm_ready("svm_finalize"))
        return RCK_ERR_STATE;
    flush_all(s, 0);
    st = sync_barrier(s, "svm_finalize");
    /* every fault of every core is over: no request is in flight */
    if (s->model == SVM_STRONG)
        svm_strong_stop(s);
    s->wait_flags = 0;
    svm_protect(s, 0, s->npages, PROT_NONE);
    s->ready = 0;
    sigaction(SIGSEGV, &s->old_segv, NULL);
    svm_release_local(s);
    return st;
}

svm_model_t svm_model(void)
{
    return svm_state.model;
}

int svm_ue(void)
{
    return svm_state.ready ? svm_state.ue : -1;
}

int svm_num_ues(void)
{
    return svm_state.ready ? svm_state.nues : 0;
}

/* ---- allocation ---- */

/* UE 0 gives out pages that held an earlier block zeroed, as a kernel
 * hands out fresh frames (pages never given out are still zero). */
static rck_status_t zero_pages(svm_t *s, size_t first, size_t np)
{
    size_t n = first + np <= s->hwm ? np
                                    : (first < s->hwm ? s->hwm - first : 0);
    rck_status_t st;

    if (n == 0)
        return RCK_OK;
    st = svm_protect(s, first, n, PROT_READ | PROT_WRITE);
    if (st != RCK_OK)
        return st;
    memset(s->data + first * s->page, 0, n * s->page);
    rck_hal_shm_touch(s->hal, svm_page_off(s, first), n * s->page, 1);
    return svm_protect(s, first, n, PROT_NONE);
}

/* Map the pages MPBT on their controller: all on @p mc, or (SVM_MC_ALL)
 * page k of the region on controller k mod nmc, so that a block's pages,
 * and the traffic of every core, spread over all controllers. */
static rck_status_t map_pages(svm_t *s, size_t first, size_t np, int mc)
{
    int nmc = s->hal->chip.nmc;

    if (mc != SVM_MC_ALL || nmc <= 1)
        return rck_hal_shm_set_map(s->hal, svm_page_off(s, first),
                                   np * s->page, RCK_MAP_MPBT,
                                   mc == SVM_MC_ALL ? 0 : mc);
    for (size_t p = first; p < first + np; p++) {
        rck_status_t st = rck_hal_shm_set_map(s->hal, svm_page_off(s, p),
                                              s->page, RCK_MAP_MPBT,
                                              (int)(p % (size_t)nmc));
        if (st != RCK_OK)
            return st;
    }
    return RCK_OK;
}

void *svm_alloc(size_t size, int mc)
{
    svm_t *s = &svm_state;
    svm_alloc_rec_t rec, mine;
    size_t np, first, idx, slot;
    rck_status_t st;

    if (!svm_ready("svm_alloc"))
        return NULL;
    if (size == 0) {
        rck_error("svm_alloc: size 0");
        return NULL;
    }
    if (mc != SVM_MC_ALL && (mc < 0 || mc >= s->hal->chip.nmc)) {
        rck_error("svm_alloc: memory controller %d does not exist (0..%d, "
                  "or SVM_MC_ALL)",
                  mc, s->hal->chip.nmc - 1);
        return NULL;
    }
    np = size / s->page + (size % s->page != 0);
    if (size > s->npages * s->page || block_find_gap(s, np, &first, &idx)) {
        rck_error("svm_alloc: no room for %zu bytes in the %zu-byte SVM "
                  "region (RCK_SVM_SIZE)",
                  size, s->npages * s->page);
        return NULL;
    }
    mine.seq = s->alloc_seq + 1;
    mine.first = (uint32_t)first;
    mine.npages = (uint32_t)np;
    mine.mc = mc;
    slot = s->region_off + SVM_CTL_ALLOC + (s->alloc_seq & 1) * sizeof(rec);
    st = map_pages(s, first, np, mc);
    if (st == RCK_OK && s->ue == 0) {
        st = rck_hal_shm_write(s->hal, slot, &mine, sizeof(mine));
        if (st == RCK_OK && s->model == SVM_STRONG)
            st = svm_strong_reset(s, first, np);
        if (st == RCK_OK)
            st = zero_pages(s, first, np);
    }
    if (st == RCK_OK && s->model == SVM_LAZY && !s->model_pages)
        st = svm_protect(s, first, np, PROT_READ | PROT_WRITE);
    if (st == RCK_OK)
        st = block_insert(s, idx, first, np, mc);
    if (st != RCK_OK) {
        rck_error("svm_alloc: %s", rck_status_string(st));
        return NULL;
    }
    for (size_t p = first; p < first + np; p++)
        s->pst[p] = (s->model == SVM_LAZY && !s->model_pages)
                        ? (uint8_t)(PS_R | PS_W)
                        : 0;
    if (first + np > s->hwm)
        s->hwm = first + np;
    s->alloc_seq++;
    if (sync_barrier(s, "svm_alloc") != RCK_OK)
        return NULL;
    if (s->ue != 0) {
        if (rck_hal_shm_read(s->hal, slot, &rec, sizeof(rec)) != RCK_OK)
            return NULL;
        if (memcmp(&rec, &mine, sizeof(rec)) != 0) {
            rck_error("svm_alloc: UE %d's call (%zu bytes, controller %d) "
                      "does not match UE 0's (%u pages, controller %d): "
                      "svm_alloc is collective, every UE must make the same "
                      "calls in the same order",
                      s->ue, size, mc, rec.npages, (int)rec.mc);
            return NULL;
        }
    }
    return s->data + first * s->page;
}

rck_status_t svm_free(void *addr)
{
    svm_t *s = &svm_state;
    uintptr_t a = (uintptr_t)addr, base = (uintptr_t)s->data;
    const svm_block_t *b = NULL;
    rck_status_t st;

    if (!svm_ready("svm_free"))
        return RCK_ERR_STATE;
    if (addr != NULL && a >= base && a - base < s->npages * s->page &&
        (a - base) % s->page == 0)
        b = svm_block_of_page(s, (a - base) / s->page);
    if (b == NULL || s->data + b->first * s->page != (unsigned char *)addr) {
        rck_error("svm_free: %p is not the start of a live svm_alloc block "
                  "(never allocated, or already freed)",
                  addr);
        return RCK_ERR_INVALID;
    }
    flush_all(s, 0);
    st = sync_barrier(s, "svm_free");
    if (st != RCK_OK)
        return st;
    /* nobody uses the block any more and no request for it is in flight */
    st = svm_protect(s, b->first, b->npages, PROT_NONE);
    memset(s->pst + b->first, 0, b->npages);
    block_remove(s, b);
    return st;
}

/* ---- explicit consistency ---- */

/* The pages [*p0, *p0 + *n) of a range inside one block, for @p call. */
static rck_status_t range_pages(svm_t *s, const char *call, void *addr,
                                size_t len, size_t *p0, size_t *n)
{
    size_t p1;

    if (!svm_ready(call))
        return RCK_ERR_STATE;
    if (block_of_range(s, call, addr, len) == NULL)
        return RCK_ERR_INVALID;
    *p0 = ((uintptr_t)addr - (uintptr_t)s->data) / s->page;
    p1 = len ? ((uintptr_t)addr + len - 1 - (uintptr_t)s->data) / s->page
             : *p0;
    *n = p1 - *p0 + 1;
    return RCK_OK;
}

rck_status_t svm_flush(void *addr, size_t len)
{
    svm_t *s = &svm_state;
    size_t p0, n;
    rck_status_t st = range_pages(s, "svm_flush", addr, len, &p0, &n);

    if (st != RCK_OK)
        return st;
    s->stats.flushes++;
    if (model_flush(s, p0, n, 1) != RCK_OK)
        return RCK_ERR_IO;
    return rck_hal_shm_flush(s->hal);
}

rck_status_t svm_invalidate(void *addr, size_t len)
{
    svm_t *s = &svm_state;
    size_t p0, n;
    rck_status_t st = range_pages(s, "svm_invalidate", addr, len, &p0, &n);

    if (st != RCK_OK)
        return st;
    s->stats.invalidates++;
    rck_hal_cl1invmb(s->hal);
    return model_invalidate(s, p0, n);
}

/* ---- synchronisation ---- */

rck_status_t svm_barrier(void)
{
    svm_t *s = &svm_state;
    rck_status_t st;

    if (!svm_ready("svm_barrier"))
        return RCK_ERR_STATE;
    /* Both models end the cost model's epoch here; under SVM_LAZY this is
     * also the release (flush) and the acquire (invalidate). */
    flush_all(s, 0);
    st = sync_barrier(s, "svm_barrier");
    if (st != RCK_OK)
        return st;
    s->stats.barriers++;
    return invalidate_all(s);
}

static int lock_check(svm_t *s, const char *call, int id)
{
    if (!svm_ready(call))
        return RCK_ERR_STATE;
    if (id < 0 || id >= s->nues) {
        rck_error("%s: lock %d does not exist (0..%d)", call, id,
                  s->nues - 1);
        return RCK_ERR_INVALID;
    }
    return RCK_OK;
}

rck_status_t svm_lock(int id)
{
    svm_t *s = &svm_state;
    int core, got = 0;
    rck_status_t st = lock_check(s, "svm_lock", id);

    if (st != RCK_OK)
        return st;
    if (s->locks_held[id]) {
        rck_error("svm_lock: UE %d already holds lock %d", s->ue, id);
        return RCK_ERR_STATE;
    }
    core = s->hal->ue_core[id];
    rck_hal_set_context(s->hal, "svm_lock", id);
    for (;;) {
        rck_hal_cond_t c = {.space = RCK_SPACE_TAS,
                            .core = core,
                            .mask = 1,
                            .value = 0,
                            .op = RCK_COND_EQ};

        st = rck_hal_tas_try(s->hal, core, &got);
        if (st != RCK_OK || got)
            break;
        st = svm_wait(s, &c, 1, NULL);
        if (st != RCK_OK && st != RCK_INTERRUPTED)
            break;
    }
    rck_hal_set_context(s->hal, NULL, -1);
    if (st != RCK_OK) {
        rck_error("svm_lock: lock %d: %s", id, rck_status_string(st));
        return st;
    }
    s->locks_held[id] = 1;
    if (s->model == SVM_LAZY)
        return invalidate_all(s);
    return RCK_OK;
}

rck_status_t svm_unlock(int id)
{
    svm_t *s = &svm_state;
    rck_status_t st = lock_check(s, "svm_unlock", id);

    if (st != RCK_OK)
        return st;
    if (!s->locks_held[id]) {
        rck_error("svm_unlock: UE %d does not hold lock %d", s->ue, id);
        return RCK_ERR_STATE;
    }
    if (s->model == SVM_LAZY)
        flush_all(s, 1);
    s->locks_held[id] = 0;
    return rck_hal_tas_release(s->hal, s->hal->ue_core[id]);
}

void svm_stats(svm_stats_t *stats)
{
    if (stats != NULL)
        *stats = svm_state.stats;
}
