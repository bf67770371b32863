/*
 * chan_bench: what notification costs on rck_chan channels (ring of ids,
 * two-level tree, polling) between UE 0 and UE 1, on the backend it runs
 * on, and the channels' throughput. Run on two cores chosen for their
 * distance, e.g.
 *
 *   rck run -n 2 --cores 0,47 --backend sim --compute none --no-prefix \
 *       -- chan_bench
 *   rck run -n 2 --backend native --no-prefix -- chan_bench -r 5000
 *
 * For each notification kind K (poll, ring, tree) the two UEs open one
 * channel whose both directions notify with K, then:
 *
 *  1. round trips: UE 0 sends a one-line message (16 bytes: a timestamp
 *     and a number) and waits for the answer with rck_chan_dispatch +
 *     rck_chan_recv; UE 1 does the same and answers at once. After
 *     warm-up (reps/10, at least 2), reps timed round trips.
 *  2. receiver cost: UE 0 sends one message; UE 1 first sleeps in the HAL
 *     (SLEEP_NS) so the message and its interrupt have surely arrived (the
 *     interrupt is taken in that sleep), then times rck_chan_dispatch +
 *     rck_chan_recv, and answers; reps times.
 *  3. throughput: UE 0 sends msgs messages of 64 B, then of 64 KiB (bulk
 *     path), back to back with rck_chan_send; UE 1 takes them with
 *     rck_chan_dispatch + rck_chan_try_recv and answers the last one; UE 0
 *     times from before the first send to the answer.
 *
 * Clocks: rck_hal_wtime (virtual time on sim, host time on native; one
 * clock for the whole job) for anything that crosses cores, rck_hal_cycles
 * (the core's own clock: virtual cycles on sim, host time x core MHz on
 * native) for durations on one core, less an empty measurement (the
 * cheapest of 64 pairs of consecutive readings). Cycles are at the chip's
 * base core clock (core_mhz).
 *
 * OUTPUT (UE 0, one result per line; '#' lines are comments; keys may be
 * added at the end of a line, never removed or renamed):
 *
 *   id=info backend=<name> core_mhz=<MHz> ue1_core=<core> hops=<n>
 *       reps=<n> msgs_small=<n> msgs_large=<n>
 *   id=notify.<kind> reps=<n> rtt_cycles=<mean round trip>
 *       oneway_cycles=<mean, from before UE 0's send to the message in
 *       UE 1's hands> send_cycles=<mean duration of UE 0's rck_chan_send
 *       of one line> notify_send_cycles=<send_cycles minus poll's: what
 *       notifying adds on the sender> rx_cycles=<mean duration of UE 1's
 *       rck_chan_dispatch + rck_chan_recv with the message there>
 *       notify_rx_cycles=<rx_cycles minus poll's> rtt_us=<..>
 *       oneway_us=<..> interrupts=<pin interrupts UE 1 took, all phases>
 *   id=tput.<kind>.<size> bytes=<message size> msgs=<n>
 *       cycles_per_msg=<cycles per message> us_per_msg=<..>
 *       mib_s=<payload MiB per second of the job's clock>
 *
 *   kind: poll | ring | tree; size: 64B | 64KiB. notify_*_cycles are 0 for
 *   poll itself (poll runs first). An error ends the run with a line
 *   "id=error what=<text>" and exit status 1.
 *
 * Options: -r REPS (round trips and receiver samples; default 2000 native,
 * 200 sim), -s MSGS (64 B messages; default 4000 / 400), -l MSGS (64 KiB
 * messages; default 200 / 20), -k KIND (only that kind; poll is still run
 * first for the notify_* differences).
 */
#include "rck/hal.h"
#include "rck_chan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SLEEP_NS 20000
#define LARGE (64u << 10)

enum { T_PING = 1, T_PONG, T_DATA, T_ACK, T_RESULT };

typedef struct {
    double t;       /* UE 0's wtime before the send */
    uint32_t no;
    uint32_t pad;
} ping_t;

typedef struct {
    double oneway_s; /* sum over the timed round trips */
    double rx_cycles; /* sum of receiver costs */
    uint64_t interrupts;
} result_t;

static rck_hal_t *hal;
static double ovh_cycles;

static void die(const char *what, rck_status_t st)
{
    printf("id=error what=%s:%s\n", what, rck_status_string(st));
    fflush(stdout);
    exit(1);
}

#define OK(call)                                                              \
    do {                                                                      \
        rck_status_t st_ = (call);                                            \
        if (st_ != RCK_OK)                                                    \
            die(#call, st_);                                                  \
    } while (0)

static double now_s(void)
{
    double t = 0;
    OK(rck_hal_wtime(hal, &t));
    return t;
}

static uint64_t cycles(void)
{
    uint64_t c = 0;
    OK(rck_hal_cycles(hal, &c));
    return c;
}

/* Wait for the next message of @p ch and take it. */
static void take(rck_chan_t ch, uint16_t want, void *buf, size_t cap)
{
    rck_chan_t r;
    uint16_t type;
    size_t len;

    do {
        OK(rck_chan_dispatch(-1, &r));
    } while (r != ch);
    OK(rck_chan_recv(ch, &type, buf, cap, &len, 0));
    if (type != want)
        die("unexpected message type", RCK_ERR_IO);
}

static void sleep_ns(int64_t ns)
{
    rck_status_t st = rck_hal_wait(hal, NULL, 0, 0, ns, NULL);
    if (st != RCK_ERR_TIMEDOUT)
        die("sleep", st);
}

int main(int argc, char **argv)
{
    static const rck_chan_notify_t kinds[] = {
        RCK_CHAN_NOTIFY_POLL, RCK_CHAN_NOTIFY_RING, RCK_CHAN_NOTIFY_TREE};
    rck_chan_notify_t only = RCK_CHAN_NOTIFY_DEFAULT;
    int reps = 0, msgs_small = 0, msgs_large = 0, sim, opt, me;
    double poll_send = 0, poll_rx = 0, mhz;
    unsigned char *big;

    while ((opt = getopt(argc, argv, "r:s:l:k:")) != -1) {
        switch (opt) {
        case 'r':
            reps = atoi(optarg);
            break;
        case 's':
            msgs_small = atoi(optarg);
            break;
        case 'l':
            msgs_large = atoi(optarg);
            break;
        case 'k':
            only = !strcmp(optarg, "ring")   ? RCK_CHAN_NOTIFY_RING
                   : !strcmp(optarg, "tree") ? RCK_CHAN_NOTIFY_TREE
                                             : RCK_CHAN_NOTIFY_POLL;
            break;
        default:
            fprintf(stderr, "usage: %s [-r REPS] [-s MSGS] [-l MSGS] "
                            "[-k poll|ring|tree]\n",
                    argv[0]);
            return 2;
        }
    }
    OK(rck_chan_init(NULL));
    hal = rck_hal_self();
    if (hal == NULL || hal->nues != 2) {
        printf("id=error what=needs_2_UEs\n");
        return 1;
    }
    me = hal->ue;
    sim = !strcmp(hal->ops->name, "sim");
    mhz = hal->chip.core_mhz;
    if (reps <= 0)
        reps = sim ? 200 : 2000;
    if (msgs_small <= 0)
        msgs_small = sim ? 400 : 4000;
    if (msgs_large <= 0)
        msgs_large = sim ? 20 : 200;
    big = calloc(1, LARGE);
    if (big == NULL)
        die("calloc", RCK_ERR_NOMEM);
    /* the empty measurement: the cheapest of many, so that a cold first
     * reading does not make every duration negative */
    ovh_cycles = 1e30;
    for (int i = 0; i < 64; i++) {
        uint64_t a = cycles(), b = cycles();
        if ((double)(b - a) < ovh_cycles)
            ovh_cycles = (double)(b - a);
    }
    if (me == 0) {
        setvbuf(stdout, NULL, _IOLBF, 0);
        printf("# chan_bench: notification cost and throughput of rck_chan "
               "(bench/chan/chan_bench.c)\n");
        printf("id=info backend=%s core_mhz=%.0f ue1_core=%d hops=%d "
               "reps=%d msgs_small=%d msgs_large=%d\n",
               hal->ops->name, mhz, hal->ue_core[1],
               rck_chip_hops(&hal->chip, hal->ue_core[0], hal->ue_core[1]),
               reps, msgs_small, msgs_large);
    }

    for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
        rck_chan_notify_t kind = kinds[k];
        rck_chan_open_attr_t oa;
        rck_chan_stats_t s0, s1;
        rck_chan_t ch;
        int warm = reps / 10 > 2 ? reps / 10 : 2;
        ping_t p;

        if (only != RCK_CHAN_NOTIFY_DEFAULT && kind != only &&
            kind != RCK_CHAN_NOTIFY_POLL)
            continue;
        rck_chan_open_attr_init(&oa);
        oa.notify = kind;
        OK(rck_chan_open_ex(me ^ 1, (uint32_t)kind, &oa, &ch));
        rck_chan_stats(&s0);

        if (me == 0) {
            double rtt = 0, send = 0, t0;
            result_t res;
            uint64_t c0, c1;

            /* 1. round trips */
            for (int i = 0; i < warm + reps; i++) {
                p.no = (uint32_t)i;
                t0 = now_s();
                p.t = t0;
                c0 = cycles();
                OK(rck_chan_send(ch, T_PING, &p, sizeof(p)));
                c1 = cycles();
                take(ch, T_PONG, &p, sizeof(p));
                if (i >= warm) {
                    rtt += now_s() - t0;
                    send += (double)(c1 - c0) - ovh_cycles;
                }
            }
            /* 2. receiver cost */
            for (int i = 0; i < reps; i++) {
                OK(rck_chan_send(ch, T_PING, &p, sizeof(p)));
                take(ch, T_PONG, &p, sizeof(p));
            }
            take(ch, T_RESULT, &res, sizeof(res));
            rtt /= reps;
            send /= reps;
            res.oneway_s /= reps;
            res.rx_cycles /= reps;
            if (kind == RCK_CHAN_NOTIFY_POLL) {
                poll_send = send;
                poll_rx = res.rx_cycles;
            }
            printf("id=notify.%s reps=%d rtt_cycles=%.1f oneway_cycles=%.1f "
                   "send_cycles=%.1f notify_send_cycles=%.1f rx_cycles=%.1f "
                   "notify_rx_cycles=%.1f rtt_us=%.3f oneway_us=%.3f "
                   "interrupts=%llu\n",
                   rck_chan_notify_name(kind), reps, rtt * mhz * 1e6,
                   res.oneway_s * mhz * 1e6, send, send - poll_send,
                   res.rx_cycles, res.rx_cycles - poll_rx, rtt * 1e6,
                   res.oneway_s * 1e6, (unsigned long long)res.interrupts);
            /* 3. throughput */
            for (int big_msgs = 0; big_msgs < 2; big_msgs++) {
                size_t size = big_msgs ? LARGE : 64;
                int n = big_msgs ? msgs_large : msgs_small;
                double dt;

                t0 = now_s();
                for (int i = 0; i < n; i++)
                    OK(rck_chan_send(ch, T_DATA, big, size));
                take(ch, T_ACK, &p, sizeof(p));
                dt = now_s() - t0;
                printf("id=tput.%s.%s bytes=%zu msgs=%d cycles_per_msg=%.1f "
                       "us_per_msg=%.3f mib_s=%.2f\n",
                       rck_chan_notify_name(kind), big_msgs ? "64KiB" : "64B",
                       size, n, dt / n * mhz * 1e6, dt / n * 1e6,
                       (double)size * n / dt / (1024.0 * 1024.0));
            }
        } else {
            result_t res;
            uint64_t c0, c1;

            memset(&res, 0, sizeof(res));
            for (int i = 0; i < warm + reps; i++) {
                take(ch, T_PING, &p, sizeof(p));
                if (i >= warm)
                    res.oneway_s += now_s() - p.t;
                OK(rck_chan_send(ch, T_PONG, &p, sizeof(p)));
            }
            for (int i = 0; i < reps; i++) {
                sleep_ns(SLEEP_NS);
                c0 = cycles();
                take(ch, T_PING, &p, sizeof(p));
                c1 = cycles();
                res.rx_cycles += (double)(c1 - c0) - ovh_cycles;
                OK(rck_chan_send(ch, T_PONG, &p, sizeof(p)));
            }
            rck_chan_stats(&s1);
            res.interrupts = s1.interrupts - s0.interrupts;
            OK(rck_chan_send(ch, T_RESULT, &res, sizeof(res)));
            for (int big_msgs = 0; big_msgs < 2; big_msgs++) {
                size_t size = big_msgs ? LARGE : 64;
                int n = big_msgs ? msgs_large : msgs_small, got = 0;

                while (got < n) {
                    rck_chan_t r;
                    uint16_t type;
                    size_t len;
                    rck_status_t st;

                    OK(rck_chan_dispatch(-1, &r));
                    while ((st = rck_chan_try_recv(ch, &type, big, LARGE,
                                                   &len)) == RCK_OK) {
                        if (type != T_DATA || len != size)
                            die("throughput message", RCK_ERR_IO);
                        got++;
                    }
                    if (st != RCK_ERR_NOT_FOUND)
                        die("rck_chan_try_recv", st);
                }
                OK(rck_chan_send(ch, T_ACK, &p, sizeof(p)));
            }
        }
        /* UE 1 closes once UE 0 has everything; UE 0 waits for that */
        if (me == 1) {
            OK(rck_chan_close(ch));
        } else {
            size_t len;
            rck_status_t st = rck_chan_recv(ch, NULL, NULL, 0, &len, -1);
            if (st != RCK_ERR_STATE)
                die("waiting for the close", st);
            OK(rck_chan_close(ch));
        }
    }
    OK(rck_chan_finalize());
    free(big);
    return 0;
}
