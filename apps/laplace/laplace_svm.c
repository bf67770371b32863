/*
 * laplace_svm.c: the shared-virtual-memory versions of the Laplace solver
 * (-v strong, -v lazy). Both grids come from svm_alloc (on MC 0 with -m 1,
 * spread over every controller with -m 4); the sweep is the same plain
 * code as the sequential one, on the shared arrays; svm_barrier after
 * every sweep is the only synchronisation (under the lazy model it also
 * writes this core's changes back and drops its stale copies).
 *
 * RCCE is used only around the SVM part: RCCE_wtime for the timing and
 * RCCE_reduce for the slowest time and the fault count. svm_init runs
 * first, as rck_svm.h requires (it reserves its MPB and DRAM areas before
 * RCCE takes the rest).
 *
 * Built only when the SVM library (src/svm, target rck_svm) is; otherwise
 * -v strong|lazy says so and exits with status 2.
 */
#include "laplace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef LAPLACE_HAVE_SVM

#include "RCCE.h"
#include "rck_svm.h"

static void check_svm(rck_status_t st, const char *what)
{
    if (st != RCK_OK)
        lap_fail(RCCE_ue(), what, rck_status_string(st));
}

int lap_run_svm(const lap_opts_t *o)
{
    const lap_grid_t *grid = &o->grid;
    svm_model_t model = o->version == LAP_STRONG ? SVM_STRONG : SVM_LAZY;
    rck_status_t st = svm_init(model);
    if (st != RCK_OK) {
        fprintf(stderr, "laplace: svm_init FAILED: %s\n",
                rck_status_string(st));
        return EXIT_FAILURE;
    }
    int me, nues;
    int rc = lap_rcce_start(o, &me, &nues);
    if (rc != 0) {
        if (rc == 2) {
            svm_finalize();
            RCCE_finalize();
        }
        return rc;
    }
    const size_t s = grid->stride;
    const size_t bytes = (size_t)grid->rows * s * sizeof(double);
    const int mc = o->mcs == 1 ? 0 : SVM_MC_ALL;
    double *cur = svm_alloc(bytes, mc);
    double *nxt = svm_alloc(bytes, mc);
    if (!cur || !nxt)
        lap_fail(me, "svm_alloc", "no memory (see the log above; the SVM "
                 "region's size is RCK_SVM_SIZE)");

    int first, nloc;
    lap_partition(grid, nues, me, &first, &nloc);
    /* every UE writes its own rows first (under the strong model it then
     * owns their pages); UE 0 the top edge, the last UE the bottom one,
     * which they alone read during the sweeps */
    lap_init_rows(grid, cur + (size_t)first * s, first, first + nloc);
    lap_init_rows(grid, nxt + (size_t)first * s, first, first + nloc);
    if (me == 0) {
        lap_init_rows(grid, cur, 0, 1);
        lap_init_rows(grid, nxt, 0, 1);
    }
    if (me == nues - 1) {
        int g = grid->rows - 1;
        lap_init_rows(grid, cur + (size_t)g * s, g, g + 1);
        lap_init_rows(grid, nxt + (size_t)g * s, g, g + 1);
    }
    check_svm(svm_barrier(), "svm_barrier");

    svm_stats_t before, after;
    svm_stats(&before);
    double t0 = RCCE_wtime();
    for (int it = 0; it < grid->iters; it++) {
        lap_sweep(grid, cur + (size_t)first * s, nxt + (size_t)first * s,
                  nloc);
        check_svm(svm_barrier(), "svm_barrier");
        double *t = cur;
        cur = nxt;
        nxt = t;
    }
    double elapsed = RCCE_wtime() - t0;
    svm_stats(&after);

    double faults[2] = {(double)(after.faults - before.faults),
                        (double)(after.soft_faults - before.soft_faults)};
    double all_faults[2] = {0.0, 0.0}, slowest = 0.0;
    lap_check(RCCE_reduce((char *)faults, (char *)all_faults, 2,
                          RCCE_DOUBLE, RCCE_SUM, 0, RCCE_COMM_WORLD),
              "RCCE_reduce");
    lap_check(RCCE_reduce((char *)&elapsed, (char *)&slowest, 1,
                          RCCE_DOUBLE, RCCE_MAX, 0, RCCE_COMM_WORLD),
              "RCCE_reduce");

    /* UE 0 reads the whole final grid from shared memory (the others serve
     * its ownership requests in the barrier) */
    int status = EXIT_SUCCESS;
    if (me == 0) {
        double sum = lap_checksum(grid, cur);
        double max_diff = -1.0;
        if (o->check) {
            double *ref = lap_reference(grid);
            if (!ref)
                lap_fail(me, "lap_reference", "out of memory");
            max_diff = lap_max_diff(grid, cur, ref);
            free(ref);
        }
        status = lap_print_result(o, nues, slowest, sum, max_diff,
                                  (long long)all_faults[0],
                                  (long long)all_faults[1]);
    }
    check_svm(svm_barrier(), "svm_barrier");
    check_svm(svm_free(nxt), "svm_free");
    check_svm(svm_free(cur), "svm_free");
    check_svm(svm_finalize(), "svm_finalize");
    lap_check(RCCE_finalize(), "RCCE_finalize");
    return status;
}

#else /* !LAPLACE_HAVE_SVM */

int lap_run_svm(const lap_opts_t *o)
{
    const char *ue = getenv("RCK_RUN_UE");
    if (!ue || strcmp(ue, "0") == 0)
        fprintf(stderr, "laplace: -v %s: this build has no SVM library "
                "(src/svm); only -v ircce runs\n",
                lap_version_name(o->version));
    return 2;
}

#endif
