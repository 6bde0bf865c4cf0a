/* An unexpected rendezvous-get of up to ORDO_EAGER_MAX bytes is pulled
 * before its receive is posted, when waiting for that receive could stop
 * the job.
 *
 * On shared memory a send of a bounce buffer's size may go by rendezvous
 * (a single copy measured cheaper than a bounce buffer's two): its data
 * stays in the sender's buffer until the receiver takes it, and a blocking
 * send waits for that.  Two ranks that both send before they receive would
 * then wait for each other.  So a receiver that finds such a message
 * unexpected pulls it into memory of its own and answers FIN, which
 * completes the send; the receive later copies it out as an eager message
 * (or waits for the pull still running).
 *
 * Pulled early, a message costs one more copy (its receive copies it out
 * again), so it is pulled at once only where it must be: when this rank's
 * own send of that size to the sender is waiting for the sender (an
 * exchange; in a ping-pong the peer's FIN for our send comes ahead of its
 * next message, so nothing waits).  Any other waits PULL_DELAY_NS first:
 * its receive is usually posted by then (it then takes the data straight
 * into its buffer), and where the ranks wait for each other in a longer
 * cycle the pull ends the wait.  A pull that fails leaves the rendezvous as
 * it came. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "p2p.h"
#include "../base/log.h"
#include "../base/timer.h"

#define PULL_DELAY_NS (50 * 1000)

typedef struct p2p_pull {
    ordo_tl_comp_t   comp;
    struct p2p_pull *next, *prev;   /* waiting to start, oldest first */
    uint64_t         due_ns;
    p2p_msg_t       *m;        /* NULL once the message went away meanwhile */
    ordo_tl_rkey_t  *rkey;
    char            *data;     /* NULL until it starts */
    uint64_t         waiter;   /* token of the receive matched meanwhile; 0: none */
    uint64_t         sreq;
    int              src;
    uint8_t          started, done;
    ordo_status_t    drop_st;  /* what the sender is told when m went away */
} p2p_pull_t;

static void tell_sender(const p2p_pull_t *p, ordo_status_t st)
{
    if (p2p_peer(p->src)->dead)
        return;
    p2p_hdr_t h = {.type = P2P_FIN, .tag = st, .sreq = p->sreq};
    p2p_send_ctl(p->src, &h, NULL, 0);
}

static void wait_unlink(p2p_pull_t *p)
{
    if (p->prev) p->prev->next = p->next; else p2p->pull_head = p->next;
    if (p->next) p->next->prev = p->prev; else p2p->pull_tail = p->prev;
    p->next = p->prev = NULL;
}

static void pull_free(p2p_pull_t *p)
{
    free(p->data);
    free(p);
}

/* The receive that matched m meanwhile, if it is still waiting: a token of
 * ours, so a stale one (the receive failed with its peer, its object
 * reused) is quietly nothing, not a forged header. */
static p2p_req_t *waiter_of(const p2p_pull_t *p)
{
    p2p_req_t *r = p->waiter != 0 ? p2p_req_at(p->waiter) : NULL;
    return r != NULL && r->super.state == ORDO_OP_INFLIGHT && r->kind == P2P_RECV &&
           r->phase == PHASE_DATA ? r : NULL;
}

static void pull_done(ordo_tl_comp_t *comp, ordo_status_t st)
{
    p2p_pull_t *p = ordo_container_of(comp, p2p_pull_t, comp);
    ordo_tl_iface_t *f = ordo_iface_of(p->src);
    f->ops->rkey_close(f, p->rkey);
    p->rkey = NULL;
    p2p->pulls--;
    p2p_msg_t *m = p->m;
    if (m == NULL) {   /* dropped while we pulled: the sender still hears */
        tell_sender(p, p->drop_st);
        pull_free(p);
        return;
    }
    p2p_req_t *r = waiter_of(p);
    if (st != ORDO_OK) {
        ordo_debug("pulling an unexpected message from rank %d: %s; left to its receive",
                   p->src, ordo_status_string(st));
        m->pull = NULL;
        uint64_t waiter = p->waiter;
        pull_free(p);
        if (waiter != 0) {   /* matched meanwhile (unlinked then, credit returned) */
            if (r != NULL && p2p_peer(m->src)->dead)
                p2p_req_done(r, ORDO_ERR_PEER_DEAD);
            else if (r != NULL)
                p2p_deliver(r, m);   /* the rendezvous it came as (m->pull is gone) */
            p2p_msg_free(m);
        }
        return;
    }
    tell_sender(p, ORDO_OK);
    p->done = 1;
    m->proto = PROTO_EAGER;   /* from here an eager message held in our memory */
    m->data = p->data;
    m->datalen = (size_t)m->len;
    if (p->waiter != 0) {
        if (r != NULL)
            p2p_deliver(r, m);
        p2p_msg_free(m);
    }
}

/* Start copying p's message here; without memory or a key it stays the
 * rendezvous it came as. */
static void pull_begin(p2p_pull_t *p)
{
    p2p_msg_t *m = p->m;
    ordo_tl_iface_t *f = ordo_iface_of(p->src);
    p->data = malloc((size_t)m->len);
    if (p->data == NULL || p2p_peer(p->src)->dead ||
        f->ops->rkey_open(f, p->src, m->data, m->datalen, &p->rkey) != ORDO_OK) {
        m->pull = NULL;
        pull_free(p);
        return;
    }
    p->started = 1;
    p->comp.func = pull_done;
    p2p->pulls++;
    ordo_status_t st = f->ops->get(f, p->rkey, 0, p->data, (size_t)m->len,
                                   ordo_lone_copy_flags((size_t)m->len), &p->comp);
    if (st != ORDO_INPROGRESS)
        pull_done(&p->comp, st);
}

void p2p_pull_arrived(p2p_msg_t *m)
{
    if (!m->pullable || m->proto != PROTO_RGET || m->len == 0 ||
        m->len > p2p->lim.eager_max || m->datalen == 0 || !p2p->single_copy ||
        m->pull != NULL)
        return;
    p2p_peer_t *peer = p2p_peer(m->src);
    if (peer->no_single_copy || peer->dead)
        return;
    p2p_pull_t *p = calloc(1, sizeof(*p));
    if (p == NULL)
        return;
    p->m = m;
    p->sreq = m->sreq;
    p->src = m->src;
    m->pull = p;
    if (peer->band_out > 0) {   /* our send to it waits for it: an exchange */
        pull_begin(p);
        return;
    }
    p->due_ns = ordo_time_ns() + PULL_DELAY_NS;
    p->prev = p2p->pull_tail;
    if (p2p->pull_tail) p2p->pull_tail->next = p; else p2p->pull_head = p;
    p2p->pull_tail = p;
}

unsigned p2p_pull_progress(void)
{
    unsigned n = 0;
    uint64_t now = ordo_time_ns();
    while (p2p->pull_head && p2p->pull_head->due_ns <= now) {
        p2p_pull_t *p = p2p->pull_head;
        wait_unlink(p);
        pull_begin(p);
        n++;
    }
    return n;
}

int p2p_pull_wait(p2p_msg_t *m, p2p_req_t *r)
{
    p2p_pull_t *p = m->pull;
    if (p == NULL || p->done)
        return 0;
    if (!p->started) {   /* its receive came in time: the rendezvous as it came */
        wait_unlink(p);
        m->pull = NULL;
        pull_free(p);
        return 0;
    }
    r->phase = PHASE_DATA;
    p->waiter = p2p_token(r);
    return 1;
}

int p2p_pull_detach(p2p_msg_t *m, ordo_status_t st)
{
    p2p_pull_t *p = m->pull;
    if (p == NULL)
        return 0;
    m->pull = NULL;
    if (!p->started || p->done) {
        if (!p->started)
            wait_unlink(p);
        pull_free(p);   /* a pulled message's data goes with it */
        return 0;
    }
    p->m = NULL;   /* pull_done frees it, and tells the sender st */
    p->drop_st = st;
    return 1;
}
