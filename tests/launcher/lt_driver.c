/*
 * lt_driver: the launcher tests. Each CTest test runs one case:
 *
 *   lt_driver CASE RCK RCCERUN LT_CORE RCKCC
 *
 * A case starts rck (or rccerun) as a child with its output in files,
 * measures how long it takes, and afterwards checks that no process of the
 * run is left (every core carries LT_DIR=<this case's directory> in its
 * environment, so they can be found in /proc even as orphans) and that no
 * shared-memory segment was left behind in /dev/shm.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lt.h"

const char *rck, *rccerun, *lt_core, *rckcc;
char dir[256];
int failures;
const char *run_stdin;

double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void sleep_s(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};

    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

char *slurp(const char *path)
{
    FILE *fp = fopen(path, "rb");
    size_t cap = 4096, len = 0, n;
    char *buf = malloc(cap);

    if (buf == NULL)
        abort();
    buf[0] = '\0';
    if (fp == NULL)
        return buf;
    while ((n = fread(buf + len, 1, cap - len - 1, fp)) > 0) {
        len += n;
        if (cap - len < 2) {
            cap *= 2;
            buf = realloc(buf, cap);
            if (buf == NULL)
                abort();
        }
    }
    buf[len] = '\0';
    fclose(fp);
    return buf;
}

int count_lines(const char *s)
{
    int n = 0;

    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* ---- what a run leaves behind ---- */

/* @return how many live processes carry LT_DIR=<dir>. */
static int leftovers(int verbose)
{
    char want[300], path[300];
    DIR *d = opendir("/proc");
    struct dirent *e;
    int n = 0;
    size_t wlen;

    snprintf(want, sizeof(want), "LT_DIR=%s", dir);
    wlen = strlen(want) + 1; /* with the NUL */
    if (d == NULL)
        return 0;
    while ((e = readdir(d)) != NULL) {
        char buf[65536];
        ssize_t len;
        int fd;

        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        snprintf(path, sizeof(path), "/proc/%s/environ", e->d_name);
        fd = open(path, O_RDONLY);
        if (fd < 0)
            continue;
        len = read(fd, buf, sizeof(buf));
        close(fd);
        for (ssize_t off = 0; len > 0 && off < len;) {
            if ((size_t)(len - off) >= wlen &&
                memcmp(buf + off, want, wlen) == 0) {
                n++;
                if (verbose)
                    fprintf(stderr, "  leftover process %s\n", e->d_name);
                break;
            }
            off += (ssize_t)strlen(buf + off) + 1;
        }
    }
    closedir(d);
    return n;
}

/* Wait up to @p limit seconds for every process of the run to go. */
static void check_no_leftovers(double limit)
{
    double end = now_s() + limit;
    int n;

    while ((n = leftovers(0)) > 0 && now_s() < end)
        sleep_s(0.02);
    if (n > 0)
        leftovers(1);
    CHECK(n == 0, "%d process(es) of the run are still alive", n);
}

typedef struct {
    char **names;
    int n;
} shm_list_t;

