/*
 * p54c_mem.c: kernels for the compiled memory model (docs/P54C.md, "The
 * compiled memory model"), run on both engines with the caches
 * (RCK_COMPUTE=p54c): the compiled engine (this program built with
 * rckcc -rck-mem) and QEMU (the same binary, its checks skipped by the
 * plugin) must see the same loads, stores and misses. Nothing in the
 * kernels calls the C library (built with
 * -fno-tree-loop-distribute-patterns: no memset or memcpy made up), and
 * the arrays are static, so that both engines see exactly the program.
 *
 *   read KB       UE 0: KB KiB of 4-byte loads, three passes
 *   write KB      UE 0: KB KiB of 8-byte stores, three passes
 *   rmw KB        UE 0: a[i] += i over KB KiB, twice
 *   bytes KB      UE 0: byte stores and loads (merged stores)
 *   stencil N I   every UE: a 5-point stencil on N x N doubles, I sweeps
 *   calls N       UE 0: N calls of a small recursive function (the stack)
 *   copy KB       UE 0: a struct array copied by assignment (rep movs)
 *   stack N       UE 0: N passes over static and stack arrays that share
 *                 cache sets (where the stack lies)
 *   block N       UE 0: N runs of one block of 32 stores (where a block's
 *                 cycles are charged)
 *   shm KB        UE 0: shared DRAM read and written through a pointer
 *   mpbt KB       UE 0: the same, the window mapped MPBT (the WCB)
 * Each prints a checksum; the run's report has the counts.
 */
#include "rck/hal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXW (1u << 17) /* 512 KiB of uint32 */
static uint32_t wbuf[MAXW];
static uint64_t qbuf[MAXW / 2];
static unsigned char bbuf[1u << 16];
#define MAXN 258
static double g0[MAXN * MAXN], g1[MAXN * MAXN];

struct rec {
    long a, b, c, d, e, f, g, h;
};
static struct rec ra[512], rb[512];

static __attribute__((noipa)) uint64_t k_read(size_t words, int passes)
{
    uint64_t s = 0;
    for (int p = 0; p < passes; p++)
        for (size_t i = 0; i < words; i++)
            s += wbuf[i];
    return s;
}

static __attribute__((noipa)) uint64_t k_write(size_t n, int passes)
{
    for (int p = 0; p < passes; p++)
        for (size_t i = 0; i < n; i++)
            qbuf[i] = i + (uint64_t)p;
    return qbuf[n - 1];
}

static __attribute__((noipa)) uint64_t k_rmw(size_t words)
{
    for (int p = 0; p < 2; p++)
        for (size_t i = 0; i < words; i++)
            wbuf[i] += (uint32_t)i;
    return wbuf[words / 2];
}

static __attribute__((noipa)) uint64_t k_bytes(size_t n)
{
    uint64_t s = 0;
    for (size_t i = 0; i < n; i++)
        bbuf[i] = (unsigned char)(i * 7);
    for (size_t i = 0; i < n; i += 3)
        s += bbuf[i];
    return s;
}

static __attribute__((noipa)) double k_stencil(int n, int iters, int ue)
{
    double *a = g0, *b = g1;
    for (int i = 0; i < n * n; i++)
        a[i] = b[i] = (double)((i + ue) % 17);
    for (int it = 0; it < iters; it++) {
        for (int y = 1; y < n - 1; y++)
            for (int x = 1; x < n - 1; x++)
                b[y * n + x] = 0.25 * (a[(y - 1) * n + x] + a[(y + 1) * n + x] +
                                       a[y * n + x - 1] + a[y * n + x + 1]);
        double *t = a;
        a = b;
        b = t;
    }
    return a[n * n / 2 + n / 2];
}

static __attribute__((noipa)) long k_fib(long n)
{
    return n < 2 ? n : k_fib(n - 1) + k_fib(n - 2);
}

static __attribute__((noipa)) long k_copy(int reps)
{
    long s = 0;
    for (int r = 0; r < reps; r++) {
        for (int i = 0; i < 512; i++)
            rb[i] = ra[(i + r) % 512];
        s += rb[r % 512].a;
    }
    return s;
}

/* The stack against the program's data (docs/P54C.md, "The stack under
 * QEMU"): two static arrays of 2 KiB, 4 KiB apart, fill both ways of half
 * of the L1D's sets, four of 32 KiB, 64 KiB apart, the four ways of half
 * of the L2's; a local array of 2 KiB and one of 32 KiB share as many of
 * those sets as their place against the static data gives (a triangle:
 * every shift of the stack changes it, but by a whole way). */
static volatile uint32_t s1[2][1024];
static volatile uint32_t s2[4][16384];

static __attribute__((noipa)) uint64_t k_stack(int iters)
{
    volatile uint32_t c1[512], c2[8192];
    uint64_t s = 0;

    for (int i = 0; i < 512; i++)
        c1[i] = (uint32_t)i;
    for (int i = 0; i < 8192; i++)
        c2[i] = (uint32_t)i;
    for (int it = 0; it < iters; it++) {
        for (int r = 0; r < 4; r++)
            for (int i = 0; i < 512; i += 8)
                s += s1[0][i] + s1[1][i] + c1[i];
        for (int r = 0; r < 8; r++)
            for (int i = 0; i < 8192; i += 8)
                s += s2[0][i] + s2[1][i] + s2[2][i] + s2[3][i] + c2[i];
    }
    return s;
}

/* One basic block of 32 stores with a multiplication before each (docs/
 * P54C.md, "Cycles where the compiled engine charges them"): the stores go
 * around the caches (their lines are never read), and each DWORD write
 * waits for the previous one unless the block's cycles have moved time on:
 * both engines must charge a block's cycles at the same point (the checks
 * split it into many QEMU blocks; charged at each of those, QEMU's cycles
 * were 2.6% fewer). */
static volatile uint64_t blk[32 * 8];

static __attribute__((noipa)) uint64_t k_block(int iters)
{
    uint64_t x = 1;

    for (int it = 0; it < iters; it++) {
#define ST(k) x = x * 2654435761u + (k); blk[(k) * 8] = x;
#define ST8(k) ST(k) ST(k + 1) ST(k + 2) ST(k + 3) ST(k + 4) ST(k + 5) \
               ST(k + 6) ST(k + 7)
        ST8(0) ST8(8) ST8(16) ST8(24)
#undef ST8
#undef ST
    }
    return x;
}

/* The phases' cycles (rck_hal_cycles between them), printed at the end. */
static uint64_t phase_cyc[4];

static __attribute__((noipa)) uint64_t k_shm(rck_hal_t *hal,
                                             volatile uint32_t *p,
                                             size_t words)
{
    uint64_t s = 0;
    rck_hal_cycles(hal, &phase_cyc[0]);
    for (size_t i = 0; i < words; i++)
        p[i] = (uint32_t)i;
    rck_hal_cycles(hal, &phase_cyc[1]);
    for (size_t i = 0; i < words; i++)
        s += p[i];
    rck_hal_cycles(hal, &phase_cyc[2]);
    for (size_t i = 0; i < words; i++)
        p[i] = (uint32_t)(i + s);
    rck_hal_cycles(hal, &phase_cyc[3]);
    return s;
}

int main(int argc, char **argv)
{
    rck_hal_t *hal;
    int ue;
    uint64_t r = 0;

    if (argc < 3 || rck_hal_open(NULL, &hal) != RCK_OK) {
        fprintf(stderr, "usage: p54c_mem KERNEL SIZE [ITERS] under rck run\n");
        return 2;
    }
    ue = hal->ue;
    long kb = atol(argv[2]);
    if (!strcmp(argv[1], "stencil")) {
        int n = (int)kb, iters = argc > 3 ? atoi(argv[3]) : 10;
        if (n < 3 || n > MAXN)
            return 2;
        r = (uint64_t)(k_stencil(n, iters, ue) * 1000);
    } else if (ue != 0) {
        r = 0;
    } else if (!strcmp(argv[1], "read")) {
        size_t w = (size_t)kb * 256;
        if (w > MAXW)
            return 2;
        for (size_t i = 0; i < w; i++)
            wbuf[i] = (uint32_t)i;
        r = k_read(w, 3);
    } else if (!strcmp(argv[1], "write")) {
        size_t n = (size_t)kb * 128;
        if (n > MAXW / 2)
            return 2;
        r = k_write(n, 3);
    } else if (!strcmp(argv[1], "rmw")) {
        size_t w = (size_t)kb * 256;
        if (w > MAXW)
            return 2;
        r = k_rmw(w);
    } else if (!strcmp(argv[1], "bytes")) {
        size_t n = (size_t)kb * 1024;
        if (n > sizeof(bbuf))
            return 2;
        r = k_bytes(n);
    } else if (!strcmp(argv[1], "calls")) {
        r = (uint64_t)k_fib(kb);
    } else if (!strcmp(argv[1], "stack")) {
        r = k_stack((int)kb);
    } else if (!strcmp(argv[1], "block")) {
        r = k_block((int)kb);
    } else if (!strcmp(argv[1], "copy")) {
        r = (uint64_t)k_copy((int)kb);
    } else if (!strcmp(argv[1], "shm") || !strcmp(argv[1], "mpbt")) {
        void *p;
        size_t len, w = (size_t)kb * 256;
        if (rck_hal_shm_map(hal, &p, &len) != RCK_OK || w * 4 > len)
            return 3;
        if (argv[1][0] == 'm' &&
            rck_hal_shm_set_map(hal, 0, w * 4, RCK_MAP_MPBT, -1) != RCK_OK)
            return 3;
        r = k_shm(hal, p, w);
    } else {
        return 2;
    }
    /* the C library's work (printf) after the last HAL call: not counted
     * by either engine */
    rck_hal_close(hal);
    printf("%s %ld: %llu\n", argv[1], kb, (unsigned long long)r);
    if (phase_cyc[3] != 0)
        printf("phases (cycles): write %llu, read %llu, write %llu\n",
               (unsigned long long)(phase_cyc[1] - phase_cyc[0]),
               (unsigned long long)(phase_cyc[2] - phase_cyc[1]),
               (unsigned long long)(phase_cyc[3] - phase_cyc[2]));
    return 0;
}
