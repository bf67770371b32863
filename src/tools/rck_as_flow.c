/*
 * rck-as: basic blocks, flag liveness over the file's control-flow graph,
 * where each block's adds go, and the two texts the real assembler gets
 * (docs/P54C-COUNTERS.md).
 */
#include "rck_as.h"

#include <stdlib.h>
#include <string.h>

#include "p54c_abi.h"
#include "qemu/p54c_classify.h"

as_stats_t as_stats;

typedef struct {
    int first_insn;   /* item index of its first instruction, -1: none */
    int last;         /* item index of its last item */
    int opaque;       /* an inline-asm region */
    int succ[2];      /* fall-through, jump target (-1: none) */
    int ue, kill;     /* a read before any full write; a write before */
    int live_in;
    uint32_t ins, units;
    uint32_t rd, wr;  /* modelled loads and stores (RCK_AS_MEM) */
    int at, after;    /* insertion: before item `at` (after it if `after`) */
    int seq2;
} block_t;

typedef struct {
    const char *name;
    int block;
} label_t;

static int label_cmp(const void *a, const void *b)
{
    return strcmp(((const label_t *)a)->name, ((const label_t *)b)->name);
}

/* Labels that only mark positions for debug information; GCC never jumps
 * to them: .LVL, .LBB, .LBE, .LFB, .LFE, .LCFI, .Ltext, .LHOTB, ... (its
 * branch targets are .L<digits> and real symbols). */
static int debug_label(const char *s)
{
    return s[0] == '.' && s[1] == 'L' && s[2] && !(s[2] >= '0' && s[2] <= '9');
}

typedef struct {
    block_t *b;
    int n, cap;
    label_t *lab;
    int nlab, labcap;
} cfg_t;

/* Room for one more element in the array *@p arr of *@p cap elements of
 * @p size bytes, @p n in use (doubling). @return 0 or -1. */
static int grow(void **arr, int *cap, int n, size_t size)
{
    if (n < *cap)
        return 0;
    int c = *cap ? *cap * 2 : 256;
    void *p = realloc(*arr, (size_t)c * size);
    if (p == NULL)
        return -1;
    *arr = p;
    *cap = c;
    return 0;
}

static int new_block(cfg_t *g)
{
    if (grow((void **)&g->b, &g->cap, g->n, sizeof(*g->b)) != 0)
        return -1;
    block_t *b = &g->b[g->n];
    memset(b, 0, sizeof(*b));
    b->first_insn = b->at = -1;
    b->succ[0] = b->succ[1] = -1;
    return g->n++;
}

static int add_label(cfg_t *g, const char *name, int block)
{
    if (grow((void **)&g->lab, &g->labcap, g->nlab, sizeof(*g->lab)) != 0)
        return -1;
    g->lab[g->nlab].name = name;
    g->lab[g->nlab++].block = block;
    return 0;
}

/* A section's flow (sections interleave in the text; a block continues
 * across other sections' lines). `open`: the block new instructions join
 * (-1: start one); `last`: the section's last block, which falls through
 * into its next one unless it ended in an unconditional transfer. */
typedef struct {
    int open, last, last_falls;
} flow_t;

static int start_block(cfg_t *g, flow_t *fl, int opaque)
{
    int b = new_block(g);
    if (b < 0)
        return -1;
    g->b[b].opaque = opaque;
    if (fl->last >= 0 && fl->last_falls)
        g->b[fl->last].succ[0] = b;
    fl->open = fl->last = b;
    fl->last_falls = 1;
    return b;
}

static int place_item(cfg_t *g, flow_t *fl, as_file_t *f, size_t i)
{
    as_item_t *it = &f->it[i];
    if (it->kind == IT_APP) {
        if (it->app_begin && start_block(g, fl, 1) < 0)
            return -1;
        if (fl->open < 0)
            return 0;   /* #APP outside text: no block */
        it->block = fl->open;
        g->b[fl->open].last = (int)i;
        if (!it->app_begin && strstr(it->text, "#NO_APP"))
            fl->open = -1;
        return 0;
    }
    if (it->kind == IT_LABEL && !debug_label(it->label)) {
        if (fl->open < 0 || g->b[fl->open].first_insn >= 0 ||
            g->b[fl->open].opaque)
            if (start_block(g, fl, 0) < 0)
                return -1;
        it->block = fl->open;
        return add_label(g, it->label, fl->open);
    }
    if (it->kind != IT_INSN)
        return 0;
    if (fl->open < 0 && start_block(g, fl, 0) < 0)
        return -1;
    block_t *b = &g->b[fl->open];
    it->block = fl->open;
    if (b->first_insn < 0)
        b->first_insn = (int)i;
    b->last = (int)i;
    if (it->br != BR_NONE) {
        fl->open = -1;
        fl->last_falls = it->br == BR_JCC || it->br == BR_CALL;
    }
    return 0;
}

