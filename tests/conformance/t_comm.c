/*
 * RCCE_comm_split / comm_size / comm_rank / comm_free, and barrier, bcast,
 * reduce and allreduce on the communicators it makes.
 *
 * Splits: even/odd, blocks of 4, a color function that reads its aux
 * pointer (a table of colors that puts non-adjacent UEs together, and a
 * modulus), every UE alone, everybody together. Membership, size and rank
 * are checked against a list computed here; collectives run in all groups
 * at the same time and are checked against references computed from the
 * group's member list. Several communicators are alive at once, and a long
 * split/free loop catches leaked MPB flags.
 *
 * Also built with -DSINGLEBITFLAGS (conf_comm_sbf).
 */
#include "conf.h"

#include <time.h>

static int me, n;

static int color_parity(int ue, void *aux)
{
    (void)aux;
    return ue % 2;
}

static int color_block4(int ue, void *aux)
{
    (void)aux;
    return ue / 4;
}

static int color_table(int ue, void *aux)
{
    const int *table = aux;
    return table[ue];
}

static int color_modulus(int ue, void *aux)
{
    const int *mod = aux;
    return (ue * 7) % *mod;
}

static int color_self(int ue, void *aux)
{
    (void)aux;
    return ue;
}

static int color_one(int ue, void *aux)
{
    (void)aux;
    (void)ue;
    return 42;
}

/* Expected membership: the UEs with my color, in global rank order. */
static int expected_members(int (*color)(int, void *), void *aux, int *mem,
                            int *myrank)
{
    int mine = color(me, aux), cnt = 0;
    for (int u = 0; u < n; u++)
        if (color(u, aux) == mine) {
            if (u == me)
                *myrank = cnt;
            mem[cnt++] = u;
        }
    return cnt;
}

static void check_comm(const RCCE_COMM *c, int (*color)(int, void *),
                       void *aux, const char *what)
{
    int mem[RCCE_MAXNP], myrank = -1;
    int cnt = expected_members(color, aux, mem, &myrank);
    int size = -1, rank = -1;
    conf_phase("check %s", what);
    CHECK_OK(RCCE_comm_size(*c, &size));
    CHECK_OK(RCCE_comm_rank(*c, &rank));
    CHECK_EQ(size, cnt);
    CHECK_EQ(rank, myrank);
    CHECK_EQ(c->size, cnt);
    CHECK_EQ(c->my_rank, myrank);
    CHECK(c->initialized);
    for (int i = 0; i < cnt; i++)
        CHECKF(c->member[i] == mem[i], "%s: member[%d] is %d, expected %d",
               what, i, c->member[i], mem[i]);
}

