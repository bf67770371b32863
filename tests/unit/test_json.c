/*
 * Unit tests for the JSON layer (src/util/json.c over jansson): values,
 * the rules the layer adds (duplicate keys, every number a double, the
 * byte order mark), error messages with line and column (the column of
 * the offending token's first character), and the string writer.
 */
#include "rck/json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

/* Parse @p text, expecting success. */
static rck_json_doc_t *parse_ok(const char *text, int line)
{
    rck_json_doc_t *doc = NULL;
    char err[256];
    rck_status_t st = rck_json_parse(text, &doc, err, sizeof(err));

    if (st != RCK_OK || doc == NULL) {
        fprintf(stderr, "%s:%d: parse of '%s' failed: %s\n", __FILE__, line,
                text, err);
        failures++;
        return NULL;
    }
    return doc;
}

/* Parse @p text, expecting failure with a message that contains @p want. */
static void parse_bad(const char *text, const char *want, int line)
{
    rck_json_doc_t *doc = NULL;
    char err[256];
    rck_status_t st;

    strcpy(err, "(unset)");
    st = rck_json_parse(text, &doc, err, sizeof(err));
    if (st == RCK_OK) {
        fprintf(stderr, "%s:%d: parse of '%s' succeeded, expected '%s'\n",
                __FILE__, line, text, want);
        failures++;
        rck_json_free(doc);
        return;
    }
    if (doc != NULL) {
        fprintf(stderr, "%s:%d: failed parse set the document\n", __FILE__,
                line);
        failures++;
    }
    if (strstr(err, want) == NULL) {
        fprintf(stderr, "%s:%d: parse of '%s': error '%s' lacks '%s'\n",
                __FILE__, line, text, err, want);
        failures++;
    }
}

#define PARSE_OK(text) parse_ok((text), __LINE__)
#define PARSE_BAD(text, want) parse_bad((text), (want), __LINE__)

static void test_scalars(void)
{
    rck_json_doc_t *doc;
    const rck_json_t *v;
    double d = 0;
    long l = 0;
    int b = -1;

    doc = PARSE_OK("  true ");
    if (doc != NULL) {
        v = rck_json_root(doc);
        CHECK(rck_json_type(v) == RCK_JSON_BOOL);
        CHECK(rck_json_bool(v, &b) == 0 && b == 1);
        CHECK(rck_json_number(v, &d) == -1);
        CHECK(rck_json_string(v) == NULL);
        rck_json_free(doc);
    }
    doc = PARSE_OK("false");
    if (doc != NULL) {
        CHECK(rck_json_bool(rck_json_root(doc), &b) == 0 && b == 0);
        rck_json_free(doc);
    }
    doc = PARSE_OK("\n\t\r null\n");
    if (doc != NULL) {
        v = rck_json_root(doc);
        CHECK(rck_json_type(v) == RCK_JSON_NULL);
        CHECK(rck_json_bool(v, &b) == -1);
        CHECK(rck_json_len(v) == 0);
        rck_json_free(doc);
    }
    doc = PARSE_OK("42");
    if (doc != NULL) {
        v = rck_json_root(doc);
        CHECK(rck_json_type(v) == RCK_JSON_NUMBER);
        CHECK(rck_json_int(v, &l) == 0 && l == 42);
        CHECK(rck_json_number(v, &d) == 0 && d == 42.0);
        rck_json_free(doc);
    }
    /* accessors tolerate NULL */
    CHECK(rck_json_get(NULL, "x") == NULL);
    CHECK(rck_json_at(NULL, 0) == NULL);
    CHECK(rck_json_len(NULL) == 0);
    CHECK(rck_json_number(NULL, &d) == -1);
    CHECK(rck_json_string(NULL) == NULL);
    rck_json_free(NULL);
}

static void check_number(const char *text, double want, int line)
{
    rck_json_doc_t *doc = parse_ok(text, line);
    double d = NAN;

    if (doc == NULL)
        return;
    if (rck_json_number(rck_json_root(doc), &d) != 0 || d != want) {
        fprintf(stderr, "%s:%d: '%s' parsed as %.17g, expected %.17g\n",
                __FILE__, line, text, d, want);
        failures++;
    }
    rck_json_free(doc);
}

static void test_numbers(void)
{
    rck_json_doc_t *doc;
    long l = 0;

    check_number("0", 0.0, __LINE__);
    check_number("-0", 0.0, __LINE__);
    check_number("-12", -12.0, __LINE__);
    check_number("3.25", 3.25, __LINE__);
    check_number("0.05", 0.05, __LINE__);
    check_number("1e3", 1000.0, __LINE__);
    check_number("1E+3", 1000.0, __LINE__);
    check_number("2.5e-1", 0.25, __LINE__);
    check_number("-0.0e0", 0.0, __LINE__);
    check_number("1e-400", 0.0, __LINE__); /* underflow is fine */
    check_number("123456789012345678901234567890",
                 123456789012345678901234567890.0, __LINE__);

    PARSE_BAD("01", "line 1 column 1: invalid token");
    PARSE_BAD("-", "invalid token near '-'");
    PARSE_BAD("-a", "invalid token near '-'");
    PARSE_BAD("1.", "invalid token near '1.'");
    PARSE_BAD("1.e5", "invalid token near '1.'");
    PARSE_BAD(".5", "invalid token near '.'");
    PARSE_BAD("+1", "invalid token near '+'");
    PARSE_BAD("1e", "invalid token near '1e'");
    PARSE_BAD("1e+", "invalid token near '1e+'");
    PARSE_BAD("0x10", "line 1 column 2: end of file expected near 'x'");
    PARSE_BAD("1e999", "real number overflow");
    PARSE_BAD("-1e999", "real number overflow");
    PARSE_BAD("NaN", "invalid token near 'NaN'");
    PARSE_BAD("Infinity", "invalid token");
    PARSE_BAD("[1 2]", "line 1 column 4: ']' expected near '2'");

    /* rck_json_int wants integral values that fit a long */
    doc = PARSE_OK("[1.5, 2.0, -7, 1e300, 9.2233720368547758e18]");
    if (doc != NULL) {
        const rck_json_t *a = rck_json_root(doc);
        CHECK(rck_json_int(rck_json_at(a, 0), &l) == -1);
        CHECK(rck_json_int(rck_json_at(a, 1), &l) == 0 && l == 2);
        CHECK(rck_json_int(rck_json_at(a, 2), &l) == 0 && l == -7);
        CHECK(rck_json_int(rck_json_at(a, 3), &l) == -1);
        CHECK(rck_json_int(rck_json_at(a, 4), &l) == -1);
        rck_json_free(doc);
    }
}

static void check_string(const char *text, const char *want, int line)
{
    rck_json_doc_t *doc = parse_ok(text, line);
    const char *s;

    if (doc == NULL)
        return;
    s = rck_json_string(rck_json_root(doc));
    if (s == NULL || strcmp(s, want) != 0) {
        fprintf(stderr, "%s:%d: %s decoded wrongly\n", __FILE__, line, text);
        failures++;
    }
    rck_json_free(doc);
}

