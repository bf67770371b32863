/*
 * RCCE_lib.h: the part of Intel's internal RCCE header that SCC programs
 * include and use. Intel's file also declares the library's internal
 * state (the MPB pointers, RC_COREID, the flag queues, ...); rockcreek does
 * not have that state in that form and does not provide it. What is and is
 * not here is listed in docs/COMPAT.md.
 */
#ifndef RCCE_LIB_H
#define RCCE_LIB_H

#include "RCCE.h"

#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push(default) /* exported API: see RCCE.h */

/* Length of n bytes padded to whole 32-byte lines. */
#define PAD32byte(n) ((n) % 32 == 0 ? (n) : (n) + 32 - (n) % 32)

/* MPB pointer types of Intel's header. */
typedef volatile unsigned int *t_vintp;
typedef volatile unsigned char t_vchar;
typedef volatile unsigned int t_vint;

/* Operation and type folded into one number, as Intel's reductions do. */
#define RCCE_SUM_INT (RCCE_SUM + (RCCE_NUM_OPS) * (RCCE_INT))
#define RCCE_SUM_LONG (RCCE_SUM + (RCCE_NUM_OPS) * (RCCE_LONG))
#define RCCE_SUM_FLOAT (RCCE_SUM + (RCCE_NUM_OPS) * (RCCE_FLOAT))
#define RCCE_SUM_DOUBLE (RCCE_SUM + (RCCE_NUM_OPS) * (RCCE_DOUBLE))
#define RCCE_MAX_INT (RCCE_MAX + (RCCE_NUM_OPS) * (RCCE_INT))
#define RCCE_MAX_LONG (RCCE_MAX + (RCCE_NUM_OPS) * (RCCE_LONG))
#define RCCE_MAX_FLOAT (RCCE_MAX + (RCCE_NUM_OPS) * (RCCE_FLOAT))
#define RCCE_MAX_DOUBLE (RCCE_MAX + (RCCE_NUM_OPS) * (RCCE_DOUBLE))
#define RCCE_MIN_INT (RCCE_MIN + (RCCE_NUM_OPS) * (RCCE_INT))
#define RCCE_MIN_LONG (RCCE_MIN + (RCCE_NUM_OPS) * (RCCE_LONG))
#define RCCE_MIN_FLOAT (RCCE_MIN + (RCCE_NUM_OPS) * (RCCE_FLOAT))
#define RCCE_MIN_DOUBLE (RCCE_MIN + (RCCE_NUM_OPS) * (RCCE_DOUBLE))
#define RCCE_PROD_INT (RCCE_PROD + (RCCE_NUM_OPS) * (RCCE_INT))
#define RCCE_PROD_LONG (RCCE_PROD + (RCCE_NUM_OPS) * (RCCE_LONG))
#define RCCE_PROD_FLOAT (RCCE_PROD + (RCCE_NUM_OPS) * (RCCE_FLOAT))
#define RCCE_PROD_DOUBLE (RCCE_PROD + (RCCE_NUM_OPS) * (RCCE_DOUBLE))

/* RCCE_qsort is declared in RCCE.h (Intel's prototype). */

/**
 * Compares two ints, for RCCE_qsort over core ids.
 * @param [in] e1, e2  pointers to int.
 * @return <0, 0 or >0 as *e1 is below, equal to or above *e2.
 */
int id_compare(const void *e1, const void *e2);

/**
 * The colour function of the global communicator (every UE: 1), for
 * RCCE_comm_split(RCCE_global_color, NULL, &comm).
 * @return 1.
 */
int RCCE_global_color(int rank, void *nothing);

/**
 * Prints one line per tile, "Clock divider for tile T is D", with the
 * tile's current clock divider (-1 where the backend cannot tell), on
 * stdout. Call after RCCE_init.
 */
void print_dividers(void);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif
