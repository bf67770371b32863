/*
 * The compiled memory model's runtime (docs/P54C.md, "The compiled memory
 * model"): code built with RCK_AS_MEM=1 checks every load, store and block
 * fetch inline against three filters in the counters' page and calls a
 * slow path here for what the filters cannot settle. The slow paths run
 * the caches of p54c_cache.c (the model the QEMU plugin runs) for the
 * core that attached in the compiled engine's detailed mode (mode MODEL);
 * everywhere else (native, mpi, sim without caches, under QEMU, before
 * attach) they only fill the filters (mode FILL), which makes the checks
 * cheap and changes no figure.
 *
 * The fetch filter holds blocks, not lines: a block whose every line was
 * its set's most recently used when it last ran, in the same epoch.
 *
 * Owns: the slow paths and their trampolines (section rck_p54c_slow, which
 * the QEMU plugin skips), sim_p54c_mem_*. May call: p54c_cache.c (and the
 * settings, at attach only).
 *
 * The slow paths run between two instructions of the program: the
 * trampolines save the flags and the caller-saved general registers that
 * the check itself did not (%rax and %rcx are in the page); this file and
 * p54c_cache.c are built with -mgeneral-regs-only, so the program's vector
 * and x87 registers are never touched. Nothing on those paths may call
 * the C library. One program thread per core (the counters are not
 * atomic).
 */
#include "sim_p54c_mem.h"

#include "p54c_cache.h"
#include "rck/config.h"

#include <errno.h>
#include <link.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#define SLOW __attribute__((section("rck_p54c_slow"), used, noinline))
#define PW(off) (page[(off) / 8])
/* The fetch filter's entry of the block at @p first: settled in the
 * current epoch (a macro: the slow paths call nothing outside their
 * section). */
#define FI_SETTLE(first)                                                   \
    (PW(P54C_CTR_FI_OFF +                                                   \
        (((first) >> P54C_FI_SHIFT) & (P54C_FI_N - 1)) * 8) =               \
         (first) ^ PW(P54C_CTR_FIKEY_OFF))

enum { MODE_FILL = 0, MODE_MODEL = 1 };

static volatile uint64_t *page;
static int mode = MODE_FILL;
static p54c_mem_t M;
static void *cache_buf;
static size_t cache_len;

/* A trampoline's frame: the caller-saved general registers the check did
 * not save, %rsp aligned for the call (%rbp the frame), the direction
 * flag clear; and its undoing. */
#define TRAMP_SAVE                                                         \
    "\tpushq %rdx\n\tpushq %rsi\n\tpushq %rdi\n"                            \
    "\tpushq %r8\n\tpushq %r9\n\tpushq %r10\n\tpushq %r11\n"               \
    "\tpushq %rbp\n\tmovq %rsp, %rbp\n\tandq $-16, %rsp\n"                  \
    "\tcld\n"
#define TRAMP_RESTORE                                                      \
    "\tmovq %rbp, %rsp\n\tpopq %rbp\n"                                     \
    "\tpopq %r11\n\tpopq %r10\n\tpopq %r9\n\tpopq %r8\n"                   \
    "\tpopq %rdi\n\tpopq %rsi\n\tpopq %rdx\n\tret\n"

/* The trampolines: entered from a check with %rsp 128 bytes below the
 * red zone. Data: %rax the address, %ecx the kind (P54C_MK_*). Fetch:
 * %rax the block's first byte, %rcx its last. They do not save the flags:
 * a check whose flags are live saved them itself (rck-as), and the
 * direction flag is clear at every check (the ABI's rule for compiled
 * code, which is all that is checked; the cld only restates it). */
