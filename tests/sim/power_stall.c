/*
 * power_stall.c: UEs stalled on shared DRAM, for the power model
 * (docs/POWER.md, "a stalled core draws power"). Every UE allocates the
 * same RCCE_shmalloc buffer; the first K UEs read KB KiB of it through a
 * pointer (uncached: a DRAM transaction per 4-byte load under the p54c
 * model), the others wait in the closing barrier.
 *
 *   power_stall K KB
 */
#include "RCCE.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static volatile uint32_t sink;

static __attribute__((noinline)) void read_all(const volatile uint32_t *a,
                                               size_t words)
{
    uint32_t s = 0;
    for (size_t i = 0; i < words; i++)
        s += a[i];
    sink = s;
}

int main(int argc, char **argv)
{
    int k;
    size_t bytes;
    t_vcharp buf;

    if (RCCE_init(&argc, &argv) != RCCE_SUCCESS) {
        fprintf(stderr, "power_stall: RCCE_init failed\n");
        return 3;
    }
    if (argc != 3) {
        fprintf(stderr, "usage: power_stall K KB\n");
        RCCE_finalize();
        return 2;
    }
    k = atoi(argv[1]);
    bytes = strtoull(argv[2], NULL, 10) << 10;
    buf = RCCE_shmalloc(bytes);
    if (buf == NULL) {
        fprintf(stderr, "power_stall: RCCE_shmalloc(%zu) failed\n", bytes);
        RCCE_finalize();
        return 3;
    }
    RCCE_barrier(&RCCE_COMM_WORLD);
    if (RCCE_ue() < k)
        read_all((const volatile uint32_t *)buf, bytes / 4);
    RCCE_barrier(&RCCE_COMM_WORLD);
    if (RCCE_ue() == 0)
        printf("power_stall: %d of %d UEs read %zu KiB of shared DRAM\n", k,
               RCCE_num_ues(), bytes >> 10);
    RCCE_shfree(buf);
    RCCE_finalize();
    return 0;
}
