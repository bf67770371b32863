/*
 * rck_hal_spawn and the world of a process (rck/spawn.h): the request's
 * format, both directions, and the HAL call that claims dormant UEs from
 * the backend and hands the request to the launcher.
 *
 * Owns: the spawn request format, RCK_WORLD. May call: the backend's
 * spawn slots, util.
 */
#include "rck/spawn.h"

#include "rck/log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#define SPAWN_MAGIC "RCKSPAWN1"

rck_status_t rck_world_format(const int *ues, int n, char *out, size_t cap)
{
    size_t len = 0;

    if (cap == 0)
        return RCK_ERR_NOSPACE;
    out[0] = '\0';
    for (int i = 0; i < n;) {
        int j = i;
        int w;

        while (j + 1 < n && ues[j + 1] == ues[j] + 1)
            j++;
        if (j > i)
            w = snprintf(out + len, cap - len, "%s%d-%d", i ? "," : "",
                         ues[i], ues[j]);
        else
            w = snprintf(out + len, cap - len, "%s%d", i ? "," : "", ues[i]);
        if (w < 0 || (size_t)w >= cap - len)
            return RCK_ERR_NOSPACE;
        len += (size_t)w;
        i = j + 1;
    }
    return RCK_OK;
}

/* One number of a world list at *p, below @p nues. @return it or -1. */
static long world_num(const char **p, int nues)
{
    char *end;
    long v;

    if (**p < '0' || **p > '9')
        return -1;
    errno = 0;
    v = strtol(*p, &end, 10);
    if (errno != 0 || v >= nues)
        return -1;
    *p = end;
    return v;
}

rck_status_t rck_world_parse(const char *text, int nues, int **ues_out,
                             int *n_out)
{
    int *ues = malloc((size_t)(nues > 0 ? nues : 1) * sizeof(int));
    const char *p = text;
    int n = 0;

    if (ues == NULL)
        return RCK_ERR_NOMEM;
    while (*p != '\0') {
        long a = world_num(&p, nues), b = a;

        if (a >= 0 && *p == '-') {
            p++;
            b = world_num(&p, nues);
        }
        if (a < 0 || b < a || (n > 0 && a <= ues[n - 1]) ||
            (*p != '\0' && *p != ','))
            goto bad;
        for (long v = a; v <= b; v++)
            ues[n++] = (int)v;
        if (*p == ',' && *++p == '\0')
            goto bad;
    }
    if (n == 0)
        goto bad;
    *ues_out = ues;
    *n_out = n;
    return RCK_OK;

bad:
    free(ues);
    return RCK_ERR_INVALID;
}

rck_status_t rck__hal_world_init(rck_hal_t *hal)
{
    const char *text = getenv(RCK_WORLD_VAR);
    rck_status_t st;
    int in = 0;

    if (text == NULL || *text == '\0') {
        hal->world = malloc((size_t)hal->nues * sizeof(int));
        if (hal->world == NULL)
            return RCK_ERR_NOMEM;
        for (int i = 0; i < hal->nues; i++)
            hal->world[i] = i;
        hal->world_size = hal->nues;
        return RCK_OK;
    }
    st = rck_world_parse(text, hal->nues, &hal->world, &hal->world_size);
    if (st == RCK_ERR_NOMEM)
        return st;
    for (int i = 0; st == RCK_OK && i < hal->world_size; i++)
        in |= hal->world[i] == hal->ue;
    if (st != RCK_OK || !in) {
        rck_error("%s='%s': not a list of this job's UEs (0-%d) with UE %d "
                  "in it", RCK_WORLD_VAR, text, hal->nues - 1, hal->ue);
        if (st == RCK_OK)
            free(hal->world);
        hal->world = NULL;
        return RCK_ERR_CONFIG;
    }
    return RCK_OK;
}

int rck_hal_world_is_job(const rck_hal_t *hal, const char *who)
{
    if (hal->world_size == hal->nues)
        return 1;
    rck_error("%s: this process's world is %d of the job's %d UEs (a job "
              "started with 'rck run --universe', or a spawned process); "
              "%s needs every UE of the job: run it without --universe",
              who, hal->world_size, hal->nues, who);
    return 0;
}

/* ---- the request ---- */

typedef struct {
    char *buf;
    size_t len, cap;
    int full;
} enc_t;

static void put(enc_t *e, const char *s)
{
    size_t l = strlen(s) + 1;

    if (e->len + l > e->cap) {
        e->full = 1;
        return;
    }
    memcpy(e->buf + e->len, s, l);
    e->len += l;
}

static void put_int(enc_t *e, long v)
{
    char num[24];

    snprintf(num, sizeof num, "%ld", v);
    put(e, num);
}

static size_t count(char *const *v)
{
    size_t n = 0;

    while (v != NULL && v[n] != NULL)
        n++;
    return n;
}

/* The request for @p argv on @p ues, with @p env and the new RCK_WORLD. */
static rck_status_t encode(enc_t *e, char *const argv[], char *const env[],
                           int n, const int *ues)
{
    char world[1024] = RCK_WORLD_VAR "=";
    size_t wl = strlen(world);

    if (rck_world_format(ues, n, world + wl, sizeof world - wl) != RCK_OK)
        return RCK_ERR_NOSPACE;
    put(e, SPAWN_MAGIC);
    put_int(e, n);
    for (int i = 0; i < n; i++)
        put_int(e, ues[i]);
    put_int(e, (long)count(argv));
    for (size_t i = 0; argv[i] != NULL; i++)
        put(e, argv[i]);
    put_int(e, (long)count(env) + 1);
    for (size_t i = 0; env != NULL && env[i] != NULL; i++)
        put(e, env[i]);
    put(e, world);
    return e->full ? RCK_ERR_NOSPACE : RCK_OK;
}

rck_status_t rck_hal_spawn(rck_hal_t *hal, char *const argv[],
                           char *const env[], int n, int *ues)
{
    const char *fds = getenv(RCK_SPAWN_FD_VAR);
    enc_t e = {0};
    rck_status_t st;
    int fd;

    if (hal == NULL || argv == NULL || argv[0] == NULL || ues == NULL ||
        n < 1 || n > hal->nues) {
        rck_error("rck_hal_spawn: invalid arguments (%d UEs of %d)", n,
                  hal != NULL ? hal->nues : 0);
        return RCK_ERR_INVALID;
    }
    /* not reported: the caller says why (under MPI_ERRORS_RETURN, not
     * at all) */
    if (!(hal->ops->caps & RCK_CAP_IDLE_CORES) || fds == NULL ||
        (fd = atoi(fds)) < 0)
        return RCK_ERR_UNSUPPORTED;
    e.cap = RCK_SPAWN_MAX;
    e.buf = malloc(e.cap);
    if (e.buf == NULL)
        return RCK_ERR_NOMEM;
    st = hal->ops->spawn_claim(hal, n, ues);
    if (st != RCK_OK)
        goto out;
    st = encode(&e, argv, env, n, ues);
    if (st == RCK_OK &&
        send(fd, e.buf, e.len, MSG_NOSIGNAL) != (ssize_t)e.len) {
        rck_error("rck_hal_spawn: cannot reach the launcher: %s",
                  strerror(errno));
        st = RCK_ERR_IO;
    }
    if (st != RCK_OK)
        hal->ops->spawn_release(hal, n, ues);
out:
    free(e.buf);
    return st;
}

/* The next string of the request, or NULL past its end. */
static const char *take(const char **p, const char *end)
{
    const char *s = *p;
    const char *z;

    if (s >= end || (z = memchr(s, '\0', (size_t)(end - s))) == NULL)
        return NULL;
    *p = z + 1;
    return s;
}

static long take_int(const char **p, const char *end, long max)
{
    const char *s = take(p, end);
    char *e;
    long v;

    if (s == NULL || *s == '\0')
        return -1;
    v = strtol(s, &e, 10);
    return *e != '\0' || v < 0 || v > max ? -1 : v;
}

/* Copy @p k strings from *p into @p v (NULL-terminated). */
static int take_strings(const char **p, const char *end, long k, char **v)
{
    for (long i = 0; i < k; i++) {
        const char *s = take(p, end);
        if (s == NULL)
            return -1;
        v[i] = (char *)s;
    }
    v[k] = NULL;
    return 0;
}

rck_status_t rck_spawn_decode(const char *buf, size_t len,
                              rck_spawn_req_t *req)
{
    char *mem = malloc(len + 1);
    const char *p, *end, *magic;
    long n, argc, nenv;
    size_t slots = len + 4; /* bounds every count below */

    memset(req, 0, sizeof *req);
    if (mem == NULL)
        return RCK_ERR_NOMEM;
    memcpy(mem, buf, len);
    mem[len] = '\0';
    p = mem;
    end = mem + len;
    magic = take(&p, end);
    n = take_int(&p, end, RCK_CHIP_MAX_CORES);
    if (magic == NULL || strcmp(magic, SPAWN_MAGIC) != 0 || n < 1)
        goto bad;
    req->mem = mem;
    req->ues = malloc((size_t)n * sizeof(int));
    req->argv = calloc(slots, sizeof(char *));
    req->env = calloc(slots, sizeof(char *));
    if (req->ues == NULL || req->argv == NULL || req->env == NULL) {
        rck_spawn_req_free(req);
        return RCK_ERR_NOMEM;
    }
    req->n = (int)n;
    for (long i = 0; i < n; i++) {
        long u = take_int(&p, end, RCK_CHIP_MAX_CORES - 1);
        if (u < 0)
            goto bad_req;
        req->ues[i] = (int)u;
    }
    argc = take_int(&p, end, (long)len);
    if (argc < 1 || take_strings(&p, end, argc, req->argv) != 0)
        goto bad_req;
    nenv = take_int(&p, end, (long)len);
    if (nenv < 0 || take_strings(&p, end, nenv, req->env) != 0 || p != end)
        goto bad_req;
    return RCK_OK;

bad_req:
    rck_spawn_req_free(req);
    return RCK_ERR_INVALID;
bad:
    free(mem);
    return RCK_ERR_INVALID;
}

void rck_spawn_req_free(rck_spawn_req_t *req)
{
    free(req->ues);
    free(req->argv);
    free(req->env);
    free(req->mem);
    memset(req, 0, sizeof *req);
}
