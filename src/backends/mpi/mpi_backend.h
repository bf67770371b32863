/*
 * The mpi backend: every UE is one MPI rank (see docs/MPI-BACKEND.md).
 *
 * Two halves. rck_mpi_ops (mpi_loader.c) is compiled into librockcreek
 * and needs no MPI: its attach slot loads the plugin built on the MPI the
 * program runs under (librockcreek-mpi-openmpi.so or
 * librockcreek-mpi-mpich.so, chosen by RCK_MPI or by the launcher's
 * environment) and hands the handle over to the plugin's table
 * (RCK_MPI_PLUGIN_SYMBOL, mpi.c). Native and sim users never load an MPI.
 */
#ifndef RCK_MPI_BACKEND_H
#define RCK_MPI_BACKEND_H

#include "rck/hal.h"

/** The symbol every plugin exports: its complete ops table. */
#define RCK_MPI_PLUGIN_SYMBOL "rck_mpi_plugin_ops"

extern const rck_hal_ops_t rck_mpi_ops;

#endif
