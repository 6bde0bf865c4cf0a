/* ofi: memory exposed to peers, and the keys peers send to reach it.
 *
 * Exposed memory is registered once, or once per lane where the provider
 * keys registrations per endpoint; a transient exposure (a rendezvous
 * buffer) comes from the registration cache.  Its blob carries the owner's
 * address, what RMA addresses count from, the size and the keys.  A peer's
 * blob is checked before use: it comes from another process. */
#define _GNU_SOURCE
#include "ofi.h"

#include <stdlib.h>
#include <string.h>

#include "../../base/log.h"

/* What travels in a region's blob (keys follow). */
typedef struct ofi_blob {
    uint64_t mem_id;
    uint64_t addr;      /* the owner's address of the first byte */
    uint64_t raddr;     /* what RMA addresses are counted from */
    uint64_t size;
    uint16_t nkeys, keylen;
    uint32_t pad;
} ofi_blob_t;

#define OFI_KEYS_MAX (ORDO_TL_BLOB_MAX - sizeof(ofi_blob_t))

ordo_status_t ofi_cached_reg(ofi_iface_t *o, unsigned lane, void *addr, size_t len,
                             const char *what, ordo_rcache_entry_t **entry_p)
{
    unsigned i = o->mr_per_lane ? lane : 0;
    o->rc_arg[i].ret = 0;
    ordo_status_t st = ordo_rcache_get(o->rcache[i], addr, len, entry_p);
    if (st == ORDO_OK)
        return ORDO_OK;
    if (o->rc_arg[i].ret != 0)
        return ofi_mr_error(o, what, len, o->rc_arg[i].ret);
    ordo_error("ofi: cannot cache a registration of %zu bytes of %s: %s", len, what,
               ordo_status_string(st));
    return st;
}

void ofi_mem_free(ofi_iface_t *o, struct ordo_tl_mem *m)
{
    for (int l = 0; l < OFI_LANES_MAX; l++) {
        if (m->cached[l])
            ordo_rcache_put(o->rcache[o->mr_per_lane ? l : 0], m->cached[l]);
        else
            ofi_mr_close(o, m->mr[l]);
    }
    free(m);
}

/* Lane l's registration of exposed memory: a transient exposure's (a
 * rendezvous buffer's) from the registration cache where there is one, so a
 * buffer sent or received again is not registered again; else one of its
 * own.  *start_p: the registration's first byte. */
static ordo_status_t expose_one(ofi_iface_t *o, const ordo_tl_mem_params_t *p, unsigned l,
                                struct ordo_tl_mem *m, uintptr_t *start_p)
{
    const char *what = p->transient ? "a message buffer" : "a region";
    if (p->transient && o->rcache[o->mr_per_lane ? l : 0]) {
        ordo_status_t st = ofi_cached_reg(o, l, p->addr, p->size, what, &m->cached[l]);
        if (st != ORDO_OK)
            return st;
        m->mr[l] = ordo_rcache_handle(m->cached[l]);
        *start_p = ordo_rcache_start(m->cached[l]);
        return ORDO_OK;
    }
    int ret = ofi_mr_reg(o, p->addr, p->size, OFI_ACCESS_ALL, l, &m->mr[l]);
    if (ret != 0)
        return ofi_mr_error(o, what, p->size, ret);
    *start_p = (uintptr_t)p->addr;
    return ORDO_OK;
}

ordo_status_t ofi_mem_expose(ordo_tl_iface_t *iface, const ordo_tl_mem_params_t *p,
                             ordo_tl_mem_t **mem_p, void *blob, size_t *bloblen_p)
{
    ofi_iface_t *o = (ofi_iface_t *)iface;
    struct ordo_tl_mem *m = calloc(1, sizeof(*m));
    if (m == NULL)
        return ORDO_ERR_NO_MEMORY;
    m->id = ++o->next_mem_id;
    m->addr = p->addr;
    m->size = p->size;
    ofi_blob_t h = {.mem_id = m->id, .addr = (uint64_t)(uintptr_t)p->addr, .size = p->size};
    uint8_t *keys = (uint8_t *)blob + sizeof(h);
    if (p->size > 0) {
        int nmr = o->mr_per_lane ? o->nlanes : 1;
        for (int l = 0; l < nmr; l++) {
            uintptr_t start = 0;
            ordo_status_t st = expose_one(o, p, (unsigned)l, m, &start);
            if (st != ORDO_OK) {
                ofi_mem_free(o, m);
                return st;
            }
            /* remote addresses count from the registration's first byte
             * (or its base, for raw keys) unless they are virtual */
            uint64_t into = (uint64_t)((uintptr_t)p->addr - start);
            if (o->mr_mode & FI_MR_RAW) {
                size_t room = OFI_KEYS_MAX - (size_t)l * h.keylen, ks = room;
                uint64_t base = 0;
                int ret = fi_mr_raw_attr(m->mr[l], &base, keys + (size_t)l * h.keylen, &ks, 0);
                if (ret != 0 || (l > 0 && ks != h.keylen)) {
                    ordo_error("ofi (%s): raw memory keys do not fit in a region record "
                               "(%zu bytes for %d keys): %s", o->info->fabric_attr->prov_name,
                               OFI_KEYS_MAX, nmr, ret ? fi_strerror(-ret) : "sizes differ");
                    ofi_mem_free(o, m);
                    return ORDO_ERR_UNSUPPORTED;
                }
                h.keylen = (uint16_t)ks;
                h.raddr = base + into;
            } else {
                uint64_t key = fi_mr_key(m->mr[l]);
                if (key == FI_KEY_NOTAVAIL) {
                    ordo_error("ofi (%s): the provider gave no key for a region",
                               o->info->fabric_attr->prov_name);
                    ofi_mem_free(o, m);
                    return ORDO_ERR_UNSUPPORTED;
                }
                h.keylen = 8;
                memcpy(keys + (size_t)l * 8, &key, 8);
                h.raddr = (o->mr_mode & FI_MR_VIRT_ADDR) ? h.addr : into;
            }
        }
        h.nkeys = (uint16_t)nmr;
    }
    memcpy(blob, &h, sizeof(h));
    *bloblen_p = sizeof(h) + (size_t)h.nkeys * h.keylen;
    m->next = o->mems;
    o->mems = m;
    *mem_p = m;
    return ORDO_OK;
}

