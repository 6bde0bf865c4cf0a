/* The schedule engine: builds rounds of steps and runs them without
 * blocking, from the collective call and from progress. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "coll.h"
#include "../base/log.h"

/* Finished operations are kept with their step and request arrays: a
 * barrier then allocates nothing. */
static void op_release(struct ordo_request *r)
{
    coll_op_t *op = (coll_op_t *)r;
    r->magic = ORDO_MAGIC_DEAD;
    free(op->tmp);
    op->tmp = NULL;
    op->next = coll->free_ops;
    coll->free_ops = op;
}

void coll_ops_free_all(void)
{
    while (coll->free_ops) {
        coll_op_t *op = coll->free_ops;
        coll->free_ops = op->next;
        free(op->steps);
        free(op->reqs);
        free(op);
    }
}

coll_op_t *coll_op_new(p2p_comm_t *c)
{
    uint32_t call = c->coll_seq++;   /* taken even by a call that fails */
    coll_op_t *op = coll->free_ops;
    if (op) {
        coll->free_ops = op->next;
        coll_step_t *steps = op->steps;
        ordo_request_h *reqs = op->reqs;
        size_t cap = op->cap, capreqs = op->capreqs;
        memset(op, 0, sizeof(*op));
        op->steps = steps, op->cap = cap;
        op->reqs = reqs, op->capreqs = capreqs;
    } else if ((op = calloc(1, sizeof(*op))) == NULL) {
        return NULL;
    }
    op->super.magic = ORDO_MAGIC_REQUEST;
    op->super.type = ORDO_OP_P2P;
    op->super.state = ORDO_OP_INFLIGHT;
    op->super.user_held = 1;
    op->super.release = op_release;
    op->super.info = (ordo_completion_t){.source = -1, .tag = -1};
    op->c = c;
    op->call = call;
    /* 24 bits of the call and 6 of step; bit 31 set and bit 30 clear keep
     * it negative and apart from ORDO_ANY_TAG and the context tags. */
    op->tag = (int32_t)(0x80000000u | (call & 0xffffffu) << 6);
    return op;
}

static ordo_status_t coll_add(coll_op_t *op, coll_step_t step)
{
    if (op->n == op->cap) {
        size_t cap = op->cap ? 2 * op->cap : 16;
        coll_step_t *s = realloc(op->steps, cap * sizeof(*s));
        if (s == NULL) {
            op->error = ORDO_ERR_NO_MEMORY;
            return ORDO_ERR_NO_MEMORY;
        }
        op->steps = s;
        op->cap = cap;
    }
    op->steps[op->n++] = step;
    return ORDO_OK;
}

void *coll_tmp(coll_op_t *op, size_t bytes)
{
    if (op->tmp == NULL && (op->tmp = malloc(bytes ? bytes : 1)) == NULL)
        op->error = ORDO_ERR_NO_MEMORY;
    return op->tmp;
}

void coll_send(coll_op_t *op, int peer, const void *buf, size_t len, int sub)
{
    coll_add(op, (coll_step_t){.kind = CS_SEND, .peer = peer, .src = buf, .len = len,
                               .sub = (uint8_t)(sub & 63)});
}

void coll_recv(coll_op_t *op, int peer, void *buf, size_t len, int sub)
{
    coll_add(op, (coll_step_t){.kind = CS_RECV, .peer = peer, .dst = buf, .len = len,
                               .sub = (uint8_t)(sub & 63)});
}

void coll_copy(coll_op_t *op, void *dst, const void *src, size_t len)
{
    if (dst != src && len)
        coll_add(op, (coll_step_t){.kind = CS_COPY, .dst = dst, .src = src, .len = len});
}

void coll_reduce_step(coll_op_t *op, void *acc, const void *in, size_t len, int dtype, int rop)
{
    if (len)
        coll_add(op, (coll_step_t){.kind = CS_REDUCE, .dst = acc, .src = in, .len = len,
                                   .dtype = (uint8_t)dtype, .op = (uint8_t)rop});
}

void coll_put(coll_op_t *op, int peer, size_t off, const void *src, size_t len)
{
    if (len)
        coll_add(op, (coll_step_t){.kind = CS_PUT, .peer = peer, .off = off, .src = src,
                                   .len = len});
}

void coll_add_word(coll_op_t *op, int peer, size_t off, uint64_t v)
{
    coll_add(op, (coll_step_t){.kind = CS_ADD, .peer = peer, .off = off, .value = v});
}

void coll_set_word(coll_op_t *op, size_t off, uint64_t v)
{
    coll_add(op, (coll_step_t){.kind = CS_SET, .off = off, .value = v});
}

