/* Collectives: the layer (scratch region, progress) and the public calls. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "coll.h"
#include "../base/log.h"

coll_state_t *coll;

coll_slot_t *coll_slot_of(p2p_comm_t *c)
{
    return c->slot >= 0 && coll->scratch ? &coll->slots[c->slot] : NULL;
}

char *coll_mapped(int rank)
{
    if (ORDO_UNLIKELY(!coll->looked_up[rank])) {
        /* once, on first use: mapping every peer at init would cost every
         * job an attachment per rank whether it uses collectives or not */
        void *p;
        if (ordo_region_ptr(coll->scratch, rank, &p) == ORDO_OK)
            coll->mapped[rank] = p;
        coll->looked_up[rank] = 1;
    }
    return coll->mapped[rank];
}

int coll_all_mapped(p2p_comm_t *c)
{
    for (int i = 0; i < c->nmembers; i++)
        if (coll_mapped(c->members[i]) == NULL)
            return 0;
    return 1;
}

/* Every member is done with the context that held slot: clear our words
 * and counters for the next one (no other member of a context with this
 * slot can exist before we agree to one). */
static void slot_reset(int slot)
{
    memset(coll_mapped(ordo_ctx->rank) + (size_t)slot * coll->slot_bytes, 0, COLL_SYNC_BYTES);
    memset(&coll->slots[slot], 0, sizeof(coll->slots[slot]));
}

/* ------------------------------------------------------------ the layer */

static ordo_status_t coll_init(void)
{
    if (ordo_config.coll_radix < 2 || ordo_config.coll_radix > 64) {
        ordo_error("ORDO_COLL_RADIX=%d: the tree radix is 2 .. 64", ordo_config.coll_radix);
        return ORDO_ERR_INVALID_PARAM;
    }
    if (ordo_config.coll_slots < 0 || ordo_config.coll_slots > P2P_MAX_SLOTS) {
        ordo_error("ORDO_COLL_SLOTS=%d: 0 .. %d", ordo_config.coll_slots, P2P_MAX_SLOTS);
        return ORDO_ERR_INVALID_PARAM;
    }
    if (ordo_config.coll_scratch < 64) {
        ordo_error("ORDO_COLL_SCRATCH=%zu: at least 64 bytes", ordo_config.coll_scratch);
        return ORDO_ERR_INVALID_PARAM;
    }
    coll = calloc(1, sizeof(*coll));
    if (coll == NULL)
        return ORDO_ERR_NO_MEMORY;
    ordo_stream_params_t sp = {.field_mask = ORDO_STREAM_FIELD_ORDER,
                               .order = ORDO_ORDER_RELAXED};
    ordo_status_t st = ordo_stream_create(&sp, &coll->stream);
    if (st != ORDO_OK)
        goto err;
    if (ordo_config.coll_slots > 0) {
        /* pages nobody touches cost nothing: the staging areas are only
         * written by the one-sided broadcast and alltoall; a slot size that
         * would wrap is refused before it is computed */
        size_t total = 0;
        if (ordo_config.coll_scratch > SIZE_MAX / 4 ||
            __builtin_mul_overflow((COLL_SYNC_BYTES + ordo_config.coll_scratch + 4095) &
                                   ~(size_t)4095, (size_t)ordo_config.coll_slots, &total)) {
            ordo_error("the collectives' scratch region, ORDO_COLL_SLOTS=%d slots of "
                       "ORDO_COLL_SCRATCH=%zu bytes, does not fit in memory: lower either",
                       ordo_config.coll_slots, ordo_config.coll_scratch);
            st = ORDO_ERR_INVALID_PARAM;
            goto err_stream;
        }
        coll->slot_bytes = (COLL_SYNC_BYTES + ordo_config.coll_scratch + 4095) & ~(size_t)4095;
        void *local;
        coll->mapped = calloc((size_t)ordo_ctx->size, sizeof(char *));
        coll->looked_up = calloc((size_t)ordo_ctx->size, 1);
        if (coll->mapped == NULL || coll->looked_up == NULL) {
            st = ORDO_ERR_NO_MEMORY;
            goto err_stream;
        }
        st = ordo_region_alloc(total, 0, &coll->scratch, &local);
        if (st == ORDO_ERR_NO_MEMORY)
            ordo_error("the collectives' scratch region is ORDO_COLL_SLOTS=%d slots of "
                       "ORDO_COLL_SCRATCH=%zu bytes (%zu in all): lower either",
                       ordo_config.coll_slots, ordo_config.coll_scratch, total);
        if (st != ORDO_OK)
            goto err_stream;
        coll->mapped[ordo_ctx->rank] = local;
        coll->looked_up[ordo_ctx->rank] = 1;
    }
    p2p->slot_reset = slot_reset;
    coll_failure_init();
    return ORDO_OK;
err_stream:
    ordo_stream_destroy(coll->stream);
err:
    free(coll->mapped);
    free(coll->looked_up);
    free(coll);
    coll = NULL;
    return st;
}

