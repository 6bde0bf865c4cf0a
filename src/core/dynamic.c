/* Dynamic regions: created collectively without memory; each rank attaches
 * and detaches its own memory alone, and peers name it by the owner's
 * virtual addresses (MPI_Win_create_dynamic, _attach, _detach).
 *
 * Each rank publishes its attachments in a table: its part of a companion
 * region allocated with the dynamic region (mapped by local peers, reached
 * by RMA over a network, like any region).  An entry holds an attachment's
 * address, size, serial number and every transport's key for it; the
 * table's header holds a generation the owner makes odd while it writes and
 * even again after (a sequence lock).  An initiator keeps, per peer, the
 * entries it read and the keys it opened, and before every operation reads
 * the peer's generation: a load from a mapped table, or an 8-byte get over a
 * network (as Open MPI's osc/rdma reads a peer's region count for dynamic
 * windows); a change re-reads the table.
 *
 * The table is memory another process writes: nothing read from it is
 * trusted.  Counts are bounded, each entry carries a checksum (a torn or
 * stray write is never used), address ranges are checked for overflow, and
 * the keys are checked by the transport that opens them. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core.h"
#include "../base/config.h"
#include "../base/log.h"
#include "../base/timer.h"

typedef struct dyn_header {
    uint64_t gen;      /* odd while the owner writes */
    uint32_t used;     /* entries [0, used) may be in use */
    uint32_t nrec;     /* key records per entry (the number of transports) */
} dyn_header_t;

typedef struct dyn_entry {
    uint64_t base, size;
    uint32_t serial;   /* 0: free */
    uint32_t pad;
    uint64_t check;    /* over the entry with check 0 */
    /* then nrec ordo_tl_record_t */
} dyn_entry_t;

typedef struct dyn_attachment {
    struct ordo_region *mem;   /* addr, size, exposure, moved pages: an unlinked record */
    uint32_t serial;
    long     slot;             /* in the table; -1: empty, not published */
} dyn_attachment_t;

typedef struct dyn_cached {
    uint64_t         base, size;
    uint32_t         serial;
    ordo_tl_record_t rec;      /* the key of this process's transport to the owner */
    ordo_tl_rkey_t  *rkey;     /* opened at first use */
} dyn_cached_t;

typedef struct dyn_peer {
    const char   *table;       /* the peer's table, mapped here; NULL: read by get */
    uint64_t      gen;         /* of what cache holds; odd: never read */
    dyn_cached_t *cache;       /* sorted by base */
    size_t        n;
} dyn_peer_t;

typedef struct dyn_retired {
    int             rank;
    ordo_tl_rkey_t *rkey;
} dyn_retired_t;

struct ordo_dynamic {
    struct ordo_region *table;  /* the companion: every rank's table */
    size_t              stride, slots, nrec;
    uint32_t            next_serial;
    dyn_attachment_t   *att;    /* this rank's, sorted by address */
    size_t              natt, att_cap;
    uint8_t            *slot_used;
    dyn_peer_t         *peers;
    /* keys dropped from a peer's cache that operations in flight may still
     * use: closed once nothing is pending, or with the region */
    dyn_retired_t      *retired;
    size_t              nretired, retired_cap;
};

/* What a dynamic region's rkeys[] point at: no memory, so the fast paths
 * (which check size) never take an operation on it. */
static ordo_tl_rkey_t no_memory;

/* Over whole 8-byte words (entries are a multiple of 8 long): FNV-1a's
 * step on words, then a final mix; any torn or stray write shows. */
static uint64_t checksum(const void *p, size_t len)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i + 8 <= len; i += 8) {
        uint64_t w;
        memcpy(&w, (const char *)p + i, 8);
        h = (h ^ w) * 0x100000001b3ull;
        h ^= h >> 29;
    }
    return h ? h : 1;
}

static size_t table_bytes(size_t slots, size_t stride)
{
    return sizeof(dyn_header_t) + slots * stride;
}

/* ------------------------------------------------------------ the owner */

static char *my_table(struct ordo_dynamic *d)
{
    return (char *)d->table->addr;
}

static void table_lock(struct ordo_dynamic *d)
{
    dyn_header_t *h = (dyn_header_t *)my_table(d);
    __atomic_store_n(&h->gen, h->gen + 1, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_RELEASE);
}

