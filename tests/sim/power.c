/*
 * power.c: the chip's DVFS rules and the sim's power model.
 *
 *   rck run --cores 0,1 --backend sim sim_power rules
 *     Both UEs are on voltage island 0 (UE 0 its master; the island starts
 *     at divider 3 and dvfs.volts_start, 1.1 V). Checks, through
 *     the HAL and RCCE: a divider the island's voltage cannot sustain is
 *     refused, and so is a voltage outside the regulator's range or below
 *     what a tile's divider needs; a voltage change takes
 *     dvfs.volt_change_cycles and a second one in flight is refused
 *     (RCK_ERR_BUSY); RCCE_iset_power on a non-master changes nothing;
 *     RCCE_iset_power + RCCE_wait_power on the master lower the frequency
 *     at once and raise it only after the voltage; the power sensor reads
 *     more at 800 MHz / 1.1 V than at 200 MHz / 0.7 V. Prints "power
 *     rules: ok" when every check passed.
 *
 *   rck run -n 1 --backend B sim_power sensor
 *     Reads the power sensor once: "sensor: W W" on sim, "sensor:
 *     unsupported" on the backends without a power model.
 *
 *   rck run -n N --backend sim sim_power load [CALLS]
 *     Every UE reads its cycle counter CALLS times (default 20000), through
 *     the HAL only: N cores busy for the same time, for the
 *     power-versus-cores and determinism tests (RCK_COMPUTE=none).
 */
#include "RCCE.h"
#include "rck/hal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failed;

