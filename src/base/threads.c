/* Thread levels: the lock of MULTIPLE and the initial-thread check of
 * SINGLE and FUNNELED.  See threads.h. */
#define _GNU_SOURCE
#include "threads.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

#include "log.h"

int ordo_threads_mode = ORDO_THREADS_FREE;

static ordo_thread_level_t level = ORDO_THREAD_MULTIPLE;
static pthread_t initial;

/* The lock: a mutex, so that threads kept out sleep in the kernel instead
 * of taking cores from the holder (with ranks and threads beyond the cores,
 * spinning waiters and a first-come ticket order made every hand-over wait
 * for a preempted thread), and a count of the threads kept out, so a wait
 * hands over only when somebody waits for it. */
static pthread_mutex_t big = PTHREAD_MUTEX_INITIALIZER;
static atomic_uint kept_out;
/* Calls of this thread holding it.  Initial-exec: one load off the thread
 * pointer, not a call per access as a shared library's TLS would cost. */
static _Thread_local unsigned depth __attribute__((tls_model("initial-exec")));

void ordo_threads_start(ordo_thread_level_t l)
{
    level = l;
    initial = pthread_self();
    depth = 0;
    ordo_threads_mode = l == ORDO_THREAD_MULTIPLE   ? ORDO_THREADS_LOCK
                        : l == ORDO_THREAD_SERIALIZED ? ORDO_THREADS_FREE
                                                      : ORDO_THREADS_CHECK;
}

void ordo_threads_stop(void)
{
    ordo_threads_mode = ORDO_THREADS_FREE;
}

ordo_thread_level_t ordo_threads_level(void)
{
    return level;
}

static void take(void)
{
    if (pthread_mutex_trylock(&big) == 0)
        return;
    atomic_fetch_add_explicit(&kept_out, 1, memory_order_relaxed);
    pthread_mutex_lock(&big);
    atomic_fetch_sub_explicit(&kept_out, 1, memory_order_relaxed);
}

static void give(void)
{
    pthread_mutex_unlock(&big);
}

void ordo_threads_lock(void)
{
    if (depth++ == 0)
        take();
}

void ordo_threads_unlock(void)
{
    if (--depth == 0)
        give();
}

void ordo_threads_wait_pass_slow(void)
{
    if (depth == 0 || atomic_load_explicit(&kept_out, memory_order_relaxed) == 0)
        return;
    unsigned mine = depth;
    depth = 0;
    give();
    sched_yield();   /* the thread woken may need this core to take it */
    take();
    depth = mine;
}

int ordo_threads_on_initial(void)
{
    return pthread_equal(pthread_self(), initial);
}

ordo_status_t ordo_threads_refuse(const char *call)
{
    ordo_error("%s: called from a thread other than the one that called ordo_init, at "
               "thread level %s; ask ORDO_THREAD_MULTIPLE (or SERIALIZED) in ordo_init "
               "or with ORDO_THREAD_LEVEL",
               call, level == ORDO_THREAD_SINGLE ? "single" : "funneled");
    return ORDO_ERR_THREAD;
}
