/*
 * mpi.h of rockcreek's MPI library on the MPBs (librckmpi, docs/MPI.md):
 * the MPI-1 core and the parts of MPI-2/3 that benchmark suites use, over
 * the HAL with RCKMPI's channel protocols (sccmpb, sccmpb-ext).
 *
 * Handles are integers (as in MPICH). Compile programs with rckmpicc and
 * run them with `rck run -n N ./prog`. docs/MPI.md lists what is and is
 * not implemented; every function declared here is implemented.
 */
#ifndef RCKMPI_MPI_H
#define RCKMPI_MPI_H

/* only <stddef.h>: a program may include mpi.h before it defines
 * _GNU_SOURCE (or another feature macro) for the system headers it
 * includes next, and those must still see it (SKaMPI: O_DIRECT) */
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push(default)

/* 3.1: every function MPI-3.0 and 3.1 added is here; what is missing is
 * older (docs/MPI.md "Not implemented": MPI_Comm_spawn_multiple, complex
 * datatypes, user data representations, collectives on
 * intercommunicators, part of external32), so that programs that test
 * MPI_VERSION >= 3 find the MPI-3 calls they then use */
#define MPI_VERSION 3
#define MPI_SUBVERSION 1
#define RCKMPI 1

typedef int MPI_Comm;
typedef int MPI_Group;
typedef int MPI_Datatype;
typedef int MPI_Request;
typedef int MPI_Op;
typedef int MPI_Errhandler;
typedef int MPI_Info;
typedef int MPI_Message;
#ifdef __INTPTR_TYPE__
typedef __INTPTR_TYPE__ MPI_Aint; /* intptr_t, without <stdint.h> */
#else
typedef long MPI_Aint;
#endif
typedef long long MPI_Offset;
typedef long long MPI_Count;

typedef struct MPI_Status {
    int MPI_SOURCE;
    int MPI_TAG;
    int MPI_ERROR;
    int rck_cancelled;   /* private: MPI_Test_cancelled */
    long long rck_bytes; /* private: bytes received (MPI_Get_count) */
} MPI_Status;

/* ---- handles ---- */
#define MPI_COMM_NULL ((MPI_Comm)0)
#define MPI_COMM_WORLD ((MPI_Comm)1)
#define MPI_COMM_SELF ((MPI_Comm)2)
#define MPI_GROUP_NULL ((MPI_Group)0)
#define MPI_GROUP_EMPTY ((MPI_Group)1)
#define MPI_REQUEST_NULL ((MPI_Request)0)
#define MPI_ERRHANDLER_NULL ((MPI_Errhandler)0)
#define MPI_ERRORS_ARE_FATAL ((MPI_Errhandler)1)
#define MPI_ERRORS_RETURN ((MPI_Errhandler)2)
#define MPI_INFO_NULL ((MPI_Info)0)
#define MPI_MESSAGE_NULL ((MPI_Message)0)
#define MPI_MESSAGE_NO_PROC ((MPI_Message)-1)

/* ---- reduction operations (values fixed: the collectives rely on them) ---- */
#define MPI_OP_NULL ((MPI_Op)0)
#define MPI_MAX ((MPI_Op)1)
#define MPI_MIN ((MPI_Op)2)
#define MPI_SUM ((MPI_Op)3)
#define MPI_PROD ((MPI_Op)4)
#define MPI_LAND ((MPI_Op)5)
#define MPI_BAND ((MPI_Op)6)
#define MPI_LOR ((MPI_Op)7)
#define MPI_BOR ((MPI_Op)8)
#define MPI_LXOR ((MPI_Op)9)
#define MPI_BXOR ((MPI_Op)10)
#define MPI_MAXLOC ((MPI_Op)11)
#define MPI_MINLOC ((MPI_Op)12)
#define MPI_REPLACE ((MPI_Op)13)

/* ---- predefined datatypes ---- */
#define MPI_DATATYPE_NULL ((MPI_Datatype)0)
#define MPI_CHAR ((MPI_Datatype)1)
#define MPI_SIGNED_CHAR ((MPI_Datatype)2)
#define MPI_UNSIGNED_CHAR ((MPI_Datatype)3)
#define MPI_BYTE ((MPI_Datatype)4)
#define MPI_WCHAR ((MPI_Datatype)5)
#define MPI_SHORT ((MPI_Datatype)6)
#define MPI_UNSIGNED_SHORT ((MPI_Datatype)7)
#define MPI_INT ((MPI_Datatype)8)
#define MPI_UNSIGNED ((MPI_Datatype)9)
#define MPI_LONG ((MPI_Datatype)10)
#define MPI_UNSIGNED_LONG ((MPI_Datatype)11)
#define MPI_LONG_LONG_INT ((MPI_Datatype)12)
#define MPI_LONG_LONG MPI_LONG_LONG_INT
#define MPI_UNSIGNED_LONG_LONG ((MPI_Datatype)13)
#define MPI_FLOAT ((MPI_Datatype)14)
#define MPI_DOUBLE ((MPI_Datatype)15)
#define MPI_LONG_DOUBLE ((MPI_Datatype)16)
#define MPI_PACKED ((MPI_Datatype)17)
#define MPI_INT8_T ((MPI_Datatype)18)
#define MPI_INT16_T ((MPI_Datatype)19)
#define MPI_INT32_T ((MPI_Datatype)20)
#define MPI_INT64_T ((MPI_Datatype)21)
#define MPI_UINT8_T ((MPI_Datatype)22)
#define MPI_UINT16_T ((MPI_Datatype)23)
#define MPI_UINT32_T ((MPI_Datatype)24)
#define MPI_UINT64_T ((MPI_Datatype)25)
#define MPI_C_BOOL ((MPI_Datatype)26)
#define MPI_AINT ((MPI_Datatype)27)
#define MPI_OFFSET ((MPI_Datatype)28)
#define MPI_FLOAT_INT ((MPI_Datatype)29)
#define MPI_DOUBLE_INT ((MPI_Datatype)30)
#define MPI_LONG_INT ((MPI_Datatype)31)
#define MPI_2INT ((MPI_Datatype)32)
#define MPI_SHORT_INT ((MPI_Datatype)33)
#define MPI_LONG_DOUBLE_INT ((MPI_Datatype)34)
#define MPI_UB ((MPI_Datatype)35)
#define MPI_LB ((MPI_Datatype)36)
#define MPI_COUNT ((MPI_Datatype)37)
/* handles below this value are predefined */
#define RCKMPI_NPREDEFINED 38

/* ---- constants ---- */
#define MPI_SUCCESS 0
#define MPI_ERR_BUFFER 1
#define MPI_ERR_COUNT 2
#define MPI_ERR_TYPE 3
#define MPI_ERR_TAG 4
#define MPI_ERR_COMM 5
#define MPI_ERR_RANK 6
#define MPI_ERR_REQUEST 7
#define MPI_ERR_ROOT 8
#define MPI_ERR_GROUP 9
#define MPI_ERR_OP 10
#define MPI_ERR_TOPOLOGY 11
#define MPI_ERR_DIMS 12
#define MPI_ERR_ARG 13
#define MPI_ERR_UNKNOWN 14
#define MPI_ERR_TRUNCATE 15
#define MPI_ERR_OTHER 16
#define MPI_ERR_INTERN 17
#define MPI_ERR_IN_STATUS 18
#define MPI_ERR_PENDING 19
#define MPI_ERR_KEYVAL 20
#define MPI_ERR_NO_MEM 21
#define MPI_ERR_INFO 22
#define MPI_ERR_SPAWN 23
#define MPI_ERR_UNSUPPORTED_OPERATION 24
#define MPI_ERR_INFO_KEY 25
#define MPI_ERR_INFO_VALUE 26
#define MPI_ERR_INFO_NOKEY 27
/* the classes of the core are 0-27 (RCKMPI_ERR_CORE_LAST); those of
 * one-sided, MPI-IO and ports 50-79 (rckmpi_win_io.h): every class is at
 * most MPI_ERR_LASTCODE, as the standard requires */
#define RCKMPI_ERR_CORE_LAST 27
/* the tool interface's (MPI_T_*, returned by its calls, never raised):
 * 28-43 */
