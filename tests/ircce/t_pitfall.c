/*
 * The documented iRCCE pitfall, reproduced as on the chip: progress happens
 * only inside iRCCE calls, so a blocking RCCE call made while a
 * multi-piece iRCCE send is pending can deadlock.
 *
 * UEs 0 and 1 first exchange a message the right way (isend + irecv, then
 * waits, which progress both), then each posts a multi-piece isend and
 * calls RCCE_recv: both receive the first piece, acknowledge it, and wait
 * for a second piece that only an iRCCE call on the other side would send.
 * The sim backend finds the deadlock at once, native after RCK_WAIT_TIMEOUT
 * (set short by the test); the blocking call must then fail, not hang.
 * The program leaves without RCCE_finalize (the MPB state is broken).
 */
#include "ircce_test.h"

int main(int argc, char **argv)
{
    size_t big = 3 * irc_chunk_guess(2) + 5;
    char *s, *r;
    iRCCE_SEND_REQUEST sr;
    iRCCE_RECV_REQUEST rr;
    int me, other;

    conf_watchdog();
    CHECK_OK(RCCE_init(&argc, &argv));
    conf_started();
    me = RCCE_ue();
    CHECK(RCCE_num_ues() == 2);
    other = 1 - me;
    s = malloc(big);
    r = malloc(big);
    CHECK(s && r);
    conf_phase("non-blocking both ways");
    conf_fill(s, big, irc_seed(1, me, other, big));
    CHECK_POSTED(iRCCE_isend(s, (ssize_t)big, other, &sr));
    CHECK_POSTED(iRCCE_irecv(r, (ssize_t)big, other, &rr));
    CHECK_IRC(iRCCE_isend_wait(&sr), iRCCE_SUCCESS);
    CHECK_IRC(iRCCE_irecv_wait(&rr), iRCCE_SUCCESS);
    CHECK_PATTERN(r, big, irc_seed(1, other, me, big));
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
    conf_phase("blocking RCCE_recv after a pending isend");
    CHECK_POSTED(iRCCE_isend(s, (ssize_t)big, other, &sr));
    CHECK_RC(RCCE_recv(r, big, other), RCCE_ERROR_TARGET);
    free(s);
    free(r);
    return 0;
}
