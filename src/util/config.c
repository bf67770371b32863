#include "rck/config.h"
#include "rck/log.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The settings of the job as a whole and of the layers every program
 * has (the HAL, the log, RCCE, the launcher). A component's own settings
 * are in its own table, registered by the component (rck_config_register:
 * native.c, sim_settings.c, svm.c). */
static const rck_config_entry_t config_general[] = {
    {"BACKEND", "native", RCK_CONFIG_STRING,
     "HAL backend: native (host shared memory), sim (timing model)"},
    {"CHIP", "", RCK_CONFIG_STRING,
     "chip configuration file (JSON); empty = the built-in SCC 533/800/800"},
    {"SHM_SIZE", "64m", RCK_CONFIG_SIZE,
     "bytes of off-chip shared DRAM available to RCCE_shmalloc"},
    {"PREFIX", "1", RCK_CONFIG_BOOL,
     "prefix every output line with the id of the core that printed it"},
    {"LOG", "warn", RCK_CONFIG_STRING, "log level: error, warn, info, debug"},
    {"WAIT_TIMEOUT", "0", RCK_CONFIG_INT,
     "seconds a single RCCE wait may block before the core reports a "
     "probable deadlock and fails (0 = wait forever)"},
    {"KILL_GRACE_MS", "500", RCK_CONFIG_INT,
     "launcher: milliseconds between SIGTERM and SIGKILL when a run is "
     "torn down"},
    {"AS", "", RCK_CONFIG_STRING,
     "compiled counters (rckcc -rck-count): the real assembler rck-as runs; "
     "empty = the one found at configure time (docs/P54C-COUNTERS.md)"},
    {"AS_STATS", "0", RCK_CONFIG_BOOL,
     "compiled counters: rck-as prints each file's blocks and inserted "
     "sequences on stderr"},
    {NULL, NULL, RCK_CONFIG_STRING, NULL}};

/* The registered tables, by rank (the order `rck config --list` shows). */
#define RCK_CONFIG_MAX_TABLES 16
static const rck_config_entry_t *config_tables[RCK_CONFIG_MAX_TABLES] = {
    config_general};
static int config_ranks[RCK_CONFIG_MAX_TABLES];
static int config_ntables = 1;

void rck_config_register(const rck_config_entry_t *table, int rank)
{
    int i;

    for (i = 0; i < config_ntables; i++) {
        if (config_tables[i] == table)
            return;
    }
    if (config_ntables == RCK_CONFIG_MAX_TABLES) {
        rck_error("too many configuration tables");
        return;
    }
    for (i = config_ntables; i > 0 && config_ranks[i - 1] > rank; i--) {
        config_tables[i] = config_tables[i - 1];
        config_ranks[i] = config_ranks[i - 1];
    }
    config_tables[i] = table;
    config_ranks[i] = rank;
    config_ntables++;
}

const rck_config_entry_t *rck_config_next(const rck_config_entry_t *e)
{
    int t;

    if (e == NULL)
        return config_tables[0]->name != NULL ? config_tables[0] : NULL;
    if ((e + 1)->name != NULL)
        return e + 1;
    for (t = 0; t < config_ntables; t++) {
        const rck_config_entry_t *x = config_tables[t];
        while (x->name != NULL)
            x++;
        if (x == e + 1)
            break;
    }
    for (t++; t < config_ntables; t++) {
        if (config_tables[t]->name != NULL)
            return config_tables[t];
    }
    return NULL;
}

const rck_config_entry_t *rck_config_table(void)
{
    return config_general;
}

static const rck_config_entry_t *config_find(const char *name)
{
    for (const rck_config_entry_t *e = rck_config_next(NULL); e != NULL;
         e = rck_config_next(e)) {
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
    for (const rck_config_entry_t *e = rck_config_next(NULL); e != NULL;
         e = rck_config_next(e)) {
        if (resolved)
            fprintf(fp, "RCK_%s=%s\n", e->name, rck_config_get(e->name));
        else
            fprintf(fp, "RCK_%-14s default '%s'\n    %s\n", e->name, e->dflt,
                    e->help);
    }
}
