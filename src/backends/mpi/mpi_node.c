/*
 * The mpi backend's plugin: the on-node path. When every rank of the job
 * shares one node (MPI_COMM_TYPE_SHARED, not RCK_MPI_NODES=rank), the
 * chip state is not an RMA window but a memfd of the node's first rank,
 * mapped by every rank at MPI_CHIP_ADDR (mpi_attach.c), laid out as
 *
 *   [core block x ncores] [any bell, any waiters] [counters] [voltages]
 *
 * with core c's block (MPB, then the state words of mpi_priv.h) at
 * disp[c]. MPB accesses, flags, TAS, interrupts, LUT, dividers, counters
 * and voltages are then plain loads, stores and atomics, and waits sleep
 * on futex doorbells, as on the native backend (the bell helpers of
 * common/backend.h):
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

static inline unsigned char *blk(mpib_t *m, int core)
{
    return m->chip + m->disp[core];
}

static inline _Atomic uint32_t *stw(mpib_t *m, int core, size_t word)
{
    return (_Atomic uint32_t *)(blk(m, core) + m->mpb_span + word);
}

static inline _Atomic uint32_t *glob32(mpib_t *m, size_t off)
{
    return (_Atomic uint32_t *)(m->chip + m->glob + off);
}

/* After a write that may satisfy a wait of core @p core. */
static void ring(mpib_t *m, int core)
{
    rck_be_writer_fence(m->asym);
    rck_be_bell_ring(stw(m, core, ST_WAITERS), stw(m, core, ST_BELL));
    rck_be_bell_ring(m->any_waiters, m->any_bell);
}

/* ---- MPB ---- */

static rck_status_t node_mpb_map(rck_hal_t *hal, int core, void **base)
{
    *base = blk(mb(hal), core);
    return RCK_OK;
}

static rck_status_t node_mpb_write(rck_hal_t *hal, int core, uint32_t off,
                                   const void *src, size_t len)
{
    mpib_t *m = mb(hal);

    memcpy(blk(m, core) + off, src, len);
    ring(m, core);
    return RCK_OK;
}

static rck_status_t node_mpb_read(rck_hal_t *hal, int core, uint32_t off,
                                  void *dst, size_t len)
{
    atomic_thread_fence(memory_order_acquire);
    memcpy(dst, blk(mb(hal), core) + off, len);
    return RCK_OK;
}

static rck_status_t node_mpb_copy(rck_hal_t *hal, int dst_core,
                                  uint32_t dst_off, int src_core,
                                  uint32_t src_off, size_t len)
{
    mpib_t *m = mb(hal);

    atomic_thread_fence(memory_order_acquire);
    memmove(blk(m, dst_core) + dst_off, blk(m, src_core) + src_off, len);
    ring(m, dst_core);
    return RCK_OK;
}

static rck_status_t node_mpb_store32(rck_hal_t *hal, int core, uint32_t off,
                                     uint32_t value)
{
    mpib_t *m = mb(hal);

    atomic_store_explicit((_Atomic uint32_t *)(blk(m, core) + off), value,
                          memory_order_release);
    ring(m, core);
    return RCK_OK;
}

static rck_status_t node_mpb_load32(rck_hal_t *hal, int core, uint32_t off,
                                    uint32_t *value)
{
    *value = atomic_load_explicit(
        (_Atomic uint32_t *)(blk(mb(hal), core) + off), memory_order_acquire);
    return RCK_OK;
}

/* The host is cache coherent: the calls only order, as on the chip. */
static void node_cl1invmb(rck_hal_t *hal)
{
    (void)hal;
    atomic_thread_fence(memory_order_acquire);
}

static void node_wcb_flush(rck_hal_t *hal)
{
    (void)hal;
    atomic_thread_fence(memory_order_release);
}

/* ---- TAS ---- */

static rck_status_t node_tas_try(rck_hal_t *hal, int core, int *acquired)
{
    *acquired = atomic_exchange(stw(mb(hal), core, ST_TAS), 1) == 0;
    return RCK_OK;
}

static rck_status_t node_tas_release(rck_hal_t *hal, int core)
{
    mpib_t *m = mb(hal);

    atomic_store(stw(m, core, ST_TAS), 0);
    ring(m, core);
    return RCK_OK;
}

/* ---- interrupts ---- */

static rck_status_t node_irq_raise(rck_hal_t *hal, int core,
                                   rck_irq_kind_t kind)
{
    mpib_t *m = mb(hal);
    uint32_t bit, old;

    if (kind == RCK_IRQ_PIN) {
        bit = 1;
        old = atomic_exchange(stw(m, core, ST_PIN), 1);
    } else {
        bit = 1u << (hal->core % 32);
        old = atomic_fetch_or(stw(m, core, ST_GIC + 4 * (size_t)(hal->core / 32)),
                              bit);
    }
    if (old & bit)
        rck_debug("interrupt %d -> %d lost: one is already pending",
                  hal->core, core);
    /* the target may sleep on its own bell without waiting for data */
    rck_be_bell_wake(stw(m, core, ST_BELL));
    atomic_thread_fence(memory_order_seq_cst);
    rck_be_bell_ring(m->any_waiters, m->any_bell);
    return RCK_OK;
}

static int node_irq_pending(mpib_t *m, int core, int ncores)
{
    if (atomic_load_explicit(stw(m, core, ST_PIN), memory_order_relaxed))
        return 1;
    for (int w = 0; w < (ncores + 31) / 32; w++) {
        if (atomic_load_explicit(stw(m, core, ST_GIC + 4 * (size_t)w),
                                 memory_order_relaxed))
            return 1;
    }
    return 0;
}

static rck_status_t node_irq_poll(rck_hal_t *hal, int *count)
{
    mpib_t *m = mb(hal);
    int handled = 0;

    *count = 0;
    if (hal->irq_handler == NULL || m->in_handler)
        return RCK_OK;
    m->in_handler = 1;
    if (atomic_exchange(stw(m, hal->core, ST_PIN), 0)) {
        hal->irq_handler(hal, RCK_IRQ_PIN, -1, hal->irq_arg);
        handled++;
    }
    for (int w = 0; w < (hal->chip.ncores + 31) / 32; w++) {
        _Atomic uint32_t *p = stw(m, hal->core, ST_GIC + 4 * (size_t)w);
        uint32_t bits;

        if (!atomic_load_explicit(p, memory_order_relaxed))
            continue;
        bits = atomic_exchange(p, 0);
        handled += mpi_gic_deliver(hal, w, bits);
    }
    m->in_handler = 0;
    *count = handled;
    return RCK_OK;
}

/* ---- waiting ---- */

static _Atomic uint32_t *cond_word(mpib_t *m, const rck_hal_cond_t *c)
{
    switch (c->space) {
    case RCK_SPACE_MPB:
        return (_Atomic uint32_t *)(blk(m, c->core) + c->offset);
    case RCK_SPACE_TAS:
        return stw(m, c->core, ST_TAS);
    case RCK_SPACE_SHM:
        return (_Atomic uint32_t *)(m->shm + c->offset);
    }
    return NULL;
}

