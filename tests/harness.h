/* A tiny test harness: CHECK and CHECK_STATUS print where and why, and count
 * failures (from any thread); a test's exit status is the number of failures (capped). */
#ifndef ORDO_TEST_HARNESS_H
#define ORDO_TEST_HARNESS_H

#include <stdio.h>
#include <stdlib.h>
#include <ordo/ordo.h>

static int test_failures;

#define CHECK(cond)                                                                 \
    do {                                                                            \
        if (!(cond)) {                                                              \
            fprintf(stderr, "[rank %d] %s:%d: CHECK(%s) failed\n", ordo_rank(),     \
                    __FILE__, __LINE__, #cond);                                     \
            __atomic_add_fetch(&test_failures, 1, __ATOMIC_RELAXED);                \
        }                                                                           \
    } while (0)

#define CHECK_STATUS(expr, expected)                                                \
    do {                                                                            \
        ordo_status_t st_ = (expr);                                                 \
        if (st_ != (expected)) {                                                    \
            fprintf(stderr, "[rank %d] %s:%d: %s returned %d (%s), expected %s\n",  \
                    ordo_rank(), __FILE__, __LINE__, #expr, st_,                    \
                    ordo_status_string(st_), #expected);                            \
            __atomic_add_fetch(&test_failures, 1, __ATOMIC_RELAXED);                \
        }                                                                           \
    } while (0)

#define CHECK_OK(expr) CHECK_STATUS(expr, ORDO_OK)

/* Stop at once: the rest of the test depends on this. */
#define REQUIRE_OK(expr)                                                            \
    do {                                                                            \
        ordo_status_t st_ = (expr);                                                 \
        if (st_ != ORDO_OK) {                                                       \
            fprintf(stderr, "[rank %d] %s:%d: %s failed: %s\n", ordo_rank(),        \
                    __FILE__, __LINE__, #expr, ordo_status_string(st_));            \
            exit(100);                                                              \
        }                                                                           \
    } while (0)

/* ordo_init for a test of the network transport: it needs ordorun --nodes 2
 * -n 2, and exits 2 under anything else. */
static inline void test_init_two_nodes(void)
{
    REQUIRE_OK(ordo_init(NULL));
    if (ordo_size() != 2 || ordo_node_count() != 2) {
        fprintf(stderr, "run with ordorun --nodes 2 -n 2\n");
        ordo_finalize();
        exit(2);
    }
}

static inline int test_result(const char *name)
{
    if (test_failures)
        fprintf(stderr, "[rank %d] %s: %d check(s) failed\n", ordo_rank(), name, test_failures);
    return test_failures > 99 ? 99 : test_failures;
}

/* xorshift64*: reproducible data from a seed. */
static inline uint64_t test_rand(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545F4914F6CDD1DULL;
}

static inline void test_fill(void *buf, size_t len, uint64_t seed)
{
    uint64_t st = seed * 0x9E3779B97F4A7C15ULL + 1;
    unsigned char *p = buf;
    for (size_t i = 0; i < len; i++)
        p[i] = (unsigned char)(test_rand(&st) >> 56);
}

static inline uint64_t test_checksum(const void *buf, size_t len)
{
    const unsigned char *p = buf;
    uint64_t h = 1469598103934665603ULL;   /* FNV-1a */
    for (size_t i = 0; i < len; i++)
        h = (h ^ p[i]) * 1099511628211ULL;
    return h;
}

#endif