static void shm_snapshot(shm_list_t *l)
{
    DIR *d = opendir("/dev/shm");
    struct dirent *e;

    l->names = NULL;
    l->n = 0;
    if (d == NULL)
        return;
    while ((e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        l->names = realloc(l->names, sizeof(char *) * (size_t)(l->n + 1));
        l->names[l->n++] = strdup(e->d_name);
    }
    closedir(d);
}

static void shm_free(shm_list_t *l)
{
    for (int i = 0; i < l->n; i++)
        free(l->names[i]);
    free(l->names);
}

static int shm_has(const shm_list_t *l, const char *name)
{
    for (int i = 0; i < l->n; i++) {
        if (!strcmp(l->names[i], name))
            return 1;
    }
    return 0;
}

/* Is /dev/shm/<name> open or mapped by a live process? Segments of other
 * runs on this machine are; a leaked one is not. */
static int shm_owned(const char *name)
{
    char full[512], path[600], link[600];
    DIR *d = opendir("/proc");
    struct dirent *e;
    int owned = 0;

    snprintf(full, sizeof(full), "/dev/shm/%s", name);
    if (d == NULL)
        return 0;
    while (!owned && (e = readdir(d)) != NULL) {
        DIR *fds;
        struct dirent *f;
        FILE *maps;
        char line[1024];

        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        snprintf(path, sizeof(path), "/proc/%s/fd", e->d_name);
        fds = opendir(path);
        while (fds != NULL && !owned && (f = readdir(fds)) != NULL) {
            ssize_t len;
            snprintf(path, sizeof(path), "/proc/%s/fd/%s", e->d_name,
                     f->d_name);
            len = readlink(path, link, sizeof(link) - 1);
            if (len > 0) {
                link[len] = '\0';
                owned = !strcmp(link, full);
            }
        }
        if (fds != NULL)
            closedir(fds);
        snprintf(path, sizeof(path), "/proc/%s/maps", e->d_name);
        maps = fopen(path, "r");
        while (maps != NULL && !owned && fgets(line, sizeof(line), maps))
            owned = strstr(line, full) != NULL;
        if (maps != NULL)
            fclose(maps);
    }
    closedir(d);
    return owned;
}

static void check_shm(const shm_list_t *before)
{
    shm_list_t after;
    int leaked = 0;

    shm_snapshot(&after);
    for (int i = 0; i < after.n; i++) {
        const char *name = after.names[i];
        if (shm_has(before, name))
            continue;
        if (!shm_owned(name)) {
            char full[512];

            /* Another run's segment may be about to go: look again. */
            sleep_s(0.2);
            snprintf(full, sizeof(full), "/dev/shm/%s", name);
            if (access(full, F_OK) != 0 || shm_owned(name))
                continue;
            fprintf(stderr, "  new shared-memory entry %s\n", full);
            leaked++;
        }
    }
    CHECK(leaked == 0, "%d shared-memory segment(s) left in /dev/shm",
          leaked);
    shm_free(&after);
}

/* ---- running the launcher ---- */

/*
 * Run argv (NULL-terminated) with the given extra environment ("NAME=V",
 * NULL-terminated), output to files; kill it after @p limit seconds.
 * @p during runs while it does and may set *mark to a time (now_s()).
 */
void run(result_t *r, char *const argv[], const char *const env[],
                during_fn *during, double limit)
{
    char outp[300], errp[300];
    double start, mark = 0;
    shm_list_t before;
    pid_t pid;

    snprintf(outp, sizeof(outp), "%s/stdout", dir);
    snprintf(errp, sizeof(errp), "%s/stderr", dir);
    shm_snapshot(&before);
    fflush(NULL);
    start = now_s();
    pid = fork();
    if (pid < 0) {
        perror("fork");
        exit(1);
    }
    if (pid == 0) {
        int o = open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int e = open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0)
            _exit(200);
        setenv("LT_DIR", dir, 1);
        if (run_stdin != NULL) {
            int i = open(run_stdin, O_RDONLY);
            if (i < 0 || dup2(i, 0) < 0)
                _exit(202);
        }
        for (int i = 0; env != NULL && env[i] != NULL; i++)
            putenv((char *)env[i]);
        execv(argv[0], argv);
        _exit(201);
    }
    if (during != NULL)
        during(pid, &mark);
    for (;;) {
        pid_t w = waitpid(pid, &r->wstatus, WNOHANG);
        if (w == pid)
            break;
        if (now_s() - start > limit) {
            fprintf(stderr, "FAIL: %s still running after %.0f s; killed\n",
                    argv[0], limit);
            failures++;
            kill(pid, SIGKILL);
            waitpid(pid, &r->wstatus, 0);
            break;
        }
        sleep_s(0.005);
    }
    r->elapsed = now_s() - start;
    r->since = mark > 0 ? now_s() - mark : r->elapsed;
    r->code = WIFEXITED(r->wstatus) ? WEXITSTATUS(r->wstatus)
                                    : 128 + WTERMSIG(r->wstatus);
    r->out = slurp(outp);
    r->err = slurp(errp);
    r->nlines_err = count_lines(r->err);
    fprintf(stderr, "--- ran:");
    for (int i = 0; argv[i] != NULL; i++)
        fprintf(stderr, " %s", argv[i]);
    fprintf(stderr, "\n    status %d in %.3f s\n", r->code, r->elapsed);
    if (r->err[0])
        fprintf(stderr, "    stderr:\n%s", r->err);
    check_no_leftovers(0.3);
    check_shm(&before);
    shm_free(&before);
}

void result_free(result_t *r)
{
    free(r->out);
    free(r->err);
}

