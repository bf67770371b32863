/*
 * MPI-IO collectives in other forms (docs/MPI-ONESIDED-IO.md): the
 * non-blocking collectives of MPI-3.1 (MPI_File_iread_all ...), which
 * complete at once like the other non-blocking calls, and the split
 * collectives (MPI_File_read_all_begin/_end ...), whose begin does the
 * access and whose end hands over its status; one split collective at a
 * time per file, as MPI says. MPI_File_get_type_extent.
 */
#include "io_int.h"

enum {
    SPLIT_READ_ALL = 1, SPLIT_WRITE_ALL, SPLIT_READ_AT_ALL,
    SPLIT_WRITE_AT_ALL, SPLIT_READ_ORDERED, SPLIT_WRITE_ORDERED
};

static const char *const split_name[] = {
    "", "MPI_File_read_all_begin", "MPI_File_write_all_begin",
    "MPI_File_read_at_all_begin", "MPI_File_write_at_all_begin",
    "MPI_File_read_ordered_begin", "MPI_File_write_ordered_begin"};

/* ---- non-blocking collectives ---- */

/* each is its blocking access (individual or explicit offset) done now,
 * its status kept in a request that is already complete */
static int icoll(MPI_File fh, int at, MPI_Offset offset, const void *buf,
                 int count, MPI_Datatype datatype, int write,
                 MPI_Request *request, const char *func)
{
    rk_file_t *f;
    MPI_Status st;
    int err = rk_io_file_arg(fh, &f, func);

    if (err != MPI_SUCCESS)
        return err;
    err = rk_io_rw(f, at, offset, (void *)buf, count, datatype, write, &st,
                   func);
    return rk_io_done_req(f, err, &st, request, func);
}

int PMPI_File_iread_all(MPI_File fh, void *buf, int count,
                        MPI_Datatype datatype, MPI_Request *request)
{
    RK_MPI_GUARD;
    return icoll(fh, AT_INDIVIDUAL, 0, buf, count, datatype, 0, request,
                 "MPI_File_iread_all");
}
RK_MPI_ALIAS(File_iread_all);

int PMPI_File_iwrite_all(MPI_File fh, const void *buf, int count,
                         MPI_Datatype datatype, MPI_Request *request)
{
    RK_MPI_GUARD;
    return icoll(fh, AT_INDIVIDUAL, 0, buf, count, datatype, 1, request,
                 "MPI_File_iwrite_all");
}
RK_MPI_ALIAS(File_iwrite_all);

int PMPI_File_iread_at_all(MPI_File fh, MPI_Offset offset, void *buf,
                           int count, MPI_Datatype datatype,
                           MPI_Request *request)
{
    RK_MPI_GUARD;
    return icoll(fh, AT_EXPLICIT, offset, buf, count, datatype, 0, request,
                 "MPI_File_iread_at_all");
}
RK_MPI_ALIAS(File_iread_at_all);

int PMPI_File_iwrite_at_all(MPI_File fh, MPI_Offset offset, const void *buf,
                            int count, MPI_Datatype datatype,
                            MPI_Request *request)
{
    RK_MPI_GUARD;
    return icoll(fh, AT_EXPLICIT, offset, buf, count, datatype, 1, request,
                 "MPI_File_iwrite_at_all");
}
RK_MPI_ALIAS(File_iwrite_at_all);

/* ---- split collectives ---- */

static int split_begin(MPI_File fh, int kind, MPI_Offset offset,
                       const void *buf, int count, MPI_Datatype type)
{
    rk_file_t *f;
    const char *func = split_name[kind];
    int err = rk_io_file_arg(fh, &f, func);

    if (err != MPI_SUCCESS)
        return err;
    if (f->split != 0)
        return rk_err(f->comm, MPI_ERR_OTHER, func,
                      "%s is still under way on this file (end it first)",
                      split_name[f->split]);
    switch (kind) {
    case SPLIT_READ_ALL:
        err = PMPI_File_read_all(fh, (void *)buf, count, type, &f->split_st);
        break;
    case SPLIT_WRITE_ALL:
        err = PMPI_File_write_all(fh, buf, count, type, &f->split_st);
        break;
    case SPLIT_READ_AT_ALL:
        err = PMPI_File_read_at_all(fh, offset, (void *)buf, count, type,
                                    &f->split_st);
        break;
    case SPLIT_WRITE_AT_ALL:
        err = PMPI_File_write_at_all(fh, offset, buf, count, type,
                                     &f->split_st);
        break;
    case SPLIT_READ_ORDERED:
        err = PMPI_File_read_ordered(fh, (void *)buf, count, type,
                                     &f->split_st);
        break;
    default:
        err = PMPI_File_write_ordered(fh, buf, count, type, &f->split_st);
        break;
    }
    if (err == MPI_SUCCESS) {
        f->split = kind;
        f->split_buf = buf;
    }
    return err;
}

