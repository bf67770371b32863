/*
 * Internals of the MPI library on the MPBs (librckmpi, docs/MPI.md).
 *
 * Layers inside the library, lowest first:
 *   chan.c     the channels (sccmpb, sccmpb-ext): an ordered, reliable
 *              packet pipe from every process to every process through
 *              the receivers' exclusive write sections (EWS) and, on
 *              sccmpb-ext, the senders' general-purpose EWS (gEWS);
 *   p2p.c      frames on the pipes (eager, rendezvous RTS/CTS/DATA),
 *              matching, the unexpected queue, the progress engine;
 *   req.c      requests and the MPI point-to-point calls;
 *   type.c     datatypes (flattened to byte blocks), pack/unpack;
 *   comm.c     groups and communicators (context ids agreed over p2p);
 *   init.c     environment, errors, attributes.
 * The collectives (coll_*.c, op*.c, mpicoll) use rckmpi_coll.h only.
 */
#ifndef RCKMPI_INTERNAL_H
#define RCKMPI_INTERNAL_H

#include "mpi.h"
#include "rckmpi_coll.h"
#include "rckmpi_pmpi.h"

#include "rck/copy.h"
#include "rck/hal.h"

#include <stddef.h>
#include <stdint.h>

/* ---- datatypes (type.c) ---- */
typedef struct {
    MPI_Aint off;   /* bytes from the item's start */
    size_t len;     /* bytes */
    uint32_t esize; /* size of the basic elements in the block */
} rk_block_t;

typedef struct {
    int used, committed, predefined;
    int freed, refs;            /* MPI_Type_free'd while requests hold it */
    size_t size;                /* bytes of data in one item */
    MPI_Aint lb, extent;        /* MPI lower bound and extent */
    MPI_Aint true_lb, true_ub;  /* bounds of the data */
    int contig;                 /* one block [0, size), extent == size */
    int fast;                   /* live, committed, contig and not a bounds
                                   marker: the short ways' test in one load
                                   (kept by type.c) */
    int nblocks;
    rk_block_t *blocks;
    MPI_Datatype basic;         /* rckmpi_type_basic */
    int nbasic;
    int combiner;
    char name[MPI_MAX_OBJECT_NAME]; /* MPI_Type_set_name (mpi3.c) */
    struct rk_attr *attrs;          /* attr.c: its cached attributes */
    int ext_odd;  /* holds an element whose external32 size or format is
                     not the native one's byte swap (long, wchar_t, long
                     double: MPI_Pack_external, mpi3.c) */
    /* the constructor's arguments (MPI_Type_get_contents); the types are
     * held (refs) until this one is released */
    int *c_ints;
    MPI_Aint *c_aints;
    MPI_Datatype *c_types;
    int c_ni, c_na, c_nt;
    int urefs; /* the program's handles: MPI_Type_free of the last frees */
} rk_type_t;

/* The type behind a handle, or NULL; a type freed while requests still
 * use it stays here for them (rk_type_live: NULL for it). */
rk_type_t *rk_type(MPI_Datatype t);
rk_type_t *rk_type_live(MPI_Datatype t);
/* The type if the short ways may take it (its fast flag), or NULL. */
const rk_type_t *rk_type_fast(MPI_Datatype t);
/* A request holds @p t until it is released. */
void rk_type_hold(MPI_Datatype t);
void rk_type_drop(MPI_Datatype t);
void rk_types_init(void);
void rk_types_finalize(void);
/* @p t was made by @p combiner from these arguments (replacing what it
 * had: type_sub.c's types are made by other constructors); MPI_ERR_NO_MEM */
/* MPI_Type_get_contents: one more handle of the derived type @p t for
 * the program (alive again if it had freed it) */
void rk_type_give(MPI_Datatype t);
int rk_type_remember(MPI_Datatype t, int combiner, int ni, const int *ints,
                     int na, const MPI_Aint *aints, int nt,
                     const MPI_Datatype *types);
/* Pack @p count items of @p t at @p in into @p out (size*count bytes). */
void rk_pack(const void *in, int count, const rk_type_t *t, void *out);
/* Unpack @p bytes (at most size*count) into @p count items at @p out. */
void rk_unpack(const void *in, size_t bytes, int count, const rk_type_t *t,
               void *out);
/* Basic elements in @p bytes of @p t's data (MPI_Get_elements). */
long long rk_type_elements(const rk_type_t *t, long long bytes);

