/*
 * The mpi backend's plugin: the on-node path. When every rank of the job
 * shares one node (MPI_COMM_TYPE_SHARED, not RCK_MPI_NODES=rank), the
 * chip state is not an RMA window but the common chip state
 * (common/chipstate.h) in a memfd of the node's first rank, mapped by
 * every rank at MPI_CHIP_ADDR (mpi_attach.c), laid out by rck_cs_layout:
 *
 *   [mpi_node_hdr_t: the node's bell][mpi_node_wait_t x ncores: each
 *   core's bell][the chip's state: rck_cs_core_t x ncores, counters,
 *   voltages][MPB x ncores]
 *
 * (the shared DRAM window is a memfd of its own, at MPI_SHM_ADDR). MPB
 * accesses, flags, TAS, interrupts, LUT, dividers, counters and voltages
 * are the chip state's slots (rck_cs_*), and waits sleep on futex
 * doorbells, as on the native backend (the bell helpers of
 * common/backend.h); this file adds only how cores wait and wake
 * (node_cs_ops):
 *
 *   waiter:  waiters++ (seq_cst); seq = bell; re-check the conditions and
 *            interrupts; rck_be_futex_wait(bell, seq); waiters--.
 *   writer:  store the data; seq_cst fence; ring the bell if waiters.
 *
 * A wait on words of the own core (own MPB, own TAS) sleeps on the own
 * core's bell; any other wait on the node's bell, which every writer
 * rings while someone sleeps there. Interrupts always ring the target's
 * bell. Shared DRAM is written with plain stores: waits on it sleep at
 * most MPI_NODE_SHM_POLL_NS at a time.
 *
 * attach installs this table (the plugin's, with these slots replaced)
 * in hal->ops; MPI itself is then used only by attach, detach and the
 * report.
 */
#include "mpi/mpi_priv.h"

/* Oversubscribed, how long a wait yields the CPU after its spin before it
 * sleeps (the writer may be the process the scheduler runs next). */
#define MPI_NODE_YIELD_NS 100000
/* Waits on shared DRAM (plain stores ring no bell) look at it this often. */
#define MPI_NODE_SHM_POLL_NS 200000

/* The segment's region of the backend's own: how each core waits. */
enum { NODE_REG_WAITS = 0, NODE_NREGS = 1 };

static const rck_cs_ops_t node_cs_ops;

rck_status_t mpi_node_layout(const rck_chip_t *chip, int nues,
                             rck_cs_layout_t *l)
{
    size_t regs[NODE_NREGS];

    regs[NODE_REG_WAITS] = sizeof(mpi_node_wait_t) * (size_t)chip->ncores;
    return rck_cs_layout(chip, nues, 0, sizeof(mpi_node_hdr_t), 0, regs,
                         NODE_NREGS, l);
}

void mpi_node_view(mpib_t *m, const rck_chip_t *chip,
                   const rck_cs_layout_t *l, size_t shm_bytes, int init)
{
    mpi_node_hdr_t *h = (mpi_node_hdr_t *)(void *)m->chip;

    rck_cs_view(&m->cs, m->chip, l, chip, &node_cs_ops);
    m->cs.shm = NULL;
    m->cs.shm_bytes = rck_be_align_up(shm_bytes, 4096);
    if (init)
        rck_cs_init(&m->cs, chip);
    m->waits = (mpi_node_wait_t *)(void *)(m->chip +
                                            l->extra_off[NODE_REG_WAITS]);
    m->any_bell = &h->any_bell;
    m->any_waiters = &h->any_waiters;
}

/* After a write that may satisfy a wait of core @p core (inlined into the
 * slots below). */
static inline __attribute__((always_inline)) void node_wrote(rck_cs_t *cs,
                                                            int core)
{
    mpib_t *m = (mpib_t *)(void *)cs; /* its first member */

    rck_be_writer_fence(m->asym);
    rck_be_bell_ring(&m->waits[core].waiters, &m->waits[core].bell);
    rck_be_bell_ring(m->any_waiters, m->any_bell);
}

/* The target may sleep on its own bell without waiting for data. */
static void node_raised(rck_hal_t *hal, int core)
{
    mpib_t *m = mb(hal);

    rck_be_bell_wake(&m->waits[core].bell);
    atomic_thread_fence(memory_order_seq_cst);
    rck_be_bell_ring(m->any_waiters, m->any_bell);
}

_Static_assert(offsetof(mpib_t, cs) == 0,
               "the chip state's slots find mpib_t through its view");

static const rck_cs_ops_t node_cs_ops = {
    .wrote = node_wrote,
    .raised = node_raised,
    .counted = rck_cs_nothing,
};

