/*
 * The small internals programs call: RCCE_fence, RCCE_qsort, and the
 * RCCE_APP entry point macro (this program's main is spelled RCCE_APP).
 *
 * RCCE_qsort is checked against the C library's qsort on the same data
 * (distinct keys, so the order is unique): ints, doubles, and 13-byte
 * records, sizes 0, 1, 2 and larger, sorted, reversed and shuffled input.
 */
#include "conf.h"

#include <sched.h>

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int cmp_double_desc(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x < y) - (x > y);
}

typedef struct {
    unsigned char bytes[13];
} rec13_t;

static int cmp_rec(const void *a, const void *b)
{
    /* key: bytes 3..6 as a big-endian number; the rest is payload */
    const unsigned char *x = a, *y = b;
    return memcmp(x + 3, y + 3, 4);
}

static uint32_t rng_state = 12345;
static uint32_t rng(void)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state >> 8;
}

static void check_sort(void *data, size_t num, size_t width,
                       int (*cmp)(const void *, const void *),
                       const char *what)
{
    conf_phase("qsort %s num %zu", what, num);
    void *ref = malloc(num * width + 1);
    CHECK(ref != NULL);
    memcpy(ref, data, num * width);
    qsort(ref, num, width, cmp);
    RCCE_qsort((char *)data, num, width, cmp);
    for (size_t i = 0; i < num; i++)
        CHECKF(memcmp((char *)data + i * width, (char *)ref + i * width,
                      width) == 0,
               "%s: element %zu of %zu differs from qsort's", what, i, num);
    free(ref);
}

static void sorts(void)
{
    static const size_t nums[] = {0, 1, 2, 3, 10, 1000, 20000};
    for (size_t k = 0; k < sizeof nums / sizeof nums[0]; k++) {
        size_t num = nums[k];
        int *iv = malloc(num * sizeof(int) + 1);
        double *dv = malloc(num * sizeof(double) + 1);
        rec13_t *rv = malloc(num * sizeof(rec13_t) + 1);
        CHECK(iv && dv && rv);

        /* shuffled distinct ints */
        for (size_t i = 0; i < num; i++)
            iv[i] = (int)(i * 7) - 5000;
        for (size_t i = num; i > 1; i--) {
            size_t j = rng() % i;
            int t = iv[i - 1];
            iv[i - 1] = iv[j];
            iv[j] = t;
        }
        check_sort(iv, num, sizeof(int), cmp_int, "int shuffled");
        check_sort(iv, num, sizeof(int), cmp_int, "int already sorted");
        for (size_t i = 0; i < num; i++)
            iv[i] = (int)(num - i);
        check_sort(iv, num, sizeof(int), cmp_int, "int reversed");

        for (size_t i = 0; i < num; i++)
            dv[i] = (double)i * 0.37 - 100.0;
        for (size_t i = num; i > 1; i--) {
            size_t j = rng() % i;
            double t = dv[i - 1];
            dv[i - 1] = dv[j];
            dv[j] = t;
        }
        check_sort(dv, num, sizeof(double), cmp_double_desc,
                   "double descending");

        for (size_t i = 0; i < num; i++) {
            uint32_t key = (uint32_t)i * 2654435761u; /* distinct for i<2^32 */
            for (int b = 0; b < 13; b++)
                rv[i].bytes[b] = (unsigned char)rng();
            rv[i].bytes[3] = (unsigned char)(key >> 24);
            rv[i].bytes[4] = (unsigned char)(key >> 16);
            rv[i].bytes[5] = (unsigned char)(key >> 8);
            rv[i].bytes[6] = (unsigned char)key;
        }
        check_sort(rv, num, sizeof(rec13_t), cmp_rec, "13-byte records");

        free(iv);
        free(dv);
        free(rv);
    }
}

int RCCE_APP(int argc, char **argv)
{
    conf_watchdog();
    CHECK_OK(RCCE_init(&argc, &argv));
    conf_started();
    int me = RCCE_ue(), n = RCCE_num_ues();

    conf_phase("fence");
    /* a real fence: callable any time, any number of times, and ordering
     * a flag write after the data it publishes (checked through shm) */
    for (int i = 0; i < 1000; i++)
        RCCE_fence();
    volatile int *sh = (volatile int *)RCCE_shmalloc(2 * RCCE_LINE_SIZE);
    CHECK(sh != NULL);
    if (me == 0) {
        sh[0] = 0;
        sh[8] = 0;
        RCCE_shflush();
    }
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
    if (n > 1) {
        /* the waits re-read shared memory after RCCE_DCMflush (a library
         * call, so a backend that schedules cores at library calls makes
         * progress) and yield the CPU (48 UEs may share 2 host CPUs) */
        const int rounds = 300;
        if (me == 0) {
            for (int r = 1; r <= rounds; r++) {
                sh[0] = r * 3; /* data */
                RCCE_fence();
                sh[8] = r; /* publish */
                RCCE_shflush();
                while (sh[8] != -r) { /* wait for the reader's ack */
                    CHECK_OK(RCCE_DCMflush());
                    sched_yield();
                }
            }
        } else if (me == 1) {
            for (int r = 1; r <= rounds; r++) {
                while (sh[8] != r) {
                    CHECK_OK(RCCE_DCMflush());
                    sched_yield();
                }
                RCCE_fence();
                CHECKF(sh[0] == r * 3, "round %d: data %d before its flag",
                       r, sh[0]);
                sh[8] = -r;
                RCCE_shflush();
            }
        }
    }
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
    RCCE_shfree((t_vcharp)sh);

    sorts();

    conf_phase("finalize");
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
    CHECK_OK(RCCE_finalize());
    return 0;
}
