/*
 * Shared interrupt lines (rck_hal_irq_add_handler): two libraries' handlers
 * on the GIC line and one on the pin line of UE 1's core. Each interrupt
 * UE 0 raises must run every handler of its kind exactly once, with the
 * sender named for GIC; a removed handler no longer runs; adding the same
 * handler twice runs it once; a ninth handler of a kind is refused.
 */
#include "conf.h"
#include "rck/hal.h"

static int runs[3], last_sender[3];

static void count(rck_hal_t *hal, rck_irq_kind_t kind, int sender, void *arg)
{
    (void)hal;
    int which = (int)(intptr_t)arg;
    runs[which]++;
    last_sender[which] = sender;
    (void)kind;
}

static void spare(rck_hal_t *hal, rck_irq_kind_t kind, int sender, void *arg)
{
    (void)hal;
    (void)kind;
    (void)sender;
    (void)arg;
}

/* Take every interrupt raised before the barrier both UEs just left. */
static void drain(rck_hal_t *hal)
{
    int n;
    CHECK(rck_hal_irq_poll(hal, &n) == RCK_OK);
}

int main(int argc, char **argv)
{
    conf_watchdog();
    CHECK_OK(RCCE_init(&argc, &argv));
    conf_started();
    int me = RCCE_ue();
    CHECK(RCCE_num_ues() == 2);
    rck_hal_t *hal = rck_hal_self();
    CHECK(hal != NULL);
    int c0 = hal->ue_core[0], c1 = hal->ue_core[1];

    conf_phase("install");
    if (me == 1) {
        CHECK(rck_hal_irq_add_handler(hal, RCK_IRQ_GIC, count, (void *)0) ==
              RCK_OK);
        CHECK(rck_hal_irq_add_handler(hal, RCK_IRQ_GIC, count, (void *)1) ==
              RCK_OK);
        CHECK(rck_hal_irq_add_handler(hal, RCK_IRQ_GIC, count, (void *)0) ==
              RCK_OK); /* again: still one */
        CHECK(rck_hal_irq_add_handler(hal, RCK_IRQ_PIN, count, (void *)2) ==
              RCK_OK);
        CHECK(rck_hal_irq_add_handler(hal, RCK_IRQ_PIN, NULL, NULL) ==
              RCK_ERR_INVALID);
        CHECK(rck_hal_irq_add_handler(hal, (rck_irq_kind_t)7, count, NULL) ==
              RCK_ERR_INVALID);
        CHECK(rck_hal_irq_remove_handler(hal, RCK_IRQ_PIN, count,
                                         (void *)1) == RCK_ERR_NOT_FOUND);
    }
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));

    conf_phase("GIC and pin, every handler");
    if (me == 0) {
        CHECK(rck_hal_irq_raise(hal, c1, RCK_IRQ_GIC) == RCK_OK);
        CHECK(rck_hal_irq_raise(hal, c1, RCK_IRQ_PIN) == RCK_OK);
    }
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
    if (me == 1) {
        drain(hal);
        CHECKF(runs[0] == 1 && runs[1] == 1 && runs[2] == 1,
               "runs %d %d %d, want 1 1 1", runs[0], runs[1], runs[2]);
        CHECKF(last_sender[0] == c0 && last_sender[1] == c0,
               "GIC senders %d %d, want %d", last_sender[0], last_sender[1],
               c0);
        CHECKF(last_sender[2] == -1, "pin sender %d, want -1", last_sender[2]);
        CHECK(rck_hal_irq_remove_handler(hal, RCK_IRQ_GIC, count,
                                         (void *)0) == RCK_OK);
    }
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));

    conf_phase("removed handler");
    if (me == 0)
        CHECK(rck_hal_irq_raise(hal, c1, RCK_IRQ_GIC) == RCK_OK);
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
    if (me == 1) {
        drain(hal);
        CHECKF(runs[0] == 1 && runs[1] == 2 && runs[2] == 1,
               "runs %d %d %d, want 1 2 1", runs[0], runs[1], runs[2]);

        conf_phase("full line");
        int added = 1; /* count/1 is on the GIC line */
        while (rck_hal_irq_add_handler(hal, RCK_IRQ_GIC, spare,
                                       (void *)(intptr_t)(100 + added)) ==
               RCK_OK)
            added++;
        CHECKF(added == RCK_HAL_IRQ_HANDLERS, "%d handlers fit, want %d",
               added, RCK_HAL_IRQ_HANDLERS);
        for (int i = 1; i < added; i++)
            CHECK(rck_hal_irq_remove_handler(hal, RCK_IRQ_GIC, spare,
                                             (void *)(intptr_t)(100 + i)) ==
                  RCK_OK);
        CHECK(rck_hal_irq_remove_handler(hal, RCK_IRQ_GIC, count,
                                         (void *)1) == RCK_OK);
        CHECK(rck_hal_irq_remove_handler(hal, RCK_IRQ_PIN, count,
                                         (void *)2) == RCK_OK);
    }
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
    CHECK_OK(RCCE_finalize());
    if (me == 0)
        printf("irqshare: ok\n");
    return 0;
}