static void test_strings(void)
{
    check_string("\"\"", "", __LINE__);
    check_string("\"plain\"", "plain", __LINE__);
    check_string("\"\\\" \\\\ \\/ \\b \\f \\n \\r \\t\"",
                 "\" \\ / \b \f \n \r \t", __LINE__);
    check_string("\"\\u0041\\u00e9\"", "A\xc3\xa9", __LINE__);
    check_string("\"\\u20AC\"", "\xe2\x82\xac", __LINE__);     /* euro */
    check_string("\"\\ud83d\\ude00\"", "\xf0\x9f\x98\x80", __LINE__);
    check_string("\"\\uDBFF\\uDFFF\"", "\xf4\x8f\xbf\xbf", __LINE__);
    check_string("\"\\u007f\\u0080\\u07ff\\u0800\\uffff\"",
                 "\x7f\xc2\x80\xdf\xbf\xe0\xa0\x80\xef\xbf\xbf", __LINE__);
    check_string("\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"",
                 "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", __LINE__);

    PARSE_BAD("\"abc", "premature end of input");
    PARSE_BAD("\"abc\\", "invalid escape");
    PARSE_BAD("\"\\x\"", "invalid escape");
    PARSE_BAD("\"\\u12\"", "invalid escape");
    PARSE_BAD("\"\\u12g4\"", "invalid escape");
    PARSE_BAD("\"\\ud800\"", "invalid Unicode '\\uD800'");
    PARSE_BAD("\"\\ud800\\u0041\"", "invalid Unicode '\\uD800\\u0041'");
    PARSE_BAD("\"\\udc00\"", "invalid Unicode '\\uDC00'");
    PARSE_BAD("\"\\u0000\"", "\\u0000 is not allowed in strings");
    PARSE_BAD("\"a\tb\"", "control character");
    PARSE_BAD("\"a\nb\"", "unexpected newline");
    PARSE_BAD("\"\xff\"", "unable to decode byte 0xff");
    PARSE_BAD("\"\xc0\xaf\"", "unable to decode byte 0xc0");      /* overlong '/' */
    PARSE_BAD("\"\xed\xa0\x80\"", "unable to decode byte 0xed");  /* encoded surrogate */
    PARSE_BAD("\"\xe2\x82\"", "unable to decode byte 0xe2");      /* truncated */
    PARSE_BAD("\"\xf4\x90\x80\x80\"", "unable to decode byte 0xf4"); /* > U+10FFFF */
}

static void test_containers(void)
{
    rck_json_doc_t *doc;
    const rck_json_t *root, *v;
    long l = 0;

    doc = PARSE_OK("{\"a\": 1, \"b\": [true, null, \"x\", {}], \"c\": {"
                   "\"d\": []}, \"\": 5}");
    if (doc == NULL)
        return;
    root = rck_json_root(doc);
    CHECK(rck_json_type(root) == RCK_JSON_OBJECT);
    CHECK(rck_json_len(root) == 4);
    CHECK(rck_json_int(rck_json_get(root, "a"), &l) == 0 && l == 1);
    CHECK(rck_json_get(root, "missing") == NULL);
    CHECK(rck_json_int(rck_json_get(root, ""), &l) == 0 && l == 5);
    CHECK(strcmp(rck_json_key_at(root, 1), "b") == 0);
    CHECK(rck_json_value_at(root, 1) == rck_json_get(root, "b"));
    CHECK(rck_json_key_at(root, 4) == NULL);
    CHECK(rck_json_value_at(root, 4) == NULL);
    v = rck_json_get(root, "b");
    CHECK(rck_json_type(v) == RCK_JSON_ARRAY);
    CHECK(rck_json_len(v) == 4);
    CHECK(rck_json_type(rck_json_at(v, 0)) == RCK_JSON_BOOL);
    CHECK(rck_json_type(rck_json_at(v, 1)) == RCK_JSON_NULL);
    CHECK(strcmp(rck_json_string(rck_json_at(v, 2)), "x") == 0);
    CHECK(rck_json_type(rck_json_at(v, 3)) == RCK_JSON_OBJECT);
    CHECK(rck_json_len(rck_json_at(v, 3)) == 0);
    CHECK(rck_json_at(v, 4) == NULL);
    CHECK(rck_json_get(v, "a") == NULL);       /* not an object */
    CHECK(rck_json_at(root, 0) == NULL);       /* not an array */
    CHECK(rck_json_key_at(v, 0) == NULL);
    v = rck_json_get(rck_json_get(root, "c"), "d");
    CHECK(rck_json_type(v) == RCK_JSON_ARRAY && rck_json_len(v) == 0);
    rck_json_free(doc);

    /* a large array grows correctly */
    {
        size_t n = 10000, i, pos = 0;
        char *text = malloc(n * 8 + 16);
        CHECK(text != NULL);
        if (text == NULL)
            return;
        text[pos++] = '[';
        for (i = 0; i < n; i++)
            pos += (size_t)sprintf(text + pos, "%s%zu", i ? "," : "", i);
        text[pos++] = ']';
        text[pos] = '\0';
        doc = PARSE_OK(text);
        if (doc != NULL) {
            root = rck_json_root(doc);
            CHECK(rck_json_len(root) == n);
            CHECK(rck_json_int(rck_json_at(root, n - 1), &l) == 0 &&
                  l == (long)(n - 1));
            rck_json_free(doc);
        }
        free(text);
    }

    PARSE_BAD("", "line 1 column 1: unexpected token at the end of the input");
    PARSE_BAD("   ", "line 1 column 4: unexpected token at the end");
    PARSE_BAD("[", "']' expected at the end of the input");
    PARSE_BAD("[1,", "']' expected at the end");
    PARSE_BAD("[1", "']' expected at the end");
    PARSE_BAD("[1,]", "line 1 column 4: unexpected token near ']'");
    PARSE_BAD("{\"a\":1,}", "string or '}' expected near '}'");
    PARSE_BAD("{\"a\" 1}", "':' expected near '1'");
    PARSE_BAD("{a: 1}", "string or '}' expected near 'a'");
    PARSE_BAD("{1: 1}", "string or '}' expected near '1'");
    PARSE_BAD("{\"a\": 1 \"b\": 2}", "line 1 column 9: '}' expected near '\"b\"'");
    PARSE_BAD("{\"a\": 1, \"a\": 2}", "duplicate object key near '\"a\"'");
    PARSE_BAD("[1] [2]", "end of file expected near '['");
    PARSE_BAD("tru", "invalid token near 'tru'");
    PARSE_BAD("truex", "invalid token near 'truex'");
    PARSE_BAD("nul", "invalid token near 'nul'");
    PARSE_BAD("[True]", "line 1 column 2: invalid token near 'True'");
    PARSE_BAD("// comment\n1", "invalid token near '/'");
    PARSE_BAD("'single'", "invalid token");
}

static void test_positions(void)
{
    /* columns count characters, lines start at 1 */
    PARSE_BAD("{\n  \"a\": 1,\n  \"b\": tru\n}", "line 3 column 8:");
    PARSE_BAD("[1, 2,\n 3 4]", "line 2 column 4:");
    PARSE_BAD("x", "line 1 column 1:");
    PARSE_BAD("{\"a\":\n\n\n", "line 4 column 1:");
    PARSE_BAD("[\"\xc3\xa9\xc3\xa9\", x]", "line 1 column 8:");
    PARSE_BAD("{\n \"k\": \"abc", "line 2 column 7: premature end of input");
    PARSE_BAD("{\"a\": 1,\n \"a\": 2}", "line 2 column 2: duplicate object key");
    PARSE_BAD("\r\n\t[1,\n  01]", "line 3 column 3: invalid token");

    /* errbuf may be NULL or tiny */
    {
        rck_json_doc_t *doc = NULL;
        char tiny[8];
        CHECK(rck_json_parse("[", &doc, NULL, 0) != RCK_OK);
        CHECK(doc == NULL);
        CHECK(rck_json_parse("[", &doc, tiny, sizeof(tiny)) != RCK_OK);
        CHECK(strlen(tiny) == sizeof(tiny) - 1);
        CHECK(rck_json_parse(NULL, &doc, tiny, sizeof(tiny)) != RCK_OK);
    }
}