static void table_unlock(struct ordo_dynamic *d)
{
    dyn_header_t *h = (dyn_header_t *)my_table(d);
    __atomic_store_n(&h->gen, h->gen + 1, __ATOMIC_RELEASE);
}

static void publish(struct ordo_dynamic *d, const dyn_attachment_t *a,
                    const ordo_tl_record_t *recs)
{
    char *e = my_table(d) + sizeof(dyn_header_t) + (size_t)a->slot * d->stride;
    dyn_entry_t ent = {.base = (uint64_t)(uintptr_t)a->mem->addr, .size = a->mem->size,
                       .serial = a->serial};
    table_lock(d);
    memset(e, 0, d->stride);
    memcpy(e, &ent, sizeof(ent));
    memcpy(e + sizeof(ent), recs, d->nrec * sizeof(ordo_tl_record_t));
    ent.check = checksum(e, d->stride);
    memcpy(e, &ent, sizeof(ent));
    dyn_header_t *h = (dyn_header_t *)my_table(d);
    if ((size_t)a->slot >= h->used)
        h->used = (uint32_t)a->slot + 1;
    table_unlock(d);
}

static void unpublish(struct ordo_dynamic *d, long slot)
{
    char *e = my_table(d) + sizeof(dyn_header_t) + (size_t)slot * d->stride;
    table_lock(d);
    memset(e, 0, d->stride);
    dyn_header_t *h = (dyn_header_t *)my_table(d);
    while (h->used > 0 && !d->slot_used[h->used - 1])
        h->used--;
    table_unlock(d);
}

/* Release an attachment's exposure and give its pages back. */
static void attachment_drop(dyn_attachment_t *a)
{
    struct ordo_region *m = a->mem;
    ordo_region_unexpose(m);
    if (m->kind == ORDO_REGION_KIND_MAPPED)
        ordo_pages_move_out(m);
    if (m->memfd >= 0)
        close(m->memfd);
    free(m);
    a->mem = NULL;
}

/* Memory attached mapped to a dynamic region on pages of [start, end):
 * its address and region id, or NULL (pages.c refuses to move such pages
 * twice, for a region created mapped as for another attachment). */
void *ordo_dynamic_pages_taken(uintptr_t start, uintptr_t end, uint32_t *region_p)
{
    for (struct ordo_region *r = ordo_ctx->regions; r; r = r->next) {
        if (r->kind != ORDO_REGION_KIND_DYNAMIC)
            continue;
        for (size_t i = 0; i < r->dyn->natt; i++) {
            struct ordo_region *m = r->dyn->att[i].mem;
            uintptr_t ms = (uintptr_t)m->map_base, me = ms + m->map_len;
            if (m->kind == ORDO_REGION_KIND_MAPPED && start < me && ms < end) {
                *region_p = r->id;
                return m->addr;
            }
        }
    }
    return NULL;
}

