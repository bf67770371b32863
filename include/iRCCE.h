/*
 * iRCCE.h: rockcreek's implementation of RWTH Aachen's iRCCE 2.0, the
 * non-blocking extension of RCCE (RCCE-API.md section 2). Programs include
 * it after (or instead of) RCCE.h and link the same library. The semantics,
 * return codes and deviations from the original are in docs/IRCCE.md.
 *
 * iRCCE shares RCCE's communication buffer and its sent/ready flags, so a
 * message sent with RCCE_send can be received with iRCCE_irecv and one sent
 * with iRCCE_isend with RCCE_recv. Message passing needs the non-gory
 * shape; the helpers (put/get, flags, atomic registers) work in every shape.
 */
#ifndef IRCCE_H
#define IRCCE_H

#include "RCCE.h"

#include <stddef.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push(default) /* exported API: see RCCE.h */

#define iRCCE_VERSION "2.0"
#define iRCCE_FLAIR

/* ---- return codes ---- */
#define iRCCE_SUCCESS RCCE_SUCCESS
#define iRCCE_ERROR -1
#define iRCCE_PENDING -2
#define iRCCE_RESERVED -3
#define iRCCE_NOT_ENQUEUED -4

/* ---- wildcards ---- */
#define iRCCE_ANY_SOURCE (-1)
#define iRCCE_ANY_LENGTH (-1)
#ifndef SINGLEBITFLAGS
/* any-length receives and tagged flags need whole-line flags */
#define _iRCCE_ANY_LENGTH_
#define _iRCCE_TAGGED_FLAGS_
#endif

/** Bytes of payload a tagged flag line carries beside its value. */
#define iRCCE_MAX_TAGGED_LEN (RCCE_LINE_SIZE - (int)sizeof(int))

/*
 * Requests. The fields before the rck_ ones keep the names of the original
 * structures and mean the same (programs sometimes read size, source,
 * dest, finished); the library owns all of them while the request is
 * queued.
 */
typedef struct _iRCCE_SEND_REQUEST {
    char *privbuf;           /* the message, in private memory */
    t_vcharp combuf;         /* this UE's communication buffer */
    size_t chunk;            /* bytes of combuf one piece may use */
    size_t subchunk1;        /* pipelined halves (issend) */
    size_t subchunk2;
    RCCE_FLAG *ready;        /* ready flag (in this UE's MPB) */
    RCCE_FLAG *sent;         /* sent flag (in the receiver's MPB) */
    RCCE_FLAG_STATUS flag_set_value;
    size_t size;             /* message bytes */
    int dest;                /* receiving UE */
    int sync;                /* 1: issend/ssend (pipelined, tagged) */
    size_t wsize;            /* bytes the receiver has acknowledged */
    size_t remainder;        /* bytes still to go */
    size_t nbytes;           /* bytes of the piece in flight */
    char *bufptr;            /* start of the piece in flight */
    int label;               /* index of the piece in flight */
    int finished;            /* 1 once completed successfully */
    struct _iRCCE_SEND_REQUEST *next;
    /* rockcreek */
    unsigned rck_magic;      /* set while the library knows the request */
    int rck_state;           /* queued, active, done, cancelled, failed */
    int rck_status;          /* code of a request that failed */
    int rck_kind;            /* framing of the message */
    int rck_coll;            /* posted inside a collective (marked) */
} iRCCE_SEND_REQUEST;

typedef struct _iRCCE_RECV_REQUEST {
    char *privbuf;           /* where the message goes */
    t_vcharp combuf;         /* the sender's communication buffer */
    size_t chunk;
    size_t subchunk1;
    size_t subchunk2;
    RCCE_FLAG *ready;        /* ready flag (in the sender's MPB) */
    RCCE_FLAG *sent;         /* sent flag (in this UE's MPB) */
    RCCE_FLAG_STATUS flag_set_value;
    size_t size;             /* message bytes (the actual length once an
                                iRCCE_ANY_LENGTH receive has started) */
    int source;              /* sending UE, iRCCE_ANY_SOURCE until known */
    int sync;                /* 1: isrecv/srecv */
    size_t wsize;            /* bytes received so far */
    size_t remainder;
    size_t nbytes;
    char *bufptr;
    int label;
    int finished;            /* 1 once completed successfully */
    int started;             /* 1 once the first piece was taken */
    struct _iRCCE_RECV_REQUEST *next;
    /* rockcreek */
    unsigned rck_magic;
    int rck_state;
    int rck_status;
    int rck_kind;
    int rck_any_length;      /* posted with iRCCE_ANY_LENGTH */
} iRCCE_RECV_REQUEST;

