/*
 * p54c_kern.c: one-UE kernels for the speed of the compiled memory model
 * (bench --suite p54c, docs/P54C.md "The compiled memory model", Speed).
 * Built three ways (bench/CMakeLists.txt): plain, with compiled counters
 * (p54c_kern_counted: p54c-fast) and with memory checks (p54c_kern_mem:
 * the compiled p54c). UE 0 runs the kernel; the others wait.
 *
 *   lu N I       I iterations of an SSOR solve shaped like NAS LU's
 *                (rhs, then per k-plane the 5x5 block Jacobians and the
 *                lower sweep, then the upper sweep in reverse, then the
 *                update) on an N^3 grid of 5 unknowns a point. N = 12 is
 *                NAS class S's grid: u, rsd and frct 69 KiB each and one
 *                plane's four Jacobians 115 KiB, a working set that
 *                partly fits the P54C's 256 KiB L2 (as class S/W did).
 *   stencil N I  I sweeps of a 5-point stencil on two N x N arrays of
 *                doubles (N = 256: two 512 KiB arrays, the L2 missed on
 *                every line: the worst case, not a NAS-like kernel)
 *
 * Prints one line: p54c_kern: kernel=K n=N iters=I chip_s=C host_s=H
 * checksum=X, where C is the kernel's chip time (RCCE_wtime) and H the
 * host CPU time of this process over the same span (the model's slow
 * paths and DRAM booking run in this process on the compiled engine).
 * The checksum is the same under every model and build.
 *
 * The arrays are static and nothing in the kernels calls the C library
 * (built with -fno-tree-loop-distribute-patterns), so the engines see the
 * program only.
 */
#include "RCCE.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NC 5
#define LU_NMAX 24
#define ST_NMAX 512

static double u[LU_NMAX * LU_NMAX * LU_NMAX * NC];
static double rsd[LU_NMAX * LU_NMAX * LU_NMAX * NC];
static double frct[LU_NMAX * LU_NMAX * LU_NMAX * NC];
/* one k-plane's Jacobians: [j][i][m][l] */
static double ja[LU_NMAX * LU_NMAX * NC * NC], jb[LU_NMAX * LU_NMAX * NC * NC];
static double jc[LU_NMAX * LU_NMAX * NC * NC], jd[LU_NMAX * LU_NMAX * NC * NC];
static double g0[ST_NMAX * ST_NMAX], g1[ST_NMAX * ST_NMAX];

static int n;
#define P(k, j, i) ((((size_t)(k) * (size_t)n + (size_t)(j)) * (size_t)n + \
                     (size_t)(i)) * NC)
#define Q(j, i) (((size_t)(j) * (size_t)n + (size_t)(i)) * NC * NC)

static const double dc[NC] = {0.20, 0.22, 0.24, 0.26, 0.28};
static const double vel[3] = {0.20, 0.15, 0.10}; /* i, j, k */
static const double omega = 1.2;

/* rsd = frct - A u on the interior: A is diffusion, convection, a weak
 * coupling of the unknowns and the identity (diagonally dominant). */
static __attribute__((noipa)) void lu_rhs(void)
{
    for (int k = 1; k < n - 1; k++)
        for (int j = 1; j < n - 1; j++)
            for (int i = 1; i < n - 1; i++) {
                const double *c = &u[P(k, j, i)];
                const double *xm = &u[P(k, j, i - 1)], *xp = &u[P(k, j, i + 1)];
                const double *ym = &u[P(k, j - 1, i)], *yp = &u[P(k, j + 1, i)];
                const double *zm = &u[P(k - 1, j, i)], *zp = &u[P(k + 1, j, i)];
                double cs = c[0] + c[1] + c[2] + c[3] + c[4];
                for (int m = 0; m < NC; m++) {
                    double lap = xm[m] + xp[m] + ym[m] + yp[m] + zm[m] + zp[m] -
                                 6.0 * c[m];
                    double conv = 0.5 * (vel[0] * (xp[m] - xm[m]) +
                                         vel[1] * (yp[m] - ym[m]) +
                                         vel[2] * (zp[m] - zm[m]));
                    double au = -dc[m] * lap + conv + c[m] +
                                0.02 * (cs - c[m]);
                    rsd[P(k, j, i) + m] = frct[P(k, j, i) + m] - au;
                }
            }
}

