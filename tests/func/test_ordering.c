/* Ordering semantics of each mode.  Rank 0 writes a large block (engine)
 * and then a small flag (PIO) into rank 1; rank 1 polls the flag and
 * checks the block the moment it sees it.  Under strict and default the
 * block must be complete; under relaxed it need not be, but is after
 * quiet.  Also: strict get-after-put, the per-operation fenced flag and
 * ordo_fence on a relaxed stream, and the enforcement counters. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"

#define BLOCK (2u << 20)
#define ROUNDS 6

typedef struct { char data[BLOCK]; _Alignas(64) uint64_t flag; } area_t;

static void check_block(const char *what, const area_t *a, const char *expect,
                        int must_be_complete, int *seen_incomplete)
{
    int ok = memcmp(a->data, expect, BLOCK) == 0;
    if (!ok && must_be_complete) {
        fprintf(stderr, "[rank 1] %s: flag seen before the data that preceded it\n", what);
        test_failures++;
    }
    if (!ok)
        (*seen_incomplete)++;
}

/* mode: stream order; flags for the flag put; use_fence: ordo_fence between */
static void flag_after_block(ordo_order_t order, unsigned flags, int use_fence, int must_order)
{
    const char *what = ordo_order_name(order);
    ordo_stream_params_t sp = {.field_mask = ORDO_STREAM_FIELD_ORDER, .order = order};
    ordo_stream_h s;
    REQUIRE_OK(ordo_stream_create(&sp, &s));
    area_t *mine;
    ordo_region_h r;
    REQUIRE_OK(ordo_region_alloc(sizeof(area_t), 0, &r, (void **)&mine));
    char *src = malloc(BLOCK);
    int incomplete = 0;
    for (uint64_t round = 1; round <= ROUNDS; round++) {
        if (ordo_rank() == 0) {
            test_fill(src, BLOCK, round);
            CHECK_OK(ordo_barrier());
            ordo_status_t st = ordo_put_nb(s, src, BLOCK, r, 1, 0, 0, NULL);
            CHECK(st == ORDO_OK || st == ORDO_INPROGRESS);
            if (use_fence)
                CHECK_OK(ordo_fence(s));
            CHECK_OK(ordo_put(s, &round, sizeof(round), r, 1, offsetof(area_t, flag), flags));
            CHECK_OK(ordo_quiet(s));
            CHECK_OK(ordo_barrier());
        } else if (ordo_rank() == 1) {
            test_fill(src, BLOCK, round);   /* the expected block, ready before polling */
            CHECK_OK(ordo_barrier());
            _Atomic uint64_t *flag = (_Atomic uint64_t *)&mine->flag;
            while (atomic_load_explicit(flag, memory_order_acquire) != round)
                ;
            check_block(what, mine, src, must_order, &incomplete);
            CHECK_OK(ordo_barrier());
            /* after rank 0's quiet + barrier, everything is there */
            check_block(what, mine, src, 1, &incomplete);
        } else {
            CHECK_OK(ordo_barrier());
            CHECK_OK(ordo_barrier());
        }
    }
    if (ordo_rank() == 1 && !must_order)
        printf("%s%s%s: flag overtook data in %d of %d rounds\n", what,
               flags ? " +fenced" : "", use_fence ? " +fence" : "", incomplete, ROUNDS);
    free(src);
    CHECK_OK(ordo_region_free(r));
    CHECK_OK(ordo_stream_destroy(s));
}

static void strict_get_after_put(void)
{
    ordo_stream_params_t sp = {.field_mask = ORDO_STREAM_FIELD_ORDER, .order = ORDO_ORDER_STRICT};
    ordo_stream_h s;
    REQUIRE_OK(ordo_stream_create(&sp, &s));
    char *base;
    ordo_region_h r;
    REQUIRE_OK(ordo_region_alloc(BLOCK, 0, &r, (void **)&base));
    int target = (ordo_rank() + 1) % ordo_size();
    char *src = malloc(BLOCK), *dst = malloc(BLOCK);
    for (int i = 0; i < 4; i++) {
        test_fill(src, BLOCK, (uint64_t)(ordo_rank() * 10 + i));
        ordo_request_h req = NULL;
        ordo_status_t st = ordo_put_nb(s, src, BLOCK, r, target, 0, 0, &req);
        CHECK(st == ORDO_OK || st == ORDO_INPROGRESS);
        /* a small get of the last bytes, issued while the put may be in flight */
        uint64_t tail = 0;
        CHECK_OK(ordo_get(s, &tail, sizeof(tail), r, target, BLOCK - 8, 0));
        CHECK(memcmp(&tail, src + BLOCK - 8, 8) == 0);
        /* and a large non-blocking get */
        ordo_request_h g = NULL;
        st = ordo_get_nb(s, dst, BLOCK, r, target, 0, 0, &g);
        CHECK(st == ORDO_OK || st == ORDO_INPROGRESS);
        CHECK_OK(ordo_request_wait(&g, NULL));
        CHECK_OK(ordo_request_wait(&req, NULL));
        CHECK(memcmp(dst, src, BLOCK) == 0);
    }
    CHECK_OK(ordo_quiet(s));
    free(src);
    free(dst);
    CHECK_OK(ordo_region_free(r));
    CHECK_OK(ordo_stream_destroy(s));
}

