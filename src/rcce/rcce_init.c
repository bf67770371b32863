/*
 * RCCE's start and end: RCCE_init attaches to the chip, lays out the MPB
 * and starts the parts (communicators, shared memory, power domains);
 * RCCE_finalize takes them down. Apart from rcce.c so that the core (flags,
 * put/get, send/recv) does not call the parts built on it.
 */
#include "rcce_internal.h"

#include "rck/config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#undef RCCE_init

/* ---- init / finalize ---- */

static int rcce_used; /* rcce holds an earlier init's state */

static int init_nongory(void)
{
    size_t off, len;

    rcce.sent = calloc((size_t)rcce.nues, sizeof(RCCE_FLAG));
    rcce.ready = calloc((size_t)rcce.nues, sizeof(RCCE_FLAG));
    if (rcce.sent == NULL || rcce.ready == NULL)
        return RCCE_ERROR_MALLOC;
    for (int i = 0; i < rcce.nues; i++) {
        if (rcce_flag_alloc(&rcce.sent[i]) != RCCE_SUCCESS)
            goto nospace;
    }
    for (int i = 0; i < rcce.nues; i++) {
        if (rcce_flag_alloc(&rcce.ready[i]) != RCCE_SUCCESS)
            goto nospace;
    }
    /* Keep RCK_RCCE_FLAG_RESERVE lines back for the flags of communicators
     * made later by RCCE_comm_split (and RCCE_P_COMM). */
    len = rcce_arena_largest(&rcce.mpb) / rcce.line * rcce.line;
    if (len > 4 * RCK_RCCE_FLAG_RESERVE * rcce.line)
        len -= RCK_RCCE_FLAG_RESERVE * rcce.line;
    if (len < rcce.line || rcce_arena_alloc(&rcce.mpb, len, &off) != 0)
        goto nospace;
    rcce.combuf_off = (uint32_t)off;
    rcce.combuf_len = (uint32_t)len;
    return RCCE_SUCCESS;

nospace: {
    char held[160];
    rck_hal_reserve_holders(rcce.hal, 1, held, sizeof(held));
    rck_error("RCCE_init: the %u-byte MPB has no room for the flags and "
              "buffer of %d UEs (reserved by libraries initialised before "
              "RCCE: %s)",
              rcce.mpb_bytes, rcce.nues, held);
    }
    return RCCE_ERROR_NUM_UES;
}

int RCCE_init_shape(int *argc, char ***argv, int shape)
{
    rck_hal_t *hal;
    size_t spare;
    long tmo;
    int st;

    if (rcce.initialized)
        return RCCE_SUCCESS;
    /* Before the attach: a setting is the simulator's business, and under
     * the P54C models reading the environment after it counted as the
     * program's work, which then changed with the environment's size. */
    tmo = rck_config_get_int("WAIT_TIMEOUT");
    if (rck_hal_open(NULL, &hal) != RCK_OK) {
        rck_error("RCCE_init: cannot attach to the chip");
        return RCCE_ERROR_NUM_UES;
    }
    if (!rck_hal_world_is_job(hal, "RCCE_init"))
        return RCCE_ERROR_NUM_UES;
    /* The state starts zeroed (static storage); clear it again only
     * after an earlier init: 80 KiB of stores at every start are no
     * program's work (under the P54C model they were 20,000 DRAM writes
     * per core). */
    if (rcce_used)
        memset(&rcce, 0, sizeof(rcce));
    rcce_used = 1;
    rcce.hal = hal;
    rcce.shape = shape;
    rcce.ue = hal->ue;
    rcce.nues = hal->nues;
    rcce.ue_core = hal->ue_core;
    rcce.mpb_bytes = hal->chip.mpb_bytes;
    rcce.line = hal->chip.line_bytes;
    rcce.wait_timeout_ns = tmo > 0 ? tmo * 1000000000ll : -1;
    if (rcce.line != RCCE_LINE_SIZE) {
        rck_error("RCCE_init: RCCE needs %d-byte lines; the chip has %u",
                  RCCE_LINE_SIZE, rcce.line);
        return RCCE_ERROR_ALIGNMENT;
    }
    if (rck_hal_mpb_map(hal, hal->core, (void **)&rcce.mpb_base) != RCK_OK)
        return RCCE_ERROR_TARGET;
    /* Libraries initialised before RCCE (mailboxes) keep the top of the
     * MPB and of the shared window; RCCE takes the rest. */
    rck_hal_reserve_freeze(hal, "RCCE_init");
    if (rcce_arena_init(&rcce.mpb, rcce.mpb_bytes - hal->mpb_reserved,
                        rcce.line,
                        (int)(rcce.mpb_bytes / rcce.line) + 1) != 0)
        return RCCE_ERROR_MALLOC;
    /* line 0: the spare line that pushes the write-combine buffer out */
    rcce_arena_alloc(&rcce.mpb, rcce.line, &spare);
    rcce.initialized = 1;
    st = rcce_comm_init_world();
    if (st == RCCE_SUCCESS && !(shape & RCK_RCCE_SHAPE_GORY))
        st = init_nongory();
    if (st == RCCE_SUCCESS)
        st = rcce_shm_init();
    if (st == RCCE_SUCCESS && (shape & RCK_RCCE_SHAPE_POWER))
        st = rcce_power_init();
    if (st != RCCE_SUCCESS) {
        rcce.initialized = 0;
        return st;
    }
    /* Output of every core goes through a pipe to the launcher: keep it
     * line by line, as on the chip's consoles. */
    setvbuf(stdout, NULL, _IOLBF, 0);
    (void)argc;
    (void)argv;
    return RCCE_barrier(&RCCE_COMM_WORLD);
}

int RCCE_init(int *argc, char ***argv)
{
    return RCCE_init_shape(argc, argv, 0);
}

int RCCE_finalize(void)
{
    int st;

    if (!rcce.initialized)
        return RCCE_SUCCESS;
    /* Nobody may leave while a peer can still touch its MPB. */
    st = RCCE_barrier(&RCCE_COMM_WORLD);
    fflush(stdout);
    rcce.initialized = 0;
    free(rcce.sent);
    free(rcce.ready);
    rcce_comm_fini();
    free(RCCE_COMM_WORLD.rck_members);
    RCCE_COMM_WORLD.rck_members = NULL;
    rcce_arena_fini(&rcce.mpb);
    rcce_arena_fini(&rcce.shm);
    rck_hal_close(rcce.hal);
    rcce.hal = NULL;
    return st;
}
