/* Registration cache over a userfaultfd memory monitor.  See rcache.h.
 *
 * Why a userfaultfd: the cache must hear of every change of a cached
 * range's pages, including those glibc makes itself when free() returns
 * memory (its internal munmap, madvise and brk calls, which no symbol
 * interposition sees).  libfabric and UCX patch the code of those functions
 * at run time; libfabric keeps its monitors for its providers' own caches
 * and offers them to no one else.  The kernel reports the same changes
 * through a userfaultfd, with no code patched: each cached range is
 * registered with it, and the events UNMAP, REMOVE (madvise), REMAP and
 * PAGEFAULT (a page of the range was dropped and touched again) invalidate
 * the entries they touch.
 *
 * The kernel holds the thread that unmaps until a reader has read the
 * event, so a monitor thread reads them; it marks itself busy before it
 * reads and clears the mark only after it has invalidated, so a lookup that
 * follows an unmap (which returned only once its event was read) waits for
 * the invalidation.  A cached range's pages are populated when it is
 * registered, so a missing-page fault there means its pages were dropped:
 * the monitor unregisters the range, which wakes the faulting thread.
 *
 * Ranges stay registered with the userfaultfd after their entry is evicted
 * (entries may overlap, and unregistering one range would blind another);
 * an event for a range nobody caches costs only its reading, and closing
 * the userfaultfd at the end drops every registration. */
#define _GNU_SOURCE
#include "rcache.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../base/compiler.h"
#include "../base/log.h"

#define BUCKETS 1024

struct ordo_rcache_entry {
    uintptr_t                 start, end;     /* page aligned */
    void                     *handle;
    unsigned                  refs;
    uint8_t                   valid;          /* in the table and the LRU list */
    uint8_t                   uncached;       /* made for one use: released when put back */
    struct ordo_rcache_entry *hnext;
    struct ordo_rcache_entry *older, *newer;
};

struct ordo_rcache {
    const ordo_rcache_ops_t *ops;
    void                    *arg;
    size_t                   max_entries, max_bytes;
    size_t                   entries, bytes;
    ordo_rcache_counters_t  *counters;
    pthread_mutex_t          lock;
    ordo_rcache_entry_t     *table[BUCKETS];
    ordo_rcache_entry_t     *oldest, *newest;
    ordo_rcache_entry_t     *dead;            /* dropped by the monitor, to release */
    /* the monitor */
    int                      uffd;
    int                      stop_pipe[2];
    pthread_t                thread;
    _Atomic int              busy;
    _Atomic uint64_t         invalidated;     /* by the monitor, not yet counted */
};

static size_t page_size(void) { return (size_t)sysconf(_SC_PAGESIZE); }
static unsigned bucket(uintptr_t start) { return (unsigned)((start / 4096) % BUCKETS); }

/* ------------------------------------------------------------- entries */

static void lru_unlink(ordo_rcache_t *rc, ordo_rcache_entry_t *e)
{
    if (e->older) e->older->newer = e->newer; else rc->oldest = e->newer;
    if (e->newer) e->newer->older = e->older; else rc->newest = e->older;
    e->older = e->newer = NULL;
}

static void lru_front(ordo_rcache_t *rc, ordo_rcache_entry_t *e)
{
    e->older = rc->newest;
    e->newer = NULL;
    if (rc->newest) rc->newest->newer = e; else rc->oldest = e;
    rc->newest = e;
}

static void release(ordo_rcache_t *rc, ordo_rcache_entry_t *e)
{
    rc->ops->dereg(rc->arg, e->handle);
    free(e);
}

/* Take e out of the cache (the lock held); its registration goes when its
 * last user puts it back.  The monitor thread never releases one itself:
 * the transport's domain is used from the program's thread only, so it
 * leaves them on the dead list for the next call from there. */
static void drop(ordo_rcache_t *rc, ordo_rcache_entry_t *e, int from_monitor)
{
    ordo_rcache_entry_t **pp = &rc->table[bucket(e->start)];
    while (*pp != e)
        pp = &(*pp)->hnext;
    *pp = e->hnext;
    lru_unlink(rc, e);
    e->valid = 0;
    rc->entries--;
    rc->bytes -= e->end - e->start;
    if (e->refs > 0)
        return;
    if (from_monitor) {
        e->hnext = rc->dead;
        rc->dead = e;
    } else {
        release(rc, e);
    }
}

/* From the program's thread, the lock held: release what the monitor
 * dropped and count its invalidations. */
static void reap(ordo_rcache_t *rc)
{
    while (rc->dead) {
        ordo_rcache_entry_t *e = rc->dead;
        rc->dead = e->hnext;
        release(rc, e);
    }
    rc->counters->invalidations += atomic_exchange(&rc->invalidated, 0);
}

