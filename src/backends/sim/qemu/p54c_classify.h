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

#endif
