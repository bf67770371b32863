/* The counting profiling library of tests/rckmpi/pmpi_wrap.c. */
#ifndef PMPI_WRAP_H
#define PMPI_WRAP_H

/* How many times the program called MPI_Init, MPI_Send and MPI_Wait.
 * [out] init_calls, send_calls, wait_calls */
void pmpi_wrap_counts(int *init_calls, int *send_calls, int *wait_calls);

#endif