static ordo_status_t coll_quiesce(void)
{
    if (coll->active)
        ordo_warn("ordo_finalize: %s collective(s) never completed",
                  coll->active->next ? "several" : "a");
    return ORDO_OK;
}

static void coll_fini(void)
{
    /* the scratch region went with every region at finalize */
    p2p->slot_reset = NULL;
    coll_failure_fini();
    while (coll->active) {   /* never waited for: the handles die with the runtime */
        coll_op_t *op = coll->active;
        coll->active = op->next;
        coll_op_abort(op);
    }
    coll_ops_free_all();
    free(coll->mapped);
    free(coll->looked_up);
    free(coll);
    coll = NULL;
}

static unsigned coll_progress(void)
{
    return coll->active ? coll_progress_ops() : 0;
}

static void coll_stats(ordo_stats_t *sum)
{
    sum->collectives += coll->stats.collectives;
}

const ordo_layer_t ordo_coll_layer = {
    .name = "collectives",
    .init = coll_init,
    .progress = coll_progress,
    .quiesce = coll_quiesce,
    .fini = coll_fini,
    .stats = coll_stats,
};

/* ---------------------------------------------------------- public calls */

ordo_status_t coll_begin(ordo_comm_h comm, ordo_request_h *req_p, coll_op_t **op_p)
{
    ORDO_CHECK_INIT();
    p2p_comm_t *c;
    ordo_status_t st = p2p_comm_resolve(comm, &c);
    if (st != ORDO_OK)
        return st;
    /* from here on the call has its number: a failure is told to the members */
    if ((*op_p = coll_op_new(c)) == NULL) {
        coll_refused(c, c->coll_seq - 1, ORDO_ERR_NO_MEMORY);
        return ORDO_ERR_NO_MEMORY;
    }
    if (req_p == NULL) {
        ordo_error("a collective call without a request pointer");
        coll_refused(c, (*op_p)->call, ORDO_ERR_INVALID_PARAM);
        coll_op_abort(*op_p);
        return ORDO_ERR_INVALID_PARAM;
    }
    return ORDO_OK;
}

ordo_status_t coll_check_root(coll_op_t *op, int root)
{
    if (root < 0 || root >= ordo_ctx->size || op->c->index_of[root] < 0) {
        ordo_error("collective root %d is not a member of the context", root);
        return ORDO_ERR_INVALID_RANK;
    }
    return ORDO_OK;
}

/* n blocks of len bytes at buf: a length whose product wraps or passes
 * PTRDIFF_MAX is refused by name (it would be reduced modulo 2^64). */
int coll_span_ok(const char *call, const void *buf, size_t n, size_t len)
{
    if (ordo_span_ok(buf, n, len))
        return 1;
    ordo_error("%s: %zu x %zu bytes do not fit in memory", call, n, len);
    return 0;
}

/* A call refused before it issued anything: the members are told (a call
 * every member refuses leaves the context in step). */
int coll_buffer_ok(const char *call, const void *buf, size_t n, size_t len)
{
    if (buf == NULL && len && n) {
        ordo_error("%s: a NULL buffer", call);
        return 0;
    }
    return coll_span_ok(call, buf, n, len);
}

ordo_status_t coll_reject(coll_op_t *op, ordo_status_t st)
{
    coll_refused(op->c, op->call, st);
    coll_op_abort(op);
    return st;
}

ordo_status_t coll_wait_for(ordo_status_t st, ordo_request_h req)
{
    return st == ORDO_INPROGRESS ? ordo_request_wait_inner(&req, NULL) : st;
}

