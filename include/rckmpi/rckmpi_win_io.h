/*
 * Part of mpi.h (include <mpi.h>, not this file): the declarations of
 * MPI's one-sided communication (MPI_Win), MPI-IO (MPI_File) and
 * MPI_Comm_connect/accept, kept in a file of their own. mpi.h includes it
 * at its end, after the handle types it uses. Every function declared here
 * is implemented (src/rckmpi/win*.c, io*.c, port*.c); what they do and do
 * not do: docs/MPI-ONESIDED-IO.md.
 */
#ifndef RCKMPI_WIN_IO_H
#define RCKMPI_WIN_IO_H

/* on its own (tools that read every header): mpi.h first, which
 * includes this file at its end (then skipped: the guard is defined) */
#ifndef RCKMPI_MPI_H
#include "mpi.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push(default)

typedef int MPI_Win;
typedef int MPI_File;

#define MPI_WIN_NULL ((MPI_Win)0)
#define MPI_FILE_NULL ((MPI_File)0)

/* MPI_Accumulate's "no operation" (MPI_Get_accumulate, MPI_Fetch_and_op):
 * a predefined operation after MPI_REPLACE */
#define MPI_NO_OP ((MPI_Op)14)

/* error classes of one-sided communication, MPI-IO and ports: numbered
 * apart from mpi.h's (50 and up); MPI_Error_string and MPI_Error_class
 * know them */
#define MPI_ERR_WIN 50
#define MPI_ERR_BASE 51
#define MPI_ERR_SIZE 52
#define MPI_ERR_DISP 53
#define MPI_ERR_LOCKTYPE 54
#define MPI_ERR_ASSERT 55
#define MPI_ERR_RMA_CONFLICT 56
#define MPI_ERR_RMA_SYNC 57
#define MPI_ERR_RMA_RANGE 58
#define MPI_ERR_RMA_ATTACH 59
#define MPI_ERR_RMA_FLAVOR 60
#define MPI_ERR_FILE 61
#define MPI_ERR_NOT_SAME 62
#define MPI_ERR_AMODE 63
#define MPI_ERR_UNSUPPORTED_DATAREP 64
#define MPI_ERR_NO_SUCH_FILE 65
#define MPI_ERR_FILE_EXISTS 66
#define MPI_ERR_BAD_FILE 67
#define MPI_ERR_ACCESS 68
#define MPI_ERR_NO_SPACE 69
#define MPI_ERR_QUOTA 70
#define MPI_ERR_READ_ONLY 71
#define MPI_ERR_FILE_IN_USE 72
#define MPI_ERR_DUP_DATAREP 73
#define MPI_ERR_CONVERSION 74
#define MPI_ERR_IO 75
#define MPI_ERR_PORT 76
#define MPI_ERR_SERVICE 77
#define MPI_ERR_NAME 78
#define MPI_ERR_RMA_SHARED 79
#define RCKMPI_ERR_WINIO_FIRST 50
#define RCKMPI_ERR_WINIO_LAST 79

/* ---- one-sided communication ---- */
#define MPI_LOCK_EXCLUSIVE 234
#define MPI_LOCK_SHARED 235

/* assertions (accepted; they only allow the library to do less) */
#define MPI_MODE_NOCHECK 1024
#define MPI_MODE_NOSTORE 2048
#define MPI_MODE_NOPUT 4096
#define MPI_MODE_NOPRECEDE 8192
#define MPI_MODE_NOSUCCEED 16384

/* MPI_Win_get_attr's keys */
#define MPI_WIN_BASE 101
#define MPI_WIN_SIZE 102
#define MPI_WIN_DISP_UNIT 103
#define MPI_WIN_CREATE_FLAVOR 104
#define MPI_WIN_MODEL 105

#define MPI_WIN_FLAVOR_CREATE 1
#define MPI_WIN_FLAVOR_ALLOCATE 2
#define MPI_WIN_FLAVOR_DYNAMIC 3
#define MPI_WIN_FLAVOR_SHARED 4
#define MPI_WIN_SEPARATE 1
#define MPI_WIN_UNIFIED 2

