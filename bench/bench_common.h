/*
 * bench_common.h: the parts every pingpong and barrier benchmark shares, so
 * that the RCCE and the MPI versions run exactly the same loop and print
 * exactly the same lines. Header-only (static inline) because the MPI
 * programs are compiled by a different compiler driver, outside the
 * project's libraries.
 *
 * Output contract (parsed by python/src/rockcreek/bench/report.py):
 *   - lines starting with '#' are comments;
 *   - pingpong: "size=<bytes> reps=<n> lat_us=<one-way us> bw_mbs=<MB/s>";
 *   - barrier:  "ues=<n> reps=<n> us_per_barrier=<us>";
 *   - collectives: "coll=<name> ues=<n> size=<bytes> reps=<n>
 *     us_per_call=<us>" (coll_bench.c, mpi_coll.c).
 */
#ifndef RCK_BENCH_COMMON_H
#define RCK_BENCH_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BENCH_MAX_SIZE_DEFAULT ((size_t)4 << 20)
#define BENCH_TARGET_US_PER_SIZE 25000.0 /* aim: ~25 ms of timed loop */
#define BENCH_REPS_MIN 10
#define BENCH_REPS_MAX 40000

typedef struct {
    size_t max_size;   /* -s: largest message size */
    size_t min_size;   /* -m: smallest message size (0 includes 0 B) */
    double reps_scale; /* -r: multiplies the number of repetitions */
    int use_wtime;     /* -w: time with the library's clock, not the host's */
} bench_opts_t;

static inline double bench_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

/* Parses a size with an optional K/M/G suffix (binary units). Returns 0 on
 * success. */
static inline int bench_parse_size(const char *text, size_t *size_out)
{
    char *end = NULL;
    unsigned long long v = strtoull(text, &end, 10);
    if (end == text) {
        return -1;
    }
    switch (*end) {
    case 'k': case 'K': v <<= 10; end++; break;
    case 'm': case 'M': v <<= 20; end++; break;
    case 'g': case 'G': v <<= 30; end++; break;
    default: break;
    }
    if (*end == 'i' || *end == 'I') {
        end++;
    }
    if (*end == 'b' || *end == 'B') {
        end++;
    }
    if (*end != '\0') {
        return -1;
    }
    *size_out = (size_t)v;
    return 0;
}

static inline void bench_usage(const char *prog)
{
    fprintf(stderr,
            "usage: %s [-s MAXSIZE] [-m MINSIZE] [-r REPS_SCALE] [-w]\n"
            "  -s MAXSIZE    largest message size (default 4M; K/M suffixes)\n"
            "  -m MINSIZE    smallest message size (default 0; 0 includes "
            "the empty message)\n"
            "  -r REPS_SCALE multiply the repetition counts (default 1.0)\n"
            "  -w            time with the library clock (RCCE_wtime / "
            "MPI_Wtime)\n",
            prog);
}

/* Parses the pingpong options. Hand-written rather than getopt so that the
 * same code works on argument vectors a launcher has already edited.
 * Returns 0 on success, -1 (after printing usage) on a bad argument. */
static inline int bench_parse_args(int argc, char **argv, bench_opts_t *opts)
{
    opts->max_size = BENCH_MAX_SIZE_DEFAULT;
    opts->min_size = 0;
    opts->reps_scale = 1.0;
    opts->use_wtime = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = (i + 1 < argc) ? argv[i + 1] : NULL;
        if (strcmp(a, "-w") == 0) {
            opts->use_wtime = 1;
            continue;
        }
        if (val == NULL) {
            bench_usage(argv[0]);
            return -1;
        }
        if (strcmp(a, "-s") == 0) {
            if (bench_parse_size(val, &opts->max_size) != 0) {
                bench_usage(argv[0]);
                return -1;
            }
        } else if (strcmp(a, "-m") == 0) {
            if (bench_parse_size(val, &opts->min_size) != 0) {
                bench_usage(argv[0]);
                return -1;
            }
        } else if (strcmp(a, "-r") == 0) {
            char *end = NULL;
            opts->reps_scale = strtod(val, &end);
            if (end == val || *end != '\0' || !(opts->reps_scale > 0.0)) {
                bench_usage(argv[0]);
                return -1;
            }
        } else {
            bench_usage(argv[0]);
            return -1;
        }
        i++;
    }
    if (opts->min_size > opts->max_size) {
        fprintf(stderr, "%s: MINSIZE is larger than MAXSIZE\n", argv[0]);
        return -1;
    }
    return 0;
}

