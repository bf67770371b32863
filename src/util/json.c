/*
 * The JSON reader over jansson (Debian libjansson-dev): chip files and
 * anything else rockcreek reads as JSON go through this thin layer, so the
 * rest of the tree sees one small API (rck/json.h) and one error format,
 * "line L column C: what".
 *
 * Owns: parsing (jansson, strict RFC 8259 plus the rules below), the
 * position of an error and the typed accessors (the writer, and
 * rck_json_write_string, are json_write.c's). Calls: jansson, libc.
 *
 * Rules (jansson flags and this file):
 *   - Any value may be the root (JSON_DECODE_ANY).
 *   - Duplicate keys in one object are refused (JSON_REJECT_DUPLICATES):
 *     in a configuration file they are a mistake.
 *   - Every number is a double (JSON_DECODE_INT_AS_REAL), as before:
 *     integers beyond 2^63 parse, and rck_json_int checks integrality.
 *   - \u0000 is refused (jansson's default): the API hands out C strings.
 *   - A UTF-8 byte order mark at the very start is skipped here (jansson
 *     refuses it).
 *   - Nesting is limited by jansson (JSON_PARSER_MAX_DEPTH, 2048 levels
 *     with the innermost value: 2047 arrays or objects).
 *   - Error positions: jansson reports where its lexer stopped (the end of
 *     the offending token); this file moves back to the token's start,
 *     which jansson's message quotes ("near 'tru'") for tokens of up to 20
 *     bytes, and counts columns in characters from 1: "line 3 column 8"
 *     points at the first character of the bad token (of a longer token,
 *     at its end).
 */
#include "rck/json.h"

#include <jansson.h>

#include <math.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JSON_FLAGS                                                             \
    (JSON_DECODE_ANY | JSON_REJECT_DUPLICATES | JSON_DECODE_INT_AS_REAL)

struct rck_json_doc {
    json_t *root;
};

/* The API's values are jansson's, seen through an opaque type. */
static const json_t *jv(const rck_json_t *v)
{
    return (const json_t *)v;
}

static const rck_json_t *rv(const json_t *v)
{
    return (const rck_json_t *)v;
}

/*
 * Byte offset of the start of the token jansson's message names ("...
 * near 'TOKEN'"), given the offset @p end where its lexer stopped.
 */
static size_t json_token_start(const json_error_t *e, size_t end)
{
    const char *near = strstr(e->text, " near '");
    size_t len;

    if (near == NULL)
        return end;
    near += strlen(" near '");
    len = strlen(near);
    /* a message cut at jansson's text limit does not give the length */
    if (len == 0 || near[len - 1] != '\'' ||
        strlen(e->text) >= JSON_ERROR_TEXT_LENGTH - 2)
        return end;
    len--;
    return len <= end ? end - len : end;
}

/* "line L column C: what" for an error at byte @p at of @p text. */
static void json_format_error(const char *text, size_t at, const char *what,
                              char *errbuf, size_t errlen)
{
    unsigned long line = 1, col = 1;
    size_t i;

    for (i = 0; i < at && text[i] != '\0'; i++) {
        if (text[i] == '\n') {
            line++;
            col = 1;
        } else if (((unsigned char)text[i] & 0xc0) != 0x80) {
            /* count characters, not UTF-8 continuation bytes */
            col++;
        }
    }
    snprintf(errbuf, errlen, "line %lu column %lu: %s", line, col, what);
}

/* jansson's message without its " near '...'" tail, made plain. */
static void json_error_what(const json_error_t *e, char *buf, size_t len)
{
    const char *near = strstr(e->text, " near ");
    int n = near != NULL ? (int)(near - e->text) : (int)strlen(e->text);

    if (json_error_code(e) == json_error_null_character) {
        snprintf(buf, len, "\\u0000 is not allowed in strings");
        return;
    }
    if (near != NULL && strcmp(near, " near end of file") == 0) {
        snprintf(buf, len, "%.*s at the end of the input", n, e->text);
        return;
    }
    snprintf(buf, len, "%s", e->text);
}

