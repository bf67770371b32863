/*
 * Run-time configuration: one table of {name, default, help, type} rows.
 * Every setting is read from an RCK_<NAME> environment variable; the
 * launcher can print the table (`rck config --list`) and the resolved
 * values (`rck config --dump`).
 */
#ifndef RCK_CONFIG_H
#define RCK_CONFIG_H

#include <stddef.h>
#include <stdio.h>

typedef enum {
    RCK_CONFIG_STRING,
    RCK_CONFIG_INT,
    RCK_CONFIG_SIZE, /* integer with optional k/m/g suffix */
    RCK_CONFIG_BOOL
} rck_config_type_t;

typedef struct {
    const char *name;   /* without the RCK_ prefix */
    const char *dflt;   /* default value as text */
    rck_config_type_t type;
    const char *help;
    /* The values allowed beyond the type's syntax (NULL: any; checked by
     * rck_config_check, listed by rck_config_print). RCK_CONFIG_INT:
     * a range "MIN..MAX", either end may be left out ("0.."). STRING:
     * alternatives separated by '|', each a word (matched ignoring case)
     * in which '#' stands for a non-negative integer and '#.#' for a
     * non-negative decimal number: "auto|off|#", "host|host:#.#".
     * SIZE: NULL, or "auto=SIZE": the setting also takes "auto", which
     * rck_config_get_size reads as SIZE (a component may resolve it
     * otherwise: rck_config_size_is_auto). */
    const char *values;
} rck_config_entry_t;

/** @return the general table (the job's, the HAL's, the log's, RCCE's
 * and the launcher's settings), terminated by an entry whose name is
 * NULL. */
const rck_config_entry_t *rck_config_table(void);

/**
 * Add a component's settings (a table it owns, terminated by an entry
 * whose name is NULL) to the ones rck_config_get knows and
 * rck_config_print lists; the component calls it when it is loaded
 * (a constructor). Registering a table twice is harmless.
 * @param [in] table  static storage.
 * @param [in] rank   where it is listed: smaller first, ties in order of
 *                    registration. Each component chooses its own (util
 *                    knows none of them): the HAL's 5, the backends' 10-25,
 *                    the libraries' their descriptor's (rck/lib.h: 26-45),
 *                    S-Net's runtime 40.
 */
void rck_config_register(const rck_config_entry_t *table, int rank);

/** Every registered setting in listing order: rck_config_next(NULL) is
 * the first, NULL follows the last. */
const rck_config_entry_t *rck_config_next(const rck_config_entry_t *e);

/** @return the registered setting named @p name (without RCK_), or NULL. */
const rck_config_entry_t *rck_config_find(const char *name);

/**
 * Is @p value a valid value of setting @p e: its type's syntax (INT: an
 * integer, SIZE: a size, BOOL: 1/0/yes/no/true/false/on/off) and its
 * values? The launcher checks every RCK_* variable with it before a run.
 * @param [in]  e      the setting.
 * @param [in]  value  the text.
 * @param [out] why    on failure, what a valid value is, e.g. "not an
 *                     integer from 0"; may be NULL.
 * @return 0 if valid, -1 if not.
 */
int rck_config_check(const rck_config_entry_t *e, const char *value,
                     char *why, size_t len);

/**
 * Resolved text of a setting: the environment variable RCK_<name> if set,
 * otherwise the table default.
 * @param [in] name  a name from the table (an unknown name logs an error
 *                   and returns "").
 */
const char *rck_config_get(const char *name);

/** @return the setting parsed as a long; a malformed value logs and
 *  returns the default. */
long rck_config_get_int(const char *name);

/** @return the setting parsed as a size (k, m, g suffixes allowed). */
size_t rck_config_get_size(const char *name);

/** @return the fixed meaning of "auto" of size setting @p name (the SIZE
 *  of its values "auto=SIZE"), or 0 if it takes no "auto". */
size_t rck_config_size_auto(const char *name);

/** @return 1 if size setting @p name is "auto" (its values "auto=SIZE"),
 *  else 0. */
int rck_config_size_is_auto(const char *name);

/** @return 1 for yes/true/on/1, 0 otherwise. */
int rck_config_get_bool(const char *name);

/**
 * Parse a size string such as "64m".
 * @param [in]  text  the string.
 * @param [out] out   the value, set only on success.
 * @return 0 on success, -1 on a malformed string.
 */
int rck_config_parse_size(const char *text, size_t *out);

/**
 * Print the table (@p resolved = 0) or the resolved values (1).
 * @param [in] fp        output stream.
 * @param [in] resolved  print current values rather than help.
 */
void rck_config_print(FILE *fp, int resolved);

#endif