void coll_quiet(coll_op_t *op) { coll_add(op, (coll_step_t){.kind = CS_QUIET}); }

void coll_wait_local(coll_op_t *op, size_t off, uint64_t v)
{
    coll_wait_remote(op, ordo_ctx->rank, off, v);
}

void coll_wait_remote(coll_op_t *op, int peer, size_t off, uint64_t v)
{
    coll_add(op, (coll_step_t){.kind = CS_WAIT, .peer = peer, .off = off, .value = v});
}

void coll_end_round(coll_op_t *op)
{
    /* an empty round is no round */
    if (op->n && op->steps[op->n - 1].kind != CS_ROUND)
        coll_add(op, (coll_step_t){.kind = CS_ROUND});
}

/* ------------------------------------------------------------ running */

static inline size_t slot_base(const coll_op_t *op)
{
    return (size_t)op->c->slot * coll->slot_bytes;
}

static ordo_status_t track(coll_op_t *op, ordo_status_t st, ordo_request_h r)
{
    if (st != ORDO_INPROGRESS)
        return st;
    if (op->nreqs == op->capreqs) {
        size_t cap = op->capreqs ? 2 * op->capreqs : 8;
        ordo_request_h *a = realloc(op->reqs, cap * sizeof(*a));
        if (a == NULL) {
            ordo_request_wait_inner(&r, NULL);   /* cannot keep it: finish it now */
            return ORDO_ERR_NO_MEMORY;
        }
        op->reqs = a;
        op->capreqs = cap;
    }
    op->reqs[op->nreqs++] = r;
    return ORDO_OK;
}

/* Issue the running round: local steps, then communication. */
static ordo_status_t issue(coll_op_t *op)
{
    ordo_status_t st = ORDO_OK;
    for (size_t i = op->pos; i < op->end && st == ORDO_OK; i++) {
        coll_step_t *s = &op->steps[i];
        switch (s->kind) {
        case CS_COPY: memcpy(s->dst, s->src, s->len); break;
        case CS_REDUCE:
            coll_apply(s->dst, s->src, s->len / coll_dtype_size(s->dtype), s->dtype, s->op);
            break;
        case CS_SET:
            atomic_store_explicit(coll_word(ordo_ctx->rank, op->c->slot, s->off), s->value,
                                  memory_order_release);
            break;
        default: break;
        }
    }
    for (size_t i = op->pos; i < op->end && st == ORDO_OK; i++) {
        coll_step_t *s = &op->steps[i];
        ordo_request_h r = NULL;
        switch (s->kind) {
        case CS_SEND:
            st = p2p_isend(op->c, s->src, s->len, s->peer, op->tag | s->sub, &r);
            st = track(op, st, r);
            break;
        case CS_RECV:
            st = p2p_irecv(op->c, s->dst, s->len, s->peer, op->tag | s->sub, &r);
            st = track(op, st, r);
            break;
        case CS_PUT:
            st = ordo_put_nb(coll->stream, s->src, s->len, coll->scratch, s->peer,
                             slot_base(op) + s->off, 0, &r);
            st = track(op, st, r);
            break;
        case CS_ADD: {
            _Atomic uint64_t *w = coll_word(s->peer, op->c->slot, s->off);
            if (w) {   /* mapped: the atomic is ours to do */
                atomic_fetch_add_explicit(w, s->value, memory_order_acq_rel);
                break;
            }
            st = ordo_atomic(coll->stream, ORDO_ATOMIC_ADD, ORDO_UINT64, &s->value, NULL, NULL,
                             coll->scratch, s->peer, slot_base(op) + s->off, 0);
            break;
        }
        case CS_QUIET: st = ordo_quiet(coll->stream); break;
        default: break;
        }
    }
    return st;
}

/* Whether the running round's waits hold: a word mapped here is loaded,
 * another one read by get. */
static int waits_hold(coll_op_t *op, ordo_status_t *st_p)
{
    for (size_t i = op->pos; i < op->end; i++) {
        coll_step_t *s = &op->steps[i];
        if (s->kind != CS_WAIT || s->seen)
            continue;
        uint64_t v = 0;
        _Atomic uint64_t *w = coll_word(s->peer, op->c->slot, s->off);
        if (w) {
            v = atomic_load_explicit(w, memory_order_acquire);
        } else {
            ordo_status_t st = ordo_get(coll->stream, &v, sizeof(v), coll->scratch, s->peer,
                                        slot_base(op) + s->off, 0);
            if (st != ORDO_OK) {
                *st_p = st;
                return 1;
            }
        }
        if (v < s->value)
            return 0;
        s->seen = 1;   /* not read again */
    }
    return 1;
}

