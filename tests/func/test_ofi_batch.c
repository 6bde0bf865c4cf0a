/* Short puts gathered into batches on the network transport (run under
 * ordorun --nodes 2 -n 2; argument "batched" where ORDO_OFI_PUT_BATCH is on,
 * "unbatched" where it is off).
 *
 * - a window of short puts followed by a quiet goes out in a few messages
 *   (put_batches far below puts_batched), and never when batching is off;
 * - a strict stream's puts are never batched (each is waited for anyway);
 * - puts of every size from 1 B to past the batch limit, to scattered
 *   offsets, more than one message holds, arrive intact;
 * - on a default stream, one word written in turn by short puts, long puts
 *   (the provider's write), atomic swaps and adds never goes back and is
 *   final behind the trial's flag, in hundreds of seeded trials: every pair
 *   of kinds keeps its order, the ones the transport keeps by itself and
 *   the ones the runtime waits for;
 * - a put of a relaxed stream after ordo_fence is not seen before the puts
 *   ahead of the fence;
 * - atomics whose old value nobody wants are batched with the puts and
 *   applied exactly once each. */
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../harness.h"

#define LONG_LEN 3000          /* beyond the batch limit: an RMA write */
#define SCATTER  (256u << 10)
#define TRIALS   400
#define PER_TRIAL 16

typedef struct {
    _Alignas(64) uint64_t word;
    char      word_tail[LONG_LEN];   /* a long put covers the word and this */
    _Alignas(64) uint64_t flag;
    _Alignas(64) uint64_t fenced[2];
    char      scatter[SCATTER];
} area_t;

static ordo_stats_t stats(void)
{
    ordo_stats_t s;
    CHECK_OK(ordo_stats_get(&s));
    return s;
}

static void window_is_gathered(ordo_region_h r, int batched)
{
    ordo_stats_t a = stats();
    if (ordo_rank() == 0) {
        static uint64_t v[256];
        for (int round = 0; round < 8; round++) {
            for (unsigned i = 0; i < 256; i++) {
                v[i] = (uint64_t)round << 32 | i;
                CHECK_OK(ordo_put_nb(NULL, &v[i], 8, r, 1,
                                     offsetof(area_t, scatter) + 8 * (size_t)i, 0, NULL));
            }
            CHECK_OK(ordo_quiet(NULL));
        }
        ordo_stats_t b = stats();
        uint64_t n = b.puts_batched - a.puts_batched, m = b.put_batches - a.put_batches;
        printf("window: %llu puts in %llu batches\n", (unsigned long long)n,
               (unsigned long long)m);
        if (batched) {
            /* a put whose batch cannot get a message buffer (most are kept
             * for messages that cannot wait) goes the ordinary way */
            CHECK(n >= 8 * 256 * 9 / 10);
            CHECK(m >= 8 && m <= 8 * 256 / 16);   /* at least one per window, many puts each */
        } else {
            CHECK(n == 0 && m == 0);
        }
    }
    CHECK_OK(ordo_barrier());
}

/* A strict stream waits for each put before the next: gathering would only
 * add the target's acknowledgement to every put, so none is batched. */
static void strict_puts_go_alone(ordo_region_h r)
{
    ordo_stream_params_t p = {.field_mask = ORDO_STREAM_FIELD_ORDER, .order = ORDO_ORDER_STRICT};
    ordo_stream_h strict;
    REQUIRE_OK(ordo_stream_create(&p, &strict));
    ordo_stats_t a = stats();
    if (ordo_rank() == 0) {
        static uint64_t v[32];
        for (unsigned i = 0; i < 32; i++) {
            v[i] = i;
            ordo_status_t st = ordo_put_nb(strict, &v[i], 8, r, 1,
                                           offsetof(area_t, scatter) + 8 * (size_t)i, 0, NULL);
            CHECK(st == ORDO_OK || st == ORDO_INPROGRESS);
        }
        CHECK_OK(ordo_quiet(strict));
    }
    ordo_stats_t b = stats();
    CHECK(b.puts_batched == a.puts_batched);
    CHECK_OK(ordo_stream_destroy(strict));
    CHECK_OK(ordo_barrier());
}

static void scattered_sizes_arrive(ordo_region_h r, area_t *mine)
{
    memset(mine->scatter, 0, SCATTER);
    CHECK_OK(ordo_barrier());
    uint64_t seed = 0x5eed;
    /* the same sequence on both ranks: rank 0 writes it, rank 1 checks */
    size_t off = 0;
    unsigned nput = 0;
    static char src[SCATTER];
    for (size_t i = 0; i < SCATTER; i++)
        src[i] = (char)(i * 131 + 7);
    while (off < SCATTER - 2048) {
        size_t len = (size_t)(test_rand(&seed) % 1500) + 1;
        if (ordo_rank() == 0)
            CHECK_OK(ordo_put_nb(NULL, src + off, len, r, 1, offsetof(area_t, scatter) + off, 0,
                                 NULL));
        off += len + (size_t)(test_rand(&seed) % 16);   /* gaps stay zero */
        nput++;
    }
    if (ordo_rank() == 0)
        CHECK_OK(ordo_quiet(NULL));
    CHECK_OK(ordo_barrier());
    if (ordo_rank() == 1) {
        seed = 0x5eed;
        off = 0;
        int bad = 0;
        while (off < SCATTER - 2048) {
            size_t len = (size_t)(test_rand(&seed) % 1500) + 1;
            bad += memcmp(mine->scatter + off, src + off, len) != 0;
            size_t gap = (size_t)(test_rand(&seed) % 16);
            for (size_t g = 0; g < gap; g++)
                bad += mine->scatter[off + len + g] != 0;
            off += len + gap;
        }
        if (bad)
            fprintf(stderr, "scatter: %d of %u puts or gaps wrong\n", bad, nput);
        CHECK(bad == 0);
    }
    CHECK_OK(ordo_barrier());
}

