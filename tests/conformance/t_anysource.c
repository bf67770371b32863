/*
 * iRCCE any-source receives under many interleavings (issue 9).
 *
 * "shape": the program of the defect report, repeated for many rounds.
 * UEs 1..n-1 each send three 8-byte messages {me, round} to UE 0 with
 * iRCCE_isend and a wait list; UE 0 posts 3*(n-1) receives one at a time,
 * iRCCE_irecv(ANY_SOURCE) + iRCCE_irecv_wait, and checks the source
 * (iRCCE_get_source) and the contents; then everyone calls RCCE_allreduce
 * (the sum of the messages each UE sent, which UE 0 also counts).
 *
 * "mixed": the same race with everything varied from round to round:
 * - sizes 1, 8, 33, 300, a chunk - 1, a chunk + 1 and 2 chunks + 40 bytes
 *   (the last two longer than the MPB chunk: several pieces);
 * - each sender, by round: iRCCE_isend + wait list, RCCE_send,
 *   iRCCE_isend + iRCCE_isend_wait one by one (no wait list), or
 *   iRCCE_issend + wait list (tagged up to 28 bytes, pipelined above), so
 *   RCCE and iRCCE senders mix within one round;
 * - UE 0, by round: one any-source receive at a time (irecv + wait), all
 *   posted at once and waited for with iRCCE_wait_all, all posted at once
 *   and taken with iRCCE_wait_any, or blocking iRCCE_irecv(..., NULL);
 * - the collective that follows, by round: RCCE_allreduce, RCCE_reduce to
 *   UE 0, RCCE_comm_allreduce, RCCE_gather to UE 0, iRCCE_bcast from UE
 *   n-1 (each sends to UE 0 while it may still be receiving). The last
 *   two let a UE leave before UE 0 has finished its receives, so a
 *   barrier follows them: without it a UE's messages of the next round
 *   may be matched by this round's any-source receives, which is the
 *   program's race, not the library's (as in MPI).
 * Every message carries {sender, round, index} and a hashed pattern; per
 * sender, messages must arrive in order, each exactly once.
 *
 * Usage: conf_anysource [rounds [shape|mixed]]   (default 200 shape)
 */
#include "conf.h"
#include "RCCE_comm.h"
#include "iRCCE.h"

#define PER_SENDER 3

static int me, n;

static int posted_ok(int rc)
{
    return rc == iRCCE_SUCCESS || rc == iRCCE_PENDING || rc == iRCCE_RESERVED;
}

/* ---- the shape of the report ---- */

static void shape_round(int round)
{
    int mine[2], sent = 0, total = 0;

    conf_phase("round %d", round);
    if (me != 0) {
        int msg[PER_SENDER][2];
        iRCCE_SEND_REQUEST req[PER_SENDER];
        iRCCE_WAIT_LIST list;

        iRCCE_init_wait_list(&list);
        for (int k = 0; k < PER_SENDER; k++) {
            int rc;
            msg[k][0] = me;
            msg[k][1] = round;
            rc = iRCCE_isend((char *)msg[k], 8, 0, &req[k]);
            CHECKF(posted_ok(rc), "iRCCE_isend returned %d", rc);
            iRCCE_add_to_wait_list(&list, &req[k], NULL);
        }
        CHECK_EQ(iRCCE_wait_all(&list), iRCCE_SUCCESS);
        sent = PER_SENDER;
    } else {
        int *count = calloc((size_t)n, sizeof(int));
        CHECK(count != NULL);
        for (int k = 0; k < PER_SENDER * (n - 1); k++) {
            iRCCE_RECV_REQUEST r;
            int rc, src;

            mine[0] = mine[1] = -1;
            rc = iRCCE_irecv((char *)mine, 8, iRCCE_ANY_SOURCE, &r);
            CHECKF(posted_ok(rc), "iRCCE_irecv returned %d", rc);
            CHECK_EQ(iRCCE_irecv_wait(&r), iRCCE_SUCCESS);
            src = iRCCE_get_source(&r);
            CHECKF(src >= 1 && src < n, "receive %d: source %d", k, src);
            CHECKF(mine[0] == src && mine[1] == round,
                   "receive %d of round %d: source %d but contents {%d,%d}",
                   k, round, src, mine[0], mine[1]);
            count[src]++;
            CHECKF(count[src] <= PER_SENDER,
                   "round %d: message %d from UE %d (only %d sent)", round,
                   count[src], src, PER_SENDER);
        }
        for (int s = 1; s < n; s++)
            CHECK_EQ(count[s], PER_SENDER);
        free(count);
        total = PER_SENDER * (n - 1);
    }
    conf_phase("round %d: allreduce", round);
    {
        int sum = 0;
        CHECK_OK(RCCE_allreduce((char *)&sent, (char *)&sum, 1, RCCE_INT,
                                RCCE_SUM, RCCE_COMM_WORLD));
        CHECK_EQ(sum, PER_SENDER * (n - 1));
        if (me == 0)
            CHECK_EQ(total, sum);
    }
}

