/*
 * The launcher engine (see launch.h for the invariants).
 *
 * One poll() loop serves everything: the cores' stdout/stderr pipes, and a
 * self-pipe that the signal handlers write the signal number to (SIGCHLD,
 * the termination signals, job control), so no work happens in a handler.
 */
#include "launch.h"
#include "launch_output.h"

#include "rck/config.h"
#include "rck/elf.h"
#include "rck/exec.h"
#include "rck/log.h"
#include "rck/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* A line longer than this is cut into pieces (each printed as a line). */
#define LAUNCH_LINE_MAX (1u << 20)
#define LAUNCH_READ_CHUNK 65536
/* What is still read from a reaped core (its pipe may have been inherited
 * by a process that keeps writing). */
#define LAUNCH_DRAIN_MAX (16u << 20)

enum { STREAM_OUT = 0, STREAM_ERR = 1, NSTREAMS = 2 };

typedef struct {
    char *buf;
    size_t len, cap;
} linebuf_t;

typedef struct {
    pid_t pid;
    int fd[NSTREAMS];           /* read ends, -1 once closed */
    linebuf_t line[NSTREAMS];   /* incomplete last line */
    int running;                /* forked and not yet reaped */
    int started;                /* ever forked */
    char **argv;                /* spawned: its program (else cfg->argv) */
    char **env;                 /* spawned: its added environment */
} core_proc_t;

typedef struct {
    const rck_launch_t *cfg;
    rck_job_t *job;
    core_proc_t *procs;
    pid_t pgid;                 /* 0 until the first core is forked */
    int nrunning;
    int width;                  /* digits of the UE prefix */
    int status;                 /* exit status decided so far */
    int decided;                /* status is final (first cause wins) */
    int tearing;                /* SIGTERM sent, waiting for the cores */
    int killed;                 /* SIGKILL sent */
    struct timespec kill_at;    /* when tearing: SIGKILL deadline */
    int has_deadline;
    struct timespec deadline;   /* --timeout */
    int out_broken[NSTREAMS];   /* our stdout/stderr went away */
    int uses_rck;               /* the program links rockcreek */
    struct pollfd *pfds;
    int *pfd_ue;                /* pollfd index -> ue * NSTREAMS + stream */
    int status_line;            /* the backend's line is on the terminal */
    int spawn_fd[2];            /* [0] ours, [1] the cores'; -1: none */
    rck_spawn_req_t *reqs;      /* requests served (they own argv, env) */
    int nreqs;
    rck_fwd_t fwd;              /* the cores' stdin (launch_stdin.h) */
    rck_out_t files;            /* per-UE files, timestamps (launch_output.h) */
} launch_state_t;

static int sig_pipe[2] = {-1, -1};

static const int handled_signals[] = {SIGCHLD, SIGINT,  SIGTERM, SIGHUP,
                                      SIGQUIT, SIGTSTP, SIGCONT};
#define NHANDLED (int)(sizeof(handled_signals) / sizeof(*handled_signals))

static const struct {
    int sig;
    const char *name;
} signal_names[] = {
    {SIGHUP, "SIGHUP"},   {SIGINT, "SIGINT"},     {SIGQUIT, "SIGQUIT"},
    {SIGILL, "SIGILL"},   {SIGTRAP, "SIGTRAP"},   {SIGABRT, "SIGABRT"},
    {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},     {SIGKILL, "SIGKILL"},
    {SIGUSR1, "SIGUSR1"}, {SIGSEGV, "SIGSEGV"},   {SIGUSR2, "SIGUSR2"},
    {SIGPIPE, "SIGPIPE"}, {SIGALRM, "SIGALRM"},   {SIGTERM, "SIGTERM"},
    {SIGCHLD, "SIGCHLD"}, {SIGCONT, "SIGCONT"},   {SIGSTOP, "SIGSTOP"},
    {SIGTSTP, "SIGTSTP"}, {SIGTTIN, "SIGTTIN"},   {SIGTTOU, "SIGTTOU"},
    {SIGURG, "SIGURG"},   {SIGXCPU, "SIGXCPU"},   {SIGXFSZ, "SIGXFSZ"},
    {SIGVTALRM, "SIGVTALRM"}, {SIGPROF, "SIGPROF"}, {SIGWINCH, "SIGWINCH"},
    {SIGIO, "SIGIO"},     {SIGSYS, "SIGSYS"},
};

