/* ofi: put / get / atomics (an atomic's request is served at the target in
 * ofi_amo.c; exposed memory and remote keys are ofi_expose.c's).
 *
 * An operation is posted whole when the provider takes messages that
 * large (and, for a put over a kernel socket, when it is at most
 * OFI_PUT_PIECE_SOCKET), else in pieces, one after the other.  An
 * operation the provider refuses for now (-FI_EAGAIN) waits in a backlog
 * that progress posts again; the operation is in progress meanwhile.  A
 * synchronous operation (no completion given) polls until it completes, or
 * until its peer is known dead. */
#define _GNU_SOURCE
#include "ofi.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/compiler.h"
#include "../../base/config.h"
#include "../../base/log.h"
#include "../../base/timer.h"

/* ---------------------------------------------------------- operations */

/* Where a provider carries RMA over a kernel socket, a lane keeps at most
 * this many bytes of RMA posted to one peer, beyond OFI_INFLIGHT_PIECES
 * pieces whatever their size.  More gains nothing once the socket is busy,
 * and a window of 64 puts of 64 KiB over one loopback connection mostly
 * ran at 1.0 GB/s, a state the kernel entered with zero windows,
 * backlogged segments and retransmits, slower than strict's one at a time
 * (2.4): libfabric 1.17's tcp;ofi_rxm and 2.5.1's tcp alike, on a 2-core
 * VM.  Two in flight (128K) kept 3.5-5.3 GB/s there over both, in every
 * run; four (256K) still fell back once in four runs over 1.17.  Two
 * pieces of any size keep the socket fed while a completion comes back:
 * 256 KiB puts 6.0-6.8 GB/s against 3.1-4.6 one at a time, 1 MiB ones
 * 3.2-3.7 against 2.2-2.8 (3.1 with no limit). */
#define OFI_INFLIGHT_SOCKET (128u << 10)
#define OFI_INFLIGHT_PIECES 2

size_t ofi_inflight_wanted(const char *prov)
{
    if (ordo_config.ofi_inflight_max != SIZE_MAX)
        return ordo_config.ofi_inflight_max;
    return ofi_hardware_provider(prov) ? 0 : OFI_INFLIGHT_SOCKET;
}

/* Where a provider carries RMA over a kernel socket, a put longer than this
 * goes as writes of this many bytes, each posted when the one before it
 * completes, and the default mode keeps later writes behind the whole put
 * (ordered_max).  A single write of megabytes ran slower than its pieces:
 * over --nodes 2 on libfabric 2.5.1's tcp (a 2-core VM), 4 MiB put + flush
 * took 1.0-1.5 ms whole, 0.8-1.0 in pieces of 512 KiB; a window of 4 MiB
 * puts moved 3.0-3.1 GB/s whole, 4.4-5.6 in pieces (the default mode then
 * waiting for each put before the next); 1 MiB puts 4.5-5.0 against 5.1-5.6.
 * Pieces of 256 KiB did as well at 4 MiB, worse at 1 MiB; of 64 KiB, worse
 * everywhere.  A NIC's provider moves one write at the wire's speed. */
#define OFI_PUT_PIECE_SOCKET (512u << 10)

size_t ofi_put_piece_wanted(const char *prov, size_t max_msg)
{
    return ofi_hardware_provider(prov) || max_msg < OFI_PUT_PIECE_SOCKET ? max_msg
                                                                         : OFI_PUT_PIECE_SOCKET;
}

static inline size_t peer_lane(const ofi_iface_t *o, const ofi_op_t *op)
{
    return (size_t)op->rank * (size_t)o->nlanes + op->lane;
}

/* Its piece complete (or never to be): it leaves the count. */
static inline void unpost(ofi_iface_t *o, ofi_op_t *op)
{
    if (op->posted) {
        struct ofi_flight *f = &o->flight[peer_lane(o, op)];
        f->bytes -= op->posted;
        f->pieces--;
        op->posted = 0;
    }
}

ofi_op_t *ofi_op_new(ofi_iface_t *o)
{
    ofi_op_t *op = o->op_free;
    if (op)
        o->op_free = op->next;
    else if ((op = malloc(sizeof(*op))) == NULL)
        return NULL;
    memset(op, 0, sizeof(*op));
    op->ctx.kind = OFI_CTX_OP;
    return op;
}

void ofi_op_release(ofi_iface_t *o, ofi_op_t *op)
{
    unpost(o, op);
    if (op->spread_counted)
        ofi_spread_done(&o->spread, op->len, ordo_time_ns());
    o->lane_inflight[op->lane] -= op->charged;
    op->charged = 0;
    ofi_mr_close(o, op->local_mr);
    op->local_mr = NULL;
    if (op->bounce)
        o->bounce_free[o->bounce_top++] = op->bounce;
    op->bounce = NULL;
    if (op->cached)
        ordo_rcache_put(o->rcache[o->mr_per_lane ? op->lane : 0], op->cached);
    op->cached = NULL;
    op->next = o->op_free;
    o->op_free = op;
}

/* A local descriptor for the operation's buffer where the provider needs
 * one: the region's registration when the buffer lies in exposed memory;
 * for a small transfer, a pre-registered bounce buffer the data is copied
 * through (registering costs more than copying a few KiB: Ibrahim et al.);
 * else a registration for this operation. */
static ordo_status_t local_desc(ofi_iface_t *o, ofi_op_t *op, uint64_t access)
{
    if (!o->mr_local || op->len == 0)
        return ORDO_OK;
    for (struct ordo_tl_mem *m = o->mems; m; m = m->next) {
        if (m->size && op->local >= m->addr && op->len <= m->size &&
            (size_t)(op->local - m->addr) <= m->size - op->len) {
            op->local_desc = fi_mr_desc(m->mr[o->mr_per_lane ? op->lane : 0]);
            return ORDO_OK;
        }
    }
    if (op->len <= o->bounce_size && o->bounce_top > 0) {
        op->bounce = o->bounce_free[--o->bounce_top];
        if (op->type == OFI_OP_PUT)
            memcpy(op->bounce, op->local, op->len);
        op->local_desc = fi_mr_desc(o->bounce_mr[o->mr_per_lane ? op->lane : 0]);
        o->super.bounce_ops++;
        return ORDO_OK;
    }
    if (o->rcache[o->mr_per_lane ? op->lane : 0]) {
        ordo_status_t st = ofi_cached_reg(o, op->lane, op->local, op->len, "a local buffer",
                                      &op->cached);
        if (st != ORDO_OK)
            return st;
        op->local_desc = fi_mr_desc(ordo_rcache_handle(op->cached));
        return ORDO_OK;
    }
    uint64_t t0 = ordo_time_ns();
    int ret = ofi_mr_reg(o, op->local, op->len, access, op->lane, &op->local_mr);
    if (ret != 0)
        return ofi_mr_error(o, "a local buffer", op->len, ret);
    o->super.registrations++;
    o->super.registration_ns += ordo_time_ns() - t0;
    op->local_desc = fi_mr_desc(op->local_mr);
    return ORDO_OK;
}

/* The registration cache's calls into the provider.  Its registrations
 * serve local descriptors and rendezvous exposures alike, so they allow
 * remote access (as MPI libraries' caches register); a key is sent only to
 * the peer of a rendezvous.  A failure is logged by ofi_cached_reg, once the
 * cache has given back what it could and tried again. */
static ordo_status_t rc_reg(void *arg, void *addr, size_t len, void **handle_p)
{
    struct ofi_rc_arg *a = arg;
    ofi_iface_t *o = a->o;
    uint64_t t0 = ordo_time_ns();
    struct fid_mr *mr = NULL;
    int ret = ofi_mr_reg(o, addr, len, OFI_ACCESS_ALL, a->lane, &mr);
    a->ret = ret;
    if (ret != 0)
        return ofi_status(ret);
    o->super.registrations++;
    o->super.registration_ns += ordo_time_ns() - t0;
    *handle_p = mr;
    return ORDO_OK;
}

static void rc_dereg(void *arg, void *handle)
{
    ofi_mr_close(((struct ofi_rc_arg *)arg)->o, handle);
}

static const ordo_rcache_ops_t rc_ops = {.reg = rc_reg, .dereg = rc_dereg};

ordo_status_t ofi_rma_open(ofi_iface_t *o)
{
    o->inflight_max = ofi_inflight_wanted(o->info->fabric_attr->prov_name);
    if (o->inflight_max) {
        o->flight = calloc((size_t)o->size * (size_t)o->nlanes, sizeof(*o->flight));
        if (o->flight == NULL)
            return ORDO_ERR_NO_MEMORY;
    }
    /* The cache serves rendezvous buffers on every provider (remote access
     * needs a registration everywhere), local buffers where they need one. */
    if (ordo_config.rcache_max > 0) {
        for (int l = 0; l < (o->mr_per_lane ? o->nlanes : 1); l++) {
            o->rc_arg[l] = (struct ofi_rc_arg){.o = o, .lane = (unsigned)l};
            ordo_status_t st = ordo_rcache_create(&rc_ops, &o->rc_arg[l],
                                                  (size_t)ordo_config.rcache_max,
                                                  ordo_config.rcache_max_bytes,
                                                  &o->super.rcache, &o->rcache[l]);
            if (st == ORDO_ERR_UNSUPPORTED)
                break;   /* no memory monitor here: registered per operation */
            if (st != ORDO_OK)
                return st;
        }
    }
    if (!o->mr_local || ordo_config.bounce_max == 0)
        return ORDO_OK;
    o->bounce_size = ordo_config.bounce_max;
    o->nbounce = 64;
    size_t len = ((size_t)o->nbounce * o->bounce_size + 4095) & ~(size_t)4095;
    o->bounce_pool = aligned_alloc(4096, len);
    o->bounce_free = malloc(o->nbounce * sizeof(char *));
    if (o->bounce_pool == NULL || o->bounce_free == NULL) {
        ordo_error("ofi: cannot allocate %zu bytes of bounce buffers", len);
        return ORDO_ERR_NO_MEMORY;
    }
    for (int l = 0; l < (o->mr_per_lane ? o->nlanes : 1); l++) {
        int ret = ofi_mr_reg(o, o->bounce_pool, len, FI_READ | FI_WRITE, (unsigned)l,
                             &o->bounce_mr[l]);
        if (ret != 0)
            return ofi_mr_error(o, "bounce buffers", len, ret);
    }
    for (unsigned i = 0; i < o->nbounce; i++)
        o->bounce_free[o->bounce_top++] = o->bounce_pool + (size_t)i * o->bounce_size;
    return ORDO_OK;
}

/* post()'s answer for a piece that would pass the limit of bytes in flight
 * to its peer on its lane: it waits in the backlog (no libfabric error has
 * this value). */
#define OFI_POST_HELD ((ssize_t)-1000000)

/* Post the operation's next piece (or its atomic request): 0, -FI_EAGAIN,
 * OFI_POST_HELD, or another libfabric error. */
static ssize_t post(ofi_iface_t *o, ofi_op_t *op)
{
    struct fid_ep *ep = o->lane[op->lane].ep;
    size_t pl = peer_lane(o, op);
    fi_addr_t dest = o->addr[pl];
    ssize_t ret;
    /* nothing passes the puts gathered for this peer and lane */
    if (o->batch_list && o->batch_open[pl] &&
        (ret = ofi_batch_flush(o, op->rank, op->lane)) != 0)
        return ret;
    if (op->type == OFI_OP_AMO) {
        ofi_amo_req_t req = {.mem_id = op->rkey->mem_id, .offset = op->offset,
                             .value = op->value, .compare = op->compare, .id = op->reply_id,
                             .op = op->aop, .width = op->width};
        ordo_status_t st = ofi_am_send(o, op->rank, op->lane, OFI_MSG_AMO_REQ, &req,
                                       sizeof(req), NULL, 0);
        ret = st == ORDO_OK ? 0 : st == ORDO_ERR_BUSY ? -FI_EAGAIN
              : st == ORDO_ERR_PEER_DEAD ? -ECONNRESET : -FI_EIO;
    } else {
        size_t chunk = op->len - op->issued,
               most = op->type == OFI_OP_PUT ? o->put_piece : o->max_msg;
        if (chunk > most)
            chunk = most;
        struct ofi_flight *f = o->flight ? &o->flight[pl] : NULL;
        if (f && f->pieces >= OFI_INFLIGHT_PIECES && f->bytes + chunk > o->inflight_max) {
            o->super.rma_held += !op->held;
            op->held = 1;
            return OFI_POST_HELD;
        }
        uint64_t raddr = op->rkey->raddr + op->offset + op->issued;
        uint64_t key = op->rkey->key[op->lane];
        char *buf = (op->bounce ? op->bounce : op->local) + op->issued;
        if (op->type == OFI_OP_PUT)
            ret = fi_write(ep, buf, chunk, op->local_desc, dest, raddr, key, &op->ctx);
        else
            ret = fi_read(ep, buf, chunk, op->local_desc, dest, raddr, key, &op->ctx);
        if (ret == 0) {
            op->issued += chunk;
            if (f) {
                f->bytes += chunk;
                f->pieces++;
                op->posted = chunk;
            }
        }
    }
    return ret;
}