static char *nested(int depth, int objects)
{
    char *s = malloc((size_t)depth * 6 + 8);
    size_t pos = 0;
    int i;

    if (s == NULL)
        return NULL;
    for (i = 0; i < depth; i++) {
        if (objects) {
            memcpy(s + pos, "{\"k\":", 5);
            pos += 5;
        } else {
            s[pos++] = '[';
        }
    }
    s[pos++] = '1';
    for (i = 0; i < depth; i++)
        s[pos++] = objects ? '}' : ']';
    s[pos] = '\0';
    return s;
}

/*
 * jansson's nesting limit (JSON_PARSER_MAX_DEPTH, 2048, counts the
 * innermost value too): 2047 arrays or objects inside each other
 */
#define DEPTH_LIMIT 2047

static void test_depth(void)
{
    rck_json_doc_t *doc;
    char *s;

    s = nested(DEPTH_LIMIT, 0);
    CHECK(s != NULL);
    doc = s ? PARSE_OK(s) : NULL;
    rck_json_free(doc);
    free(s);

    s = nested(DEPTH_LIMIT, 1);
    CHECK(s != NULL);
    doc = s ? PARSE_OK(s) : NULL;
    rck_json_free(doc);
    free(s);

    s = nested(DEPTH_LIMIT + 1, 0);
    if (s != NULL)
        PARSE_BAD(s, "line 1 column 2049: maximum parsing depth reached");
    free(s);

    s = nested(DEPTH_LIMIT + 1, 1);
    if (s != NULL)
        PARSE_BAD(s, "maximum parsing depth reached");
    free(s);

    /* far deeper than any stack would take without the limit */
    s = nested(1000000, 0);
    if (s != NULL)
        PARSE_BAD(s, "maximum parsing depth");
    free(s);
}

static void test_bom(void)
{
    rck_json_doc_t *doc = PARSE_OK("\xef\xbb\xbf{\"a\": 1}");
    rck_json_free(doc);
    /* positions still count from the start of the text, BOM included */
    PARSE_BAD("\xef\xbb\xbfx", "line 1 column 2: invalid token");
    PARSE_BAD("\xef\xbb\xbf[1,\n x]", "line 2 column 2: invalid token");
}

static void check_written(const char *in, const char *want, int line)
{
    char buf[128];
    size_t n;
    FILE *fp = tmpfile();

    if (fp == NULL) {
        fprintf(stderr, "%s:%d: tmpfile failed\n", __FILE__, line);
        failures++;
        return;
    }
    rck_json_write_string(fp, in);
    rewind(fp);
    n = fread(buf, 1, sizeof(buf) - 1, fp);
    buf[n] = '\0';
    fclose(fp);
    if (strcmp(buf, want) != 0) {
        fprintf(stderr, "%s:%d: wrote '%s', expected '%s'\n", __FILE__, line,
                buf, want);
        failures++;
    }
}

/* the reports' string format: control characters as \u00XX, the rest as is */
static void test_write(void)
{
    rck_json_doc_t *doc;

    check_written("", "\"\"", __LINE__);
    check_written("scc-533", "\"scc-533\"", __LINE__);
    check_written("a\"b\\c/d", "\"a\\\"b\\\\c/d\"", __LINE__);
    check_written("\n\t\x01\x1f", "\"\\u000a\\u0009\\u0001\\u001f\"", __LINE__);
    check_written("\x7f caf\xc3\xa9 \xff", "\"\x7f caf\xc3\xa9 \xff\"", __LINE__);
    /* and what it writes reads back */
    doc = PARSE_OK("[\"a\\\"b\\\\c\\u000a\\u0001\"]");
    if (doc != NULL) {
        CHECK(strcmp(rck_json_string(rck_json_at(rck_json_root(doc), 0)),
                     "a\"b\\c\n\x01") == 0);
        rck_json_free(doc);
    }
}

int main(void)
{
    test_scalars();
    test_numbers();
    test_strings();
    test_containers();
    test_positions();
    test_depth();
    test_bom();
    test_write();
    if (failures != 0) {
        fprintf(stderr, "test_json: %d check(s) failed\n", failures);
        return 1;
    }
    printf("test_json: all checks passed\n");
    return 0;
}
