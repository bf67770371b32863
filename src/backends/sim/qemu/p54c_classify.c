/*
 * The P54C compute model's instruction classes (p54c_abi.h), from an
 * x86-64 instruction's bytes. The plugin classifies every instruction once,
 * when QEMU translates its block; asking QEMU for the disassembly instead
 * (qemu_plugin_insn_disas) cost 60% of a `p54c-fast` run's host time:
 * QEMU 7.2 opens a Capstone handle per call.
 *
 * No length decoding is needed: QEMU hands over one instruction at a time.
 * What is read: legacy prefixes, REX, VEX/EVEX (their opcode map), the
 * opcode and, where the opcode has one, the ModRM byte (its reg field
 * selects the operation of group opcodes, its mod field tells a memory
 * operand). The rules, in order (first match wins):
 *   lock prefix, xchg, syscall/sysenter, cpuid, rdtsc(p) -> OTHER
 *   rep/repne + string instruction                      -> STRING
 *        (charged per iteration by its width: p54c_string_width)
 *   jcc, jmp, call, ret, loop, jrcxz (near and far)     -> BRANCH
 *   div, idiv                                           -> DIV
 *   mul, imul, mulx                                     -> MUL
 *   x87: fsqrt -> FSQRT; f(i)div(r)(p) -> FDIV; f(i)mul(p) -> FMUL;
 *        anything else -> FADD
 *   SSE/AVX: sqrt, rsqrt -> FSQRT; div -> FDIV; mul, fused multiply-add
 *        -> FMUL; anything else on xmm/ymm registers -> FADD
 *   a memory operand (ModRM mod != 3, or a string instruction without
 *        rep), except lea and the hint nops                -> MEM
 *   anything else                                       -> INT
 * A packed SSE/AVX floating-point instruction is charged its class's
 * cycles once per element (p54c_simd_elements): the P54C had x87 only.
 * tests/unit/test_p54c_classify.c holds one case per rule.
 *
 * Plain C, no rockcreek or QEMU headers (built into the plugin and into
 * the unit test).
 */
#include "p54c_classify.h"

#include "../p54c_abi.h"

/* One-byte opcodes followed by a ModRM byte (bit set), 64-bit mode. */
static const uint8_t modrm1[32] = {
    0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, /* 00-3f: ALU r/m */
    0x00, 0x00, 0x00, 0x00, 0x0c, 0x0a, 0x00, 0x00, /* 62 63 69 6b */
    0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 80-8f */
    0xf3, 0x00, 0x0f, 0xff, 0x00, 0x00, 0xc0, 0xc0, /* c0 c1 c4-c7, d0-d3,
                                                       d8-df, f6 f7, fe ff */
};

/* Two-byte (0F xx) opcodes WITHOUT a ModRM byte (bit set). */
static const uint8_t nomodrm2[32] = {
    0xe0, 0x4b, 0x00, 0x00, 0x00, 0x00, 0xff, 0x00, /* 05-07, 08 09 0b 0e,
                                                       30-37 */
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x00, /* 77 */
    0xff, 0xff, 0x00, 0x00, 0x07, 0x07, 0x00, 0x00, /* 80-8f, a0-a2,
                                                       a8-aa */
    0x00, 0xff, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* c8-cf */
};

static int bit(const uint8_t *set, unsigned op)
{
    return (set[op >> 3] >> (op & 7)) & 1;
}

static int is_string(unsigned op)
{
    return (op >= 0xa4 && op <= 0xa7) || (op >= 0xaa && op <= 0xaf) ||
           (op >= 0x6c && op <= 0x6f);
}

static int x87(unsigned op, unsigned modrm)
{
    unsigned reg = (modrm >> 3) & 7;

    if (op == 0xd9 && modrm == 0xfa)
        return P54C_C_FSQRT;
    if (op == 0xd8 || op == 0xda || op == 0xdc || op == 0xde) {
        if (op == 0xda && (modrm >> 6) == 3)
            return P54C_C_FADD; /* fcmov, fucompp */
        if (reg == 1)
            return P54C_C_FMUL;
        if (reg == 6 || reg == 7)
            return P54C_C_FDIV;
    }
    return P54C_C_FADD;
}

/* 0F-map opcode @p op (legacy SSE encoding, or VEX/EVEX map 1). */
static int sse(unsigned op)
{
    if (op == 0x51 || op == 0x52)
        return P54C_C_FSQRT;
    if (op == 0x5e)
        return P54C_C_FDIV;
    if (op == 0x59)
        return P54C_C_FMUL;
    return P54C_C_FADD;
}

/* Two-byte opcodes operating on xmm registers (with or without a 66/F2/F3
 * prefix), the MMX-only ones included (the P54C had neither: they are
 * floating-point-unit work either way). */
static int sse_op(unsigned op)
{
    return (op >= 0x10 && op <= 0x17) || (op >= 0x28 && op <= 0x2f) ||
           (op >= 0x50 && op <= 0x7f && op != 0x77) || op == 0xc2 ||
           (op >= 0xc4 && op <= 0xc6) || op >= 0xd0;
}

static int two_byte(unsigned op, int has_modrm, unsigned modrm)
{
    int mem = has_modrm && (modrm >> 6) != 3;

    if (op == 0x05 || op == 0x34 || op == 0xa2 || op == 0x31 ||
        (op == 0x01 && modrm == 0xf9))
        return P54C_C_OTHER; /* syscall, sysenter, cpuid, rdtsc(p) */
    if (op >= 0x80 && op <= 0x8f)
        return P54C_C_BRANCH;
    if (op == 0xaf)
        return P54C_C_MUL;
    if (sse_op(op))
        return sse(op);
    if (op == 0x1f || (op >= 0x19 && op <= 0x1e) || op == 0x0d)
        return P54C_C_INT; /* hint nops, prefetchw */
    return mem ? P54C_C_MEM : P54C_C_INT;
}

/* VEX/EVEX-encoded instruction: map @p map (1: 0F, 2: 0F38, 3: 0F3A). */
static int vex(unsigned map, unsigned op)
{
    if (map == 1)
        return op == 0x77 ? P54C_C_INT : sse(op); /* vzeroupper */
    if (map == 2) {
        if (op >= 0x96 && op <= 0xbf)
            return P54C_C_FMUL; /* vfmadd, vfmsub, vfnmadd, ... */
        if (op == 0xf6)
            return P54C_C_MUL; /* mulx */
        if (op >= 0xf2 && op <= 0xf7)
            return P54C_C_INT; /* andn, bzhi, pdep, pext, sarx, ... */
        if (op == 0x40)
            return P54C_C_FADD; /* vpmulld: on xmm registers */
    }
    return P54C_C_FADD;
}

/* The legacy prefixes and the REX byte of the instruction in @p b. */
typedef struct {
    size_t op;     /* index of the opcode (n: none) */
    int rep, lock;
    int width;     /* operand bytes: 4, 2 (0x66), 8 (REX.W) */
} prefixes_t;

static prefixes_t prefixes(const uint8_t *b, size_t n)
{
    prefixes_t x = {0, 0, 0, 4};

    for (; x.op < n; x.op++) {
        uint8_t p = b[x.op];
        if (p == 0xf0)
            x.lock = 1;
        else if (p == 0xf2 || p == 0xf3)
            x.rep = 1;
        else if (p == 0x66)
            x.width = 2;
        else if (!(p == 0x67 || p == 0x2e || p == 0x36 || p == 0x3e ||
                   p == 0x26 || p == 0x64 || p == 0x65))
            break;
    }
    if (x.op < n && (b[x.op] & 0xf0) == 0x40) {
        if (b[x.op] & 0x08)
            x.width = 8; /* REX.W */
        x.op++;
    }
    return x;
}

