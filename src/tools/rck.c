/*
 * rck: the rockcreek launcher and configuration tool, and (when started
 * under the name rccerun) a front end with the SCC launcher's syntax.
 *
 *   rck run -n N [options] [--] program [args...]
 *   rck explore -n N [--runs K] [options] [--] program [args...]
 *   rck config --list | --dump [--chip FILE]
 *   rccerun -nue N [-f hostfile] [-clock GHz] program [args...]
 *           (program from the working directory first, as Intel's did)
 *
 * Everything wrong with the input is reported as one line on stderr and
 * exit status 2, before any core starts.
 */
#include "explore.h"
#include "launch.h"
#include "mpirun.h"
#include "preflight.h"
#include "report.h"

#include "rck/chip.h"
#include "rck/config.h"
#include "rck/exec.h"
#include "rck/hal.h"
#include "rck/json.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef RCK_VERSION
#define RCK_VERSION "unknown"
#endif

/* Parse results: go on, stop with success (help printed), bad input. */
enum { OPT_OK = 0, OPT_EXIT = 1, OPT_BAD = -1 };

typedef struct {
    int rccerun;            /* accept the rccerun spellings */
    long nues;              /* -1: not given */
    const char *nues_text;  /* as written, for messages */
    const char *backend;
    const char *cores;
    const char *chip;
    const char *shm_size;
    const char *hostfile;
    const char *timeout;
    const char *clock;
    const char *compute;
    const char *report;
    const char *msglog;
    const char *trace;
    const char *schedule;
    const char *universe;   /* --universe U: U UEs, -n of them started */
    const char *stdin_to;   /* --stdin UE|all|none */
    const char *output_dir; /* --output-filename DIR */
    int timestamps;         /* --timestamp-output */
    const char *sequester;  /* --sequester: "on", or NULL */
    int dry_run;            /* check everything, start nothing */
    const char *mpi_hostfile; /* mpi: mpirun --hostfile */
    const char *mpi_hosts;    /* mpi: mpirun --host */
    int prefix;             /* -1: not given */
    char **argv;            /* program and its arguments */
} run_opts_t;

static const char *tool = "rck";

static void usage_rck(FILE *fp)
{
    fprintf(fp,
            "usage: rck run -n N [options] [--] program [args...]\n"
            "       rck explore -n N [--runs K] [--jobs J] [--timeout S]"
            " [run options]\n"
            "                   program [args...]\n"
            "       rck config --list | --dump [--chip FILE]\n"
            "       rck backends [--json]   the backends and their"
            " capabilities\n"
            "       rck report RUN.json [-o FILE.html] [--trace TRACE.json]"
            " [--text]\n"
            "       rck snetc net.snet boxes.c... [-o program]   (S-Net,"
            " docs/SNET.md)\n"
            "       rck --help | --version   (each command also takes --version)\n"
            "       rccerun -nue N [-f hostfile] [-clock GHz] program"
            " [args...]\n"
            "\n"
            "rockcreek runs programs written for the Intel Single-chip Cloud\n"
            "Computer's RCCE library, one process per unit of execution (UE).\n"
            "See 'rck run --help' for the run options, 'rck explore --help'\n"
            "for running a program under many sim schedules, and\n"
            "'rck config --list' for the RCK_* environment settings, and\n"
            "'rck report --help' for viewing a run's report.\n");
}

static void usage_run(FILE *fp)
{
    fprintf(fp,
            "usage: rck run -n N [options] [--] program [args...]\n"
            "\n"
            "Start N processes of program, UE i on physical core cores[i].\n"
            "\n"
            "options:\n"
            "  -n N, -np N, --nues N\n"
            "                      number of UEs (default: the length of"
            " --cores)\n"
            "  --cores LIST        physical cores, e.g. 0,2,4-7 (sorted;"
            " default 0..N-1)\n"
            "  --backend NAME      HAL backend (RCK_BACKEND; compiled in: %s)\n"
            "  --chip FILE         chip configuration JSON (RCK_CHIP;"
            " default built in)\n"
            "  --shm-size SIZE     shared off-chip memory, e.g. 64m"
            " (RCK_SHM_SIZE)\n"
            "  --no-prefix         do not prefix output lines with the UE id"
            " (RCK_PREFIX=0)\n"
            "  --prefix            prefix output lines (the default)\n"
            "  --timeout SECONDS   stop the run after this long (exit"
            " status 124)\n"
            "  --compute MODEL     sim: compute model auto (default: p54c-fast"
            " for programs\n"
            "                      built by rckcc, else host), p54c,"
            " p54c-fast, host[:REL],\n"
            "                      none, instructions[:CPI] (RCK_COMPUTE)\n"
            "  --report FILE       the run's JSON report (sim: everything;"
            " native, mpi: the\n"
            "                      communication matrix), or none"
            " (RCK_REPORT)\n"
            "  --msglog FILE       log every message sent and received,"
            " JSON lines\n"
            "                      (RCK_MSGLOG)\n"
            "  --trace FILE        sim: Chrome trace-event file, gzip'ed if"
            " FILE ends in .gz\n"
            "                      (RCK_SIM_TRACE)\n"
            "  --schedule SEED     sim: schedule seed, 0 = the model's own"
            " order (RCK_SIM_SCHEDULE)\n"
            "  --dry-run           check the options and the program, start"
            " nothing\n"
            "  --universe U        a job of U UEs of which N start; MPI_Comm_spawn"
            "\n"
            "                      starts programs on the others (native, sim)"
            "\n"
            "  --stdin UE|all|none who reads rck's standard input: UE (default"
            " 0, as\n"
            "                      mpirun), every UE (a copy each), or none\n"
            "  --output-filename DIR  also write each UE's output to\n"
            "                      DIR/1/rank.N/stdout and stderr (as Open MPI)\n"
            "  --timestamp-output  prefix every output line with the time\n"
            "  --sequester         native, sim: each core may touch only its"
            " own pages, its\n"
            "                      own MPB and the shared pages; LUT and"
            " configuration-\n"
            "                      register writes stop it (exit status 5;"
            " RCK_SEQUESTER)\n"
            "  --hostfile FILE     mpi: mpirun's host file\n"
            "  --host LIST         mpi: hosts, e.g. a,b or a:4,b:4\n"
            "  -h, --help          this text\n"
            "\n"
            "Each core's stdout and stderr reach the launcher's line by line,\n"
            "as '[ 5] text'; UE 0 reads rck's input (--stdin). When a core\n"
            "fails (non-zero exit, signal) every other core is stopped\n"
            "(SIGTERM, then SIGKILL after RCK_KILL_GRACE_MS) and rck exits\n"
            "with the first failure's status (128+N for signal N; 3 when the\n"
            "run deadlocked; 5 when a core was stopped by a protection fault;\n"
            "1 if an output could not be written at the end).\n"
            "Exit status 2: bad input (options, RCK_* values, output paths\n"
            "that cannot be written), nothing was started. Every core sees\n"
            "RCK_RUN_UE, RCK_RUN_CORE and RCK_RUN_NUES in its environment.\n",
            rck_hal_backend_names());
}

static void usage_rccerun(FILE *fp)
{
    fprintf(fp,
            "usage: rccerun -nue N [-f hostfile] [-clock GHz] [rck run"
            " options] program [args...]\n"
            "\n"
            "The SCC launcher's syntax on rockcreek (same as 'rck run'):\n"
            "  -nue N      number of UEs (default: all cores of the"
            " hostfile)\n"
            "  -f FILE     physical core ids, one per line ('#' starts a"
            " comment);\n"
            "              the first N are used\n"
            "  -clock GHz  recorded (RCK_RUN_CLOCK_GHZ in the cores'"
            " environment);\n"
            "              core frequencies come from the chip file (--chip,"
            " RCK_CHIP)\n"
            "A program named without a slash is the working directory's when"
            " it is\n"
            "there (as Intel's launcher ran `pwd`/program), else PATH's.\n"
            "See 'rck run --help' for the other options.\n");
}

/* Strict decimal integer. @return 0, or -1 if @p s is not one. */
static int parse_long(const char *s, long *out)
{
    char *end;
    long v;

    if (s == NULL || !(isdigit((unsigned char)*s) ||
                       ((*s == '-' || *s == '+') &&
                        isdigit((unsigned char)s[1]))))
        return -1;
    errno = 0;
    v = strtol(s, &end, 10);
    if (errno != 0 || *end != '\0')
        return -1;
    *out = v;
    return 0;
}

static int opt_value(int argc, char **argv, int *i, const char *name,
                     const char **value)
{
    return rck_opt_value(tool, argc, argv, i, name, value);
}

