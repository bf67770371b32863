/*
 * The core's interrupt handlers: the libraries attached to this core's
 * HAL (rck/lib.h: rck_lib_attach), one bit per library id (one core per
 * process, as the HAL's handle), and the handlers added by hand
 * (rck_hal_irq_add_handler). The descriptor's init runs before its
 * handlers are chained, its fini after they are unchained; the dispatcher
 * runs the attached libraries' handlers in id order (registration order),
 * then those added by hand; rck_hal_close detaches the libraries still
 * attached, the last registered first.
 *
 * Owns: the attached set, the per-kind chains, the dispatcher. May call:
 * the registry (lib.c), util (logger); it sets the core's handler
 * (rck_hal_t.irq_handler) itself, never calling up into hal.c.
 */
#include "rck/hal.h"
#include "rck/log.h"

static unsigned lib_on; /* attached ids, a bit each */

_Static_assert(RCK_LIB_MAX <= 32, "one bit per library id");

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

static int lib_irq_any(rck_irq_kind_t kind)
{
    for (int id = 0; id < rck_lib_count(); id++)
        if ((lib_on >> id & 1u) && lib_irq(rck_lib_desc(id), NULL, kind, -1))
            return 1;
    return 0;
}

static int lib_irq_run(rck_hal_t *hal, rck_irq_kind_t kind, int sender)
{
    /* A handler may detach a library: the set is read once. */
    unsigned on = lib_on;
    int n = 0;

    for (int id = 0; on != 0 && id < rck_lib_count(); id++)
        if (on >> id & 1u)
            n += lib_irq(rck_lib_desc(id), hal, kind, sender);
    return n;
}

/* Per-kind handlers of this process's core (one core per process). An
 * interrupt line is shared: every handler of its kind runs, and each
 * checks its own state (a mailbox, a ring) for work, so an interrupt meant
 * for another library is harmless. First the handlers of the attached
 * libraries' descriptors, in registration order (lib.c), then those added
 * by hand, in the order they were added. */
static struct {
    rck_hal_irq_handler_t fn;
    void *arg;
} kind_handler[2][RCK_HAL_IRQ_HANDLERS];
static int kind_count[2];

static void irq_dispatch(rck_hal_t *hal, rck_irq_kind_t kind, int sender,
                         void *arg)
{
    (void)arg;
    if ((unsigned)kind >= 2)
        return;
    /* A handler may remove itself (or another): run a snapshot. */
    int n = kind_count[kind];
    rck_hal_irq_handler_t fn[RCK_HAL_IRQ_HANDLERS];
    void *fa[RCK_HAL_IRQ_HANDLERS];
    for (int i = 0; i < n; i++) {
        fn[i] = kind_handler[kind][i].fn;
        fa[i] = kind_handler[kind][i].arg;
    }
    (void)lib_irq_run(hal, kind, sender);
    for (int i = 0; i < n; i++)
        fn[i](hal, kind, sender, fa[i]);
}

/* Install the dispatcher as the core's handler while any kind has a
 * handler, remove it when none has (rck_hal_irq_set_handler's effect,
 * without calling up into hal.c). */
static void irq_update(rck_hal_t *hal)
{
    int any = kind_count[0] != 0 || kind_count[1] != 0 ||
              lib_irq_any(RCK_IRQ_PIN) || lib_irq_any(RCK_IRQ_GIC);

    hal->irq_handler = any ? irq_dispatch : NULL;
    hal->irq_arg = NULL;
}

static int irq_kind_ok(rck_irq_kind_t kind, const char *who)
{
    if ((unsigned)kind >= 2) {
        rck_error("%s: unknown interrupt kind %d", who, (int)kind);
        return 0;
    }
    return 1;
}

rck_status_t rck_hal_irq_add_handler(rck_hal_t *hal, rck_irq_kind_t kind,
                                     rck_hal_irq_handler_t handler, void *arg)
{
    if (!irq_kind_ok(kind, "rck_hal_irq_add_handler"))
        return RCK_ERR_INVALID;
    if (handler == NULL) {
        rck_error("rck_hal_irq_add_handler: NULL handler");
        return RCK_ERR_INVALID;
    }
    for (int i = 0; i < kind_count[kind]; i++)
        if (kind_handler[kind][i].fn == handler &&
            kind_handler[kind][i].arg == arg)
            return RCK_OK; /* already there: adding twice runs it once */
    if (kind_count[kind] == RCK_HAL_IRQ_HANDLERS) {
        rck_error("rck_hal_irq_add_handler: %d handlers of the %s interrupt "
                  "already (the most a core takes)", RCK_HAL_IRQ_HANDLERS,
                  kind == RCK_IRQ_PIN ? "pin" : "GIC");
        return RCK_ERR_NOMEM;
    }
    kind_handler[kind][kind_count[kind]].fn = handler;
    kind_handler[kind][kind_count[kind]].arg = arg;
    kind_count[kind]++;
    irq_update(hal);
    return RCK_OK;
}

rck_status_t rck_hal_irq_remove_handler(rck_hal_t *hal, rck_irq_kind_t kind,
                                        rck_hal_irq_handler_t handler,
                                        void *arg)
{
    if (!irq_kind_ok(kind, "rck_hal_irq_remove_handler"))
        return RCK_ERR_INVALID;
    for (int i = 0; i < kind_count[kind]; i++) {
        if (kind_handler[kind][i].fn != handler ||
            kind_handler[kind][i].arg != arg)
            continue;
        for (int j = i + 1; j < kind_count[kind]; j++)
            kind_handler[kind][j - 1] = kind_handler[kind][j];
        kind_count[kind]--;
        irq_update(hal);
        return RCK_OK;
    }
    return RCK_ERR_NOT_FOUND;
}

void rck_hal_irq_set_kind_handler(rck_hal_t *hal, rck_irq_kind_t kind,
                                  rck_hal_irq_handler_t handler, void *arg)
{
    if (!irq_kind_ok(kind, "rck_hal_irq_set_kind_handler"))
        return;
    kind_count[kind] = 0;
    if (handler != NULL) {
        kind_handler[kind][0].fn = handler;
        kind_handler[kind][0].arg = arg;
        kind_count[kind] = 1;
    }
    irq_update(hal);
}

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
    irq_update(hal);
    return RCK_OK;
}

static void lib_leave(rck_hal_t *hal, int id, rck_lib_fini_why_t why)
{
    const rck_lib_desc_t *d = rck_lib_desc(id);

    if (d == NULL || !(lib_on >> id & 1u))
        return;
    lib_on &= ~(1u << id);
    irq_update(hal);
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

