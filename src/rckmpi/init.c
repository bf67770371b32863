/*
 * The MPI environment (docs/MPI.md): MPI_Init/Finalize, errors and error
 * handlers, time, the processor name, attributes.
 */
#include "rckmpi.h"

#include "rck/config.h"
#include "rck/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

rk_state_t rk;

/* settings.c's table: referenced here so that a static link that pulls in
 * MPI_Init pulls the settings in too */
extern const int rckmpi_settings_registered;

/* Implemented by the collectives (mpicoll): weak references, so the core
 * also links alone (then MPI_Init has no collectives to set up). */
#pragma weak rckmpi_coll_init
#pragma weak rckmpi_coll_finalize

static const char *const err_text[] = {
    [MPI_SUCCESS] = "no error",
    [MPI_ERR_BUFFER] = "invalid buffer pointer",
    [MPI_ERR_COUNT] = "invalid count argument",
    [MPI_ERR_TYPE] = "invalid datatype",
    [MPI_ERR_TAG] = "invalid tag",
    [MPI_ERR_COMM] = "invalid communicator",
    [MPI_ERR_RANK] = "invalid rank",
    [MPI_ERR_REQUEST] = "invalid request",
    [MPI_ERR_ROOT] = "invalid root",
    [MPI_ERR_GROUP] = "invalid group",
    [MPI_ERR_OP] = "invalid operation",
    [MPI_ERR_TOPOLOGY] = "invalid topology",
    [MPI_ERR_DIMS] = "invalid dimension argument",
    [MPI_ERR_ARG] = "invalid argument",
    [MPI_ERR_UNKNOWN] = "unknown error",
    [MPI_ERR_TRUNCATE] = "message truncated",
    [MPI_ERR_OTHER] = "other error",
    [MPI_ERR_INTERN] = "internal error",
    [MPI_ERR_IN_STATUS] = "error code is in status",
    [MPI_ERR_PENDING] = "pending request",
    [MPI_ERR_KEYVAL] = "invalid keyval",
    [MPI_ERR_NO_MEM] = "out of memory",
    [MPI_ERR_INFO] = "invalid info",
    [MPI_ERR_SPAWN] = "could not spawn processes",
    [MPI_ERR_UNSUPPORTED_OPERATION] = "operation not implemented",
    [MPI_ERR_INFO_KEY] = "invalid info key",
    [MPI_ERR_INFO_VALUE] = "invalid info value",
    [MPI_ERR_INFO_NOKEY] = "no such info key",
};

/* the tool interface's (MPI_T_ERR_*, 28-43) */
static const char *const t_err_text[] = {
    "MPI_T: out of memory",
    "MPI_T: the tool interface is not initialized",
    "MPI_T: the tool interface cannot be initialized",
    "MPI_T: invalid index (this library has no variables or categories)",
    "MPI_T: invalid enumeration item",
    "MPI_T: invalid handle",
    "MPI_T: no more handles",
    "MPI_T: no more sessions",
    "MPI_T: invalid session",
    "MPI_T: the control variable cannot be set now",
    "MPI_T: the control variable can never be set",
    "MPI_T: the performance variable cannot be started or stopped",
    "MPI_T: the performance variable cannot be written",
    "MPI_T: the performance variable cannot be read and reset atomically",
    "MPI_T: invalid variable or category name",
    "MPI_T: invalid use of the tool interface",
};

static const char *err_string(int err)
{
    const char *user;
    int cls;

    if (rk_user_err(err, &cls, &user))
        return user;
    if (err >= RCKMPI_ERR_WINIO_FIRST && err <= RCKMPI_ERR_WINIO_LAST)
        return rk_winio_err_string(err);
    if (err < 0 || err > MPI_ERR_LASTCODE)
        return "invalid error code";
    if (err >= RCKMPI_ERR_T_FIRST && err <= RCKMPI_ERR_T_LAST)
        return t_err_text[err - RCKMPI_ERR_T_FIRST];
    if (err > RCKMPI_ERR_CORE_LAST)
        return "unused error class";
    return err_text[err];
}

static void die(int code)
{
    fflush(stdout);
    fflush(stderr);
    exit(code > 0 && code < 256 ? code : 1);
}

/* The error handler of @p comm (WORLD's when invalid or before init). */
static MPI_Errhandler handler_of(MPI_Comm comm)
{
    rk_comm_t *c = rk.init ? rk_comm(comm) : NULL;

    if (c == NULL && rk.init)
        c = rk_comm(MPI_COMM_WORLD);
    return c != NULL ? c->eh : MPI_ERRORS_ARE_FATAL;
}

/* User error handlers (MPI_Comm/Win/File_create_errhandler): handles 3
 * and up; each of one kind (RK_EH_COMM, _WIN, _FILE), with the function of
 * its kind's type. A window's and a file's error handler sits on their
 * private communicator (rk_comm_t.eh), and is called with the window or
 * file that communicator belongs to. */
#define RK_MAX_EH 64
static MPI_Comm_errhandler_function *user_eh[RK_MAX_EH];
static MPI_Win_errhandler_function *user_weh[RK_MAX_EH];
static MPI_File_errhandler_function *user_feh[RK_MAX_EH];
static int user_kind[RK_MAX_EH];

static int eh_used(MPI_Errhandler h)
{
    return h > MPI_ERRORS_RETURN && h < RK_MAX_EH &&
           (user_eh[h] != NULL || user_weh[h] != NULL || user_feh[h] != NULL);
}

int rk_fatal(MPI_Comm comm, int err, const char *func, const char *what)
{
    MPI_Errhandler eh = handler_of(comm);

    if (eh == MPI_ERRORS_RETURN)
        return err;
    if (eh_used(eh)) {
        MPI_Comm c = rk_comm(comm) != NULL ? comm : MPI_COMM_WORLD;
        int code = err;
        if (user_kind[eh] == RK_EH_WIN) {
            MPI_Win w = rk_win_by_comm(c);
            user_weh[eh](&w, &code, func, what);
        } else if (user_kind[eh] == RK_EH_FILE) {
            MPI_File f = rk_file_by_comm(c);
            user_feh[eh](&f, &code, func, what);
        } else
            user_eh[eh](&c, &code, func, what);
        return err;
    }
    fprintf(stderr, "MPI error in %s (rank %d): %s: %s\n", func,
            rk.init ? rk.ue : -1, err_string(err), what);
    die(err);
    return err;
}

int rk_err(MPI_Comm comm, int err, const char *func, const char *fmt, ...)
{
    char what[256];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return rk_fatal(comm, err, func, what);
}

int rckmpi_error(MPI_Comm comm, int err, const char *func)
{
    return rk_fatal(comm, err, func, "raised by the collective");
}

int rk_check_init(const char *func)
{
    if (rk.init && !rk.finalized)
        return MPI_SUCCESS;
    fprintf(stderr, "MPI error in %s: MPI is %s\n", func,
            rk.finalized ? "finalized" : "not initialized (call MPI_Init "
                                         "first)");
    die(MPI_ERR_OTHER);
    return MPI_ERR_OTHER;
}

int rckmpi_check_init(const char *func)
{
    return rk_check_init(func);
}

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

int PMPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    int err;

    if (rk.init || rk.finalized) {
        fprintf(stderr, "MPI_Init: MPI is already %s\n",
                rk.finalized ? "finalized" : "initialized");
        die(MPI_ERR_OTHER);
    }
    err = init();
    if (err != MPI_SUCCESS) {
        fprintf(stderr, "MPI_Init failed: %s\n", err_string(err));
        die(err);
    }
    rk.thread = required < MPI_THREAD_FUNNELED ? required
                                                : MPI_THREAD_FUNNELED;
    rk_info_env_init(argc != NULL ? *argc : 0, argv != NULL ? *argv : NULL,
                     rk.thread);
    if (provided != NULL)
        *provided = rk.thread;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Init_thread);

int PMPI_Init(int *argc, char ***argv)
{
    return PMPI_Init_thread(argc, argv, MPI_THREAD_SINGLE, NULL);
}
RK_MPI_ALIAS(Init);

int PMPI_Finalize(void)
{
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
    *flag = rk.init;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Initialized);

int PMPI_Finalized(int *flag)
{
    *flag = rk.finalized;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Finalized);

int PMPI_Query_thread(int *provided)
{
    int err = rk_check_init("MPI_Query_thread");

    if (err == MPI_SUCCESS)
        *provided = rk.thread;
    return err;
}
RK_MPI_ALIAS(Query_thread);

int PMPI_Is_thread_main(int *flag)
{
    int err = rk_check_init("MPI_Is_thread_main");

    if (err == MPI_SUCCESS)
        *flag = 1; /* single and funneled: only the main thread calls MPI */
    return err;
}
RK_MPI_ALIAS(Is_thread_main);

int PMPI_Abort(MPI_Comm comm, int errorcode)
{
    (void)comm;
    fprintf(stderr, "MPI_Abort: rank %d aborts the job with code %d\n",
            rk.init ? rk.ue : -1, errorcode);
    die(errorcode);
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Abort);

double PMPI_Wtime(void)
{
    double s = 0;
    rck_hal_t *hal = rk.hal != NULL ? rk.hal : rck_hal_self();

    if (hal != NULL)
        rck_hal_wtime(hal, &s);
    return s;
}
RK_MPI_ALIAS(Wtime);

double PMPI_Wtick(void)
{
    /* the core's clock counts cycles */
    rck_hal_t *hal = rk.hal != NULL ? rk.hal : rck_hal_self();
    double mhz = hal != NULL && hal->chip.core_mhz > 0 ? hal->chip.core_mhz
                                                       : 533;
    return 1e-6 / mhz;
}
RK_MPI_ALIAS(Wtick);

int PMPI_Get_processor_name(char *name, int *resultlen)
{
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
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Get_version);

int PMPI_Get_library_version(char *version, int *resultlen)
{
    *resultlen = snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING,
                          "rockcreek RCKMPI-style MPI on the MPBs (channel "
                          "%s)", rk.init ? rk_chan_name()
                                         : rck_config_get("MPI_CHANNEL"));
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Get_library_version);

/* MPI-1's name for MPI_Comm_create_errhandler (the same function type:
 * MPI_Handler_function) */
int PMPI_Errhandler_create(MPI_Handler_function *function,
                           MPI_Errhandler *errhandler)
{
    return PMPI_Comm_create_errhandler(function, errhandler);
}
RK_MPI_ALIAS(Errhandler_create);

/* The profiling level for a tool linked in front (MPI-3.1 14.2.4): the
 * library itself has nothing to switch, so every level is accepted and
 * has no effect here; a tool's own MPI_Pcontrol sees the call. */
int PMPI_Pcontrol(const int level, ...)
{
    (void)level;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Pcontrol);

int PMPI_Error_string(int errorcode, char *string, int *resultlen)
{
    int cls;
    const char *user;

    if ((errorcode < 0 || errorcode > MPI_ERR_LASTCODE) &&
        !rk_user_err(errorcode, &cls, &user))
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Error_string",
                      "invalid error code %d", errorcode);
    *resultlen = snprintf(string, MPI_MAX_ERROR_STRING, "%s",
                          err_string(errorcode));
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Error_string);

int PMPI_Error_class(int errorcode, int *errorclass)
{
    const char *user;

    if (rk_user_err(errorcode, errorclass, &user))
        return MPI_SUCCESS;
    if (errorcode < 0 || errorcode > MPI_ERR_LASTCODE)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Error_class",
                      "invalid error code %d", errorcode);
    *errorclass = errorcode; /* every code is its own class */
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Error_class);

int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler eh)
{
    int err = rk_check_init("MPI_Comm_set_errhandler");
    rk_comm_t *c = rk_comm(comm);

    if (err != MPI_SUCCESS)
        return err;
    if (c == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_COMM, "MPI_Comm_set_errhandler",
                      "invalid communicator %d", comm);
    return rk_set_eh(comm, eh, RK_EH_COMM, "MPI_Comm_set_errhandler");
}
RK_MPI_ALIAS(Comm_set_errhandler);

int rk_eh_fits(MPI_Errhandler eh, int kind)
{
    return eh == MPI_ERRORS_ARE_FATAL || eh == MPI_ERRORS_RETURN ||
           (eh_used(eh) && user_kind[eh] == kind);
}

int rk_set_eh(MPI_Comm comm, MPI_Errhandler eh, int kind, const char *func)
{
    static const char *const kinds[] = {"communicator", "window", "file"};
    rk_comm_t *c = rk_comm(comm);

    if (eh != MPI_ERRORS_ARE_FATAL && eh != MPI_ERRORS_RETURN &&
        !eh_used(eh))
        return rk_err(comm, MPI_ERR_ARG, func, "invalid error handler %d",
                      eh);
    if (eh_used(eh) && user_kind[eh] != kind)
        return rk_err(comm, MPI_ERR_ARG, func,
                      "error handler %d is for a %s, not a %s", eh,
                      kinds[user_kind[eh]], kinds[kind]);
    c->eh = eh;
    return MPI_SUCCESS;
}

static int create_eh(int kind, MPI_Comm_errhandler_function *cf,
                     MPI_Win_errhandler_function *wf,
                     MPI_File_errhandler_function *ff, MPI_Errhandler *eh,
                     const char *func)
{
    int err = rk_check_init(func);

    if (err != MPI_SUCCESS)
        return err;
    if (cf == NULL && wf == NULL && ff == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, func, "NULL function");
    if (eh == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, func, "errhandler is NULL");
    for (int h = MPI_ERRORS_RETURN + 1; h < RK_MAX_EH; h++)
        if (!eh_used(h)) {
            user_eh[h] = cf;
            user_weh[h] = wf;
            user_feh[h] = ff;
            user_kind[h] = kind;
            *eh = h;
            return MPI_SUCCESS;
        }
    return rk_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, func,
                  "more than %d error handlers", RK_MAX_EH - 3);
}

int PMPI_Win_create_errhandler(MPI_Win_errhandler_function *fn,
                               MPI_Errhandler *eh)
{
    return create_eh(RK_EH_WIN, NULL, fn, NULL, eh,
                     "MPI_Win_create_errhandler");
}
RK_MPI_ALIAS(Win_create_errhandler);

int PMPI_File_create_errhandler(MPI_File_errhandler_function *fn,
                                MPI_Errhandler *eh)
{
    return create_eh(RK_EH_FILE, NULL, NULL, fn, eh,
                     "MPI_File_create_errhandler");
}
RK_MPI_ALIAS(File_create_errhandler);

int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *eh)
{
    int err = rk_check_init("MPI_Comm_get_errhandler");
    rk_comm_t *c = rk_comm(comm);

    if (err != MPI_SUCCESS)
        return err;
    if (c == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_COMM, "MPI_Comm_get_errhandler",
                      "invalid communicator %d", comm);
    *eh = c->eh;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Comm_get_errhandler);

int PMPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler eh)
{
    return PMPI_Comm_set_errhandler(comm, eh);
}
RK_MPI_ALIAS(Errhandler_set);

int PMPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *eh)
{
    return PMPI_Comm_get_errhandler(comm, eh);
}
RK_MPI_ALIAS(Errhandler_get);

int PMPI_Comm_create_errhandler(MPI_Comm_errhandler_function *fn,
                                MPI_Errhandler *eh)
{
    int err = rk_check_init("MPI_Comm_create_errhandler");

    if (err != MPI_SUCCESS)
        return err;
    return create_eh(RK_EH_COMM, fn, NULL, NULL, eh,
                     "MPI_Comm_create_errhandler");
}
RK_MPI_ALIAS(Comm_create_errhandler);

int PMPI_Errhandler_free(MPI_Errhandler *eh)
{
    /* the predefined ones stay; a user handler stays while communicators
     * use it (they keep its handle), so it is kept */
    *eh = MPI_ERRHANDLER_NULL;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Errhandler_free);

int PMPI_Comm_call_errhandler(MPI_Comm comm, int errorcode)
{
    return rk_fatal(comm, errorcode, "MPI_Comm_call_errhandler",
                    "called by the program");
}
RK_MPI_ALIAS(Comm_call_errhandler);

int PMPI_Comm_get_attr(MPI_Comm comm, int keyval, void *attribute_val,
                       int *flag)
{
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
    return PMPI_Comm_get_attr(comm, keyval, attribute_val, flag);
}
RK_MPI_ALIAS(Attr_get);