int coll_member_died(p2p_comm_t *c)
{
    for (int i = 0; i < c->nmembers; i++)
        if (ordo_boot_rank_dead(ordo_ctx->boot, c->members[i])) {
            ordo_error("rank %d died: the collective it takes part in fails", c->members[i]);
            return 1;
        }
    return 0;
}

/* A one-sided wait cannot tell whom it waits for: any dead member fails it
 * (checked every few hundred looks; a load per member). */
static int member_died(coll_op_t *op)
{
    return (++op->looks & 255) == 0 && coll_member_died(op->c);
}

/* Run op as far as it goes without waiting; 1 when it finished. */
static int advance(coll_op_t *op)
{
    if (ORDO_UNLIKELY(op->held) && op->error == ORDO_OK) {
        if (coll_held(op->c)) {
            if (member_died(op))
                op->error = ORDO_ERR_PEER_DEAD;
            return op->error != ORDO_OK;
        }
        op->held = 0;
        ordo_status_t st = coll_call_doomed(op->c, op->call);
        if (st != ORDO_OK) {
            op->error = st;
            op->told = 1;
            return 1;
        }
    }
    while (op->pos < op->n && op->error == ORDO_OK) {
        if (!op->started) {
            op->end = op->pos;
            while (op->end < op->n && op->steps[op->end].kind != CS_ROUND)
                op->end++;
            op->started = 1;
            ordo_status_t st = issue(op);
            /* a member's notice may have failed op meanwhile: keep its status */
            if (op->error == ORDO_OK)
                op->error = st;
            if (op->error != ORDO_OK)
                break;
        }
        while (op->nreqs) {
            ordo_request_h r = op->reqs[op->nreqs - 1];
            if (r->state != ORDO_OP_DONE)
                return 0;
            op->nreqs--;
            ordo_status_t st = ordo_request_wait_inner(&r, NULL);
            if (st != ORDO_OK && op->error == ORDO_OK)
                op->error = st;
        }
        if (op->error != ORDO_OK)
            break;
        ordo_status_t st = ORDO_OK;
        if (!waits_hold(op, &st)) {
            if (ORDO_UNLIKELY(member_died(op)) && op->error == ORDO_OK)
                op->error = ORDO_ERR_PEER_DEAD;
            else
                return 0;
        }
        if (st != ORDO_OK && op->error == ORDO_OK)
            op->error = st;
        op->pos = op->end < op->n ? op->end + 1 : op->n;
        op->started = 0;
    }
    /* a failure: finish what is in flight before the buffers go back */
    while (op->nreqs) {
        ordo_request_h r = op->reqs[--op->nreqs];
        if (r->state != ORDO_OP_DONE)
            ordo_request_cancel(r);   /* receives; sends finish or fail on their own */
        ordo_request_wait_inner(&r, NULL);
    }
    return 1;
}

/* op ended: counted, or its failure made known to the members. */
static void ended(coll_op_t *op)
{
    if (op->error == ORDO_OK)
        coll->stats.collectives++;
    else if (!op->told)
        coll_ran_failed(op->c, op->call, op->error);
}

static void finish(coll_op_t *op)
{
    ended(op);
    ordo_request_complete(&op->super, op->error);
}

ordo_status_t coll_start(coll_op_t *op, ordo_request_h *req_p)
{
    ordo_status_t st = op->error;
    if (st != ORDO_OK) {   /* building it failed: nothing was issued */
        coll_refused(op->c, op->call, st);
        op_release(&op->super);
        return st;
    }
    if (ORDO_UNLIKELY(op->c->coll_fails != NULL)) {
        if ((st = coll_call_doomed(op->c, op->call)) != ORDO_OK) {
            op_release(&op->super);
            return st;
        }
        op->held = (uint8_t)coll_held(op->c);
    }
    if (!op->held && advance(op)) {
        st = op->error;
        ended(op);
        op_release(&op->super);
        *req_p = NULL;
        return st;
    }
    op->next = coll->active;
    coll->active = op;
    *req_p = &op->super;
    return ORDO_INPROGRESS;
}

unsigned coll_progress_ops(void)
{
    if (coll->in_progress)
        return 0;   /* a schedule's own wait or quiet came back here */
    coll->in_progress = 1;
    unsigned n = 0;
    for (coll_op_t **pp = &coll->active, *op; (op = *pp) != NULL;) {
        if (advance(op)) {
            *pp = op->next;
            finish(op);
            n++;
        } else {
            pp = &op->next;
        }
    }
    coll->in_progress = 0;
    return n;
}

void coll_op_abort(coll_op_t *op) { op_release(&op->super); }
