/*
 * lt_noinit: a program that links rockcreek but never calls RCCE_init
 * (the launcher warns, naming each core: case never_init of lt_driver).
 * With the argument "init" it calls RCCE_init and RCCE_finalize (no
 * warning).
 */
#include "RCCE.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "init")) {
        if (RCCE_init(&argc, &argv) != RCCE_SUCCESS)
            return 1;
        RCCE_finalize();
    }
    printf("done\n");
    return 0;
}
