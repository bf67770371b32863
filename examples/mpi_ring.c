/*
 * mpi_ring: a plain MPI program (nothing rockcreek-specific) for the MPI
 * library on the MPBs. A token of -s bytes goes -r times around the ring
 * of ranks; each rank checks what it receives, and rank 0 prints the
 * time per hop (chip time on the sim backend).
 *
 *   rckmpicc -O2 -o mpi_ring mpi_ring.c
 *   rck run -n 48 ./mpi_ring -s 4096 -r 10
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, size, bytes = 1024, rounds = 10, bad = 0, opt, len;
    char name[MPI_MAX_PROCESSOR_NAME];
    unsigned char *buf;
    double t0;

    MPI_Init(&argc, &argv);
    while ((opt = getopt(argc, argv, "s:r:")) != -1) {
        if (opt == 's')
            bytes = atoi(optarg);
        else if (opt == 'r')
            rounds = atoi(optarg);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Get_processor_name(name, &len);
    buf = malloc(bytes > 0 ? (size_t)bytes : 1);
    t0 = MPI_Wtime();
    for (int r = 0; r < rounds; r++) {
        int next = (rank + 1) % size, prev = (rank + size - 1) % size;
        if (rank == 0) {
            memset(buf, r & 0xff, (size_t)bytes);
            MPI_Send(buf, bytes, MPI_BYTE, next, r, MPI_COMM_WORLD);
            MPI_Recv(buf, bytes, MPI_BYTE, prev, r, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buf, bytes, MPI_BYTE, prev, r, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            MPI_Send(buf, bytes, MPI_BYTE, next, r, MPI_COMM_WORLD);
        }
        for (int i = 0; i < bytes; i++)
            bad += buf[i] != (r & 0xff);
    }
    if (bad)
        printf("FAILED: rank %d (%s) saw %d wrong bytes\n", rank, name, bad);
    if (rank == 0)
        printf("mpi_ring: %d ranks, %d bytes, %d rounds: %.2f us per hop\n",
               size, bytes, rounds,
               (MPI_Wtime() - t0) / rounds / size * 1e6);
    free(buf);
    MPI_Finalize();
    return bad != 0;
}
