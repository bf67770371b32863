/*
 * MPI_Type_create_subarray and MPI_Type_create_darray (docs/MPI.md,
 * "Datatypes"), built from the other constructors (vector, hindexed,
 * struct, resized), so type.c flattens them like any derived type.
 *
 * Both work one dimension at a time, from the fastest (the last in C
 * order, the first in Fortran order) outwards. The type of dimensions
 * d..fastest, T_d, places the elements this process has along d, each a
 * T_(d+1); it is then resized to extent slice_d (the bytes of one index of
 * the next slower dimension: the product of the global sizes of d..fastest
 * times oldtype's extent), so that the next dimension can lay T_d's out at
 * that stride. A T_d's data start at the first index it owns along d; the
 * offsets of the first indices (starts, or the first block a process owns)
 * are added once at the end, and the result is resized to lower bound 0
 * and the whole array's extent, as the standard defines it.
 */
#include "rckmpi.h"

#include <stdlib.h>

/* dimension k in the order fastest first */
static int dim_at(int order, int ndims, int k)
{
    return order == MPI_ORDER_C ? ndims - 1 - k : k;
}

/* *t (freed unless it is the caller's oldtype) becomes resized to
 * [0, extent) */
static int resize(MPI_Datatype *t, MPI_Datatype keep, MPI_Aint extent)
{
    MPI_Datatype n;
    int err = PMPI_Type_create_resized(*t, 0, extent, &n);

    if (*t != keep)
        PMPI_Type_free(t);
    *t = n;
    return err;
}

/* @p count blocks of @p blk items of @p t (extent: one index), @p stride
 * bytes apart, then @p rest items: replaces *t (freed unless @p keep) */
static int blocks(MPI_Datatype *t, MPI_Datatype keep, int count, int blk,
                  MPI_Aint stride, int rest)
{
    MPI_Datatype v, n;
    int err = PMPI_Type_create_hvector(count, blk, stride, *t, &v);

    if (err == MPI_SUCCESS && rest > 0) {
        int lens[2] = {1, rest};
        MPI_Aint disp[2] = {0, (MPI_Aint)count * stride};
        MPI_Datatype types[2] = {v, *t};
        err = PMPI_Type_create_struct(2, lens, disp, types, &n);
        PMPI_Type_free(&v);
        v = n;
    }
    if (*t != keep)
        PMPI_Type_free(t);
    *t = v;
    return err;
}

/* the last step, after the dimensions' steps ended with @p err: T at
 * byte offset @p disp in an array of @p total bytes; T is freed (unless it
 * is @p keep) either way, and a failure reported for @p f */
static int finish(int err, MPI_Datatype *t, MPI_Datatype keep, MPI_Aint disp,
                  MPI_Aint total, MPI_Datatype *newtype, const char *f)
{
    int one = 1;
    MPI_Datatype h = MPI_DATATYPE_NULL;

    if (err == MPI_SUCCESS)
        err = PMPI_Type_create_hindexed(1, &one, &disp, *t, &h);
    if (*t != keep)
        PMPI_Type_free(t);
    if (err == MPI_SUCCESS) {
        err = PMPI_Type_create_resized(h, 0, total, newtype);
        PMPI_Type_free(&h);
    }
    if (err != MPI_SUCCESS)
        return rk_err(MPI_COMM_WORLD, err, f, "the type was not made");
    return MPI_SUCCESS;
}

static int type_ok(MPI_Datatype t, MPI_Aint *extent, const char *f)
{
    MPI_Aint lb;

    if (rk_type_live(t) == NULL || t == MPI_UB || t == MPI_LB)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_TYPE, f, "invalid oldtype %d",
                      t);
    PMPI_Type_get_extent(t, &lb, extent);
    return MPI_SUCCESS;
}

/* MPI_Type_get_contents' record (replacing the pieces', which are
 * dropped): the integers @p head[0..nh), then @p narr arrays of @p n,
 * then @p order; the old type */