/* A relaxed stream's small puts are never held back; a strict one's are when
 * a large put to the same target is in flight. */
static void counters(void)
{
    ordo_stats_t a, b;
    char *base;
    ordo_region_h r;
    REQUIRE_OK(ordo_region_alloc(BLOCK + 64, 0, &r, (void **)&base));
    char *src = calloc(1, BLOCK);
    int target = (ordo_rank() + 1) % ordo_size();
    for (int m = ORDO_ORDER_STRICT; m <= ORDO_ORDER_RELAXED; m++) {
        ordo_stream_params_t sp = {.field_mask = ORDO_STREAM_FIELD_ORDER, .order = (ordo_order_t)m};
        ordo_stream_h s;
        REQUIRE_OK(ordo_stream_create(&sp, &s));
        CHECK_OK(ordo_stats_get(&a));
        for (int i = 0; i < 8; i++) {
            CHECK(ordo_put_nb(s, src, BLOCK, r, target, 0, 0, NULL) >= 0);
            uint64_t v = (uint64_t)i;
            CHECK_OK(ordo_put_nb(s, &v, 8, r, target, BLOCK, 0, NULL));
        }
        CHECK_OK(ordo_quiet(s));
        CHECK_OK(ordo_stats_get(&b));
        /* the 16 puts counted under this stream's mode, and no other */
        for (int o = ORDO_ORDER_STRICT; o <= ORDO_ORDER_RELAXED; o++)
            CHECK(b.ops_by_order[o] - a.ops_by_order[o] == (o == m ? 16u : 0u));
        uint64_t deferred = b.ops_deferred - a.ops_deferred;
        if (m == ORDO_ORDER_RELAXED)
            CHECK(deferred == 0);
        else if (b.engine_ops > a.engine_ops)
            CHECK(deferred > 0);
        CHECK(b.fences_inserted >= a.fences_inserted);

        /* a small put held back behind a large one is locally complete at
         * once: no request is handed out */
        ordo_request_h pr = (ordo_request_h)&a;   /* garbage the call must overwrite */
        CHECK(ordo_put_nb(s, src, BLOCK, r, target, 0, 0, NULL) >= 0);
        uint64_t small = 7;
        CHECK_OK(ordo_put_nb(s, &small, 8, r, target, BLOCK, 0, &pr));
        CHECK(pr == NULL);
        CHECK_OK(ordo_quiet(s));

        /* a get after a large put in flight: held back only under strict */
        CHECK_OK(ordo_stats_get(&a));
        uint64_t got;
        ordo_request_h g = NULL;
        CHECK(ordo_put_nb(s, src, BLOCK, r, target, 0, 0, NULL) >= 0);
        CHECK(ordo_get_nb(s, &got, 8, r, target, BLOCK, 0, &g) >= 0);
        CHECK_OK(ordo_request_wait(&g, NULL));
        CHECK_OK(ordo_quiet(s));
        CHECK_OK(ordo_stats_get(&b));
        if (b.engine_ops > a.engine_ops)
            CHECK((b.ops_deferred > a.ops_deferred) == (m == ORDO_ORDER_STRICT));
        CHECK_OK(ordo_stream_destroy(s));
        /* a destroyed stream's operations still count, under its mode */
        CHECK_OK(ordo_stats_get(&a));
        CHECK(a.ops_by_order[m] == b.ops_by_order[m]);
    }
    free(src);
    CHECK_OK(ordo_region_free(r));
}

int main(void)
{
    REQUIRE_OK(ordo_init(NULL));
    if (ordo_size() >= 2) {
        flag_after_block(ORDO_ORDER_STRICT, 0, 0, 1);
        flag_after_block(ORDO_ORDER_DEFAULT, 0, 0, 1);
        flag_after_block(ORDO_ORDER_RELAXED, 0, 0, 0);
        flag_after_block(ORDO_ORDER_RELAXED, ORDO_OP_FENCED, 0, 1);
        flag_after_block(ORDO_ORDER_RELAXED, 0, 1, 1);
    }
    strict_get_after_put();
    counters();
    CHECK_OK(ordo_finalize());
    return test_result("test_ordering");
}