const char *rck_launch_signame(int sig)
{
    for (size_t i = 0; i < sizeof(signal_names) / sizeof(*signal_names);
         i++) {
        if (signal_names[i].sig == sig)
            return signal_names[i].name;
    }
    return NULL;
}

static void on_signal(int sig)
{
    int saved = errno;
    unsigned char b = (unsigned char)sig;
    ssize_t rc = write(sig_pipe[1], &b, 1);

    (void)rc; /* a full pipe already holds a wake-up */
    errno = saved;
}

static int signals_install(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
    for (int i = 0; i < NHANDLED; i++) {
        if (sigaction(handled_signals[i], &sa, NULL) != 0)
            return -1;
    }
    /* A vanished reader of our output must not kill the launcher. */
    signal(SIGPIPE, SIG_IGN);
    return 0;
}

static void signals_restore(void)
{
    for (int i = 0; i < NHANDLED; i++)
        signal(handled_signals[i], SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
}

static struct timespec now_mono(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts;
}

static struct timespec ts_add_ms(struct timespec t, double ms)
{
    long long ns = (long long)(ms * 1e6);

    t.tv_sec += (time_t)(ns / 1000000000LL);
    t.tv_nsec += (long)(ns % 1000000000LL);
    if (t.tv_nsec >= 1000000000L) {
        t.tv_sec++;
        t.tv_nsec -= 1000000000L;
    }
    return t;
}

/* Milliseconds from now until t, rounded up, 0 if past. */
static int ms_until(struct timespec t, struct timespec now)
{
    long long ns = (long long)(t.tv_sec - now.tv_sec) * 1000000000LL +
                   (t.tv_nsec - now.tv_nsec);

    if (ns <= 0)
        return 0;
    if (ns > 3600LL * 1000000000LL)
        return 3600 * 1000;
    return (int)((ns + 999999) / 1000000);
}

static int ts_passed(struct timespec t, struct timespec now)
{
    return now.tv_sec > t.tv_sec ||
           (now.tv_sec == t.tv_sec && now.tv_nsec >= t.tv_nsec);
}

/* Write everything, waiting out EINTR and a non-blocking descriptor. */
static int write_all(int fd, const char *buf, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, buf, len);

        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
                struct pollfd p = {.fd = fd, .events = POLLOUT};
                poll(&p, 1, 100);
                continue;
            }
            return -1;
        }
        buf += n;
        len -= (size_t)n;
    }
    return 0;
}

static void close_fd(int *fd)
{
    if (*fd >= 0) {
        close(*fd);
        *fd = -1;
    }
}

/* Our own stdout or stderr is gone (EPIPE): stop reading the cores'
 * stream, so that cores writing to it get SIGPIPE as they would have
 * written to the closed pipe directly. */
static void stream_broken(launch_state_t *st, int stream)
{
    st->out_broken[stream] = 1;
    for (int ue = 0; ue < st->cfg->nues; ue++) {
        close_fd(&st->procs[ue].fd[stream]);
        st->procs[ue].line[stream].len = 0;
    }
}

/*
 * Print the complete lines at the start of the buffer (and, with @p flush,
 * the incomplete rest as a line of its own) in one write; keep the rest.
 */
static void lines_emit(launch_state_t *st, int ue, int stream, int flush)
{
    linebuf_t *lb = &st->procs[ue].line[stream];
    char prefix[96];
    size_t plen, slen, start = 0, outlen = 0, nlines = 0;
    char *out;
    int rc;

    if (lb->len == 0 || st->out_broken[stream])
        return;
    plen = slen = rck_out_stamp(&st->files, prefix, sizeof(prefix));
    if (st->cfg->prefix)
        plen += (size_t)snprintf(prefix + slen, sizeof(prefix) - slen,
                                 "[%*d] ", st->width, ue);
    for (size_t i = 0; i < lb->len; i++) {
        if (lb->buf[i] == '\n' || i + 1 - start >= LAUNCH_LINE_MAX) {
            nlines++;
            start = i + 1;
        }
    }
    if (flush && start < lb->len)
        nlines++;
    if (nlines == 0)
        return;
    out = malloc(lb->len + nlines * (plen + 1));
    if (out == NULL) {
        lb->len = 0;
        return;
    }
    start = 0;
    for (size_t i = 0; i < lb->len; i++) {
        if (lb->buf[i] != '\n' && !(flush && i + 1 == lb->len) &&
            i + 1 - start < LAUNCH_LINE_MAX)
            continue;
        size_t text = outlen + plen; /* where the line's own text goes */
        memcpy(out + outlen, prefix, plen);
        outlen += plen;
        memcpy(out + outlen, lb->buf + start, i + 1 - start);
        outlen += i + 1 - start;
        if (lb->buf[i] != '\n')
            out[outlen++] = '\n';
        if (st->files.fd != NULL) { /* the file: the time, no UE prefix */
            rck_out_write(&st->files, ue, stream, prefix, slen);
            rck_out_write(&st->files, ue, stream, out + text, outlen - text);
        }
        start = i + 1;
    }
    if (st->status_line) { /* the backend's progress line (job->tick) */
        write_all(STDERR_FILENO, "\r\033[K", 4);
        st->status_line = 0;
    }
    rc = write_all(stream == STREAM_OUT ? STDOUT_FILENO : STDERR_FILENO, out,
                   outlen);
    free(out);
    if (rc != 0 && errno == EPIPE) {
        stream_broken(st, stream);
        return;
    }
    memmove(lb->buf, lb->buf + start, lb->len - start);
    lb->len -= start;
}

static int lines_append(linebuf_t *lb, const char *data, size_t len)
{
    if (lb->len + len > lb->cap) {
        size_t cap = lb->cap ? lb->cap : 256;
        char *buf;

        while (cap < lb->len + len)
            cap *= 2;
        buf = realloc(lb->buf, cap);
        if (buf == NULL)
            return -1;
        lb->buf = buf;
        lb->cap = cap;
    }
    memcpy(lb->buf + lb->len, data, len);
    lb->len += len;
    return 0;
}

/*
 * Read what is available on one core stream. @p limit bounds the bytes
 * taken in one call (so a core that writes without end cannot starve the
 * others); at EOF the stream is closed and its last line flushed.
 */
static void stream_read(launch_state_t *st, int ue, int stream, size_t limit)
{
    core_proc_t *p = &st->procs[ue];
    char buf[LAUNCH_READ_CHUNK];
    size_t total = 0;

    while (p->fd[stream] >= 0 && total < limit) {
        ssize_t n = read(p->fd[stream], buf, sizeof(buf));

        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (n <= 0) {
            lines_emit(st, ue, stream, 1);
            close_fd(&p->fd[stream]);
            return;
        }
        total += (size_t)n;
        if (lines_append(&p->line[stream], buf, (size_t)n) != 0) {
            rck_error("out of memory buffering the output of UE %d", ue);
            p->line[stream].len = 0;
            continue;
        }
        lines_emit(st, ue, stream, 0);
    }
}

/* Send @p sig to every core still running (the group and each pid, in
 * case a program left the group). */
static void signal_cores(launch_state_t *st, int sig)
{
    if (st->pgid > 0 && st->nrunning > 0)
        kill(-st->pgid, sig);
    for (int ue = 0; ue < st->cfg->nues; ue++) {
        if (st->procs[ue].running)
            kill(st->procs[ue].pid, sig);
    }
}

/* Start tearing down: @p sig now, SIGKILL after the grace period. */
static void teardown(launch_state_t *st, int sig)
{
    if (!st->tearing) {
        st->tearing = 1;
        st->kill_at = ts_add_ms(now_mono(), (double)st->cfg->kill_grace_ms);
    }
    signal_cores(st, sig);
    if (sig != SIGKILL)
        signal_cores(st, SIGCONT); /* stopped cores must see it too */
    else
        st->killed = 1;
}

static void decide(launch_state_t *st, int status)
{
    if (!st->decided) {
        st->decided = 1;
        st->status = status;
    }
}

