#define _GNU_SOURCE
#include "activity.h"

#include <string.h>
#include <time.h>

ordo_activity_slot_t *ordo_activity;
const char *ordo_activity_call = "ordo_init";
uint64_t ordo_activity_deadline_ms;
void (*ordo_activity_expired)(const char *call);

uint64_t ordo_activity_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* The job's time is up here: tell expired, once (any thread may look). */
static void look_at_deadline(void)
{
    uint64_t deadline = __atomic_load_n(&ordo_activity_deadline_ms, __ATOMIC_RELAXED);
    if (deadline == 0 || ordo_activity_now_ms() < deadline ||
        !__atomic_compare_exchange_n(&ordo_activity_deadline_ms, &deadline, 0, 0,
                                     __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        return;
    const char *call = __atomic_load_n(&ordo_activity_call, __ATOMIC_RELAXED);
    if (ordo_activity_expired)
        ordo_activity_expired(call ? call : "?");
}

void ordo_activity_wait_pass(void)
{
    static unsigned passes;
    ordo_activity_slot_t *s = ordo_activity;
    /* a stamp per 64 passes: a stuck wait is stamped many times a second,
     * and a short one costs nothing measurable */
    if ((__atomic_fetch_add(&passes, 1, __ATOMIC_RELAXED) & 63) != 0)
        return;
    if (s == NULL) {
        look_at_deadline();
        return;
    }
    const char *call = __atomic_load_n(&ordo_activity_call, __ATOMIC_RELAXED);
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    char name[ORDO_ACTIVITY_CALL_MAX] = {0};
    strncpy(name, call ? call : "?", sizeof(name) - 1);
    memcpy(s->call, name, sizeof(name));
    __atomic_store_n(&s->stamp_ms, (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000,
                     __ATOMIC_RELEASE);
}
