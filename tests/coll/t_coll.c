/*
 * RCCE_comm collectives (include/RCCE_comm.h) on WORLD and on split
 * communicators (even/odd, blocks of 3, a colour that groups non-adjacent
 * UEs), all groups at once.
 *
 * - RCCE_scatter, RCCE_gather, RCCE_allgather, RCCE_alltoall: block sizes
 *   1, 33, 1000 (and a block larger than an MPB chunk below 9 UEs), roots
 *   first, last and middle; every block is a hashed pattern of (source
 *   rank, destination rank), so a misplaced block is caught;
 * - RCCE_comm_reduce, RCCE_comm_allreduce, RCCE_reduce_scatter: every op
 *   (SUM, MIN, MAX, PROD) x every type (INT, LONG, FLOAT, DOUBLE), counts
 *   up to several pipeline segments, compared byte for byte with a naive
 *   reference computed here (left to right in rank order, as RCCE_reduce)
 *   and with RCCE_reduce's own result. The floating-point values are
 *   chosen so that another order of combination would round differently,
 *   and MIN/MAX see +0.0 and -0.0, which only the same order tells apart;
 * - RCCE_comm_bcast against the data of the root;
 * - bad input: every documented code, with no communication started.
 */
#include "conf.h"
#include "RCCE_comm.h"

static int me, n;
/* how much to do: 2 up to 5 UEs, 1 up to 8, 0 beyond (48 UEs on the
 * simulator must stay within a few seconds) */
static int level;

/* ---- values and the reference ---- */

static size_t tsize(int type)
{
    switch (type) {
    case RCCE_INT: return sizeof(int);
    case RCCE_LONG: return sizeof(long);
    case RCCE_FLOAT: return sizeof(float);
    default: return sizeof(double);
    }
}

static double fval(int op, int ue, int i)
{
    switch (op) {
    case RCCE_SUM: return ((ue * 31 + i * 17) % 97) * 0.37 + ue * 1e-3;
    case RCCE_PROD: return 1.0 + ((ue * 7 + i) % 13) * 0.013;
    default:
        if (i % 4 == 0)
            return ue % 2 ? -0.0 : 0.0;
        return ((ue * 131 + i * 71) % 1000 - 500) * 0.5;
    }
}

static long ival(int op, int ue, int i)
{
    switch (op) {
    case RCCE_SUM: return (ue * 7 + i * 3) % 100 - 50 + (long)ue * 100000;
    case RCCE_PROD:
        if (ue % 16 == 0 && i % 2 == 0)
            return 2;
        return (ue + i) % 5 == 0 ? -1 : 1;
    default: return (ue * 131 + i * 71) % 1000 - 500;
    }
}

static void fill_vals(void *buf, int type, int op, int ue, int cnt)
{
    for (int i = 0; i < cnt; i++) {
        switch (type) {
        case RCCE_INT: ((int *)buf)[i] = (int)ival(op, ue, i); break;
        case RCCE_LONG: /* products stay small: RCCE's own reduce must
                         * not overflow (signed) either */
            ((long *)buf)[i] = ival(op, ue, i) * (op == RCCE_PROD ? 1 : 3);
            break;
        case RCCE_FLOAT: ((float *)buf)[i] = (float)fval(op, ue, i); break;
        default: ((double *)buf)[i] = fval(op, ue, i); break;
        }
    }
}

#define REF_FOLD(T, U)                                                        \
    do {                                                                      \
        T *a = acc;                                                           \
        const T *b = in;                                                      \
        for (int i = 0; i < cnt; i++) {                                       \
            switch (op) {                                                     \
            case RCCE_SUM: a[i] = (T)((U)a[i] + (U)b[i]); break;              \
            case RCCE_PROD: a[i] = (T)((U)a[i] * (U)b[i]); break;             \
            case RCCE_MIN: a[i] = b[i] < a[i] ? b[i] : a[i]; break;           \
            default: a[i] = b[i] > a[i] ? b[i] : a[i]; break;                 \
            }                                                                 \
        }                                                                     \
    } while (0)

/* acc = acc op in, the accumulated value on the left (as RCCE_reduce) */
static void ref_combine(void *acc, const void *in, int type, int op, int cnt)
{
    switch (type) {
    case RCCE_INT: REF_FOLD(int, unsigned); break;
    case RCCE_LONG: REF_FOLD(long, unsigned long); break;
    case RCCE_FLOAT: REF_FOLD(float, float); break;
    default: REF_FOLD(double, double); break;
    }
}

/* the naive reference over the members of @p comm, in rank order */
static void reference(void *ref, int type, int op, int cnt,
                      const RCCE_COMM *comm)
{
    void *tmp = malloc(tsize(type) * (size_t)cnt + 1);
    CHECK(tmp != NULL);
    fill_vals(ref, type, op, comm->member[0], cnt);
    for (int r = 1; r < comm->size; r++) {
        fill_vals(tmp, type, op, comm->member[r], cnt);
        ref_combine(ref, tmp, type, op, cnt);
    }
    free(tmp);
}

static const char *tname(int t)
{
    static const char *names[] = {"INT", "LONG", "FLOAT", "DOUBLE"};
    return names[t - RCCE_INT];
}

static const char *oname(int o)
{
    static const char *names[] = {"SUM", "MIN", "MAX", "PROD"};
    return names[o - RCCE_SUM];
}

/* ---- reductions ---- */

static void reduce_one(const RCCE_COMM *comm, int cid, int type, int op,
                       int cnt, int nroots, int extras)
{
    int size = comm->size, rank = comm->my_rank;
    size_t bytes = tsize(type) * (size_t)cnt;
    char *in = malloc(bytes), *out = malloc(bytes);
    char *ref = malloc(bytes), *naive = malloc(bytes);
    int *rs_counts = malloc((size_t)size * sizeof(int));
    int roots[3] = {size / 2, size - 1, 0};
    int total = 0, off = 0;

    CHECK(in && out && ref && naive && rs_counts);
    fill_vals(in, type, op, RCCE_ue(), cnt);
    reference(ref, type, op, cnt, comm);
    for (int ri = 0; ri < nroots; ri++) {
        int root = roots[ri];
        conf_phase("comm %d: reduce %s %s count %d root %d", cid,
                   tname(type), oname(op), cnt, root);
        memset(out, 0x77, bytes);
        CHECK_OK(RCCE_comm_reduce(in, out, cnt, type, op, root, *comm));
        if (rank == root)
            CHECKF(memcmp(out, ref, bytes) == 0,
                   "RCCE_comm_reduce differs from the reference");
        if (ri == 0) {
            CHECK_OK(RCCE_reduce(in, naive, cnt, type, op, root, *comm));
            if (rank == root)
                CHECKF(memcmp(naive, out, bytes) == 0,
                       "RCCE_comm_reduce differs from RCCE_reduce");
        }
    }
    conf_phase("comm %d: allreduce %s %s count %d", cid, tname(type),
               oname(op), cnt);
    memset(out, 0x77, bytes);
    CHECK_OK(RCCE_comm_allreduce(in, out, cnt, type, op, *comm));
    CHECKF(memcmp(out, ref, bytes) == 0,
           "RCCE_comm_allreduce differs from the reference");
    if (extras) {
        /* in place */
        memcpy(out, in, bytes);
        CHECK_OK(RCCE_comm_allreduce(out, out, cnt, type, op, *comm));
        CHECKF(memcmp(out, ref, bytes) == 0,
               "in-place RCCE_comm_allreduce differs");
    }
    /* reduce_scatter: uneven counts, one of them 0 */
    for (int i = 0; i < size; i++) {
        rs_counts[i] = i == 1 ? 0 : cnt / size + (i % 3);
        total += rs_counts[i];
        if (i < rank)
            off += rs_counts[i];
    }
    if (total <= cnt) {
        conf_phase("comm %d: reduce_scatter %s %s count %d", cid,
                   tname(type), oname(op), total);
        memset(out, 0x77, bytes);
        CHECK_OK(RCCE_reduce_scatter(in, out, rs_counts, type, op, *comm));
        /* the reference of a prefix is the prefix of the reference */
        CHECKF(memcmp(out, ref + (size_t)off * tsize(type),
                      (size_t)rs_counts[rank] * tsize(type)) == 0,
               "RCCE_reduce_scatter block differs");
    }
    free(in);
    free(out);
    free(ref);
    free(naive);
    free(rs_counts);
}

static void reductions(const RCCE_COMM *comm, int cid)
{
    /* 4500 elements: beyond 16 KiB for every type, where INT and LONG
     * take the pipelined chain too */
    int counts[] = {1, 7, 1500, 4500};

    for (int type = RCCE_INT; type <= RCCE_DOUBLE; type++) {
        for (int op = RCCE_SUM; op <= RCCE_PROD; op++) {
            if (level == 2) {
                for (int ci = 0; ci < 4; ci++)
                    reduce_one(comm, cid, type, op, counts[ci], 3, 1);
            } else if (level == 1) {
                reduce_one(comm, cid, type, op, 7, 2, 1);
                if (cid == 0)
                    reduce_one(comm, cid, type, op,
                               op == RCCE_PROD ? 4500 : 1500, 1, 0);
            } else {
                /* several pipeline segments for one op of each type */
                int big = type == RCCE_INT || type == RCCE_DOUBLE ? 4500
                                                                  : 1500;
                reduce_one(comm, cid, type, op, op == RCCE_SUM ? big : 7,
                           op == RCCE_SUM ? 2 : 1, 0);
            }
        }
    }
}

