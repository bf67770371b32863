/*
 * mpi_wake: no wake-up is lost. A token goes round the ring of UEs ROUNDS
 * times (two UEs: a ping-pong); each hand-over is one RCCE flag written
 * into the next UE's MPB while that UE waits on it. Run with
 * RCK_MPI_SPIN_NS=0 every wait takes the blocking path (announce, look
 * again, block for a wake-up message), so a race in that protocol leaves
 * a UE asleep forever: a watchdog then names the round and fails.
 *
 *   mpi_wake [ROUNDS]     (default 5000)
 */
#include "RCCE.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t round_now;
static int me = -1;

static void watchdog(int sig)
{
    char msg[128];
    int len = snprintf(msg, sizeof(msg),
                       "FAIL mpi_wake: UE %d stuck in round %d: a wake-up "
                       "was lost\n",
                       me, (int)round_now);
    (void)sig;
    if (len > 0 && write(STDERR_FILENO, msg, (size_t)len) < 0)
        _exit(1);
    _exit(1);
}

int main(int argc, char **argv)
{
    RCCE_FLAG token;
    int rounds, n, next;

    if (RCCE_init(&argc, &argv) != RCCE_SUCCESS) {
        fprintf(stderr, "FAIL mpi_wake: RCCE_init\n");
        return 1;
    }
    rounds = argc > 1 ? atoi(argv[1]) : 5000;
    me = RCCE_ue();
    n = RCCE_num_ues();
    if (n < 2) {
        RCCE_finalize();
        return 0;
    }
    next = (me + 1) % n;
    if (RCCE_flag_alloc(&token) != RCCE_SUCCESS) {
        fprintf(stderr, "FAIL mpi_wake: RCCE_flag_alloc\n");
        return 1;
    }
    signal(SIGALRM, watchdog);
    alarm(45);
    RCCE_barrier(&RCCE_COMM_WORLD);
    if (me == 0 && RCCE_flag_write(&token, RCCE_FLAG_SET, next) != RCCE_SUCCESS)
        return 1;
    for (int r = 0; r < rounds; r++) {
        round_now = r;
        if (me == 0 && r == rounds - 1)
            break; /* UE 0 started the token: it takes one hand-over less */
        if (RCCE_wait_until(token, RCCE_FLAG_SET) != RCCE_SUCCESS ||
            RCCE_flag_write(&token, RCCE_FLAG_UNSET, me) != RCCE_SUCCESS ||
            RCCE_flag_write(&token, RCCE_FLAG_SET, next) != RCCE_SUCCESS) {
            fprintf(stderr, "FAIL mpi_wake: UE %d: flag call failed in "
                            "round %d\n", me, r);
            return 1;
        }
    }
    if (me == 0) {
        /* the last hand-over comes back to UE 0 */
        if (RCCE_wait_until(token, RCCE_FLAG_SET) != RCCE_SUCCESS)
            return 1;
        RCCE_flag_write(&token, RCCE_FLAG_UNSET, me);
        printf("mpi_wake: %d UEs passed the token %d times round\n", n,
               rounds);
    }
    alarm(0);
    RCCE_barrier(&RCCE_COMM_WORLD);
    RCCE_flag_free(&token);
    RCCE_finalize();
    return 0;
}