/* ---- mixed ---- */

static size_t round_size(int round)
{
    /* RCCE's payload per piece (the communication buffer) with n UEs, as
     * RCCE lays out the 8 KiB MPB; exactness does not matter, the long
     * sizes take several pieces either way */
    size_t chunk = 8192 - 32 - 64 - (size_t)64 * (size_t)n - 512;
    size_t sizes[] = {8, 1, 33, 300, chunk - 1, 8, chunk + 1, 33,
                      2 * chunk + 40};
    return sizes[round % (int)(sizeof(sizes) / sizeof(sizes[0]))];
}

static uint32_t msg_seed(int s, int round, int k)
{
    return (uint32_t)s * 7919u + (uint32_t)round * 104729u +
           (uint32_t)k * 31u + 5u;
}

/* message k of sender s in this round: the pattern, then as many of
 * {s, round, k} as fit at the front */
static void fill_msg(char *b, size_t sz, int s, int round, int k)
{
    int hdr[3] = {s, round, k};

    conf_fill(b, sz, msg_seed(s, round, k));
    memcpy(b, hdr, sz < sizeof(hdr) ? sz : sizeof(hdr));
}

/* @return the index k of the message in @p b from @p s, checking the
 * rest against the pattern */
static int check_msg(const char *b, size_t sz, int s, int round)
{
    int hdr[3] = {-1, -1, -1}, k;

    if (sz < sizeof(hdr)) {
        /* too short to say: it must be one of this sender's */
        for (k = 0; k < PER_SENDER; k++) {
            char want[sizeof(hdr)];
            fill_msg(want, sz, s, round, k);
            if (memcmp(want, b, sz) == 0)
                return k;
        }
        CHECKF(0, "round %d: %zu-byte message from UE %d matches none of "
                  "its messages (first byte 0x%02x)",
               round, sz, s, (unsigned char)b[0]);
    }
    memcpy(hdr, b, sizeof(hdr));
    CHECKF(hdr[0] == s && hdr[1] == round && hdr[2] >= 0 &&
               hdr[2] < PER_SENDER,
           "round %d: message from UE %d holds {%d,%d,%d}", round, s, hdr[0],
           hdr[1], hdr[2]);
    k = hdr[2];
    for (size_t i = sizeof(hdr); i < sz; i++)
        CHECKF((unsigned char)b[i] == conf_byte(msg_seed(s, round, k), i),
               "round %d: message %d of UE %d, byte %zu of %zu", round, k, s,
               i, sz);
    return k;
}

