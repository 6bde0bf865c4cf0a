/* Two-sided messaging: matching contexts, the matching engine and the
 * protocols.  Reaches transports only through tl/tl.h (active messages for
 * headers and small payloads, rkeys and put/get for rendezvous).
 *
 * Every message carries a per (context, sender, receiver) sequence number.
 * An ordered context hands arrived messages to matching strictly in that
 * order (holding early ones back), so MPI's non-overtaking rule survives a
 * transport that reorders; an overtaking one matches them as they come.
 *
 * Flow control: a sender may have at most `credits` sequenced messages
 * (short, eager, rendezvous requests) of one context at a receiver that the
 * receiver has not yet matched; the receiver gives credits back as it
 * matches them (piggybacked on its next message of that context, or in a
 * credit message).  So the receiver's unexpected and early memory is
 * bounded per context, a sender that hit the bound is held back, never
 * dropped, and contexts never hold each other up (as communicators). */
#ifndef ORDO_P2P_H
#define ORDO_P2P_H

#include "../core/core.h"
#include "../base/config.h"

/* NOTICE: a collective call of context comm failed at a member (seq: the
 * call, tag: its status, sreq: the member, len: flags); see coll/failure.c. */
enum p2p_type { P2P_MSG = 1, P2P_RTS, P2P_CTS, P2P_FIN, P2P_FRAG, P2P_CREDIT, P2P_NOTICE };
/* Wire values; PIPE is rendezvous data pushed through bounce buffers when no
 * single copy is possible (or when eager is forced for a large message). */
enum p2p_proto { PROTO_SHORT = 1, PROTO_EAGER, PROTO_RGET, PROTO_RPUT, PROTO_PIPE,
                 PROTO_SPLIT /* CTS: both copy, the receiver gets the front, the sender
                                puts the back (a cooperative rendezvous-get) */ };

typedef struct p2p_hdr {
    uint8_t  type;      /* p2p_type */
    uint8_t  proto;     /* p2p_proto */
    uint16_t credits;   /* credits of context comm handed back to the receiver */
    uint32_t comm;      /* context id */
    int32_t  tag;       /* MSG/RTS: tag; FIN: status */
    uint32_t seq;       /* MSG/RTS: sequence number */
    uint64_t len;       /* MSG/RTS: message length; CTS: bytes accepted; FRAG: offset */
    uint64_t sreq;      /* the sender's request */
    uint64_t rreq;      /* the receiver's request; RTS: P2P_RTS_* flags */
} p2p_hdr_t;

/* RTS flag: the send is not synchronous and within the eager limit, so its
 * receiver may take the data before the receive is posted (pull.c). */
#define P2P_RTS_PULLABLE 1u
/* RTS flag: the send has completed (its data was copied aside, as a send
 * within the eager limit completes once copied out), so nothing at the
 * sender waits for this message and its program may never call again: the
 * receiver moves the data alone where it can (never split, and pulled by
 * single copy even under ORDO_RNDV=put). */
#define P2P_RTS_DONE 2u

/* A message that arrived and waits: ahead of its sequence (early) or for a
 * receive (unexpected).  On the stack while it is being matched at once. */
typedef struct p2p_msg {
    struct p2p_msg *next, *prev;
    int             src;
    uint32_t        comm;
    int32_t         tag;
    uint32_t        seq;
    uint8_t         proto;
    uint8_t         owned;      /* a kept record (else on the stack) */
    uint8_t         pullable;   /* RTS: P2P_RTS_PULLABLE was set */
    uint8_t         sender_done; /* RTS: P2P_RTS_DONE was set */
    uint64_t        len;
    uint64_t        sreq;
    void           *data;       /* payload (short, eager) or buffer description (RTS) */
    size_t          datalen;
    void           *desc;       /* bounce buffer kept, or NULL */
    struct p2p_pull *pull;      /* an unexpected rendezvous pulled here (pull.c), or NULL */
    size_t          room;       /* bytes of inline[] */
    char            inline_data[];
} p2p_msg_t;

enum p2p_kind { P2P_SEND = 1, P2P_RECV = 2 };
enum p2p_phase {
    PHASE_QUEUED = 1,   /* send: waiting for credits or queue space */
    PHASE_POSTED,       /* recv: in the posted queue */
    PHASE_RNDV,         /* waiting for the peer's CTS or FIN */
    PHASE_DATA,         /* single-copy transfer in flight */
    PHASE_FRAGS,        /* pushing / receiving bounce-buffer fragments */
    PHASE_DONE
};

