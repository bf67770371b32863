/*
 * t_compute.c: SVM programs give the answers of their sequential versions.
 *   usage: t_compute strong|lazy [ROWS COLS ITERS]
 *
 * 1. Jacobi sweeps over a ROWS x COLS grid of doubles in SVM (two grids,
 *    interior rows split over the UEs, every UE initialises its own rows,
 *    svm_barrier after every sweep); UE 0 compares the final grid bit for
 *    bit with the same sweeps run sequentially in private memory.
 * 2. A parallel prefix sum with barriers over an int array whose chunks do
 *    not line up with pages (neighbours share pages: false sharing).
 * 3. A shared counter incremented under svm_lock by every UE.
 */
#include "svmt.h"

#include <stdint.h>

static int rows = 66, cols = 64, iters = 6;

static double init_val(int i, int j)
{
    if (i == 0 || j == 0 || j == cols - 1)
        return 1.0 + 0.01 * j;
    if (i == rows - 1)
        return 2.0 - 0.01 * j;
    return (double)((i * 31 + j * 17) % 23) / 7.0;
}

static void sweep(const double *cur, double *nxt, int r0, int r1)
{
    for (int i = r0; i < r1; i++)
        for (int j = 1; j < cols - 1; j++)
            nxt[i * cols + j] =
                0.25 * (cur[(i - 1) * cols + j] + cur[(i + 1) * cols + j] +
                        cur[i * cols + j - 1] + cur[i * cols + j + 1]);
}

/* rows [lo, hi) of @p n items split over nues parts */
static void split(int n, int nues, int me, int *lo, int *hi)
{
    *lo = (int)((long)n * me / nues);
    *hi = (int)((long)n * (me + 1) / nues);
}

static void jacobi(int me, int nues)
{
    size_t bytes = (size_t)rows * cols * sizeof(double);
    double *a = svm_alloc(bytes, SVM_MC_ALL), *b = svm_alloc(bytes, 0);
    int lo, hi;

    CHECK(a != NULL && b != NULL);
    split(rows - 2, nues, me, &lo, &hi);
    lo++;
    hi++;
    /* own rows (and the edges) first: the strong model's first touch */
    for (int i = lo; i < hi; i++)
        for (int j = 0; j < cols; j++)
            a[i * cols + j] = b[i * cols + j] = init_val(i, j);
    if (me == 0)
        for (int j = 0; j < cols; j++)
            a[j] = b[j] = init_val(0, j);
    if (me == nues - 1)
        for (int j = 0; j < cols; j++)
            a[(rows - 1) * cols + j] = b[(rows - 1) * cols + j] =
                init_val(rows - 1, j);
    CHECK_OK(svm_barrier());
    for (int it = 0; it < iters; it++) {
        double *cur = it % 2 ? b : a, *nxt = it % 2 ? a : b;
        sweep(cur, nxt, lo, hi);
        CHECK_OK(svm_barrier());
    }
    if (me == 0) {
        double *ra = malloc(bytes), *rb = malloc(bytes);
        const double *res = iters % 2 ? b : a, *ref;

        CHECK(ra != NULL && rb != NULL);
        for (int i = 0; i < rows; i++)
            for (int j = 0; j < cols; j++)
                ra[i * cols + j] = rb[i * cols + j] = init_val(i, j);
        for (int it = 0; it < iters; it++)
            sweep(it % 2 ? rb : ra, it % 2 ? ra : rb, 1, rows - 1);
        ref = iters % 2 ? rb : ra;
        for (int k = 0; k < rows * cols; k++) {
            if (memcmp(&res[k], &ref[k], sizeof(double)) != 0) {
                char d[96];
                snprintf(d, sizeof d, "cell (%d,%d): %.17g, expected %.17g",
                         k / cols, k % cols, res[k], ref[k]);
                svmt_fail(__FILE__, __LINE__, "jacobi grid", d);
            }
        }
        free(ra);
        free(rb);
    }
    CHECK_OK(svm_barrier());
    CHECK_OK(svm_free(b));
    CHECK_OK(svm_free(a));
}

static int32_t value(int i)
{
    return (int32_t)((i * 7 + 3) % 101) - 50;
}

static void prefix(int me, int nues)
{
    const int n = 3001;
    int32_t *in = svm_alloc(n * sizeof(int32_t), SVM_MC_ALL);
    int32_t *out = svm_alloc(n * sizeof(int32_t), SVM_MC_ALL);
    int64_t *part = svm_alloc((size_t)nues * sizeof(int64_t), 1);
    int64_t sum = 0, off = 0;
    int lo, hi;

    CHECK(in != NULL && out != NULL && part != NULL);
    split(n, nues, me, &lo, &hi);
    for (int i = lo; i < hi; i++)
        in[i] = value(i);
    CHECK_OK(svm_barrier());
    for (int i = lo; i < hi; i++)
        sum += in[i];
    part[me] = sum;
    CHECK_OK(svm_barrier());
    for (int u = 0; u < me; u++)
        off += part[u];
    for (int i = lo; i < hi; i++) {
        off += in[i];
        out[i] = (int32_t)off;
    }
    CHECK_OK(svm_barrier());
    if (me == 0) {
        int64_t run = 0;
        for (int i = 0; i < n; i++) {
            run += value(i);
            if (out[i] != (int32_t)run) {
                char d[64];
                snprintf(d, sizeof d, "out[%d] = %d, expected %d", i,
                         (int)out[i], (int)run);
                svmt_fail(__FILE__, __LINE__, "prefix sum", d);
            }
        }
    }
    CHECK_OK(svm_barrier());
    CHECK_OK(svm_free(part));
    CHECK_OK(svm_free(out));
    CHECK_OK(svm_free(in));
}

static void locked_sum(int me, int nues)
{
    const int k = 10;
    int64_t *ctr = svm_alloc(2 * sizeof(int64_t), SVM_MC_ALL);
    int64_t want = 0;

    CHECK(ctr != NULL);
    for (int i = 0; i < k; i++) {
        int id = i % 2 ? nues - 1 : 0;
        CHECK_OK(svm_lock(id));
        ctr[i % 2] += me + 1;
        CHECK_OK(svm_unlock(id));
    }
    CHECK_OK(svm_barrier());
    for (int u = 0; u < nues; u++)
        want += u + 1;
    if (me == 0 && (ctr[0] != want * (k / 2) || ctr[1] != want * (k / 2))) {
        char d[96];
        snprintf(d, sizeof d, "counters %lld %lld, expected %lld",
                 (long long)ctr[0], (long long)ctr[1],
                 (long long)(want * (k / 2)));
        svmt_fail(__FILE__, __LINE__, "locked sum", d);
    }
    CHECK_OK(svm_barrier());
    CHECK_OK(svm_free(ctr));
}

int main(int argc, char **argv)
{
    svm_model_t model;
    svm_stats_t st;
    int me, nues;

    svmt_start("t_compute");
    model = svmt_model(argc > 1 ? argv[1] : NULL);
    if (argc > 4) {
        rows = atoi(argv[2]);
        cols = atoi(argv[3]);
        iters = atoi(argv[4]);
    }
    CHECK_OK(svm_init(model));
    CHECK(svm_model() == model);
    me = svm_ue();
    nues = svm_num_ues();
    CHECK(me >= 0 && me < nues);
    CHECK(rows - 2 >= nues && cols >= 3);
    jacobi(me, nues);
    prefix(me, nues);
    locked_sum(me, nues);
    svm_stats(&st);
    printf("t_compute: %s ok: %d UEs, %dx%d grid, %d sweeps; UE %d: "
           "faults %llu soft %llu claims %llu given %llu requests %llu "
           "forwards %llu nacks %llu barriers %llu\n",
           model == SVM_STRONG ? "strong" : "lazy", nues, rows, cols, iters,
           me, (unsigned long long)st.faults,
           (unsigned long long)st.soft_faults,
           (unsigned long long)st.claims,
           (unsigned long long)st.pages_given,
           (unsigned long long)st.requests_sent,
           (unsigned long long)st.forwards, (unsigned long long)st.nacks,
           (unsigned long long)st.barriers);
    CHECK(st.barriers > (uint64_t)iters);
    if (model == SVM_LAZY)
        CHECK(st.faults == 0 && st.requests_sent == 0);
    else if (nues > 1)
        CHECK(st.faults > 0);
    CHECK_OK(svm_finalize());
    return 0;
}
