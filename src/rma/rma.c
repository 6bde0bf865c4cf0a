/* One-sided operations and the enforcement of ordering modes.
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
static int blocked(const struct ordo_stream *s, unsigned type, int rank, size_t len,
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

static inline void order_point(struct ordo_stream *s, unsigned flags)
{
    if (s->order != ORDO_ORDER_RELAXED || (flags & ORDO_OP_FENCED)) {
        atomic_thread_fence(memory_order_release);
        s->stats.fences_inserted++;
    }
}

static inline ordo_status_t check_target(ordo_region_h region, int rank, size_t offset,
                                         size_t len, ordo_tl_rkey_t **rkey_p)
{
    if (ORDO_UNLIKELY(region == NULL || region->magic != ORDO_MAGIC_REGION))
        return ORDO_ERR_INVALID_HANDLE;
    if (ORDO_UNLIKELY((unsigned)rank >= (unsigned)ordo_ctx->size))
        return ORDO_ERR_INVALID_RANK;
    ordo_tl_rkey_t *k = region->rkeys[rank];
    if (ORDO_UNLIKELY(len > k->size || offset > k->size - len))
        return ORDO_ERR_OUT_OF_BOUNDS;
    *rkey_p = k;
    return rma_epoch_admit(region, rank);
}

/* An operation on ORDO_PROC_NULL: complete at once, nothing moves (a
 * fetching atomic leaves its result as it was). */
static ordo_status_t proc_null_op(ordo_region_h region, ordo_request_h *req_p)
{
    if (ORDO_UNLIKELY(region == NULL || region->magic != ORDO_MAGIC_REGION))
        return ORDO_ERR_INVALID_HANDLE;
    if (req_p)
        *req_p = NULL;
    return ORDO_OK;
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

static void write_result(void *result, unsigned width, uint64_t v)
{
    if (width == 4) {
        uint32_t x = (uint32_t)v;
        memcpy(result, &x, 4);
    } else {
        memcpy(result, &v, 8);
    }
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
static ordo_status_t tl_start(struct ordo_request *op, ordo_tl_comp_t *comp)
{
    ordo_tl_rkey_t *k = op->region->rkeys[op->rank];
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
                              &op->fetched, fl, comp);
    }
}

static void describe(struct ordo_request *op, unsigned type, unsigned flags, int rank,
                     ordo_region_h region, size_t offset, size_t len)
{
    op->type = (uint8_t)type;
    op->flags = flags;
    op->rank = rank;
    op->region = region;
    op->offset = offset;
    op->len = len;
    op->info.length = op->info.msg_length = len;
    op->comp.func = op_complete;
    op->tl_flags = (uint8_t)(op->stream ? tl_flags(op->stream, type) : 0);
    op->ordered_class = 0;
}

/* Issue now (nothing blocks it).  Completes at once or becomes pending. */
static ordo_status_t issue_now(struct ordo_stream *s, struct ordo_request *op,
                               ordo_request_h *req_p)
{
    order_point(s, op->flags);
    ordo_status_t st = tl_start(op, &op->comp);
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
    ordo_op_append(s, op);
    count_ordered(s, op);
    if (req_p)
        *req_p = op;
    return ORDO_INPROGRESS;
}

/* Hold back until its turn.  Small puts take a copy of their data so that
 * the source is free at once, as it would be had they gone out. */
static ordo_status_t defer(struct ordo_stream *s, struct ordo_request *op, ordo_request_h *req_p)
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
    ordo_op_append(s, op);
    s->ndeferred++;
    s->stats.ops_deferred++;
    if (req_p) {
        *req_p = op;
        return ORDO_INPROGRESS;
    }
    return ORDO_OK;
}

