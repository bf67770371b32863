/*
 * RCCE internals shared by the files of src/rcce.
 *
 * MPB layout of every UE (same offsets everywhere, because every UE makes
 * the same allocations in the same order):
 *   line 0                 spare line, written to push the WCB out
 *   WORLD gather, release  barrier flags
 *   sent[0..n-1], ready[0..n-1]   (non-gory shape only)
 *   communication buffer   the rest of the MPB but RCK_RCCE_FLAG_RESERVE
 *                          lines, kept for communicator flags (non-gory)
 * In the gory shape everything after the barrier flags is the program's,
 * through RCCE_malloc.
 *
 * A flag is a whole line (its first 32-bit word holds the value) or, with
 * SINGLEBITFLAGS, one bit of a line shared by up to 256 flags; writing a
 * bit flag of another UE is a read-modify-write under that UE's TAS lock.
 */
#ifndef RCK_RCCE_INTERNAL_H
#define RCK_RCCE_INTERNAL_H

#include "RCCE.h"
#include "RCCE_lib.h"
#include "rck/hal.h"
#include "rck/log.h"

#include <stdint.h>

#define RCK_RCCE_FLAG_MAGIC 0x52464c47u /* "RFLG" */
#define RCK_RCCE_MAX_BLOCKS 512
#define RCK_RCCE_BITS_PER_LINE 256
#define RCK_RCCE_MAX_BIT_LINES 2048
/* MPB lines the non-gory shape keeps for communicator flags (2 each). */
#define RCK_RCCE_FLAG_RESERVE 16

typedef struct {
    size_t off, len;
} rcce_block_t;

/** First-fit allocator over [0, size): sorted, coalesced free blocks. */
typedef struct {
    rcce_block_t *blocks;
    int nblocks, cap;
    size_t size;
    size_t align;
    /* allocated blocks, to validate frees */
    rcce_block_t *used;
    int nused, ucap;
} rcce_arena_t;

int rcce_arena_init(rcce_arena_t *a, size_t size, size_t align, int cap);
void rcce_arena_fini(rcce_arena_t *a);
/** @return 0 and *off on success, -1 when no block fits. */
int rcce_arena_alloc(rcce_arena_t *a, size_t len, size_t *off);
/** @return 0, or -1 if @p off is not the start of an allocated block. */
int rcce_arena_free(rcce_arena_t *a, size_t off);
size_t rcce_arena_largest(const rcce_arena_t *a);

/** The per-process RCCE state (one UE per process). */
typedef struct {
    rck_hal_t *hal;
    int initialized;
    int shape;
    int ue, nues;
    const int *ue_core;        /* physical core of each UE */
    uint32_t mpb_bytes, line;
    unsigned char *mpb_base;   /* this UE's MPB mapping (t_vcharp space) */

    rcce_arena_t mpb;          /* MPB space, line granularity */
    rcce_arena_t shm;          /* shared DRAM window */
    unsigned char *shm_base;
    size_t shm_len;

    /* single-bit flags: lines that hold bits, lowest free bit first (the
     * same choice on every UE, so bits agree everywhere) */
    struct {
        int line;              /* MPB offset */
        int nused;
        uint32_t used[RCK_RCCE_BITS_PER_LINE / 32];
    } bit_lines[RCK_RCCE_MAX_BIT_LINES];
    int nbit_lines;

    /* non-gory buffers */
    RCCE_FLAG *sent, *ready;   /* nues each */
    uint32_t combuf_off, combuf_len;

    int next_label;            /* communicators made so far */
    RCCE_REQUEST *power_req;   /* the power request in flight, or NULL */

    int debug;                 /* bitmask of enabled debug selectors */
    int64_t wait_timeout_ns;   /* < 0: forever */
    int coll;                  /* > 0 inside a collective (RCK_RCCE_FRAME_COLL) */
} rcce_t;

extern rcce_t rcce;
/* RCCE's library id (rcce_desc.c, rck/lib.h): its messages, and those of
 * RCCE_comm's collectives, are counted under it. */
extern int rck__rcce_lib;