/* Wait until the cores of UEs 0..n-1 have written their pid files. */
int pid_of(int ue, double limit)
{
    char path[300];
    double end = now_s() + limit;

    snprintf(path, sizeof(path), "%s/ue%d.pid", dir, ue);
    while (now_s() < end) {
        FILE *fp = fopen(path, "r");
        long pid = 0, pgid = 0;
        if (fp != NULL) {
            int ok = fscanf(fp, "%ld %ld", &pid, &pgid) == 2;
            fclose(fp);
            if (ok)
                return (int)pid;
        }
        sleep_s(0.01);
    }
    return -1;
}

void pids_wait(int n)
{
    for (int ue = 0; ue < n; ue++)
        CHECK(pid_of(ue, 10) > 0, "UE %d never started", ue);
}

void pids_clear(int n)
{
    char path[300];

    for (int ue = 0; ue < n; ue++) {
        snprintf(path, sizeof(path), "%s/ue%d.pid", dir, ue);
        unlink(path);
    }
}

int has(const char *hay, const char *needle)
{
    return strstr(hay, needle) != NULL;
}

/* ---- cases ---- */

void expect_usage_error(char *const argv[], const char *const env[],
                               const char *needle)
{
    result_t r;

    run(&r, argv, env, NULL, 10);
    CHECK(r.code == 2, "exit status %d, want 2", r.code);
    CHECK(r.nlines_err == 1, "%d lines on stderr, want 1", r.nlines_err);
    CHECK(r.out[0] == '\0', "unexpected stdout: %s", r.out);
    CHECK(needle == NULL || has(r.err, needle), "stderr lacks '%s'", needle);
    CHECK(r.elapsed < 5, "took %.2f s", r.elapsed);
    result_free(&r);
}

static void case_bad_input(void)
{
    char nonexec[300], badchip[300], hosts[300], subdir[300];
    FILE *fp;
    const char *c = lt_core;

    snprintf(nonexec, sizeof(nonexec), "%s/nonexec", dir);
    fp = fopen(nonexec, "w");
    fprintf(fp, "#!/bin/sh\nexit 0\n");
    fclose(fp);
    chmod(nonexec, 0644);
    snprintf(badchip, sizeof(badchip), "%s/bad.json", dir);
    fp = fopen(badchip, "w");
    fprintf(fp, "{ \"mesh_x\": \"six\", \n");
    fclose(fp);
    snprintf(hosts, sizeof(hosts), "%s/hosts", dir);
    fp = fopen(hosts, "w");
    fprintf(fp, "# two cores\n3\n5\n");
    fclose(fp);
    snprintf(subdir, sizeof(subdir), "%s/", dir);

    expect_usage_error(ARGV((char *)rck, "run", "-n", "0", (char *)c), NULL,
                       "-n 0");
    expect_usage_error(ARGV((char *)rck, "run", "-n", "49", (char *)c), NULL,
                       "rck: -n 49: the chip has 48 cores");
    expect_usage_error(ARGV((char *)rck, "run", "-n", "abc", (char *)c), NULL,
                       "abc");
    expect_usage_error(ARGV((char *)rck, "run", "-n", "4x", (char *)c), NULL,
                       "4x");
    expect_usage_error(ARGV((char *)rck, "run", "-n"), NULL, "-n");
    expect_usage_error(ARGV((char *)rck, "run", "--bogus", "-n", "2",
                            (char *)c),
                       NULL, "--bogus");
    expect_usage_error(ARGV((char *)rck, "run", "-n", "2"), NULL,
                       "missing program");
    expect_usage_error(ARGV((char *)rck, "run", "--cores", "0,1"), NULL,
                       "missing program");
    expect_usage_error(ARGV((char *)rck, "run", (char *)c), NULL, "-n");
    expect_usage_error(ARGV((char *)rck, "run", "-n", "2", "./no/such/prog"),
                       NULL, "cannot execute './no/such/prog'");
    expect_usage_error(ARGV((char *)rck, "run", "-n", "2",
                            "no-such-command-rck"),
                       NULL, "no-such-command-rck");
    expect_usage_error(ARGV((char *)rck, "run", "-n", "2", nonexec), NULL,
                       "Permission denied");
    expect_usage_error(ARGV((char *)rck, "run", "-n", "2", subdir), NULL,
                       "Is a directory");
    expect_usage_error(ARGV((char *)rck, "run", "--backend", "nosuch", "-n",
                            "2", (char *)c),
                       NULL, "native");
    expect_usage_error(ARGV((char *)rck, "run", "-n", "2", (char *)c),
                       ENV("RCK_BACKEND=nosuch"), "nosuch");
    expect_usage_error(ARGV((char *)rck, "run", "--cores", "0,0", (char *)c),
                       NULL, "twice");
    expect_usage_error(ARGV((char *)rck, "run", "--cores", "40-48",
                            (char *)c),
                       NULL, "48");
    expect_usage_error(ARGV((char *)rck, "run", "--cores", "1,x", (char *)c),
                       NULL, "'x'");
    expect_usage_error(ARGV((char *)rck, "run", "--cores", "5-3", (char *)c),
                       NULL, "5-3");
    expect_usage_error(ARGV((char *)rck, "run", "--cores", "", (char *)c),
                       NULL, "empty");
    expect_usage_error(ARGV((char *)rck, "run", "-n", "3", "--cores", "0,1",
                            (char *)c),
                       NULL, "-n is 3");
    expect_usage_error(ARGV((char *)rck, "run", "-n", "2", "--chip",
                            "/no/such/chip.json", (char *)c),
                       NULL, "/no/such/chip.json");
    expect_usage_error(ARGV((char *)rck, "run", "-n", "2", "--chip", badchip,
                            (char *)c),
                       NULL, NULL);
    expect_usage_error(ARGV((char *)rck, "run", "-n", "2", "--shm-size",
                            "lots", (char *)c),
                       NULL, "lots");
    expect_usage_error(ARGV((char *)rck, "run", "-n", "2", (char *)c),
                       ENV("RCK_SHM_SIZE=12q"), "RCK_SHM_SIZE");
    expect_usage_error(ARGV((char *)rck, "run", "-n", "2", "--timeout", "-1",
                            (char *)c),
                       NULL, "--timeout");
    expect_usage_error(ARGV((char *)rck, "run", "-n", "4", "--universe",
                            "3", (char *)c),
                       NULL, "--universe '3'");
    expect_usage_error(ARGV((char *)rck, "run", "-n", "2", "--universe",
                            "49", (char *)c),
                       NULL, "--universe '49'");
    expect_usage_error(ARGV((char *)rck, "run", "--cores", "0,1",
                            "--universe", "4", (char *)c),
                       NULL, "does not combine");
    expect_usage_error(ARGV((char *)rck, "frobnicate"), NULL, "frobnicate");
    expect_usage_error(ARGV((char *)rccerun, "-nue", "0", (char *)c), NULL,
                       "-nue 0");
    expect_usage_error(ARGV((char *)rccerun, "-nue", "3", "-f", hosts,
                            (char *)c),
                       NULL, "lists only 2 cores");
    expect_usage_error(ARGV((char *)rccerun, "-nue", "2", "-f",
                            "/no/such/hostfile", (char *)c),
                       NULL, "hostfile");
    expect_usage_error(ARGV((char *)rccerun, "-nue", "2", "-clock", "fast",
                            (char *)c),
                       NULL, "-clock");
}

static void case_normal(void)
{
    result_t r;

    run(&r, ARGV((char *)rck, "run", "-n", "4", (char *)lt_core,
                 "*:out=hello,err=oops"),
        NULL, NULL, 30);
    CHECK(r.code == 0, "exit status %d, want 0", r.code);
    for (int ue = 0; ue < 4; ue++) {
        char want[64];
        snprintf(want, sizeof(want), "[ %d] hello\n", ue);
        CHECK(has(r.out, want), "stdout lacks '%s'", want);
        snprintf(want, sizeof(want), "[ %d] oops\n", ue);
        CHECK(has(r.err, want), "stderr lacks '%s'", want);
    }
    CHECK(count_lines(r.out) == 4, "stdout has %d lines", count_lines(r.out));
    CHECK(r.nlines_err == 4, "stderr has %d lines", r.nlines_err);
    result_free(&r);

    /* All 48 cores; a core exiting 0 early is normal. */
    run(&r, ARGV((char *)rck, "run", "-n", "48", (char *)lt_core,
                 "*:sleep=0.3,out=x", "7:out=early"),
        NULL, NULL, 30);
    CHECK(r.code == 0, "exit status %d, want 0", r.code);
    CHECK(count_lines(r.out) == 48, "stdout has %d lines",
          count_lines(r.out));
    CHECK(has(r.out, "[47] x\n") && has(r.out, "[ 7] early\n"),
          "bad prefixes:\n%s", r.out);
    CHECK(r.err[0] == '\0', "unexpected stderr");
    result_free(&r);
}

static void case_prefix(void)
{
    result_t r;

    run(&r, ARGV((char *)rck, "run", "--no-prefix", "-n", "3",
                 (char *)lt_core, "*:out=plain,err=plainerr"),
        NULL, NULL, 30);
    CHECK(r.code == 0, "exit status %d", r.code);
    CHECK(!strcmp(r.out, "plain\nplain\nplain\n"), "stdout: '%s'", r.out);
    CHECK(!strcmp(r.err, "plainerr\nplainerr\nplainerr\n"), "stderr: '%s'",
          r.err);
    result_free(&r);

    run(&r, ARGV((char *)rck, "run", "-n", "2", (char *)lt_core,
                 "*:out=plain"),
        ENV("RCK_PREFIX=0"), NULL, 30);
    CHECK(r.code == 0, "exit status %d", r.code);
    CHECK(!strcmp(r.out, "plain\nplain\n"), "stdout: '%s'", r.out);
    result_free(&r);

    /* The command line wins over the environment. */
    run(&r, ARGV((char *)rck, "run", "--prefix", "-n", "1", (char *)lt_core,
                 "*:out=pre"),
        ENV("RCK_PREFIX=0"), NULL, 30);
    CHECK(!strcmp(r.out, "[ 0] pre\n"), "stdout: '%s'", r.out);
    result_free(&r);
}

/* Every line must arrive whole, whatever the write() pieces were. */
static void case_lines(void)
{
    result_t r;
    int nues = 6, per = 300, count[6] = {0};
    char *line, *save = NULL;

    run(&r, ARGV((char *)rck, "run", "-n", "6", (char *)lt_core,
                 "*:spam=300,part=tail", "5:spam=300,long=200000,part=tail"),
        NULL, NULL, 30);
    CHECK(r.code == 0, "exit status %d", r.code);
    for (line = strtok_r(r.out, "\n", &save); line != NULL;
         line = strtok_r(NULL, "\n", &save)) {
        int ue, i, n = 0;
        size_t len = strlen(line);

        if (len == 5 + 200000) {
            CHECK(!strncmp(line, "[ 5] abcdefg", 12), "long line mangled");
            continue;
        }
        if (len >= 9 && !strcmp(line + 5, "tail"))
            continue;
        if (sscanf(line, "[ %d] ue%d-line%d-%n", &ue, &i, &i, &n) < 3 ||
            len != 5 + 99 || ue < 0 || ue >= nues) {
            CHECK(0, "mangled line '%.120s'", line);
            break;
        }
        CHECK(line[1] == ' ' && line[2] - '0' == ue, "bad prefix '%.20s'",
              line);
        count[ue]++;
    }
    for (int ue = 0; ue < nues; ue++)
        CHECK(count[ue] == per, "UE %d: %d lines, want %d", ue, count[ue],
              per);
    result_free(&r);

    /* A partial last line is flushed, as a line, when the core exits. */
    run(&r, ARGV((char *)rck, "run", "-n", "1", (char *)lt_core,
                 "*:part=no newline"),
        NULL, NULL, 30);
    CHECK(!strcmp(r.out, "[ 0] no newline\n"), "stdout: '%s'", r.out);
    result_free(&r);
}

static void case_exit_status(void)
{
    result_t r;

    run(&r, ARGV((char *)rck, "run", "-n", "4", (char *)lt_core,
                 "*:sleep=30", "1:sleep=0.2,out=bye,exit=3"),
        NULL, NULL, 30);
    CHECK(r.code == 3, "exit status %d, want 3", r.code);
    CHECK(r.elapsed < 2.2, "took %.2f s", r.elapsed);
    CHECK(has(r.err, "rck: core 1 (UE 1) exited with status 3\n"),
          "no report naming the core");
    CHECK(has(r.out, "[ 1] bye\n"), "lost the core's last output");
    result_free(&r);

    /* The first failure in time decides, not the UE order. */
    run(&r, ARGV((char *)rck, "run", "-n", "3", (char *)lt_core,
                 "*:sleep=30", "0:ignterm,sleep=0.6,exit=3",
                 "2:sleep=0.1,exit=5"),
        ENV("RCK_KILL_GRACE_MS=3000"), NULL, 30);
    CHECK(r.code == 5, "exit status %d, want 5", r.code);
    CHECK(has(r.err, "core 2 (UE 2) exited with status 5"), "no report");
    CHECK(!has(r.err, "status 3"), "a teardown casualty was reported");
    result_free(&r);

    /* Cores that ignore SIGTERM are killed after the grace period. */
    run(&r, ARGV((char *)rck, "run", "-n", "3", (char *)lt_core,
                 "*:ignterm,sleep=30", "2:sleep=0.2,exit=4"),
        NULL, NULL, 30);
    CHECK(r.code == 4, "exit status %d, want 4", r.code);
    CHECK(r.elapsed < 2.2, "took %.2f s", r.elapsed);
    result_free(&r);
}

