/*
 * The mpi backend's entry in librockcreek: finds the plugin for the MPI
 * the program runs under and hands the core over to it. Needs no MPI
 * headers or libraries, so every build lists the backend and a program
 * pays for an MPI only when it runs on one.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* RTLD_DEEPBIND */
#endif
#include "mpi/mpi_backend.h"
#include "common/defaults.h"

#include "rck/config.h"
#include "rck/log.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/mpi_settings.h"

/* listed by `rck config --list` */
__attribute__((constructor)) static void mpi_settings_register(void)
{
    rck_config_register(mpi_settings, RCK_MPI_CONFIG_RANK);
}

/* The sanitizers' runtimes refuse RTLD_DEEPBIND (they must interpose
 * malloc and friends everywhere): sanitized builds go without it. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define MPI_PLUGIN_DEEPBIND 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define MPI_PLUGIN_DEEPBIND 0
#endif
#endif
#ifndef MPI_PLUGIN_DEEPBIND
#define MPI_PLUGIN_DEEPBIND RTLD_DEEPBIND
#endif

/* Is the process's MPI_Init_thread librckmpi's (in the object this code
 * is part of: librckmpi carries every layer)? */
static int mpi_names_ours(void)
{
    void *f = dlsym(RTLD_DEFAULT, "MPI_Init_thread");
    Dl_info a, b;

    return f != NULL && dladdr(f, &a) != 0 &&
           dladdr((void *)mpi_names_ours, &b) != 0 &&
           a.dli_fbase == b.dli_fbase;
}

#ifndef RCK_MPI_PLUGIN_DIRS
#define RCK_MPI_PLUGIN_DIRS ""
#endif

static const char *const flavors[] = {"openmpi", "mpich"};

/* The launcher that started us leaves its mark in the environment. */
static const char *flavor_from_env(void)
{
    if (getenv("OMPI_COMM_WORLD_SIZE") != NULL)
        return "openmpi";
    if (getenv("PMI_RANK") != NULL || getenv("PMI_SIZE") != NULL ||
        getenv("MPI_LOCALNRANKS") != NULL)
        return "mpich";
    return NULL;
}

static void *plugin_try(const char *dir, const char *flavor, char *err,
                        size_t errlen)
{
    char path[PATH_MAX];
    void *h;

    if (dir != NULL && dir[0] != '\0')
        snprintf(path, sizeof(path), "%s/librockcreek-mpi-%s.so", dir,
                 flavor);
    else
        snprintf(path, sizeof(path), "librockcreek-mpi-%s.so", flavor);
    /* RTLD_GLOBAL: Open MPI's own components resolve libmpi's symbols.
     * RTLD_DEEPBIND: the plugin's calls (MPI_Init_thread, MPI_Send, ...)
     * bind to its own MPI first, not to MPI_* functions the program
     * defines itself (an MPI on the MPBs, librckmpi), which come first in
     * the global scope. */
    h = dlopen(path, RTLD_NOW | RTLD_GLOBAL | MPI_PLUGIN_DEEPBIND);
    if (h == NULL && err[0] == '\0')
        snprintf(err, errlen, "%s", dlerror());
    return h;
}

/* Next to the object that holds this loader (librockcreek.so, or the
 * program when it links the static library), then the build and install
 * directories compiled in, then the dynamic linker's search path. */
static void *plugin_open(const char *flavor, char *err, size_t errlen)
{
    char dirs[2 * PATH_MAX + 8], *save = NULL, *d;
    Dl_info info;
    void *h = NULL;

    if (dladdr((void *)&rck_mpi_ops, &info) && info.dli_fname != NULL) {
        char self[PATH_MAX], *slash;

        snprintf(self, sizeof(self), "%s", info.dli_fname);
        slash = strrchr(self, '/');
        if (slash != NULL) {
            *slash = '\0';
            h = plugin_try(self, flavor, err, errlen);
        }
    }
    snprintf(dirs, sizeof(dirs), "%s", RCK_MPI_PLUGIN_DIRS);
    for (d = strtok_r(dirs, ":", &save); h == NULL && d != NULL;
         d = strtok_r(NULL, ":", &save))
        h = plugin_try(d, flavor, err, errlen);
    if (h == NULL)
        h = plugin_try(NULL, flavor, err, errlen);
    return h;
}

static rck_status_t loader_attach(rck_hal_t *hal)
{
    const char *want = rck_config_get("MPI");
    const rck_hal_ops_t *ops;
    rck_status_t st;
    char err[512] = "";
    void *h = NULL;

    if (!strcmp(want, "auto")) {
        const char *env = flavor_from_env();

        if (env != NULL) {
            h = plugin_open(env, err, sizeof(err));
            want = env;
        } else {
            for (size_t i = 0; h == NULL && i < 2; i++) {
                h = plugin_open(flavors[i], err, sizeof(err));
                want = flavors[i];
            }
        }
    } else if (!strcmp(want, "openmpi") || !strcmp(want, "mpich")) {
        h = plugin_open(want, err, sizeof(err));
    } else {
        rck_error("RCK_MPI='%s': give openmpi, mpich or auto", want);
        return RCK_ERR_CONFIG;
    }
    if (MPI_PLUGIN_DEEPBIND == 0 && h != NULL && mpi_names_ours()) {
        /* without RTLD_DEEPBIND the plugin's MPI_Init would bind to
         * librckmpi's, which attaches again: a recursion, not a run */
        rck_error("mpi backend: an MPI program linked with librckmpi "
                  "cannot run on the mpi backend in a sanitizer build (the "
                  "sanitizers refuse RTLD_DEEPBIND, which keeps the two "
                  "MPIs apart); use the native or sim backend, or an "
                  "unsanitized build");
        dlclose(h);
        return RCK_ERR_UNSUPPORTED;
    }
    if (h == NULL) {
        rck_error("mpi backend: cannot load the %s plugin "
                  "(librockcreek-mpi-%s.so; was rockcreek built with that "
                  "MPI? RCK_WITH_MPI): %s",
                  want, want, err);
        return RCK_ERR_CONFIG;
    }
    ops = (const rck_hal_ops_t *)dlsym(h, RCK_MPI_PLUGIN_SYMBOL);
    if (ops == NULL) {
        rck_error("mpi backend: librockcreek-mpi-%s.so has no %s", want,
                  RCK_MPI_PLUGIN_SYMBOL);
        dlclose(h);
        return RCK_ERR_CONFIG;
    }
    if (rck_hal_ops_missing(ops) != NULL) {
        rck_error("mpi backend: librockcreek-mpi-%s.so's ops table leaves "
                  "the slot %s empty (a plugin of another build?)",
                  want, rck_hal_ops_missing(ops));
        dlclose(h);
        return RCK_ERR_CONFIG;
    }
    /* From here on every slot is the plugin's (hal.c calls hal->ops). The
     * plugin stays loaded: MPI cannot be initialised twice. */
    hal->ops = ops;
    st = ops->attach(hal);
    if (st == RCK_OK) {
        /* the plugin tags its own logger; this one is the libraries' */
        char tag[32];
        snprintf(tag, sizeof(tag), "core %d", hal->core);
        rck_log_set_tag(tag);
    }
    return st;
}

/* The launcher side runs in `rck`, which starts mpirun instead of forking
 * cores itself (src/tools/mpirun.c): these slots are never a way in. */
static rck_status_t loader_job_create(const rck_job_params_t *params,
                                      rck_job_t **job)
{
    rck_error("mpi backend: jobs are started by mpirun ('rck run --backend "
              "mpi' wraps it), not by forking cores");
    return RCK_ERR_UNSUPPORTED;
}

/* No job is ever made here, so there is nothing to write or release. */
static rck_status_t loader_job_destroy(rck_job_t *job)
{
    (void)job;
    return RCK_OK;
}

static rck_status_t loader_unsupported(void)
{
    return RCK_ERR_UNSUPPORTED;
}

static void loader_void(void)
{
}

/* Before attach no other slot is reachable; they point at the shared
 * "unsupported" so the table has no NULL. */
#define U(type) ((type)(void (*)(void))loader_unsupported)
#define V(type) ((type)(void (*)(void))loader_void)
typedef rck_status_t (*st_fn)(void);

static const rck_job_ops_t loader_job_ops = {
    .create = loader_job_create,
    .child_setup = U(rck_status_t (*)(rck_job_t *, int)),
    .child_wrap = rck_be_job_child_wrap_none,
    .core_attached = rck_be_job_core_attached_unknown,
    .core_exited = V(void (*)(rck_job_t *, int, int)),
    .tick = rck_be_job_tick_none,
    .shm_auto = rck_be_job_shm_auto_fixed,
    .destroy = loader_job_destroy,
};

const rck_hal_ops_t rck_mpi_ops = {
    .name = "mpi",
    .caps = RCK_CAP_MPIRUN,
    .job = &loader_job_ops,
    .attach = loader_attach,
    .attach_end = rck_be_attach_end_none,
    .detach = V(void (*)(rck_hal_t *)),
    .mpb_map = U(rck_status_t (*)(rck_hal_t *, int, void **)),
    .mpb_write = U(rck_status_t (*)(rck_hal_t *, int, uint32_t, const void *,
                                    size_t)),
    .mpb_read = U(rck_status_t (*)(rck_hal_t *, int, uint32_t, void *, size_t)),
    .mpb_copy = U(rck_status_t (*)(rck_hal_t *, int, uint32_t, int, uint32_t,
                                   size_t)),
    .mpb_store32 = U(rck_status_t (*)(rck_hal_t *, int, uint32_t, uint32_t)),
    .mpb_load32 = U(rck_status_t (*)(rck_hal_t *, int, uint32_t, uint32_t *)),
    .cl1invmb = V(void (*)(rck_hal_t *)),
    .wcb_flush = V(void (*)(rck_hal_t *)),
    .tas_try = U(rck_status_t (*)(rck_hal_t *, int, int *)),
    .tas_release = U(rck_status_t (*)(rck_hal_t *, int)),
    .irq_raise = U(rck_status_t (*)(rck_hal_t *, int, rck_irq_kind_t)),
    .irq_poll = U(rck_status_t (*)(rck_hal_t *, int *)),
    .wait = U(rck_status_t (*)(rck_hal_t *, const rck_hal_cond_t *, int,
                               unsigned, int64_t, int *)),
    .gtsc_read = U(rck_status_t (*)(rck_hal_t *, uint64_t *)),
    .atomic_inc = U(rck_status_t (*)(rck_hal_t *, int, int32_t *)),
    .atomic_read = U(rck_status_t (*)(rck_hal_t *, int, int32_t *)),
    .atomic_write = U(rck_status_t (*)(rck_hal_t *, int, int32_t)),
    .lut_read = U(rck_status_t (*)(rck_hal_t *, int, int, uint32_t *)),
    .lut_write = U(rck_status_t (*)(rck_hal_t *, int, int, uint32_t)),
    .shm_map = U(rck_status_t (*)(rck_hal_t *, void **, size_t *)),
    .shm_set_map = U(rck_status_t (*)(rck_hal_t *, size_t, size_t, rck_map_t,
                                      int)),
    .shm_flush = U(rck_status_t (*)(rck_hal_t *)),
    .dcache_flush = U(rck_status_t (*)(rck_hal_t *)),
    .shm_write = U(rck_status_t (*)(rck_hal_t *, size_t, const void *, size_t)),
    .shm_read = U(rck_status_t (*)(rck_hal_t *, size_t, void *, size_t)),
    .shm_touch = U(rck_status_t (*)(rck_hal_t *, size_t, size_t, int)),
    .syscall = V(void (*)(rck_hal_t *, void (*)(void *), void *)),
    .trap = V(void (*)(rck_hal_t *, uint64_t)),
    .freq_set = U(rck_status_t (*)(rck_hal_t *, int, int)),
    .freq_get = U(rck_status_t (*)(rck_hal_t *, int, int *)),
    .volt_set = U(rck_status_t (*)(rck_hal_t *, int, int)),
    .volt_get = U(rck_status_t (*)(rck_hal_t *, int, int *)),
    .volt_wait = U(rck_status_t (*)(rck_hal_t *, int)),
    .power_read = U(rck_status_t (*)(rck_hal_t *, double *)),
    .cycles = U(rck_status_t (*)(rck_hal_t *, uint64_t *)),
    .wtime = U(rck_status_t (*)(rck_hal_t *, double *)),
    .perfctr_read = U(rck_status_t (*)(rck_hal_t *, int, uint64_t *)),
    .console_write = U(rck_status_t (*)(rck_hal_t *, const char *, size_t)),
    .set_context = V(void (*)(rck_hal_t *, const char *, int)),
    .mpb_prefetch = rck_be_mpb_prefetch_none,
    .mpb_write_flag = rck_be_mpb_write_flag_composed,
    .set_message = rck_be_set_message_none,
    .monitor = rck_be_monitor_now,
    .spawn_claim = rck_be_spawn_claim_unsupported,
    .spawn_release = rck_be_spawn_release_none,
    .lut_window = rck_be_lut_window_none,
};
