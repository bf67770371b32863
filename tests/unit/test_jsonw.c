/*
 * Unit tests for the JSON writer (src/util/json_write.c): exact bytes of
 * both layouts and of line breaks, escapes, key order, the spelling of
 * every kind of number, splicing, and the documents it refuses (with the
 * error sticky and nothing written after it). Every document written is
 * also parsed back with the reader.
 */
#include "rck/json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

/* A sink into a fixed buffer; fails beyond @p limit bytes. */
typedef struct {
    char buf[4096];
    size_t len, limit;
} mem_t;

static int mem_sink(void *ctx, const char *b, size_t n)
{
    mem_t *m = ctx;

    if (m->len + n > m->limit || m->len + n >= sizeof(m->buf))
        return -1;
    memcpy(m->buf + m->len, b, n);
    m->len += n;
    m->buf[m->len] = '\0';
    return 0;
}

static void mem_start(rck_jsonw_t *w, mem_t *m, unsigned flags)
{
    m->len = 0;
    m->buf[0] = '\0';
    m->limit = sizeof(m->buf);
    rck_jsonw_init_sink(w, mem_sink, m, flags);
}

/* @p got must be @p want, and parse. */
static void same(const char *got, const char *want, int line)
{
    rck_json_doc_t *doc = NULL;
    char err[128];

    if (strcmp(got, want) != 0) {
        fprintf(stderr, "%s:%d: wrote\n%s\nexpected\n%s\n", __FILE__, line,
                got, want);
        failures++;
    }
    if (rck_json_parse(got, &doc, err, sizeof(err)) != RCK_OK) {
        fprintf(stderr, "%s:%d: written text does not parse: %s\n", __FILE__,
                line, err);
        failures++;
    }
    rck_json_free(doc);
}

#define SAME(got, want) same(got, want, __LINE__)

static void test_layouts(void)
{
    rck_jsonw_t w;
    mem_t m;

    /* spaced, with the report's line breaks */
    mem_start(&w, &m, RCK_JSONW_NEWLINE);
    rck_jsonw_object(&w, NULL);
    rck_jsonw_indent_items(&w, 2);
    rck_jsonw_uint(&w, "z", 1);
    rck_jsonw_object(&w, "a");
    rck_jsonw_string(&w, "name", "x");
    rck_jsonw_array(&w, "v");
    rck_jsonw_int(&w, NULL, -1);
    rck_jsonw_int(&w, NULL, 2);
    rck_jsonw_end_array(&w);
    rck_jsonw_end_object(&w);
    rck_jsonw_array(&w, "rows");
    rck_jsonw_indent_items(&w, 4);
    rck_jsonw_object(&w, NULL);
    rck_jsonw_uint(&w, "k", 0);
    rck_jsonw_end_object(&w);
    rck_jsonw_object(&w, NULL);
    rck_jsonw_end_object(&w);
    rck_jsonw_break(&w, 2);
    rck_jsonw_end_array(&w);
    rck_jsonw_array(&w, "empty");
    rck_jsonw_end_array(&w);
    rck_jsonw_object(&w, "m");
    rck_jsonw_bool(&w, "t", 1);
    rck_jsonw_break(&w, 4);
    rck_jsonw_bool(&w, "f", 0);
    rck_jsonw_null(&w, "n");
    rck_jsonw_end_object(&w);
    rck_jsonw_break(&w, 0);
    rck_jsonw_end_object(&w);
    CHECK(rck_jsonw_finish(&w) == RCK_OK);
    SAME(m.buf, "{\n"
                "  \"z\": 1,\n"
                "  \"a\": {\"name\": \"x\", \"v\": [-1, 2]},\n"
                "  \"rows\": [\n"
                "    {\"k\": 0},\n"
                "    {}\n"
                "  ],\n"
                "  \"empty\": [],\n"
                "  \"m\": {\"t\": true,\n"
                "    \"f\": false, \"n\": null}\n"
                "}\n");

    /* compact, the trace's */
    mem_start(&w, &m, RCK_JSONW_COMPACT);
    rck_jsonw_object(&w, NULL);
    rck_jsonw_string(&w, "a", "b");
    rck_jsonw_break(&w, 0);
    rck_jsonw_array(&w, "e");
    rck_jsonw_uint(&w, NULL, 1);
    rck_jsonw_uint(&w, NULL, 2);
    rck_jsonw_end_array(&w);
    rck_jsonw_end_object(&w);
    CHECK(rck_jsonw_finish(&w) == RCK_OK);
    SAME(m.buf, "{\"a\":\"b\",\n\"e\":[1,2]}");

    /* a scalar root */
    mem_start(&w, &m, 0);
    rck_jsonw_uint(&w, NULL, 7);
    CHECK(rck_jsonw_finish(&w) == RCK_OK);
    SAME(m.buf, "7");
}

/* Keys come out in the order they were written, not sorted. */
static void test_key_order(void)
{
    static const char *const keys[] = {"zeta", "alpha", "mu", "beta", "a"};
    rck_jsonw_t w;
    mem_t m;
    rck_json_doc_t *doc = NULL;

    mem_start(&w, &m, RCK_JSONW_COMPACT);
    rck_jsonw_object(&w, NULL);
    for (int i = 0; i < 5; i++)
        rck_jsonw_int(&w, keys[i], i);
    rck_jsonw_end_object(&w);
    CHECK(rck_jsonw_finish(&w) == RCK_OK);
    SAME(m.buf, "{\"zeta\":0,\"alpha\":1,\"mu\":2,\"beta\":3,\"a\":4}");
    CHECK(rck_json_parse(m.buf, &doc, NULL, 0) == RCK_OK);
    for (int i = 0; i < 5; i++)
        CHECK(strcmp(rck_json_key_at(rck_json_root(doc), (size_t)i),
                     keys[i]) == 0);
    rck_json_free(doc);
}

static void test_escapes(void)
{
    rck_jsonw_t w;
    mem_t m;
    rck_json_doc_t *doc = NULL;
    char path[] = "/tmp/rck_test_jsonw.XXXXXX";
    char buf[128];
    FILE *fp;
    int fd;
    size_t n;

    mem_start(&w, &m, 0);
    rck_jsonw_object(&w, NULL);
    rck_jsonw_string(&w, "k\"1", "q\" b\\ n\n t\t c\x01 \xc3\xa9 /");
    rck_jsonw_string(&w, "e", "");
    rck_jsonw_end_object(&w);
    CHECK(rck_jsonw_finish(&w) == RCK_OK);
    SAME(m.buf, "{\"k\\\"1\": \"q\\\" b\\\\ n\\u000a t\\u0009 c\\u0001 "
                "\xc3\xa9 /\", \"e\": \"\"}");
    CHECK(rck_json_parse(m.buf, &doc, NULL, 0) == RCK_OK);
    CHECK(strcmp(rck_json_string(rck_json_get(rck_json_root(doc), "k\"1")),
                 "q\" b\\ n\n t\t c\x01 \xc3\xa9 /") == 0);
    rck_json_free(doc);

    /* longer than the writer's own buffer, and escapes across its end */
    {
        char big[1501], want[1600];
        memset(big, 'x', 1500);
        big[1500] = '\0';
        big[510] = '"';
        big[1200] = '\n';
        mem_start(&w, &m, 0);
        rck_jsonw_array(&w, NULL);
        rck_jsonw_string(&w, NULL, big);
        rck_jsonw_string(&w, NULL, big);
        rck_jsonw_end_array(&w);
        CHECK(rck_jsonw_finish(&w) == RCK_OK);
        snprintf(want, sizeof(want), "\"%.510s\\\"%.689s\\u000a%s\"",
                 big, big + 511, big + 1201);
        CHECK(m.len == 2 * strlen(want) + 4);
        CHECK(strncmp(m.buf + 1, want, strlen(want)) == 0);
        CHECK(strncmp(m.buf + 3 + strlen(want), want, strlen(want)) == 0);
    }

    /* not UTF-8: written as it is (a path may be anything) */
    mem_start(&w, &m, 0);
    rck_jsonw_string(&w, NULL, "a\xff");
    CHECK(rck_jsonw_finish(&w) == RCK_OK);
    CHECK(strcmp(m.buf, "\"a\xff\"") == 0);

    /* rck_json_write_string writes the same escapes to a stream */
    fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0)
        return;
    fp = fdopen(fd, "w+");
    CHECK(fp != NULL);
    if (fp == NULL)
        return;
    rck_json_write_string(fp, "x\"\\\n\x1f");
    rewind(fp);
    n = fread(buf, 1, sizeof(buf) - 1, fp);
    buf[n] = '\0';
    CHECK(strcmp(buf, "\"x\\\"\\\\\\u000a\\u001f\"") == 0);
    fclose(fp);
    remove(path);
}

