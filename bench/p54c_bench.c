/*
 * p54c_bench: the kernels of the `p54c` bench suite (python/src/rockcreek/bench/
 * p54cbench.py; docs/P54C.md), an RCCE program run on the sim backend
 * under the P54C compute model. Times are chip seconds (RCCE_wtime).
 *
 *   bw SMALL_KB BIG_KB  UE 0: one core's bandwidths with 4-byte loads and
 *                       stores: L2 hit (a SMALL_KB working set, warm), L2
 *                       miss (BIG_KB, larger than the L2; the writes go to
 *                       lines no read brought in: write-around), uncached
 *                       (RCCE_shmalloc memory), MPBT (the same memory
 *                       mapped MPBT); the L2-hit read also as
 *                       one `rep lodsl` (no loop overhead)
 *   sweep KB...         UE 0: read each working set twice after a warm-up
 *                       pass: cycles per 32-byte line
 *   fiasco MB           UEs 0 and 1: UE 0 streams MB MiB to UE 1 in 4 KiB
 *                       packets through the MPB; UE 1 copies each packet
 *                       into its private memory, once with memcpy, once
 *                       reading each 32-byte destination line first
 *                       (software allocate-on-write)
 *   stream KB           every UE: read KB KiB of its private memory once
 *                       (cold), then a barrier; each UE's time
 *   weak KB PASSES      every UE: PASSES passes of integer work over its
 *                       own KB KiB (warm, within the L2): the same work
 *                       per core at any core count; each UE's time
 *
 * Every result is one line "p54c_bench: key=value ..." for the harness.
 */
#include "RCCE.h"
#include "rck/hal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE 32

static volatile uint32_t sink;

static __attribute__((noinline)) void read4(const uint32_t *a, size_t bytes)
{
    uint32_t s = 0;
    for (size_t i = 0; i < bytes / 4; i++)
        s += ((const volatile uint32_t *)a)[i];
    sink = s;
}

static __attribute__((noinline)) void write4(uint32_t *a, size_t bytes)
{
    for (size_t i = 0; i < bytes / 4; i++)
        ((volatile uint32_t *)a)[i] = (uint32_t)i;
}

/* The same with one string instruction (`rep lodsl`, as the P54C's
 * `rep lodsd`): no loop overhead, the loads back to back. */
static __attribute__((noinline)) void read4_string(const uint32_t *a,
                                                   size_t bytes)
{
#if defined(__x86_64__)
    size_t n = bytes / 4;
    const uint32_t *p = a;
    uint32_t last;
    __asm__ volatile("cld\n\trep lodsl"
                     : "+S"(p), "+c"(n), "=a"(last)
                     :
                     : "memory");
    sink = last;
#else
    read4(a, bytes);
#endif
}

/* Touch one word of each line: the lines come into L2 (and L1). */
static __attribute__((noinline)) void touch_lines(const char *a, size_t bytes)
{
    uint32_t s = 0;
    for (size_t i = 0; i < bytes; i += LINE)
        s += *(const volatile uint32_t *)(a + i);
    sink = s;
}

static void *alloc(size_t bytes)
{
    void *p = aligned_alloc(4096, bytes);
    if (p == NULL) {
        fprintf(stderr, "p54c_bench: out of memory (%zu bytes)\n", bytes);
        exit(3);
    }
    return p;
}

static void result(const char *what, size_t bytes, double s)
{
    printf("p54c_bench: kernel=%s bytes=%zu seconds=%.9f mib_s=%.3f\n", what,
           bytes, s, s > 0 ? (double)bytes / s / 1048576.0 : 0.0);
}

/* Map @p bytes of shared DRAM at @p p as MPBT (rck_hal_shm_set_map, as
 * sccKit's LUT setup would have: the program only sees the pointer). */
static void mpbt_map(void *p, size_t bytes)
{
    rck_hal_t *hal = rck_hal_self();
    void *base;
    size_t len;

    if (hal == NULL || rck_hal_shm_map(hal, &base, &len) != RCK_OK ||
        (char *)p < (char *)base || (char *)p + bytes > (char *)base + len ||
        rck_hal_shm_set_map(hal, (size_t)((char *)p - (char *)base), bytes,
                            RCK_MAP_MPBT, RCK_MC_INTERLEAVE) != RCK_OK) {
        fprintf(stderr, "p54c_bench: cannot map shared memory MPBT\n");
        exit(3);
    }
}

static void do_bw(size_t small_kb, size_t big_kb)
{
    size_t sb = small_kb << 10, bb = big_kb << 10;
    uint32_t *s = alloc(sb), *b = alloc(bb), *w = alloc(bb);
    uint32_t *sh = (uint32_t *)RCCE_shmalloc(sb);
    double t;

    if (sh == NULL) {
        fprintf(stderr, "p54c_bench: RCCE_shmalloc(%zu) failed\n", sb);
        exit(3);
    }
    write4(s, sb);
    read4(s, sb); /* warm: in L2 */
    t = RCCE_wtime();
    read4(s, sb);
    read4(s, sb);
    result("l2_hit_read", 2 * sb, RCCE_wtime() - t);
    t = RCCE_wtime();
    read4_string(s, sb);
    read4_string(s, sb);
    result("l2_hit_read_string", 2 * sb, RCCE_wtime() - t);
    t = RCCE_wtime();
    write4(s, sb);
    write4(s, sb);
    result("l2_hit_write", 2 * sb, RCCE_wtime() - t);
    read4(b, bb); /* the first pass fills; the second misses again */
    t = RCCE_wtime();
    read4(b, bb);
    result("l2_miss_read", bb, RCCE_wtime() - t);
    t = RCCE_wtime();
    write4(w, bb); /* no read brought these lines in */
    result("l2_miss_write", bb, RCCE_wtime() - t);
    t = RCCE_wtime();
    read4(sh, sb);
    result("uncached_read", sb, RCCE_wtime() - t);
    t = RCCE_wtime();
    write4(sh, sb);
    result("uncached_write", sb, RCCE_wtime() - t);
    /* the same shared memory mapped MPBT (L2 bypassed, WCB on): larger
     * than the L1, so every line of a pass is read from memory */
    mpbt_map(sh, sb);
    read4(sh, sb);
    t = RCCE_wtime();
    read4(sh, sb);
    result("mpbt_read", sb, RCCE_wtime() - t);
    t = RCCE_wtime();
    write4(sh, sb);
    result("mpbt_write", sb, RCCE_wtime() - t);
    RCCE_shfree((t_vcharp)sh);
    free(s);
    free(b);
    free(w);
}

