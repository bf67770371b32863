/*
 * RCCE power management: power domains are the chip's voltage islands;
 * the lowest-ranked UE of a domain is its master and the only one that
 * changes its settings. Frequencies are per tile (1600/fdiv MHz on the
 * SCC), voltages per island; the chip file's DVFS table gives the lowest
 * safe voltage of each divider.
 */
#include "rcce_internal.h"

#include <math.h>

static int my_domain(void)
{
    return rck_chip_island(&rcce.hal->chip, rcce_core_of(rcce.ue));
}

static int domain_color(int ue, void *aux)
{
    (void)aux;
    return rck_chip_island(&rcce.hal->chip, rcce_core_of(ue));
}

int rcce_power_init(void)
{
    return RCCE_comm_split(domain_color, NULL, &RCCE_P_COMM);
}

int RCCE_power_domain(void)
{
    return rcce.hal != NULL ? my_domain() : -1;
}

int RCCE_power_domain_master(void)
{
    int d;

    if (rcce.hal == NULL)
        return -1;
    d = my_domain();
    for (int ue = 0; ue < rcce.nues; ue++) {
        if (domain_color(ue, NULL) == d)
            return ue;
    }
    return -1;
}

int RCCE_power_domain_size(void)
{
    int d, n = 0;

    if (rcce.hal == NULL)
        return 0;
    d = my_domain();
    for (int ue = 0; ue < rcce.nues; ue++)
        n += domain_color(ue, NULL) == d;
    return n;
}

/* Voltage level: index of @p volts among the distinct voltages of the
 * DVFS table, lowest first. */
static int volt_level(double volts)
{
    const rck_chip_t *c = &rcce.hal->chip;
    int level = 0;

    for (int i = 0; i < c->ndvfs; i++) {
        int seen = 0;
        for (int j = 0; j < i; j++)
            seen |= fabs(c->dvfs_volts[j] - c->dvfs_volts[i]) < 1e-9;
        if (!seen && c->dvfs_volts[i] < volts - 1e-9)
            level++;
    }
    return level;
}

static void domain_set_fdiv(int fdiv)
{
    const rck_chip_t *c = &rcce.hal->chip;
    int d = my_domain();

    for (int core = 0; core < c->ncores; core += c->cores_per_tile) {
        if (rck_chip_island(c, core) == d)
            rck_hal_freq_set(rcce.hal, core, fdiv);
    }
}

static int fdiv_check(int fdiv, const char *call)
{
    if (!rcce_ready(call))
        return RCCE_ERROR_FDIVIDER;
    if (fdiv < 2 || fdiv > 16 || rck_chip_fdiv_mhz(&rcce.hal->chip, fdiv) <= 0)
        return rcce_error(RCCE_DEBUG_RPC, RCCE_ERROR_FDIVIDER, call,
                          "frequency divider %d is not in the DVFS table",
                          fdiv);
    return RCCE_SUCCESS;
}

int RCCE_iset_power(int fdiv, RCCE_REQUEST *req, int *fdiv_new,
                    int *vlevel_new)
{
    int st = fdiv_check(fdiv, "RCCE_iset_power");
    double volts;
    int mv, cur_mv = 0, cur_fdiv = 0, d;

    if (st != RCCE_SUCCESS)
        return st;
    if (req == NULL)
        return RCCE_ERROR_VAL_UNDEFINED;
    if (rcce.power_req != NULL)
        return rcce_error(RCCE_DEBUG_RPC, RCCE_ERROR_MULTIPLE_RPC_REQUESTS,
                          "RCCE_iset_power",
                          "a request is in flight: RCCE_wait_power first");
    volts = rck_chip_fdiv_volts(&rcce.hal->chip, fdiv);
    mv = (int)lround(volts * 1000.0);
    d = my_domain();
    rck_hal_volt_get(rcce.hal, d, &cur_mv);
    rck_hal_freq_get(rcce.hal, rcce_core_of(rcce.ue), &cur_fdiv);
    req->old_voltage_level = volt_level(cur_mv / 1000.0);
    req->old_frequency_divider = cur_fdiv;
    req->new_voltage_level = volt_level(volts);
    req->new_frequency_divider = fdiv;
    req->release = 0;
    req->start_cycle = 0;
    if (fdiv_new != NULL)
        *fdiv_new = fdiv;
    if (vlevel_new != NULL)
        *vlevel_new = req->new_voltage_level;
    if (RCCE_power_domain_master() == rcce.ue) {
        /* Raise the voltage before speeding up, slow down before
         * lowering it: the domain never runs faster than its voltage. */
        if (mv > cur_mv) {
            rck_hal_volt_set(rcce.hal, d, mv);
            domain_set_fdiv(fdiv);
        } else {
            domain_set_fdiv(fdiv);
            rck_hal_volt_set(rcce.hal, d, mv);
        }
    }
    req->state = RCCE_SUCCESS;
    rcce.power_req = req;
    return RCCE_SUCCESS;
}

int RCCE_wait_power(RCCE_REQUEST *req)
{
    if (!rcce_ready("RCCE_wait_power"))
        return RCCE_ERROR_NO_ACTIVE_RPC_REQUEST;
    if (req == NULL || req != rcce.power_req)
        return rcce_error(RCCE_DEBUG_RPC, RCCE_ERROR_NO_ACTIVE_RPC_REQUEST,
                          "RCCE_wait_power",
                          "this request is not the one in flight");
    /* The settings took effect in RCCE_iset_power (backends that model
     * voltage-regulator latency charge it there). */
    rcce.power_req = NULL;
    return RCCE_SUCCESS;
}

int RCCE_set_frequency_divider(int fdiv, int *fdiv_new)
{
    int st = fdiv_check(fdiv, "RCCE_set_frequency_divider");
    int cur_mv = 0;
    int need;

    if (st != RCCE_SUCCESS)
        return st;
    rck_hal_volt_get(rcce.hal, my_domain(), &cur_mv);
    need = (int)lround(rck_chip_fdiv_volts(&rcce.hal->chip, fdiv) * 1000.0);
    if (need > cur_mv)
        /* Intel's RCCE answers RCCE_ERROR_FDIVIDER here, and programs test
         * for it. */
        return rcce_error(RCCE_DEBUG_RPC, RCCE_ERROR_FDIVIDER,
                          "RCCE_set_frequency_divider",
                          "divider %d needs %d mV; the domain is at %d mV",
                          fdiv, need, cur_mv);
    if (RCCE_power_domain_master() == rcce.ue)
        domain_set_fdiv(fdiv);
    if (fdiv_new != NULL)
        *fdiv_new = fdiv;
    return RCCE_SUCCESS;
}