static int remember(MPI_Datatype *newtype, int combiner, const int *head,
                    int nh, const int *const *arrs, int narr, int n,
                    int order, MPI_Datatype oldtype, const char *f)
{
    int k = 0, err;
    int *v = malloc((size_t)(nh + narr * n + 1) * sizeof(int));

    if (v == NULL) {
        PMPI_Type_free(newtype);
        return rk_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, f, "no memory");
    }
    for (int i = 0; i < nh; i++)
        v[k++] = head[i];
    for (int a = 0; a < narr; a++)
        for (int i = 0; i < n; i++)
            v[k++] = arrs[a][i];
    v[k++] = order;
    err = rk_type_remember(*newtype, combiner, k, v, 0, NULL, 1, &oldtype);
    free(v);
    if (err != MPI_SUCCESS) {
        PMPI_Type_free(newtype);
        return rk_err(MPI_COMM_WORLD, err, f, "no memory");
    }
    return MPI_SUCCESS;
}

int PMPI_Type_create_subarray(int ndims, const int array_of_sizes[],
                              const int array_of_subsizes[],
                              const int array_of_starts[], int order,
                              MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Type_create_subarray";
    MPI_Aint ext, slice, disp = 0;
    MPI_Datatype t = oldtype;
    int err = rk_check_init(f);

    if (err != MPI_SUCCESS)
        return err;
    if (ndims <= 0 || array_of_sizes == NULL || array_of_subsizes == NULL ||
        array_of_starts == NULL || newtype == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, f,
                      "ndims %d (at least 1) or a NULL array", ndims);
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, f,
                      "order %d: not MPI_ORDER_C or MPI_ORDER_FORTRAN",
                      order);
    for (int d = 0; d < ndims; d++)
        if (array_of_sizes[d] < 1 || array_of_subsizes[d] < 1 ||
            array_of_subsizes[d] > array_of_sizes[d] ||
            array_of_starts[d] < 0 ||
            array_of_starts[d] > array_of_sizes[d] - array_of_subsizes[d])
            return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, f,
                          "dimension %d: size %d, subsize %d, start %d", d,
                          array_of_sizes[d], array_of_subsizes[d],
                          array_of_starts[d]);
    if ((err = type_ok(oldtype, &ext, f)) != MPI_SUCCESS)
        return err;
    slice = ext;
    for (int k = 0; k < ndims && err == MPI_SUCCESS; k++) {
        int d = dim_at(order, ndims, k);
        disp += (MPI_Aint)array_of_starts[d] * slice;
        err = blocks(&t, oldtype, 1, array_of_subsizes[d], slice, 0);
        slice *= array_of_sizes[d];
        if (err == MPI_SUCCESS)
            err = resize(&t, oldtype, slice);
    }
    err = finish(err, &t, oldtype, disp, slice, newtype, f);
    if (err != MPI_SUCCESS)
        return err;
    {
        const int *arrs[3] = {array_of_sizes, array_of_subsizes,
                              array_of_starts};
        return remember(newtype, MPI_COMBINER_SUBARRAY, &ndims, 1, arrs, 3,
                        ndims, order, oldtype, f);
    }
}
RK_MPI_ALIAS(Type_create_subarray);

