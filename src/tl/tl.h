/* The transport contract.  rma/, p2p/ and coll/ reach a transport only
 * through this header.
 *
 * A transport is an ops table (size first) plus capability bits.  A process
 * opens one interface per transport; each rank of the job is served by the
 * first transport in ORDO_TL that reaches it.  Memory is exposed once per
 * region by its owner (mem_expose -> an opaque blob), the blob travels by the
 * bootstrap, and every peer turns it into a remote key (rkey_open).
 *
 * Data operations return ORDO_OK when complete on return, ORDO_INPROGRESS
 * when the transport will call comp->func later (from its progress function,
 * never from another thread), or an error with nothing issued.
 *
 * comp may be NULL: the transport then completes the operation before it
 * returns (the initiator's CPU does the work).
 *
 * "Complete" for a put means the data is in the target's memory (visible to
 * any load there after a memory barrier); for a get, the data is in dst; for
 * an atomic, it was performed and its old value written to result. */
#ifndef ORDO_TL_H
#define ORDO_TL_H

#include <stddef.h>
#include <stdint.h>
#include <ordo/ordo.h>

#include "../boot/boot.h"
#include "../core/rcache.h"

/* capability bits */
#define ORDO_TL_CAP_PUT         (1u << 0)
#define ORDO_TL_CAP_GET         (1u << 1)
#define ORDO_TL_CAP_ATOMIC32    (1u << 2)
#define ORDO_TL_CAP_ATOMIC64    (1u << 3)
#define ORDO_TL_CAP_PTR         (1u << 4)  /* rkeys may carry a load/store pointer */
#define ORDO_TL_CAP_ASYNC       (1u << 5)  /* may complete operations later (engines, NIC) */
#define ORDO_TL_CAP_USER_MEM    (1u << 6)  /* can expose memory it did not allocate */
#define ORDO_TL_CAP_AM          (1u << 7)  /* active messages (am_short, am_bcopy) */
/* Opened only when some rank is left that the transports before it in
 * ORDO_TL do not reach (a network transport in a one-node job costs set-up
 * and serves nobody).  Every rank takes the same decision: the node map is
 * the same everywhere. */
#define ORDO_TL_CAP_ON_DEMAND   (1u << 8)
/* Operations complete only after a round trip to the peer (a network): the
 * layer above copies a small put's source so the put is complete locally
 * at once, as a store would be, rather than wait that round trip. */
#define ORDO_TL_CAP_NETWORK     (1u << 9)

/* Ordering a transport keeps by itself.  A put, get or atomic issued with
 * ORDO_TL_OP_ORDERED does not pass (become visible or read memory before)
 * an earlier ORDERED operation of this process to the same rank when the
 * pair (earlier kind, later kind) is in iface->ordered_pairs and both are
 * at most iface->ordered_max bytes (puts, gets; a short put or an atomic is
 * never too long): one endpoint and the provider's FI_ORDER_* bits do it on
 * a network.  The layer above then need not wait for the earlier one to
 * complete.  Other operations may pass anything.  A put of at most
 * iface->put_short_max bytes is of kind PUT_SHORT: a transport may carry
 * short puts otherwise than long ones (ofi gathers them into messages), so
 * their order with other kinds differs. */
enum {
    ORDO_TL_KIND_PUT = 0, ORDO_TL_KIND_GET = 1, ORDO_TL_KIND_ATOMIC = 2,
    ORDO_TL_KIND_PUT_SHORT = 3
};
#define ORDO_TL_PAIR(earlier, later) (1u << ((earlier) * 4 + (later)))
#define ORDO_TL_OP_ORDERED (1u << 0)
/* The caller waits for this operation to complete before it issues the
 * next to the same rank (a strict stream): a transport that gathers
 * operations to send them together (ofi's short-put batches) sends this one
 * at once, by itself, since no later one can join it. */
#define ORDO_TL_OP_ALONE   (1u << 1)
/* Where the copy of a put or get goes (a transport that copies with the CPU
 * and has offload engines; others ignore both).  COPY_NOW: nothing would
 * overlap a hand-off (the caller waits for it next, or its order holds the
 * next ones behind it), so the CPU copies it at once, whatever its size.
 * OFFLOAD: one of a run of transfers free to pass each other: an engine
 * takes it while the initiator issues the next.  Neither: the transport's
 * own rule (params pio_max). */
#define ORDO_TL_OP_COPY_NOW (1u << 2)
#define ORDO_TL_OP_OFFLOAD  (1u << 3)

typedef struct ordo_tl_iface ordo_tl_iface_t;
typedef struct ordo_tl_mem   ordo_tl_mem_t;
typedef struct ordo_tl_ops   ordo_tl_ops_t;

/* A peer's exposed memory as seen from here.  ptr is a load/store address of
 * the peer memory's first byte when it is mapped into this process, else NULL
 * (it may change between NULL and an address as mappings come and go: read it
 * once per operation).  Threads of the one-sided fast path read it without
 * the process-wide lock: a transport stores it atomically (release), and
 * before the memory behind an old address goes, clears it and calls the
 * params' ptr_retire. */
typedef struct ordo_tl_rkey {
    void     *ptr;
    size_t    size;
    uint64_t  base;   /* the owner's address of the first byte (for alignment) */
    int       rank;
} ordo_tl_rkey_t;

typedef struct ordo_tl_comp ordo_tl_comp_t;
typedef void (*ordo_tl_comp_func_t)(ordo_tl_comp_t *comp, ordo_status_t status);
struct ordo_tl_comp {
    ordo_tl_comp_func_t func;
};

/* Active messages: a message sent with am_short or am_bcopy is handed to the
 * receiver's handler by the receiver's progress function, exactly once.
 * Transports deliver in any order (the layer above rebuilds order where it
 * needs it).  data holds hdr followed by the payload.  desc is NULL for a
 * short message, whose data is valid only during the call; for a bcopy
 * message the handler may keep the bounce buffer by returning
 * ORDO_INPROGRESS and give it back later with am_release(desc).  A bcopy
 * message's payload may still be arriving when it is handed up (a
 * transport with am_arrived streams its bounce buffers): read it with
 * ordo_tl_am_copy, which copies each part as it lands. */
typedef ordo_status_t (*ordo_tl_am_handler_t)(void *arg, int src, void *data, size_t len,
                                              void *desc);

typedef struct ordo_tl_params {
    ordo_boot_t *boot;
    int          rank;
    int          size;
    /* Returns once no thread can still use an rkey ptr it read before the
     * transport cleared it (see ordo_tl_rkey_t). */
    void       (*ptr_retire)(void);
    /* What the core chose for this machine (ORDO_ENGINES, ORDO_PIO_MAX
     * resolved): copy threads a transport may run, and the largest
     * transfer the initiating CPU copies itself. */
    int          engines;
    size_t       pio_max;
    /* Two-sided messages between processes of this machine
     * (ordo_auto_eager): above eager_cross they pay off by rendezvous, up
     * to pipe_max through bounce-buffer fragments rather than a single
     * copy; their bounce buffers rotate through bounce_rotate bytes.  A
     * transport whose copies cost otherwise sets its own iface fields. */
    size_t       eager_cross, pipe_max, bounce_rotate;
    /* How a lane between processes of this machine carries short messages
     * (ordo_auto_choice_t): the reused buffer's and the spill ring's bytes
     * (0: none), and up to how many bytes of its next inline record a
     * writer asks for ahead of time (0: not; am_ring.h); and whether it
     * pushes the lines of a record sent in answer to the cache the cores
     * share. */
    size_t       hot_max, spill_bytes, own_ahead;
    int          demote;
} ordo_tl_params_t;

/* Where the owner's memory lives. */
typedef struct ordo_tl_mem_params {
    uint32_t region_id;
    void    *addr;
    size_t   size;
    int      memfd;         /* >= 0: addr is mapped from this shared file ... */
    size_t   memfd_offset;  /* ... at this offset; -1: plain process memory */
    int      transient;     /* a buffer exposed for one transfer (a rendezvous), not a
                             * region: a transport that registers memory may serve it
                             * from its registration cache */
    int      fd_via_boot;   /* memfd: peers may not take it from this process
                             * themselves; pass it through the bootstrap */
} ordo_tl_mem_params_t;

#define ORDO_TL_BLOB_MAX 128

