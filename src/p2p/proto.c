/* The four protocols and the control messages that drive them.
 *
 *  short  header and payload inline in the receiver's queue
 *  eager  payload through a bounce buffer in the receiver's mailbox
 *  rget   a request-to-send carries the sender's buffer description; the
 *         receiver pulls with a single copy after matching, then sends FIN
 *  rput   the receiver answers (CTS) with its buffer; the sender pushes with
 *         a single copy, then sends FIN
 *  pipe   the fallback of both rendezvous when no single copy is possible
 *         (ORDO_SINGLE_COPY=off, the kernel refused, or eager forced for a
 *         message larger than a bounce buffer), and on shared memory where
 *         both sides copying at once beats the single copy: the first
 *         bounce-buffer fragment goes with the request-to-send, and after
 *         CTS the sender pushes the rest into the matched receive. */
#include <stdlib.h>
#include <string.h>

#include "p2p.h"
#include "../base/log.h"

/* A rendezvous's single copy is waited for as soon as it is issued (the
 * FIN follows it): it is copied as a lone transfer. */
static inline unsigned rndv_flags(size_t len)
{
    return ordo_lone_copy_flags(len);
}

int p2p_choose_proto(size_t len, int dest, int *banded)
{
    const ordo_tl_am_limits_t *l = &p2p->lim;
    int rndv = ordo_config.rndv == ORDO_RNDV_PUT ? PROTO_RPUT : PROTO_RGET;
    *banded = 0;
    switch (ordo_config.p2p_protocol) {
    case ORDO_PROTO_SHORT:
        return len <= l->short_max ? PROTO_SHORT : len <= l->eager_max ? PROTO_EAGER : rndv;
    case ORDO_PROTO_EAGER:
        return len <= l->eager_max ? PROTO_EAGER : PROTO_PIPE;
    case ORDO_PROTO_RGET:
        return PROTO_RGET;
    case ORDO_PROTO_RPUT:
        return PROTO_RPUT;
    default:
        break;
    }
    if (len <= l->short_max)
        return PROTO_SHORT;
    if (len > l->eager_max) {
        /* Through bounce-buffer fragments where both sides copying at once
         * beats the single copy (shared memory, ordo_auto_eager) */
        if (len <= ordo_iface_of(dest)->pipe_max && rndv == PROTO_RGET)
            return PROTO_PIPE;
        return rndv;
    }
    if (p2p_goes_eager(len, ordo_iface_of(dest)->eager_cross, p2p_peer(dest),
                       p2p->single_copy))
        return PROTO_EAGER;
    *banded = 1;
    return rndv;
}

/* ------------------------------------------------------ control messages */

/* What a control message hands back: a credit message, what its context
 * owes (at least the count it was made with, for a context gone here);
 * the others, nothing (credits travel with their context's id). */
static uint16_t ctl_credits(int peer, p2p_hdr_t *h)
{
    if (h->type != P2P_CREDIT) {
        h->credits = 0;
        return 0;
    }
    p2p_comm_t *c = p2p_comm_live(h->comm);
    if (c == NULL)
        return 0;   /* h->credits stays what p2p_credit_return_id set */
    uint16_t owed = p2p_take_owed(c, peer);
    h->credits = owed;
    return owed;
}

static void ctl_credits_back(int peer, const p2p_hdr_t *h, uint16_t owed)
{
    if (owed)
        p2p->comms[h->comm]->owed[peer] += owed;
}

void p2p_send_ctl(int peer, p2p_hdr_t *h, const void *blob, size_t bloblen)
{
    p2p_peer_t *p = p2p_peer(peer);
    if (p->dead)
        return;
    if (p->ctl_head == NULL) {
        ordo_tl_iface_t *f = ordo_iface_of(peer);
        uint16_t owed = ctl_credits(peer, h);
        ordo_status_t st = f->ops->am_short(f, peer, h, sizeof(*h), blob, bloblen);
        if (ORDO_LIKELY(st == ORDO_OK))
            return;
        ctl_credits_back(peer, h, owed);
        if (st != ORDO_ERR_BUSY) {
            ordo_error("control message to rank %d failed: %s", peer, ordo_status_string(st));
            return;
        }
    }
    if (h->type == P2P_CREDIT) {
        /* Its context's next message carries the credits; one bare credit
         * message per context in the queue is enough. */
        for (p2p_ctl_t *q = p->ctl_head; q; q = q->next)
            if (q->hdr.type == P2P_CREDIT && q->hdr.comm == h->comm)
                return;
    }
    p2p_ctl_t *q = p2p->free_ctls;
    if (q)
        p2p->free_ctls = q->next;
    else if ((q = malloc(sizeof(*q))) == NULL) {
        ordo_error("out of memory queueing a control message to rank %d", peer);
        return;
    }
    q->hdr = *h;
    q->bloblen = bloblen;
    if (bloblen)
        memcpy(q->blob, blob, bloblen);
    q->next = NULL;
    if (p->ctl_tail) p->ctl_tail->next = q; else p->ctl_head = q;
    p->ctl_tail = q;
    p2p->queued++;
}

static unsigned flush_ctls(int peer, p2p_peer_t *p)
{
    unsigned n = 0;
    ordo_tl_iface_t *f = ordo_iface_of(peer);
    while (p->ctl_head) {
        p2p_ctl_t *q = p->ctl_head;
        uint16_t owed = ctl_credits(peer, &q->hdr);
        ordo_status_t st = f->ops->am_short(f, peer, &q->hdr, sizeof(q->hdr), q->blob,
                                            q->bloblen);
        if (st == ORDO_ERR_BUSY) {
            ctl_credits_back(peer, &q->hdr, owed);
            break;
        }
        p->ctl_head = q->next;
        if (p->ctl_head == NULL)
            p->ctl_tail = NULL;
        q->next = p2p->free_ctls;
        p2p->free_ctls = q;
        p2p->queued--;
        n++;
    }
    return n;
}

/* ------------------------------------------------------------- sending */

static void queue_append(p2p_req_t **head, p2p_req_t **tail, p2p_req_t *r)
{
    r->qnext = NULL;
    r->qprev = *tail;
    if (*tail) (*tail)->qnext = r; else *head = r;
    *tail = r;
    p2p->queued++;
}

void p2p_queue_unlink(p2p_req_t **head, p2p_req_t **tail, p2p_req_t *r)
{
    if (r->qprev) r->qprev->qnext = r->qnext; else *head = r->qnext;
    if (r->qnext) r->qnext->qprev = r->qprev; else *tail = r->qprev;
    r->qnext = r->qprev = NULL;
    p2p->queued--;
}

/* Send the sequenced part of r (the message, or its request-to-send).
 * ORDO_ERR_BUSY: no room now. */
