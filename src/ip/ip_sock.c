/*
 * ip_sock.c: BSD sockets for programs linked with librckip (`rckcc
 * -rck-ip`, docs/IP.md "Sockets").
 *
 * Interposition by symbol: librckip defines socket(), connect(), read(),
 * close(), poll(), getaddrinfo(), ... A program linked with it calls these
 * before the C library's. An AF_INET socket is an lwIP socket of this
 * core; it is given a real descriptor of the host (/dev/null, opened
 * here), so its number never collides with the program's files, and the
 * table below maps that descriptor to the lwIP socket. Every call on a
 * descriptor that is not in the table goes to the C library's function
 * (dlsym RTLD_NEXT), so files, pipes and AF_UNIX sockets work as before.
 *
 * Names: rck<i> (and rck<i>.rck) are UE i's address; dotted addresses are
 * numeric and need no lookup; any other name goes to the C library (which
 * in the network namespace every IP run uses reaches nothing).
 *
 * Not routed (docs/IP.md, "What does not work"): dup/dup2 of a socket,
 * sockets shared across fork, AF_INET6, epoll.
 */
#include "ip_priv.h"

#include "rck/log.h"

#include <lwip/sockets.h>

#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))
#define FD_MAX 4096

/* host descriptor -> lwIP socket + 1 (0: not ours) */
static int fdmap[FD_MAX];
/* host descriptor -> socket bypass id + 1 (0: not a bypass socket) */
static int bpmap[FD_MAX];

