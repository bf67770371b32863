/*
 * The mpi backend's report (RCK_REPORT, docs/MONITORING.md): every rank's
 * row of the communication matrix goes to rank 0, which writes the file.
 */
#ifndef RCK_MPI_REPORT_H
#define RCK_MPI_REPORT_H

#include "rck/hal.h"

#include <mpi.h>

/**
 * Write the report if RCK_REPORT names a file. A collective of @p comm:
 * every rank of a clean run calls it at detach (a failing rank aborts
 * the job before).
 * @param [in] t0  MPI_Wtime() when the job started.
 */
void rck_mpi_report(rck_hal_t *hal, MPI_Comm comm, double t0);

#endif
