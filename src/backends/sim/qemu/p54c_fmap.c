/*
 * The fetch maps of checked code for the QEMU engine (docs/P54C.md, "Fetch
 * at the unchecked addresses"): code built with rckcc -rck-mem runs its
 * program's instructions spread out by the memory checks; the chip ran
 * them unchecked. rck-as writes each module's map (section
 * P54C_FMAP_SECTION: where each segment of the program's instructions
 * lies in the checked code and in the shadow, the unchecked layout), and
 * the compiled engine fetches at the shadow's addresses. So does the
 * plugin, through this file: a module's map is read from its file the
 * first time a block of it is translated (the module found in
 * /proc/self/maps, whose addresses are the guest's when QEMU maps the
 * guest at guest base 0: checked against the block's bytes in the file,
 * else the module is left unmapped and fetched where it runs).
 */
#include "p54c_fmap.h"

#include "p54c_classify.h"
#include "../p54c_elf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint64_t sa, slen, ua, ulen;
} fmap_ent_t;

typedef struct {
    uint64_t lo, hi;   /* the module's (or an unmapped region's) range */
    fmap_ent_t *e;
    size_t n;
} fmap_mod_t;

static fmap_mod_t *mods;
static size_t nmods, capmods;

static int ent_cmp(const void *a, const void *b)
{
    const fmap_ent_t *x = a, *y = b;
    return x->sa < y->sa ? -1 : x->sa > y->sa;
}

static fmap_mod_t *mod_add(uint64_t lo, uint64_t hi)
{
    if (nmods == capmods) {
        size_t c = capmods ? capmods * 2 : 16;
        fmap_mod_t *m = realloc(mods, c * sizeof(*m));
        if (m == NULL)
            return NULL;
        mods = m;
        capmods = c;
    }
    fmap_mod_t *m = &mods[nmods++];
    m->lo = lo;
    m->hi = hi;
    m->e = NULL;
    m->n = 0;
    return m;
}

/* The map of the ELF file @p path mapped at @p start from file offset
 * @p off, into @p m; the block's bytes @p b (@p bn) at guest address
 * @p va must be the file's there. */
static void mod_read(fmap_mod_t *m, const char *path, uint64_t start,
                     uint64_t off, uint64_t va, const uint8_t *b, size_t bn)
{
    p54c_elf_t e;
    Elf64_Phdr *ph = NULL;
    uint8_t *data = NULL, *chk = NULL;

    if (p54c_elf_open(&e, path) != 0)
        return;
    const Elf64_Ehdr *eh = &e.eh;
    if (eh->e_phentsize != sizeof(Elf64_Phdr) || eh->e_phnum == 0)
        goto out;
    ph = calloc(eh->e_phnum, sizeof(*ph));
    if (ph == NULL ||
        p54c_elf_pread(&e, ph, (size_t)eh->e_phnum * sizeof(*ph),
                       eh->e_phoff))
        goto out;
    /* the load bias: the segment that holds file offset `off` */
    uint64_t bias = 0;
    int found = 0;
    for (unsigned i = 0; i < eh->e_phnum && !found; i++)
        if (ph[i].p_type == PT_LOAD && off >= (ph[i].p_offset & ~4095ull) &&
            off < ph[i].p_offset + ph[i].p_filesz) {
            bias = start + (ph[i].p_offset - off) - ph[i].p_vaddr;
            found = 1;
        }
    if (!found)
        goto out;
    /* the block's bytes must be the file's: else these are not the
     * guest's addresses */
    for (unsigned i = 0; i < eh->e_phnum; i++) {
        uint64_t v = va - bias;
        if (ph[i].p_type != PT_LOAD || v < ph[i].p_vaddr ||
            v + bn > ph[i].p_vaddr + ph[i].p_filesz)
            continue;
        chk = malloc(bn ? bn : 1);
        if (chk == NULL ||
            p54c_elf_pread(&e, chk, bn, ph[i].p_offset + (v - ph[i].p_vaddr)) ||
            memcmp(chk, b, bn) != 0)
            goto out;
        found = 2;
        break;
    }
    if (found != 2)
        goto out;
    for (unsigned i = 0; i < eh->e_shnum; i++) {
        const Elf64_Shdr *sh = &e.sh[i];
        const char *name = p54c_elf_name(&e, i);

        if (name == NULL || strcmp(name, P54C_FMAP_SECTION) != 0 ||
            sh->sh_type != SHT_PROGBITS || sh->sh_size > (1u << 30))
            continue;
        size_t n = sh->sh_size / P54C_FMAP_ENTRY;
        data = malloc(sh->sh_size ? sh->sh_size : 1);
        m->e = calloc(n ? n : 1, sizeof(*m->e));
        if (data == NULL || m->e == NULL ||
            p54c_elf_pread(&e, data, sh->sh_size, sh->sh_offset)) {
            free(m->e);
            m->e = NULL;
            goto out;
        }
        for (size_t k = 0; k < n; k++) {
            int32_t w[4];
            uint64_t at = bias + sh->sh_addr + k * P54C_FMAP_ENTRY;
            memcpy(w, data + k * P54C_FMAP_ENTRY, sizeof(w));
            m->e[k].sa = at + (int64_t)w[0];
            m->e[k].slen = (uint32_t)w[1];
            m->e[k].ua = at + 8 + (int64_t)w[2];
            m->e[k].ulen = (uint32_t)w[3];
        }
        qsort(m->e, n, sizeof(*m->e), ent_cmp);
        m->n = n;
        break;
    }
out:
    free(chk);
    free(data);
    free(ph);
    p54c_elf_close(&e);
}

