/*
 * The MPI environment (docs/MPI.md): MPI_Init/Finalize, time, the
 * processor name, the predefined attributes.
 *
 * Owns: the order of setting up and tearing down the library's parts.
 * May call: every part (it is the top of librckmpi's core; nothing below
 * calls it). The library's state, the error path and the error handlers
 * are in err.c, below everything.
 */
#include "rckmpi.h"

#include "rck/config.h"
#include "rck/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* settings.c's table: referenced here so that a static link that pulls in
 * MPI_Init pulls the settings in too */
extern const int rckmpi_settings_registered;

/* Implemented by the collectives (mpicoll): weak references, so the core
 * also links alone (then MPI_Init has no collectives to set up). */
#pragma weak rckmpi_coll_init
#pragma weak rckmpi_coll_finalize

static int init(void)
{
    rck_hal_t *hal;
    long tmo;
    int err;

    if (!rckmpi_settings_registered)
        return MPI_ERR_INTERN;
    rck_status_t st = rck_hal_open(NULL, &hal);

    if (st != RCK_OK) {
        fprintf(stderr, "MPI_Init: cannot attach to the chip: %s%s\n",
                rck_status_string(st),
                st == RCK_ERR_CONFIG ? " (run the program with `rck run -n "
                                       "N`)"
                                     : "");
        return MPI_ERR_OTHER;
    }
    rk.hal = hal;
    rk.ue = hal->ue;
    rk.nues = hal->nues;
    tmo = rck_config_get_int("WAIT_TIMEOUT");
    rk.wait_timeout_ns = tmo > 0 ? tmo * 1000000000ll : -1;
    /* the error path (err.c) finds the window or file behind a
     * communicator through these */
    rk_eh_owners(rk_win_by_comm, rk_file_by_comm);
    rk_types_init();
    err = rk_chan_init();
    if (err == MPI_SUCCESS)
        err = rk_p2p_init();
    if (err == MPI_SUCCESS)
        err = rk_comms_init();
    if (err != MPI_SUCCESS)
        return err;
    rk_win_shm_init(); /* one-sided windows in shared DRAM, if room */
    rk.init = 1;
    if (rckmpi_coll_init != NULL) {
        err = rckmpi_coll_init();
        if (err != MPI_SUCCESS)
            return err;
    }
    return rk_spawn_init();
}

/* The level MPI_Init_thread provides for @p required (docs/MPI.md,
 * "Threads"): what is asked, up to MPI_THREAD_MULTIPLE on a backend
 * without virtual time and MPI_THREAD_FUNNELED on one with it (the sim
 * charges a core's compute by the CPU time of the thread that calls the
 * HAL). MULTIPLE turns the lock on (lock.c) before any other thread may
 * call MPI. */
static int thread_level(int required)
{
    int most = rck_hal_caps(rk.hal) & RCK_CAP_TIMED ? MPI_THREAD_FUNNELED
                                                     : MPI_THREAD_MULTIPLE;
    int level = required < MPI_THREAD_SINGLE ? MPI_THREAD_SINGLE : required;

    if (level > most)
        level = most;
    rk_mt = level == MPI_THREAD_MULTIPLE;
    return level;
}

int PMPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    RK_MPI_GUARD;
    int err;

    if (rk.init || rk.finalized) {
        fprintf(stderr, "MPI_Init: MPI is already %s\n",
                rk.finalized ? "finalized" : "initialized");
        rk_die(MPI_ERR_OTHER);
    }
    err = init();
    if (err != MPI_SUCCESS) {
        fprintf(stderr, "MPI_Init failed: %s\n", rk_err_string(err));
        rk_die(err);
    }
    rk.thread = thread_level(required);
    rk_thread_set_main();
    rk_info_env_init(argc != NULL ? *argc : 0, argv != NULL ? *argv : NULL,
                     rk.thread);
    if (provided != NULL)
        *provided = rk.thread;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Init_thread);

int PMPI_Init(int *argc, char ***argv)
{
    RK_MPI_GUARD;
    return PMPI_Init_thread(argc, argv, MPI_THREAD_SINGLE, NULL);
}
RK_MPI_ALIAS(Init);

int PMPI_Finalize(void)
{
    RK_MPI_GUARD;
    int err = rk_check_init("MPI_Finalize");

    if (err != MPI_SUCCESS)
        return err;
    /* MPI-2: MPI_COMM_SELF's attributes are deleted first, so that a
     * library's delete callback can still communicate */
    rk_attr_delete_all(MPI_COMM_SELF);
    if (rckmpi_coll_finalize != NULL)
        rckmpi_coll_finalize();
    /* Every process gets here: drain what is still on the way out, then
     * a zero-byte exchange with every other process on the world's
     * collective context (and with every process connected by a spawn),
     * so that no one leaves while a peer still needs its
     * acknowledgements or its gEWS. */
    int size = rk_comm(MPI_COMM_WORLD)->size, me = rk_comm(MPI_COMM_WORLD)->rank;
    for (int step = 1; step < size; step++) {
        int to = (me + step) % size;
        int from = (me - step + size) % size;
        MPI_Request r[2];
        rk_irecv(NULL, 0, MPI_BYTE, from, RK_TAG_FINALIZE, MPI_COMM_WORLD, 1, &r[0],
                 "MPI_Finalize");
        rk_isend(NULL, 0, MPI_BYTE, to, RK_TAG_FINALIZE, MPI_COMM_WORLD, 1,
                 RK_MODE_STD, &r[1], "MPI_Finalize");
        MPI_Status st[2];
        PMPI_Waitall(2, r, st);
    }
    {
        MPI_Request *r = malloc((size_t)rk.nues * 2 * sizeof(*r));
        int nr = r != NULL ? rk_spawn_finalize_post(r) : 0;
        if (nr > 0)
            PMPI_Waitall(nr, r, MPI_STATUSES_IGNORE);
        free(r);
    }
    rk.finalized = 1;
    rk_comms_finalize();
    rk_p2p_finalize();
    rk_reqs_finalize();
    rk_chan_finalize();
    rk_types_finalize();
    rk_infos_finalize();
    rk_attrs_finalize();
    rk_user_errs_finalize();
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Finalize);

int PMPI_Initialized(int *flag)
{
    RK_MPI_GUARD;
    *flag = rk.init;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Initialized);

int PMPI_Finalized(int *flag)
{
    RK_MPI_GUARD;
    *flag = rk.finalized;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Finalized);

int PMPI_Query_thread(int *provided)
{
    RK_MPI_GUARD;
    int err = rk_check_init("MPI_Query_thread");

    if (err == MPI_SUCCESS)
        *provided = rk.thread;
    return err;
}
RK_MPI_ALIAS(Query_thread);

int PMPI_Is_thread_main(int *flag)
{
    RK_MPI_GUARD;
    int err = rk_check_init("MPI_Is_thread_main");

    if (err == MPI_SUCCESS)
        *flag = rk_thread_is_main();
    return err;
}
RK_MPI_ALIAS(Is_thread_main);

int PMPI_Abort(MPI_Comm comm, int errorcode)
{
    RK_MPI_GUARD;
    (void)comm;
    fprintf(stderr, "MPI_Abort: rank %d aborts the job with code %d\n",
            rk.init ? rk.ue : -1, errorcode);
    rk_die(errorcode);
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Abort);

double PMPI_Wtime(void)
{
    RK_MPI_GUARD;
    double s = 0;
    rck_hal_t *hal = rk.hal != NULL ? rk.hal : rck_hal_self();

    if (hal != NULL)
        rck_hal_wtime(hal, &s);
    return s;
}
RK_MPI_ALIAS(Wtime);

double PMPI_Wtick(void)
{
    RK_MPI_GUARD;
    /* the core's clock counts cycles */
    rck_hal_t *hal = rk.hal != NULL ? rk.hal : rck_hal_self();
    double mhz = hal != NULL && hal->chip.core_mhz > 0 ? hal->chip.core_mhz
                                                       : 533;
    return 1e-6 / mhz;
}
RK_MPI_ALIAS(Wtick);

int PMPI_Get_processor_name(char *name, int *resultlen)
{
    RK_MPI_GUARD;
    int err = rk_check_init("MPI_Get_processor_name");

    if (err != MPI_SUCCESS)
        return err;
    /* as the SCC's cores were named */
    *resultlen = snprintf(name, MPI_MAX_PROCESSOR_NAME, "rck%02d",
                          rk.hal->core);
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Get_processor_name);

int PMPI_Get_version(int *version, int *subversion)
{
    RK_MPI_GUARD;
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Get_version);

int PMPI_Get_library_version(char *version, int *resultlen)
{
    RK_MPI_GUARD;
    *resultlen = snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING,
                          "rockcreek RCKMPI-style MPI on the MPBs (channel "
                          "%s)", rk.init ? rk_chan_name()
                                         : rck_config_get("MPI_CHANNEL"));
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Get_library_version);

/* The profiling level for a tool linked in front (MPI-3.1 14.2.4): the
 * library itself has nothing to switch, so every level is accepted and
 * has no effect here; a tool's own MPI_Pcontrol sees the call. */
int PMPI_Pcontrol(const int level, ...)
{
    RK_MPI_GUARD;
    (void)level;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Pcontrol);

int PMPI_Comm_get_attr(MPI_Comm comm, int keyval, void *attribute_val,
                       int *flag)
{
    RK_MPI_GUARD;
    static int tag_ub = RK_TAG_UB, wtime_global = 1, host = MPI_PROC_NULL,
               io = MPI_ANY_SOURCE, universe, lastused;
    int err = rk_check_init("MPI_Comm_get_attr");

    if (err != MPI_SUCCESS)
        return err;
    if (rk_comm(comm) == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_COMM, "MPI_Comm_get_attr",
                      "invalid communicator %d", comm);
    *flag = 1;
    switch (keyval) {
    case MPI_TAG_UB:
        *(int **)attribute_val = &tag_ub;
        break;
    case MPI_WTIME_IS_GLOBAL:
        /* every core's clock starts with the job (sim: one virtual time) */
        *(int **)attribute_val = &wtime_global;
        break;
    case MPI_HOST:
        *(int **)attribute_val = &host;
        break;
    case MPI_IO:
        *(int **)attribute_val = &io;
        break;
    case MPI_LASTUSEDCODE:
        lastused = rk_last_used_code();
        *(int **)attribute_val = &lastused;
        break;
    case MPI_UNIVERSE_SIZE:
        /* the job's UEs: the world plus the cores spawning can use */
        universe = rk.nues;
        *(int **)attribute_val = &universe;
        break;
    default:
        *flag = 0;
        return rk_attr_get(comm, keyval, attribute_val, flag);
    }
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Comm_get_attr);

int PMPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag)
{
    RK_MPI_GUARD;
    return PMPI_Comm_get_attr(comm, keyval, attribute_val, flag);
}
RK_MPI_ALIAS(Attr_get);
