/*
 * rck-as: the memory accesses of an instruction, from its AT&T text, for
 * the compiled memory model (docs/P54C-COUNTERS.md, "Memory accesses"):
 * which operand is read or written, how many bytes, in the order QEMU
 * shows them to a plugin, and the implicit stack accesses of push, pop,
 * call, ret and leave.
 *
 * Owns: as_mem_analyze. May call: nothing but the C library.
 */
#include "rck_as.h"

#include "p54c_abi.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int starts(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

static int ends(const char *s, const char *p)
{
    size_t n = strlen(s), m = strlen(p);
    return n >= m && strcmp(s + n - m, p) == 0;
}

static int one_of(const char *mn, const char *const *names)
{
    for (; *names; names++)
        if (strcmp(mn, *names) == 0)
            return 1;
    return 0;
}

/* @p mn is one of @p bases with an optional size suffix (b w l q). */
static int sized_any(const char *mn, const char *const *bases, int *sz)
{
    for (; *bases; bases++) {
        size_t n = strlen(*bases);
        if (strncmp(mn, *bases, n) != 0)
            continue;
        if (mn[n] == 0) {
            *sz = 0;
            return 1;
        }
        if (mn[n + 1] == 0 && strchr("bwlq", mn[n])) {
            *sz = mn[n] == 'b' ? 1 : mn[n] == 'w' ? 2 : mn[n] == 'l' ? 4 : 8;
            return 1;
        }
    }
    return 0;
}

/* Operands of @p ops split at top-level commas: up to 4, trimmed. */
typedef struct {
    char op[4][128];
    int n;
} ops_t;

static int split_ops(const char *ops, ops_t *o)
{
    int depth = 0;
    size_t k = 0;

    o->n = 0;
    while (isspace((unsigned char)*ops))
        ops++;
    if (*ops == 0)
        return 0;
    for (const char *p = ops;; p++) {
        if (*p == '(')
            depth++;
        else if (*p == ')')
            depth--;
        if (*p == 0 || (*p == ',' && depth == 0)) {
            while (k > 0 && isspace((unsigned char)o->op[o->n][k - 1]))
                k--;
            o->op[o->n][k] = 0;
            o->n++;
            k = 0;
            if (*p == 0)
                return 0;
            if (o->n == 4)
                return -1;
            while (isspace((unsigned char)p[1]))
                p++;
            continue;
        }
        if (*p == '#')
            break;
        if (k + 1 >= sizeof(o->op[0]))
            return -1;
        o->op[o->n][k++] = *p;
    }
    while (k > 0 && isspace((unsigned char)o->op[o->n][k - 1]))
        k--;
    o->op[o->n][k] = 0;
    o->n++;
    return 0;
}

/* Is operand @p s a memory operand (not a register, not an immediate)? */
static int is_mem(const char *s)
{
    if (*s == '*')
        s++;
    if (*s == '$' || *s == 0)
        return 0;
    if (*s == '%')
        return strchr(s, ':') != NULL; /* %fs:... */
    return 1;
}

/* The width of register operand @p s in bytes, 0 if none or unknown. */
static int reg_width(const char *s)
{
    static const char *const b8[] = {"al", "bl", "cl", "dl", "ah", "bh",
                                     "ch", "dh", "sil", "dil", "bpl", "spl",
                                     NULL};
    static const char *const b16[] = {"ax", "bx", "cx", "dx", "si", "di",
                                      "bp", "sp", NULL};
    if (*s == '*')
        s++;
    if (*s != '%')
        return 0;
    s++;
    if (starts(s, "xmm"))
        return 16;
    if (starts(s, "ymm"))
        return 32;
    if (starts(s, "st") || starts(s, "mm"))
        return 0;
    if (s[0] == 'r' && isdigit((unsigned char)s[1])) {
        size_t n = strlen(s);
        return s[n - 1] == 'd' ? 4 : s[n - 1] == 'w' ? 2 : s[n - 1] == 'b' ? 1
                                                                           : 8;
    }
    if (s[0] == 'r')
        return 8;
    if (s[0] == 'e')
        return 4;
    if (one_of(s, b8))
        return 1;
    if (one_of(s, b16))
        return 2;
    return 0;
}

/* Bytes an x87 memory operand of @p mn moves, 0: not x87 with memory. */
static int x87_size(const char *mn)
{
    static const char *const ctl[] = {"fnstcw", "fstcw", "fldcw", "fnstsw",
                                      "fstsw", NULL};
    if (mn[0] != 'f')
        return 0;
    if (one_of(mn, ctl))
        return 2;
    if (starts(mn, "fi")) { /* integer operands: s 16, l 32, ll/q 64 */
        if (ends(mn, "ll") || ends(mn, "q"))
            return 8;
        if (ends(mn, "l"))
            return 4;
        if (ends(mn, "s"))
            return 2;
        return 4;
    }
    if (ends(mn, "t"))
        return 10;
    if (ends(mn, "l"))
        return 8;
    if (ends(mn, "s"))
        return 4;
    return 8;
}

/* Bytes an SSE/AVX memory operand of @p mn moves, with the register
 * operand width @p rw (16 or 32). */
static int vec_size(const char *mn, int rw)
{
    const char *m = mn[0] == 'v' ? mn + 1 : mn;
    size_t n = strlen(m);

    if (starts(m, "cvtsi2") || starts(m, "cvtusi2"))
        return m[n - 1] == 'q' ? 8 : 4;
    if (!strcmp(m, "movq") || starts(m, "movhp") || starts(m, "movlp") ||
        !strcmp(m, "movddup") || !strcmp(m, "cvtps2pd") ||
        !strcmp(m, "cvtdq2pd") || !strcmp(m, "broadcastsd") ||
        !strcmp(m, "pinsrq") || !strcmp(m, "pextrq"))
        return 8;
    if (!strcmp(m, "movd") || !strcmp(m, "pinsrd") || !strcmp(m, "pextrd") ||
        !strcmp(m, "extractps") || !strcmp(m, "insertps") ||
        !strcmp(m, "broadcastss"))
        return 4;
    if (!strcmp(m, "pinsrw") || !strcmp(m, "pextrw"))
        return 2;
    if (!strcmp(m, "pinsrb") || !strcmp(m, "pextrb"))
        return 1;
    if (starts(m, "pmovzx") || starts(m, "pmovsx")) {
        /* from bw bd bq wd wq dq: the narrow elements of a 16-byte result */
        const char *t = m + 6;
        int from = t[0] == 'b' ? 1 : t[0] == 'w' ? 2 : 4;
        int to = t[1] == 'w' ? 2 : t[1] == 'd' ? 4 : 8;
        return rw / to * from;
    }
    /* scalar forms: movsd, addsd, cvtsd2si, ucomisd, ... */
    if (ends(m, "sd") || strstr(m, "sd2") != NULL)
        return 8;
    if (ends(m, "ss") || strstr(m, "ss2") != NULL)
        return 4;
    return rw;
}

/* Mnemonics whose memory destination is written without being read. */
static int pure_store(const char *mn)
{
    const char *m = mn[0] == 'v' ? mn + 1 : mn;
    if (starts(m, "mov") || starts(m, "set") || starts(m, "stmxcsr") ||
        starts(m, "pextr") || starts(m, "extract") || starts(m, "cvtps2ph"))
        return 1;
    if (mn[0] == 'f' && (starts(mn, "fst") || starts(mn, "fist") ||
                         starts(mn, "fisttp") || starts(mn, "fnst")))
        return 1;
    return 0;
}

/* Mnemonics that read and write a memory destination. */
static int rmw(const char *mn, int *sz)
{
    static const char *const b[] = {
        "add", "sub", "and", "or", "xor", "adc", "sbb", "inc", "dec", "neg",
        "not", "shl", "sal", "shr", "sar", "rol", "ror", "rcl", "rcr", "shld",
        "shrd", "xadd", "cmpxchg", "bts", "btr", "btc", "xchg", NULL};
    return sized_any(mn, b, sz);
}

/* Integer mnemonics with a size suffix that names the memory operand's
 * size. */
static int sized_int(const char *mn, int *sz)
{
    static const char *const b[] = {
        "mov", "cmp", "test", "bt", "imul", "mul", "div", "idiv", "push",
        "pop", "bsf", "bsr", "lzcnt", "tzcnt", "popcnt", "movbe", "andn",
        "crc32", NULL};
    return sized_any(mn, b, sz) || rmw(mn, sz);
}

static void add_access(as_item_t *it, const char *addr, int size, int store)
{
    if (it->nmem >= AS_MEM_MAX)
        return;
    if (it->mem == NULL && (it->mem = calloc(AS_MEM_MAX, sizeof(*it->mem))) ==
                               NULL)
        return; /* out of memory: the access is not modelled */
    as_mem_t *a = &it->mem[it->nmem++];
    snprintf(a->addr, sizeof(a->addr), "%s", addr);
    a->size = (uint8_t)size;
    a->store = (uint8_t)store;
}

/* Split an access of @p size bytes as QEMU 7.2 issues it: at most 8 bytes
 * each (16- and 32-byte vectors as 8-byte halves, an x87 10-byte operand
 * as 8 + 2). */
static void add_split(as_item_t *it, const char *addr, int size, int store)
{
    char a2[AS_MEM_ADDR];
    for (int off = 0; off < size; off += 8) {
        int n = size - off < 8 ? size - off : 8;
        if (off == 0) {
            add_access(it, addr, n, store);
            continue;
        }
        if (addr[0] == '(')
            snprintf(a2, sizeof(a2), "%d%s", off, addr);
        else
            snprintf(a2, sizeof(a2), "%d+%s", off, addr);
        add_access(it, a2, n, store);
    }
}

/* An %fs:/%gs: operand (the compiled engine's lea cannot form the linear
 * address), or one with a relocation operator (@GOTPCREL, @gottpoff, ...:
 * the linker may rewrite the instruction so that it reads nothing): not
 * modelled (docs/P54C-COUNTERS.md). */
static int segmented(const char *s)
{
    return (s[0] == '%' && strchr(s, ':') != NULL) || strchr(s, '@') != NULL;
}

/* The stack accesses of push, pop, call, ret and leave (with a memory
 * operand's load first). @return 1 if @p mn is one of them. */
static int stack_accesses(as_item_t *it, const char *mn, const char *ops,
                          const ops_t *o, int mi)
{
    static const char *const pushb[] = {"push", NULL};
    static const char *const popb[] = {"pop", NULL};
    int s;

    if (sized_any(mn, pushb, &s)) {
        if (mi >= 0 && !segmented(o->op[mi]))
            add_access(it, o->op[mi], 8, 0);
        add_access(it, "-8(%rsp)", 8, 1);
        return 1;
    }
    if (sized_any(mn, popb, &s)) {
        add_access(it, "(%rsp)", 8, 0);
        return 1; /* pop to memory: not in GCC's output, its store not
                     modelled */
    }
    if (it->br == BR_CALL) {
        /* GCC's TLS sequences (.byte 0x66; leaq x@tlsgd(%rip), %rdi;
         * .value 0x6666; rex64; call __tls_get_addr) are rewritten by the
         * linker as a unit: nothing may go between their parts */
        if (strstr(ops, "__tls_get_addr") != NULL)
            return 1;
        if (mi >= 0 && o->op[mi][0] == '*' && !segmented(o->op[mi] + 1))
            add_access(it, o->op[mi] + 1, 8, 0);
        add_access(it, "-8(%rsp)", 8, 1);
        return 1;
    }
    if (it->br == BR_RET) {
        add_access(it, "(%rsp)", 8, 0);
        return 1;
    }
    if (!strcmp(mn, "leave") || !strcmp(mn, "leaveq")) {
        add_access(it, "(%rbp)", 8, 0);
        return 1;
    }
    return 0;
}

/* ---- groups of loads (docs/P54C-COUNTERS.md, "Groups of loads") ---- */

/* The family (0 rax ... 15 r15) of the register named at @p s (after the
 * '%'), -1 if none of the sixteen general registers (rip, vector, x87,
 * segment registers). */
static int reg_family(const char *s, size_t *len)
{
    static const char *const legacy[8][5] = {
        {"rax", "eax", "ax", "al", "ah"}, {"rcx", "ecx", "cx", "cl", "ch"},
        {"rdx", "edx", "dx", "dl", "dh"}, {"rbx", "ebx", "bx", "bl", "bh"},
        {"rsp", "esp", "sp", "spl", NULL}, {"rbp", "ebp", "bp", "bpl", NULL},
        {"rsi", "esi", "si", "sil", NULL}, {"rdi", "edi", "di", "dil", NULL}};
    size_t n = 0;

    while (isalnum((unsigned char)s[n]))
        n++;
    *len = n;
    if (n >= 2 && s[0] == 'r' && isdigit((unsigned char)s[1])) {
        int r = s[1] - '0';
        size_t k = 2;
        if (isdigit((unsigned char)s[2])) {
            r = r * 10 + (s[2] - '0');
            k = 3;
        }
        if (r < 8 || r > 15)
            return -1;
        if (k == n || (k + 1 == n && strchr("dwb", s[k])))
            return r;
        return -1;
    }
    for (int f = 0; f < 8; f++)
        for (int v = 0; v < 5 && legacy[f][v]; v++)
            if (strlen(legacy[f][v]) == n && !strncmp(s, legacy[f][v], n))
                return f;
    return -1;
}

uint32_t as_mem_regs(const char *addr)
{
    uint32_t m = 0;
    for (const char *p = addr; *p; p++) {
        if (*p != '%')
            continue;
        size_t n;
        int f = reg_family(p + 1, &n);
        if (f >= 0)
            m |= 1u << f;
        p += n;
    }
    return m;
}

/* The general registers instruction @p mn @p ops (split in @p o) may
 * write: its last operand's register, nothing for compares and x87
 * arithmetic; all for anything with implicit writes or no operands. */
static uint32_t written_regs(const as_item_t *it, const char *mn,
                             const ops_t *o, int split_ok)
{
    static const char *const implicit[] = {
        "xchg", "xadd", "cmpxchg", "cpuid", "rdtsc", "rdrand", "rdseed",
        "rdpid", "push", "pop", "syscall", "sysenter", "lahf", "fnstsw",
        "fstsw", "mulx", "xlat", "enter", "leave", "loop", "jrcxz", "jecxz",
        "xbegin", "rdfsbase", "rdgsbase", "rdpkru", "xgetbv", "rdmsr",
        "rdpmc", "out", "int", NULL};
    static const char *const strings[] = {"lods", "stos", "movs", "scas",
                                          "cmps", "ins", NULL};
    static const char *const muldiv[] = {"mul", "imul", "div", "idiv", NULL};
    static const char *const port[] = {"in", "inb", "inw", "inl", NULL};
    static const char *const none[] = {"cmp", "test", "bt", "ucomis",
                                       "comis", "vucomis", "vcomis", NULL};
    int sz;

    if (it->br != BR_NONE || it->rep_string || !split_ok)
        return AS_REG_ALL;
    for (const char *const *p = implicit; *p; p++)
        if (starts(mn, *p))
            return AS_REG_ALL;
    if (one_of(mn, port))
        return AS_REG_ALL;
    /* mul/div (and one-operand imul) write %rax and %rdx; the string
     * instructions %rsi, %rdi (and %rcx, %rax) */
    if (sized_any(mn, muldiv, &sz) && !(starts(mn, "imul") && o->n >= 2))
        return AS_REG_ALL;
    if (sized_any(mn, strings, &sz))
        return AS_REG_ALL;
    if (o->n == 0)
        return mn[0] == 'f' ? 0 : AS_REG_ALL; /* x87 stack forms */
    for (const char *const *p = none; *p; p++)
        if (starts(mn, *p))
            return 0;
    const char *last = o->op[o->n - 1];
    if (last[0] == '*')
        return AS_REG_ALL;
    if (last[0] != '%')
        return 0; /* memory or immediate */
    if (strchr(last, ':'))
        return AS_REG_ALL;
    size_t n;
    int f = reg_family(last + 1, &n);
    return f >= 0 ? 1u << f : 0;
}

/* Is item @p it an instruction whose accesses are all loads (no rep
 * string, no endbr)? */
static int loads_only(const as_item_t *it)
{
    if (it->nmem == 0 || it->rep_string || it->endbr)
        return 0;
    for (int j = 0; j < it->nmem; j++)
        if (it->mem[j].store != 0)
            return 0;
    return 1;
}

static int group_on(void)
{
    static int on = -1;
    if (on < 0) {
        const char *e = getenv("RCK_AS_MEMGROUP");
        on = e == NULL || strcmp(e, "0") != 0;
    }
    return on;
}

int as_mem_group(const as_file_t *f, size_t i, int adds_at, int live,
                 int *members)
{
    const as_item_t *l = &f->it[i];
    uint32_t written, own = live ? AS_REG_RSP : 0;
    int n = 0, elems = 1;

    if (!group_on() || l->kind != IT_INSN || l->nmem != 1 || !loads_only(l) ||
        l->block < 0 || (as_mem_regs(l->mem[0].addr) & own))
        return 0;
    written = l->wregs;
    for (size_t j = i + 1; j < f->n; j++) {
        const as_item_t *m = &f->it[j];
        if (m->kind == IT_APP)
            break;
        /* a label GCC may jump to ends the block (labels that only mark
         * positions for debug information do not: .LVL, .LBB, ...) */
        if (m->kind == IT_LABEL && m->sec == l->sec &&
            !(m->label[0] == '.' && m->label[1] == 'L' && m->label[2] &&
              !isdigit((unsigned char)m->label[2])))
            break;
        if (m->kind != IT_INSN)
            continue;
        if (m->block != l->block) {
            if (m->sec == l->sec)
                break;
            continue; /* another section's line inside the block */
        }
        if ((int)j == adds_at || m->rep_string || m->endbr ||
            written == AS_REG_ALL)
            break;
        if (m->nmem == 0) {
            written |= m->wregs;
            continue;
        }
        if (!loads_only(m) || elems + m->nmem > P54C_GRP_MAX)
            break;
        uint32_t used = 0;
        for (int k = 0; k < m->nmem; k++)
            used |= as_mem_regs(m->mem[k].addr);
        if (used & (written | own))
            break;
        members[n++] = (int)j;
        elems += m->nmem;
        written |= m->wregs;
    }
    return n;
}

int as_mem_on(void)
{
    static int on = -1;
    if (on < 0) {
        const char *e = getenv("RCK_AS_MEM");
        on = e != NULL && !strcmp(e, "1");
    }
    return on;
}

void as_mem_analyze(as_item_t *it, const char *mn, const char *ops)
{
    static const char *const none[] = {"lea", "leaq", "leal", "leaw",
                                       "nop", "nopw", "nopl", "nopq",
                                       "clflush", "clflushopt", "clwb",
                                       "invlpg", NULL};
    ops_t o;
    int mi = -1, sz = 0, rw = 0;

    it->nmem = 0;
    it->wregs = written_regs(it, mn, &o, split_ops(ops, &o) == 0);
    if (it->br == BR_JMP || it->br == BR_JCC || it->br == BR_STOP)
        return; /* direct targets are no memory operands */
    if (one_of(mn, none) || starts(mn, "prefetch") || starts(mn, "bnd") ||
        starts(mn, "fxsave") || starts(mn, "fxrstor") || starts(mn, "xsave") ||
        starts(mn, "xrstor") || starts(mn, "fnsave") || starts(mn, "frstor") ||
        starts(mn, "fldenv") || starts(mn, "fnstenv"))
        return;
    if (it->rep_string) {
        /* rep movs/stos/lods: the iterations at run time (the slow path
         * reads %rcx, %rsi, %rdi); store = 2 + the operation */
        char w = mn[4] ? mn[4] : 'b';
        int size = w == 'b' ? 1 : w == 'w' ? 2 : w == 'l' || w == 'd' ? 4 : 8;
        int op = starts(mn, "movs") ? P54C_MK_MOVS
                 : starts(mn, "stos") ? P54C_MK_STOS : P54C_MK_LODS;
        add_access(it, "", size, 1 + op);
        return;
    }
    if (split_ops(ops, &o) != 0)
        return;
    for (int i = 0; i < o.n; i++) {
        if (is_mem(o.op[i]) && mi < 0)
            mi = i;
        if (!is_mem(o.op[i]) && reg_width(o.op[i]) > rw)
            rw = reg_width(o.op[i]);
    }
    if (stack_accesses(it, mn, ops, &o, mi))
        return;
    if (mi < 0)
        return;
    const char *addr = o.op[mi] + (o.op[mi][0] == '*');
    if (segmented(addr))
        return;
    if (it->br == BR_IJMP) {
        add_access(it, addr, 8, 0);
        return;
    }
    int last = mi == o.n - 1 && o.n > 1;
    int x = x87_size(mn);
    if (x > 0) {
        int store = pure_store(mn);
        add_split(it, addr, x, store);
        return;
    }
    const char *v = mn[0] == 'v' ? mn + 1 : mn;
    if (starts(v, "cvt") || starts(v, "ucomis") || starts(v, "comis"))
        rw = rw < 16 ? 16 : rw;
    if (rw >= 16) {
        int size = vec_size(mn, rw);
        /* the memory operand is the destination: a store (moves,
         * extracts); otherwise a source */
        add_split(it, addr, size, last && pure_store(mn));
        return;
    }
    if (!strcmp(mn, "movsbw") || !strcmp(mn, "movsbl") ||
        !strcmp(mn, "movsbq") || !strcmp(mn, "movzbw") ||
        !strcmp(mn, "movzbl") || !strcmp(mn, "movzbq")) {
        add_access(it, addr, 1, 0);
        return;
    }
    if (!strcmp(mn, "movswl") || !strcmp(mn, "movswq") ||
        !strcmp(mn, "movzwl") || !strcmp(mn, "movzwq")) {
        add_access(it, addr, 2, 0);
        return;
    }
    if (!strcmp(mn, "movslq")) {
        add_access(it, addr, 4, 0);
        return;
    }
    if (starts(mn, "set")) {
        add_access(it, addr, 1, 1);
        return;
    }
    if (!sized_int(mn, &sz) || sz == 0)
        sz = rw > 0 ? rw : 8;
    if (sz > 8)
        sz = 8;
    int s;
    if (rmw(mn, &s) && (last || o.n == 1 || !strncmp(mn, "xchg", 4))) {
        add_access(it, addr, sz, 0);
        add_access(it, addr, sz, 1);
        return;
    }
    if (last && pure_store(mn)) {
        add_access(it, addr, sz, 1);
        return;
    }
    add_access(it, addr, sz, 0);
}
