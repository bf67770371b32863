/*
 * Chip configuration: JSON file <-> rck_chip_t.
 *
 * Loading is layered: the built-in default (rck_chip_default_json, a copy of
 * config/chips/scc-533-800-800.json) is applied to an empty chip and
 * validated, then a user file is applied on top of it, so keys the file
 * leaves out keep the default's values. A key that is present must have the
 * right type and range; the first bad key is logged with the file name and
 * the key's path and the load fails with RCK_ERR_CONFIG. Unknown keys are
 * ignored (files carry documentation such as "about").
 *
 * The *_by_hops tables: an entry that was not given is negative
 * (CHIP_UNSET); the given entries are the leading non-negative ones.
 * rck_chip_validate fills 0 .. max_hops from them (linear extrapolation from
 * the last two, clamped at 0) and marks everything beyond max_hops unset,
 * so that validating twice, or printing and reloading, gives the same
 * struct byte for byte (for the same reason unused name bytes, controller
 * slots and DVFS slots are zeroed).
 *
 * dram_line_write_uncached_extra: an uncached 32-byte line write is eight
 * DWORD writes, each waiting for the previous one (the P54C has one
 * outstanding write), so the model charges 8 x latency(hops) plus this
 * extra, in core cycles, where latency(n) = core_cycles +
 * n * mesh_cycles_per_hop * core/mesh MHz + memory_cycles * core/memory MHz.
 * It is fitted from the measurements in "dram_from_core_0_by_mc" (the mean
 * of line_write_uncached[i] - 8 * latency(hops[i]) over the controllers;
 * about 201 cycles for the SCC at 533/800/800), unless the file gives it
 * explicitly as "dram_latency_model": {"line_write_uncached_extra": ...},
 * which is also how rck_chip_print writes it.
 */
#include "rck/chip.h"
#include "chip_internal.h"
#include "rck/json.h"
#include "rck/log.h"

#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

extern const char rck_chip_default_json[];

#define CHIP_DEFAULT_NAME "built-in chip"
#define CHIP_FILE_MAX (16L << 20)
#define chip_bad rck__chip_bad
#define chip_array rck__chip_array
#define CHIP_NCOSTS ((size_t)rck__chip_nparams())
#define chip_costs(k) (*rck__chip_param((int)(k)))

/* Log "<what>: key '<path>': <message>" (chip_internal.h). */
void rck__chip_bad(const char *what, const char *path, const char *fmt, ...)
{
    char msg[512];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    rck_error("%s: key '%s': %s", what, path, msg);
}

static const char *chip_type_name(const rck_json_t *v)
{
    switch (rck_json_type(v)) {
    case RCK_JSON_NULL: return "null";
    case RCK_JSON_BOOL: return "a boolean";
    case RCK_JSON_NUMBER: return "a number";
    case RCK_JSON_STRING: return "a string";
    case RCK_JSON_ARRAY: return "an array";
    case RCK_JSON_OBJECT: return "an object";
    }
    return "something else";
}

/*
 * The readers below return 0 when the key is absent (output untouched),
 * 1 when it was read, -1 after logging a bad value. A NULL @p obj means the
 * enclosing object is absent.
 */

/* A number; @p positive: must be > 0, else must be >= 0. */
static int chip_read_num(const char *what, const rck_json_t *v,
                         const char *path, int positive, double *out)
{
    double d;

    if (v == NULL)
        return 0;
    if (rck_json_number(v, &d) != 0) {
        chip_bad(what, path, "expected a number, got %s", chip_type_name(v));
        return -1;
    }
    if (positive && !(d > 0)) {
        chip_bad(what, path, "must be greater than zero, got %g", d);
        return -1;
    }
    if (!positive && d < 0) {
        chip_bad(what, path, "must not be negative, got %g", d);
        return -1;
    }
    *out = d;
    return 1;
}

/* Any number (a schema row checks it). */
int rck__chip_read_number(const char *what, const rck_json_t *v,
                          const char *path, double *out)
{
    if (v == NULL)
        return 0;
    if (rck_json_number(v, out) != 0) {
        chip_bad(what, path, "expected a number, got %s", chip_type_name(v));
        return -1;
    }
    return 1;
}

static int chip_read_int(const char *what, const rck_json_t *v,
                         const char *path, long min, long max, int *out)
{
    double d;
    long l;

    if (v == NULL)
        return 0;
    if (rck_json_number(v, &d) != 0) {
        chip_bad(what, path, "expected an integer, got %s",
                 chip_type_name(v));
        return -1;
    }
    if (rck_json_int(v, &l) != 0) {
        chip_bad(what, path, "expected an integer, got %g", d);
        return -1;
    }
    if (l < min || l > max) {
        if (min == 1 && max == INT_MAX)
            chip_bad(what, path, "must be a positive integer, got %ld", l);
        else
            chip_bad(what, path, "must be between %ld and %ld, got %ld",
                     min, max, l);
        return -1;
    }
    *out = (int)l;
    return 1;
}

static int chip_int(const char *what, const rck_json_t *obj, const char *key,
                    const char *path, long min, long max, int *out)
{
    return chip_read_int(what, rck_json_get(obj, key), path, min, max, out);
}

