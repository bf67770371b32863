/*
 * The mpi backend's plugin, shared by its files (mpi_rma.c: the remote
 * primitives and the wake-up, at the bottom; mpi.c: MPB, TAS, memory,
 * clocks and the ops table, at the top; mpi_attach.c: attach and
 * detach; mpi_wait.c: interrupts and waits; mpi_node.c: the same on one
 * node, in shared memory). The protocol every file
 * keeps is described at the top of mpi.c.
 */
#ifndef RCK_MPI_PRIV_H
#define RCK_MPI_PRIV_H

#include "mpi/mpi_backend.h"
#include "common/backend.h"
#include "common/chipstate.h"
#include "common/seg.h"
#include "mpi/mpi_settings.h"

#include "rck/config.h"
#include "rck/log.h"
#include "rck/lutwin.h"

#include <mpi.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define MPI_MAX_ISLANDS 256
#define MPI_MAX_COUNTERS 4096

enum { TAG_WAKE = 1 };

/* RMA path: state words of a core block, byte offsets after the MPB (the
 * on-node path keeps the common chip state instead, common/chipstate.h). */
enum {
    ST_TAS = 0,   /* 0 free, 1 taken */
    ST_WAKE = 4,  /* 1: may be blocked for a wake message */
    ST_PIN = 8,   /* pending configuration-register interrupt */
    ST_FDIV = 12, /* the tile's frequency divider */
    ST_GIC = 64,  /* pending GIC interrupts: one bit per sender */
    ST_LUT = ST_GIC + RCK_CHIP_MAX_CORES / 8,
    ST_BYTES = ST_LUT + 256 * 4
};
#define GIC_WORDS (RCK_CHIP_MAX_CORES / 32)

/* On-node path (mpi_node.c): the segment's header and how each core waits
 * (a region of the backend's own in the chip state's layout). */
typedef struct {
    _Atomic uint32_t any_bell;    /* the node's doorbell */
    _Atomic uint32_t any_waiters; /* and its sleepers */
} mpi_node_hdr_t;
typedef struct {
    _Atomic uint32_t bell;        /* the core's doorbell */
    _Atomic uint32_t waiters;     /* sleepers on it */
} __attribute__((aligned(64))) mpi_node_wait_t;

typedef struct {
    rck_cs_t cs;           /* on-node path: the chip's state (first: its
                              slots find it through hal->backend) */
    MPI_Comm comm;         /* a duplicate of MPI_COMM_WORLD */
    MPI_Comm node;         /* ranks that share memory (one per rank: split) */
    MPI_Win win;           /* chip state */
    MPI_Win shm_win;       /* shared DRAM on rank 0, when not mapped */
    unsigned char *base;   /* this rank's part of win */
    void *own_mem;         /* malloc'd part (MPI_Win_create), or NULL */
    size_t block;          /* bytes of a core block */
    size_t mpb_span;       /* MPB bytes rounded to 64 */
    int *home;             /* rank holding each core's block */
    MPI_Aint *disp;        /* its displacement there */
    int *ue_of_core;       /* UE running each core, or -1 */
    MPI_Aint glob;         /* displacement of the globals on rank 0 */
    unsigned char *chip;   /* one node: the chip state's segment, mapped
                              at MPI_CHIP_ADDR (mpi_node.c); NULL: RMA */
    size_t chip_bytes;
    int chip_fd;
    mpi_node_wait_t *waits; /* on-node path: how each core waits */
    _Atomic uint32_t *any_bell;    /* on-node path: the node's doorbell */
    _Atomic uint32_t *any_waiters; /* and its sleepers */
    unsigned char *shm;    /* the mapped shared window, or NULL */
    size_t shm_bytes;
    int shm_fd;
    int dram_fd;           /* one node: private DRAM of the LUT windows */
    int lut_core;          /* the core whose LUT the window follows */
    int nnodes;
    int node_size;
    int inited_mpi;        /* we called MPI_Init: we finalise */
    int attached;
    int in_handler;
    int64_t spin_ns;
    int poll_sleep;        /* oversubscribed: sleep by polling, not recv */
    int asym;              /* on-node path: registered for membarrier,
                              writers skip the doorbell protocol's fence */
    int asym_sleep;        /* on-node path: sleepers issue the membarrier */
    int no_wake;           /* RMA path, no rank of the job ever blocks for
                              a wake message: waits on own words poll until
                              satisfied, writers skip the wake check */
    double t0;
    unsigned char *mpb_view; /* reserved addresses for mpb_map */
    size_t mpb_view_len;
    const char *ctx_call;
    int ctx_peer;
    int shm_refused_logged;
    unsigned long late_wakeups; /* waits the re-check ended (debug log) */
} mpib_t;

