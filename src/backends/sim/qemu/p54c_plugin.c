/*
 * The P54C compute model's instrumentation: a QEMU user-mode TCG plugin
 * loaded into the qemu-x86_64 that runs one core's program
 * (qemu-x86_64 -plugin librck_p54c.so,fd=N,off=BYTES prog ...; the sim
 * backend's launcher builds that command line, sim_p54c.c).
 *
 * It maps its UE's slot (p54c_abi.h) from the memory file the launcher
 * passed down, and counts straight into it:
 *
 *  - every translated block adds its instruction count and its cycles
 *    from the CPI table (classes from the instruction bytes,
 *    p54c_classify.c, once per block at translation) with two inline
 *    adds: no call at run time;
 *  - in the detailed mode, every load and store of the program goes
 *    through a model of the P54C's L1 data cache and the unified L2
 *    (write-through L1, write-around: no allocation on a write miss), and
 *    every executed block's lines through the L1 instruction cache. Hits
 *    in L2 are charged here; L2 misses, write-arounds, write-backs and
 *    shared-DRAM accesses become ring entries that the HAL times through
 *    the mesh and memory-controller model at its next call.
 *
 * While the HAL runs (slot->in_hal), memory accesses and block fetches
 * are not modelled: the simulator's own work is not the program's. The
 * HAL takes instruction and cycle counts as differences between its exit
 * and its next entry, so they need no such flag. The HAL's code before
 * that entry and after that exit, and the PLT stubs, are neither counted
 * nor modelled: the HAL names their ranges in the slot when it attaches
 * (sim_p54c_skip.c), and the plugin then drops every translation made
 * before (qemu_plugin_reset), so that no block translated without them
 * runs again (docs/P54C.md, "What QEMU counts").
 *
 * One guest thread per process (the counters are not atomic).
 */
#include "../sim_p54c.h"
#include "p54c_classify.h"
#include "p54c_fmap.h"
#include "../p54c_cache.h"
#include "../p54c_elf.h"

#include <glib.h>
#include <qemu-plugin.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <fcntl.h>
#include <stddef.h>
#include <unistd.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

static p54c_slot_t *S;
static qemu_plugin_id_t plugin_id;

/* The slot's skip ranges as of skip_gen == skip_seen (the HAL writes
 * them once, at attach). */
static uint64_t skip_r[P54C_SKIP_MAX][2];
static uint8_t skip_base_r[P54C_SKIP_MAX];
static uint32_t nskip_r, skip_seen;

/* @return 0 if @p va is the program's, 1 if it is in a skipped range, 2
 * if in the simulator's own section. */
static int skipped(uint64_t va)
{
    for (uint32_t i = 0; i < nskip_r; i++)
        if (va - skip_r[i][0] < skip_r[i][1] - skip_r[i][0])
            return 1 + skip_base_r[i];
    return 0;
}

static void tb_trans_cb(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);

static void reinstall(qemu_plugin_id_t id)
{
    qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans_cb);
}

/* ---- the program's stack, where Linux puts it (docs/P54C.md, "The
 * stack under QEMU") ----
 * qemu-x86_64 maps a program's stack elsewhere than Linux (below its own
 * mappings, not at the top of the address space) and gives it a shorter
 * auxiliary vector, so the same program's stack frames lie in other cache
 * sets than on the compiled engine, which runs it natively. Its accesses
 * are moved by one constant: to where Linux would have put the stack
 * relative to the program. Where Linux puts it, this process shows: the
 * launcher starts qemu as it starts a compiled core (no address
 * randomisation, the same kernel), so qemu's own stack top is a native
 * core's, and qemu's own auxiliary vector has the entries Linux gives
 * every program. */
static uint64_t stack_lo_r, stack_len_r, stack_shift;

/* Where x86-64 Linux loads a position-independent executable without
 * address randomisation (ELF_ET_DYN_BASE: 2/3 of the 47-bit space); a
 * fixed-address one lies at its own addresses under both. */
#define LINUX_PIE_BASE 0x555555554000ull

static void stack_update(void)
{
    char line[512];
    unsigned long long a, b;
    uint64_t top = 0, bias;
    uint32_t nlinux;
    FILE *f;

    stack_len_r = 0;
    if (S->stack_hi <= S->stack_lo || S->stack_auxv == 0)
        return; /* RCK_P54C_QEMU_STACK=qemu, or the HAL did not find it */
    f = fopen("/proc/self/maps", "re");
    while (f != NULL && fgets(line, sizeof(line), f) != NULL)
        if (strstr(line, "[stack]") != NULL &&
            sscanf(line, "%llx-%llx", &a, &b) == 2)
            top = b;
    if (f != NULL)
        fclose(f);
    nlinux = p54c_auxv_entries();
    if (top == 0 || nlinux == 0) {
        fprintf(stderr, "rck p54c plugin: where Linux puts the stack is not "
                        "known (this process's [stack] or auxiliary vector "
                        "unreadable): the program's stack is modelled where "
                        "qemu put it\n");
        return;
    }
    bias = S->stack_bias != 0 ? LINUX_PIE_BASE : 0;
    /* both loaders copy the same strings below the top, then the auxiliary
     * vector (16 bytes an entry) and the same pointers */
    stack_shift = (top - bias) - (S->stack_hi - S->stack_bias) -
                  16 * ((uint64_t)nlinux - S->stack_auxv);
    stack_lo_r = S->stack_lo;
    stack_len_r = S->stack_hi - S->stack_lo;
    if (getenv("RCK_P54C_STACKDEBUG") != NULL)
        fprintf(stderr,
                "rck p54c plugin: stack %#llx-%#llx (qemu), program bias "
                "%#llx, %u auxv entries; Linux: top %#llx, %u entries; "
                "moved by %#llx\n",
                (unsigned long long)S->stack_lo,
                (unsigned long long)S->stack_hi,
                (unsigned long long)S->stack_bias, S->stack_auxv,
                (unsigned long long)top, nlinux,
                (unsigned long long)stack_shift);
}

/* New ranges from the HAL: use them from this translation on, and drop
 * the blocks translated before (at the next block boundary; the HAL
 * publishes them before it marks the program's start). */
static void skip_update(void)
{
    uint32_t g = __atomic_load_n(&S->skip_gen, __ATOMIC_ACQUIRE);
    uint32_t n;

    if (g == skip_seen)
        return;
    skip_seen = g;
    n = S->nskip < P54C_SKIP_MAX ? S->nskip : P54C_SKIP_MAX;
    for (uint32_t i = 0; i < n; i++) {
        skip_r[i][0] = S->skip[i][0];
        skip_r[i][1] = S->skip[i][1];
        skip_base_r[i] = S->skip_base[i] != 0;
    }
    nskip_r = n;
    stack_update();
    qemu_plugin_reset(plugin_id, reinstall);
}

/* The caches (p54c_cache.c, shared with the compiled engine) */
static p54c_mem_t M;
/* The DWORD the previous modelled store ended in (p54c_mem_access). */
static uint64_t last_store_dw = UINT64_MAX;

static uint64_t flush_seen;

/* The HAL flushed the caches (rck_hal_dcache_flush: WBINVD on the P54C,
 * RCCE_DCMflush): it charged the write-backs from l2_valid and l2_dirty;
 * here the lines go. */
static void caches_drop(void)
{
    p54c_mem_drop(&M);
    flush_seen = S->flush_req;
}

static void mem_cb(unsigned int vcpu, qemu_plugin_meminfo_t info,
                   uint64_t va, void *ud)
{
    (void)vcpu;
    (void)ud;
    if (S->in_hal)
        return;
    if (S->flush_req != flush_seen)
        caches_drop();
    if (va - stack_lo_r < stack_len_r)
        va += stack_shift;
    p54c_mem_access(&M, va, 1u << qemu_plugin_mem_size_shift(info),
                    qemu_plugin_mem_is_store(info));
}

/* The lines a block fetches: one range, or one per run of its
 * instructions that lie together in the unchecked layout (checked code:
 * p54c_fmap.c). */
typedef struct {
    uint32_t n;
    uint64_t r[][2]; /* first, last line */
} tb_lines_t;