/* An object member that must itself be an object. */
static int chip_obj(const char *what, const rck_json_t *obj, const char *key,
                    const char *path, const rck_json_t **out)
{
    const rck_json_t *v = rck_json_get(obj, key);

    *out = NULL;
    if (v == NULL)
        return 0;
    if (rck_json_type(v) != RCK_JSON_OBJECT) {
        chip_bad(what, path, "expected an object, got %s",
                 chip_type_name(v));
        return -1;
    }
    *out = v;
    return 1;
}

/* An array of @p minlen .. @p maxlen elements. */
int rck__chip_array(const char *what, const rck_json_t *obj, const char *key,
                    const char *path, size_t minlen, size_t maxlen,
                    const rck_json_t **out)
{
    const rck_json_t *v = rck_json_get(obj, key);
    size_t n;

    *out = NULL;
    if (v == NULL)
        return 0;
    if (rck_json_type(v) != RCK_JSON_ARRAY) {
        chip_bad(what, path, "expected an array, got %s", chip_type_name(v));
        return -1;
    }
    n = rck_json_len(v);
    if (n < minlen || n > maxlen) {
        if (minlen == maxlen)
            chip_bad(what, path, "expected %zu entries, got %zu", minlen, n);
        else
            chip_bad(what, path, "expected %zu to %zu entries, got %zu",
                     minlen, maxlen, n);
        return -1;
    }
    *out = v;
    return 1;
}

static int chip_apply_mesh(const char *what, const rck_json_t *root,
                           rck_chip_t *c)
{
    const rck_json_t *mesh, *arr, *mc, *tile;
    const char *routing;
    char path[96];
    int i, j, n, id, rc;

    /* x, y and cores_per_tile: the HAL's schema rows (chip_params.c) */
    rc = chip_obj(what, root, "mesh", "mesh", &mesh);
    if (rc <= 0)
        return rc;
    if (rck_json_get(mesh, "routing") != NULL) {
        routing = rck_json_string(rck_json_get(mesh, "routing"));
        if (routing == NULL || strcmp(routing, "xy") != 0) {
            chip_bad(what, "mesh.routing",
                     "only \"xy\" (dimension-ordered) routing is modelled");
            return -1;
        }
    }
    if (chip_array(what, mesh, "voltage_island_tiles",
                   "mesh.voltage_island_tiles", 2, 2, &arr) < 0)
        return -1;
    if (arr != NULL &&
        (chip_read_int(what, rck_json_at(arr, 0),
                       "mesh.voltage_island_tiles[0]", 1, RCK_CHIP_MAX_CORES,
                       &c->island_w) < 0 ||
         chip_read_int(what, rck_json_at(arr, 1),
                       "mesh.voltage_island_tiles[1]", 1, RCK_CHIP_MAX_CORES,
                       &c->island_h) < 0))
        return -1;
    if (chip_array(what, mesh, "memory_controllers",
                   "mesh.memory_controllers", 1, RCK_CHIP_MAX_MC, &arr) < 0)
        return -1;
    if (arr == NULL)
        return 1;
    n = (int)rck_json_len(arr);
    for (i = 0; i < n; i++) {
        mc = rck_json_at(arr, i);
        snprintf(path, sizeof(path), "mesh.memory_controllers[%d]", i);
        if (rck_json_type(mc) != RCK_JSON_OBJECT) {
            chip_bad(what, path, "expected an object {\"id\": %d, "
                     "\"tile\": [x, y]}, got %s", i, chip_type_name(mc));
            return -1;
        }
        snprintf(path, sizeof(path), "mesh.memory_controllers[%d].id", i);
        if (chip_int(what, mc, "id", path, 0, INT_MAX, &id) < 0)
            return -1;
        if (rck_json_get(mc, "id") != NULL && id != i) {
            chip_bad(what, path, "controllers must be listed in id order "
                     "0, 1, 2, ...; expected %d, got %d", i, id);
            return -1;
        }
        snprintf(path, sizeof(path), "mesh.memory_controllers[%d].tile", i);
        if (chip_array(what, mc, "tile", path, 2, 2, &tile) < 0)
            return -1;
        if (tile == NULL) {
            chip_bad(what, path, "missing (each controller needs "
                     "\"tile\": [x, y])");
            return -1;
        }
        for (j = 0; j < 2; j++) {
            snprintf(path, sizeof(path),
                     "mesh.memory_controllers[%d].tile[%d]", i, j);
            if (chip_read_int(what, rck_json_at(tile, (size_t)j), path, 0,
                              RCK_CHIP_MAX_CORES,
                              j ? &c->mc[i].y : &c->mc[i].x) < 0)
                return -1;
        }
    }
    c->nmc = n;
    return 1;
}

static int chip_apply_dvfs(const char *what, const rck_json_t *root,
                           rck_chip_t *c)
{
    static const char *const keys[] = {"fdiv", "core_mhz", "volts"};
    const rck_json_t *dvfs, *arr[3];
    char path[96];
    size_t i, j, n = 0;
    int rc = chip_obj(what, root, "dvfs", "dvfs", &dvfs);

    if (rc <= 0)
        return rc;
    for (j = 0; j < 3; j++) {
        snprintf(path, sizeof(path), "dvfs.%s", keys[j]);
        if (chip_array(what, dvfs, keys[j], path, 1, RCK_CHIP_MAX_DVFS,
                       &arr[j]) < 0)
            return -1;
        if (arr[j] == NULL) {
            chip_bad(what, path, "missing (dvfs needs fdiv, core_mhz and "
                     "volts arrays of the same length)");
            return -1;
        }
        if (j == 0) {
            n = rck_json_len(arr[0]);
        } else if (rck_json_len(arr[j]) != n) {
            chip_bad(what, path, "has %zu entries but dvfs.fdiv has %zu",
                     rck_json_len(arr[j]), n);
            return -1;
        }
    }
    for (i = 0; i < n; i++) {
        snprintf(path, sizeof(path), "dvfs.fdiv[%zu]", i);
        if (chip_read_int(what, rck_json_at(arr[0], i), path, 1, INT_MAX,
                          &c->dvfs_fdiv[i]) < 0)
            return -1;
        snprintf(path, sizeof(path), "dvfs.core_mhz[%zu]", i);
        if (chip_read_num(what, rck_json_at(arr[1], i), path, 1,
                          &c->dvfs_mhz[i]) < 0)
            return -1;
        snprintf(path, sizeof(path), "dvfs.volts[%zu]", i);
        if (chip_read_num(what, rck_json_at(arr[2], i), path, 1,
                          &c->dvfs_volts[i]) < 0)
            return -1;
    }
    /* the limits (volts_min ... volts_start): the HAL's schema rows */
    c->ndvfs = (int)n;
    return 1;
}

/* Latency of one DRAM access over @p hops, in core cycles. */
static double *chip_cost_at(rck_chip_t *c, size_t k)
{
    return &c->params[k];
}

/* The registered parameter @p group.@p key of @p c, or NULL. */
static double *chip_param(rck_chip_t *c, const char *group, const char *key)
{
    for (size_t k = 0; k < CHIP_NCOSTS; k++) {
        if (!strcmp(chip_costs(k).group, group) &&
            !strcmp(chip_costs(k).key, key))
            return &c->params[k];
    }
    return NULL;
}

static double chip_dram_latency(const rck_chip_t *c, const double *lat,
                                double hops)
{
    return rck_chip_dram_latency(c, lat[0], lat[1], lat[2], hops);
}

/* Fit dram_line_write_uncached_extra (see the top of the file). */
static int chip_fit_uncached_extra(const char *what, const rck_json_t *root,
                                   rck_chip_t *c)
{
    const rck_json_t *meas, *hops, *lw;
    char path[96];
    double sum = 0, h, w, lat[3];
    double *core = chip_param(c, "dram_latency_model", "core_cycles");
    double *mesh = chip_param(c, "dram_latency_model", "mesh_cycles_per_hop");
    double *mem = chip_param(c, "dram_latency_model", "memory_cycles");
    double *extra =
        chip_param(c, "dram_latency_model", "line_write_uncached_extra");
    size_t i, n;
    int rc = chip_obj(what, root, "dram_from_core_0_by_mc",
                      "dram_from_core_0_by_mc", &meas);

    if (rc <= 0 || core == NULL || mesh == NULL || mem == NULL ||
        extra == NULL)
        return rc; /* nothing to fit (no model reads the latency) */
    lat[0] = *core;
    lat[1] = *mesh;
    lat[2] = *mem;
    if (chip_array(what, meas, "hops", "dram_from_core_0_by_mc.hops", 1,
                   RCK_CHIP_MAX_MC, &hops) < 0 ||
        chip_array(what, meas, "line_write_uncached",
                   "dram_from_core_0_by_mc.line_write_uncached", 1,
                   RCK_CHIP_MAX_MC, &lw) < 0)
        return -1;
    if (hops == NULL || lw == NULL)
        return 0;
    n = rck_json_len(hops);
    if (rck_json_len(lw) != n) {
        chip_bad(what, "dram_from_core_0_by_mc.line_write_uncached",
                 "has %zu entries but dram_from_core_0_by_mc.hops has %zu",
                 rck_json_len(lw), n);
        return -1;
    }
    if (!(c->core_mhz > 0 && c->mesh_mhz > 0 && c->mem_mhz > 0))
        return 0; /* validation reports the frequencies */
    for (i = 0; i < n; i++) {
        snprintf(path, sizeof(path), "dram_from_core_0_by_mc.hops[%zu]", i);
        if (chip_read_num(what, rck_json_at(hops, i), path, 0, &h) < 0)
            return -1;
        snprintf(path, sizeof(path),
                 "dram_from_core_0_by_mc.line_write_uncached[%zu]", i);
        if (chip_read_num(what, rck_json_at(lw, i), path, 0, &w) < 0)
            return -1;
        sum += w - 8 * chip_dram_latency(c, lat, h);
    }
    /* a negative residual would mean the latency model alone overshoots */
    *extra = sum / (double)n > 0 ? sum / (double)n : 0;
    return 1;
}

/* The object at the dotted path @p group of @p root ("": root itself).
 * @return 1, 0 when some part is absent (*out NULL), -1 (logged). */
int rck__chip_group(const char *what, const rck_json_t *root,
                    const char *group, const rck_json_t **out)
{
    char path[96];
    const char *p = group;
    int rc = 1;

    *out = root;
    while (*p != '\0' && *out != NULL) {
        const char *dot = strchr(p, '.');
        size_t n = dot != NULL ? (size_t)(dot - group) : strlen(group);
        char key[64];
        size_t kn = dot != NULL ? (size_t)(dot - p) : strlen(p);

        snprintf(path, sizeof(path), "%.*s", (int)n, group);
        snprintf(key, sizeof(key), "%.*s", (int)kn, p);
        rc = chip_obj(what, *out, key, path, out);
        if (rc < 0)
            return -1;
        p = dot != NULL ? dot + 1 : p + kn;
    }
    return *out != NULL ? 1 : 0;
}

