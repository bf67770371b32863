/*
 * A recursive-descent JSON reader (RFC 8259).
 *
 * Invariants:
 *   - The parser never reads past the terminating NUL of the input and
 *     never recurses deeper than JSON_MAX_DEPTH containers.
 *   - Every value is owned by its parent; containers own a contiguous array
 *     of child values (and, for objects, a parallel array of keys). Nothing
 *     points at a child while its parent's array is still growing.
 *   - Strings are NUL-terminated valid UTF-8. U+0000 (\u0000) is refused
 *     because the API hands out C strings and a key or value cut short at
 *     an embedded NUL would be silently wrong.
 *   - Duplicate keys in one object are refused: in a configuration file they
 *     are a mistake, and which one wins would otherwise be arbitrary.
 *   - No global state; the only locale-dependent call (strtod) is checked.
 */
#include "rck/json.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JSON_MAX_DEPTH 64

struct rck_json {
    rck_json_type_t type;
    union {
        int boolean;
        double number;
        char *string;
        struct {
            rck_json_t *items; /* values */
            char **keys;       /* objects only, NULL for arrays */
            size_t len, cap;
        } c;
    } u;
};

struct rck_json_doc {
    rck_json_t root;
};

typedef struct {
    const char *text;   /* start of the document, for line/column */
    const char *p;      /* next character */
    char *errbuf;
    size_t errlen;
    rck_status_t status; /* set by the first error */
} json_parser_t;

static void json_value_fini(rck_json_t *v)
{
    size_t i;

    switch (v->type) {
    case RCK_JSON_STRING:
        free(v->u.string);
        break;
    case RCK_JSON_ARRAY:
    case RCK_JSON_OBJECT:
        for (i = 0; i < v->u.c.len; i++) {
            json_value_fini(&v->u.c.items[i]);
            if (v->u.c.keys != NULL)
                free(v->u.c.keys[i]);
        }
        free(v->u.c.items);
        free(v->u.c.keys);
        break;
    default:
        break;
    }
    v->type = RCK_JSON_NULL;
}

/* Report an error at @p at; only the first error is kept. */
static rck_status_t json_fail(json_parser_t *ps, const char *at,
                              rck_status_t status, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static rck_status_t json_fail(json_parser_t *ps, const char *at,
                              rck_status_t status, const char *fmt, ...)
{
    unsigned long line = 1, col = 1;
    const char *q;
    char what[160];
    va_list ap;

    if (ps->status != RCK_OK)
        return ps->status;
    ps->status = status;
    if (ps->errbuf == NULL || ps->errlen == 0)
        return status;
    for (q = ps->text; q < at; q++) {
        if (*q == '\n') {
            line++;
            col = 1;
        } else if (((unsigned char)*q & 0xc0) != 0x80) {
            /* count characters, not UTF-8 continuation bytes */
            col++;
        }
    }
    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    snprintf(ps->errbuf, ps->errlen, "line %lu column %lu: %s", line, col,
             what);
    return status;
}

static rck_status_t json_nomem(json_parser_t *ps)
{
    return json_fail(ps, ps->p, RCK_ERR_NOMEM, "out of memory");
}

/* A printable description of the character at @p p for messages. */
static const char *json_describe(const char *p, char *buf, size_t len)
{
    unsigned char ch = (unsigned char)*p;

    if (ch == '\0')
        snprintf(buf, len, "end of input");
    else if (ch >= 0x20 && ch < 0x7f)
        snprintf(buf, len, "'%c'", ch);
    else
        snprintf(buf, len, "byte 0x%02x", ch);
    return buf;
}

static void json_skip_ws(json_parser_t *ps)
{
    while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' ||
           *ps->p == '\r')
        ps->p++;
}

static rck_status_t json_parse_value(json_parser_t *ps, rck_json_t *out,
                                     int depth);

static int json_hex4(const char *p, unsigned *out)
{
    unsigned v = 0;
    int i;

    for (i = 0; i < 4; i++) {
        char ch = p[i];
        v <<= 4;
        if (ch >= '0' && ch <= '9')
            v |= (unsigned)(ch - '0');
        else if (ch >= 'a' && ch <= 'f')
            v |= (unsigned)(ch - 'a' + 10);
        else if (ch >= 'A' && ch <= 'F')
            v |= (unsigned)(ch - 'A' + 10);
        else
            return -1; /* also stops at the NUL terminator */
    }
    *out = v;
    return 0;
}

