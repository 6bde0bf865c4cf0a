/* ofi: opening the fabric, exchanging addresses, progress.  See ofi.h. */
#define _GNU_SOURCE
#include "ofi.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/compiler.h"
#include "../../base/config.h"
#include "../../base/log.h"
#include "../../base/timer.h"

#define OFI_API FI_VERSION(1, 10)

/* What the default mode's writes need of one endpoint: puts in order
 * (RMA_WAW), an atomic request after a put (SAW), atomics among themselves
 * (SAS).  Strict waits instead; relaxed needs nothing. */
#define OFI_ORDER_DEFAULT_MODE (FI_ORDER_RMA_WAW | FI_ORDER_SAW | FI_ORDER_SAS)

ordo_status_t ofi_status(int err)
{
    if (err < 0)
        err = -err;
    switch (err) {   /* libfabric's codes are errno's where errno has one */
    case 0:              return ORDO_OK;
    case FI_ENOMEM:      return ORDO_ERR_NO_MEMORY;
    case ECONNREFUSED:
    case ECONNRESET:
    case ECONNABORTED:
    case ENOTCONN:
    case EPIPE:
    case EHOSTUNREACH:
    case ESHUTDOWN:   return ORDO_ERR_PEER_DEAD;
    case FI_ETRUNC:      return ORDO_ERR_TRUNCATED;
    case FI_EACCES:
    case FI_EPERM:       return ORDO_ERR_PERMISSION;
    case ETIMEDOUT:   return ORDO_ERR_TIMED_OUT;
    case FI_ENOSYS:
    case EOPNOTSUPP:  return ORDO_ERR_UNSUPPORTED;
    case FI_EAGAIN:      return ORDO_ERR_BUSY;
    default:             return ORDO_ERR_IO;
    }
}

void ofi_post_error(ofi_iface_t *o, const char *what, int rank, ssize_t ret)
{
    ordo_error("ofi (%s): %s towards rank %d failed: %s", o->info->fabric_attr->prov_name, what,
               rank, fi_strerror((int)-ret));
}

/* ------------------------------------------------------------- progress */

/* A completion error's status.  Socket-based providers report a broken
 * connection as a generic I/O error with the socket's errno beside it: a
 * peer that went away, which is what the status should say. */
static ordo_status_t cq_error_status(ofi_iface_t *o, const struct fi_cq_err_entry *e)
{
    ordo_status_t st = ofi_status(e->err);
    const char *prov = o->info->fabric_attr->prov_name;
    if (st == ORDO_ERR_IO && e->prov_errno > 0 &&
        (strstr(prov, "tcp") || strstr(prov, "net") || strstr(prov, "sockets") ||
         strstr(prov, "udp")) &&
        ofi_status(e->prov_errno) == ORDO_ERR_PEER_DEAD)
        st = ORDO_ERR_PEER_DEAD;
    return st;
}

static void complete_error(ofi_iface_t *o, ofi_lane_t *lane)
{
    struct fi_cq_err_entry e;
    memset(&e, 0, sizeof(e));
    if (fi_cq_readerr(lane->cq, &e, 0) != 1)
        return;
    ofi_ctx_t *ctx = e.op_context;
    if (ctx == NULL)
        return;
    switch (ctx->kind) {
    case OFI_CTX_RX: {
        ofi_buf_t *b = (ofi_buf_t *)ctx;
        if (e.err != FI_ECANCELED)
            ordo_debug("ofi: a receive failed: %s", fi_strerror(e.err));
        ofi_am_rx_complete(o, b, 0);   /* nothing usable arrived: reposted */
        return;
    }
    case OFI_CTX_TX: {
        ofi_buf_t *b = (ofi_buf_t *)ctx;
        /* towards a rank known dead: the layer above hears of it anyway */
        int dead = ordo_boot_rank_dead(o->boot, b->rank);
        if (!dead)
            ordo_warn("ofi: a message to rank %d failed: %s", b->rank,
                      fi_cq_strerror(lane->cq, e.prov_errno, e.err_data, NULL, 0));
        ofi_am_tx_complete(o, b, dead ? ORDO_ERR_PEER_DEAD : cq_error_status(o, &e));
        return;
    }
    case OFI_CTX_OP: {
        ofi_op_t *op = (ofi_op_t *)ctx;
        ordo_status_t st = cq_error_status(o, &e);
        int dead = ordo_boot_rank_dead(o->boot, op->rank);
        if (dead)
            st = ORDO_ERR_PEER_DEAD;
        /* towards a dead rank the status says it all; else say what failed */
        ordo_log(dead ? ORDO_LOG_DEBUG : ORDO_LOG_ERROR,
            "ofi (%s): %s of %zu bytes with rank %d failed: %s",
            o->info->fabric_attr->prov_name,
            op->type == OFI_OP_PUT ? "put" : op->type == OFI_OP_GET ? "get" : "atomic", op->len,
            op->rank, fi_cq_strerror(lane->cq, e.prov_errno, e.err_data, NULL, 0));
        ofi_op_piece_done(o, op, st);
        return;
    }
    }
}

