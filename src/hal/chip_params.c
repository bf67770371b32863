/*
 * The model parameters' schema in the chip loader: the registry of the
 * rows models register (rck_chip_register_params), the generic check of a
 * value against its row, the generic dump of the registered parameters
 * (rck_chip_print) and the schema's description (rck config --schema).
 * The rows themselves belong to the models (the sim's: sim_costs.h).
 *
 * Owns: the registry, rck__chip_param_ok, rck__chip_print_params,
 * rck_chip_print_schema, rck__chip_fmt. May call: util (json, log).
 */
#include "chip_internal.h"
#include "rck/json.h"
#include "rck/log.h"

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define chip_bad rck__chip_bad
#define chip_fmt rck__chip_fmt
#define CHIP_NCOSTS ((size_t)chip_nparams)
#define chip_costs(k) (*chip_costs_reg[k])

/* The models' parameters (rck_chip_register_params), in rck_chip_t.params
 * order. */
static const rck_chip_param_t *chip_costs_reg[RCK_CHIP_MAX_PARAMS];
static int chip_nparams;


int rck_chip_register_params(const rck_chip_param_t *params, int n)
{
    int first = chip_nparams;

    for (int i = 0; i < chip_nparams; i++) {
        if (chip_costs_reg[i] == params)
            return i;
    }
    if (n < 0 || n > RCK_CHIP_MAX_PARAMS - chip_nparams) {
        rck_error("chip: no room for %d more model parameters", n);
        return -1;
    }
    for (int i = 0; i < n; i++)
        chip_costs_reg[chip_nparams++] = &params[i];
    return first;
}

int rck__chip_nparams(void)
{
    return chip_nparams;
}

const rck_chip_param_t *rck__chip_param(int k)
{
    return chip_costs_reg[k];
}

/* "group.key" of registered parameter @p k. */
const char *rck__chip_param_path(size_t k, char *buf, size_t len)
{
    snprintf(buf, len, "%s%s%s", chip_costs(k).group,
             chip_costs(k).group[0] != '\0' ? "." : "", chip_costs(k).key);
    return buf;
}

int rck__chip_param_ok(const char *what, const char *path,
                       const rck_chip_param_t *e, double d)
{
    char lo[40], hi[40];

    if (!isfinite(d)) {
        chip_bad(what, path, "must be a finite number, got %g", d);
        return -1;
    }
    if (e->type == RCK_PARAM_INTEGER && d != floor(d)) {
        chip_bad(what, path, "expected an integer, got %g", d);
        return -1;
    }
    if ((e->min_open ? d > e->min : d >= e->min) && d <= e->max)
        return 0;
    if (isinf(e->max) && e->min == 0)
        chip_bad(what, path, "must be %s, got %g",
                 e->min_open ? "greater than zero" : "non-negative", d);
    else if (isinf(e->max))
        chip_bad(what, path, "must be %s %s %s, got %g",
                 e->min_open ? "greater than" : "at least",
                 chip_fmt(e->min, lo, sizeof(lo)), e->unit, d);
    else
        chip_bad(what, path, "must be %s %s and at most %s %s, got %g",
                 e->min_open ? "greater than" : "at least",
                 chip_fmt(e->min, lo, sizeof(lo)),
                 chip_fmt(e->max, hi, sizeof(hi)), e->unit, d);
    return -1;
}

/*
 * Format @p d so that strtod gives back exactly @p d: integers plainly,
 * others with the fewest significant digits that round-trip. JSON needs a
 * '.' whatever LC_NUMERIC says.
 */
const char *rck__chip_fmt(double d, char *buf, size_t len)
{
    const char *dp = localeconv()->decimal_point;
    char *p;
    int prec;

    if (d == floor(d) && fabs(d) < 1e15) {
        snprintf(buf, len, "%.0f", d);
        return buf;
    }
    for (prec = 15; prec < 17; prec++) {
        snprintf(buf, len, "%.*g", prec, d);
        if (strtod(buf, NULL) == d)
            break;
    }
    if (prec == 17)
        snprintf(buf, len, "%.17g", d);
    if (dp != NULL && dp[0] != '.' && dp[0] != '\0' && dp[1] == '\0') {
        for (p = buf; *p != '\0'; p++) {
            if (*p == dp[0])
                *p = '.';
        }
    }
    return buf;
}

