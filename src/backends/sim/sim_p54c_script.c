/*
 * The P54C compute model for a launched script (docs/P54C.md "Programs
 * started by a script"): the launcher cannot read the program a script
 * starts, so the job runs on the compiled engine with the counted
 * libraries this launcher goes with, and each core checks its own program
 * when it attaches (sim_p54c.c, core_init_compiled).
 */
#include "sim_state.h"
#include "sim_p54c.h"

#include "rck/log.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Is @p program a script ("#!")? Its interpreter starts the program that
 * calls the HAL, which the launcher cannot read. */
int sim_p54c_is_script(const char *program)
{
    char path[PATH_MAX], head[2];
    int fd, n;

    if (program == NULL || sim_p54c_find_exec(program, path, sizeof(path)) != 0)
        return 0;
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    n = (int)read(fd, head, sizeof(head));
    close(fd);
    return n == 2 && head[0] == '#' && head[1] == '!';
}

/* The counted libraries beside the librockcreek this launcher runs (for a
 * script, whose program the launcher cannot read), else the installed
 * ones. @return 0 or -1. */
static int counted_libdir_own(char *out, size_t len)
{
    Dl_info info;
    char dir[PATH_MAX];

    if (dladdr((void *)counted_libdir_own, &info) != 0 &&
        info.dli_fname != NULL && realpath(info.dli_fname, dir) != NULL &&
        strrchr(dir, '/') != NULL) {
        *strrchr(dir, '/') = '\0';
        if (snprintf(out, len, "%s/rockcreek/counted", dir) < (int)len &&
            sim_p54c_counted_dir_ok(out))
            return 0;
    }
    /* a launcher linked statically: the build tree's when it runs from
     * there */
    if (realpath("/proc/self/exe", dir) != NULL &&
        strncmp(dir, RCK_BUILD_DIR "/", strlen(RCK_BUILD_DIR) + 1) == 0 &&
        snprintf(out, len, "%s/rockcreek/counted", RCK_BUILD_DIR) < (int)len &&
        sim_p54c_counted_dir_ok(out))
        return 0;
    snprintf(out, len, "%s", RCK_COUNTED_LIBDIR_INSTALL);
    return out[0] != '\0' && sim_p54c_counted_dir_ok(out) ? 0 : -1;
}

/* The launched file is a script (docs/P54C.md "Programs started by a
 * script"): the compiled engine, with the counted libraries this launcher
 * goes with; each core checks the program it runs when it attaches. */
rck_status_t sim_p54c_engine_script(sim_p54c_job_t *p, const char *e,
                                    const char *program)
{
    if (!strcmp(e, "qemu")) {
        rck_error("RCK_P54C_ENGINE=qemu: '%s' is a script, and QEMU runs "
                  "the ELF program it is given (the script's own commands "
                  "would be counted, not the program it starts): launch the "
                  "program itself, or use the compiled engine",
                  program);
        return RCK_ERR_CONFIG;
    }
    p->engine = P54C_ENGINE_COMPILED;
    p->from_script = 1;
    p->libdir[0] = '\0';
    if (sim_p54c_find_exec(program, p->program, sizeof(p->program)) != 0) {
        rck_error("cannot execute '%s': not an executable file (in PATH)",
                  program);
        return RCK_ERR_CONFIG;
    }
    if (counted_libdir_own(p->libdir, sizeof(p->libdir)) != 0) {
        p->libdir[0] = '\0';
        rck_warn("p54c-fast: the counted copies of rockcreek's libraries "
                 "were not found beside this rck's librockcreek or "
                 "installed: the work of RCCE and the other libraries in "
                 "the program '%s' starts is not counted",
                 program);
    }
    return RCK_OK;
}