__asm__(".pushsection rck_p54c_slow,\"ax\",@progbits\n"
        ".globl rck__p54c_slow_begin\n.hidden rck__p54c_slow_begin\n"
        "rck__p54c_slow_begin:\n"
        ".p2align 4\n"
        ".type rck__p54c_tramp_data,@function\n"
        "rck__p54c_tramp_data:\n"
        TRAMP_SAVE
        "\tmovq %rax, %rdi\n\tmovl %ecx, %esi\n\tleaq 8(%rbp), %rdx\n"
        "\tcall rck__p54c_slow_data\n"
        TRAMP_RESTORE
        ".size rck__p54c_tramp_data, .-rck__p54c_tramp_data\n"
        ".p2align 4\n"
        ".type rck__p54c_tramp_fetch,@function\n"
        "rck__p54c_tramp_fetch:\n"
        TRAMP_SAVE
        "\tmovq %rax, %rdi\n\tmovq %rcx, %rsi\n"
        "\tcall rck__p54c_slow_fetch\n"
        TRAMP_RESTORE
        ".size rck__p54c_tramp_fetch, .-rck__p54c_tramp_fetch\n"
        ".p2align 4\n"
        ".type rck__p54c_tramp_block,@function\n"
        "rck__p54c_tramp_block:\n"
        TRAMP_SAVE
        "\tmovq %rax, %rdi\n\tmovq %rcx, %rsi\n"
        "\tcall rck__p54c_slow_block\n"
        TRAMP_RESTORE
        ".size rck__p54c_tramp_block, .-rck__p54c_tramp_block\n"
        ".popsection\n");

void rck__p54c_tramp_data(void);
void rck__p54c_tramp_fetch(void);
void rck__p54c_slow_data(uint64_t va, uint32_t kind, const uint64_t *regs);
void rck__p54c_slow_fetch(uint64_t first, uint64_t last);
void rck__p54c_tramp_block(void);
void rck__p54c_slow_block(uint64_t first, const int32_t *bt);

/* Saved by the data trampoline, from its last push up. */
enum { R_R11, R_R10, R_R9, R_R8, R_RDI, R_RSI, R_RDX };

SLOW static void rep_string(uint32_t kind, const uint64_t *regs)
{
    uint64_t n = PW(P54C_CTR_SC_OFF), w = kind & 0xff;
    uint64_t si = regs[R_RSI], di = regs[R_RDI];
    int op = (int)(kind >> P54C_MK_OP_SHIFT) & 3;

    if (mode != MODE_MODEL)
        return;
    for (uint64_t i = 0; i < n; i++) {
        if (op != P54C_MK_STOS)
            p54c_mem_access(&M, si + i * w, (uint32_t)w, 0);
        if (op != P54C_MK_LODS)
            p54c_mem_access(&M, di + i * w, (uint32_t)w, 1);
    }
}

SLOW void rck__p54c_slow_data(uint64_t va, uint32_t kind, const uint64_t *regs)
{
    uint32_t size = kind & 0xff;
    int store = (kind & P54C_MK_STORE) != 0;

    if (kind & P54C_MK_REP) {
        rep_string(kind, regs);
        return;
    }
    if (mode != MODE_MODEL) {
        uint64_t at = va & ~(uint64_t)31;
        if (store) {
            PW(P54C_CTR_FS_OFF + ((va >> 5) & (P54C_FS_N - 1)) * 8) = at;
            PW(P54C_CTR_LASTDW_OFF) = (va + size - 1) >> 2;
        } else {
            PW(P54C_CTR_FD_OFF + ((va >> 5) & 255) * 8) = at;
        }
        return;
    }
    /* the block counted it; the model counts it as the plugin would (or
     * not: shared DRAM uncached, MPBs, merged stores) */
    if (store)
        PW(P54C_CTR_WR_OFF)--;
    else
        PW(P54C_CTR_RD_OFF)--;
    p54c_mem_access(&M, va, size, store);
}

SLOW void rck__p54c_slow_fetch(uint64_t first, uint64_t last)
{
    uint64_t l0 = first >> 5, l1 = last >> 5;

    if (last < first)
        return;
    if (mode == MODE_MODEL) {
        /* every line of the block is now its set's most recently used;
         * the model keeps that true only where it has filters (else every
         * fetch takes this path) */
        p54c_mem_fetch(&M, l0, l1);
        p54c_mem_fetch_note(&M, first, l0, l1);
        return;
    }
    FI_SETTLE(first);
}

/* The first segment's fetch of a block of several (rck-as's
 * seq_fetch_block): @p bt its segment table (p54c_abi.h). All segments'
 * lines at once if they are all in L1I (then P54C_CTR_BLK_OFF names the
 * block and its later segments skip their checks), else the first
 * segment's, as its own check would. */
