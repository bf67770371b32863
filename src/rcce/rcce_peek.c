/*
 * RCCE_peek, a rockcreek extension (not in Intel's RCCE): is a message
 * from a UE waiting, and what are its first bytes, without receiving it.
 *
 * A message is waiting from S when S's sent flag in this UE's MPB is set
 * (the reference protocol: S has written the message's first piece into
 * its own communication buffer and announced it). Its first bytes are the
 * start of S's communication buffer: S does not touch them until this UE
 * acknowledges the piece, so reading them consumes nothing. A collective's
 * message (RCK_RCCE_COLL_MARK in word 1 of a whole-line flag) is passed
 * by, as iRCCE's probes do; with single-bit flags there is no such mark.
 */
#include "rcce_internal.h"

#include <string.h>

/* the source an any-source peek tries first (round robin, so that a
 * program that serves the source it peeked starves no other) */
static int peek_rr;

/* Whether a point-to-point message from @p s is announced. */
static int peek_announced(int s, int *err)
{
    RCCE_FLAG_STATUS v = RCCE_FLAG_UNSET;
    uint32_t w1 = 0;
    int st = rcce_flag_get(&rcce.sent[s], &v, rcce.ue);

    if (st != RCCE_SUCCESS) {
        *err = st;
        return 0;
    }
    if (v != RCCE_FLAG_SET)
        return 0;
    if (rcce.sent[s].bit >= 0)
        return 1;
    if (rck_hal_mpb_load32(rcce.hal, rcce_core_of(rcce.ue),
                           rcce_flag_offset(&rcce.sent[s]) + 4,
                           &w1) != RCK_OK) {
        *err = RCCE_ERROR_SOURCE;
        return 0;
    }
    return !((w1 & RCK_RCCE_FRAME_MASK) == RCK_RCCE_FRAME_MAGIC &&
             (w1 & RCK_RCCE_FRAME_COLL));
}

int RCCE_peek(char *buf, size_t size, int source, int *from, size_t *copied)
{
    int found = -1, err = RCCE_SUCCESS;
    size_t n;

    if (from != NULL)
        *from = -1;
    if (copied != NULL)
        *copied = 0;
    if (!rcce_ready("RCCE_peek"))
        return RCCE_ERROR_ID;
    if (rcce.shape & RCK_RCCE_SHAPE_GORY)
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_ILLEGAL_OP, "RCCE_peek",
                          "not available in the gory shape");
    if (source != RCCE_ANY_SOURCE &&
        (source < 0 || source >= rcce.nues || source == rcce.ue))
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_ID, "RCCE_peek",
                          "UE %d is not a valid source (0..%d, not self, or "
                          "RCCE_ANY_SOURCE)",
                          source, rcce.nues - 1);
    if (buf == NULL && size > 0)
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_TARGET, "RCCE_peek",
                          "NULL buffer");
    if (source != RCCE_ANY_SOURCE) {
        if (peek_announced(source, &err))
            found = source;
    } else {
        for (int i = 0; i < rcce.nues && found < 0 && err == RCCE_SUCCESS;
             i++) {
            int s = (peek_rr + i) % rcce.nues;
            if (s != rcce.ue && peek_announced(s, &err))
                found = s;
        }
        if (found >= 0)
            peek_rr = (found + 1) % rcce.nues;
    }
    if (err != RCCE_SUCCESS)
        return rcce_error(RCCE_DEBUG_COMM, err, "RCCE_peek",
                          "cannot read a sent flag");
    if (found < 0)
        return RCCE_SUCCESS;
    n = size < rcce.combuf_len ? size : rcce.combuf_len;
    if (n > 0) {
        int st = rcce_get_piece(buf, rcce.combuf_off, n, rcce_core_of(found));
        if (st != RCCE_SUCCESS)
            return rcce_error(RCCE_DEBUG_COMM, st, "RCCE_peek",
                              "cannot read the MPB of UE %d", found);
    }
    if (from != NULL)
        *from = found;
    if (copied != NULL)
        *copied = n;
    return RCCE_SUCCESS;
}
