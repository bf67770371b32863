/*
 * embed.c: the embedding API of librcksnet (rcksnet_instance_new, _feed,
 * _free) on a network built by hand through the constructors: a box that
 * emits its field twice with a counter, in a split on <k>, behind a
 * synchrocell repeated by a star. Checks every output record it gets.
 * Run: rck run -n 1 ./snet_embed
 */
#include <stdio.h>
#include <stdlib.h>

#include "RCCE.h"
#include "snet/rcksnet.h"

enum { L_X, L_K, L_N, L_Y };
static const char *const labels[] = {"x", "k", "n", "y"};

static int failures;
#define CHECK(c)                                                              \
    do {                                                                      \
        if (!(c)) {                                                           \
            fprintf(stderr, "embed: %s:%d: %s\n", __FILE__, __LINE__, #c);    \
            failures++;                                                       \
        }                                                                     \
    } while (0)

/* box (x, <k>) -> (x, <k>, <n>): twice, n = 1 and 2 */
static void *twice(void *hnd, c4snet_data_t *x, int k)
{
    C4SNetOut(hnd, 1, C4SNetShallowCopy(x), k, 1);
    C4SNetOut(hnd, 1, x, k, 2);
    return hnd;
}

static void w_twice(void *hnd, rcksnet_record_t *r)
{
    twice(hnd, rcksnet_take_field(r, L_X), rcksnet_tag(r, L_K));
}

static const rcksnet_entry_t e_in[] = {{RCKSNET_FIELD, L_X},
                                       {RCKSNET_TAG, L_K}};
static const rcksnet_variant_t v_in = {2, e_in};
static const rcksnet_entry_t e_out[] = {
    {RCKSNET_FIELD, L_X}, {RCKSNET_TAG, L_K}, {RCKSNET_TAG, L_N}};
static const rcksnet_variant_t v_out = {3, e_out};
static const rcksnet_variant_t *const tv_out[] = {&v_out};
static const rcksnet_type_t t_out = {1, tv_out};
/* the synchrocell: {x, <k>} and {<y>} */
static const rcksnet_entry_t e_y[] = {{RCKSNET_TAG, L_Y}};
static const rcksnet_variant_t v_y = {1, e_y};
static const rcksnet_variant_t *const tv_sync[] = {&v_in, &v_y};
static const rcksnet_type_t t_sync = {2, tv_sync};
static const rcksnet_entry_t e_both[] = {
    {RCKSNET_FIELD, L_X}, {RCKSNET_TAG, L_K}, {RCKSNET_TAG, L_Y}};
static const rcksnet_variant_t v_both = {3, e_both};
static const rcksnet_variant_t *const tv_exit[] = {&v_both};
static const rcksnet_type_t t_exit = {1, tv_exit};

typedef struct {
    int n, k[16], nv[16], y[16], x[16];
} seen_t;

static void emit(void *arg, rcksnet_record_t *r)
{
    seen_t *s = arg;
    if (s->n < 16) {
        c4snet_data_t *x = rcksnet_take_field(r, L_X);
        s->x[s->n] = *(int *)C4SNetGetData(x);
        C4SNetFree(x);
        s->k[s->n] = rcksnet_tag(r, L_K);
        s->nv[s->n] = rcksnet_tag(r, L_N);
        s->y[s->n] = rcksnet_tag(r, L_Y);
    }
    s->n++;
    rcksnet_record_free(r);
}

static void feed(rcksnet_instance_t *in, int x, int k, int y)
{
    rcksnet_record_t *r = rcksnet_record_new();
    if (y < 0) {
        rcksnet_set_field(r, L_X, C4SNetCreate(CTYPE_int, 1, &x));
        rcksnet_set_tag(r, RCKSNET_TAG, L_K, k);
    } else {
        rcksnet_set_tag(r, RCKSNET_TAG, L_Y, y);
    }
    rcksnet_instance_feed(in, r);
}

int RCCE_APP(int argc, char **argv)
{
    if (RCCE_init(&argc, &argv) != RCCE_SUCCESS)
        return 1;
    if (RCCE_ue() == 0) {
        rcksnet_node_t *sync = rcksnet_star(
            "embed:*", 0, rcksnet_sync("embed:sync", &t_sync, NULL),
            &t_exit, NULL);
        rcksnet_node_t *box =
            rcksnet_box("twice", "embed:twice", w_twice, &v_in, &t_out);
        rcksnet_node_t *net = rcksnet_serial(
            "embed:..", sync, rcksnet_split("embed:!", 1, box, L_K));
        seen_t s = {0};
        rcksnet_instance_t *in = rcksnet_instance_new(labels, 4, net, emit, &s);
        feed(in, 10, 3, -1); /* stored: waits for a <y> */
        CHECK(s.n == 0);
        feed(in, 0, 0, 7);   /* joins it: {x=10, k=3, y=7}, twice */
        CHECK(s.n == 2);
        feed(in, 0, 0, 8);   /* stored in the second stage */
        feed(in, 20, 5, -1); /* joins it */
        CHECK(s.n == 4);
        int want_x[] = {10, 10, 20, 20}, want_k[] = {3, 3, 5, 5};
        int want_n[] = {1, 2, 1, 2}, want_y[] = {7, 7, 8, 8};
        for (int i = 0; i < 4 && i < s.n; i++) {
            CHECK(s.x[i] == want_x[i]);
            CHECK(s.k[i] == want_k[i]);
            CHECK(s.nv[i] == want_n[i]);
            CHECK(s.y[i] == want_y[i]); /* inherited through the box */
        }
        rcksnet_instance_free(in);
        printf("embed: %d records, %s\n", s.n, failures ? "FAILED" : "OK");
    }
    RCCE_finalize();
    return failures ? 1 : 0;
}
