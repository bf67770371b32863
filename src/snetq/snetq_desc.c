/*
 * The S-Net scc layer's transport (snetq) descriptor (rck/lib.h),
 * registered with the HAL when the library is loaded; rck__snetq_lib is the
 * id its messages are counted under. In a file of its own so that a static
 * link (the launcher's) can pull the descriptor alone (rockcreek_static's
 * link options).
 */
#include "rck/lib.h"

/* snetq.c's hooks, referenced weakly: a link that pulls the descriptor
 * alone has them NULL, and whenever the queues attach (rck_snetq_init, in
 * snetq.c) they are there. */
extern rck_status_t rck__snetq_attach(rck_hal_t *hal) __attribute__((weak));
extern void rck__snetq_fini(rck_hal_t *hal, rck_lib_fini_why_t why)
    __attribute__((weak));
extern void rck__snetq_on_gic(rck_hal_t *hal, rck_irq_kind_t kind,
                              int sender, void *arg) __attribute__((weak));

static const rck_lib_desc_t snetq_lib_desc = {
    .name = "snetq",
    .rank = 41,
    .flags = 0,
    .irq = {{RCK_IRQ_GIC, rck__snetq_on_gic}},
    .init = rck__snetq_attach,
    .fini = rck__snetq_fini,
};

int rck__snetq_lib = -1;

__attribute__((constructor)) static void snetq_lib_register(void)
{
    rck__snetq_lib = rck_lib_register(&snetq_lib_desc);
}