/* The four blocks of plane k, from u (as NAS LU's jacld/jacu compute
 * them from the solution): @p dir -1 the lower neighbours' (k-1, j-1,
 * i-1), +1 the upper ones'. */
static __attribute__((noipa)) void lu_jac(int k, int dir)
{
    for (int j = 1; j < n - 1; j++)
        for (int i = 1; i < n - 1; i++) {
            const double *c = &u[P(k, j, i)];
            double *a = &ja[Q(j, i)], *b = &jb[Q(j, i)];
            double *cc = &jc[Q(j, i)], *d = &jd[Q(j, i)];
            for (int m = 0; m < NC; m++)
                for (int l = 0; l < NC; l++) {
                    double w = 1e-3 * c[m] * c[l] / (1.0 + c[l] * c[l]);
                    double e = m == l;
                    a[m * NC + l] = e * (-dc[m] - dir * 0.5 * vel[2]) + w;
                    b[m * NC + l] = e * (-dc[m] - dir * 0.5 * vel[1]) + w;
                    cc[m * NC + l] = e * (-dc[m] - dir * 0.5 * vel[0]) + w;
                    d[m * NC + l] = e * (6.0 * dc[m] + 1.0) +
                                    (1.0 - e) * 0.02 + w;
                }
        }
}

/* Solve d x = v in place (5x5, no pivoting: d is diagonally dominant);
 * d is overwritten. */
static inline void solve5(double *d, double *v)
{
    for (int p = 0; p < NC; p++) {
        double inv = 1.0 / d[p * NC + p];
        for (int r = p + 1; r < NC; r++) {
            double f = d[r * NC + p] * inv;
            for (int l = p + 1; l < NC; l++)
                d[r * NC + l] -= f * d[p * NC + l];
            v[r] -= f * v[p];
        }
    }
    for (int p = NC - 1; p >= 0; p--) {
        double s = v[p];
        for (int l = p + 1; l < NC; l++)
            s -= d[p * NC + l] * v[l];
        v[p] = s / d[p * NC + p];
    }
}

/* The lower (dir -1, ascending) or upper (dir +1, descending) sweep of
 * plane k over rsd. */
static __attribute__((noipa)) void lu_sweep(int k, int dir)
{
    int lo = dir < 0 ? 1 : n - 2, hi = dir < 0 ? n - 1 : 0;

    for (int j = lo; j != hi; j -= dir)
        for (int i = lo; i != hi; i -= dir) {
            const double *a = &ja[Q(j, i)], *b = &jb[Q(j, i)];
            const double *cc = &jc[Q(j, i)];
            const double *vz = &rsd[P(k + dir, j, i)];
            const double *vy = &rsd[P(k, j + dir, i)];
            const double *vx = &rsd[P(k, j, i + dir)];
            double *v = &rsd[P(k, j, i)];
            double t[NC];
            for (int m = 0; m < NC; m++) {
                double s = 0;
                for (int l = 0; l < NC; l++)
                    s += a[m * NC + l] * vz[l] + b[m * NC + l] * vy[l] +
                         cc[m * NC + l] * vx[l];
                /* blts: v = D^-1 (v - omega L v); buts: v -= D^-1 omega U v */
                t[m] = dir < 0 ? v[m] - omega * s : omega * s;
            }
            solve5(&jd[Q(j, i)], t);
            for (int m = 0; m < NC; m++)
                v[m] = dir < 0 ? t[m] : v[m] - t[m];
        }
}

