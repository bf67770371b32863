/*
 * The P54C compute model's instruction classes from instruction bytes
 * (p54c_classify.c). Plain C, used by the QEMU plugin and the unit test.
 */
#ifndef RCK_SIM_P54C_CLASSIFY_H
#define RCK_SIM_P54C_CLASSIFY_H

#include <stddef.h>
#include <stdint.h>

/* @return the class (P54C_C_*, p54c_abi.h) of the x86-64 instruction in
 * @p b (@p n bytes, exactly one instruction). */
int p54c_classify(const uint8_t *b, size_t n);

/* @return the bytes one iteration of the string instruction in @p b moves
 * (1, 2, 4 or 8), 0 if it is no string instruction. QEMU runs a rep string
 * instruction as one executed instruction per iteration; the P54C's own
 * `rep movsd`/`rep stosd` move 4 bytes an iteration, so an iteration is
 * charged width / 4 of the string class's cycles. */
int p54c_string_width(const uint8_t *b, size_t n);

#endif
