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

#include <stdlib.h>
#include <string.h>

#define KEY_BASE 100 /* user keyvals: KEY_BASE + index (predefined below) */

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
static rk_keyval_t *key_live(int keyval)
{
    rk_keyval_t *k = key_of(keyval);
    return k != NULL && !k->freed ? k : NULL;
}

static void key_unref(int keyval)
{
    rk_keyval_t *k = key_of(keyval);

    if (k != NULL && --k->refs <= 0 && k->freed)
        memset(k, 0, sizeof *k);
}

int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function *comm_copy_attr_fn,
                            MPI_Comm_delete_attr_function *comm_delete_attr_fn,
                            int *comm_keyval, void *extra_state)
{
    static const char f[] = "MPI_Comm_create_keyval";
    int err = rk_check_init(f), i;

    if (err != MPI_SUCCESS)
        return err;
    if (comm_keyval == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, f, "comm_keyval is NULL");
    for (i = 0; i < kv.n; i++)
        if (!kv.k[i].used)
            break;
    if (i == kv.n) {
        rk_keyval_t *n = realloc(kv.k, (size_t)(kv.n + 16) * sizeof(*n));
        if (n == NULL)
            return rk_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, f, "no memory");
        memset(n + kv.n, 0, 16 * sizeof(*n));
        kv.k = n;
        kv.n += 16;
    }
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
    return PMPI_Comm_create_keyval(copy_fn, delete_fn, keyval, extra_state);
}
RK_MPI_ALIAS(Keyval_create);

int PMPI_Comm_free_keyval(int *comm_keyval)
{
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
