/*
 * The P54C compute model's shared slot: one per UE, in a memory file the
 * launcher creates (sim_p54c.c) and both the instrumentation plugin
 * (qemu/p54c_plugin.c, inside the qemu-x86_64 process that runs the core)
 * and the core's HAL map. The launcher fills the configuration, the
 * plugin counts, the HAL reads the counts at every HAL call (docs/P54C.md).
 *
 * Plain C, no rockcreek headers: the plugin is built against QEMU's
 * plugin API only.
 */
#ifndef RCK_SIM_P54C_ABI_H
#define RCK_SIM_P54C_ABI_H

#include <stdint.h>

#define P54C_ABI_MAGIC 0x5035344341424941ull /* "P54CABIA": 10, the stack fields */
#define P54C_PLUGIN_MAGIC 0x50353443504c4731ull /* "P54CPLG1" */

/* Fixed point: the cycle counter counts units of 1/P54C_FIX cycle. */
#define P54C_FIX 16

/* The compiled counters (docs/P54C.md, "Compiled counters"): code built
 * by rckcc adds each block's instructions and cycles (at the default CPI
 * table, p54c_cpi.h) to two words of a page at this fixed address, which
 * librockcreek maps in every process before the program runs. Absolute
 * addresses below 2 GiB need no register and no relocation: the same add
 * works in executables (PIE or not) and shared libraries. */
#define P54C_CTR_ADDR 0x100000ull
#define P54C_CTR_MAGIC_OFF 0     /* P54C_CTR_MAGIC once librockcreek maps it */
#define P54C_CTR_INSNS_OFF 64    /* instructions */
#define P54C_CTR_UNITS_OFF 128   /* cycles x P54C_FIX */
#define P54C_CTR_MAGIC 0x31544e43494b4352ull /* "RCKICNT1" */
/* The compiled memory model (docs/P54C.md, "The compiled memory model";
 * code built with RCK_AS_MEM=1): more words of the same mapping, which is
 * P54C_CTR_PAGES pages long. Counters the blocks add to (static counts of
 * their modelled loads and stores), the two registers a check saves, the
 * slow paths' addresses, the store fast path's state, the filters
 * (p54c_cache.h: 256 words each, the store filter P54C_FS_N). */
#define P54C_CTR_PAGES 8
#define P54C_CTR_RD_OFF 0xc0      /* L1D reads the blocks counted */
#define P54C_CTR_WR_OFF 0x100     /* L1D writes the blocks counted */
#define P54C_CTR_SA_OFF 0x140     /* %rax saved by a check */
#define P54C_CTR_SC_OFF 0x148     /* %rcx saved by a check */
#define P54C_CTR_SD_OFF 0x150     /* a check's address, while it fetches */
#define P54C_CTR_SLOWD_OFF 0x180  /* the data slow path (address in %rax,
                                     kind in %ecx: P54C_MK_*) */
#define P54C_CTR_SLOWI_OFF 0x188  /* the fetch slow path (first byte in
                                     %rax, last byte in %rcx) */
#define P54C_CTR_SLOWB_OFF 0x190  /* the block fetch slow path (the
                                     block's first byte in %rax, its
                                     segment table in %rcx: P54C_BT_*) */
/* 0x198: the group slow path's word in layout version 1; unused since 2 */
#define P54C_CTR_LASTDW_OFF 0x1c0 /* the DWORD the last store ended in */
#define P54C_CTR_WRFREE_OFF 0x1c8 /* units: the L2 write port is free */
#define P54C_CTR_L2S_OFF 0x1d0    /* units the port is busy per DWORD */
#define P54C_CTR_L1DMISS_OFF 0x1d8/* L1D misses of fast-path stores */
#define P54C_CTR_FIKEY_OFF 0x1e0  /* the fetch filter's epoch (bits 47-63) */
#define P54C_CTR_BLK_OFF 0x1e8    /* the block whose every segment's lines
                                     were settled at its start (its first
                                     byte; 0: none): its later segments
                                     skip their fetch checks */
