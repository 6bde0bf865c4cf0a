/* ofi: progress, and the helper thread that keeps it going while the
 * program computes.
 *
 * ordo drives the provider (manual progress): a rank's progress function
 * reads the completion queues, which is also when a provider such as
 * tcp;ofi_rxm moves the data peers send into this rank.  A rank that
 * spins on a flag, or computes, without calling ordo would hold up every
 * put into it — its peer's ordo_quiet would never return.  With
 * ORDO_OFI_PROGRESS=thread (the default) a helper thread drives the
 * transport (ofi_work: no completion reported, nothing handed up) whenever
 * the program has not done so for 200 us (looking every 1-8 ms while the
 * program drives it, below).  It wakes on a timer, not on the
 * completion queues' wait descriptors: those cost a write and a read per
 * completion, and data that lands in this rank's memory need not signal
 * them anyway.  It steps aside while the program drives itself.  Every
 * entry point takes the interface's lock
 * (recursive: the layer above, called from progress, sends again); with
 * ORDO_OFI_PROGRESS=manual there is no thread and no lock. */
#define _GNU_SOURCE
#include "ofi.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

#include "../../base/compiler.h"
#include "../../base/config.h"
#include "../../base/log.h"
#include "../../base/quiesce.h"
#include "../../base/timer.h"

/* How long the program may leave the transport alone before the helper
 * steps in, and how often it looks: every HELPER_SLOW_NS once the program
 * drives the transport itself, twice as far apart at each look that finds
 * it still doing so, up to HELPER_BUSY_MAX_NS (HELPER_SLOW_NS while a batch
 * of puts or a bundle of messages waits to go out); then every HELPER_IDLE_NS,
 * until the program has left it alone for HELPER_LONG_NS (a long
 * computation) and no batch of puts waits to go out.  A wake-up takes the
 * core from a rank that may be spinning on it: on a 2-core Xeon VM each
 * cost the spinning thread about 25 us, and looking every millisecond
 * made 8-byte one-way latency over --nodes 2 (tcp) 6.1-6.5 us against
 * 5.2-5.5 with no helper (nine alternating rounds; 6.0 backing off to 8
 * ms). */
#define HELPER_IDLE_NS     (200 * 1000)
#define HELPER_SLOW_NS     (1000 * 1000)
#define HELPER_BUSY_MAX_NS (8 * 1000 * 1000)
#define HELPER_LONG_NS     (10 * 1000 * 1000)

static inline void lock(ofi_iface_t *o)
{
    if (o->threaded)
        pthread_mutex_lock(&o->lock);
}

static inline void unlock(ofi_iface_t *o)
{
    if (o->threaded)
        pthread_mutex_unlock(&o->lock);
}

static inline void mark_active(ofi_iface_t *o)
{
    if (o->threaded)
        atomic_store_explicit(&o->last_active_ns, ordo_time_ns(), memory_order_relaxed);
}

void ofi_mark_active(ofi_iface_t *o) { mark_active(o); }

/* The helper counts what it sends too: readers of the counters hold it off. */
void ofi_hold(ordo_tl_iface_t *iface, int on)
{
    ofi_iface_t *o = (ofi_iface_t *)iface;
    if (on)
        lock(o);
    else
        unlock(o);
}

/* ---------------------------------------------------------- the work */

unsigned ofi_work(ofi_iface_t *o)
{
    if (++o->drives == 0)
        o->drives = 1;   /* 0 is no drive's: a fresh slot's */
    if (o->bundle_list)   /* first: a peer may be waiting for them */
        ofi_bundle_flush_all(o);
    ofi_poll(o);
    if (ORDO_UNLIKELY(o->rx_repost != NULL))
        ofi_am_repost_pending(o);
    if (o->batch_list)
        ofi_batch_flush_all(o);
    /* what awaits a reply from a rank that died waits no longer */
    if (o->reply_used && ++o->works % 1024 == 0)
        ofi_fail_dead(o);
    return o->backlog_head || o->reply_backlog ? ofi_backlog_retry(o) : 0;
}

unsigned ofi_progress(ordo_tl_iface_t *iface)
{
    ofi_iface_t *o = (ofi_iface_t *)iface;
    lock(o);
    mark_active(o);
    unsigned n = ofi_work(o);
    n += ofi_report_done(o);
    n += ofi_am_deliver_parked(o);
    if (n == 0)
        n = ordo_tl_am_flush(iface);
    unlock(o);
    return n;
}

void ofi_drive(ordo_tl_iface_t *iface)
{
    ofi_iface_t *o = (ofi_iface_t *)iface;
    lock(o);
    mark_active(o);
    ofi_work(o);
    unlock(o);
}

/* ------------------------------------------------------ the helper */

static void *helper(void *arg)
{
    ofi_iface_t *o = arg;
    struct pollfd stop = {.fd = o->stop_pipe[0], .events = POLLIN};
    uint64_t busy_ns = 0;   /* the next look's distance while the program drives */
    for (;;) {
        uint64_t idle = ordo_time_ns() - atomic_load_explicit(&o->last_active_ns,
                                                               memory_order_relaxed);
        if (idle >= HELPER_IDLE_NS) {
            ordo_quiesce_work_begin();
            if (pthread_mutex_trylock(&o->lock) == 0) {
                o->poll_all = 1;   /* rare: every lane, cold ones too */
                ofi_work(o);
                o->poll_all = 0;
                if (o->nparked > o->nrx / 2)
                    ofi_am_spill(o);   /* keep buffers posted for atomics it serves */
                pthread_mutex_unlock(&o->lock);
            }
            ordo_quiesce_work_end();
        }
        /* while the program drives, look rarely, and more rarely the
         * longer it keeps doing so */
        int waiting = atomic_load_explicit(&o->batch_waiting, memory_order_relaxed);
        uint64_t next;
        if (idle < HELPER_IDLE_NS) {
            busy_ns = busy_ns && !waiting
                          ? ORDO_MIN(2 * busy_ns, (uint64_t)HELPER_BUSY_MAX_NS)
                          : HELPER_SLOW_NS;
            next = busy_ns;
        } else {
            busy_ns = 0;
            next = idle >= HELPER_LONG_NS && !waiting ? HELPER_SLOW_NS : HELPER_IDLE_NS;
        }
        struct timespec ts = {.tv_sec = (time_t)(next / 1000000000u),
                              .tv_nsec = (long)(next % 1000000000u)};
        int r = ppoll(&stop, 1, &ts, NULL);
        if (r > 0)
            return NULL;
        if (r < 0 && errno != EINTR) {
            ordo_error("ofi: the progress helper stopped: %s", strerror(errno));
            return NULL;
        }
    }
}

ordo_status_t ofi_helper_start(ofi_iface_t *o)
{
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&o->lock, &a);
    pthread_mutexattr_destroy(&a);
    if (pipe2(o->stop_pipe, O_CLOEXEC) < 0) {
        ordo_error("ofi: cannot start the progress helper: %s", strerror(errno));
        pthread_mutex_destroy(&o->lock);
        return ORDO_ERR_IO;
    }
    atomic_store(&o->last_active_ns, ordo_time_ns());
    /* The helper takes no signals: they stay the program's. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    o->threaded = 1;
    int ret = pthread_create(&o->helper_thread, NULL, helper, o);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (ret != 0) {
        o->threaded = 0;
        ordo_error("ofi: cannot start the progress helper: %s", strerror(ret));
        close(o->stop_pipe[0]);
        close(o->stop_pipe[1]);
        pthread_mutex_destroy(&o->lock);
        return ORDO_ERR_IO;
    }
    return ORDO_OK;
}

void ofi_helper_stop(ofi_iface_t *o)
{
    if (!o->threaded)
        return;
    char c = 0;
    if (write(o->stop_pipe[1], &c, 1) == 1)
        pthread_join(o->helper_thread, NULL);
    close(o->stop_pipe[0]);
    close(o->stop_pipe[1]);
    o->threaded = 0;
    pthread_mutex_destroy(&o->lock);
}

/* ------------------------------------------- entry points, locked */

