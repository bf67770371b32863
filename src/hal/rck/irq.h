/*
 * The kinds of interrupt and the handler's type, apart from rck/hal.h so
 * that a library's descriptor (rck/lib.h, included by rck/hal.h) can
 * carry its handlers.
 *
 * Owns: nothing (types). May call: nothing.
 */
#ifndef RCK_IRQ_H
#define RCK_IRQ_H

typedef struct rck_hal rck_hal_t;

/** Kinds of interrupt. */
typedef enum {
    RCK_IRQ_PIN = 0, /* configuration-register INTR pin: sender unknown */
    RCK_IRQ_GIC = 1  /* global interrupt controller: carries the sender */
} rck_irq_kind_t;

/** How many kinds there are. */
#define RCK_IRQ_KINDS 2

/**
 * Interrupt handler. Runs on the receiving core inside a HAL call (a wait,
 * rck_hal_irq_poll, or any call that checks for pending interrupts); it may
 * call HAL functions but must not wait.
 * @param [in] hal     the receiving core.
 * @param [in] kind    pin or GIC.
 * @param [in] sender  sending core for GIC interrupts, -1 for pin ones.
 * @param [in] arg     the pointer given to rck_hal_irq_set_handler() or
 *                     rck_hal_irq_add_handler(); NULL for a handler of a
 *                     library's descriptor (rck/lib.h).
 */
typedef void (*rck_hal_irq_handler_t)(rck_hal_t *hal, rck_irq_kind_t kind,
                                      int sender, void *arg);

#endif
