/*
 * SCC_API.h: rockcreek's implementation of the configuration-register
 * interface of Intel's sccKit (the header programs of the era include to
 * reach LUTs, TAS registers, interrupt pins and MPBs), over the HAL
 * (docs/LUT.md, "SCC_API.h").
 *
 * Addresses are the core's 32-bit physical addresses: the top byte picks
 * the core's LUT entry, so an address reaches whatever that entry names
 * (with the default map: CRB_ADDR(x, y) the tile's configuration
 * registers, MPB_ADDR(x, y, z) a core's MPB, SHM_ADDR shared DRAM). The
 * pointers MallocConfigReg, MPBalloc and SHMalloc return lie in the
 * core's LUT window: MPBs and shared DRAM are memory there; loads and
 * stores of a configuration register through a pointer are carried out by
 * the HAL (a LOCK read is the test-and-set, a GLCFG write that sets the
 * interrupt bit raises the interrupt, a LUT write remaps).
 *
 * The program must run under `rck run` on the native or sim backend
 * (LUT windows on). InitAPI attaches the core; every call before it, or
 * on a backend without windows, prints what is wrong and ends the program
 * with status 1.
 */
#ifndef SCC_API_H
#define SCC_API_H

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push(default)

typedef volatile unsigned char *t_vcharp;

/* ---- the mesh ---- */
#ifndef NUM_ROWS
#define NUM_ROWS 4
#endif
#ifndef NUM_COLS
#define NUM_COLS 6
#endif
#ifndef NUM_CORES
#define NUM_CORES 2
#endif

/* Tile id (route) and physical core id <-> coordinates. */
#ifndef TID
#define TID(x, y) (((y) << 4) + (x))
#define X_TID(tid) ((tid) & 0x0f)
#define Y_TID(tid) ((tid) >> 4)
#endif
#ifndef PID
#define PID(x, y, core) ((NUM_CORES * NUM_COLS * (y)) + (NUM_CORES * (x)) + (core))
#endif
#ifndef X_PID
#define Y_PID(pid) (((pid) / NUM_CORES) / NUM_COLS)
#define X_PID(pid) (((pid) / NUM_CORES) - (NUM_COLS * Y_PID(pid)))
#define Z_PID(pid) ((pid) % NUM_CORES)
#endif

/* ---- physical addresses of the default LUT ---- */
#define MPBADDRBITS 13
#define MPBSIZE (1 << MPBADDRBITS)
#define SHMADDRBITS 26
#define SHMSIZE (1 << SHMADDRBITS)
#define SHM_X0_Y0 0x80000000u
#define SHM_X5_Y0 0x81000000u
#define SHM_X0_Y2 0x82000000u
#define SHM_X5_Y2 0x83000000u
#define SHM_ADDR SHM_X0_Y0
#define MPB_X0_Y0 0xc0000000u
#define MPB_OWN 0xd8000000u
#define CRB_X0_Y0 0xe0000000u
#define CRB_OWN 0xf8000000u
#define MPB_ADDR(x, y, z)                                                     \
    (MPB_X0_Y0 + 0x01000000u * (unsigned)(x) +                                \
     0x01000000u * NUM_COLS * (unsigned)(y) + MPBSIZE * (unsigned)(z))
#define CRB_ADDR(x, y)                                                        \
    (CRB_X0_Y0 + 0x01000000u * (unsigned)(x) +                                \
     0x01000000u * NUM_COLS * (unsigned)(y))

/* ---- configuration registers: offsets in a tile's CRB ---- */
#define GLCFG0 0x010
#define GLCFG1 0x018
#define L2CFG0 0x020
#define L2CFG1 0x028
#define SENSOR 0x040
#define GCBCFG 0x080
#define MYTILEID 0x100
#define LOCK0 0x200
#define LOCK1 0x400
#define LUT0 0x00800
#define LUT1 0x01000

/* bits of GLCFGn */
#define GLCFG_XNMI_BIT 0
#define GLCFG_XINTR_BIT 1
#define GLCFG_XINIT_BIT 2
/* bit of LOCKn */
#define LOCK_BIT 0

/** Attach this core (the HAL); @p printMessages 1 prints a line when
 *  done. */
void InitAPI(int printMessages);
/** Read the 32-bit register (or word) at physical address @p ConfigAddr. */
int ReadConfigReg(unsigned int ConfigAddr);
/** Write @p RegValue to it. */
void SetConfigReg(unsigned int ConfigAddr, int RegValue);
/** Read, set bit @p BitPos to @p BitValue (0 or not), write back. */
void SetConfigBit(unsigned int ConfigAddr, int BitPos, int BitValue);
/** A pointer through which the program reads and writes the register at
 *  @p ConfigAddr (in the core's LUT window). */
int *MallocConfigReg(unsigned int ConfigAddr);
/** Give back a pointer of MallocConfigReg (nothing to undo). */
void FreeConfigReg(int *ConfigRegVirtualAddr);
/** *mpb = the MPB of core @p core of tile (@p x, @p y), MPBSIZE bytes
 *  (through MPB_OWN when @p isOwnMPB); NULL for bad coordinates. */
void MPBalloc(t_vcharp *mpb, int x, int y, int core, int isOwnMPB);
void MPBunalloc(t_vcharp *mpb);
/** *SHM = the shared DRAM at SHM_ADDR (the window's first pages). */
void SHMalloc(t_vcharp *SHM);
void SHMunalloc(t_vcharp *SHM);
/** Write back and invalidate this core's cached shared data. @return 0. */
int DCMflush(void);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif
