/*
 * The shared segment every process-per-core backend uses: a memfd created
 * by the launcher, inherited by the cores across exec, and mapped by each
 * core at one fixed address. Because it is a memfd, not a named object,
 * it disappears with the last process holding it.
 *
 * Every backend's segment header starts with rck_seg_prefix_t.
 */
#ifndef RCK_SEG_H
#define RCK_SEG_H

#include "rck/hal.h"
#include "rck/status.h"

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t magic;     /* the backend's; set last, once the header is valid */
    uint64_t seg_bytes; /* size of the whole segment */
} rck_seg_prefix_t;

/**
 * Create a zero-filled segment and map it anywhere (launcher side).
 * @param [in]  name   memfd name (shows in /proc/PID/fd).
 * @param [in]  bytes  size.
 * @param [out] fd     close-on-exec memfd.
 * @param [out] map    the mapping, @p bytes long.
 */
rck_status_t rck_seg_create(const char *name, size_t bytes, int *fd,
                            void **map);

/**
 * In a core's child process before exec: keep @p fd open across exec and
 * set @p fd_var, RCK_UE and RCK_BACKEND for the core's attach.
 */
rck_status_t rck_seg_child_env(int fd, const char *fd_var, int ue,
                               const char *backend);

/**
 * Map the segment behind @p fd at @p addr (core side), after checking that
 * it starts with @p magic.
 * @param [in]  fd      the inherited memfd.
 * @param [in]  magic   the backend's magic.
 * @param [in]  addr    the fixed address.
 * @param [in]  what    how to name the segment and how to start programs,
 *                      for the error message.
 * @param [out] map     the mapping (== addr).
 * @param [out] bytes   its size.
 */
rck_status_t rck_seg_attach(int fd, uint64_t magic, uintptr_t addr,
                            const char *what, void **map, size_t *bytes);

/**
 * Parameters of a one-core job for a program started without the launcher:
 * the chip from RCK_CHIP (or the built-in one), UE 0 on core 0, the shared
 * window from RCK_SHM_SIZE.
 * @param [out] chip   the chip (the params point into it).
 * @param [out] core0  storage for the core list (the params point to it).
 * @param [out] p      the job's parameters.
 */
rck_status_t rck_seg_solo_params(rck_chip_t *chip, int *core0,
                                 rck_job_params_t *p);

#endif
