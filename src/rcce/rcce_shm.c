/*
 * Off-chip shared memory: RCCE_shmalloc hands out pieces of the HAL's
 * shared DRAM window. It is collective: every UE runs the same allocator
 * with the same calls in the same order, so every UE gets the same
 * address, without communicating.
 */
#include "rcce_internal.h"

#include <stdint.h>

#define RCK_SHM_ALIGN 64
#define RCK_SHM_MAX_BLOCKS 4096

int rcce_shm_init(void)
{
    void *base;
    size_t len;

    if (rck_hal_shm_map(rcce.hal, &base, &len) != RCK_OK) {
        rcce.shm_base = NULL;
        rcce.shm_len = 0;
        return RCCE_SUCCESS; /* no shared window: shmalloc returns NULL */
    }
    /* the top of the window may be kept by other libraries (SVM) */
    len -= rcce.hal->shm_reserved;
    if (len == 0) {
        rcce.shm_base = NULL;
        rcce.shm_len = 0;
        return RCCE_SUCCESS;
    }
    rcce.shm_base = base;
    rcce.shm_len = len;
    if (rcce_arena_init(&rcce.shm, len, RCK_SHM_ALIGN, RCK_SHM_MAX_BLOCKS) !=
        0)
        return RCCE_ERROR_MALLOC;
    return RCCE_SUCCESS;
}

t_vcharp RCCE_shmalloc(size_t size)
{
    size_t off;

    if (!rcce_ready("RCCE_shmalloc") || size == 0 || rcce.shm_base == NULL)
        return NULL;
    if (rcce_arena_alloc(&rcce.shm, size, &off) != 0) {
        rck_info("RCCE_shmalloc: no %zu-byte block left in the %zu-byte "
                 "shared window (RCK_SHM_SIZE)",
                 size, rcce.shm_len);
        return NULL;
    }
    return rcce.shm_base + off;
}

void RCCE_shfree(t_vcharp ptr)
{
    unsigned char *p = (unsigned char *)ptr;

    if (!rcce_ready("RCCE_shfree") || p == NULL)
        return;
    if (p < rcce.shm_base || p >= rcce.shm_base + rcce.shm_len ||
        rcce_arena_free(&rcce.shm, (size_t)(p - rcce.shm_base)) != 0)
        rck_error("RCCE_shfree: %p was not returned by RCCE_shmalloc",
                  (void *)p);
}

void RCCE_shflush(void)
{
    if (rcce.hal != NULL)
        rck_hal_shm_flush(rcce.hal);
}

int RCCE_DCMflush(void)
{
    if (rcce.hal == NULL)
        return RCCE_ERROR_TARGET;
    return rck_hal_dcache_flush(rcce.hal) == RCK_OK ? RCCE_SUCCESS
                                                     : RCCE_ERROR_TARGET;
}
