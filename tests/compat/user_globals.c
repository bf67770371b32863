/*
 * A program whose own globals have the names of the library's internal
 * state (rcce, ircce, svm_state, ...). Linked against the shared
 * librockcreek, such a definition would take the library's place if the
 * library exported its internals (the dynamic linker binds the library's
 * references to the executable's symbol). The program scribbles over its
 * globals before and after every library call and checks that messages,
 * barriers and its own data stay intact.
 */
#include "RCCE.h"
#include "iRCCE.h"

#include <string.h>

unsigned char rcce[65536];
unsigned char ircce[65536];
long svm_state[512];
int rck_native_ops = 7;

#define CHECK(cond)                                                          \
    do {                                                                     \
        if (!(cond)) {                                                       \
            printf("UE %d: FAILED at line %d: %s\n", RCCE_ue(), __LINE__,    \
                   #cond);                                                   \
            fflush(NULL);                                                    \
            exit(1);                                                         \
        }                                                                    \
    } while (0)

static void scribble(unsigned char v)
{
    memset(rcce, v, sizeof rcce);
    memset(ircce, v ^ 0x5a, sizeof ircce);
    for (size_t i = 0; i < sizeof svm_state / sizeof svm_state[0]; i++)
        svm_state[i] = -1 - (long)i;
}

static int intact(unsigned char v)
{
    for (size_t i = 0; i < sizeof rcce; i++)
        if (rcce[i] != v || ircce[i] != (unsigned char)(v ^ 0x5a))
            return 0;
    for (size_t i = 0; i < sizeof svm_state / sizeof svm_state[0]; i++)
        if (svm_state[i] != -1 - (long)i)
            return 0;
    return rck_native_ops == 7;
}

int RCCE_APP(int argc, char **argv)
{
    int me, n, buf[64], got[64];

    scribble(0xff);
    CHECK(RCCE_init(&argc, &argv) == RCCE_SUCCESS);
    CHECK(iRCCE_init() == iRCCE_SUCCESS);
    CHECK(intact(0xff));
    me = RCCE_ue();
    n = RCCE_num_ues();
    for (int round = 0; round < 4; round++) {
        scribble((unsigned char)(0x11 * round));
        for (int i = 0; i < 64; i++)
            buf[i] = me * 1000 + round * 100 + i;
        if (n > 1) {
            int right = (me + 1) % n, left = (me + n - 1) % n;
            iRCCE_SEND_REQUEST sreq;
            iRCCE_RECV_REQUEST rreq;

            CHECK(iRCCE_isend((char *)buf, sizeof buf, right, &sreq) !=
                  iRCCE_ERROR);
            CHECK(iRCCE_irecv((char *)got, sizeof got, left, &rreq) !=
                  iRCCE_ERROR);
            CHECK(iRCCE_isend_wait(&sreq) == iRCCE_SUCCESS);
            CHECK(iRCCE_irecv_wait(&rreq) == iRCCE_SUCCESS);
            for (int i = 0; i < 64; i++)
                CHECK(got[i] == left * 1000 + round * 100 + i);
            if (me % 2 == 0) {
                CHECK(RCCE_send((char *)buf, sizeof buf, right) ==
                      RCCE_SUCCESS);
                CHECK(RCCE_recv((char *)got, sizeof got, left) ==
                      RCCE_SUCCESS);
            } else {
                CHECK(RCCE_recv((char *)got, sizeof got, left) ==
                      RCCE_SUCCESS);
                CHECK(RCCE_send((char *)buf, sizeof buf, right) ==
                      RCCE_SUCCESS);
            }
            for (int i = 0; i < 64; i++)
                CHECK(got[i] == left * 1000 + round * 100 + i);
        }
        CHECK(RCCE_barrier(&RCCE_COMM_WORLD) == RCCE_SUCCESS);
        CHECK(intact((unsigned char)(0x11 * round)));
    }
    CHECK(RCCE_finalize() == RCCE_SUCCESS);
    if (me == 0)
        printf("user_globals: OK\n");
    return 0;
}