static int run_opts_parse(int argc, char **argv, run_opts_t *o)
{
    int i;

    for (i = 0; i < argc; i++) {
        const char *arg = argv[i];
        const char *v = NULL;
        int m;

        if (!strcmp(arg, "--")) {
            i++;
            break;
        }
        if (arg[0] != '-' || arg[1] == '\0')
            break;
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help") ||
            (o->rccerun && !strcmp(arg, "-help"))) {
            if (o->rccerun)
                usage_rccerun(stdout);
            else
                usage_run(stdout);
            return OPT_EXIT;
        }
        if (!strcmp(arg, "--no-prefix")) {
            o->prefix = 0;
            continue;
        }
        if (!strcmp(arg, "--prefix")) {
            o->prefix = 1;
            continue;
        }
        if (!strcmp(arg, "--dry-run")) {
            o->dry_run = 1;
            continue;
        }
#define OPT(name, field)                                                      \
    if ((m = opt_value(argc, argv, &i, name, &v)) != 0) {                     \
        if (m < 0)                                                            \
            return OPT_BAD;                                                   \
        o->field = v;                                                         \
        continue;                                                             \
    }
        if (o->rccerun) {
            OPT("-nue", nues_text)
            OPT("-f", hostfile)
            OPT("-clock", clock)
        } else {
            OPT("-np", nues_text) /* mpirun's spelling */
            if (!strncmp(arg, "-n", 2) && arg[2] != '\0' && arg[2] != '=') {
                o->nues_text = arg + 2; /* -n4 */
                continue;
            }
            OPT("-n", nues_text)
        }
        OPT("--nues", nues_text)
        OPT("--backend", backend)
        OPT("--cores", cores)
        OPT("--chip", chip)
        OPT("--shm-size", shm_size)
        OPT("--timeout", timeout)
        OPT("--compute", compute)
        OPT("--report", report)
        OPT("--msglog", msglog)
        OPT("--trace", trace)
        OPT("--schedule", schedule)
        OPT("--universe", universe)
        OPT("--stdin", stdin_to)
        OPT("--output-filename", output_dir)
        if (!strcmp(arg, "--timestamp-output")) {
            o->timestamps = 1;
            continue;
        }
        if (!strcmp(arg, "--sequester")) {
            o->sequester = "on";
            continue;
        }
        OPT("--hostfile", mpi_hostfile)
        OPT("--host", mpi_hosts)
#undef OPT
        fprintf(stderr, "%s: unknown option '%s' (see '%s --help')\n", tool,
                arg, o->rccerun ? "rccerun" : "rck run");
        return OPT_BAD;
    }
    if (i >= argc) {
        fprintf(stderr, "%s: missing program to run (see '%s --help')\n",
                tool, o->rccerun ? "rccerun" : "rck run");
        return OPT_BAD;
    }
    o->argv = argv + i;
    if (o->nues_text != NULL) {
        const char *flag = o->rccerun ? "-nue" : "-n";

        if (parse_long(o->nues_text, &o->nues) != 0) {
            fprintf(stderr, "%s: %s '%s': not a number of cores\n", tool,
                    flag, o->nues_text);
            return OPT_BAD;
        }
        if (o->nues < 1) {
            fprintf(stderr, "%s: %s %ld: at least one core is needed\n",
                    tool, flag, o->nues);
            return OPT_BAD;
        }
    }
    return OPT_OK;
}

static int int_cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;

    return (x > y) - (x < y);
}

/*
 * Sort @p cores, check them against the chip and for duplicates.
 * @param [in] what  how the list was given, for messages.
 */
static int cores_check(int *cores, int n, const rck_chip_t *chip,
                       const char *what)
{
    for (int k = 0; k < n; k++) {
        if (cores[k] < 0 || cores[k] >= chip->ncores) {
            fprintf(stderr,
                    "%s: %s: core %d is not on the chip (cores 0-%d)\n", tool,
                    what, cores[k], chip->ncores - 1);
            return -1;
        }
    }
    qsort(cores, (size_t)n, sizeof(*cores), int_cmp);
    for (int k = 1; k < n; k++) {
        if (cores[k] == cores[k - 1]) {
            fprintf(stderr, "%s: %s: core %d is listed twice\n", tool, what,
                    cores[k]);
            return -1;
        }
    }
    return 0;
}

/* Append @p v to a list of at most @p max entries. */
static int list_push(int *list, int *n, int max, long v, const char *what,
                     const rck_chip_t *chip)
{
    if (v < 0 || v >= chip->ncores) {
        fprintf(stderr, "%s: %s: core %ld is not on the chip (cores 0-%d)\n",
                tool, what, v, chip->ncores - 1);
        return -1;
    }
    if (*n >= max) {
        fprintf(stderr, "%s: %s: more cores than the chip has (%d)\n", tool,
                what, chip->ncores);
        return -1;
    }
    list[(*n)++] = (int)v;
    return 0;
}

/* "0,2,4-7" -> cores (unsorted). @return count, or -1 (reported). */
static int cores_parse(const char *text, const rck_chip_t *chip, int *cores)
{
    char what[128];
    char *copy = strdup(text), *save = NULL, *tok;
    int n = 0;

    snprintf(what, sizeof(what), "--cores '%s'", text);
    if (copy == NULL)
        return -1;
    if (*text == '\0') {
        fprintf(stderr, "%s: --cores: empty core list\n", tool);
        goto err;
    }
    for (tok = strtok_r(copy, ",", &save); tok != NULL;
         tok = strtok_r(NULL, ",", &save)) {
        char *dash = strchr(tok + 1, '-');
        long lo, hi;

        if (dash != NULL)
            *dash = '\0';
        if (parse_long(tok, &lo) != 0 ||
            (dash != NULL && parse_long(dash + 1, &hi) != 0)) {
            if (dash != NULL)
                *dash = '-';
            fprintf(stderr, "%s: %s: '%s' is not a core id or range\n", tool,
                    what, tok);
            goto err;
        }
        if (dash == NULL)
            hi = lo;
        if (hi < lo) {
            fprintf(stderr, "%s: %s: range %ld-%ld is empty\n", tool, what,
                    lo, hi);
            goto err;
        }
        for (long v = lo; v <= hi; v++) {
            if (list_push(cores, &n, chip->ncores, v, what, chip) != 0)
                goto err;
        }
    }
    if (n == 0) {
        fprintf(stderr, "%s: %s: empty core list\n", tool, what);
        goto err;
    }
    free(copy);
    return n;

err:
    free(copy);
    return -1;
}

