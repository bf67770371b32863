/*
 * p54c_fetch.c: instruction fetch at the unchecked code's addresses
 * (docs/P54C.md, "Fetch at the unchecked addresses"). One large unrolled
 * function (about 23 KiB of code unchecked: more than the model's 16 KiB
 * L1I, so that every call misses each of its lines; the memory checks
 * spread it over many times that) and a small loop that fits
 * L1I. Built twice: checked (rckcc -rck-mem) for the compiled engine, and
 * counted only (plain rckcc) for QEMU; p54c_fetch.py compares the L1I
 * misses of both.
 *
 *   big N     UE 0: N calls of the large function
 *   bigload N UE 0: N calls of a large function that only loads
 *   small N   UE 0: N iterations of a small loop
 * Each prints a checksum. Nothing calls the C library in the kernels.
 */
#include "rck/hal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t v[64];

/* One statement of distinct code per index (constant offsets). */
#define S1(i) v[((i) * 7) & 63] += v[((i) * 13 + 5) & 63] ^ ((i) * 2654435761u);
#define S4(i) S1(i) S1((i) + 1) S1((i) + 2) S1((i) + 3)
#define S16(i) S4(i) S4((i) + 4) S4((i) + 8) S4((i) + 12)
#define S64(i) S16(i) S16((i) + 16) S16((i) + 32) S16((i) + 48)
#define S256(i) S64(i) S64((i) + 64) S64((i) + 128) S64((i) + 192)

__attribute__((noinline)) static void big(void)
{
    S256(0)
    S256(256)
    S256(512)
    S256(768)
    S256(1024)
}

/* The same size of code, loads only (no store waits on the L2 port). */
#define L1(i) s = (s ^ v[((i) * 7) & 63]) * ((i) * 2654435761u | 1);
#define L4(i) L1(i) L1((i) + 1) L1((i) + 2) L1((i) + 3)
#define L16(i) L4(i) L4((i) + 4) L4((i) + 8) L4((i) + 12)
#define L64(i) L16(i) L16((i) + 16) L16((i) + 32) L16((i) + 48)
#define L256(i) L64(i) L64((i) + 64) L64((i) + 128) L64((i) + 192)

__attribute__((noinline)) static uint32_t bigload(uint32_t s)
{
    L256(0)
    L256(256)
    L256(512)
    L256(768)
    L256(1024)
    L256(1280)
    L256(1536)
    L256(1792)
    return s;
}

__attribute__((noinline)) static uint32_t small(long n)
{
    uint32_t s = 0;
    for (long i = 0; i < n; i++)
        s = s * 31 + v[i & 63];
    return s;
}

int main(int argc, char **argv)
{
    rck_hal_t *hal;
    uint64_t r = 0;

    if (argc < 3 || rck_hal_open(NULL, &hal) != RCK_OK) {
        fprintf(stderr, "usage: p54c_fetch big|bigload|small N under rck run\n");
        return 2;
    }
    long n = atol(argv[2]);
    if (n < 0 || (strcmp(argv[1], "big") && strcmp(argv[1], "bigload") &&
                  strcmp(argv[1], "small"))) {
        fprintf(stderr, "p54c_fetch: unknown kernel %s or bad N %s\n",
                argv[1], argv[2]);
        rck_hal_close(hal);
        return 2;
    }
    for (int i = 0; i < 64; i++)
        v[i] = (uint32_t)i;
    if (hal->ue == 0) {
        if (!strcmp(argv[1], "big")) {
            for (long i = 0; i < n; i++)
                big();
            r = v[0] + v[63];
        } else if (!strcmp(argv[1], "bigload")) {
            uint32_t x = 1;
            for (long i = 0; i < n; i++)
                x = bigload(x);
            r = x;
        } else {
            r = small(n);
        }
    }
    printf("p54c_fetch: UE %d %s %ld: %llu\n", hal->ue, argv[1], n,
           (unsigned long long)r);
    rck_hal_close(hal);
    return 0;
}