struct ordo_tl_ops {
    size_t      size;          /* sizeof(ordo_tl_ops_t) the transport was built with */
    const char *name;
    const char *description;
    uint32_t    caps;

    ordo_status_t (*open)(const ordo_tl_params_t *params, ordo_tl_iface_t **iface_p);
    void          (*close)(ordo_tl_iface_t *iface);
    int           (*reaches)(ordo_tl_iface_t *iface, int rank);

    /* Expose local memory; fills blob (at most ORDO_TL_BLOB_MAX bytes). */
    ordo_status_t (*mem_expose)(ordo_tl_iface_t *iface, const ordo_tl_mem_params_t *params,
                                ordo_tl_mem_t **mem_p, void *blob, size_t *bloblen_p);
    void          (*mem_release)(ordo_tl_iface_t *iface, ordo_tl_mem_t *mem);
    /* Every peer has opened its key for mem: drop what was kept only so
     * that they could (shm: the launcher's copy of the memory's descriptor),
     * so that nothing per region stays outside the processes that use it. */
    void          (*mem_published)(ordo_tl_iface_t *iface, ordo_tl_mem_t *mem);
    /* Turn a peer's blob into a key.  ORDO_ERR_PERMISSION when the peer's
     * memory exists but this process may not reach it. */
    ordo_status_t (*rkey_open)(ordo_tl_iface_t *iface, int rank, const void *blob,
                               size_t bloblen, ordo_tl_rkey_t **rkey_p);
    void          (*rkey_close)(ordo_tl_iface_t *iface, ordo_tl_rkey_t *rkey);
    /* A load/store address of the peer memory that stays valid until
     * rkey_close; ORDO_ERR_UNSUPPORTED if it is not mappable here. */
    ordo_status_t (*rkey_ptr)(ordo_tl_iface_t *iface, ordo_tl_rkey_t *rkey, void **ptr_p);

    /* flags: ORDO_TL_OP_* */
    ordo_status_t (*put)(ordo_tl_iface_t *iface, ordo_tl_rkey_t *rkey, size_t offset,
                         const void *src, size_t len, unsigned flags, ordo_tl_comp_t *comp);
    ordo_status_t (*get)(ordo_tl_iface_t *iface, ordo_tl_rkey_t *rkey, size_t offset,
                         void *dst, size_t len, unsigned flags, ordo_tl_comp_t *comp);
    /* width is 4 or 8; offset aligned to it (checked above).  result NULL:
     * nobody wants the old value (never for CSWAP), which lets a transport
     * send the atomic without waiting for a reply. */
    ordo_status_t (*atomic)(ordo_tl_iface_t *iface, ordo_tl_rkey_t *rkey, size_t offset,
                            ordo_atomic_op_t op, unsigned width, uint64_t value,
                            uint64_t compare, uint64_t *result, unsigned flags,
                            ordo_tl_comp_t *comp);
    /* Run completions and deliver arrived messages; returns how many. */
    unsigned      (*progress)(ordo_tl_iface_t *iface);

    /* Send hdr+payload inline through the peer's message queue (at most
     * am_short_max bytes in all); no allocation, lock or system call.
     * ORDO_ERR_BUSY when the queue is full: nothing was sent, retry after
     * progress. */
    ordo_status_t (*am_short)(ordo_tl_iface_t *iface, int rank, const void *hdr,
                              size_t hdrlen, const void *payload, size_t len);
    /* The same through a pre-registered bounce buffer (at most am_bcopy_max
     * bytes); ORDO_ERR_BUSY when none is free. */
    ordo_status_t (*am_bcopy)(ordo_tl_iface_t *iface, int rank, const void *hdr,
                              size_t hdrlen, const void *payload, size_t len);
    void          (*am_release)(ordo_tl_iface_t *iface, void *desc);
    /* Optional (NULL: a bcopy message is whole when handed up): bytes of
     * the bcopy message desc, header included, in place so far. */
    size_t        (*am_arrived)(ordo_tl_iface_t *iface, void *desc);
    /* Optional (NULL when the transport cannot): the next message from rank
     * if one arrived in order, without handing it to the handler; NULL
     * when none has.  *desc_p is NULL for a whole one, else it is a bcopy
     * message that may still be arriving: read it with ordo_tl_am_copy
     * (iface, *desc_p, ...).  The caller either takes it with
     * am_consume(iface, rank) before any other call into the transport
     * (which also gives back its bounce buffer: no keeping), or leaves it
     * for progress to deliver.  Lets a blocking receive wait on one
     * sender's queue and take the message it expects directly.  Not to be
     * used while the reordering test mode is on (ordo_tl_am_can_peek). */
    void         *(*am_peek)(ordo_tl_iface_t *iface, int rank, size_t *len_p, void **desc_p);
    void          (*am_consume)(ordo_tl_iface_t *iface, int rank);
    /* Optional (NULL: the name says it all): with iface NULL, what the
     * transport would use on this machine with the current settings, without
     * opening it (ordo-info); else what the open interface uses. */
    ordo_status_t (*describe)(ordo_tl_iface_t *iface, char *buf, size_t len);
    /* Optional (NULL: the peers' operations complete without this process's
     * help, as in shared memory): make progress on the transport's own work
     * — serve peers' requests, let the provider complete what it carries —
     * without calling into the layer above (no completion callbacks, no
     * message handed up; progress does those later).  Safe from anywhere,
     * e.g. while a bootstrap call waits for peers: a network provider with
     * manual progress completes a peer's put into this process only while
     * this process drives it. */
    void          (*drive)(ordo_tl_iface_t *iface);
    /* Optional (NULL: only the calling thread writes the interface's
     * counters): hold (on 1) and release (on 0) the transport's own threads
     * off the counters of ordo_tl_iface_t while the caller reads them
     * (ordo_stats_get). */
    void          (*hold)(ordo_tl_iface_t *iface, int on);
};

typedef struct ordo_tl_reorder ordo_tl_reorder_t;

/* Every interface starts with this. */
struct ordo_tl_iface {
    const ordo_tl_ops_t *ops;
    uint64_t attach_hits, attach_misses, attach_evictions;
    uint32_t ordered_pairs;       /* ORDO_TL_PAIR()s kept for ORDERED operations */
    size_t   ordered_max;         /* ... of at most this many bytes */
    size_t   put_short_max;       /* puts of kind PUT_SHORT: at most this many bytes */
    uint64_t pio_ops, engine_ops, single_copy_ops;
    /* memory registration of local buffers (network transports) */
    uint64_t registrations, registration_ns, bounce_ops;
    uint64_t pinned_bytes;        /* a gauge: what registrations hold pinned now */
    uint64_t puts_batched, put_batches;   /* short puts gathered into messages */
    uint64_t msgs_bundled, msg_bundles;   /* short messages gathered into one */
    uint64_t lane_ops[ORDO_STATS_LANES];  /* operations per lane (network) */
    uint64_t lane_kept, lane_spread;      /* unordered ones kept on / moved off their
                                             peer's current lane */
    uint64_t rma_held;            /* waited for earlier ones of their peer and lane
                                     (ORDO_OFI_INFLIGHT_MAX) */
    ordo_rcache_counters_t rcache;
    /* active messages: set by the transport at open ... */
    size_t               am_short_max, am_bcopy_max;
    /* ... with where two-sided messages that find nothing else of theirs in
     * flight to the peer go by rendezvous instead of a bounce buffer
     * (single copy beats two copies above it; SIZE_MAX: only above the
     * bounce buffers' size), and up to where a rendezvous moves the data
     * in bounce-buffer fragments (both sides copying at once) instead of
     * by a single copy (0: never) ... */
    size_t               eager_cross, pipe_max;
    /* ... and by the layer above */
    ordo_tl_am_handler_t am_handler;
    void                *am_arg;
    ordo_tl_reorder_t   *reorder;     /* the reordering test mode, NULL when off */
    uint64_t             am_reordered;
};

/* Registry of the transports built in. */
size_t               ordo_tl_count(void);
const ordo_tl_ops_t *ordo_tl_at(size_t i);
const ordo_tl_ops_t *ordo_tl_find(const char *name);

/* Stubs for what a transport lacks (the layer above supplies fallbacks). */
ordo_status_t ordo_tl_put_unsupported(ordo_tl_iface_t *, ordo_tl_rkey_t *, size_t,
                                      const void *, size_t, unsigned, ordo_tl_comp_t *);
ordo_status_t ordo_tl_get_unsupported(ordo_tl_iface_t *, ordo_tl_rkey_t *, size_t,
                                      void *, size_t, unsigned, ordo_tl_comp_t *);
ordo_status_t ordo_tl_atomic_unsupported(ordo_tl_iface_t *, ordo_tl_rkey_t *, size_t,
                                         ordo_atomic_op_t, unsigned, uint64_t, uint64_t,
                                         uint64_t *, unsigned, ordo_tl_comp_t *);

/* Transports hand every arrived message to this, never to the handler
 * directly: it applies the reordering test mode (ORDO_TL_REORDER) when on. */
ordo_status_t ordo_tl_am_deliver(ordo_tl_iface_t *iface, int src, void *data, size_t len,
                                 void *desc);
/* Deliver what the reordering test mode holds back; transports call it when
 * a progress pass found nothing new, so nothing waits forever. */
unsigned      ordo_tl_am_flush_held(ordo_tl_iface_t *iface);
static inline unsigned ordo_tl_am_flush(ordo_tl_iface_t *iface)
{
    return iface->reorder ? ordo_tl_am_flush_held(iface) : 0;
}
/* Copy len bytes at src, which lie `at` bytes into the message desc was
 * handed up with (its header included), to dst as they arrive (desc NULL:
 * a short message, whole).  A writer that stops part way (it died) is
 * waited for a bounded time: ORDO_ERR_TIMED_OUT, with dst partly written. */
ordo_status_t ordo_tl_am_copy(ordo_tl_iface_t *iface, void *desc, void *dst, const void *src,
                              size_t at, size_t len);
/* How long ordo_tl_am_copy waits for bytes that stopped coming (10 s; the
 * writer copies without waiting for anything, so only one that died takes
 * this long; tests shorten it). */
extern uint64_t ordo_tl_am_wait_ns;

/* Whether am_peek may be used on iface. */
static inline int ordo_tl_am_can_peek(const ordo_tl_iface_t *iface)
{
    return iface->ops->am_peek != NULL && iface->reorder == NULL;
}
/* Set up / tear down the reordering test mode for an opened interface. */
ordo_status_t ordo_tl_reorder_init(ordo_tl_iface_t *iface, int rank);
void          ordo_tl_reorder_fini(ordo_tl_iface_t *iface);

/* Protocol thresholds for a job of nranks on one node: the settings where
 * set, else defaults that shrink as the job grows (the step shape of the
 * SMSG limits of Open MPI's uGNI transport, Table I of the paper). */
typedef struct ordo_tl_am_limits {
    size_t   short_max;    /* payload bytes inline in a queue slot */
    size_t   eager_max;    /* payload bytes through one bounce buffer */
    unsigned nbounce;      /* bounce buffers per sender-receiver pair */
    unsigned credits;      /* unmatched messages a sender may have at a receiver */
} ordo_tl_am_limits_t;
void ordo_tl_am_limits(int nranks, ordo_tl_am_limits_t *limits_p);

/* A lane whose bounce buffers go round in laps (shared memory, where a
 * line should leave the other core's cache before it is written again)
 * has, when ORDO_EAGER_BUFFERS is auto, up to this many times the step's
 * buffers. */
#define ORDO_TL_BOUNCE_MORE 8

/* The bounce buffers of such a lane (*nbounce_p) and the record bytes of a
 * lap round them (*lap_p), for laps of rotate_bytes (0: none) and a hot
 * buffer of hot_max bytes (0: none): the count of lim, or where
 * ORDO_EAGER_BUFFERS is auto as many more as a lap of the smallest messages
 * the lane puts in a bounce buffer takes, up to ORDO_TL_BOUNCE_MORE times
 * it. */
void ordo_tl_am_lane_layout(const ordo_tl_am_limits_t *lim, size_t rotate_bytes, size_t hot_max,
                            unsigned *nbounce_p, size_t *lap_p);

/* Apply an atomic to local (or mapped) memory; shared by every transport
 * that can address the target with loads and stores. */
uint64_t ordo_tl_atomic_apply(void *addr, ordo_atomic_op_t op, unsigned width,
                              uint64_t value, uint64_t compare);

#endif
