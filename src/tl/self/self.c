/* self: loopback to this process's own memory.  Every operation completes
 * on return. */
#include <stdlib.h>
#include <string.h>

#include "../tl.h"

typedef struct self_iface {
    ordo_tl_iface_t super;
    int             rank;
} self_iface_t;

typedef struct self_blob {
    uint64_t addr;
    uint64_t size;
} self_blob_t;

struct ordo_tl_mem {
    int unused;
};

static ordo_status_t self_open(const ordo_tl_params_t *params, ordo_tl_iface_t **iface_p);

static void self_close(ordo_tl_iface_t *iface) { free(iface); }

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
                              const void *src, size_t len, ordo_tl_comp_t *comp)
{
    (void)iface, (void)comp;
    memmove((char *)rkey->ptr + offset, src, len);
    return ORDO_OK;
}

static ordo_status_t self_get(ordo_tl_iface_t *iface, ordo_tl_rkey_t *rkey, size_t offset,
                              void *dst, size_t len, ordo_tl_comp_t *comp)
{
    (void)iface, (void)comp;
    memmove(dst, (char *)rkey->ptr + offset, len);
    return ORDO_OK;
}

static ordo_status_t self_atomic(ordo_tl_iface_t *iface, ordo_tl_rkey_t *rkey, size_t offset,
                                 ordo_atomic_op_t op, unsigned width, uint64_t value,
                                 uint64_t compare, uint64_t *result, ordo_tl_comp_t *comp)
{
    (void)iface, (void)comp;
    *result = ordo_tl_atomic_apply((char *)rkey->ptr + offset, op, width, value, compare);
    return ORDO_OK;
}

static unsigned self_progress(ordo_tl_iface_t *iface)
{
    (void)iface;
    return 0;
}

const ordo_tl_ops_t ordo_tl_self_ops = {
    .size = sizeof(ordo_tl_ops_t),
    .name = "self",
    .description = "loopback to the calling process",
    .caps = ORDO_TL_CAP_PUT | ORDO_TL_CAP_GET | ORDO_TL_CAP_ATOMIC32 | ORDO_TL_CAP_ATOMIC64 |
            ORDO_TL_CAP_PTR | ORDO_TL_CAP_USER_MEM,
    .open = self_open,
    .close = self_close,
    .reaches = self_reaches,
    .mem_expose = self_mem_expose,
    .mem_release = self_mem_release,
    .rkey_open = self_rkey_open,
    .rkey_close = self_rkey_close,
    .rkey_ptr = self_rkey_ptr,
    .put = self_put,
    .get = self_get,
    .atomic = self_atomic,
    .progress = self_progress,
};

static ordo_status_t self_open(const ordo_tl_params_t *params, ordo_tl_iface_t **iface_p)
{
    self_iface_t *s = calloc(1, sizeof(*s));
    if (s == NULL)
        return ORDO_ERR_NO_MEMORY;
    s->super.ops = &ordo_tl_self_ops;
    s->rank = params->rank;
    *iface_p = &s->super;
    return ORDO_OK;
}
