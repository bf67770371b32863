/*
 * RCCE over the HAL: errors, MPB allocation, flags,
 * one-sided put/get, and the send/recv protocol of the reference RCCE
 * (local put, remote get, chunks of the communication buffer, whole lines).
 */
#include "rcce_internal.h"

#include "rck/config.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#undef RCCE_init

rcce_t rcce;
RCCE_COMM RCCE_COMM_WORLD;
RCCE_COMM RCCE_P_COMM;

/* ---- errors and debugging ---- */

static const char *const rcce_error_strings[] = {
    "success",
    "invalid target buffer",
    "invalid source buffer",
    "invalid UE ID",
    "invalid message length",
    "flag variable undefined",
    "invalid number of UEs",
    "data buffers overlap",
    "data buffer misalignment",
    "debug flag not defined",
    "flag not in MPB",
    "flag status not defined",
    "flag not allocated",
    "value not defined",
    "invalid error code",
    "RPC data structure not allocated",
    "RPC internal error",
    "multiple outstanding RPC requests",
    "invalid power/frequency divider",
    "frequency exceeds voltage limit",
    "no active RPC request",
    "stale RPC request",
    "communicator undefined",
    "illegal reduction operator",
    "illegal data type",
    "memory allocation error",
    "communicator initialization error",
    "core not in host file",
    "no multicast support",
};

int RCCE_error_string(int code, char *buf, int *len)
{
    const char *s;
    int idx;

    if (code == RCCE_SUCCESS)
        idx = 0;
    else if (code > RCCE_ERROR_BASE &&
             code <= RCCE_ERROR_NO_MULTICAST_SUPPORT)
        idx = code - RCCE_ERROR_BASE;
    else {
        if (buf != NULL)
            snprintf(buf, RCCE_MAX_ERROR_STRING, "%s",
                     rcce_error_strings[RCCE_ERROR_INVALID_ERROR_CODE -
                                        RCCE_ERROR_BASE]);
        if (len != NULL)
            *len = buf != NULL ? (int)strlen(buf) : 0;
        return RCCE_ERROR_INVALID_ERROR_CODE;
    }
    s = rcce_error_strings[idx];
    if (buf != NULL)
        snprintf(buf, RCCE_MAX_ERROR_STRING, "%s", s);
    if (len != NULL)
        *len = (int)strlen(s);
    return RCCE_SUCCESS;
}

static int debug_bit(int selector)
{
    switch (selector) {
    case RCCE_DEBUG_SYNCH: return 1;
    case RCCE_DEBUG_COMM: return 2;
    case RCCE_DEBUG_RPC: return 4;
    case RCCE_DEBUG_DEBUG: return 8;
    case RCCE_DEBUG_ALL: return 15;
    default: return 0;
    }
}

int RCCE_debug_set(int selector)
{
    int b = debug_bit(selector);
    if (b == 0)
        return RCCE_ERROR_DEBUG_FLAG;
    rcce.debug |= b;
    return RCCE_SUCCESS;
}

int RCCE_debug_unset(int selector)
{
    int b = debug_bit(selector);
    if (b == 0)
        return RCCE_ERROR_DEBUG_FLAG;
    rcce.debug &= ~b;
    return RCCE_SUCCESS;
}

int rcce_error(int selector, int code, const char *call, const char *fmt, ...)
{
    char msg[256], str[RCCE_MAX_ERROR_STRING];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    RCCE_error_string(code, str, NULL);
    if (rcce.debug & debug_bit(selector))
        rck_error("%s: %s (%s)", call, msg, str);
    else
        rck_info("%s: %s (%s)", call, msg, str);
    return code;
}

int rcce_ready(const char *call)
{
    if (!rcce.initialized) {
        rck_error("%s called before RCCE_init", call);
        return 0;
    }
    return 1;
}

/* ---- arenas ---- */

int rcce_arena_init(rcce_arena_t *a, size_t size, size_t align, int cap)
{
    memset(a, 0, sizeof(*a));
    /* entries past nblocks / nused are never read: no clearing (the
     * shared-memory arena's 128 KiB were the largest stores of a core's
     * start under the P54C model) */
    a->blocks = malloc((size_t)cap * sizeof(*a->blocks));
    a->used = malloc((size_t)cap * sizeof(*a->used));
    if (a->blocks == NULL || a->used == NULL) {
        free(a->blocks);
        free(a->used);
        return -1;
    }
    a->cap = a->ucap = cap;
    a->size = size;
    a->align = align;
    a->blocks[0].off = 0;
    a->blocks[0].len = size;
    a->nblocks = size > 0;
    return 0;
}

