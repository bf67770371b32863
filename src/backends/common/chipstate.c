/*
 * The chip's functional state (chipstate.h): its layout, its power-on
 * values, its effects and the slots built on them.
 */
#include "common/chipstate.h"

#include "rck/log.h"
#include "rck/lut.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

/* Larger segments than this are refused (the host's mappings are 47 bits;
 * every size below stays far from overflowing a uint64_t). */
#define RCK_CS_MAX_SEG (1ull << 46)

void rck_cs_nothing_core(rck_hal_t *hal, int core)
{
    (void)hal;
    (void)core;
}

void rck_cs_nothing(rck_hal_t *hal)
{
    (void)hal;
}

static uint64_t cs_align(uint64_t v)
{
    return (v + RCK_CS_ALIGN - 1) / RCK_CS_ALIGN * RCK_CS_ALIGN;
}

_Static_assert(sizeof(rck_cs_core_t) % 64 == 0,
               "a core's state is whole lines");

/* The chip's sizes the state can hold; logs what does not fit. */
static rck_status_t layout_check_chip(const rck_chip_t *chip, int nues)
{
    if (chip->ncores < 1 || chip->ncores > RCK_CHIP_MAX_CORES) {
        rck_error("chip state: the chip has %d cores; it holds 1 to %d",
                  chip->ncores, RCK_CHIP_MAX_CORES);
        return RCK_ERR_CONFIG;
    }
    if (nues < 1 || nues > chip->ncores) {
        rck_error("chip state: %d UEs on a chip of %d cores", nues,
                  chip->ncores);
        return RCK_ERR_CONFIG;
    }
    if (chip->atomic_counters < 0 ||
        chip->atomic_counters > RCK_CS_MAX_COUNTERS) {
        rck_error("chip state: the chip has %d atomic counters; it holds 0 "
                  "to %d",
                  chip->atomic_counters, RCK_CS_MAX_COUNTERS);
        return RCK_ERR_CONFIG;
    }
    if (chip->nislands < 1 || chip->nislands > RCK_CS_MAX_ISLANDS) {
        rck_error("chip state: the chip has %d voltage islands; it holds 1 "
                  "to %d",
                  chip->nislands, RCK_CS_MAX_ISLANDS);
        return RCK_ERR_CONFIG;
    }
    if (chip->cores_per_tile < 1 || chip->ncores % chip->cores_per_tile) {
        rck_error("chip state: %d cores are not whole tiles of %d",
                  chip->ncores, chip->cores_per_tile);
        return RCK_ERR_CONFIG;
    }
    if (chip->mpb_bytes < 64 || chip->mpb_bytes % 64 != 0 ||
        chip->mpb_bytes > (1u << 30)) {
        rck_error("chip state: an MPB of %u bytes; it must be whole 64-byte "
                  "lines, at most 1 GiB",
                  chip->mpb_bytes);
        return RCK_ERR_CONFIG;
    }
    return RCK_OK;
}

