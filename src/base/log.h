/* Logging to stderr, prefixed with the rank.  Errors are logged once, where
 * they are first seen; callers above only pass the status on. */
#ifndef ORDO_BASE_LOG_H
#define ORDO_BASE_LOG_H

#include "compiler.h"

typedef enum ordo_log_level {
    ORDO_LOG_ERROR = 0,
    ORDO_LOG_WARN  = 1,
    ORDO_LOG_INFO  = 2,
    ORDO_LOG_DEBUG = 3
} ordo_log_level_t;

extern int ordo_log_threshold;

void ordo_log_set_rank(int rank);
void ordo_log_emit(ordo_log_level_t level, const char *file, int line,
                   const char *fmt, ...) ORDO_PRINTF(4, 5);

#define ordo_log(level, ...) \
    do { \
        if ((int)(level) <= ordo_log_threshold) \
            ordo_log_emit(level, __FILE__, __LINE__, __VA_ARGS__); \
    } while (0)
#define ordo_error(...) ordo_log(ORDO_LOG_ERROR, __VA_ARGS__)
#define ordo_warn(...)  ordo_log(ORDO_LOG_WARN, __VA_ARGS__)
#define ordo_info(...)  ordo_log(ORDO_LOG_INFO, __VA_ARGS__)
#define ordo_debug(...) ordo_log(ORDO_LOG_DEBUG, __VA_ARGS__)

#endif
