#include "rck/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int log_level = -1;
static char log_tag[64];

static int log_level_get(void)
{
    if (log_level < 0) {
        const char *s = getenv("RCK_LOG");
        log_level = RCK_LOG_WARN;
        if (s != NULL) {
            if (!strcasecmp(s, "error"))
                log_level = RCK_LOG_ERROR;
            else if (!strcasecmp(s, "warn"))
                log_level = RCK_LOG_WARN;
            else if (!strcasecmp(s, "info"))
                log_level = RCK_LOG_INFO;
            else if (!strcasecmp(s, "debug"))
                log_level = RCK_LOG_DEBUG;
        }
    }
    return log_level;
}

int rck_log_enabled(rck_log_level_t level)
{
    return (int)level <= log_level_get();
}

void rck_log_set_tag(const char *tag)
{
    if (tag == NULL)
        log_tag[0] = '\0';
    else
        snprintf(log_tag, sizeof(log_tag), "%s", tag);
}

void rck_log_write(rck_log_level_t level, const char *file, int line,
                   const char *fmt, ...)
{
    static const char *names[] = {"error", "warning", "info", "debug"};
    char msg[1024];
    va_list ap;

    if (!rck_log_enabled(level))
        return;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (level >= RCK_LOG_DEBUG) {
        const char *base = strrchr(file, '/');
        fprintf(stderr, "rockcreek%s%s: %s: %s (%s:%d)\n", log_tag[0] ? " " : "",
                log_tag, names[level], msg, base ? base + 1 : file, line);
    } else {
        fprintf(stderr, "rockcreek%s%s: %s: %s\n", log_tag[0] ? " " : "",
                log_tag, names[level], msg);
    }
}