rck_status_t rck_cs_layout(const rck_chip_t *chip, int nues,
                           size_t shm_bytes, size_t hdr_bytes,
                           size_t core_bytes, const size_t *extra,
                           int nextra, rck_cs_layout_t *l)
{
    rck_cs_layout_t out;
    uint64_t off;
    rck_status_t st;

    if (chip == NULL || l == NULL || (nextra > 0 && extra == NULL)) {
        rck_error("chip state: no chip or no layout to fill");
        return RCK_ERR_INVALID;
    }
    st = layout_check_chip(chip, nues);
    if (st != RCK_OK)
        return st;
    if (nextra < 0 || nextra > RCK_CS_MAX_EXTRAS) {
        rck_error("chip state: %d regions of the backend's; it holds 0 to "
                  "%d",
                  nextra, RCK_CS_MAX_EXTRAS);
        return RCK_ERR_CONFIG;
    }
    if (hdr_bytes == 0 || hdr_bytes > RCK_CS_MAX_SEG) {
        rck_error("chip state: a header of %zu bytes", hdr_bytes);
        return RCK_ERR_CONFIG;
    }
    if (core_bytes == 0)
        core_bytes = sizeof(rck_cs_core_t);
    if (core_bytes < sizeof(rck_cs_core_t) || core_bytes % 64 != 0 ||
        core_bytes > (1u << 30)) {
        rck_error("chip state: a core's struct of %zu bytes; it must hold "
                  "the %zu of the state and be whole 64-byte lines",
                  core_bytes, sizeof(rck_cs_core_t));
        return RCK_ERR_CONFIG;
    }
    if (shm_bytes > RCK_CS_MAX_SEG) {
        rck_error("chip state: a shared DRAM window of %zu bytes; at most "
                  "%llu",
                  shm_bytes, (unsigned long long)RCK_CS_MAX_SEG);
        return RCK_ERR_CONFIG;
    }
    memset(&out, 0, sizeof(out));
    off = cs_align(hdr_bytes);
    for (int i = 0; i < nextra; i++) {
        if (extra[i] > RCK_CS_MAX_SEG) {
            rck_error("chip state: the backend's region %d of %zu bytes", i,
                      extra[i]);
            return RCK_ERR_CONFIG;
        }
        out.extra_off[i] = off;
        off += cs_align(extra[i]);
    }
    out.cores_off = off;
    out.core_bytes = core_bytes;
    off += cs_align(core_bytes * (uint64_t)chip->ncores);
    out.counters_off = off;
    off += cs_align(sizeof(int32_t) * (uint64_t)chip->atomic_counters);
    out.volts_off = off;
    off += cs_align(sizeof(uint32_t) * (uint64_t)chip->nislands);
    out.mpb_off = off;
    off += cs_align((uint64_t)chip->mpb_bytes * (uint64_t)chip->ncores);
    out.shm_off = off;
    out.shm_bytes = cs_align(shm_bytes);
    out.seg_bytes = off + out.shm_bytes;
    if (out.seg_bytes > RCK_CS_MAX_SEG) {
        rck_error("chip state: a segment of %llu bytes; at most %llu",
                  (unsigned long long)out.seg_bytes,
                  (unsigned long long)RCK_CS_MAX_SEG);
        return RCK_ERR_CONFIG;
    }
    *l = out;
    return RCK_OK;
}

void rck_cs_view(rck_cs_t *cs, void *seg, const rck_cs_layout_t *l,
                 const rck_chip_t *chip, const rck_cs_ops_t *ops)
{
    unsigned char *b = seg;

    cs->cores = b + l->cores_off;
    cs->core_bytes = l->core_bytes;
    cs->counters = (_Atomic int32_t *)(void *)(b + l->counters_off);
    cs->volts = (_Atomic uint32_t *)(void *)(b + l->volts_off);
    cs->mpb = b + l->mpb_off;
    cs->mpb_bytes = chip->mpb_bytes;
    cs->shm = b + l->shm_off;
    cs->shm_bytes = l->shm_bytes;
    cs->ncores = chip->ncores;
    cs->cores_per_tile = chip->cores_per_tile;
    cs->gic_words = (chip->ncores + 63) / 64;
    cs->in_handler = 0;
    cs->ops = ops;
}

void rck_cs_init(rck_cs_t *cs, const rck_chip_t *chip)
{
    for (int i = 0; i < chip->nislands; i++)
        atomic_store(&cs->volts[i], (uint32_t)rck_chip_start_mv(chip));
    for (int c = 0; c < chip->ncores; c++) {
        rck_cs_core_t *t = rck_cs_core(cs, c);

        atomic_store(&t->fdiv, (uint32_t)chip->default_fdiv);
        for (int i = 0; i < RCK_CS_LUT_ENTRIES; i++)
            atomic_store(&t->lut[i],
                         rck_lut_default(chip, cs->shm_bytes, c, i));
    }
}

int rck_cs_irq_post(rck_cs_t *cs, int core, int sender, rck_irq_kind_t kind)
{
    rck_cs_core_t *t = rck_cs_core(cs, core);

    if (kind == RCK_IRQ_PIN)
        return atomic_exchange(&t->irq_pin, 1) != 0;
    {
        uint64_t bit = 1ull << (sender % 64);
        return (atomic_fetch_or(&t->gic_pending[sender / 64], bit) & bit) !=
               0;
    }
}

int rck_cs_irq_take(rck_cs_t *cs, rck_hal_t *hal, int core)
{
    rck_cs_core_t *t = rck_cs_core(cs, core);
    int handled = 0;

    if (atomic_exchange(&t->irq_pin, 0)) {
        hal->irq_handler(hal, RCK_IRQ_PIN, -1, hal->irq_arg);
        handled++;
    }
    for (int w = 0; w < cs->gic_words; w++) {
        uint64_t bits;

        if (!atomic_load_explicit(&t->gic_pending[w], memory_order_relaxed))
            continue;
        bits = atomic_exchange(&t->gic_pending[w], 0);
        while (bits) {
            int b = __builtin_ctzll(bits);

            bits &= bits - 1;
            hal->irq_handler(hal, RCK_IRQ_GIC, w * 64 + b, hal->irq_arg);
            handled++;
        }
    }
    return handled;
}

/* ---- slots ---- */

rck_status_t rck_cs_mpb_map(rck_hal_t *hal, int core, void **base)
{
    *base = rck_cs_mpb_at(rck_cs_of(hal), core, 0);
    return RCK_OK;
}

rck_status_t rck_cs_mpb_write(rck_hal_t *hal, int core, uint32_t off,
                              const void *src, size_t len)
{
    return rck_cs_mpb_write_with(hal, core, off, src, len,
                                 rck_cs_of(hal)->ops->wrote);
}

rck_status_t rck_cs_mpb_read(rck_hal_t *hal, int core, uint32_t off,
                             void *dst, size_t len)
{
    atomic_thread_fence(memory_order_acquire);
    rck_copy(dst, rck_cs_mpb_at(rck_cs_of(hal), core, off), len);
    return RCK_OK;
}

rck_status_t rck_cs_mpb_copy(rck_hal_t *hal, int dst_core, uint32_t dst_off,
                             int src_core, uint32_t src_off, size_t len)
{
    return rck_cs_mpb_copy_with(hal, dst_core, dst_off, src_core, src_off,
                                len, rck_cs_of(hal)->ops->wrote);
}

rck_status_t rck_cs_mpb_store32(rck_hal_t *hal, int core, uint32_t off,
                                uint32_t value)
{
    return rck_cs_mpb_store32_with(hal, core, off, value,
                                   rck_cs_of(hal)->ops->wrote);
}

rck_status_t rck_cs_mpb_load32(rck_hal_t *hal, int core, uint32_t off,
                               uint32_t *value)
{
    *value = atomic_load_explicit(
        rck_cs_word(rck_cs_of(hal), RCK_SPACE_MPB, core, off),
        memory_order_acquire);
    return RCK_OK;
}

rck_status_t rck_cs_mpb_write_flag(rck_hal_t *hal, int core, uint32_t off,
                                   const void *src, size_t len,
                                   uint32_t flag_off, uint32_t flag)
{
    return rck_cs_mpb_write_flag_with(hal, core, off, src, len, flag_off,
                                      flag, rck_cs_of(hal)->ops->wrote);
}

void rck_cs_cl1invmb(rck_hal_t *hal)
{
    (void)hal;
    atomic_thread_fence(memory_order_acquire);
}

void rck_cs_wcb_flush(rck_hal_t *hal)
{
    (void)hal;
    atomic_thread_fence(memory_order_release);
}

rck_status_t rck_cs_tas_try(rck_hal_t *hal, int core, int *acquired)
{
    *acquired = rck_cs_tas_take(rck_cs_of(hal), core);
    return RCK_OK;
}

rck_status_t rck_cs_tas_release(rck_hal_t *hal, int core)
{
    return rck_cs_tas_release_with(hal, core, rck_cs_of(hal)->ops->wrote);
}

rck_status_t rck_cs_irq_raise(rck_hal_t *hal, int core, rck_irq_kind_t kind)
{
    rck_cs_t *cs = rck_cs_of(hal);

    if (rck_cs_irq_post(cs, core, hal->core, kind))
        rck_debug("interrupt %d -> %d lost: one is already pending",
                  hal->core, core);
    cs->ops->raised(hal, core);
    return RCK_OK;
}

rck_status_t rck_cs_irq_poll(rck_hal_t *hal, int *count)
{
    rck_cs_t *cs = rck_cs_of(hal);

    *count = 0;
    if (hal->irq_handler == NULL || cs->in_handler)
        return RCK_OK;
    cs->in_handler = 1;
    *count = rck_cs_irq_take(cs, hal, hal->core);
    cs->in_handler = 0;
    return RCK_OK;
}

rck_status_t rck_cs_atomic_inc(rck_hal_t *hal, int ctr, int32_t *old)
{
    rck_cs_t *cs = rck_cs_of(hal);

    cs->ops->counted(hal);
    *old = atomic_fetch_add(&cs->counters[ctr], 1);
    return RCK_OK;
}

rck_status_t rck_cs_atomic_read(rck_hal_t *hal, int ctr, int32_t *value)
{
    *value = atomic_load(&rck_cs_of(hal)->counters[ctr]);
    return RCK_OK;
}

rck_status_t rck_cs_atomic_write(rck_hal_t *hal, int ctr, int32_t value)
{
    rck_cs_t *cs = rck_cs_of(hal);

    cs->ops->counted(hal);
    atomic_store(&cs->counters[ctr], value);
    return RCK_OK;
}

rck_status_t rck_cs_lut_read(rck_hal_t *hal, int core, int idx,
                             uint32_t *entry)
{
    *entry = rck_cs_lut_get(rck_cs_of(hal), core, idx);
    return RCK_OK;
}

rck_status_t rck_cs_lut_write(rck_hal_t *hal, int core, int idx,
                              uint32_t entry)
{
    rck_cs_lut_set(rck_cs_of(hal), core, idx, entry);
    return RCK_OK;
}

rck_status_t rck_cs_freq_set(rck_hal_t *hal, int core, int fdiv)
{
    rck_cs_fdiv_set(rck_cs_of(hal), core, fdiv);
    return RCK_OK;
}

rck_status_t rck_cs_freq_get(rck_hal_t *hal, int core, int *fdiv)
{
    *fdiv = rck_cs_fdiv_get(rck_cs_of(hal), core);
    return RCK_OK;
}

rck_status_t rck_cs_volt_set(rck_hal_t *hal, int island, int mv)
{
    atomic_store(&rck_cs_of(hal)->volts[island], (uint32_t)mv);
    return RCK_OK;
}

rck_status_t rck_cs_volt_get(rck_hal_t *hal, int island, int *mv)
{
    *mv = (int)atomic_load(&rck_cs_of(hal)->volts[island]);
    return RCK_OK;
}

rck_status_t rck_cs_shm_map(rck_hal_t *hal, void **base, size_t *len)
{
    rck_cs_t *cs = rck_cs_of(hal);

    *base = cs->shm;
    *len = cs->shm_bytes;
    return RCK_OK;
}

rck_status_t rck_cs_shm_read(rck_hal_t *hal, size_t off, void *dst,
                             size_t len)
{
    atomic_thread_fence(memory_order_acquire);
    memcpy(dst, rck_cs_of(hal)->shm + off, len);
    return RCK_OK;
}

rck_status_t rck_cs_console_write(rck_hal_t *hal, const char *buf,
                                  size_t len)
{
    (void)hal;
    while (len > 0) {
        ssize_t w = write(STDOUT_FILENO, buf, len);

        if (w < 0) {
            if (errno == EINTR)
                continue;
            return RCK_ERR_IO;
        }
        buf += w;
        len -= (size_t)w;
    }
    return RCK_OK;
}
