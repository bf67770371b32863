/*
 * rck explore: one program, many schedules.
 *
 *   rck explore -n N [--runs K] [--first S] [--jobs J] [--timeout S]
 *               [run options] [--] program [args...]
 *
 * Runs `rck run --backend sim --schedule SEED ...` for the seeds S ..
 * S+K-1 (default 1..100), J at a time (default: the host's CPUs), each
 * under a timeout. A seed fails when the run exits non-zero, a core
 * crashes, the model reports a deadlock or the timeout passes. Each run is
 * a child `rck run` (this same executable) in its own process group, with
 * PR_SET_PDEATHSIG, whose cores are the launcher's (which kills them with
 * it); its output goes to a file and its report to another, in a private
 * temporary directory that is removed at the end. The verdicts are printed
 * in seed order once all runs are done, so the output does not depend on
 * which run finished first; progress goes to stderr when it is a terminal.
 *
 * Runs use a deterministic compute model (`--compute none` unless one is
 * given), so the printed command replays the failing run exactly.
 *
 * Beyond the exit status (explore_output.c): --compare-output fails the
 * seeds whose stdout differs from the first seed's (--ignore REGEX: lines
 * that may differ), --check CMD runs a hook on each seed's stdout.
 */
#include "explore.h"
#include "explore_output.h"
#include "launch.h"
#include "rck/hal.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define EXPLORE_DEFAULT_RUNS 100
#define EXPLORE_DEFAULT_TIMEOUT_S 60.0
/* After the run's own --timeout, how long before we kill it ourselves. */
#define EXPLORE_BACKSTOP_S 10.0
/* Lines of a failing run's output shown with its verdict: the first and
 * the last ones. */
#define EXPLORE_HEAD_LINES 3
#define EXPLORE_TAIL_LINES 6
#define EXPLORE_MAX_ARGS 64

typedef struct {
    unsigned long long seed;
    pid_t pid;              /* 0: not started or reaped */
    double started;         /* monotonic seconds */
    int killed;             /* we killed it: timed out */
    int status;             /* wait status */
    int done;
    int failed;
    int differs;            /* --compare-output: at this line, else -1 */
    int check_failed;       /* --check: its output is worth showing */
    char reason[256];
} explore_run_t;

typedef struct {
    const char *self;       /* argv[0] as invoked, for printed commands */
    char exe[PATH_MAX];     /* this executable */
    const char *runopt[EXPLORE_MAX_ARGS]; /* run options, one per token */
    int nrunopt;
    int have_compute;
    char **prog;            /* program and its arguments, NULL-terminated */
    unsigned long long runs, first;
    long jobs;
    double timeout_s;
    const char *timeout_text;
    explore_out_t out;      /* --compare-output, --ignore, --check */
    char dir[PATH_MAX];     /* private temporary directory */
} explore_t;

static volatile sig_atomic_t explore_signal;

static void on_signal(int sig)
{
    explore_signal = sig;
}

int rck_explore_parse_seed(const char *s, unsigned long long *out)
{
    unsigned long long v;
    char *end;

    if (s == NULL || !isdigit((unsigned char)*s))
        return -1;
    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno != 0 || *end != '\0')
        return -1;
    *out = v;
    return 0;
}

