/* Thread levels: the lock of MULTIPLE and the initial-thread check of
 * SINGLE and FUNNELED.  See threads.h. */
#define _GNU_SOURCE
#include "threads.h"

#include <errno.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <stdatomic.h>
#include <stdint.h>

#include "log.h"

int ordo_threads_mode = ORDO_THREADS_FREE;

static ordo_thread_level_t level = ORDO_THREAD_MULTIPLE;

/* The lock: a mutex, so that threads kept out sleep in the kernel instead
 * of taking cores from the holder (with ranks and threads beyond the cores,
 * spinning waiters and a first-come ticket order made every hand-over wait
 * for a preempted thread), and a count of the threads kept out, so a wait
 * hands over only when somebody waits for it. */
static pthread_mutex_t big = PTHREAD_MUTEX_INITIALIZER;
static atomic_uint kept_out;
/* Calls of this thread holding it.  Initial-exec: one load off the thread
 * pointer, not a call per access as a shared library's TLS would cost. */
_Thread_local unsigned ordo_threads_depth __attribute__((tls_model("initial-exec")));
#define depth ordo_threads_depth
/* Inner locks this thread holds with the process-wide one, in the order
 * taken.  Public calls nest two deep at most (a collective's put), each
 * holding one stream: the bound is never reached by ordo's own calls. */
enum { MAX_HELD = 16 };
static _Thread_local ordo_inner_lock_t *held[MAX_HELD] __attribute__((tls_model("initial-exec")));
static _Thread_local unsigned nheld __attribute__((tls_model("initial-exec")));

/* The process-wide lock's bias (see take_biased). */
static ordo_inner_lock_t global_bias;
static _Thread_local int global_biased __attribute__((tls_model("initial-exec")));

/* The bias needs membarrier's private expedited command, registered once
 * per process; ThreadSanitizer cannot see the barrier it runs. */
static int bias_possible(void)
{
#if defined(__SANITIZE_THREAD__)
    return 0;
#else
    long cmds = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
    if (cmds < 0 || !(cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED))
        return 0;
    return syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
#endif
}

void ordo_threads_start(ordo_thread_level_t l)
{
    if (l == ORDO_THREAD_MULTIPLE)
        ordo_threads_bias_ok = bias_possible();
    ordo_threads_inner_init(&global_bias);   /* no owner yet: the first caller */
    global_biased = 0;
    level = l;
    /* the calling thread is the initial one of this ordo_init, and no
     * other thread is (whatever an earlier ordo_init said) */
    ordo_threads_epoch++;
    ordo_threads_initial_epoch = ordo_threads_epoch;
    depth = 0;
    nheld = 0;
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

int ordo_threads_bias_ok;
unsigned ordo_threads_epoch;
_Thread_local unsigned ordo_threads_initial_epoch __attribute__((tls_model("initial-exec")));
_Thread_local char ordo_threads_token __attribute__((tls_model("initial-exec")));

static void revoke_bias(ordo_inner_lock_t *m);

/* The process-wide lock is biased too, as a stream's is (threads.h), to
 * the first thread that calls ordo: while it is the only one, a call costs
 * it plain stores instead of a mutex's two locked instructions.  Another
 * thread takes the mutex, then revokes the bias for good; the owner, if
 * inside, leaves at its next wait pass (or when its call returns) and
 * takes the mutex like everyone.  Only owner and owner_in of this record
 * are used. */

static int take_biased(void)
{
    uintptr_t me = (uintptr_t)&ordo_threads_token, o = me, none = 0;
    if (atomic_load_explicit(&global_bias.owner, memory_order_relaxed) != me) {
        if (!atomic_compare_exchange_strong_explicit(&global_bias.owner, &none, me,
                                                     memory_order_seq_cst,
                                                     memory_order_relaxed))
            return 0;   /* another thread's, or shared */
        /* the first caller: whoever holds the mutex (it took it while there
         * was no owner) is waited out; one that takes it from now on sees
         * the claim and revokes it */
        pthread_mutex_lock(&big);
        pthread_mutex_unlock(&big);
    }
    atomic_store_explicit(&global_bias.owner_in, 1, memory_order_relaxed);
    atomic_signal_fence(memory_order_seq_cst);   /* the revoker's membarrier orders it */
    if (atomic_load_explicit(&global_bias.owner, memory_order_relaxed) == o)
        return 1;
    atomic_store_explicit(&global_bias.owner_in, 0, memory_order_release);
    return 0;
}

static void take(void)
{
    if (ordo_threads_bias_ok && take_biased()) {
        global_biased = 1;
        return;
    }
    global_biased = 0;
    if (pthread_mutex_trylock(&big) != 0) {
        atomic_fetch_add_explicit(&kept_out, 1, memory_order_relaxed);
        pthread_mutex_lock(&big);
        atomic_fetch_sub_explicit(&kept_out, 1, memory_order_relaxed);
    }
    if (ordo_threads_bias_ok)
        revoke_bias(&global_bias);   /* one load once it is shared */
}

static void give(void)
{
    if (global_biased) {
        global_biased = 0;
        atomic_signal_fence(memory_order_seq_cst);
        atomic_store_explicit(&global_bias.owner_in, 0, memory_order_release);
        return;
    }
    pthread_mutex_unlock(&big);
}

static void yield_or_relax(unsigned *spins)
{
    if (++*spins % 64 == 0)
        sched_yield();   /* the holder may wait for this core */
    else
        ordo_cpu_relax();
}

/* The lock is shared from now on, if another thread owns its bias: the
 * owner, if inside, is seen inside (the barrier it was made to run) and
 * waited for; if not, it sees the mark when it comes back. */
static void revoke_bias(ordo_inner_lock_t *m)
{
    uintptr_t me = (uintptr_t)&ordo_threads_token;
    uintptr_t o = atomic_load_explicit(&m->owner, memory_order_seq_cst);
    if (o == 0 || o == ORDO_INNER_SHARED || o == me)
        return;
    if (!atomic_compare_exchange_strong_explicit(&m->owner, &o, ORDO_INNER_SHARED,
                                                 memory_order_seq_cst, memory_order_seq_cst))
        return;   /* another thread revoked it, and waits for the owner */
    if (syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) != 0)
        ordo_error("membarrier refused after it was registered: %s", strerror(errno));
    unsigned spins = 0;
    while (atomic_load_explicit(&m->owner_in, memory_order_acquire) != 0)
        yield_or_relax(&spins);
}

/* The exchange, never the bias: for the holders with the process-wide
 * lock (they come and go) and for everyone once the bias is revoked.  The
 * bias may have been taken by another thread while this one took the
 * exchange (a first user): revoked then, after the exchange, which the
 * first user waits for (take_inner_slow). */
static void inner_lock(ordo_inner_lock_t *m)
{
    for (unsigned spins = 0;
         atomic_exchange_explicit(&m->taken, 1, memory_order_seq_cst) != 0;) {
        while (atomic_load_explicit(&m->taken, memory_order_relaxed) != 0)
            yield_or_relax(&spins);
    }
    revoke_bias(m);
}

static void give_held(void)
{
    for (unsigned i = nheld; i-- > 0;)
        ordo_threads_give_inner(held[i], 0);
}

/* After the process-wide lock, in address order (see lock_inner). */
static void take_held(void)
{
    for (unsigned i = 0; i < nheld; i++)
        inner_lock(held[i]);
}

void ordo_threads_lock(void)
{
    if (depth++ == 0)
        take();
}

void ordo_threads_unlock(void)
{
    if (--depth == 0) {
        give_held();
        nheld = 0;
        give();
    }
}

void ordo_threads_wait_pass_slow(void)
{
    if (depth == 0)
        return;
    if (global_biased &&
        atomic_load_explicit(&global_bias.owner, memory_order_relaxed) ==
            (uintptr_t)&ordo_threads_token) {
        /* the process-wide lock is this thread's alone: only the inner
         * locks it holds may be waited for (a fast path on its stream) */
        if (atomic_load_explicit(&kept_out, memory_order_relaxed) != 0) {
            give_held();
            sched_yield();
            take_held();
        }
        return;
    }
    /* the bias was revoked (its revoker waits for this thread to leave),
     * or threads are kept out of the mutex */
    if (!global_biased && atomic_load_explicit(&kept_out, memory_order_relaxed) == 0)
        return;
    unsigned mine = depth;
    depth = 0;
    give_held();
    give();
    sched_yield();   /* the thread woken may need this core to take it */
    take();
    take_held();
    depth = mine;
}

void ordo_threads_inner_init(ordo_inner_lock_t *m)
{
    atomic_init(&m->taken, 0);
    atomic_init(&m->owner, ordo_threads_bias_ok ? 0 : ORDO_INNER_SHARED);
    atomic_init(&m->owner_in, 0);
}