/* The rccerun hostfile: core ids, '#' comments. @return count or -1. */
static int hostfile_parse(const char *path, const rck_chip_t *chip,
                          int *cores)
{
    char what[PATH_MAX + 32];
    char line[1024];
    FILE *fp = fopen(path, "r");
    int n = 0, lineno = 0;

    if (fp == NULL) {
        fprintf(stderr, "%s: cannot read hostfile '%s': %s\n", tool, path,
                strerror(errno));
        return -1;
    }
    while (fgets(line, sizeof(line), fp) != NULL) {
        char *hash = strchr(line, '#'), *save = NULL, *tok;

        lineno++;
        if (hash != NULL)
            *hash = '\0';
        for (tok = strtok_r(line, " \t\r\n", &save); tok != NULL;
             tok = strtok_r(NULL, " \t\r\n", &save)) {
            long v;

            snprintf(what, sizeof(what), "hostfile '%s' line %d", path,
                     lineno);
            if (parse_long(tok, &v) != 0) {
                fprintf(stderr, "%s: %s: '%s' is not a core id\n", tool, what,
                        tok);
                goto err;
            }
            if (list_push(cores, &n, chip->ncores, v, what, chip) != 0)
                goto err;
        }
    }
    fclose(fp);
    if (n == 0) {
        fprintf(stderr, "%s: hostfile '%s' lists no cores\n", tool, path);
        return -1;
    }
    return n;

err:
    fclose(fp);
    return -1;
}

/* Resolve the chip: --chip, RCK_CHIP, or the built-in one. */
static int chip_resolve(const char *path, rck_chip_t *chip)
{
    int fd;

    if (path == NULL || *path == '\0') {
        if (rck_chip_load_default(chip) != RCK_OK) {
            fprintf(stderr, "%s: the built-in chip configuration is broken\n",
                    tool);
            return -1;
        }
        return 0;
    }
    fd = open(path, O_RDONLY);
    if (fd < 0) {
        fprintf(stderr, "%s: cannot read chip file '%s': %s\n", tool, path,
                strerror(errno));
        return -1;
    }
    close(fd);
    /* The loader logs what is wrong, naming the key. */
    return rck_chip_load_file(path, chip) == RCK_OK ? 0 : -1;
}

/*
 * Is @p prog something execvp() can run? Searches PATH like execvp when
 * there is no slash. Reports and returns -1 if not.
 */
static int program_check(const char *prog)
{
    int rc;

    if (*prog == '\0') {
        fprintf(stderr, "%s: empty program name\n", tool);
        return -1;
    }
    rc = rck_exec_find(prog, NULL, 0);
    if (rc == 0)
        return 0;
    if (rc == ENOENT && strchr(prog, '/') == NULL)
        fprintf(stderr, "%s: cannot execute '%s': command not found\n", tool,
                prog);
    else
        fprintf(stderr, "%s: cannot execute '%s': %s\n", tool, prog,
                strerror(rc));
    return -1;
}

/*
 * rccerun: Intel's launcher ran `pwd`/PROGRAM, so a program named without
 * a slash is the working directory's when it is there (else PATH's).
 * @return 0, or -1 (out of memory).
 */
static int rccerun_program_resolve(char **argv)
{
    struct stat sb;
    char *local;

    if (strchr(argv[0], '/') != NULL || stat(argv[0], &sb) != 0 ||
        !S_ISREG(sb.st_mode))
        return 0;
    local = malloc(strlen(argv[0]) + 3);
    if (local == NULL) {
        fprintf(stderr, "%s: out of memory\n", tool);
        return -1;
    }
    sprintf(local, "./%s", argv[0]);
    argv[0] = local; /* lives as long as the run */
    return 0;
}

static int setting_export(const char *name, const char *value)
{
    char var[64];

    snprintf(var, sizeof(var), "RCK_%s", name);
    if (setenv(var, value, 1) != 0) {
        fprintf(stderr, "%s: cannot set %s: %s\n", tool, var,
                strerror(errno));
        return -1;
    }
    return 0;
}

/* rck run: --timeout and -clock are numbers. */
static int run_numbers_check(const run_opts_t *o, double *timeout_s)
{
    if (o->timeout != NULL) {
        char *end;

        errno = 0;
        *timeout_s = strtod(o->timeout, &end);
        if (errno != 0 || end == o->timeout || *end != '\0' ||
            !(*timeout_s > 0) || !isfinite(*timeout_s)) {
            fprintf(stderr, "%s: --timeout '%s': not a positive number of "
                            "seconds\n", tool, o->timeout);
            return RCK_EXIT_USAGE;
        }
    }
    if (o->clock != NULL) {
        char *end;
        double ghz;

        errno = 0;
        ghz = strtod(o->clock, &end);
        if (errno != 0 || end == o->clock || *end != '\0' || !(ghz > 0) ||
            !isfinite(ghz)) {
            fprintf(stderr, "%s: -clock '%s': not a frequency in GHz\n", tool,
                    o->clock);
            return RCK_EXIT_USAGE;
        }
    }

    return 0;
}

/* rck run: the backend, and a schedule seed only where it means something.
 * @return the backend's table, or NULL (reported). */
static const rck_hal_ops_t *run_backend_resolve(const run_opts_t *o)
{
    const char *backend;
    const rck_hal_ops_t *ops;

    backend = o->backend != NULL ? o->backend : rck_config_get("BACKEND");
    ops = rck_hal_backend_find(backend);
    if (ops == NULL) {
        fprintf(stderr, "%s: unknown backend '%s' (compiled in: %s)\n", tool,
                backend, rck_hal_backend_names());
        return NULL;
    }
    if (o->schedule != NULL) {
        unsigned long long seed;

        if (rck_explore_parse_seed(o->schedule, &seed) != 0) {
            fprintf(stderr, "%s: --schedule '%s': not a schedule seed (a "
                            "number from 0 to 18446744073709551615)\n",
                    tool, o->schedule);
            return NULL;
        }
        if (seed != 0 && !(ops->caps & RCK_CAP_SCHEDULES)) {
            fprintf(stderr, "%s: --schedule %s: schedules are a sim backend "
                            "feature (add --backend sim)\n",
                    tool, o->schedule);
            return NULL;
        }
    }

    return ops;
}

/* rck run: the physical core of every UE (--cores, -f HOSTFILE, or -n).
 * @return how many, or -1 (reported). */
static int run_cores_resolve(const run_opts_t *o, const rck_chip_t *chip,
                             int *cores)
{
    int ncores = -1;

    if (o->nues > chip->ncores) {
        fprintf(stderr, "%s: %s %ld: the chip has %d cores\n", tool,
                o->rccerun ? "-nue" : "-n", o->nues, chip->ncores);
        return -1;
    }
    if (o->cores != NULL && o->hostfile != NULL) {
        fprintf(stderr, "%s: give either --cores or -f, not both\n", tool);
        return -1;
    }
    if (o->cores != NULL) {
        char what[128];

        ncores = cores_parse(o->cores, chip, cores);
        snprintf(what, sizeof(what), "--cores '%s'", o->cores);
        if (ncores < 0 || cores_check(cores, ncores, chip, what) != 0)
            return -1;
        if (o->nues >= 0 && ncores != o->nues) {
            fprintf(stderr, "%s: %s lists %d cores, but -n is %ld\n", tool,
                    what, ncores, o->nues);
            return -1;
        }
    } else if (o->hostfile != NULL) {
        char what[PATH_MAX + 32];

        ncores = hostfile_parse(o->hostfile, chip, cores);
        if (ncores < 0)
            return -1;
        if (o->nues > ncores) {
            fprintf(stderr, "%s: hostfile '%s' lists only %d cores, but "
                            "-nue is %ld\n", tool, o->hostfile, ncores,
                    o->nues);
            return -1;
        }
        if (o->nues >= 0)
            ncores = (int)o->nues;
        snprintf(what, sizeof(what), "hostfile '%s'", o->hostfile);
        if (cores_check(cores, ncores, chip, what) != 0)
            return -1;
    } else if (o->nues < 0) {
        fprintf(stderr, "%s: missing %s (the number of cores)\n", tool,
                o->rccerun ? "-nue N" : "-n N");
        return -1;
    } else {
        ncores = (int)o->nues;
        for (int k = 0; k < ncores; k++)
            cores[k] = k;
    }

    return ncores;
}

/* --universe U: the job gets U UEs on cores 0..U-1, of which the first
 * @p ncores (on the same cores) start. @return U, or -1 (reported). */
static int run_universe_resolve(const run_opts_t *o, const rck_hal_ops_t *ops,
                                const rck_chip_t *chip, int ncores,
                                int *cores)
{
    long u;

    if (o->universe == NULL)
        return ncores;
    if (parse_long(o->universe, &u) != 0 || u < ncores ||
        u > chip->ncores) {
        fprintf(stderr, "%s: --universe '%s': give a number of UEs from -n "
                        "(%d) to the chip's cores (%d)\n",
                tool, o->universe, ncores, chip->ncores);
        return -1;
    }
    if (o->cores != NULL || o->hostfile != NULL) {
        fprintf(stderr, "%s: --universe places the UEs on cores 0..U-1: "
                        "it does not combine with --cores or -f\n", tool);
        return -1;
    }
    if (!(ops->caps & RCK_CAP_IDLE_CORES)) {
        fprintf(stderr, "%s: --universe: the %s backend cannot start "
                        "processes on idle cores (use native or sim)\n",
                tool, ops->name);
        return -1;
    }
    for (int k = 0; k < (int)u; k++)
        cores[k] = k;
    return (int)u;
}

/* --stdin UE|all|none (default UE 0, as mpirun). @return 0, or -1
 * (reported). */
static int run_stdin_resolve(const run_opts_t *o, const rck_hal_ops_t *ops,
                             int nues, int *stdin_ue)
{
    long ue;

    *stdin_ue = 0;
    if (o->stdin_to == NULL)
        return 0;
    if (!(ops->caps & RCK_CAP_STDIN_ROUTE)) {
        fprintf(stderr, "%s: --stdin: on the %s backend, mpirun decides who "
                        "reads the input (rank 0)\n", tool, ops->name);
        return -1;
    }
    if (!strcmp(o->stdin_to, "all")) {
        *stdin_ue = RCK_STDIN_ALL;
    } else if (!strcmp(o->stdin_to, "none")) {
        *stdin_ue = RCK_STDIN_NONE;
    } else if (parse_long(o->stdin_to, &ue) == 0 && ue >= 0 && ue < nues) {
        *stdin_ue = (int)ue;
    } else {
        fprintf(stderr, "%s: --stdin '%s': give a UE (0-%d), all or none\n",
                tool, o->stdin_to, nues - 1);
        return -1;
    }
    return 0;
}