static void case_segv(void)
{
    result_t r;

    run(&r, ARGV((char *)rck, "run", "--cores", "10-13", (char *)lt_core,
                 "*:sleep=30", "2:sleep=0.2,segv"),
        NULL, NULL, 30);
    CHECK(r.code == 128 + SIGSEGV, "exit status %d, want %d", r.code,
          128 + SIGSEGV);
    CHECK(r.elapsed < 2.2, "took %.2f s", r.elapsed);
    CHECK(has(r.err, "rck: core 12 (UE 2) was killed by signal 11 "
                     "(SIGSEGV: "),
          "no report naming the core and the signal");
    result_free(&r);
}

static void kill_ue1(pid_t rck_pid, double *mark)
{
    int pid;

    (void)rck_pid;
    pids_wait(3);
    pid = pid_of(1, 10);
    if (pid > 0) {
        *mark = now_s();
        kill(pid, SIGKILL);
    }
}

static void case_sigkill_core(void)
{
    result_t r;

    pids_clear(3);
    run(&r, ARGV((char *)rck, "run", "-n", "3", (char *)lt_core,
                 "*:pid,sleep=30"),
        NULL, kill_ue1, 30);
    CHECK(r.code == 128 + SIGKILL, "exit status %d, want %d", r.code,
          128 + SIGKILL);
    CHECK(r.since < 2, "took %.2f s after the kill", r.since);
    CHECK(has(r.err, "rck: core 1 (UE 1) was killed by signal 9 (SIGKILL: "),
          "no report naming the core and the signal");
    result_free(&r);
}

static int launcher_sig;

static void signal_launcher(pid_t rck_pid, double *mark)
{
    pids_wait(4);
    *mark = now_s();
    kill(rck_pid, launcher_sig);
}

static void case_signals(void)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    result_t r;

    for (size_t i = 0; i < sizeof(sigs) / sizeof(*sigs); i++) {
        launcher_sig = sigs[i];
        pids_clear(4);
        run(&r, ARGV((char *)rck, "run", "-n", "4", (char *)lt_core,
                     "*:pid,sleep=30", "3:pid,ignterm,sleep=30"),
            NULL, signal_launcher, 30);
        CHECK(r.code == 128 + sigs[i], "signal %d: exit status %d, want %d",
              sigs[i], r.code, 128 + sigs[i]);
        CHECK(r.since < 2, "took %.2f s after the signal", r.since);
        result_free(&r);
    }
}

static void case_launcher_killed(void)
{
    result_t r;

    launcher_sig = SIGKILL;
    pids_clear(5);
    run(&r, ARGV((char *)rck, "run", "-n", "5", (char *)lt_core,
                 "*:pid,ignterm,sleep=30"),
        NULL, signal_launcher, 30);
    CHECK(r.code == 128 + SIGKILL, "exit status %d", r.code);
    /* run() looked for leftovers already; they must be gone within 2 s. */
    check_no_leftovers(2.0);
    result_free(&r);
}

static void case_timeout(void)
{
    result_t r;

    run(&r, ARGV((char *)rck, "run", "--timeout", "1", "-n", "3",
                 (char *)lt_core, "*:sleep=30", "0:exit=0"),
        NULL, NULL, 30);
    CHECK(r.code == 124, "exit status %d, want 124", r.code);
    CHECK(r.elapsed > 0.9 && r.elapsed < 3.2, "took %.2f s", r.elapsed);
    CHECK(has(r.err, "core 1 (UE 1)") && has(r.err, "core 2 (UE 2)") &&
              !has(r.err, "core 0 (UE 0)"),
          "the report does not name the running cores");
    CHECK(r.nlines_err == 1, "%d lines on stderr", r.nlines_err);
    result_free(&r);
}