/* The scalar costs, in the order of RCK_CHIP_COSTS. @return 0 or 1: 1 when
 * the file gives dram_latency_model.line_write_uncached_extra (else it is
 * fitted), or -1 (logged). */
static int chip_apply_costs(const char *what, const rck_json_t *root,
                            rck_chip_t *c)
{
    int have_extra = 0;

    for (size_t k = 0; k < CHIP_NCOSTS; k++) {
        const rck_chip_param_t *e = &chip_costs(k);
        const rck_json_t *o;
        char path[160];
        int rc;

        double d;

        if (rck__chip_group(what, root, e->group, &o) < 0)
            return -1;
        rck__chip_param_path(k, path, sizeof(path));
        /* any number here; its schema row's type and range below */
        rc = rck__chip_read_number(what, rck_json_get(o, e->key), path, &d);
        if (rc < 0 || (rc == 1 && rck__chip_param_ok(what, path, e, d) < 0))
            return -1;
        if (rc == 1)
            *chip_cost_at(c, k) = d;
        if (!strcmp(e->group, "dram_latency_model") &&
            !strcmp(e->key, "line_write_uncached_extra"))
            have_extra = rc;
    }
    return have_extra;
}

/* Apply the JSON document @p root on top of @p c. */
static rck_status_t chip_apply(const rck_json_t *root, const char *what,
                               rck_chip_t *c)
{
    const rck_json_t *v;
    const char *s;
    int have_extra;

    if (rck_json_type(root) != RCK_JSON_OBJECT) {
        rck_error("%s: the top level must be a JSON object, got %s", what,
                  chip_type_name(root));
        return RCK_ERR_CONFIG;
    }

    v = rck_json_get(root, "name");
    if (v != NULL) {
        s = rck_json_string(v);
        if (s == NULL) {
            chip_bad(what, "name", "expected a string, got %s",
                     chip_type_name(v));
            return RCK_ERR_CONFIG;
        }
        if (strlen(s) >= RCK_CHIP_NAME_LEN) {
            chip_bad(what, "name", "longer than %d bytes",
                     RCK_CHIP_NAME_LEN - 1);
            return RCK_ERR_CONFIG;
        }
        memset(c->name, 0, sizeof(c->name));
        memcpy(c->name, s, strlen(s));
    }

    /* the HAL's scalars (clocks, mesh size, memories, counters, DVFS
     * limits): its schema rows, read generically (chip_params.c) */
    if (rck__chip_apply_fields(what, root, c) < 0)
        return RCK_ERR_CONFIG;

    if (chip_apply_mesh(what, root, c) < 0)
        return RCK_ERR_CONFIG;

    /* the *_by_hops tables: the HAL's schema rows (rck__chip_apply_fields) */

    have_extra = chip_apply_costs(what, root, c);
    if (have_extra < 0)
        return RCK_ERR_CONFIG;

    if (chip_apply_dvfs(what, root, c) < 0)
        return RCK_ERR_CONFIG;

    /* last: the fit uses the frequencies and latency model resolved above */
    if (have_extra == 0 && chip_fit_uncached_extra(what, root, c) < 0)
        return RCK_ERR_CONFIG;
    return RCK_OK;
}

/* Complete and check one *_by_hops table (see the top of the file). */
static rck_status_t chip_check_hops(double *t, int max_hops, const char *what,
                                    const char *key)
{
    int i, n = 0;

    while (n <= RCK_CHIP_MAX_HOPS && t[n] >= 0) {
        if (!isfinite(t[n])) {
            rck_error("%s: key '%s[%d]': not a finite number", what, key, n);
            return RCK_ERR_CONFIG;
        }
        n++;
    }
    if (n == 0) {
        chip_bad(what, key, "needs at least the 0-hop entry");
        return RCK_ERR_CONFIG;
    }
    for (i = n; i <= max_hops; i++) {
        double v = t[n - 1];
        if (n >= 2)
            v += (double)(i - (n - 1)) * (t[n - 1] - t[n - 2]);
        t[i] = v > 0 ? v : 0;
    }
    for (i = max_hops + 1; i <= RCK_CHIP_MAX_HOPS; i++)
        t[i] = CHIP_UNSET;
    return RCK_OK;
}

/* The DVFS table: 1 .. RCK_CHIP_MAX_DVFS distinct dividers with positive
 * frequencies and volts. */
