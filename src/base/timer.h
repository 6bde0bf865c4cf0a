/* Monotonic time. */
#ifndef ORDO_BASE_TIMER_H
#define ORDO_BASE_TIMER_H

#include <stdint.h>
#include <time.h>

static inline uint64_t ordo_time_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#endif