ORDO_API ordo_status_t ordo_region_attach(ordo_region_h region, void *addr, size_t size)
{
    ORDO_CHECK_INIT();
    if (region == NULL || region->magic != ORDO_MAGIC_REGION)
        return ORDO_ERR_INVALID_HANDLE;
    if (region->kind != ORDO_REGION_KIND_DYNAMIC) {
        ordo_error("ordo_region_attach: region %u is not dynamic (ordo_region_create_dynamic)",
                   region->id);
        return ORDO_ERR_INVALID_PARAM;
    }
    if (addr == NULL || (uintptr_t)addr > UINTPTR_MAX - size) {
        ordo_error("ordo_region_attach: %p+%zu is no memory", addr, size);
        return ORDO_ERR_INVALID_PARAM;
    }
    struct ordo_dynamic *d = region->dyn;
    uintptr_t a0 = (uintptr_t)addr, a1 = a0 + size;
    size_t at = 0;   /* where it goes in the sorted list */
    for (size_t i = 0; i < d->natt; i++) {
        uintptr_t b0 = (uintptr_t)d->att[i].mem->addr, b1 = b0 + d->att[i].mem->size;
        if (a0 == b0 || (a0 < b1 && b0 < a1)) {
            ordo_error("ordo_region_attach: %p+%zu overlaps memory already attached to region "
                       "%u at %p+%zu", addr, size, region->id, (void *)b0, (size_t)(b1 - b0));
            return ORDO_ERR_INVALID_PARAM;
        }
        if (b0 < a0)
            at = i + 1;
    }
    if (d->natt == d->att_cap) {
        size_t cap = d->att_cap ? 2 * d->att_cap : 8;
        dyn_attachment_t *n = realloc(d->att, cap * sizeof(*n));
        if (n == NULL)
            return ORDO_ERR_NO_MEMORY;
        d->att = n;
        d->att_cap = cap;
    }
    dyn_attachment_t a = {.slot = -1};
    if (size > 0) {
        while ((size_t)++a.slot < d->slots && d->slot_used[a.slot])
            ;
        if ((size_t)a.slot == d->slots) {
            ordo_error("ordo_region_attach: region %u already has %zu memory areas attached "
                       "here, as many as ORDO_DYNAMIC_ATTACH_MAX allows", region->id, d->slots);
            return ORDO_ERR_NO_MEMORY;
        }
    }
    /* a record of its own, never linked nor opened by peers (no keys) */
    if ((a.mem = calloc(1, sizeof(*a.mem))) == NULL)
        return ORDO_ERR_NO_MEMORY;
    a.mem->id = region->id;
    a.mem->addr = addr;
    a.mem->size = size;
    a.mem->memfd = -1;
    a.mem->kind = ORDO_REGION_KIND_COPY;
    if (++d->next_serial == 0)
        d->next_serial = 1;
    a.serial = d->next_serial;
    ordo_status_t st = ORDO_OK;
    if (size > 0) {
        ordo_tl_record_t recs[ORDO_MAX_TL] = {0};   /* no stack bytes go to peers */
        if ((region->flags & ORDO_REGION_CREATE_MAPPED) ||
            ordo_config.single_copy == ORDO_SINGLE_COPY_OFF)
            st = ordo_pages_move_in(a.mem);
        /* memory reached by single copy goes through a network transport's
         * registration cache: attaching a buffer again costs no new
         * registration (mapped pages are new memory each time) */
        if (st == ORDO_OK)
            st = ordo_region_expose(a.mem, recs, 0, a.mem->memfd < 0);
        if (st == ORDO_OK) {
            d->slot_used[a.slot] = 1;
            publish(d, &a, recs);
        }
    }
    if (st != ORDO_OK) {
        attachment_drop(&a);
        return st;
    }
    memmove(&d->att[at + 1], &d->att[at], (d->natt - at) * sizeof(*d->att));
    d->att[at] = a;
    d->natt++;
    return ORDO_OK;
}

/* A one-sided operation of this process still in flight, on region r to
 * rank (r NULL, rank -1: any). */
static int ops_pending(const struct ordo_region *r, int rank)
{
    for (struct ordo_stream *s = ordo_ctx->streams; s; s = s->next)
        for (struct ordo_request *op = __atomic_load_n(&s->pending_head, __ATOMIC_ACQUIRE); op;
             op = op->next)
            if ((r == NULL || op->region == r) && (rank < 0 || op->rank == rank) &&
                op->type != ORDO_OP_P2P)
                return 1;
    return 0;
}

/* Wait for those operations (their errors stay for the program's quiet
 * or wait); each completes or fails on its transport's own bound. */
static void wait_ops(const struct ordo_region *r, int rank)
{
    unsigned idle = 0;
    while (ops_pending(r, rank))
        ordo_progress_wait(&idle);
}

ORDO_API ordo_status_t ordo_region_detach(ordo_region_h region, void *addr)
{
    ORDO_CHECK_INIT();
    if (region == NULL || region->magic != ORDO_MAGIC_REGION)
        return ORDO_ERR_INVALID_HANDLE;
    if (region->kind != ORDO_REGION_KIND_DYNAMIC) {
        ordo_error("ordo_region_detach: region %u is not dynamic", region->id);
        return ORDO_ERR_INVALID_PARAM;
    }
    struct ordo_dynamic *d = region->dyn;
    for (size_t i = 0; i < d->natt; i++) {
        dyn_attachment_t *a = &d->att[i];
        if (a->mem->addr != addr)
            continue;
        /* this process's own operations on it end first: its pages may move */
        wait_ops(region, ordo_ctx->rank);
        if (a->slot >= 0) {
            d->slot_used[a->slot] = 0;
            unpublish(d, a->slot);
        }
        attachment_drop(a);
        memmove(a, a + 1, (d->natt - i - 1) * sizeof(*a));
        d->natt--;
        return ORDO_OK;
    }
    ordo_error("ordo_region_detach: nothing is attached at %p to region %u", addr, region->id);
    return ORDO_ERR_INVALID_PARAM;
}

