/*
 * The section table of an ELF64 file, read with pread, and the length of
 * the process's auxiliary vector (p54c_elf.h). Calls libc only.
 */
#include "p54c_elf.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int p54c_elf_pread(const p54c_elf_t *e, void *buf, size_t n, uint64_t off)
{
    return pread(e->fd, buf, n, (off_t)off) == (ssize_t)n ? 0 : -1;
}

int p54c_elf_open(p54c_elf_t *e, const char *path)
{
    memset(e, 0, sizeof(*e));
    e->fd = open(path, O_RDONLY | O_CLOEXEC);
    if (e->fd < 0)
        return -1;
    if (p54c_elf_pread(e, &e->eh, sizeof(e->eh), 0) != 0 ||
        memcmp(e->eh.e_ident, ELFMAG, SELFMAG) != 0 ||
        e->eh.e_ident[EI_CLASS] != ELFCLASS64 ||
        e->eh.e_shentsize != sizeof(Elf64_Shdr) || e->eh.e_shnum == 0 ||
        e->eh.e_shstrndx >= e->eh.e_shnum)
        goto bad;
    e->sh = calloc(e->eh.e_shnum, sizeof(*e->sh));
    if (e->sh == NULL ||
        p54c_elf_pread(e, e->sh, (size_t)e->eh.e_shnum * sizeof(*e->sh),
                       e->eh.e_shoff) != 0)
        goto bad;
    const Elf64_Shdr *st = &e->sh[e->eh.e_shstrndx];
    if (st->sh_size == 0 || st->sh_size > (1u << 24))
        goto bad;
    e->names = malloc(st->sh_size + 1);
    if (e->names == NULL ||
        p54c_elf_pread(e, e->names, st->sh_size, st->sh_offset) != 0)
        goto bad;
    e->names[st->sh_size] = '\0';
    e->names_len = st->sh_size;
    return 0;
bad:
    p54c_elf_close(e);
    return -2;
}

const char *p54c_elf_name(const p54c_elf_t *e, unsigned i)
{
    if (i >= e->eh.e_shnum || e->sh[i].sh_name >= e->names_len)
        return NULL;
    return e->names + e->sh[i].sh_name;
}

void p54c_elf_close(p54c_elf_t *e)
{
    free(e->names);
    free(e->sh);
    if (e->fd >= 0)
        close(e->fd);
    e->names = NULL;
    e->sh = NULL;
    e->fd = -1;
}

uint32_t p54c_auxv_entries(void)
{
    uint64_t pair[2];
    uint32_t n = 0;
    int fd = open("/proc/self/auxv", O_RDONLY | O_CLOEXEC);

    if (fd < 0)
        return 0;
    while (read(fd, pair, sizeof(pair)) == (ssize_t)sizeof(pair)) {
        n++;
        if (pair[0] == 0) /* AT_NULL */
            break;
    }
    close(fd);
    return n;
}