#define MPI_T_ERR_MEMORY 28
#define MPI_T_ERR_NOT_INITIALIZED 29
#define MPI_T_ERR_CANNOT_INIT 30
#define MPI_T_ERR_INVALID_INDEX 31
#define MPI_T_ERR_INVALID_ITEM 32
#define MPI_T_ERR_INVALID_HANDLE 33
#define MPI_T_ERR_OUT_OF_HANDLES 34
#define MPI_T_ERR_OUT_OF_SESSIONS 35
#define MPI_T_ERR_INVALID_SESSION 36
#define MPI_T_ERR_CVAR_SET_NOT_NOW 37
#define MPI_T_ERR_CVAR_SET_NEVER 38
#define MPI_T_ERR_PVAR_NO_STARTSTOP 39
#define MPI_T_ERR_PVAR_NO_WRITE 40
#define MPI_T_ERR_PVAR_NO_ATOMIC 41
#define MPI_T_ERR_INVALID_NAME 42
#define MPI_T_ERR_INVALID 43
#define RCKMPI_ERR_T_FIRST 28
#define RCKMPI_ERR_T_LAST 43
#define MPI_ERR_LASTCODE 79

#define MPI_ANY_SOURCE (-2)
#define MPI_ANY_TAG (-1)
#define MPI_PROC_NULL (-1)
#define MPI_ROOT (-3)
#define MPI_UNDEFINED (-32766)
#define MPI_BOTTOM ((void *)0)
#define MPI_IN_PLACE ((void *)-1)
#define MPI_STATUS_IGNORE ((MPI_Status *)1)
#define MPI_STATUSES_IGNORE ((MPI_Status *)1)
#define MPI_ERRCODES_IGNORE ((int *)0)
#define MPI_ARGV_NULL ((char **)0)
#define MPI_ARGVS_NULL ((char ***)0)

#define MPI_MAX_PROCESSOR_NAME 128
#define MPI_MAX_ERROR_STRING 512
#define MPI_MAX_OBJECT_NAME 128
#define MPI_MAX_LIBRARY_VERSION_STRING 256
#define MPI_BSEND_OVERHEAD 64

/* results of MPI_Comm_compare / MPI_Group_compare */
#define MPI_IDENT 0
#define MPI_CONGRUENT 1
#define MPI_SIMILAR 2
#define MPI_UNEQUAL 3

/* MPI_Comm_split_type: every process of a job is on one chip */
#define MPI_COMM_TYPE_SHARED 1

#define MPI_THREAD_SINGLE 0
#define MPI_THREAD_FUNNELED 1
#define MPI_THREAD_SERIALIZED 2
#define MPI_THREAD_MULTIPLE 3

/* predefined attribute keys (MPI_Comm_get_attr) */
#define MPI_KEYVAL_INVALID (-1)
#define MPI_TAG_UB 1
#define MPI_HOST 2
#define MPI_IO 3
#define MPI_WTIME_IS_GLOBAL 4
#define MPI_UNIVERSE_SIZE 5
#define MPI_LASTUSEDCODE 6 /* the largest error code, MPI_Add_error_* too */

/* datatype combiners (MPI_Type_get_envelope) */
#define MPI_COMBINER_NAMED 1
#define MPI_COMBINER_CONTIGUOUS 2
#define MPI_COMBINER_VECTOR 3
#define MPI_COMBINER_HVECTOR 4
#define MPI_COMBINER_INDEXED 5
#define MPI_COMBINER_HINDEXED 6
#define MPI_COMBINER_INDEXED_BLOCK 7
#define MPI_COMBINER_STRUCT 8
#define MPI_COMBINER_RESIZED 9
#define MPI_COMBINER_DUP 10
#define MPI_COMBINER_HINDEXED_BLOCK 11
#define MPI_COMBINER_SUBARRAY 12
#define MPI_COMBINER_DARRAY 13

/* MPI_Type_match_size's type classes */
#define MPI_TYPECLASS_REAL 1
#define MPI_TYPECLASS_INTEGER 2
#define MPI_TYPECLASS_COMPLEX 3

typedef void MPI_User_function(void *invec, void *inoutvec, int *len,
                               MPI_Datatype *datatype);
typedef void MPI_Comm_errhandler_function(MPI_Comm *comm, int *err, ...);

/* ---- environment ---- */
int MPI_Init(int *argc, char ***argv);
int MPI_Init_thread(int *argc, char ***argv, int required, int *provided);
int MPI_Finalize(void);
int MPI_Initialized(int *flag);
int MPI_Finalized(int *flag);
int MPI_Query_thread(int *provided);
int MPI_Is_thread_main(int *flag);
int MPI_Abort(MPI_Comm comm, int errorcode);
double MPI_Wtime(void);
double MPI_Wtick(void);
int MPI_Get_processor_name(char *name, int *resultlen);
int MPI_Get_version(int *version, int *subversion);
int MPI_Get_library_version(char *version, int *resultlen);
int MPI_Error_string(int errorcode, char *string, int *resultlen);
int MPI_Error_class(int errorcode, int *errorclass);
int MPI_Comm_create_errhandler(MPI_Comm_errhandler_function *function,
                               MPI_Errhandler *errhandler);
int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler);
int MPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler);
int MPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler);
int MPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *errhandler);
int MPI_Errhandler_free(MPI_Errhandler *errhandler);
int MPI_Comm_call_errhandler(MPI_Comm comm, int errorcode);
int MPI_Comm_get_attr(MPI_Comm comm, int keyval, void *attribute_val,
                      int *flag);
int MPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag);

/* ---- point-to-point ---- */
int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest,
             int tag, MPI_Comm comm);
int MPI_Ssend(const void *buf, int count, MPI_Datatype datatype, int dest,
              int tag, MPI_Comm comm);
int MPI_Rsend(const void *buf, int count, MPI_Datatype datatype, int dest,
              int tag, MPI_Comm comm);
int MPI_Bsend(const void *buf, int count, MPI_Datatype datatype, int dest,
              int tag, MPI_Comm comm);
int MPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag,
             MPI_Comm comm, MPI_Status *status);
int MPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest,
              int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Issend(const void *buf, int count, MPI_Datatype datatype, int dest,
               int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Irsend(const void *buf, int count, MPI_Datatype datatype, int dest,
               int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Ibsend(const void *buf, int count, MPI_Datatype datatype, int dest,
               int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source,
              int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                 int dest, int sendtag, void *recvbuf, int recvcount,
                 MPI_Datatype recvtype, int source, int recvtag,
                 MPI_Comm comm, MPI_Status *status);
int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype,
                         int dest, int sendtag, int source, int recvtag,
                         MPI_Comm comm, MPI_Status *status);
int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status);
int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag,
               MPI_Status *status);
int MPI_Improbe(int source, int tag, MPI_Comm comm, int *flag,
                MPI_Message *message, MPI_Status *status);
int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message,
               MPI_Status *status);
int MPI_Mrecv(void *buf, int count, MPI_Datatype datatype,
              MPI_Message *message, MPI_Status *status);
int MPI_Imrecv(void *buf, int count, MPI_Datatype datatype,
               MPI_Message *message, MPI_Request *request);
int MPI_Buffer_attach(void *buffer, int size);
int MPI_Buffer_detach(void *buffer_addr, int *size);
int MPI_Get_count(const MPI_Status *status, MPI_Datatype datatype,
                  int *count);
int MPI_Get_elements(const MPI_Status *status, MPI_Datatype datatype,
                     int *count);
int MPI_Wait(MPI_Request *request, MPI_Status *status);
int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status);
int MPI_Waitall(int count, MPI_Request requests[], MPI_Status *statuses);
int MPI_Testall(int count, MPI_Request requests[], int *flag,
                MPI_Status *statuses);
int MPI_Waitany(int count, MPI_Request requests[], int *index,
                MPI_Status *status);
int MPI_Testany(int count, MPI_Request requests[], int *index, int *flag,
                MPI_Status *status);
int MPI_Waitsome(int incount, MPI_Request requests[], int *outcount,
                 int indices[], MPI_Status *statuses);
int MPI_Testsome(int incount, MPI_Request requests[], int *outcount,
                 int indices[], MPI_Status *statuses);
int MPI_Request_free(MPI_Request *request);
int MPI_Request_get_status(MPI_Request request, int *flag,
                           MPI_Status *status);
int MPI_Cancel(MPI_Request *request);
int MPI_Test_cancelled(const MPI_Status *status, int *flag);
int MPI_Send_init(const void *buf, int count, MPI_Datatype datatype,
                  int dest, int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Ssend_init(const void *buf, int count, MPI_Datatype datatype,
                   int dest, int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Rsend_init(const void *buf, int count, MPI_Datatype datatype,
                   int dest, int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Recv_init(void *buf, int count, MPI_Datatype datatype, int source,
                  int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Start(MPI_Request *request);
int MPI_Startall(int count, MPI_Request requests[]);

/* ---- datatypes ---- */
int MPI_Type_contiguous(int count, MPI_Datatype oldtype,
                        MPI_Datatype *newtype);
int MPI_Type_vector(int count, int blocklength, int stride,
                    MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_hvector(int count, int blocklength, MPI_Aint stride,
                     MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride,
                            MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_indexed(int count, const int blocklengths[],
                     const int displacements[], MPI_Datatype oldtype,
                     MPI_Datatype *newtype);
int MPI_Type_hindexed(int count, const int blocklengths[],
                      const MPI_Aint displacements[], MPI_Datatype oldtype,
                      MPI_Datatype *newtype);
int MPI_Type_create_hindexed(int count, const int blocklengths[],
                             const MPI_Aint displacements[],
                             MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_create_indexed_block(int count, int blocklength,
                                  const int displacements[],
                                  MPI_Datatype oldtype,
                                  MPI_Datatype *newtype);
int MPI_Type_struct(int count, const int blocklengths[],
                    const MPI_Aint displacements[],
                    const MPI_Datatype types[], MPI_Datatype *newtype);
int MPI_Type_create_struct(int count, const int blocklengths[],
                           const MPI_Aint displacements[],
                           const MPI_Datatype types[],
                           MPI_Datatype *newtype);
int MPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb,
                            MPI_Aint extent, MPI_Datatype *newtype);
int MPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_commit(MPI_Datatype *datatype);
int MPI_Type_free(MPI_Datatype *datatype);
int MPI_Type_size(MPI_Datatype datatype, int *size);
int MPI_Type_extent(MPI_Datatype datatype, MPI_Aint *extent);
int MPI_Type_lb(MPI_Datatype datatype, MPI_Aint *displacement);
int MPI_Type_ub(MPI_Datatype datatype, MPI_Aint *displacement);
int MPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint *lb,
                        MPI_Aint *extent);
int MPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint *true_lb,
                             MPI_Aint *true_extent);
int MPI_Get_address(const void *location, MPI_Aint *address);
int MPI_Address(void *location, MPI_Aint *address);
int MPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype,
             void *outbuf, int outsize, int *position, MPI_Comm comm);
int MPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf,
               int outcount, MPI_Datatype datatype, MPI_Comm comm);
int MPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm,
                  int *size);
int MPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr);
int MPI_Free_mem(void *base);

/* ---- groups ---- */
int MPI_Comm_group(MPI_Comm comm, MPI_Group *group);
int MPI_Group_size(MPI_Group group, int *size);
int MPI_Group_rank(MPI_Group group, int *rank);
int MPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[],
                              MPI_Group group2, int ranks2[]);
int MPI_Group_compare(MPI_Group group1, MPI_Group group2, int *result);
int MPI_Group_union(MPI_Group group1, MPI_Group group2,
                    MPI_Group *newgroup);
int MPI_Group_intersection(MPI_Group group1, MPI_Group group2,
                           MPI_Group *newgroup);
int MPI_Group_difference(MPI_Group group1, MPI_Group group2,
                         MPI_Group *newgroup);
int MPI_Group_incl(MPI_Group group, int n, const int ranks[],
                   MPI_Group *newgroup);
int MPI_Group_excl(MPI_Group group, int n, const int ranks[],
                   MPI_Group *newgroup);
int MPI_Group_range_incl(MPI_Group group, int n, int ranges[][3],
                         MPI_Group *newgroup);
int MPI_Group_range_excl(MPI_Group group, int n, int ranges[][3],
                         MPI_Group *newgroup);
int MPI_Group_free(MPI_Group *group);

/* ---- communicators ---- */
int MPI_Comm_size(MPI_Comm comm, int *size);
int MPI_Comm_rank(MPI_Comm comm, int *rank);
int MPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result);
int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm);
int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm);
int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag,
                          MPI_Comm *newcomm);
int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm);
int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key,
                        MPI_Info info, MPI_Comm *newcomm);
int MPI_Comm_free(MPI_Comm *comm);
int MPI_Comm_test_inter(MPI_Comm comm, int *flag);
int MPI_Comm_remote_size(MPI_Comm comm, int *size);
int MPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group);
int MPI_Intercomm_create(MPI_Comm local_comm, int local_leader,
                         MPI_Comm peer_comm, int remote_leader, int tag,
                         MPI_Comm *newintercomm);
int MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newcomm);

/* dynamic processes (docs/MPI.md): programs start on the job's dormant
 * UEs (rck run --universe U) */
#define MPI_ARGV_NULL ((char **)0)
#define MPI_ERRCODES_IGNORE ((int *)0)
int MPI_Comm_spawn(const char *command, char *argv[], int maxprocs,
                   MPI_Info info, int root, MPI_Comm comm,
                   MPI_Comm *intercomm, int array_of_errcodes[]);
int MPI_Comm_get_parent(MPI_Comm *parent);
int MPI_Comm_disconnect(MPI_Comm *comm);
int MPI_Comm_set_name(MPI_Comm comm, const char *name);
int MPI_Comm_get_name(MPI_Comm comm, char *name, int *resultlen);

/* ---- collectives (mpicoll) ---- */
int MPI_Barrier(MPI_Comm comm);
int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root,
              MPI_Comm comm);
int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
               void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
               MPI_Comm comm);
int MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                void *recvbuf, const int recvcounts[], const int displs[],
                MPI_Datatype recvtype, int root, MPI_Comm comm);
int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                void *recvbuf, int recvcount, MPI_Datatype recvtype,
                int root, MPI_Comm comm);
int MPI_Scatterv(const void *sendbuf, const int sendcounts[],
                 const int displs[], MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root,
                 MPI_Comm comm);
int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                  void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  MPI_Comm comm);
int MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                   void *recvbuf, const int recvcounts[], const int displs[],
                   MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                 void *recvbuf, int recvcount, MPI_Datatype recvtype,
                 MPI_Comm comm);
int MPI_Alltoallv(const void *sendbuf, const int sendcounts[],
                  const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                  const int recvcounts[], const int rdispls[],
                  MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Alltoallw(const void *sendbuf, const int sendcounts[],
                  const int sdispls[], const MPI_Datatype sendtypes[],
                  void *recvbuf, const int recvcounts[], const int rdispls[],
                  const MPI_Datatype recvtypes[], MPI_Comm comm);
int MPI_Reduce(const void *sendbuf, void *recvbuf, int count,
               MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm);
int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count,
                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int MPI_Reduce_local(const void *inbuf, void *inoutbuf, int count,
                     MPI_Datatype datatype, MPI_Op op);
int MPI_Reduce_scatter(const void *sendbuf, void *recvbuf,
                       const int recvcounts[], MPI_Datatype datatype,
                       MPI_Op op, MPI_Comm comm);
int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf,
                             int recvcount, MPI_Datatype datatype, MPI_Op op,
                             MPI_Comm comm);
int MPI_Scan(const void *sendbuf, void *recvbuf, int count,
             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int MPI_Exscan(const void *sendbuf, void *recvbuf, int count,
               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int MPI_Ibarrier(MPI_Comm comm, MPI_Request *request);
int MPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root,
               MPI_Comm comm, MPI_Request *request);
int MPI_Iallreduce(const void *sendbuf, void *recvbuf, int count,
                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                   MPI_Request *request);
int MPI_Op_create(MPI_User_function *function, int commute, MPI_Op *op);
int MPI_Op_free(MPI_Op *op);
int MPI_Op_commutative(MPI_Op op, int *commute);

/* ---- process topologies (docs/MPI.md, "Topologies") ---- */
#define MPI_GRAPH 1
#define MPI_CART 2
#define MPI_DIST_GRAPH 3
#define MPI_UNWEIGHTED ((int *)0)
#define MPI_WEIGHTS_EMPTY ((int *)1)
int MPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[],
                    const int periods[], int reorder, MPI_Comm *comm_cart);
int MPI_Cartdim_get(MPI_Comm comm, int *ndims);
int MPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[],
                 int coords[]);
int MPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank);
int MPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[]);
int MPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *rank_source,
                   int *rank_dest);
int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm);
int MPI_Cart_map(MPI_Comm comm, int ndims, const int dims[],
                 const int periods[], int *newrank);
int MPI_Dims_create(int nnodes, int ndims, int dims[]);
int MPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[],
                     const int edges[], int reorder, MPI_Comm *comm_graph);
int MPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges);
int MPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[],
                  int edges[]);
int MPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors);
int MPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors,
                        int neighbors[]);
int MPI_Graph_map(MPI_Comm comm, int nnodes, const int index[],
                  const int edges[], int *newrank);
int MPI_Topo_test(MPI_Comm comm, int *status);
int MPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree,
                                   const int sources[],
                                   const int sourceweights[], int outdegree,
                                   const int destinations[],
                                   const int destweights[], MPI_Info info,
                                   int reorder, MPI_Comm *comm_dist_graph);
int MPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[],
                          const int degrees[], const int destinations[],
                          const int weights[], MPI_Info info, int reorder,
                          MPI_Comm *comm_dist_graph);
int MPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree,
                                   int *outdegree, int *weighted);
int MPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[],
                             int sourceweights[], int maxoutdegree,
                             int destinations[], int destweights[]);

/* ---- attribute caching (docs/MPI.md, "Attributes") ---- */
typedef int MPI_Comm_copy_attr_function(MPI_Comm oldcomm, int comm_keyval,
                                        void *extra_state,
                                        void *attribute_val_in,
                                        void *attribute_val_out, int *flag);
typedef int MPI_Comm_delete_attr_function(MPI_Comm comm, int comm_keyval,
                                          void *attribute_val,
                                          void *extra_state);
typedef MPI_Comm_copy_attr_function MPI_Copy_function;     /* MPI-1 */
typedef MPI_Comm_delete_attr_function MPI_Delete_function; /* MPI-1 */
/* copies the attribute's value (MPI_COMM_DUP_FN, MPI_DUP_FN) */
int rckmpi_comm_dup_fn(MPI_Comm oldcomm, int comm_keyval, void *extra_state,
                       void *attribute_val_in, void *attribute_val_out,
                       int *flag);
#define MPI_COMM_NULL_COPY_FN ((MPI_Comm_copy_attr_function *)0)
#define MPI_COMM_NULL_DELETE_FN ((MPI_Comm_delete_attr_function *)0)
#define MPI_COMM_DUP_FN rckmpi_comm_dup_fn
#define MPI_NULL_COPY_FN MPI_COMM_NULL_COPY_FN
#define MPI_NULL_DELETE_FN MPI_COMM_NULL_DELETE_FN
#define MPI_DUP_FN rckmpi_comm_dup_fn
int MPI_Comm_create_keyval(MPI_Comm_copy_attr_function *comm_copy_attr_fn,
                           MPI_Comm_delete_attr_function *comm_delete_attr_fn,
                           int *comm_keyval, void *extra_state);
int MPI_Comm_free_keyval(int *comm_keyval);
int MPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void *attribute_val);
int MPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval);
int MPI_Keyval_create(MPI_Copy_function *copy_fn,
                      MPI_Delete_function *delete_fn, int *keyval,
                      void *extra_state);
int MPI_Keyval_free(int *keyval);
int MPI_Attr_put(MPI_Comm comm, int keyval, void *attribute_val);
int MPI_Attr_delete(MPI_Comm comm, int keyval);

/* ---- info objects (docs/MPI.md, "Info") ---- */
#define MPI_INFO_ENV ((MPI_Info)1)
#define MPI_MAX_INFO_KEY 255
#define MPI_MAX_INFO_VAL 1024
int MPI_Info_create(MPI_Info *info);
int MPI_Info_set(MPI_Info info, const char *key, const char *value);
int MPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value,
                 int *flag);
int MPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen,
                          int *flag);
int MPI_Info_get_nkeys(MPI_Info info, int *nkeys);
int MPI_Info_get_nthkey(MPI_Info info, int n, char *key);
int MPI_Info_delete(MPI_Info info, const char *key);
int MPI_Info_dup(MPI_Info info, MPI_Info *newinfo);
int MPI_Info_free(MPI_Info *info);

/* ---- the rest of MPI-1 ---- */
typedef MPI_Comm_errhandler_function MPI_Handler_function; /* MPI-1 */
int MPI_Errhandler_create(MPI_Handler_function *function,
                          MPI_Errhandler *errhandler);
int MPI_Bsend_init(const void *buf, int count, MPI_Datatype datatype,
                   int dest, int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Pcontrol(const int level, ...);

/* ---- the rest of MPI-3's non-blocking collectives (docs/MPI-COLLECTIVES.md) ---- */
int MPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                MPI_Comm comm, MPI_Request *request);
int MPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                 void *recvbuf, const int recvcounts[], const int displs[],
                 MPI_Datatype recvtype, int root, MPI_Comm comm,
                 MPI_Request *request);
int MPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                 void *recvbuf, int recvcount, MPI_Datatype recvtype,
                 int root, MPI_Comm comm, MPI_Request *request);
int MPI_Iscatterv(const void *sendbuf, const int sendcounts[],
                  const int displs[], MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, int root,
                  MPI_Comm comm, MPI_Request *request);
int MPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                   void *recvbuf, int recvcount, MPI_Datatype recvtype,
                   MPI_Comm comm, MPI_Request *request);
int MPI_Iallgatherv(const void *sendbuf, int sendcount,
                    MPI_Datatype sendtype, void *recvbuf,
                    const int recvcounts[], const int displs[],
                    MPI_Datatype recvtype, MPI_Comm comm,
                    MPI_Request *request);
int MPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                  void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  MPI_Comm comm, MPI_Request *request);
int MPI_Ialltoallv(const void *sendbuf, const int sendcounts[],
                   const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                   const int recvcounts[], const int rdispls[],
                   MPI_Datatype recvtype, MPI_Comm comm,
                   MPI_Request *request);
int MPI_Ialltoallw(const void *sendbuf, const int sendcounts[],
                   const int sdispls[], const MPI_Datatype sendtypes[],
                   void *recvbuf, const int recvcounts[], const int rdispls[],
                   const MPI_Datatype recvtypes[], MPI_Comm comm,
                   MPI_Request *request);
int MPI_Ireduce(const void *sendbuf, void *recvbuf, int count,
                MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                MPI_Request *request);
int MPI_Ireduce_scatter(const void *sendbuf, void *recvbuf,
                        const int recvcounts[], MPI_Datatype datatype,
                        MPI_Op op, MPI_Comm comm, MPI_Request *request);
int MPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf,
                              int recvcount, MPI_Datatype datatype,
                              MPI_Op op, MPI_Comm comm, MPI_Request *request);
int MPI_Iscan(const void *sendbuf, void *recvbuf, int count,
              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
              MPI_Request *request);
int MPI_Iexscan(const void *sendbuf, void *recvbuf, int count,
                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                MPI_Request *request);

/* ---- distributed arrays (docs/MPI.md, "Datatypes") ---- */
#define MPI_ORDER_C 56
#define MPI_ORDER_FORTRAN 57
#define MPI_DISTRIBUTE_BLOCK 121
#define MPI_DISTRIBUTE_CYCLIC 122
#define MPI_DISTRIBUTE_NONE 123
#define MPI_DISTRIBUTE_DFLT_DARG (-49767)
int MPI_Type_create_subarray(int ndims, const int array_of_sizes[],
                             const int array_of_subsizes[],
                             const int array_of_starts[], int order,
                             MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_create_darray(int size, int rank, int ndims,
                           const int array_of_gsizes[],
                           const int array_of_distribs[],
                           const int array_of_dargs[],
                           const int array_of_psizes[], int order,
                           MPI_Datatype oldtype, MPI_Datatype *newtype);

/* ---- neighbourhood collectives on the topologies (MPI-3) ---- */
int MPI_Neighbor_allgather(const void *sendbuf, int sendcount,
                           MPI_Datatype sendtype, void *recvbuf,
                           int recvcount, MPI_Datatype recvtype,
                           MPI_Comm comm);
int MPI_Neighbor_allgatherv(const void *sendbuf, int sendcount,
                            MPI_Datatype sendtype, void *recvbuf,
                            const int recvcounts[], const int displs[],
                            MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Neighbor_alltoall(const void *sendbuf, int sendcount,
                          MPI_Datatype sendtype, void *recvbuf, int recvcount,
                          MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[],
                           const int sdispls[], MPI_Datatype sendtype,
                           void *recvbuf, const int recvcounts[],
                           const int rdispls[], MPI_Datatype recvtype,
                           MPI_Comm comm);
int MPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[],
                           const MPI_Aint sdispls[],
                           const MPI_Datatype sendtypes[], void *recvbuf,
                           const int recvcounts[], const MPI_Aint rdispls[],
                           const MPI_Datatype recvtypes[], MPI_Comm comm);
int MPI_Ineighbor_allgather(const void *sendbuf, int sendcount,
                            MPI_Datatype sendtype, void *recvbuf,
                            int recvcount, MPI_Datatype recvtype,
                            MPI_Comm comm, MPI_Request *request);
int MPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount,
                             MPI_Datatype sendtype, void *recvbuf,
                             const int recvcounts[], const int displs[],
                             MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request *request);
