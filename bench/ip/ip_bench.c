/*
 * ip_bench: netio-style throughput and request/response latency between
 * two cores over TCP (or the socket bypass: RCK_IP_MODE=bypass) and UDP,
 * beside RCCE's pingpong for the same sizes (bench --suite ip, docs/IP.md).
 * UE 0 measures on its clock (rck_ip_wtime: the chip's virtual time on
 * the sim); UE 1 serves. One line per result:
 *   ip_bench test=<rcce_lat|stream_lat|stream_tput|udp_lat|udp_tput>
 *            size=<bytes> value=<us or MB/s> n=<messages> lost=<datagrams>
 * Usage: rck run -n 2 ip_bench [-s max_size] [-t bytes] [-r rounds]
 * (inside a network namespace: unshare -rn).
 */
#include "RCCE.h"
#include "rck_ip.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#define TCP_PORT 7100
#define UDP_PORT 7101
#define UDP_MAX 8192 /* lwIP's reassembly takes 10 fragments at most */

static int me;
/* the message sizes: netio's range, 1 B to 32 KiB */
static const size_t sizes[] = {1, 4, 16, 64, 256, 1024, 4096, 16384, 32768};
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))

static void die(const char *what)
{
    fprintf(stderr, "ip_bench ue %d: %s: %s\n", me, what, strerror(errno));
    exit(1);
}

static void io_all(int s, void *buf, size_t n, int out)
{
    char *p = buf;

    while (n > 0) {
        ssize_t k = out ? write(s, p, n) : read(s, p, n);

        if (k < 0)
            die(out ? "write" : "read");
        if (k == 0)
            die("early end of stream");
        p += k;
        n -= (size_t)k;
    }
}

static struct sockaddr_in addr_of(int ue, int port)
{
    struct sockaddr_in a;
    uint32_t ip;

    memset(&a, 0, sizeof(a));
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    if (rck_ip_ue_addr(ue, &ip) != RCK_OK)
        die("rck_ip_ue_addr");
    a.sin_addr.s_addr = ip;
    return a;
}

static void report(const char *test, size_t size, double value, long n,
                   long lost)
{
    printf("ip_bench test=%s size=%zu value=%.6g n=%ld lost=%ld\n", test,
           size, value, n, lost);
    fflush(stdout);
}

static long count_for(size_t size, size_t total)
{
    long n = (long)(total / size);

    return n < 16 ? 16 : n > 20000 ? 20000 : n;
}

int main(int argc, char **argv)
{
    size_t max = 32768, total = 1 << 20, size;
    int rounds = 100, opt, one = 1, s, u;
    char *buf;
    struct sockaddr_in a;
    struct timeval tv = {2, 0};

    if (rck_ip_init() != RCK_OK) /* before RCCE_init: the MPB layout */
        return 1;
    RCCE_init(&argc, &argv);
    me = RCCE_ue();
    while ((opt = getopt(argc, argv, "s:t:r:")) != -1) {
        if (opt == 's')
            max = strtoul(optarg, NULL, 0);
        else if (opt == 't')
            total = strtoul(optarg, NULL, 0);
        else if (opt == 'r')
            rounds = atoi(optarg);
        else {
            fprintf(stderr, "usage: ip_bench [-s max] [-t bytes] [-r n]\n");
            return 2;
        }
    }
    if (RCCE_num_ues() != 2 || max < 1 || max > (1u << 20) || rounds < 1) {
        fprintf(stderr, "ip_bench: 2 UEs, -s 1..1048576, -r >= 1\n");
        return 2;
    }
    buf = calloc(1, max);
    if (!buf)
        die("calloc");
    /* RCCE's pingpong, the reference */
    for (size_t k = 0; k < NSIZES && (size = sizes[k]) <= max; k++) {
        double t0 = RCCE_wtime();

        for (int r = 0; r < rounds; r++) {
            if (me == 0) {
                RCCE_send(buf, size, 1);
                RCCE_recv(buf, size, 1);
            } else {
                RCCE_recv(buf, size, 0);
                RCCE_send(buf, size, 0);
            }
        }
        if (me == 0)
            report("rcce_lat", size, (RCCE_wtime() - t0) * 1e6 / rounds / 2,
                   rounds, 0);
    }
    /* the stream (TCP, or the bypass) */
    if (me == 1) {
        int l = socket(AF_INET, SOCK_STREAM, 0);

        a = addr_of(1, TCP_PORT);
        a.sin_addr.s_addr = htonl(INADDR_ANY);
        if (l < 0 || bind(l, (struct sockaddr *)&a, sizeof(a)) != 0 ||
            listen(l, 1) != 0)
            die("listen");
        RCCE_barrier(&RCCE_COMM_WORLD);
        s = accept(l, NULL, NULL);
        if (s < 0)
            die("accept");
        close(l);
    } else {
        RCCE_barrier(&RCCE_COMM_WORLD);
        s = socket(AF_INET, SOCK_STREAM, 0);
        a = addr_of(1, TCP_PORT);
        if (s < 0 || connect(s, (struct sockaddr *)&a, sizeof(a)) != 0)
            die("connect");
    }
    setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    for (size_t k = 0; k < NSIZES && (size = sizes[k]) <= max; k++) {
        long n = count_for(size, total);
        double t0 = rck_ip_wtime();

        for (int r = 0; r < rounds; r++) {
            io_all(s, buf, size, me == 0);
            io_all(s, buf, size, me != 0);
        }
        if (me == 0)
            report("stream_lat", size,
                   (rck_ip_wtime() - t0) * 1e6 / rounds / 2, rounds, 0);
        t0 = rck_ip_wtime();
        for (long i = 0; i < n; i++)
            io_all(s, buf, size, me == 0);
        io_all(s, buf, 1, me != 0);
        if (me == 0)
            report("stream_tput", size,
                   (double)size * n / (rck_ip_wtime() - t0) / 1e6, n, 0);
    }
    /* UDP: datagrams up to UDP_MAX */
    u = socket(AF_INET, SOCK_DGRAM, 0);
    a = addr_of(me, UDP_PORT);
    a.sin_addr.s_addr = htonl(INADDR_ANY);
    if (u < 0 || bind(u, (struct sockaddr *)&a, sizeof(a)) != 0)
        die("udp bind");
    setsockopt(u, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    a = addr_of(1 - me, UDP_PORT);
    for (size_t k = 0; k < NSIZES && (size = sizes[k]) <= max &&
                       size <= UDP_MAX;
         k++) {
        long n = count_for(size, total), got = 0;
        double t0;

        RCCE_barrier(&RCCE_COMM_WORLD);
        t0 = rck_ip_wtime();
        for (int r = 0; r < rounds; r++) {
            if (me == 0 && sendto(u, buf, size, 0, (struct sockaddr *)&a,
                                  sizeof(a)) != (ssize_t)size)
                die("sendto");
            if (recv(u, buf, size, 0) != (ssize_t)size)
                die("udp recv (lost datagram?)");
            if (me == 1 && sendto(u, buf, size, 0, (struct sockaddr *)&a,
                                  sizeof(a)) != (ssize_t)size)
                die("sendto");
        }
        if (me == 0)
            report("udp_lat", size,
                   (rck_ip_wtime() - t0) * 1e6 / rounds / 2, rounds, 0);
        RCCE_barrier(&RCCE_COMM_WORLD);
        t0 = rck_ip_wtime();
        if (me == 0) {
            for (long i = 0; i < n; i++)
                if (sendto(u, buf, size, 0, (struct sockaddr *)&a,
                           sizeof(a)) != (ssize_t)size)
                    die("sendto");
            io_all(s, buf, 1, 0); /* the server's count arrives by TCP */
            io_all(s, &got, sizeof(got), 0);
            report("udp_tput",
                   size, (double)size * got / (rck_ip_wtime() - t0) / 1e6, n,
                   n - got);
        } else {
            for (long i = 0; i < n; i++) {
                if (recv(u, buf, size, 0) < 0)
                    break; /* SO_RCVTIMEO: the rest were lost */
                got++;
            }
            io_all(s, buf, 1, 1);
            io_all(s, &got, sizeof(got), 1);
        }
    }
    close(u);
    close(s);
    free(buf);
    RCCE_finalize();
    return 0;
}
