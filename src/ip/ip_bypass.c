/*
 * ip_bypass.c: the socket bypass (RCK_IP_MODE=bypass, docs/IP.md): stream
 * sockets between cores carried as messages through the same rings as the
 * IP frames, without TCP/IP. ip_sock.c routes SOCK_STREAM sockets here.
 *
 * A connection is a pair of socket ids (index | generation << 16), one on
 * each core. Messages (struct bmsg, then data):
 *   CONNECT  port: the listener's port; sport: the connector's port
 *   ACCEPT   the listener's core answers with the new socket's id
 *   REFUSE   no listener on that port
 *   DATA     bytes, at most the MTU less the header
 *   CREDIT   port: bytes the reader consumed (flow control: a writer has
 *            WINDOW bytes in flight at most, so a reader that does not
 *            read holds at most WINDOW bytes per connection)
 *   FIN      no more data (close, shutdown(SHUT_WR), exit)
 *   RST      the peer's socket is gone
 * The ring keeps one sender's records in order, so the stream's order is
 * the ring's. Messages for a socket id that does not match (closed, reused)
 * are dropped; DATA for one is answered with RST.
 *
 * Input is handed in by the pump (ip_link.c) outside any send, so that
 * the replies it sends (ACCEPT, REFUSE, RST) may wait for ring space.
 */
#include "ip_priv.h"

#include "rck/log.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#define WINDOW (64u * 1024u)

enum { M_CONNECT = 1, M_ACCEPT, M_REFUSE, M_DATA, M_CREDIT, M_FIN, M_RST };
enum { S_FREE = 0, S_NEW, S_LISTEN, S_CONNECTING, S_CONN, S_REFUSED };

struct bmsg {
    uint32_t type, src, dst, port, sport, pad[3];
};

struct chunk {
    struct chunk *next;
    uint32_t len, off;
    unsigned char data[];
};

typedef struct {
    int state, nonblock;
    uint32_t gen;
    uint16_t lport, rport;
    int peer_ue;
    uint32_t peer;          /* the peer's socket id */
    int peer_fin, reset, shut_wr;
    struct chunk *rx_head, *rx_tail;
    size_t rx_bytes, unacked; /* bytes queued; consumed but not credited */
    size_t credit;          /* bytes we may still send */
    uint32_t *acq;          /* listener: connections not yet accepted */
    int acq_n, acq_cap;
} bsock_t;

static bsock_t *tab;
static int ntab;
static uint16_t next_port = 49152;

static int sid_index(uint32_t sid)
{
    int i = (int)(sid & 0xffffu);

    if (i >= ntab || tab[i].state == S_FREE || tab[i].gen != sid >> 16)
        return -1;
    return i;
}

static uint32_t sid_of(int i)
{
    return (uint32_t)i | tab[i].gen << 16;
}

static int alloc_sock(void)
{
    int i;

    for (i = 0; i < ntab; i++)
        if (tab[i].state == S_FREE)
            break;
    if (i == ntab) {
        bsock_t *t;

        if (ntab >= 65535)
            return -1;
        t = realloc(tab, (size_t)(ntab + 16) * sizeof(*t));
        if (!t)
            return -1;
        memset(t + ntab, 0, 16 * sizeof(*t));
        tab = t;
        ntab += 16;
    }
    {
        uint32_t gen = (tab[i].gen + 1) & 0xffffu;

        memset(&tab[i], 0, sizeof(tab[i]));
        tab[i].gen = gen;
    }
    tab[i].state = S_NEW;
    tab[i].peer_ue = -1;
    return i;
}

static int port_used(uint16_t port)
{
    for (int i = 0; i < ntab; i++)
        if (tab[i].state == S_LISTEN && tab[i].lport == port)
            return 1;
    return 0;
}

static uint16_t ephemeral(void)
{
    for (int n = 0; n < 16384; n++) {
        uint16_t p = next_port;

        next_port = next_port == 65535 ? 49152 : next_port + 1;
        if (!port_used(p))
            return p;
    }
    return 0;
}

