/* MPI-3's neighbourhood collectives against neighbours worked out here
 * from coordinates: periodic and non-periodic Cartesian grids (a periodic
 * dimension of size 1 or 2 makes one process both neighbours: the blocks
 * must land in the right slots), a ring graph, a distributed graph with
 * uneven counts (alltoallv, alltoallw), non-blocking forms outstanding
 * together, and the error classes. Any number of processes. */
#include "colltest.h"

/* neighbour of @p rank along dimension d at +-1 in a row-major grid */
static int shift(int rank, const int *dims, const int *per, int nd, int d,
                 int disp)
{
    int c[8], r = 0;

    for (int i = nd - 1, x = rank; i >= 0; i--) {
        c[i] = x % dims[i];
        x /= dims[i];
    }
    c[d] += disp;
    if (c[d] < 0 || c[d] >= dims[d]) {
        if (!per[d])
            return MPI_PROC_NULL;
        c[d] = (c[d] + dims[d]) % dims[d];
    }
    for (int i = 0; i < nd; i++)
        r = r * dims[i] + c[i];
    return r;
}

static void test_cart(int rank, int size, int periodic)
{
    int dims[2] = {0, 0}, per[2] = {periodic, periodic}, nd = 2;
    MPI_Comm cart;
    int got[4], blocks[4], exp_ag[4], exp_a2a[4];
    MPI_Request r[2];

    MPI_Dims_create(size, 2, dims);
    MPI_Cart_create(MPI_COMM_WORLD, nd, dims, per, 0, &cart);
    for (int d = 0; d < nd; d++)
        for (int e = 0; e < 2; e++) {
            int k = 2 * d + e, nb = shift(rank, dims, per, nd, d, e ? 1 : -1);
            exp_ag[k] = nb == MPI_PROC_NULL ? -1 : nb;
            /* nb sent me the block for its neighbour on the other side */
            exp_a2a[k] = nb == MPI_PROC_NULL ? -1 : nb * 100 + (k ^ 1);
        }
    for (int k = 0; k < 4; k++) {
        got[k] = -1;
        blocks[k] = rank * 100 + k;
    }
    MPI_Neighbor_allgather(&rank, 1, MPI_INT, got, 1, MPI_INT, cart);
    CHECK(memcmp(got, exp_ag, sizeof got) == 0,
          "cart%s allgather: %d %d %d %d (grid %dx%d)",
          periodic ? " periodic" : "", got[0], got[1], got[2], got[3],
          dims[0], dims[1]);
    for (int k = 0; k < 4; k++)
        got[k] = -1;
    MPI_Neighbor_alltoall(blocks, 1, MPI_INT, got, 1, MPI_INT, cart);
    CHECK(memcmp(got, exp_a2a, sizeof got) == 0,
          "cart%s alltoall: %d %d %d %d (grid %dx%d)",
          periodic ? " periodic" : "", got[0], got[1], got[2], got[3],
          dims[0], dims[1]);
    /* non-blocking, two outstanding */
    int got2[4];
    for (int k = 0; k < 4; k++)
        got[k] = got2[k] = -1;
    MPI_Ineighbor_alltoall(blocks, 1, MPI_INT, got, 1, MPI_INT, cart, &r[0]);
    MPI_Ineighbor_allgather(&rank, 1, MPI_INT, got2, 1, MPI_INT, cart, &r[1]);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    CHECK(memcmp(got, exp_a2a, sizeof got) == 0 &&
              memcmp(got2, exp_ag, sizeof got2) == 0,
          "cart non-blocking pair");
    MPI_Comm_free(&cart);
}

static void test_graph(int rank, int size)
{
    int *index = malloc((size_t)size * sizeof(int));
    int *edges = malloc((size_t)2 * size * sizeof(int));
    int got[2] = {-1, -1}, blocks[2] = {rank * 100, rank * 100 + 1};
    int prev = (rank - 1 + size) % size, next = (rank + 1) % size;
    MPI_Comm g;

    for (int i = 0; i < size; i++) {
        index[i] = 2 * (i + 1);
        edges[2 * i] = (i - 1 + size) % size;
        edges[2 * i + 1] = (i + 1) % size;
    }
    MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &g);
    MPI_Neighbor_allgather(&rank, 1, MPI_INT, got, 1, MPI_INT, g);
    CHECK(got[0] == prev && got[1] == next, "graph allgather %d %d", got[0],
          got[1]);
    /* prev's list is (prevprev, me): its block 1; next's is (me, ...): 0 */
    MPI_Neighbor_alltoall(blocks, 1, MPI_INT, got, 1, MPI_INT, g);
    CHECK(got[0] == prev * 100 + 1 && got[1] == next * 100,
          "graph alltoall %d %d", got[0], got[1]);
    MPI_Comm_free(&g);
    free(index);
    free(edges);
}

