/*
 * laplace.c: the heat-distribution (Laplace) solver with Jacobi iterations
 * from the MetalSVM evaluation, in three versions:
 *
 *   -v strong  shared virtual memory, strong model (svm_init(SVM_STRONG)):
 *              both grids come from svm_alloc, the sweep uses plain loads
 *              and stores, svm_barrier after every sweep;
 *   -v lazy    the same code under lazy release consistency (SVM_LAZY);
 *   -v ircce   message passing: each UE keeps its rows plus two ghost rows
 *              in private memory and swaps boundary rows with its
 *              neighbours (iRCCE_isend/irecv, then wait) before every
 *              sweep; RCCE_barrier after every sweep (-b 0: none; the
 *              exchange alone keeps the sweeps in step).
 *
 * The interior rows are split in contiguous blocks (rows-2 over N UEs).
 *
 *   rck run -n 48 ./laplace [-v strong|lazy|ircce] [-r ROWS] [-c COLS]
 *                           [-i ITERS] [-m 1|4] [-b 0|1] [-C]
 *
 * Defaults: lazy, 1024 x 512, 50 iterations, -m 4 (SVM pages spread over
 * every memory controller; -m 1: all on MC 0). -C: UE 0 also runs the
 * sweeps sequentially in private memory and compares the whole grid (exit
 * status 1 on any difference).
 *
 * Output (UE 0), one parsable line:
 *   laplace version=lazy mc=4 ues=48 rows=1024 cols=512 iters=50
 *           barrier=1 time_s=... checksum=... [max_diff=...] [faults=...]
 *           [soft_faults=...]
 * time_s: the slowest UE's time from the barrier before the first sweep to
 * the end of the last one (RCCE_wtime: simulated time on the sim backend);
 * checksum: the sum of every value of the final grid (row sums added in
 * row order: identical for every version and UE count); max_diff (-C):
 * largest difference from the sequential reference; faults: SVM page
 * faults of all UEs during the timed loop (strong: ownership moves);
 * soft_faults: the sim cost model's first touches of a page in an epoch
 * (every page a core touches after each barrier; 0 on native).
 */
#include "laplace.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "RCCE.h"

const char *lap_version_name(lap_version_t v)
{
    switch (v) {
    case LAP_STRONG: return "strong";
    case LAP_LAZY: return "lazy";
    case LAP_IRCCE: return "ircce";
    }
    return "?";
}

int lap_print_result(const lap_opts_t *opts, int nues, double time_s,
                     double checksum, double max_diff, long long faults,
                     long long soft_faults)
{
    const lap_grid_t *g = &opts->grid;
    char mc[16] = "-";
    char extra[96] = "";
    size_t len = 0;

    if (opts->version != LAP_IRCCE)
        snprintf(mc, sizeof mc, "%d", opts->mcs);
    if (max_diff >= 0.0)
        len += (size_t)snprintf(extra + len, sizeof extra - len,
                                " max_diff=%.6e", max_diff);
    if (faults >= 0)
        len += (size_t)snprintf(extra + len, sizeof extra - len,
                                " faults=%lld", faults);
    if (soft_faults >= 0)
        snprintf(extra + len, sizeof extra - len, " soft_faults=%lld",
                 soft_faults);
    printf("laplace version=%s mc=%s ues=%d rows=%d cols=%d iters=%d "
           "barrier=%d time_s=%.9e checksum=%.15e%s\n",
           lap_version_name(opts->version), mc, nues, g->rows, g->cols,
           g->iters, opts->barrier, time_s, checksum, extra);
    fflush(stdout);
    if (!isfinite(checksum) || max_diff > 0.0) {
        fprintf(stderr, "laplace: FAILED: %s\n", !isfinite(checksum)
                ? "non-finite checksum"
                : "the grid differs from the sequential reference");
        return EXIT_FAILURE;
    }
    return EXIT_SUCCESS;
}

void lap_fail(int ue, const char *what, const char *why)
{
    fprintf(stderr, "laplace: UE %d: %s FAILED: %s\n", ue, what, why);
    fflush(stderr);
    exit(EXIT_FAILURE);
}

void lap_check(int rc, const char *what)
{
    if (rc != RCCE_SUCCESS) {
        char msg[2 * RCCE_MAX_ERROR_STRING] = "";
        int len = 0;
        RCCE_error_string(rc, msg, &len);
        lap_fail(RCCE_ue(), what, msg);
    }
}

int lap_rcce_start(const lap_opts_t *opts, int *me, int *nues)
{
    const lap_grid_t *grid = &opts->grid;
    int rc = RCCE_init(opts->argc, opts->argv);
    if (rc != RCCE_SUCCESS) {
        fprintf(stderr, "laplace: RCCE_init FAILED (%d)\n", rc);
        return EXIT_FAILURE;
    }
    *me = RCCE_ue();
    *nues = RCCE_num_ues();
    if (grid->rows - 2 < *nues) {
        if (*me == 0)
            fprintf(stderr, "laplace: %d interior rows cannot be split over "
                    "%d UEs\n", grid->rows - 2, *nues);
        return 2;
    }
    return 0;
}

static void usage(const char *why)
{
    /* only one UE of a run says it */
    const char *ue = getenv("RCK_RUN_UE");
    if (ue && strcmp(ue, "0") != 0)
        return;
    if (why)
        fprintf(stderr, "laplace: %s\n", why);
    fprintf(stderr, "usage: laplace [-v strong|lazy|ircce] [-r ROWS] "
            "[-c COLS] [-i ITERS] [-m 1|4] [-b 0|1] [-C]\n");
}

static int parse_int(const char *s, int *out)
{
    char *end = NULL;
    long v = strtol(s, &end, 10);
    if (!s[0] || *end || v < -1000000000L || v > 1000000000L)
        return -1;
    *out = (int)v;
    return 0;
}

int RCCE_APP(int argc, char **argv)
{
    lap_opts_t o = {
        .grid = {.rows = 1024, .cols = 512, .iters = 50},
        .version = LAP_LAZY, .mcs = 4, .check = 0, .barrier = 1,
    };
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i];
        if (strcmp(opt, "-C") == 0) {
            o.check = 1;
            continue;
        }
        if (strcmp(opt, "-h") == 0 || strcmp(opt, "--help") == 0) {
            usage(NULL);
            return EXIT_SUCCESS;
        }
        const char *val = i + 1 < argc ? argv[++i] : NULL;
        int v = 0;
        if (!val || opt[0] != '-' || opt[1] == '\0' || opt[2] != '\0') {
            usage("bad arguments");
            return 2;
        }
        if (opt[1] == 'v') {
            if (strcmp(val, "strong") == 0)
                o.version = LAP_STRONG;
            else if (strcmp(val, "lazy") == 0)
                o.version = LAP_LAZY;
            else if (strcmp(val, "ircce") == 0)
                o.version = LAP_IRCCE;
            else {
                usage("-v takes strong, lazy or ircce");
                return 2;
            }
            continue;
        }
        if (parse_int(val, &v) != 0) {
            usage("option values are integers");
            return 2;
        }
        switch (opt[1]) {
        case 'r': o.grid.rows = v; break;
        case 'c': o.grid.cols = v; break;
        case 'i': o.grid.iters = v; break;
        case 'm': o.mcs = v; break;
        case 'b': o.barrier = v; break;
        default:
            usage("unknown option");
            return 2;
        }
    }
    if (o.grid.rows < 3 || o.grid.cols < 3 || o.grid.iters < 0 ||
        (o.mcs != 1 && o.mcs != 4) || (o.barrier != 0 && o.barrier != 1)) {
        usage("need ROWS >= 3, COLS >= 3, ITERS >= 0, -m 1 or 4, -b 0 or 1");
        return 2;
    }
    if (o.version != LAP_IRCCE)
        o.barrier = 1;  /* SVM: svm_barrier after every sweep */
    o.grid.stride = lap_stride(o.grid.cols, o.version != LAP_IRCCE);
    o.argc = &argc;
    o.argv = &argv;

    if (o.version == LAP_IRCCE)
        return lap_run_ircce(&o);
    return lap_run_svm(&o);
}
