/*
 * The communication matrix as the backends write it (docs/MONITORING.md):
 * the JSON object "comm" of the reports, from the rows of every UE
 * (rck/monitor.h: row[(lib * 2 + k) * nues + dest], k = 0 bytes, 1
 * messages; rows rck_comm_row_words(nues) apart), and the report file of
 * the backends without a report of their own (native, mpi).
 *
 * Owns: the JSON layout of "comm". May call: the HAL's monitor names.
 * Used by: src/backends/native, sim, mpi.
 */
#ifndef RCK_BACKEND_COMM_H
#define RCK_BACKEND_COMM_H

#include "rck/hal.h"
#include "rck/json.h"

#include <stdint.h>
#include <stdio.h>

/**
 * Write the object {"ues": N, "libraries": [...], "bytes": {lib: N x N},
 * "messages": {lib: N x N}} (row = sender UE, column = receiver UE).
 * @param [in] rows  nues rows of rck_comm_row_words(nues) words.
 * @param [in] key   its member name in the enclosing object (NULL in an
 *                   array or at the root).
 * @param [in] indent  spaces before each line after the first.
 */
void rck_be_comm_json(rck_jsonw_t *w, const char *key, const uint64_t *rows,
                      int nues, int indent);

/**
 * The report file of a run on a backend without its own (RCK_REPORT, rck
 * run --report): {"rockcreek_report": 1, "backend", "capabilities" (the
 * names of @p ops' RCK_CAP_* bits, rck_cap_name), "chip", "nues",
 * "host_seconds", "comm"}. Written through a temporary file and renamed.
 * @return RCK_OK, RCK_ERR_IO (logged).
 */
rck_status_t rck_be_report_write(const char *path, const rck_hal_ops_t *ops,
                                 const rck_chip_t *chip, int nues,
                                 double host_seconds, const uint64_t *rows);

/**
 * RCK_REPORT resolved for a backend without a default report: the path,
 * or "" for none ("none", "off", empty).
 */
const char *rck_be_report_path(void);

#endif
