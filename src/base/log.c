#include "log.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int ordo_log_threshold = ORDO_LOG_WARN;
static int log_rank = -1;

static const char *const level_names[] = {"error", "warning", "info", "debug"};

void ordo_log_set_rank(int rank) { log_rank = rank; }

void ordo_log_emit(ordo_log_level_t level, const char *file, int line,
                   const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    const char *base = strrchr(file, '/');
    if (level >= ORDO_LOG_DEBUG)
        fprintf(stderr, "[ordo rank %d] %s: %s (%s:%d)\n", log_rank,
                level_names[level], msg, base ? base + 1 : file, line);
    else
        fprintf(stderr, "[ordo rank %d] %s: %s\n", log_rank, level_names[level], msg);
}