/* The blocks of the file's text sections, in order, with their labels.
 * Each section has its own flow: a block falls through into the next
 * block of its own section. */
static int build(cfg_t *g, as_file_t *f)
{
    flow_t *fl = malloc((size_t)(f->nsec > 0 ? f->nsec : 1) * sizeof(*fl));
    if (!fl)
        return -1;
    for (int s = 0; s < f->nsec; s++)
        fl[s] = (flow_t){-1, -1, 0};
    for (size_t i = 0; i < f->n; i++) {
        as_item_t *it = &f->it[i];
        if (it->text_sec && place_item(g, &fl[it->sec], f, i) != 0) {
            free(fl);
            return -1;
        }
    }
    free(fl);
    if (g->nlab > 0)
        qsort(g->lab, (size_t)g->nlab, sizeof(*g->lab), label_cmp);
    return 0;
}

/* The block a direct jump goes to: -1 outside the file (flags dead
 * there), -2 unknown (a numeric label such as 1f: taken as live). */
static int target_block(const cfg_t *g, const char *name)
{
    label_t key = {name, 0};
    label_t *l = g->nlab ? bsearch(&key, g->lab, (size_t)g->nlab,
                                   sizeof(*g->lab), label_cmp)
                         : NULL;
    if (l)
        return l->block;
    size_t n = strlen(name);
    if (n >= 2 && (name[n - 1] == 'f' || name[n - 1] == 'b') &&
        name[0] >= '0' && name[0] <= '9')
        return -2;
    return -1;
}

/* Successors, and each block's own effect: ue (the flags are read before
 * any full write) and kill (fully written before any read). */
static void summarize(cfg_t *g, const as_file_t *f)
{
    for (int k = 0; k < g->n; k++) {
        block_t *b = &g->b[k];
        if (b->opaque) {
            b->ue = 1;   /* inline asm: taken as reading them */
            continue;
        }
        if (b->first_insn < 0)
            continue;
        for (int i = b->first_insn; i <= b->last; i++) {
            const as_item_t *it = &f->it[i];
            if (it->kind != IT_INSN || it->block != k)
                continue;
            if (!b->ue && !b->kill) {
                if (it->fx == FX_READ)
                    b->ue = 1;
                else if (it->fx == FX_WRITE || it->fx == FX_KILL)
                    b->kill = 1;
            }
            if (i == b->last && it->target &&
                (it->br == BR_JMP || it->br == BR_JCC)) {
                int t = target_block(g, it->target);
                if (t == -2)
                    b->ue |= !b->kill; /* unknown target: live */
                b->succ[1] = t >= 0 ? t : -1;
            }
        }
    }
}

/* Are the flags live at the end of block @p b (read by a successor)? */
static int live_out(const cfg_t *g, const block_t *b)
{
    int out = 0;
    for (int s = 0; s < 2; s++)
        if (b->succ[s] >= 0)
            out |= g->b[b->succ[s]].live_in;
    return out;
}

static void liveness(cfg_t *g)
{
    for (int changed = 1; changed;) {
        changed = 0;
        for (int k = g->n - 1; k >= 0; k--) {
            block_t *b = &g->b[k];
            int in = b->ue || (!b->kill && live_out(g, b));
            if (in != b->live_in) {
                b->live_in = in;
                changed = 1;
            }
        }
    }
}

/* Whether the flags are live before each instruction (it->flags_live):
 * backwards through each block from what its successors need. */
static void item_liveness(cfg_t *g, as_file_t *f)
{
    for (int k = 0; k < g->n; k++) {
        block_t *b = &g->b[k];
        if (b->opaque || b->first_insn < 0)
            continue;
        int live = live_out(g, b);
        for (int i = b->last; i >= b->first_insn; i--) {
            as_item_t *it = &f->it[i];
            if (it->kind != IT_INSN || it->block != k)
                continue;
            if (i == b->last && it->target &&
                (it->br == BR_JMP || it->br == BR_JCC) &&
                target_block(g, it->target) == -2)
                live = 1; /* a numeric label: taken as reading them */
            if (it->fx == FX_READ)
                live = 1;
            else if (it->fx == FX_WRITE || it->fx == FX_KILL)
                live = 0;
            it->flags_live = live;
        }
    }
}

/* Counts and the insertion point of every block. */
static void place(cfg_t *g, as_file_t *f)
{
    for (int k = 0; k < g->n; k++) {
        block_t *b = &g->b[k];
        if (b->opaque || b->first_insn < 0)
            continue;
        int writer = -1, first = -1, endbr = -1;
        for (int i = b->first_insn; i <= b->last; i++) {
            const as_item_t *it = &f->it[i];
            if (it->kind != IT_INSN || it->block != k)
                continue;
            /* a rep string instruction counts once here and once per
             * iteration in its own sequence: QEMU runs it as one
             * instruction per iteration plus the test that ends it */
            b->ins++;
            b->units += it->units;
            for (int j = 0; j < it->nmem; j++) {
                if (it->mem[j].store == 0)
                    b->rd++;
                else if (it->mem[j].store == 1)
                    b->wr++;
            }
            if (it->endbr && first < 0)
                endbr = i;
            else if (first < 0)
                first = i;
            if (writer < 0 && it->fx == FX_WRITE)
                writer = i;
        }
        as_stats.blocks++;
        if (b->ins == 0)
            continue;
        /* nothing goes before an endbr (indirect branches land on it) */
        b->after = first < 0;
        if (!b->live_in) {
            b->at = first >= 0 ? first : endbr;
            as_stats.at_start++;
        } else if (writer >= 0) {
            b->at = writer;
            as_stats.at_writer++;
        } else {
            b->at = first >= 0 ? first : endbr;
            b->seq2 = 1;
            as_stats.seq2++;
        }
        as_stats.seq1 += !b->seq2;
    }
}

#define CTR_INS "0x100040"
#define CTR_UNITS "0x100080"

static void put_adds(FILE *out, const block_t *b)
{
    if (b->seq2)
        fputs("\tleaq\t-128(%rsp), %rsp\n\tpushfq\n", out);
    fprintf(out, "\taddq\t$%u, " CTR_INS "\n\taddq\t$%u, " CTR_UNITS "\n",
            b->ins, b->units);
    if (b->rd > 0)
        fprintf(out, "\taddq\t$%u, %#llx\n", b->rd,
                (unsigned long long)(P54C_CTR_ADDR + P54C_CTR_RD_OFF));
    if (b->wr > 0)
        fprintf(out, "\taddq\t$%u, %#llx\n", b->wr,
                (unsigned long long)(P54C_CTR_ADDR + P54C_CTR_WR_OFF));
    if (b->seq2)
        fputs("\tpopfq\n\tleaq\t128(%rsp), %rsp\n", out);
}

static void put_rep(FILE *out, uint32_t per_iter)
{
    fprintf(out,
            "\tleaq\t-128(%%rsp), %%rsp\n\tpushfq\n\tpushq\t%%rax\n"
            "\timulq\t$%u, %%rcx, %%rax\n\taddq\t%%rax, " CTR_UNITS "\n"
            "\taddq\t%%rcx, " CTR_INS "\n\tpopq\t%%rax\n\tpopfq\n"
            "\tleaq\t128(%%rsp), %%rsp\n",
            per_iter);
}

/* ---- the compiled memory model's checks (RCK_AS_MEM=1) ----
 * Every check starts by saving %rax (the plugin's start marker) and ends
 * by restoring it (its end marker); nothing of the program's lies between
 * (docs/P54C-COUNTERS.md, "Memory accesses"). With the flags live, the
 * check saves them too, below the red zone. */
#define PG(off) ((unsigned long long)(P54C_CTR_ADDR + (off)))
_Static_assert(P54C_FI_SHIFT <= 3 && (P54C_FI_N << P54C_FI_SHIFT) <= 4096,
               "the fetch filter's index is the address masked, scaled");

static int check_no;

/* The block the segments being written belong to: the item of its first
 * segment, and whether it has more than one (then the first segment's
 * fetch check settles all of them when it can, seq_fetch_block, and the
 * others test P54C_CTR_BLK_OFF before their own). */
static int blk_seg0 = -1, blk_multi;

static void seq_fetch(FILE *out, int seg, int live);
static void seq_fetch_block(FILE *out, int seg, int live);

/* A check's start: %rax and %rcx saved, %rax the address @p addr (if not
 * NULL), the flags saved if @p live; with @p seg >= 0, first the fetch of
 * the segment of instructions that starts at item @p seg (the check's
 * address waits in the page meanwhile). */
static void seq_open(FILE *out, const char *addr, int live, int seg)
{
    fprintf(out, "\tmovq\t%%rax, %#llx\n\tmovq\t%%rcx, %#llx\n",
            PG(P54C_CTR_SA_OFF), PG(P54C_CTR_SC_OFF));
    if (addr != NULL)
        fprintf(out, "\tleaq\t%s, %%rax\n", addr);
    if (live)
        fputs("\tleaq\t-128(%rsp), %rsp\n\tpushfq\n", out);
    if (seg < 0)
        return;
    int skip = -1;
    if (blk_multi && seg != blk_seg0) {
        /* a later segment of a block whose first settled them all */
        skip = check_no++;
        fprintf(out,
                "\tleaq\t.Lrck_ua%d(%%rip), %%rcx\n\tcmpq\t%%rcx, %#llx\n"
                "\tje\t.Lrck_b%d\n",
                blk_seg0, PG(P54C_CTR_BLK_OFF), skip);
    }
    if (addr != NULL)
        fprintf(out, "\tmovq\t%%rax, %#llx\n", PG(P54C_CTR_SD_OFF));
    if (blk_multi && seg == blk_seg0)
        seq_fetch_block(out, seg, live);
    else
        seq_fetch(out, seg, live);
    if (addr != NULL)
        fprintf(out, "\tmovq\t%#llx, %%rax\n", PG(P54C_CTR_SD_OFF));
    if (skip >= 0)
        fprintf(out, ".Lrck_b%d:\n", skip);
}

/* The call of a slow path (%ecx: @p kind, unless negative). */
static void seq_slow(FILE *out, int live, unsigned slow_off, long kind)
{
    if (!live)
        fputs("\tleaq\t-128(%rsp), %rsp\n", out);
    if (kind >= 0)
        fprintf(out, "\tmovl\t$%ld, %%ecx\n", kind);
    fprintf(out, "\tcall\t*%#llx\n", PG(slow_off));
    if (!live)
        fputs("\tleaq\t128(%rsp), %rsp\n", out);
}

static void seq_close(FILE *out, int live)
{
    if (live)
        fputs("\tpopfq\n\tleaq\t128(%rsp), %rsp\n", out);
    fprintf(out, "\tmovq\t%#llx, %%rcx\n\tmovq\t%#llx, %%rax\n",
            PG(P54C_CTR_SC_OFF), PG(P54C_CTR_SA_OFF));
}

/* %rcx = the filter entry at @p filt_off of %rax's line, xor %rax: below
 * 32 if it names that line. */
static void seq_probe(FILE *out, unsigned filt_off)
{
    fprintf(out,
            "\tmovq\t%%rax, %%rcx\n\tshrq\t$5, %%rcx\n"
            "\tmovzbl\t%%cl, %%ecx\n\tmovq\t%#llx(,%%rcx,8), %%rcx\n"
            "\txorq\t%%rax, %%rcx\n\tcmpq\t$31, %%rcx\n",
            PG(filt_off));
}

/* The same for the store filter (P54C_FS_N words, by line &
 * (P54C_FS_N - 1)): as many instructions. */
static void seq_probe_store(FILE *out)
{
    fprintf(out,
            "\tmovl\t%%eax, %%ecx\n\tshrl\t$5, %%ecx\n"
            "\tandl\t$%u, %%ecx\n\tmovq\t%#llx(,%%rcx,8), %%rcx\n"
            "\txorq\t%%rax, %%rcx\n\tcmpq\t$31, %%rcx\n",
            P54C_FS_N - 1, PG(P54C_CTR_FS_OFF));
}

static void put_load(FILE *out, const as_mem_t *a, int live, int seg)
{
    int n = check_no++;
    seq_open(out, a->addr, live, seg);
    seq_probe(out, P54C_CTR_FD_OFF);
    fprintf(out, "\tjbe\t.Lrck_m%d\n", n);
    seq_slow(out, live, P54C_CTR_SLOWD_OFF, a->size);
    fprintf(out, ".Lrck_m%d:\n", n);
    seq_close(out, live);
}

/* A store's fast path: not merged with the previous store, aligned, its
 * line in the store filter; then the counts and the L2 write port as
 * p54c_cache.c's data_write would do them. */
static void put_store(FILE *out, const as_mem_t *a, int live, int seg)
{
    int n = check_no++;
    unsigned sz = a->size;
    seq_open(out, a->addr, live, seg);
    fprintf(out,
            "\tmovq\t%%rax, %%rcx\n\tshrq\t$2, %%rcx\n"
            "\tcmpq\t%#llx, %%rcx\n\tje\t.Lrck_s%d\n",
            PG(P54C_CTR_LASTDW_OFF), n);
    if (sz > 1)
        fprintf(out, "\ttestb\t$%u, %%al\n\tjne\t.Lrck_s%d\n", sz - 1, n);
    seq_probe_store(out);
    fprintf(out, "\tja\t.Lrck_s%d\n", n);
    fprintf(out,
            "\txorl\t%%eax, %%ecx\n\tandl\t$1, %%ecx\n"
            "\taddq\t%%rcx, %#llx\n"
            "\tleaq\t%u(%%rax), %%rcx\n\tshrq\t$2, %%rcx\n"
            "\tmovq\t%%rcx, %#llx\n"
            "\tmovq\t%#llx, %%rcx\n\tcmpq\t%#llx, %%rcx\n"
            "\tcmovbq\t%#llx, %%rcx\n",
            PG(P54C_CTR_L1DMISS_OFF), sz - 1, PG(P54C_CTR_LASTDW_OFF),
            PG(P54C_CTR_UNITS_OFF), PG(P54C_CTR_WRFREE_OFF),
            PG(P54C_CTR_WRFREE_OFF));
    if (sz == 8)
        fprintf(out, "\taddq\t%#llx, %%rcx\n", PG(P54C_CTR_L2S_OFF));
    fprintf(out,
            "\tmovq\t%%rcx, %#llx\n\taddq\t%#llx, %%rcx\n"
            "\tmovq\t%%rcx, %#llx\n\tjmp\t.Lrck_d%d\n.Lrck_s%d:\n",
            PG(P54C_CTR_UNITS_OFF), PG(P54C_CTR_L2S_OFF),
            PG(P54C_CTR_WRFREE_OFF), n, n);
    seq_slow(out, live, P54C_CTR_SLOWD_OFF, (long)sz | P54C_MK_STORE);
    fprintf(out, ".Lrck_d%d:\n", n);
    seq_close(out, live);
}

static void put_rep_mem(FILE *out, const as_mem_t *a, int live, int seg)
{
    seq_open(out, NULL, live, seg);
    seq_slow(out, live, P54C_CTR_SLOWD_OFF,
             (long)a->size | P54C_MK_REP |
                 (long)(a->store - 1) << P54C_MK_OP_SHIFT);
    seq_close(out, live);
}

/* The fetch of the lines of a segment: the program's instructions from
 * item @p seg up to the next check, as QEMU fetches the lines of its block
 * of them, at the addresses they have in the unchecked code (the shadow's
 * .Lrck_ua<seg> to .Lrck_uz<seg>, rck_as_shadow.c); settled inline when
 * the fetch filter holds the segment in the current epoch. */
/* The fetch filter's lookup of segment @p seg's first byte: leaves the
 * entry xor the address xor the epoch in %rcx (zero: settled), and the
 * flags of that last xor. The entry's index, bits 2-11 of the address
 * (P54C_FI_SHIFT, P54C_FI_N), is taken in place (the address masked, the
 * scale 2): 10 bytes with a 2-byte nop, as many as the 8-bit index by
 * bits 4-11 took before layout version 3, so that no checked code moves
 * (the QEMU engine counts an instruction that crosses a page at the end
 * of a block twice: tests/sim/p54c_mem.c's kernels are laid out not to). */
static void seq_fetch_lookup(FILE *out, int seg)
{
    fprintf(out,
            "\tleaq\t.Lrck_ua%d(%%rip), %%rax\n"
            "\tmovl\t%%eax, %%ecx\n\tandl\t$%d, %%ecx\n\txchgw\t%%ax, %%ax\n"
            "\tmovq\t%#llx(,%%rcx,%d), %%rcx\n"
            "\txorq\t%%rax, %%rcx\n\txorq\t%#llx, %%rcx\n",
            seg, (P54C_FI_N - 1) << P54C_FI_SHIFT, PG(P54C_CTR_FI_OFF),
            8 >> P54C_FI_SHIFT, PG(P54C_CTR_FIKEY_OFF));
}

static void seq_fetch(FILE *out, int seg, int live)
{
    int n = check_no++;
    seq_fetch_lookup(out, seg);
    fprintf(out,
            "\tje\t.Lrck_g%d\n"
            "\tleaq\t.Lrck_uz%d-1(%%rip), %%rcx\n",
            n, seg);
    seq_slow(out, live, P54C_CTR_SLOWI_OFF, -1);
    fprintf(out, ".Lrck_g%d:\n", n);
}

/* The first segment's fetch of a block of several: the fetch filter's
 * entry of the block's first byte says that every line of every segment
 * of the block is its set's most recently used; then the block's address
 * goes to P54C_CTR_BLK_OFF, and its later segments skip their fetch
 * checks. Else the block slow path (0x190) with the block's segment table
 * (.Lrck_bt<seg>): it fetches every segment's lines at once if all are in
 * L1I (hits change nothing but the order in L1I, and data accesses never
 * touch it: the same as fetching each segment at its own check), else the
 * first segment's only. */
static void seq_fetch_block(FILE *out, int seg, int live)
{
    int n = check_no++;
    seq_fetch_lookup(out, seg);
    fprintf(out,
            "\tjne\t.Lrck_h%d\n"
            "\tmovq\t%%rax, %#llx\n\tjmp\t.Lrck_g%d\n"
            ".Lrck_h%d:\n"
            "\tleaq\t.Lrck_bt%d(%%rip), %%rcx\n",
            n, PG(P54C_CTR_BLK_OFF), n, n, seg);
    seq_slow(out, live, P54C_CTR_SLOWB_OFF, -1);
    fprintf(out, ".Lrck_g%d:\n", n);
}