static void usage(FILE *fp)
{
    fprintf(fp,
            "usage: rck explore -n N [--runs K] [--first S] [--jobs J]"
            " [--timeout S]\n"
            "                   [run options] [--] program [args...]\n"
            "\n"
            "Run program on the sim backend under K schedule seeds (rck run\n"
            "--schedule SEED), S .. S+K-1, J runs at a time, and report the\n"
            "seeds under which it fails: exits non-zero, a core crashes, the\n"
            "model finds a deadlock, or the run passes its timeout.\n"
            "\n"
            "options:\n"
            "  --runs K        number of seeds (default %d)\n"
            "  --first S       first seed (default 1; 0 is the model's own"
            " order)\n"
            "  --jobs J        runs at a time (default: the host's CPUs)\n"
            "  --timeout S     seconds each run may take (default %.0f)\n"
            "  --compare-output  also fail the seeds whose output (stdout,"
            " each UE's\n"
            "                  lines in order) differs from the first seed's;"
            " the\n"
            "                  differing lines are shown\n"
            "  --ignore REGEX  with --compare-output: leave out the lines"
            " (after their\n"
            "                  '[ N] ' prefix) that match this extended"
            " regex, e.g.\n"
            "                  'wall time'; may be repeated\n"
            "  --check CMD     run 'CMD FILE' (sh) on each seed's stdout,"
            " with\n"
            "                  RCK_EXPLORE_SEED set: a non-zero exit fails"
            " the seed\n"
            "  -h, --help      this text\n"
            "run options (passed to every run, see 'rck run --help'):\n"
            "  -n N, -np N, --nues N, --cores LIST, --chip FILE, --shm-size"
            " SIZE,\n"
            "  --compute MODEL (default here: none, so that a seed replays"
            " exactly),\n"
            "  --prefix, --no-prefix, --backend sim\n"
            "\n"
            "Prints, for every failing seed, the reason and the rck run"
            " command that\n"
            "replays it, then 'K runs, F failed'. Exit status: 0 all passed,"
            " 1 some\n"
            "failed, 2 bad input (nothing was run).\n",
            EXPLORE_DEFAULT_RUNS, EXPLORE_DEFAULT_TIMEOUT_S);
}

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int opt_value(int argc, char **argv, int *i, const char *name,
                     const char **value)
{
    return rck_opt_value("rck explore", argc, argv, i, name, value);
}

static int push_runopt(explore_t *x, const char *a, const char *b)
{
    if (x->nrunopt + 2 > EXPLORE_MAX_ARGS) {
        fprintf(stderr, "rck explore: too many run options\n");
        return -1;
    }
    x->runopt[x->nrunopt++] = a;
    if (b != NULL)
        x->runopt[x->nrunopt++] = b;
    return 0;
}

static int positive_count(const char *opt, const char *s,
                          unsigned long long max, unsigned long long *out)
{
    unsigned long long v;

    if (rck_explore_parse_seed(s, &v) != 0 || v < 1 || v > max) {
        fprintf(stderr, "rck explore: %s '%s': not a number from 1 to %llu\n",
                opt, s, max);
        return -1;
    }
    *out = v;
    return 0;
}

/* --timeout SECONDS. @return 0, or -1 (reported). */
static int parse_timeout(explore_t *x, const char *v)
{
    char *end;

    errno = 0;
    x->timeout_s = strtod(v, &end);
    if (errno != 0 || end == v || *end != '\0' || !(x->timeout_s > 0) ||
        !isfinite(x->timeout_s) || x->timeout_s > 1e6) {
        fprintf(stderr, "rck explore: --timeout '%s': not a positive "
                        "number of seconds\n", v);
        return -1;
    }
    x->timeout_text = v;
    return 0;
}

/* Options of `rck run` that explore refuses. @return 0, or -1 (reported). */
static int refused_option(const char *arg)
{
    static const char *const refused[] = {"--report", "--trace", "--schedule",
                                          "--msglog", NULL};
    int k;

    for (k = 0; refused[k] != NULL; k++) {
        size_t len = strlen(refused[k]);

        if (!strncmp(arg, refused[k], len) &&
            (arg[len] == '\0' || arg[len] == '=')) {
            fprintf(stderr, "rck explore: %s is per run (runs go in "
                            "parallel); replay one seed with the rck run "
                            "command it prints\n", refused[k]);
            return -1;
        }
    }
    return 0;
}

/* --compare-output, --ignore REGEX, --check CMD at argv[*i].
 * @return 1 taken, 0 another option, -1 bad input (reported). */
static int parse_output_option(explore_t *x, int argc, char **argv, int *i)
{
    const char *v;
    int m;

    if (!strcmp(argv[*i], "--compare-output")) {
        x->out.compare = 1;
        return 1;
    }
    if ((m = opt_value(argc, argv, i, "--ignore", &v)) != 0)
        return m < 0 || rck_explore_ignore_add(&x->out, v) != 0 ? -1 : 1;
    if ((m = opt_value(argc, argv, i, "--check", &v)) != 0) {
        if (m < 0 || *v == '\0') {
            if (m > 0)
                fprintf(stderr, "rck explore: --check: an empty command\n");
            return -1;
        }
        x->out.check = v;
        return 1;
    }
    return 0;
}

/* What the options say together. @return 0, or -1 (reported). */
static int parse_combinations(const explore_t *x)
{
    if (x->out.nignore > 0 && !x->out.compare) {
        fprintf(stderr, "rck explore: --ignore filters the compared output: "
                        "add --compare-output\n");
        return -1;
    }
    if (x->runs > 0 && x->first > ULLONG_MAX - (x->runs - 1)) {
        fprintf(stderr, "rck explore: --first %llu --runs %llu: the seeds "
                        "run past 18446744073709551615\n", x->first, x->runs);
        return -1;
    }
    return 0;
}

/* @return 0 go on, 1 help printed, -1 bad input (reported). */
static int parse(explore_t *x, int argc, char **argv)
{
    static const char *const passed[] = {"-n",      "-np", "--nues",
                                         "--cores", "--chip",
                                         "--shm-size", "--compute", NULL};
    int i;

    for (i = 0; i < argc; i++) {
        const char *arg = argv[i], *v = NULL;
        unsigned long long u;
        int m, k, hit = 0;

        if (!strcmp(arg, "--")) {
            i++;
            break;
        }
        if (arg[0] != '-' || arg[1] == '\0')
            break;
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            usage(stdout);
            return 1;
        }
        if (!strcmp(arg, "--prefix") || !strcmp(arg, "--no-prefix")) {
            if (push_runopt(x, arg, NULL) != 0)
                return -1;
            continue;
        }
        if (!strncmp(arg, "-n", 2) && isdigit((unsigned char)arg[2])) {
            if (push_runopt(x, "-n", arg + 2) != 0)
                return -1;
            continue;
        }
        if ((m = opt_value(argc, argv, &i, "--runs", &v)) != 0) {
            if (m < 0 || positive_count("--runs", v, 100000, &x->runs) != 0)
                return -1;
            continue;
        }
        if ((m = opt_value(argc, argv, &i, "--jobs", &v)) != 0) {
            if (m < 0 || positive_count("--jobs", v, 1024, &u) != 0)
                return -1;
            x->jobs = (long)u;
            continue;
        }
        if ((m = opt_value(argc, argv, &i, "--first", &v)) != 0) {
            if (m < 0)
                return -1;
            if (rck_explore_parse_seed(v, &x->first) != 0) {
                fprintf(stderr, "rck explore: --first '%s': not a schedule "
                                "seed (a number from 0 to "
                                "18446744073709551615)\n", v);
                return -1;
            }
            continue;
        }
        if ((m = opt_value(argc, argv, &i, "--timeout", &v)) != 0) {
            if (m < 0 || parse_timeout(x, v) != 0)
                return -1;
            continue;
        }
        if ((m = parse_output_option(x, argc, argv, &i)) != 0) {
            if (m < 0)
                return -1;
            continue;
        }
        if ((m = opt_value(argc, argv, &i, "--backend", &v)) != 0) {
            if (m < 0)
                return -1;
            const rck_hal_ops_t *b = rck_hal_backend_find(v);
            if (b == NULL || !(b->caps & RCK_CAP_SCHEDULES)) {
                fprintf(stderr, "rck explore: --backend '%s': schedules are "
                                "explored on the sim backend only\n", v);
                return -1;
            }
            continue; /* every run gets the backend with schedules */
        }
        if (refused_option(arg) != 0)
            return -1;
        for (k = 0; passed[k] != NULL; k++) {
            if ((m = opt_value(argc, argv, &i, passed[k], &v)) != 0) {
                if (m < 0 || push_runopt(x, passed[k], v) != 0)
                    return -1;
                if (!strcmp(passed[k], "--compute")) {
                    x->have_compute = 1;
                    /* host time: host[:REL], and auto for programs
                     * without compiled counters; the P54C models count
                     * (docs/P54C.md) */
                    if (!strncmp(v, "host", 4) || !strcmp(v, "auto"))
                        fprintf(stderr,
                                "rck explore: warning: --compute %s charges "
                                "host time%s, which differs run after run: "
                                "a failing seed may not fail again when "
                                "replayed\n",
                                v, strcmp(v, "auto") == 0
                                       ? " (for a program without compiled "
                                         "counters)"
                                       : "");
                }
                hit = 1;
                break;
            }
        }
        if (hit)
            continue;
        fprintf(stderr, "rck explore: unknown option '%s' (see 'rck explore "
                        "--help')\n", arg);
        return -1;
    }
    if (i >= argc) {
        fprintf(stderr, "rck explore: missing program to run (see 'rck "
                        "explore --help')\n");
        return -1;
    }
    x->prog = argv + i;
    return parse_combinations(x);
}

/* argv of `rck run` for @p seed (@p dry: --dry-run, no report). Strings
 * live in @p seedbuf and @p reportbuf. */
static void run_argv(const explore_t *x, const char **av, int dry,
                     unsigned long long seed, char *seedbuf,
                     size_t seedlen, char *reportbuf, size_t reportlen)
{
    int n = 0;

    av[n++] = x->exe;
    av[n++] = "run";
    if (dry)
        av[n++] = "--dry-run";
    const rck_hal_ops_t *sched = rck_hal_backend_with(RCK_CAP_SCHEDULES);
    av[n++] = "--backend";
    av[n++] = sched != NULL ? sched->name : "sim";
    snprintf(seedbuf, seedlen, "%llu", seed);
    av[n++] = "--schedule";
    av[n++] = seedbuf;
    if (!x->have_compute) {
        av[n++] = "--compute";
        av[n++] = "none";
    }
    for (int k = 0; k < x->nrunopt; k++)
        av[n++] = x->runopt[k];
    av[n++] = "--timeout";
    av[n++] = x->timeout_text;
    if (!dry) {
        snprintf(reportbuf, reportlen, "%s/report-%llu.json", x->dir, seed);
        av[n++] = "--report";
        av[n++] = reportbuf;
    }
    av[n++] = "--";
    for (int k = 0; x->prog[k] != NULL; k++)
        av[n++] = x->prog[k];
    av[n] = NULL;
}

static int argv_count(const explore_t *x)
{
    int n = 0;

    while (x->prog[n] != NULL)
        n++;
    return n + x->nrunopt + 20;
}

/* A word as the shell reads it back. */
static void put_word(FILE *fp, const char *w)
{
    int plain = *w != '\0';

    for (const char *p = w; *p != '\0'; p++) {
        if (!isalnum((unsigned char)*p) && strchr("-_./:=,+@%", *p) == NULL)
            plain = 0;
    }
    if (plain) {
        fputs(w, fp);
        return;
    }
    fputc('\'', fp);
    for (const char *p = w; *p != '\0'; p++) {
        if (*p == '\'')
            fputs("'\\''", fp);
        else
            fputc(*p, fp);
    }
    fputc('\'', fp);
}

static void print_replay(const explore_t *x, const explore_run_t *r)
{
    unsigned long long seed = r->seed;

    printf("  reproduce: ");
    put_word(stdout, x->self);
    printf(" run --backend sim --schedule %llu", seed);
    if (!x->have_compute)
        printf(" --compute none");
    for (int k = 0; k < x->nrunopt; k++) {
        putchar(' ');
        put_word(stdout, x->runopt[k]);
    }
    if (r->killed || (WIFEXITED(r->status) &&
                      WEXITSTATUS(r->status) == RCK_EXIT_TIMEOUT)) {
        printf(" --timeout ");
        put_word(stdout, x->timeout_text);
    }
    if (x->prog[0][0] == '-')
        printf(" --");
    for (int k = 0; x->prog[k] != NULL; k++) {
        putchar(' ');
        put_word(stdout, x->prog[k]);
    }
    putchar('\n');
}

