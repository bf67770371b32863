/*
 * t_outbox: many small messages in flight per pair (docs/MPI.md,
 * "Protocols", the outbox): standard sends that complete before their
 * packet is out (their data copied), several frames in one packet, and
 * MPI's order kept through all of it.
 *
 *   t_outbox [quick]
 *
 * 1. A slow receiver: every rank sends rank 0 a stream of small messages
 *    of three tags and sizes 0-96 bytes from ONE buffer that it rewrites
 *    right after each MPI_Send returns, then a larger message and a
 *    "done"; rank 0 takes the "done"s first (every earlier message then
 *    waits in its unexpected queue), then each tag's messages in order,
 *    checking size and contents.
 * 2. Everyone to everyone: each rank sends every other rank a stream
 *    with MPI_Send before receiving anything, then receives them all
 *    with MPI_ANY_SOURCE; each source's sequence must come in order.
 * 3. Non-blocking: a window of MPI_Isend (buffers rewritten after
 *    MPI_Waitall) against receives posted late.
 * 4. Collectives: many small broadcasts and scatters in a row, the root
 *    rewriting its buffer after each call; then a root that runs all its
 *    broadcasts before the others start theirs (they wait for its "go").
 * The outbox holds the collectives' messages only; phases 1-3 check the
 * order of point-to-point streams queued and packed several to a packet.
 * Deterministic: nothing depends on timing; with RCK_MPI_OUTBOX=0 (or a
 * tiny one) the same program must pass with sends that wait.
 */
#include "mpitest.h"

static unsigned char pat(int src, int seq, int j)
{
    return (unsigned char)(src * 31 + seq * 7 + j);
}

static int size_of(int seq)
{
    return (seq * 13) % 97;
}

