/*
 * The P54C model's instruction classes from instruction bytes
 * (src/backends/sim/qemu/p54c_classify.c): one case or more per rule,
 * the encodings written out by hand (AT&T syntax in the comments).
 */
#include "p54c_abi.h"
#include "qemu/p54c_classify.h"
#include "unit.h"

#include <stdint.h>

typedef struct {
    const char *what;
    uint8_t bytes[15];
    size_t n;
    int cls;
} case_t;

static const case_t cases[] = {
    /* INT: register and immediate ALU, lea, nops, push/pop */
    {"addl %esi, %edi", {0x01, 0xf7}, 2, P54C_C_INT},
    {"movq %rsp, %rbp", {0x48, 0x89, 0xe5}, 3, P54C_C_INT},
    {"movl $1, %eax", {0xb8, 1, 0, 0, 0}, 5, P54C_C_INT},
    {"leaq 8(%rdi), %rax", {0x48, 0x8d, 0x47, 0x08}, 4, P54C_C_INT},
    {"nopl 0(%rax)", {0x0f, 0x1f, 0x40, 0x00}, 4, P54C_C_INT},
    {"pushq %rbp", {0x55}, 1, P54C_C_INT},
    {"cmovel %ecx, %eax", {0x0f, 0x44, 0xc1}, 3, P54C_C_INT},
    {"vzeroupper", {0xc5, 0xf8, 0x77}, 3, P54C_C_INT},
    /* MEM: a memory operand, also through a segment or a string op */
    {"movl (%rdi), %eax", {0x8b, 0x07}, 2, P54C_C_MEM},
    {"addl %eax, 4(%rsi)", {0x01, 0x46, 0x04}, 3, P54C_C_MEM},
    {"movq %fs:0x28, %rax", {0x64, 0x48, 0x8b, 0x04, 0x25, 0x28, 0, 0, 0},
     9, P54C_C_MEM},
    {"movzbl (%rax), %eax", {0x0f, 0xb6, 0x00}, 3, P54C_C_MEM},
    {"stosb (no rep)", {0xaa}, 1, P54C_C_MEM},
    {"incl (%rax)", {0xff, 0x00}, 2, P54C_C_MEM},
    /* BRANCH */
    {"jne rel8", {0x75, 0x10}, 2, P54C_C_BRANCH},
    {"je rel32", {0x0f, 0x84, 0, 1, 0, 0}, 6, P54C_C_BRANCH},
    {"callq rel32", {0xe8, 0, 0, 0, 0}, 5, P54C_C_BRANCH},
    {"jmpq *%rax", {0xff, 0xe0}, 2, P54C_C_BRANCH},
    {"callq *8(%rax)", {0xff, 0x50, 0x08}, 3, P54C_C_BRANCH},
    {"retq", {0xc3}, 1, P54C_C_BRANCH},
    {"loop rel8", {0xe2, 0xfe}, 2, P54C_C_BRANCH},
    /* MUL, DIV */
    {"imull %esi, %edi", {0x0f, 0xaf, 0xfe}, 3, P54C_C_MUL},
    {"imull $10, %eax, %eax", {0x6b, 0xc0, 0x0a}, 3, P54C_C_MUL},
    {"mulq %rcx", {0x48, 0xf7, 0xe1}, 3, P54C_C_MUL},
    {"mulx %rcx, %rax, %rdx", {0xc4, 0xe2, 0xfb, 0xf6, 0xc1}, 5, P54C_C_MUL},
    {"divl %ecx", {0xf7, 0xf1}, 2, P54C_C_DIV},
    {"idivq (%rdi)", {0x48, 0xf7, 0x3f}, 3, P54C_C_DIV},
    {"notl %eax (group 3, not mul/div)", {0xf7, 0xd0}, 2, P54C_C_INT},
    /* x87 */
    {"faddp", {0xde, 0xc1}, 2, P54C_C_FADD},
    {"fmull 8(%rax)", {0xdc, 0x48, 0x08}, 3, P54C_C_FMUL},
    {"fdivrp", {0xde, 0xf1}, 2, P54C_C_FDIV},
    {"fidivrl (%rax)", {0xda, 0x38}, 2, P54C_C_FDIV},
    {"fsqrt", {0xd9, 0xfa}, 2, P54C_C_FSQRT},
    {"fldl (%rax)", {0xdd, 0x00}, 2, P54C_C_FADD},
    /* SSE and AVX */
    {"addsd %xmm1, %xmm0", {0xf2, 0x0f, 0x58, 0xc1}, 4, P54C_C_FADD},
    {"movsd (%rax), %xmm0", {0xf2, 0x0f, 0x10, 0x00}, 4, P54C_C_FADD},
    {"mulpd %xmm1, %xmm0", {0x66, 0x0f, 0x59, 0xc1}, 4, P54C_C_FMUL},
    {"divss %xmm1, %xmm0", {0xf3, 0x0f, 0x5e, 0xc1}, 4, P54C_C_FDIV},
    {"sqrtsd %xmm1, %xmm0", {0xf2, 0x0f, 0x51, 0xc1}, 4, P54C_C_FSQRT},
    {"pxor %xmm0, %xmm0", {0x66, 0x0f, 0xef, 0xc0}, 4, P54C_C_FADD},
    {"vmulsd %xmm2, %xmm1, %xmm0", {0xc5, 0xf3, 0x59, 0xc2}, 4, P54C_C_FMUL},
    {"vdivpd %ymm2, %ymm1, %ymm0", {0xc5, 0xf5, 0x5e, 0xc2}, 4, P54C_C_FDIV},
    {"vfmadd231sd %xmm2, %xmm1, %xmm0", {0xc4, 0xe2, 0xf1, 0xb9, 0xc2}, 5,
     P54C_C_FMUL},
    {"vmovdqu (%rsi), %ymm0", {0xc5, 0xfe, 0x6f, 0x06}, 4, P54C_C_FADD},
    {"pshufb %xmm1, %xmm0", {0x66, 0x0f, 0x38, 0x00, 0xc1}, 5, P54C_C_FADD},
    /* STRING: rep + string op */
    {"rep stosb", {0xf3, 0xaa}, 2, P54C_C_STRING},
    {"rep movsq", {0xf3, 0x48, 0xa5}, 3, P54C_C_STRING},
    {"repne scasb", {0xf2, 0xae}, 2, P54C_C_STRING},
    /* OTHER */
    {"lock addl $1, (%rdi)", {0xf0, 0x83, 0x07, 0x01}, 4, P54C_C_OTHER},
    {"lock cmpxchgq %rsi, (%rdi)", {0xf0, 0x48, 0x0f, 0xb1, 0x37}, 5,
     P54C_C_OTHER},
    {"xchgl %eax, (%rdi)", {0x87, 0x07}, 2, P54C_C_OTHER},
    {"syscall", {0x0f, 0x05}, 2, P54C_C_OTHER},
    {"cpuid", {0x0f, 0xa2}, 2, P54C_C_OTHER},
    {"rdtsc", {0x0f, 0x31}, 2, P54C_C_OTHER},
    {"rdtscp", {0x0f, 0x01, 0xf9}, 3, P54C_C_OTHER},
    {"(no opcode: prefixes only)", {0x66, 0x66}, 2, P54C_C_OTHER},
};