/* A group of loads checked once (rck-as, docs/P54C-COUNTERS.md "Groups
 * of loads"): a leader load and the loads of the next memory instructions
 * of its block, settled at the leader when all lie in lines the load
 * filter settles and the block's fetches are settled (P54C_CTR_BLK_OFF
 * names the block); else the code after the probes runs each one's check
 * in order. Words 0x200-0x2af held a failed group's elements for the
 * group slow path in layout version 1; unused since 2. */
#define P54C_GRP_MAX 7            /* elements (accesses) of a group */
#define P54C_CTR_FD_OFF 0x1000    /* filter: loads */
#define P54C_CTR_FS_OFF 0x4000    /* filter: stores, P54C_FS_N words
                                     (indexed by line & (P54C_FS_N - 1)) */
#define P54C_FS_N 2048
#define P54C_CTR_FI_OFF 0x2000    /* filter: blocks fetched (by address),
                                     P54C_FI_N words indexed by
                                     (first byte >> P54C_FI_SHIFT) &
                                     (P54C_FI_N - 1) */
#define P54C_FI_N 1024
#define P54C_FI_SHIFT 2
/* A block's segment table (rck-as, section .rodata.rck_blk, 4-byte
 * words): the number of segments, then for each its first and last byte,
 * each as its distance from the word that holds it (.long x - .). */
#define P54C_BT_MAXSEG 64
/* The layout of the page's words the memory checks use (the offsets,
 * filters and slow-path words above, the group words, the kinds): rck-as
 * puts it in a note of every object it checks (one per linked module: a
 * COMDAT group per version), and librockcreek refuses to run a module
 * whose note names another (sim_p54c_layout_check): a checked program
 * built by another rck-as would jump through a word its library never
 * set. Add 1 whenever a word's meaning or place changes. Version 1 is the
 * layout with groups of loads (2026-11-28; earlier rck-as wrote no note),
 * 2 the store filter of P54C_FS_N words at 0x4000 (8 pages), 3 the fetch
 * filter of P54C_FI_N words by bits 2-11 of the block's first byte (it
 * was 256 words by bits 4-11). */
#define P54C_LAYOUT_VERSION 3u
#define P54C_LAYOUT_NOTE_NAME "RCKP54C"   /* the note's name (8 bytes with
                                             its NUL) */
#define P54C_LAYOUT_NOTE_TYPE 0x4c415931u /* "1YAL": desc = uint32 version */
#define P54C_LAYOUT_NOTE_SECTION ".note.rck_p54c_layout"
/* A record's flags word (after the units), and its bits. */
#define P54C_CTR_FLAGS_OFF 52
#define P54C_CTR_FLAG_MEM 1u      /* memory accesses instrumented */
/* Kinds the data slow path takes in %ecx: the size in bytes, with */
#define P54C_MK_STORE 0x100       /* a store (else a load) */
#define P54C_MK_REP 0x200         /* a rep string instruction: the size is
                                     one iteration's; op in bits 12-13 */
#define P54C_MK_OP_SHIFT 12
enum { P54C_MK_MOVS = 1, P54C_MK_STOS = 2, P54C_MK_LODS = 3 };

/* ... in rockcreek's own libraries above the HAL (RCK_AS_LIBRARY=1) */
#define P54C_CTR_MAGIC_LIB 0x4c544e43494b4352ull /* "RCKICNTL" */
/* Every instrumented object carries a record in this section: the magic,
 * then the P54C_NCLASS units per class it was built with (uint32 each),
 * zero-padded to P54C_CTR_REC bytes. */
#define P54C_CTR_SECTION ".rck_icount"
#define P54C_CTR_REC 64

/* Who counts a core's instructions (the slot's engine). */
#define P54C_ENGINE_QEMU 0     /* the plugin, in the slot */
#define P54C_ENGINE_COMPILED 1 /* the program itself, in the page above */

/* Instruction classes of the CPI table (docs/P54C.md). */
enum {
    P54C_C_INT = 0,   /* simple integer ALU, register or immediate */
    P54C_C_MEM,       /* integer with a memory operand (load/store/RMW) */
    P54C_C_BRANCH,    /* jumps, calls, returns */
    P54C_C_MUL,       /* integer multiply */
    P54C_C_DIV,       /* integer divide */
    P54C_C_FADD,      /* x87/SSE add, sub, compare, convert, move */
    P54C_C_FMUL,      /* x87/SSE multiply */
    P54C_C_FDIV,      /* x87/SSE divide */
    P54C_C_FSQRT,     /* x87/SSE square root */
    P54C_C_STRING,    /* rep string instructions, per instruction */
    P54C_C_OTHER,     /* system, atomics (lock), cpuid, everything else */
    P54C_NCLASS
};

/* DRAM transactions the plugin hands to the HAL (ring entries). */
enum {
    P54C_TX_FILL = 0,   /* L2 miss: a line as 8 DWORD reads */
    P54C_TX_WRITE = 1,  /* write-around store: one DWORD write */
    P54C_TX_WB = 2,     /* L2 dirty line written back */
    P54C_TX_UC_READ = 3,/* uncached DWORD read (shared DRAM) */
    P54C_TX_LINE_READ = 4,/* MPBT line read into L1 (shared DRAM, L2 bypassed) */
    P54C_TX_WCB = 5,    /* the write-combine buffer's line written out (a
                           store to MPBT memory went to another line): the
                           store waits until the previous write is done */
    P54C_TX_NKIND = 6
};

/* entry = units << 16 | kind << 8 | controller */
#define P54C_RING 16384u
#define P54C_MAX_MC 8
/* Code ranges the plugin neither counts nor models (p54c_slot_t.skip). */
#define P54C_SKIP_MAX 64
/* The section that holds the simulator's own code (cmake/base_text.sh). */
#define P54C_BASE_SECTION "rck_base_text"

/* Ranges of shared DRAM with their mapping (rck_hal_shm_set_map) the
 * plugin follows; more are counted in map_lost and taken as uncached. */
#define P54C_MAP_MAX 32

typedef struct {
    uint64_t off, len;        /* bytes into the shared-DRAM window */
    int32_t type;             /* rck_map_t: 0 uncached, 1 MPBT, 2 cached */
    int32_t mc;               /* controller, -1: interleaved by 16 MiB */
} p54c_map_t;

typedef struct {
    /* ---- configuration: the launcher ---- */
    uint64_t magic;            /* P54C_ABI_MAGIC */
    uint32_t detailed;         /* 1: caches and DRAM; 0: CPI only */
    uint32_t engine;           /* P54C_ENGINE_*: who counts */
    uint32_t pad2;
    uint32_t line_bytes;       /* 32 */
    uint32_t l1i_bytes, l1d_bytes, l1_ways;
    uint32_t l2_bytes, l2_ways;
    uint32_t nmc;              /* controllers; private memory uses home_mc */
    uint32_t home_mc;          /* the core's nearest controller */
    uint32_t cpi[P54C_NCLASS]; /* units per instruction of each class */
    uint32_t l2_fill;          /* units: an L1 line fill from L2 */
    uint32_t l2_store;         /* units the L2 write port is busy per store */
    /* ---- regions: the HAL (at attach) ---- */
    uint64_t shm_base, shm_len; /* shared DRAM window: uncached DWORDs */
    uint64_t mpb_base, mpb_len; /* MPBs through mpb_map: not modelled */
    uint32_t nmap, map_lost;    /* shm_set_map ranges (HAL, in its calls) */
    p54c_map_t map[P54C_MAP_MAX];
    /* ---- written by the plugin ---- */
    uint64_t plugin;           /* P54C_PLUGIN_MAGIC once it is installed */
    volatile uint32_t in_hal;  /* the HAL sets it while inside a call */
    volatile uint64_t flush_req; /* the HAL adds 1: drop the caches (WBINVD) */
    uint32_t pad0;
    uint64_t insns;            /* instructions (inline add per block) */
    uint64_t units;            /* cycles x P54C_FIX: CPI + cache stalls */
    uint64_t l1d_reads, l1d_writes, l1d_misses, l1i_misses;
    uint64_t l2_hits, l2_misses, l2_writebacks, write_arounds;
    uint64_t shm_accesses;
    uint64_t merged_stores;    /* stores within the previous one's DWORD */
    uint64_t l2_valid, l2_dirty; /* lines the L2 holds, of them dirty */
    uint64_t wr_free;          /* units: the L2 write port is free */
    uint64_t head;             /* ring entries written (monotonic) */
    uint64_t tail;             /* ring entries consumed by the HAL */
    uint64_t lost[P54C_TX_NKIND][P54C_MAX_MC]; /* ring full: counted only */
    uint64_t ring[P54C_RING];
    /* ---- the gate (sim_p54c.c, docs/P54C.md "Native booking") ---- */
    uint64_t self;             /* HAL: this slot's address in the core */
    uint64_t gate_pc;          /* HAL: the gate function's address, 0: off */
    uint64_t gate_arg;         /* HAL: the sim_p54c_book_t of this call */
    volatile uint32_t gate_ok; /* plugin: the core's addresses are its own */
    uint32_t pad1;
    volatile uint64_t gate_done; /* plugin: calls it booked natively */
    /* ---- the compiled memory model's slow paths (HAL): code the plugin
     * neither counts nor models, [skip_lo, skip_hi) ---- */
    uint64_t skip_lo, skip_hi;
    /* ---- code that is not the program's (HAL, at attach; docs/P54C.md
     * "What QEMU counts"): the simulator's own section (rck_base_text),
     * the PLT stubs of every loaded module, and for a counted program the
     * modules without counters (RCK_P54C_QEMU_COUNTS), [lo, hi) each. The HAL
     * writes the ranges, then nskip, then adds 1 to skip_gen; the plugin
     * drops its translations when skip_gen changes ---- */
    uint32_t nskip;
    volatile uint32_t skip_gen;
    uint64_t skip[P54C_SKIP_MAX][2];
    uint8_t skip_base[P54C_SKIP_MAX]; /* 1: the simulator's own section */
    /* ---- written by the HAL, read by the report ---- */
    uint64_t dram_tx[P54C_MAX_MC];
    uint64_t dram_ticks[P54C_MAX_MC]; /* ticks the core waited, by MC */
    uint64_t charged_insns;    /* instructions charged as compute */
    uint64_t charged_ticks;    /* compute ticks charged (incl. DRAM) */
    /* ---- the LUT window (the HAL, at every remap; docs/LUT.md): what
     * each 16 MiB slot from win_base shows ---- */
    uint64_t win_base;         /* 0: no window */
    uint8_t win_kind[256];     /* P54C_WIN_* */
    uint8_t win_mc[256];       /* DRAM: its controller */
    uint16_t win_page[256];    /* SHARED: its page of the shared window */
    /* ---- the program's stack under QEMU (the HAL, at attach, before
     * skip_gen changes; 0s: leave it where it is; docs/P54C.md "The stack
     * under QEMU"): its mapping [stack_lo, stack_hi), the main program's
     * load bias and the number of entries of the auxiliary vector qemu
     * gave it (AT_NULL included); the plugin moves the stack's accesses to
     * where Linux puts the stack of the same program ---- */
    uint64_t stack_lo, stack_hi, stack_bias;
    uint32_t stack_auxv, pad3;
} p54c_slot_t;

/* What a LUT window slot shows, for the caches: a DRAM page (private
 * memory, cached, on win_mc), a page of the shared window (timed as the
 * shared window at that page), or nothing the model times (an MPB, as
 * through mpb_map; a CRB; an empty entry). */
enum { P54C_WIN_NONE = 0, P54C_WIN_DRAM = 1, P54C_WIN_SHARED = 2 };
#define P54C_WIN_SLOT_SHIFT 24
#define P54C_WIN_BYTES (256ull << P54C_WIN_SLOT_SHIFT)

#endif