static void core_reaped(launch_state_t *st, int ue, int wstatus)
{
    core_proc_t *p = &st->procs[ue];
    int core = st->cfg->cores[ue];
    int failed;

    p->running = 0;
    st->nrunning--;
    /* Everything it wrote before it ended is in the pipes now. */
    for (int s = 0; s < NSTREAMS; s++) {
        stream_read(st, ue, s, LAUNCH_DRAIN_MAX);
        if (p->fd[s] >= 0) {
            lines_emit(st, ue, s, 1);
            close_fd(&p->fd[s]);
        }
    }
    rck_fwd_core_exited(&st->fwd, ue);
    failed = !(WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0);
    if (!failed && !st->tearing && st->uses_rck && p->argv == NULL &&
        !st->cfg->ops->job->core_attached(st->job, ue))
        rck_warn("core %d (UE %d) ended without attaching to the chip: its "
                 "program never called RCCE_init (or MPI_Init, "
                 "rck_hal_open)",
                 core, ue);
    st->cfg->ops->job->core_exited(st->job, ue, failed);
    if (!failed || st->tearing)
        return; /* during a teardown the cores die because we said so */
    if (WIFSIGNALED(wstatus) && WTERMSIG(wstatus) == SIGPIPE &&
        (st->out_broken[STREAM_OUT] || st->out_broken[STREAM_ERR])) {
        /* `rck run ... | head`: as quiet as the program alone would be. */
        decide(st, 128 + SIGPIPE);
        if (st->nrunning > 0)
            teardown(st, SIGTERM);
        return;
    }
    if (WIFSIGNALED(wstatus)) {
        int sig = WTERMSIG(wstatus);
        const char *name = rck_launch_signame(sig);

        fprintf(stderr,
                "%s: core %d (UE %d) was killed by signal %d (%s: %s)\n",
                st->cfg->tool, core, ue, sig, name ? name : "?",
                strsignal(sig));
        decide(st, 128 + sig);
    } else {
        fprintf(stderr, "%s: core %d (UE %d) exited with status %d\n",
                st->cfg->tool, core, ue, WEXITSTATUS(wstatus));
        decide(st, WEXITSTATUS(wstatus));
    }
    if (st->nrunning > 0)
        teardown(st, SIGTERM);
}

static void reap(launch_state_t *st)
{
    for (;;) {
        int wstatus;
        pid_t pid = waitpid(-1, &wstatus, WNOHANG);

        if (pid < 0 && errno == EINTR)
            continue;
        if (pid <= 0)
            return;
        for (int ue = 0; ue < st->cfg->nues; ue++) {
            if (st->procs[ue].running && st->procs[ue].pid == pid) {
                core_reaped(st, ue, wstatus);
                break;
            }
        }
    }
}

/* Ctrl-Z: stop the cores, then ourselves; resume them when we resume. */
static void job_stop(launch_state_t *st)
{
    sigset_t set;

    signal_cores(st, SIGSTOP);
    signal(SIGTSTP, SIG_DFL);
    sigemptyset(&set);
    sigaddset(&set, SIGTSTP);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(SIGTSTP);
    /* Here after SIGCONT. */
    signals_install();
    signal_cores(st, SIGCONT);
}

static void launcher_signal(launch_state_t *st, int sig)
{
    if (st->tearing) {
        /* Already going down: do not wait for the grace period. */
        teardown(st, SIGKILL);
        return;
    }
    decide(st, 128 + sig);
    teardown(st, sig);
}

static void signals_handle(launch_state_t *st)
{
    unsigned char buf[64];
    ssize_t n;

    while ((n = read(sig_pipe[0], buf, sizeof(buf))) != 0) {
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return; /* EAGAIN: drained */
        }
        for (ssize_t i = 0; i < n; i++) {
            switch (buf[i]) {
            case SIGCHLD:
                break; /* the loop reaps after every wake-up */
            case SIGTSTP:
                if (!st->tearing)
                    job_stop(st);
                break;
            case SIGCONT:
                signal_cores(st, SIGCONT);
                break;
            default:
                launcher_signal(st, buf[i]);
                break;
            }
        }
    }
}

static void report_timeout(launch_state_t *st)
{
    const rck_launch_t *cfg = st->cfg;
    size_t cap = 64 + (size_t)cfg->nues * 32, len = 0;
    char *list = malloc(cap);

    if (list == NULL) {
        fprintf(stderr, "%s: timeout after %g s\n", cfg->tool,
                cfg->timeout_s);
        return;
    }
    list[0] = '\0';
    for (int ue = 0; ue < cfg->nues; ue++) {
        if (!st->procs[ue].running)
            continue;
        len += (size_t)snprintf(list + len, cap - len, "%score %d (UE %d)",
                                len ? ", " : "", cfg->cores[ue], ue);
    }
    fprintf(stderr, "%s: timeout after %g s; still running: %s\n", cfg->tool,
            cfg->timeout_s, list);
    free(list);
}

