/* ofi: atomics at the target, and the replies operations await.  An
 * atomic whose result is wanted (or that cannot join a batch) travels as a
 * request message; the target's progress checks it against the memory it
 * exposed, applies it with the CPU's atomic (atomic with the target's own
 * and with the batches' records) and answers with the old value, which
 * completes the initiator's operation.  Such operations (and batches,
 * acknowledged) wait in reply slots that the reply names. */
#define _GNU_SOURCE
#include "ofi.h"

#include <stdlib.h>
#include <string.h>

#include "../../base/log.h"

void ofi_amo_serve(ofi_iface_t *o, int src, unsigned lane, const ofi_amo_req_t *req)
{
    ofi_amo_rep_t rep = {.id = req->id, .status = ORDO_OK};
    struct ordo_tl_mem *m = o->mems;
    while (m && m->id != req->mem_id)
        m = m->next;
    if (m == NULL)
        rep.status = ORDO_ERR_INVALID_HANDLE;
    else if ((req->width != 4 && req->width != 8) || req->op > ORDO_ATOMIC_CSWAP)
        rep.status = ORDO_ERR_INVALID_PARAM;
    else if (req->offset > m->size || req->width > m->size - req->offset)
        rep.status = ORDO_ERR_OUT_OF_BOUNDS;
    else if ((uintptr_t)(m->addr + req->offset) % req->width)
        rep.status = ORDO_ERR_MISALIGNED;
    else
        rep.old = ordo_tl_atomic_apply(m->addr + req->offset, (ordo_atomic_op_t)req->op,
                                       req->width, req->value, req->compare);
    if (rep.status != ORDO_OK)
        ordo_warn("ofi: refused an atomic from rank %d: %s", src,
                  ordo_status_string(rep.status));
    ofi_reply_send(o, src, lane, OFI_MSG_AMO_REP, &rep, sizeof(rep));
}

void ofi_amo_reply(ofi_iface_t *o, int src, const ofi_amo_rep_t *rep)
{
    ofi_op_t *op = rep->id < o->reply_cap ? o->reply_slot[rep->id] : NULL;
    if (op == NULL || op->rank != src || op->type != OFI_OP_AMO) {
        ordo_warn("ofi: dropped an atomic reply from rank %d that answers nothing asked", src);
        return;
    }
    ofi_reply_slot_clear(o, op);
    ordo_status_t st = (rep->status <= 0 && rep->status >= ORDO_ERR_EPOCH)
                           ? (ordo_status_t)rep->status : ORDO_ERR_IO;
    if (st == ORDO_OK && op->result && !op->abandoned)
        *op->result = rep->old;
    ofi_op_piece_done(o, op, st);
}

/* A slot for an operation that awaits its reply (an atomic's result, a
 * batch's acknowledgement); the reply names it.  UINT32_MAX: no memory. */
uint32_t ofi_reply_slot_take(ofi_iface_t *o, ofi_op_t *op)
{
    uint32_t i = UINT32_MAX;
    for (uint32_t n = 0; n < o->reply_cap && i == UINT32_MAX; n++) {
        uint32_t k = (o->reply_free_hint + n) % o->reply_cap;
        if (o->reply_slot[k] == NULL)
            i = k;
    }
    if (i == UINT32_MAX) {
        uint32_t cap = o->reply_cap ? o->reply_cap * 2 : 64;
        ofi_op_t **s = realloc(o->reply_slot, cap * sizeof(*s));
        if (s == NULL)
            return UINT32_MAX;
        memset(s + o->reply_cap, 0, (cap - o->reply_cap) * sizeof(*s));
        i = o->reply_cap;
        o->reply_slot = s;
        o->reply_cap = cap;
    }
    o->reply_slot[i] = op;
    o->reply_free_hint = i + 1;
    o->reply_used++;
    op->reply_id = i;
    return i;
}

void ofi_reply_slot_clear(ofi_iface_t *o, ofi_op_t *op)
{
    if (op->reply_id < o->reply_cap && o->reply_slot[op->reply_id] == op) {
        o->reply_slot[op->reply_id] = NULL;
        o->reply_used--;
    }
}

/* A reply goes out now, or waits in the reply backlog for room. */
void ofi_reply_send(ofi_iface_t *o, int rank, unsigned lane, uint8_t kind, const void *data,
                    size_t len)
{
    ordo_status_t st = ofi_am_send(o, rank, lane, kind, data, len, NULL, 0);
    if (st != ORDO_ERR_BUSY)
        return;
    ofi_reply_t *r = malloc(sizeof(*r));
    if (r == NULL) {
        ordo_error("ofi: out of memory queueing a reply to rank %d", rank);
        return;
    }
    r->rank = rank;
    r->lane = lane;
    r->kind = kind;
    r->len = (uint8_t)len;
    memcpy(r->data, data, len);
    r->next = o->reply_backlog;
    o->reply_backlog = r;
}

/* Fail what awaits a reply from a rank known dead: the reply never comes. */
void ofi_fail_dead(ofi_iface_t *o)
{
    for (uint32_t i = 0; i < o->reply_cap && o->reply_used; i++) {
        ofi_op_t *op = o->reply_slot[i];
        if (op == NULL || !ordo_boot_rank_dead(o->boot, op->rank))
            continue;
        if (op->type == OFI_OP_BATCH) {
            ofi_batch_fail(o, op, ORDO_ERR_PEER_DEAD);
        } else {
            ofi_reply_slot_clear(o, op);
            ofi_op_piece_done(o, op, ORDO_ERR_PEER_DEAD);
        }
    }
}
