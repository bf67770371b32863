/*
 * The JSON writer of rockcreek's outputs (rck/json.h): the sim's report,
 * trace and power figures, the communication matrix and the backends'
 * report all go through it.
 *
 * Owns: the punctuation (commas, colons, brackets, the line breaks an
 * output asks for), the spelling of numbers and the escaping of strings,
 * and the checks that the document is well formed. Calls: libc only.
 *
 * Why not jansson's encoder (json_dumpf), which the reader uses: the
 * outputs promise numbers jansson cannot spell (a real with a fixed
 * number of decimals, "533.000"; jansson writes the shortest %.17g and
 * "533.0"), escapes of their own (control characters as \u00XX; jansson
 * writes \n and \t and refuses a name that is not UTF-8), and a layout
 * jansson does not have (one line per record, records inline); and a
 * jansson tree allocates on the heap for every value, which a trace part
 * written inside a simulated program must not (docs/P54C.md,
 * "Determinism"). So the writer streams, allocates nothing, and every
 * output keeps its bytes.
 */
#include "rck/json.h"

#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

static void w_fail(rck_jsonw_t *w, rck_status_t st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void w_fail(rck_jsonw_t *w, rck_status_t st, const char *fmt, ...)
{
    va_list ap;

    if (w->err != RCK_OK)
        return;
    w->err = st;
    va_start(ap, fmt);
    vsnprintf(w->what, sizeof(w->what), fmt, ap);
    va_end(ap);
}

/* Hand @p len bytes to the output. */
static void w_emit(rck_jsonw_t *w, const char *buf, size_t len)
{
    int bad;

    if (len == 0)
        return;
    if (w->sink != NULL)
        bad = w->sink(w->ctx, buf, len) != 0;
    else
        bad = fwrite(buf, 1, len, w->fp) != len;
    if (bad)
        w_fail(w, RCK_ERR_IO, "the output did not take the text");
}

/* Write out what the writer holds. */
static void w_drain(rck_jsonw_t *w)
{
    size_t n = w->olen;

    w->olen = 0;
    if (w->err == RCK_OK)
        w_emit(w, w->out, n);
}

/* Text of the document: collected in w->out, so that an event of the
 * trace reaches its sink in one piece rather than ten. */
static void w_out(rck_jsonw_t *w, const char *buf, size_t len)
{
    if (w->err != RCK_OK)
        return;
    if (w->olen + len > sizeof(w->out)) {
        w_drain(w);
        if (len >= sizeof(w->out)) {
            w_emit(w, buf, len);
            return;
        }
    }
    memcpy(w->out + w->olen, buf, len);
    w->olen += len;
}

static void w_spaces(rck_jsonw_t *w, int n)
{
    static const char sp[] = "\n                                ";

    w_out(w, "\n", 1);
    while (n > 0) {
        int k = n < (int)sizeof(sp) - 2 ? n : (int)sizeof(sp) - 2;
        w_out(w, sp + 1, (size_t)k);
        n -= k;
    }
}

static void w_init(rck_jsonw_t *w, FILE *fp, rck_jsonw_sink_t sink,
                   void *ctx, unsigned flags)
{
    w->fp = fp;
    w->sink = sink;
    w->ctx = ctx;
    w->flags = flags;
    w->depth = 0;
    w->brk = -1;
    w->splice = 0;
    w->done = 0;
    w->err = RCK_OK;
    w->olen = 0;
    w->what[0] = '\0';
    if (fp == NULL && sink == NULL)
        w_fail(w, RCK_ERR_INVALID, "no output to write to");
}

void rck_jsonw_init(rck_jsonw_t *w, FILE *fp, unsigned flags)
{
    w_init(w, fp, NULL, NULL, flags);
}

void rck_jsonw_init_sink(rck_jsonw_t *w, rck_jsonw_sink_t sink, void *ctx,
                         unsigned flags)
{
    w_init(w, NULL, sink, ctx, flags);
}

/* The text of @p s escaped (quotes, '"' and '\\', control characters as
 * \u00XX, every other byte as it is): runs of plain bytes in one piece. */
static void w_quoted(rck_jsonw_t *w, const char *s)
{
    const char *run = s;

    w_out(w, "\"", 1);
    for (;; s++) {
        unsigned char ch = (unsigned char)*s;
        char esc[8];
        int n;

        if (ch >= 0x20 && ch != '"' && ch != '\\')
            continue;
        w_out(w, run, (size_t)(s - run));
        if (ch == '\0')
            break;
        if (ch == '"' || ch == '\\')
            n = snprintf(esc, sizeof(esc), "\\%c", ch);
        else
            n = snprintf(esc, sizeof(esc), "\\u%04x", ch);
        w_out(w, esc, (size_t)n);
        run = s + 1;
    }
    w_out(w, "\"", 1);
}

/* Punctuation before an item (and its key): refuses an item where the
 * document has no room for one, or a key where none belongs. */
static int w_item(rck_jsonw_t *w, const char *key, const char *what)
{
    int compact = (w->flags & RCK_JSONW_COMPACT) != 0;

    if (w->err != RCK_OK)
        return -1;
    if (w->done) {
        w_fail(w, RCK_ERR_STATE, "%s after the end of the document", what);
        return -1;
    }
    if (w->depth == 0) {
        if (key != NULL) {
            w_fail(w, RCK_ERR_STATE, "key \"%.40s\" outside an object", key);
            return -1;
        }
        return 0;
    }
    if (w->lv[w->depth - 1].kind == '{' && key == NULL) {
        w_fail(w, RCK_ERR_STATE, "%s in an object without a key", what);
        return -1;
    }
    if (w->lv[w->depth - 1].kind == '[' && key != NULL) {
        w_fail(w, RCK_ERR_STATE, "key \"%.40s\" in an array", key);
        return -1;
    }
    if (w->splice) {
        w->splice = 0; /* the spliced text ends with the separator */
    } else {
        int brk = w->brk >= 0 ? w->brk : w->lv[w->depth - 1].indent;
        if (w->lv[w->depth - 1].items)
            w_out(w, ",", 1);
        if (brk >= 0)
            w_spaces(w, brk);
        else if (w->lv[w->depth - 1].items && !compact)
            w_out(w, " ", 1);
    }
    w->brk = -1;
    w->lv[w->depth - 1].items = 1;
    if (key != NULL) {
        w_quoted(w, key);
        w_out(w, compact ? ":" : ": ", compact ? 1 : 2);
    }
    return w->err == RCK_OK ? 0 : -1;
}

/* A scalar's text after its punctuation. */
static rck_status_t w_scalar(rck_jsonw_t *w, const char *key,
                             const char *text, size_t len)
{
    if (w_item(w, key, "a value") != 0)
        return w->err;
    w_out(w, text, len);
    if (w->depth == 0)
        w->done = 1;
    return w->err;
}

static rck_status_t w_open(rck_jsonw_t *w, const char *key, char kind)
{
    if (w->err == RCK_OK && w->depth >= RCK_JSONW_MAX_DEPTH) {
        w_fail(w, RCK_ERR_RANGE, "more than %d levels of nesting",
               RCK_JSONW_MAX_DEPTH);
        return w->err;
    }
    if (w_item(w, key, kind == '{' ? "an object" : "an array") != 0)
        return w->err;
    w_out(w, kind == '{' ? "{" : "[", 1);
    w->lv[w->depth].kind = kind;
    w->lv[w->depth].items = 0;
    w->lv[w->depth].indent = -1;
    w->depth++;
    return w->err;
}

static rck_status_t w_close(rck_jsonw_t *w, char kind)
{
    const char *name = kind == '{' ? "object" : "array";

    if (w->err != RCK_OK)
        return w->err;
    if (w->depth == 0) {
        w_fail(w, RCK_ERR_STATE, "end of an %s that is not open", name);
        return w->err;
    }
    if (w->lv[w->depth - 1].kind != kind) {
        w_fail(w, RCK_ERR_STATE, "end of an %s inside an %s", name,
               kind == '{' ? "array" : "object");
        return w->err;
    }
    if (w->splice) {
        w_fail(w, RCK_ERR_STATE,
               "end of an array right after spliced items (their last "
               "comma would be left)");
        return w->err;
    }
    if (w->brk >= 0)
        w_spaces(w, w->brk);
    w->brk = -1;
    w_out(w, kind == '{' ? "}" : "]", 1);
    w->depth--;
    if (w->depth == 0)
        w->done = 1;
    return w->err;
}

rck_status_t rck_jsonw_object(rck_jsonw_t *w, const char *key)
{
    return w_open(w, key, '{');
}

rck_status_t rck_jsonw_array(rck_jsonw_t *w, const char *key)
{
    return w_open(w, key, '[');
}

rck_status_t rck_jsonw_end_object(rck_jsonw_t *w)
{
    return w_close(w, '{');
}

rck_status_t rck_jsonw_end_array(rck_jsonw_t *w)
{
    return w_close(w, '[');
}

/* Digits of @p v at the end of @p buf (of 24 bytes); returns the first. */
static char *w_digits(char *end, unsigned long long v)
{
    do {
        *--end = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    return end;
}

rck_status_t rck_jsonw_uint(rck_jsonw_t *w, const char *key,
                            unsigned long long v)
{
    char buf[24], *p = w_digits(buf + sizeof(buf), v);

    return w_scalar(w, key, p, (size_t)(buf + sizeof(buf) - p));
}

rck_status_t rck_jsonw_int(rck_jsonw_t *w, const char *key, long long v)
{
    char buf[24], *p;
    unsigned long long m = v < 0 ? 0ull - (unsigned long long)v
                                 : (unsigned long long)v;

    p = w_digits(buf + sizeof(buf), m);
    if (v < 0)
        *--p = '-';
    return w_scalar(w, key, p, (size_t)(buf + sizeof(buf) - p));
}

/* printf's decimal point is the locale's: JSON's is '.'. */
static void w_point(char *buf)
{
    const char *dp = localeconv()->decimal_point;

    if (dp == NULL || dp[0] == '.' || dp[0] == '\0' || dp[1] != '\0')
        return;
    for (; *buf != '\0'; buf++)
        if (*buf == dp[0])
            *buf = '.';
}

const char *rck_json_format_real(double v, char *buf, size_t len)
{
    int prec;

    if (v == floor(v) && fabs(v) < 1e15) {
        snprintf(buf, len, "%.0f", v);
        return buf;
    }
    for (prec = 15; prec < 17; prec++) {
        snprintf(buf, len, "%.*g", prec, v);
        if (strtod(buf, NULL) == v) /* both in the locale's spelling */
            break;
    }
    if (prec == 17)
        snprintf(buf, len, "%.17g", v);
    w_point(buf);
    return buf;
}

/* The writer's error so far, or RCK_ERR_INVALID (sticky) when @p v is
 * not finite: JSON has no NaN or infinity. */
static rck_status_t w_finite(rck_jsonw_t *w, const char *key, double v)
{
    if (w->err != RCK_OK)
        return w->err;
    if (!isfinite(v))
        w_fail(w, RCK_ERR_INVALID, "%s%.40s%s is not a finite number",
               key != NULL ? "\"" : "", key != NULL ? key : "a value",
               key != NULL ? "\"" : "");
    return w->err;
}

rck_status_t rck_jsonw_real(rck_jsonw_t *w, const char *key, double v)
{
    char buf[40];

    if (w_finite(w, key, v) != RCK_OK)
        return w->err;
    rck_json_format_real(v, buf, sizeof(buf));
    return w_scalar(w, key, buf, strlen(buf));
}

/* A real through printf (@p conv 'f' or 'g'), refused when not finite:
 * JSON has no NaN or infinity. */
static rck_status_t w_real(rck_jsonw_t *w, const char *key, double v,
                           int prec, char conv)
{
    char buf[352]; /* %.17f of 1e308: 309 digits, point, 17 decimals */
    int n;

    if (w_finite(w, key, v) != RCK_OK)
        return w->err;
    if (prec < 0 || prec > 17) {
        w_fail(w, RCK_ERR_RANGE, "%d %s (0 to 17)", prec,
               conv == 'f' ? "decimals" : "significant digits");
        return w->err;
    }
    if (conv == 'g' && prec == 0)
        prec = 1; /* as printf takes it */
    n = conv == 'f' ? snprintf(buf, sizeof(buf), "%.*f", prec, v)
                    : snprintf(buf, sizeof(buf), "%.*g", prec, v);
    if (n < 0 || (size_t)n >= sizeof(buf)) {
        w_fail(w, RCK_ERR_RANGE, "a number too long to write");
        return w->err;
    }
    w_point(buf);
    return w_scalar(w, key, buf, (size_t)n);
}

rck_status_t rck_jsonw_fixed(rck_jsonw_t *w, const char *key, double v,
                             int decimals)
{
    return w_real(w, key, v, decimals, 'f');
}

rck_status_t rck_jsonw_sig(rck_jsonw_t *w, const char *key, double v,
                           int digits)
{
    return w_real(w, key, v, digits, 'g');
}

rck_status_t rck_jsonw_decimal(rck_jsonw_t *w, const char *key,
                               unsigned long long units, int scale)
{
    char buf[32], *end = buf + sizeof(buf), *p = end;
    unsigned long long pow10 = 1, whole, frac;
    int digits = scale;

    if (w->err != RCK_OK)
        return w->err;
    if (scale < 0 || scale > 9) {
        w_fail(w, RCK_ERR_RANGE, "decimal scale %d (0 to 9)", scale);
        return w->err;
    }
    for (int i = 0; i < scale; i++)
        pow10 *= 10;
    whole = units / pow10;
    frac = units % pow10;
    if (frac != 0) {
        while (frac % 10 == 0) {
            frac /= 10;
            digits--;
        }
        for (int i = 0; i < digits; i++) {
            *--p = (char)('0' + frac % 10);
            frac /= 10;
        }
        *--p = '.';
    }
    p = w_digits(p, whole);
    return w_scalar(w, key, p, (size_t)(end - p));
}

rck_status_t rck_jsonw_bool(rck_jsonw_t *w, const char *key, int v)
{
    return v ? w_scalar(w, key, "true", 4) : w_scalar(w, key, "false", 5);
}

rck_status_t rck_jsonw_null(rck_jsonw_t *w, const char *key)
{
    return w_scalar(w, key, "null", 4);
}

rck_status_t rck_jsonw_string(rck_jsonw_t *w, const char *key, const char *s)
{
    if (s == NULL) {
        w_fail(w, RCK_ERR_INVALID, "%s%.40s%s: a NULL string",
               key != NULL ? "\"" : "", key != NULL ? key : "a value",
               key != NULL ? "\"" : "");
        return w->err;
    }
    if (w_item(w, key, "a value") != 0)
        return w->err;
    w_quoted(w, s);
    if (w->depth == 0)
        w->done = 1;
    return w->err;
}

void rck_jsonw_break(rck_jsonw_t *w, int indent)
{
    w->brk = indent < 0 ? -1 : indent;
}

void rck_jsonw_indent_items(rck_jsonw_t *w, int indent)
{
    if (w->depth == 0) {
        w_fail(w, RCK_ERR_STATE, "indent of items outside a container");
        return;
    }
    w->lv[w->depth - 1].indent = (short)(indent < 0 ? -1 : indent);
}

rck_status_t rck_jsonw_splice(rck_jsonw_t *w, const char *text, size_t len)
{
    if (w->err != RCK_OK || len == 0)
        return w->err;
    if (w->depth == 0 || w->lv[w->depth - 1].kind != '[') {
        w_fail(w, RCK_ERR_STATE, "items spliced outside an array");
        return w->err;
    }
    if (w_item(w, NULL, "items") != 0)
        return w->err;
    w_drain(w);
    if (w->err == RCK_OK)
        w_emit(w, text, len);
    w->splice = 1;
    return w->err;
}

rck_status_t rck_jsonw_finish(rck_jsonw_t *w)
{
    if (w->err != RCK_OK)
        return w->err;
    w_drain(w);
    if (w->err != RCK_OK)
        return w->err;
    if (w->depth > 0)
        w_fail(w, RCK_ERR_STATE, "%d %s still open at the end", w->depth,
               w->depth == 1 ? "object or array" : "objects or arrays");
    else if (!w->done)
        w_fail(w, RCK_ERR_STATE, "an empty document");
    else if (w->flags & RCK_JSONW_NEWLINE)
        w_emit(w, "\n", 1);
    if (w->err == RCK_OK && w->fp != NULL && ferror(w->fp))
        w_fail(w, RCK_ERR_IO, "the output stream failed");
    return w->err;
}

/* The string writer of the chip dumps: the writer's escapes. */
void rck_json_write_string(FILE *fp, const char *s)
{
    rck_jsonw_t w;

    rck_jsonw_init(&w, fp, 0);
    rck_jsonw_string(&w, NULL, s);
    rck_jsonw_finish(&w);
}

const char *rck_jsonw_error(const rck_jsonw_t *w)
{
    return w->what;
}
