/*
 * MPI_Info objects (docs/MPI.md, "Info"): ordered lists of (key, value)
 * strings. Keys are 1 .. MPI_MAX_INFO_KEY characters, values 1 ..
 * MPI_MAX_INFO_VAL (longer or empty ones: MPI_ERR_INFO_KEY /
 * MPI_ERR_INFO_VALUE); keys keep the order they were first set in
 * (MPI_Info_get_nthkey). MPI_INFO_ENV is predefined (MPI-3 section 10.5):
 * command, argv, maxprocs, soft, thread_level, from MPI_Init; it cannot be
 * freed or changed. Nothing in the library reads hints yet: calls that
 * take an info accept any.
 */
#include "rckmpi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char *key, *val;
} rk_kv_t;

typedef struct {
    int used, n, cap;
    rk_kv_t *kv;
} rk_info_t;

static struct {
    rk_info_t *i; /* [0] MPI_INFO_NULL (never used), [1] MPI_INFO_ENV */
    int n;
} inf;

static rk_info_t *info_of(MPI_Info h)
{
    if (h <= 0 || h >= inf.n || !inf.i[h].used)
        return NULL;
    return &inf.i[h];
}

static void info_clear(rk_info_t *o)
{
    for (int i = 0; i < o->n; i++) {
        free(o->kv[i].key);
        free(o->kv[i].val);
    }
    free(o->kv);
    memset(o, 0, sizeof *o);
}

static int info_new(MPI_Info *out)
{
    int h;

    for (h = 2; h < inf.n; h++)
        if (!inf.i[h].used)
            break;
    if (h >= inf.n) {
        int nn = inf.n < 2 ? 18 : inf.n + 16;
        rk_info_t *n = realloc(inf.i, (size_t)nn * sizeof(*n));
        if (n == NULL)
            return MPI_ERR_NO_MEM;
        memset(n + inf.n, 0, (size_t)(nn - inf.n) * sizeof(*n));
        inf.i = n;
        h = inf.n < 2 ? 2 : inf.n;
        inf.n = nn;
    }
    inf.i[h].used = 1;
    *out = h;
    return MPI_SUCCESS;
}

/* set without checks; MPI_ERR_NO_MEM or MPI_SUCCESS */
static int put(rk_info_t *o, const char *key, const char *val)
{
    char *v = strdup(val);

    if (v == NULL)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < o->n; i++)
        if (strcmp(o->kv[i].key, key) == 0) {
            free(o->kv[i].val);
            o->kv[i].val = v;
            return MPI_SUCCESS;
        }
    if (o->n == o->cap) {
        int nc = o->cap ? 2 * o->cap : 8;
        rk_kv_t *n = realloc(o->kv, (size_t)nc * sizeof(*n));
        if (n == NULL) {
            free(v);
            return MPI_ERR_NO_MEM;
        }
        o->kv = n;
        o->cap = nc;
    }
    o->kv[o->n].key = strdup(key);
    if (o->kv[o->n].key == NULL) {
        free(v);
        return MPI_ERR_NO_MEM;
    }
    o->kv[o->n++].val = v;
    return MPI_SUCCESS;
}

static int find(const rk_info_t *o, const char *key)
{
    for (int i = 0; i < o->n; i++)
        if (strcmp(o->kv[i].key, key) == 0)
            return i;
    return -1;
}

void rk_info_env_init(int argc, char **argv, int thread)
{
    static const char *const level[] = {
        "MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED", "MPI_THREAD_SERIALIZED",
        "MPI_THREAD_MULTIPLE"};
    char num[32];
    rk_info_t *e;

    if (inf.n < 2) {
        MPI_Info dummy;
        if (info_new(&dummy) != MPI_SUCCESS)
            return;
        inf.i[dummy].used = 0;
    }
    e = &inf.i[1];
    info_clear(e);
    e->used = 1;
    if (argv != NULL && argc > 0 && argv[0] != NULL) {
        size_t len = 0;
        put(e, "command", argv[0]);
        for (int i = 1; i < argc && argv[i] != NULL; i++)
            len += strlen(argv[i]) + 1;
        if (len > 0 && len <= MPI_MAX_INFO_VAL) {
            char *a = malloc(len), *p = a;
            if (a != NULL) {
                for (int i = 1; i < argc && argv[i] != NULL; i++) {
                    size_t l = strlen(argv[i]);
                    memcpy(p, argv[i], l);
                    p[l] = i + 1 < argc ? ' ' : '\0';
                    p += l + 1;
                }
                put(e, "argv", a);
                free(a);
            }
        }
    }
    snprintf(num, sizeof num, "%d", rk_comm(MPI_COMM_WORLD)->size);
    put(e, "maxprocs", num);
    put(e, "soft", num);
    if (thread >= 0 && thread <= MPI_THREAD_MULTIPLE)
        put(e, "thread_level", level[thread]);
}

void rk_infos_finalize(void)
{
    for (int h = 0; h < inf.n; h++)
        if (inf.i[h].used)
            info_clear(&inf.i[h]);
    free(inf.i);
    memset(&inf, 0, sizeof inf);
}

/* the info behind @p h (@p env: MPI_INFO_ENV allowed), or raised */
static int info_arg(MPI_Info h, int env, rk_info_t **o, const char *f)
{
    int err = rk_check_init(f);

    if (err != MPI_SUCCESS)
        return err;
    *o = info_of(h);
    if (*o == NULL || (!env && h == MPI_INFO_ENV))
        return rk_err(MPI_COMM_WORLD, MPI_ERR_INFO, f,
                      h == MPI_INFO_ENV ? "MPI_INFO_ENV cannot be changed"
                                        : "invalid info %d",
                      h);
    return MPI_SUCCESS;
}

static int key_arg(const char *key, const char *f)
{
    size_t l;

    if (key == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_INFO_KEY, f, "key is NULL");
    l = strlen(key);
    if (l == 0 || l > MPI_MAX_INFO_KEY)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_INFO_KEY, f,
                      "key of %zu characters (1 to %d)", l,
                      MPI_MAX_INFO_KEY);
    return MPI_SUCCESS;
}

int PMPI_Info_create(MPI_Info *info)
{
    RK_MPI_GUARD;
    int err = rk_check_init("MPI_Info_create");

    if (err != MPI_SUCCESS)
        return err;
    if (info == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Info_create",
                      "info is NULL");
    if (info_new(info) != MPI_SUCCESS)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, "MPI_Info_create",
                      "no memory");
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Info_create);

int PMPI_Info_set(MPI_Info info, const char *key, const char *value)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Info_set";
    rk_info_t *o;
    size_t l;
    int err = info_arg(info, 0, &o, f);

    if (err == MPI_SUCCESS)
        err = key_arg(key, f);
    if (err != MPI_SUCCESS)
        return err;
    l = value != NULL ? strlen(value) : 0;
    if (value == NULL || l == 0 || l > MPI_MAX_INFO_VAL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_INFO_VALUE, f,
                      "value of %zu characters (1 to %d)", l,
                      MPI_MAX_INFO_VAL);
    if (put(o, key, value) != MPI_SUCCESS)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, f, "no memory");
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Info_set);

int PMPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value,
                  int *flag)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Info_get";
    rk_info_t *o;
    int err = info_arg(info, 1, &o, f), i;

    if (err == MPI_SUCCESS)
        err = key_arg(key, f);
    if (err != MPI_SUCCESS)
        return err;
    if (valuelen < 0 || flag == NULL || (valuelen > 0 && value == NULL))
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, f,
                      "valuelen %d, or value or flag NULL", valuelen);
    i = find(o, key);
    *flag = i >= 0;
    if (i >= 0) {
        /* at most valuelen characters and the terminating NUL (value has
         * valuelen + 1 bytes, MPI-3.1 9.2) */
        size_t l = strlen(o->kv[i].val);
        if (l > (size_t)valuelen)
            l = (size_t)valuelen;
        if (value != NULL) {
            memcpy(value, o->kv[i].val, l);
            value[l] = '\0';
        }
    }
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Info_get);

int PMPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen,
                           int *flag)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Info_get_valuelen";
    rk_info_t *o;
    int err = info_arg(info, 1, &o, f), i;

    if (err == MPI_SUCCESS)
        err = key_arg(key, f);
    if (err != MPI_SUCCESS)
        return err;
    if (valuelen == NULL || flag == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, f,
                      "valuelen or flag is NULL");
    i = find(o, key);
    *flag = i >= 0;
    if (i >= 0)
        *valuelen = (int)strlen(o->kv[i].val);
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Info_get_valuelen);

int PMPI_Info_get_nkeys(MPI_Info info, int *nkeys)
{
    RK_MPI_GUARD;
    rk_info_t *o;
    int err = info_arg(info, 1, &o, "MPI_Info_get_nkeys");

    if (err != MPI_SUCCESS)
        return err;
    if (nkeys == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Info_get_nkeys",
                      "nkeys is NULL");
    *nkeys = o->n;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Info_get_nkeys);

int PMPI_Info_get_nthkey(MPI_Info info, int n, char *key)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Info_get_nthkey";
    rk_info_t *o;
    int err = info_arg(info, 1, &o, f);

    if (err != MPI_SUCCESS)
        return err;
    if (n < 0 || n >= o->n)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, f,
                      "key number %d outside 0..%d", n, o->n - 1);
    if (key == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, f, "key is NULL");
    strcpy(key, o->kv[n].key);
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Info_get_nthkey);

int PMPI_Info_delete(MPI_Info info, const char *key)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Info_delete";
    rk_info_t *o;
    int err = info_arg(info, 0, &o, f), i;

    if (err == MPI_SUCCESS)
        err = key_arg(key, f);
    if (err != MPI_SUCCESS)
        return err;
    i = find(o, key);
    if (i < 0)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_INFO_NOKEY, f,
                      "no key '%s'", key);
    free(o->kv[i].key);
    free(o->kv[i].val);
    memmove(&o->kv[i], &o->kv[i + 1], (size_t)(o->n - i - 1) * sizeof(rk_kv_t));
    o->n--;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Info_delete);

int PMPI_Info_dup(MPI_Info info, MPI_Info *newinfo)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Info_dup";
    rk_info_t *o;
    MPI_Info h;
    int err = info_arg(info, 1, &o, f);

    if (err != MPI_SUCCESS)
        return err;
    if (newinfo == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, f, "newinfo is NULL");
    if (info_new(&h) != MPI_SUCCESS)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, f, "no memory");
    o = info_of(info); /* the table may have moved */
    for (int i = 0; i < o->n; i++)
        if (put(&inf.i[h], o->kv[i].key, o->kv[i].val) != MPI_SUCCESS) {
            info_clear(&inf.i[h]);
            return rk_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, f, "no memory");
        }
    *newinfo = h;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Info_dup);

int PMPI_Info_free(MPI_Info *info)
{
    RK_MPI_GUARD;
    rk_info_t *o;
    int err;

    if (info == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Info_free",
                      "info is NULL");
    err = info_arg(*info, 0, &o, "MPI_Info_free");
    if (err != MPI_SUCCESS)
        return err;
    info_clear(o);
    *info = MPI_INFO_NULL;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Info_free);
