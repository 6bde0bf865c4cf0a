/* A peer declared dead: what waits for it fails with ORDO_ERR_PEER_DEAD
 * (queued sends, pipelines, rendezvous both ways, receives posted for it or
 * for any source). */
#include "p2p.h"

void p2p_fail_peer(int rank)
{
    p2p_peer_t *p = p2p_peer(rank);
    if (p->dead)
        return;
    p->dead = 1;
    while (p->ctl_head) {
        p2p_ctl_t *q = p->ctl_head;
        p->ctl_head = q->next;
        q->next = p2p->free_ctls;
        p2p->free_ctls = q;
        p2p->queued--;
    }
    p->ctl_tail = NULL;
    while (p->sendq_head) {
        p2p_req_t *r = p->sendq_head;
        p2p_queue_unlink(&p->sendq_head, &p->sendq_tail, r);
        r->comm->nqueued[rank]--;
        p2p_req_done(r, ORDO_ERR_PEER_DEAD);
    }
    while (p->pipe_head) {
        p2p_req_t *r = p->pipe_head;
        p2p_queue_unlink(&p->pipe_head, &p->pipe_tail, r);
        p2p_req_done(r, ORDO_ERR_PEER_DEAD);
    }
    /* Receives that wait for this rank: posted for it (or for any rank, as
     * MPI's fault-tolerance proposal does, since it might have been the one
     * to send), or matched to its rendezvous. */
    p2p_req_t *r = p2p->active, *next;
    for (; r; r = next) {
        next = r->anext;
        if (r->proto == PROTO_SPLIT && r->phase == PHASE_DATA &&
            (r->kind == P2P_SEND ? r->peer : r->rsrc) == rank) {
            /* the peer's half will never be reported: count it as failed; our
             * own half completes (or fails) through its transfer */
            p2p_split_part_done(r, ORDO_ERR_PEER_DEAD);
        } else if (r->kind == P2P_SEND) {
            if (r->peer == rank && r->phase == PHASE_RNDV)
                p2p_req_done(r, ORDO_ERR_PEER_DEAD);
        } else if (r->phase == PHASE_POSTED) {
            if (r->peer == rank || r->peer == ORDO_ANY_SOURCE) {
                p2p_posted_unlink(r->comm, r);
                p2p_req_done(r, ORDO_ERR_PEER_DEAD);
            }
        } else if (r->rsrc == rank && (r->phase == PHASE_RNDV || r->phase == PHASE_FRAGS)) {
            p2p_req_done(r, ORDO_ERR_PEER_DEAD);
        }
    }
}
