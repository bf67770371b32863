/*
 * The parameters' schema in the chip loader: the registry of the rows
 * models register (rck_chip_register_params), the generic check of a
 * value against its row, the generic dump of the registered parameters
 * (rck_chip_print) and the schema's description (rck config --schema).
 * The models' rows belong to the models (the sim's: sim_costs.h).
 *
 * The HAL's own chip fields are schema rows too (issue 32): the scalars
 * of rck_chip_t that a chip file sets (the clocks, the mesh's size, the
 * memories' sizes, the atomic counters, the DVFS limits) and its MPB
 * latency tables (*_by_hops: a row checks each entry), each one row of
 * the HAL's table below (chip_fields), read and checked by the same
 * generic code as the models' rows (errors name the file and the key) and
 * described by `rck config --schema` before them (docs/PARAMS.md). The
 * routing, the voltage islands, the memory controllers and the DVFS table
 * (arrays that must agree with each other) are read in chip.c.
 *
 * Owns: the registry, the HAL's table, rck__chip_param_ok,
 * rck__chip_apply_fields, rck__chip_check_fields, rck__chip_print_params,
 * rck_chip_print_schema. May call: util (json, log), the
 * loader's readers (chip.c: rck__chip_group, rck__chip_read_number).
 */
#include "chip_internal.h"
#include "rck/json.h"
#include "rck/log.h"

#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define chip_bad rck__chip_bad
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
                 rck_json_format_real(e->min, lo, sizeof(lo)), e->unit, d);
    else
        chip_bad(what, path, "must be %s %s and at most %s %s, got %g",
                 e->min_open ? "greater than" : "at least",
                 rck_json_format_real(e->min, lo, sizeof(lo)),
                 rck_json_format_real(e->max, hi, sizeof(hi)), e->unit, d);
    return -1;
}

/* How the field is stored in rck_chip_t: FIELD_HOPS is a *_by_hops table
 * (double[RCK_CHIP_MAX_HOPS + 1], entry h for h hops; the chip file gives
 * the leading ones, each checked by the row, the rest is CHIP_UNSET until
 * rck_chip_validate extends it: chip.c). */
typedef enum { FIELD_INT, FIELD_U32, FIELD_DOUBLE, FIELD_HOPS } field_kind_t;

typedef struct {
    rck_chip_param_t row;
    size_t off;        /* offsetof(rck_chip_t, the field) */
    field_kind_t kind;
} chip_field_t;