static ordo_status_t send_sequenced(p2p_req_t *r)
{
    int dest = r->peer;
    p2p_comm_t *c = r->comm;
    ordo_tl_iface_t *f = ordo_iface_of(dest);
    p2p_hdr_t h = {.type = P2P_MSG, .proto = r->proto, .comm = c->id, .tag = r->tag,
                   .seq = r->seq, .len = r->len, .sreq = p2p_token(r)};
    uint16_t owed = p2p_take_owed(c, dest);
    h.credits = owed;
    ordo_status_t st;
    p2p_req_t *aside = NULL;
    switch (r->proto) {
    case PROTO_SHORT:
        st = f->ops->am_short(f, dest, &h, sizeof(h), r->buf, r->len);
        break;
    case PROTO_EAGER:
        st = f->ops->am_bcopy(f, dest, &h, sizeof(h), r->buf, r->len);
        if (st == ORDO_ERR_BUSY && ordo_config.p2p_protocol == ORDO_PROTO_AUTO) {
            /* Every bounce buffer is taken (unexpected messages hold them):
             * a rendezvous needs none, and keeps the sender going; it
             * completes once copied aside, as the eager send would have. */
            r->proto = ordo_config.rndv == ORDO_RNDV_PUT ? PROTO_RPUT : PROTO_RGET;
            r->aside = P2P_ASIDE_MAY;
            c->owed[dest] += owed;
            return send_sequenced(r);
        }
        break;
    default: {
        char blob[ORDO_TL_BLOB_MAX];
        size_t bloblen = 0;
        h.type = P2P_RTS;
        /* w: the request the receiver deals with, r's copy where r was to
         * go eager */
        p2p_req_t *w = r->aside == P2P_ASIDE_MAY && r->len ? p2p_req_aside(r) : NULL;
        aside = w;
        if (w == NULL)
            w = r;
        h.sreq = p2p_token(w);
        int done = w->aside == P2P_ASIDE_HELD;
        h.rreq = (w->pullable ? P2P_RTS_PULLABLE : 0) | (done ? P2P_RTS_DONE : 0);
        if ((w->proto == PROTO_RGET || done) && p2p->single_copy && w->len) {
            if (w->mem)   /* exposed on an attempt that found the queue full */
                f->ops->mem_release(f, w->mem);
            ordo_tl_mem_params_t mp = {.addr = w->buf, .size = w->len, .memfd = -1,
                                       .transient = 1};
            if (f->ops->mem_expose(f, &mp, &w->mem, blob, &bloblen) != ORDO_OK) {
                w->mem = NULL;
                bloblen = 0;   /* the receiver falls back to the pipeline */
                p2p_peer(dest)->no_single_copy = 1;
            }
        }
        if (w->proto == PROTO_PIPE && w->len && p2p_peer(dest)->rndv_out == 0) {
            /* A message sent alone: its first fragment goes with the
             * request-to-send, so the receiver's clear-to-send comes back
             * while it goes in, not before (one round trip less).  Behind
             * others (a window) the round trips overlap anyway, and a
             * fragment that arrives before its receive is posted costs a
             * bounce buffer held or a copy aside. */
            size_t ahead = ORDO_MIN(w->len, p2p->lim.eager_max);
            st = f->ops->am_bcopy(f, dest, &h, sizeof(h), w->buf, ahead);
            if (st == ORDO_OK)
                w->moved = ahead;
            else if (st == ORDO_ERR_BUSY)   /* no bounce buffer: the request alone */
                st = f->ops->am_short(f, dest, &h, sizeof(h), NULL, 0);
        } else {
            st = f->ops->am_short(f, dest, &h, sizeof(h), blob, bloblen);
        }
        if (st == ORDO_OK) {
            w->phase = PHASE_RNDV;
            if (!w->in_rndv) {
                w->in_rndv = 1;
                p2p_peer(dest)->rndv_out++;
            }
        } else if (aside) {
            p2p_req_aside_drop(aside);   /* r stays as it was, to go later */
            aside = NULL;
        }
        break;
    }
    }
    if (st != ORDO_OK) {
        c->owed[dest] += owed;
        return st;
    }
    c->credits[dest]--;
    p2p->stats.sends++;
    p2p->stats.bytes_sent += r->len;
    switch (r->proto) {
    case PROTO_SHORT: p2p->stats.msgs_short++; break;
    case PROTO_EAGER: p2p->stats.msgs_eager++; break;
    case PROTO_RGET:  p2p->stats.msgs_rget++; break;
    case PROTO_RPUT:  p2p->stats.msgs_rput++; break;
    default:          p2p->stats.msgs_pipelined++; break;
    }
    if (aside) {
        /* the copy goes on in r's place (its band too); r is done */
        aside->banded = r->banded;
        r->banded = 0;
        p2p_req_done(r, ORDO_OK);
    } else if (r->proto == PROTO_SHORT || r->proto == PROTO_EAGER) {
        p2p_req_done(r, ORDO_OK);
    }
    return ORDO_OK;
}

ordo_status_t p2p_send_start(p2p_req_t *r)
{
    p2p_comm_t *c = r->comm;
    int dest = r->peer;
    if (c->nqueued[dest] == 0 && c->credits[dest] > 0) {
        ordo_status_t st = send_sequenced(r);
        if (st != ORDO_ERR_BUSY)
            return st;
    } else if (c->credits[dest] == 0) {
        p2p->stats.credit_stalls++;
    }
    r->phase = PHASE_QUEUED;
    p2p_peer_t *p = p2p_peer(dest);
    queue_append(&p->sendq_head, &p->sendq_tail, r);
    c->nqueued[dest]++;
    return ORDO_OK;
}