static void slow_receiver(int me, int n, int k)
{
    unsigned char buf[128], big[3000];
    int done = 1;

    if (me != 0) {
        for (int i = 0; i < k; i++) {
            int sz = size_of(i);
            for (int j = 0; j < sz; j++)
                buf[j] = pat(me, i, j);
            MPI_Send(buf, sz, MPI_BYTE, 0, i % 3, MPI_COMM_WORLD);
            memset(buf, 0xee, sizeof buf); /* the copy must be taken */
        }
        for (int j = 0; j < (int)sizeof big; j++)
            big[j] = pat(me, -1, j);
        MPI_Send(big, (int)sizeof big, MPI_BYTE, 0, 5, MPI_COMM_WORLD);
        memset(big, 0xee, sizeof big);
        MPI_Send(&done, 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
        return;
    }
    /* the "done"s first, last rank first: everything before them is
     * unexpected by then */
    for (int s = n - 1; s >= 1; s--) {
        int d = 0;
        MPI_Recv(&d, 1, MPI_INT, s, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(d == 1, "done from %d: %d", s, d);
    }
    for (int s = 1; s < n; s++) {
        for (int t = 2; t >= 0; t--) {
            for (int i = t; i < k; i += 3) {
                MPI_Status st;
                int cnt = -1, bad = 0;
                memset(buf, 0, sizeof buf);
                MPI_Recv(buf, (int)sizeof buf, MPI_BYTE, s, t, MPI_COMM_WORLD,
                         &st);
                MPI_Get_count(&st, MPI_BYTE, &cnt);
                CHECK(cnt == size_of(i), "from %d tag %d #%d: %d bytes, "
                      "want %d", s, t, i, cnt, size_of(i));
                for (int j = 0; j < cnt && j < (int)sizeof buf; j++)
                    bad += buf[j] != pat(s, i, j);
                CHECK(bad == 0, "from %d tag %d #%d: %d bytes wrong", s, t, i,
                      bad);
            }
        }
        int bad = 0;
        memset(big, 0, sizeof big);
        MPI_Recv(big, (int)sizeof big, MPI_BYTE, s, 5, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        for (int j = 0; j < (int)sizeof big; j++)
            bad += big[j] != pat(s, -1, j);
        CHECK(bad == 0, "large from %d: %d bytes wrong", s, bad);
    }
}

static void all_to_all(int me, int n, int k)
{
    int msg[3];
    int *next = calloc((size_t)n, sizeof *next);

    for (int i = 0; i < k; i++)
        for (int o = 1; o < n; o++) {
            int d = (me + o) % n;
            msg[0] = me;
            msg[1] = i;
            msg[2] = me * 1000 + d;
            MPI_Send(msg, 3, MPI_INT, d, 7, MPI_COMM_WORLD);
            msg[0] = msg[1] = msg[2] = -1;
        }
    for (int c = 0; c < k * (n - 1); c++) {
        MPI_Status st;
        MPI_Recv(msg, 3, MPI_INT, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &st);
        int s = st.MPI_SOURCE;
        CHECK(msg[0] == s && s != me, "a2a: from %d says %d", s, msg[0]);
        if (s >= 0 && s < n) {
            CHECK(msg[1] == next[s], "a2a: from %d #%d, want #%d", s, msg[1],
                  next[s]);
            CHECK(msg[2] == s * 1000 + me, "a2a: from %d: %d", s, msg[2]);
            next[s] = msg[1] + 1;
        }
    }
    free(next);
}

#define WIN 64
static void nonblocking(int me, int n)
{
    int peer = me ^ 1;
    int data[WIN][4];
    MPI_Request rq[WIN];

    for (int round = 0; round < 3; round++) {
        if (peer >= n) { /* no partner: only the barriers */
            MPI_Barrier_p2p();
            continue;
        }
        if (me % 2 == 0) {
            for (int i = 0; i < WIN; i++) {
                for (int j = 0; j < 4; j++)
                    data[i][j] = round * 100000 + i * 10 + j;
                MPI_Isend(data[i], 1 + i % 4, MPI_INT, peer, i % 2,
                          MPI_COMM_WORLD, &rq[i]);
            }
            MPI_Waitall(WIN, rq, MPI_STATUSES_IGNORE);
            memset(data, 0xff, sizeof data);
        }
        MPI_Barrier_p2p();
        if (me % 2 == 1) {
            /* tag 1 first: the tag-0 messages wait, in order */
            for (int t = 1; t >= 0; t--)
                for (int i = t; i < WIN; i += 2) {
                    int got[4] = {0}, cnt = 0;
                    MPI_Status st;
                    MPI_Recv(got, 4, MPI_INT, peer, t, MPI_COMM_WORLD, &st);
                    MPI_Get_count(&st, MPI_INT, &cnt);
                    CHECK(cnt == 1 + i % 4, "isend #%d: %d ints", i, cnt);
                    for (int j = 0; j < cnt && j < 4; j++)
                        CHECK(got[j] == round * 100000 + i * 10 + j,
                              "isend #%d[%d]: %d", i, j, got[j]);
                }
        }
    }
}

static void collectives(int me, int n, int k)
{
    int v[2], *all = malloc(sizeof(int) * 2 * (size_t)n);

    for (int i = 0; i < k; i++) {
        int root = (i / 50) % n;
        v[0] = me == root ? i * 3 + 1 : -1;
        v[1] = me == root ? root : -1;
        MPI_Bcast(v, 2, MPI_INT, root, MPI_COMM_WORLD);
        CHECK(v[0] == i * 3 + 1 && v[1] == root, "bcast #%d: %d %d", i, v[0],
              v[1]);
        if (me == root)
            for (int r = 0; r < n; r++) {
                all[2 * r] = i;
                all[2 * r + 1] = r;
            }
        v[0] = v[1] = -1;
        MPI_Scatter(all, 2, MPI_INT, v, 2, MPI_INT, root, MPI_COMM_WORLD);
        if (me == root)
            memset(all, 0xff, sizeof(int) * 2 * (size_t)n);
        CHECK(v[0] == i && v[1] == me, "scatter #%d: %d %d", i, v[0], v[1]);
    }
    free(all);

    /* the root runs ahead: its broadcasts wait (held, or in the others'
     * unexpected queues) while the others wait for its "go", sent after
     * the last of them */
    int go = 0;
    if (me == 0) {
        for (int i = 0; i < k; i++) {
            v[0] = 7 * i;
            v[1] = -i;
            MPI_Bcast(v, 2, MPI_INT, 0, MPI_COMM_WORLD);
            v[0] = v[1] = 0x5555;
        }
        for (int r = 1; r < n; r++)
            MPI_Send(&go, 1, MPI_INT, r, 11, MPI_COMM_WORLD);
    } else {
        MPI_Recv(&go, 1, MPI_INT, 0, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int i = 0; i < k; i++) {
            v[0] = v[1] = -1;
            MPI_Bcast(v, 2, MPI_INT, 0, MPI_COMM_WORLD);
            CHECK(v[0] == 7 * i && v[1] == -i, "ahead #%d: %d %d", i, v[0],
                  v[1]);
        }
    }
}

int main(int argc, char **argv)
{
    int me, n, quick = argc > 1 && strcmp(argv[1], "quick") == 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    slow_receiver(me, n, quick ? 60 : 300);
    MPI_Barrier_p2p();
    all_to_all(me, n, quick ? 5 : 40);
    MPI_Barrier_p2p();
    nonblocking(me, n);
    MPI_Barrier_p2p();
    collectives(me, n, quick ? 100 : 400);
    return mpitest_end("t_outbox");
}
