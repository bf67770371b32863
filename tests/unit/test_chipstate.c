/*
 * Unit tests for the chip's functional state every backend with shared
 * memory keeps (src/backends/common/chipstate.c): the layout for chips of
 * 1 to 48 cores and every UE count (regions in order, on pages, disjoint,
 * large enough), bad sizes refused with an error naming them and the
 * layout untouched; and, on a segment in this process, the power-on
 * state, TAS acquire and release, LUT entries, interrupt bookkeeping
 * (posted, lost when pending, taken in order, none while a handler
 * runs), dividers per tile, counters, voltages, MPB words and wait
 * conditions, each write followed by the backend's hook, and the console.
 */
#include "common/chipstate.h"

#include "rck/chip.h"
#include "rck/lut.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"

/* ---- errors: what a refused call writes on stderr ---- */

static char errbuf[4096];
static int saved_err = -1;
static FILE *errfile;

static void err_begin(void)
{
    fflush(stderr);
    errfile = tmpfile();
    saved_err = dup(STDERR_FILENO);
    dup2(fileno(errfile), STDERR_FILENO);
}

static const char *err_end(void)
{
    size_t n;

    fflush(stderr);
    dup2(saved_err, STDERR_FILENO);
    close(saved_err);
    rewind(errfile);
    n = fread(errbuf, 1, sizeof(errbuf) - 1, errfile);
    errbuf[n] = '\0';
    fclose(errfile);
    return errbuf;
}

/* ---- layout ---- */

static int aligned(uint64_t v)
{
    return v % RCK_CS_ALIGN == 0;
}

/* A backend's core struct with more than the state (as the sim's). */
typedef struct {
    struct {
        RCK_CS_CORE_FIELDS
    };
    uint64_t mine[9];
} __attribute__((aligned(64))) big_core_t;

static void check_layout(const rck_chip_t *c, int nues, size_t shm,
                         size_t hdr, const size_t *extra, int nextra)
{
    rck_cs_layout_t l;
    uint64_t prev;
    size_t core = nues % 2 ? sizeof(big_core_t) : 0;

    CHECK(rck_cs_layout(c, nues, shm, hdr, core, extra, nextra, &l) ==
          RCK_OK);
    CHECK(l.core_bytes == (core ? core : sizeof(rck_cs_core_t)));
    prev = hdr;
    for (int i = 0; i < nextra; i++) {
        CHECK(aligned(l.extra_off[i]));
        CHECK(l.extra_off[i] >= prev);
        prev = l.extra_off[i] + extra[i];
    }
    CHECK(aligned(l.cores_off) && l.cores_off >= prev);
    CHECK(aligned(l.counters_off));
    CHECK(l.counters_off >= l.cores_off + l.core_bytes * (uint64_t)c->ncores);
    CHECK(aligned(l.volts_off));
    CHECK(l.volts_off >= l.counters_off + 4 * (uint64_t)c->atomic_counters);
    CHECK(aligned(l.mpb_off));
    CHECK(l.mpb_off >= l.volts_off + 4 * (uint64_t)c->nislands);
    CHECK(aligned(l.shm_off));
    CHECK(l.shm_off >= l.mpb_off + (uint64_t)c->mpb_bytes * c->ncores);
    CHECK(aligned(l.shm_bytes) && l.shm_bytes >= shm &&
          l.shm_bytes < shm + RCK_CS_ALIGN);
    CHECK(l.seg_bytes == l.shm_off + l.shm_bytes);
}

static void test_layout_sizes(const rck_chip_t *scc)
{
    size_t extra[3] = {100, 0, 5000};

    /* the SCC with every UE count, with and without regions of its own */
    for (int nues = 1; nues <= scc->ncores; nues++) {
        check_layout(scc, nues, (size_t)64 << 20, 200, extra, 3);
        check_layout(scc, nues, 0, 1, NULL, 0);
    }
    /* chips of 1 to 48 cores (one per tile, or two) */
    for (int n = 1; n <= 48; n++) {
        rck_chip_t c = *scc;

        c.ncores = n;
        c.cores_per_tile = n % 2 == 0 ? 2 : 1;
        check_layout(&c, 1, 4096, 64, extra, 2);
        check_layout(&c, n, 12345, 64, extra, 3);
    }
    {
        rck_chip_t c = *scc;

        c.ncores = RCK_CHIP_MAX_CORES;
        c.cores_per_tile = 2;
        check_layout(&c, RCK_CHIP_MAX_CORES, 4096, 64, NULL, 0);
    }
}

/* A layout that must be refused: RCK_ERR_CONFIG (or INVALID), an error
 * naming @p word, the output untouched. */
static void check_refused_core(const rck_chip_t *c, int nues, size_t shm,
                               size_t hdr, size_t core, const size_t *extra,
                               int nextra, const char *word)
{
    rck_cs_layout_t l, before;
    rck_status_t st;
    const char *err;

    memset(&l, 0xab, sizeof(l));
    before = l;
    err_begin();
    st = rck_cs_layout(c, nues, shm, hdr, core, extra, nextra, &l);
    err = err_end();
    CHECK(st == RCK_ERR_CONFIG || st == RCK_ERR_INVALID);
    CHECK(memcmp(&l, &before, sizeof(l)) == 0);
    if (strstr(err, word) == NULL) {
        fprintf(stderr, "expected '%s' in the error, got: %s\n", word, err);
        failures++;
    }
}

static void check_refused(const rck_chip_t *c, int nues, size_t shm,
                          size_t hdr, const size_t *extra, int nextra,
                          const char *word)
{
    check_refused_core(c, nues, shm, hdr, 0, extra, nextra, word);
}

static void test_layout_refused(const rck_chip_t *scc)
{
    size_t extra[RCK_CS_MAX_EXTRAS + 1] = {0};
    size_t huge[1] = {(size_t)1 << 62};
    rck_chip_t c;

    check_refused(NULL, 1, 0, 64, NULL, 0, "no chip");
    c = *scc, c.ncores = 0;
    check_refused(&c, 1, 0, 64, NULL, 0, "0 cores");
    c = *scc, c.ncores = RCK_CHIP_MAX_CORES + 1;
    check_refused(&c, 1, 0, 64, NULL, 0, "cores");
    check_refused(scc, 0, 0, 64, NULL, 0, "0 UEs");
    check_refused(scc, scc->ncores + 1, 0, 64, NULL, 0, "49 UEs");
    check_refused(scc, -3, 0, 64, NULL, 0, "-3 UEs");
    c = *scc, c.atomic_counters = RCK_CS_MAX_COUNTERS + 1;
    check_refused(&c, 1, 0, 64, NULL, 0, "atomic counters");
    c = *scc, c.atomic_counters = -1;
    check_refused(&c, 1, 0, 64, NULL, 0, "atomic counters");
    c = *scc, c.nislands = 0;
    check_refused(&c, 1, 0, 64, NULL, 0, "voltage islands");
    c = *scc, c.nislands = RCK_CS_MAX_ISLANDS + 1;
    check_refused(&c, 1, 0, 64, NULL, 0, "voltage islands");
    c = *scc, c.mpb_bytes = 0;
    check_refused(&c, 1, 0, 64, NULL, 0, "MPB of 0 bytes");
    c = *scc, c.mpb_bytes = 100;
    check_refused(&c, 1, 0, 64, NULL, 0, "MPB of 100 bytes");
    c = *scc, c.cores_per_tile = 5;
    check_refused(&c, 1, 0, 64, NULL, 0, "whole tiles");
    check_refused(scc, 1, (size_t)1 << 60, 64, NULL, 0, "shared DRAM");
    check_refused(scc, 1, SIZE_MAX, 64, NULL, 0, "shared DRAM");
    check_refused(scc, 1, 0, 0, NULL, 0, "header of 0 bytes");
    check_refused(scc, 1, 0, 64, extra, RCK_CS_MAX_EXTRAS + 1, "regions");
    check_refused(scc, 1, 0, 64, extra, -1, "regions");
    check_refused(scc, 1, 0, 64, huge, 1, "region 0");
    check_refused_core(scc, 1, 0, 64, 64, NULL, 0, "a core's struct of 64");
    check_refused_core(scc, 1, 0, 64, sizeof(rck_cs_core_t) + 8, NULL, 0,
                       "a core's struct");
    /* each part fits, the whole does not */
    check_refused(scc, 1, ((size_t)1 << 46) - 4096, 64, NULL, 0,
                  "a segment of");
}