static void timers_check(launch_state_t *st)
{
    struct timespec now = now_mono();

    if (st->has_deadline && !st->tearing && ts_passed(st->deadline, now)) {
        report_timeout(st);
        decide(st, RCK_EXIT_TIMEOUT);
        teardown(st, SIGTERM);
    }
    if (st->tearing && !st->killed && ts_passed(st->kill_at, now))
        teardown(st, SIGKILL);
}

void rck_launch_msglog_reset(const char *tool)
{
    const char *path = rck_config_get("MSGLOG");
    int fd;

    if (*path == '\0' || !strcmp(path, "none") || !strcmp(path, "off"))
        return;
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        fprintf(stderr, "%s: cannot empty the message log %s: %s\n", tool,
                path, strerror(errno));
    else
        close(fd);
}

static int poll_timeout(launch_state_t *st)
{
    struct timespec now = now_mono();
    int t = -1;

    if (st->has_deadline && !st->tearing)
        t = ms_until(st->deadline, now);
    if (st->tearing && !st->killed) {
        int k = ms_until(st->kill_at, now);
        t = t < 0 || k < t ? k : t;
    }
    if (st->tearing && st->killed)
        t = 1000; /* defensive: re-check the children now and then */
    if ((st->cfg->ops->caps & RCK_CAP_PROGRESS) && (t < 0 || t > 100))
        t = 100; /* the backend's progress output (job->tick) */
    return t;
}

/* Start the UEs a core asked for (rck_hal_spawn). A request the launcher
 * cannot serve fails the job: its cores would wait for processes that
 * never come. */
static int core_start(launch_state_t *st, int ue);

static void spawn_serve(launch_state_t *st)
{
    const rck_launch_t *cfg = st->cfg;
    char *buf = malloc(RCK_SPAWN_MAX);
    rck_spawn_req_t req, *reqs;
    ssize_t len;

    if (buf == NULL)
        return;
    while ((len = recv(st->spawn_fd[0], buf, RCK_SPAWN_MAX, MSG_DONTWAIT)) >
           0) {
        int ok = rck_spawn_decode(buf, (size_t)len, &req) == RCK_OK;

        for (int i = 0; ok && i < req.n; i++)
            ok = req.ues[i] >= cfg->nstart && req.ues[i] < cfg->nues &&
                 !st->procs[req.ues[i]].started;
        reqs = ok ? realloc(st->reqs, (size_t)(st->nreqs + 1) * sizeof(req))
                  : NULL;
        if (reqs == NULL) {
            fprintf(stderr, "%s: a core asked to start processes on UEs "
                            "that cannot take them; stopping the job\n",
                    cfg->tool);
            if (ok)
                rck_spawn_req_free(&req);
            decide(st, 1);
            teardown(st, SIGTERM);
            break;
        }
        st->reqs = reqs;
        st->reqs[st->nreqs++] = req;
        for (int i = 0; i < req.n; i++) {
            core_proc_t *p = &st->procs[req.ues[i]];
            p->argv = req.argv;
            p->env = req.env;
            if (st->tearing || core_start(st, req.ues[i]) != 0) {
                decide(st, 1);
                teardown(st, SIGTERM);
                break;
            }
        }
    }
    free(buf);
}

static void loop(launch_state_t *st)
{
    int nues = st->cfg->nues;

    while (st->nrunning > 0) {
        int n = 1, first, spawn = -1, fwd, nfwd;

        st->pfds[0].fd = sig_pipe[0];
        st->pfds[0].events = POLLIN;
        if (st->spawn_fd[0] >= 0) {
            spawn = n++;
            st->pfds[spawn].fd = st->spawn_fd[0];
            st->pfds[spawn].events = POLLIN;
        }
        first = n;
        for (int ue = 0; ue < nues; ue++) {
            for (int s = 0; s < NSTREAMS; s++) {
                if (st->procs[ue].fd[s] < 0)
                    continue;
                st->pfds[n].fd = st->procs[ue].fd[s];
                st->pfds[n].events = POLLIN;
                st->pfd_ue[n] = ue * NSTREAMS + s;
                n++;
            }
        }
        fwd = n;
        nfwd = st->tearing ? 0 : rck_fwd_poll(&st->fwd, st->pfds + fwd);
        n += nfwd;
        if ((st->cfg->ops->caps & RCK_CAP_PROGRESS) && !st->tearing)
            st->status_line = st->cfg->ops->job->tick(st->job);
        if (poll(st->pfds, (nfds_t)n, poll_timeout(st)) < 0) {
            if (errno == EINTR)
                continue;
            rck_error("poll failed: %s", strerror(errno));
            decide(st, 1);
            teardown(st, SIGKILL);
        } else {
            rck_fwd_handle(&st->fwd, st->pfds + fwd, nfwd);
            for (int i = first; i < fwd; i++) {
                if (st->pfds[i].revents == 0)
                    continue;
                stream_read(st, st->pfd_ue[i] / NSTREAMS,
                            st->pfd_ue[i] % NSTREAMS, LAUNCH_READ_CHUNK * 4);
            }
            if (spawn >= 0 && st->pfds[spawn].revents != 0)
                spawn_serve(st);
            if (st->pfds[0].revents != 0)
                signals_handle(st);
        }
        reap(st); /* cheap, and no SIGCHLD wake-up can be missed */
        timers_check(st);
    }
}

