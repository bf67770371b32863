/*
 * Requests whose completion a layer of the library drives (non-blocking
 * collectives: a schedule of point-to-point steps). Internal to librckmpi,
 * beside rckmpi_coll.h.
 *
 * The request completes when @p poll sets *done; the public MPI_Wait,
 * MPI_Test and their all/any/some forms call @p poll (after running the
 * progress engine) each time they look at the request, so @p poll may
 * start the next steps (rckmpi_coll_isend/irecv) and test the ones under
 * way (MPI_Test on its own requests). Its return value is the request's
 * error (MPI_SUCCESS normally). @p release (may be NULL) frees @p state
 * when the request is released.
 */
#ifndef RCKMPI_GREQ_H
#define RCKMPI_GREQ_H
#include "mpi.h"
typedef int (*rckmpi_greq_poll_fn)(void *state, int *done);
int rckmpi_greq_start(rckmpi_greq_poll_fn poll, void *state,
                      void (*release)(void *state), MPI_Comm comm,
                      MPI_Request *req);
#endif
