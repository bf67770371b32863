/* Helpers of the collectives: temporary buffers, local copies between
 * datatypes, the argument checks every collective shares. */
#include "rkcoll.h"

#include "rck/config.h"

#include <stdlib.h>
#include <string.h>

void *rkc_tmpbuf(int count, MPI_Datatype type, void **base)
{
    MPI_Aint lb, extent, tlb, text;

    PMPI_Type_get_extent(type, &lb, &extent);
    PMPI_Type_get_true_extent(type, &tlb, &text);
    size_t bytes = count > 0 ? (size_t)(text + (MPI_Aint)(count - 1) * extent)
                             : 0;
    *base = malloc(bytes + 16);
    if (*base == NULL)
        return NULL;
    return (char *)*base - tlb;
}

char *rkc_at(const void *buf, MPI_Aint i, MPI_Datatype type)
{
    MPI_Aint lb, extent;

    PMPI_Type_get_extent(type, &lb, &extent);
    return (char *)buf + i * extent;
}

void rkc_copy(const void *src, int scount, MPI_Datatype stype, void *dst,
              int rcount, MPI_Datatype rtype)
{
    int size, pos = 0;

    if (src == dst && stype == rtype && scount == rcount)
        return;
    PMPI_Pack_size(scount, stype, MPI_COMM_SELF, &size);
    if (size == 0)
        return;
    char *tmp = malloc((size_t)size);
    if (tmp == NULL)
        return;
    PMPI_Pack(src, scount, stype, tmp, size, &pos, MPI_COMM_SELF);
    pos = 0;
    PMPI_Unpack(tmp, size, &pos, dst, rcount, rtype, MPI_COMM_SELF);
    free(tmp);
}

int rkc_begin(MPI_Comm comm, const char *func, int *rank, int *size)
{
    int err = rckmpi_check_init(func);

    if (err != MPI_SUCCESS)
        return err;
    if (rckmpi_comm_check(comm) != MPI_SUCCESS)
        return rckmpi_error(MPI_COMM_WORLD, MPI_ERR_COMM, func);
    PMPI_Comm_rank(comm, rank);
    PMPI_Comm_size(comm, size);
    return MPI_SUCCESS;
}

int rkc_check_buf(MPI_Comm comm, const char *func, const void *buf,
                  int count, MPI_Datatype type)
{
    if (count < 0)
        return rckmpi_error(comm, MPI_ERR_COUNT, func);
    if (rckmpi_type_check(type) != MPI_SUCCESS)
        return rckmpi_error(comm, MPI_ERR_TYPE, func);
    if (count > 0 && buf == NULL)
        return rckmpi_error(comm, MPI_ERR_BUFFER, func);
    return MPI_SUCCESS;
}

int rkc_check_root(MPI_Comm comm, const char *func, int root, int size)
{
    if (root < 0 || root >= size)
        return rckmpi_error(comm, MPI_ERR_ROOT, func);
    return MPI_SUCCESS;
}

int rkc_check_op(MPI_Comm comm, const char *func, MPI_Op op,
                 MPI_Datatype type)
{
    if (rkop_check(op, type) != MPI_SUCCESS)
        return rckmpi_error(comm, MPI_ERR_OP, func);
    return MPI_SUCCESS;
}

long rkc_setting_auto(const char *name)
{
    const char *s = rck_config_get(name);
    char *end;
    long v = strtol(s, &end, 0);

    if (strcmp(s, "auto") == 0 || *s == '\0' || *end != '\0' || v < 0)
        return -1;
    return v;
}