int PMPI_Type_create_darray(int size, int rank, int ndims,
                            const int array_of_gsizes[],
                            const int array_of_distribs[],
                            const int array_of_dargs[],
                            const int array_of_psizes[], int order,
                            MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Type_create_darray";
    MPI_Aint ext, slice, disp = 0;
    MPI_Datatype t = oldtype;
    long procs = 1;
    int err = rk_check_init(f);

    if (err != MPI_SUCCESS)
        return err;
    if (ndims <= 0 || array_of_gsizes == NULL || array_of_distribs == NULL ||
        array_of_dargs == NULL || array_of_psizes == NULL || newtype == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, f,
                      "ndims %d (at least 1) or a NULL array", ndims);
    if (size < 1 || rank < 0 || rank >= size)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, f,
                      "rank %d of size %d", rank, size);
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, f,
                      "order %d: not MPI_ORDER_C or MPI_ORDER_FORTRAN",
                      order);
    for (int d = 0; d < ndims; d++) {
        int g = array_of_gsizes[d], p = array_of_psizes[d];
        int dist = array_of_distribs[d], darg = array_of_dargs[d];
        if (g < 1 || p < 1)
            return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, f,
                          "dimension %d: gsize %d, psize %d", d, g, p);
        procs *= p;
        if (dist == MPI_DISTRIBUTE_NONE) {
            if (p != 1)
                return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, f,
                              "dimension %d: MPI_DISTRIBUTE_NONE on %d "
                              "processes (1 only)", d, p);
        } else if (dist == MPI_DISTRIBUTE_BLOCK) {
            if (darg != MPI_DISTRIBUTE_DFLT_DARG &&
                (darg < 1 || (long)darg * p < g))
                return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, f,
                              "dimension %d: blocks of %d on %d processes "
                              "do not cover %d", d, darg, p, g);
        } else if (dist == MPI_DISTRIBUTE_CYCLIC) {
            if (darg != MPI_DISTRIBUTE_DFLT_DARG && darg < 1)
                return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, f,
                              "dimension %d: cyclic blocks of %d", d, darg);
        } else {
            return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, f,
                          "dimension %d: distribution %d", d, dist);
        }
    }
    if (procs != size)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, f,
                      "the process grid has %ld processes, size is %d", procs,
                      size);
    if ((err = type_ok(oldtype, &ext, f)) != MPI_SUCCESS)
        return err;
    /* this process's coordinates in the grid: row-major whatever the
     * array's order (MPI-3.1 4.1.4, as MPI_Cart_create) */
    int *coord = malloc((size_t)ndims * sizeof(int));
    if (coord == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, f, "no memory");
    for (int d = ndims - 1, r = rank; d >= 0; d--) {
        coord[d] = r % array_of_psizes[d];
        r /= array_of_psizes[d];
    }
    slice = ext;
    for (int k = 0; k < ndims && err == MPI_SUCCESS; k++) {
        int d = dim_at(order, ndims, k), g = array_of_gsizes[d];
        int p = array_of_psizes[d], c = coord[d], darg = array_of_dargs[d];
        int first = 0;
        if (array_of_distribs[d] == MPI_DISTRIBUTE_CYCLIC) {
            int b = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
            /* indices c*b .. c*b+b-1, then every p*b further on */
            long cycle = (long)p * b, start = (long)c * b, mine = 0;
            if (start < g) {
                long left = g - start;
                mine = left / cycle * b + (left % cycle < b ? left % cycle : b);
                first = (int)start;
            }
            err = blocks(&t, oldtype, (int)(mine / b), b, cycle * slice,
                         (int)(mine % b));
        } else {
            int b = g, n;
            if (array_of_distribs[d] == MPI_DISTRIBUTE_BLOCK)
                b = darg == MPI_DISTRIBUTE_DFLT_DARG ? (g + p - 1) / p : darg;
            n = g - b * c;
            n = n < 0 ? 0 : n > b ? b : n;
            if (n > 0)
                first = b * c;
            err = blocks(&t, oldtype, 1, n, slice, 0);
        }
        disp += (MPI_Aint)first * slice;
        slice *= g;
        if (err == MPI_SUCCESS)
            err = resize(&t, oldtype, slice);
    }
    free(coord);
    err = finish(err, &t, oldtype, disp, slice, newtype, f);
    if (err != MPI_SUCCESS)
        return err;
    {
        int head[3] = {size, rank, ndims};
        const int *arrs[4] = {array_of_gsizes, array_of_distribs,
                              array_of_dargs, array_of_psizes};
        return remember(newtype, MPI_COMBINER_DARRAY, head, 3, arrs, 4, ndims,
                        order, oldtype, f);
    }
}
RK_MPI_ALIAS(Type_create_darray);
