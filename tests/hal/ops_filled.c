/*
 * Every slot filled (rck/hal.h): each backend compiled in has no empty
 * slot in its core ops or its job ops, and a table with one is refused at
 * registration, naming the slot. Prints "ops_filled: ok" and exits 0 when
 * every check holds.
 */
#include "rck/hal.h"

#include <stdio.h>
#include <string.h>

static int fails;

static void check(int cond, const char *what)
{
    if (!cond) {
        fprintf(stderr, "ops_filled: FAILED: %s\n", what);
        fails++;
    }
}

int main(void)
{
    static const char *const names[] = {"native", "sim", "mpi"};
    const rck_hal_ops_t *native = rck_hal_backend_find("native");
    rck_hal_ops_t broken;
    rck_job_ops_t broken_job;
    int found = 0;

    for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++) {
        const rck_hal_ops_t *ops = rck_hal_backend_find(names[i]);
        const char *missing;
        if (ops == NULL)
            continue; /* not compiled in */
        found++;
        missing = rck_hal_ops_missing(ops);
        if (missing != NULL)
            fprintf(stderr, "ops_filled: %s leaves %s empty\n", names[i],
                    missing);
        check(missing == NULL, "a registered backend has every slot");
    }
    check(found >= 2, "native and sim are registered");
    if (native == NULL)
        return 1;
    broken = *native;
    broken.name = "broken";
    broken.mpb_prefetch = NULL;
    check(rck_hal_ops_missing(&broken) != NULL &&
              !strcmp(rck_hal_ops_missing(&broken), "mpb_prefetch"),
          "an empty core slot is found");
    check(rck_hal_backend_register(&broken) == RCK_ERR_INVALID &&
              rck_hal_backend_find("broken") == NULL,
          "a table with an empty core slot is refused");
    broken = *native;
    broken.name = "broken";
    broken_job = *native->job;
    broken_job.tick = NULL;
    broken.job = &broken_job;
    check(rck_hal_ops_missing(&broken) != NULL &&
              !strcmp(rck_hal_ops_missing(&broken), "job->tick"),
          "an empty job slot is found");
    check(rck_hal_backend_register(&broken) == RCK_ERR_INVALID,
          "a table with an empty job slot is refused");
    broken_job = *native->job;
    check(rck_hal_backend_register(&broken) == RCK_OK &&
              rck_hal_backend_find("broken") == &broken,
          "the same table filled is registered");
    if (fails == 0)
        printf("ops_filled: ok\n");
    return fails != 0;
}