/* ---- data movement ---- */

static uint32_t bseed(int kind, int cid, int src, int dst, size_t num)
{
    return (uint32_t)kind * 1000003u + (uint32_t)cid * 7919u +
           (uint32_t)src * 131u + (uint32_t)dst * 17u + (uint32_t)num;
}

static void movement(const RCCE_COMM *comm, int cid)
{
    int size = comm->size, rank = comm->my_rank;
    size_t nums_full[] = {33, 1, 1000, 9000};
    int nnums = level == 2 ? 4 : level == 1 ? 2 : 1;

    for (int ni = 0; ni < nnums; ni++) {
        size_t num = nums_full[ni], all = num * (size_t)size;
        char *in = conf_galloc(all, 1), *out = conf_galloc(all, 3);
        int roots[3] = {size / 2, size - 1, 0};

        for (int ri = 0; ri < (level == 2 ? 3 : 2); ri++) {
            int root = roots[ri];

            conf_phase("comm %d: scatter %zu root %d", cid, num, root);
            if (rank == root)
                for (int j = 0; j < size; j++)
                    conf_fill(in + (size_t)j * num, num,
                              bseed(1, cid, root, j, num));
            memset(out, 0, num);
            CHECK_OK(RCCE_scatter(in, out, num, root, *comm));
            CHECK_PATTERN(out, num, bseed(1, cid, root, rank, num));
            CHECK_GUARDS(out, all);

            conf_phase("comm %d: gather %zu root %d", cid, num, root);
            conf_fill(in, num, bseed(2, cid, rank, root, num));
            memset(out, 0, all);
            CHECK_OK(RCCE_gather(in, out, num, root, *comm));
            if (rank == root)
                for (int j = 0; j < size; j++)
                    CHECK_PATTERN(out + (size_t)j * num, num,
                                  bseed(2, cid, j, root, num));
            CHECK_GUARDS(out, all);

            conf_phase("comm %d: bcast %zu root %d", cid, all, root);
            if (rank == root)
                conf_fill(out, all, bseed(5, cid, root, 0, all));
            else
                memset(out, 0, all);
            CHECK_OK(RCCE_comm_bcast(out, all, root, *comm));
            CHECK_PATTERN(out, all, bseed(5, cid, root, 0, all));
        }

        conf_phase("comm %d: allgather %zu", cid, num);
        conf_fill(in, num, bseed(3, cid, rank, 0, num));
        memset(out, 0, all);
        CHECK_OK(RCCE_allgather(in, out, num, *comm));
        for (int j = 0; j < size; j++)
            CHECK_PATTERN(out + (size_t)j * num, num,
                          bseed(3, cid, j, 0, num));

        conf_phase("comm %d: alltoall %zu", cid, num);
        for (int j = 0; j < size; j++)
            conf_fill(in + (size_t)j * num, num, bseed(4, cid, rank, j, num));
        memset(out, 0, all);
        CHECK_OK(RCCE_alltoall(in, out, num, *comm));
        for (int j = 0; j < size; j++)
            CHECK_PATTERN(out + (size_t)j * num, num,
                          bseed(4, cid, j, rank, num));
        CHECK_GUARDS(out, all);
        conf_gfree(in);
        conf_gfree(out);
    }
}

/* ---- bad input ---- */