static void backlog_append(ofi_iface_t *o, ofi_op_t *op)
{
    op->next = NULL;
    if (o->backlog_tail) o->backlog_tail->next = op; else o->backlog_head = op;
    o->backlog_tail = op;
}

static void finish(ofi_iface_t *o, ofi_op_t *op)
{
    op->done = 1;
    if (op->bounce && op->type == OFI_OP_GET && op->status == ORDO_OK && !op->abandoned)
        memcpy(op->local, op->bounce, op->len);
    if (op->type == OFI_OP_AMO)
        ofi_reply_slot_clear(o, op);
    if (op->abandoned) {
        ofi_op_release(o, op);
        return;
    }
    if (op->comp) {
        /* reported by progress: finish may run inside a send or a wait of
         * the layer above, which must not be re-entered */
        op->next = NULL;
        if (o->done_tail) o->done_tail->next = op; else o->done_head = op;
        o->done_tail = op;
    }
    /* synchronous: the waiter reads the status and releases */
}

unsigned ofi_report_done(ofi_iface_t *o)
{
    unsigned n = 0;
    ofi_op_t *op;
    while ((op = o->done_head) != NULL) {
        o->done_head = op->next;
        if (o->done_head == NULL)
            o->done_tail = NULL;
        ordo_tl_comp_t *comp = op->comp;
        ordo_status_t st = op->status;
        ofi_op_release(o, op);
        comp->func(comp, st);
        n++;
    }
    return n;
}

static const char *op_name(const ofi_op_t *op)
{
    return op->type == OFI_OP_PUT ? "a put" : op->type == OFI_OP_GET ? "a get" : "an atomic";
}

void ofi_op_piece_done(ofi_iface_t *o, ofi_op_t *op, ordo_status_t st)
{
    unpost(o, op);
    if (st != ORDO_OK && op->status == ORDO_OK)
        op->status = st;
    if (op->status == ORDO_OK && op->type != OFI_OP_AMO && op->issued < op->len) {
        ssize_t ret = post(o, op);
        if (ret == 0)
            return;
        if (ret == -FI_EAGAIN || ret == OFI_POST_HELD) {
            backlog_append(o, op);
            return;
        }
        ofi_post_error(o, op_name(op), op->rank, ret);
        op->status = ofi_status((int)ret);
    }
    finish(o, op);
}

/* Post the backlog in order, up to the first the provider still refuses:
 * an ordered operation must not pass an earlier one waiting here.  One
 * held by the limit of bytes in flight holds only those of its peer and
 * lane (an order holds between operations of one endpoint to one peer);
 * the others go past it. */
unsigned ofi_backlog_retry(ofi_iface_t *o)
{
    unsigned n = 0;
    if (++o->pass == 0)
        o->pass = 1;   /* 0 is every peer's "never held" */
    ofi_op_t *prev = NULL, *op = o->backlog_head;
    while (op != NULL) {
        ofi_op_t *next = op->next;
        uint32_t *held = o->flight ? &o->flight[peer_lane(o, op)].held_pass : NULL;
        if (held && *held == o->pass) {
            prev = op;   /* behind one of its peer and lane held this pass */
            op = next;
            continue;
        }
        ssize_t ret = ordo_boot_rank_dead(o->boot, op->rank) ? -ECONNRESET : post(o, op);
        if (ret == -FI_EAGAIN)
            break;
        if (ret == OFI_POST_HELD) {
            *held = o->pass;
            prev = op;
            op = next;
            continue;
        }
        if (prev) prev->next = next; else o->backlog_head = next;
        if (o->backlog_tail == op)
            o->backlog_tail = prev;
        n++;
        if (ret != 0) {
            op->status = ofi_status((int)ret);
            finish(o, op);
        }
        op = next;
    }
    /* replies that found no room */
    ofi_reply_t *r = o->reply_backlog;
    o->reply_backlog = NULL;
    while (r) {
        ofi_reply_t *next = r->next;
        ordo_status_t st = ofi_am_send(o, r->rank, r->lane, r->kind, r->data, r->len, NULL, 0);
        if (st == ORDO_ERR_BUSY) {
            r->next = o->reply_backlog;
            o->reply_backlog = r;
        } else {
            free(r);
            n++;
        }
        r = next;
    }
    return n;
}

/* Start op; complete it here when comp is NULL. */
static ordo_status_t submit(ofi_iface_t *o, ofi_op_t *op, ordo_tl_comp_t *comp)
{
    op->comp = comp;
    ssize_t ret = 0;
    if (o->backlog_head) {
        /* never ahead of what waits there: it goes behind them, at once
         * where those are held for other peers and lanes */
        backlog_append(o, op);
        ofi_backlog_retry(o);
    } else {
        ret = post(o, op);
        if (ret == -FI_EAGAIN) {
            ofi_poll(o);
            ret = o->backlog_head ? -FI_EAGAIN : post(o, op);
        }
        if (ret == -FI_EAGAIN || ret == OFI_POST_HELD) {
            backlog_append(o, op);
            ret = 0;
        }
    }
    if (ret != 0) {
        ofi_post_error(o, op_name(op), op->rank, ret);
        if (op->type == OFI_OP_AMO)
            ofi_reply_slot_clear(o, op);
        ofi_op_release(o, op);
        return ofi_status((int)ret);
    }
    if (comp)
        return ORDO_INPROGRESS;
    unsigned idle = 0;
    while (!op->done) {
        ofi_poll(o);
        if (o->batch_list)   /* a peer's progress may wait on them */
            ofi_batch_flush_all(o);
        if (o->bundle_list)
            ofi_bundle_flush_all(o);
        if (o->backlog_head || o->reply_backlog)
            ofi_backlog_retry(o);
        if (op->done)
            break;
        if (ordo_boot_rank_dead(o->boot, op->rank)) {
            op->abandoned = 1;   /* released if the provider ever completes it */
            return ORDO_ERR_PEER_DEAD;
        }
        if (o->nparked > o->nrx / 2)
            ofi_am_spill(o);
        if (++idle % 256 == 0) {
            ofi_mark_active(o);
            sched_yield();   /* the peer may share our core */
        }
    }
    ordo_status_t st = op->status;
    ofi_op_release(o, op);
    return st;
}

static ofi_op_t *rma_op(ofi_iface_t *o, uint8_t type, ordo_tl_rkey_t *rkey, size_t offset,
                        void *local, size_t len, unsigned flags)
{
    ofi_op_t *op = ofi_op_new(o);
    if (op == NULL)
        return NULL;
    op->type = type;
    op->rkey = (ofi_rkey_t *)rkey;
    op->rank = rkey->rank;
    op->offset = offset;
    op->local = local;
    op->len = len;
    op->lane = (uint8_t)ofi_lane_pick(o, op->rank, len, (flags & ORDO_TL_OP_ORDERED) != 0,
                                      &op->spread_counted);
    op->charged = len;
    o->lane_inflight[op->lane] += len;
    return op;
}

static ordo_status_t transfer(ofi_iface_t *o, uint8_t type, ordo_tl_rkey_t *rkey,
                              size_t offset, void *local, size_t len, unsigned flags,
                              ordo_tl_comp_t *comp)
{
    if (ORDO_UNLIKELY(ordo_boot_rank_dead(o->boot, rkey->rank)))
        return ORDO_ERR_PEER_DEAD;
    if (len == 0)
        return ORDO_OK;
    ofi_op_t *op = rma_op(o, type, rkey, offset, local, len, flags);
    if (op == NULL)
        return ORDO_ERR_NO_MEMORY;
    /* A short put joins its peer's batch, unless something refused earlier
     * waits in the backlog (it must go first), the caller waits anyway, or
     * it comes alone: on an idle lane, a while after the lane's last short
     * put (a put then a wait for it, not a window of them).  Alone, a batch
     * costs the target's handler and an acknowledgement of ordo's own where
     * the provider's write needs neither (one-way 8-byte put + flush over
     * tcp: 19-24 us batched, 11-13 written).  Order holds: nothing of the
     * lane is in flight before it, and a later put batched behind it is a
     * message after a write (FI_ORDER_SAW, without which every short put is
     * batched). */
    if (type == OFI_OP_PUT && len <= o->batch_max && comp && !(flags & ORDO_TL_OP_ALONE) &&
        o->backlog_head == NULL) {
        uint64_t now = ordo_time_ns(), last = o->lane_short_at[op->lane];
        o->lane_short_at[op->lane] = now;
        int alone = o->lane_inflight[op->lane] == op->charged && now - last > OFI_ALONE_GAP_NS &&
                    (o->super.ordered_pairs &
                     ORDO_TL_PAIR(ORDO_TL_KIND_PUT, ORDO_TL_KIND_PUT_SHORT));
        if (alone) {
            ordo_status_t st = local_desc(o, op, FI_WRITE);
            if (st != ORDO_OK) {
                ofi_op_release(o, op);
                return st;
            }
            op->comp = comp;
            ssize_t ret = post(o, op);
            if (ret == 0)
                return ORDO_INPROGRESS;
            if (ret != -FI_EAGAIN)
                return submit(o, op, comp);   /* which says what failed */
            /* the provider cannot take it now (a connection being made, a
             * full queue): the batch takes it after all, where the
             * backlog would hold every put behind it */
        }
        if (ofi_batch_put(o, op, comp))
            return ORDO_INPROGRESS;
        if (alone)
            return submit(o, op, comp);
    }
    ordo_status_t st = local_desc(o, op, type == OFI_OP_PUT ? FI_WRITE : FI_READ);
    if (st != ORDO_OK) {
        ofi_op_release(o, op);
        return st;
    }
    return submit(o, op, comp);
}

