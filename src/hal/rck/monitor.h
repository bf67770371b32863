/*
 * Monitoring through the HAL (docs/MONITORING.md): the communication
 * matrix, the message log and the performance counters' events.
 *
 * Communication matrix. Every library counts each message it sends with
 * one call, rck_hal_comm_count(), at the place it starts the send. The
 * counts go to this UE's row of the matrix: per library, per destination
 * UE, bytes and messages. The row lives where the backend put it
 * (rck_hal_t.comm_row: the sim and native backends give a row in their
 * shared segment, so the launcher reads the whole matrix at the end, even
 * of cores that crashed) or, for a backend that gives none, in the
 * process's own memory. Only the core itself writes its row: plain adds,
 * no atomics.
 *
 * Receives are not counted (the sender's row already has the message);
 * rck_hal_comm_recv() only writes the message log.
 *
 * Owns: the row layout, the message log's format (the libraries' ids
 * and names are the registry's: rck/lib.h).
 * May call: util (settings, logger), the backend's optional monitor slot.
 */
#ifndef RCK_MONITOR_H
#define RCK_MONITOR_H

#include <stddef.h>
#include <stdint.h>

#include "rck/lib.h"

struct rck_hal;

/*
 * The libraries a message is attributed to are the registered ones
 * (rck/lib.h): a library passes the id rck_lib_register gave it.
 *
 * One UE's row of the matrix: a head naming the row's libraries, then the
 * counts. The head has RCK_LIB_MAX entries, entry l naming library id l
 * of the UE's process (an empty name: none); the counts of library l to
 * UE d are row[RCK_COMM_HEAD_WORDS + (l * 2 + k) * nues + d], k = 0 bytes,
 * 1 messages. The report merges the rows by name, so processes whose ids
 * differ (another program, another link order) are counted right.
 */
typedef struct {
    char name[RCK_LIB_NAME_BYTES]; /* NUL-terminated; "" for no library */
    int16_t rank;                  /* rck_lib_desc_t.rank */
    uint16_t flags;                /* rck_lib_desc_t.flags */
} rck_comm_lib_t;

/** Words (uint64_t) of a row's head. */
#define RCK_COMM_HEAD_WORDS (RCK_LIB_MAX * sizeof(rck_comm_lib_t) / 8)

/** Words of one UE's row of the matrix (head and counts), padded to 64
 *  bytes. */
static inline size_t rck_comm_row_words(int nues)
{
    return (RCK_COMM_HEAD_WORDS + (size_t)RCK_LIB_MAX * 2 * (size_t)nues +
            7) / 8 * 8;
}

/**
 * Count one message of @p bytes sent by this core to @p dest_core, for
 * library @p lib (unless an attribution is in force, rck_hal_comm_as),
 * and log it when the message log is on. Cheap: a lookup and two adds.
 * A bad @p lib (not registered) or @p dest_core is logged once and not
 * counted.
 */
void rck_hal_comm_count(struct rck_hal *hal, int lib, int dest_core,
                        size_t bytes);

/**
 * A message of @p bytes from @p src_core has been received by this core:
 * only logged (message log on), never counted.
 */
void rck_hal_comm_recv(struct rck_hal *hal, int lib, int src_core,
                       size_t bytes);

/**
 * Attribute every message counted or logged from now on to @p lib, until
 * it is called again; -1 ends the attribution. A library built on another
 * one (SVM on mailboxes, RCCE_comm on iRCCE) uses it so its messages are
 * counted once, as its own.
 * @return the attribution before the call (-1: none), to restore it.
 */
int rck_hal_comm_as(struct rck_hal *hal, int lib);

/*
 * Events of the two performance counters (rck_hal_perfctr_select): the
 * P54C's event codes (Intel's Pentium event list), for the events
 * rockcreek can give. Which backend and compute model gives which is in
 * docs/MONITORING.md; the others read as RCK_ERR_UNSUPPORTED.
 */
enum {
    RCK_PERF_CODE_MISS = 0x0e,     /* code cache (L1 I) misses */
    RCK_PERF_INSTRUCTIONS = 0x16,  /* instructions executed */
    RCK_PERF_NC_READS = 0x1e,      /* non-cacheable memory reads */
    RCK_PERF_DATA_MISS = 0x28,     /* data read misses or write misses */
    RCK_PERF_DATA_RW = 0x29        /* data reads or writes */
};

/** @return the event's name ("instructions", ...), NULL if unknown. */
const char *rck_perf_event_name(int event);

/* ---- inside the library (hal.c) ---- */

/** After the backend attached: the row, the log, the attribution. */
int rck__monitor_attach(struct rck_hal *hal);
/** Before the backend detaches: flush and close the log. */
void rck__monitor_detach(struct rck_hal *hal);
/** The library call this core is in (rck_hal_set_context), for the log. */
void rck__monitor_context(struct rck_hal *hal, const char *call);

#endif
