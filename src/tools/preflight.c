/*
 * Checks before a run starts (see preflight.h).
 */
#include "preflight.h"
#include "mpirun.h"

#include "rck/config.h"
#include "rck/spawn.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

extern char **environ;

/* RCK_* variables that are no setting: nobody sets them by hand, or they
 * belong to another tool; the launcher neither checks nor warns on them. */
static const char *const not_settings[] = {
    /* the launcher's, for every core (launch.c, rck.c, mpirun.c) */
    "RCK_RUN_UE", "RCK_RUN_CORE", "RCK_RUN_NUES", "RCK_RUN_CLOCK_GHZ",
    "RCK_RUN_CORES",
    /* the backends' (job_child_setup: backends/common/seg.c) */
    "RCK_UE", "RCK_NATIVE_FD", "RCK_SIM_FD",
    /* spawning (rck/spawn.h), the mpi backend (mpirun.h, mpirank.c) and
     * MPI_Comm_spawn (src/rckmpi/spawn.c) */
    RCK_SPAWN_FD_VAR, RCK_WORLD_VAR, RCK_MPIRUN_WRAP_VAR, "RCK_MPI_FLUSH_FD",
    "RCK_MPI_PARENT",
    /* other tools': rck report (report.c), rck-as (rck_as*.c), the P54C
     * plugin's debugging, the --check hooks of rck explore
     * (explore_output.c), scripts/install-deps.sh, the conformance tests'
     * watchdog, the build's backends under test */
    "RCK_PYTHONDIR", "RCK_AS_LIBRARY", "RCK_AS_MEM", "RCK_P54C_TBDEBUG",
    "RCK_EXPLORE_SEED", "RCK_QEMU_SRC_CACHE", "RCK_CONF_WATCHDOG",
    "RCK_TEST_BACKENDS", NULL};

static int not_setting(const char *var)
{
    for (int i = 0; not_settings[i] != NULL; i++) {
        if (!strcmp(var, not_settings[i]))
            return 1;
    }
    return 0;
}

/* Edit distance of @p a and @p b (both shorter than 64 characters). */
static int distance(const char *a, const char *b)
{
    int la = (int)strlen(a), lb = (int)strlen(b);
    int row[64], prev;

    if (la >= 64 || lb >= 64)
        return INT_MAX;
    for (int j = 0; j <= lb; j++)
        row[j] = j;
    for (int i = 1; i <= la; i++) {
        prev = row[0];
        row[0] = i;
        for (int j = 1; j <= lb; j++) {
            int cur = row[j];
            int best = prev + (a[i - 1] != b[j - 1]);

            if (row[j] + 1 < best)
                best = row[j] + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            prev = cur;
        }
    }
    return row[lb];
}

/* The setting nearest to @p name (without RCK_), if it is near enough to
 * be a typing mistake; else NULL. */
static const char *nearest(const char *name)
{
    const char *best = NULL;
    int bestd = INT_MAX, len = (int)strlen(name);

    for (const rck_config_entry_t *e = rck_config_next(NULL); e != NULL;
         e = rck_config_next(e)) {
        int d = distance(name, e->name);

        if (d < bestd) {
            bestd = d;
            best = e->name;
        }
    }
    return bestd <= 1 || (bestd == 2 && len >= 6) || bestd * 4 <= len
               ? best
               : NULL;
}

static void unknown_warn(const char *tool, const char *var)
{
    const char *near = nearest(var + 4);

    if (near != NULL)
        fprintf(stderr, "%s: warning: %s is not a setting (ignored); did "
                        "you mean RCK_%s?\n", tool, var, near);
    else
        fprintf(stderr, "%s: warning: %s is not a setting (ignored; see "
                        "'rck config --list')\n", tool, var);
}

