/*
 * laplace_ircce.c: the message-passing version of the Laplace solver.
 * Each UE keeps its block of rows plus a ghost row above and below in
 * private memory. Before every sweep it posts receives of both ghost rows
 * and sends of its first and last rows to its neighbours (iRCCE_irecv /
 * iRCCE_isend), and waits for all four; after the sweep, RCCE_barrier
 * (unless -b 0), so that each iteration ends as the SVM versions' does.
 * The barrier is not needed for correctness: RCCE's protocol copies a row
 * only into a receive the neighbour has posted for the next iteration.
 */
#include "laplace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "RCCE.h"
#include "iRCCE.h"

static void check_posted(int rc, const char *what)
{
    if (rc != iRCCE_SUCCESS && rc != iRCCE_PENDING && rc != iRCCE_RESERVED) {
        char why[32];
        snprintf(why, sizeof why, "code %d", rc);
        lap_fail(RCCE_ue(), what, why);
    }
}

/* UE 0: the whole final grid, its own rows from @p mine, the others'
 * received from each UE in turn. */
static double *gather_grid(const lap_grid_t *grid, int nues,
                           const double *mine, int first, int nloc)
{
    size_t s = grid->stride;
    double *full = malloc((size_t)grid->rows * s * sizeof(double));
    if (!full)
        lap_fail(0, "malloc", "out of memory");
    lap_init_rows(grid, full, 0, grid->rows);
    memcpy(full + (size_t)first * s, mine, (size_t)nloc * s * sizeof(double));
    for (int ue = 1; ue < nues; ue++) {
        int f, n;
        lap_partition(grid, nues, ue, &f, &n);
        lap_check(RCCE_recv((char *)(full + (size_t)f * s),
                            (size_t)n * s * sizeof(double), ue),
                  "RCCE_recv");
    }
    return full;
}

int lap_run_ircce(const lap_opts_t *o)
{
    const lap_grid_t *grid = &o->grid;
    int me, nues;
    int rc = lap_rcce_start(o, &me, &nues);
    if (rc != 0) {
        if (rc == 2)
            RCCE_finalize();
        return rc;
    }
    int first, nloc;
    lap_partition(grid, nues, me, &first, &nloc);
    const size_t s = grid->stride;
    const size_t row_bytes = (size_t)grid->cols * sizeof(double);
    const int up = me > 0 ? me - 1 : -1;
    const int down = me < nues - 1 ? me + 1 : -1;

    /* local row 0 is global row first - 1 (a ghost row or the top edge),
     * local row nloc + 1 global row first + nloc */
    size_t n = (size_t)(nloc + 2) * s;
    double *u = malloc(n * sizeof(double));
    double *v = malloc(n * sizeof(double));
    if (!u || !v)
        lap_fail(me, "malloc", "out of memory");
    lap_init_rows(grid, u, first - 1, first + nloc + 1);
    memcpy(v, u, n * sizeof(double));

    lap_check(RCCE_barrier(&RCCE_COMM_WORLD), "RCCE_barrier");
    double t0 = RCCE_wtime();
    for (int it = 0; it < grid->iters; it++) {
        iRCCE_SEND_REQUEST sreq[2];
        iRCCE_RECV_REQUEST rreq[2];
        iRCCE_WAIT_LIST list;
        iRCCE_init_wait_list(&list);
        if (up >= 0) {
            check_posted(iRCCE_irecv((char *)u, (ssize_t)row_bytes, up,
                                     &rreq[0]), "iRCCE_irecv");
            iRCCE_add_recv_to_wait_list(&list, &rreq[0]);
        }
        if (down >= 0) {
            check_posted(iRCCE_irecv((char *)(u + (size_t)(nloc + 1) * s),
                                     (ssize_t)row_bytes, down, &rreq[1]),
                         "iRCCE_irecv");
            iRCCE_add_recv_to_wait_list(&list, &rreq[1]);
        }
        if (up >= 0) {
            check_posted(iRCCE_isend((char *)(u + s), (ssize_t)row_bytes, up,
                                     &sreq[0]), "iRCCE_isend");
            iRCCE_add_send_to_wait_list(&list, &sreq[0]);
        }
        if (down >= 0) {
            check_posted(iRCCE_isend((char *)(u + (size_t)nloc * s),
                                     (ssize_t)row_bytes, down, &sreq[1]),
                         "iRCCE_isend");
            iRCCE_add_send_to_wait_list(&list, &sreq[1]);
        }
        lap_check(iRCCE_wait_all(&list), "iRCCE_wait_all");

        lap_sweep(grid, u + s, v + s, nloc);
        double *t = u;
        u = v;
        v = t;
        if (o->barrier)
            lap_check(RCCE_barrier(&RCCE_COMM_WORLD), "RCCE_barrier");
    }
    double elapsed = RCCE_wtime() - t0;

    /* checksum: each row's sum from its owner (one non-zero contribution
     * per row, so the reduction is exact), added in row order by UE 0 */
    double *rowsum = calloc((size_t)grid->rows, sizeof(double));
    double *allsum = calloc((size_t)grid->rows, sizeof(double));
    if (!rowsum || !allsum)
        lap_fail(me, "calloc", "out of memory");
    for (int i = 1; i <= nloc; i++)
        rowsum[first - 1 + i] = lap_row_sum(grid, u + (size_t)i * s);
    if (me == 0)
        rowsum[0] = lap_row_sum(grid, u);
    if (me == nues - 1)
        rowsum[grid->rows - 1] = lap_row_sum(grid, u + (size_t)(nloc + 1) * s);
    lap_check(RCCE_reduce((char *)rowsum, (char *)allsum, grid->rows,
                          RCCE_DOUBLE, RCCE_SUM, 0, RCCE_COMM_WORLD),
              "RCCE_reduce");
    double slowest = 0.0;
    lap_check(RCCE_reduce((char *)&elapsed, (char *)&slowest, 1,
                          RCCE_DOUBLE, RCCE_MAX, 0, RCCE_COMM_WORLD),
              "RCCE_reduce");

    int status = EXIT_SUCCESS;
    double max_diff = -1.0;
    if (o->check) {
        if (me == 0) {
            double *full = gather_grid(grid, nues, u + s, first, nloc);
            double *ref = lap_reference(grid);
            if (!ref)
                lap_fail(me, "lap_reference", "out of memory");
            max_diff = lap_max_diff(grid, full, ref);
            free(ref);
            free(full);
        } else {
            lap_check(RCCE_send((char *)(u + s),
                                (size_t)nloc * s * sizeof(double), 0),
                      "RCCE_send");
        }
    }
    if (me == 0) {
        double sum = 0.0;
        for (int g = 0; g < grid->rows; g++)
            sum += allsum[g];
        status = lap_print_result(o, nues, slowest, sum, max_diff, -1, -1);
    }
    free(rowsum);
    free(allsum);
    free(u);
    free(v);
    lap_check(RCCE_finalize(), "RCCE_finalize");
    return status;
}
