/* ofi: short puts gathered into messages.
 *
 * Where a provider's RMA is software at the target anyway (tcp, sockets,
 * udp, shm: the target's progress receives a write and copies it into
 * place), each fi_write of a few bytes costs its own message and its own
 * acknowledgement, a system call or more at each end.  A put of at most
 * ORDO_OFI_PUT_BATCH_MAX bytes is instead copied into one message per peer
 * and lane, as a record (memory id, offset, length, data), and so is an
 * atomic whose old value nobody wants (add, and, or, xor; put_signal's
 * set); the target's
 * progress checks every record against the memory it exposed, copies them
 * into place in order and acknowledges the batch, and the acknowledgement
 * completes every put in it.  Open MPI's pt2pt one-sided component and
 * GASNet's puts over active messages do the same.
 *
 * A batch goes out when it is full, when the program next drives the
 * transport (any ordo call that waits or progresses, or the progress helper
 * within about a millisecond), and before any other operation towards the
 * same peer on the same lane, so nothing passes it: one lane's order is
 * what the default mode relies on (tl.h: short puts are their own kind, in
 * order with atomics and each other by FI_ORDER_SAS).  Providers that do RMA
 * in the NIC (verbs, cxi, efa) never involve the target's CPU in a put, and
 * batching is off there unless ORDO_OFI_PUT_BATCH=on. */
#define _GNU_SOURCE
#include "ofi.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/compiler.h"
#include "../../base/config.h"
#include "../../base/log.h"

#define HDR_LEN (sizeof(ofi_wire_t) + sizeof(ofi_puts_hdr_t))
#define OFI_BATCH_MSG_MAX 8192   /* bytes of a batch's message (see ofi_batch_open) */

static inline size_t record_len(size_t len)
{
    return sizeof(ofi_put_rec_t) + ((len + 7) & ~(size_t)7);
}

static inline ofi_op_t **open_slot(ofi_iface_t *o, int rank, unsigned lane)
{
    return &o->batch_open[(size_t)rank * (size_t)o->nlanes + lane];
}

/* Providers whose NIC performs RMA without the target's CPU and posts a
 * message without a system call. */
int ofi_hardware_provider(const char *prov)
{
    static const char *const hw[] = {"verbs", "cxi", "efa", "opx", "psm2", "psm3"};
    for (size_t i = 0; i < sizeof(hw) / sizeof(hw[0]); i++)
        if (strstr(prov, hw[i]))
            return 1;
    return 0;
}

size_t ofi_batch_wanted(const char *prov)
{
    int mode = ordo_config.ofi_put_batch;
    if (mode == ORDO_OFI_PUT_BATCH_OFF ||
        (mode == ORDO_OFI_PUT_BATCH_AUTO && ofi_hardware_provider(prov)))
        return 0;
    return ordo_config.ofi_put_batch_max;
}

ordo_status_t ofi_batch_open(ofi_iface_t *o)
{
    o->batch_max = 0;
    size_t max = ofi_batch_wanted(o->info->fabric_attr->prov_name);
    if (max == 0)
        return ORDO_OK;
    /* A batch is applied when its message arrives, and an atomic's request
     * when it does: the order of the two is the order their messages
     * complete at the target.  A message past the provider's eager size
     * (ofi_rxm: 16 KiB by default) completes only after its data was
     * fetched, behind a shorter one sent after it; a batch stays below. */
    o->batch_bytes = ORDO_MIN(o->buf_size, (size_t)OFI_BATCH_MSG_MAX);
    /* at least four records fit a message */
    size_t room = (o->batch_bytes - HDR_LEN) / 4;
    if (record_len(max) > room)
        max = (room - sizeof(ofi_put_rec_t)) & ~(size_t)7;
    o->batch_open = calloc((size_t)o->size * (size_t)o->nlanes, sizeof(*o->batch_open));
    if (o->batch_open == NULL)
        return ORDO_ERR_NO_MEMORY;
    o->batch_max = max;
    o->super.put_short_max = max;
    return ORDO_OK;
}

