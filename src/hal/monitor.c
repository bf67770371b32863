/*
 * Monitoring through the HAL (rck/monitor.h, docs/MONITORING.md): this
 * core's row of the communication matrix, the message log (RCK_MSGLOG),
 * the attribution of messages to a library, the performance counters'
 * event selection, and the settings of monitoring (RCK_MSGLOG,
 * RCK_REPORT, RCK_PROGRESS; the backends read the last two).
 *
 * The message log: each core formats its lines in a buffer of its own
 * and appends whole lines to the file (O_APPEND: one write() of whole
 * lines never interleaves with another core's), when the buffer is full,
 * at detach and at exit. The launcher empties the file before the cores
 * start. Lines are formatted inside the backend's monitor slot, so the
 * sim charges nothing for them.
 *
 * Owns: struct rck_monitor. May call: util, the backend's monitor and
 * wtime slots.
 */
#include "rck/hal.h"

#include "rck/config.h"
#include "rck/log.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MSGLOG_BUF (64u << 10)
#define MSGLOG_LINE 256
#define MON_CALLS 4

static const rck_config_entry_t monitor_settings[] = {
    {"REPORT", "", RCK_CONFIG_STRING,
     "the run's JSON report (communication matrix, and on sim everything "
     "RCK_SIM_REPORT has): a file name, none, or empty for the backend's "
     "default (sim: RCK_SIM_REPORT; native, mpi: no file); rck run "
     "--report", NULL},
    {"MSGLOG", "", RCK_CONFIG_STRING,
     "message log: every send and receive of the libraries, one JSON "
     "object per line (docs/MONITORING.md); empty or none = off", NULL},
    {"PROGRESS", "auto", RCK_CONFIG_STRING,
     "sim: progress line on stderr about once per host second: auto (when "
     "stderr is a terminal), on, off, or a period in seconds (forces it "
     "on)",
     "auto|on|off|#.#"},
    {NULL, NULL, RCK_CONFIG_STRING, NULL, NULL}};

__attribute__((constructor)) static void monitor_settings_register(void)
{
    rck_config_register(monitor_settings, RCK_HAL_CONFIG_RANK);
}

struct rck_monitor {
    uint64_t *row;             /* this UE's row (the backend's or own) */
    uint64_t *counts;          /* its counts, after the head */
    int nlibs;                 /* libraries named in the row's head */
    uint64_t *own;             /* allocated here when the backend has none */
    int nues, ue;
    int as;                    /* attribution in force, -1 none */
    int warned;
    const char *calls[MON_CALLS]; /* library calls entered (set_context) */
    int ncalls;
    int log_fd;                /* message log, -1: off */
    size_t len;
    char *buf;
    int16_t core_ue[RCK_CHIP_MAX_CORES];
};

const char *rck_perf_event_name(int event)
{
    switch (event) {
    case RCK_PERF_CODE_MISS:
        return "code_cache_misses";
    case RCK_PERF_INSTRUCTIONS:
        return "instructions";
    case RCK_PERF_NC_READS:
        return "noncacheable_reads";
    case RCK_PERF_DATA_MISS:
        return "data_misses";
    case RCK_PERF_DATA_RW:
        return "data_reads_writes";
    }
    return NULL;
}

rck_status_t rck_hal_perfctr_select(rck_hal_t *hal, int idx, int event)
{
    if (idx < 0 || idx > 1) {
        rck_error("perfctr_select: counter %d does not exist (0 or 1)", idx);
        return RCK_ERR_INVALID;
    }
    if (rck_perf_event_name(event) == NULL) {
        rck_error("perfctr_select: event 0x%02x is not one rockcreek counts "
                  "(0x0e, 0x16, 0x1e, 0x28, 0x29: docs/MONITORING.md)",
                  (unsigned)event);
        return RCK_ERR_INVALID;
    }
    hal->perfctr_event[idx] = event;
    return RCK_OK;
}

/* ---- the message log ---- */

static struct rck_monitor *log_owner; /* for the exit hook */

static void log_flush(struct rck_monitor *m)
{
    size_t done = 0;

    while (done < m->len) {
        ssize_t w = write(m->log_fd, m->buf + done, m->len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            rck_error("message log: write failed: %s", strerror(errno));
            break;
        }
        done += (size_t)w;
    }
    m->len = 0;
}

static void log_atexit(void)
{
    if (log_owner != NULL && log_owner->log_fd >= 0)
        log_flush(log_owner);
}

static int log_open(struct rck_monitor *m)
{
    const char *path = rck_config_get("MSGLOG");

    m->log_fd = -1;
    if (*path == '\0' || !strcmp(path, "none") || !strcmp(path, "off"))
        return 0;
    m->buf = malloc(MSGLOG_BUF);
    if (m->buf == NULL)
        return -1;
    m->log_fd =
        open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (m->log_fd < 0) {
        rck_error("RCK_MSGLOG: cannot open '%s': %s; no message log", path,
                  strerror(errno));
        free(m->buf);
        m->buf = NULL;
        return 0;
    }
    if (log_owner == NULL)
        atexit(log_atexit);
    log_owner = m;
    return 0;
}

typedef struct {
    struct rck_monitor *m;
    const char *op;
    int lib, peer;
    size_t bytes;
} log_rec_t;

static void log_line(void *arg, double seconds)
{
    const log_rec_t *r = arg;
    struct rck_monitor *m = r->m;
    unsigned long long ns;
    int n;

    if (m->len + MSGLOG_LINE > MSGLOG_BUF)
        log_flush(m);
    /* whole nanoseconds, printed as integers: a double's %f costs more
     * than the rest of the line */
    ns = seconds > 0 ? (unsigned long long)(seconds * 1e9 + 0.5) : 0;
    n = snprintf(m->buf + m->len, MSGLOG_LINE,
                 "{\"t\": %llu.%09llu, \"ue\": %d, \"op\": \"%s\", "
                 "\"peer\": %d, \"bytes\": %zu, \"lib\": \"%s\", "
                 "\"call\": ",
                 ns / 1000000000ull, ns % 1000000000ull, m->ue, r->op,
                 r->peer, r->bytes, rck_lib_name(r->lib));
    if (n > 0 && n < MSGLOG_LINE - 64) {
        int k = m->ncalls > 0
                    ? snprintf(m->buf + m->len + n, (size_t)(MSGLOG_LINE - n),
                               "\"%.48s\"}\n", m->calls[0])
                    : snprintf(m->buf + m->len + n, (size_t)(MSGLOG_LINE - n),
                               "null}\n");
        m->len += (size_t)n + (size_t)k;
    }
}

static void log_msg(rck_hal_t *hal, const char *op, int lib, int peer,
                    size_t bytes)
{
    log_rec_t r = {hal->mon, op, lib, peer, bytes};

    hal->ops->monitor(hal, log_line, &r);
}

/* ---- attach, detach ---- */

/* Name in the row's head the libraries registered since the last call
 * (all of them at attach; one loaded later, at its first message). */
static void row_name_libs(struct rck_monitor *m)
{
    rck_comm_lib_t *head = (rck_comm_lib_t *)(void *)m->row;
    int n = rck_lib_count();

    for (int l = m->nlibs; l < n; l++) {
        const rck_lib_desc_t *d = rck_lib_desc(l);
        rck_comm_lib_t e = {.rank = (int16_t)d->rank,
                            .flags = (uint16_t)d->flags};
        strncpy(e.name, d->name, sizeof(e.name) - 1);
        head[l] = e;
    }
    m->nlibs = n;
}

int rck__monitor_attach(rck_hal_t *hal)
{
    struct rck_monitor *m = calloc(1, sizeof(*m));

    if (m == NULL)
        return -1;
    m->nues = hal->nues;
    m->ue = hal->ue;
    m->as = -1;
    for (int c = 0; c < RCK_CHIP_MAX_CORES; c++)
        m->core_ue[c] = -1;
    for (int u = 0; u < hal->nues; u++)
        if (hal->ue_core[u] >= 0 && hal->ue_core[u] < RCK_CHIP_MAX_CORES)
            m->core_ue[hal->ue_core[u]] = (int16_t)u;
    m->row = hal->comm_row;
    if (m->row == NULL) {
        m->own = calloc(rck_comm_row_words(hal->nues), sizeof(uint64_t));
        if (m->own == NULL) {
            free(m);
            return -1;
        }
        m->row = hal->comm_row = m->own;
    }
    m->counts = m->row + RCK_COMM_HEAD_WORDS;
    row_name_libs(m);
    if (log_open(m) != 0) {
        free(m->own);
        free(m);
        return -1;
    }
    hal->perfctr_event[0] = RCK_PERF_INSTRUCTIONS;
    hal->perfctr_event[1] = RCK_PERF_DATA_MISS;
    hal->mon = m;
    return 0;
}