int MPI_Ineighbor_alltoall(const void *sendbuf, int sendcount,
                           MPI_Datatype sendtype, void *recvbuf,
                           int recvcount, MPI_Datatype recvtype,
                           MPI_Comm comm, MPI_Request *request);
int MPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[],
                            const int sdispls[], MPI_Datatype sendtype,
                            void *recvbuf, const int recvcounts[],
                            const int rdispls[], MPI_Datatype recvtype,
                            MPI_Comm comm, MPI_Request *request);
int MPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[],
                            const MPI_Aint sdispls[],
                            const MPI_Datatype sendtypes[], void *recvbuf,
                            const int recvcounts[], const MPI_Aint rdispls[],
                            const MPI_Datatype recvtypes[], MPI_Comm comm,
                            MPI_Request *request);

/* ---- MPI-3.x additions (mpi3.c; docs/MPI.md "MPI-3.1") ---- */
MPI_Aint MPI_Aint_add(MPI_Aint base, MPI_Aint disp);
MPI_Aint MPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2);
int MPI_Type_size_x(MPI_Datatype datatype, MPI_Count *size);
int MPI_Get_elements_x(const MPI_Status *status, MPI_Datatype datatype,
                       MPI_Count *count);
int MPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count *lb,
                          MPI_Count *extent);
int MPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count *true_lb,
                               MPI_Count *true_extent);
int MPI_Status_set_elements(MPI_Status *status, MPI_Datatype datatype,
                            int count);
int MPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype datatype,
                              MPI_Count count);
int MPI_Type_create_hindexed_block(int count, int blocklength,
                                   const MPI_Aint array_of_displacements[],
                                   MPI_Datatype oldtype,
                                   MPI_Datatype *newtype);
int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm);
int MPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request);
int MPI_Comm_set_info(MPI_Comm comm, MPI_Info info);
int MPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used);
int MPI_Add_error_class(int *errorclass);
int MPI_Add_error_code(int errorclass, int *errorcode);
int MPI_Add_error_string(int errorcode, const char *string);
int MPI_Type_set_name(MPI_Datatype datatype, const char *type_name);
int MPI_Type_get_name(MPI_Datatype datatype, char *type_name, int *resultlen);
int MPI_Type_match_size(int typeclass, int size, MPI_Datatype *datatype);
int MPI_Type_get_envelope(MPI_Datatype datatype, int *num_integers,
                          int *num_addresses, int *num_datatypes,
                          int *combiner);
int MPI_Type_get_contents(MPI_Datatype datatype, int max_integers,
                          int max_addresses, int max_datatypes,
                          int array_of_integers[],
                          MPI_Aint array_of_addresses[],
                          MPI_Datatype array_of_datatypes[]);
typedef int MPI_Type_copy_attr_function(MPI_Datatype oldtype, int type_keyval,
                                        void *extra_state,
                                        void *attribute_val_in,
                                        void *attribute_val_out, int *flag);
typedef int MPI_Type_delete_attr_function(MPI_Datatype datatype,
                                          int type_keyval,
                                          void *attribute_val,
                                          void *extra_state);
/* copies the attribute's value (MPI_TYPE_DUP_FN) */
int rckmpi_type_dup_fn(MPI_Datatype oldtype, int type_keyval,
                       void *extra_state, void *attribute_val_in,
                       void *attribute_val_out, int *flag);
#define MPI_TYPE_NULL_COPY_FN ((MPI_Type_copy_attr_function *)0)
#define MPI_TYPE_NULL_DELETE_FN ((MPI_Type_delete_attr_function *)0)
#define MPI_TYPE_DUP_FN rckmpi_type_dup_fn
int MPI_Type_create_keyval(MPI_Type_copy_attr_function *type_copy_attr_fn,
                           MPI_Type_delete_attr_function *type_delete_attr_fn,
                           int *type_keyval, void *extra_state);
int MPI_Type_free_keyval(int *type_keyval);
int MPI_Type_set_attr(MPI_Datatype datatype, int type_keyval,
                      void *attribute_val);
int MPI_Type_get_attr(MPI_Datatype datatype, int type_keyval,
                      void *attribute_val, int *flag);
int MPI_Type_delete_attr(MPI_Datatype datatype, int type_keyval);
typedef int MPI_Grequest_query_function(void *extra_state,
                                        MPI_Status *status);
typedef int MPI_Grequest_free_function(void *extra_state);
typedef int MPI_Grequest_cancel_function(void *extra_state, int complete);
int MPI_Grequest_start(MPI_Grequest_query_function *query_fn,
                       MPI_Grequest_free_function *free_fn,
                       MPI_Grequest_cancel_function *cancel_fn,
                       void *extra_state, MPI_Request *request);
int MPI_Grequest_complete(MPI_Request request);
int MPI_Status_set_cancelled(MPI_Status *status, int flag);
/* canonical packing (MPI-3.1 4.3): datarep "external32" only */
int MPI_Pack_external(const char datarep[], const void *inbuf, int incount,
                      MPI_Datatype datatype, void *outbuf, MPI_Aint outsize,
                      MPI_Aint *position);
int MPI_Unpack_external(const char datarep[], const void *inbuf,
                        MPI_Aint insize, MPI_Aint *position, void *outbuf,
                        int outcount, MPI_Datatype datatype);
int MPI_Pack_external_size(const char datarep[], int incount,
                           MPI_Datatype datatype, MPI_Aint *size);

/* ---- the tool interface (MPI-3.1 14.3; mpit.c): this library exposes no
 * control or performance variables and no categories ---- */
typedef int MPI_T_enum;
typedef int MPI_T_cvar_handle;
typedef int MPI_T_pvar_handle;
typedef int MPI_T_pvar_session;
#define MPI_T_ENUM_NULL ((MPI_T_enum)0)
#define MPI_T_CVAR_HANDLE_NULL ((MPI_T_cvar_handle)0)
#define MPI_T_PVAR_HANDLE_NULL ((MPI_T_pvar_handle)0)
#define MPI_T_PVAR_ALL_HANDLES ((MPI_T_pvar_handle)-1)
#define MPI_T_PVAR_SESSION_NULL ((MPI_T_pvar_session)0)
#define MPI_T_VERBOSITY_USER_BASIC 1
#define MPI_T_VERBOSITY_USER_DETAIL 2
#define MPI_T_VERBOSITY_USER_ALL 3
#define MPI_T_VERBOSITY_TUNER_BASIC 4
#define MPI_T_VERBOSITY_TUNER_DETAIL 5
#define MPI_T_VERBOSITY_TUNER_ALL 6
#define MPI_T_VERBOSITY_MPIDEV_BASIC 7
#define MPI_T_VERBOSITY_MPIDEV_DETAIL 8
#define MPI_T_VERBOSITY_MPIDEV_ALL 9
#define MPI_T_BIND_NO_OBJECT 1
#define MPI_T_BIND_MPI_COMM 2
#define MPI_T_BIND_MPI_DATATYPE 3
#define MPI_T_BIND_MPI_ERRHANDLER 4
#define MPI_T_BIND_MPI_FILE 5
#define MPI_T_BIND_MPI_GROUP 6
#define MPI_T_BIND_MPI_OP 7
#define MPI_T_BIND_MPI_REQUEST 8
#define MPI_T_BIND_MPI_WIN 9
#define MPI_T_BIND_MPI_MESSAGE 10
#define MPI_T_BIND_MPI_INFO 11
#define MPI_T_SCOPE_CONSTANT 1
#define MPI_T_SCOPE_READONLY 2
#define MPI_T_SCOPE_LOCAL 3
#define MPI_T_SCOPE_GROUP 4
#define MPI_T_SCOPE_GROUP_EQ 5
#define MPI_T_SCOPE_ALL 6
#define MPI_T_SCOPE_ALL_EQ 7
#define MPI_T_PVAR_CLASS_STATE 1
#define MPI_T_PVAR_CLASS_LEVEL 2
#define MPI_T_PVAR_CLASS_SIZE 3
#define MPI_T_PVAR_CLASS_PERCENTAGE 4
#define MPI_T_PVAR_CLASS_HIGHWATERMARK 5
#define MPI_T_PVAR_CLASS_LOWWATERMARK 6
#define MPI_T_PVAR_CLASS_COUNTER 7
#define MPI_T_PVAR_CLASS_AGGREGATE 8
#define MPI_T_PVAR_CLASS_TIMER 9
#define MPI_T_PVAR_CLASS_GENERIC 10
int MPI_T_init_thread(int required, int *provided);
int MPI_T_finalize(void);
int MPI_T_enum_get_info(MPI_T_enum enumtype, int *num, char *name,
                        int *name_len);
