/*
 * snet_bench.c: the per-record cost of librcksnet on one core (the `snet`
 * suite of python/src/rockcreek/bench). Three networks of one box, work(), that reads
 * its field's first and last byte, bumps the first and emits the field
 * again (no copy):
 *
 *   pipeline10  work .. work .. ... (10 boxes)
 *   farm48      work ! <w>, records tagged w = i % 48 (48 replicas)
 *   star10      work * {<done>}: work ten times through replicas made on
 *               demand (the box tags <done> the tenth time)
 *
 * beside hand-written C loops that make the same field and call the box's
 * work the same number of times (10, 1, 10). Records of 8 B, 64 B, 1 KiB,
 * 16 KiB, 256 KiB and 1 MiB (those between -m and -s), each field made (C4SNetAlloc) and freed per
 * record in every variant. The networks are built through the
 * constructors the generated code calls and fed through the embedding API
 * (rcksnet_instance_feed): the record format is not measured.
 *
 * The alternative design the runtime did not take, measured beside it:
 * threads10, ten host threads joined by bounded FIFO streams (capacity 16,
 * mutex and condition variables) each calling work() on every field, as a
 * thread-per-entity runtime would run the pipeline (native only; the sim
 * charges a UE's compute by its own thread, docs/SIM.md).
 *
 * Output: "net=<name> size=<bytes> records=<n> us_per_record=<us>
 * records_per_s=<r>" per network and size ("loop10", "loop1" for the
 * hand-written loops). Run: rck run -n 1 --backend native ./snet_bench
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "RCCE.h"
#include "snet/rcksnet.h"

enum { L_X, L_W, L_K, L_DONE };
static const char *const labels[] = {"x", "w", "k", "done"};

static volatile unsigned sink;

/* the box's work on its field */
static void touch(c4snet_data_t *x)
{
    unsigned char *p = C4SNetGetData(x);
    size_t n = C4SNetArraySize(x);
    sink += p[n - 1];
    p[0]++;
}

/* box (x) -> (x) */
static void *work(void *hnd, c4snet_data_t *x)
{
    touch(x);
    C4SNetOut(hnd, 1, x);
    return hnd;
}

/* box (x, <k>) -> (x, <k>) | (x, <done>): ten times round */
static void *work_k(void *hnd, c4snet_data_t *x, int k)
{
    touch(x);
    if (k + 1 < 10)
        C4SNetOut(hnd, 1, x, k + 1);
    else
        C4SNetOut(hnd, 2, x, 1);
    return hnd;
}

static void w_work(void *hnd, rcksnet_record_t *r)
{
    work(hnd, rcksnet_take_field(r, L_X));
}

static void w_work_k(void *hnd, rcksnet_record_t *r)
{
    work_k(hnd, rcksnet_take_field(r, L_X), rcksnet_tag(r, L_K));
}

static const rcksnet_entry_t e_x[] = {{RCKSNET_FIELD, L_X}};
static const rcksnet_variant_t v_x = {1, e_x};
static const rcksnet_variant_t *const tv_x[] = {&v_x};
static const rcksnet_type_t t_x = {1, tv_x};
static const rcksnet_entry_t e_xk[] = {{RCKSNET_FIELD, L_X},
                                       {RCKSNET_TAG, L_K}};
static const rcksnet_variant_t v_xk = {2, e_xk};
static const rcksnet_entry_t e_xd[] = {{RCKSNET_FIELD, L_X},
                                       {RCKSNET_TAG, L_DONE}};
static const rcksnet_variant_t v_xd = {2, e_xd};
static const rcksnet_variant_t *const tv_k[] = {&v_xk, &v_xd};
static const rcksnet_type_t t_k = {2, tv_k};
static const rcksnet_entry_t e_d[] = {{RCKSNET_TAG, L_DONE}};
static const rcksnet_variant_t v_d = {1, e_d};
static const rcksnet_variant_t *const tv_d[] = {&v_d};
static const rcksnet_type_t t_d = {1, tv_d};

static rcksnet_node_t *box(void)
{
    return rcksnet_box("work", "bench:work", w_work, &v_x, &t_x);
}

static rcksnet_node_t *pipeline10(void)
{
    rcksnet_node_t *n = box();
    for (int i = 1; i < 10; i++)
        n = rcksnet_serial("bench:..", n, box());
    return n;
}

static rcksnet_node_t *farm48(void)
{
    return rcksnet_split("bench:!", 0, box(), L_W);
}

static rcksnet_node_t *star10(void)
{
    rcksnet_node_t *b =
        rcksnet_box("work_k", "bench:work_k", w_work_k, &v_xk, &t_k);
    return rcksnet_star("bench:*", 0, b, &t_d, NULL);
}

static long outputs;

static void emit(void *arg, rcksnet_record_t *r)
{
    (void)arg;
    outputs++;
    rcksnet_record_free(r);
}

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static c4snet_data_t *field(size_t size)
{
    void *p;
    c4snet_data_t *x = C4SNetAlloc(CTYPE_uchar, size, &p);
    memset(p, 1, size < 64 ? size : 64);
    ((unsigned char *)p)[size - 1] = 2;
    return x;
}

/* the network: records/s over n records */
static double run_net(rcksnet_node_t *net, int kind, size_t size, long n)
{
    rcksnet_instance_t *in = rcksnet_instance_new(labels, 4, net, emit, NULL);
    outputs = 0;
    double t0 = now_us();
    for (long i = 0; i < n; i++) {
        rcksnet_record_t *r = rcksnet_record_new();
        rcksnet_set_field(r, L_X, field(size));
        if (kind == 1)
            rcksnet_set_tag(r, RCKSNET_TAG, L_W, (int)(i % 48));
        if (kind == 2)
            rcksnet_set_tag(r, RCKSNET_TAG, L_K, 0);
        rcksnet_instance_feed(in, r);
    }
    double t = now_us() - t0;
    rcksnet_instance_free(in);
    if (outputs != n) {
        fprintf(stderr, "snet_bench: %ld records out of %ld\n", outputs, n);
        exit(1);
    }
    return t;
}

static double run_loop(int calls, size_t size, long n)
{
    double t0 = now_us();
    for (long i = 0; i < n; i++) {
        c4snet_data_t *x = field(size);
        for (int c = 0; c < calls; c++)
            touch(x);
        C4SNetFree(x);
    }
    return now_us() - t0;
}

/* ---- ten threads joined by bounded streams --------------------------- */

#define QCAP 16
typedef struct {
    pthread_mutex_t m;
    pthread_cond_t not_empty, not_full;
    c4snet_data_t *q[QCAP];
    int head, n;
} stream_t;

static void put(stream_t *s, c4snet_data_t *x)
{
    pthread_mutex_lock(&s->m);
    while (s->n == QCAP)
        pthread_cond_wait(&s->not_full, &s->m);
    s->q[(s->head + s->n++) % QCAP] = x;
    pthread_cond_signal(&s->not_empty);
    pthread_mutex_unlock(&s->m);
}

static c4snet_data_t *get(stream_t *s)
{
    pthread_mutex_lock(&s->m);
    while (s->n == 0)
        pthread_cond_wait(&s->not_empty, &s->m);
    c4snet_data_t *x = s->q[s->head];
    s->head = (s->head + 1) % QCAP;
    s->n--;
    pthread_cond_signal(&s->not_full);
    pthread_mutex_unlock(&s->m);
    return x;
}

static stream_t streams[11];

static void *stage(void *arg)
{
    stream_t *in = arg, *out = in + 1;
    for (;;) {
        c4snet_data_t *x = get(in);
        if (x != NULL)
            touch(x);
        put(out, x);
        if (x == NULL) /* the end */
            return NULL;
    }
}

static double run_threads(size_t size, long n)
{
    pthread_t t[10];
    for (int i = 0; i < 11; i++) {
        memset(&streams[i], 0, sizeof(streams[i]));
        pthread_mutex_init(&streams[i].m, NULL);
        pthread_cond_init(&streams[i].not_empty, NULL);
        pthread_cond_init(&streams[i].not_full, NULL);
    }
    for (int i = 0; i < 10; i++)
        if (pthread_create(&t[i], NULL, stage, &streams[i]) != 0) {
            fprintf(stderr, "snet_bench: pthread_create failed\n");
            exit(1);
        }
    double t0 = now_us();
    long got = 0;
    for (long i = 0; i < n || got < n;) {
        if (i < n && (streams[0].n < QCAP || got == i)) {
            put(&streams[0], field(size));
            i++;
            continue;
        }
        C4SNetFree(get(&streams[10]));
        got++;
    }
    double us = now_us() - t0;
    put(&streams[0], NULL);
    get(&streams[10]);
    for (int i = 0; i < 10; i++)
        pthread_join(t[i], NULL);
    return us;
}

static void report(const char *name, size_t size, long n, double us)
{
    printf("net=%s size=%zu records=%ld us_per_record=%.4f "
           "records_per_s=%.1f\n", name, size, n, us / n, n / (us / 1e6));
}

int RCCE_APP(int argc, char **argv)
{
    if (RCCE_init(&argc, &argv) != RCCE_SUCCESS) {
        fprintf(stderr, "snet_bench: RCCE_init failed\n");
        return 1;
    }
    size_t min = 8, max = (size_t)1 << 20;
    double scale = 1.0;
    int threads_off = 0; /* -t 0: no thread pipeline */
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "-m"))
            min = strtoul(argv[i + 1], NULL, 0);
        else if (!strcmp(argv[i], "-s"))
            max = strtoul(argv[i + 1], NULL, 0);
        else if (!strcmp(argv[i], "-r"))
            scale = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "-t"))
            threads_off = !atoi(argv[i + 1]);
    }
    if (min < 1)
        min = 1;
    if (RCCE_ue() == 0) {
        printf("# snet_bench: per-record cost on one core, us\n");
        static const size_t sizes[] = {8, 64, 1024, 16384, 262144, 1048576};
        for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
            size_t size = sizes[si];
            if (size < min || size > max)
                continue;
            /* fewer records for the large ones: ~1 GB of fields each */
            long n = (long)(scale * (size <= 16384 ? 100000.0
                                                   : 1.6e9 / (double)size));
            if (n < 20)
                n = 20;
            report("pipeline10", size, n, run_net(pipeline10(), 0, size, n));
            report("loop10", size, n, run_loop(10, size, n));
            if (!threads_off)
                report("threads10", size, n, run_threads(size, n));
            report("farm48", size, n, run_net(farm48(), 1, size, n));
            report("loop1", size, n, run_loop(1, size, n));
            report("star10", size, n, run_net(star10(), 2, size, n));
            fflush(stdout);
        }
    }
    RCCE_finalize();
    return 0;
}
