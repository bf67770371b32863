/*
 * util.c: rck-snetc's allocation, error reporting and variant helpers.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"

int snetc_errors;
int snetc_quiet; /* errors while inferring are not reported */

void *xalloc(size_t n)
{
    void *p = calloc(1, n ? n : 1);
    if (p == NULL) {
        fprintf(stderr, "rck-snetc: out of memory\n");
        exit(1);
    }
    return p;
}

void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (q == NULL) {
        fprintf(stderr, "rck-snetc: out of memory\n");
        exit(1);
    }
    return q;
}

char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xalloc(n), s, n);
}

/* "FILE:LINE:COL: KIND: message" on stderr (nothing when quiet). */
static void report_at(loc_t loc, const char *kind, const char *fmt,
                      va_list ap)
{
    fprintf(stderr, "%s:%d:%d: %s: ", snetc_file, loc.line, loc.col, kind);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void error_at(loc_t loc, const char *fmt, ...)
{
    va_list ap;
    if (snetc_quiet)
        return;
    va_start(ap, fmt);
    report_at(loc, "error", fmt, ap);
    va_end(ap);
    snetc_errors++;
}

void warning_at(loc_t loc, const char *fmt, ...)
{
    va_list ap;
    if (snetc_quiet)
        return;
    va_start(ap, fmt);
    report_at(loc, "warning", fmt, ap);
    va_end(ap);
}

variant_t *variant_new(loc_t loc)
{
    variant_t *v = xalloc(sizeof(*v));
    v->loc = loc;
    return v;
}

void variant_add(variant_t *v, int kind, char *name)
{
    if (v->n == v->cap) {
        v->cap = v->cap ? 2 * v->cap : 4;
        v->e = xrealloc(v->e, v->cap * sizeof(*v->e));
    }
    v->e[v->n].kind = kind;
    v->e[v->n].name = name;
    v->n++;
}

vtype_t *vtype_new(void)
{
    return xalloc(sizeof(vtype_t));
}

void vtype_add(vtype_t *t, variant_t *v)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 4;
        t->v = xrealloc(t->v, t->cap * sizeof(*t->v));
    }
    t->v[t->n++] = v;
}

const char *variant_str(const variant_t *v, char *buf, size_t size)
{
    size_t len = 0;
    len += (size_t)snprintf(buf, size, "{");
    for (int i = 0; i < v->n && len < size; i++) {
        const char *sep = i ? ", " : "";
        const ent_t *e = &v->e[i];
        if (e->kind == E_FIELD)
            len += (size_t)snprintf(buf + len, size - len, "%s%s", sep,
                                    e->name);
        else
            len += (size_t)snprintf(buf + len, size - len, "%s<%s%s>", sep,
                                    e->kind == E_BTAG ? "#" : "", e->name);
    }
    if (len < size)
        snprintf(buf + len, size - len, "}");
    return buf;
}
