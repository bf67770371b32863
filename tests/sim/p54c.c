/*
 * p54c.c: kernels for the P54C compute model (RCK_COMPUTE=p54c,
 * p54c-fast), at the HAL level. Run with `rck run --backend sim`.
 *
 *   count N       UE 0: a loop of N iterations of 3 instructions between
 *                 two reads of performance counter 0 (instructions), and
 *                 the same with 0 iterations: the difference must be 3N
 *                 exactly ("ok" or "FAILED")
 *   ccount N      UE 0: the same with a loop in C (its instruction count is
 *                 the compiler's): prints the difference, which the
 *                 compiled counters and QEMU must agree on exactly
 *   sweep KB...   every UE: for each working set, read it once (warm),
 *                 then read it twice more with 4-byte loads, timed: cycles
 *                 per 32-byte line and MiB/s
 *   knee L2 KB... as sweep, then check that working sets up to half the
 *                 L2 (L2 in KiB) run at least 4 times faster per line than
 *                 those of twice the L2 or more ("ok" or "FAILED")
 *   stream KB     every UE: read KB KiB of its private memory once (cold)
 *   write KB      every UE: write KB KiB (4-byte stores) twice, timed
 *   shmmap KB     UE 0: KB KiB of shared DRAM re-read through a pointer
 *                 uncached, cached and MPBT (rck_hal_shm_set_map): the
 *                 cached and MPBT re-reads at least 4 times faster
 *   flush KB      UE 0: KB KiB read into L2, re-read, half of it written,
 *                 rck_hal_dcache_flush, re-read: the re-read after the
 *                 flush must be at least 4 times slower ("ok"/"FAILED")
 */
#include "rck/hal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static rck_hal_t *hal;

static void ok(rck_status_t st, const char *what)
{
    if (st != RCK_OK) {
        fprintf(stderr, "p54c: %s failed: %s\n", what, rck_status_string(st));
        exit(3);
    }
}

static uint64_t cycles(void)
{
    uint64_t c = 0;
    ok(rck_hal_cycles(hal, &c), "cycles");
    return c;
}

static uint64_t insns(void)
{
    uint64_t v = 0;
    ok(rck_hal_perfctr_read(hal, 0, &v), "perfctr_read");
    return v;
}

/* 2 + 3n instructions: test, jz; then n x (add, dec, jnz). */
static __attribute__((noipa)) uint64_t spin(uint64_t n)
{
    uint64_t x = 0;
#if defined(__x86_64__)
    __asm__ volatile("test %%rcx, %%rcx\n\t"
                     "jz 2f\n"
                     "1:\n\t"
                     "add $1, %%rax\n\t"
                     "dec %%rcx\n\t"
                     "jnz 1b\n"
                     "2:\n"
                     : "+c"(n), "+a"(x));
#else
    for (volatile uint64_t i = 0; i < n; i++)
        x++;
#endif
    return x;
}

static __attribute__((noipa)) uint64_t counted(uint64_t n)
{
    uint64_t a = insns(), b;
    spin(n);
    b = insns();
    return b - a;
}

static int do_count(uint64_t n)
{
    uint64_t zero, full;

    if (hal->ue != 0)
        return 0;
    zero = counted(0);
    full = counted(n);
    printf("p54c: loop of %llu iterations: %llu instructions counted, "
           "%llu without the loop, difference %llu (expected %llu) %s\n",
           (unsigned long long)n, (unsigned long long)full,
           (unsigned long long)zero, (unsigned long long)(full - zero),
           (unsigned long long)(3 * n),
           full - zero == 3 * n ? "ok" : "FAILED");
    return full - zero == 3 * n ? 0 : 1;
}

static volatile uint32_t sink;

/* A loop in C: compiled by rckcc, its blocks count themselves. */
static __attribute__((noipa)) uint64_t cspin(uint64_t n)
{
    uint64_t x = 1;
    for (uint64_t i = 0; i < n; i++)
        x += (i ^ (x >> 3)) + (x < i ? 7 : 1);
    return x;
}

/* A loop whose counters need the flags saved (a floating-point "!="
 * leaves them live into the jne after jp) and a rep string (a struct
 * copy: rep movsq), so both longer sequences of the counters run, and
 * under QEMU their popf ends a block. */
struct big {
    long v[40];
};

static __attribute__((noipa)) long cspin2(uint64_t n, struct big *a,
                                          struct big *b, double x)
{
    long s = 0;
    for (uint64_t i = 0; i < n; i++) {
        *b = *a;
        a->v[i % 40] += 1;
        if (x != (double)i)
            s += b->v[3];
    }
    return s;
}

static uint64_t ccount_one(uint64_t n, int which)
{
    static struct big a, b;
    uint64_t t0, t1, t2;

    t0 = insns();
    sink ^= (uint32_t)(which ? cspin2(0, &a, &b, 2.0) : (long)cspin(0));
    t1 = insns();
    sink ^= (uint32_t)(which ? cspin2(n, &a, &b, 2.0) : (long)cspin(n));
    t2 = insns();
    return (t2 - t1) - (t1 - t0);
}

static int do_ccount(uint64_t n)
{
    uint64_t d, d2;

    if (hal->ue != 0)
        return 0;
    d = ccount_one(n, 0);
    d2 = ccount_one(n, 1);
    printf("p54c: C loop of %llu iterations: %llu instructions more than "
           "without the loop; loop with flags saved and rep movsq: %llu\n",
           (unsigned long long)n, (unsigned long long)d,
           (unsigned long long)d2);
    return 0;
}


/* Read @p bytes of @p a with 4-byte loads. */
static __attribute__((noinline)) void read_all(const uint32_t *a, size_t bytes)
{
    uint32_t s = 0;
    for (size_t i = 0; i < bytes / 4; i++)
        s += ((const volatile uint32_t *)a)[i];
    sink = s;
}

static __attribute__((noinline)) void write_all(uint32_t *a, size_t bytes)
{
    for (size_t i = 0; i < bytes / 4; i++)
        ((volatile uint32_t *)a)[i] = (uint32_t)i;
}

/* Cycles per 32-byte line of reading a working set of @p kb KiB. */
static double sweep_one(size_t kb)
{
    size_t bytes = kb << 10;
    uint32_t *a = aligned_alloc(4096, bytes);
    uint64_t t0, t1;
    double per;

    if (a == NULL)
        exit(3);
    memset(a, 1, bytes);
    read_all(a, bytes); /* warm: the lines into L2 (and L1) */
    t0 = cycles();
    read_all(a, bytes);
    read_all(a, bytes);
    t1 = cycles();
    per = (double)(t1 - t0) / (2.0 * (double)bytes / 32.0);
    if (hal->ue == 0)
        printf("p54c: read working set %zu KiB: %.1f cycles per line, "
               "%.1f MiB/s\n",
               kb, per, 32.0 / per * hal->chip.core_mhz * 1e6 / 1048576.0);
    free(a);
    return per;
}

int main(int argc, char **argv)
{
    int rc = 0;

    if (argc < 2) {
        fprintf(stderr, "usage: p54c count N | ccount N | sweep KB... | knee L2KB KB... "
                        "| stream KB | write KB\n");
        return 2;
    }
    ok(rck_hal_open(NULL, &hal), "rck_hal_open");
    if (!strcmp(argv[1], "count") && argc == 3) {
        rc = do_count(strtoull(argv[2], NULL, 10));
    } else if (!strcmp(argv[1], "ccount") && argc == 3) {
        rc = do_ccount(strtoull(argv[2], NULL, 10));
    } else if (!strcmp(argv[1], "sweep")) {
        for (int i = 2; i < argc; i++)
            sweep_one(strtoull(argv[i], NULL, 10));
    } else if (!strcmp(argv[1], "knee") && argc >= 4) {
        double l2 = (double)strtoull(argv[2], NULL, 10);
        double fast = 0, slow = 1e300;
        for (int i = 3; i < argc; i++) {
            double kb = (double)strtoull(argv[i], NULL, 10);
            double per = sweep_one((size_t)kb);
            if (kb <= l2 / 2 && per > fast)
                fast = per;
            if (kb >= 2 * l2 && per < slow)
                slow = per;
        }
        if (hal->ue == 0) {
            rc = slow >= 4 * fast ? 0 : 1;
            printf("p54c: L2 of %.0f KiB: slowest fitting %.1f, fastest "
                   "not fitting %.1f cycles per line: %s\n",
                   l2, fast, slow, rc == 0 ? "ok" : "FAILED");
        }
    } else if (!strcmp(argv[1], "stream") && argc == 3) {
        size_t bytes = strtoull(argv[2], NULL, 10) << 10;
        uint32_t *a = aligned_alloc(4096, bytes);
        uint64_t t0;
        if (a == NULL)
            return 3;
        t0 = cycles();
        read_all(a, bytes);
        t0 = cycles() - t0;
        if (hal->ue == 0)
            printf("p54c: stream %zu KiB: %llu cycles, %.1f MiB/s\n",
                   bytes >> 10, (unsigned long long)t0,
                   (double)bytes / (double)t0 * hal->chip.core_mhz * 1e6 /
                       1048576.0);
        free(a);
    } else if (!strcmp(argv[1], "flush") && argc == 3) {
        /* a working set in L2, re-read (hits), flushed, re-read (misses) */
        size_t bytes = strtoull(argv[2], NULL, 10) << 10;
        uint32_t *a = aligned_alloc(4096, bytes);
        uint64_t t0, hit, miss, fl;
        if (a == NULL)
            return 3;
        write_all(a, bytes);
        read_all(a, bytes);
        t0 = cycles();
        read_all(a, bytes);
        hit = cycles() - t0;
        t0 = cycles();
        write_all(a, bytes / 2); /* dirty half of the lines */
        t0 = cycles();
        ok(rck_hal_dcache_flush(hal), "dcache_flush");
        fl = cycles() - t0;
        t0 = cycles();
        read_all(a, bytes);
        miss = cycles() - t0;
        if (hal->ue == 0) {
            rc = miss >= 4 * hit && fl > 0 ? 0 : 1;
            printf("p54c: flush %zu KiB: re-read %llu cycles before the "
                   "flush, %llu after; the flush %llu cycles: %s\n",
                   bytes >> 10, (unsigned long long)hit,
                   (unsigned long long)miss, (unsigned long long)fl,
                   rc == 0 ? "ok" : "FAILED");
        }
        free(a);
    } else if (!strcmp(argv[1], "shmmap") && argc == 3) {
        /* KB of shared DRAM read twice through a pointer, uncached (the
         * default map), then cached, then MPBT: the second read of a
         * cached or MPBT range hits (its size fits the L1) */
        size_t bytes = strtoull(argv[2], NULL, 10) << 10, len;
        void *base;
        const rck_map_t maps[3] = {RCK_MAP_UNCACHED, RCK_MAP_CACHED,
                                   RCK_MAP_MPBT};
        const char *names[3] = {"uncached", "cached", "mpbt"};
        uint64_t per[3];
        ok(rck_hal_shm_map(hal, &base, &len), "shm_map");
        if (hal->ue == 0 && bytes * 3 <= len) {
            for (int k = 0; k < 3; k++) {
                uint32_t *a = (uint32_t *)((char *)base + (size_t)k * bytes);
                uint64_t t0;
                ok(rck_hal_shm_set_map(hal, (size_t)k * bytes, bytes, maps[k],
                                       RCK_MC_INTERLEAVE),
                   "shm_set_map");
                read_all(a, bytes);
                t0 = cycles();
                read_all(a, bytes);
                per[k] = cycles() - t0;
                printf("p54c: shmmap %s: %zu KiB re-read in %llu cycles\n",
                       names[k], bytes >> 10, (unsigned long long)per[k]);
            }
            rc = per[1] * 4 <= per[0] && per[2] * 4 <= per[0] ? 0 : 1;
            printf("p54c: shmmap: %s\n", rc == 0 ? "ok" : "FAILED");
        }
    } else if (!strcmp(argv[1], "write") && argc == 3) {
        size_t bytes = strtoull(argv[2], NULL, 10) << 10;
        uint32_t *a = aligned_alloc(4096, bytes);
        uint64_t t0;
        if (a == NULL)
            return 3;
        write_all(a, bytes);
        t0 = cycles();
        write_all(a, bytes);
        t0 = cycles() - t0;
        if (hal->ue == 0)
            printf("p54c: write %zu KiB: %.1f MiB/s\n", bytes >> 10,
                   (double)bytes / (double)t0 * hal->chip.core_mhz * 1e6 /
                       1048576.0);
        free(a);
    } else {
        fprintf(stderr, "p54c: bad arguments\n");
        rc = 2;
    }
    rck_hal_close(hal);
    return rc;
}
