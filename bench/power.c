/*
 * power.c: the kernels of the `power` bench suite (bench/README.md,
 * docs/POWER.md), on the sim backend.
 *
 *   bench_power dot N FDIV   every UE: dot product of two N-double vectors
 *                            read from shared DRAM (uncached), 4 times
 *   bench_power mm N FDIV    every UE: an N x N matrix multiply in its
 *                            private memory (compute-bound)
 *   bench_power busy CALLS   every UE reads its cycle counter CALLS times
 *                            (the idle-to-48-busy-cores power curve)
 *
 * FDIV: each power domain's master sets the divider (and the voltage the
 * chip needs for it) with RCCE_iset_power / RCCE_wait_power before the
 * kernel. UE 0 prints one line: "kernel=dot fdiv=F t0_s=... t1_s=...
 * flops=..." (chip seconds from RCCE_wtime, the kernel between two
 * barriers); the harness integrates the report's power series over
 * [t0, t1] for the kernel's energy.
 */
#include "RCCE.h"
#include "rck/hal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double dot_kernel(long n)
{
    enum { CHUNK = 512 };
    size_t bytes = (size_t)n * sizeof(double);
    double *a = (double *)RCCE_shmalloc(2 * bytes);
    double x[CHUNK], y[CHUNK], sum = 0;
    rck_hal_t *hal = rck_hal_self();
    size_t base;

    if (a == NULL) {
        fprintf(stderr, "bench_power: no shared memory for %ld doubles\n", n);
        exit(2);
    }
    {
        void *shm = NULL;
        size_t len = 0;
        rck_hal_shm_map(hal, &shm, &len);
        base = (size_t)((char *)a - (char *)shm);
    }
    for (int rep = 0; rep < 4; rep++) {
        for (long i = 0; i < n; i += CHUNK) {
            long k = n - i < CHUNK ? n - i : CHUNK;
            rck_hal_shm_read(hal, base + (size_t)i * sizeof(double), x,
                             (size_t)k * sizeof(double));
            rck_hal_shm_read(hal, base + bytes + (size_t)i * sizeof(double),
                             y, (size_t)k * sizeof(double));
            for (long j = 0; j < k; j++)
                sum += x[j] * y[j];
        }
    }
    return sum;
}

static double mm_kernel(int n)
{
    double *a = malloc(sizeof(double) * (size_t)n * (size_t)n * 3);
    double *b, *c, s = 0;

    if (a == NULL)
        exit(2);
    b = a + (size_t)n * (size_t)n;
    c = b + (size_t)n * (size_t)n;
    for (int i = 0; i < n * n; i++) {
        a[i] = (double)(i % 7);
        b[i] = (double)(i % 5);
        c[i] = 0;
    }
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n; k++)
            for (int j = 0; j < n; j++)
                c[i * n + j] += a[i * n + k] * b[k * n + j];
    for (int i = 0; i < n * n; i++)
        s += c[i];
    free(a);
    return s;
}

static void set_power(int fdiv)
{
    RCCE_REQUEST req;
    int fnew, vnew;

    memset(&req, 0, sizeof req);
    if (RCCE_iset_power(fdiv, &req, &fnew, &vnew) != RCCE_SUCCESS ||
        RCCE_wait_power(&req) != RCCE_SUCCESS) {
        fprintf(stderr, "bench_power: divider %d refused\n", fdiv);
        exit(2);
    }
}

int main(int argc, char **argv)
{
    const char *kernel;
    long n;
    int fdiv;
    double t0, t1, flops, r = 0;

    if (RCCE_init(&argc, &argv) != RCCE_SUCCESS)
        return 3;
    if (argc < 3) {
        fprintf(stderr, "usage: bench_power dot|mm N FDIV | busy CALLS\n");
        return 2;
    }
    kernel = argv[1];
    n = atol(argv[2]);
    fdiv = argc > 3 ? atoi(argv[3]) : 3;
    if (strcmp(kernel, "busy") != 0)
        set_power(fdiv);
    RCCE_barrier(&RCCE_COMM_WORLD);
    t0 = RCCE_wtime();
    if (strcmp(kernel, "dot") == 0) {
        r = dot_kernel(n);
        flops = 4.0 * 2.0 * (double)n;
    } else if (strcmp(kernel, "mm") == 0) {
        r = mm_kernel((int)n);
        flops = 2.0 * (double)n * (double)n * (double)n;
    } else {
        uint64_t c;
        for (long i = 0; i < n; i++)
            rck_hal_cycles(rck_hal_self(), &c);
        flops = 0;
    }
    RCCE_barrier(&RCCE_COMM_WORLD);
    t1 = RCCE_wtime();
    if (RCCE_ue() == 0)
        printf("kernel=%s n=%ld fdiv=%d ues=%d t0_s=%.9f t1_s=%.9f "
               "flops=%.0f check=%g\n",
               kernel, n, fdiv, RCCE_num_ues(), t0, t1,
               flops * RCCE_num_ues(), r);
    RCCE_finalize();
    return 0;
}
