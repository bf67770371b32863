/*
 * Power management (-DRC_POWER_MANAGEMENT): power domains, their masters
 * and sizes, RCCE_P_COMM, RCCE_iset_power + RCCE_wait_power on the master
 * (voltage chosen as the lowest safe one for the divider) and
 * RCCE_set_frequency_divider (refused when the divider asks for more speed
 * than the current voltage allows).
 *
 * Domains: 6 islands of 2 x 2 tiles; core c is on tile c / 2 at
 * (tile % 6, tile / 6), its domain is x / 2 + 3 * (y / 2). The launcher's
 * default placement puts UE i on core i; a run with `rck run --cores LIST`
 * passes the same LIST (comma-separated core ids, ascending) as the
 * program's argument. The consistency checks (same master and size for
 * all members, master = lowest member) hold for any placement.
 *
 * Voltage table (the power-model paper's operating points, docs/POWER.md):
 * fdiv 2 needs 1.1 V, 3 0.8 V, 4 and slower the regulator's lowest, 0.7 V.
 * The returned voltage levels are Intel's numbers (RC_voltage_level of
 * Intel's RCCE_power_management.c: levels 0-6 for 0.7-1.3 V, a divider
 * the lowest level whose frequency cap reaches 1600/fdiv MHz): 4 for
 * fdiv 2 (800 MHz, cap 875), 1 for fdiv 3 (533, cap 598), 0 from fdiv 4
 * on (400 MHz and less, cap 460).
 */
#include "conf.h"

#ifndef RC_POWER_MANAGEMENT
#error "t_power.c is built with -DRC_POWER_MANAGEMENT"
#endif

static int me, n;
static int cores[RCCE_MAXNP]; /* physical core of each UE */

static int domain_of_core(int core)
{
    int tile = core / 2, x = tile % 6, y = tile / 6;
    return x / 2 + 3 * (y / 2);
}

static void check_domains(void)
{
    conf_phase("power domain queries");
    int dom = RCCE_power_domain();
    int master = RCCE_power_domain_master();
    int size = RCCE_power_domain_size();
    CHECK(dom >= 0 && dom < 6);
    CHECK_EQ(dom, domain_of_core(cores[me]));
    int want_master = -1, want_size = 0;
    for (int u = 0; u < n; u++)
        if (domain_of_core(cores[u]) == dom) {
            if (want_master < 0)
                want_master = u;
            want_size++;
        }
    CHECK_EQ(master, want_master);
    CHECK_EQ(size, want_size);
    CHECK(size >= 1 && size <= 8);

    conf_phase("RCCE_P_COMM");
    int csize = -1, crank = -1;
    CHECK_OK(RCCE_comm_size(RCCE_P_COMM, &csize));
    CHECK_OK(RCCE_comm_rank(RCCE_P_COMM, &crank));
    CHECK_EQ(csize, size);
    CHECK_EQ(RCCE_P_COMM.member[0], master);
    CHECK_EQ(RCCE_P_COMM.member[crank], me);
    for (int i = 0, u = 0; u < n; u++)
        if (domain_of_core(cores[u]) == dom)
            CHECK_EQ(RCCE_P_COMM.member[i++], u);
    /* the domain communicator works */
    CHECK_OK(RCCE_barrier(&RCCE_P_COMM));
    int one = 1, count = 0;
    CHECK_OK(RCCE_allreduce((char *)&one, (char *)&count, 1, RCCE_INT,
                            RCCE_SUM, RCCE_P_COMM));
    CHECK_EQ(count, size);

    conf_phase("domains agree across UEs");
    /* placement-independent: everybody's (domain, master, size) at UE 0 */
    int mine[3] = {dom, master, size};
    if (me == 0) {
        int all[RCCE_MAXNP][3];
        memcpy(all[0], mine, sizeof mine);
        for (int s = 1; s < n; s++)
            CHECK_OK(RCCE_recv((char *)all[s], sizeof all[s], s));
        for (int u = 0; u < n; u++) {
            int cnt = 0, low = -1;
            for (int v = 0; v < n; v++)
                if (all[v][0] == all[u][0]) {
                    if (low < 0)
                        low = v;
                    cnt++;
                }
            CHECKF(all[u][1] == low, "UE %d: master %d, lowest member %d", u,
                   all[u][1], low);
            CHECKF(all[u][2] == cnt, "UE %d: size %d, %d members", u,
                   all[u][2], cnt);
        }
    } else {
        CHECK_OK(RCCE_send((char *)mine, sizeof mine, 0));
    }
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
}

/* iset_power + wait_power; returns the voltage level reported. */
static int set_power(int fdiv)
{
    RCCE_REQUEST req;
    int fnew = -1, vnew = -12345;
    conf_phase("iset_power %d", fdiv);
    memset(&req, 0, sizeof req);
    CHECK_OK(RCCE_iset_power(fdiv, &req, &fnew, &vnew));
    CHECK_EQ(fnew, fdiv);
    CHECK(vnew != -12345);
    CHECK_OK(RCCE_wait_power(&req));
    return vnew;
}

static void out_of_range(int fdiv)
{
    int fnew = -1;
    conf_phase("set_frequency_divider %d (out of range)", fdiv);
    int rc = RCCE_set_frequency_divider(fdiv, &fnew);
    /* refused, or (as Intel's RCCE did) clamped to 2..16 */
    CHECKF(rc == RCCE_ERROR_FDIVIDER ||
               (rc == RCCE_SUCCESS && fnew >= 2 && fnew <= 16),
           "returned %d %s, fdiv_new %d", rc, conf_code_name(rc), fnew);
}

static void master_steps(void)
{
    int f = -1;

    int v8 = set_power(8);
    /* too fast for the voltage: RCCE_ERROR_FDIVIDER, as in Intel's RCCE
     * (RCCE_set_frequency_divider: "if (RC_current_voltage_level < Vlevel)
     * return RCCE_ERROR_FDIVIDER"), which programs test for */
    conf_phase("set_frequency_divider at fdiv 8's voltage");
    EXPECT_RC(RCCE_set_frequency_divider(2, &f), RCCE_ERROR_FDIVIDER);
    EXPECT_RC(RCCE_set_frequency_divider(3, &f), RCCE_ERROR_FDIVIDER);
    f = -1;
    CHECK_OK(RCCE_set_frequency_divider(4, &f)); /* same voltage as 8 */
    CHECK_EQ(f, 4);
    CHECK_OK(RCCE_set_frequency_divider(5, &f));
    CHECK_EQ(f, 5);
    CHECK_OK(RCCE_set_frequency_divider(16, &f));
    CHECK_EQ(f, 16);
    CHECK_OK(RCCE_set_frequency_divider(8, &f));
    CHECK_EQ(f, 8);

    int v3 = set_power(3);
    CHECKF(v3 > v8, "level %d for fdiv 3, %d for fdiv 8", v3, v8);
    CHECKF(v3 == 1 && v8 == 0, "levels %d (fdiv 3) and %d (fdiv 8): Intel's "
           "table gives 1 and 0", v3, v8);
    conf_phase("set_frequency_divider at fdiv 3's voltage");
    EXPECT_RC(RCCE_set_frequency_divider(2, &f), RCCE_ERROR_FDIVIDER);
    CHECK_OK(RCCE_set_frequency_divider(4, &f));
    CHECK_EQ(f, 4);
    CHECK_OK(RCCE_set_frequency_divider(3, &f));
    CHECK_EQ(f, 3);

    int v2 = set_power(2);
    CHECKF(v2 > v3, "level %d for fdiv 2, %d for fdiv 3", v2, v3);
    CHECKF(v2 == 4, "level %d for fdiv 2: Intel's table gives 4", v2);
    CHECK_OK(RCCE_set_frequency_divider(2, &f));
    CHECK_EQ(f, 2);

    int v4 = set_power(4);
    int v5 = set_power(5);
    CHECKF(v3 > v4 && v4 == v5, "levels %d (fdiv 3) %d (4) %d (5)", v3, v4,
           v5);
    for (int fd = 6; fd <= 16; fd++) {
        int v = set_power(fd);
        CHECKF(v == v5, "level %d for fdiv %d, %d for fdiv 5", v, fd, v5);
    }

    out_of_range(1);
    out_of_range(0);
    out_of_range(17);
    out_of_range(-3);

    conf_phase("a second request while one is in flight");
    RCCE_REQUEST r1, r2;
    int fn = 0, vn = 0;
    memset(&r1, 0, sizeof r1);
    memset(&r2, 0, sizeof r2);
    CHECK_OK(RCCE_iset_power(6, &r1, &fn, &vn));
    int rc2 = RCCE_iset_power(7, &r2, &fn, &vn);
    EXPECTF(rc2 != RCCE_SUCCESS,
            "a second iset_power with one in flight returned RCCE_SUCCESS "
            "(Intel's RCCE: RCCE_ERROR_MULTIPLE_RPC_REQUESTS)");
    CHECK_OK(RCCE_wait_power(&r1));
    if (rc2 == RCCE_SUCCESS)
        CHECK_OK(RCCE_wait_power(&r2));
    conf_phase("wait_power with nothing in flight");
    CHECK_NOT_OK(RCCE_wait_power(&r1));

    /* back to the chip's default operating point (533 MHz) */
    set_power(3);
}

int main(int argc, char **argv)
{
    conf_watchdog();
    CHECK_OK(RCCE_init(&argc, &argv));
    conf_started();
    me = RCCE_ue();
    n = RCCE_num_ues();
    for (int u = 0; u < n; u++)
        cores[u] = u;
    if (argc > 1) {
        /* the placement given to the launcher */
        char *s = argv[1];
        for (int u = 0; u < n; u++) {
            char *end;
            cores[u] = (int)strtol(s, &end, 10);
            CHECKF(end != s && (*end == ',' || *end == '\0'),
                   "bad core list '%s'", argv[1]);
            s = *end ? end + 1 : end;
        }
        CHECKF(*s == '\0', "core list '%s' is longer than %d UEs", argv[1], n);
    }

    check_domains();

    if (me == RCCE_power_domain_master()) {
        master_steps();
    } else {
        /* everybody may call; only the master acts (programs rely on it) */
        RCCE_REQUEST req;
        int fnew = -1, vnew = -1;
        conf_phase("iset_power on a non-master");
        memset(&req, 0, sizeof req);
        CHECK_OK(RCCE_iset_power(5, &req, &fnew, &vnew));
        CHECK_OK(RCCE_wait_power(&req));
    }

    conf_phase("finalize");
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
    CHECK_OK(RCCE_finalize());
    conf_soft_exit(); /* after finalize, so the other UEs end cleanly */
    return 0;
}
