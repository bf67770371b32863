/*
 * Libraries attached to a core's HAL (src/hal/libattach.c, rck/lib.h):
 * the interrupt handlers of three attached libraries' descriptors are
 * chained per kind, in registration order, before the handlers added by
 * hand; a detached library's handlers no longer run; the init hook runs
 * before the chain and a failing one is reported by the library's name
 * and leaves it detached; fini runs on detach and, for the libraries
 * still attached, when the HAL goes down, the last registered first.
 *
 * No backend: the HAL handle is a bare one, and an interrupt is what a
 * backend does with it, a call of the core's installed handler.
 */
#include "rck/hal.h"
#include "rck/lib.h"
#include "unit.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What ran, in order: "a1" = library a's handler with sender 1, "A" =
 * a's init, "a." = a's fini on detach, "a!" = on the HAL going down. */
static char trace[256];

static void note(const char *s)
{
    strncat(trace, s, sizeof(trace) - strlen(trace) - 1);
}

static void note_irq(char lib, rck_irq_kind_t kind, int sender, void *arg)
{
    char s[8];

    snprintf(s, sizeof(s), "%c%c%d ", lib, kind == RCK_IRQ_GIC ? 'g' : 'p',
             sender);
    note(s);
    CHECK(arg == NULL);
}

#define HANDLER(l)                                                          \
    static void irq_##l(rck_hal_t *hal, rck_irq_kind_t kind, int sender,   \
                        void *arg)                                          \
    {                                                                       \
        (void)hal;                                                          \
        note_irq(#l[0], kind, sender, arg);                                 \
    }                                                                       \
    static rck_status_t init_##l(rck_hal_t *hal)                            \
    {                                                                       \
        (void)hal;                                                          \
        note(#l "+ ");                                                      \
        return RCK_OK;                                                      \
    }                                                                       \
    static void fini_##l(rck_hal_t *hal, rck_lib_fini_why_t why)            \
    {                                                                       \
        (void)hal;                                                          \
        note(why == RCK_LIB_DETACH ? #l ". " : #l "! ");                    \
    }
HANDLER(a)
HANDLER(b)
HANDLER(c)

static rck_status_t init_bad(rck_hal_t *hal)
{
    (void)hal;
    return RCK_ERR_NOSPACE;
}

static void by_hand(rck_hal_t *hal, rck_irq_kind_t kind, int sender,
                    void *arg)
{
    (void)hal;
    (void)kind;
    (void)sender;
    (void)arg;
    note("h ");
}

/* a on GIC; b on pin; c on both; bad fails its init */
static const rck_lib_desc_t lib_a = {
    .name = "tla", .rank = 90,
    .irq = {{RCK_IRQ_GIC, irq_a}}, .init = init_a, .fini = fini_a};
static const rck_lib_desc_t lib_b = {
    .name = "tlb", .rank = 91,
    .irq = {{RCK_IRQ_PIN, irq_b}}, .init = init_b, .fini = fini_b};
static const rck_lib_desc_t lib_c = {
    .name = "tlc", .rank = 92,
    .irq = {{RCK_IRQ_PIN, irq_c}, {RCK_IRQ_GIC, irq_c}},
    .init = init_c, .fini = fini_c};
static const rck_lib_desc_t lib_bad = {
    .name = "tlbroken", .rank = 93,
    .irq = {{RCK_IRQ_GIC, irq_a}}, .init = init_bad};
static const rck_lib_desc_t lib_nokind = {
    .name = "tlnokind", .irq = {{(rck_irq_kind_t)5, irq_a}}};

/* An interrupt as a backend delivers it: the core's installed handler. */
static void raise_irq(rck_hal_t *hal, rck_irq_kind_t kind, int sender)
{
    trace[0] = '\0';
    if (hal->irq_handler != NULL)
        hal->irq_handler(hal, kind, sender, hal->irq_arg);
}

/* Attach library @p id with stderr captured: what it logged in @p log. */
static rck_status_t attach_logged(rck_hal_t *hal, int id, char *log,
                                  size_t len)
{
    char path[] = "/tmp/test_libattach.XXXXXX";
    int fd = mkstemp(path), saved = dup(2);
    rck_status_t st;
    ssize_t n = 0;

    CHECK(fd >= 0 && saved >= 0);
    fflush(stderr);
    dup2(fd, 2);
    st = rck_lib_attach(hal, id);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    if (lseek(fd, 0, SEEK_SET) == 0)
        n = read(fd, log, len - 1);
    log[n > 0 ? n : 0] = '\0';
    close(fd);
    unlink(path);
    return st;
}

int main(void)
{
    rck_hal_t *hal = calloc(1, sizeof(*hal));
    char log[512];
    int a, b, c, bad;

    CHECK(hal != NULL);
    if (hal == NULL)
        return 1;
    hal->core = 3;
    a = rck_lib_register(&lib_a);
    b = rck_lib_register(&lib_b);
    c = rck_lib_register(&lib_c);
    bad = rck_lib_register(&lib_bad);
    CHECK(a >= 0 && b > a && c > b && bad > c);
    CHECK(rck_lib_register(&lib_nokind) == -1); /* a handler of no kind */

    /* nothing attached: no handler installed, an interrupt is dropped */
    CHECK(hal->irq_handler == NULL);
    CHECK(!rck_lib_attached(a));

    /* attached in another order than registered: each init runs once,
     * the chain runs in registration order */
    trace[0] = '\0';
    CHECK(rck_lib_attach(hal, c) == RCK_OK);
    CHECK(rck_lib_attach(hal, a) == RCK_OK);
    CHECK(rck_lib_attach(hal, b) == RCK_OK);
    CHECK(rck_lib_attach(hal, a) == RCK_OK); /* again: nothing runs */
    CHECK(!strcmp(trace, "c+ a+ b+ "));
    CHECK(rck_lib_attached(a) && rck_lib_attached(b) && rck_lib_attached(c));
    CHECK(hal->irq_handler != NULL);

    /* every library gets the interrupts of its kinds */
    raise_irq(hal, RCK_IRQ_GIC, 7);
    CHECK(!strcmp(trace, "ag7 cg7 "));
    raise_irq(hal, RCK_IRQ_PIN, -1);
    CHECK(!strcmp(trace, "bp-1 cp-1 "));

    /* a handler added by hand runs after the libraries' */
    CHECK(rck_hal_irq_add_handler(hal, RCK_IRQ_GIC, by_hand, NULL) == RCK_OK);
    raise_irq(hal, RCK_IRQ_GIC, 2);
    CHECK(!strcmp(trace, "ag2 cg2 h "));
    CHECK(rck_hal_irq_remove_handler(hal, RCK_IRQ_GIC, by_hand, NULL) ==
          RCK_OK);

    /* a failing init: reported by name, not attached, nothing chained */
    CHECK(attach_logged(hal, bad, log, sizeof(log)) == RCK_ERR_NOSPACE);
    CHECK(strstr(log, "'tlbroken'") != NULL);
    CHECK(strstr(log, "core 3") != NULL);
    CHECK(!rck_lib_attached(bad));
    raise_irq(hal, RCK_IRQ_GIC, 1);
    CHECK(!strcmp(trace, "ag1 cg1 "));
    /* no such library */
    CHECK(rck_lib_attach(hal, 99) == RCK_ERR_INVALID);
    CHECK(rck_lib_attach(NULL, a) == RCK_ERR_INVALID);

    /* detached: its fini runs, its handlers no longer do */
    trace[0] = '\0';
    rck_lib_detach(hal, a);
    rck_lib_detach(hal, a); /* again: nothing */
    CHECK(!strcmp(trace, "a. "));
    CHECK(!rck_lib_attached(a));
    raise_irq(hal, RCK_IRQ_GIC, 4);
    CHECK(!strcmp(trace, "cg4 "));

    /* the HAL goes down: the others leave, the last registered first, and
     * the core's handler is removed */
    trace[0] = '\0';
    rck__lib_hal_down(hal);
    CHECK(!strcmp(trace, "c! b! "));
    CHECK(!rck_lib_attached(b) && !rck_lib_attached(c));
    CHECK(hal->irq_handler == NULL);
    free(hal);
    return failures != 0;
}
