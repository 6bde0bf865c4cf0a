/*
 * ordo — a communication runtime where ordering is an explicit choice.
 *
 * This is the only header a program includes.  Conventions:
 *  - every call returns ordo_status_t (ORDO_OK, ORDO_INPROGRESS or a negative
 *    ORDO_ERR_*); output arguments end in _p, come last and are written only
 *    on success;
 *  - the runtime is initialised once per process (ordo_init) and is used from
 *    one thread at a time per stream;
 *  - the library never aborts or exits the program: bad input returns an
 *    error and changes nothing.
 */
#ifndef ORDO_H
#define ORDO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <ordo/export.h>
#include <ordo/status.h>
#include <ordo/version.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- handles */

typedef struct ordo_stream  *ordo_stream_h;   /* an ordered lane of operations */
typedef struct ordo_region  *ordo_region_h;   /* remotely accessible memory */
typedef struct ordo_request *ordo_request_h;  /* a non-blocking operation */

/* The stream every process has after ordo_init; its mode comes from
 * ORDO_ORDER.  Pass it (or NULL, which means the same) where a stream is
 * expected. */
#define ORDO_STREAM_DEFAULT ((ordo_stream_h)0)

/* ------------------------------------------------------------- life cycle */

enum {
    ORDO_INIT_FIELD_NONE = 0 /* no fields yet; reserved for growth */
};

typedef struct ordo_init_params {
    uint64_t field_mask;     /* ORDO_INIT_FIELD_* bits of the fields set */
} ordo_init_params_t;

/* Join the job.  Started by ordorun the process learns its rank from the
 * launcher; started alone it is rank 0 of 1.  params may be NULL. */
ORDO_API ordo_status_t ordo_init(const ordo_init_params_t *params);

/* Complete everything outstanding, synchronise with all ranks, release all
 * resources.  Regions and streams not freed are freed here. */
ORDO_API ordo_status_t ordo_finalize(void);

/* Rank and size of this process in the job; -1 before ordo_init. */
ORDO_API int ordo_rank(void);
ORDO_API int ordo_size(void);

/* Wait until every rank entered the barrier.  Does not complete
 * outstanding one-sided operations: call ordo_quiet first for that. */
ORDO_API ordo_status_t ordo_barrier(void);

/* ------------------------------------------------------- ordering, streams */

/* The ordering guarantee between two operations of one stream to the same
 * target rank (DESIGN.md, "Ordering model"):
 *  STRICT   complete and become visible in issue order; a get after a put to
 *           the same address returns the put's data;
 *  DEFAULT  puts and atomics stay in order among themselves; gets may pass
 *           earlier puts (and puts may pass earlier gets);
 *  RELAXED  no order; only ordo_fence orders and ordo_quiet/ordo_flush
 *           complete. */
typedef enum ordo_order {
    ORDO_ORDER_STRICT  = 0,
    ORDO_ORDER_DEFAULT = 1,
    ORDO_ORDER_RELAXED = 2
} ordo_order_t;

/* Name of an ordering mode ("strict", "default", "relaxed"). */
ORDO_API const char *ordo_order_name(ordo_order_t order);

enum {
    ORDO_STREAM_FIELD_ORDER = 1u << 0
};

typedef struct ordo_stream_params {
    uint64_t     field_mask;  /* ORDO_STREAM_FIELD_* bits of the fields set */
    ordo_order_t order;       /* default: the value of ORDO_ORDER */
} ordo_stream_params_t;

ORDO_API ordo_status_t ordo_stream_create(const ordo_stream_params_t *params,
                                          ordo_stream_h *stream_p);
/* Completes the stream's outstanding operations, then frees it.  Requests of
 * the stream that the program still holds become invalid. */
ORDO_API ordo_status_t ordo_stream_destroy(ordo_stream_h stream);
ORDO_API ordo_status_t ordo_stream_order(ordo_stream_h stream, ordo_order_t *order_p);

/* ----------------------------------------------------------------- regions */

