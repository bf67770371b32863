/*
 * stencil.c: 2-D heat equation (Jacobi iteration) on a ROWS x COLS grid of
 * doubles. The outermost rows and columns are a fixed boundary (the top edge
 * is held at 1.0, a warm stripe sits on the left edge, everything else at
 * 0.0); each interior point becomes the mean of its four neighbours.
 *
 * The interior rows are split in contiguous blocks over the UEs. Before
 * every sweep each UE sends its first row up and its last row down and
 * receives the neighbours' rows into its halo rows. RCCE_send is
 * synchronous, so even ranks send first and odd ranks receive first.
 *
 * Every K iterations the largest change of any point in the last sweep is
 * combined with RCCE_allreduce(RCCE_MAX); the run stops early when it falls
 * below the tolerance (-t, default 0 = never).
 *
 * The printed checksum does not depend on the number of UEs: every point is
 * computed by the same expression from the same operands whatever the
 * decomposition, and the checksum is formed from per-row sums that are
 * combined by an all-reduce in which every row has exactly one non-zero
 * contribution (adding zeros is exact), then summed in row order by UE 0.
 *
 *   rck run -n 48 ./stencil [-n N | -r ROWS -c COLS] [-i ITERS] [-k K] [-t TOL]
 *
 * Defaults: 256 x 256, 500 iterations, residual every 50 iterations.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "RCCE.h"

static void check(int rc, const char *what)
{
    if (rc != RCCE_SUCCESS) {
        char msg[2 * RCCE_MAX_ERROR_STRING] = "";
        int len = 0;
        RCCE_error_string(rc, msg, &len);
        fprintf(stderr, "stencil: UE %d: %s FAILED: %s (%d)\n", RCCE_ue(),
                what, msg, rc);
        exit(EXIT_FAILURE);
    }
}

/* fixed value of boundary point (g, j) of a rows x cols grid */
static double boundary(int g, int j, int rows, int cols)
{
    if (g == 0)
        return 1.0;
    if (j == 0 && g > rows / 4 && g < rows / 2)
        return 0.5;
    (void)cols;
    return 0.0;
}

static int is_boundary(int g, int j, int rows, int cols)
{
    return g == 0 || g == rows - 1 || j == 0 || j == cols - 1;
}

int RCCE_APP(int argc, char **argv)
{
    int rc = RCCE_init(&argc, &argv);
    if (rc != RCCE_SUCCESS) {
        fprintf(stderr, "stencil: RCCE_init FAILED (%d)\n", rc);
        return EXIT_FAILURE;
    }
    int me = RCCE_ue();
    int num_ues = RCCE_num_ues();

    int rows = 256, cols = 256, iters = 500, every = 50;
    double tol = 0.0;
    int bad_args = 0;
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!val || opt[0] != '-' || opt[1] == '\0' || opt[2] != '\0') {
            bad_args = 1;
            break;
        }
        i++;
        switch (opt[1]) {
        case 'n': rows = cols = atoi(val); break;
        case 'r': rows = atoi(val); break;
        case 'c': cols = atoi(val); break;
        case 'i': iters = atoi(val); break;
        case 'k': every = atoi(val); break;
        case 't': tol = atof(val); break;
        default: bad_args = 1; break;
        }
    }
    if (bad_args || rows < 3 || cols < 3 || iters < 0 || every < 1 ||
        rows - 2 < num_ues) {
        if (me == 0) {
            fprintf(stderr, "usage: stencil [-n N | -r ROWS -c COLS] "
                    "[-i ITERS] [-k K] [-t TOL]\n");
            if (rows - 2 < num_ues)
                fprintf(stderr, "stencil: %d interior rows cannot be split "
                        "over %d UEs\n", rows - 2, num_ues);
        }
        RCCE_finalize();
        return EXIT_FAILURE;
    }

    /* this UE owns global rows first .. first + nloc - 1 (all interior) */
    int interior = rows - 2;
    int base = interior / num_ues, extra = interior % num_ues;
    int nloc = base + (me < extra ? 1 : 0);
    int first = 1 + me * base + (me < extra ? me : extra);
    int up = me > 0 ? me - 1 : -1;
    int down = me < num_ues - 1 ? me + 1 : -1;

    /* local rows 0 and nloc + 1 are halos (or the fixed top/bottom edge) */
    size_t row_bytes = (size_t)cols * sizeof(double);
    double *u = calloc((size_t)(nloc + 2) * (size_t)cols, sizeof(double));
    double *unew = calloc((size_t)(nloc + 2) * (size_t)cols, sizeof(double));
    double *rowsum = calloc(2 * (size_t)rows, sizeof(double));
    double *allsum = calloc(2 * (size_t)rows, sizeof(double));
    if (!u || !unew || !rowsum || !allsum) {
        fprintf(stderr, "stencil: UE %d: out of memory\n", me);
        return EXIT_FAILURE;
    }
