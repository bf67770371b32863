/*
 * The mpi backend's report (mpi_report.h).
 */
#include "mpi/mpi_report.h"
#include "common/comm.h"

#include <stdlib.h>

void rck_mpi_report(rck_hal_t *hal, MPI_Comm comm, double t0)
{
    const char *path = rck_be_report_path();
    size_t words = rck_comm_row_words(hal->nues);
    uint64_t *all = NULL;

    if (*path == '\0' || hal->comm_row == NULL)
        return;
    if (hal->ue == 0)
        all = calloc(words * (size_t)hal->nues, sizeof(uint64_t));
    MPI_Gather(hal->comm_row, (int)words, MPI_UINT64_T, all, (int)words,
               MPI_UINT64_T, 0, comm);
    if (all != NULL)
        rck_be_report_write(path, hal->ops, &hal->chip, hal->nues,
                            MPI_Wtime() - t0, all);
    free(all);
}