/* Read the completion queues: finished sends and RMA, arrived messages
 * (handed up only from ofi_progress; parked when a wait polls). */
void ofi_poll(ofi_iface_t *o)
{
    if (o->polling)
        return;
    o->polling = 1;
    unsigned now = ++o->polls;
    int all = o->poll_all || now % OFI_COLD_POLL_EVERY == 0;
    for (int l = 0; l < o->nlanes; l++) {
        if (!all && now - o->lane_used_at[l] > OFI_LANE_COLD_POLLS)
            continue;   /* cold: its turn comes */
        ofi_lane_t *lane = &o->lane[l];
        struct fi_cq_msg_entry ev[OFI_CQ_BATCH];
        for (int round = 0; round < 4; round++) {
            ssize_t n = fi_cq_read(lane->cq, ev, OFI_CQ_BATCH);
            if (n == -FI_EAVAIL) {
                complete_error(o, lane);
                continue;
            }
            if (n <= 0)
                break;
            o->lane_used_at[l] = now;
            for (ssize_t i = 0; i < n; i++) {
                ofi_ctx_t *ctx = ev[i].op_context;
                if (ctx == NULL)
                    continue;
                switch (ctx->kind) {
                case OFI_CTX_RX: ofi_am_rx_complete(o, (ofi_buf_t *)ctx, ev[i].len); break;
                case OFI_CTX_TX: ofi_am_tx_complete(o, (ofi_buf_t *)ctx, ORDO_OK); break;
                case OFI_CTX_OP: ofi_op_piece_done(o, (ofi_op_t *)ctx, ORDO_OK); break;
                }
            }
            if (n < OFI_CQ_BATCH)
                break;
        }
    }
    o->polling = 0;
}

unsigned ofi_lane_pick(ofi_iface_t *o, int rank, size_t len, int ordered, uint8_t *measured)
{
    *measured = 0;
    if (ordered || o->nlanes == 1) {
        o->super.lane_ops[0]++;
        ofi_lane_used(o, 0);
        return 0;
    }
    unsigned cur = o->peer_lane[rank];
    if (len >= OFI_LANE_LARGE) {
        /* whichever way it goes, it tells whether spreading pays */
        *measured = 1;
        ofi_spread_issued(&o->spread, ordo_time_ns());
    }
    if (len < OFI_LANE_LARGE ? o->lane_inflight[cur] < OFI_LANE_BUSY
                             : !ofi_spread_now(&o->spread)) {
        o->super.lane_ops[cur]++;
        o->super.lane_kept++;
        ofi_lane_used(o, cur);
        return cur;
    }
    /* the least loaded lane; on a tie the current one: a second lane costs
     * its own completions and polls, and pays only where one is loaded (a
     * 64 KiB put then 63 short ones, relaxed, over 4 lanes: 10-15% below
     * the default mode's one lane when the large one moved off an idle
     * lane) */
    unsigned n = (unsigned)o->nlanes, best = cur;
    for (unsigned i = 1; i < n; i++) {
        unsigned l = (cur + i) % n;
        if (o->lane_inflight[l] < o->lane_inflight[best])
            best = l;
    }
    if (len < OFI_LANE_LARGE)
        o->peer_lane[rank] = (uint8_t)best;   /* the peer moves off its busy lane */
    o->super.lane_ops[best]++;
    ofi_lane_used(o, best);
    if (best == cur)
        o->super.lane_kept++;
    else
        o->super.lane_spread++;
    return best;
}

/* ------------------------------------------------------------- opening */

static int ofi_reaches(ordo_tl_iface_t *iface, int rank)
{
    ofi_iface_t *o = (ofi_iface_t *)iface;
    return rank >= 0 && rank < o->size;
}

/* Providers in order of preference when ORDO_OFI_PROVIDER is auto: the
 * NICs' own first, then the portable ones.  shm is left out: it is for
 * ranks of one node, which the shm transport serves.  libfabric 2.x's tcp
 * is reliable-datagram itself, a layer less than tcp;ofi_rxm (8 B: 4.4
 * against 5.6 us one-way over loopback); 1.x's offers no RDM endpoint, so
 * there rxm over it is taken. */
