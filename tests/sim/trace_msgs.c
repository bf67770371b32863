/*
 * trace_msgs.c: point-to-point messages only (no collectives), for the
 * trace checker (tests/sim/check_trace.py). Every UE sends messages of
 * 1, 100, 4096 and 10000 bytes to the next UE round a ring with RCCE and
 * receives them from the previous one (even UEs send first), then the
 * same with iRCCE's blocking calls (iRCCE_isend / iRCCE_irecv without a
 * request). Exit status 0 when every message arrived whole.
 */
#include "RCCE.h"
#include "iRCCE.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const size_t sizes[] = {1, 100, 4096, 10000};

static void check(int rc, const char *what)
{
    if (rc != RCCE_SUCCESS) {
        fprintf(stderr, "trace_msgs: UE %d: %s failed (%d)\n", RCCE_ue(), what,
                rc);
        exit(1);
    }
}

static void fill(char *buf, size_t n, int from, size_t k)
{
    for (size_t i = 0; i < n; i++)
        buf[i] = (char)(from * 31 + (int)k * 7 + (int)i);
}

int main(int argc, char **argv)
{
    static char out[10000], in[10000], want[10000];
    int me, n, next, prev;

    check(RCCE_init(&argc, &argv), "RCCE_init");
    check(iRCCE_init(), "iRCCE_init");
    me = RCCE_ue();
    n = RCCE_num_ues();
    if (n < 2) {
        fprintf(stderr, "trace_msgs: needs at least 2 UEs\n");
        return 2;
    }
    next = (me + 1) % n;
    prev = (me + n - 1) % n;
    for (int lib = 0; lib < 2; lib++) {
        for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
            size_t len = sizes[k];

            fill(out, len, me, k);
            fill(want, len, prev, k);
            memset(in, 0, len);
            for (int phase = 0; phase < 2; phase++) {
                if ((phase == 0) == (me % 2 == 0)) {
                    if (lib == 0)
                        check(RCCE_send(out, len, next), "RCCE_send");
                    else
                        check(iRCCE_isend(out, (ssize_t)len, next, NULL),
                              "iRCCE_isend");
                } else {
                    if (lib == 0)
                        check(RCCE_recv(in, len, prev), "RCCE_recv");
                    else
                        check(iRCCE_irecv(in, (ssize_t)len, prev, NULL),
                              "iRCCE_irecv");
                }
            }
            if (memcmp(in, want, len) != 0) {
                fprintf(stderr, "trace_msgs: UE %d: message of %zu bytes "
                                "from UE %d garbled\n", me, len, prev);
                return 1;
            }
        }
    }
    printf("trace_msgs: UE %d: %zu messages sent and received\n", me,
           2 * sizeof(sizes) / sizeof(sizes[0]));
    check(RCCE_finalize(), "RCCE_finalize");
    return 0;
}