/* Send what the peer's queue holds, in order within each context: a
 * context out of credits is passed over (its later sends wait behind its
 * first), the others go on; a full transport stops the pass. */
static unsigned flush_sends(int dest, p2p_peer_t *p)
{
    unsigned n = 0;
    uint32_t pass = ++p2p->flush_pass;
    for (p2p_req_t *r = p->sendq_head, *next; r; r = next) {
        next = r->qnext;
        p2p_comm_t *c = r->comm;
        if (c->flush_pass == pass)
            continue;   /* an earlier send of its context is waiting */
        if (c->credits[dest] == 0) {
            c->flush_pass = pass;
            continue;
        }
        p2p_queue_unlink(&p->sendq_head, &p->sendq_tail, r);
        ordo_status_t st = send_sequenced(r);
        if (st == ORDO_ERR_BUSY) {
            /* back where it was, keeping the order */
            r->qnext = next;
            r->qprev = next ? next->qprev : p->sendq_tail;
            if (r->qprev) r->qprev->qnext = r; else p->sendq_head = r;
            if (next) next->qprev = r; else p->sendq_tail = r;
            p2p->queued++;
            break;
        }
        c->nqueued[dest]--;
        if (st != ORDO_OK)
            p2p_req_done(r, st);
        n++;
    }
    return n;
}

/* Push fragments of senders in the pipeline. */
static unsigned flush_pipes(int peer, p2p_peer_t *p)
{
    unsigned n = 0;
    ordo_tl_iface_t *f = ordo_iface_of(peer);
    size_t frag = p2p->lim.eager_max;
    while (p->pipe_head) {
        p2p_req_t *r = p->pipe_head;
        while (r->moved < r->deliver) {
            size_t len = ORDO_MIN(frag, r->deliver - r->moved);
            p2p_hdr_t h = {.type = P2P_FRAG, .len = r->moved, .rreq = r->peer_req};
            ordo_status_t st = f->ops->am_bcopy(f, peer, &h, sizeof(h),
                                                (char *)r->buf + r->moved, len);
            if (st != ORDO_OK) {
                if (st == ORDO_ERR_BUSY)
                    return n;
                p2p_queue_unlink(&p->pipe_head, &p->pipe_tail, r);
                p2p_req_done(r, st);
                goto next;
            }
            r->moved += len;
            n++;
        }
        p2p_queue_unlink(&p->pipe_head, &p->pipe_tail, r);
        if (r->proto == PROTO_SPLIT)
            p2p_split_part_done(r, ORDO_OK);
        else
            p2p_req_done(r, ORDO_OK);
    next:;
    }
    return n;
}

static void pipe_start(p2p_req_t *r)
{
    p2p_peer_t *p = p2p_peer(r->peer);
    if (r->proto != PROTO_SPLIT)
        r->phase = PHASE_FRAGS;   /* moved: what went with the RTS (PROTO_PIPE), else 0 */
    queue_append(&p->pipe_head, &p->pipe_tail, r);
    flush_pipes(r->peer, p);
}

unsigned p2p_progress_queues(void)
{
    unsigned n = 0;
    for (int r = 0; r < p2p->size && p2p->queued; r++) {
        p2p_peer_t *p = p2p_peer(r);
        if (p->ctl_head)
            n += flush_ctls(r, p);
        if (p->pipe_head)
            n += flush_pipes(r, p);
        if (p->sendq_head)
            n += flush_sends(r, p);
    }
    return n;
}

/* ----------------------------------------------------------- receiving */

static void recv_finish(p2p_req_t *r, ordo_status_t st)
{
    r->super.info.length = r->deliver;
    if (st == ORDO_OK && r->super.info.msg_length > r->deliver)
        st = ORDO_ERR_TRUNCATED;
    if (st == ORDO_OK || st == ORDO_ERR_TRUNCATED) {
        p2p->stats.recvs++;
        p2p->stats.bytes_received += r->deliver;
    }
    p2p_req_done(r, st);
}

/* r's single copy with its peer finished: close the peer's key and tell the
 * peer (FIN to its request; proto PROTO_SPLIT when it was one half). */
