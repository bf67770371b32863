/*
 * The topology object of a communicator (topo_int.h): its copy
 * (MPI_Comm_dup) and its release.
 *
 * Owns: nothing. May call: the C library only; comm.c and topo.c call it.
 */
#include "rckmpi.h"
#include "topo_int.h"

#include <stdlib.h>
#include <string.h>

int *rk_dup_ints(const int *a, int n)
{
    int *b = malloc((size_t)(n > 0 ? n : 1) * sizeof(int));

    if (b != NULL && n > 0)
        memcpy(b, a, (size_t)n * sizeof(int));
    return b;
}

void rk_topo_free(struct rk_topo *t)
{
    if (t == NULL)
        return;
    free(t->dims);
    free(t->periods);
    free(t->index);
    free(t->edges);
    free(t->src);
    free(t->srcw);
    free(t->dst);
    free(t->dstw);
    free(t);
}

struct rk_topo *rk_topo_dup(const struct rk_topo *t)
{
    struct rk_topo *n;

    if (t == NULL || (n = calloc(1, sizeof *n)) == NULL)
        return NULL;
    *n = *t;
    n->dims = rk_dup_ints(t->dims, t->ndims);
    n->periods = rk_dup_ints(t->periods, t->ndims);
    n->index = rk_dup_ints(t->index, t->nnodes);
    n->edges = rk_dup_ints(t->edges, t->nedges);
    n->src = rk_dup_ints(t->src, t->indeg);
    n->srcw = rk_dup_ints(t->srcw, t->indeg);
    n->dst = rk_dup_ints(t->dst, t->outdeg);
    n->dstw = rk_dup_ints(t->dstw, t->outdeg);
    if (!n->dims || !n->periods || !n->index || !n->edges || !n->src ||
        !n->srcw || !n->dst || !n->dstw) {
        rk_topo_free(n);
        return NULL;
    }
    return n;
}