int ordo_threads_take_inner_slow(ordo_inner_lock_t *m)
{
    uintptr_t me = (uintptr_t)&ordo_threads_token, none = 0;
    /* The first user takes the bias, then waits for whoever holds the lock
     * through the exchange (a holder with the process-wide lock; one that
     * took it while this thread claimed sees the claim and revokes it). */
    if (atomic_compare_exchange_strong_explicit(&m->owner, &none, me, memory_order_seq_cst,
                                                memory_order_relaxed)) {
        unsigned spins = 0;
        while (atomic_load_explicit(&m->taken, memory_order_seq_cst) != 0)
            yield_or_relax(&spins);
        return ordo_threads_take_inner(m);
    }
    atomic_fetch_add_explicit(&kept_out, 1, memory_order_relaxed);
    inner_lock(m);
    atomic_fetch_sub_explicit(&kept_out, 1, memory_order_relaxed);
    return 0;
}

static int holds(const ordo_inner_lock_t *m)
{
    for (unsigned i = 0; i < nheld; i++)
        if (held[i] == m)
            return 1;
    return 0;
}

void ordo_threads_inner_sweep_begin(void)
{
    atomic_thread_fence(memory_order_seq_cst);
    /* the owners' plain stores seen, or the withdrawal seen by them */
    if (ordo_threads_bias_ok && syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0))
        ordo_error("membarrier refused after it was registered: %s", strerror(errno));
}

void ordo_threads_inner_wait_out(ordo_inner_lock_t *m)
{
    uintptr_t me = (uintptr_t)&ordo_threads_token;
    unsigned spins = 0;
    if (depth == 0 || holds(m))
        return;
    if (!ordo_threads_bias_ok) {
        inner_lock(m);
        ordo_threads_give_inner(m, 0);
        return;
    }
    while (atomic_load_explicit(&m->taken, memory_order_seq_cst) != 0)
        yield_or_relax(&spins);
    uintptr_t o = atomic_load_explicit(&m->owner, memory_order_seq_cst);
    if (o != 0 && o != ORDO_INNER_SHARED && o != me)
        while (atomic_load_explicit(&m->owner_in, memory_order_acquire) != 0)
            yield_or_relax(&spins);
}



void ordo_threads_hold(ordo_inner_lock_t *m)
{
    if (depth == 0 || holds(m))
        return;
    if (nheld == MAX_HELD) {   /* unreachable by ordo's calls: see MAX_HELD */
        ordo_error("internal: more than %d inner locks held by one call", MAX_HELD);
        return;
    }
    ordo_threads_lock_inner(m);   /* in address order, kept to the end */
}

/* Inner locks held together are taken in address order: those above m are
 * given back and taken again after it (a wait pass does no more), so no two
 * threads could wait for each other's even where the process-wide lock did
 * not order them. */
int ordo_threads_lock_inner(ordo_inner_lock_t *m)
{
    if (depth == 0 || holds(m) || nheld == MAX_HELD)
        return 0;
    unsigned at = nheld;
    while (at > 0 && (uintptr_t)held[at - 1] > (uintptr_t)m)
        at--;
    for (unsigned i = nheld; i-- > at;)
        ordo_threads_give_inner(held[i], 0);
    inner_lock(m);
    for (unsigned i = at; i < nheld; i++)
        inner_lock(held[i]);
    for (unsigned i = nheld; i > at; i--)
        held[i] = held[i - 1];
    held[at] = m;   /* a wait pass meanwhile gives it back too */
    nheld++;
    return 1;
}

void ordo_threads_unlock_inner(ordo_inner_lock_t *m)
{
    for (unsigned i = nheld; i-- > 0;) {
        if (held[i] == m) {
            for (; i + 1 < nheld; i++)
                held[i] = held[i + 1];
            nheld--;
            break;
        }
    }
    ordo_threads_give_inner(m, 0);
}


ordo_status_t ordo_threads_refuse(const char *call)
{
    ordo_error("%s: called from a thread other than the one that called ordo_init, at "
               "thread level %s; ask ORDO_THREAD_MULTIPLE (or SERIALIZED) in ordo_init "
               "or with ORDO_THREAD_LEVEL",
               call, level == ORDO_THREAD_SINGLE ? "single" : "funneled");
    return ORDO_ERR_THREAD;
}
