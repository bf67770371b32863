/*
 * The launcher's per-UE output files and line timestamps (launch_output.h).
 */
#include "launch_output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* mkdir -p of @p path (modified in place and restored). */
static int mkdirs(char *path)
{
    for (char *p = path + 1; *p != '\0'; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(path, 0777) != 0 && errno != EEXIST) {
            *p = '/';
            return -1;
        }
        *p = '/';
    }
    return mkdir(path, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

int rck_out_init(rck_out_t *o, const char *tool, const char *dir, int nues,
                 int stamps)
{
    static const char *const names[2] = {"stdout", "stderr"};
    char path[4096];

    memset(o, 0, sizeof(*o));
    o->nues = nues;
    o->stamps = stamps;
    if (dir == NULL)
        return 0;
    o->fd = malloc((size_t)nues * sizeof(*o->fd));
    if (o->fd == NULL) {
        fprintf(stderr, "%s: out of memory\n", tool);
        return -1;
    }
    for (int ue = 0; ue < nues; ue++)
        o->fd[ue][0] = o->fd[ue][1] = -1;
    for (int ue = 0; ue < nues; ue++) {
        if (snprintf(path, sizeof(path), "%s/1/rank.%d", dir, ue) >=
                (int)sizeof(path) - 8 ||
            mkdirs(path) != 0) {
            fprintf(stderr, "%s: --output-filename %s: cannot make %s: %s\n",
                    tool, dir, path, strerror(errno));
            rck_out_fini(o);
            return -1;
        }
        size_t n = strlen(path);
        for (int s = 0; s < 2; s++) {
            snprintf(path + n, sizeof(path) - n, "/%s", names[s]);
            o->fd[ue][s] = open(path, O_WRONLY | O_CREAT | O_TRUNC |
                                          O_APPEND | O_CLOEXEC, 0666);
            if (o->fd[ue][s] < 0) {
                fprintf(stderr, "%s: --output-filename %s: cannot write %s: "
                                "%s\n", tool, dir, path, strerror(errno));
                rck_out_fini(o);
                return -1;
            }
        }
        path[n] = '\0';
    }
    return 0;
}

size_t rck_out_stamp(const rck_out_t *o, char *buf, size_t len)
{
    struct timespec ts;
    struct tm tm;
    int n;

    if (!o->stamps || len == 0) {
        if (len > 0)
            buf[0] = '\0';
        return 0;
    }
    clock_gettime(CLOCK_REALTIME, &ts);
    localtime_r(&ts.tv_sec, &tm);
    n = snprintf(buf, len, "%04d-%02d-%02dT%02d:%02d:%02d.%06ld ",
                 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
                 tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000);
    return n > 0 && (size_t)n < len ? (size_t)n : 0;
}

void rck_out_write(const rck_out_t *o, int ue, int stream, const char *data,
                   size_t len)
{
    if (o->fd == NULL || ue < 0 || ue >= o->nues || o->fd[ue][stream] < 0)
        return;
    while (len > 0) {
        ssize_t w = write(o->fd[ue][stream], data, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        data += w;
        len -= (size_t)w;
    }
}

void rck_out_fini(rck_out_t *o)
{
    if (o->fd != NULL) {
        for (int ue = 0; ue < o->nues; ue++) {
            for (int s = 0; s < 2; s++)
                if (o->fd[ue][s] >= 0)
                    close(o->fd[ue][s]);
        }
        free(o->fd);
    }
    o->fd = NULL;
}
