/* Waiting on words of this rank's own region memory that peers write
 * (ordo_wait_until, ordo_test and the set forms): the flag a put or an
 * atomic raises, as OpenSHMEM's wait_until and test.  A wait drives
 * progress between looks (so a provider that moves data only when driven
 * delivers it), yields its core when ranks outnumber cores, and lets other
 * threads in (ordo_progress_wait). */
#include <string.h>

#include "../core/core.h"
#include "../base/log.h"

typedef struct {
    const char *base;
    unsigned    width;
    int         is_signed;
    ordo_cmp_t  cmp;
    uint64_t    value;
} cond_t;

static ordo_status_t cond_make(const char *call, ordo_region_h region,
                               ordo_atomic_type_t type, ordo_cmp_t cmp, const void *value,
                               cond_t *c)
{
    if (region == NULL || region->magic != ORDO_MAGIC_REGION)
        return ORDO_ERR_INVALID_HANDLE;
    if ((unsigned)type > ORDO_INT64 || (unsigned)cmp > ORDO_CMP_LE || value == NULL) {
        ordo_error("%s: an unknown type or comparison, or no value", call);
        return ORDO_ERR_INVALID_PARAM;
    }
    c->base = region->addr;
    c->width = (type == ORDO_UINT32 || type == ORDO_INT32) ? 4 : 8;
    c->is_signed = type == ORDO_INT32 || type == ORDO_INT64;
    c->cmp = cmp;
    if (c->width == 4) {
        uint32_t v;
        memcpy(&v, value, 4);
        c->value = v;
    } else {
        memcpy(&c->value, value, 8);
    }
    return ORDO_OK;
}

static ordo_status_t check_word(const char *call, ordo_region_h region, const cond_t *c,
                                size_t offset)
{
    if (offset > region->size || region->size - offset < c->width) {
        ordo_error("%s: offset %zu is outside the region (%zu bytes)", call, offset,
                   region->size);
        return ORDO_ERR_OUT_OF_BOUNDS;
    }
    if (((uintptr_t)c->base + offset) % c->width) {
        ordo_error("%s: offset %zu is not aligned to %u bytes", call, offset, c->width);
        return ORDO_ERR_MISALIGNED;
    }
    return ORDO_OK;
}

static int holds(const cond_t *c, size_t offset)
{
    const char *p = c->base + offset;
    int64_t a, b;
    uint64_t ua, ub;
    if (c->width == 4) {
        uint32_t w = __atomic_load_n((const uint32_t *)(const void *)p, __ATOMIC_ACQUIRE);
        ua = w;
        ub = (uint32_t)c->value;
        a = (int32_t)w;
        b = (int32_t)(uint32_t)c->value;
    } else {
        uint64_t w = __atomic_load_n((const uint64_t *)(const void *)p, __ATOMIC_ACQUIRE);
        ua = w;
        ub = c->value;
        a = (int64_t)w;
        b = (int64_t)c->value;
    }
    int lt = c->is_signed ? a < b : ua < ub, eq = ua == ub;
    switch (c->cmp) {
    case ORDO_CMP_EQ: return eq;
    case ORDO_CMP_NE: return !eq;
    case ORDO_CMP_GT: return !lt && !eq;
    case ORDO_CMP_GE: return !lt;
    case ORDO_CMP_LT: return lt;
    case ORDO_CMP_LE: return lt || eq;
    }
    return 0;
}

/* The words of a set: all checked before any wait. */
static ordo_status_t check_set(const char *call, ordo_region_h region, const cond_t *c,
                               const size_t *offsets, size_t n)
{
    if (n > 0 && offsets == NULL)
        return ORDO_ERR_INVALID_PARAM;
    for (size_t i = 0; i < n; i++) {
        ordo_status_t st = check_word(call, region, c, offsets[i]);
        if (st != ORDO_OK)
            return st;
    }
    return ORDO_OK;
}

ORDO_API ordo_status_t ordo_test(ordo_region_h region, size_t offset, ordo_atomic_type_t type,
                                 ordo_cmp_t cmp, const void *value, int *flag_p)
{
    ORDO_CHECK_INIT();
    cond_t c;
    ordo_status_t st = cond_make(__func__, region, type, cmp, value, &c);
    if (st != ORDO_OK || (st = check_word(__func__, region, &c, offset)) != ORDO_OK)
        return st;
    if (flag_p == NULL)
        return ORDO_ERR_INVALID_PARAM;
    if (!holds(&c, offset)) {
        ordo_progress_once();   /* a test in a loop must see data arrive */
        *flag_p = holds(&c, offset);
    } else {
        *flag_p = 1;
    }
    return ORDO_OK;
}

ORDO_API ordo_status_t ordo_wait_until(ordo_region_h region, size_t offset,
                                       ordo_atomic_type_t type, ordo_cmp_t cmp,
                                       const void *value)
{
    return ordo_wait_until_all(region, &offset, 1, type, cmp, value);
}

ORDO_API ordo_status_t ordo_wait_until_all(ordo_region_h region, const size_t *offsets,
                                           size_t n, ordo_atomic_type_t type, ordo_cmp_t cmp,
                                           const void *value)
{
    ORDO_CHECK_INIT();
    cond_t c;
    ordo_status_t st = cond_make(__func__, region, type, cmp, value, &c);
    if (st != ORDO_OK || (st = check_set(__func__, region, &c, offsets, n)) != ORDO_OK)
        return st;
    unsigned idle = 0;
    for (size_t i = 0; i < n; i++)   /* in turn: a word that held is not looked at again */
        while (!holds(&c, offsets[i]))
            ordo_progress_wait(&idle);
    return ORDO_OK;
}

ORDO_API ordo_status_t ordo_wait_until_any(ordo_region_h region, const size_t *offsets,
                                           size_t n, ordo_atomic_type_t type, ordo_cmp_t cmp,
                                           const void *value, size_t *index_p)
{
    ORDO_CHECK_INIT();
    cond_t c;
    ordo_status_t st = cond_make(__func__, region, type, cmp, value, &c);
    if (st != ORDO_OK || (st = check_set(__func__, region, &c, offsets, n)) != ORDO_OK)
        return st;
    if (index_p == NULL)
        return ORDO_ERR_INVALID_PARAM;
    if (n == 0) {
        *index_p = ORDO_INDEX_NONE;
        return ORDO_OK;
    }
    unsigned idle = 0;
    for (;;) {
        for (size_t i = 0; i < n; i++)
            if (holds(&c, offsets[i])) {
                *index_p = i;
                return ORDO_OK;
            }
        ordo_progress_wait(&idle);
    }
}

ORDO_API ordo_status_t ordo_wait_until_some(ordo_region_h region, const size_t *offsets,
                                            size_t n, ordo_atomic_type_t type, ordo_cmp_t cmp,
                                            const void *value, size_t *indices,
                                            size_t *count_p)
{
    ORDO_CHECK_INIT();
    cond_t c;
    ordo_status_t st = cond_make(__func__, region, type, cmp, value, &c);
    if (st != ORDO_OK || (st = check_set(__func__, region, &c, offsets, n)) != ORDO_OK)
        return st;
    if (count_p == NULL || (n > 0 && indices == NULL))
        return ORDO_ERR_INVALID_PARAM;
    if (n == 0) {
        *count_p = 0;
        return ORDO_OK;
    }
    unsigned idle = 0;
    for (;;) {
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (holds(&c, offsets[i]))
                indices[k++] = i;
        if (k > 0) {
            *count_p = k;
            return ORDO_OK;
        }
        ordo_progress_wait(&idle);
    }
}
