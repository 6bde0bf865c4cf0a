/* ofi: ranks reached through libfabric (RDM endpoints).
 *
 * One fabric, domain and address vector per process; K endpoints ("lanes",
 * ORDO_OFI_LANES), each with its own completion queue and its own posted
 * receive buffers.  Lane l of this rank talks to lane l of every peer, so
 * operations on different lanes travel independent paths (separate
 * connections on tcp) and may arrive and complete in any order.
 *
 * RMA uses the provider's fi_write / fi_read, with delivery-complete
 * semantics: a put completes when its data is in the target's memory, as the
 * transport contract says.  Atomics are performed by the target's CPU on
 * request (an active message the target's progress serves), so they are
 * atomic with the target's own CPU atomics and need no provider atomics.
 * Where the provider's RMA is software at the target anyway, short puts
 * are gathered into messages instead (ofi_batch.c).  Active messages are
 * sends into pre-posted receive buffers.
 *
 * Everything a peer sends is checked before use: sender rank, message kind
 * and length, and for atomics the memory id, offset and width, against what
 * this process itself exposed. */
#ifndef ORDO_TL_OFI_H
#define ORDO_TL_OFI_H

#include <pthread.h>
#include <stdatomic.h>

#include <rdma/fabric.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>

#include <signal.h>

#include "../tl.h"
#include "ofi_spread.h"

/* libfabric, opened on first use (ofi_lib.c says why): the five functions
 * called by name, through pointers; everything else is inline. */
struct ofi_lib {
    void            *handle;
    int            (*getinfo)(uint32_t version, const char *node, const char *service,
                              uint64_t flags, const struct fi_info *hints,
                              struct fi_info **info);
    void           (*freeinfo)(struct fi_info *info);
    struct fi_info *(*dupinfo)(const struct fi_info *info);
    int            (*fabric)(struct fi_fabric_attr *attr, struct fid_fabric **fabric,
                             void *context);
    const char    *(*strerror)(int errnum);
    uint32_t         version;          /* fi_version() of the library loaded; 0: none */
    char             path[256];        /* the file loaded (it may not be the one built against) */
};
extern struct ofi_lib ofi_lib;
#define fi_getinfo  ofi_lib.getinfo
#define fi_freeinfo ofi_lib.freeinfo
#define fi_dupinfo  ofi_lib.dupinfo
#define fi_fabric   ofi_lib.fabric
#define fi_strerror ofi_lib.strerror
ordo_status_t ofi_lib_load(void);
/* Put back any signal handler a library took over meanwhile. */
void          ofi_signals_save(struct sigaction *saved);
void          ofi_signals_restore(const struct sigaction *saved);

#define OFI_LANES_MAX ORDO_STATS_LANES
#define OFI_ADDR_MAX  64     /* bytes of one endpoint name we exchange */
#define OFI_CQ_BATCH  16

/* What a completion's context is. */
enum {
    OFI_CTX_RX = 1,      /* a posted receive buffer */
    OFI_CTX_TX,          /* a send from a bounce buffer */
    OFI_CTX_OP           /* an RMA piece of an operation */
};

typedef struct ofi_ctx {
    struct fi_context2 fi;     /* the provider's, first (FI_CONTEXT2 mode) */
    uint8_t            kind;
} ofi_ctx_t;

/* Kinds of message on the wire, in the transport header. */
enum {
    OFI_MSG_SHORT = 1,   /* for the layer above; data valid during the call */
    OFI_MSG_BCOPY,       /* for the layer above; the buffer may be kept */
    OFI_MSG_AMO_REQ,     /* perform an atomic here */
    OFI_MSG_AMO_REP,     /* its result */
    OFI_MSG_PUTS,        /* a batch of short puts to copy into place here */
    OFI_MSG_PUTS_ACK,    /* they are in place */
    OFI_MSG_BUNDLE       /* short messages for the layer above, gathered */
};

typedef struct ofi_wire {
    uint32_t src;        /* sender's rank: checked against the job size */
    uint8_t  kind;
    uint8_t  pad[3];
} ofi_wire_t;

typedef struct ofi_amo_req {
    uint64_t mem_id;     /* the target's exposure */
    uint64_t offset;
    uint64_t value, compare;
    uint32_t id;         /* the initiator's slot */
    uint8_t  op, width;
    uint8_t  pad[2];
} ofi_amo_req_t;

typedef struct ofi_amo_rep {
    uint32_t id;
    int32_t  status;
    uint64_t old;
} ofi_amo_rep_t;

/* A batch of puts: this header, then count records, each followed by its
 * data padded to 8 bytes. */
typedef struct ofi_puts_hdr {
    uint32_t id;         /* the initiator's slot */
    uint32_t count;
} ofi_puts_hdr_t;

typedef struct ofi_put_rec {
    uint64_t mem_id;
    uint64_t offset;
    uint32_t len;        /* a put's bytes; an atomic's width */
    uint32_t kind;       /* OFI_REC_PUT, or OFI_REC_ATOMIC | op << 8 (its value: 8 bytes) */
} ofi_put_rec_t;
enum { OFI_REC_PUT = 0, OFI_REC_ATOMIC = 1 };

typedef struct ofi_puts_ack {
    uint32_t id;
    int32_t  status;     /* of the first put refused; the rest were not applied */
} ofi_puts_ack_t;

/* A message buffer: a receive buffer posted on a lane, or a send bounce
 * buffer.  data follows in the registered pool. */
typedef struct ofi_buf {
    ofi_ctx_t        ctx;
    struct ofi_buf  *next;
    uint8_t          lane;
    uint8_t          held;     /* rx: kept by the layer above */
    uint8_t          spilled;  /* a heap copy of a parked message (ofi_am_spill) */
    int              rank;     /* tx: the receiver */
    size_t           len;      /* rx: bytes received */
    char            *data;
    struct ofi_op   *batch;    /* tx: the batch of puts it carries */
    uint32_t         nrec;     /* tx: messages in the bundle it carries */
} ofi_buf_t;

/* Memory this process exposed (a region, or a rendezvous buffer). */
struct ordo_tl_mem {
    uint64_t            id;
    char               *addr;
    size_t              size;
    struct fid_mr      *mr[OFI_LANES_MAX];   /* one, or one per lane (FI_MR_ENDPOINT) */
    ordo_rcache_entry_t *cached[OFI_LANES_MAX];   /* where mr[] came from the cache */
    struct ordo_tl_mem *next;
};

/* A peer's memory. */
typedef struct ofi_rkey {
    ordo_tl_rkey_t super;
    uint64_t       mem_id;
    uint64_t       raddr;                 /* base for remote addresses: VIRT_ADDR or 0 */
    uint64_t       key[OFI_LANES_MAX];
    int            mapped_raw;            /* keys came from fi_mr_map_raw */
} ofi_rkey_t;

/* One operation: its RMA pieces (an operation longer than the provider's
 * largest message is split), its atomic request, or a batch of short puts. */
typedef struct ofi_op {
    ofi_ctx_t        ctx;
    ordo_tl_comp_t  *comp;
    struct ofi_op   *next;         /* backlog, free list, or open batches */
    ordo_status_t    status;
    unsigned         pieces;       /* RMA pieces still in flight */
    uint8_t          type;         /* OFI_OP_* */
    uint8_t          lane;
    uint8_t          done;
    uint8_t          abandoned;    /* its waiter gave up (peer dead): release on completion */
    uint8_t          held;         /* waited for the bytes in flight (counted once) */
    uint8_t          spread_counted;   /* measured by o->spread (ofi_lane_pick) */
    size_t           charged;      /* bytes counted in flight on its lane (ofi_lane_pick) */
    size_t           posted;       /* bytes of its RMA piece posted, in flight[] */
    int              rank;
    /* what to (re)issue */
    ofi_rkey_t      *rkey;
    char            *local;
    size_t           offset, len, issued;
    struct fid_mr   *local_mr;     /* registered for this operation (FI_MR_LOCAL) */
    void            *local_desc;
    char            *bounce;       /* the data goes through this pre-registered buffer */
    ordo_rcache_entry_t *cached;   /* the registration cache's, for local_desc */
    /* awaiting a reply (atomics, batches): the slot in reply_slot */
    uint32_t         reply_id;
    /* atomics */
    uint8_t          aop, width;
    uint64_t         value, compare;
    uint64_t        *result;
    /* a batch: its message buffer and the puts it completes */
    ofi_buf_t       *txbuf;
    size_t           fill;         /* bytes of txbuf used */
    uint32_t         count;
    uint8_t          sent, acked, tx_done;
    struct ofi_op   *members, *members_tail, *member_next;
} ofi_op_t;

enum { OFI_OP_PUT = 1, OFI_OP_GET, OFI_OP_AMO, OFI_OP_BATCH };

/* A reply (atomic result, batch acknowledgement) that found no room to go
 * out yet. */
typedef struct ofi_reply {
    struct ofi_reply *next;
    int               rank;
    unsigned          lane;
    uint8_t           kind;
    uint8_t           len;
    char              data[16];
} ofi_reply_t;

typedef struct ofi_lane {
    struct fid_ep *ep;
    struct fid_cq *cq;
    char           name[OFI_ADDR_MAX];
    size_t         namelen;
} ofi_lane_t;

typedef struct ofi_iface {
    ordo_tl_iface_t    super;
    ordo_boot_t       *boot;
    int                rank, size, nlanes;
    struct fi_info    *info;          /* lane 0: the ordering the default mode needs */
    struct fi_info    *info_relaxed;  /* the other lanes: no ordering asked */
    struct fid_fabric *fabric;
    struct fid_domain *domain;
    struct fid_av     *av;
    fi_addr_t         *addr;          /* [rank * nlanes + lane] */
    ofi_lane_t         lane[OFI_LANES_MAX];
    /* which lane carries what (ofi_lane_pick): each peer's current lane for
     * unordered traffic, and the RMA bytes in flight on each lane */
    uint8_t           *peer_lane;     /* [rank] */
    size_t             lane_inflight[OFI_LANES_MAX];
    ofi_spread_t       spread;        /* whether spreading large transfers pays */
    uint64_t           lane_short_at[OFI_LANES_MAX];   /* when its last short put came */
    /* lanes polled (ofi_poll): those that carried something lately, every
     * lane each OFI_COLD_POLL_EVERY-th time */
    unsigned           lane_used_at[OFI_LANES_MAX];    /* polls at its last post or completion */
    unsigned           polls;         /* ofi_poll calls: the lanes' clock */
    int                poll_all;      /* the helper's turn: every lane */
    /* memory registration */
    uint64_t           mr_mode;
    int                mr_local;      /* local buffers need descriptors */
    int                mr_per_lane;   /* FI_MR_ENDPOINT: an MR per endpoint */
    uint64_t           next_key, next_mem_id;
    size_t             max_msg;
    size_t             put_piece;     /* a longer put goes in pieces of this, in turn */
    size_t             inject_max;
    struct ordo_tl_mem *mems;         /* exposed here, for atomic requests */
    /* message buffers: one registered pool, receives then sends */
    size_t             buf_size;      /* wire header + largest message */
    unsigned           nrx, ntx;      /* receives per lane, sends in all */
    char              *pool;
    size_t             pool_len;
    struct fid_mr     *pool_mr[OFI_LANES_MAX];
    ofi_buf_t         *bufs;
    ofi_buf_t         *tx_free;
    unsigned           ntx_free;
    /* bounce buffers for small RMA from unregistered memory (FI_MR_LOCAL) */
    size_t             bounce_size;
    unsigned           nbounce;
    char              *bounce_pool;
    struct fid_mr     *bounce_mr[OFI_LANES_MAX];
    char             **bounce_free;   /* stack of free buffers */
    unsigned           bounce_top;
    /* registration cache of local buffers, one per lane with FI_MR_ENDPOINT */
    ordo_rcache_t     *rcache[OFI_LANES_MAX];
    struct ofi_rc_arg {
        struct ofi_iface *o;
        unsigned          lane;
        int               ret;       /* the provider's answer to the last registration */
    } rc_arg[OFI_LANES_MAX];
    /* pinning emulated (ORDO_OFI_MR_LOCAL=2; ofi_mr.c) */
    int                pin;
    struct ofi_pin    *pins;          /* what each pinned registration locked */
    int                pin_refused;   /* the last try: 1 over the limit, 2 mlock refused */
    int                pin_errno;
    ofi_buf_t         *rx_parked_head, *rx_parked_tail;  /* arrived, not yet handed up */
    ofi_buf_t         *rx_repost;     /* receive buffers the provider refused for now */
    unsigned           held[OFI_LANES_MAX];   /* receive buffers the layer above keeps */
    unsigned           nparked;
    /* operations */
    ofi_op_t          *op_free;
    ofi_op_t          *backlog_head, *backlog_tail;      /* refused with -FI_EAGAIN */
    ofi_op_t          *done_head, *done_tail;            /* completed, not yet reported */
    ofi_op_t         **reply_slot;    /* atomics and batches awaiting a reply, by id */
    uint32_t           reply_cap, reply_free_hint, reply_used;
    ofi_reply_t       *reply_backlog;
    /* RMA posted to each peer on each lane and not yet complete, kept to
     * inflight_max bytes beyond a few pieces (0: no limit): an operation
     * that would pass it waits in the backlog, where only those of the same
     * peer and lane wait behind it */
    size_t             inflight_max;
    struct ofi_flight {
        size_t   bytes;
        uint32_t pieces;
        uint32_t held_pass;           /* the backlog pass that held one of them */
    }                 *flight;        /* [rank * nlanes + lane] */
    uint32_t           pass;
    unsigned           works;         /* ofi_work calls: paces the dead-peer sweep */
    /* short puts gathered into messages (ofi_batch.c) */
    size_t             batch_max;     /* puts of at most this many bytes; 0: off */
    size_t             batch_bytes;   /* the most a batch's message holds */
    ofi_op_t         **batch_open;    /* [rank * nlanes + lane]: filling, not sent */
    ofi_op_t          *batch_list;    /* the same, linked */
    _Atomic int        batch_waiting; /* some batch or bundle is open: the helper looks
                                         often */
    /* short messages gathered into one (ofi_bundle.c) */
    size_t             bundle_max;    /* messages of at most this many bytes; 0: off */
    struct ofi_bundle_slot {          /* [rank * nlanes + lane] */
        ofi_buf_t *open;              /* filling, not sent */
        /* the burst: messages sent between two drives */
        uint32_t   drive;             /* the drive the last one followed */
        uint16_t   count;             /* how many followed it */
        uint8_t    several;           /* the burst before had more than one */
    }                 *bundle_slot;
    ofi_buf_t         *bundle_list;   /* the open bundles, linked */
    uint32_t           drives;        /* ofi_work calls, from 1 */
    int                polling;       /* inside ofi_poll: sends do not poll again */
    /* the progress helper (ORDO_OFI_PROGRESS=thread) */
    int                threaded;
    pthread_mutex_t    lock;          /* recursive; taken by every entry point */
    pthread_t          helper_thread;
    int                stop_pipe[2];
    _Atomic uint64_t   last_active_ns;           /* the program last drove the transport */
} ofi_iface_t;

