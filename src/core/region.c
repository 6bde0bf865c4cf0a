/* Regions: collective creation, exchange of transport keys, release.
 *
 * alloc  -> memory from a memfd (no name in /dev/shm; gone with the last
 *           descriptor or mapping, so nothing survives a crash), mapped by
 *           local peers through descriptors passed by the launcher.
 * create -> the program's memory, reached by single copy where every peer
 *           may (probed per peer); where one may not, or when asked, the
 *           pages move into a memfd (copy-in) and move back at free
 *           (copy-out). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include "core.h"
#include "../base/config.h"
#include "../base/log.h"
#include "../base/quiesce.h"

ordo_status_t ordo_region_expose(struct ordo_region *r, ordo_tl_record_t *mine, int via_boot,
                                 int transient)
{
    ordo_tl_mem_params_t p = {.region_id = r->id, .addr = r->addr, .size = r->size,
                              .memfd = r->memfd,
                              .memfd_offset = (size_t)((char *)r->addr - (char *)r->map_base),
                              .fd_via_boot = via_boot, .transient = transient};
    for (int i = 0; i < ordo_ctx->n_ifaces; i++) {
        ordo_tl_iface_t *f = ordo_ctx->ifaces[i];
        size_t len = 0;
        ordo_status_t st = f->ops->mem_expose(f, &p, &r->mem[i], mine[i].blob, &len);
        if (st != ORDO_OK)
            return st;
        mine[i].len = (uint32_t)len;
    }
    return ORDO_OK;
}

/* Ids of regions over a context's members: apart from those over every
 * rank, which number in step on every rank. */
#define SUBSET_ID 0x80000000u

/* Each rank's part of an agreed gather: how the rank fared so far, then its
 * data. */
typedef struct agreed_hdr {
    int32_t status;
    uint32_t pad;
} agreed_hdr_t;

/* Bytes between two ranks' parts: each starts 8-byte aligned. */
static size_t agreed_stride(size_t len)
{
    return (sizeof(agreed_hdr_t) + len + 7) & ~(size_t)7;
}

/* An allgather over the n ranks members lists (NULL: every rank, n the
 * job's size) in which every rank also says how it fared so far.  A rank
 * that already failed still takes part, so the others learn of its failure
 * as soon as it reaches the call, never by a timeout; and every rank returns
 * the same status: the failure of the first failing member, else the
 * gather's own.  *all_p (NULL allowed) receives every member's part, in
 * member order, a header then len bytes each, agreed_stride(len) apart;
 * free() it. */
static ordo_status_t gather_agreed(const int *members, int nm, uint32_t id, const char *step,
                                   ordo_status_t mine, const void *data, size_t len,
                                   uint8_t **all_p)
{
    size_t stride = agreed_stride(len), n = (size_t)nm;
    uint8_t *part = calloc(1, stride), *all = calloc(n, stride);
    ordo_status_t st = ORDO_ERR_NO_MEMORY;
    if (all_p)
        *all_p = NULL;
    if (part == NULL || all == NULL) {
        /* cannot take part: the others find out by the bootstrap timeout */
        ordo_error("region %u: no memory to agree on the %s step with the other ranks", id,
                   step);
        goto out;
    }
    ((agreed_hdr_t *)part)->status = (int32_t)mine;
    if (len && mine == ORDO_OK)
        memcpy(part + sizeof(agreed_hdr_t), data, len);
    if (ordo_ctx->agree_allgather && ordo_ctx->layers_up) {
        st = ordo_ctx->agree_allgather(members, nm, part, stride, all);
    } else if (members != NULL) {
        st = ORDO_ERR_UNSUPPORTED;   /* contexts exist only once the layers are up */
    } else {
        char tag[64];
        snprintf(tag, sizeof(tag), "ordo.region.%u.%s", id, step);
        st = ordo_boot_allgather(ordo_ctx->boot, tag, part, stride, all);
    }
    if (st != ORDO_OK)
        goto out;
    for (size_t i = 0; i < n; i++) {
        const agreed_hdr_t *h = (const agreed_hdr_t *)(all + i * stride);
        ordo_status_t theirs = (ordo_status_t)h->status;
        if (theirs == ORDO_OK)
            continue;
        if (theirs >= 0 || theirs < ORDO_ERR_EPOCH)
            theirs = ORDO_ERR_IO;   /* not a failure status: never hand it on */
        if (mine == ORDO_OK && id == SUBSET_ID)   /* its id is not agreed yet */
            ordo_error("a region over %d ranks: rank %d failed (%s) before it was made; it is "
                       "given up on every one", nm, members ? members[i] : (int)i,
                       ordo_status_string(theirs));
        else if (mine == ORDO_OK)
            ordo_error("region %u: rank %d failed (%s) at the %s step; the region is given "
                       "up on every rank", id, members ? members[i] : (int)i,
                       ordo_status_string(theirs), step);
        st = theirs;
        break;
    }
    if (st == ORDO_OK && all_p) {
        *all_p = all;
        all = NULL;
    }
out:
    free(part);
    free(all);
    return st;
}