static unsigned rma_schedule(struct ordo_stream *s)
{
    unsigned n = 0;
    struct ordo_request *op = s->pending_head;
    while (op && s->ndeferred) {
        struct ordo_request *next = op->next;
        if (op->state == ORDO_OP_DEFERRED &&
            !blocked(s, op->type, op->rank, op->len, op->flags, op->fence_seq, op)) {
            s->ndeferred--;
            op->state = ORDO_OP_INFLIGHT;
            count_ordered(s, op);
            order_point(s, op->flags);
            ordo_status_t st = tl_start(op, &op->comp);
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

static ordo_status_t rma_drain(struct ordo_stream *s, int rank)
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
    for (struct ordo_stream *s = ordo_ctx->streams; s; s = s->next) {
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
static void serialise(struct ordo_stream *s, unsigned type, int rank, size_t len,
                      unsigned flags)
{
    if (s->pending_head == NULL || !blocked(s, type, rank, len, flags, s->fence_seq, NULL))
        return;
    s->stats.ops_serialised++;
    unsigned idle = 0;
    while (blocked(s, type, rank, len, flags, s->fence_seq, NULL))
        ordo_progress_wait(&idle);
}

/* ------------------------------------------------------------------ put/get */

/* Nothing to move and nothing to order: complete at once. */
static ordo_status_t empty_transfer(ordo_request_h *req_p)
{
    if (req_p)
        *req_p = NULL;
    return ORDO_OK;
}

#define RMA_PROLOGUE(stream, flags, buf, len, region, rank, offset, rkey)       \
    ORDO_CHECK_INIT();                                                          \
    struct ordo_stream *s;                                                      \
    ordo_tl_rkey_t *rkey;                                                       \
    ordo_status_t st_ = ordo_stream_resolve(stream, &s);                        \
    if (ORDO_UNLIKELY(st_ != ORDO_OK))                                          \
        return st_;                                                             \
    ordo_stream_hold(s);                                                        \
    if (ORDO_UNLIKELY(((flags) & ~(unsigned)ORDO_OP_FENCED) ||                  \
                      ((buf) == NULL && (len) > 0)))                            \
        return ORDO_ERR_INVALID_PARAM;                                          \
    if (ORDO_UNLIKELY((rank) == ORDO_PROC_NULL))                                \
        return proc_null_op(region, req_p);                                     \
    st_ = check_target(region, rank, offset, len, &rkey);                       \
    if (ORDO_UNLIKELY(st_ != ORDO_OK))                                          \
        return st_

/* ------------------------------------------------------------ the fast path
 *
 * An operation that completes on issue (target mapped, nothing pending on
 * its stream, a region without epochs) takes a short way, at every thread
 * level; at MULTIPLE it runs under its stream's lock alone, so threads on
 * different streams never share a lock, nor a line written, on the way.
 * It reads what the process-wide lock's holders never change (ordo_ctx, a
 * region's keys and geometry) or change under the stream's lock
 * (pending_head, the counters), and a mapping address the transport
 * publishes atomically and retires only once every stream's users are out
 * (ordo_streams_quiesce).  The pending list grows only under the stream's
 * lock and shrinks, from any thread's progress, by atomic stores
 * (ordo_op_unlink): a list seen empty stays so while the lock is held.
 * Whatever else, an error included, goes the usual way, under the
 * process-wide lock at MULTIPLE. */

/* The same path serves the lower levels, without the lock: what it leaves
 * out (naming the call for --timeout) matters only to calls that wait. */
static ORDO_INLINE int fast_allowed(void)
{
    switch (ordo_threads_mode) {
    case ORDO_THREADS_LOCK:  return !ordo_threads_inside();   /* nested: that call holds it */
    case ORDO_THREADS_CHECK: return ordo_threads_on_initial();   /* else refused the usual way */
    default:                 return 1;
    }
}

/* The stream's lock at MULTIPLE (how it was taken), nothing below (-1). */
static ORDO_INLINE int fast_take(struct ordo_stream *s)
{
    if (ORDO_LIKELY(ordo_threads_mode != ORDO_THREADS_LOCK))
        return -1;
    return ordo_threads_take_inner(&s->lock);
}

static ORDO_INLINE void fast_give(struct ordo_stream *s, int how)
{
    if (how >= 0)
        ordo_threads_give_inner(&s->lock, how);
}

/* A call done this way: counted, at MULTIPLE, as not needing the
 * process-wide lock. */
static ORDO_INLINE void fast_done(struct ordo_stream *s, int how)
{
    if (how >= 0)
        s->stats.ops_stream_locked++;
    fast_give(s, how);
}

/* The stream, locked, and the mapped address of [offset, offset + len) at
 * rank; NULL (nothing locked) when the operation cannot go fast. */
static ORDO_INLINE struct ordo_stream *fast_begin(ordo_stream_h stream, size_t len,
                                             ordo_region_h region, int rank, size_t offset,
                                             unsigned flags, char **at_p,
                                             ordo_tl_rkey_t **k_p, int *how_p)
{
    if (ORDO_UNLIKELY(ordo_ctx == NULL || (flags & ~(unsigned)ORDO_OP_FENCED) || len == 0 ||
                      !fast_allowed()))
        return NULL;
    struct ordo_stream *s = stream ? stream : ordo_ctx->default_stream;
    if (ORDO_UNLIKELY(s->magic != ORDO_MAGIC_STREAM || region == NULL ||
                      region->magic != ORDO_MAGIC_REGION || region->epoch != NULL ||
                      (unsigned)rank >= (unsigned)ordo_ctx->size))
        return NULL;
    ordo_tl_rkey_t *k = region->rkeys[rank];
    if (ORDO_UNLIKELY(len > k->size || offset > k->size - len))
        return NULL;
    int how = fast_take(s);
    char *ptr = __atomic_load_n((char **)&k->ptr, __ATOMIC_ACQUIRE);
    if (ORDO_UNLIKELY(__atomic_load_n(&s->pending_head, __ATOMIC_ACQUIRE) != NULL ||
                      ptr == NULL)) {
        fast_give(s, how);
        return NULL;
    }
    *at_p = ptr + offset;
    *k_p = k;
    *how_p = how;
    return s;
}

static ORDO_INLINE void fast_end(struct ordo_stream *s, int how, int rank, ordo_request_h *req_p)
{
    s->stats.pio_ops++;
    s->stats.attach_hits += rank != ordo_ctx->rank;
    fast_done(s, how);
    if (req_p)
        *req_p = NULL;
}

/* type: ORDO_OP_PUT (buf the source) or ORDO_OP_GET (buf the destination).
 * Returns whether it was done. */
static ORDO_INLINE int transfer_fast(ordo_stream_h stream, unsigned type, void *buf, size_t len,
                         ordo_region_h region, int rank, size_t offset, unsigned flags,
                         ordo_request_h *req_p)
{
    char *at;
    ordo_tl_rkey_t *k;
    int how;
    if (buf == NULL || ordo_ctx == NULL || len > ordo_ctx->pio_max)
        return 0;
    struct ordo_stream *s = fast_begin(stream, len, region, rank, offset, flags, &at, &k, &how);
    if (s == NULL)
        return 0;
    order_point(s, flags);
    if (type == ORDO_OP_PUT) {
        s->stats.puts++;
        s->stats.bytes_put += len;
        memcpy(at, buf, len);
    } else {
        s->stats.gets++;
        s->stats.bytes_got += len;
        memcpy(buf, at, len);
    }
    fast_end(s, how, rank, req_p);
    return 1;
}

static ORDO_INLINE int atomic_fast(ordo_stream_h stream, ordo_atomic_op_t aop, ordo_atomic_type_t type,
                       const void *value, const void *compare, void *result,
                       ordo_region_h region, int rank, size_t offset, unsigned flags,
                       ordo_request_h *req_p)
{
    if ((unsigned)type > ORDO_INT64 || (unsigned)aop > ORDO_ATOMIC_CSWAP || value == NULL ||
        (result == NULL && (aop == ORDO_ATOMIC_SWAP || aop == ORDO_ATOMIC_CSWAP)) ||
        (compare == NULL && aop == ORDO_ATOMIC_CSWAP))
        return 0;
    unsigned width = (type == ORDO_UINT32 || type == ORDO_INT32) ? 4 : 8;
    char *at;
    ordo_tl_rkey_t *k;
    int how;
    struct ordo_stream *s = fast_begin(stream, width, region, rank, offset, flags, &at, &k, &how);
    if (s == NULL)
        return 0;
    if ((k->base + offset) % width) {
        fast_give(s, how);
        return 0;
    }
    uint64_t v, c;
    read_operands(value, compare, width, &v, &c);
    s->stats.atomics++;
    order_point(s, flags);
    uint64_t old = ordo_tl_atomic_apply(at, aop, width, v, c);
    if (result)
        write_result(result, width, old);
    fast_end(s, how, rank, req_p);
    return 1;
}

/* The blocking form: both done by the CPU, a store fence between them in
 * every mode (see put_signal_common). */
static ORDO_INLINE int put_signal_fast(ordo_stream_h stream, const void *src, size_t len,
                           ordo_region_h region, int rank, size_t offset, size_t sig_offset,
                           uint64_t signal, ordo_signal_op_t sig_op, unsigned flags)
{
    char *at, *sig;
    ordo_tl_rkey_t *k;
    int how;
    if ((unsigned)sig_op > ORDO_SIGNAL_ADD || src == NULL || ordo_ctx == NULL ||
        len > ordo_ctx->pio_max)
        return 0;
    struct ordo_stream *s = fast_begin(stream, len, region, rank, offset, flags, &at, &k, &how);
    if (s == NULL)
        return 0;
    if (8 > k->size || sig_offset > k->size - 8 || (k->base + sig_offset) % 8) {
        fast_give(s, how);
        return 0;
    }
    sig = at - offset + sig_offset;
    s->stats.puts++;
    s->stats.bytes_put += len;
    order_point(s, flags);
    memcpy(at, src, len);
    s->stats.pio_ops++;
    s->stats.atomics++;
    atomic_thread_fence(memory_order_release);   /* the data before the signal, */
    order_point(s, flags);                        /* whatever the mode */
    ordo_tl_atomic_apply(sig, sig_op == ORDO_SIGNAL_SET ? ORDO_ATOMIC_SWAP : ORDO_ATOMIC_ADD, 8,
                         signal, 0);
    s->stats.signals++;
    s->stats.attach_hits += rank != ordo_ctx->rank;   /* the put's; fast_end the signal's */
    fast_end(s, how, rank, NULL);
    return 1;
}

/* ordo_fence, ordo_quiet and ordo_flush of a stream with nothing pending
 * (all its operations were done by the CPU).  kind: 0 fence, 1 quiet, 2
 * flush; returns whether it was done, with its status in *st_p. */
static ORDO_INLINE int complete_fast(ordo_stream_h stream, int kind, int rank, ordo_status_t *st_p)
{
    if (ORDO_UNLIKELY(ordo_ctx == NULL || !fast_allowed() ||
                      (kind == 2 && (rank < 0 || rank >= ordo_ctx->size))))
        return 0;
    struct ordo_stream *s = stream ? stream : ordo_ctx->default_stream;
    if (ORDO_UNLIKELY(s->magic != ORDO_MAGIC_STREAM))
        return 0;
    int how = fast_take(s);
    if (kind == 0) {
        s->stats.fence_calls++;
        s->fence_seq = s->seq;
        atomic_thread_fence(memory_order_release);
        s->stats.fences_inserted++;
        *st_p = ORDO_OK;
    } else {
        if (__atomic_load_n(&s->pending_head, __ATOMIC_ACQUIRE) != NULL) {
            fast_give(s, how);
            return 0;
        }
        if (kind == 1)
            s->stats.quiet_calls++;
        else
            s->stats.flush_calls++;
        atomic_thread_fence(memory_order_seq_cst);
        *st_p = s->error;
        s->error = ORDO_OK;
    }
    fast_done(s, how);
    return 1;
}

/* Put or get that cannot take the fast path: buf is the source of a put,
 * the destination of a get. */
static ordo_status_t transfer_slow(struct ordo_stream *s, unsigned type, void *buf, size_t len,
                                   ordo_region_h region, int rank, size_t offset, unsigned flags,
                                   ordo_request_h *req_p, int blocking)
{
    /* A small put over a network: its source is copied and the put goes
     * on without the caller, complete locally at once (by quiet / flush
     * remotely), as on shared memory, where it is a store. */
    int copy = type == ORDO_OP_PUT && len <= ordo_ctx->small_put_max &&
               (ordo_iface_of(rank)->ops->caps & ORDO_TL_CAP_NETWORK);
    if (blocking && !copy) {
        serialise(s, type, rank, len, flags);
        order_point(s, flags);
        struct ordo_request tmp = {.src = buf, .dst = buf, .stream = s};
        describe(&tmp, type, flags, rank, region, offset, len);
        return tl_start(&tmp, NULL);
    }
    struct ordo_request *op = ordo_op_alloc(s);
    if (op == NULL)
        return ORDO_ERR_NO_MEMORY;
    describe(op, type, flags, rank, region, offset, len);
    op->src = buf;
    op->dst = buf;
    if (s->pending_head && blocked(s, type, rank, len, flags, s->fence_seq, NULL))
        return defer(s, op, req_p);   /* copies small puts itself */
    if (!copy)
        return issue_now(s, op, req_p);
    if ((op->bounce = malloc(len)) == NULL) {
        ordo_op_release(op);
        return ORDO_ERR_NO_MEMORY;
    }
    memcpy(op->bounce, buf, len);
    op->src = op->bounce;
    if (req_p)
        *req_p = NULL;
    ordo_status_t st = issue_now(s, op, NULL);
    return st == ORDO_INPROGRESS ? ORDO_OK : st;
}

static inline ordo_status_t put_common(ordo_stream_h stream, const void *src, size_t len,
                                       ordo_region_h region, int rank, size_t offset,
                                       unsigned flags, ordo_request_h *req_p, int blocking)
{
    RMA_PROLOGUE(stream, flags, src, len, region, rank, offset, rkey);
    s->stats.puts++;
    s->stats.bytes_put += len;
    if (ORDO_UNLIKELY(len == 0))
        return empty_transfer(req_p);
    void *ptr = rkey->ptr;
    /* fast path: nothing pending, target mapped, small */
    if (ORDO_LIKELY(s->pending_head == NULL && ptr != NULL && len <= ordo_ctx->pio_max)) {
        order_point(s, flags);
        memcpy((char *)ptr + offset, src, len);
        s->stats.pio_ops++;
        s->stats.attach_hits += rank != ordo_ctx->rank;
        if (req_p)
            *req_p = NULL;
        return ORDO_OK;
    }
    return transfer_slow(s, ORDO_OP_PUT, (void *)src, len, region, rank, offset, flags, req_p,
                         blocking);
}

ORDO_API ordo_status_t ordo_put(ordo_stream_h stream, const void *src, size_t len,
                                ordo_region_h region, int rank, size_t offset, unsigned flags)
{
    if (ORDO_LIKELY(ordo_ctx != NULL) &&
        transfer_fast(stream, ORDO_OP_PUT, (void *)src, len, region, rank, offset, flags, NULL))
        return ORDO_OK;
    ORDO_API_ENTER();
    return put_common(stream, src, len, region, rank, offset, flags, NULL, 1);
}

ORDO_API ordo_status_t ordo_put_nb(ordo_stream_h stream, const void *src, size_t len,
                                   ordo_region_h region, int rank, size_t offset,
                                   unsigned flags, ordo_request_h *req_p)
{
    /* without a request (implicit completion, as shmem_put_nbi) the same
     * code as ordo_put's: it is never slower than the blocking form */
    if (ORDO_LIKELY(ordo_ctx != NULL) &&
        (req_p == NULL ? transfer_fast(stream, ORDO_OP_PUT, (void *)src, len, region, rank,
                                       offset, flags, NULL)
                       : transfer_fast(stream, ORDO_OP_PUT, (void *)src, len, region, rank,
                                       offset, flags, req_p)))
        return ORDO_OK;
    ORDO_API_ENTER();
    return put_common(stream, src, len, region, rank, offset, flags, req_p, 0);
}

static inline ordo_status_t get_common(ordo_stream_h stream, void *dst, size_t len,
                                       ordo_region_h region, int rank, size_t offset,
                                       unsigned flags, ordo_request_h *req_p, int blocking)
{
    RMA_PROLOGUE(stream, flags, dst, len, region, rank, offset, rkey);
    s->stats.gets++;
    s->stats.bytes_got += len;
    if (ORDO_UNLIKELY(len == 0))
        return empty_transfer(req_p);
    const void *ptr = rkey->ptr;
    if (ORDO_LIKELY(s->pending_head == NULL && ptr != NULL && len <= ordo_ctx->pio_max)) {
        order_point(s, flags);
        memcpy(dst, (const char *)ptr + offset, len);
        s->stats.pio_ops++;
        s->stats.attach_hits += rank != ordo_ctx->rank;
        if (req_p)
            *req_p = NULL;
        return ORDO_OK;
    }
    return transfer_slow(s, ORDO_OP_GET, dst, len, region, rank, offset, flags, req_p, blocking);
}

ORDO_API ordo_status_t ordo_get(ordo_stream_h stream, void *dst, size_t len,
                                ordo_region_h region, int rank, size_t offset, unsigned flags)
{
    if (ORDO_LIKELY(ordo_ctx != NULL) &&
        transfer_fast(stream, ORDO_OP_GET, dst, len, region, rank, offset, flags, NULL))
        return ORDO_OK;
    ORDO_API_ENTER();
    return get_common(stream, dst, len, region, rank, offset, flags, NULL, 1);
}

ORDO_API ordo_status_t ordo_get_nb(ordo_stream_h stream, void *dst, size_t len,
                                   ordo_region_h region, int rank, size_t offset,
                                   unsigned flags, ordo_request_h *req_p)
{
    if (ORDO_LIKELY(ordo_ctx != NULL) &&
        transfer_fast(stream, ORDO_OP_GET, dst, len, region, rank, offset, flags, req_p))
        return ORDO_OK;
    ORDO_API_ENTER();
    return get_common(stream, dst, len, region, rank, offset, flags, req_p, 0);
}

/* ------------------------------------------------------------------ atomics */

/* swap_unfetched: a SWAP whose old value nobody wants (put_signal's SET). */
static ordo_status_t atomic_common(ordo_stream_h stream, ordo_atomic_op_t aop,
                                   ordo_atomic_type_t type, const void *value,
                                   const void *compare, void *result, ordo_region_h region,
                                   int rank, size_t offset, unsigned flags,
                                   ordo_request_h *req_p, int blocking, int swap_unfetched)
{
    if ((unsigned)type > ORDO_INT64 || (unsigned)aop > ORDO_ATOMIC_CSWAP)
        return ORDO_ERR_INVALID_PARAM;
    unsigned width = (type == ORDO_UINT32 || type == ORDO_INT32) ? 4 : 8;
    if (result == NULL && ((aop == ORDO_ATOMIC_SWAP && !swap_unfetched) ||
                           aop == ORDO_ATOMIC_CSWAP))
        return ORDO_ERR_INVALID_PARAM;
    if (compare == NULL && aop == ORDO_ATOMIC_CSWAP)
        return ORDO_ERR_INVALID_PARAM;
    RMA_PROLOGUE(stream, flags, value, width, region, rank, offset, rkey);
    if ((rkey->base + offset) % width)
        return ORDO_ERR_MISALIGNED;
    uint64_t v, c;
    read_operands(value, compare, width, &v, &c);
    s->stats.atomics++;
    void *ptr = rkey->ptr;
    if (ORDO_LIKELY(s->pending_head == NULL && ptr != NULL)) {
        order_point(s, flags);
        uint64_t old = ordo_tl_atomic_apply((char *)ptr + offset, aop, width, v, c);
        if (result)
            write_result(result, width, old);
        s->stats.pio_ops++;
        s->stats.attach_hits += rank != ordo_ctx->rank;
        if (req_p)
            *req_p = NULL;
        return ORDO_OK;
    }
    struct ordo_request *op = ordo_op_alloc(s);
    if (op == NULL)
        return ORDO_ERR_NO_MEMORY;
    describe(op, ORDO_OP_ATOMIC, flags, rank, region, offset, width);
    op->aop = aop;
    op->width = (uint8_t)width;
    op->value = v;
    op->compare = c;
    op->dst = result;
    if (blocking) {
        serialise(s, ORDO_OP_ATOMIC, rank, width, flags);
        ordo_request_h req = NULL;
        ordo_status_t st = issue_now(s, op, &req);
        return st == ORDO_INPROGRESS ? ordo_request_wait_inner(&req, NULL) : st;
    }
    if (s->pending_head && blocked(s, ORDO_OP_ATOMIC, rank, width, flags, s->fence_seq, NULL))
        return defer(s, op, req_p);
    return issue_now(s, op, req_p);
}

ORDO_API ordo_status_t ordo_atomic(ordo_stream_h stream, ordo_atomic_op_t op,
                                   ordo_atomic_type_t type, const void *value,
                                   const void *compare, void *result, ordo_region_h region,
                                   int rank, size_t offset, unsigned flags)
{
    if (ORDO_LIKELY(ordo_ctx != NULL) &&
        atomic_fast(stream, op, type, value, compare, result, region, rank, offset, flags, NULL))
        return ORDO_OK;
    ORDO_API_ENTER();
    return atomic_common(stream, op, type, value, compare, result, region, rank, offset, flags,
                         NULL, 1, 0);
}

ORDO_API ordo_status_t ordo_atomic_nb(ordo_stream_h stream, ordo_atomic_op_t op,
                                      ordo_atomic_type_t type, const void *value,
                                      const void *compare, void *result, ordo_region_h region,
                                      int rank, size_t offset, unsigned flags,
                                      ordo_request_h *req_p)
{
    if (ORDO_LIKELY(ordo_ctx != NULL) &&
        atomic_fast(stream, op, type, value, compare, result, region, rank, offset, flags,
                    req_p))
        return ORDO_OK;
    ORDO_API_ENTER();
    return atomic_common(stream, op, type, value, compare, result, region, rank, offset, flags,
                         req_p, 0, 0);
}

/* ------------------------------------------------------------ put_signal */

/* The put, then the signal held behind it (and behind every earlier
 * operation of the stream to that rank, nothing more): where the stream's
 * mode already keeps a put and an atomic in order (strict, default) and
 * nobody waits for the pair through a request, nothing is added; else the
 * signal takes the put's place as the stream's fence towards that rank
 * alone, so it waits (counted: ops_deferred, ops_serialised) for what was
 * issued to that rank before it, not for the rest of the stream. */
static ordo_status_t put_signal_common(ordo_stream_h stream, const void *src, size_t len,
                                       ordo_region_h region, int rank, size_t offset,
                                       size_t sig_offset, uint64_t signal,
                                       ordo_signal_op_t sig_op, unsigned flags,
                                       ordo_request_h *req_p, int blocking)
{
    ORDO_CHECK_INIT();
    if ((unsigned)sig_op > ORDO_SIGNAL_ADD)
        return ORDO_ERR_INVALID_PARAM;
    struct ordo_stream *s;
    ordo_status_t st = ordo_stream_resolve(stream, &s);
    if (st != ORDO_OK)
        return st;
    ordo_stream_hold(s);
    /* the signal word is checked before anything moves */
    if (rank != ORDO_PROC_NULL) {
        ordo_tl_rkey_t *k;
        if ((st = check_target(region, rank, sig_offset, 8, &k)) != ORDO_OK)
            return st;
        if ((k->base + sig_offset) % 8)
            return ORDO_ERR_MISALIGNED;
    }
    st = put_common(stream, src, len, region, rank, offset, flags, NULL, blocking);
    if (st == ORDO_INPROGRESS)
        st = ORDO_OK;   /* an implicit put under way: the signal follows it */
    if (st != ORDO_OK || rank == ORDO_PROC_NULL) {
        if (st == ORDO_OK && req_p)
            *req_p = NULL;
        return st;
    }
    atomic_thread_fence(memory_order_release);   /* a put done by the CPU, before the signal */
    uint64_t saved = s->fence_seq, fences = s->stats.fence_calls;
    int hold = s->order == ORDO_ORDER_RELAXED || req_p != NULL;
    if (hold && s->seq > s->fence_seq)
        s->fence_seq = s->seq;   /* the signal alone waits for it */
    st = atomic_common(stream, sig_op == ORDO_SIGNAL_SET ? ORDO_ATOMIC_SWAP : ORDO_ATOMIC_ADD,
                       ORDO_UINT64, &signal, NULL, NULL, region, rank, sig_offset, flags,
                       req_p, blocking, 1);
    if (s->stats.fence_calls == fences)   /* a fence of another thread's meanwhile stays */
        s->fence_seq = saved;
    s->stats.signals++;
    return st;
}

ORDO_API ordo_status_t ordo_put_signal(ordo_stream_h stream, const void *src, size_t len,
                                       ordo_region_h region, int rank, size_t offset,
                                       size_t sig_offset, uint64_t signal,
                                       ordo_signal_op_t sig_op, unsigned flags)
{
    if (ORDO_LIKELY(ordo_ctx != NULL) &&
        put_signal_fast(stream, src, len, region, rank, offset, sig_offset, signal, sig_op,
                        flags))
        return ORDO_OK;
    ORDO_API_ENTER();
    return put_signal_common(stream, src, len, region, rank, offset, sig_offset, signal, sig_op,
                             flags, NULL, 1);
}

ORDO_API ordo_status_t ordo_put_signal_nb(ordo_stream_h stream, const void *src, size_t len,
                                          ordo_region_h region, int rank, size_t offset,
                                          size_t sig_offset, uint64_t signal,
                                          ordo_signal_op_t sig_op, unsigned flags,
                                          ordo_request_h *req_p)
{
    ORDO_API_ENTER();
    return put_signal_common(stream, src, len, region, rank, offset, sig_offset, signal, sig_op,
                             flags, req_p, 0);
}

/* --------------------------------------------------------------- completion */

ORDO_API ordo_status_t ordo_fence(ordo_stream_h stream)
{
    ordo_status_t fast_st;
    if (ORDO_LIKELY(ordo_ctx != NULL) &&
        complete_fast(stream, 0, -1, &fast_st))
        return fast_st;
    ORDO_CHECK_INIT();
    struct ordo_stream *s;
    ordo_status_t st = ordo_stream_resolve(stream, &s);
    if (st != ORDO_OK)
        return st;
    ordo_stream_hold(s);
    s->stats.fence_calls++;
    s->fence_seq = s->seq;
    atomic_thread_fence(memory_order_release);
    s->stats.fences_inserted++;
    return ORDO_OK;
}

ORDO_API ordo_status_t ordo_quiet(ordo_stream_h stream)
{
    ordo_status_t fast_st;
    if (ORDO_LIKELY(ordo_ctx != NULL) &&
        complete_fast(stream, 1, -1, &fast_st))
        return fast_st;
    ORDO_CHECK_INIT();
    struct ordo_stream *s;
    ordo_status_t st = ordo_stream_resolve(stream, &s);
    if (st != ORDO_OK)
        return st;
    ordo_stream_hold(s);
    s->stats.quiet_calls++;
    return rma_drain(s, -1);
}

ORDO_API ordo_status_t ordo_flush(ordo_stream_h stream, int rank)
{
    ordo_status_t fast_st;
    if (ORDO_LIKELY(ordo_ctx != NULL) &&
        complete_fast(stream, 2, rank, &fast_st))
        return fast_st;
    ORDO_CHECK_INIT();
    struct ordo_stream *s;
    ordo_status_t st = ordo_stream_resolve(stream, &s);
    if (st != ORDO_OK)
        return st;
    ordo_stream_hold(s);
    if (rank == ORDO_PROC_NULL)
        return ORDO_OK;
    if (rank < 0 || rank >= ordo_ctx->size)
        return ORDO_ERR_INVALID_RANK;
    s->stats.flush_calls++;
    return rma_drain(s, rank);
}

/* ------------------------------------------------------------- the layer */

static unsigned rma_progress(void)
{
    unsigned n = 0;
    for (struct ordo_stream *s = ordo_ctx->streams; s; s = s->next) {
        if (s->ndeferred) {
            int taken = ordo_stream_lock(s);
            n += rma_schedule(s);
            ordo_stream_unlock(s, taken);
        }
    }
    return n;
}

static ordo_status_t rma_quiesce(void)
{
    ordo_status_t st = ORDO_OK;
    for (struct ordo_stream *s = ordo_ctx->streams; s; s = s->next) {
        ordo_status_t s2 = rma_drain(s, -1);
        if (st == ORDO_OK)
            st = s2;
    }
    return st;
}

static ordo_status_t rma_init(void)
{
    rma_epoch_stats_reset();
    return ORDO_OK;
}

const ordo_layer_t ordo_rma_layer = {
    .name = "one-sided",
    .init = rma_init,
    .progress = rma_progress,
    .stream_drain = rma_drain,
    .quiesce = rma_quiesce,
    .stats = rma_epoch_stats,
    .region_open = rma_epoch_region_open,
    .region_close = rma_epoch_region_close,
};
