/*
 * fan_boxes.c: the boxes of tests/snet/dist/fan.snet: spread emits <n>
 * records for one, slow does some work on each, mark (twice the work)
 * tags the result.
 */
#include <C4SNet.h>

void *spread(void *hnd, int x, int n)
{
    for (int i = 0; i < n; i++)
        C4SNetOut(hnd, 1, x * 100 + i);
    return hnd;
}

static unsigned work(unsigned v, int rounds)
{
    for (int i = 0; i < rounds; i++)
        v = v * 1103515245u + 12345u + (v >> 7);
    return v;
}

void *slow(void *hnd, int y)
{
    C4SNetOut(hnd, 1, y, (int)(work((unsigned)y, 200000) & 0xffff));
    return hnd;
}

/* slower still: UE 0 waits for UE 2's queue, taking UE 1's outputs */
void *mark(void *hnd, int y, int h)
{
    C4SNetOut(hnd, 1, y, h, (int)(work((unsigned)(y + h), 400000) % 7));
    return hnd;
}
