/*
 * iRCCE helpers: one-sided put/get and MPB-aware memcpy, MPB allocation,
 * flags and tagged flags, atomic increment registers, request queries.
 */
#include "ircce_internal.h"

#include <string.h>

/* ---- where an address lives ---- */

/* @return the UE whose MPB mapping holds [p, p+n), or -1 (private). */
static int mpb_owner(const void *p, size_t n, uint32_t *off)
{
    const unsigned char *c = p;

    for (int ue = 0; ue < rcce.nues; ue++) {
        const unsigned char *b = ircce.mpb[ue];
        if (c >= b && c < b + rcce.mpb_bytes) {
            if (n > (size_t)(b + rcce.mpb_bytes - c))
                return -2;
            *off = (uint32_t)(c - b);
            return ue;
        }
    }
    return -1;
}

/* Copy between any two of: private memory, any UE's MPB mapping. */
static int copy_any(void *dst, const void *src, size_t n, int err_dst,
                    int err_src)
{
    uint32_t doff = 0, soff = 0;
    int due = mpb_owner(dst, n, &doff), sue = mpb_owner(src, n, &soff);
    rck_status_t st = RCK_OK;

    if (due == -2)
        return err_dst;
    if (sue == -2)
        return err_src;
    if (n == 0)
        return iRCCE_SUCCESS;
    if (sue >= 0)
        rck_hal_cl1invmb(rcce.hal);
    if (due >= 0 && sue >= 0)
        st = rck_hal_mpb_copy(rcce.hal, rcce_core_of(due), doff,
                              rcce_core_of(sue), soff, n);
    else if (due >= 0)
        st = rck_hal_mpb_write(rcce.hal, rcce_core_of(due), doff, src, n);
    else if (sue >= 0)
        st = rck_hal_mpb_read(rcce.hal, rcce_core_of(sue), soff, dst, n);
    else
        memmove(dst, src, n);
    if (due >= 0)
        rck_hal_wcb_flush(rcce.hal);
    return st == RCK_OK ? iRCCE_SUCCESS : err_dst;
}

/* ---- put / get ---- */

/* @p local must be a range of the caller's own MPB mapping; its offset
 * names the same place in UE @p ue's MPB. */
static int onesided(const char *call, t_vcharp local, int nbytes, int ue,
                    int err_local, uint32_t *off)
{
    const unsigned char *p = (const unsigned char *)local;
    const unsigned char *b;
    int st = ircce_ready(call, 0);

    if (st != iRCCE_SUCCESS)
        return st;
    if (ue < 0 || ue >= rcce.nues)
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_ID, call, "UE %d", ue);
    if (nbytes < 0)
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_MESSAGE_LENGTH, call,
                          "negative length %d", nbytes);
    b = ircce.mpb[rcce.ue];
    if (p < b || p > b + rcce.mpb_bytes ||
        (size_t)nbytes > (size_t)(b + rcce.mpb_bytes - p))
        return rcce_error(RCCE_DEBUG_COMM, err_local, call,
                          "%d bytes at %p are not inside the MPB", nbytes,
                          (const void *)p);
    *off = (uint32_t)(p - b);
    return iRCCE_SUCCESS;
}

int iRCCE_put(t_vcharp target, t_vcharp source, int num_bytes, int ue)
{
    uint32_t off;
    int st = onesided("iRCCE_put", target, num_bytes, ue, RCCE_ERROR_TARGET,
                      &off);

    if (st != iRCCE_SUCCESS)
        return st;
    if (source == NULL && num_bytes > 0)
        return RCCE_ERROR_SOURCE;
    return copy_any(ircce.mpb[ue] + off, (const void *)source,
                    (size_t)num_bytes, RCCE_ERROR_TARGET, RCCE_ERROR_SOURCE);
}

int iRCCE_get(t_vcharp target, t_vcharp source, int num_bytes, int ue)
{
    uint32_t off;
    int st = onesided("iRCCE_get", source, num_bytes, ue, RCCE_ERROR_SOURCE,
                      &off);

    if (st != iRCCE_SUCCESS)
        return st;
    if (target == NULL && num_bytes > 0)
        return RCCE_ERROR_TARGET;
    return copy_any((void *)target, ircce.mpb[ue] + off, (size_t)num_bytes,
                    RCCE_ERROR_TARGET, RCCE_ERROR_SOURCE);
}

void *iRCCE_memcpy_put(void *dest, const void *src, size_t count)
{
    if (ircce_ready("iRCCE_memcpy_put", 0) != iRCCE_SUCCESS)
        return NULL;
    if (copy_any(dest, src, count, RCCE_ERROR_TARGET, RCCE_ERROR_SOURCE) !=
        iRCCE_SUCCESS)
        rck_error("iRCCE_memcpy_put: %zu bytes cross the end of an MPB",
                  count);
    return dest;
}

void *iRCCE_memcpy_get(void *dest, const void *src, size_t count)
{
    if (ircce_ready("iRCCE_memcpy_get", 0) != iRCCE_SUCCESS)
        return NULL;
    if (copy_any(dest, src, count, RCCE_ERROR_TARGET, RCCE_ERROR_SOURCE) !=
        iRCCE_SUCCESS)
        rck_error("iRCCE_memcpy_get: %zu bytes cross the end of an MPB",
                  count);
    return dest;
}

/* ---- MPB allocation ---- */

/*
 * As iRCCE did in the non-gory shape: the space comes off the front of the
 * communication buffer, which shrinks (for RCCE_send too). Every UE must
 * make the same calls in the same order, with no message in flight.
 */
t_vcharp iRCCE_malloc(size_t size)
{
    t_vcharp p;

    if (ircce_ready("iRCCE_malloc", 0) != iRCCE_SUCCESS)
        return NULL;
    if (rcce.shape & RCK_RCCE_SHAPE_GORY)
        return RCCE_malloc(size);
    if (size == 0 || size % rcce.line != 0 ||
        size + rcce.line > rcce.combuf_len)
        return NULL;
    p = ircce.mpb[rcce.ue] + rcce.combuf_off;
    rcce.combuf_off += (uint32_t)size;
    rcce.combuf_len -= (uint32_t)size;
    return p;
}

/* ---- flags ---- */

static int flag_ok(const RCCE_FLAG *flag, const char *call)
{
    int st = ircce_ready(call, 0);

    if (st != iRCCE_SUCCESS)
        return st;
    if (rcce_flag_check(flag) != RCCE_SUCCESS)
        return rcce_error(RCCE_DEBUG_SYNCH, RCCE_ERROR_FLAG_NOT_ALLOCATED,
                          call, "flag was not allocated");
    return iRCCE_SUCCESS;
}

int iRCCE_flag_alloc_tagged(RCCE_FLAG *flag)
{
    size_t off;
    int st = ircce_ready("iRCCE_flag_alloc_tagged", 0);

    if (st != iRCCE_SUCCESS)
        return st;
    if (flag == NULL)
        return RCCE_ERROR_FLAG_UNDEFINED;
    if (rcce.shape & RCK_RCCE_SHAPE_GORY) {
        if (rcce_arena_alloc(&rcce.mpb, rcce.line, &off) != 0)
            return RCCE_ERROR_FLAG_NOT_IN_COMM_BUFFER;
    } else {
        t_vcharp p = iRCCE_malloc(rcce.line);
        if (p == NULL)
            return RCCE_ERROR_FLAG_NOT_IN_COMM_BUFFER;
        off = (size_t)((const unsigned char *)p - ircce.mpb[rcce.ue]);
    }
    flag->line = (int)off;
    flag->bit = -1;
    flag->magic = RCK_RCCE_FLAG_MAGIC;
    /* the line may hold old buffer data: every flag starts unset here */
    {
        unsigned char zero[RCCE_LINE_SIZE] = {0};
        if (rck_hal_mpb_write(rcce.hal, rcce_core_of(rcce.ue), (uint32_t)off,
                              zero, rcce.line) != RCK_OK)
            return RCCE_ERROR_TARGET;
        rck_hal_wcb_flush(rcce.hal);
    }
    return iRCCE_SUCCESS;
}

