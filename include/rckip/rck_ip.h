/*
 * rck_ip.h: IP between the cores (librckip, docs/IP.md).
 *
 * Every core runs its own lwIP stack (Debian's liblwip) in its own process;
 * the link layer is a ring of frames in the receiving core's MPB or in
 * shared DRAM (RCK_IP_BUFFER), filled by senders under the receiver's TAS
 * lock, announced with a GIC interrupt. Programs use ordinary BSD sockets:
 * link them with librckip (`rckcc -rck-ip`), which defines socket(),
 * connect(), read(), close(), ... and routes the descriptors it created to
 * lwIP, every other descriptor to the C library.
 *
 * Core (UE) i has the address RCK_IP_ADDR + i (10.48.0.(i+1) by default)
 * and the names rck<i>; these addresses exist only inside the cores' lwIP
 * stacks. Run every IP program in a network namespace of its own
 * (`unshare -rn rck run ...`): see docs/IP.md, "Safety rule".
 */
#ifndef RCK_IP_H
#define RCK_IP_H

#include "rck/status.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push(default) /* exported API: see RCCE.h */

/**
 * Attach to the core and start its IP stack: reserve the receive buffer
 * (before RCCE_init freezes the layout, when the buffer is in the MPB or in
 * shared DRAM), bring up the interface. The first socket call does it
 * itself; a program that also uses RCCE calls it before RCCE_init.
 * Idempotent.
 * @return RCK_OK; RCK_ERR_CONFIG (a bad RCK_IP_* setting, named);
 *         RCK_ERR_BUSY (the layout is frozen); RCK_ERR_NOSPACE (the buffer
 *         does not fit); RCK_ERR_UNSUPPORTED (the mpi backend with more
 *         than one node).
 */
rck_status_t rck_ip_init(void);

/**
 * The IPv4 address of UE @p ue, in network byte order.
 * @param [out] addr  set on success.
 * @return RCK_OK; RCK_ERR_INVALID if @p ue is not a UE of the job.
 */
rck_status_t rck_ip_ue_addr(int ue, uint32_t *addr);

/**
 * Seconds on this core's clock: host time on native, the chip's virtual
 * time on the sim (what a benchmark between cores should time with).
 * @return -1 before the core is attached (rck_ip_init).
 */
double rck_ip_wtime(void);

/** Counters of this core's link (docs/IP.md). */
typedef struct {
    uint64_t tx_frames, tx_bytes;   /* frames written into other rings */
    uint64_t rx_frames, rx_bytes;   /* frames taken from our ring */
    uint64_t tx_waits;              /* sends that found the ring full */
    uint64_t tx_refused;            /* frames refused (too large, no UE) */
    uint64_t irqs;                  /* GIC interrupts taken */
} rck_ip_stats_t;

/** This core's link counters. @return RCK_ERR_STATE before rck_ip_init. */
rck_status_t rck_ip_stats(rck_ip_stats_t *stats);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif
