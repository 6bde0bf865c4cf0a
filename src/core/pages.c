/* Memory behind regions: memfds, and moving the program's own pages into
 * shared memory (copy-in) and back (copy-out), for regions created mapped
 * and for memory attached mapped to a dynamic region. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core.h"
#include "../base/log.h"
#include "../base/quiesce.h"

size_t ordo_page_size(void) { return (size_t)sysconf(_SC_PAGESIZE); }

ordo_status_t ordo_os_error(const char *what)
{
    int e = errno;
    ordo_error("%s: %s", what, strerror(e));
    return e == ENOMEM || e == ENOSPC ? ORDO_ERR_NO_MEMORY : ORDO_ERR_IO;
}

int ordo_memfd_new(size_t len)
{
    int fd = memfd_create("ordo-region", MFD_CLOEXEC);
    if (fd < 0)
        return -1;
    if (ftruncate(fd, (off_t)len) < 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

/* Copy whole pages between user memory and a shared mapping.  The pages hold
 * more than the region (heap neighbours, allocator metadata, a sanitizer's
 * redzones), all of which must move unchanged: a plain word loop that no
 * sanitizer instruments and no compiler turns into a checked memcpy. */
__attribute__((no_sanitize("address", "undefined")))
__attribute__((optimize("no-tree-loop-distribute-patterns")))
static void copy_pages(void *dst, const void *src, size_t len)
{
    uint64_t *d = dst;
    const uint64_t *s = src;
    for (size_t i = 0; i < len / sizeof(uint64_t); i++)
        d[i] = s[i];
}

/* Move the pages under [addr, addr+size) into a memfd, keeping their
 * content (copy-in). */
ordo_status_t ordo_pages_move_in(struct ordo_region *r)
{
    size_t pg = ordo_page_size();
    uintptr_t start = (uintptr_t)r->addr & ~(pg - 1);
    uintptr_t end = ((uintptr_t)r->addr + r->size + pg - 1) & ~(pg - 1);
    for (struct ordo_region *o = ordo_ctx->regions; o; o = o->next) {
        uintptr_t os = (uintptr_t)o->map_base, oe = os + o->map_len;
        if (o->map_base && start < oe && os < end) {
            ordo_error("region over %p+%zu shares pages with region %u; regions created "
                       "mapped must not share pages with other regions", r->addr, r->size,
                       o->id);
            return ORDO_ERR_BUSY;
        }
    }
    uint32_t id;
    void *at = ordo_dynamic_pages_taken(start, end, &id);
    if (at) {
        ordo_error("memory at %p+%zu shares pages with memory attached mapped to region %u at "
                   "%p; memory moved into shared memory must not share pages", r->addr, r->size,
                   id, at);
        return ORDO_ERR_BUSY;
    }
    size_t len = end - start;
    int fd = ordo_memfd_new(len);
    if (fd < 0)
        return ordo_os_error("memfd_create for a mapped region");
    void *tmp = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (tmp == MAP_FAILED) {
        close(fd);
        return ordo_os_error("mapping shared memory for user pages");
    }
    /* A write between the copy and the switch would be lost.  ordo's own
     * threads touch heap objects that may share the edge pages: they wait.
     * The program's other threads may too: the edge pages are copied again
     * last, so their window is two pages' copy and one system call. */
    ordo_quiesce_pause();
    copy_pages(tmp, (void *)start, len);
    copy_pages(tmp, (void *)start, pg);
    copy_pages((char *)tmp + len - pg, (void *)(end - pg), pg);
    void *m = mmap((void *)start, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0);
    int e = errno;
    ordo_quiesce_resume();
    munmap(tmp, len);
    if (m == MAP_FAILED) {
        close(fd);
        errno = e;
        return ordo_os_error("mapping shared memory over user pages");
    }
    r->memfd = fd;
    r->map_base = (void *)start;
    r->map_len = len;
    r->kind = ORDO_REGION_KIND_MAPPED;
    return ORDO_OK;
}

/* Force a private copy of every page of a private file mapping (the
 * copy-on-write a first write would make), without changing a byte: an
 * atomic add of zero cannot lose a concurrent write. */
__attribute__((no_sanitize("address", "undefined", "thread")))
static void touch_pages_for_write(void *base, size_t len)
{
    if (madvise(base, len, MADV_POPULATE_WRITE) == 0)
        return;
    for (size_t off = 0; off < len; off += ordo_page_size())     /* kernel before 5.14 */
        __atomic_fetch_add((uint64_t *)((char *)base + off), 0, __ATOMIC_RELAXED);
}

/* Copy-out: private pages again, with the shared pages' last content.
 * Replacing the shared mapping by a private mapping of the same memfd is one
 * atomic step: every thread sees the same bytes before and after, and no
 * write is lost (the pages may hold heap objects other threads use, this
 * region's own record among them).  The pages are then copied privately and
 * the memfd's own emptied, so a peer's late write cannot show through and
 * the memory is not held twice. */
void ordo_pages_move_out(struct ordo_region *r)
{
    void *base = r->map_base;
    size_t len = r->map_len;
    int fd = r->memfd;
    void *m = mmap(base, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED, fd, 0);
    if (m == MAP_FAILED) {
        /* the shared pages stay in place: the content is intact, only shared */
        ordo_error("region over %p: restoring private user pages failed: %s", base,
                   strerror(errno));
        return;
    }
    touch_pages_for_write(base, len);
    if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, (off_t)len) != 0)
        ordo_debug("region over %p: releasing the shared copy: %s (it is released with the "
                   "mapping)", base, strerror(errno));
}