typedef struct ordo_comm p2p_comm_t;

typedef struct p2p_req {
    struct ordo_request super;
    uint8_t         kind, proto, phase;
    p2p_comm_t     *comm;
    int             peer;        /* send: dest; recv: the source asked for (or ANY) */
    int             rsrc;        /* recv: the source it matched */
    int32_t         tag;
    uint32_t        seq;
    void           *buf;
    size_t          len;         /* send: length; recv: capacity */
    size_t          deliver;     /* bytes that move (the smaller of message and buffer) */
    size_t          moved;       /* fragments pushed / arrived */
    size_t          split;       /* SPLIT: where the sender's part begins */
    uint8_t         parts;       /* SPLIT: halves finished (ours, and the peer's FIN) */
    uint8_t         banded;      /* send: a bounce buffer's size, sent by rendezvous
                                    (counted in its peer's band_out) */
    uint8_t         in_rndv;     /* send: its request-to-send went (counted in its
                                    peer's rndv_out) */
    uint8_t         aside;       /* send: P2P_ASIDE_* */
    uint8_t         pullable;    /* send: its RTS says P2P_RTS_PULLABLE */
    uint32_t        slot;        /* its index in p2p->reqs, for life */
    uint32_t        gen;         /* bumped at each reuse: with slot, its token */
    uint64_t        peer_req;    /* the peer's token for its request */
    ordo_tl_mem_t  *mem;
    ordo_tl_rkey_t *rkey;
    struct p2p_req *qnext, *qprev;   /* posted queue, or a peer's send / pipe queue */
    struct p2p_req *anext, *aprev;   /* every unfinished request */
} p2p_req_t;

/* A send within the eager limit completes once its data is copied out
 * (ordo.h).  One that was to go eager but found every bounce buffer taken
 * (by messages its receiver has not matched) goes by rendezvous, copied
 * into a buffer of ours when its request-to-send goes out (ASIDE_MAY on
 * the program's request), and a request of ours (ASIDE_HELD, nobody holds
 * it) carries it to the end. */
enum p2p_aside { P2P_ASIDE_NO = 0, P2P_ASIDE_MAY, P2P_ASIDE_HELD };

struct ordo_comm {
    uint32_t      magic;
    uint32_t      id;            /* the same at every member (agreed at creation) */
    ordo_match_t  match;
    int           nmembers;
    int          *members;       /* world ranks, ascending */
    int          *index_of;      /* world rank -> member index, or -1 */
    int           my_index;
    int           slot;          /* collective scratch slot, or -1 (see coll/) */
    uint32_t      coll_seq;      /* collective calls made on the context */
    void         *coll_fails;    /* the collectives' record of failed calls, or NULL
                                    while none failed (freed with the context) */
    uint32_t     *send_seq;      /* per destination */
    uint32_t     *recv_seq;      /* per source: next in order */
    uint32_t     *credits;       /* per destination: sequenced messages we may still send */
    uint32_t     *owed;          /* per source: credits we owe it on this context */
    uint32_t     *nqueued;       /* per destination: our sends in its send queue */
    uint32_t      flush_pass;    /* a queue flush found this context out of credits */
    p2p_req_t    *posted_head, *posted_tail;
    p2p_msg_t    *unexp_head, *unexp_tail;
};

/* A control message that found the peer's queue full. */
typedef struct p2p_ctl {
    struct p2p_ctl *next;
    p2p_hdr_t       hdr;
    size_t          bloblen;
    char            blob[ORDO_TL_BLOB_MAX];
} p2p_ctl_t;

typedef struct p2p_peer {
    p2p_req_t  *sendq_head, *sendq_tail;   /* sequenced sends waiting, every context */
    p2p_req_t  *pipe_head, *pipe_tail;
    p2p_ctl_t  *ctl_head, *ctl_tail;
    p2p_msg_t  *early;           /* arrived ahead of sequence (ordered contexts) */
    unsigned    bounces_held;    /* its messages kept here in its bounce buffers */
    unsigned    band_out;        /* our sends to it of a bounce buffer's size going by
                                    rendezvous, unfinished */
    unsigned    rndv_out;        /* our rendezvous sends to it whose request-to-send
                                    went, unfinished (a message of its that meets one
                                    is an exchange) */
    int         no_single_copy;  /* a rendezvous to it found single copy refused */
    unsigned    recvs_posted;    /* receives posted here naming it as their source */
    int         dead;
} p2p_peer_t;