/* The settings the run options give (the cores read them too). */
static int options_export(const run_opts_t *o)
{
    static const struct {
        const char *setting;
        size_t field;
    } map[] = {{"COMPUTE", offsetof(run_opts_t, compute)},
               {"REPORT", offsetof(run_opts_t, report)},
               {"MSGLOG", offsetof(run_opts_t, msglog)},
               {"SIM_TRACE", offsetof(run_opts_t, trace)},
               {"SIM_SCHEDULE", offsetof(run_opts_t, schedule)},
               {"SEQUESTER", offsetof(run_opts_t, sequester)}};

    for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
        const char *v = *(const char *const *)((const char *)o + map[i].field);
        if (v != NULL && setting_export(map[i].setting, v) != 0)
            return -1;
    }
    return 0;
}

/* rck run: the cores resolve the same settings as the launcher did. */
static int run_settings_export(const run_opts_t *o, const rck_hal_ops_t *ops,
                               const char *chip_path, const char *shm_text)
{
    if ((o->clock != NULL && setting_export("RUN_CLOCK_GHZ", o->clock) != 0) ||
        setting_export("BACKEND", ops->name) != 0 ||
        (chip_path != NULL && *chip_path != '\0' &&
         setting_export("CHIP", chip_path) != 0) ||
        setting_export("SHM_SIZE", shm_text) != 0 ||
        options_export(o) != 0)
        return -1;
    return 0;
}

/* rck run: the settings (every RCK_* variable and --compute) and the
 * outputs, after the options were exported. @return 0, or -1 (reported). */
static int run_preflight(const run_opts_t *o, const rck_hal_ops_t *ops)
{
    rck_preflight_outputs_t out = {.report = o->report,
                                   .trace = o->trace,
                                   .msglog = o->msglog,
                                   .sim = (ops->caps & RCK_CAP_TIMED) != 0};

    if (o->compute != NULL &&
        rck_preflight_option(tool, "--compute", "COMPUTE", o->compute) != 0)
        return -1;
    if (rck_preflight_settings(tool) != 0)
        return -1;
    return rck_preflight_outputs(tool, &out);
}

/* The shared window's size (--shm-size, else RCK_SHM_SIZE) into @p bytes.
 * @return 1 for auto (@p bytes 0 until the backend sizes it:
 * run_shm_auto), 0 for a size, -1 (said) for neither. */
static int run_shm_parse(const run_opts_t *o, const char *text,
                         size_t *bytes)
{
    if (!strcasecmp(text, "auto")) {
        *bytes = 0;
        return 1;
    }
    if (rck_config_parse_size(text, bytes) != 0 || *bytes == 0) {
        fprintf(stderr, "%s: %s '%s': not a size (e.g. 64m, or auto)\n",
                tool, o->shm_size != NULL ? "--shm-size" : "RCK_SHM_SIZE",
                text);
        return -1;
    }
    return 0;
}

/* RCK_SHM_SIZE=auto: the backend's window for a job of @p nues UEs. */
static size_t run_shm_auto(const rck_hal_ops_t *ops, int nues)
{
    int capped;
    size_t want, bytes = ops->job->shm_auto(nues, &capped, &want);

    if (capped)
        fprintf(stderr,
                "%s: RCK_SHM_SIZE=auto: the shared window is %zu MiB, not "
                "the %zu MiB a job of %d UEs gets, because the host has "
                "only twice that memory available (the MPI library's rings "
                "shrink; set RCK_SHM_SIZE to choose)\n",
                tool, bytes >> 20, want >> 20, nues);
    return bytes;
}

