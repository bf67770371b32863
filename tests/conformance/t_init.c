/*
 * RCCE_init / RCCE_finalize, RCCE_ue, RCCE_num_ues, RCCE_wtime, the world
 * communicator, and the program's own argv after RCCE_init.
 *
 * Usage: conf_init N alpha -n 7 --help "with space"
 *   N is the UE count the launcher was asked for; the other arguments are
 *   the program's own and must arrive unchanged (even those that look like
 *   launcher options).
 */
#include "conf.h"

#include <math.h>

static const char *const expected_args[] = {"alpha", "-n", "7", "--help",
                                            "with space"};
#define NEXPECTED ((int)(sizeof expected_args / sizeof expected_args[0]))

int main(int argc, char **argv)
{
    conf_watchdog();
    conf_phase("RCCE_init");
    CHECK_OK(RCCE_init(&argc, &argv));
    conf_started();
    int me = RCCE_ue(), n = RCCE_num_ues();

    conf_phase("argv");
    CHECKF(argc == 2 + NEXPECTED, "argc is %d, expected %d", argc,
           2 + NEXPECTED);
    CHECK(argv[argc] == NULL);
    CHECK(argv[0] != NULL && strstr(argv[0], "conf_init") != NULL);
    int want_n = atoi(argv[1]);
    for (int i = 0; i < NEXPECTED; i++)
        CHECKF(strcmp(argv[2 + i], expected_args[i]) == 0,
               "argv[%d] is '%s', expected '%s'", 2 + i, argv[2 + i],
               expected_args[i]);

    conf_phase("ue and num_ues");
    CHECK_EQ(n, want_n);
    CHECK(n >= 1 && n <= RCCE_MAXNP);
    CHECK(me >= 0 && me < n);
    /* stable across calls */
    CHECK_EQ(RCCE_ue(), me);
    CHECK_EQ(RCCE_num_ues(), n);

    conf_phase("RCCE_COMM_WORLD");
    int size = -1, rank = -1;
    CHECK_OK(RCCE_comm_size(RCCE_COMM_WORLD, &size));
    CHECK_OK(RCCE_comm_rank(RCCE_COMM_WORLD, &rank));
    CHECK_EQ(size, n);
    CHECK_EQ(rank, me);
    CHECK_EQ(RCCE_COMM_WORLD.size, n);
    CHECK_EQ(RCCE_COMM_WORLD.my_rank, me);
    CHECK(RCCE_COMM_WORLD.initialized);
    for (int i = 0; i < n; i++)
        CHECK_EQ(RCCE_COMM_WORLD.member[i], i);

    conf_phase("version");
    CHECK(strlen(RCCE_VERSION) > 0);

    conf_phase("distinct ue ids");
    /* every UE reports its id to UE 0; each id must appear exactly once */
    if (me == 0) {
        char seen[RCCE_MAXNP] = {0};
        seen[0] = 1;
        for (int src = 1; src < n; src++) {
            int id[2] = {-1, -1};
            CHECK_OK(RCCE_recv((char *)id, sizeof id, src));
            CHECKF(id[0] == src && id[1] == n,
                   "UE %d says it is %d of %d", src, id[0], id[1]);
            CHECK(!seen[id[0]]);
            seen[id[0]] = 1;
        }
    } else {
        int id[2] = {me, n};
        CHECK_OK(RCCE_send((char *)id, sizeof id, 0));
    }

    conf_phase("wtime monotonic");
    double t0 = RCCE_wtime();
    CHECK(isfinite(t0) && t0 >= 0.0);
    double prev = t0;
    for (int i = 0; i < 10000; i++) {
        double t = RCCE_wtime();
        CHECKF(t >= prev, "wtime went back from %.9f to %.9f", prev, t);
        prev = t;
    }
    /* communication takes time on every backend */
    conf_phase("wtime advances");
    if (n > 1) {
        double before = RCCE_wtime();
        char token[64] = {0};
        for (int round = 0; round < 20; round++) {
            if (me == 0) {
                CHECK_OK(RCCE_send(token, sizeof token, 1));
                CHECK_OK(RCCE_recv(token, sizeof token, 1));
            } else if (me == 1) {
                CHECK_OK(RCCE_recv(token, sizeof token, 0));
                CHECK_OK(RCCE_send(token, sizeof token, 0));
            }
        }
        CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
        double after = RCCE_wtime();
        CHECKF(after > before, "wtime %.9f -> %.9f across messages", before,
               after);
    }

    conf_phase("barrier");
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));

    conf_phase("RCCE_finalize");
    CHECK_OK(RCCE_finalize());
    return 0;
}