void rcce_arena_fini(rcce_arena_t *a)
{
    free(a->blocks);
    free(a->used);
    memset(a, 0, sizeof(*a));
}

int rcce_arena_alloc(rcce_arena_t *a, size_t len, size_t *off)
{
    len = (len + a->align - 1) / a->align * a->align;
    if (len == 0 || a->nused == a->ucap)
        return -1;
    for (int i = 0; i < a->nblocks; i++) {
        if (a->blocks[i].len < len)
            continue;
        *off = a->blocks[i].off;
        a->blocks[i].off += len;
        a->blocks[i].len -= len;
        if (a->blocks[i].len == 0) {
            memmove(&a->blocks[i], &a->blocks[i + 1],
                    (size_t)(a->nblocks - i - 1) * sizeof(*a->blocks));
            a->nblocks--;
        }
        a->used[a->nused].off = *off;
        a->used[a->nused].len = len;
        a->nused++;
        return 0;
    }
    return -1;
}

int rcce_arena_free(rcce_arena_t *a, size_t off)
{
    size_t len;
    int u, i;

    for (u = 0; u < a->nused && a->used[u].off != off; u++)
        ;
    if (u == a->nused || a->nblocks == a->cap)
        return -1;
    len = a->used[u].len;
    a->used[u] = a->used[--a->nused];
    for (i = 0; i < a->nblocks && a->blocks[i].off < off; i++)
        ;
    memmove(&a->blocks[i + 1], &a->blocks[i],
            (size_t)(a->nblocks - i) * sizeof(*a->blocks));
    a->blocks[i].off = off;
    a->blocks[i].len = len;
    a->nblocks++;
    if (i + 1 < a->nblocks &&
        a->blocks[i].off + a->blocks[i].len == a->blocks[i + 1].off) {
        a->blocks[i].len += a->blocks[i + 1].len;
        memmove(&a->blocks[i + 1], &a->blocks[i + 2],
                (size_t)(a->nblocks - i - 2) * sizeof(*a->blocks));
        a->nblocks--;
    }
    if (i > 0 && a->blocks[i - 1].off + a->blocks[i - 1].len == off) {
        a->blocks[i - 1].len += a->blocks[i].len;
        memmove(&a->blocks[i], &a->blocks[i + 1],
                (size_t)(a->nblocks - i - 1) * sizeof(*a->blocks));
        a->nblocks--;
    }
    return 0;
}

size_t rcce_arena_largest(const rcce_arena_t *a)
{
    size_t m = 0;
    for (int i = 0; i < a->nblocks; i++)
        if (a->blocks[i].len > m)
            m = a->blocks[i].len;
    return m;
}

/* ---- MPB allocation (gory) ---- */

t_vcharp RCCE_malloc(size_t size)
{
    size_t off;

    if (!rcce_ready("RCCE_malloc"))
        return NULL;
    if (size == 0 || size % rcce.line != 0) {
        rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_MESSAGE_LENGTH, "RCCE_malloc",
                   "%zu bytes is not a positive multiple of %u", size,
                   rcce.line);
        return NULL;
    }
    if (rcce_arena_alloc(&rcce.mpb, size, &off) != 0)
        return NULL;
    return rcce.mpb_base + off;
}

t_vcharp RCCE_malloc_request(size_t want, size_t *got)
{
    size_t size = want / rcce.line * rcce.line;
    t_vcharp p = NULL;

    if (!rcce_ready("RCCE_malloc_request"))
        return NULL;
    while (size >= rcce.line) {
        p = RCCE_malloc(size);
        if (p != NULL)
            break;
        size = size / 2 / rcce.line * rcce.line;
    }
    if (got != NULL)
        *got = p != NULL ? size : 0;
    return p;
}

void RCCE_free(t_vcharp ptr)
{
    unsigned char *p = (unsigned char *)ptr;

    if (!rcce_ready("RCCE_free") || ptr == NULL)
        return;
    if (p < rcce.mpb_base || p >= rcce.mpb_base + rcce.mpb_bytes ||
        rcce_arena_free(&rcce.mpb, (size_t)(p - rcce.mpb_base)) != 0)
        rck_error("RCCE_free: %p was not returned by RCCE_malloc",
                  (void *)p);
}

/* ---- flags ---- */

int rcce_flag_check(const RCCE_FLAG *flag)
{
    if (flag == NULL || flag->magic != RCK_RCCE_FLAG_MAGIC ||
        flag->line < 0 || (uint32_t)flag->line >= rcce.mpb_bytes ||
        flag->bit >= RCK_RCCE_BITS_PER_LINE)
        return RCCE_ERROR_FLAG_NOT_ALLOCATED;
    return RCCE_SUCCESS;
}