/* A check that only fetches (a block's start). */
static void put_fetch(FILE *out, int seg, int live)
{
    seq_open(out, NULL, live, seg);
    seq_close(out, live);
}

/* %rax = address operand @p addr with the program's registers (%rax and
 * %rcx as the check saved them, when it names them; %rax with movabs, not
 * the form that ends a check for the QEMU plugin, p54c_check_edge). */
static void group_addr(FILE *out, const char *addr)
{
    uint32_t r = as_mem_regs(addr);
    if (r & AS_REG_RAX)
        fprintf(out, "\tmovabsq\t%#llx, %%rax\n", PG(P54C_CTR_SA_OFF));
    if (r & AS_REG_RCX)
        fprintf(out, "\tmovq\t%#llx, %%rcx\n", PG(P54C_CTR_SC_OFF));
    fprintf(out, "\tleaq\t%s, %%rax\n", addr);
}

/* A group of loads (docs/P54C-COUNTERS.md, "Groups of loads"): the load
 * of item @p i leads, the loads of items @p mem (@p nm of them) follow
 * without checks of their own. The block's fetches settled at its start
 * (the block word names the block: its later segments, the members', skip
 * their fetch checks), nothing between the leader and its members changes
 * the model as long as each load is a hit on its L1D set's most recently
 * used line, so the leader probes every element's line in the load filter
 * as each one's own check would at its place: all there, the group is
 * settled. Else the code after the probes runs every check of the group
 * in order (the leader's data, then each member's fetch and data) with
 * the same state and counts as at the members' own places (the same
 * registers: rck_as_mem.c); each element that misses calls the data slow
 * path itself. (Until the ninth session, 2026-11-28, a failed group
 * called the group slow path, 0x198, which did the same in C.) */
static void put_group(FILE *out, const as_file_t *f, size_t i,
                      const int *mem, int nm, int live, int seg)
{
    const as_item_t *it = &f->it[i];
    int n = check_no++;

    seq_open(out, it->mem[0].addr, live, seg);
    fprintf(out,
            "\tleaq\t.Lrck_ua%d(%%rip), %%rcx\n\tcmpq\t%%rcx, %#llx\n"
            "\tjne\t.Lrck_q%d\n",
            blk_seg0, PG(P54C_CTR_BLK_OFF), n);
    seq_probe(out, P54C_CTR_FD_OFF);
    fprintf(out, "\tja\t.Lrck_q%d\n", n);
    for (int k = 0; k < nm; k++)
        for (int j = 0; j < f->it[mem[k]].nmem; j++) {
            group_addr(out, f->it[mem[k]].mem[j].addr);
            seq_probe(out, P54C_CTR_FD_OFF);
            fprintf(out, "\tja\t.Lrck_q%d\n", n);
        }
    fprintf(out, "\tjmp\t.Lrck_d%d\n.Lrck_q%d:\n", n, n);
    /* the checks the group stands for, in order, as each element's own
     * would run at its place: the leader's load, then per member its
     * segment's fetch (skipped when the block word names the block) and
     * its load */
    group_addr(out, it->mem[0].addr);
    seq_probe(out, P54C_CTR_FD_OFF);
    {
        int r = check_no++;
        fprintf(out, "\tjbe\t.Lrck_r%d\n", r);
        seq_slow(out, live, P54C_CTR_SLOWD_OFF, it->mem[0].size);
        fprintf(out, ".Lrck_r%d:\n", r);
    }
    for (int k = 0; k < nm; k++)
        for (int j = 0; j < f->it[mem[k]].nmem; j++) {
            const as_mem_t *a = &f->it[mem[k]].mem[j];
            int r = check_no++;
            if (j == 0) {
                fprintf(out,
                        "\tleaq\t.Lrck_ua%d(%%rip), %%rcx\n"
                        "\tcmpq\t%%rcx, %#llx\n\tje\t.Lrck_f%d\n",
                        blk_seg0, PG(P54C_CTR_BLK_OFF), r);
                seq_fetch(out, mem[k], live);
                fprintf(out, ".Lrck_f%d:\n", r);
            }
            group_addr(out, a->addr);
            seq_probe(out, P54C_CTR_FD_OFF);
            fprintf(out, "\tjbe\t.Lrck_r%d\n", r);
            seq_slow(out, live, P54C_CTR_SLOWD_OFF, a->size);
            fprintf(out, ".Lrck_r%d:\n", r);
        }
    fprintf(out, ".Lrck_d%d:\n", n);
    seq_close(out, live);
}

