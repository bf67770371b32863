/*
 * Between the chip loader's parts (chip.c: reading and applying;
 * chip_params.c: the models' parameter schema; chip_keys.c: the strict
 * check of a chip file's keys). Not installed.
 */
#ifndef RCK_HAL_CHIP_INTERNAL_H
#define RCK_HAL_CHIP_INTERNAL_H

#include "rck/chip.h"
#include "rck/json.h"

#include <stddef.h>
#include <stdio.h>

/** A *_by_hops entry that was not given (chip.c's top comment). */
#define CHIP_UNSET (-1.0)

/** The registered model parameters (rck_chip_register_params). */
int rck__chip_nparams(void);
const rck_chip_param_t *rck__chip_param(int k);

/* The schema (chip_params.c). */
/** "group.key" of registered parameter @p k, in @p buf. */
const char *rck__chip_param_path(size_t k, char *buf, size_t len);
/** Check @p d against its schema row @p e (finite, type, range).
 *  @return 0, or -1 after naming @p what, the key @p path, the range and
 *  the value. */
int rck__chip_param_ok(const char *what, const char *path,
                       const rck_chip_param_t *e, double d);
/** Read the HAL's own fields (its schema rows, chip_params.c) from the
 *  chip document @p root into @p c. @return 0, or -1 (logged). */
int rck__chip_apply_fields(const char *what, const rck_json_t *root,
                           rck_chip_t *c);
/** Check the HAL's own fields of @p c against their rows. @return 0, or
 *  -1 (logged). */
int rck__chip_check_fields(const char *what, const rck_chip_t *c);
/* The loader's readers (chip.c). */
/** The object at the dotted path @p group of @p root ("": root itself).
 *  @return 1, 0 when some part is absent (*out NULL), -1 (logged). */
int rck__chip_group(const char *what, const rck_json_t *root,
                    const char *group, const rck_json_t **out);
/** The member @p key of @p obj as an array of @p minlen .. @p maxlen
 *  elements. @return 1, 0 when absent (*out NULL), -1 (logged). */
int rck__chip_array(const char *what, const rck_json_t *obj, const char *key,
                    const char *path, size_t minlen, size_t maxlen,
                    const rck_json_t **out);
/** Any number (a schema row checks it). @return 0 when @p v is NULL, 1
 *  when read, -1 (logged) when not a number. */
int rck__chip_read_number(const char *what, const rck_json_t *v,
                          const char *path, double *out);
/** The registered parameters of @p c as chip-file JSON members (the dump's
 *  part between the latency tables and "dvfs"). */
void rck__chip_print_params(rck_jsonw_t *w, const rck_chip_t *c);
/** Log "<what>: key '<path>': <message>". */
void rck__chip_bad(const char *what, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/**
 * Check every key of the chip document @p root against the built-in
 * chip's document @p dflt and the registered parameters.
 * @return 0, or -1 after naming the unknown key (and the nearest known).
 */
int rck__chip_keys_check(const rck_json_t *root, const rck_json_t *dflt,
                         const char *what);

/** The same for the text of a chip file (parsed here). @return RCK_OK or
 *  RCK_ERR_CONFIG (logged). */
rck_status_t rck__chip_keys_check_text(const char *text, const char *what);

#endif