static void number(int kind, double d, unsigned long long u, int prec,
                   const char *want, int line)
{
    rck_jsonw_t w;
    mem_t m;

    mem_start(&w, &m, 0);
    switch (kind) {
    case 'u': rck_jsonw_uint(&w, NULL, u); break;
    case 'i': rck_jsonw_int(&w, NULL, (long long)u); break;
    case 'f': rck_jsonw_fixed(&w, NULL, d, prec); break;
    case 'g': rck_jsonw_sig(&w, NULL, d, prec); break;
    case 'd': rck_jsonw_decimal(&w, NULL, u, prec); break;
    case 'r': rck_jsonw_real(&w, NULL, d); break;
    }
    if (rck_jsonw_finish(&w) != RCK_OK) {
        fprintf(stderr, "%s:%d: %s\n", __FILE__, line, rck_jsonw_error(&w));
        failures++;
        return;
    }
    same(m.buf, want, line);
}

#define NUM(kind, d, u, prec, want) number(kind, d, u, prec, want, __LINE__)

static void test_numbers(void)
{
    NUM('u', 0, 0, 0, "0");
    NUM('u', 0, 18446744073709551615ull, 0, "18446744073709551615");
    NUM('i', 0, (unsigned long long)-1ll, 0, "-1");
    NUM('i', 0, 0x8000000000000000ull, 0, "-9223372036854775808");
    NUM('i', 0, 9223372036854775807ull, 0, "9223372036854775807");
    /* fixed decimals stay (1.500, not 1.5) and round as printf does */
    NUM('f', 533.333333, 0, 3, "533.333");
    NUM('f', 1.5, 0, 3, "1.500");
    NUM('f', 800.0, 0, 3, "800.000");
    NUM('f', 0.00012345, 0, 9, "0.000123450");
    NUM('f', 2.5, 0, 0, "2");
    NUM('f', -0.25, 0, 4, "-0.2500");
    /* significant digits (%.9g): exponent where printf writes one */
    NUM('g', 1.0 / 3.0, 0, 9, "0.333333333");
    NUM('g', 0.0000123456789123, 0, 9, "1.23456789e-05");
    NUM('g', 0.0, 0, 9, "0");
    NUM('g', 12345678901.0, 0, 9, "1.23456789e+10");
    /* the shortest text that reads back */
    NUM('r', 533.0, 0, 0, "533");
    NUM('r', -4.0, 0, 0, "-4");
    NUM('r', 0.1, 0, 0, "0.1");
    NUM('r', 1.0 / 3.0, 0, 0, "0.3333333333333333");
    NUM('r', 1e15, 0, 0, "1e+15");
    NUM('r', 2.5e-7, 0, 0, "2.5e-07");
    /* decimals in the fewest characters */
    NUM('d', 0, 1500, 3, "1.5");
    NUM('d', 0, 2000, 3, "2");
    NUM('d', 0, 5, 3, "0.005");
    NUM('d', 0, 0, 3, "0");
    NUM('d', 0, 1234567, 3, "1234.567");
    NUM('d', 0, 42, 0, "42");
    NUM('d', 0, 18446744073709551615ull, 9, "18446744073.709551615");
}