/* The sizes: 0, then 1, 2, 4, ... up to max_size, keeping those >= min_size.
 * Call with the previous size (start with BENCH_SIZE_START); returns 0 when
 * there are no more. */
#define BENCH_SIZE_START ((size_t)-1)
static inline int bench_next_size(const bench_opts_t *opts, size_t *size)
{
    size_t s = *size;
    for (;;) {
        if (s == BENCH_SIZE_START) {
            s = 0;
        } else if (s == 0) {
            s = 1;
        } else {
            s *= 2;
        }
        if (s > opts->max_size) {
            return 0;
        }
        if (s >= opts->min_size) {
            *size = s;
            return 1;
        }
    }
}

/* Repetitions for one size: enough round trips for about
 * BENCH_TARGET_US_PER_SIZE of timed loop, from a crude model of a shared
 * memory transport (0.25 us per message plus 8 GB/s), clamped, then scaled.
 * A pure function of (size, scale) so both programs run the same loop. */
static inline long bench_reps(size_t size, double scale)
{
    double rt_us = 2.0 * (0.25 + (double)size / 8000.0);
    double reps = BENCH_TARGET_US_PER_SIZE / rt_us;
    if (reps < BENCH_REPS_MIN) {
        reps = BENCH_REPS_MIN;
    }
    if (reps > BENCH_REPS_MAX) {
        reps = BENCH_REPS_MAX;
    }
    reps *= scale;
    return reps < 1.0 ? 1 : (long)reps;
}

static inline long bench_warmup_reps(long reps)
{
    long w = reps / 10;
    return w < 2 ? 2 : w;
}

/* A pattern that differs per size and per byte, so a stale or shifted
 * buffer is caught. */
static inline void bench_fill(unsigned char *buf, size_t size, unsigned seed)
{
    for (size_t i = 0; i < size; i++) {
        buf[i] = (unsigned char)((i * 131u + seed * 7u + (i >> 8)) & 0xffu);
    }
}

/* Returns the index of the first wrong byte, or size if all are right. */
static inline size_t bench_check(const unsigned char *buf, size_t size,
                                 unsigned seed)
{
    for (size_t i = 0; i < size; i++) {
        if (buf[i] !=
            (unsigned char)((i * 131u + seed * 7u + (i >> 8)) & 0xffu)) {
            return i;
        }
    }
    return size;
}

static inline unsigned char *bench_alloc(size_t size)
{
    void *p = NULL;
    size_t n = size == 0 ? 64 : size;
    if (posix_memalign(&p, 4096, n) != 0) {
        return NULL;
    }
    memset(p, 0, n);
    return p;
}

/* One result line; loop_us is the timed loop of `reps` round trips. */
static inline void bench_print_pingpong(size_t size, long reps, double loop_us)
{
    double lat_us = loop_us / (2.0 * (double)reps);
    double bw_mbs = lat_us > 0.0 ? (double)size / lat_us : 0.0;
    printf("size=%zu reps=%ld lat_us=%.4f bw_mbs=%.2f\n", size, reps, lat_us,
           bw_mbs);
    fflush(stdout);
}

static inline void bench_barrier_usage(const char *prog)
{
    fprintf(stderr,
            "usage: %s [-n REPS] [-w]\n"
            "  -n REPS  timed barriers (default 1000)\n"
            "  -w       time with the library clock\n",
            prog);
}

/* Barrier options: -n REPS, -w. Returns 0 on success. */
static inline int bench_parse_barrier_args(int argc, char **argv, long *reps,
                                           int *use_wtime)
{
    *reps = 1000;
    *use_wtime = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-w") == 0) {
            *use_wtime = 1;
        } else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc) {
            char *end = NULL;
            *reps = strtol(argv[i + 1], &end, 10);
            if (end == argv[i + 1] || *end != '\0' || *reps < 1) {
                bench_barrier_usage(argv[0]);
                return -1;
            }
            i++;
        } else {
            bench_barrier_usage(argv[0]);
            return -1;
        }
    }
    return 0;
}

static inline void bench_print_barrier(int ues, long reps, double loop_us)
{
    printf("ues=%d reps=%ld us_per_barrier=%.4f\n", ues, reps,
           loop_us / (double)reps);
    fflush(stdout);
}

/* ---- collectives (coll_bench.c, mpi_coll.c) ----
 * Output: "coll=<name> ues=<n> size=<bytes> reps=<n> us_per_call=<us>".
 * size is the bytes of one block: the broadcast message, the reduced
 * vector (doubles), the block each rank sends to / receives from each other
 * rank (scatter, gather, allgather, alltoall, reduce_scatter's result), as
 * MPI's counts. */
