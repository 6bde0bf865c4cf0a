/* The network transport's limit of RMA bytes in flight to one peer on one
 * lane (ORDO_OFI_INFLIGHT_MAX; run under ordorun --nodes 2 -n 2 with the
 * limit at 64K, argument "held"; or with it off, argument "unlimited").
 *
 * - a window of puts past the limit is held (rma_held counts them where
 *   the limit is on, never where it is off, nor on a strict stream, which
 *   waits for each put itself) and arrives intact;
 * - on a default stream, puts to one range in turn end with the last one's
 *   data, and an atomic issued behind held puts is applied after them;
 * - puts larger than the limit go (two at once) and arrive;
 * - a window of gets past the limit reads what is there;
 * - a relaxed stream's window (spread over lanes where there are several)
 *   arrives intact. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"

#define PIECE   (48u << 10)    /* two of them pass a limit of 64K */
#define WINDOW  24
#define LARGE   (256u << 10)   /* larger than the limit: two go at once */
#define AREA    (WINDOW * PIECE)
#define WORD_AT (PIECE - 64)   /* inside the range every turn writes */

/* a non-blocking call: done at once, or in progress */
#define NB_OK(expr)                                                   \
    do {                                                              \
        ordo_status_t nb_ = (expr);                                   \
        CHECK(nb_ == ORDO_OK || nb_ == ORDO_INPROGRESS);              \
    } while (0)

static uint64_t held(void)
{
    ordo_stats_t s;
    CHECK_OK(ordo_stats_get(&s));
    return s.rma_held;
}

static ordo_stream_h stream_of(ordo_order_t order)
{
    ordo_stream_params_t p = {.field_mask = ORDO_STREAM_FIELD_ORDER, .order = order};
    ordo_stream_h s;
    REQUIRE_OK(ordo_stream_create(&p, &s));
    return s;
}

/* Rank 0 puts a window of distinct pieces to rank 1; rank 1 checks them. */
static void window_arrives(ordo_region_h r, char *mine, char *src, ordo_order_t order,
                           uint64_t seed, uint64_t *held_p)
{
    ordo_stream_h s = stream_of(order);
    memset(mine, 0, AREA);
    CHECK_OK(ordo_barrier());
    if (ordo_rank() == 0) {
        uint64_t before = held();
        for (int i = 0; i < WINDOW; i++) {
            test_fill(src + (size_t)i * PIECE, PIECE, seed + (uint64_t)i);
            NB_OK(ordo_put_nb(s, src + (size_t)i * PIECE, PIECE, r, 1, (size_t)i * PIECE, 0,
                                 NULL));
        }
        CHECK_OK(ordo_flush(s, 1));
        if (order == ORDO_ORDER_STRICT)   /* it waits for each anyway */
            CHECK(held() == before);
        *held_p += held() - before;
    }
    CHECK_OK(ordo_barrier());
    if (ordo_rank() == 1) {
        char *want = malloc(PIECE);
        for (int i = 0; i < WINDOW && want; i++) {
            test_fill(want, PIECE, seed + (uint64_t)i);
            CHECK(memcmp(mine + (size_t)i * PIECE, want, PIECE) == 0);
        }
        free(want);
    }
    CHECK_OK(ordo_stream_destroy(s));
}

/* Default stream: WINDOW puts to the same range, each with its own data,
 * then an atomic add to a word the last put wrote: the range ends with the
 * last put's data and the word with its value plus the add. */
static void default_order_kept(ordo_region_h r, char *mine, char *src)
{
    ordo_stream_h s = stream_of(ORDO_ORDER_DEFAULT);
    memset(mine, 0, AREA);
    CHECK_OK(ordo_barrier());
    if (ordo_rank() == 0) {
        for (int i = 0; i < WINDOW; i++) {
            char *p = src + (size_t)i * PIECE;
            test_fill(p, PIECE, 500 + (uint64_t)i);
            uint64_t w = 1000 * (uint64_t)(i + 1);
            memcpy(p + WORD_AT, &w, 8);
            NB_OK(ordo_put_nb(s, p, PIECE, r, 1, 0, 0, NULL));
        }
        uint64_t one = 1;
        NB_OK(ordo_atomic_nb(s, ORDO_ATOMIC_ADD, ORDO_UINT64, &one, NULL, NULL, r, 1,
                                WORD_AT, 0, NULL));
        CHECK_OK(ordo_flush(s, 1));
    }
    CHECK_OK(ordo_barrier());
    if (ordo_rank() == 1) {
        char *want = malloc(PIECE);
        if (want) {
            test_fill(want, PIECE, 500 + WINDOW - 1);
            uint64_t w = 1000 * (uint64_t)WINDOW + 1;
            memcpy(want + WORD_AT, &w, 8);
            CHECK(memcmp(mine, want, PIECE) == 0);
        }
        free(want);
    }
    CHECK_OK(ordo_stream_destroy(s));
}

