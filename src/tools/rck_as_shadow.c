/*
 * rck-as: the shadow of a checked file's code (docs/P54C.md, "Fetch at
 * the unchecked addresses"). The memory checks spread the program's
 * instructions over many times their bytes; the chip ran the unchecked
 * program. So pass 2 also emits every text section's original
 * instructions, labels renamed, with the section's alignment directives,
 * into an allocated section that is never executed, .rck_shadow<name>
 * (.rck_shadow.text for .text, ...): the linker script rckcc gives the
 * checked link (tools/rck_shadow.ld) lays these out as the unchecked
 * program's .text would be, and the fetch checks book each segment at
 * its shadow labels (.Lrck_ua<n> to .Lrck_uz<n>): the addresses it has in
 * the unchecked layout.
 *
 * The shadow assembles to the bytes of the unchecked code: jumps to the
 * file's local labels and static functions go to their renamed copies
 * (relaxed as the original is), those to global functions of default
 * visibility go to the real ones (never relaxed, in either).
 */
#include "rck_as.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

typedef struct {
    char **v;
    size_t n, cap;
} names_t;

static int names_add(names_t *s, const char *p, size_t n)
{
    if (s->n == s->cap) {
        size_t c = s->cap ? s->cap * 2 : 64;
        char **nv = realloc(s->v, c * sizeof(*nv));
        if (!nv)
            return -1;
        s->v = nv;
        s->cap = c;
    }
    if (!(s->v[s->n] = strndup(p, n)))
        return -1;
    s->n++;
    return 0;
}

static int names_has(const names_t *s, const char *p, size_t n)
{
    char buf[512];
    if (n >= sizeof(buf) || s->n == 0)
        return 0;
    memcpy(buf, p, n);
    buf[n] = 0;
    const char *k = buf;
    return bsearch(&k, s->v, s->n, sizeof(*s->v), cmp_str) != NULL;
}

static void names_free(names_t *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->v[i]);
    free(s->v);
}

static int sym_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '.';
}

/* The first word of @p s (after blanks) and its length. */
static const char *first_word(const char *s, size_t *n)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t k = 0;
    while (s[k] && !isspace((unsigned char)s[k]) && s[k] != ',')
        k++;
    *n = k;
    return s;
}

static int word_is(const char *w, size_t n, const char *const *list)
{
    for (; *list; list++)
        if (strlen(*list) == n && memcmp(w, *list, n) == 0)
            return 1;
    return 0;
}

/* The names a directive @p text declares into @p s (comma-separated). */
static int declare(names_t *s, const char *args)
{
    while (*args) {
        while (*args == ' ' || *args == '\t' || *args == ',')
            args++;
        size_t k = 0;
        while (args[k] && sym_char(args[k]))
            k++;
        if (k == 0)
            break;
        if (names_add(s, args, k) != 0)
            return -1;
        args += k;
    }
    return 0;
}

/* Directives copied into the shadow: alignment and data. */
static const char *const kept[] = {
    ".p2align", ".p2alignw", ".p2alignl", ".align", ".balign", ".balignw",
    ".balignl", ".byte", ".value", ".short", ".word", ".hword", ".2byte",
    ".4byte", ".8byte", ".long", ".int", ".quad", ".octa", ".zero",
    ".skip", ".space", ".fill", ".string", ".ascii", ".asciz", ".nops",
    ".float", ".single", ".double", ".dc.a", ".uleb128", ".sleb128", NULL};
static const char *const sect_dirs[] = {
    ".section", ".text", ".data", ".bss", ".previous", ".pushsection",
    ".popsection", NULL};

/* @p text with the symbols of @p ren renamed (.Lrck_u.<name>), the
 * first word of each line (a mnemonic or a directive) and registers
 * left alone; comments dropped. */
static void put_renamed(FILE *out, const char *text, const names_t *ren)
{
    int line_start = 1;
    for (const char *p = text; *p;) {
        char c = *p;
        if (c == '\n') {
            fputc(c, out);
            p++;
            line_start = 1;
            continue;
        }
        if (c == '#') {  /* a comment to the line's end */
            while (*p && *p != '\n')
                p++;
            continue;
        }
        if (c == '"') {
            const char *q = p + 1;
            while (*q && *q != '"')
                q += q[0] == '\\' && q[1] ? 2 : 1;
            if (*q)
                q++;
            fwrite(p, 1, (size_t)(q - p), out);
            p = q;
            line_start = 0;
            continue;
        }
        if (sym_char(c) && !isdigit((unsigned char)c)) {
            size_t k = 0;
            while (sym_char(p[k]))
                k++;
            int reg = p > text && p[-1] == '%';
            if (!line_start && !reg && names_has(ren, p, k))
                fputs(".Lrck_u.", out);
            fwrite(p, 1, k, out);
            p += k;
            line_start = 0;
            continue;
        }
        if (isdigit((unsigned char)c)) {  /* numbers, 1b, 0x10 */
            while (sym_char(*p))
                fputc(*p++, out);
            line_start = 0;
            continue;
        }
        if (!isspace((unsigned char)c))
            line_start = 0;
        fputc(c, out);
        p++;
    }
    fputc('\n', out);
}

/* An inline-asm line in the shadow: its instructions and numeric labels;
 * named labels (defined once, in the real code), section switches and
 * what lies between .pushsection and .popsection left out. */
static void put_app(FILE *out, const char *text, const names_t *ren,
                    int *depth)
{
    size_t n;
    const char *w = first_word(text, &n);
    if (n == 0 || w[0] == '#')
        return;
    if (n == 12 && !memcmp(w, ".pushsection", 12)) {
        ++*depth;
        return;
    }
    if (n == 11 && !memcmp(w, ".popsection", 11)) {
        if (*depth > 0)
            --*depth;
        return;
    }
    if (*depth > 0 || word_is(w, n, sect_dirs))
        return;
    if (w[0] == '.' && !word_is(w, n, kept))
        return;
    /* a named label at the line's start: drop the definition */
    size_t k = 0;
    while (sym_char(w[k]))
        k++;
    if (k > 0 && w[k] == ':' && !isdigit((unsigned char)w[0])) {
        w += k + 1;
        if (!*w)
            return;
    }
    put_renamed(out, w, ren);
}

int as_write_shadow(const as_file_t *f, const int *seg_start,
                    const int *seg_end, FILE *out)
{
    names_t ren = {0}, glob = {0}, hid = {0};
    int rc = -1;
    /* globals of default visibility keep their names (never relaxed) */
    for (size_t i = 0; i < f->n; i++) {
        const as_item_t *it = &f->it[i];
        if (it->kind != IT_OTHER)
            continue;
        size_t n;
        const char *w = first_word(it->text, &n);
        static const char *const g[] = {".globl", ".global", ".weak", NULL};
        static const char *const h[] = {".hidden", ".internal", ".protected",
                                        NULL};
        if (word_is(w, n, g) && declare(&glob, w + n) != 0)
            goto done;
        if (word_is(w, n, h) && declare(&hid, w + n) != 0)
            goto done;
    }
    if (glob.n)
        qsort(glob.v, glob.n, sizeof(*glob.v), cmp_str);
    if (hid.n)
        qsort(hid.v, hid.n, sizeof(*hid.v), cmp_str);
    for (size_t i = 0; i < f->n; i++) {
        const as_item_t *it = &f->it[i];
        if (it->kind != IT_LABEL || !it->text_sec ||
            isdigit((unsigned char)it->label[0]))
            continue;
        size_t n = strlen(it->label);
        if (names_has(&glob, it->label, n) && !names_has(&hid, it->label, n))
            continue;
        if (names_add(&ren, it->label, n) != 0)
            goto done;
    }
    if (ren.n)
        qsort(ren.v, ren.n, sizeof(*ren.v), cmp_str);
    for (int s = 0; s < f->nsec; s++) {
        if (!f->sec_text[s])
            continue;
        int any = 0, depth = 0;
        for (size_t i = 0; i < f->n && !any; i++)
            any = f->it[i].kind == IT_INSN && f->it[i].sec == s;
        if (!any)
            continue;
        fprintf(out, "\t.section\t.rck_shadow%s", f->sec_name[s]);
        as_put_flags(out, f, s);
        fputc('\n', out);
        for (size_t i = 0; i < f->n; i++) {
            const as_item_t *it = &f->it[i];
            if (it->sec != s || !it->text_sec)
                continue;
            if (seg_start[i])
                fprintf(out, ".Lrck_ua%zu:\n", i);
            switch (it->kind) {
            case IT_INSN:
                put_renamed(out, it->text, &ren);
                break;
            case IT_LABEL:
                if (isdigit((unsigned char)it->label[0]))
                    fprintf(out, "%s:\n", it->label);
                else if (names_has(&ren, it->label, strlen(it->label)))
                    fprintf(out, ".Lrck_u.%s:\n", it->label);
                break;
            case IT_APP:
                put_app(out, it->text, &ren, &depth);
                break;
            default: {
                size_t n;
                const char *w = first_word(it->text, &n);
                if (n > 0 && word_is(w, n, kept))
                    put_renamed(out, w, &ren);
                break;
            }
            }
            if (seg_end[i] >= 0)
                fprintf(out, ".Lrck_uz%d:\n", seg_end[i]);
        }
    }
    rc = 0;
done:
    names_free(&ren);
    names_free(&glob);
    names_free(&hid);
    return rc;
}

void as_put_flags(FILE *out, const as_file_t *f, int sec)
{
    if (sec >= 0 && sec < f->nsec && f->sec_group[sec] != NULL)
        fprintf(out, ",\"aG\",@progbits,%s,comdat", f->sec_group[sec]);
    else
        fputs(",\"a\",@progbits", out);
}
