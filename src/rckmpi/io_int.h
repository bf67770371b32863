/*
 * Internals of MPI-IO (io*.c, docs/MPI-ONESIDED-IO.md): the file, its
 * view, the helpers the files share.
 */
#ifndef RCKMPI_IO_INT_H
#define RCKMPI_IO_INT_H

#include "rckmpi.h"

typedef struct {
    int used;
    MPI_Comm comm; /* a duplicate: its error handler is the file's */
    int fd, amode, rank, size;
    char *path;
    int atomic;
    MPI_Info info; /* a copy of the hints the program gave, or none */
    /* the view */
    MPI_Offset disp;
    MPI_Datatype etype, ftype; /* as the program gave them (dups) */
    size_t esize;
    size_t fsize;    /* data bytes of one filetype */
    MPI_Aint fext;   /* its extent */
    int flat;        /* its tiles cover the file without gaps from disp on */
    int nblk;
    rk_block_t *blk; /* its blocks, offsets from the tile's start */
    MPI_Offset fp;   /* individual file pointer, in etypes */
    MPI_Win shwin;   /* the shared file pointer (rank 0, in etypes) */
    long long *shfp;
    /* the split collective under way (io_split.c): its kind, buffer and
     * status, or 0 */
    int split;
    const void *split_buf;
    MPI_Status split_st;
} rk_file_t;

/* where an access starts: an explicit offset, the individual pointer,
 * the place the shared pointer gave */
enum { AT_EXPLICIT, AT_INDIVIDUAL, AT_SHARED };

/* MPI initialised and @p h a file; else the error (MPI_FILE_NULL's). */
int rk_io_file_arg(MPI_File h, rk_file_t **f, const char *func);
/* The MPI error class of errno @p e. */
int rk_io_errno_class(int e);
/* The largest error class of the group (0: none), at every member. */
int rk_io_agree(MPI_Comm comm, int err);
/* The file offset of data byte @p k of the view; in @p avail the data
 * bytes that follow it contiguously in the file. */
MPI_Offset rk_io_view_at(const rk_file_t *f, long long k, size_t *avail);
/* The data bytes of the view before file offset @p off. */
long long rk_io_view_bytes_before(const rk_file_t *f, MPI_Offset off);
/* Read or write @p count items of @p type at etype @p pos (AT_EXPLICIT,
 * AT_SHARED) or at the individual pointer (which moves). */
int rk_io_rw(rk_file_t *f, int where, MPI_Offset pos, void *buf, int count,
             MPI_Datatype type, int write, MPI_Status *st, const char *func);

/* A request complete at once, with the status of an access done. */
int rk_io_done_req(rk_file_t *f, int err, const MPI_Status *st,
                   MPI_Request *request, const char *func);

#endif
