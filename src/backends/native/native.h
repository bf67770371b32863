/*
 * The native backend: the chip's memories in one host shared-memory
 * segment (a memfd created by the launcher and inherited by every core),
 * run at host speed.
 */
#ifndef RCK_NATIVE_H
#define RCK_NATIVE_H

#include "rck/hal.h"

extern const rck_hal_ops_t rck_native_ops;

/** The window RCK_SHM_SIZE=auto (the default) gives a native job. */
#define RCK_NATIVE_SHM_MAX ((size_t)1 << 30)    /* 64 shared LUT pages */
#define RCK_NATIVE_SHM_PAIR ((size_t)256 << 10) /* rings per ordered pair */

/**
 * The shared window of a native job of @p nues UEs when RCK_SHM_SIZE is
 * auto: room for the MPI library's rings (RCK_NATIVE_SHM_PAIR for each of
 * the n x n ordered pairs, which RCK_MPI_SHM_CHAN=auto takes, twice over
 * because the rings take at most half of the window's free part) beside
 * 32 MiB for everything else: 64 MiB up to 8 UEs, as every backend, then
 * growing to 1 GiB (the chip's shared address space: 64 LUT pages of
 * 16 MiB) from 45 UEs. Never more than half of the host's available
 * memory (MemAvailable) and never less than 64 MiB: with too little
 * memory the job gets less (@p capped set) and the rings shrink or the
 * MPI library takes sccmpb-ext (docs/MPI.md). The memfd is sparse: pages
 * nobody touches cost no memory.
 * @param [in]  nues    the job's UEs (the universe, dormant ones included).
 * @param [out] capped  1 if the host's memory made it smaller; may be NULL.
 * @param [out] want    what the job would have had; may be NULL.
 */
size_t rck_native_shm_auto(int nues, int *capped, size_t *want);

#endif
