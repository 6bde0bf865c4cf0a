#define _GNU_SOURCE
#include "tl.h"
#include "am_ring.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../base/compiler.h"
#include "../base/config.h"
#include "../base/timer.h"

extern const ordo_tl_ops_t ordo_tl_self_ops;
extern const ordo_tl_ops_t ordo_tl_shm_ops;
extern const ordo_tl_ops_t ordo_tl_ofi_ops;

static const ordo_tl_ops_t *const registry[] = {&ordo_tl_self_ops, &ordo_tl_shm_ops,
                                                &ordo_tl_ofi_ops};

size_t ordo_tl_count(void) { return sizeof(registry) / sizeof(registry[0]); }
const ordo_tl_ops_t *ordo_tl_at(size_t i) { return registry[i]; }

const ordo_tl_ops_t *ordo_tl_find(const char *name)
{
    for (size_t i = 0; i < ordo_tl_count(); i++)
        if (strcmp(registry[i]->name, name) == 0)
            return registry[i];
    return NULL;
}

ordo_status_t ordo_tl_put_unsupported(ordo_tl_iface_t *i, ordo_tl_rkey_t *k, size_t o,
                                      const void *s, size_t l, unsigned f, ordo_tl_comp_t *c)
{
    (void)i, (void)k, (void)o, (void)s, (void)l, (void)f, (void)c;
    return ORDO_ERR_UNSUPPORTED;
}

ordo_status_t ordo_tl_get_unsupported(ordo_tl_iface_t *i, ordo_tl_rkey_t *k, size_t o,
                                      void *d, size_t l, unsigned f, ordo_tl_comp_t *c)
{
    (void)i, (void)k, (void)o, (void)d, (void)l, (void)f, (void)c;
    return ORDO_ERR_UNSUPPORTED;
}

ordo_status_t ordo_tl_atomic_unsupported(ordo_tl_iface_t *i, ordo_tl_rkey_t *k, size_t o,
                                         ordo_atomic_op_t op, unsigned w, uint64_t v,
                                         uint64_t c, uint64_t *r, unsigned f,
                                         ordo_tl_comp_t *cp)
{
    (void)i, (void)k, (void)o, (void)op, (void)w, (void)v, (void)c, (void)r, (void)f,
        (void)cp;
    return ORDO_ERR_UNSUPPORTED;
}

/* Sequentially consistent read-modify-write: an atomic is also an ordering
 * point for the memory around it, which the compare-swap locks rely on. */
#define APPLY(T, addr, op, value, compare)                                     \
    do {                                                                       \
        _Atomic T *a = (_Atomic T *)(addr);                                    \
        T v = (T)(value), c = (T)(compare);                                    \
        switch (op) {                                                          \
        case ORDO_ATOMIC_ADD:  return atomic_fetch_add(a, v);                  \
        case ORDO_ATOMIC_AND:  return atomic_fetch_and(a, v);                  \
        case ORDO_ATOMIC_OR:   return atomic_fetch_or(a, v);                   \
        case ORDO_ATOMIC_XOR:  return atomic_fetch_xor(a, v);                  \
        case ORDO_ATOMIC_SWAP: return atomic_exchange(a, v);                   \
        case ORDO_ATOMIC_CSWAP:                                                \
            atomic_compare_exchange_strong(a, &c, v);                          \
            return c;                                                          \
        }                                                                      \
        return 0;                                                              \
    } while (0)

uint64_t ordo_tl_atomic_apply(void *addr, ordo_atomic_op_t op, unsigned width,
                              uint64_t value, uint64_t compare)
{
    if (width == 4)
        APPLY(uint32_t, addr, op, value, compare);
    APPLY(uint64_t, addr, op, value, compare);
}

/* ------------------------------------------------------ protocol limits */