/* sources r-1, r+2; destinations r+1, r-2 (distinct when size >= 5):
 * destination j gets j + 1 items */
static void test_dist(int rank, int size)
{
    int src[2] = {(rank - 1 + size) % size, (rank + 2) % size};
    int dst[2] = {(rank + 1) % size, (rank - 2 + size) % size};
    int sc[2] = {1, 2}, sd[2] = {0, 1}, rc[2] = {1, 2}, rd[2] = {3, 0};
    int sb[3], rb[4] = {-1, -1, -1, -1};
    MPI_Comm dg;

    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, src, MPI_UNWEIGHTED, 2,
                                   dst, MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                   &dg);
    for (int i = 0; i < 3; i++)
        sb[i] = rank * 10 + i;
    /* from r-1 (its destination 0: 1 item at sd 0) into rd[0] = 3; from
     * r+2 (its destination 1: 2 items from sd 1) into rd[1] = 0 */
    MPI_Neighbor_alltoallv(sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, dg);
    CHECK(rb[3] == src[0] * 10 && rb[0] == src[1] * 10 + 1 &&
              rb[1] == src[1] * 10 + 2 && rb[2] == -1,
          "dist alltoallv %d %d %d %d", rb[0], rb[1], rb[2], rb[3]);
    /* alltoallw: the same with byte displacements and MPI_INT */
    MPI_Aint sdw[2] = {0, sizeof(int)}, rdw[2] = {3 * sizeof(int), 0};
    MPI_Datatype t[2] = {MPI_INT, MPI_INT};
    for (int i = 0; i < 4; i++)
        rb[i] = -1;
    MPI_Request r;
    MPI_Ineighbor_alltoallw(sb, sc, sdw, t, rb, rc, rdw, t, dg, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    CHECK(rb[3] == src[0] * 10 && rb[0] == src[1] * 10 + 1 &&
              rb[1] == src[1] * 10 + 2 && rb[2] == -1,
          "dist alltoallw %d %d %d %d", rb[0], rb[1], rb[2], rb[3]);
    /* allgatherv: my rank from each source into reversed slots */
    int ac[2] = {1, 1}, ad[2] = {1, 0}, ag[2] = {-1, -1};
    MPI_Neighbor_allgatherv(&rank, 1, MPI_INT, ag, ac, ad, MPI_INT, dg);
    CHECK(ag[1] == src[0] && ag[0] == src[1], "dist allgatherv %d %d", ag[0],
          ag[1]);
    MPI_Comm_free(&dg);
}

int main(int argc, char **argv)
{
    int rank, size, x = 0;
    MPI_Request r;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    test_cart(rank, size, 1);
    test_cart(rank, size, 0);
    if (size >= 3)
        test_graph(rank, size);
    if (size >= 5)
        test_dist(rank, size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK(MPI_Neighbor_allgather(&rank, 1, MPI_INT, &x, 1, MPI_INT,
                                 MPI_COMM_WORLD) == MPI_ERR_TOPOLOGY,
          "no topology");
    CHECK(MPI_Ineighbor_alltoall(&rank, 1, MPI_INT, &x, 1, MPI_INT,
                                 MPI_COMM_NULL, &r) == MPI_ERR_COMM,
          "null communicator");
    int dims[1] = {size}, per[1] = {1};
    MPI_Comm ring;
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, per, 0, &ring);
    MPI_Comm_set_errhandler(ring, MPI_ERRORS_RETURN);
    CHECK(MPI_Neighbor_alltoall(MPI_IN_PLACE, 1, MPI_INT, &x, 1, MPI_INT,
                                ring) == MPI_ERR_BUFFER, "MPI_IN_PLACE");
    MPI_Comm_free(&ring);
    return mpitest_end("t_neighbor");
}
