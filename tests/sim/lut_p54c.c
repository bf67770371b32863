/*
 * LUT window pages under the P54C model (docs/LUT.md): one core on core 0
 * (home controller 0) reads, with plain loads,
 *   - 256 KiB of another controller's DRAM through slot 0x40, pointed at a
 *     private page of the last core (controller 3 on the SCC): the
 *     report's dram_by_mc shows transactions on that controller;
 *   - 64 KiB of the shared window through slot 0x80: shm_accesses counts
 *     them (uncached shared DRAM, the window's default mapping).
 * Prints "lut_p54c: ok" when the HAL calls succeed; the classification is
 * checked in the report (tests/sim/CMakeLists.txt).
 */
#include "rck/hal.h"
#include "rck/lut.h"

#include <stdio.h>

static volatile unsigned sink;

static void sweep(const volatile unsigned char *p, size_t bytes)
{
    unsigned sum = 0;

    for (size_t i = 0; i < bytes; i += 32)
        sum += p[i];
    sink += sum;
}

int main(void)
{
    rck_hal_t *hal;
    uint32_t e;
    int last;
    const volatile unsigned char *far, *shm;

    if (rck_hal_open(NULL, &hal) != RCK_OK)
        return 2;
    last = hal->chip.ncores - 1;
    if (rck_hal_lut_read(hal, last, 0, &e) != RCK_OK ||
        rck_hal_lut_write(hal, hal->core, 0x40, e) != RCK_OK)
        return 1;
    far = rck_hal_lut_addr(hal, 0x40);
    shm = rck_hal_lut_addr(hal, RCK_LUT_SLOT_SHARED);
    if (far == NULL || shm == NULL)
        return 1;
    printf("lut_p54c: slot 0x40 shows controller %d's page\n",
           rck_lut_home_mc(&hal->chip, last));
    sweep(far, 256 << 10);
    sweep(shm, 64 << 10);
    printf("lut_p54c: ok\n");
    rck_hal_close(hal);
    return 0;
}
