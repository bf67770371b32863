/*
 * Schedule seeds (RCK_SIM_SCHEDULE, `rck run --schedule SEED`): which of
 * the legal interleavings of a program the model takes.
 *
 * Seed 0 is the model's own order: nothing here changes a run. Any other
 * seed perturbs the timing, as the chip itself could have, and so the
 * order of events on shared state. First every core draws a *profile*
 * from the seed (as PCT gives every thread a random priority, so that
 * different seeds try different relative speeds of the cores, not only
 * noise around one); then:
 *
 *  - every HAL call of a core first adds a little extra compute: a
 *    fraction of a cycle (which breaks ties in virtual time: which of two
 *    cores that would act in the same cycle goes first is then decided by
 *    the seed, not by the UE id), up to the profile's bound (16, 128, 1024
 *    or 8192 cycles), and for 1 call in 4, 16, 64 or 256 (the profile's
 *    stall rate) a stall of up to SIM_SCHED_STALL cycles, as an interrupt
 *    or another task on the core's Linux would take;
 *  - a parked core that a write (or an interrupt) wakes notices it up to
 *    the profile's bound later (128, 512, 2048 or 8192 cycles), and now
 *    and then (1 in SIM_SCHED_WAKE_LONG_ONE_IN) up to SIM_SCHED_WAKE_LONG
 *    cycles: its poll came later, or the line took longer through a
 *    loaded mesh.
 *
 * All of it only ever delays, so invariant 3 (event times never run
 * backwards) holds, and a write is never seen before it was made.
 * Randomness comes from a counter-based generator (splitmix64) keyed by
 * (seed, UE, the UE's own event or park count): no rand(), no wall clock,
 * no state shared between cores, so the same seed gives the same run.
 */
#include "sim_sched.h"
#include "sim_state.h"

#include "rck/config.h"
#include "rck/log.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

#define SIM_SCHED_STALL 50000u          /* cycles, a stall */
#define SIM_SCHED_WAKE_LONG 20000u      /* cycles, a late wake-up */
#define SIM_SCHED_WAKE_LONG_ONE_IN 8u

enum { SALT_COMPUTE = 1, SALT_WAKE = 2, SALT_PROFILE = 3 };

static uint64_t splitmix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* The draw number @p n of stream @p salt of UE @p ue under @p seed. */
static uint64_t draw(uint64_t seed, uint64_t salt, int ue, uint64_t n)
{
    uint64_t x = splitmix64(seed ^ (salt << 56));

    x = splitmix64(x ^ (uint64_t)(uint32_t)ue);
    return splitmix64(x ^ n);
}

rck_status_t sim_sched_configure(sim_hdr_t *h)
{
    const char *s = rck_config_get("SIM_SCHEDULE");
    unsigned long long v;
    char *end;

    h->sched_seed = 0;
    if (s == NULL || *s == '\0')
        return RCK_OK;
    errno = 0;
    v = strtoull(s, &end, 10);
    if (!isdigit((unsigned char)*s) || errno != 0 || *end != '\0') {
        rck_error("RCK_SIM_SCHEDULE='%s' is not a schedule seed (a number "
                  "from 0 to 18446744073709551615; 0 = the model's own "
                  "order)",
                  s);
        return RCK_ERR_CONFIG;
    }
    h->sched_seed = (uint64_t)v;
    return RCK_OK;
}

/* The profile of UE @p ue: 2 bits each for the compute bound, the stall
 * rate and the wake-up bound. */
static uint64_t profile(const sim_hdr_t *h, int ue)
{
    return draw(h->sched_seed, SALT_PROFILE, ue, 0);
}

uint64_t sim_sched_compute_ticks(const sim_hdr_t *h, int ue, uint64_t n)
{
    uint64_t p = profile(h, ue);
    uint64_t bound = 16ull << (3 * (p & 3));
    uint64_t one_in = 4ull << (2 * ((p >> 2) & 3));
    uint64_t r = draw(h->sched_seed, SALT_COMPUTE, ue, n);
    uint64_t frac = r & (SIM_TICKS - 1);
    uint64_t cyc = (r >> 16) % bound;

    if ((r >> 32) % one_in == 0)
        cyc += (r >> 40) % SIM_SCHED_STALL;
    return cyc * SIM_TICKS + frac;
}

uint64_t sim_sched_wake_ticks(const sim_hdr_t *h, int ue, uint64_t n)
{
    uint64_t p = profile(h, ue);
    uint64_t bound = 128ull << (2 * ((p >> 4) & 3));
    uint64_t r = draw(h->sched_seed, SALT_WAKE, ue, n);
    uint64_t frac = r & (SIM_TICKS - 1);
    uint64_t cyc = (r >> 16) % bound;

    if ((r >> 32) % SIM_SCHED_WAKE_LONG_ONE_IN == 0)
        cyc += (r >> 40) % SIM_SCHED_WAKE_LONG;
    return cyc * SIM_TICKS + frac;
}