static void tb_exec_cb(unsigned int vcpu, void *ud)
{
    const tb_lines_t *t = ud;

    (void)vcpu;
    if (S->in_hal)
        return;
    if (S->flush_req != flush_seen)
        caches_drop();
    for (uint32_t i = 0; i < t->n; i++)
        p54c_mem_fetch(&M, t->r[i][0], t->r[i][1]);
}

/* The block's instructions' bytes [lo, hi) as fetched (@p rs, *@p nr
 * ranges of at most @p cap): a new range unless they continue the last
 * one within a line. */
static void lines_add(uint64_t (*rs)[2], uint32_t *nr, uint32_t cap,
                      uint64_t lo, uint64_t hi)
{
    uint64_t f = lo >> M.line_shift, l = (hi - 1) >> M.line_shift;
    if (*nr > 0 && f + 1 >= rs[*nr - 1][0] && f <= rs[*nr - 1][1] + 1) {
        if (f < rs[*nr - 1][0])
            rs[*nr - 1][0] = f;
        if (l > rs[*nr - 1][1])
            rs[*nr - 1][1] = l;
        return;
    }
    if (*nr == cap) { /* cannot happen: one range per instruction */
        rs[cap - 1][1] = l > rs[cap - 1][1] ? l : rs[cap - 1][1];
        return;
    }
    rs[*nr][0] = f;
    rs[*nr][1] = l;
    ++*nr;
}

/* ---- the gate (docs/P54C.md, "Native booking") ----
 * When the HAL's gate function runs, the slice's DRAM transactions are
 * booked here, natively, by the same code the HAL would run under QEMU
 * (sim_p54c_book.c, linked into this plugin). Its pointers are the core's:
 * valid here only if QEMU maps the guest at guest base 0, which
 * gate_check() verifies on the slot itself before the gate is opened. */
static int gate_checked;

static void gate_check(void)
{
    uint64_t self = S->self;
    p54c_slot_t there;
    int fd = open("/proc/self/mem", O_RDONLY | O_CLOEXEC);

    gate_checked = 1;
    /* read through /proc/self/mem, which fails cleanly where nothing
     * readable is mapped: the core's address of its slot must hold the
     * slot (only the configuration at its start is compared) */
    if (fd < 0)
        return;
    if (pread(fd, &there, offsetof(p54c_slot_t, shm_base), (off_t)self) ==
            (ssize_t)offsetof(p54c_slot_t, shm_base) &&
        memcmp(&there, S, offsetof(p54c_slot_t, shm_base)) == 0 &&
        (uintptr_t)S != self) /* else we compared our own mapping */
        S->gate_ok = 1;
    close(fd);
}

static void gate_cb(unsigned int vcpu, void *ud)
{
    (void)vcpu;
    (void)ud;
    if (!S->gate_ok || S->gate_arg == 0)
        return;
    sim_p54c_book((sim_p54c_book_t *)(uintptr_t)S->gate_arg);
    S->gate_done++;
}

/* Where a block that ends in an open tail of the counters' sequence (popf
 * last, the closing lea next) is followed: the address of that lea. */
static GHashTable *open_tails;

/* Where execution continues inside a memory check (code built with
 * RCK_AS_MEM=1): a block that ends inside one is followed, and its direct
 * jump's target is, by instructions of the same check. */
static GHashTable *in_heads;

static void in_head_add(uint64_t va)
{
    uint64_t *k = g_new(uint64_t, 1);
    *k = va;
    if (in_heads == NULL)
        in_heads = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free,
                                         NULL);
    g_hash_table_add(in_heads, k);
}

/* The checks' instructions into @p skip (from the check's first to its
 * last, across blocks). */
static void checks_mark(struct qemu_plugin_tb *tb, size_t n, uint8_t *skip)
{
    uint64_t va0 = qemu_plugin_tb_vaddr(tb);
    int in = in_heads != NULL && g_hash_table_contains(in_heads, &va0);

    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *in_ = qemu_plugin_tb_get_insn(tb, i);
        int e = p54c_check_edge(qemu_plugin_insn_data(in_),
                                qemu_plugin_insn_size(in_));
        if (!in && e == 1)
            in = 1;
        if (in) {
            skip[i] = 1;
            if (e == 2)
                in = 0;
        }
    }
    if (in && n > 0) {
        struct qemu_plugin_insn *last = qemu_plugin_tb_get_insn(tb, n - 1);
        uint64_t va = qemu_plugin_insn_vaddr(last), t;
        size_t sz = qemu_plugin_insn_size(last);
        in_head_add(va + sz);
        /* QEMU 7.2 may show an instruction that crosses into the next page
         * at the end of a block (with the first page's bytes only), then
         * translate it again as the next block's first (docs/P54C.md) */
        in_head_add(va);
        if (p54c_direct_target(qemu_plugin_insn_data(last), sz, va, &t))
            in_head_add(t);
    }
}

/* Instructions of a block the stack arrays hold (QEMU's limit is 512). */
#define CTR_TB_MAX 512

/* The units the compiled counters' `addq $imm, 0x100080` of a block adds
 * (imm32 or imm8 form), or -1 for any other instruction. */
static int64_t units_add(const uint8_t *b, size_t n)
{
    uint32_t disp;

    if (n < 9 || b[0] != 0x48 || b[2] != 0x04 || b[3] != 0x25)
        return -1;
    disp = (uint32_t)b[4] | (uint32_t)b[5] << 8 | (uint32_t)b[6] << 16 |
           (uint32_t)b[7] << 24;
    if (disp != P54C_CTR_ADDR + P54C_CTR_UNITS_OFF)
        return -1;
    if (b[1] == 0x81 && n == 12)
        return (int32_t)((uint32_t)b[8] | (uint32_t)b[9] << 8 |
                         (uint32_t)b[10] << 16 | (uint32_t)b[11] << 24);
    if (b[1] == 0x83 && n == 9)
        return (int8_t)b[8];
    return -1;
}

/* which of the block's @p n instructions are the compiled counters' or
 * the checks' own (@p skip), from their kinds (@p kind, filled here) */
static void tb_mark(struct qemu_plugin_tb *tb, size_t n, int *kind,
                    uint8_t *skip)
{
    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *in = qemu_plugin_tb_get_insn(tb, i);
        kind[i] = p54c_ctr_kind(qemu_plugin_insn_data(in),
                                qemu_plugin_insn_size(in));
    }
    /* a block that follows an open tail starts where that one ended:
     * addresses kept in a set (blocks are translated once, or again
     * after a flush with the same answer) */
    uint64_t tb_va = qemu_plugin_tb_vaddr(tb);
    int open_head = open_tails != NULL &&
                    g_hash_table_contains(open_tails, &tb_va);
    if (p54c_ctr_mark(kind, n, skip, open_head) && n > 0) {
        struct qemu_plugin_insn *last = qemu_plugin_tb_get_insn(tb, n - 1);
        uint64_t *next = g_new(uint64_t, 1);
        *next = qemu_plugin_insn_vaddr(last) + qemu_plugin_insn_size(last);
        if (open_tails == NULL)
            open_tails = g_hash_table_new_full(g_int64_hash, g_int64_equal,
                                               g_free, NULL);
        g_hash_table_add(open_tails, next);
    }
    checks_mark(tb, n, skip);
    if (getenv("RCK_P54C_TBDEBUG") != NULL) {
        fprintf(stderr, "tb %#llx n=%zu skip=", (unsigned long long)tb_va, n);
        for (size_t i = 0; i < n; i++)
            fputc(skip[i] ? 's' : '.', stderr);
        fputc('\n', stderr);
    }
}

/* Checked code (docs/P54C.md, "Cycles where the compiled engine charges
 * them"): its blocks end at every check, so a block's cycles added at its
 * start would fall between the stores of one compiled block, which the
 * compiled engine charges all at the block's counter add; they are
 * charged at that add here too (its immediate, the sum over the block's
 * instructions by the same classifier and table), but a string
 * instruction's, charged per iteration as before. 1 for such a block. */
static int tb_checked(struct qemu_plugin_tb *tb, size_t n)
{
    struct qemu_plugin_insn *in0;

    if (!S->detailed || n == 0)
        return 0;
    in0 = qemu_plugin_tb_get_insn(tb, 0);
    return p54c_fmap_checked(qemu_plugin_insn_vaddr(in0),
                             qemu_plugin_insn_size(in0),
                             qemu_plugin_insn_data(in0));
}

