/*
 * Small copies without a call: the headers and short messages of the
 * latency paths (the MPI library's packets, the native backend's MPB
 * writes). memcpy's call and size dispatch cost more than the copy itself
 * below a line.
 */
#ifndef RCK_COPY_H
#define RCK_COPY_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The first and the last @p w bytes of @p n (w <= n <= 2w, w <= 32),
 * overlapping; with w a constant the moves are fixed-size. */
static inline __attribute__((always_inline)) void
rck_copy_ends(char *d, const char *s, size_t n, size_t w)
{
    char a[32], b[32];

    memcpy(a, s, w);
    memcpy(b, s + n - w, w);
    memcpy(d, a, w);
    memcpy(d + n - w, b, w);
}

/* Copy @p n bytes, n <= 64, in a few moves (no call at all). */
static inline __attribute__((always_inline)) void
rck_copy_small(void *dst, const void *src, size_t n)
{
    char *d = dst;
    const char *s = src;

    if (n > 32) {
        rck_copy_ends(d, s, n, 32);
    } else if (n >= 16) {
        rck_copy_ends(d, s, n, 16);
    } else if (n >= 8) {
        rck_copy_ends(d, s, n, 8);
    } else if (n >= 4) {
        rck_copy_ends(d, s, n, 4);
    } else if (n > 0) {
        char a = s[0], b = s[n / 2], c = s[n - 1];
        d[0] = a;
        d[n / 2] = b;
        d[n - 1] = c;
    }
}

/* Copy @p n bytes: up to 64 in a few moves without a call (the headers
 * and short messages of the latency path), more with memcpy. Always
 * inline: out of line (as link-time optimisation chose once) it is the
 * call it is here to avoid. */
static inline __attribute__((always_inline)) void
rck_copy(void *dst, const void *src, size_t n)
{
    if (n > 64)
        memcpy(dst, src, n);
    else
        rck_copy_small(dst, src, n);
}

#endif
