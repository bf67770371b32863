/* Shared by the collectives' tests: a non-commutative user operation (the
 * product of 2x2 matrices of unsigned, wrapping: associative) and the
 * usual test kit. */
#ifndef COLLTEST_H
#define COLLTEST_H
#include "mpitest.h"

static inline void matmul(void *in, void *inout, int *len, MPI_Datatype *t)
{
    unsigned *a = in, *b = inout;

    (void)t;
    for (int k = 0; k < *len; k++, a += 4, b += 4) {
        unsigned c[4] = {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
                         a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3]};
        memcpy(b, c, sizeof c);
    }
}

static inline void usum(void *in, void *inout, int *len, MPI_Datatype *t)
{
    (void)t;
    for (int k = 0; k < *len; k++)
        ((int *)inout)[k] += ((int *)in)[k];
}

/* the matrix rank r contributes */
static inline void mat_of(int r, unsigned m[4])
{
    m[0] = (unsigned)r + 1;
    m[1] = (unsigned)r * 3 + 2;
    m[2] = 7u - (unsigned)r % 5;
    m[3] = (unsigned)r % 4 + 1;
}

/* out = product of the matrices of ranks lo..hi-1, in rank order */
static inline void mat_prefix(int lo, int hi, unsigned out[4])
{
    unsigned b[4], one = 1;

    mat_of(lo, out);
    for (int r = lo + 1; r < hi; r++) {
        mat_of(r, b);
        matmul(out, b, (int *)&one, NULL);
        memcpy(out, b, sizeof b);
    }
}
#endif