static int say(int ue, uint32_t type, uint32_t src, uint32_t dst,
               uint32_t port, uint32_t sport, const void *data, uint32_t len)
{
    struct bmsg m = {type, src, dst, port, sport, {0, 0, 0}};

    return rck__ip_link_send(ue, &m, sizeof(m), data, len);
}

static void free_sock(int i)
{
    bsock_t *s = &tab[i];

    while (s->rx_head) {
        struct chunk *c = s->rx_head;

        s->rx_head = c->next;
        free(c);
    }
    free(s->acq);
    s->state = S_FREE;
}

/* ---- input (from the pump) ---- */

static void in_connect(int ue, const struct bmsg *m)
{
    int l = -1, i;

    for (i = 0; i < ntab; i++)
        if (tab[i].state == S_LISTEN && tab[i].lport == m->port)
            l = i;
    if (l < 0) {
        say(ue, M_REFUSE, 0, m->src, 0, 0, NULL, 0);
        return;
    }
    if (tab[l].acq_n == tab[l].acq_cap) {
        int cap = tab[l].acq_cap ? 2 * tab[l].acq_cap : 8;
        uint32_t *q = realloc(tab[l].acq, (size_t)cap * sizeof(*q));

        if (!q) {
            say(ue, M_REFUSE, 0, m->src, 0, 0, NULL, 0);
            return;
        }
        tab[l].acq = q;
        tab[l].acq_cap = cap;
    }
    i = alloc_sock(); /* may move tab */
    if (i < 0) {
        say(ue, M_REFUSE, 0, m->src, 0, 0, NULL, 0);
        return;
    }
    tab[i].state = S_CONN;
    tab[i].lport = (uint16_t)m->port;
    tab[i].rport = (uint16_t)m->sport;
    tab[i].peer_ue = ue;
    tab[i].peer = m->src;
    tab[i].credit = WINDOW;
    tab[l].acq[tab[l].acq_n++] = sid_of(i);
    say(ue, M_ACCEPT, sid_of(i), m->src, 0, 0, NULL, 0);
}

static void bypass_input(int ue, const void *msg, uint32_t len)
{
    struct bmsg m;
    const unsigned char *data = (const unsigned char *)msg + sizeof(m);
    uint32_t dlen;
    bsock_t *s;
    int i;

    if (len < sizeof(m)) {
        rck_error("rck_ip bypass: a %u-byte message from UE %d is too "
                  "short; dropped", len, ue);
        return;
    }
    memcpy(&m, msg, sizeof(m));
    dlen = len - (uint32_t)sizeof(m);
    if (m.type == M_CONNECT) {
        in_connect(ue, &m);
        return;
    }
    i = sid_index(m.dst);
    s = i >= 0 ? &tab[i] : NULL;
    if (s && m.type == M_ACCEPT && s->state == S_CONNECTING &&
        s->peer_ue == ue) {
        s->state = S_CONN;
        s->peer = m.src;
        s->credit = WINDOW;
        return;
    }
    if (s && m.type == M_REFUSE && s->state == S_CONNECTING &&
        s->peer_ue == ue) {
        s->state = S_REFUSED;
        return;
    }
    if (!s || s->state != S_CONN || s->peer_ue != ue || s->peer != m.src) {
        if (m.type == M_DATA)
            say(ue, M_RST, m.dst, m.src, 0, 0, NULL, 0);
        return;
    }
    switch (m.type) {
    case M_DATA: {
        struct chunk *c;

        if (s->peer_fin || dlen == 0)
            break;
        c = malloc(sizeof(*c) + dlen);
        if (!c) {
            rck_error("rck_ip bypass: out of memory; connection reset");
            s->reset = 1;
            say(ue, M_RST, m.dst, m.src, 0, 0, NULL, 0);
            break;
        }
        c->next = NULL;
        c->len = dlen;
        c->off = 0;
        memcpy(c->data, data, dlen);
        if (s->rx_tail)
            s->rx_tail->next = c;
        else
            s->rx_head = c;
        s->rx_tail = c;
        s->rx_bytes += dlen;
        break;
    }
    case M_CREDIT:
        s->credit += m.port;
        break;
    case M_FIN:
        s->peer_fin = 1;
        break;
    case M_RST:
        s->reset = 1;
        break;
    default:
        break;
    }
}

