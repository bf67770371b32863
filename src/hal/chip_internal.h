/*
 * Between the chip loader's parts (chip.c: reading and applying;
 * chip_keys.c: the strict check of a chip file's keys). Not installed.
 */
#ifndef RCK_HAL_CHIP_INTERNAL_H
#define RCK_HAL_CHIP_INTERNAL_H

#include "rck/chip.h"
#include "rck/json.h"

/** The registered model parameters (rck_chip_register_params). */
int rck__chip_nparams(void);
const rck_chip_param_t *rck__chip_param(int k);

/**
 * Check every key of the chip document @p root against the built-in
 * chip's document @p dflt and the registered parameters.
 * @return 0, or -1 after naming the unknown key (and the nearest known).
 */
int rck__chip_keys_check(const rck_json_t *root, const rck_json_t *dflt,
                         const char *what);

/** The same for the text of a chip file (parsed here). @return RCK_OK or
 *  RCK_ERR_CONFIG (logged). */
rck_status_t rck__chip_keys_check_text(const char *text, const char *what);

#endif
