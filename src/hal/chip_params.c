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
    return rck_json_format_real(d, buf, len);
}

/* Close the open group (@p top, @p sub) of chip_print_params. */
static void chip_print_close(rck_jsonw_t *w, const char *top,
                             const char *sub)
{
    if (top[0] == '\0')
        return;
    if (sub[0] != '\0') {
        rck_jsonw_end_object(w);
        rck_jsonw_break(w, 2);
    }
    rck_jsonw_end_object(w);
}

/*
 * The registered parameters, from their schema rows alone, as members of
 * the chip's object: a top-level key on a line of its own; a group's keys
 * on one line after its "{" (a row's wrap starts a new line aligned with
 * the first), then its inner groups each on a line of its own (a group's
 * own keys come before its inner groups in the schema).
 */
void rck__chip_print_params(rck_jsonw_t *w, const rck_chip_t *c)
{
    char top[64] = "", sub[64] = "";

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
            chip_print_close(w, top, sub);
            if (t[0] != '\0')
                rck_jsonw_object(w, t);
            if (u[0] != '\0') {
                rck_jsonw_break(w, 4);
                rck_jsonw_object(w, u);
            }
            first = 1;
        } else if (strcmp(u, sub) != 0) {
            /* the next inner group (after the group's own keys, if any) */
            if (sub[0] != '\0')
                rck_jsonw_end_object(w);
            rck_jsonw_break(w, 4);
            rck_jsonw_object(w, u);
            first = 1;
        }
        snprintf(top, sizeof(top), "%s", t);
        snprintf(sub, sizeof(sub), "%s", u);
        if (t[0] == '\0') {
            rck_jsonw_real(w, e->key, c->params[k]);
            continue;
        }
        if (!first && e->wrap)
            rck_jsonw_break(w, (int)strlen(u[0] ? u : t) + (u[0] ? 9 : 7));
        rck_jsonw_real(w, e->key, c->params[k]);
    }
    chip_print_close(w, top, sub);
}

void rck_chip_print_schema(FILE *fp, const rck_chip_t *dflt)
{
    char path[160];
    rck_jsonw_t w;

    rck_jsonw_init(&w, fp, RCK_JSONW_NEWLINE);
    rck_jsonw_array(&w, NULL);
    rck_jsonw_indent_items(&w, 2);
    for (size_t k = 0; k < CHIP_NCOSTS; k++) {
        const rck_chip_param_t *e = &chip_costs(k);

        rck_jsonw_object(&w, NULL);
        rck_jsonw_string(&w, "key",
                         rck__chip_param_path(k, path, sizeof(path)));
        rck_jsonw_string(&w, "type", e->type == RCK_PARAM_INTEGER
                                         ? "integer"
                                         : "number");
        rck_jsonw_string(&w, "unit", e->unit);
        rck_jsonw_real(&w, "min", e->min);
        rck_jsonw_bool(&w, "min_open", e->min_open);
        if (isinf(e->max))
            rck_jsonw_null(&w, "max");
        else
            rck_jsonw_real(&w, "max", e->max);
        rck_jsonw_real(&w, "default",
                       k < (size_t)dflt->nparams ? dflt->params[k] : 0);
        rck_jsonw_string(&w, "default_from",
                         e->has_default ? "schema" : "chip");
        rck_jsonw_string(&w, "doc", e->doc);
        rck_jsonw_string(&w, "field", e->field);
        rck_jsonw_end_object(&w);
    }
    rck_jsonw_break(&w, 0);
    rck_jsonw_end_array(&w);
    if (rck_jsonw_finish(&w) != RCK_OK)
        rck_error("chip: the schema is incomplete: %s", rck_jsonw_error(&w));
}
