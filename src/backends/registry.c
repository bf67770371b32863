/*
 * The one place that lists the backends compiled in. Build-time choices
 * (which backends exist) live only here.
 */
#include "rck/hal.h"
#include "native/native.h"
#include "sim/sim.h"
#ifdef RCK_HAVE_MPI
#include "mpi/mpi_backend.h" /* the loader; the MPI itself is a plugin */
#endif

#include <string.h>

static const rck_hal_ops_t *const backend_registry[] = {
    &rck_native_ops,
    &rck_sim_ops,
#ifdef RCK_HAVE_MPI
    &rck_mpi_ops,
#endif
};

const rck_hal_ops_t *rck_hal_backend_find(const char *name)
{
    for (size_t i = 0; i < sizeof(backend_registry) / sizeof(*backend_registry);
         i++) {
        if (!strcmp(backend_registry[i]->name, name))
            return backend_registry[i];
    }
    return NULL;
}

const char *rck_hal_backend_names(void)
{
#ifdef RCK_HAVE_MPI
    return "native, sim, mpi";
#else
    return "native, sim";
#endif
}
