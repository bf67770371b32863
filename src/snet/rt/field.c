/*
 * field.c: a field's textual form, "(type)value" or "(type[n])v1,v2,...",
 * as the record format of the era writes C4SNet data (chars as themselves,
 * with &lt; &gt; &amp; escaped; array elements separated by commas).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

static const struct {
    const char *name;
    c4snet_type_t type;
} types[] = {
    {"unsigned char", CTYPE_uchar}, {"char", CTYPE_char},
    {"unsigned short", CTYPE_ushort}, {"short", CTYPE_short},
    {"unsigned int", CTYPE_uint}, {"int", CTYPE_int},
    {"unsigned long", CTYPE_ulong}, {"long", CTYPE_long},
    {"float", CTYPE_float}, {"double", CTYPE_double},
    {"long double", CTYPE_ldouble}, {"pointer", CTYPE_pointer},
};

static const char *type_name(c4snet_type_t t)
{
    for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
        if (types[i].type == t)
            return types[i].name;
    return "?";
}

static void write_elem(FILE *f, c4snet_type_t t, const void *p)
{
    switch (t) {
    case CTYPE_uchar:
    case CTYPE_char: {
        char c = *(const char *)p;
        if (c == '<')
            fputs("&lt;", f);
        else if (c == '&')
            fputs("&amp;", f);
        else if (c == '>')
            fputs("&gt;", f);
        else
            fputc(c, f);
        break;
    }
    case CTYPE_ushort: fprintf(f, "%hu", *(const unsigned short *)p); break;
    case CTYPE_short: fprintf(f, "%hd", *(const short *)p); break;
    case CTYPE_uint: fprintf(f, "%u", *(const unsigned *)p); break;
    case CTYPE_int: fprintf(f, "%d", *(const int *)p); break;
    case CTYPE_ulong: fprintf(f, "%lu", *(const unsigned long *)p); break;
    case CTYPE_long: fprintf(f, "%ld", *(const long *)p); break;
    case CTYPE_float: fprintf(f, "%.9g", (double)*(const float *)p); break;
    case CTYPE_double: fprintf(f, "%.17g", *(const double *)p); break;
    case CTYPE_ldouble: fprintf(f, "%.21Lg", *(const long double *)p); break;
    case CTYPE_pointer: fprintf(f, "%p", *(void *const *)p); break;
    }
}

void rt_field_write(FILE *f, c4snet_data_t *d)
{
    c4snet_type_t t = C4SNetGetType(d);
    size_t n = C4SNetArraySize(d), es = (size_t)C4SNetSizeof(d);
    const char *p = C4SNetGetData(d);
    if (n == 1)
        fprintf(f, "(%s)", type_name(t));
    else
        fprintf(f, "(%s[%zu])", type_name(t), n);
    for (size_t i = 0; i < n; i++) {
        if (i > 0)
            fputc(',', f);
        write_elem(f, t, p + i * es);
    }
}

/* one element of type t from *s into p; 0 on error */
static int parse_elem(const char **s, c4snet_type_t t, void *p)
{
    const char *q = *s;
    char *end = NULL;
    errno = 0;
    if (t == CTYPE_char || t == CTYPE_uchar) {
        static const char *const ent[] = {"&lt;", "&gt;", "&amp;"};
        static const char rep[] = "<>&";
        for (int i = 0; i < 3; i++) {
            size_t l = strlen(ent[i]);
            if (!strncmp(q, ent[i], l)) {
                *(char *)p = rep[i];
                *s = q + l;
                return 1;
            }
        }
        if (*q == '\0')
            return 0;
        *(char *)p = *q;
        *s = q + 1;
        return 1;
    }
    while (isspace((unsigned char)*q))
        q++;
    switch (t) {
    case CTYPE_ushort: *(unsigned short *)p = (unsigned short)strtoul(q, &end, 0); break;
    case CTYPE_short: *(short *)p = (short)strtol(q, &end, 0); break;
    case CTYPE_uint: *(unsigned *)p = (unsigned)strtoul(q, &end, 0); break;
    case CTYPE_int: *(int *)p = (int)strtol(q, &end, 0); break;
    case CTYPE_ulong: *(unsigned long *)p = strtoul(q, &end, 0); break;
    case CTYPE_long: *(long *)p = strtol(q, &end, 0); break;
    case CTYPE_float: *(float *)p = strtof(q, &end); break;
    case CTYPE_double: *(double *)p = strtod(q, &end); break;
    case CTYPE_ldouble: *(long double *)p = strtold(q, &end); break;
    default: return 0;
    }
    if (end == q || errno)
        return 0;
    while (isspace((unsigned char)*end))
        end++;
    *s = end;
    return 1;
}

c4snet_data_t *rt_field_parse(const char *text, const char **why)
{
    const char *s = text;
    while (isspace((unsigned char)*s))
        s++;
    if (*s++ != '(') {
        *why = "a field's text starts with '(type)'";
        return NULL;
    }
    size_t tl = strcspn(s, "[)");
    c4snet_type_t t = CTYPE_int;
    int found = 0;
    for (size_t i = 0; i < sizeof(types) / sizeof(types[0]) && !found; i++)
        if (strlen(types[i].name) == tl && !strncmp(types[i].name, s, tl)) {
            t = types[i].type;
            found = 1;
        }
    if (!found || t == CTYPE_pointer) {
        *why = "unknown or unreadable element type";
        return NULL;
    }
    s += tl;
    size_t n = 1;
    int array = *s == '[';
    if (array) {
        char *end;
        n = strtoul(s + 1, &end, 10);
        if (end == s + 1 || *end != ']') {
            *why = "a malformed array size";
            return NULL;
        }
        s = end + 1;
    }
    if (*s++ != ')') {
        *why = "')' missing after the type";
        return NULL;
    }
    void *p;
    c4snet_data_t *d = C4SNetAlloc(t, n, &p);
    size_t es = (size_t)C4SNetSizeof(d);
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && *s++ != ',') {
            *why = "fewer values than the array size";
            C4SNetFree(d);
            return NULL;
        }
        if (!parse_elem(&s, t, (char *)p + i * es)) {
            *why = "a value that does not parse as the type";
            C4SNetFree(d);
            return NULL;
        }
    }
    while (isspace((unsigned char)*s))
        s++;
    if (*s != '\0') {
        *why = "more values than the array size";
        C4SNetFree(d);
        return NULL;
    }
    return d;
}
