/* ofi: atomics at the target.  An atomic whose result is wanted (or that
 * cannot join a batch) travels as a request message; the target's progress
 * checks it against the memory it exposed, applies it with the CPU's
 * atomic (atomic with the target's own and with the batches' records) and
 * answers with the old value, which completes the initiator's operation. */
#define _GNU_SOURCE
#include "ofi.h"

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
