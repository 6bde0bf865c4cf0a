/* ofi: active messages.  Every lane keeps nrx receive buffers posted; a
 * message is the transport header (sender, kind) and the layer's data.
 * Small messages go out with fi_inject (the provider copies them), or
 * gathered with others into one (ofi_bundle.c); larger
 * ones from a registered bounce buffer returned when the send completes.
 *
 * Messages for the layer above are handed up only from the transport's
 * progress function: reading the completion queues parks them, and
 * progress hands them up in arrival order afterwards.  A synchronous
 * operation or a send that polls therefore never re-enters the layer's
 * handler.  Atomic requests and replies are the
 * transport's own and are served at once, even during a wait: two ranks
 * waiting on each other's atomics must not deadlock. */
#define _GNU_SOURCE
#include "ofi.h"

#include <stdlib.h>
#include <string.h>

#include "../../base/compiler.h"
#include "../../base/log.h"

static void repost(ofi_iface_t *o, ofi_buf_t *b)
{
    b->held = 0;
    b->ctx.kind = OFI_CTX_RX;
    ssize_t ret = fi_recv(o->lane[b->lane].ep, b->data, o->buf_size, ofi_pool_desc(o, b->lane),
                          FI_ADDR_UNSPEC, &b->ctx);
    if (ORDO_LIKELY(ret == 0))
        return;
    if (ret != -FI_EAGAIN)
        ordo_warn("ofi: cannot post a receive buffer (retrying): %s", fi_strerror((int)-ret));
    /* The receive queue is momentarily full: progress posts it again. */
    b->next = o->rx_repost;
    o->rx_repost = b;
}

unsigned ofi_am_repost_pending(ofi_iface_t *o)
{
    ofi_buf_t *b = o->rx_repost;
    o->rx_repost = NULL;
    unsigned n = 0;
    while (b) {
        ofi_buf_t *next = b->next;
        repost(o, b);
        b = next;
        n++;
    }
    return n;
}

ordo_status_t ofi_am_open(ofi_iface_t *o)
{
    ordo_tl_am_limits_t lim;
    ordo_tl_am_limits(o->size, &lim);
    /* the layer's header on top of its payload limits */
    o->super.am_short_max = lim.short_max + 64;
    o->super.am_bcopy_max = lim.eager_max + 64;
    /* Over a network a rendezvous costs a round trip, far more than a copy
     * of a bounce buffer's size: eager up to the bounce buffers' limit. */
    o->super.eager_cross = SIZE_MAX;
    size_t largest = ORDO_MAX(o->super.am_short_max, o->super.am_bcopy_max);
    o->buf_size = (sizeof(ofi_wire_t) + largest + 63) & ~(size_t)63;
    o->nrx = 64;
    o->ntx = 64;
    size_t nbufs = (size_t)o->nrx * (size_t)o->nlanes + o->ntx;
    o->pool_len = (nbufs * o->buf_size + 4095) & ~(size_t)4095;
    o->pool = aligned_alloc(4096, o->pool_len);
    o->bufs = calloc(nbufs, sizeof(*o->bufs));
    if (o->pool == NULL || o->bufs == NULL) {
        ordo_error("ofi: cannot allocate %zu bytes of message buffers", o->pool_len);
        return ORDO_ERR_NO_MEMORY;
    }
    if (o->mr_local) {
        for (int l = 0; l < (o->mr_per_lane ? o->nlanes : 1); l++) {
            int ret = ofi_mr_reg(o, o->pool, o->pool_len, FI_SEND | FI_RECV, (unsigned)l,
                                 &o->pool_mr[l]);
            if (ret != 0)
                return ofi_mr_error(o, "message buffers", o->pool_len, ret);
        }
    }
    for (size_t i = 0; i < nbufs; i++) {
        ofi_buf_t *b = &o->bufs[i];
        b->data = o->pool + i * o->buf_size;
        if (i < (size_t)o->nrx * (size_t)o->nlanes) {
            b->lane = (uint8_t)(i / o->nrx);
            repost(o, b);
        } else {
            b->ctx.kind = OFI_CTX_TX;
            ofi_tx_return(o, b);
        }
    }
    return ORDO_OK;
}