/* -------------------------------------------------------- the initiator */

static ordo_status_t read_table(struct ordo_dynamic *d, int rank, size_t off, void *buf,
                                size_t len)
{
    const char *t = d->peers[rank].table;
    if (t) {
        /* a sequence lock's reads: the generation is read atomically
         * around them (read_gen), these only copied */
        memcpy(buf, t + off, len);
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        return ORDO_OK;
    }
    ordo_tl_iface_t *f = ordo_iface_of(rank);
    return f->ops->get(f, d->table->rkeys[rank], off, buf, len, 0, NULL);
}

static ordo_status_t read_gen(struct ordo_dynamic *d, int rank, uint64_t *gen_p)
{
    const char *t = d->peers[rank].table;
    if (t) {
        *gen_p = __atomic_load_n((const uint64_t *)t, __ATOMIC_ACQUIRE);
        return ORDO_OK;
    }
    return read_table(d, rank, 0, gen_p, sizeof(*gen_p));
}

static void retire(struct ordo_dynamic *d, int rank, ordo_tl_rkey_t *k)
{
    if (k == NULL)
        return;
    if (d->nretired == d->retired_cap) {
        size_t cap = d->retired_cap ? 2 * d->retired_cap : 16;
        dyn_retired_t *n = realloc(d->retired, cap * sizeof(*n));
        if (n == NULL) {
            /* cannot keep it for later: nothing may use it once closed, so
             * wait for every one-sided operation now */
            wait_ops(NULL, -1);
            ordo_iface_of(rank)->ops->rkey_close(ordo_iface_of(rank), k);
            return;
        }
        d->retired = n;
        d->retired_cap = cap;
    }
    d->retired[d->nretired++] = (dyn_retired_t){rank, k};
}

/* Close retired keys once no operation can hold one. */
static void close_retired(struct ordo_dynamic *d, int force)
{
    if (d->nretired == 0 || (!force && ops_pending(NULL, -1)))
        return;
    for (size_t i = 0; i < d->nretired; i++) {
        ordo_tl_iface_t *f = ordo_iface_of(d->retired[i].rank);
        f->ops->rkey_close(f, d->retired[i].rkey);
    }
    d->nretired = 0;
}

static int by_base(const void *a, const void *b)
{
    uint64_t x = ((const dyn_cached_t *)a)->base, y = ((const dyn_cached_t *)b)->base;
    return x < y ? -1 : x > y;
}

/* A consistent copy of rank's table: its generation unchanged and even
 * around the read.  The owner holds the lock for a few copies at most; one
 * that keeps it (dead, or writing nonsense) fails the read after a second. */
static ordo_status_t snapshot(struct ordo_dynamic *d, int rank, uint64_t *gen_p, char **ents_p,
                              size_t *used_p)
{
    uint64_t until = 0;
    char *ents = NULL;
    dyn_header_t h = {0};
    for (unsigned tries = 0;; tries++) {
        ordo_status_t st = read_table(d, rank, 0, &h, sizeof(h));
        if (st != ORDO_OK)
            break;
        if ((h.gen & 1) == 0 && h.nrec == d->nrec && h.used <= d->slots) {
            free(ents);
            ents = h.used ? malloc((size_t)h.used * d->stride) : NULL;
            if (h.used && ents == NULL)
                return ORDO_ERR_NO_MEMORY;
            if (h.used)
                st = read_table(d, rank, sizeof(h), ents, (size_t)h.used * d->stride);
            uint64_t g2 = 0;
            if (st == ORDO_OK)
                st = read_gen(d, rank, &g2);
            if (st != ORDO_OK)
                break;
            if (g2 == h.gen) {
                *gen_p = h.gen;
                *ents_p = ents;
                *used_p = h.used;
                return ORDO_OK;
            }
        }
        if (tries == 16)
            until = ordo_time_ns() + 1000000000ull;
        else if (tries > 16 && ordo_time_ns() > until) {
            ordo_error("region %u: rank %d's table of attached memory stayed unreadable for a "
                       "second (being written, or damaged: generation %" PRIu64 ", %u entries, "
                       "%u keys each)", d->table->id, rank, h.gen, h.used, h.nrec);
            free(ents);
            return ORDO_ERR_IO;
        }
    }
    free(ents);
    ordo_error("region %u: cannot read rank %d's table of attached memory", d->table->id, rank);
    return ORDO_ERR_IO;
}