int p54c_classify(const uint8_t *b, size_t n)
{
    prefixes_t px = prefixes(b, n);
    size_t i = px.op;
    int rep = px.rep;
    unsigned op, modrm = 0;
    int has_modrm;

    if (px.lock)
        return P54C_C_OTHER;
    if (i >= n)
        return P54C_C_OTHER;
    op = b[i];
    if (op == 0xc5 && i + 2 < n)
        return vex(1, b[i + 2]);
    if (op == 0xc4 && i + 3 < n)
        return vex(b[i + 1] & 0x1f, b[i + 3]);
    if (op == 0x62 && i + 4 < n)
        return vex(b[i + 1] & 0x07, b[i + 4]);
    if (op == 0x0f) {
        if (i + 1 >= n)
            return P54C_C_OTHER;
        op = b[i + 1];
        if (op == 0x38 && i + 3 < n && b[i + 2] >= 0xf0)
            return (b[i + 3] >> 6) != 3 ? P54C_C_MEM
                                        : P54C_C_INT; /* movbe, crc32 */
        if (op == 0x38 || op == 0x3a)
            return P54C_C_FADD; /* SSSE3, SSE4, AES: xmm registers */
        has_modrm = !bit(nomodrm2, op);
        if (has_modrm && i + 2 < n)
            modrm = b[i + 2];
        return two_byte(op, has_modrm, modrm);
    }
    has_modrm = bit(modrm1, op);
    if (has_modrm && i + 1 < n)
        modrm = b[i + 1];
    /* OTHER */
    if (op == 0x86 || op == 0x87 || (op >= 0x91 && op <= 0x97))
        return P54C_C_OTHER; /* xchg */
    /* STRING */
    if (is_string(op))
        return rep ? P54C_C_STRING : P54C_C_MEM;
    /* BRANCH */
    if ((op >= 0x70 && op <= 0x7f) || (op >= 0xe0 && op <= 0xe3) ||
        op == 0xe8 || op == 0xe9 || op == 0xeb || op == 0xc2 ||
        op == 0xc3 || op == 0xca || op == 0xcb || op == 0xcf ||
        (op == 0xff && ((modrm >> 3) & 7) >= 2 && ((modrm >> 3) & 7) <= 5))
        return P54C_C_BRANCH;
    /* DIV, MUL */
    if (op == 0xf6 || op == 0xf7) {
        unsigned reg = (modrm >> 3) & 7;
        if (reg == 6 || reg == 7)
            return P54C_C_DIV;
        if (reg == 4 || reg == 5)
            return P54C_C_MUL;
    }
    if (op == 0x69 || op == 0x6b)
        return P54C_C_MUL;
    if (op >= 0xd8 && op <= 0xdf)
        return x87(op, modrm);
    if (op == 0xcd || op == 0xf4)
        return P54C_C_OTHER; /* int, hlt */
    if (op == 0x8d)
        return P54C_C_INT; /* lea */
    if (has_modrm && (modrm >> 6) != 3)
        return P54C_C_MEM;
    return P54C_C_INT;
}

int p54c_string_width(const uint8_t *b, size_t n)
{
    prefixes_t px = prefixes(b, n);

    if (px.op >= n || !is_string(b[px.op]))
        return 0;
    /* even opcodes: the byte forms */
    return (b[px.op] & 1) == 0 ? 1 : px.width;
}

/* Legacy-encoded (0F map) floating-point opcodes with packed forms:
 * moves (movups/movaps/movntps and their pd forms), unpcklps/unpckhps,
 * 51-5F (sqrt ... max, conversions), cmpps, shufps. The prefix picks the
 * form: none ps, 66 pd, F3/F2 the scalar ss/sd (one element). */
static int packed_fp_op(unsigned op)
{
    return op == 0x10 || op == 0x11 || op == 0x14 || op == 0x15 ||
           op == 0x28 || op == 0x29 || op == 0x2b ||
           (op >= 0x51 && op <= 0x5f) || op == 0xc2 || op == 0xc6;
}

/* Elements of a @p bytes-wide vector of the form @p pp (0 ps, 1 pd, 2 ss,
 * 3 sd, as VEX's pp field) for 0F-map opcode @p op. */
static int fp_elements(unsigned op, unsigned pp, unsigned bytes)
{
    if (!packed_fp_op(op) || pp >= 2)
        return 1;
    if (op == 0x5a)
        return (int)(bytes / 8); /* cvtps2pd, cvtpd2ps: the doubles */
    if (op == 0x5b)
        return (int)(bytes / 4); /* cvtdq2ps, cvt(t)ps2dq: 4-byte items */
    return (int)(bytes / (pp == 1 ? 8 : 4));
}

int p54c_simd_elements(const uint8_t *b, size_t n)
{
    prefixes_t px = prefixes(b, n);
    size_t i = px.op;

    if (i >= n)
        return 1;
    if (b[i] == 0x0f && i + 1 < n) /* legacy SSE: 16 bytes */
        return fp_elements(b[i + 1], px.rep ? 2 : px.width == 2 ? 1 : 0, 16);
    if (b[i] == 0xc5 && i + 2 < n) /* VEX2: map 1, R vvvv L pp */
        return fp_elements(b[i + 2], b[i + 1] & 3,
                           (b[i + 1] & 4) ? 32 : 16);
    if ((b[i] == 0xc4 && i + 3 < n) || (b[i] == 0x62 && i + 4 < n)) {
        int evex = b[i] == 0x62;
        unsigned map = b[i + 1] & (evex ? 0x07 : 0x1f);
        unsigned wpp = b[i + 2], op = b[i + (evex ? 4 : 3)];
        unsigned bytes = evex ? 16u << ((b[i + 3] >> 5) & 3)
                              : (wpp & 4) ? 32 : 16;
        unsigned lo = op & 0xf;
        if (map == 1)
            return fp_elements(op, wpp & 3, bytes);
        /* fused multiply-adds (x6-xf of 96-bf): the scalar forms end in
         * 9, b, d, f; W is the element size */
        if (map == 2 && op >= 0x96 && op <= 0xbf && lo >= 6 && lo != 9 &&
            lo != 0xb && lo != 0xd && lo != 0xf)
            return (int)(bytes / ((wpp & 0x80) ? 8 : 4));
    }
    return 1;
}

