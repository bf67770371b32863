/*
 * Starting programs on dormant UEs of a running job (rck_hal_spawn): the
 * request a core sends to the launcher, and the world a process belongs
 * to. The launcher (src/tools/launch.c) decodes what rck_hal_spawn
 * encodes; both sides live in this one file so the format has one owner.
 *
 * A request is one datagram on the job's spawn socket (a SOCK_SEQPACKET
 * pair the launcher makes when the job has dormant UEs; the cores find
 * their end in RCK_SPAWN_FD): NUL-terminated strings
 *   "RCKSPAWN1", n, ue_1 ... ue_n, argc, argv..., nenv, env ("K=V")...
 */
#ifndef RCK_SPAWN_H
#define RCK_SPAWN_H

#include "rck/hal.h"

#include <stddef.h>

/** Environment variable naming the cores' end of the spawn socket. */
#define RCK_SPAWN_FD_VAR "RCK_SPAWN_FD"
/** Environment variable listing a process's world ("0-7", "8,9,12"). */
#define RCK_WORLD_VAR "RCK_WORLD"
/** Largest request (bytes). */
#define RCK_SPAWN_MAX 65536

/** A decoded request: every pointer points into one allocation (free it
 *  with rck_spawn_req_free). */
typedef struct {
    int n;
    int *ues;
    char **argv;   /* NULL-terminated */
    char **env;    /* NULL-terminated, "K=V" */
    void *mem;
} rck_spawn_req_t;

/**
 * Decode a request of @p len bytes.
 * @return RCK_OK, RCK_ERR_INVALID (malformed), RCK_ERR_NOMEM.
 */
rck_status_t rck_spawn_decode(const char *buf, size_t len,
                              rck_spawn_req_t *req);
void rck_spawn_req_free(rck_spawn_req_t *req);

/**
 * "a-b,c" for @p n ascending UEs into @p out (@p cap bytes).
 * @return RCK_OK or RCK_ERR_NOSPACE.
 */
rck_status_t rck_world_format(const int *ues, int n, char *out, size_t cap);

/**
 * Parse a world list ("0-7", "8,9,12") of UEs below @p nues.
 * @param [out] ues  allocated, ascending; *n entries.
 * @return RCK_OK, RCK_ERR_INVALID (malformed, out of range, not
 *         ascending), RCK_ERR_NOMEM.
 */
rck_status_t rck_world_parse(const char *text, int nues, int **ues, int *n);

/**
 * Start @p argv (a program and its arguments; the program is looked up in
 * PATH like execvp) on @p n dormant UEs of the job, with @p env ("K=V"
 * strings, NULL-terminated; may be NULL) added to their environment and
 * RCK_WORLD naming the new UEs. Returns once the launcher has the request;
 * the new processes attach later. On the sim they join at this core's
 * virtual time.
 * @param [out] ues  the UEs that will run the program, ascending.
 * @return RCK_OK; RCK_ERR_UNSUPPORTED (the backend cannot, or the job was
 *         not started by `rck run --universe`: not reported, the caller
 *         says why); RCK_ERR_BUSY (fewer than
 *         @p n dormant UEs); RCK_ERR_INVALID; RCK_ERR_NOSPACE (the request
 *         is over RCK_SPAWN_MAX bytes); RCK_ERR_IO.
 */
rck_status_t rck_hal_spawn(rck_hal_t *hal, char *const argv[],
                           char *const env[], int n, int *ues);

/** The world of this process from RCK_WORLD (all UEs if unset); called
 *  by rck_hal_open. @return RCK_OK or RCK_ERR_CONFIG (reported). */
rck_status_t rck__hal_world_init(rck_hal_t *hal);

#endif
