/*
 * The one logger. Libraries never printf; they log the cause of a failure
 * where it is first detected. Level from RCK_LOG (error, warn, info, debug).
 */
#ifndef RCK_LOG_H
#define RCK_LOG_H

typedef enum {
    RCK_LOG_ERROR = 0,
    RCK_LOG_WARN = 1,
    RCK_LOG_INFO = 2,
    RCK_LOG_DEBUG = 3
} rck_log_level_t;

/**
 * Write one log line to stderr if @p level is enabled.
 * @param [in] level  severity.
 * @param [in] file   source file (from the macros).
 * @param [in] line   source line.
 * @param [in] fmt    printf-style format.
 */
void rck_log_write(rck_log_level_t level, const char *file, int line,
                   const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/** @return non-zero if messages of @p level are printed. */
int rck_log_enabled(rck_log_level_t level);

/**
 * Set the tag printed before each line (e.g. "core 5").
 * @param [in] tag  copied; NULL clears it.
 */
void rck_log_set_tag(const char *tag);

#define rck_error(...) rck_log_write(RCK_LOG_ERROR, __FILE__, __LINE__, __VA_ARGS__)
#define rck_warn(...) rck_log_write(RCK_LOG_WARN, __FILE__, __LINE__, __VA_ARGS__)
#define rck_info(...) rck_log_write(RCK_LOG_INFO, __FILE__, __LINE__, __VA_ARGS__)
#define rck_debug(...)                                                        \
    do {                                                                      \
        if (rck_log_enabled(RCK_LOG_DEBUG))                                   \
            rck_log_write(RCK_LOG_DEBUG, __FILE__, __LINE__, __VA_ARGS__);    \
    } while (0)

#endif
