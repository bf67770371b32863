/*
 * The section table of an ELF64 file, read with pread (the header, the
 * section headers and their names, nothing else): what the HAL's list of
 * the code QEMU does not count (sim_p54c_skip.c) and the plugin's fetch
 * maps (qemu/p54c_fmap.c) read of each loaded module; and the length of
 * the process's auxiliary vector (the stack's place under QEMU: sim_stack.c
 * and the plugin). Both run inside a core's process, the plugin without
 * util, so this file calls libc only.
 */
#ifndef RCK_P54C_ELF_H
#define RCK_P54C_ELF_H

#include <elf.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    int fd;           /* open while the file is: for the caller's preads */
    Elf64_Ehdr eh;
    Elf64_Shdr *sh;   /* eh.e_shnum section headers */
    char *names;      /* the section names, NUL-terminated */
    size_t names_len;
} p54c_elf_t;

/**
 * Open @p path and read its section table.
 * @return 0; -1 when the file cannot be opened (the vDSO has none), -2
 *         when it is not a readable ELF64 file with sections (@p e is then
 *         closed).
 */
int p54c_elf_open(p54c_elf_t *e, const char *path);

/** @return the name of section @p i, or NULL if it has none. */
const char *p54c_elf_name(const p54c_elf_t *e, unsigned i);

/** Read @p n bytes at file offset @p off. @return 0, or -1. */
int p54c_elf_pread(const p54c_elf_t *e, void *buf, size_t n, uint64_t off);

/** Free the table and close the file. */
void p54c_elf_close(p54c_elf_t *e);

/**
 * The number of entries (AT_NULL included) of this process's auxiliary
 * vector (/proc/self/auxv: under qemu-x86_64, the guest's as qemu made it;
 * in the plugin, the one Linux gave qemu), 0 if it cannot be read. The
 * stack's place under QEMU depends on it (docs/P54C.md, "The stack under
 * QEMU").
 */
uint32_t p54c_auxv_entries(void);

#endif