/* Collectives inside one split communicator; all groups run at once. */
static void exercise(RCCE_COMM *c, int (*color)(int, void *), void *aux,
                     const char *what, int tag)
{
    int mem[RCCE_MAXNP], myrank = -1;
    int cnt = expected_members(color, aux, mem, &myrank);

    conf_phase("%s: barrier", what);
    for (int k = 0; k < 20; k++)
        CHECK_OK(RCCE_barrier(c));

    /* bcast from the last and the first rank of the group, a size that
     * spans several MPB payloads */
    int broots[2] = {cnt - 1, 0};
    for (int b = 0; b < 2; b++) {
        int root = broots[b];
        size_t size = 20001;
        conf_phase("%s: bcast root %d", what, root);
        uint32_t seed = (uint32_t)tag * 977u + (uint32_t)mem[root] * 13u +
                        (uint32_t)b;
        char *buf = conf_galloc(size, 3);
        if (myrank == root)
            conf_fill(buf, size, seed);
        else
            memset(buf, 0, size);
        CHECK_OK(RCCE_bcast(buf, size, root, *c));
        CHECK_PATTERN(buf, size, seed);
        CHECK_GUARDS(buf, size);
        conf_gfree(buf);
    }

    /* reduce (root = last rank) and allreduce: int SUM/MIN/MAX/PROD and
     * double SUM, 1 and 1500 elements; inputs depend on the global UE so
     * a wrong membership changes the result */
    static const int ops[] = {RCCE_SUM, RCCE_MIN, RCCE_MAX, RCCE_PROD};
    static const int counts[] = {1, 1500};
    for (int oi = 0; oi < 4; oi++)
        for (int ci = 0; ci < 2; ci++) {
            int count = counts[ci];
            int *in = malloc(sizeof(int) * (size_t)count);
            int *out = malloc(sizeof(int) * (size_t)count);
            int *ref = malloc(sizeof(int) * (size_t)count);
            CHECK(in && out && ref);
            for (int i = 0; i < count; i++) {
                for (int r = 0; r < cnt; r++) {
                    int u = mem[r];
                    int v = ops[oi] == RCCE_PROD
                                ? ((u + i) % 3 == 0 ? 2 : ((u + i) % 5 == 0 ? -1 : 1))
                                : (u * 37 + i * 11 + tag) % 97 - 48;
                    if (u == me)
                        in[i] = v;
                    if (r == 0)
                        ref[i] = v;
                    else if (ops[oi] == RCCE_SUM)
                        ref[i] += v;
                    else if (ops[oi] == RCCE_MIN)
                        ref[i] = v < ref[i] ? v : ref[i];
                    else if (ops[oi] == RCCE_MAX)
                        ref[i] = v > ref[i] ? v : ref[i];
                    else
                        ref[i] *= v;
                }
            }
            conf_phase("%s: allreduce op %d count %d", what, oi, count);
            memset(out, 0x7F, sizeof(int) * (size_t)count);
            CHECK_OK(RCCE_allreduce((char *)in, (char *)out, count, RCCE_INT,
                                    ops[oi], *c));
            for (int i = 0; i < count; i++)
                CHECKF(out[i] == ref[i], "allreduce[%d] = %d, expected %d", i,
                       out[i], ref[i]);
            conf_phase("%s: reduce op %d count %d", what, oi, count);
            memset(out, 0x7F, sizeof(int) * (size_t)count);
            CHECK_OK(RCCE_reduce((char *)in, (char *)out, count, RCCE_INT,
                                 ops[oi], cnt - 1, *c));
            if (myrank == cnt - 1)
                for (int i = 0; i < count; i++)
                    CHECKF(out[i] == ref[i], "reduce[%d] = %d, expected %d",
                           i, out[i], ref[i]);
            free(in);
            free(out);
            free(ref);
        }

    conf_phase("%s: double allreduce", what);
    double din[3], dout[3], dref[3] = {0, 0, 0};
    for (int r = 0; r < cnt; r++)
        for (int i = 0; i < 3; i++) {
            double v = (mem[r] + 1) * 0.5 + i;
            if (mem[r] == me)
                din[i] = v;
            dref[i] += v;
        }
    CHECK_OK(RCCE_allreduce((char *)din, (char *)dout, 3, RCCE_DOUBLE,
                            RCCE_SUM, *c));
    for (int i = 0; i < 3; i++)
        CHECKF(dout[i] == dref[i], "double allreduce[%d] = %g, expected %g", i,
               dout[i], dref[i]);
    CHECK_OK(RCCE_barrier(c));
}

