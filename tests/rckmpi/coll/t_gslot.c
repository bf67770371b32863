/* The small gather through the shared window's entries (coll_slot.c; on
 * native, MPI_COMM_WORLD, blocks up to RCK_MPI_GATHER_SLOTS bytes): many
 * gathers in a row, so that every rank's ring of entries wraps several
 * times and its senders run ahead of the root until their ring is full
 * (the root probes for a while before it gathers); the root changing from
 * one gather to the next (entries of one ring read by different roots,
 * out of order); blocks of 0, 4, 56 (the largest that takes the entries)
 * and 60 bytes (the tree); MPI_IN_PLACE; a derived type with holes on
 * both sides; gathers between point-to-point messages, barriers and
 * allreduces; the same on a split communicator (not the world: the
 * message forms). Every block's contents name its rank, the gather and
 * the item, so a block read from the wrong entry or before it was written
 * fails. Also runs on the sim and with the entries off, where it checks
 * the other forms the same way. */
#include "colltest.h"

static int val(int rank, int g, int i)
{
    return rank * 100003 + g * 31 + i;
}

/* n gathers of @p count ints (as MPI_INT) on @p comm, the root moving
 * every @p every gathers; the root probes @p probes times first */
static void gathers(MPI_Comm comm, int n, int count, int every, int probes)
{
    int rank, size;

    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int *send = malloc(sizeof(int) * (size_t)(count + 1));
    int *recv = malloc(sizeof(int) * (size_t)(count + 1) * (size_t)size);
    for (int g = 0; g < n; g++) {
        int root = (g / every) % size, flag;
        for (int i = 0; i < count; i++)
            send[i] = val(rank, g, i);
        for (int i = 0; i < count * size; i++)
            recv[i] = -1;
        if (rank == root && g % every == 0)
            for (int p = 0; p < probes; p++)
                MPI_Iprobe(MPI_ANY_SOURCE, 999, comm, &flag,
                           MPI_STATUS_IGNORE);
        int in_place = rank == root && g % 3 == 1;
        if (in_place)
            memcpy(recv + (size_t)root * count, send,
                   sizeof(int) * (size_t)count);
        MPI_Gather(in_place ? MPI_IN_PLACE : send, count, MPI_INT, recv,
                   count, MPI_INT, root, comm);
        if (rank != root)
            continue;
        int bad = 0;
        for (int r = 0; r < size && !bad; r++)
            for (int i = 0; i < count && !bad; i++)
                if (recv[(size_t)r * count + i] != val(r, g, i)) {
                    CHECK(0, "gather %d of %d ints, root %d: rank %d item %d "
                             "is %d, not %d",
                          g, count, root, r, i, recv[(size_t)r * count + i],
                          val(r, g, i));
                    bad = 1;
                }
    }
    free(send);
    free(recv);
}

/* a vector type with holes: 3 items of 2 ints, one skipped between (24
 * bytes packed), gathered into a contiguous pair type on the root */
static void holes(MPI_Comm comm)
{
    int rank, size;
    MPI_Datatype vec, pair;

    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    int send[12], *recv = malloc(sizeof(int) * 6 * (size_t)size);
    for (int g = 0; g < 40; g++) {
        int root = (size - 1 - g % size + size) % size;
        /* the vector's extent is 3 ints: item k is ints 3k and 3k + 2 */
        for (int i = 0; i < 12; i++)
            send[i] = val(rank, g, i);
        for (int i = 0; i < 6 * size; i++)
            recv[i] = -1;
        MPI_Gather(send, 3, vec, recv, 3, pair, root, comm);
        if (rank != root)
            continue;
        for (int r = 0; r < size; r++)
            for (int i = 0; i < 6; i++) {
                /* vector item k, int j: send index 3k + 2j */
                int want = val(r, g, 3 * (i / 2) + 2 * (i % 2));
                CHECK(recv[6 * r + i] == want,
                      "holes: gather %d rank %d int %d is %d, not %d", g, r,
                      i, recv[6 * r + i], want);
            }
    }
    free(recv);
    MPI_Type_free(&vec);
    MPI_Type_free(&pair);
}

/* gathers between other traffic: a ring message, a barrier, an
 * allreduce, whose results are checked too */
static void mixed(MPI_Comm comm)
{
    int rank, size;

    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int *recv = malloc(sizeof(int) * (size_t)size);
    for (int g = 0; g < 300; g++) {
        int root = g % size, mine = val(rank, g, 0), in, sum;
        MPI_Gather(&mine, 1, MPI_INT, recv, 1, MPI_INT, root, comm);
        for (int r = 0; rank == root && r < size; r++)
            CHECK(recv[r] == val(r, g, 0), "mixed: gather %d rank %d is %d",
                  g, r, recv[r]);
        MPI_Sendrecv(&mine, 1, MPI_INT, (rank + 1) % size, 5, &in, 1,
                     MPI_INT, (rank + size - 1) % size, 5, comm,
                     MPI_STATUS_IGNORE);
        CHECK(in == val((rank + size - 1) % size, g, 0),
              "mixed: ring message %d is %d", g, in);
        if (g % 7 == 0)
            MPI_Barrier(comm);
        if (g % 11 == 0) {
            MPI_Allreduce(&g, &sum, 1, MPI_INT, MPI_SUM, comm);
            CHECK(sum == g * size, "mixed: allreduce %d is %d", g, sum);
        }
    }
    free(recv);
}

static void all(MPI_Comm comm, int quick)
{
    int n = quick ? 300 : 700;

    gathers(comm, n, 1, 1, 0);        /* 4 B, a new root every time */
    gathers(comm, n, 1, n, 3000);     /* 4 B, one root: rings fill */
    gathers(comm, n / 2, 14, 37, 500); /* 56 B: the largest entry */
    gathers(comm, 60, 15, 5, 0);      /* 60 B: the tree */
    gathers(comm, 60, 0, 4, 0);       /* 0 B */
    holes(comm);
    mixed(comm);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Comm half;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int quick = argc > 1 && strcmp(argv[1], "quick") == 0;
    all(MPI_COMM_WORLD, quick);
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &half);
    all(half, 1);
    MPI_Comm_free(&half);
    /* the world again after the split's traffic */
    gathers(MPI_COMM_WORLD, 300, 1, 3, 0);
    return mpitest_end("t_gslot");
}
