/*
 * The sim's power model (docs/POWER.md): dynamic power C V^2 f of every
 * core by what it is doing, energy per MPB line and per DRAM transaction,
 * leakage k V^3 of every core of an island whatever it does, and the mesh
 * (routers C V^2 f + k V^3, global clocking) and memory controllers as
 * constant power at the run's mesh clock. C and k of cores and routers are
 * not free constants: they are solved from the published power breakdown
 * of the SCC at its two published operating points (Howard et al., ISSCC
 * 2010), listed in sim_power_pub below.
 *
 * Also the regulator: a voltage change takes dvfs.volt_change_cycles, one
 * per island in flight (the HAL checks the chip's voltage rules, hal.c).
 *
 * Owns: sim_power_hdr_t, sim_power_ue_t (sim_power_types.h), the
 * RCK_SIM_POWER_PERIOD_US setting. May call: the engine's helpers
 * (sim_state.h). Called by sim.c, sim_charge.h, sim_report.c,
 * sim_trace.c.
 */
#include "sim_power.h"
#include "sim_state.h"
#include "rck_published.h"
#include "sim_costs.h"

#include "rck/config.h"
#include "rck/log.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>

static const rck_config_entry_t sim_power_settings[] = {
    {"SIM_POWER_PERIOD_US", "100", RCK_CONFIG_STRING,
     "sim: period of the modelled power sensor, microseconds of chip time "
     "(the report's power.series; longer runs merge samples two by two)",
     "#.#"},
    {NULL, NULL, RCK_CONFIG_STRING, NULL, NULL}};

__attribute__((constructor)) static void sim_power_register(void)
{
    rck_config_register(sim_power_settings, RCK_SIM_CONFIG_RANK);
}

/* The published figures the model is solved from (docs/POWER.md; their
 * home is config/published.json, "power.low.*" and "power.high.*",
 * compiled in as rck_published.h): the SCC at its two published operating
 * points, broken down by part (Howard et al., ISSCC 2010, power breakdown
 * figure). */
