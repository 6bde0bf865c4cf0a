/* OpenSHMEM memory ordering and synchronisation on ordo: fence and quiet on
 * a context's stream, the barriers, and the point-to-point waits and tests
 * on local words (ordo_wait_until for one word of the symmetric heap; a
 * loop that drives progress for sets, and for words outside the heap). */
#include <sched.h>
#include <string.h>

#include "shmem_internal.h"

void shmem_ctx_fence(shmem_ctx_t ctx)
{
    ordo_stream_h s;
    if (shmem_ready("shmem_fence") && (s = shmem_ctx_stream("shmem_fence", ctx)) != NULL)
        ordo_fence(s);
}

void shmem_fence(void) { shmem_ctx_fence(SHMEM_CTX_DEFAULT); }

void shmem_ctx_quiet(shmem_ctx_t ctx)
{
    ordo_stream_h s;
    if (!shmem_ready("shmem_quiet") || (s = shmem_ctx_stream("shmem_quiet", ctx)) == NULL)
        return;
    ordo_status_t st = ordo_quiet(s);
    if (st != ORDO_OK)
        shmem_error("shmem_quiet", "an operation of the context failed: %s",
                    ordo_status_string(st));
}

void shmem_quiet(void) { shmem_ctx_quiet(SHMEM_CTX_DEFAULT); }

void shmem_barrier_all(void)
{
    if (!shmem_ready("shmem_barrier_all"))
        return;
    shmem_quiet();
    ordo_status_t st = ordo_coll_barrier(ORDO_COMM_WORLD);
    if (st != ORDO_OK)
        shmem_error("shmem_barrier_all", "%s", ordo_status_string(st));
}

void shmem_sync_all(void)
{
    if (!shmem_ready("shmem_sync_all"))
        return;
    ordo_status_t st = ordo_coll_barrier(ORDO_COMM_WORLD);
    if (st != ORDO_OK)
        shmem_error("shmem_sync_all", "%s", ordo_status_string(st));
}

/* One pass of a waiting loop: progress, and the core given away now and
 * then (ranks may outnumber cores). */
static void pass(unsigned *spins)
{
    ordo_progress();
    if ((++*spins & 63) == 0)
        sched_yield();
}

/* ------------------------------------------------------------- locks */

/* A lock word lives at PE 0 (the same symmetric address everywhere):
 * zero when free, 1 + the holder's PE when held, taken by compare-and-swap
 * on the default context.  Clearing completes the holder's operations
 * first (the standard asks that they be visible to the next holder). */
static int try_lock(const char *routine, long *lock)
{
    return shmem_long_atomic_compare_swap(lock, 0, (long)shmem_g.me + 1, 0) == 0 ||
           !shmem_ready(routine);
}

void shmem_set_lock(long *lock)
{
    unsigned spins = 0;
    while (!try_lock("shmem_set_lock", lock))
        pass(&spins);
}

int shmem_test_lock(long *lock)
{
    return try_lock("shmem_test_lock", lock) ? 0 : 1;
}

void shmem_clear_lock(long *lock)
{
    if (!shmem_ready("shmem_clear_lock"))
        return;
    shmem_quiet();
    long mine = (long)shmem_g.me + 1;
    if (shmem_long_atomic_compare_swap(lock, mine, 0, 0) != mine)
        shmem_error("shmem_clear_lock", "this PE does not hold the lock: left as it was");
}

/* ------------------------------------------------------------ waits */

/* Whether the word at p (width 4 or 8, signed or not) compares to *v. */
static int holds(const void *p, size_t width, int is_signed, int cmp, const void *v)
{
    int64_t a, b;
    uint64_t ua, ub;
    if (width == 4) {
        uint32_t x = __atomic_load_n((const uint32_t *)p, __ATOMIC_ACQUIRE), y;
        memcpy(&y, v, 4);
        a = (int32_t)x, b = (int32_t)y, ua = x, ub = y;
    } else {
        uint64_t x = __atomic_load_n((const uint64_t *)p, __ATOMIC_ACQUIRE), y;
        memcpy(&y, v, 8);
        a = (int64_t)x, b = (int64_t)y, ua = x, ub = y;
    }
    int c = is_signed ? (a > b) - (a < b) : (ua > ub) - (ua < ub);
    switch (cmp) {
    case SHMEM_CMP_EQ: return c == 0;
    case SHMEM_CMP_NE: return c != 0;
    case SHMEM_CMP_GT: return c > 0;
    case SHMEM_CMP_GE: return c >= 0;
    case SHMEM_CMP_LT: return c < 0;
    case SHMEM_CMP_LE: return c <= 0;
    default: return 0;
    }
}

static int cmp_ok(const char *routine, int cmp)
{
    if (cmp >= SHMEM_CMP_EQ && cmp <= SHMEM_CMP_LE)
        return 1;
    shmem_error(routine, "comparison %d is none of SHMEM_CMP_*", cmp);
    return 0;
}