/* ---- the state in a segment of this process ---- */

typedef struct {
    rck_cs_t cs; /* first, as in every backend */
    int wrote[64], raised[64], counted;
} fake_t;

static void fake_wrote(rck_cs_t *cs, int core)
{
    ((fake_t *)(void *)cs)->wrote[core]++;
}

static void fake_raised(rck_hal_t *hal, int core)
{
    ((fake_t *)hal->backend)->raised[core]++;
}

static void fake_counted(rck_hal_t *hal)
{
    ((fake_t *)hal->backend)->counted++;
}

static const rck_cs_ops_t fake_ops = {
    .wrote = fake_wrote, .raised = fake_raised, .counted = fake_counted};

/* what the interrupt handler saw */
static int seen_kind[64], seen_src[64], nseen, nested_count = -1;

static void handler(rck_hal_t *hal, rck_irq_kind_t kind, int src, void *arg)
{
    (void)arg;
    if (nseen < 64) {
        seen_kind[nseen] = (int)kind;
        seen_src[nseen] = src;
    }
    nseen++;
    /* no handler runs inside a handler: a poll from here takes nothing */
    rck_cs_irq_poll(hal, &nested_count);
}

static void test_state(const rck_chip_t *chip)
{
    const size_t shm = (size_t)64 << 20;
    rck_cs_layout_t l;
    static fake_t f;
    rck_hal_t hal;
    void *seg;
    int got, n, v;
    uint32_t e, w;
    int32_t old;

    CHECK(rck_cs_layout(chip, chip->ncores, shm, 64, 0, NULL, 0, &l) ==
          RCK_OK);
    seg = aligned_alloc(RCK_CS_ALIGN, l.seg_bytes);
    CHECK(seg != NULL);
    if (seg == NULL)
        return;
    memset(seg, 0, l.seg_bytes);
    memset(&hal, 0, sizeof(hal));
    memset(&f, 0, sizeof(f));
    hal.chip = *chip;
    hal.core = 3;
    hal.backend = &f;
    rck_cs_view(&f.cs, seg, &l, chip, &fake_ops);
    rck_cs_init(&f.cs, chip);
    CHECK(rck_cs_of(&hal) == &f.cs);
    CHECK(f.cs.gic_words == 1);

    /* power-on */
    for (int c = 0; c < chip->ncores; c++) {
        int fd;
        CHECK(rck_cs_freq_get(&hal, c, &fd) == RCK_OK &&
              fd == chip->default_fdiv);
        for (int i = 0; i < RCK_CS_LUT_ENTRIES; i += 17) {
            CHECK(rck_cs_lut_read(&hal, c, i, &e) == RCK_OK);
            CHECK(e == rck_lut_default(chip, shm, c, i));
        }
        CHECK(!rck_cs_irq_pending(&f.cs, c));
    }
    for (int i = 0; i < chip->nislands; i++)
        CHECK(rck_cs_volt_get(&hal, i, &v) == RCK_OK &&
              v == rck_chip_start_mv(chip));

    /* TAS: one taker until released; the release wakes */
    {
        rck_hal_cond_t free_c = {.space = RCK_SPACE_TAS, .core = 7,
                                 .offset = 0, .mask = 1, .value = 0,
                                 .op = RCK_COND_EQ};
        CHECK(rck_cs_conds_check(&f.cs, &free_c, 1) == 0);
        CHECK(rck_cs_tas_try(&hal, 7, &got) == RCK_OK && got == 1);
        CHECK(rck_cs_conds_check(&f.cs, &free_c, 1) == -1);
        CHECK(rck_cs_tas_try(&hal, 7, &got) == RCK_OK && got == 0);
        CHECK(rck_cs_tas_try(&hal, 8, &got) == RCK_OK && got == 1);
        CHECK(f.wrote[7] == 0);
        CHECK(rck_cs_tas_release(&hal, 7) == RCK_OK);
        CHECK(f.wrote[7] == 1);
        CHECK(rck_cs_conds_check(&f.cs, &free_c, 1) == 0);
        CHECK(rck_cs_tas_try(&hal, 7, &got) == RCK_OK && got == 1);
        CHECK(rck_cs_tas_try(&hal, 8, &got) == RCK_OK && got == 0);
    }

    /* LUT: one entry of one core */
    CHECK(rck_cs_lut_write(&hal, 5, 200, 0x1234u) == RCK_OK);
    CHECK(rck_cs_lut_read(&hal, 5, 200, &e) == RCK_OK && e == 0x1234u);
    CHECK(rck_cs_lut_read(&hal, 4, 200, &e) == RCK_OK &&
          e == rck_lut_default(chip, shm, 4, 200));
    CHECK(rck_cs_lut_read(&hal, 5, 199, &e) == RCK_OK &&
          e == rck_lut_default(chip, shm, 5, 199));

    /* interrupts: posted, lost while pending, taken pin first then GIC by
     * sender, each raise waking the target */
    CHECK(rck_cs_irq_post(&f.cs, 3, 47, RCK_IRQ_GIC) == 0);
    CHECK(rck_cs_irq_pending(&f.cs, 3));
    CHECK(!rck_cs_irq_pending(&f.cs, 4));
    CHECK(rck_cs_irq_post(&f.cs, 3, 47, RCK_IRQ_GIC) == 1); /* lost */
    hal.core = 5;
    CHECK(rck_cs_irq_raise(&hal, 3, RCK_IRQ_GIC) == RCK_OK);
    hal.core = 0;
    CHECK(rck_cs_irq_raise(&hal, 3, RCK_IRQ_GIC) == RCK_OK);
    CHECK(rck_cs_irq_raise(&hal, 3, RCK_IRQ_PIN) == RCK_OK);
    CHECK(f.raised[3] == 3);
    CHECK(rck_cs_irq_post(&f.cs, 3, 0, RCK_IRQ_PIN) == 1); /* lost */
    hal.core = 3;
    /* no handler: nothing is taken */
    CHECK(rck_cs_irq_poll(&hal, &n) == RCK_OK && n == 0);
    CHECK(rck_cs_irq_pending(&f.cs, 3));
    hal.irq_handler = handler;
    CHECK(rck_cs_irq_poll(&hal, &n) == RCK_OK && n == 4);
    CHECK(nseen == 4);
    CHECK(seen_kind[0] == RCK_IRQ_PIN && seen_src[0] == -1);
    CHECK(seen_kind[1] == RCK_IRQ_GIC && seen_src[1] == 0);
    CHECK(seen_kind[2] == RCK_IRQ_GIC && seen_src[2] == 5);
    CHECK(seen_kind[3] == RCK_IRQ_GIC && seen_src[3] == 47);
    CHECK(nested_count == 0);
    CHECK(!rck_cs_irq_pending(&f.cs, 3));
    CHECK(rck_cs_irq_poll(&hal, &n) == RCK_OK && n == 0);
    /* a sender above 63 lands in its own word */
    {
        rck_chip_t big = *chip;
        rck_cs_t v2 = f.cs;

        big.ncores = 128;
        v2.gic_words = 2;
        CHECK(rck_cs_irq_post(&v2, 1, 100, RCK_IRQ_GIC) == 0);
        CHECK(!rck_cs_irq_pending(&f.cs, 1)); /* only 1 word in use */
        CHECK(rck_cs_irq_pending(&v2, 1));
        nseen = 0;
        f.cs.gic_words = 2;
        hal.core = 1;
        CHECK(rck_cs_irq_poll(&hal, &n) == RCK_OK && n == 1);
        CHECK(nseen == 1 && seen_src[0] == 100);
        f.cs.gic_words = 1;
        hal.core = 3;
        (void)big;
    }

    /* dividers: per tile */
    CHECK(rck_cs_freq_set(&hal, 7, 5) == RCK_OK);
    CHECK(rck_cs_freq_get(&hal, 6, &v) == RCK_OK && v == 5);
    CHECK(rck_cs_freq_get(&hal, 7, &v) == RCK_OK && v == 5);
    CHECK(rck_cs_freq_get(&hal, 8, &v) == RCK_OK && v == chip->default_fdiv);
    CHECK(rck_cs_freq_get(&hal, 5, &v) == RCK_OK && v == chip->default_fdiv);

    /* voltages, counters */
    CHECK(rck_cs_volt_set(&hal, 2, 900) == RCK_OK);
    CHECK(rck_cs_volt_get(&hal, 2, &v) == RCK_OK && v == 900);
    CHECK(rck_cs_volt_get(&hal, 1, &v) == RCK_OK &&
          v == rck_chip_start_mv(chip));
    CHECK(rck_cs_atomic_inc(&hal, 9, &old) == RCK_OK && old == 0);
    CHECK(rck_cs_atomic_inc(&hal, 9, &old) == RCK_OK && old == 1);
    CHECK(rck_cs_atomic_write(&hal, 9, -4) == RCK_OK);
    CHECK(rck_cs_atomic_read(&hal, 9, &old) == RCK_OK && old == -4);
    CHECK(rck_cs_atomic_read(&hal, 10, &old) == RCK_OK && old == 0);
    CHECK(f.counted == 3);

    /* MPB: data, words, flags, copies; every write wakes its core */
    {
        unsigned char msg[100], back[100];
        rck_hal_cond_t flag = {.space = RCK_SPACE_MPB, .core = 9,
                               .offset = 256, .mask = 0xff, .value = 1,
                               .op = RCK_COND_EQ};
        rck_hal_cond_t two[2] = {flag, flag};
        void *base;

        for (int i = 0; i < 100; i++)
            msg[i] = (unsigned char)(i * 7 + 1);
        memset(f.wrote, 0, sizeof(f.wrote));
        CHECK(rck_cs_mpb_write(&hal, 9, 64, msg, 100) == RCK_OK);
        CHECK(f.wrote[9] == 1);
        CHECK(rck_cs_mpb_read(&hal, 9, 64, back, 100) == RCK_OK);
        CHECK(memcmp(msg, back, 100) == 0);
        CHECK(rck_cs_mpb_map(&hal, 9, &base) == RCK_OK);
        CHECK((unsigned char *)base ==
              (unsigned char *)seg + l.mpb_off + 9 * chip->mpb_bytes);
        CHECK(memcmp((unsigned char *)base + 64, msg, 100) == 0);
        CHECK(rck_cs_conds_check(&f.cs, &flag, 1) == -1);
        CHECK(rck_cs_mpb_store32(&hal, 9, 256, 0x101) == RCK_OK);
        CHECK(rck_cs_conds_check(&f.cs, &flag, 1) == 0);
        two[0].value = 2;
        CHECK(rck_cs_conds_check(&f.cs, two, 2) == 1);
        two[0].op = RCK_COND_NE;
        CHECK(rck_cs_conds_check(&f.cs, two, 2) == 0);
        CHECK(rck_cs_mpb_load32(&hal, 9, 256, &w) == RCK_OK && w == 0x101);
        CHECK(rck_cs_mpb_copy(&hal, 10, 0, 9, 64, 100) == RCK_OK);
        CHECK(f.wrote[10] == 1);
        CHECK(rck_cs_mpb_read(&hal, 10, 0, back, 100) == RCK_OK);
        CHECK(memcmp(msg, back, 100) == 0);
        CHECK(rck_cs_mpb_write_flag(&hal, 11, 0, msg, 33, 64, 7) == RCK_OK);
        CHECK(f.wrote[11] == 1);
        CHECK(rck_cs_mpb_load32(&hal, 11, 64, &w) == RCK_OK && w == 7);
        CHECK(rck_cs_mpb_read(&hal, 11, 0, back, 33) == RCK_OK);
        CHECK(memcmp(msg, back, 33) == 0);
        /* other cores' MPBs untouched */
        CHECK(rck_cs_mpb_load32(&hal, 8, 256, &w) == RCK_OK && w == 0);
    }

    /* shared DRAM words as wait conditions */
    {
        rck_hal_cond_t c = {.space = RCK_SPACE_SHM, .core = 0,
                            .offset = 4096, .mask = ~0u, .value = 3,
                            .op = RCK_COND_EQ};
        void *base;
        size_t len;
        uint32_t three = 3, back = 0;

        CHECK(rck_cs_shm_map(&hal, &base, &len) == RCK_OK);
        CHECK(len == shm &&
              (unsigned char *)base == (unsigned char *)seg + l.shm_off);
        CHECK(rck_cs_conds_check(&f.cs, &c, 1) == -1);
        memcpy((unsigned char *)base + 4096, &three, 4);
        CHECK(rck_cs_conds_check(&f.cs, &c, 1) == 0);
        CHECK(rck_cs_shm_read(&hal, 4096, &back, 4) == RCK_OK && back == 3);
    }
    free(seg);
}