int rcce_flag_alloc(RCCE_FLAG *flag)
{
    size_t off;

    if (!(rcce.shape & RCK_RCCE_SHAPE_SINGLEBITFLAGS)) {
        if (rcce_arena_alloc(&rcce.mpb, rcce.line, &off) != 0)
            return RCCE_ERROR_FLAG_NOT_IN_COMM_BUFFER;
        flag->line = (int)off;
        flag->bit = -1;
        flag->magic = RCK_RCCE_FLAG_MAGIC;
        return RCCE_SUCCESS;
    }
    for (int l = 0; l < rcce.nbit_lines; l++) {
        if (rcce.bit_lines[l].nused == RCK_RCCE_BITS_PER_LINE)
            continue;
        for (int b = 0; b < RCK_RCCE_BITS_PER_LINE; b++) {
            uint32_t m = 1u << (b % 32);
            if (rcce.bit_lines[l].used[b / 32] & m)
                continue;
            rcce.bit_lines[l].used[b / 32] |= m;
            rcce.bit_lines[l].nused++;
            flag->line = rcce.bit_lines[l].line;
            flag->bit = b;
            flag->magic = RCK_RCCE_FLAG_MAGIC;
            return RCCE_SUCCESS;
        }
    }
    if (rcce.nbit_lines == RCK_RCCE_MAX_BIT_LINES ||
        rcce_arena_alloc(&rcce.mpb, rcce.line, &off) != 0)
        return RCCE_ERROR_FLAG_NOT_IN_COMM_BUFFER;
    memset(&rcce.bit_lines[rcce.nbit_lines], 0,
           sizeof(rcce.bit_lines[0]));
    rcce.bit_lines[rcce.nbit_lines].line = (int)off;
    rcce.nbit_lines++;
    return rcce_flag_alloc(flag);
}

int rcce_flag_free(RCCE_FLAG *flag)
{
    int st = rcce_flag_check(flag);

    if (st != RCCE_SUCCESS)
        return st;
    /* The local copy is left as it is: the protocols that use flags
     * (send/recv, barrier) end with every flag unset, and clearing it here
     * could race with a peer still finishing with it. */
    if (flag->bit < 0) {
        if (rcce_arena_free(&rcce.mpb, (size_t)flag->line) != 0)
            return RCCE_ERROR_FLAG_NOT_ALLOCATED;
    } else {
        int l;
        uint32_t m = 1u << (flag->bit % 32);
        for (l = 0; l < rcce.nbit_lines; l++) {
            if (rcce.bit_lines[l].line == flag->line)
                break;
        }
        if (l == rcce.nbit_lines ||
            !(rcce.bit_lines[l].used[flag->bit / 32] & m))
            return RCCE_ERROR_FLAG_NOT_ALLOCATED;
        rcce.bit_lines[l].used[flag->bit / 32] &= ~m;
        if (--rcce.bit_lines[l].nused == 0) {
            /* an empty line goes back to the MPB */
            rcce_arena_free(&rcce.mpb, (size_t)rcce.bit_lines[l].line);
            memmove(&rcce.bit_lines[l], &rcce.bit_lines[l + 1],
                    (size_t)(rcce.nbit_lines - l - 1) *
                        sizeof(rcce.bit_lines[0]));
            rcce.nbit_lines--;
        }
    }
    flag->magic = 0;
    return RCCE_SUCCESS;
}

int rcce_flag_set(const RCCE_FLAG *flag, RCCE_FLAG_STATUS val, int ue)
{
    int core = rcce_core_of(ue);
    rck_status_t st;

    if (flag->bit < 0) {
        st = rck_hal_mpb_store32(rcce.hal, core, rcce_flag_offset(flag),
                                 (uint32_t)val);
    } else {
        uint32_t w;
        /* Bits share a word: read-modify-write under the owner's TAS lock,
         * as the chip has no atomic MPB operations. */
        st = rck_hal_tas_acquire(rcce.hal, core);
        if (st != RCK_OK)
            return RCCE_ERROR_TARGET;
        rck_hal_cl1invmb(rcce.hal);
        st = rck_hal_mpb_load32(rcce.hal, core, rcce_flag_offset(flag), &w);
        if (st == RCK_OK) {
            w = val ? (w | rcce_flag_bits(flag)) : (w & ~rcce_flag_bits(flag));
            st = rck_hal_mpb_store32(rcce.hal, core, rcce_flag_offset(flag), w);
        }
        rck_hal_tas_release(rcce.hal, core);
    }
    return st == RCK_OK ? RCCE_SUCCESS : RCCE_ERROR_TARGET;
}