static void transfer_fin(p2p_req_t *r, uint8_t proto, ordo_status_t st)
{
    int peer = r->kind == P2P_SEND ? r->peer : r->rsrc;
    ordo_tl_iface_t *f = ordo_iface_of(peer);
    f->ops->rkey_close(f, r->rkey);
    r->rkey = NULL;
    p2p_hdr_t h = {.type = P2P_FIN, .proto = proto, .tag = st};
    if (r->kind == P2P_SEND)
        h.rreq = r->peer_req;
    else
        h.sreq = r->peer_req;
    p2p_send_ctl(peer, &h, NULL, 0);
}

static void rget_done(ordo_tl_comp_t *comp, ordo_status_t st)
{
    p2p_req_t *r = ordo_container_of(comp, p2p_req_t, super.comp);
    transfer_fin(r, 0, st);
    recv_finish(r, st);
}

/* ------------------------------------------- the split rendezvous-get */

void p2p_split_part_done(p2p_req_t *r, ordo_status_t st)
{
    if (st != ORDO_OK && r->super.status == ORDO_OK)
        r->super.status = st;   /* remembered until both halves are in */
    if (++r->parts < 2)
        return;
    st = r->super.status;
    r->super.status = ORDO_OK;
    if (r->kind == P2P_RECV)
        recv_finish(r, st);
    else
        p2p_req_done(r, st);
}

static void split_get_done(ordo_tl_comp_t *comp, ordo_status_t st)
{
    p2p_req_t *r = ordo_container_of(comp, p2p_req_t, super.comp);
    transfer_fin(r, PROTO_SPLIT, st);
    p2p_split_part_done(r, st);
}

/* A large rendezvous-get: expose our buffer, tell the sender to put the back
 * half, get the front half ourselves.  Returns 0 (nothing done) when the
 * message is too small, comes from ourselves, or our buffer cannot be
 * exposed.  A message that
 * meets a rendezvous of ours to its sender (an exchange: both CPUs copy
 * anyway), or any message where ranks share CPUs (the sender may not be
 * running to do its half), is split only from the larger limit. */
static int split_start(p2p_req_t *r, ordo_tl_iface_t *f)
{
    if (r->rsrc == p2p->rank)
        return 0;   /* from ourselves: one CPU copies either way */
    size_t from = ordo_rndv_split_from((f->ops->caps & ORDO_TL_CAP_NETWORK) != 0,
                                       p2p_peer(r->rsrc)->rndv_out > 0 ||
                                           ordo_ctx->machine.cores_shared);
    if (from == 0 || r->deliver < from)
        return 0;
    /* the halves meet on a page boundary, which must lie inside the
     * message (a message of a page or two, under a small ORDO_RNDV_SPLIT,
     * is not split) */
    size_t split = (r->deliver / 2 + 4095) & ~(size_t)4095;
    if (split >= r->deliver)
        return 0;
    char blob[ORDO_TL_BLOB_MAX];
    size_t bloblen = 0;
    ordo_tl_mem_params_t mp = {.addr = r->buf, .size = r->deliver, .memfd = -1,
                               .transient = 1};
    if (f->ops->mem_expose(f, &mp, &r->mem, blob, &bloblen) != ORDO_OK) {
        r->mem = NULL;
        return 0;
    }
    r->proto = PROTO_SPLIT;
    r->split = split;
    r->parts = 0;
    p2p->stats.msgs_split++;
    r->moved = 0;
    /* CTS: len = bytes accepted, rreq = us, seq = split offset in pages */
    p2p_hdr_t h = {.type = P2P_CTS, .proto = PROTO_SPLIT, .len = r->deliver,
                   .seq = (uint32_t)(r->split >> 12), .sreq = r->peer_req,
                   .rreq = p2p_token(r)};
    p2p_send_ctl(r->rsrc, &h, blob, bloblen);
    r->super.comp.func = split_get_done;
    ordo_status_t st = f->ops->get(f, r->rkey, 0, r->buf, r->split, rndv_flags(r->split),
                                   &r->super.comp);
    if (st != ORDO_INPROGRESS)
        split_get_done(&r->super.comp, st);
    return 1;
}

