/* Compiler helpers used across layers. */
#ifndef ORDO_BASE_COMPILER_H
#define ORDO_BASE_COMPILER_H

#include <stddef.h>
#include <stdint.h>

#define ORDO_LIKELY(x)   __builtin_expect(!!(x), 1)
#define ORDO_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define ORDO_CACHE_LINE  64
#define ORDO_ALIGNED(n)  __attribute__((aligned(n)))
#define ORDO_UNUSED      __attribute__((unused))
/* For the few steps of a fast path that must not become calls. */
#define ORDO_INLINE      inline __attribute__((always_inline))
#define ORDO_PRINTF(f, a) __attribute__((format(printf, f, a)))

#define ordo_container_of(ptr, type, member) \
    ((type *)((char *)(ptr) - offsetof(type, member)))

#define ORDO_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define ORDO_MIN(a, b) ((a) < (b) ? (a) : (b))
#define ORDO_MAX(a, b) ((a) > (b) ? (a) : (b))

/* In a loop that spins on one cache line: tells the core, so that it stops
 * re-requesting the line while the writer still fills it. */
static inline void ordo_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* Ask for the line at p in a state this core may write (a prefetch: no
 * effect on what memory holds, and none at all where unsupported). */
static inline void ordo_prefetch_write(const void *p)
{
#if defined(__x86_64__) || defined(__i386__)
    /* PREFETCHW; a no-op on the x86 cores that lack it */
    __asm__ __volatile__("prefetchw (%0)" : : "r"(p));
#else
    __builtin_prefetch(p, 1, 3);
#endif
}

/* Push the line at p out of this core's caches into the cache all cores
 * share (CLDEMOTE, a hint: memory keeps what it holds; a no-op on the x86
 * cores that lack it), where another core about to read it finds it sooner
 * than in this core's. */
static inline void ordo_demote(const void *p)
{
#if defined(__x86_64__) || defined(__i386__)
    __asm__ __volatile__("cldemote (%0)" : : "r"(p));
#else
    (void)p;
#endif
}

/* Whether n elements of size bytes at buf fit in the address space: the
 * byte count neither overflows nor passes PTRDIFF_MAX, and buf + bytes does
 * not wrap.  An impossible length is refused, never taken modulo 2^64. */
static inline int ordo_span_ok(const void *buf, size_t n, size_t size)
{
    size_t bytes;
    if (__builtin_mul_overflow(n, size, &bytes) || bytes > (size_t)PTRDIFF_MAX)
        return 0;
    return (uintptr_t)buf <= UINTPTR_MAX - bytes;
}

#endif