void ofi_am_close(ofi_iface_t *o)
{
    for (ofi_buf_t *b = o->rx_parked_head, *next; b; b = next) {
        next = b->next;
        if (b->spilled)
            free(b);
    }
    o->rx_parked_head = o->rx_parked_tail = NULL;
    for (int l = 0; l < OFI_LANES_MAX; l++)
        ofi_mr_close(o, o->pool_mr[l]);
    free(o->pool);
    free(o->bufs);
}

/* ----------------------------------------------------------- receiving */

/* Done with a buffer of the layer above: post it again, or free a copy. */
static void give_back(ofi_iface_t *o, ofi_buf_t *b)
{
    if (b->spilled) {
        free(b);
        return;
    }
    if (b->held)
        o->held[b->lane]--;
    repost(o, b);
}

/* A heap copy of b; b goes back to the provider. */
static ofi_buf_t *copy_out(ofi_iface_t *o, ofi_buf_t *b)
{
    ofi_buf_t *c = malloc(sizeof(*c) + b->len);
    if (c == NULL)
        return NULL;
    *c = *b;
    c->data = (char *)(c + 1);
    c->spilled = 1;
    c->held = 0;
    memcpy(c->data, b->data, b->len);
    repost(o, b);
    return c;
}

static void park(ofi_iface_t *o, ofi_buf_t *b)
{
    b->next = NULL;
    if (o->rx_parked_tail) o->rx_parked_tail->next = b; else o->rx_parked_head = b;
    o->rx_parked_tail = b;
    o->nparked++;
}

/* A synchronous operation that waits long while messages keep arriving
 * would leave every receive buffer parked, and a reply it waits for (an
 * atomic's) with nowhere to land: copy the parked messages to the heap and
 * post their buffers again. */
void ofi_am_spill(ofi_iface_t *o)
{
    ofi_buf_t **pp = &o->rx_parked_head, *last = NULL;
    while (*pp) {
        ofi_buf_t *b = *pp;
        if (!b->spilled) {
            ofi_buf_t *c = copy_out(o, b);
            if (c == NULL)
                return;   /* keep what is parked; the wait goes on polling */
            *pp = c;
            b = c;
        }
        last = b;
        pp = &b->next;
    }
    o->rx_parked_tail = last;
    o->nparked = 0;   /* counts receive buffers held, not copies */
}

/* Hand one message of the layer above up; keeps or reposts the buffer. */
/* An eager message the layer keeps (unexpected) keeps its receive buffer,
 * without a copy, while at most half of the lane's buffers are kept so:
 * beyond, it is copied out, so buffers stay posted for whatever comes next
 * (the message a receive waits for may be behind many unexpected ones). */
static void hand_up(ofi_iface_t *o, ofi_buf_t *b)
{
    ofi_wire_t w;
    memcpy(&w, b->data, sizeof(w));
    if (w.kind == OFI_MSG_BUNDLE) {
        ofi_bundle_hand_up(o, (int)w.src, b->data + sizeof(w), b->len - sizeof(w));
        give_back(o, b);
        return;
    }
    if (w.kind == OFI_MSG_SHORT) {
        ordo_tl_am_deliver(&o->super, (int)w.src, b->data + sizeof(w), b->len - sizeof(w),
                           NULL);
        give_back(o, b);
        return;
    }
    if (!b->spilled && o->held[b->lane] >= o->nrx / 2) {
        ofi_buf_t *c = copy_out(o, b);
        if (c)
            b = c;
    }
    if (ordo_tl_am_deliver(&o->super, (int)w.src, b->data + sizeof(w), b->len - sizeof(w),
                           b) == ORDO_INPROGRESS) {
        if (!b->spilled) {
            b->held = 1;
            o->held[b->lane]++;
        }
        return;
    }
    give_back(o, b);
}

