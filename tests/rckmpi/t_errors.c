/* Bad input gives the error class the standard names (MPI_ERRORS_RETURN),
 * or a clear message and a failed run (MPI_ERRORS_ARE_FATAL, the
 * default; and calls before MPI_Init).
 *   t_errors            classes under MPI_ERRORS_RETURN
 *   t_errors fatal      a negative count under the default handler
 *   t_errors before     MPI_Send before MPI_Init
 *   t_errors truncate   a truncated receive under the default handler */
#include "mpitest.h"

#include <limits.h>

static int handled;

static void on_error(MPI_Comm *comm, int *err, ...)
{
    handled = *err;
    (void)comm;
}

static void classes(int rank, int size)
{
    int v[4] = {0}, err, cls, len, flag, *ub;
    char text[MPI_MAX_ERROR_STRING];
    MPI_Status st;
    MPI_Request rq;
    MPI_Datatype t;
    MPI_Comm c;

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag);

    err = MPI_Send(v, -1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    CHECK(err == MPI_ERR_COUNT, "negative count: %d", err);
    err = MPI_Send(v, 1, MPI_INT, size, 0, MPI_COMM_WORLD);
    CHECK(err == MPI_ERR_RANK, "rank = size: %d", err);
    err = MPI_Recv(v, 1, MPI_INT, -5, 0, MPI_COMM_WORLD, &st);
    CHECK(err == MPI_ERR_RANK, "rank -5: %d", err);
    err = MPI_Send(v, 1, MPI_INT, 0, *ub + 1, MPI_COMM_WORLD);
    CHECK(err == MPI_ERR_TAG, "tag above MPI_TAG_UB: %d", err);
    err = MPI_Send(v, 1, MPI_INT, 0, -3, MPI_COMM_WORLD);
    CHECK(err == MPI_ERR_TAG, "negative tag: %d", err);
    err = MPI_Send(v, 1, 12345, 0, 0, MPI_COMM_WORLD);
    CHECK(err == MPI_ERR_TYPE, "bad datatype: %d", err);
    MPI_Type_contiguous(2, MPI_INT, &t);
    err = MPI_Send(v, 1, t, 0, 0, MPI_COMM_WORLD);
    CHECK(err == MPI_ERR_TYPE, "uncommitted datatype: %d", err);
    MPI_Type_free(&t);
    err = MPI_Send(v, 1, MPI_INT, 0, 0, (MPI_Comm)77);
    CHECK(err == MPI_ERR_COMM, "bad communicator: %d", err);
    err = MPI_Send(v, 1, MPI_INT, 0, 0, MPI_COMM_NULL);
    CHECK(err == MPI_ERR_COMM, "MPI_COMM_NULL: %d", err);
    rq = 4242;
    err = MPI_Wait(&rq, &st);
    CHECK(err == MPI_ERR_REQUEST, "bad request: %d", err);
    c = MPI_COMM_WORLD;
    err = MPI_Comm_free(&c);
    CHECK(err == MPI_ERR_COMM, "freeing MPI_COMM_WORLD: %d", err);
    err = MPI_Cancel(&rq);
    CHECK(err == MPI_ERR_REQUEST, "cancel of a bad request: %d", err);

    /* truncation: a message longer than the receive buffer */
    int big[4] = {1, 2, 3, 4}, small[2] = {0, 0};
    MPI_Irecv(small, 2, MPI_INT, rank, 5, MPI_COMM_WORLD, &rq);
    MPI_Send(big, 4, MPI_INT, rank, 5, MPI_COMM_WORLD);
    err = MPI_Wait(&rq, &st);
    CHECK(err == MPI_ERR_TRUNCATE && small[0] == 1 && small[1] == 2,
          "truncated receive: %d", err);
    /* and by rendezvous */
    int *huge = calloc(100000, sizeof(int)), *part = calloc(10, sizeof(int));
    huge[3] = 7;
    MPI_Irecv(part, 10, MPI_INT, rank, 6, MPI_COMM_WORLD, &rq);
    MPI_Send(huge, 100000, MPI_INT, rank, 6, MPI_COMM_WORLD);
    err = MPI_Wait(&rq, &st);
    CHECK(err == MPI_ERR_TRUNCATE && part[3] == 7, "truncated rendezvous: %d",
          err);
    free(huge);
    free(part);
    /* a receive of more than 4 GiB is refused even with a message waiting
     * and nothing posted (MPI_Recv's short way); the message stays */
    double d = 2.5, e = 0;
    err = MPI_Send(&d, 1, MPI_DOUBLE, rank, 7, MPI_COMM_WORLD);
    CHECK(err == MPI_SUCCESS, "send to self: %d", err);
    err = MPI_Recv(&e, INT_MAX, MPI_DOUBLE, rank, 7, MPI_COMM_WORLD, &st);
    CHECK(err == MPI_ERR_COUNT && e == 0, "receive of %d doubles: %d",
          INT_MAX, err);
    err = MPI_Recv(&e, 1, MPI_DOUBLE, rank, 7, MPI_COMM_WORLD, &st);
    CHECK(err == MPI_SUCCESS && e == 2.5, "the message after: %d", err);

    MPI_Error_class(MPI_ERR_TRUNCATE, &cls);
    MPI_Error_string(MPI_ERR_TRUNCATE, text, &len);
    CHECK(cls == MPI_ERR_TRUNCATE && len > 0 && strstr(text, "trunc"),
          "error string '%s'", text);
    /* a user handler is called with the error class */
    MPI_Errhandler eh;
    MPI_Comm_create_errhandler(on_error, &eh);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    err = MPI_Send(v, 1, MPI_INT, size + 3, 0, MPI_COMM_WORLD);
    CHECK(handled == MPI_ERR_RANK && err == MPI_ERR_RANK,
          "user handler saw %d, call gave %d", handled, err);
    MPI_Errhandler_free(&eh);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    int rank, size, v = 0;
    const char *mode = argc > 1 ? argv[1] : "classes";

    if (strcmp(mode, "before") == 0) {
        MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        return 0;
    }
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (strcmp(mode, "fatal") == 0) {
        MPI_Send(&v, -1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        printf("still running after a fatal error\n");
    } else if (strcmp(mode, "truncate") == 0) {
        int big[3] = {0};
        if (rank == 0)
            MPI_Send(big, 3, MPI_INT, size - 1, 1, MPI_COMM_WORLD);
        if (rank == size - 1)
            MPI_Recv(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("still running after a truncated receive\n");
    } else {
        classes(rank, size);
    }
    return mpitest_end("t_errors");
}
