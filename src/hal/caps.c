/*
 * The names of the backends' capabilities (rck/hal.h, RCK_CAP_*): the words
 * of the reports' "capabilities" and of `rck backends`. In a file of its
 * own: the mpi backend's plugin links it without the rest of the HAL.
 */
#include "rck/hal.h"

const char *rck_cap_name(unsigned cap)
{
    switch (cap) {
    case RCK_CAP_TIMED:
        return "timed";
    case RCK_CAP_SCHEDULES:
        return "schedules";
    case RCK_CAP_SHARED_MEMORY:
        return "shared_memory";
    case RCK_CAP_IDLE_CORES:
        return "idle_cores";
    case RCK_CAP_STDIN_ROUTE:
        return "stdin_route";
    case RCK_CAP_MPIRUN:
        return "mpirun";
    case RCK_CAP_PROGRESS:
        return "progress";
    }
    return NULL;
}