static __attribute__((noipa)) void lu_update(void)
{
    double tmp = 1.0 / (omega * (2.0 - omega));
    for (int k = 1; k < n - 1; k++)
        for (int j = 1; j < n - 1; j++)
            for (int i = 1; i < n - 1; i++)
                for (int m = 0; m < NC; m++)
                    u[P(k, j, i) + m] += tmp * rsd[P(k, j, i) + m];
}

static __attribute__((noipa)) void lu_init(void)
{
    for (int k = 0; k < n; k++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                int edge = k == 0 || j == 0 || i == 0 || k == n - 1 ||
                           j == n - 1 || i == n - 1;
                for (int m = 0; m < NC; m++) {
                    u[P(k, j, i) + m] = edge ? 1.0 + 0.1 * m : 0.0;
                    rsd[P(k, j, i) + m] = 0.0;
                    frct[P(k, j, i) + m] =
                        1.0 + 0.1 * m + 0.01 * (double)(i + 2 * j + 3 * k);
                }
            }
}

static __attribute__((noipa)) double lu_norm(void)
{
    double s = 0;
    lu_rhs();
    for (int k = 1; k < n - 1; k++)
        for (int j = 1; j < n - 1; j++)
            for (int i = 1; i < n - 1; i++)
                for (int m = 0; m < NC; m++)
                    s += rsd[P(k, j, i) + m] * rsd[P(k, j, i) + m];
    return s;
}

static double k_lu(int iters)
{
    lu_init();
    for (int it = 0; it < iters; it++) {
        lu_rhs();
        for (int k = 1; k < n - 1; k++) {
            lu_jac(k, -1);
            lu_sweep(k, -1);
        }
        for (int k = n - 2; k >= 1; k--) {
            lu_jac(k, 1);
            lu_sweep(k, 1);
        }
        lu_update();
    }
    return lu_norm();
}

static __attribute__((noipa)) double k_stencil(int iters)
{
    double *a = g0, *b = g1;
    for (int i = 0; i < n * n; i++)
        a[i] = b[i] = (double)(i % 17);
    for (int it = 0; it < iters; it++) {
        for (int y = 1; y < n - 1; y++)
            for (int x = 1; x < n - 1; x++)
                b[y * n + x] = 0.25 * (a[(y - 1) * n + x] + a[(y + 1) * n + x] +
                                       a[y * n + x - 1] + a[y * n + x + 1]);
        double *t = a;
        a = b;
        b = t;
    }
    double s = 0;
    for (int i = 0; i < n * n; i++)
        s += a[i];
    return s;
}

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    int lu, iters, nmax;
    char *end;

    if (RCCE_init(&argc, &argv) != RCCE_SUCCESS) {
        fprintf(stderr, "p54c_kern: RCCE_init failed\n");
        return 3;
    }
    lu = argc == 4 && !strcmp(argv[1], "lu");
    if (argc != 4 || (!lu && strcmp(argv[1], "stencil"))) {
        fprintf(stderr, "usage: p54c_kern lu N ITERS | stencil N ITERS\n");
        RCCE_finalize();
        return 2;
    }
    nmax = lu ? LU_NMAX : ST_NMAX;
    n = (int)strtol(argv[2], &end, 10);
    iters = *end == 0 ? (int)strtol(argv[3], &end, 10) : -1;
    if (*end != 0 || n < 3 || n > nmax || iters < 0) {
        fprintf(stderr, "p54c_kern: N must be 3 to %d and ITERS >= 0 (got "
                        "'%s' '%s')\n", nmax, argv[2], argv[3]);
        RCCE_finalize();
        return 2;
    }
    if (RCCE_ue() == 0) {
        double h0 = cpu_s(), t0 = RCCE_wtime();
        double x = lu ? k_lu(iters) : k_stencil(iters);
        double t1 = RCCE_wtime(), h1 = cpu_s();
        printf("p54c_kern: kernel=%s n=%d iters=%d chip_s=%.9f host_s=%.6f "
               "checksum=%.10e\n", argv[1], n, iters, t1 - t0, h1 - h0, x);
    }
    RCCE_finalize();
    return 0;
}