enum {
    /* ordo_region_create: map the memory into local peers (copy-in now,
     * copy-out at free) instead of reaching it by single copy.  Needed for
     * remote atomics on created regions and for ordo_region_ptr. */
    ORDO_REGION_CREATE_MAPPED = 1u << 0
};

/* Collective over all ranks: each rank allocates size bytes (sizes may
 * differ per rank; 0 is allowed) zero-filled and remotely accessible.
 * *addr_p is the local address. */
ORDO_API ordo_status_t ordo_region_alloc(size_t size, unsigned flags,
                                         ordo_region_h *region_p, void **addr_p);

/* Collective over all ranks: make [addr, addr+size) of this process
 * remotely accessible.  By default peers reach it by single copy
 * (process_vm_readv/writev); where the kernel refuses that, or with
 * ORDO_REGION_CREATE_MAPPED, the pages are moved into shared memory (their
 * content is kept) and moved back at ordo_region_free.  The memory must
 * stay valid until the region is freed. */
ORDO_API ordo_status_t ordo_region_create(void *addr, size_t size, unsigned flags,
                                          ordo_region_h *region_p);

/* Collective: completes this process's operations on the region, waits for
 * every rank, then releases it.  Using the handle afterwards returns
 * ORDO_ERR_INVALID_HANDLE. */
ORDO_API ordo_status_t ordo_region_free(ordo_region_h region);

/* Size of the region at a rank. */
ORDO_API ordo_status_t ordo_region_size(ordo_region_h region, int rank, size_t *size_p);

/* A load/store pointer to the region's memory at a rank, where that memory is
 * mapped into this process (shared-memory peers); ORDO_ERR_UNSUPPORTED when
 * it is only reachable by copy. */
ORDO_API ordo_status_t ordo_region_ptr(ordo_region_h region, int rank, void **ptr_p);

/* -------------------------------------------------------- one-sided: data */

enum {
    /* Order this operation after every earlier operation of its stream, to
     * every target, whatever the stream's mode (a point-to-point fence). */
    ORDO_OP_FENCED = 1u << 0
};

/* Blocking put: returns when src may be reused.  The data is visible at the
 * target after ordo_quiet / ordo_flush (or earlier, by the stream's order). */
ORDO_API ordo_status_t ordo_put(ordo_stream_h stream, const void *src, size_t len,
                                ordo_region_h region, int rank, size_t offset,
                                unsigned flags);

/* Blocking get: returns when dst holds the data. */
ORDO_API ordo_status_t ordo_get(ordo_stream_h stream, void *dst, size_t len,
                                ordo_region_h region, int rank, size_t offset,
                                unsigned flags);

/* Non-blocking put / get.  Returns ORDO_OK when the operation completed at
 * once (*req_p is set to NULL), ORDO_INPROGRESS with a request to test or
 * wait for, or an error (nothing was issued).  A put's request completes when
 * src may be reused; a get's when dst holds the data.  When req_p is NULL the
 * operation is implicit: it completes by ordo_quiet / ordo_flush only, and src
 * / dst must be left alone until then. */
ORDO_API ordo_status_t ordo_put_nb(ordo_stream_h stream, const void *src, size_t len,
                                   ordo_region_h region, int rank, size_t offset,
                                   unsigned flags, ordo_request_h *req_p);
ORDO_API ordo_status_t ordo_get_nb(ordo_stream_h stream, void *dst, size_t len,
                                   ordo_region_h region, int rank, size_t offset,
                                   unsigned flags, ordo_request_h *req_p);

/* ----------------------------------------------------- one-sided: atomics */

typedef enum ordo_atomic_op {
    ORDO_ATOMIC_ADD   = 0,  /* *t += v            (fetch: old value) */
    ORDO_ATOMIC_AND   = 1,  /* *t &= v */
    ORDO_ATOMIC_OR    = 2,  /* *t |= v */
    ORDO_ATOMIC_XOR   = 3,  /* *t ^= v */
    ORDO_ATOMIC_SWAP  = 4,  /* *t  = v            (result required) */
    ORDO_ATOMIC_CSWAP = 5   /* if (*t == c) *t = v (result required) */
} ordo_atomic_op_t;

typedef enum ordo_atomic_type {
    ORDO_UINT32 = 0,
    ORDO_INT32  = 1,
    ORDO_UINT64 = 2,
    ORDO_INT64  = 3
} ordo_atomic_type_t;

/* Remote atomic on a 4- or 8-byte integer at (region, rank, offset), which
 * must be aligned to its width.  value (and compare, for CSWAP) point at one
 * integer of the type.  When result is not NULL the old value is written
 * there (a fetching atomic); SWAP and CSWAP require it. */
ORDO_API ordo_status_t ordo_atomic(ordo_stream_h stream, ordo_atomic_op_t op,
                                   ordo_atomic_type_t type, const void *value,
                                   const void *compare, void *result,
                                   ordo_region_h region, int rank, size_t offset,
                                   unsigned flags);

/* Non-blocking form; result must stay valid until completion. */
ORDO_API ordo_status_t ordo_atomic_nb(ordo_stream_h stream, ordo_atomic_op_t op,
                                      ordo_atomic_type_t type, const void *value,
                                      const void *compare, void *result,
                                      ordo_region_h region, int rank, size_t offset,
                                      unsigned flags, ordo_request_h *req_p);

/* ------------------------------------------------- one-sided: completion */

/* Order: operations issued on the stream after the fence become visible at
 * each target after those issued before it.  Completes nothing. */
ORDO_API ordo_status_t ordo_fence(ordo_stream_h stream);

/* Complete every operation of the stream, at every target: afterwards their
 * data is visible to any process that synchronises with this one. */
ORDO_API ordo_status_t ordo_quiet(ordo_stream_h stream);

/* Complete the stream's operations to one rank. */
ORDO_API ordo_status_t ordo_flush(ordo_stream_h stream, int rank);

/* --------------------------------------------------------------- requests */

/* Test a request without blocking.  *done_p is 1 when it completed; then the
 * request is released, *req is set to NULL and the operation's status is
 * returned.  Otherwise ORDO_OK with *done_p = 0.  A NULL *req is complete. */
ORDO_API ordo_status_t ordo_request_test(ordo_request_h *req, int *done_p);

/* Wait for a request, release it, set *req to NULL; returns its status. */
ORDO_API ordo_status_t ordo_request_wait(ordo_request_h *req);

/* Wait for all n requests (NULL entries are complete); every entry is set to
 * NULL.  Returns ORDO_OK or the first error among them. */
ORDO_API ordo_status_t ordo_request_waitall(size_t n, ordo_request_h *reqs);

/* Drive communication (engine completions, deferred operations). */
ORDO_API ordo_status_t ordo_progress(void);

/* ------------------------------------------------------------- statistics */

/* What the runtime did, and what ordering cost it.  Sums over all streams. */
typedef struct ordo_stats {
    uint64_t puts, gets, atomics;       /* operations issued by the program */
    uint64_t bytes_put, bytes_got;
    uint64_t pio_ops;                   /* done by loads/stores in mapped memory */
    uint64_t engine_ops;                /* handed to an offload engine */
    uint64_t single_copy_ops;           /* process_vm_readv/writev */
    uint64_t ops_deferred;              /* held back because the order required it */
    uint64_t ops_serialised;            /* blocking ops that waited for earlier ones */
    uint64_t fences_inserted;           /* memory fences issued to keep order */
    uint64_t fence_calls, quiet_calls, flush_calls;
    uint64_t attach_hits, attach_misses, attach_evictions;  /* peer mapping cache */
} ordo_stats_t;

ORDO_API ordo_status_t ordo_stats_get(ordo_stats_t *stats_p);
/* Print the counters, one "name value" per line, to stream. */
ORDO_API ordo_status_t ordo_stats_print(FILE *stream);

#ifdef __cplusplus
}
#endif
#endif