#define REAL(name) real_##name
#define DECLARE_REAL(ret, name, ...)                                          \
    static ret (*real_##name)(__VA_ARGS__);                                   \
    static void load_##name(void)                                             \
    {                                                                         \
        if (!real_##name)                                                     \
            *(void **)&real_##name = dlsym(RTLD_NEXT, #name);                 \
    }

DECLARE_REAL(int, socket, int, int, int)
DECLARE_REAL(int, close, int)
DECLARE_REAL(ssize_t, read, int, void *, size_t)
DECLARE_REAL(ssize_t, write, int, const void *, size_t)
DECLARE_REAL(ssize_t, readv, int, const struct iovec *, int)
DECLARE_REAL(ssize_t, writev, int, const struct iovec *, int)
DECLARE_REAL(int, bind, int, const struct sockaddr *, socklen_t)
DECLARE_REAL(int, listen, int, int)
DECLARE_REAL(int, accept, int, struct sockaddr *, socklen_t *)
DECLARE_REAL(int, accept4, int, struct sockaddr *, socklen_t *, int)
DECLARE_REAL(int, connect, int, const struct sockaddr *, socklen_t)
DECLARE_REAL(ssize_t, send, int, const void *, size_t, int)
DECLARE_REAL(ssize_t, recv, int, void *, size_t, int)
DECLARE_REAL(ssize_t, sendto, int, const void *, size_t, int,
             const struct sockaddr *, socklen_t)
DECLARE_REAL(ssize_t, recvfrom, int, void *, size_t, int, struct sockaddr *,
             socklen_t *)
DECLARE_REAL(ssize_t, sendmsg, int, const struct msghdr *, int)
DECLARE_REAL(ssize_t, recvmsg, int, struct msghdr *, int)
DECLARE_REAL(int, shutdown, int, int)
DECLARE_REAL(int, setsockopt, int, int, int, const void *, socklen_t)
DECLARE_REAL(int, getsockopt, int, int, int, void *, socklen_t *)
DECLARE_REAL(int, getsockname, int, struct sockaddr *, socklen_t *)
DECLARE_REAL(int, getpeername, int, struct sockaddr *, socklen_t *)
DECLARE_REAL(int, fcntl, int, int, ...)
DECLARE_REAL(int, ioctl, int, unsigned long, ...)
DECLARE_REAL(int, poll, struct pollfd *, nfds_t, int)
DECLARE_REAL(int, select, int, fd_set *, fd_set *, fd_set *,
             struct timeval *)
DECLARE_REAL(int, getaddrinfo, const char *, const char *,
             const struct addrinfo *, struct addrinfo **)
DECLARE_REAL(void, freeaddrinfo, struct addrinfo *)
DECLARE_REAL(struct hostent *, gethostbyname, const char *)

/* @return the lwIP socket of host descriptor @p fd, or -1. */
static int lw(int fd)
{
    if (fd < 0 || fd >= FD_MAX)
        return -1;
    return fdmap[fd] - 1;
}

/* @return the bypass socket of host descriptor @p fd, or -1. */
static int bp(int fd)
{
    if (fd < 0 || fd >= FD_MAX)
        return -1;
    return bpmap[fd] - 1;
}

static int new_bp_fd(int sid)
{
    int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

    if (fd < 0 || fd >= FD_MAX) {
        int e = fd < 0 ? errno : EMFILE;

        if (fd >= 0) {
            load_close();
            REAL(close)(fd);
        }
        rck__bp_close(sid);
        errno = e;
        return -1;
    }
    bpmap[fd] = sid + 1;
    return fd;
}

static int new_fd(int ls)
{
    int fd;

    load_fcntl();
    fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (fd < 0 || fd >= FD_MAX) {
        int e = fd < 0 ? errno : EMFILE;

        if (fd >= 0) {
            load_close();
            REAL(close)(fd);
        }
        lwip_close(ls);
        errno = e;
        return -1;
    }
    fdmap[fd] = ls + 1;
    return fd;
}

/* A destination must be a core of the job: anything else is refused at
 * once (lwIP would retry a SYN to nowhere for a minute). @return 0 or -1
 * with errno ENETUNREACH. */
static int check_dst(const struct sockaddr *a, socklen_t len)
{
    const struct sockaddr_in *sin = (const struct sockaddr_in *)a;
    char txt[INET_ADDRSTRLEN];

    if (!a || len < sizeof(*sin) || sin->sin_family != AF_INET ||
        rck__ip_addr_ue(sin->sin_addr.s_addr) >= 0)
        return 0;
    inet_ntop(AF_INET, &sin->sin_addr, txt, sizeof(txt));
    rck_error("rck_ip: %s is not a core of this job (UE i has RCK_IP_ADDR "
              "+ i, %d UEs); nothing beyond the cores is reachable",
              txt, rck__ip_nues());
    errno = ENETUNREACH;
    return -1;
}

EXPORT int socket(int domain, int type, int protocol)
{
    int base = type & ~(SOCK_NONBLOCK | SOCK_CLOEXEC), ls, fd;

    if (domain == AF_INET6) {
        errno = EAFNOSUPPORT; /* between the cores: IPv4 only */
        return -1;
    }
    if (domain != AF_INET || rck__ip_host_sockets()) {
        load_socket();
        return REAL(socket)(domain, type, protocol);
    }
    if (rck_ip_init() != RCK_OK) {
        errno = ENETDOWN;
        return -1;
    }
    if (base == SOCK_STREAM && rck__ip_bypass_mode()) {
        int sid = rck__bp_socket();

        if (sid < 0)
            return -1;
        fd = new_bp_fd(sid);
        if (fd >= 0 && (type & SOCK_NONBLOCK))
            rck__bp_fcntl(sid, F_SETFL, O_NONBLOCK);
        return fd;
    }
    ls = lwip_socket(domain, base, protocol);
    if (ls < 0)
        return -1;
    fd = new_fd(ls);
    if (fd >= 0 && (type & SOCK_NONBLOCK))
        lwip_fcntl(ls, F_SETFL, O_NONBLOCK);
    return fd;
}

EXPORT int close(int fd)
{
    int ls = lw(fd);

    load_close();
    if (ls >= 0) {
        fdmap[fd] = 0;
        lwip_close(ls);
    }
    if (bp(fd) >= 0) {
        rck__bp_close(bp(fd));
        bpmap[fd] = 0;
    }
    return REAL(close)(fd);
}

/* At exit (the link's, ip_link.c): close every socket the program left
 * open. */
static void sock_close_all(void)
{
    for (int fd = 0; fd < FD_MAX; fd++)
        if (fdmap[fd] || bpmap[fd])
            close(fd);
}

__attribute__((constructor)) static void sock_register(void)
{
    rck__ip_link_on_exit(sock_close_all);
}

EXPORT ssize_t read(int fd, void *buf, size_t n)
{
    int ls = lw(fd);

    if (bp(fd) >= 0)
        return rck__bp_recv(bp(fd), buf, n, 0);
    if (ls >= 0)
        return lwip_read(ls, buf, n);
    load_read();
    return REAL(read)(fd, buf, n);
}

EXPORT ssize_t write(int fd, const void *buf, size_t n)
{
    int ls = lw(fd);

    if (bp(fd) >= 0)
        return rck__bp_send(bp(fd), buf, n, 0);
    if (ls >= 0)
        return lwip_write(ls, buf, n);
    load_write();
    return REAL(write)(fd, buf, n);
}

EXPORT ssize_t readv(int fd, const struct iovec *iov, int n)
{
    int ls = lw(fd);

    if (bp(fd) >= 0) {
        for (int i = 0; i < n; i++)
            if (iov[i].iov_len)
                return rck__bp_recv(bp(fd), iov[i].iov_base, iov[i].iov_len,
                                    0);
        return 0;
    }
    if (ls >= 0)
        return lwip_readv(ls, iov, n);
    load_readv();
    return REAL(readv)(fd, iov, n);
}

EXPORT ssize_t writev(int fd, const struct iovec *iov, int n)
{
    int ls = lw(fd);

    if (bp(fd) >= 0) {
        ssize_t t = 0;

        for (int i = 0; i < n; i++) {
            ssize_t w = rck__bp_send(bp(fd), iov[i].iov_base,
                                     iov[i].iov_len, 0);

            if (w < 0)
                return t ? t : -1;
            t += w;
        }
        return t;
    }
    if (ls >= 0)
        return lwip_writev(ls, iov, n);
    load_writev();
    return REAL(writev)(fd, iov, n);
}

EXPORT int bind(int fd, const struct sockaddr *a, socklen_t len)
{
    int ls = lw(fd);

    if (bp(fd) >= 0)
        return rck__bp_bind(bp(fd), a, len);
    if (ls >= 0)
        return lwip_bind(ls, a, len);
    load_bind();
    return REAL(bind)(fd, a, len);
}

EXPORT int listen(int fd, int backlog)
{
    int ls = lw(fd);

    if (bp(fd) >= 0)
        return rck__bp_listen(bp(fd));
    if (ls >= 0)
        return lwip_listen(ls, backlog);
    load_listen();
    return REAL(listen)(fd, backlog);
}

EXPORT int accept4(int fd, struct sockaddr *a, socklen_t *len, int flags)
{
    int ls = lw(fd), ns, nfd;

    if (bp(fd) >= 0) {
        if (rck__bp_accept(bp(fd), a, len, &ns) != 0)
            return -1;
        nfd = new_bp_fd(ns);
        if (nfd >= 0 && (flags & SOCK_NONBLOCK))
            rck__bp_fcntl(ns, F_SETFL, O_NONBLOCK);
        return nfd;
    }
    if (ls < 0) {
        load_accept4();
        return REAL(accept4)(fd, a, len, flags);
    }
    ns = lwip_accept(ls, a, len);
    if (ns < 0)
        return -1;
    nfd = new_fd(ns);
    if (nfd >= 0 && (flags & SOCK_NONBLOCK))
        lwip_fcntl(ns, F_SETFL, O_NONBLOCK);
    return nfd;
}

EXPORT int accept(int fd, struct sockaddr *a, socklen_t *len)
{
    if (lw(fd) < 0 && bp(fd) < 0) {
        load_accept();
        return REAL(accept)(fd, a, len);
    }
    return accept4(fd, a, len, 0);
}

EXPORT int connect(int fd, const struct sockaddr *a, socklen_t len)
{
    int ls = lw(fd);

    if ((bp(fd) >= 0 || ls >= 0) && check_dst(a, len) != 0)
        return -1;
    if (bp(fd) >= 0)
        return rck__bp_connect(bp(fd), a, len);
    if (ls >= 0)
        return lwip_connect(ls, a, len);
    load_connect();
    return REAL(connect)(fd, a, len);
}

EXPORT ssize_t send(int fd, const void *buf, size_t n, int flags)
{
    int ls = lw(fd);

    if (bp(fd) >= 0)
        return rck__bp_send(bp(fd), buf, n, flags);
    if (ls >= 0)
        return lwip_send(ls, buf, n, flags & ~MSG_NOSIGNAL);
    load_send();
    return REAL(send)(fd, buf, n, flags);
}

EXPORT ssize_t recv(int fd, void *buf, size_t n, int flags)
{
    int ls = lw(fd);

    if (bp(fd) >= 0)
        return rck__bp_recv(bp(fd), buf, n, flags);
    if (ls >= 0)
        return lwip_recv(ls, buf, n, flags);
    load_recv();
    return REAL(recv)(fd, buf, n, flags);
}

EXPORT ssize_t sendto(int fd, const void *buf, size_t n, int flags,
                      const struct sockaddr *a, socklen_t len)
{
    int ls = lw(fd);

    if (bp(fd) >= 0)
        return rck__bp_send(bp(fd), buf, n, flags);
    if (ls >= 0 && a && check_dst(a, len) != 0)
        return -1;
    if (ls >= 0)
        return lwip_sendto(ls, buf, n, flags & ~MSG_NOSIGNAL, a, len);
    load_sendto();
    return REAL(sendto)(fd, buf, n, flags, a, len);
}

EXPORT ssize_t recvfrom(int fd, void *buf, size_t n, int flags,
                        struct sockaddr *a, socklen_t *len)
{
    int ls = lw(fd);

    if (bp(fd) >= 0) {
        ssize_t r = rck__bp_recv(bp(fd), buf, n, flags);

        if (r >= 0 && a && len)
            rck__bp_name(bp(fd), 1, a, len);
        return r;
    }
    if (ls >= 0)
        return lwip_recvfrom(ls, buf, n, flags, a, len);
    load_recvfrom();
    return REAL(recvfrom)(fd, buf, n, flags, a, len);
}

EXPORT ssize_t sendmsg(int fd, const struct msghdr *m, int flags)
{
    int ls = lw(fd);

    if (bp(fd) >= 0) {
        errno = EOPNOTSUPP; /* not on the bypass (docs/IP.md) */
        return -1;
    }
    if (ls >= 0)
        return lwip_sendmsg(ls, m, flags & ~MSG_NOSIGNAL);
    load_sendmsg();
    return REAL(sendmsg)(fd, m, flags);
}

EXPORT ssize_t recvmsg(int fd, struct msghdr *m, int flags)
{
    int ls = lw(fd);

    if (bp(fd) >= 0) {
        errno = EOPNOTSUPP;
        return -1;
    }
    if (ls >= 0)
        return lwip_recvmsg(ls, m, flags);
    load_recvmsg();
    return REAL(recvmsg)(fd, m, flags);
}

EXPORT int shutdown(int fd, int how)
{
    int ls = lw(fd);

    if (bp(fd) >= 0)
        return rck__bp_shutdown(bp(fd), how);
    if (ls >= 0)
        return lwip_shutdown(ls, how);
    load_shutdown();
    return REAL(shutdown)(fd, how);
}

EXPORT int setsockopt(int fd, int level, int name, const void *v,
                      socklen_t len)
{
    int ls = lw(fd);

    if (bp(fd) >= 0)
        return 0; /* no TCP underneath: nothing to set */
    if (ls < 0) {
        load_setsockopt();
        return REAL(setsockopt)(fd, level, name, v, len);
    }
    /* options lwIP does not keep and that change nothing between the
     * cores: accepted, as a host's stack accepts them */
    if (level == SOL_SOCKET &&
        (name == SO_SNDBUF || name == SO_REUSEPORT || name == SO_PRIORITY))
        return 0;
    return lwip_setsockopt(ls, level, name, v, len);
}

EXPORT int getsockopt(int fd, int level, int name, void *v, socklen_t *len)
{
    int ls = lw(fd);

    if (bp(fd) >= 0) {
        int val = 0;

        if (level == SOL_SOCKET && name == SO_ERROR)
            val = rck__bp_so_error(bp(fd));
        else if (level == SOL_SOCKET && name == SO_TYPE)
            val = SOCK_STREAM;
        if (v && len && *len >= sizeof(int)) {
            memcpy(v, &val, sizeof(int));
            *len = sizeof(int);
        }
        return 0;
    }
    if (ls >= 0)
        return lwip_getsockopt(ls, level, name, v, len);
    load_getsockopt();
    return REAL(getsockopt)(fd, level, name, v, len);
}

EXPORT int getsockname(int fd, struct sockaddr *a, socklen_t *len)
{
    int ls = lw(fd);

    if (bp(fd) >= 0)
        return rck__bp_name(bp(fd), 0, a, len);
    if (ls >= 0)
        return lwip_getsockname(ls, a, len);
    load_getsockname();
    return REAL(getsockname)(fd, a, len);
}

EXPORT int getpeername(int fd, struct sockaddr *a, socklen_t *len)
{
    int ls = lw(fd);

    if (bp(fd) >= 0)
        return rck__bp_name(bp(fd), 1, a, len);
    if (ls >= 0)
        return lwip_getpeername(ls, a, len);
    load_getpeername();
    return REAL(getpeername)(fd, a, len);
}

EXPORT int fcntl(int fd, int cmd, ...)
{
    int ls = lw(fd);
    va_list ap;
    long arg;

    va_start(ap, cmd);
    arg = va_arg(ap, long);
    va_end(ap);
    load_fcntl();
    if (bp(fd) >= 0 && (cmd == F_GETFL || cmd == F_SETFL))
        return rck__bp_fcntl(bp(fd), cmd, (int)arg);
    if (bp(fd) >= 0 && cmd != F_GETFD && cmd != F_SETFD) {
        errno = EINVAL;
        return -1;
    }
    if (ls >= 0 && (cmd == F_GETFL || cmd == F_SETFL))
        return lwip_fcntl(ls, cmd, (int)arg);
    if (ls >= 0 && cmd != F_GETFD && cmd != F_SETFD) {
        errno = EINVAL; /* F_DUPFD and locks: not for sockets here */
        return -1;
    }
    return REAL(fcntl)(fd, cmd, arg);
}

EXPORT int ioctl(int fd, unsigned long req, ...)
{
    int ls = lw(fd);
    va_list ap;
    void *arg;

    va_start(ap, req);
    arg = va_arg(ap, void *);
    va_end(ap);
    if (bp(fd) >= 0) {
        if (req == FIONBIO && arg)
            return rck__bp_fcntl(bp(fd), F_SETFL,
                                 *(int *)arg ? O_NONBLOCK : 0);
        errno = EINVAL;
        return -1;
    }
    if (ls >= 0)
        return lwip_ioctl(ls, (long)req, arg);
    load_ioctl();
    return REAL(ioctl)(fd, req, arg);
}

/* poll: lwIP's poll for lwIP descriptors, the host's for the others; a
 * mix is polled in turns of at most 10 ms (docs/IP.md). */
EXPORT int poll(struct pollfd *fds, nfds_t n, int timeout)
{
    nfds_t nlw = 0, i;
    struct pollfd *l;
    uint32_t t0;
    int r;

    load_poll();
    for (i = 0; i < n; i++)
        if (lw(fds[i].fd) >= 0 || bp(fds[i].fd) >= 0)
            nlw++;
    if (nlw == 0)
        return REAL(poll)(fds, n, timeout);
    l = malloc(n * sizeof(*l));
    if (!l) {
        errno = ENOMEM;
        return -1;
    }
    t0 = rck__ip_now_ms();
    for (;;) {
        int rl, rh = 0, left = timeout;

        if (timeout > 0) {
            int el = (int)(rck__ip_now_ms() - t0);

            left = timeout > el ? timeout - el : 0;
        }
        rck__ip_pump_once();
        for (i = 0; i < n; i++) {
            int ls = lw(fds[i].fd);

            l[i] = fds[i];
            l[i].fd = ls >= 0 ? ls : -1;
            l[i].revents = 0;
        }
        /* lwIP's poll only scans here: the waiting is ours (below), in
         * the HAL, so that frames keep coming while nothing is ready */
        rl = lwip_poll(l, n, 0);
        if (rl < 0) {
            free(l);
            return -1;
        }
        for (i = 0; i < n; i++)
            if (lw(fds[i].fd) >= 0)
                fds[i].revents = l[i].revents;
        for (i = 0; i < n; i++)
            if (bp(fds[i].fd) >= 0) {
                fds[i].revents =
                    (short)rck__bp_events(bp(fds[i].fd), fds[i].events);
                if (fds[i].revents)
                    rl++;
            }
        if (nlw < n) {
            for (i = 0; i < n; i++) {
                l[i] = fds[i];
                if (lw(fds[i].fd) >= 0 || bp(fds[i].fd) >= 0)
                    l[i].fd = -1;
            }
            rh = REAL(poll)(l, n, 0);
            if (rh < 0) {
                free(l);
                return -1;
            }
            for (i = 0; i < n; i++)
                if (lw(fds[i].fd) < 0 && bp(fds[i].fd) < 0)
                    fds[i].revents = l[i].revents;
        }
        r = rl + rh;
        if (r > 0 || left == 0)
            break;
        /* host descriptors too: look at them again after at most 10 ms */
        rck__ip_pump_wait(nlw < n && (left < 0 || left > 10) ? 10 : left);
        if (rck__ip_dead()) {
            errno = ENETDOWN;
            r = -1;
            break;
        }
    }
    free(l);
    return r;
}

EXPORT int select(int nfds, fd_set *rd, fd_set *wr, fd_set *ex,
                  struct timeval *tv)
{
    struct pollfd *p;
    int n = 0, r, any = 0, fd;

    load_select();
    for (fd = 0; fd < nfds && fd < FD_MAX; fd++)
        if ((lw(fd) >= 0 || bp(fd) >= 0) &&
            ((rd && FD_ISSET(fd, rd)) ||
                            (wr && FD_ISSET(fd, wr)) ||
                            (ex && FD_ISSET(fd, ex))))
            any = 1;
    if (!any)
        return REAL(select)(nfds, rd, wr, ex, tv);
    p = calloc((size_t)nfds, sizeof(*p));
    if (!p) {
        errno = ENOMEM;
        return -1;
    }
    for (fd = 0; fd < nfds; fd++) {
        short ev = 0;

        if (rd && FD_ISSET(fd, rd))
            ev |= POLLIN;
        if (wr && FD_ISSET(fd, wr))
            ev |= POLLOUT;
        if (ex && FD_ISSET(fd, ex))
            ev |= POLLPRI;
        if (ev) {
            p[n].fd = fd;
            p[n].events = ev;
            n++;
        }
    }
    r = poll(p, (nfds_t)n,
             tv ? (int)(tv->tv_sec * 1000 + tv->tv_usec / 1000) : -1);
    if (r >= 0) {
        r = 0;
        if (rd)
            FD_ZERO(rd);
        if (wr)
            FD_ZERO(wr);
        if (ex)
            FD_ZERO(ex);
        for (int i = 0; i < n; i++) {
            short re = p[i].revents;

            if (rd && (re & (POLLIN | POLLHUP | POLLERR))) {
                FD_SET(p[i].fd, rd);
                r++;
            }
            if (wr && (re & (POLLOUT | POLLERR))) {
                FD_SET(p[i].fd, wr);
                r++;
            }
            if (ex && (re & POLLPRI)) {
                FD_SET(p[i].fd, ex);
                r++;
            }
        }
    }
    free(p);
    return r;
}

/* ---- names ---- */

/* @return the UE named by @p name ("rck<i>" or "rck<i>.rck"), or -1. */
static int name_ue(const char *name)
{
    char *end;
    long ue;

    if (!name || strncmp(name, "rck", 3) != 0 || name[3] < '0' ||
        name[3] > '9')
        return -1;
    ue = strtol(name + 3, &end, 10);
    if (*end && strcmp(end, ".rck") != 0)
        return -1;
    return ue >= 0 && ue < 4096 ? (int)ue : -1;
}

/* addrinfo lists made here (freeaddrinfo must not hand them to libc) */
struct own_ai {
    struct addrinfo ai;
    struct sockaddr_in sin;
    struct own_ai *next_own;
};
static struct own_ai *own_list;

EXPORT int getaddrinfo(const char *node, const char *service,
                       const struct addrinfo *hints, struct addrinfo **res)
{
    int ue = name_ue(node);
    struct addrinfo *head = NULL, **tail = &head;
    static const int socktypes[] = {SOCK_STREAM, SOCK_DGRAM};
    uint32_t addr;
    long port = 0;

    load_getaddrinfo();
    if (ue < 0)
        return REAL(getaddrinfo)(node, service, hints, res);
    if (hints && hints->ai_family != AF_UNSPEC && hints->ai_family != AF_INET)
        return EAI_FAMILY;
    if (service) {
        char *end;

        port = strtol(service, &end, 10);
        if (*end || port < 0 || port > 65535)
            return EAI_SERVICE; /* numeric ports only */
    }
    if (rck_ip_init() != RCK_OK || ue >= rck__ip_nues() ||
        rck_ip_ue_addr(ue, &addr) != RCK_OK)
        return EAI_NONAME;
    for (int i = 0; i < 2; i++) {
        struct own_ai *o;

        if (hints && hints->ai_socktype && hints->ai_socktype != socktypes[i])
            continue;
        o = calloc(1, sizeof(*o));
        if (!o) {
            freeaddrinfo(head);
            return EAI_MEMORY;
        }
        o->sin.sin_family = AF_INET;
        o->sin.sin_port = htons((uint16_t)port);
        o->sin.sin_addr.s_addr = addr;
        o->ai.ai_family = AF_INET;
        o->ai.ai_socktype = socktypes[i];
        o->ai.ai_protocol = i == 0 ? IPPROTO_TCP : IPPROTO_UDP;
        o->ai.ai_addrlen = sizeof(o->sin);
        o->ai.ai_addr = (struct sockaddr *)&o->sin;
        o->next_own = own_list;
        own_list = o;
        *tail = &o->ai;
        tail = &o->ai.ai_next;
    }
    if (!head)
        return EAI_SOCKTYPE;
    *res = head;
    return 0;
}

EXPORT void freeaddrinfo(struct addrinfo *ai)
{
    struct own_ai **pp;

    load_freeaddrinfo();
    if (!ai)
        return;
    for (pp = &own_list; *pp; pp = &(*pp)->next_own)
        if (&(*pp)->ai == ai)
            break;
    if (!*pp) {
        REAL(freeaddrinfo)(ai);
        return;
    }
    while (ai) {
        struct addrinfo *next = ai->ai_next;

        for (pp = &own_list; *pp; pp = &(*pp)->next_own)
            if (&(*pp)->ai == ai) {
                struct own_ai *o = *pp;

                *pp = o->next_own;
                free(o);
                break;
            }
        ai = next;
    }
}

EXPORT struct hostent *gethostbyname(const char *name)
{
    static struct hostent he;
    static uint32_t addr;
    static char *list[2];
    static char hname[32];
    int ue = name_ue(name);

    load_gethostbyname();
    if (ue < 0)
        return REAL(gethostbyname)(name);
    if (rck_ip_init() != RCK_OK || ue >= rck__ip_nues() ||
        rck_ip_ue_addr(ue, &addr) != RCK_OK) {
        h_errno = HOST_NOT_FOUND;
        return NULL;
    }
    snprintf(hname, sizeof(hname), "rck%d", ue);
    list[0] = (char *)&addr;
    list[1] = NULL;
    he.h_name = hname;
    he.h_aliases = list + 1;
    he.h_addrtype = AF_INET;
    he.h_length = 4;
    he.h_addr_list = list;
    return &he;
}
