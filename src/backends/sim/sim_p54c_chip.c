/*
 * The chip file's p54c section (docs/P54C.md, "Settings"): the cache
 * geometry and CPI table the P54C model takes from RCK_CHIP, and the
 * strict check of its keys (the chip loader leaves this section to the
 * model).
 *
 * Owns: sim_p54c_chip_section. May call: util (config, json, log).
 */
#include "sim_internal.h"
#include "p54c_cpi.h"

#include "rck/config.h"
#include "rck/json.h"
#include "rck/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The chip file's p54c section has only the keys read below (the chip
 * loader leaves this section to us). @return 0 or -1 (logged). */
static int p54c_section_keys(const rck_json_t *sec, const char *path)
{
    static const char *const keys[] = {"l1i_bytes", "l1_ways", "l2_ways",
                                       "cpi"};
    const rck_json_t *cpi = rck_json_get(sec, "cpi");

    for (size_t i = 0; i < rck_json_len(sec); i++) {
        const char *k = rck_json_key_at(sec, i);
        int ok = 0;
        for (size_t j = 0; k != NULL && j < sizeof(keys) / sizeof(keys[0]); j++)
            ok |= !strcmp(k, keys[j]);
        if (!ok) {
            rck_error("chip file %s: unknown key 'p54c.%s' (p54c has "
                      "l1i_bytes, l1_ways, l2_ways, cpi)",
                      path, k != NULL ? k : "?");
            return -1;
        }
    }
    for (size_t i = 0; cpi != NULL && i < rck_json_len(cpi); i++) {
        const char *k = rck_json_key_at(cpi, i);
        int ok = 0;
        for (int c = 0; k != NULL && c < P54C_NCLASS; c++)
            ok |= !strcmp(k, p54c_cpi_default[c].key);
        if (!ok) {
            rck_error("chip file %s: unknown key 'p54c.cpi.%s' (the classes "
                      "are in docs/P54C.md)",
                      path, k != NULL ? k : "?");
            return -1;
        }
    }
    return 0;
}

/* The chip file's optional "p54c" section: {"l1i_bytes": N, "l1_ways": N,
 * "l2_ways": N, "cpi": {"int": x, ...}}. Cache sizes otherwise from the
 * chip (l1d_bytes, l2_bytes). */
rck_status_t sim_p54c_chip_section(sim_p54c_job_t *p)
{
    const char *path = rck_config_get("CHIP");
    rck_json_doc_t *doc = NULL;
    const rck_json_t *sec, *cpi;
    char *text = NULL;
    long len;
    FILE *f;
    rck_status_t st = RCK_OK;

    if (*path == '\0')
        return RCK_OK;
    f = fopen(path, "rb");
    if (f == NULL)
        return RCK_OK; /* the chip loader reported it already */
    if (fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0 ||
        fseek(f, 0, SEEK_SET) != 0 || (text = malloc((size_t)len + 1)) == NULL ||
        fread(text, 1, (size_t)len, f) != (size_t)len) {
        fclose(f);
        free(text);
        rck_error("chip file %s: cannot read it", path);
        return RCK_ERR_CONFIG;
    }
    fclose(f);
    text[len] = '\0';
    if (rck_json_parse(text, &doc, NULL, 0) != RCK_OK) {
        free(text);
        return RCK_OK; /* the chip loader reported it already */
    }
    sec = rck_json_get(rck_json_root(doc), "p54c");
    if (sec != NULL && p54c_section_keys(sec, path) != 0) {
        st = RCK_ERR_CONFIG;
        goto out;
    }
    if (sec != NULL) {
        static const char *ints[] = {"l1i_bytes", "l1_ways", "l2_ways"};
        uint32_t *dst[] = {&p->l1i_bytes, &p->l1_ways, &p->l2_ways};
        for (int i = 0; i < 3; i++) {
            const rck_json_t *v = rck_json_get(sec, ints[i]);
            long x;
            if (v == NULL)
                continue;
            if (rck_json_int(v, &x) != 0 || x < 1 || x > (1L << 24)) {
                rck_error("chip file %s: p54c.%s must be a positive integer",
                          path, ints[i]);
                st = RCK_ERR_CONFIG;
                goto out;
            }
            *dst[i] = (uint32_t)x;
        }
        cpi = rck_json_get(sec, "cpi");
        for (int c = 0; cpi != NULL && c < P54C_NCLASS; c++) {
            const rck_json_t *v = rck_json_get(cpi, p54c_cpi_default[c].key);
            double x;
            if (v == NULL)
                continue;
            if (rck_json_number(v, &x) != 0 || !(x >= 0) || x > 1e6) {
                rck_error("chip file %s: p54c.cpi.%s must be a number of "
                          "cycles >= 0",
                          path, p54c_cpi_default[c].key);
                st = RCK_ERR_CONFIG;
                goto out;
            }
            p->cpi[c] = x;
        }
    }
out:
    rck_json_free(doc);
    free(text);
    return st;
}
