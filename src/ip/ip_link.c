/*
 * ip_link.c: a core's network interface (docs/IP.md, "The link").
 *
 * Every UE owns one receive ring: in its MPB (RCK_IP_BUFFER=mpb, the range
 * rck_hal_mpb_reserve gives, RCK_IP_MPB_BYTES) or in shared DRAM (shm, one
 * RCK_IP_SHM_BYTES ring per UE, rck_hal_shm_reserve). Ring layout, at the
 * ring's offset:
 *   +0   head: bytes ever written (senders, under the owner's TAS lock)
 *   +32  tail: bytes ever taken (the owner alone)
 *   +64  data, D = size - 64 bytes; records at head % D, 32-byte aligned:
 *        a 32-byte header {kind, length, sender UE} then the IP packet.
 *        A record never wraps: a sender pads to the end (kind PAD) first.
 * Invariants: head - tail <= D; head and tail are multiples of 32; a
 * record is at most D / 2 bytes (the MTU is checked against it), so a
 * record always fits once the ring is empty.
 *
 * Send: take the receiver's TAS, read head and tail, write the record and
 * then the new head (one mpb_write_flag), release, raise a GIC interrupt
 * on the receiver. A full ring: release, wait in the HAL for its tail to
 * move while taking our own frames, retry.
 * Receive: the GIC handler only counts; the pump (run by every socket
 * wait, ip_sys.c) copies records out into pbufs, moves the tail, and hands
 * them to lwIP, runs lwIP's timers on the core's clock, and waits in the
 * HAL for our head to move (or an interrupt, or the next timer).
 *
 * Owns: the ring, the settings, lwIP's interface, the pump. May call: the
 * HAL, lwIP; nothing above it in librckip (the bypass's input, the tcpip
 * thread's mailbox and the exit close are handed in, rck__ip_link_on_*),
 * so every arrow between librckip's files points down to this one.
 */
#include "ip_priv.h"

#include "rck/hal.h"
#include "rck/log.h"

#include <lwip/init.h>
#include <lwip/ip.h>
#include <lwip/ip4.h>
#include <lwip/netif.h>
#include <lwip/pbuf.h>
#include <lwip/tcp.h>
#include <lwip/priv/tcp_priv.h>
#include <lwip/tcpip.h>
#include <lwip/timeouts.h>

#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define OFF_HEAD 0u
#define OFF_TAIL 32u
#define OFF_DATA 64u
#define REC_HDR 32u
#define KIND_FRAME 0x52434b46u /* "FKCR" */
#define KIND_PAD 0x52434b50u
#define KIND_BYPASS 0x52434b42u /* a socket bypass message (ip_bypass.c) */
/* how long (core clock) a sender waits for a full ring before it drops
 * the frame, as a full link drops: the receiver may have ended */
#define SEND_GIVEUP_MS 2000u

static struct {
    rck_hal_t *hal;
    int ready, dead, in_pump;
    int shm;              /* ring in shared DRAM (else in the MPB) */
    uint32_t bytes;       /* ring bytes per UE */
    uint32_t mtu;
    uint32_t mpb_off;     /* MPB: the ring's offset in every MPB */
    size_t shm_off;       /* shm: UE 0's ring */
    uint32_t base;        /* UE 0's address, host order */
    uint32_t tail;        /* our ring's tail (we are its only reader) */
    uint8_t *stage;       /* one record being written */
    uint32_t *stuck;      /* per UE: its tail + 1 when a send gave up on
                           * its full ring (0: none); while that tail has
                           * not moved, frames to it are dropped at once */
    struct rxe {
        struct pbuf *p;
        int ue, bypass;
    } *rxq;               /* records taken, not yet handed on */
    unsigned rxq_cap, rxq_head, rxq_n;
    rck_ip_stats_t st;
    struct netif nif;
    int dead_said;
    int bypass;           /* RCK_IP_MODE=bypass */
    /* what the parts above handed in (ip_priv.h, rck__ip_link_on_*) */
    void (*bypass_input)(int ue, const void *msg, uint32_t len);
    void (*on_pump)(void);
    void (*on_exit)(void);
} ip;