/* @return index of a satisfied condition, or -1. */
static int node_conds_check(mpib_t *m, const rck_hal_cond_t *c, int nc)
{
    for (int i = 0; i < nc; i++) {
        uint32_t v = atomic_load_explicit(cond_word(m, &c[i]),
                                          memory_order_acquire);
        if (rck_be_cond_holds(v, &c[i]))
            return i;
    }
    return -1;
}

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
    *bell = own ? stw(m, self, ST_BELL) : m->any_bell;
    *waiters = own ? stw(m, self, ST_WAITERS) : m->any_waiters;
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
        node_irq_pending(m, hal->core, hal->chip.ncores)) {
        int cnt;

        node_irq_poll(hal, &cnt);
        if (want_irq) {
            *which = -1;
            *rc = RCK_INTERRUPTED;
            return 1;
        }
    }
    i = node_conds_check(m, conds, nc);
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
    if (node_conds_check(m, conds, nc) < 0 &&
        !(irq_matters && node_irq_pending(m, hal->core, hal->chip.ncores))) {
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
                if (node_conds_check(m, conds, nc) >= 0)
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

/* ---- counters, LUT, dividers, voltages, shared DRAM ---- */

static rck_status_t node_atomic_inc(rck_hal_t *hal, int ctr, int32_t *old)
{
    mpib_t *m = mb(hal);

    *old = (int32_t)atomic_fetch_add(glob32(m, 4 * (size_t)ctr), 1);
    return RCK_OK;
}

static rck_status_t node_atomic_read(rck_hal_t *hal, int ctr, int32_t *value)
{
    *value = (int32_t)atomic_load(glob32(mb(hal), 4 * (size_t)ctr));
    return RCK_OK;
}

static rck_status_t node_atomic_write(rck_hal_t *hal, int ctr, int32_t value)
{
    mpib_t *m = mb(hal);

    atomic_store(glob32(m, 4 * (size_t)ctr), (uint32_t)value);
    return RCK_OK;
}

static rck_status_t node_lut_read(rck_hal_t *hal, int core, int idx,
                                  uint32_t *entry)
{
    *entry = atomic_load(stw(mb(hal), core, ST_LUT + 4 * (size_t)idx));
    return RCK_OK;
}

static uint32_t node_lut_get(void *arg, int idx)
{
    mpib_t *m = arg;

    return atomic_load(stw(m, m->lut_core, ST_LUT + 4 * (size_t)idx));
}

static uint64_t node_mpb_of(void *arg, int core)
{
    mpib_t *m = arg;

    return (uint64_t)m->disp[core];
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

static rck_status_t node_lut_write(rck_hal_t *hal, int core, int idx,
                                   uint32_t entry)
{
    atomic_store(stw(mb(hal), core, ST_LUT + 4 * (size_t)idx), entry);
    return RCK_OK;
}

static rck_status_t node_freq_set(rck_hal_t *hal, int core, int fdiv)
{
    mpib_t *m = mb(hal);
    int tile = rck_chip_tile(&hal->chip, core);

    /* The divider is per tile: both cores of the tile change. */
    for (int c = tile * hal->chip.cores_per_tile;
         c < (tile + 1) * hal->chip.cores_per_tile; c++)
        atomic_store(stw(m, c, ST_FDIV), (uint32_t)fdiv);
    return RCK_OK;
}

static rck_status_t node_freq_get(rck_hal_t *hal, int core, int *fdiv)
{
    *fdiv = (int)atomic_load(stw(mb(hal), core, ST_FDIV));
    return RCK_OK;
}

static rck_status_t node_volt_set(rck_hal_t *hal, int island, int mv)
{
    mpib_t *m = mb(hal);

    atomic_store(glob32(m, mpi_volt_off(&hal->chip, island)), (uint32_t)mv);
    return RCK_OK;
}

static rck_status_t node_volt_get(rck_hal_t *hal, int island, int *mv)
{
    mpib_t *m = mb(hal);

    *mv = (int)atomic_load(glob32(m, mpi_volt_off(&hal->chip, island)));
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
    memcpy(mb(hal)->shm + off, src, len);
    return node_shm_flush(hal);
}

const rck_hal_ops_t *mpi_node_ops(void)
{
    static rck_hal_ops_t ops;

    if (ops.name == NULL) {
        ops = rck_mpi_plugin_ops;
        ops.mpb_map = node_mpb_map;
        ops.mpb_write = node_mpb_write;
        ops.mpb_read = node_mpb_read;
        ops.mpb_copy = node_mpb_copy;
        ops.mpb_store32 = node_mpb_store32;
        ops.mpb_load32 = node_mpb_load32;
        ops.cl1invmb = node_cl1invmb;
        ops.wcb_flush = node_wcb_flush;
        ops.tas_try = node_tas_try;
        ops.tas_release = node_tas_release;
        ops.irq_raise = node_irq_raise;
        ops.irq_poll = node_irq_poll;
        ops.wait = node_wait;
        ops.atomic_inc = node_atomic_inc;
        ops.atomic_read = node_atomic_read;
        ops.atomic_write = node_atomic_write;
        ops.lut_read = node_lut_read;
        ops.lut_write = node_lut_write;
        ops.lut_window = node_lut_window;
        ops.freq_set = node_freq_set;
        ops.freq_get = node_freq_get;
        ops.volt_set = node_volt_set;
        ops.volt_get = node_volt_get;
        ops.shm_flush = node_shm_flush;
        ops.shm_write = node_shm_write;
    }
    return &ops;
}