static void split_put_done(ordo_tl_comp_t *comp, ordo_status_t st)
{
    p2p_req_t *r = ordo_container_of(comp, p2p_req_t, super.comp);
    transfer_fin(r, PROTO_SPLIT, st);
    p2p_split_part_done(r, st);
}

/* Sender: the receiver took the front half; put the back half. */
static void split_sender(int src, p2p_req_t *r, const p2p_hdr_t *h, void *blob, size_t bloblen)
{
    ordo_tl_iface_t *f = ordo_iface_of(src);
    r->proto = PROTO_SPLIT;
    r->split = ORDO_MIN((size_t)h->seq << 12, r->deliver);   /* the peer's word: bounded */
    r->phase = PHASE_DATA;   /* parts may already count the receiver's FIN */
    ordo_status_t st = f->ops->rkey_open(f, src, blob, bloblen, &r->rkey);
    if (st != ORDO_OK) {
        /* our half through bounce buffers; the receiver counts the bytes */
        r->moved = r->split;
        pipe_start(r);
        return;
    }
    r->super.comp.func = split_put_done;
    st = f->ops->put(f, r->rkey, r->split, (char *)r->buf + r->split, r->deliver - r->split,
                     rndv_flags(r->deliver - r->split), &r->super.comp);
    if (st != ORDO_INPROGRESS)
        split_put_done(&r->super.comp, st);
}

static void start_rendezvous_recv(p2p_req_t *r, p2p_msg_t *m)
{
    int src = m->src;
    ordo_tl_iface_t *f = ordo_iface_of(src);
    r->proto = m->proto;
    r->peer_req = m->sreq;
    if (r->deliver == 0) {
        /* nothing to move (empty buffer): the sender is done too */
        p2p_hdr_t h = {.type = P2P_FIN, .tag = ORDO_OK, .sreq = m->sreq};
        p2p_send_ctl(src, &h, NULL, 0);
        recv_finish(r, ORDO_OK);
        return;
    }
    /* a sender that is done (P2P_RTS_DONE) may never drive its half of a
     * split, a put or fragments: its copy is pulled whole where it can be */
    int pull = m->proto == PROTO_RGET || (m->proto == PROTO_RPUT && m->sender_done);
    if (pull && m->datalen > 0 && p2p->single_copy) {
        ordo_status_t st = f->ops->rkey_open(f, src, m->data, m->datalen, &r->rkey);
        if (st == ORDO_OK) {
            r->proto = PROTO_RGET;
            r->phase = PHASE_DATA;
            if (!m->sender_done && split_start(r, f))
                return;
            r->super.comp.func = rget_done;
            st = f->ops->get(f, r->rkey, 0, r->buf, r->deliver, rndv_flags(r->deliver),
                              &r->super.comp);
            if (st != ORDO_INPROGRESS)
                rget_done(&r->super.comp, st);
            return;
        }
        ordo_debug("single copy from rank %d refused (%s): pipelining instead", src,
                   ordo_status_string(st));
    }
    p2p_hdr_t h = {.type = P2P_CTS, .proto = PROTO_PIPE, .len = r->deliver, .sreq = m->sreq,
                   .rreq = p2p_token(r)};
    char blob[ORDO_TL_BLOB_MAX];
    size_t bloblen = 0;
    if (m->proto == PROTO_RPUT && p2p->single_copy) {
        ordo_tl_mem_params_t mp = {.addr = r->buf, .size = r->deliver, .memfd = -1,
                                   .transient = 1};
        if (f->ops->mem_expose(f, &mp, &r->mem, blob, &bloblen) == ORDO_OK)
            h.proto = PROTO_RPUT;
        else
            r->mem = NULL, bloblen = 0;
    }
    r->phase = h.proto == PROTO_RPUT ? PHASE_RNDV : PHASE_FRAGS;
    r->moved = 0;
    p2p_send_ctl(src, &h, blob, bloblen);
    if (m->proto == PROTO_PIPE && m->datalen) {
        /* the first fragment came with the request (its bytes are counted
         * in p2p_msg_len_ok): copied out after the clear-to-send went, so
         * that the sender's next fragment goes in meanwhile */
        size_t ahead = ORDO_MIN(m->datalen, r->deliver);
        ordo_status_t st =
            ordo_tl_am_copy(f, m->desc, r->buf, m->data, sizeof(p2p_hdr_t), ahead);
        if (st != ORDO_OK || (r->moved = ahead) >= r->deliver)
            recv_finish(r, st);
    }
}