static const char *const preferred[] = {
    "cxi", "efa", "opx", "psm3", "verbs;ofi_rxm", "psm2", "tcp", "tcp;ofi_rxm", "sockets",
    "udp;ofi_rxd",
};

static int preference(const char *prov)
{
    for (size_t i = 0; i < sizeof(preferred) / sizeof(preferred[0]); i++)
        if (strcmp(prov, preferred[i]) == 0)
            return (int)i;
    return -1;
}

static struct fi_info *make_hints(void)
{
    struct fi_info *h = fi_dupinfo(NULL);
    if (h == NULL)
        return NULL;
    h->caps = FI_MSG | FI_RMA | FI_SEND | FI_RECV | FI_READ | FI_WRITE | FI_REMOTE_READ |
              FI_REMOTE_WRITE;
    h->mode = FI_CONTEXT | FI_CONTEXT2;
    h->ep_attr->type = FI_EP_RDM;
    h->domain_attr->mr_mode = FI_MR_LOCAL | FI_MR_VIRT_ADDR | FI_MR_ALLOCATED | FI_MR_PROV_KEY |
                              FI_MR_ENDPOINT | FI_MR_RAW;
    h->domain_attr->threading = FI_THREAD_DOMAIN;
    h->domain_attr->control_progress = FI_PROGRESS_MANUAL;
    h->domain_attr->data_progress = FI_PROGRESS_MANUAL;
    h->tx_attr->op_flags = FI_DELIVERY_COMPLETE;
    h->tx_attr->msg_order = h->rx_attr->msg_order = OFI_ORDER_DEFAULT_MODE;
    const char *want = ordo_config.ofi_provider;
    if (want[0] && strcmp(want, "auto") != 0)
        h->fabric_attr->prov_name = strdup(want);
    return h;
}

/* The provider and domain to use, duplicated from the list. */
static ordo_status_t choose_info(struct fi_info **info_p)
{
    struct fi_info *hints = make_hints(), *list = NULL;
    if (hints == NULL)
        return ORDO_ERR_NO_MEMORY;
    int ret = fi_getinfo(OFI_API, NULL, NULL, 0, hints, &list);
    if (ret == -FI_ENODATA) {
        /* Some providers only progress on their own: take them as they are
         * (ordo still drives progress, which does no harm). */
        hints->domain_attr->control_progress = FI_PROGRESS_UNSPEC;
        hints->domain_attr->data_progress = FI_PROGRESS_UNSPEC;
        ret = fi_getinfo(OFI_API, NULL, NULL, 0, hints, &list);
    }
    if (ret == -FI_ENODATA) {
        /* No ordering on one endpoint: default streams then wait for each
         * write's completion before the next, as strict ones do. */
        hints->tx_attr->msg_order = hints->rx_attr->msg_order = FI_ORDER_NONE;
        ret = fi_getinfo(OFI_API, NULL, NULL, 0, hints, &list);
    }
    const char *want = ordo_config.ofi_provider;
    int automatic = want[0] == '\0' || strcmp(want, "auto") == 0;
    if (ret != 0) {
        ordo_error("ofi: no libfabric provider%s%s offers reliable datagram endpoints with "
                   "messages, RMA and delivery-complete writes: %s",
                   automatic ? "" : " named ", automatic ? "" : want, fi_strerror(-ret));
        fi_freeinfo(hints);
        return ORDO_ERR_UNSUPPORTED;
    }
    struct fi_info *best = NULL;
    int best_pref = 1 << 30;
    const char *dom = ordo_config.ofi_domain;
    for (struct fi_info *i = list; i; i = i->next) {
        if (dom[0] && strcmp(i->domain_attr->name, dom) != 0)
            continue;
        if (i->addr_format == FI_SOCKADDR_IN6 && strncmp(i->fabric_attr->name, "fe80", 4) == 0)
            continue;   /* link-local addresses need a scope the peers do not share */
        int p = automatic ? preference(i->fabric_attr->prov_name) : 0;
        if (p < 0)
            continue;
        if (p < best_pref) {
            best = i;
            best_pref = p;
        }
    }
    if (best == NULL) {
        ordo_error("ofi: no usable provider%s%s%s%s (see fi_info -t FI_EP_RDM)",
                   automatic ? "" : " named ", automatic ? "" : want,
                   dom[0] ? " on domain " : "", dom);
        fi_freeinfo(list);
        fi_freeinfo(hints);
        return ORDO_ERR_UNSUPPORTED;
    }
    *info_p = fi_dupinfo(best);
    fi_freeinfo(list);
    fi_freeinfo(hints);
    return *info_p ? ORDO_OK : ORDO_ERR_NO_MEMORY;
}

