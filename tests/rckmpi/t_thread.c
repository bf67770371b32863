/*
 * MPI_THREAD_MULTIPLE (docs/MPI.md, "Threads"): several threads of every
 * rank call MPI at once. Pairs of ranks (0-1, 2-3, ...; an odd last rank
 * pairs with nobody in the pair tests):
 *  - the thread level and its queries (MPI_Query_thread,
 *    MPI_Is_thread_main from the main thread and from another,
 *    MPI_INFO_ENV's thread_level);
 *  - NT threads per rank exchange tagged messages with the same thread
 *    of the peer, both directions at once, small (eager) and large
 *    (rendezvous) ones, contents checked;
 *  - one thread blocked in MPI_Recv while the main thread sends the
 *    message whose answer it waits for (a receive that kept the lock
 *    would never let the send out: the run would hang);
 *  - collectives (barrier, bcast, allreduce, allgather) on one duplicated
 *    communicator per thread, all threads at once;
 *  - MPI_Iprobe and MPI_Mprobe/MPI_Mrecv from threads, each thread its
 *    own tag, with MPI_ANY_SOURCE;
 *  - a small MPI_Gather on MPI_COMM_WORLD whose root waits for senders
 *    that start 30 ms late.
 * With the argument "serialized" it asks MPI_THREAD_SERIALIZED and its
 * threads call MPI one after the other. On a backend with virtual time
 * (the sim) the library provides MPI_THREAD_FUNNELED: the test checks the
 * queries say so and stops there.
 */
#include "mpitest.h"

#include <pthread.h>
#include <unistd.h>

#define NT 4
#define ROUNDS 40
#define BIG 20000 /* ints: 80 KB, beyond the eager limit */

static int rank, size, peer;
static MPI_Comm tcomm[NT];
static int thread_failures[NT];

#define TCHECK(t, cond, ...)                                                 \
    do {                                                                     \
        if (!(cond)) {                                                       \
            fprintf(stderr, "FAILED (rank %d, thread %d, line %d): ", rank,  \
                    (t), __LINE__);                                          \
            fprintf(stderr, __VA_ARGS__);                                    \
            fprintf(stderr, "\n");                                           \
            thread_failures[t]++;                                            \
        }                                                                    \
    } while (0)

static const char *level_name(int l)
{
    static const char *n[] = {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED",
                              "MPI_THREAD_SERIALIZED", "MPI_THREAD_MULTIPLE"};
    return l >= 0 && l <= 3 ? n[l] : "?";
}

static void *main_query(void *arg)
{
    int *flag = arg;

    MPI_Is_thread_main(flag);
    return NULL;
}

static void check_level(int asked, int provided)
{
    const char *b = getenv("RCK_BACKEND");
    int timed = b != NULL && strcmp(b, "sim") == 0;
    int want = timed ? MPI_THREAD_FUNNELED : asked, q = -1, flag = 0,
        im = 0, other = 1;
    char level[64] = "";
    pthread_t th;

    MPI_Query_thread(&q);
    MPI_Info_get(MPI_INFO_ENV, "thread_level", sizeof level - 1, level,
                 &flag);
    MPI_Is_thread_main(&im);
    CHECK(provided == want && q == provided,
          "asked %d: provided %d, query %d, expected %d", asked, provided, q,
          want);
    CHECK(flag && strcmp(level, level_name(provided)) == 0,
          "MPI_INFO_ENV thread_level '%s' for %d", level, provided);
    CHECK(im == 1, "MPI_Is_thread_main in the main thread: %d", im);
    if (provided >= MPI_THREAD_SERIALIZED) {
        pthread_create(&th, NULL, main_query, &other);
        pthread_join(th, NULL);
        CHECK(other == 0, "MPI_Is_thread_main in another thread: %d", other);
    }
}

/* Thread t exchanges ROUNDS messages of each size with thread t of the
 * peer: the lower rank sends first, so both directions are in flight. */
