/*
 * The profiling interface (MPI-3.1 chapter 14; docs/MPI.md "Profiling
 * interface"): every MPI call of librckmpi is defined once, as PMPI_Xxx,
 * and MPI_Xxx is a weak alias of it, as in MPICH and Open MPI. A tool
 * (mpiP, Score-P, a hand-written wrapper) that defines MPI_Xxx and calls
 * PMPI_Xxx wins over the alias when it is linked before librckmpi.
 *
 * Use: define PMPI_Xxx (mpi.h declares it with MPI_Xxx's type, so the
 * compiler checks the signature), then write RK_MPI_ALIAS(Xxx); after its
 * body. The library's own calls between MPI functions go to PMPI_Xxx, so a
 * tool sees only the program's calls. compat.exports_rckmpi checks that
 * the names defined and the names mpi.h declares are the same.
 */
#ifndef RCKMPI_PMPI_H
#define RCKMPI_PMPI_H

#include "mpi.h"
#include "lock.h"

/* MPI_<name> becomes a weak alias of PMPI_<name> (defined in this file). */
#define RK_MPI_ALIAS(name)                                                    \
    extern __typeof__(PMPI_##name) MPI_##name                                 \
        __attribute__((weak, alias("PMPI_" #name)))

#endif
