/* shm: ranks on this machine.
 *
 * Regions backed by a memfd are mapped into peers (each peer takes the
 * descriptor straight from the owner's process with pidfd_getfd, under the
 * ptrace rule single copy needs too; where that is refused, through the
 * launcher) and reached by loads and stores (PIO) or by the offload
 * engines for transfers above ORDO_PIO_MAX.  Regions over plain process
 * memory are reached by single copy, process_vm_readv/writev, small ones
 * inline and large ones on the engines.  Peer mappings are attached on first
 * use and kept in a bounded cache (ORDO_ATTACH_CACHE_MAX) that unmaps the
 * oldest attachment not in use by an engine. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "../tl.h"
#include "shm_am.h"
#include "shm_engine.h"
#include "../../base/config.h"
#include "../../base/copy.h"
#include "../../base/log.h"

/* MAPPED: the descriptor is the launcher's to hand out (under a key);
 * MAPPED_PEER: taken from the owner's process (its number in fd). */
enum { SHM_MEM_MAPPED = 1, SHM_MEM_CMA = 2, SHM_MEM_MAPPED_PEER = 3 };

typedef struct shm_blob {
    uint32_t kind;
    uint32_t region_id;
    uint64_t addr;          /* CMA: address in the owner */
    uint64_t size;
    uint64_t map_offset;    /* MAPPED: where the region starts in the file */
    int32_t  pid;
    int32_t  fd;            /* MAPPED_PEER: the descriptor's number in the owner */
} shm_blob_t;

struct ordo_tl_mem {
    char key[64];           /* launcher key of the descriptor; "" if none */
};
/* What exposures that keep nothing share (never written, never freed). */
static ordo_tl_mem_t no_record;

typedef struct shm_rkey {
    ordo_tl_rkey_t   super;
    int              kind;
    int              local;      /* our own memory: always attached */
    int              fd;
    size_t           map_len;
    size_t           map_offset;
    void            *map;        /* the mapping, NULL when detached */
    char            *remote;     /* CMA: address in the owner */
    pid_t            pid;
    int              pins;       /* engine jobs (or the program) using the mapping */
    int              forever;    /* handed out by ordo_region_ptr */
    struct shm_rkey *older, *newer;  /* attach cache order */
} shm_rkey_t;

/* An engine job and what the initiator needs when it completes. */
typedef struct shm_job {
    ordo_engine_job_t  super;
    ordo_tl_comp_t    *comp;
    struct shm_rkey   *rkey;
    struct shm_job    *next;     /* in flight, or free */
} shm_job_t;

typedef struct shm_peer {
    /* the process the kernel let us single-copy from (its pid), so that a
     * rendezvous with a peer already probed costs no probe */
    pid_t cma_probed;
    /* ... or the one it refused us (the ptrace rules that decide do not
     * change for a process), so that every rendezvous does not ask again */
    pid_t cma_refused;
    /* a pidfd of the peer's process (-1: none yet), to take descriptors */
    pid_t pidfd_pid;
    int   pidfd;
} shm_peer_t;

typedef struct shm_iface {
    ordo_tl_iface_t    super;
    ordo_boot_t       *boot;
    int                rank, size;
    pid_t              pid;          /* this process's (getpid is a system call) */
    size_t             pio_max, chunk;
    ordo_engine_pool_t engines;
    struct shm_job    *inflight_head, *inflight_tail;  /* submitted by this process */
    struct shm_job    *job_free;
    shm_rkey_t        *oldest, *newest;                /* attached peer mappings */
    int                attached, attach_max;
    shm_mailbox_t      mbox;                           /* active messages */
    void             (*ptr_retire)(void);
    shm_peer_t        *peers;                          /* per rank */
} shm_iface_t;

shm_mailbox_t *shm_mailbox_of(ordo_tl_iface_t *iface)
{
    return &((shm_iface_t *)iface)->mbox;
}

/* ---------------------------------------------------------- attach cache */

static void cache_unlink(shm_iface_t *s, shm_rkey_t *k)
{
    if (k->older) k->older->newer = k->newer; else s->oldest = k->newer;
    if (k->newer) k->newer->older = k->older; else s->newest = k->older;
    k->older = k->newer = NULL;
}

static void detach(shm_iface_t *s, shm_rkey_t *k)
{
    cache_unlink(s, k);
    __atomic_store_n(&k->super.ptr, NULL, __ATOMIC_SEQ_CST);
    if (s->ptr_retire)
        s->ptr_retire();   /* no thread still copying through the old address */
    munmap(k->map, k->map_len);
    k->map = NULL;
    s->attached--;
}

static ordo_status_t attach(shm_iface_t *s, shm_rkey_t *k)
{
    if (k->map || k->local)
        return ORDO_OK;
    if (k->map_len == 0)
        return ORDO_OK;    /* an empty region: nothing to reach */
    s->super.attach_misses++;
    while (s->attached >= s->attach_max) {
        shm_rkey_t *victim = s->oldest;
        while (victim && victim->pins)
            victim = victim->newer;
        if (victim == NULL)
            break;          /* all in use by engines: go over the bound briefly */
        detach(s, victim);
        s->super.attach_evictions++;
    }
    void *m = mmap(NULL, k->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, k->fd, 0);
    if (m == MAP_FAILED) {
        ordo_error("cannot map rank %d's region (%zu bytes): %s", k->super.rank, k->map_len,
                   strerror(errno));
        return errno == ENOMEM ? ORDO_ERR_NO_MEMORY : ORDO_ERR_IO;
    }
    k->map = m;
    __atomic_store_n(&k->super.ptr, (void *)((char *)m + k->map_offset), __ATOMIC_RELEASE);
    k->older = s->newest;
    k->newer = NULL;
    if (s->newest) s->newest->newer = k; else s->oldest = k;
    s->newest = k;
    s->attached++;
    return ORDO_OK;
}

/* ----------------------------------------------------------- iface */

static ordo_status_t shm_iface_open(const ordo_tl_params_t *params, ordo_tl_iface_t **iface_p);

static void shm_iface_close(ordo_tl_iface_t *iface)
{
    shm_iface_t *s = (shm_iface_t *)iface;
    /* Engines first: no chunk may be copied after the mappings go. */
    while (s->inflight_head)
        iface->ops->progress(iface);
    ordo_engine_pool_fini(&s->engines);
    ordo_tl_reorder_fini(iface);
    shm_mailbox_close(&s->mbox);
    while (s->job_free) {
        shm_job_t *j = s->job_free;
        s->job_free = j->next;
        free(j);
    }
    for (int r = 0; r < s->size; r++)
        if (s->peers[r].pidfd >= 0)
            close(s->peers[r].pidfd);
    free(s->peers);
    free(s);
}

static int shm_reaches(ordo_tl_iface_t *iface, int rank)
{
    shm_iface_t *s = (shm_iface_t *)iface;
    return rank >= 0 && rank < s->size && ordo_boot_same_node(s->boot, rank);
}

static ordo_status_t shm_mem_expose(ordo_tl_iface_t *iface, const ordo_tl_mem_params_t *p,
                                    ordo_tl_mem_t **mem_p, void *blob, size_t *bloblen_p)
{
    shm_iface_t *s = (shm_iface_t *)iface;
    /* only a descriptor held by the launcher needs a record (its key):
     * memory reached by single copy, attached and detached often to a
     * dynamic region, costs no allocation */
    int via_launcher = p->memfd >= 0 && p->fd_via_boot;
    ordo_tl_mem_t *mem = via_launcher ? calloc(1, sizeof(*mem)) : &no_record;
    if (mem == NULL)
        return ORDO_ERR_NO_MEMORY;
    shm_blob_t b = {.region_id = p->region_id, .addr = (uint64_t)(uintptr_t)p->addr,
                    .size = p->size, .pid = (int32_t)s->pid};
    if (p->memfd >= 0 && !p->fd_via_boot) {
        b.kind = SHM_MEM_MAPPED_PEER;   /* the owner keeps it open until every peer took it */
        b.map_offset = p->memfd_offset;
        b.fd = p->memfd;
    } else if (p->memfd >= 0) {
        b.kind = SHM_MEM_MAPPED;
        b.map_offset = p->memfd_offset;
        snprintf(mem->key, sizeof(mem->key), "ordo.shm.%u.%d", p->region_id, s->rank);
        ordo_status_t st = s->boot->ops->fd_put(s->boot, mem->key, p->memfd);
        if (st != ORDO_OK) {
            free(mem);
            return st;
        }
    } else {
        b.kind = SHM_MEM_CMA;
    }
    memcpy(blob, &b, sizeof(b));
    *bloblen_p = sizeof(b);
    *mem_p = mem;
    return ORDO_OK;
}