int rcce_flag_get(const RCCE_FLAG *flag, RCCE_FLAG_STATUS *val, int ue)
{
    uint32_t w;

    rck_hal_cl1invmb(rcce.hal);
    if (rck_hal_mpb_load32(rcce.hal, rcce_core_of(ue), rcce_flag_offset(flag), &w) !=
        RCK_OK)
        return RCCE_ERROR_SOURCE;
    *val = flag->bit < 0 ? (RCCE_FLAG_STATUS)w
                         : (w & rcce_flag_bits(flag)) ? RCCE_FLAG_SET
                                                 : RCCE_FLAG_UNSET;
    return RCCE_SUCCESS;
}

int rcce_flag_wait(const RCCE_FLAG *flag, RCCE_FLAG_STATUS val, int ue)
{
    uint32_t mask = rcce_flag_bits(flag);
    uint32_t want = flag->bit < 0 ? (uint32_t)val : (val ? mask : 0);
    rck_status_t st;

    st = rck_hal_wait_mpb_eq(rcce.hal, rcce_core_of(ue), rcce_flag_offset(flag),
                             mask, want, rcce.wait_timeout_ns);
    if (st == RCK_ERR_TIMEDOUT) {
        rck_error("a wait for a flag at UE %d did not complete within "
                  "RCK_WAIT_TIMEOUT: probable deadlock",
                  ue);
        return RCCE_ERROR_TARGET;
    }
    return st == RCK_OK ? RCCE_SUCCESS : RCCE_ERROR_TARGET;
}

static int flag_args(const RCCE_FLAG *flag, const char *call)
{
    if (!rcce_ready(call))
        return RCCE_ERROR_FLAG_UNDEFINED;
    if (rcce_flag_check(flag) != RCCE_SUCCESS)
        return rcce_error(RCCE_DEBUG_SYNCH, RCCE_ERROR_FLAG_NOT_ALLOCATED,
                          call, "flag was not allocated by RCCE_flag_alloc");
    return RCCE_SUCCESS;
}

int RCCE_flag_alloc(RCCE_FLAG *flag)
{
    int st;

    if (!rcce_ready("RCCE_flag_alloc"))
        return RCCE_ERROR_FLAG_UNDEFINED;
    if (flag == NULL)
        return RCCE_ERROR_FLAG_UNDEFINED;
    st = rcce_flag_alloc(flag);
    if (st != RCCE_SUCCESS)
        return rcce_error(RCCE_DEBUG_SYNCH, st, "RCCE_flag_alloc",
                          "no MPB space for another flag");
    return RCCE_SUCCESS;
}

int RCCE_flag_free(RCCE_FLAG *flag)
{
    int st = flag_args(flag, "RCCE_flag_free");
    return st != RCCE_SUCCESS ? st : rcce_flag_free(flag);
}

int RCCE_flag_write(RCCE_FLAG *flag, RCCE_FLAG_STATUS val, int ue)
{
    int st = flag_args(flag, "RCCE_flag_write");

    if (st != RCCE_SUCCESS)
        return st;
    if (val != RCCE_FLAG_SET && val != RCCE_FLAG_UNSET)
        return rcce_error(RCCE_DEBUG_SYNCH, RCCE_ERROR_FLAG_STATUS_UNDEFINED,
                          "RCCE_flag_write", "value %d", val);
    if (ue < 0 || ue >= rcce.nues)
        return rcce_error(RCCE_DEBUG_SYNCH, RCCE_ERROR_ID, "RCCE_flag_write",
                          "UE %d", ue);
    return rcce_flag_set(flag, val, ue);
}

int RCCE_flag_read(RCCE_FLAG flag, RCCE_FLAG_STATUS *val, int ue)
{
    int st = flag_args(&flag, "RCCE_flag_read");

    if (st != RCCE_SUCCESS)
        return st;
    if (val == NULL)
        return RCCE_ERROR_VAL_UNDEFINED;
    if (ue < 0 || ue >= rcce.nues)
        return rcce_error(RCCE_DEBUG_SYNCH, RCCE_ERROR_ID, "RCCE_flag_read",
                          "UE %d", ue);
    return rcce_flag_get(&flag, val, ue);
}

int RCCE_wait_until(RCCE_FLAG flag, RCCE_FLAG_STATUS val)
{
    int st = flag_args(&flag, "RCCE_wait_until");

    if (st != RCCE_SUCCESS)
        return st;
    if (val != RCCE_FLAG_SET && val != RCCE_FLAG_UNSET)
        return rcce_error(RCCE_DEBUG_SYNCH, RCCE_ERROR_FLAG_STATUS_UNDEFINED,
                          "RCCE_wait_until", "value %d", val);
    rck_hal_set_context(rcce.hal, "RCCE_wait_until", rcce.ue);
    st = rcce_flag_wait(&flag, val, rcce.ue);
    rck_hal_set_context(rcce.hal, NULL, -1);
    return st;
}