void ofi_batch_close(ofi_iface_t *o)
{
    /* Batches still open or unacknowledged: nobody waits for them now. */
    for (uint32_t i = 0; i < o->reply_cap; i++) {
        ofi_op_t *b = o->reply_slot[i];
        if (b == NULL || b->type != OFI_OP_BATCH)
            continue;
        o->reply_slot[i] = NULL;
        for (ofi_op_t *m = b->members, *next; m; m = next) {
            next = m->member_next;
            free(m);
        }
        free(b);
    }
    free(o->batch_open);
    o->batch_open = NULL;
    o->batch_list = NULL;
}

static void list_remove(ofi_iface_t *o, ofi_op_t *b)
{
    for (ofi_op_t **pp = &o->batch_list; *pp; pp = &(*pp)->next)
        if (*pp == b) {
            *pp = b->next;
            break;
        }
    *open_slot(o, b->rank, b->lane) = NULL;
    ofi_update_waiting(o);
}

void ofi_update_waiting(ofi_iface_t *o)
{
    atomic_store_explicit(&o->batch_waiting, o->batch_list != NULL || o->bundle_list != NULL,
                          memory_order_relaxed);
}

/* The batch is done with: every member completes with st. */
static void complete_members(ofi_iface_t *o, ofi_op_t *b, ordo_status_t st)
{
    ofi_op_t *m = b->members;
    b->members = b->members_tail = NULL;
    while (m) {
        ofi_op_t *next = m->member_next;
        ofi_op_piece_done(o, m, st);
        m = next;
    }
}

void ofi_batch_fail(ofi_iface_t *o, ofi_op_t *b, ordo_status_t st)
{
    ofi_reply_slot_clear(o, b);
    if (!b->sent) {
        list_remove(o, b);
        ofi_tx_return(o, b->txbuf);
        b->tx_done = 1;
    }
    b->acked = 1;   /* no acknowledgement is awaited any more */
    complete_members(o, b, st);
    if (b->tx_done)
        ofi_op_release(o, b);
}

static ofi_op_t *batch_new(ofi_iface_t *o, int rank, unsigned lane)
{
    /* keep most message buffers for messages and replies */
    if (o->ntx_free <= o->ntx / 4)
        return NULL;
    ofi_op_t *b = ofi_op_new(o);
    if (b == NULL)
        return NULL;
    if (ofi_reply_slot_take(o, b) == UINT32_MAX) {
        ofi_op_release(o, b);
        return NULL;
    }
    b->type = OFI_OP_BATCH;
    b->rank = rank;
    b->lane = (uint8_t)lane;
    b->txbuf = ofi_tx_take(o);
    ofi_wire_t w = {.src = (uint32_t)o->rank, .kind = OFI_MSG_PUTS};
    memcpy(b->txbuf->data, &w, sizeof(w));
    b->fill = HDR_LEN;
    *open_slot(o, rank, lane) = b;
    b->next = o->batch_list;
    o->batch_list = b;
    atomic_store_explicit(&o->batch_waiting, 1, memory_order_relaxed);
    return b;
}

/* Send an open batch: 0, -FI_EAGAIN (it stays open), or an error (its puts
 * failed with it). */
