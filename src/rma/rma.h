/* Inside the one-sided layer: what the operations (rma.c), their ordering
 * (order.c) and the synchronisation epochs (epoch.c) share. */
#ifndef ORDO_RMA_H
#define ORDO_RMA_H

#include <stdatomic.h>
#include <string.h>

#include "../core/core.h"
#include "../base/copy.h"

/* Epoch state of a region created with ORDO_REGION_EPOCHS, at this rank. */
struct rma_epoch {
    struct ordo_region *sync;       /* companion region: the synchronisation words */
    uint8_t   all_access;           /* a fence epoch or lock_all: every rank */
    uint8_t  *access;               /* per rank: in the start group, or locked */
    uint64_t  ops;                  /* not 0 once an operation was admitted in the open
                                       epochs (a mark: the fast path does not count) */
    /* fence */
    uint8_t   fence_open;
    unsigned  fence_asserts;        /* of the last fence */
    uint64_t  fences;               /* fences this rank passed */
    /* passive target */
    uint8_t  *lock;                 /* per rank: EPOCH_LOCK_* bits */
    int       nlocked;
    uint8_t   lock_all;             /* EPOCH_LOCK_* bits of lock_all, 0: none */
    /* post / start / complete / wait */
    int      *start_group, nstart;
    uint8_t   started;
    int      *post_group, npost;
    uint8_t   posted;
    unsigned  post_asserts;
    uint64_t *posts_seen;           /* per target: its posts this rank consumed */
    uint64_t *completes_seen;       /* per origin: its completes this rank consumed */
    uint64_t *posts_made;           /* per origin: posts this rank made to it */
    uint64_t *completes_made;       /* per target: completes this rank made to it */
};

/* May this rank issue an operation on region r to rank now? */
static inline ordo_status_t rma_epoch_admit(struct ordo_region *r, int rank)
{
    struct rma_epoch *ep = r->epoch;
    if (ORDO_LIKELY(ep == NULL))
        return ORDO_OK;
    if (ORDO_UNLIKELY(!(ep->all_access | ep->access[rank])))
        return ORDO_ERR_EPOCH;
    ep->ops++;
    return ORDO_OK;
}

/* Complete this rank's operations, of every stream, on region r to rank
 * (-1: to every rank); local_only: only until their buffers are free.
 * Returns the first error of an implicit operation of those streams. */
ordo_status_t rma_region_drain(struct ordo_region *r, int rank, int local_only);

/* ------------------------------------------------ order.c: ordering modes */

/* Is an operation blocked by a pending one of s before upto (NULL: all)? */
int           rma_blocked(const struct ordo_stream *s, unsigned type, int rank, size_t len,
                          unsigned flags, uint64_t fence_seq, const struct ordo_request *upto);
/* Wait until nothing pending blocks the operation (blocking calls). */
void          rma_serialise(struct ordo_stream *s, unsigned type, int rank, size_t len,
                            unsigned flags);
/* Fill in an operation; its completion goes through the stream's books. */
void          rma_describe(struct ordo_request *op, unsigned type, unsigned flags, int rank,
                           ordo_region_h region, ordo_tl_rkey_t *rkey, size_t offset,
                           size_t len);
/* Hand a described operation to its transport. */
ordo_status_t rma_tl_start(struct ordo_request *op, ordo_tl_comp_t *comp);
/* Issue now (nothing blocks it): completes at once or becomes pending. */
ordo_status_t rma_issue_now(struct ordo_stream *s, struct ordo_request *op,
                            ordo_request_h *req_p);
/* Hold back until its turn (small puts copy their data first). */
ordo_status_t rma_defer(struct ordo_stream *s, struct ordo_request *op, ordo_request_h *req_p);
/* Start the held-back operations whose turn came; how many. */
unsigned      rma_schedule(struct ordo_stream *s);
/* Complete every pending operation of s to rank (-1: all); the stream's
 * first implicit error, cleared. */
ordo_status_t rma_drain(struct ordo_stream *s, int rank);
/* An operation on ORDO_PROC_NULL: complete at once, nothing moves. */
ordo_status_t rma_proc_null_op(ordo_region_h region, ordo_request_h *req_p);

/* The ordering point before an operation: a store-release fence unless the
 * stream is relaxed and the operation not fenced. */
static inline void order_point(struct ordo_stream *s, unsigned flags)
{
    if (s->order != ORDO_ORDER_RELAXED || (flags & ORDO_OP_FENCED)) {
        atomic_thread_fence(memory_order_release);
        s->stats.fences_inserted++;
    }
}

/* A put the CPU does itself: into another process's memory by
 * ordo_copy_out (streaming when large), into this process's own by memcpy
 * (the data is read here next, from cache). */
static inline void put_copy(int rank, void *dst, const void *src, size_t len)
{
    if (rank != ordo_ctx->rank)
        ordo_copy_out(dst, src, len);
    else
        memcpy(dst, src, len);
}

/* The target of an operation checked (region, rank, bounds, epoch).  On a
 * dynamic region *offset_p is the owner's address, made an offset from the
 * key of the attachment that holds it. */
static inline ordo_status_t check_target(ordo_region_h region, int rank, size_t *offset_p,
                                         size_t len, ordo_tl_rkey_t **rkey_p)
{
    if (ORDO_UNLIKELY(region == NULL || region->magic != ORDO_MAGIC_REGION))
        return ORDO_ERR_INVALID_HANDLE;
    if (ORDO_UNLIKELY((unsigned)rank >= (unsigned)ordo_ctx->size ||
                      region->rkeys[rank] == &ordo_rkey_absent))
        return ORDO_ERR_INVALID_RANK;
    if (ORDO_UNLIKELY(region->kind == ORDO_REGION_KIND_DYNAMIC)) {
        ordo_status_t st = ordo_dynamic_resolve(region, rank, offset_p, len, rkey_p);
        return st != ORDO_OK ? st : rma_epoch_admit(region, rank);
    }
    ordo_tl_rkey_t *k = region->rkeys[rank];
    if (ORDO_UNLIKELY(len > k->size || *offset_p > k->size - len))
        return ORDO_ERR_OUT_OF_BOUNDS;
    *rkey_p = k;
    return rma_epoch_admit(region, rank);
}

/* An atomic's value and compare operands (compare may be NULL: 0), widened
 * to 64 bits. */
static ORDO_INLINE void read_operands(const void *value, const void *compare, unsigned width,
                                     uint64_t *v_p, uint64_t *c_p)
{
    uint64_t v = 0, c = 0;
    if (width == 4) {
        uint32_t v32, c32 = 0;
        memcpy(&v32, value, 4);
        if (compare)
            memcpy(&c32, compare, 4);
        v = v32;
        c = c32;
    } else {
        memcpy(&v, value, 8);
        if (compare)
            memcpy(&c, compare, 8);
    }
    *v_p = v;
    *c_p = c;
}

/* An atomic's result into the caller's 4- or 8-byte word. */
static inline void write_result(void *result, unsigned width, uint64_t v)
{
    if (width == 4) {
        uint32_t x = (uint32_t)v;
        memcpy(result, &x, 4);
    } else {
        memcpy(result, &v, 8);
    }
}

/* epoch.c: the layer's region hooks and counters */
ordo_status_t rma_epoch_region_open(struct ordo_region *r);
void          rma_epoch_region_close(struct ordo_region *r);
void          rma_epoch_stats_reset(void);
void          rma_epoch_stats(ordo_stats_t *sum);

#endif