/* The link hands bypass messages here (registered at load: the link does
 * not call up into this file). */
__attribute__((constructor)) static void bypass_register(void)
{
    rck__ip_link_on_bypass(bypass_input);
}

/* ---- the calls (ip_sock.c checks the descriptor) ---- */

static int fail(int e)
{
    errno = e;
    return -1;
}

int rck__bp_socket(void)
{
    int i = alloc_sock();

    return i < 0 ? fail(ENOMEM) : (int)sid_of(i);
}

static bsock_t *get(int sid)
{
    int i = sid_index((uint32_t)sid);

    return i < 0 ? NULL : &tab[i];
}

static void sin_of(struct sockaddr *a, socklen_t *len, int ue, uint16_t port)
{
    struct sockaddr_in sin;
    uint32_t addr = 0;

    if (!a || !len)
        return;
    memset(&sin, 0, sizeof(sin));
    sin.sin_family = AF_INET;
    sin.sin_port = htons(port);
    if (ue >= 0)
        rck_ip_ue_addr(ue, &addr);
    sin.sin_addr.s_addr = addr;
    memcpy(a, &sin, *len < sizeof(sin) ? *len : sizeof(sin));
    *len = sizeof(sin);
}

int rck__bp_bind(int sid, const struct sockaddr *a, socklen_t len)
{
    bsock_t *s = get(sid);
    const struct sockaddr_in *sin = (const struct sockaddr_in *)a;

    if (!s)
        return fail(EBADF);
    if (!a || len < sizeof(*sin) || sin->sin_family != AF_INET)
        return fail(EINVAL);
    if (s->lport)
        return fail(EINVAL);
    if (sin->sin_port && port_used(ntohs(sin->sin_port)))
        return fail(EADDRINUSE);
    s->lport = sin->sin_port ? ntohs(sin->sin_port) : ephemeral();
    return 0;
}

int rck__bp_listen(int sid)
{
    bsock_t *s = get(sid);

    if (!s)
        return fail(EBADF);
    if (s->state != S_NEW && s->state != S_LISTEN)
        return fail(EINVAL);
    if (!s->lport)
        s->lport = ephemeral();
    if (s->state == S_NEW && port_used(s->lport))
        return fail(EADDRINUSE);
    s->state = S_LISTEN;
    return 0;
}

static int ready_acq(void *arg)
{
    bsock_t *s = get((int)(intptr_t)arg);

    return !s || s->acq_n > 0;
}

int rck__bp_accept(int sid, struct sockaddr *a, socklen_t *len, int *nsid)
{
    bsock_t *s = get(sid);
    uint32_t c;

    if (!s)
        return fail(EBADF);
    if (s->state != S_LISTEN)
        return fail(EINVAL);
    rck__ip_pump_once();
    s = get(sid); /* the pump's input may have moved the table */
    if (!s)
        return fail(EBADF);
    if (s->acq_n == 0 && s->nonblock)
        return fail(EAGAIN);
    if (rck__ip_pump_until(ready_acq, (void *)(intptr_t)sid, 0) != 0)
        return fail(ECONNABORTED);
    s = get(sid);
    if (!s)
        return fail(EBADF);
    c = s->acq[0];
    memmove(s->acq, s->acq + 1, (size_t)(--s->acq_n) * sizeof(uint32_t));
    s = get((int)c);
    if (!s)
        return fail(ECONNABORTED);
    sin_of(a, len, s->peer_ue, s->rport);
    *nsid = (int)c;
    return 0;
}

static int ready_conn(void *arg)
{
    bsock_t *s = get((int)(intptr_t)arg);

    return !s || s->state != S_CONNECTING;
}

