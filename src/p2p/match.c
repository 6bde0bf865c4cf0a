/* The matching engine: posted receives, unexpected messages, and the
 * per-sender sequence that rebuilds send order on ordered contexts. */
#include <stdlib.h>
#include <string.h>

#include "p2p.h"
#include "../base/log.h"

static inline int matches(int want_src, int want_tag, int src, int tag)
{
    return (want_src == ORDO_ANY_SOURCE || want_src == src) &&
           (want_tag == tag || (want_tag == ORDO_ANY_TAG && tag >= 0));
}

void p2p_posted_append(p2p_comm_t *c, p2p_req_t *r)
{
    r->qnext = NULL;
    r->qprev = c->posted_tail;
    if (c->posted_tail) c->posted_tail->qnext = r; else c->posted_head = r;
    c->posted_tail = r;
    r->phase = PHASE_POSTED;
    if (r->peer >= 0)
        p2p_peer(r->peer)->recvs_posted++;
}

void p2p_posted_unlink(p2p_comm_t *c, p2p_req_t *r)
{
    if (r->qprev) r->qprev->qnext = r->qnext; else c->posted_head = r->qnext;
    if (r->qnext) r->qnext->qprev = r->qprev; else c->posted_tail = r->qprev;
    r->qnext = r->qprev = NULL;
    if (r->peer >= 0)
        p2p_peer(r->peer)->recvs_posted--;
}

static p2p_req_t *posted_find(p2p_comm_t *c, int src, int tag)
{
    for (p2p_req_t *r = c->posted_head; r; r = r->qnext)
        if (matches(r->peer, r->tag, src, tag))
            return r;
    return NULL;
}

p2p_msg_t *p2p_unexpected_find(p2p_comm_t *c, int src, int tag)
{
    for (p2p_msg_t *m = c->unexp_head; m; m = m->next)
        if (matches(src, tag, m->src, m->tag))
            return m;
    return NULL;
}

void p2p_unexpected_unlink(p2p_comm_t *c, p2p_msg_t *m)
{
    if (m->prev) m->prev->next = m->next; else c->unexp_head = m->next;
    if (m->next) m->next->prev = m->prev; else c->unexp_tail = m->prev;
    m->next = m->prev = NULL;
}

static void unexpected_append(p2p_comm_t *c, p2p_msg_t *m)
{
    m->next = NULL;
    m->prev = c->unexp_tail;
    if (c->unexp_tail) c->unexp_tail->next = m; else c->unexp_head = m;
    c->unexp_tail = m;
}

/* ---------------------------------------------------------- records */

/* Keep a message that cannot be matched now.  A bounce buffer is kept as it
 * is (no copy) while the sender's kept messages hold at most half of its
 * buffers; beyond that, and for inline data, the bytes are copied out, so
 * the sender always has buffers left for the message the receiver waits
 * for (and a rendezvous for its fragments): unmatched messages holding them
 * all used to stop the pair.  Bounded by the credits: a sender has at most
 * `credits` such records here. */
static p2p_msg_t *msg_keep(const p2p_msg_t *m)
{
    p2p_peer_t *p = p2p_peer(m->src);
    int keep_desc = m->desc != NULL && p->bounces_held + 1 <= p2p->lim.nbounce / 2;
    size_t need = keep_desc ? 0 : m->datalen;
    p2p_msg_t *k;
    if (need <= P2P_SMALL_ROOM && p2p->free_msgs) {
        k = p2p->free_msgs;
        p2p->free_msgs = k->next;
    } else {
        size_t room = need <= P2P_SMALL_ROOM ? P2P_SMALL_ROOM : need;
        k = malloc(sizeof(*k) + room);
        if (k == NULL)
            return NULL;
        k->room = room;
    }
    size_t room = k->room;
    *k = *m;
    k->room = room;
    k->owned = 1;
    if (keep_desc) {
        p->bounces_held++;
    } else {
        if (!m->desc) {
            if (m->datalen)
                memcpy(k->inline_data, m->data, m->datalen);
        } else if (ordo_tl_am_copy(ordo_iface_of(m->src), m->desc, k->inline_data, m->data,
                                   sizeof(p2p_hdr_t), m->datalen) != ORDO_OK) {
            /* its sender stopped writing it part way: kept where it is, so
             * the receive it matches fails as the copy does again */
            p->bounces_held++;
            return k;
        }
        k->desc = NULL;   /* the caller releases the buffer */
        k->data = k->inline_data;
    }
    return k;
}

void p2p_msg_drop(p2p_comm_t *c, p2p_msg_t *m, ordo_status_t st)
{
    /* a pull in flight tells the sender itself when it ends */
    int pull_tells = m->pull != NULL && p2p_pull_detach(m, st);
    if (!pull_tells && !p2p_peer(m->src)->dead && m->proto >= PROTO_RGET) {
        p2p_hdr_t h = {.type = P2P_FIN, .tag = st, .sreq = m->sreq};
        p2p_send_ctl(m->src, &h, NULL, 0);
    }
    if (c != NULL)
        p2p_credit_return(c, m->src);
    else
        p2p_credit_return_id(m->comm, m->src);
    if (m->owned)
        p2p_msg_free(m);
}

size_t p2p_drop_coll_unexpected(p2p_comm_t *c, ordo_status_t st)
{
    size_t n = 0;
    for (p2p_msg_t *m = c->unexp_head, *next; m; m = next) {
        next = m->next;
        if (P2P_IS_COLL_TAG(m->tag) && p2p->coll_drops(c, m->tag)) {
            p2p_unexpected_unlink(c, m);
            p2p_msg_drop(c, m, st);
            n++;
        }
    }
    return n;
}

void p2p_msg_free(p2p_msg_t *m)
{
    if (m->pull != NULL)
        p2p_pull_detach(m, ORDO_OK);
    if (m->desc) {
        ordo_tl_iface_t *f = ordo_iface_of(m->src);
        f->ops->am_release(f, m->desc);
        m->desc = NULL;
        p2p_peer(m->src)->bounces_held--;
    }
    if (m->room == P2P_SMALL_ROOM) {
        m->next = p2p->free_msgs;
        p2p->free_msgs = m;
    } else {
        free(m);
    }
}

/* ---------------------------------------------------------- credits */

void p2p_credit_return(p2p_comm_t *c, int src)
{
    c->owed[src]++;
    /* Piggybacked on the next message of c to src; a bare credit message
     * only when a quarter of the window is owed, so streams in one
     * direction do not stall. */
    if (ORDO_UNLIKELY(c->owed[src] >= (p2p->lim.credits + 3) / 4)) {
        p2p_hdr_t h = {.type = P2P_CREDIT, .comm = c->id};
        p2p_send_ctl(src, &h, NULL, 0);
    }
}

void p2p_credit_return_id(uint32_t comm, int src)
{
    p2p_comm_t *c = p2p_comm_live(comm);
    if (c != NULL) {
        p2p_credit_return(c, src);
        return;
    }
    /* nothing here keeps count for it: the credit goes back at once */
    p2p_hdr_t h = {.type = P2P_CREDIT, .comm = comm, .credits = 1};
    p2p_send_ctl(src, &h, NULL, 0);
}

void p2p_credits_arrived(int src, const p2p_hdr_t *h)
{
    p2p_comm_t *c = p2p_comm_live(h->comm);
    /* a context destroyed here since owes nothing to anybody any more */
    if (c != NULL)
        c->credits[src] += h->credits;
}

uint16_t p2p_take_owed(p2p_comm_t *c, int peer)
{
    uint32_t n = c->owed[peer] > 0xffff ? 0xffff : c->owed[peer];
    c->owed[peer] -= n;
    return (uint16_t)n;
}

/* ---------------------------------------------------------- arrival */

/* An overtaking context's message from src, matched on arrival: counted
 * when it came ahead of an earlier send of src (recv_seq[src] is one past
 * the highest sequence seen here, as it is the next expected in order). */
void p2p_overtaking_seen(p2p_comm_t *c, int src, uint32_t seq)
{
    if ((int32_t)(seq - c->recv_seq[src]) < 0)
        return;   /* a late one: what overtook it was counted */
    if (seq != c->recv_seq[src])
        p2p->stats.msgs_overtook++;
    c->recv_seq[src] = seq + 1;
}

/* A message whose turn has come: match it or keep it as unexpected.
 * Returns ORDO_INPROGRESS when its bounce buffer was kept. */
static ordo_status_t arrive(p2p_comm_t *c, p2p_msg_t *m)
{
    if (ORDO_UNLIKELY(c->coll_fails != NULL) && P2P_IS_COLL_TAG(m->tag) &&
        p2p->coll_drops(c, m->tag)) {
        /* a step of a collective call that failed here: nobody will take
         * it (a bounce buffer on the stack path goes back by the caller) */
        p2p_msg_drop(c, m, ORDO_ERR_COLL_BROKEN);
        return ORDO_OK;
    }
    p2p_req_t *r = posted_find(c, m->src, m->tag);
    if (r) {
        p2p_posted_unlink(c, r);
        p2p_deliver(r, m);   /* a new arrival: no pull of it runs */
        p2p_credit_return(c, m->src);
        if (m->owned)
            p2p_msg_free(m);
        return ORDO_OK;   /* a bounce buffer on the stack path is released by the caller */
    }
    if (!m->owned) {
        p2p_msg_t *k = msg_keep(m);
        if (k == NULL) {
            /* Cannot happen within the credits unless malloc fails; the
             * transport holds the message and we try again. */
            return ORDO_ERR_BUSY;
        }
        m = k;
    }
    p2p->stats.msgs_unexpected++;
    unexpected_append(c, m);
    if (m->pullable)
        p2p_pull_arrived(m);   /* its sender need not wait for the receive */
    return m->desc ? ORDO_INPROGRESS : ORDO_OK;
}

/* Hand over early messages of src whose turn came. */
static void drain_early(p2p_comm_t *c, int src)
{
    p2p_peer_t *p = p2p_peer(src);
    for (;;) {
        p2p_msg_t **pp = &p->early, *m;
        while ((m = *pp) && !(m->comm == c->id && m->seq == c->recv_seq[src]))
            pp = &m->next;
        if (m == NULL)
            return;
        *pp = m->next;
        m->next = NULL;
        c->recv_seq[src]++;
        arrive(c, m);
    }
}

/* A message of context c, in hand (on the stack or kept): into matching
 * when its turn has come, else held as early. */
static ordo_status_t admit(p2p_comm_t *c, p2p_msg_t *m)
{
    int src = m->src;
    if (c->match == ORDO_MATCH_ORDERED && m->seq != c->recv_seq[src]) {
        p2p_msg_t *k = m->owned ? m : msg_keep(m);
        if (k == NULL)
            return ORDO_ERR_BUSY;
        p2p->stats.msgs_early++;
        p2p_peer_t *p = p2p_peer(src);
        k->next = p->early;
        p->early = k;
        /* a bounce buffer now belongs to the kept record */
        return k != m && k->desc ? ORDO_INPROGRESS : ORDO_OK;
    }
    uint32_t seq = m->seq;   /* arrive may free m */
    ordo_status_t st = arrive(c, m);
    if (st == ORDO_ERR_BUSY)
        return st;
    if (c->match == ORDO_MATCH_ORDERED) {
        c->recv_seq[src]++;
        if (p2p_peer(src)->early)
            drain_early(c, src);
    } else {
        p2p_overtaking_seen(c, src, seq);
    }
    return st;
}

ordo_status_t p2p_incoming(int src, const p2p_hdr_t *h, void *payload, size_t plen,
                           void *desc)
{
    p2p_comm_t *c = h->comm < p2p->ncomms ? p2p->comms[h->comm] : NULL;
    p2p_msg_t m = {.src = src, .comm = h->comm, .tag = h->tag, .seq = h->seq,
                   .proto = h->proto, .len = h->len, .sreq = h->sreq, .data = payload,
                   .datalen = plen, .desc = desc,
                   .pullable = h->type == P2P_RTS && (h->rreq & P2P_RTS_PULLABLE),
                   .sender_done = h->type == P2P_RTS && (h->rreq & P2P_RTS_DONE)};
    if (ORDO_UNLIKELY(c == NULL || c->magic != P2P_MAGIC_COMM)) {
        if (c == NULL && h->comm >= p2p->next_id) {
            /* a context the sender has and we are about to create (its
             * creation finished there first): keep the message for it */
            p2p_msg_t *k = msg_keep(&m);
            if (k == NULL)
                return ORDO_ERR_BUSY;
            k->next = p2p->future;
            p2p->future = k;
            return k->desc ? ORDO_INPROGRESS : ORDO_OK;
        }
        ordo_warn("dropped a message from rank %d on context %u, which does not exist here "
                  "(destroyed, or this rank is not a member)", src, h->comm);
        p2p_msg_drop(NULL, &m, ORDO_ERR_INVALID_HANDLE);   /* the caller releases desc */
        return ORDO_OK;
    }
    return admit(c, &m);
}

void p2p_admit_future(p2p_comm_t *c)
{
    /* oldest first: the list is newest first, so take it apart and reverse */
    p2p_msg_t *mine = NULL, **pp = &p2p->future, *m;
    while ((m = *pp) != NULL) {
        if (m->comm == c->id) {
            *pp = m->next;
            m->next = mine;
            mine = m;
        } else {
            pp = &m->next;
        }
    }
    while (mine) {
        m = mine;
        mine = m->next;
        m->next = NULL;
        admit(c, m);   /* kept records: matching never refuses them */
    }
}