int MPI_T_enum_get_item(MPI_T_enum enumtype, int index, int *value,
                        char *name, int *name_len);
int MPI_T_cvar_get_num(int *num_cvar);
int MPI_T_cvar_get_info(int cvar_index, char *name, int *name_len,
                        int *verbosity, MPI_Datatype *datatype,
                        MPI_T_enum *enumtype, char *desc, int *desc_len,
                        int *bind, int *scope);
int MPI_T_cvar_get_index(const char *name, int *cvar_index);
int MPI_T_cvar_handle_alloc(int cvar_index, void *obj_handle,
                            MPI_T_cvar_handle *handle, int *count);
int MPI_T_cvar_handle_free(MPI_T_cvar_handle *handle);
int MPI_T_cvar_read(MPI_T_cvar_handle handle, void *buf);
int MPI_T_cvar_write(MPI_T_cvar_handle handle, const void *buf);
int MPI_T_pvar_get_num(int *num_pvar);
int MPI_T_pvar_get_info(int pvar_index, char *name, int *name_len,
                        int *verbosity, int *var_class,
                        MPI_Datatype *datatype, MPI_T_enum *enumtype,
                        char *desc, int *desc_len, int *bind, int *readonly,
                        int *continuous, int *atomic);
int MPI_T_pvar_get_index(const char *name, int var_class, int *pvar_index);
int MPI_T_pvar_session_create(MPI_T_pvar_session *session);
int MPI_T_pvar_session_free(MPI_T_pvar_session *session);
int MPI_T_pvar_handle_alloc(MPI_T_pvar_session session, int pvar_index,
                            void *obj_handle, MPI_T_pvar_handle *handle,
                            int *count);
int MPI_T_pvar_handle_free(MPI_T_pvar_session session,
                           MPI_T_pvar_handle *handle);
int MPI_T_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle);
int MPI_T_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle);
int MPI_T_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle,
                    void *buf);
int MPI_T_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle,
                     const void *buf);
int MPI_T_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle);
int MPI_T_pvar_readreset(MPI_T_pvar_session session,
                         MPI_T_pvar_handle handle, void *buf);
int MPI_T_category_get_num(int *num_cat);
int MPI_T_category_get_info(int cat_index, char *name, int *name_len,
                            char *desc, int *desc_len, int *num_cvars,
                            int *num_pvars, int *num_categories);
int MPI_T_category_get_index(const char *name, int *cat_index);
int MPI_T_category_get_cvars(int cat_index, int len, int indices[]);
int MPI_T_category_get_pvars(int cat_index, int len, int indices[]);
int MPI_T_category_get_categories(int cat_index, int len, int indices[]);
int MPI_T_category_changed(int *stamp);


/* ---- profiling interface (MPI-3.1 chapter 14; docs/MPI.md) ----
 * Every MPI_Xxx above has its PMPI_Xxx of the same type: librckmpi defines
 * PMPI_Xxx and makes MPI_Xxx a weak alias of it, so that a tool that
 * defines MPI_Xxx (and calls PMPI_Xxx) replaces it when linked first. */
