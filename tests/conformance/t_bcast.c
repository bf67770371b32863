/*
 * RCCE_bcast on RCCE_COMM_WORLD: every root (a spread of roots beyond 8
 * UEs), sizes around the line and MPB sizes and beyond the MPB, buffers at
 * odd addresses with guards. Non-roots start with garbage and must end
 * with the root's bytes exactly; the root's buffer must be left alone.
 */
#include "conf.h"

static int me, n;

static void one(int root, size_t size, int tag)
{
    conf_phase("bcast root %d size %zu", root, size);
    uint32_t seed = (uint32_t)tag * 65537u + (uint32_t)root * 101u +
                    (uint32_t)size;
    char *buf = conf_galloc(size, (size_t)(root + me) % 8);
    if (me == root)
        conf_fill(buf, size, seed);
    else
        memset(buf, 0xEE, size);
    CHECK_OK(RCCE_bcast(buf, size, root, RCCE_COMM_WORLD));
    CHECK_PATTERN(buf, size, seed);
    CHECK_GUARDS(buf, size);
    conf_gfree(buf);
}

int main(int argc, char **argv)
{
    conf_watchdog();
    CHECK_OK(RCCE_init(&argc, &argv));
    conf_started();
    me = RCCE_ue();
    n = RCCE_num_ues();

    static const size_t sizes[] = {0,    1,    31,    32,    33,
                                   100,  8159, 8160,  8161,  8192,
                                   20000, 65541, (1u << 20) + 5};
    const size_t nsizes = sizeof sizes / sizeof sizes[0];

    int roots[RCCE_MAXNP], nroots = 0;
    if (n <= 8) {
        for (int r = 0; r < n; r++)
            roots[nroots++] = r;
    } else {
        int cand[] = {0, 1, n / 2, n - 1};
        for (int i = 0; i < 4; i++)
            roots[nroots++] = cand[i];
    }

    int tag = 0;
    for (int ri = 0; ri < nroots; ri++)
        for (size_t si = 0; si < nsizes; si++) {
            if (n > 8 && sizes[si] > 65541)
                continue;
            one(roots[ri], sizes[si], tag++);
        }
    /* one very large broadcast from the last UE */
    one(n - 1, n <= 8 ? (3u << 20) + 1 : (1u << 20) + 1, tag++);

    /* back-to-back broadcasts from alternating roots with no barrier */
    for (int k = 0; k < 100; k++)
        one(k % n, (size_t)(k * 37) % 300, tag++);

    conf_phase("finalize");
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
    CHECK_OK(RCCE_finalize());
    return 0;
}