static void shm_mem_release(ordo_tl_iface_t *iface, ordo_tl_mem_t *mem)
{
    shm_iface_t *s = (shm_iface_t *)iface;
    if (mem == &no_record)
        return;
    if (mem->key[0])
        s->boot->ops->fd_del(s->boot, mem->key);
    free(mem);
}

/* The local peers hold their duplicates of the descriptor: the launcher's
 * copy is no longer needed (with it, a job's regions were bounded by the
 * launcher's descriptor limit). */
static void shm_mem_published(ordo_tl_iface_t *iface, ordo_tl_mem_t *mem)
{
    shm_iface_t *s = (shm_iface_t *)iface;
    if (mem->key[0]) {
        s->boot->ops->fd_del(s->boot, mem->key);
        mem->key[0] = '\0';
    }
}

/* A descriptor of a peer's process, taken with pidfd_getfd: the kernel
 * checks the same ptrace access as for single copy, so where it refuses
 * (ORDO_ERR_PERMISSION) the region's owner passes it through the launcher
 * instead (core/region.c). */
static ordo_status_t take_peer_fd(shm_iface_t *s, int rank, pid_t pid, int fd, int *fd_p)
{
#if defined(SYS_pidfd_open) && defined(SYS_pidfd_getfd)
    shm_peer_t *p = &s->peers[rank];
    if (p->pidfd >= 0 && p->pidfd_pid != pid) {
        close(p->pidfd);
        p->pidfd = -1;
    }
    if (p->pidfd < 0) {
        p->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
        p->pidfd_pid = pid;
    }
    int got = p->pidfd < 0 ? -1 : (int)syscall(SYS_pidfd_getfd, p->pidfd, fd, 0);
    if (got >= 0) {
        *fd_p = got;
        return ORDO_OK;
    }
    int e = errno;
    if (e == EMFILE) {
        struct rlimit rl;
        getrlimit(RLIMIT_NOFILE, &rl);
        ordo_error("cannot take rank %d's region descriptor: this process has reached its "
                   "descriptor limit (ulimit -n: %llu open files); it holds one per region of "
                   "each peer on this node", rank, (unsigned long long)rl.rlim_cur);
        return ORDO_ERR_IO;
    }
    if (e == ENFILE) {
        ordo_error("cannot take rank %d's region descriptor: the system's open-file limit "
                   "(fs.file-max) is reached", rank);
        return ORDO_ERR_IO;
    }
    ordo_debug("taking descriptor %d from rank %d (pid %d) refused: %s", fd, rank, (int)pid,
               strerror(e));
    if (e == ESRCH)
        return ORDO_ERR_PEER_DEAD;
    return e == EPERM || e == EACCES || e == ENOSYS || e == EBADF ? ORDO_ERR_PERMISSION
                                                                  : ORDO_ERR_IO;
#else
    (void)s, (void)rank, (void)pid, (void)fd, (void)fd_p;
    return ORDO_ERR_PERMISSION;
#endif
}

/* A descriptor handed over by a peer must be a file that holds the region:
 * mapping beyond a shared file's end faults (SIGBUS) at the first access. */
static ordo_status_t check_backing_file(int fd, int rank, uint64_t offset, uint64_t size)
{
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || offset > (uint64_t)st.st_size ||
        size > (uint64_t)st.st_size - offset) {
        ordo_error("rank %d handed over a descriptor that does not hold its region (%llu "
                   "bytes at offset %llu)", rank, (unsigned long long)size,
                   (unsigned long long)offset);
        return ORDO_ERR_IO;
    }
    return ORDO_OK;
}

