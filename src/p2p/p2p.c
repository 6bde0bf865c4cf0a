/* Two-sided messaging: the layer, requests and the sending and receiving
 * calls (contexts: comm.c). */
#include <stdlib.h>
#include <string.h>

#include "p2p.h"
#include "../base/log.h"

p2p_state_t *p2p;

/* ------------------------------------------------------------ requests */

static void req_release(struct ordo_request *op)
{
    p2p_req_t *r = (p2p_req_t *)op;
    r->super.magic = ORDO_MAGIC_DEAD;
    r->qnext = p2p->free_reqs;
    p2p->free_reqs = r;
}

static ordo_status_t req_cancel(struct ordo_request *op)
{
    p2p_req_t *r = (p2p_req_t *)op;
    if (r->kind != P2P_RECV)
        return ORDO_ERR_UNSUPPORTED;
    if (r->phase == PHASE_POSTED) {
        p2p_posted_unlink(r->comm, r);
        r->super.info.cancelled = 1;
        p2p_req_done(r, ORDO_OK);
    }
    return ORDO_OK;
}

/* A new request object, entered in the token table. */
static p2p_req_t *req_new(void)
{
    if (p2p->nreqs == p2p->capreqs) {
        uint32_t cap = p2p->capreqs ? p2p->capreqs * 2 : 64;
        p2p_req_t **a = realloc(p2p->reqs, cap * sizeof(*a));
        if (a == NULL)
            return NULL;
        p2p->reqs = a;
        p2p->capreqs = cap;
    }
    p2p_req_t *r = calloc(1, sizeof(*r));   /* never persistent, never an inner */
    if (r == NULL)
        return NULL;
    r->slot = p2p->nreqs;
    r->gen = 0;
    p2p->reqs[p2p->nreqs++] = r;
    return r;
}

p2p_req_t *p2p_req_of_token(uint64_t token, int src, const char *what)
{
    p2p_req_t *r = p2p_req_at(token);
    if (r && r->super.state == ORDO_OP_INFLIGHT &&
        (r->kind == P2P_SEND ? r->peer : r->rsrc) == src)
        return r;
    /* A late answer for a request that already failed (its peer was
     * declared dead) is expected; anything else is a corrupt header. */
    if (r == NULL)
        ordo_error("rank %d sent a %s naming no request of ours (token 0x%llx): a corrupt "
                   "or forged header, ignored", src, what, (unsigned long long)token);
    return NULL;
}

static p2p_req_t *req_alloc(int kind, p2p_comm_t *c, int peer, int tag, void *buf, size_t len)
{
    p2p_req_t *r = p2p->free_reqs;
    if (ORDO_LIKELY(r != NULL))
        p2p->free_reqs = r->qnext;
    else if ((r = req_new()) == NULL)
        return NULL;
    r->gen++;   /* tokens of its earlier uses name nothing now */
    /* Only what the p2p paths read before writing (no full clear: this is
     * on every receive's path). */
    r->super.magic = ORDO_MAGIC_REQUEST;
    r->super.type = ORDO_OP_P2P;
    r->super.state = ORDO_OP_INFLIGHT;
    r->super.user_held = 1;
    r->super.status = ORDO_OK;
    r->super.stream = NULL;
    r->super.release = req_release;
    r->super.cancel = req_cancel;
    r->super.info = (ordo_completion_t){.source = -1, .tag = -1};
    r->aprev = NULL;
    r->qnext = r->qprev = NULL;
    r->proto = r->phase = 0;
    r->seq = 0;
    r->deliver = r->moved = r->split = 0;
    r->parts = r->banded = r->in_rndv = r->aside = r->pullable = 0;
    r->peer_req = 0;
    r->mem = NULL;
    r->rkey = NULL;
    r->kind = (uint8_t)kind;
    r->comm = c;
    r->peer = peer;
    r->rsrc = -1;
    r->tag = tag;
    r->buf = buf;
    r->len = len;
    r->anext = p2p->active;
    if (p2p->active)
        p2p->active->aprev = r;
    p2p->active = r;
    return r;
}

