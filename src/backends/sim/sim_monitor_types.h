/*
 * The sim backend's monitoring state in the segment's header
 * (sim_monitor.c): the progress line's period and when it is next due.
 */
#ifndef RCK_SIM_MONITOR_TYPES_H
#define RCK_SIM_MONITOR_TYPES_H

#include <stdint.h>

typedef struct {
    double progress_s;         /* period of the progress line, 0: off */
    uint64_t progress_next_ns; /* host time of the next line */
    int32_t progress_shown;    /* a line is on the terminal */
    int32_t progress_tty;      /* stderr is a terminal */
} sim_monitor_job_t;

#endif