static void bad_input(void)
{
    RCCE_COMM bogus, w = RCCE_COMM_WORLD;
    char a[64], b[64 * 48 * 2];
    int counts[RCCE_MAXNP];

    conf_phase("bad input");
    memset(&bogus, 0, sizeof bogus);
    for (int i = 0; i < RCCE_MAXNP; i++)
        counts[i] = 1;
    EXPECT_RC(RCCE_scatter(a, b, 1, 0, bogus), RCCE_ERROR_COMM_UNDEFINED);
    EXPECT_RC(RCCE_gather(a, b, 1, 0, bogus), RCCE_ERROR_COMM_UNDEFINED);
    EXPECT_RC(RCCE_allgather(a, b, 1, bogus), RCCE_ERROR_COMM_UNDEFINED);
    EXPECT_RC(RCCE_alltoall(a, b, 1, bogus), RCCE_ERROR_COMM_UNDEFINED);
    EXPECT_RC(RCCE_reduce_scatter(a, b, counts, RCCE_INT, RCCE_SUM, bogus),
              RCCE_ERROR_COMM_UNDEFINED);
    EXPECT_RC(RCCE_comm_bcast(a, 1, 0, bogus), RCCE_ERROR_COMM_UNDEFINED);
    EXPECT_RC(RCCE_comm_reduce(a, b, 1, RCCE_INT, RCCE_SUM, 0, bogus),
              RCCE_ERROR_COMM_UNDEFINED);
    EXPECT_RC(RCCE_comm_allreduce(a, b, 1, RCCE_INT, RCCE_SUM, bogus),
              RCCE_ERROR_COMM_UNDEFINED);
    EXPECT_RC(RCCE_scatter(a, b, 1, n, w), RCCE_ERROR_ID);
    EXPECT_RC(RCCE_gather(a, b, 1, -1, w), RCCE_ERROR_ID);
    EXPECT_RC(RCCE_comm_bcast(a, 1, n, w), RCCE_ERROR_ID);
    EXPECT_RC(RCCE_comm_reduce(a, b, 1, RCCE_INT, RCCE_SUM, n, w),
              RCCE_ERROR_ID);
    EXPECT_RC(RCCE_comm_reduce(a, b, 1, 12345, RCCE_SUM, 0, w),
              RCCE_ERROR_ILLEGAL_TYPE);
    EXPECT_RC(RCCE_comm_allreduce(a, b, 1, RCCE_INT, 999, w),
              RCCE_ERROR_ILLEGAL_OP);
    EXPECT_RC(RCCE_comm_allreduce(a, b, -1, RCCE_INT, RCCE_SUM, w),
              RCCE_ERROR_MESSAGE_LENGTH);
    EXPECT_RC(RCCE_reduce_scatter(a, b, NULL, RCCE_INT, RCCE_SUM, w),
              RCCE_ERROR_VAL_UNDEFINED);
    EXPECT_RC(RCCE_reduce_scatter(a, b, counts, RCCE_INT, -3, w),
              RCCE_ERROR_ILLEGAL_OP);
    EXPECT_RC(RCCE_reduce_scatter(a, b, counts, -3, RCCE_MAX, w),
              RCCE_ERROR_ILLEGAL_TYPE);
    counts[n - 1] = -1;
    EXPECT_RC(RCCE_reduce_scatter(a, b, counts, RCCE_INT, RCCE_SUM, w),
              RCCE_ERROR_MESSAGE_LENGTH);
    EXPECT_RC(RCCE_allgather(NULL, b, 4, w), RCCE_ERROR_SOURCE);
    EXPECT_RC(RCCE_alltoall(a, NULL, 4, w), RCCE_ERROR_TARGET);
    EXPECT_RC(RCCE_scatter(a, NULL, 4, 0, w), RCCE_ERROR_TARGET);
    EXPECT_RC(RCCE_comm_allreduce(a, NULL, 1, RCCE_INT, RCCE_SUM, w),
              RCCE_ERROR_TARGET);
    /* zero-sized operations succeed without buffers */
    EXPECT_RC(RCCE_scatter(NULL, NULL, 0, 0, w), RCCE_SUCCESS);
    EXPECT_RC(RCCE_comm_bcast(NULL, 0, 0, w), RCCE_SUCCESS);
}

/* ---- communicators ---- */

static int color_parity(int ue, void *aux)
{
    (void)aux;
    return ue % 2;
}

static int color_block3(int ue, void *aux)
{
    (void)aux;
    return ue / 3;
}

static int color_spread(int ue, void *aux)
{
    (void)aux;
    return (ue * 5) % 3;
}

int main(int argc, char **argv)
{
    int (*colors[])(int, void *) = {color_parity, color_block3, color_spread};

    conf_watchdog();
    CHECK_OK(RCCE_init(&argc, &argv));
    conf_started();
    me = RCCE_ue();
    n = RCCE_num_ues();
    level = n <= 5 ? 2 : n <= 8 ? 1 : 0;
    bad_input();
    movement(&RCCE_COMM_WORLD, 0);
    reductions(&RCCE_COMM_WORLD, 0);
    for (int c = 0; c < 3; c++) {
        RCCE_COMM comm;
        memset(&comm, 0, sizeof comm);
        CHECK_OK(RCCE_comm_split(colors[c], NULL, &comm));
        /* beyond 8 UEs one split communicator is enough */
        if (level > 0 || c == 2) {
            movement(&comm, c + 1);
            reductions(&comm, c + 1);
        }
        CHECK_OK(RCCE_comm_free(&comm));
    }
    bad_input();
    CHECK_OK(RCCE_finalize());
    conf_soft_exit();
    return 0;
}