void p2p_active_unlink(p2p_req_t *r)
{
    if (r->aprev) r->aprev->anext = r->anext; else p2p->active = r->anext;
    if (r->anext) r->anext->aprev = r->aprev;
    r->anext = r->aprev = NULL;
}

void p2p_req_unexpose(p2p_req_t *r)
{
    if (r->mem) {
        ordo_tl_iface_t *f = ordo_iface_of(r->kind == P2P_SEND ? r->peer : r->rsrc);
        f->ops->mem_release(f, r->mem);
        r->mem = NULL;
    }
}

/* A send is no longer in flight: out of its peer's counts. */
static inline void send_leave_counts(p2p_req_t *r)
{
    if (r->banded) {
        r->banded = 0;
        p2p_peer(r->peer)->band_out--;
    }
    if (r->in_rndv) {
        r->in_rndv = 0;
        p2p_peer(r->peer)->rndv_out--;
    }
}

void p2p_req_done(p2p_req_t *r, ordo_status_t st)
{
    if (ORDO_UNLIKELY(r->aside == P2P_ASIDE_HELD)) {
        /* nobody waits for it: its copy and the request go (a failure is
         * the receiver's to report, as for a message copied out) */
        if (st != ORDO_OK)
            ordo_debug("send of %zu bytes to rank %d, copied aside: %s", r->len, r->peer,
                       ordo_status_string(st));
        p2p_req_aside_drop(r);
        return;
    }
    send_leave_counts(r);
    p2p_req_unexpose(r);
    r->phase = PHASE_DONE;
    if (r->kind == P2P_SEND) {
        r->super.info.length = r->super.info.msg_length = r->len;
    }
    p2p_active_unlink(r);
    ordo_request_complete(&r->super, st);
}

p2p_req_t *p2p_req_aside(const p2p_req_t *r)
{
    void *copy = malloc(r->len);
    if (copy == NULL)
        return NULL;
    p2p_req_t *d = req_alloc(P2P_SEND, r->comm, r->peer, r->tag, copy, r->len);
    if (d == NULL) {
        free(copy);
        return NULL;
    }
    memcpy(copy, r->buf, r->len);
    d->super.user_held = 0;
    d->aside = P2P_ASIDE_HELD;
    d->proto = r->proto;
    d->pullable = r->pullable;
    d->seq = r->seq;
    return d;
}

void p2p_req_aside_drop(p2p_req_t *d)
{
    send_leave_counts(d);
    p2p_req_unexpose(d);
    p2p_active_unlink(d);
    free(d->buf);
    d->buf = NULL;
    d->aside = P2P_ASIDE_NO;
    d->phase = PHASE_DONE;
    d->super.state = ORDO_OP_DONE;
    req_release(&d->super);
}

/* ------------------------------------------------------------- checks */

static inline ordo_status_t check_peer(const p2p_comm_t *c, int rank, int any_ok)
{
    if ((any_ok && rank == ORDO_ANY_SOURCE) || rank == ORDO_PROC_NULL)
        return ORDO_OK;   /* the caller handles ORDO_PROC_NULL */
    if (ORDO_UNLIKELY(rank < 0 || rank >= p2p->size)) {
        ordo_error("rank %d is not in the job (0 .. %d)%s nor ORDO_PROC_NULL", rank,
                   p2p->size - 1, any_ok ? ", ORDO_ANY_SOURCE" : "");
        return ORDO_ERR_INVALID_RANK;
    }
    if (ORDO_UNLIKELY(c->index_of[rank] < 0)) {
        ordo_error("rank %d is not a member of the context", rank);
        return ORDO_ERR_INVALID_RANK;
    }
    if (ORDO_UNLIKELY(p2p_peer(rank)->dead))
        return ORDO_ERR_PEER_DEAD;
    return ORDO_OK;
}

static inline ordo_status_t check_tag(int tag, int any_ok)
{
    if (ORDO_LIKELY(tag >= 0) || (any_ok && tag == ORDO_ANY_TAG))
        return ORDO_OK;
    ordo_error("tag %d is invalid: tags are 0 .. ORDO_TAG_MAX%s", tag,
               any_ok ? " or ORDO_ANY_TAG" : "");
    return ORDO_ERR_INVALID_PARAM;
}

/* ------------------------------------------------------------- sending */

