/*
 * The launcher's standard input, forwarded to the cores as mpirun does
 * (`rck run --stdin UE|all|none`, default UE 0): each receiving core
 * reads a pipe of its own, which the launcher's poll loop fills from its
 * stdin; the others read /dev/null.
 *
 * Invariants: stdin is read only when every receiver has taken the last
 * chunk (back-pressure: a core that does not read holds the others back,
 * never the launcher's memory); a receiver's pipe is closed (EOF) once
 * stdin ended and it has taken everything, or when it exits. The
 * launcher's stdin is never made non-blocking (it is shared with the
 * shell) and is not read when it is a terminal of which the launcher is
 * not in the foreground (a run in the background would stop on SIGTTIN).
 *
 * Owns: the pipes and the chunk in flight. Used by: launch.c.
 */
#ifndef RCK_TOOLS_LAUNCH_STDIN_H
#define RCK_TOOLS_LAUNCH_STDIN_H

#include <poll.h>
#include <stddef.h>

/** --stdin none: every core reads /dev/null. */
#define RCK_STDIN_NONE (-1)
/** --stdin all: every core gets a copy. */
#define RCK_STDIN_ALL (-2)

#define RCK_FWD_CHUNK 65536

typedef struct {
    int mode;           /* RCK_STDIN_NONE, RCK_STDIN_ALL or a UE */
    int nues;
    int in_fd;          /* the launcher's stdin; -1: not (or no more) read */
    int *r, *w;         /* per UE: its pipe's ends (-1: none) */
    size_t *off;        /* per UE: how much of the chunk it has taken */
    size_t len;         /* bytes in the chunk */
    char *chunk;
} rck_fwd_t;

/** @return 0, or -1 (out of memory; the caller reports it). */
int rck_fwd_init(rck_fwd_t *f, int mode, int nues);
void rck_fwd_fini(rck_fwd_t *f);

/** Before UE @p ue is forked: its pipe, if it receives. @return 0, -1. */
int rck_fwd_pipe(rck_fwd_t *f, int ue);
/** In the child of UE @p ue: its stdin (its pipe, or /dev/null). */
void rck_fwd_child(const rck_fwd_t *f, int ue);
/** In the launcher, once UE @p ue was forked (or could not be). */
void rck_fwd_forked(rck_fwd_t *f, int ue);
/** UE @p ue ended: nothing more for it. */
void rck_fwd_core_exited(rck_fwd_t *f, int ue);

/** The descriptors to poll (at most nues + 1). @return how many. */
int rck_fwd_poll(const rck_fwd_t *f, struct pollfd *p);
/** After poll: read and forward what is ready. */
void rck_fwd_handle(rck_fwd_t *f, const struct pollfd *p, int n);

#endif