/* rck run / rccerun. */
static int cmd_run(int argc, char **argv, int rccerun)
{
    run_opts_t o;
    rck_launch_t launch;
    rck_chip_t chip;
    const rck_hal_ops_t *ops;
    const char *chip_path, *shm_text;
    int *cores = NULL;
    int ncores, ret = RCK_EXIT_USAGE, rc, shm_auto;
    double timeout_s = 0;

    /* a rank of `rck run --backend mpi`, started by mpirun (mpirank.c) */
    if (!rccerun && getenv(RCK_MPIRUN_WRAP_VAR) != NULL)
        return rck_mpirun_rank(tool, argc, argv);
    memset(&o, 0, sizeof(o));
    o.rccerun = rccerun;
    o.nues = -1;
    o.prefix = -1;
    rc = run_opts_parse(argc, argv, &o);
    if (rc != OPT_OK)
        return rc == OPT_EXIT ? 0 : RCK_EXIT_USAGE;

    if (run_numbers_check(&o, &timeout_s) != 0)
        return RCK_EXIT_USAGE;
    ops = run_backend_resolve(&o);
    if (ops == NULL)
        return RCK_EXIT_USAGE;
    shm_text = o.shm_size != NULL ? o.shm_size : rck_config_get("SHM_SIZE");
    shm_auto = run_shm_parse(&o, shm_text, &launch.shm_bytes);
    if (shm_auto < 0)
        return RCK_EXIT_USAGE;

    chip_path = o.chip != NULL ? o.chip : rck_config_get("CHIP");
    if (chip_resolve(chip_path, &chip) != 0)
        return RCK_EXIT_USAGE;

    cores = calloc((size_t)chip.ncores, sizeof(*cores));
    if (cores == NULL) {
        fprintf(stderr, "%s: out of memory\n", tool);
        return RCK_EXIT_USAGE;
    }
    ncores = run_cores_resolve(&o, &chip, cores);
    if (ncores < 0)
        goto out;
    launch.nues = run_universe_resolve(&o, ops, &chip, ncores, cores);
    if (launch.nues < 0 ||
        run_stdin_resolve(&o, ops, launch.nues, &launch.stdin_ue) != 0)
        goto out;
    if (shm_auto)
        launch.shm_bytes = run_shm_auto(ops, launch.nues);
    if ((rccerun && rccerun_program_resolve(o.argv) != 0) ||
        program_check(o.argv[0]) != 0)
        goto out;
    if ((o.mpi_hostfile != NULL || o.mpi_hosts != NULL) &&
        !(ops->caps & RCK_CAP_MPIRUN)) {
        fprintf(stderr, "%s: --hostfile and --host place MPI ranks: they "
                        "need --backend mpi\n", tool);
        goto out;
    }

    if (o.clock != NULL) {
        double mhz = strtod(o.clock, NULL) * 1000.0;

        if (fabs(mhz - chip.core_mhz) > 0.5)
            fprintf(stderr,
                    "%s: warning: -clock %s recorded, but the timing model "
                    "takes core frequencies from the chip file (%s: %g MHz)"
                    "\n", tool, o.clock, chip.name, chip.core_mhz);
    }

    if (run_settings_export(&o, ops, chip_path, shm_text) != 0 ||
        run_preflight(&o, ops) != 0)
        goto out;
    if (o.dry_run) {
        ret = 0;
        goto out;
    }

    launch.tool = tool;
    launch.ops = ops;
    launch.chip = &chip;
    launch.nstart = ncores;
    launch.cores = cores;
    launch.prefix = o.prefix >= 0 ? o.prefix : rck_config_get_bool("PREFIX");
    launch.output_dir = o.output_dir;
    launch.timestamps = o.timestamps;
    launch.timeout_s = timeout_s;
    launch.kill_grace_ms = rck_config_get_int("KILL_GRACE_MS");
    if (launch.kill_grace_ms < 0)
        launch.kill_grace_ms = 0;
    launch.argv = o.argv;
    rck_launch_msglog_reset(tool);
    fflush(stdout);
    if (ops->caps & RCK_CAP_MPIRUN)
        ret = rck_mpirun_run(&launch, o.mpi_hostfile, o.mpi_hosts);
    else
        ret = rck_launch_run(&launch);

out:
    free(cores);
    return ret;
}

/* rck config --list | --dump [--chip FILE] | --schema */
static int cmd_config(int argc, char **argv)
{
    const char *chip_path = NULL;
    int list = 0, dump = 0, schema = 0;
    rck_chip_t chip;

    for (int i = 0; i < argc; i++) {
        const char *v;
        int m;

        if (!strcmp(argv[i], "--list")) {
            list = 1;
        } else if (!strcmp(argv[i], "--dump")) {
            dump = 1;
        } else if (!strcmp(argv[i], "--schema")) {
            schema = 1;
        } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            printf("usage: rck config --list         the RCK_* settings, "
                   "their defaults and help\n"
                   "       rck config --dump [--chip FILE]   the resolved "
                   "settings and chip\n"
                   "       rck config --schema       the model's parameters "
                   "a chip file may set (JSON)\n");
            return 0;
        } else if ((m = opt_value(argc, argv, &i, "--chip", &v)) != 0) {
            if (m < 0)
                return RCK_EXIT_USAGE;
            chip_path = v;
        } else {
            fprintf(stderr, "%s: config: unknown option '%s' (see 'rck "
                            "config --help')\n", tool, argv[i]);
            return RCK_EXIT_USAGE;
        }
    }
    if (!list && !dump && !schema) {
        fprintf(stderr, "%s: config: give --list, --dump or --schema\n",
                tool);
        return RCK_EXIT_USAGE;
    }
    if (schema) {
        if (rck_chip_load_default(&chip) != RCK_OK)
            return RCK_EXIT_USAGE;
        rck_chip_print_schema(stdout, &chip);
    }
    if (list)
        rck_config_print(stdout, 0);
    if (dump) {
        if (chip_path == NULL)
            chip_path = rck_config_get("CHIP");
        if (chip_resolve(chip_path, &chip) != 0)
            return RCK_EXIT_USAGE;
        if (chip_path != NULL && *chip_path != '\0' &&
            setting_export("CHIP", chip_path) != 0)
            return RCK_EXIT_USAGE;
        rck_config_print(stdout, 1);
        rck_chip_print(stdout, &chip);
    }
    return fflush(stdout) == 0 ? 0 : 1;
}