/* Unordered operations keep to their peer's current lane, so that short
 * puts fill one batch and short messages one bundle, as on one lane; a
 * transfer of at least OFI_LANE_LARGE bytes goes to the lane with the fewest
 * bytes in flight (the current one on a tie: a lone large put stays with
 * what follows it) where spreading measured faster (ofi_spread.h), and a
 * peer whose lane has OFI_LANE_BUSY bytes in flight moves to the least
 * loaded one. */
#define OFI_LANE_LARGE (64u << 10)
#define OFI_LANE_BUSY  (256u << 10)
/* A short put this long after the lane's last one, on an idle lane, goes
 * alone rather than in a batch: a put the program then waits for, where
 * puts of a window come tens of nanoseconds apart (ofi_rma.c, transfer). */
#define OFI_ALONE_GAP_NS 2000u
/* A lane that carried nothing over the last OFI_LANE_COLD_POLLS polls is
 * polled only every OFI_COLD_POLL_EVERY-th time: reading an empty
 * completion queue drives the provider's progress over its endpoint (a
 * system call on tcp), and every lane read every time made a window of
 * 8-byte messages over 4 lanes 10-25% slower than over one, also on a
 * machine with idle cores.  Counted in polls, not time: no clock read per
 * operation, and a program that polls rarely keeps its lanes warm. */
