#include "rck/config.h"
#include "rck/log.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The settings of the job as a whole and of the layers every program
 * has (the HAL, the log, RCCE, the launcher). A component's own settings
 * are in its own table, registered by the component (rck_config_register:
 * native.c, sim_settings.c, svm.c). */
static const rck_config_entry_t config_general[] = {
    {"BACKEND", "native", RCK_CONFIG_STRING,
     "HAL backend: native (host shared memory), sim (timing model)", NULL},
    {"CHIP", "", RCK_CONFIG_STRING,
     "chip configuration file (JSON); empty = the built-in SCC 533/800/800", NULL},
    {"SHM_SIZE", "auto", RCK_CONFIG_SIZE,
     "bytes of off-chip shared DRAM (RCCE_shmalloc's window; SVM and the "
     "MPI library take shares of it); auto = 64m, except on the native "
     "backend, where it grows with the job for the MPI library's rings "
     "(beyond 8 UEs; at most 1g, the chip's 64 shared LUT pages, and half "
     "of the host's available memory; docs/MPI.md)",
     "auto=64m"},
    {"PREFIX", "1", RCK_CONFIG_BOOL,
     "prefix every output line with the id of the core that printed it", NULL},
    {"LOG", "warn", RCK_CONFIG_STRING, "log level: error, warn, info, debug",
     "error|warn|info|debug"},
    {"WAIT_TIMEOUT", "0", RCK_CONFIG_INT,
     "seconds a single RCCE wait may block before the core reports a "
     "probable deadlock and fails (0 = wait forever)",
     "0.."},
    {"KILL_GRACE_MS", "500", RCK_CONFIG_INT,
     "launcher: milliseconds between SIGTERM and SIGKILL when a run is "
     "torn down",
     "0.."},
    {"BACKTRACE", "1", RCK_CONFIG_BOOL,
     "a core that dies of SIGSEGV, SIGBUS, SIGFPE, SIGILL or SIGABRT prints "
     "the fault address and a backtrace first (0 = the default action "
     "alone: the launcher still names the core and the signal)", NULL},
    {"AS", "", RCK_CONFIG_STRING,
     "compiled counters (rckcc -rck-count): the real assembler rck-as runs; "
     "empty = the one found at configure time (docs/P54C-COUNTERS.md)", NULL},
    {"AS_STATS", "0", RCK_CONFIG_BOOL,
     "compiled counters: rck-as prints each file's blocks and inserted "
     "sequences on stderr", NULL},
    {NULL, NULL, RCK_CONFIG_STRING, NULL, NULL}};

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

const rck_config_entry_t *rck_config_find(const char *name)
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
    const rck_config_entry_t *e = rck_config_find(name);
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
        const rck_config_entry_t *e = rck_config_find(name);
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

/* A size setting whose values are "auto=SIZE" takes "auto": its fixed
 * meaning is SIZE (a component may give it a larger one, as the native
 * launcher does RCK_SHM_SIZE's). @return 0 and *out, or -1. */
static int size_auto(const rck_config_entry_t *e, const char *text,
                     size_t *out)
{
    if (e == NULL || e->type != RCK_CONFIG_SIZE || e->values == NULL ||
        strncasecmp(e->values, "auto=", 5) != 0 || strcasecmp(text, "auto"))
        return -1;
    return rck_config_parse_size(e->values + 5, out);
}

size_t rck_config_size_auto(const char *name)
{
    size_t v = 0;

    if (size_auto(rck_config_find(name), "auto", &v) != 0)
        v = 0;
    return v;
}

int rck_config_size_is_auto(const char *name)
{
    const rck_config_entry_t *e = rck_config_find(name);
    size_t v;

    return size_auto(e, rck_config_get(name), &v) == 0;
}

size_t rck_config_get_size(const char *name)
{
    const char *s = rck_config_get(name);
    const rck_config_entry_t *e = rck_config_find(name);
    size_t v = 0;

    if (rck_config_parse_size(s, &v) != 0 && size_auto(e, s, &v) != 0) {
        rck_error("RCK_%s='%s' is not a size; using %s", name, s,
                  e ? e->dflt : "0");
        if (e == NULL || (rck_config_parse_size(e->dflt, &v) != 0 &&
                          size_auto(e, e->dflt, &v) != 0))
            v = 0;
    }
    return v;
}

/* A non-negative number at *s (digits; with @p real, a fraction may
 * follow); *s moves past it. @return 0, or -1 if there is none. */
static int match_number(const char **s, int real)
{
    const char *p = *s;

    if (!isdigit((unsigned char)*p))
        return -1;
    while (isdigit((unsigned char)*p))
        p++;
    if (real && *p == '.') {
        p++;
        while (isdigit((unsigned char)*p))
            p++;
    }
    *s = p;
    return 0;
}

/* Does @p v match the alternative pat[0..plen) of a values list? */
static int match_alt(const char *pat, size_t plen, const char *v)
{
    size_t i = 0;

    while (i < plen) {
        if (pat[i] == '#') {
            int real = i + 2 < plen && pat[i + 1] == '.' && pat[i + 2] == '#';
            if (match_number(&v, real) != 0)
                return 0;
            i += real ? 3 : 1;
            continue;
        }
        if (tolower((unsigned char)*v) != tolower((unsigned char)pat[i]))
            return 0;
        v++;
        i++;
    }
    return *v == '\0';
}

/* "auto|#.#" -> "one of: auto, NUMBER" */
static void values_describe(const char *values, char *why, size_t len)
{
    size_t n = (size_t)snprintf(why, len, "not one of: ");

    for (const char *p = values; *p != '\0' && n + 16 < len; p++) {
        const char *put = NULL;
        char one[2] = {*p, '\0'};

        if (!strncmp(p, "#.#", 3)) {
            put = "NUMBER";
            p += 2;
        } else if (*p == '#') {
            put = "INTEGER";
        } else if (*p == '|') {
            put = ", ";
        } else {
            put = one;
        }
        n += (size_t)snprintf(why + n, len - n, "%s", put);
    }
}

/* An integer (strtol's base 0) within "MIN..MAX". */
static int check_int(const char *v, const char *range, char *why,
                     size_t len)
{
    const char *dots = range != NULL ? strstr(range, "..") : NULL;
    int has_lo = dots != NULL && dots != range;
    int has_hi = dots != NULL && dots[2] != '\0';
    long long lo = has_lo ? strtoll(range, NULL, 0) : 0, sv;
    unsigned long long hi = has_hi ? strtoull(dots + 2, NULL, 0) : 0, uv;
    char *end;
    int ok;

    errno = 0;
    if (*v == '-') {
        sv = strtoll(v, &end, 0);
        ok = errno == 0 && end != v && *end == '\0' && !(has_lo && sv < lo);
    } else {
        uv = strtoull(v, &end, 0);
        ok = errno == 0 && end != v && *end == '\0' &&
             (isdigit((unsigned char)*v) || *v == '+') &&
             !(has_lo && lo > 0 && uv < (unsigned long long)lo) &&
             !(has_hi && uv > hi) && (has_hi || uv <= LLONG_MAX);
    }
    if (!ok && why != NULL) {
        if (has_lo && has_hi)
            snprintf(why, len, "not an integer from %lld to %llu", lo, hi);
        else if (has_lo)
            snprintf(why, len, "not an integer from %lld", lo);
        else
            snprintf(why, len, "not an integer");
    }
    return ok ? 0 : -1;
}

int rck_config_check(const rck_config_entry_t *e, const char *value,
                     char *why, size_t len)
{
    static const char *const bools[] = {"1",  "0",     "yes", "no",
                                        "true", "false", "on",  "off"};
    size_t size;

    switch (e->type) {
    case RCK_CONFIG_INT:
        return check_int(value, e->values, why, len);
    case RCK_CONFIG_SIZE:
        if (rck_config_parse_size(value, &size) == 0 ||
            size_auto(e, value, &size) == 0)
            return 0;
        if (why != NULL)
            snprintf(why, len, "not a size (a number of bytes with an "
                               "optional k, m or g: 64m%s)",
                     e->values != NULL && !strncasecmp(e->values, "auto=", 5)
                         ? "; or auto"
                         : "");
        return -1;
    case RCK_CONFIG_BOOL:
        for (size_t i = 0; i < sizeof(bools) / sizeof(*bools); i++) {
            if (!strcasecmp(value, bools[i]))
                return 0;
        }
        if (why != NULL)
            snprintf(why, len, "not one of: 1, 0, yes, no, true, false, on, "
                               "off");
        return -1;
    case RCK_CONFIG_STRING:
        break;
    }
    if (e->values == NULL)
        return 0;
    for (const char *p = e->values;;) {
        size_t plen = strcspn(p, "|");

        if (match_alt(p, plen, value))
            return 0;
        if (p[plen] == '\0')
            break;
        p += plen + 1;
    }
    if (why != NULL)
        values_describe(e->values, why, len);
    return -1;
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
            fprintf(fp, "RCK_%-14s default '%s'%s%s%s\n    %s\n", e->name,
                    e->dflt, e->values != NULL ? " (" : "",
                    e->values != NULL ? e->values : "",
                    e->values != NULL ? ")" : "", e->help);
    }
}