static void do_sweep(int argc, char **argv)
{
    for (int i = 0; i < argc; i++) {
        size_t bytes = strtoull(argv[i], NULL, 10) << 10;
        uint32_t *a = alloc(bytes);
        double t;

        write4(a, bytes);
        read4(a, bytes);
        t = RCCE_wtime();
        read4(a, bytes);
        read4(a, bytes);
        t = RCCE_wtime() - t;
        printf("p54c_bench: kernel=sweep bytes=%zu seconds=%.9f\n",
               2 * bytes, t);
        free(a);
    }
}

#define PACKET 4096

static void do_fiasco(size_t mb)
{
    size_t total = mb << 20;
    int me = RCCE_ue();
    char *pkt = alloc(PACKET);

    if (RCCE_num_ues() < 2) {
        fprintf(stderr, "p54c_bench: fiasco needs 2 UEs\n");
        exit(2);
    }
    for (int alloc_on_write = 0; alloc_on_write < 2; alloc_on_write++) {
        double t;
        RCCE_barrier(&RCCE_COMM_WORLD);
        t = RCCE_wtime();
        if (me == 0) {
            memset(pkt, alloc_on_write + 1, PACKET);
            for (size_t off = 0; off < total; off += PACKET)
                RCCE_send(pkt, PACKET, 1);
        } else if (me == 1) {
            char *dst = alloc(total);
            for (size_t off = 0; off < total; off += PACKET) {
                RCCE_recv(pkt, PACKET, 0);
                if (alloc_on_write)
                    touch_lines(dst + off, PACKET);
                memcpy(dst + off, pkt, PACKET);
            }
            t = RCCE_wtime() - t;
            sink = (uint32_t)dst[total - 1];
            result(alloc_on_write ? "fiasco_alloc_on_write" : "fiasco_memcpy",
                   total, t);
            free(dst);
        }
    }
    free(pkt);
}

static void do_stream(size_t kb)
{
    size_t bytes = kb << 10;
    uint32_t *a = alloc(bytes);
    double t, t0;

    RCCE_barrier(&RCCE_COMM_WORLD);
    t0 = t = RCCE_wtime();
    read4(a, bytes);
    t = RCCE_wtime() - t;
    printf("p54c_bench: kernel=stream ue=%d ues=%d bytes=%zu seconds=%.9f "
           "start=%.9f\n",
           RCCE_ue(), RCCE_num_ues(), bytes, t, t0);
    RCCE_barrier(&RCCE_COMM_WORLD);
    free(a);
}

static void do_weak(size_t kb, int passes)
{
    size_t n = (kb << 10) / sizeof(uint32_t);
    uint32_t *a = alloc(n * sizeof(uint32_t)), acc = 1;
    double t;

    for (size_t i = 0; i < n; i++)
        a[i] = (uint32_t)i;
    RCCE_barrier(&RCCE_COMM_WORLD);
    t = RCCE_wtime();
    for (int p = 0; p < passes; p++) {
        for (size_t i = 0; i < n; i++) {
            acc = acc * 31u + a[i];
            a[i] = acc ^ (a[i] >> 3);
        }
    }
    t = RCCE_wtime() - t;
    printf("p54c_bench: kernel=weak ue=%d ues=%d bytes=%zu passes=%d "
           "seconds=%.9f check=%u\n",
           RCCE_ue(), RCCE_num_ues(), n * sizeof(uint32_t), passes, t, acc);
    RCCE_barrier(&RCCE_COMM_WORLD);
    free(a);
}

int main(int argc, char **argv)
{
    if (RCCE_init(&argc, &argv) != RCCE_SUCCESS) {
        fprintf(stderr, "p54c_bench: RCCE_init failed\n");
        return 3;
    }
    if (argc >= 4 && !strcmp(argv[1], "bw")) {
        if (RCCE_ue() == 0)
            do_bw(strtoull(argv[2], NULL, 10), strtoull(argv[3], NULL, 10));
    } else if (argc >= 3 && !strcmp(argv[1], "sweep")) {
        if (RCCE_ue() == 0)
            do_sweep(argc - 2, argv + 2);
    } else if (argc == 3 && !strcmp(argv[1], "fiasco")) {
        do_fiasco(strtoull(argv[2], NULL, 10));
    } else if (argc == 3 && !strcmp(argv[1], "stream")) {
        do_stream(strtoull(argv[2], NULL, 10));
    } else if (argc == 4 && !strcmp(argv[1], "weak")) {
        do_weak(strtoull(argv[2], NULL, 10), atoi(argv[3]));
    } else {
        fprintf(stderr, "usage: p54c_bench bw SMALL_KB BIG_KB | sweep KB... | "
                        "fiasco MB | stream KB | weak KB PASSES\n");
        RCCE_finalize();
        return 2;
    }
    RCCE_finalize();
    return 0;
}
