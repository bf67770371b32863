/* Communicators and groups: split (colors, keys, MPI_UNDEFINED), dup and
 * its separate context, create from a group, compare, free and reuse,
 * group operations, names, attributes, the processor name. */
#include "mpitest.h"

static void contexts(int rank, int size)
{
    MPI_Comm dup;
    int a = rank, b = -1, c = -1, res;
    int peer = (rank + 1) % size, from = (rank + size - 1) % size;

    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_compare(MPI_COMM_WORLD, dup, &res);
    CHECK(res == MPI_CONGRUENT, "dup is congruent (%d)", res);
    /* the same tag on both: each receive gets its own communicator's */
    MPI_Request r[2];
    MPI_Irecv(&b, 1, MPI_INT, from, 9, dup, &r[0]);
    MPI_Irecv(&c, 1, MPI_INT, from, 9, MPI_COMM_WORLD, &r[1]);
    int w = 1000 + rank;
    MPI_Send(&w, 1, MPI_INT, peer, 9, MPI_COMM_WORLD);
    MPI_Send(&a, 1, MPI_INT, peer, 9, dup);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    CHECK(b == from && c == 1000 + from, "contexts: dup %d world %d", b, c);
    MPI_Comm_free(&dup);
    CHECK(dup == MPI_COMM_NULL, "free sets NULL");

    /* freed while its requests are pending: they complete normally */
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    b = -1;
    MPI_Irecv(&b, 1, MPI_INT, MPI_ANY_SOURCE, 10, dup, &r[0]);
    MPI_Isend(&a, 1, MPI_INT, peer, 10, dup, &r[1]);
    MPI_Comm_free(&dup);
    MPI_Status st[2];
    MPI_Waitall(2, r, st);
    CHECK(b == from && st[0].MPI_SOURCE == from,
          "receive on a freed communicator: %d from %d", b, st[0].MPI_SOURCE);
}

static void splits(int rank, int size)
{
    MPI_Comm half, rev, none;
    int hr, hs, rr, v, from;

    /* halves, ranks reversed inside by key */
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &half);
    MPI_Comm_rank(half, &hr);
    MPI_Comm_size(half, &hs);
    CHECK(hs == (size + 1 - rank % 2) / 2, "half size %d", hs);
    CHECK(hr == hs - 1 - rank / 2, "half rank %d (world %d)", hr, rank);
    /* a ring inside the half: neighbours are world ranks two apart */
    from = (hr + hs - 1) % hs;
    MPI_Sendrecv(&rank, 1, MPI_INT, (hr + 1) % hs, 4, &v, 1, MPI_INT, from, 4,
                 half, MPI_STATUS_IGNORE);
    {
        MPI_Group wg, hg;
        int wr;
        MPI_Comm_group(MPI_COMM_WORLD, &wg);
        MPI_Comm_group(half, &hg);
        MPI_Group_translate_ranks(hg, 1, &from, wg, &wr);
        CHECK(v == wr, "ring in half: got %d from world %d", v, wr);
        MPI_Group_free(&wg);
        MPI_Group_free(&hg);
    }
    /* split of a split */
    MPI_Comm_split(half, 0, -hr, &rev);
    MPI_Comm_rank(rev, &rr);
    CHECK(rr == hs - 1 - hr, "split of a split: %d", rr);
    MPI_Comm_free(&rev);
    MPI_Comm_free(&half);
    /* everyone undefined but rank 0 */
    MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? 3 : MPI_UNDEFINED, 0, &none);
    CHECK((rank == 0) == (none != MPI_COMM_NULL), "undefined color");
    if (none != MPI_COMM_NULL) {
        int s;
        MPI_Comm_size(none, &s);
        CHECK(s == 1, "size %d", s);
        MPI_Comm_free(&none);
    }
    /* one chip: the shared split holds everyone */
    MPI_Comm node;
    int ns;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank,
                        MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &ns);
    CHECK(ns == size, "split_type shared: %d", ns);
    MPI_Comm_free(&node);
    /* many communicators made and freed: contexts come back */
    for (int i = 0; i < 300; i++) {
        MPI_Comm d;
        MPI_Comm_dup(MPI_COMM_WORLD, &d);
        MPI_Comm_free(&d);
    }
}