static void child_fail(const char *tool, const char *what)
{
    char msg[512];
    int len = snprintf(msg, sizeof(msg), "%s: %s: %s\n", tool, what,
                       strerror(errno));

    if (len > 0)
        write_all(STDERR_FILENO, msg, (size_t)len);
    _exit(RCK_EXIT_NOEXEC);
}

/* Does the program @p name link rockcreek (librockcreek or librckmpi
 * needed, or the HAL linked in statically)? Then a core that ends without
 * attaching has a program that never called the library's init. A script
 * or a program that does not use the chip: no. */
static int program_uses_rck(const char *name)
{
    static const char *const marks[] = {"librockcreek.so", "librckmpi.so",
                                        "rck_hal_open"};
    static const char *const secs[] = {".dynstr", ".strtab"};
    char path[4096];
    rck_elf_t *e = NULL;
    int uses = 0;

    if (rck_exec_find(name, path, sizeof(path)) != 0 ||
        rck_elf_load(path, &e, NULL, 0) != 0)
        return 0;
    for (size_t k = 0; k < 2 && !uses; k++) {
        size_t len = 0;
        const char *str = rck_elf_section(e, secs[k], &len);
        for (size_t off = 0; str != NULL && off < len && !uses;
             off += strnlen(str + off, len - off) + 1) {
            for (size_t m = 0; m < 3 && !uses; m++)
                uses = strncmp(str + off, marks[m], strlen(marks[m])) == 0;
        }
    }
    rck_elf_free(e);
    return uses;
}

/* In the child of UE @p ue: never returns. */
static void child_run(launch_state_t *st, int ue, int out_w, int err_w,
                      pid_t parent, const sigset_t *oldmask)
{
    const rck_launch_t *cfg = st->cfg;
    const core_proc_t *p = &st->procs[ue];
    char *const *argv = p->argv != NULL ? p->argv : cfg->argv;
    char num[32];
    rck_status_t status;

    signals_restore();
    sigprocmask(SIG_SETMASK, oldmask, NULL);
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
        _exit(RCK_EXIT_NOEXEC);
    setpgid(0, st->pgid);
    if (dup2(out_w, STDOUT_FILENO) < 0 || dup2(err_w, STDERR_FILENO) < 0)
        _exit(RCK_EXIT_NOEXEC);
    /* its stdin: a pipe the launcher fills (--stdin), or /dev/null */
    rck_fwd_child(&st->fwd, ue);
    snprintf(num, sizeof(num), "%d", ue);
    setenv("RCK_RUN_UE", num, 1);
    snprintf(num, sizeof(num), "%d", cfg->cores[ue]);
    setenv("RCK_RUN_CORE", num, 1);
    snprintf(num, sizeof(num), "%d", cfg->nues);
    setenv("RCK_RUN_NUES", num, 1);
    if (st->spawn_fd[1] >= 0) {
        /* the job has dormant UEs: the world, and the way to wake them */
        snprintf(num, sizeof(num), "%d", st->spawn_fd[1]);
        if (fcntl(st->spawn_fd[1], F_SETFD, 0) != 0 ||
            setenv(RCK_SPAWN_FD_VAR, num, 1) != 0)
            _exit(RCK_EXIT_NOEXEC);
        snprintf(num, sizeof(num), "0-%d", cfg->nstart - 1);
        setenv(RCK_WORLD_VAR, num, 1);
    }
    for (char **e = p->env; e != NULL && *e != NULL; e++)
        putenv(*e);
    status = cfg->ops->job->child_setup(st->job, ue);
    if (status != RCK_OK) {
        char msg[256];
        int len = snprintf(msg, sizeof(msg),
                           "%s: UE %d: backend setup failed: %s\n", cfg->tool,
                           ue, rck_status_string(status));
        if (len > 0)
            write_all(STDERR_FILENO, msg, (size_t)len);
        _exit(RCK_EXIT_NOEXEC);
    }
    {
        char **wrapped = cfg->ops->job->child_wrap(st->job, ue, argv);
        if (wrapped != NULL) {
            execv(wrapped[0], wrapped);
            child_fail(cfg->tool, "cannot execute the backend's wrapper");
        }
    }
    execvp(argv[0], argv);
    {
        char what[512];
        snprintf(what, sizeof(what), "cannot execute '%s'", argv[0]);
        child_fail(cfg->tool, what);
    }
}

static int fd_nonblock(int fd)
{
    int fl = fcntl(fd, F_GETFL);

    return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

/* Fork UE @p ue. @return 0, or -1 (logged). */
static int core_start(launch_state_t *st, int ue)
{
    core_proc_t *p = &st->procs[ue];
    int out[2] = {-1, -1}, err[2] = {-1, -1};
    sigset_t all, old;
    pid_t parent = getpid(), pid;

    if (pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0) {
        fprintf(stderr, "%s: cannot create pipes for UE %d: %s\n",
                st->cfg->tool, ue, strerror(errno));
        goto err_pipes;
    }
    if (rck_fwd_pipe(&st->fwd, ue) != 0)
        goto err_pipes;
    /* No handler may run in the child before it resets them. */
    sigfillset(&all);
    sigprocmask(SIG_SETMASK, &all, &old);
    pid = fork();
    if (pid == 0)
        child_run(st, ue, out[1], err[1], parent, &old);
    rck_fwd_forked(&st->fwd, ue);
    if (pid < 0) {
        int e = errno;
        sigprocmask(SIG_SETMASK, &old, NULL);
        rck_fwd_core_exited(&st->fwd, ue);
        fprintf(stderr, "%s: cannot start UE %d: fork: %s\n", st->cfg->tool,
                ue, strerror(e));
        goto err_pipes;
    }
    if (st->pgid == 0)
        st->pgid = pid;
    /* Also here, so that a kill() right after fork reaches the group. */
    setpgid(pid, st->pgid);
    p->pid = pid;
    p->running = 1;
    p->started = 1;
    st->nrunning++;
    sigprocmask(SIG_SETMASK, &old, NULL);
    close(out[1]);
    close(err[1]);
    p->fd[STREAM_OUT] = out[0];
    p->fd[STREAM_ERR] = err[0];
    fd_nonblock(out[0]);
    fd_nonblock(err[0]);
    return 0;

err_pipes:
    for (int i = 0; i < 2; i++) {
        close_fd(&out[i]);
        close_fd(&err[i]);
    }
    return -1;
}

/* Room for two descriptors per core and then some. */
static void nofile_raise(int nues)
{
    struct rlimit rl;
    rlim_t need = (rlim_t)nues * 2 + 64;

    if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur >= need)
        return;
    rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > need
                      ? need
                      : rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
}

