/*
 * A small ELF64 reader (rck/elf.h): the whole file in memory, headers
 * checked once at load so that every later access stays inside it.
 */
#include "rck/elf.h"

#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rck_elf {
    unsigned char *data;
    size_t size;
    const Elf64_Shdr *sh;  /* section headers */
    unsigned nsh;
    const char *shstr;     /* section name strings */
    size_t shstr_len;
    const Elf64_Sym *sym;  /* .symtab */
    size_t nsym;
    const char *str;       /* its string table */
    size_t str_len;
};

static int bad(char *why, size_t len, const char *path, const char *what)
{
    if (why && len)
        snprintf(why, len, "%s: %s", path, what);
    errno = EINVAL;
    return -1;
}

static int read_all(const char *path, rck_elf_t *e, char *why, size_t wl)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        int err = errno;
        if (why && wl)
            snprintf(why, wl, "%s: %s", path, strerror(err));
        errno = err;
        return -1;
    }
    size_t cap = 1 << 16;
    e->data = malloc(cap);
    size_t n;
    while (e->data && (n = fread(e->data + e->size, 1, cap - e->size, f))) {
        e->size += n;
        if (e->size == cap) {
            unsigned char *d = realloc(e->data, cap * 2);
            if (!d) {
                free(e->data);
                e->data = NULL;
                break;
            }
            e->data = d;
            cap *= 2;
        }
    }
    int rd_err = ferror(f);
    fclose(f);
    if (!e->data)
        return bad(why, wl, path, "out of memory");
    if (rd_err)
        return bad(why, wl, path, "read error");
    return 0;
}

/* A section's bytes lie inside the file (SHT_NOBITS has none). */
static int sec_ok(const rck_elf_t *e, const Elf64_Shdr *s)
{
    return s->sh_type == SHT_NOBITS ||
           (s->sh_offset <= e->size && s->sh_size <= e->size - s->sh_offset);
}

static int find_symtab(rck_elf_t *e)
{
    for (unsigned i = 0; i < e->nsh; i++) {
        const Elf64_Shdr *s = &e->sh[i];
        if (s->sh_type != SHT_SYMTAB || s->sh_link >= e->nsh)
            continue;
        const Elf64_Shdr *st = &e->sh[s->sh_link];
        if (s->sh_type == SHT_NOBITS || st->sh_type == SHT_NOBITS ||
            s->sh_entsize != sizeof(Elf64_Sym))
            return -1;
        e->sym = (const Elf64_Sym *)(e->data + s->sh_offset);
        e->nsym = s->sh_size / sizeof(Elf64_Sym);
        e->str = (const char *)e->data + st->sh_offset;
        e->str_len = st->sh_size;
        return 0;
    }
    return 0;
}

static int check(rck_elf_t *e, const char *path, char *why, size_t wl)
{
    const Elf64_Ehdr *h = (const Elf64_Ehdr *)e->data;
    if (e->size < sizeof(*h) || memcmp(h->e_ident, ELFMAG, SELFMAG) != 0)
        return bad(why, wl, path, "not an ELF file");
    if (h->e_ident[EI_CLASS] != ELFCLASS64 ||
        h->e_ident[EI_DATA] != ELFDATA2LSB)
        return bad(why, wl, path, "not a little-endian ELF64 file");
    if (h->e_shentsize != sizeof(Elf64_Shdr) || h->e_shoff > e->size ||
        (size_t)h->e_shnum * sizeof(Elf64_Shdr) > e->size - h->e_shoff ||
        h->e_shoff % 8 != 0)
        return bad(why, wl, path, "bad section header table");
    e->sh = (const Elf64_Shdr *)(e->data + h->e_shoff);
    e->nsh = h->e_shnum;
    for (unsigned i = 0; i < e->nsh; i++)
        if (!sec_ok(e, &e->sh[i]))
            return bad(why, wl, path, "a section lies outside the file");
    if (h->e_shstrndx < e->nsh && e->sh[h->e_shstrndx].sh_type != SHT_NOBITS) {
        e->shstr = (const char *)e->data + e->sh[h->e_shstrndx].sh_offset;
        e->shstr_len = e->sh[h->e_shstrndx].sh_size;
    }
    if (find_symtab(e) != 0)
        return bad(why, wl, path, "bad symbol table");
    return 0;
}

int rck_elf_load(const char *path, rck_elf_t **out, char *why, size_t wl)
{
    rck_elf_t *e = calloc(1, sizeof(*e));
    *out = NULL;
    if (!e)
        return bad(why, wl, path, "out of memory");
    if (read_all(path, e, why, wl) != 0 || check(e, path, why, wl) != 0) {
        int err = errno;
        rck_elf_free(e);
        errno = err;
        return -1;
    }
    *out = e;
    return 0;
}

void rck_elf_free(rck_elf_t *e)
{
    if (!e)
        return;
    free(e->data);
    free(e);
}

/* A NUL-terminated string at @p off of a table of @p len bytes, or "". */
static const char *str_at(const char *tab, size_t len, size_t off)
{
    if (!tab || off >= len || !memchr(tab + off, 0, len - off))
        return "";
    return tab + off;
}

unsigned rck_elf_nsections(const rck_elf_t *e)
{
    return e->nsh;
}

const char *rck_elf_section_name(const rck_elf_t *e, unsigned index)
{
    if (index >= e->nsh)
        return "";
    return str_at(e->shstr, e->shstr_len, e->sh[index].sh_name);
}

const void *rck_elf_section_at(const rck_elf_t *e, unsigned index,
                               size_t *len)
{
    *len = 0;
    if (index >= e->nsh || e->sh[index].sh_type == SHT_NOBITS)
        return NULL;
    *len = e->sh[index].sh_size;
    return e->data + e->sh[index].sh_offset;
}

const void *rck_elf_section(const rck_elf_t *e, const char *name,
                            size_t *len)
{
    for (unsigned i = 1; i < e->nsh; i++)
        if (strcmp(rck_elf_section_name(e, i), name) == 0)
            return rck_elf_section_at(e, i, len);
    *len = 0;
    return NULL;
}

size_t rck_elf_nsyms(const rck_elf_t *e)
{
    return e->nsym;
}

int rck_elf_sym(const rck_elf_t *e, size_t i, rck_elf_sym_t *s)
{
    if (i >= e->nsym)
        return -1;
    const Elf64_Sym *y = &e->sym[i];
    s->name = str_at(e->str, e->str_len, y->st_name);
    s->value = y->st_value;
    s->size = y->st_size;
    s->shndx = y->st_shndx;
    s->type = ELF64_ST_TYPE(y->st_info);
    s->bind = ELF64_ST_BIND(y->st_info);
    return 0;
}
