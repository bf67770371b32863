/* Initialiser boxes of conf/init.snet: they take no input. */
#include <C4SNet.h>

static int replicas;

void *hello(void *hnd)
{
    C4SNetOut(hnd, 1, 42);
    return hnd;
}

void *seed(void *hnd)
{
    C4SNetOut(hnd, 1, ++replicas);
    return hnd;
}