SLOW void rck__p54c_slow_block(uint64_t first, const int32_t *bt)
{
    uint64_t seg[P54C_BT_MAXSEG][2];
    uint32_t n = (uint32_t)bt[0];

    if (n == 0 || n > P54C_BT_MAXSEG)
        return;
    for (uint32_t i = 0; i < n; i++) {
        const int32_t *w = &bt[1 + 2 * i];
        seg[i][0] = (uint64_t)(uintptr_t)w + (uint64_t)(int64_t)w[0];
        seg[i][1] = (uint64_t)(uintptr_t)(w + 1) + (uint64_t)(int64_t)w[1];
    }
    if (mode != MODE_MODEL) {
        FI_SETTLE(first);
        PW(P54C_CTR_BLK_OFF) = first;
        return;
    }
    if (p54c_mem_fetch_block(&M, first, (const uint64_t(*)[2])seg, n))
        return;
    PW(P54C_CTR_BLK_OFF) = 0;
    if (seg[0][1] >= seg[0][0])
        p54c_mem_fetch(&M, seg[0][0] >> 5, seg[0][1] >> 5);
}

/* ---- set-up, from the HAL ---- */

/* The page layout's notes (P54C_LAYOUT_NOTE_*), module by module. */
typedef struct {
    char *msg;
    size_t len;
    int bad;
} layout_scan_t;

static int layout_module(struct dl_phdr_info *info, size_t size, void *arg)
{
    layout_scan_t *sc = arg;
    static const char name[] = P54C_LAYOUT_NOTE_NAME;

    (void)size;
    for (int i = 0; i < info->dlpi_phnum && !sc->bad; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        const unsigned char *p, *end;
        size_t al = ph->p_align == 8 ? 8 : 4;

        if (ph->p_type != PT_NOTE)
            continue;
        p = (const unsigned char *)(info->dlpi_addr + ph->p_vaddr);
        end = p + ph->p_memsz;
        while (end - p >= 12) {
            uint32_t nsz, dsz, type, ver;
            size_t nal, dal;

            memcpy(&nsz, p, 4);
            memcpy(&dsz, p + 4, 4);
            memcpy(&type, p + 8, 4);
            nal = ((size_t)nsz + al - 1) & ~(al - 1);
            dal = ((size_t)dsz + al - 1) & ~(al - 1);
            if ((size_t)(end - p) - 12 < nal ||
                (size_t)(end - p) - 12 - nal < dal)
                break; /* malformed: not ours */
            if (type == P54C_LAYOUT_NOTE_TYPE && nsz == sizeof(name) &&
                memcmp(p + 12, name, sizeof(name)) == 0) {
                ver = 0;
                if (dsz >= 4)
                    memcpy(&ver, p + 12 + nal, 4);
                if (dsz != 4 || ver != P54C_LAYOUT_VERSION) {
                    snprintf(sc->msg, sc->len,
                             "%s was built by an rck-as whose memory checks "
                             "use the counters' page layout version %u, but "
                             "this librockcreek has layout version %u: "
                             "rebuild it with this rockcreek's rckcc, or run "
                             "it with the librockcreek of the rockcreek that "
                             "built it",
                             info->dlpi_name != NULL && info->dlpi_name[0]
                                 ? info->dlpi_name
                                 : program_invocation_name,
                             (unsigned)ver, (unsigned)P54C_LAYOUT_VERSION);
                    sc->bad = 1;
                    break;
                }
            }
            p += 12 + nal + dal;
        }
    }
    return sc->bad;
}

int sim_p54c_layout_check(char *msg, size_t len)
{
    layout_scan_t sc = {msg, len, 0};

    if (len > 0)
        msg[0] = '\0';
    dl_iterate_phdr(layout_module, &sc);
    return sc.bad ? -1 : 0;
}

static void filters_empty(void)
{
    for (int k = 0; k < P54C_FILT_N; k++)
        PW(P54C_CTR_FD_OFF + k * 8) = P54C_FILT_EMPTY;
    for (int k = 0; k < P54C_FI_N; k++)
        PW(P54C_CTR_FI_OFF + k * 8) = P54C_FILT_EMPTY;
    for (int k = 0; k < P54C_FS_N; k++)
        PW(P54C_CTR_FS_OFF + k * 8) = P54C_FILT_EMPTY;
    PW(P54C_CTR_BLK_OFF) = 0;
}

