/* MPI point-to-point on the MPBs: sizes across the eager/rendezvous limit
 * and the gEWS, matching order, wildcards, every send mode, probe,
 * cancel, persistent requests, the wait/test families. */
#include "mpitest.h"

static void fill(unsigned char *b, int n, int seed)
{
    for (int i = 0; i < n; i++)
        b[i] = (unsigned char)(seed * 31 + i * 7);
}

static int same(const unsigned char *b, int n, int seed)
{
    for (int i = 0; i < n; i++)
        if (b[i] != (unsigned char)(seed * 31 + i * 7))
            return 0;
    return 1;
}

/* largest ring message ("quick": the 48-process runs stay small) */
static int max_size = 300000;

/* ring exchange of n bytes with each mode */
static void ring_sizes(int rank, int size)
{
    static const int sizes[] = {0, 1, 4, 28, 29, 48, 100, 1000, 4144, 4145,
                                16384, 16385, 70000, 300000};
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    unsigned char *s = malloc(300000), *r = malloc(300000);

    for (unsigned k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int n = sizes[k];
        if (n > max_size)
            break;
        for (int mode = 0; mode < 4; mode++) {
            MPI_Request rq;
            MPI_Status st;
            int cnt;
            fill(s, n, rank + mode + k);
            memset(r, 0xee, (size_t)n);
            MPI_Irecv(r, n, MPI_BYTE, prev, 100 + mode, MPI_COMM_WORLD, &rq);
            MPI_Barrier_p2p();
            if (mode == 0)
                MPI_Send(s, n, MPI_BYTE, next, 100 + mode, MPI_COMM_WORLD);
            else if (mode == 1)
                MPI_Ssend(s, n, MPI_BYTE, next, 100 + mode, MPI_COMM_WORLD);
            else if (mode == 2)
                MPI_Rsend(s, n, MPI_BYTE, next, 100 + mode, MPI_COMM_WORLD);
            else {
                int bs = n + MPI_BSEND_OVERHEAD;
                void *buf = malloc((size_t)bs), *old;
                MPI_Buffer_attach(buf, bs);
                MPI_Bsend(s, n, MPI_BYTE, next, 100 + mode, MPI_COMM_WORLD);
                MPI_Buffer_detach(&old, &bs);
                CHECK(old == buf, "detach gives the buffer back");
                free(buf);
            }
            MPI_Wait(&rq, &st);
            MPI_Get_count(&st, MPI_BYTE, &cnt);
            CHECK(cnt == n && st.MPI_SOURCE == prev && st.MPI_TAG == 100 + mode,
                  "ring size %d mode %d: count %d source %d", n, mode, cnt,
                  st.MPI_SOURCE);
            CHECK(same(r, n, prev + mode + k), "ring size %d mode %d: data", n,
                  mode);
        }
    }
    free(s);
    free(r);
}

/* many messages from every rank to rank 0 with any source: per-sender
 * order, and tags matched in order */
static void ordering(int rank, int size)
{
    enum { N = 20 };
    if (rank != 0) {
        for (int i = 0; i < N; i++) {
            int v[2] = {rank, i};
            int len = (i % 3 == 0) ? 2 : (i % 3 == 1 ? 2 : 2);
            if (i == 7) {
                /* a large one in the middle: rendezvous keeps the order */
                int *big = calloc(20000, sizeof(int));
                big[0] = rank;
                big[1] = i;
                MPI_Send(big, 20000, MPI_INT, 0, 5, MPI_COMM_WORLD);
                free(big);
            } else {
                MPI_Send(v, len, MPI_INT, 0, 5, MPI_COMM_WORLD);
            }
        }
    } else {
        int *next = calloc((size_t)size, sizeof(int));
        int *big = malloc(20000 * sizeof(int));
        for (int k = 0; k < N * (size - 1); k++) {
            MPI_Status st;
            int cnt;
            MPI_Recv(big, 20000, MPI_INT, MPI_ANY_SOURCE, 5,
                     MPI_COMM_WORLD, &st);
            MPI_Get_count(&st, MPI_INT, &cnt);
            CHECK(big[0] == st.MPI_SOURCE && st.MPI_TAG == 5,
                  "any source: source %d says %d", st.MPI_SOURCE, big[0]);
            CHECK(big[1] == next[big[0]], "order from %d: got %d expected %d",
                  big[0], big[1], next[big[0]]);
            CHECK(cnt == (big[1] == 7 ? 20000 : 2), "count %d", cnt);
            next[big[0]]++;
        }
        free(next);
        free(big);
    }
}