/* One word, every kind of write in turn, increasing values. */
static void kinds_keep_order(ordo_region_h r, area_t *mine)
{
    atomic_store((_Atomic uint64_t *)&mine->word, 0);
    atomic_store((_Atomic uint64_t *)&mine->flag, 0);
    CHECK_OK(ordo_barrier());
    if (ordo_rank() == 0) {
        uint64_t seed = 0xfeed;
        static char longbuf[PER_TRIAL][LONG_LEN];
        uint64_t vals[PER_TRIAL + 1], olds[PER_TRIAL];
        unsigned kinds[4] = {0};
        for (uint64_t t = 1; t <= TRIALS; t++) {
            uint64_t v = t * 1000;
            for (int i = 0; i < PER_TRIAL; i++) {
                unsigned kind = (unsigned)(test_rand(&seed) % 4);
                kinds[kind]++;
                size_t at = offsetof(area_t, word);
                if (kind == 3) {   /* add 1 to the word, which holds v */
                    uint64_t one = 1;
                    CHECK(ordo_atomic_nb(NULL, ORDO_ATOMIC_ADD, ORDO_UINT64, &one, NULL, NULL,
                                         r, 1, at, 0, NULL) >= 0);
                    v += 1;
                    continue;
                }
                v += 10;
                vals[i] = v;
                if (kind == 0) {
                    CHECK_OK(ordo_put_nbi(NULL, &vals[i], 8, r, 1, at, 0));
                } else if (kind == 1) {
                    memcpy(longbuf[i], &vals[i], 8);
                    CHECK(ordo_put_nb(NULL, longbuf[i], LONG_LEN, r, 1, at, 0, NULL) >= 0);
                } else {
                    CHECK(ordo_atomic_nb(NULL, ORDO_ATOMIC_SWAP, ORDO_UINT64, &vals[i], NULL,
                                         &olds[i], r, 1, at, 0, NULL) >= 0);
                }
            }
            vals[PER_TRIAL] = v;   /* the flag says which value is final */
            CHECK_OK(ordo_put_nb(NULL, &vals[PER_TRIAL], 8, r, 1, offsetof(area_t, flag), 0,
                                 NULL));
            CHECK_OK(ordo_quiet(NULL));
        }
        printf("kinds: %u short puts, %u long puts, %u swaps, %u adds\n", kinds[0], kinds[1],
               kinds[2], kinds[3]);
    } else {
        _Atomic uint64_t *word = (_Atomic uint64_t *)&mine->word;
        _Atomic uint64_t *flag = (_Atomic uint64_t *)&mine->flag;
        uint64_t last = 0, seen = 0;
        int backwards = 0, stale = 0;
        while (seen < TRIALS) {
            ordo_progress();
            uint64_t f = atomic_load_explicit(flag, memory_order_acquire);
            uint64_t w = atomic_load_explicit(word, memory_order_acquire);
            if (w < last)
                backwards++;
            last = w;
            if (f / 1000 > seen) {
                if (w < f)
                    stale++;
                seen = f / 1000;
            }
        }
        if (backwards || stale)
            fprintf(stderr, "kinds: the word went back %d times, was stale behind its flag %d "
                            "times\n", backwards, stale);
        CHECK(backwards == 0 && stale == 0);
    }
    CHECK_OK(ordo_barrier());
}

static void fence_orders_relaxed(ordo_region_h r, area_t *mine)
{
    ordo_stream_params_t sp = {.field_mask = ORDO_STREAM_FIELD_ORDER,
                               .order = ORDO_ORDER_RELAXED};
    ordo_stream_h s;
    REQUIRE_OK(ordo_stream_create(&sp, &s));
    mine->fenced[0] = mine->fenced[1] = 0;
    CHECK_OK(ordo_barrier());
    if (ordo_rank() == 0) {
        static uint64_t v[2 * TRIALS + 2];
        for (int t = 1; t <= TRIALS; t++) {
            v[2 * t] = v[2 * t + 1] = (uint64_t)t;
            CHECK_OK(ordo_put_nb(s, &v[2 * t], 8, r, 1, offsetof(area_t, fenced), 0, NULL));
            CHECK_OK(ordo_fence(s));
            CHECK_OK(ordo_put_nb(s, &v[2 * t + 1], 8, r, 1, offsetof(area_t, fenced) + 8, 0,
                                 NULL));
        }
        CHECK_OK(ordo_quiet(s));
    } else {
        _Atomic uint64_t *first = (_Atomic uint64_t *)&mine->fenced[0];
        _Atomic uint64_t *second = (_Atomic uint64_t *)&mine->fenced[1];
        int early = 0;
        uint64_t b = 0;
        while (b < TRIALS) {
            ordo_progress();
            b = atomic_load_explicit(second, memory_order_acquire);
            if (atomic_load_explicit(first, memory_order_acquire) < b)
                early++;
        }
        CHECK(early == 0);
    }
    CHECK_OK(ordo_barrier());
    CHECK_OK(ordo_stream_destroy(s));
}

