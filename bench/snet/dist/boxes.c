/*
 * boxes.c: the boxes of the distributed S-Net benchmarks (bench/snet/dist/
 * *.snet; docs/SNET.md, "Across the chip: performance"). A generator box on
 * UE 0 emits the records and times their way through the network (each
 * C4SNetOut returns once its record has gone as far as it can:
 * depth-first, with RCK_SNET_ASYNC=off, which snetdistbench.py sets: with
 * asynchronous calls it would return once the record is sent), so its clock
 * (MPI_Wtime: chip time on the sim) measures the whole exchange. It prints
 * one line per input record:
 *
 *   snetdist: bench=pingpong layer=scc ues=2 size=1024 records=100 us=12.5
 *
 * us: per record (per round trip for the ping-pong, per run for the farm
 * and the domain decomposition, whose records all belong to one step).
 */
#include <C4SNet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"

/* the layer, and for scc a mode other than the default (copy):
 * scc-remap, scc-slab (RCK_SNET_SCC) */
static const char *layer(void)
{
    static char buf[64];
    const char *l = getenv("RCK_SNET_DIST");
    const char *m = getenv("RCK_SNET_SCC");
    if (l == NULL)
        return "nodist";
    if (strcmp(l, "scc") != 0 || m == NULL || strcmp(m, "copy") == 0)
        return l;
    snprintf(buf, sizeof buf, "scc-%s", m);
    return buf;
}

static c4snet_data_t *block(int size)
{
    char *p;
    c4snet_data_t *d = C4SNetAlloc(CTYPE_char, (size_t)size, (void **)&p);
    memset(p, 1, (size_t)size);
    return d;
}

static void report(const char *bench, int ues, int size, int records,
                   double us)
{
    printf("snetdist: bench=%s layer=%s ues=%d size=%d records=%d us=%.3f\n",
           bench, layer(), ues, size, records, us);
    fflush(stdout);
}

/* reps records of size bytes out of one box call, timed; reported as @p
 * bench */
static void *emit_timed(void *hnd, const char *bench, int size, int reps,
                        int ues)
{
    c4snet_data_t *f = block(size);
    C4SNetOut(hnd, 1, C4SNetShallowCopy(f)); /* warm-up: instances made */
    double t0 = MPI_Wtime();
    for (int i = 0; i < reps; i++)
        C4SNetOut(hnd, 1, C4SNetShallowCopy(f));
    double t = MPI_Wtime() - t0;
    C4SNetFree(f);
    report(bench, ues, size, reps, t * 1e6 / reps);
    return hnd;
}

/* ping-pong: (<size>, <reps>, <ues>) -> (f): reps records of size bytes,
 * each to UE 1 and back */
void *gen(void *hnd, int size, int reps, int ues)
{
    return emit_timed(hnd, "pingpong", size, reps, ues);
}

/* (f) -> (f): reads the first and last byte (a box that looks at its
 * field: the data must be there) */
void *echo(void *hnd, c4snet_data_t *f)
{
    char *p = C4SNetGetData(f);
    size_t n = C4SNetArraySize(f);
    if (n > 0 && (p[0] != 1 || p[n - 1] != 1)) {
        fprintf(stderr, "echo: the field's bytes are wrong\n");
        abort();
    }
    C4SNetOut(hnd, 1, f);
    return hnd;
}

/* (f) -> (f): the end of the way; nothing goes on */
void *sink(void *hnd, c4snet_data_t *f)
{
    C4SNetFree(f);
    return hnd;
}

/* domain decomposition / farm: (<size>, <parts>, <per>, <steps>, <ues>) ->
 * (d, <p>): each step, parts x per records of size bytes, <p> = the part */
static void *scatter(void *hnd, const char *bench, int size, int parts,
                     int per, int steps, int ues)
{
    c4snet_data_t *d = block(size);
    for (int p = 0; p < parts; p++) /* warm-up: every part's instance */
        C4SNetOut(hnd, 1, C4SNetShallowCopy(d), p);
    double t0 = MPI_Wtime();
    for (int s = 0; s < steps; s++)
        for (int i = 0; i < parts * per; i++)
            C4SNetOut(hnd, 1, C4SNetShallowCopy(d), i % parts);
    double t = MPI_Wtime() - t0;
    C4SNetFree(d);
    report(bench, ues, size, parts * per * steps, t * 1e6 / steps);
    return hnd;
}

void *domain(void *hnd, int size, int parts, int per, int steps, int ues)
{
    return scatter(hnd, "domain", size, parts, per, steps, ues);
}

void *farm(void *hnd, int size, int parts, int per, int steps, int ues)
{
    return scatter(hnd, "farm", size, parts, per, steps, ues);
}

/* (d, <p>) -> (d, <p>): a relaxation sweep over the part, sent back whole */
void *relax(void *hnd, c4snet_data_t *d, int p)
{
    unsigned char *x = C4SNetGetData(d);
    size_t n = C4SNetArraySize(d);
    for (size_t i = 1; i + 1 < n; i += 64)
        x[i] = (unsigned char)((x[i - 1] + x[i + 1]) / 2);
    C4SNetOut(hnd, 1, d, p);
    return hnd;
}

/* (d, <p>) -> (r, <p>): a task: sums its block, answers with the sum */
void *task(void *hnd, c4snet_data_t *d, int p)
{
    const unsigned char *x = C4SNetGetData(d);
    size_t n = C4SNetArraySize(d);
    long s = 0;
    for (size_t i = 0; i < n; i += 64)
        s += x[i];
    C4SNetFree(d);
    C4SNetOut(hnd, 1, C4SNetCreate(CTYPE_long, 1, &s), p);
    return hnd;
}

/* (r, <p>) or (d, <p>) -> (): collected on UE 0 */
void *collect(void *hnd, c4snet_data_t *r, int p)
{
    (void)p;
    C4SNetFree(r);
    return hnd;
}

/* pipeline: (<size>, <reps>, <ues>) -> (f) as gen, reported as such */
void *feed(void *hnd, int size, int reps, int ues)
{
    return emit_timed(hnd, "pipeline48", size, reps, ues);
}

/* (f) -> (f): one stage of the pipeline: touches its field, passes it on */
void *stage(void *hnd, c4snet_data_t *f)
{
    char *p = C4SNetGetData(f);
    if (C4SNetArraySize(f) > 0)
        p[0] = 1;
    C4SNetOut(hnd, 1, f);
    return hnd;
}
