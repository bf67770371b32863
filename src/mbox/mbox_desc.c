/*
 * The mailboxes' (rck_mbox_send) descriptor (rck/lib.h), registered
 * with the HAL when the library is loaded; rck__mbox_lib is the id its
 * messages are counted under. In a file of its own so that a static link
 * (the launcher's) can pull the descriptor alone (rockcreek_static's link
 * options).
 */
#include "rck/lib.h"

/* mbox.c's hooks, referenced weakly: a link that pulls the descriptor
 * alone has them NULL, and whenever the mailboxes attach (rck_mbox_init,
 * in mbox.c) they are there. */
extern rck_status_t rck__mbox_attach(rck_hal_t *hal) __attribute__((weak));
extern void rck__mbox_fini(rck_hal_t *hal, rck_lib_fini_why_t why)
    __attribute__((weak));
extern void rck__mbox_on_gic(rck_hal_t *hal, rck_irq_kind_t kind, int sender,
                             void *arg) __attribute__((weak));

static const rck_lib_desc_t mbox_lib_desc = {
    .name = "mbox",
    .rank = 28,
    .flags = RCK_LIB_LISTED,
    .irq = {{RCK_IRQ_GIC, rck__mbox_on_gic}},
    .init = rck__mbox_attach,
    .fini = rck__mbox_fini,
};

int rck__mbox_lib = -1;

__attribute__((constructor)) static void mbox_lib_register(void)
{
    rck__mbox_lib = rck_lib_register(&mbox_lib_desc);
}
