/*
 * `rck report` (report.h): find the rockcreek Python package and exec
 * python3 -m rockcreek.report (its rck-report entry point). The directory
 * that holds the package is looked for, in order, in $RCK_PYTHONDIR, in
 * <rck's directory>/../share/rockcreek/python (the install tree) and in
 * the source tree's python/src (the build tree; RCK_PYTHON_SRC_DIR).
 */
#include "report.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef RCK_PYTHON3
#define RCK_PYTHON3 ""
#endif
#ifndef RCK_PYTHON_SRC_DIR
#define RCK_PYTHON_SRC_DIR ""
#endif

/* @return 1 if @p dir holds the rockcreek package with its report. */
static int has_package(const char *dir)
{
    char path[PATH_MAX];

    if (dir == NULL || *dir == '\0')
        return 0;
    if (snprintf(path, sizeof(path), "%s/rockcreek/report/__main__.py", dir) >=
        (int)sizeof(path))
        return 0;
    return access(path, R_OK) == 0;
}

/* The package's directory into @p out, or -1 (reported). */
static int find_package(char *out, size_t len)
{
    const char *env = getenv("RCK_PYTHONDIR");
    char self[PATH_MAX];
    ssize_t n;

    if (env != NULL && *env != '\0') {
        if (!has_package(env)) {
            fprintf(stderr, "rck report: RCK_PYTHONDIR='%s' has no "
                            "rockcreek package\n", env);
            return -1;
        }
        snprintf(out, len, "%s", env);
        return 0;
    }
    n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    if (n > 0) {
        char *slash;

        self[n] = '\0';
        slash = strrchr(self, '/');
        if (slash != NULL) {
            *slash = '\0';
            if (snprintf(out, len, "%.*s/../share/rockcreek/python",
                         (int)(len - 32), self) < (int)len &&
                has_package(out))
                return 0;
        }
    }
    if (has_package(RCK_PYTHON_SRC_DIR)) {
        snprintf(out, len, "%s", RCK_PYTHON_SRC_DIR);
        return 0;
    }
    fprintf(stderr, "rck report: cannot find the rockcreek Python package "
                    "(looked in <rck>/../share/rockcreek/python and '%s'; "
                    "set RCK_PYTHONDIR)\n", RCK_PYTHON_SRC_DIR);
    return -1;
}

int rck_report_main(int argc, char **argv)
{
    char dir[PATH_MAX], pypath[2 * PATH_MAX];
    const char *old = getenv("PYTHONPATH");
    char **args;

    if (find_package(dir, sizeof(dir)) != 0)
        return 2;
    if (old != NULL && *old != '\0')
        snprintf(pypath, sizeof(pypath), "%s:%s", dir, old);
    else
        snprintf(pypath, sizeof(pypath), "%s", dir);
    if (setenv("PYTHONPATH", pypath, 1) != 0) {
        fprintf(stderr, "rck report: setenv: %s\n", strerror(errno));
        return 2;
    }
    args = calloc((size_t)argc + 4, sizeof(*args));
    if (args == NULL) {
        fprintf(stderr, "rck report: out of memory\n");
        return 2;
    }
    /* the Python 3 found when rockcreek was configured (with matplotlib,
     * scripts/install-deps.sh), not whichever python3 comes first on the
     * user's PATH; if it is gone, PATH's */
    args[0] = RCK_PYTHON3[0] != '\0' && access(RCK_PYTHON3, X_OK) == 0
                  ? RCK_PYTHON3
                  : "python3";
    args[1] = "-m";
    args[2] = "rockcreek.report";
    for (int i = 0; i < argc; i++)
        args[3 + i] = argv[i];
    execvp(args[0], args);
    fprintf(stderr, "rck report: cannot run %s: %s (the report needs "
                    "Python 3 with matplotlib: scripts/install-deps.sh)\n",
            args[0], strerror(errno));
    free(args);
    return 2;
}