static ordo_status_t shm_rkey_open(ordo_tl_iface_t *iface, int rank, const void *blob,
                                   size_t bloblen, ordo_tl_rkey_t **rkey_p)
{
    shm_iface_t *s = (shm_iface_t *)iface;
    shm_blob_t b;
    if (bloblen != sizeof(b))
        return ORDO_ERR_BOOTSTRAP;
    memcpy(&b, blob, sizeof(b));
    shm_rkey_t *k = calloc(1, sizeof(*k));
    if (k == NULL)
        return ORDO_ERR_NO_MEMORY;
    k->super.rank = rank;
    k->super.size = b.size;
    k->super.base = b.addr;
    k->kind = (int)b.kind;
    k->fd = -1;
    k->pid = b.pid;
    if (rank == s->rank) {
        k->local = 1;
        k->super.ptr = (void *)(uintptr_t)b.addr;
    } else if (b.kind == SHM_MEM_MAPPED || b.kind == SHM_MEM_MAPPED_PEER) {
        ordo_status_t st;
        if (b.kind == SHM_MEM_MAPPED_PEER) {
            st = take_peer_fd(s, rank, b.pid, b.fd, &k->fd);
        } else {
            char key[64];
            snprintf(key, sizeof(key), "ordo.shm.%u.%d", b.region_id, rank);
            st = s->boot->ops->fd_get(s->boot, rank, key, &k->fd);
        }
        if (st == ORDO_OK)
            st = check_backing_file(k->fd, rank, b.map_offset, b.size);
        if (st != ORDO_OK) {
            if (k->fd >= 0)
                close(k->fd);
            free(k);
            return st;
        }
        long page = sysconf(_SC_PAGESIZE);
        k->map_offset = b.map_offset;
        k->map_len = (b.map_offset + b.size + (size_t)page - 1) & ~((size_t)page - 1);
    } else {
        k->remote = (char *)(uintptr_t)b.addr;
        if (b.size > 0 && s->peers[rank].cma_probed != k->pid) {
            if (s->peers[rank].cma_refused == k->pid) {
                free(k);
                return ORDO_ERR_PERMISSION;
            }
            /* Probe: can the kernel copy between us?  (ptrace access rules) */
            char byte;
            struct iovec l = {&byte, 1}, r = {k->remote, 1};
            if (process_vm_readv(k->pid, &l, 1, &r, 1, 0) != 1) {
                int e = errno;
                pid_t pid = k->pid;
                free(k);
                ordo_debug("single copy from rank %d refused: %s", rank, strerror(e));
                if (e == EPERM || e == EACCES || e == ENOSYS) {
                    s->peers[rank].cma_refused = pid;
                    return ORDO_ERR_PERMISSION;
                }
                return ORDO_ERR_IO;
            }
            s->peers[rank].cma_probed = k->pid;
        }
    }
    *rkey_p = &k->super;
    return ORDO_OK;
}

static void shm_rkey_close(ordo_tl_iface_t *iface, ordo_tl_rkey_t *rkey)
{
    shm_iface_t *s = (shm_iface_t *)iface;
    shm_rkey_t *k = (shm_rkey_t *)rkey;
    if (k->map)
        detach(s, k);
    if (k->fd >= 0)
        close(k->fd);
    free(k);
}

static ordo_status_t shm_rkey_ptr(ordo_tl_iface_t *iface, ordo_tl_rkey_t *rkey, void **ptr_p)
{
    shm_iface_t *s = (shm_iface_t *)iface;
    shm_rkey_t *k = (shm_rkey_t *)rkey;
    if (k->kind == SHM_MEM_CMA && !k->local)
        return ORDO_ERR_UNSUPPORTED;
    ordo_status_t st = attach(s, k);
    if (st != ORDO_OK)
        return st;
    if (!k->local && !k->forever) {
        k->forever = 1;   /* the program holds the address: never evict it */
        k->pins++;
    }
    *ptr_p = k->super.ptr;
    return ORDO_OK;
}

/* ------------------------------------------------------------- transfers */

static ordo_status_t submit(shm_iface_t *s, shm_rkey_t *k, ordo_engine_kind_t kind,
                            char *dst, const char *src, size_t len, ordo_tl_comp_t *comp)
{
    shm_job_t *j = s->job_free;
    if (j)
        s->job_free = j->next;
    else if ((j = calloc(1, sizeof(*j))) == NULL)
        return ORDO_ERR_NO_MEMORY;
    j->super.kind = kind;
    j->super.dst = dst;
    j->super.src = src;
    j->super.len = len;
    j->super.pid = k->pid;
    j->comp = comp;
    j->rkey = k;
    k->pins++;
    j->next = NULL;
    if (s->inflight_tail) s->inflight_tail->next = j; else s->inflight_head = j;
    s->inflight_tail = j;
    ordo_engine_submit(&s->engines, &j->super, s->chunk);
    s->super.engine_ops++;
    return ORDO_INPROGRESS;
}

