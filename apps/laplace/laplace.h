/*
 * laplace.h: the heat-distribution (Laplace) solver of the MetalSVM
 * evaluation, shared by its three versions (SVM strong, SVM lazy, iRCCE).
 *
 * The grid: rows x cols doubles, stored with a row stride of `stride`
 * doubles: cols rounded up to a whole 32-byte line (iRCCE), so no two rows
 * share a cache line, or to a whole 4 KiB page (SVM), so no two rows share
 * a page; a 512-column row, the evaluation's, is exactly one page. Row 0 (the
 * top edge) is held at 1.0, the other edges at 0.0; the interior starts
 * from a fixed pattern of values in [0, 1) (lap_initial). A Jacobi sweep
 * sets every interior point of the next array to the mean of its four
 * neighbours in the current one; the arrays swap after every sweep.
 *
 * Every version evaluates the same expression on the same operands, so the
 * result is bit-identical whatever the version or the number of UEs, and
 * equal to lap_reference()'s sequential run.
 */
#ifndef LAPLACE_H
#define LAPLACE_H

#include <stddef.h>

typedef struct {
    int rows, cols;  /* the whole grid, boundary included */
    size_t stride;   /* doubles from one row to the next */
    int iters;
} lap_grid_t;

/** The versions (-v). */
typedef enum { LAP_STRONG = 0, LAP_LAZY = 1, LAP_IRCCE = 2 } lap_version_t;

/** Options of one run. */
typedef struct {
    lap_grid_t grid;
    lap_version_t version;
    int mcs;       /* -m: 1 (MC 0) or 4 (every controller); SVM only */
    int check;     /* -C: compare with the sequential reference on UE 0 */
    int barrier;   /* -b: barrier per iteration (iRCCE; SVM always) */
    int *argc;     /* main's, for RCCE_init */
    char ***argv;
} lap_opts_t;

/** Doubles of one SVM page (4 KiB: the SCC's and the host's page). */
#define LAP_PAGE_DOUBLES 512

/**
 * Doubles per row for @p cols columns: a whole number of 32-byte lines;
 * with @p page_rows, a whole number of pages, so that no two UEs' rows
 * share a page (a shared page would move between their caches, or its
 * ownership between them, at every access).
 */
size_t lap_stride(int cols, int page_rows);

/** Initial (and, on the edges, fixed) value of point (@p g, @p j). */
double lap_initial(const lap_grid_t *grid, int g, int j);

/** Set rows [@p g0, @p g1) of @p rowp (pointing at row g0) to their
 *  initial values. */
void lap_init_rows(const lap_grid_t *grid, double *rowp, int g0, int g1);

/**
 * One sweep over @p n consecutive interior rows: @p src and @p dst point
 * at the first of them; the row above (src - stride) and the row below the
 * last must be readable. Boundary columns are left alone.
 */
void lap_sweep(const lap_grid_t *grid, const double *src, double *dst,
               int n);

/** Interior rows of UE @p ue among @p nues: the first global row and the
 *  count (contiguous blocks; the first rows - 2 mod nues UEs get one
 *  more). */
void lap_partition(const lap_grid_t *grid, int nues, int ue, int *first,
                   int *count);

/** Sum of row @p rowp's cols values, left to right. */
double lap_row_sum(const lap_grid_t *grid, const double *rowp);

/**
 * The sequential reference: @p iters sweeps of the whole grid in private
 * memory.
 * @return the final grid (rows x stride doubles; free() it), or NULL.
 */
double *lap_reference(const lap_grid_t *grid);

/** Largest |a - b| over every point of two whole grids. */
double lap_max_diff(const lap_grid_t *grid, const double *a,
                    const double *b);

/** The checksum of a whole grid: row sums added in row order. */
double lap_checksum(const lap_grid_t *grid, const double *a);

/** The versions' entry points; return the exit status. */
int lap_run_ircce(const lap_opts_t *opts);
int lap_run_svm(const lap_opts_t *opts);

/** Report a failed call of UE @p ue and exit (status 1). */
void lap_fail(int ue, const char *what, const char *why);

/** Unless @p rc is RCCE_SUCCESS: report the failed RCCE call @p what of
 *  this UE, with RCCE's error string, and exit (status 1). */
void lap_check(int rc, const char *what);

/**
 * RCCE_init with main's arguments, then this UE's number and the number of
 * UEs, and a check that the grid's interior rows can be split over them.
 * @return 0; EXIT_FAILURE if RCCE_init failed (said on stderr); or 2 if
 *         there are too few rows (UE 0 says so): RCCE is up then, and the
 *         caller finalizes it, after whatever it started before RCCE.
 */
int lap_rcce_start(const lap_opts_t *opts, int *me, int *nues);

/**
 * Print the result line (UE 0). max_diff < 0: not checked. faults,
 * soft_faults < 0: no SVM statistics.
 * @return EXIT_SUCCESS, or EXIT_FAILURE (said on stderr) if the checksum
 *         is not finite or the grid differs from the reference.
 */
int lap_print_result(const lap_opts_t *opts, int nues, double time_s,
                     double checksum, double max_diff, long long faults,
                     long long soft_faults);

/** Names of the versions, for -v and the result line. */
const char *lap_version_name(lap_version_t v);

#endif
