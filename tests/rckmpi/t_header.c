/* mpi.h includes nothing but <stddef.h>: a program that includes it first
 * and only then asks for GNU extensions (SKaMPI does this for O_DIRECT)
 * still gets them from the system headers it includes next. The build
 * defines _GNU_SOURCE for every file: undone here so that this file sees
 * the headers as a program built without it does. */
#undef _GNU_SOURCE
#include <mpi.h>

#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>

#ifndef O_DIRECT
#error "O_DIRECT is not defined: mpi.h pulled in a system header first"
#endif

int main(int argc, char **argv)
{
    int rank, size, failures = 0;
    MPI_Aint a;
    int x;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (sizeof(MPI_Aint) != sizeof(intptr_t) || (MPI_Aint)-1 >= 0) {
        fprintf(stderr, "FAILED: MPI_Aint is not intptr_t\n");
        failures++;
    }
    MPI_Get_address(&x, &a);
    if ((intptr_t)a != (intptr_t)&x) {
        fprintf(stderr, "FAILED: MPI_Get_address\n");
        failures++;
    }
    {
        /* the version the header and the library say agree, and it is
         * the one whose additions are all there (docs/MPI.md) */
        int v = 0, sv = 0;
        MPI_Get_version(&v, &sv);
        if (v != MPI_VERSION || sv != MPI_SUBVERSION || v != 3 || sv != 1) {
            fprintf(stderr, "FAILED: MPI_Get_version %d.%d, mpi.h %d.%d\n",
                    v, sv, MPI_VERSION, MPI_SUBVERSION);
            failures++;
        }
    }
    if (O_DIRECT == 0) {
        fprintf(stderr, "FAILED: O_DIRECT is 0\n");
        failures++;
    }
    if (failures == 0 && rank == 0)
        printf("t_header: ok: %d processes (O_DIRECT 0%o)\n", size,
               (unsigned)O_DIRECT);
    MPI_Finalize();
    return failures != 0;
}
