/* Boxes of big.snet: long int arrays made, doubled into new arrays (a box
 * does not write a field it was given: other records may share it) and
 * summed (mod 1000003). */
#include <C4SNet.h>

#include <stddef.h>

void *make(void *hnd, int n)
{
    int *a;
    c4snet_data_t *f = C4SNetAlloc(CTYPE_int, (size_t)n, (void **)&a);
    for (int i = 0; i < n; i++)
        a[i] = i % 1000 + n % 7;
    C4SNetOut(hnd, 1, f, n);
    return hnd;
}

void *twice(void *hnd, c4snet_data_t *a)
{
    size_t n = C4SNetArraySize(a);
    const int *in = C4SNetGetData(a);
    int *out;
    c4snet_data_t *f = C4SNetAlloc(CTYPE_int, n, (void **)&out);
    for (size_t i = 0; i < n; i++)
        out[i] = 2 * in[i];
    C4SNetFree(a);
    C4SNetOut(hnd, 1, f);
    return hnd;
}

void *sum(void *hnd, c4snet_data_t *a, int n)
{
    size_t len = C4SNetArraySize(a);
    const int *p = C4SNetGetData(a);
    long long s = 0;
    for (size_t i = 0; i < len; i++)
        s = (s + p[i]) % 1000003;
    int first = len ? p[0] : -1, last = len ? p[len - 1] : -1;
    C4SNetFree(a);
    C4SNetOut(hnd, 1, n, (int)s, first, last);
    return hnd;
}