void ofi_am_rx_complete(ofi_iface_t *o, ofi_buf_t *b, size_t len)
{
    ofi_wire_t w;
    if (len < sizeof(w)) {
        repost(o, b);
        return;
    }
    memcpy(&w, b->data, sizeof(w));
    if (w.src >= (uint32_t)o->size) {
        ordo_warn("ofi: dropped a message claiming to come from rank %u of %d", w.src, o->size);
        repost(o, b);
        return;
    }
    b->len = len;
    len -= sizeof(w);
    switch (w.kind) {
    case OFI_MSG_SHORT:
    case OFI_MSG_BCOPY:
    case OFI_MSG_BUNDLE:
        park(o, b);   /* handed up by progress, in arrival order */
        return;
    case OFI_MSG_AMO_REQ:
        if (len == sizeof(ofi_amo_req_t)) {
            ofi_amo_req_t req;
            memcpy(&req, b->data + sizeof(w), sizeof(req));
            ofi_amo_serve(o, (int)w.src, b->lane, &req);
        }
        break;
    case OFI_MSG_AMO_REP:
        if (len == sizeof(ofi_amo_rep_t)) {
            ofi_amo_rep_t rep;
            memcpy(&rep, b->data + sizeof(w), sizeof(rep));
            ofi_amo_reply(o, (int)w.src, &rep);
        }
        break;
    case OFI_MSG_PUTS:
        ofi_batch_apply(o, (int)w.src, b->lane, b->data + sizeof(w), len);
        break;
    case OFI_MSG_PUTS_ACK:
        if (len == sizeof(ofi_puts_ack_t)) {
            ofi_puts_ack_t ack;
            memcpy(&ack, b->data + sizeof(w), sizeof(ack));
            ofi_batch_acked(o, (int)w.src, &ack);
        }
        break;
    default:
        ordo_warn("ofi: dropped a message of unknown kind %u from rank %u", w.kind, w.src);
        break;
    }
    repost(o, b);
}

unsigned ofi_am_deliver_parked(ofi_iface_t *o)
{
    unsigned n = 0;
    /* Take the list: the handler may send, and a send may poll and park. */
    ofi_buf_t *b = o->rx_parked_head;
    o->rx_parked_head = o->rx_parked_tail = NULL;
    o->nparked = 0;
    while (b) {
        ofi_buf_t *next = b->next;
        hand_up(o, b);
        b = next;
        n++;
    }
    return n;
}

void ofi_am_release(ordo_tl_iface_t *iface, void *desc)
{
    give_back((ofi_iface_t *)iface, desc);
}

/* ------------------------------------------------------------- sending */

ofi_buf_t *ofi_tx_take(ofi_iface_t *o)
{
    ofi_buf_t *b = o->tx_free;
    if (b) {
        o->tx_free = b->next;
        o->ntx_free--;
        b->batch = NULL;
    }
    return b;
}

void ofi_tx_return(ofi_iface_t *o, ofi_buf_t *b)
{
    b->next = o->tx_free;
    o->tx_free = b;
    o->ntx_free++;
}

void ofi_am_tx_complete(ofi_iface_t *o, ofi_buf_t *b, ordo_status_t st)
{
    ofi_op_t *batch = b->batch;
    ofi_tx_return(o, b);
    if (batch)
        ofi_batch_tx_done(o, batch, st);
}