#define P2P_MAGIC_COMM 0x434f4d4du  /* "COMM" */
#define P2P_SMALL_ROOM 256          /* inline bytes of pooled message records */

/* Internal tags are negative: user tags are 0 .. ORDO_TAG_MAX and
 * ORDO_ANY_TAG matches only those, so runtime traffic (context creation,
 * collectives) never meets a user's receive. */
#define P2P_TAG_CREATE  (-2)
#define P2P_TAG_DESTROY (-3)
#define P2P_TAG_SPLIT   (-4)
#define P2P_TAG_AGREE   (-5)   /* the core's agreed steps (p2p_ctl_allgather) */
/* Collective tags: bit 31 set, bit 30 clear (coll/sched.c). */
#define P2P_IS_COLL_TAG(tag) (((uint32_t)(tag) & 0xc0000000u) == 0x80000000u)
#define P2P_CTL_COMM    1u          /* the runtime's own context, every rank */
#define P2P_MAX_SLOTS   64

typedef struct p2p_state {
    int                  rank, size;
    uint32_t             next_id;       /* lowest context id never used here */
    uint64_t             slots_free;    /* collective scratch slots, a bit each */
    p2p_msg_t           *future;        /* arrived for contexts not yet created here */
    /* Called when a context gives its scratch slot back, once every member
     * is done with it (set by the collectives). */
    void               (*slot_reset)(int slot);
    /* A member's notice that a collective call failed (set by the
     * collectives; the header is the peer's, checked there). */
    void               (*coll_notice)(p2p_comm_t *c, int src, const p2p_hdr_t *h);
    /* Whether a collective message of c with that tag is to be dropped
     * (its call failed here); asked only while c->coll_fails is set. */
    int                (*coll_drops)(p2p_comm_t *c, int32_t tag);
    p2p_ctl_t           *future_notices;   /* notices for contexts not yet created here */
    ordo_tl_am_limits_t  lim;
    int                  single_copy;   /* rendezvous may use rkeys */
    p2p_peer_t          *peers;
    p2p_comm_t         **comms;
    uint32_t             ncomms, capcomms;
    p2p_req_t           *free_reqs;
    /* every request object ever made (they are reused, never freed before
     * finalize), by slot: a token on the wire names one of them */
    p2p_req_t          **reqs;
    uint32_t             nreqs, capreqs;
    p2p_msg_t           *free_msgs;     /* records with P2P_SMALL_ROOM */
    p2p_ctl_t           *free_ctls;
    p2p_req_t           *active;
    unsigned             queued;        /* peers' sendq + pipeq + ctlq entries */
    unsigned             pulls;         /* unexpected rendezvous being pulled (pull.c) */
    struct p2p_pull     *pull_head, *pull_tail;   /* pulls waiting to start */
    uint32_t             flush_pass;    /* counts send-queue flushes (p2p_comm_t) */
    unsigned             tick;
    ordo_stats_t         stats;
} p2p_state_t;

extern p2p_state_t *p2p;

static inline p2p_peer_t *p2p_peer(int rank) { return &p2p->peers[rank]; }

/* Whether a message of len bytes that a bounce buffer holds goes eager to
 * peer p rather than by rendezvous (single_copy: the transport reaches it
 * by one).  Above the transport's crossover (eager_cross) one copy beats
 * two, but only for a message that goes alone: while one of ours to the
 * peer is still being pulled, the next ones go through bounce buffers, so
 * sender and receiver copy at once (a window of sends streams at the rate
 * of both CPUs, not the receiver's alone).  Not while we wait for messages
 * from the peer too: then both CPUs copy anyway, and bounce buffers would
 * make each copy twice (16-core Xeon, a window of 32 KiB both ways: 16 GB/s
 * against 20-22 by single copies). */
static inline int p2p_goes_eager(size_t len, size_t eager_cross, const p2p_peer_t *p,
                                 int single_copy)
{
    return len <= eager_cross || (p->band_out && !p->recvs_posted) || p->no_single_copy ||
           !single_copy;
}

/* Whether a record of n bytes from a peer holds the message its header
 * says: the header, and for a short or eager message (P2P_MSG) exactly the
 * payload the header counts, for a pipelined request-to-send (its first
 * fragment) no more than that.  The header is memory the peer wrote: its
 * length bounds no copy until this holds. */
