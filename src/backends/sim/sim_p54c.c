/*
 * The P54C compute model (RCK_COMPUTE=p54c and p54c-fast; docs/P54C.md).
 *
 * Every core's program runs under qemu-x86_64 with our TCG plugin
 * (qemu/p54c_plugin.c), which counts the program's instructions and their
 * cycles from a CPI table per instruction class and, in the detailed mode
 * (p54c), runs every load, store and instruction fetch through a model of
 * the P54C's L1 caches and the unified L2. It writes into the core's slot
 * (p54c_abi.h) of a memory file the launcher creates here, and the core's
 * HAL reads the slot at every call:
 *
 *   launcher  sim_p54c_configure (RCK_COMPUTE, paths), sim_p54c_job_create
 *             (slots and their configuration), sim_p54c_child_wrap (the
 *             command line each core runs under), the report's figures;
 *   core      sim_p54c_core_init (map the slot, check the plugin is
 *             there), sim_p54c_take / sim_p54c_mark at HAL entry and exit
 *             (the compute since the last call, and its DRAM transactions
 *             timed through the mesh and memory-controller model), the
 *             performance counters.
 */
#include "sim_p54c.h"
#include "sim_state.h"
#include "sim_engine.h"
#include "sim_l1.h"
#include "sim_cost.h"
#include "sim_p54c_mem.h"
#include "sim_p54c_skip.h"
#include "sim_stack.h"
#include "p54c_cpi.h"
#include "sim_charge.h"

#include "rck/config.h"
#include "rck/elf.h"
#include "rck/exec.h"
#include "rck/json.h"
#include "rck/log.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef RCK_P54C_PLUGIN_BUILD
#define RCK_P54C_PLUGIN_BUILD ""
#endif
#ifndef RCK_P54C_PLUGIN_INSTALL
#define RCK_P54C_PLUGIN_INSTALL ""
#endif
#ifndef RCK_COUNTED_LIBDIR_INSTALL
#define RCK_COUNTED_LIBDIR_INSTALL ""
#endif

const char *sim_p54c_class_name(int c)
{
    return c >= 0 && c < P54C_NCLASS ? p54c_cpi_default[c].key : "?";
}

/* ---- launcher ---- */

static p54c_slot_t *launcher_slots; /* the launcher's map of the slots */
static size_t launcher_bytes;

static int plugin_find(char *out, size_t len)
{
    const char *set = rck_config_get("P54C_PLUGIN");
    const char *cands[] = {RCK_P54C_PLUGIN_BUILD, RCK_P54C_PLUGIN_INSTALL};

    if (*set != '\0') {
        if (access(set, R_OK) != 0 || realpath(set, out) == NULL) {
            rck_error("RCK_P54C_PLUGIN=%s: cannot read it: %s", set,
                      strerror(errno));
            return -1;
        }
        return 0;
    }
    for (size_t i = 0; i < sizeof(cands) / sizeof(cands[0]); i++) {
        if (cands[i][0] != '\0' && access(cands[i], R_OK) == 0 &&
            strlen(cands[i]) < len) {
            snprintf(out, len, "%s", cands[i]);
            return 0;
        }
    }
    rck_error("the P54C compute model's QEMU plugin (librck_p54c.so) was not "
              "built (it needs QEMU's plugin header and glib: run "
              "scripts/install-deps.sh, then reconfigure) and "
              "RCK_P54C_PLUGIN does not name one");
    return -1;
}

/* Is the model usable here (for the default)? Quiet. */
int sim_p54c_available(void)
{
    char q[SIM_P54C_PATH];
    const char *cands[] = {RCK_P54C_PLUGIN_BUILD, RCK_P54C_PLUGIN_INSTALL};
    const char *set = rck_config_get("P54C_PLUGIN");
    int plugin = *set != '\0' && access(set, R_OK) == 0;

    for (size_t i = 0; i < 2 && !plugin; i++)
        plugin = cands[i][0] != '\0' && access(cands[i], R_OK) == 0;
    return plugin &&
           sim_p54c_find_exec(rck_config_get("P54C_QEMU"), q, sizeof(q)) == 0;
}

/* RCK_P54C_ORDER: off, or the cycles (of the chip's base clock) a core
 * may book ahead. */
static rck_status_t p54c_order_setting(sim_p54c_job_t *p)
{
    const char *v = rck_config_get("P54C_ORDER");
    char *end;
    double cyc;

    if (v != NULL && *v == '\0') {
        rck_error("RCK_P54C_ORDER is empty: expected off or a number of "
                  "cycles (0 = exact order)");
        return RCK_ERR_CONFIG;
    }
    p->book_others = 0;
    if (v == NULL || !strcmp(v, "off")) {
        p->order = 0;
        p->order_window = 0;
        return RCK_OK;
    }
    cyc = strtod(v, &end);
    if (*end != '\0' || !(cyc >= 0) || cyc > 1e12) {
        rck_error("RCK_P54C_ORDER='%s': expected off or a number of "
                  "cycles (0 = exact order)", v);
        return RCK_ERR_CONFIG;
    }
    p->order = 1;
    p->order_window = sim_ticks(cyc);
    p->book_others = rck_config_get_bool("P54C_BOOK_OTHERS") != 0;
    return RCK_OK;
}

/* QEMU and the plugin, for the QEMU engine. */
static rck_status_t qemu_paths(sim_p54c_job_t *p, const char *spec)
{
    const char *qemu = rck_config_get("P54C_QEMU");

    if (sim_p54c_find_exec(qemu, p->qemu, sizeof(p->qemu)) != 0) {
        rck_error("RCK_COMPUTE=%s needs QEMU's user-mode emulator, but "
                  "RCK_P54C_QEMU='%s' is not an executable program here "
                  "(install qemu-user: scripts/install-deps.sh)",
                  spec, qemu);
        return RCK_ERR_CONFIG;
    }
    return plugin_find(p->plugin, sizeof(p->plugin)) != 0 ? RCK_ERR_CONFIG
                                                           : RCK_OK;
}



/* The counted copies of the libraries above the HAL that go with
 * @p program (an absolute path): rockcreek/counted/ beside the
 * librockcreek its run path names (the build tree and an installation
 * have the same layout), else the installation's. @return 0 or -1. */
static int counted_libdir(const char *program, char *out, size_t len)
{
    rck_elf_t *e = NULL;
    const unsigned char *dyn, *str;
    size_t dlen = 0, slen = 0;
    int found = -1;

    if (rck_elf_load(program, &e, NULL, 0) == 0 &&
        (dyn = rck_elf_section(e, ".dynamic", &dlen)) != NULL &&
        (str = rck_elf_section(e, ".dynstr", &slen)) != NULL) {
        for (size_t off = 0; off + 16 <= dlen && found != 0; off += 16) {
            int64_t tag;
            uint64_t val;
            memcpy(&tag, dyn + off, 8);
            memcpy(&val, dyn + off + 8, 8);
            /* DT_RUNPATH only: LD_LIBRARY_PATH does not override an old
             * DT_RPATH, which would load the uncounted libraries */
            if (tag != 29 /* DT_RUNPATH */ || val >= slen ||
                memchr(str + val, 0, slen - val) == NULL)
                continue;
            char paths[PATH_MAX], *save = NULL;
            snprintf(paths, sizeof(paths), "%s", (const char *)str + val);
            for (char *p = strtok_r(paths, ":", &save); p != NULL;
                 p = strtok_r(NULL, ":", &save)) {
                if (strstr(p, "$ORIGIN") != NULL)
                    continue; /* not expanded: programs built by rckcc
                                 name the library directory itself */
                if (snprintf(out, len, "%s/rockcreek/counted", p) <
                        (int)len &&
                    sim_p54c_counted_dir_ok(out)) {
                    found = 0;
                    break;
                }
            }
        }
    }
    rck_elf_free(e);
    if (found == 0)
        return 0;
    snprintf(out, len, "%s", RCK_COUNTED_LIBDIR_INSTALL);
    return out[0] != '\0' && sim_p54c_counted_dir_ok(out) ? 0 : -1;
}

/* A counted program under QEMU runs with the counted copies of the
 * libraries too, as on the compiled engine: both engines then run the
 * same library code (which QEMU counts without the counters' own adds),
 * built without link-time optimisation, so that none of the HAL is
 * inlined into a library (docs/P54C.md, "What QEMU counts"). Quiet: a
 * program without them runs with the libraries it finds. */
static void qemu_libdir(sim_p54c_job_t *p, const char *program, int counted)
{
    p->libdir[0] = '\0';
    if (counted < 1 ||
        sim_p54c_find_exec(program, p->program, sizeof(p->program)) != 0 ||
        counted_libdir(p->program, p->libdir, sizeof(p->libdir)) != 0)
        p->libdir[0] = '\0';
}

/* RCK_P54C_ENGINE and the program: who counts (docs/P54C.md, "Compiled
 * counters"). The chip's CPI table is checked in sim_p54c_job_create. */
static rck_status_t engine_choose(sim_p54c_job_t *p, const char *program)
{
    const char *e = rck_config_get("P54C_ENGINE");
    int counted;

    p->engine_forced = 0;
    if (!strcmp(e, "compiled")) {
        p->engine_forced = 1;
    } else if (strcmp(e, "qemu") != 0 && strcmp(e, "auto") != 0) {
        rck_error("RCK_P54C_ENGINE='%s': expected auto, compiled or qemu", e);
        return RCK_ERR_CONFIG;
    }
    p->engine = P54C_ENGINE_QEMU;
    p->libdir[0] = '\0';
    if (sim_p54c_is_script(program))
        return sim_p54c_engine_script(p, e, program);
    /* RCK_COMPUTE=auto chose this model because the program is counted:
     * no second read of its ELF file */
    counted = p->from_auto ? (int)p->from_auto
                           : sim_p54c_counted(program, NULL);
    if (!strcmp(e, "qemu")) {
        qemu_libdir(p, program, counted);
        return RCK_OK;
    }
    /* the caches need the memory checks (rckcc -rck-mem) */
    if (p->detailed && counted != 2) {
        qemu_libdir(p, program, counted);
        if (p->engine_forced) {
            rck_error("RCK_P54C_ENGINE=compiled: '%s' does not check its "
                      "memory accesses, which the caches of RCK_COMPUTE=p54c "
                      "need on the compiled engine: build it with rckcc "
                      "-rck-mem (or use the QEMU engine)",
                      program ? program : "?");
            return RCK_ERR_CONFIG;
        }
        return RCK_OK;
    }
    if (counted == 2)
        counted = 1; /* counted, with checks as well */
    if (counted == 1) {
        p->engine = P54C_ENGINE_COMPILED;
        p->libdir[0] = '\0';
        if (sim_p54c_find_exec(program, p->program, sizeof(p->program)) != 0 ||
            counted_libdir(p->program, p->libdir, sizeof(p->libdir)) != 0) {
            p->libdir[0] = '\0';
            rck_warn("p54c-fast: the counted copies of rockcreek's "
                     "libraries (rockcreek/counted/ beside librockcreek, "
                     "found through the program's DT_RUNPATH, else "
                     "installed) were not found: the work of RCCE and the other "
                     "libraries in '%s' is not counted",
                     program);
        }
    } else if (p->engine_forced) {
        rck_error("RCK_P54C_ENGINE=compiled: '%s' %s", program ? program : "?",
                  counted < 0 ? "was built by another rockcreek (its counters "
                                "use another CPI table): rebuild it with rckcc"
                              : "has no compiled counters: build it with "
                                "rckcc (without RCKCC_COUNT=0)");
        return RCK_ERR_CONFIG;
    }
    return RCK_OK;
}

/* The compiled counters were built with the default CPI table: under a
 * chip file's own table the QEMU engine counts (or, forced, an error;
 * chosen by RCK_COMPUTE=auto, the host model). */
static rck_status_t engine_check_cpi(sim_hdr_t *h, sim_p54c_job_t *p)
{
    uint32_t def[P54C_NCLASS];
    int same = 1;

    if (p->engine != P54C_ENGINE_COMPILED)
        return RCK_OK;
    p54c_default_units(def);
    for (int k = 0; k < P54C_NCLASS; k++)
        same &= p54c_units_of(p->cpi[k]) == def[k];
    if (same)
        return RCK_OK;
    if (p->from_auto) {
        rck_warn("the chip file's p54c.cpi table differs from the one the "
                 "program's compiled counters carry: compute model host "
                 "(RCK_COMPUTE=p54c-fast counts the program under QEMU)");
        h->compute = COMPUTE_HOST;
        return RCK_OK;
    }
    if (p->engine_forced) {
        rck_error("RCK_P54C_ENGINE=compiled: the chip file's p54c.cpi table "
                  "differs from the one the program's counters were built "
                  "with (docs/P54C.md); use RCK_P54C_ENGINE=qemu");
        return RCK_ERR_CONFIG;
    }
    p->engine = P54C_ENGINE_QEMU;
    return qemu_paths(p, p->detailed ? "p54c" : "p54c-fast");
}

rck_status_t sim_p54c_configure(sim_hdr_t *h, const char *spec,
                                const char *program)
{
    sim_p54c_job_t *p = &h->p54c;

    p->fd = -1;
    if (p54c_order_setting(p) != RCK_OK)
        return RCK_ERR_CONFIG;
    if (!strcmp(spec, "p54c")) {
        p->detailed = 1;
        h->compute = COMPUTE_P54C;
    } else if (!strcmp(spec, "p54c-fast")) {
        p->detailed = 0;
        h->compute = COMPUTE_P54C_FAST;
    } else {
        rck_error("RCK_COMPUTE='%s': the P54C models are p54c and p54c-fast",
                  spec);
        return RCK_ERR_CONFIG;
    }
    if (engine_choose(p, program) != RCK_OK)
        return RCK_ERR_CONFIG;
    /* the compiled engine needs no QEMU (sim_p54c_job_create falls back
     * to it under a chip file's own CPI table) */
    return p->engine == P54C_ENGINE_QEMU ? qemu_paths(p, spec) : RCK_OK;
}

rck_status_t sim_p54c_job_create(sim_hdr_t *h)
{
    sim_p54c_job_t *p = &h->p54c;
    const rck_chip_t *c = &h->chip;
    size_t bytes;
    void *map;
    int fd;
    rck_status_t st;

    if (h->compute != COMPUTE_P54C && h->compute != COMPUTE_P54C_FAST) {
        p->fd = -1;
        return RCK_OK;
    }
    p->l1d_bytes = c->l1d_bytes;
    p->l1i_bytes = c->l1d_bytes;
    p->l2_bytes = c->l2_bytes;
    st = sim_p54c_chip_section(p, c); /* the CPI table, ways, L1I */
    if (st == RCK_OK)
        st = engine_check_cpi(h, p);
    if (st != RCK_OK)
        return st;
    if (h->compute == COMPUTE_HOST) /* auto, under another CPI table */
        return RCK_OK;
    if (c->nmc < 1 || c->nmc > P54C_MAX_MC || c->line_bytes == 0 ||
        p->l1d_bytes % (p->l1_ways * c->line_bytes) != 0 ||
        p->l1i_bytes % (p->l1_ways * c->line_bytes) != 0 ||
        p->l2_bytes % (p->l2_ways * c->line_bytes) != 0) {
        rck_error("RCK_COMPUTE=p54c: the caches (L1 %u/%u bytes, %u ways; "
                  "L2 %u bytes, %u ways; %u-byte lines) or the %d memory "
                  "controllers do not fit the model",
                  p->l1i_bytes, p->l1d_bytes, p->l1_ways, p->l2_bytes,
                  p->l2_ways, c->line_bytes, c->nmc);
        return RCK_ERR_CONFIG;
    }
    p->slot_bytes = (sizeof(p54c_slot_t) + 4095) / 4096 * 4096;
    bytes = p->slot_bytes * h->nues;
    fd = memfd_create("rockcreek-p54c", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, (off_t)bytes) != 0) {
        rck_error("RCK_COMPUTE=p54c: cannot create the counters' memory: %s",
                  strerror(errno));
        if (fd >= 0)
            close(fd);
        return RCK_ERR_IO;
    }
    map = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED) {
        rck_error("RCK_COMPUTE=p54c: cannot map the counters' memory: %s",
                  strerror(errno));
        close(fd);
        return RCK_ERR_IO;
    }
    for (uint32_t u = 0; u < h->nues; u++) {
        p54c_slot_t *s = (p54c_slot_t *)((char *)map + u * p->slot_bytes);
        s->detailed = p->detailed;
        s->engine = p->engine;
        s->line_bytes = c->line_bytes;
        s->l1i_bytes = p->l1i_bytes;
        s->l1d_bytes = p->l1d_bytes;
        s->l1_ways = p->l1_ways;
        s->l2_bytes = p->l2_bytes;
        s->l2_ways = p->l2_ways;
        s->nmc = (uint32_t)c->nmc;
        s->home_mc = (uint32_t)sim_mc_nearest(c, h->ue_core[u]);
        for (int k = 0; k < P54C_NCLASS; k++)
            s->cpi[k] = p54c_units_of(p->cpi[k]);
        s->l2_fill = p54c_units_of((double)sim_cost_l2_fill(c, c->default_fdiv) /
                              SIM_TICKS);
        s->l2_store = p54c_units_of((double)sim_cost_l2_write(c, c->default_fdiv) /
                               SIM_TICKS);
        /* The caches are modelled from the end of the core's attach:
         * before it the program starts (not charged) and the HAL's attach
         * waits for the others a number of rounds that depends on host
         * timing; modelled, those waits left the caches in a different
         * state run after run (docs/P54C.md, "Determinism"). */
        s->in_hal = 1;
        s->magic = P54C_ABI_MAGIC;
    }
    p->fd = fd;
    /* program code runs 10-50 times slower under the instrumentation: the
     * watchdog's seconds of host time count ten times (docs/P54C.md) */
    if (p->engine == P54C_ENGINE_QEMU && h->watchdog_s > 0 &&
        h->watchdog_s < INT32_MAX / 10)
        h->watchdog_s *= 10;
    launcher_slots = map;
    launcher_bytes = bytes;
    return RCK_OK;
}

