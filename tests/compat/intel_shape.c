/*
 * What Intel's RCCE applications rely on beyond the documented calls, in
 * one program that compiles as C (rckcc) and as C++ (rckc++), with
 * -Wall -Wextra -Werror, in every build shape (API=gory, PWRMGMT=1,
 * SINGLEBITFLAGS=1):
 *  - RCCE.h alone brings printf, fflush, atoi, malloc, exit (stdio.h and
 *    stdlib.h, as Intel's RCCE.h includes them), STDERR and _RCCE;
 *  - RCCE_lib.h: RCCE_qsort with Intel's prototype (returns int),
 *    id_compare, RCCE_global_color, PAD32byte, RCCE_SUM_INT and the like,
 *    print_dividers;
 *  - HPL's pattern: one RCCE_COMM split again and again, once per process
 *    grid (the second split overwrites the membership), and a struct copy
 *    of a communicator (Intel's RCCE_P_COMM = RCCE_V_COMM) that stays
 *    valid while the original is split again.
 * No #include of stdio.h, stdlib.h or string.h on purpose.
 *
 * Prints "intel_shape: <shape> OK" on UE 0 when everything holds; any
 * failure prints "FAILED" and exits 1.
 */
#include "RCCE_lib.h"

#define CHECK(cond)                                                          \
    do {                                                                     \
        if (!(cond)) {                                                       \
            fprintf(STDERR, "UE %d: FAILED at line %d: %s\n", RCCE_ue(),     \
                    __LINE__, #cond);                                        \
            fflush(NULL);                                                    \
            exit(1);                                                         \
        }                                                                    \
    } while (0)

/* The grid of HPL: P rows by Q columns, ranks in row-major order. */
struct grid {
    int p, q;
};

static int row_color(int ue, void *aux)
{
    struct grid *g = (struct grid *)aux;
    return ue < g->p * g->q ? ue / g->q : -1 - ue;
}

static int col_color(int ue, void *aux)
{
    struct grid *g = (struct grid *)aux;
    return ue < g->p * g->q ? ue % g->q : -1 - ue;
}

static int parity_color(int ue, void *aux)
{
    (void)aux;
    return ue % 2;
}

/* Checks membership and rank against the colour function, then a
 * barrier and (non-gory) an allreduce over the members only. */
static void check_comm(RCCE_COMM *c, int (*color)(int, void *), void *aux)
{
    int me = RCCE_ue(), n = RCCE_num_ues(), size = -1, rank = -1, k = 0;
    int mine = color(me, aux);

    CHECK(RCCE_comm_size(*c, &size) == RCCE_SUCCESS);
    CHECK(RCCE_comm_rank(*c, &rank) == RCCE_SUCCESS);
    for (int ue = 0; ue < n; ue++) {
        if (color(ue, aux) != mine)
            continue;
        CHECK(c->member[k] == ue);
        if (ue == me)
            CHECK(rank == k);
        k++;
    }
    CHECK(size == k);
    CHECK(RCCE_barrier(c) == RCCE_SUCCESS);
#ifndef GORY
    {
        int in = me + 1, out = 0, want = 0;
        for (int r = 0; r < size; r++)
            want += c->member[r] + 1;
        CHECK(RCCE_allreduce((char *)&in, (char *)&out, 1, RCCE_INT,
                             RCCE_SUM, *c) == RCCE_SUCCESS);
        CHECK(out == want);
    }
#endif
}

int RCCE_APP(int argc, char **argv)
{
    int n, me, ids[RCCE_MAXNP];
    const char *shape = "nongory";
    char version[] = _RCCE;

    CHECK(RCCE_init(&argc, &argv) == RCCE_SUCCESS);
    me = RCCE_ue();
    n = RCCE_num_ues();
    CHECK(version[0] != '\0');
    (void)argv;

    /* RCCE_admin's use of RCCE_qsort: sort core ids with id_compare. */
    for (int i = 0; i < n; i++)
        ids[i] = (7 * i + 3) % n;
    CHECK(RCCE_qsort((char *)ids, (size_t)n, sizeof(int), id_compare) ==
          RCCE_SUCCESS);
    for (int i = 0; i < n; i++)
        CHECK(ids[i] == i);
    CHECK(RCCE_global_color(me, NULL) == 1);
    CHECK(PAD32byte(33) == 64 && PAD32byte(64) == 64);
    CHECK(RCCE_SUM_INT == RCCE_SUM + RCCE_NUM_OPS * RCCE_INT);
    {
        char *buf = (char *)malloc(16);
        CHECK(buf != NULL);
        free(buf);
        CHECK(atoi("48") == 48);
    }

    /* HPL: one communicator object per direction, split again for every
     * grid the run tries. */
    {
        RCCE_COMM row, col, saved;
        struct grid grids[3];
        int ngrids = 0;

        grids[ngrids].p = 1, grids[ngrids++].q = n;
        if (n % 2 == 0 && n > 2)
            grids[ngrids].p = 2, grids[ngrids++].q = n / 2;
        grids[ngrids].p = n, grids[ngrids++].q = 1;
        for (int g = 0; g < ngrids; g++) {
            CHECK(RCCE_comm_split(row_color, &grids[g], &row) ==
                  RCCE_SUCCESS);
            CHECK(RCCE_comm_split(col_color, &grids[g], &col) ==
                  RCCE_SUCCESS);
            check_comm(&row, row_color, &grids[g]);
            check_comm(&col, col_color, &grids[g]);
            if (g == 0)
                saved = row; /* a copy, as RCCE_P_COMM = RCCE_V_COMM */
        }
        /* The copy kept the first grid's membership and still works. */
        check_comm(&saved, row_color, &grids[0]);
        /* The copy itself can be split again, too. */
        CHECK(RCCE_comm_split(parity_color, NULL, &saved) == RCCE_SUCCESS);
        check_comm(&saved, parity_color, NULL);
        check_comm(&row, row_color, &grids[ngrids - 1]);
        CHECK(RCCE_barrier(&RCCE_COMM_WORLD) == RCCE_SUCCESS);
    }

#ifdef GORY
    shape = "gory";
    {
        /* the gory calls exist only in this shape's prototypes */
        t_vcharp mpb = RCCE_malloc(RCCE_LINE_SIZE);
        RCCE_FLAG f;
        CHECK(mpb != NULL);
        CHECK(RCCE_flag_alloc(&f) == RCCE_SUCCESS);
        CHECK(RCCE_flag_free(&f) == RCCE_SUCCESS);
        RCCE_free(mpb);
    }
#endif
#ifdef RC_POWER_MANAGEMENT
    CHECK(RCCE_power_domain_size() >= 1);
    if (me == 0)
        print_dividers();
#endif
    CHECK(RCCE_barrier(&RCCE_COMM_WORLD) == RCCE_SUCCESS);
    if (me == 0) {
        printf("intel_shape: %s%s%s OK\n", shape,
#ifdef SINGLEBITFLAGS
               " singlebitflags",
#else
               "",
#endif
#ifdef RC_POWER_MANAGEMENT
               " power"
#else
               ""
#endif
        );
        fflush(NULL);
    }
    CHECK(RCCE_finalize() == RCCE_SUCCESS);
    return 0;
}
