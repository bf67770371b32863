/*
 * mbox_pingpong: round-trip latency of one-line mails (rck_mbox.h) between
 * UE 0 and UE 1, handler-driven or polled. Run on two cores chosen for
 * their distance, e.g.
 *
 *   rck run -n 2 --cores 0,47 --backend sim --compute none --no-prefix \
 *       -- mbox_pingpong -m handler -r 200
 *
 * UE 0 sends PING mails to UE 1, which answers each with a PONG:
 *
 *   -m handler  both UEs install a mail handler: UE 1's answers from inside
 *               its handler; UE 0 waits for the answer in rck_hal_wait(...,
 *               RCK_WAIT_IRQ) (the handler runs there and counts it);
 *   -m polled   no handlers: both receive with rck_mbox_recv.
 *
 * Before the timed loop: UE 1 mails READY once it is set up, and -w
 * warm-up round trips (default reps/10, at least 2). Per timed round trip
 * UE 0 reads the clock (rck_hal_wtime: virtual time on sim, host time on
 * native, one clock for the whole job) before and after its rck_mbox_send,
 * and after the PONG; the PING carries the time before the send, and UE 1
 * takes the time when the mail reaches it (handler entry, or the return of
 * rck_mbox_recv). The cost of an empty measurement (two consecutive clock
 * readings) is subtracted from the send and one-way figures. At the end UE
 * 0 mails DONE and UE 1 answers with its one-way mean and minimum.
 *
 * Output (UE 0), one line ('#' lines are comments):
 *
 *   mode=handler|polled peer_core=C hops=H reps=R core_mhz=M
 *       rtt_us=.. oneway_us=.. oneway_min_us=.. send_us=..
 *       rtt_cycles=.. oneway_cycles=.. oneway_min_cycles=.. send_cycles=..
 *
 * rtt: mean round trip; oneway: mean time from before UE 0's send to the
 * mail in UE 1's hands; send: mean duration of UE 0's rck_mbox_send (the
 * mailbox is always empty then: the sender's side only). Cycles are the
 * microseconds x core_mhz (the chip's base core clock).
 */
#include "rck/hal.h"
#include "rck_mbox.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TAG_READY = 1, TAG_PING, TAG_PONG, TAG_DONE, TAG_RESULT };

typedef struct {
    double t_send;  /* PING: UE 0's clock before the send */
    double seq;
} ping_t;

typedef struct {
    double oneway_sum, oneway_min, count;
} result_t;

static rck_hal_t *hal;
static double ovh;  /* an empty measurement (the least of 16), seconds */

/* state the handlers update */
static volatile int got_ready, got_pongs, got_done, got_result;
static result_t res;

static double now(void)
{
    double s = 0.0;
    rck_hal_wtime(hal, &s);
    return s;
}

static void die(const char *what, rck_status_t st)
{
    fprintf(stderr, "mbox_pingpong: UE %d: %s FAILED: %s\n", rck_mbox_ue(),
            what, rck_status_string(st));
    exit(EXIT_FAILURE);
}

static void sample(const rck_mail_t *m, double t)
{
    ping_t p;
    memcpy(&p, m->payload, sizeof p);
    if (p.seq < 0.0)
        return;  /* a warm-up round trip */
    double d = t - p.t_send - ovh;
    res.oneway_sum += d;
    if (res.count == 0.0 || d < res.oneway_min)
        res.oneway_min = d;
    res.count += 1.0;
}

/* UE 1 in handler mode: answer from inside the handler. */
static void ponger(const rck_mail_t *m, void *arg)
{
    double t = now();
    rck_status_t st;
    (void)arg;
    switch (m->tag) {
    case TAG_PING:
        sample(m, t);
        st = rck_mbox_send(0, TAG_PONG, m->payload, m->len);
        if (st != RCK_OK)
            die("rck_mbox_send (handler)", st);
        break;
    case TAG_DONE:
        got_done = 1;
        break;
    default:
        break;
    }
}

/* UE 0 in handler mode: count. */
static void pinger(const rck_mail_t *m, void *arg)
{
    (void)arg;
    if (m->tag == TAG_READY)
        got_ready = 1;
    else if (m->tag == TAG_PONG)
        got_pongs++;
    else if (m->tag == TAG_RESULT) {
        memcpy(&res, m->payload, sizeof res);
        got_result = 1;
    }
}

/* Handler mode: block (taking interrupts) until *flag reaches value. */
static void wait_for(volatile int *flag, int value)
{
    while (*flag < value) {
        rck_status_t st = rck_hal_wait(hal, NULL, 0, RCK_WAIT_IRQ, -1, NULL);
        if (st != RCK_OK && st != RCK_INTERRUPTED)
            die("rck_hal_wait", st);
    }
}

/* Polled mode: the next mail, which must have tag @p tag. */
static void recv_tag(rck_mail_t *m, uint16_t tag)
{
    rck_status_t st = rck_mbox_recv(m, -1);
    if (st != RCK_OK)
        die("rck_mbox_recv", st);
    if (m->tag != tag) {
        fprintf(stderr, "mbox_pingpong: UE %d: got tag %u, expected %u\n",
                rck_mbox_ue(), m->tag, tag);
        exit(EXIT_FAILURE);
    }
}

static void send(int dest, uint16_t tag, const void *data, size_t len)
{
    rck_status_t st = rck_mbox_send(dest, tag, data, len);
    if (st != RCK_OK)
        die("rck_mbox_send", st);
}

static void serve(int handler)
{
    rck_mail_t m;
    if (handler) {
        wait_for(&got_done, 1);
    } else {
        for (;;) {
            rck_status_t st = rck_mbox_recv(&m, -1);
            double t = now();
            if (st != RCK_OK)
                die("rck_mbox_recv", st);
            if (m.tag == TAG_DONE)
                break;
            if (m.tag == TAG_PING) {
                sample(&m, t);
                send(0, TAG_PONG, m.payload, m.len);
            }
        }
    }
    /* the mail is already in hand; the handler is out of the way */
    send(0, TAG_RESULT, &res, sizeof res);
}

static int usage(void)
{
    fprintf(stderr, "usage: mbox_pingpong [-m handler|polled] [-r REPS] "
            "[-w WARMUP]  (2 UEs)\n");
    return 2;
}

int main(int argc, char **argv)
{
    int handler = 1, reps = 1000, warm = -1;
    for (int i = 1; i < argc; i++) {
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!val)
            return usage();
        if (strcmp(argv[i], "-m") == 0) {
            if (strcmp(val, "handler") == 0)
                handler = 1;
            else if (strcmp(val, "polled") == 0)
                handler = 0;
            else
                return usage();
        } else if (strcmp(argv[i], "-r") == 0) {
            reps = atoi(val);
        } else if (strcmp(argv[i], "-w") == 0) {
            warm = atoi(val);
        } else {
            return usage();
        }
        i++;
    }
    if (reps < 1)
        return usage();
    if (warm < 0)
        warm = reps / 10 > 2 ? reps / 10 : 2;

    rck_status_t st = rck_mbox_init();
    if (st != RCK_OK)
        die("rck_mbox_init", st);
    hal = rck_hal_self();
    int me = rck_mbox_ue();
    if (rck_mbox_num_ues() != 2) {
        if (me == 0)
            fprintf(stderr, "mbox_pingpong: run it on 2 UEs (rck run -n 2 "
                    "--cores 0,K)\n");
        return 2;
    }
    for (int i = 0; i < 16; i++) {
        double a = now(), b = now();
        if (i == 0 || b - a < ovh)
            ovh = b - a;
    }
    if (handler) {
        st = rck_mbox_set_handler(me == 0 ? pinger : ponger, NULL);
        if (st != RCK_OK)
            die("rck_mbox_set_handler", st);
    }

    if (me == 1) {
        send(0, TAG_READY, NULL, 0);
        serve(handler);
        rck_mbox_finalize();
        return EXIT_SUCCESS;
    }

    rck_mail_t m;
    if (handler)
        wait_for(&got_ready, 1);
    else
        recv_tag(&m, TAG_READY);

    double send_sum = 0.0, t0 = 0.0;
    for (int r = -warm; r < reps; r++) {
        if (r == 0)
            t0 = now();
        ping_t p = {.seq = r};  /* warm-up: seq < 0, not sampled */
        p.t_send = now();
        send(1, TAG_PING, &p, sizeof p);
        send_sum += r >= 0 ? now() - p.t_send - ovh : 0.0;
        if (handler)
            wait_for(&got_pongs, warm + r + 1);
        else
            recv_tag(&m, TAG_PONG);
    }
    double rtt = (now() - t0) / reps;
    send(1, TAG_DONE, NULL, 0);
    if (handler) {
        wait_for(&got_result, 1);
    } else {
        recv_tag(&m, TAG_RESULT);
        memcpy(&res, m.payload, sizeof res);
    }
    double oneway = res.count > 0.0 ? res.oneway_sum / res.count : 0.0;
    double mhz = hal->chip.core_mhz;
    double send_s = send_sum / reps;
    int peer = hal->ue_core[1];
    printf("mode=%s peer_core=%d hops=%d reps=%d core_mhz=%.0f "
           "rtt_us=%.4f oneway_us=%.4f oneway_min_us=%.4f send_us=%.4f "
           "rtt_cycles=%.1f oneway_cycles=%.1f oneway_min_cycles=%.1f "
           "send_cycles=%.1f\n",
           handler ? "handler" : "polled", peer,
           rck_chip_hops(&hal->chip, hal->core, peer), reps, mhz,
           rtt * 1e6, oneway * 1e6, res.oneway_min * 1e6, send_s * 1e6,
           rtt * mhz * 1e6, oneway * mhz * 1e6, res.oneway_min * mhz * 1e6,
           send_s * mhz * 1e6);
    fflush(stdout);
    rck_mbox_finalize();
    return EXIT_SUCCESS;
}
