/*
 * The MPI tool information interface (MPI-3.1 14.3; docs/MPI.md "MPI-3.1").
 * The standard lets an implementation expose no control variables, no
 * performance variables and no categories; this one does exactly that, so
 * every call that names a variable, category or enumeration by index or
 * name answers with the MPI_T error class for it (MPI_T_ERR_INVALID_INDEX,
 * _INVALID_NAME, _INVALID_HANDLE). What is real: the init/finalize count
 * (usable before MPI_Init and after MPI_Finalize, as 14.3.4 requires),
 * MPI_T_ERR_NOT_INITIALIZED outside it, and performance-variable
 * sessions (created, checked, freed; they can hold no handles).
 * The MPI_T calls return their error codes and never raise them.
 */
#include "rckmpi.h"

#include <stdlib.h>
#include <string.h>

static int t_count;        /* MPI_T_init_thread minus MPI_T_finalize */
static unsigned char *sess; /* session h is live when sess[h - 1] */
static int nsess;

#define T_CHECK()                                                             \
    do {                                                                      \
        if (t_count <= 0)                                                     \
            return MPI_T_ERR_NOT_INITIALIZED;                                 \
    } while (0)

int PMPI_T_init_thread(int required, int *provided)
{
    RK_MPI_GUARD;
    if (provided == NULL || required < MPI_THREAD_SINGLE ||
        required > MPI_THREAD_MULTIPLE)
        return MPI_T_ERR_INVALID;
    /* the session table has no lock: at most MPI_THREAD_SERIALIZED */
    *provided = required < MPI_THREAD_SERIALIZED ? required
                                                 : MPI_THREAD_SERIALIZED;
    t_count++;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(T_init_thread);

int PMPI_T_finalize(void)
{
    RK_MPI_GUARD;
    T_CHECK();
    if (--t_count == 0) {
        free(sess);
        sess = NULL;
        nsess = 0;
    }
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(T_finalize);

/* ---- enumerations: none ---- */

int PMPI_T_enum_get_info(MPI_T_enum enumtype, int *num, char *name,
                         int *name_len)
{
    RK_MPI_GUARD;
    (void)enumtype;
    (void)num;
    (void)name;
    (void)name_len;
    T_CHECK();
    return MPI_T_ERR_INVALID_HANDLE;
}
RK_MPI_ALIAS(T_enum_get_info);

int PMPI_T_enum_get_item(MPI_T_enum enumtype, int index, int *value,
                         char *name, int *name_len)
{
    RK_MPI_GUARD;
    (void)enumtype;
    (void)index;
    (void)value;
    (void)name;
    (void)name_len;
    T_CHECK();
    return MPI_T_ERR_INVALID_HANDLE;
}
RK_MPI_ALIAS(T_enum_get_item);

/* ---- control variables: none ---- */

int PMPI_T_cvar_get_num(int *num_cvar)
{
    RK_MPI_GUARD;
    T_CHECK();
    if (num_cvar == NULL)
        return MPI_T_ERR_INVALID;
    *num_cvar = 0;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(T_cvar_get_num);

int PMPI_T_cvar_get_info(int cvar_index, char *name, int *name_len,
                         int *verbosity, MPI_Datatype *datatype,
                         MPI_T_enum *enumtype, char *desc, int *desc_len,
                         int *bind, int *scope)
{
    RK_MPI_GUARD;
    (void)cvar_index;
    (void)name;
    (void)name_len;
    (void)verbosity;
    (void)datatype;
    (void)enumtype;
    (void)desc;
    (void)desc_len;
    (void)bind;
    (void)scope;
    T_CHECK();
    return MPI_T_ERR_INVALID_INDEX;
}
RK_MPI_ALIAS(T_cvar_get_info);

int PMPI_T_cvar_get_index(const char *name, int *cvar_index)
{
    RK_MPI_GUARD;
    T_CHECK();
    if (name == NULL || cvar_index == NULL)
        return MPI_T_ERR_INVALID;
    return MPI_T_ERR_INVALID_NAME;
}
RK_MPI_ALIAS(T_cvar_get_index);

int PMPI_T_cvar_handle_alloc(int cvar_index, void *obj_handle,
                             MPI_T_cvar_handle *handle, int *count)
{
    RK_MPI_GUARD;
    (void)cvar_index;
    (void)obj_handle;
    (void)handle;
    (void)count;
    T_CHECK();
    return MPI_T_ERR_INVALID_INDEX;
}
RK_MPI_ALIAS(T_cvar_handle_alloc);

int PMPI_T_cvar_handle_free(MPI_T_cvar_handle *handle)
{
    RK_MPI_GUARD;
    (void)handle;
    T_CHECK();
    return MPI_T_ERR_INVALID_HANDLE;
}
RK_MPI_ALIAS(T_cvar_handle_free);

int PMPI_T_cvar_read(MPI_T_cvar_handle handle, void *buf)
{
    RK_MPI_GUARD;
    (void)handle;
    (void)buf;
    T_CHECK();
    return MPI_T_ERR_INVALID_HANDLE;
}
RK_MPI_ALIAS(T_cvar_read);

int PMPI_T_cvar_write(MPI_T_cvar_handle handle, const void *buf)
{
    RK_MPI_GUARD;
    (void)handle;
    (void)buf;
    T_CHECK();
    return MPI_T_ERR_INVALID_HANDLE;
}
RK_MPI_ALIAS(T_cvar_write);

/* ---- performance variables: none; sessions are real ---- */

int PMPI_T_pvar_get_num(int *num_pvar)
{
    RK_MPI_GUARD;
    T_CHECK();
    if (num_pvar == NULL)
        return MPI_T_ERR_INVALID;
    *num_pvar = 0;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(T_pvar_get_num);

int PMPI_T_pvar_get_info(int pvar_index, char *name, int *name_len,
                         int *verbosity, int *var_class,
                         MPI_Datatype *datatype, MPI_T_enum *enumtype,
                         char *desc, int *desc_len, int *bind, int *readonly,
                         int *continuous, int *atomic)
{
    RK_MPI_GUARD;
    (void)pvar_index;
    (void)name;
    (void)name_len;
    (void)verbosity;
    (void)var_class;
    (void)datatype;
    (void)enumtype;
    (void)desc;
    (void)desc_len;
    (void)bind;
    (void)readonly;
    (void)continuous;
    (void)atomic;
    T_CHECK();
    return MPI_T_ERR_INVALID_INDEX;
}
RK_MPI_ALIAS(T_pvar_get_info);

int PMPI_T_pvar_get_index(const char *name, int var_class, int *pvar_index)
{
    RK_MPI_GUARD;
    T_CHECK();
    if (name == NULL || pvar_index == NULL)
        return MPI_T_ERR_INVALID;
    if (var_class < MPI_T_PVAR_CLASS_STATE ||
        var_class > MPI_T_PVAR_CLASS_GENERIC)
        return MPI_T_ERR_INVALID;
    return MPI_T_ERR_INVALID_NAME;
}
RK_MPI_ALIAS(T_pvar_get_index);

static int session_live(MPI_T_pvar_session s)
{
    return s >= 1 && s <= nsess && sess[s - 1];
}

int PMPI_T_pvar_session_create(MPI_T_pvar_session *session)
{
    RK_MPI_GUARD;
    int i;

    T_CHECK();
    if (session == NULL)
        return MPI_T_ERR_INVALID;
    for (i = 0; i < nsess && sess[i]; i++)
        ;
    if (i == nsess) {
        unsigned char *n = realloc(sess, (size_t)nsess + 16);
        if (n == NULL)
            return MPI_T_ERR_MEMORY;
        memset(n + nsess, 0, 16);
        sess = n;
        nsess += 16;
    }
    sess[i] = 1;
    *session = i + 1;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(T_pvar_session_create);

int PMPI_T_pvar_session_free(MPI_T_pvar_session *session)
{
    RK_MPI_GUARD;
    T_CHECK();
    if (session == NULL || !session_live(*session))
        return MPI_T_ERR_INVALID_SESSION;
    sess[*session - 1] = 0;
    *session = MPI_T_PVAR_SESSION_NULL;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(T_pvar_session_free);

int PMPI_T_pvar_handle_alloc(MPI_T_pvar_session session, int pvar_index,
                             void *obj_handle, MPI_T_pvar_handle *handle,
                             int *count)
{
    RK_MPI_GUARD;
    (void)pvar_index;
    (void)obj_handle;
    (void)handle;
    (void)count;
    T_CHECK();
    if (!session_live(session))
        return MPI_T_ERR_INVALID_SESSION;
    return MPI_T_ERR_INVALID_INDEX;
}
RK_MPI_ALIAS(T_pvar_handle_alloc);

int PMPI_T_pvar_handle_free(MPI_T_pvar_session session,
                            MPI_T_pvar_handle *handle)
{
    RK_MPI_GUARD;
    (void)handle;
    T_CHECK();
    if (!session_live(session))
        return MPI_T_ERR_INVALID_SESSION;
    return MPI_T_ERR_INVALID_HANDLE;
}
RK_MPI_ALIAS(T_pvar_handle_free);

/* start, stop, reset: MPI_T_PVAR_ALL_HANDLES acts on every handle of the
 * session, and a session here has none, so it succeeds */
static int all_or_invalid(MPI_T_pvar_session session, MPI_T_pvar_handle h)
{
    T_CHECK();
    if (!session_live(session))
        return MPI_T_ERR_INVALID_SESSION;
    return h == MPI_T_PVAR_ALL_HANDLES ? MPI_SUCCESS
                                       : MPI_T_ERR_INVALID_HANDLE;
}

int PMPI_T_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    RK_MPI_GUARD;
    return all_or_invalid(session, handle);
}
RK_MPI_ALIAS(T_pvar_start);

int PMPI_T_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    RK_MPI_GUARD;
    return all_or_invalid(session, handle);
}
RK_MPI_ALIAS(T_pvar_stop);

int PMPI_T_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    RK_MPI_GUARD;
    return all_or_invalid(session, handle);
}
RK_MPI_ALIAS(T_pvar_reset);

/* read, write, readreset name one handle: ALL_HANDLES is not one */
static int one_handle(MPI_T_pvar_session session)
{
    T_CHECK();
    if (!session_live(session))
        return MPI_T_ERR_INVALID_SESSION;
    return MPI_T_ERR_INVALID_HANDLE;
}

int PMPI_T_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle,
                     void *buf)
{
    RK_MPI_GUARD;
    (void)handle;
    (void)buf;
    return one_handle(session);
}
RK_MPI_ALIAS(T_pvar_read);

int PMPI_T_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle,
                      const void *buf)
{
    RK_MPI_GUARD;
    (void)handle;
    (void)buf;
    return one_handle(session);
}
RK_MPI_ALIAS(T_pvar_write);

int PMPI_T_pvar_readreset(MPI_T_pvar_session session,
                          MPI_T_pvar_handle handle, void *buf)
{
    RK_MPI_GUARD;
    (void)handle;
    (void)buf;
    return one_handle(session);
}
RK_MPI_ALIAS(T_pvar_readreset);

/* ---- categories: none ---- */

int PMPI_T_category_get_num(int *num_cat)
{
    RK_MPI_GUARD;
    T_CHECK();
    if (num_cat == NULL)
        return MPI_T_ERR_INVALID;
    *num_cat = 0;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(T_category_get_num);

int PMPI_T_category_get_info(int cat_index, char *name, int *name_len,
                             char *desc, int *desc_len, int *num_cvars,
                             int *num_pvars, int *num_categories)
{
    RK_MPI_GUARD;
    (void)cat_index;
    (void)name;
    (void)name_len;
    (void)desc;
    (void)desc_len;
    (void)num_cvars;
    (void)num_pvars;
    (void)num_categories;
    T_CHECK();
    return MPI_T_ERR_INVALID_INDEX;
}
RK_MPI_ALIAS(T_category_get_info);

int PMPI_T_category_get_index(const char *name, int *cat_index)
{
    RK_MPI_GUARD;
    T_CHECK();
    if (name == NULL || cat_index == NULL)
        return MPI_T_ERR_INVALID;
    return MPI_T_ERR_INVALID_NAME;
}
RK_MPI_ALIAS(T_category_get_index);

int PMPI_T_category_get_cvars(int cat_index, int len, int indices[])
{
    RK_MPI_GUARD;
    (void)cat_index;
    (void)len;
    (void)indices;
    T_CHECK();
    return MPI_T_ERR_INVALID_INDEX;
}
RK_MPI_ALIAS(T_category_get_cvars);

int PMPI_T_category_get_pvars(int cat_index, int len, int indices[])
{
    RK_MPI_GUARD;
    (void)cat_index;
    (void)len;
    (void)indices;
    T_CHECK();
    return MPI_T_ERR_INVALID_INDEX;
}
RK_MPI_ALIAS(T_category_get_pvars);

int PMPI_T_category_get_categories(int cat_index, int len, int indices[])
{
    RK_MPI_GUARD;
    (void)cat_index;
    (void)len;
    (void)indices;
    T_CHECK();
    return MPI_T_ERR_INVALID_INDEX;
}
RK_MPI_ALIAS(T_category_get_categories);

/* the categories never change: the stamp stays 0 */
int PMPI_T_category_changed(int *stamp)
{
    RK_MPI_GUARD;
    T_CHECK();
    if (stamp == NULL)
        return MPI_T_ERR_INVALID;
    *stamp = 0;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(T_category_changed);
