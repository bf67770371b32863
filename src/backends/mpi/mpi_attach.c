/*
 * The mpi backend's plugin: attach (MPI, the chip window, shared DRAM) and
 * detach, and the exit handler that stops the job when a core fails.
 */
#include "mpi/mpi_priv.h"
#include "mpi/mpi_report.h"

/* One address for the shared DRAM window on every rank of a node, and one
 * for the chip state on one node (not the native backend's, so a program
 * could hold both; under ThreadSanitizer in its low application range). */
#if RCK_BE_TSAN
#define MPI_SHM_ADDR ((uintptr_t)0x006800000000ull)
#define MPI_CHIP_ADDR ((uintptr_t)0x007000000000ull)
#else
#define MPI_SHM_ADDR ((uintptr_t)0x3e0000000000ull)
#define MPI_CHIP_ADDR ((uintptr_t)0x3d0000000000ull)
#endif
/* How long a failing rank waits for its output to be passed on. */
#define MPI_FLUSH_MS 5000

static rck_hal_t *mpi_live; /* the attached core, for the exit handler */

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
            ((uint32_t *)(st + ST_LUT))[i] = rck_lut_default(chip, rck_config_get_size("SHM_SIZE"), c, i);
    }
    if (rank == 0) {
        size_t counters =
            rck_be_align_up((size_t)chip->atomic_counters * 4, 64);
        uint32_t *volt = (uint32_t *)(m->base + m->glob + counters);
        for (int i = 0; i < chip->nislands && i < MPI_MAX_ISLANDS; i++)
            volt[i] = (uint32_t)rck_chip_start_mv(chip);
    }
}

/* A memfd of the node leader of @p bytes, mapped by every rank of the
 * node at @p addr (not mapped when @p addr is 0; MPI_Win_allocate_shared cannot promise one address in
 * every process, which RCCE_shmalloc pointers need); the other ranks open
 * it through /proc/<pid>/fd, so a crash leaves no name behind. Collective
 * over the node. */
static rck_status_t node_share(mpib_t *m, const char *name, size_t bytes,
                               uintptr_t addr, int *fd,
                               unsigned char **out)
{
    int nrank, info[2] = {0, -1};
    void *map;
    rck_status_t st = RCK_OK;

    MPI_Comm_rank(m->node, &nrank);
    *fd = -1;
    if (nrank == 0) {
        st = rck_seg_create(name, bytes, fd, &map);
        if (st == RCK_OK) {
            munmap(map, bytes);
            info[0] = (int)getpid();
            info[1] = *fd;
        }
    }
    MPI_Bcast(info, 2, MPI_INT, 0, m->node);
    if (info[1] < 0)
        return st != RCK_OK ? st : RCK_ERR_IO;
    if (nrank != 0) {
        char path[64];

        snprintf(path, sizeof(path), "/proc/%d/fd/%d", info[0], info[1]);
        *fd = open(path, O_RDWR | O_CLOEXEC);
        if (*fd < 0) {
            rck_error("mpi backend: cannot open the node's %s %s: %s", name,
                      path, strerror(errno));
            st = RCK_ERR_IO;
        }
    }
    if (st == RCK_OK && addr != 0) {
        map = mmap((void *)addr, bytes, PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_FIXED_NOREPLACE, *fd, 0);
        if (map == MAP_FAILED || map != (void *)addr) {
            rck_error("mpi backend: cannot map the node's %s at %p: %s",
                      name, (void *)addr, strerror(errno));
            if (map != MAP_FAILED)
                munmap(map, bytes);
            st = RCK_ERR_IO;
        } else {
            *out = map;
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

/* MPI (initialised here unless the program did), our communicator, the
 * UEs and their cores, the nodes. */
static rck_status_t attach_comms(mpib_t *m, rck_hal_t *hal, int split)
{
    int inited = 0, rank, nues, nrank, leader;
    rck_status_t st;

    MPI_Initialized(&inited);
    if (!inited) {
        int provided;
        /* SERIALIZED: under MPI_THREAD_MULTIPLE librckmpi calls the HAL
         * from any of the program's threads, one at a time under its
         * lock (docs/MPI.md, "Threads") */
        if (MPI_Init_thread(NULL, NULL, MPI_THREAD_SERIALIZED, &provided) !=
            MPI_SUCCESS) {
            rck_error("mpi backend: MPI_Init failed");
            return RCK_ERR_IO;
        }
        if (provided < MPI_THREAD_SERIALIZED)
            rck_warn("mpi backend: the system MPI gives thread level %d, "
                     "below MPI_THREAD_SERIALIZED: only the main thread may "
                     "call MPI",
                     provided);
        m->inited_mpi = 1;
    }
    MPI_Comm_dup(MPI_COMM_WORLD, &m->comm);
    MPI_Comm_set_errhandler(m->comm, MPI_ERRORS_RETURN);
    MPI_Comm_rank(m->comm, &rank);
    MPI_Comm_size(m->comm, &nues);
    hal->nues = nues;
    hal->ue = rank;
    hal->ue_core = calloc((size_t)nues, sizeof(int));
    m->home = calloc((size_t)hal->chip.ncores, sizeof(int));
    m->disp = calloc((size_t)hal->chip.ncores, sizeof(MPI_Aint));
    m->ue_of_core = calloc((size_t)hal->chip.ncores, sizeof(int));
    if (hal->ue_core == NULL || m->home == NULL || m->disp == NULL ||
        m->ue_of_core == NULL)
        return RCK_ERR_NOMEM;
    st = cores_resolve(&hal->chip, nues, hal->ue_core);
    if (st != RCK_OK)
        return st;
    hal->core = hal->ue_core[rank];
    /* nodes: ranks that can share memory */
    if (split)
        MPI_Comm_split(m->comm, rank, 0, &m->node);
    else
        MPI_Comm_split_type(m->comm, MPI_COMM_TYPE_SHARED, rank,
                            MPI_INFO_NULL, &m->node);
    MPI_Comm_size(m->node, &m->node_size);
    MPI_Comm_rank(m->node, &nrank);
    leader = nrank == 0;
    MPI_Allreduce(&leader, &m->nnodes, 1, MPI_INT, MPI_SUM, m->comm);
    return RCK_OK;
}

/* One node: the chip's state (common/chipstate.h) and how the cores wait
 * in a memfd of the node's first rank, mapped at MPI_CHIP_ADDR (layout at
 * the top of mpi_node.c), initialised by that rank; no RMA window. */
static rck_status_t attach_chip_node(mpib_t *m, rck_hal_t *hal,
                                     size_t shm_bytes)
{
    const rck_chip_t *chip = &hal->chip;
    rck_cs_layout_t l;
    rck_status_t st;

    st = mpi_node_layout(chip, hal->nues, &l);
    if (st != RCK_OK)
        return st;
    m->chip_bytes = l.seg_bytes;
    st = node_share(m, "rockcreek-mpi-chip", m->chip_bytes, MPI_CHIP_ADDR,
                    &m->chip_fd, &m->chip);
    if (st != RCK_OK)
        return st;
    /* the private DRAM behind the LUT windows (sparse; rck/lutwin.h) */
    st = node_share(m, "rockcreek-mpi-dram",
                    (size_t)chip->nmc * 1024 * RCK_LUT_PAGE_BYTES, 0,
                    &m->dram_fd, NULL);
    if (st != RCK_OK)
        return st;
    /* the node's first rank; the others wait at attach's barrier before
     * they touch the state */
    mpi_node_view(m, chip, &l, shm_bytes, hal->ue == 0);
    return RCK_OK;
}

/* The chip window, locked for every rank. Split nodes use MPI_Win_create:
 * MPI cannot use its shared-memory windows for memory it did not
 * allocate, so RMA takes the path it takes between hosts. */
static rck_status_t attach_window(mpib_t *m, rck_hal_t *hal, int split)
{
    int *model = NULL, flag = 0, rank = hal->ue;
    size_t mine;
    rck_status_t st;

    layout(m, &hal->chip, hal->nues, hal->ue_core, &mine, rank);
    if (split) {
        m->own_mem = aligned_alloc(64, rck_be_align_up(mine, 64));
        if (m->own_mem == NULL)
            return RCK_ERR_NOMEM;
        m->base = m->own_mem;
        state_init(m, &hal->chip, rank, mine);
        if (MPI_Win_create(m->base, (MPI_Aint)mine, 1, MPI_INFO_NULL, m->comm,
                           &m->win) != MPI_SUCCESS) {
            rck_error("mpi backend: MPI_Win_create failed");
            return RCK_ERR_IO;
        }
    } else {
        unsigned char *wb;

        if (MPI_Win_allocate((MPI_Aint)mine + 64, 1, MPI_INFO_NULL, m->comm,
                             &wb, &m->win) != MPI_SUCCESS) {
            rck_error("mpi backend: MPI_Win_allocate failed");
            return RCK_ERR_IO;
        }
        /* MPBs start on a line (RCCE checks its pointers' alignment) */
        m->base = (unsigned char *)rck_be_align_up((uintptr_t)wb, 64);
        state_init(m, &hal->chip, rank, mine); /* before the shift below */
        st = pads_share(m, hal, hal->nues, (int)(m->base - wb));
        if (st != RCK_OK)
            return st;
    }
    MPI_Win_get_attr(m->win, MPI_WIN_MODEL, &model, &flag);
    if (!flag || *model != MPI_WIN_UNIFIED) {
        rck_error("mpi backend: this MPI gives a separate (not unified) RMA "
                  "memory model; waits poll local memory and need unified");
        return RCK_ERR_UNSUPPORTED;
    }
    MPI_Win_lock_all(MPI_MODE_NOCHECK, m->win);
    return RCK_OK;
}

/* Shared DRAM: mapped on one node, a window on rank 0 across nodes. */
static rck_status_t attach_shared(mpib_t *m, size_t bytes, int rank)
{
    void *b = NULL;
    MPI_Aint sz;

    m->shm_bytes = rck_be_align_up(bytes, 4096);
    if (m->nnodes == 1)
        return node_share(m, "rockcreek-mpi-shm", m->shm_bytes, MPI_SHM_ADDR,
                          &m->shm_fd, &m->shm);
    sz = rank == 0 ? (MPI_Aint)m->shm_bytes : 0;
    if (MPI_Win_allocate(sz, 1, MPI_INFO_NULL, m->comm, &b, &m->shm_win) !=
        MPI_SUCCESS) {
        rck_error("mpi backend: cannot allocate the shared window on rank 0 "
                  "(%zu bytes)",
                  m->shm_bytes);
        return RCK_ERR_NOMEM;
    }
    if (rank == 0)
        memset(b, 0, m->shm_bytes);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, m->shm_win);
    return RCK_OK;
}

/* RMA path: addresses for mpb_map (reserved, never backed: offsets only;
 * the on-node path maps the real MPBs). Both: how waits spin. */
static rck_status_t attach_misc(mpib_t *m, const rck_chip_t *chip)
{
    const char *s = rck_config_get("MPI_SPIN_NS");
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    char *end;
    long v = strtol(s, &end, 0);

    if (m->chip == NULL) {
        m->mpb_view_len = (size_t)chip->ncores * chip->mpb_bytes;
        m->mpb_view = mmap(NULL, m->mpb_view_len, PROT_NONE,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1,
                           0);
        if (m->mpb_view == MAP_FAILED) {
            m->mpb_view = NULL;
            return RCK_ERR_NOMEM;
        }
    }
    int given = strcmp(s, "auto") != 0 && *s != '\0' && *end == '\0' &&
                v >= 0;
    int may_block, any_blocks = 1;

    if (given)
        m->spin_ns = v;
    else
        m->spin_ns = m->node_size <= ncpu ? 50000 : 0;
    m->poll_sleep = m->node_size > ncpu;
    /* RMA path: a rank with a CPU of its own gains nothing by blocking
     * (a blocked MPI_Recv spins in both MPIs, as the poll does), so
     * unless some rank is oversubscribed or a spin time is given, no rank
     * blocks and writers skip the wake check (a remote compare-and-swap
     * per MPB write). Every rank must agree: a writer decides for its
     * target. */
    if (m->chip == NULL) {
        may_block = given || m->poll_sleep;
        MPI_Allreduce(&may_block, &any_blocks, 1, MPI_INT, MPI_MAX, m->comm);
    }
    m->no_wake = !any_blocks;
    /* on-node path: the doorbell protocol's fence moves to the sleepers
     * while waits spin (oversubscribed ranks sleep all the time, and a
     * membarrier per sleep would cost more than the fences); every rank
     * of the node decides alike (same node size, CPUs and settings) */
    if (m->chip != NULL && m->spin_ns > 0)
        rck_be_asym_setup("MPI_MEMBARRIER", rck_config_get("MPI_MEMBARRIER"),
                          &m->asym, &m->asym_sleep);
    m->ctx_peer = -1;
    return RCK_OK;
}

rck_status_t mpi_attach(rck_hal_t *hal)
{
    const char *nodes = rck_config_get("MPI_NODES");
    rck_job_params_t p;
    mpib_t *m;
    int core0, split;
    rck_status_t st;
    char tag[32];

    if (strcmp(nodes, "auto") != 0 && strcmp(nodes, "rank") != 0) {
        rck_error("RCK_MPI_NODES='%s': give auto or rank", nodes);
        return RCK_ERR_CONFIG;
    }
    split = !strcmp(nodes, "rank");
    st = rck_seg_solo_params(&hal->chip, &core0, &p);
    if (st != RCK_OK)
        return st;
    if (hal->chip.atomic_counters > MPI_MAX_COUNTERS ||
        hal->chip.nislands > MPI_MAX_ISLANDS) {
        rck_error("mpi backend: chip too large");
        return RCK_ERR_CONFIG;
    }
    m = calloc(1, sizeof(*m));
    if (m == NULL)
        return RCK_ERR_NOMEM;
    m->shm_fd = -1;
    m->chip_fd = -1;
    m->dram_fd = -1;
    m->win = MPI_WIN_NULL;
    m->shm_win = MPI_WIN_NULL;
    st = attach_comms(m, hal, split);
    /* A lone rank is one node whatever RCK_MPI_NODES says (and Open MPI
     * 4.1's default one-sided component refuses a window on a lone
     * process: MPI_ERR_WIN) */
    if (st == RCK_OK)
        st = (!split || hal->nues == 1) && m->nnodes == 1
                 ? attach_chip_node(m, hal, p.shm_bytes)
                 : attach_window(m, hal, split);
    if (st == RCK_OK)
        st = attach_shared(m, p.shm_bytes, hal->ue);
    if (st == RCK_OK && m->chip != NULL) {
        /* the shared window is a memfd of its own (MPI_SHM_ADDR) */
        m->cs.shm = m->shm;
        m->cs.shm_bytes = m->shm_bytes;
    }
    if (st == RCK_OK)
        st = attach_misc(m, &hal->chip);
    if (st != RCK_OK) {
        /* the other ranks may be inside a collective of attach: stop them
         * (without MPI, nothing else can be done either) */
        int inited = 0;
        MPI_Initialized(&inited);
        if (inited)
            MPI_Abort(MPI_COMM_WORLD, 1);
        free(m);
        return st;
    }
    hal->backend = m;
    if (m->chip != NULL)
        /* on one node: loads, stores, futexes; the rest is the plugin's
         * table, which attached us (hal->ops) */
        hal->ops = mpi_node_ops(hal->ops);
    rck_debug("mpi backend: %s path (%d node%s, %d rank%s here)",
              m->chip != NULL ? "on-node" : "RMA", m->nnodes,
              m->nnodes == 1 ? "" : "s", m->node_size,
              m->node_size == 1 ? "" : "s");
    m->attached = 1;
    mpi_live = hal;
    on_exit(mpi_on_exit, NULL);
    MPI_Barrier(m->comm);
    m->t0 = MPI_Wtime();
    snprintf(tag, sizeof(tag), "core %d", hal->core);
    rck_log_set_tag(tag);
    return RCK_OK;
}

static void mpi_teardown(rck_hal_t *hal)
{
    mpib_t *m = mb(hal);

    if (!m->attached)
        return;
    rck_mpi_report(hal, m->comm, m->t0);
    m->attached = 0;
    mpi_live = NULL;
    if (m->late_wakeups > 0)
        rck_debug("mpi backend: %lu waits were ended by their periodic "
                  "look, not by a wake-up message",
                  m->late_wakeups);
    if (m->win != MPI_WIN_NULL) {
        MPI_Win_unlock_all(m->win);
        MPI_Win_free(&m->win);
    }
    if (m->chip != NULL)
        munmap(m->chip, m->chip_bytes);
    if (m->chip_fd >= 0)
        close(m->chip_fd);
    if (m->dram_fd >= 0)
        close(m->dram_fd);
    if (m->shm_win != MPI_WIN_NULL) {
        MPI_Win_unlock_all(m->shm_win);
        MPI_Win_free(&m->shm_win);
    }
    if (m->shm != NULL)
        munmap(m->shm, m->shm_bytes);
    if (m->shm_fd >= 0)
        close(m->shm_fd);
    if (m->mpb_view != NULL)
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

/* Before MPI_Abort stops every rank (and the `rck run` that relays this
 * rank's output, src/tools/mpirank.c): close our ends of its pipes and
 * wait until it has passed everything on (RCK_MPI_FLUSH_FD becomes
 * readable), at most MPI_FLUSH_MS. @return 1 under that `rck run`. */
static int output_hand_over(void)
{
    const char *s = getenv("RCK_MPI_FLUSH_FD");
    struct pollfd p = {.fd = s != NULL ? atoi(s) : -1, .events = POLLIN};
    int null_fd;

    fflush(stdout);
    fflush(stderr);
    if (s == NULL || p.fd <= STDERR_FILENO)
        return 0;
    null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (null_fd < 0)
        return 0;
    dup2(null_fd, STDOUT_FILENO);
    dup2(null_fd, STDERR_FILENO);
    close(null_fd);
    while (poll(&p, 1, MPI_FLUSH_MS) < 0 && errno == EINTR)
        ;
    return 1;
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
                  "rank",
                  mpi_live->core, mpi_live->ue, status);
        /* Under `rck run` the rank ends as a process that failed before
         * MPI_Finalize, which both launchers answer by stopping the job
         * once they have read its output to the end; MPI_Abort would make
         * them drop what they have not read yet. */
        if (output_hand_over())
            _exit(status);
        MPI_Abort(MPI_COMM_WORLD, status);
    }
    mpi_teardown(mpi_live);
}

void mpi_detach(rck_hal_t *hal)
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
