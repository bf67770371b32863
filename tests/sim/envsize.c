/*
 * envsize.c: a small RCCE program whose chip time under the P54C models
 * depends on where its stack is (docs/P54C.md, "Determinism"): every UE
 * copies a heap buffer into a stack buffer with an alignment prologue of
 * its own (its instruction count follows the stack's alignment) and reads
 * both back through the 2-way L1 (they conflict or not by their
 * addresses). envsize.cmake runs it with different environments,
 * arguments, working directories and --report: the cycles must not change.
 *
 *   envsize [ROUNDS]   (default 4)
 */
#include "RCCE.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define STACK_BYTES 6000
#define HEAP_BYTES 12288

/* Bytes up to a 64-byte boundary of @p dst (a line of the host), then 8
 * at a time. */
static __attribute__((noinline)) void copy(char *dst, const char *src,
                                           size_t n)
{
    while (n > 0 && ((uintptr_t)dst & 63) != 0) {
        *dst++ = *src++;
        n--;
    }
    for (; n >= 8; n -= 8, dst += 8, src += 8) {
        uint64_t w;
        __builtin_memcpy(&w, src, 8);
        __builtin_memcpy(dst, &w, 8);
    }
    while (n-- > 0)
        *dst++ = *src++;
}

static __attribute__((noinline)) uint32_t sum(const volatile char *a,
                                              size_t n)
{
    uint32_t s = 0;
    for (size_t i = 0; i < n; i += 4)
        s += (uint32_t)a[i];
    return s;
}

int main(int argc, char **argv)
{
    char buf[STACK_BYTES + 16];
    int rounds = argc > 1 ? atoi(argv[1]) : 4;
    uint32_t s = 0;
    char *heap;

    if (RCCE_init(&argc, &argv) != RCCE_SUCCESS) {
        fprintf(stderr, "envsize: RCCE_init failed\n");
        return 3;
    }
    heap = malloc(HEAP_BYTES);
    if (heap == NULL) {
        fprintf(stderr, "envsize: out of memory\n");
        return 3;
    }
    for (size_t i = 0; i < HEAP_BYTES; i++)
        heap[i] = (char)(i * 7 + (size_t)RCCE_ue());
    for (int r = 0; r < rounds; r++) {
        copy(buf + (r & 15), heap + r, STACK_BYTES);
        s += sum(buf, STACK_BYTES) + sum(heap, HEAP_BYTES);
    }
    RCCE_barrier(&RCCE_COMM_WORLD);
    printf("envsize: UE %d of %d: checksum %u\n", RCCE_ue(), RCCE_num_ues(),
           s);
    free(heap);
    RCCE_finalize();
    return 0;
}
