/*
 * The MPI library's messages in the communication matrix
 * (tests/monitor/check_mpi_comm.cmake), on 2 processes or more:
 *   ring:        rank i sends 500 + i bytes to i+1 (MPI_Sendrecv, eager)
 *   rendezvous:  rank 0 sends 20,000 bytes to rank 1 (MPI_Ssend: counted
 *                once, though its data moves after the RTS/CTS exchange)
 *   MPI_Finalize: a 0-byte message from every rank to every other one
 */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    static char out[600], in[600], big[20000];
    int me, n;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Sendrecv(out, 500 + me, MPI_BYTE, (me + 1) % n, 1, in, sizeof(in),
                 MPI_BYTE, (me + n - 1) % n, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    if (me == 0)
        MPI_Ssend(big, sizeof(big), MPI_BYTE, 1, 2, MPI_COMM_WORLD);
    else if (me == 1)
        MPI_Recv(big, sizeof(big), MPI_BYTE, 0, 2, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    if (me == 0)
        printf("mpi_pattern: done on %d processes\n", n);
    MPI_Finalize();
    return 0;
}
