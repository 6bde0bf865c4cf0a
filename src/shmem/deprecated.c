/* The names OpenSHMEM had before 1.2, which 1.5 lists as deprecated and
 * older programs and benchmarks still call: thin forwards to the current
 * routines.  The cache routines of the Cray T3E era have nothing to do on
 * coherent memory. */
#include <sched.h>

#include "shmem_internal.h"

void start_pes(int npes)
{
    (void)npes;   /* the job's size is the launcher's, as the standard allows */
    shmem_init();
}

int _my_pe(void) { return shmem_my_pe(); }
int _num_pes(void) { return shmem_n_pes(); }

void *shmalloc(size_t size) { return shmem_malloc(size); }
void  shfree(void *ptr) { shmem_free(ptr); }
void *shrealloc(void *ptr, size_t size) { return shmem_realloc(ptr, size); }
void *shmemalign(size_t alignment, size_t size) { return shmem_align(alignment, size); }

void shmem_clear_cache_inv(void) {}
void shmem_set_cache_inv(void) {}
void shmem_clear_cache_line_inv(void *dest) { (void)dest; }
void shmem_set_cache_line_inv(void *dest) { (void)dest; }
void shmem_udcflush(void) {}
void shmem_udcflush_line(void *dest) { (void)dest; }

void shmem_wait(long *ivar, long cmp_value)
{
    shmem_long_wait_until(ivar, SHMEM_CMP_NE, cmp_value);
}

void shmem_int_wait(int *ivar, int cmp_value)
{
    shmem_int_wait_until(ivar, SHMEM_CMP_NE, cmp_value);
}

void shmem_long_wait(long *ivar, long cmp_value)
{
    shmem_long_wait_until(ivar, SHMEM_CMP_NE, cmp_value);
}

void shmem_longlong_wait(long long *ivar, long long cmp_value)
{
    shmem_longlong_wait_until(ivar, SHMEM_CMP_NE, cmp_value);
}

/* No 16-bit wait_until in 1.5 (nor in ordo): polled, driving progress and
 * giving the core away now and then, as the other waits do. */
void shmem_short_wait(short *ivar, short cmp_value)
{
    ordo_region_h region;
    size_t off;
    if (!shmem_ready("shmem_short_wait") ||
        !shmem_symmetric("shmem_short_wait", ivar, sizeof(*ivar), &region, &off))
        return;
    for (unsigned spins = 0; __atomic_load_n(ivar, __ATOMIC_ACQUIRE) == cmp_value;) {
        ordo_progress();
        if ((++spins & 63) == 0)
            sched_yield();
    }
}

/* The AMO names before 1.4. */
#define OLD_AMO_EXT(N, T)                                                                    \
    T shmem_##N##_fetch(const T *source, int pe)                                             \
    {                                                                                        \
        return shmem_##N##_atomic_fetch(source, pe);                                         \
    }                                                                                        \
    void shmem_##N##_set(T *dest, T value, int pe) { shmem_##N##_atomic_set(dest, value, pe); } \
    T shmem_##N##_swap(T *dest, T value, int pe)                                             \
    {                                                                                        \
        return shmem_##N##_atomic_swap(dest, value, pe);                                     \
    }
#define OLD_AMO(N, T)                                                                        \
    OLD_AMO_EXT(N, T)                                                                        \
    T shmem_##N##_cswap(T *dest, T cond, T value, int pe)                                    \
    {                                                                                        \
        return shmem_##N##_atomic_compare_swap(dest, cond, value, pe);                       \
    }                                                                                        \
    T shmem_##N##_finc(T *dest, int pe) { return shmem_##N##_atomic_fetch_inc(dest, pe); }   \
    void shmem_##N##_inc(T *dest, int pe) { shmem_##N##_atomic_inc(dest, pe); }             \
    T shmem_##N##_fadd(T *dest, T value, int pe)                                             \
    {                                                                                        \
        return shmem_##N##_atomic_fetch_add(dest, value, pe);                                \
    }                                                                                        \
    void shmem_##N##_add(T *dest, T value, int pe) { shmem_##N##_atomic_add(dest, value, pe); }
OLD_AMO(int, int)
OLD_AMO(long, long)
OLD_AMO(longlong, long long)
OLD_AMO_EXT(float, float)
OLD_AMO_EXT(double, double)

long shmem_swap(long *dest, long value, int pe)
{
    return shmem_long_atomic_swap(dest, value, pe);
}