static size_t json_utf8_encode(unsigned cp, char *out)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    } else if (cp < 0x800) {
        out[0] = (char)(0xc0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    } else if (cp < 0x10000) {
        out[0] = (char)(0xe0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        out[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    out[0] = (char)(0xf0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
    out[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

/*
 * Length of the well-formed UTF-8 sequence at @p p (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF), or 0 if it is malformed.
 */
static size_t json_utf8_valid(const unsigned char *p)
{
    unsigned char b0 = p[0];

    if (b0 < 0x80)
        return 1;
    if (b0 >= 0xc2 && b0 <= 0xdf)
        return (p[1] & 0xc0) == 0x80 ? 2 : 0;
    if (b0 >= 0xe0 && b0 <= 0xef) {
        unsigned char lo = b0 == 0xe0 ? 0xa0 : 0x80;
        unsigned char hi = b0 == 0xed ? 0x9f : 0xbf;
        if (p[1] < lo || p[1] > hi || (p[2] & 0xc0) != 0x80)
            return 0;
        return 3;
    }
    if (b0 >= 0xf0 && b0 <= 0xf4) {
        unsigned char lo = b0 == 0xf0 ? 0x90 : 0x80;
        unsigned char hi = b0 == 0xf4 ? 0x8f : 0xbf;
        if (p[1] < lo || p[1] > hi || (p[2] & 0xc0) != 0x80 ||
            (p[3] & 0xc0) != 0x80)
            return 0;
        return 4;
    }
    return 0;
}

/*
 * Parse a string starting at the opening quote. The decoded text is never
 * longer than the source text, so one allocation of the source length is
 * enough.
 */
static rck_status_t json_parse_string(json_parser_t *ps, char **out)
{
    const char *start = ps->p;
    const char *q = start + 1;
    char *buf, *w;
    char desc[32];

    /* find the closing quote to size the buffer */
    while (*q != '"' && *q != '\0') {
        if (*q == '\\' && q[1] != '\0')
            q++;
        q++;
    }
    buf = malloc((size_t)(q - start));
    if (buf == NULL)
        return json_nomem(ps);
    w = buf;
    q = start + 1;
    for (;;) {
        unsigned char ch = (unsigned char)*q;
        if (ch == '"') {
            q++;
            break;
        }
        if (ch == '\0') {
            json_fail(ps, start, RCK_ERR_INVALID, "unterminated string");
            goto err_free;
        }
        if (ch < 0x20) {
            json_fail(ps, q, RCK_ERR_INVALID,
                      "control character 0x%02x in a string (use an escape)",
                      ch);
            goto err_free;
        }
        if (ch == '\\') {
            unsigned cp, lo;
            switch (q[1]) {
            case '"': *w++ = '"'; q += 2; continue;
            case '\\': *w++ = '\\'; q += 2; continue;
            case '/': *w++ = '/'; q += 2; continue;
            case 'b': *w++ = '\b'; q += 2; continue;
            case 'f': *w++ = '\f'; q += 2; continue;
            case 'n': *w++ = '\n'; q += 2; continue;
            case 'r': *w++ = '\r'; q += 2; continue;
            case 't': *w++ = '\t'; q += 2; continue;
            case 'u':
                break;
            default:
                if ((unsigned char)q[1] > 0x20 && (unsigned char)q[1] < 0x7f)
                    json_fail(ps, q, RCK_ERR_INVALID, "invalid escape '\\%c'",
                              q[1]);
                else
                    json_fail(ps, q, RCK_ERR_INVALID,
                              "invalid escape: '\\' followed by %s",
                              json_describe(q + 1, desc, sizeof(desc)));
                goto err_free;
            }
            if (json_hex4(q + 2, &cp) != 0) {
                json_fail(ps, q, RCK_ERR_INVALID,
                          "\\u must be followed by four hex digits");
                goto err_free;
            }
            if (cp >= 0xdc00 && cp <= 0xdfff) {
                json_fail(ps, q, RCK_ERR_INVALID,
                          "unpaired low surrogate \\u%04x", cp);
                goto err_free;
            }
            if (cp >= 0xd800 && cp <= 0xdbff) {
                if (q[6] != '\\' || q[7] != 'u' ||
                    json_hex4(q + 8, &lo) != 0 || lo < 0xdc00 ||
                    lo > 0xdfff) {
                    json_fail(ps, q, RCK_ERR_INVALID,
                              "high surrogate \\u%04x not followed by a low "
                              "surrogate", cp);
                    goto err_free;
                }
                cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                q += 6;
            }
            if (cp == 0) {
                json_fail(ps, q, RCK_ERR_INVALID,
                          "\\u0000 is not allowed in strings");
                goto err_free;
            }
            /* at most 4 bytes out for at least 6 bytes in */
            w += json_utf8_encode(cp, w);
            q += 6;
            continue;
        }
        {
            size_t n = json_utf8_valid((const unsigned char *)q);
            if (n == 0) {
                json_fail(ps, q, RCK_ERR_INVALID,
                          "invalid UTF-8 byte 0x%02x in a string", ch);
                goto err_free;
            }
            memcpy(w, q, n);
            w += n;
            q += n;
        }
    }
    *w = '\0';
    ps->p = q;
    *out = buf;
    return RCK_OK;

err_free:
    free(buf);
    return ps->status;
}

static int json_is_digit(char ch)
{
    return ch >= '0' && ch <= '9';
}

/* strtod on a copy of [start, end), independent of LC_NUMERIC. */
static int json_strtod(const char *start, size_t len, double *out)
{
    char small[64];
    char *buf = small, *end;
    int ret = -1;
    double d;

    if (len >= sizeof(small)) {
        buf = malloc(len + 1);
        if (buf == NULL)
            return -2;
    }
    memcpy(buf, start, len);
    buf[len] = '\0';
    errno = 0;
    d = strtod(buf, &end);
    if (*end != '\0') {
        /* the locale's decimal point is not '.' */
        const char *dp = localeconv()->decimal_point;
        char *dot = strchr(buf, '.');
        if (dot != NULL && dp != NULL && strlen(dp) == 1) {
            *dot = dp[0];
            errno = 0;
            d = strtod(buf, &end);
        }
    }
    if (*end == '\0' && !(errno == ERANGE && isinf(d))) {
        *out = d;
        ret = 0;
    }
    if (buf != small)
        free(buf);
    return ret;
}

static rck_status_t json_parse_number(json_parser_t *ps, rck_json_t *out)
{
    const char *start = ps->p;
    const char *q = start;
    char desc[32];
    double d;
    int rc;

    if (*q == '-')
        q++;
    if (*q == '0') {
        q++;
        if (json_is_digit(*q))
            return json_fail(ps, start, RCK_ERR_INVALID,
                             "leading zeros are not allowed in numbers");
    } else if (json_is_digit(*q)) {
        while (json_is_digit(*q))
            q++;
    } else {
        return json_fail(ps, q, RCK_ERR_INVALID,
                         "expected a digit in a number, got %s",
                         json_describe(q, desc, sizeof(desc)));
    }
    if (*q == '.') {
        q++;
        if (!json_is_digit(*q))
            return json_fail(ps, q, RCK_ERR_INVALID,
                             "expected a digit after the decimal point, "
                             "got %s", json_describe(q, desc, sizeof(desc)));
        while (json_is_digit(*q))
            q++;
    }
    if (*q == 'e' || *q == 'E') {
        q++;
        if (*q == '+' || *q == '-')
            q++;
        if (!json_is_digit(*q))
            return json_fail(ps, q, RCK_ERR_INVALID,
                             "expected a digit in the exponent, got %s",
                             json_describe(q, desc, sizeof(desc)));
        while (json_is_digit(*q))
            q++;
    }
    rc = json_strtod(start, (size_t)(q - start), &d);
    if (rc == -2)
        return json_nomem(ps);
    if (rc != 0)
        return json_fail(ps, start, RCK_ERR_INVALID,
                         "number out of range");
    out->type = RCK_JSON_NUMBER;
    out->u.number = d;
    ps->p = q;
    return RCK_OK;
}

static rck_status_t json_parse_literal(json_parser_t *ps, rck_json_t *out)
{
    static const struct {
        const char *word;
        rck_json_type_t type;
        int boolean;
    } words[] = {{"true", RCK_JSON_BOOL, 1},
                 {"false", RCK_JSON_BOOL, 0},
                 {"null", RCK_JSON_NULL, 0}};
    char desc[32];
    size_t i;

    for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
        size_t n = strlen(words[i].word);
        /* strncmp stops at the input's NUL, so this never overreads */
        if (strncmp(ps->p, words[i].word, n) == 0) {
            const char *after = ps->p + n;
            if ((*after >= 'a' && *after <= 'z') ||
                (*after >= 'A' && *after <= 'Z') || json_is_digit(*after) ||
                *after == '_')
                return json_fail(ps, ps->p, RCK_ERR_INVALID,
                                 "invalid literal (expected %s)",
                                 words[i].word);
            out->type = words[i].type;
            out->u.boolean = words[i].boolean;
            ps->p = after;
            return RCK_OK;
        }
    }
    return json_fail(ps, ps->p, RCK_ERR_INVALID, "expected a value, got %s",
                     json_describe(ps->p, desc, sizeof(desc)));
}

/* Make room for one more child of container @p v. */
static rck_status_t json_grow(json_parser_t *ps, rck_json_t *v)
{
    size_t cap;
    rck_json_t *items;

    if (v->u.c.len < v->u.c.cap)
        return RCK_OK;
    cap = v->u.c.cap ? v->u.c.cap * 2 : 4;
    if (cap > SIZE_MAX / sizeof(rck_json_t))
        return json_nomem(ps);
    items = realloc(v->u.c.items, cap * sizeof(*items));
    if (items == NULL)
        return json_nomem(ps);
    v->u.c.items = items;
    if (v->type == RCK_JSON_OBJECT) {
        char **keys = realloc(v->u.c.keys, cap * sizeof(*keys));
        if (keys == NULL)
            return json_nomem(ps);
        v->u.c.keys = keys;
    }
    v->u.c.cap = cap;
    return RCK_OK;
}

static rck_status_t json_parse_container(json_parser_t *ps, rck_json_t *out,
                                         int depth)
{
    int is_object = *ps->p == '{';
    char close = is_object ? '}' : ']';
    char desc[32];
    rck_json_t v;

    if (depth >= JSON_MAX_DEPTH)
        return json_fail(ps, ps->p, RCK_ERR_INVALID,
                         "nesting deeper than %d arrays and objects",
                         JSON_MAX_DEPTH);
    memset(&v, 0, sizeof(v));
    v.type = is_object ? RCK_JSON_OBJECT : RCK_JSON_ARRAY;
    ps->p++;
    json_skip_ws(ps);
    if (*ps->p == close) {
        ps->p++;
        *out = v;
        return RCK_OK;
    }
    for (;;) {
        char *key = NULL;
        size_t i;

        if (json_grow(ps, &v) != RCK_OK)
            goto err_free;
        if (is_object) {
            const char *key_at = ps->p;
            if (*ps->p != '"') {
                json_fail(ps, ps->p, RCK_ERR_INVALID,
                          "expected a string key, got %s",
                          json_describe(ps->p, desc, sizeof(desc)));
                goto err_free;
            }
            if (json_parse_string(ps, &key) != RCK_OK)
                goto err_free;
            for (i = 0; i < v.u.c.len; i++) {
                if (strcmp(v.u.c.keys[i], key) == 0) {
                    json_fail(ps, key_at, RCK_ERR_INVALID,
                              "duplicate key \"%.64s\"", key);
                    free(key);
                    goto err_free;
                }
            }
            json_skip_ws(ps);
            if (*ps->p != ':') {
                json_fail(ps, ps->p, RCK_ERR_INVALID,
                          "expected ':' after a key, got %s",
                          json_describe(ps->p, desc, sizeof(desc)));
                free(key);
                goto err_free;
            }
            ps->p++;
            json_skip_ws(ps);
        }
        if (json_parse_value(ps, &v.u.c.items[v.u.c.len], depth + 1) !=
            RCK_OK) {
            free(key);
            goto err_free;
        }
        if (is_object)
            v.u.c.keys[v.u.c.len] = key;
        v.u.c.len++;
        json_skip_ws(ps);
        if (*ps->p == ',') {
            ps->p++;
            json_skip_ws(ps);
            if (*ps->p == close) {
                json_fail(ps, ps->p, RCK_ERR_INVALID,
                          "trailing ',' before '%c'", close);
                goto err_free;
            }
            continue;
        }
        if (*ps->p == close) {
            ps->p++;
            break;
        }
        if (*ps->p == '\0')
            json_fail(ps, ps->p, RCK_ERR_INVALID,
                      "unexpected end of input, expected ',' or '%c'", close);
        else
            json_fail(ps, ps->p, RCK_ERR_INVALID,
                      "expected ',' or '%c', got %s", close,
                      json_describe(ps->p, desc, sizeof(desc)));
        goto err_free;
    }
    *out = v;
    return RCK_OK;

err_free:
    json_value_fini(&v);
    return ps->status;
}

static rck_status_t json_parse_value(json_parser_t *ps, rck_json_t *out,
                                     int depth)
{
    char *s;

    memset(out, 0, sizeof(*out));
    switch (*ps->p) {
    case '{':
    case '[':
        return json_parse_container(ps, out, depth);
    case '"':
        if (json_parse_string(ps, &s) != RCK_OK)
            return ps->status;
        out->type = RCK_JSON_STRING;
        out->u.string = s;
        return RCK_OK;
    case '-':
    case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9':
        return json_parse_number(ps, out);
    default:
        return json_parse_literal(ps, out);
    }
}

rck_status_t rck_json_parse(const char *text, rck_json_doc_t **doc,
                            char *errbuf, size_t errlen)
{
    json_parser_t ps;
    rck_json_doc_t *d;
    char desc[32];

    if (errbuf != NULL && errlen > 0)
        errbuf[0] = '\0';
    if (text == NULL || doc == NULL) {
        if (errbuf != NULL && errlen > 0)
            snprintf(errbuf, errlen, "no text to parse");
        return RCK_ERR_INVALID;
    }
    memset(&ps, 0, sizeof(ps));
    ps.text = text;
    ps.p = text;
    ps.errbuf = errbuf;
    ps.errlen = errlen;
    ps.status = RCK_OK;

    d = calloc(1, sizeof(*d));
    if (d == NULL)
        return json_nomem(&ps);
    /* a UTF-8 byte order mark is tolerated at the very start */
    if (strncmp(ps.p, "\xef\xbb\xbf", 3) == 0)
        ps.p += 3;
    json_skip_ws(&ps);
    if (json_parse_value(&ps, &d->root, 0) != RCK_OK)
        goto err_free;
    json_skip_ws(&ps);
    if (*ps.p != '\0') {
        json_fail(&ps, ps.p, RCK_ERR_INVALID,
                  "unexpected %s after the end of the document",
                  json_describe(ps.p, desc, sizeof(desc)));
        goto err_fini;
    }
    *doc = d;
    return RCK_OK;

err_fini:
    json_value_fini(&d->root);
err_free:
    free(d);
    return ps.status;
}

void rck_json_free(rck_json_doc_t *doc)
{
    if (doc == NULL)
        return;
    json_value_fini(&doc->root);
    free(doc);
}

const rck_json_t *rck_json_root(const rck_json_doc_t *doc)
{
    return doc != NULL ? &doc->root : NULL;
}

rck_json_type_t rck_json_type(const rck_json_t *v)
{
    return v != NULL ? v->type : RCK_JSON_NULL;
}

const rck_json_t *rck_json_get(const rck_json_t *obj, const char *key)
{
    size_t i;

    if (obj == NULL || obj->type != RCK_JSON_OBJECT || key == NULL)
        return NULL;
    for (i = 0; i < obj->u.c.len; i++) {
        if (strcmp(obj->u.c.keys[i], key) == 0)
            return &obj->u.c.items[i];
    }
    return NULL;
}

size_t rck_json_len(const rck_json_t *v)
{
    if (v == NULL || (v->type != RCK_JSON_ARRAY && v->type != RCK_JSON_OBJECT))
        return 0;
    return v->u.c.len;
}

const rck_json_t *rck_json_at(const rck_json_t *arr, size_t i)
{
    if (arr == NULL || arr->type != RCK_JSON_ARRAY || i >= arr->u.c.len)
        return NULL;
    return &arr->u.c.items[i];
}

const char *rck_json_key_at(const rck_json_t *obj, size_t i)
{
    if (obj == NULL || obj->type != RCK_JSON_OBJECT || i >= obj->u.c.len)
        return NULL;
    return obj->u.c.keys[i];
}

const rck_json_t *rck_json_value_at(const rck_json_t *obj, size_t i)
{
    if (obj == NULL || obj->type != RCK_JSON_OBJECT || i >= obj->u.c.len)
        return NULL;
    return &obj->u.c.items[i];
}

int rck_json_number(const rck_json_t *v, double *out)
{
    if (v == NULL || v->type != RCK_JSON_NUMBER)
        return -1;
    *out = v->u.number;
    return 0;
}

int rck_json_int(const rck_json_t *v, long *out)
{
    double d;

    if (v == NULL || v->type != RCK_JSON_NUMBER)
        return -1;
    d = v->u.number;
    /* -(double)LONG_MIN is 2^63 (or 2^31), exactly representable */
    if (d != floor(d) || d < (double)LONG_MIN || d >= -(double)LONG_MIN)
        return -1;
    *out = (long)d;
    return 0;
}

int rck_json_bool(const rck_json_t *v, int *out)
{
    if (v == NULL || v->type != RCK_JSON_BOOL)
        return -1;
    *out = v->u.boolean;
    return 0;
}

const char *rck_json_string(const rck_json_t *v)
{
    if (v == NULL || v->type != RCK_JSON_STRING)
        return NULL;
    return v->u.string;
}
