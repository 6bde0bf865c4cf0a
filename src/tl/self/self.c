/* self: loopback to this process's own memory.  Every operation completes
 * on return. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "../tl.h"
#include "../am_ring.h"

typedef struct self_iface {
    ordo_tl_iface_t super;
    int             rank;
    void           *lane;      /* one message lane, to ourselves */
    size_t          lane_bytes;
    ordo_am_tx_t    tx;
    ordo_am_rx_t    rx;
} self_iface_t;

typedef struct self_blob {
    uint64_t addr;
    uint64_t size;
} self_blob_t;

struct ordo_tl_mem {
    int unused;
};

static ordo_status_t self_open(const ordo_tl_params_t *params, ordo_tl_iface_t **iface_p);

static void self_close(ordo_tl_iface_t *iface)
{
    self_iface_t *s = (self_iface_t *)iface;
    ordo_tl_reorder_fini(iface);
    munmap(s->lane, s->lane_bytes);
    free(s);
}

static int self_reaches(ordo_tl_iface_t *iface, int rank)
{
    return ((self_iface_t *)iface)->rank == rank;
}

static ordo_status_t self_mem_expose(ordo_tl_iface_t *iface, const ordo_tl_mem_params_t *p,
                                     ordo_tl_mem_t **mem_p, void *blob, size_t *bloblen_p)
{
    (void)iface;
    static ordo_tl_mem_t nothing;   /* self keeps no per-region state */
    self_blob_t b = {.addr = (uint64_t)(uintptr_t)p->addr, .size = p->size};
    memcpy(blob, &b, sizeof(b));
    *bloblen_p = sizeof(b);
    *mem_p = &nothing;
    return ORDO_OK;
}

static void self_mem_release(ordo_tl_iface_t *iface, ordo_tl_mem_t *mem)
{
    (void)iface, (void)mem;
}

static void self_mem_published(ordo_tl_iface_t *iface, ordo_tl_mem_t *mem)
{
    (void)iface, (void)mem;   /* nothing kept for the peers */
}

static ordo_status_t self_rkey_open(ordo_tl_iface_t *iface, int rank, const void *blob,
                                    size_t bloblen, ordo_tl_rkey_t **rkey_p)
{
    if (!self_reaches(iface, rank) || bloblen != sizeof(self_blob_t))
        return ORDO_ERR_UNREACHABLE;
    self_blob_t b;
    memcpy(&b, blob, sizeof(b));
    ordo_tl_rkey_t *k = calloc(1, sizeof(*k));
    if (k == NULL)
        return ORDO_ERR_NO_MEMORY;
    k->ptr = (void *)(uintptr_t)b.addr;
    k->size = b.size;
    k->base = b.addr;
    k->rank = rank;
    *rkey_p = k;
    return ORDO_OK;
}

static void self_rkey_close(ordo_tl_iface_t *iface, ordo_tl_rkey_t *rkey)
{
    (void)iface;
    free(rkey);
}

static ordo_status_t self_rkey_ptr(ordo_tl_iface_t *iface, ordo_tl_rkey_t *rkey, void **ptr_p)
{
    (void)iface;
    *ptr_p = rkey->ptr;
    return ORDO_OK;
}

static ordo_status_t self_put(ordo_tl_iface_t *iface, ordo_tl_rkey_t *rkey, size_t offset,
                              const void *src, size_t len, unsigned flags, ordo_tl_comp_t *comp)
{
    (void)iface, (void)flags, (void)comp;
    memmove((char *)rkey->ptr + offset, src, len);
    return ORDO_OK;
}

static ordo_status_t self_get(ordo_tl_iface_t *iface, ordo_tl_rkey_t *rkey, size_t offset,
                              void *dst, size_t len, unsigned flags, ordo_tl_comp_t *comp)
{
    (void)iface, (void)flags, (void)comp;
    memmove(dst, (char *)rkey->ptr + offset, len);
    return ORDO_OK;
}

static ordo_status_t self_atomic(ordo_tl_iface_t *iface, ordo_tl_rkey_t *rkey, size_t offset,
                                 ordo_atomic_op_t op, unsigned width, uint64_t value,
                                 uint64_t compare, uint64_t *result, unsigned flags,
                                 ordo_tl_comp_t *comp)
{
    (void)iface, (void)flags, (void)comp;
    uint64_t old = ordo_tl_atomic_apply((char *)rkey->ptr + offset, op, width, value, compare);
    if (result)
        *result = old;
    return ORDO_OK;
}

static ordo_status_t self_deliver(void *arg, void *data, size_t len, _Atomic uint32_t *bounce)
{
    self_iface_t *s = arg;
    return ordo_tl_am_deliver(&s->super, s->rank, data, len, (void *)bounce);
}

static unsigned self_progress(ordo_tl_iface_t *iface)
{
    self_iface_t *s = (self_iface_t *)iface;
    if (!ordo_am_lane_busy(&s->tx, &s->rx))
        return ordo_tl_am_flush(iface);
    unsigned n = ordo_am_poll(&s->rx, 64, self_deliver, s);
    return n ? n : ordo_tl_am_flush(iface);
}

static ordo_status_t self_am_short(ordo_tl_iface_t *iface, int rank, const void *hdr,
                                   size_t hdrlen, const void *payload, size_t len)
{
    self_iface_t *s = (self_iface_t *)iface;
    if (rank != s->rank)
        return ORDO_ERR_UNREACHABLE;
    return ordo_am_send_short(&s->tx, hdr, hdrlen, payload, len);
}

static ordo_status_t self_am_bcopy(ordo_tl_iface_t *iface, int rank, const void *hdr,
                                   size_t hdrlen, const void *payload, size_t len)
{
    self_iface_t *s = (self_iface_t *)iface;
    if (rank != s->rank)
        return ORDO_ERR_UNREACHABLE;
    return ordo_am_send_bcopy(&s->tx, hdr, hdrlen, payload, len);
}

static void self_am_release(ordo_tl_iface_t *iface, void *desc)
{
    (void)iface;
    ordo_am_release(desc);
}

static void *self_am_peek(ordo_tl_iface_t *iface, int rank, size_t *len_p, void **desc_p)
{
    (void)rank;
    _Atomic uint32_t *bounce;
    void *data = ordo_am_peek(&((self_iface_t *)iface)->rx, len_p, &bounce);
    *desc_p = (void *)bounce;
    return data;
}

static void self_am_consume(ordo_tl_iface_t *iface, int rank)
{
    (void)rank;
    ordo_am_consume(&((self_iface_t *)iface)->rx);
}

const ordo_tl_ops_t ordo_tl_self_ops = {
    .size = sizeof(ordo_tl_ops_t),
    .name = "self",
    .description = "loopback to the calling process",
    .caps = ORDO_TL_CAP_PUT | ORDO_TL_CAP_GET | ORDO_TL_CAP_ATOMIC32 | ORDO_TL_CAP_ATOMIC64 |
            ORDO_TL_CAP_PTR | ORDO_TL_CAP_USER_MEM | ORDO_TL_CAP_AM,
    .open = self_open,
    .close = self_close,
    .reaches = self_reaches,
    .mem_expose = self_mem_expose,
    .mem_release = self_mem_release,
    .mem_published = self_mem_published,
    .rkey_open = self_rkey_open,
    .rkey_close = self_rkey_close,
    .rkey_ptr = self_rkey_ptr,
    .put = self_put,
    .get = self_get,
    .atomic = self_atomic,
    .progress = self_progress,
    .am_short = self_am_short,
    .am_bcopy = self_am_bcopy,
    .am_release = self_am_release,
    .am_peek = self_am_peek,
    .am_consume = self_am_consume,
};

static ordo_status_t self_open(const ordo_tl_params_t *params, ordo_tl_iface_t **iface_p)
{
    self_iface_t *s = calloc(1, sizeof(*s));
    if (s == NULL)
        return ORDO_ERR_NO_MEMORY;
    s->super.ops = &ordo_tl_self_ops;
    s->rank = params->rank;
    ordo_tl_am_limits_t lim;
    ordo_tl_am_limits(params->size, &lim);
    ordo_am_geometry_t geo;
    /* one core writes and reads: a reused buffer is already in its cache */
    ordo_am_geometry_init(&geo, lim.short_max, lim.eager_max, lim.nbounce, 0);
    /* Anonymous pages read as zeros (the lane's initial state) and take
     * memory only when a message first uses them: the bounce buffers are
     * ORDO_EAGER_BUFFERS x ORDO_EAGER_MAX, gigabytes at the largest sizes. */
    s->lane_bytes = ordo_am_section_size(&geo);
    s->lane = mmap(NULL, s->lane_bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (s->lane == MAP_FAILED) {
        free(s);
        return ORDO_ERR_NO_MEMORY;
    }
    ordo_am_tx_init(&s->tx, s->lane, &geo);
    ordo_am_rx_init(&s->rx, s->lane, &geo);
    s->super.am_short_max = ordo_am_short_capacity(&geo);
    s->super.am_bcopy_max = geo.bounce_size;
    /* A rendezvous to oneself saves an in-cache copy and costs a handshake:
     * the bounce buffer serves every size it holds. */
    s->super.eager_cross = SIZE_MAX;
    ordo_status_t st = ordo_tl_reorder_init(&s->super, s->rank);
    if (st != ORDO_OK) {
        munmap(s->lane, s->lane_bytes);
        free(s);
        return st;
    }
    *iface_p = &s->super;
    return ORDO_OK;
}