typedef void MPI_Win_errhandler_function(MPI_Win *win, int *err, ...);
typedef int MPI_Win_copy_attr_function(MPI_Win oldwin, int win_keyval,
                                       void *extra_state,
                                       void *attribute_val_in,
                                       void *attribute_val_out, int *flag);
typedef int MPI_Win_delete_attr_function(MPI_Win win, int win_keyval,
                                         void *attribute_val,
                                         void *extra_state);
/* copies the attribute's value (MPI_WIN_DUP_FN; windows are never
 * duplicated, so it is never called by the library) */
int rckmpi_win_dup_fn(MPI_Win oldwin, int win_keyval, void *extra_state,
                      void *attribute_val_in, void *attribute_val_out,
                      int *flag);
#define MPI_WIN_NULL_COPY_FN ((MPI_Win_copy_attr_function *)0)
#define MPI_WIN_NULL_DELETE_FN ((MPI_Win_delete_attr_function *)0)
#define MPI_WIN_DUP_FN rckmpi_win_dup_fn
int MPI_Win_create_keyval(MPI_Win_copy_attr_function *win_copy_attr_fn,
                          MPI_Win_delete_attr_function *win_delete_attr_fn,
                          int *win_keyval, void *extra_state);
int MPI_Win_free_keyval(int *win_keyval);
int MPI_Win_create_errhandler(MPI_Win_errhandler_function *win_errhandler_fn,
                              MPI_Errhandler *errhandler);
int MPI_Win_set_attr(MPI_Win win, int win_keyval, void *attribute_val);
int MPI_Win_delete_attr(MPI_Win win, int win_keyval);

int MPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info,
                   MPI_Comm comm, MPI_Win *win);
int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info,
                     MPI_Comm comm, void *baseptr, MPI_Win *win);
int MPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info,
                            MPI_Comm comm, void *baseptr, MPI_Win *win);
int MPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size,
                         int *disp_unit, void *baseptr);
int MPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win);
int MPI_Win_attach(MPI_Win win, void *base, MPI_Aint size);
int MPI_Win_detach(MPI_Win win, const void *base);
int MPI_Win_free(MPI_Win *win);
int MPI_Win_get_group(MPI_Win win, MPI_Group *group);
int MPI_Win_get_attr(MPI_Win win, int win_keyval, void *attribute_val,
                     int *flag);
int MPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler);
int MPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler);
int MPI_Win_call_errhandler(MPI_Win win, int errorcode);
int MPI_Win_set_name(MPI_Win win, const char *win_name);
int MPI_Win_get_name(MPI_Win win, char *win_name, int *resultlen);
int MPI_Win_set_info(MPI_Win win, MPI_Info info);
int MPI_Win_get_info(MPI_Win win, MPI_Info *info_used);

int MPI_Put(const void *origin_addr, int origin_count,
            MPI_Datatype origin_datatype, int target_rank,
            MPI_Aint target_disp, int target_count,
            MPI_Datatype target_datatype, MPI_Win win);
int MPI_Get(void *origin_addr, int origin_count,
            MPI_Datatype origin_datatype, int target_rank,
            MPI_Aint target_disp, int target_count,
            MPI_Datatype target_datatype, MPI_Win win);
int MPI_Accumulate(const void *origin_addr, int origin_count,
                   MPI_Datatype origin_datatype, int target_rank,
                   MPI_Aint target_disp, int target_count,
                   MPI_Datatype target_datatype, MPI_Op op, MPI_Win win);
int MPI_Get_accumulate(const void *origin_addr, int origin_count,
                       MPI_Datatype origin_datatype, void *result_addr,
                       int result_count, MPI_Datatype result_datatype,
                       int target_rank, MPI_Aint target_disp,
                       int target_count, MPI_Datatype target_datatype,
                       MPI_Op op, MPI_Win win);
int MPI_Fetch_and_op(const void *origin_addr, void *result_addr,
                     MPI_Datatype datatype, int target_rank,
                     MPI_Aint target_disp, MPI_Op op, MPI_Win win);
int MPI_Compare_and_swap(const void *origin_addr, const void *compare_addr,
                         void *result_addr, MPI_Datatype datatype,
                         int target_rank, MPI_Aint target_disp, MPI_Win win);
