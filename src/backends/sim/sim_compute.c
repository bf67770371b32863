/*
 * Compute models: how many core cycles the program's own code between two
 * HAL calls costs (RCK_COMPUTE, from the configuration table; see
 * docs/SIM.md).
 *
 *   none               zero
 *   host[:REL]         host thread CPU time x core_mhz / REL; REL is the
 *                      SCC core's speed relative to the host core (default
 *                      the chip's relative_core_speed, 0.05)
 *   instructions[:CPI] retired user instructions (perf_event_open) x CPI;
 *                      falls back to host where the counter is unavailable
 */
#include "sim_internal.h"

#include "rck/config.h"
#include "rck/log.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* The reference host of relative_core_speed: a 3.07 GHz Core i7-950. With
 * one instruction per cycle there, an SCC core at relative speed r retires
 * r x 3070 M instructions per second, so CPI = core_mhz / (r x 3070). */
#define SIM_REF_HOST_MHZ 3070.0

const char *sim_compute_name(int kind)
{
    switch (kind) {
    case COMPUTE_NONE: return "none";
    case COMPUTE_HOST: return "host";
    case COMPUTE_INSTR: return "instructions";
    }
    return "?";
}

static int perf_open(void)
{
    struct perf_event_attr a;

    memset(&a, 0, sizeof(a));
    a.size = sizeof(a);
    a.type = PERF_TYPE_HARDWARE;
    a.config = PERF_COUNT_HW_INSTRUCTIONS;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1,
                        PERF_FLAG_FD_CLOEXEC);
}

static int parse_pos(const char *s, double *out)
{
    char *end;
    double v;

    errno = 0;
    v = strtod(s, &end);
    if (errno != 0 || end == s || *end != '\0' || !(v > 0) || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

rck_status_t sim_compute_configure(sim_hdr_t *h)
{
    const char *s = rck_config_get("COMPUTE");
    const rck_chip_t *c = &h->chip;

    h->compute_rel = c->relative_core_speed > 0 ? c->relative_core_speed
                                                : 0.05;
    h->compute_cpi = c->core_mhz / (h->compute_rel * SIM_REF_HOST_MHZ);
    if (*s == '\0' || !strcmp(s, "host")) {
        h->compute = COMPUTE_HOST;
    } else if (!strcmp(s, "none")) {
        h->compute = COMPUTE_NONE;
    } else if (!strncmp(s, "host:", 5)) {
        h->compute = COMPUTE_HOST;
        if (parse_pos(s + 5, &h->compute_rel) != 0)
            goto bad;
    } else if (!strcmp(s, "instructions") ||
               !strncmp(s, "instructions:", 13)) {
        int fd;

        h->compute = COMPUTE_INSTR;
        if (s[12] == ':' && parse_pos(s + 13, &h->compute_cpi) != 0)
            goto bad;
        fd = perf_open();
        if (fd < 0) {
            rck_warn("RCK_COMPUTE=%s: the retired-instruction counter is "
                     "not available here (perf_event_open: %s); using the "
                     "host compute model (RCK_COMPUTE=host)",
                     s, strerror(errno));
            h->compute = COMPUTE_HOST;
        } else {
            close(fd);
        }
    } else {
        goto bad;
    }
    return RCK_OK;

bad:
    rck_error("RCK_COMPUTE='%s' is not one of none, host[:RELATIVE_SPEED], "
              "instructions[:CPI]",
              s);
    return RCK_ERR_CONFIG;
}

#define SIM_OVH_SAMPLES 63

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static uint64_t thread_cpu_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t instructions(sim_t *s)
{
    uint64_t v = 0;

    if (read(s->perf_fd, &v, sizeof(v)) != (ssize_t)sizeof(v))
        return s->compute_mark;
    return v;
}

void sim_compute_init(sim_t *s)
{
    s->compute = s->hdr->compute;
    s->compute_rel = s->hdr->compute_rel;
    s->compute_cpi = s->hdr->compute_cpi;
    s->perf_fd = -1;
    if (s->compute == COMPUTE_INSTR) {
        s->perf_fd = perf_open();
        if (s->perf_fd < 0) {
            rck_warn("the retired-instruction counter is not available to "
                     "this core (perf_event_open: %s); it uses the host "
                     "compute model",
                     strerror(errno));
            s->compute = COMPUTE_HOST;
        }
    }
    /* A reading costs time (a system call) that the model must not charge
     * as the program's: the median of back-to-back readings. */
    s->compute_ovh = 0;
    if (s->compute != COMPUTE_NONE) {
        uint64_t d[SIM_OVH_SAMPLES];
        for (int i = 0; i < SIM_OVH_SAMPLES; i++) {
            uint64_t a;
            sim_compute_mark(s);
            a = s->compute_mark;
            sim_compute_mark(s);
            d[i] = s->compute_mark - a;
        }
        qsort(d, SIM_OVH_SAMPLES, sizeof(*d), cmp_u64);
        s->compute_ovh = d[SIM_OVH_SAMPLES / 2];
    }
    sim_compute_mark(s);
}

void sim_compute_fini(sim_t *s)
{
    if (s->perf_fd >= 0)
        close(s->perf_fd);
    s->perf_fd = -1;
}

void sim_compute_mark(sim_t *s)
{
    switch (s->compute) {
    case COMPUTE_HOST:
        s->compute_mark = thread_cpu_ns();
        break;
    case COMPUTE_INSTR:
        s->compute_mark = instructions(s);
        break;
    default:
        break;
    }
}

double sim_compute_take(sim_t *s)
{
    double cyc = 0;
    uint64_t d;

    switch (s->compute) {
    case COMPUTE_HOST:
        d = thread_cpu_ns() - s->compute_mark;
        d = d > s->compute_ovh ? d - s->compute_ovh : 0;
        cyc = (double)d * s->chip->core_mhz / 1000.0 / s->compute_rel;
        break;
    case COMPUTE_INSTR:
        d = instructions(s) - s->compute_mark;
        d = d > s->compute_ovh ? d - s->compute_ovh : 0;
        s->me->instructions += d;
        cyc = (double)d * s->compute_cpi;
        break;
    default:
        return 0;
    }
    cyc += s->compute_carry;
    s->compute_carry = cyc - floor(cyc);
    return floor(cyc);
}