/* The pairs one endpoint keeps in order for the default mode, from the
 * ordering the provider gave (tl.h, ORDO_TL_OP_ORDERED).  Atomics and
 * batches of short puts travel as messages the target's CPU serves in
 * arrival order (SAS); a long put is the provider's write (WAW, and SAW
 * before a message).  A long put after an atomic or a batch is never among
 * them: the provider may apply the write while the message it delivered
 * just before still waits for the target's progress to serve it. */
static void ordered_pairs(ofi_iface_t *o)
{
    uint64_t mo = o->info->tx_attr->msg_order & o->info->rx_attr->msg_order;
    enum { P = ORDO_TL_KIND_PUT, S = ORDO_TL_KIND_PUT_SHORT, A = ORDO_TL_KIND_ATOMIC };
    uint32_t pairs = 0;
    if (mo & (FI_ORDER_RMA_WAW | FI_ORDER_WAW))
        pairs |= ORDO_TL_PAIR(P, P);
    if (mo & FI_ORDER_SAW)
        pairs |= ORDO_TL_PAIR(P, A);
    if (mo & FI_ORDER_SAS)
        pairs |= ORDO_TL_PAIR(A, A);
    if (o->batch_max) {
        if (mo & FI_ORDER_SAS)
            pairs |= ORDO_TL_PAIR(S, S) | ORDO_TL_PAIR(S, A) | ORDO_TL_PAIR(A, S);
        if (mo & FI_ORDER_SAW)
            pairs |= ORDO_TL_PAIR(P, S);
    }
    o->super.ordered_pairs = pairs;
    size_t waw = o->info->ep_attr->max_order_waw_size;
    o->super.ordered_max = (pairs & ORDO_TL_PAIR(ORDO_TL_KIND_PUT, ORDO_TL_KIND_PUT))
                               ? waw : SIZE_MAX;   /* messages: no size limit on order */
    /* a longer operation goes in pieces, one after the other: others could
     * pass its later pieces */
    if (o->super.ordered_max > o->put_piece)
        o->super.ordered_max = o->put_piece;
}

static ordo_status_t open_lane(ofi_iface_t *o, int l)
{
    ofi_lane_t *lane = &o->lane[l];
    /* No wait object: with one, the provider signals a descriptor for
     * every completion (a write and a read per message), which halved
     * tcp;ofi_rxm's bandwidth and put rate here.  The progress helper
     * wakes on a timer instead. */
    struct fi_cq_attr cq_attr = {.format = FI_CQ_FORMAT_MSG, .wait_obj = FI_WAIT_NONE};
    int ret = fi_cq_open(o->domain, &cq_attr, &lane->cq, NULL);
    /* Lane 0 carries the default mode's ordered writes and asks for the
     * ordering they need; the others ask for none (where a provider has a
     * faster path without ordering, such as shm's single copy, they take it). */
    if (ret == 0)
        ret = fi_endpoint(o->domain, l == 0 ? o->info : o->info_relaxed, &lane->ep, NULL);
    if (ret == 0)
        ret = fi_ep_bind(lane->ep, &o->av->fid, 0);
    if (ret == 0)
        ret = fi_ep_bind(lane->ep, &lane->cq->fid, FI_TRANSMIT | FI_RECV);
    if (ret == 0)
        ret = fi_enable(lane->ep);
    if (ret == 0) {
        lane->namelen = sizeof(lane->name);
        ret = fi_getname(&lane->ep->fid, lane->name, &lane->namelen);
        if (ret == -FI_ETOOSMALL)
            ordo_error("ofi: endpoint names of %s are longer than %d bytes",
                       o->info->fabric_attr->prov_name, OFI_ADDR_MAX);
    }
    if (ret != 0) {
        ordo_error("ofi (%s): cannot open endpoint %d: %s", o->info->fabric_attr->prov_name, l,
                   fi_strerror(-ret));
        return ofi_status(ret);
    }
    return ORDO_OK;
}

/* What every rank publishes. */
typedef struct ofi_card {
    char     prov[48];
    uint32_t nlanes;
    uint32_t namelen[OFI_LANES_MAX];
    char     name[OFI_LANES_MAX][OFI_ADDR_MAX];
} ofi_card_t;