static inline int p2p_msg_len_ok(const p2p_hdr_t *h, size_t n)
{
    if (n < sizeof(*h))
        return 0;
    if (h->type == P2P_RTS && h->proto == PROTO_PIPE)   /* with its first fragment */
        return (uint64_t)h->len >= n - sizeof(*h);
    return h->type != P2P_MSG ||
           ((h->proto == PROTO_SHORT || h->proto == PROTO_EAGER) &&
            (uint64_t)h->len == n - sizeof(*h));
}

/* The live context of that id here, or NULL (never made, or destroyed). */
static inline p2p_comm_t *p2p_comm_live(uint32_t id)
{
    p2p_comm_t *c = id < p2p->ncomms ? p2p->comms[id] : NULL;
    return c != NULL && c->magic == P2P_MAGIC_COMM ? c : NULL;
}

/* A request as named in headers (sreq, rreq): slot and generation, never
 * its address, since the peer's headers are memory it could write. */
static inline uint64_t p2p_token(const p2p_req_t *r)
{
    return (uint64_t)r->gen << 32 | r->slot;
}

/* The request a token names, if its object is still that use of it (slot
 * and generation match: finished or not), else NULL; nothing is logged. */
static inline p2p_req_t *p2p_req_at(uint64_t token)
{
    uint32_t slot = (uint32_t)token, gen = (uint32_t)(token >> 32);
    p2p_req_t *r = slot < p2p->nreqs ? p2p->reqs[slot] : NULL;
    return r != NULL && r->gen == gen ? r : NULL;
}

/* The unfinished request of ours a peer's header names, or NULL (logged)
 * when it names none: a stale or forged token is never dereferenced. */
p2p_req_t *p2p_req_of_token(uint64_t token, int src, const char *what);

/* pull.c */
/* m (kept, in its context's unexpected list) is a pullable rendezvous-get
 * of at most ORDO_EAGER_MAX bytes: pull it into memory of ours, at once or
 * when it is still unexpected a little later; its sender then completes
 * (FIN).  Nothing happens for other messages, or without memory: it stays
 * the rendezvous it came as. */
void     p2p_pull_arrived(p2p_msg_t *m);
/* Start the pulls whose wait is over (the layer's progress). */
unsigned p2p_pull_progress(void);
/* For p2p_deliver: 1 when m's pull is copying and hands the message to r
 * when it ends; 0 when nothing runs (a pull not started is given up). */
int      p2p_pull_wait(p2p_msg_t *m, p2p_req_t *r);
/* For p2p_msg_free / p2p_msg_drop: m goes away.  1 when a pull in flight
 * tells the sender st when it ends (the caller sends no FIN). */
int      p2p_pull_detach(p2p_msg_t *m, ordo_status_t st);

/* match.c */
void p2p_overtaking_seen(p2p_comm_t *c, int src, uint32_t seq);
ordo_status_t p2p_incoming(int src, const p2p_hdr_t *h, void *payload, size_t plen,
                           void *desc);
p2p_msg_t    *p2p_unexpected_find(p2p_comm_t *c, int src, int tag);
void          p2p_unexpected_unlink(p2p_comm_t *c, p2p_msg_t *m);
void          p2p_msg_free(p2p_msg_t *m);
void          p2p_posted_append(p2p_comm_t *c, p2p_req_t *r);
void          p2p_posted_unlink(p2p_comm_t *c, p2p_req_t *r);
/* A message of c from src was matched (or dropped): its credit goes back. */
void          p2p_credit_return(p2p_comm_t *c, int src);
/* The same for a context that does not exist here (any more). */
void          p2p_credit_return_id(uint32_t comm, int src);
/* Credits a header from src hands back (its context's). */
void          p2p_credits_arrived(int src, const p2p_hdr_t *h);
/* Up to 0xffff of what c owes peer, taken for a header. */
uint16_t      p2p_take_owed(p2p_comm_t *c, int peer);

/* Admit a kept message of a context created after it arrived. */
void          p2p_admit_future(p2p_comm_t *c);
/* Drop m (unlinked) with its credit; a rendezvous sender is told st, so it
 * never waits for a receive that will not come. */
void          p2p_msg_drop(p2p_comm_t *c, p2p_msg_t *m, ordo_status_t st);
/* Drop c's unexpected collective messages that c->coll_drops names;
 * returns how many. */
size_t        p2p_drop_coll_unexpected(p2p_comm_t *c, ordo_status_t st);

/* For the runtime's own traffic (any tag, no argument checks; c valid).
 * Same results as ordo_send_nb / ordo_recv_nb. */
ordo_status_t p2p_isend(p2p_comm_t *c, const void *buf, size_t len, int dest, int tag,
                        ordo_request_h *req_p);
ordo_status_t p2p_irecv(p2p_comm_t *c, void *buf, size_t cap, int source, int tag,
                        ordo_request_h *req_p);
/* The context behind a handle (NULL: the world), or an error. */
static inline ordo_status_t p2p_comm_resolve(ordo_comm_h h, p2p_comm_t **c_p)
{
    p2p_comm_t *c = h ? h : p2p->comms[0];
    if (ORDO_UNLIKELY(c->magic != P2P_MAGIC_COMM))
        return ORDO_ERR_INVALID_HANDLE;
    *c_p = c;
    return ORDO_OK;
}

/* proto.c */
/* A context with an agreed id over members (ascending world ranks; NULL:
 * every rank), and its end (comm.c). */
ordo_status_t p2p_comm_new(ordo_match_t match, uint32_t id, const int *members, int n, int slot,
                           p2p_comm_t **comm_p);
void          p2p_comm_retire(p2p_comm_t *c);
/* Every member's len bytes (members[n]; NULL: every rank), in member
 * order, over the runtime's own context: the core's agree_allgather
 * (region create and free). */
ordo_status_t p2p_ctl_allgather(const int *members, int n, const void *mine, size_t len,
                                void *all);
/* The core's comm_members (regions over a context). */
ordo_status_t p2p_comm_members(ordo_comm_h comm, int **members_p, int *n_p);
/* The protocol of a send of len bytes to dest; *banded: a rendezvous chosen
 * for a size the bounce buffers hold (see p2p_choose_proto). */
int           p2p_choose_proto(size_t len, int dest, int *banded);
ordo_status_t p2p_send_start(p2p_req_t *r);
/* Deliver m to the receive r.  1: m stays, its pull still copying hands it
 * to r (p2p_pull_wait); the caller frees m only on 0. */
int           p2p_deliver(p2p_req_t *r, p2p_msg_t *m);
ordo_status_t p2p_am_handler(void *arg, int src, void *data, size_t len, void *desc);
unsigned      p2p_progress_queues(void);
void          p2p_send_ctl(int peer, p2p_hdr_t *h, const void *blob, size_t bloblen);
void          p2p_fail_peer(int rank);
/* proto.c, for dead.c: a request out of a peer's send or pipe queue; a
 * half of a split rendezvous finished (both: the request completes). */
void          p2p_queue_unlink(p2p_req_t **head, p2p_req_t **tail, p2p_req_t *r);
void          p2p_split_part_done(p2p_req_t *r, ordo_status_t st);
/* notice.c: hand c the failure notices that arrived before it was created
 * here */
void          p2p_admit_future_notices(p2p_comm_t *c);
/* A P2P_NOTICE from src (notice.c) */
void          p2p_on_notice(int src, const p2p_hdr_t *h);

/* p2p.c */
void p2p_req_done(p2p_req_t *r, ordo_status_t st);
/* A request of ours holding a copy of send r's data (P2P_ASIDE_HELD), to
 * take r's place on the wire; NULL without memory (r then goes as it is). */
p2p_req_t *p2p_req_aside(const p2p_req_t *r);
/* Give up an aside request that never went out. */
void p2p_req_aside_drop(p2p_req_t *d);
/* The argument checks of ordo_send_nb / ordo_recv_nb (logged as theirs). */
ordo_status_t p2p_send_check(ordo_comm_h comm, const void *buf, size_t len, int dest, int tag);
ordo_status_t p2p_recv_check(ordo_comm_h comm, void *buf, size_t cap, int source, int tag);
/* persist.c: every persistent request object goes at finalize */
void p2p_persist_fini(void);
/* Blocking messages on the runtime's own context (any tag). */
ordo_status_t p2p_ctl_send(const void *buf, size_t len, int dest, int tag);
ordo_status_t p2p_ctl_recv(void *buf, size_t len, int src, int tag);
/* Create a context over members (world ranks, in the context's member
 * order; this rank among them), collectively with them; failures agreed
 * (what names the call in the log). */
ordo_status_t p2p_comm_create_over(ordo_match_t match, const int *members, int n,
                                   const char *what, p2p_comm_t **c_p);
/* Give back the buffer r exposed to its peer, if any (p2p_req_done does). */
void p2p_req_unexpose(p2p_req_t *r);
void p2p_active_unlink(p2p_req_t *r);

#endif
