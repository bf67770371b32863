/*
 * rck-as, the compiled counters' assembler (docs/P54C-COUNTERS.md): the
 * parsed assembly file and the passes over it.
 *   rck_as.c        command line, the real assembler, the two passes
 *   rck_as_parse.c  statements, sections, the instructions' flag effects
 *   rck_as_flow.c   blocks, flag liveness, placement, the output texts
 *   rck_as_shadow.c the unchecked code's copy the fetches are booked at
 */
#ifndef RCK_TOOLS_RCK_AS_H
#define RCK_TOOLS_RCK_AS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum { IT_OTHER, IT_LABEL, IT_INSN, IT_APP };

/* What an instruction does to the status flags (CF PF AF ZF SF OF). */
enum {
    FX_READ,   /* may read them (and anything unknown) */
    FX_WRITE,  /* writes all of them, reads none: a safe insertion point */
    FX_KILL,   /* they are dead before it by the ABI (call, ret, jmp *) */
    FX_PASS    /* neither reads nor fully writes them */
};

/* Control flow at the end of an instruction. */
enum { BR_NONE, BR_JMP, BR_JCC, BR_CALL, BR_RET, BR_STOP, BR_IJMP };

/* One memory access of an instruction (rck_as_mem.c): its address as an
 * operand of lea, its size, load or store. */
#define AS_MEM_MAX 4
#define AS_MEM_ADDR 136
typedef struct {
    char addr[AS_MEM_ADDR];
    uint8_t size;
    uint8_t store;   /* 0 load, 1 store, 1 + P54C_MK_* a rep string */
} as_mem_t;

typedef struct {
    char *text;       /* emitted verbatim (may hold a newline: prefix line) */
    int kind;         /* IT_* */
    int sec;          /* its section (as_file_t.sec_name) */
    int text_sec;     /* 1: in .text or .text.* */
    int app_begin;    /* IT_APP: the #APP line */
    char *label;      /* IT_LABEL: the name */
    /* IT_INSN */
    int fx, br;       /* FX_*, BR_* */
    int rep_string;   /* rep movs/stos/lods: counted at run time */
    int endbr;        /* endbr64/32: nothing goes before it */
    char *target;     /* direct jump/call target (NULL: none/indirect) */
    int id;           /* pass 1 label number, -1 outside text sections */
    int block;        /* its block, -1 if none */
    as_mem_t *mem;    /* its memory accesses in QEMU's order (NULL: none) */
    int nmem;
    int flags_live;   /* pass 2: the flags are live before it */
    uint32_t units;   /* after pass 1: its cycles (static) or per-iteration
                         cycles (rep_string) in 1/P54C_FIX */
    uint32_t wregs;   /* general registers it may write (AS_REG_*), all
                         bits: unknown (rck_as_mem.c, RCK_AS_MEM only) */
    int grouped;      /* pass 2: a member of an earlier load's group (its
                         loads are checked there: no check of its own) */
} as_item_t;

/* Register bits of as_item_t.wregs and as_mem_regs (rax 0 ... r15 15). */
#define AS_REG_ALL 0xffffffffu
#define AS_REG_RAX 0x1u
#define AS_REG_RCX 0x2u
#define AS_REG_RSP 0x10u

typedef struct {
    as_item_t *it;
    size_t n, cap;
    int ninsn;        /* instructions in text sections (pass 1 labels) */
    char **sec_name;  /* the sections, by id */
    int *sec_text;    /* 1: .text or .text.* */
    char **sec_group; /* its COMDAT group (flags with G), NULL: none */
    int nsec;
} as_file_t;

/* Parse @p text (@p len bytes, GCC's output) into @p f. @return 0 or -1
 * (out of memory). */
int as_parse(const char *text, size_t len, as_file_t *f);
void as_file_free(as_file_t *f);

/* The memory accesses of instruction item @p it (mnemonic @p mn, lower
 * case, prefixes removed; operands @p ops) into it->mem / it->nmem. */
void as_mem_analyze(as_item_t *it, const char *mn, const char *ops);

/* The general registers address operand @p addr reads (AS_REG_* bits;
 * %rip none). */
uint32_t as_mem_regs(const char *addr);

/* A group of loads led by instruction item @p i of file @p f (a load
 * only instruction, one access): the next memory instructions of its
 * block, each of loads only, whose address registers nothing from the
 * leader up to them writes, none of them %rsp if @p live (the check
 * moves it), before the block's adds (item
 * @p adds_at, -1: none) unless that is at or before the leader. Their
 * items go to @p members (room for P54C_GRP_MAX - 1). @return how many
 * (0: no group). docs/P54C-COUNTERS.md, "Groups of loads". */
int as_mem_group(const as_file_t *f, size_t i, int adds_at, int live,
                 int *members);

/* @return 1 if the memory accesses are instrumented (RCK_AS_MEM=1). */
int as_mem_on(void);

/* @return FX_* of mnemonic @p mn (lower case, prefixes removed) with
 * operands @p ops. */
int as_flag_effect(const char *mn, const char *ops);

/* Pass 1: @p f's text with a label __rck_i<id>: before every instruction
 * of a text section. @return 0 or -1 (write error). */
int as_write_pass1(const as_file_t *f, FILE *out);

/* Blocks, liveness and placement; then pass 2: the text with the
 * counters' adds and the .rck_icount record. @p units the units per
 * class (P54C_NCLASS). @return 0 or -1. */
int as_write_pass2(as_file_t *f, const uint32_t *units, FILE *out);

/* The shadow of @p f's text sections (rck_as_shadow.c): the unchecked
 * instructions in sections .rck_shadow<name>, never executed, with label
 * .Lrck_ua<i> before item i where seg_start[i], .Lrck_uz<k> after item i
 * where seg_end[i] = k >= 0. @return 0 or -1. */
int as_write_shadow(const as_file_t *f, const int *seg_start,
                    const int *seg_end, FILE *out);

/* The flags of a read-only section that belongs with text section
 * @p sec (`,"a",@progbits`, or in its COMDAT group: discarded with it). */
void as_put_flags(FILE *out, const as_file_t *f, int sec);

/* Statistics of the last as_write_pass2 (for RCK_AS_STATS). */
typedef struct {
    int blocks, seq1, seq2, seq3, at_start, at_writer;
} as_stats_t;
extern as_stats_t as_stats;

#endif
