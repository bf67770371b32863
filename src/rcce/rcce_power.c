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

/* Intel's numbering of the voltage levels, which programs print and
 * compare: levels 0-6 are 0.7-1.3 V, and a divider needs the lowest level
 * whose frequency cap reaches its frequency (the table RC_V_MHz_cap of
 * Intel's RCCE_power_management.c: 0.7 V up to 460 MHz, 0.8 V 598, 0.9 V
 * 644, 1.0 V 748, 1.1 V 875, 1.2 V 1024, 1.3 V 1198). The voltage the
 * model applies is the chip file's (rck_chip_fdiv_need_mv). */
static const struct {
    int mv, mhz_cap;
} intel_levels[] = {{700, 460}, {800, 598},   {900, 644},  {1000, 748},
                    {1100, 875}, {1200, 1024}, {1300, 1198}};
#define INTEL_NLEVELS ((int)(sizeof(intel_levels) / sizeof(intel_levels[0])))

/* The level Intel's RCCE gives divider @p fdiv (RC_voltage_level). */
static int fdiv_level(int fdiv)
{
    double mhz = rck_chip_fdiv_mhz(&rcce.hal->chip, fdiv);

    for (int k = 0; k < INTEL_NLEVELS; k++) {
        if (intel_levels[k].mhz_cap >= mhz)
            return k;
    }
    return INTEL_NLEVELS - 1;
}

/* The level of a domain at @p mv millivolts: the lowest that supplies it. */
static int volt_level(int mv)
{
    for (int k = 0; k < INTEL_NLEVELS; k++) {
        if (intel_levels[k].mv >= mv)
            return k;
    }
    return INTEL_NLEVELS - 1;
}

static int domain_set_fdiv(int fdiv)
{
    const rck_chip_t *c = &rcce.hal->chip;
    int d = my_domain();

    for (int core = 0; core < c->ncores; core += c->cores_per_tile) {
        if (rck_chip_island(c, core) == d &&
            rck_hal_freq_set(rcce.hal, core, fdiv) != RCK_OK)
            return -1;
    }
    return 0;
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

/*
 * The order of Intel's RCCE: lowering the frequency takes effect at once
 * and the voltage follows; a faster divider waits for the higher voltage
 * (RCCE_wait_power). Only the domain master acts; the others get the same
 * answers and change nothing. One request per UE (and, on the chip, one
 * per island: the HAL refuses a second voltage change in flight).
 */
int RCCE_iset_power(int fdiv, RCCE_REQUEST *req, int *fdiv_new,
                    int *vlevel_new)
{
    int st = fdiv_check(fdiv, "RCCE_iset_power");
    int mv, cur_mv = 0, cur_fdiv = 0, d;

    if (st != RCCE_SUCCESS)
        return st;
    if (req == NULL)
        return RCCE_ERROR_VAL_UNDEFINED;
    if (rcce.power_req != NULL)
        return rcce_error(RCCE_DEBUG_RPC, RCCE_ERROR_MULTIPLE_RPC_REQUESTS,
                          "RCCE_iset_power",
                          "a request is in flight: RCCE_wait_power first");
    mv = rck_chip_fdiv_need_mv(&rcce.hal->chip, fdiv);
    d = my_domain();
    rck_hal_volt_get(rcce.hal, d, &cur_mv);
    rck_hal_freq_get(rcce.hal, rcce_core_of(rcce.ue), &cur_fdiv);
    req->old_voltage_level = volt_level(cur_mv);
    req->old_frequency_divider = cur_fdiv;
    req->new_voltage_level = fdiv_level(fdiv);
    req->new_frequency_divider = fdiv;
    req->release = 0;
    req->start_cycle = 0;
    if (fdiv_new != NULL)
        *fdiv_new = fdiv;
    if (vlevel_new != NULL)
        *vlevel_new = req->new_voltage_level;
    if (RCCE_power_domain_master() == rcce.ue) {
        rck_status_t hs = RCK_OK;
        if (fdiv >= cur_fdiv && domain_set_fdiv(fdiv) != 0)
            return rcce_error(RCCE_DEBUG_RPC, RCCE_ERROR_FDIVIDER,
                              "RCCE_iset_power",
                              "the HAL refused divider %d", fdiv);
        if (mv != cur_mv)
            hs = rck_hal_volt_set(rcce.hal, d, mv);
        if (hs == RCK_ERR_BUSY)
            return rcce_error(RCCE_DEBUG_RPC, RCCE_ERROR_MULTIPLE_RPC_REQUESTS,
                              "RCCE_iset_power",
                              "power domain %d has a voltage change in "
                              "flight", d);
        if (hs != RCK_OK)
            return rcce_error(RCCE_DEBUG_RPC, RCCE_ERROR_RPC_INTERNAL,
                              "RCCE_iset_power",
                              "the HAL refused %d mV for domain %d", mv, d);
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
    rcce.power_req = NULL;
    if (RCCE_power_domain_master() != rcce.ue)
        return RCCE_SUCCESS;
    /* the regulator first, then the faster clock it sustains */
    if (rck_hal_volt_wait(rcce.hal, my_domain()) != RCK_OK)
        return rcce_error(RCCE_DEBUG_RPC, RCCE_ERROR_RPC_INTERNAL,
                          "RCCE_wait_power",
                          "waiting for the voltage of domain %d failed",
                          my_domain());
    if (req->new_frequency_divider < req->old_frequency_divider &&
        domain_set_fdiv(req->new_frequency_divider) != 0)
        return rcce_error(RCCE_DEBUG_RPC, RCCE_ERROR_FDIVIDER,
                          "RCCE_wait_power", "the HAL refused divider %d",
                          req->new_frequency_divider);
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
    need = rck_chip_fdiv_need_mv(&rcce.hal->chip, fdiv);
    if (need > cur_mv)
        /* Intel's RCCE answers RCCE_ERROR_FDIVIDER here, and programs test
         * for it. */
        return rcce_error(RCCE_DEBUG_RPC, RCCE_ERROR_FDIVIDER,
                          "RCCE_set_frequency_divider",
                          "divider %d needs %d mV; the domain is at %d mV",
                          fdiv, need, cur_mv);
    if (RCCE_power_domain_master() == rcce.ue && domain_set_fdiv(fdiv) != 0)
        return rcce_error(RCCE_DEBUG_RPC, RCCE_ERROR_FDIVIDER,
                          "RCCE_set_frequency_divider",
                          "the HAL refused divider %d", fdiv);
    if (fdiv_new != NULL)
        *fdiv_new = fdiv;
    return RCCE_SUCCESS;
}