static void mixed_send(int round, size_t sz)
{
    char *buf[PER_SENDER];
    iRCCE_SEND_REQUEST req[PER_SENDER];
    iRCCE_WAIT_LIST list;
    int mode = (me + round) % 4;

    conf_phase("round %d: sending %zu bytes, mode %d", round, sz, mode);
    iRCCE_init_wait_list(&list);
    for (int k = 0; k < PER_SENDER; k++) {
        int rc = iRCCE_SUCCESS;

        buf[k] = malloc(sz);
        CHECK(buf[k] != NULL);
        fill_msg(buf[k], sz, me, round, k);
        switch (mode) {
        case 0: /* isend + wait list */
            rc = iRCCE_isend(buf[k], (ssize_t)sz, 0, &req[k]);
            iRCCE_add_send_to_wait_list(&list, &req[k]);
            break;
        case 1: /* RCCE */
            CHECK_OK(RCCE_send(buf[k], sz, 0));
            break;
        case 2: /* isend + its own wait */
            rc = iRCCE_isend(buf[k], (ssize_t)sz, 0, &req[k]);
            if (posted_ok(rc))
                rc = iRCCE_isend_wait(&req[k]);
            CHECK_EQ(rc, iRCCE_SUCCESS);
            break;
        default: /* synchronous (tagged or pipelined) + wait list */
            rc = iRCCE_issend(buf[k], (ssize_t)sz, 0, &req[k]);
            iRCCE_add_send_to_wait_list(&list, &req[k]);
            break;
        }
        CHECKF(posted_ok(rc), "send %d in mode %d returned %d", k, mode, rc);
    }
    if (mode == 0 || mode == 3)
        CHECK_EQ(iRCCE_wait_all(&list), iRCCE_SUCCESS);
    for (int k = 0; k < PER_SENDER; k++)
        free(buf[k]);
}

static void mixed_recv(int round, size_t sz)
{
    int total = PER_SENDER * (n - 1), mode = round % 4;
    iRCCE_RECV_REQUEST *req = calloc((size_t)total, sizeof(*req));
    char **buf = calloc((size_t)total, sizeof(char *));
    int *next = calloc((size_t)n, sizeof(int)), *done = calloc((size_t)total,
                                                                sizeof(int));
    iRCCE_WAIT_LIST list;

    CHECK(req != NULL && buf != NULL && next != NULL && done != NULL);
    conf_phase("round %d: receiving %zu bytes, mode %d", round, sz, mode);
    for (int i = 0; i < total; i++) {
        buf[i] = malloc(sz);
        CHECK(buf[i] != NULL);
        memset(buf[i], 0xEE, sz);
    }
    iRCCE_init_wait_list(&list);
    if (mode == 0 || mode == 3) {
        for (int i = 0; i < total; i++) {
            int rc = iRCCE_irecv(buf[i], (ssize_t)sz, iRCCE_ANY_SOURCE,
                                 mode == 3 ? NULL : &req[i]);
            if (mode == 0) {
                CHECKF(posted_ok(rc), "irecv %d returned %d", i, rc);
                rc = iRCCE_irecv_wait(&req[i]);
            }
            CHECKF(rc == iRCCE_SUCCESS, "receive %d returned %d", i, rc);
            if (mode == 3)
                req[i].source = iRCCE_get_source(NULL);
            done[i] = 1;
        }
    } else {
        for (int i = 0; i < total; i++) {
            int rc = iRCCE_irecv(buf[i], (ssize_t)sz, iRCCE_ANY_SOURCE,
                                 &req[i]);
            CHECKF(posted_ok(rc), "irecv %d returned %d", i, rc);
            iRCCE_add_recv_to_wait_list(&list, &req[i]);
        }
        if (mode == 1) {
            CHECK_EQ(iRCCE_wait_all(&list), iRCCE_SUCCESS);
        } else {
            for (int got = 0; got < total; got++) {
                iRCCE_SEND_REQUEST *s = NULL;
                iRCCE_RECV_REQUEST *r = NULL;
                CHECK_EQ(iRCCE_wait_any(&list, &s, &r), iRCCE_SUCCESS);
                CHECK(s == NULL && r != NULL && r >= req && r < req + total);
                CHECK(!done[r - req]);
                done[r - req] = 1;
            }
        }
    }
    /* Requests bind to sources in the order they were posted, so in
     * posting order each sender's messages come 0, 1, 2. */
    for (int i = 0; i < total; i++) {
        int src = mode == 3 ? req[i].source : iRCCE_get_source(&req[i]), k;
        CHECKF(src >= 1 && src < n, "round %d: receive %d from %d", round, i,
               src);
        k = check_msg(buf[i], sz, src, round);
        if (sz >= 3 * sizeof(int))
            CHECKF(k == next[src],
                   "round %d: UE %d's message %d arrived where %d was due",
                   round, src, k, next[src]);
        next[src]++;
        CHECKF(next[src] <= PER_SENDER, "round %d: %d messages from UE %d",
               round, next[src], src);
        free(buf[i]);
    }
    for (int s = 1; s < n; s++)
        CHECKF(next[s] == PER_SENDER, "round %d: %d messages from UE %d",
               round, next[s], s);
    free(req);
    free(buf);
    free(next);
    free(done);
}