static void pairs(int t)
{
    static int big_out[NT][BIG], big_in[NT][BIG];
    int out, in;

    for (int i = 0; i < ROUNDS; i++) {
        int n = i % 4 == 3 ? BIG : 1;
        int *o = n == 1 ? &out : big_out[t], *r = n == 1 ? &in : big_in[t];
        MPI_Status st;

        for (int k = 0; k < n; k++)
            o[k] = rank * 1000000 + t * 10000 + i * 10 + k % 7;
        if (rank < peer) {
            MPI_Send(o, n, MPI_INT, peer, t, MPI_COMM_WORLD);
            MPI_Recv(r, n, MPI_INT, peer, t, MPI_COMM_WORLD, &st);
        } else {
            MPI_Recv(r, n, MPI_INT, peer, t, MPI_COMM_WORLD, &st);
            MPI_Send(o, n, MPI_INT, peer, t, MPI_COMM_WORLD);
        }
        TCHECK(t, st.MPI_TAG == t && st.MPI_SOURCE == peer, "status %d %d",
               st.MPI_TAG, st.MPI_SOURCE);
        for (int k = 0; k < n; k++)
            if (r[k] != peer * 1000000 + t * 10000 + i * 10 + k % 7) {
                TCHECK(t, 0, "round %d word %d: %d", i, k, r[k]);
                break;
            }
    }
    /* both directions at once, non-blocking */
    for (int i = 0; i < ROUNDS; i++) {
        MPI_Request rq[2];
        out = rank * 1000 + t * 100 + i;
        MPI_Irecv(&in, 1, MPI_INT, peer, NT + t, MPI_COMM_WORLD, &rq[0]);
        MPI_Isend(&out, 1, MPI_INT, peer, NT + t, MPI_COMM_WORLD, &rq[1]);
        MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
        TCHECK(t, in == peer * 1000 + t * 100 + i, "isend round %d: %d", i,
               in);
    }
}

static void collectives(int t)
{
    MPI_Comm c = tcomm[t];
    int csize, crank, v, sum, all[64];

    MPI_Comm_size(c, &csize);
    MPI_Comm_rank(c, &crank);
    for (int i = 0; i < ROUNDS / 4; i++) {
        MPI_Barrier(c);
        v = crank == i % csize ? t * 100 + i : -1;
        MPI_Bcast(&v, 1, MPI_INT, i % csize, c);
        TCHECK(t, v == t * 100 + i, "bcast %d: %d", i, v);
        v = crank + t + i;
        MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, c);
        TCHECK(t, sum == csize * (csize - 1) / 2 + csize * (t + i),
               "allreduce %d: %d", i, sum);
        if (csize <= 64) {
            MPI_Allgather(&v, 1, MPI_INT, all, 1, MPI_INT, c);
            for (int k = 0; k < csize; k++)
                TCHECK(t, all[k] == k + t + i, "allgather %d[%d]: %d", i, k,
                       all[k]);
        }
    }
}

/* Odd ranks send NT x ROUNDS/4 messages, tag = thread; the even rank's
 * threads find theirs by probing: even threads MPI_Iprobe, odd ones
 * MPI_Mprobe. */