/* @p out, @p err: the run's stdout and stderr (NULL: ours). */
static pid_t spawn(const explore_t *x, const char **av, const char *out,
                   const char *err)
{
    pid_t parent = getpid();
    pid_t pid = fork();

    if (pid != 0)
        return pid;
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(127);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    if (out != NULL) {
        int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        int efd = open(err, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        int nul = open("/dev/null", O_RDONLY | O_CLOEXEC);

        if (fd < 0 || efd < 0 || nul < 0 || dup2(fd, 1) < 0 ||
            dup2(efd, 2) < 0 || dup2(nul, 0) < 0)
            _exit(127);
        /* the verdict needs the deadlock report, not the summary */
        setenv("RCK_SIM_SUMMARY", "0", 1);
    }
    (void)x;
    execv(av[0], (char *const *)av);
    _exit(127);
}

static char *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "r");
    char *buf = NULL;
    size_t n = 0, cap = 0;

    if (fp == NULL)
        return NULL;
    for (;;) {
        size_t r;

        if (cap - n < 4096) {
            char *nb = realloc(buf, cap * 2 + 8192);
            if (nb == NULL) {
                free(buf);
                fclose(fp);
                return NULL;
            }
            buf = nb;
            cap = cap * 2 + 8192;
        }
        r = fread(buf + n, 1, cap - n - 1, fp);
        if (r == 0)
            break;
        n += r;
    }
    fclose(fp);
    buf[n] = '\0';
    if (len != NULL)
        *len = n;
    return buf;
}