static inline ordo_status_t send_check(ordo_comm_h comm, const void *buf, size_t len, int dest,
                                       int tag, p2p_comm_t **c_p)
{
    ordo_status_t st = p2p_comm_resolve(comm, c_p);
    if (ORDO_UNLIKELY(st != ORDO_OK))
        return st;
    if (ORDO_UNLIKELY((st = check_peer(*c_p, dest, 0)) != ORDO_OK ||
                      (st = check_tag(tag, 0)) != ORDO_OK))
        return st;
    if (ORDO_UNLIKELY(buf == NULL && len))
        return ORDO_ERR_INVALID_PARAM;
    if (ORDO_UNLIKELY(!ordo_span_ok(buf, len, 1))) {
        ordo_error("ordo_send: %zu bytes at %p do not fit in memory", len, buf);
        return ORDO_ERR_INVALID_PARAM;
    }
    return ORDO_OK;
}

ordo_status_t p2p_send_check(ordo_comm_h comm, const void *buf, size_t len, int dest, int tag)
{
    p2p_comm_t *c;
    return send_check(comm, buf, len, dest, tag, &c);
}

static ordo_status_t isend_proto(p2p_comm_t *c, const void *buf, size_t len, int dest, int tag,
                                 int sync, ordo_request_h *req_p);

/* ordo_send_nb and ordo_send_sync_nb: the checks, then the send (sync:
 * always a rendezvous, which completes only once the receiver matched the
 * message and took its data). */
static inline ordo_status_t send_nb(ordo_comm_h comm, const void *buf, size_t len, int dest,
                                    int tag, int sync, ordo_request_h *req_p)
{
    p2p_comm_t *c;
    ordo_status_t st = send_check(comm, buf, len, dest, tag, &c);
    if (ORDO_UNLIKELY(st != ORDO_OK))
        return st;
    if (ORDO_UNLIKELY(req_p == NULL))
        return ORDO_ERR_INVALID_PARAM;
    if (ORDO_UNLIKELY(dest == ORDO_PROC_NULL)) {
        *req_p = NULL;   /* complete at once, nothing moves */
        return ORDO_OK;
    }
    return isend_proto(c, buf, len, dest, tag, sync, req_p);
}

ORDO_API ordo_status_t ordo_send_nb(ordo_comm_h comm, const void *buf, size_t len, int dest,
                                    int tag, ordo_request_h *req_p)
{
    ORDO_CHECK_INIT();
    return send_nb(comm, buf, len, dest, tag, 0, req_p);
}

ORDO_API ordo_status_t ordo_send_sync_nb(ordo_comm_h comm, const void *buf, size_t len,
                                         int dest, int tag, ordo_request_h *req_p)
{
    ORDO_CHECK_INIT();
    return send_nb(comm, buf, len, dest, tag, 1, req_p);
}

ORDO_API ordo_status_t ordo_send_sync(ordo_comm_h comm, const void *buf, size_t len, int dest,
                                      int tag)
{
    ORDO_API_ENTER();
    ordo_request_h req;
    ordo_status_t st = ordo_send_sync_nb(comm, buf, len, dest, tag, &req);
    if (st != ORDO_INPROGRESS)
        return st;
    return ordo_request_wait_inner(&req, NULL);
}

ordo_status_t p2p_isend(p2p_comm_t *c, const void *buf, size_t len, int dest, int tag,
                        ordo_request_h *req_p)
{
    return isend_proto(c, buf, len, dest, tag, 0, req_p);
}