/* RCCE_probe: non-blocking test whether the local copy of a flag is set. */
int RCCE_probe(RCCE_FLAG flag)
{
    RCCE_FLAG_STATUS v = RCCE_FLAG_UNSET;

    if (flag_args(&flag, "RCCE_probe") != RCCE_SUCCESS)
        return 0;
    rcce_flag_get(&flag, &v, rcce.ue);
    return v == RCCE_FLAG_SET;
}

/* ---- put / get ---- */

static int mpb_range(t_vcharp addr, int nbytes, int err, const char *call,
                     uint32_t *off)
{
    const unsigned char *p = (const unsigned char *)addr;

    if (nbytes < 0)
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_MESSAGE_LENGTH, call,
                          "negative length %d", nbytes);
    if (p < rcce.mpb_base || p > rcce.mpb_base + rcce.mpb_bytes ||
        (size_t)nbytes > (size_t)(rcce.mpb_base + rcce.mpb_bytes - p))
        return rcce_error(RCCE_DEBUG_COMM, err, call,
                          "%d bytes at %p are not inside the MPB", nbytes,
                          (const void *)p);
    if ((size_t)(p - rcce.mpb_base) % rcce.line != 0)
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_ALIGNMENT, call,
                          "MPB address is not %u-byte aligned", rcce.line);
    if ((uint32_t)nbytes % rcce.line != 0)
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_MESSAGE_LENGTH, call,
                          "length %d is not a multiple of %u", nbytes,
                          rcce.line);
    *off = (uint32_t)(p - rcce.mpb_base);
    return RCCE_SUCCESS;
}

/* The checks RCCE_put and RCCE_get share: the MPB side (@p mpb) must be
 * a line-aligned range of the caller's MPB, the private side (@p priv)
 * must exist; @p mpb_err and @p priv_err are the codes for each side. */
static int onesided_args(const char *call, t_vcharp mpb, t_vcharp priv,
                         int nbytes, int ue, int mpb_err, int priv_err,
                         uint32_t *off)
{
    int st;

    if (!rcce_ready(call))
        return mpb_err;
    if (ue < 0 || ue >= rcce.nues)
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_ID, call, "UE %d", ue);
    st = mpb_range(mpb, nbytes, mpb_err, call, off);
    if (st == RCCE_SUCCESS && priv == NULL && nbytes > 0)
        st = rcce_error(RCCE_DEBUG_COMM, priv_err, call, "NULL buffer");
    return st;
}

int RCCE_put(t_vcharp target, t_vcharp source, int nbytes, int ue)
{
    uint32_t off;
    int st = onesided_args("RCCE_put", target, source, nbytes, ue,
                           RCCE_ERROR_TARGET, RCCE_ERROR_SOURCE, &off);

    if (st != RCCE_SUCCESS)
        return st;
    if (rck_hal_mpb_write(rcce.hal, rcce_core_of(ue), off,
                          (const void *)source, (size_t)nbytes) != RCK_OK)
        return RCCE_ERROR_TARGET;
    rck_hal_wcb_flush(rcce.hal);
    return RCCE_SUCCESS;
}

int RCCE_get(t_vcharp target, t_vcharp source, int nbytes, int ue)
{
    uint32_t off;
    int st = onesided_args("RCCE_get", source, target, nbytes, ue,
                           RCCE_ERROR_SOURCE, RCCE_ERROR_TARGET, &off);

    if (st != RCCE_SUCCESS)
        return st;
    rck_hal_cl1invmb(rcce.hal);
    if (rck_hal_mpb_read(rcce.hal, rcce_core_of(ue), off, (void *)target,
                         (size_t)nbytes) != RCK_OK)
        return RCCE_ERROR_SOURCE;
    return RCCE_SUCCESS;
}

/* One byte: the write-combine buffer carries byte enables, so a byte
 * store changes only its byte of the line. */
int RCCE_put_char(t_vcharp target, char value, int ue)
{
    const unsigned char *p = (const unsigned char *)target;

    if (!rcce_ready("RCCE_put_char"))
        return RCCE_ERROR_TARGET;
    if (ue < 0 || ue >= rcce.nues)
        return RCCE_ERROR_ID;
    if (p < rcce.mpb_base || p >= rcce.mpb_base + rcce.mpb_bytes)
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_TARGET, "RCCE_put_char",
                          "%p is not inside the MPB", (const void *)p);
    if (rck_hal_mpb_write(rcce.hal, rcce_core_of(ue),
                          (uint32_t)(p - rcce.mpb_base), &value, 1) != RCK_OK)
        return RCCE_ERROR_TARGET;
    rck_hal_wcb_flush(rcce.hal);
    return RCCE_SUCCESS;
}

int RCCE_get_char(char *target, t_vcharp source, int ue)
{
    const unsigned char *p = (const unsigned char *)source;

    if (!rcce_ready("RCCE_get_char"))
        return RCCE_ERROR_SOURCE;
    if (ue < 0 || ue >= rcce.nues)
        return RCCE_ERROR_ID;
    if (target == NULL)
        return RCCE_ERROR_TARGET;
    if (p < rcce.mpb_base || p >= rcce.mpb_base + rcce.mpb_bytes)
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_SOURCE, "RCCE_get_char",
                          "%p is not inside the MPB", (const void *)p);
    rck_hal_cl1invmb(rcce.hal);
    if (rck_hal_mpb_read(rcce.hal, rcce_core_of(ue),
                         (uint32_t)(p - rcce.mpb_base), target, 1) != RCK_OK)
        return RCCE_ERROR_SOURCE;
    return RCCE_SUCCESS;
}

/* ---- send / recv (the reference protocol) ---- */

int rcce_put_piece(const char *p, uint32_t combuf, size_t n)
{
    int me = rcce_core_of(rcce.ue);
    size_t full = n / rcce.line * rcce.line;
    rck_status_t st = RCK_OK;

    if (full > 0)
        st = rck_hal_mpb_write(rcce.hal, me, combuf, p, full);
    if (st == RCK_OK && n > full) {
        unsigned char line[RCCE_LINE_SIZE] = {0};
        memcpy(line, p + full, n - full);
        st = rck_hal_mpb_write(rcce.hal, me, combuf + (uint32_t)full, line,
                               rcce.line);
    }
    rck_hal_wcb_flush(rcce.hal);
    return st == RCK_OK ? RCCE_SUCCESS : RCCE_ERROR_TARGET;
}

int rcce_get_piece(char *p, uint32_t combuf, size_t n, int core)
{
    size_t full = n / rcce.line * rcce.line;
    rck_status_t st = RCK_OK;

    rck_hal_cl1invmb(rcce.hal);
    if (full > 0)
        st = rck_hal_mpb_read(rcce.hal, core, combuf, p, full);
    if (st == RCK_OK && n > full) {
        unsigned char line[RCCE_LINE_SIZE];
        st = rck_hal_mpb_read(rcce.hal, core, combuf + (uint32_t)full, line,
                              rcce.line);
        memcpy(p + full, line, n - full);
    }
    return st == RCK_OK ? RCCE_SUCCESS : RCCE_ERROR_SOURCE;
}

int rcce_send_general(const char *buf, uint32_t combuf, uint32_t chunk,
                      const RCCE_FLAG *ready, const RCCE_FLAG *sent,
                      size_t size, int dest)
{
    /* a collective's message is marked for iRCCE (RCK_RCCE_FRAME_COLL) */
    int mark = rcce.coll > 0 && sent == &rcce.sent[rcce.ue] && sent->bit < 0;
    uint32_t word1 = rcce_flag_offset(sent) + 4;
    size_t done = 0;
    int st;

    if (size > 0)
        rck_hal_comm_count(rcce.hal, rck__rcce_lib, rcce_core_of(dest), size);
    if (mark && size > 0 &&
        rck_hal_mpb_store32(rcce.hal, rcce_core_of(dest), word1,
                            RCK_RCCE_COLL_MARK) != RCK_OK)
        return RCCE_ERROR_TARGET;
    while (done < size) {
        size_t n = size - done < chunk ? size - done : chunk;

        st = rcce_put_piece(buf + done, combuf, n);
        if (st == RCCE_SUCCESS)
            st = rcce_flag_set(sent, RCCE_FLAG_SET, dest);
        if (st == RCCE_SUCCESS)
            st = rcce_flag_wait(ready, RCCE_FLAG_SET, rcce.ue);
        if (st == RCCE_SUCCESS)
            st = rcce_flag_set(ready, RCCE_FLAG_UNSET, rcce.ue);
        if (st == RCCE_SUCCESS && mark && done == 0 &&
            rck_hal_mpb_store32(rcce.hal, rcce_core_of(dest), word1, 0) !=
                RCK_OK)
            st = RCCE_ERROR_TARGET;
        if (st != RCCE_SUCCESS)
            return st;
        done += n;
    }
    return RCCE_SUCCESS;
}

