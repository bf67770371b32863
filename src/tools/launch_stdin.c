/*
 * Forwarding the launcher's stdin to the cores (see launch_stdin.h).
 */
#include "launch_stdin.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int receives(const rck_fwd_t *f, int ue)
{
    return f->mode == RCK_STDIN_ALL || f->mode == ue;
}

static void fd_close(int *fd)
{
    if (*fd >= 0) {
        close(*fd);
        *fd = -1;
    }
}

int rck_fwd_init(rck_fwd_t *f, int mode, int nues)
{
    memset(f, 0, sizeof(*f));
    f->mode = mode;
    f->nues = nues;
    f->in_fd = -1;
    f->r = malloc((size_t)nues * sizeof(*f->r));
    f->w = malloc((size_t)nues * sizeof(*f->w));
    f->off = calloc((size_t)nues, sizeof(*f->off));
    f->chunk = malloc(RCK_FWD_CHUNK);
    if (f->r == NULL || f->w == NULL || f->off == NULL || f->chunk == NULL) {
        rck_fwd_fini(f);
        return -1;
    }
    for (int ue = 0; ue < nues; ue++)
        f->r[ue] = f->w[ue] = -1;
    /* a terminal we do not own the foreground of: reading would stop us */
    if (mode != RCK_STDIN_NONE &&
        !(isatty(STDIN_FILENO) && tcgetpgrp(STDIN_FILENO) != getpgrp()))
        f->in_fd = STDIN_FILENO;
    return 0;
}

void rck_fwd_fini(rck_fwd_t *f)
{
    for (int ue = 0; f->r != NULL && f->w != NULL && ue < f->nues; ue++) {
        fd_close(&f->r[ue]);
        fd_close(&f->w[ue]);
    }
    free(f->r);
    free(f->w);
    free(f->off);
    free(f->chunk);
    f->r = f->w = NULL;
    f->off = NULL;
    f->chunk = NULL;
}

int rck_fwd_pipe(rck_fwd_t *f, int ue)
{
    int p[2];

    if (!receives(f, ue) || f->in_fd < 0)
        return 0; /* /dev/null */
    if (pipe2(p, O_CLOEXEC) != 0) {
        fprintf(stderr, "cannot create the stdin pipe of UE %d: %s\n", ue,
                strerror(errno));
        return -1;
    }
    fcntl(p[1], F_SETFL, fcntl(p[1], F_GETFL) | O_NONBLOCK);
    f->r[ue] = p[0];
    f->w[ue] = p[1];
    f->off[ue] = f->len; /* a late receiver starts with the next chunk */
    return 0;
}

void rck_fwd_child(const rck_fwd_t *f, int ue)
{
    int fd = f->r[ue];

    if (fd < 0)
        fd = open("/dev/null", O_RDONLY);
    if (fd >= 0 && fd != STDIN_FILENO) {
        dup2(fd, STDIN_FILENO);
        close(fd);
    }
}

void rck_fwd_forked(rck_fwd_t *f, int ue)
{
    fd_close(&f->r[ue]);
}

void rck_fwd_core_exited(rck_fwd_t *f, int ue)
{
    fd_close(&f->r[ue]);
    fd_close(&f->w[ue]);
}

static int pending(const rck_fwd_t *f, int ue)
{
    return f->w[ue] >= 0 && f->off[ue] < f->len;
}

int rck_fwd_poll(const rck_fwd_t *f, struct pollfd *p)
{
    int n = 0, open = 0, waiting = 0;

    for (int ue = 0; ue < f->nues; ue++) {
        open += f->w[ue] >= 0;
        waiting += pending(f, ue);
    }
    if (f->in_fd >= 0 && open > 0 && waiting == 0) {
        p[n].fd = f->in_fd;
        p[n].events = POLLIN;
        p[n++].revents = 0;
    }
    for (int ue = 0; ue < f->nues; ue++) {
        if (!pending(f, ue))
            continue;
        p[n].fd = f->w[ue];
        p[n].events = POLLOUT;
        p[n++].revents = 0;
    }
    return n;
}

/* Give every receiver what it can take of the chunk now. */
static void flush(rck_fwd_t *f)
{
    for (int ue = 0; ue < f->nues; ue++) {
        while (pending(f, ue)) {
            ssize_t k = write(f->w[ue], f->chunk + f->off[ue],
                              f->len - f->off[ue]);

            if (k > 0) {
                f->off[ue] += (size_t)k;
            } else if (k < 0 && errno == EINTR) {
                continue;
            } else {
                if (k < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
                    fd_close(&f->w[ue]); /* it closed its stdin */
                break;
            }
        }
        if (f->in_fd < 0 && f->w[ue] >= 0 && !pending(f, ue))
            fd_close(&f->w[ue]); /* everything taken: EOF */
    }
}

void rck_fwd_handle(rck_fwd_t *f, const struct pollfd *p, int n)
{
    for (int i = 0; i < n; i++) {
        ssize_t got;

        if (p[i].fd != f->in_fd || f->in_fd < 0 || p[i].revents == 0)
            continue;
        got = read(f->in_fd, f->chunk, RCK_FWD_CHUNK);
        if (got < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (got <= 0) {
            f->in_fd = -1; /* end of input (or an error): EOF for all */
            f->len = 0;
        } else {
            f->len = (size_t)got;
        }
        for (int ue = 0; ue < f->nues; ue++)
            f->off[ue] = 0;
    }
    flush(f);
}
