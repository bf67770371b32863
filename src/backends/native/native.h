/*
 * The native backend: the chip's memories in one host shared-memory
 * segment (a memfd created by the launcher and inherited by every core),
 * run at host speed.
 */
#ifndef RCK_NATIVE_H
#define RCK_NATIVE_H

#include "rck/hal.h"

extern const rck_hal_ops_t rck_native_ops;

#endif