int p2p_deliver(p2p_req_t *r, p2p_msg_t *m)
{
    r->rsrc = m->src;
    r->super.info.source = m->src;
    r->super.info.tag = m->tag;
    r->super.info.seq = m->seq;
    r->super.info.msg_length = m->len;
    r->deliver = ORDO_MIN(m->len, r->len);
    if (ORDO_UNLIKELY(m->pull != NULL) && p2p_pull_wait(m, r))
        return 1;
    if (m->proto == PROTO_SHORT || m->proto == PROTO_EAGER) {
        ordo_status_t st = ORDO_OK;
        if (m->desc)   /* a bounce buffer, which may still be filling */
            st = ordo_tl_am_copy(ordo_iface_of(m->src), m->desc, r->buf, m->data,
                                 sizeof(p2p_hdr_t), r->deliver);
        else if (r->deliver)
            memcpy(r->buf, m->data, r->deliver);
        recv_finish(r, st);
        return 0;
    }
    start_rendezvous_recv(r, m);
    return 0;
}

/* ------------------------------------------------ rendezvous, sender side */

static void rput_done(ordo_tl_comp_t *comp, ordo_status_t st)
{
    p2p_req_t *r = ordo_container_of(comp, p2p_req_t, super.comp);
    transfer_fin(r, 0, st);
    p2p_req_done(r, st);
}

static void on_cts(int src, const p2p_hdr_t *h, void *blob, size_t bloblen)
{
    p2p_req_t *r = p2p_req_of_token(h->sreq, src, "CTS");
    if (r == NULL || r->kind != P2P_SEND || r->phase != PHASE_RNDV)
        return;   /* the send already failed (peer declared dead) */
    r->peer_req = h->rreq;
    r->deliver = ORDO_MIN((size_t)h->len, r->len);
    if (h->proto == PROTO_SPLIT) {   /* our buffer stays exposed: the receiver gets from it */
        split_sender(src, r, h, blob, bloblen);
        return;
    }
    if (r->proto != PROTO_PIPE && (h->proto == PROTO_PIPE || bloblen == 0))
        p2p_peer(src)->no_single_copy = 1;   /* the bounce buffers serve all they hold */
    p2p_req_unexpose(r);   /* exposed for a get the receiver could not do */
    if (h->proto == PROTO_RPUT && bloblen) {
        ordo_tl_iface_t *f = ordo_iface_of(src);
        ordo_status_t st = f->ops->rkey_open(f, src, blob, bloblen, &r->rkey);
        if (st == ORDO_OK) {
            r->phase = PHASE_DATA;
            r->super.comp.func = rput_done;
            st = f->ops->put(f, r->rkey, 0, r->buf, r->deliver, rndv_flags(r->deliver),
                              &r->super.comp);
            if (st != ORDO_INPROGRESS)
                rput_done(&r->super.comp, st);
            return;
        }
        /* Fragments instead: the receiver takes the first one as the
         * sign to give up its exposed buffer. */
        p2p_peer(src)->no_single_copy = 1;
        ordo_debug("single copy to rank %d refused: pipelining instead", src);
    }
    pipe_start(r);
}

static void on_fin(int src, const p2p_hdr_t *h)
{
    if (h->sreq) {   /* to the sender: the receiver has the data */
        p2p_req_t *r = p2p_req_of_token(h->sreq, src, "FIN");
        if (r == NULL || r->kind != P2P_SEND)
            return;
        if (h->proto == PROTO_SPLIT) {
            /* the receiver has the front half; it may overtake the CTS that
             * hands us the back half, so it is counted whatever our phase */
            if (r->phase != PHASE_DONE)
                p2p_split_part_done(r, (ordo_status_t)h->tag);
            return;
        }
        if (r->phase != PHASE_RNDV)
            return;
        p2p_req_done(r, (ordo_status_t)h->tag);
    } else {         /* to the receiver: the sender put the data */
        p2p_req_t *r = p2p_req_of_token(h->rreq, src, "FIN");
        if (r == NULL || r->kind != P2P_RECV)
            return;
        if (h->proto == PROTO_SPLIT) {
            if (r->phase == PHASE_DATA)
                p2p_split_part_done(r, (ordo_status_t)h->tag);
            return;
        }
        if (r->phase != PHASE_RNDV)
            return;
        recv_finish(r, (ordo_status_t)h->tag);
    }
}