/*
 * Word 1 of a whole-line sent flag frames the message the flag announces
 * (iRCCE writes its framing there, see src/ircce/ircce_internal.h): the
 * upper half RCK_RCCE_FRAME_MAGIC, the low bits the kind of transfer. A
 * message sent inside a collective (rcce.coll > 0) carries
 * RCK_RCCE_FRAME_COLL there, so that iRCCE's any-source receives and
 * probes pass it by: RCCE's collectives share the sent flags with point-
 * to-point messages, and without the mark an any-source receive takes the
 * collective message of a UE that is already one phase ahead (issue 9).
 * RCCE's own collective sends write RCK_RCCE_COLL_MARK (no length) before
 * the first piece's flag and clear the word once that piece is
 * acknowledged, as iRCCE does with its framing.
 */
#define RCK_RCCE_FRAME_MAGIC 0x69520000u
#define RCK_RCCE_FRAME_MASK 0xffff0000u
#define RCK_RCCE_FRAME_COLL 0x00008000u
#define RCK_RCCE_COLL_MARK (RCK_RCCE_FRAME_MAGIC | RCK_RCCE_FRAME_COLL | 1u)

/** Map a HAL status to an RCCE code, logging when debugging is on. */
int rcce_error(int selector, int code, const char *call, const char *fmt,
               ...) __attribute__((format(printf, 4, 5)));

/** @return non-zero if RCCE_init has run. */
int rcce_ready(const char *call);


/* flags */
int rcce_flag_alloc(RCCE_FLAG *flag);
int rcce_flag_free(RCCE_FLAG *flag);
int rcce_flag_check(const RCCE_FLAG *flag);
int rcce_flag_set(const RCCE_FLAG *flag, RCCE_FLAG_STATUS val, int ue);
int rcce_flag_get(const RCCE_FLAG *flag, RCCE_FLAG_STATUS *val, int ue);
/** Wait until the flag at UE @p ue equals @p val. */
int rcce_flag_wait(const RCCE_FLAG *flag, RCCE_FLAG_STATUS val, int ue);

/* Where a flag lives, for libraries layered on RCCE (iRCCE) that wait on
 * several flags at once: the byte offset of the 32-bit word that holds it
 * and the bits of that word that are the flag (all of them for a line
 * flag). */
static inline uint32_t rcce_flag_offset(const RCCE_FLAG *f)
{
    return (uint32_t)f->line + (f->bit < 0 ? 0 : (uint32_t)(f->bit / 32) * 4);
}

static inline uint32_t rcce_flag_bits(const RCCE_FLAG *f)
{
    return f->bit < 0 ? 0xffffffffu : 1u << (f->bit % 32);
}

/* One piece of a message, whole lines (a sub-line tail padded): copy
 * @p n bytes into this UE's MPB at @p combuf and push the WCB out; or copy
 * them out of @p core's MPB at @p combuf after CL1INVMB. */
int rcce_put_piece(const char *p, uint32_t combuf, size_t n);
int rcce_get_piece(char *p, uint32_t combuf, size_t n, int core);

/* point to point over (privbuf, combuf offset, chunk, flags) */
int rcce_send_general(const char *buf, uint32_t combuf, uint32_t chunk,
                      const RCCE_FLAG *ready, const RCCE_FLAG *sent,
                      size_t size, int dest);
int rcce_recv_general(char *buf, uint32_t combuf, uint32_t chunk,
                      const RCCE_FLAG *ready, const RCCE_FLAG *sent,
                      size_t size, int source, int *test);

/* reductions: bytes of one element of an RCCE type (0 if unknown), and
 * acc = acc op in element by element (the accumulated value on the left;
 * integer arithmetic wraps) */
size_t rcce_type_size(int type);
void rcce_combine(void *acc, const void *in, size_t num, int type, int op);

/* communicators */
int rcce_comm_init_world(void);
int rcce_comm_valid(const RCCE_COMM *comm);
/* frees what RCCE_comm_split kept alive for copies (RCCE_finalize) */
void rcce_comm_fini(void);
static inline int rcce_comm_member(const RCCE_COMM *comm, int rank)
{
    return comm->rck_members != NULL ? comm->rck_members[rank]
                                     : comm->member[rank];
}

/* shared memory and power (called from RCCE_init) */
int rcce_shm_init(void);
int rcce_power_init(void);

static inline int rcce_core_of(int ue)
{
    return rcce.ue_core[ue];
}

#endif
