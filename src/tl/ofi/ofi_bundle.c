/* ofi: short messages of the layer above gathered into one.
 *
 * Over a software provider (tcp, sockets, udp, shm) every message costs a
 * system call at each end, which is what bounds the message rate of small
 * sends: a window of 64 eager sends is 64 sendto and 64 recvfrom calls.  A
 * message of at most 4 KiB (and at most am_short_max, so that the layer
 * above may take it as a short one, valid only during its handler) is instead copied into an open
 * bundle per peer and lane (a record: its length, then its bytes), and the
 * bundle goes out as one message; the receiver hands its records up one by
 * one, in order, as it would the messages themselves.
 *
 * Gathering pays only where messages follow one another faster than the
 * transport is driven; a ping-pong's one message would only wait for the
 * next drive, and be copied twice (8-byte one-way latency over --nodes 2,
 * tcp, on a 2-core VM: 5.4 us gathered against 4.8 sent at once, ten
 * alternating rounds).  So messages are counted in bursts (those to a peer
 * on a lane between two drives of the transport), and the first of a burst
 * goes out at once unless the burst before it had several: a ping-pong's
 * or a halo's messages are never held, a window's are gathered from its
 * first (sending that one alone cost a window of 64 eight-byte sends 5-8%
 * of its rate).
 *
 * A bundle goes out when it is full, before any other message to the same
 * peer on the same lane (so a lane's order holds), and whenever the
 * transport is driven: every ordo call that waits or progresses, a
 * bootstrap wait, and the progress helper within 200 us once the program
 * stops calling ordo.  That last guarantee is why ORDO_OFI_MSG_BUNDLE=auto
 * bundles only with the helper running: with ORDO_OFI_PROGRESS=manual, a
 * send that returned would otherwise sit here while its sender computes.
 * NIC providers (verbs, cxi, efa ...) post a message without a system call
 * and are left alone. */
#define _GNU_SOURCE
#include "ofi.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/compiler.h"
#include "../../base/config.h"
#include "../../base/log.h"
#include "../../base/timer.h"

#define OFI_BUNDLE_MSG_MAX 4096

typedef struct ofi_bundle_rec {
    uint32_t len;        /* the message's bytes that follow, padded to 8 */
    uint32_t reserved;
} ofi_bundle_rec_t;

static inline size_t rec_len(size_t len)
{
    return sizeof(ofi_bundle_rec_t) + ((len + 7) & ~(size_t)7);
}

static inline struct ofi_bundle_slot *slot(ofi_iface_t *o, int rank, unsigned lane)
{
    return &o->bundle_slot[(size_t)rank * (size_t)o->nlanes + lane];
}

int ofi_bundle_wanted(const char *prov)
{
    int mode = ordo_config.ofi_msg_bundle;
    if (mode == ORDO_OFI_MSG_BUNDLE_ON)
        return 1;
    return mode == ORDO_OFI_MSG_BUNDLE_AUTO && !ofi_hardware_provider(prov) &&
           ordo_config.ofi_progress == ORDO_OFI_PROGRESS_THREAD;
}

ordo_status_t ofi_bundle_open(ofi_iface_t *o)
{
    o->bundle_max = 0;
    if (!ofi_bundle_wanted(o->info->fabric_attr->prov_name))
        return ORDO_OK;
    /* Messages of a few KiB already amortise their system call; a bundle
     * holds at least four of the largest it takes. */
    size_t room = o->buf_size - sizeof(ofi_wire_t);
    size_t max = ORDO_MIN(o->super.am_short_max, (size_t)OFI_BUNDLE_MSG_MAX);
    if (rec_len(max) * 4 > room)
        max = (room / 4 - sizeof(ofi_bundle_rec_t)) & ~(size_t)7;
    o->bundle_slot = calloc((size_t)o->size * (size_t)o->nlanes, sizeof(*o->bundle_slot));
    if (o->bundle_slot == NULL)
        return ORDO_ERR_NO_MEMORY;
    o->drives = 1;   /* a fresh slot's 0 names no drive */
    o->bundle_max = max;
    return ORDO_OK;
}

static void unlink_open(ofi_iface_t *o, ofi_buf_t *b)
{
    for (ofi_buf_t **pp = &o->bundle_list; *pp; pp = &(*pp)->next)
        if (*pp == b) {
            *pp = b->next;
            break;
        }
    slot(o, b->rank, b->lane)->open = NULL;
    ofi_update_waiting(o);
}

/* Send an open bundle: 0, -FI_EAGAIN (it stays open), or an error (its
 * messages are lost with their peer, whose death the layer above hears of). */
