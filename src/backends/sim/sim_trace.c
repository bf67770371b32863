/*
 * The Chrome trace-event file of a sim run (RCK_SIM_TRACE, `rck run
 * --trace FILE`): per-core timelines that open in Perfetto.
 *
 * Owns: the trace files (one part per core, merged at the end). May call:
 * nothing else of the sim (never the report). Called by the HAL slots,
 * the memory model, the waits and the report (sim_trace_merge).
 */
#include "sim_state.h"
#include "sim_power.h"
#include "sim_report.h"

#include "rck/json.h"
#include "rck/log.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef RCK_HAVE_ZLIB
#include <zlib.h>
#endif

/* ---- Chrome trace-event file (RCK_SIM_TRACE) ----
 *
 * Each core writes its own events, one per line ("{...},"), into
 * TRACE.part<UE> as it runs; at the end the launcher (or a private job's
 * only core) joins the parts in UE order between a header and the
 * metadata events (thread names) and removes them. Events carry only
 * virtual times (microseconds of the base core clock), so with a
 * deterministic compute model two runs give the same bytes. Every core
 * writes at most SIM_TRACE_MAX_EVENTS / nues events; then one instant
 * event says the rest was left out. */

#define SIM_TRACE_MAX_EVENTS 4000000ull

/* A core writes its part through a buffer in static storage with
 * write(2), never through stdio: a FILE and its buffer come from the
 * program's heap, and a traced run's program then got other addresses
 * from malloc than an untraced one (under the P54C models, other cache
 * sets and other code paths: docs/P54C.md, "Determinism"). One core per
 * process, so one buffer. The events are written by rck/json.h's writer,
 * which allocates nothing, through part_sink. */
#define SIM_TRACE_BUF (64u << 10)
static char trace_buf[SIM_TRACE_BUF];

static void part_flush(sim_trace_t *t)
{
    size_t off = 0;

    while (off < t->len && !t->failed) {
        ssize_t n = write(t->fd, t->buf + off, t->len - off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            rck_warn("sim: the trace part of this core is incomplete: %s",
                     n < 0 ? strerror(errno) : "nothing written");
            t->failed = 1;
            break;
        }
        off += (size_t)n;
    }
    t->len = 0;
}

/* The writer's sink: the part's buffer, written out when full. An event
 * may span two writes; a part cut short (a killed core) loses at most its
 * last line (trace_copy). */
static int part_sink(void *ctx, const char *b, size_t n)
{
    sim_trace_t *t = ctx;

    while (n > 0) {
        size_t k = SIM_TRACE_BUF - t->len;
        if (k == 0) {
            part_flush(t);
            k = SIM_TRACE_BUF;
        }
        if (k > n)
            k = n;
        memcpy(t->buf + t->len, b, k);
        t->len += k;
        b += k;
        n -= k;
    }
    return 0;
}

/* An event is a document of its own, one a line ("{...},\n"): the merge
 * splices the lines into the trace's "traceEvents". The writer holds up
 * to 512 bytes of an event until ev_end (the events here take 100-300),
 * so a refused event leaves nothing in the part. */
static void ev_begin(rck_jsonw_t *w, sim_trace_t *t)
{
    rck_jsonw_init_sink(w, part_sink, t, RCK_JSONW_COMPACT);
    rck_jsonw_object(w, NULL);
}

static void ev_end(rck_jsonw_t *w, sim_trace_t *t)
{
    static int warned; /* one core per process */

    rck_jsonw_end_object(w);
    if (rck_jsonw_finish(w) != RCK_OK) {
        /* a bug of this file: say so once, leave the event out */
        if (!warned)
            rck_warn("sim: a trace event was refused (%s) and left out",
                     rck_jsonw_error(w));
        warned = 1;
        return;
    }
    part_sink(t, ",\n", 2);
}

