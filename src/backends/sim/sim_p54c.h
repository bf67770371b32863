/*
 * The P54C compute models (sim_p54c.c, sim_p54c_chip.c, sim_p54c_script.c,
 * sim_p54c_report.c; docs/P54C.md): what they offer the sim. Their types
 * (kept in the segment and in each core's sim_t, and shared with the QEMU
 * plugin) are in sim_p54c_types.h.
 */
#ifndef RCK_SIM_P54C_H
#define RCK_SIM_P54C_H

#include "sim_p54c_types.h"
#include "rck/chip.h"
#include "rck/json.h"
#include "rck/status.h"

#include <stdint.h>
#include <stdio.h>

/* The sim's state (sim_state.h), by name only: the QEMU plugin includes
 * this header for the types, without the sim's state. */
typedef struct sim sim_t;
typedef struct sim_hdr sim_hdr_t;

/* ---- the P54C compute model (sim_p54c.c) ---- */
/* The chip file's p54c section into @p p (sim_p54c_chip.c). */
rck_status_t sim_p54c_chip_section(sim_p54c_job_t *p,
                                   const rck_chip_t *c);
int sim_p54c_available(void);
/* Does @p program (a path, or a name searched in PATH) count its own
 * instructions (built by rckcc: docs/P54C.md, "Compiled counters")?
 * @return 1 yes, with the chip's CPI table when @p cpi_units is given
 * (P54C_NCLASS units), 2 yes and every object of its own checks its memory
 * accesses too (rckcc -rck-mem), 0 no, -1 yes but built with another CPI
 * table (logged when @p cpi_units is given). */
int sim_p54c_counted(const char *program, const uint32_t *cpi_units);
/* Is @p program a script ("#!")? */
int sim_p54c_is_script(const char *program);
/* @p name, searched in PATH unless it has a slash, as an absolute path in
 * @p out. @return 0 or -1. */
int sim_p54c_find_exec(const char *name, char *out, size_t len);
/* The .rck_icount records of the ELF file @p path (sim_p54c_script.c):
 * n[0] the program's own, n[1] the libraries', n[2] those with another
 * magic or a CPI table other than @p want (NULL: the default), n[3] the
 * program's own whose memory accesses are checked; all 0 when the file or
 * its section cannot be read. */
void sim_p54c_ctr_records(const char *path, const uint32_t *want, int n[4]);
/* Does @p dir hold counted libraries of this rockcreek's CPI table? */
int sim_p54c_counted_dir_ok(const char *dir);
/* engine_choose for a launched script (RCK_P54C_ENGINE @p e). */
rck_status_t sim_p54c_engine_script(sim_p54c_job_t *p, const char *e,
                                    const char *program);
/* Who counted: "qemu" or "compiled" (the program's own counters). */
const char *sim_p54c_engine_name(const sim_hdr_t *h);
/* rck_hal_dcache_flush under the detailed model: adds the plugin's L2
 * lines to *clean and *dirty and has the plugin drop its caches. */
void sim_p54c_flush(sim_t *s, uint64_t *clean, uint64_t *dirty);
/* The core's shared-DRAM map (shm_set_map) into its P54C slot, where the
 * plugin times pointer accesses after it. */
void sim_p54c_map(sim_t *s);
rck_status_t sim_p54c_configure(sim_hdr_t *h, const char *spec,
                                const char *program);
rck_status_t sim_p54c_job_create(sim_hdr_t *h);
void sim_p54c_job_destroy(sim_hdr_t *h);
char **sim_p54c_child_wrap(sim_hdr_t *h, int ue, char *const *argv);
const p54c_slot_t *sim_p54c_report_slot(sim_hdr_t *h, uint32_t ue);
void sim_p54c_report_model(rck_jsonw_t *w, sim_hdr_t *h);
void sim_p54c_report_core(rck_jsonw_t *w, sim_hdr_t *h, uint32_t ue);
void sim_p54c_summary(sim_hdr_t *h);
rck_status_t sim_p54c_core_init(sim_t *s);
void sim_p54c_core_fini(sim_t *s);
double sim_p54c_take(sim_t *s, int at_entry);
void sim_p54c_mark(sim_t *s);

#endif