int rcce_recv_general(char *buf, uint32_t combuf, uint32_t chunk,
                      const RCCE_FLAG *ready, const RCCE_FLAG *sent,
                      size_t size, int source, int *test)
{
    int core = rcce_core_of(source);
    size_t done = 0;
    int st;

    if (test != NULL) {
        RCCE_FLAG_STATUS v = RCCE_FLAG_UNSET;
        *test = 0;
        if (size > 0) {
            st = rcce_flag_get(sent, &v, rcce.ue);
            if (st != RCCE_SUCCESS)
                return st;
            if (v != RCCE_FLAG_SET)
                return RCCE_SUCCESS;
        }
        *test = 1;
    }
    while (done < size) {
        size_t n = size - done < chunk ? size - done : chunk;

        st = rcce_flag_wait(sent, RCCE_FLAG_SET, rcce.ue);
        if (st == RCCE_SUCCESS)
            st = rcce_flag_set(sent, RCCE_FLAG_UNSET, rcce.ue);
        if (st == RCCE_SUCCESS)
            st = rcce_get_piece(buf + done, combuf, n, core);
        if (st == RCCE_SUCCESS)
            st = rcce_flag_set(ready, RCCE_FLAG_SET, source);
        if (st != RCCE_SUCCESS)
            return st;
        done += n;
    }
    if (size > 0)
        rck_hal_comm_recv(rcce.hal, rck__rcce_lib, core, size);
    return RCCE_SUCCESS;
}

static int p2p_args(const char *call, const void *buf, size_t size, int peer,
                    int ngory)
{
    if (!rcce_ready(call))
        return RCCE_ERROR_ID;
    if (ngory && (rcce.shape & RCK_RCCE_SHAPE_GORY))
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_ILLEGAL_OP, call,
                          "not available in the gory shape");
    if (peer < 0 || peer >= rcce.nues || (ngory && peer == rcce.ue))
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_ID, call,
                          "UE %d is not a valid peer (0..%d, not self)", peer,
                          rcce.nues - 1);
    if (buf == NULL && size > 0)
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_TARGET, call,
                          "NULL buffer");
    return RCCE_SUCCESS;
}

int RCCE_send(char *buf, size_t size, int dest)
{
    int st = p2p_args("RCCE_send", buf, size, dest, 1);

    if (st != RCCE_SUCCESS)
        return st;
    rck_hal_set_context(rcce.hal, "RCCE_send", dest);
    rck_hal_set_message(rcce.hal, (long long)size, -1, -1);
    st = rcce_send_general(buf, rcce.combuf_off, rcce.combuf_len,
                           &rcce.ready[dest], &rcce.sent[rcce.ue], size, dest);
    rck_hal_set_context(rcce.hal, NULL, -1);
    return st;
}

int RCCE_recv(char *buf, size_t size, int source)
{
    int st = p2p_args("RCCE_recv", buf, size, source, 1);

    if (st != RCCE_SUCCESS)
        return st;
    rck_hal_set_context(rcce.hal, "RCCE_recv", source);
    rck_hal_set_message(rcce.hal, (long long)size, -1, -1);
    st = rcce_recv_general(buf, rcce.combuf_off, rcce.combuf_len,
                           &rcce.ready[rcce.ue], &rcce.sent[source], size,
                           source, NULL);
    rck_hal_set_context(rcce.hal, NULL, -1);
    return st;
}

int RCCE_recv_test(char *buf, size_t size, int source, int *test)
{
    int dummy;
    int st = p2p_args("RCCE_recv_test", buf, size, source, 1);

    if (test == NULL)
        test = &dummy;
    *test = 0;
    if (st != RCCE_SUCCESS)
        return st;
    rck_hal_set_context(rcce.hal, "RCCE_recv_test", source);
    rck_hal_set_message(rcce.hal, (long long)size, -1, -1);
    st = rcce_recv_general(buf, rcce.combuf_off, rcce.combuf_len,
                           &rcce.ready[rcce.ue], &rcce.sent[source], size,
                           source, test);
    rck_hal_set_context(rcce.hal, NULL, -1);
    return st;
}

static int gory_args(const char *call, t_vcharp combuf, size_t chunk,
                     const RCCE_FLAG *ready, const RCCE_FLAG *sent,
                     uint32_t *off)
{
    int st;

    if (rcce_flag_check(ready) != RCCE_SUCCESS ||
        rcce_flag_check(sent) != RCCE_SUCCESS)
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_FLAG_NOT_ALLOCATED, call,
                          "flags were not allocated by RCCE_flag_alloc");
    if (chunk == 0 || chunk % rcce.line != 0 || chunk > rcce.mpb_bytes)
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_MESSAGE_LENGTH, call,
                          "chunk %zu is not a positive multiple of %u", chunk,
                          rcce.line);
    st = mpb_range(combuf, (int)chunk, RCCE_ERROR_TARGET, call, off);
    return st;
}

