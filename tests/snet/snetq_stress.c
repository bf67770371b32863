/*
 * snetq_stress.c: the scc layer's transport (include/rck_snetq.h) under
 * pressure. Every UE first sends N messages to every other UE, without
 * receiving any, then receives them all and checks each one's bytes and the
 * order per sender. The rings (4 KiB) fill after a few dozen messages, so
 * every sender waits for room while its partners wait too: it must drain its
 * own ring meanwhile, or the run deadlocks (the HAL reports "every core is
 * waiting"). Lengths from 0 bytes to past the per-UE slab of shared DRAM go
 * inline, by reference and by reference in pieces.
 *
 *   snetq_stress N [MAX]  (prints "snetq_stress: OK" on UE 0); MAX: the
 *   longest message (default 9 MiB, past the slab of a 64 MiB window)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "RCCE.h"
#include "rck_snetq.h"

static size_t maxlen = 9u << 20;

static size_t length(int i)
{
    static const size_t lens[] = {0, 1, 28, 200, 2016, 2017, 4000, 70000, 0};
    int k = i % (int)(sizeof(lens) / sizeof(lens[0]));
    return k == 8 ? maxlen : lens[k];
}

static unsigned char byte(int src, int dst, int i, size_t k)
{
    return (unsigned char)(src * 131 + dst * 17 + i * 7 + k);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 200;
    if (argc > 2)
        maxlen = (size_t)atol(argv[2]);
    rck_status_t st = rck_snetq_init();
    if (st != RCK_OK) {
        fprintf(stderr, "snetq_stress: init: %s\n", rck_status_string(st));
        return 1;
    }
    RCCE_init(&argc, &argv);
    int me = rck_snetq_ue(), nues = rck_snetq_num_ues();
    unsigned char *buf = malloc(maxlen > 70000 ? maxlen : 70000);
    for (int i = 0; i < n; i++)
        for (int d = 0; d < nues; d++) {
            if (d == me)
                continue;
            size_t len = length(i);
            for (size_t k = 0; k < len; k++)
                buf[k] = byte(me, d, i, k);
            size_t h = len < 5 ? len : 5; /* two parts: 5 bytes, the rest */
            if ((st = rck_snetq_send(d, buf, h, buf + h, len - h)) !=
                RCK_OK) {
                fprintf(stderr, "snetq_stress: send: %s\n",
                        rck_status_string(st));
                return 1;
            }
        }
    int *next = calloc((size_t)nues, sizeof(int));
    for (int got = 0; got < n * (nues - 1); got++) {
        int src;
        void *data;
        size_t len;
        if ((st = rck_snetq_recv(&src, &data, &len, -1)) != RCK_OK) {
            fprintf(stderr, "snetq_stress: recv: %s\n",
                    rck_status_string(st));
            return 1;
        }
        int i = next[src]++;
        if (len != length(i)) {
            fprintf(stderr, "snetq_stress: message %d from UE %d: %zu bytes, "
                    "expected %zu\n", i, src, len, length(i));
            return 1;
        }
        for (size_t k = 0; k < len; k++)
            if (((unsigned char *)data)[k] != byte(src, me, i, k)) {
                fprintf(stderr, "snetq_stress: message %d from UE %d: byte "
                        "%zu wrong\n", i, src, k);
                return 1;
            }
        free(data);
    }
    rck_snetq_stats_t s;
    rck_snetq_stats(&s);
    printf("snetq_stress: UE %d sent %llu (%llu by reference), waited for "
           "room %llu times\n", me, (unsigned long long)s.sent,
           (unsigned long long)s.by_reference,
           (unsigned long long)s.ring_full_waits);
    RCCE_barrier(&RCCE_COMM_WORLD);
    if (me == 0)
        printf("snetq_stress: OK\n");
    rck_snetq_finalize();
    RCCE_finalize();
    free(buf);
    free(next);
    return 0;
}
