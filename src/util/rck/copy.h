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

/* Copy @p n bytes: up to 64 in a few moves without a call (the headers
 * and short messages of the latency path), more with memcpy. */
static inline void rck_copy(void *dst, const void *src, size_t n)
{
    char *d = dst;
    const char *s = src;

    if (n > 64) {
        memcpy(d, s, n);
    } else if (n > 32) {
        /* the first and the last 32 bytes, overlapping */
        char a[32], b[32];
        memcpy(a, s, 32);
        memcpy(b, s + n - 32, 32);
        memcpy(d, a, 32);
        memcpy(d + n - 32, b, 32);
    } else if (n >= 16) {
        /* two overlapping 16-byte moves */
        char a[16], b[16];
        memcpy(a, s, 16);
        memcpy(b, s + n - 16, 16);
        memcpy(d, a, 16);
        memcpy(d + n - 16, b, 16);
    } else if (n >= 8) {
        uint64_t a, b;
        memcpy(&a, s, 8);
        memcpy(&b, s + n - 8, 8);
        memcpy(d, &a, 8);
        memcpy(d + n - 8, &b, 8);
    } else if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, s, 4);
        memcpy(&b, s + n - 4, 4);
        memcpy(d, &a, 4);
        memcpy(d + n - 4, &b, 4);
    } else if (n > 0) {
        char a = s[0], b = s[n / 2], c = s[n - 1];
        d[0] = a;
        d[n / 2] = b;
        d[n - 1] = c;
    }
}

#endif
