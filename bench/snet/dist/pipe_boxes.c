/* The box of pipe8.snet and pipe48.snet: <n> rounds of an integer
 * recurrence on <x> (the same result on every layer and UE count). */
#include <C4SNet.h>

void *work(void *hnd, int x, int n)
{
    unsigned v = (unsigned)x * 2654435761u + 1u;
    for (int i = 0; i < n; i++)
        v = v * 1103515245u + 12345u + (v >> 7);
    C4SNetOut(hnd, 1, (int)(v & 0x7fffffff), n);
    return hnd;
}