#define CHECK(cond, ...)                                                   \
    do {                                                                   \
        if (!(cond)) {                                                     \
            fprintf(stderr, "power: FAILED line %d: %s: ", __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                  \
            fprintf(stderr, "\n");                                         \
            failed = 1;                                                    \
        }                                                                  \
    } while (0)

static int fdiv_of(rck_hal_t *hal, int core)
{
    int f = -1;
    rck_hal_freq_get(hal, core, &f);
    return f;
}

static int mv_of(rck_hal_t *hal, int island)
{
    int mv = -1;
    rck_hal_volt_get(hal, island, &mv);
    return mv;
}

static void island0_fdiv(rck_hal_t *hal, int fdiv)
{
    for (int core = 0; core < hal->chip.ncores; core += 2)
        if (rck_chip_island(&hal->chip, core) == 0)
            CHECK(rck_hal_freq_set(hal, core, fdiv) == RCK_OK,
                  "divider %d on core %d", fdiv, core);
}

/* The HAL's rules, on island 0 from its start (divider 3, 1100 mV). */
static void hal_rules(rck_hal_t *hal)
{
    uint64_t c0 = 0, c1 = 0;
    double w0 = 0, w1 = 0;
    double change = hal->chip.volt_change_cycles;
    rck_status_t st;

    CHECK(fdiv_of(hal, 0) == 3 && mv_of(hal, 0) == 1100, "start %d, %d mV",
          fdiv_of(hal, 0), mv_of(hal, 0));
    st = rck_hal_volt_set(hal, 0, 650);
    CHECK(st == RCK_ERR_INVALID, "650 mV: status %d", st);
    st = rck_hal_volt_set(hal, 0, 1350);
    CHECK(st == RCK_ERR_INVALID, "1350 mV: status %d", st);
    st = rck_hal_volt_set(hal, 0, 700);
    CHECK(st == RCK_ERR_INVALID, "700 mV under divider 3: status %d", st);
    /* down to divider 8 at 700 mV */
    island0_fdiv(hal, 8);
    CHECK(rck_hal_volt_set(hal, 0, 700) == RCK_OK, "700 mV at divider 8");
    CHECK(rck_hal_volt_wait(hal, 0) == RCK_OK, "volt_wait failed");
    CHECK(mv_of(hal, 0) == 700, "%d mV after the wait", mv_of(hal, 0));
    st = rck_hal_freq_set(hal, 0, 2);
    CHECK(st == RCK_ERR_INVALID, "divider 2 at 700 mV: status %d", st);
    st = rck_hal_freq_set(hal, 0, 3);
    CHECK(st == RCK_ERR_INVALID, "divider 3 at 700 mV: status %d", st);
    CHECK(fdiv_of(hal, 0) == 8, "divider %d after the refusals",
          fdiv_of(hal, 0));
    CHECK(rck_hal_power_read(hal, &w0) == RCK_OK && w0 > 10 && w0 < 200,
          "sensor %g W", w0);

    /* a change in flight: the old voltage holds until it completes */
    rck_hal_cycles(hal, &c0);
    CHECK(rck_hal_volt_set(hal, 0, 1100) == RCK_OK, "1100 mV refused");
    CHECK(mv_of(hal, 0) == 700, "%d mV right after the request",
          mv_of(hal, 0));
    st = rck_hal_freq_set(hal, 0, 2);
    CHECK(st == RCK_ERR_INVALID, "divider 2 before the voltage: %d", st);
    st = rck_hal_volt_set(hal, 0, 1000);
    CHECK(st == RCK_ERR_BUSY, "second change in flight: status %d", st);
    CHECK(rck_hal_volt_wait(hal, 0) == RCK_OK, "volt_wait failed");
    rck_hal_cycles(hal, &c1);
    CHECK(mv_of(hal, 0) == 1100, "%d mV after the wait", mv_of(hal, 0));
    /* the cycle counter runs at divider 8: 1600/8 = 200 MHz of 533 */
    change *= 200.0 / hal->chip.core_mhz;
    CHECK((double)(c1 - c0) >= change && (double)(c1 - c0) < change * 1.01,
          "the change took %llu cycles at 200 MHz, the chip file says %.0f",
          (unsigned long long)(c1 - c0), change);
    CHECK(rck_hal_freq_set(hal, 0, 2) == RCK_OK, "divider 2 at 1100 mV");
    CHECK(rck_hal_power_read(hal, &w1) == RCK_OK && w1 > w0,
          "sensor %g W at 800 MHz / 1.1 V, %g W at 200 MHz / 0.7 V", w1, w0);
    /* a step that is not a multiple of 6.25 mV rounds up */
    CHECK(rck_hal_volt_set(hal, 0, 1101) == RCK_OK, "1101 mV refused");
    rck_hal_volt_wait(hal, 0);
    CHECK(mv_of(hal, 0) == 1107, "1101 mV became %d mV", mv_of(hal, 0));
}

static void rcce_rules(rck_hal_t *hal)
{
    RCCE_REQUEST req;
    uint64_t c0 = 0, c1 = 0;
    int fnew = 0, vnew = 0;

    memset(&req, 0, sizeof req);
    /* from divider 2 at 1107 mV down to 3: the frequency drops at once */
    CHECK(RCCE_iset_power(3, &req, &fnew, &vnew) == RCCE_SUCCESS, "iset 3");
    CHECK(fdiv_of(hal, 0) == 3 && fdiv_of(hal, 2) == 3,
          "divider %d right after iset_power(3)", fdiv_of(hal, 0));
    CHECK(mv_of(hal, 0) == 1107, "%d mV right after iset_power(3)",
          mv_of(hal, 0));
    CHECK(RCCE_wait_power(&req) == RCCE_SUCCESS, "wait 3");
    CHECK(mv_of(hal, 0) == 800, "%d mV after wait_power", mv_of(hal, 0));
    /* up to divider 2: the frequency waits for the voltage */
    rck_hal_cycles(hal, &c0);
    CHECK(RCCE_iset_power(2, &req, &fnew, &vnew) == RCCE_SUCCESS, "iset 2");
    CHECK(fdiv_of(hal, 0) == 3, "divider %d before wait_power",
          fdiv_of(hal, 0));
    CHECK(RCCE_wait_power(&req) == RCCE_SUCCESS, "wait 2");
    rck_hal_cycles(hal, &c1);
    CHECK(fdiv_of(hal, 0) == 2 && mv_of(hal, 0) == 1100,
          "after wait_power(2): divider %d, %d mV", fdiv_of(hal, 0),
          mv_of(hal, 0));
    CHECK((double)(c1 - c0) >= hal->chip.volt_change_cycles,
          "iset + wait took %llu cycles", (unsigned long long)(c1 - c0));
    /* refused divider at the RCCE boundary */
    CHECK(RCCE_set_frequency_divider(2, &fnew) == RCCE_SUCCESS, "2 at 1.1V");
    memset(&req, 0, sizeof req);
    CHECK(RCCE_iset_power(16, &req, &fnew, &vnew) == RCCE_SUCCESS,
          "iset 16");
    CHECK(RCCE_wait_power(&req) == RCCE_SUCCESS, "wait 16");
    CHECK(RCCE_set_frequency_divider(3, &fnew) == RCCE_ERROR_FDIVIDER,
          "divider 3 at 700 mV accepted");
}

static int rules(rck_hal_t *hal)
{
    RCCE_REQUEST req;
    int fnew = 0, vnew = 0;

    if (RCCE_num_ues() != 2 || RCCE_power_domain_master() != 0 ||
        RCCE_power_domain() != 0) {
        fprintf(stderr, "power rules: needs 2 UEs on island 0\n");
        return 2;
    }
    if (RCCE_ue() == 1) {
        /* not the master: accepted, and nothing changes */
        memset(&req, 0, sizeof req);
        CHECK(RCCE_iset_power(16, &req, &fnew, &vnew) == RCCE_SUCCESS,
              "non-master iset");
        CHECK(RCCE_wait_power(&req) == RCCE_SUCCESS, "non-master wait");
        CHECK(fdiv_of(hal, 1) == 3 && mv_of(hal, 0) == 1100,
              "a non-master changed the domain: divider %d, %d mV",
              fdiv_of(hal, 1), mv_of(hal, 0));
    }
    RCCE_barrier(&RCCE_COMM_WORLD);
    if (RCCE_ue() == 0) {
        hal_rules(hal);
        rcce_rules(hal);
    }
    RCCE_barrier(&RCCE_COMM_WORLD);
    if (RCCE_ue() == 0 && !failed)
        printf("power rules: ok\n");
    return failed;
}

/* HAL only (no RCCE start-up or barrier): every core is busy for the same
 * time, so the run's power is (idle chip) + N x (one busy core). */
static int load(long calls)
{
    rck_hal_t *hal;
    uint64_t c;

    if (rck_hal_open(NULL, &hal) != RCK_OK)
        return 3;
    for (long i = 0; i < calls; i++)
        rck_hal_cycles(hal, &c);
    rck_hal_close(hal);
    return 0;
}

/* The power sensor on any backend: its reading, or that it has none. */
static int sensor(void)
{
    rck_hal_t *hal;
    double w = -1;
    rck_status_t st;

    if (rck_hal_open(NULL, &hal) != RCK_OK)
        return 3;
    st = rck_hal_power_read(hal, &w);
    if (st == RCK_OK)
        printf("sensor: %.3f W\n", w);
    else if (st == RCK_ERR_UNSUPPORTED)
        printf("sensor: unsupported\n");
    else
        printf("sensor: FAILED with status %d\n", st);
    rck_hal_close(hal);
    return 0;
}

int main(int argc, char **argv)
{
    rck_hal_t *hal;
    int rc;

    if (argc > 1 && strcmp(argv[1], "load") == 0)
        return load(argc > 2 ? atol(argv[2]) : 20000);
    if (argc > 1 && strcmp(argv[1], "sensor") == 0)
        return sensor();
    if (RCCE_init(&argc, &argv) != RCCE_SUCCESS)
        return 3;
    hal = rck_hal_self();
    if (hal == NULL)
        return 3;
    rc = rules(hal);
    RCCE_finalize();
    return rc;
}
