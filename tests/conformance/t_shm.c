/*
 * Off-chip shared memory: RCCE_shmalloc gives every UE the same address
 * (compared through messages), data written by one UE is seen by all after
 * RCCE_shflush and a barrier, RCCE_shfree gives space back, a request that
 * does not fit gives NULL on every UE, RCCE_DCMflush returns success.
 */
#include "conf.h"

static int me, n;

/* Every UE must hold the same value: compare through messages. */
static void same_everywhere(uintptr_t v, const char *what)
{
    long lv = (long)v, lo = 0, hi = 0;
    CHECK_OK(RCCE_allreduce((char *)&lv, (char *)&lo, 1, RCCE_LONG, RCCE_MIN,
                            RCCE_COMM_WORLD));
    CHECK_OK(RCCE_allreduce((char *)&lv, (char *)&hi, 1, RCCE_LONG, RCCE_MAX,
                            RCCE_COMM_WORLD));
    CHECKF(lo == lv && hi == lv, "%s: %#lx here, from %#lx to %#lx elsewhere",
           what, lv, lo, hi);
    /* and once more by plain messages to UE 0 */
    if (me == 0) {
        for (int s = 1; s < n; s++) {
            uintptr_t other = 0;
            CHECK_OK(RCCE_recv((char *)&other, sizeof other, s));
            CHECKF(other == v, "%s: UE %d has %#lx, UE 0 %#lx", what, s,
                   (unsigned long)other, (unsigned long)v);
        }
    } else {
        CHECK_OK(RCCE_send((char *)&v, sizeof v, 0));
    }
}

static int disjoint(t_vcharp a, size_t la, t_vcharp b, size_t lb)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return x + la <= y || y + lb <= x;
}

int main(int argc, char **argv)
{
    conf_watchdog();
    CHECK_OK(RCCE_init(&argc, &argv));
    conf_started();
    me = RCCE_ue();
    n = RCCE_num_ues();

    conf_phase("shmalloc three blocks");
    const size_t la = 4096, lb = 100, lc = 1u << 20;
    t_vcharp a = RCCE_shmalloc(la);
    t_vcharp b = RCCE_shmalloc(lb);
    t_vcharp c = RCCE_shmalloc(lc);
    CHECK(a != NULL && b != NULL && c != NULL);
    CHECK(disjoint(a, la, b, lb));
    CHECK(disjoint(a, la, c, lc));
    CHECK(disjoint(b, lb, c, lc));
    same_everywhere((uintptr_t)a, "address of block a");
    same_everywhere((uintptr_t)b, "address of block b");
    same_everywhere((uintptr_t)c, "address of block c");

    conf_phase("write my slice, read everybody's");
    size_t slice = lc / (size_t)n;
    conf_fill((void *)(c + (size_t)me * slice), slice, 0xD000u + (uint32_t)me);
    RCCE_shflush();
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
    CHECK_OK(RCCE_DCMflush());
    for (int s = 0; s < n; s++)
        CHECK_PATTERN((const void *)(c + (size_t)s * slice), slice,
                      0xD000u + (uint32_t)s);
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));

    conf_phase("one writer, everybody reads, writer rotates");
    for (int w = 0; w < n && w < 8; w++) {
        if (me == w) {
            conf_fill((void *)a, la, 0xE000u + (uint32_t)w);
            RCCE_shflush();
        }
        CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
        CHECK_OK(RCCE_DCMflush());
        CHECK_PATTERN((const void *)a, la, 0xE000u + (uint32_t)w);
        CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
    }

    conf_phase("shfree and reallocate");
    RCCE_shfree(b);
    t_vcharp b2 = RCCE_shmalloc(lb);
    CHECK(b2 != NULL);
    CHECK(disjoint(a, la, b2, lb));
    CHECK(disjoint(c, lc, b2, lb));
    same_everywhere((uintptr_t)b2, "address after shfree");

    conf_phase("shmalloc until it refuses");
    /* doubling requests: the window is finite, so one must fail, and the
     * answer must be the same on every UE */
    t_vcharp got[64];
    int ngot = 0;
    size_t size = 1u << 20, last_ok = 0;
    for (; ngot < 40; ngot++, size *= 2) {
        got[ngot] = RCCE_shmalloc(size);
        long ok = got[ngot] != NULL, lo = -1;
        CHECK_OK(RCCE_allreduce((char *)&ok, (char *)&lo, 1, RCCE_LONG,
                                RCCE_MIN, RCCE_COMM_WORLD));
        CHECKF(lo == ok, "shmalloc(%zu) failed on some UEs only", size);
        if (!ok)
            break;
        same_everywhere((uintptr_t)got[ngot], "address of a large block");
        last_ok = size;
    }
    CHECKF(ngot < 40, "shmalloc never refused");
    CHECK(RCCE_shmalloc((size_t)1 << 62) == NULL);
    for (int i = 0; i < ngot; i++)
        RCCE_shfree(got[i]);
    if (last_ok > 0) {
        conf_phase("space given back by shfree");
        t_vcharp again = RCCE_shmalloc(last_ok);
        CHECKF(again != NULL, "shmalloc(%zu) fails after shfree", last_ok);
        same_everywhere((uintptr_t)again, "address after freeing");
        RCCE_shfree(again);
    }

    conf_phase("finalize");
    RCCE_shfree(a);
    RCCE_shfree(b2);
    RCCE_shfree(c);
    CHECK_OK(RCCE_DCMflush());
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
    CHECK_OK(RCCE_finalize());
    return 0;
}
