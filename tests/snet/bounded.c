/*
 * bounded.c: librcksnet runs in bounded memory however many records one
 * input causes (docs/SNET.md, "Scheduling"). Three networks built through
 * the constructors, each fed one record:
 *   flood .. pass       flood emits <n> records per input
 *   unfold * {<leaf>}   each firing emits 10 records {<d> - 1} down to
 *                       <d> = 0, which emits {<leaf>}: 10^d leaves
 *   unfold \ {<d>}      the same as a feedback loop
 * first with the small count, then with the large one; the peak RSS
 * (getrusage) after the large runs must exceed the one after the small
 * runs by less than a few MiB (the old per-firing lists held every record
 * one input caused: about 100 bytes each, 1 GB for 10^7).
 * Run: rck run -n 1 ./snet_bounded SMALL_EXP LARGE_EXP   (10^exp records)
 * or   rck run -n 1 ./snet_bounded deep LEVELS: the star and the feedback
 * loop go LEVELS levels deep with one record (fan-out 1).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "RCCE.h"
#include "snet/rcksnet.h"

enum { L_X, L_N, L_I, L_D, L_LEAF };
static const char *const labels[] = {"x", "n", "i", "d", "leaf"};

/* box flood((x, <n>) -> (x, <i>)): <n> records, i = 0 .. n-1 */
static void w_flood(void *hnd, rcksnet_record_t *r)
{
    c4snet_data_t *x = rcksnet_take_field(r, L_X);
    int n = rcksnet_tag(r, L_N);
    for (int i = 0; i < n; i++)
        C4SNetOut(hnd, 1, C4SNetShallowCopy(x), i);
    C4SNetFree(x);
}

/* box pass((x, <i>) -> (x, <i>)) */
static void w_pass(void *hnd, rcksnet_record_t *r)
{
    C4SNetOut(hnd, 1, rcksnet_take_field(r, L_X), rcksnet_tag(r, L_I));
}

/* box unfold((<d>) -> (<d>) | (<leaf>)): fan records {<d> - 1} */
static int fan = 10;

static void w_unfold(void *hnd, rcksnet_record_t *r)
{
    int d = rcksnet_tag(r, L_D);
    if (d == 0)
        C4SNetOut(hnd, 2, 1);
    else
        for (int k = 0; k < fan; k++)
            C4SNetOut(hnd, 1, d - 1);
}

static const rcksnet_entry_t e_xn[] = {{RCKSNET_FIELD, L_X},
                                       {RCKSNET_TAG, L_N}};
static const rcksnet_variant_t v_xn = {2, e_xn};
static const rcksnet_entry_t e_xi[] = {{RCKSNET_FIELD, L_X},
                                       {RCKSNET_TAG, L_I}};
static const rcksnet_variant_t v_xi = {2, e_xi};
static const rcksnet_variant_t *const tv_xi[] = {&v_xi};
static const rcksnet_type_t t_xi = {1, tv_xi};
static const rcksnet_entry_t e_d[] = {{RCKSNET_TAG, L_D}};
static const rcksnet_variant_t v_d = {1, e_d};
static const rcksnet_variant_t *const tv_d[] = {&v_d};
static const rcksnet_type_t t_d = {1, tv_d};
static const rcksnet_entry_t e_leaf[] = {{RCKSNET_TAG, L_LEAF}};
static const rcksnet_variant_t v_leaf = {1, e_leaf};
static const rcksnet_variant_t *const tv_leaf[] = {&v_leaf};
static const rcksnet_type_t t_leaf = {1, tv_leaf};
static const rcksnet_variant_t *const tv_unfold[] = {&v_d, &v_leaf};
static const rcksnet_type_t t_unfold = {2, tv_unfold};

typedef struct {
    long long n, sum, bad;
} seen_t;

static void emit(void *arg, rcksnet_record_t *r)
{
    seen_t *s = arg;
    s->n++;
    if (rcksnet_tag_or_zero(r, RCKSNET_TAG, L_LEAF) == 0) { /* {x, <i>, <n>} */
        c4snet_data_t *x = rcksnet_take_field(r, L_X);
        if (*(int *)C4SNetGetData(x) != 42)
            s->bad++;
        C4SNetFree(x);
        s->sum += rcksnet_tag(r, L_I);
    } else if (rcksnet_tag_or_zero(r, RCKSNET_TAG, L_D) != 0) {
        s->bad++; /* a leaf keeps no <d> (the box's pattern names it) */
    }
    rcksnet_record_free(r);
}

static long peak_kib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

static int failures;

/* net 0: flood .. pass, 1: unfold *, 2: unfold \ ; e: 10^e records
 * (with fan = 1: one record after e levels) */
static void run(int net, int e)
{
    static const char *const names[] = {"flood .. pass", "unfold * {<leaf>}",
                                        "unfold \\ {<d>}"};
    long long want = 1;
    for (int i = 0; i < e && fan > 1; i++)
        want *= fan;
    rcksnet_node_t *top;
    rcksnet_record_t *r = rcksnet_record_new();
    if (net == 0) {
        top = rcksnet_serial(
            "bounded:..",
            rcksnet_box("flood", "bounded:flood", w_flood, &v_xn, &t_xi),
            rcksnet_box("pass", "bounded:pass", w_pass, &v_xi, &t_xi));
        int x = 42;
        rcksnet_set_field(r, L_X, C4SNetCreate(CTYPE_int, 1, &x));
        rcksnet_set_tag(r, RCKSNET_TAG, L_N, (int)want);
    } else {
        rcksnet_node_t *body = rcksnet_box("unfold", "bounded:unfold",
                                           w_unfold, &v_d, &t_unfold);
        top = net == 1 ? rcksnet_star("bounded:*", 0, body, &t_leaf, NULL)
                       : rcksnet_feedback("bounded:\\", 0, body, &t_d, NULL);
        rcksnet_set_tag(r, RCKSNET_TAG, L_D, e);
    }
    seen_t s = {0, 0, 0};
    rcksnet_instance_t *in = rcksnet_instance_new(labels, 5, top, emit, &s);
    rcksnet_instance_feed(in, r);
    rcksnet_instance_free(in);
    long long want_sum = net == 0 ? want * (want - 1) / 2 : 0;
    int ok = s.n == want && s.sum == want_sum && s.bad == 0;
    printf("bounded: %-18s %9lld records, peak RSS %6ld KiB %s\n", names[net],
           s.n, peak_kib(), ok ? "ok" : "WRONG");
    if (!ok) {
        fprintf(stderr, "bounded: %s: %lld records (want %lld), sum %lld "
                        "(want %lld), %lld wrong\n",
                names[net], s.n, want, s.sum, want_sum, s.bad);
        failures++;
    }
}

int RCCE_APP(int argc, char **argv)
{
    if (RCCE_init(&argc, &argv) != RCCE_SUCCESS)
        return 1;
    if (argc > 2 && !strcmp(argv[1], "deep")) {
        fan = 1;
        if (RCCE_ue() == 0) {
            run(1, atoi(argv[2]));
            run(2, atoi(argv[2]));
            printf("bounded: deep %s\n", failures ? "FAILED" : "OK");
        }
        RCCE_finalize();
        return failures ? 1 : 0;
    }
    int small = argc > 1 ? atoi(argv[1]) : 5;
    int large = argc > 2 ? atoi(argv[2]) : 7;
    long limit = argc > 3 ? atol(argv[3]) : 4096; /* KiB */
    if (small < 1 || large < small || large > 8) {
        fprintf(stderr, "usage: snet_bounded SMALL LARGE [KiB]: 1 <= SMALL "
                        "<= LARGE <= 8\n");
        return 2;
    }
    if (RCCE_ue() == 0) {
        for (int net = 0; net < 3; net++)
            run(net, small);
        long after_small = peak_kib();
        for (int net = 0; net < 3; net++)
            run(net, large);
        long growth = peak_kib() - after_small;
        printf("bounded: peak RSS grew by %ld KiB from 10^%d to 10^%d "
               "records (limit %ld KiB)\n", growth, small, large, limit);
        if (growth >= limit)
            failures++;
        printf("bounded: %s\n", failures ? "FAILED" : "OK");
    }
    RCCE_finalize();
    return failures ? 1 : 0;
}