static rck_status_t chip_check_dvfs(const rck_chip_t *c, const char *what)
{
    char path[96];
    int i, j;

    if (c->ndvfs < 1 || c->ndvfs > RCK_CHIP_MAX_DVFS) {
        chip_bad(what, "dvfs", "needs 1 to %d entries, got %d",
                 RCK_CHIP_MAX_DVFS, c->ndvfs);
        return RCK_ERR_CONFIG;
    }
    for (i = 0; i < c->ndvfs; i++) {
        if (c->dvfs_fdiv[i] < 1) {
            snprintf(path, sizeof(path), "dvfs.fdiv[%d]", i);
            chip_bad(what, path, "must be a positive integer, got %d",
                     c->dvfs_fdiv[i]);
            return RCK_ERR_CONFIG;
        }
        for (j = 0; j < i; j++) {
            if (c->dvfs_fdiv[j] == c->dvfs_fdiv[i]) {
                snprintf(path, sizeof(path), "dvfs.fdiv[%d]", i);
                chip_bad(what, path, "divider %d is listed twice",
                         c->dvfs_fdiv[i]);
                return RCK_ERR_CONFIG;
            }
        }
        if (!isfinite(c->dvfs_mhz[i]) || !(c->dvfs_mhz[i] > 0) ||
            !isfinite(c->dvfs_volts[i]) || !(c->dvfs_volts[i] > 0)) {
            snprintf(path, sizeof(path), "dvfs.%s[%d]",
                     isfinite(c->dvfs_mhz[i]) && c->dvfs_mhz[i] > 0
                         ? "volts"
                         : "core_mhz",
                     i);
            chip_bad(what, path, "must be greater than zero");
            return RCK_ERR_CONFIG;
        }
        if (c->dvfs_volts[i] < c->volts_min - 1e-9 ||
            c->dvfs_volts[i] > c->volts_max + 1e-9) {
            snprintf(path, sizeof(path), "dvfs.volts[%d]", i);
            chip_bad(what, path, "%g V is outside [volts_min, volts_max] = "
                     "[%g, %g]", c->dvfs_volts[i], c->volts_min,
                     c->volts_max);
            return RCK_ERR_CONFIG;
        }
    }
    if (!(c->volts_min <= c->volts_max) || !isfinite(c->volt_change_cycles)) {
        chip_bad(what, "dvfs.volts_min", "needs volts_min <= volts_max and "
                 "a finite volt_change_cycles");
        return RCK_ERR_CONFIG;
    }
    if (c->volts_start < c->volts_min - 1e-9 ||
        c->volts_start > c->volts_max + 1e-9) {
        chip_bad(what, "dvfs.volts_start", "%g V is outside [volts_min, "
                 "volts_max]", c->volts_start);
        return RCK_ERR_CONFIG;
    }
    return RCK_OK;
}

/* The HAL's own fields (the clocks finite and positive, ...) and every
 * registered parameter: their schema rows' type and range. */
static rck_status_t chip_check_nums(rck_chip_t *c, const char *what)
{
    char path[160];

    if (rck__chip_check_fields(what, c) < 0)
        return RCK_ERR_CONFIG;
    for (size_t k = 0; k < CHIP_NCOSTS; k++) {
        if (rck__chip_param_ok(what, rck__chip_param_path(k, path, sizeof(path)),
                          &chip_costs(k), c->params[k]) < 0)
            return RCK_ERR_CONFIG;
    }
    return RCK_OK;
}

/* The memory controllers (on the mesh) and the atomic counters. */
static rck_status_t chip_check_mcs(const rck_chip_t *c, const char *what)
{
    char path[96];
    int i;

    if (c->nmc < 1 || c->nmc > RCK_CHIP_MAX_MC) {
        chip_bad(what, "mesh.memory_controllers",
                 "needs 1 to %d controllers, got %d", RCK_CHIP_MAX_MC,
                 c->nmc);
        return RCK_ERR_CONFIG;
    }
    for (i = 0; i < c->nmc; i++) {
        if (c->mc[i].x < 0 || c->mc[i].x >= c->mesh_x || c->mc[i].y < 0 ||
            c->mc[i].y >= c->mesh_y) {
            snprintf(path, sizeof(path), "mesh.memory_controllers[%d].tile",
                     i);
            chip_bad(what, path, "tile (%d, %d) is outside the %d x %d mesh",
                     c->mc[i].x, c->mc[i].y, c->mesh_x, c->mesh_y);
            return RCK_ERR_CONFIG;
        }
    }
    if (c->atomic_counters < 0) {
        chip_bad(what, "atomic_counters", "must not be negative, got %d",
                 c->atomic_counters);
        return RCK_ERR_CONFIG;
    }
    return RCK_OK;
}

/* rck_chip_validate with the name of the configuration's source. */
static rck_status_t chip_check(rck_chip_t *c, const char *what)
{
    const struct {
        uint32_t v;
        const char *key;
    } sizes[] = {{c->mpb_bytes, "mpb_bytes_per_core"},
                 {c->l1d_bytes, "l1d_bytes"},
                 {c->l2_bytes, "l2_bytes"}};
    size_t k;
    long ncores;
    double best;
    int i;

    if (memchr(c->name, '\0', sizeof(c->name)) == NULL) {
        chip_bad(what, "name", "not NUL-terminated within %d bytes",
                 RCK_CHIP_NAME_LEN);
        return RCK_ERR_CONFIG;
    }
    if (chip_check_nums(c, what) != RCK_OK)
        return RCK_ERR_CONFIG;

    if (c->mesh_x < 1 || c->mesh_y < 1 || c->cores_per_tile < 1) {
        chip_bad(what, c->mesh_x < 1   ? "mesh.x"
                       : c->mesh_y < 1 ? "mesh.y"
                                       : "mesh.cores_per_tile",
                 "must be a positive integer");
        return RCK_ERR_CONFIG;
    }
    ncores = (long)c->mesh_x * c->mesh_y;
    if (ncores > RCK_CHIP_MAX_CORES ||
        ncores * c->cores_per_tile > RCK_CHIP_MAX_CORES) {
        chip_bad(what, "mesh",
                 "%d x %d tiles x %d cores per tile exceeds the maximum of "
                 "%d cores", c->mesh_x, c->mesh_y, c->cores_per_tile,
                 RCK_CHIP_MAX_CORES);
        return RCK_ERR_CONFIG;
    }
    ncores *= c->cores_per_tile;
    if (c->mesh_x - 1 + c->mesh_y - 1 > RCK_CHIP_MAX_HOPS) {
        chip_bad(what, "mesh", "a %d x %d mesh is %d hops across, more than "
                 "the maximum of %d", c->mesh_x, c->mesh_y,
                 c->mesh_x + c->mesh_y - 2, RCK_CHIP_MAX_HOPS);
        return RCK_ERR_CONFIG;
    }
    if (c->island_w < 1 || c->island_h < 1) {
        chip_bad(what, "mesh.voltage_island_tiles",
                 "island sizes must be positive, got %d x %d", c->island_w,
                 c->island_h);
        return RCK_ERR_CONFIG;
    }

    if (c->line_bytes == 0 || (c->line_bytes & (c->line_bytes - 1)) != 0) {
        chip_bad(what, "cache_line_bytes",
                 "must be a positive power of two, got %u", c->line_bytes);
        return RCK_ERR_CONFIG;
    }
    for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
        if (sizes[k].v == 0 || sizes[k].v > INT_MAX ||
            sizes[k].v % c->line_bytes != 0) {
            chip_bad(what, sizes[k].key,
                     "must be a positive multiple of cache_line_bytes (%u), "
                     "got %u", c->line_bytes, sizes[k].v);
            return RCK_ERR_CONFIG;
        }
    }

    if (chip_check_mcs(c, what) != RCK_OK)
        return RCK_ERR_CONFIG;

    if (chip_check_dvfs(c, what) != RCK_OK)
        return RCK_ERR_CONFIG;

    /* unused slots are zero, so equal chips compare equal byte for byte */
    k = strlen(c->name);
    memset(c->name + k, 0, sizeof(c->name) - k);
    for (i = c->nmc; i < RCK_CHIP_MAX_MC; i++)
        c->mc[i].x = c->mc[i].y = 0;
    for (i = c->ndvfs; i < RCK_CHIP_MAX_DVFS; i++) {
        c->dvfs_fdiv[i] = 0;
        c->dvfs_mhz[i] = c->dvfs_volts[i] = 0;
    }

    c->ncores = (int)ncores;
    c->ntiles = c->mesh_x * c->mesh_y;
    c->nislands = ((c->mesh_x + c->island_w - 1) / c->island_w) *
                  ((c->mesh_y + c->island_h - 1) / c->island_h);
    c->max_hops = c->mesh_x - 1 + c->mesh_y - 1;

    if (chip_check_hops(c->mpb_line_write_by_hops, c->max_hops, what,
                        "mpb_line_write_by_hops") != RCK_OK ||
        chip_check_hops(c->mpb_dword_read_by_hops, c->max_hops, what,
                        "mpb_dword_read_by_hops") != RCK_OK)
        return RCK_ERR_CONFIG;

    /* the divider whose frequency is core_mhz, else the closest one */
    best = INFINITY;
    c->default_fdiv = c->dvfs_fdiv[0];
    for (i = 0; i < c->ndvfs; i++) {
        double diff = fabs(c->dvfs_mhz[i] - round(c->core_mhz));
        if (diff < best) {
            best = diff;
            c->default_fdiv = c->dvfs_fdiv[i];
        }
    }
    return RCK_OK;
}

rck_status_t rck_chip_validate(rck_chip_t *chip)
{
    return chip_check(chip, "chip configuration");
}

static void chip_init_empty(rck_chip_t *c)
{
    int i;

    memset(c, 0, sizeof(*c));
    c->nparams = rck__chip_nparams();
    /* a schema's own defaults; the built-in chip gives the others */
    for (size_t k = 0; k < CHIP_NCOSTS; k++)
        c->params[k] = chip_costs(k).has_default ? chip_costs(k).dflt : 0;
    for (i = 0; i <= RCK_CHIP_MAX_HOPS; i++) {
        c->mpb_line_write_by_hops[i] = CHIP_UNSET;
        c->mpb_dword_read_by_hops[i] = CHIP_UNSET;
    }
}

/* Parse @p text and apply it on top of @p c. */
static rck_status_t chip_apply_text(const char *text, const char *what,
                                    rck_chip_t *c)
{
    rck_json_doc_t *doc;
    rck_status_t status;
    char err[256];

    status = rck_json_parse(text, &doc, err, sizeof(err));
    if (status == RCK_ERR_NOMEM) {
        rck_error("%s: out of memory while parsing", what);
        return status;
    }
    if (status != RCK_OK) {
        rck_error("%s: %s", what, err);
        return RCK_ERR_CONFIG;
    }
    status = chip_apply(rck_json_root(doc), what, c);
    rck_json_free(doc);
    return status;
}

rck_status_t rck_chip_load_default(rck_chip_t *chip)
{
    rck_chip_t c;
    rck_status_t status;

    chip_init_empty(&c);
    status = chip_apply_text(rck_chip_default_json, CHIP_DEFAULT_NAME, &c);
    if (status == RCK_OK)
        status = chip_check(&c, CHIP_DEFAULT_NAME);
    if (status != RCK_OK)
        return status;
    memcpy(chip, &c, sizeof(c));
    return RCK_OK;
}

rck_status_t rck_chip_load_string(const char *text, const char *what,
                                  rck_chip_t *chip)
{
    rck_chip_t c;
    rck_status_t status;

    if (what == NULL)
        what = "chip configuration";
    if (text == NULL) {
        rck_error("%s: no text", what);
        return RCK_ERR_INVALID;
    }
    status = rck_chip_load_default(&c);
    if (status != RCK_OK)
        return status;
    status = rck__chip_keys_check_text(text, what);
    if (status != RCK_OK)
        return status;
    status = chip_apply_text(text, what, &c);
    if (status == RCK_OK)
        status = chip_check(&c, what);
    if (status != RCK_OK)
        return status;
    memcpy(chip, &c, sizeof(c));
    return RCK_OK;
}

rck_status_t rck_chip_load_file(const char *path, rck_chip_t *chip)
{
    rck_status_t status;
    FILE *fp;
    char *text;
    long size;
    size_t got;

    fp = fopen(path, "rb");
    if (fp == NULL) {
        rck_error("cannot open chip file '%s': %s", path, strerror(errno));
        return RCK_ERR_IO;
    }
    if (fseek(fp, 0, SEEK_END) != 0 || (size = ftell(fp)) < 0 ||
        fseek(fp, 0, SEEK_SET) != 0) {
        rck_error("cannot read chip file '%s': %s", path, strerror(errno));
        status = RCK_ERR_IO;
        goto err_close;
    }
    if (size > CHIP_FILE_MAX) {
        rck_error("%s: chip file is larger than %ld bytes", path,
                  CHIP_FILE_MAX);
        status = RCK_ERR_CONFIG;
        goto err_close;
    }
    text = malloc((size_t)size + 1);
    if (text == NULL) {
        rck_error("%s: out of memory reading the chip file", path);
        status = RCK_ERR_NOMEM;
        goto err_close;
    }
    got = fread(text, 1, (size_t)size, fp);
    if (ferror(fp) || got != (size_t)size) {
        rck_error("cannot read chip file '%s'", path);
        status = RCK_ERR_IO;
        goto err_free;
    }
    text[got] = '\0';
    if (strlen(text) != got) {
        rck_error("%s: chip file contains a NUL byte", path);
        status = RCK_ERR_CONFIG;
        goto err_free;
    }
    status = rck_chip_load_string(text, path, chip);

err_free:
    free(text);
err_close:
    fclose(fp);
    return status;
}

int rck_chip_island(const rck_chip_t *chip, int core)
{
    int t = rck_chip_tile(chip, core);
    int x = t % chip->mesh_x, y = t / chip->mesh_x;
    int per_row = (chip->mesh_x + chip->island_w - 1) / chip->island_w;

    return (y / chip->island_h) * per_row + x / chip->island_w;
}

double rck_chip_fdiv_mhz(const rck_chip_t *chip, int fdiv)
{
    int i;

    for (i = 0; i < chip->ndvfs && i < RCK_CHIP_MAX_DVFS; i++) {
        if (chip->dvfs_fdiv[i] == fdiv)
            return chip->dvfs_mhz[i];
    }
    return 0;
}

double rck_chip_fdiv_volts(const rck_chip_t *chip, int fdiv)
{
    int i;

    for (i = 0; i < chip->ndvfs && i < RCK_CHIP_MAX_DVFS; i++) {
        if (chip->dvfs_fdiv[i] == fdiv)
            return chip->dvfs_volts[i];
    }
    return 0;
}

int rck_chip_fdiv_need_mv(const rck_chip_t *chip, int fdiv)
{
    double v = rck_chip_fdiv_volts(chip, fdiv);

    return v > 0 ? (int)ceil(v * 1000.0 - 1e-6) : -1;
}

int rck_chip_start_mv(const rck_chip_t *chip)
{
    int need = rck_chip_fdiv_need_mv(chip, chip->default_fdiv);
    int mv = (int)lround(chip->volts_start * 1000.0);

    /* never below what the starting divider needs */
    return need > mv ? need : mv;
}

int rck_chip_volt_step(const rck_chip_t *chip, int mv)
{
    double step = chip->volt_step_mv > 0 ? chip->volt_step_mv : 1.0;
    double q;

    if (mv < (int)lround(chip->volts_min * 1000.0) ||
        mv > (int)lround(chip->volts_max * 1000.0))
        return -1;
    q = ceil((double)mv / step - 1e-9) * step;
    return (int)ceil(q - 1e-9);
}

static void chip_print_table(rck_jsonw_t *w, const char *key,
                             const double *t, int max_hops)
{
    rck_jsonw_array(w, key);
    for (int i = 0; i <= max_hops && t[i] >= 0; i++)
        rck_jsonw_real(w, NULL, t[i]);
    rck_jsonw_end_array(w);
}

