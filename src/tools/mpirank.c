/*
 * The rank side of `rck run --backend mpi` (see mpirun.h): mpirun starts
 * `rck run -- PROGRAM ARGS` with RCK_MPI_WRAP set, and that process runs
 * PROGRAM as its child with stdout and stderr on pipes, so that only whole
 * lines, prefixed by rck itself as on native, reach the MPI's launcher:
 *
 *  - every write to mpirun's pipe is one or more whole lines and at most
 *    PIPE_BUF bytes (atomic, so the launcher never reads a piece of a
 *    line); a longer line is cut into pieces, each printed as a line;
 *  - a failing rank hands its last output over before it stops the job:
 *    the plugin (mpi.c, mpi_on_exit) flushes, closes its ends of the pipes
 *    and waits on RCK_MPI_FLUSH_FD, which is written once both pipes have
 *    reached EOF and everything read from them has been written out;
 *  - signals from mpirun (SIGTERM, SIGINT, SIGHUP) go on to the program,
 *    which dies with this process (PR_SET_PDEATHSIG); the program's exit
 *    status or signal becomes this process's.
 */
#include "mpirun.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define RANK_BATCH PIPE_BUF
/* after the program is reaped, how long pipes inherited by its own
 * children may still hold this process */
#define RANK_DRAIN_MS 2000

typedef struct {
    int fd;           /* read end, -1 at EOF */
    int out;          /* STDOUT_FILENO or STDERR_FILENO */
    char buf[RANK_BATCH];
    size_t len;       /* bytes of an unfinished line */
} rank_stream_t;

static volatile sig_atomic_t child_pid;

static void forward_signal(int sig)
{
    if (child_pid > 0)
        kill((pid_t)child_pid, sig);
}

