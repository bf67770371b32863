/*
 * The chip file's keys, checked before anything is applied (issue 26:
 * strict configuration): a key is known if the built-in chip has it at the
 * same place, or a model registered it (rck_chip_register_params: the
 * sim's parameter schema, p54c section included), or it is the section
 * the loader ignores ("derived"). An unknown key stops the load with the
 * nearest known key of its object suggested. Arrays are not looked into.
 *
 * Owns: rck__chip_keys_check. May call: util (json, log).
 */
#include "chip_internal.h"

#include "rck/json.h"
#include "rck/log.h"

#include <stdio.h>
#include <string.h>

/* Sections the loader ignores ("derived": what rck config --dump prints as
 * computed, so that its output loads again). */
static const char *const chip_foreign[] = {"derived", NULL};

/* Levenshtein distance of @p a and @p b (short keys). */
static size_t key_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b), row[96];

    if (la >= sizeof(row) / sizeof(row[0]) || lb >= sizeof(row) / sizeof(row[0]))
        return (size_t)-1;
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

/* Is @p key a registered parameter (or a group of them) inside the object
 * at @p path ("" for the top)? On the way, offer the nearest to *best. */
static int key_registered(const char *path, const char *key, const char **best,
                          size_t *bestd)
{
    int n = rck__chip_nparams();
    size_t pl = strlen(path);

    for (int k = 0; k < n; k++) {
        const rck_chip_param_t *e = rck__chip_param(k);
        char group[160];
        const char *rest, *dot;
        size_t d;

        snprintf(group, sizeof(group), "%s", e->group);
        /* the parameter's own object, or an object on its group's path */
        if (!strcmp(group, path)) {
            rest = e->key;
        } else if ((pl == 0 || (!strncmp(group, path, pl) &&
                                group[pl] == '.')) &&
                   group[0] != '\0') {
            rest = group + (pl == 0 ? 0 : pl + 1);
        } else {
            continue;
        }
        dot = strchr(rest, '.');
        char part[96];
        snprintf(part, sizeof(part), "%.*s",
                 (int)(dot != NULL ? (size_t)(dot - rest) : strlen(rest)),
                 rest);
        if (!strcmp(part, key))
            return 1;
        d = key_distance(part, key);
        if (d < *bestd) { /* a parameter's key, or a group's name */
            static char group_best[96];

            *bestd = d;
            snprintf(group_best, sizeof(group_best), "%s", part);
            *best = e->key == rest ? e->key : group_best;
        }
    }
    return 0;
}

static int check_object(const rck_json_t *obj, const rck_json_t *dflt,
                        const char *path, const char *what)
{
    size_t n = rck_json_len(obj);

    for (size_t i = 0; i < n; i++) {
        const char *key = rck_json_key_at(obj, i);
        const rck_json_t *v = rck_json_value_at(obj, i);
        const rck_json_t *dv = dflt != NULL ? rck_json_get(dflt, key) : NULL;
        const char *best = NULL;
        size_t bestd = (size_t)-1;
        char sub[256];
        int foreign = 0, known = dv != NULL;

        if (key == NULL)
            continue;
        snprintf(sub, sizeof(sub), "%s%s%s", path, path[0] ? "." : "", key);
        for (int f = 0; !known && path[0] == '\0' && chip_foreign[f]; f++)
            known = foreign = !strcmp(key, chip_foreign[f]);
        if (!known)
            known = key_registered(path, key, &best, &bestd);
        if (!known) {
            /* the nearest key of the built-in chip's object */
            for (size_t j = 0; dflt != NULL && j < rck_json_len(dflt); j++) {
                const char *k = rck_json_key_at(dflt, j);
                size_t d = k != NULL ? key_distance(k, key) : (size_t)-1;
                if (d < bestd) {
                    bestd = d;
                    best = k;
                }
            }
            if (best != NULL && bestd <= strlen(key) / 2 + 1)
                rck_error("%s: unknown key '%s' (did you mean '%s%s%s'?)",
                          what, sub, path, path[0] ? "." : "", best);
            else
                rck_error("%s: unknown key '%s' (rck config --dump lists "
                          "the chip's keys)",
                          what, sub);
            return -1;
        }
        /* inside: the built-in chip's object, or (a group of registered
         * parameters the built-in chip lacks) only registered keys */
        if (rck_json_type(v) == RCK_JSON_OBJECT && !foreign &&
            check_object(v, dv, sub, what) != 0)
            return -1;
    }
    return 0;
}

int rck__chip_keys_check(const rck_json_t *root, const rck_json_t *dflt,
                         const char *what)
{
    if (rck_json_type(root) != RCK_JSON_OBJECT)
        return 0; /* chip_apply names the problem */
    return check_object(root, dflt, "", what);
}

extern const char rck_chip_default_json[];

rck_status_t rck__chip_keys_check_text(const char *text, const char *what)
{
    rck_json_doc_t *doc = NULL, *dflt = NULL;
    rck_status_t status = RCK_OK;

    /* a text that does not parse is left to the loader, which names the
     * problem */
    if (rck_json_parse(text, &doc, NULL, 0) == RCK_OK &&
        rck_json_parse(rck_chip_default_json, &dflt, NULL, 0) == RCK_OK &&
        rck__chip_keys_check(rck_json_root(doc), rck_json_root(dflt), what) !=
            0)
        status = RCK_ERR_CONFIG;
    rck_json_free(doc);
    rck_json_free(dflt);
    return status;
}