/* The regulator's keys of the "dvfs" object (@p brk: a new line first). */
static void chip_print_volts(rck_jsonw_t *w, const rck_chip_t *c)
{
    const struct {
        int brk;
        const char *key;
        double v;
    } k[] = {
        {1, "volts_min", c->volts_min},
        {0, "volts_max", c->volts_max},
        {0, "volt_step_mv", c->volt_step_mv},
        {1, "volt_change_cycles", c->volt_change_cycles},
        {0, "mesh_volts", c->mesh_volts},
        {0, "volts_start", c->volts_start},
    };

    for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
        if (k[i].brk)
            rck_jsonw_break(w, 11);
        rck_jsonw_real(w, k[i].key, k[i].v);
    }
}

/* [x, y] */
static void chip_print_pair(rck_jsonw_t *w, const char *key, int x, int y)
{
    rck_jsonw_array(w, key);
    rck_jsonw_int(w, NULL, x);
    rck_jsonw_int(w, NULL, y);
    rck_jsonw_end_array(w);
}

void rck_chip_print(FILE *fp, const rck_chip_t *c)
{
    int i, max_hops, ndvfs;
    rck_jsonw_t jw, *w = &jw;

    max_hops = c->max_hops < 0                   ? 0
               : c->max_hops > RCK_CHIP_MAX_HOPS ? RCK_CHIP_MAX_HOPS
                                                 : c->max_hops;
    ndvfs = c->ndvfs < 0                   ? 0
            : c->ndvfs > RCK_CHIP_MAX_DVFS ? RCK_CHIP_MAX_DVFS
                                           : c->ndvfs;

    rck_jsonw_init(w, fp, RCK_JSONW_NEWLINE);
    rck_jsonw_object(w, NULL);
    rck_jsonw_indent_items(w, 2);
    rck_jsonw_string(w, "name",
                     memchr(c->name, '\0', sizeof(c->name)) != NULL ? c->name
                                                                    : "");
    rck_jsonw_object(w, "frequencies_mhz");
    rck_jsonw_real(w, "core", c->core_mhz);
    rck_jsonw_real(w, "mesh", c->mesh_mhz);
    rck_jsonw_real(w, "memory", c->mem_mhz);
    rck_jsonw_end_object(w);
    rck_jsonw_object(w, "mesh");
    rck_jsonw_int(w, "x", c->mesh_x);
    rck_jsonw_int(w, "y", c->mesh_y);
    rck_jsonw_int(w, "cores_per_tile", c->cores_per_tile);
    rck_jsonw_string(w, "routing", "xy");
    rck_jsonw_break(w, 11);
    rck_jsonw_array(w, "memory_controllers");
    for (i = 0; i < c->nmc && i < RCK_CHIP_MAX_MC; i++) {
        if (i > 0 && i % 2 == 0)
            rck_jsonw_break(w, 34);
        rck_jsonw_object(w, NULL);
        rck_jsonw_int(w, "id", i);
        chip_print_pair(w, "tile", c->mc[i].x, c->mc[i].y);
        rck_jsonw_end_object(w);
    }
    rck_jsonw_end_array(w);
    rck_jsonw_break(w, 11);
    chip_print_pair(w, "voltage_island_tiles", c->island_w, c->island_h);
    rck_jsonw_end_object(w);
    rck_jsonw_uint(w, "mpb_bytes_per_core", c->mpb_bytes);
    rck_jsonw_uint(w, "cache_line_bytes", c->line_bytes);
    rck_jsonw_uint(w, "l1d_bytes", c->l1d_bytes);
    rck_jsonw_uint(w, "l2_bytes", c->l2_bytes);
    rck_jsonw_int(w, "atomic_counters", c->atomic_counters);
    chip_print_table(w, "mpb_line_write_by_hops", c->mpb_line_write_by_hops,
                     max_hops);
    chip_print_table(w, "mpb_dword_read_by_hops", c->mpb_dword_read_by_hops,
                     max_hops);
    rck__chip_print_params(w, c);
    rck_jsonw_object(w, "dvfs");
    rck_jsonw_array(w, "fdiv");
    for (i = 0; i < ndvfs; i++)
        rck_jsonw_int(w, NULL, c->dvfs_fdiv[i]);
    rck_jsonw_end_array(w);
    rck_jsonw_break(w, 11);
    rck_jsonw_array(w, "core_mhz");
    for (i = 0; i < ndvfs; i++)
        rck_jsonw_real(w, NULL, c->dvfs_mhz[i]);
    rck_jsonw_end_array(w);
    rck_jsonw_break(w, 11);
    rck_jsonw_array(w, "volts");
    for (i = 0; i < ndvfs; i++)
        rck_jsonw_real(w, NULL, c->dvfs_volts[i]);
    rck_jsonw_end_array(w);
    chip_print_volts(w, c);
    rck_jsonw_end_object(w);
    /* informational: the loader ignores this object */
    rck_jsonw_object(w, "derived");
    rck_jsonw_int(w, "cores", c->ncores);
    rck_jsonw_int(w, "tiles", c->ntiles);
    rck_jsonw_int(w, "islands", c->nislands);
    rck_jsonw_int(w, "max_hops", c->max_hops);
    rck_jsonw_int(w, "default_fdiv", c->default_fdiv);
    rck_jsonw_end_object(w);
    rck_jsonw_break(w, 0);
    rck_jsonw_end_object(w);
    if (rck_jsonw_finish(w) != RCK_OK)
        rck_error("chip: the dump is incomplete: %s", rck_jsonw_error(w));
}
