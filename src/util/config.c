#include "rck/config.h"
#include "rck/log.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const rck_config_entry_t config_table[] = {
    {"BACKEND", "native", RCK_CONFIG_STRING,
     "HAL backend: native (host shared memory), sim (timing model)"},
    {"CHIP", "", RCK_CONFIG_STRING,
     "chip configuration file (JSON); empty = the built-in SCC 533/800/800"},
    {"SHM_SIZE", "64m", RCK_CONFIG_SIZE,
     "bytes of off-chip shared DRAM available to RCCE_shmalloc"},
    {"SVM_SIZE", "24m", RCK_CONFIG_SIZE,
     "bytes SVM takes from the top of the shared window at svm_init (unset: "
     "24m, or 3/8 of RCK_SHM_SIZE if that is less)"},
    {"PREFIX", "1", RCK_CONFIG_BOOL,
     "prefix every output line with the id of the core that printed it"},
    {"LOG", "warn", RCK_CONFIG_STRING, "log level: error, warn, info, debug"},
    {"SPIN_NS", "auto", RCK_CONFIG_STRING,
     "native: how long a wait spins before it sleeps in the kernel "
     "(nanoseconds; auto = long when cores <= host CPUs, short otherwise)"},
    {"YIELD_NS", "100000", RCK_CONFIG_INT,
     "native: after spinning, how long a wait yields the CPU to other cores "
     "(sched_yield) before it sleeps in the kernel (nanoseconds)"},
    {"WAIT_TIMEOUT", "0", RCK_CONFIG_INT,
     "seconds a single RCCE wait may block before the core reports a "
     "probable deadlock and fails (0 = wait forever)"},
    {"DEADLOCK_S", "3", RCK_CONFIG_INT,
     "native: seconds every running core may wait with nothing changing "
     "before the run is reported as deadlocked and stopped (0 = off)"},
    {"KILL_GRACE_MS", "500", RCK_CONFIG_INT,
     "launcher: milliseconds between SIGTERM and SIGKILL when a run is "
     "torn down"},
    {"COMPUTE", "host", RCK_CONFIG_STRING,
     "sim: compute model between HAL calls: host[:REL] (host CPU time, REL = "
     "SCC speed relative to the host, default from the chip), none, or "
     "instructions[:CPI] (retired instructions x CPI; falls back to host)"},
    {"SIM_REPORT", "rck-sim-report.json", RCK_CONFIG_STRING,
     "sim: where the deterministic JSON report goes (none = no file)"},
    {"SIM_TRACE", "none", RCK_CONFIG_STRING,
     "sim: Chrome trace-event JSON file (opens in Perfetto); none = off"},
    {"SIM_SUMMARY", "1", RCK_CONFIG_BOOL,
     "sim: print the short human summary on stderr at exit"},
    {"SIM_HAZARDS", "0", RCK_CONFIG_BOOL,
     "sim: report every stale MPB read (a read skipped CL1INVMB)"},
    {"SIM_PIN", "auto", RCK_CONFIG_STRING,
     "sim: pin every core of the run to one host CPU: auto = one no other "
     "sim run holds (none: no pinning), off, or a CPU number"},
    {"SIM_SPIN_NS", "auto", RCK_CONFIG_STRING,
     "sim: how long a core spins for the run token before it sleeps "
     "(nanoseconds; auto = spin only when cores <= host CPUs)"},
    {"SIM_LOOKAHEAD", "0", RCK_CONFIG_INT,
     "sim: cycles a core may run ahead of the earliest core (0 = strict "
     "order; larger is faster but can reorder nearby events)"},
    {"SIM_SCHEDULE", "0", RCK_CONFIG_INT,
     "sim: schedule seed: 0 = the model's own order; another number takes "
     "another legal interleaving (seeded jitter), the same one every time"},
    {"SIM_WATCHDOG", "5", RCK_CONFIG_INT,
     "sim: seconds a core may hold the run token without a HAL call before "
     "it is warned about and the others proceed"},
    {"MPI", "auto", RCK_CONFIG_STRING,
     "mpi: which MPI the backend's plugin is built on: auto (the one whose "
     "launcher started the program), openmpi or mpich"},
    {"MPI_NODES", "auto", RCK_CONFIG_STRING,
     "mpi: auto = ranks on one host share memory (MPI_Comm_split_type); "
     "rank = every rank is its own node (no shared memory, all over RMA)"},
    {"MPIRUN", "", RCK_CONFIG_STRING,
     "mpi: the mpirun/mpiexec command 'rck run --backend mpi' wraps "
     "(empty = mpirun.openmpi or mpirun.mpich after RCK_MPI)"},
    {"MPI_SPIN_NS", "auto", RCK_CONFIG_STRING,
     "mpi: how long a wait polls before it blocks for a wake-up message "
     "(nanoseconds; auto = long when a node's ranks <= its CPUs)"},
    {NULL, NULL, RCK_CONFIG_STRING, NULL}};