static void invalidate(ordo_rcache_t *rc, uintptr_t start, uintptr_t end)
{
    for (ordo_rcache_entry_t *e = rc->oldest, *next; e; e = next) {
        next = e->newer;
        if (e->start < end && start < e->end) {
            drop(rc, e, 1);
            atomic_fetch_add(&rc->invalidated, 1);
        }
    }
}

static void evict_to_bounds(ordo_rcache_t *rc)
{
    ordo_rcache_entry_t *e = rc->oldest;
    while (e && (rc->entries > rc->max_entries || rc->bytes > rc->max_bytes)) {
        ordo_rcache_entry_t *next = e->newer;
        if (e->refs == 0) {
            drop(rc, e, 0);
            rc->counters->evictions++;
        }
        e = next;
    }
}

/* ------------------------------------------------------------- monitor */

static void handle_event(ordo_rcache_t *rc, const struct uffd_msg *m)
{
    size_t pg = page_size();
    uintptr_t start, end;
    switch (m->event) {
    case UFFD_EVENT_PAGEFAULT:
        start = (uintptr_t)m->arg.pagefault.address & ~(pg - 1);
        end = start + pg;
        break;
    case UFFD_EVENT_REMOVE:
    case UFFD_EVENT_UNMAP:
        start = (uintptr_t)m->arg.remove.start;
        end = (uintptr_t)m->arg.remove.end;
        break;
    case UFFD_EVENT_REMAP:
        start = (uintptr_t)m->arg.remap.from;
        end = start + (uintptr_t)m->arg.remap.len;
        break;
    default:
        return;
    }
    pthread_mutex_lock(&rc->lock);
    invalidate(rc, start, end);
    pthread_mutex_unlock(&rc->lock);
    if (m->event == UFFD_EVENT_PAGEFAULT || m->event == UFFD_EVENT_REMOVE) {
        /* No longer watched: the faulting thread (if any) goes on. */
        struct uffdio_range r = {.start = start, .len = end - start};
        ioctl(rc->uffd, UFFDIO_UNREGISTER, &r);
        ioctl(rc->uffd, UFFDIO_WAKE, &r);
    }
}