ordo_status_t ofi_am_send(ofi_iface_t *o, int rank, unsigned lane, uint8_t kind,
                          const void *hdr, size_t hdrlen, const void *payload, size_t len)
{
    if (ORDO_UNLIKELY(ordo_boot_rank_dead(o->boot, rank)))
        return ORDO_ERR_PEER_DEAD;
    size_t total = sizeof(ofi_wire_t) + hdrlen + len;
    if (ORDO_UNLIKELY(total > o->buf_size))
        return ORDO_ERR_INVALID_PARAM;
    if (o->bundle_max) {
        if ((kind == OFI_MSG_SHORT || kind == OFI_MSG_BCOPY) && hdrlen + len <= o->bundle_max &&
            ofi_bundle_add(o, rank, lane, hdr, hdrlen, payload, len))
            return ORDO_OK;
        if (o->bundle_list)   /* what was gathered for this lane goes first */
            ofi_bundle_flush(o, rank, lane);
    }
    ofi_wire_t w = {.src = (uint32_t)o->rank, .kind = kind};
    struct fid_ep *ep = o->lane[lane].ep;
    fi_addr_t dest = o->addr[(size_t)rank * (size_t)o->nlanes + lane];
    ssize_t ret;
    if (total <= o->inject_max && total <= 256) {
        char buf[256];
        memcpy(buf, &w, sizeof(w));
        memcpy(buf + sizeof(w), hdr, hdrlen);
        if (len)
            memcpy(buf + sizeof(w) + hdrlen, payload, len);
        ret = fi_inject(ep, buf, total, dest);
        if (ret == -FI_EAGAIN) {
            ofi_poll(o);
            ret = fi_inject(ep, buf, total, dest);
        }
    } else {
        if (o->tx_free == NULL)
            ofi_poll(o);
        ofi_buf_t *b = ofi_tx_take(o);
        if (b == NULL)
            return ORDO_ERR_BUSY;
        memcpy(b->data, &w, sizeof(w));
        memcpy(b->data + sizeof(w), hdr, hdrlen);
        if (len)
            memcpy(b->data + sizeof(w) + hdrlen, payload, len);
        b->ctx.kind = OFI_CTX_TX;
        b->rank = rank;
        ret = ofi_send_buf(o, lane, b->data, total, dest, &b->ctx);
        if (ret == -FI_EAGAIN) {
            ofi_poll(o);
            ret = ofi_send_buf(o, lane, b->data, total, dest, &b->ctx);
        }
        if (ret != 0)
            ofi_tx_return(o, b);
    }
    if (ORDO_LIKELY(ret == 0))
        return ORDO_OK;
    if (ret == -FI_EAGAIN)
        return ORDO_ERR_BUSY;
    ofi_post_error(o, "a message", rank, ret);
    return ofi_status((int)ret);
}

static inline unsigned am_lane(ofi_iface_t *o, int rank)
{
    /* Any lane will do (the layer above rebuilds the order it needs): the
     * peer's current one, so that short messages share a bundle. */
    if (o->nlanes == 1)
        return 0;
    unsigned l = o->peer_lane[rank];
    ofi_lane_used(o, l);
    return l;
}

ordo_status_t ofi_am_short(ordo_tl_iface_t *iface, int rank, const void *hdr, size_t hdrlen,
                           const void *payload, size_t len)
{
    ofi_iface_t *o = (ofi_iface_t *)iface;
    if (ORDO_UNLIKELY(hdrlen + len > iface->am_short_max))
        return ORDO_ERR_INVALID_PARAM;
    return ofi_am_send(o, rank, am_lane(o, rank), OFI_MSG_SHORT, hdr, hdrlen, payload, len);
}

ordo_status_t ofi_am_bcopy(ordo_tl_iface_t *iface, int rank, const void *hdr, size_t hdrlen,
                           const void *payload, size_t len)
{
    ofi_iface_t *o = (ofi_iface_t *)iface;
    if (ORDO_UNLIKELY(hdrlen + len > iface->am_bcopy_max))
        return ORDO_ERR_INVALID_PARAM;
    return ofi_am_send(o, rank, am_lane(o, rank), OFI_MSG_BCOPY, hdr, hdrlen, payload, len);
}