static ordo_status_t cma_copy(shm_rkey_t *k, int write, char *local, char *remote, size_t len)
{
    size_t moved = 0;
    while (moved < len) {
        struct iovec l = {local + moved, len - moved}, r = {remote + moved, len - moved};
        ssize_t n = write ? process_vm_writev(k->pid, &l, 1, &r, 1, 0)
                          : process_vm_readv(k->pid, &l, 1, &r, 1, 0);
        if (n <= 0) {
            ordo_error("single copy %s rank %d failed: %s", write ? "to" : "from",
                       k->super.rank, n < 0 ? strerror(errno) : "no progress");
            return (n < 0 && errno == ESRCH) ? ORDO_ERR_PEER_DEAD : ORDO_ERR_IO;
        }
        moved += (size_t)n;
    }
    return ORDO_OK;
}

/* Whether the calling CPU copies a transfer itself rather than hand it to
 * an engine (tl.h ORDO_TL_OP_COPY_NOW / OFFLOAD; comp NULL: synchronous). */
static inline int copy_here(const shm_iface_t *s, size_t len, unsigned flags,
                            const ordo_tl_comp_t *comp)
{
    if (comp == NULL || (flags & ORDO_TL_OP_COPY_NOW))
        return 1;
    return !(flags & ORDO_TL_OP_OFFLOAD) && len <= s->pio_max;
}

/* The same for the kernel's single copy.  It moves a fraction of what a
 * plain copy does (pages pinned, copied by the kernel, the data hot in the
 * other process's cache), so a transfer waited for alone goes to the
 * engines' parallel chunks once it makes CMA_ENGINE_CHUNKS of them, where a
 * mapped one stays on the CPU up to its L2 cache.  A 16-core Xeon, 2
 * ranks, a rendezvous's halves (engines on at 2 chunks, against the CPUs;
 * MPICH 5 beside): one-way 1 MiB 27-36 us against 46-50 (MPICH 92-95), 4
 * MiB 151-162 against 240-244 (440-448); a window of 4 MiB messages 32-33
 * GB/s against 18-19 (10-21), but of 1 MiB ones 27-30 against 32-35: there
 * the CPUs' halves keep up, and the engines' hand-offs cost more than they
 * add.  So from 4 chunks (1 MiB halves: 2 MiB messages).  An explicit
 * ORDO_PIO_MAX still decides. */
#define CMA_ENGINE_CHUNKS 4
static inline int cma_copy_here(const shm_iface_t *s, size_t len, unsigned flags,
                                const ordo_tl_comp_t *comp)
{
    if (comp != NULL && (flags & ORDO_TL_OP_COPY_NOW) && len >= CMA_ENGINE_CHUNKS * s->chunk &&
        s->engines.nthreads > 0 && ordo_config.pio_max == SIZE_MAX)
        return 0;
    return copy_here(s, len, flags, comp);
}

static ordo_status_t shm_put(ordo_tl_iface_t *iface, ordo_tl_rkey_t *rkey, size_t offset,
                             const void *src, size_t len, unsigned flags, ordo_tl_comp_t *comp)
{
    /* engines keep no order: ordered_pairs is 0 */
    shm_iface_t *s = (shm_iface_t *)iface;
    shm_rkey_t *k = (shm_rkey_t *)rkey;
    if (k->kind == SHM_MEM_CMA && !k->local) {
        if (cma_copy_here(s, len, flags, comp)) {
            s->super.single_copy_ops++;
            return cma_copy(k, 1, (char *)src, k->remote + offset, len);
        }
        s->super.single_copy_ops++;
        return submit(s, k, ORDO_ENGINE_CMA_WRITE, k->remote + offset, src, len, comp);
    }
    ordo_status_t st = attach(s, k);
    if (st != ORDO_OK)
        return st;
    char *dst = (char *)k->super.ptr + offset;
    if (copy_here(s, len, flags, comp)) {
        s->super.pio_ops++;
        if (k->local)
            memcpy(dst, src, len);
        else
            ordo_copy_out(dst, src, len);
        return ORDO_OK;
    }
    return submit(s, k, ORDO_ENGINE_MEMCPY, dst, src, len, comp);
}

