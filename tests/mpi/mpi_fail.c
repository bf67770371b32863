/*
 * mpi_fail: one UE fails while the others wait for it, which they would
 * do forever: the run must stop every rank and exit with the failing
 * UE's status (as on native).
 *
 *   mpi_fail UE STATUS     UE exits with STATUS; the others wait in a
 *                          barrier that never completes
 *   mpi_fail hello         every UE prints one line and exits 0
 */
#include "RCCE.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    int me;

    if (RCCE_init(&argc, &argv) != RCCE_SUCCESS)
        return 1;
    me = RCCE_ue();
    if (argc > 1 && !strcmp(argv[1], "hello")) {
        printf("hello from UE %d of %d\n", me, RCCE_num_ues());
        RCCE_finalize();
        return 0;
    }
    if (argc < 3)
        return 2;
    if (me == atoi(argv[1])) {
        fprintf(stderr, "mpi_fail: UE %d fails on purpose\n", me);
        return atoi(argv[2]);
    }
    RCCE_barrier(&RCCE_COMM_WORLD);
    fprintf(stderr, "FAIL mpi_fail: UE %d passed a barrier it cannot pass\n",
            me);
    RCCE_finalize();
    return 0;
}
