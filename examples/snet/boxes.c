/*
 * boxes.c: the C boxes of the S-Net examples (docs/SNET.md). Each is a
 * box of the C4SNet interface: the handle, then the signature's entries.
 */
#include <C4SNet.h>

/* (x) -> (x): x + 1 */
void *inc(void *hnd, c4snet_data_t *x)
{
    int v = *(int *)C4SNetGetData(x) + 1;
    C4SNetFree(x);
    C4SNetOut(hnd, 1, C4SNetCreate(CTYPE_int, 1, &v));
    return hnd;
}

/* (x) -> (x): 2 x */
void *dbl(void *hnd, c4snet_data_t *x)
{
    int v = *(int *)C4SNetGetData(x) * 2;
    C4SNetFree(x);
    C4SNetOut(hnd, 1, C4SNetCreate(CTYPE_int, 1, &v));
    return hnd;
}

/* (x, <w>) -> (y, <w>): y = x * x, tagged with the worker w */
void *square(void *hnd, c4snet_data_t *x, int w)
{
    int v = *(int *)C4SNetGetData(x);
    v *= v;
    C4SNetFree(x);
    C4SNetOut(hnd, 1, C4SNetCreate(CTYPE_int, 1, &v), w);
    return hnd;
}

/* (n, <k>) -> (n, <k>) | (r, <k>): one Collatz step on n, counting steps
 * in k; r = the number of steps once n reaches 1 */
void *collatz(void *hnd, c4snet_data_t *n, int k)
{
    int v = *(int *)C4SNetGetData(n);
    C4SNetFree(n);
    if (v <= 1) {
        C4SNetOut(hnd, 2, C4SNetCreate(CTYPE_int, 1, &k), k);
        return hnd;
    }
    v = v % 2 ? 3 * v + 1 : v / 2;
    C4SNetOut(hnd, 1, C4SNetCreate(CTYPE_int, 1, &v), k + 1);
    return hnd;
}

/* (a, b) -> (s): s = a + b */
void *add(void *hnd, c4snet_data_t *a, c4snet_data_t *b)
{
    int v = *(int *)C4SNetGetData(a) + *(int *)C4SNetGetData(b);
    C4SNetFree(a);
    C4SNetFree(b);
    C4SNetOut(hnd, 1, C4SNetCreate(CTYPE_int, 1, &v));
    return hnd;
}

/* (x) -> (x) | (x, <twice>): passes x, and once more tagged if it is odd */
void *fork2(void *hnd, c4snet_data_t *x)
{
    int v = *(int *)C4SNetGetData(x);
    if (v % 2)
        C4SNetOut(hnd, 2, C4SNetShallowCopy(x), 1);
    C4SNetOut(hnd, 1, x);
    return hnd;
}