static ordo_status_t isend_proto(p2p_comm_t *c, const void *buf, size_t len, int dest, int tag,
                                 int sync, ordo_request_h *req_p)
{
    ordo_status_t st;
    if (ORDO_UNLIKELY(p2p_peer(dest)->dead))
        return ORDO_ERR_PEER_DEAD;
    int banded = 0;
    int proto;
    if (ORDO_LIKELY(!sync))
        proto = p2p_choose_proto(len, dest, &banded);
    else if (ordo_config.p2p_protocol == ORDO_PROTO_EAGER)
        proto = PROTO_PIPE;
    else
        proto = ordo_config.rndv == ORDO_RNDV_PUT ? PROTO_RPUT : PROTO_RGET;
    if (ORDO_LIKELY(proto == PROTO_SHORT && c->nqueued[dest] == 0 && c->credits[dest])) {
        /* the short path: one copy into the receiver's queue, nothing else */
        ordo_tl_iface_t *f = ordo_iface_of(dest);
        unsigned owed = c->owed[dest] > 0xffff ? 0xffff : c->owed[dest];
        p2p_hdr_t h = {.type = P2P_MSG, .proto = PROTO_SHORT, .credits = (uint16_t)owed,
                       .comm = c->id, .tag = tag, .seq = c->send_seq[dest], .len = len};
        if (ORDO_LIKELY(f->ops->am_short(f, dest, &h, sizeof(h), buf, len) == ORDO_OK)) {
            c->owed[dest] -= owed;
            c->credits[dest]--;
            c->send_seq[dest]++;
            p2p->stats.sends++;
            p2p->stats.msgs_short++;
            p2p->stats.bytes_sent += len;
            *req_p = NULL;
            return ORDO_OK;
        }
    }
    p2p_req_t *r = req_alloc(P2P_SEND, c, dest, tag, (void *)buf, len);
    if (r == NULL)
        return ORDO_ERR_NO_MEMORY;
    r->proto = (uint8_t)proto;
    r->pullable = !sync && len <= p2p->lim.eager_max;
    r->seq = c->send_seq[dest]++;
    if (banded) {
        r->banded = 1;
        p2p_peer(dest)->band_out++;
    }
    st = p2p_send_start(r);
    if (st != ORDO_OK) {
        /* refused by the transport: nothing was sent, so the sequence number
         * is given back (no later send took one yet) and the error returned */
        c->send_seq[dest]--;
        send_leave_counts(r);
        p2p_active_unlink(r);
        req_release(&r->super);
        return st;
    }
    if (r->phase == PHASE_DONE) {
        req_release(&r->super);
        *req_p = NULL;
        return ORDO_OK;
    }
    *req_p = &r->super;
    return ORDO_INPROGRESS;
}

ORDO_API ordo_status_t ordo_send(ordo_comm_h comm, const void *buf, size_t len, int dest,
                                 int tag)
{
    ORDO_API_ENTER();
    ordo_request_h req;
    ordo_status_t st = ordo_send_nb(comm, buf, len, dest, tag, &req);
    if (st != ORDO_INPROGRESS)
        return st;
    return ordo_request_wait_inner(&req, NULL);
}

/* ----------------------------------------------------------- receiving */

static inline ordo_status_t recv_check(ordo_comm_h comm, void *buf, size_t cap, int source,
                                       int tag, p2p_comm_t **c_p)
{
    ORDO_CHECK_INIT();
    ordo_status_t st = p2p_comm_resolve(comm, c_p);
    if (ORDO_UNLIKELY(st != ORDO_OK))
        return st;
    if (ORDO_UNLIKELY((st = check_peer(*c_p, source, 1)) != ORDO_OK ||
                      (st = check_tag(tag, 1)) != ORDO_OK))
        return st;
    if (ORDO_UNLIKELY(buf == NULL && cap))
        return ORDO_ERR_INVALID_PARAM;
    if (ORDO_UNLIKELY(!ordo_span_ok(buf, cap, 1))) {
        ordo_error("ordo_recv: a buffer of %zu bytes at %p does not fit in memory", cap, buf);
        return ORDO_ERR_INVALID_PARAM;
    }
    return ORDO_OK;
}

ordo_status_t p2p_recv_check(ordo_comm_h comm, void *buf, size_t cap, int source, int tag)
{
    p2p_comm_t *c;
    return recv_check(comm, buf, cap, source, tag, &c);
}

/* A receive from ORDO_PROC_NULL: complete at once, nothing received, as
 * MPI describes it (source ORDO_PROC_NULL, tag ORDO_ANY_TAG, 0 bytes). */
static const ordo_completion_t proc_null_info = {.source = ORDO_PROC_NULL,
                                                 .tag = ORDO_ANY_TAG};