void rck__ip_link_on_bypass(void (*fn)(int ue, const void *msg,
                                       uint32_t len))
{
    ip.bypass_input = fn;
}

void rck__ip_link_on_pump(void (*fn)(void))
{
    ip.on_pump = fn;
}

void rck__ip_link_on_exit(void (*fn)(void))
{
    ip.on_exit = fn;
}

/* Is the core still attached? RCCE_finalize closes the HAL handle the
 * libraries share (rck__ip_fini): from then on the link is down (sockets
 * fail with ENETDOWN, nothing is sent at exit). */
static int attached(void)
{
    return ip.hal != NULL;
}

/* The descriptor's fini (ip_settings.c): librckip has no finalize of its
 * own, so this runs when the HAL goes down under it. */
void rck__ip_fini(rck_hal_t *hal, rck_lib_fini_why_t why)
{
    (void)hal;
    (void)why;
    ip.hal = NULL;
    ip.dead = 1;
    ip.dead_said = 1;
}

static uint32_t round32(uint32_t n)
{
    return (n + 31u) & ~31u;
}

static uint32_t data_bytes(void)
{
    return ip.bytes - OFF_DATA;
}

/* ---- ring access, MPB or shared DRAM ---- */

static size_t shm_ring(int ue)
{
    return ip.shm_off + (size_t)ue * ip.bytes;
}

static rck_status_t ring_load(int ue, uint32_t off, uint32_t *v)
{
    if (ip.shm)
        return rck_hal_shm_read(ip.hal, shm_ring(ue) + off, v, 4);
    return rck_hal_mpb_load32(ip.hal, ip.hal->ue_core[ue], ip.mpb_off + off,
                              v);
}

static rck_status_t ring_store(int ue, uint32_t off, uint32_t v)
{
    rck_status_t s;

    if (!ip.shm)
        return rck_hal_mpb_store32(ip.hal, ip.hal->ue_core[ue],
                                   ip.mpb_off + off, v);
    s = rck_hal_shm_write(ip.hal, shm_ring(ue) + off, &v, 4);
    if (s == RCK_OK)
        s = rck_hal_shm_flush(ip.hal);
    return s;
}

static rck_status_t ring_read(int ue, uint32_t off, void *dst, size_t len)
{
    if (ip.shm)
        return rck_hal_shm_read(ip.hal, shm_ring(ue) + off, dst, len);
    return rck_hal_mpb_read(ip.hal, ip.hal->ue_core[ue], ip.mpb_off + off,
                            dst, len);
}

/* Write @p len bytes at @p off, then the head word: seen in that order. */
static rck_status_t ring_publish(int ue, uint32_t off, const void *src,
                                 size_t len, uint32_t head)
{
    rck_status_t s;

    if (!ip.shm)
        return rck_hal_mpb_write_flag(ip.hal, ip.hal->ue_core[ue],
                                      ip.mpb_off + off, src, len,
                                      ip.mpb_off + OFF_HEAD, head);
    s = rck_hal_shm_write(ip.hal, shm_ring(ue) + off, src, len);
    if (s == RCK_OK)
        s = rck_hal_shm_flush(ip.hal);
    if (s == RCK_OK)
        s = ring_store(ue, OFF_HEAD, head);
    return s;
}

static void ring_cond(int ue, uint32_t off, uint32_t value,
                      rck_hal_cond_t *c)
{
    memset(c, 0, sizeof(*c));
    c->mask = 0xffffffffu;
    c->value = value;
    c->op = RCK_COND_NE;
    if (ip.shm) {
        c->space = RCK_SPACE_SHM;
        c->offset = (uint32_t)(shm_ring(ue) + off);
    } else {
        c->space = RCK_SPACE_MPB;
        c->core = ip.hal->ue_core[ue];
        c->offset = ip.mpb_off + off;
    }
}

