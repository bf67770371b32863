/*
 * The mpi backend's plugin: the whole HAL on MPI-3. Built once per MPI
 * (librockcreek-mpi-openmpi.so, librockcreek-mpi-mpich.so) and loaded by
 * mpi_loader.c; exports only RCK_MPI_PLUGIN_SYMBOL.
 *
 * Every UE is one rank of MPI_COMM_WORLD (UE = rank). Chip state lives in
 * one RMA window, locked once with MPI_Win_lock_all (passive target):
 *
 *   rank r's part: [core block x nslots(r)] [globals, rank 0 only]
 *   core block:    [MPB (mpb_bytes, 64-aligned)] [state words]
 *   globals:       [atomic counters] [island voltages]
 *
 * Slot 0 of rank r is the core of UE r; cores that no UE runs on (their
 * MPBs, TAS and LUT still exist on the chip) are spread over the ranks in
 * further slots. The shared DRAM window is a memfd mapped at one address
 * on every rank when all ranks share a node; otherwise it is a second RMA
 * window on rank 0 that only shm_read/shm_write/waits reach.
 *
 * Invariants (the wake-up protocol; every writer and waiter relies on
 * them):
 *  - A core's words (MPB, state) are changed by others only through RMA on
 *    this window, and each such call is flushed (complete at the target)
 *    before it returns. Words other cores change with MPI atomics (TAS,
 *    wake, pending interrupts) are read locally only to look; taking them
 *    is an MPI atomic on the own rank.
 *  - wake (state word) is 1 while the core may be blocked waiting for a
 *    TAG_WAKE message. A writer, after its data is flushed, swaps 1 -> 0
 *    with MPI_Compare_and_swap; whoever succeeds sends exactly one wake
 *    message. The waiter sets wake = 1 (MPI atomic, flushed), then
 *    re-checks its conditions; if it stops waiting without a message it
 *    swaps 1 -> 0 itself, and if that fails a message is on its way and it
 *    receives it. So every message is received once and no write that
 *    satisfies a condition goes unnoticed.
 */
#include "mpi/mpi_backend.h"
#include "common/backend.h"
#include "common/seg.h"
#include "mpi/mpi_settings.h"

#include "rck/config.h"
#include "rck/log.h"

#include <mpi.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* One address for the shared DRAM window on every rank of a node (not the
 * native backend's, so a program could hold both). */
#if defined(__SANITIZE_THREAD__)
#define MPI_SHM_ADDR ((uintptr_t)0x006800000000ull)
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define MPI_SHM_ADDR ((uintptr_t)0x006800000000ull)
#endif
#endif
#ifndef MPI_SHM_ADDR
#define MPI_SHM_ADDR ((uintptr_t)0x3e0000000000ull)
#endif
/* After its spin, how long a wait yields the CPU (sched_yield) before it
 * naps: oversubscribed ranks hand over through the scheduler, and a nap
 * (>= 50 us with the kernel's timer slack) costs every hand-over. */
#define MPI_YIELD_NS 2000000
#define MPI_MAX_ISLANDS 256
#define MPI_MAX_COUNTERS 4096

enum { TAG_WAKE = 1 };

/* State words of a core block, byte offsets after the MPB. */
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

typedef struct {
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
    unsigned char *shm;    /* the mapped shared window, or NULL */
    size_t shm_bytes;
    int shm_fd;
    int nnodes;
    int node_size;
    int inited_mpi;        /* we called MPI_Init: we finalise */
    int attached;
    int in_handler;
    int64_t spin_ns;
    int poll_sleep;        /* oversubscribed: sleep by polling, not recv */
    double t0;
    unsigned char *mpb_view; /* reserved addresses for mpb_map */
    size_t mpb_view_len;
    const char *ctx_call;
    int ctx_peer;
    int shm_refused_logged;
} mpib_t;

static rck_hal_t *mpi_live; /* the attached core, for the exit handler */

static inline mpib_t *mb(rck_hal_t *hal)
{
    return (mpib_t *)hal->backend;
}

static rck_status_t mpi_fail(int rc, const char *what)
{
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;

    MPI_Error_string(rc, msg, &len);
    rck_error("mpi backend: %s: %s", what, msg);
    return RCK_ERR_IO;
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

static inline MPI_Aint st_disp(mpib_t *m, int core, int word)
{
    return m->disp[core] + (MPI_Aint)m->mpb_span + word;
}

/* ---- remote primitives (each complete at the target on return) ---- */

static rck_status_t put_flush(mpib_t *m, int rank, MPI_Aint disp,
                              const void *src, size_t len)
{
    MPI_CHECK(MPI_Put(src, (int)len, MPI_BYTE, rank, disp, (int)len,
                      MPI_BYTE, m->win),
              "MPI_Put");
    MPI_CHECK(MPI_Win_flush(rank, m->win), "MPI_Win_flush");
    return RCK_OK;
}

static rck_status_t get_flush(mpib_t *m, int rank, MPI_Aint disp, void *dst,
                              size_t len)
{
    MPI_CHECK(MPI_Get(dst, (int)len, MPI_BYTE, rank, disp, (int)len,
                      MPI_BYTE, m->win),
              "MPI_Get");
    MPI_CHECK(MPI_Win_flush(rank, m->win), "MPI_Win_flush");
    return RCK_OK;
}

static rck_status_t fop(mpib_t *m, int rank, MPI_Aint disp, uint32_t in,
                        MPI_Op op, uint32_t *old)
{
    uint32_t res = 0;

    MPI_CHECK(MPI_Fetch_and_op(&in, &res, MPI_UINT32_T, rank, disp, op,
                               m->win),
              "MPI_Fetch_and_op");
    MPI_CHECK(MPI_Win_flush(rank, m->win), "MPI_Win_flush");
    if (old != NULL)
        *old = res;
    return RCK_OK;
}

static rck_status_t cas(mpib_t *m, int rank, MPI_Aint disp, uint32_t cmp,
                        uint32_t val, uint32_t *old)
{
    MPI_CHECK(MPI_Compare_and_swap(&val, &cmp, old, MPI_UINT32_T, rank, disp,
                                   m->win),
              "MPI_Compare_and_swap");
    MPI_CHECK(MPI_Win_flush(rank, m->win), "MPI_Win_flush");
    return RCK_OK;
}

/* Let the MPI library move data: MPICH's RMA needs the target to enter
 * MPI (MPI_Win_sync alone does not), so every call that reads the own
 * core's memory, which is how a program polls, comes here; Open MPI's
 * windows do not need it, and it costs little. */
static void progress(mpib_t *m)
{
    int flag;

    MPI_Win_sync(m->win);
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, m->comm, &flag,
               MPI_STATUS_IGNORE);
}