/* The chip state's writes with this path's wake-up inlined. */
static rck_status_t node_mpb_write(rck_hal_t *hal, int core, uint32_t off,
                                   const void *src, size_t len)
{
    return rck_cs_mpb_write_with(hal, core, off, src, len, node_wrote);
}

static rck_status_t node_mpb_copy(rck_hal_t *hal, int dst_core,
                                  uint32_t dst_off, int src_core,
                                  uint32_t src_off, size_t len)
{
    return rck_cs_mpb_copy_with(hal, dst_core, dst_off, src_core, src_off,
                                len, node_wrote);
}

static rck_status_t node_mpb_store32(rck_hal_t *hal, int core, uint32_t off,
                                     uint32_t value)
{
    return rck_cs_mpb_store32_with(hal, core, off, value, node_wrote);
}

static rck_status_t node_tas_release(rck_hal_t *hal, int core)
{
    return rck_cs_tas_release_with(hal, core, node_wrote);
}

/* ---- waiting ---- */

/* The own core's bell when every condition is a word of its own MPB or
 * TAS register, else the node's. @return 1 when a condition is in shared
 * DRAM (polled). */
static int node_wait_bell(mpib_t *m, int self, const rck_hal_cond_t *c,
                          int nc, _Atomic uint32_t **bell,
                          _Atomic uint32_t **waiters)
{
    int shm = 0, own = 1;

    for (int i = 0; i < nc; i++) {
        if (c[i].space == RCK_SPACE_SHM)
            shm = 1;
        if (c[i].space == RCK_SPACE_SHM || c[i].core != self)
            own = 0;
    }
    *bell = own ? &m->waits[self].bell : m->any_bell;
    *waiters = own ? &m->waits[self].waiters : m->any_waiters;
    return shm;
}

/* One look: an interrupt (handled; ends the wait if @p want_irq) or a
 * satisfied condition. @return 1 and *rc set when the wait is over. */
static int node_look(rck_hal_t *hal, const rck_hal_cond_t *conds, int nc,
                     int want_irq, int *which, rck_status_t *rc)
{
    mpib_t *m = mb(hal);
    int i;

    if ((want_irq || hal->irq_handler != NULL) &&
        rck_cs_irq_pending(&m->cs, hal->core)) {
        int cnt;

        rck_cs_irq_poll(hal, &cnt);
        if (want_irq) {
            *which = -1;
            *rc = RCK_INTERRUPTED;
            return 1;
        }
    }
    i = rck_cs_conds_check(&m->cs, conds, nc);
    if (i < 0)
        return 0;
    *which = i;
    *rc = RCK_OK;
    return 1;
}

/* Count in as a sleeper on @p bell, look once more, sleep until the bell
 * rings (or the deadline, or the shared-DRAM poll interval). */
static void node_sleep(rck_hal_t *hal, const rck_hal_cond_t *conds, int nc,
                       int want_irq, int shm, _Atomic uint32_t *bell,
                       _Atomic uint32_t *waiters, uint64_t deadline)
{
    mpib_t *m = mb(hal);
    int irq_matters = want_irq || hal->irq_handler != NULL;
    uint32_t seq;

    atomic_fetch_add(waiters, 1);
    seq = atomic_load(bell);
    /* the asymmetric fence's sleeper half (backend.h); if it fails, a
     * writer may have missed this sleeper: sleep briefly */
    int fenced = !m->asym_sleep || rck_be_asym_fence();
    if (rck_cs_conds_check(&m->cs, conds, nc) < 0 &&
        !(irq_matters && rck_cs_irq_pending(&m->cs, hal->core))) {
        uint64_t t = rck_be_now_ns();
        int64_t ns = deadline == UINT64_MAX
                         ? -1
                         : (deadline > t ? (int64_t)(deadline - t) : 0);

        if ((shm || !fenced) && (ns < 0 || ns > MPI_NODE_SHM_POLL_NS))
            ns = MPI_NODE_SHM_POLL_NS;
        if (ns != 0)
            rck_be_futex_wait(bell, seq, ns);
    }
    atomic_fetch_sub(waiters, 1);
}

static rck_status_t node_wait(rck_hal_t *hal, const rck_hal_cond_t *conds,
                              int nc, unsigned flags, int64_t timeout_ns,
                              int *which)
{
    mpib_t *m = mb(hal);
    _Atomic uint32_t *bell, *waiters;
    int want_irq = (flags & RCK_WAIT_IRQ) != 0;
    int shm = node_wait_bell(m, hal->core, conds, nc, &bell, &waiters);
    uint64_t start = rck_be_now_ns(), deadline = UINT64_MAX, t;
    rck_status_t rc;

    if (timeout_ns >= 0)
        deadline = start + (uint64_t)timeout_ns;
    for (;;) {
        if (node_look(hal, conds, nc, want_irq, which, &rc))
            return rc;
        t = rck_be_now_ns();
        if (t >= deadline)
            return RCK_ERR_TIMEDOUT;
        if ((int64_t)(t - start) < m->spin_ns) {
            /* spin on the words; the clock only now and then */
            for (int k = 0; k < 64; k++) {
                rck_be_cpu_relax();
                if (rck_cs_conds_check(&m->cs, conds, nc) >= 0)
                    break;
            }
        } else if (m->poll_sleep &&
                   (int64_t)(t - start) < m->spin_ns + MPI_NODE_YIELD_NS) {
            sched_yield();
        } else {
            node_sleep(hal, conds, nc, want_irq, shm, bell, waiters,
                       deadline);
        }
    }
}

/* ---- LUT windows, clocks, shared DRAM ---- */

static uint32_t node_lut_get(void *arg, int idx)
{
    mpib_t *m = arg;

    return rck_cs_lut_get(&m->cs, m->lut_core, idx);
}

static uint64_t node_mpb_of(void *arg, int core)
{
    mpib_t *m = arg;

    return (uint64_t)(m->cs.mpb - m->chip) + (uint64_t)core * m->cs.mpb_bytes;
}

/* One node: the window maps the node's memfds (rck/lutwin.h). */
static rck_status_t node_lut_window(rck_hal_t *hal, rck_lutwin_params_t *p)
{
    mpib_t *m = mb(hal);

    m->lut_core = hal->core;
    p->shm_fd = m->shm_fd;
    p->shm_off = 0;
    p->shm_bytes = m->shm_fd >= 0 ? m->shm_bytes : 0;
    p->mpb_fd = m->chip_fd;
    p->mpb_of = node_mpb_of;
    p->dram_fd = m->dram_fd;
    p->lut_get = node_lut_get;
    p->lut_arg = m;
    return RCK_OK;
}

/* Host time at the core's current modelled frequency. */
static rck_status_t node_cycles(rck_hal_t *hal, uint64_t *cycles)
{
    mpib_t *m = mb(hal);
    int fdiv = rck_cs_fdiv_get(&m->cs, hal->core);

    *cycles = (uint64_t)((MPI_Wtime() - m->t0) *
                         rck_chip_fdiv_mhz(&hal->chip, fdiv) * 1e6);
    return RCK_OK;
}

/* Waits on shared DRAM of other cores poll it; a flush or write wakes
 * them at once. */
static rck_status_t node_shm_flush(rck_hal_t *hal)
{
    mpib_t *m = mb(hal);

    atomic_thread_fence(memory_order_seq_cst);
    rck_be_bell_ring(m->any_waiters, m->any_bell);
    return RCK_OK;
}

static rck_status_t node_shm_write(rck_hal_t *hal, size_t off,
                                   const void *src, size_t len)
{
    memcpy(mb(hal)->cs.shm + off, src, len);
    return node_shm_flush(hal);
}

const rck_hal_ops_t *mpi_node_ops(const rck_hal_ops_t *base)
{
    static rck_hal_ops_t ops;

    if (ops.name == NULL) {
        ops = *base;
        ops.mpb_map = rck_cs_mpb_map;
        ops.mpb_write = node_mpb_write;
        ops.mpb_read = rck_cs_mpb_read;
        ops.mpb_copy = node_mpb_copy;
        ops.mpb_store32 = node_mpb_store32;
        ops.mpb_load32 = rck_cs_mpb_load32;
        ops.cl1invmb = rck_cs_cl1invmb;
        ops.wcb_flush = rck_cs_wcb_flush;
        ops.tas_try = rck_cs_tas_try;
        ops.tas_release = node_tas_release;
        ops.irq_raise = rck_cs_irq_raise;
        ops.irq_poll = rck_cs_irq_poll;
        ops.wait = node_wait;
        ops.atomic_inc = rck_cs_atomic_inc;
        ops.atomic_read = rck_cs_atomic_read;
        ops.atomic_write = rck_cs_atomic_write;
        ops.lut_read = rck_cs_lut_read;
        ops.lut_write = rck_cs_lut_write;
        ops.lut_window = node_lut_window;
        ops.freq_set = rck_cs_freq_set;
        ops.freq_get = rck_cs_freq_get;
        ops.volt_set = rck_cs_volt_set;
        ops.volt_get = rck_cs_volt_get;
        ops.cycles = node_cycles;
        ops.shm_read = rck_cs_shm_read;
        ops.shm_flush = node_shm_flush;
        ops.shm_write = node_shm_write;
    }
    return &ops;
}
