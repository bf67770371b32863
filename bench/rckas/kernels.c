/*
 * Kernels for the compiled counters' speed (bench/rckas/speed.sh,
 * docs/P54C-COUNTERS.md): an integer loop (a hash), a floating-point loop
 * (a Horner polynomial and a dot product), a branchy loop (a small
 * switch-driven interpreter). Prints a checksum so that nothing is
 * optimized away.
 *   kernels int|fp|branch ITERATIONS
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long k_int(unsigned long n)
{
    unsigned long x = 12345, s = 0;
    for (unsigned long i = 0; i < n; i++) {
        x = (x * 2654435761u + i) ^ (x >> 7);
        s += x & 0xff;
    }
    return s ^ x;
}

static double k_fp(unsigned long n)
{
    static double a[1024], b[1024];
    for (int i = 0; i < 1024; i++) {
        a[i] = 1.0 / (i + 1);
        b[i] = (i % 7) * 0.25;
    }
    double s = 0;
    for (unsigned long r = 0; r < n / 1024; r++) {
        double d = 0;
        for (int i = 0; i < 1024; i++) {
            double x = a[i];
            d += ((0.5 * x + 0.25) * x + 0.125) * x * b[i];
        }
        s += d / (r + 1);
    }
    return s;
}

static long k_branch(unsigned long n)
{
    long acc = 0;
    unsigned seed = 7;
    for (unsigned long i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        switch ((seed >> 16) & 7) {
        case 0: acc += i; break;
        case 1: acc -= (long)(i >> 1); break;
        case 2: acc ^= (long)seed; break;
        case 3: acc = acc < 0 ? -acc : acc + 1; break;
        case 4: acc += acc > 1000 ? -3 : 5; break;
        case 5: acc |= 1; break;
        default: acc = (acc << 1) ^ (acc >> 3); break;
        }
    }
    return acc;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: kernels int|fp|branch ITERATIONS\n");
        return 2;
    }
    unsigned long n = strtoul(argv[2], NULL, 0);
    if (!strcmp(argv[1], "int"))
        printf("%lu\n", k_int(n));
    else if (!strcmp(argv[1], "fp"))
        printf("%.6f\n", k_fp(n));
    else if (!strcmp(argv[1], "branch"))
        printf("%ld\n", k_branch(n));
    else
        return 2;
    return 0;
}