/* ---- receive ---- */

static void rxq_push(struct pbuf *p, int ue, int bypass)
{
    if (ip.rxq_n == ip.rxq_cap) {
        unsigned cap = ip.rxq_cap ? 2 * ip.rxq_cap : 64;
        struct rxe *q = malloc(cap * sizeof(*q));

        if (!q) {
            rck_error("rck_ip: out of memory queueing a frame; dropped");
            pbuf_free(p);
            return;
        }
        for (unsigned i = 0; i < ip.rxq_n; i++)
            q[i] = ip.rxq[(ip.rxq_head + i) % ip.rxq_cap];
        free(ip.rxq);
        ip.rxq = q;
        ip.rxq_head = 0;
        ip.rxq_cap = cap;
    }
    ip.rxq[(ip.rxq_head + ip.rxq_n) % ip.rxq_cap] =
        (struct rxe){p, ue, bypass};
    ip.rxq_n++;
}

/* Copy every record of our ring into the queue and free its space. */
static void ring_drain(void)
{
    int me = ip.hal->ue;
    uint32_t head, d = data_bytes(), t0 = ip.tail;

    if (!ip.shm)
        rck_hal_cl1invmb(ip.hal);
    if (ring_load(me, OFF_HEAD, &head) != RCK_OK)
        return;
    while (ip.tail != head) {
        uint32_t hdr[8], pos = ip.tail % d, len;
        struct pbuf *p;

        if (head - ip.tail > d ||
            ring_read(me, OFF_DATA + pos, hdr, sizeof(hdr)) != RCK_OK) {
            rck_error("rck_ip: receive ring of UE %d is corrupt (head %u, "
                      "tail %u); its frames are dropped",
                      me, head, ip.tail);
            ip.tail = head;
            break;
        }
        if (hdr[0] == KIND_PAD) {
            ip.tail += d - pos;
            continue;
        }
        len = hdr[1];
        if ((hdr[0] != KIND_FRAME && hdr[0] != KIND_BYPASS) || len == 0 ||
            len > ip.mtu || hdr[2] >= (uint32_t)ip.hal->nues ||
            REC_HDR + round32(len) > d - pos) {
            rck_error("rck_ip: bad frame record in the ring of UE %d "
                      "(kind %#x, length %u); the ring's frames are dropped",
                      me, hdr[0], len);
            ip.tail = head;
            break;
        }
        p = pbuf_alloc(PBUF_RAW, (u16_t)len, PBUF_RAM);
        if (p && ring_read(me, OFF_DATA + pos + REC_HDR, p->payload, len) ==
                     RCK_OK) {
            rxq_push(p, (int)hdr[2], hdr[0] == KIND_BYPASS);
            rck_hal_comm_recv(ip.hal, rck__ip_lib, ip.hal->ue_core[hdr[2]],
                              len);
            ip.st.rx_frames++;
            ip.st.rx_bytes += len;
        } else {
            if (p)
                pbuf_free(p);
            rck_error("rck_ip: cannot take a %u-byte frame; dropped", len);
        }
        ip.tail += REC_HDR + round32(len);
    }
    if (ip.tail != t0)
        ring_store(me, OFF_TAIL, ip.tail);
}

/* The descriptor's GIC handler (ip_settings.c). */
void rck__ip_irq(rck_hal_t *hal, rck_irq_kind_t kind, int sender, void *arg)
{
    (void)hal;
    (void)kind;
    (void)sender;
    (void)arg;
    ip.st.irqs++; /* the pump takes the frames: lwIP is not re-entered */
}

/* ---- send ---- */

static void went_dead(rck_status_t s)
{
    if (s != RCK_ERR_PEER_DEAD && s != RCK_ERR_DEADLOCK)
        return;
    ip.dead = 1;
}

/* Send the record of @p len bytes staged at ip.stage + REC_HDR. */
static err_t link_commit(int ue, uint32_t kind, uint32_t len)
{
    uint32_t rec = REC_HDR + round32(len), d = data_bytes();
    int core;
    uint32_t *hdr = (uint32_t *)ip.stage;
    uint32_t t0 = rck__ip_now_ms();

    if (!attached())
        return ERR_IF;
    core = ip.hal->ue_core[ue];
    memset(hdr, 0, REC_HDR);
    hdr[0] = kind;
    hdr[1] = len;
    hdr[2] = (uint32_t)ip.hal->ue;
    for (;;) {
        uint32_t head, tail, pos, room;
        rck_status_t s;
        rck_hal_cond_t c[2];
        int which;

        if (ip.dead)
            return ERR_IF;
        s = rck_hal_tas_acquire(ip.hal, core);
        if (s != RCK_OK) {
            went_dead(s);
            return ERR_IF;
        }
        if (!ip.shm)
            rck_hal_cl1invmb(ip.hal);
        s = ring_load(ue, OFF_HEAD, &head);
        if (s == RCK_OK)
            s = ring_load(ue, OFF_TAIL, &tail);
        if (s != RCK_OK) {
            rck_hal_tas_release(ip.hal, core);
            return ERR_IF;
        }
        pos = head % d;
        room = d - (head - tail);
        if ((rec <= d - pos && rec <= room) ||
            (rec > d - pos && (d - pos) + rec <= room)) {
            if (rec > d - pos) {
                uint32_t pad[8] = {KIND_PAD, 0, 0, 0, 0, 0, 0, 0};

                s = ring_publish(ue, OFF_DATA + pos, pad, sizeof(pad),
                                 head + (d - pos));
                head += d - pos;
                pos = 0;
            }
            if (s == RCK_OK)
                s = ring_publish(ue, OFF_DATA + pos, ip.stage, rec,
                                 head + rec);
            rck_hal_tas_release(ip.hal, core);
            if (s != RCK_OK)
                return ERR_IF;
            rck_hal_irq_raise(ip.hal, core, RCK_IRQ_GIC);
            rck_hal_comm_count(ip.hal, rck__ip_lib, core, len);
            ip.st.tx_frames++;
            ip.st.tx_bytes += len;
            ip.stuck[ue] = 0;
            return ERR_OK;
        }
        rck_hal_tas_release(ip.hal, core);
        ip.st.tx_waits++;
        if (ip.stuck[ue] == tail + 1) {
            ip.st.tx_refused++;
            return ERR_IF;
        }
        if (rck__ip_now_ms() - t0 >= SEND_GIVEUP_MS) {
            ip.stuck[ue] = tail + 1;
            ip.st.tx_refused++;
            rck_warn("rck_ip: the ring of UE %d stayed full for %u ms; "
                     "frames to it are dropped until it takes some",
                     ue, SEND_GIVEUP_MS);
            return ERR_IF;
        }
        /* wait for its tail to move, taking our own frames meanwhile */
        ring_cond(ue, OFF_TAIL, tail, &c[0]);
        ring_cond(ip.hal->ue, OFF_HEAD, ip.tail, &c[1]);
        s = rck_hal_wait(ip.hal, c, 2, RCK_WAIT_IRQ, 100 * 1000000LL,
                         &which);
        went_dead(s);
        rck_hal_irq_poll(ip.hal, &which);
        ring_drain();
    }
}

static err_t link_send(int ue, struct pbuf *p)
{
    if (p->tot_len > ip.mtu) {
        ip.st.tx_refused++;
        rck_error("rck_ip: a %u-byte frame is larger than the MTU "
                  "(RCK_IP_MTU=%u); refused",
                  (unsigned)p->tot_len, ip.mtu);
        return ERR_IF;
    }
    pbuf_copy_partial(p, ip.stage + REC_HDR, p->tot_len, 0);
    return link_commit(ue, KIND_FRAME, p->tot_len);
}

int rck__ip_link_send(int ue, const void *a, uint32_t alen, const void *b,
                      uint32_t blen)
{
    if (alen + blen > ip.mtu || alen == 0) {
        rck_error("rck_ip: a %u-byte bypass message is larger than the MTU "
                  "(RCK_IP_MTU=%u); refused",
                  alen + blen, ip.mtu);
        return -1;
    }
    memcpy(ip.stage + REC_HDR, a, alen);
    if (blen)
        memcpy(ip.stage + REC_HDR + alen, b, blen);
    return link_commit(ue, KIND_BYPASS, alen + blen) == ERR_OK ? 0 : -1;
}

uint32_t rck__ip_mtu(void)
{
    return ip.mtu;
}

static err_t nif_output(struct netif *netif, struct pbuf *p,
                        const ip4_addr_t *dst)
{
    int ue = rck__ip_addr_ue(ip4_addr_get_u32(dst));

    (void)netif;
    if (ue < 0) {
        char a[16];

        ip.st.tx_refused++;
        rck_error("rck_ip: no core has the address %s; packet dropped",
                  ip4addr_ntoa_r(dst, a, sizeof(a)));
        return ERR_RTE;
    }
    return link_send(ue, p);
}

static err_t nif_output_ip6(struct netif *netif, struct pbuf *p,
                            const ip6_addr_t *dst)
{
    (void)netif;
    (void)p;
    (void)dst;
    return ERR_RTE; /* IPv4 only between the cores */
}

static err_t nif_init(struct netif *n)
{
    n->name[0] = 'r';
    n->name[1] = 'k';
    n->mtu = (u16_t)ip.mtu;
    n->output = nif_output;
    n->output_ip6 = nif_output_ip6;
    n->flags = NETIF_FLAG_LINK_UP;
    n->hwaddr_len = 0;
    return ERR_OK;
}

/* ---- the pump ---- */

uint32_t rck__ip_now_ms(void)
{
    static uint32_t last;
    double s = 0;

    if (attached() && rck_hal_wtime(ip.hal, &s) == RCK_OK)
        last = (uint32_t)(uint64_t)(s * 1000.0);
    return last;
}

int rck__ip_bypass_mode(void)
{
    return ip.bypass;
}

int rck__ip_dead(void)
{
    return ip.dead;
}

int rck__ip_ready(void)
{
    return ip.ready;
}

int rck__ip_ue(void)
{
    return ip.hal ? ip.hal->ue : -1;
}

int rck__ip_nues(void)
{
    return ip.hal ? ip.hal->nues : 0;
}

int rck__ip_addr_ue(uint32_t addr)
{
    uint32_t d = ntohl(addr) - ip.base;

    if (!ip.hal || d >= (uint32_t)ip.hal->nues)
        return -1;
    return (int)d;
}

void rck__ip_abort_all(void)
{
    while (tcp_active_pcbs)
        tcp_abort(tcp_active_pcbs);
}

void rck__ip_pump_once(void)
{
    int n;

    if (!ip.ready || !attached())
        return;
    if (ip.in_pump) {
        ring_drain();
        return;
    }
    ip.in_pump = 1;
    rck_hal_irq_poll(ip.hal, &n);
    ring_drain();
    while (ip.rxq_n > 0) {
        struct rxe e = ip.rxq[ip.rxq_head];

        ip.rxq_head = (ip.rxq_head + 1) % ip.rxq_cap;
        ip.rxq_n--;
        if (e.bypass) {
            if (ip.bypass_input != NULL)
                ip.bypass_input(e.ue, e.p->payload, e.p->len);
            pbuf_free(e.p);
        } else if (ip.nif.input(e.p, &ip.nif) != ERR_OK)
            pbuf_free(e.p);
    }
    if (ip.on_pump != NULL)
        ip.on_pump();
    netif_poll(&ip.nif);
    sys_check_timeouts();
    if (ip.dead && !ip.dead_said) {
        ip.dead_said = 1;
        rck_error("rck_ip: a core of the job failed; this core's "
                  "connections are reset");
        rck__ip_abort_all();
    }
    ip.in_pump = 0;
}

