/*
 * `rck run --backend mpi`: the run is started by the MPI's own launcher
 * (mpirun/mpiexec of Open MPI or MPICH), which rck wraps: it builds the
 * command line, passes the resolved RCK_* settings to every rank, starts
 * each rank through `rck run` itself (mpirank.c: whole, prefixed lines
 * reach mpirun, whatever the MPI does with them), applies --timeout, and
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

/** Set (to the prefix width, 0 = no prefix) in the environment of the
 * `rck run -- PROGRAM` that mpirun starts for each rank (mpirank.c). */
#define RCK_MPIRUN_WRAP_VAR "RCK_MPI_WRAP"

/**
 * The rank side: run @p argv (after an optional "--") as a child, pass its
 * output on in whole lines prefixed with the rank, end as it ended.
 * @return the exit status (a signal that killed the program is raised).
 */
int rck_mpirun_rank(const char *tool, int argc, char **argv);

#endif
