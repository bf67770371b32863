/*
 * `rck run --backend mpi`: the run is started by the MPI's own launcher
 * (mpirun/mpiexec of Open MPI or MPICH), which rck wraps: it builds the
 * command line, passes the resolved RCK_* settings to every rank, rewrites
 * the MPI's rank tags into rck's output prefixes, applies --timeout, and
 * exits with mpirun's status (see docs/MPI-BACKEND.md for what MPI allows).
 */
#ifndef RCK_TOOLS_MPIRUN_H
#define RCK_TOOLS_MPIRUN_H

#include "launch.h"

/**
 * Run a job on the mpi backend.
 * @param [in] launch    the run, resolved as for the other backends.
 * @param [in] hostfile  mpirun's host file, or NULL.
 * @param [in] hosts     comma-separated host list, or NULL.
 * @return the exit status for the launcher (as rck_launch_run()).
 */
int rck_mpirun_run(const rck_launch_t *launch, const char *hostfile,
                   const char *hosts);

#endif
