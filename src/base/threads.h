/* Thread levels (ordo.h, ordo_thread_level_t): what a public call does
 * before it runs, and what a wait does between its passes.
 *
 * At MULTIPLE every public call holds one process-wide lock, taken again
 * freely by the same thread (a public call that calls another).  A wait
 * hands the lock to the threads kept out between its passes, so a thread
 * blocked in a receive never keeps out the thread that sends.
 *
 * Below it, MULTIPLE has inner locks (a stream's): a call that can finish
 * at once with no state but one object's takes that object's inner lock
 * alone (the one-sided fast path), so threads on different streams never
 * meet.  Code holding the process-wide lock takes inner locks after it,
 * either until its outermost call returns (ordo_threads_hold) or briefly
 * (ordo_threads_lock_inner); a thread holding an inner lock alone waits for
 * nothing else.  A wait pass gives back the inner locks held with the
 * process-wide one, and takes them again after it.
 *
 * At SINGLE and FUNNELED a call checks that it comes from the thread that
 * called ordo_init; at SERIALIZED nothing is done. */
#ifndef ORDO_BASE_THREADS_H
#define ORDO_BASE_THREADS_H

#include <ordo/ordo.h>
#include <stdatomic.h>

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
/* The thread that called ordo_init: a TLS load and a compare, the check
 * SINGLE and FUNNELED make on every call. */
extern unsigned ordo_threads_epoch;   /* counts the ordo_init calls */
extern _Thread_local unsigned ordo_threads_initial_epoch
    __attribute__((tls_model("initial-exec")));
static inline int ordo_threads_on_initial(void)
{
    return ordo_threads_initial_epoch == ordo_threads_epoch;
}
ordo_status_t ordo_threads_refuse(const char *call);

/* Inner locks (MULTIPLE only; the callers check ordo_threads_mode).  A
 * stream is mostly used by one thread: its first user owns the lock's bias
 * and takes it with plain stores, so that one thread at MULTIPLE costs what
 * it costs at SINGLE (a locked instruction costs as much as an 8-byte put
 * on shared memory).  Another thread that wants it revokes the bias for
 * good: it marks the lock shared, makes every thread of the process run a
 * full barrier (membarrier(2)), and waits for the owner to leave; from then
 * on everyone takes it with one atomic exchange and gives it back with a
 * release store.  Without membarrier (an old kernel, a filter refusing it)
 * and under ThreadSanitizer, which cannot see the barrier, there is no bias.
 * A thread kept out spins briefly, then yields (holders alone hold it for a
 * few stores; a holder with the process-wide lock gives it back at its wait
 * passes). */
typedef struct ordo_inner_lock {
    atomic_uint      taken;
    atomic_uintptr_t owner;       /* the bias: 0 none yet, ORDO_INNER_SHARED revoked */
    atomic_uint      owner_in;    /* written by the owner alone: inside, biased */
} ordo_inner_lock_t;

#define ORDO_INNER_SHARED ((uintptr_t)1)

extern int ordo_threads_bias_ok;
extern _Thread_local char ordo_threads_token __attribute__((tls_model("initial-exec")));

void ordo_threads_inner_init(ordo_inner_lock_t *m);
int  ordo_threads_take_inner_slow(ordo_inner_lock_t *m);

/* Alone, without the process-wide lock (a fast path); counted as kept out
 * while it waits, so that a wait holding it gives it back.  Returns how it
 * was taken, for give_inner. */
static inline int ordo_threads_take_inner(ordo_inner_lock_t *m)
{
    uintptr_t me = (uintptr_t)&ordo_threads_token;
    if (atomic_load_explicit(&m->owner, memory_order_relaxed) == me) {
        atomic_store_explicit(&m->owner_in, 1, memory_order_relaxed);
        atomic_signal_fence(memory_order_seq_cst);   /* the revoker's membarrier orders it */
        if (ORDO_LIKELY(atomic_load_explicit(&m->owner, memory_order_relaxed) == me))
            return 1;
        atomic_store_explicit(&m->owner_in, 0, memory_order_release);
    }
    if (ORDO_LIKELY(atomic_load_explicit(&m->owner, memory_order_relaxed) ==
                    ORDO_INNER_SHARED) &&
        ORDO_LIKELY(atomic_exchange_explicit(&m->taken, 1, memory_order_acquire) == 0))
        return 0;
    return ordo_threads_take_inner_slow(m);
}

static inline void ordo_threads_give_inner(ordo_inner_lock_t *m, int how)
{
    if (how) {
        atomic_signal_fence(memory_order_seq_cst);
        atomic_store_explicit(&m->owner_in, 0, memory_order_release);
    } else {
        atomic_store_explicit(&m->taken, 0, memory_order_release);
    }
}

/* With the process-wide lock, after withdrawing what the fast paths read
 * (a mapping's address): sweep_begin once, then wait_out per lock returns
 * once nobody who could have read it before is still inside (never
 * revoking a bias). */
void ordo_threads_inner_sweep_begin(void);
void ordo_threads_inner_wait_out(ordo_inner_lock_t *m);

/* Does this thread hold the process-wide lock (inside a call)? */
extern _Thread_local unsigned ordo_threads_depth __attribute__((tls_model("initial-exec")));
static inline int ordo_threads_inside(void)
{
    return ordo_threads_depth > 0;
}
/* With the process-wide lock: hold m too until the outermost call returns
 * (nothing if this thread holds it already). */
void ordo_threads_hold(ordo_inner_lock_t *m);
/* With the process-wide lock: take m for a moment unless this thread holds
 * it; returns whether it was taken (then give it back with unlock_inner). */
int  ordo_threads_lock_inner(ordo_inner_lock_t *m);
void ordo_threads_unlock_inner(ordo_inner_lock_t *m);

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
 * the level does not allow, or holds the lock until the call returns.
 * _AS: in a helper serving several calls, the name of the one called. */
#define ORDO_THREADS_GUARD() ORDO_THREADS_GUARD_AS(__func__)
#define ORDO_THREADS_GUARD_AS(name)                                                    \
    if (ORDO_UNLIKELY(ordo_threads_mode == ORDO_THREADS_CHECK) &&                      \
        !ordo_threads_on_initial())                                                    \
        return ordo_threads_refuse(name);                                              \
    int ORDO_THREADS_CAT(ordo_threads_held_, __LINE__)                                 \
        __attribute__((cleanup(ordo_threads_leave), unused)) = ordo_threads_enter()

#endif