/* Read rank's table again; cached entries still there keep their keys. */
static ordo_status_t refresh(struct ordo_dynamic *d, int rank)
{
    dyn_peer_t *p = &d->peers[rank];
    uint64_t gen;
    char *ents;
    size_t used;
    ordo_status_t st = snapshot(d, rank, &gen, &ents, &used);
    if (st != ORDO_OK)
        return st;
    dyn_cached_t *c = used ? calloc(used, sizeof(*c)) : NULL;
    if (used && c == NULL) {
        free(ents);
        return ORDO_ERR_NO_MEMORY;
    }
    size_t n = 0, which = (size_t)ordo_ctx->tl_of_rank[rank];
    for (size_t i = 0; i < used; i++) {
        char *e = ents + i * d->stride;
        dyn_entry_t ent;
        memcpy(&ent, e, sizeof(ent));
        if (ent.serial == 0)
            continue;
        uint64_t want = ent.check;
        ent.check = 0;
        memcpy(e, &ent, sizeof(ent));
        ordo_tl_record_t rec;
        memcpy(&rec, e + sizeof(ent) + which * sizeof(rec), sizeof(rec));
        if (checksum(e, d->stride) != want || ent.size == 0 ||
            ent.base > UINT64_MAX - ent.size || rec.len > ORDO_TL_BLOB_MAX) {
            ordo_warn("region %u: entry %zu of rank %d's table of attached memory is damaged; "
                      "it is ignored", d->table->id, i, rank);
            continue;
        }
        c[n] = (dyn_cached_t){.base = ent.base, .size = ent.size, .serial = ent.serial,
                              .rec = rec};
        n++;
    }
    free(ents);
    if (n > 1)
        qsort(c, n, sizeof(*c), by_base);
    /* keep the keys of entries seen before; retire the others' */
    for (size_t j = 0; j < p->n; j++) {
        dyn_cached_t *old = &p->cache[j];
        dyn_cached_t key = {.base = old->base};
        dyn_cached_t *same = n ? bsearch(&key, c, n, sizeof(*c), by_base) : NULL;
        if (same && same->serial == old->serial && same->size == old->size &&
            same->rkey == NULL)
            same->rkey = old->rkey;
        else
            retire(d, rank, old->rkey);
    }
    free(p->cache);
    p->cache = c;
    p->n = n;
    p->gen = gen;
    if (d->nretired > 32)
        close_retired(d, 0);
    return ORDO_OK;
}

