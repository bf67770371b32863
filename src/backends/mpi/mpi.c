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
 *    is an MPI atomic on the own rank. 4-byte MPB stores (RCCE's flags)
 *    are MPI atomics on every side, the owner's too.
 *  - wake (state word) is 1 while the core may be blocked waiting for a
 *    TAG_WAKE message. A writer, after its data is flushed, takes it
 *    1 -> 0 (wake_take: an MPI atomic, flushed); whoever succeeds sends
 *    exactly one wake message. The waiter sets wake = 1 (MPI atomic,
 *    flushed), then re-checks its conditions; if it stops waiting without
 *    a message it takes 1 -> 0 itself, and if that fails a message is on
 *    its way and it receives it. So every message is received once and no
 *    write that satisfies a condition goes unnoticed.
 *  - Unless no rank of the job can block (m->no_wake, agreed at attach:
 *    then waits on own words poll until satisfied and writers skip the
 *    wake word altogether).
 *
 * Owns: the ops table and the slots on the RMA window. May call: the
 * remote primitives (mpi_rma.c), attach (mpi_attach.c), the waits
 * (mpi_wait.c), the common backend code; none of them calls back into
 * this file (the node part gets this table from attach, as hal->ops).
 */
#include "mpi/mpi_priv.h"
#include "common/defaults.h"

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
    rck_status_t st;

    /* Words that flags live in: every write, the owner's too, is an MPI
     * atomic (an accumulate: fop without a result), so the owner's reset
     * of a flag and a peer's next set are ordered by the MPI (plain stores
     * and MPI_Put lost a set now and then on Open MPI's osc/rdma: the
     * pingpong hang, MPI-BACKEND.md). */
    MPI_Win_sync(m->win);
    st = fop(m, m->home[core], m->disp[core] + off, value, MPI_REPLACE, NULL);
    if (st != RCK_OK || core == hal->core)
        return st;
    return wake(hal, core);
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
    return m->glob + (MPI_Aint)mpi_volt_off(chip, island);
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

/* Across nodes (or RCK_MPI_NODES=rank) a core's LUT entries can name
 * memory of another host: no window (docs/LUT.md). */
static rck_status_t mpi_lut_window(rck_hal_t *hal, rck_lutwin_params_t *p)
{
    (void)p;
    hal->lutwin_none =
        "the mpi backend maps LUT windows only when every rank shares one "
        "node (here the chip state is an RMA window: another host's memory "
        "cannot be mapped); LUT entries can still be read and written";
    return RCK_ERR_UNSUPPORTED;
}

static rck_status_t mpi_job_destroy(rck_job_t *job)
{
    return RCK_OK;
}

static const rck_job_ops_t mpi_job_ops = {
    .create = mpi_job_create,
    .child_setup = mpi_job_unsupported,
    .child_wrap = rck_be_job_child_wrap_none,
    .core_attached = rck_be_job_core_attached_unknown,
    .core_exited = mpi_job_core_exited,
    .tick = rck_be_job_tick_none,
    .shm_auto = rck_be_job_shm_auto_fixed,
    .destroy = mpi_job_destroy,
};

__attribute__((visibility("default"))) const rck_hal_ops_t
    rck_mpi_plugin_ops = {
        .name = "mpi",
        .caps = RCK_CAP_MPIRUN,
        .job = &mpi_job_ops,
        .attach = mpi_attach,
        .attach_end = rck_be_attach_end_none,
        .detach = mpi_detach,
        .mpb_map = mpi_mpb_map,
        .mpb_write = mpi_mpb_write,
        .mpb_read = mpi_mpb_read,
        .mpb_copy = mpi_mpb_copy,
        .mpb_store32 = mpi_mpb_store32,
        .mpb_load32 = mpi_mpb_load32,
        .cl1invmb = mpi_cl1invmb,
        .mpb_prefetch = rck_be_mpb_prefetch_none,
        .wcb_flush = mpi_wcb_flush,
        .mpb_write_flag = rck_be_mpb_write_flag_composed,
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
        .console_write = rck_cs_console_write,
        .set_context = mpi_set_context,
        .set_message = rck_be_set_message_none,
        .monitor = rck_be_monitor_now,
        .spawn_claim = rck_be_spawn_claim_unsupported,
        .spawn_release = rck_be_spawn_release_none,
        .lut_window = mpi_lut_window,
};

/* The plugin's own copy of the settings code knows the mpi settings too. */
__attribute__((constructor)) static void mpi_plugin_settings_register(void)
{
    rck_config_register(mpi_settings, RCK_MPI_CONFIG_RANK);
}