/* Close the open group (@p top, @p sub) of chip_print_params. */
static void chip_print_close(FILE *fp, const char *top, const char *sub)
{
    if (top[0] != '\0')
        fprintf(fp, sub[0] != '\0' ? "}\n  },\n" : "},\n");
}

/*
 * The registered parameters, from their schema rows alone: a top-level
 * key on a line of its own; a group's keys on one line after its "{"
 * (a row's wrap starts a new line aligned with the first), then its inner
 * groups each on a line of its own (a group's own keys come before its
 * inner groups in the schema).
 */
void rck__chip_print_params(FILE *fp, const rck_chip_t *c)
{
    char top[64] = "", sub[64] = "", b[40];

    for (size_t k = 0; k < CHIP_NCOSTS; k++) {
        const rck_chip_param_t *e = &chip_costs(k);
        const char *dot = strchr(e->group, '.');
        char t[64], u[64];
        int first = 0;

        snprintf(t, sizeof(t), "%.*s",
                 (int)(dot != NULL ? (size_t)(dot - e->group)
                                   : strlen(e->group)),
                 e->group);
        snprintf(u, sizeof(u), "%s", dot != NULL ? dot + 1 : "");
        if (strcmp(t, top) != 0) {
            chip_print_close(fp, top, sub);
            if (t[0] != '\0')
                fprintf(fp, "  \"%s\": {", t);
            if (u[0] != '\0')
                fprintf(fp, "\n    \"%s\": {", u);
            first = 1;
        } else if (strcmp(u, sub) != 0) {
            /* the next inner group (after the group's own keys, if any) */
            fprintf(fp, "%s\n    \"%s\": {", sub[0] != '\0' ? "}," : ",", u);
            first = 1;
        }
        snprintf(top, sizeof(top), "%s", t);
        snprintf(sub, sizeof(sub), "%s", u);
        if (t[0] == '\0') {
            fprintf(fp, "  \"%s\": %s,\n", e->key,
                    chip_fmt(c->params[k], b, sizeof(b)));
            continue;
        }
        if (!first && e->wrap)
            fprintf(fp, ",\n%*s", (int)strlen(u[0] ? u : t) + (u[0] ? 9 : 7),
                    "");
        else if (!first)
            fprintf(fp, ", ");
        fprintf(fp, "\"%s\": %s", e->key,
                chip_fmt(c->params[k], b, sizeof(b)));
    }
    chip_print_close(fp, top, sub);
}

void rck_chip_print_schema(FILE *fp, const rck_chip_t *dflt)
{
    char path[160], b[40];

    fprintf(fp, "[");
    for (size_t k = 0; k < CHIP_NCOSTS; k++) {
        const rck_chip_param_t *e = &chip_costs(k);

        fprintf(fp, "%s\n  {\"key\": ", k ? "," : "");
        rck_json_write_string(fp, rck__chip_param_path(k, path, sizeof(path)));
        fprintf(fp, ", \"type\": \"%s\", \"unit\": ",
                e->type == RCK_PARAM_INTEGER ? "integer" : "number");
        rck_json_write_string(fp, e->unit);
        fprintf(fp, ", \"min\": %s", chip_fmt(e->min, b, sizeof(b)));
        fprintf(fp, ", \"min_open\": %s", e->min_open ? "true" : "false");
        if (isinf(e->max))
            fprintf(fp, ", \"max\": null");
        else
            fprintf(fp, ", \"max\": %s", chip_fmt(e->max, b, sizeof(b)));
        fprintf(fp, ", \"default\": %s, \"default_from\": \"%s\"",
                chip_fmt(k < (size_t)dflt->nparams ? dflt->params[k] : 0, b,
                         sizeof(b)),
                e->has_default ? "schema" : "chip");
        fprintf(fp, ", \"doc\": ");
        rck_json_write_string(fp, e->doc);
        fprintf(fp, ", \"field\": ");
        rck_json_write_string(fp, e->field);
        fprintf(fp, "}");
    }
    fprintf(fp, "\n]\n");
}

