/*
 * The P54C compute model's instruction classes from instruction bytes
 * (p54c_classify.c). Plain C, used by the QEMU plugin and the unit test.
 */
#ifndef RCK_SIM_P54C_CLASSIFY_H
#define RCK_SIM_P54C_CLASSIFY_H

#include <stddef.h>
#include <stdint.h>

/* The fetch map of checked code (rck-as with RCK_AS_MEM=1; docs/P54C.md,
 * "Fetch at the unchecked addresses"): one entry per segment of the
 * program's instructions, four 32-bit words: the segment's start in the
 * checked code relative to the entry's first word, its length, its start
 * in the shadow (the unchecked layout) relative to the third word, its
 * length there. The QEMU engine fetches a checked segment's instructions
 * at their shadow addresses, as the compiled engine does. */
#define P54C_FMAP_SECTION ".rck_fetchmap"
#define P54C_FMAP_ENTRY 16

/* @return the class (P54C_C_*, p54c_abi.h) of the x86-64 instruction in
 * @p b (@p n bytes, exactly one instruction). */
int p54c_classify(const uint8_t *b, size_t n);

/* @return the bytes one iteration of the string instruction in @p b moves
 * (1, 2, 4 or 8), 0 if it is no string instruction. QEMU runs a rep string
 * instruction as one executed instruction per iteration; the P54C's own
 * `rep movsd`/`rep stosd` move 4 bytes an iteration, so an iteration is
 * charged width / 4 of the string class's cycles. */
int p54c_string_width(const uint8_t *b, size_t n);

/* @return the floating-point elements the SSE/AVX instruction in @p b
 * operates on: 4 for a packed single-precision instruction on xmm
 * registers (8 on ymm, 16 on zmm), 2 for a packed double (4, 8), 1 for
 * the scalar forms and every other instruction. Packed floating-point
 * arithmetic, conversions, compares, shuffles and whole-register moves
 * (movaps, movups, movapd, ...) and the packed fused multiply-adds count;
 * integer SIMD (paddd, movdqa, ...) does not (1). */
int p54c_simd_elements(const uint8_t *b, size_t n);

/* @return the units (1/P54C_FIX cycle) one execution of the instruction
 * in @p b (@p n bytes) costs under the table @p units (P54C_NCLASS
 * entries): its class's, for a string instruction one iteration's, by
 * its width (p54c_string_width), for a packed floating-point one once per
 * element (p54c_simd_elements: the P54C had x87 only, so an auto-
 * vectorised loop costs what its scalar form would). *@p cls (if not
 * NULL): its class. The
 * plugin and the compiled counters' assembler (tools/rck_as.c) charge by
 * it alike. */
uint32_t p54c_insn_units(const uint8_t *b, size_t n, const uint32_t *units,
                         int *cls);

/* The compiled counters' own instructions, which the plugin does not
 * count (docs/P54C-COUNTERS.md): kinds of single instructions ... */
enum {
    P54C_CK_NONE = 0,  /* the program's */
    P54C_CK_ADD,       /* add to a counter word (absolute address) */
    P54C_CK_LEA_DOWN,  /* lea -128(%rsp), %rsp */
    P54C_CK_LEA_UP,    /* lea 128(%rsp), %rsp */
    P54C_CK_PUSHF,     /* pushfq */
    P54C_CK_POPF,      /* popfq */
    P54C_CK_PUSH_RAX,  /* push %rax */
    P54C_CK_POP_RAX,   /* pop %rax */
    P54C_CK_IMUL       /* imul $C, %rcx, %rax */
};
int p54c_ctr_kind(const uint8_t *b, size_t n);

/* ... and of a block of @p n instructions of @p kind: @p skip[i] set for
 * the counters' adds and the sequences that save the flags around them.
 * QEMU ends a block after popf, so a sequence's closing lea may begin the
 * next block: @p open_head says the block follows such an open tail (its
 * first instruction, if that lea, is skipped). @return 1 if this block
 * ends in an open tail. */
int p54c_ctr_mark(const int *kind, size_t n, uint8_t *skip, int open_head);

/* The compiled memory model's checks (code built with RCK_AS_MEM=1,
 * docs/P54C-COUNTERS.md "Memory accesses"): each begins by saving %rax to
 * the page (@return 1) and ends by restoring it (@return 2); everything in
 * between is the check's, 0 for any other instruction. */
int p54c_check_edge(const uint8_t *b, size_t n);

/* A no-operation as the assembler pads with (nop, xchg %ax,%ax, the
 * multi-byte nopl/nopw forms with their 0x66 and cs prefixes; not pause):
 * @return 1. Neither engine counts the padding (rck-as never sees it). */
int p54c_is_nop(const uint8_t *b, size_t n);

/* A direct jump or conditional jump at @p va (@p n bytes @p b): @return 1
 * and its *@p target, else 0. */
int p54c_direct_target(const uint8_t *b, size_t n, uint64_t va,
                       uint64_t *target);

#endif
