/*
 * RCCE.h: rockcreek's implementation of Intel's RCCE interface (releases
 * 1.0.x and 2.0), for programs written for the SCC. One installed library
 * serves every build shape; the shape a program selects (-DGORY,
 * -DSINGLEBITFLAGS, -DRC_POWER_MANAGEMENT) is passed to RCCE_init through
 * the macro below, and the gory send/recv map to their own symbols.
 */
#ifndef RCCE_H
#define RCCE_H

/* Intel's RCCE.h includes these two, and SCC programs call printf, exit
 * or atoi relying on it. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Everything declared between the push and the pop is exported from
 * librockcreek, which is built with -fvisibility=hidden: the public headers
 * are the list of exported names (docs/COMPAT.md). */
#pragma GCC visibility push(default)

#define RCCE_VERSION "rockcreek RCCE 2.0 (API of RCCE 1.0.13/2.0)"
#define RCK_RCCE_VERSION_MAJOR 2
#define RCK_RCCE_VERSION_MINOR 0
/* Intel's release string and its error stream (BareMetal had no stderr). */
#define _RCCE "1.0.13 release (rockcreek)"
#define STDERR stdout

/* ---- constants ---- */
#define LOG2_LINE_SIZE 5
#define RCCE_LINE_SIZE (1 << LOG2_LINE_SIZE)
#define RCCE_BUFF_SIZE_MAX (1 << 13)
#define RCCE_MAXNP 48
#define RCCE_SUCCESS 0
#define RCCE_PENDING -1
#define RCCE_RESERVED -2
#define RCCE_REJECTED -3

#define RCCE_ERROR_BASE 1234321
#define RCCE_ERROR_TARGET (RCCE_ERROR_BASE + 1)
#define RCCE_ERROR_SOURCE (RCCE_ERROR_BASE + 2)
#define RCCE_ERROR_ID (RCCE_ERROR_BASE + 3)
#define RCCE_ERROR_MESSAGE_LENGTH (RCCE_ERROR_BASE + 4)
#define RCCE_ERROR_FLAG_UNDEFINED (RCCE_ERROR_BASE + 5)
#define RCCE_ERROR_NUM_UES (RCCE_ERROR_BASE + 6)
#define RCCE_ERROR_DATA_OVERLAP (RCCE_ERROR_BASE + 7)
#define RCCE_ERROR_ALIGNMENT (RCCE_ERROR_BASE + 8)
#define RCCE_ERROR_DEBUG_FLAG (RCCE_ERROR_BASE + 9)
#define RCCE_ERROR_FLAG_NOT_IN_COMM_BUFFER (RCCE_ERROR_BASE + 10)
#define RCCE_ERROR_FLAG_STATUS_UNDEFINED (RCCE_ERROR_BASE + 11)
#define RCCE_ERROR_FLAG_NOT_ALLOCATED (RCCE_ERROR_BASE + 12)
#define RCCE_ERROR_VAL_UNDEFINED (RCCE_ERROR_BASE + 13)
#define RCCE_ERROR_INVALID_ERROR_CODE (RCCE_ERROR_BASE + 14)
#define RCCE_ERROR_RPC_NOT_ALLOCATED (RCCE_ERROR_BASE + 15)
#define RCCE_ERROR_RPC_INTERNAL (RCCE_ERROR_BASE + 16)
#define RCCE_ERROR_MULTIPLE_RPC_REQUESTS (RCCE_ERROR_BASE + 17)
#define RCCE_ERROR_FDIVIDER (RCCE_ERROR_BASE + 18)
#define RCCE_ERROR_FREQUENCY_EXCEEDED (RCCE_ERROR_BASE + 19)
#define RCCE_ERROR_NO_ACTIVE_RPC_REQUEST (RCCE_ERROR_BASE + 20)
#define RCCE_ERROR_STALE_RPC_REQUEST (RCCE_ERROR_BASE + 21)
#define RCCE_ERROR_COMM_UNDEFINED (RCCE_ERROR_BASE + 22)
#define RCCE_ERROR_ILLEGAL_OP (RCCE_ERROR_BASE + 23)
#define RCCE_ERROR_ILLEGAL_TYPE (RCCE_ERROR_BASE + 24)
#define RCCE_ERROR_MALLOC (RCCE_ERROR_BASE + 25)
#define RCCE_ERROR_COMM_INITIALIZED (RCCE_ERROR_BASE + 26)
#define RCCE_ERROR_CORE_NOT_IN_HOSTFILE (RCCE_ERROR_BASE + 27)
#define RCCE_ERROR_NO_MULTICAST_SUPPORT (RCCE_ERROR_BASE + 28)
#define RCCE_MAX_ERROR_STRING 45

#define RCCE_DEBUG_ALL 111111
#define RCCE_DEBUG_SYNCH 111444
#define RCCE_DEBUG_COMM 111555
#define RCCE_DEBUG_RPC 111666
#define RCCE_DEBUG_DEBUG 111888

#define RCCE_FLAG_SET 1
#define RCCE_FLAG_UNSET 0

#define RCCE_NUM_OPS 4
#define RCCE_OP_BASE 23232323
#define RCCE_SUM (RCCE_OP_BASE)
#define RCCE_MIN (RCCE_OP_BASE + 1)
#define RCCE_MAX (RCCE_OP_BASE + 2)
#define RCCE_PROD (RCCE_OP_BASE + 3)

#define RCCE_TYPE_BASE 63636363
#define RCCE_INT (RCCE_TYPE_BASE)
#define RCCE_LONG (RCCE_TYPE_BASE + 1)
#define RCCE_FLOAT (RCCE_TYPE_BASE + 2)
#define RCCE_DOUBLE (RCCE_TYPE_BASE + 3)

#define RCCE_POWER_DEFAULT -99999

/* ---- types ---- */
typedef volatile unsigned char *t_vcharp;

/* A flag in the MPB: a whole line, or one bit of a line (SINGLEBITFLAGS).
 * Opaque to programs. */
typedef struct {
    int line;            /* byte offset of the flag's line in the MPB */
    int bit;             /* bit in the line's first word, -1 = whole line */
    unsigned magic;      /* set by RCCE_flag_alloc, checked on use */
} RCCE_FLAG;

typedef int RCCE_FLAG_STATUS;

typedef struct {
    int size;
    int my_rank;
    int initialized;
    int member[RCCE_MAXNP];
    RCCE_FLAG gather;
    RCCE_FLAG release;
    int label;           /* rockcreek: identifies the comm's barrier flags */
    int *rck_members;    /* rockcreek: all members (also beyond RCCE_MAXNP) */
} RCCE_COMM;

typedef struct {
    int release;
    int old_voltage_level;
    int new_voltage_level;
    int old_frequency_divider;
    int new_frequency_divider;
    int start_cycle;
    int state;           /* RCCE_SUCCESS when the change is done */
} RCCE_REQUEST;

extern RCCE_COMM RCCE_COMM_WORLD;
extern RCCE_COMM RCCE_P_COMM;

/* ---- build shape, passed to the library by RCCE_init ---- */
#define RCK_RCCE_SHAPE_GORY 1
#define RCK_RCCE_SHAPE_SINGLEBITFLAGS 2
#define RCK_RCCE_SHAPE_POWER 4
#ifdef GORY
#define RCK__RCCE_SHAPE_G RCK_RCCE_SHAPE_GORY
#else
#define RCK__RCCE_SHAPE_G 0
#endif
#ifdef SINGLEBITFLAGS
#define RCK__RCCE_SHAPE_S RCK_RCCE_SHAPE_SINGLEBITFLAGS
#else
#define RCK__RCCE_SHAPE_S 0
#endif
#ifdef RC_POWER_MANAGEMENT
#define RCK__RCCE_SHAPE_P RCK_RCCE_SHAPE_POWER
#else
#define RCK__RCCE_SHAPE_P 0
#endif
#define RCK_RCCE_SHAPE (RCK__RCCE_SHAPE_G | RCK__RCCE_SHAPE_S | RCK__RCCE_SHAPE_P)

#ifndef RCCE_APP
#define RCCE_APP main
#endif

