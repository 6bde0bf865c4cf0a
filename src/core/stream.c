/* Streams, and the pool of operation records behind requests. */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "../base/log.h"

void ordo_stats_retire(const struct ordo_stream *s);

/* Creating and destroying a stream take constant time, whatever the number
 * of streams: a destroyed stream's record is kept, marked dead, and reused
 * by the next stream created, so the program's stale handle never points at
 * freed memory (it reads a dead magic, or, once reused, a newer stream). */
ordo_status_t ordo_stream_new(ordo_order_t order, struct ordo_stream **stream_p)
{
    struct ordo_stream *s = ordo_ctx->dead_streams;
    if (s) {
        ordo_ctx->dead_streams = s->next;
    } else {
        /* a line of its own: threads on different streams share nothing */
        size_t line = 64, size = (sizeof(*s) + line - 1) / line * line;
        if ((s = aligned_alloc(line, size)) == NULL)
            return ORDO_ERR_NO_MEMORY;
    }
    memset(s, 0, sizeof(*s));
    ordo_threads_inner_init(&s->lock);
    s->magic = ORDO_MAGIC_STREAM;
    s->order = order;
    s->next = ordo_ctx->streams;
    if (s->next)
        s->next->prev = s;
    ordo_ctx->streams = s;
    *stream_p = s;
    return ORDO_OK;
}

static void keep_dead(struct ordo_request *op)
{
    op->magic = ORDO_MAGIC_DEAD;
    op->on_held = 0;
    op->next = ordo_ctx->dead_ops;
    ordo_ctx->dead_ops = op;
}

void ordo_stream_delete(struct ordo_stream *s)
{
    if (s->prev)
        s->prev->next = s->next;
    else
        ordo_ctx->streams = s->next;
    if (s->next)
        s->next->prev = s->prev;
    ordo_stats_retire(s);
    /* Requests the program never waited for are released with the stream;
     * those it holds a handle to are kept, dead, so that the handle is
     * refused instead of reading freed memory, and freed at finalize. */
    while (s->pending_head) {
        struct ordo_request *op = s->pending_head;
        ordo_op_unlink(s, op);
        free(op->bounce);
        op->bounce = NULL;
        if (op->user_held)
            keep_dead(op);
        else
            free(op);
    }
    while (s->held_head) {
        struct ordo_request *op = s->held_head;
        s->held_head = op->next;
        free(op->bounce);
        op->bounce = NULL;
        keep_dead(op);
    }
    while (s->free_ops) {
        struct ordo_request *op = s->free_ops;
        s->free_ops = op->next;
        free(op);
    }
    s->magic = ORDO_MAGIC_DEAD;
    s->prev = NULL;
    s->next = ordo_ctx->dead_streams;
    ordo_ctx->dead_streams = s;
}

void ordo_stream_free_dead(void)
{
    while (ordo_ctx->dead_ops) {
        struct ordo_request *op = ordo_ctx->dead_ops;
        ordo_ctx->dead_ops = op->next;
        free(op);
    }
    while (ordo_ctx->dead_streams) {
        struct ordo_stream *s = ordo_ctx->dead_streams;
        ordo_ctx->dead_streams = s->next;
        free(s);
    }
}

void ordo_streams_quiesce(void)
{
    if (ordo_threads_mode != ORDO_THREADS_LOCK || ordo_ctx == NULL)
        return;
    ordo_threads_inner_sweep_begin();
    for (struct ordo_stream *s = ordo_ctx->streams; s; s = s->next)
        ordo_threads_inner_wait_out(&s->lock);
}

struct ordo_request *ordo_op_alloc(struct ordo_stream *s)
{
    struct ordo_request *op = s->free_ops;
    if (ORDO_LIKELY(op != NULL))
        s->free_ops = op->next;
    else if ((op = malloc(sizeof(*op))) == NULL)
        return NULL;
    memset(op, 0, sizeof(*op));
    op->magic = ORDO_MAGIC_REQUEST;
    op->stream = s;
    op->info.source = op->info.tag = -1;
    return op;
}

void ordo_op_held(struct ordo_request *op)
{
    struct ordo_stream *s = op->stream;
    op->prev = NULL;
    op->next = s->held_head;
    if (s->held_head)
        s->held_head->prev = op;
    s->held_head = op;
    op->on_held = 1;
}

void ordo_op_release(struct ordo_request *op)
{
    struct ordo_stream *s = op->stream;
    if (op->on_held) {
        if (op->prev) op->prev->next = op->next; else s->held_head = op->next;
        if (op->next) op->next->prev = op->prev;
        op->on_held = 0;
    }
    free(op->bounce);
    op->bounce = NULL;
    op->magic = ORDO_MAGIC_DEAD;
    op->next = s->free_ops;
    s->free_ops = op;
}

/* pending_head is stored atomically: MULTIPLE's fast path (rma.c) reads it
 * under the stream's lock alone, while any thread's progress may unlink. */
void ordo_op_append(struct ordo_stream *s, struct ordo_request *op)
{
    op->next = NULL;
    op->prev = s->pending_tail;
    if (s->pending_tail)
        s->pending_tail->next = op;
    else
        __atomic_store_n(&s->pending_head, op, __ATOMIC_RELEASE);
    s->pending_tail = op;
}

void ordo_op_unlink(struct ordo_stream *s, struct ordo_request *op)
{
    if (op->prev)
        op->prev->next = op->next;
    else
        __atomic_store_n(&s->pending_head, op->next, __ATOMIC_RELEASE);
    if (op->next) op->next->prev = op->prev; else s->pending_tail = op->prev;
    op->prev = op->next = NULL;
}

ORDO_API ordo_status_t ordo_stream_create(const ordo_stream_params_t *params,
                                          ordo_stream_h *stream_p)
{
    ORDO_CHECK_INIT();
    if (stream_p == NULL)
        return ORDO_ERR_INVALID_PARAM;
    ordo_order_t order = ordo_ctx->default_stream->order;
    if (params && (params->field_mask & ~(uint64_t)ORDO_STREAM_FIELD_ORDER))
        return ORDO_ERR_INVALID_PARAM;
    if (params && (params->field_mask & ORDO_STREAM_FIELD_ORDER)) {
        if ((unsigned)params->order > ORDO_ORDER_RELAXED)
            return ORDO_ERR_INVALID_PARAM;
        order = params->order;
    }
    return ordo_stream_new(order, stream_p);
}

ORDO_API ordo_status_t ordo_stream_destroy(ordo_stream_h stream)
{
    ORDO_CHECK_INIT();
    if (stream == NULL || stream == ordo_ctx->default_stream)
        return ORDO_ERR_INVALID_PARAM;   /* the default stream lives until finalize */
    if (stream->magic != ORDO_MAGIC_STREAM)   /* destroyed: its record is kept */
        return ORDO_ERR_INVALID_HANDLE;
    ordo_status_t st = ordo_layers_stream_drain(stream, -1);
    ordo_stream_delete(stream);
    return st;
}

ORDO_API ordo_status_t ordo_stream_order(ordo_stream_h stream, ordo_order_t *order_p)
{
    ORDO_CHECK_INIT();
    struct ordo_stream *s;
    ordo_status_t st = ordo_stream_resolve(stream, &s);
    if (st != ORDO_OK)
        return st;
    if (order_p == NULL)
        return ORDO_ERR_INVALID_PARAM;
    *order_p = s->order;
    return ORDO_OK;
}