int RCCE_send_gory(char *privbuf, t_vcharp combuf, size_t chunk,
                   RCCE_FLAG *ready, RCCE_FLAG *sent, size_t size, int dest)
{
    uint32_t off;
    int st = p2p_args("RCCE_send", privbuf, size, dest, 0);

    if (st == RCCE_SUCCESS)
        st = gory_args("RCCE_send", combuf, chunk, ready, sent, &off);
    if (st != RCCE_SUCCESS)
        return st;
    rck_hal_set_context(rcce.hal, "RCCE_send", dest);
    rck_hal_set_message(rcce.hal, (long long)size, -1, -1);
    st = rcce_send_general(privbuf, off, (uint32_t)chunk, ready, sent, size,
                           dest);
    rck_hal_set_context(rcce.hal, NULL, -1);
    return st;
}

int RCCE_recv_gory(char *privbuf, t_vcharp combuf, size_t chunk,
                   RCCE_FLAG *ready, RCCE_FLAG *sent, size_t size, int source)
{
    uint32_t off;
    int st = p2p_args("RCCE_recv", privbuf, size, source, 0);

    if (st == RCCE_SUCCESS)
        st = gory_args("RCCE_recv", combuf, chunk, ready, sent, &off);
    if (st != RCCE_SUCCESS)
        return st;
    rck_hal_set_context(rcce.hal, "RCCE_recv", source);
    rck_hal_set_message(rcce.hal, (long long)size, -1, -1);
    st = rcce_recv_general(privbuf, off, (uint32_t)chunk, ready, sent, size,
                           source, NULL);
    rck_hal_set_context(rcce.hal, NULL, -1);
    return st;
}

int RCCE_recv_test_gory(char *privbuf, t_vcharp combuf, size_t chunk,
                        RCCE_FLAG *ready, RCCE_FLAG *sent, size_t size,
                        int source, int *test)
{
    uint32_t off;
    int dummy;
    int st = p2p_args("RCCE_recv_test", privbuf, size, source, 0);

    if (test == NULL)
        test = &dummy;
    *test = 0;
    if (st == RCCE_SUCCESS)
        st = gory_args("RCCE_recv_test", combuf, chunk, ready, sent, &off);
    if (st != RCCE_SUCCESS)
        return st;
    return rcce_recv_general(privbuf, off, (uint32_t)chunk, ready, sent, size,
                             source, test);
}

/* ---- locks, fence, misc ---- */

int RCCE_acquire_lock(int ue)
{
    if (!rcce_ready("RCCE_acquire_lock"))
        return RCCE_ERROR_ID;
    if (ue < 0 || ue >= rcce.nues)
        return rcce_error(RCCE_DEBUG_SYNCH, RCCE_ERROR_ID, "RCCE_acquire_lock",
                          "UE %d", ue);
    rck_hal_set_context(rcce.hal, "RCCE_acquire_lock", ue);
    rck_status_t st = rck_hal_tas_acquire(rcce.hal, rcce_core_of(ue));
    rck_hal_set_context(rcce.hal, NULL, -1);
    return st == RCK_OK ? RCCE_SUCCESS : RCCE_ERROR_TARGET;
}

int RCCE_release_lock(int ue)
{
    if (!rcce_ready("RCCE_release_lock"))
        return RCCE_ERROR_ID;
    if (ue < 0 || ue >= rcce.nues)
        return rcce_error(RCCE_DEBUG_SYNCH, RCCE_ERROR_ID, "RCCE_release_lock",
                          "UE %d", ue);
    return rck_hal_tas_release(rcce.hal, rcce_core_of(ue)) == RCK_OK
               ? RCCE_SUCCESS
               : RCCE_ERROR_TARGET;
}

void RCCE_fence(void)
{
    atomic_thread_fence(memory_order_seq_cst);
}

int RCCE_qsort(char *base, size_t num, size_t width,
               int (*compar)(const void *, const void *))
{
    if (num > 0 && (base == NULL || width == 0 || compar == NULL))
        return RCCE_ERROR_VAL_UNDEFINED;
    if (num > 0)
        qsort(base, num, width, compar);
    return RCCE_SUCCESS;
}

double RCCE_wtime(void)
{
    double s = 0.0;

    if (rcce.hal != NULL)
        rck_hal_wtime(rcce.hal, &s);
    return s;
}

int RCCE_ue(void)
{
    return rcce.ue;
}

int RCCE_num_ues(void)
{
    return rcce.nues;
}
