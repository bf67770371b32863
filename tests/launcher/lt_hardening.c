/*
 * Launcher cases of issue 26 ("failures fail, bad input is refused up
 * front"): the RCK_* settings and the run's output files are checked
 * before any core starts, and an output that cannot be written at the end
 * fails the run, naming the path the user gave.
 */
#include "lt.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* How many times @p needle occurs in @p hay. */
static int occurrences(const char *hay, const char *needle)
{
    int n = 0;

    for (const char *p = strstr(hay, needle); p != NULL;
         p = strstr(p + 1, needle))
        n++;
    return n;
}

/* Bad values are refused once, by the launcher, naming the variable. */
void case_preflight(void)
{
    static const struct {
        const char *env, *needle;
    } bad[] = {
        {"RCK_WAIT_TIMEOUT=abc", "RCK_WAIT_TIMEOUT='abc': not an integer"},
        {"RCK_DEADLOCK_S=-1", "RCK_DEADLOCK_S='-1': not an integer from 0"},
        {"RCK_LOG=verbose", "RCK_LOG='verbose': not one of: error, warn"},
        {"RCK_PREFIX=maybe", "RCK_PREFIX='maybe'"},
        {"RCK_SIM_SCHEDULE=x", "RCK_SIM_SCHEDULE='x'"},
        {"RCK_PROGRESS=sometimes", "RCK_PROGRESS='sometimes'"},
    };
    const char *c = lt_core;
    result_t r;

    for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++)
        expect_usage_error(ARGV((char *)rck, "run", "-n", "2", (char *)c,
                                "*:out=ran"),
                           ENV(bad[i].env), bad[i].needle);
    expect_usage_error(ARGV((char *)rck, "run", "-n", "2", "--backend", "sim",
                            "--compute", "fast", (char *)c),
                       NULL, "--compute 'fast'");
    /* rccerun and rck explore's dry run refuse them too */
    expect_usage_error(ARGV((char *)rccerun, "-nue", "2", (char *)c), 
                       ENV("RCK_WAIT_TIMEOUT=abc"), "RCK_WAIT_TIMEOUT");
    expect_usage_error(ARGV((char *)rck, "explore", "-n", "2", "--runs", "1",
                            (char *)c),
                       ENV("RCK_LOG=loud"), "RCK_LOG");

    /* good values of every kind pass, silently */
    run(&r, ARGV((char *)rck, "run", "-n", "2", (char *)c, "*:out=ran"),
        ENV("RCK_WAIT_TIMEOUT=5", "RCK_LOG=error", "RCK_PREFIX=yes",
            "RCK_DEADLOCK_S=0", "RCK_SIM_SCHEDULE=18446744073709551615",
            "RCK_SPIN_NS=auto", "RCK_SHM_SIZE=32m", "RCK_COMPUTE=host:0.5"),
        NULL, 30);
    CHECK(r.code == 0, "exit status %d, want 0", r.code);
    CHECK(r.err[0] == '\0', "unexpected stderr: %s", r.err);
    result_free(&r);

    /* a misspelt setting: a warning with the nearest name, and the run */
    run(&r, ARGV((char *)rck, "run", "-n", "2", (char *)c, "*:out=ran"),
        ENV("RCK_SIM_HAZRDS=1"), NULL, 30);
    CHECK(r.code == 0, "exit status %d, want 0", r.code);
    CHECK(has(r.err, "RCK_SIM_HAZRDS") && has(r.err, "RCK_SIM_HAZARDS?"),
          "no warning naming RCK_SIM_HAZARDS");
    CHECK(r.nlines_err == 1, "%d lines on stderr, want 1", r.nlines_err);
    CHECK(count_lines(r.out) == 2, "the run did not run");
    result_free(&r);

    /* the launcher's own variables for its cores, and other tools', are
     * no settings but are not warned about (a run inside a run) */
    run(&r, ARGV((char *)rck, "run", "-n", "1", (char *)c, "*:out=ran"),
        ENV("RCK_RUN_UE=3", "RCK_RUN_CORE=3", "RCK_RUN_NUES=4", "RCK_UE=3",
            "RCK_WORLD=0-3", "RCK_PYTHONDIR=/tmp", "RCKCC_COUNT=0"),
        NULL, 30);
    CHECK(r.code == 0, "exit status %d, want 0", r.code);
    CHECK(r.err[0] == '\0', "unexpected stderr: %s", r.err);
    result_free(&r);
}