/* The effects step through a backend's bigger core struct and leave its
 * own fields alone. */
static void test_stride(const rck_chip_t *chip)
{
    rck_cs_layout_t l;
    static fake_t f;
    rck_hal_t hal;
    big_core_t *cores;
    void *seg;
    int got, v;
    uint32_t e;

    CHECK(rck_cs_layout(chip, 2, 4096, 64, sizeof(big_core_t), NULL, 0,
                        &l) == RCK_OK);
    seg = aligned_alloc(RCK_CS_ALIGN, l.seg_bytes);
    if (seg == NULL)
        return;
    memset(seg, 0, l.seg_bytes);
    memset(&hal, 0, sizeof(hal));
    memset(&f, 0, sizeof(f));
    hal.chip = *chip;
    hal.backend = &f;
    rck_cs_view(&f.cs, seg, &l, chip, &fake_ops);
    cores = (big_core_t *)(void *)((unsigned char *)seg + l.cores_off);
    for (int c = 0; c < chip->ncores; c++)
        for (int k = 0; k < 9; k++)
            cores[c].mine[k] = 0x5a5a5a5a5a5a5a5aull;
    rck_cs_init(&f.cs, chip);
    CHECK((void *)rck_cs_core(&f.cs, 5) == (void *)&cores[5]);
    CHECK(rck_cs_tas_try(&hal, 5, &got) == RCK_OK && got == 1);
    CHECK(atomic_load(&cores[5].tas) == 1 && atomic_load(&cores[4].tas) == 0);
    CHECK(rck_cs_lut_write(&hal, 47, 255, 77) == RCK_OK);
    CHECK(atomic_load(&cores[47].lut[255]) == 77);
    CHECK(rck_cs_lut_read(&hal, 47, 255, &e) == RCK_OK && e == 77);
    CHECK(rck_cs_freq_set(&hal, 46, 9) == RCK_OK);
    CHECK(cores[46].fdiv == 9 && cores[47].fdiv == 9);
    CHECK(rck_cs_freq_get(&hal, 45, &v) == RCK_OK && v == chip->default_fdiv);
    CHECK(rck_cs_irq_post(&f.cs, 20, 33, RCK_IRQ_GIC) == 0);
    CHECK(atomic_load(&cores[20].gic_pending[0]) == 1ull << 33);
    for (int c = 0; c < chip->ncores; c++)
        for (int k = 0; k < 9; k++)
            CHECK(cores[c].mine[k] == 0x5a5a5a5a5a5a5a5aull);
    free(seg);
}

/* The console: every byte, in order; a closed stdout is an I/O error. */
static void test_console(void)
{
    static char big[300000], back[300000];
    FILE *tmp = tmpfile();
    int saved = dup(STDOUT_FILENO);
    rck_hal_t hal;
    size_t n;

    memset(&hal, 0, sizeof(hal));
    for (size_t i = 0; i < sizeof(big); i++)
        big[i] = (char)('a' + i % 26);
    fflush(stdout);
    dup2(fileno(tmp), STDOUT_FILENO);
    CHECK(rck_cs_console_write(&hal, big, sizeof(big)) == RCK_OK);
    CHECK(rck_cs_console_write(&hal, "", 0) == RCK_OK);
    close(STDOUT_FILENO);
    CHECK(rck_cs_console_write(&hal, "x", 1) == RCK_ERR_IO);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    rewind(tmp);
    n = fread(back, 1, sizeof(back), tmp);
    CHECK(n == sizeof(big) && memcmp(big, back, n) == 0);
    fclose(tmp);
}

int main(void)
{
    static rck_chip_t scc;

    if (rck_chip_load_default(&scc) != RCK_OK) {
        fprintf(stderr, "cannot load the built-in chip\n");
        return 1;
    }
    CHECK(scc.ncores == 48 && scc.cores_per_tile == 2);
    test_layout_sizes(&scc);
    test_layout_refused(&scc);
    test_state(&scc);
    test_stride(&scc);
    test_console();
    if (failures == 0)
        printf("test_chipstate: ok\n");
    return failures != 0;
}