static ordo_status_t shm_get(ordo_tl_iface_t *iface, ordo_tl_rkey_t *rkey, size_t offset,
                             void *dst, size_t len, unsigned flags, ordo_tl_comp_t *comp)
{
    shm_iface_t *s = (shm_iface_t *)iface;
    shm_rkey_t *k = (shm_rkey_t *)rkey;
    if (k->kind == SHM_MEM_CMA && !k->local) {
        s->super.single_copy_ops++;
        if (cma_copy_here(s, len, flags, comp))
            return cma_copy(k, 0, dst, k->remote + offset, len);
        return submit(s, k, ORDO_ENGINE_CMA_READ, dst, k->remote + offset, len, comp);
    }
    ordo_status_t st = attach(s, k);
    if (st != ORDO_OK)
        return st;
    const char *src = (const char *)k->super.ptr + offset;
    if (copy_here(s, len, flags, comp)) {
        s->super.pio_ops++;
        memcpy(dst, src, len);
        return ORDO_OK;
    }
    return submit(s, k, ORDO_ENGINE_MEMCPY, dst, src, len, comp);
}

static ordo_status_t shm_atomic(ordo_tl_iface_t *iface, ordo_tl_rkey_t *rkey, size_t offset,
                                ordo_atomic_op_t op, unsigned width, uint64_t value,
                                uint64_t compare, uint64_t *result, unsigned flags,
                                ordo_tl_comp_t *comp)
{
    (void)flags, (void)comp;
    shm_iface_t *s = (shm_iface_t *)iface;
    shm_rkey_t *k = (shm_rkey_t *)rkey;
    if (k->kind == SHM_MEM_CMA && !k->local) {
        ordo_error("remote atomics need rank %d's region mapped: it was created over user "
                   "memory reached by single copy (create it with ORDO_REGION_CREATE_MAPPED)",
                   k->super.rank);
        return ORDO_ERR_UNSUPPORTED;
    }
    ordo_status_t st = attach(s, k);
    if (st != ORDO_OK)
        return st;
    uint64_t old = ordo_tl_atomic_apply((char *)k->super.ptr + offset, op, width, value, compare);
    if (result)
        *result = old;
    return ORDO_OK;
}

static void *shm_am_peek(ordo_tl_iface_t *iface, int rank, size_t *len_p, void **desc_p)
{
    _Atomic uint32_t *bounce;
    void *data = ordo_am_peek(&((shm_iface_t *)iface)->mbox.rx[rank], len_p, &bounce);
    *desc_p = (void *)bounce;
    return data;
}

static void shm_am_consume(ordo_tl_iface_t *iface, int rank)
{
    ordo_am_consume(&((shm_iface_t *)iface)->mbox.rx[rank]);
}

static unsigned engine_progress(shm_iface_t *s);

static unsigned shm_progress(ordo_tl_iface_t *iface)
{
    shm_iface_t *s = (shm_iface_t *)iface;
    unsigned n = shm_mailbox_poll(&s->mbox, iface);
    if (s->inflight_head)
        n += engine_progress(s);
    return n;
}

static ordo_status_t shm_am_short(ordo_tl_iface_t *iface, int rank, const void *hdr,
                                  size_t hdrlen, const void *payload, size_t len)
{
    shm_iface_t *s = (shm_iface_t *)iface;
    ordo_am_tx_t *tx;
    ordo_status_t st = shm_mailbox_lane(&s->mbox, rank, &tx);
    if (ORDO_UNLIKELY(st != ORDO_OK))
        return st;
    return ordo_am_send_short(tx, hdr, hdrlen, payload, len);
}

static ordo_status_t shm_am_bcopy(ordo_tl_iface_t *iface, int rank, const void *hdr,
                                  size_t hdrlen, const void *payload, size_t len)
{
    shm_iface_t *s = (shm_iface_t *)iface;
    ordo_am_tx_t *tx;
    ordo_status_t st = shm_mailbox_lane(&s->mbox, rank, &tx);
    if (ORDO_UNLIKELY(st != ORDO_OK))
        return st;
    return ordo_am_send_bcopy(tx, hdr, hdrlen, payload, len);
}

static void shm_am_release(ordo_tl_iface_t *iface, void *desc)
{
    (void)iface;
    ordo_am_release(desc);
}

static size_t shm_am_arrived(ordo_tl_iface_t *iface, void *desc)
{
    (void)iface;
    return ordo_am_arrived(desc);
}

