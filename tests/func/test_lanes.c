/* Lanes reorder, and the ordering modes hold over them.
 *
 * Run with two ranks on two nodes (ordorun --nodes 2) over the network
 * transport.  With "expect-reorder" (ORDO_OFI_LANES > 1), a relaxed stream's
 * puts, large and small alternating over the lanes, must be seen completing
 * out of issue order (completions_reordered > 0).  On strict and default
 * streams, in thousands of seeded trials, rank 0 writes increasing values
 * into one word of rank 1, then a flag: rank 1, progressing while it
 * watches, must never see the word go back, and must see the trial's last
 * value once it sees the trial's flag; and no operation of those streams
 * may complete out of order. */
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"

#define BIG (1u << 20)
#define TRIALS 1500
#define PER_TRIAL 12

typedef struct {
    _Alignas(64) uint64_t word;
    _Alignas(64) uint64_t flag;
    char data[BIG];
} area_t;

static uint64_t next_random(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static uint64_t reordered(void)
{
    ordo_stats_t st;
    CHECK_OK(ordo_stats_get(&st));
    return st.completions_reordered;
}

static void relaxed_reorders(ordo_region_h r, int expect)
{
    ordo_stream_params_t sp = {.field_mask = ORDO_STREAM_FIELD_ORDER,
                               .order = ORDO_ORDER_RELAXED};
    ordo_stream_h s;
    REQUIRE_OK(ordo_stream_create(&sp, &s));
    uint64_t before = reordered();
    if (ordo_rank() == 0) {
        char *src = calloc(1, BIG);
        uint64_t small[64];
        for (int round = 0; round < 20; round++) {
            for (int i = 0; i < 16; i++) {
                /* a large put, then small ones that other lanes carry past it */
                CHECK(ordo_put_nb(s, src, BIG, r, 1, offsetof(area_t, data), 0, NULL) >= 0);
                for (int j = 0; j < 3; j++) {
                    small[(i * 3 + j) % 64] = (uint64_t)(round * 100 + i);
                    CHECK(ordo_put_nb(s, &small[(i * 3 + j) % 64], 8, r, 1,
                                      offsetof(area_t, data) + 64 * (size_t)(j + 1), 0,
                                      NULL) >= 0);
                }
            }
            CHECK_OK(ordo_quiet(s));
        }
        free(src);
        uint64_t n = reordered() - before;
        printf("relaxed: %llu completions out of issue order\n", (unsigned long long)n);
        if (expect)
            CHECK(n > 0);
    }
    CHECK_OK(ordo_barrier());
    CHECK_OK(ordo_stream_destroy(s));
}

/* A relaxed stream takes lanes where spreading pays: short puts keep to
 * one lane (their batches fill as on one lane), large transfers in flight
 * together spread (ORDO_OFI_LANE_SPREAD=on: the runs that check it say so,
 * since auto learns whether spreading pays on the machine) or, with
 * ORDO_OFI_LANE_SPREAD=off, keep to the peer's lane too. */
static void relaxed_keeps_short_puts_together(ordo_region_h r, int lanes)
{
    ordo_stream_params_t sp = {.field_mask = ORDO_STREAM_FIELD_ORDER,
                               .order = ORDO_ORDER_RELAXED};
    ordo_stream_h s;
    REQUIRE_OK(ordo_stream_create(&sp, &s));
    if (ordo_rank() == 0) {
        ordo_stats_t a, b;
        CHECK_OK(ordo_stats_get(&a));
        uint64_t v[64];
        for (int round = 0; round < 50; round++) {
            for (int i = 0; i < 64; i++) {
                v[i] = (uint64_t)(round * 64 + i);
                CHECK_OK(ordo_put(s, &v[i], 8, r, 1, offsetof(area_t, data) + 8 * (size_t)i, 0));
            }
            CHECK_OK(ordo_quiet(s));
        }
        char *big = calloc(1, BIG);
        /* issued together: the first keeps to the idle current lane, the
         * next find it loaded and spread */
        for (int i = 0; i < 8; i++)
            CHECK(ordo_put_nbi(s, big, BIG, r, 1, offsetof(area_t, data), 0) >= 0);
        CHECK_OK(ordo_quiet(s));
        free(big);
        CHECK_OK(ordo_stats_get(&b));
        uint64_t used = 0, total = 0;
        for (int l = 0; l < ORDO_STATS_LANES; l++) {
            used += b.lane_ops[l] > a.lane_ops[l];
            total += b.lane_ops[l] - a.lane_ops[l];
        }
        printf("relaxed: %llu kept, %llu spread, on %llu lanes\n",
               (unsigned long long)(b.lane_kept - a.lane_kept),
               (unsigned long long)(b.lane_spread - a.lane_spread), (unsigned long long)used);
        const char *spread = getenv("ORDO_OFI_LANE_SPREAD");
        if (lanes > 1 && spread && strcmp(spread, "off") == 0) {
            /* told not to: the large ones stay on the peer's lane too */
            CHECK(b.lane_kept - a.lane_kept == 50 * 64 + 8);
            CHECK(b.lane_spread == a.lane_spread);
            CHECK(used == 1);
        } else if (lanes > 1) {
            CHECK(b.lane_kept - a.lane_kept >= 50 * 64);   /* every short put kept */
            CHECK(b.lane_spread - a.lane_spread >= 1);      /* the large ones spread */
            CHECK(used >= 2);
            CHECK(total == 50 * 64 + 8);
        } else {
            CHECK(b.lane_spread == a.lane_spread);
        }
    }
    CHECK_OK(ordo_barrier());
    CHECK_OK(ordo_stream_destroy(s));
}

static void ordered_modes_hold(ordo_region_h r, area_t *mine, ordo_order_t order,
                               uint64_t seed)
{
    ordo_stream_params_t sp = {.field_mask = ORDO_STREAM_FIELD_ORDER, .order = order};
    ordo_stream_h s;
    REQUIRE_OK(ordo_stream_create(&sp, &s));
    uint64_t before = reordered();
    atomic_store((_Atomic uint64_t *)&mine->word, 0);
    atomic_store((_Atomic uint64_t *)&mine->flag, 0);
    CHECK_OK(ordo_barrier());
    if (ordo_rank() == 0) {
        char *src = calloc(1, BIG);
        uint64_t vals[PER_TRIAL + 1];
        for (uint64_t t = 1; t <= TRIALS; t++) {
            for (int i = 0; i < PER_TRIAL; i++) {
                /* between the word's puts, bulk of a random size to the same target */
                size_t len = (size_t)(next_random(&seed) % 8192) + 1;
                CHECK(ordo_put_nb(s, src, len, r, 1, offsetof(area_t, data), 0, NULL) >= 0);
                vals[i] = t * 1000 + (uint64_t)i;
                CHECK(ordo_put_nbi(s, &vals[i], 8, r, 1, offsetof(area_t, word), 0) >= 0);
            }
            vals[PER_TRIAL] = t;
            CHECK(ordo_put_nb(s, &vals[PER_TRIAL], 8, r, 1, offsetof(area_t, flag), 0, NULL) >=
                  0);
            CHECK_OK(ordo_quiet(s));   /* vals[] is reused */
        }
        free(src);
        uint64_t n = reordered() - before;
        CHECK(n == 0);
        if (n)
            fprintf(stderr, "%s: %llu completions out of issue order\n", ordo_order_name(order),
                    (unsigned long long)n);
    } else if (ordo_rank() == 1) {
        _Atomic uint64_t *word = (_Atomic uint64_t *)&mine->word;
        _Atomic uint64_t *flag = (_Atomic uint64_t *)&mine->flag;
        uint64_t last = 0, flag_seen = 0;
        int backwards = 0, stale = 0;
        while (flag_seen < TRIALS) {
            ordo_progress();
            uint64_t f = atomic_load_explicit(flag, memory_order_acquire);
            uint64_t w = atomic_load_explicit(word, memory_order_acquire);
            if (w < last)
                backwards++;
            last = w;
            if (f > flag_seen) {
                /* the flag came after the trial's last word */
                if (w < f * 1000 + PER_TRIAL - 1)
                    stale++;
                flag_seen = f;
            }
        }
        if (backwards || stale)
            fprintf(stderr, "%s: the word went back %d times, was stale behind its flag %d "
                            "times\n", ordo_order_name(order), backwards, stale);
        CHECK(backwards == 0);
        CHECK(stale == 0);
    }
    CHECK_OK(ordo_barrier());
    CHECK_OK(ordo_stream_destroy(s));
}

int main(int argc, char **argv)
{
    int expect = argc > 1 && strcmp(argv[1], "expect-reorder") == 0;
    REQUIRE_OK(ordo_init(NULL));
    if (ordo_size() != 2) {
        fprintf(stderr, "test_lanes runs on 2 ranks\n");
        ordo_finalize();
        return 2;
    }
    area_t *mine;
    ordo_region_h r;
    REQUIRE_OK(ordo_region_alloc(sizeof(area_t), 0, &r, (void **)&mine));
    relaxed_reorders(r, expect);
    const char *lanes = getenv("ORDO_OFI_LANES");
    if (ordo_node_count() > 1)
        relaxed_keeps_short_puts_together(r, lanes ? atoi(lanes) : 1);
    ordered_modes_hold(r, mine, ORDO_ORDER_STRICT, 0x1234567u);
    ordered_modes_hold(r, mine, ORDO_ORDER_DEFAULT, 0x89abcdefu);
    CHECK_OK(ordo_region_free(r));
    CHECK_OK(ordo_finalize());
    return test_result("test_lanes");
}
