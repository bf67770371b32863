/*
 * The P54C compute model (RCK_COMPUTE=p54c, p54c-fast): types kept in the
 * sim segment's header and in each core's sim_t. The functions are
 * declared in sim_p54c.h; the code is in
 * sim_p54c.c, the instrumentation in qemu/p54c_plugin.c (docs/P54C.md).
 */
#ifndef RCK_SIM_P54C_TYPES_H
#define RCK_SIM_P54C_TYPES_H

#include "p54c_abi.h"
#include "sim_tx.h"

#include <stdint.h>

#define SIM_P54C_PATH 1024

/* In the segment's header: resolved once by the launcher. */
typedef struct {
    int32_t fd;                /* memory file of the slots, -1: model off */
    uint32_t detailed;         /* p54c (1) or p54c-fast (0) */
    uint32_t engine;           /* P54C_ENGINE_QEMU or _COMPILED */
    uint32_t engine_forced;    /* RCK_P54C_ENGINE=compiled */
    uint32_t from_auto;        /* chosen by RCK_COMPUTE=auto */
    uint32_t from_script;      /* the launched file is a script: the
                                  program it starts is checked when it
                                  attaches (core_init_compiled) */
    uint32_t script_host;      /* cores whose program (auto, from a
                                  script) has no counters: host model */
    uint32_t pad;
    uint64_t slot_bytes;       /* page-aligned size of one slot */
    double cpi[P54C_NCLASS];   /* cycles per instruction of each class */
    uint32_t l1i_bytes, l1d_bytes, l1_ways, l2_bytes, l2_ways;
    uint32_t order;            /* book DRAM in time order (RCK_P54C_ORDER) */
    uint32_t book_others;      /* the token's holder takes the booking
                                  steps of stopped cores
                                  (RCK_P54C_BOOK_OTHERS) */
    uint64_t order_window;     /* ... up to this many ticks ahead */
    char qemu[SIM_P54C_PATH];  /* absolute path of qemu-x86_64 */
    char plugin[SIM_P54C_PATH];/* absolute path of librck_p54c.so */
    char libdir[SIM_P54C_PATH];/* the counted libraries (compiled engine),
                                  "" if none */
    char program[SIM_P54C_PATH];/* the job's program, resolved (compiled
                                   engine): found counted by the launcher */
} sim_p54c_job_t;

/* A core's port to memory for the program's own transactions, and its
 * transaction costs. It lives in the segment (sim_p54c_pend_t), so that
 * the token's holder can book for a core stopped in time order. */
typedef struct {
    uint64_t rd_next, wr_next, wr_done;
    /* Per controller, the transaction costs at the frequency divider
     * they were computed for (+1; 0: none yet): sim_cost_tx is floating
     * point, which the HAL runs under QEMU's soft float. */
    struct {
        int32_t fdiv1;
        int32_t pad;
        sim_tx_cost_t k[4];
    } cost[P54C_MAX_MC];
} sim_p54c_port_t;

struct sim_p54c_pend;

/* In each core's sim_t. */
typedef struct {
    p54c_slot_t *slot;         /* NULL: model off */
    /* the counters: the slot's (the plugin's) or the compiled ones' page */
    const volatile uint64_t *insns, *units;
    uint64_t mark_insns, mark_units; /* the counters at the last HAL exit */
    double carry;              /* fractional cycles not charged yet */
    /* the port and the slice being booked: in this core's sim_ue_t */
    struct sim_p54c_pend *pend;
    /* every core's slot, mapped at SIM_P54C_SLOTS_ADDR (to book for a
     * stopped core), or NULL */
    unsigned char *all_slots;
} sim_p54c_core_t;

/* One compute slice's DRAM transactions (the ring entries of the slot),
 * booked on the controllers in order (sim_p54c_book.c). The same code runs
 * in the core's HAL under QEMU, or natively inside the plugin when the HAL
 * calls through the gate (docs/P54C.md, "Native booking"), or in the
 * token holder's HAL for a core stopped in time order (sim_p54c_pend_t):
 * it touches only what these arguments point to, and gives the same
 * answer either way. */
typedef struct {
    /* ---- in ---- */
    p54c_slot_t *slot;         /* ring, lost entries; dram_tx, dram_ticks */
    sim_p54c_port_t *port;     /* the port, the costs (filled) */
    uint64_t mark;             /* the core's unit counter at the slice's
                                  start (the ring's stamps count from it) */
    void *mcs;                 /* the controllers (sim_mc_t[]); NULL: zero load */
    uint64_t vt0;              /* the slice's start (ticks) */
    uint64_t units;            /* the slice's length (1/P54C_FIX cycles) */
    uint64_t head;             /* ring entries written */
    uint32_t nmc, line_bytes;
    int32_t exact;             /* 1: the core runs at the chip's clock */
    int32_t tie_ok;            /* an entry at exactly `limit` may go */
    double core_mhz, mhz;      /* else: the chip's clock and the core's */
    uint64_t limit;            /* stop before an entry issued after this
                                  (another core may ask first) */
    uint64_t others;           /* the other cores' earliest clock: with
                                  each entry's own time, less the
                                  lookahead, the controllers' floor */
    uint64_t lookahead;
    /* ---- out ---- */
    int32_t stopped;           /* 1: stopped at an entry issued at stop_t;
                                  the slot's cursors say where */
    int32_t pad;
    uint64_t stop_t;
    uint64_t wait;             /* ticks the core waited for memory */
    uint64_t tx, uc_reads;     /* transactions; uncached reads among them */
    uint64_t route[P54C_MAX_MC][3]; /* per controller: transactions, bytes
                                       to it, bytes back (mesh links) */
} sim_p54c_book_t;

void sim_p54c_book(sim_p54c_book_t *b);

/* A core's booking in the segment (its sim_ue_t): whoever holds the run
 * token books the slice's next step, the core itself or, while it waits
 * stopped in time order, the holder (docs/P54C.md, "Booking in time
 * order"). The pointers in `b` are set by whoever books, to its own
 * mappings; the segment is at the same address in every core. */
enum { SIM_P54C_BOOK_IDLE = 0, SIM_P54C_BOOK_STOPPED = 1 };
typedef struct sim_p54c_pend {
    uint32_t state;            /* SIM_P54C_BOOK_*: STOPPED while the core
                                  waits for its turn at b.stop_t */
    uint32_t pad;
    sim_p54c_book_t b;
    sim_p54c_port_t port;
} sim_p54c_pend_t;

#endif