#define OFI_LANE_COLD_POLLS 1024u
#define OFI_COLD_POLL_EVERY 8u
static inline void ofi_lane_used(ofi_iface_t *o, unsigned lane)
{
    o->lane_used_at[lane] = o->polls;
}
/* The lane for an operation of len bytes to rank; ordered ones take lane 0,
 * whose endpoint keeps the order (ordered_pairs).  Counted in the stats.
 * *measured: it is one of the transfers o->spread learns from, to be
 * reported done to it (ofi_spread_done). */
unsigned ofi_lane_pick(ofi_iface_t *o, int rank, size_t len, int ordered, uint8_t *measured);

/* ofi.c */
ordo_status_t ofi_status(int fi_err);
void          ofi_post_error(ofi_iface_t *o, const char *what, int rank, ssize_t ret);
void          ofi_poll(ofi_iface_t *o);
static inline void *ofi_pool_desc(ofi_iface_t *o, unsigned lane)
{
    struct fid_mr *mr = o->pool_mr[o->mr_per_lane ? lane : 0];
    return mr ? fi_mr_desc(mr) : NULL;
}

/* Send a message from the lane's buffer pool.  Its completion only returns
 * the buffer, so it asks for no more than that (FI_INJECT_COMPLETE): the
 * endpoint's default, delivery-complete for RMA, costs each message the
 * provider's acknowledgement on tcp (a system call at each end; a 128-byte
 * one-way over --nodes 2 took 10 us with it, 5 without), and ordo's own
 * protocols acknowledge whatever needs it. */
static inline ssize_t ofi_send_buf(ofi_iface_t *o, unsigned lane, void *buf, size_t len,
                                   fi_addr_t dest, void *ctx)
{
    struct iovec iov = {.iov_base = buf, .iov_len = len};
    void *desc = ofi_pool_desc(o, lane);
    struct fi_msg msg = {.msg_iov = &iov, .desc = &desc, .iov_count = 1, .addr = dest,
                         .context = ctx};
    return fi_sendmsg(o->lane[lane].ep, &msg, FI_INJECT_COMPLETE | FI_COMPLETION);
}

/* ofi_progress.c: progress, the helper thread, the locked entry points */
unsigned      ofi_work(ofi_iface_t *o);
void          ofi_hold(ordo_tl_iface_t *iface, int on);
void          ofi_mark_active(ofi_iface_t *o);
ordo_status_t ofi_helper_start(ofi_iface_t *o);
void          ofi_helper_stop(ofi_iface_t *o);
unsigned      ofi_progress(ordo_tl_iface_t *iface);
void          ofi_drive(ordo_tl_iface_t *iface);
ordo_status_t ofi_l_put(ordo_tl_iface_t *iface, ordo_tl_rkey_t *rkey, size_t offset,
                        const void *src, size_t len, unsigned flags, ordo_tl_comp_t *comp);
ordo_status_t ofi_l_get(ordo_tl_iface_t *iface, ordo_tl_rkey_t *rkey, size_t offset,
                        void *dst, size_t len, unsigned flags, ordo_tl_comp_t *comp);
ordo_status_t ofi_l_atomic(ordo_tl_iface_t *iface, ordo_tl_rkey_t *rkey, size_t offset,
                           ordo_atomic_op_t op, unsigned width, uint64_t value,
                           uint64_t compare, uint64_t *result, unsigned flags,
                           ordo_tl_comp_t *comp);
ordo_status_t ofi_l_am_short(ordo_tl_iface_t *iface, int rank, const void *hdr, size_t hdrlen,
                             const void *payload, size_t len);
ordo_status_t ofi_l_am_bcopy(ordo_tl_iface_t *iface, int rank, const void *hdr, size_t hdrlen,
                             const void *payload, size_t len);
void          ofi_l_am_release(ordo_tl_iface_t *iface, void *desc);
ordo_status_t ofi_l_mem_expose(ordo_tl_iface_t *iface, const ordo_tl_mem_params_t *params,
                               ordo_tl_mem_t **mem_p, void *blob, size_t *bloblen_p);
void          ofi_l_mem_release(ordo_tl_iface_t *iface, ordo_tl_mem_t *mem);
void          ofi_l_mem_published(ordo_tl_iface_t *iface, ordo_tl_mem_t *mem);
ordo_status_t ofi_l_rkey_open(ordo_tl_iface_t *iface, int rank, const void *blob,
                              size_t bloblen, ordo_tl_rkey_t **rkey_p);
void          ofi_l_rkey_close(ordo_tl_iface_t *iface, ordo_tl_rkey_t *rkey);

/* ofi_am.c: messages */
ordo_status_t ofi_am_open(ofi_iface_t *o);
void          ofi_am_close(ofi_iface_t *o);
void          ofi_am_rx_complete(ofi_iface_t *o, ofi_buf_t *b, size_t len);
void          ofi_am_tx_complete(ofi_iface_t *o, ofi_buf_t *b, ordo_status_t st);
unsigned      ofi_am_deliver_parked(ofi_iface_t *o);
unsigned      ofi_am_repost_pending(ofi_iface_t *o);
void          ofi_am_spill(ofi_iface_t *o);
ordo_status_t ofi_am_send(ofi_iface_t *o, int rank, unsigned lane, uint8_t kind,
                          const void *hdr, size_t hdrlen, const void *payload, size_t len);
ordo_status_t ofi_am_short(ordo_tl_iface_t *iface, int rank, const void *hdr, size_t hdrlen,
                           const void *payload, size_t len);
ordo_status_t ofi_am_bcopy(ordo_tl_iface_t *iface, int rank, const void *hdr, size_t hdrlen,
                           const void *payload, size_t len);
void          ofi_am_release(ordo_tl_iface_t *iface, void *desc);

/* ofi_expose.c: memory exposed to peers, their keys */
#define OFI_ACCESS_ALL (FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE)
ordo_status_t ofi_mem_expose(ordo_tl_iface_t *iface, const ordo_tl_mem_params_t *params,
                             ordo_tl_mem_t **mem_p, void *blob, size_t *bloblen_p);
void          ofi_mem_release(ordo_tl_iface_t *iface, ordo_tl_mem_t *mem);
void          ofi_mem_free(ofi_iface_t *o, struct ordo_tl_mem *m);
ordo_status_t ofi_rkey_open(ordo_tl_iface_t *iface, int rank, const void *blob, size_t bloblen,
                            ordo_tl_rkey_t **rkey_p);
void          ofi_rkey_close(ordo_tl_iface_t *iface, ordo_tl_rkey_t *rkey);
ordo_status_t ofi_rkey_ptr(ordo_tl_iface_t *iface, ordo_tl_rkey_t *rkey, void **ptr_p);
/* A registration of [addr, addr+len) from lane's registration cache; what
 * failed is logged as a registration of `what`. */
ordo_status_t ofi_cached_reg(ofi_iface_t *o, unsigned lane, void *addr, size_t len,
                             const char *what, ordo_rcache_entry_t **entry_p);

/* ofi_rma.c: one-sided operations */
ordo_status_t ofi_put(ordo_tl_iface_t *iface, ordo_tl_rkey_t *rkey, size_t offset,
                      const void *src, size_t len, unsigned flags, ordo_tl_comp_t *comp);
ordo_status_t ofi_get(ordo_tl_iface_t *iface, ordo_tl_rkey_t *rkey, size_t offset, void *dst,
                      size_t len, unsigned flags, ordo_tl_comp_t *comp);
ordo_status_t ofi_atomic(ordo_tl_iface_t *iface, ordo_tl_rkey_t *rkey, size_t offset,
                         ordo_atomic_op_t op, unsigned width, uint64_t value, uint64_t compare,
                         uint64_t *result, unsigned flags, ordo_tl_comp_t *comp);
void          ofi_op_piece_done(ofi_iface_t *o, ofi_op_t *op, ordo_status_t st);
void          ofi_amo_serve(ofi_iface_t *o, int src, unsigned lane, const ofi_amo_req_t *req);
void          ofi_amo_reply(ofi_iface_t *o, int src, const ofi_amo_rep_t *rep);
unsigned      ofi_backlog_retry(ofi_iface_t *o);
/* The limit of RMA bytes in flight to one peer on one lane for a provider
 * (ORDO_OFI_INFLIGHT_MAX; 0: none). */
size_t        ofi_inflight_wanted(const char *prov);
/* The pieces a long put goes in for a provider (its largest message on a NIC). */
size_t        ofi_put_piece_wanted(const char *prov, size_t max_msg);
unsigned      ofi_report_done(ofi_iface_t *o);
int           ofi_mr_reg(ofi_iface_t *o, void *addr, size_t len, uint64_t access, unsigned lane,
                         struct fid_mr **mr_p);
void          ofi_mr_close(ofi_iface_t *o, struct fid_mr *mr);
ordo_status_t ofi_mr_error(ofi_iface_t *o, const char *what, size_t len, int ret);
ordo_status_t ofi_rma_open(ofi_iface_t *o);
void          ofi_rma_close(ofi_iface_t *o);
ofi_op_t     *ofi_op_new(ofi_iface_t *o);
void          ofi_op_release(ofi_iface_t *o, ofi_op_t *op);
uint32_t      ofi_reply_slot_take(ofi_iface_t *o, ofi_op_t *op);
void          ofi_reply_slot_clear(ofi_iface_t *o, ofi_op_t *op);
void          ofi_reply_send(ofi_iface_t *o, int rank, unsigned lane, uint8_t kind,
                             const void *data, size_t len);
void          ofi_fail_dead(ofi_iface_t *o);

/* ofi_am.c: the message buffers for sends */
ofi_buf_t    *ofi_tx_take(ofi_iface_t *o);
void          ofi_tx_return(ofi_iface_t *o, ofi_buf_t *b);

/* ofi_batch.c: short puts gathered into messages */
int           ofi_hardware_provider(const char *prov);
void          ofi_update_waiting(ofi_iface_t *o);
size_t        ofi_batch_wanted(const char *prov);
ordo_status_t ofi_batch_open(ofi_iface_t *o);
void          ofi_batch_close(ofi_iface_t *o);
int           ofi_batch_put(ofi_iface_t *o, ofi_op_t *op, ordo_tl_comp_t *comp);
/* A non-fetching atomic (op->aop, width, value) joins the batch: 1, or 0
 * when it must take the ordinary way. */
int           ofi_batch_atomic(ofi_iface_t *o, ofi_op_t *op, ordo_tl_comp_t *comp);
ssize_t       ofi_batch_flush(ofi_iface_t *o, int rank, unsigned lane);
void          ofi_batch_flush_all(ofi_iface_t *o);
void          ofi_batch_apply(ofi_iface_t *o, int src, unsigned lane, const char *msg,
                              size_t len);
void          ofi_batch_acked(ofi_iface_t *o, int src, const ofi_puts_ack_t *ack);
void          ofi_batch_tx_done(ofi_iface_t *o, ofi_op_t *b, ordo_status_t st);
void          ofi_batch_fail(ofi_iface_t *o, ofi_op_t *b, ordo_status_t st);

/* ofi_bundle.c: short messages gathered into one */
int           ofi_bundle_wanted(const char *prov);
ordo_status_t ofi_bundle_open(ofi_iface_t *o);
void          ofi_bundle_close(ofi_iface_t *o);
int           ofi_bundle_add(ofi_iface_t *o, int rank, unsigned lane, const void *hdr,
                             size_t hdrlen, const void *payload, size_t len);
ssize_t       ofi_bundle_flush(ofi_iface_t *o, int rank, unsigned lane);
void          ofi_bundle_flush_all(ofi_iface_t *o);
void          ofi_bundle_hand_up(ofi_iface_t *o, int src, const char *msg, size_t len);

#endif