static ordo_status_t open_keys(struct ordo_region *r, const uint8_t *all, int round,
                               uint8_t *failed, int only_failed)
{
    int n = ordo_ctx->n_ifaces;
    size_t stride = agreed_stride((size_t)n * sizeof(ordo_tl_record_t));
    for (int m = 0; m < ordo_region_span(r); m++) {
        int rank = ordo_region_member(r, m);
        if (only_failed && !failed[rank])
            continue;
        int i = ordo_ctx->tl_of_rank[rank];
        ordo_tl_iface_t *f = ordo_ctx->ifaces[i];
        const ordo_tl_record_t *rec =
            (const ordo_tl_record_t *)(all + (size_t)m * stride + sizeof(agreed_hdr_t)) + i;
        if (rec->len > ORDO_TL_BLOB_MAX) {
            ordo_error("region %u: rank %d's key for its memory is %u bytes (at most %d)",
                       r->id, rank, rec->len, ORDO_TL_BLOB_MAX);
            return ORDO_ERR_IO;
        }
        ordo_status_t st = f->ops->rkey_open(f, rank, rec->blob, rec->len, &r->rkeys[rank]);
        failed[rank] = 0;
        if (st == ORDO_ERR_PERMISSION && round < 2) {   /* reach_refused tries again */
            failed[rank] = 1;
            r->rkeys[rank] = NULL;
            continue;
        }
        if (st != ORDO_OK) {
            ordo_error("region %u: cannot reach rank %d's memory: %s", r->id, rank,
                       ordo_status_string(st));
            return st;
        }
    }
    return ORDO_OK;
}

/* Expose this rank's memory (unless `prep` failed, or only_failed and it
 * is exposed already), gather every rank's keys with how each fared, and
 * open the peers' keys (all, or those marked in failed).  Returns the
 * gather's agreed status: a failure before it is every rank's.  How opening
 * the keys went is this rank's own (*opened_p), agreed on by the caller's
 * last step. */
static ordo_status_t exchange(struct ordo_region *r, int round, uint8_t *failed, int only_failed,
                              ordo_status_t prep, ordo_status_t *opened_p)
{
    int n = ordo_ctx->n_ifaces;
    ordo_tl_record_t *mine = calloc((size_t)n, sizeof(ordo_tl_record_t));
    uint8_t *all = NULL;
    ordo_status_t st = mine ? prep : ORDO_ERR_NO_MEMORY;
    if (st == ORDO_OK && (!only_failed || r->mem[0] == NULL))
        st = ordo_region_expose(r, mine, round == 2, 0);
    char step[16];
    snprintf(step, sizeof(step), "%d", round);
    st = gather_agreed(r->members, ordo_region_span(r), r->id, step, st, mine,
                       (size_t)n * sizeof(ordo_tl_record_t), &all);
    *opened_p = st == ORDO_OK ? open_keys(r, all, round, failed, only_failed) : ORDO_OK;
    free(all);
    free(mine);
    return st;
}