static unsigned engine_progress(shm_iface_t *s)
{
    ordo_engine_help(&s->engines);   /* a polling initiator copies too */
    unsigned n = 0;
    shm_job_t *prev = NULL, *j = s->inflight_head;
    while (j) {
        shm_job_t *next = j->next;
        if (!ordo_engine_job_done(&j->super)) {
            prev = j;
            j = next;
            continue;
        }
        if (prev) prev->next = next; else s->inflight_head = next;
        if (s->inflight_tail == j) s->inflight_tail = prev;
        int err = atomic_load(&j->super.error);
        j->rkey->pins--;
        ordo_status_t st = ORDO_OK;
        if (err) {
            ordo_error("engine transfer with rank %d failed: %s", j->rkey->super.rank,
                       strerror(err));
            st = err == ESRCH ? ORDO_ERR_PEER_DEAD : ORDO_ERR_IO;
        }
        ordo_tl_comp_t *comp = j->comp;   /* the callback may reuse the job */
        j->next = s->job_free;
        s->job_free = j;
        comp->func(comp, st);
        n++;
        j = next;
    }
    return n;
}

const ordo_tl_ops_t ordo_tl_shm_ops = {
    .size = sizeof(ordo_tl_ops_t),
    .name = "shm",
    .description = "shared memory between ranks of one machine: PIO into mapped memfd "
                   "regions, offload engines, single-copy process_vm_readv/writev",
    .caps = ORDO_TL_CAP_PUT | ORDO_TL_CAP_GET | ORDO_TL_CAP_ATOMIC32 | ORDO_TL_CAP_ATOMIC64 |
            ORDO_TL_CAP_PTR | ORDO_TL_CAP_ASYNC | ORDO_TL_CAP_USER_MEM | ORDO_TL_CAP_AM,
    .open = shm_iface_open,
    .close = shm_iface_close,
    .reaches = shm_reaches,
    .mem_expose = shm_mem_expose,
    .mem_release = shm_mem_release,
    .mem_published = shm_mem_published,
    .rkey_open = shm_rkey_open,
    .rkey_close = shm_rkey_close,
    .rkey_ptr = shm_rkey_ptr,
    .put = shm_put,
    .get = shm_get,
    .atomic = shm_atomic,
    .progress = shm_progress,
    .am_short = shm_am_short,
    .am_bcopy = shm_am_bcopy,
    .am_arrived = shm_am_arrived,
    .am_release = shm_am_release,
    .am_peek = shm_am_peek,
    .am_consume = shm_am_consume,
};

static ordo_status_t shm_iface_open(const ordo_tl_params_t *params, ordo_tl_iface_t **iface_p)
{
    shm_iface_t *s = calloc(1, sizeof(*s));
    if (s == NULL)
        return ORDO_ERR_NO_MEMORY;
    s->super.ops = &ordo_tl_shm_ops;
    s->boot = params->boot;
    s->rank = params->rank;
    s->pid = getpid();
    s->size = params->size;
    s->ptr_retire = params->ptr_retire;
    s->pio_max = params->pio_max;
    s->super.eager_cross = params->eager_cross;   /* measured for this machine's processes */
    s->super.pipe_max = params->pipe_max;
    s->chunk = ordo_config.engine_chunk;
    s->attach_max = ordo_config.attach_cache_max;
    if ((s->peers = calloc((size_t)s->size, sizeof(*s->peers))) == NULL) {
        free(s);
        return ORDO_ERR_NO_MEMORY;
    }
    for (int r = 0; r < s->size; r++)
        s->peers[r].pidfd = -1;
    if (ordo_engine_pool_init(&s->engines, params->engines,
                              ordo_config.engine_bind == ORDO_ENGINE_BIND_ANY) != 0) {
        free(s->peers);
        free(s);
        return ORDO_ERR_NO_MEMORY;
    }
    ordo_status_t st = shm_mailbox_open(&s->mbox, &s->super, s->boot, s->rank, s->size,
                                        params);
    if (st == ORDO_OK) {
        st = ordo_tl_reorder_init(&s->super, s->rank);
        if (st != ORDO_OK)
            shm_mailbox_close(&s->mbox);
    }
    if (st != ORDO_OK) {
        ordo_engine_pool_fini(&s->engines);
        free(s->peers);
        free(s);
        return st;
    }
    *iface_p = &s->super;
    return ORDO_OK;
}
