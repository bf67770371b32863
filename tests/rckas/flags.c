/*
 * The rck-as correctness program: code whose flags GCC keeps live across
 * blocks (three-way compares, carry chains, setcc/cmov), jump tables,
 * computed goto, recursion, long double, struct copies and memsets that
 * become rep movs/stos, function pointers, setjmp/longjmp, inline asm
 * with a flag output. Built plain and through the counting assembler at
 * several optimization levels; the outputs must be identical
 * (tests/rckas/rckas_test.py). The counters go to stderr.
 */
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t ctr_insns(void);
uint64_t ctr_units(void);

static volatile int vol_seed = 7;

__attribute__((noinline)) static int sgn3(long a, long b)
{
    if (a < b)
        return -1;
    if (a > b)
        return 1;
    return 0;
}

__attribute__((noinline)) static int cmp_u(const void *x, const void *y)
{
    unsigned a = *(const unsigned *)x, b = *(const unsigned *)y;
    return (a > b) - (a < b);
}

__attribute__((noinline)) static unsigned __int128 mix128(
    unsigned __int128 a, unsigned __int128 b, int k)
{
    for (int i = 0; i < k; i++) {
        a += b;
        b -= a >> 3;
        a ^= b << 5;
        if (a < b)
            a = a * 3 + 1;
    }
    return a ^ b;
}

__attribute__((noinline)) static long sw(int op, long a, long b)
{
    switch (op) {
    case 0: return a + b;
    case 1: return a - b;
    case 2: return a * b;
    case 3: return b ? a / b : -1;
    case 4: return a & b;
    case 5: return a | b;
    case 6: return a ^ b;
    case 7: return a << (b & 15);
    case 8: return a >> (b & 15);
    case 9: return a < b;
    case 10: return a >= b ? a : b;
    case 11: return -a;
    default: return 42;
    }
}

__attribute__((noinline)) static long interp(const unsigned char *code, int n)
{
    static void *ops[] = {&&op_inc, &&op_dbl, &&op_neg, &&op_end};
    long acc = 1;
    int pc = 0;
#define NEXT goto *ops[pc < n ? code[pc++] & 3 : 3]
    NEXT;
op_inc:
    acc++;
    NEXT;
op_dbl:
    acc = acc > 1000000 ? acc - 999 : acc * 2;
    NEXT;
op_neg:
    acc = -acc;
    NEXT;
op_end:
    return acc;
#undef NEXT
}

__attribute__((noinline)) static long fib(int n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__attribute__((noinline)) static long double ld_series(int n)
{
    long double s = 0, t = 1;
    for (int i = 1; i <= n; i++) {
        t = t * 0.5L + (long double)i / 3.0L;
        s += (i & 1) ? t : -t / 7.0L;
        if (s > 1e6L)
            s = s / 2;
    }
    return s;
}

struct big {
    long v[48];
    char tag[64];
};

__attribute__((noinline)) static void big_copy(struct big *d,
                                               const struct big *s, int k)
{
    *d = *s;
    d->v[k % 48] += k;
}

__attribute__((noinline)) static void big_clear(struct big *d)
{
    memset(d, 0, sizeof(*d));
}

static jmp_buf jb;

__attribute__((noinline)) static void deep(int n)
{
    if (n == 0)
        longjmp(jb, 17);
    deep(n - 1);
}

static int (*const fns[])(long, long) = {sgn3};

__attribute__((noinline)) static int flag_asm(unsigned long a,
                                              unsigned long b)
{
    int below;
    __asm__("cmp %2, %1" : "=@ccb"(below) : "r"(a), "r"(b));
    return below ? (int)(a & 7) : (int)(b & 3);
}

__attribute__((noinline)) static long cmov_sum(const long *a, int n)
{
    long s = 0, mx = a[0], mn = a[0];
    for (int i = 0; i < n; i++) {
        s += a[i] > 0 ? a[i] : -a[i];
        mx = a[i] > mx ? a[i] : mx;
        mn = a[i] < mn ? a[i] : mn;
        s += (a[i] & 1) == 0;
    }
    return s * 31 + mx - mn;
}

int main(void)
{
    unsigned seed = (unsigned)vol_seed;
    long arr[200];
    unsigned us[100];
    for (int i = 0; i < 200; i++) {
        seed = seed * 1103515245u + 12345u;
        arr[i] = (long)(seed >> 8) - (1L << 22);
    }
    for (int i = 0; i < 100; i++)
        us[i] = (unsigned)arr[i * 2] ^ (unsigned)i;
    long acc = 0;
    for (int i = 0; i < 199; i++)
        acc += sgn3(arr[i], arr[i + 1]) * (i + 1) + fns[0](arr[i], 0);
    printf("sgn3 %ld\n", acc);
    qsort(us, 100, sizeof(us[0]), cmp_u);
    printf("qsort %u %u %u\n", us[0], us[50], us[99]);
    unsigned __int128 m = mix128(((unsigned __int128)seed << 64) | 12345,
                                 ~(unsigned __int128)0 / 3, 100);
    printf("int128 %016llx%016llx\n", (unsigned long long)(m >> 64),
           (unsigned long long)m);
    long s = 0;
    for (int op = 0; op < 14; op++)
        s = s * 3 + sw(op, arr[op], arr[op + 20] | 1);
    printf("switch %ld\n", s);
    unsigned char code[64];
    for (int i = 0; i < 64; i++)
        code[i] = (unsigned char)(arr[i] >> 3);
    printf("goto %ld %ld\n", interp(code, 64), interp(code + 10, 30));
    printf("fib %ld\n", fib(20));
    printf("ld %.12Lg\n", ld_series(300));
    static struct big b1, b2;
    for (int i = 0; i < 48; i++)
        b1.v[i] = arr[i];
    strcpy(b1.tag, "rck-as");
    big_copy(&b2, &b1, 5);
    long bs = 0;
    for (int i = 0; i < 48; i++)
        bs += b2.v[i];
    big_clear(&b1);
    printf("copy %ld %s %ld\n", bs, b2.tag, b1.v[7] + b1.tag[0]);
    int r = setjmp(jb);
    if (r == 0)
        deep(50);
    printf("longjmp %d\n", r);
    int fa = 0;
    for (int i = 0; i < 100; i++)
        fa += flag_asm((unsigned long)arr[i], (unsigned long)arr[i + 1]);
    printf("asm %d\n", fa);
    printf("cmov %ld\n", cmov_sum(arr, 200));
    fprintf(stderr, "counters %llu %llu\n", (unsigned long long)ctr_insns(),
            (unsigned long long)ctr_units());
    return 0;
}
