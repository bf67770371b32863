/*
 * t_forward.c: strong model, every UE faults on the same page at once.
 *   usage: t_forward [ROUNDS] [expect-forwards]
 *
 * In every round, right after a barrier, every UE adds to its own counter;
 * all counters share one page, so all UEs fault on it together and
 * ownership moves from core to core while requests are in flight: requests
 * that reach a core that has just given the page away are forwarded to the
 * new owner (or refused with a NACK and asked again). At the end UE 0
 * checks every counter and the counts: at least (nues - 1) transfers per
 * round; with "expect-forwards" (deterministic runs on the sim backend)
 * at least one forwarded request.
 */
#include "svmt.h"

#include <stdint.h>

enum { NSTAT = 6 };

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 20;
    int expect_fwd = argc > 2 && !strcmp(argv[2], "expect-forwards");
    volatile int64_t *slot;
    uint64_t *stats;
    svm_stats_t st;
    int me, nues;

    svmt_start("t_forward");
    CHECK_OK(svm_init(SVM_STRONG));
    me = svm_ue();
    nues = svm_num_ues();
    slot = svm_alloc(4096, 0);
    stats = svm_alloc((size_t)nues * NSTAT * sizeof(uint64_t), SVM_MC_ALL);
    CHECK(slot != NULL && stats != NULL);
    for (int r = 0; r < rounds; r++) {
        CHECK_OK(svm_barrier());
        slot[me * 4] += me + 1;
    }
    CHECK_OK(svm_barrier());
    svm_stats(&st);
    stats[me * NSTAT + 0] = st.faults;
    stats[me * NSTAT + 1] = st.pages_given;
    stats[me * NSTAT + 2] = st.forwards;
    stats[me * NSTAT + 3] = st.nacks;
    stats[me * NSTAT + 4] = st.retries;
    stats[me * NSTAT + 5] = st.requests_sent;
    CHECK_OK(svm_barrier());
    if (me == 0) {
        uint64_t tot[NSTAT] = {0};

        for (int u = 0; u < nues; u++) {
            if (slot[u * 4] != (int64_t)rounds * (u + 1)) {
                char d[80];
                snprintf(d, sizeof d, "counter of UE %d is %lld, expected %lld",
                         u, (long long)slot[u * 4],
                         (long long)rounds * (u + 1));
                svmt_fail(__FILE__, __LINE__, "counters", d);
            }
            for (int k = 0; k < NSTAT; k++)
                tot[k] += stats[u * NSTAT + k];
        }
        printf("t_forward: %d UEs, %d rounds: faults %llu, pages given %llu, "
               "forwards %llu, nacks %llu, retries %llu, requests %llu\n",
               nues, rounds, (unsigned long long)tot[0],
               (unsigned long long)tot[1], (unsigned long long)tot[2],
               (unsigned long long)tot[3], (unsigned long long)tot[4],
               (unsigned long long)tot[5]);
        CHECK(tot[1] >= (uint64_t)rounds * (uint64_t)(nues - 1));
        if (expect_fwd)
            CHECK(tot[2] > 0);
        printf("t_forward: ok\n");
    }
    CHECK_OK(svm_barrier());
    CHECK_OK(svm_free(stats));
    CHECK_OK(svm_free((void *)slot));
    CHECK_OK(svm_finalize());
    return 0;
}
