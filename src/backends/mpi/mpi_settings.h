/*
 * The mpi backend's settings: one table, registered by the loader in
 * librockcreek (so `rck config --list` shows it) and by each plugin (which
 * carries its own copy of the settings code).
 */
#ifndef RCK_MPI_SETTINGS_H
#define RCK_MPI_SETTINGS_H

#include "rck/config.h"

static const rck_config_entry_t mpi_settings[] = {
    {"MPI", "auto", RCK_CONFIG_STRING,
     "mpi: which MPI the backend's plugin is built on: auto (the one whose "
     "launcher started the program), openmpi or mpich",
     "auto|openmpi|mpich"},
    {"MPI_NODES", "auto", RCK_CONFIG_STRING,
     "mpi: auto = ranks on one host share memory (MPI_Comm_split_type); "
     "rank = every rank is its own node (no shared memory, all over RMA)",
     "auto|rank"},
    {"MPIRUN", "", RCK_CONFIG_STRING,
     "mpi: the mpirun/mpiexec command 'rck run --backend mpi' wraps "
     "(empty = mpirun.openmpi or mpirun.mpich after RCK_MPI)", NULL},
    {"MPI_SPIN_NS", "auto", RCK_CONFIG_STRING,
     "mpi: how long a wait polls before it blocks for a wake-up message "
     "(RMA path) or sleeps on a futex (on-node path) (nanoseconds; auto = "
     "50 us when a node's ranks <= its CPUs, else 0; on the RMA path auto "
     "with every node's ranks <= its CPUs: waits poll until satisfied and "
     "writers skip the wake-up check)",
     "auto|#"},
    {"MPI_MEMBARRIER", "auto", RCK_CONFIG_STRING,
     "mpi, on-node path: auto = writers skip the wake-up protocol's fence "
     "and a sleeping rank issues membarrier(2) instead, when the kernel has "
     "MEMBARRIER_CMD_GLOBAL_EXPEDITED and waits spin (RCK_MPI_SPIN_NS > 0); "
     "off = a fence in every write",
     "auto|off"},
    {NULL, NULL, RCK_CONFIG_STRING, NULL, NULL}};

/** Where the mpi backend's settings are listed (rck_config_register):
 *  after the sim's. */
#define RCK_MPI_CONFIG_RANK 25

#endif