rck_status_t rck_json_parse(const char *text, rck_json_doc_t **doc,
                            char *errbuf, size_t errlen)
{
    const char *start = text;
    rck_json_doc_t *d;
    json_error_t e;
    json_t *root;

    if (errbuf != NULL && errlen > 0)
        errbuf[0] = '\0';
    if (text == NULL || doc == NULL) {
        if (errbuf != NULL && errlen > 0)
            snprintf(errbuf, errlen, "no text to parse");
        return RCK_ERR_INVALID;
    }
    if (strncmp(start, "\xef\xbb\xbf", 3) == 0)
        start += 3;
    root = json_loads(start, JSON_FLAGS, &e);
    if (root == NULL) {
        if (json_error_code(&e) == json_error_out_of_memory) {
            if (errbuf != NULL && errlen > 0)
                snprintf(errbuf, errlen, "out of memory");
            return RCK_ERR_NOMEM;
        }
        if (errbuf != NULL && errlen > 0) {
            char what[JSON_ERROR_TEXT_LENGTH + 40];
            size_t end = e.position > 0 ? (size_t)e.position : 0;
            json_error_what(&e, what, sizeof(what));
            json_format_error(text,
                              (size_t)(start - text) +
                                  json_token_start(&e, end),
                              what, errbuf, errlen);
        }
        return RCK_ERR_INVALID;
    }
    d = malloc(sizeof(*d));
    if (d == NULL) {
        json_decref(root);
        if (errbuf != NULL && errlen > 0)
            snprintf(errbuf, errlen, "out of memory");
        return RCK_ERR_NOMEM;
    }
    d->root = root;
    *doc = d;
    return RCK_OK;
}

void rck_json_free(rck_json_doc_t *doc)
{
    if (doc == NULL)
        return;
    json_decref(doc->root);
    free(doc);
}

const rck_json_t *rck_json_root(const rck_json_doc_t *doc)
{
    return doc != NULL ? rv(doc->root) : NULL;
}

rck_json_type_t rck_json_type(const rck_json_t *v)
{
    if (v == NULL)
        return RCK_JSON_NULL;
    switch (json_typeof(jv(v))) {
    case JSON_OBJECT: return RCK_JSON_OBJECT;
    case JSON_ARRAY: return RCK_JSON_ARRAY;
    case JSON_STRING: return RCK_JSON_STRING;
    case JSON_INTEGER:
    case JSON_REAL: return RCK_JSON_NUMBER;
    case JSON_TRUE:
    case JSON_FALSE: return RCK_JSON_BOOL;
    case JSON_NULL: return RCK_JSON_NULL;
    }
    return RCK_JSON_NULL;
}

const rck_json_t *rck_json_get(const rck_json_t *obj, const char *key)
{
    if (obj == NULL || key == NULL || !json_is_object(jv(obj)))
        return NULL;
    return rv(json_object_get(jv(obj), key));
}

size_t rck_json_len(const rck_json_t *v)
{
    if (v == NULL)
        return 0;
    if (json_is_array(jv(v)))
        return json_array_size(jv(v));
    if (json_is_object(jv(v)))
        return json_object_size(jv(v));
    return 0;
}

const rck_json_t *rck_json_at(const rck_json_t *arr, size_t i)
{
    if (arr == NULL || !json_is_array(jv(arr)))
        return NULL;
    return rv(json_array_get(jv(arr), i));
}

/* Member @p i of an object in file order (jansson keeps insertion order). */
static void *json_member(const rck_json_t *obj, size_t i)
{
    void *it;

    if (obj == NULL || !json_is_object(jv(obj)))
        return NULL;
    /* jansson's iterators take a non-const object; nothing is changed */
    it = json_object_iter((json_t *)jv(obj));
    while (it != NULL && i-- > 0)
        it = json_object_iter_next((json_t *)jv(obj), it);
    return it;
}

const char *rck_json_key_at(const rck_json_t *obj, size_t i)
{
    void *it = json_member(obj, i);

    return it != NULL ? json_object_iter_key(it) : NULL;
}

const rck_json_t *rck_json_value_at(const rck_json_t *obj, size_t i)
{
    void *it = json_member(obj, i);

    return it != NULL ? rv(json_object_iter_value(it)) : NULL;
}

int rck_json_number(const rck_json_t *v, double *out)
{
    if (v == NULL || !json_is_number(jv(v)))
        return -1;
    *out = json_number_value(jv(v));
    return 0;
}

int rck_json_int(const rck_json_t *v, long *out)
{
    double d;

    if (v == NULL || !json_is_number(jv(v)))
        return -1;
    d = json_number_value(jv(v));
    /* -(double)LONG_MIN is 2^63 (or 2^31), exactly representable */
    if (d != floor(d) || d < (double)LONG_MIN || d >= -(double)LONG_MIN)
        return -1;
    *out = (long)d;
    return 0;
}

int rck_json_bool(const rck_json_t *v, int *out)
{
    if (v == NULL || !json_is_boolean(jv(v)))
        return -1;
    *out = json_is_true(jv(v));
    return 0;
}

const char *rck_json_string(const rck_json_t *v)
{
    if (v == NULL || !json_is_string(jv(v)))
        return NULL;
    return json_string_value(jv(v));
}