static void case_cores(void)
{
    result_t r;

    run(&r, ARGV((char *)rck, "run", "--cores", "41,4,2-3", "--",
                 (char *)lt_core, "*:env=RCK_RUN_CORE"),
        NULL, NULL, 30);
    CHECK(r.code == 0, "exit status %d", r.code);
    CHECK(has(r.out, "[ 0] RCK_RUN_CORE=2\n") &&
              has(r.out, "[ 1] RCK_RUN_CORE=3\n") &&
              has(r.out, "[ 2] RCK_RUN_CORE=4\n") &&
              has(r.out, "[ 3] RCK_RUN_CORE=41\n"),
          "UE to core mapping wrong:\n%s", r.out);
    result_free(&r);
}

static void case_rccerun(void)
{
    char hosts[300];
    result_t r;
    FILE *fp;

    snprintf(hosts, sizeof(hosts), "%s/hosts", dir);
    fp = fopen(hosts, "w");
    fprintf(fp, "# SCC hostfile\n  30\n7  # a comment\n\n12\n44\n");
    fclose(fp);
    run(&r, ARGV((char *)rccerun, "-nue", "3", "-f", hosts, "-clock", "0.8",
                 (char *)lt_core, "*:env=RCK_RUN_CORE"),
        NULL, NULL, 30);
    CHECK(r.code == 0, "exit status %d", r.code);
    CHECK(has(r.out, "[ 0] RCK_RUN_CORE=7\n") &&
              has(r.out, "[ 1] RCK_RUN_CORE=12\n") &&
              has(r.out, "[ 2] RCK_RUN_CORE=30\n") &&
              count_lines(r.out) == 3,
          "hostfile cores wrong:\n%s", r.out);
    CHECK(has(r.err, "-clock 0.8"), "no -clock warning");
    result_free(&r);

    run(&r, ARGV((char *)rccerun, "-nue", "2", (char *)lt_core,
                 "1:exit=6"),
        NULL, NULL, 30);
    CHECK(r.code == 6, "exit status %d, want 6", r.code);
    CHECK(has(r.err, "rccerun: core 1 (UE 1) exited with status 6"),
          "no report");
    result_free(&r);
}

static void case_config(void)
{
    result_t r;

    run(&r, ARGV((char *)rck, "config", "--list"), NULL, NULL, 30);
    CHECK(r.code == 0 && has(r.out, "RCK_BACKEND") &&
              has(r.out, "RCK_KILL_GRACE_MS"),
          "config --list");
    result_free(&r);
    run(&r, ARGV((char *)rck, "config", "--dump"), ENV("RCK_SHM_SIZE=3m"),
        NULL, 30);
    CHECK(r.code == 0 && has(r.out, "RCK_SHM_SIZE=3m") &&
              has(r.out, "cores_per_tile"),
          "config --dump");
    result_free(&r);
    run(&r, ARGV((char *)rck, "--version"), NULL, NULL, 30);
    CHECK(r.code == 0 && has(r.out, "rockcreek"), "--version");
    result_free(&r);
    run(&r, ARGV((char *)rck, "run", "--help"), NULL, NULL, 30);
    CHECK(r.code == 0 && has(r.out, "--cores"), "run --help");
    result_free(&r);
}

void write_file(const char *path, const char *text)
{
    FILE *fp = fopen(path, "w");

    if (fp == NULL) {
        perror(path);
        exit(1);
    }
    fputs(text, fp);
    fclose(fp);
}