/* One HAL wait: until our head moves (a frame), an interrupt, lwIP's next
 * timer, or @p limit_ms (< 0: none). */
static void wait_once(int64_t limit_ms)
{
    uint32_t sleep = sys_timeouts_sleeptime();
    int64_t ms = sleep == SYS_TIMEOUTS_SLEEPTIME_INFINITE ? -1 : (int64_t)sleep;
    rck_hal_cond_t c;
    int which;

    if (ip.rxq_n > 0 || ip.nif.loop_first || !attached())
        return;
    if (limit_ms >= 0 && (ms < 0 || limit_ms < ms))
        ms = limit_ms;
    ring_cond(ip.hal->ue, OFF_HEAD, ip.tail, &c);
    went_dead(rck_hal_wait(ip.hal, &c, 1, RCK_WAIT_IRQ,
                           ms < 0 ? -1 : ms * 1000000LL + 1000000LL,
                           &which));
}

void rck__ip_pump_wait(int timeout_ms)
{
    if (!ip.ready || ip.dead)
        return;
    wait_once(timeout_ms);
    rck__ip_pump_once();
}

int rck__ip_pump_until(int (*ready)(void *arg), void *arg,
                       uint32_t timeout_ms)
{
    uint32_t t0 = rck__ip_now_ms();

    for (;;) {
        uint32_t el;

        if (ready(arg))
            return 0;
        rck__ip_pump_once();
        if (ready(arg))
            return 0;
        if (ip.dead)
            return -1;
        el = rck__ip_now_ms() - t0;
        if (timeout_ms && el >= timeout_ms)
            return -1;
        wait_once(timeout_ms ? (int64_t)(timeout_ms - el) : -1);
    }
}

/* ---- settings and start ---- */

static int env_size(const char *name, uint32_t dflt, uint32_t lo,
                    uint32_t hi, uint32_t *out)
{
    const char *v = getenv(name);
    char *end;
    unsigned long long n;

    if (!v || !*v) {
        *out = dflt;
        return 0;
    }
    errno = 0;
    n = strtoull(v, &end, 0);
    if (*end == 'k' || *end == 'K') {
        n *= 1024;
        end++;
    }
    if (errno || end == v || *end || n < lo || n > hi) {
        rck_error("%s='%s' is not a size from %u to %u", name, v, lo, hi);
        return -1;
    }
    *out = (uint32_t)n;
    return 0;
}

static rck_status_t read_settings(void)
{
    const char *buf = getenv("RCK_IP_BUFFER");
    const char *addr = getenv("RCK_IP_ADDR");
    const char *mode = getenv("RCK_IP_MODE");
    struct in_addr a;

    if (!mode || !*mode || !strcasecmp(mode, "lwip"))
        ip.bypass = 0;
    else if (!strcasecmp(mode, "bypass"))
        ip.bypass = 1;
    else {
        rck_error("RCK_IP_MODE='%s': expected lwip or bypass", mode);
        return RCK_ERR_CONFIG;
    }

    if (!buf || !*buf || !strcasecmp(buf, "mpb"))
        ip.shm = 0;
    else if (!strcasecmp(buf, "shm"))
        ip.shm = 1;
    else {
        rck_error("RCK_IP_BUFFER='%s': expected mpb or shm", buf);
        return RCK_ERR_CONFIG;
    }
    if (env_size("RCK_IP_MTU", RCK_IP_MTU_DEFAULT, RCK_IP_MTU_MIN, 65000,
                 &ip.mtu) != 0)
        return RCK_ERR_CONFIG;
    if (ip.shm) {
        if (env_size("RCK_IP_SHM_BYTES", RCK_IP_SHM_BYTES_DEFAULT, 1024,
                     1u << 24, &ip.bytes) != 0)
            return RCK_ERR_CONFIG;
    } else if (env_size("RCK_IP_MPB_BYTES", RCK_IP_MPB_BYTES_DEFAULT, 1024,
                        1u << 20, &ip.bytes) != 0)
        return RCK_ERR_CONFIG;
    ip.bytes &= ~31u;
    if (REC_HDR + round32(ip.mtu) > data_bytes() / 2) {
        rck_error("RCK_IP_MTU=%u does not fit a receive ring of %u bytes "
                  "(%s): a frame needs at most half of the %u data bytes; "
                  "lower the MTU or raise %s",
                  ip.mtu, ip.bytes, ip.shm ? "shm" : "mpb", data_bytes(),
                  ip.shm ? "RCK_IP_SHM_BYTES" : "RCK_IP_MPB_BYTES");
        return RCK_ERR_CONFIG;
    }
    if (!addr || !*addr)
        addr = RCK_IP_ADDR_DEFAULT;
    if (inet_pton(AF_INET, addr, &a) != 1) {
        rck_error("RCK_IP_ADDR='%s' is not a dotted IPv4 address", addr);
        return RCK_ERR_CONFIG;
    }
    ip.base = ntohl(a.s_addr);
    return RCK_OK;
}

static int all_quiet(void *arg)
{
    (void)arg;
    for (struct tcp_pcb *p = tcp_active_pcbs; p; p = p->next)
        if (p->state != FIN_WAIT_2 && p->state != TIME_WAIT)
            return 0;
    return 1;
}

/* As a host's kernel does for an ending process: its sockets are closed
 * (a FIN after the data still queued), and the core stays on the link
 * until its peers have acknowledged that, for at most EXIT_LINGER_MS of
 * its clock; what is still open then is reset. */
#define EXIT_LINGER_MS 1000u
static void ip_at_exit(void)
{
    if (!ip.ready || !attached() || ip.dead)
        return;
    if (ip.on_exit != NULL)
        ip.on_exit();
    rck__ip_pump_until(all_quiet, NULL, EXIT_LINGER_MS);
    if (ip.dead)
        return;
    /* a connection whose FIN the peer acknowledged (FIN_WAIT_2) is left
     * alone: a reset now could overtake that FIN at a peer that has not
     * read it yet, and turn its EOF into ECONNRESET */
    for (struct tcp_pcb *p = tcp_active_pcbs, *next; p; p = next) {
        next = p->next;
        if (p->state != FIN_WAIT_2 && p->state != TIME_WAIT) {
            tcp_abort(p);
            next = tcp_active_pcbs; /* the list changed */
        }
    }
}

int rck__ip_host_sockets(void)
{
    static int said;
    const char *b = getenv("RCK_BACKEND");

    /* the launcher names the backend in the environment before the core
     * attaches (cores started by mpirun: RCK_CAP_MPIRUN); the MPI library's own sockets go through these names too,
     * so none can be taken for the cores' */
    const rck_hal_ops_t *ops = b != NULL ? rck_hal_backend_find(b) : NULL;
    if (ops == NULL || !(ops->caps & RCK_CAP_MPIRUN))
        return 0;
    if (!said)
        rck_error("librckip: IP between the cores does not run on the mpi "
                  "backend (the MPI library's own sockets would be taken "
                  "for the cores'); AF_INET sockets stay the host's: run "
                  "on native or sim");
    said = 1;
    return 1;
}