static void cat_reason(char *buf, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void cat_reason(char *buf, size_t len, const char *fmt, ...)
{
    size_t used = strlen(buf);
    va_list ap;

    if (used + 3 >= len)
        return;
    if (used > 0) {
        strcat(buf, "; ");
        used += 2;
    }
    va_start(ap, fmt);
    vsnprintf(buf + used, len - used, fmt, ap);
    va_end(ap);
}

/* A file of run @p seed in the private directory: "out" (its stdout),
 * "err" (its stderr), "check" (the --check hook's output). */
static void run_file(const explore_t *x, const char *kind,
                     unsigned long long seed, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s-%llu.txt", x->dir, kind, seed);
}

/* --check CMD on the run's stdout. */
static void judge_check(const explore_t *x, explore_run_t *r)
{
    char out[PATH_MAX + 64], log[PATH_MAX + 64];
    int rc;

    run_file(x, "out", r->seed, out, sizeof(out));
    run_file(x, "check", r->seed, log, sizeof(log));
    rc = rck_explore_check_run(x->out.check, out, r->seed, log, x->timeout_s);
    if (rc == 0)
        return;
    r->check_failed = 1;
    if (rc < 0)
        cat_reason(r->reason, sizeof(r->reason), "--check could not start");
    else
        cat_reason(r->reason, sizeof(r->reason), "--check failed (exit %d)",
                   rc);
}

/* The verdict of a finished run, from its exit status and its report. */
static void judge(const explore_t *x, explore_run_t *r)
{
    char path[PATH_MAX + 64];
    char *rep;
    int code = -1;

    r->reason[0] = '\0';
    if (WIFEXITED(r->status))
        code = WEXITSTATUS(r->status);
    if (r->killed || code == RCK_EXIT_TIMEOUT) {
        cat_reason(r->reason, sizeof(r->reason),
                   "timed out after %s s", x->timeout_text);
    } else if (WIFSIGNALED(r->status)) {
        cat_reason(r->reason, sizeof(r->reason), "rck run killed by signal %d",
                   WTERMSIG(r->status));
    } else if (code > 128 && code < 128 + 65) {
        const char *name = rck_launch_signame(code - 128);
        cat_reason(r->reason, sizeof(r->reason), "a core was killed by %s",
                   name != NULL ? name : "a signal");
    } else if (code != 0) {
        cat_reason(r->reason, sizeof(r->reason), "exit status %d", code);
    }
    snprintf(path, sizeof(path), "%s/report-%llu.json", x->dir, r->seed);
    rep = slurp(path, NULL);
    if (rep != NULL) {
        char *p = rep;

        if (strstr(rep, "\"ended\": \"deadlock\"") != NULL)
            cat_reason(r->reason, sizeof(r->reason),
                       "the model found a deadlock");
        if (strstr(rep, "\"ended\": \"peer_died\"") != NULL &&
            !r->killed && code != RCK_EXIT_TIMEOUT &&
            !WIFSIGNALED(r->status) && !(code > 128 && code < 128 + 65))
            cat_reason(r->reason, sizeof(r->reason), "a core failed and the model aborted the run");
        (void)p;
        free(rep);
    } else if (!r->killed && code == 0) {
        cat_reason(r->reason, sizeof(r->reason), "no sim report written");
    }
    if (x->out.check != NULL && !r->killed)
        judge_check(x, r);
    r->failed = r->reason[0] != '\0';
}

/* A run's output, indented: all of it up to EXPLORE_HEAD_LINES +
 * EXPLORE_TAIL_LINES lines, else the first and the last lines (the first
 * failure, and how the run ended). */
static void print_output(const char *path)
{
    char *buf = slurp(path, NULL);
    char *line, *nl;
    int n = 0, k = 0;

    if (buf == NULL)
        return;
    for (char *p = buf; *p != '\0'; p++)
        n += *p == '\n';
    if (*buf != '\0' && buf[strlen(buf) - 1] != '\n')
        n++;
    for (line = buf; *line != '\0'; line = nl + 1, k++) {
        nl = strchr(line, '\n');
        if (nl != NULL)
            *nl = '\0';
        if (n <= EXPLORE_HEAD_LINES + EXPLORE_TAIL_LINES ||
            k < EXPLORE_HEAD_LINES || k >= n - EXPLORE_TAIL_LINES)
            printf("    | %s\n", line);
        else if (k == EXPLORE_HEAD_LINES)
            printf("    | ... (%d lines)\n",
                   n - EXPLORE_HEAD_LINES - EXPLORE_TAIL_LINES);
        if (nl == NULL)
            break;
    }
    free(buf);
}

static void kill_all(explore_run_t *runs, unsigned long long n, int sig)
{
    for (unsigned long long k = 0; k < n; k++) {
        if (runs[k].pid > 0 && !runs[k].done)
            kill(-runs[k].pid, sig);
    }
}

static void remove_dir(const explore_t *x, explore_run_t *runs,
                       unsigned long long n)
{
    char path[PATH_MAX + 64];

    for (unsigned long long k = 0; k < n; k++) {
        snprintf(path, sizeof(path), "%s/report-%llu.json", x->dir,
                 runs[k].seed);
        unlink(path);
        run_file(x, "out", runs[k].seed, path, sizeof(path));
        unlink(path);
        run_file(x, "err", runs[k].seed, path, sizeof(path));
        unlink(path);
        run_file(x, "check", runs[k].seed, path, sizeof(path));
        unlink(path);
    }
    rmdir(x->dir);
}

/* --compare-output: every seed's stdout against the first seed's.
 * @return how many seeds failed that had not failed already. */
static unsigned long long compare_outputs(const explore_t *x,
                                          explore_run_t *runs)
{
    explore_lines_t ref, got;
    unsigned long long nnew = 0;
    char path[PATH_MAX + 64];

    run_file(x, "out", runs[0].seed, path, sizeof(path));
    if (rck_explore_lines_load(&x->out, path, &ref) != 0)
        return 0;
    for (unsigned long long k = 1; k < x->runs; k++) {
        explore_run_t *r = &runs[k];

        run_file(x, "out", r->seed, path, sizeof(path));
        if (rck_explore_lines_load(&x->out, path, &got) != 0)
            continue;
        r->differs = rck_explore_lines_differ(&ref, &got);
        if (r->differs >= 0) {
            cat_reason(r->reason, sizeof(r->reason),
                       "its output differs from seed %llu's", runs[0].seed);
            nnew += !r->failed;
            r->failed = 1;
        }
        rck_explore_lines_free(&got);
    }
    rck_explore_lines_free(&ref);
    return nnew;
}

static long long file_size(const char *path)
{
    struct stat sb;

    return stat(path, &sb) == 0 ? (long long)sb.st_size : -1;
}

/* A failing seed: why, its output (and what differs, the hook's), and
 * the command that replays it. */
static void print_verdict(const explore_t *x, const explore_run_t *r,
                          const explore_run_t *first)
{
    char path[PATH_MAX + 64];

    if (!r->failed)
        return;
    printf("seed %llu: FAILED: %s\n", r->seed, r->reason);
    run_file(x, "out", r->seed, path, sizeof(path));
    print_output(path);
    run_file(x, "err", r->seed, path, sizeof(path));
    print_output(path);
    if (r->differs >= 0) {
        explore_lines_t ref = {0}, got = {0};
        char rpath[PATH_MAX + 64];

        run_file(x, "out", first->seed, rpath, sizeof(rpath));
        run_file(x, "out", r->seed, path, sizeof(path));
        if (rck_explore_lines_load(&x->out, rpath, &ref) == 0 &&
            rck_explore_lines_load(&x->out, path, &got) == 0) {
            printf("  differs from seed %llu's output at its line %d "
                   "(each UE's lines in order):\n", first->seed,
                   r->differs + 1);
            rck_explore_lines_print(&ref, first->seed, &got, r->seed,
                                    r->differs);
        }
        rck_explore_lines_free(&ref);
        rck_explore_lines_free(&got);
    }
    run_file(x, "check", r->seed, path, sizeof(path));
    if (r->check_failed && access(path, R_OK) == 0 && file_size(path) > 0) {
        printf("  --check's output:\n");
        print_output(path);
    }
    print_replay(x, r);
}

static int explore_runs(explore_t *x, explore_run_t *runs)
{
    unsigned long long next = 0, ndone = 0, nfail = 0;
    long running = 0;
    int tty = isatty(2);
    int nav = argv_count(x);
    const char **av = calloc((size_t)nav, sizeof(*av));
    double backstop = x->timeout_s + EXPLORE_BACKSTOP_S;

    if (av == NULL) {
        fprintf(stderr, "rck explore: out of memory\n");
        return RCK_EXIT_USAGE;
    }
    while (ndone < x->runs) {
        int status;
        pid_t pid;

        if (explore_signal != 0)
            break;
        while (running < x->jobs && next < x->runs) {
            char seedbuf[32], report[PATH_MAX + 64], out[PATH_MAX + 64];
            char err[PATH_MAX + 64];
            explore_run_t *r = &runs[next++];

            run_argv(x, av, 0, r->seed, seedbuf, sizeof(seedbuf), report,
                     sizeof(report));
            run_file(x, "out", r->seed, out, sizeof(out));
            run_file(x, "err", r->seed, err, sizeof(err));
            r->started = now_s();
            r->pid = spawn(x, av, out, err);
            if (r->pid < 0) {
                fprintf(stderr, "rck explore: fork: %s\n", strerror(errno));
                r->pid = 0;
                r->done = 1;
                r->failed = 1;
                snprintf(r->reason, sizeof(r->reason), "could not start");
                ndone++;
                nfail++;
                continue;
            }
            running++;
        }
        pid = waitpid(-1, &status, WNOHANG);
        if (pid > 0) {
            for (unsigned long long k = 0; k < next; k++) {
                explore_run_t *r = &runs[k];

                if (r->pid != pid || r->done)
                    continue;
                r->status = status;
                r->done = 1;
                /* nothing of the run may outlive it */
                kill(-r->pid, SIGKILL);
                judge(x, r);
                running--;
                ndone++;
                nfail += r->failed != 0;
                break;
            }
            if (tty)
                fprintf(stderr, "\rrck explore: %llu/%llu runs, %llu failed",
                        ndone, x->runs, nfail);
            continue;
        }
        if (pid < 0 && errno != EINTR && errno != ECHILD)
            break;
        for (unsigned long long k = 0; k < next; k++) {
            explore_run_t *r = &runs[k];

            if (r->pid > 0 && !r->done && !r->killed &&
                now_s() - r->started > backstop) {
                r->killed = 1;
                kill(-r->pid, SIGKILL);
            }
        }
        usleep(10000);
    }
    free(av);
    if (tty)
        fprintf(stderr, "\n");
    if (explore_signal != 0) {
        kill_all(runs, next, SIGTERM);
        usleep(200000);
        kill_all(runs, next, SIGKILL);
        while (waitpid(-1, NULL, 0) > 0)
            ;
        fprintf(stderr, "rck explore: stopped by signal %d after %llu of "
                        "%llu runs\n", (int)explore_signal, ndone, x->runs);
        return 128 + (int)explore_signal;
    }
    if (x->out.compare)
        nfail += compare_outputs(x, runs);
    for (unsigned long long k = 0; k < x->runs; k++)
        print_verdict(x, &runs[k], &runs[0]);
    printf("%llu runs, %llu failed\n", x->runs, nfail);
    fflush(stdout);
    return nfail > 0 ? 1 : 0;
}

/* rck_explore_main on @p x (its --ignore patterns freed by the caller,
 * whichever way this returns). */
static int explore_main(explore_t *xp, int argc, char **argv,
                        const char *self)
{
    explore_run_t *runs = NULL;
    struct sigaction sa;
    const char *tmp = getenv("TMPDIR");
    const char **av;
    char seedbuf[32];
    ssize_t n;
    int rc, status;
    pid_t pid;

    xp->self = self;
    xp->runs = EXPLORE_DEFAULT_RUNS;
    xp->first = 1;
    xp->jobs = sysconf(_SC_NPROCESSORS_ONLN);
    if (xp->jobs < 1)
        xp->jobs = 1;
    xp->timeout_s = EXPLORE_DEFAULT_TIMEOUT_S;
    xp->timeout_text = "60";
    rc = parse(xp, argc, argv);
    if (rc != 0)
        return rc > 0 ? 0 : RCK_EXIT_USAGE;
    n = readlink("/proc/self/exe", xp->exe, sizeof(xp->exe) - 1);
    if (n <= 0) {
        fprintf(stderr, "rck explore: cannot find this executable: %s\n",
                strerror(errno));
        return RCK_EXIT_USAGE;
    }
    xp->exe[n] = '\0';

    /* Everything rck run would refuse is refused here, before any run. */
    av = calloc((size_t)argv_count(xp), sizeof(*av));
    if (av == NULL)
        return RCK_EXIT_USAGE;
    run_argv(xp, av, 1, xp->first, seedbuf, sizeof(seedbuf), NULL, 0);
    fflush(stdout);
    pid = spawn(xp, av, NULL, NULL);
    free(av);
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0)
        return RCK_EXIT_USAGE; /* rck run said why */

    snprintf(xp->dir, sizeof(xp->dir), "%s/rck-explore-XXXXXX",
             tmp != NULL && *tmp != '\0' ? tmp : "/tmp");
    if (mkdtemp(xp->dir) == NULL) {
        fprintf(stderr, "rck explore: cannot make a directory in %s: %s\n",
                tmp != NULL && *tmp != '\0' ? tmp : "/tmp", strerror(errno));
        return RCK_EXIT_USAGE;
    }
    runs = calloc((size_t)xp->runs, sizeof(*runs));
    if (runs == NULL) {
        fprintf(stderr, "rck explore: out of memory\n");
        rmdir(xp->dir);
        return RCK_EXIT_USAGE;
    }
    for (unsigned long long k = 0; k < xp->runs; k++) {
        runs[k].seed = xp->first + k;
        runs[k].differs = -1;
    }
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    rc = explore_runs(xp, runs);
    remove_dir(xp, runs, xp->runs);
    free(runs);
    return rc;
}

int rck_explore_main(int argc, char **argv, const char *self)
{
    explore_t x;
    int rc;

    memset(&x, 0, sizeof(x));
    rc = explore_main(&x, argc, argv, self);
    rck_explore_out_fini(&x.out);
    return rc;
}
