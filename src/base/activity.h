/* Where a rank waits, for its launcher to tell when a job runs past its
 * time (ordorun --timeout).  The launcher shares a page with one slot per
 * rank; a rank stamps its slot from inside its wait loops with the ordo call
 * it is in, so a recent stamp means "waiting inside that call".  Nothing is
 * written outside waits: the fast paths only note the call's name. */
#ifndef ORDO_BASE_ACTIVITY_H
#define ORDO_BASE_ACTIVITY_H

#include <stdint.h>

#define ORDO_ACTIVITY_SLOT 64
#define ORDO_ACTIVITY_CALL_MAX (ORDO_ACTIVITY_SLOT - 8)

typedef struct ordo_activity_slot {
    uint64_t stamp_ms;                    /* CLOCK_MONOTONIC ms of the last wait pass; 0: never */
    char     call[ORDO_ACTIVITY_CALL_MAX]; /* the call waiting, NUL-terminated */
} ordo_activity_slot_t;

/* This rank's slot, or NULL without a launcher that reads it. */
extern ordo_activity_slot_t *ordo_activity;
/* The public call being run (its name, a constant). */
extern const char *ordo_activity_call;

/* Note the public call being entered (every API function, via
 * ORDO_CHECK_INIT): one relaxed store. */
static inline void ordo_activity_enter(const char *call)
{
    __atomic_store_n(&ordo_activity_call, call, __ATOMIC_RELAXED);
}

/* Without a launcher page (not under ordorun), the job's time limit is
 * kept by each rank: the CLOCK_MONOTONIC ms after which a wait pass calls
 * expired (once) with the call waiting; 0: no limit. */
extern uint64_t ordo_activity_deadline_ms;
extern void (*ordo_activity_expired)(const char *call);

/* A pass of a wait loop: stamps the slot every few passes (or looks at
 * the deadline). */
void ordo_activity_wait_pass(void);

/* CLOCK_MONOTONIC in ms. */
uint64_t ordo_activity_now_ms(void);

#endif