static void wait_one(const char *routine, void *ivar, size_t width, int is_signed, int cmp,
                     const void *value)
{
    size_t off = 0;
    if (!shmem_ready(routine) || !cmp_ok(routine, cmp) || ivar == NULL)
        return;
    /* a word of a symmetric segment: ordo's wait (quietly: a local word
     * elsewhere is allowed too, and polled below) */
    const char *a = ivar;
    for (int i = 0; i < shmem_g.nseg; i++) {
        const shmem_segment_t *g = &shmem_g.seg[i];
        if (a < g->base || a + width > g->base + g->size)
            continue;
        off = (size_t)(a - g->base);
        ordo_atomic_type_t t = width == 4 ? (is_signed ? ORDO_INT32 : ORDO_UINT32)
                                          : (is_signed ? ORDO_INT64 : ORDO_UINT64);
        ordo_status_t st = ordo_wait_until(g->region, off, t, (ordo_cmp_t)cmp, value);
        if (st != ORDO_OK)
            shmem_error(routine, "%s", ordo_status_string(st));
        return;
    }
    unsigned spins = 0;
    while (!holds(ivar, width, is_signed, cmp, value))
        pass(&spins);
}

/* Sets: which entries count (status[i] == 0, or every one when status is
 * NULL), and the value each is compared with (values[i], or *value). */
#define SET_ACTIVE(i) (status == NULL || status[i] == 0)
#define SET_VALUE(i) (values ? (const char *)values + (i) * width : (const char *)value)

static size_t test_set(char *ivars, size_t n, size_t width, int is_signed, const int *status,
                       int cmp, const void *value, const void *values, int mode,
                       size_t *indices)
{
    /* mode 0: all (returns 1 when every active one holds), 1: any (the
     * index of one that holds, or SIZE_MAX), 2: some (how many hold,
     * indices[] filled) */
    size_t found = 0;
    for (size_t i = 0; i < n; i++) {
        if (!SET_ACTIVE(i))
            continue;
        int h = holds(ivars + i * width, width, is_signed, cmp, SET_VALUE(i));
        if (mode == 0 && !h)
            return 0;
        if (mode == 1 && h)
            return i;
        if (mode == 2 && h)
            indices[found++] = i;
    }
    return mode == 0 ? 1 : mode == 1 ? SIZE_MAX : found;
}

static size_t wait_set(const char *routine, void *ivars, size_t n, size_t width, int is_signed,
                       const int *status, int cmp, const void *value, const void *values,
                       int mode, size_t *indices)
{
    if (!shmem_ready(routine) || !cmp_ok(routine, cmp))
        return mode == 1 ? SIZE_MAX : 0;
    if (n && ivars == NULL) {
        shmem_error(routine, "ivars is NULL");
        return mode == 1 ? SIZE_MAX : 0;
    }
    size_t active = 0;
    for (size_t i = 0; i < n; i++)
        active += SET_ACTIVE(i);
    if (active == 0)   /* nothing to wait for */
        return mode == 1 ? SIZE_MAX : mode == 0 ? 1 : 0;
    unsigned spins = 0;
    for (;;) {
        size_t r = test_set(ivars, n, width, is_signed, status, cmp, value, values, mode,
                            indices);
        if ((mode == 0 && r) || (mode == 1 && r != SIZE_MAX) || (mode == 2 && r > 0))
            return r;
        pass(&spins);
    }
}

static size_t test_set_once(const char *routine, void *ivars, size_t n, size_t width,
                            int is_signed, const int *status, int cmp, const void *value,
                            const void *values, int mode, size_t *indices)
{
    if (!shmem_ready(routine) || !cmp_ok(routine, cmp) || (n && ivars == NULL))
        return mode == 1 ? SIZE_MAX : 0;
    ordo_progress();
    return test_set(ivars, n, width, is_signed, status, cmp, value, values, mode, indices);
}

/* (a test against zero would warn for unsigned types) */
#define SIGNED(T) ((T)-1 / 2 == 0)