/* Atomics whose old value nobody wants ride in the batches too, on default
 * and relaxed streams, 4 and 8 bytes wide: each adds / ors / xors exactly
 * once (one word per operation kind, many operations on each), and a
 * fetching add issued behind them on a default stream sees them all. */
static void atomics_are_gathered(ordo_region_h r, area_t *mine, int batched)
{
    enum { N = 200 };
    uint64_t *w64 = (uint64_t *)mine->scatter;
    uint32_t *w32 = (uint32_t *)(mine->scatter + 64);
    memset(mine->scatter, 0, 128);
    w64[2] = ~(uint64_t)0;   /* and-ed down bit by bit */
    CHECK_OK(ordo_barrier());
    ordo_stats_t a = stats();
    for (int m = ORDO_ORDER_DEFAULT; m <= ORDO_ORDER_RELAXED && ordo_rank() == 0; m++) {
        ordo_stream_params_t p = {.field_mask = ORDO_STREAM_FIELD_ORDER, .order = (ordo_order_t)m};
        ordo_stream_h s;
        REQUIRE_OK(ordo_stream_create(&p, &s));
        static uint64_t one = 1, bits[64], masks[64];
        static uint32_t one32 = 1;
        for (int i = 0; i < N; i++) {
            bits[i % 64] = (uint64_t)1 << (i % 64);
            masks[i % 64] = ~((uint64_t)1 << (i % 64));
            CHECK(ordo_atomic_nb(s, ORDO_ATOMIC_ADD, ORDO_UINT64, &one, NULL, NULL, r, 1,
                                 offsetof(area_t, scatter), 0, NULL) >= 0);
            CHECK(ordo_atomic_nb(s, ORDO_ATOMIC_OR, ORDO_UINT64, &bits[i % 64], NULL, NULL, r, 1,
                                 offsetof(area_t, scatter) + 8, 0, NULL) >= 0);
            CHECK(ordo_atomic_nb(s, ORDO_ATOMIC_AND, ORDO_UINT64, &masks[i % 64], NULL, NULL, r,
                                 1, offsetof(area_t, scatter) + 16, 0, NULL) >= 0);
            CHECK(ordo_atomic_nb(s, ORDO_ATOMIC_ADD, ORDO_UINT32, &one32, NULL, NULL, r, 1,
                                 offsetof(area_t, scatter) + 64, 0, NULL) >= 0);
        }
        if (m == ORDO_ORDER_DEFAULT) {
            uint64_t zero = 0, seen = 0;
            CHECK_OK(ordo_atomic(s, ORDO_ATOMIC_ADD, ORDO_UINT64, &zero, NULL, &seen, r, 1,
                                 offsetof(area_t, scatter), 0));
            if (seen != N)
                fprintf(stderr, "fetch-add saw %llu of %d adds\n", (unsigned long long)seen, N);
            CHECK(seen == N);
        }
        CHECK_OK(ordo_quiet(s));
        CHECK_OK(ordo_stream_destroy(s));
    }
    CHECK_OK(ordo_barrier());
    if (ordo_rank() == 1) {
        CHECK(w64[0] == 2 * N && w64[1] == ~(uint64_t)0 && w64[2] == 0 && w32[0] == 2 * N);
    } else {
        ordo_stats_t b = stats();
        uint64_t n = b.puts_batched - a.puts_batched;
        printf("atomics: %llu of %d batched\n", (unsigned long long)n, 2 * 4 * N);
        CHECK(batched ? n >= 2 * 4 * N * 9 / 10 : n == 0);   /* as for puts */
    }
    CHECK_OK(ordo_barrier());
}

int main(int argc, char **argv)
{
    int batched = argc > 1 && strcmp(argv[1], "batched") == 0;
    test_init_two_nodes();
    char what[256];
    CHECK_OK(ordo_transport_describe(1 - ordo_rank(), what, sizeof(what)));
    CHECK((strstr(what, "batched") != NULL) == batched);
    area_t *mine;
    ordo_region_h r;
    REQUIRE_OK(ordo_region_alloc(sizeof(area_t), 0, &r, (void **)&mine));
    window_is_gathered(r, batched);
    strict_puts_go_alone(r);
    scattered_sizes_arrive(r, mine);
    kinds_keep_order(r, mine);
    fence_orders_relaxed(r, mine);
    atomics_are_gathered(r, mine, batched);
    CHECK_OK(ordo_region_free(r));
    CHECK_OK(ordo_finalize());
    return test_result("test_ofi_batch");
}