static ordo_status_t exchange_addresses(ofi_iface_t *o)
{
    ofi_card_t mine;
    memset(&mine, 0, sizeof(mine));
    snprintf(mine.prov, sizeof(mine.prov), "%s", o->info->fabric_attr->prov_name);
    mine.nlanes = (uint32_t)o->nlanes;
    for (int l = 0; l < o->nlanes; l++) {
        mine.namelen[l] = (uint32_t)o->lane[l].namelen;
        memcpy(mine.name[l], o->lane[l].name, o->lane[l].namelen);
    }
    ofi_card_t *all = calloc((size_t)o->size, sizeof(*all));
    void *names = calloc((size_t)o->size * (size_t)o->nlanes, OFI_ADDR_MAX);
    o->addr = calloc((size_t)o->size * (size_t)o->nlanes, sizeof(fi_addr_t));
    o->peer_lane = calloc((size_t)o->size, 1);
    ordo_status_t st = ORDO_ERR_NO_MEMORY;
    if (all == NULL || names == NULL || o->addr == NULL || o->peer_lane == NULL)
        goto out;
    /* unordered traffic starts off lane 0, which carries the ordered, on a
     * lane both ranks of a pair pick (what one sends and what it is sent
     * share an endpoint, polled once), spread over the pairs */
    for (int r = 0; r < o->size && o->nlanes > 1; r++)
        o->peer_lane[r] = (uint8_t)(1 + (unsigned)(r + o->rank) % (unsigned)(o->nlanes - 1));
    ofi_spread_init(&o->spread, ordo_config.ofi_lane_spread);
    st = ordo_boot_allgather(o->boot, "ordo.ofi.card", &mine, sizeof(mine), all);
    if (st != ORDO_OK)
        goto out;
    size_t namelen = o->lane[0].namelen;
    for (int r = 0; r < o->size; r++) {
        ofi_card_t *c = &all[r];
        c->prov[sizeof(c->prov) - 1] = '\0';
        if (strcmp(c->prov, mine.prov) != 0 || c->nlanes != mine.nlanes) {
            ordo_error("ofi: rank %d uses provider %s with %u lanes, this rank %s with %u: "
                       "every rank needs the same ORDO_OFI_PROVIDER and ORDO_OFI_LANES",
                       r, c->prov, c->nlanes, mine.prov, mine.nlanes);
            st = ORDO_ERR_INVALID_PARAM;
            goto out;
        }
        for (int l = 0; l < o->nlanes; l++) {
            if (c->namelen[l] != namelen) {
                ordo_error("ofi: rank %d's address is %u bytes, %zu expected", r,
                           c->namelen[l], namelen);
                st = ORDO_ERR_BOOTSTRAP;
                goto out;
            }
            memcpy((char *)names + ((size_t)r * (size_t)o->nlanes + (size_t)l) * namelen,
                   c->name[l], namelen);
        }
    }
    /* One at a time: how addresses of a format are packed in an array
     * differs between providers (strings for shm). */
    size_t count = (size_t)o->size * (size_t)o->nlanes;
    for (size_t i = 0; i < count; i++) {
        int n = fi_av_insert(o->av, (char *)names + i * namelen, 1, &o->addr[i], 0, NULL);
        if (n != 1) {
            ordo_error("ofi: could not enter rank %zu's address (lane %zu): %s",
                       i / (size_t)o->nlanes, i % (size_t)o->nlanes,
                       n < 0 ? fi_strerror(-n) : "refused");
            st = ORDO_ERR_IO;
            goto out;
        }
    }
    st = ORDO_OK;
out:
    free(all);
    free(names);
    return st;
}

static void ofi_close(ordo_tl_iface_t *iface)
{
    ofi_iface_t *o = (ofi_iface_t *)iface;
    ofi_helper_stop(o);
    ofi_bundle_close(o);
    ofi_batch_close(o);
    ofi_rma_close(o);
    for (int l = 0; l < o->nlanes; l++)
        if (o->lane[l].ep)
            fi_close(&o->lane[l].ep->fid);
    ofi_am_close(o);
    for (int l = 0; l < o->nlanes; l++)
        if (o->lane[l].cq)
            fi_close(&o->lane[l].cq->fid);
    if (o->av)
        fi_close(&o->av->fid);
    if (o->domain)
        fi_close(&o->domain->fid);
    if (o->fabric)
        fi_close(&o->fabric->fid);
    if (o->info)
        fi_freeinfo(o->info);
    if (o->info_relaxed)
        fi_freeinfo(o->info_relaxed);
    ordo_tl_reorder_fini(iface);
    free(o->addr);
    free(o->peer_lane);
    free(o);
}

static ordo_status_t ofi_open(const ordo_tl_params_t *params, ordo_tl_iface_t **iface_p);
static ordo_status_t ofi_describe(ordo_tl_iface_t *iface, char *buf, size_t len);

