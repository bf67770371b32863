/*
 * The JSON reader (RFC 8259, parsed by jansson; see json.c for the rules:
 * duplicate keys and \u0000 refused, every number a double). The whole
 * document is parsed into a tree owned by one rck_json_doc_t; values are
 * valid until rck_json_free. jansson stays out of this header.
 */
#ifndef RCK_JSON_H
#define RCK_JSON_H

#include "rck/status.h"

#include <stddef.h>
#include <stdio.h>

typedef enum {
    RCK_JSON_NULL,
    RCK_JSON_BOOL,
    RCK_JSON_NUMBER,
    RCK_JSON_STRING,
    RCK_JSON_ARRAY,
    RCK_JSON_OBJECT
} rck_json_type_t;

typedef struct rck_json rck_json_t;
typedef struct rck_json_doc rck_json_doc_t;

/**
 * Parse @p text.
 * @param [in]  text    NUL-terminated JSON text.
 * @param [out] doc     parsed document, set on success.
 * @param [out] errbuf  on failure, "line L column C: what" (may be NULL).
 * @param [in]  errlen  size of @p errbuf.
 */
rck_status_t rck_json_parse(const char *text, rck_json_doc_t **doc,
                            char *errbuf, size_t errlen);

/** Free a document and every value in it. */
void rck_json_free(rck_json_doc_t *doc);

/** @return the root value. */
const rck_json_t *rck_json_root(const rck_json_doc_t *doc);

rck_json_type_t rck_json_type(const rck_json_t *v);

/** @return the member @p key of an object, or NULL (also for non-objects). */
const rck_json_t *rck_json_get(const rck_json_t *obj, const char *key);

/** @return the number of elements of an array or members of an object. */
size_t rck_json_len(const rck_json_t *v);

/** @return element @p i of an array, or NULL. */
const rck_json_t *rck_json_at(const rck_json_t *arr, size_t i);

/** @return key of member @p i of an object, or NULL. */
const char *rck_json_key_at(const rck_json_t *obj, size_t i);

/** @return value of member @p i of an object, or NULL. */
const rck_json_t *rck_json_value_at(const rck_json_t *obj, size_t i);

/**
 * Typed accessors: return 0 and set *out when @p v has the type, else -1.
 * rck_json_int also fails for non-integral numbers.
 */
int rck_json_number(const rck_json_t *v, double *out);
int rck_json_int(const rck_json_t *v, long *out);
int rck_json_bool(const rck_json_t *v, int *out);
/** @return the string (owned by the document), or NULL. */
const char *rck_json_string(const rck_json_t *v);

/**
 * Write @p s to @p fp as a JSON string: quotes, '"' and '\\' escaped,
 * control characters as \u00XX, every other byte as it is (the reports'
 * and chip dumps' format).
 */
void rck_json_write_string(FILE *fp, const char *s);

#endif