static void trace_part_name(const sim_hdr_t *h, int ue, char *buf,
                            size_t len)
{
    snprintf(buf, len, "%s.part%d", h->trace_path, ue);
}

/* Whole nanoseconds of the base core clock: slices are rounded at both
 * ends the same way, so the ones inside a call stay inside it. */
static uint64_t trace_ns(const sim_hdr_t *h, uint64_t ticks)
{
    return (uint64_t)llround((double)ticks * 1000.0 / (double)SIM_TICKS /
                             h->chip.core_mhz);
}

void sim_trace_open(sim_t *s)
{
    sim_hdr_t *h = s->hdr;
    char path[SIM_PATH_LEN + 32];

    memset(&s->trace, 0, sizeof(s->trace));
    s->trace.fd = -1;
    if (h->trace_path[0] == '\0')
        return;
    trace_part_name(h, s->ue, path, sizeof(path));
    s->trace.fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (s->trace.fd < 0) {
        rck_warn("sim: cannot write the trace part %s: %s; this core is "
                 "left out of the trace",
                 path, strerror(errno));
        return;
    }
    s->trace.buf = trace_buf;
    s->trace.max = SIM_TRACE_MAX_EVENTS / h->nues;
}

/* Room for one more event? Writes the truncation note once. */
static int trace_room(sim_t *s)
{
    sim_trace_t *t = &s->trace;
    char name[64];
    rck_jsonw_t w;

    if (t->buf == NULL)
        return 0;
    if (t->n < t->max) {
        t->n++;
        return 1;
    }
    if (!t->truncated) {
        t->truncated = 1;
        snprintf(name, sizeof(name), "trace truncated: %llu events per core",
                 (unsigned long long)t->max);
        ev_begin(&w, t);
        rck_jsonw_string(&w, "name", name);
        rck_jsonw_string(&w, "ph", "i");
        rck_jsonw_string(&w, "s", "t");
        rck_jsonw_int(&w, "pid", 1);
        rck_jsonw_int(&w, "tid", s->core);
        /* nanoseconds as microseconds, the format's unit, in the fewest
         * characters */
        rck_jsonw_decimal(&w, "ts", trace_ns(s->hdr, s->me->vt), 3);
        ev_end(&w, t);
    }
    return 0;
}

/* A complete event on @p tid's timeline; @p flow: 0, or the id of the
 * flow it starts (@p in 0) or ends (@p in 1). */
static void trace_x(sim_t *s, int tid, const char *name, const char *cat,
                    uint64_t n0, uint64_t n1, uint64_t flow, int in,
                    const sim_trace_arg_t *args, int nargs)
{
    rck_jsonw_t w;

    ev_begin(&w, &s->trace);
    rck_jsonw_string(&w, "name", name);
    rck_jsonw_string(&w, "cat", cat);
    rck_jsonw_string(&w, "ph", "X");
    rck_jsonw_int(&w, "pid", 1);
    rck_jsonw_int(&w, "tid", tid);
    rck_jsonw_decimal(&w, "ts", n0, 3);
    rck_jsonw_decimal(&w, "dur", n1 > n0 ? n1 - n0 : 0, 3);
    if (flow != 0) {
        rck_jsonw_uint(&w, "bind_id", flow);
        rck_jsonw_bool(&w, in ? "flow_in" : "flow_out", 1);
    }
    if (nargs > 0) {
        rck_jsonw_object(&w, "args");
        for (int i = 0; i < nargs; i++) {
            if (args[i].str != NULL)
                rck_jsonw_string(&w, args[i].key, args[i].str);
            else
                rck_jsonw_int(&w, args[i].key, args[i].num);
        }
        rck_jsonw_end_object(&w);
    }
    ev_end(&w, &s->trace);
}

void sim_trace_slice(sim_t *s, const char *name, const char *cat,
                     uint64_t t0, uint64_t t1, const sim_trace_arg_t *args,
                     int nargs)
{
    if (!trace_room(s))
        return;
    trace_x(s, s->core, name, cat, trace_ns(s->hdr, t0),
            trace_ns(s->hdr, t1 > t0 ? t1 : t0), 0, 0, args, nargs);
}

/* A flow is two complete events that carry its id (the trace-event
 * format's "bind_id" with "flow_out" / "flow_in"): the transfer on this
 * core's timeline, and its arrival, an event of no duration on the
 * target's timeline at the time it lands. The arrow is bound to those two
 * events themselves, never to whatever the target happens to be doing
 * then (a flow end on its own, "ph": "f", binds to the target's enclosing
 * slice, and was dropped by Perfetto whenever the target was outside
 * every slice: computing, or between two calls). */
void sim_trace_flow(sim_t *s, const char *name, const char *cat, int target,
                    uint64_t t0, uint64_t t1, uint64_t arrive,
                    uint64_t bytes)
{
    sim_trace_arg_t args[2] = {{.key = "to", .num = target},
                               {.key = "bytes", .num = (long long)bytes}};
    char in[80];
    uint64_t id, n0, n1, na;

    if (s->trace.buf == NULL || s->trace.n + 2 > s->trace.max) {
        trace_room(s);
        return;
    }
    s->trace.n += 2;
    /* unique in the job, and short: the core's count of flows times the
     * number of UEs, plus its UE */
    id = ++s->trace.flows * s->hdr->nues + (uint64_t)s->ue;
    n0 = trace_ns(s->hdr, t0);
    n1 = trace_ns(s->hdr, t1 > t0 ? t1 : t0);
    na = trace_ns(s->hdr, arrive > t0 ? arrive : t0);
    trace_x(s, s->core, name, cat, n0, n1, id, 0, args, bytes > 0 ? 2 : 1);
    snprintf(in, sizeof(in), "%s arrives", name);
    trace_x(s, target, in, "flow", na, na, id, 1, NULL, 0);
}

/* Close the open call's slice at @p end, open @p call's (NULL: none) at
 * @p start. */
static void sim_trace_call_at(sim_t *s, uint64_t end, uint64_t start,
                              const sim_ctx_t *call)
{
    sim_trace_t *t = &s->trace;

    if (t->buf == NULL)
        return;
    if (t->call.call != NULL) {
        sim_trace_arg_t args[4];
        int n = 0;

        if (t->call.peer >= 0)
            args[n++] = (sim_trace_arg_t){.key = "peer", .num = t->call.peer};
        if (t->call.bytes >= 0)
            args[n++] = (sim_trace_arg_t){.key = "bytes",
                                          .num = t->call.bytes};
        if (t->call.tag >= 0)
            args[n++] = (sim_trace_arg_t){.key = "tag", .num = t->call.tag};
        if (t->call.comm >= 0)
            args[n++] = (sim_trace_arg_t){.key = "comm", .num = t->call.comm};
        sim_trace_slice(s, t->call.call, "call", t->call_t, end, args, n);
    }
    if (call != NULL)
        t->call = *call;
    else
        t->call = (sim_ctx_t){.call = NULL, .peer = -1, .tag = -1,
                              .comm = -1, .bytes = -1};
    t->call_t = start;
}

/* The library call named by set_context: one slice from the call that
 * names it to the call that clears or replaces it. */
void sim_trace_call(sim_t *s, const sim_ctx_t *call)
{
    sim_trace_call_at(s, s->me->vt, s->me->vt, call);
}

void sim_trace_context(sim_t *s, uint64_t exit_t)
{
    if (s->ctx_n - s->ctx_seen > SIM_CTX_LOG)
        s->ctx_seen = s->ctx_n - SIM_CTX_LOG;
    for (; s->ctx_seen != s->ctx_n; s->ctx_seen++) {
        /* a call named and ended between two HAL calls made none: it is
         * empty, at the previous exit; the last one named opens now */
        uint64_t start = s->ctx_seen + 1 == s->ctx_n ? s->me->vt : exit_t;
        const sim_ctx_t *c = &s->ctx_log[s->ctx_seen % SIM_CTX_LOG];

        sim_trace_call_at(s, exit_t, start, c->call != NULL ? c : NULL);
    }
}

