/*
 * Functions of Intel's RCCE library that are not in its RCCE.h but that
 * programs call, declaring them themselves or through RCCE_lib.h:
 * id_compare, RCCE_global_color, print_dividers. In a file of their own,
 * so that a program linked statically that defines one of them itself
 * does not meet a duplicate definition.
 */
#include "rcce_internal.h"

#include <stdio.h>

int id_compare(const void *e1, const void *e2)
{
    int a = *(const int *)e1, b = *(const int *)e2;

    return (a > b) - (a < b);
}

int RCCE_global_color(int rank, void *nothing)
{
    return 1;
}

/* Intel's diagnostic (RCCE_lib.h): one line per tile with its clock
 * divider; -1 where the backend cannot tell. Printing is its purpose. */
void print_dividers(void)
{
    const rck_chip_t *c;

    if (!rcce_ready("print_dividers"))
        return;
    c = &rcce.hal->chip;
    for (int tile = 0; tile < c->ntiles; tile++) {
        int fdiv = -1;

        if (rck_hal_freq_get(rcce.hal, tile * c->cores_per_tile, &fdiv) !=
            RCK_OK)
            fdiv = -1;
        printf("Clock divider for tile %d is %d\n", tile, fdiv);
    }
    fflush(stdout);
}
