/*
 * A small reader of ELF64 little-endian relocatable objects and
 * executables: load a file, find a section by name, get a section's bytes
 * by index, iterate the symbol table. Used by the compiled counters'
 * assembler (src/tools/rck_as.c, docs/P54C-COUNTERS.md) and the launcher.
 * Internal to rockcreek (no exported symbols).
 */
#ifndef RCK_UTIL_ELF_H
#define RCK_UTIL_ELF_H

#include <stddef.h>
#include <stdint.h>

typedef struct rck_elf rck_elf_t;

/* One symbol of the file's .symtab. */
typedef struct {
    const char *name;   /* in the loaded file's string table */
    uint64_t value;     /* st_value: an offset into the section in .o files */
    uint64_t size;
    unsigned shndx;     /* st_shndx (SHN_UNDEF 0, SHN_ABS 0xfff1, ...) */
    unsigned char type; /* STT_* */
    unsigned char bind; /* STB_* */
} rck_elf_sym_t;

/* Load @p path into memory and check its headers (ELF64, little endian,
 * section table inside the file). @return 0, or -1 with errno set and a
 * one-line reason in @p why (may be NULL, at least 128 bytes). */
int rck_elf_load(const char *path, rck_elf_t **out, char *why, size_t whylen);

void rck_elf_free(rck_elf_t *e);

/* @return the bytes of the first section named @p name (NULL if there is
 * none or it has no bytes in the file, e.g. SHT_NOBITS); *len its size. */
const void *rck_elf_section(const rck_elf_t *e, const char *name,
                            size_t *len);

/* @return the bytes of section @p index (NULL as above); *len its size. */
const void *rck_elf_section_at(const rck_elf_t *e, unsigned index,
                               size_t *len);

/* @return the name of section @p index ("" if out of range). */
const char *rck_elf_section_name(const rck_elf_t *e, unsigned index);

/* @return the number of sections. */
unsigned rck_elf_nsections(const rck_elf_t *e);

/* Symbols: @return the number in .symtab (0 if none), and symbol @p i
 * (0 <= i < count) in *s: 0, or -1 if @p i is out of range. */
size_t rck_elf_nsyms(const rck_elf_t *e);
int rck_elf_sym(const rck_elf_t *e, size_t i, rck_elf_sym_t *s);

#endif