int MPI_Rput(const void *origin_addr, int origin_count,
             MPI_Datatype origin_datatype, int target_rank,
             MPI_Aint target_disp, int target_count,
             MPI_Datatype target_datatype, MPI_Win win,
             MPI_Request *request);
int MPI_Rget(void *origin_addr, int origin_count,
             MPI_Datatype origin_datatype, int target_rank,
             MPI_Aint target_disp, int target_count,
             MPI_Datatype target_datatype, MPI_Win win,
             MPI_Request *request);
int MPI_Raccumulate(const void *origin_addr, int origin_count,
                    MPI_Datatype origin_datatype, int target_rank,
                    MPI_Aint target_disp, int target_count,
                    MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                    MPI_Request *request);
int MPI_Rget_accumulate(const void *origin_addr, int origin_count,
                        MPI_Datatype origin_datatype, void *result_addr,
                        int result_count, MPI_Datatype result_datatype,
                        int target_rank, MPI_Aint target_disp,
                        int target_count, MPI_Datatype target_datatype,
                        MPI_Op op, MPI_Win win, MPI_Request *request);

int MPI_Win_fence(int assert, MPI_Win win);
int MPI_Win_post(MPI_Group group, int assert, MPI_Win win);
int MPI_Win_start(MPI_Group group, int assert, MPI_Win win);
int MPI_Win_complete(MPI_Win win);
int MPI_Win_wait(MPI_Win win);
int MPI_Win_test(MPI_Win win, int *flag);
int MPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win);
int MPI_Win_unlock(int rank, MPI_Win win);
int MPI_Win_lock_all(int assert, MPI_Win win);
int MPI_Win_unlock_all(MPI_Win win);
int MPI_Win_flush(int rank, MPI_Win win);
int MPI_Win_flush_all(MPI_Win win);
int MPI_Win_flush_local(int rank, MPI_Win win);
int MPI_Win_flush_local_all(MPI_Win win);
int MPI_Win_sync(MPI_Win win);

/* ---- MPI-IO ---- */
#define MPI_MODE_RDONLY 2
#define MPI_MODE_RDWR 8
#define MPI_MODE_WRONLY 4
#define MPI_MODE_CREATE 1
#define MPI_MODE_EXCL 64
#define MPI_MODE_DELETE_ON_CLOSE 16
#define MPI_MODE_UNIQUE_OPEN 32
#define MPI_MODE_APPEND 128
#define MPI_MODE_SEQUENTIAL 256

#define MPI_SEEK_SET 600
#define MPI_SEEK_CUR 602
#define MPI_SEEK_END 604

#define MPI_DISPLACEMENT_CURRENT ((MPI_Offset)-54278278)
#define MPI_MAX_DATAREP_STRING 128
typedef int MPI_Datarep_extent_function(MPI_Datatype datatype,
                                        MPI_Aint *file_extent,
                                        void *extra_state);
typedef int MPI_Datarep_conversion_function(void *userbuf,
                                            MPI_Datatype datatype, int count,
                                            void *filebuf, MPI_Offset position,
                                            void *extra_state);
#define MPI_CONVERSION_FN_NULL ((MPI_Datarep_conversion_function *)0)
/* user data representations are refused (docs/MPI-ONESIDED-IO.md) */
/* over a connected socket between two processes of the job */
int MPI_Comm_join(int fd, MPI_Comm *intercomm);
int MPI_Register_datarep(const char *datarep,
                         MPI_Datarep_conversion_function *read_conversion_fn,
                         MPI_Datarep_conversion_function *write_conversion_fn,
                         MPI_Datarep_extent_function *dtype_file_extent_fn,
                         void *extra_state);

typedef void MPI_File_errhandler_function(MPI_File *file, int *err, ...);
int MPI_File_create_errhandler(
    MPI_File_errhandler_function *file_errhandler_fn,
    MPI_Errhandler *errhandler);

int MPI_File_open(MPI_Comm comm, const char *filename, int amode,
                  MPI_Info info, MPI_File *fh);
