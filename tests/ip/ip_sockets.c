/*
 * ip_sockets.c: BSD socket programs between the cores, as a user writes
 * them (no rockcreek call; built with librckip as rckcc -rck-ip builds).
 * Run by tests/ip/CMakeLists.txt inside a network namespace of its own.
 *
 *   ip_sockets echo N      UE 0 echoes for every other UE over TCP; each
 *                          client sends N messages of 1 B .. 32 KiB
 *   ip_sockets alltoall    every UE sends a stamped block to every other
 *                          UE over TCP and checks what it gets
 *   ip_sockets udp N       UE 0 sends N numbered datagrams to UE 1, which
 *                          checks that none is lost or out of order
 *   ip_sockets many K      UE i opens K concurrent non-blocking
 *                          connections to UE i+1 and serves K from UE i-1
 *                          with poll()
 *   ip_sockets die         UE 1 sends part of a stream to UE 0 and exits
 *                          without closing; UE 0 must see EOF or a reset
 *   ip_sockets unreachable an address beyond the job's cores (the next
 *                          one, and the host's 127.0.0.1) is refused at
 *                          once with ENETUNREACH, by TCP and UDP
 *   ip_sockets crash       the same, but UE 1 is killed (abort): UE 0 must
 *                          see a reset, not hang (the run then fails: the
 *                          test looks for UE 0's "ok")
 * Each UE prints one line "ip <mode> ue <i>: ok" on success and exits 1
 * with a message naming the failed call otherwise.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <unistd.h>

#define PORT 7000

static int ue, nues;
static const char *mode;

static void fail(const char *what)
{
    fprintf(stderr, "ip %s ue %d: %s: %s\n", mode, ue, what,
            strerror(errno));
    exit(1);
}

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "ip %s ue %d: %s\n", mode, ue, what);
        exit(1);
    }
}

/* UE and job size: the launcher's environment (RCCE programs get them
 * from RCCE_ue; a socket program learns them as any cluster job would) */
static void whoami(void)
{
    const char *u = getenv("RCK_RUN_UE"), *n = getenv("RCK_RUN_NUES");

    check(u && n, "RCK_RUN_UE/RCK_RUN_NUES not set: run under rck run");
    ue = atoi(u);
    nues = atoi(n);
}

static struct sockaddr_in addr_of(int who, int port, int type)
{
    struct addrinfo hints, *res;
    struct sockaddr_in sin;
    char name[16], svc[8];
    int rc;

    memset(&hints, 0, sizeof(hints));
    hints.ai_family = AF_INET;
    hints.ai_socktype = type;
    snprintf(name, sizeof(name), "rck%d", who);
    snprintf(svc, sizeof(svc), "%d", port);
    rc = getaddrinfo(name, svc, &hints, &res);
    if (rc != 0) {
        fprintf(stderr, "ip %s ue %d: getaddrinfo(%s): %s\n", mode, ue, name,
                gai_strerror(rc));
        exit(1);
    }
    memcpy(&sin, res->ai_addr, sizeof(sin));
    freeaddrinfo(res);
    return sin;
}

static int listener(int port, int backlog)
{
    struct sockaddr_in sin;
    int s = socket(AF_INET, SOCK_STREAM, 0), one = 1;

    if (s < 0)
        fail("socket");
    if (setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) != 0)
        fail("setsockopt SO_REUSEADDR");
    memset(&sin, 0, sizeof(sin));
    sin.sin_family = AF_INET;
    sin.sin_port = htons((uint16_t)port);
    sin.sin_addr.s_addr = htonl(INADDR_ANY);
    if (bind(s, (struct sockaddr *)&sin, sizeof(sin)) != 0)
        fail("bind");
    if (listen(s, backlog) != 0)
        fail("listen");
    return s;
}

/* connect to UE @p who, retrying while it has not listened yet */
static int dial(int who, int port)
{
    struct sockaddr_in sin = addr_of(who, port, SOCK_STREAM);

    for (int tries = 0; tries < 20000; tries++) {
        int s = socket(AF_INET, SOCK_STREAM, 0), one = 1;

        if (s < 0)
            fail("socket");
        setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
        if (connect(s, (struct sockaddr *)&sin, sizeof(sin)) == 0)
            return s;
        if (errno != ECONNREFUSED && errno != ECONNRESET)
            fail("connect");
        close(s);
        poll(NULL, 0, 1);
    }
    check(0, "connect: still refused after 20000 tries");
    return -1;
}

static void write_all(int s, const void *buf, size_t n)
{
    const char *p = buf;

    while (n > 0) {
        ssize_t w = write(s, p, n);

        if (w < 0)
            fail("write");
        p += w;
        n -= (size_t)w;
    }
}

static void read_all(int s, void *buf, size_t n)
{
    char *p = buf;

    while (n > 0) {
        ssize_t r = recv(s, p, n, 0);

        if (r < 0)
            fail("recv");
        check(r > 0, "recv: early end of stream");
        p += r;
        n -= (size_t)r;
    }
}

static void fill(unsigned char *b, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        b[i] = (unsigned char)(seed * 131u + i * 7u);
}

/* ---- echo: UE 0 serves every client at once with select() ---- */
static void echo(int rounds)
{
    static unsigned char out[32768], in[32768];
    static const size_t sizes[] = {1, 7, 64, 1000, 1460, 4096, 32768};
    const int ns = (int)(sizeof(sizes) / sizeof(sizes[0]));

    if (ue == 0) {
        int l = listener(PORT, nues), open_ = 0, c[64];

        check(nues - 1 <= 64, "too many clients");
        for (int i = 0; i < nues - 1; i++) {
            c[i] = accept(l, NULL, NULL);
            if (c[i] < 0)
                fail("accept");
            open_++;
        }
        while (open_ > 0) {
            fd_set rd;
            int max = -1;

            FD_ZERO(&rd);
            for (int i = 0; i < nues - 1; i++)
                if (c[i] >= 0) {
                    FD_SET(c[i], &rd);
                    max = c[i] > max ? c[i] : max;
                }
            if (select(max + 1, &rd, NULL, NULL, NULL) < 0)
                fail("select");
            for (int i = 0; i < nues - 1; i++) {
                ssize_t r;

                if (c[i] < 0 || !FD_ISSET(c[i], &rd))
                    continue;
                r = read(c[i], in, sizeof(in));
                if (r < 0)
                    fail("read");
                if (r == 0) {
                    close(c[i]);
                    c[i] = -1;
                    open_--;
                    continue;
                }
                write_all(c[i], in, (size_t)r);
            }
        }
        close(l);
    } else {
        int s = dial(0, PORT);

        for (int r = 0; r < rounds; r++)
            for (int k = 0; k < ns; k++) {
                fill(out, sizes[k], (unsigned)(ue * 1000 + r * 10 + k));
                write_all(s, out, sizes[k]);
                read_all(s, in, sizes[k]);
                check(memcmp(in, out, sizes[k]) == 0, "echo differs");
            }
        close(s);
    }
}

/* ---- alltoall: everyone to everyone, blocking calls ---- */
static void alltoall(void)
{
    enum { BLOCK = 2000 };
    static unsigned char out[BLOCK], in[BLOCK], want[BLOCK];
    int l = listener(PORT, nues), *s = calloc((size_t)nues, sizeof(int));

    check(s != NULL, "out of memory");
    /* connect to every higher UE, accept every lower one: one connection
     * per pair, both ends write then read */
    for (int p = ue + 1; p < nues; p++) {
        uint32_t me = (uint32_t)ue;

        s[p] = dial(p, PORT);
        write_all(s[p], &me, sizeof(me));
    }
    for (int k = 0; k < ue; k++) {
        uint32_t who;
        int c = accept(l, NULL, NULL);

        if (c < 0)
            fail("accept");
        read_all(c, &who, sizeof(who));
        check(who < (uint32_t)ue && s[who] == 0, "accept: unexpected peer");
        s[who] = c;
    }
    for (int p = 0; p < nues; p++) {
        if (p == ue)
            continue;
        fill(out, BLOCK, (unsigned)(ue * 100 + p));
        write_all(s[p], out, BLOCK);
    }
    for (int p = 0; p < nues; p++) {
        if (p == ue)
            continue;
        read_all(s[p], in, BLOCK);
        fill(want, BLOCK, (unsigned)(p * 100 + ue));
        check(memcmp(in, want, BLOCK) == 0, "alltoall: block differs");
    }
    for (int p = 0; p < nues; p++)
        if (p != ue)
            close(s[p]);
    close(l);
    free(s);
}

/* ---- udp: no loss, no reordering between two cores ---- */
static void udp(int count)
{
    unsigned char buf[1024];
    int s = socket(AF_INET, SOCK_DGRAM, 0);
    struct sockaddr_in me, peer;

    check(nues >= 2, "udp needs 2 UEs");
    if (s < 0)
        fail("socket");
    memset(&me, 0, sizeof(me));
    me.sin_family = AF_INET;
    me.sin_port = htons(PORT);
    if (bind(s, (struct sockaddr *)&me, sizeof(me)) != 0)
        fail("bind");
    if (ue == 1) {
        peer = addr_of(0, PORT, SOCK_DGRAM);
        /* tell UE 0 we are bound, until it answers */
        for (;;) {
            struct pollfd pf = {s, POLLIN, 0};

            if (sendto(s, "ready", 5, 0, (struct sockaddr *)&peer,
                       sizeof(peer)) != 5)
                fail("sendto ready");
            if (poll(&pf, 1, 50) < 0)
                fail("poll");
            if (pf.revents & POLLIN)
                break;
        }
        for (int i = 0; i < count; i++) {
            ssize_t r = recv(s, buf, sizeof(buf), 0);
            uint32_t seq;

            if (r < 0)
                fail("recv");
            if (r == 5 && i == 0 && memcmp(buf, "go!!!", 5) == 0) {
                i--;
                continue;
            }
            check(r == (ssize_t)(16 + (i % 1000)), "udp: wrong size");
            memcpy(&seq, buf, 4);
            check(seq == (uint32_t)i, "udp: lost or reordered datagram");
        }
    } else if (ue == 0) {
        socklen_t len = sizeof(peer);
        ssize_t r = recvfrom(s, buf, sizeof(buf), 0,
                             (struct sockaddr *)&peer, &len);

        if (r < 0)
            fail("recvfrom");
        if (sendto(s, "go!!!", 5, 0, (struct sockaddr *)&peer, len) != 5)
            fail("sendto go");
        for (int i = 0; i < count; i++) {
            uint32_t seq = (uint32_t)i;
            size_t n = 16 + (size_t)(i % 1000);

            memset(buf, i & 0xff, n);
            memcpy(buf, &seq, 4);
            if (sendto(s, buf, n, 0, (struct sockaddr *)&peer, len) !=
                (ssize_t)n)
                fail("sendto");
        }
    }
    close(s);
}

/* ---- many: K concurrent non-blocking connections per core ---- */
static void many(int k)
{
    enum { BYTES = 3000 };
    int l = listener(PORT, k), next = (ue + 1) % nues;
    int *out = calloc((size_t)k, sizeof(int)), *in = calloc((size_t)k,
                                                            sizeof(int));
    size_t *sent = calloc((size_t)k, sizeof(size_t));
    size_t *got = calloc((size_t)k, sizeof(size_t));
    struct pollfd *pf = calloc((size_t)(2 * k + 1), sizeof(*pf));
    static unsigned char buf[BYTES], want[BYTES];
    int accepted = 0, done = 0;

    check(out && in && sent && got && pf, "out of memory");
    fill(buf, BYTES, 7);
    for (int i = 0; i < k; i++) {
        out[i] = dial(next, PORT);
        if (fcntl(out[i], F_SETFL, fcntl(out[i], F_GETFL) | O_NONBLOCK) != 0)
            fail("fcntl O_NONBLOCK");
    }
    if (fcntl(l, F_SETFL, O_NONBLOCK) != 0)
        fail("fcntl listener");
    while (done < 2 * k) {
        int n = 0;

        pf[n++] = (struct pollfd){l, POLLIN, 0};
        for (int i = 0; i < k; i++)
            pf[n++] = (struct pollfd){out[i], sent[i] < BYTES ? POLLOUT : 0,
                                      0};
        for (int i = 0; i < accepted; i++)
            pf[n++] = (struct pollfd){in[i], got[i] < BYTES ? POLLIN : 0, 0};
        if (poll(pf, (nfds_t)n, -1) < 0)
            fail("poll");
        if ((pf[0].revents & POLLIN) && accepted < k) {
            int c = accept(l, NULL, NULL);

            if (c >= 0) {
                fcntl(c, F_SETFL, O_NONBLOCK);
                in[accepted++] = c;
            } else if (errno != EAGAIN && errno != EWOULDBLOCK)
                fail("accept");
        }
        for (int i = 0; i < k; i++)
            if (pf[1 + i].revents & POLLOUT) {
                ssize_t w = write(out[i], buf + sent[i], BYTES - sent[i]);

                if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
                    fail("write");
                if (w > 0 && (sent[i] += (size_t)w) == BYTES)
                    done++;
            }
        for (int i = 0; i < accepted && 1 + k + i < n; i++)
            if (pf[1 + k + i].revents & (POLLIN | POLLHUP)) {
                ssize_t r = read(in[i], want + 0, BYTES - got[i]);

                if (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
                    fail("read");
                check(r != 0, "many: early end of stream");
                if (r > 0) {
                    check(memcmp(want, buf + got[i], (size_t)r) == 0,
                          "many: data differs");
                    if ((got[i] += (size_t)r) == BYTES)
                        done++;
                }
            }
    }
    for (int i = 0; i < k; i++) {
        close(out[i]);
        close(in[i]);
    }
    close(l);
}

/* ---- die: a peer that ends mid-stream ---- */
static void die(int crash)
{
    static unsigned char buf[8192];

    check(nues >= 2, "die needs 2 UEs");
    if (ue == 1) {
        int s = dial(0, PORT);

        fill(buf, sizeof(buf), 3);
        write_all(s, buf, sizeof(buf));
        printf("ip %s ue %d: ok (ending mid-stream)\n", mode, ue);
        fflush(stdout);
        if (crash)
            abort();
        exit(0); /* no close, no shutdown */
    }
    if (ue == 0) {
        int l = listener(PORT, 1), c = accept(l, NULL, NULL);
        size_t total = 0;

        if (c < 0)
            fail("accept");
        for (;;) {
            ssize_t r = read(c, buf, sizeof(buf));

            if (r == 0)
                break; /* EOF */
            if (r < 0) {
                check(errno == ECONNRESET || errno == ECONNABORTED ||
                          errno == ENOTCONN,
                      "die: read failed with an unexpected error");
                break;
            }
            total += (size_t)r;
        }
        check(total <= sizeof(buf), "die: more data than was sent");
        close(c);
        close(l);
    }
}

/* ---- unreachable: nothing beyond the cores ---- */
static void unreachable(void)
{
    struct sockaddr_in far = addr_of(nues - 1, PORT, SOCK_STREAM), lo;
    int s;

    far.sin_addr.s_addr = htonl(ntohl(far.sin_addr.s_addr) + 1);
    memset(&lo, 0, sizeof(lo));
    lo.sin_family = AF_INET;
    lo.sin_port = htons(PORT);
    lo.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    for (int k = 0; k < 2; k++) {
        struct sockaddr_in *a = k ? &lo : &far;

        s = socket(AF_INET, SOCK_STREAM, 0);
        if (s < 0)
            fail("socket");
        check(connect(s, (struct sockaddr *)a, sizeof(*a)) != 0 &&
                  errno == ENETUNREACH,
              "connect beyond the cores was not refused with ENETUNREACH");
        close(s);
        s = socket(AF_INET, SOCK_DGRAM, 0);
        if (s < 0)
            fail("socket");
        check(sendto(s, "x", 1, 0, (struct sockaddr *)a, sizeof(*a)) < 0 &&
                  errno == ENETUNREACH,
              "sendto beyond the cores was not refused with ENETUNREACH");
        close(s);
    }
}

int main(int argc, char **argv)
{
    mode = argc > 1 ? argv[1] : "";
    whoami();
    if (!strcmp(mode, "echo"))
        echo(argc > 2 ? atoi(argv[2]) : 3);
    else if (!strcmp(mode, "alltoall"))
        alltoall();
    else if (!strcmp(mode, "udp"))
        udp(argc > 2 ? atoi(argv[2]) : 1000);
    else if (!strcmp(mode, "many"))
        many(argc > 2 ? atoi(argv[2]) : 16);
    else if (!strcmp(mode, "die"))
        die(0);
    else if (!strcmp(mode, "crash"))
        die(1);
    else if (!strcmp(mode, "unreachable"))
        unreachable();
    else {
        fprintf(stderr, "usage: ip_sockets echo|alltoall|udp|many|die|crash|unreachable [N]\n");
        return 2;
    }
    printf("ip %s ue %d: ok\n", mode, ue);
    return 0;
}