int main(int argc, char **argv)
{
    conf_watchdog();
    CHECK_OK(RCCE_init(&argc, &argv));
    conf_started();
    me = RCCE_ue();
    n = RCCE_num_ues();

    /* colors from a table through aux: non-adjacent UEs together, colors
     * that are neither small nor sorted */
    int table[RCCE_MAXNP];
    for (int u = 0; u < RCCE_MAXNP; u++)
        table[u] = 1000 - ((u * 5 + 3) % 4) * 100;
    int modulus = 3;

    static RCCE_COMM c_par, c_blk, c_tab, c_mod;
    conf_phase("split parity");
    CHECK_OK(RCCE_comm_split(color_parity, NULL, &c_par));
    conf_phase("split block4");
    CHECK_OK(RCCE_comm_split(color_block4, NULL, &c_blk));
    conf_phase("split table");
    CHECK_OK(RCCE_comm_split(color_table, table, &c_tab));
    conf_phase("split modulus");
    CHECK_OK(RCCE_comm_split(color_modulus, &modulus, &c_mod));

    check_comm(&c_par, color_parity, NULL, "parity");
    check_comm(&c_blk, color_block4, NULL, "block4");
    check_comm(&c_tab, color_table, table, "table");
    check_comm(&c_mod, color_modulus, &modulus, "modulus");

    /* four communicators alive; use them interleaved */
    exercise(&c_par, color_parity, NULL, "parity", 1);
    exercise(&c_blk, color_block4, NULL, "block4", 2);
    exercise(&c_tab, color_table, table, "table", 3);
    exercise(&c_mod, color_modulus, &modulus, "modulus", 4);
    conf_phase("interleaved barriers");
    for (int k = 0; k < 10; k++) {
        CHECK_OK(RCCE_barrier(&c_par));
        CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
        CHECK_OK(RCCE_barrier(&c_blk));
        CHECK_OK(RCCE_barrier(&c_tab));
        CHECK_OK(RCCE_barrier(&c_mod));
    }
    /* the world is unaffected by the splits */
    CHECK_EQ(RCCE_COMM_WORLD.size, n);
    CHECK_EQ(RCCE_COMM_WORLD.my_rank, me);

    conf_phase("free");
    CHECK_OK(RCCE_comm_free(&c_par));
    CHECK_OK(RCCE_comm_free(&c_blk));
    CHECK_OK(RCCE_comm_free(&c_tab));
    CHECK_OK(RCCE_comm_free(&c_mod));

    /* singletons and the whole world as a split */
    static RCCE_COMM c_self, c_all;
    conf_phase("split self");
    CHECK_OK(RCCE_comm_split(color_self, NULL, &c_self));
    check_comm(&c_self, color_self, NULL, "self");
    exercise(&c_self, color_self, NULL, "self", 5);
    conf_phase("split all");
    CHECK_OK(RCCE_comm_split(color_one, NULL, &c_all));
    check_comm(&c_all, color_one, NULL, "all");
    exercise(&c_all, color_one, NULL, "all", 6);
    CHECK_OK(RCCE_comm_free(&c_self));
    CHECK_OK(RCCE_comm_free(&c_all));

    /* split/free many times: flags must be given back (an MPB holds only
     * 256 lines, so leaking two per communicator runs out), and a new
     * communicator with other members may get the flags of the one just
     * freed while its last barrier is still ending on other UEs */
    int cycles = 3000;
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int k = 0; k < cycles; k++) {
        if (k > 0 && k % 100 == 0) {
            /* a slow backend stops early: UE 0 decides by host time, which
             * keeps the suite's run time bounded on the simulator */
            struct timespec t;
            clock_gettime(CLOCK_MONOTONIC, &t);
            char go = (t.tv_sec - t0.tv_sec) < 15;
            conf_phase("split/free cycle %d: continue?", k);
            CHECK_OK(RCCE_bcast(&go, 1, 0, RCCE_COMM_WORLD));
            if (!go)
                break;
        }
        RCCE_COMM c;
        memset(&c, 0, sizeof c);
        conf_phase("split/free cycle %d", k);
        CHECK_OK(RCCE_comm_split(k % 2 ? color_parity : color_block4, NULL,
                                 &c));
        check_comm(&c, k % 2 ? color_parity : color_block4, NULL, "cycle");
        CHECK_OK(RCCE_barrier(&c));
        CHECK_OK(RCCE_comm_free(&c));
    }

    /* a freed communicator can be split again */
    conf_phase("reuse after free");
    CHECK_OK(RCCE_comm_split(color_block4, NULL, &c_par));
    check_comm(&c_par, color_block4, NULL, "reused");
    exercise(&c_par, color_block4, NULL, "reused", 7);
    CHECK_OK(RCCE_comm_free(&c_par));

    conf_phase("finalize");
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
    CHECK_OK(RCCE_finalize());
    return 0;
}
