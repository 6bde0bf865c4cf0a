/* Local registration on the network transport, with ORDO_OFI_MR_LOCAL=1
 * (every local buffer registered, as verbs-like providers need) over
 * ordorun --nodes 2: a small put or get from memory outside the regions goes
 * through a bounce buffer, a large one registers its buffer for the
 * operation, one from region memory uses the region's registration; the
 * data arrives right every time, the counters say which path each took,
 * and a buffer freed and mapped again at the same address is never served
 * by a stale registration: the registration cache drops it (its data, not
 * the old mapping's, arrives), and keeps no more than ORDO_RCACHE_MAX. */
#define _GNU_SOURCE
#include <string.h>
#include <sys/mman.h>

#include "../harness.h"

#define BIG (256u << 10)

static ordo_stats_t stats(void)
{
    ordo_stats_t s;
    CHECK_OK(ordo_stats_get(&s));
    return s;
}

int main(void)
{
    test_init_two_nodes();
    int me = ordo_rank(), peer = 1 - me;
    char *win;
    ordo_region_h r;
    /* [0, 2 BIG): written and read by the peer; [2 BIG, 3 BIG): ours */
    REQUIRE_OK(ordo_region_alloc(3 * BIG, 0, &r, (void **)&win));
    memset(win, 0, 3 * BIG);
    CHECK_OK(ordo_barrier());
    char what[256];
    CHECK_OK(ordo_transport_describe(peer, what, sizeof(what)));
    CHECK(strncmp(what, "ofi ", 4) == 0 && strstr(what, "local registration") != NULL);

    /* small: bounce buffer */
    ordo_stats_t a = stats();
    uint64_t small = 0x1122334455667788ull + (uint64_t)me;
    CHECK_OK(ordo_put(NULL, &small, sizeof(small), r, peer, 0, 0));
    uint64_t back = 0;
    CHECK_OK(ordo_quiet(NULL));
    CHECK_OK(ordo_get(NULL, &back, sizeof(back), r, peer, 0, 0));
    CHECK(back == small);
    ordo_stats_t b = stats();
    CHECK(b.bounce_ops >= a.bounce_ops + 2);
    CHECK(b.registrations == a.registrations);

    /* large, from the heap: registered for the operation */
    char *heap = malloc(BIG), *into = malloc(BIG);
    for (size_t i = 0; i < BIG; i++)
        heap[i] = (char)(i * 7 + (size_t)me);
    CHECK_OK(ordo_put(NULL, heap, BIG, r, peer, BIG, 0));
    CHECK_OK(ordo_quiet(NULL));
    CHECK_OK(ordo_get(NULL, into, BIG, r, peer, BIG, 0));
    CHECK(memcmp(into, heap, BIG) == 0);
    ordo_stats_t c = stats();
    CHECK(c.registrations >= b.registrations + 2);
    CHECK(c.registration_ns > b.registration_ns);
    int cached = strstr(what, "registration cache") != NULL;
    if (cached) {
        /* the same buffers again: found in the cache */
        CHECK_OK(ordo_put(NULL, heap, BIG, r, peer, BIG, 0));
        CHECK_OK(ordo_get(NULL, into, BIG, r, peer, BIG, 0));
        ordo_stats_t c2 = stats();
        CHECK(c2.rcache_hits >= c.rcache_hits + 2);
        CHECK(c2.registrations == c.registrations);
        c = c2;
    }

    /* from region memory: the region's own registration */
    memcpy(win + 2 * BIG, heap, 64);
    CHECK_OK(ordo_put(NULL, win + 2 * BIG, BIG / 2, r, peer, 0, 0));
    CHECK_OK(ordo_quiet(NULL));
    ordo_stats_t d = stats();
    CHECK(d.registrations == c.registrations && d.bounce_ops == c.bounce_ops);

    /* a buffer unmapped and mapped again at the same address, new data */
    for (int round = 0; round < 2; round++) {
        char *m = mmap(NULL, BIG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        REQUIRE_OK(m == MAP_FAILED ? ORDO_ERR_NO_MEMORY : ORDO_OK);
        memset(m, 'a' + round, BIG);
        CHECK_OK(ordo_put(NULL, m, BIG, r, peer, BIG, 0));
        CHECK_OK(ordo_quiet(NULL));
        CHECK_OK(ordo_get(NULL, into, BIG, r, peer, BIG, 0));
        CHECK(into[0] == 'a' + round && into[BIG - 1] == 'a' + round);
        ordo_stats_t before = stats();
        munmap(m, BIG);
        char *again = mmap(m, BIG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        REQUIRE_OK(again == MAP_FAILED ? ORDO_ERR_NO_MEMORY : ORDO_OK);
        memset(again, 'x' + round, BIG);
        CHECK_OK(ordo_put(NULL, again, BIG, r, peer, BIG, 0));
        CHECK_OK(ordo_quiet(NULL));
        CHECK_OK(ordo_get(NULL, into, BIG, r, peer, BIG, 0));
        CHECK(into[0] == 'x' + round && into[BIG - 1] == 'x' + round);
        ordo_stats_t after = stats();
        if (cached && again == m) {
            /* the old registration was dropped when its memory went */
            CHECK(after.rcache_invalidations > before.rcache_invalidations);
            CHECK(after.rcache_misses > before.rcache_misses);
        }
        munmap(again, BIG);
    }

    /* more buffers than ORDO_RCACHE_MAX allows: the oldest unused go */
    const char *max = getenv("ORDO_RCACHE_MAX");
    if (cached && max && atoi(max) <= 2) {
        ordo_stats_t e0 = stats();
        char *bufs[4];
        for (int i = 0; i < 4; i++) {
            bufs[i] = malloc(BIG);
            memset(bufs[i], i, BIG);
            CHECK_OK(ordo_put(NULL, bufs[i], BIG, r, peer, BIG, 0));
        }
        CHECK_OK(ordo_quiet(NULL));
        ordo_stats_t e1 = stats();
        CHECK(e1.rcache_evictions >= e0.rcache_evictions + 2);
        for (int i = 0; i < 4; i++)
            free(bufs[i]);
    }
    free(heap);
    free(into);
    CHECK_OK(ordo_barrier());
    CHECK_OK(ordo_region_free(r));
    CHECK_OK(ordo_finalize());
    return test_result("test_ofi_registration");
}