/* rck backends [--json]: the backends compiled in and what each can do
 * (RCK_CAP_*), for scripts that must not decide by a backend's name. */
static int cmd_backends(int argc, char **argv)
{
    int json = argc > 0 && !strcmp(argv[0], "--json");

    if (argc > (json ? 1 : 0)) {
        fprintf(stderr, "%s: backends: unknown option '%s' (only --json)\n",
                tool, argv[json ? 1 : 0]);
        return RCK_EXIT_USAGE;
    }
    if (json) {
        rck_jsonw_t w;

        rck_jsonw_init(&w, stdout, RCK_JSONW_NEWLINE);
        rck_jsonw_object(&w, NULL);
        for (int i = 0; rck_hal_backend_at(i) != NULL; i++) {
            const rck_hal_ops_t *ops = rck_hal_backend_at(i);
            rck_jsonw_array(&w, ops->name);
            for (unsigned b = 1; b != 0; b <<= 1)
                if ((ops->caps & b) && rck_cap_name(b) != NULL)
                    rck_jsonw_string(&w, NULL, rck_cap_name(b));
            rck_jsonw_end_array(&w);
        }
        rck_jsonw_end_object(&w);
        if (rck_jsonw_finish(&w) != RCK_OK) {
            fprintf(stderr, "%s: backends: %s\n", tool, rck_jsonw_error(&w));
            return 1;
        }
        return fflush(stdout) == 0 ? 0 : 1;
    }
    for (int i = 0; rck_hal_backend_at(i) != NULL; i++) {
        const rck_hal_ops_t *ops = rck_hal_backend_at(i);
        printf("%s:", ops->name);
        for (unsigned b = 1; b != 0; b <<= 1)
            if ((ops->caps & b) && rck_cap_name(b) != NULL)
                printf(" %s", rck_cap_name(b));
        printf("\n");
    }
    return fflush(stdout) == 0 ? 0 : 1;
}

/* A closed 0, 1 or 2 would be reused by a pipe and lost at exec. */
static void std_fds_ensure(void)
{
    for (int fd = 0; fd < 3; fd++) {
        if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
            int n = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
            if (n >= 0 && n != fd)
                close(n);
        }
    }
}

/* rck snetc ...: the S-Net compiler rck-snetc, beside rck (installed) or
 * in the build tree's src/snet, else from PATH. */
static int cmd_snetc(char **argv)
{
    char path[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 32);
    static const char *const rel[] = {"rck-snetc", "../snet/rck-snetc"};
    for (int i = 0; n > 0 && i < 2; i++) {
        path[n] = '\0';
        char *slash = strrchr(path, '/');
        if (slash == NULL)
            break;
        strcpy(slash + 1, rel[i]);
        if (access(path, X_OK) == 0) {
            argv[0] = path;
            execv(path, argv);
        }
    }
    argv[0] = "rck-snetc";
    execvp(argv[0], argv);
    fprintf(stderr, "%s: cannot run rck-snetc: %s\n", tool, strerror(errno));
    return 127;
}

int main(int argc, char **argv)
{
    const char *base = argc > 0 ? strrchr(argv[0], '/') : NULL;

    base = base != NULL ? base + 1 : (argc > 0 ? argv[0] : "rck");
    std_fds_ensure();
    if (!strcmp(base, "rccerun")) {
        tool = "rccerun";
        if (argc > 1 && !strcmp(argv[1], "--version")) {
            printf("rccerun (rockcreek) %s\n", RCK_VERSION);
            return 0;
        }
        return cmd_run(argc - 1, argv + 1, 1);
    }
    if (argc < 2) {
        usage_rck(stderr);
        return RCK_EXIT_USAGE;
    }
    /* every subcommand answers --version, as mpirun's do */
    if (argc == 3 && !strcmp(argv[2], "--version") &&
        (!strcmp(argv[1], "run") || !strcmp(argv[1], "config") ||
         !strcmp(argv[1], "report") || !strcmp(argv[1], "explore"))) {
        printf("rck %s (rockcreek) %s\n", argv[1], RCK_VERSION);
        return 0;
    }
    if (!strcmp(argv[1], "run"))
        return cmd_run(argc - 2, argv + 2, 0);
    if (!strcmp(argv[1], "snetc"))
        return cmd_snetc(argv + 1);
    if (!strcmp(argv[1], "config"))
        return cmd_config(argc - 2, argv + 2);
    if (!strcmp(argv[1], "backends"))
        return cmd_backends(argc - 2, argv + 2);
    if (!strcmp(argv[1], "report"))
        return rck_report_main(argc - 2, argv + 2);
    if (!strcmp(argv[1], "explore"))
        return rck_explore_main(argc - 2, argv + 2, argv[0]);
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
        !strcmp(argv[1], "help")) {
        usage_rck(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
        printf("rck (rockcreek) %s\n", RCK_VERSION);
        return 0;
    }
    fprintf(stderr, "%s: unknown command '%s' (see 'rck --help')\n", tool,
            argv[1]);
    return RCK_EXIT_USAGE;
}