const ordo_tl_ops_t ordo_tl_ofi_ops = {
    .size = sizeof(ordo_tl_ops_t),
    .name = "ofi",
    .description = "libfabric (ORDO_OFI_PROVIDER): RMA by the provider, atomics served by the "
                   "target, messages into posted buffers, over ORDO_OFI_LANES endpoints",
    .caps = ORDO_TL_CAP_PUT | ORDO_TL_CAP_GET | ORDO_TL_CAP_ATOMIC32 | ORDO_TL_CAP_ATOMIC64 |
            ORDO_TL_CAP_ASYNC | ORDO_TL_CAP_USER_MEM | ORDO_TL_CAP_AM | ORDO_TL_CAP_ON_DEMAND |
            ORDO_TL_CAP_NETWORK,
    .open = ofi_open,
    .close = ofi_close,
    .reaches = ofi_reaches,
    .mem_expose = ofi_l_mem_expose,
    .mem_release = ofi_l_mem_release,
    .mem_published = ofi_l_mem_published,
    .rkey_open = ofi_l_rkey_open,
    .rkey_close = ofi_l_rkey_close,
    .rkey_ptr = ofi_rkey_ptr,
    .put = ofi_l_put,
    .get = ofi_l_get,
    .atomic = ofi_l_atomic,
    .progress = ofi_progress,
    .am_short = ofi_l_am_short,
    .am_bcopy = ofi_l_am_bcopy,
    .am_release = ofi_l_am_release,
    .am_peek = NULL,
    .am_consume = NULL,
    .describe = ofi_describe,
    .drive = ofi_drive,
    .hold = ofi_hold,
};

static ordo_status_t open_iface(const ordo_tl_params_t *params, ordo_tl_iface_t **iface_p);

static ordo_status_t ofi_open(const ordo_tl_params_t *params, ordo_tl_iface_t **iface_p)
{
    ordo_status_t st = ofi_lib_load();
    if (st != ORDO_OK)
        return st;
    /* Providers start up (and may load libraries) as the fabric opens. */
    struct sigaction saved[NSIG];
    ofi_signals_save(saved);
    st = open_iface(params, iface_p);
    ofi_signals_restore(saved);
    return st;
}

static ordo_status_t open_iface(const ordo_tl_params_t *params, ordo_tl_iface_t **iface_p)
{
    if (ordo_config.ofi_lanes < 1 || ordo_config.ofi_lanes > OFI_LANES_MAX) {
        ordo_error("ORDO_OFI_LANES=%d: between 1 and %d", ordo_config.ofi_lanes,
                   OFI_LANES_MAX);
        return ORDO_ERR_INVALID_PARAM;
    }
    ofi_iface_t *o = calloc(1, sizeof(*o));
    if (o == NULL)
        return ORDO_ERR_NO_MEMORY;
    o->super.ops = &ordo_tl_ofi_ops;
    o->boot = params->boot;
    o->rank = params->rank;
    o->size = params->size;
    o->nlanes = ordo_config.ofi_lanes;
    o->next_key = 1;
    ordo_status_t st = choose_info(&o->info);
    if (st != ORDO_OK) {
        free(o);
        return st;
    }
    struct fi_info *info = o->info;
    if ((o->info_relaxed = fi_dupinfo(info)) == NULL) {
        st = ORDO_ERR_NO_MEMORY;
        goto err;
    }
    o->info_relaxed->tx_attr->msg_order = o->info_relaxed->rx_attr->msg_order = FI_ORDER_NONE;
    o->mr_mode = info->domain_attr->mr_mode;
    o->mr_local = (o->mr_mode & FI_MR_LOCAL) || ordo_config.ofi_mr_local;
    /* a NIC's provider pins its registrations itself */
    o->pin = ordo_config.ofi_mr_local == 2 && !ofi_hardware_provider(info->fabric_attr->prov_name);
    o->mr_per_lane = (o->mr_mode & FI_MR_ENDPOINT) != 0;
    o->max_msg = info->ep_attr->max_msg_size ? info->ep_attr->max_msg_size : SIZE_MAX;
    o->put_piece = ofi_put_piece_wanted(info->fabric_attr->prov_name, o->max_msg);
    o->inject_max = info->tx_attr->inject_size;
    int ret = fi_fabric(info->fabric_attr, &o->fabric, NULL);
    if (ret == 0)
        ret = fi_domain(o->fabric, info, &o->domain, NULL);
    if (ret == 0) {
        struct fi_av_attr av_attr = {.type = FI_AV_TABLE,
                                     .count = (size_t)o->size * (size_t)o->nlanes};
        ret = fi_av_open(o->domain, &av_attr, &o->av, NULL);
    }
    if (ret != 0) {
        ordo_error("ofi (%s): cannot open the domain %s: %s", info->fabric_attr->prov_name,
                   info->domain_attr->name, fi_strerror(-ret));
        st = ofi_status(ret);
        goto err;
    }
    for (int l = 0; l < o->nlanes; l++)
        if ((st = open_lane(o, l)) != ORDO_OK)
            goto err;
    /* Receives are posted before anyone learns our address. */
    if ((st = ofi_am_open(o)) != ORDO_OK || (st = ofi_rma_open(o)) != ORDO_OK ||
        (st = ofi_batch_open(o)) != ORDO_OK || (st = ofi_bundle_open(o)) != ORDO_OK)
        goto err;
    ordered_pairs(o);
    if ((st = exchange_addresses(o)) != ORDO_OK)
        goto err;
    if ((st = ordo_tl_reorder_init(&o->super, o->rank)) != ORDO_OK)
        goto err;
    if (ordo_config.ofi_progress == ORDO_OFI_PROGRESS_THREAD &&
        (st = ofi_helper_start(o)) != ORDO_OK)
        goto err;
    uint32_t v = ofi_lib.version;
    ordo_info("ofi: provider %s, domain %s, %d lane%s, mr_mode 0x%llx%s; libfabric %u.%u (%s)",
              info->fabric_attr->prov_name, info->domain_attr->name, o->nlanes,
              o->nlanes > 1 ? "s" : "", (unsigned long long)o->mr_mode,
              o->mr_local ? ", local buffers registered" : "", FI_MAJOR(v), FI_MINOR(v),
              ofi_lib.path);
    *iface_p = &o->super;
    return ORDO_OK;
err:
    ofi_close(&o->super);
    return st;
}