static ordo_status_t recv_post(p2p_comm_t *c, void *buf, size_t cap, int source, int tag,
                               ordo_request_h *req_p)
{
    p2p_req_t *r = req_alloc(P2P_RECV, c, source, tag, buf, cap);
    if (r == NULL)
        return ORDO_ERR_NO_MEMORY;
    if (ORDO_UNLIKELY(source == ORDO_PROC_NULL)) {
        r->super.info = proc_null_info;
        p2p_req_done(r, ORDO_OK);
        *req_p = &r->super;
        return ORDO_INPROGRESS;
    }
    p2p_msg_t *m = c->unexp_head ? p2p_unexpected_find(c, source, tag) : NULL;
    if (m) {
        p2p_unexpected_unlink(c, m);
        int kept = p2p_deliver(r, m);
        p2p_credit_return(c, m->src);
        if (!kept)
            p2p_msg_free(m);
    } else {
        p2p_posted_append(c, r);
    }
    *req_p = &r->super;
    return ORDO_INPROGRESS;
}

ORDO_API ordo_status_t ordo_recv_nb(ordo_comm_h comm, void *buf, size_t cap, int source,
                                    int tag, ordo_request_h *req_p)
{
    ORDO_API_ENTER();
    p2p_comm_t *c;
    ordo_status_t st = recv_check(comm, buf, cap, source, tag, &c);
    if (ORDO_UNLIKELY(st != ORDO_OK))
        return st;
    if (ORDO_UNLIKELY(req_p == NULL))
        return ORDO_ERR_INVALID_PARAM;
    return recv_post(c, buf, cap, source, tag, req_p);
}

ordo_status_t p2p_irecv(p2p_comm_t *c, void *buf, size_t cap, int source, int tag,
                        ordo_request_h *req_p)
{
    if (ORDO_UNLIKELY(source != ORDO_ANY_SOURCE && p2p_peer(source)->dead))
        return ORDO_ERR_PEER_DEAD;
    return recv_post(c, buf, cap, source, tag, req_p);
}

/* Whether the message at the head of src's queue is the one a receive of
 * (src, tag) on c takes next: short or eager (whole, or in a buffer that
 * may still be filling: desc), on c, and (ordered) next in sequence with
 * nothing held back. */
static inline int direct_match(const p2p_comm_t *c, const p2p_hdr_t *h, int src, int tag)
{
    return h->type == P2P_MSG && (h->proto == PROTO_SHORT || h->proto == PROTO_EAGER) &&
           h->comm == c->id && (tag == ORDO_ANY_TAG || h->tag == tag) &&
           (c->match != ORDO_MATCH_ORDERED ||
            (h->seq == c->recv_seq[src] && p2p_peer(src)->early == NULL));
}

/* The latency path: a blocking receive from one sender, with nothing posted
 * or unexpected on its context, waits on that sender's queue alone and
 * copies the expected message straight into buf (an eager one as it
 * streams in): no request, no posting, no handler chain.  Everything else
 * keeps moving: whatever else comes first from src, and every 16 idle
 * looks, a full progress pass runs.  Returns ORDO_INPROGRESS when the
 * generic path must take over (that pass left something on the context,
 * or src may have died: the generic wait tells). */
static ordo_status_t recv_direct(p2p_comm_t *c, ordo_tl_iface_t *f, void *buf, size_t cap,
                                 int src, int tag, ordo_completion_t *info_p)
{
    unsigned idle = 0;
    for (unsigned look = 1;; look++) {
        size_t n;
        void *desc;
        const p2p_hdr_t *rec = f->ops->am_peek(f, src, &n, &desc), *h = NULL;
        p2p_hdr_t hdr;
        if (rec && n >= sizeof(hdr)) {
            memcpy(&hdr, rec, sizeof(hdr));   /* read once: the peer writes there */
            h = &hdr;
        }
        if (h && p2p_msg_len_ok(h, n) && direct_match(c, h, src, tag)) {
            c->credits[src] += h->credits;   /* direct_match: the header is c's */
            size_t take = ORDO_MIN((size_t)h->len, cap);
            ordo_status_t st = ORDO_OK;
            if (desc)   /* a writer that stopped part way fails it, as in p2p_deliver */
                st = ordo_tl_am_copy(f, desc, buf, rec + 1, sizeof(*h), take);
            else if (take)
                memcpy(buf, rec + 1, take);
            ordo_completion_t info = {.source = src, .tag = h->tag, .length = take,
                                      .msg_length = h->len, .seq = h->seq};
            f->ops->am_consume(f, src);
            if (c->match == ORDO_MATCH_ORDERED)
                c->recv_seq[src]++;
            else
                p2p_overtaking_seen(c, src, info.seq);
            p2p->stats.recvs++;
            p2p->stats.recvs_direct++;
            p2p->stats.bytes_received += take;
            p2p_credit_return(c, src);
            info.error = st != ORDO_OK ? st
                         : take < info.msg_length ? ORDO_ERR_TRUNCATED : ORDO_OK;
            if (info_p)
                *info_p = info;
            return info.error;
        }
        if (rec == NULL && (look & 15)) {
            ordo_cpu_relax();
            continue;
        }
        ordo_progress_wait(&idle);
        if (c->unexp_head || ((look & 4095) == 0 && ordo_boot_rank_dead(ordo_ctx->boot, src)))
            return ORDO_INPROGRESS;
    }
}

