/*
 * The programs the P54C compute model runs: finding an executable, the
 * counter records rckcc compiled into a program or a library
 * (.rck_icount), and a launched script (docs/P54C.md "Programs started by
 * a script"): the launcher cannot read the program a script starts, so
 * the job runs on the compiled engine with the counted libraries this
 * launcher goes with, and each core checks its own program when it
 * attaches (sim_p54c.c, core_init_compiled).
 *
 * Owns: nothing but these lookups. May call: util (ELF, exec). Called by
 * the P54C model (sim_p54c.c) and the compute models (sim_compute.c);
 * it calls neither, so the two form no circle.
 */
#include "sim_state.h"
#include "sim_p54c.h"
#include "p54c_cpi.h"

#include "rck/elf.h"
#include "rck/exec.h"
#include "rck/log.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* @p name, searched in PATH unless it has a slash, as an absolute path in
 * @p out. @return 0 or -1. */
int sim_p54c_find_exec(const char *name, char *out, size_t len)
{
    char found[PATH_MAX], real[PATH_MAX];

    if (rck_exec_find(name, found, sizeof(found)) != 0 ||
        realpath(found, real) == NULL || strlen(real) >= len)
        return -1;
    snprintf(out, len, "%s", real);
    return 0;
}

/* The .rck_icount records of the ELF file @p path: n[0] the program's own
 * (P54C_CTR_MAGIC), n[1] the libraries' (P54C_CTR_MAGIC_LIB), n[2] those
 * with another magic or a table other than @p want (P54C_NCLASS units; the
 * default table if NULL), n[3] those of the program's own code whose
 * memory accesses are instrumented (P54C_CTR_FLAG_MEM). All 0 when the
 * file or its section cannot be read. */
void sim_p54c_ctr_records(const char *path, const uint32_t *want, int n[4])
{
    uint32_t def[P54C_NCLASS];
    rck_elf_t *e = NULL;
    const unsigned char *sec;
    size_t len = 0;

    n[0] = n[1] = n[2] = n[3] = 0;
    if (want == NULL) {
        p54c_default_units(def);
        want = def;
    }
    if (rck_elf_load(path, &e, NULL, 0) != 0)
        return;
    sec = rck_elf_section(e, P54C_CTR_SECTION, &len);
    for (size_t off = 0; sec != NULL && len % P54C_CTR_REC == 0 && off < len;
         off += P54C_CTR_REC) {
        uint64_t magic;
        uint32_t units[P54C_NCLASS], flags;
        memcpy(&magic, sec + off, sizeof(magic));
        memcpy(units, sec + off + sizeof(magic), sizeof(units));
        memcpy(&flags, sec + off + P54C_CTR_FLAGS_OFF, sizeof(flags));
        n[3] += magic == P54C_CTR_MAGIC && (flags & P54C_CTR_FLAG_MEM) != 0;
        n[0] += magic == P54C_CTR_MAGIC;
        n[1] += magic == P54C_CTR_MAGIC_LIB;
        n[2] += (magic != P54C_CTR_MAGIC && magic != P54C_CTR_MAGIC_LIB) ||
                memcmp(units, want, sizeof(units)) != 0;
    }
    rck_elf_free(e);
}

/* Does @p dir hold counted libraries that carry the default CPI table
 * (built by this rockcreek, not another version's)? */
int sim_p54c_counted_dir_ok(const char *dir)
{
    char f[PATH_MAX];
    int n[4];

    if (snprintf(f, sizeof(f), "%s/librockcreek.so.0", dir) >= (int)sizeof(f))
        return 0;
    sim_p54c_ctr_records(f, NULL, n);
    return n[1] > 0 && n[0] == 0 && n[2] == 0;
}

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
