/*
 * rck explore's output comparison and --check hook (explore_output.h).
 */
#include "explore_output.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Lines of each side printed after the first difference. */
#define EXPLORE_DIFF_LINES 4

int rck_explore_ignore_add(explore_out_t *o, const char *re)
{
    char msg[256];
    int rc;

    if (o->nignore == EXPLORE_MAX_IGNORE) {
        fprintf(stderr, "rck explore: at most %d --ignore expressions\n",
                EXPLORE_MAX_IGNORE);
        return -1;
    }
    rc = regcomp(&o->ignore[o->nignore], re, REG_EXTENDED | REG_NOSUB);
    if (rc != 0) {
        regerror(rc, &o->ignore[o->nignore], msg, sizeof(msg));
        fprintf(stderr, "rck explore: --ignore '%s': %s\n", re, msg);
        return -1;
    }
    o->nignore++;
    return 0;
}

void rck_explore_out_fini(explore_out_t *o)
{
    for (int i = 0; i < o->nignore; i++)
        regfree(&o->ignore[i]);
    o->nignore = 0;
}

/* "[ 5] text" -> 5 and the text; -1 and the line for other lines. */
static long ue_of(char *line, char **text)
{
    char *p = line, *end;
    long ue;

    *text = line;
    if (*p++ != '[')
        return -1;
    while (*p == ' ')
        p++;
    if (!isdigit((unsigned char)*p))
        return -1;
    ue = strtol(p, &end, 10);
    if (end[0] != ']' || end[1] != ' ')
        return -1;
    *text = end + 2;
    return ue;
}

typedef struct {
    long ue;
    int seq;
    char *line;
} keyed_t;

static int keyed_cmp(const void *a, const void *b)
{
    const keyed_t *x = a, *y = b;

    if (x->ue != y->ue)
        return x->ue < y->ue ? -1 : 1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

static char *slurp(const char *path)
{
    FILE *fp = fopen(path, "r");
    size_t n = 0, cap = 8192;
    char *buf;

    if (fp == NULL)
        return NULL;
    buf = malloc(cap);
    while (buf != NULL) {
        size_t got = fread(buf + n, 1, cap - n - 1, fp);

        n += got;
        if (got == 0)
            break;
        if (cap - n < 2) {
            char *nb = realloc(buf, cap * 2);
            if (nb == NULL) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    fclose(fp);
    if (buf != NULL)
        buf[n] = '\0';
    return buf;
}

static int ignored(const explore_out_t *o, const char *text)
{
    for (int i = 0; i < o->nignore; i++) {
        if (regexec(&o->ignore[i], text, 0, NULL, 0) == 0)
            return 1;
    }
    return 0;
}

int rck_explore_lines_load(const explore_out_t *o, const char *path,
                           explore_lines_t *l)
{
    keyed_t *k;
    int n = 0, cap = 0;
    char *p, *text;

    memset(l, 0, sizeof(*l));
    l->buf = slurp(path);
    if (l->buf == NULL)
        return -1;
    for (p = l->buf; *p != '\0'; p++)
        cap += *p == '\n';
    k = malloc(((size_t)cap + 1) * sizeof(*k));
    l->line = malloc(((size_t)cap + 1) * sizeof(*l->line));
    if (k == NULL || l->line == NULL) {
        free(k);
        rck_explore_lines_free(l);
        return -1;
    }
    for (p = l->buf; *p != '\0' && n <= cap;) {
        char *nl = strchr(p, '\n');
        long ue;

        if (nl != NULL)
            *nl = '\0';
        ue = ue_of(p, &text);
        if (!ignored(o, text)) {
            k[n].ue = ue;
            k[n].seq = n;
            k[n++].line = p;
        }
        if (nl == NULL)
            break;
        p = nl + 1;
    }
    qsort(k, (size_t)n, sizeof(*k), keyed_cmp);
    for (int i = 0; i < n; i++)
        l->line[i] = k[i].line;
    l->n = n;
    free(k);
    return 0;
}

void rck_explore_lines_free(explore_lines_t *l)
{
    free(l->buf);
    free(l->line);
    memset(l, 0, sizeof(*l));
}

int rck_explore_lines_differ(const explore_lines_t *a,
                             const explore_lines_t *b)
{
    int i;

    for (i = 0; i < a->n && i < b->n; i++) {
        if (strcmp(a->line[i], b->line[i]) != 0)
            return i;
    }
    return a->n == b->n ? -1 : i;
}

void rck_explore_lines_print(const explore_lines_t *ref,
                             unsigned long long ref_seed,
                             const explore_lines_t *got,
                             unsigned long long seed, int at)
{
    int shown = 0, more = 0;

    for (int i = at; i < ref->n || i < got->n; i++) {
        const char *a = i < ref->n ? ref->line[i] : NULL;
        const char *b = i < got->n ? got->line[i] : NULL;

        if (a != NULL && b != NULL && !strcmp(a, b))
            continue;
        if (shown == EXPLORE_DIFF_LINES) {
            more++;
            continue;
        }
        printf("    - seed %llu: %s\n", ref_seed, a ? a : "(no line)");
        printf("    + seed %llu: %s\n", seed, b ? b : "(no line)");
        shown++;
    }
    if (more > 0)
        printf("    (%d more differing lines)\n", more);
}

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int rck_explore_check_run(const char *cmd, const char *file,
                          unsigned long long seed, const char *log,
                          double timeout_s)
{
    size_t len = strlen(cmd) + 8;
    char *script = malloc(len), seedbuf[32];
    double end = now_s() + timeout_s;
    int status;
    pid_t pid;

    if (script == NULL)
        return -1;
    /* the output file is CMD's last argument */
    snprintf(script, len, "%s \"$1\"", cmd);
    snprintf(seedbuf, sizeof(seedbuf), "%llu", seed);
    pid = fork();
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        int nul = open("/dev/null", O_RDONLY | O_CLOEXEC);

        setpgid(0, 0);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (fd < 0 || nul < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0 ||
            dup2(nul, 0) < 0)
            _exit(127);
        setenv("RCK_EXPLORE_SEED", seedbuf, 1);
        execl("/bin/sh", "sh", "-c", script, "rck-explore-check", file,
              (char *)NULL);
        _exit(127);
    }
    free(script);
    if (pid < 0)
        return -1;
    for (;;) {
        pid_t w = waitpid(pid, &status, WNOHANG);

        if (w == pid)
            break;
        if (w < 0 && errno != EINTR)
            return -1;
        if (now_s() > end) {
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            break;
        }
        usleep(5000);
    }
    kill(-pid, SIGKILL); /* nothing of it outlives it */
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return WEXITSTATUS(status);
}
