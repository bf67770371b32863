/* The shared window a job gets (RCK_SHM_SIZE, docs/MPI.md "The shared
 * window on native") and the channel MPI_Init took in it.
 *
 *   t_window BYTES CHANNEL
 *
 * Every rank checks that the HAL's shared window is BYTES long and that
 * MPI_Get_library_version names CHANNEL; then a 64 KiB broadcast and a
 * gather check that the channel moves data. */
#include "mpitest.h"

#include "rck/hal.h"

int main(int argc, char **argv)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING], want_chan[64];
    static char big[65536];
    void *base = NULL;
    size_t len = 0;
    unsigned long long want;
    int rank, size, vlen, *all;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc != 3) {
        if (rank == 0)
            fprintf(stderr, "usage: t_window BYTES CHANNEL\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    want = strtoull(argv[1], NULL, 0);
    snprintf(want_chan, sizeof want_chan, "(channel %s)", argv[2]);
    CHECK(rck_hal_self() != NULL &&
              rck_hal_shm_map(rck_hal_self(), &base, &len) == RCK_OK,
          "no shared window");
    CHECK(len == want, "the shared window is %zu bytes, want %llu", len, want);
    MPI_Get_library_version(version, &vlen);
    CHECK(strstr(version, want_chan) != NULL, "library '%s', want %s",
          version, want_chan);

    if (rank == 0)
        for (size_t i = 0; i < sizeof big; i++)
            big[i] = (char)(i * 7 + 3);
    MPI_Bcast(big, (int)sizeof big, MPI_BYTE, 0, MPI_COMM_WORLD);
    for (size_t i = 0; i < sizeof big; i++)
        if (big[i] != (char)(i * 7 + 3)) {
            CHECK(0, "bcast byte %zu wrong", i);
            break;
        }
    all = malloc(sizeof(int) * (size_t)size);
    CHECK(all != NULL, "out of memory");
    if (all != NULL) {
        int mine = rank * 3 + 1;
        MPI_Gather(&mine, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
        for (int r = 0; rank == 0 && r < size; r++)
            CHECK(all[r] == r * 3 + 1, "gather: rank %d sent %d", r, all[r]);
        free(all);
    }
    if (rank == 0)
        printf("t_window: window %zu bytes, %s\n", len, want_chan);
    return mpitest_end("t_window");
}