/* The checks before instruction item @p i; the first also fetches the
 * segment that starts at item @p seg (-1: none). A load may lead a group
 * (put_group); a member of one has no checks. */
static void put_checks(FILE *out, as_file_t *f, size_t i, int adds_at,
                       int seg)
{
    const as_item_t *it = &f->it[i];
    int mem[P54C_GRP_MAX], nm;

    if (it->grouped)
        return;
    if (blk_multi && seg >= 0 &&
        (nm = as_mem_group(f, i, adds_at, it->flags_live, mem)) > 0) {
        for (int k = 0; k < nm; k++)
            f->it[mem[k]].grouped = 1;
        put_group(out, f, i, mem, nm, it->flags_live, seg);
        return;
    }
    for (int j = 0; j < it->nmem; j++) {
        const as_mem_t *a = &it->mem[j];
        if (a->store > 1) {
            if (!it->rep_string)
                continue;
            put_rep_mem(out, a, it->flags_live, seg);
        } else if (a->store) {
            put_store(out, a, it->flags_live, seg);
        } else {
            put_load(out, a, it->flags_live, seg);
        }
        seg = -1;
    }
    if (seg >= 0)
        put_fetch(out, seg, it->flags_live);
}

/* Does a segment start at instruction item @p i of block @p b: its
 * memory instruction's checks, or the block's start (whose check fetches
 * it; after the instruction if that is an endbr, nothing goes before
 * those)? */
static int seg_starts(const block_t *b, const as_item_t *it, int i)
{
    return (it->nmem > 0 && !it->endbr) || b->first_insn == i;
}

/* Is instruction item @p i the last of its segment: the block's last, or
 * followed in its block by an instruction with checks? */
static int seg_last(const as_file_t *f, const block_t *b, size_t i)
{
    if (b->last == (int)i)
        return 1;
    for (size_t j = i + 1; j < f->n && (int)j <= b->last; j++) {
        const as_item_t *n = &f->it[j];
        if (n->kind == IT_INSN && n->block == f->it[i].block)
            return seg_starts(b, n, (int)j);
    }
    return 1;
}

/* Block @p b starts its checks at item @p i (its first segment): note
 * how many segments it has, and give one of several (up to
 * P54C_BT_MAXSEG) its segment table (p54c_abi.h). */
static void block_begin(FILE *out, const as_file_t *f, const block_t *b,
                        int i)
{
    int segs[P54C_BT_MAXSEG], n = 0;

    for (int j = i; j <= b->last; j++) {
        const as_item_t *it = &f->it[j];
        if (it->kind != IT_INSN || it->block != f->it[i].block ||
            !seg_starts(b, it, j))
            continue;
        if (n == P54C_BT_MAXSEG) {
            n = 0; /* too many: each segment checks its own */
            break;
        }
        segs[n++] = j;
    }
    blk_seg0 = i;
    blk_multi = n > 1;
    if (!blk_multi)
        return;
    fputs("\t.pushsection\t.rodata.rck_blk", out);
    as_put_flags(out, f, f->it[i].sec);
    fprintf(out, "\n\t.balign\t4\n.Lrck_bt%d:\n\t.long\t%d\n", i, n);
    for (int k = 0; k < n; k++)
        fprintf(out, "\t.long\t.Lrck_ua%d-.\n\t.long\t.Lrck_uz%d-1-.\n",
                segs[k], segs[k]);
    fputs("\t.popsection\n", out);
}

/* The end of segment @p seg: its entry in the fetch map, for the QEMU
 * engine on the checked binary (the plugin, "Fetch at the unchecked
 * addresses" in docs/P54C.md): where the segment lies in the checked code
 * and where in the shadow, 4 words each, PC-relative (P54C_FMAP_*). */
static void put_fetchmap(FILE *out, const as_file_t *f, int seg)
{
    fprintf(out, ".Lrck_sz%d:\n\t.pushsection\t" P54C_FMAP_SECTION, seg);
    as_put_flags(out, f, f->it[seg].sec);
    fprintf(out, "\n\t.balign\t4\n"
                 "\t.long\t.Lrck_sa%d-.\n\t.long\t.Lrck_sz%d-.Lrck_sa%d\n"
                 "\t.long\t.Lrck_ua%d-.\n\t.long\t.Lrck_uz%d-.Lrck_ua%d\n"
                 "\t.popsection\n",
            seg, seg, seg, seg, seg, seg);
}

/* The .rck_icount record: magic, the units per class, zeros to 64. The
 * libraries above the HAL are built with RCK_AS_LIBRARY=1: their records
 * say so, and a program is counted only if its own code has records. */
static void put_record(FILE *out, const uint32_t *units)
{
    const char *lib = getenv("RCK_AS_LIBRARY");
    unsigned long long magic = lib != NULL && !strcmp(lib, "1")
                                   ? P54C_CTR_MAGIC_LIB
                                   : P54C_CTR_MAGIC;

    fprintf(out, "\t.pushsection\t%s,\"aR\",@progbits\n\t.balign\t64\n"
                 "\t.quad\t0x%llx\n",
            P54C_CTR_SECTION, magic);
    for (int c = 0; c < P54C_NCLASS; c++)
        fprintf(out, "\t.long\t%u\n", units[c]);
    fprintf(out, "\t.long\t%u\n", as_mem_on() ? P54C_CTR_FLAG_MEM : 0u);
    fprintf(out, "\t.zero\t%d\n\t.popsection\n",
            P54C_CTR_REC - 8 - 4 * P54C_NCLASS - 4);
    /* the page layout the checks use, once per linked module (COMDAT by
     * version): librockcreek checks it before the program runs */
    if (as_mem_on())
        fprintf(out,
                "\t.pushsection\t%s,\"aG\",@note,rck_p54c_layout_%u,comdat\n"
                "\t.balign\t4\n\t.long\t%u\n\t.long\t4\n\t.long\t%#x\n"
                "\t.asciz\t\"%s\"\n\t.balign\t4\n\t.long\t%u\n"
                "\t.popsection\n",
                P54C_LAYOUT_NOTE_SECTION, P54C_LAYOUT_VERSION,
                (unsigned)sizeof(P54C_LAYOUT_NOTE_NAME), P54C_LAYOUT_NOTE_TYPE,
                P54C_LAYOUT_NOTE_NAME, P54C_LAYOUT_VERSION);
}

int as_write_pass1(const as_file_t *f, FILE *out)
{
    for (size_t i = 0; i < f->n; i++) {
        const as_item_t *it = &f->it[i];
        if (it->kind == IT_INSN && it->id >= 0)
            fprintf(out, "__rck_i%d:\n", it->id);
        fprintf(out, "%s\n", it->text);
    }
    return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}

int as_write_pass2(as_file_t *f, const uint32_t *units, FILE *out)
{
    cfg_t g = {0};
    int rc = -1;
    int *seg_start = NULL, *seg_end = NULL;
    memset(&as_stats, 0, sizeof(as_stats));
    if (build(&g, f) != 0)
        goto done;
    summarize(&g, f);
    liveness(&g);
    item_liveness(&g, f);
    place(&g, f);
    int mem = as_mem_on(), seg = -1;
    blk_seg0 = -1;
    blk_multi = 0;
    if (mem) {
        seg_start = calloc(f->n + 1, sizeof(*seg_start));
        seg_end = malloc((f->n + 1) * sizeof(*seg_end));
        if (!seg_start || !seg_end)
            goto done;
        for (size_t i = 0; i < f->n; i++)
            seg_end[i] = -1;
    }
    for (size_t i = 0; i < f->n; i++) {
        const as_item_t *it = &f->it[i];
        const block_t *b = it->block >= 0 ? &g.b[it->block] : NULL;
        int here = b && it->kind == IT_INSN && b->at == (int)i;
        int checked = mem && b && it->kind == IT_INSN && !b->opaque &&
                      b->at >= 0;
        if (here && !b->after)
            put_adds(out, b);
        if (checked && seg_starts(b, it, (int)i)) {
            seg = (int)i;
            if (b->first_insn == (int)i)
                block_begin(out, f, b, (int)i);
            if (!it->endbr)
                put_checks(out, f, i, b->after ? -1 : b->at, seg);
            seg_start[i] = 1;
            fprintf(out, ".Lrck_sa%d:\n", seg);
        }
        if (it->kind == IT_INSN && it->rep_string) {
            put_rep(out, it->units);
            as_stats.seq3++;
        }
        fprintf(out, "%s\n", it->text);
        if (here && b->after)
            put_adds(out, b);
        if (checked && it->endbr && b->first_insn == (int)i)
            put_fetch(out, seg, it->flags_live); /* after the endbr */
        if (checked && seg >= 0 && seg_last(f, b, i)) {
            seg_end[i] = seg;
            put_fetchmap(out, f, seg);
            seg = -1;
        }
    }
    put_record(out, units);
    /* the fetches are booked at the unchecked code's addresses */
    if (mem && as_write_shadow(f, seg_start, seg_end, out) != 0)
        goto done;
    rc = fflush(out) == 0 && !ferror(out) ? 0 : -1;
done:
    free(seg_start);
    free(seg_end);
    free(g.b);
    free(g.lab);
    return rc;
}
