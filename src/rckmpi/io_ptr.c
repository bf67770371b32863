/*
 * MPI-IO file pointers (docs/MPI-ONESIDED-IO.md): seek and positions of
 * the individual pointer; the shared pointer, a counter in a window on
 * rank 0 moved by MPI_Fetch_and_op, and the ordered calls.
 */
#include "io_int.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

/* ---- file pointers ---- */

/* The end of the file in etypes of the view. */
static MPI_Offset view_end(rk_file_t *f)
{
    struct stat sb;

    if (fstat(f->fd, &sb) != 0)
        return -1;
    return (MPI_Offset)(rk_io_view_bytes_before(f, (MPI_Offset)sb.st_size) /
                        (long long)f->esize);
}

static int seek_to(rk_file_t *f, MPI_Offset cur, MPI_Offset offset,
                   int whence, MPI_Offset *to, const char *func)
{
    MPI_Offset base;

    switch (whence) {
    case MPI_SEEK_SET:
        base = 0;
        break;
    case MPI_SEEK_CUR:
        base = cur;
        break;
    case MPI_SEEK_END:
        base = view_end(f);
        if (base < 0)
            return rk_err(f->comm, rk_io_errno_class(errno), func, "'%s': %s",
                          f->path, strerror(errno));
        break;
    default:
        return rk_err(f->comm, MPI_ERR_ARG, func, "whence %d", whence);
    }
    if (base + offset < 0)
        return rk_err(f->comm, MPI_ERR_ARG, func,
                      "a position before the start of the view (%lld)",
                      (long long)(base + offset));
    *to = base + offset;
    return MPI_SUCCESS;
}

int PMPI_File_seek(MPI_File fh, MPI_Offset offset, int whence)
{
    RK_MPI_GUARD;
    rk_file_t *f;
    int err = rk_io_file_arg(fh, &f, "MPI_File_seek");

    if (err != MPI_SUCCESS)
        return err;
    if (f->amode & MPI_MODE_SEQUENTIAL)
        return rk_err(f->comm, MPI_ERR_UNSUPPORTED_OPERATION, "MPI_File_seek",
                      "MPI_MODE_SEQUENTIAL file");
    return seek_to(f, f->fp, offset, whence, &f->fp, "MPI_File_seek");
}
RK_MPI_ALIAS(File_seek);

/* @p fh's file in @p f, and @p offset not NULL (where a position goes),
 * or the error raised */
static int position_args(MPI_File fh, rk_file_t **f, const MPI_Offset *offset,
                         const char *func)
{
    int err = rk_io_file_arg(fh, f, func);

    if (err == MPI_SUCCESS && offset == NULL)
        err = rk_err((*f)->comm, MPI_ERR_ARG, func, "offset is NULL");
    return err;
}

