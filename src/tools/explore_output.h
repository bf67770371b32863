/*
 * `rck explore` beyond the exit status: a run's output compared with the
 * first seed's (--compare-output, --ignore REGEX) and a hook run on each
 * seed's output (--check CMD).
 *
 * The compared output is the run's stdout as the UEs wrote it: the
 * launcher interleaves the lines of different UEs in whatever order it
 * reads them, so the lines are grouped by their "[ N] " prefix (in order
 * within each UE) before they are compared; lines whose text after the
 * prefix matches an --ignore expression are left out.
 *
 * Owns: the comparison and the hook. May call: libc (regex, fork/exec).
 * Used by: explore.c.
 */
#ifndef RCK_TOOLS_EXPLORE_OUTPUT_H
#define RCK_TOOLS_EXPLORE_OUTPUT_H

#include <regex.h>
#include <stddef.h>

#define EXPLORE_MAX_IGNORE 16

typedef struct {
    int compare;                          /* --compare-output */
    regex_t ignore[EXPLORE_MAX_IGNORE];   /* --ignore REGEX (ERE) */
    int nignore;
    const char *check;                    /* --check CMD, or NULL */
} explore_out_t;

/** A run's output as compared (see above). */
typedef struct {
    char *buf;     /* the file's text; lines point into it */
    char **line;
    int n;
} explore_lines_t;

/**
 * --ignore REGEX: compile it (POSIX extended).
 * @return 0, or -1 (reported on stderr).
 */
int rck_explore_ignore_add(explore_out_t *o, const char *re);

/** Free what rck_explore_ignore_add compiled. */
void rck_explore_out_fini(explore_out_t *o);

/**
 * Read a run's stdout as compared.
 * @param [out] l  the lines (free with rck_explore_lines_free).
 * @return 0, or -1 (the file cannot be read: no lines).
 */
int rck_explore_lines_load(const explore_out_t *o, const char *path,
                           explore_lines_t *l);
void rck_explore_lines_free(explore_lines_t *l);

/**
 * @return -1 if @p a and @p b are the same, else the index of their first
 *         differing line.
 */
int rck_explore_lines_differ(const explore_lines_t *a,
                             const explore_lines_t *b);

/**
 * Print the first few differing lines from index @p at on, in pairs:
 * @p ref's as "- seed R:", @p got's as "+ seed S:".
 */
void rck_explore_lines_print(const explore_lines_t *ref,
                             unsigned long long ref_seed,
                             const explore_lines_t *got,
                             unsigned long long seed, int at);

/**
 * --check CMD: run `CMD FILE` through /bin/sh, FILE being the seed's
 * output, RCK_EXPLORE_SEED the seed, its output into @p log; killed after
 * @p timeout_s.
 * @return its exit status (0 passed), 128 + N if killed by signal N, or
 *         -1 if it could not be started.
 */
int rck_explore_check_run(const char *cmd, const char *file,
                          unsigned long long seed, const char *log,
                          double timeout_s);

#endif