/* The module (or unmapped region) that holds @p va, read on first use. */
static fmap_mod_t *mod_of(uint64_t va, const uint8_t *b, size_t bn)
{
    for (size_t i = 0; i < nmods; i++)
        if (va >= mods[i].lo && va < mods[i].hi)
            return &mods[i];
    FILE *fp = fopen("/proc/self/maps", "r");
    char line[4096], path[4096] = "";
    uint64_t lo = va & ~4095ull, hi = lo + 4096, start = 0, off = 0;
    int have = 0;

    if (fp != NULL) {
        /* the run of consecutive mappings of one file that holds va (the
         * same file may be mapped for QEMU itself too: the host's ld.so) */
        uint64_t glo = 0, ghi = 0, gstart = 0, goff = 0;
        char gpath[4096] = "";
        int ghas = 0;
        while (fgets(line, sizeof(line), fp)) {
            unsigned long long s, e, o;
            char p[4096] = "";
            if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %4095s", &s, &e,
                       &o, p) < 3)
                continue;
            if (p[0] == '\0' && ghi == s && gpath[0] != '\0') {
                ghi = e; /* a gap reserved inside a module */
                continue;
            }
            if (strcmp(p, gpath) != 0 || s != ghi) {
                if (ghas)
                    break;
                strcpy(gpath, p);
                glo = s;
                gstart = 0;
            }
            ghi = e;
            if (va >= s && va < e && p[0] == '/') {
                gstart = s;
                goff = o;
                ghas = 1;
            }
        }
        if (ghas) {
            strcpy(path, gpath);
            lo = glo;
            hi = ghi;
            start = gstart;
            off = goff;
            have = 1;
        }
        fclose(fp);
    }
    fmap_mod_t *m = mod_add(lo, hi);
    if (m != NULL && have)
        mod_read(m, path, start, off, va, b, bn);
    if (m != NULL && getenv("RCK_P54C_FMAPDEBUG") != NULL)
        fprintf(stderr, "rck p54c plugin: %#llx: %s [%#llx, %#llx): %zu "
                "fetch map entries\n", (unsigned long long)va,
                have ? path : "no file", (unsigned long long)lo,
                (unsigned long long)hi, m->n);
    return m;
}

int p54c_fmap_checked(uint64_t va, size_t sz, const uint8_t *b)
{
    const fmap_mod_t *m = mod_of(va, b, sz);
    return m != NULL && m->n > 0;
}

int p54c_fmap_lookup(uint64_t va, size_t sz, const uint8_t *b,
                     uint64_t *lo, uint64_t *hi)
{
    fmap_mod_t *m = mod_of(va, b, sz);
    if (m == NULL || m->n == 0)
        return 0;
    size_t a = 0, z = m->n;
    while (z - a > 1) { /* the last entry starting at or before va */
        size_t mid = (a + z) / 2;
        if (m->e[mid].sa <= va)
            a = mid;
        else
            z = mid;
    }
    const fmap_ent_t *e = &m->e[a];
    if (va < e->sa || va - e->sa >= e->slen || e->ulen == 0)
        return 0;
    uint64_t d = va - e->sa;
    if (d >= e->ulen)
        d = e->ulen - 1;
    uint64_t end = d + sz > e->ulen ? e->ulen : d + sz;
    *lo = e->ua + d;
    *hi = e->ua + end;
    return 1;
}
