/*
 * The native backend's shared-DRAM wake-ups (native.c, "Waking protocol"),
 * two cores, native backend only (it looks at the backend's segment):
 *   - UE 1 sleeps on a shared-DRAM word X; once it watches X (its
 *     core_state_t.shm_watch), UE 0 writes ROUNDS times to a word of
 *     another line and to another word of X's line. Neither may ring UE
 *     1's doorbell nor the segment-wide one (before, every shared-DRAM
 *     write rang the segment-wide doorbell that every such sleeper slept
 *     on). Both counts are exact: nothing else in this run rings them.
 *   - UE 0 then writes X: UE 1 wakes and answers through shared DRAM.
 *   - UE 1 sleeps on a shared-DRAM word and a word of its own MPB; a store
 *     into its MPB wakes it (the wait sleeps on the core's own doorbell).
 * Prints "shm_bells: ok" and exits 0 when every check holds.
 */
#include "rck/hal.h"
#include "native/native_internal.h"

#include <sched.h>
#include <stdio.h>
#include <string.h>

enum { ROUNDS = 2000, ANSWER = 7, MPB_WORD = 5 };

static int fails;

static void check(int cond, const char *what)
{
    if (!cond) {
        fprintf(stderr, "shm_bells: FAILED: %s\n", what);
        fails++;
    }
}

/* Until core @p core watches shared DRAM (it is asleep in, or about to
 * sleep in, a wait on it); 0 if it never does within many looks. */
static int await_watch(native_t *n, int core)
{
    for (long k = 0; k < 200000000L; k++) {
        if (atomic_load(&n->cores[core].shm_watch))
            return 1;
        if (k % 64 == 63)
            sched_yield();
    }
    return 0;
}

static rck_hal_cond_t shm_eq(uint32_t off, uint32_t value)
{
    return (rck_hal_cond_t){.space = RCK_SPACE_SHM,
                            .offset = off,
                            .mask = 0xffffffffu,
                            .value = value,
                            .op = RCK_COND_EQ};
}

int main(void)
{
    rck_hal_t *hal;
    void *base;
    size_t len;
    int which = -1;

    if (rck_hal_open(NULL, &hal) != RCK_OK || hal->nues != 2 ||
        strcmp(hal->ops->name, "native") != 0) {
        fprintf(stderr, "shm_bells: needs the native backend and 2 cores\n");
        return 2;
    }
    if (rck_hal_shm_map(hal, &base, &len) != RCK_OK || len < 65536) {
        fprintf(stderr, "shm_bells: needs 64 KiB of shared DRAM\n");
        return 2;
    }
    native_t *n = hal->backend;
    int peer = hal->ue_core[1 - hal->ue];
    uint32_t x = (uint32_t)(len / 2), same_line = x + 8, other = x + 4096,
             answer = x + 8192, y = x + 12288;
    uint32_t mpb_off = hal->chip.mpb_bytes / 2;

    if (hal->ue == 1) {
        check(rck_hal_wait(hal, (rck_hal_cond_t[]){shm_eq(x, 1)}, 1, 0, -1,
                           &which) == RCK_OK,
              "UE 1's wait on X");
        uint32_t a = ANSWER;
        check(rck_hal_shm_write(hal, answer, &a, 4) == RCK_OK, "the answer");
        rck_hal_cond_t two[2] = {
            shm_eq(y, 1),
            {.space = RCK_SPACE_MPB,
             .core = hal->core,
             .offset = mpb_off,
             .mask = 0xffffffffu,
             .value = MPB_WORD,
             .op = RCK_COND_EQ}};
        check(rck_hal_wait(hal, two, 2, 0, -1, &which) == RCK_OK &&
                  which == 1,
              "the wait on shared DRAM and the own MPB woke by the MPB");
    } else {
        check(await_watch(n, peer), "UE 1 watches X");
        uint32_t bell = atomic_load(&n->cores[peer].doorbell);
        uint32_t any = atomic_load(&n->hdr->any_doorbell);
        for (uint32_t r = 1; r <= ROUNDS; r++) {
            check(rck_hal_shm_write(hal, other, &r, 4) == RCK_OK,
                  "a write to another line");
            check(rck_hal_shm_write(hal, same_line, &r, 4) == RCK_OK,
                  "a write to X's line");
        }
        check(atomic_load(&n->cores[peer].doorbell) == bell,
              "writes to words UE 1 does not watch rang its doorbell");
        check(atomic_load(&n->hdr->any_doorbell) == any,
              "shared-DRAM writes rang the segment-wide doorbell");
        uint32_t one = 1;
        check(rck_hal_shm_write(hal, x, &one, 4) == RCK_OK, "the write of X");
        check(rck_hal_wait(hal, (rck_hal_cond_t[]){shm_eq(answer, ANSWER)},
                           1, 0, 10000000000LL, &which) == RCK_OK,
              "UE 1's answer");
        check(await_watch(n, peer), "UE 1 watches Y");
        check(rck_hal_mpb_store32(hal, peer, mpb_off, MPB_WORD) == RCK_OK,
              "the MPB store");
    }
    rck_hal_close(hal);
    if (fails)
        return 1;
    printf("shm_bells: ok\n");
    return 0;
}
