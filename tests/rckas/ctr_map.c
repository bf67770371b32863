/*
 * The counters' page for the rck-as tests, whose programs are built by
 * plain gcc without librockcreek (which maps it for rckcc's programs):
 * mapped before any instrumented code runs, by a constructor of
 * priority 101 in this object, which is built WITHOUT the counting
 * assembler. Also the readers of the two words.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "p54c_abi.h"

__attribute__((constructor(101))) static void ctr_map(void)
{
    void *want = (void *)(uintptr_t)P54C_CTR_ADDR;
    void *p = mmap(want, 4096, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    /* a program linked with librockcreek (rckcc -rck-mem: the memory
     * checks need its slow paths) has it mapped already */
    if (p == MAP_FAILED && errno == EEXIST &&
        *(volatile uint64_t *)want == P54C_CTR_MAGIC)
        return;
    if (p != want) {
        fprintf(stderr, "ctr_map: cannot map the counters' page at %p "
                "(got %p)\n", want, p);
        exit(3);
    }
}

uint64_t ctr_insns(void)
{
    return *(volatile uint64_t *)(uintptr_t)(P54C_CTR_ADDR +
                                             P54C_CTR_INSNS_OFF);
}

uint64_t ctr_units(void)
{
    return *(volatile uint64_t *)(uintptr_t)(P54C_CTR_ADDR +
                                             P54C_CTR_UNITS_OFF);
}