ORDO_API ordo_status_t ordo_coll_barrier_nb(ordo_comm_h comm, ordo_request_h *req_p)
{
    ORDO_API_ENTER();
    coll_op_t *op;
    ordo_status_t st = coll_begin(comm, req_p, &op);
    if (st != ORDO_OK)
        return st;
    coll_build_barrier(op, ordo_config.coll_barrier);
    return coll_start(op, req_p);
}

/* Wait until *w >= v: spin on the word, with a progress pass every few
 * dozen looks — every look when ranks outnumber cores, where the pass
 * soon yields the core to the rank being waited for — a look at whether a
 * member failed the call after each pass, and at the members' health
 * every few thousand looks. */
static ordo_status_t spin_until(p2p_comm_t *c, uint32_t call, _Atomic uint64_t *w, uint64_t v)
{
    unsigned idle = 0, looks = 0, stride = ordo_ctx->yield_idle ? 1 : 32;
    while (atomic_load_explicit(w, memory_order_acquire) < v) {
        if (++looks % stride != 0) {
            ordo_cpu_relax();
            continue;
        }
        ordo_progress_wait(&idle);
        ordo_status_t st;
        if (ORDO_UNLIKELY(c->coll_fails != NULL) &&
            (st = coll_call_doomed(c, call)) != ORDO_OK)
            return st;
        if ((looks & 4095) == 0 && coll_member_died(c))
            return ORDO_ERR_PEER_DEAD;
    }
    return ORDO_OK;
}

static ordo_status_t barrier_words(p2p_comm_t *c, coll_slot_t *sl, int alg, uint32_t call)
{
    uint64_t e = ++sl->barriers;
    int n = c->nmembers, i = c->my_index;
#define WORD(k, off) coll_word(c->members[k], c->slot, off)
    if (alg == ORDO_BARRIER_SHM) {
        _Atomic uint64_t *w = WORD(0, COLL_W_SHM);
        if (atomic_fetch_add(w, 1) + 1 >= e * (uint64_t)n)
            return ORDO_OK;   /* the last to arrive */
        return spin_until(c, call, w, e * (uint64_t)n);
    }
    int k = ordo_config.coll_radix, nchild = coll_tree_children(n, i, k), parent = (i - 1) / k;
    _Atomic uint64_t *arrive = WORD(i, COLL_W_ARRIVE);
    ordo_status_t st;
    if (i == 0) {
        atomic_fetch_add(arrive, 1);
        return spin_until(c, call, arrive, e * (uint64_t)(nchild + 1));
    }
    if (nchild && (st = spin_until(c, call, arrive, e * (uint64_t)nchild)) != ORDO_OK)
        return st;
    atomic_fetch_add(WORD(parent, COLL_W_ARRIVE), 1);
    if (parent == 0)
        st = spin_until(c, call, WORD(0, COLL_W_ARRIVE),
                        e * (uint64_t)(coll_tree_children(n, 0, k) + 1));
    else
        st = spin_until(c, call, WORD(parent, COLL_W_RELEASE), e);
    if (st == ORDO_OK && nchild)
        atomic_store_explicit(WORD(i, COLL_W_RELEASE), e, memory_order_release);
#undef WORD
    return st;
}

/* A blocking one-sided barrier with nothing else of its context in flight
 * runs here, on the same words and counters as its schedule
 * (algorithms.c) but without building one: a barrier's cost is little
 * more than its cache-line transfers.  Returns ORDO_INPROGRESS when it
 * does not apply (also once a call of the context failed: the schedule
 * engine handles the members' notices). */
static ordo_status_t coll_barrier_direct(p2p_comm_t *c)
{
    coll_slot_t *sl = coll_slot_of(c);
    if (sl == NULL || c->nmembers == 1 || c->coll_fails != NULL)
        return ORDO_INPROGRESS;
    /* shm is chosen only where every member is mapped */
    int alg = coll_barrier_alg(c, ordo_config.coll_barrier);
    if (alg != ORDO_BARRIER_SHM && (alg != ORDO_BARRIER_TREE || !coll_all_mapped(c)))
        return ORDO_INPROGRESS;
    for (coll_op_t *op = coll->active; op; op = op->next)
        if (op->c == c)
            return ORDO_INPROGRESS;
    uint32_t call = c->coll_seq++;   /* in step with members that build a schedule */
    coll_direct_running(c, call);
    ordo_status_t st = barrier_words(c, sl, alg, call);
    coll_direct_running(NULL, 0);
    if (st == ORDO_OK)
        coll->stats.collectives++;
    else
        coll_ran_failed(c, call, st);   /* its counts are out: the context broke */
    return st;
}