static void probes(int t)
{
    int n = ROUNDS / 4;

    if (rank > peer) {
        for (int i = 0; i < n; i++) {
            int v = t * 1000 + i;
            MPI_Send(&v, 1, MPI_INT, peer, 100 + t, MPI_COMM_WORLD);
        }
        return;
    }
    for (int i = 0; i < n; i++) {
        int v = -1, flag = 0, count = 0;
        MPI_Status st;

        if (t % 2 == 0) {
            while (!flag)
                MPI_Iprobe(MPI_ANY_SOURCE, 100 + t, MPI_COMM_WORLD, &flag,
                           &st);
            MPI_Get_count(&st, MPI_INT, &count);
            TCHECK(t, st.MPI_SOURCE == peer && count == 1, "iprobe %d %d",
                   st.MPI_SOURCE, count);
            MPI_Recv(&v, 1, MPI_INT, st.MPI_SOURCE, 100 + t, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        } else {
            MPI_Message m;
            MPI_Mprobe(MPI_ANY_SOURCE, 100 + t, MPI_COMM_WORLD, &m, &st);
            TCHECK(t, st.MPI_SOURCE == peer, "mprobe source %d",
                   st.MPI_SOURCE);
            MPI_Mrecv(&v, 1, MPI_INT, &m, MPI_STATUS_IGNORE);
        }
        TCHECK(t, v == t * 1000 + i, "probed message %d: %d", i, v);
    }
}

static void *worker(void *arg)
{
    int t = (int)(long)arg;

    if (peer >= 0)
        pairs(t);
    collectives(t);
    if (peer >= 0)
        probes(t);
    return NULL;
}

static void *blocked_recv(void *arg)
{
    int *got = arg;

    MPI_Recv(got, 1, MPI_INT, peer, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return NULL;
}

/* The lower rank's thread waits in MPI_Recv for the answer to the message
 * its main thread sends only after the thread started (and most likely
 * blocked). */
static void blocked(void)
{
    int v = 7, got = 0;
    pthread_t th;

    if (rank < peer) {
        pthread_create(&th, NULL, blocked_recv, &got);
        usleep(20000); /* let it block first (not needed to pass) */
        MPI_Send(&v, 1, MPI_INT, peer, 98, MPI_COMM_WORLD);
        pthread_join(th, NULL);
        CHECK(got == 8, "blocked receive got %d", got);
    } else {
        MPI_Recv(&v, 1, MPI_INT, peer, 98, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        v++;
        MPI_Send(&v, 1, MPI_INT, peer, 99, MPI_COMM_WORLD);
    }
}

/* A small gather on MPI_COMM_WORLD whose root waits long beyond the lock's
 * slices (the senders start late): on native this is the gather through
 * the shared window's rings, whose wait must poll again after a slice,
 * not fail. */
static void late_gather(void)
{
    int all[64];

    for (int i = 0; i < 3 && size <= 64; i++) {
        int v = rank * 10 + i, rc;

        if (rank != 0)
            usleep(30000);
        rc = MPI_Gather(&v, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
        CHECK(rc == MPI_SUCCESS, "late gather %d: error %d", i, rc);
        for (int k = 0; rank == 0 && rc == MPI_SUCCESS && k < size; k++)
            CHECK(all[k] == k * 10 + i, "late gather %d[%d]: %d", i, k,
                  all[k]);
    }
}

static void run_threads(int serial)
{
    pthread_t th[NT];

    for (int t = 0; t < NT; t++) {
        pthread_create(&th[t], NULL, worker, (void *)(long)t);
        if (serial)
            pthread_join(th[t], NULL);
    }
    for (int t = 0; !serial && t < NT; t++)
        pthread_join(th[t], NULL);
    for (int t = 0; t < NT; t++)
        mpitest_failures += thread_failures[t];
}

int main(int argc, char **argv)
{
    int serial = argc > 1 && strcmp(argv[1], "serialized") == 0;
    int asked = serial ? MPI_THREAD_SERIALIZED : MPI_THREAD_MULTIPLE;
    int provided = -1;

    MPI_Init_thread(&argc, &argv, asked, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    peer = (rank ^ 1) < size ? rank ^ 1 : -1;
    check_level(asked, provided);
    if (provided < asked)
        return mpitest_end("t_thread");
    for (int t = 0; t < NT; t++)
        MPI_Comm_dup(MPI_COMM_WORLD, &tcomm[t]);
    if (peer >= 0 && !serial)
        blocked();
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    late_gather();
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    if (serial) {
        /* one thread after the other: the other pairs do the same */
        run_threads(1);
    } else {
        run_threads(0);
    }
    for (int t = 0; t < NT; t++)
        MPI_Comm_free(&tcomm[t]);
    MPI_Barrier(MPI_COMM_WORLD);
    return mpitest_end("t_thread");
}
