/*
 * hello.c: the smallest RCCE program. Every UE reports its rank, the number
 * of UEs and its wall-clock time; after a barrier, UE 0 prints the total
 * obtained with an all-reduce (number of UEs that said hello, sum of ranks).
 *
 *   rck run -n 48 ./hello
 */
#include <stdio.h>
#include <stdlib.h>

#include "RCCE.h"

static void check(int rc, const char *what)
{
    if (rc != RCCE_SUCCESS) {
        char msg[2 * RCCE_MAX_ERROR_STRING] = "";
        int len = 0;
        RCCE_error_string(rc, msg, &len);
        fprintf(stderr, "hello: UE %d: %s FAILED: %s (%d)\n", RCCE_ue(), what,
                msg, rc);
        exit(EXIT_FAILURE);
    }
}

int RCCE_APP(int argc, char **argv)
{
    int rc = RCCE_init(&argc, &argv);
    if (rc != RCCE_SUCCESS) {
        fprintf(stderr, "hello: RCCE_init FAILED (%d)\n", rc);
        return EXIT_FAILURE;
    }

    double t_start = RCCE_wtime();
    int me = RCCE_ue();
    int num_ues = RCCE_num_ues();

    printf("Hello from UE %d of %d (wall time %.6f s)\n", me, num_ues, t_start);
    fflush(stdout);

    check(RCCE_barrier(&RCCE_COMM_WORLD), "RCCE_barrier");

    /* count the greetings and add up the ranks on every UE */
    int mine[2] = {1, me};
    int total[2] = {0, 0};
    check(RCCE_allreduce((char *)mine, (char *)total, 2, RCCE_INT, RCCE_SUM,
                         RCCE_COMM_WORLD),
          "RCCE_allreduce");

    double elapsed = RCCE_wtime() - t_start;
    double slowest = 0.0;
    check(RCCE_allreduce((char *)&elapsed, (char *)&slowest, 1, RCCE_DOUBLE,
                         RCCE_MAX, RCCE_COMM_WORLD),
          "RCCE_allreduce");

    int expected_sum = num_ues * (num_ues - 1) / 2;
    int ok = total[0] == num_ues && total[1] == expected_sum;
    if (me == 0) {
        printf("hello: total %d of %d UEs said hello, rank sum %d "
               "(expected %d), barrier + allreduce took %.6f s: %s\n",
               total[0], num_ues, total[1], expected_sum, slowest,
               ok ? "OK" : "FAILED");
        fflush(stdout);
    }

    check(RCCE_finalize(), "RCCE_finalize");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
