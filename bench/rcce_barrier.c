/*
 * rcce_barrier: time per RCCE_barrier(&RCCE_COMM_WORLD) over all UEs
 * (the driver runs it on 48). UE 0 times the loop and prints the line.
 */
#include "bench_common.h"

#include <RCCE.h>

int RCCE_APP(int argc, char **argv)
{
    long reps = 0;
    int use_wtime = 0;

    RCCE_init(&argc, &argv);
    if (bench_parse_barrier_args(argc, argv, &reps, &use_wtime) != 0) {
        RCCE_finalize();
        return 2;
    }
    int me = RCCE_ue();
    int n = RCCE_num_ues();
    if (me == 0) {
        printf("# rcce_barrier ues=%d timer=%s version=\"%s\"\n", n,
               use_wtime ? "RCCE_wtime" : "CLOCK_MONOTONIC", RCCE_VERSION);
    }
    for (long i = 0; i < bench_warmup_reps(reps); i++) {
        RCCE_barrier(&RCCE_COMM_WORLD);
    }
    double t0 = use_wtime ? RCCE_wtime() * 1e6 : bench_now_us();
    for (long i = 0; i < reps; i++) {
        int rc = RCCE_barrier(&RCCE_COMM_WORLD);
        if (rc != RCCE_SUCCESS) {
            fprintf(stderr, "rcce_barrier: UE %d: barrier failed: %d\n", me,
                    rc);
            return 1;
        }
    }
    double t1 = use_wtime ? RCCE_wtime() * 1e6 : bench_now_us();
    if (me == 0) {
        bench_print_barrier(n, reps, t1 - t0);
    }
    RCCE_finalize();
    return 0;
}