/* The width of one string iteration. */
static const struct {
    const char *what;
    uint8_t bytes[4];
    size_t n;
    int width;
} widths[] = {
    {"rep stosb", {0xf3, 0xaa}, 2, 1},
    {"rep movsw", {0x66, 0xf3, 0xa5}, 3, 2},
    {"rep movsd", {0xf3, 0xa5}, 2, 4},
    {"rep movsq", {0xf3, 0x48, 0xa5}, 3, 8},
    {"repne scasb", {0xf2, 0xae}, 2, 1},
    {"lodsd", {0xad}, 1, 4},
    {"mov eax, ebx", {0x89, 0xd8}, 2, 0},
    {"add rax, rbx", {0x48, 0x01, 0xd8}, 3, 0},
};

/* The floating-point elements of a packed SSE/AVX instruction (each is
 * charged its class's cycles: the P54C had x87 only). */
static const struct {
    const char *what;
    uint8_t bytes[8];
    size_t n;
    int elements;
} elems[] = {
    {"addsd %xmm1, %xmm0", {0xf2, 0x0f, 0x58, 0xc1}, 4, 1},
    {"addss %xmm1, %xmm0", {0xf3, 0x0f, 0x58, 0xc1}, 4, 1},
    {"addpd %xmm1, %xmm0", {0x66, 0x0f, 0x58, 0xc1}, 4, 2},
    {"addps %xmm1, %xmm0", {0x0f, 0x58, 0xc1}, 3, 4},
    {"mulpd %xmm1, %xmm0", {0x66, 0x0f, 0x59, 0xc1}, 4, 2},
    {"divpd %xmm1, %xmm0", {0x66, 0x0f, 0x5e, 0xc1}, 4, 2},
    {"sqrtps %xmm1, %xmm0", {0x0f, 0x51, 0xc1}, 3, 4},
    {"movaps (%rax), %xmm0", {0x0f, 0x28, 0x00}, 3, 4},
    {"movapd %xmm1, %xmm0", {0x66, 0x0f, 0x28, 0xc1}, 4, 2},
    {"movups %xmm0, (%rdi)", {0x0f, 0x11, 0x07}, 3, 4},
    {"movsd (%rax), %xmm0", {0xf2, 0x0f, 0x10, 0x00}, 4, 1},
    {"shufps $0, %xmm0, %xmm0", {0x0f, 0xc6, 0xc0, 0x00}, 4, 4},
    {"cvtdq2ps %xmm1, %xmm0", {0x0f, 0x5b, 0xc1}, 3, 4},
    {"cvtps2pd %xmm1, %xmm0", {0x0f, 0x5a, 0xc1}, 3, 2},
    {"cvtpd2ps %xmm1, %xmm0", {0x66, 0x0f, 0x5a, 0xc1}, 4, 2},
    {"cvtsd2ss %xmm1, %xmm0", {0xf2, 0x0f, 0x5a, 0xc1}, 4, 1},
    {"comisd %xmm1, %xmm0", {0x66, 0x0f, 0x2f, 0xc1}, 4, 1},
    {"vaddpd %ymm2, %ymm1, %ymm0", {0xc5, 0xf5, 0x58, 0xc2}, 4, 4},
    {"vaddps %ymm2, %ymm1, %ymm0", {0xc5, 0xf4, 0x58, 0xc2}, 4, 8},
    {"vmulsd %xmm2, %xmm1, %xmm0", {0xc5, 0xf3, 0x59, 0xc2}, 4, 1},
    {"vfmadd231pd %xmm2, %xmm1, %xmm0", {0xc4, 0xe2, 0xf1, 0xb8, 0xc2}, 5,
     2},
    {"vfmadd231ps %ymm2, %ymm1, %ymm0", {0xc4, 0xe2, 0x75, 0xb8, 0xc2}, 5,
     8},
    {"vfmadd231sd %xmm2, %xmm1, %xmm0", {0xc4, 0xe2, 0xf1, 0xb9, 0xc2}, 5,
     1},
    {"vaddpd %zmm2, %zmm1, %zmm0", {0x62, 0xf1, 0xf5, 0x48, 0x58, 0xc2}, 6,
     8},
    /* integer SIMD and everything else: one */
    {"pxor %xmm0, %xmm0", {0x66, 0x0f, 0xef, 0xc0}, 4, 1},
    {"vmovdqu (%rsi), %ymm0", {0xc5, 0xfe, 0x6f, 0x06}, 4, 1},
    {"faddp", {0xde, 0xc1}, 2, 1},
    {"addl %esi, %edi", {0x01, 0xf7}, 2, 1},
};

/* The units p54c_insn_units charges: the class's, once per element. */
static int units_checks(void)
{
    static const struct {
        const char *what;
        uint8_t bytes[8];
        size_t n;
        int cls, times; /* units[cls] x times */
    } u[] = {
        {"addsd", {0xf2, 0x0f, 0x58, 0xc1}, 4, P54C_C_FADD, 1},
        {"addpd", {0x66, 0x0f, 0x58, 0xc1}, 4, P54C_C_FADD, 2},
        {"mulps", {0x0f, 0x59, 0xc1}, 3, P54C_C_FMUL, 4},
        {"vdivpd ymm", {0xc5, 0xf5, 0x5e, 0xc2}, 4, P54C_C_FDIV, 4},
        {"sqrtpd", {0x66, 0x0f, 0x51, 0xc1}, 4, P54C_C_FSQRT, 2},
        {"movl (%rdi), %eax", {0x8b, 0x07}, 2, P54C_C_MEM, 1},
    };
    uint32_t units[P54C_NCLASS];
    int bad = 0;

    for (int k = 0; k < P54C_NCLASS; k++)
        units[k] = 100u + 7u * (uint32_t)k;
    for (size_t i = 0; i < sizeof(u) / sizeof(u[0]); i++) {
        int cls = -1;
        uint32_t got = p54c_insn_units(u[i].bytes, u[i].n, units, &cls);
        if (cls != u[i].cls || got != units[u[i].cls] * (uint32_t)u[i].times) {
            fprintf(stderr, "%s: %u units of class %d, expected %u of %d\n",
                    u[i].what, got, cls,
                    units[u[i].cls] * (uint32_t)u[i].times, u[i].cls);
            bad++;
        }
    }
    return bad;
}

/* The compiled counters' sequences (docs/P54C-COUNTERS.md), as gas
 * assembles them, and what the plugin skips of a block holding them. */
static const struct {
    uint8_t bytes[12];
    size_t n;
    int kind;
} ctr_insns[] = {
    {{0x48, 0x83, 0x04, 0x25, 0x40, 0x00, 0x10, 0x00, 0x05}, 9, P54C_CK_ADD},
    {{0x48, 0x81, 0x04, 0x25, 0x80, 0x00, 0x10, 0x00, 0xe8, 0x03, 0, 0},
     12, P54C_CK_ADD},
    {{0x48, 0x8d, 0x64, 0x24, 0x80}, 5, P54C_CK_LEA_DOWN},
    {{0x9c}, 1, P54C_CK_PUSHF},
    {{0x50}, 1, P54C_CK_PUSH_RAX},
    {{0x48, 0x6b, 0xc1, 0x18}, 4, P54C_CK_IMUL},
    {{0x48, 0x01, 0x04, 0x25, 0x80, 0x00, 0x10, 0x00}, 8, P54C_CK_ADD},
    {{0x48, 0x01, 0x0c, 0x25, 0x40, 0x00, 0x10, 0x00}, 8, P54C_CK_ADD},
    {{0x58}, 1, P54C_CK_POP_RAX},
    {{0x9d}, 1, P54C_CK_POPF},
    {{0x48, 0x8d, 0xa4, 0x24, 0x80, 0x00, 0x00, 0x00}, 8, P54C_CK_LEA_UP},
    /* not ours: another address, another register, a load */
    {{0x48, 0x83, 0x04, 0x25, 0x48, 0x00, 0x10, 0x00, 0x05}, 9, P54C_CK_NONE},
    {{0x48, 0x01, 0x14, 0x25, 0x80, 0x00, 0x10, 0x00}, 8, P54C_CK_ADD},
    {{0x48, 0x03, 0x04, 0x25, 0x80, 0x00, 0x10, 0x00}, 8, P54C_CK_NONE},
    {{0x48, 0x8d, 0x64, 0x24, 0x88}, 5, P54C_CK_NONE},
};

static int ctr_checks(void)
{
    enum { N = P54C_CK_NONE, A = P54C_CK_ADD, LD = P54C_CK_LEA_DOWN,
           LU = P54C_CK_LEA_UP, PF = P54C_CK_PUSHF, QF = P54C_CK_POPF,
           PA = P54C_CK_PUSH_RAX, QA = P54C_CK_POP_RAX, IM = P54C_CK_IMUL };
    static const struct {
        const char *what;
        int kind[16];
        size_t n;
        int open_head;
        const char *skip; /* 1 per instruction skipped */
        int open_tail;    /* p54c_ctr_mark's answer */
    } blocks[] = {
        {"plain adds", {N, A, A, N}, 4, 0, "0110", 0},
        {"flags saved", {N, LD, PF, A, A, QF, LU, N}, 8, 0, "01111110", 0},
        {"string form", {LD, PF, PA, IM, A, A, QA, QF, LU, N}, 10, 0,
         "1111111110", 0},
        {"program's push before plain adds", {PA, A, A, N}, 4, 0, "0110", 0},
        {"program's pushf, lea without restore", {LD, PF, A, A, N}, 5, 0,
         "00110", 0},
        {"string form without its pop", {LD, PF, PA, IM, A, A, QF, LU}, 8, 0,
         "00001100", 0},
        /* QEMU ends a block after popf: the lea opens the next one */
        {"flags saved, block ends at popf", {N, LD, PF, A, A, QF}, 6, 0,
         "011111", 1},
        {"string form, block ends at popf", {LD, PF, PA, IM, A, A, QA, QF}, 8,
         0, "11111111", 1},
        {"the block after an open tail", {LU, N, A, A}, 4, 1, "1011", 0},
        {"a lea up without an open tail", {LU, N, A, A}, 4, 0, "0011", 0},
        {"popf last but no save before", {N, A, A, QF}, 4, 0, "0110", 0},
    };
    int bad = 0;

    for (size_t i = 0; i < sizeof(ctr_insns) / sizeof(ctr_insns[0]); i++) {
        int got = p54c_ctr_kind(ctr_insns[i].bytes, ctr_insns[i].n);
        if (got != ctr_insns[i].kind) {
            fprintf(stderr, "counter instruction %zu: kind %d, expected %d\n",
                    i, got, ctr_insns[i].kind);
            bad++;
        }
    }
    for (size_t b = 0; b < sizeof(blocks) / sizeof(blocks[0]); b++) {
        uint8_t skip[16];
        int open = p54c_ctr_mark(blocks[b].kind, blocks[b].n, skip,
                                 blocks[b].open_head);
        if (open != blocks[b].open_tail) {
            fprintf(stderr, "%s: open tail %d\n", blocks[b].what, open);
            bad++;
        }
        for (size_t i = 0; i < blocks[b].n; i++)
            if (skip[i] != (blocks[b].skip[i] == '1')) {
                fprintf(stderr, "%s: instruction %zu skipped %d\n",
                        blocks[b].what, i, skip[i]);
                bad++;
            }
    }
    return bad;
}

/* The assembler's padding is recognised (the QEMU engine does not count
 * it); pause, and instructions that only begin like a nop, are not. */
static const struct {
    const char *what;
    uint8_t bytes[12];
    size_t n;
    int nop;
} nops[] = {
    {"nop", {0x90}, 1, 1},
    {"xchg %ax,%ax", {0x66, 0x90}, 2, 1},
    {"nopl (%rax)", {0x0f, 0x1f, 0x00}, 3, 1},
    {"nopl 0x0(%rax,%rax,1)", {0x0f, 0x1f, 0x44, 0x00, 0x00}, 5, 1},
    {"nopw 0x0(%rax,%rax,1)", {0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00}, 6, 1},
    {"cs nopw 0x0(%rax,%rax,1)",
     {0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00}, 10, 1},
    {"data16 cs nopw",
     {0x66, 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00},
     11, 1},
    {"pause", {0xf3, 0x90}, 2, 0},
    {"xchg %eax,%ecx", {0x91}, 1, 0},
    {"ud2", {0x0f, 0x0b}, 2, 0},
    {"mov %eax,%eax", {0x89, 0xc0}, 2, 0},
};

int main(void)
{
    for (size_t i = 0; i < sizeof(nops) / sizeof(nops[0]); i++) {
        int got = p54c_is_nop(nops[i].bytes, nops[i].n);
        if (got != nops[i].nop)
            fprintf(stderr, "%s: nop %d, expected %d\n", nops[i].what, got,
                    nops[i].nop);
        CHECK(got == nops[i].nop);
    }
    CHECK(ctr_checks() == 0);
    CHECK(units_checks() == 0);
    for (size_t i = 0; i < sizeof(elems) / sizeof(elems[0]); i++) {
        int got = p54c_simd_elements(elems[i].bytes, elems[i].n);
        if (got != elems[i].elements)
            fprintf(stderr, "%s: %d elements, expected %d\n", elems[i].what,
                    got, elems[i].elements);
        CHECK(got == elems[i].elements);
    }
    for (size_t i = 0; i < sizeof(widths) / sizeof(widths[0]); i++) {
        int got = p54c_string_width(widths[i].bytes, widths[i].n);
        if (got != widths[i].width)
            fprintf(stderr, "%s: width %d, expected %d\n", widths[i].what,
                    got, widths[i].width);
        CHECK(got == widths[i].width);
    }
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        int got = p54c_classify(cases[i].bytes, cases[i].n);
        if (got != cases[i].cls)
            fprintf(stderr, "%s: class %d, expected %d\n", cases[i].what,
                    got, cases[i].cls);
        CHECK(got == cases[i].cls);
    }
    return failures != 0;
}