ordo_status_t ofi_put(ordo_tl_iface_t *iface, ordo_tl_rkey_t *rkey, size_t offset,
                      const void *src, size_t len, unsigned flags, ordo_tl_comp_t *comp)
{
    return transfer((ofi_iface_t *)iface, OFI_OP_PUT, rkey, offset, (void *)src, len, flags,
                    comp);
}

ordo_status_t ofi_get(ordo_tl_iface_t *iface, ordo_tl_rkey_t *rkey, size_t offset, void *dst,
                      size_t len, unsigned flags, ordo_tl_comp_t *comp)
{
    return transfer((ofi_iface_t *)iface, OFI_OP_GET, rkey, offset, dst, len, flags, comp);
}

ordo_status_t ofi_atomic(ordo_tl_iface_t *iface, ordo_tl_rkey_t *rkey, size_t offset,
                         ordo_atomic_op_t aop, unsigned width, uint64_t value, uint64_t compare,
                         uint64_t *result, unsigned flags, ordo_tl_comp_t *comp)
{
    ofi_iface_t *o = (ofi_iface_t *)iface;
    if (ORDO_UNLIKELY(ordo_boot_rank_dead(o->boot, rkey->rank)))
        return ORDO_ERR_PEER_DEAD;
    ofi_op_t *op = rma_op(o, OFI_OP_AMO, rkey, offset, NULL, width, flags);
    if (op == NULL)
        return ORDO_ERR_NO_MEMORY;
    op->aop = (uint8_t)aop;
    op->width = (uint8_t)width;
    op->value = value;
    op->compare = compare;
    op->result = result;
    /* no result wanted, and the caller does not wait: it joins the batch,
     * unless something refused earlier waits in the backlog */
    if (result == NULL && aop != ORDO_ATOMIC_CSWAP && comp && width <= o->batch_max &&
        !(flags & ORDO_TL_OP_ALONE) && o->backlog_head == NULL && ofi_batch_atomic(o, op, comp))
        return ORDO_INPROGRESS;
    if (ofi_reply_slot_take(o, op) == UINT32_MAX) {
        ofi_op_release(o, op);
        return ORDO_ERR_NO_MEMORY;
    }
    return submit(o, op, comp);
}

void ofi_rma_close(ofi_iface_t *o)
{
    while (o->done_head) {   /* completions nobody will ask for any more */
        ofi_op_t *op = o->done_head;
        o->done_head = op->next;
        ofi_op_release(o, op);
    }
    o->done_tail = NULL;
    while (o->mems) {   /* before the caches: a rendezvous buffer's goes back to one */
        struct ordo_tl_mem *m = o->mems;
        o->mems = m->next;
        ofi_mem_free(o, m);
    }
    for (int l = 0; l < OFI_LANES_MAX; l++)
        ordo_rcache_destroy(o->rcache[l]);
    while (o->op_free) {
        ofi_op_t *op = o->op_free;
        o->op_free = op->next;
        free(op);
    }
    free(o->flight);
    o->flight = NULL;
    while (o->reply_backlog) {
        ofi_reply_t *r = o->reply_backlog;
        o->reply_backlog = r->next;
        free(r);
    }
    free(o->reply_slot);
    for (int l = 0; l < OFI_LANES_MAX; l++)
        ofi_mr_close(o, o->bounce_mr[l]);
    free(o->bounce_pool);
    free(o->bounce_free);
}
