/*
 * The one place that lists the backends compiled in. Build-time choices
 * (which backends exist) live only here. They register with the HAL when
 * the library is loaded: the HAL finds them by name without calling up
 * into this layer.
 */
#include "rck/hal.h"
#include "native/native.h"
#include "sim/sim.h"
#ifdef RCK_HAVE_MPI
#include "mpi/mpi_backend.h" /* the loader; the MPI itself is a plugin */
#endif

#include <stddef.h>

static const rck_hal_ops_t *const backend_registry[] = {
    &rck_native_ops,
    &rck_sim_ops,
#ifdef RCK_HAVE_MPI
    &rck_mpi_ops,
#endif
};

/* Referenced by the static library's users (its link options): pulls
 * this object, and with it every backend, out of librockcreek.a. */
const int rck_backends_registered = 1;

__attribute__((constructor)) static void backends_register(void)
{
    for (size_t i = 0; i < sizeof(backend_registry) / sizeof(*backend_registry);
         i++)
        rck_hal_backend_register(backend_registry[i]);
}
