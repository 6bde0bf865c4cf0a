/* Registration cache: a bounded LRU of a transport's registrations of local
 * buffers, so a buffer used again is not registered again.
 *
 * A cached registration must never outlive the mapping it was made for
 * (memory freed and mapped again at the same address gets new pages; a
 * registration that pinned the old ones would move the wrong data).  The
 * cache learns of every unmap, remap, madvise(DONTNEED) and brk shrink of a
 * cached range from the kernel, through a userfaultfd whose events a
 * monitor thread reads (see rcache.c for why this and not memory hooks).
 * Where no userfaultfd is available (an unprivileged process with
 * vm.unprivileged_userfaultfd=0), ordo_rcache_create fails with
 * ORDO_ERR_UNSUPPORTED and the transport registers per operation. */
#ifndef ORDO_CORE_RCACHE_H
#define ORDO_CORE_RCACHE_H

#include <stddef.h>
#include <stdint.h>
#include <ordo/status.h>

typedef struct ordo_rcache       ordo_rcache_t;
typedef struct ordo_rcache_entry ordo_rcache_entry_t;

typedef struct ordo_rcache_ops {
    /* Register [addr, addr+len) (page aligned); *handle_p on success. */
    ordo_status_t (*reg)(void *arg, void *addr, size_t len, void **handle_p);
    void          (*dereg)(void *arg, void *handle);
} ordo_rcache_ops_t;

/* Counters the cache adds to (the transport's). */
typedef struct ordo_rcache_counters {
    uint64_t hits, misses, evictions, invalidations;
} ordo_rcache_counters_t;

ordo_status_t ordo_rcache_create(const ordo_rcache_ops_t *ops, void *arg, size_t max_entries,
                                 size_t max_bytes, ordo_rcache_counters_t *counters,
                                 ordo_rcache_t **rc_p);
/* Every entry must have been put back. */
void          ordo_rcache_destroy(ordo_rcache_t *rc);
/* A registration covering [addr, addr+len), held until ordo_rcache_put. */
ordo_status_t ordo_rcache_get(ordo_rcache_t *rc, void *addr, size_t len,
                              ordo_rcache_entry_t **entry_p);
void         *ordo_rcache_handle(const ordo_rcache_entry_t *entry);
/* The first byte the entry's registration covers (page aligned, at or
 * before the address asked for). */
uintptr_t     ordo_rcache_start(const ordo_rcache_entry_t *entry);
void          ordo_rcache_put(ordo_rcache_t *rc, ordo_rcache_entry_t *entry);

#endif
