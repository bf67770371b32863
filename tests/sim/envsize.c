/*
 * envsize.c: a small RCCE program whose chip time under the P54C models
 * depends on where its stack is (docs/P54C.md, "Determinism"): every UE
 * copies a heap buffer into a stack buffer with an alignment prologue of
 * its own (its instruction count follows the stack's alignment) and reads
 * both back through the 2-way L1 (they conflict or not by their
 * addresses). envsize.cmake runs it with different environments,
 * arguments, working directories and --report: the cycles must not change.
 * Every further argument is read as the stack buffer is, and copied with
 * an alignment prologue on its own address: pathlen.cmake starts the
 * program by paths of other lengths, which must not move the arguments.
 *
 *   envsize [ROUNDS [STRING...]]   (default 4 rounds)
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

/* Bytes up to an 8-byte boundary of @p src, then 8 at a time; the sum of
 * what was copied. */
static __attribute__((noinline)) uint32_t copy_from(char *dst, const char *src,
                                                    size_t n)
{
    uint32_t s = 0;

    while (n > 0 && ((uintptr_t)src & 7) != 0) {
        s += (uint32_t)(unsigned char)*src;
        *dst++ = *src++;
        n--;
    }
    for (; n >= 8; n -= 8, dst += 8, src += 8) {
        uint64_t w;
        __builtin_memcpy(&w, src, 8);
        __builtin_memcpy(dst, &w, 8);
        s += (uint32_t)w;
    }
    while (n-- > 0) {
        s += (uint32_t)(unsigned char)*src;
        *dst++ = *src++;
    }
    return s;
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
        for (int a = 2; a < argc; a++) {
            size_t len = 0;
            while (argv[a][len] != '\0')
                len++;
            if (len > STACK_BYTES)
                len = STACK_BYTES;
            s += copy_from(buf, argv[a], len) + sum(argv[a], len);
        }
    }
    RCCE_barrier(&RCCE_COMM_WORLD);
    printf("envsize: UE %d of %d: checksum %u (argv[0] %s)\n", RCCE_ue(),
           RCCE_num_ues(), s, argv[0]);
    free(heap);
    RCCE_finalize();
    return 0;
}
