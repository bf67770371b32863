/*
 * MPI-IO on POSIX files (docs/MPI-ONESIDED-IO.md): every process of the
 * file's communicator opens the host file itself (rank 0 first, so that
 * MPI_MODE_CREATE/EXCL are decided once) and reads and writes it with
 * pread/pwrite at the offsets its view gives. A view is a displacement,
 * an etype and a filetype flattened to byte blocks (any datatype the
 * library builds whose blocks go forward: contiguous, vector, indexed,
 * subarray ...); the filetype tiles the file from the displacement on.
 * Collective calls (_all, _ordered) do what the individual ones do plus
 * their agreement; non-blocking calls complete at once. The shared file
 * pointer is a counter in a window on rank 0 (win.c), moved by
 * MPI_Fetch_and_op. Atomic mode takes fcntl byte-range locks around every
 * access.
 */
#include "io_int.h"
#include "rckmpi_greq.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


static struct {
    rk_file_t **f;
    int n;
    MPI_Errhandler null_eh; /* MPI_FILE_NULL's (MPI_ERRORS_RETURN) */
    MPI_Comm null_comm;     /* raises errors with it when not RETURN */
} io = {NULL, 0, MPI_ERRORS_RETURN, MPI_COMM_NULL};

static rk_file_t *file_of(MPI_File h)
{
    if (h <= 0 || h > io.n || io.f[h - 1] == NULL || !io.f[h - 1]->used)
        return NULL;
    return io.f[h - 1];
}

/* An error with no file (open, delete, a bad handle): MPI_FILE_NULL's
 * error handler. */
static int null_err(int err, const char *func, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int null_err(int err, const char *func, const char *fmt, ...)
{
    char what[256];
    va_list ap;

    if (io.null_eh == MPI_ERRORS_RETURN || io.null_comm == MPI_COMM_NULL)
        return err;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return rk_fatal(io.null_comm, err, func, what);
}

int rk_io_file_arg(MPI_File h, rk_file_t **f, const char *func)
{
    int err = rk_check_init(func);

    if (err != MPI_SUCCESS)
        return err;
    *f = file_of(h);
    if (*f == NULL)
        return null_err(MPI_ERR_FILE, func, "invalid file handle %d", h);
    return MPI_SUCCESS;
}

/* The MPI error class of errno @p e. */
int rk_io_errno_class(int e)
{
    switch (e) {
    case ENOENT:
        return MPI_ERR_NO_SUCH_FILE;
    case EACCES:
    case EPERM:
        return MPI_ERR_ACCESS;
    case EEXIST:
        return MPI_ERR_FILE_EXISTS;
    case ENOSPC:
        return MPI_ERR_NO_SPACE;
#ifdef EDQUOT
    case EDQUOT:
        return MPI_ERR_QUOTA;
#endif
    case EROFS:
        return MPI_ERR_READ_ONLY;
    case ENAMETOOLONG:
    case EISDIR:
    case ENOTDIR:
    case ELOOP:
        return MPI_ERR_BAD_FILE;
    case ETXTBSY:
    case EBUSY:
        return MPI_ERR_FILE_IN_USE;
    case ENOMEM:
        return MPI_ERR_NO_MEM;
    default:
        return MPI_ERR_IO;
    }
}

/* The largest error class of the group (0: none), at every member. */
int rk_io_agree(MPI_Comm comm, int err)
{
    int all = err;

    if (PMPI_Allreduce(&err, &all, 1, MPI_INT, MPI_MAX, comm) !=
        MPI_SUCCESS)
        return MPI_ERR_INTERN;
    return all;
}

/* ---- views ---- */

static int view_set(rk_file_t *f, MPI_Offset disp, MPI_Datatype etype,
                    MPI_Datatype ftype)
{
    rk_type_t *e = rk_type(etype), *t = rk_type(ftype);
    rk_block_t *b;
    int nb = t->contig ? 1 : t->nblocks;

    b = malloc((size_t)(nb > 0 ? nb : 1) * sizeof(*b));
    if (b == NULL)
        return MPI_ERR_NO_MEM;
    if (t->contig) {
        b[0].off = 0;
        b[0].len = t->size;
        b[0].esize = 1;
    } else {
        memcpy(b, t->blocks, (size_t)nb * sizeof(*b));
    }
    free(f->blk);
    f->blk = b;
    f->nblk = nb;
    f->disp = disp;
    f->esize = e->size;
    f->fsize = t->size;
    f->fext = t->contig ? (MPI_Aint)t->size : t->extent;
    /* one block filling its extent (the default view of MPI_BYTE, any
     * contiguous filetype): the view's data bytes are the file's */
    f->flat = nb == 1 && b[0].off == 0 && (MPI_Aint)b[0].len == f->fext &&
              f->fext > 0;
    f->fp = 0;
    return MPI_SUCCESS;
}

/* The file offset of data byte @p k of the view, and in @p avail how
 * many data bytes follow it contiguously in the file. */
MPI_Offset rk_io_view_at(const rk_file_t *f, long long k, size_t *avail)
{
    long long tile = k / (long long)f->fsize;
    size_t in = (size_t)(k % (long long)f->fsize);

    if (f->flat) {
        /* everything from here on is contiguous: one pwrite/pread for a
         * whole access, not one per tile (per byte for MPI_BYTE) */
        *avail = SIZE_MAX;
        return f->disp + (MPI_Offset)k;
    }
    for (int i = 0; i < f->nblk; i++) {
        if (in < f->blk[i].len) {
            *avail = f->blk[i].len - in;
            return f->disp + tile * f->fext + f->blk[i].off + (MPI_Offset)in;
        }
        in -= f->blk[i].len;
    }
    *avail = 0; /* not reached: k % fsize is inside the blocks */
    return f->disp;
}

/* The data bytes of the view before file offset @p off. */
long long rk_io_view_bytes_before(const rk_file_t *f, MPI_Offset off)
{
    long long n, tile;
    MPI_Offset rel;

    if (off <= f->disp)
        return 0;
    rel = off - f->disp;
    tile = rel / f->fext;
    n = tile * (long long)f->fsize;
    rel -= tile * f->fext;
    for (int i = 0; i < f->nblk; i++) {
        if (rel <= f->blk[i].off)
            break;
        n += (long long)(rel - f->blk[i].off < (MPI_Offset)f->blk[i].len
                             ? (size_t)(rel - f->blk[i].off)
                             : f->blk[i].len);
    }
    return n;
}

/* ---- reading and writing ---- */

static void lock_range(rk_file_t *f, int type, MPI_Offset lo, MPI_Offset hi)
{
    struct flock fl;

    if (!f->atomic || hi <= lo)
        return;
    memset(&fl, 0, sizeof fl);
    fl.l_type = (short)type;
    fl.l_whence = SEEK_SET;
    fl.l_start = lo;
    fl.l_len = hi - lo;
    while (fcntl(f->fd, F_SETLKW, &fl) != 0 && errno == EINTR)
        ;
}

/* Move @p bytes data bytes of the view from etype @p pos on between the
 * file and @p data; @p done: bytes moved (short at the end of the file
 * on reads). Returns an error class. */
static int view_io(rk_file_t *f, MPI_Offset pos, char *data, size_t bytes,
                   int write, size_t *done)
{
    long long k = (long long)pos * (long long)f->esize;
    size_t moved = 0, avail;
    int err = MPI_SUCCESS;
    MPI_Offset lo = 0, hi = 0;

    if (f->atomic && bytes > 0) {
        size_t a;
        lo = rk_io_view_at(f, k, &a);
        hi = rk_io_view_at(f, k + (long long)bytes - 1, &a) + 1;
        lock_range(f, write ? F_WRLCK : F_RDLCK, lo, hi);
    }
    while (moved < bytes) {
        MPI_Offset off = rk_io_view_at(f, k + (long long)moved, &avail);
        size_t n = bytes - moved < avail ? bytes - moved : avail;
        ssize_t r = write ? pwrite(f->fd, data + moved, n, off)
                          : pread(f->fd, data + moved, n, off);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            err = rk_io_errno_class(errno);
            break;
        }
        if (r == 0)
            break; /* end of file */
        moved += (size_t)r;
    }
    lock_range(f, F_UNLCK, lo, hi);
    *done = moved;
    return err;
}

static void status_bytes(MPI_Status *st, size_t bytes)
{
    if (st == MPI_STATUS_IGNORE || st == NULL)
        return;
    st->MPI_SOURCE = MPI_ANY_SOURCE;
    st->MPI_TAG = MPI_ANY_TAG;
    st->MPI_ERROR = MPI_SUCCESS;
    st->rck_cancelled = 0;
    st->rck_bytes = (long long)bytes;
}


/* Read or write @p count items of @p type at etype @p pos (AT_EXPLICIT),
 * at the individual file pointer (which moves) or at @p pos given by the
 * shared pointer's owner. */
int rk_io_rw(rk_file_t *f, int where, MPI_Offset pos, void *buf, int count,
              MPI_Datatype type, int write, MPI_Status *st, const char *func)
{
    const rk_type_t *t;
    size_t bytes, done = 0;
    char *data;
    int err;

    if (write && (f->amode & MPI_MODE_RDONLY))
        return rk_err(f->comm, MPI_ERR_READ_ONLY, func,
                      "the file is open MPI_MODE_RDONLY");
    if (!write && (f->amode & MPI_MODE_WRONLY))
        return rk_err(f->comm, MPI_ERR_ACCESS, func,
                      "the file is open MPI_MODE_WRONLY");
    if (where == AT_EXPLICIT && (f->amode & MPI_MODE_SEQUENTIAL))
        return rk_err(f->comm, MPI_ERR_UNSUPPORTED_OPERATION, func,
                      "explicit offsets on a MPI_MODE_SEQUENTIAL file");
    if (count < 0)
        return rk_err(f->comm, MPI_ERR_COUNT, func, "count %d", count);
    if (rckmpi_type_check(type) != MPI_SUCCESS)
        return rk_err(f->comm, MPI_ERR_TYPE, func,
                      "invalid or uncommitted datatype");
    if (where == AT_EXPLICIT && pos < 0)
        return rk_err(f->comm, MPI_ERR_ARG, func, "offset %lld < 0",
                      (long long)pos);
    if (buf == NULL && count > 0)
        return rk_err(f->comm, MPI_ERR_BUFFER, func, "buf is NULL");
    t = rk_type(type);
    bytes = t->size * (size_t)count;
    if (bytes % f->esize != 0)
        return rk_err(f->comm, MPI_ERR_TYPE, func,
                      "%zu bytes are not a whole number of etypes of %zu",
                      bytes, f->esize);
    if (where == AT_INDIVIDUAL)
        pos = f->fp;
    if (t->contig) {
        data = buf;
    } else {
        data = malloc(bytes > 0 ? bytes : 1);
        if (data == NULL)
            return rk_err(f->comm, MPI_ERR_NO_MEM, func, "no memory");
        if (write)
            rk_pack(buf, count, t, data);
    }
    err = view_io(f, pos, data, bytes, write, &done);
    if (!write && !t->contig)
        rk_unpack(data, done, count, t, buf);
    if (data != buf)
        free(data);
    if (where == AT_INDIVIDUAL)
        f->fp += (MPI_Offset)(done / f->esize);
    status_bytes(st, done);
    if (err != MPI_SUCCESS)
        return rk_err(f->comm, err, func, "%s '%s': %s",
                      write ? "writing" : "reading", f->path,
                      rk_winio_err_string(err));
    return MPI_SUCCESS;
}

/* ---- open, close ---- */

static int amode_ok(int amode)
{
    int n = !!(amode & MPI_MODE_RDONLY) + !!(amode & MPI_MODE_RDWR) +
            !!(amode & MPI_MODE_WRONLY);
    int known = MPI_MODE_RDONLY | MPI_MODE_RDWR | MPI_MODE_WRONLY |
                MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_DELETE_ON_CLOSE |
                MPI_MODE_UNIQUE_OPEN | MPI_MODE_APPEND | MPI_MODE_SEQUENTIAL;

    if (n != 1 || (amode & ~known))
        return 0;
    if ((amode & MPI_MODE_RDONLY) &&
        (amode & (MPI_MODE_CREATE | MPI_MODE_EXCL)))
        return 0;
    if ((amode & MPI_MODE_RDWR) && (amode & MPI_MODE_SEQUENTIAL))
        return 0;
    return 1;
}

static int open_flags(int amode)
{
    int fl = (amode & MPI_MODE_RDONLY)   ? O_RDONLY
             : (amode & MPI_MODE_WRONLY) ? O_WRONLY
                                         : O_RDWR;
    return fl | O_CLOEXEC;
}

static void file_release(rk_file_t *f)
{
    if (f->fd >= 0)
        close(f->fd);
    if (f->comm != MPI_COMM_NULL)
        PMPI_Comm_free(&f->comm);
    if (f->etype >= RCKMPI_NPREDEFINED)
        PMPI_Type_free(&f->etype);
    if (f->ftype >= RCKMPI_NPREDEFINED)
        PMPI_Type_free(&f->ftype);
    if (f->info != MPI_INFO_NULL)
        PMPI_Info_free(&f->info);
    free(f->path);
    free(f->blk);
    free(f);
}

/* Rank 0 creates (or not), then the others open what is there: the
 * open's error class on this process. */
static int open_all(rk_file_t *f, const char *filename, int amode)
{
    int err = MPI_SUCCESS, e0;

    if (f->rank == 0) {
        int fl = open_flags(amode);
        if (amode & MPI_MODE_CREATE)
            fl |= O_CREAT;
        if (amode & MPI_MODE_EXCL)
            fl |= O_EXCL;
        f->fd = open(filename, fl, 0666);
        if (f->fd < 0)
            err = rk_io_errno_class(errno);
    }
    e0 = err;
    PMPI_Bcast(&e0, 1, MPI_INT, 0, f->comm);
    if (e0 == MPI_SUCCESS && f->rank != 0) {
        f->fd = open(filename, open_flags(amode));
        if (f->fd < 0)
            err = rk_io_errno_class(errno);
    } else if (f->rank != 0) {
        err = e0;
    }
    return err;
}

int PMPI_File_open(MPI_Comm comm, const char *filename, int amode,
                   MPI_Info info, MPI_File *fh)
{
    RK_MPI_GUARD;
    rk_comm_t *c;
    rk_file_t *f;
    int err = rk_comm_arg(comm, &c, "MPI_File_open"), i, mm[2], all[2];
    int nkeys;

    if (err != MPI_SUCCESS)
        return err;
    if (info != MPI_INFO_NULL && PMPI_Info_get_nkeys(info, &nkeys) != 0)
        return null_err(MPI_ERR_INFO, "MPI_File_open", "invalid info %d",
                        info);
    if (c->inter)
        return rk_err(comm, MPI_ERR_COMM, "MPI_File_open",
                      "an intracommunicator is needed");
    if (fh == NULL)
        return null_err(MPI_ERR_ARG, "MPI_File_open", "fh is NULL");
    *fh = MPI_FILE_NULL;
    if (filename == NULL || filename[0] == '\0')
        return null_err(MPI_ERR_BAD_FILE, "MPI_File_open",
                        "no file name");
    /* the same amode everywhere */
    mm[0] = amode;
    mm[1] = -amode;
    err = PMPI_Allreduce(mm, all, 2, MPI_INT, MPI_MAX, comm);
    if (err != MPI_SUCCESS)
        return err;
    if (all[0] != amode || -all[1] != amode)
        return null_err(MPI_ERR_NOT_SAME, "MPI_File_open",
                        "amode %#x differs between the processes", amode);
    if (!amode_ok(amode))
        return null_err(MPI_ERR_AMODE, "MPI_File_open",
                        "amode %#x (one of RDONLY, RDWR, WRONLY; RDONLY "
                        "without CREATE or EXCL; RDWR without SEQUENTIAL)",
                        amode);
    f = calloc(1, sizeof *f);
    if (f == NULL)
        return null_err(MPI_ERR_NO_MEM, "MPI_File_open", "no memory");
    f->fd = -1;
    f->comm = MPI_COMM_NULL;
    f->info = MPI_INFO_NULL;
    f->shwin = MPI_WIN_NULL;
    f->amode = amode;
    f->etype = f->ftype = MPI_BYTE;
    f->path = strdup(filename);
    err = f->path == NULL ? MPI_ERR_NO_MEM : PMPI_Comm_dup(comm, &f->comm);
    if (err == MPI_SUCCESS && info != MPI_INFO_NULL)
        err = PMPI_Info_dup(info, &f->info);
    if (err != MPI_SUCCESS) {
        file_release(f);
        return null_err(err, "MPI_File_open", "no memory");
    }
    c = rk_comm(f->comm);
    c->eh = io.null_eh; /* a new file's handler is MPI_FILE_NULL's */
    f->rank = c->rank;
    f->size = c->size;
    err = open_all(f, filename, amode);
    if (err == MPI_SUCCESS)
        err = view_set(f, 0, MPI_BYTE, MPI_BYTE);
    err = rk_io_agree(f->comm, err);
    if (err == MPI_SUCCESS) {
        /* the shared file pointer: a counter on rank 0 (collective, and
         * fatal if it fails) */
        err = PMPI_Win_allocate(f->rank == 0 ? (MPI_Aint)sizeof(long long)
                                             : 0,
                                sizeof(long long), MPI_INFO_NULL, f->comm,
                                &f->shfp, &f->shwin);
    }
    if (err != MPI_SUCCESS) {
        file_release(f);
        return null_err(err, "MPI_File_open", "'%s': %s", filename,
                        rk_winio_err_string(err));
    }
    if (amode & MPI_MODE_APPEND) {
        struct stat sb;
        if (fstat(f->fd, &sb) == 0)
            f->fp = (MPI_Offset)sb.st_size;
        if (f->rank == 0)
            *f->shfp = (long long)f->fp;
    }
    PMPI_Barrier(f->comm); /* the shared pointer is set before use */
    for (i = 0; i < io.n && io.f[i] != NULL; i++)
        ;
    if (i == io.n) {
        rk_file_t **nf = realloc(io.f, (size_t)(io.n + 8) * sizeof(*nf));
        if (nf == NULL) {
            PMPI_Win_free(&f->shwin);
            file_release(f);
            return null_err(MPI_ERR_NO_MEM, "MPI_File_open", "no memory");
        }
        io.f = nf;
        memset(io.f + io.n, 0, 8 * sizeof(*nf));
        io.n += 8;
    }
    f->used = 1;
    io.f[i] = f;
    *fh = i + 1;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(File_open);

int PMPI_File_close(MPI_File *fh)
{
    RK_MPI_GUARD;
    rk_file_t *f;
    int err = rk_io_file_arg(fh != NULL ? *fh : MPI_FILE_NULL, &f,
                       "MPI_File_close");

    if (err != MPI_SUCCESS)
        return err;
    PMPI_Win_free(&f->shwin);
    /* every process is done with the file before it goes */
    PMPI_Barrier(f->comm);
    if (f->amode & MPI_MODE_DELETE_ON_CLOSE) {
        /* gone when any process's MPI_File_close returns */
        if (f->rank == 0)
            unlink(f->path);
        PMPI_Barrier(f->comm);
    }
    io.f[*fh - 1] = NULL;
    file_release(f);
    *fh = MPI_FILE_NULL;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(File_close);

int PMPI_File_delete(const char *filename, MPI_Info info)
{
    RK_MPI_GUARD;
    int err = rk_check_init("MPI_File_delete");

    (void)info;
    if (err != MPI_SUCCESS)
        return err;
    if (filename == NULL || filename[0] == '\0')
        return null_err(MPI_ERR_BAD_FILE, "MPI_File_delete", "no file name");
    if (unlink(filename) != 0) {
        err = rk_io_errno_class(errno);
        return null_err(err, "MPI_File_delete", "'%s': %s", filename,
                        strerror(errno));
    }
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(File_delete);

/* ---- size, sync, attributes ---- */

/* MPI_File_set_size and MPI_File_preallocate: rank 0 changes the file,
 * everyone hears the outcome. */
static int resize(MPI_File fh, MPI_Offset size, int grow_only,
                  const char *func)
{
    rk_file_t *f;
    int err = rk_io_file_arg(fh, &f, func);
    long long mm[2], all[2];

    if (err != MPI_SUCCESS)
        return err;
    mm[0] = size;
    mm[1] = -size;
    err = PMPI_Allreduce(mm, all, 2, MPI_LONG_LONG, MPI_MAX, f->comm);
    if (err != MPI_SUCCESS)
        return err;
    if (all[0] != size || -all[1] != size)
        return rk_err(f->comm, MPI_ERR_NOT_SAME, func,
                      "size %lld differs between the processes",
                      (long long)size);
    if (size < 0)
        return rk_err(f->comm, MPI_ERR_ARG, func, "size %lld < 0",
                      (long long)size);
    if (f->amode & MPI_MODE_RDONLY)
        return rk_err(f->comm, MPI_ERR_READ_ONLY, func,
                      "the file is open MPI_MODE_RDONLY");
    if (f->rank == 0) {
        struct stat sb;
        if (fstat(f->fd, &sb) != 0)
            err = rk_io_errno_class(errno);
        else if ((!grow_only || sb.st_size < size) &&
                 ftruncate(f->fd, size) != 0)
            err = rk_io_errno_class(errno);
    }
    PMPI_Bcast(&err, 1, MPI_INT, 0, f->comm);
    if (err != MPI_SUCCESS)
        return rk_err(f->comm, err, func, "'%s' to %lld bytes", f->path,
                      (long long)size);
    return MPI_SUCCESS;
}

int PMPI_File_set_size(MPI_File fh, MPI_Offset size)
{
    RK_MPI_GUARD;
    return resize(fh, size, 0, "MPI_File_set_size");
}
RK_MPI_ALIAS(File_set_size);

int PMPI_File_preallocate(MPI_File fh, MPI_Offset size)
{
    RK_MPI_GUARD;
    return resize(fh, size, 1, "MPI_File_preallocate");
}
RK_MPI_ALIAS(File_preallocate);

int PMPI_File_get_size(MPI_File fh, MPI_Offset *size)
{
    RK_MPI_GUARD;
    rk_file_t *f;
    int err = rk_io_file_arg(fh, &f, "MPI_File_get_size");
    struct stat sb;

    if (err != MPI_SUCCESS)
        return err;
    if (size == NULL)
        return rk_err(f->comm, MPI_ERR_ARG, "MPI_File_get_size",
                      "size is NULL");
    if (fstat(f->fd, &sb) != 0)
        return rk_err(f->comm, rk_io_errno_class(errno), "MPI_File_get_size",
                      "'%s': %s", f->path, strerror(errno));
    *size = (MPI_Offset)sb.st_size;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(File_get_size);

int PMPI_File_sync(MPI_File fh)
{
    RK_MPI_GUARD;
    rk_file_t *f;
    int err = rk_io_file_arg(fh, &f, "MPI_File_sync");

    if (err != MPI_SUCCESS)
        return err;
    if (f->amode & MPI_MODE_RDONLY) {
        err = MPI_SUCCESS;
    } else if (fsync(f->fd) != 0) {
        err = rk_io_errno_class(errno);
    }
    err = rk_io_agree(f->comm, err);
    if (err != MPI_SUCCESS)
        return rk_err(f->comm, err, "MPI_File_sync", "'%s'", f->path);
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(File_sync);

int PMPI_File_get_group(MPI_File fh, MPI_Group *group)
{
    RK_MPI_GUARD;
    rk_file_t *f;
    int err = rk_io_file_arg(fh, &f, "MPI_File_get_group");

    if (err != MPI_SUCCESS)
        return err;
    if (group == NULL)
        return rk_err(f->comm, MPI_ERR_ARG, "MPI_File_get_group",
                      "group is NULL");
    return PMPI_Comm_group(f->comm, group);
}
RK_MPI_ALIAS(File_get_group);

int PMPI_File_get_amode(MPI_File fh, int *amode)
{
    RK_MPI_GUARD;
    rk_file_t *f;
    int err = rk_io_file_arg(fh, &f, "MPI_File_get_amode");

    if (err != MPI_SUCCESS)
        return err;
    if (amode == NULL)
        return rk_err(f->comm, MPI_ERR_ARG, "MPI_File_get_amode",
                      "amode is NULL");
    *amode = f->amode;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(File_get_amode);

/* hints: none is used (POSIX files); the file keeps a copy of those the
 * program gave (at open, or the last set_info), which get_info returns,
 * as communicators and windows do */
int PMPI_File_set_info(MPI_File fh, MPI_Info info)
{
    RK_MPI_GUARD;
    rk_file_t *f;
    MPI_Info copy = MPI_INFO_NULL;
    int err = rk_io_file_arg(fh, &f, "MPI_File_set_info");

    if (err != MPI_SUCCESS)
        return err;
    if (info != MPI_INFO_NULL && PMPI_Info_dup(info, &copy) != MPI_SUCCESS)
        return rk_err(f->comm, MPI_ERR_INFO, "MPI_File_set_info",
                      "invalid info %d", info);
    if (f->info != MPI_INFO_NULL)
        PMPI_Info_free(&f->info);
    f->info = copy;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(File_set_info);

int PMPI_File_get_info(MPI_File fh, MPI_Info *info_used)
{
    RK_MPI_GUARD;
    rk_file_t *f;
    int err = rk_io_file_arg(fh, &f, "MPI_File_get_info");

    if (err != MPI_SUCCESS)
        return err;
    if (info_used == NULL)
        return rk_err(f->comm, MPI_ERR_ARG, "MPI_File_get_info",
                      "info_used is NULL");
    err = f->info != MPI_INFO_NULL ? PMPI_Info_dup(f->info, info_used)
                                   : PMPI_Info_create(info_used);
    if (err != MPI_SUCCESS)
        return rk_err(f->comm, err, "MPI_File_get_info",
                      "no info object left");
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(File_get_info);

int PMPI_File_set_atomicity(MPI_File fh, int flag)
{
    RK_MPI_GUARD;
    rk_file_t *f;
    int err = rk_io_file_arg(fh, &f, "MPI_File_set_atomicity"), mm[2], all[2];

    if (err != MPI_SUCCESS)
        return err;
    mm[0] = !!flag;
    mm[1] = -!!flag;
    err = PMPI_Allreduce(mm, all, 2, MPI_INT, MPI_MAX, f->comm);
    if (err != MPI_SUCCESS)
        return err;
    if (all[0] != -all[1])
        return rk_err(f->comm, MPI_ERR_NOT_SAME, "MPI_File_set_atomicity",
                      "flag differs between the processes");
    f->atomic = !!flag;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(File_set_atomicity);

int PMPI_File_get_atomicity(MPI_File fh, int *flag)
{
    RK_MPI_GUARD;
    rk_file_t *f;
    int err = rk_io_file_arg(fh, &f, "MPI_File_get_atomicity");

    if (err != MPI_SUCCESS)
        return err;
    if (flag == NULL)
        return rk_err(f->comm, MPI_ERR_ARG, "MPI_File_get_atomicity",
                      "flag is NULL");
    *flag = f->atomic;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(File_get_atomicity);

/* ---- views ---- */

/* A filetype's blocks go forward from offset 0 (MPI-3.1 13.3). */
static int forward(const rk_type_t *t)
{
    if (t->contig)
        return 1;
    for (int i = 0; i < t->nblocks; i++)
        if (t->blocks[i].off < 0 ||
            (i > 0 && t->blocks[i].off < t->blocks[i - 1].off +
                                             (MPI_Aint)t->blocks[i - 1].len))
            return 0;
    return t->nblocks == 0 ||
           t->blocks[t->nblocks - 1].off +
                   (MPI_Aint)t->blocks[t->nblocks - 1].len <=
               t->extent;
}

int PMPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype,
                       MPI_Datatype filetype, const char *datarep,
                       MPI_Info info)
{
    RK_MPI_GUARD;
    rk_file_t *f;
    int err = rk_io_file_arg(fh, &f, "MPI_File_set_view");
    const rk_type_t *e, *t;
    MPI_Datatype ec = etype, fc = filetype;

    (void)info;
    if (err != MPI_SUCCESS)
        return err;
    if (rckmpi_type_check(etype) != MPI_SUCCESS ||
        rckmpi_type_check(filetype) != MPI_SUCCESS)
        return rk_err(f->comm, MPI_ERR_TYPE, "MPI_File_set_view",
                      "invalid or uncommitted etype or filetype");
    if (datarep == NULL || strcmp(datarep, "native") != 0)
        return rk_err(f->comm, MPI_ERR_UNSUPPORTED_DATAREP,
                      "MPI_File_set_view",
                      "data representation '%s' (only \"native\")",
                      datarep != NULL ? datarep : "(null)");
    if (disp == MPI_DISPLACEMENT_CURRENT || disp < 0)
        return rk_err(f->comm, MPI_ERR_ARG, "MPI_File_set_view",
                      "displacement %lld (MPI_DISPLACEMENT_CURRENT is for "
                      "MPI_MODE_SEQUENTIAL files, not implemented)",
                      (long long)disp);
    e = rk_type(etype);
    t = rk_type(filetype);
    if (e->size == 0 || t->size == 0 || t->size % e->size != 0)
        return rk_err(f->comm, MPI_ERR_TYPE, "MPI_File_set_view",
                      "a filetype of %zu bytes is not made of etypes of "
                      "%zu bytes", t->size, e->size);
    if (!forward(t))
        return rk_err(f->comm, MPI_ERR_TYPE, "MPI_File_set_view",
                      "the filetype's blocks must go forward from its "
                      "start, inside its extent");
    err = view_set(f, disp, etype, filetype);
    if (err == MPI_SUCCESS && etype >= RCKMPI_NPREDEFINED)
        err = PMPI_Type_dup(etype, &ec);
    if (err == MPI_SUCCESS && filetype >= RCKMPI_NPREDEFINED)
        err = PMPI_Type_dup(filetype, &fc);
    if (err != MPI_SUCCESS)
        return rk_err(f->comm, MPI_ERR_NO_MEM, "MPI_File_set_view",
                      "no memory");
    if (f->etype >= RCKMPI_NPREDEFINED)
        PMPI_Type_free(&f->etype);
    if (f->ftype >= RCKMPI_NPREDEFINED)
        PMPI_Type_free(&f->ftype);
    f->etype = ec;
    f->ftype = fc;
    /* the shared pointer goes back to 0 too */
    PMPI_Barrier(f->comm);
    if (f->rank == 0)
        *f->shfp = 0;
    return PMPI_Barrier(f->comm);
}
RK_MPI_ALIAS(File_set_view);

int PMPI_File_get_view(MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype,
                       MPI_Datatype *filetype, char *datarep)
{
    RK_MPI_GUARD;
    rk_file_t *f;
    int err = rk_io_file_arg(fh, &f, "MPI_File_get_view");

    if (err != MPI_SUCCESS)
        return err;
    if (disp == NULL || etype == NULL || filetype == NULL ||
        datarep == NULL)
        return rk_err(f->comm, MPI_ERR_ARG, "MPI_File_get_view",
                      "a NULL argument");
    *disp = f->disp;
    /* derived types: new handles the caller frees */
    *etype = f->etype;
    *filetype = f->ftype;
    if (f->etype >= RCKMPI_NPREDEFINED)
        PMPI_Type_dup(f->etype, etype);
    if (f->ftype >= RCKMPI_NPREDEFINED)
        PMPI_Type_dup(f->ftype, filetype);
    snprintf(datarep, MPI_MAX_DATAREP_STRING, "native");
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(File_get_view);

/* ---- data access: explicit offsets, individual pointer ---- */

int PMPI_File_read_at(MPI_File fh, MPI_Offset offset, void *buf, int count,
                      MPI_Datatype datatype, MPI_Status *status)
{
    RK_MPI_GUARD;
    rk_file_t *f;
    int err = rk_io_file_arg(fh, &f, "MPI_File_read_at");

    return err != MPI_SUCCESS ? err
                              : rk_io_rw(f, AT_EXPLICIT, offset, buf, count,
                                   datatype, 0, status, "MPI_File_read_at");
}
RK_MPI_ALIAS(File_read_at);

int PMPI_File_write_at(MPI_File fh, MPI_Offset offset, const void *buf,
                       int count, MPI_Datatype datatype, MPI_Status *status)
{
    RK_MPI_GUARD;
    rk_file_t *f;
    int err = rk_io_file_arg(fh, &f, "MPI_File_write_at");

    return err != MPI_SUCCESS ? err
                              : rk_io_rw(f, AT_EXPLICIT, offset, (void *)buf,
                                   count, datatype, 1, status,
                                   "MPI_File_write_at");
}
RK_MPI_ALIAS(File_write_at);

int PMPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void *buf,
                          int count, MPI_Datatype datatype,
                          MPI_Status *status)
{
    RK_MPI_GUARD;
    rk_file_t *f;
    int err = rk_io_file_arg(fh, &f, "MPI_File_read_at_all");

    return err != MPI_SUCCESS ? err
                              : rk_io_rw(f, AT_EXPLICIT, offset, buf, count,
                                   datatype, 0, status,
                                   "MPI_File_read_at_all");
}
RK_MPI_ALIAS(File_read_at_all);

int PMPI_File_write_at_all(MPI_File fh, MPI_Offset offset, const void *buf,
                           int count, MPI_Datatype datatype,
                           MPI_Status *status)
{
    RK_MPI_GUARD;
    rk_file_t *f;
    int err = rk_io_file_arg(fh, &f, "MPI_File_write_at_all");

    return err != MPI_SUCCESS ? err
                              : rk_io_rw(f, AT_EXPLICIT, offset, (void *)buf,
                                   count, datatype, 1, status,
                                   "MPI_File_write_at_all");
}
RK_MPI_ALIAS(File_write_at_all);

int PMPI_File_read(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                   MPI_Status *status)
{
    RK_MPI_GUARD;
    rk_file_t *f;
    int err = rk_io_file_arg(fh, &f, "MPI_File_read");

    return err != MPI_SUCCESS ? err
                              : rk_io_rw(f, AT_INDIVIDUAL, 0, buf, count, datatype,
                                   0, status, "MPI_File_read");
}
RK_MPI_ALIAS(File_read);

int PMPI_File_write(MPI_File fh, const void *buf, int count,
                    MPI_Datatype datatype, MPI_Status *status)
{
    RK_MPI_GUARD;
    rk_file_t *f;
    int err = rk_io_file_arg(fh, &f, "MPI_File_write");

    return err != MPI_SUCCESS ? err
                              : rk_io_rw(f, AT_INDIVIDUAL, 0, (void *)buf, count,
                                   datatype, 1, status, "MPI_File_write");
}
RK_MPI_ALIAS(File_write);

int PMPI_File_read_all(MPI_File fh, void *buf, int count,
                       MPI_Datatype datatype, MPI_Status *status)
{
    RK_MPI_GUARD;
    rk_file_t *f;
    int err = rk_io_file_arg(fh, &f, "MPI_File_read_all");

    return err != MPI_SUCCESS ? err
                              : rk_io_rw(f, AT_INDIVIDUAL, 0, buf, count, datatype,
                                   0, status, "MPI_File_read_all");
}
RK_MPI_ALIAS(File_read_all);

int PMPI_File_write_all(MPI_File fh, const void *buf, int count,
                        MPI_Datatype datatype, MPI_Status *status)
{
    RK_MPI_GUARD;
    rk_file_t *f;
    int err = rk_io_file_arg(fh, &f, "MPI_File_write_all");

    return err != MPI_SUCCESS ? err
                              : rk_io_rw(f, AT_INDIVIDUAL, 0, (void *)buf, count,
                                   datatype, 1, status, "MPI_File_write_all");
}
RK_MPI_ALIAS(File_write_all);

/* ---- non-blocking: done at once, a completed request ---- */

static int done_poll(void *state, int *done)
{
    (void)state;
    *done = 1;
    return MPI_SUCCESS;
}

int rk_io_done_req(rk_file_t *f, int err, const MPI_Status *st,
                   MPI_Request *request, const char *func)
{
    rk_req_t *r;
    int e;

    if (err != MPI_SUCCESS)
        return err;
    if (request == NULL)
        return rk_err(f->comm, MPI_ERR_ARG, func, "request is NULL");
    e = rckmpi_greq_start(done_poll, NULL, NULL, f->comm, request);
    if (e != MPI_SUCCESS)
        return e;
    r = rk_req(*request);
    r->st.rck_bytes = st->rck_bytes; /* MPI_Get_count on its status */
    return MPI_SUCCESS;
}

int PMPI_File_iread_at(MPI_File fh, MPI_Offset offset, void *buf, int count,
                       MPI_Datatype datatype, MPI_Request *request)
{
    RK_MPI_GUARD;
    rk_file_t *f;
    MPI_Status st;
    int err = rk_io_file_arg(fh, &f, "MPI_File_iread_at");

    if (err != MPI_SUCCESS)
        return err;
    err = rk_io_rw(f, AT_EXPLICIT, offset, buf, count, datatype, 0, &st,
             "MPI_File_iread_at");
    return rk_io_done_req(f, err, &st, request, "MPI_File_iread_at");
}
RK_MPI_ALIAS(File_iread_at);

int PMPI_File_iwrite_at(MPI_File fh, MPI_Offset offset, const void *buf,
                        int count, MPI_Datatype datatype,
                        MPI_Request *request)
{
    RK_MPI_GUARD;
    rk_file_t *f;
    MPI_Status st;
    int err = rk_io_file_arg(fh, &f, "MPI_File_iwrite_at");

    if (err != MPI_SUCCESS)
        return err;
    err = rk_io_rw(f, AT_EXPLICIT, offset, (void *)buf, count, datatype, 1, &st,
             "MPI_File_iwrite_at");
    return rk_io_done_req(f, err, &st, request, "MPI_File_iwrite_at");
}
RK_MPI_ALIAS(File_iwrite_at);

int PMPI_File_iread(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                    MPI_Request *request)
{
    RK_MPI_GUARD;
    rk_file_t *f;
    MPI_Status st;
    int err = rk_io_file_arg(fh, &f, "MPI_File_iread");

    if (err != MPI_SUCCESS)
        return err;
    err = rk_io_rw(f, AT_INDIVIDUAL, 0, buf, count, datatype, 0, &st,
             "MPI_File_iread");
    return rk_io_done_req(f, err, &st, request, "MPI_File_iread");
}
RK_MPI_ALIAS(File_iread);

int PMPI_File_iwrite(MPI_File fh, const void *buf, int count,
                     MPI_Datatype datatype, MPI_Request *request)
{
    RK_MPI_GUARD;
    rk_file_t *f;
    MPI_Status st;
    int err = rk_io_file_arg(fh, &f, "MPI_File_iwrite");

    if (err != MPI_SUCCESS)
        return err;
    err = rk_io_rw(f, AT_INDIVIDUAL, 0, (void *)buf, count, datatype, 1, &st,
             "MPI_File_iwrite");
    return rk_io_done_req(f, err, &st, request, "MPI_File_iwrite");
}
RK_MPI_ALIAS(File_iwrite);

/* ---- errors, handles ---- */

int PMPI_File_set_errhandler(MPI_File fh, MPI_Errhandler eh)
{
    RK_MPI_GUARD;
    rk_file_t *f;
    int err = rk_check_init("MPI_File_set_errhandler");

    if (err != MPI_SUCCESS)
        return err;
    if (fh == MPI_FILE_NULL) {
        if (!rk_eh_fits(eh, RK_EH_FILE))
            return null_err(MPI_ERR_ARG, "MPI_File_set_errhandler",
                            "error handler %d is not a file's (or invalid)",
                            eh);
        if (eh != MPI_ERRORS_RETURN && io.null_comm == MPI_COMM_NULL) {
            err = PMPI_Comm_dup(MPI_COMM_SELF, &io.null_comm);
            if (err != MPI_SUCCESS)
                return err;
        }
        if (io.null_comm != MPI_COMM_NULL) {
            err = rk_set_eh(io.null_comm, eh, RK_EH_FILE,
                            "MPI_File_set_errhandler");
            if (err != MPI_SUCCESS)
                return err;
        }
        io.null_eh = eh;
        return MPI_SUCCESS;
    }
    err = rk_io_file_arg(fh, &f, "MPI_File_set_errhandler");
    if (err != MPI_SUCCESS)
        return err;
    return rk_set_eh(f->comm, eh, RK_EH_FILE, "MPI_File_set_errhandler");
}

MPI_File rk_file_by_comm(MPI_Comm comm)
{
    for (int i = 0; i < io.n; i++)
        if (io.f[i] != NULL && io.f[i]->used && io.f[i]->comm == comm)
            return (MPI_File)(i + 1);
    return MPI_FILE_NULL;
}
RK_MPI_ALIAS(File_set_errhandler);

int PMPI_File_get_errhandler(MPI_File fh, MPI_Errhandler *eh)
{
    RK_MPI_GUARD;
    rk_file_t *f;
    int err = rk_check_init("MPI_File_get_errhandler");

    if (err != MPI_SUCCESS)
        return err;
    if (eh == NULL)
        return null_err(MPI_ERR_ARG, "MPI_File_get_errhandler",
                        "errhandler is NULL");
    if (fh == MPI_FILE_NULL) {
        *eh = io.null_eh;
        return MPI_SUCCESS;
    }
    err = rk_io_file_arg(fh, &f, "MPI_File_get_errhandler");
    if (err != MPI_SUCCESS)
        return err;
    return PMPI_Comm_get_errhandler(f->comm, eh);
}
RK_MPI_ALIAS(File_get_errhandler);

int PMPI_File_call_errhandler(MPI_File fh, int errorcode)
{
    RK_MPI_GUARD;
    rk_file_t *f;
    int err = rk_check_init("MPI_File_call_errhandler");

    if (err != MPI_SUCCESS)
        return err;
    if (fh == MPI_FILE_NULL) {
        null_err(errorcode, "MPI_File_call_errhandler",
                 "called by the program");
        return MPI_SUCCESS;
    }
    err = rk_io_file_arg(fh, &f, "MPI_File_call_errhandler");
    if (err != MPI_SUCCESS)
        return err;
    rk_err(f->comm, errorcode, "MPI_File_call_errhandler",
           "called by the program");
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(File_call_errhandler);

/* Fortran handles are the C handles */
int PMPI_File_c2f(MPI_File file)
{
    RK_MPI_GUARD;
    return file_of(file) != NULL ? (int)file : 0;
}
RK_MPI_ALIAS(File_c2f);

MPI_File PMPI_File_f2c(int file)
{
    RK_MPI_GUARD;
    return file_of((MPI_File)file) != NULL ? (MPI_File)file : MPI_FILE_NULL;
}
RK_MPI_ALIAS(File_f2c);

/* Files are read and written in "native" only: a new representation is
 * checked (a name, not one of the standard's: MPI_ERR_DUP_DATAREP; an
 * extent function) and then refused with MPI_ERR_UNSUPPORTED_DATAREP, as
 * MPI_FILE_NULL's error. */
int PMPI_Register_datarep(const char *datarep,
                          MPI_Datarep_conversion_function *read_fn,
                          MPI_Datarep_conversion_function *write_fn,
                          MPI_Datarep_extent_function *extent_fn,
                          void *extra_state)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Register_datarep";
    int err = rk_check_init(f);

    (void)read_fn;
    (void)write_fn;
    (void)extra_state;
    if (err != MPI_SUCCESS)
        return err;
    if (datarep == NULL || datarep[0] == '\0' ||
        strlen(datarep) >= MPI_MAX_DATAREP_STRING)
        return null_err(MPI_ERR_ARG, f,
                        "a data representation's name: 1 to %d characters",
                        MPI_MAX_DATAREP_STRING - 1);
    if (strcmp(datarep, "native") == 0 || strcmp(datarep, "internal") == 0 ||
        strcmp(datarep, "external32") == 0)
        return null_err(MPI_ERR_DUP_DATAREP, f,
                        "\"%s\" is one of the standard's representations",
                        datarep);
    if (extent_fn == NULL)
        return null_err(MPI_ERR_ARG, f, "no extent function");
    return null_err(MPI_ERR_UNSUPPORTED_DATAREP, f,
                    "\"%s\": representations of the program are not "
                    "implemented (files are in \"native\" only)",
                    datarep);
}
RK_MPI_ALIAS(Register_datarep);