/* tags select among pending messages; probe sees the envelope first */
static void tags_probe(int rank, int size)
{
    if (size < 2)
        return;
    if (rank == 1) {
        int a = 1, b = 2, c = 3;
        MPI_Send(&a, 1, MPI_INT, 0, 11, MPI_COMM_WORLD);
        MPI_Send(&b, 1, MPI_INT, 0, 22, MPI_COMM_WORLD);
        MPI_Send(&c, 1, MPI_INT, 0, 33, MPI_COMM_WORLD);
    } else if (rank == 0) {
        int v, flag = 0, cnt;
        MPI_Status st;
        MPI_Probe(1, 33, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_INT, &cnt);
        CHECK(st.MPI_TAG == 33 && cnt == 1, "probe tag %d count %d",
              st.MPI_TAG, cnt);
        MPI_Recv(&v, 1, MPI_INT, 1, 22, MPI_COMM_WORLD, &st);
        CHECK(v == 2, "tag 22 gives 2, got %d", v);
        while (!flag)
            MPI_Iprobe(1, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        CHECK(st.MPI_TAG == 11, "iprobe finds the oldest: tag %d", st.MPI_TAG);
        MPI_Recv(&v, 1, MPI_INT, 1, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        CHECK(v == 1 && st.MPI_TAG == 11, "any tag gives the oldest");
        MPI_Recv(&v, 1, MPI_INT, 1, 33, MPI_COMM_WORLD, &st);
        CHECK(v == 3, "tag 33 gives 3");
    }
    /* matched probe: the probed message is the one received, even with a
     * wildcard receive posted in between */
    if (rank == 1) {
        int a[3] = {7, 8, 9}, b = 5;
        MPI_Send(a, 3, MPI_INT, 0, 44, MPI_COMM_WORLD);
        MPI_Send(&b, 1, MPI_INT, 0, 45, MPI_COMM_WORLD);
    } else if (rank == 0) {
        MPI_Message msg;
        MPI_Request rq;
        int got[3] = {0}, w = 0, cnt, flag = 0;
        MPI_Status st;
        MPI_Mprobe(1, 44, MPI_COMM_WORLD, &msg, &st);
        MPI_Get_count(&st, MPI_INT, &cnt);
        CHECK(cnt == 3 && msg != MPI_MESSAGE_NULL, "mprobe count %d", cnt);
        MPI_Irecv(&w, 1, MPI_INT, 1, MPI_ANY_TAG, MPI_COMM_WORLD, &rq);
        MPI_Mrecv(got, 3, MPI_INT, &msg, &st);
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
        CHECK(got[0] == 7 && got[2] == 9 && w == 5 && msg == MPI_MESSAGE_NULL,
              "mrecv %d %d, wildcard got %d", got[0], got[2], w);
        MPI_Improbe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &flag, &msg, &st);
        CHECK(flag && msg == MPI_MESSAGE_NO_PROC, "improbe proc null");
        MPI_Mrecv(&w, 1, MPI_INT, &msg, &st);
        CHECK(st.MPI_SOURCE == MPI_PROC_NULL, "mrecv no proc");
    }
}

/* cancel a receive nobody matches; persistent requests; waitany/some */
static void requests(int rank, int size)
{
    MPI_Request rq, reqs[4];
    MPI_Status st, sts[4];
    int v = 0, flag, idx, out, ind[4], buf[4];

    MPI_Irecv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &rq);
    MPI_Cancel(&rq);
    MPI_Wait(&rq, &st);
    MPI_Test_cancelled(&st, &flag);
    CHECK(flag && rq == MPI_REQUEST_NULL, "receive cancelled");

    /* persistent: three rounds on the same requests */
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    int sv, rv;
    MPI_Ssend_init(&sv, 1, MPI_INT, next, 7, MPI_COMM_WORLD, &reqs[0]);
    MPI_Recv_init(&rv, 1, MPI_INT, prev, 7, MPI_COMM_WORLD, &reqs[1]);
    for (int round = 0; round < 3; round++) {
        sv = rank * 10 + round;
        MPI_Startall(2, reqs);
        MPI_Waitall(2, reqs, sts);
        CHECK(rv == prev * 10 + round, "persistent round %d: %d", round, rv);
    }
    MPI_Request_free(&reqs[0]);
    MPI_Request_free(&reqs[1]);
    MPI_Send_init(&sv, 1, MPI_INT, next, 7, MPI_COMM_WORLD, &reqs[0]);
    MPI_Recv_init(&rv, 1, MPI_INT, prev, 7, MPI_COMM_WORLD, &reqs[1]);
    for (int round = 0; round < 2; round++) {
        sv = rank * 7 + round;
        MPI_Start(&reqs[1]);
        MPI_Start(&reqs[0]);
        MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
        MPI_Wait(&reqs[1], MPI_STATUS_IGNORE);
        CHECK(rv == prev * 7 + round, "persistent std round %d: %d", round,
              rv);
    }
    MPI_Request_free(&reqs[0]);
    MPI_Request_free(&reqs[1]);

    /* waitany / waitsome / testall over sends to self */
    for (int i = 0; i < 4; i++)
        MPI_Irecv(&buf[i], 1, MPI_INT, rank, 50 + i, MPI_COMM_WORLD, &reqs[i]);
    for (int i = 3; i >= 0; i--) {
        int x = 100 + i;
        MPI_Send(&x, 1, MPI_INT, rank, 50 + i, MPI_COMM_WORLD);
    }
    MPI_Waitany(4, reqs, &idx, &st);
    CHECK(idx >= 0 && idx < 4 && buf[idx] == 100 + idx, "waitany %d", idx);
    MPI_Waitsome(4, reqs, &out, ind, sts);
    CHECK(out >= 1, "waitsome %d", out);
    MPI_Waitall(4, reqs, sts);
    for (int i = 0; i < 4; i++)
        CHECK(buf[i] == 100 + i, "self message %d", i);
    MPI_Testall(4, reqs, &flag, sts);
    CHECK(flag, "testall on null requests");

    /* sendrecv_replace around the ring */
    v = rank;
    MPI_Sendrecv_replace(&v, 1, MPI_INT, next, 8, prev, 8, MPI_COMM_WORLD, &st);
    CHECK(v == prev, "sendrecv_replace %d", v);
    /* PROC_NULL */
    MPI_Sendrecv(&v, 1, MPI_INT, MPI_PROC_NULL, 0, &v, 1, MPI_INT,
                 MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st);
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL, "proc null");
}

int main(int argc, char **argv)
{
    int rank, size;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1 && strcmp(argv[1], "quick") == 0)
        max_size = 20000;
    /* barriers between the phases: their wildcards must not see the
     * next phase's messages */
    ring_sizes(rank, size);
    MPI_Barrier_p2p();
    ordering(rank, size);
    MPI_Barrier_p2p();
    tags_probe(rank, size);
    MPI_Barrier_p2p();
    requests(rank, size);
    return mpitest_end("t_p2p");
}
