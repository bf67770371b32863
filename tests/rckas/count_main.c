/* Runs loop() (instrumented) for the N given on the command line and
 * prints, per N, the instructions and units it added to the counters.
 * Built without the counting assembler. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

uint64_t ctr_insns(void);
uint64_t ctr_units(void);
unsigned long loop(unsigned long n, unsigned long x);

int main(int argc, char **argv)
{
    unsigned long sink = 0;
    for (int i = 1; i < argc; i++) {
        unsigned long n = strtoul(argv[i], NULL, 0);
        uint64_t i0 = ctr_insns(), u0 = ctr_units();
        sink += loop(n, (unsigned long)i);
        uint64_t i1 = ctr_insns(), u1 = ctr_units();
        printf("%lu %llu %llu\n", n, (unsigned long long)(i1 - i0),
               (unsigned long long)(u1 - u0));
    }
    fprintf(stderr, "sink %lu\n", sink);
    return 0;
}