rck_status_t rck_ip_init(void)
{
    rck_status_t s;
    ip4_addr_t me, mask, gw;
    rck_hal_t *hal;

    if (ip.ready)
        return attached() ? RCK_OK : RCK_ERR_STATE;
    if (rck__ip_host_sockets())
        return RCK_ERR_UNSUPPORTED;
    s = rck_hal_open(NULL, &hal);
    if (s != RCK_OK)
        return s;
    /* the HAL runs rck__ip_attach (the ring), then chains rck__ip_irq */
    s = rck_lib_attach(hal, rck__ip_lib);
    if (s != RCK_OK)
        return s;
    tcpip_init(NULL, NULL);
    ip4_addr_set_u32(&me, htonl(ip.base + (uint32_t)hal->ue));
    ip4_addr_set_u32(&mask, htonl(0xffff0000u));
    ip4_addr_set_u32(&gw, 0);
    if (!netif_add(&ip.nif, &me, &mask, &gw, NULL, nif_init, ip_input)) {
        rck_error("rck_ip_init: lwIP refused the interface");
        return RCK_ERR_IO;
    }
    /* not the default interface: an address beyond the cores' /16 has no
     * route (EHOSTUNREACH), the host's loopback included */
    netif_set_link_up(&ip.nif);
    netif_set_up(&ip.nif);
    ip.ready = 1;
    atexit(ip_at_exit);
    return RCK_OK;
}

/* The descriptor's init (ip_settings.c): the settings and the receive
 * ring; lwIP's interface comes up after it, in rck_ip_init. */
rck_status_t rck__ip_attach(rck_hal_t *hal)
{
    rck_status_t s;

    ip.hal = hal;
    s = read_settings();
    if (s != RCK_OK)
        return s;
    if ((uint64_t)ip.base + (uint64_t)hal->nues > 0xffffffffull) {
        rck_error("RCK_IP_ADDR: the addresses of %d UEs do not fit",
                  hal->nues);
        return RCK_ERR_CONFIG;
    }
    if (ip.shm)
        s = rck_hal_shm_reserve(hal, rck__ip_lib, (size_t)ip.bytes * hal->nues, 64,
                                &ip.shm_off);
    else
        s = rck_hal_mpb_reserve(hal, rck__ip_lib, ip.bytes, &ip.mpb_off);
    if (s != RCK_OK) {
        rck_error("rck_ip_init: cannot reserve the receive ring (%u bytes "
                  "per UE in the %s): %s",
                  ip.bytes, ip.shm ? "shared DRAM" : "MPB",
                  rck_status_string(s));
        return s;
    }
    ip.stage = malloc(REC_HDR + round32(ip.mtu));
    ip.stuck = calloc((size_t)hal->nues, sizeof(uint32_t));
    if (!ip.stage || !ip.stuck)
        return RCK_ERR_NOMEM;
    if (ring_load(hal->ue, OFF_TAIL, &ip.tail) != RCK_OK)
        return RCK_ERR_IO;
    return RCK_OK;
}

rck_status_t rck_ip_ue_addr(int ue, uint32_t *addr)
{
    rck_status_t s = rck_ip_init();

    if (s != RCK_OK)
        return s;
    if (!attached()) {
        rck_error("rck_ip_ue_addr: the core is detached (RCCE_finalize)");
        return RCK_ERR_STATE;
    }
    if (ue < 0 || ue >= ip.hal->nues) {
        rck_error("rck_ip_ue_addr: UE %d is not in the job (0..%d)", ue,
                  ip.hal->nues - 1);
        return RCK_ERR_INVALID;
    }
    *addr = htonl(ip.base + (uint32_t)ue);
    return RCK_OK;
}

double rck_ip_wtime(void)
{
    double t;

    if (!attached() || rck_hal_wtime(ip.hal, &t) != RCK_OK)
        return -1;
    return t;
}

rck_status_t rck_ip_stats(rck_ip_stats_t *stats)
{
    if (!ip.ready) {
        rck_error("rck_ip_stats: rck_ip_init has not run");
        return RCK_ERR_STATE;
    }
    *stats = ip.st;
    return RCK_OK;
}