static ssize_t batch_send(ofi_iface_t *o, ofi_op_t *b)
{
    ofi_buf_t *buf = b->txbuf;
    ofi_puts_hdr_t h = {.id = b->reply_id, .count = b->count};
    memcpy(buf->data + sizeof(ofi_wire_t), &h, sizeof(h));
    buf->ctx.kind = OFI_CTX_TX;
    buf->rank = b->rank;
    buf->batch = b;
    fi_addr_t dest = o->addr[(size_t)b->rank * (size_t)o->nlanes + b->lane];
    ssize_t ret = ordo_boot_rank_dead(o->boot, b->rank)
                      ? -ECONNRESET
                      : ofi_send_buf(o, b->lane, buf->data, b->fill, dest, &buf->ctx);
    if (ret == -FI_EAGAIN) {
        ofi_poll(o);
        ret = ofi_send_buf(o, b->lane, buf->data, b->fill, dest, &buf->ctx);
    }
    if (ret == -FI_EAGAIN)
        return ret;
    if (ret != 0) {
        if (!ordo_boot_rank_dead(o->boot, b->rank))
            ofi_post_error(o, "a batch of puts", b->rank, ret);
        buf->batch = NULL;
        ofi_batch_fail(o, b, ofi_status((int)ret));
        return ret;
    }
    list_remove(o, b);
    b->sent = 1;
    o->super.put_batches++;
    return 0;
}

ssize_t ofi_batch_flush(ofi_iface_t *o, int rank, unsigned lane)
{
    ofi_op_t *b = *open_slot(o, rank, lane);
    return b ? batch_send(o, b) : 0;
}

void ofi_batch_flush_all(ofi_iface_t *o)
{
    ofi_op_t *b = o->batch_list;
    while (b) {
        ofi_op_t *next = b->next;   /* sending unlinks it */
        batch_send(o, b);
        b = next;
    }
}

/* Add a record of len bytes (data at src) for op to its peer's batch. */
static int batch_add(ofi_iface_t *o, ofi_op_t *op, ordo_tl_comp_t *comp, uint32_t kind,
                     uint32_t len, const void *src, size_t srclen)
{
    size_t need = record_len(srclen);
    ofi_op_t *b = *open_slot(o, op->rank, op->lane);
    /* full: it goes first; refused, the put takes the ordinary way behind it */
    if (b && b->fill + need > o->batch_bytes && batch_send(o, b) != 0)
        return 0;
    if ((b = *open_slot(o, op->rank, op->lane)) == NULL &&
        (b = batch_new(o, op->rank, op->lane)) == NULL)
        return 0;
    ofi_put_rec_t rec = {.mem_id = op->rkey->mem_id, .offset = op->offset, .len = len,
                         .kind = kind};
    char *p = b->txbuf->data + b->fill;
    memcpy(p, &rec, sizeof(rec));
    memcpy(p + sizeof(rec), src, srclen);
    b->fill += need;
    b->count++;
    op->comp = comp;
    op->issued = op->len;
    op->member_next = NULL;
    if (b->members_tail) b->members_tail->member_next = op; else b->members = op;
    b->members_tail = op;
    o->super.puts_batched++;
    if (b->fill + record_len(8) > o->batch_bytes)
        batch_send(o, b);   /* no room for another */
    return 1;
}

int ofi_batch_put(ofi_iface_t *o, ofi_op_t *op, ordo_tl_comp_t *comp)
{
    return batch_add(o, op, comp, OFI_REC_PUT, (uint32_t)op->len, op->local, op->len);
}

/* Non-fetching atomics ride with the puts: the target's CPU applies both
 * anyway, in arrival order, and a window of adds then costs one message
 * each way instead of a request and a reply per add. */
int ofi_batch_atomic(ofi_iface_t *o, ofi_op_t *op, ordo_tl_comp_t *comp)
{
    return batch_add(o, op, comp, OFI_REC_ATOMIC | (uint32_t)op->aop << 8, op->width,
                     &op->value, sizeof(op->value));
}

void ofi_batch_tx_done(ofi_iface_t *o, ofi_op_t *b, ordo_status_t st)
{
    b->tx_done = 1;
    if (st != ORDO_OK && !b->acked) {
        ofi_batch_fail(o, b, st);   /* releases it */
        return;
    }
    if (b->acked)
        ofi_op_release(o, b);
}