#define DEF_WAIT(N, T)                                                                       \
    void shmem_##N##_wait_until(T *ivar, int cmp, T cmp_value)                               \
    {                                                                                        \
        wait_one("shmem_" #N "_wait_until", ivar, sizeof(T), SIGNED(T), cmp, &cmp_value);    \
    }                                                                                        \
    void shmem_##N##_wait_until_all(T *ivars, size_t nelems, const int *status, int cmp,     \
                                    T cmp_value)                                             \
    {                                                                                        \
        wait_set("shmem_" #N "_wait_until_all", ivars, nelems, sizeof(T), SIGNED(T), status, \
                 cmp, &cmp_value, NULL, 0, NULL);                                            \
    }                                                                                        \
    size_t shmem_##N##_wait_until_any(T *ivars, size_t nelems, const int *status, int cmp,   \
                                      T cmp_value)                                           \
    {                                                                                        \
        return wait_set("shmem_" #N "_wait_until_any", ivars, nelems, sizeof(T), SIGNED(T),  \
                        status, cmp, &cmp_value, NULL, 1, NULL);                             \
    }                                                                                        \
    size_t shmem_##N##_wait_until_some(T *ivars, size_t nelems, size_t *indices,             \
                                       const int *status, int cmp, T cmp_value)              \
    {                                                                                        \
        return wait_set("shmem_" #N "_wait_until_some", ivars, nelems, sizeof(T), SIGNED(T), \
                        status, cmp, &cmp_value, NULL, 2, indices);                          \
    }                                                                                        \
    void shmem_##N##_wait_until_all_vector(T *ivars, size_t nelems, const int *status,       \
                                           int cmp, T *cmp_values)                           \
    {                                                                                        \
        wait_set("shmem_" #N "_wait_until_all_vector", ivars, nelems, sizeof(T), SIGNED(T),  \
                 status, cmp, NULL, cmp_values, 0, NULL);                                    \
    }                                                                                        \
    size_t shmem_##N##_wait_until_any_vector(T *ivars, size_t nelems, const int *status,     \
                                             int cmp, T *cmp_values)                         \
    {                                                                                        \
        return wait_set("shmem_" #N "_wait_until_any_vector", ivars, nelems, sizeof(T),      \
                        SIGNED(T), status, cmp, NULL, cmp_values, 1, NULL);                  \
    }                                                                                        \
    size_t shmem_##N##_wait_until_some_vector(T *ivars, size_t nelems, size_t *indices,      \
                                              const int *status, int cmp, T *cmp_values)     \
    {                                                                                        \
        return wait_set("shmem_" #N "_wait_until_some_vector", ivars, nelems, sizeof(T),     \
                        SIGNED(T), status, cmp, NULL, cmp_values, 2, indices);               \
    }                                                                                        \
    int shmem_##N##_test(T *ivar, int cmp, T cmp_value)                                      \
    {                                                                                        \
        return (int)test_set_once("shmem_" #N "_test", ivar, 1, sizeof(T), SIGNED(T), NULL,  \
                                  cmp, &cmp_value, NULL, 0, NULL);                           \
    }                                                                                        \
    int shmem_##N##_test_all(T *ivars, size_t nelems, const int *status, int cmp,            \
                             T cmp_value)                                                    \
    {                                                                                        \
        return (int)test_set_once("shmem_" #N "_test_all", ivars, nelems, sizeof(T),         \
                                  SIGNED(T), status, cmp, &cmp_value, NULL, 0, NULL);        \
    }                                                                                        \
    size_t shmem_##N##_test_any(T *ivars, size_t nelems, const int *status, int cmp,         \
                                T cmp_value)                                                 \
    {                                                                                        \
        return test_set_once("shmem_" #N "_test_any", ivars, nelems, sizeof(T), SIGNED(T),   \
                             status, cmp, &cmp_value, NULL, 1, NULL);                        \
    }                                                                                        \
    size_t shmem_##N##_test_some(T *ivars, size_t nelems, size_t *indices,                   \
                                 const int *status, int cmp, T cmp_value)                    \
    {                                                                                        \
        return test_set_once("shmem_" #N "_test_some", ivars, nelems, sizeof(T), SIGNED(T),  \
                             status, cmp, &cmp_value, NULL, 2, indices);                     \
    }                                                                                        \
    int shmem_##N##_test_all_vector(T *ivars, size_t nelems, const int *status, int cmp,     \
                                    T *cmp_values)                                           \
    {                                                                                        \
        return (int)test_set_once("shmem_" #N "_test_all_vector", ivars, nelems, sizeof(T),  \
                                  SIGNED(T), status, cmp, NULL, cmp_values, 0, NULL);        \
    }                                                                                        \
    size_t shmem_##N##_test_any_vector(T *ivars, size_t nelems, const int *status, int cmp,  \
                                       T *cmp_values)                                        \
    {                                                                                        \
        return test_set_once("shmem_" #N "_test_any_vector", ivars, nelems, sizeof(T),       \
                             SIGNED(T), status, cmp, NULL, cmp_values, 1, NULL);             \
    }                                                                                        \
    size_t shmem_##N##_test_some_vector(T *ivars, size_t nelems, size_t *indices,            \
                                        const int *status, int cmp, T *cmp_values)           \
    {                                                                                        \
        return test_set_once("shmem_" #N "_test_some_vector", ivars, nelems, sizeof(T),      \
                             SIGNED(T), status, cmp, NULL, cmp_values, 2, indices);          \
    }
ORDO_SHMEM_P2P_SYNC_TYPES(DEF_WAIT)
