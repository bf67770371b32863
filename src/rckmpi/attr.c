/*
 * Attribute caching on communicators (docs/MPI.md, "Attributes"): keyvals
 * with copy and delete callbacks (MPI_Comm_create_keyval and MPI-1's
 * MPI_Keyval_create), MPI_Comm_set/get/delete_attr (MPI_Attr_put/get/
 * delete). A communicator's attributes are a list on rk_comm_t.attrs;
 * MPI_Comm_dup runs the copy callbacks (rk_attr_dup), MPI_Comm_free and
 * the communicator's release the delete callbacks (rk_attr_delete_all).
 * The predefined keys (MPI_TAG_UB, ...) are answered by init.c's
 * MPI_Comm_get_attr and cannot be set or deleted.
 *
 * A keyval freed while attributes still use it stays until the last of
 * them is deleted (refs), as the standard asks.
 */
#include "rckmpi.h"
#include "win_int.h"

#include <stdlib.h>
#include <string.h>

/* user keyvals: KEY_BASE + index; the predefined keys are below it
 * (communicators 1-6, windows 101-105) */
#define KEY_BASE 1000

/* what a keyval is for: one table serves the three kinds, and a keyval of
 * one kind is invalid (MPI_ERR_KEYVAL) on the others */
enum { K_COMM, K_TYPE, K_WIN };

struct rk_attr {
    struct rk_attr *next;
    int keyval;
    void *val;
};

typedef struct {
    int used, freed, refs;
    MPI_Comm_copy_attr_function *copy;
    MPI_Comm_delete_attr_function *del;
    void *extra;
    int kind;
    MPI_Type_copy_attr_function *tcopy;
    MPI_Type_delete_attr_function *tdel;
    MPI_Win_copy_attr_function *wcopy;
    MPI_Win_delete_attr_function *wdel;
} rk_keyval_t;

static struct {
    rk_keyval_t *k;
    int n;
} kv;

int rckmpi_comm_dup_fn(MPI_Comm oldcomm, int keyval, void *extra_state,
                       void *attribute_val_in, void *attribute_val_out,
                       int *flag)
{
    (void)oldcomm;
    (void)keyval;
    (void)extra_state;
    *(void **)attribute_val_out = attribute_val_in;
    *flag = 1;
    return MPI_SUCCESS;
}

static rk_keyval_t *key_of(int keyval)
{
    int i = keyval - KEY_BASE;

    if (i < 0 || i >= kv.n || !kv.k[i].used)
        return NULL;
    return &kv.k[i];
}

/* a keyval a program may still use (not freed) */
static rk_keyval_t *key_live_kind(int keyval, int kind)
{
    rk_keyval_t *k = key_of(keyval);
    return k != NULL && !k->freed && k->kind == kind ? k : NULL;
}

static rk_keyval_t *key_live(int keyval)
{
    return key_live_kind(keyval, K_COMM);
}

static void key_unref(int keyval)
{
    rk_keyval_t *k = key_of(keyval);

    if (k != NULL && --k->refs <= 0 && k->freed)
        memset(k, 0, sizeof *k);
}

/* a free entry of the table (grown), or -1 */
static int key_slot(void)
{
    int i;

    for (i = 0; i < kv.n; i++)
        if (!kv.k[i].used)
            return i;
    rk_keyval_t *n = realloc(kv.k, (size_t)(kv.n + 16) * sizeof(*n));
    if (n == NULL)
        return -1;
    memset(n + kv.n, 0, 16 * sizeof(*n));
    kv.k = n;
    kv.n += 16;
    return i;
}

int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function *comm_copy_attr_fn,
                            MPI_Comm_delete_attr_function *comm_delete_attr_fn,
                            int *comm_keyval, void *extra_state)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Comm_create_keyval";
    int err = rk_check_init(f), i;

    if (err != MPI_SUCCESS)
        return err;
    if (comm_keyval == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, f, "comm_keyval is NULL");
    i = key_slot();
    if (i < 0)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, f, "no memory");
    kv.k[i] = (rk_keyval_t){.used = 1,
                            .refs = 1,
                            .copy = comm_copy_attr_fn,
                            .del = comm_delete_attr_fn,
                            .extra = extra_state};
    *comm_keyval = KEY_BASE + i;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Comm_create_keyval);

int PMPI_Keyval_create(MPI_Copy_function *copy_fn,
                       MPI_Delete_function *delete_fn, int *keyval,
                       void *extra_state)
{
    RK_MPI_GUARD;
    return PMPI_Comm_create_keyval(copy_fn, delete_fn, keyval, extra_state);
}
RK_MPI_ALIAS(Keyval_create);