/* The last instruction of a block that ends at a page's end. qemu-x86_64
 * 7.2 ends a block before an instruction that crosses into another page
 * (but for the block's first), and the plugin's block still holds that
 * instruction, cut at the page's end (its first bytes only), which never
 * runs there: the next block starts with it and runs it. Counted with the
 * block, it was counted twice (sim.p54c.hal_engines: 2-3 instructions an
 * iteration more than the compiled engine, by where the libraries' pages
 * ended). Counted when it runs instead: an add of its own, which a cut
 * instruction never makes, and one that really ends at the page's end
 * does. Its cycles likewise (where the block's are charged). */
#define P54C_QEMU_PAGE 4096u
static void insn_cut(struct qemu_plugin_insn *in, const uint8_t *bytes,
                     size_t sz, int checked)
{
    qemu_plugin_register_vcpu_insn_exec_inline(in, QEMU_PLUGIN_INLINE_ADD_U64,
                                               &S->insns, 1);
    if (!checked || p54c_string_width(bytes, sz) != 0) {
        uint64_t u = p54c_insn_units(bytes, sz, S->cpi, NULL);
        if (u > 0)
            qemu_plugin_register_vcpu_insn_exec_inline(
                in, QEMU_PLUGIN_INLINE_ADD_U64, &S->units, u);
    }
}

static void tb_trans_cb(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    size_t n = qemu_plugin_tb_n_insns(tb);
    uint64_t units = 0, lo = UINT64_MAX, hi = 0;

    (void)id;
    if (!gate_checked && S->self != 0 && S->gate_pc != 0)
        gate_check();
    skip_update();
    if (S->gate_pc != 0 && qemu_plugin_tb_vaddr(tb) == S->gate_pc)
        qemu_plugin_register_vcpu_tb_exec_cb(tb, gate_cb,
                                             QEMU_PLUGIN_CB_NO_REGS, NULL);
    /* the compiled memory model's slow paths, the simulator's own code,
     * the PLT stubs: neither counted nor modelled */
    if (qemu_plugin_tb_vaddr(tb) - S->skip_lo < S->skip_hi - S->skip_lo ||
        (n > 0 && skipped(qemu_plugin_tb_vaddr(tb)) &&
         skipped(qemu_plugin_insn_vaddr(qemu_plugin_tb_get_insn(tb, n - 1)))))
        return;
    /* the compiled counters' own instructions (code built by rckcc) are
     * not the program's: neither counted nor traced */
    int kind_s[CTR_TB_MAX];
    uint8_t skip_s[CTR_TB_MAX];
    int *kind = n <= CTR_TB_MAX ? kind_s : g_new(int, n);
    uint8_t *skip = n <= CTR_TB_MAX ? skip_s : g_new(uint8_t, n);
    size_t counted = 0;
    int late = 0;
    /* the lines fetched, at the unchecked addresses where a fetch map
     * has them */
    uint64_t (*rs)[2] = g_malloc((n + 1) * sizeof(*rs));
    uint32_t nr = 0;

    tb_mark(tb, n, kind, skip);
    int checked = tb_checked(tb, n);
    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *in = qemu_plugin_tb_get_insn(tb, i);
        uint64_t va = qemu_plugin_insn_vaddr(in);
        size_t sz = qemu_plugin_insn_size(in);

        const uint8_t *bytes = qemu_plugin_insn_data(in);
        if (checked && skip[i]) {
            int64_t add = units_add(bytes, sz);
            if (add > 0)
                qemu_plugin_register_vcpu_insn_exec_inline(
                    in, QEMU_PLUGIN_INLINE_ADD_U64, &S->units,
                    (uint64_t)add);
        }
        if (skip[i] || skipped(va) || p54c_is_nop(bytes, sz))
            continue;
        if (i + 1 == n && n > 1 && ((va + sz) & (P54C_QEMU_PAGE - 1)) == 0) {
            /* counted when it runs: it may be cut (insn_cut) */
            insn_cut(in, bytes, sz, checked);
            late = 1;
        } else {
            counted++;
            if (!checked || p54c_string_width(bytes, sz) != 0)
                units += p54c_insn_units(bytes, sz, S->cpi, NULL);
        }
        if (S->detailed) {
            uint64_t flo, fhi;
            if (p54c_fmap_lookup(va, sz, bytes, &flo, &fhi)) {
                lines_add(rs, &nr, (uint32_t)n, flo, fhi);
            } else {
                /* where it runs: the block's span, as one range */
                if (va < lo)
                    lo = va;
                if (va + sz > hi)
                    hi = va + sz;
            }
        }
        /* every store, a call's into the simulator's code too: the
         * compiled engine models every call's return address (rck-as
         * cannot tell where a call goes), and so does the plugin since
         * 2026-11-28 ("Why the engines disagreed on NAS BT.S") */
        if (S->detailed)
            qemu_plugin_register_vcpu_mem_cb(in, mem_cb,
                                             QEMU_PLUGIN_CB_NO_REGS,
                                             QEMU_PLUGIN_MEM_RW, NULL);
    }
    if (kind != kind_s) {
        g_free(kind);
        g_free(skip);
    }
    if (counted == 0 && !late) {
        g_free(rs);
        return;
    }
    if (counted > 0)
        qemu_plugin_register_vcpu_tb_exec_inline(
            tb, QEMU_PLUGIN_INLINE_ADD_U64, &S->insns, counted);
    if (units > 0)
        qemu_plugin_register_vcpu_tb_exec_inline(
            tb, QEMU_PLUGIN_INLINE_ADD_U64, &S->units, units);
    if (lo < hi) {
        rs[nr][0] = lo >> M.line_shift;
        rs[nr][1] = (hi - 1) >> M.line_shift;
        nr++;
    }
    if (S->detailed && nr > 0) {
        /* freed never: blocks live as long as the process */
        tb_lines_t *t = g_malloc(sizeof(*t) + nr * sizeof(t->r[0]));
        t->n = nr;
        memcpy(t->r, rs, nr * sizeof(t->r[0]));
        qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec_cb,
                                             QEMU_PLUGIN_CB_NO_REGS, t);
    }
    g_free(rs);
}

static int fail(const char *what)
{
    fprintf(stderr, "rck p54c plugin: %s\n", what);
    return -1;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
                                           const qemu_info_t *info, int argc,
                                           char **argv)
{
    long fd = -1;
    unsigned long long off = 0;
    long pg;
    size_t bytes;
    void *map;

    if (strcmp(info->target_name, "x86_64") != 0)
        return fail("only x86_64 guests are modelled");
    for (int i = 0; i < argc; i++) {
        if (!strncmp(argv[i], "fd=", 3))
            fd = strtol(argv[i] + 3, NULL, 10);
        else if (!strncmp(argv[i], "off=", 4))
            off = strtoull(argv[i] + 4, NULL, 10);
        else
            return fail("unknown argument (expected fd=N,off=BYTES)");
    }
    if (fd < 0)
        return fail("no fd= argument (the sim backend's launcher passes it)");
    pg = 4096;
    bytes = sizeof(p54c_slot_t);
    if (off % (unsigned long long)pg != 0)
        return fail("off= is not page-aligned");
    map = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, (int)fd,
               (off_t)off);
    if (map == MAP_FAILED)
        return fail("cannot map the slot of this core");
    S = map;
    if (S->magic != P54C_ABI_MAGIC)
        return fail("the slot holds no configuration (wrong fd= or off=)");
    if (S->line_bytes == 0 || (S->line_bytes & (S->line_bytes - 1)) != 0)
        return fail("the line size in the slot is not a power of two");
    bytes = p54c_mem_bytes(S);
    if (bytes == 0 || p54c_mem_init(&M, S, g_malloc0(bytes)) != 0)
        return fail("bad cache geometry in the slot");
    M.last_dw = &last_store_dw;
    plugin_id = id;
    skip_seen = S->skip_gen;
    qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans_cb);
    __atomic_store_n(&S->plugin, P54C_PLUGIN_MAGIC, __ATOMIC_RELEASE);
    return 0;
}