static ssize_t send_bundle(ofi_iface_t *o, ofi_buf_t *b)
{
    struct fid_ep *ep = o->lane[b->lane].ep;
    fi_addr_t dest = o->addr[(size_t)b->rank * (size_t)o->nlanes + b->lane];
    ssize_t ret;
    size_t one = b->len - sizeof(ofi_wire_t) - sizeof(ofi_bundle_rec_t);
    if (ORDO_UNLIKELY(ordo_boot_rank_dead(o->boot, b->rank))) {
        ret = -FI_ECONNRESET;
    } else if (b->nrec == 1 && sizeof(ofi_wire_t) + one <= o->inject_max &&
               sizeof(ofi_wire_t) + one <= 256) {
        /* one message gathered (a ping-pong's): it goes as itself, injected */
        char buf[256];
        ofi_wire_t w = {.src = (uint32_t)o->rank, .kind = OFI_MSG_SHORT};
        ofi_bundle_rec_t rec;
        memcpy(&rec, b->data + sizeof(w), sizeof(rec));
        memcpy(buf, &w, sizeof(w));
        memcpy(buf + sizeof(w), b->data + sizeof(w) + sizeof(rec), rec.len);
        ret = fi_inject(ep, buf, sizeof(w) + rec.len, dest);
        if (ret == -FI_EAGAIN)
            return ret;
        unlink_open(o, b);
        ofi_tx_return(o, b);
        if (ret != 0 && !ordo_boot_rank_dead(o->boot, b->rank))
            ofi_post_error(o, "a message", b->rank, ret);
        return ret;
    } else {
        b->ctx.kind = OFI_CTX_TX;
        ret = ofi_send_buf(o, b->lane, b->data, b->len, dest, &b->ctx);
        if (ret == -FI_EAGAIN && !o->polling) {
            ofi_poll(o);
            ret = ofi_send_buf(o, b->lane, b->data, b->len, dest, &b->ctx);
        }
        if (ret == -FI_EAGAIN)
            return ret;
    }
    unlink_open(o, b);
    if (ret != 0) {
        if (!ordo_boot_rank_dead(o->boot, b->rank))
            ofi_post_error(o, "a bundle of messages", b->rank, ret);
        ofi_tx_return(o, b);
        return ret;
    }
    o->super.msg_bundles++;
    return 0;
}

ssize_t ofi_bundle_flush(ofi_iface_t *o, int rank, unsigned lane)
{
    ofi_buf_t *b = slot(o, rank, lane)->open;
    return b ? send_bundle(o, b) : 0;
}

void ofi_bundle_flush_all(ofi_iface_t *o)
{
    ofi_buf_t *b = o->bundle_list;
    while (b) {
        ofi_buf_t *next = b->next;   /* sending unlinks it */
        send_bundle(o, b);
        b = next;
    }
}

int ofi_bundle_add(ofi_iface_t *o, int rank, unsigned lane, const void *hdr, size_t hdrlen,
                   const void *payload, size_t len)
{
    size_t need = rec_len(hdrlen + len);
    struct ofi_bundle_slot *sl = slot(o, rank, lane);
    if (sl->drive != o->drives) {   /* a burst begins */
        sl->several = sl->count > 1;
        sl->drive = o->drives;
        sl->count = 0;
    }
    if (sl->count < UINT16_MAX)
        sl->count++;
    ofi_buf_t *b = sl->open;
    if (b == NULL && sl->count == 1 && !sl->several)
        return 0;   /* at once */
    if (b && b->len + need > o->buf_size && send_bundle(o, b) != 0)
        return 0;   /* refused for now: the message goes on its own, behind it */
    if ((b = sl->open) == NULL) {
        /* keep most message buffers for messages that cannot wait */
        if (o->ntx_free <= o->ntx / 4 || (b = ofi_tx_take(o)) == NULL)
            return 0;
        ofi_wire_t w = {.src = (uint32_t)o->rank, .kind = OFI_MSG_BUNDLE};
        memcpy(b->data, &w, sizeof(w));
        b->len = sizeof(w);
        b->nrec = 0;
        b->rank = rank;
        b->lane = (uint8_t)lane;
        sl->open = b;
        b->next = o->bundle_list;
        o->bundle_list = b;
        atomic_store_explicit(&o->batch_waiting, 1, memory_order_relaxed);
    }
    ofi_bundle_rec_t rec = {.len = (uint32_t)(hdrlen + len)};
    char *p = b->data + b->len;
    memcpy(p, &rec, sizeof(rec));
    memcpy(p + sizeof(rec), hdr, hdrlen);
    if (len)
        memcpy(p + sizeof(rec) + hdrlen, payload, len);
    b->len += need;
    b->nrec++;
    o->super.msgs_bundled++;
    if (b->len + rec_len(0) > o->buf_size)
        send_bundle(o, b);   /* no room for another */
    return 1;
}

void ofi_bundle_close(ofi_iface_t *o)
{
    if (o->bundle_slot == NULL)
        return;
    /* What the program sent last still goes out, unless its peer is gone:
     * wait a little for the provider to take it. */
    ofi_bundle_flush_all(o);
    uint64_t until = ordo_time_ns() + 100u * 1000 * 1000;
    while ((o->bundle_list || o->ntx_free < o->ntx) && ordo_time_ns() < until) {
        ofi_poll(o);
        ofi_bundle_flush_all(o);
    }
    while (o->bundle_list) {
        ofi_buf_t *b = o->bundle_list;
        unlink_open(o, b);
        ofi_tx_return(o, b);
    }
    free(o->bundle_slot);
    o->bundle_slot = NULL;
}

/* ------------------------------------------------------ at the receiver */

/* Hand every record of a peer's bundle up, in order, each checked against
 * what is left of the message first. */
void ofi_bundle_hand_up(ofi_iface_t *o, int src, const char *msg, size_t len)
{
    size_t off = 0;
    while (off < len) {
        ofi_bundle_rec_t rec;
        if (len - off < sizeof(rec)) {
            ordo_warn("ofi: dropped the truncated end of a bundle of messages from rank %d",
                      src);
            return;
        }
        memcpy(&rec, msg + off, sizeof(rec));
        off += sizeof(rec);
        size_t padded = ((size_t)rec.len + 7) & ~(size_t)7;
        if (rec.len > o->super.am_short_max || len - off < padded) {
            ordo_warn("ofi: dropped a malformed bundle of messages from rank %d", src);
            return;
        }
        ordo_tl_am_deliver(&o->super, src, (void *)(msg + off), rec.len, NULL);
        off += padded;
    }
}
