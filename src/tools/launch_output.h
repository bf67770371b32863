/*
 * The launcher's per-UE output files and line timestamps (mpirun's
 * --output-filename and --timestamp-output): launch_output.c. Used by
 * launch.c's line writer only.
 */
#ifndef RCK_TOOLS_LAUNCH_OUTPUT_H
#define RCK_TOOLS_LAUNCH_OUTPUT_H

#include <stddef.h>

typedef struct {
    int nues;
    int (*fd)[2];      /* per UE: stdout and stderr files, -1: none */
    int stamps;        /* prefix lines with the wall-clock time */
} rck_out_t;

/**
 * Set up @p o for @p nues UEs: with @p dir, the directory
 * DIR/1/rank.N/{stdout,stderr} for every UE (Open MPI's layout), made
 * and truncated now; with @p stamps, timestamps. @return 0, or -1 after
 * a message naming the path (the run must not start).
 */
int rck_out_init(rck_out_t *o, const char *tool, const char *dir, int nues,
                 int stamps);

/** The timestamp prefix for lines written now into @p buf (@p len bytes),
 *  "" without --timestamp-output. @return its length. */
size_t rck_out_stamp(const rck_out_t *o, char *buf, size_t len);

/** Write @p len bytes of UE @p ue's stream @p stream (0 out, 1 err) to its
 *  file, if it has one (errors ignored: the terminal still has it). */
void rck_out_write(const rck_out_t *o, int ue, int stream, const char *data,
                   size_t len);

void rck_out_fini(rck_out_t *o);

#endif