#define U(a, i, j) ((a)[(size_t)(i) * (size_t)cols + (size_t)(j)])
    for (int i = 0; i < nloc + 2; i++) {
        int g = first - 1 + i;
        for (int j = 0; j < cols; j++) {
            double v = is_boundary(g, j, rows, cols)
                           ? boundary(g, j, rows, cols) : 0.0;
            U(u, i, j) = v;
            U(unew, i, j) = v;
        }
    }

    if (me == 0) {
        printf("stencil: %d x %d grid, %d iterations, residual every %d, "
               "%d UEs (%d-%d rows each)\n", rows, cols, iters, every,
               num_ues, base, base + (extra ? 1 : 0));
        fflush(stdout);
    }

    check(RCCE_barrier(&RCCE_COMM_WORLD), "RCCE_barrier");
    double t0 = RCCE_wtime();
    double t_comm = 0.0;
    double residual = 0.0;
    int it = 0;
    while (it < iters) {
        /* halo exchange: even ranks send first, odd ranks receive first */
        double tc = RCCE_wtime();
        for (int phase = 0; phase < 2; phase++) {
            /* phase 0: rows travel down; phase 1: rows travel up */
            int to = phase == 0 ? down : up;
            int from = phase == 0 ? up : down;
            double *out = phase == 0 ? &U(u, nloc, 0) : &U(u, 1, 0);
            double *in = phase == 0 ? &U(u, 0, 0) : &U(u, nloc + 1, 0);
            for (int step = 0; step < 2; step++) {
                int sending = (step == 0) == (me % 2 == 0);
                if (sending && to >= 0)
                    check(RCCE_send((char *)out, row_bytes, to), "RCCE_send");
                else if (!sending && from >= 0)
                    check(RCCE_recv((char *)in, row_bytes, from), "RCCE_recv");
            }
        }
        t_comm += RCCE_wtime() - tc;

        it++;
        int want_residual = it % every == 0 || it == iters;
        double diff = 0.0;
        for (int i = 1; i <= nloc; i++) {
            const double *above = &U(u, i - 1, 0);
            const double *here = &U(u, i, 0);
            const double *below = &U(u, i + 1, 0);
            double *dst = &U(unew, i, 0);
            for (int j = 1; j < cols - 1; j++)
                dst[j] = 0.25 * ((above[j] + below[j]) +
                                 (here[j - 1] + here[j + 1]));
            if (want_residual)
                for (int j = 1; j < cols - 1; j++) {
                    double d = fabs(dst[j] - here[j]);
                    if (d > diff)
                        diff = d;
                }
        }
        double *tmp = u;
        u = unew;
        unew = tmp;

        if (want_residual) {
            tc = RCCE_wtime();
            check(RCCE_allreduce((char *)&diff, (char *)&residual, 1,
                                 RCCE_DOUBLE, RCCE_MAX, RCCE_COMM_WORLD),
                  "RCCE_allreduce");
            t_comm += RCCE_wtime() - tc;
            if (me == 0 && it != iters) {
                printf("stencil: iteration %6d  residual %.6e\n", it,
                       residual);
                fflush(stdout);
            }
            if (residual < tol)
                break; /* every UE sees the same residual */
        }
    }
    double elapsed = RCCE_wtime() - t0;

    /* decomposition-independent checksum, see the top of the file */
    for (int i = 1; i <= nloc; i++) {
        double s = 0.0, w = 0.0;
        for (int j = 0; j < cols; j++) {
            s += U(u, i, j);
            w += (double)(j + 1) * U(u, i, j);
        }
        rowsum[first - 1 + i] = s;
        rowsum[rows + first - 1 + i] = w;
    }
    if (me == 0) {
        for (int g = 0; g < rows; g += rows - 1) {
            double s = 0.0, w = 0.0;
            for (int j = 0; j < cols; j++) {
                s += boundary(g, j, rows, cols);
                w += (double)(j + 1) * boundary(g, j, rows, cols);
            }
            rowsum[g] = s;
            rowsum[rows + g] = w;
        }
    }
    check(RCCE_allreduce((char *)rowsum, (char *)allsum, 2 * rows,
                         RCCE_DOUBLE, RCCE_SUM, RCCE_COMM_WORLD),
          "RCCE_allreduce");
    double times[2] = {elapsed, t_comm}, slowest[2] = {0.0, 0.0};
    check(RCCE_allreduce((char *)times, (char *)slowest, 2, RCCE_DOUBLE,
                         RCCE_MAX, RCCE_COMM_WORLD),
          "RCCE_allreduce");

    int ok = 1;
    if (me == 0) {
        double sum = 0.0, weighted = 0.0;
        for (int g = 0; g < rows; g++) {
            sum += allsum[g];
            weighted += (double)(g + 1) * allsum[rows + g];
        }
        ok = isfinite(sum) && isfinite(weighted) && isfinite(residual);
        double updates = (double)(rows - 2) * (double)(cols - 2) * (double)it;
        printf("stencil: done: iterations %d  residual %.9e\n", it, residual);
        printf("stencil: checksum %.12e  weighted %.12e\n", sum, weighted);
        printf("stencil: time %.3f s (%.3f ms per iteration, %.1f%% in "
               "communication), %.2f Mupdates/s%s\n", slowest[0],
               it ? slowest[0] / it * 1e3 : 0.0,
               slowest[0] > 0.0 ? 100.0 * slowest[1] / slowest[0] : 0.0,
               slowest[0] > 0.0 ? updates / slowest[0] / 1e6 : 0.0,
               ok ? "" : "  FAILED: non-finite result");
        fflush(stdout);
    }
#undef U

    free(u);
    free(unew);
    free(rowsum);
    free(allsum);
    check(RCCE_finalize(), "RCCE_finalize");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