static dyn_cached_t *find(dyn_peer_t *p, uint64_t addr, size_t len)
{
    size_t lo = 0, hi = p->n;
    while (lo < hi) {    /* the last entry starting at or before addr */
        size_t mid = lo + (hi - lo) / 2;
        if (p->cache[mid].base <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return NULL;
    dyn_cached_t *c = &p->cache[lo - 1];
    return len <= c->size && addr - c->base <= c->size - len ? c : NULL;
}

ordo_status_t ordo_dynamic_resolve(struct ordo_region *r, int rank, size_t *addr_p, size_t len,
                                   ordo_tl_rkey_t **rkey_p)
{
    struct ordo_dynamic *d = r->dyn;
    if (len == 0) {           /* moves nothing: any address will do */
        *rkey_p = &no_memory;
        *addr_p = 0;
        return ORDO_OK;
    }
    dyn_peer_t *p = &d->peers[rank];
    uint64_t gen;
    ordo_status_t st = read_gen(d, rank, &gen);
    if (st == ORDO_OK && gen != p->gen)
        st = refresh(d, rank);
    if (st != ORDO_OK)
        return st;
    uint64_t addr = *addr_p;
    dyn_cached_t *c = find(p, addr, len);
    if (c == NULL) {
        ordo_error("region %u: [0x%" PRIx64 ", +%zu) is not in memory rank %d has attached",
                   r->id, addr, len, rank);
        return ORDO_ERR_OUT_OF_BOUNDS;
    }
    if (c->rkey == NULL) {
        ordo_tl_iface_t *f = ordo_iface_of(rank);
        st = f->ops->rkey_open(f, rank, c->rec.blob, c->rec.len, &c->rkey);
        if (st != ORDO_OK) {
            c->rkey = NULL;
            ordo_error("region %u: cannot reach the memory rank %d attached at 0x%" PRIx64
                       ": %s%s", r->id, rank, c->base, ordo_status_string(st),
                       st == ORDO_ERR_PERMISSION
                           ? " (the kernel refuses single copy and taking descriptors between "
                             "these processes; dynamic regions need one of them on a node)"
                           : "");
            return st;
        }
        if (c->rkey->size != c->size || c->rkey->base != c->base) {
            ordo_error("region %u: rank %d's key for its memory at 0x%" PRIx64 " does not "
                       "match its table", r->id, rank, c->base);
            retire(d, rank, c->rkey);
            c->rkey = NULL;
            return ORDO_ERR_IO;
        }
    }
    *addr_p = (size_t)(addr - c->base);
    *rkey_p = c->rkey;
    return ORDO_OK;
}

/* --------------------------------------------------------- the region */

ordo_status_t ordo_dynamic_open(struct ordo_region *r, const int *members, int nm,
                                ordo_status_t prep)
{
    struct ordo_dynamic *d = calloc(1, sizeof(*d));
    size_t n = (size_t)ordo_ctx->size;
    if (d) {
        d->slots = (size_t)ordo_config.dynamic_attach_max;
        d->nrec = (size_t)ordo_ctx->n_ifaces;
        d->slot_used = calloc(d->slots, 1);
        d->peers = calloc(n, sizeof(*d->peers));
    }
    ordo_status_t st = prep;
    if (st == ORDO_OK && (r == NULL || d == NULL || d->slot_used == NULL || d->peers == NULL))
        st = ORDO_ERR_NO_MEMORY;
    /* collective, and agreed: a rank that failed so far fails it everywhere */
    struct ordo_region *t = NULL;
    size_t stride = (sizeof(dyn_entry_t) + (size_t)ordo_ctx->n_ifaces *
                     sizeof(ordo_tl_record_t) + 7) & ~(size_t)7;
    st = ordo_region_alloc_internal(members, nm,
                                    table_bytes((size_t)ordo_config.dynamic_attach_max, stride),
                                    st, &t);
    if (st != ORDO_OK) {
        if (d) {
            free(d->slot_used);
            free(d->peers);
            free(d);
        }
        return st;
    }
    d->table = t;
    d->stride = stride;
    ((dyn_header_t *)t->addr)->nrec = (uint32_t)d->nrec;
    for (size_t rank = 0; rank < n; rank++) {
        void *ptr = NULL;
        if (!ordo_region_spans(r, (int)rank))
            continue;   /* stays absent: no table to look at */
        ordo_tl_iface_t *f = ordo_iface_of((int)rank);
        if (f->ops->rkey_ptr(f, t->rkeys[rank], &ptr) == ORDO_OK)
            d->peers[rank].table = ptr;
        d->peers[rank].gen = 1;   /* odd: never read */
        r->rkeys[rank] = &no_memory;
    }
    r->kind = ORDO_REGION_KIND_DYNAMIC;
    r->dyn = d;
    return ORDO_OK;
}

void ordo_dynamic_discard(struct ordo_region *r)
{
    struct ordo_dynamic *d = r->dyn;
    for (int rank = 0; rank < ordo_ctx->size; rank++)
        r->rkeys[rank] = NULL;
    if (d == NULL)
        return;
    for (int rank = 0; rank < ordo_ctx->size; rank++) {
        dyn_peer_t *p = &d->peers[rank];
        for (size_t i = 0; i < p->n; i++)
            retire(d, rank, p->cache[i].rkey);
        free(p->cache);
    }
    close_retired(d, 1);
    for (size_t i = 0; i < d->natt; i++)
        attachment_drop(&d->att[i]);
    ordo_region_release(d->table);
    free(d->att);
    free(d->retired);
    free(d->slot_used);
    free(d->peers);
    free(d);
    r->dyn = NULL;
}