const rck_config_entry_t *rck_config_table(void)
{
    return config_table;
}

static const rck_config_entry_t *config_find(const char *name)
{
    for (const rck_config_entry_t *e = config_table; e->name != NULL; e++) {
        if (!strcmp(e->name, name))
            return e;
    }
    return NULL;
}

const char *rck_config_get(const char *name)
{
    char var[128];
    const rck_config_entry_t *e = config_find(name);
    const char *v;

    if (e == NULL) {
        rck_error("unknown configuration setting '%s'", name);
        return "";
    }
    snprintf(var, sizeof(var), "RCK_%s", name);
    v = getenv(var);
    return v != NULL ? v : e->dflt;
}

long rck_config_get_int(const char *name)
{
    const char *s = rck_config_get(name);
    char *end;
    long v;

    errno = 0;
    v = strtol(s, &end, 0);
    if (errno != 0 || end == s || *end != '\0') {
        const rck_config_entry_t *e = config_find(name);
        rck_error("RCK_%s='%s' is not an integer; using %s", name, s,
                  e ? e->dflt : "0");
        return e ? strtol(e->dflt, NULL, 0) : 0;
    }
    return v;
}

int rck_config_parse_size(const char *text, size_t *out)
{
    char *end;
    unsigned long long v;
    unsigned long long mult = 1;

    errno = 0;
    if (text == NULL || *text == '\0' || *text == '-')
        return -1;
    v = strtoull(text, &end, 0);
    if (errno != 0 || end == text)
        return -1;
    switch (*end) {
    case '\0':
        break;
    case 'k': case 'K': mult = 1ull << 10; end++; break;
    case 'm': case 'M': mult = 1ull << 20; end++; break;
    case 'g': case 'G': mult = 1ull << 30; end++; break;
    default:
        return -1;
    }
    if (*end == 'b' || *end == 'B')
        end++;
    if (*end != '\0' || (v != 0 && mult > (~0ull) / v))
        return -1;
    *out = (size_t)(v * mult);
    return 0;
}

size_t rck_config_get_size(const char *name)
{
    const char *s = rck_config_get(name);
    size_t v = 0;

    if (rck_config_parse_size(s, &v) != 0) {
        const rck_config_entry_t *e = config_find(name);
        rck_error("RCK_%s='%s' is not a size; using %s", name, s,
                  e ? e->dflt : "0");
        if (e == NULL || rck_config_parse_size(e->dflt, &v) != 0)
            v = 0;
    }
    return v;
}

int rck_config_get_bool(const char *name)
{
    const char *s = rck_config_get(name);
    return !strcasecmp(s, "1") || !strcasecmp(s, "yes") ||
           !strcasecmp(s, "true") || !strcasecmp(s, "on");
}

void rck_config_print(FILE *fp, int resolved)
{
    for (const rck_config_entry_t *e = config_table; e->name != NULL; e++) {
        if (resolved)
            fprintf(fp, "RCK_%s=%s\n", e->name, rck_config_get(e->name));
        else
            fprintf(fp, "RCK_%-14s default '%s'\n    %s\n", e->name, e->dflt,
                    e->help);
    }
}