int MPI_File_close(MPI_File *fh);
int MPI_File_delete(const char *filename, MPI_Info info);
int MPI_File_set_size(MPI_File fh, MPI_Offset size);
int MPI_File_preallocate(MPI_File fh, MPI_Offset size);
int MPI_File_get_size(MPI_File fh, MPI_Offset *size);
int MPI_File_get_group(MPI_File fh, MPI_Group *group);
int MPI_File_get_amode(MPI_File fh, int *amode);
int MPI_File_set_info(MPI_File fh, MPI_Info info);
int MPI_File_get_info(MPI_File fh, MPI_Info *info_used);
int MPI_File_sync(MPI_File fh);
int MPI_File_set_atomicity(MPI_File fh, int flag);
int MPI_File_get_atomicity(MPI_File fh, int *flag);
int MPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype,
                      MPI_Datatype filetype, const char *datarep,
                      MPI_Info info);
int MPI_File_get_view(MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype,
                      MPI_Datatype *filetype, char *datarep);
int MPI_File_read_at(MPI_File fh, MPI_Offset offset, void *buf, int count,
                     MPI_Datatype datatype, MPI_Status *status);
int MPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void *buf,
                         int count, MPI_Datatype datatype,
                         MPI_Status *status);
int MPI_File_write_at(MPI_File fh, MPI_Offset offset, const void *buf,
                      int count, MPI_Datatype datatype, MPI_Status *status);
int MPI_File_write_at_all(MPI_File fh, MPI_Offset offset, const void *buf,
                          int count, MPI_Datatype datatype,
                          MPI_Status *status);
int MPI_File_iread_at(MPI_File fh, MPI_Offset offset, void *buf, int count,
                      MPI_Datatype datatype, MPI_Request *request);
int MPI_File_iwrite_at(MPI_File fh, MPI_Offset offset, const void *buf,
                       int count, MPI_Datatype datatype,
                       MPI_Request *request);
int MPI_File_read(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                  MPI_Status *status);
int MPI_File_read_all(MPI_File fh, void *buf, int count,
                      MPI_Datatype datatype, MPI_Status *status);
int MPI_File_write(MPI_File fh, const void *buf, int count,
                   MPI_Datatype datatype, MPI_Status *status);
int MPI_File_write_all(MPI_File fh, const void *buf, int count,
                       MPI_Datatype datatype, MPI_Status *status);
int MPI_File_iread(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                   MPI_Request *request);
int MPI_File_iwrite(MPI_File fh, const void *buf, int count,
                    MPI_Datatype datatype, MPI_Request *request);
int MPI_File_seek(MPI_File fh, MPI_Offset offset, int whence);
int MPI_File_get_position(MPI_File fh, MPI_Offset *offset);
int MPI_File_get_byte_offset(MPI_File fh, MPI_Offset offset,
                             MPI_Offset *disp);
int MPI_File_read_shared(MPI_File fh, void *buf, int count,
                         MPI_Datatype datatype, MPI_Status *status);
int MPI_File_write_shared(MPI_File fh, const void *buf, int count,
                          MPI_Datatype datatype, MPI_Status *status);
int MPI_File_iread_shared(MPI_File fh, void *buf, int count,
                          MPI_Datatype datatype, MPI_Request *request);
int MPI_File_iwrite_shared(MPI_File fh, const void *buf, int count,
                           MPI_Datatype datatype, MPI_Request *request);
int MPI_File_read_ordered(MPI_File fh, void *buf, int count,
                          MPI_Datatype datatype, MPI_Status *status);
int MPI_File_write_ordered(MPI_File fh, const void *buf, int count,
                           MPI_Datatype datatype, MPI_Status *status);
int MPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence);
int MPI_File_get_position_shared(MPI_File fh, MPI_Offset *offset);
int MPI_File_iread_all(MPI_File fh, void *buf, int count,
                       MPI_Datatype datatype, MPI_Request *request);
int MPI_File_iwrite_all(MPI_File fh, const void *buf, int count,
                        MPI_Datatype datatype, MPI_Request *request);
int MPI_File_iread_at_all(MPI_File fh, MPI_Offset offset, void *buf,
                          int count, MPI_Datatype datatype,
                          MPI_Request *request);