#define LOCKED(ret_type, call)                                                  \
    do {                                                                        \
        ofi_iface_t *o_ = (ofi_iface_t *)iface;                                 \
        lock(o_);                                                               \
        ret_type r_ = call;                                                     \
        unlock(o_);                                                             \
        return r_;                                                              \
    } while (0)

ordo_status_t ofi_l_put(ordo_tl_iface_t *iface, ordo_tl_rkey_t *rkey, size_t offset,
                           const void *src, size_t len, unsigned flags, ordo_tl_comp_t *comp)
{
    LOCKED(ordo_status_t, ofi_put(iface, rkey, offset, src, len, flags, comp));
}

ordo_status_t ofi_l_get(ordo_tl_iface_t *iface, ordo_tl_rkey_t *rkey, size_t offset,
                           void *dst, size_t len, unsigned flags, ordo_tl_comp_t *comp)
{
    LOCKED(ordo_status_t, ofi_get(iface, rkey, offset, dst, len, flags, comp));
}

ordo_status_t ofi_l_atomic(ordo_tl_iface_t *iface, ordo_tl_rkey_t *rkey, size_t offset,
                              ordo_atomic_op_t op, unsigned width, uint64_t value,
                              uint64_t compare, uint64_t *result, unsigned flags,
                              ordo_tl_comp_t *comp)
{
    LOCKED(ordo_status_t,
           ofi_atomic(iface, rkey, offset, op, width, value, compare, result, flags, comp));
}

ordo_status_t ofi_l_am_short(ordo_tl_iface_t *iface, int rank, const void *hdr,
                                size_t hdrlen, const void *payload, size_t len)
{
    LOCKED(ordo_status_t, ofi_am_short(iface, rank, hdr, hdrlen, payload, len));
}

ordo_status_t ofi_l_am_bcopy(ordo_tl_iface_t *iface, int rank, const void *hdr,
                                size_t hdrlen, const void *payload, size_t len)
{
    LOCKED(ordo_status_t, ofi_am_bcopy(iface, rank, hdr, hdrlen, payload, len));
}

void ofi_l_am_release(ordo_tl_iface_t *iface, void *desc)
{
    ofi_iface_t *o = (ofi_iface_t *)iface;
    lock(o);
    ofi_am_release(iface, desc);
    unlock(o);
}

ordo_status_t ofi_l_mem_expose(ordo_tl_iface_t *iface, const ordo_tl_mem_params_t *params,
                                  ordo_tl_mem_t **mem_p, void *blob, size_t *bloblen_p)
{
    LOCKED(ordo_status_t, ofi_mem_expose(iface, params, mem_p, blob, bloblen_p));
}

void ofi_l_mem_release(ordo_tl_iface_t *iface, ordo_tl_mem_t *mem)
{
    ofi_iface_t *o = (ofi_iface_t *)iface;
    lock(o);
    ofi_mem_release(iface, mem);
    unlock(o);
}

/* The peers' keys name the registration itself: nothing was kept for them. */
void ofi_l_mem_published(ordo_tl_iface_t *iface, ordo_tl_mem_t *mem)
{
    (void)iface, (void)mem;
}

ordo_status_t ofi_l_rkey_open(ordo_tl_iface_t *iface, int rank, const void *blob,
                                 size_t bloblen, ordo_tl_rkey_t **rkey_p)
{
    LOCKED(ordo_status_t, ofi_rkey_open(iface, rank, blob, bloblen, rkey_p));
}

void ofi_l_rkey_close(ordo_tl_iface_t *iface, ordo_tl_rkey_t *rkey)
{
    ofi_iface_t *o = (ofi_iface_t *)iface;
    lock(o);
    ofi_rkey_close(iface, rkey);
    unlock(o);
}