/* After the first exchange: the owners some peer could not reach (the
 * kernel's ptrace rules refuse single copy, or taking a descriptor from the
 * owner's process) are agreed on, and reached a second way.  Such an owner
 * moves program memory into mapped pages (it cannot be copied from any
 * more), and its descriptor passes through the bootstrap.  mine is how this
 * rank opened the peers' keys; *opened_p how it opened them in the end. */
static ordo_status_t reach_refused(struct ordo_region *r, uint8_t *failed, ordo_status_t mine,
                                   ordo_status_t *opened_p)
{
    int n = ordo_ctx->size, span = ordo_region_span(r);
    uint8_t *all_failed = NULL;
    ordo_status_t st = gather_agreed(r->members, span, r->id, "failed", mine, failed, (size_t)n,
                                     &all_failed);
    if (st != ORDO_OK)
        return st;
    size_t stride = agreed_stride((size_t)n);
    int any = 0;
    for (int who = 0; who < n; who++) {
        failed[who] = 0;
        for (int from = 0; from < span; from++)
            failed[who] |= all_failed[(size_t)from * stride + sizeof(agreed_hdr_t) + (size_t)who];
        any |= failed[who];
    }
    free(all_failed);
    *opened_p = mine;
    if (!any)
        return ORDO_OK;
    ordo_status_t moved = ORDO_OK;
    if (failed[ordo_ctx->rank]) {
        for (int i = 0; i < ordo_ctx->n_ifaces; i++) {
            if (r->mem[i]) {
                ordo_ctx->ifaces[i]->ops->mem_release(ordo_ctx->ifaces[i], r->mem[i]);
                r->mem[i] = NULL;
            }
        }
        if (r->memfd < 0) {
            ordo_warn("a peer may not reach this process's memory by single copy "
                      "(process_vm_writev refused); region %u falls back to copy-in/copy-out "
                      "through shared memory", r->id);
            moved = ordo_pages_move_in(r);
        } else {
            ordo_debug("a peer may not take region %u's descriptor from this process: it "
                       "passes through the launcher", r->id);
        }
    }
    for (int who = 0; who < n; who++) {
        if (failed[who] && r->rkeys[who]) {
            ordo_tl_iface_t *f = ordo_iface_of(who);
            f->ops->rkey_close(f, r->rkeys[who]);
            r->rkeys[who] = NULL;
        }
    }
    return exchange(r, 2, failed, 1, moved, opened_p);
}

ordo_tl_rkey_t ordo_rkey_absent;

struct ordo_region *ordo_region_new(uint32_t id, void *addr, size_t size, const int *members,
                                    int n)
{
    struct ordo_region *r = calloc(1, sizeof(*r));
    if (r == NULL)
        return NULL;
    r->rkeys = calloc((size_t)ordo_ctx->size, sizeof(ordo_tl_rkey_t *));
    r->members = members ? malloc(sizeof(int) * (size_t)(n ? n : 1)) : NULL;
    if (r->rkeys == NULL || (members && r->members == NULL)) {
        free(r->rkeys);
        free(r);
        return NULL;
    }
    if (members) {
        memcpy(r->members, members, sizeof(int) * (size_t)n);
        r->nmembers = n;
        for (int rank = 0; rank < ordo_ctx->size; rank++)
            r->rkeys[rank] = &ordo_rkey_absent;
        for (int i = 0; i < n; i++)
            r->rkeys[members[i]] = NULL;
    }
    r->id = id;
    r->addr = addr;
    r->size = size;
    r->memfd = -1;
    return r;
}

ordo_status_t ordo_region_unexpose(struct ordo_region *r)
{
    for (int rank = 0; r->rkeys && rank < ordo_ctx->size; rank++) {
        if (r->rkeys[rank] && r->rkeys[rank] != &ordo_rkey_absent) {
            ordo_tl_iface_t *f = ordo_iface_of(rank);
            f->ops->rkey_close(f, r->rkeys[rank]);
            r->rkeys[rank] = NULL;
        }
    }
    for (int i = 0; i < ordo_ctx->n_ifaces; i++) {
        if (r->mem[i]) {
            ordo_ctx->ifaces[i]->ops->mem_release(ordo_ctx->ifaces[i], r->mem[i]);
            r->mem[i] = NULL;
        }
    }
    return ORDO_OK;
}

static void region_discard(struct ordo_region *r)
{
    if (r->magic == ORDO_MAGIC_REGION)   /* opened by the layers */
        for (size_t i = ordo_layer_count; i-- > 0;)
            if (ordo_layers[i]->region_close)
                ordo_layers[i]->region_close(r);
    if (r->kind == ORDO_REGION_KIND_DYNAMIC)
        ordo_dynamic_discard(r);
    ordo_region_unexpose(r);
    if (r->kind == ORDO_REGION_KIND_ALLOC && r->map_base)
        munmap(r->map_base, r->map_len);
    else if (r->kind == ORDO_REGION_KIND_MAPPED)
        ordo_pages_move_out(r);
    if (r->memfd >= 0)
        close(r->memfd);
    free(r->rkeys);
    r->rkeys = NULL;
    free(r->members);
    r->members = NULL;
    r->magic = ORDO_MAGIC_DEAD;
    r->next = ordo_ctx->zombies;
    ordo_ctx->zombies = r;
}

/* Hand a region the layers (which may refuse it), then to the program. */
static ordo_status_t region_link(struct ordo_region *r)
{
    r->magic = ORDO_MAGIC_REGION;
    for (size_t i = 0; i < ordo_layer_count; i++) {
        ordo_status_t st = ordo_layers[i]->region_open ? ordo_layers[i]->region_open(r)
                                                       : ORDO_OK;
        if (st != ORDO_OK) {
            while (i-- > 0)
                if (ordo_layers[i]->region_close)
                    ordo_layers[i]->region_close(r);
            r->magic = 0;
            return st;
        }
    }
    r->next = ordo_ctx->regions;
    ordo_ctx->regions = r;
    return ORDO_OK;
}

static void region_unlink(struct ordo_region *r)
{
    for (struct ordo_region **pp = &ordo_ctx->regions; *pp; pp = &(*pp)->next) {
        if (*pp == r) {
            *pp = r->next;
            break;
        }
    }
}

/* The last step of a collective region call: every rank learns whether all
 * of them got there; where one did not, every rank gives the region up and
 * returns the same status.  A linked region is unlinked first. */
static ordo_status_t finish_agreed(struct ordo_region *r, int linked, ordo_status_t mine,
                                   const char *step)
{
    ordo_status_t st = gather_agreed(r->members, ordo_region_span(r), r->id, step, mine, NULL, 0,
                                     NULL);
    if (st != ORDO_OK) {
        if (linked)
            region_unlink(r);
        region_discard(r);
        return st;
    }
    /* every peer holds its key now */
    for (int i = 0; i < ordo_ctx->n_ifaces; i++)
        if (r->mem[i])
            ordo_ctx->ifaces[i]->ops->mem_published(ordo_ctx->ifaces[i], r->mem[i]);
    /* an allocated region needs its descriptor no more (the mapping stays):
     * one descriptor less per region against this process's limit */
    if (r->kind == ORDO_REGION_KIND_ALLOC && r->memfd >= 0) {
        close(r->memfd);
        r->memfd = -1;
    }
    return ORDO_OK;
}

/* A number from a line "name value [kB]" of a /proc or /sys file;
 * UINT64_MAX when absent or not a number ("max"). */
static uint64_t read_value(const char *path, const char *name)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return UINT64_MAX;
    char line[256];
    uint64_t v = UINT64_MAX;
    size_t nlen = strlen(name);
    while (fgets(line, sizeof(line), f)) {
        if (strncmp(line, name, nlen) != 0)
            continue;
        unsigned long long x;
        char unit[8] = "";
        if (sscanf(line + nlen, " %llu %7s", &x, unit) >= 1)
            v = strcmp(unit, "kB") == 0 ? (uint64_t)x * 1024 : (uint64_t)x;
        break;
    }
    fclose(f);
    return v;
}

/* The memory a region's pages could ever be backed by: memory and swap, the
 * commit limit under strict overcommit, and this process's cgroup limit.
 * Regions are sparse, so the kernel would accept any size and fail at the
 * first touch beyond it (SIGBUS, or the OOM killer): say it at the call.
 * The machine's memory, the overcommit mode and the cgroup's limit move
 * slowly and are read again only for a region that comes near them (three
 * file reads would cost more than the rest of a region's creation); the
 * commit headroom moves with every allocation, so under strict overcommit
 * it is read at each call. */
static ordo_status_t check_backing(size_t size)
{
    static int probed, strict;
    static uint64_t fixed;                 /* memory and swap, or the cgroup's limit */
    static const char *fixed_what;
    if (size == 0)
        return ORDO_OK;
    if (!probed || size > fixed / 4) {
        struct sysinfo si;
        if (sysinfo(&si) != 0)
            return ORDO_OK;
        uint64_t unit = si.mem_unit ? si.mem_unit : 1;
        fixed = ((uint64_t)si.totalram + (uint64_t)si.totalswap) * unit;
        fixed_what = "the machine's memory and swap";
        strict = read_value("/proc/sys/vm/overcommit_memory", "") == 2;
        char cg[512] = "", path[640];
        FILE *f = fopen("/proc/self/cgroup", "r");
        if (f) {
            if (fgets(cg, sizeof(cg), f) && strncmp(cg, "0::", 3) == 0) {
                cg[strcspn(cg, "\n")] = '\0';
                snprintf(path, sizeof(path), "/sys/fs/cgroup%s/memory.max", cg + 3);
                uint64_t max = read_value(path, "");
                if (max < fixed) {
                    fixed = max;
                    fixed_what = "this process's cgroup memory limit (memory.max)";
                }
            }
            fclose(f);
        }
        probed = 1;
    }
    uint64_t limit = fixed;
    const char *what = fixed_what;
    if (strict) {
        uint64_t cl = read_value("/proc/meminfo", "CommitLimit:");
        uint64_t used = read_value("/proc/meminfo", "Committed_AS:");
        if (cl != UINT64_MAX && used != UINT64_MAX && cl - ORDO_MIN(cl, used) < limit) {
            limit = cl - ORDO_MIN(cl, used);
            what = "the commit limit left (vm.overcommit_memory=2)";
        }
    }
    if (size <= limit)
        return ORDO_OK;
    ordo_error("a region of %zu bytes (%.1f GiB) is more than can ever be backed: %s is "
               "%.1f GiB", size, (double)size / (1 << 30), what, (double)limit / (1 << 30));
    return ORDO_ERR_NO_MEMORY;
}

/* The id of a new region over members[n] (NULL: every rank): the next in
 * step, or for a context's members the highest of their proposals, so
 * that each rank's ids stay distinct.  A rank that failed so far (prep)
 * still takes part; for members the step agrees on how every member
 * fared, and a failure there is every member's (nothing is made yet). */
static ordo_status_t region_id(const int *members, int n, ordo_status_t prep, uint32_t *id_p)
{
    if (members == NULL) {
        *id_p = ordo_ctx->next_region_id++;
        return prep;
    }
    uint32_t mine = ordo_ctx->next_subset_id, top = mine;
    uint8_t *all = NULL;
    ordo_status_t st = gather_agreed(members, n, SUBSET_ID, "id", prep, &mine, sizeof(mine),
                                     &all);
    if (st != ORDO_OK)
        return st;
    size_t stride = agreed_stride(sizeof(mine));
    for (int i = 0; i < n; i++) {
        uint32_t theirs;
        memcpy(&theirs, all + (size_t)i * stride + sizeof(agreed_hdr_t), sizeof(theirs));
        if (theirs > top)
            top = theirs;
    }
    free(all);
    ordo_ctx->next_subset_id = (top + 1) & ~SUBSET_ID;
    *id_p = SUBSET_ID | top;
    return ORDO_OK;
}

/* The ranks a region over comm spans: NULL (*n_p the job's size) for
 * every rank, else a list to free.  Refused at the caller alone: a handle
 * that is no context, or one this rank is not a member of, names no
 * collective to join. */
static ordo_status_t span_of(ordo_comm_h comm, int **members_p, int *n_p)
{
    *members_p = NULL;
    *n_p = ordo_ctx->size;
    if (comm == ORDO_COMM_WORLD)
        return ORDO_OK;
    if (ordo_ctx->comm_members == NULL)
        return ORDO_ERR_INVALID_HANDLE;
    return ordo_ctx->comm_members(comm, members_p, n_p);
}

/* Allocate a region collectively over members[n] (NULL: every rank).
 * `prep` is how the caller's own checks went: a rank that failed them
 * still takes every collective step, so that all ranks return the same
 * status at once.  link: hand it to the layers and the program (else it is
 * the layers' own). */
static ordo_status_t region_alloc(const int *members, int n, size_t size, unsigned flags,
                                  ordo_status_t prep, int link, struct ordo_region **region_p)
{
    uint32_t id = 0;
    ordo_status_t st = region_id(members, n, prep, &id);
    if (members && st != ORDO_OK)
        return st;
    if (st == ORDO_OK)
        st = check_backing(size);
    struct ordo_region *r = ordo_region_new(id, NULL, st == ORDO_OK ? size : 0, members, n);
    if (r == NULL) {
        /* still take part, so the others learn of it */
        (void)gather_agreed(members, n, id, "0", ORDO_ERR_NO_MEMORY, NULL, 0, NULL);
        return ORDO_ERR_NO_MEMORY;
    }
    r->kind = ORDO_REGION_KIND_ALLOC;
    r->flags = flags;
    size_t pg = ordo_page_size();
    if (st == ORDO_OK) {
        r->map_len = (size + pg - 1) & ~(pg - 1);
        r->memfd = ordo_memfd_new(r->map_len);
        if (r->memfd < 0)
            st = ordo_os_error("memfd_create for a region");
    }
    if (st == ORDO_OK && r->map_len) {
        void *m = mmap(NULL, r->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, r->memfd, 0);
        if (m == MAP_FAILED)
            st = ordo_os_error("mapping a region");
        else
            r->map_base = r->addr = m;
    }
    ordo_status_t opened;
    uint8_t *failed = calloc((size_t)ordo_ctx->size, 1);
    if (failed == NULL && st == ORDO_OK)
        st = ORDO_ERR_NO_MEMORY;
    st = exchange(r, 0, failed, 0, st, &opened);
    if (st == ORDO_OK)
        st = reach_refused(r, failed, opened, &opened);
    free(failed);
    if (st != ORDO_OK) {
        region_discard(r);
        return st;
    }
    /* the layers open it even where keys failed: their opening may be
     * collective itself (an epoch region's companion), and must stay in step */
    int linked = 0;
    st = opened;
    if (link) {
        ordo_status_t s2 = region_link(r);
        linked = s2 == ORDO_OK;
        if (st == ORDO_OK)
            st = s2;
    }
    st = finish_agreed(r, linked, st, "open");
    if (st != ORDO_OK)
        return st;
    *region_p = r;
    return ORDO_OK;
}

ordo_status_t ordo_region_alloc_internal(const int *members, int n, size_t size,
                                         ordo_status_t prep, struct ordo_region **region_p)
{
    ordo_status_t st = region_alloc(members, n, size, 0, prep, 0, region_p);
    if (st == ORDO_OK)
        (*region_p)->magic = ORDO_MAGIC_REGION;
    return st;
}

void ordo_region_release(struct ordo_region *r)
{
    r->magic = 0;    /* not opened by the layers */
    region_discard(r);
}

