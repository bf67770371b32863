/*
 * Libraries that take interrupts, through their descriptors (rck/lib.h):
 * three libraries attached to UE 1's core, two on the GIC line and one on
 * the pin line (the third also on GIC), each get every interrupt of their
 * kinds that UE 0 raises, with the sender named for GIC; a library whose
 * init fails is refused and gets none; the HAL going down (RCCE_finalize)
 * runs the fini of those still attached.
 */
#include "conf.h"
#include "rck/hal.h"

enum { LX, LY, LZ, NLIB };
static int runs[NLIB][2], last_sender[NLIB], down[NLIB];

#define LIB(l, name_, k1, k2)                                               \
    static void irq_##l(rck_hal_t *hal, rck_irq_kind_t kind, int sender,   \
                        void *arg)                                          \
    {                                                                       \
        (void)hal;                                                          \
        (void)arg;                                                          \
        runs[l][kind]++;                                                    \
        last_sender[l] = sender;                                            \
    }                                                                       \
    static void fini_##l(rck_hal_t *hal, rck_lib_fini_why_t why)            \
    {                                                                       \
        (void)hal;                                                          \
        down[l] += why == RCK_LIB_HAL_DOWN;                                 \
    }                                                                       \
    static const rck_lib_desc_t desc_##l = {                                \
        .name = name_, .rank = 90,                                          \
        .irq = {{k1, irq_##l}, {k2, k2 == k1 ? NULL : irq_##l}},            \
        .fini = fini_##l}
LIB(LX, "tlx", RCK_IRQ_GIC, RCK_IRQ_GIC);
LIB(LY, "tly", RCK_IRQ_GIC, RCK_IRQ_GIC);
LIB(LZ, "tlz", RCK_IRQ_PIN, RCK_IRQ_GIC);

static rck_status_t init_fails(rck_hal_t *hal)
{
    (void)hal;
    return RCK_ERR_CONFIG;
}

static const rck_lib_desc_t desc_bad = {
    .name = "tlbad", .rank = 90,
    .irq = {{RCK_IRQ_GIC, irq_LX}}, .init = init_fails};

int main(int argc, char **argv)
{
    int id[NLIB], bad;

    conf_watchdog();
    CHECK_OK(RCCE_init(&argc, &argv));
    conf_started();
    int me = RCCE_ue();
    CHECK(RCCE_num_ues() == 2);
    rck_hal_t *hal = rck_hal_self();
    CHECK(hal != NULL);
    int c0 = hal->ue_core[0], c1 = hal->ue_core[1];

    conf_phase("register and attach");
    id[LX] = rck_lib_register(&desc_LX);
    id[LY] = rck_lib_register(&desc_LY);
    id[LZ] = rck_lib_register(&desc_LZ);
    bad = rck_lib_register(&desc_bad);
    CHECK(id[LX] >= 0 && id[LY] >= 0 && id[LZ] >= 0 && bad >= 0);
    if (me == 1) {
        for (int l = 0; l < NLIB; l++)
            CHECK(rck_lib_attach(hal, id[l]) == RCK_OK);
        /* refused (logged naming "tlbad"): its handler is not chained */
        CHECK(rck_lib_attach(hal, bad) == RCK_ERR_CONFIG);
        CHECK(!rck_lib_attached(bad));
    }
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));

    conf_phase("GIC and pin, every library");
    if (me == 0) {
        CHECK(rck_hal_irq_raise(hal, c1, RCK_IRQ_GIC) == RCK_OK);
        CHECK(rck_hal_irq_raise(hal, c1, RCK_IRQ_PIN) == RCK_OK);
    }
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
    if (me == 1) {
        int n;
        CHECK(rck_hal_irq_poll(hal, &n) == RCK_OK);
        /* tlbad's handler would have counted as tlx's */
        CHECKF(runs[LX][RCK_IRQ_GIC] == 1 && runs[LY][RCK_IRQ_GIC] == 1 &&
                   runs[LZ][RCK_IRQ_GIC] == 1,
               "GIC runs %d %d %d, want 1 1 1", runs[LX][RCK_IRQ_GIC],
               runs[LY][RCK_IRQ_GIC], runs[LZ][RCK_IRQ_GIC]);
        CHECKF(runs[LX][RCK_IRQ_PIN] == 0 && runs[LY][RCK_IRQ_PIN] == 0 &&
                   runs[LZ][RCK_IRQ_PIN] == 1,
               "pin runs %d %d %d, want 0 0 1", runs[LX][RCK_IRQ_PIN],
               runs[LY][RCK_IRQ_PIN], runs[LZ][RCK_IRQ_PIN]);
        CHECKF(last_sender[LX] == c0 && last_sender[LY] == c0,
               "GIC senders %d %d, want %d", last_sender[LX],
               last_sender[LY], c0);

        conf_phase("detached");
        rck_lib_detach(hal, id[LY]);
        CHECK(!rck_lib_attached(id[LY]));
    }
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
    if (me == 0)
        CHECK(rck_hal_irq_raise(hal, c1, RCK_IRQ_GIC) == RCK_OK);
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
    if (me == 1) {
        int n;
        CHECK(rck_hal_irq_poll(hal, &n) == RCK_OK);
        CHECKF(runs[LX][RCK_IRQ_GIC] == 2 && runs[LY][RCK_IRQ_GIC] == 1 &&
                   runs[LZ][RCK_IRQ_GIC] == 2,
               "GIC runs %d %d %d, want 2 1 2", runs[LX][RCK_IRQ_GIC],
               runs[LY][RCK_IRQ_GIC], runs[LZ][RCK_IRQ_GIC]);
    }
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
    CHECK_OK(RCCE_finalize());
    if (me == 1)
        CHECKF(down[LX] == 1 && down[LY] == 0 && down[LZ] == 1 &&
                   !rck_lib_attached(id[LX]) && !rck_lib_attached(id[LZ]),
               "HAL down: fini %d %d %d, want 1 0 1", down[LX], down[LY],
               down[LZ]);
    if (me == 0)
        printf("libirq: ok\n");
    return 0;
}