void ordo_tl_am_limits(int nranks, ordo_tl_am_limits_t *l)
{
    /* Per pair memory grows with ranks squared on a node, so the defaults
     * step down as the job grows, as the uGNI SMSG limits do.  Bounce
     * buffers are taken as a lane needs them (am_ring.c), so a pair touches
     * as many as it had in flight: 64 below 16 ranks lets a window of 64
     * eager sends (osu_bw's) go out without waiting. */
    static const struct { int below; size_t shrt, eager; unsigned nbounce, credits; } steps[] = {
        {16, 8192, 32768, 64, 256},
        {64, 1024, 16384, 16, 128},
        {256, 512, 8192, 4, 64},
        {1 << 30, 256, 4096, 2, 32},
    };
    size_t i = 0;
    while (nranks >= steps[i].below)
        i++;
    l->short_max = ordo_config.short_max ? ordo_config.short_max : steps[i].shrt;
    l->eager_max = ordo_config.eager_max ? ordo_config.eager_max : steps[i].eager;
    l->nbounce = ordo_config.eager_buffers ? (unsigned)ordo_config.eager_buffers
                                           : steps[i].nbounce;
    l->credits = ordo_config.p2p_credits ? (unsigned)ordo_config.p2p_credits
                                         : steps[i].credits;
}

void ordo_tl_am_lane_layout(const ordo_tl_am_limits_t *lim, size_t rotate_bytes, size_t hot_max,
                            unsigned *nbounce_p, size_t *lap_p)
{
    /* The smallest message the lane puts in a bounce buffer: an eager
     * one, or with a hot buffer (am_ring.h), one sent alone that is too
     * long for it. */
    size_t smallest = (hot_max && hot_max < lim->short_max ? hot_max : lim->short_max) + 1;
    /* A lap writes at most the bytes the job-size step gives a pair's
     * buffers (nbounce x the eager limit): more would touch more memory
     * per pair than the step allows. */
    ordo_am_geometry_t g;
    ordo_am_geometry_init(&g, lim->short_max, lim->eager_max, lim->nbounce, 0);
    size_t area = (size_t)lim->nbounce * g.bounce_size;
    size_t lap = rotate_bytes < area ? rotate_bytes : area;
    unsigned n = lim->nbounce;
    if (ordo_config.eager_buffers == 0 && smallest <= lim->eager_max) {
        /* enough buffers for a lap of the smallest messages, which take a
         * buffer each for a fraction of its bytes */
        size_t want = (lap + smallest - 1) / smallest;
        size_t most = (size_t)lim->nbounce * ORDO_TL_BOUNCE_MORE;
        if (want > most)
            want = most;
        if (want > n)
            n = (unsigned)want;
    }
    *nbounce_p = n;
    *lap_p = lap;
}

/* ------------------------------------------------ reordering test mode */

/* With ORDO_TL_REORDER=W arrived messages are held back until W have
 * gathered (or a progress pass brings nothing new) and are then handed up in
 * a shuffled order, so the layers above are tested against a transport that
 * does not keep order. */
typedef struct reorder_entry {
    int    src;
    size_t len;
    void  *data;
    void  *desc;
} reorder_entry_t;

struct ordo_tl_reorder {
    unsigned         window, count;
    uint64_t         rng;
    reorder_entry_t *entries;
    char            *copies;    /* window slots of am_short_max bytes */
};

static uint64_t next_random(uint64_t *s)
{
    /* xorshift64*: reproducible from the seed, good enough to shuffle */
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ull;
}

ordo_status_t ordo_tl_reorder_init(ordo_tl_iface_t *iface, int rank)
{
    unsigned w = (unsigned)ordo_config.tl_reorder;
    if (w < 2)
        return ORDO_OK;
    ordo_tl_reorder_t *r = calloc(1, sizeof(*r));
    if (r == NULL)
        return ORDO_ERR_NO_MEMORY;
    r->window = w;
    r->rng = ((uint64_t)ordo_config.tl_reorder_seed << 20) ^ (uint64_t)(rank + 1) ^
             0x9e3779b97f4a7c15ull;
    r->entries = calloc(w, sizeof(*r->entries));
    r->copies = malloc((size_t)w * ORDO_MAX(iface->am_short_max, 1));
    if (r->entries == NULL || r->copies == NULL) {
        free(r->entries);
        free(r->copies);
        free(r);
        return ORDO_ERR_NO_MEMORY;
    }
    iface->reorder = r;
    return ORDO_OK;
}

