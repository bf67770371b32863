/*
 * The launcher engine behind `rck run` and `rccerun`: start one process per
 * UE, pass their output through line by line, watch them, and tear the
 * whole run down when one fails, when a signal arrives or on a timeout.
 *
 * Invariants while a run is in progress:
 *   every started core is in one process group (the first core's pid), so
 *   one kill() reaches them all, and has PR_SET_PDEATHSIG = SIGKILL, so
 *   none survives a launcher that is killed outright;
 *   a core's pipes are drained and closed when it is reaped, so its last
 *   output is printed before any message about how it ended;
 *   the backend's job_destroy runs on every path out of rck_launch_run().
 */
#ifndef RCK_TOOLS_LAUNCH_H
#define RCK_TOOLS_LAUNCH_H

#include "launch_stdin.h"

#include "rck/hal.h"

#include <stddef.h>

/** Exit status when the run could not start (bad input, setup failure). */
#define RCK_EXIT_USAGE 2
/** Exit status of a run whose outputs (report, trace) could not be
 * written at its end (a core's failure takes precedence). */
#define RCK_EXIT_OUTPUT 1
/** Exit status of a run that hit its --timeout. */
#define RCK_EXIT_TIMEOUT 124
/** Exit status of a core whose program could not be executed. */
#define RCK_EXIT_NOEXEC 127

/** A fully resolved run. */
typedef struct {
    const char *tool;           /* name for messages: "rck" or "rccerun" */
    const rck_hal_ops_t *ops;   /* backend */
    const rck_chip_t *chip;
    int nues;                   /* UEs of the job (with --universe, all) */
    int nstart;                 /* UEs started at once (0: all); the rest
                                 * start when a core asks (rck_hal_spawn) */
    const int *cores;           /* physical core of each UE, ascending */
    size_t shm_bytes;
    int prefix;                 /* prefix output lines with the UE id */
    const char *output_dir;     /* --output-filename: per-UE files, or NULL */
    int timestamps;             /* --timestamp-output */
    double timeout_s;           /* > 0: kill the run after this long */
    int stdin_ue;               /* the UE that reads the launcher's stdin,
                                 * RCK_STDIN_ALL or RCK_STDIN_NONE */
    long kill_grace_ms;         /* SIGTERM to SIGKILL delay on teardown */
    char *const *argv;          /* program and arguments, NULL-terminated */
} rck_launch_t;

/**
 * Run a job to completion.
 * @param [in] launch  the run; the program has been checked to exist.
 * @return the exit status for the launcher: 0 when every core exited 0,
 *         the first non-zero status of a core (128 + N for signal N),
 *         128 + N when the launcher got signal N, RCK_EXIT_TIMEOUT on a
 *         timeout, RCK_EXIT_USAGE if the job could not be created,
 *         RCK_EXIT_OUTPUT if the run's outputs could not be written.
 */
int rck_launch_run(const rck_launch_t *launch);

/**
 * The message log (RCK_MSGLOG) is appended to by every core: the caller
 * of rck_launch_run() or rck_mpirun_run() empties it before a run starts
 * (docs/MONITORING.md); a failure is printed.
 */
void rck_launch_msglog_reset(const char *tool);

/**
 * Name of a signal ("SIGSEGV"), or NULL if unknown.
 * @param [in] sig  signal number.
 */
const char *rck_launch_signame(int sig);

/**
 * Match the option @p name at argv[*i], as "NAME VALUE" or "NAME=VALUE".
 * @param [in] tool     the command, for the message when a value is missing.
 * @param [in,out] i    the index; moved past the value when it is separate.
 * @param [out] value   the value, on a match.
 * @return 1 on a match, 0 if argv[*i] is another option, -1 if the value
 *         is missing (reported on stderr).
 */
int rck_opt_value(const char *tool, int argc, char **argv, int *i,
                  const char *name, const char **value);

#endif