static int split_end(MPI_File fh, int kind, const void *buf,
                     MPI_Status *status, const char *func)
{
    rk_file_t *f;
    int err = rk_io_file_arg(fh, &f, func);

    if (err != MPI_SUCCESS)
        return err;
    if (f->split != kind || f->split_buf != buf)
        return rk_err(f->comm, MPI_ERR_OTHER, func,
                      "no matching %s on this file (with this buffer)",
                      split_name[kind]);
    f->split = 0;
    if (status != MPI_STATUS_IGNORE && status != NULL)
        *status = f->split_st;
    return MPI_SUCCESS;
}

int PMPI_File_read_all_begin(MPI_File fh, void *buf, int count,
                             MPI_Datatype datatype)
{
    RK_MPI_GUARD;
    return split_begin(fh, SPLIT_READ_ALL, 0, buf, count, datatype);
}
RK_MPI_ALIAS(File_read_all_begin);

int PMPI_File_read_all_end(MPI_File fh, void *buf, MPI_Status *status)
{
    RK_MPI_GUARD;
    return split_end(fh, SPLIT_READ_ALL, buf, status,
                     "MPI_File_read_all_end");
}
RK_MPI_ALIAS(File_read_all_end);

int PMPI_File_write_all_begin(MPI_File fh, const void *buf, int count,
                              MPI_Datatype datatype)
{
    RK_MPI_GUARD;
    return split_begin(fh, SPLIT_WRITE_ALL, 0, buf, count, datatype);
}
RK_MPI_ALIAS(File_write_all_begin);

int PMPI_File_write_all_end(MPI_File fh, const void *buf, MPI_Status *status)
{
    RK_MPI_GUARD;
    return split_end(fh, SPLIT_WRITE_ALL, buf, status,
                     "MPI_File_write_all_end");
}
RK_MPI_ALIAS(File_write_all_end);

int PMPI_File_read_at_all_begin(MPI_File fh, MPI_Offset offset, void *buf,
                                int count, MPI_Datatype datatype)
{
    RK_MPI_GUARD;
    return split_begin(fh, SPLIT_READ_AT_ALL, offset, buf, count, datatype);
}
RK_MPI_ALIAS(File_read_at_all_begin);

int PMPI_File_read_at_all_end(MPI_File fh, void *buf, MPI_Status *status)
{
    RK_MPI_GUARD;
    return split_end(fh, SPLIT_READ_AT_ALL, buf, status,
                     "MPI_File_read_at_all_end");
}
RK_MPI_ALIAS(File_read_at_all_end);

int PMPI_File_write_at_all_begin(MPI_File fh, MPI_Offset offset,
                                 const void *buf, int count,
                                 MPI_Datatype datatype)
{
    RK_MPI_GUARD;
    return split_begin(fh, SPLIT_WRITE_AT_ALL, offset, buf, count,
                       datatype);
}
RK_MPI_ALIAS(File_write_at_all_begin);

int PMPI_File_write_at_all_end(MPI_File fh, const void *buf,
                               MPI_Status *status)
{
    RK_MPI_GUARD;
    return split_end(fh, SPLIT_WRITE_AT_ALL, buf, status,
                     "MPI_File_write_at_all_end");
}
RK_MPI_ALIAS(File_write_at_all_end);

int PMPI_File_read_ordered_begin(MPI_File fh, void *buf, int count,
                                 MPI_Datatype datatype)
{
    RK_MPI_GUARD;
    return split_begin(fh, SPLIT_READ_ORDERED, 0, buf, count, datatype);
}
RK_MPI_ALIAS(File_read_ordered_begin);

int PMPI_File_read_ordered_end(MPI_File fh, void *buf, MPI_Status *status)
{
    RK_MPI_GUARD;
    return split_end(fh, SPLIT_READ_ORDERED, buf, status,
                     "MPI_File_read_ordered_end");
}
RK_MPI_ALIAS(File_read_ordered_end);

int PMPI_File_write_ordered_begin(MPI_File fh, const void *buf, int count,
                                  MPI_Datatype datatype)
{
    RK_MPI_GUARD;
    return split_begin(fh, SPLIT_WRITE_ORDERED, 0, buf, count, datatype);
}
RK_MPI_ALIAS(File_write_ordered_begin);

int PMPI_File_write_ordered_end(MPI_File fh, const void *buf,
                                MPI_Status *status)
{
    RK_MPI_GUARD;
    return split_end(fh, SPLIT_WRITE_ORDERED, buf, status,
                     "MPI_File_write_ordered_end");
}
RK_MPI_ALIAS(File_write_ordered_end);

/* ---- type extent in the file: the native representation's ---- */

int PMPI_File_get_type_extent(MPI_File fh, MPI_Datatype datatype,
                              MPI_Aint *extent)
{
    RK_MPI_GUARD;
    rk_file_t *f;
    MPI_Aint lb;
    int err = rk_io_file_arg(fh, &f, "MPI_File_get_type_extent");

    if (err != MPI_SUCCESS)
        return err;
    if (extent == NULL || rckmpi_type_check(datatype) != MPI_SUCCESS)
        return rk_err(f->comm, extent == NULL ? MPI_ERR_ARG : MPI_ERR_TYPE,
                      "MPI_File_get_type_extent",
                      "extent NULL or an invalid datatype");
    return PMPI_Type_get_extent(datatype, &lb, extent);
}
RK_MPI_ALIAS(File_get_type_extent);
