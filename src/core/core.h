/* Internal state of the runtime: the context, streams, requests, regions.
 * The core holds transports only through the contract in tl/tl.h. */
#ifndef ORDO_CORE_H
#define ORDO_CORE_H

#include <stdint.h>
#include <ordo/ordo.h>

#include "../base/activity.h"
#include "../base/compiler.h"
#include "../base/machine.h"
#include "../base/threads.h"
#include "../boot/boot.h"
#include "../tl/tl.h"

#define ORDO_MAX_TL 4

#define ORDO_MAGIC_STREAM   0x5354524du  /* "STRM" */
#define ORDO_MAGIC_REGION   0x5245474eu  /* "REGN" */
#define ORDO_MAGIC_REQUEST  0x52455155u  /* "REQU" */
#define ORDO_MAGIC_DEAD     0xdeadd00du

typedef enum ordo_op_type { ORDO_OP_PUT, ORDO_OP_GET, ORDO_OP_ATOMIC, ORDO_OP_P2P } ordo_op_type_t;
typedef enum ordo_op_state { ORDO_OP_DEFERRED, ORDO_OP_INFLIGHT, ORDO_OP_DONE } ordo_op_state_t;

typedef enum ordo_region_kind {
    ORDO_REGION_KIND_ALLOC,          /* memfd allocated by the runtime */
    ORDO_REGION_KIND_COPY,    /* user memory reached by single copy */
    ORDO_REGION_KIND_MAPPED,    /* user pages moved into a memfd (copy-in/copy-out) */
    ORDO_REGION_KIND_DYNAMIC    /* no memory of its own: ranks attach theirs (dynamic.c) */
} ordo_region_kind_t;

/* One transport's key for a rank's memory, as ranks exchange it. */
typedef struct ordo_tl_record {
    uint32_t len;
    uint8_t  blob[ORDO_TL_BLOB_MAX];
} ordo_tl_record_t;

struct ordo_region {
    uint32_t            magic;
    uint32_t            id;
    ordo_region_kind_t  kind;
    void               *addr;
    size_t              size;
    int                 memfd;       /* -1 if none */
    void               *map_base;    /* page-aligned mapping of memfd here */
    size_t              map_len;
    ordo_tl_mem_t      *mem[ORDO_MAX_TL];
    ordo_tl_rkey_t    **rkeys;       /* per rank, opened by the rank's transport;
                                        &ordo_rkey_absent for a rank outside it */
    uint64_t            slow_ops;    /* rma/: operations on it that did not complete at
                                        once, since it was last drained for every rank
                                        (a drain finds nothing to wait for without) */
    int                *members;     /* the ranks it spans (a context's members, in
                                        its member order); NULL: every rank */
    int                 nmembers;
    unsigned            flags;       /* ORDO_REGION_* given at creation */
    struct rma_epoch   *epoch;       /* rma/: epoch state (ORDO_REGION_EPOCHS), else NULL */
    struct ordo_dynamic *dyn;        /* KIND_DYNAMIC: attachments and peers' tables */
    struct ordo_region *next;
};

/* An operation that did not complete at once; the request handle given to
 * the program points here.  One-sided operations use it as it is; other
 * layers embed it first in their own record and set release (and cancel). */
struct ordo_request {
    ordo_tl_comp_t       comp;       /* transport completion */
    uint32_t             magic;
    uint8_t              type;       /* ordo_op_type_t */
    uint8_t              state;      /* ordo_op_state_t */
    uint8_t              user_held;  /* the program holds a handle */
    uint8_t              width;      /* atomics */
    uint8_t              tl_flags;   /* ORDO_TL_OP_* it is issued with */
    uint8_t              ordered_class;  /* 1 + its slot in the stream's
                                            inflight_ordered, 0: not counted */
    unsigned             flags;
    int                  rank;
    struct ordo_region  *region;
    ordo_tl_rkey_t      *rkey;       /* the target's key (a dynamic region: the
                                        attachment's), offset counted from it */
    size_t               offset, len;
    const void          *src;
    void                *dst;
    uint64_t             seq;        /* issue order within the stream */
    uint64_t             fence_seq;  /* seq of the last ordo_fence before it */
    ordo_status_t        status;
    ordo_atomic_op_t     aop;
    uint64_t             value, compare, fetched;
    void                *bounce;     /* a copy of a deferred small put's data */
    struct ordo_stream  *stream;
    struct ordo_request *prev, *next;   /* stream's pending list, or free list */
    ordo_completion_t    info;       /* reported by test / wait */
    void               (*release)(struct ordo_request *op);        /* NULL: one-sided */
    ordo_status_t      (*cancel)(struct ordo_request *op);         /* NULL: cannot */
    /* Persistent requests (p2p/persist.c): the handle outlives its
     * transfers; inner is the one started (NULL: none), and a start that
     * finished at once leaves its status and info here (done_at_start). */
    uint8_t              persistent, done_at_start;
    uint8_t              on_held;    /* in its stream's held list */
    struct ordo_request *inner;
};