int rck_preflight_settings(const char *tool)
{
    int bad = 0;

    for (char **env = environ; *env != NULL; env++) {
        const char *eq = strchr(*env, '=');
        const rck_config_entry_t *e;
        char var[128], why[256];
        size_t len;

        if (strncmp(*env, "RCK_", 4) != 0 || eq == NULL)
            continue;
        len = (size_t)(eq - *env);
        if (len >= sizeof(var))
            continue;
        memcpy(var, *env, len);
        var[len] = '\0';
        e = rck_config_find(var + 4);
        if (e == NULL) {
            if (!not_setting(var))
                unknown_warn(tool, var);
            continue;
        }
        if (rck_config_check(e, eq + 1, why, sizeof(why)) != 0) {
            fprintf(stderr, "%s: %s='%s': %s (see 'rck config --list')\n",
                    tool, var, eq + 1, why);
            bad = 1;
        }
    }
    return bad ? -1 : 0;
}

int rck_preflight_option(const char *tool, const char *option,
                         const char *setting, const char *value)
{
    const rck_config_entry_t *e = rck_config_find(setting);
    char why[256];

    if (e == NULL || rck_config_check(e, value, why, sizeof(why)) == 0)
        return 0;
    fprintf(stderr, "%s: %s '%s': %s\n", tool, option, value, why);
    return -1;
}

static int output_off(const char *path)
{
    return *path == '\0' || !strcasecmp(path, "none") ||
           !strcasecmp(path, "off");
}

/* One output: @p label is how the user named it ("--report", "RCK_..."). */
static int output_check(const char *tool, const char *label,
                        const char *path, int appended)
{
    char copy[PATH_MAX], *dir;
    struct stat sb;
    int rc;

    if (output_off(path))
        return 0;
    if (strlen(path) >= sizeof(copy)) {
        fprintf(stderr, "%s: %s: the path is too long\n", tool, label);
        return -1;
    }
    if (stat(path, &sb) == 0) {
        if (S_ISDIR(sb.st_mode)) {
            fprintf(stderr, "%s: %s '%s': is a directory\n", tool, label,
                    path);
            return -1;
        }
        if (appended && access(path, W_OK) != 0) {
            fprintf(stderr, "%s: %s '%s': %s\n", tool, label, path,
                    strerror(errno));
            return -1;
        }
    }
    strcpy(copy, path);
    dir = dirname(copy);
    rc = stat(dir, &sb);
    if (rc != 0 || !S_ISDIR(sb.st_mode)) {
        fprintf(stderr, "%s: %s '%s': the directory '%s' %s\n", tool, label,
                path, dir,
                rc != 0 && errno == ENOENT ? "does not exist"
                                           : "is not a directory");
        return -1;
    }
    /* reports and traces are written beside, then renamed into place */
    if (access(dir, W_OK | X_OK) != 0) {
        fprintf(stderr, "%s: %s '%s': cannot write in the directory '%s': "
                        "%s\n", tool, label, path, dir, strerror(errno));
        return -1;
    }
    return 0;
}

int rck_preflight_outputs(const char *tool, const rck_preflight_outputs_t *out)
{
    const char *report = rck_config_get("REPORT");
    const char *report_label = out->report != NULL ? "--report" : "RCK_REPORT";

    if (*report == '\0' && out->sim) {
        /* the sim's default report (docs/SIM.md) */
        report = rck_config_get("SIM_REPORT");
        report_label = "RCK_SIM_REPORT";
    }
    if (output_check(tool, report_label, report, 0) != 0 ||
        output_check(tool, out->msglog != NULL ? "--msglog" : "RCK_MSGLOG",
                     rck_config_get("MSGLOG"), 1) != 0)
        return -1;
    if (out->sim &&
        output_check(tool, out->trace != NULL ? "--trace" : "RCK_SIM_TRACE",
                     rck_config_get("SIM_TRACE"), 0) != 0)
        return -1;
#ifndef RCK_HAVE_ZLIB
    if (out->sim) {
        /* a compressed trace needs zlib, which this build does not have */
        const char *t = rck_config_get("SIM_TRACE");
        size_t n = strlen(t);

        if (n > 3 && strcmp(t + n - 3, ".gz") == 0) {
            fprintf(stderr,
                    "%s: %s '%s': a compressed trace (.gz) needs zlib, and "
                    "rockcreek was built without it (install zlib1g-dev and "
                    "configure again), or give a name without .gz\n",
                    tool, out->trace != NULL ? "--trace" : "RCK_SIM_TRACE", t);
            return -1;
        }
    }
#endif
    return 0;
}
