/*
 * The sim backend: a deterministic discrete-event model of the chip. Each
 * core runs the program natively in its own process; every HAL call is an
 * event at that core's virtual time, and events on shared chip state run in
 * global virtual-time order (time, then core). See docs/SIM.md.
 */
#ifndef RCK_SIM_H
#define RCK_SIM_H

#include "rck/hal.h"

extern const rck_hal_ops_t rck_sim_ops;

#endif