/* A refused document: the error is @p st, its words contain @p words,
 * and nothing is written after it. */
static void refused(rck_jsonw_t *w, mem_t *m, rck_status_t st,
                    const char *words, int line)
{
    size_t len = m->len;

    rck_jsonw_uint(w, NULL, 1);
    rck_jsonw_end_object(w);
    if (m->len != len || rck_jsonw_finish(w) != st ||
        strstr(rck_jsonw_error(w), words) == NULL) {
        fprintf(stderr, "%s:%d: expected status %d and '%s', got %d '%s' "
                "(text '%s')\n", __FILE__, line, (int)st, words,
                (int)rck_jsonw_finish(w), rck_jsonw_error(w), m->buf);
        failures++;
    }
}

#define REFUSED(st, words) refused(&w, &m, st, words, __LINE__)

static void test_refused(void)
{
    rck_jsonw_t w;
    mem_t m;

    mem_start(&w, &m, 0);
    rck_jsonw_object(&w, NULL);
    rck_jsonw_uint(&w, NULL, 1);
    REFUSED(RCK_ERR_STATE, "in an object without a key");

    mem_start(&w, &m, 0);
    rck_jsonw_array(&w, NULL);
    rck_jsonw_uint(&w, "k", 1);
    REFUSED(RCK_ERR_STATE, "key \"k\" in an array");

    mem_start(&w, &m, 0);
    rck_jsonw_uint(&w, "k", 1);
    REFUSED(RCK_ERR_STATE, "outside an object");

    mem_start(&w, &m, 0);
    rck_jsonw_object(&w, NULL);
    rck_jsonw_end_array(&w);
    REFUSED(RCK_ERR_STATE, "end of an array inside an object");

    mem_start(&w, &m, 0);
    rck_jsonw_array(&w, NULL);
    rck_jsonw_end_object(&w);
    REFUSED(RCK_ERR_STATE, "end of an object inside an array");

    mem_start(&w, &m, 0);
    rck_jsonw_end_array(&w);
    REFUSED(RCK_ERR_STATE, "not open");

    mem_start(&w, &m, 0);
    rck_jsonw_array(&w, NULL);
    rck_jsonw_end_array(&w);
    rck_jsonw_array(&w, NULL);
    REFUSED(RCK_ERR_STATE, "after the end of the document");

    mem_start(&w, &m, 0);
    rck_jsonw_object(&w, NULL);
    rck_jsonw_array(&w, "a");
    CHECK(rck_jsonw_finish(&w) == RCK_ERR_STATE);
    CHECK(strstr(rck_jsonw_error(&w), "2 objects or arrays still open") !=
          NULL);

    mem_start(&w, &m, 0);
    CHECK(rck_jsonw_finish(&w) == RCK_ERR_STATE);
    CHECK(strstr(rck_jsonw_error(&w), "empty document") != NULL);

    mem_start(&w, &m, 0);
    rck_jsonw_object(&w, NULL);
    rck_jsonw_fixed(&w, "w", NAN, 3);
    REFUSED(RCK_ERR_INVALID, "\"w\" is not a finite number");

    mem_start(&w, &m, 0);
    rck_jsonw_array(&w, NULL);
    rck_jsonw_sig(&w, NULL, INFINITY, 9);
    REFUSED(RCK_ERR_INVALID, "not a finite number");

    mem_start(&w, &m, 0);
    rck_jsonw_array(&w, NULL);
    rck_jsonw_real(&w, NULL, -INFINITY);
    REFUSED(RCK_ERR_INVALID, "not a finite number");

    mem_start(&w, &m, 0);
    rck_jsonw_fixed(&w, NULL, 1.0, 18);
    REFUSED(RCK_ERR_RANGE, "18 decimals");

    mem_start(&w, &m, 0);
    rck_jsonw_decimal(&w, NULL, 1, 10);
    REFUSED(RCK_ERR_RANGE, "scale 10");

    mem_start(&w, &m, 0);
    rck_jsonw_object(&w, NULL);
    rck_jsonw_string(&w, "s", NULL);
    REFUSED(RCK_ERR_INVALID, "\"s\": a NULL string");

    mem_start(&w, &m, 0);
    for (int i = 0; i <= RCK_JSONW_MAX_DEPTH; i++)
        rck_jsonw_array(&w, NULL);
    REFUSED(RCK_ERR_RANGE, "levels of nesting");

    /* the output refuses bytes: an I/O error, sticky */
    mem_start(&w, &m, 0);
    m.limit = 5;
    rck_jsonw_array(&w, NULL);
    rck_jsonw_string(&w, NULL, "longer than five");
    rck_jsonw_end_array(&w);
    CHECK(rck_jsonw_finish(&w) == RCK_ERR_IO);
    CHECK(m.len <= 5);
    CHECK(strstr(rck_jsonw_error(&w), "did not take") != NULL);
    rck_jsonw_uint(&w, NULL, 1);
    CHECK(rck_jsonw_finish(&w) == RCK_ERR_IO);
    CHECK(m.len <= 5);

    rck_jsonw_init(&w, NULL, 0);
    CHECK(rck_jsonw_finish(&w) == RCK_ERR_INVALID);
}

/* Items spliced in from earlier writers (the trace's parts). */
static void test_splice(void)
{
    static const char part[] = "{\"a\":1},\n{\"a\":2},\n";
    rck_jsonw_t w;
    mem_t m;

    mem_start(&w, &m, RCK_JSONW_COMPACT);
    rck_jsonw_array(&w, NULL);
    rck_jsonw_indent_items(&w, 0);
    rck_jsonw_splice(&w, part, strlen(part));
    rck_jsonw_splice(&w, "", 0); /* nothing: no change */
    rck_jsonw_splice(&w, part, strlen(part));
    rck_jsonw_uint(&w, NULL, 3);
    rck_jsonw_uint(&w, NULL, 4);
    rck_jsonw_break(&w, 0);
    rck_jsonw_end_array(&w);
    CHECK(rck_jsonw_finish(&w) == RCK_OK);
    SAME(m.buf, "[\n{\"a\":1},\n{\"a\":2},\n{\"a\":1},\n{\"a\":2},\n3,\n4\n]");

    /* nothing spliced: the first item takes the line break itself */
    mem_start(&w, &m, RCK_JSONW_COMPACT);
    rck_jsonw_array(&w, NULL);
    rck_jsonw_indent_items(&w, 0);
    rck_jsonw_splice(&w, "", 0);
    rck_jsonw_uint(&w, NULL, 3);
    rck_jsonw_end_array(&w);
    CHECK(rck_jsonw_finish(&w) == RCK_OK);
    SAME(m.buf, "[\n3]");

    /* spliced items must be followed by one more */
    mem_start(&w, &m, RCK_JSONW_COMPACT);
    rck_jsonw_array(&w, NULL);
    rck_jsonw_splice(&w, part, strlen(part));
    rck_jsonw_end_array(&w);
    CHECK(rck_jsonw_finish(&w) == RCK_ERR_STATE);
    CHECK(strstr(rck_jsonw_error(&w), "right after spliced items") != NULL);

    mem_start(&w, &m, 0);
    rck_jsonw_object(&w, NULL);
    rck_jsonw_splice(&w, part, strlen(part));
    CHECK(rck_jsonw_finish(&w) == RCK_ERR_STATE);
    CHECK(strstr(rck_jsonw_error(&w), "outside an array") != NULL);
}

int main(void)
{
    test_layouts();
    test_key_order();
    test_escapes();
    test_numbers();
    test_refused();
    test_splice();
    if (failures)
        fprintf(stderr, "test_jsonw: %d failure(s)\n", failures);
    return failures != 0;
}