uint32_t p54c_insn_units(const uint8_t *b, size_t n, const uint32_t *units,
                         int *cls)
{
    int c = p54c_classify(b, n);

    if (cls != NULL)
        *cls = c;
    if (c == P54C_C_STRING)
        return (uint32_t)((uint64_t)units[c] *
                          (uint64_t)p54c_string_width(b, n) / 4);
    if (c == P54C_C_FADD || c == P54C_C_FMUL || c == P54C_C_FDIV ||
        c == P54C_C_FSQRT)
        return units[c] * (uint32_t)p54c_simd_elements(b, n);
    return units[c];
}

/* ---- the compiled counters' own instructions (docs/P54C-COUNTERS.md) ---- */

static int bytes_are(const uint8_t *b, size_t n, const uint8_t *want,
                     size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (i >= n || b[i] != want[i])
            return 0;
    return n == len;
}

/* An add to one of the counters: REX.W 81 /0 or 83 /0 (immediate) or
 * 01 /r (a register), absolute disp32 (ModRM mod 00 rm 100, SIB 25). */
static int ctr_add(const uint8_t *b, size_t n)
{
    uint32_t disp;

    if (n < 8 || b[0] != 0x48 || (b[2] & 0xc7) != 0x04 || b[3] != 0x25)
        return 0;
    if (!((b[1] == 0x81 && n == 12 && b[2] == 0x04) ||
          (b[1] == 0x83 && n == 9 && b[2] == 0x04) ||
          (b[1] == 0x01 && n == 8)))
        return 0;
    disp = (uint32_t)b[4] | (uint32_t)b[5] << 8 | (uint32_t)b[6] << 16 |
           (uint32_t)b[7] << 24;
    return disp == P54C_CTR_ADDR + P54C_CTR_INSNS_OFF ||
           disp == P54C_CTR_ADDR + P54C_CTR_UNITS_OFF ||
           disp == P54C_CTR_ADDR + P54C_CTR_RD_OFF ||
           disp == P54C_CTR_ADDR + P54C_CTR_WR_OFF;
}

int p54c_ctr_kind(const uint8_t *b, size_t n)
{
    static const uint8_t lea_down[] = {0x48, 0x8d, 0x64, 0x24, 0x80};
    static const uint8_t lea_up[] = {0x48, 0x8d, 0xa4, 0x24,
                                     0x80, 0x00, 0x00, 0x00};

    if (ctr_add(b, n))
        return P54C_CK_ADD;
    if (bytes_are(b, n, lea_down, sizeof(lea_down)))
        return P54C_CK_LEA_DOWN;
    if (bytes_are(b, n, lea_up, sizeof(lea_up)))
        return P54C_CK_LEA_UP;
    if (n == 1 && b[0] == 0x9c)
        return P54C_CK_PUSHF;
    if (n == 1 && b[0] == 0x9d)
        return P54C_CK_POPF;
    if (n == 1 && b[0] == 0x50)
        return P54C_CK_PUSH_RAX;
    if (n == 1 && b[0] == 0x58)
        return P54C_CK_POP_RAX;
    /* imul $C, %rcx, %rax: REX.W 69 /r imm32 or 6b /r imm8, ModRM c1 */
    if (n >= 4 && b[0] == 0x48 && b[2] == 0xc1 &&
        ((b[1] == 0x69 && n == 7) || (b[1] == 0x6b && n == 4)))
        return P54C_CK_IMUL;
    return P54C_CK_NONE;
}