/* ---- every shape ---- */
int RCCE_init_shape(int *argc, char ***argv, int shape);
int RCCE_init(int *argc, char ***argv);
#define RCCE_init(argc, argv) RCCE_init_shape((argc), (argv), RCK_RCCE_SHAPE)
int RCCE_finalize(void);
double RCCE_wtime(void);
int RCCE_ue(void);
int RCCE_num_ues(void);
int RCCE_comm_split(int (*color)(int, void *), void *aux, RCCE_COMM *comm);
int RCCE_comm_free(RCCE_COMM *comm);
int RCCE_comm_size(RCCE_COMM comm, int *size);
int RCCE_comm_rank(RCCE_COMM comm, int *rank);
int RCCE_barrier(RCCE_COMM *comm);
void RCCE_fence(void);
int RCCE_error_string(int code, char *buf, int *len);
int RCCE_debug_set(int selector);
int RCCE_debug_unset(int selector);

/*
 * Error codes returned by rockcreek's RCCE (documented choices where the
 * original releases differ):
 *  - a UE id outside 0..num_ues-1 (send dest, recv source, put/get/flag
 *    ue, lock ue), or sending to / receiving from oneself with the
 *    synchronous non-gory calls: RCCE_ERROR_ID
 *  - put/get: MPB address not 32-byte aligned: RCCE_ERROR_ALIGNMENT;
 *    nbytes < 0 or not a multiple of 32: RCCE_ERROR_MESSAGE_LENGTH; MPB
 *    range outside the caller's MPB: RCCE_ERROR_TARGET (put) /
 *    RCCE_ERROR_SOURCE (get)
 *  - a flag not from RCCE_flag_alloc (or already freed):
 *    RCCE_ERROR_FLAG_NOT_ALLOCATED; no MPB space for a flag:
 *    RCCE_ERROR_FLAG_NOT_IN_COMM_BUFFER; a flag value other than
 *    RCCE_FLAG_SET/UNSET: RCCE_ERROR_FLAG_STATUS_UNDEFINED
 *  - gory send/recv: chunk not a positive multiple of 32 or combuf outside
 *    the MPB: RCCE_ERROR_MESSAGE_LENGTH / RCCE_ERROR_TARGET
 *  - collectives: unknown op RCCE_ERROR_ILLEGAL_OP, unknown type
 *    RCCE_ERROR_ILLEGAL_TYPE, root outside the communicator RCCE_ERROR_ID,
 *    a communicator that was never created RCCE_ERROR_COMM_UNDEFINED;
 *    called in the gory shape (no library buffers) RCCE_ERROR_ILLEGAL_OP
 *  - no memory for library structures: RCCE_ERROR_MALLOC
 *  - RCCE_comm_split on a communicator it initialised before overwrites
 *    the membership and keeps the barrier flags (as Intel's RCCE)
 *  - a wait that exceeds RCK_WAIT_TIMEOUT seconds, or whose peer core
 *    failed: RCCE_ERROR_TARGET
 *  - power: divider outside 2..16 (or not in the chip's DVFS table)
 *    RCCE_ERROR_FDIVIDER; a divider too fast for the domain's current
 *    voltage also RCCE_ERROR_FDIVIDER (as Intel's RCCE); RCCE_iset_power while a request
 *    is in flight, or while the domain's voltage change is still in flight,
 *    RCCE_ERROR_MULTIPLE_RPC_REQUESTS; RCCE_wait_power on a request that
 *    is not in flight RCCE_ERROR_NO_ACTIVE_RPC_REQUEST; a voltage change
 *    the HAL refuses RCCE_ERROR_RPC_INTERNAL (docs/POWER.md)
 */

/* MPB management and one-sided access (gory, but exported in every shape) */
t_vcharp RCCE_malloc(size_t size);
t_vcharp RCCE_malloc_request(size_t want, size_t *got);
void RCCE_free(t_vcharp ptr);
int RCCE_put(t_vcharp target, t_vcharp source, int nbytes, int ue);
int RCCE_get(t_vcharp target, t_vcharp source, int nbytes, int ue);
int RCCE_put_char(t_vcharp target, char value, int ue);
int RCCE_get_char(char *target, t_vcharp source, int ue);
int RCCE_flag_alloc(RCCE_FLAG *flag);
int RCCE_flag_free(RCCE_FLAG *flag);
int RCCE_flag_write(RCCE_FLAG *flag, RCCE_FLAG_STATUS val, int ue);
int RCCE_flag_read(RCCE_FLAG flag, RCCE_FLAG_STATUS *val, int ue);
int RCCE_wait_until(RCCE_FLAG flag, RCCE_FLAG_STATUS val);
int RCCE_probe(RCCE_FLAG flag);
int RCCE_acquire_lock(int ue);
int RCCE_release_lock(int ue);
/* Intel's library functions that programs declare themselves (their
 * prototypes are in Intel's RCCE_lib.h, not its RCCE.h). Declared here
 * too, so that a C++ program's own declaration gets C linkage from this
 * first one. RCCE_qsort sorts like qsort and returns RCCE_SUCCESS;
 * id_compare compares two ints; RCCE_global_color is 1 for every UE;
 * print_dividers prints each tile's clock divider (RCCE_lib.h). */
int RCCE_qsort(char *base, size_t num, size_t width,
               int (*compar)(const void *, const void *));
int id_compare(const void *e1, const void *e2);
int RCCE_global_color(int rank, void *nothing);
void print_dividers(void);

/* message passing: the same names with two signatures */
int RCCE_send_gory(char *privbuf, t_vcharp combuf, size_t chunk,
                   RCCE_FLAG *ready, RCCE_FLAG *sent, size_t size, int dest);
int RCCE_recv_gory(char *privbuf, t_vcharp combuf, size_t chunk,
                   RCCE_FLAG *ready, RCCE_FLAG *sent, size_t size, int source);
int RCCE_recv_test_gory(char *privbuf, t_vcharp combuf, size_t chunk,
                        RCCE_FLAG *ready, RCCE_FLAG *sent, size_t size,
                        int source, int *test);
#ifdef GORY
#define RCCE_send RCCE_send_gory
#define RCCE_recv RCCE_recv_gory
#define RCCE_recv_test RCCE_recv_test_gory
#else
int RCCE_send(char *buf, size_t size, int dest);
int RCCE_recv(char *buf, size_t size, int source);
int RCCE_recv_test(char *buf, size_t size, int source, int *test);
#endif

/*
 * rockcreek extension (not in Intel's RCCE; the SCC's Ruby binding asked
 * for it): RCCE_peek looks at a message waiting from @p source without
 * receiving it. If one is announced (the sender has written its first
 * piece and set its sent flag), *from is its sender and the first
 * min(size, chunk) bytes of the sender's communication buffer are copied
 * to @p buf (*copied of them): the message's first bytes, as the sender
 * wrote them. RCCE messages do not carry their length, so bytes past the
 * end of a short message are whatever the buffer held (iRCCE_peek gives
 * the length of iRCCE's framed messages). Nothing waiting: *from = -1,
 * *copied = 0. @p source may be RCCE_ANY_SOURCE (searched round robin
 * from the source after the last one found). A collective's message is
 * passed by (whole-line flags). Never waits. Not in the gory shape
 * (RCCE_ERROR_ILLEGAL_OP); a bad source RCCE_ERROR_ID; NULL @p buf with
 * size > 0 RCCE_ERROR_TARGET. @p from and @p copied may be NULL.
 * docs/PYTHON.md, "RCCE_peek".
 */
#define RCK_RCCE_PEEK 1
#ifndef RCCE_ANY_SOURCE
#define RCCE_ANY_SOURCE (-1)
#endif
int RCCE_peek(char *buf, size_t size, int source, int *from, size_t *copied);

/* collectives (library-managed buffers; not available in the gory shape) */
int RCCE_bcast(char *buf, size_t num, int root, RCCE_COMM comm);
int RCCE_reduce(char *in, char *out, int num, int type, int op, int root,
                RCCE_COMM comm);
int RCCE_allreduce(char *in, char *out, int num, int type, int op,
                   RCCE_COMM comm);

/* off-chip shared memory */
t_vcharp RCCE_shmalloc(size_t size);
void RCCE_shfree(t_vcharp ptr);
void RCCE_shflush(void);
int RCCE_DCMflush(void);

/* power management (declared in every shape; RC_POWER_MANAGEMENT kept for
 * source compatibility) */
int RCCE_power_domain(void);
int RCCE_power_domain_master(void);
int RCCE_power_domain_size(void);
int RCCE_iset_power(int fdiv, RCCE_REQUEST *req, int *fdiv_new,
                    int *vlevel_new);
int RCCE_wait_power(RCCE_REQUEST *req);
int RCCE_set_frequency_divider(int fdiv, int *fdiv_new);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif
