/*
 * xmlio.c: records in the textual record format of the S-Net runtime of
 * the era (an XML subset), read from a stream and written to one:
 *
 *   <?xml version="1.0" ?>
 *   <record xmlns="snet-home.org" type="data" mode="textual" >
 *   <field label="A" interface="C4SNet">(int)5</field>
 *   <tag label="T">3</tag>
 *   <btag label="B">1</btag>
 *   </record>
 *   <record type="terminate" />
 *
 * A field's text is "(type)value" or "(type[n])v1,v2,...", chars as
 * themselves with &lt; &gt; &amp; escaped.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

struct rt_reader {
    FILE *f;
    const char *name;
    int line;
};

rt_reader_t *rt_reader_new(FILE *f, const char *name)
{
    rt_reader_t *rd = rt_alloc(sizeof(*rd));
    rd->f = f;
    rd->name = name;
    rd->line = 1;
    return rd;
}

void rt_reader_free(rt_reader_t *rd)
{
    free(rd);
}

static void bad(rt_reader_t *rd, const char *what)
{
    rt_fatal("%s:%d: %s", rd->name, rd->line, what);
}

static int get(rt_reader_t *rd)
{
    int c = getc(rd->f);
    if (c == '\n')
        rd->line++;
    return c;
}

static int skip_space(rt_reader_t *rd)
{
    int c;
    do
        c = get(rd);
    while (c != EOF && isspace(c));
    return c;
}

/* An element's tag after '<': name, attributes, and whether it is closed
 * ("/>"), an end tag ("</"), or a declaration/comment (skipped). */
typedef struct {
    char name[32];
    char label[128], type[32], mode[32];
    int end, empty;
} xtag_t;

static void read_until(rt_reader_t *rd, const char *stop)
{
    size_t k = 0, n = strlen(stop);
    while (k < n) {
        int c = get(rd);
        if (c == EOF)
            bad(rd, "unterminated declaration or comment");
        k = c == stop[k] ? k + 1 : (c == stop[0] ? 1 : 0);
    }
}

static void read_attr(rt_reader_t *rd, int c, xtag_t *t)
{
    char key[32], val[128];
    size_t k = 0;
    while (c != EOF && c != '=' && !isspace(c)) {
        if (k + 1 < sizeof(key))
            key[k++] = (char)c;
        c = get(rd);
    }
    key[k] = '\0';
    while (c != EOF && isspace(c))
        c = get(rd);
    if (c != '=')
        bad(rd, "an attribute without a value");
    int q = skip_space(rd);
    if (q != '"' && q != '\'')
        bad(rd, "an attribute value without quotes");
    k = 0;
    while ((c = get(rd)) != q) {
        if (c == EOF)
            bad(rd, "unterminated attribute value");
        if (k + 1 < sizeof(val))
            val[k++] = (char)c;
    }
    val[k] = '\0';
    char *dst = !strcmp(key, "label") ? t->label
                : !strcmp(key, "type") ? t->type
                : !strcmp(key, "mode") ? t->mode : NULL;
    if (dst != NULL)
        snprintf(dst, dst == t->label ? sizeof(t->label) : sizeof(t->type),
                 "%s", val);
}

/* After '<' was read. Returns 0 for a declaration or comment. */
static int read_tag(rt_reader_t *rd, xtag_t *t)
{
    memset(t, 0, sizeof(*t));
    int c = get(rd);
    if (c == '?') {
        read_until(rd, "?>");
        return 0;
    }
    if (c == '!') {
        read_until(rd, ">");
        return 0;
    }
    if (c == '/') {
        t->end = 1;
        c = get(rd);
    }
    size_t k = 0;
    while (c != EOF && (isalnum(c) || c == '_' || c == '-' || c == ':')) {
        if (k + 1 < sizeof(t->name))
            t->name[k++] = (char)c;
        c = get(rd);
    }
    for (;;) {
        while (c != EOF && isspace(c))
            c = get(rd);
        if (c == '>')
            return 1;
        if (c == '/') {
            if (get(rd) != '>')
                bad(rd, "'/' not followed by '>'");
            t->empty = 1;
            return 1;
        }
        if (c == EOF)
            bad(rd, "unterminated tag");
        read_attr(rd, c, t);
        c = get(rd);
    }
}