int PMPI_File_get_position(MPI_File fh, MPI_Offset *offset)
{
    RK_MPI_GUARD;
    rk_file_t *f;
    int err = position_args(fh, &f, offset, "MPI_File_get_position");

    if (err != MPI_SUCCESS)
        return err;
    *offset = f->fp;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(File_get_position);

int PMPI_File_get_byte_offset(MPI_File fh, MPI_Offset offset,
                              MPI_Offset *disp)
{
    RK_MPI_GUARD;
    rk_file_t *f;
    int err = rk_io_file_arg(fh, &f, "MPI_File_get_byte_offset");
    size_t avail;

    if (err != MPI_SUCCESS)
        return err;
    if (disp == NULL || offset < 0)
        return rk_err(f->comm, MPI_ERR_ARG, "MPI_File_get_byte_offset",
                      "offset %lld or disp NULL", (long long)offset);
    *disp = rk_io_view_at(f, (long long)offset * (long long)f->esize, &avail);
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(File_get_byte_offset);

/* ---- the shared file pointer ---- */

/* Move the shared pointer by @p n etypes; its old value in @p old. */
static int shared_take(rk_file_t *f, long long n, long long *old,
                       const char *func)
{
    int err = PMPI_Win_lock(MPI_LOCK_SHARED, 0, 0, f->shwin);

    if (err == MPI_SUCCESS)
        err = PMPI_Fetch_and_op(&n, old, MPI_LONG_LONG, 0, 0, MPI_SUM,
                                f->shwin);
    if (err == MPI_SUCCESS)
        err = PMPI_Win_unlock(0, f->shwin);
    if (err != MPI_SUCCESS)
        return rk_err(f->comm, MPI_ERR_INTERN, func,
                      "the shared file pointer cannot be moved");
    return MPI_SUCCESS;
}

static int items_etypes(rk_file_t *f, int count, MPI_Datatype type,
                        long long *n, const char *func)
{
    if (count < 0)
        return rk_err(f->comm, MPI_ERR_COUNT, func, "count %d", count);
    if (rckmpi_type_check(type) != MPI_SUCCESS)
        return rk_err(f->comm, MPI_ERR_TYPE, func,
                      "invalid or uncommitted datatype");
    *n = (long long)(rk_type(type)->size * (size_t)count / f->esize);
    return MPI_SUCCESS;
}

static int rw_shared(MPI_File fh, void *buf, int count, MPI_Datatype type,
                     int write, MPI_Status *st, const char *func)
{
    rk_file_t *f;
    long long n, at;
    int err = rk_io_file_arg(fh, &f, func);

    if (err == MPI_SUCCESS)
        err = items_etypes(f, count, type, &n, func);
    if (err != MPI_SUCCESS)
        return err;
    if ((write && (f->amode & MPI_MODE_RDONLY)) ||
        (!write && (f->amode & MPI_MODE_WRONLY)))
        return rk_io_rw(f, AT_SHARED, 0, buf, count, type, write, st, func);
    err = shared_take(f, n, &at, func);
    if (err != MPI_SUCCESS)
        return err;
    return rk_io_rw(f, AT_SHARED, (MPI_Offset)at, buf, count, type, write, st,
              func);
}

int PMPI_File_read_shared(MPI_File fh, void *buf, int count,
                          MPI_Datatype datatype, MPI_Status *status)
{
    RK_MPI_GUARD;
    return rw_shared(fh, buf, count, datatype, 0, status,
                     "MPI_File_read_shared");
}
RK_MPI_ALIAS(File_read_shared);

int PMPI_File_write_shared(MPI_File fh, const void *buf, int count,
                           MPI_Datatype datatype, MPI_Status *status)
{
    RK_MPI_GUARD;
    return rw_shared(fh, (void *)buf, count, datatype, 1, status,
                     "MPI_File_write_shared");
}
RK_MPI_ALIAS(File_write_shared);

/* The access is done at the call (as MPI_File_iread does), so the
 * request is complete when it is returned. */
static int irw_shared(MPI_File fh, void *buf, int count, MPI_Datatype type,
                      int write, MPI_Request *request, const char *func)
{
    rk_file_t *f;
    MPI_Status st;
    int err = rk_io_file_arg(fh, &f, func);

    if (err != MPI_SUCCESS)
        return err;
    err = rw_shared(fh, buf, count, type, write, &st, func);
    return rk_io_done_req(f, err, &st, request, func);
}

int PMPI_File_iread_shared(MPI_File fh, void *buf, int count,
                           MPI_Datatype datatype, MPI_Request *request)
{
    RK_MPI_GUARD;
    return irw_shared(fh, buf, count, datatype, 0, request,
                      "MPI_File_iread_shared");
}
RK_MPI_ALIAS(File_iread_shared);

int PMPI_File_iwrite_shared(MPI_File fh, const void *buf, int count,
                            MPI_Datatype datatype, MPI_Request *request)
{
    RK_MPI_GUARD;
    return irw_shared(fh, (void *)buf, count, datatype, 1, request,
                      "MPI_File_iwrite_shared");
}
RK_MPI_ALIAS(File_iwrite_shared);

/* In rank order: each process's place from an exclusive scan, rank 0
 * moves the pointer by the total. */
static int rw_ordered(MPI_File fh, void *buf, int count, MPI_Datatype type,
                      int write, MPI_Status *st, const char *func)
{
    rk_file_t *f;
    long long n = 0, before = 0, total = 0, base = 0;
    int err = rk_io_file_arg(fh, &f, func), e;

    if (err != MPI_SUCCESS)
        return err;
    err = items_etypes(f, count, type, &n, func);
    e = rk_io_agree(f->comm, err);
    if (err != MPI_SUCCESS || e != MPI_SUCCESS)
        return err != MPI_SUCCESS ? err : e;
    PMPI_Exscan(&n, &before, 1, MPI_LONG_LONG, MPI_SUM, f->comm);
    if (f->rank == 0)
        before = 0;
    PMPI_Allreduce(&n, &total, 1, MPI_LONG_LONG, MPI_SUM, f->comm);
    if (f->rank == 0)
        err = shared_take(f, total, &base, func);
    PMPI_Bcast(&base, 1, MPI_LONG_LONG, 0, f->comm);
    if (err != MPI_SUCCESS)
        return err;
    return rk_io_rw(f, AT_SHARED, (MPI_Offset)(base + before), buf, count, type,
              write, st, func);
}

int PMPI_File_read_ordered(MPI_File fh, void *buf, int count,
                           MPI_Datatype datatype, MPI_Status *status)
{
    RK_MPI_GUARD;
    return rw_ordered(fh, buf, count, datatype, 0, status,
                      "MPI_File_read_ordered");
}
RK_MPI_ALIAS(File_read_ordered);

int PMPI_File_write_ordered(MPI_File fh, const void *buf, int count,
                            MPI_Datatype datatype, MPI_Status *status)
{
    RK_MPI_GUARD;
    return rw_ordered(fh, (void *)buf, count, datatype, 1, status,
                      "MPI_File_write_ordered");
}
RK_MPI_ALIAS(File_write_ordered);

int PMPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence)
{
    RK_MPI_GUARD;
    rk_file_t *f;
    int err = rk_io_file_arg(fh, &f, "MPI_File_seek_shared"), e;
    long long mm[3], all[3], cur = 0, zero = 0;
    MPI_Offset to = 0;

    if (err != MPI_SUCCESS)
        return err;
    mm[0] = offset;
    mm[1] = -offset;
    mm[2] = whence;
    err = PMPI_Allreduce(mm, all, 2, MPI_LONG_LONG, MPI_MAX, f->comm);
    if (err != MPI_SUCCESS)
        return err;
    if (all[0] != offset || -all[1] != offset)
        return rk_err(f->comm, MPI_ERR_NOT_SAME, "MPI_File_seek_shared",
                      "offset differs between the processes");
    if (f->rank == 0) {
        err = shared_take(f, zero, &cur, "MPI_File_seek_shared");
        if (err == MPI_SUCCESS)
            err = seek_to(f, (MPI_Offset)cur, offset, whence, &to,
                          "MPI_File_seek_shared");
        if (err == MPI_SUCCESS)
            *f->shfp = (long long)to; /* rank 0's own window memory:
                                        nobody else is in a call on it */
    }
    e = rk_io_agree(f->comm, err);
    return err != MPI_SUCCESS ? err : e;
}
RK_MPI_ALIAS(File_seek_shared);

int PMPI_File_get_position_shared(MPI_File fh, MPI_Offset *offset)
{
    RK_MPI_GUARD;
    rk_file_t *f;
    long long cur = 0, zero = 0;
    int err = position_args(fh, &f, offset, "MPI_File_get_position_shared");

    if (err != MPI_SUCCESS)
        return err;
    err = shared_take(f, zero, &cur, "MPI_File_get_position_shared");
    *offset = (MPI_Offset)cur;
    return err;
}
RK_MPI_ALIAS(File_get_position_shared);

