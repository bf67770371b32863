/*
 * Libraries attached to this core's HAL (rck/lib.h: rck_lib_attach): one
 * bit per library id (one core per process, as the HAL's handle). The
 * descriptor's init runs before its handlers are chained, its fini after
 * they are unchained; hal.c's dispatcher runs the attached libraries'
 * handlers in id order (registration order), rck_hal_close detaches
 * those still attached, the last registered first.
 *
 * Owns: the attached set. May call: the registry (lib.c), hal.c's
 * dispatcher switch (rck__hal_irq_update), util (logger).
 */
#include "rck/hal.h"
#include "rck/log.h"

static unsigned lib_on; /* attached ids, a bit each */

_Static_assert(RCK_LIB_MAX <= 32, "one bit per library id");

int rck_lib_attached(int id)
{
    return id >= 0 && id < rck_lib_count() && (lib_on >> id & 1u);
}

rck_status_t rck_lib_attach(rck_hal_t *hal, int id)
{
    const rck_lib_desc_t *d = rck_lib_desc(id);
    rck_status_t st;

    if (d == NULL || hal == NULL) {
        rck_error("rck_lib_attach: %s", hal == NULL
                                            ? "no HAL (rck_hal_open first)"
                                            : "no library of that id "
                                              "(rck_lib_register)");
        return RCK_ERR_INVALID;
    }
    if (lib_on >> id & 1u)
        return RCK_OK;
    if (d->init != NULL && (st = d->init(hal)) != RCK_OK) {
        rck_error("library '%s' could not attach to core %d: %s", d->name,
                  hal->core, rck_status_string(st));
        return st;
    }
    lib_on |= 1u << id;
    rck__hal_irq_update(hal);
    return RCK_OK;
}

static void lib_leave(rck_hal_t *hal, int id, rck_lib_fini_why_t why)
{
    const rck_lib_desc_t *d = rck_lib_desc(id);

    if (d == NULL || !(lib_on >> id & 1u))
        return;
    lib_on &= ~(1u << id);
    rck__hal_irq_update(hal);
    if (d->fini != NULL)
        d->fini(hal, why);
}

void rck_lib_detach(rck_hal_t *hal, int id)
{
    lib_leave(hal, id, RCK_LIB_DETACH);
}

void rck__lib_hal_down(rck_hal_t *hal)
{
    for (int id = rck_lib_count() - 1; id >= 0; id--)
        lib_leave(hal, id, RCK_LIB_HAL_DOWN);
}

/* Run (or, with @p hal NULL, count) library @p d's handlers of @p kind. */
static int lib_irq(const rck_lib_desc_t *d, rck_hal_t *hal,
                   rck_irq_kind_t kind, int sender)
{
    int n = 0;

    for (int i = 0; i < RCK_LIB_IRQS && d->irq[i].fn != NULL; i++)
        if (d->irq[i].kind == kind) {
            if (hal != NULL)
                d->irq[i].fn(hal, kind, sender, NULL);
            n++;
        }
    return n;
}

int rck__lib_irq_any(rck_irq_kind_t kind)
{
    for (int id = 0; id < rck_lib_count(); id++)
        if ((lib_on >> id & 1u) && lib_irq(rck_lib_desc(id), NULL, kind, -1))
            return 1;
    return 0;
}

int rck__lib_irq_run(rck_hal_t *hal, rck_irq_kind_t kind, int sender)
{
    /* A handler may detach a library: the set is read once. */
    unsigned on = lib_on;
    int n = 0;

    for (int id = 0; on != 0 && id < rck_lib_count(); id++)
        if (on >> id & 1u)
            n += lib_irq(rck_lib_desc(id), hal, kind, sender);
    return n;
}