/* After a write that may satisfy a wait of core @p core: wake it if it is
 * blocked (see the protocol at the top). */
static rck_status_t wake(rck_hal_t *hal, int core)
{
    mpib_t *m = mb(hal);
    int ue = m->ue_of_core[core];
    uint32_t old = 0;
    rck_status_t st;

    if (ue < 0 || core == hal->core)
        return RCK_OK;
    st = cas(m, m->home[core], st_disp(m, core, ST_WAKE), 1, 0, &old);
    if (st != RCK_OK || old != 1)
        return st;
    MPI_CHECK(MPI_Send(NULL, 0, MPI_BYTE, ue, TAG_WAKE, m->comm),
              "MPI_Send (wake-up)");
    return RCK_OK;
}

/* ---- attach ---- */

/* The physical cores of the UEs: RCK_RUN_CORES from `rck run`, else
 * 0..nues-1. */
static rck_status_t cores_resolve(const rck_chip_t *chip, int nues,
                                  int *cores)
{
    const char *list = getenv("RCK_RUN_CORES");
    const char *p = list;
    int n = 0;

    if (list == NULL || *list == '\0') {
        if (nues > chip->ncores) {
            rck_error("mpi backend: %d ranks, but the chip '%s' has %d cores",
                      nues, chip->name, chip->ncores);
            return RCK_ERR_CONFIG;
        }
        for (int i = 0; i < nues; i++)
            cores[i] = i;
        return RCK_OK;
    }
    while (*p != '\0') {
        char *end;
        long v = strtol(p, &end, 10);

        if (end == p || v < 0 || v >= chip->ncores || n >= nues ||
            (n > 0 && v <= cores[n - 1])) {
            rck_error("mpi backend: RCK_RUN_CORES='%s' does not list %d "
                      "ascending cores of the chip (0..%d)",
                      list, nues, chip->ncores - 1);
            return RCK_ERR_CONFIG;
        }
        cores[n++] = (int)v;
        p = *end == ',' ? end + 1 : end;
        if (*end != ',' && *end != '\0')
            break;
    }
    if (n != nues) {
        rck_error("mpi backend: RCK_RUN_CORES='%s' lists %d cores for %d "
                  "ranks (start with 'rck run' or plain mpirun)",
                  list, n, nues);
        return RCK_ERR_CONFIG;
    }
    return RCK_OK;
}

static void layout(mpib_t *m, const rck_chip_t *chip, int nues,
                   const int *cores, size_t *mine, int rank)
{
    int *slots = calloc((size_t)nues, sizeof(int));
    int orphan = 0;

    m->mpb_span = rck_be_align_up(chip->mpb_bytes, 64);
    m->block = m->mpb_span + rck_be_align_up(ST_BYTES, 64);
    for (int c = 0; c < chip->ncores; c++)
        m->ue_of_core[c] = -1;
    for (int u = 0; u < nues; u++) {
        m->ue_of_core[cores[u]] = u;
        m->home[cores[u]] = u;
        m->disp[cores[u]] = 0;
        slots[u] = 1;
    }
    for (int c = 0; c < chip->ncores; c++) {
        int r;

        if (m->ue_of_core[c] >= 0)
            continue;
        r = orphan++ % nues;
        m->home[c] = r;
        m->disp[c] = (MPI_Aint)((size_t)slots[r]++ * m->block);
    }
    m->glob = (MPI_Aint)((size_t)slots[0] * m->block);
    *mine = (size_t)slots[rank] * m->block;
    if (rank == 0)
        *mine += rck_be_align_up((size_t)chip->atomic_counters * 4, 64) +
                 MPI_MAX_ISLANDS * 4;
    free(slots);
}

static void state_init(mpib_t *m, const rck_chip_t *chip, int rank,
                       size_t mine)
{
    memset(m->base, 0, mine);
    for (int c = 0; c < chip->ncores; c++) {
        unsigned char *st;

        if (m->home[c] != rank)
            continue;
        st = m->base + m->disp[c] + m->mpb_span;
        *(uint32_t *)(st + ST_FDIV) = (uint32_t)chip->default_fdiv;
        for (int i = 0; i < 256; i++)
            ((uint32_t *)(st + ST_LUT))[i] = rck_be_lut_default(chip, c, i);
    }
    if (rank == 0) {
        size_t counters =
            rck_be_align_up((size_t)chip->atomic_counters * 4, 64);
        uint32_t *volt = (uint32_t *)(m->base + m->glob + counters);
        for (int i = 0; i < chip->nislands && i < MPI_MAX_ISLANDS; i++)
            volt[i] = (uint32_t)rck_chip_start_mv(chip);
    }
}

/* The shared DRAM window as a memfd of the node leader, mapped by every
 * rank of the node at MPI_SHM_ADDR (MPI_Win_allocate_shared cannot promise
 * one address in every process, which RCCE_shmalloc pointers need). */
static rck_status_t shm_map_node(mpib_t *m)
{
    int nrank, info[2] = {0, -1};
    void *map;
    rck_status_t st = RCK_OK;

    MPI_Comm_rank(m->node, &nrank);
    m->shm_fd = -1;
    if (nrank == 0) {
        st = rck_seg_create("rockcreek-mpi-shm", m->shm_bytes, &m->shm_fd,
                            &map);
        if (st == RCK_OK) {
            munmap(map, m->shm_bytes);
            info[0] = (int)getpid();
            info[1] = m->shm_fd;
        }
    }
    MPI_Bcast(info, 2, MPI_INT, 0, m->node);
    if (info[1] < 0)
        return st != RCK_OK ? st : RCK_ERR_IO;
    if (nrank != 0) {
        char path[64];

        snprintf(path, sizeof(path), "/proc/%d/fd/%d", info[0], info[1]);
        m->shm_fd = open(path, O_RDWR | O_CLOEXEC);
        if (m->shm_fd < 0) {
            rck_error("mpi backend: cannot open the node's shared window %s: "
                      "%s",
                      path, strerror(errno));
            st = RCK_ERR_IO;
        }
    }
    if (st == RCK_OK) {
        map = mmap((void *)MPI_SHM_ADDR, m->shm_bytes, PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_FIXED_NOREPLACE, m->shm_fd, 0);
        if (map == MAP_FAILED || map != (void *)MPI_SHM_ADDR) {
            rck_error("mpi backend: cannot map the shared window at %p: %s",
                      (void *)MPI_SHM_ADDR, strerror(errno));
            if (map != MAP_FAILED)
                munmap(map, m->shm_bytes);
            st = RCK_ERR_IO;
        } else {
            m->shm = map;
        }
    }
    /* everyone has it open: the leader's fd may go */
    {
        int ok = st == RCK_OK, all = 0;
        MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, m->node);
        if (!all && st == RCK_OK)
            st = RCK_ERR_IO;
    }
    return st;
}

/* Every rank's window starts @p pad bytes before its 64-aligned blocks:
 * shift the displacements of the cores each rank holds. */
static rck_status_t pads_share(mpib_t *m, rck_hal_t *hal, int nues, int pad)
{
    int *pads = calloc((size_t)nues, sizeof(int));

    if (pads == NULL)
        return RCK_ERR_NOMEM;
    MPI_Allgather(&pad, 1, MPI_INT, pads, 1, MPI_INT, m->comm);
    for (int c = 0; c < hal->chip.ncores; c++)
        m->disp[c] += pads[m->home[c]];
    m->glob += pads[0];
    free(pads);
    return RCK_OK;
}

static void mpi_on_exit(int status, void *arg);

static rck_status_t mpi_attach(rck_hal_t *hal)
{
    const char *nodes = rck_config_get("MPI_NODES");
    rck_chip_t chip;
    rck_job_params_t p;
    mpib_t *m;
    int inited = 0, rank, nues, core0, split, *model = NULL, flag = 0;
    size_t mine;
    rck_status_t st;
    char tag[32];

    if (strcmp(nodes, "auto") != 0 && strcmp(nodes, "rank") != 0) {
        rck_error("RCK_MPI_NODES='%s': give auto or rank", nodes);
        return RCK_ERR_CONFIG;
    }
    split = !strcmp(nodes, "rank");
    st = rck_seg_solo_params(&chip, &core0, &p);
    if (st != RCK_OK)
        return st;
    if (chip.atomic_counters > MPI_MAX_COUNTERS ||
        chip.nislands > MPI_MAX_ISLANDS) {
        rck_error("mpi backend: chip too large");
        return RCK_ERR_CONFIG;
    }
    m = calloc(1, sizeof(*m));
    if (m == NULL)
        return RCK_ERR_NOMEM;
    m->shm_fd = -1;
    m->shm_win = MPI_WIN_NULL;
    MPI_Initialized(&inited);
    if (!inited) {
        int provided;
        if (MPI_Init_thread(NULL, NULL, MPI_THREAD_SINGLE, &provided) !=
            MPI_SUCCESS) {
            rck_error("mpi backend: MPI_Init failed");
            free(m);
            return RCK_ERR_IO;
        }
        m->inited_mpi = 1;
    }
    MPI_Comm_dup(MPI_COMM_WORLD, &m->comm);
    MPI_Comm_set_errhandler(m->comm, MPI_ERRORS_RETURN);
    MPI_Comm_rank(m->comm, &rank);
    MPI_Comm_size(m->comm, &nues);
    hal->chip = chip;
    hal->nues = nues;
    hal->ue = rank;
    hal->ue_core = calloc((size_t)nues, sizeof(int));
    m->home = calloc((size_t)chip.ncores, sizeof(int));
    m->disp = calloc((size_t)chip.ncores, sizeof(MPI_Aint));
    m->ue_of_core = calloc((size_t)chip.ncores, sizeof(int));
    if (hal->ue_core == NULL || m->home == NULL || m->disp == NULL ||
        m->ue_of_core == NULL) {
        st = RCK_ERR_NOMEM;
        goto err_abort;
    }
    st = cores_resolve(&chip, nues, hal->ue_core);
    if (st != RCK_OK)
        goto err_abort;
    hal->core = hal->ue_core[rank];

    /* nodes: ranks that can share memory */
    if (split)
        MPI_Comm_split(m->comm, rank, 0, &m->node);
    else
        MPI_Comm_split_type(m->comm, MPI_COMM_TYPE_SHARED, rank,
                            MPI_INFO_NULL, &m->node);
    MPI_Comm_size(m->node, &m->node_size);
    {
        int nrank, leader;
        MPI_Comm_rank(m->node, &nrank);
        leader = nrank == 0;
        MPI_Allreduce(&leader, &m->nnodes, 1, MPI_INT, MPI_SUM, m->comm);
    }

    layout(m, &chip, nues, hal->ue_core, &mine, rank);
    /* Split nodes use MPI_Win_create: MPI cannot use its shared-memory
     * windows for memory it did not allocate, so RMA takes the path it
     * takes between hosts. */
    if (split) {
        m->own_mem = aligned_alloc(64, rck_be_align_up(mine, 64));
        if (m->own_mem == NULL) {
            st = RCK_ERR_NOMEM;
            goto err_abort;
        }
        m->base = m->own_mem;
        state_init(m, &chip, rank, mine);
        if (MPI_Win_create(m->base, (MPI_Aint)mine, 1, MPI_INFO_NULL, m->comm,
                           &m->win) != MPI_SUCCESS) {
            rck_error("mpi backend: MPI_Win_create failed");
            st = RCK_ERR_IO;
            goto err_abort;
        }
    } else {
        unsigned char *wb;

        if (MPI_Win_allocate((MPI_Aint)mine + 64, 1, MPI_INFO_NULL, m->comm,
                             &wb, &m->win) != MPI_SUCCESS) {
            rck_error("mpi backend: MPI_Win_allocate failed");
            st = RCK_ERR_IO;
            goto err_abort;
        }
        /* MPBs start on a line (RCCE checks its pointers' alignment) */
        m->base = (unsigned char *)rck_be_align_up((uintptr_t)wb, 64);
        state_init(m, &chip, rank, mine); /* before the shift below */
        st = pads_share(m, hal, nues, (int)(m->base - wb));
        if (st != RCK_OK)
            goto err_abort;
    }
    MPI_Win_get_attr(m->win, MPI_WIN_MODEL, &model, &flag);
    if (!flag || *model != MPI_WIN_UNIFIED) {
        rck_error("mpi backend: this MPI gives a separate (not unified) RMA "
                  "memory model; waits poll local memory and need unified");
        st = RCK_ERR_UNSUPPORTED;
        goto err_abort;
    }
    MPI_Win_lock_all(MPI_MODE_NOCHECK, m->win);

    /* shared DRAM */
    m->shm_bytes = rck_be_align_up(p.shm_bytes, 4096);
    if (m->nnodes == 1) {
        st = shm_map_node(m);
        if (st != RCK_OK)
            goto err_abort;
    } else {
        void *b = NULL;
        MPI_Aint sz = rank == 0 ? (MPI_Aint)m->shm_bytes : 0;
        if (MPI_Win_allocate(sz, 1, MPI_INFO_NULL, m->comm, &b,
                             &m->shm_win) != MPI_SUCCESS) {
            rck_error("mpi backend: cannot allocate the shared window on "
                      "rank 0 (%zu bytes)",
                      m->shm_bytes);
            st = RCK_ERR_NOMEM;
            goto err_abort;
        }
        if (rank == 0)
            memset(b, 0, m->shm_bytes);
        MPI_Win_lock_all(MPI_MODE_NOCHECK, m->shm_win);
    }

    /* addresses for mpb_map: reserved, never backed (offsets only) */
    m->mpb_view_len = (size_t)chip.ncores * chip.mpb_bytes;
    m->mpb_view = mmap(NULL, m->mpb_view_len, PROT_NONE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m->mpb_view == MAP_FAILED) {
        st = RCK_ERR_NOMEM;
        goto err_abort;
    }

    {
        const char *s = rck_config_get("MPI_SPIN_NS");
        long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
        char *end;
        long v = strtol(s, &end, 0);

        if (strcmp(s, "auto") != 0 && *s != '\0' && *end == '\0' && v >= 0)
            m->spin_ns = v;
        else
            m->spin_ns = m->node_size <= ncpu ? 50000 : 0;
        m->poll_sleep = m->node_size > ncpu;
    }
    m->ctx_peer = -1;
    hal->backend = m;
    m->attached = 1;
    mpi_live = hal;
    on_exit(mpi_on_exit, NULL);
    MPI_Barrier(m->comm);
    m->t0 = MPI_Wtime();
    snprintf(tag, sizeof(tag), "core %d", hal->core);
    rck_log_set_tag(tag);
    return RCK_OK;

err_abort:
    /* the other ranks may be inside a collective of attach: stop them */
    MPI_Abort(MPI_COMM_WORLD, 1);
    return st;
}

static void mpi_teardown(rck_hal_t *hal)
{
    mpib_t *m = mb(hal);

    if (!m->attached)
        return;
    m->attached = 0;
    mpi_live = NULL;
    MPI_Win_unlock_all(m->win);
    MPI_Win_free(&m->win);
    if (m->shm_win != MPI_WIN_NULL) {
        MPI_Win_unlock_all(m->shm_win);
        MPI_Win_free(&m->shm_win);
    }
    if (m->shm != NULL)
        munmap(m->shm, m->shm_bytes);
    if (m->shm_fd >= 0)
        close(m->shm_fd);
    munmap(m->mpb_view, m->mpb_view_len);
    free(m->own_mem);
    MPI_Comm_free(&m->node);
    MPI_Comm_free(&m->comm);
    if (m->inited_mpi) {
        int fin = 0;
        MPI_Finalized(&fin);
        if (!fin)
            MPI_Finalize();
    }
}

/* A core that ends without RCCE_finalize: a clean exit still leaves MPI
 * in order; a failing one takes every rank down with its status, as the
 * native launcher does (MPI_Abort is how MPI stops a job). */
static void mpi_on_exit(int status, void *arg)
{
    (void)arg;
    if (mpi_live == NULL)
        return;
    if (status != 0) {
        fflush(stdout);
        /* the launcher's report (src/tools/mpirun.c) reads this line */
        rck_error("core %d (UE %d) exited with status %d; stopping every "
                  "rank (MPI_Abort)",
                  mpi_live->core, mpi_live->ue, status);
        fflush(stderr);
        MPI_Abort(MPI_COMM_WORLD, status);
    }
    mpi_teardown(mpi_live);
}

static void mpi_detach(rck_hal_t *hal)
{
    mpib_t *m = mb(hal);

    mpi_teardown(hal);
    free(m->home);
    free(m->disp);
    free(m->ue_of_core);
    free(hal->ue_core);
    hal->ue_core = NULL;
    free(m);
    hal->backend = NULL;
}

/* ---- MPB ---- */

/* The own MPB is real memory (RCCE_put may take its source from there);
 * other cores' MPBs are reserved addresses nothing backs: libraries only
 * compute offsets from them, and a stray load or store faults. */
static rck_status_t mpi_mpb_map(rck_hal_t *hal, int core, void **base)
{
    mpib_t *m = mb(hal);

    if (core == hal->core)
        *base = m->base;
    else
        *base = m->mpb_view + (size_t)core * hal->chip.mpb_bytes;
    return RCK_OK;
}

static rck_status_t mpi_mpb_write(rck_hal_t *hal, int core, uint32_t off,
                                  const void *src, size_t len)
{
    mpib_t *m = mb(hal);
    rck_status_t st;

    if (core == hal->core) {
        memcpy(own_word(m, hal, off), src, len);
        MPI_Win_sync(m->win);
        return RCK_OK;
    }
    MPI_Win_sync(m->win); /* @p src may be in the own MPB */
    st = put_flush(m, m->home[core], m->disp[core] + off, src, len);
    return st == RCK_OK ? wake(hal, core) : st;
}

static rck_status_t mpi_mpb_read(rck_hal_t *hal, int core, uint32_t off,
                                 void *dst, size_t len)
{
    mpib_t *m = mb(hal);

    if (core == hal->core) {
        progress(m); /* a reader that polls lets the writers' RMA finish */
        memcpy(dst, own_word(m, hal, off), len);
        return RCK_OK;
    }
    return get_flush(m, m->home[core], m->disp[core] + off, dst, len);
}

static rck_status_t mpi_mpb_copy(rck_hal_t *hal, int dst_core,
                                 uint32_t dst_off, int src_core,
                                 uint32_t src_off, size_t len)
{
    unsigned char buf[8192], *tmp = buf;
    rck_status_t st;

    if (len > sizeof(buf)) {
        tmp = malloc(len);
        if (tmp == NULL)
            return RCK_ERR_NOMEM;
    }
    st = mpi_mpb_read(hal, src_core, src_off, tmp, len);
    if (st == RCK_OK)
        st = mpi_mpb_write(hal, dst_core, dst_off, tmp, len);
    if (tmp != buf)
        free(tmp);
    return st;
}

static rck_status_t mpi_mpb_store32(rck_hal_t *hal, int core, uint32_t off,
                                    uint32_t value)
{
    mpib_t *m = mb(hal);

    if (core == hal->core) {
        atomic_store_explicit((_Atomic uint32_t *)own_word(m, hal, off), value,
                              memory_order_release);
        MPI_Win_sync(m->win);
        return RCK_OK;
    }
    return mpi_mpb_write(hal, core, off, &value, 4);
}

static rck_status_t mpi_mpb_load32(rck_hal_t *hal, int core, uint32_t off,
                                   uint32_t *value)
{
    mpib_t *m = mb(hal);

    if (core == hal->core) {
        progress(m);
        *value = load_own(m, off);
        return RCK_OK;
    }
    return get_flush(m, m->home[core], m->disp[core] + off, value, 4);
}

/* Every read of another core's MPB is an MPI_Get from its memory: there
 * is no local copy to invalidate; the calls still order like the chip's. */
static void mpi_cl1invmb(rck_hal_t *hal)
{
    MPI_Win_sync(mb(hal)->win);
}

static void mpi_wcb_flush(rck_hal_t *hal)
{
    MPI_Win_sync(mb(hal)->win);
}

/* ---- TAS ---- */

static rck_status_t mpi_tas_try(rck_hal_t *hal, int core, int *acquired)
{
    mpib_t *m = mb(hal);
    uint32_t old = 1;
    rck_status_t st = fop(m, m->home[core], st_disp(m, core, ST_TAS), 1,
                          MPI_REPLACE, &old);

    if (st == RCK_OK)
        *acquired = old == 0;
    return st;
}

static rck_status_t mpi_tas_release(rck_hal_t *hal, int core)
{
    mpib_t *m = mb(hal);
    rck_status_t st = fop(m, m->home[core], st_disp(m, core, ST_TAS), 0,
                          MPI_REPLACE, NULL);

    return st == RCK_OK ? wake(hal, core) : st;
}

/* ---- interrupts ---- */

static rck_status_t mpi_irq_raise(rck_hal_t *hal, int core,
                                  rck_irq_kind_t kind)
{
    mpib_t *m = mb(hal);
    uint32_t old = 0, bit;
    rck_status_t st;

    if (kind == RCK_IRQ_PIN) {
        st = fop(m, m->home[core], st_disp(m, core, ST_PIN), 1, MPI_REPLACE,
                 &old);
        bit = 1;
    } else {
        bit = 1u << (hal->core % 32);
        st = fop(m, m->home[core],
                 st_disp(m, core, ST_GIC + 4 * (hal->core / 32)), bit,
                 MPI_BOR, &old);
    }
    if (st != RCK_OK)
        return st;
    if (old & bit)
        rck_debug("interrupt %d -> %d lost: one is already pending",
                  hal->core, core);
    if (core == hal->core)
        return RCK_OK;
    return wake(hal, core);
}

static int irq_any_pending(mpib_t *m, int ncores)
{
    if (load_own(m, m->mpb_span + ST_PIN))
        return 1;
    for (int w = 0; w < (ncores + 31) / 32; w++) {
        if (load_own(m, m->mpb_span + ST_GIC + 4 * (size_t)w))
            return 1;
    }
    return 0;
}

static rck_status_t mpi_irq_poll(rck_hal_t *hal, int *count)
{
    mpib_t *m = mb(hal);
    int handled = 0, me = hal->ue;
    uint32_t bits;

    *count = 0;
    if (hal->irq_handler == NULL || m->in_handler)
        return RCK_OK;
    progress(m);
    if (!irq_any_pending(m, hal->chip.ncores))
        return RCK_OK;
    m->in_handler = 1;
    if (load_own(m, m->mpb_span + ST_PIN)) {
        fop(m, me, st_disp(m, hal->core, ST_PIN), 0, MPI_REPLACE, &bits);
        if (bits) {
            hal->irq_handler(hal, RCK_IRQ_PIN, -1, hal->irq_arg);
            handled++;
        }
    }
    for (int w = 0; w < (hal->chip.ncores + 31) / 32; w++) {
        size_t off = m->mpb_span + ST_GIC + 4 * (size_t)w;

        if (!load_own(m, off))
            continue;
        fop(m, me, st_disp(m, hal->core, ST_GIC + 4 * w), 0, MPI_REPLACE,
            &bits);
        while (bits) {
            int b = __builtin_ctz(bits);
            bits &= bits - 1;
            hal->irq_handler(hal, RCK_IRQ_GIC, w * 32 + b, hal->irq_arg);
            handled++;
        }
    }
    m->in_handler = 0;
    *count = handled;
    return RCK_OK;
}

/* ---- waiting ---- */

/* Is every condition a word this rank reads locally (own MPB, own TAS, the
 * mapped shared window)? Then a write that satisfies it wakes us, except
 * for shared DRAM, which plain stores change. */
static int conds_local(rck_hal_t *hal, const rck_hal_cond_t *c, int nc,
                       int *shm)
{
    mpib_t *m = mb(hal);
    int local = 1;

    *shm = 0;
    for (int i = 0; i < nc; i++) {
        if (c[i].space == RCK_SPACE_SHM) {
            *shm = 1;
            if (m->shm == NULL)
                local = 0;
        } else if (c[i].core != hal->core) {
            local = 0;
        }
    }
    return local;
}

static rck_status_t word_read(rck_hal_t *hal, const rck_hal_cond_t *c,
                              uint32_t *v)
{
    mpib_t *m = mb(hal);

    switch (c->space) {
    case RCK_SPACE_MPB:
        if (c->core == hal->core) {
            *v = load_own(m, c->offset);
            return RCK_OK;
        }
        return get_flush(m, m->home[c->core], m->disp[c->core] + c->offset, v,
                         4);
    case RCK_SPACE_TAS:
        if (c->core == hal->core) {
            *v = load_own(m, m->mpb_span + ST_TAS);
            return RCK_OK;
        }
        return fop(m, m->home[c->core], st_disp(m, c->core, ST_TAS), 0,
                   MPI_NO_OP, v);
    case RCK_SPACE_SHM:
        if (m->shm != NULL) {
            *v = atomic_load_explicit((_Atomic uint32_t *)(m->shm + c->offset),
                                      memory_order_acquire);
            return RCK_OK;
        }
        MPI_CHECK(MPI_Get(v, 4, MPI_BYTE, 0, (MPI_Aint)c->offset, 4, MPI_BYTE,
                          m->shm_win),
                  "MPI_Get (shared window)");
        MPI_CHECK(MPI_Win_flush(0, m->shm_win), "MPI_Win_flush");
        return RCK_OK;
    }
    return RCK_ERR_INVALID;
}

/* @return index of a satisfied condition, -1 if none, -2 on error. */
static int conds_check(rck_hal_t *hal, const rck_hal_cond_t *c, int nc)
{
    MPI_Win_sync(mb(hal)->win);
    for (int i = 0; i < nc; i++) {
        uint32_t v;

        if (word_read(hal, &c[i], &v) != RCK_OK)
            return -2;
        if (rck_be_cond_holds(v, &c[i]))
            return i;
    }
    return -1;
}

/* Stop being wakeable; if a waker already took the flag, its message is
 * on the way: receive it so none is left over. */
static rck_status_t sleep_cancel(rck_hal_t *hal)
{
    mpib_t *m = mb(hal);
    uint32_t old = 0;
    rck_status_t st = cas(m, hal->ue, st_disp(m, hal->core, ST_WAKE), 1, 0,
                          &old);

    if (st != RCK_OK || old == 1)
        return st;
    MPI_CHECK(MPI_Recv(NULL, 0, MPI_BYTE, MPI_ANY_SOURCE, TAG_WAKE, m->comm,
                       MPI_STATUS_IGNORE),
              "MPI_Recv (wake-up)");
    return RCK_OK;
}

/* One look at everything a wait returns for.
 * @return 1 and *rc set when the wait is over, 0 to go on. */
static int wait_look(rck_hal_t *hal, const rck_hal_cond_t *conds, int nc,
                     int want_irq, int *which, rck_status_t *rc)
{
    mpib_t *m = mb(hal);
    int i;

    MPI_Win_sync(m->win);
    if ((want_irq || hal->irq_handler != NULL) &&
        irq_any_pending(m, hal->chip.ncores)) {
        int cnt;
        mpi_irq_poll(hal, &cnt);
        if (want_irq) {
            *which = -1;
            *rc = RCK_INTERRUPTED;
            return 1;
        }
    }
    i = conds_check(hal, conds, nc);
    if (i == -2) {
        *rc = RCK_ERR_IO;
        return 1;
    }
    if (i >= 0) {
        *which = i;
        *rc = RCK_OK;
        return 1;
    }
    return 0;
}

static void nap(int64_t ns)
{
    struct timespec ts = {.tv_sec = ns / 1000000000,
                          .tv_nsec = ns % 1000000000};
    nanosleep(&ts, NULL);
}

static rck_status_t mpi_wait(rck_hal_t *hal, const rck_hal_cond_t *conds,
                             int nc, unsigned flags, int64_t timeout_ns,
                             int *which)
{
    mpib_t *m = mb(hal);
    int want_irq = (flags & RCK_WAIT_IRQ) != 0, shm, local;
    uint64_t start = rck_be_now_ns(), deadline = UINT64_MAX, t;
    int64_t backoff = 20000;
    rck_status_t rc;

    if (timeout_ns >= 0)
        deadline = start + (uint64_t)timeout_ns;
    local = conds_local(hal, conds, nc, &shm);
    /* poll */
    for (;;) {
        if (wait_look(hal, conds, nc, want_irq, which, &rc))
            return rc;
        t = rck_be_now_ns();
        if (t >= deadline)
            return RCK_ERR_TIMEDOUT;
        if ((int64_t)(t - start) >= m->spin_ns)
            break;
        progress(m);
    }
    /* Conditions on other ranks' memory (or on a shared window written by
     * plain stores) ring no bell here: poll them, backing off. */
    if (!local || shm) {
        int64_t cap = local ? 200000 : 500000;
        for (;;) {
            progress(m);
            if (wait_look(hal, conds, nc, want_irq, which, &rc))
                return rc;
            t = rck_be_now_ns();
            if (t >= deadline)
                return RCK_ERR_TIMEDOUT;
            if ((int64_t)(t - start) > m->spin_ns + MPI_YIELD_NS) {
                nap(backoff);
                backoff = backoff * 2 > cap ? cap : backoff * 2;
            } else {
                sched_yield();
            }
        }
    }
    /* Own words only: announce, look again, block for a wake message. */
    for (;;) {
        int got = 0;

        rc = fop(m, hal->ue, st_disp(m, hal->core, ST_WAKE), 1, MPI_REPLACE,
                 NULL);
        if (rc != RCK_OK)
            return rc;
        if (wait_look(hal, conds, nc, want_irq, which, &rc)) {
            rck_status_t st = sleep_cancel(hal);
            return st != RCK_OK ? st : rc;
        }
        if (!m->poll_sleep && deadline == UINT64_MAX) {
            MPI_CHECK(MPI_Recv(NULL, 0, MPI_BYTE, MPI_ANY_SOURCE, TAG_WAKE,
                               m->comm, MPI_STATUS_IGNORE),
                      "MPI_Recv (wake-up)");
            continue;
        }
        /* Oversubscribed (a blocked MPI_Recv would spin on a CPU another
         * rank needs) or bounded: probe, yield, nap. */
        while (!got) {
            MPI_Iprobe(MPI_ANY_SOURCE, TAG_WAKE, m->comm, &got,
                       MPI_STATUS_IGNORE);
            if (got) {
                MPI_CHECK(MPI_Recv(NULL, 0, MPI_BYTE, MPI_ANY_SOURCE,
                                   TAG_WAKE, m->comm, MPI_STATUS_IGNORE),
                          "MPI_Recv (wake-up)");
                break;
            }
            t = rck_be_now_ns();
            if (t >= deadline) {
                rck_status_t st = sleep_cancel(hal);
                return st != RCK_OK ? st : RCK_ERR_TIMEDOUT;
            }
            if ((int64_t)(t - start) < m->spin_ns + MPI_YIELD_NS) {
                sched_yield();
            } else {
                nap(backoff);
                backoff = backoff * 2 > 1000000 ? 1000000 : backoff * 2;
            }
        }
    }
}

/* ---- counters, LUT, shared DRAM ---- */

static double since_start(mpib_t *m)
{
    return MPI_Wtime() - m->t0;
}

static rck_status_t mpi_gtsc_read(rck_hal_t *hal, uint64_t *ticks)
{
    *ticks = (uint64_t)(since_start(mb(hal)) * hal->chip.mesh_mhz * 1e6);
    return RCK_OK;
}

static rck_status_t mpi_atomic_inc(rck_hal_t *hal, int ctr, int32_t *old)
{
    mpib_t *m = mb(hal);
    uint32_t o = 0;
    rck_status_t st = fop(m, 0, m->glob + 4 * ctr, 1, MPI_SUM, &o);

    if (st == RCK_OK)
        *old = (int32_t)o;
    return st;
}

static rck_status_t mpi_atomic_read(rck_hal_t *hal, int ctr, int32_t *value)
{
    mpib_t *m = mb(hal);
    uint32_t o = 0;
    rck_status_t st = fop(m, 0, m->glob + 4 * ctr, 0, MPI_NO_OP, &o);

    if (st == RCK_OK)
        *value = (int32_t)o;
    return st;
}

static rck_status_t mpi_atomic_write(rck_hal_t *hal, int ctr, int32_t value)
{
    mpib_t *m = mb(hal);

    return fop(m, 0, m->glob + 4 * ctr, (uint32_t)value, MPI_REPLACE, NULL);
}

static rck_status_t mpi_lut_read(rck_hal_t *hal, int core, int idx,
                                 uint32_t *entry)
{
    mpib_t *m = mb(hal);

    return get_flush(m, m->home[core], st_disp(m, core, ST_LUT + 4 * idx),
                     entry, 4);
}

static rck_status_t mpi_lut_write(rck_hal_t *hal, int core, int idx,
                                  uint32_t entry)
{
    mpib_t *m = mb(hal);

    return put_flush(m, m->home[core], st_disp(m, core, ST_LUT + 4 * idx),
                     &entry, 4);
}

static rck_status_t mpi_shm_map(rck_hal_t *hal, void **base, size_t *len)
{
    mpib_t *m = mb(hal);

    if (m->shm == NULL) {
        if (!m->shm_refused_logged++)
            rck_warn("mpi backend: the job spans %d nodes (%s), so shared "
                      "DRAM cannot be mapped for loads and stores: "
                      "RCCE_shmalloc returns NULL and libraries that map it "
                      "refuse; rck_hal_shm_read/write work over RMA",
                      m->nnodes,
                      !strcmp(rck_config_get("MPI_NODES"), "rank")
                          ? "RCK_MPI_NODES=rank"
                          : "ranks on several hosts");
        return RCK_ERR_UNSUPPORTED;
    }
    *base = m->shm;
    *len = m->shm_bytes;
    return RCK_OK;
}

/* Host memory has one kind of mapping: nothing to record. */
static rck_status_t mpi_shm_set_map(rck_hal_t *hal, size_t off, size_t len,
                                    rck_map_t type, int mc)
{
    return RCK_OK;
}

static rck_status_t mpi_shm_flush(rck_hal_t *hal)
{
    atomic_thread_fence(memory_order_seq_cst);
    return RCK_OK;
}

static rck_status_t mpi_dcache_flush(rck_hal_t *hal)
{
    atomic_thread_fence(memory_order_seq_cst);
    return RCK_OK;
}

static rck_status_t mpi_shm_write(rck_hal_t *hal, size_t off, const void *src,
                                  size_t len)
{
    mpib_t *m = mb(hal);

    if (m->shm != NULL) {
        memcpy(m->shm + off, src, len);
        atomic_thread_fence(memory_order_seq_cst);
        return RCK_OK;
    }
    MPI_CHECK(MPI_Put(src, (int)len, MPI_BYTE, 0, (MPI_Aint)off, (int)len,
                      MPI_BYTE, m->shm_win),
              "MPI_Put (shared window)");
    MPI_CHECK(MPI_Win_flush(0, m->shm_win), "MPI_Win_flush");
    return RCK_OK;
}

static rck_status_t mpi_shm_read(rck_hal_t *hal, size_t off, void *dst,
                                 size_t len)
{
    mpib_t *m = mb(hal);

    if (m->shm != NULL) {
        atomic_thread_fence(memory_order_acquire);
        memcpy(dst, m->shm + off, len);
        return RCK_OK;
    }
    MPI_CHECK(MPI_Get(dst, (int)len, MPI_BYTE, 0, (MPI_Aint)off, (int)len,
                      MPI_BYTE, m->shm_win),
              "MPI_Get (shared window)");
    MPI_CHECK(MPI_Win_flush(0, m->shm_win), "MPI_Win_flush");
    return RCK_OK;
}

/* Runs on host memory at host speed: nothing to account. */
static rck_status_t mpi_shm_touch(rck_hal_t *hal, size_t off, size_t len,
                                  int write)
{
    return RCK_OK;
}

static void mpi_syscall(rck_hal_t *hal, void (*fn)(void *arg), void *arg)
{
    fn(arg);
}

static void mpi_trap(rck_hal_t *hal, uint64_t host_ns)
{
}

/* ---- power, clocks, console ---- */

static rck_status_t mpi_freq_set(rck_hal_t *hal, int core, int fdiv)
{
    mpib_t *m = mb(hal);
    int tile = rck_chip_tile(&hal->chip, core);
    uint32_t v = (uint32_t)fdiv;

    /* The divider is per tile: both cores of the tile change. */
    for (int c = tile * hal->chip.cores_per_tile;
         c < (tile + 1) * hal->chip.cores_per_tile; c++) {
        rck_status_t st = put_flush(m, m->home[c], st_disp(m, c, ST_FDIV),
                                    &v, 4);
        if (st != RCK_OK)
            return st;
    }
    return RCK_OK;
}

static rck_status_t mpi_freq_get(rck_hal_t *hal, int core, int *fdiv)
{
    mpib_t *m = mb(hal);
    uint32_t v = 0;
    rck_status_t st;

    if (core == hal->core) {
        MPI_Win_sync(m->win);
        *fdiv = (int)load_own(m, m->mpb_span + ST_FDIV);
        return RCK_OK;
    }
    st = get_flush(m, m->home[core], st_disp(m, core, ST_FDIV), &v, 4);
    if (st == RCK_OK)
        *fdiv = (int)v;
    return st;
}

static MPI_Aint volt_disp(mpib_t *m, const rck_chip_t *chip, int island)
{
    return m->glob +
           (MPI_Aint)rck_be_align_up((size_t)chip->atomic_counters * 4, 64) +
           4 * island;
}

static rck_status_t mpi_volt_set(rck_hal_t *hal, int island, int mv)
{
    mpib_t *m = mb(hal);
    uint32_t v = (uint32_t)mv;

    return put_flush(m, 0, volt_disp(m, &hal->chip, island), &v, 4);
}

static rck_status_t mpi_volt_get(rck_hal_t *hal, int island, int *mv)
{
    mpib_t *m = mb(hal);
    uint32_t v = 0;
    rck_status_t st = get_flush(m, 0, volt_disp(m, &hal->chip, island), &v,
                                4);

    if (st == RCK_OK)
        *mv = (int)v;
    return st;
}

static rck_status_t mpi_wtime(rck_hal_t *hal, double *seconds)
{
    *seconds = since_start(mb(hal));
    return RCK_OK;
}

/* Host time at the core's current modelled frequency. */
static rck_status_t mpi_cycles(rck_hal_t *hal, uint64_t *cycles)
{
    mpib_t *m = mb(hal);
    int fdiv = (int)load_own(m, m->mpb_span + ST_FDIV);

    *cycles = (uint64_t)(since_start(m) *
                         rck_chip_fdiv_mhz(&hal->chip, fdiv) * 1e6);
    return RCK_OK;
}

static rck_status_t mpi_console_write(rck_hal_t *hal, const char *buf,
                                      size_t len)
{
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

/* No portable, cheap instruction counter (see HOST-FACTS.md). The
 * plugin does not carry hal.c, whose rck_hal_unsupported() says the same. */
static rck_status_t mpi_perfctr_read(rck_hal_t *hal, int idx, uint64_t *value)
{
    return RCK_ERR_UNSUPPORTED;
}

static rck_status_t mpi_job_unsupported(rck_job_t *job, int ue)
{
    return RCK_ERR_UNSUPPORTED;
}

static void mpi_set_context(rck_hal_t *hal, const char *call, int peer)
{
    mpib_t *m = mb(hal);

    m->ctx_call = call;
    m->ctx_peer = peer;
}

static rck_status_t mpi_job_create(const rck_job_params_t *params,
                                   rck_job_t **job)
{
    rck_error("mpi backend: jobs are started by mpirun ('rck run --backend "
              "mpi' wraps it), not by forking cores");
    return RCK_ERR_UNSUPPORTED;
}


static void mpi_job_core_exited(rck_job_t *job, int ue, int failed)
{
}

static void mpi_job_destroy(rck_job_t *job)
{
}

__attribute__((visibility("default"))) const rck_hal_ops_t
    rck_mpi_plugin_ops = {
        .name = "mpi",
        .job_create = mpi_job_create,
        .job_child_setup = mpi_job_unsupported,
        .job_core_exited = mpi_job_core_exited,
        .job_destroy = mpi_job_destroy,
        .attach = mpi_attach,
        .detach = mpi_detach,
        .mpb_map = mpi_mpb_map,
        .mpb_write = mpi_mpb_write,
        .mpb_read = mpi_mpb_read,
        .mpb_copy = mpi_mpb_copy,
        .mpb_store32 = mpi_mpb_store32,
        .mpb_load32 = mpi_mpb_load32,
        .cl1invmb = mpi_cl1invmb,
        .wcb_flush = mpi_wcb_flush,
        .tas_try = mpi_tas_try,
        .tas_release = mpi_tas_release,
        .irq_raise = mpi_irq_raise,
        .irq_poll = mpi_irq_poll,
        .wait = mpi_wait,
        .gtsc_read = mpi_gtsc_read,
        .atomic_inc = mpi_atomic_inc,
        .atomic_read = mpi_atomic_read,
        .atomic_write = mpi_atomic_write,
        .lut_read = mpi_lut_read,
        .lut_write = mpi_lut_write,
        .shm_map = mpi_shm_map,
        .shm_set_map = mpi_shm_set_map,
        .shm_flush = mpi_shm_flush,
        .dcache_flush = mpi_dcache_flush,
        .shm_write = mpi_shm_write,
        .shm_read = mpi_shm_read,
        .shm_touch = mpi_shm_touch,
        .syscall = mpi_syscall,
        .trap = mpi_trap,
        .freq_set = mpi_freq_set,
        .freq_get = mpi_freq_get,
        .volt_set = mpi_volt_set,
        .volt_get = mpi_volt_get,
        .volt_wait = rck_be_volt_wait_instant,
        .power_read = rck_be_power_unsupported,
        .cycles = mpi_cycles,
        .wtime = mpi_wtime,
        .perfctr_read = mpi_perfctr_read,
        .console_write = mpi_console_write,
        .set_context = mpi_set_context,
};

/* The plugin's own copy of the settings code knows the mpi settings too. */
__attribute__((constructor)) static void mpi_plugin_settings_register(void)
{
    rck_config_register(mpi_settings, RCK_CONFIG_RANK_MPI);
}