ORDO_API ordo_status_t ordo_recv(ordo_comm_h comm, void *buf, size_t cap, int source, int tag,
                                 ordo_completion_t *info_p)
{
    ORDO_API_ENTER();
    p2p_comm_t *c;
    ordo_status_t st = recv_check(comm, buf, cap, source, tag, &c);
    if (ORDO_UNLIKELY(st != ORDO_OK))
        return st;
    if (ORDO_UNLIKELY(source == ORDO_PROC_NULL)) {
        if (info_p)
            *info_p = proc_null_info;
        return ORDO_OK;
    }
    if (source != ORDO_ANY_SOURCE && c->posted_head == NULL && c->unexp_head == NULL) {
        ordo_tl_iface_t *f = ordo_iface_of(source);
        if (ordo_tl_am_can_peek(f) &&
            (st = recv_direct(c, f, buf, cap, source, tag, info_p)) != ORDO_INPROGRESS)
            return st;
    }
    ordo_request_h req;
    if ((st = recv_post(c, buf, cap, source, tag, &req)) != ORDO_INPROGRESS)
        return st;
    return ordo_request_wait_inner(&req, info_p);
}

ORDO_API ordo_status_t ordo_probe_nb(ordo_comm_h comm, int source, int tag, int *flag_p,
                                     ordo_completion_t *info_p)
{
    ORDO_CHECK_INIT();
    p2p_comm_t *c;
    ordo_status_t st = p2p_comm_resolve(comm, &c);
    if (st != ORDO_OK)
        return st;
    if ((st = check_peer(c, source, 1)) != ORDO_OK || (st = check_tag(tag, 1)) != ORDO_OK)
        return st;
    if (flag_p == NULL)
        return ORDO_ERR_INVALID_PARAM;
    if (ORDO_UNLIKELY(source == ORDO_PROC_NULL)) {
        *flag_p = 1;
        if (info_p)
            *info_p = proc_null_info;
        return ORDO_OK;
    }
    ordo_progress_once();
    p2p_msg_t *m = p2p_unexpected_find(c, source, tag);
    *flag_p = m != NULL;
    if (m && info_p) {
        memset(info_p, 0, sizeof(*info_p));
        info_p->source = m->src;
        info_p->tag = m->tag;
        info_p->length = info_p->msg_length = m->len;
        info_p->seq = m->seq;
    }
    if (m == NULL && source != ORDO_ANY_SOURCE && p2p_peer(source)->dead)
        return ORDO_ERR_PEER_DEAD;
    return ORDO_OK;
}

ORDO_API ordo_status_t ordo_probe(ordo_comm_h comm, int source, int tag,
                                  ordo_completion_t *info_p)
{
    ORDO_API_ENTER();
    int flag = 0;
    unsigned idle = 0;
    ordo_status_t st;
    while ((st = ordo_probe_nb(comm, source, tag, &flag, info_p)) == ORDO_OK && !flag) {
        ordo_activity_enter(__func__);   /* the probe above noted its own name */
        ordo_activity_wait_pass();
        ordo_threads_wait_pass();
        ordo_idle_pass(&idle);
    }
    return st;
}

