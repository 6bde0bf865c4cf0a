/* One-sided operations: the public calls, their fast path (no request,
 * no lock, the CPU copying) and the layer's hooks.  What orders them is
 * order.c. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "rma.h"
#include "../base/config.h"
#include "../base/log.h"
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
        return rma_proc_null_op(region, req_p);                                 \
    st_ = check_target(region, rank, &(offset), len, &rkey);                       \
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
                      region->magic != ORDO_MAGIC_REGION ||
                      (unsigned)rank >= (unsigned)ordo_ctx->size))
        return NULL;
    /* a region with epochs: inside an access epoch to rank the operation
     * goes this way too (outside one, the slow path says why not) */
    struct rma_epoch *ep = region->epoch;
    if (ORDO_UNLIKELY(ep != NULL) && !(ep->all_access | ep->access[rank]))
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
    /* marked as rma_epoch_admit marks (threads may share the region): a
     * load, and a store once per epoch, where an atomic add per operation
     * cost as much as the put itself */
    if (ep && !__atomic_load_n(&ep->ops, __ATOMIC_RELAXED))
        __atomic_store_n(&ep->ops, 1, __ATOMIC_RELAXED);
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
        put_copy(rank, at, buf, len);
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
    put_copy(rank, at, src, len);   /* a streamed copy is fenced before the signal itself */
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

/* Where the copy of a non-blocking transfer above pio_max goes, as
 * transport flags (tl.h): to an engine when it is one of a run (another
 * such transfer was issued since the program last waited on the stream or
 * a region, or something is in flight) and its order lets it pass the
 * others, so the hand-off hides behind the initiator's next transfers;
 * otherwise as a lone transfer (ordo_lone_copy_flags), since the program
 * waits for it next (or its order holds the next behind it) and the data
 * it just wrote is in this CPU's caches. */
static unsigned placement(struct ordo_stream *s, unsigned type, size_t len)
{
    uint64_t waits = s->stats.quiet_calls + s->stats.flush_calls + ordo_ctx->region_drains + 1;
    int run = s->long_mark == waits || s->pending_head != NULL;
    s->long_mark = waits;
    int held = s->order == ORDO_ORDER_STRICT ||
               (s->order == ORDO_ORDER_DEFAULT && type != ORDO_OP_GET);
    if (run && !held)
        return ORDO_TL_OP_OFFLOAD;
    /* a run held in order still gains from the engines' parallel chunks
     * where one transfer makes several (default puts of 1 MiB in a window
     * on a 16-core Xeon: 31 GB/s through the engines, 18 by the CPU) */
    if (run && len > ordo_config.engine_chunk)
        return 0;
    return ordo_lone_copy_flags(len);
}

/* Put or get that cannot take the fast path: buf is the source of a put,
 * the destination of a get. */
static ordo_status_t transfer_slow(struct ordo_stream *s, unsigned type, void *buf, size_t len,
                                   ordo_region_h region, ordo_tl_rkey_t *rkey, int rank,
                                   size_t offset, unsigned flags, ordo_request_h *req_p,
                                   int blocking)
{
    /* A small put over a network: its source is copied and the put goes
     * on without the caller, complete locally at once (by quiet / flush
     * remotely), as on shared memory, where it is a store. */
    int copy = type == ORDO_OP_PUT && len <= ordo_ctx->small_put_max &&
               (ordo_iface_of(rank)->ops->caps & ORDO_TL_CAP_NETWORK);
    if (blocking && !copy) {
        rma_serialise(s, type, rank, len, flags);
        order_point(s, flags);
        struct ordo_request tmp = {.src = buf, .dst = buf, .stream = s};
        rma_describe(&tmp, type, flags, rank, region, rkey, offset, len);
        return rma_tl_start(&tmp, NULL);
    }
    struct ordo_request *op = ordo_op_alloc(s);
    if (op == NULL)
        return ORDO_ERR_NO_MEMORY;
    rma_describe(op, type, flags, rank, region, rkey, offset, len);
    op->src = buf;
    op->dst = buf;
    if (len > ordo_ctx->pio_max)
        op->tl_flags |= (uint8_t)placement(s, type, len);
    if (s->pending_head && rma_blocked(s, type, rank, len, flags, s->fence_seq, NULL))
        return rma_defer(s, op, req_p);   /* copies small puts itself */
    if (!copy)
        return rma_issue_now(s, op, req_p);
    if ((op->bounce = malloc(len)) == NULL) {
        ordo_op_release(op);
        return ORDO_ERR_NO_MEMORY;
    }
    memcpy(op->bounce, buf, len);
    op->src = op->bounce;
    if (req_p)
        *req_p = NULL;
    ordo_status_t st = rma_issue_now(s, op, NULL);
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
        put_copy(rank, (char *)ptr + offset, src, len);
        s->stats.pio_ops++;
        s->stats.attach_hits += rank != ordo_ctx->rank;
        if (req_p)
            *req_p = NULL;
        return ORDO_OK;
    }
    return transfer_slow(s, ORDO_OP_PUT, (void *)src, len, region, rkey, rank, offset, flags,
                         req_p, blocking);
}

/* ordo_put and ordo_put_nb without a request share one body, so that the
 * non-blocking form can never be the slower: two inlined copies of the fast
 * path measured 20% apart, either way round, by where the code fell
 * (shmem_putmem_nbi against shmem_putmem).  Set in flags, this bit (no
 * flag of the API) marks the non-blocking form. */
#define PUT_IMPLICIT_NB (1u << 31)

static __attribute__((noinline)) ordo_status_t
put_implicit(ordo_stream_h stream, const void *src, size_t len, ordo_region_h region, int rank,
             size_t offset, unsigned flags)
{
    unsigned f = flags & ~PUT_IMPLICIT_NB;
    if (ORDO_LIKELY(ordo_ctx != NULL) &&
        transfer_fast(stream, ORDO_OP_PUT, (void *)src, len, region, rank, offset, f, NULL))
        return ORDO_OK;
    int blocking = !(flags & PUT_IMPLICIT_NB);
    const char *name = blocking ? "ordo_put" : "ordo_put_nbi";
    ORDO_THREADS_GUARD_AS(name);
    ordo_activity_enter(name);
    return put_common(stream, src, len, region, rank, offset, f, NULL, blocking);
}

/* A caller's flags holding that bit: refused as any unknown flag is. */
static __attribute__((noinline, cold)) ordo_status_t
put_unknown_flag(const char *name, ordo_stream_h stream, const void *src, size_t len,
                 ordo_region_h region, int rank, size_t offset, unsigned flags,
                 ordo_request_h *req_p)
{
    ORDO_THREADS_GUARD_AS(name);
    ordo_activity_enter(name);
    return put_common(stream, src, len, region, rank, offset, flags, req_p, 1);
}

ORDO_API ordo_status_t ordo_put(ordo_stream_h stream, const void *src, size_t len,
                                ordo_region_h region, int rank, size_t offset, unsigned flags)
{
    if (ORDO_UNLIKELY(flags & PUT_IMPLICIT_NB))
        return put_unknown_flag("ordo_put", stream, src, len, region, rank, offset, flags,
                                NULL);
    return put_implicit(stream, src, len, region, rank, offset, flags);
}

ORDO_API ordo_status_t ordo_put_nbi(ordo_stream_h stream, const void *src, size_t len,
                                    ordo_region_h region, int rank, size_t offset,
                                    unsigned flags)
{
    if (ORDO_UNLIKELY(flags & PUT_IMPLICIT_NB))
        return put_unknown_flag("ordo_put_nbi", stream, src, len, region, rank, offset, flags,
                                NULL);
    return put_implicit(stream, src, len, region, rank, offset, flags | PUT_IMPLICIT_NB);
}

static __attribute__((noinline)) ordo_status_t
put_nb_request(ordo_stream_h stream, const void *src, size_t len, ordo_region_h region,
               int rank, size_t offset, unsigned flags, ordo_request_h *req_p)
{
    if (ORDO_LIKELY(ordo_ctx != NULL) &&
        transfer_fast(stream, ORDO_OP_PUT, (void *)src, len, region, rank, offset, flags, req_p))
        return ORDO_OK;
    ORDO_THREADS_GUARD_AS("ordo_put_nb");
    ordo_activity_enter("ordo_put_nb");
    return put_common(stream, src, len, region, rank, offset, flags, req_p, 0);
}

ORDO_API ordo_status_t ordo_put_nb(ordo_stream_h stream, const void *src, size_t len,
                                   ordo_region_h region, int rank, size_t offset,
                                   unsigned flags, ordo_request_h *req_p)
{
    if (ORDO_UNLIKELY(flags & PUT_IMPLICIT_NB))
        return put_unknown_flag("ordo_put_nb", stream, src, len, region, rank, offset, flags,
                                req_p);
    if (req_p != NULL)
        return put_nb_request(stream, src, len, region, rank, offset, flags, req_p);
    return put_implicit(stream, src, len, region, rank, offset, flags | PUT_IMPLICIT_NB);
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
    return transfer_slow(s, ORDO_OP_GET, dst, len, region, rkey, rank, offset, flags, req_p,
                         blocking);
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
    rma_describe(op, ORDO_OP_ATOMIC, flags, rank, region, rkey, offset, width);
    op->aop = aop;
    op->width = (uint8_t)width;
    op->value = v;
    op->compare = c;
    op->dst = result;
    if (blocking) {
        rma_serialise(s, ORDO_OP_ATOMIC, rank, width, flags);
        ordo_request_h req = NULL;
        ordo_status_t st = rma_issue_now(s, op, &req);
        return st == ORDO_INPROGRESS ? ordo_request_wait_inner(&req, NULL) : st;
    }
    if (s->pending_head && rma_blocked(s, ORDO_OP_ATOMIC, rank, width, flags, s->fence_seq, NULL))
        return rma_defer(s, op, req_p);
    return rma_issue_now(s, op, req_p);
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
        size_t at = sig_offset;
        if ((st = check_target(region, rank, &at, 8, &k)) != ORDO_OK)
            return st;
        if ((k->base + at) % 8)
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