extern __typeof__(MPI_Init) PMPI_Init;
extern __typeof__(MPI_Init_thread) PMPI_Init_thread;
extern __typeof__(MPI_Finalize) PMPI_Finalize;
extern __typeof__(MPI_Initialized) PMPI_Initialized;
extern __typeof__(MPI_Finalized) PMPI_Finalized;
extern __typeof__(MPI_Query_thread) PMPI_Query_thread;
extern __typeof__(MPI_Is_thread_main) PMPI_Is_thread_main;
extern __typeof__(MPI_Abort) PMPI_Abort;
extern __typeof__(MPI_Wtime) PMPI_Wtime;
extern __typeof__(MPI_Wtick) PMPI_Wtick;
extern __typeof__(MPI_Get_processor_name) PMPI_Get_processor_name;
extern __typeof__(MPI_Get_version) PMPI_Get_version;
extern __typeof__(MPI_Get_library_version) PMPI_Get_library_version;
extern __typeof__(MPI_Error_string) PMPI_Error_string;
extern __typeof__(MPI_Error_class) PMPI_Error_class;
extern __typeof__(MPI_Comm_create_errhandler) PMPI_Comm_create_errhandler;
extern __typeof__(MPI_Comm_set_errhandler) PMPI_Comm_set_errhandler;
extern __typeof__(MPI_Comm_get_errhandler) PMPI_Comm_get_errhandler;
extern __typeof__(MPI_Errhandler_set) PMPI_Errhandler_set;
extern __typeof__(MPI_Errhandler_get) PMPI_Errhandler_get;
extern __typeof__(MPI_Errhandler_free) PMPI_Errhandler_free;
extern __typeof__(MPI_Comm_call_errhandler) PMPI_Comm_call_errhandler;
extern __typeof__(MPI_Comm_get_attr) PMPI_Comm_get_attr;
extern __typeof__(MPI_Attr_get) PMPI_Attr_get;
extern __typeof__(MPI_Send) PMPI_Send;
extern __typeof__(MPI_Ssend) PMPI_Ssend;
extern __typeof__(MPI_Rsend) PMPI_Rsend;
extern __typeof__(MPI_Bsend) PMPI_Bsend;
extern __typeof__(MPI_Recv) PMPI_Recv;
extern __typeof__(MPI_Isend) PMPI_Isend;
extern __typeof__(MPI_Issend) PMPI_Issend;
extern __typeof__(MPI_Irsend) PMPI_Irsend;
extern __typeof__(MPI_Ibsend) PMPI_Ibsend;
extern __typeof__(MPI_Irecv) PMPI_Irecv;
extern __typeof__(MPI_Sendrecv) PMPI_Sendrecv;
extern __typeof__(MPI_Sendrecv_replace) PMPI_Sendrecv_replace;
extern __typeof__(MPI_Probe) PMPI_Probe;
extern __typeof__(MPI_Iprobe) PMPI_Iprobe;
extern __typeof__(MPI_Improbe) PMPI_Improbe;
extern __typeof__(MPI_Mprobe) PMPI_Mprobe;
extern __typeof__(MPI_Mrecv) PMPI_Mrecv;
extern __typeof__(MPI_Imrecv) PMPI_Imrecv;
extern __typeof__(MPI_Buffer_attach) PMPI_Buffer_attach;
extern __typeof__(MPI_Buffer_detach) PMPI_Buffer_detach;
extern __typeof__(MPI_Get_count) PMPI_Get_count;
extern __typeof__(MPI_Get_elements) PMPI_Get_elements;
extern __typeof__(MPI_Wait) PMPI_Wait;
extern __typeof__(MPI_Test) PMPI_Test;
extern __typeof__(MPI_Waitall) PMPI_Waitall;
extern __typeof__(MPI_Testall) PMPI_Testall;
extern __typeof__(MPI_Waitany) PMPI_Waitany;
extern __typeof__(MPI_Testany) PMPI_Testany;
extern __typeof__(MPI_Waitsome) PMPI_Waitsome;
extern __typeof__(MPI_Testsome) PMPI_Testsome;
extern __typeof__(MPI_Request_free) PMPI_Request_free;
extern __typeof__(MPI_Request_get_status) PMPI_Request_get_status;
extern __typeof__(MPI_Cancel) PMPI_Cancel;
extern __typeof__(MPI_Test_cancelled) PMPI_Test_cancelled;
extern __typeof__(MPI_Send_init) PMPI_Send_init;
extern __typeof__(MPI_Ssend_init) PMPI_Ssend_init;
extern __typeof__(MPI_Rsend_init) PMPI_Rsend_init;
extern __typeof__(MPI_Recv_init) PMPI_Recv_init;
extern __typeof__(MPI_Start) PMPI_Start;
extern __typeof__(MPI_Startall) PMPI_Startall;
extern __typeof__(MPI_Type_contiguous) PMPI_Type_contiguous;
extern __typeof__(MPI_Type_vector) PMPI_Type_vector;
extern __typeof__(MPI_Type_hvector) PMPI_Type_hvector;
extern __typeof__(MPI_Type_create_hvector) PMPI_Type_create_hvector;
extern __typeof__(MPI_Type_indexed) PMPI_Type_indexed;
extern __typeof__(MPI_Type_hindexed) PMPI_Type_hindexed;
extern __typeof__(MPI_Type_create_hindexed) PMPI_Type_create_hindexed;
extern __typeof__(MPI_Type_create_indexed_block) PMPI_Type_create_indexed_block;
extern __typeof__(MPI_Type_struct) PMPI_Type_struct;
extern __typeof__(MPI_Type_create_struct) PMPI_Type_create_struct;
extern __typeof__(MPI_Type_create_resized) PMPI_Type_create_resized;
extern __typeof__(MPI_Type_dup) PMPI_Type_dup;
extern __typeof__(MPI_Type_commit) PMPI_Type_commit;
extern __typeof__(MPI_Type_free) PMPI_Type_free;
extern __typeof__(MPI_Type_size) PMPI_Type_size;
extern __typeof__(MPI_Type_extent) PMPI_Type_extent;
extern __typeof__(MPI_Type_lb) PMPI_Type_lb;
extern __typeof__(MPI_Type_ub) PMPI_Type_ub;
extern __typeof__(MPI_Type_get_extent) PMPI_Type_get_extent;
extern __typeof__(MPI_Type_get_true_extent) PMPI_Type_get_true_extent;
extern __typeof__(MPI_Get_address) PMPI_Get_address;
extern __typeof__(MPI_Address) PMPI_Address;
extern __typeof__(MPI_Pack) PMPI_Pack;
extern __typeof__(MPI_Unpack) PMPI_Unpack;
extern __typeof__(MPI_Pack_size) PMPI_Pack_size;
extern __typeof__(MPI_Alloc_mem) PMPI_Alloc_mem;
extern __typeof__(MPI_Free_mem) PMPI_Free_mem;
extern __typeof__(MPI_Comm_group) PMPI_Comm_group;
extern __typeof__(MPI_Group_size) PMPI_Group_size;
extern __typeof__(MPI_Group_rank) PMPI_Group_rank;
extern __typeof__(MPI_Group_translate_ranks) PMPI_Group_translate_ranks;
extern __typeof__(MPI_Group_compare) PMPI_Group_compare;
extern __typeof__(MPI_Group_union) PMPI_Group_union;
extern __typeof__(MPI_Group_intersection) PMPI_Group_intersection;
extern __typeof__(MPI_Group_difference) PMPI_Group_difference;
extern __typeof__(MPI_Group_incl) PMPI_Group_incl;
extern __typeof__(MPI_Group_excl) PMPI_Group_excl;
extern __typeof__(MPI_Group_range_incl) PMPI_Group_range_incl;
extern __typeof__(MPI_Group_range_excl) PMPI_Group_range_excl;
extern __typeof__(MPI_Group_free) PMPI_Group_free;
extern __typeof__(MPI_Comm_size) PMPI_Comm_size;
extern __typeof__(MPI_Comm_rank) PMPI_Comm_rank;
extern __typeof__(MPI_Comm_compare) PMPI_Comm_compare;
extern __typeof__(MPI_Comm_dup) PMPI_Comm_dup;
extern __typeof__(MPI_Comm_create) PMPI_Comm_create;
extern __typeof__(MPI_Comm_create_group) PMPI_Comm_create_group;
extern __typeof__(MPI_Comm_split) PMPI_Comm_split;
extern __typeof__(MPI_Comm_split_type) PMPI_Comm_split_type;
extern __typeof__(MPI_Comm_free) PMPI_Comm_free;
extern __typeof__(MPI_Comm_test_inter) PMPI_Comm_test_inter;
extern __typeof__(MPI_Comm_remote_size) PMPI_Comm_remote_size;
extern __typeof__(MPI_Comm_remote_group) PMPI_Comm_remote_group;
extern __typeof__(MPI_Intercomm_create) PMPI_Intercomm_create;
extern __typeof__(MPI_Intercomm_merge) PMPI_Intercomm_merge;
extern __typeof__(MPI_Comm_spawn) PMPI_Comm_spawn;
extern __typeof__(MPI_Comm_get_parent) PMPI_Comm_get_parent;
extern __typeof__(MPI_Comm_disconnect) PMPI_Comm_disconnect;
extern __typeof__(MPI_Comm_set_name) PMPI_Comm_set_name;
extern __typeof__(MPI_Comm_get_name) PMPI_Comm_get_name;
extern __typeof__(MPI_Barrier) PMPI_Barrier;
extern __typeof__(MPI_Bcast) PMPI_Bcast;
extern __typeof__(MPI_Gather) PMPI_Gather;
extern __typeof__(MPI_Gatherv) PMPI_Gatherv;
extern __typeof__(MPI_Scatter) PMPI_Scatter;
extern __typeof__(MPI_Scatterv) PMPI_Scatterv;
extern __typeof__(MPI_Allgather) PMPI_Allgather;
extern __typeof__(MPI_Allgatherv) PMPI_Allgatherv;
extern __typeof__(MPI_Alltoall) PMPI_Alltoall;
extern __typeof__(MPI_Alltoallv) PMPI_Alltoallv;
extern __typeof__(MPI_Alltoallw) PMPI_Alltoallw;
extern __typeof__(MPI_Reduce) PMPI_Reduce;
extern __typeof__(MPI_Allreduce) PMPI_Allreduce;
extern __typeof__(MPI_Reduce_local) PMPI_Reduce_local;
extern __typeof__(MPI_Reduce_scatter) PMPI_Reduce_scatter;
extern __typeof__(MPI_Reduce_scatter_block) PMPI_Reduce_scatter_block;
extern __typeof__(MPI_Scan) PMPI_Scan;
extern __typeof__(MPI_Exscan) PMPI_Exscan;
extern __typeof__(MPI_Ibarrier) PMPI_Ibarrier;
extern __typeof__(MPI_Ibcast) PMPI_Ibcast;
extern __typeof__(MPI_Iallreduce) PMPI_Iallreduce;
extern __typeof__(MPI_Op_create) PMPI_Op_create;
extern __typeof__(MPI_Op_free) PMPI_Op_free;
extern __typeof__(MPI_Op_commutative) PMPI_Op_commutative;