ORDO_API ordo_status_t ordo_sendrecv(ordo_comm_h comm, const void *sbuf, size_t slen, int dest,
                                     int stag, void *rbuf, size_t rcap, int source, int rtag,
                                     ordo_completion_t *info_p)
{
    ORDO_API_ENTER();
    ordo_request_h rreq = NULL, sreq = NULL;
    ordo_status_t st = ordo_recv_nb(comm, rbuf, rcap, source, rtag, &rreq);
    if (st != ORDO_INPROGRESS)
        return st;
    st = ordo_send_nb(comm, sbuf, slen, dest, stag, &sreq);
    if (st != ORDO_OK && st != ORDO_INPROGRESS) {
        ordo_request_cancel(rreq);
        ordo_request_wait_inner(&rreq, NULL);   /* cancelled, or matched meanwhile */
        return st;
    }
    ordo_status_t rst = ordo_request_wait_inner(&rreq, info_p);
    ordo_status_t sst = sreq ? ordo_request_wait_inner(&sreq, NULL) : ORDO_OK;
    return sst != ORDO_OK ? sst : rst;
}

/* ------------------------------------------------------------ the layer */

static void check_health(void)
{
    for (int r = 0; r < p2p->size; r++)
        if (ORDO_UNLIKELY(ordo_boot_rank_dead(ordo_ctx->boot, r)) && !p2p_peer(r)->dead) {
            ordo_error("rank %d %s: failing the two-sided operations that need it", r,
                       ordo_boot_loss(ordo_ctx->boot, r));
            p2p_fail_peer(r);
        }
}

static unsigned p2p_progress(void)
{
    unsigned n = 0;
    if (p2p->queued)
        n = p2p_progress_queues();
    if (ORDO_UNLIKELY(p2p->pull_head != NULL))
        n += p2p_pull_progress();
    /* A dead peer is noticed within a few hundred idle passes; checking
     * costs a load per rank. */
    if (n == 0 && (++p2p->tick & 255) == 0 && p2p->active)
        check_health();
    return n;
}

static ordo_status_t p2p_init(void)
{
    p2p = calloc(1, sizeof(*p2p));
    if (p2p == NULL)
        return ORDO_ERR_NO_MEMORY;
    p2p->rank = ordo_ctx->rank;
    p2p->size = ordo_ctx->size;
    ordo_tl_am_limits(p2p->size, &p2p->lim);
    p2p->single_copy = ordo_config.single_copy != ORDO_SINGLE_COPY_OFF;
    p2p->peers = calloc((size_t)p2p->size, sizeof(*p2p->peers));
    if (p2p->peers == NULL)
        goto err;
    for (int r = 0; r < p2p->size; r++) {
        ordo_tl_iface_t *f = ordo_iface_of(r);
        if (!(f->ops->caps & ORDO_TL_CAP_AM)) {
            ordo_error("transport %s reaches rank %d but has no active messages: "
                       "two-sided messaging needs them", f->ops->name, r);
            goto err;
        }
    }
    for (int i = 0; i < ordo_ctx->n_ifaces; i++) {
        ordo_ctx->ifaces[i]->am_handler = p2p_am_handler;
        ordo_ctx->ifaces[i]->am_arg = NULL;
    }
    /* Every rank makes the same two contexts here: the world (with the
     * first collective scratch slot) and the runtime's own. */
    p2p->slots_free = ~(uint64_t)0;
    p2p_comm_t *world, *ctl;
    if (p2p_comm_new(ORDO_MATCH_ORDERED, 0, NULL, 0, ordo_config.coll_slots > 0 ? 0 : -1,
                     &world) != ORDO_OK ||
        p2p_comm_new(ORDO_MATCH_ORDERED, P2P_CTL_COMM, NULL, 0, -1, &ctl) != ORDO_OK)
        goto err;
    if (world->slot == 0)
        p2p->slots_free &= ~(uint64_t)1;
    ordo_ctx->agree_allgather = p2p_ctl_allgather;
    ordo_ctx->comm_members = p2p_comm_members;
    return ORDO_OK;
err:
    free(p2p->peers);
    free(p2p);
    p2p = NULL;
    return ORDO_ERR_NO_MEMORY;
}

