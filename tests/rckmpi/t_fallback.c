/* The sccmpb-ext channel never stalls when its gEWS is busy: rank 0 lends
 * its whole gEWS to a 4 KiB message for rank 1, which computes for 0.2 s
 * without calling MPI (so it neither reads the packet nor returns the
 * slots); rank 0's messages to rank 2 must still get through, 48 bytes per
 * round trip, before rank 1 wakes up. Needs 3 processes. */
#include "mpitest.h"

#include <time.h>

int main(int argc, char **argv)
{
    int rank, size;
    static char big[4096], mid[3000];
    double t_recv = 0, t_wake = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 3)
        return mpitest_end("t_fallback");
    MPI_Barrier_p2p();
    if (rank == 0) {
        memset(big, 1, sizeof big);
        memset(mid, 2, sizeof mid);
        MPI_Send(big, sizeof big, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
        MPI_Send(mid, sizeof mid, MPI_BYTE, 2, 2, MPI_COMM_WORLD);
    } else if (rank == 1) {
        /* computing for 0.1 s of CPU time (the sim charges it as
         * compute; a sleep it would not): no MPI calls */
        struct timespec a, b;
        volatile unsigned long x = 0;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
        do {
            for (int i = 0; i < 100000; i++)
                x += (unsigned long)i;
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
        } while ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec) < 1e8);
        t_wake = MPI_Wtime();
        MPI_Recv(big, sizeof big, MPI_BYTE, 0, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        CHECK(big[0] == 1 && big[4095] == 1, "rank 1 data");
    } else if (rank == 2) {
        MPI_Recv(mid, sizeof mid, MPI_BYTE, 0, 2, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        t_recv = MPI_Wtime();
        CHECK(mid[0] == 2 && mid[2999] == 2, "rank 2 data");
    }
    /* rank 2 tells rank 1 when it got its message */
    if (rank == 2)
        MPI_Send(&t_recv, 1, MPI_DOUBLE, 1, 3, MPI_COMM_WORLD);
    if (rank == 1) {
        MPI_Recv(&t_recv, 1, MPI_DOUBLE, 2, 3, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        CHECK(t_recv < t_wake, "rank 2 got its message at %.3f s, after "
              "rank 1 woke at %.3f s: the busy gEWS stalled it", t_recv,
              t_wake);
    }
    return mpitest_end("t_fallback");
}