static void order_names(uint64_t mo, char *buf, size_t len)
{
    static const struct { uint64_t bit; const char *name; } bits[] = {
        {FI_ORDER_RMA_WAW, "RMA_WAW"}, {FI_ORDER_RMA_RAW, "RMA_RAW"},
        {FI_ORDER_RMA_WAR, "RMA_WAR"}, {FI_ORDER_RMA_RAR, "RMA_RAR"}, {FI_ORDER_SAW, "SAW"},
        {FI_ORDER_SAS, "SAS"}, {FI_ORDER_RAW, "RAW"}, {FI_ORDER_WAW, "WAW"},
        {FI_ORDER_ATOMIC_WAW, "ATOMIC_WAW"}};
    size_t off = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]) && off < len; i++)
        if (mo & bits[i].bit)
            off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? "," : "", bits[i].name);
    if (off == 0)
        snprintf(buf, len, "none");
}

/* Every reliable-datagram provider here with the ordering it offers on one
 * endpoint and what that means for the default mode, appended to buf. */
static void list_providers(char *buf, size_t len)
{
    struct fi_info *h = fi_dupinfo(NULL), *list = NULL;
    if (h == NULL)
        return;
    h->caps = FI_MSG | FI_RMA;
    h->mode = FI_CONTEXT | FI_CONTEXT2;
    h->ep_attr->type = FI_EP_RDM;
    h->domain_attr->mr_mode = FI_MR_LOCAL | FI_MR_VIRT_ADDR | FI_MR_ALLOCATED | FI_MR_PROV_KEY |
                              FI_MR_ENDPOINT | FI_MR_RAW;
    /* the library loaded, which may not be the one built against */
    uint32_t v = ofi_lib.version;
    size_t at = strlen(buf);
    snprintf(buf + at, at < len ? len - at : 0,
             "\n         libfabric %u.%u from %s (built against %u.%u)", FI_MAJOR(v), FI_MINOR(v),
             ofi_lib.path, FI_MAJOR_VERSION, FI_MINOR_VERSION);
    if (fi_getinfo(OFI_API, NULL, NULL, 0, h, &list) == 0) {
        size_t off = strlen(buf);
        off += (size_t)snprintf(buf + off, off < len ? len - off : 0,
                                "\n         providers here (ordering on one endpoint):");
        for (struct fi_info *i = list; i && off < len; i = i->next) {
            int seen = 0;
            for (struct fi_info *j = list; j != i; j = j->next)
                seen |= strcmp(j->fabric_attr->prov_name, i->fabric_attr->prov_name) == 0;
            if (seen)
                continue;
            char order[256];
            uint64_t mo = i->tx_attr->msg_order & i->rx_attr->msg_order;
            order_names(mo, order, sizeof(order));
            off += (size_t)snprintf(
                buf + off, len - off, "\n           %-13s %s -> default mode %s",
                i->fabric_attr->prov_name, order,
                (mo & (FI_ORDER_RMA_WAW | FI_ORDER_WAW)) && (mo & FI_ORDER_SAW) &&
                        (mo & FI_ORDER_SAS)
                    ? "pipelined by the provider's order"
                    : "waits for completions");
        }
    }
    fi_freeinfo(list);
    fi_freeinfo(h);
}

static ordo_status_t ofi_describe(ordo_tl_iface_t *iface, char *buf, size_t len)
{
    if (iface) {
        ofi_iface_t *o = (ofi_iface_t *)iface;
        int n = snprintf(buf, len, "ofi %s on %s, %d lane%s%s%s%s",
                         o->info->fabric_attr->prov_name, o->info->domain_attr->name,
                         o->nlanes, o->nlanes > 1 ? "s" : "",
                         o->mr_local ? ", local registration" : "",
                         o->pin ? ", pages pinned" : "",
                         o->rcache[0] ? " with a registration cache" : "");
        if (o->batch_max && n > 0 && (size_t)n < len)
            n += snprintf(buf + n, len - (size_t)n, ", puts up to %zu B batched", o->batch_max);
        if (o->bundle_max && n > 0 && (size_t)n < len)
            snprintf(buf + n, len - (size_t)n, ", messages up to %zu B bundled", o->bundle_max);
        return ORDO_OK;
    }
    ordo_status_t st = ofi_lib_load();
    if (st != ORDO_OK)
        return st;
    struct sigaction saved[NSIG];
    ofi_signals_save(saved);
    struct fi_info *info = NULL;
    st = choose_info(&info);
    ofi_signals_restore(saved);
    if (st != ORDO_OK)
        return st;
    char order[256], batch[160], inflight[160];
    order_names(info->tx_attr->msg_order & info->rx_attr->msg_order, order, sizeof(order));
    uint64_t mo = info->tx_attr->msg_order & info->rx_attr->msg_order;
    size_t bmax = ofi_batch_wanted(info->fabric_attr->prov_name);
    if (bmax)
        snprintf(batch, sizeof(batch), "up to %zu B gathered into one message per peer and "
                 "lane, copied into place by the target (ORDO_OFI_PUT_BATCH)", bmax);
    else
        snprintf(batch, sizeof(batch), "each is the provider's RMA write (ORDO_OFI_PUT_BATCH)");
    size_t most = info->ep_attr->max_msg_size ? info->ep_attr->max_msg_size : SIZE_MAX,
           piece = ofi_put_piece_wanted(info->fabric_attr->prov_name, most);
    char pieces[160];
    if (piece < most)
        snprintf(pieces, sizeof(pieces), "in writes of %zu KiB, each after the one before; "
                 "in the default mode the writes after such a put wait for it", piece >> 10);
    else
        snprintf(pieces, sizeof(pieces), "one write each, up to the provider's largest");
    size_t imax = ofi_inflight_wanted(info->fabric_attr->prov_name);
    if (imax)
        snprintf(inflight, sizeof(inflight), "at most %zu B of RMA posted to a peer on a lane, "
                 "beyond two operations (ORDO_OFI_INFLIGHT_MAX)", imax);
    else
        snprintf(inflight, sizeof(inflight), "no limit (ORDO_OFI_INFLIGHT_MAX)");
    snprintf(buf, len,
             "%s on %s (fabric %s), mr_mode 0x%llx, inject %zu B, max message %zu B\n"
             "         ordering on one endpoint: %s\n"
             "         strict: waits for each operation to complete before the next to the "
             "same rank (requests no ordering)\n"
             "         default: %s\n"
             "         relaxed: requests no ordering; over ORDO_OFI_LANES endpoints, large "
             "transfers spread where that measures faster (ORDO_OFI_LANE_SPREAD)\n"
             "         short puts: %s\n"
             "         short messages: %s\n"
             "         in flight: %s\n"
             "         long puts: %s",
             info->fabric_attr->prov_name, info->domain_attr->name, info->fabric_attr->name,
             (unsigned long long)info->domain_attr->mr_mode, info->tx_attr->inject_size,
             info->ep_attr->max_msg_size, order,
             (mo & (FI_ORDER_RMA_WAW | FI_ORDER_WAW))
                 ? "requests RMA_WAW, SAW, SAS on lane 0: puts (and atomics after puts) go "
                   "out behind each other without waiting; a long put after an atomic or a "
                   "short put waits"
                 : "the provider keeps no write order: waits for each write to complete",
             batch,
             ofi_bundle_wanted(info->fabric_attr->prov_name)
                 ? "gathered into one message per peer and lane, sent when full or when the "
                   "transport is next driven (ORDO_OFI_MSG_BUNDLE)"
                 : "each is its own message (ORDO_OFI_MSG_BUNDLE)",
             inflight, pieces);
    fi_freeinfo(info);
    ofi_signals_save(saved);
    list_providers(buf, len);
    ofi_signals_restore(saved);
    return ORDO_OK;
}
