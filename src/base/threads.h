/* Thread levels (ordo.h, ordo_thread_level_t): what a public call does
 * before it runs, and what a wait does between its passes.
 *
 * At MULTIPLE every public call holds one process-wide lock, taken again
 * freely by the same thread (a public call that calls another).  A wait
 * hands the lock to the threads kept out between its passes, so a thread
 * blocked in a receive never keeps out the thread that sends.
 *
 * At SINGLE and FUNNELED a call checks that it comes from the thread that
 * called ordo_init; at SERIALIZED nothing is done. */
#ifndef ORDO_BASE_THREADS_H
#define ORDO_BASE_THREADS_H

#include <ordo/ordo.h>

#include "compiler.h"

enum {
    ORDO_THREADS_FREE  = 0,   /* SERIALIZED, and before ordo_init */
    ORDO_THREADS_CHECK = 1,   /* SINGLE, FUNNELED: the initial thread only */
    ORDO_THREADS_LOCK  = 2    /* MULTIPLE */
};

/* ORDO_THREADS_*, set by ordo_init for the level asked. */
extern int ordo_threads_mode;

/* Start and stop the level's rules (ordo_init, ordo_finalize). */
void ordo_threads_start(ordo_thread_level_t level);
void ordo_threads_stop(void);
ordo_thread_level_t ordo_threads_level(void);

void ordo_threads_lock(void);
void ordo_threads_unlock(void);
int  ordo_threads_on_initial(void);
ordo_status_t ordo_threads_refuse(const char *call);

/* A pass of a wait loop: at MULTIPLE, lets queued threads run a call. */
void ordo_threads_wait_pass_slow(void);
static inline void ordo_threads_wait_pass(void)
{
    if (ORDO_UNLIKELY(ordo_threads_mode == ORDO_THREADS_LOCK))
        ordo_threads_wait_pass_slow();
}

static inline int ordo_threads_enter(void)
{
    if (ORDO_LIKELY(ordo_threads_mode != ORDO_THREADS_LOCK))
        return 0;
    ordo_threads_lock();
    return 1;
}

static inline void ordo_threads_leave(const int *held)
{
    if (*held)
        ordo_threads_unlock();
}

#define ORDO_THREADS_CAT2(a, b) a##b
#define ORDO_THREADS_CAT(a, b)  ORDO_THREADS_CAT2(a, b)

/* At the top of a public call returning ordo_status_t: refuses a thread
 * the level does not allow, or holds the lock until the call returns. */
#define ORDO_THREADS_GUARD()                                                           \
    if (ORDO_UNLIKELY(ordo_threads_mode == ORDO_THREADS_CHECK) &&                      \
        !ordo_threads_on_initial())                                                    \
        return ordo_threads_refuse(__func__);                                          \
    int ORDO_THREADS_CAT(ordo_threads_held_, __LINE__)                                 \
        __attribute__((cleanup(ordo_threads_leave), unused)) = ordo_threads_enter()

#endif