int p54c_ctr_mark(const int *kind, size_t n, uint8_t *skip, int open_head)
{
    static const int before[] = {P54C_CK_IMUL, P54C_CK_PUSH_RAX,
                                 P54C_CK_PUSHF, P54C_CK_LEA_DOWN};
    static const int after[] = {P54C_CK_POP_RAX, P54C_CK_POPF,
                                P54C_CK_LEA_UP};
    int open_tail = 0;

    for (size_t i = 0; i < n; i++)
        skip[i] = kind[i] == P54C_CK_ADD;
    /* the lea that closes a sequence the previous block ended with */
    if (open_head && n > 0 && kind[0] == P54C_CK_LEA_UP)
        skip[0] = 1;
    for (size_t i = 0; i < n; i++) {
        size_t j, e, m;
        if (!skip[i] || kind[i] != P54C_CK_ADD ||
            (i > 0 && kind[i - 1] == P54C_CK_ADD))
            continue; /* not the first add of a run */
        e = i;
        while (e + 1 < n && kind[e + 1] == P54C_CK_ADD)
            e++;
        /* the flags saved before the run and restored after it: lea,
         * pushf (push and imul in the string form) ... popf, lea; all of
         * it or nothing. QEMU ends a block after popf, so the closing lea
         * may be the next block's first instruction (an open tail). */
        j = i;
        for (size_t k = 0; k < sizeof(before) / sizeof(before[0]); k++)
            if (j > 0 && kind[j - 1] == before[k])
                j--;
        m = e;
        for (size_t k = 0; k < sizeof(after) / sizeof(after[0]); k++)
            if (m + 1 < n && kind[m + 1] == after[k])
                m++;
        int front = j + 2 <= i && kind[j] == P54C_CK_LEA_DOWN &&
                    kind[j + 1] == P54C_CK_PUSHF;
        size_t tail = m - e; /* parts found after the run */
        int closed = tail >= 2 && kind[m] == P54C_CK_LEA_UP &&
                     kind[m - 1] == P54C_CK_POPF;
        int open = !closed && m == n - 1 && tail >= 1 &&
                   kind[m] == P54C_CK_POPF;
        size_t want = (i - j == 4 ? 3 : 2) - (open ? 1 : 0);
        if (!front || (!closed && !open) || (i - j != 2 && i - j != 4) ||
            tail != want)
            continue;
        for (size_t k = j; k <= m; k++)
            skip[k] = 1;
        open_tail = open;
    }
    return open_tail;
}

/* ---- the compiled memory model's checks (docs/P54C-COUNTERS.md) ---- */

/* movq %rax, <abs32> (REX.W 89 /0, ModRM 04, SIB 25) or movq <abs32>,
 * %rax (8b): @return the address, 0 if not that form. */
static uint32_t rax_abs(const uint8_t *b, size_t n, uint8_t op)
{
    if (n != 8 || b[0] != 0x48 || b[1] != op || b[2] != 0x04 || b[3] != 0x25)
        return 0;
    return (uint32_t)b[4] | (uint32_t)b[5] << 8 | (uint32_t)b[6] << 16 |
           (uint32_t)b[7] << 24;
}

int p54c_check_edge(const uint8_t *b, size_t n)
{
    if (rax_abs(b, n, 0x89) == P54C_CTR_ADDR + P54C_CTR_SA_OFF)
        return 1;
    if (rax_abs(b, n, 0x8b) == P54C_CTR_ADDR + P54C_CTR_SA_OFF)
        return 2;
    return 0;
}

int p54c_direct_target(const uint8_t *b, size_t n, uint64_t va,
                       uint64_t *target)
{
    int64_t rel;

    if (n == 2 && ((b[0] >= 0x70 && b[0] <= 0x7f) || b[0] == 0xeb)) {
        rel = (int8_t)b[1];
    } else if (n == 5 && b[0] == 0xe9) {
        rel = (int32_t)((uint32_t)b[1] | (uint32_t)b[2] << 8 |
                        (uint32_t)b[3] << 16 | (uint32_t)b[4] << 24);
    } else if (n == 6 && b[0] == 0x0f && b[1] >= 0x80 && b[1] <= 0x8f) {
        rel = (int32_t)((uint32_t)b[2] | (uint32_t)b[3] << 8 |
                        (uint32_t)b[4] << 16 | (uint32_t)b[5] << 24);
    } else {
        return 0;
    }
    *target = va + n + (uint64_t)rel;
    return 1;
}

int p54c_is_nop(const uint8_t *b, size_t n)
{
    size_t i = 0;

    while (i < n && (b[i] == 0x66 || b[i] == 0x2e))
        i++;
    if (i + 1 == n && b[i] == 0x90)
        return 1;
    return i + 2 < n && b[i] == 0x0f && b[i + 1] == 0x1f;
}
