/* The box of farmpar.snet: <n> rounds of an integer recurrence, the
 * result a tag (the same on every layer and UE count). */
#include <C4SNet.h>

void *work(void *hnd, int p, int n)
{
    unsigned x = (unsigned)p * 2654435761u + 1u;
    for (int i = 0; i < n; i++)
        x = x * 1103515245u + 12345u + (x >> 7);
    C4SNetOut(hnd, 1, p, (int)(x & 0x7fffffff));
    return hnd;
}
