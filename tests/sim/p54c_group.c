/*
 * p54c_group.c: groups of loads checked once (docs/P54C-COUNTERS.md,
 * "Groups of loads"). Built twice from this source, checked with groups
 * (rck-as's default) and without (RCK_AS_MEMGROUP=0); p54c_group.py runs
 * both on the compiled engine and requires the same report: every count,
 * miss and cycle. The data lie at a fixed address (an anonymous mapping)
 * and the kernels load no constants from .rodata, so the two builds'
 * different code sizes move none of the data the model sees; the fetches
 * are booked at the unchecked code's addresses, which are the same.
 *
 *   p54c_group N [MASK]   UE 0: N rounds of the kernels below (those in
 *                         bit mask MASK, default all 63), then a checksum
 *
 * The kernels: records read field by field (a group per record, one line
 * or two), a 5-point stencil on longs (neighbours in one line or not), a
 * pointer chase (the leader's load writes the members' base: no group),
 * loads indexed by %rax-like induction variables, stores between loads,
 * 16-byte loads (two accesses), and a sweep that evicts the L1D and the
 * L2 (512 KiB) so that leaders and members miss. Nothing calls the C
 * library in the kernels.
 */
#include "rck/hal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define BASE ((void *)0x3a0000000000ull)
#define BYTES (1u << 20)
#define NREC 2048
#define NG 96

typedef struct {
    long a, b, c, d, e;   /* 40 bytes: records straddle lines */
} rec_t;

typedef struct {
    rec_t *rec;           /* NREC records */
    long *g, *h;          /* NG x NG each */
    long *next;           /* a permutation, for the chase */
    long *big;            /* BYTES / 2 of longs: the sweep */
} data_t;

static __attribute__((noipa)) long records(const rec_t *r, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += r[i].a * 3 + (r[i].b ^ r[i].c) - r[i].d + (r[i].e >> 1);
    return s;
}

static __attribute__((noipa)) void stencil(long *out, const long *in, int n)
{
    for (int j = 1; j < n - 1; j++)
        for (int i = 1; i < n - 1; i++)
            out[j * n + i] = (in[j * n + i - 1] + in[j * n + i + 1] +
                              in[(j - 1) * n + i] + in[(j + 1) * n + i] +
                              in[j * n + i]) >> 2;
}

static __attribute__((noipa)) long chase(const long *next, long start,
                                         int steps)
{
    long p = start, s = 0;
    for (int i = 0; i < steps; i++) {
        p = next[p];
        s += next[p ^ 1];
    }
    return s + p;
}

static __attribute__((noipa)) long mixed(rec_t *r, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++) {
        long x = r[i].a + r[i].b;
        r[i].c = x;           /* a store between loads of the record */
        s += r[i].d - r[i].c + r[i].e;
    }
    return s;
}

typedef long v2 __attribute__((vector_size(16)));
static __attribute__((noipa)) long wide(const rec_t *r, int n)
{
    v2 acc = {0, 0};
    for (int i = 0; i < n; i++) {
        v2 x;
        __builtin_memcpy(&x, &r[i].b, sizeof(x)); /* 16 bytes: two loads */
        acc += x;
        acc[0] += r[i].a;
    }
    return acc[0] ^ acc[1];
}

static __attribute__((noipa)) long sweep(const long *big, long n)
{
    long s = 0;
    for (long i = 0; i < n; i += 4)
        s += big[i];
    return s;
}

int main(int argc, char **argv)
{
    rck_hal_t *hal;
    long r = 0;

    if (argc < 2 || rck_hal_open(NULL, &hal) != RCK_OK) {
        fprintf(stderr, "usage: p54c_group N under rck run\n");
        return 2;
    }
    long rounds = atol(argv[1]), mask = argc > 2 ? atol(argv[2]) : 63;
    if (rounds < 0) {
        fprintf(stderr, "p54c_group: bad N %s\n", argv[1]);
        rck_hal_close(hal);
        return 2;
    }
    char *m = mmap(BASE, 2 * BYTES, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (m != (char *)BASE) {
        fprintf(stderr, "p54c_group: cannot map the data at %p\n", BASE);
        rck_hal_close(hal);
        return 1;
    }
    data_t d;
    d.rec = (rec_t *)m;
    d.g = (long *)(m + NREC * sizeof(rec_t));
    d.h = d.g + NG * NG;
    d.next = d.h + NG * NG;
    d.big = (long *)(m + BYTES);
    for (int i = 0; i < NREC; i++)
        d.rec[i] = (rec_t){i, 3 * i, i ^ 5, 7 - i, i * i};
    for (int i = 0; i < NG * NG; i++)
        d.g[i] = d.h[i] = i % 17;
    for (int i = 0; i < 4096; i++)
        d.next[i] = (i * 1031 + 7) % 4096;
    for (long i = 0; i < BYTES / 8; i++)
        d.big[i] = i;
    if (hal->ue == 0)
        for (long k = 0; k < rounds; k++) {
            if (mask & 1)
                r += records(d.rec, NREC);
            if (mask & 2)
                stencil(k & 1 ? d.g : d.h, k & 1 ? d.h : d.g, NG);
            if (mask & 4)
                r += chase(d.next, k, 3000);
            if (mask & 8)
                r += mixed(d.rec, NREC);
            if (mask & 16)
                r += wide(d.rec, NREC);
            if (mask & 32)
                r += sweep(d.big, BYTES / 8);
        }
    printf("p54c_group: UE %d %ld rounds: %ld\n", hal->ue, rounds, r);
    munmap(m, 2 * BYTES);
    rck_hal_close(hal);
    return 0;
}
