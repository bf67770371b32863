/*
 * The JSON reader (RFC 8259, parsed by jansson; see json.c for the rules:
 * duplicate keys and \u0000 refused, every number a double). The whole
 * document is parsed into a tree owned by one rck_json_doc_t; values are
 * valid until rck_json_free. jansson stays out of this header.
 *
 * And the one JSON writer of rockcreek's outputs (reports, trace, power,
 * communication matrix; json_write.c): a streaming writer that keeps key
 * order, spells every number the way its field promises, escapes strings
 * as rck_json_write_string does, and refuses a document that is not well
 * formed (a member without a key, a key in an array, a bracket closed
 * that is not open, a second root, a number that is not finite).
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

/* ---- The writer (json_write.c) ----
 *
 * Streams: nothing is built in memory and nothing is allocated, so it
 * writes a trace of millions of events, and it may run inside a simulated
 * program (the sim's trace parts) without changing its heap. Layout:
 * items of a container are separated by ", " and members by ": "
 * (RCK_JSONW_COMPACT: "," and ":"); a line break is asked for explicitly
 * (rck_jsonw_break, rck_jsonw_indent_items), so each output keeps the
 * layout it has always had. Every call returns the writer's status, which
 * is sticky: after the first error nothing more is written, and
 * rck_jsonw_finish returns it. @p key names the member in an object and
 * must be NULL in an array and at the root.
 */

#define RCK_JSONW_COMPACT 1u /* "," and ":" without a space */
#define RCK_JSONW_NEWLINE 2u /* rck_jsonw_finish ends the text with '\n' */
#define RCK_JSONW_MAX_DEPTH 32

/** A sink of output bytes: 0 when all @p len bytes were taken, else -1. */
typedef int (*rck_jsonw_sink_t)(void *ctx, const char *buf, size_t len);

typedef struct rck_jsonw {
    FILE *fp;               /* output stream, or NULL with a sink */
    rck_jsonw_sink_t sink;
    void *ctx;
    unsigned flags;
    int depth;              /* containers open */
    int brk;                /* indent of the pending line break, or -1 */
    int splice;             /* items spliced in: the next has its comma */
    int done;               /* the root value is complete */
    rck_status_t err;       /* sticky */
    size_t olen;            /* bytes waiting in out */
    char out[512];          /* written out when full and at the end */
    char what[128];         /* the first error, in words */
    struct {
        char kind;          /* '{' or '[' */
        char items;         /* an item has been written */
        short indent;       /* every item on a new line with this indent */
    } lv[RCK_JSONW_MAX_DEPTH];
} rck_jsonw_t;

/** Start a document written to @p fp (flags: RCK_JSONW_*, or 0). */
void rck_jsonw_init(rck_jsonw_t *w, FILE *fp, unsigned flags);
/** Start a document written through @p sink. */
void rck_jsonw_init_sink(rck_jsonw_t *w, rck_jsonw_sink_t sink, void *ctx,
                         unsigned flags);

rck_status_t rck_jsonw_object(rck_jsonw_t *w, const char *key);
rck_status_t rck_jsonw_array(rck_jsonw_t *w, const char *key);
rck_status_t rck_jsonw_end_object(rck_jsonw_t *w);
rck_status_t rck_jsonw_end_array(rck_jsonw_t *w);

/** Integers, exact. */
rck_status_t rck_jsonw_uint(rck_jsonw_t *w, const char *key,
                            unsigned long long v);
rck_status_t rck_jsonw_int(rck_jsonw_t *w, const char *key, long long v);
/** A real with @p decimals digits after the point (printf's %.Nf). */
rck_status_t rck_jsonw_fixed(rck_jsonw_t *w, const char *key, double v,
                             int decimals);
/** A real with @p digits significant digits (printf's %.Ng). */
rck_status_t rck_jsonw_sig(rck_jsonw_t *w, const char *key, double v,
                           int digits);
/**
 * A real in the fewest characters that read back as @p v: a whole number
 * below 1e15 without a point, else the shortest of printf's %.15g, %.16g
 * and %.17g that reads back (the chip files' spelling).
 */
rck_status_t rck_jsonw_real(rck_jsonw_t *w, const char *key, double v);
/** rck_jsonw_real's text of @p v (finite) in @p buf; @return buf. */
const char *rck_json_format_real(double v, char *buf, size_t len);
/**
 * The exact decimal @p units / 10^@p scale (scale 0..9) in the fewest
 * characters: no trailing zeros, no point for a whole number (1500, 3 is
 * 1.5; 2000, 3 is 2).
 */
rck_status_t rck_jsonw_decimal(rck_jsonw_t *w, const char *key,
                               unsigned long long units, int scale);
rck_status_t rck_jsonw_bool(rck_jsonw_t *w, const char *key, int v);
rck_status_t rck_jsonw_null(rck_jsonw_t *w, const char *key);
/** A string, escaped as rck_json_write_string does. */
rck_status_t rck_jsonw_string(rck_jsonw_t *w, const char *key,
                              const char *s);

/**
 * The next item, or the closing bracket, starts a new line indented by
 * @p indent spaces (it replaces the space after the comma).
 */
void rck_jsonw_break(rck_jsonw_t *w, int indent);
/**
 * Every later item of the innermost open container starts a new line
 * indented by @p indent spaces (-1: none); its closing bracket does not.
 */
void rck_jsonw_indent_items(rck_jsonw_t *w, int indent);
/**
 * Splice @p len bytes of items written earlier by a writer of the same
 * layout into the innermost open array: zero or more complete items,
 * each followed by its comma and line break. The bytes are copied as they
 * are (not checked: they come from this writer, e.g. the sim's trace
 * parts); the next item is written without a comma of its own.
 */
rck_status_t rck_jsonw_splice(rck_jsonw_t *w, const char *text, size_t len);

/**
 * End the document: write out what the writer holds (it collects up to
 * 512 bytes before it writes) and fail unless one complete root value was
 * written, every container closed and every byte taken by the output.
 */
rck_status_t rck_jsonw_finish(rck_jsonw_t *w);
/** The first error in words ("" when none). */
const char *rck_jsonw_error(const rck_jsonw_t *w);

#endif