void ofi_batch_acked(ofi_iface_t *o, int src, const ofi_puts_ack_t *ack)
{
    ofi_op_t *b = ack->id < o->reply_cap ? o->reply_slot[ack->id] : NULL;
    if (b == NULL || b->rank != src || b->type != OFI_OP_BATCH || !b->sent) {
        ordo_warn("ofi: dropped an acknowledgement from rank %d of puts never sent", src);
        return;
    }
    ofi_reply_slot_clear(o, b);
    b->acked = 1;
    ordo_status_t st = (ack->status <= 0 && ack->status >= ORDO_ERR_EPOCH)
                           ? (ordo_status_t)ack->status : ORDO_ERR_IO;
    complete_members(o, b, st);
    if (b->tx_done)
        ofi_op_release(o, b);
}

/* ------------------------------------------------------ at the target */

static struct ordo_tl_mem *find_mem(ofi_iface_t *o, uint64_t id, struct ordo_tl_mem *hint)
{
    if (hint && hint->id == id)
        return hint;
    struct ordo_tl_mem *m = o->mems;
    while (m && m->id != id)
        m = m->next;
    return m;
}

/* Check every record of a peer's batch before copying it into this
 * process's memory, in order; acknowledge with the first refusal. */
void ofi_batch_apply(ofi_iface_t *o, int src, unsigned lane, const char *msg, size_t len)
{
    ofi_puts_hdr_t h;
    if (len < sizeof(h)) {
        ordo_warn("ofi: dropped a truncated batch of puts from rank %d", src);
        return;
    }
    memcpy(&h, msg, sizeof(h));
    ofi_puts_ack_t ack = {.id = h.id, .status = ORDO_OK};
    size_t off = sizeof(h);
    struct ordo_tl_mem *m = NULL;
    for (uint32_t i = 0; i < h.count; i++) {
        ofi_put_rec_t rec;
        if (len - off < sizeof(rec)) {
            ack.status = ORDO_ERR_INVALID_PARAM;
            break;
        }
        memcpy(&rec, msg + off, sizeof(rec));
        off += sizeof(rec);
        unsigned kind = rec.kind & 0xff, aop = rec.kind >> 8;
        size_t carried = kind == OFI_REC_ATOMIC ? sizeof(uint64_t) : rec.len;
        size_t padded = (carried + 7) & ~(size_t)7;
        if (len - off < padded) {
            ack.status = ORDO_ERR_INVALID_PARAM;
            break;
        }
        if ((m = find_mem(o, rec.mem_id, m)) == NULL) {
            ack.status = ORDO_ERR_INVALID_HANDLE;
            break;
        }
        if (rec.offset > m->size || rec.len > m->size - rec.offset) {
            ack.status = ORDO_ERR_OUT_OF_BOUNDS;
            break;
        }
        if (kind == OFI_REC_ATOMIC) {
            /* never trusted: a width, an operation without a result, aligned */
            if ((rec.len != 4 && rec.len != 8) || aop >= ORDO_ATOMIC_CSWAP) {
                ack.status = ORDO_ERR_INVALID_PARAM;
                break;
            }
            if ((uintptr_t)(m->addr + rec.offset) % rec.len) {
                ack.status = ORDO_ERR_MISALIGNED;
                break;
            }
            uint64_t value;
            memcpy(&value, msg + off, sizeof(value));
            ordo_tl_atomic_apply(m->addr + rec.offset, (ordo_atomic_op_t)aop, rec.len, value, 0);
        } else if (kind != OFI_REC_PUT) {
            ack.status = ORDO_ERR_INVALID_PARAM;
            break;
        } else {
            memcpy(m->addr + rec.offset, msg + off, rec.len);
        }
        /* in order, for whoever reads this memory on another core */
        atomic_thread_fence(memory_order_release);
        off += padded;
    }
    if (ack.status != ORDO_OK)
        ordo_warn("ofi: refused a batch of puts from rank %d: %s", src,
                  ordo_status_string(ack.status));
    ofi_reply_send(o, src, lane, OFI_MSG_PUTS_ACK, &ack, sizeof(ack));
}