static void *monitor(void *arg)
{
    ordo_rcache_t *rc = arg;
    struct pollfd p[2] = {{.fd = rc->uffd, .events = POLLIN},
                          {.fd = rc->stop_pipe[0], .events = POLLIN}};
    for (;;) {
        if (poll(p, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            ordo_error("registration cache: the memory monitor stopped: %s", strerror(errno));
            return NULL;
        }
        if (p[1].revents)
            return NULL;
        if (!(p[0].revents & POLLIN))
            continue;
        atomic_store(&rc->busy, 1);
        struct uffd_msg msgs[16];
        ssize_t n;
        while ((n = read(rc->uffd, msgs, sizeof(msgs))) > 0)
            for (size_t i = 0; i < (size_t)n / sizeof(msgs[0]); i++)
                handle_event(rc, &msgs[i]);
        atomic_store(&rc->busy, 0);
    }
}

static int open_uffd(void)
{
    int fd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return -1;
    struct uffdio_api api = {.api = UFFD_API,
                             .features = UFFD_FEATURE_EVENT_UNMAP | UFFD_FEATURE_EVENT_REMOVE |
                                         UFFD_FEATURE_EVENT_REMAP};
    if (ioctl(fd, UFFDIO_API, &api) < 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

/* Watch [start, end): populate its pages (so a missing-page fault later
 * means they were dropped), then register it.  0, or -1 where the kernel
 * will not watch this kind of memory. */
static int watch(ordo_rcache_t *rc, uintptr_t start, uintptr_t end)
{
    if (madvise((void *)start, end - start, MADV_POPULATE_READ) < 0) {
        if (errno != EINVAL)
            return -1;
        for (uintptr_t a = start; a < end; a += page_size())   /* kernel before 5.14 */
            (void)*(volatile const char *)a;
    }
    struct uffdio_register reg = {.range = {.start = start, .len = end - start},
                                  .mode = UFFDIO_REGISTER_MODE_MISSING};
    return ioctl(rc->uffd, UFFDIO_REGISTER, &reg) < 0 ? -1 : 0;
}

/* ---------------------------------------------------------------- API */

ordo_status_t ordo_rcache_create(const ordo_rcache_ops_t *ops, void *arg, size_t max_entries,
                                 size_t max_bytes, ordo_rcache_counters_t *counters,
                                 ordo_rcache_t **rc_p)
{
    ordo_rcache_t *rc = calloc(1, sizeof(*rc));
    if (rc == NULL)
        return ORDO_ERR_NO_MEMORY;
    rc->ops = ops;
    rc->arg = arg;
    rc->max_entries = max_entries;
    rc->max_bytes = max_bytes;
    rc->counters = counters;
    rc->stop_pipe[0] = rc->stop_pipe[1] = -1;
    rc->uffd = open_uffd();
    if (rc->uffd < 0) {
        ordo_info("registration cache off: no userfaultfd to watch the cached memory (%s; "
                  "vm.unprivileged_userfaultfd=1 or CAP_SYS_PTRACE enables it): local buffers "
                  "are registered for each operation", strerror(errno));
        free(rc);
        return ORDO_ERR_UNSUPPORTED;
    }
    pthread_mutex_init(&rc->lock, NULL);
    if (pipe2(rc->stop_pipe, O_CLOEXEC) < 0)
        goto err;
    /* The monitor takes no signals: they stay the program's. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int ret = pthread_create(&rc->thread, NULL, monitor, rc);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (ret != 0) {
        errno = ret;
        goto err;
    }
    *rc_p = rc;
    return ORDO_OK;
err:
    ordo_error("registration cache: cannot start its memory monitor: %s", strerror(errno));
    if (rc->stop_pipe[0] >= 0) {
        close(rc->stop_pipe[0]);
        close(rc->stop_pipe[1]);
    }
    close(rc->uffd);
    pthread_mutex_destroy(&rc->lock);
    free(rc);
    return ORDO_ERR_IO;
}

void ordo_rcache_destroy(ordo_rcache_t *rc)
{
    if (rc == NULL)
        return;
    char c = 0;
    if (write(rc->stop_pipe[1], &c, 1) == 1)
        pthread_join(rc->thread, NULL);
    reap(rc);
    while (rc->oldest)
        drop(rc, rc->oldest, 0);
    close(rc->stop_pipe[0]);
    close(rc->stop_pipe[1]);
    close(rc->uffd);   /* drops every registration with it */
    pthread_mutex_destroy(&rc->lock);
    free(rc);
}

void *ordo_rcache_handle(const ordo_rcache_entry_t *e) { return e->handle; }

uintptr_t ordo_rcache_start(const ordo_rcache_entry_t *e)
{
    return e->start;
}

ordo_status_t ordo_rcache_get(ordo_rcache_t *rc, void *addr, size_t len,
                              ordo_rcache_entry_t **entry_p)
{
    size_t pg = page_size();
    uintptr_t start = (uintptr_t)addr & ~(pg - 1);
    uintptr_t end = ((uintptr_t)addr + len + pg - 1) & ~(pg - 1);
    /* An unmap that returned has had its event read: wait until the
     * monitor has applied it. */
    while (atomic_load(&rc->busy))
        sched_yield();
    pthread_mutex_lock(&rc->lock);
    reap(rc);
    for (ordo_rcache_entry_t *e = rc->table[bucket(start)]; e; e = e->hnext) {
        if (e->start == start && e->end >= end) {
            e->refs++;
            lru_unlink(rc, e);
            lru_front(rc, e);
            rc->counters->hits++;
            pthread_mutex_unlock(&rc->lock);
            *entry_p = e;
            return ORDO_OK;
        }
    }
    rc->counters->misses++;
    pthread_mutex_unlock(&rc->lock);

    ordo_rcache_entry_t *e = calloc(1, sizeof(*e));
    if (e == NULL)
        return ORDO_ERR_NO_MEMORY;
    e->start = start;
    e->end = end;
    e->refs = 1;
    /* Memory the kernel will not watch (a file mapping, say) is registered
     * for this use only. */
    e->uncached = end - start > rc->max_bytes || watch(rc, start, end) != 0;
    ordo_status_t st = rc->ops->reg(rc->arg, (void *)start, end - start, &e->handle);
    if (st != ORDO_OK) {
        /* Perhaps cached registrations fill the limit: give back the unused
         * ones and try once more. */
        pthread_mutex_lock(&rc->lock);
        size_t max = rc->max_entries;
        rc->max_entries = 0;
        evict_to_bounds(rc);
        rc->max_entries = max;
        pthread_mutex_unlock(&rc->lock);
        st = rc->ops->reg(rc->arg, (void *)start, end - start, &e->handle);
        if (st != ORDO_OK) {
            free(e);
            return st;
        }
    }
    if (!e->uncached) {
        pthread_mutex_lock(&rc->lock);
        e->valid = 1;
        e->hnext = rc->table[bucket(start)];
        rc->table[bucket(start)] = e;
        lru_front(rc, e);
        rc->entries++;
        rc->bytes += end - start;
        evict_to_bounds(rc);
        pthread_mutex_unlock(&rc->lock);
    }
    *entry_p = e;
    return ORDO_OK;
}

void ordo_rcache_put(ordo_rcache_t *rc, ordo_rcache_entry_t *e)
{
    pthread_mutex_lock(&rc->lock);
    if (--e->refs == 0 && !e->valid)
        release(rc, e);
    reap(rc);
    pthread_mutex_unlock(&rc->lock);
}
