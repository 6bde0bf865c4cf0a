/* Long puts over the network transport, which a kernel-socket provider
 * carries in pieces of 512 KiB, each posted when the one before completes
 * (run under ordorun --nodes 2 -n 2).
 *
 * - a put of several pieces and a ragged tail arrives intact in every
 *   ordering mode, and a get reads it back;
 * - on a default stream, what follows a long put is not passed by it: a
 *   short put and a longer one into its last piece, issued at once behind
 *   it, end with their own data there, and an atomic add to a word of its
 *   last piece applies to the long put's value;
 * - a relaxed stream's window of long puts to distinct places arrives. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"

#define LONG   ((size_t)(3u << 20) + 12345)   /* six pieces and a tail */
#define AREA   ((size_t)8 << 20)
#define TAIL_AT (LONG - 4096)                 /* inside the long put's last piece */
#define WORD_AT ((LONG - 1024) & ~(size_t)7)

#define NB_OK(expr)                                                   \
    do {                                                              \
        ordo_status_t nb_ = (expr);                                   \
        CHECK(nb_ == ORDO_OK || nb_ == ORDO_INPROGRESS);              \
    } while (0)

static ordo_stream_h stream_of(ordo_order_t order)
{
    ordo_stream_params_t p = {.field_mask = ORDO_STREAM_FIELD_ORDER, .order = order};
    ordo_stream_h s;
    REQUIRE_OK(ordo_stream_create(&p, &s));
    return s;
}

static void long_put_arrives(ordo_region_h r, char *mine, char *src, char *back,
                             ordo_order_t order)
{
    ordo_stream_h s = stream_of(order);
    uint64_t seed = 70 + (uint64_t)order;
    memset(mine, 0, AREA);
    CHECK_OK(ordo_barrier());
    if (ordo_rank() == 0) {
        test_fill(src, LONG, seed);
        NB_OK(ordo_put_nb(s, src, LONG, r, 1, 100, 0, NULL));   /* not on a piece's edge */
        CHECK_OK(ordo_flush(s, 1));
        memset(back, 0, LONG);
        CHECK_OK(ordo_get(s, back, LONG, r, 1, 100, 0));
        CHECK(memcmp(back, src, LONG) == 0);
    }
    CHECK_OK(ordo_barrier());
    if (ordo_rank() == 1) {
        test_fill(src, LONG, seed);
        CHECK(memcmp(mine + 100, src, LONG) == 0);
        CHECK(mine[99] == 0 && mine[100 + LONG] == 0);
    }
    CHECK_OK(ordo_stream_destroy(s));
}

static void default_keeps_what_follows(ordo_region_h r, char *mine, char *src)
{
    ordo_stream_h s = stream_of(ORDO_ORDER_DEFAULT);
    memset(mine, 0, AREA);
    CHECK_OK(ordo_barrier());
    static char shortp[8], mid[20000];
    uint64_t word = 0x5eed0000, one = 1, old = 0;
    if (ordo_rank() == 0) {
        for (int round = 0; round < 3; round++) {
            test_fill(src, LONG, 300 + (uint64_t)round);
            memcpy(src + WORD_AT, &word, 8);
            test_fill(shortp, sizeof(shortp), 400 + (uint64_t)round);
            test_fill(mid, sizeof(mid), 500 + (uint64_t)round);
            NB_OK(ordo_put_nb(s, src, LONG, r, 1, 0, 0, NULL));
            NB_OK(ordo_put_nb(s, shortp, sizeof(shortp), r, 1, TAIL_AT, 0, NULL));
            NB_OK(ordo_put_nb(s, mid, sizeof(mid), r, 1, LONG - sizeof(mid) - 8192, 0, NULL));
            CHECK_OK(ordo_atomic(s, ORDO_ATOMIC_ADD, ORDO_UINT64, &one, NULL, &old, r, 1,
                                 WORD_AT, 0));
            CHECK(old == word);   /* the long put's word, not what was there before */
            CHECK_OK(ordo_flush(s, 1));
        }
    }
    CHECK_OK(ordo_barrier());
    if (ordo_rank() == 1) {
        char *want = malloc(LONG);
        if (want) {
            test_fill(want, LONG, 302);
            uint64_t added = word + 1;
            memcpy(want + WORD_AT, &added, 8);
            test_fill(mid, sizeof(mid), 502);
            memcpy(want + LONG - sizeof(mid) - 8192, mid, sizeof(mid));
            test_fill(shortp, sizeof(shortp), 402);
            memcpy(want + TAIL_AT, shortp, sizeof(shortp));
            CHECK(memcmp(mine + TAIL_AT, shortp, sizeof(shortp)) == 0);
            CHECK(memcmp(mine, want, LONG) == 0);
        }
        free(want);
    }
    CHECK_OK(ordo_stream_destroy(s));
}

static void relaxed_window_arrives(ordo_region_h r, char *mine, char *src)
{
    enum { N = 4 };
    const size_t len = (size_t)(1u << 20) + 4096;
    ordo_stream_h s = stream_of(ORDO_ORDER_RELAXED);
    memset(mine, 0, AREA);
    CHECK_OK(ordo_barrier());
    if (ordo_rank() == 0) {
        for (int i = 0; i < N; i++) {
            test_fill(src + (size_t)i * len, len, 600 + (uint64_t)i);
            NB_OK(ordo_put_nb(s, src + (size_t)i * len, len, r, 1, (size_t)i * len, 0, NULL));
        }
        CHECK_OK(ordo_flush(s, 1));
    }
    CHECK_OK(ordo_barrier());
    if (ordo_rank() == 1) {
        for (int i = 0; i < N; i++) {
            test_fill(src, len, 600 + (uint64_t)i);
            CHECK(memcmp(mine + (size_t)i * len, src, len) == 0);
        }
    }
    CHECK_OK(ordo_stream_destroy(s));
}

int main(void)
{
    test_init_two_nodes();
    char *mine, *src = malloc(AREA), *back = malloc(LONG);
    ordo_region_h r;
    REQUIRE_OK(ordo_region_alloc(AREA, 0, &r, (void **)&mine));
    if (src == NULL || back == NULL) {
        fprintf(stderr, "test_ofi_pieces: out of memory\n");
        return 1;
    }
    for (int m = ORDO_ORDER_STRICT; m <= ORDO_ORDER_RELAXED; m++)
        long_put_arrives(r, mine, src, back, (ordo_order_t)m);
    default_keeps_what_follows(r, mine, src);
    relaxed_window_arrives(r, mine, src);
    CHECK_OK(ordo_region_free(r));
    free(src);
    free(back);
    CHECK_OK(ordo_finalize());
    return test_result("test_ofi_pieces");
}
