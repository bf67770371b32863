/*
 * libpath.c: prints which librockcreek the program runs with (the file
 * RCCE_init comes from). Under p54c-fast on the compiled counters the sim
 * gives programs the counted copy (rockcreek/counted/, docs/P54C.md);
 * elsewhere they run the library as it is.
 */
#include <RCCE.h>

#include <dlfcn.h>
#include <stdio.h>

int RCCE_APP(int argc, char **argv)
{
    Dl_info info;

    RCCE_init(&argc, &argv);
    if (dladdr((void *)RCCE_init, &info) == 0 || info.dli_fname == NULL) {
        printf("libpath: dladdr failed\n");
        return 1;
    }
    if (RCCE_ue() == 0)
        printf("libpath: %s\n", info.dli_fname);
    RCCE_finalize();
    return 0;
}