static inline mpib_t *mb(rck_hal_t *hal)
{
    return (mpib_t *)hal->backend;
}

#define MPI_CHECK(call, what)                                                 \
    do {                                                                      \
        int rc_ = (call);                                                     \
        if (rc_ != MPI_SUCCESS)                                               \
            return mpi_fail(rc_, what);                                       \
    } while (0)

/* ---- addressing ---- */

static inline unsigned char *own_word(mpib_t *m, rck_hal_t *hal, size_t off)
{
    (void)hal;
    return m->base + off; /* the own core is slot 0 */
}

static inline uint32_t load_own(mpib_t *m, size_t off)
{
    return atomic_load_explicit((_Atomic uint32_t *)(m->base + off),
                                memory_order_acquire);
}

/* Offset of island @p island's voltage in the globals. */
static inline size_t mpi_volt_off(const rck_chip_t *chip, int island)
{
    return rck_be_align_up((size_t)chip->atomic_counters * 4, 64) +
           4 * (size_t)island;
}

static inline MPI_Aint st_disp(mpib_t *m, int core, int word)
{
    return m->disp[core] + (MPI_Aint)m->mpb_span + word;
}

/* mpi_rma.c: remote primitives, each complete at the target on return */
rck_status_t mpi_fail(int rc, const char *what);
rck_status_t put_flush(mpib_t *m, int rank, MPI_Aint disp, const void *src,
                       size_t len);
rck_status_t get_flush(mpib_t *m, int rank, MPI_Aint disp, void *dst,
                       size_t len);
rck_status_t fop(mpib_t *m, int rank, MPI_Aint disp, uint32_t in, MPI_Op op,
                 uint32_t *old);
rck_status_t cas(mpib_t *m, int rank, MPI_Aint disp, uint32_t cmp,
                 uint32_t val, uint32_t *old);
rck_status_t wake_take(mpib_t *m, int rank, MPI_Aint disp, uint32_t *old);
void progress(mpib_t *m);
rck_status_t wake(rck_hal_t *hal, int core);

extern const rck_hal_ops_t rck_mpi_plugin_ops;

/* mpi_node.c: the plugin's table @p base (mpi.c's, handed in by attach:
 * this file does not name it) with the on-node slots */
const rck_hal_ops_t *mpi_node_ops(const rck_hal_ops_t *base);
/* mpi_node.c: the layout of the on-node segment, and the view of it at
 * m->chip with the shared window of @p shm_bytes (mapped later, at
 * MPI_SHM_ADDR; the default LUTs name its pages); every rank; @p init:
 * the node's first rank also sets the state at power-on. */
rck_status_t mpi_node_layout(const rck_chip_t *chip, int nues,
                             rck_cs_layout_t *l);
void mpi_node_view(mpib_t *m, const rck_chip_t *chip,
                   const rck_cs_layout_t *l, size_t shm_bytes, int init);

/* mpi_attach.c */
rck_status_t mpi_attach(rck_hal_t *hal);
void mpi_detach(rck_hal_t *hal);

/* mpi_wait.c */
rck_status_t mpi_irq_raise(rck_hal_t *hal, int core, rck_irq_kind_t kind);
rck_status_t mpi_irq_poll(rck_hal_t *hal, int *count);
/* Run the handler for each sender in @p bits of GIC word @p word.
 * @return how many. */
int mpi_gic_deliver(rck_hal_t *hal, int word, uint32_t bits);
rck_status_t mpi_wait(rck_hal_t *hal, const rck_hal_cond_t *conds, int nc,
                      unsigned flags, int64_t timeout_ns, int *which);

#endif
