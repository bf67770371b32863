/*
 * Dynamic processes (docs/MPI.md): MPI_Comm_spawn on the job's dormant
 * UEs, MPI_Comm_get_parent, traffic both ways over the intercommunicator,
 * MPI_Intercomm_merge and a collective on the merged communicator, and
 * the refusals.
 *
 *   rckmpi_spawn M U      (rck run -n N --universe U) the N parents spawn
 *                         M copies of this program ("child"), then check
 *                         that spawning more than the idle UEs, or a
 *                         program that does not exist, fails cleanly
 *   rckmpi_spawn noroom   (no --universe) spawning 1 is refused
 *   rckmpi_spawn crash    the one child aborts after MPI_Init: the
 *                         parent's receive fails, the launcher names the
 *                         child's core and the run fails
 */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failures;

#define CHECK(c, ...)                                                        \
    do {                                                                     \
        if (!(c)) {                                                          \
            fprintf(stderr, "t_spawn: FAILED: %s:%d: ", __FILE__, __LINE__); \
            fprintf(stderr, __VA_ARGS__);                                    \
            fputc('\n', stderr);                                             \
            failures++;                                                      \
        }                                                                    \
    } while (0)

/* Parents send rank*100 + child to every child; children answer with the
 * value + 1. Then both sides merge (parents low) and sum their ranks. */
static void talk(MPI_Comm inter, int parent_side)
{
    int me, lsize, rsize, v, sum, merged_size, merged_rank;
    MPI_Comm merged;

    MPI_Comm_rank(inter, &me);
    MPI_Comm_size(inter, &lsize);
    MPI_Comm_remote_size(inter, &rsize);
    for (int j = 0; j < rsize; j++) {
        if (parent_side) {
            v = me * 100 + j;
            MPI_Send(&v, 1, MPI_INT, j, 7, inter);
            MPI_Recv(&v, 1, MPI_INT, j, 8, inter, MPI_STATUS_IGNORE);
            CHECK(v == me * 100 + j + 1, "reply %d from child %d", v, j);
        } else {
            MPI_Status st;
            MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 7, inter, &st);
            CHECK(v == st.MPI_SOURCE * 100 + me, "got %d from parent %d", v,
                  st.MPI_SOURCE);
            v++;
            MPI_Send(&v, 1, MPI_INT, st.MPI_SOURCE, 8, inter);
        }
    }
    MPI_Intercomm_merge(inter, !parent_side, &merged);
    MPI_Comm_size(merged, &merged_size);
    MPI_Comm_rank(merged, &merged_rank);
    CHECK(merged_size == lsize + rsize, "merged size %d", merged_size);
    CHECK(merged_rank == (parent_side ? me : rsize + me), "merged rank %d",
          merged_rank);
    MPI_Allreduce(&merged_rank, &sum, 1, MPI_INT, MPI_SUM, merged);
    CHECK(sum == merged_size * (merged_size - 1) / 2, "rank sum %d", sum);
    MPI_Comm_free(&merged);
}

static void refusals(int idle)
{
    MPI_Comm inter;
    int err, cls, codes[64];

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    err = MPI_Comm_spawn("rckmpi_spawn_no_such_program", MPI_ARGV_NULL, 1,
                         MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter, codes);
    MPI_Error_class(err, &cls);
    CHECK(cls == MPI_ERR_SPAWN && inter == MPI_COMM_NULL &&
              codes[0] == MPI_ERR_SPAWN,
          "missing program: error class %d", cls);
    if (idle < 63) {
        char *args[] = {"child", NULL};
        err = MPI_Comm_spawn("/proc/self/exe", args, idle + 1, MPI_INFO_NULL,
                             0, MPI_COMM_WORLD, &inter, MPI_ERRCODES_IGNORE);
        MPI_Error_class(err, &cls);
        CHECK(cls == MPI_ERR_SPAWN && inter == MPI_COMM_NULL,
              "%d processes on %d idle UEs: error class %d", idle + 1, idle,
              cls);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

static int child(void)
{
    MPI_Comm parent;
    int size, psize;

    MPI_Comm_get_parent(&parent);
    CHECK(parent != MPI_COMM_NULL, "a spawned process has no parent");
    if (parent == MPI_COMM_NULL)
        return 1;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_remote_size(parent, &psize);
    talk(parent, 0);
    MPI_Comm_disconnect(&parent);
    MPI_Comm_get_parent(&parent);
    CHECK(parent == MPI_COMM_NULL, "the parent after a disconnect");
    return 0;
}

int main(int argc, char **argv)
{
    MPI_Comm parent, inter;
    int rank, size, *universe, flag, m, u, codes[64];
    char exe[4096];
    ssize_t len;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_get_parent(&parent);
    if (argc > 1 && !strcmp(argv[1], "crashchild"))
        abort();
    if (argc > 1 && !strcmp(argv[1], "crash")) {
        char *args[] = {"crashchild", NULL};
        int v;
        len = readlink("/proc/self/exe", exe, sizeof exe - 1);
        exe[len > 0 ? len : 0] = '\0';
        MPI_Comm_spawn(exe, args, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter,
                       codes);
        MPI_Recv(&v, 1, MPI_INT, 0, 1, inter, MPI_STATUS_IGNORE);
        fprintf(stderr, "t_spawn: FAILED: a dead child's message arrived\n");
        return 1;
    }
    if (argc > 1 && !strcmp(argv[1], "child")) {
        child();
        MPI_Finalize();
        if (failures == 0)
            printf("t_spawn: child %d of %d: ok\n", rank, size);
        return failures != 0;
    }
    CHECK(parent == MPI_COMM_NULL, "a parent has a parent");
    if (argc > 1 && !strcmp(argv[1], "noroom")) {
        refusals(0);
        MPI_Finalize();
        if (failures == 0 && rank == 0)
            printf("t_spawn: ok: refused without idle cores\n");
        return failures != 0;
    }
    m = argc > 1 ? atoi(argv[1]) : 2;
    u = argc > 2 ? atoi(argv[2]) : size + m;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &universe, &flag);
    CHECK(flag && *universe == u, "MPI_UNIVERSE_SIZE %d, expected %d",
          flag ? *universe : -1, u);
    /* this very program, by its absolute path */
    len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    CHECK(len > 0, "readlink");
    exe[len > 0 ? len : 0] = '\0';
    {
        char *args[] = {"child", NULL};
        MPI_Comm_spawn(exe, args, m, MPI_INFO_NULL, size - 1, MPI_COMM_WORLD,
                       &inter, codes);
    }
    for (int i = 0; i < m; i++)
        CHECK(codes[i] == MPI_SUCCESS, "errcode %d of child %d", codes[i], i);
    talk(inter, 1);
    refusals(u - size - m);
    MPI_Comm_free(&inter);
    MPI_Finalize();
    if (failures == 0 && rank == 0)
        printf("t_spawn: ok: %d processes spawned %d\n", size, m);
    return failures != 0;
}
