/*
 * crash_boxes.c: the boxes of tests/snet/dist/crash.snet: inc, and boom,
 * which aborts the UE it runs on when it gets x = 3 (and passes x on
 * otherwise).
 */
#include <C4SNet.h>
#include <stdlib.h>

void *inc(void *hnd, c4snet_data_t *x)
{
    int v = *(int *)C4SNetGetData(x) + 1;
    C4SNetFree(x);
    C4SNetOut(hnd, 1, C4SNetCreate(CTYPE_int, 1, &v));
    return hnd;
}

void *boom(void *hnd, c4snet_data_t *x)
{
    if (*(int *)C4SNetGetData(x) == 3)
        abort();
    C4SNetOut(hnd, 1, x);
    return hnd;
}
