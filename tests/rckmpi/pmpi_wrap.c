/* A profiling library as mpiP or Score-P would be, reduced to counting
 * (tests/rckmpi/t_pmpi.c, docs/MPI.md "Profiling interface"): it defines
 * MPI_Init, MPI_Send and MPI_Wait, counts the calls and passes them on to
 * PMPI_Init, PMPI_Send and PMPI_Wait. Linked before librckmpi, its
 * definitions replace the library's weak MPI_ names. */
#include "pmpi_wrap.h"

#include <mpi.h>

static int inits, sends, waits;

int MPI_Init(int *argc, char ***argv)
{
    inits++;
    return PMPI_Init(argc, argv);
}

int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest,
             int tag, MPI_Comm comm)
{
    sends++;
    return PMPI_Send(buf, count, datatype, dest, tag, comm);
}

int MPI_Wait(MPI_Request *request, MPI_Status *status)
{
    waits++;
    return PMPI_Wait(request, status);
}

void pmpi_wrap_counts(int *init_calls, int *send_calls, int *wait_calls)
{
    *init_calls = inits;
    *send_calls = sends;
    *wait_calls = waits;
}
