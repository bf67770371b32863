/*
 * ip_sys.c: lwIP's operating-system layer (sys_arch) for a core that runs
 * lwIP in its one thread (docs/IP.md, "One thread per core").
 *
 * Debian's liblwip is built with NO_SYS=0 and LWIP_TCPIP_CORE_LOCKING: the
 * socket calls run lwIP's code in the caller's thread and wait on
 * semaphores and mailboxes for what the network brings. Its own sys_arch
 * (pthreads) would wait in the host's kernel while a tcpip thread feeds
 * the stack; a second thread cannot call the HAL (a core is one thread of
 * control: the sim times one). So librckip defines the sys_arch functions
 * itself (the library calls them through its PLT, so these take their
 * place) and a wait runs the pump (ip_link.c) until what it waits for is
 * there: frames are taken in HAL waits, lwIP's timers run on the core's
 * clock. tcpip_init's thread is never started: sys_thread_new records its
 * mailbox, whose messages the pump serves.
 *
 * Invariant: single-threaded. Nothing here locks: socket calls from
 * several threads of one core are not supported (docs/IP.md).
 */
#include "ip_priv.h"

#include "rck/log.h"

#include <lwip/opt.h>
#include <lwip/sys.h>
#include <lwip/tcpip.h>
#include <lwip/memp.h>
#include <lwip/priv/tcpip_priv.h>

#include <stdlib.h>
#include <string.h>

/* These take the place of liblwip's own, which its code calls through its
 * PLT: they must be seen from outside librckip (hidden by default). */
#pragma GCC visibility push(default)

struct sys_sem {
    unsigned count;
};

struct sys_mutex {
    int locked;
};

/* A mailbox: a ring of pointers that grows (posts never block). */
struct sys_mbox {
    void **slot;
    unsigned cap, head, n;
};

static struct sys_mbox *tcpip_mbox;
static struct sys_mbox *last_mbox; /* the newest mailbox: tcpip_init's */

static void serve_tcpip(void);

void sys_init(void)
{
}

err_t sys_sem_new(sys_sem_t *sem, u8_t count)
{
    struct sys_sem *s = calloc(1, sizeof(*s));

    if (!s)
        return ERR_MEM;
    s->count = count;
    *sem = s;
    return ERR_OK;
}

void sys_sem_free(sys_sem_t *sem)
{
    free(*sem);
    *sem = NULL;
}

void sys_sem_signal(sys_sem_t *sem)
{
    (*sem)->count++;
}

static int sem_ready(void *arg)
{
    return ((struct sys_sem *)arg)->count > 0;
}

u32_t sys_arch_sem_wait(sys_sem_t *sem, u32_t timeout)
{
    uint32_t t0 = rck__ip_now_ms();

    if (rck__ip_pump_until(sem_ready, *sem, timeout) != 0)
        return SYS_ARCH_TIMEOUT;
    (*sem)->count--;
    return rck__ip_now_ms() - t0;
}

err_t sys_mutex_new(sys_mutex_t *mutex)
{
    struct sys_mutex *m = calloc(1, sizeof(*m));

    if (!m)
        return ERR_MEM;
    *mutex = m;
    return ERR_OK;
}

void sys_mutex_free(sys_mutex_t *mutex)
{
    free(*mutex);
    *mutex = NULL;
}

void sys_mutex_lock(sys_mutex_t *mutex)
{
    (*mutex)->locked++;
}

void sys_mutex_unlock(sys_mutex_t *mutex)
{
    (*mutex)->locked--;
}

err_t sys_mbox_new(sys_mbox_t *mbox, int size)
{
    struct sys_mbox *m = calloc(1, sizeof(*m));

    (void)size;
    if (!m)
        return ERR_MEM;
    m->cap = 16;
    m->slot = calloc(m->cap, sizeof(void *));
    if (!m->slot) {
        free(m);
        return ERR_MEM;
    }
    *mbox = m;
    last_mbox = m;
    return ERR_OK;
}

void sys_mbox_free(sys_mbox_t *mbox)
{
    if (*mbox == tcpip_mbox)
        tcpip_mbox = NULL;
    free((*mbox)->slot);
    free(*mbox);
    *mbox = NULL;
}

err_t sys_mbox_trypost(sys_mbox_t *mbox, void *msg)
{
    struct sys_mbox *m = *mbox;

    if (m->n == m->cap) {
        void **s = malloc(2 * m->cap * sizeof(void *));

        if (!s)
            return ERR_MEM;
        for (unsigned i = 0; i < m->n; i++)
            s[i] = m->slot[(m->head + i) % m->cap];
        free(m->slot);
        m->slot = s;
        m->head = 0;
        m->cap *= 2;
    }
    m->slot[(m->head + m->n) % m->cap] = msg;
    m->n++;
    return ERR_OK;
}

err_t sys_mbox_trypost_fromisr(sys_mbox_t *mbox, void *msg)
{
    return sys_mbox_trypost(mbox, msg);
}

void sys_mbox_post(sys_mbox_t *mbox, void *msg)
{
    if (sys_mbox_trypost(mbox, msg) != ERR_OK)
        rck_error("lwIP: out of memory posting a message; it is lost");
}

u32_t sys_arch_mbox_tryfetch(sys_mbox_t *mbox, void **msg)
{
    struct sys_mbox *m = *mbox;

    if (m->n == 0)
        return SYS_MBOX_EMPTY;
    if (msg)
        *msg = m->slot[m->head];
    m->head = (m->head + 1) % m->cap;
    m->n--;
    return 0;
}

static int mbox_ready(void *arg)
{
    return ((struct sys_mbox *)arg)->n > 0;
}

u32_t sys_arch_mbox_fetch(sys_mbox_t *mbox, void **msg, u32_t timeout)
{
    uint32_t t0 = rck__ip_now_ms();

    if (rck__ip_pump_until(mbox_ready, *mbox, timeout) != 0)
        return SYS_ARCH_TIMEOUT;
    sys_arch_mbox_tryfetch(mbox, msg);
    return rck__ip_now_ms() - t0;
}

sys_thread_t sys_thread_new(const char *name, lwip_thread_fn thread,
                            void *arg, int stacksize, int prio)
{
    (void)thread;
    (void)arg;
    (void)stacksize;
    (void)prio;
    if (name && strcmp(name, TCPIP_THREAD_NAME) == 0) {
        /* tcpip_init created its mailbox just before: the pump serves it */
        tcpip_mbox = last_mbox;
        rck__ip_link_on_pump(serve_tcpip);
        return (sys_thread_t)&tcpip_mbox;
    }
    rck_error("lwIP asked for a thread '%s': librckip runs lwIP in the "
              "core's one thread and starts none",
              name ? name : "?");
    return NULL;
}

static void serve_tcpip(void)
{
    struct sys_mbox *m = tcpip_mbox;
    void *p;

    while (m && m->n > 0) {
        struct tcpip_msg *msg;
        sys_mbox_t mb = m;

        sys_arch_mbox_tryfetch(&mb, &p);
        msg = p;
        switch (msg->type) {
        case TCPIP_MSG_INPKT:
            if (msg->msg.inp.input_fn(msg->msg.inp.p, msg->msg.inp.netif) !=
                ERR_OK)
                pbuf_free(msg->msg.inp.p);
            memp_free(MEMP_TCPIP_MSG_INPKT, msg);
            break;
        case TCPIP_MSG_CALLBACK:
            msg->msg.cb.function(msg->msg.cb.ctx);
            memp_free(MEMP_TCPIP_MSG_API, msg);
            break;
        case TCPIP_MSG_CALLBACK_STATIC:
            msg->msg.cb.function(msg->msg.cb.ctx);
            break;
        default:
            rck_error("lwIP: tcpip message of type %d not served by "
                      "librckip; dropped", (int)msg->type);
            break;
        }
    }
}

sys_prot_t sys_arch_protect(void)
{
    return 0;
}

void sys_arch_unprotect(sys_prot_t pval)
{
    (void)pval;
}

u32_t sys_now(void)
{
    return rck__ip_now_ms();
}

u32_t sys_jiffies(void)
{
    return rck__ip_now_ms();
}

void sys_lock_tcpip_core(void)
{
}

void sys_unlock_tcpip_core(void)
{
}

void sys_check_core_locking(void)
{
}

void sys_mark_tcpip_thread(void)
{
}

#pragma GCC visibility pop
