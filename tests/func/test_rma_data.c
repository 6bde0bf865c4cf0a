/* Data verification: random sizes (0 B - 8 MiB), offsets and seeds over
 * every path (PIO, engine, single copy, mapped user pages), blocking and
 * non-blocking, checksummed at the target; and a thread writing memory that
 * shares pages with mapped regions while they move.  Args: [seed] [iterations] */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"

#define REGION (8u << 20)

static size_t pick_size(uint64_t *st, size_t region)
{
    switch (test_rand(st) % 5) {
    case 0:  return test_rand(st) % 65;                 /* tiny, incl. 0 */
    case 1:  return test_rand(st) % 4097;               /* PIO */
    case 2:  return 4096 + test_rand(st) % (256 << 10); /* engine, one chunk */
    case 3:  return test_rand(st) % (region + 1);       /* up to 8 MiB */
    default: return region;
    }
}

typedef struct { size_t off, len; uint64_t seed, sum; } shot_t;

static void round_trip(ordo_region_h r, char *local, size_t region, const char *kind,
                       uint64_t *st, int iters)
{
    int me = ordo_rank(), n = ordo_size();
    int right = (me + 1) % n, left = (me + n - 1) % n;
    char *src = malloc(REGION), *back = malloc(REGION);
    shot_t *shots = calloc((size_t)iters, sizeof(shot_t));
    for (int it = 0; it < iters; it++) {
        /* Everyone picks the same shot sequence from the shared seed. */
        size_t len = pick_size(st, region);
        size_t off = len == region ? 0 : test_rand(st) % (region - len + 1);
        uint64_t seed = test_rand(st);
        shots[it] = (shot_t){off, len, seed, 0};
        test_fill(src, len, seed ^ (uint64_t)me);
        ordo_request_h req = NULL;
        if (it % 2)
            CHECK_OK(ordo_put(NULL, src, len, r, right, off, 0));
        else {
            ordo_status_t s = ordo_put_nb(NULL, src, len, r, right, off, 0, &req);
            CHECK(s == ORDO_OK || s == ORDO_INPROGRESS);
            CHECK_OK(ordo_request_wait(&req, NULL));
            CHECK(req == NULL);
        }
        CHECK_OK(ordo_quiet(NULL));
        CHECK_OK(ordo_barrier());
        /* What my left neighbour sent me */
        char *expect = malloc(len ? len : 1);
        test_fill(expect, len, seed ^ (uint64_t)left);
        if (memcmp(local + off, expect, len) != 0) {
            fprintf(stderr, "[rank %d] %s: put of %zu bytes at %zu from rank %d corrupt\n",
                    me, kind, len, off, left);
            test_failures++;
        }
        /* Read back what I put into my right neighbour. */
        memset(back, 0xee, len);
        if (it % 3 == 0) {
            ordo_status_t s = ordo_get_nb(NULL, back, len, r, right, off, 0, &req);
            CHECK(s == ORDO_OK || s == ORDO_INPROGRESS);
            CHECK_OK(ordo_request_wait(&req, NULL));
        } else {
            CHECK_OK(ordo_get(NULL, back, len, r, right, off, 0));
        }
        CHECK(test_checksum(back, len) == test_checksum(src, len));
        free(expect);
        CHECK_OK(ordo_barrier());
    }
    free(src);
    free(back);
    free(shots);
}

/* A program thread that increments a heap word while it is told to run. */
enum { NB_IDLE, NB_GO, NB_RUNNING, NB_STOP, NB_STOPPED, NB_EXIT };
typedef struct {
    _Atomic uint64_t *word;
    atomic_int phase;
    uint64_t done;
} neighbour_t;

static void *neighbour_main(void *arg)
{
    neighbour_t *nb = arg;
    for (;;) {
        int ph = atomic_load(&nb->phase);
        if (ph == NB_EXIT)
            return NULL;
        if (ph == NB_GO) {
            atomic_store(&nb->phase, NB_RUNNING);
            while (atomic_load(&nb->phase) == NB_RUNNING) {
                atomic_fetch_add(nb->word, 1);
                nb->done++;
            }
            atomic_store(&nb->phase, NB_STOPPED);
        } else {
            sched_yield();
        }
    }
}

static void neighbour_set(neighbour_t *nb, int ask, int wait_for)
{
    atomic_store(&nb->phase, ask);
    while (atomic_load(&nb->phase) != wait_for)
        ;
}