void ofi_mem_release(ordo_tl_iface_t *iface, ordo_tl_mem_t *mem)
{
    ofi_iface_t *o = (ofi_iface_t *)iface;
    for (struct ordo_tl_mem **pp = &o->mems; *pp; pp = &(*pp)->next) {
        if (*pp == mem) {
            *pp = mem->next;
            break;
        }
    }
    ofi_mem_free(o, mem);
}

ordo_status_t ofi_rkey_open(ordo_tl_iface_t *iface, int rank, const void *blob, size_t bloblen,
                            ordo_tl_rkey_t **rkey_p)
{
    ofi_iface_t *o = (ofi_iface_t *)iface;
    ofi_blob_t h;
    if (bloblen < sizeof(h))
        goto bad;
    memcpy(&h, blob, sizeof(h));
    unsigned want = h.size ? (o->mr_per_lane ? (unsigned)o->nlanes : 1u) : 0u;
    if (h.nkeys != want || bloblen != sizeof(h) + (size_t)h.nkeys * h.keylen ||
        (h.nkeys && ((o->mr_mode & FI_MR_RAW) ? h.keylen == 0 : h.keylen != 8)))
        goto bad;
    ofi_rkey_t *k = calloc(1, sizeof(*k));
    if (k == NULL)
        return ORDO_ERR_NO_MEMORY;
    k->super.rank = rank;
    k->super.size = h.size;
    k->super.base = h.addr;
    k->mem_id = h.mem_id;
    k->raddr = h.raddr;
    const uint8_t *keys = (const uint8_t *)blob + sizeof(h);
    for (unsigned l = 0; l < h.nkeys; l++) {
        if (o->mr_mode & FI_MR_RAW) {
            int ret = fi_mr_map_raw(o->domain, h.raddr, (uint8_t *)keys + (size_t)l * h.keylen,
                                    h.keylen, &k->key[l], 0);
            if (ret != 0) {
                ordo_error("ofi: cannot map rank %d's memory key: %s", rank, fi_strerror(-ret));
                for (unsigned j = 0; j < l; j++)
                    fi_mr_unmap_key(o->domain, k->key[j]);
                free(k);
                return ofi_status(ret);
            }
            k->mapped_raw = (int)l + 1;
        } else {
            memcpy(&k->key[l], keys + (size_t)l * 8, 8);
        }
    }
    if (h.nkeys == 1)
        for (int l = 1; l < OFI_LANES_MAX; l++)
            k->key[l] = k->key[0];
    *rkey_p = &k->super;
    return ORDO_OK;
bad:
    ordo_error("ofi: rank %d's memory record is malformed (%zu bytes)", rank, bloblen);
    return ORDO_ERR_BOOTSTRAP;
}

void ofi_rkey_close(ordo_tl_iface_t *iface, ordo_tl_rkey_t *rkey)
{
    ofi_iface_t *o = (ofi_iface_t *)iface;
    ofi_rkey_t *k = (ofi_rkey_t *)rkey;
    for (int l = 0; l < k->mapped_raw; l++)
        fi_mr_unmap_key(o->domain, k->key[l]);
    free(k);
}

ordo_status_t ofi_rkey_ptr(ordo_tl_iface_t *iface, ordo_tl_rkey_t *rkey, void **ptr_p)
{
    (void)iface, (void)rkey, (void)ptr_p;
    return ORDO_ERR_UNSUPPORTED;   /* a peer's memory is never mapped here */
}