void sim_trace_close(sim_t *s)
{
    if (s->trace.buf == NULL)
        return;
    if (s->trace.call.call != NULL)
        sim_trace_call(s, NULL);
    part_flush(&s->trace);
    if (close(s->trace.fd) != 0 && !s->trace.failed)
        rck_warn("sim: the trace part of this core is incomplete: %s",
                 strerror(errno));
    s->trace.buf = NULL;
    s->trace.fd = -1;
}

/* Copy a part up to its last complete line (a core that was killed may
 * have left half a line). */
static void trace_copy(rck_jsonw_t *w, const char *path)
{
    FILE *in = fopen(path, "r");
    char buf[65536];
    size_t n, pending = 0;
    char *keep = NULL;

    if (in == NULL)
        return;
    while ((n = fread(buf, 1, sizeof(buf), in)) > 0) {
        size_t last = n;
        while (last > 0 && buf[last - 1] != '\n')
            last--;
        if (last == 0) { /* no newline in this block: hold it */
            char *k = realloc(keep, pending + n);
            if (k == NULL)
                break;
            keep = k;
            memcpy(keep + pending, buf, n);
            pending += n;
            continue;
        }
        if (pending > 0)
            rck_jsonw_splice(w, keep, pending);
        rck_jsonw_splice(w, buf, last);
        pending = n - last;
        if (pending > 0) {
            char *k = realloc(keep, pending);
            if (k == NULL) {
                pending = 0;
                break;
            }
            keep = k;
            memcpy(keep, buf + last, pending);
        }
    }
    free(keep);
    fclose(in);
}

int sim_trace_gz(const char *path)
{
    size_t n = strlen(path);

    return n > 3 && strcmp(path + n - 3, ".gz") == 0;
}

#ifdef RCK_HAVE_ZLIB
int sim_trace_gz_ok(void)
{
    return 1;
}

/* A compressed trace is written through a stdio stream over zlib's gzip
 * file (fopencookie), so that the merge and the power counters write it
 * as they write a plain one. */
static ssize_t gz_write(void *cookie, const char *buf, size_t len)
{
    size_t done = 0;

    while (done < len) {
        unsigned n = len - done > (1u << 30) ? 1u << 30
                                             : (unsigned)(len - done);
        int w = gzwrite((gzFile)cookie, buf + done, n);
        if (w <= 0) {
            errno = EIO;
            return done > 0 ? (ssize_t)done : -1;
        }
        done += (size_t)w;
    }
    return (ssize_t)done;
}

static int gz_close(void *cookie)
{
    int rc = gzclose((gzFile)cookie);

    if (rc != Z_OK) {
        errno = rc == Z_ERRNO ? errno : EIO;
        return -1;
    }
    return 0;
}

static FILE *trace_fopen(const char *tmp, int gz)
{
    cookie_io_functions_t io = {.write = gz_write, .close = gz_close};
    gzFile z;
    FILE *fp;

    if (!gz)
        return fopen(tmp, "w");
    z = gzopen(tmp, "wb6");
    if (z == NULL) {
        if (errno == 0)
            errno = ENOMEM;
        return NULL;
    }
    fp = fopencookie(z, "w", io);
    if (fp == NULL)
        gzclose(z);
    return fp;
}
#else
int sim_trace_gz_ok(void)
{
    return 0;
}

static FILE *trace_fopen(const char *tmp, int gz)
{
    if (gz) { /* refused at configuration (sim_seg.c): never here */
        errno = ENOTSUP;
        return NULL;
    }
    return fopen(tmp, "w");
}
#endif

/* A metadata event: args {@p key: @p str, or @p num when @p str is NULL};
 * @p tid < 0: the process's. */