int rck__bp_connect(int sid, const struct sockaddr *a, socklen_t len)
{
    bsock_t *s = get(sid);
    const struct sockaddr_in *sin = (const struct sockaddr_in *)a;
    int ue;

    if (!s)
        return fail(EBADF);
    if (!a || len < sizeof(*sin) || sin->sin_family != AF_INET)
        return fail(EAFNOSUPPORT);
    if (s->state == S_CONNECTING)
        return fail(EALREADY);
    if (s->state == S_CONN)
        return fail(EISCONN);
    if (s->state != S_NEW)
        return fail(EINVAL);
    ue = rck__ip_addr_ue(sin->sin_addr.s_addr);
    if (ue < 0)
        return fail(ENETUNREACH);
    if (!s->lport)
        s->lport = ephemeral();
    s->state = S_CONNECTING;
    s->peer_ue = ue;
    s->rport = ntohs(sin->sin_port);
    if (say(ue, M_CONNECT, (uint32_t)sid, 0, s->rport, s->lport, NULL, 0) !=
        0) {
        s->state = S_NEW;
        return fail(ENETDOWN);
    }
    if (s->nonblock)
        return fail(EINPROGRESS);
    if (rck__ip_pump_until(ready_conn, (void *)(intptr_t)sid, 0) != 0)
        return fail(ETIMEDOUT);
    s = get(sid);
    if (!s)
        return fail(EBADF);
    if (s->state == S_REFUSED) {
        s->state = S_NEW;
        return fail(ECONNREFUSED);
    }
    return 0;
}

static int ready_send(void *arg)
{
    bsock_t *s = get((int)(intptr_t)arg);

    return !s || s->credit > 0 || s->reset || rck__ip_dead();
}

ssize_t rck__bp_send(int sid, const void *buf, size_t n, int flags)
{
    bsock_t *s = get(sid);
    size_t sent = 0, most = rck__ip_mtu() - sizeof(struct bmsg);
    int nb;

    if (!s)
        return fail(EBADF);
    nb = s->nonblock || (flags & MSG_DONTWAIT);
    if (s->state != S_CONN)
        return fail(s->state == S_CONNECTING && nb ? EAGAIN : ENOTCONN);
    while (sent < n) {
        size_t k;

        rck__ip_pump_once();
        s = get(sid);
        if (!s)
            return fail(EBADF);
        if (s->reset || rck__ip_dead())
            return sent ? (ssize_t)sent : fail(ECONNRESET);
        if (s->shut_wr)
            return sent ? (ssize_t)sent : fail(EPIPE);
        if (s->credit == 0) {
            if (nb)
                return sent ? (ssize_t)sent : fail(EAGAIN);
            rck__ip_pump_until(ready_send, (void *)(intptr_t)sid, 0);
            continue;
        }
        k = n - sent;
        k = k < most ? k : most;
        k = k < s->credit ? k : s->credit;
        if (say(s->peer_ue, M_DATA, (uint32_t)sid, s->peer, 0, 0,
                (const char *)buf + sent, (uint32_t)k) != 0)
            return sent ? (ssize_t)sent : fail(ECONNRESET);
        s = get(sid);
        if (!s)
            return fail(EBADF);
        s->credit -= k;
        sent += k;
    }
    return (ssize_t)sent;
}

static int ready_recv(void *arg)
{
    bsock_t *s = get((int)(intptr_t)arg);

    return !s || s->rx_bytes > 0 || s->peer_fin || s->reset ||
           rck__ip_dead();
}

ssize_t rck__bp_recv(int sid, void *buf, size_t n, int flags)
{
    bsock_t *s = get(sid);
    size_t got = 0;

    if (!s)
        return fail(EBADF);
    if (s->state != S_CONN)
        return fail(ENOTCONN);
    rck__ip_pump_once();
    s = get(sid);
    if (!s)
        return fail(EBADF);
    if (s->rx_bytes == 0 && !s->peer_fin && !s->reset) {
        if (s->nonblock || (flags & MSG_DONTWAIT))
            return fail(EAGAIN);
        rck__ip_pump_until(ready_recv, (void *)(intptr_t)sid, 0);
        s = get(sid);
        if (!s)
            return fail(EBADF);
    }
    while (got < n && s->rx_head) {
        struct chunk *c = s->rx_head;
        size_t k = c->len - c->off;

        k = k < n - got ? k : n - got;
        memcpy((char *)buf + got, c->data + c->off, k);
        got += k;
        if (flags & MSG_PEEK)
            break;
        c->off += (uint32_t)k;
        s->rx_bytes -= k;
        s->unacked += k;
        if (c->off == c->len) {
            s->rx_head = c->next;
            if (!s->rx_head)
                s->rx_tail = NULL;
            free(c);
        }
        if (!(flags & MSG_WAITALL))
            break;
    }
    if (s->unacked >= WINDOW / 4 && !s->reset) {
        uint32_t u = (uint32_t)s->unacked;

        s->unacked = 0;
        say(s->peer_ue, M_CREDIT, (uint32_t)sid, s->peer, u, 0, NULL, 0);
    }
    if (got > 0)
        return (ssize_t)got;
    if (s->reset || rck__ip_dead())
        return fail(ECONNRESET);
    return 0; /* end of stream */
}

int rck__bp_shutdown(int sid, int how)
{
    bsock_t *s = get(sid);

    if (!s)
        return fail(EBADF);
    if (s->state != S_CONN)
        return fail(ENOTCONN);
    if ((how == SHUT_WR || how == SHUT_RDWR) && !s->shut_wr) {
        s->shut_wr = 1;
        if (!s->reset)
            say(s->peer_ue, M_FIN, (uint32_t)sid, s->peer, 0, 0, NULL, 0);
    }
    return 0;
}

int rck__bp_close(int sid)
{
    bsock_t *s = get(sid);
    int i = sid_index((uint32_t)sid);

    if (!s)
        return fail(EBADF);
    if (s->state == S_CONN && !s->reset) {
        /* unread data: a reset, as a host's stack does; else the end */
        uint32_t type = s->rx_bytes ? M_RST : (s->shut_wr ? 0 : M_FIN);

        if (type)
            say(s->peer_ue, type, (uint32_t)sid, s->peer, 0, 0, NULL, 0);
    }
    if (s->state == S_LISTEN)
        for (int k = 0; k < s->acq_n; k++)
            rck__bp_close((int)s->acq[k]);
    free_sock(i);
    return 0;
}

int rck__bp_events(int sid, int events)
{
    bsock_t *s = get(sid);
    int r = 0;

    if (!s)
        return POLLNVAL;
    if (s->state == S_LISTEN)
        return s->acq_n > 0 ? (events & POLLIN) : 0;
    if (s->state == S_REFUSED)
        return POLLERR | POLLHUP;
    if (s->state != S_CONN)
        return 0;
    if (s->rx_bytes > 0 || s->peer_fin || s->reset)
        r |= events & POLLIN;
    if ((s->credit > 0 && !s->shut_wr) || s->reset)
        r |= events & POLLOUT;
    if (s->reset || rck__ip_dead())
        r |= POLLHUP | POLLERR;
    else if (s->peer_fin && s->shut_wr)
        r |= POLLHUP;
    return r;
}

int rck__bp_fcntl(int sid, int cmd, int arg)
{
    bsock_t *s = get(sid);

    if (!s)
        return fail(EBADF);
    if (cmd == F_GETFL)
        return O_RDWR | (s->nonblock ? O_NONBLOCK : 0);
    s->nonblock = (arg & O_NONBLOCK) != 0;
    return 0;
}

int rck__bp_name(int sid, int peer, struct sockaddr *a, socklen_t *len)
{
    bsock_t *s = get(sid);

    if (!s)
        return fail(EBADF);
    if (peer && s->state != S_CONN)
        return fail(ENOTCONN);
    if (peer)
        sin_of(a, len, s->peer_ue, s->rport);
    else
        sin_of(a, len, s->state == S_CONN ? rck__ip_ue() : -1, s->lport);
    return 0;
}

int rck__bp_so_error(int sid)
{
    bsock_t *s = get(sid);

    if (!s)
        return EBADF;
    if (s->state == S_REFUSED) {
        s->state = S_NEW;
        return ECONNREFUSED;
    }
    return s->reset ? ECONNRESET : 0;
}

void rck__bp_close_all(void)
{
    for (int i = 0; i < ntab; i++)
        if (tab[i].state != S_FREE)
            rck__bp_close((int)sid_of(i));
}