ORDO_API ordo_status_t ordo_coll_barrier(ordo_comm_h comm)
{
    ORDO_CHECK_INIT();
    p2p_comm_t *c;
    ordo_status_t st = p2p_comm_resolve(comm, &c);
    if (st != ORDO_OK)
        return st;
    if ((st = coll_barrier_direct(c)) != ORDO_INPROGRESS)
        return st;
    ordo_request_h r = NULL;
    st = ordo_coll_barrier_nb(comm, &r);
    return coll_wait_for(st, r);
}

ORDO_API ordo_status_t ordo_coll_bcast_nb(ordo_comm_h comm, void *buf, size_t len, int root,
                                          ordo_request_h *req_p)
{
    ORDO_API_ENTER();
    coll_op_t *op;
    ordo_status_t st = coll_begin(comm, req_p, &op);
    if (st != ORDO_OK)
        return st;
    if ((st = coll_check_root(op, root)) != ORDO_OK || (buf == NULL && len) ||
        !coll_span_ok("ordo_coll_bcast", buf, 1, len))
        return coll_reject(op, st != ORDO_OK ? st : ORDO_ERR_INVALID_PARAM);
    coll_build_bcast(op, buf, len, root, ordo_config.coll_bcast);
    return coll_start(op, req_p);
}

ORDO_API ordo_status_t ordo_coll_bcast(ordo_comm_h comm, void *buf, size_t len, int root)
{
    ORDO_API_ENTER();
    ordo_request_h r = NULL;
    ordo_status_t st = ordo_coll_bcast_nb(comm, buf, len, root, &r);
    return coll_wait_for(st, r);
}

static ordo_status_t reduction(ordo_comm_h comm, const void *sbuf, void *rbuf, size_t count,
                               ordo_dtype_t dtype, ordo_reduce_op_t rop, int root,
                               ordo_request_h *req_p)
{
    coll_op_t *op;
    ordo_status_t st = coll_begin(comm, req_p, &op);
    if (st != ORDO_OK)
        return st;
    if ((st = coll_check_reduction(dtype, rop)) != ORDO_OK ||
        (root >= 0 && (st = coll_check_root(op, root)) != ORDO_OK))
        return coll_reject(op, st);
    int gets_result = root < 0 || op->c->members[op->c->my_index] == root;
    size_t es = coll_dtype_size(dtype);
    if (!coll_buffer_ok("reduction", sbuf, count, es) ||
        (gets_result && !coll_buffer_ok("reduction", rbuf, count, es)))
        return coll_reject(op, ORDO_ERR_INVALID_PARAM);
    coll_build_reduce(op, sbuf, rbuf, count, dtype, rop, root, ordo_config.coll_reduce);
    return coll_start(op, req_p);
}

ORDO_API ordo_status_t ordo_coll_reduce_nb(ordo_comm_h comm, const void *sbuf, void *rbuf,
                                           size_t count, ordo_dtype_t dtype,
                                           ordo_reduce_op_t op, int root,
                                           ordo_request_h *req_p)
{
    ORDO_API_ENTER();
    if (root < 0) {
        ordo_error("ordo_coll_reduce: root %d is not a rank", root);
        return ORDO_ERR_INVALID_RANK;
    }
    return reduction(comm, sbuf, rbuf, count, dtype, op, root, req_p);
}

ORDO_API ordo_status_t ordo_coll_reduce(ordo_comm_h comm, const void *sbuf, void *rbuf,
                                        size_t count, ordo_dtype_t dtype, ordo_reduce_op_t op,
                                        int root)
{
    ORDO_API_ENTER();
    ordo_request_h r = NULL;
    ordo_status_t st = ordo_coll_reduce_nb(comm, sbuf, rbuf, count, dtype, op, root, &r);
    return coll_wait_for(st, r);
}

ORDO_API ordo_status_t ordo_coll_allreduce_nb(ordo_comm_h comm, const void *sbuf, void *rbuf,
                                              size_t count, ordo_dtype_t dtype,
                                              ordo_reduce_op_t op, ordo_request_h *req_p)
{
    ORDO_API_ENTER();
    return reduction(comm, sbuf, rbuf, count, dtype, op, -1, req_p);
}

ORDO_API ordo_status_t ordo_coll_allreduce(ordo_comm_h comm, const void *sbuf, void *rbuf,
                                           size_t count, ordo_dtype_t dtype,
                                           ordo_reduce_op_t op)
{
    ORDO_API_ENTER();
    ordo_request_h r = NULL;
    ordo_status_t st = ordo_coll_allreduce_nb(comm, sbuf, rbuf, count, dtype, op, &r);
    return coll_wait_for(st, r);
}

static ordo_status_t gathering(ordo_comm_h comm, const void *sbuf, size_t len, void *rbuf,
                               int root, ordo_request_h *req_p)
{
    coll_op_t *op;
    ordo_status_t st = coll_begin(comm, req_p, &op);
    if (st != ORDO_OK)
        return st;
    if (root >= 0 && (st = coll_check_root(op, root)) != ORDO_OK)
        return coll_reject(op, st);
    int gets_result = root < 0 || op->c->members[op->c->my_index] == root;
    if (len && (sbuf == NULL || (gets_result && rbuf == NULL)))
        return coll_reject(op, ORDO_ERR_INVALID_PARAM);
    if (!coll_span_ok("gather", sbuf, 1, len) ||
        (gets_result && !coll_span_ok("gather", rbuf, (size_t)op->c->nmembers, len)))
        return coll_reject(op, ORDO_ERR_INVALID_PARAM);
    coll_build_gather(op, sbuf, len, rbuf, root, root < 0);
    return coll_start(op, req_p);
}

ORDO_API ordo_status_t ordo_coll_gather_nb(ordo_comm_h comm, const void *sbuf, size_t len,
                                           void *rbuf, int root, ordo_request_h *req_p)
{
    ORDO_API_ENTER();
    if (root < 0) {
        ordo_error("ordo_coll_gather: root %d is not a rank", root);
        return ORDO_ERR_INVALID_RANK;
    }
    return gathering(comm, sbuf, len, rbuf, root, req_p);
}

ORDO_API ordo_status_t ordo_coll_gather(ordo_comm_h comm, const void *sbuf, size_t len,
                                        void *rbuf, int root)
{
    ORDO_API_ENTER();
    ordo_request_h r = NULL;
    ordo_status_t st = ordo_coll_gather_nb(comm, sbuf, len, rbuf, root, &r);
    return coll_wait_for(st, r);
}

ORDO_API ordo_status_t ordo_coll_allgather_nb(ordo_comm_h comm, const void *sbuf, size_t len,
                                              void *rbuf, ordo_request_h *req_p)
{
    ORDO_API_ENTER();
    return gathering(comm, sbuf, len, rbuf, -1, req_p);
}

ORDO_API ordo_status_t ordo_coll_allgather(ordo_comm_h comm, const void *sbuf, size_t len,
                                           void *rbuf)
{
    ORDO_API_ENTER();
    ordo_request_h r = NULL;
    ordo_status_t st = ordo_coll_allgather_nb(comm, sbuf, len, rbuf, &r);
    return coll_wait_for(st, r);
}

ORDO_API ordo_status_t ordo_coll_alltoall_nb(ordo_comm_h comm, const void *sbuf, size_t len,
                                             void *rbuf, ordo_request_h *req_p)
{
    ORDO_API_ENTER();
    coll_op_t *op;
    ordo_status_t st = coll_begin(comm, req_p, &op);
    if (st != ORDO_OK)
        return st;
    if (len && (sbuf == NULL || rbuf == NULL))
        return coll_reject(op, ORDO_ERR_INVALID_PARAM);
    if (!coll_span_ok("ordo_coll_alltoall", sbuf, (size_t)op->c->nmembers, len) ||
        !coll_span_ok("ordo_coll_alltoall", rbuf, (size_t)op->c->nmembers, len))
        return coll_reject(op, ORDO_ERR_INVALID_PARAM);
    coll_build_alltoall(op, sbuf, len, rbuf, ordo_config.coll_alltoall);
    return coll_start(op, req_p);
}

ORDO_API ordo_status_t ordo_coll_alltoall(ordo_comm_h comm, const void *sbuf, size_t len,
                                          void *rbuf)
{
    ORDO_API_ENTER();
    ordo_request_h r = NULL;
    ordo_status_t st = ordo_coll_alltoall_nb(comm, sbuf, len, rbuf, &r);
    return coll_wait_for(st, r);
}