/* An element's text up to its end tag (which is consumed). */
static char *read_text(rt_reader_t *rd, const char *name)
{
    size_t n = 0, cap = 64;
    char *s = rt_alloc(cap);
    int c;
    while ((c = get(rd)) != '<') {
        if (c == EOF)
            bad(rd, "unterminated element");
        if (n + 8 >= cap)
            s = rt_realloc(s, cap *= 2);
        s[n++] = (char)c;
    }
    s[n] = '\0';
    xtag_t t;
    if (!read_tag(rd, &t) || !t.end || strcmp(t.name, name))
        bad(rd, "an element's text not followed by its end tag");
    return s;
}

static void read_entry(rt_reader_t *rd, const xtag_t *t, rcksnet_record_t *r)
{
    char msg[300];
    if (t->label[0] == '\0')
        bad(rd, "an entry without a label");
    int kind = !strcmp(t->name, "field") ? RCKSNET_FIELD
               : !strcmp(t->name, "tag") ? RCKSNET_TAG
               : !strcmp(t->name, "btag") ? RCKSNET_BTAG : -1;
    if (kind < 0) {
        snprintf(msg, sizeof(msg), "unknown element <%s> in a record",
                 t->name);
        bad(rd, msg);
    }
    if (t->empty)
        bad(rd, "an entry without a value");
    char *text = read_text(rd, t->name);
    rt_ent_t e = {kind, rt_label_id(t->label), 0, NULL};
    if (kind == RCKSNET_FIELD) {
        const char *why = NULL;
        e.field = rt_field_parse(text, &why);
        if (e.field == NULL) {
            snprintf(msg, sizeof(msg), "field %s: %s", t->label, why);
            free(text);
            bad(rd, msg);
        }
    } else {
        char *end;
        errno = 0;
        long v = strtol(text, &end, 10);
        while (isspace((unsigned char)*end))
            end++;
        if (errno || *end || end == text || v < -2147483647L - 1 ||
            v > 2147483647L) {
            snprintf(msg, sizeof(msg), "tag %s: '%.40s' is not an int",
                     t->label, text);
            free(text);
            bad(rd, msg);
        }
        e.tag = (int)v;
    }
    free(text);
    if (rt_find(r, e.kind, e.label) != NULL) {
        snprintf(msg, sizeof(msg), "label %s twice in a record", t->label);
        bad(rd, msg);
    }
    rt_add(r, &e);
}

int rt_reader_next(rt_reader_t *rd, rcksnet_record_t **out)
{
    xtag_t t;
    for (;;) {
        int c = skip_space(rd);
        if (c == EOF)
            return 0;
        if (c != '<')
            bad(rd, "text outside a record");
        if (!read_tag(rd, &t))
            continue;
        if (strcmp(t.name, "record") || t.end)
            bad(rd, "expected <record>");
        if (!strcmp(t.type, "terminate"))
            return 0;
        if (strcmp(t.type, "data"))
            bad(rd, "a record's type is neither data nor terminate");
        if (t.mode[0] && strcmp(t.mode, "textual"))
            bad(rd, "only mode=\"textual\" records are read");
        break;
    }
    rcksnet_record_t *r = rcksnet_record_new();
    if (!t.empty) {
        for (;;) {
            int c = skip_space(rd);
            if (c != '<')
                bad(rd, c == EOF ? "unterminated record" : "text in a record");
            xtag_t e;
            if (!read_tag(rd, &e))
                continue;
            if (e.end && !strcmp(e.name, "record"))
                break;
            read_entry(rd, &e, r);
        }
    }
    *out = r;
    return 1;
}

static void write_escaped(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '&')
            fputs("&amp;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else
            fputc(*s, f);
    }
}

void rt_record_write(FILE *f, const rcksnet_record_t *r)
{
    static const char *const el[] = {"field", "tag", "btag"};
    fputs("<?xml version=\"1.0\" ?>\n"
          "<record xmlns=\"snet-home.org\" type=\"data\" mode=\"textual\" >\n",
          f);
    for (int kind = RCKSNET_FIELD; kind <= RCKSNET_BTAG; kind++) {
        for (int i = 0; i < r->n; i++) {
            const rt_ent_t *e = &r->e[i];
            if (e->kind != kind)
                continue;
            fprintf(f, "<%s label=\"", el[kind]);
            write_escaped(f, rt_label_name(e->label));
            if (kind == RCKSNET_FIELD) {
                fputs("\" interface=\"C4SNet\">", f);
                rt_field_write(f, e->field);
            } else {
                fprintf(f, "\">%d", e->tag);
            }
            fprintf(f, "</%s>\n", el[kind]);
        }
    }
    fputs("</record>\n", f);
}

void rt_terminate_write(FILE *f)
{
    fputs("<?xml version=\"1.0\" ?>\n<record type=\"terminate\" />\n", f);
}
