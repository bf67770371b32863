/* Large one-sided operations (docs/MPI-ONESIDED-IO.md), as the public
 * suites make them (OSU's osu_put_bw/osu_put_bibw/osu_get_bw, SKaMPI's
 * one-sided input): puts of many MPI_CHAR items into a contiguous
 * region, 32 of them per synchronisation; every rank putting to both
 * neighbours at once inside post-start-complete-wait (each rank is origin
 * and target at the same time); a put into a strided target datatype
 * (the gaps must stay untouched); MPI_Rput; gets of the same sizes; a
 * dynamic window; blocks of 8 KiB to 128 KiB put both ways at once under
 * a fence and under locks (osu_put_bibw). Sizes below and above the
 * channel's eager limit.
 * Every byte is checked against a pattern the test computes itself.
 * argv[1] "allocate": windows of MPI_Win_allocate. Any number of
 * processes. */
#include "mpitest.h"

#define NPUT 32

/* byte i of origin @p o's data for round @p r */
static char pat(int o, int r, size_t i)
{
    return (char)((size_t)o * 31u + (size_t)r * 7u + i * 13u + (i >> 9));
}

static void fill(char *b, size_t n, int o, int r)
{
    for (size_t i = 0; i < n; i++)
        b[i] = pat(o, r, i);
}

/* the first byte of @p b that differs from the pattern, or -1 */
static long bad(const char *b, size_t n, int o, int r)
{
    for (size_t i = 0; i < n; i++)
        if (b[i] != pat(o, r, i))
            return (long)i;
    return -1;
}

/*
 * osu_put_bibw's pattern with large blocks: every rank puts NBIBW blocks
 * of @p n bytes to both neighbours at once (at 2 processes: to each
 * other), between two fences and then inside a lock epoch of its own on
 * each target, @p reps times each. Each rank is inside its own MPI_Put while the other's
 * large puts arrive; with a large put's header sent before its data, each
 * could serve the other's header there and wait for data not yet sent (a
 * deadlock: docs/MPI-ONESIDED-IO.md).
 */
#define NBIBW 16
static void bibw(int rank, int left, int right, size_t n, int alloc,
                 int reps)
{
    /* the blocks from the left neighbour, then those from the right one */
    size_t half = (size_t)NBIBW * n, wbytes = 2 * half;
    char *mem, *src = malloc(half);
    MPI_Win win;

    if (alloc) {
        MPI_Win_allocate((MPI_Aint)wbytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD,
                         &mem, &win);
    } else {
        mem = malloc(wbytes);
        MPI_Win_create(mem, (MPI_Aint)wbytes, 1, MPI_INFO_NULL,
                       MPI_COMM_WORLD, &win);
    }
    for (int round = 6; round < 6 + 2 * reps; round++) {
        int lock = round % 2;

        fill(src, half, rank, round);
        memset(mem, 0, wbytes);
        MPI_Barrier(MPI_COMM_WORLD);
        if (lock) {
            MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win);
            if (left != right)
                MPI_Win_lock(MPI_LOCK_SHARED, left, 0, win);
        } else {
            MPI_Win_fence(0, win);
        }
        for (int j = 0; j < NBIBW; j++) {
            size_t at = (size_t)j * n;
            /* to the right neighbour's left half, the left one's right */
            MPI_Put(src + at, (int)n, MPI_CHAR, right, (MPI_Aint)at, (int)n,
                    MPI_CHAR, win);
            if (left != right)
                MPI_Put(src + at, (int)n, MPI_CHAR, left,
                        (MPI_Aint)(half + at), (int)n, MPI_CHAR, win);
        }
        if (lock) {
            MPI_Win_unlock(right, win);
            if (left != right)
                MPI_Win_unlock(left, win);
            MPI_Barrier(MPI_COMM_WORLD);
        } else {
            MPI_Win_fence(0, win);
        }
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
        CHECK(bad(mem, half, left, round) < 0,
              "%s, %d blocks of %zu bytes both ways: from %d byte %ld differs",
              lock ? "lock" : "fence", NBIBW, n, left,
              bad(mem, half, left, round));
        CHECK(left == right || bad(mem + half, half, right, round) < 0,
              "%s, %d blocks of %zu bytes both ways: from %d byte %ld differs",
              lock ? "lock" : "fence", NBIBW, n, right,
              bad(mem + half, half, right, round));
        MPI_Win_unlock(rank, win);
    }
    MPI_Win_free(&win);
    if (!alloc)
        free(mem);
    free(src);
}

int main(int argc, char **argv)
{
    int rank, size, alloc;
    /* a size above the split threshold and below every eager limit, one
     * above the MPB channels' 16 KiB (and sccmulti's and sccshm's with
     * RCK_MPI_EAGER=16k) */
    const size_t sizes[] = {12000, 40000};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    alloc = argc > 1 && strcmp(argv[1], "allocate") == 0;
    int right = (rank + 1) % size, left = (rank + size - 1) % size;

    for (int s = 0; s < 2; s++) {
        size_t n = sizes[s];
        /* 32 slots of n / 32 bytes (OSU's window), or two halves */
        size_t wbytes = 2 * n;
        char *mem, *src = malloc(wbytes), *got = malloc(wbytes);
        MPI_Win win;
        MPI_Group g, nb;
        int peers[2] = {left, right};

        if (alloc) {
            MPI_Win_allocate((MPI_Aint)wbytes, 1, MPI_INFO_NULL,
                             MPI_COMM_WORLD, &mem, &win);
            memset(mem, 0, wbytes);
        } else {
            mem = calloc(1, wbytes);
            MPI_Win_create(mem, (MPI_Aint)wbytes, 1, MPI_INFO_NULL,
                           MPI_COMM_WORLD, &win);
        }
        MPI_Barrier(MPI_COMM_WORLD);

        /* passive target: NPUT puts of n/NPUT MPI_CHARs each then a
         * flush, as osu_put_bw; n bytes in all, into the first half */
        fill(src, n, rank, 1);
        MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win);
        for (int j = 0; j < NPUT; j++) {
            size_t part = n / NPUT, at = (size_t)j * part;
            if (j == NPUT - 1)
                part = n - at;
            MPI_Put(src + at, (int)part, MPI_CHAR, right, (MPI_Aint)at,
                    (int)part, MPI_CHAR, win);
        }
        MPI_Win_flush(right, win);
        /* and one put of all n bytes into the second half */
        MPI_Put(src, (int)n, MPI_CHAR, right, (MPI_Aint)n, (int)n, MPI_CHAR,
                win);
        MPI_Win_unlock(right, win);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
        CHECK(bad(mem, n, left, 1) < 0 && bad(mem + n, n, left, 1) < 0,
              "%zu bytes from %d under lock: byte %ld / %ld differs", n, left,
              bad(mem, n, left, 1), bad(mem + n, n, left, 1));
        MPI_Win_unlock(rank, win);
        MPI_Barrier(MPI_COMM_WORLD);

        /* gets of the same data back: 32 parts, then all at once */
        memset(got, 0, wbytes);
        MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win);
        for (int j = 0; j < NPUT; j++) {
            size_t part = n / NPUT, at = (size_t)j * part;
            if (j == NPUT - 1)
                part = n - at;
            MPI_Get(got + at, (int)part, MPI_CHAR, right, (MPI_Aint)at,
                    (int)part, MPI_CHAR, win);
        }
        MPI_Get(got + n, (int)n, MPI_CHAR, right, (MPI_Aint)n, (int)n,
                MPI_CHAR, win);
        MPI_Win_unlock(right, win);
        CHECK(bad(got, n, rank, 1) < 0 && bad(got + n, n, rank, 1) < 0,
              "get of %zu bytes from %d: byte %ld / %ld differs", n, right,
              bad(got, n, rank, 1), bad(got + n, n, rank, 1));
        MPI_Barrier(MPI_COMM_WORLD);

        /* both neighbours at once, inside post-start-complete-wait: the
         * left half from the left neighbour, the right half from the
         * right one (one neighbour twice at 2 processes: then the right
         * half only) */
        MPI_Comm_group(MPI_COMM_WORLD, &g);
        MPI_Group_incl(g, left == right ? 1 : 2, peers + (left == right),
                       &nb);
        for (int round = 2; round < 4; round++) {
            fill(src, n, rank, round);
            MPI_Win_post(nb, 0, win);
            MPI_Win_start(nb, 0, win);
            /* as osu_put_bibw: NPUT puts each way, here of n/NPUT
             * bytes and in round 3 of n/4 (overlapping: the last one
             * of each slot wins) */
            for (int j = 0; j < NPUT; j++) {
                size_t part = round == 2 ? n / NPUT : n / 4;
                size_t at = round == 2 ? (size_t)j * part
                                       : (size_t)(j % 4) * part;
                if (round == 2 && j == NPUT - 1)
                    part = n - at;
                if (round == 3 && j % 4 == 3)
                    part = n - at;
                if (left != right)
                    MPI_Put(src + at, (int)part, MPI_CHAR, right,
                            (MPI_Aint)at, (int)part, MPI_CHAR, win);
                MPI_Put(src + at, (int)part, MPI_CHAR, left,
                        (MPI_Aint)(n + at), (int)part, MPI_CHAR, win);
            }
            MPI_Win_complete(win);
            MPI_Win_wait(win);
            CHECK(left == right || bad(mem, n, left, round) < 0,
                  "pscw round %d: %zu bytes from %d: byte %ld differs", round,
                  n, left, bad(mem, n, left, round));
            CHECK(bad(mem + n, n, right, round) < 0,
                  "pscw round %d: %zu bytes from %d: byte %ld differs", round,
                  n, right, bad(mem + n, n, right, round));
        }
        MPI_Group_free(&nb);
        MPI_Group_free(&g);

        /* fence, a strided target: n/16 ints at every other int of the
         * window (the gaps keep -1); MPI_Rput of the rest */
        {
            int *iw = (int *)mem, cnt = (int)(n / 16), *isrc = (int *)src;
            MPI_Datatype vec;
            MPI_Request rq;
            MPI_Type_vector(cnt, 1, 2, MPI_INT, &vec);
            MPI_Type_commit(&vec);
            for (size_t i = 0; i < wbytes / sizeof(int); i++)
                iw[i] = -1;
            for (int i = 0; i < cnt; i++)
                isrc[i] = rank * 100000 + i;
            MPI_Win_fence(0, win);
            MPI_Put(isrc, cnt, MPI_INT, right, 0, 1, vec, win);
            fill(got, n - 2 * (size_t)cnt * sizeof(int), rank, 4);
            MPI_Rput(got, (int)(n - 2 * (size_t)cnt * sizeof(int)), MPI_CHAR,
                     right, (MPI_Aint)(2 * (size_t)cnt * sizeof(int)),
                     (int)(n - 2 * (size_t)cnt * sizeof(int)), MPI_CHAR, win,
                     &rq);
            MPI_Wait(&rq, MPI_STATUS_IGNORE);
            MPI_Win_fence(0, win);
            for (int i = 0; i < cnt; i++) {
                CHECK(iw[2 * i] == left * 100000 + i && iw[2 * i + 1] == -1,
                      "strided put of %d ints: item %d = %d, gap %d", cnt, i,
                      iw[2 * i], iw[2 * i + 1]);
                if (iw[2 * i] != left * 100000 + i || iw[2 * i + 1] != -1)
                    break;
            }
            CHECK(bad(mem + 2 * (size_t)cnt * sizeof(int),
                      n - 2 * (size_t)cnt * sizeof(int), left, 4) < 0,
                  "rput of %zu bytes from %d",
                  n - 2 * (size_t)cnt * sizeof(int), left);
            CHECK(iw[n / sizeof(int)] == -1, "past the rput: %d",
                  iw[n / sizeof(int)]);
            MPI_Type_free(&vec);
        }
        MPI_Win_free(&win);
        if (!alloc)
            free(mem);

        /* a dynamic window: a large put into attached memory */
        {
            char *dyn = calloc(1, n);
            MPI_Aint mine, *addr = malloc((size_t)size * sizeof(MPI_Aint));
            MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
            MPI_Win_attach(win, dyn, (MPI_Aint)n);
            MPI_Get_address(dyn, &mine);
            MPI_Allgather(&mine, 1, MPI_AINT, addr, 1, MPI_AINT,
                          MPI_COMM_WORLD);
            fill(src, n, rank, 5);
            MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win);
            MPI_Put(src, (int)n, MPI_CHAR, right, addr[right], (int)n,
                    MPI_CHAR, win);
            MPI_Win_unlock(right, win);
            MPI_Barrier(MPI_COMM_WORLD);
            CHECK(bad(dyn, n, left, 5) < 0,
                  "dynamic window: %zu bytes from %d: byte %ld differs", n,
                  left, bad(dyn, n, left, 5));
            MPI_Win_detach(win, dyn);
            MPI_Win_free(&win);
            free(addr);
            free(dyn);
        }
        free(src);
        free(got);
    }
    /* osu_put_bibw's pattern: large blocks both ways at once */
    /* Repeated on native, where the two ranks must meet inside their puts
     * at the wrong moment, which a few rounds leave to chance (with the
     * header first, 30 rounds of 8 KiB deadlocked 4 runs of 4 on
     * sccmpb-ext); the sim's schedule meets them at once, and its time
     * for shared-DRAM channels is long: once, up to 32 KiB. */
    const char *backend = getenv("RCK_BACKEND");
    int sim = backend != NULL && strcmp(backend, "sim") == 0;
    bibw(rank, left, right, 8192, alloc, sim ? 1 : 30);
    bibw(rank, left, right, 32768, alloc, sim ? 1 : 10);
    if (!sim)
        bibw(rank, left, right, 131072, alloc, 2);
    return mpitest_end("t_winbig");
}