#define SIM_POWER_POINT(P)                                                    \
    {RCK_PUB_POWER_##P##_VOLTS,     RCK_PUB_POWER_##P##_CORE_MHZ,             \
     RCK_PUB_POWER_##P##_MESH_MHZ,  RCK_PUB_POWER_##P##_CORES_W,              \
     RCK_PUB_POWER_##P##_ROUTERS_W, RCK_PUB_POWER_##P##_MCS_W,                \
     RCK_PUB_POWER_##P##_CLOCK_W}
static const struct {
    double volts, core_mhz, mesh_mhz;
    double cores_w, routers_w, mcs_w, clock_w;
} sim_power_pub[2] = {SIM_POWER_POINT(LOW), SIM_POWER_POINT(HIGH)};
#undef SIM_POWER_POINT
#define PUB_CORES 48
#define PUB_ROUTERS 24
#define PUB_MCS 4

/* Model assumptions (no published figure; docs/POWER.md says why): the
 * activity of a core by what it does and the energy per MPB line and per
 * DRAM transaction are parameters of the schema (sim_costs.h,
 * "power_model"), whose rows hold their defaults. */
static double activity(const rck_chip_t *c, int cat)
{
    /* the six rows are consecutive fields, in the categories' order: one
     * load, as from the constant table this replaced */
    return (&sim_costs(c)->power_act_compute)[cat];
}

#define SIM_ACT_AT(cat, field)                                                \
    _Static_assert(offsetof(sim_costs_t, field) ==                            \
                       offsetof(sim_costs_t, power_act_compute) +             \
                           (cat) * sizeof(double),                            \
                   #field " follows the categories' order")
SIM_ACT_AT(CAT_MPB, power_act_mpb);
SIM_ACT_AT(CAT_DRAM, power_act_dram);
SIM_ACT_AT(CAT_WAIT, power_act_wait);
SIM_ACT_AT(CAT_IRQ, power_act_irq);
SIM_ACT_AT(CAT_OTHER, power_act_other);
_Static_assert(CAT_COMPUTE == 0 && CAT_N == 6, "six categories");
#undef SIM_ACT_AT

typedef struct {
    double core_c, core_k;     /* F, W/V^3 per core */
    double router_c, router_k; /* per router */
    double mc_w;               /* per memory controller, idle */
    double clock_w0, clock_w_per_mhz;
} sim_power_model_t;

/* Solve n (C V^2 f + k V^3) = P at both published points. */
static void solve_ck(double w0, double w1, int n, double *cap, double *k)
{
    double a0 = sim_power_pub[0].volts, a1 = sim_power_pub[1].volts;
    double f0 = sim_power_pub[0].core_mhz * 1e6;
    double f1 = sim_power_pub[1].core_mhz * 1e6;
    double m00 = a0 * a0 * f0, m01 = a0 * a0 * a0;
    double m10 = a1 * a1 * f1, m11 = a1 * a1 * a1;
    double det = m00 * m11 - m01 * m10;

    *cap = (w0 / n * m11 - m01 * w1 / n) / det;
    *k = (m00 * w1 / n - w0 / n * m10) / det;
}

static const sim_power_model_t *model(void)
{
    static sim_power_model_t m;
    static int ready;

    if (!ready) {
        double rc, rk, f0 = sim_power_pub[0].mesh_mhz;
        double f1 = sim_power_pub[1].mesh_mhz;
        solve_ck(sim_power_pub[0].cores_w, sim_power_pub[1].cores_w,
                 PUB_CORES, &m.core_c, &m.core_k);
        /* routers run at the mesh clock, twice the cores' at both points:
         * solve with the core clocks and halve C */
        solve_ck(sim_power_pub[0].routers_w, sim_power_pub[1].routers_w,
                 PUB_ROUTERS, &rc, &rk);
        m.router_c = rc * sim_power_pub[0].core_mhz / f0;
        m.router_k = rk;
        m.mc_w = sim_power_pub[0].mcs_w / PUB_MCS;
        m.clock_w_per_mhz = (sim_power_pub[1].clock_w -
                             sim_power_pub[0].clock_w) / (f1 - f0);
        m.clock_w0 = sim_power_pub[0].clock_w - m.clock_w_per_mhz * f0;
        ready = 1;
    }
    return &m;
}

rck_status_t sim_power_configure(sim_hdr_t *h)
{
    const char *s = rck_config_get("SIM_POWER_PERIOD_US");
    char *end = NULL;
    double us = s != NULL ? strtod(s, &end) : 100.0;

    if (s == NULL || end == s || *end != '\0' || !(us > 0) || us > 1e9) {
        rck_error("RCK_SIM_POWER_PERIOD_US: '%s' is not a positive number "
                  "of microseconds",
                  s != NULL ? s : "");
        return RCK_ERR_CONFIG;
    }
    h->pw.period_us = us;
    return RCK_OK;
}

/* The sensor period in ticks (the chip is in the segment only after the
 * settings are resolved); 0 when there is no model (period_us unset). */
static uint64_t period_of(sim_hdr_t *h)
{
    if (h->pw.period == 0 && h->pw.period_us > 0) {
        h->pw.period = sim_ticks(h->pw.period_us * h->chip.core_mhz);
        if (h->pw.period == 0)
            h->pw.period = 1;
    }
    return h->pw.period;
}

/* Seconds of @p ticks. */
static double secs(const rck_chip_t *c, uint64_t ticks)
{
    return (double)ticks / (double)SIM_TICKS / (c->core_mhz * 1e6);
}

/* Voltage (mV) of @p island at time @p t. */
static uint32_t volts_at(const sim_hdr_t *h, int island, uint64_t t)
{
    if (h->pw.done[island] != 0 && t >= h->pw.done[island])
        return h->pw.target_mv[island];
    return h->volt_mv[island];
}

/* Apply a change whose time has come. */
static void settle(sim_hdr_t *h, int island, uint64_t t)
{
    if (h->pw.done[island] != 0 && t >= h->pw.done[island]) {
        h->volt_mv[island] = h->pw.target_mv[island];
        h->pw.done[island] = 0;
    }
}

/* Leakage of one core (W) at @p mv. */
static double core_leak_w(uint32_t mv)
{
    double v = mv / 1000.0;
    return model()->core_k * v * v * v;
}

/* Dynamic power (W) of one core at @p mv, @p mhz doing @p cat. */
static double core_dyn_w(const rck_chip_t *c, uint32_t mv, double mhz,
                         int cat)
{
    double v = mv / 1000.0;
    return model()->core_c * v * v * mhz * 1e6 * activity(c, cat);
}

/* Mesh routers, global clocking and memory controllers (W). */
static double uncore_w(const rck_chip_t *c)
{
    const sim_power_model_t *m = model();
    double v = c->mesh_volts;
    double router = m->router_c * v * v * c->mesh_mhz * 1e6 +
                    m->router_k * v * v * v;

    return router * c->ntiles + m->clock_w0 +
           m->clock_w_per_mhz * c->mesh_mhz + m->mc_w * c->nmc;
}

/* Add @p e joules spread evenly over [t0, t0 + n) to @p p's bins. */
static void bin_add(sim_power_ue_t *p, uint64_t period, uint64_t t0,
                    uint64_t n, double e)
{
    uint64_t w = period << p->shift, t1 = t0 + (n ? n : 1);

    while ((t1 - 1) / w >= SIM_PW_BINS) {
        for (int i = 0; i < SIM_PW_BINS / 2; i++)
            p->bin[i] = p->bin[2 * i] + p->bin[2 * i + 1];
        for (int i = SIM_PW_BINS / 2; i < SIM_PW_BINS; i++)
            p->bin[i] = 0;
        p->shift++;
        w <<= 1;
    }
    if (n == 0) {
        p->bin[t0 / w] += e;
        return;
    }
    for (uint64_t b = t0 / w; b <= (t1 - 1) / w; b++) {
        uint64_t lo = sim_max(t0, b * w), hi = sim_min(t1, (b + 1) * w);
        p->bin[b] += e * (double)(hi - lo) / (double)n;
    }
}

void sim_power_charge(sim_t *s, uint64_t ticks, int cat, double mhz)
{
    sim_ue_t *me = s->me;
    sim_power_ue_t *p = &me->pw;
    uint64_t mpb = me->mpb_lines_written + me->mpb_lines_read;
    double e;

    if (period_of(s->hdr) == 0)
        return;
    if (mhz <= 0)
        mhz = s->chip->core_mhz;
    e = core_dyn_w(s->chip,
                   volts_at(s->hdr, rck_chip_island(s->chip, s->core),
                            me->vt),
                   mhz, cat) *
        secs(s->chip, ticks);
    e += (double)(mpb - p->mpb_seen) * sim_costs(s->chip)->power_e_mpb_line +
         (double)(me->dram_tx - p->dram_seen) *
             sim_costs(s->chip)->power_e_dram_tx;
    p->mpb_seen = mpb;
    p->dram_seen = me->dram_tx;
    p->dyn_j += e;
    bin_add(p, s->hdr->pw.period, me->vt, ticks, e);
}

void sim_power_log(sim_t *s, int island, int what, int value, uint64_t done)
{
    sim_power_hdr_t *pw = &s->hdr->pw;
    sim_dvfs_ev_t *ev;

    if (pw->nlog >= SIM_DVFS_LOG) {
        pw->lost++;
        return;
    }
    ev = &pw->log[pw->nlog++];
    ev->t = s->me->vt;
    ev->done = done;
    ev->island = island;
    ev->core = s->core;
    ev->what = what;
    ev->value = value;
}

rck_status_t sim_power_volt_set(sim_t *s, int island, int mv)
{
    sim_hdr_t *h = s->hdr;
    uint64_t now = s->me->vt;

    settle(h, island, now);
    if (h->pw.done[island] != 0) {
        rck_error("volt_set: voltage island %d has a change to %u mV in "
                  "flight until cycle %llu (one request per island)",
                  island, h->pw.target_mv[island],
                  (unsigned long long)(h->pw.done[island] / SIM_TICKS));
        return RCK_ERR_BUSY;
    }
    if ((uint32_t)mv == h->volt_mv[island])
        return RCK_OK;
    h->pw.target_mv[island] = (uint32_t)mv;
    h->pw.done[island] = now + sim_ticks(s->chip->volt_change_cycles);
    if (h->pw.done[island] == now)
        h->volt_mv[island] = (uint32_t)mv, h->pw.done[island] = 0;
    sim_power_log(s, island, SIM_DVFS_VOLT, mv,
                  now + sim_ticks(s->chip->volt_change_cycles));
    return RCK_OK;
}

int sim_power_volt_get(sim_t *s, int island)
{
    settle(s->hdr, island, s->me->vt);
    return (int)s->hdr->volt_mv[island];
}

uint64_t sim_power_volt_done(sim_t *s, int island)
{
    settle(s->hdr, island, s->me->vt);
    return s->hdr->pw.done[island];
}

double sim_power_sensor(sim_t *s)
{
    sim_hdr_t *h = s->hdr;
    const rck_chip_t *c = s->chip;
    uint64_t t = s->me->vt;
    sim_core_t *cs = s->cores;
    double w = uncore_w(c);

    for (int core = 0; core < c->ncores; core++) {
        int ue = cs[core].ue;
        uint32_t mv = volts_at(h, rck_chip_island(c, core), t);
        uint32_t st = ue >= 0 ? atomic_load(&h->ue_state[ue]) : UE_ABSENT;

        w += core_leak_w(mv);
        if (st == UE_RUN || st == UE_FREE || ue == s->ue)
            w += core_dyn_w(c, mv, rck_chip_fdiv_mhz(c, (int)cs[core].fdiv),
                            CAT_COMPUTE);
        else if (st == UE_PARK)
            w += core_dyn_w(c, mv, rck_chip_fdiv_mhz(c, (int)cs[core].fdiv),
                            CAT_WAIT);
    }
    return w;
}

/* ---- report and trace ---- */

/* Leakage energy (J) of one core of @p island over [t0, t1), from the
 * DVFS log (the changes took effect at their `done` times). */
double sim_power_leak_j(const sim_hdr_t *h, int island, uint64_t t0,
                        uint64_t t1)
{
    uint32_t mv = (uint32_t)rck_chip_start_mv(&h->chip);
    uint64_t at = 0;
    double e = 0;

    for (uint32_t i = 0; i <= h->pw.nlog && t0 < t1; i++) {
        const sim_dvfs_ev_t *ev = i < h->pw.nlog ? &h->pw.log[i] : NULL;
        uint64_t until = ev != NULL ? ev->done : UINT64_MAX;

        if (ev != NULL && (ev->what != SIM_DVFS_VOLT || ev->island != island))
            continue;
        if (until > t0) {
            uint64_t hi = sim_min(until, t1);
            if (hi > sim_max(at, t0))
                e += core_leak_w(mv) * secs(&h->chip, hi - sim_max(at, t0));
        }
        if (ev != NULL) {
            at = until;
            mv = (uint32_t)ev->value;
        }
    }
    return e;
}

/* The series: bins of width period << shift covering [0, tmax). */
typedef struct {
    uint64_t w, tmax;
    uint32_t n;
    double *chip_w, *island_w; /* [n], [n * nislands] */
} sim_series_t;

static uint64_t run_ticks(sim_hdr_t *h)
{
    sim_ue_t *u = sim_hdr_ues(h);
    uint64_t t = 0;

    for (uint32_t i = 0; i < h->nues; i++)
        t = sim_max(t, u[i].vt);
    return t;
}

static int series_build(sim_hdr_t *h, sim_series_t *sr)
{
    const rck_chip_t *c = &h->chip;
    sim_ue_t *u = sim_hdr_ues(h);
    uint32_t shift = 0, ni = (uint32_t)c->nislands;
    double unc = uncore_w(c);

    sr->tmax = run_ticks(h);
    for (uint32_t i = 0; i < h->nues; i++)
        shift = u[i].pw.shift > shift ? u[i].pw.shift : shift;
    sr->w = h->pw.period << shift;
    sr->n = (uint32_t)((sr->tmax + sr->w - 1) / sr->w);
    if (sr->n > SIM_PW_BINS)
        sr->n = SIM_PW_BINS;
    sr->chip_w = calloc(sr->n + 1, sizeof(double));
    sr->island_w = calloc((size_t)(sr->n + 1) * ni, sizeof(double));
    if (sr->chip_w == NULL || sr->island_w == NULL)
        return -1;
    for (uint32_t i = 0; i < h->nues; i++) {
        int isl = rck_chip_island(c, h->ue_core[i]);
        for (uint32_t b = 0; b < SIM_PW_BINS; b++) {
            uint32_t to = b >> (shift - u[i].pw.shift);
            if (to < sr->n)
                sr->island_w[(size_t)to * ni + (uint32_t)isl] +=
                    u[i].pw.bin[b];
        }
    }
    for (uint32_t b = 0; b < sr->n; b++) {
        uint64_t lo = b * sr->w, hi = sim_min(sr->tmax, lo + sr->w);
        double dt = secs(c, hi - lo), sum = 0;
        for (uint32_t k = 0; k < ni; k++) {
            double *x = &sr->island_w[(size_t)b * ni + k];
            int per = c->island_w * c->island_h * c->cores_per_tile;
            *x = (*x + per * sim_power_leak_j(h, (int)k, lo, hi)) / dt;
            sum += *x;
        }
        sr->chip_w[b] = sum + unc;
    }
    return 0;
}

static void series_free(sim_series_t *sr)
{
    free(sr->chip_w);
    free(sr->island_w);
}

static void json_dvfs(rck_jsonw_t *w, const sim_hdr_t *h)
{
    rck_jsonw_array(w, "dvfs");
    rck_jsonw_indent_items(w, 4);
    for (uint32_t i = 0; i < h->pw.nlog; i++) {
        const sim_dvfs_ev_t *ev = &h->pw.log[i];
        int volt = ev->what == SIM_DVFS_VOLT;
        rck_jsonw_object(w, NULL);
        rck_jsonw_sig(w, "t_s", secs(&h->chip, ev->t), 9);
        rck_jsonw_uint(w, "cycle", ev->t / SIM_TICKS);
        rck_jsonw_int(w, "island", ev->island);
        rck_jsonw_int(w, "core", ev->core);
        rck_jsonw_string(w, "what", volt ? "volt" : "freq");
        rck_jsonw_int(w, volt ? "millivolts" : "divider", ev->value);
        if (volt)
            rck_jsonw_sig(w, "done_s", secs(&h->chip, ev->done), 9);
        rck_jsonw_end_object(w);
    }
    if (h->pw.nlog)
        rck_jsonw_break(w, 2);
    rck_jsonw_end_array(w);
    if (h->pw.lost)
        rck_jsonw_uint(w, "dvfs_lost", h->pw.lost);
}

/* The power series of the report (inside "power"). */
static void json_series(rck_jsonw_t *w, const rck_chip_t *c,
                        const sim_series_t *sr)
{
    rck_jsonw_break(w, 4);
    rck_jsonw_object(w, "series");
    rck_jsonw_sig(w, "period_s", secs(c, sr->w), 9);
    rck_jsonw_array(w, "t_s");
    for (uint32_t b = 0; b < sr->n; b++)
        rck_jsonw_sig(w, NULL, secs(c, sim_min(sr->tmax, (b + 1) * sr->w)),
                      9);
    rck_jsonw_end_array(w);
    rck_jsonw_break(w, 6);
    rck_jsonw_array(w, "chip_w");
    for (uint32_t b = 0; b < sr->n; b++)
        rck_jsonw_fixed(w, NULL, sr->chip_w[b], 6);
    rck_jsonw_end_array(w);
    rck_jsonw_break(w, 6);
    rck_jsonw_array(w, "island_w");
    for (uint32_t b = 0; b < sr->n; b++) {
        rck_jsonw_array(w, NULL);
        for (int k = 0; k < c->nislands; k++)
            rck_jsonw_fixed(w, NULL,
                            sr->island_w[(size_t)b * (uint32_t)c->nislands +
                                         (uint32_t)k],
                            6);
        rck_jsonw_end_array(w);
    }
    rck_jsonw_end_array(w);
    rck_jsonw_end_object(w);
}

void sim_power_report(rck_jsonw_t *w, sim_hdr_t *h)
{
    const rck_chip_t *c = &h->chip;
    sim_ue_t *u = sim_hdr_ues(h);
    double core_j[RCK_CHIP_MAX_CORES] = {0}, isl_j[SIM_PW_ISLANDS] = {0};
    double total = 0, unc_j, run_s;
    uint64_t tmax = run_ticks(h);
    sim_series_t sr = {0};

    if (period_of(h) == 0)
        return;
    run_s = secs(c, tmax);
    for (uint32_t i = 0; i < h->nues; i++)
        core_j[h->ue_core[i]] += u[i].pw.dyn_j;
    for (int k = 0; k < c->ncores; k++) {
        int isl = rck_chip_island(c, k);
        core_j[k] += sim_power_leak_j(h, isl, 0, tmax);
        isl_j[isl] += core_j[k];
    }
    unc_j = uncore_w(c) * run_s;
    rck_jsonw_object(w, "energy");
    rck_jsonw_string(w, "model", "docs/POWER.md");
    rck_jsonw_array(w, "per_core_j");
    for (int k = 0; k < c->ncores; k++)
        rck_jsonw_sig(w, NULL, core_j[k], 9);
    rck_jsonw_end_array(w);
    rck_jsonw_break(w, 4);
    rck_jsonw_array(w, "per_island_j");
    for (int k = 0; k < c->nislands; k++) {
        rck_jsonw_sig(w, NULL, isl_j[k], 9);
        total += isl_j[k];
    }
    total += unc_j;
    rck_jsonw_end_array(w);
    rck_jsonw_break(w, 4);
    rck_jsonw_sig(w, "uncore_j", unc_j, 9);
    rck_jsonw_sig(w, "total_j", total, 9);
    rck_jsonw_end_object(w);
    rck_jsonw_object(w, "power");
    rck_jsonw_sig(w, "avg_w", run_s > 0 ? total / run_s : 0, 9);
    if (series_build(h, &sr) == 0)
        json_series(w, c, &sr);
    series_free(&sr);
    rck_jsonw_end_object(w);
    json_dvfs(w, h);
}

/* The power counters of the trace: items of its "traceEvents". */
/* Open a counter event @p name at @p ts microseconds and its "args"; the
 * caller writes the values and closes both objects. */
static void counter_open(rck_jsonw_t *w, const char *name, double ts)
{
    rck_jsonw_object(w, NULL);
    rck_jsonw_string(w, "name", name);
    rck_jsonw_string(w, "ph", "C");
    rck_jsonw_int(w, "pid", 1);
    rck_jsonw_fixed(w, "ts", ts, 3);
    rck_jsonw_object(w, "args");
}

void sim_power_trace(rck_jsonw_t *w, sim_hdr_t *h)
{
    sim_series_t sr = {0};
    char key[32];

    if (period_of(h) == 0 || series_build(h, &sr) != 0) {
        series_free(&sr);
        return;
    }
    for (uint32_t b = 0; b < sr.n; b++) {
        double ts = secs(&h->chip, b * sr.w) * 1e6;
        counter_open(w, "chip power (W)", ts);
        rck_jsonw_fixed(w, "W", sr.chip_w[b], 3);
        rck_jsonw_end_object(w);
        rck_jsonw_end_object(w);
        counter_open(w, "island power (W)", ts);
        for (int k = 0; k < h->chip.nislands; k++) {
            snprintf(key, sizeof(key), "island %d", k);
            rck_jsonw_fixed(w, key,
                            sr.island_w[(size_t)b *
                                            (uint32_t)h->chip.nislands +
                                        (uint32_t)k],
                            3);
        }
        rck_jsonw_end_object(w);
        rck_jsonw_end_object(w);
    }
    series_free(&sr);
}