int MPI_File_iwrite_at_all(MPI_File fh, MPI_Offset offset, const void *buf,
                           int count, MPI_Datatype datatype,
                           MPI_Request *request);
int MPI_File_read_all_begin(MPI_File fh, void *buf, int count,
                            MPI_Datatype datatype);
int MPI_File_read_all_end(MPI_File fh, void *buf, MPI_Status *status);
int MPI_File_write_all_begin(MPI_File fh, const void *buf, int count,
                             MPI_Datatype datatype);
int MPI_File_write_all_end(MPI_File fh, const void *buf, MPI_Status *status);
int MPI_File_read_at_all_begin(MPI_File fh, MPI_Offset offset, void *buf,
                               int count, MPI_Datatype datatype);
int MPI_File_read_at_all_end(MPI_File fh, void *buf, MPI_Status *status);
int MPI_File_write_at_all_begin(MPI_File fh, MPI_Offset offset,
                                const void *buf, int count,
                                MPI_Datatype datatype);
int MPI_File_write_at_all_end(MPI_File fh, const void *buf,
                              MPI_Status *status);
int MPI_File_read_ordered_begin(MPI_File fh, void *buf, int count,
                                MPI_Datatype datatype);
int MPI_File_read_ordered_end(MPI_File fh, void *buf, MPI_Status *status);
int MPI_File_write_ordered_begin(MPI_File fh, const void *buf, int count,
                                 MPI_Datatype datatype);
int MPI_File_write_ordered_end(MPI_File fh, const void *buf,
                               MPI_Status *status);
int MPI_File_get_type_extent(MPI_File fh, MPI_Datatype datatype,
                             MPI_Aint *extent);
int MPI_File_set_errhandler(MPI_File file, MPI_Errhandler errhandler);
int MPI_File_get_errhandler(MPI_File file, MPI_Errhandler *errhandler);
int MPI_File_call_errhandler(MPI_File fh, int errorcode);
MPI_File MPI_File_f2c(int file);
int MPI_File_c2f(MPI_File file);

/* ---- connect/accept between groups of one job ---- */
#define MPI_MAX_PORT_NAME 256
int MPI_Open_port(MPI_Info info, char *port_name);
int MPI_Close_port(const char *port_name);
int MPI_Comm_accept(const char *port_name, MPI_Info info, int root,
                    MPI_Comm comm, MPI_Comm *newcomm);
int MPI_Comm_connect(const char *port_name, MPI_Info info, int root,
                     MPI_Comm comm, MPI_Comm *newcomm);
int MPI_Publish_name(const char *service_name, MPI_Info info,
                     const char *port_name);
int MPI_Unpublish_name(const char *service_name, MPI_Info info,
                       const char *port_name);
int MPI_Lookup_name(const char *service_name, MPI_Info info,
                    char *port_name);

