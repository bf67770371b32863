/* Random traffic: every rank sends N messages (8 B to 40 KB: eager,
 * gEWS-sized and rendezvous; every third synchronous) to random ranks with
 * random tags, all at once; every rank receives what the common schedule
 * says it gets with MPI_ANY_SOURCE and MPI_ANY_TAG, and checks the data,
 * the source, and the order per (source, tag). */
#include "mpitest.h"
static unsigned rnd(unsigned *s) { *s = *s * 1103515245u + 12345u; return (*s >> 8); }
int main(int argc, char **argv)
{
    int rank, size, N = argc > 1 ? atoi(argv[1]) : 50, bad = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int *expect = calloc(size, sizeof(int)), nexp = 0;
    unsigned seed;
    /* every rank's schedule */
    for (int s = 0; s < size; s++) {
        seed = 1234 + s;
        for (int i = 0; i < N; i++) {
            int d = rnd(&seed) % size; unsigned sz = rnd(&seed) % 40000; (void)sz; rnd(&seed);
            if (d == rank) { expect[s]++; nexp++; }
        }
    }
    MPI_Request *rq = malloc(sizeof(MPI_Request) * N);
    char **bufs = malloc(sizeof(char *) * N);
    seed = 1234 + rank;
    for (int i = 0; i < N; i++) {
        int d = rnd(&seed) % size; unsigned sz = rnd(&seed) % 40000 + 8; int tag = rnd(&seed) % 4;
        bufs[i] = malloc(sz);
        ((int *)bufs[i])[0] = rank; ((int *)bufs[i])[1] = i;
        for (unsigned k = 8; k < sz; k++) bufs[i][k] = (char)(rank * 7 + i * 13 + k);
        if (i % 3 == 0) MPI_Issend(bufs[i], sz, MPI_BYTE, d, tag, MPI_COMM_WORLD, &rq[i]);
        else MPI_Isend(bufs[i], sz, MPI_BYTE, d, tag, MPI_COMM_WORLD, &rq[i]);
    }
    int *last = malloc(sizeof(int) * size * 4);
    for (int k = 0; k < size * 4; k++) last[k] = -1;
    char *rb = malloc(40008);
    for (int j = 0; j < nexp; j++) {
        MPI_Status st; int cnt;
        MPI_Recv(rb, 40008, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_BYTE, &cnt);
        int s = ((int *)rb)[0], i = ((int *)rb)[1];
        if (s != st.MPI_SOURCE) bad++;
        for (int k = 8; k < cnt; k++) if (rb[k] != (char)(s * 7 + i * 13 + k)) { bad++; break; }
        if (i <= last[s * 4 + st.MPI_TAG]) bad++; /* order per (source, tag) */
        last[s * 4 + st.MPI_TAG] = i;
    }
    MPI_Waitall(N, rq, MPI_STATUSES_IGNORE);
    CHECK(bad == 0, "%d bad messages", bad);
    for (int i = 0; i < N; i++)
        free(bufs[i]);
    free(bufs);
    free(rq);
    free(rb);
    free(last);
    free(expect);
    return mpitest_end("t_stress");
}
