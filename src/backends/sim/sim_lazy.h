/*
 * The lazy-write queue (sim_lazy.c).
 */
#ifndef RCK_SIM_LAZY_H
#define RCK_SIM_LAZY_H

#include "sim_state.h"

/** The first queued write: its key, or 0 if none. */
int sim_pending_first(sim_hdr_t *h, uint64_t *t, int *ue);
/** Apply every queued write with key <= (t, ue), in key order. */
void sim_pending_apply(sim_t *s, uint64_t t, int ue);
/** Room in @p q for a write of @p len bytes; *skip: bytes to leave at the
 * end of the data ring so that the data is contiguous. */
int sim_pending_fits(const sim_pwq_t *q, uint32_t len, uint64_t *skip);
/** Queue a write of this core at its current time (it fits). */
void sim_pending_push(sim_t *s, int kind, int core, uint32_t off,
                      const void *data, uint32_t len, uint64_t per);

#endif
