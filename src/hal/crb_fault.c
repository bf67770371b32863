/*
 * Loads and stores of a program through pointers into a CRB slot of its
 * LUT window (MallocConfigReg's pointers): the slot is PROT_NONE, the
 * access faults, and the window's SIGSEGV handler calls this to carry it
 * out as rck_hal_crb_read / rck_hal_crb_write and step over the
 * instruction. It decodes the x86-64 instructions compilers emit for
 * volatile accesses: MOV r/m <-> r (8, 16, 32, 64 bits), MOV r/m, imm,
 * MOVZX, and the read-modify-writes OR and AND with a register or an
 * immediate (`*pin |= IRQ_BIT`: a read, then a write; the flags are not
 * updated). Any other instruction (a string move, an ADD) is refused: the
 * core is then stopped with a report (docs/LUT.md).
 *
 * Owns: nothing with state. May call: rck/crb.h.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* REG_RIP */
#endif
#include "rck/crb.h"
#include "lutwin_internal.h"

#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <ucontext.h>

#if defined(__x86_64__)

static const int greg_of[16] = {REG_RAX, REG_RCX, REG_RDX, REG_RBX,
                                REG_RSP, REG_RBP, REG_RSI, REG_RDI,
                                REG_R8,  REG_R9,  REG_R10, REG_R11,
                                REG_R12, REG_R13, REG_R14, REG_R15};

typedef struct {
    int len;      /* instruction bytes */
    int store;    /* 1: memory is written */
    int size;     /* bytes accessed */
    int reg;      /* register operand (greg index), -1: immediate */
    int high8;    /* AH..BH */
    int zext;     /* MOVZX: zero-extend into 32 bits */
    int op;       /* RMW_*: a plain move, or OR / AND into memory */
    uint64_t imm;
} insn_t;

enum { RMW_NONE = 0, RMW_OR = 1, RMW_AND = 2 };

/* Length of ModRM + SIB + displacement starting at @p p. */
static int modrm_len(const unsigned char *p)
{
    int mod = p[0] >> 6, rm = p[0] & 7, n = 1;

    if (mod == 3)
        return -1; /* a register operand: not a memory access */
    if (rm == 4) {
        n++;
        if (mod == 0 && (p[1] & 7) == 5)
            n += 4;
    } else if (mod == 0 && rm == 5) {
        n += 4;
    }
    if (mod == 1)
        n += 1;
    else if (mod == 2)
        n += 4;
    return n;
}

/* The immediate of @p size bytes at @p p (sign-extended from 8 bits when
 * @p imm8 and from 32 when the operand has 8 bytes); its length. */
static int imm_get(const unsigned char *p, int size, int imm8, uint64_t *v)
{
    if (imm8 || size == 1) {
        *v = (uint64_t)(int64_t)(int8_t)p[0];
        return 1;
    }
    if (size == 2) {
        *v = (uint64_t)p[0] | (uint64_t)p[1] << 8;
        return 2;
    }
    {
        uint32_t w;
        memcpy(&w, p, 4);
        *v = size == 8 ? (uint64_t)(int64_t)(int32_t)w : w;
    }
    return 4;
}

static int decode(const unsigned char *p, insn_t *in)
{
    int opsz16 = 0, rex = 0, k = 0, m, reg, opc, imm = 0, imm8 = 0;

    memset(in, 0, sizeof(*in));
    while (p[k] == 0x66 || p[k] == 0x67 || p[k] == 0x2e || p[k] == 0x3e) {
        opsz16 |= p[k] == 0x66;
        k++;
    }
    if ((p[k] & 0xf0) == 0x40)
        rex = p[k++];
    opc = p[k];
    in->size = (rex & 8) ? 8 : opsz16 ? 2 : 4;
    if (opc == 0x0f && (p[k + 1] == 0xb6 || p[k + 1] == 0xb7)) {
        in->size = p[k + 1] == 0xb6 ? 1 : 2;
        in->zext = 1;
        k += 2;
    } else {
        switch (opc) {
        case 0x8a: case 0x88: case 0xc6: case 0x08: case 0x20: case 0x80:
            in->size = 1;
            break;
        case 0x8b: case 0x89: case 0xc7: case 0x09: case 0x21: case 0x81:
        case 0x83:
            break;
        default:
            return -1;
        }
        in->store = opc != 0x8a && opc != 0x8b;
        in->op = opc == 0x08 || opc == 0x09 ? RMW_OR
                 : opc == 0x20 || opc == 0x21 ? RMW_AND
                                              : RMW_NONE;
        imm = opc == 0xc6 || opc == 0xc7 || opc == 0x80 || opc == 0x81 ||
              opc == 0x83;
        imm8 = opc == 0x83;
        k++;
    }
    m = modrm_len(p + k);
    if (m < 0)
        return -1;
    reg = ((p[k] >> 3) & 7) | ((rex & 4) ? 8 : 0);
    if (imm) {
        if (opc == 0xc6 || opc == 0xc7) {
            if ((reg & 7) != 0)
                return -1;
        } else if ((reg & 7) == 1) {
            in->op = RMW_OR;
        } else if ((reg & 7) == 4) {
            in->op = RMW_AND;
        } else {
            return -1;
        }
        in->reg = -1;
        k += m;
        k += imm_get(p + k, in->size, imm8, &in->imm);
    } else {
        in->high8 = in->size == 1 && !in->zext && rex == 0 && reg >= 4;
        in->reg = greg_of[in->high8 ? reg - 4 : reg];
        k += m;
    }
    in->len = k;
    return 0;
}

static void reg_set(greg_t *g, const insn_t *in, uint64_t v)
{
    uint64_t *r = (uint64_t *)&g[in->reg];

    if (in->zext || in->size == 4)
        *r = v & 0xffffffffu;
    else if (in->size == 8)
        *r = v;
    else if (in->high8)
        *r = (*r & ~0xff00ull) | (v & 0xff) << 8;
    else if (in->size == 1)
        *r = (*r & ~0xffull) | (v & 0xff);
    else
        *r = (*r & ~0xffffull) | (v & 0xffff);
}

static uint64_t reg_get(const greg_t *g, const insn_t *in)
{
    uint64_t v = in->reg < 0 ? in->imm : (uint64_t)g[in->reg];

    return in->high8 ? v >> 8 : v;
}

int rck__crb_fault(rck_hal_t *hal, void *uc_, int tile, uint32_t off,
                   const char **why)
{
    ucontext_t *uc = uc_;
    greg_t *g = uc->uc_mcontext.gregs;
    insn_t in;
    uint32_t reg = off & ~3u, shift = (off & 3) * 8, v = 0;

    if (decode((const unsigned char *)g[REG_RIP], &in) != 0) {
        *why = "an instruction other than a load, a store, OR or AND (only "
               "MOV, MOVZX, OR and AND reach configuration registers through "
               "pointers)";
        return -1;
    }
    if (in.size == 8)
        reg = off & ~7u;
    /* the upper half of a LUT entry: reads 0, writes do nothing */
    if (reg >= RCK_CRB_LUT0 && (reg & 4) != 0) {
        if (!in.store)
            reg_set(g, &in, 0);
        g[REG_RIP] += in.len;
        return 0;
    }
    if (in.store) {
        uint64_t val = reg_get(g, &in);
        uint32_t mask = in.size >= 4 ? 0xffffffffu
                        : in.size == 2 ? 0xffffu
                                       : 0xffu,
                 out;
        int lock = reg == RCK_CRB_LOCK0 || reg == RCK_CRB_LOCK1;
        /* a part of a register, or OR/AND: read it first (not a LOCK:
         * reading it would take it) */
        if ((in.op != RMW_NONE || in.size < 4) && !lock &&
            rck_hal_crb_read(hal, tile, reg, &v) != RCK_OK) {
            *why = "no such register";
            return -1;
        }
        if (in.op == RMW_OR)
            val |= (uint64_t)(v >> shift);
        else if (in.op == RMW_AND)
            val &= (uint64_t)(v >> shift);
        out = (v & ~(mask << shift)) | (((uint32_t)val & mask) << shift);
        if (rck_hal_crb_write(hal, tile, reg, out) != RCK_OK) {
            *why = "no such register";
            return -1;
        }
    } else {
        if (rck_hal_crb_read(hal, tile, reg, &v) != RCK_OK) {
            *why = "no such register";
            return -1;
        }
        reg_set(g, &in, (uint64_t)(v >> shift));
    }
    g[REG_RIP] += in.len;
    return 0;
}

#else

int rck__crb_fault(rck_hal_t *hal, void *uc, int tile, uint32_t off,
                   const char **why)
{
    (void)hal;
    (void)uc;
    (void)tile;
    (void)off;
    *why = "configuration registers through pointers need x86-64";
    return -1;
}

#endif
