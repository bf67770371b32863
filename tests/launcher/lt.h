/*
 * What the launcher tests' cases share (lt_driver.c): the programs under
 * test, the case's directory, the check macro, and running the launcher
 * with its output in files (then checking that nothing of the run is
 * left behind).
 */
#ifndef RCK_TESTS_LT_H
#define RCK_TESTS_LT_H

#include <stdio.h>
#include <sys/types.h>

extern const char *rck, *rccerun, *lt_core, *rckcc;
extern char dir[256]; /* this case's directory (LT_DIR) */
extern int failures;
extern const char *run_stdin; /* run(): the launcher's stdin (a file) */

#define CHECK(cond, ...)                                                      \
    do {                                                                      \
        if (!(cond)) {                                                        \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);              \
            fprintf(stderr, __VA_ARGS__);                                     \
            fputc('\n', stderr);                                              \
            failures++;                                                       \
        }                                                                     \
    } while (0)

#define ARGV(...) ((char *const[]){__VA_ARGS__, NULL})
#define ENV(...) ((const char *const[]){__VA_ARGS__, NULL})

typedef struct {
    int wstatus;
    int code;        /* exit status, or 128 + signal */
    double elapsed;  /* seconds from start to exit */
    double since;    /* seconds from the mark (see mark_now) to exit */
    char *out, *err;
    int nlines_err;
} result_t;

typedef void during_fn(pid_t pid, double *mark);

double now_s(void);
void sleep_s(double s);
/** The file's contents (empty if it cannot be read); free it. */
char *slurp(const char *path);
int count_lines(const char *s);
int has(const char *hay, const char *needle);
void write_file(const char *path, const char *text);

/**
 * Run argv (NULL-terminated) with the extra environment @p env ("NAME=V",
 * NULL-terminated; may be NULL), output to files; kill it after @p limit
 * seconds. @p during (may be NULL) runs while it does.
 */
void run(result_t *r, char *const argv[], const char *const env[],
         during_fn *during, double limit);
void result_free(result_t *r);
int pid_of(int ue, double limit);
void pids_wait(int n);
void pids_clear(int n);

/** The run must fail at once with status 2, one line on stderr that
 *  contains @p needle (if not NULL), nothing on stdout. */
void expect_usage_error(char *const argv[], const char *const env[],
                        const char *needle);

/* The cases of issue 26 (lt_hardening.c). */
void case_preflight(void);
void case_outputs(void);
void case_mpirun_habits(void);
void case_rccerun_cwd(void);
void case_output_files(void);
void case_never_init(void);

#endif
