/*
 * An RCCE program for the engines' agreement on what the HAL costs the
 * program (docs/P54C.md, "What QEMU counts"; p54c_hal_engines.py): UE 0
 * and UE 1 pass a message back and forth N times (RCCE_send, RCCE_recv:
 * flags and MPB copies, several HAL calls each), then meet at a barrier
 * and read the clock, every iteration; between two calls each touches a
 * private array. No C library call in the loop: the compiled engine never
 * counts the C library, QEMU counts what the program calls there.
 *
 *   p54c_hal N
 */
#include <stdio.h>
#include <stdlib.h>

#include "RCCE.h"

#define MSG 64
#define WORK 256

static char buf[MSG];
static volatile int work[WORK];

int main(int argc, char **argv)
{
    long n;
    double t = 0;
    int me, peer;

    if (RCCE_init(&argc, &argv) != RCCE_SUCCESS) {
        fprintf(stderr, "p54c_hal: RCCE_init failed\n");
        return 1;
    }
    if (argc != 2 || (n = strtol(argv[1], NULL, 10)) <= 0 ||
        RCCE_num_ues() != 2) {
        fprintf(stderr, "usage: p54c_hal N (on 2 UEs)\n");
        RCCE_finalize();
        return 2;
    }
    me = RCCE_ue();
    peer = 1 - me;
    for (long i = 0; i < n; i++) {
        for (int k = 0; k < WORK; k++)
            work[k] += k ^ (int)i;
        buf[i % MSG] = (char)i;
        if (me == 0) {
            RCCE_send(buf, MSG, peer);
            RCCE_recv(buf, MSG, peer);
        } else {
            RCCE_recv(buf, MSG, peer);
            RCCE_send(buf, MSG, peer);
        }
        RCCE_barrier(&RCCE_COMM_WORLD);
        t += RCCE_wtime();
    }
    if (me == 0)
        printf("p54c_hal: %ld iterations, byte %d, clock sum %s\n", n,
               buf[(n - 1) % MSG], t > 0 ? "positive" : "zero");
    RCCE_finalize();
    return 0;
}