/* the profiling interface (mpi.h): PMPI_Xxx of every MPI_Xxx above */
extern __typeof__(MPI_Win_create) PMPI_Win_create;
extern __typeof__(MPI_Win_allocate) PMPI_Win_allocate;
extern __typeof__(MPI_Win_allocate_shared) PMPI_Win_allocate_shared;
extern __typeof__(MPI_Win_shared_query) PMPI_Win_shared_query;
extern __typeof__(MPI_Win_create_dynamic) PMPI_Win_create_dynamic;
extern __typeof__(MPI_Win_attach) PMPI_Win_attach;
extern __typeof__(MPI_Win_detach) PMPI_Win_detach;
extern __typeof__(MPI_Win_free) PMPI_Win_free;
extern __typeof__(MPI_Win_get_group) PMPI_Win_get_group;
extern __typeof__(MPI_Win_get_attr) PMPI_Win_get_attr;
extern __typeof__(MPI_Win_set_errhandler) PMPI_Win_set_errhandler;
extern __typeof__(MPI_Win_get_errhandler) PMPI_Win_get_errhandler;
extern __typeof__(MPI_Win_call_errhandler) PMPI_Win_call_errhandler;
extern __typeof__(MPI_Win_set_name) PMPI_Win_set_name;
extern __typeof__(MPI_Win_get_name) PMPI_Win_get_name;
extern __typeof__(MPI_Win_create_keyval) PMPI_Win_create_keyval;
extern __typeof__(MPI_Win_free_keyval) PMPI_Win_free_keyval;
extern __typeof__(MPI_Win_create_errhandler) PMPI_Win_create_errhandler;
extern __typeof__(MPI_Register_datarep) PMPI_Register_datarep;
extern __typeof__(MPI_Comm_join) PMPI_Comm_join;
extern __typeof__(MPI_File_create_errhandler) PMPI_File_create_errhandler;
extern __typeof__(MPI_Win_set_attr) PMPI_Win_set_attr;
extern __typeof__(MPI_Win_delete_attr) PMPI_Win_delete_attr;
extern __typeof__(MPI_Win_set_info) PMPI_Win_set_info;
extern __typeof__(MPI_Win_get_info) PMPI_Win_get_info;
extern __typeof__(MPI_Put) PMPI_Put;
extern __typeof__(MPI_Get) PMPI_Get;
extern __typeof__(MPI_Accumulate) PMPI_Accumulate;
extern __typeof__(MPI_Get_accumulate) PMPI_Get_accumulate;
extern __typeof__(MPI_Fetch_and_op) PMPI_Fetch_and_op;
extern __typeof__(MPI_Compare_and_swap) PMPI_Compare_and_swap;
extern __typeof__(MPI_Rput) PMPI_Rput;
extern __typeof__(MPI_Rget) PMPI_Rget;
extern __typeof__(MPI_Raccumulate) PMPI_Raccumulate;
extern __typeof__(MPI_Rget_accumulate) PMPI_Rget_accumulate;
extern __typeof__(MPI_Win_fence) PMPI_Win_fence;
extern __typeof__(MPI_Win_post) PMPI_Win_post;
extern __typeof__(MPI_Win_start) PMPI_Win_start;
extern __typeof__(MPI_Win_complete) PMPI_Win_complete;
extern __typeof__(MPI_Win_wait) PMPI_Win_wait;
extern __typeof__(MPI_Win_test) PMPI_Win_test;
extern __typeof__(MPI_Win_lock) PMPI_Win_lock;
extern __typeof__(MPI_Win_unlock) PMPI_Win_unlock;
extern __typeof__(MPI_Win_lock_all) PMPI_Win_lock_all;
extern __typeof__(MPI_Win_unlock_all) PMPI_Win_unlock_all;
extern __typeof__(MPI_Win_flush) PMPI_Win_flush;
extern __typeof__(MPI_Win_flush_all) PMPI_Win_flush_all;
extern __typeof__(MPI_Win_flush_local) PMPI_Win_flush_local;
extern __typeof__(MPI_Win_flush_local_all) PMPI_Win_flush_local_all;
extern __typeof__(MPI_Win_sync) PMPI_Win_sync;
extern __typeof__(MPI_File_open) PMPI_File_open;
extern __typeof__(MPI_File_close) PMPI_File_close;
extern __typeof__(MPI_File_delete) PMPI_File_delete;
extern __typeof__(MPI_File_set_size) PMPI_File_set_size;
extern __typeof__(MPI_File_preallocate) PMPI_File_preallocate;
extern __typeof__(MPI_File_get_size) PMPI_File_get_size;
extern __typeof__(MPI_File_get_group) PMPI_File_get_group;
extern __typeof__(MPI_File_get_amode) PMPI_File_get_amode;
extern __typeof__(MPI_File_set_info) PMPI_File_set_info;
extern __typeof__(MPI_File_get_info) PMPI_File_get_info;
extern __typeof__(MPI_File_sync) PMPI_File_sync;
extern __typeof__(MPI_File_set_atomicity) PMPI_File_set_atomicity;
extern __typeof__(MPI_File_get_atomicity) PMPI_File_get_atomicity;
extern __typeof__(MPI_File_set_view) PMPI_File_set_view;
extern __typeof__(MPI_File_get_view) PMPI_File_get_view;
extern __typeof__(MPI_File_read_at) PMPI_File_read_at;
extern __typeof__(MPI_File_read_at_all) PMPI_File_read_at_all;
extern __typeof__(MPI_File_write_at) PMPI_File_write_at;
extern __typeof__(MPI_File_write_at_all) PMPI_File_write_at_all;
extern __typeof__(MPI_File_iread_at) PMPI_File_iread_at;
extern __typeof__(MPI_File_iwrite_at) PMPI_File_iwrite_at;
extern __typeof__(MPI_File_read) PMPI_File_read;
extern __typeof__(MPI_File_read_all) PMPI_File_read_all;
extern __typeof__(MPI_File_write) PMPI_File_write;
extern __typeof__(MPI_File_write_all) PMPI_File_write_all;
extern __typeof__(MPI_File_iread) PMPI_File_iread;
extern __typeof__(MPI_File_iwrite) PMPI_File_iwrite;
extern __typeof__(MPI_File_seek) PMPI_File_seek;
extern __typeof__(MPI_File_get_position) PMPI_File_get_position;
extern __typeof__(MPI_File_get_byte_offset) PMPI_File_get_byte_offset;
extern __typeof__(MPI_File_read_shared) PMPI_File_read_shared;
extern __typeof__(MPI_File_write_shared) PMPI_File_write_shared;
extern __typeof__(MPI_File_iread_shared) PMPI_File_iread_shared;
extern __typeof__(MPI_File_iwrite_shared) PMPI_File_iwrite_shared;
extern __typeof__(MPI_File_read_ordered) PMPI_File_read_ordered;
extern __typeof__(MPI_File_write_ordered) PMPI_File_write_ordered;
extern __typeof__(MPI_File_seek_shared) PMPI_File_seek_shared;
extern __typeof__(MPI_File_get_position_shared) PMPI_File_get_position_shared;
extern __typeof__(MPI_File_iread_all) PMPI_File_iread_all;
extern __typeof__(MPI_File_iwrite_all) PMPI_File_iwrite_all;
extern __typeof__(MPI_File_iread_at_all) PMPI_File_iread_at_all;
extern __typeof__(MPI_File_iwrite_at_all) PMPI_File_iwrite_at_all;
extern __typeof__(MPI_File_read_all_begin) PMPI_File_read_all_begin;
extern __typeof__(MPI_File_read_all_end) PMPI_File_read_all_end;
extern __typeof__(MPI_File_write_all_begin) PMPI_File_write_all_begin;
extern __typeof__(MPI_File_write_all_end) PMPI_File_write_all_end;
extern __typeof__(MPI_File_read_at_all_begin) PMPI_File_read_at_all_begin;
extern __typeof__(MPI_File_read_at_all_end) PMPI_File_read_at_all_end;
extern __typeof__(MPI_File_write_at_all_begin) PMPI_File_write_at_all_begin;
extern __typeof__(MPI_File_write_at_all_end) PMPI_File_write_at_all_end;
extern __typeof__(MPI_File_read_ordered_begin) PMPI_File_read_ordered_begin;
extern __typeof__(MPI_File_read_ordered_end) PMPI_File_read_ordered_end;
extern __typeof__(MPI_File_write_ordered_begin) PMPI_File_write_ordered_begin;
extern __typeof__(MPI_File_write_ordered_end) PMPI_File_write_ordered_end;
extern __typeof__(MPI_File_get_type_extent) PMPI_File_get_type_extent;
extern __typeof__(MPI_File_set_errhandler) PMPI_File_set_errhandler;
extern __typeof__(MPI_File_get_errhandler) PMPI_File_get_errhandler;
extern __typeof__(MPI_File_call_errhandler) PMPI_File_call_errhandler;
extern __typeof__(MPI_Open_port) PMPI_Open_port;
extern __typeof__(MPI_Close_port) PMPI_Close_port;
extern __typeof__(MPI_Comm_accept) PMPI_Comm_accept;
extern __typeof__(MPI_Comm_connect) PMPI_Comm_connect;
extern __typeof__(MPI_Publish_name) PMPI_Publish_name;
extern __typeof__(MPI_Unpublish_name) PMPI_Unpublish_name;
extern __typeof__(MPI_Lookup_name) PMPI_Lookup_name;
extern __typeof__(MPI_File_f2c) PMPI_File_f2c;
extern __typeof__(MPI_File_c2f) PMPI_File_c2f;

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif
