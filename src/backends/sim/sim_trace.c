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
 * process, so one buffer. An event longer than the buffer is left out. */
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

static void part_printf(sim_trace_t *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void part_printf(sim_trace_t *t, const char *fmt, ...)
{
    for (int tries = 0; tries < 2; tries++) {
        va_list ap;
        int n;

        va_start(ap, fmt);
        n = vsnprintf(t->buf + t->len, SIM_TRACE_BUF - t->len, fmt, ap);
        va_end(ap);
        if (n < 0)
            return;
        if ((size_t)n < SIM_TRACE_BUF - t->len) {
            t->len += (size_t)n;
            return;
        }
        part_flush(t);
    }
}

/* @p s as a JSON string (rck_json_write_string's escapes). */
static void part_string(sim_trace_t *t, const char *s)
{
    part_printf(t, "\"");
    for (; *s != '\0'; s++) {
        unsigned char ch = (unsigned char)*s;
        if (t->len + 8 > SIM_TRACE_BUF)
            part_flush(t);
        if (ch == '"' || ch == '\\')
            t->len += (size_t)snprintf(t->buf + t->len, 3, "\\%c", ch);
        else if (ch < 0x20)
            t->len += (size_t)snprintf(t->buf + t->len, 7, "\\u%04x", ch);
        else
            t->buf[t->len++] = (char)ch;
    }
    part_printf(t, "\"");
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

/* nanoseconds as microseconds, the unit of the format, in the fewest
 * characters (no trailing zeros, no point for whole microseconds) */
static void trace_us(uint64_t ns, char *buf, size_t len)
{
    unsigned frac = (unsigned)(ns % 1000);
    int digits = 3;

    if (frac == 0) {
        snprintf(buf, len, "%llu", (unsigned long long)(ns / 1000));
        return;
    }
    while (frac % 10 == 0) {
        frac /= 10;
        digits--;
    }
    snprintf(buf, len, "%llu.%0*u", (unsigned long long)(ns / 1000), digits,
             frac);
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
    char ts[32];

    if (t->buf == NULL)
        return 0;
    if (t->n < t->max) {
        t->n++;
        return 1;
    }
    if (!t->truncated) {
        t->truncated = 1;
        trace_us(trace_ns(s->hdr, s->me->vt), ts, sizeof(ts));
        part_printf(t,
                "{\"name\":\"trace truncated: %llu events per core\","
                "\"ph\":\"i\",\"s\":\"t\",\"pid\":1,\"tid\":%d,"
                "\"ts\":%s},\n",
                (unsigned long long)t->max, s->core, ts);
    }
    return 0;
}

/* A complete event on @p tid's timeline; @p extra: more members (",..."),
 * or NULL. */
static void trace_x(sim_t *s, int tid, const char *name, const char *cat,
                    uint64_t n0, uint64_t n1, const char *extra,
                    const char *args)
{
    char ts[32], dur[32];

    trace_us(n0, ts, sizeof(ts));
    trace_us(n1 > n0 ? n1 - n0 : 0, dur, sizeof(dur));
    part_printf(&s->trace, "{\"name\":");
    part_string(&s->trace, name);
    part_printf(&s->trace,
                ",\"cat\":\"%s\",\"ph\":\"X\",\"pid\":1,\"tid\":%d,"
                "\"ts\":%s,\"dur\":%s%s%s%s},\n",
                cat, tid, ts, dur, extra != NULL ? extra : "",
                args != NULL ? ",\"args\":" : "", args != NULL ? args : "");
}

void sim_trace_slice(sim_t *s, const char *name, const char *cat,
                     uint64_t t0, uint64_t t1, const char *args)
{
    if (!trace_room(s))
        return;
    trace_x(s, s->core, name, cat, trace_ns(s->hdr, t0),
            trace_ns(s->hdr, t1 > t0 ? t1 : t0), NULL, args);
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
    char extra[64], args[64], in[80];
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
    snprintf(extra, sizeof(extra), ",\"bind_id\":%llu,\"flow_out\":true",
             (unsigned long long)id);
    if (bytes > 0)
        snprintf(args, sizeof(args), "{\"to\":%d,\"bytes\":%llu}", target,
                 (unsigned long long)bytes);
    else
        snprintf(args, sizeof(args), "{\"to\":%d}", target);
    trace_x(s, s->core, name, cat, n0, n1, extra, args);
    snprintf(extra, sizeof(extra), ",\"bind_id\":%llu,\"flow_in\":true",
             (unsigned long long)id);
    snprintf(in, sizeof(in), "%s arrives", name);
    trace_x(s, target, in, "flow", na, na, extra, NULL);
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
        char args[128];
        size_t n = 0;

        args[0] = '\0';
        if (t->call.peer >= 0)
            n += (size_t)snprintf(args + n, sizeof(args) - n, ",\"peer\":%d",
                                  t->call.peer);
        if (t->call.bytes >= 0)
            n += (size_t)snprintf(args + n, sizeof(args) - n,
                                  ",\"bytes\":%lld", t->call.bytes);
        if (t->call.tag >= 0)
            n += (size_t)snprintf(args + n, sizeof(args) - n, ",\"tag\":%d",
                                  t->call.tag);
        if (t->call.comm >= 0)
            n += (size_t)snprintf(args + n, sizeof(args) - n,
                                  ",\"comm\":%d", t->call.comm);
        if (n > 0) {
            args[0] = '{';
            if (n + 2 <= sizeof(args)) {
                args[n] = '}';
                args[n + 1] = '\0';
            }
        }
        sim_trace_slice(s, t->call.call, "call", t->call_t, end,
                        n > 0 ? args : NULL);
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
static void trace_copy(FILE *out, const char *path)
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
            fwrite(keep, 1, pending, out);
        fwrite(buf, 1, last, out);
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

rck_status_t sim_trace_merge(sim_hdr_t *h)
{
    char tmp[SIM_PATH_LEN + 32], part[SIM_PATH_LEN + 32];
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
    fprintf(fp, "{\"displayTimeUnit\":\"ns\",\n\"otherData\":"
                "{\"generator\":\"rockcreek sim\",\"chip\":");
    rck_json_write_string(fp, h->chip.name);
    fprintf(fp, ",\"core_mhz\":%.3f,\"time\":\"microseconds of the "
                "modelled chip's base core clock\"},\n\"traceEvents\":[\n",
            h->chip.core_mhz);
    for (uint32_t i = 0; i < h->nues; i++) {
        trace_part_name(h, (int)i, part, sizeof(part));
        trace_copy(fp, part);
        unlink(part);
    }
    sim_power_trace(fp, h);
    fprintf(fp, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,"
                "\"args\":{\"name\":\"rockcreek sim: %u cores\"}}",
            h->nues);
    for (uint32_t i = 0; i < h->nues; i++) {
        fprintf(fp,
                ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,"
                "\"tid\":%d,\"args\":{\"name\":\"core %d (UE %u)\"}},\n"
                "{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":"
                "1,\"tid\":%d,\"args\":{\"sort_index\":%d}}",
                h->ue_core[i], h->ue_core[i], i, h->ue_core[i],
                h->ue_core[i]);
    }
    fprintf(fp, "\n]}\n");
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
