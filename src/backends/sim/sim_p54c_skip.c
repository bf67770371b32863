/*
 * What the QEMU engine does not count (docs/P54C.md, "What QEMU counts"):
 * the code ranges of the core's process that are not the program's, for
 * the plugin (p54c_slot_t.skip). The compiled engine counts only code
 * built through rck-as (the program and the counted libraries); under
 * QEMU every instruction the core runs is seen, so the HAL names what is
 * left out:
 *
 *  - the simulator's own code, section rck_base_text (util, hal and the
 *    backends: cmake/base_text.sh), in whatever module links it (the
 *    libraries, or a program that links librockcreek.a);
 *  - the PLT stubs (.plt, .plt.sec, .plt.got) of every module: calls
 *    between modules pass through them, and rck-as never sees them;
 *  - when the program has compiled counters (section .rck_icount) and
 *    RCK_P54C_QEMU_COUNTS=compiled (the default): every module without
 *    them (the C library, libm, the dynamic linker, the vDSO), whose
 *    executable segments the compiled engine never counts either.
 *
 * Found from the section headers of every module loaded when the core
 * attaches (dl_iterate_phdr; the main program through /proc/self/exe,
 * which QEMU shows as the program). Modules opened later (dlopen) are not
 * covered. Owns nothing else; called once by sim_p54c.c's attach.
 */
#include "sim_p54c_skip.h"

#include "p54c_elf.h"

#include <link.h>
#include <string.h>

typedef struct {
    p54c_slot_t *slot;
    uint32_t n;
    uint32_t lost;
    int only_counted; /* skip the modules without compiled counters */
    int first;        /* the next module is the main program */
    int main_counted; /* the main program has compiled counters */
} skip_scan_t;

static int skip_section(const char *name)
{
    return !strcmp(name, P54C_BASE_SECTION) || !strcmp(name, ".plt") ||
           !strcmp(name, ".plt.sec") || !strcmp(name, ".plt.got");
}

static void skip_add(skip_scan_t *sc, uint64_t lo, uint64_t hi, int base)
{
    if (hi <= lo)
        return;
    if (sc->n == P54C_SKIP_MAX) {
        sc->lost++;
        return;
    }
    sc->slot->skip[sc->n][0] = lo;
    sc->slot->skip[sc->n][1] = hi;
    sc->slot->skip_base[sc->n] = (uint8_t)base;
    sc->n++;
}

/* The sections of the file @p path loaded at @p bias. Reads only the ELF
 * header, the section headers and their names. @return 1 if the file has
 * compiled counters (a section P54C_CTR_SECTION), 0 if not, -1 if it
 * cannot be read. */
static int skip_file(skip_scan_t *sc, const char *path, uint64_t bias)
{
    p54c_elf_t e;
    int counted = 0;

    if (p54c_elf_open(&e, path) != 0)
        return -1; /* the vDSO: no file */
    for (unsigned i = 0; i < e.eh.e_shnum; i++) {
        const char *name = p54c_elf_name(&e, i);

        if (name == NULL)
            continue;
        if (!strcmp(name, P54C_CTR_SECTION))
            counted = 1;
        if (!(e.sh[i].sh_flags & SHF_EXECINSTR) ||
            !(e.sh[i].sh_flags & SHF_ALLOC))
            continue;
        if (skip_section(name))
            skip_add(sc, bias + e.sh[i].sh_addr,
                     bias + e.sh[i].sh_addr + e.sh[i].sh_size,
                     !strcmp(name, P54C_BASE_SECTION));
    }
    p54c_elf_close(&e);
    return counted;
}

static int skip_module(struct dl_phdr_info *info, size_t size, void *arg)
{
    skip_scan_t *sc = arg;
    uint32_t n0 = sc->n, lost0 = sc->lost;
    int counted;

    (void)size;
    counted = skip_file(sc,
                        info->dlpi_name != NULL && info->dlpi_name[0] != '\0'
                            ? info->dlpi_name
                            : "/proc/self/exe",
                        (uint64_t)info->dlpi_addr);
    if (sc->first) {
        sc->first = 0;
        sc->main_counted = counted == 1;
        return 0;
    }
    if (!sc->only_counted || !sc->main_counted || counted == 1)
        return 0;
    /* a module the compiled engine never counts: all of its code */
    sc->n = n0;
    sc->lost = lost0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X))
            skip_add(sc, (uint64_t)info->dlpi_addr + ph->p_vaddr,
                     (uint64_t)info->dlpi_addr + ph->p_vaddr + ph->p_memsz,
                     0);
    }
    return 0;
}

uint32_t sim_p54c_skip_scan(p54c_slot_t *slot, int only_counted)
{
    skip_scan_t sc = {.slot = slot, .n = 0, .lost = 0,
                      .only_counted = only_counted, .first = 1};

    dl_iterate_phdr(skip_module, &sc);
    slot->nskip = sc.n;
    __atomic_store_n(&slot->skip_gen, slot->skip_gen + 1, __ATOMIC_RELEASE);
    return sc.lost;
}