/* ---- groups and communicators (comm.c) ---- */
typedef struct {
    int used, refs;
    int size;
    int *ue; /* member i's UE (world rank) */
} rk_group_t;

typedef struct {
    int used;
    int size, rank;
    int *ue;        /* comm rank -> UE (the local group) */
    int psize;      /* the group point-to-point ranks name: the local */
    int *peer;      /* group, or the remote one of an intercommunicator */
    int *rank_of;   /* UE -> rank in the peer group, or -1 (nues entries) */
    int inter;      /* an intercommunicator (intercomm.c) */
    int freed, refs; /* MPI_Comm_free'd while requests still use it */
    MPI_Comm local; /* inter: a hidden communicator of the local group on
                     * the same contexts (its collective context carries
                     * the local group's own agreement messages) */
    uint32_t ctx;   /* point-to-point context; ctx + 1: collective */
    MPI_Errhandler eh;
    char name[MPI_MAX_OBJECT_NAME];
    struct rk_topo *topo;   /* topo_int.h: its topology, or NULL */
    struct rk_attr *attrs;  /* attr.c: its cached attributes */
    uint32_t nbc_seq;       /* non-blocking collectives started on it */
    MPI_Info info;          /* MPI_Comm_set_info's hints (mpi3.c), or
                               MPI_INFO_NULL */
} rk_comm_t;

/* ---- topologies (topo.c) and attributes (attr.c) of a communicator ---- */
/* A copy of @p t (NULL: none, or no memory), for MPI_Comm_dup. */
struct rk_topo *rk_topo_dup(const struct rk_topo *t);
void rk_topo_free(struct rk_topo *t);
/* MPI_Comm_dup: the attributes of @p from copied to @p to by their copy
 * callbacks (the error of a callback that fails) */
int rk_attr_dup(MPI_Comm from, MPI_Comm to);
/* MPI_Comm_free: every attribute deleted by its delete callback */
int rk_attr_delete_all(MPI_Comm comm);
/* MPI_Finalize: a communicator's attributes freed without their
 * callbacks (the standard runs them only for MPI_COMM_SELF there), and the
 * keyvals */
void rk_attr_drop(struct rk_attr *list);
void rk_attrs_finalize(void);
/* Datatypes and windows (attr.c): MPI_Type_dup's copy callbacks, and
 * every attribute deleted by its delete callback (MPI_Type_free,
 * MPI_Win_free; the callback's error if one fails). */
int rk_attr_type_dup(MPI_Datatype from, MPI_Datatype to);
int rk_attr_type_delete_all(MPI_Datatype t);
int rk_attr_win_delete_all(MPI_Win w);
/* MPI_Win_get_attr of a key that is not predefined (raises on error) */
int rk_attr_win_get(MPI_Win win, int keyval, void *attribute_val, int *flag);
/* MPI_Comm_get_attr of a key that is not predefined (raises on error) */
int rk_attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag);
/* MPI_INFO_ENV's contents (info.c), from MPI_Init's arguments */
void rk_info_env_init(int argc, char **argv, int thread);
void rk_infos_finalize(void);

/* words of the bitmap of context pairs (rk_ctx_used) */
#define RK_NCTXW 128
/* The table of communicators and groups (comm_tab.c; comm.c fills it) */
typedef struct {
    rk_comm_t *c;
    int nc;
    rk_group_t *g;
    int ng;
    uint32_t used[RK_NCTXW];      /* context pairs in use here */
    int agreeing;                 /* a blocking agreement is under way */
} rk_comm_tab_t;
extern rk_comm_tab_t rk_cm;
rk_comm_t *rk_comm(MPI_Comm c); /* NULL if invalid or freed */
/* MPI_Add_error_class/code/string (err.c): 1 if @p code is one of the
 * program's (above MPI_ERR_LASTCODE), with its class and string ("" when
 * none was set); 0 if not. The largest code in use (MPI_LASTUSEDCODE). */
int rk_user_err(int code, int *cls, const char **str);
int rk_last_used_code(void);
/* Error handlers of windows and files (err.c): @p eh (predefined, or
 * created for @p kind) set on @p comm; else MPI_ERR_ARG, raised there. */
enum { RK_EH_COMM, RK_EH_WIN, RK_EH_FILE };
int rk_set_eh(MPI_Comm comm, MPI_Errhandler eh, int kind, const char *func);
/* @p eh predefined or created for @p kind */
int rk_eh_fits(MPI_Errhandler eh, int kind);
/* the window / file whose private communicator @p comm is, or
 * MPI_WIN_NULL / MPI_FILE_NULL (win.c, io.c) */
MPI_Win rk_win_by_comm(MPI_Comm comm);
MPI_File rk_file_by_comm(MPI_Comm comm);
/* MPI_Init hands these to the error path (err.c), which calls no file
 * above it by name */
void rk_eh_owners(MPI_Win (*win_of)(MPI_Comm comm),
                  MPI_File (*file_of)(MPI_Comm comm));
void rk_user_errs_finalize(void);
/* Also a communicator freed while requests still use it (p2p.c). */
rk_comm_t *rk_comm_any(MPI_Comm c);
void rk_comm_hold(MPI_Comm c);
void rk_comm_drop(MPI_Comm c);
/* MPI initialised and @p comm valid (else the error, raised) */
int rk_comm_arg(MPI_Comm comm, rk_comm_t **c, const char *func);
int rk_comms_init(void);
void rk_comms_finalize(void);
rk_group_t *rk_group(MPI_Group g);
/* A communicator of UEs @p ue (@p me my rank) on contexts @p ctx, @p ctx+1;
 * @p peer (psize UEs) the remote group of an intercommunicator or NULL. */
MPI_Comm rk_comm_new(const int *ue, int n, int me, uint32_t ctx,
                     const int *peer, int psize);
/* My contexts in use (NCTX words) / the lowest pair free in @p used. */
void rk_ctx_used(uint32_t *out);
uint32_t rk_ctx_pick(const uint32_t *used);
/* MPI_Comm_idup (comm_idup.c): mark or clear a context pair here; a
 * blocking agreement under way here; what goes with a duplicate (topology,
 * attributes, hints; the new communicator released on failure) */
void rk_ctx_reserve(uint32_t ctx, int on);
int rk_ctx_agreeing(void);
int rk_comm_dup_tail(MPI_Comm comm, MPI_Comm *newcomm);
void rk_comm_release(MPI_Comm h);
/* A new group of @p n UEs. */
int rk_group_of(const int *ue, int n, MPI_Group *group, const char *func);

/* ---- the channel (chan.c) ---- */
enum {
    RK_CHAN_SCCMPB = 0,
    RK_CHAN_SCCMPB_EXT = 1,
    RK_CHAN_SCCSHM = 2,  /* every packet through a ring in shared DRAM */
    RK_CHAN_SCCMULTI = 3 /* sccmpb-ext for small packets, rings for large */
};
#define RK_EWS_HDR 16u     /* metadata of one EWS: seq, bitmap, bytes, ack */
#define RK_GEWS_SLOTS 32
#define RK_GEWS_SLOT 128u

/* The channel's state for one peer (both directions), in one place for
 * the latency path. */
typedef struct {
    int core;            /* the peer's core */
    uint32_t ews;        /* its EWS in my MPB (its packets to me) */
    uint32_t sent;       /* to it: sequence number sent */
    uint32_t acked;      /* ... last acknowledged */
    uint32_t lent;       /* ... my gEWS slots its packet holds */
    uint32_t seen;       /* from it: last sequence consumed */
    uint32_t last_map;   /* ... gEWS slots of its last packet */
    uint32_t last_rest;  /* ... and their bytes (0: none) */
    /* the rings in shared DRAM (sccshm, sccmulti) */
    size_t ring_tx;      /* my ring to it (offset in the window) */
    size_t ring_rx;      /* its ring to me */
    uint32_t rsent;      /* to it: ring packets written */
    uint32_t racked;     /* ... consumed, as last read */
    uint32_t rseen;      /* from it: ring packets consumed */
    int route;           /* path of the next packet to it: 1 = ring */
    int in_ring;         /* path of the packet peeked from it: 1 = ring */
} rk_pipe_t;

typedef struct {
    int kind;
    uint32_t base;       /* reserved range in every MPB */
    uint32_t gews_off;   /* gEWS in every MPB (ext only) */
    uint32_t ews_off;    /* first base EWS */
    uint32_t ack_off;    /* the ack area: a word per receiver */
    uint32_t my_ews;     /* my EWS in every receiver's MPB */
    uint32_t my_ack;     /* my word in every sender's ack area */
    uint32_t ews_size;   /* bytes of one base EWS */
    uint32_t payload;    /* ews_size - RK_EWS_HDR */
    int gews_slots;      /* 32 on ext, 0 on sccmpb */
    uint32_t gews_free;  /* my gEWS slots not lent (bit 31 = slot 0) */
    rk_pipe_t *pipe;     /* per peer, both directions */
    rck_hal_cond_t *in;  /* "a packet from s": senders 0..n-1 twice, so
                            that in + first lists them from first on */
    uint64_t fallbacks;  /* packets sent base-only for want of slots */
    /* the rings in shared DRAM (sccshm, sccmulti; chan.c) */
    size_t ring_base;    /* the rings of every ordered pair */
    size_t ring_bytes;   /* one ring: two control lines and the slots */
    uint32_t ring_slots; /* packets in flight per pair */
    uint32_t slot_bytes; /* one slot: RK_EWS_HDR + payload */
    uint32_t mpb_max;    /* sccmulti: larger packets take the ring */
    int nin;             /* incoming conditions: nues, or 2 nues (multi) */
    rck_hal_cond_t *rin; /* "a ring packet from s", as in */
    uint64_t ring_pkts;  /* packets sent through the rings */
} rk_chan_t;

int rk_chan_init(void);
void rk_chan_finalize(void);
/* The channel in use (RCK_MPI_CHANNEL, auto resolved). */
const char *rk_chan_name(void);
/* Channel to UE @p d free for a packet of @p want bytes (refreshes the
 * ack; sccmulti: chooses the path by @p want)? */
int rk_chan_ready(int d, size_t want);
/* Largest packet that can go to @p d now (base payload + free slots, or
 * a ring slot). */
size_t rk_chan_room(int d, size_t want);
/* Send one packet of @p len bytes (<= rk_chan_room) made of @p nparts
 * pieces to @p d. */
int rk_chan_put(int d, const void *const *parts, const size_t *lens,
                int nparts);
/* rk_chan_put of a 16-byte frame header @p frame and @p bytes of data
 * (the short sends' packet): on the MPB path, when it fits the base
 * payload, written in one piece without the general staging loop (a
 * 0-byte message copies the header only); otherwise as rk_chan_put. */
#define RK_CHAN_SHORT_MAX 64u
int rk_chan_put_short(int d, const uint32_t frame[4], const void *buf,
                      size_t bytes);
/* A sender with a packet waiting (senders tried from @p first on), or -1.
 * Never blocks. */
int rk_chan_poll(int first);
/* The rk_chan_nin() conditions "a packet from s" for s = first,
 * first + 1, ... (sccmulti: those of the MPBs, then those of the rings;
 * kept up to date by rk_chan_get; not to be written). */
const rck_hal_cond_t *rk_chan_incoming(int first);
int rk_chan_nin(void);
/* The sender of incoming condition @p which (< rk_chan_nin()) of the
 * list from @p first. */
int rk_chan_sender(int first, int which);
/* Read the packet from @p s into @p buf (room for rk_chan_maxpkt()),
 * acknowledge it; returns its length. */
size_t rk_chan_get(int s, void *buf);
/* rk_chan_get in two steps, so that the caller can look at the packet's
 * first bytes before it says where the packet goes: rk_chan_peek reads the
 * header and up to RK_CHAN_FIRST bytes of payload into @p head
 * (RK_CHAN_HEAD bytes; the payload at head + RK_EWS_HDR) and returns the
 * packet's length; rk_chan_take then copies the payload from byte @p skip
 * on (skip <= the smaller of the length and the base payload, which is at
 * least RK_EWS_HDR) into @p buf, frees the EWS and acknowledges. Nothing
 * may come between the two for the same sender. */
#define RK_CHAN_FIRST 96u
#define RK_CHAN_HEAD (RK_EWS_HDR + RK_CHAN_FIRST)
size_t rk_chan_peek(int s, void *head);
void rk_chan_take(int s, const void *head, size_t skip, void *buf);
size_t rk_chan_maxpkt(void);
/* Conditions for a blocking wait: incoming packets on every channel (from
 * sender @p first on) and the acks of the receivers flagged in
 * @p waiting_ack (nues flags, or NULL); returns how many (at most 3 *
 * nues). */
int rk_chan_conds(rck_hal_cond_t *conds, int first, const char *waiting_ack);

/* ---- point-to-point (p2p.c, req.c) ---- */
enum { RK_REQ_SEND = 1, RK_REQ_RECV = 2, RK_REQ_GEN = 3 };
enum { RK_MODE_STD = 0, RK_MODE_SYNC, RK_MODE_READY, RK_MODE_BUF };

typedef struct rk_req rk_req_t;
struct rk_req {
    int used, kind, mode;
    MPI_Request self;
    int done, freed, cancelled, err;
    int persistent, active;
    /* the call's arguments */
    void *buf;
    int count;
    MPI_Datatype type;
    int peer;        /* comm rank, MPI_ANY_SOURCE or MPI_PROC_NULL */
    int tag;
    MPI_Comm comm;
    uint32_t ctx;
    /* state */
    int peer_ue;     /* UE of the peer (send: dest; recv: once matched) */
    void *data;      /* send: packed data (or buf); recv: staging */
    size_t bytes;    /* send: message bytes; recv: bytes received */
    int own_data;    /* data was malloc'd here */
    size_t bsend;    /* bytes charged to the attached buffer */
    uint32_t token;  /* recv: id of the message being received */
    MPI_Status st;
    rk_req_t *next;  /* posted-receive queue */
    /* RK_REQ_GEN (rckmpi_greq.h) */
    int (*poll)(void *state, int *done);
    void (*release)(void *state);
    void *state;
    /* a generalized request of the program's (MPI_Grequest_start,
     * mpi3.c): what MPI_Cancel calls; NULL for the library's own */
    int (*cancel)(void *state);
    int polling;     /* inside poll: no re-entry */
};

typedef struct {
    int init, finalized;
    rck_hal_t *hal;
    int ue, nues;
    rk_chan_t chan;
    size_t eager;    /* messages above go by rendezvous */
    int64_t wait_timeout_ns;
    unsigned wait_flags; /* the HAL's flags for the waits to come
                          * (rckmpi_coll_wait_long, wait.c) */
    int thread;
} rk_state_t;

extern rk_state_t rk;
/* librckmpi's library id (settings.c, rck/lib.h). */
extern int rck__mpi_lib;

rk_req_t *rk_req(MPI_Request r);
MPI_Request rk_req_new(rk_req_t **out);
void rk_req_release(MPI_Request r);
/* A generalized request: run its poll function (once done, nothing). */
void rk_greq_poll(rk_req_t *r);
/* Poll every generalized request not done (from rk_progress), and: are
 * there any not released? */
void rk_greqs_progress(void);
int rk_greqs_active(void);
/* MPI_Cancel of a generalized request: MPI_Grequest_start's (mpi3.c) run
 * their cancel function (*handled = 1); the library's own cannot be
 * cancelled (*handled = 0). */
int rk_p2p_init(void);
void rk_p2p_finalize(void);
/* Start a send/receive on context @p ctx of comm (@p peer a comm rank). */
int rk_start_send(MPI_Request h);
/* MPI_Send without a request when the packet can go at once; 0: not done */
int rk_send_short(const void *buf, int count, MPI_Datatype type, int dest,
                  int tag, MPI_Comm comm);
/* MPI_Recv without a request: with nothing else pending, wait for the
 * next packet; a whole eager message that matches and fits goes straight
 * into @p buf (1). Anything else is taken as the progress engine takes it
 * and the general path does the rest (0). */
int rk_recv_short(void *buf, int count, MPI_Datatype type, int source,
                  int tag, MPI_Comm comm, MPI_Status *status);
int rk_start_recv(MPI_Request h);
/* One pass of the progress engine (never blocks). */
void rk_progress(void);
/* Block until something may have changed (a packet or an ack). */
void rk_progress_wait(const char *call);
/* rk_progress_wait for request @p r: the wait names its peer, message
 * size (sends), tag and communicator (the sim's trace shows them). */
void rk_progress_wait_req(const char *call, const rk_req_t *r);
/* Probe the unexpected queue; 1 and fills @p st if a message matches
 * (and with @p take, unlinks it into *take: matched probe). */
int rk_probe(uint32_t ctx, int src_ue, int tag, const rk_comm_t *c,
             MPI_Status *st, void **take);
/* The arguments of a probe checked (raised on error). */
int rk_probe_args(int source, int tag, MPI_Comm comm, rk_comm_t **c,
                  const char *func);
/* The status of a receive from MPI_PROC_NULL. */
void rk_proc_null_status(MPI_Status *st);
/* Start receive @p h on a message taken by a matched probe. */
void rk_start_recv_msg(MPI_Request h, void *msg);
int rk_cancel_recv(rk_req_t *r);
int rk_wait_req(MPI_Request *h, MPI_Status *st, const char *func);
void rk_status_set(MPI_Status *dst, const rk_req_t *r);
int rk_bsend_release(size_t bytes);
/* Buffered mode: the data of send @p r copied and charged to the attached
 * buffer (MPI_ERR_BUFFER, raised, when it has no room). */
int rk_bsend_copy(rk_req_t *r, const char *func);

/* a request for a send or receive, checked, not started */
int rk_prepare(const void *buf, int count, MPI_Datatype type, int peer,
               int tag, MPI_Comm comm, int coll, int kind, int mode,
               MPI_Request *req, const char *func);
void rk_reqs_finalize(void);
/* generic send/recv on a context, used by the public calls and by
 * rckmpi_coll_*; @p coll selects the communicator's collective context */
int rk_isend(const void *buf, int count, MPI_Datatype type, int dest,
             int tag, MPI_Comm comm, int coll, int mode, MPI_Request *req,
             const char *func);
int rk_irecv(void *buf, int count, MPI_Datatype type, int source, int tag,
             MPI_Comm comm, int coll, MPI_Request *req, const char *func);

/* ---- environment (init.c) ---- */
int rk_fatal(MPI_Comm comm, int err, const char *func, const char *what);
/* The text of error code @p err (err.c; MPI_Error_string's). */
const char *rk_err_string(int err);
/* End the process with @p code (1 when outside 1..255), after flushing
 * stdout and stderr (err.c). */
__attribute__((noreturn)) void rk_die(int code);
/* error with a message: logs @p what when the handler is fatal */
int rk_err(MPI_Comm comm, int err, const char *func, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int rk_check_init(const char *func);
/* MPI_TAG_UB: user tags 0 .. 2^30 - 1; the collective context also takes
 * the library's own tags above it (communicator agreement, finalize) */
#define RK_TAG_UB 0x3fffffff
/* the library's own tags (collective contexts only; the collectives use
 * tags 0 .. RK_TAG_UB there) */
#define RK_TAG_COMM 0x40000000     /* communicator agreement */
#define RK_TAG_FINALIZE 0x40000001 /* MPI_Finalize's exchange */
#define RK_TAG_INTER 0x40000002    /* intercommunicator set-up */
#define RK_TAG_SPAWN 0x40000003    /* MPI_Comm_spawn's hand-shake */
#define RK_TAG_GROUP 0x40001000    /* + tag: MPI_Comm_create_group */

/* ---- intercommunicator helpers (intercomm.c) ---- */
/* The contexts in use at every member of @p lc, ORed at @p leader. */
int rk_local_or(MPI_Comm lc, int leader, uint32_t *used);
/* @p leader's @p buf (count ints) to every member of @p lc. */
int rk_local_bcast(MPI_Comm lc, int leader, int *buf, int count);
/* A new intercommunicator: local group @p ue (@p me my rank), remote
 * group @p peer, on context @p ctx, with its hidden local communicator. */
int rk_inter_new(const int *ue, int n, int me, uint32_t ctx,
                 const int *peer, int psize, MPI_Errhandler eh,
                 MPI_Comm *out);

/* ---- dynamic processes (spawn.c) ---- */
/* A spawned process: its parent intercommunicator (MPI_Init). */
int rk_spawn_init(void);
/* MPI_Finalize's exchange with every process connected by a spawn: post
 * into @p reqs (room for 2 * nues) and @return how many. */
int rk_spawn_finalize_post(MPI_Request *reqs);

/* ---- one-sided, MPI-IO, ports (win*.c, io*.c, port*.c) ---- */
/* Run at the end of every rk_progress pass while windows exist (win.c:
 * the targets' side of one-sided operations); NULL otherwise. */
extern void (*rk_progress_hook)(void);
/* MPI_Init: the shared-DRAM range for windows (win_shm.c), and on world
 * rank 0 the name service of MPI_Publish_name (port.c). */
void rk_win_shm_init(void);
/* From now on the progress hook also runs rk_names_serve (win.c). */
void rk_win_names_serve(void);
/* World rank 0: answer the name requests that arrived; how many. */
int rk_names_serve(void);
/* The text of error classes RCKMPI_ERR_WINIO_FIRST..LAST. */
const char *rk_winio_err_string(int err);
/* the library's own tags of MPI_Comm_connect/accept (port.c) */
#define RK_TAG_PORT 0x7ff00000 /* + the port's number */
#define RK_TAG_NAME 0x7fefff00  /* name requests to world rank 0 */
#define RK_TAG_NAME_R 0x7fefff01 /* its answers */

#endif
