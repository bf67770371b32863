/*
 * Window memory in the HAL's shared DRAM (docs/MPI-ONESIDED-IO.md): at
 * MPI_Init every process reserves the same range at the top of the shared
 * window (RCK_MPI_WIN_SHM bytes, the same reservation in the same order
 * everywhere, so every process computes the same offset) and takes the
 * slice of it its UE number gives; MPI_Win_allocate and
 * MPI_Win_allocate_shared place windows in the caller's own slice with a
 * first-fit list that no other process touches. Other processes then put
 * and get with rck_hal_shm_write/read (timed by the sim like any shared
 * DRAM traffic) instead of messages.
 */
#include "win_int.h"

#include "rck/config.h"

#include <stdlib.h>
#include <string.h>

#define ALIGN 64

typedef struct {
    size_t off, len; /* in my slice */
} seg_t;

static struct {
    int ok;
    char *base;     /* the shared window in this process */
    size_t slice;   /* offset of my slice in the window */
    size_t per;     /* its bytes */
    seg_t *used;    /* my allocations, by offset */
    int nused;
} ws;

void rk_win_shm_init(void)
{
    size_t total = (size_t)rck_config_get_size("MPI_WIN_SHM"), per, off, len;
    void *base;
    rck_hal_t *hal = rk.hal;

    ws.ok = 0;
    if (rk_comm(MPI_COMM_WORLD) != NULL && rk_comm(MPI_COMM_WORLD)->rank == 0)
        rk_win_names_serve(); /* MPI_Publish_name's server (port.c) */
    if (total == 0 || rk.nues <= 0)
        return;
    per = total / (size_t)rk.nues / ALIGN * ALIGN;
    /* quietly without: a layout already frozen (RCCE_init first), a
     * window too small, or a backend that cannot map it */
    if (per < ALIGN || hal->reserve_owner != NULL ||
        rck_hal_shm_map(hal, &base, &len) != RCK_OK || base == NULL ||
        len < hal->shm_reserved || len - hal->shm_reserved < 2 * per * rk.nues)
        return;
    if (rck_hal_shm_reserve(hal, rck__mpi_lib, per * (size_t)rk.nues, ALIGN, &off) !=
        RCK_OK)
        return;
    ws.base = base;
    ws.per = per;
    ws.slice = off + per * (size_t)rk.ue;
    ws.ok = 1;
}

void *rk_win_shm_alloc(size_t size, long long *off)
{
    size_t at = 0, need = (size + ALIGN - 1) / ALIGN * ALIGN;
    int i;
    seg_t *u;

    if (!ws.ok || size == 0)
        return NULL;
    for (i = 0; i < ws.nused; i++) {
        if (ws.used[i].off - at >= need)
            break;
        at = ws.used[i].off + ws.used[i].len;
    }
    if (i == ws.nused && ws.per - at < need)
        return NULL;
    u = realloc(ws.used, (size_t)(ws.nused + 1) * sizeof(*u));
    if (u == NULL)
        return NULL;
    ws.used = u;
    memmove(u + i + 1, u + i, (size_t)(ws.nused - i) * sizeof(*u));
    u[i].off = at;
    u[i].len = need;
    ws.nused++;
    *off = (long long)(ws.slice + at);
    memset(ws.base + ws.slice + at, 0, size);
    return ws.base + ws.slice + at;
}

void rk_win_shm_free(long long off)
{
    for (int i = 0; i < ws.nused; i++)
        if ((long long)(ws.slice + ws.used[i].off) == off) {
            memmove(ws.used + i, ws.used + i + 1,
                    (size_t)(ws.nused - i - 1) * sizeof(*ws.used));
            ws.nused--;
            return;
        }
}

void *rk_win_shm_addr(long long off)
{
    return ws.ok && off >= 0 ? ws.base + off : NULL;
}

/* Copy between a packed buffer and the target region of rank @p t's
 * window in shared DRAM (@p in: into the window). */
static int shm_region(const rk_win_t *w, int t, MPI_Aint disp,
                      const rk_type_t *tt, int tcount, char *packed, int in)
{
    size_t base = (size_t)(w->roff[t] + disp);
    rck_status_t st = RCK_OK;

    if (tt->contig) {
        size_t n = tt->size * (size_t)tcount;
        if (n == 0)
            return MPI_SUCCESS;
        st = in ? rck_hal_shm_write(rk.hal, base, packed, n)
                : rck_hal_shm_read(rk.hal, base, packed, n);
        return st == RCK_OK ? MPI_SUCCESS : MPI_ERR_INTERN;
    }
    for (int i = 0; i < tcount && st == RCK_OK; i++)
        for (int k = 0; k < tt->nblocks && st == RCK_OK; k++) {
            size_t at = base + (size_t)((MPI_Aint)i * tt->extent +
                                        tt->blocks[k].off);
            st = in ? rck_hal_shm_write(rk.hal, at, packed,
                                        tt->blocks[k].len)
                    : rck_hal_shm_read(rk.hal, at, packed,
                                       tt->blocks[k].len);
            packed += tt->blocks[k].len;
        }
    return st == RCK_OK ? MPI_SUCCESS : MPI_ERR_INTERN;
}

int rk_win_shm_put(rk_win_t *w, int t, const void *odata, int ocount,
                   const rk_type_t *ot, MPI_Aint disp, const rk_type_t *tt,
                   int tcount)
{
    size_t bytes = tt->size * (size_t)tcount;
    char *tmp = NULL;
    const char *src = odata;
    int err;

    if (!ot->contig) {
        tmp = malloc(bytes > 0 ? bytes : 1);
        if (tmp == NULL)
            return MPI_ERR_NO_MEM;
        rk_pack(odata, ocount, ot, tmp);
        src = tmp;
    }
    err = shm_region(w, t, disp, tt, tcount, (char *)src, 1);
    if (err == MPI_SUCCESS && rck_hal_shm_flush(rk.hal) != RCK_OK)
        err = MPI_ERR_INTERN;
    free(tmp);
    return err;
}

int rk_win_shm_get(rk_win_t *w, int t, void *res, int rcount,
                   const rk_type_t *rt, MPI_Aint disp, const rk_type_t *tt,
                   int tcount)
{
    size_t bytes = tt->size * (size_t)tcount;
    char *tmp = rt->contig ? res : malloc(bytes > 0 ? bytes : 1);
    int err;

    if (tmp == NULL)
        return MPI_ERR_NO_MEM;
    err = shm_region(w, t, disp, tt, tcount, tmp, 0);
    if (tmp != res) {
        if (err == MPI_SUCCESS)
            rk_unpack(tmp, bytes, rcount, rt, res);
        free(tmp);
    }
    return err;
}

/* The target's own accesses to a window in shared DRAM (its side of
 * accumulates), charged by the model as plain loads and stores. */
void rk_win_shm_touch(const rk_win_t *w, const char *addr, size_t len,
                      int write)
{
    if (w->shm_off >= 0 && ws.ok && len > 0)
        rck_hal_shm_touch(rk.hal, (size_t)(addr - ws.base), len, write);
}