extern __typeof__(MPI_Cart_create) PMPI_Cart_create;
extern __typeof__(MPI_Cartdim_get) PMPI_Cartdim_get;
extern __typeof__(MPI_Cart_get) PMPI_Cart_get;
extern __typeof__(MPI_Cart_rank) PMPI_Cart_rank;
extern __typeof__(MPI_Cart_coords) PMPI_Cart_coords;
extern __typeof__(MPI_Cart_shift) PMPI_Cart_shift;
extern __typeof__(MPI_Cart_sub) PMPI_Cart_sub;
extern __typeof__(MPI_Cart_map) PMPI_Cart_map;
extern __typeof__(MPI_Dims_create) PMPI_Dims_create;
extern __typeof__(MPI_Graph_create) PMPI_Graph_create;
extern __typeof__(MPI_Graphdims_get) PMPI_Graphdims_get;
extern __typeof__(MPI_Graph_get) PMPI_Graph_get;
extern __typeof__(MPI_Graph_neighbors_count) PMPI_Graph_neighbors_count;
extern __typeof__(MPI_Graph_neighbors) PMPI_Graph_neighbors;
extern __typeof__(MPI_Graph_map) PMPI_Graph_map;
extern __typeof__(MPI_Topo_test) PMPI_Topo_test;
extern __typeof__(MPI_Dist_graph_create_adjacent) PMPI_Dist_graph_create_adjacent;
extern __typeof__(MPI_Dist_graph_create) PMPI_Dist_graph_create;
extern __typeof__(MPI_Dist_graph_neighbors_count) PMPI_Dist_graph_neighbors_count;
extern __typeof__(MPI_Dist_graph_neighbors) PMPI_Dist_graph_neighbors;
extern __typeof__(MPI_Comm_create_keyval) PMPI_Comm_create_keyval;
extern __typeof__(MPI_Comm_free_keyval) PMPI_Comm_free_keyval;
extern __typeof__(MPI_Comm_set_attr) PMPI_Comm_set_attr;
extern __typeof__(MPI_Comm_delete_attr) PMPI_Comm_delete_attr;
extern __typeof__(MPI_Keyval_create) PMPI_Keyval_create;
extern __typeof__(MPI_Keyval_free) PMPI_Keyval_free;
extern __typeof__(MPI_Attr_put) PMPI_Attr_put;
extern __typeof__(MPI_Attr_delete) PMPI_Attr_delete;
extern __typeof__(MPI_Info_create) PMPI_Info_create;
extern __typeof__(MPI_Info_set) PMPI_Info_set;
extern __typeof__(MPI_Info_get) PMPI_Info_get;
extern __typeof__(MPI_Info_get_valuelen) PMPI_Info_get_valuelen;
extern __typeof__(MPI_Info_get_nkeys) PMPI_Info_get_nkeys;
extern __typeof__(MPI_Info_get_nthkey) PMPI_Info_get_nthkey;
extern __typeof__(MPI_Info_delete) PMPI_Info_delete;
extern __typeof__(MPI_Info_dup) PMPI_Info_dup;
extern __typeof__(MPI_Info_free) PMPI_Info_free;
extern __typeof__(MPI_Errhandler_create) PMPI_Errhandler_create;
extern __typeof__(MPI_Bsend_init) PMPI_Bsend_init;
extern __typeof__(MPI_Pcontrol) PMPI_Pcontrol;
extern __typeof__(MPI_Igather) PMPI_Igather;
extern __typeof__(MPI_Igatherv) PMPI_Igatherv;
extern __typeof__(MPI_Iscatter) PMPI_Iscatter;
extern __typeof__(MPI_Iscatterv) PMPI_Iscatterv;
extern __typeof__(MPI_Iallgather) PMPI_Iallgather;
extern __typeof__(MPI_Iallgatherv) PMPI_Iallgatherv;
extern __typeof__(MPI_Ialltoall) PMPI_Ialltoall;
extern __typeof__(MPI_Ialltoallv) PMPI_Ialltoallv;
extern __typeof__(MPI_Ialltoallw) PMPI_Ialltoallw;
extern __typeof__(MPI_Ireduce) PMPI_Ireduce;
extern __typeof__(MPI_Ireduce_scatter) PMPI_Ireduce_scatter;
extern __typeof__(MPI_Ireduce_scatter_block) PMPI_Ireduce_scatter_block;
extern __typeof__(MPI_Iscan) PMPI_Iscan;
extern __typeof__(MPI_Iexscan) PMPI_Iexscan;
extern __typeof__(MPI_Type_create_subarray) PMPI_Type_create_subarray;
extern __typeof__(MPI_Type_create_darray) PMPI_Type_create_darray;
extern __typeof__(MPI_Neighbor_allgather) PMPI_Neighbor_allgather;
extern __typeof__(MPI_Neighbor_allgatherv) PMPI_Neighbor_allgatherv;
extern __typeof__(MPI_Neighbor_alltoall) PMPI_Neighbor_alltoall;
extern __typeof__(MPI_Neighbor_alltoallv) PMPI_Neighbor_alltoallv;
extern __typeof__(MPI_Neighbor_alltoallw) PMPI_Neighbor_alltoallw;
extern __typeof__(MPI_Ineighbor_allgather) PMPI_Ineighbor_allgather;
extern __typeof__(MPI_Ineighbor_allgatherv) PMPI_Ineighbor_allgatherv;
extern __typeof__(MPI_Ineighbor_alltoall) PMPI_Ineighbor_alltoall;
extern __typeof__(MPI_Ineighbor_alltoallv) PMPI_Ineighbor_alltoallv;
extern __typeof__(MPI_Ineighbor_alltoallw) PMPI_Ineighbor_alltoallw;
extern __typeof__(MPI_Aint_add) PMPI_Aint_add;
extern __typeof__(MPI_Aint_diff) PMPI_Aint_diff;
extern __typeof__(MPI_Type_size_x) PMPI_Type_size_x;
extern __typeof__(MPI_Get_elements_x) PMPI_Get_elements_x;
extern __typeof__(MPI_Type_get_extent_x) PMPI_Type_get_extent_x;
extern __typeof__(MPI_Type_get_true_extent_x) PMPI_Type_get_true_extent_x;
extern __typeof__(MPI_Status_set_elements) PMPI_Status_set_elements;
extern __typeof__(MPI_Status_set_elements_x) PMPI_Status_set_elements_x;
extern __typeof__(MPI_Type_create_hindexed_block) PMPI_Type_create_hindexed_block;
extern __typeof__(MPI_Comm_dup_with_info) PMPI_Comm_dup_with_info;
extern __typeof__(MPI_Comm_idup) PMPI_Comm_idup;
extern __typeof__(MPI_Comm_set_info) PMPI_Comm_set_info;
extern __typeof__(MPI_Comm_get_info) PMPI_Comm_get_info;
extern __typeof__(MPI_Add_error_class) PMPI_Add_error_class;
extern __typeof__(MPI_Add_error_code) PMPI_Add_error_code;
extern __typeof__(MPI_Add_error_string) PMPI_Add_error_string;
extern __typeof__(MPI_Type_set_name) PMPI_Type_set_name;
extern __typeof__(MPI_Type_get_name) PMPI_Type_get_name;
extern __typeof__(MPI_Type_match_size) PMPI_Type_match_size;
extern __typeof__(MPI_Type_get_envelope) PMPI_Type_get_envelope;
extern __typeof__(MPI_Type_get_contents) PMPI_Type_get_contents;
extern __typeof__(MPI_Type_create_keyval) PMPI_Type_create_keyval;
extern __typeof__(MPI_Type_free_keyval) PMPI_Type_free_keyval;
extern __typeof__(MPI_Type_set_attr) PMPI_Type_set_attr;
extern __typeof__(MPI_Type_get_attr) PMPI_Type_get_attr;
extern __typeof__(MPI_Type_delete_attr) PMPI_Type_delete_attr;
extern __typeof__(MPI_Grequest_start) PMPI_Grequest_start;
extern __typeof__(MPI_Grequest_complete) PMPI_Grequest_complete;
extern __typeof__(MPI_Status_set_cancelled) PMPI_Status_set_cancelled;
extern __typeof__(MPI_Pack_external) PMPI_Pack_external;
extern __typeof__(MPI_Unpack_external) PMPI_Unpack_external;
extern __typeof__(MPI_Pack_external_size) PMPI_Pack_external_size;
extern __typeof__(MPI_T_init_thread) PMPI_T_init_thread;
extern __typeof__(MPI_T_finalize) PMPI_T_finalize;
extern __typeof__(MPI_T_enum_get_info) PMPI_T_enum_get_info;
extern __typeof__(MPI_T_enum_get_item) PMPI_T_enum_get_item;
extern __typeof__(MPI_T_cvar_get_num) PMPI_T_cvar_get_num;
extern __typeof__(MPI_T_cvar_get_info) PMPI_T_cvar_get_info;
extern __typeof__(MPI_T_cvar_get_index) PMPI_T_cvar_get_index;
extern __typeof__(MPI_T_cvar_handle_alloc) PMPI_T_cvar_handle_alloc;
extern __typeof__(MPI_T_cvar_handle_free) PMPI_T_cvar_handle_free;
extern __typeof__(MPI_T_cvar_read) PMPI_T_cvar_read;
extern __typeof__(MPI_T_cvar_write) PMPI_T_cvar_write;
extern __typeof__(MPI_T_pvar_get_num) PMPI_T_pvar_get_num;
extern __typeof__(MPI_T_pvar_get_info) PMPI_T_pvar_get_info;
extern __typeof__(MPI_T_pvar_get_index) PMPI_T_pvar_get_index;
extern __typeof__(MPI_T_pvar_session_create) PMPI_T_pvar_session_create;
extern __typeof__(MPI_T_pvar_session_free) PMPI_T_pvar_session_free;
extern __typeof__(MPI_T_pvar_handle_alloc) PMPI_T_pvar_handle_alloc;
extern __typeof__(MPI_T_pvar_handle_free) PMPI_T_pvar_handle_free;
extern __typeof__(MPI_T_pvar_start) PMPI_T_pvar_start;
extern __typeof__(MPI_T_pvar_stop) PMPI_T_pvar_stop;
extern __typeof__(MPI_T_pvar_read) PMPI_T_pvar_read;
extern __typeof__(MPI_T_pvar_write) PMPI_T_pvar_write;
extern __typeof__(MPI_T_pvar_reset) PMPI_T_pvar_reset;
extern __typeof__(MPI_T_pvar_readreset) PMPI_T_pvar_readreset;
extern __typeof__(MPI_T_category_get_num) PMPI_T_category_get_num;
extern __typeof__(MPI_T_category_get_info) PMPI_T_category_get_info;
extern __typeof__(MPI_T_category_get_index) PMPI_T_category_get_index;
extern __typeof__(MPI_T_category_get_cvars) PMPI_T_category_get_cvars;
extern __typeof__(MPI_T_category_get_pvars) PMPI_T_category_get_pvars;
extern __typeof__(MPI_T_category_get_categories) PMPI_T_category_get_categories;
extern __typeof__(MPI_T_category_changed) PMPI_T_category_changed;
#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

/* one-sided communication, MPI-IO, connect/accept */
#include "rckmpi_win_io.h"

#endif