int PMPI_Comm_free_keyval(int *comm_keyval)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Comm_free_keyval";
    int err = rk_check_init(f);
    rk_keyval_t *k;

    if (err != MPI_SUCCESS)
        return err;
    if (comm_keyval == NULL || (k = key_live(*comm_keyval)) == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_KEYVAL, f,
                      "invalid or predefined keyval %d",
                      comm_keyval ? *comm_keyval : MPI_KEYVAL_INVALID);
    k->freed = 1;
    key_unref(*comm_keyval);
    *comm_keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Comm_free_keyval);

int PMPI_Keyval_free(int *keyval)
{
    RK_MPI_GUARD;
    return PMPI_Comm_free_keyval(keyval);
}
RK_MPI_ALIAS(Keyval_free);

static struct rk_attr **find(rk_comm_t *c, int keyval)
{
    struct rk_attr **p = &c->attrs;

    while (*p != NULL && (*p)->keyval != keyval)
        p = &(*p)->next;
    return p;
}

/* Delete the attribute at *p (its callback first; kept if it fails). */
static int delete_at(MPI_Comm comm, struct rk_attr **p)
{
    struct rk_attr *a = *p;
    rk_keyval_t *k = key_of(a->keyval);

    if (k != NULL && k->del != NULL) {
        int err = k->del(comm, a->keyval, a->val, k->extra);
        if (err != MPI_SUCCESS)
            return err;
        /* the callback may have changed the list (and the table moved) */
        p = find(rk_comm_any(comm), a->keyval);
        if (*p != a)
            return MPI_SUCCESS;
    }
    *p = a->next;
    key_unref(a->keyval);
    free(a);
    return MPI_SUCCESS;
}

int PMPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void *attribute_val)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Comm_set_attr";
    rk_comm_t *c;
    struct rk_attr **p, *a;
    int err = rk_comm_arg(comm, &c, f);

    if (err != MPI_SUCCESS)
        return err;
    if (key_live(comm_keyval) == NULL)
        return rk_err(comm, MPI_ERR_KEYVAL, f,
                      "invalid or predefined keyval %d", comm_keyval);
    p = find(c, comm_keyval);
    if (*p != NULL) {
        /* the old value's delete callback runs first */
        err = delete_at(comm, p);
        if (err != MPI_SUCCESS)
            return rk_err(comm, err, f, "the delete callback failed");
        c = rk_comm(comm);
    }
    a = malloc(sizeof *a);
    if (a == NULL)
        return rk_err(comm, MPI_ERR_NO_MEM, f, "no memory");
    a->keyval = comm_keyval;
    a->val = attribute_val;
    a->next = c->attrs;
    c->attrs = a;
    key_of(comm_keyval)->refs++;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Comm_set_attr);

int PMPI_Attr_put(MPI_Comm comm, int keyval, void *attribute_val)
{
    RK_MPI_GUARD;
    return PMPI_Comm_set_attr(comm, keyval, attribute_val);
}
RK_MPI_ALIAS(Attr_put);

/* init.c's MPI_Comm_get_attr for a key that is not predefined */
int rk_attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag)
{
    rk_comm_t *c = rk_comm(comm);
    struct rk_attr **p;

    if (key_live(keyval) == NULL)
        return rk_err(comm, MPI_ERR_KEYVAL, "MPI_Comm_get_attr",
                      "invalid keyval %d", keyval);
    p = find(c, keyval);
    *flag = *p != NULL;
    if (*p != NULL)
        *(void **)attribute_val = (*p)->val;
    return MPI_SUCCESS;
}

int PMPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Comm_delete_attr";
    rk_comm_t *c;
    struct rk_attr **p;
    int err = rk_comm_arg(comm, &c, f);

    if (err != MPI_SUCCESS)
        return err;
    if (key_live(comm_keyval) == NULL)
        return rk_err(comm, MPI_ERR_KEYVAL, f,
                      "invalid or predefined keyval %d", comm_keyval);
    p = find(c, comm_keyval);
    if (*p == NULL)
        return rk_err(comm, MPI_ERR_KEYVAL, f,
                      "no attribute for keyval %d here", comm_keyval);
    err = delete_at(comm, p);
    if (err != MPI_SUCCESS)
        return rk_err(comm, err, f, "the delete callback failed");
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Comm_delete_attr);

int PMPI_Attr_delete(MPI_Comm comm, int keyval)
{
    RK_MPI_GUARD;
    return PMPI_Comm_delete_attr(comm, keyval);
}
RK_MPI_ALIAS(Attr_delete);