void rck__monitor_detach(rck_hal_t *hal)
{
    struct rck_monitor *m = hal->mon;

    if (m == NULL)
        return;
    if (m->log_fd >= 0) {
        log_flush(m);
        close(m->log_fd);
    }
    if (log_owner == m)
        log_owner = NULL;
    if (hal->comm_row == m->own)
        hal->comm_row = NULL;
    free(m->buf);
    free(m->own);
    free(m);
    hal->mon = NULL;
}

/* Library calls nest (RCCE_comm_bcast waits through iRCCE, which names
 * itself and then clears the context): a name other than the innermost
 * one enters a call, NULL leaves it, and the log names the outermost, the
 * call the program made. Deeper than MON_CALLS, the innermost is
 * replaced. */
void rck__monitor_context(rck_hal_t *hal, const char *call)
{
    struct rck_monitor *m = hal->mon;

    if (m == NULL)
        return;
    if (call == NULL) {
        if (m->ncalls > 0)
            m->ncalls--;
    } else if (m->ncalls == 0 || strcmp(m->calls[m->ncalls - 1], call)) {
        if (m->ncalls == MON_CALLS)
            m->ncalls--;
        m->calls[m->ncalls++] = call;
    }
}

/* ---- counting ---- */

static int peer_ue(rck_hal_t *hal, int lib, int core, const char *what)
{
    struct rck_monitor *m = hal->mon;
    int ue = core >= 0 && core < RCK_CHIP_MAX_CORES ? m->core_ue[core] : -1;

    if (lib >= m->nlibs)
        row_name_libs(m);
    if ((ue < 0 || lib < 0 || lib >= m->nlibs) && !m->warned) {
        m->warned = 1;
        rck_warn("%s: library %d, core %d: not a registered library "
                 "(rck_lib_register) or not a core of the job; not counted "
                 "(further ones silently)",
                 what, lib, core);
    }
    return lib < 0 || lib >= m->nlibs ? -1 : ue;
}

/* One message of library @p l to UE @p ue in this UE's row: its bytes,
 * and one more message. */
static inline void count_in_row(struct rck_monitor *m, int l, int ue,
                                size_t bytes)
{
    uint64_t *r = m->counts + (size_t)l * 2 * (size_t)m->nues;

    r[ue] += bytes;
    r[(size_t)m->nues + (size_t)ue]++;
}

/* rck_hal_comm_count's cases beyond the usual: a message log, a core that
 * is not the job's, a library that is not one. */
static __attribute__((noinline)) void comm_count_slow(rck_hal_t *hal, int l,
                                                      int dest_core,
                                                      size_t bytes)
{
    struct rck_monitor *m = hal->mon;
    int ue = peer_ue(hal, l, dest_core, "rck_hal_comm_count");

    if (ue < 0)
        return;
    count_in_row(m, l, ue, bytes);
    if (m->log_fd >= 0)
        log_msg(hal, "send", l, ue, bytes);
}

void rck_hal_comm_count(rck_hal_t *hal, int lib, int dest_core,
                        size_t bytes)
{
    struct rck_monitor *m = hal->mon;
    int l, ue;

    if (m == NULL)
        return;
    l = m->as >= 0 ? m->as : lib;
    /* every message of every library passes here: the usual case in a
     * few instructions */
    if ((unsigned)dest_core < RCK_CHIP_MAX_CORES && (unsigned)l < (unsigned)m->nlibs &&
        m->log_fd < 0 && (ue = m->core_ue[dest_core]) >= 0) {
        count_in_row(m, l, ue, bytes);
        return;
    }
    comm_count_slow(hal, l, dest_core, bytes);
}

void rck_hal_comm_recv(rck_hal_t *hal, int lib, int src_core,
                       size_t bytes)
{
    struct rck_monitor *m = hal->mon;
    int l = lib, ue;

    if (m == NULL || m->log_fd < 0)
        return;
    if (m->as >= 0)
        l = m->as;
    ue = peer_ue(hal, l, src_core, "rck_hal_comm_recv");
    if (ue >= 0)
        log_msg(hal, "recv", l, ue, bytes);
}

int rck_hal_comm_as(rck_hal_t *hal, int lib)
{
    struct rck_monitor *m = hal->mon;
    int old;

    if (m == NULL)
        return -1;
    old = m->as;
    m->as = lib >= 0 && lib < RCK_LIB_MAX ? lib : -1;
    return old;
}