/* Freeing a mapped region moves its pages back to private memory, pages a
 * word of another thread's shares: not one of that thread's writes may be
 * lost, nor may it ever read anything but its own last value. */
static void neighbour_writes_survive_free(void)
{
    /* the word lies after the region, on its last page: the last to move */
    const size_t len = 16u << 20, total = len + 2 * 4096;
    char *block = aligned_alloc(4096, total);
    memset(block, 0, total);
    neighbour_t nb = {.word = (_Atomic uint64_t *)(block + 64 + len + 8), .phase = NB_IDLE};
    pthread_t t;
    CHECK(pthread_create(&t, NULL, neighbour_main, &nb) == 0);
    for (int round = 0; round < 10; round++) {
        ordo_region_h r;
        /* the thread is idle while the pages move in */
        REQUIRE_OK(ordo_region_create(block + 64, len, ORDO_REGION_CREATE_MAPPED, &r));
        neighbour_set(&nb, NB_GO, NB_RUNNING);
        CHECK_OK(ordo_region_free(r));
        neighbour_set(&nb, NB_STOP, NB_STOPPED);
        atomic_store(&nb.phase, NB_IDLE);
    }
    atomic_store(&nb.phase, NB_EXIT);
    pthread_join(t, NULL);
    CHECK(atomic_load(nb.word) == nb.done);
    free(block);
}

int main(int argc, char **argv)
{
    uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 0) : 12345;
    int iters = argc > 2 ? atoi(argv[2]) : 12;
    REQUIRE_OK(ordo_init(NULL));
    if (ordo_rank() == 0)
        printf("test_rma_data: seed %llu, %d iterations, %d ranks\n",
               (unsigned long long)seed, iters, ordo_size());

    uint64_t st = seed;
    ordo_region_h r;
    void *base;
    REQUIRE_OK(ordo_region_alloc(REGION, 0, &r, &base));
    round_trip(r, base, REGION, "alloc", &st, iters);
    CHECK_OK(ordo_region_free(r));

    /* user memory reached by single copy */
    char *user = malloc(REGION);
    memset(user, 0, REGION);
    REQUIRE_OK(ordo_region_create(user, REGION, 0, &r));
    round_trip(r, user, REGION, "create", &st, iters);
    CHECK_OK(ordo_region_free(r));

    /* user memory moved into shared pages; content survives both moves */
    test_fill(user, REGION, 77);
    uint64_t before = test_checksum(user + 100, 1000);
    REQUIRE_OK(ordo_region_create(user + 3, REGION - 3, ORDO_REGION_CREATE_MAPPED, &r));
    CHECK(test_checksum(user + 100, 1000) == before);
    round_trip(r, user + 3, REGION - 3, "create-mapped", &st, iters / 2 + 1);
    user[5] = 42;
    CHECK_OK(ordo_region_free(r));
    CHECK(user[5] == 42);   /* copy-out kept the last content */
    free(user);
    neighbour_writes_survive_free();

    /* Every rank reads every other rank's part, round after round: with a
     * small attach cache peers' mappings are evicted and attached again. */
    uint64_t *mine;
    REQUIRE_OK(ordo_region_alloc(4096, 0, &r, (void **)&mine));
    for (int i = 0; i < 512; i++)
        mine[i] = (uint64_t)ordo_rank() << 32 | (uint64_t)i;
    CHECK_OK(ordo_barrier());
    for (int round = 0; round < 3; round++) {
        for (int p = 0; p < ordo_size(); p++) {
            uint64_t got;
            size_t i = (size_t)(round * 37 + p) % 512;
            CHECK_OK(ordo_get(NULL, &got, 8, r, p, i * 8, 0));
            CHECK(got == ((uint64_t)p << 32 | i));
        }
    }
    CHECK_OK(ordo_barrier());
    CHECK_OK(ordo_region_free(r));

    ordo_stats_t stats;
    CHECK_OK(ordo_stats_get(&stats));
    const char *cache = getenv("ORDO_ATTACH_CACHE_MAX");
    if (cache && atoi(cache) == 1 && ordo_size() > 2)
        CHECK(stats.attach_evictions > 0);
    if (ordo_size() > 1 && ordo_rank() == 0)
        printf("pio %llu engine %llu single-copy %llu\n", (unsigned long long)stats.pio_ops,
               (unsigned long long)stats.engine_ops, (unsigned long long)stats.single_copy_ops);
    CHECK_OK(ordo_finalize());
    return test_result("test_rma_data");
}