static ordo_status_t p2p_quiesce(void)
{
    /* Answers peers still wait for (FIN, CTS, credits) go out before we
     * leave; what the program left unfinished is its own error. */
    unsigned spins = 0;
    while (p2p->queued || p2p->pulls) {   /* pulls waiting to start are given up */
        ordo_progress_once();
        if ((++spins & 1023) == 0)
            check_health();
    }
    return ORDO_OK;
}

static void p2p_fini(void)
{
    ordo_ctx->agree_allgather = NULL;
    ordo_ctx->comm_members = NULL;
    p2p_persist_fini();
    for (uint32_t i = 0; i < p2p->ncomms; i++) {
        p2p_comm_t *c = p2p->comms[i];
        if (c == NULL)
            continue;
        while (c->unexp_head) {
            p2p_msg_t *m = c->unexp_head;
            p2p_unexpected_unlink(c, m);
            p2p_msg_free(m);
        }
        p2p_comm_retire(c);
        free(c);
    }
    while (p2p->future) {
        p2p_msg_t *m = p2p->future;
        p2p->future = m->next;
        p2p_msg_free(m);
    }
    while (p2p->future_notices) {
        p2p_ctl_t *q = p2p->future_notices;
        p2p->future_notices = q->next;
        free(q);
    }
    for (int r = 0; r < p2p->size; r++) {
        p2p_peer_t *p = p2p_peer(r);
        while (p->early) {
            p2p_msg_t *m = p->early;
            p->early = m->next;
            p2p_msg_free(m);
        }
        while (p->ctl_head) {
            p2p_ctl_t *q = p->ctl_head;
            p->ctl_head = q->next;
            free(q);
        }
    }
    while (p2p->active) {   /* requests the program never finished */
        p2p_req_t *r = p2p->active;
        p2p_active_unlink(r);
        ordo_tl_iface_t *f = ordo_iface_of(r->kind == P2P_SEND ? r->peer : ORDO_MAX(r->rsrc, 0));
        if (r->rkey)
            f->ops->rkey_close(f, r->rkey);
        if (r->mem)
            f->ops->mem_release(f, r->mem);
        if (r->aside == P2P_ASIDE_HELD)
            free(r->buf);   /* never pulled: its receiver finished without it */
        free(r);
    }
    while (p2p->free_reqs) {
        p2p_req_t *r = p2p->free_reqs;
        p2p->free_reqs = r->qnext;
        free(r);
    }
    free(p2p->reqs);
    p2p->reqs = NULL;
    p2p->nreqs = p2p->capreqs = 0;
    while (p2p->free_msgs) {
        p2p_msg_t *m = p2p->free_msgs;
        p2p->free_msgs = m->next;
        free(m);
    }
    while (p2p->free_ctls) {
        p2p_ctl_t *q = p2p->free_ctls;
        p2p->free_ctls = q->next;
        free(q);
    }
    free(p2p->comms);
    free(p2p->peers);
    free(p2p);
    p2p = NULL;
}

static void p2p_stats(ordo_stats_t *sum)
{
    const ordo_stats_t *s = &p2p->stats;
    sum->sends += s->sends;
    sum->recvs += s->recvs;
    sum->recvs_direct += s->recvs_direct;
    sum->bytes_sent += s->bytes_sent;
    sum->bytes_received += s->bytes_received;
    sum->msgs_short += s->msgs_short;
    sum->msgs_eager += s->msgs_eager;
    sum->msgs_rget += s->msgs_rget;
    sum->msgs_rput += s->msgs_rput;
    sum->msgs_pipelined += s->msgs_pipelined;
    sum->msgs_unexpected += s->msgs_unexpected;
    sum->msgs_early += s->msgs_early;
    sum->credit_stalls += s->credit_stalls;
    sum->msgs_overtook += s->msgs_overtook;
    sum->msgs_split += s->msgs_split;
}

const ordo_layer_t ordo_p2p_layer = {
    .name = "two-sided",
    .init = p2p_init,
    .progress = p2p_progress,
    .quiesce = p2p_quiesce,
    .fini = p2p_fini,
    .stats = p2p_stats,
};