void sim_p54c_mem_page_init(volatile uint64_t *pg)
{
    page = pg;
    PW(P54C_CTR_SLOWD_OFF) = (uint64_t)(uintptr_t)&rck__p54c_tramp_data;
    PW(P54C_CTR_SLOWI_OFF) = (uint64_t)(uintptr_t)&rck__p54c_tramp_fetch;
    PW(P54C_CTR_SLOWB_OFF) = (uint64_t)(uintptr_t)&rck__p54c_tramp_block;
    PW(P54C_CTR_LASTDW_OFF) = UINT64_MAX;
    PW(P54C_CTR_WRFREE_OFF) = 0;
    PW(P54C_CTR_L2S_OFF) = 0;
    PW(P54C_CTR_FIKEY_OFF) = 0;
    filters_empty();
}

int sim_p54c_mem_attach(p54c_slot_t *slot)
{
    size_t len = p54c_mem_bytes(slot);
    void *buf;

    if (page == NULL || len == 0 || slot->line_bytes != 32)
        return -1;
    /* mmap, not malloc: the program's heap must not move */
    buf = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
               -1, 0);
    if (buf == MAP_FAILED)
        return -1;
    if (p54c_mem_init(&M, slot, buf) != 0) {
        munmap(buf, len);
        return -1;
    }
    cache_buf = buf;
    cache_len = len;
    M.units = &PW(P54C_CTR_UNITS_OFF);
    M.wr_free = (uint64_t *)&PW(P54C_CTR_WRFREE_OFF);
    M.last_dw = (uint64_t *)&PW(P54C_CTR_LASTDW_OFF);
    M.l1d_reads = (uint64_t *)&PW(P54C_CTR_RD_OFF);
    M.l1d_writes = (uint64_t *)&PW(P54C_CTR_WR_OFF);
    /* the filters need a power-of-two number of sets in every cache;
     * without, every access takes the slow path (exact, slower) */
    if (p54c_mem_filterable(&M)) {
        M.fd = (uint64_t *)&PW(P54C_CTR_FD_OFF);
        M.fs = (uint64_t *)&PW(P54C_CTR_FS_OFF);
        M.fi = (uint64_t *)&PW(P54C_CTR_FI_OFF);
        M.fi_key = (uint64_t *)&PW(P54C_CTR_FIKEY_OFF);
        M.blk = (uint64_t *)&PW(P54C_CTR_BLK_OFF);
        M.fi_sets = rck_config_get_bool("P54C_FETCH_SHORTCUTS");
    }
    filters_empty();
    PW(P54C_CTR_LASTDW_OFF) = UINT64_MAX;
    PW(P54C_CTR_WRFREE_OFF) = PW(P54C_CTR_UNITS_OFF);
    PW(P54C_CTR_L2S_OFF) = slot->l2_store;
    PW(P54C_CTR_RD_OFF) = PW(P54C_CTR_WR_OFF) = PW(P54C_CTR_L1DMISS_OFF) = 0;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    mode = MODE_MODEL;
    return 0;
}

void sim_p54c_mem_take(p54c_slot_t *slot)
{
    if (mode != MODE_MODEL)
        return;
    slot->l1d_reads = PW(P54C_CTR_RD_OFF);
    slot->l1d_writes = PW(P54C_CTR_WR_OFF);
    slot->l1d_misses += PW(P54C_CTR_L1DMISS_OFF);
    PW(P54C_CTR_L1DMISS_OFF) = 0;
}

void sim_p54c_mem_flush(void)
{
    if (mode == MODE_MODEL)
        p54c_mem_drop(&M);
}

void sim_p54c_mem_detach(void)
{
    if (mode != MODE_MODEL)
        return;
    mode = MODE_FILL;
    if (page != NULL) {
        filters_empty();
        PW(P54C_CTR_L2S_OFF) = 0;
        PW(P54C_CTR_WRFREE_OFF) = 0;
    }
    munmap(cache_buf, cache_len);
    cache_buf = NULL;
}

/* The section's first and last bytes: this file is built with
 * -fno-toplevel-reorder, so the first label (in the asm at its top) comes
 * before every function of the section; the last is in a later
 * subsection. */
__asm__(".pushsection rck_p54c_slow, 9\n"
        ".globl rck__p54c_slow_end\n.hidden rck__p54c_slow_end\n"
        "rck__p54c_slow_end:\n"
        ".popsection\n");
extern const char rck__p54c_slow_begin[], rck__p54c_slow_end[];

void sim_p54c_mem_slow_range(uint64_t *lo, uint64_t *hi)
{
    *lo = (uint64_t)(uintptr_t)rck__p54c_slow_begin;
    *hi = (uint64_t)(uintptr_t)rck__p54c_slow_end;
}