/* ---- wait lists ---- */
#define iRCCE_WAIT_LIST_RECV_TYPE 0
#define iRCCE_WAIT_LIST_SEND_TYPE 1

typedef struct _iRCCE_WAIT_LISTELEM {
    int type;
    struct _iRCCE_WAIT_LISTELEM *next;
    void *req;
} iRCCE_WAIT_LISTELEM;

typedef struct _iRCCE_WAIT_LIST {
    iRCCE_WAIT_LISTELEM *first;
    iRCCE_WAIT_LISTELEM *last;
} iRCCE_WAIT_LIST;

/** An atomic increment register (one of the chip's GIC counters). */
typedef struct _iRCCE_AIR {
    int counter;             /* index of the counter */
    int init;                /* 1 once allocated */
} iRCCE_AIR;

/* ---- initialisation ---- */

/** Set iRCCE up; collective over RCCE_COMM_WORLD (ends with a barrier).
 *  Optional: the other calls set iRCCE up on first use. */
int iRCCE_init(void);

/* ---- non-blocking send/recv ---- */

/**
 * Post a send (RCCE's protocol; sends complete in issue order).
 * @param [in]  privbuf  the message; must stay valid until completion.
 * @param [in]  size     bytes (>= 0).
 * @param [in]  dest     receiving UE (not oneself).
 * @param [out] request  the request, or NULL to send and wait.
 * @return iRCCE_SUCCESS (done), iRCCE_PENDING (head of the send queue),
 *         iRCCE_RESERVED (queued behind others), or an error code.
 */
int iRCCE_isend(char *privbuf, ssize_t size, int dest,
                iRCCE_SEND_REQUEST *request);
/**
 * Advance @p request if it heads the send queue (nothing else); NULL: push
 * the whole send queue.
 * @param [out] test  1 if the request will make no more progress (done,
 *                    cancelled, failed), else 0; may be NULL.
 */
int iRCCE_isend_test(iRCCE_SEND_REQUEST *request, int *test);
/** Wait for @p request (NULL: for every send), progressing all queues. */
int iRCCE_isend_wait(iRCCE_SEND_REQUEST *request);
/** Advance the send queue as far as it goes without waiting.
 *  @return iRCCE_SUCCESS if it is empty afterwards, else iRCCE_PENDING. */
int iRCCE_isend_push(void);
/**
 * Post a receive.
 * @param [out] privbuf  where the message goes.
 * @param [in]  size     bytes, or iRCCE_ANY_LENGTH (privbuf must be large
 *                       enough; not with SINGLEBITFLAGS).
 * @param [in]  source   sending UE or iRCCE_ANY_SOURCE.
 * @param [out] request  the request, or NULL to receive and wait.
 * @return as iRCCE_isend (an unbound any-source receive is RESERVED).
 */
int iRCCE_irecv(char *privbuf, ssize_t size, int source,
                iRCCE_RECV_REQUEST *request);
/** As iRCCE_isend_test, for receives (NULL: push every receive queue). */
int iRCCE_irecv_test(iRCCE_RECV_REQUEST *request, int *test);
/** Wait for @p request (NULL: for every receive), progressing all queues. */
int iRCCE_irecv_wait(iRCCE_RECV_REQUEST *request);
/** Advance every receive queue as far as it goes without waiting.
 *  @return iRCCE_SUCCESS if they are all empty afterwards, else
 *  iRCCE_PENDING. */
int iRCCE_irecv_push(void);

/* ---- pipelined synchronous send/recv ---- */

/** Blocking synchronous send: returns once the receiver has the whole
 *  message. Up to iRCCE_MAX_TAGGED_LEN bytes travel in the flag line; 0
 *  bytes is a pure synchronisation. Needs an iRCCE receive. */
int iRCCE_ssend(char *privbuf, ssize_t size, int dest);
/** Blocking receive of any kind of message (source may be
 *  iRCCE_ANY_SOURCE, size iRCCE_ANY_LENGTH; 0 bytes takes an ssend(0)). */
int iRCCE_srecv(char *privbuf, ssize_t size, int source);
/**
 * If no message from @p source (any source) is announced, return
 * iRCCE_PENDING with *test = 0 and consume nothing; else receive it as
 * iRCCE_srecv does and set *test = 1. NULL @p test: iRCCE_srecv.
 */
int iRCCE_srecv_test(char *privbuf, ssize_t size, int source, int *test);
/** Non-blocking iRCCE_ssend (test/wait with the isend calls). */
int iRCCE_issend(char *privbuf, ssize_t size, int dest,
                 iRCCE_SEND_REQUEST *request);
/** Non-blocking iRCCE_srecv (test/wait with the irecv calls). */
int iRCCE_isrecv(char *privbuf, ssize_t size, int source,
                 iRCCE_RECV_REQUEST *request);

/* ---- probing ---- */

/**
 * Wait (progressing all queues) until a message from @p source (or any
 * source) is announced that no posted receive claims.
 * @param [out] test_rank  its source; may be NULL.
 * Sets iRCCE_get_source(NULL) and iRCCE_get_length().
 */
int iRCCE_probe(int source, int *test_rank);
/** As iRCCE_probe without waiting or progressing:
 *  @param [out] test_rank  the source, or iRCCE_ANY_SOURCE; may be NULL.
 *  @param [out] test_flag  1 if a message was found; may be NULL. */
int iRCCE_iprobe(int source, int *test_rank, int *test_flag);

/**
 * rockcreek extension (not in RWTH's iRCCE): iRCCE_iprobe that also copies
 * the first bytes of the message it finds, consuming nothing (never waits
 * or progresses). A message is found as iRCCE_iprobe finds it (no posted
 * receive claims it; a collective's is passed by).
 * @param [out] buf        its first min(size, first piece) bytes (an
 *                         issend's inline payload, an RCCE_send's or
 *                         isend's first piece); may be NULL if size is 0.
 * @param [out] test_rank  its source, or iRCCE_ANY_SOURCE if none; may
 *                         be NULL.
 * @param [out] copied     bytes copied; may be NULL.
 * Sets iRCCE_get_source(NULL) and iRCCE_get_length() (the message's
 * length, or iRCCE_ANY_LENGTH for RCCE_send's and iRCCE_msend's, which
 * carry none: then bytes past the message's end are stale buffer bytes).
 * A bad source gives RCCE_ERROR_ID; NULL buf with size > 0
 * RCCE_ERROR_TARGET.
 */
#define RCK_IRCCE_PEEK 1
int iRCCE_peek(char *buf, size_t size, int source, int *test_rank,
               size_t *copied);

/* ---- wait lists ---- */

/** Make @p list empty. */
void iRCCE_init_wait_list(iRCCE_WAIT_LIST *list);
/** Add either or both requests (NULL ones are skipped). */
void iRCCE_add_to_wait_list(iRCCE_WAIT_LIST *list,
                            iRCCE_SEND_REQUEST *send_request,
                            iRCCE_RECV_REQUEST *recv_request);
void iRCCE_add_send_to_wait_list(iRCCE_WAIT_LIST *list,
                                 iRCCE_SEND_REQUEST *request);
void iRCCE_add_recv_to_wait_list(iRCCE_WAIT_LIST *list,
                                 iRCCE_RECV_REQUEST *request);
/** Test every request (each advances only itself); those that are over
 *  leave the list. @param [out] test  1 if the list is now empty.
 *  @return iRCCE_PENDING, iRCCE_SUCCESS, or the first other code a
 *  request ended with. */
int iRCCE_test_all(iRCCE_WAIT_LIST *list, int *test);
/** Wait until every request is over (progressing all queues); the list
 *  ends empty. @return as iRCCE_test_all, never iRCCE_PENDING. */
int iRCCE_wait_all(iRCCE_WAIT_LIST *list);
/**
 * Test the requests in list order; the first that is over leaves the list
 * and is returned.
 * @param [out] send_request  it, if a send (else NULL); may be NULL.
 * @param [out] recv_request  it, if a receive (else NULL); may be NULL.
 * @return its code; iRCCE_PENDING if none is over; iRCCE_ERROR for an
 *         empty list.
 */
int iRCCE_test_any(iRCCE_WAIT_LIST *list, iRCCE_SEND_REQUEST **send_request,
                   iRCCE_RECV_REQUEST **recv_request);
/** Wait until one request is over; as iRCCE_test_any otherwise. */
int iRCCE_wait_any(iRCCE_WAIT_LIST *list, iRCCE_SEND_REQUEST **send_request,
                   iRCCE_RECV_REQUEST **recv_request);

/* ---- queries ---- */

/** Destination of a send request (iRCCE_ERROR for NULL). */
int iRCCE_get_dest(iRCCE_SEND_REQUEST *request);
/** Source of a receive request; NULL: of the last probe or receive. */
int iRCCE_get_source(iRCCE_RECV_REQUEST *request);
/** Size of the given request (the actual one for an any-length receive);
 *  both NULL: iRCCE_get_length(). */
int iRCCE_get_size(iRCCE_SEND_REQUEST *send_request,
                   iRCCE_RECV_REQUEST *recv_request);
/** Length of the message of the last probe or receive (iRCCE_ANY_LENGTH
 *  if a probed message does not carry its length). */
int iRCCE_get_length(void);
/** State of a request: iRCCE_SUCCESS, iRCCE_PENDING (head),
 *  iRCCE_RESERVED, iRCCE_NOT_ENQUEUED (cancelled), an error code (failed)
 *  or iRCCE_ERROR (unknown). */
int iRCCE_get_status(iRCCE_SEND_REQUEST *send_request,
                     iRCCE_RECV_REQUEST *recv_request);

/* ---- cancelling requests that have not started ---- */

/**
 * Take a queued request that has exchanged nothing out of its queue.
 * @param [out] test  1 if cancelled; may be NULL.
 * @return iRCCE_SUCCESS (cancelled), iRCCE_PENDING (started: it goes on),
 *         iRCCE_NOT_ENQUEUED (in no queue).
 */
int iRCCE_isend_cancel(iRCCE_SEND_REQUEST *request, int *test);
int iRCCE_irecv_cancel(iRCCE_RECV_REQUEST *request, int *test);

/* ---- multicast and collectives (no requests may be outstanding) ---- */

/** Send @p size bytes to every other UE of WORLD (each piece written
 *  once); they receive with iRCCE_mrecv (or any receive from this UE). */
int iRCCE_msend(char *privbuf, ssize_t size);
/** Receive a multicast from @p root. */
int iRCCE_mrecv(char *privbuf, ssize_t size, int root);
/** iRCCE_msend at @p root, iRCCE_mrecv elsewhere (over WORLD). */
int iRCCE_mcast(char *privbuf, ssize_t size, int root);
/** Multicast from rank @p root to the members of @p comm. */
int iRCCE_bcast(char *privbuf, ssize_t size, int root, RCCE_COMM comm);
/** RCCE's barrier with the master waiting for all arrivals at once (the
 *  two can be mixed on one communicator). */
int iRCCE_barrier(RCCE_COMM *comm);

/* ---- MPB helpers ---- */

/** Copy @p num_bytes (any length) from @p source (private memory or an
 *  MPB) to the offset of @p target (in the caller's MPB) in UE @p ue's
 *  MPB. */
int iRCCE_put(t_vcharp target, t_vcharp source, int num_bytes, int ue);
/** Copy @p num_bytes from the offset of @p source (in the caller's MPB)
 *  in UE @p ue's MPB to @p target. */
int iRCCE_get(t_vcharp target, t_vcharp source, int num_bytes, int ue);
/** memcpy where either side may be in any UE's MPB mapping.
 *  @return @p dest. */
void *iRCCE_memcpy_put(void *dest, const void *src, size_t count);
void *iRCCE_memcpy_get(void *dest, const void *src, size_t count);
#define iRCCE_memcpy iRCCE_memcpy_put
/** MPB space (multiple of 32 bytes) off the front of the communication
 *  buffer (gory shape: RCCE_malloc); same calls in the same order on every
 *  UE, no message in flight. @return NULL if it does not fit. */
t_vcharp iRCCE_malloc(size_t size);
/** A flag: tagged (a whole line) unless SINGLEBITFLAGS. */
int iRCCE_flag_alloc(RCCE_FLAG *flag);
/** Write UE @p ue's copy (any value for a line flag). */
int iRCCE_flag_write(RCCE_FLAG *flag, RCCE_FLAG_STATUS val, int ue);
int iRCCE_flag_read(RCCE_FLAG flag, RCCE_FLAG_STATUS *val, int ue);
/** Wait until the caller's copy equals @p val. */
int iRCCE_wait_until(RCCE_FLAG flag, RCCE_FLAG_STATUS val);

/* ---- tagged flags (a whole line: the value and up to
 *      iRCCE_MAX_TAGGED_LEN bytes of tag) ---- */

/** Allocate a line flag and clear the local copy. */
int iRCCE_flag_alloc_tagged(RCCE_FLAG *flag);
/** Write @p len bytes of @p tag, then the value, into UE @p ue's copy. */
int iRCCE_flag_write_tagged(RCCE_FLAG *flag, RCCE_FLAG_STATUS val, int ue,
                            void *tag, int len);
/** Read UE @p ue's copy: value into *val, @p len bytes of tag. */
int iRCCE_flag_read_tagged(RCCE_FLAG flag, RCCE_FLAG_STATUS *val, int ue,
                           void *tag, int len);
/** Wait until the local copy's value is @p val, then read the tag. */
int iRCCE_wait_tagged(RCCE_FLAG flag, RCCE_FLAG_STATUS val, void *tag,
                      int len);
/** *result = 1 and the tag if the local value is @p val, else 0. */
int iRCCE_test_tagged(RCCE_FLAG flag, RCCE_FLAG_STATUS val, int *result,
                      void *tag, int len);
int iRCCE_get_max_tagged_len(void);

/* ---- atomic increment registers (the chip's atomic counters) ---- */

/** Next register, in the same order on every UE. @param [out] reg */
int iRCCE_atomic_alloc(iRCCE_AIR **reg);
/** Increment. @param [out] old  the value before; may be NULL. */
int iRCCE_atomic_inc(iRCCE_AIR *reg, int *old);
int iRCCE_atomic_read(iRCCE_AIR *reg, int *value);
int iRCCE_atomic_write(iRCCE_AIR *reg, int value);

/* ---- compatibility names ---- */
#define RCCE_isend iRCCE_isend
#define RCCE_isend_test iRCCE_isend_test
#define RCCE_isend_wait iRCCE_isend_wait
#define RCCE_isend_push iRCCE_isend_push
#define RCCE_irecv iRCCE_irecv
#define RCCE_irecv_test iRCCE_irecv_test
#define RCCE_irecv_wait iRCCE_irecv_wait
#define RCCE_irecv_push iRCCE_irecv_push
#define RCCE_SEND_REQUEST iRCCE_SEND_REQUEST
#define RCCE_RECV_REQUEST iRCCE_RECV_REQUEST
#define RCCE_flag_write_tagged iRCCE_flag_write_tagged
#define RCCE_flag_read_tagged iRCCE_flag_read_tagged
#define RCCE_wait_tagged iRCCE_wait_tagged
#define RCCE_test_tagged iRCCE_test_tagged
#define RCCE_flag_alloc_tagged iRCCE_flag_alloc_tagged

#define iRCCE_send iRCCE_ssend
#define iRCCE_recv iRCCE_srecv
#define iRCCE_recv_test iRCCE_srecv_test

#define iRCCE_issend_test iRCCE_isend_test
#define iRCCE_issend_wait iRCCE_isend_wait
#define iRCCE_issend_push iRCCE_isend_push
#define iRCCE_isrecv_test iRCCE_irecv_test
#define iRCCE_isrecv_wait iRCCE_irecv_wait
#define iRCCE_isrecv_push iRCCE_irecv_push

/*
 * Return codes (details and the choices made where the original is silent
 * are in docs/IRCCE.md):
 *  - iRCCE_SUCCESS: done (a test sets *test = 1).
 *  - iRCCE_PENDING: the request is at the head of its queue and not done;
 *    from a cancel: the request has started and cannot be cancelled.
 *  - iRCCE_RESERVED: queued behind other requests (not started).
 *  - iRCCE_NOT_ENQUEUED: from a cancel, the request is in no queue; from a
 *    test or wait, the request was cancelled (a test sets *test = 1).
 *  - iRCCE_ERROR: not initialised, an invalid request (never posted, or
 *    still queued when passed to a new isend/irecv), an empty wait list
 *    given to wait_any/test_any, a wait that cannot complete (deadlock
 *    found by the backend, RCK_WAIT_TIMEOUT, a peer that died).
 *  - RCCE_ERROR_ID: a UE outside 0..num_ues-1, or oneself.
 *  - RCCE_ERROR_MESSAGE_LENGTH: a negative size (other than
 *    iRCCE_ANY_LENGTH for receives); a message whose length, known from
 *    its framing, is not the one posted (the message stays unreceived);
 *    iRCCE_ANY_LENGTH for a message that does not carry its length.
 *  - RCCE_ERROR_TARGET: a NULL buffer with a positive size.
 *  - RCCE_ERROR_ILLEGAL_OP: message passing in the gory shape.
 */

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif
