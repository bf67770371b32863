/*
 * The P54C's caches as the compute model sees them (docs/P54C.md, "The
 * timing model"): L1 instruction and data caches, the unified L2 with
 * write-around, the L2 write port, the write-combine buffer for MPBT
 * lines, and shared DRAM by the core's mapping. One model, used by both
 * engines: the QEMU plugin (qemu/p54c_plugin.c) calls it for every access
 * QEMU shows it, the compiled engine (sim_p54c_mem.c) for every access
 * that the code rck-as instrumented could not settle inline.
 *
 * Owns: p54c_cache_*, p54c_mem_*. May call: nothing (plain C, no
 * rockcreek headers but the slot's ABI: the plugin is built against QEMU's
 * API only). Integer arithmetic only, and no library call on the access
 * paths: the compiled engine runs it between two instructions of the
 * program, with only the general registers saved (built with
 * -mgeneral-regs-only there).
 *
 * Invariants of the filters (compiled engine only; NULL in the plugin):
 * 256 words (the store filter P54C_FS_N, the fetch filter P54C_FI_N),
 * indexed by line & 255 (line & (P54C_FS_N - 1); the fetch filter by
 * address, below), holding a line's address (line << line_shift)
 * or P54C_FILT_EMPTY.
 *   fd[k] == L   => line L is the most recently used line of its L1D set
 *                   (a load of it changes nothing but the read count);
 *   fs[k] == L|f => line L is the most recently used line of its L2 set
 *                   and dirty there, and (f == 0) the most recently used
 *                   of its L1D set or (f == 1) not in L1D at all (a store
 *                   of it changes nothing but the counts and the write
 *                   port's timing);
 *   fi[k] == B ^ *fi_key => every line of the block of instructions that
 *                   starts at address B (indexed by B >> P54C_FI_SHIFT &
 *                   (P54C_FI_N - 1): bits 2-11, so that blocks less than
 *                   16 bytes apart do not share an entry) is the
 *                   most recently used of its L1I set. The block's lines
 *                   lie in distinct sets (else it gets no entry), and k is
 *                   listed in fi_ref[s] for each set s of its lines
 *                   (s = line & l1i.set_mask & 255): a change of set s's
 *                   most recently used line clears every entry listed
 *                   there (which may clear an entry that a later block
 *                   took over: harmless, it only costs a slow path). A
 *                   full list advances the epoch *fi_key instead (bits
 *                   47-63; the table is emptied when it wraps), which
 *                   outdates every entry at once, and empties the lists.
 * An L1D set has at most one store filter entry with f == 0 (its most
 * recently used line's): fs0[set] - 1 is the slot of the last one written
 * (0: none), so a change of the set's most recently used line finds it
 * without a search. That change does not drop it but holds it:
 *   fs[k] == L|P54C_FS_HELD => L is the most recently used line of its L2
 *                   set and dirty there, and in L1D but not its set's most
 *                   recently used (no check matches it: bit 63); it holds
 *                   with f == 0 again when L is its L1D set's most recently
 *                   used again, with f == 1 when L1D evicts L. A change of
 *                   L's L2 set clears it as any entry.
 * Every change of a set's most recently used line clears the entries that
 * no longer hold; only private memory enters the filters (shared DRAM and
 * MPB accesses always take the slow path, whose counts differ).
 */
#ifndef RCK_SIM_P54C_CACHE_H
#define RCK_SIM_P54C_CACHE_H

#include "p54c_abi.h"

#include <stddef.h>
#include <stdint.h>

#define P54C_FILT_N 256
#define P54C_FILT_EMPTY (~0ull)
#define P54C_FS_HELD (1ull << 63) /* a held store filter entry (below) */
#define P54C_FI_REFS 8 /* fetch filter entries listed per L1I set */

typedef struct {
    uint32_t sets, ways;
    uint64_t set_mask;  /* sets - 1 when sets is a power of two, else 0 */
    /* per entry, side by side (a set's tags and stamps share host cache
     * lines): [2e] its line + 1 (0 = empty), [2e + 1] its LRU stamp */
    uint64_t *tl;
    unsigned char *dirty;
    uint64_t clock;
    /* The entry stamped last, and its line + 1 (0: none). It holds the
     * cache's highest stamp, so another hit on it changes no LRU order:
     * the lookup returns it without searching or stamping (exact). */
    uint64_t mru;
    long mru_e;
} p54c_cache_t;

typedef struct {
    p54c_slot_t *s;               /* configuration, counts, ring */
    /* the counters that differ between the engines: the slot's (plugin)
     * or the compiled counters' page (compiled engine) */
    volatile uint64_t *units;     /* cycles x P54C_FIX */
    uint64_t *wr_free;            /* units: the L2 write port is free */
    uint64_t *last_dw;            /* DWORD the previous store ended in */
    uint64_t *l1d_reads, *l1d_writes;
    unsigned line_shift;
    p54c_cache_t l1i, l1d, l2;
    uint64_t wcb_line;            /* the write-combine buffer's line + 1 */
    uint64_t *fd, *fs, *fi;       /* the filters (header), or NULL */
    uint16_t *fs0;                /* per L1D set: its f == 0 store filter
                                     entry's slot + 1 (header), with fs */
    uint64_t *fi_key;             /* the fetch filter's epoch */
    int fi_sets;                  /* 1: the fetch filter by L1I set and
                                     blocks settled at their start; 0: an
                                     epoch at any change (the check of
                                     RCK_P54C_FETCH_SHORTCUTS=0) */
    uint64_t *blk;                /* the block whose segments were all
                                     settled at its start (P54C_CTR_BLK_OFF):
                                     0 at any change of L1I */
    /* the fetch filter's entries by L1I set (header) */
    uint8_t fi_nref[P54C_FILT_N];
    uint16_t fi_ref[P54C_FILT_N][P54C_FI_REFS];
} p54c_mem_t;

/* Bytes p54c_mem_init needs for the caches of slot @p s (0: bad
 * geometry). */
size_t p54c_mem_bytes(const p54c_slot_t *s);

/* Set up @p m for slot @p s with @p buf (p54c_mem_bytes(s) bytes, zeroed)
 * for the caches. The counter pointers start at the slot's own fields;
 * the compiled engine points them at its page afterwards. @return 0, or
 * -1 on a bad geometry. */
int p54c_mem_init(p54c_mem_t *m, p54c_slot_t *s, void *buf);

/* A load (@p store 0) or store of @p bytes bytes at @p va, as QEMU shows
 * one to a plugin. */
void p54c_mem_access(p54c_mem_t *m, uint64_t va, uint32_t bytes, int store);

/* An instruction fetch of lines @p first to @p last (inclusive). */
void p54c_mem_fetch(p54c_mem_t *m, uint64_t first, uint64_t last);

/* Enter the block of instructions that starts at address @p first and
 * spans lines @p l0 to @p l1, just fetched (p54c_mem_fetch), in the fetch
 * filter: every line of it is now its set's most recently used (compiled
 * engine; nothing without filters or when two of its lines share a set). */
void p54c_mem_fetch_note(p54c_mem_t *m, uint64_t first, uint64_t l0,
                         uint64_t l1);

/* The fetch of a block of @p n segments (@p seg: each one's first and
 * last byte) that starts at address @p first, at its start, if every line
 * of every segment is in L1I: then the segments' lines are fetched in
 * order (hits: the same as at each segment's own check, since data
 * accesses never touch L1I) and the block enters the fetch filter.
 * @return 1 if so, 0 if some line is not in L1I (nothing done). */
int p54c_mem_fetch_block(p54c_mem_t *m, uint64_t first,
                         const uint64_t (*seg)[2], unsigned n);

/* Drop every line (WBINVD: the HAL charged the write-backs from the
 * slot's l2_valid and l2_dirty). Calls memset: never from the compiled
 * engine's slow path. */
void p54c_mem_drop(p54c_mem_t *m);

/* @return 1 if @p m's caches can have filters (every cache a power of two
 * sets: the filters' upkeep finds a set's entries by mask). */
int p54c_mem_filterable(const p54c_mem_t *m);

/* Clear the filters (all entries empty). */
void p54c_mem_filters_clear(p54c_mem_t *m);

#endif