int iRCCE_flag_alloc(RCCE_FLAG *flag)
{
    int st = ircce_ready("iRCCE_flag_alloc", 0);

    if (st != iRCCE_SUCCESS)
        return st;
    if (ircce.tagged)
        return iRCCE_flag_alloc_tagged(flag);
    return RCCE_flag_alloc(flag);
}

int iRCCE_flag_write(RCCE_FLAG *flag, RCCE_FLAG_STATUS val, int ue)
{
    int st = flag_ok(flag, "iRCCE_flag_write");

    if (st != iRCCE_SUCCESS)
        return st;
    if (flag->bit >= 0)
        return RCCE_flag_write(flag, val, ue);
    return iRCCE_flag_write_tagged(flag, val, ue, NULL, 0);
}

int iRCCE_flag_read(RCCE_FLAG flag, RCCE_FLAG_STATUS *val, int ue)
{
    return RCCE_flag_read(flag, val, ue);
}

int iRCCE_wait_until(RCCE_FLAG flag, RCCE_FLAG_STATUS val)
{
    int st = flag_ok(&flag, "iRCCE_wait_until");

    if (st != iRCCE_SUCCESS)
        return st;
    if (flag.bit >= 0)
        return RCCE_wait_until(flag, val);
    return iRCCE_wait_tagged(flag, val, NULL, 0);
}

static int tag_args(const RCCE_FLAG *flag, int ue, const void *tag, int len,
                    const char *call)
{
    int st = flag_ok(flag, call);

    if (st != iRCCE_SUCCESS)
        return st;
    if (ue < 0 || ue >= rcce.nues)
        return rcce_error(RCCE_DEBUG_SYNCH, RCCE_ERROR_ID, call, "UE %d", ue);
    if (len < 0 || len > iRCCE_MAX_TAGGED_LEN)
        return rcce_error(RCCE_DEBUG_SYNCH, RCCE_ERROR_MESSAGE_LENGTH, call,
                          "tag length %d (0..%d)", len, iRCCE_MAX_TAGGED_LEN);
    if (tag == NULL && len > 0)
        return rcce_error(RCCE_DEBUG_SYNCH, RCCE_ERROR_TARGET, call,
                          "NULL tag");
    if (flag->bit >= 0 && len > 0)
        return rcce_error(RCCE_DEBUG_SYNCH, iRCCE_ERROR, call,
                          "a single-bit flag carries no tag (use "
                          "iRCCE_flag_alloc_tagged)");
    return iRCCE_SUCCESS;
}

int iRCCE_flag_write_tagged(RCCE_FLAG *flag, RCCE_FLAG_STATUS val, int ue,
                            void *tag, int len)
{
    int st = tag_args(flag, ue, tag, len, "iRCCE_flag_write_tagged");
    int core = rcce_core_of(ue);

    if (st != iRCCE_SUCCESS)
        return st;
    if (flag->bit >= 0)
        return rcce_flag_set(flag, val, ue);
    if (len > 0) {
        unsigned char buf[RCCE_LINE_SIZE - 4] = {0};
        memcpy(buf, tag, (size_t)len);
        if (rck_hal_mpb_write(rcce.hal, core, (uint32_t)flag->line + 4, buf,
                              sizeof(buf)) != RCK_OK)
            return RCCE_ERROR_TARGET;
    }
    if (rck_hal_mpb_store32(rcce.hal, core, (uint32_t)flag->line,
                            (uint32_t)val) != RCK_OK)
        return RCCE_ERROR_TARGET;
    return iRCCE_SUCCESS;
}

/* Read the flag line at UE @p ue: value and @p len tag bytes. */
static int read_line(const RCCE_FLAG *flag, int ue, RCCE_FLAG_STATUS *val,
                     void *tag, int len)
{
    uint32_t w[RCCE_LINE_SIZE / 4];

    if (flag->bit >= 0)
        return rcce_flag_get(flag, val, ue);
    rck_hal_cl1invmb(rcce.hal);
    if (rck_hal_mpb_read(rcce.hal, rcce_core_of(ue), (uint32_t)flag->line, w,
                         sizeof(w)) != RCK_OK)
        return RCCE_ERROR_SOURCE;
    *val = (RCCE_FLAG_STATUS)w[0];
    if (len > 0)
        memcpy(tag, &w[1], (size_t)len);
    return iRCCE_SUCCESS;
}

