/*
 * RCCE_reduce and RCCE_allreduce on RCCE_COMM_WORLD: every op (SUM, MIN,
 * MAX, PROD) with every type (INT, LONG, FLOAT, DOUBLE), counts 1, 7, 1000
 * and 3000 (the last larger than an MPB for every type), several roots.
 *
 * Each UE computes the expected result itself from the inputs every UE
 * uses (a function of UE, element and op). The values are chosen so that
 * every result is exact whatever the order of combination: small integers
 * (also as floating point, scaled by powers of two), and for PROD only
 * factors 1, -1, 2 (and 0.5 for floating point), so nothing overflows or
 * rounds. Results are compared exactly.
 */
#include "conf.h"

static int me, n;

static const int ops[] = {RCCE_SUM, RCCE_MIN, RCCE_MAX, RCCE_PROD};
static const char *const op_names[] = {"SUM", "MIN", "MAX", "PROD"};
static const int types[] = {RCCE_INT, RCCE_LONG, RCCE_FLOAT, RCCE_DOUBLE};
static const char *const type_names[] = {"INT", "LONG", "FLOAT", "DOUBLE"};
static const size_t type_sizes[] = {sizeof(int), sizeof(long), sizeof(float),
                                    sizeof(double)};

/* The input of UE @p ue, element @p i, as an exact double. */
static double input(int opi, int ue, int i)
{
    if (ops[opi] == RCCE_PROD) {
        if ((ue + i) % 7 == 0)
            return 2.0;
        if ((ue * 3 + i) % 5 == 0)
            return -1.0;
        if ((ue + 2 * i) % 11 == 0)
            return 0.5; /* integer types: replaced by 1 below */
        return 1.0;
    }
    return (double)((ue * 131 + i * 17) % 201 - 100);
}

static void store(int ti, int opi, void *buf, int i, double v)
{
    int prod = ops[opi] == RCCE_PROD;
    switch (ti) {
    case 0:
        ((int *)buf)[i] = v == 0.5 ? 1 : (int)v;
        break;
    case 1:
        /* exercise the upper half of a 64-bit long where it cannot
         * overflow: sums of |v| <= 100 over at most 48 UEs */
        ((long *)buf)[i] = prod ? (v == 0.5 ? 1L : (long)v)
                                : (long)v * 1000000007L;
        break;
    case 2:
        ((float *)buf)[i] = (float)(prod ? v : v * 0.25);
        break;
    default:
        ((double *)buf)[i] = prod ? v : v * 0.125;
        break;
    }
}

static void combine(int ti, int opi, void *acc, const void *x, int i)
{
#define COMBINE(T)                                                            \
    do {                                                                      \
        T *a = (T *)acc;                                                      \
        const T *b = (const T *)x;                                            \
        switch (ops[opi]) {                                                   \
        case RCCE_SUM:                                                        \
            a[i] = a[i] + b[i];                                               \
            break;                                                            \
        case RCCE_MIN:                                                        \
            a[i] = b[i] < a[i] ? b[i] : a[i];                                 \
            break;                                                            \
        case RCCE_MAX:                                                        \
            a[i] = b[i] > a[i] ? b[i] : a[i];                                 \
            break;                                                            \
        default:                                                              \
            a[i] = a[i] * b[i];                                               \
            break;                                                            \
        }                                                                     \
    } while (0)
    switch (ti) {
    case 0:
        COMBINE(int);
        break;
    case 1:
        COMBINE(long);
        break;
    case 2:
        COMBINE(float);
        break;
    default:
        COMBINE(double);
        break;
    }
#undef COMBINE
}

static int equal_elem(int ti, const void *a, const void *b, int i)
{
    switch (ti) {
    case 0:
        return ((const int *)a)[i] == ((const int *)b)[i];
    case 1:
        return ((const long *)a)[i] == ((const long *)b)[i];
    case 2:
        return ((const float *)a)[i] == ((const float *)b)[i];
    default:
        return ((const double *)a)[i] == ((const double *)b)[i];
    }
}

static double as_double(int ti, const void *a, int i)
{
    switch (ti) {
    case 0:
        return ((const int *)a)[i];
    case 1:
        return (double)((const long *)a)[i];
    case 2:
        return ((const float *)a)[i];
    default:
        return ((const double *)a)[i];
    }
}

static void fill_input(int ti, int opi, int ue, void *buf, int count)
{
    for (int i = 0; i < count; i++)
        store(ti, opi, buf, i, input(opi, ue, i));
}

static void reference(int ti, int opi, void *ref, int count)
{
    size_t es = type_sizes[ti];
    void *tmp = malloc(es * (size_t)count);
    CHECK(tmp != NULL);
    fill_input(ti, opi, 0, ref, count);
    for (int ue = 1; ue < n; ue++) {
        fill_input(ti, opi, ue, tmp, count);
        for (int i = 0; i < count; i++)
            combine(ti, opi, ref, tmp, i);
    }
    free(tmp);
}

static void check_result(int ti, int opi, const void *out, const void *ref,
                         int count)
{
    for (int i = 0; i < count; i++)
        CHECKF(equal_elem(ti, out, ref, i),
               "%s %s count %d element %d: got %.17g, expected %.17g",
               op_names[opi], type_names[ti], count, i,
               as_double(ti, out, i), as_double(ti, ref, i));
}

static void one(int all, int ti, int opi, int count, int root)
{
    size_t bytes = type_sizes[ti] * (size_t)count;
    conf_phase("%s %s %s count %d root %d", all ? "allreduce" : "reduce",
               op_names[opi], type_names[ti], count, root);
    /* element-aligned, but not line-aligned */
    char *in = conf_galloc(bytes, 8);
    char *out = conf_galloc(bytes, 24);
    char *ref = malloc(bytes + 1);
    CHECK(ref != NULL);
    fill_input(ti, opi, me, in, count);
    memset(out, 0xC3, bytes);
    reference(ti, opi, ref, count);
    if (all)
        CHECK_OK(RCCE_allreduce(in, out, count, types[ti], ops[opi],
                                RCCE_COMM_WORLD));
    else
        CHECK_OK(RCCE_reduce(in, out, count, types[ti], ops[opi], root,
                             RCCE_COMM_WORLD));
    if (all || me == root)
        check_result(ti, opi, out, ref, count);
    CHECK_GUARDS(out, bytes);
    CHECK_GUARDS(in, bytes);
    conf_gfree(in);
    conf_gfree(out);
    free(ref);
}

int main(int argc, char **argv)
{
    conf_watchdog();
    CHECK_OK(RCCE_init(&argc, &argv));
    conf_started();
    me = RCCE_ue();
    n = RCCE_num_ues();

    static const int counts[] = {1, 7, 1000, 3000};
    int roots[3] = {0, n - 1, n / 2}, nroots = 3;
    if (n <= 2)
        nroots = n; /* 0 and n-1 */

    for (int ti = 0; ti < 4; ti++)
        for (int opi = 0; opi < 4; opi++)
            for (int ci = 0; ci < 4; ci++) {
                one(1, ti, opi, counts[ci], 0);
                for (int ri = 0; ri < nroots; ri++) {
                    /* the full cross product at every root only for small
                     * counts; large counts at one rotating root */
                    if (counts[ci] >= 1000 && ri != (ti + opi) % nroots)
                        continue;
                    one(0, ti, opi, counts[ci], roots[ri]);
                }
            }

    conf_phase("finalize");
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
    CHECK_OK(RCCE_finalize());
    return 0;
}