static void large_ones_go_two_at_once(ordo_region_h r, char *mine, char *src)
{
    ordo_stream_h s = stream_of(ORDO_ORDER_DEFAULT);
    memset(mine, 0, 3 * LARGE);
    CHECK_OK(ordo_barrier());
    if (ordo_rank() == 0) {
        test_fill(src, LARGE, 77);
        NB_OK(ordo_put_nb(s, src, LARGE, r, 1, 0, 0, NULL));
        NB_OK(ordo_put_nb(s, src, LARGE, r, 1, LARGE, 0, NULL));
        NB_OK(ordo_put_nb(s, src, LARGE, r, 1, 2 * LARGE, 0, NULL));   /* held behind them */
        CHECK_OK(ordo_flush(s, 1));
    }
    CHECK_OK(ordo_barrier());
    if (ordo_rank() == 1) {
        char *want = malloc(LARGE);
        if (want) {
            test_fill(want, LARGE, 77);
            CHECK(memcmp(mine, want, LARGE) == 0);
            CHECK(memcmp(mine + LARGE, want, LARGE) == 0);
            CHECK(memcmp(mine + 2 * LARGE, want, LARGE) == 0);
        }
        free(want);
    }
    CHECK_OK(ordo_stream_destroy(s));
}

/* Rank 0 reads a window of pieces of rank 1's area. */
static void gets_read(ordo_region_h r, char *mine, char *dst, int limited)
{
    ordo_stream_h s = stream_of(ORDO_ORDER_RELAXED);
    if (ordo_rank() == 1)
        for (int i = 0; i < WINDOW; i++)
            test_fill(mine + (size_t)i * PIECE, PIECE, 900 + (uint64_t)i);
    CHECK_OK(ordo_barrier());
    if (ordo_rank() == 0) {
        uint64_t before = held();
        memset(dst, 0, AREA);
        for (int i = 0; i < WINDOW; i++)
            NB_OK(ordo_get_nb(s, dst + (size_t)i * PIECE, PIECE, r, 1, (size_t)i * PIECE, 0,
                                 NULL));
        CHECK_OK(ordo_flush(s, 1));
        CHECK((held() > before) == limited);
        char *want = malloc(PIECE);
        for (int i = 0; i < WINDOW && want; i++) {
            test_fill(want, PIECE, 900 + (uint64_t)i);
            CHECK(memcmp(dst + (size_t)i * PIECE, want, PIECE) == 0);
        }
        free(want);
    }
    CHECK_OK(ordo_barrier());
    CHECK_OK(ordo_stream_destroy(s));
}

int main(int argc, char **argv)
{
    int limited = !(argc > 1 && strcmp(argv[1], "unlimited") == 0);
    test_init_two_nodes();
    char *mine, *local = malloc(AREA);
    ordo_region_h r;
    REQUIRE_OK(ordo_region_alloc(AREA, 0, &r, (void **)&mine));
    if (local == NULL) {
        fprintf(stderr, "test_ofi_inflight: out of memory\n");
        return 1;
    }
    /* a default stream over several lanes may wait for each put itself;
     * the relaxed one's lane holds them */
    uint64_t windows_held = 0;
    for (int m = ORDO_ORDER_STRICT; m <= ORDO_ORDER_RELAXED; m++)
        window_arrives(r, mine, local, (ordo_order_t)m, 100 * (uint64_t)(m + 1), &windows_held);
    if (ordo_rank() == 0)
        CHECK((windows_held > 0) == limited);
    default_order_kept(r, mine, local);
    large_ones_go_two_at_once(r, mine, local);
    gets_read(r, mine, local, limited);
    CHECK_OK(ordo_region_free(r));
    free(local);
    CHECK_OK(ordo_finalize());
    return test_result("test_ofi_inflight");
}
