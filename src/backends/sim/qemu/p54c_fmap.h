/*
 * The fetch maps of checked code for the QEMU engine (p54c_fmap.c;
 * docs/P54C.md, "Fetch at the unchecked addresses").
 */
#ifndef RCK_SIM_P54C_FMAP_H
#define RCK_SIM_P54C_FMAP_H

#include <stddef.h>
#include <stdint.h>

/* Where the instruction at guest address @p va (@p sz bytes @p b, as
 * translated) lies in the unchecked layout: [*lo, *hi). @return 1 if it
 * is in a segment of a checked module's fetch map, 0 if not (it is
 * fetched where it runs). */
int p54c_fmap_lookup(uint64_t va, size_t sz, const uint8_t *b,
                     uint64_t *lo, uint64_t *hi);

/* @return 1 if the instruction at @p va (@p sz bytes @p b) lies in a
 * checked module (one with a fetch map), 0 if not. */
int p54c_fmap_checked(uint64_t va, size_t sz, const uint8_t *b);

#endif
