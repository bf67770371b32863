/*
 * rockcreek status codes: one X-macro list, so codes and their strings
 * cannot drift. Libraries return rck_status_t; the RCCE boundary maps them
 * to RCCE_ERROR_* codes.
 */
#ifndef RCK_STATUS_H
#define RCK_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push(default) /* exported API: see RCCE.h */

#define RCK_STATUS_MAP(X)                                                     \
    X(OK, 0, "success")                                                       \
    X(ERR_INVALID, -1, "invalid argument")                                    \
    X(ERR_RANGE, -2, "address or length out of range")                        \
    X(ERR_ALIGN, -3, "address or length not aligned")                         \
    X(ERR_NOMEM, -4, "out of memory")                                         \
    X(ERR_NOSPACE, -5, "no space left in the buffer")                         \
    X(ERR_UNSUPPORTED, -6, "operation not supported by this backend")         \
    X(ERR_TIMEDOUT, -7, "timed out")                                          \
    X(ERR_BUSY, -8, "resource busy")                                          \
    X(ERR_IO, -9, "input/output or system call failure")                      \
    X(ERR_CONFIG, -10, "bad configuration")                                   \
    X(ERR_NOT_FOUND, -11, "not found")                                        \
    X(ERR_STATE, -12, "operation not valid in the current state")            \
    X(ERR_PEER_DEAD, -13, "a peer core has exited or failed")                 \
    X(ERR_DEADLOCK, -14, "deadlock: every core is waiting")                   \
    X(INTERRUPTED, -15, "wait ended by an interrupt")

typedef enum {
#define RCK__STATUS_ENUM(name, val, str) RCK_##name = (val),
    RCK_STATUS_MAP(RCK__STATUS_ENUM)
#undef RCK__STATUS_ENUM
} rck_status_t;

/**
 * Human-readable description of a status code.
 * @param [in] status  any value; unknown values give "unknown status".
 * @return a static string.
 */
const char *rck_status_string(rck_status_t status);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif
