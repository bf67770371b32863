/*
 * irq.c: interrupts on the sim backend (2 UEs). UE 1 installs a handler
 * and waits for a "done" word; the handler runs inside that wait and
 * acknowledges each interrupt in UE 0's MPB. UE 0 raises a GIC interrupt
 * twice in a row (the second is lost: the first is still pending), waits
 * for the acknowledgement, raises a pin interrupt, waits again, and ends
 * the run. Exit status 0 when the handler saw exactly GIC(from core 0),
 * then PIN (sender unknown).
 */
#include "rck/hal.h"

#include <stdio.h>
#include <stdlib.h>

enum { ACK = 64, DONE = 96 };

static int seen, kinds[8], senders[8];

static void ok(rck_status_t st, const char *what)
{
    if (st != RCK_OK) {
        fprintf(stderr, "irq: %s failed: %s\n", what, rck_status_string(st));
        exit(3);
    }
}

static void handler(rck_hal_t *hal, rck_irq_kind_t kind, int sender,
                    void *arg)
{
    (void)arg;
    if (seen < 8) {
        kinds[seen] = kind;
        senders[seen] = sender;
    }
    seen++;
    rck_hal_mpb_store32(hal, hal->ue_core[0], ACK, (uint32_t)seen);
}

int main(void)
{
    rck_hal_t *hal;

    ok(rck_hal_open(NULL, &hal), "rck_hal_open");
    if (hal->nues != 2)
        return 2;
    int c0 = hal->ue_core[0], c1 = hal->ue_core[1];
    if (hal->ue == 1) {
        rck_hal_irq_set_handler(hal, handler, NULL);
        ok(rck_hal_wait_mpb_eq(hal, c1, DONE, ~0u, 1, -1), "wait done");
        printf("irq: %d interrupts: ", seen);
        for (int i = 0; i < seen && i < 8; i++)
            printf("%s from %d; ", kinds[i] == RCK_IRQ_GIC ? "GIC" : "PIN",
                   senders[i]);
        printf("\n");
        rck_hal_close(hal);
        return seen == 2 && kinds[0] == RCK_IRQ_GIC && senders[0] == c0 &&
                       kinds[1] == RCK_IRQ_PIN && senders[1] == -1
                   ? 0
                   : 1;
    }
    ok(rck_hal_irq_raise(hal, c1, RCK_IRQ_GIC), "raise");
    ok(rck_hal_irq_raise(hal, c1, RCK_IRQ_GIC), "raise (lost)");
    ok(rck_hal_wait_mpb_eq(hal, c0, ACK, ~0u, 1, -1), "wait ack 1");
    ok(rck_hal_irq_raise(hal, c1, RCK_IRQ_PIN), "raise pin");
    ok(rck_hal_wait_mpb_eq(hal, c0, ACK, ~0u, 2, -1), "wait ack 2");
    ok(rck_hal_mpb_store32(hal, c1, DONE, 1), "done");
    rck_hal_close(hal);
    return 0;
}