void sim_p54c_job_destroy(sim_hdr_t *h)
{
    if (h->p54c.fd < 0)
        return;
    if (launcher_slots != NULL)
        munmap(launcher_slots, launcher_bytes);
    launcher_slots = NULL;
    close(h->p54c.fd);
    h->p54c.fd = -1;
}

/* In the child of UE @p ue: the command line that runs @p argv under
 * qemu-x86_64 with the plugin, or NULL when the model is off. */
char **sim_p54c_child_wrap(sim_hdr_t *h, int ue, char *const *argv)
{
    sim_p54c_job_t *p = &h->p54c;
    char prog[PATH_MAX], arg[SIM_P54C_PATH + 64];
    size_t n = 0;
    char **v;
    int fl;

    if (p->fd < 0)
        return NULL;
    /* The same addresses in every run: code paths (memcpy's alignment
     * cases, malloc's) and so the counts depend on them. */
    {
        int pers = personality(0xffffffff);
        if (pers != -1)
            personality((unsigned long)pers | ADDR_NO_RANDOMIZE);
    }
    fl = fcntl(p->fd, F_GETFD);
    if (fl < 0 || fcntl(p->fd, F_SETFD, fl & ~FD_CLOEXEC) < 0) {
        rck_error("UE %d: cannot pass the P54C counters' memory file to the "
                  "core: %s", ue, strerror(errno));
        _exit(127);
    }
    /* the counted copies of the libraries first in the program's search
     * path (on either engine: engine_choose) */
    {
        if (p->libdir[0] != '\0') {
            const char *old = getenv("LD_LIBRARY_PATH");
            size_t len = strlen(p->libdir) + (old ? strlen(old) : 0) + 2;
            char *lp = malloc(len);
            if (lp == NULL) {
                rck_error("UE %d: out of memory", ue);
                _exit(127);
            }
            snprintf(lp, len, "%s%s%s", p->libdir,
                     old != NULL && *old != '\0' ? ":" : "",
                     old != NULL ? old : "");
            setenv("LD_LIBRARY_PATH", lp, 1);
            free(lp);
        }
    }
    /* the compiled engine: the program runs natively and counts itself;
     * the HAL maps the slot from the inherited memory file */
    if (p->engine == P54C_ENGINE_COMPILED)
        return NULL;
    while (argv[n] != NULL)
        n++;
    /* qemu opens the program by its path: resolve it as execvp would */
    if (sim_p54c_find_exec(argv[0], prog, sizeof(prog)) != 0) {
        rck_error("cannot execute '%s': not an executable file (in PATH)",
                  argv[0]);
        return NULL;
    }
    /* Every symbol bound at load time: lazy binding runs the dynamic
     * linker at a function's first call, which falls in the program's
     * code or in the HAL's depending on which runs it first, and that
     * depends on timing (whether a core slept for the token). */
    if (setenv("LD_BIND_NOW", "1", 1) != 0)
        return NULL;
    snprintf(arg, sizeof(arg), "%s,fd=%d,off=%" PRIu64, p->plugin, p->fd,
             (uint64_t)ue * p->slot_bytes);
    v = calloc(n + 8, sizeof(*v));
    if (v == NULL)
        return NULL;
    v[0] = p->qemu;
    v[1] = "-plugin";
    v[2] = strdup(arg);
    v[3] = "-0";
    v[4] = argv[0];
    v[5] = strdup(prog);
    for (size_t i = 1; i < n; i++)
        v[5 + i] = argv[i];
    v[5 + n] = NULL;
    if (v[2] == NULL || v[5] == NULL)
        return NULL;
    return v;
}

const char *sim_p54c_engine_name(const sim_hdr_t *h)
{
    return h->p54c.engine == P54C_ENGINE_COMPILED ? "compiled"
                                                  : "qemu";
}

/* The launcher's view of core @p ue's slot (NULL before the job or
 * without a P54C model): for the report and the summary. */
const p54c_slot_t *sim_p54c_report_slot(sim_hdr_t *h, uint32_t ue)
{
    if (launcher_slots == NULL || h->p54c.fd < 0 || ue >= h->nues)
        return NULL;
    return (const p54c_slot_t *)((const char *)launcher_slots +
                                 ue * h->p54c.slot_bytes);
}

/* ---- compiled counters (docs/P54C.md, "Compiled counters") ---- */

int sim_p54c_counted(const char *program, const uint32_t *cpi_units)
{
    char path[PATH_MAX];
    int n[4];

    if (program == NULL || sim_p54c_find_exec(program, path, sizeof(path)) != 0)
        return 0;
    sim_p54c_ctr_records(path, cpi_units, n);
    /* the memory model needs every object of the program's own checked */
    if (n[0] > 0 && n[2] == 0 && n[3] == n[0])
        return 2;
    /* counted if the program's own code has records (not only the
     * libraries linked into it statically), all of the same table */
    return n[0] == 0 ? 0 : n[2] ? -1 : 1;
}

/* The page the compiled counters add to, mapped when this library loads:
 * before the program's code runs (libraries' constructors run first) and,
 * by its priority, before any other constructor linked with it (the
 * counted libraries' own, in a static link). */
static volatile uint64_t *ctr_page;
static const char *ctr_page_why = "not mapped";