/* Output files: checked before the run, and at its end. */
void case_outputs(void)
{
    static const char *const opts[] = {"--report", "--msglog", "--trace"};
    const char *c = lt_core;
    char gone[300], path[400], isdir[300], env[450];
    result_t r;

    snprintf(gone, sizeof(gone), "%s/no/such/dir", dir);
    for (size_t i = 0; i < sizeof(opts) / sizeof(*opts); i++) {
        snprintf(path, sizeof(path), "%s/r.json", gone);
        run(&r, ARGV((char *)rck, "run", "-n", "2", "--backend", "sim",
                     (char *)opts[i], path, (char *)c, "*:out=ran"),
            NULL, NULL, 30);
        CHECK(r.code == 2, "%s: exit status %d, want 2", opts[i], r.code);
        CHECK(r.nlines_err == 1, "%s: %d lines on stderr, want 1", opts[i],
              r.nlines_err);
        CHECK(has(r.err, opts[i]) && occurrences(r.err, path) == 1 &&
                  has(r.err, "does not exist"),
              "%s: stderr does not name the path once: %s", opts[i], r.err);
        CHECK(!has(r.err, ".tmp"), "%s: a temporary name", opts[i]);
        CHECK(r.out[0] == '\0', "%s: the run started", opts[i]);
        result_free(&r);
    }
    /* the same through the environment, named so */
    snprintf(env, sizeof(env), "RCK_REPORT=%s/r.json", gone);
    expect_usage_error(ARGV((char *)rck, "run", "-n", "2", (char *)c),
                       ENV(env), "RCK_REPORT");
    snprintf(env, sizeof(env), "RCK_SIM_REPORT=%s/r.json", gone);
    expect_usage_error(ARGV((char *)rck, "run", "-n", "2", "--backend", "sim",
                            (char *)c),
                       ENV(env), "RCK_SIM_REPORT");
    expect_usage_error(ARGV((char *)rck, "run", "-n", "2", "--msglog", dir,
                            (char *)c),
                       NULL, "is a directory");

    /* the report's directory goes away during the run: the run fails
     * (status 1) and the message names the user's path, not the
     * temporary file's */
    snprintf(isdir, sizeof(isdir), "%s/out", dir);
    mkdir(isdir, 0755);
    snprintf(path, sizeof(path), "%s/r.json", isdir);
    snprintf(env, sizeof(env), "0:rmdir=%s", isdir);
    run(&r, ARGV((char *)rck, "run", "-n", "2", "--report", path, (char *)c,
                 env),
        NULL, NULL, 30);
    CHECK(r.code == 1, "report lost: exit status %d, want 1", r.code);
    CHECK(occurrences(r.err, path) == 1 && !has(r.err, ".tmp"),
          "report lost: stderr does not name the path: %s", r.err);
    result_free(&r);
    mkdir(isdir, 0755);
    run(&r, ARGV((char *)rck, "run", "-n", "2", "--backend", "sim",
                 "--compute", "none", "--report", path, (char *)c, env),
        ENV("RCK_SIM_SUMMARY=0"), NULL, 30);
    CHECK(r.code == 1, "sim report lost: exit status %d, want 1", r.code);
    CHECK(occurrences(r.err, path) == 1 && !has(r.err, ".tmp"),
          "sim report lost: stderr does not name the path: %s", r.err);
    result_free(&r);
}