int rk_attr_dup(MPI_Comm from, MPI_Comm to)
{
    /* copied in list order; the new list is built in reverse, which only
     * the order of later delete callbacks sees (unspecified by MPI) */
    for (struct rk_attr *a = rk_comm(from)->attrs; a != NULL;) {
        rk_keyval_t *k = key_of(a->keyval);
        void *out = NULL;
        int flag = 0, keyval = a->keyval;
        if (k != NULL && k->copy != NULL) {
            int err = k->copy(from, keyval, k->extra, a->val, &out, &flag);
            if (err != MPI_SUCCESS)
                return err;
        }
        if (flag) {
            struct rk_attr *n = malloc(sizeof *n);
            rk_comm_t *tc = rk_comm(to);
            if (n == NULL)
                return MPI_ERR_NO_MEM;
            n->keyval = keyval;
            n->val = out;
            n->next = tc->attrs;
            tc->attrs = n;
            key_of(keyval)->refs++;
        }
        /* the callback may have changed @p from's list: go on from this
         * key's entry if it is still there */
        struct rk_attr **p = find(rk_comm(from), keyval);
        a = *p != NULL ? (*p)->next : NULL;
    }
    return MPI_SUCCESS;
}

int rk_attr_delete_all(MPI_Comm comm)
{
    rk_comm_t *c;

    while ((c = rk_comm_any(comm)) != NULL && c->attrs != NULL) {
        int err = delete_at(comm, &c->attrs);
        if (err != MPI_SUCCESS)
            return err;
    }
    return MPI_SUCCESS;
}

void rk_attr_drop(struct rk_attr *list)
{
    while (list != NULL) {
        struct rk_attr *next = list->next;
        free(list);
        list = next;
    }
}

void rk_attrs_finalize(void)
{
    free(kv.k);
    kv.k = NULL;
    kv.n = 0;
}

/* ---- datatypes and windows (MPI-3.1 6.7.3-6.7.4) ----
 * The same lists and rules as communicators; the callbacks have the
 * object's own type. Errors are raised on MPI_COMM_WORLD (datatypes) or
 * the window's communicator (its error handler). */

int rckmpi_type_dup_fn(MPI_Datatype oldtype, int keyval, void *extra_state,
                       void *attribute_val_in, void *attribute_val_out,
                       int *flag)
{
    (void)oldtype;
    (void)keyval;
    (void)extra_state;
    *(void **)attribute_val_out = attribute_val_in;
    *flag = 1;
    return MPI_SUCCESS;
}

int rckmpi_win_dup_fn(MPI_Win oldwin, int keyval, void *extra_state,
                      void *attribute_val_in, void *attribute_val_out,
                      int *flag)
{
    (void)oldwin;
    (void)keyval;
    (void)extra_state;
    *(void **)attribute_val_out = attribute_val_in;
    *flag = 1;
    return MPI_SUCCESS;
}

/* the list of object @p h of @p kind, or NULL if it is not one */
static struct rk_attr **list_of(int kind, int h)
{
    if (kind == K_TYPE) {
        rk_type_t *t = rk_type_live(h);
        return t != NULL ? &t->attrs : NULL;
    }
    rk_win_t *w = rk_win_of(h);
    return w != NULL ? &w->attrs : NULL;
}

static MPI_Comm raise_on(int kind, int h)
{
    rk_win_t *w = kind == K_WIN ? rk_win_of(h) : NULL;
    return w != NULL ? w->comm : MPI_COMM_WORLD;
}

static int obj_arg(int kind, int h, const char *f)
{
    int err = rk_check_init(f);

    if (err != MPI_SUCCESS)
        return err;
    if (list_of(kind, h) == NULL)
        return rk_err(MPI_COMM_WORLD, kind == K_TYPE ? MPI_ERR_TYPE
                                                     : MPI_ERR_WIN,
                      f, "invalid %s %d", kind == K_TYPE ? "datatype"
                                                         : "window", h);
    return MPI_SUCCESS;
}

static struct rk_attr **obj_find(int kind, int h, int keyval)
{
    struct rk_attr **p = list_of(kind, h);

    while (*p != NULL && (*p)->keyval != keyval)
        p = &(*p)->next;
    return p;
}

static int obj_delete_at(int kind, int h, struct rk_attr **p)
{
    struct rk_attr *a = *p;
    rk_keyval_t *k = key_of(a->keyval);
    int err = MPI_SUCCESS;

    if (k != NULL && kind == K_TYPE && k->tdel != NULL)
        err = k->tdel(h, a->keyval, a->val, k->extra);
    else if (k != NULL && kind == K_WIN && k->wdel != NULL)
        err = k->wdel(h, a->keyval, a->val, k->extra);
    if (err != MPI_SUCCESS)
        return err;
    /* the callback may have changed the list (and the table moved) */
    p = obj_find(kind, h, a->keyval);
    if (*p != a)
        return MPI_SUCCESS;
    *p = a->next;
    key_unref(a->keyval);
    free(a);
    return MPI_SUCCESS;
}

static int obj_create_keyval(int kind, int *keyval, void *extra,
                             const char *f)
{
    int err = rk_check_init(f), i;

    if (err != MPI_SUCCESS)
        return err;
    if (keyval == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, f, "keyval is NULL");
    i = key_slot();
    if (i < 0)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, f, "no memory");
    kv.k[i] = (rk_keyval_t){.used = 1, .refs = 1, .kind = kind,
                            .extra = extra};
    *keyval = KEY_BASE + i;
    return MPI_SUCCESS;
}

static int obj_free_keyval(int kind, int *keyval, const char *f)
{
    int err = rk_check_init(f);
    rk_keyval_t *k;

    if (err != MPI_SUCCESS)
        return err;
    if (keyval == NULL || (k = key_live_kind(*keyval, kind)) == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_KEYVAL, f,
                      "invalid keyval %d (or not a %s keyval)",
                      keyval ? *keyval : MPI_KEYVAL_INVALID,
                      kind == K_TYPE ? "datatype" : "window");
    k->freed = 1;
    key_unref(*keyval);
    *keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}

static int obj_set(int kind, int h, int keyval, void *val, const char *f)
{
    struct rk_attr **p, *a;
    int err = obj_arg(kind, h, f);

    if (err != MPI_SUCCESS)
        return err;
    if (key_live_kind(keyval, kind) == NULL)
        return rk_err(raise_on(kind, h), MPI_ERR_KEYVAL, f,
                      "invalid or predefined keyval %d", keyval);
    p = obj_find(kind, h, keyval);
    if (*p != NULL) {
        err = obj_delete_at(kind, h, p);
        if (err != MPI_SUCCESS)
            return rk_err(raise_on(kind, h), err, f,
                          "the delete callback failed");
    }
    a = malloc(sizeof *a);
    if (a == NULL)
        return rk_err(raise_on(kind, h), MPI_ERR_NO_MEM, f, "no memory");
    p = list_of(kind, h);
    a->keyval = keyval;
    a->val = val;
    a->next = *p;
    *p = a;
    key_of(keyval)->refs++;
    return MPI_SUCCESS;
}

static int obj_get(int kind, int h, int keyval, void *val, int *flag,
                   const char *f)
{
    struct rk_attr **p;

    if (key_live_kind(keyval, kind) == NULL)
        return rk_err(raise_on(kind, h), MPI_ERR_KEYVAL, f,
                      "invalid keyval %d", keyval);
    if (val == NULL || flag == NULL)
        return rk_err(raise_on(kind, h), MPI_ERR_ARG, f,
                      "attribute_val or flag is NULL");
    p = obj_find(kind, h, keyval);
    *flag = *p != NULL;
    if (*p != NULL)
        *(void **)val = (*p)->val;
    return MPI_SUCCESS;
}

static int obj_delete(int kind, int h, int keyval, const char *f)
{
    struct rk_attr **p;
    int err = obj_arg(kind, h, f);

    if (err != MPI_SUCCESS)
        return err;
    if (key_live_kind(keyval, kind) == NULL)
        return rk_err(raise_on(kind, h), MPI_ERR_KEYVAL, f,
                      "invalid or predefined keyval %d", keyval);
    p = obj_find(kind, h, keyval);
    if (*p == NULL)
        return rk_err(raise_on(kind, h), MPI_ERR_KEYVAL, f,
                      "no attribute for keyval %d here", keyval);
    err = obj_delete_at(kind, h, p);
    if (err != MPI_SUCCESS)
        return rk_err(raise_on(kind, h), err, f,
                      "the delete callback failed");
    return MPI_SUCCESS;
}

static int obj_delete_all(int kind, int h)
{
    struct rk_attr **p;

    while ((p = list_of(kind, h)) != NULL && *p != NULL) {
        int err = obj_delete_at(kind, h, p);
        if (err != MPI_SUCCESS)
            return err;
    }
    return MPI_SUCCESS;
}

int PMPI_Type_create_keyval(MPI_Type_copy_attr_function *copy_fn,
                            MPI_Type_delete_attr_function *delete_fn,
                            int *keyval, void *extra_state)
{
    RK_MPI_GUARD;
    int err = obj_create_keyval(K_TYPE, keyval, extra_state,
                                "MPI_Type_create_keyval");

    if (err == MPI_SUCCESS) {
        key_of(*keyval)->tcopy = copy_fn;
        key_of(*keyval)->tdel = delete_fn;
    }
    return err;
}
RK_MPI_ALIAS(Type_create_keyval);

int PMPI_Type_free_keyval(int *keyval)
{
    RK_MPI_GUARD;
    return obj_free_keyval(K_TYPE, keyval, "MPI_Type_free_keyval");
}
RK_MPI_ALIAS(Type_free_keyval);

int PMPI_Type_set_attr(MPI_Datatype type, int keyval, void *val)
{
    RK_MPI_GUARD;
    return obj_set(K_TYPE, type, keyval, val, "MPI_Type_set_attr");
}
RK_MPI_ALIAS(Type_set_attr);

int PMPI_Type_get_attr(MPI_Datatype type, int keyval, void *val, int *flag)
{
    RK_MPI_GUARD;
    int err = obj_arg(K_TYPE, type, "MPI_Type_get_attr");

    if (err != MPI_SUCCESS)
        return err;
    return obj_get(K_TYPE, type, keyval, val, flag, "MPI_Type_get_attr");
}
RK_MPI_ALIAS(Type_get_attr);

int PMPI_Type_delete_attr(MPI_Datatype type, int keyval)
{
    RK_MPI_GUARD;
    return obj_delete(K_TYPE, type, keyval, "MPI_Type_delete_attr");
}
RK_MPI_ALIAS(Type_delete_attr);

int rk_attr_type_dup(MPI_Datatype from, MPI_Datatype to)
{
    for (struct rk_attr *a = *list_of(K_TYPE, from); a != NULL;) {
        rk_keyval_t *k = key_of(a->keyval);
        void *out = NULL;
        int flag = 0, keyval = a->keyval;
        if (k != NULL && k->tcopy != NULL) {
            int err = k->tcopy(from, keyval, k->extra, a->val, &out, &flag);
            if (err != MPI_SUCCESS)
                return err;
        }
        if (flag) {
            struct rk_attr *n = malloc(sizeof *n), **l = list_of(K_TYPE, to);
            if (n == NULL)
                return MPI_ERR_NO_MEM;
            n->keyval = keyval;
            n->val = out;
            n->next = *l;
            *l = n;
            key_of(keyval)->refs++;
        }
        struct rk_attr **p = obj_find(K_TYPE, from, keyval);
        a = *p != NULL ? (*p)->next : NULL;
    }
    return MPI_SUCCESS;
}

int rk_attr_type_delete_all(MPI_Datatype t)
{
    return obj_delete_all(K_TYPE, t);
}

int PMPI_Win_create_keyval(MPI_Win_copy_attr_function *copy_fn,
                           MPI_Win_delete_attr_function *delete_fn,
                           int *keyval, void *extra_state)
{
    RK_MPI_GUARD;
    int err = obj_create_keyval(K_WIN, keyval, extra_state,
                                "MPI_Win_create_keyval");

    if (err == MPI_SUCCESS) {
        key_of(*keyval)->wcopy = copy_fn;
        key_of(*keyval)->wdel = delete_fn;
    }
    return err;
}
RK_MPI_ALIAS(Win_create_keyval);

int PMPI_Win_free_keyval(int *keyval)
{
    RK_MPI_GUARD;
    return obj_free_keyval(K_WIN, keyval, "MPI_Win_free_keyval");
}
RK_MPI_ALIAS(Win_free_keyval);

int PMPI_Win_set_attr(MPI_Win win, int keyval, void *val)
{
    RK_MPI_GUARD;
    return obj_set(K_WIN, win, keyval, val, "MPI_Win_set_attr");
}
RK_MPI_ALIAS(Win_set_attr);

int rk_attr_win_get(MPI_Win win, int keyval, void *val, int *flag)
{
    return obj_get(K_WIN, win, keyval, val, flag, "MPI_Win_get_attr");
}

int PMPI_Win_delete_attr(MPI_Win win, int keyval)
{
    RK_MPI_GUARD;
    return obj_delete(K_WIN, win, keyval, "MPI_Win_delete_attr");
}
RK_MPI_ALIAS(Win_delete_attr);

int rk_attr_win_delete_all(MPI_Win w)
{
    return obj_delete_all(K_WIN, w);
}
