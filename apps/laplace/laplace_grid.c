/*
 * laplace_grid.c: the grid, the Jacobi sweep and the sequential reference
 * shared by every version of the Laplace solver (see laplace.h).
 */
#include "laplace.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* doubles per 32-byte line */
#define LAP_LINE_DOUBLES 4

size_t lap_stride(int cols, int page_rows)
{
    size_t c = (size_t)cols;
    size_t unit = page_rows ? LAP_PAGE_DOUBLES : LAP_LINE_DOUBLES;
    return (c + unit - 1) / unit * unit;
}

double lap_initial(const lap_grid_t *grid, int g, int j)
{
    if (g == 0)
        return 1.0;  /* the top edge is hot */
    if (g == grid->rows - 1 || j == 0 || j == grid->cols - 1)
        return 0.0;
    /* the interior starts from a fixed pattern in [0, 1): every point
     * changes from the first sweep on (so a check with few iterations
     * covers every UE's rows), and no value decays into denormals */
    return (double)((g * 37 + j * 11) % 64) / 64.0;
}

void lap_init_rows(const lap_grid_t *grid, double *rowp, int g0, int g1)
{
    for (int g = g0; g < g1; g++) {
        double *r = rowp + (size_t)(g - g0) * grid->stride;
        for (int j = 0; j < grid->cols; j++)
            r[j] = lap_initial(grid, g, j);
        for (size_t j = (size_t)grid->cols; j < grid->stride; j++)
            r[j] = 0.0;
    }
}

void lap_sweep(const lap_grid_t *grid, const double *src, double *dst,
               int n)
{
    const size_t s = grid->stride;
    const int last = grid->cols - 1;
    for (int i = 0; i < n; i++) {
        const double *above = src + (size_t)i * s - s;
        const double *here = src + (size_t)i * s;
        const double *below = src + (size_t)i * s + s;
        double *out = dst + (size_t)i * s;
        for (int j = 1; j < last; j++)
            out[j] = 0.25 * ((above[j] + below[j]) +
                             (here[j - 1] + here[j + 1]));
    }
}

void lap_partition(const lap_grid_t *grid, int nues, int ue, int *first,
                   int *count)
{
    int interior = grid->rows - 2;
    int base = interior / nues, extra = interior % nues;
    *count = base + (ue < extra ? 1 : 0);
    *first = 1 + ue * base + (ue < extra ? ue : extra);
}

double lap_row_sum(const lap_grid_t *grid, const double *rowp)
{
    double s = 0.0;
    for (int j = 0; j < grid->cols; j++)
        s += rowp[j];
    return s;
}

double *lap_reference(const lap_grid_t *grid)
{
    size_t n = (size_t)grid->rows * grid->stride;
    double *a = malloc(n * sizeof(double));
    double *b = malloc(n * sizeof(double));
    if (!a || !b) {
        free(a);
        free(b);
        return NULL;
    }
    lap_init_rows(grid, a, 0, grid->rows);
    memcpy(b, a, n * sizeof(double));
    for (int it = 0; it < grid->iters; it++) {
        lap_sweep(grid, a + grid->stride, b + grid->stride, grid->rows - 2);
        double *t = a;
        a = b;
        b = t;
    }
    free(b);
    return a;
}

double lap_max_diff(const lap_grid_t *grid, const double *a,
                    const double *b)
{
    double m = 0.0;
    for (int g = 0; g < grid->rows; g++)
        for (int j = 0; j < grid->cols; j++) {
            size_t k = (size_t)g * grid->stride + (size_t)j;
            double d = fabs(a[k] - b[k]);
            if (!(d <= m))  /* also catches NaN */
                m = isnan(d) ? INFINITY : d;
        }
    return m;
}

double lap_checksum(const lap_grid_t *grid, const double *a)
{
    double s = 0.0;
    for (int g = 0; g < grid->rows; g++)
        s += lap_row_sum(grid, a + (size_t)g * grid->stride);
    return s;
}