__attribute__((constructor(101))) static void ctr_page_map(void)
{
    void *want = (void *)(uintptr_t)P54C_CTR_ADDR;
    /* a hint, not MAP_FIXED: whatever is there stays (QEMU honours hints) */
    size_t len = (size_t)P54C_CTR_PAGES * 4096;
    void *m = mmap(want, len, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

    if (m == want) {
        char why[768];
        /* a checked module built for another page layout would jump
         * through words this library never set: stop before it runs */
        if (sim_p54c_layout_check(why, sizeof(why)) != 0) {
            fprintf(stderr, "rockcreek: %s\n", why);
            _exit(127);
        }
        ctr_page = m;
        ctr_page[P54C_CTR_MAGIC_OFF / 8] = P54C_CTR_MAGIC;
        sim_p54c_mem_page_init(ctr_page);
        return;
    }
    if (m != MAP_FAILED)
        munmap(m, len);
    ctr_page_why = m == MAP_FAILED ? "mmap failed" : "the address is taken";
    if (sim_p54c_counted("/proc/self/exe", NULL) != 0) {
        /* its first block would write to whatever is there */
        fprintf(stderr,
                "rockcreek: this program counts its instructions (built by "
                "rckcc) into a page at %#llx, which cannot be mapped (%s); "
                "rebuild it with RCKCC_COUNT=0\n",
                (unsigned long long)P54C_CTR_ADDR, ctr_page_why);
        _exit(127);
    }
}

/* ---- core ---- */

/* The gate: the plugin runs sim_p54c_book natively when this function's
 * first block executes (and counts the call in slot->gate_done); its body
 * does nothing. */
__attribute__((noinline)) static void p54c_gate(void)
{
    __asm__ volatile("" ::: "memory");
}

/* RCK_P54C_NATIVE=0 books the detailed mode's DRAM transactions in the
 * HAL under QEMU instead of natively in the plugin (a check; slower). */
static int p54c_native_wanted(void)
{
    return rck_config_get_bool("P54C_NATIVE");
}

static void slot_regions(sim_t *s, p54c_slot_t *slot);

/* The compiled engine: the program adds to the counter page this library
 * mapped at load (ctr_page_map); the slot keeps the report's figures. */
static rck_status_t core_init_compiled(sim_t *s, p54c_slot_t *slot)
{
    const volatile uint64_t *page = ctr_page;

    if (page == NULL || page[P54C_CTR_MAGIC_OFF / 8] != P54C_CTR_MAGIC) {
        rck_error("RCK_COMPUTE=p54c-fast: the compiled counters' page at "
                  "%#llx is not mapped in this core (%s); its instructions "
                  "cannot be counted",
                  (unsigned long long)P54C_CTR_ADDR, ctr_page_why);
        munmap(slot, s->hdr->p54c.slot_bytes);
        return RCK_ERR_CONFIG;
    }
    /* the engine was chosen for the job's program; a core may run another
     * (rck_hal_spawn, MPI_Comm_spawn), which must count itself too */
    char self[PATH_MAX];
    int own = realpath("/proc/self/exe", self) != NULL &&
              strcmp(self, s->hdr->p54c.program) == 0;
    int counted = own ? 1 : sim_p54c_counted("/proc/self/exe", slot->cpi);
    if (!own && s->hdr->p54c.from_script &&
        (counted < 1 || (slot->detailed && counted != 2))) {
        sim_hdr_t *h = s->hdr;
        if (h->p54c.from_auto && counted < 1) {
            /* RCK_COMPUTE=auto: the program the script started has no
             * counters, so this core uses the host model */
            if (__atomic_fetch_add(&h->p54c.script_host, 1,
                                   __ATOMIC_RELAXED) == 0)
                rck_warn("RCK_COMPUTE=auto: '%s' (started by the script "
                         "'%s') has no compiled counters: the host compute "
                         "model (build it with rckcc to count it)",
                         self, h->p54c.program);
            munmap(slot, h->p54c.slot_bytes);
            s->compute = COMPUTE_HOST;
            return RCK_OK;
        }
        rck_error("RCK_COMPUTE=%s: UE %d runs '%s' (started by the script "
                  "'%s'), which %s",
                  slot->detailed ? "p54c" : "p54c-fast", s->ue, self,
                  h->p54c.program,
                  counted < 0   ? "was built by another rockcreek (another "
                                  "CPI table): rebuild it with rckcc"
                  : counted < 1 ? "has no compiled counters: build it with "
                                  "rckcc"
                                : "does not check its memory accesses, which "
                                  "the caches of RCK_COMPUTE=p54c need: "
                                  "build it with rckcc -rck-mem");
        munmap(slot, h->p54c.slot_bytes);
        return RCK_ERR_CONFIG;
    }
    if (!own && counted < 1) {
        rck_error("RCK_COMPUTE=p54c-fast: UE %d runs a program without "
                  "compiled counters (or built with another CPI table) in a "
                  "job on the compiled engine; build it with rckcc too, or "
                  "use RCK_P54C_ENGINE=qemu",
                  s->ue);
        munmap(slot, s->hdr->p54c.slot_bytes);
        return RCK_ERR_CONFIG;
    }
    /* the counted copies of the libraries must be the ones loaded (a
     * program with an old DT_RPATH gets the run path's instead) */
    {
        Dl_info info;
        const char *dir = s->hdr->p54c.libdir;
        if (s->ue == 0 && dir[0] != '\0' &&
            dladdr((void *)ctr_page_map, &info) != 0 &&
            info.dli_fname != NULL && strstr(info.dli_fname, ".so") != NULL &&
            strncmp(info.dli_fname, dir, strlen(dir)) != 0)
            rck_warn("p54c-fast: the program loaded %s, not the counted copy "
                     "in %s: the libraries' work is not counted (a DT_RPATH "
                     "run path? rebuild with rckcc)",
                     info.dli_fname, dir);
    }
    slot->plugin = 0;
    if (slot->detailed) {
        /* the caches, driven by the program's own checks */
        slot_regions(s, slot);
        if (sim_p54c_mem_attach(slot) != 0) {
            rck_error("RCK_COMPUTE=p54c: the compiled memory model cannot "
                      "start in this core (a line size other than 32 bytes, "
                      "or no memory for the caches)");
            munmap(slot, s->hdr->p54c.slot_bytes);
            return RCK_ERR_CONFIG;
        }
    }
    s->p54c.slot = slot;
    s->p54c.carry = 0;
    s->p54c.insns = page + P54C_CTR_INSNS_OFF / 8;
    s->p54c.units = page + P54C_CTR_UNITS_OFF / 8;
    s->p54c.mark_insns = *s->p54c.insns;
    s->p54c.mark_units = *s->p54c.units;
    return RCK_OK;
}

/* The regions the caches see, from the core's mappings, and the counts
 * from zero: what ran before the core attached (the loader, constructors)
 * is not charged, its transactions are dropped. */
static void slot_regions(sim_t *s, p54c_slot_t *slot)
{
    /* shared DRAM through plain pointers: uncached DWORDs; MPBs through
     * mpb_map pointers: not modelled (as without the model) */
    slot->shm_base = (uint64_t)(uintptr_t)s->shm;
    slot->shm_len = s->hdr->shm_bytes;
    slot->mpb_base = (uint64_t)(uintptr_t)s->mpb;
    slot->mpb_len = (uint64_t)s->chip->mpb_bytes * (uint64_t)s->chip->ncores;
    s->p54c.pend->port.rd_next = 0;
    s->p54c.pend->port.wr_next = 0;
    s->p54c.pend->port.wr_done = 0;
    slot->tail = slot->head;
    memset(slot->lost, 0, sizeof(slot->lost));
    slot->l1d_reads = slot->l1d_writes = slot->l1d_misses = 0;
    slot->l1i_misses = slot->l2_hits = slot->l2_misses = 0;
    slot->l2_writebacks = slot->write_arounds = slot->shm_accesses = 0;
    slot->merged_stores = 0;
}

static int p54c_book_step(sim_t *s, int ue, uint64_t hz_vt, int hz_ue);
static rck_status_t core_init(sim_t *s);

/* Every core's slot at SIM_P54C_SLOTS_ADDR, so that this core can book
 * for a core stopped in time order (p54c_book_step). A fixed address
 * away from the program's: the program's own mappings stay where they
 * were (its addresses are the caches' addresses). Without it (the
 * address taken, RCK_P54C_BOOK_OTHERS=0), this core hands the token to a
 * stopped core instead: the same answers. */
static void p54c_map_all(sim_t *s)
{
    const sim_p54c_job_t *p = &s->hdr->p54c;
    uint64_t bytes = p->slot_bytes * (uint64_t)s->hdr->nues;
    void *want = (void *)SIM_P54C_SLOTS_ADDR, *m;

    s->p54c.all_slots = NULL;
    if (!p->detailed || !p->order || !p->book_others || s->p54c.slot == NULL ||
        bytes == 0 || bytes > SIM_P54C_SLOTS_MAX)
        return;
    m = mmap(want, bytes, PROT_READ | PROT_WRITE,
             MAP_SHARED | MAP_FIXED_NOREPLACE, p->fd, 0);
    if (m == MAP_FAILED)
        return;
    if (m != want) { /* a kernel without MAP_FIXED_NOREPLACE */
        munmap(m, bytes);
        return;
    }
    s->p54c.all_slots = m;
    sim_engine_set_book(p54c_book_step);
}

rck_status_t sim_p54c_core_init(sim_t *s)
{
    rck_status_t st;

    s->p54c.slot = NULL;
    s->p54c.all_slots = NULL;
    if (s->compute != COMPUTE_P54C && s->compute != COMPUTE_P54C_FAST)
        return RCK_OK;
    s->p54c.pend = &s->me->p54c_book;
    memset(s->p54c.pend, 0, sizeof(*s->p54c.pend));
    st = core_init(s);
    if (st == RCK_OK)
        p54c_map_all(s);
    return st;
}

static rck_status_t core_init(sim_t *s)
{
    const sim_p54c_job_t *p = &s->hdr->p54c;
    p54c_slot_t *slot;
    void *map;

    map = mmap(NULL, p->slot_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, p->fd,
               (off_t)((uint64_t)s->ue * p->slot_bytes));
    if (map == MAP_FAILED) {
        rck_error("RCK_COMPUTE=%s: this core cannot map its counters (fd %d: "
                  "%s); was it started by 'rck run --backend sim'?",
                  sim_compute_name(s->compute), p->fd, strerror(errno));
        return RCK_ERR_CONFIG;
    }
    slot = map;
    if (slot->magic == P54C_ABI_MAGIC && slot->engine == P54C_ENGINE_COMPILED)
        return core_init_compiled(s, slot);
    if (slot->magic != P54C_ABI_MAGIC ||
        __atomic_load_n(&slot->plugin, __ATOMIC_ACQUIRE) != P54C_PLUGIN_MAGIC) {
        rck_error("RCK_COMPUTE=%s: this core does not run under the P54C "
                  "plugin (qemu-x86_64 -plugin %s); its instructions cannot "
                  "be counted",
                  sim_compute_name(s->compute), p->plugin);
        munmap(map, p->slot_bytes);
        return RCK_ERR_CONFIG;
    }
    slot->in_hal = 1;
    slot_regions(s, slot);
    /* the compiled memory model's slow paths (a program built with
     * rckcc -rck-mem runs its checks under QEMU too): not the program's */
    sim_p54c_mem_slow_range(&slot->skip_lo, &slot->skip_hi);
    /* where qemu put the stack, for the plugin to move it to Linux's place
     * (read with the skip ranges, at skip_gen's change below) */
    slot->stack_lo = slot->stack_hi = 0;
    if (!strcmp(rck_config_get("P54C_QEMU_STACK"), "linux") &&
        sim_stack_guest(&slot->stack_lo, &slot->stack_hi, &slot->stack_bias,
                        &slot->stack_auxv) != 0)
        rck_warn("p54c: this core's stack was not found in /proc/self/maps "
                 "or its auxiliary vector in /proc/self/auxv: the QEMU engine "
                 "models it where qemu put it (RCK_P54C_QEMU_STACK)");
    /* nor is the simulator's own code, nor the PLT stubs, nor (for a
     * counted program) the C library (the compiled engine counts none):
     * the plugin retranslates from here */
    if (sim_p54c_skip_scan(slot, !strcmp(rck_config_get("P54C_QEMU_COUNTS"),
                                         "compiled")) > 0)
        rck_warn("p54c: more than %d code ranges that are not the "
                 "program's: the rest are counted as the program's",
                 P54C_SKIP_MAX);
    s->p54c.slot = slot;
    s->p54c.carry = 0;
    /* the gate: the detailed mode's bookings run natively in the plugin
     * (RCK_P54C_NATIVE=0: here, under QEMU; the answers are the same) */
    slot->gate_ok = 0;
    slot->self = (uint64_t)(uintptr_t)slot;
    slot->gate_pc = slot->detailed && p54c_native_wanted()
                        ? (uint64_t)(uintptr_t)&p54c_gate
                        : 0;
    s->p54c.insns = &slot->insns;
    s->p54c.units = &slot->units;
    s->p54c.mark_insns = slot->insns;
    s->p54c.mark_units = slot->units;
    return RCK_OK;
}

void sim_p54c_core_fini(sim_t *s)
{
    if (s->p54c.all_slots != NULL)
        munmap(s->p54c.all_slots,
               s->hdr->p54c.slot_bytes * (uint64_t)s->hdr->nues);
    s->p54c.all_slots = NULL;
    if (s->p54c.slot != NULL && s->p54c.slot->engine == P54C_ENGINE_COMPILED)
        sim_p54c_mem_detach();
    if (s->p54c.slot != NULL)
        munmap(s->p54c.slot, s->hdr->p54c.slot_bytes);
    s->p54c.slot = NULL;
}

static uint64_t p54c_ticks(sim_t *s, double cycles)
{
    double mhz = rck_chip_fdiv_mhz(s->chip, (int)s->cores[s->core].fdiv);

    if (mhz <= 0 || mhz == s->chip->core_mhz)
        return sim_ticks(cycles);
    return sim_ticks(cycles * s->chip->core_mhz / mhz);
}

/* Fill the transaction costs of every controller at the core's divider
 * (floating point: once per divider, since the HAL runs under soft float),
 * so that the booking needs none of the chip's functions. */
static void p54c_costs(sim_t *s)
{
    const rck_chip_t *ch = s->chip;
    sim_p54c_port_t *p = &s->p54c.pend->port;
    int fdiv = (int)s->cores[s->core].fdiv;

    for (int mc = 0; mc < ch->nmc && mc < P54C_MAX_MC; mc++) {
        if (p->cost[mc].fdiv1 == fdiv + 1)
            continue;
        int hops = sim_hops_to_tile(ch, s->core, ch->mc[mc].x, ch->mc[mc].y);
        for (int j = 0; j < 4; j++)
            sim_cost_tx(ch, fdiv, hops, (sim_tx_t)j, &p->cost[mc].k[j]);
        p->cost[mc].fdiv1 = fdiv + 1;
    }
}

/* Book what the limit allows of the slice's transactions, natively
 * through the gate if the plugin took it, else here. */
static void p54c_book_some(sim_t *s, sim_p54c_book_t *b)
{
    p54c_slot_t *slot = s->p54c.slot;

    if (slot->gate_ok) {
        uint64_t done = slot->gate_done;
        slot->gate_arg = (uint64_t)(uintptr_t)b;
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        p54c_gate();
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        if (slot->gate_done == done)
            sim_p54c_book(b);
    } else {
        sim_p54c_book(b);
    }
}

/* Until when may UE @p ue book without asking for its turn: before the
 * earliest other core (its horizon @p hz_vt, @p hz_ue) plus the
 * lookahead, as sim_engine_order decides. */
static void p54c_limit(const sim_hdr_t *h, int ue, uint64_t hz_vt, int hz_ue,
                       sim_p54c_book_t *b, int ordered)
{
    uint64_t la = h->lookahead + h->p54c.order_window;

    if (!ordered || hz_vt == SIM_INF || SIM_INF - hz_vt <= la) {
        b->limit = UINT64_MAX;
        b->tie_ok = 1;
    } else {
        b->limit = hz_vt + la;
        b->tie_ok = la == 0 && ue < hz_ue;
    }
}

/*
 * The engine's booking step (sim_engine_set_book): UE @p ue stopped in
 * the middle of its slice's bookings and waits for its turn at
 * b.stop_t, and its turn has come. Book its next step here, as it would
 * when the token reached it: its horizon (@p hz_vt, @p hz_ue) and the
 * others' clocks are taken now, as it takes them when it wakes (nothing
 * runs in between), so the bookings are the same, without the hand-over.
 * @return 0: it stopped again (its clock and wake time are the new
 * stop); 1: its slice is booked whole (it runs next, to go on with its
 * HAL call); -1: nothing booked (it is not stopped, or this core cannot
 * book for it).
 */
static int p54c_book_step(sim_t *s, int ue, uint64_t hz_vt, int hz_ue)
{
    sim_hdr_t *h = s->hdr;
    sim_ue_t *u = sim_ue(h, ue);
    sim_p54c_pend_t *r = &u->p54c_book;
    sim_p54c_book_t *b = &r->b;

    if (r->state != SIM_P54C_BOOK_STOPPED || s->p54c.all_slots == NULL ||
        s->p54c.slot == NULL || s->unordered || h->lookahead != 0 ||
        atomic_load_explicit(&h->abort, memory_order_relaxed) !=
            SIM_ABORT_NONE)
        return -1;
    b->slot = (p54c_slot_t *)(s->p54c.all_slots +
                              (uint64_t)ue * h->p54c.slot_bytes);
    b->others = sim_engine_others_of(h, ue);
    p54c_limit(h, ue, hz_vt, hz_ue, b, 1);
    p54c_book_some(s, b);
    s->me->book_steps++;
    if (!b->stopped)
        return 1;
    u->vt = b->stop_t;
    *sim_wake(h, ue) = b->stop_t;
    s->wake_gen++;
    return 0;
}

/* Get back in line at @p t, the issue time of the next transaction of
 * the slice: the cores that may still ask a controller before it run
 * first (their slices book in their turn). @return 0 in order. */
static int p54c_reorder(sim_t *s, uint64_t t)
{
    uint64_t vt = s->me->vt;
    rck_status_t st;

    s->me->vt = t;
    st = sim_engine_order(s);
    s->me->vt = vt;
    return st == RCK_OK ? 0 : -1;
}

/* Book the whole slice; at a HAL call's entry (@p at_entry), in time
 * order with the other cores (RCK_P54C_ORDER, docs/P54C.md "Booking in
 * time order"). */
static void p54c_book(sim_t *s, sim_p54c_book_t *b, int at_entry)
{
    const rck_chip_t *ch = s->chip;
    sim_p54c_pend_t *r = s->p54c.pend;
    int tile = rck_chip_tile(ch, s->core);
    int ordered = b->mcs != NULL && at_entry && s->hdr->p54c.order;

    for (;;) {
        int st;

        p54c_limit(s->hdr, s->ue, s->hz_vt, s->hz_ue, b, ordered);
        p54c_book_some(s, b);
        if (!b->stopped)
            break;
        /* while it waits, the token's holder may book its next steps
         * (p54c_book_step), and the rest of the slice */
        r->state = ordered ? SIM_P54C_BOOK_STOPPED : SIM_P54C_BOOK_IDLE;
        st = p54c_reorder(s, b->stop_t);
        r->state = SIM_P54C_BOOK_IDLE;
        b->slot = s->p54c.slot;
        if (st != 0) {
            /* the run is aborted: the rest at zero load, unordered */
            ordered = 0;
            b->mcs = NULL;
        } else if (!b->stopped) {
            break; /* the holder booked the rest */
        }
        b->others = sim_engine_others(s);
    }
    for (int mc = 0; mc < ch->nmc && mc < P54C_MAX_MC; mc++) {
        int mt = sim_tile_of_mc(ch, mc);
        if (b->route[mc][0] == 0 || mt == tile)
            continue;
        sim_mesh_route_n(ch, s->links, tile, mt, b->route[mc][1],
                         b->route[mc][0]);
        sim_mesh_route_n(ch, s->links, mt, tile, b->route[mc][2],
                         b->route[mc][0]);
    }
    s->me->dram_tx += b->tx;
    s->me->nc_reads += b->uc_reads;
}

double sim_p54c_take(sim_t *s, int at_entry)
{
    sim_p54c_core_t *p = &s->p54c;
    p54c_slot_t *slot = p->slot;
    uint64_t insns, units, vt0 = s->me->vt, wait = 0, head;
    double cyc;

    if (slot == NULL)
        return 0;
    /* The plugin's flag first: qemu-x86_64 7.2 runs the atomic store
     * below (an xchg, in code the plugin does not instrument) through a
     * helper that fires the memory callbacks of the last instrumented
     * instruction (the program's call into the HAL), so the plugin modelled
     * it as a store of the program's to this core's state: about one
     * write-around a HAL call (docs/P54C.md, "Why the engines disagreed
     * on NAS BT.S") */
    slot->in_hal = 1;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    /* In the HAL from here for the watchdog (enter() sets it again): the
     * bookings below can take long, and a steal in their middle would
     * book outside the order (seq_cst: the handshake of sim_engine.c) */
    atomic_store(&s->me->in_hal, 1);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    sim_p54c_mem_take(slot);
    insns = *p->insns - p->mark_insns;
    units = *p->units - p->mark_units;
    head = slot->head;
    if (head != slot->tail) {
        double mhz = rck_chip_fdiv_mhz(s->chip, (int)s->cores[s->core].fdiv);
        sim_p54c_book_t *bp = &p->pend->b;
        /* in the segment, so that the holder can book for this core
         * while it waits (p54c_book_step) */
        *bp = (sim_p54c_book_t){
            .slot = slot, .port = &p->pend->port, .mark = p->mark_units,
            .mcs = s->mcs, .vt0 = vt0,
            .units = units, .head = head, .nmc = (uint32_t)s->chip->nmc,
            .line_bytes = s->chip->line_bytes, .core_mhz = s->chip->core_mhz,
            .mhz = mhz};
        /* at the chip's own frequency a cycle stamp converts to ticks in
         * integers, as sim_ticks() would round it */
        bp->exact = units < (1ull << 40) &&
                    (mhz <= 0 || mhz == s->chip->core_mhz);
        bp->lookahead = s->hdr->lookahead;
        bp->others = sim_engine_others(s);
        if (s->unordered || atomic_load(&s->hdr->token) != s->ue) {
            /* outside the order (an aborted run, a free core): the
             * controllers at zero load */
            bp->mcs = NULL;
        }
        p54c_costs(s);
        p54c_book(s, bp, at_entry);
        wait = bp->wait;
    }
    if (wait > 0)
        advance(s, wait, CAT_DRAM); /* with its power (docs/POWER.md) */
    s->me->instructions += insns;
    slot->charged_insns += insns;
    cyc = (double)units / P54C_FIX + p->carry;
    p->carry = cyc - floor(cyc);
    cyc = floor(cyc);
    slot->charged_ticks += p54c_ticks(s, cyc) + wait;
    return cyc;
}

void sim_p54c_mark(sim_t *s)
{
    p54c_slot_t *slot = s->p54c.slot;

    if (slot == NULL)
        return;
    s->p54c.mark_insns = *s->p54c.insns;
    s->p54c.mark_units = *s->p54c.units;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    slot->in_hal = 0;
}

void sim_p54c_flush(sim_t *s, uint64_t *clean, uint64_t *dirty)
{
    p54c_slot_t *slot = s->p54c.slot;

    if (slot == NULL || !slot->detailed)
        return;
    *dirty += slot->l2_dirty;
    *clean += slot->l2_valid - slot->l2_dirty;
    if (slot->engine == P54C_ENGINE_COMPILED)
        sim_p54c_mem_flush(); /* the caches are this process's */
    else
        slot->flush_req++; /* the plugin drops them before its next access */
}

void sim_p54c_map(sim_t *s)
{
    p54c_slot_t *slot = s->p54c.slot;
    const sim_map_t *m = &s->map;
    uint32_t n = 0;

    if (slot == NULL)
        return;
    for (size_t i = 0; i < m->n; i++) {
        if (m->r[i].type == RCK_MAP_UNCACHED && m->r[i].mc < 0)
            continue; /* the default */
        if (n == P54C_MAP_MAX) {
            slot->map_lost++;
            continue;
        }
        slot->map[n].off = m->r[i].off;
        slot->map[n].len = m->r[i].len;
        slot->map[n].type = m->r[i].type;
        slot->map[n].mc = m->r[i].mc;
        n++;
    }
    slot->nmap = n;
}
