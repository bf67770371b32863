/*
 * The bottom of librckmpi (docs/MPI.md, "Errors"): the library's state
 * (rk), MPI_Init's checks, raising an error through the error handler of
 * a communicator (or of the window or file that owns it), the error
 * handlers (MPI_*_create_errhandler, _set_, _get_), the error classes,
 * codes and strings, the program's own (MPI_Add_error_*) included.
 *
 * Owns: rk, the table of user error handlers, the program's error codes.
 * May call: the table of communicators (comm_tab.c), the texts of the
 * window and I/O error classes (win_err.c), the logger; nothing else of
 * librckmpi: every other file calls this one. The window or file behind
 * a communicator is found through the functions MPI_Init hands in
 * (rk_eh_owners).
 */
#include "rckmpi.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

rk_state_t rk;

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

const char *rk_err_string(int err)
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

void rk_die(int code)
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

/* The window / file whose private communicator a communicator is (win.c,
 * io.c): handed in by MPI_Init (rk_eh_owners), so that the error path,
 * which every file calls, calls none of them by name. */
static MPI_Win (*win_of_comm)(MPI_Comm comm);
static MPI_File (*file_of_comm)(MPI_Comm comm);

void rk_eh_owners(MPI_Win (*win_of)(MPI_Comm comm),
                  MPI_File (*file_of)(MPI_Comm comm))
{
    win_of_comm = win_of;
    file_of_comm = file_of;
}

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
            MPI_Win w = win_of_comm != NULL ? win_of_comm(c) : MPI_WIN_NULL;
            user_weh[eh](&w, &code, func, what);
        } else if (user_kind[eh] == RK_EH_FILE) {
            MPI_File f =
                file_of_comm != NULL ? file_of_comm(c) : MPI_FILE_NULL;
            user_feh[eh](&f, &code, func, what);
        } else
            user_eh[eh](&c, &code, func, what);
        return err;
    }
    fprintf(stderr, "MPI error in %s (rank %d): %s: %s\n", func,
            rk.init ? rk.ue : -1, rk_err_string(err), what);
    rk_die(err);
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
    rk_die(MPI_ERR_OTHER);
    return MPI_ERR_OTHER;
}

int rckmpi_check_init(const char *func)
{
    return rk_check_init(func);
}

int rk_comm_arg(MPI_Comm comm, rk_comm_t **c, const char *func)
{
    int err = rk_check_init(func);

    if (err != MPI_SUCCESS)
        return err;
    *c = rk_comm(comm);
    if (*c == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_COMM, func,
                      "invalid communicator %d", comm);
    return MPI_SUCCESS;
}

int PMPI_Error_string(int errorcode, char *string, int *resultlen)
{
    RK_MPI_GUARD;
    int cls;
    const char *user;

    if ((errorcode < 0 || errorcode > MPI_ERR_LASTCODE) &&
        !rk_user_err(errorcode, &cls, &user))
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Error_string",
                      "invalid error code %d", errorcode);
    *resultlen = snprintf(string, MPI_MAX_ERROR_STRING, "%s",
                          rk_err_string(errorcode));
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Error_string);

int PMPI_Error_class(int errorcode, int *errorclass)
{
    RK_MPI_GUARD;
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

/* MPI-1's name for MPI_Comm_create_errhandler (the same function type:
 * MPI_Handler_function) */
int PMPI_Errhandler_create(MPI_Handler_function *function,
                           MPI_Errhandler *errhandler)
{
    RK_MPI_GUARD;
    return PMPI_Comm_create_errhandler(function, errhandler);
}
RK_MPI_ALIAS(Errhandler_create);

int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler eh)
{
    RK_MPI_GUARD;
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
    RK_MPI_GUARD;
    return create_eh(RK_EH_WIN, NULL, fn, NULL, eh,
                     "MPI_Win_create_errhandler");
}
RK_MPI_ALIAS(Win_create_errhandler);

int PMPI_File_create_errhandler(MPI_File_errhandler_function *fn,
                                MPI_Errhandler *eh)
{
    RK_MPI_GUARD;
    return create_eh(RK_EH_FILE, NULL, NULL, fn, eh,
                     "MPI_File_create_errhandler");
}
RK_MPI_ALIAS(File_create_errhandler);

int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *eh)
{
    RK_MPI_GUARD;
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
    RK_MPI_GUARD;
    return PMPI_Comm_set_errhandler(comm, eh);
}
RK_MPI_ALIAS(Errhandler_set);

int PMPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *eh)
{
    RK_MPI_GUARD;
    return PMPI_Comm_get_errhandler(comm, eh);
}
RK_MPI_ALIAS(Errhandler_get);

int PMPI_Comm_create_errhandler(MPI_Comm_errhandler_function *fn,
                                MPI_Errhandler *eh)
{
    RK_MPI_GUARD;
    int err = rk_check_init("MPI_Comm_create_errhandler");

    if (err != MPI_SUCCESS)
        return err;
    return create_eh(RK_EH_COMM, fn, NULL, NULL, eh,
                     "MPI_Comm_create_errhandler");
}
RK_MPI_ALIAS(Comm_create_errhandler);

int PMPI_Errhandler_free(MPI_Errhandler *eh)
{
    RK_MPI_GUARD;
    /* the predefined ones stay; a user handler stays while communicators
     * use it (they keep its handle), so it is kept */
    *eh = MPI_ERRHANDLER_NULL;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Errhandler_free);

int PMPI_Comm_call_errhandler(MPI_Comm comm, int errorcode)
{
    RK_MPI_GUARD;
    return rk_fatal(comm, errorcode, "MPI_Comm_call_errhandler",
                    "called by the program");
}
RK_MPI_ALIAS(Comm_call_errhandler);

/* ---- error classes and codes of the program (MPI-3.1 8.5) ---- */

/* code MPI_ERR_LASTCODE + 1 + i is uerr.e[i] */
static struct {
    struct {
        int cls;    /* its class (a class: itself) */
        char *text; /* MPI_Add_error_string's, or NULL */
    } *e;
    int n, cap;
} uerr;

int rk_user_err(int code, int *cls, const char **str)
{
    int i = code - MPI_ERR_LASTCODE - 1;

    if (i < 0 || i >= uerr.n)
        return 0;
    *cls = uerr.e[i].cls;
    *str = uerr.e[i].text != NULL ? uerr.e[i].text : "";
    return 1;
}

int rk_last_used_code(void)
{
    return MPI_ERR_LASTCODE + uerr.n;
}

void rk_user_errs_finalize(void)
{
    for (int i = 0; i < uerr.n; i++)
        free(uerr.e[i].text);
    free(uerr.e);
    memset(&uerr, 0, sizeof uerr);
}

static int add_code(int cls, int *out, const char *f)
{
    int err = rk_check_init(f);

    if (err != MPI_SUCCESS)
        return err;
    if (out == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, f, "output is NULL");
    if (uerr.n == uerr.cap) {
        int cap = uerr.cap ? 2 * uerr.cap : 16;
        void *n = realloc(uerr.e, (size_t)cap * sizeof(*uerr.e));
        if (n == NULL)
            return rk_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, f, "no memory");
        uerr.e = n;
        uerr.cap = cap;
    }
    *out = MPI_ERR_LASTCODE + 1 + uerr.n;
    uerr.e[uerr.n].cls = cls < 0 ? *out : cls;
    uerr.e[uerr.n].text = NULL;
    uerr.n++;
    return MPI_SUCCESS;
}

int PMPI_Add_error_class(int *errorclass)
{
    RK_MPI_GUARD;
    return add_code(-1, errorclass, "MPI_Add_error_class");
}
RK_MPI_ALIAS(Add_error_class);

int PMPI_Add_error_code(int errorclass, int *errorcode)
{
    RK_MPI_GUARD;
    int cls;
    const char *s;

    if (rk_check_init("MPI_Add_error_code") == MPI_SUCCESS &&
        !(errorclass >= 0 && errorclass <= MPI_ERR_LASTCODE) &&
        !(rk_user_err(errorclass, &cls, &s) && cls == errorclass))
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Add_error_code",
                      "%d is not an error class", errorclass);
    return add_code(errorclass, errorcode, "MPI_Add_error_code");
}
RK_MPI_ALIAS(Add_error_code);

int PMPI_Add_error_string(int errorcode, const char *string)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Add_error_string";
    int i = errorcode - MPI_ERR_LASTCODE - 1, err = rk_check_init(f);
    char *copy;

    if (err != MPI_SUCCESS)
        return err;
    if (i < 0 || i >= uerr.n)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, f,
                      "%d is not a code added by MPI_Add_error_class/code "
                      "(predefined codes keep their strings)", errorcode);
    if (string == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, f, "string is NULL");
    if (strlen(string) >= MPI_MAX_ERROR_STRING)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, f,
                      "string longer than MPI_MAX_ERROR_STRING - 1");
    copy = strdup(string);
    if (copy == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, f, "no memory");
    free(uerr.e[i].text);
    uerr.e[i].text = copy;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Add_error_string);