int iRCCE_flag_read_tagged(RCCE_FLAG flag, RCCE_FLAG_STATUS *val, int ue,
                           void *tag, int len)
{
    int st = tag_args(&flag, ue, tag, len, "iRCCE_flag_read_tagged");

    if (st != iRCCE_SUCCESS)
        return st;
    if (val == NULL)
        return RCCE_ERROR_VAL_UNDEFINED;
    return read_line(&flag, ue, val, tag, len);
}

int iRCCE_wait_tagged(RCCE_FLAG flag, RCCE_FLAG_STATUS val, void *tag,
                      int len)
{
    RCCE_FLAG_STATUS v;
    rck_status_t hs;
    int st = tag_args(&flag, rcce.ue, tag, len, "iRCCE_wait_tagged");

    if (st != iRCCE_SUCCESS)
        return st;
    rck_hal_set_context(rcce.hal, "iRCCE_wait_tagged", rcce.ue);
    if (flag.bit >= 0) {
        st = rcce_flag_wait(&flag, val, rcce.ue);
        rck_hal_set_context(rcce.hal, NULL, -1);
        return st;
    }
    hs = rck_hal_wait_mpb_eq(rcce.hal, rcce_core_of(rcce.ue),
                             (uint32_t)flag.line, 0xffffffffu, (uint32_t)val,
                             rcce.wait_timeout_ns);
    rck_hal_set_context(rcce.hal, NULL, -1);
    if (hs != RCK_OK)
        return ircce_hal_fail(hs, "iRCCE_wait_tagged");
    return read_line(&flag, rcce.ue, &v, tag, len);
}

int iRCCE_test_tagged(RCCE_FLAG flag, RCCE_FLAG_STATUS val, int *result,
                      void *tag, int len)
{
    unsigned char buf[RCCE_LINE_SIZE];
    RCCE_FLAG_STATUS v = 0;
    int st = tag_args(&flag, rcce.ue, tag, len, "iRCCE_test_tagged");

    if (result != NULL)
        *result = 0;
    if (st != iRCCE_SUCCESS)
        return st;
    st = read_line(&flag, rcce.ue, &v, buf, len);
    if (st != iRCCE_SUCCESS)
        return st;
    if (v != val)
        return iRCCE_SUCCESS;
    if (result != NULL)
        *result = 1;
    if (len > 0)
        memcpy(tag, buf, (size_t)len);
    return iRCCE_SUCCESS;
}

int iRCCE_get_max_tagged_len(void)
{
    return iRCCE_MAX_TAGGED_LEN;
}

/* ---- atomic increment registers ---- */

/* Registers are handed out in order, so the same sequence of calls on
 * every UE names the same counters. */
int iRCCE_atomic_alloc(iRCCE_AIR **reg)
{
    int st = ircce_ready("iRCCE_atomic_alloc", 0);

    if (st != iRCCE_SUCCESS)
        return st;
    if (reg == NULL)
        return iRCCE_ERROR;
    if (ircce.next_air >= rcce.hal->chip.atomic_counters) {
        rck_info("iRCCE_atomic_alloc: all %d registers are allocated",
                 rcce.hal->chip.atomic_counters);
        return iRCCE_ERROR;
    }
    ircce.airs[ircce.next_air].counter = ircce.next_air;
    ircce.airs[ircce.next_air].init = 1;
    *reg = &ircce.airs[ircce.next_air++];
    return iRCCE_SUCCESS;
}

static int air_ok(const iRCCE_AIR *reg, const char *call)
{
    int st = ircce_ready(call, 0);

    if (st != iRCCE_SUCCESS)
        return st;
    if (reg == NULL || reg->init != 1 || reg->counter < 0 ||
        reg->counter >= rcce.hal->chip.atomic_counters)
        return iRCCE_ERROR;
    return iRCCE_SUCCESS;
}

int iRCCE_atomic_inc(iRCCE_AIR *reg, int *old)
{
    int32_t v;
    int st = air_ok(reg, "iRCCE_atomic_inc");

    if (st != iRCCE_SUCCESS)
        return st;
    if (rck_hal_atomic_inc(rcce.hal, reg->counter, &v) != RCK_OK)
        return iRCCE_ERROR;
    if (old != NULL)
        *old = v;
    return iRCCE_SUCCESS;
}

int iRCCE_atomic_read(iRCCE_AIR *reg, int *value)
{
    int32_t v;
    int st = air_ok(reg, "iRCCE_atomic_read");

    if (st != iRCCE_SUCCESS)
        return st;
    if (value == NULL)
        return iRCCE_ERROR;
    if (rck_hal_atomic_read(rcce.hal, reg->counter, &v) != RCK_OK)
        return iRCCE_ERROR;
    *value = v;
    return iRCCE_SUCCESS;
}

int iRCCE_atomic_write(iRCCE_AIR *reg, int value)
{
    int st = air_ok(reg, "iRCCE_atomic_write");

    if (st != iRCCE_SUCCESS)
        return st;
    return rck_hal_atomic_write(rcce.hal, reg->counter, value) == RCK_OK
               ? iRCCE_SUCCESS
               : iRCCE_ERROR;
}

/* ---- queries ---- */

int iRCCE_get_dest(iRCCE_SEND_REQUEST *request)
{
    if (request == NULL || request->rck_magic != RCK_IRCCE_REQ_MAGIC)
        return iRCCE_ERROR;
    return request->dest;
}

int iRCCE_get_source(iRCCE_RECV_REQUEST *request)
{
    if (request == NULL)
        return ircce.initialized ? ircce.recent_source : iRCCE_ANY_SOURCE;
    if (request->rck_magic != RCK_IRCCE_REQ_MAGIC)
        return iRCCE_ERROR;
    return request->source;
}

int iRCCE_get_size(iRCCE_SEND_REQUEST *send_request,
                   iRCCE_RECV_REQUEST *recv_request)
{
    if (send_request != NULL)
        return send_request->rck_magic == RCK_IRCCE_REQ_MAGIC
                   ? (int)send_request->size
                   : iRCCE_ERROR;
    if (recv_request != NULL)
        return recv_request->rck_magic == RCK_IRCCE_REQ_MAGIC
                   ? (int)recv_request->size
                   : iRCCE_ERROR;
    return iRCCE_get_length();
}

int iRCCE_get_length(void)
{
    return ircce.initialized ? (int)ircce.recent_length : iRCCE_ANY_LENGTH;
}

int iRCCE_get_status(iRCCE_SEND_REQUEST *send_request,
                     iRCCE_RECV_REQUEST *recv_request)
{
    if (!ircce.initialized)
        return iRCCE_ERROR;
    if (send_request != NULL) {
        iRCCE_SEND_REQUEST *r = send_request;
        if (r->rck_magic != RCK_IRCCE_REQ_MAGIC)
            return iRCCE_ERROR;
        if (r->rck_state == IRCCE_ST_QUEUED ||
            r->rck_state == IRCCE_ST_ACTIVE) {
            if (!ircce_send_queued(r))
                return iRCCE_ERROR;
            return r == ircce.sq_head ? iRCCE_PENDING : iRCCE_RESERVED;
        }
        return ircce_final_code(r->rck_state, r->rck_status);
    }
    if (recv_request != NULL) {
        iRCCE_RECV_REQUEST *r = recv_request;
        if (r->rck_magic != RCK_IRCCE_REQ_MAGIC)
            return iRCCE_ERROR;
        if (r->rck_state == IRCCE_ST_QUEUED ||
            r->rck_state == IRCCE_ST_ACTIVE) {
            if (!ircce_recv_queued(r))
                return iRCCE_ERROR;
            return r->source != iRCCE_ANY_SOURCE &&
                           r == ircce.rq[r->source].head
                       ? iRCCE_PENDING
                       : iRCCE_RESERVED;
        }
        return ircce_final_code(r->rck_state, r->rck_status);
    }
    return iRCCE_ERROR;
}