/* A layer above the transports (one-sided, two-sided) plugs into the core
 * through this table; src/layers.c lists them.  Any hook may be NULL. */
typedef struct ordo_layer {
    const char    *name;
    ordo_status_t (*init)(void);                  /* after the transports opened */
    unsigned      (*progress)(void);              /* one pass; returns events */
    ordo_status_t (*stream_drain)(struct ordo_stream *s, int rank);  /* rank -1: all */
    ordo_status_t (*quiesce)(void);               /* finalize: before the last barrier */
    void          (*fini)(void);
    void          (*stats)(ordo_stats_t *sum);    /* add the layer's counters */
    /* A region was created (collectively; every rank calls it at the same
     * point) / is being released, after its last barrier. */
    ordo_status_t (*region_open)(struct ordo_region *r);
    void          (*region_close)(struct ordo_region *r);
} ordo_layer_t;

extern const ordo_layer_t *const ordo_layers[];
extern const size_t ordo_layer_count;

/* Complete a stream's operations in every layer (rank -1: to every rank). */
ordo_status_t ordo_layers_stream_drain(struct ordo_stream *s, int rank);

struct ordo_stream {
    uint32_t             magic;
    ordo_order_t         order;
    /* At MULTIPLE (base/threads.h): taken alone by the one-sided fast path
     * (rma.c), which reads pending_head and writes some counters of stats;
     * the others who write those counters, or add to the pending list,
     * hold it too, after the process-wide lock.  The rest is written only
     * under the process-wide lock. */
    ordo_inner_lock_t    lock;
    uint64_t             seq;        /* last issued */
    uint64_t             fence_seq;
    uint64_t             done_seq_max;  /* latest-issued operation completed so far */
    struct ordo_request *pending_head, *pending_tail;  /* deferred + in flight, in order */
    unsigned             ndeferred;
    /* In-flight writes the transport keeps in order (default mode), by
     * transport, kind and whether longer than its ordered_max (rma.c's
     * ordered_slot): lets a new operation see without a scan that nothing
     * pending blocks it. */
    uint32_t             inflight_ordered[ORDO_MAX_TL * 4 * 2];
    ordo_status_t        error;      /* first failure of an implicit op, for quiet */
    struct ordo_request *free_ops;
    struct ordo_request *held_head;    /* complete, the program holds the handle (linked
                                          through prev / next until it waits for it) */
    ordo_stats_t         stats;
    /* quiet_calls + flush_calls + the context's region_drains + 1 when the
     * last transfer above the context's pio_max was issued: a second one
     * before the program waits is part of a run (rma.c placement) */
    uint64_t             long_mark;
    struct ordo_stream  *next, *prev;   /* the context's live streams (dead: next only) */
};

typedef struct ordo_context {
    ordo_boot_t         *boot;
    int                  rank, size;
    ordo_tl_iface_t     *ifaces[ORDO_MAX_TL];
    int                  n_ifaces;
    int                 *tl_of_rank;       /* index into ifaces, -1: unreachable */
    struct ordo_stream  *default_stream;
    struct ordo_stream  *streams;          /* all, default included */
    struct ordo_request *dead_ops;         /* held by the program when their stream was
                                              destroyed: a stale handle finds a dead magic;
                                              freed at finalize */
    struct ordo_stream  *dead_streams;     /* destroyed: reused by the next ones created,
                                              so a stale handle finds a dead magic */
    struct ordo_region  *regions;          /* live */
    struct ordo_region  *zombies;          /* freed: kept so stale handles fail cleanly */
    uint32_t             next_region_id;   /* regions over every rank, in step */
    uint32_t             next_subset_id;   /* regions over a context's members: agreed
                                              among them (the highest proposal) */
    ordo_auto_choice_t   machine;          /* engines and PIO limit, and why */
    size_t               pio_max;          /* the CPU copies transfers up to this itself */
    size_t               pio_lone_max;     /* one-sided: a transfer waited for alone (or held
                                              behind the others) stays on the CPU up to it */
    size_t               small_put_max;    /* puts copied aside when they cannot go at once */
    uint64_t             region_drains;    /* waits for a region's operations on every
                                              stream (MPI's flush, unlock, fence) */
    ordo_stats_t         retired;          /* counters of destroyed streams */
    int                  in_finalize;
    int                  yield_idle;       /* waits give the core away when idle */
    /* An allgather among every rank (members NULL) or the n ranks listed,
     * into all in that order, for the agreed steps of region create and
     * free, offered by a layer above (two-sided: over the runtime's own
     * context, no launcher round trip); used once every rank's layers are
     * up (layers_up, set after ordo_init's last barrier), the bootstrap's
     * before that and in finalize. */
    ordo_status_t      (*agree_allgather)(const int *members, int n, const void *mine,
                                          size_t len, void *all);
    /* The members of a context as world ranks in its member order (a copy
     * to free), or NULL with *n_p = size when it spans every rank; offered
     * by the two-sided layer, which owns contexts. */
    ordo_status_t      (*comm_members)(ordo_comm_h comm, int **members_p, int *n_p);
    int                  layers_up;
} ordo_context_t;

extern ordo_context_t *ordo_ctx;

/* Transport flags for a transfer its caller waits for alone (a lone
 * one-sided one, a rendezvous's single copy): the initiating CPU copies it
 * at once up to pio_lone_max, the engines' parallel chunks take larger ones
 * (guide.md, "Engines and the PIO limit follow the machine"). */
static inline unsigned ordo_lone_copy_flags(size_t len)
{
    return len <= ordo_ctx->pio_lone_max ? ORDO_TL_OP_COPY_NOW : 0;
}

/* Checks at the top of every public call: initialised, and a thread the
 * thread level allows (at MULTIPLE, the lock is held until the function
 * using the macro returns). */
#define ORDO_CHECK_INIT()                                         \
    if (ORDO_UNLIKELY(ordo_ctx == NULL))                          \
        return ORDO_ERR_NOT_INITIALIZED;                          \
    ORDO_THREADS_GUARD();                                         \
    if (__builtin_strncmp(__func__, "ordo_", 5) == 0)             \
        ordo_activity_enter(__func__) /* public calls */

/* The top of a public call that checks initialisation further in: the
 * thread level's rule for the whole call, and its name for --timeout. */
#define ORDO_API_ENTER()                                          \
    ORDO_THREADS_GUARD();                                         \
    ordo_activity_enter(__func__)

static inline ordo_status_t ordo_stream_resolve(ordo_stream_h in, struct ordo_stream **out)
{
    struct ordo_stream *s = in ? in : ordo_ctx->default_stream;
    if (ORDO_UNLIKELY(s->magic != ORDO_MAGIC_STREAM))
        return ORDO_ERR_INVALID_HANDLE;
    *out = s;
    return ORDO_OK;
}

/* At MULTIPLE, a call that works on s holds s's lock (after the
 * process-wide one) until the outermost public call returns. */
static inline void ordo_stream_hold(struct ordo_stream *s)
{
    if (ORDO_UNLIKELY(ordo_threads_mode == ORDO_THREADS_LOCK))
        ordo_threads_hold(&s->lock);
}

/* ... and code that touches another stream's fast-path state (its pending
 * list, its counters), from progress for instance, takes it for a moment. */
static inline int ordo_stream_lock(struct ordo_stream *s)
{
    return ORDO_UNLIKELY(ordo_threads_mode == ORDO_THREADS_LOCK) &&
           ordo_threads_lock_inner(&s->lock);
}

static inline void ordo_stream_unlock(struct ordo_stream *s, int taken)
{
    if (taken)
        ordo_threads_unlock_inner(&s->lock);
}

/* Returns once no thread can still use a mapping address it read before
 * the caller cleared it (each stream's fast path done): then the mapping may
 * go.  Called with the process-wide lock. */
void ordo_streams_quiesce(void);

static inline ordo_tl_iface_t *ordo_iface_of(int rank)
{
    return ordo_ctx->ifaces[ordo_ctx->tl_of_rank[rank]];
}

/* stream.c */
ordo_status_t        ordo_request_wait_inner(ordo_request_h *req, ordo_completion_t *info_p);
void                 ordo_stream_free_dead(void);
ordo_status_t        ordo_stream_new(ordo_order_t order, struct ordo_stream **stream_p);
void                 ordo_stream_delete(struct ordo_stream *s);
struct ordo_request *ordo_op_alloc(struct ordo_stream *s);
void                 ordo_op_release(struct ordo_request *op);
/* A complete request the program holds a handle to: kept in its stream's held
 * list until the program waits for it (ordo_op_release) or the stream goes. */
void                 ordo_op_held(struct ordo_request *op);
void                 ordo_op_append(struct ordo_stream *s, struct ordo_request *op);
void                 ordo_op_unlink(struct ordo_stream *s, struct ordo_request *op);

/* context.c: one pass over transports and layers */
unsigned ordo_progress_once(void);

/* request.c: finish a completed request for the program */
static inline void ordo_request_complete(struct ordo_request *op, ordo_status_t st)
{
    op->status = st;
    op->info.error = st;
    op->state = ORDO_OP_DONE;
}

/* One pass of progress inside a wait loop: when it found nothing to do a
 * few dozen times in a row and waits yield (ORDO_YIELD; by default when the
 * ranks outnumber the cores), the core goes to whoever shares it — a spinning
 * rank would otherwise hold it for a whole time slice while the rank it waits
 * for cannot run. */
unsigned ordo_progress_wait(unsigned *idle);
/* The same for a loop that progressed by other means and found nothing. */
void     ordo_idle_pass(unsigned *idle);

/* region.c */
/* The key of a rank a region does not span: no memory, so the fast paths
 * (which check size) never take it, and the checks name the rank. */
extern ordo_tl_rkey_t ordo_rkey_absent;
static inline int ordo_region_spans(const struct ordo_region *r, int rank)
{
    return r->rkeys[rank] != &ordo_rkey_absent;
}
/* How many ranks r spans, and the i-th of them. */
static inline int ordo_region_span(const struct ordo_region *r)
{
    return r->members ? r->nmembers : ordo_ctx->size;
}
static inline int ordo_region_member(const struct ordo_region *r, int i)
{
    return r->members ? r->members[i] : i;
}
void ordo_region_destroy_all(void);
/* A region record spanning members[n] (NULL: every rank; the list is
 * copied). */
struct ordo_region *ordo_region_new(uint32_t id, void *addr, size_t size, const int *members,
                                    int n);
/* Expose r's memory with every transport into mine[n_ifaces] (transient:
 * a transport may serve it from its registration cache; via_boot: peers
 * take a memfd through the bootstrap); ordo_region_unexpose undoes it and
 * closes the peers' keys opened into r->rkeys. */
ordo_status_t ordo_region_expose(struct ordo_region *r, ordo_tl_record_t *mine, int via_boot,
                                 int transient);
ordo_status_t ordo_region_unexpose(struct ordo_region *r);
/* A region for a layer's own use (collective, like ordo_region_alloc, over
 * members[n]: NULL, every rank), kept off the program's list; released
 * with ordo_region_release.  prep: how this rank fared before the call; a
 * failure fails it on every rank. */
ordo_status_t ordo_region_alloc_internal(const int *members, int n, size_t size,
                                         ordo_status_t prep, struct ordo_region **region_p);
void          ordo_region_release(struct ordo_region *r);

/* pages.c */
size_t        ordo_page_size(void);
/* Logs "what: strerror(errno)"; NO_MEMORY for ENOMEM / ENOSPC, else IO. */
ordo_status_t ordo_os_error(const char *what);
int           ordo_memfd_new(size_t len);
/* Move the pages under [r->addr, +r->size) into a memfd, content kept
 * (r becomes KIND_MAPPED), and back. */
ordo_status_t ordo_pages_move_in(struct ordo_region *r);
void          ordo_pages_move_out(struct ordo_region *r);

/* dynamic.c: dynamic regions */
/* The key and offset (counted from the key) of [addr, addr+len) at rank,
 * from the memory rank attached; ORDO_ERR_OUT_OF_BOUNDS (logged) when no
 * attachment holds it. */
ordo_status_t ordo_dynamic_resolve(struct ordo_region *r, int rank, size_t *addr_p, size_t len,
                                   ordo_tl_rkey_t **rkey_p);
/* Collective over members[n] (NULL: every rank; within
 * ordo_region_create_dynamic): r becomes dynamic, with its table of
 * attachments.  prep is how this rank fared so far (r may be NULL then):
 * the table's allocation agrees on it, so every rank returns the same
 * status. */
ordo_status_t ordo_dynamic_open(struct ordo_region *r, const int *members, int n,
                                ordo_status_t prep);
void          ordo_dynamic_discard(struct ordo_region *r);
void         *ordo_dynamic_pages_taken(uintptr_t start, uintptr_t end, uint32_t *region_p);

#endif