static void trace_meta(rck_jsonw_t *w, const char *name, int tid,
                       const char *key, const char *str, int num)
{
    rck_jsonw_object(w, NULL);
    rck_jsonw_string(w, "name", name);
    rck_jsonw_string(w, "ph", "M");
    rck_jsonw_int(w, "pid", 1);
    if (tid >= 0)
        rck_jsonw_int(w, "tid", tid);
    rck_jsonw_object(w, "args");
    if (str != NULL)
        rck_jsonw_string(w, key, str);
    else
        rck_jsonw_int(w, key, num);
    rck_jsonw_end_object(w);
    rck_jsonw_end_object(w);
}

rck_status_t sim_trace_merge(sim_hdr_t *h)
{
    char tmp[SIM_PATH_LEN + 32], part[SIM_PATH_LEN + 32], name[64];
    rck_jsonw_t w;
    FILE *fp;

    if (h->trace_path[0] == '\0')
        return RCK_OK;
    snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", h->trace_path, (long)getpid());
    fp = trace_fopen(tmp, sim_trace_gz(h->trace_path));
    if (fp == NULL) {
        rck_error("sim: cannot write the trace %s: %s", h->trace_path,
                  strerror(errno));
        for (uint32_t i = 0; i < h->nues; i++) {
            trace_part_name(h, (int)i, part, sizeof(part));
            unlink(part);
        }
        return RCK_ERR_IO;
    }
    rck_jsonw_init(&w, fp, RCK_JSONW_COMPACT | RCK_JSONW_NEWLINE);
    rck_jsonw_object(&w, NULL);
    rck_jsonw_string(&w, "displayTimeUnit", "ns");
    rck_jsonw_break(&w, 0);
    rck_jsonw_object(&w, "otherData");
    rck_jsonw_string(&w, "generator", "rockcreek sim");
    rck_jsonw_string(&w, "chip", h->chip.name);
    rck_jsonw_fixed(&w, "core_mhz", h->chip.core_mhz, 3);
    rck_jsonw_string(&w, "time",
                     "microseconds of the modelled chip's base core clock");
    rck_jsonw_end_object(&w);
    rck_jsonw_break(&w, 0);
    rck_jsonw_array(&w, "traceEvents");
    rck_jsonw_indent_items(&w, 0);
    for (uint32_t i = 0; i < h->nues; i++) {
        trace_part_name(h, (int)i, part, sizeof(part));
        trace_copy(&w, part);
        unlink(part);
    }
    sim_power_trace(&w, h);
    snprintf(name, sizeof(name), "rockcreek sim: %u cores", h->nues);
    trace_meta(&w, "process_name", -1, "name", name, 0);
    for (uint32_t i = 0; i < h->nues; i++) {
        snprintf(name, sizeof(name), "core %d (UE %u)", h->ue_core[i], i);
        trace_meta(&w, "thread_name", h->ue_core[i], "name", name, 0);
        trace_meta(&w, "thread_sort_index", h->ue_core[i], "sort_index",
                   NULL, h->ue_core[i]);
    }
    rck_jsonw_break(&w, 0);
    rck_jsonw_end_array(&w);
    rck_jsonw_end_object(&w);
    if (rck_jsonw_finish(&w) != RCK_OK) {
        rck_error("sim: cannot write the trace %s: %s", h->trace_path,
                  rck_jsonw_error(&w));
        fclose(fp);
        unlink(tmp);
        return RCK_ERR_IO;
    }
    if (fclose(fp) != 0 || rename(tmp, h->trace_path) != 0) {
        rck_error("sim: cannot write the trace %s: %s", h->trace_path,
                  strerror(errno));
        unlink(tmp);
        return RCK_ERR_IO;
    }
    if (h->summary)
        fprintf(stderr, "rck sim: trace in %s\n", h->trace_path);
    return RCK_OK;
}