#define ROW(grp, key_, TYPE, fld, kind_, mn, mo, mx, unit_, doc_)           \
    {{.group = grp, .key = key_, .type = RCK_PARAM_##TYPE, .min = mn,       \
      .max = mx, .min_open = mo, .unit = unit_, .doc = doc_,                \
      .field = "rck_chip_t." #fld},                                         \
     offsetof(rck_chip_t, fld), kind_}
#define NUM(grp, key_, fld, mn, mo, unit_, doc_)                            \
    ROW(grp, key_, NUMBER, fld, FIELD_DOUBLE, mn, mo, INFINITY, unit_, doc_)
#define INT(grp, key_, fld, kind_, mn, mx, unit_, doc_)                     \
    ROW(grp, key_, INTEGER, fld, kind_, mn, 0, mx, unit_, doc_)
#define HOPS(key_, fld, doc_)                                               \
    ROW("", key_, NUMBER, fld, FIELD_HOPS, 0, 0, INFINITY, "core cycles",  \
        doc_)

static const chip_field_t chip_fields[] = {
    NUM("frequencies_mhz", "core", core_mhz, 0, 1, "MHz",
        "the tiles' base clock: what the core dividers divide and what "
        "every cost in core cycles is counted at"),
    NUM("frequencies_mhz", "mesh", mesh_mhz, 0, 1, "MHz",
        "the mesh's clock (routers and links)"),
    NUM("frequencies_mhz", "memory", mem_mhz, 0, 1, "MHz",
        "the DDR3 memory controllers' clock"),
    INT("mesh", "x", mesh_x, FIELD_INT, 1, RCK_CHIP_MAX_CORES, "tiles",
        "tiles across (6 on the SCC)"),
    INT("mesh", "y", mesh_y, FIELD_INT, 1, RCK_CHIP_MAX_CORES, "tiles",
        "tiles down (4 on the SCC)"),
    INT("mesh", "cores_per_tile", cores_per_tile, FIELD_INT, 1,
        RCK_CHIP_MAX_CORES, "cores", "cores on a tile (2 on the SCC)"),
    INT("", "mpb_bytes_per_core", mpb_bytes, FIELD_U32, 1, INT_MAX,
        "bytes", "each core's part of its tile's message-passing buffer"),
    INT("", "cache_line_bytes", line_bytes, FIELD_U32, 1, INT_MAX, "bytes",
        "a cache line, and the MPB's line"),
    INT("", "l1d_bytes", l1d_bytes, FIELD_U32, 1, INT_MAX, "bytes",
        "a core's L1 data cache"),
    INT("", "l2_bytes", l2_bytes, FIELD_U32, 1, INT_MAX, "bytes",
        "a core's L2 cache"),
    INT("", "atomic_counters", atomic_counters, FIELD_INT, 0, INT_MAX,
        "counters", "the GIC's atomic increment counters"),
    NUM("dvfs", "volts_min", volts_min, 0, 1, "V",
        "the lowest voltage an island may be set to"),
    NUM("dvfs", "volts_max", volts_max, 0, 1, "V",
        "the highest voltage an island may be set to"),
    NUM("dvfs", "volt_step_mv", volt_step_mv, 0, 1, "mV",
        "the voltage regulator's step"),
    NUM("dvfs", "volt_change_cycles", volt_change_cycles, 0, 0,
        "core cycles", "how long a voltage change takes, at core_mhz"),
    NUM("dvfs", "mesh_volts", mesh_volts, 0, 1, "V",
        "the mesh island's voltage (fixed)"),
    NUM("dvfs", "volts_start", volts_start, 0, 1, "V",
        "every island's voltage when the chip starts"),
    HOPS("mpb_line_write_by_hops", mpb_line_write_by_hops,
         "a table, entry h: one MPB line write to a core h hops away (1 to "
         "65 entries given; validation extends them linearly to the mesh's "
         "diameter)"),
    HOPS("mpb_dword_read_by_hops", mpb_dword_read_by_hops,
         "a table, entry h: one MPB DWORD read from a core h hops away (1 "
         "to 65 entries given; extended as the line writes)"),
};

#define NFIELDS (sizeof(chip_fields) / sizeof(chip_fields[0]))

/* The value of a scalar field; a table's entry 0. */
static double field_get(const rck_chip_t *c, const chip_field_t *f)
{
    const char *p = (const char *)c + f->off;

    switch (f->kind) {
    case FIELD_INT:
        return *(const int *)(const void *)p;
    case FIELD_U32:
        return *(const uint32_t *)(const void *)p;
    default:
        return *(const double *)(const void *)p;
    }
}

/* @p d has passed the row's check: an integer row's value is whole and in
 * the field's range. */
static void field_set(rck_chip_t *c, const chip_field_t *f, double d)
{
    char *p = (char *)c + f->off;

    switch (f->kind) {
    case FIELD_INT:
        *(int *)(void *)p = (int)d;
        break;
    case FIELD_U32:
        *(uint32_t *)(void *)p = (uint32_t)d;
        break;
    default:
        *(double *)(void *)p = d;
    }
}

static const char *field_path(const chip_field_t *f, char *buf, size_t len)
{
    snprintf(buf, len, "%s%s%s", f->row.group,
             f->row.group[0] != '\0' ? "." : "", f->row.key);
    return buf;
}

/* A *_by_hops table: the given entries replace the whole table. */
static int apply_hops(const char *what, const rck_json_t *o,
                      const chip_field_t *f, const char *path, rck_chip_t *c)
{
    double *t = (double *)(void *)((char *)c + f->off);
    const rck_json_t *arr;
    char at[128];
    size_t i, n;
    int rc = rck__chip_array(what, o, f->row.key, path, 1,
                             RCK_CHIP_MAX_HOPS + 1, &arr);

    if (rc <= 0)
        return rc;
    n = rck_json_len(arr);
    for (i = 0; i < n; i++) {
        double d;

        snprintf(at, sizeof(at), "%s[%zu]", path, i);
        if (rck__chip_read_number(what, rck_json_at(arr, i), at, &d) < 0 ||
            rck__chip_param_ok(what, at, &f->row, d) < 0)
            return -1;
        t[i] = d;
    }
    for (; i <= RCK_CHIP_MAX_HOPS; i++)
        t[i] = CHIP_UNSET;
    return 1;
}

int rck__chip_apply_fields(const char *what, const rck_json_t *root,
                           rck_chip_t *c)
{
    for (size_t k = 0; k < NFIELDS; k++) {
        const chip_field_t *f = &chip_fields[k];
        const rck_json_t *o;
        char path[96];
        double d;
        int rc;

        if (rck__chip_group(what, root, f->row.group, &o) < 0)
            return -1;
        field_path(f, path, sizeof(path));
        if (f->kind == FIELD_HOPS) {
            if (apply_hops(what, o, f, path, c) < 0)
                return -1;
            continue;
        }
        rc = rck__chip_read_number(what, rck_json_get(o, f->row.key), path,
                                   &d);
        if (rc < 0 || (rc == 1 && rck__chip_param_ok(what, path, &f->row,
                                                     d) < 0))
            return -1;
        if (rc == 1)
            field_set(c, f, d);
    }
    return 0;
}

int rck__chip_check_fields(const char *what, const rck_chip_t *c)
{
    char path[96];

    /* the tables are completed and checked by chip.c (chip_check_hops) */
    for (size_t k = 0; k < NFIELDS; k++)
        if (chip_fields[k].kind != FIELD_HOPS &&
            rck__chip_param_ok(what, field_path(&chip_fields[k], path,
                                                sizeof(path)),
                               &chip_fields[k].row,
                               field_get(c, &chip_fields[k])) < 0)
            return -1;
    return 0;
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

/* One row of the schema's JSON; @p table: its default is the entries of
 * this table (up to the first unset one) instead of @p dflt. */
static void schema_row(rck_jsonw_t *w, const char *path,
                       const rck_chip_param_t *e, double dflt,
                       const double *table)
{
    rck_jsonw_object(w, NULL);
    rck_jsonw_string(w, "key", path);
    rck_jsonw_string(w, "type",
                     e->type == RCK_PARAM_INTEGER ? "integer" : "number");
    rck_jsonw_string(w, "unit", e->unit);
    rck_jsonw_real(w, "min", e->min);
    rck_jsonw_bool(w, "min_open", e->min_open);
    if (isinf(e->max))
        rck_jsonw_null(w, "max");
    else
        rck_jsonw_real(w, "max", e->max);
    if (table != NULL) {
        rck_jsonw_array(w, "default");
        for (int i = 0; i <= RCK_CHIP_MAX_HOPS && table[i] >= 0; i++)
            rck_jsonw_real(w, NULL, table[i]);
        rck_jsonw_end_array(w);
    } else {
        rck_jsonw_real(w, "default", dflt);
    }
    rck_jsonw_string(w, "default_from", e->has_default ? "schema" : "chip");
    rck_jsonw_string(w, "doc", e->doc);
    rck_jsonw_string(w, "field", e->field);
    rck_jsonw_end_object(w);
}

void rck_chip_print_schema(FILE *fp, const rck_chip_t *dflt)
{
    char path[160];
    rck_jsonw_t w;

    rck_jsonw_init(&w, fp, RCK_JSONW_NEWLINE);
    rck_jsonw_array(&w, NULL);
    rck_jsonw_indent_items(&w, 2);
    /* the HAL's fields first, then the models' rows */
    for (size_t k = 0; k < NFIELDS; k++) {
        const chip_field_t *f = &chip_fields[k];

        schema_row(&w, field_path(f, path, sizeof(path)), &f->row,
                   field_get(dflt, f),
                   f->kind == FIELD_HOPS
                       ? (const double *)(const void *)((const char *)dflt +
                                                        f->off)
                       : NULL);
    }
    for (size_t k = 0; k < CHIP_NCOSTS; k++)
        schema_row(&w, rck__chip_param_path(k, path, sizeof(path)),
                   &chip_costs(k),
                   k < (size_t)dflt->nparams ? dflt->params[k] : 0, NULL);
    rck_jsonw_break(&w, 0);
    rck_jsonw_end_array(&w);
    if (rck_jsonw_finish(&w) != RCK_OK)
        rck_error("chip: the schema is incomplete: %s", rck_jsonw_error(&w));
}