static void groups(int rank, int size)
{
    MPI_Group w, evens, odds, u, in, df, g3;
    MPI_Comm ce;
    int n, r, res, ranks[64], nev = (size + 1) / 2;

    MPI_Comm_group(MPI_COMM_WORLD, &w);
    for (int i = 0; i < nev; i++)
        ranks[i] = 2 * i;
    MPI_Group_incl(w, nev, ranks, &evens);
    MPI_Group_excl(w, nev, ranks, &odds);
    MPI_Group_size(odds, &n);
    CHECK(n == size - nev, "excl size %d", n);
    MPI_Group_union(odds, evens, &u);
    MPI_Group_compare(u, w, &res);
    CHECK(res == (size > 2 ? MPI_SIMILAR : size == 1 ? MPI_IDENT : MPI_SIMILAR),
          "union compare %d", res);
    MPI_Group_intersection(u, evens, &in);
    MPI_Group_compare(in, evens, &res);
    CHECK(res == MPI_IDENT, "intersection %d", res);
    MPI_Group_difference(w, evens, &df);
    MPI_Group_compare(df, odds, &res);
    CHECK(res == MPI_IDENT, "difference %d", res);
    int range[1][3] = {{0, size - 1, 3}};
    MPI_Group_range_incl(w, 1, range, &g3);
    MPI_Group_size(g3, &n);
    CHECK(n == (size + 2) / 3, "range_incl %d", n);
    MPI_Group_rank(evens, &r);
    CHECK(r == (rank % 2 ? MPI_UNDEFINED : rank / 2), "group rank %d", r);

    MPI_Comm_create(MPI_COMM_WORLD, evens, &ce);
    CHECK((rank % 2 == 0) == (ce != MPI_COMM_NULL), "create");
    if (ce != MPI_COMM_NULL) {
        MPI_Comm_rank(ce, &r);
        CHECK(r == rank / 2, "create rank %d", r);
        MPI_Comm_free(&ce);
    }
    /* create_group: only the members call it */
    if (rank % 2 == 0) {
        MPI_Comm_create_group(MPI_COMM_WORLD, evens, 5, &ce);
        MPI_Comm_rank(ce, &r);
        MPI_Comm_size(ce, &n);
        CHECK(r == rank / 2 && n == nev, "create_group %d/%d", r, n);
        int x = r, y = -1;
        MPI_Sendrecv(&x, 1, MPI_INT, (r + 1) % n, 0, &y, 1, MPI_INT,
                     (r + n - 1) % n, 0, ce, MPI_STATUS_IGNORE);
        CHECK(y == (r + n - 1) % n, "ring in create_group: %d", y);
        MPI_Comm_free(&ce);
    }
    MPI_Group_free(&w);
    MPI_Group_free(&evens);
    MPI_Group_free(&odds);
    MPI_Group_free(&u);
    MPI_Group_free(&in);
    MPI_Group_free(&df);
    MPI_Group_free(&g3);
}

static void environment(int rank)
{
    char name[MPI_MAX_PROCESSOR_NAME], cname[MPI_MAX_OBJECT_NAME];
    int len, flag, *ub, *glob, provided;
    double t0 = MPI_Wtime();

    MPI_Get_processor_name(name, &len);
    CHECK(strncmp(name, "rck", 3) == 0 && len == 5, "processor name %s", name);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag);
    CHECK(flag && *ub >= 32767, "tag ub");
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &glob, &flag);
    CHECK(flag, "wtime is global");
    MPI_Comm_get_name(MPI_COMM_WORLD, cname, &len);
    CHECK(strcmp(cname, "MPI_COMM_WORLD") == 0, "name %s", cname);
    MPI_Query_thread(&provided);
    CHECK(provided == MPI_THREAD_FUNNELED, "thread level %d", provided);
    CHECK(MPI_Wtime() >= t0 && MPI_Wtick() > 0, "wtime");
    (void)rank;
}

int main(int argc, char **argv)
{
    int rank, size, provided;

    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    contexts(rank, size);
    splits(rank, size);
    groups(rank, size);
    environment(rank);
    return mpitest_end("t_comm");
}
