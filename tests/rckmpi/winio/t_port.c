/* MPI_Open_port / MPI_Comm_accept / MPI_Comm_connect between the two
 * halves of MPI_COMM_WORLD (docs/MPI-ONESIDED-IO.md): the intercommunicator's
 * sizes, point-to-point across it both ways, MPI_Intercomm_merge and a
 * collective on the merged communicator, MPI_Comm_disconnect; twice, the
 * second time with the roots elsewhere; error classes of bad ports. Any
 * number of processes (one: the errors only). */
#include "mpitest.h"

static void expect_err(int err, int want, const char *what)
{
    int cls = -1;
    if (err != MPI_SUCCESS)
        MPI_Error_class(err, &cls);
    CHECK(cls == want, "%s: error %d (class %d), want class %d", what, err,
          cls, want);
}

/* @p names: the port goes through MPI_Publish_name/MPI_Lookup_name,
 * else by a message */
static void round_trip(MPI_Comm half, int server, int sroot, int croot_world,
                       int sroot_world, int names)
{
    int rank, hr, hs, rs, err;
    char port[MPI_MAX_PORT_NAME] = "";
    MPI_Comm inter, merged;

    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_rank(half, &hr);
    MPI_Comm_size(half, &hs);
    if (server) {
        if (hr == sroot) {
            MPI_Open_port(MPI_INFO_NULL, port);
            if (names) {
                err = MPI_Publish_name("t_port-service", MPI_INFO_NULL, port);
                CHECK(err == MPI_SUCCESS, "publish: %d", err);
            } else {
                MPI_Send(port, MPI_MAX_PORT_NAME, MPI_CHAR, croot_world, 5,
                         MPI_COMM_WORLD);
            }
        }
        if (names)
            MPI_Barrier(MPI_COMM_WORLD); /* published before looked up */
        err = MPI_Comm_accept(port, MPI_INFO_NULL, sroot, half, &inter);
        CHECK(err == MPI_SUCCESS, "accept: %d", err);
        if (hr == sroot) {
            if (names) {
                err = MPI_Unpublish_name("t_port-service", MPI_INFO_NULL,
                                         port);
                CHECK(err == MPI_SUCCESS, "unpublish: %d", err);
            }
            MPI_Close_port(port);
        }
    } else {
        int croot;
        MPI_Group wg, hg;
        MPI_Comm_group(MPI_COMM_WORLD, &wg);
        MPI_Comm_group(half, &hg);
        MPI_Group_translate_ranks(wg, 1, &croot_world, hg, &croot);
        MPI_Group_free(&wg);
        MPI_Group_free(&hg);
        if (names)
            MPI_Barrier(MPI_COMM_WORLD);
        if (rank == croot_world && names) {
            err = MPI_Lookup_name("t_port-service", MPI_INFO_NULL, port);
            CHECK(err == MPI_SUCCESS && strncmp(port, "rckmpi-port:", 12) == 0,
                  "lookup: %d '%s'", err, port);
        } else if (rank == croot_world) {
            MPI_Recv(port, MPI_MAX_PORT_NAME, MPI_CHAR, sroot_world, 5,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        err = MPI_Comm_connect(port, MPI_INFO_NULL, croot, half, &inter);
        CHECK(err == MPI_SUCCESS, "connect: %d", err);
    }
    {
        int flag;
        MPI_Comm_test_inter(inter, &flag);
        MPI_Comm_remote_size(inter, &rs);
        CHECK(flag, "not an intercommunicator");
    }
    /* each rank i sends to remote rank i % rs; receive from those j with
     * j % hs == hr */
    {
        int v = 1000 + rank, got;
        MPI_Request rq;
        MPI_Status st;
        MPI_Isend(&v, 1, MPI_INT, hr % rs, 9, inter, &rq);
        for (int j = 0; j < rs; j++) {
            if (j % hs != hr)
                continue;
            MPI_Recv(&got, 1, MPI_INT, j, 9, inter, &st);
            CHECK(st.MPI_SOURCE == j && got >= 1000, "across: %d from %d",
                  got, st.MPI_SOURCE);
        }
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
    }
    /* merged: the server's group first */
    MPI_Intercomm_merge(inter, !server, &merged);
    {
        int ms, mr, sum = 0, want;
        MPI_Comm_size(merged, &ms);
        MPI_Comm_rank(merged, &mr);
        CHECK(ms == hs + rs, "merged size %d", ms);
        CHECK(server ? mr == hr : mr == rs + hr, "merged rank %d", mr);
        MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, merged);
        want = ms * (ms - 1) / 2;
        CHECK(sum == want, "allreduce over merged: %d want %d", sum, want);
        MPI_Comm_free(&merged);
    }
    err = MPI_Comm_disconnect(&inter);
    CHECK(err == MPI_SUCCESS && inter == MPI_COMM_NULL, "disconnect: %d",
          err);
}

int main(int argc, char **argv)
{
    int rank, size, err;
    MPI_Comm half;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size >= 2) {
        int lower = size / 2, server = rank < lower;
        MPI_Comm_split(MPI_COMM_WORLD, server, rank, &half);
        /* roots: the first of each half, then the last of each */
        round_trip(half, server, 0, lower, 0, 0);
        {
            int hs;
            MPI_Comm_size(half, &hs);
            round_trip(half, server, server ? hs - 1 : 0, size - 1,
                       lower - 1, 1);
        }
        MPI_Comm_free(&half);
    }
    /* errors, returned */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    {
        char port[MPI_MAX_PORT_NAME];
        MPI_Comm nc = MPI_COMM_WORLD;
        err = MPI_Comm_connect("no-such-port", MPI_INFO_NULL, 0,
                               MPI_COMM_SELF, &nc);
        expect_err(err, MPI_ERR_PORT, "connect to a bad name");
        CHECK(nc == MPI_COMM_NULL, "failed connect gives MPI_COMM_NULL");
        err = MPI_Comm_connect("rckmpi-port:99999:1", MPI_INFO_NULL, 0,
                               MPI_COMM_SELF, &nc);
        expect_err(err, MPI_ERR_PORT, "connect to a UE not in the job");
        err = MPI_Close_port("rckmpi-port:0:77777");
        expect_err(err, MPI_ERR_PORT, "close a port never opened");
        MPI_Open_port(MPI_INFO_NULL, port);
        MPI_Close_port(port);
        err = MPI_Close_port(port);
        expect_err(err, MPI_ERR_PORT, "close twice");
        err = MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &nc);
        expect_err(err, MPI_ERR_PORT, "accept on a closed port");
        /* the name service: each rank its own name */
        {
            char svc[64], got[MPI_MAX_PORT_NAME];
            snprintf(svc, sizeof svc, "svc-%d", rank);
            err = MPI_Lookup_name(svc, MPI_INFO_NULL, got);
            expect_err(err, MPI_ERR_NAME, "lookup before publish");
            err = MPI_Publish_name(svc, MPI_INFO_NULL, "rckmpi-port:0:1");
            CHECK(err == MPI_SUCCESS, "publish %s: %d", svc, err);
            err = MPI_Publish_name(svc, MPI_INFO_NULL, "rckmpi-port:0:2");
            expect_err(err, MPI_ERR_SERVICE, "publish twice");
            err = MPI_Lookup_name(svc, MPI_INFO_NULL, got);
            CHECK(err == MPI_SUCCESS && strcmp(got, "rckmpi-port:0:1") == 0,
                  "lookup %s: %d '%s'", svc, err, got);
            err = MPI_Unpublish_name(svc, MPI_INFO_NULL, "rckmpi-port:0:2");
            expect_err(err, MPI_ERR_SERVICE, "unpublish with another port");
            err = MPI_Unpublish_name(svc, MPI_INFO_NULL, "rckmpi-port:0:1");
            CHECK(err == MPI_SUCCESS, "unpublish: %d", err);
            err = MPI_Lookup_name(svc, MPI_INFO_NULL, got);
            expect_err(err, MPI_ERR_NAME, "lookup after unpublish");
            err = MPI_Publish_name("", MPI_INFO_NULL, "x");
            expect_err(err, MPI_ERR_SERVICE, "empty service name");
        }
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    return mpitest_end("t_port");
}