#define BENCH_COLL_TARGET_US 30000.0 /* aim: ~30 ms of timed loop */
#define BENCH_COLL_REPS_MIN 2
#define BENCH_COLL_REPS_MAX 200
#define BENCH_COLL_MAX_SIZES 8

typedef struct {
    size_t sizes[BENCH_COLL_MAX_SIZES];
    int nsizes;
    double reps_scale; /* -r */
    int use_wtime;     /* -w */
    const char *only;  /* -c: comma-separated collective names, or NULL */
} bench_coll_opts_t;

static inline void bench_coll_usage(const char *prog)
{
    fprintf(stderr,
            "usage: %s [-s SIZE[,SIZE...]] [-r REPS_SCALE] [-c NAME[,NAME...]]"
            " [-w]\n"
            "  -s  block sizes in bytes (default 64,64K; multiples of 8)\n"
            "  -r  multiply the repetition counts (default 1.0)\n"
            "  -c  only these collectives\n"
            "  -w  time with the library clock\n",
            prog);
}

static inline int bench_parse_coll_args(int argc, char **argv,
                                        bench_coll_opts_t *o)
{
    o->sizes[0] = 64;
    o->sizes[1] = 64 << 10;
    o->nsizes = 2;
    o->reps_scale = 1.0;
    o->use_wtime = 0;
    o->only = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = (i + 1 < argc) ? argv[i + 1] : NULL;
        if (strcmp(a, "-w") == 0) {
            o->use_wtime = 1;
            continue;
        }
        if (val == NULL) {
            bench_coll_usage(argv[0]);
            return -1;
        }
        if (strcmp(a, "-s") == 0) {
            char tmp[256];
            snprintf(tmp, sizeof(tmp), "%s", val);
            o->nsizes = 0;
            for (char *save = NULL, *t = strtok_r(tmp, ",", &save); t != NULL;
                 t = strtok_r(NULL, ",", &save)) {
                size_t sz = 0;
                if (o->nsizes == BENCH_COLL_MAX_SIZES ||
                    bench_parse_size(t, &sz) != 0 || sz == 0 || sz % 8 != 0) {
                    bench_coll_usage(argv[0]);
                    return -1;
                }
                o->sizes[o->nsizes++] = sz;
            }
            if (o->nsizes == 0) {
                bench_coll_usage(argv[0]);
                return -1;
            }
        } else if (strcmp(a, "-r") == 0) {
            char *end = NULL;
            o->reps_scale = strtod(val, &end);
            if (end == val || *end != '\0' || !(o->reps_scale > 0.0)) {
                bench_coll_usage(argv[0]);
                return -1;
            }
        } else if (strcmp(a, "-c") == 0) {
            o->only = val;
        } else {
            bench_coll_usage(argv[0]);
            return -1;
        }
        i++;
    }
    return 0;
}

/* Whether collective `name` is selected by -c. */
static inline int bench_coll_selected(const bench_coll_opts_t *o,
                                      const char *name)
{
    if (o->only == NULL) {
        return 1;
    }
    size_t n = strlen(name);
    for (const char *p = o->only; *p != '\0';) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0) {
            return 1;
        }
        p += len + (comma ? 1 : 0);
    }
    return 0;
}

/* Repetitions for one (collective, size, ues): a crude cost model (10 us
 * per UE plus the bytes moved at 2 GB/s; `all` = 1 when every rank
 * exchanges a block with every other), for about BENCH_COLL_TARGET_US,
 * clamped and scaled. A pure function, identical for both programs. */
static inline long bench_coll_reps(size_t size, int ues, int all,
                                   double scale)
{
    double moved = (double)size * (double)ues * (all ? (double)ues : 1.0);
    double est_us = 10.0 * (double)ues + moved / 2000.0;
    double reps = BENCH_COLL_TARGET_US / est_us;
    if (reps < BENCH_COLL_REPS_MIN) {
        reps = BENCH_COLL_REPS_MIN;
    }
    if (reps > BENCH_COLL_REPS_MAX) {
        reps = BENCH_COLL_REPS_MAX;
    }
    reps *= scale;
    return reps < 1.0 ? 1 : (long)reps;
}

static inline void bench_print_coll(const char *name, int ues, size_t size,
                                    long reps, double loop_us)
{
    printf("coll=%s ues=%d size=%zu reps=%ld us_per_call=%.4f\n", name, ues,
           size, reps, loop_us / (double)reps);
    fflush(stdout);
}

#endif