void ordo_tl_reorder_fini(ordo_tl_iface_t *iface)
{
    ordo_tl_reorder_t *r = iface->reorder;
    if (r == NULL)
        return;
    free(r->entries);
    free(r->copies);
    free(r);
    iface->reorder = NULL;
}

unsigned ordo_tl_am_flush_held(ordo_tl_iface_t *iface)
{
    ordo_tl_reorder_t *r = iface->reorder;
    if (r == NULL || r->count == 0)
        return 0;
    unsigned n = r->count;
    for (unsigned i = n - 1; i > 0; i--) {
        unsigned j = (unsigned)(next_random(&r->rng) % (i + 1));
        reorder_entry_t t = r->entries[i];
        r->entries[i] = r->entries[j];
        r->entries[j] = t;
        if (i != j)
            iface->am_reordered++;
    }
    /* The handler may send, and a send may progress: take the batch first. */
    reorder_entry_t batch[n];
    char *copies = r->copies;
    memcpy(batch, r->entries, n * sizeof(batch[0]));
    r->copies = NULL;   /* copies stay ours while the batch is handed up */
    r->count = 0;
    for (unsigned i = 0; i < n; i++) {
        ordo_status_t st = iface->am_handler(iface->am_arg, batch[i].src, batch[i].data,
                                             batch[i].len, batch[i].desc);
        if (batch[i].desc && st != ORDO_INPROGRESS)
            iface->ops->am_release(iface, batch[i].desc);
    }
    r->copies = copies;
    return n;
}

ordo_status_t ordo_tl_am_deliver(ordo_tl_iface_t *iface, int src, void *data, size_t len,
                                 void *desc)
{
    ordo_tl_reorder_t *r = iface->reorder;
    if (ORDO_LIKELY(r == NULL))
        return iface->am_handler(iface->am_arg, src, data, len, desc);
    if (r->copies == NULL)   /* called from inside a flush: pass straight up */
        return iface->am_handler(iface->am_arg, src, data, len, desc);
    if (r->count == r->window)
        ordo_tl_am_flush_held(iface);
    reorder_entry_t *e = &r->entries[r->count];
    e->src = src;
    e->len = len;
    e->desc = desc;
    if (desc == NULL) {
        e->data = r->copies + (size_t)r->count * iface->am_short_max;
        memcpy(e->data, data, len);
    } else {
        e->data = data;
    }
    r->count++;
    return desc ? ORDO_INPROGRESS : ORDO_OK;
}

/* ------------------------------------------- streamed bounce buffers */

uint64_t ordo_tl_am_wait_ns = 10ull * 1000 * 1000 * 1000;

ordo_status_t ordo_tl_am_copy(ordo_tl_iface_t *iface, void *desc, void *dst, const void *src,
                              size_t at, size_t len)
{
    if (desc == NULL || iface->ops->am_arrived == NULL) {
        if (len)
            memcpy(dst, src, len);
        return ORDO_OK;
    }
    size_t done = 0;
    unsigned idle = 0;
    uint64_t since = 0;
    while (done < len) {
        size_t in = iface->ops->am_arrived(iface, desc);
        size_t have = in > at ? in - at : 0;
        if (have > len)
            have = len;
        if (have > done) {
            memcpy((char *)dst + done, (const char *)src + done, have - done);
            done = have;
            idle = 0;
            since = 0;
            continue;
        }
        /* the writer is copying on another core: spin a little, then let
         * it have this one if it shares it */
        if (++idle < 1024) {
            ordo_cpu_relax();
            continue;
        }
        uint64_t now = ordo_time_ns();
        if (since == 0)
            since = now;
        else if (now - since > ordo_tl_am_wait_ns)
            return ORDO_ERR_TIMED_OUT;
        sched_yield();
    }
    return ORDO_OK;
}
