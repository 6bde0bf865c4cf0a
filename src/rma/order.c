/* The enforcement of ordering modes, and the stream's pending operations.
 *
 * A stream keeps, in issue order, its operations that did not complete at
 * once (engine transfers in flight, and operations held back because their
 * order required it).  An operation X may start only when no earlier pending
 * operation Y of the stream must stay before it:
 *
 *   X has ORDO_OP_FENCED            -> every Y, any target
 *   Y to X's target, before a fence -> Y
 *   same target, strict             -> every Y
 *   same target, default            -> Y when both write (put, atomic)
 *   relaxed                         -> none
 *
 * except that under default a write need not wait for an earlier write in
 * flight when the transport keeps that pair in order by itself (one
 * endpoint, the provider's FI_ORDER_* bits; tl.h ORDO_TL_OP_ORDERED): it is
 * issued at once, ORDERED (counted: network_ordered).  Strict waits for
 * every earlier operation: it also promises completion in issue order.
 *
 * Operations done by the CPU in mapped memory (PIO) complete on issue; an
 * ordered stream places a store-release fence before each, so their stores
 * become visible in issue order on any memory model.  Held-back
 * non-blocking operations start from progress as soon as their turn comes
 * (counted: ops_deferred); blocking ones wait (counted: ops_serialised). */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "rma.h"
#include "../base/log.h"

static inline int is_write(unsigned type) { return type != ORDO_OP_GET; }

static inline unsigned tl_kind(const ordo_tl_iface_t *f, unsigned type, size_t len)
{
    if (type == ORDO_OP_PUT)
        return len <= f->put_short_max ? ORDO_TL_KIND_PUT_SHORT : ORDO_TL_KIND_PUT;
    return type == ORDO_OP_GET ? ORDO_TL_KIND_GET : ORDO_TL_KIND_ATOMIC;
}

static inline int long_kind(unsigned kind)
{
    return kind == ORDO_TL_KIND_PUT || kind == ORDO_TL_KIND_GET;
}

/* The transport flags of an operation of s: under default, writes ask the
 * transport to keep them in order among themselves; under strict, each is
 * waited for before the next, so none is held back to be gathered. */
static inline unsigned tl_flags(const struct ordo_stream *s, unsigned type)
{
    if (s->order == ORDO_ORDER_STRICT)
        return ORDO_TL_OP_ALONE;
    return s->order == ORDO_ORDER_DEFAULT && is_write(type) ? ORDO_TL_OP_ORDERED : 0;
}

/* Does the transport keep X after the in-flight Y without waiting? */
static inline int transport_keeps(const struct ordo_request *y, unsigned type, size_t len)
{
    if (y->state != ORDO_OP_INFLIGHT || !(y->tl_flags & ORDO_TL_OP_ORDERED))
        return 0;
    const ordo_tl_iface_t *f = ordo_iface_of(y->rank);
    unsigned ky = tl_kind(f, y->type, y->len), kx = tl_kind(f, type, len);
    return (f->ordered_pairs & ORDO_TL_PAIR(ky, kx)) &&
           (!long_kind(ky) || y->len <= f->ordered_max) &&
           (!long_kind(kx) || len <= f->ordered_max);
}

static inline int must_wait(const struct ordo_stream *s, unsigned type, int rank, size_t len,
                            unsigned flags, uint64_t fence_seq, const struct ordo_request *y)
{
    if (flags & ORDO_OP_FENCED)
        return 1;
    if (y->rank != rank)
        return 0;
    if (y->seq <= fence_seq)
        return 1;
    switch (s->order) {
    case ORDO_ORDER_STRICT:  return 1;
    case ORDO_ORDER_DEFAULT:
        return is_write(type) && is_write(y->type) && !transport_keeps(y, type, len);
    case ORDO_ORDER_RELAXED: return 0;
    }
    return 1;
}

/* Count an in-flight write the transport keeps in order, or stop counting
 * it; by class, so that a new operation learns in constant time that none
 * pending blocks it (a window of W puts would otherwise cost W^2 steps). */
static inline unsigned ordered_slot(int ti, unsigned kind, unsigned over)
{
    return ((unsigned)ti * 4 + kind) * 2 + over;
}

static void count_ordered(struct ordo_stream *s, struct ordo_request *op)
{
    if (op->state != ORDO_OP_INFLIGHT || !(op->tl_flags & ORDO_TL_OP_ORDERED) ||
        !is_write(op->type))
        return;
    int ti = ordo_ctx->tl_of_rank[op->rank];
    const ordo_tl_iface_t *f = ordo_ctx->ifaces[ti];
    unsigned k = tl_kind(f, op->type, op->len), over = long_kind(k) && op->len > f->ordered_max;
    unsigned slot = ordered_slot(ti, k, over);
    s->inflight_ordered[slot]++;
    op->ordered_class = (uint8_t)(slot + 1);
}

static void uncount_ordered(struct ordo_stream *s, struct ordo_request *op)
{
    if (op->ordered_class == 0)
        return;
    s->inflight_ordered[op->ordered_class - 1]--;
    op->ordered_class = 0;
}

/* Nothing pending can block the operation, known without a scan: no fence
 * with operations before it, and (default) no write pending but in-flight
 * ones of the target's transport that it keeps the new one behind. */
static int surely_free(const struct ordo_stream *s, unsigned type, int rank, size_t len,
                       unsigned flags, uint64_t fence_seq)
{
    if (s->pending_head == NULL)
        return 1;
    if ((flags & ORDO_OP_FENCED) || s->pending_head->seq <= fence_seq)
        return 0;
    switch (s->order) {
    case ORDO_ORDER_RELAXED:
        return 1;
    case ORDO_ORDER_DEFAULT: {
        if (!is_write(type))
            return 1;
        if (s->ndeferred)
            return 0;
        int ti = ordo_ctx->tl_of_rank[rank];
        const ordo_tl_iface_t *f = ordo_ctx->ifaces[ti];
        unsigned kx = tl_kind(f, type, len);
        int x_fits = !long_kind(kx) || len <= f->ordered_max;
        for (unsigned ky = 0; ky < 4; ky++) {
            for (unsigned over = 0; over < 2; over++) {
                uint32_t n = s->inflight_ordered[ordered_slot(ti, ky, over)];
                if (n == 0)
                    continue;
                if (!((f->ordered_pairs & ORDO_TL_PAIR(ky, kx)) && !over && x_fits))
                    return 0;
            }
        }
        return 1;
    }
    default:
        return 0;
    }
}

/* Is an operation blocked by a pending one before `upto` (NULL: all)? */
int rma_blocked(const struct ordo_stream *s, unsigned type, int rank, size_t len,
                unsigned flags, uint64_t fence_seq, const struct ordo_request *upto)
{
    if (upto == NULL && surely_free(s, type, rank, len, flags, fence_seq))
        return 0;
    for (const struct ordo_request *y = s->pending_head; y && y != upto; y = y->next)
        if (must_wait(s, type, rank, len, flags, fence_seq, y))
            return 1;
    return 0;
}

/* Would an operation have waited for an in-flight one had the transport not
 * kept their order?  (Counted as network_ordered when issued.) */
static int kept_by_transport(const struct ordo_stream *s, unsigned type, int rank, size_t len)
{
    if (s->order != ORDO_ORDER_DEFAULT || !is_write(type))
        return 0;
    /* the target's transport's slots lie side by side */
    const uint32_t *counts = &s->inflight_ordered[ordered_slot(ordo_ctx->tl_of_rank[rank], 0, 0)];
    uint32_t any = 0;
    for (unsigned i = 0; i < 4 * 2; i++)
        any |= counts[i];
    if (!any)
        return 0;
    for (const struct ordo_request *y = s->pending_head; y; y = y->next)
        if (y->rank == rank && is_write(y->type) && transport_keeps(y, type, len))
            return 1;
    return 0;
}



/* An operation on ORDO_PROC_NULL: complete at once, nothing moves (a
 * fetching atomic leaves its result as it was). */
ordo_status_t rma_proc_null_op(ordo_region_h region, ordo_request_h *req_p)
{
    if (ORDO_UNLIKELY(region == NULL || region->magic != ORDO_MAGIC_REGION))
        return ORDO_ERR_INVALID_HANDLE;
    if (req_p)
        *req_p = NULL;
    return ORDO_OK;
}