int rck_launch_run(const rck_launch_t *cfg)
{
    launch_state_t st;
    rck_job_params_t params;
    rck_status_t status;
    int started, nstart;

    memset(&st, 0, sizeof(st));
    st.cfg = cfg;
    st.width = 2;
    for (int n = cfg->nues - 1; n >= 100; n /= 10)
        st.width++;
    st.procs = calloc((size_t)cfg->nues, sizeof(*st.procs));
    /* two streams and a stdin pipe per core; signals, spawns, stdin */
    st.pfds = calloc((size_t)cfg->nues * (NSTREAMS + 1) + 3, sizeof(*st.pfds));
    st.pfd_ue = calloc((size_t)cfg->nues * (NSTREAMS + 1) + 3,
                       sizeof(*st.pfd_ue));
    st.spawn_fd[0] = st.spawn_fd[1] = -1;
    nstart = cfg->nstart > 0 && cfg->nstart < cfg->nues ? cfg->nstart
                                                         : cfg->nues;
    if (st.procs == NULL || st.pfds == NULL || st.pfd_ue == NULL ||
        rck_fwd_init(&st.fwd, cfg->stdin_ue, cfg->nues) != 0) {
        fprintf(stderr, "%s: out of memory\n", cfg->tool);
        st.status = RCK_EXIT_USAGE;
        goto err_alloc;
    }
    if (rck_out_init(&st.files, cfg->tool, cfg->output_dir, cfg->nues,
                     cfg->timestamps) != 0) {
        st.status = RCK_EXIT_USAGE;
        goto err_alloc;
    }
    for (int ue = 0; ue < cfg->nues; ue++)
        st.procs[ue].fd[STREAM_OUT] = st.procs[ue].fd[STREAM_ERR] = -1;
    nofile_raise(cfg->nues);

    if (pipe2(sig_pipe, O_CLOEXEC | O_NONBLOCK) != 0 ||
        signals_install() != 0) {
        fprintf(stderr, "%s: cannot set up signal handling: %s\n", cfg->tool,
                strerror(errno));
        st.status = RCK_EXIT_USAGE;
        goto err_signals;
    }

    params.chip = cfg->chip;
    params.nues = cfg->nues;
    params.cores = cfg->cores;
    params.shm_bytes = cfg->shm_bytes;
    params.nstart = nstart;
    params.program = cfg->argv[0];
    st.uses_rck = program_uses_rck(cfg->argv[0]);
    if (nstart < cfg->nues &&
        socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, st.spawn_fd) !=
            0) {
        fprintf(stderr, "%s: cannot create the spawn socket: %s\n",
                cfg->tool, strerror(errno));
        st.status = RCK_EXIT_USAGE;
        goto err_job;
    }
    status = cfg->ops->job->create(&params, &st.job);
    if (status != RCK_OK) {
        fprintf(stderr, "%s: cannot create the job on backend '%s': %s\n",
                cfg->tool, cfg->ops->name, rck_status_string(status));
        st.status = RCK_EXIT_USAGE;
        goto err_job;
    }

    if (cfg->timeout_s > 0) {
        st.has_deadline = 1;
        st.deadline = ts_add_ms(now_mono(), cfg->timeout_s * 1000.0);
    }
    for (started = 0; started < nstart; started++) {
        if (core_start(&st, started) != 0)
            break;
    }
    if (started < nstart) {
        decide(&st, 1);
        if (st.nrunning > 0)
            teardown(&st, SIGKILL);
    }
    loop(&st);
    /* Anything the cores left behind in their group goes too. */
    if (st.tearing && st.pgid > 0)
        kill(-st.pgid, SIGKILL);
    /* outputs the backend could not write fail a run that went well */
    if (cfg->ops->job->destroy(st.job) != RCK_OK)
        decide(&st, RCK_EXIT_OUTPUT);

err_job:
    signals_restore();
    for (int i = 0; i < 2; i++)
        close_fd(&st.spawn_fd[i]);
    for (int i = 0; i < st.nreqs; i++)
        rck_spawn_req_free(&st.reqs[i]);
    free(st.reqs);
err_signals:
    for (int i = 0; i < 2; i++)
        close_fd(&sig_pipe[i]);
err_alloc:
    if (st.procs != NULL) {
        for (int ue = 0; ue < cfg->nues; ue++) {
            for (int s = 0; s < NSTREAMS; s++) {
                close_fd(&st.procs[ue].fd[s]);
                free(st.procs[ue].line[s].buf);
            }
        }
    }
    free(st.procs);
    free(st.pfds);
    free(st.pfd_ue);
    rck_fwd_fini(&st.fwd);
    rck_out_fini(&st.files);
    return st.status;
}

int rck_opt_value(const char *tool, int argc, char **argv, int *i,
                  const char *name, const char **value)
{
    size_t len = strlen(name);
    const char *arg = argv[*i];

    if (strncmp(arg, name, len) != 0)
        return 0;
    if (arg[len] == '=') {
        *value = arg + len + 1;
        return 1;
    }
    if (arg[len] != '\0')
        return 0;
    if (*i + 1 >= argc) {
        fprintf(stderr, "%s: option '%s' needs a value\n", tool, name);
        return -1;
    }
    *value = argv[++*i];
    return 1;
}
