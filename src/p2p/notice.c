/* Notices that a collective call failed, as they arrive from members:
 * handed to the collectives, or held for a context this rank has yet to
 * create until it is. */
#include <stdlib.h>

#include "p2p.h"
#include "../base/log.h"

/* A member's notice that a collective call failed: for the collectives,
 * or kept for a context this rank has yet to create (its creation may
 * still be finishing here); one of a context gone here fails nothing. */
void p2p_on_notice(int src, const p2p_hdr_t *h)
{
    p2p_comm_t *c = p2p_comm_live(h->comm);
    if (c != NULL) {
        if (p2p->coll_notice)
            p2p->coll_notice(c, src, h);
        return;
    }
    if (h->comm < p2p->next_id)
        return;
    unsigned kept = 0;
    for (p2p_ctl_t *q = p2p->future_notices; q; q = q->next)
        kept++;
    p2p_ctl_t *q;
    if (kept >= 4096 || (q = malloc(sizeof(*q))) == NULL) {
        ordo_error("dropped rank %d's notice of a failed collective on context %u, which "
                   "is not created here yet (%u such notices held)", src, h->comm, kept);
        return;
    }
    q->hdr = *h;
    q->bloblen = (size_t)src;   /* who sent it */
    q->next = p2p->future_notices;
    p2p->future_notices = q;
}

void p2p_admit_future_notices(p2p_comm_t *c)
{
    for (p2p_ctl_t **pp = &p2p->future_notices, *q; (q = *pp) != NULL;) {
        if (q->hdr.comm != c->id) {
            pp = &q->next;
            continue;
        }
        *pp = q->next;
        if (p2p->coll_notice)
            p2p->coll_notice(c, (int)q->bloblen, &q->hdr);
        free(q);
    }
}