static void op_complete(ordo_tl_comp_t *comp, ordo_status_t status)
{
    struct ordo_request *op = ordo_container_of(comp, struct ordo_request, comp);
    struct ordo_stream *s = op->stream;
    if (op->type == ORDO_OP_ATOMIC && op->dst && status == ORDO_OK)
        write_result(op->dst, op->width, op->fetched);
    if (op->seq < s->done_seq_max)
        s->stats.completions_reordered++;
    else
        s->done_seq_max = op->seq;
    ordo_request_complete(op, status);
    uncount_ordered(s, op);
    ordo_op_unlink(s, op);
    if (!op->user_held) {
        if (status != ORDO_OK && s->error == ORDO_OK)
            s->error = status;
        ordo_op_release(op);
    } else {
        ordo_op_held(op);   /* until the program waits, or the stream goes */
    }
}

/* Start an operation on its transport; comp NULL makes it synchronous. */
ordo_status_t rma_tl_start(struct ordo_request *op, ordo_tl_comp_t *comp)
{
    ordo_tl_rkey_t *k = op->rkey;
    ordo_tl_iface_t *f = ordo_iface_of(op->rank);
    struct ordo_stream *s = op->stream;
    if (s && kept_by_transport(s, op->type, op->rank, op->len))
        s->stats.network_ordered++;
    unsigned fl = op->tl_flags;
    switch (op->type) {
    case ORDO_OP_PUT:
        return f->ops->put(f, k, op->offset, op->src, op->len, fl, comp);
    case ORDO_OP_GET:
        return f->ops->get(f, k, op->offset, op->dst, op->len, fl, comp);
    default:
        return f->ops->atomic(f, k, op->offset, op->aop, op->width, op->value, op->compare,
                              op->dst ? &op->fetched : NULL, fl, comp);
    }
}

void rma_describe(struct ordo_request *op, unsigned type, unsigned flags, int rank,
                  ordo_region_h region, ordo_tl_rkey_t *rkey, size_t offset, size_t len)
{
    op->type = (uint8_t)type;
    op->flags = flags;
    op->rank = rank;
    op->region = region;
    op->rkey = rkey;
    op->offset = offset;
    op->len = len;
    op->info.length = op->info.msg_length = len;
    op->comp.func = op_complete;
    op->tl_flags = (uint8_t)(op->stream ? tl_flags(op->stream, type) : 0);
    op->ordered_class = 0;
}

/* Issue now (nothing blocks it).  Completes at once or becomes pending. */
ordo_status_t rma_issue_now(struct ordo_stream *s, struct ordo_request *op,
                            ordo_request_h *req_p)
{
    order_point(s, op->flags);
    ordo_status_t st = rma_tl_start(op, &op->comp);
    if (st != ORDO_INPROGRESS) {
        if (st == ORDO_OK && op->type == ORDO_OP_ATOMIC && op->dst)
            write_result(op->dst, op->width, op->fetched);
        ordo_op_release(op);
        if (st == ORDO_OK && req_p)
            *req_p = NULL;
        return st;
    }
    op->seq = ++s->seq;
    op->fence_seq = s->fence_seq;
    op->state = ORDO_OP_INFLIGHT;
    op->user_held = req_p != NULL;
    __atomic_fetch_add(&op->region->slow_ops, 1, __ATOMIC_RELAXED);
    ordo_op_append(s, op);
    count_ordered(s, op);
    if (req_p)
        *req_p = op;
    return ORDO_INPROGRESS;
}

/* Hold back until its turn.  Small puts take a copy of their data so that
 * the source is free at once, as it would be had they gone out. */
ordo_status_t rma_defer(struct ordo_stream *s, struct ordo_request *op, ordo_request_h *req_p)
{
    if (op->type == ORDO_OP_PUT && op->len <= ordo_ctx->small_put_max) {
        op->bounce = malloc(op->len ? op->len : 1);
        if (op->bounce == NULL) {
            ordo_op_release(op);
            return ORDO_ERR_NO_MEMORY;
        }
        memcpy(op->bounce, op->src, op->len);
        op->src = op->bounce;
        if (req_p)        /* locally complete now: no request to wait for */
            *req_p = NULL;
        req_p = NULL;
    }
    op->seq = ++s->seq;
    op->fence_seq = s->fence_seq;
    op->state = ORDO_OP_DEFERRED;
    op->user_held = req_p != NULL;
    __atomic_fetch_add(&op->region->slow_ops, 1, __ATOMIC_RELAXED);
    ordo_op_append(s, op);
    s->ndeferred++;
    s->stats.ops_deferred++;
    if (req_p) {
        *req_p = op;
        return ORDO_INPROGRESS;
    }
    return ORDO_OK;
}

unsigned rma_schedule(struct ordo_stream *s)
{
    unsigned n = 0;
    struct ordo_request *op = s->pending_head;
    while (op && s->ndeferred) {
        struct ordo_request *next = op->next;
        if (op->state == ORDO_OP_DEFERRED &&
            !rma_blocked(s, op->type, op->rank, op->len, op->flags, op->fence_seq, op)) {
            s->ndeferred--;
            op->state = ORDO_OP_INFLIGHT;
            count_ordered(s, op);
            order_point(s, op->flags);
            ordo_status_t st = rma_tl_start(op, &op->comp);
            if (st != ORDO_INPROGRESS)
                op_complete(&op->comp, st);
            n++;
        }
        op = next;
    }
    return n;
}

/* Is an operation of s on region r (NULL: any) to rank (-1: any) still
 * pending?  With local_only, deferred small puts do not count: their data
 * was copied. */
static int pending(const struct ordo_stream *s, const struct ordo_region *r, int rank,
                   int local_only)
{
    for (const struct ordo_request *y = s->pending_head; y; y = y->next)
        if ((r == NULL || y->region == r) && (rank < 0 || y->rank == rank) &&
            !(local_only && y->bounce))
            return 1;
    return 0;
}

/* The first failure of the stream's implicit operations, cleared (under
 * the stream's lock: MULTIPLE's fast quiet and flush take it too). */
static ordo_status_t take_error(struct ordo_stream *s)
{
    int taken = ordo_stream_lock(s);
    ordo_status_t st = s->error;
    s->error = ORDO_OK;
    ordo_stream_unlock(s, taken);
    return st;
}

ordo_status_t rma_drain(struct ordo_stream *s, int rank)
{
    unsigned idle = 0;
    while (pending(s, NULL, rank, 0))
        ordo_progress_wait(&idle);
    atomic_thread_fence(memory_order_seq_cst);
    return take_error(s);
}

ordo_status_t rma_region_drain(struct ordo_region *r, int rank, int local_only)
{
    ordo_status_t st = ORDO_OK;
    ordo_ctx->region_drains++;   /* a wait: the next long transfer is alone again */
    /* Every operation on r since its last drain for every rank completed
     * at once (the CPU copied it; a failure was returned then): nothing
     * of r is pending or failed on any stream (an MPI flush after puts on
     * shared memory comes here).  A full drain for every rank starts the
     * count again; the streams it walks are then empty of r. */
    uint64_t slow = rank < 0 && !local_only
                        ? __atomic_exchange_n(&r->slow_ops, 0, __ATOMIC_ACQ_REL)
                        : __atomic_load_n(&r->slow_ops, __ATOMIC_ACQUIRE);
    if (slow == 0) {
        atomic_thread_fence(memory_order_release);
        return ORDO_OK;
    }
    for (struct ordo_stream *s = ordo_ctx->streams; s; s = s->next) {
        /* most streams have nothing in flight and nothing to report: a
         * look each, no lock (an MPI flush after one put comes here) */
        if (__atomic_load_n(&s->pending_head, __ATOMIC_ACQUIRE) == NULL &&
            __atomic_load_n(&s->error, __ATOMIC_RELAXED) == ORDO_OK)
            continue;
        unsigned idle = 0;
        while (pending(s, r, rank, local_only))
            ordo_progress_wait(&idle);
        ordo_status_t s2 = take_error(s);
        if (st == ORDO_OK)
            st = s2;
    }
    /* the data before whatever store tells a peer it is there */
    atomic_thread_fence(memory_order_release);
    return st;
}

/* Wait until nothing pending blocks the operation (blocking calls). */
void rma_serialise(struct ordo_stream *s, unsigned type, int rank, size_t len,
                   unsigned flags)
{
    if (s->pending_head == NULL || !rma_blocked(s, type, rank, len, flags, s->fence_seq, NULL))
        return;
    s->stats.ops_serialised++;
    unsigned idle = 0;
    while (rma_blocked(s, type, rank, len, flags, s->fence_seq, NULL))
        ordo_progress_wait(&idle);
}
