/*
 * The outputs (sim_report.c, sim_trace.c): the JSON report, the summary,
 * the deadlock and watchdog reports, the Chrome trace.
 */
#ifndef RCK_SIM_REPORT_H
#define RCK_SIM_REPORT_H

#include "sim_state.h"

#include <stdio.h>

/* ---- reports (sim_report.c) ---- */
/** Write the JSON report and the trace and print the summary (once per
 * job). @return RCK_OK, or RCK_ERR_IO if an output could not be written
 * (logged, naming its path). */
rck_status_t sim_report_write(sim_hdr_t *h);
/** Start / finish this core's part of the trace. */
void sim_trace_open(sim_t *s);
void sim_trace_close(sim_t *s);
/** One member of a trace event's "args": a string (@p str not NULL) or
 *  an integer. */
typedef struct {
    const char *key;
    const char *str;
    long long num;
} sim_trace_arg_t;
/** A complete event @p name on this core's timeline with @p nargs
 *  members of "args" (none: no "args"). */
void sim_trace_slice(sim_t *s, const char *name, const char *cat,
                     uint64_t t0, uint64_t t1, const sim_trace_arg_t *args,
                     int nargs);
/** A transfer to core @p target that takes this core from @p t0 to @p t1
 *  (a slice of category @p cat here) and lands at @p arrive (an arrival
 *  on the target's timeline, and a flow arrow between the two). */
void sim_trace_flow(sim_t *s, const char *name, const char *cat, int target,
                    uint64_t t0, uint64_t t1, uint64_t arrive,
                    uint64_t bytes);
/** Close the open call's slice, open @p call's (NULL: none). */
void sim_trace_call(sim_t *s, const sim_ctx_t *call);
/** At a HAL call's entry, once the program's work before it is charged:
 *  replay set_context's changes since the previous entry (sim_t.ctx_log):
 *  close the open call's slice at @p exit_t (the previous call's exit),
 *  open the last call named now (those before it: empty, at @p exit_t). */
void sim_trace_context(sim_t *s, uint64_t exit_t);
/** Print what every parked core waits for (deadlock). */
void sim_report_deadlock(sim_hdr_t *h);
/** The watchdog took the token from UE @p k (outside the HAL for @p secs
 *  seconds) and every other core waits: name it and the waits. */
void sim_report_spinner(sim_hdr_t *h, int k, double secs);

/* sim_report.c / sim_trace.c */
/** Join the cores' trace parts into the trace file (end of the run).
 * @return RCK_OK, or RCK_ERR_IO (logged, naming the trace's path). */
rck_status_t sim_trace_merge(sim_hdr_t *h);
/** Does @p path name a compressed trace (ends in .gz)? */
int sim_trace_gz(const char *path);
/** Can this build write one (zlib)? */
int sim_trace_gz_ok(void);

#endif