/* A fragment's bytes into r's buffer at its offset, as they arrive. */
static ordo_status_t frag_copy(p2p_req_t *r, int src, const p2p_hdr_t *h, const void *data,
                               size_t len, void *desc)
{
    size_t off = (size_t)h->len;
    if (off >= r->deliver)
        return ORDO_OK;
    return ordo_tl_am_copy(ordo_iface_of(src), desc, (char *)r->buf + off, data,
                           sizeof(*h), ORDO_MIN(len, r->deliver - off));
}

static void on_frag(int src, const p2p_hdr_t *h, const void *data, size_t len, void *desc)
{
    p2p_req_t *r = p2p_req_of_token(h->rreq, src, "fragment");
    if (r == NULL || r->kind != P2P_RECV)
        return;
    if (r->proto == PROTO_SPLIT && r->phase == PHASE_DATA) {
        /* the sender's half, through bounce buffers */
        ordo_status_t st = frag_copy(r, src, h, data, len, desc);
        if (st != ORDO_OK && r->super.status == ORDO_OK)
            r->super.status = st;   /* reported when both halves are in */
        r->moved += len;
        if (r->moved >= r->deliver - r->split)
            p2p_split_part_done(r, ORDO_OK);
        return;
    }
    if (r->phase == PHASE_RNDV && r->mem) {
        /* the sender could not put into our exposed buffer: fragments come */
        p2p_req_unexpose(r);
        r->phase = PHASE_FRAGS;
    }
    if (r->phase != PHASE_FRAGS)
        return;
    ordo_status_t st = frag_copy(r, src, h, data, len, desc);
    if (st != ORDO_OK) {
        recv_finish(r, st);
        return;
    }
    r->moved += len;
    if (r->moved >= r->deliver)
        recv_finish(r, ORDO_OK);
}

/* ----------------------------------------------------- the AM handler */

ordo_status_t p2p_am_handler(void *arg, int src, void *data, size_t len, void *desc)
{
    (void)arg;
    if (len < sizeof(p2p_hdr_t)) {
        ordo_error("rank %d sent a two-sided message of %zu bytes, shorter than its header: "
                   "a corrupt record, ignored", src, len);
        return ORDO_OK;
    }
    /* read once: the peer may write its record while we look at it */
    p2p_hdr_t hdr;
    memcpy(&hdr, data, sizeof(hdr));
    const p2p_hdr_t *h = &hdr;
    if (!p2p_msg_len_ok(h, len)) {
        ordo_error("rank %d sent a two-sided message whose header (protocol %u, %llu bytes) "
                   "does not match its %zu bytes: a corrupt record, ignored", src,
                   (unsigned)h->proto, (unsigned long long)h->len, len - sizeof(*h));
        return ORDO_OK;
    }
    void *payload = (char *)data + sizeof(*h);
    size_t plen = len - sizeof(*h);
    if (h->credits)
        p2p_credits_arrived(src, h);
    switch (h->type) {
    case P2P_MSG:
    case P2P_RTS:
        return p2p_incoming(src, h, payload, plen, desc);
    case P2P_CTS:
        on_cts(src, h, payload, plen);
        return ORDO_OK;
    case P2P_FIN:
        on_fin(src, h);
        return ORDO_OK;
    case P2P_FRAG:
        on_frag(src, h, payload, plen, desc);
        return ORDO_OK;
    case P2P_CREDIT:
        return ORDO_OK;
    case P2P_NOTICE:
        p2p_on_notice(src, h);
        return ORDO_OK;
    }
    ordo_warn("unknown two-sided message type %u from rank %d", h->type, src);
    return ORDO_OK;
}
