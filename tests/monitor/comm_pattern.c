/*
 * A known traffic pattern for the communication matrix and the message
 * log (tests/monitor/check_comm.cmake), on 4 UEs or more:
 *   RCCE ring:    UE i sends 1000 bytes to i+1 (RCCE_send)
 *   RCCE gather:  UE i > 0 sends 100 + i bytes to UE 0 (RCCE_send)
 *   iRCCE ring:   UE i sends 300 bytes to i-1 (iRCCE_isend)
 *   mailboxes:    UE i mails 8 bytes to i+2 (rck_mbox_send)
 *   channels:     even UE i sends 40 bytes to i+1 (rck_chan_send)
 *   RCCE_comm:    a bcast of 64 bytes from UE 0 (whatever its tree, every
 *                 other UE receives it once; counted as rcce)
 * and nothing else that counts (the barrier is flags, not messages).
 */
#include "RCCE.h"
#include "RCCE_comm.h"
#include "iRCCE.h"
#include "rck_chan.h"
#include "rck_mbox.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(c)                                                           \
    do {                                                                   \
        if (!(c)) {                                                        \
            fprintf(stderr, "comm_pattern: %s failed (line %d)\n", #c,     \
                    __LINE__);                                             \
            exit(1);                                                       \
        }                                                                  \
    } while (0)

int main(int argc, char **argv)
{
    static char ring_out[1000], ring_in[1000], g[200], io[300], ii[300];
    iRCCE_SEND_REQUEST sr;
    iRCCE_RECV_REQUEST rr;
    uint64_t mail = 0x1122334455667788ull;
    rck_mail_t m;
    int me, n, st;

    rck_chan_attr_t attr;
    rck_chan_t ch;
    uint16_t type;
    size_t len;

    rck_chan_attr_init(&attr);
    CHECK(rck_chan_init(&attr) == RCK_OK);
    CHECK(rck_mbox_init() == RCK_OK);
    CHECK(RCCE_init(&argc, &argv) == RCCE_SUCCESS);
    CHECK(iRCCE_init() == iRCCE_SUCCESS);
    me = RCCE_ue();
    n = RCCE_num_ues();
    CHECK(n >= 4);
    memset(ring_out, me, sizeof ring_out);
    if (me % 2 == 0) {
        CHECK(RCCE_send(ring_out, sizeof ring_out, (me + 1) % n) ==
              RCCE_SUCCESS);
        CHECK(RCCE_recv(ring_in, sizeof ring_in, (me + n - 1) % n) ==
              RCCE_SUCCESS);
    } else {
        CHECK(RCCE_recv(ring_in, sizeof ring_in, (me + n - 1) % n) ==
              RCCE_SUCCESS);
        CHECK(RCCE_send(ring_out, sizeof ring_out, (me + 1) % n) ==
              RCCE_SUCCESS);
    }
    CHECK(ring_in[0] == (char)((me + n - 1) % n));
    if (me == 0) {
        for (int i = 1; i < n; i++)
            CHECK(RCCE_recv(g, (size_t)(100 + i), i) == RCCE_SUCCESS);
    } else {
        CHECK(RCCE_send(g, (size_t)(100 + me), 0) == RCCE_SUCCESS);
    }
    st = iRCCE_irecv(ii, sizeof ii, (me + 1) % n, &rr);
    CHECK(st == iRCCE_SUCCESS || st == iRCCE_PENDING || st == iRCCE_RESERVED);
    st = iRCCE_isend(io, sizeof io, (me + n - 1) % n, &sr);
    CHECK(st == iRCCE_SUCCESS || st == iRCCE_PENDING || st == iRCCE_RESERVED);
    CHECK(iRCCE_isend_wait(&sr) == iRCCE_SUCCESS);
    CHECK(iRCCE_irecv_wait(&rr) == iRCCE_SUCCESS);
    CHECK(rck_mbox_send((me + 2) % n, 7, &mail, sizeof mail) == RCK_OK);
    CHECK(rck_mbox_recv(&m, -1) == RCK_OK);
    CHECK(m.sender == (me + n - 2) % n && m.len == sizeof mail);
    if ((me ^ 1) < n) {
        CHECK(rck_chan_open(me ^ 1, 5, &ch) == RCK_OK);
        if (me % 2 == 0)
            CHECK(rck_chan_send(ch, 9, io, 40) == RCK_OK);
        else
            CHECK(rck_chan_recv(ch, &type, ii, sizeof ii, &len, -1) ==
                      RCK_OK &&
                  type == 9 && len == 40);
    }
    memset(g, me == 0 ? 42 : 0, 64);
    CHECK(RCCE_comm_bcast(g, 64, 0, RCCE_COMM_WORLD) == RCCE_SUCCESS);
    CHECK(g[0] == 42 && g[63] == 42);
    CHECK(RCCE_barrier(&RCCE_COMM_WORLD) == RCCE_SUCCESS);
    CHECK(rck_chan_finalize() == RCK_OK);
    CHECK(RCCE_finalize() == RCCE_SUCCESS);
    if (me == 0)
        printf("comm_pattern: done on %d UEs\n", n);
    return 0;
}
