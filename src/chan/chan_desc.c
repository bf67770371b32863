/*
 * The notification channels' (rck_chan_send) descriptor: its (rck/lib.h):
 * registered with the HAL when the library is loaded; rck__chan_lib is the
 * id its messages are counted under. In a file of its own so that a static
 * link (the launcher's) can pull the descriptor alone (rockcreek_static's
 * link options).
 */
#include "rck/lib.h"

/* chan.c's and chan_notify.c's hooks, referenced weakly: a link that
 * pulls the descriptor alone has them NULL, and whenever the channels
 * attach (rck_chan_init, in chan.c) they are there. */
extern rck_status_t rck__chan_attach(rck_hal_t *hal) __attribute__((weak));
extern void rck__chan_fini(rck_hal_t *hal, rck_lib_fini_why_t why)
    __attribute__((weak));
extern void rck__chan_irq(rck_hal_t *hal, rck_irq_kind_t kind, int sender,
                          void *arg) __attribute__((weak));

static const rck_lib_desc_t chan_lib_desc = {
    .name = "chan",
    .rank = 29,
    .flags = RCK_LIB_LISTED,
    .irq = {{RCK_IRQ_PIN, rck__chan_irq}},
    .init = rck__chan_attach,
    .fini = rck__chan_fini,
};

int rck__chan_lib = -1;

__attribute__((constructor)) static void chan_lib_register(void)
{
    rck__chan_lib = rck_lib_register(&chan_lib_desc);
}
