/*
 * The performance counters' events (docs/MONITORING.md), one core:
 *   sim (compute model none): instructions are not known (unsupported);
 *   data misses count the MPB lines the HAL fetched into L1, exactly;
 *   non-cacheable reads count uncached shared-DRAM DWORD reads, exactly;
 *   every counter is monotonic; an unknown event or counter is refused.
 *   sim p54c: the program's own instructions, data reads and writes and
 *   uncached shared-DRAM loads are counted (at least what the code does).
 *   native: every event reads as unsupported, selection still checked.
 * Usage: perfctr sim|native|p54c
 */
#include "rck/hal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fails;

static void expect(int cond, const char *what)
{
    printf("perfctr: %s: %s\n", what, cond ? "ok" : "FAILED");
    fails += !cond;
}

static uint64_t read_ctr(rck_hal_t *hal, int idx)
{
    uint64_t v = 0;
    rck_status_t st = rck_hal_perfctr_read(hal, idx, &v);

    if (st != RCK_OK) {
        fprintf(stderr, "perfctr: read %d: %s\n", idx, rck_status_string(st));
        exit(3);
    }
    return v;
}

/* Under the P54C model (RCK_COMPUTE=p54c): the program's own events. */
static void p54c_events(rck_hal_t *hal)
{
    static volatile uint32_t data[1024];
    volatile uint32_t *shm;
    uint64_t a, b, sum = 0;
    void *base;
    size_t len;

    a = read_ctr(hal, 0);
    for (int i = 0; i < 1024; i++)
        data[i] = (uint32_t)i;
    b = read_ctr(hal, 0);
    printf("perfctr: instructions %llu -> %llu\n", (unsigned long long)a,
           (unsigned long long)b);
    expect(b >= a + 2048, "p54c: a 1024-iteration loop's instructions");
    expect(rck_hal_perfctr_select(hal, 1, RCK_PERF_DATA_RW) == RCK_OK,
           "select data reads or writes");
    a = read_ctr(hal, 1);
    for (int i = 0; i < 1024; i++)
        sum += data[i];
    b = read_ctr(hal, 1);
    expect(b >= a + 1024, "p54c: 1024 loads counted as data reads");
    expect(rck_hal_perfctr_select(hal, 1, RCK_PERF_NC_READS) == RCK_OK &&
               rck_hal_shm_map(hal, &base, &len) == RCK_OK,
           "select non-cacheable reads");
    shm = base;
    a = read_ctr(hal, 1);
    for (int i = 0; i < 16; i++)
        sum += shm[i];
    b = read_ctr(hal, 1);
    expect(b >= a + 16, "p54c: 16 uncached shared-DRAM loads");
    expect(rck_hal_perfctr_select(hal, 1, RCK_PERF_CODE_MISS) == RCK_OK &&
               read_ctr(hal, 1) > 0,
           "p54c: code cache misses");
    printf("perfctr: (sum %llu)\n", (unsigned long long)sum);
}

int main(int argc, char **argv)
{
    int p54c = argc > 1 && strcmp(argv[1], "p54c") == 0;
    int sim = p54c || (argc > 1 && strcmp(argv[1], "sim") == 0);
    unsigned char buf[256];
    uint64_t v = 0, a, b;
    rck_hal_t *hal;

    if (rck_hal_open(NULL, &hal) != RCK_OK)
        return 3;
    expect(rck_hal_perfctr_select(hal, 2, RCK_PERF_INSTRUCTIONS) ==
               RCK_ERR_INVALID,
           "counter 2 refused");
    expect(rck_hal_perfctr_select(hal, 0, 0x7f) == RCK_ERR_INVALID,
           "unknown event refused");
    expect(hal->perfctr_event[0] == RCK_PERF_INSTRUCTIONS &&
               hal->perfctr_event[1] == RCK_PERF_DATA_MISS,
           "default events: instructions, data misses");
    if (!sim) {
        expect(rck_hal_perfctr_read(hal, 0, &v) == RCK_ERR_UNSUPPORTED &&
                   rck_hal_perfctr_read(hal, 1, &v) == RCK_ERR_UNSUPPORTED,
               "native: unsupported");
        rck_hal_close(hal);
        return fails ? 1 : 0;
    }
    if (p54c) {
        p54c_events(hal);
        rck_hal_close(hal);
        return fails ? 1 : 0;
    }
    expect(rck_hal_perfctr_read(hal, 0, &v) == RCK_ERR_UNSUPPORTED,
           "sim none: instructions unsupported");
    expect(rck_hal_perfctr_select(hal, 0, RCK_PERF_CODE_MISS) == RCK_OK &&
               rck_hal_perfctr_read(hal, 0, &v) == RCK_ERR_UNSUPPORTED,
           "sim none: code misses unsupported");
    /* data misses: 8 MPB lines, invalidated first, then read again */
    a = read_ctr(hal, 1);
    rck_hal_cl1invmb(hal);
    if (rck_hal_mpb_read(hal, 0, 0, buf, sizeof buf) != RCK_OK)
        return 3;
    b = read_ctr(hal, 1);
    printf("perfctr: data misses %llu -> %llu\n", (unsigned long long)a,
           (unsigned long long)b);
    expect(b == a + sizeof buf / 32, "8 lines read: 8 data misses");
    if (rck_hal_mpb_read(hal, 0, 0, buf, sizeof buf) != RCK_OK)
        return 3;
    expect(read_ctr(hal, 1) == b, "cached lines: no more misses");
    /* non-cacheable reads: 64 bytes of uncached shared DRAM = 16 DWORDs */
    expect(rck_hal_perfctr_select(hal, 0, RCK_PERF_NC_READS) == RCK_OK,
           "select non-cacheable reads");
    a = read_ctr(hal, 0);
    if (rck_hal_shm_read(hal, 0, buf, 64) != RCK_OK)
        return 3;
    b = read_ctr(hal, 0);
    printf("perfctr: non-cacheable reads %llu -> %llu\n",
           (unsigned long long)a, (unsigned long long)b);
    expect(b == a + 16, "16 DWORDs: 16 non-cacheable reads");
    expect(read_ctr(hal, 0) >= b && read_ctr(hal, 1) >= a,
           "monotonic");
    rck_hal_close(hal);
    return fails ? 1 : 0;
}