ORDO_API ordo_status_t ordo_region_alloc_on(ordo_comm_h comm, size_t size, unsigned flags,
                                            ordo_region_h *region_p, void **addr_p)
{
    ORDO_CHECK_INIT();
    int *members, n;
    ordo_status_t prep = span_of(comm, &members, &n);
    if (prep != ORDO_OK)
        return prep;
    if (region_p == NULL || addr_p == NULL || (flags & ~(unsigned)ORDO_REGION_EPOCHS)) {
        prep = ORDO_ERR_INVALID_PARAM;
    } else if (size > ((size_t)1 << 46)) {
        ordo_error("ordo_region_alloc: %zu bytes is more than a region may hold (2^46)", size);
        prep = ORDO_ERR_INVALID_PARAM;
    }
    struct ordo_region *r;
    ordo_status_t st = region_alloc(members, n, size, flags, prep, 1, &r);
    free(members);
    if (st != ORDO_OK)
        return st;
    *region_p = r;
    *addr_p = r->addr;
    return ORDO_OK;
}

ORDO_API ordo_status_t ordo_region_alloc(size_t size, unsigned flags, ordo_region_h *region_p,
                                         void **addr_p)
{
    return ordo_region_alloc_on(ORDO_COMM_WORLD, size, flags, region_p, addr_p);
}

ORDO_API ordo_status_t ordo_region_create_on(ordo_comm_h comm, void *addr, size_t size,
                                             unsigned flags, ordo_region_h *region_p)
{
    ORDO_CHECK_INIT();
    int *members, n;
    ordo_status_t st = span_of(comm, &members, &n);
    if (st != ORDO_OK)
        return st;
    if (region_p == NULL ||
        (flags & ~(unsigned)(ORDO_REGION_CREATE_MAPPED | ORDO_REGION_EPOCHS)) ||
        (addr == NULL && size > 0))
        st = ORDO_ERR_INVALID_PARAM;
    uint32_t id = 0;
    st = region_id(members, n, st, &id);
    if (members && st != ORDO_OK) {
        free(members);
        return st;
    }
    struct ordo_region *r = ordo_region_new(id, st == ORDO_OK ? addr : NULL,
                                            st == ORDO_OK ? size : 0, members, n);
    if (r == NULL) {
        (void)gather_agreed(members, n, id, "1", ORDO_ERR_NO_MEMORY, NULL, 0, NULL);
        free(members);
        return ORDO_ERR_NO_MEMORY;
    }
    free(members);
    r->kind = ORDO_REGION_KIND_COPY;
    r->flags = flags;
    uint8_t *failed = calloc((size_t)ordo_ctx->size, 1);
    if (failed == NULL && st == ORDO_OK)
        st = ORDO_ERR_NO_MEMORY;
    if (st == ORDO_OK && r->size > 0 &&
        ((flags & ORDO_REGION_CREATE_MAPPED) || ordo_config.single_copy == ORDO_SINGLE_COPY_OFF))
        st = ordo_pages_move_in(r);
    /* a rank that failed so far still takes every step: the others learn of
     * it at the next gather and all give up with its status */
    ordo_status_t opened = ORDO_OK;
    st = exchange(r, 1, failed, 0, st, &opened);
    if (st == ORDO_OK)
        st = reach_refused(r, failed, opened, &opened);
    if (st != ORDO_OK) {
        free(failed);
        region_discard(r);
        return st;
    }
    free(failed);
    /* the layers open it even where keys failed (see region_alloc) */
    ordo_status_t linked = region_link(r);
    st = finish_agreed(r, linked == ORDO_OK, opened != ORDO_OK ? opened : linked, "open");
    if (st != ORDO_OK)
        return st;
    *region_p = r;
    return ORDO_OK;
}

ORDO_API ordo_status_t ordo_region_create(void *addr, size_t size, unsigned flags,
                                          ordo_region_h *region_p)
{
    return ordo_region_create_on(ORDO_COMM_WORLD, addr, size, flags, region_p);
}

ORDO_API ordo_status_t ordo_region_create_dynamic_on(ordo_comm_h comm, unsigned flags,
                                                     ordo_region_h *region_p)
{
    ORDO_CHECK_INIT();
    int *members, n;
    ordo_status_t st = span_of(comm, &members, &n);
    if (st != ORDO_OK)
        return st;
    if (region_p == NULL ||
        (flags & ~(unsigned)(ORDO_REGION_CREATE_MAPPED | ORDO_REGION_EPOCHS)))
        st = ORDO_ERR_INVALID_PARAM;
    uint32_t id = 0;
    st = region_id(members, n, st, &id);
    if (members && st != ORDO_OK) {
        free(members);
        return st;
    }
    struct ordo_region *r = ordo_region_new(id, NULL, 0, members, n);
    if (r == NULL && st == ORDO_OK)
        st = ORDO_ERR_NO_MEMORY;
    /* its first step allocates the table of attachments, which agrees on
     * how every rank fared so far: all go on, or all return this status */
    st = ordo_dynamic_open(r, members, n, st);
    free(members);
    if (st != ORDO_OK) {
        if (r)
            region_discard(r);
        return st;
    }
    r->flags = flags;
    ordo_status_t linked = region_link(r);
    st = finish_agreed(r, linked == ORDO_OK, linked, "open");
    if (st != ORDO_OK)
        return st;
    *region_p = r;
    return ORDO_OK;
}

ORDO_API ordo_status_t ordo_region_create_dynamic(unsigned flags, ordo_region_h *region_p)
{
    return ordo_region_create_dynamic_on(ORDO_COMM_WORLD, flags, region_p);
}

ORDO_API ordo_status_t ordo_region_free(ordo_region_h region)
{
    ORDO_CHECK_INIT();
    /* a handle that is not a region names no collective to join: refused
     * here alone (the others wait in theirs until ORDO_BOOT_TIMEOUT) */
    if (region == NULL || region->magic != ORDO_MAGIC_REGION)
        return ORDO_ERR_INVALID_HANDLE;
    ordo_status_t st = ORDO_OK;
    for (struct ordo_stream *s = ordo_ctx->streams; s; s = s->next) {
        ordo_status_t s2 = ordo_layers_stream_drain(s, -1);
        if (st == ORDO_OK)
            st = s2;
    }
    /* Every peer finished with our memory before it goes, and every rank
     * returns the same status. */
    st = gather_agreed(region->members, ordo_region_span(region), region->id, "free", st, NULL,
                       0, NULL);
    region_unlink(region);
    region_discard(region);
    return st;
}

void ordo_region_destroy_all(void)
{
    while (ordo_ctx->regions) {
        struct ordo_region *r = ordo_ctx->regions;
        ordo_ctx->regions = r->next;
        region_discard(r);
    }
    while (ordo_ctx->zombies) {
        struct ordo_region *r = ordo_ctx->zombies;
        ordo_ctx->zombies = r->next;
        free(r);
    }
}

static ordo_status_t check_region_rank(ordo_region_h region, int rank)
{
    if (region == NULL || region->magic != ORDO_MAGIC_REGION)
        return ORDO_ERR_INVALID_HANDLE;
    if (rank < 0 || rank >= ordo_ctx->size || !ordo_region_spans(region, rank))
        return ORDO_ERR_INVALID_RANK;
    return ORDO_OK;
}

ORDO_API ordo_status_t ordo_region_size(ordo_region_h region, int rank, size_t *size_p)
{
    ORDO_CHECK_INIT();
    ordo_status_t st = check_region_rank(region, rank);
    if (st != ORDO_OK)
        return st;
    if (size_p == NULL)
        return ORDO_ERR_INVALID_PARAM;
    *size_p = region->rkeys[rank]->size;
    return ORDO_OK;
}

ORDO_API ordo_status_t ordo_region_ptr(ordo_region_h region, int rank, void **ptr_p)
{
    ORDO_CHECK_INIT();
    ordo_status_t st = check_region_rank(region, rank);
    if (st != ORDO_OK)
        return st;
    if (ptr_p == NULL)
        return ORDO_ERR_INVALID_PARAM;
    if (region->kind == ORDO_REGION_KIND_DYNAMIC)
        return ORDO_ERR_UNSUPPORTED;   /* memory attached at no one address */
    ordo_tl_iface_t *f = ordo_iface_of(rank);
    return f->ops->rkey_ptr(f, region->rkeys[rank], ptr_p);
}