static void write_all(int fd, const char *s, size_t len)
{
    while (len > 0) {
        ssize_t w = write(fd, s, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return; /* our reader is gone: drop, as a closed pipe would */
        s += w;
        len -= (size_t)w;
    }
}

/* Append one line (with its newline) to the batch, writing the batch
 * first when the line would not fit. */
static void batch_add(char *batch, size_t *blen, int fd, const char *pre,
                      size_t plen, const char *line, size_t len)
{
    if (*blen + plen + len + 1 > RANK_BATCH) {
        write_all(fd, batch, *blen);
        *blen = 0;
    }
    memcpy(batch + *blen, pre, plen);
    memcpy(batch + *blen + plen, line, len);
    *blen += plen + len;
    batch[(*blen)++] = '\n';
}

/* Print the whole lines of @p s (all of it when @p eof); keep the rest. */
static void stream_emit(rank_stream_t *s, const char *pre, size_t plen,
                        int eof)
{
    char batch[RANK_BATCH];
    size_t blen = 0, start = 0, room = RANK_BATCH - plen - 1;

    for (size_t i = 0; i < s->len; i++) {
        if (s->buf[i] == '\n' || i + 1 - start >= room) {
            size_t n = i + 1 - start - (s->buf[i] == '\n');
            batch_add(batch, &blen, s->out, pre, plen, s->buf + start, n);
            start = i + 1;
        }
    }
    if (eof && start < s->len) {
        batch_add(batch, &blen, s->out, pre, plen, s->buf + start,
                  s->len - start);
        start = s->len;
    }
    write_all(s->out, batch, blen);
    memmove(s->buf, s->buf + start, s->len - start);
    s->len -= start;
}

static void stream_read(rank_stream_t *s, const char *pre, size_t plen)
{
    ssize_t r = read(s->fd, s->buf + s->len, sizeof(s->buf) - s->len);

    if (r < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (r <= 0) {
        stream_emit(s, pre, plen, 1);
        close(s->fd);
        s->fd = -1;
        return;
    }
    s->len += (size_t)r;
    stream_emit(s, pre, plen, 0);
}

static long long now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Forward the program's output until both pipes end; tell the program
 * (RCK_MPI_FLUSH_FD) once everything is out; reap it.
 * @return its wait status. */
static int relay(pid_t pid, rank_stream_t *s, const char *pre, size_t plen,
                 int ack)
{
    int wstatus = 0, reaped = 0;
    long long give_up = 0;

    while (s[0].fd >= 0 || s[1].fd >= 0) {
        struct pollfd pf[2] = {{s[0].fd, POLLIN, 0}, {s[1].fd, POLLIN, 0}};

        if (poll(pf, 2, reaped ? 50 : 200) < 0 && errno != EINTR)
            break;
        for (int i = 0; i < 2; i++) {
            if (s[i].fd >= 0 && (pf[i].revents & (POLLIN | POLLHUP | POLLERR)))
                stream_read(&s[i], pre, plen);
        }
        if (!reaped && waitpid(pid, &wstatus, WNOHANG) == pid) {
            reaped = 1;
            give_up = now_ms() + RANK_DRAIN_MS;
        }
        if (reaped && now_ms() >= give_up)
            break; /* the program's own children hold the pipes */
    }
    for (int i = 0; i < 2; i++) {
        if (s[i].fd >= 0) {
            stream_emit(&s[i], pre, plen, 1);
            close(s[i].fd);
        }
    }
    write_all(ack, "1", 1);
    close(ack);
    while (!reaped) {
        if (waitpid(pid, &wstatus, 0) == pid)
            reaped = 1;
        else if (errno != EINTR)
            return 1 << 8;
    }
    return wstatus;
}

/* This process ends as the program did: the same status or signal. */
static int finish(int wstatus)
{
    if (WIFSIGNALED(wstatus)) {
        int sig = WTERMSIG(wstatus);
        sigset_t set;

        signal(sig, SIG_DFL);
        sigemptyset(&set);
        sigaddset(&set, sig);
        sigprocmask(SIG_UNBLOCK, &set, NULL);
        raise(sig);
        return 128 + sig;
    }
    return WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 1;
}

static void child_exec(const char *tool, char **argv, int out_w, int err_w,
                       int ack_r)
{
    char num[16];

    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() == 1)
        _exit(127); /* the wrapper is already gone */
    dup2(out_w, STDOUT_FILENO);
    dup2(err_w, STDERR_FILENO);
    snprintf(num, sizeof(num), "%d", ack_r);
    setenv("RCK_MPI_FLUSH_FD", num, 1);
    execvp(argv[0], argv);
    fprintf(stderr, "%s: cannot execute '%s': %s\n", tool, argv[0],
            strerror(errno));
    _exit(RCK_EXIT_NOEXEC);
}

int rck_mpirun_rank(const char *tool, int argc, char **argv)
{
    const char *w = getenv(RCK_MPIRUN_WRAP_VAR);
    const char *rank = getenv("OMPI_COMM_WORLD_RANK");
    int width = w != NULL ? atoi(w) : 0, out_p[2], err_p[2], ack_p[2];
    char pre[32] = "";
    size_t plen = 0;
    rank_stream_t s[2];
    struct sigaction sa;
    pid_t pid;

    if (argc > 0 && !strcmp(argv[0], "--")) {
        argc--;
        argv++;
    }
    if (argc < 1) {
        fprintf(stderr, "%s: %s is set, but no program follows\n", tool,
                RCK_MPIRUN_WRAP_VAR);
        return RCK_EXIT_USAGE;
    }
    if (rank == NULL)
        rank = getenv("PMI_RANK");
    if (width > 0)
        plen = (size_t)snprintf(pre, sizeof(pre), "[%*d] ", width,
                                rank != NULL ? atoi(rank) : -1);
    unsetenv(RCK_MPIRUN_WRAP_VAR);
    fflush(stdout);
    if (pipe2(out_p, O_CLOEXEC) != 0 || pipe2(err_p, O_CLOEXEC) != 0 ||
        pipe(ack_p) != 0) {
        perror(tool);
        return RCK_EXIT_USAGE;
    }
    fcntl(ack_p[1], F_SETFD, FD_CLOEXEC);
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = forward_signal;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    pid = fork();
    if (pid < 0) {
        perror(tool);
        return RCK_EXIT_USAGE;
    }
    if (pid == 0) {
        signal(SIGPIPE, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        signal(SIGINT, SIG_DFL);
        signal(SIGHUP, SIG_DFL);
        child_exec(tool, argv, out_p[1], err_p[1], ack_p[0]);
    }
    child_pid = pid;
    close(out_p[1]);
    close(err_p[1]);
    close(ack_p[0]);
    s[0] = (rank_stream_t){.fd = out_p[0], .out = STDOUT_FILENO};
    s[1] = (rank_stream_t){.fd = err_p[0], .out = STDERR_FILENO};
    return finish(relay(pid, s, pre, plen, ack_p[1]));
}