static void case_rckcc(void)
{
    char src[300], prog[300], obj[300];
    result_t r;

    snprintf(src, sizeof(src), "%s/tiny.c", dir);
    snprintf(prog, sizeof(prog), "%s/tiny", dir);
    snprintf(obj, sizeof(obj), "%s/tiny.o", dir);
    write_file(src, "#include \"RCCE.h\"\n"
                    "#include <stdio.h>\n"
                    "int RCCE_APP(int argc, char **argv)\n"
                    "{\n"
                    "    RCCE_init(&argc, &argv);\n"
                    "    printf(\"ue %d of %d\\n\", RCCE_ue(), "
                    "RCCE_num_ues());\n"
                    "    RCCE_finalize();\n"
                    "    return 0;\n"
                    "}\n");
    run(&r, ARGV("/bin/sh", (char *)rckcc, "-show", src, "-o", prog), NULL,
        NULL, 30);
    CHECK(r.code == 0 && has(r.out, "-lrockcreek") &&
              has(r.out, "-std=gnu11"),
          "rckcc -show: %s", r.out);
    result_free(&r);
    run(&r, ARGV("/bin/sh", (char *)rckcc, "-show", "-c", "GORY=1", src),
        NULL, NULL, 30);
    CHECK(r.code == 0 && has(r.out, "-DGORY") && !has(r.out, "-lrockcreek"),
          "rckcc -show -c GORY=1: %s", r.out);
    result_free(&r);
    run(&r, ARGV("/bin/sh", (char *)rckcc, "--showme:link"), NULL, NULL, 30);
    CHECK(r.code == 0 && has(r.out, "-lrockcreek") && !has(r.out, "gnu11"),
          "--showme:link: %s", r.out);
    result_free(&r);

    run(&r, ARGV("/bin/sh", (char *)rckcc, "-c", "-DGORY", src, "-o", obj),
        NULL, NULL, 60);
    CHECK(r.code == 0, "rckcc -c -DGORY failed");
    result_free(&r);
    run(&r, ARGV("/bin/sh", (char *)rckcc, src, "-o", prog), NULL, NULL, 60);
    CHECK(r.code == 0, "rckcc failed to build a program");
    result_free(&r);
    if (access(prog, X_OK) != 0)
        return;
    run(&r, ARGV((char *)rck, "run", "-n", "2", prog), NULL, NULL, 30);
    CHECK(r.code == 0, "the program built by rckcc exited %d", r.code);
    CHECK(has(r.out, "[ 0] ue 0 of 2\n") && has(r.out, "[ 1] ue 1 of 2\n"),
          "its output: %s", r.out);
    result_free(&r);
}

static const struct {
    const char *name;
    void (*fn)(void);
} cases[] = {
    {"bad_input", case_bad_input},
    {"normal", case_normal},
    {"prefix", case_prefix},
    {"lines", case_lines},
    {"exit_status", case_exit_status},
    {"segv", case_segv},
    {"sigkill_core", case_sigkill_core},
    {"signals", case_signals},
    {"launcher_killed", case_launcher_killed},
    {"timeout", case_timeout},
    {"cores", case_cores},
    {"rccerun", case_rccerun},
    {"config", case_config},
    {"rckcc", case_rckcc},
    {"preflight", case_preflight},
    {"outputs", case_outputs},
    {"mpirun_habits", case_mpirun_habits},
    {"rccerun_cwd", case_rccerun_cwd},
    {"output_files", case_output_files},
    {"never_init", case_never_init},
};

static int rm_entry(const char *path, const struct stat *sb, int flag,
                    struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

int main(int argc, char **argv)
{
    const char *name;
    size_t i;

    if (argc != 6) {
        fprintf(stderr,
                "usage: lt_driver CASE RCK RCCERUN LT_CORE RCKCC\ncases:");
        for (i = 0; i < sizeof(cases) / sizeof(*cases); i++)
            fprintf(stderr, " %s", cases[i].name);
        fprintf(stderr, "\n");
        return 2;
    }
    name = argv[1];
    rck = argv[2];
    rccerun = argv[3];
    lt_core = argv[4];
    rckcc = argv[5];
    /* Settings of the caller's shell must not change the cases. */
    for (int again = 1; again;) {
        extern char **environ;
        again = 0;
        for (char **e = environ; *e != NULL; e++) {
            char var[128];
            size_t len = strcspn(*e, "=");
            if (strncmp(*e, "RCK_", 4) != 0 || len >= sizeof(var))
                continue;
            memcpy(var, *e, len);
            var[len] = '\0';
            unsetenv(var);
            again = 1;
            break;
        }
    }
    signal(SIGPIPE, SIG_IGN);
    snprintf(dir, sizeof(dir), "/tmp/rck-launcher-test-XXXXXX");
    if (mkdtemp(dir) == NULL) {
        perror("mkdtemp");
        return 1;
    }
    for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
        if (!strcmp(cases[i].name, name))
            break;
    }
    if (i == sizeof(cases) / sizeof(*cases)) {
        fprintf(stderr, "lt_driver: unknown case '%s'\n", name);
        failures++;
    } else {
        cases[i].fn();
    }
    nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    fprintf(stderr, "%s: %s\n", name, failures ? "FAILED" : "passed");
    return failures ? 1 : 0;
}
