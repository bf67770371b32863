/*
 * lt_core: a scripted stand-in for a core program, for the launcher tests.
 * It does not use RCCE; it learns its UE from RCK_RUN_UE (set by rck).
 *
 *   lt_core SPEC...      SPEC = WHO:ACTION[,ACTION...], WHO = a UE or '*'
 *
 * The SPEC naming this UE wins over '*'. Actions, run in order:
 *   out=TEXT   a line on stdout          err=TEXT  a line on stderr
 *   part=TEXT  stdout without a newline  env=NAME  "NAME=value" on stdout
 *   spam=N     N 100-character lines, each in three write() calls
 *   long=N     one line of N characters on stdout
 *   pid        write "pid pgid" to $LT_DIR/ue<U>.pid
 *   ignterm    ignore SIGTERM            sleep=SECONDS
 *   exit=N     exit now with status N    segv  die of SIGSEGV
 *   rmdir=DIR  remove the (empty) directory DIR
 *   stdin      copy standard input to stdout, each line as "in:LINE",
 *              then "in:EOF"
 * After the last action the program exits 0.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int ue = -1;

static void write_all(int fd, const char *buf, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, buf, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            exit(90);
        buf += n;
        len -= (size_t)n;
    }
}

static void sleep_s(double s)
{
    struct timespec ts;

    ts.tv_sec = (time_t)s;
    ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

static void write_pid(void)
{
    const char *dir = getenv("LT_DIR");
    char path[4096], tmp[4096];
    FILE *fp;

    if (dir == NULL)
        exit(91);
    snprintf(tmp, sizeof(tmp), "%s/ue%d.pid.tmp", dir, ue);
    snprintf(path, sizeof(path), "%s/ue%d.pid", dir, ue);
    fp = fopen(tmp, "w");
    if (fp == NULL)
        exit(92);
    fprintf(fp, "%ld %ld\n", (long)getpid(), (long)getpgrp());
    if (fclose(fp) != 0 || rename(tmp, path) != 0)
        exit(93);
}

static void action(const char *a)
{
    char buf[256];

    if (!strncmp(a, "out=", 4)) {
        snprintf(buf, sizeof(buf), "%s\n", a + 4);
        write_all(1, buf, strlen(buf));
    } else if (!strncmp(a, "err=", 4)) {
        snprintf(buf, sizeof(buf), "%s\n", a + 4);
        write_all(2, buf, strlen(buf));
    } else if (!strncmp(a, "part=", 5)) {
        write_all(1, a + 5, strlen(a + 5));
    } else if (!strncmp(a, "env=", 4)) {
        const char *v = getenv(a + 4);
        snprintf(buf, sizeof(buf), "%s=%s\n", a + 4, v ? v : "(unset)");
        write_all(1, buf, strlen(buf));
    } else if (!strncmp(a, "spam=", 5)) {
        int n = atoi(a + 5);
        for (int i = 0; i < n; i++) {
            char line[128];
            int len = snprintf(line, sizeof(line), "ue%d-line%d-", ue, i);
            for (; len < 99; len++)
                line[len] = (char)('a' + (ue + len) % 26);
            line[len++] = '\n';
            write_all(1, line, 30);
            write_all(1, line + 30, 40);
            write_all(1, line + 70, (size_t)len - 70);
        }
    } else if (!strncmp(a, "long=", 5)) {
        size_t n = (size_t)atol(a + 5);
        char *line = malloc(n + 1);
        if (line == NULL)
            exit(94);
        for (size_t i = 0; i < n; i++)
            line[i] = (char)('a' + i % 26);
        line[n] = '\n';
        write_all(1, line, n + 1);
        free(line);
    } else if (!strcmp(a, "pid")) {
        write_pid();
    } else if (!strcmp(a, "ignterm")) {
        signal(SIGTERM, SIG_IGN);
    } else if (!strncmp(a, "sleep=", 6)) {
        sleep_s(atof(a + 6));
    } else if (!strncmp(a, "exit=", 5)) {
        exit(atoi(a + 5));
    } else if (!strncmp(a, "rmdir=", 6)) {
        if (rmdir(a + 6) != 0)
            exit(99);
    } else if (!strcmp(a, "stdin")) {
        char line[200];
        while (fgets(line, sizeof(line), stdin) != NULL) {
            snprintf(buf, sizeof(buf), "in:%s", line);
            write_all(1, buf, strlen(buf));
        }
        write_all(1, "in:EOF\n", 7);
    } else if (!strcmp(a, "segv")) {
        /* raise(), not a NULL store, which sanitizers would intercept. */
        signal(SIGSEGV, SIG_DFL);
        raise(SIGSEGV);
    } else {
        fprintf(stderr, "lt_core: unknown action '%s'\n", a);
        exit(95);
    }
}

int main(int argc, char **argv)
{
    const char *env = getenv("RCK_RUN_UE");
    const char *spec = NULL;
    char *copy, *save = NULL, *a;

    if (env == NULL) {
        fprintf(stderr, "lt_core: RCK_RUN_UE is not set\n");
        return 96;
    }
    ue = atoi(env);
    for (int i = 1; i < argc; i++) {
        const char *colon = strchr(argv[i], ':');
        if (colon == NULL) {
            fprintf(stderr, "lt_core: bad spec '%s'\n", argv[i]);
            return 97;
        }
        if (!strncmp(argv[i], "*:", 2) && spec == NULL)
            spec = colon + 1;
        else if (atoi(argv[i]) == ue && argv[i][0] != '*')
            spec = colon + 1, i = argc;
    }
    if (spec == NULL)
        return 0;
    copy = strdup(spec);
    if (copy == NULL)
        return 98;
    for (a = strtok_r(copy, ",", &save); a != NULL;
         a = strtok_r(NULL, ",", &save))
        action(a);
    free(copy);
    return 0;
}
