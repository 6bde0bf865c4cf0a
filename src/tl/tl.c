#include "tl.h"

#include <stdatomic.h>
#include <string.h>

extern const ordo_tl_ops_t ordo_tl_self_ops;
extern const ordo_tl_ops_t ordo_tl_shm_ops;

static const ordo_tl_ops_t *const registry[] = {&ordo_tl_self_ops, &ordo_tl_shm_ops};

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
                                      const void *s, size_t l, ordo_tl_comp_t *c)
{
    (void)i, (void)k, (void)o, (void)s, (void)l, (void)c;
    return ORDO_ERR_UNSUPPORTED;
}

ordo_status_t ordo_tl_get_unsupported(ordo_tl_iface_t *i, ordo_tl_rkey_t *k, size_t o,
                                      void *d, size_t l, ordo_tl_comp_t *c)
{
    (void)i, (void)k, (void)o, (void)d, (void)l, (void)c;
    return ORDO_ERR_UNSUPPORTED;
}

ordo_status_t ordo_tl_atomic_unsupported(ordo_tl_iface_t *i, ordo_tl_rkey_t *k, size_t o,
                                         ordo_atomic_op_t op, unsigned w, uint64_t v,
                                         uint64_t c, uint64_t *r, ordo_tl_comp_t *cp)
{
    (void)i, (void)k, (void)o, (void)op, (void)w, (void)v, (void)c, (void)r, (void)cp;
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
