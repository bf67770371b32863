/*
 * Intel's sccKit configuration-register interface (include/SCC_API.h)
 * over the HAL: a physical address goes through this core's LUT (the
 * entry of its top byte) to a tile's configuration registers
 * (rck_hal_crb_read/_write), or to memory seen through the core's LUT
 * window (rck_hal_lut_addr).
 *
 * Owns: nothing with state but the attached handle. May call: the HAL.
 */
#include "SCC_API.h"

#include "rck/crb.h"
#include "rck/hal.h"
#include "rck/log.h"
#include "rck/lut.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static rck_hal_t *scc_hal(const char *call)
{
    rck_hal_t *hal = rck_hal_self();

    if (hal == NULL) {
        rck_error("%s: call InitAPI first (SCC_API.h)", call);
        exit(1);
    }
    return hal;
}

/* What physical address @p addr reaches through this core's LUT: a CRB
 * (*tile, *off set, NULL returned) or memory (its address returned). */
static volatile unsigned char *scc_resolve(rck_hal_t *hal, unsigned addr,
                                           const char *call, int *tile,
                                           uint32_t *off)
{
    int slot = (int)(addr >> 24);
    uint32_t entry = 0;
    rck_lut_target_t t;
    const char *why = "";
    unsigned char *base;
    void *shm;
    size_t shm_len = 0;

    *tile = -1;
    *off = addr & 0xffffffu;
    if (rck_hal_lut_read(hal, hal->core, slot, &entry) != RCK_OK ||
        rck_hal_shm_map(hal, &shm, &shm_len) != RCK_OK ||
        rck_lut_decode(&hal->chip, shm_len, entry, &t, &why) != 0) {
        rck_error("%s: address 0x%08x: LUT entry 0x%02x (0x%06x) names "
                  "nothing: %s",
                  call, addr, slot, entry, why);
        exit(1);
    }
    if (t.kind == RCK_LUT_CRB) {
        *tile = t.tile;
        return NULL;
    }
    if (t.kind == RCK_LUT_NONE) {
        rck_error("%s: address 0x%08x: LUT entry 0x%02x (0x%06x) names no "
                  "memory and no configuration registers",
                  call, addr, slot, entry);
        exit(1);
    }
    base = rck_hal_lut_addr(hal, slot);
    if (base == NULL) {
        rck_error("%s: address 0x%08x: this core has no LUT window "
                  "(native or sim backend, RCK_LUT_WINDOWS=on)",
                  call, addr);
        exit(1);
    }
    return base + *off;
}

void InitAPI(int printMessages)
{
    rck_hal_t *hal;

    if (rck_hal_open(NULL, &hal) != RCK_OK) {
        rck_error("InitAPI: cannot attach this core (start the program with "
                  "'rck run')");
        exit(1);
    }
    if (rck_hal_lut_addr(hal, 0) == NULL) {
        rck_error("InitAPI: SCC_API.h needs this core's LUT window "
                  "(docs/LUT.md)");
        exit(1);
    }
    if (printMessages)
        printf("Successfully attached core %d to rockcreek's SCC_API\n",
               hal->core);
}

int ReadConfigReg(unsigned int ConfigAddr)
{
    rck_hal_t *hal = scc_hal("ReadConfigReg");
    int tile;
    uint32_t off, v = 0;
    volatile unsigned char *p =
        scc_resolve(hal, ConfigAddr, "ReadConfigReg", &tile, &off);

    if (p != NULL)
        return *(volatile int *)(volatile void *)p;
    if (rck_hal_crb_read(hal, tile, off, &v) != RCK_OK)
        exit(1);
    return (int)v;
}

void SetConfigReg(unsigned int ConfigAddr, int RegValue)
{
    rck_hal_t *hal = scc_hal("SetConfigReg");
    int tile;
    uint32_t off;
    volatile unsigned char *p =
        scc_resolve(hal, ConfigAddr, "SetConfigReg", &tile, &off);

    if (p != NULL) {
        *(volatile int *)(volatile void *)p = RegValue;
        return;
    }
    if (rck_hal_crb_write(hal, tile, off, (uint32_t)RegValue) != RCK_OK)
        exit(1);
}

void SetConfigBit(unsigned int ConfigAddr, int BitPos, int BitValue)
{
    unsigned v = (unsigned)ReadConfigReg(ConfigAddr);

    if (BitPos < 0 || BitPos > 31) {
        rck_error("SetConfigBit: bit %d of a 32-bit register", BitPos);
        exit(1);
    }
    v = BitValue ? v | (1u << BitPos) : v & ~(1u << BitPos);
    SetConfigReg(ConfigAddr, (int)v);
}

int *MallocConfigReg(unsigned int ConfigAddr)
{
    rck_hal_t *hal = scc_hal("MallocConfigReg");
    int tile;
    uint32_t off;
    volatile unsigned char *p =
        scc_resolve(hal, ConfigAddr, "MallocConfigReg", &tile, &off);

    if (p == NULL) /* a CRB: its window slot, whose accesses fault into the
                      HAL (rck/crb.h) */
        p = (volatile unsigned char *)rck_hal_lut_addr(hal,
                                                       (int)(ConfigAddr >> 24)) +
            off;
    return (int *)(uintptr_t)p;
}

void FreeConfigReg(int *ConfigRegVirtualAddr)
{
    (void)ConfigRegVirtualAddr;
}

void MPBalloc(t_vcharp *MPB_, int x, int y, int core, int isOwnMPB)
{
    rck_hal_t *hal = scc_hal("MPBalloc");
    unsigned addr;
    int tile;
    uint32_t off;

    if (x < 0 || y < 0 || core < 0 || x >= hal->chip.mesh_x ||
        y >= hal->chip.mesh_y || core >= hal->chip.cores_per_tile) {
        printf("MPBalloc: Invalid coordinates (x=%0d, y=%0d, core=%0d)\n", x,
               y, core);
        *MPB_ = NULL;
        return;
    }
    addr = isOwnMPB ? MPB_OWN + MPBSIZE * (unsigned)core
                    : MPB_ADDR(x, y, core);
    *MPB_ = scc_resolve(hal, addr, "MPBalloc", &tile, &off);
}

void MPBunalloc(t_vcharp *MPB_)
{
    *MPB_ = NULL;
}

void SHMalloc(t_vcharp *SHM)
{
    rck_hal_t *hal = scc_hal("SHMalloc");
    int tile;
    uint32_t off;

    *SHM = scc_resolve(hal, SHM_ADDR, "SHMalloc", &tile, &off);
}

void SHMunalloc(t_vcharp *SHM)
{
    *SHM = NULL;
}

int DCMflush(void)
{
    rck_hal_t *hal = scc_hal("DCMflush");

    return rck_hal_dcache_flush(hal) == RCK_OK ? 0 : -1;
}
