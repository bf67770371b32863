/*
 * The compiled memory model's runtime (sim_p54c_mem.c): what the HAL's
 * P54C part (sim_p54c.c) calls. docs/P54C.md, "The compiled memory model".
 */
#ifndef RCK_SIM_P54C_MEM_H
#define RCK_SIM_P54C_MEM_H

#include "p54c_abi.h"

#include <stddef.h>
#include <stdint.h>

/* The counters' page was just mapped at @p page (P54C_CTR_PAGES pages):
 * point its slow paths here, empty its filters (mode FILL). */
void sim_p54c_mem_page_init(volatile uint64_t *page);

/* The core attached on the compiled engine in the detailed mode: the
 * caches of slot @p slot, driven by the program's checks from now on.
 * @return 0, or -1 (no page, a line size other than 32 bytes, no memory). */
int sim_p54c_mem_attach(p54c_slot_t *slot);

/* At a HAL call: the counts the page keeps into @p slot. */
void sim_p54c_mem_take(p54c_slot_t *slot);

/* rck_hal_dcache_flush: drop every line (the HAL charged the flush). */
void sim_p54c_mem_flush(void);

/* The core detaches: back to mode FILL. */
void sim_p54c_mem_detach(void);

/* The page layout every loaded module's memory checks were built for
 * (their P54C_LAYOUT_NOTE_* notes) against this library's
 * P54C_LAYOUT_VERSION. @return 0 when all agree (or no module is checked),
 * else -1 with @p msg (@p len bytes) naming the module and both versions. */
int sim_p54c_layout_check(char *msg, size_t len);

/* The slow paths' code, which the QEMU plugin does not count. */
void sim_p54c_mem_slow_range(uint64_t *lo, uint64_t *hi);

#endif
