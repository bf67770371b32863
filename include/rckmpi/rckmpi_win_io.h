/*
 * Part of mpi.h (include <mpi.h>, not this file): the declarations of
 * MPI's one-sided communication (MPI_Win), MPI-IO (MPI_File) and
 * MPI_Comm_connect/accept, kept in a file of their own. mpi.h includes it
 * at its end, after the handle types it uses. Every function declared here
 * is implemented (src/rckmpi/win*.c, io*.c, port*.c).
 */
#ifndef RCKMPI_WIN_IO_H
#define RCKMPI_WIN_IO_H

#ifndef RCKMPI_MPI_H
#error "include <mpi.h>, not rckmpi_win_io.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push(default)

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif
