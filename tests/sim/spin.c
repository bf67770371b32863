/*
 * spin.c: a program the sim backend cannot order: UE 0 spins on a shared
 * DRAM word with plain loads (no HAL call) until UE 1 sets it. Only one
 * core runs at a time in the simulation, so UE 1 runs only when the
 * watchdog (RCK_SIM_WATCHDOG seconds) takes the token from UE 0; the run
 * then completes, unordered, with a warning naming UE 0.
 */
#include <stdio.h>

#include "RCCE.h"

int RCCE_APP(int argc, char **argv)
{
    if (RCCE_init(&argc, &argv) != RCCE_SUCCESS || RCCE_num_ues() != 2)
        return 2;
    volatile int *flag = (volatile int *)RCCE_shmalloc(64);
    if (flag == NULL)
        return 3;
    if (RCCE_ue() == 0) {
        while (*flag == 0)
            ;
        printf("spin: UE 0 saw the flag\n");
    } else {
        *flag = 1;
        RCCE_shflush();
    }
    return RCCE_finalize() == RCCE_SUCCESS ? 0 : 1;
}