static void mixed_collective(int round)
{
    int which = round % 5, v = me + 1, out = 0, want = n * (n + 1) / 2;

    conf_phase("round %d: collective %d", round, which);
    switch (which) {
    case 0:
        CHECK_OK(RCCE_allreduce((char *)&v, (char *)&out, 1, RCCE_INT,
                                RCCE_SUM, RCCE_COMM_WORLD));
        CHECK_EQ(out, want);
        break;
    case 1:
        CHECK_OK(RCCE_reduce((char *)&v, (char *)&out, 1, RCCE_INT, RCCE_SUM,
                             0, RCCE_COMM_WORLD));
        if (me == 0)
            CHECK_EQ(out, want);
        break;
    case 2:
        CHECK_OK(RCCE_comm_allreduce((char *)&v, (char *)&out, 1, RCCE_INT,
                                     RCCE_SUM, RCCE_COMM_WORLD));
        CHECK_EQ(out, want);
        break;
    case 3: {
        int *all = calloc((size_t)n, sizeof(int));
        CHECK(all != NULL);
        CHECK_OK(RCCE_gather((char *)&v, (char *)all, sizeof(int), 0,
                             RCCE_COMM_WORLD));
        if (me == 0)
            for (int i = 0; i < n; i++)
                CHECK_EQ(all[i], i + 1);
        free(all);
        /* the tree lets a leaf leave before UE 0 entered the gather: the
         * next round must not start before UE 0 finished this one */
        CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
        break;
    }
    default: {
        int b[2] = {me == n - 1 ? round : -1, me == n - 1 ? 77 : -1};
        CHECK_EQ(iRCCE_bcast((char *)b, sizeof(b), n - 1, RCCE_COMM_WORLD),
                 iRCCE_SUCCESS);
        CHECK_EQ(b[0], round);
        CHECK_EQ(b[1], 77);
        /* a receiver leaves as soon as it has the data (see above) */
        CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
        break;
    }
    }
}

static void mixed_round(int round)
{
    size_t sz = round_size(round);

    if (me != 0)
        mixed_send(round, sz);
    else
        mixed_recv(round, sz);
    mixed_collective(round);
}

int main(int argc, char **argv)
{
    int rounds = 200, mixed = 0;

    conf_watchdog();
    CHECK_OK(RCCE_init(&argc, &argv));
    conf_started();
    me = RCCE_ue();
    n = RCCE_num_ues();
    if (argc > 1)
        rounds = atoi(argv[1]);
    if (argc > 2) {
        CHECKF(strcmp(argv[2], "shape") == 0 || strcmp(argv[2], "mixed") == 0,
               "unknown variant '%s' (shape or mixed)", argv[2]);
        mixed = strcmp(argv[2], "mixed") == 0;
    }
    CHECK(rounds > 0);
    if (n > 1) {
        for (int round = 0; round < rounds; round++) {
            if (mixed)
                mixed_round(round);
            else
                shape_round(round);
        }
    }
    CHECK_OK(RCCE_finalize());
    return 0;
}