/* What mpirun users type: -np N; stdin reaches UE 0 (--stdin to choose). */
void case_mpirun_habits(void)
{
    char input[300];
    const char *c = lt_core;
    result_t r;

    run(&r, ARGV((char *)rck, "run", "-np", "3", (char *)c, "*:out=hi"),
        NULL, NULL, 30);
    CHECK(r.code == 0 && count_lines(r.out) == 3, "-np 3: status %d, %d lines",
          r.code, count_lines(r.out));
    result_free(&r);
    expect_usage_error(ARGV((char *)rck, "run", "-np", "x", (char *)c), NULL,
                       "-n 'x'");

    snprintf(input, sizeof(input), "%s/input", dir);
    write_file(input, "first line\nsecond line\n");
    run_stdin = input;
    /* default: UE 0 reads it, the others see end of input */
    run(&r, ARGV((char *)rck, "run", "-n", "3", (char *)c, "*:stdin"), NULL,
        NULL, 30);
    CHECK(r.code == 0, "exit status %d", r.code);
    /* UE 0's lines in order; the other UEs' lines may come between */
    {
        const char *a = strstr(r.out, "[ 0] in:first line\n"),
                   *b = strstr(r.out, "[ 0] in:second line\n"),
                   *e = strstr(r.out, "[ 0] in:EOF\n");
        CHECK(a != NULL && b != NULL && e != NULL && a < b && b < e,
              "UE 0 did not read the input: %s", r.out);
    }
    CHECK(has(r.out, "[ 1] in:EOF\n") && has(r.out, "[ 2] in:EOF\n") &&
              count_lines(r.out) == 5,
          "other UEs read input: %s", r.out);
    result_free(&r);
    /* on the sim backend the same */
    run(&r, ARGV((char *)rck, "run", "-n", "2", "--backend", "sim",
                 (char *)c, "*:stdin"),
        ENV("RCK_SIM_SUMMARY=0", "RCK_SIM_REPORT=none"), NULL, 30);
    CHECK(has(r.out, "[ 0] in:second line\n") && count_lines(r.out) == 4,
          "sim: %s", r.out);
    result_free(&r);
    /* every UE a copy */
    run(&r, ARGV((char *)rck, "run", "-n", "3", "--stdin", "all", (char *)c,
                 "*:stdin"),
        NULL, NULL, 30);
    for (int ue = 0; ue < 3; ue++) {
        char want[64];
        snprintf(want, sizeof(want), "[ %d] in:second line\n", ue);
        CHECK(has(r.out, want), "--stdin all: no '%s'", want);
    }
    CHECK(count_lines(r.out) == 9, "--stdin all: %s", r.out);
    result_free(&r);
    /* another UE, or nobody */
    run(&r, ARGV((char *)rck, "run", "-n", "3", "--stdin", "2", (char *)c,
                 "*:stdin"),
        NULL, NULL, 30);
    CHECK(has(r.out, "[ 2] in:first line\n") && count_lines(r.out) == 5,
          "--stdin 2: %s", r.out);
    result_free(&r);
    run(&r, ARGV((char *)rck, "run", "-n", "2", "--stdin", "none", (char *)c,
                 "*:stdin"),
        NULL, NULL, 30);
    CHECK(!has(r.out, "line") && count_lines(r.out) == 2, "--stdin none: %s",
          r.out);
    result_free(&r);
    /* a UE that does not read does not hold the run up */
    run(&r, ARGV((char *)rck, "run", "-n", "2", (char *)c, "*:out=done"),
        NULL, NULL, 30);
    CHECK(r.code == 0 && r.elapsed < 5, "status %d in %.1f s", r.code,
          r.elapsed);
    result_free(&r);
    run_stdin = NULL;
    expect_usage_error(ARGV((char *)rck, "run", "-n", "2", "--stdin", "2",
                            (char *)c),
                       NULL, "--stdin '2'");
    expect_usage_error(ARGV((char *)rck, "run", "-n", "2", "--stdin", "some",
                            (char *)c),
                       NULL, "--stdin 'some'");
    /* --version on every subcommand */
    static const char *const subs[] = {"run", "explore", "config", "report"};
    for (size_t k = 0; k < sizeof(subs) / sizeof(subs[0]); k++) {
        run(&r, ARGV((char *)rck, (char *)subs[k], "--version"), NULL, NULL,
            30);
        CHECK(r.code == 0 && has(r.out, "(rockcreek) ") &&
                  has(r.out, subs[k]),
              "rck %s --version: status %d: %s%s", subs[k], r.code, r.out,
              r.err);
        result_free(&r);
    }
}

/* Intel's run scripts say `rccerun -nue 4 -f hosts stencil_synch`: the
 * program in the working directory (Intel's launcher ran `pwd`/$EXE). */
void case_rccerun_cwd(void)
{
    char prog[300], hosts[300], cwd[4096];
    result_t r;

    snprintf(prog, sizeof(prog), "%s/stencil_synch", dir);
    snprintf(hosts, sizeof(hosts), "%s/hosts", dir);
    CHECK(symlink(lt_core, prog) == 0, "symlink %s", prog);
    write_file(hosts, "0\n1\n2\n3\n");
    CHECK(getcwd(cwd, sizeof(cwd)) != NULL && chdir(dir) == 0, "chdir");
    run(&r, ARGV((char *)rccerun, "-nue", "4", "-f", "hosts",
                 "stencil_synch", "*:out=stencil"),
        NULL, NULL, 30);
    CHECK(r.code == 0, "exit status %d, want 0", r.code);
    CHECK(count_lines(r.out) == 4 && has(r.out, "[ 3] stencil\n"),
          "stdout: %s", r.out);
    result_free(&r);
    /* not there: PATH's, as before; neither: the same message */
    run(&r, ARGV((char *)rccerun, "-nue", "1", "true"), NULL, NULL, 30);
    CHECK(r.code == 0, "rccerun true: exit status %d", r.code);
    result_free(&r);
    expect_usage_error(ARGV((char *)rccerun, "-nue", "2", "no_such_stencil"),
                       NULL, "cannot execute 'no_such_stencil'");
    /* rck run keeps execvp's rule (no ./ added) */
    expect_usage_error(ARGV((char *)rck, "run", "-n", "2", "stencil_synch"),
                       NULL, "command not found");
    CHECK(chdir(cwd) == 0, "chdir back");
}

/* mpirun's --output-filename DIR (each UE's output also in
 * DIR/1/rank.N/stdout and stderr, as Open MPI) and --timestamp-output. */
void case_output_files(void)
{
    char odir[300], path[400];
    result_t r;

    snprintf(odir, sizeof(odir), "%s/out", dir);
    run(&r, ARGV((char *)rck, "run", "-n", "2", "--output-filename", odir,
                 "--timestamp-output", (char *)lt_core,
                 "*:out=hello,err=oops"),
        NULL, NULL, 30);
    CHECK(r.code == 0, "status %d: %s", r.code, r.err);
    /* the terminal: time, then the UE prefix */
    CHECK(count_lines(r.out) == 2 && has(r.out, "] hello\n") &&
              r.out[4] == '-' && r.out[10] == 'T' && has(r.out, " [ 1] hello"),
          "stamped lines: %s", r.out);
    result_free(&r);
    for (int ue = 0; ue < 2; ue++) {
        for (int s = 0; s < 2; s++) {
            snprintf(path, sizeof(path), "%s/1/rank.%d/%s", odir, ue,
                     s ? "stderr" : "stdout");
            FILE *f = fopen(path, "r");
            char line[256] = "";
            CHECK(f != NULL, "no %s", path);
            if (f == NULL)
                continue;
            CHECK(fgets(line, sizeof(line), f) != NULL &&
                      strstr(line, s ? " oops\n" : " hello\n") != NULL &&
                      strchr(line, '[') == NULL,
                  "%s holds '%s'", path, line);
            fclose(f);
        }
    }
    /* a directory that cannot be made: refused before anything starts */
    expect_usage_error(ARGV((char *)rck, "run", "-n", "2", "--output-filename",
                            "/proc/rck-none", (char *)lt_core),
                       NULL, "--output-filename /proc/rck-none");
}

/* A program that links rockcreek and ends without calling RCCE_init: a
 * warning naming each such core, on native and sim, and the status
 * unchanged; none when it does call it, and none for a program that does
 * not use the chip (lt_core, every other case). */
void case_never_init(void)
{
    static const char *const backends[] = {"native", "sim"};
    char prog[4096];
    const char *slash = strrchr(lt_core, '/');
    result_t r;

    snprintf(prog, sizeof(prog), "%.*s/lt_noinit",
             slash != NULL ? (int)(slash - lt_core) : 1,
             slash != NULL ? lt_core : ".");
    for (int b = 0; b < 2; b++) {
        run(&r, ARGV((char *)rck, "run", "-n", "2", "--backend",
                     (char *)backends[b], prog),
            ENV("RCK_SIM_REPORT=none"), NULL, 30);
        CHECK(r.code == 0, "%s: status %d: %s", backends[b], r.code, r.err);
        CHECK(has(r.err, "core 0 (UE 0) ended without attaching to the chip"
                         ": its program never called RCCE_init") &&
                  has(r.err, "core 1 (UE 1) ended without attaching"),
              "%s: no warning naming the cores: %s", backends[b], r.err);
        result_free(&r);
        run(&r, ARGV((char *)rck, "run", "-n", "2", "--backend",
                     (char *)backends[b], prog, "init"),
            ENV("RCK_SIM_REPORT=none"), NULL, 30);
        CHECK(r.code == 0, "%s init: status %d: %s", backends[b], r.code,
              r.err);
        CHECK(!has(r.err, "without attaching"), "%s init: warned: %s",
              backends[b], r.err);
        result_free(&r);
    }
}
