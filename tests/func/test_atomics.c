/* Remote atomics: every op and width against a local reference; N ranks x
 * M fetch-adds on one counter give exactly N*M; a compare-swap lock guards a
 * get-modify-put critical section. */
#include <stdlib.h>
#include <string.h>

#include "../harness.h"

#define M 2000

typedef struct {
    uint64_t counter64;
    uint32_t counter32;
    uint32_t pad;
    uint64_t lock;
    uint64_t guarded;     /* changed only under the lock, by get + put */
    uint64_t scratch64;
    uint32_t scratch32;
} cell_t;

static uint64_t ref_apply(uint64_t old, ordo_atomic_op_t op, uint64_t v, uint64_t c)
{
    switch (op) {
    case ORDO_ATOMIC_ADD:   return old + v;
    case ORDO_ATOMIC_AND:   return old & v;
    case ORDO_ATOMIC_OR:    return old | v;
    case ORDO_ATOMIC_XOR:   return old ^ v;
    case ORDO_ATOMIC_SWAP:  return v;
    case ORDO_ATOMIC_CSWAP: return old == c ? v : old;
    }
    return old;
}

static void every_op(ordo_region_h r, int target)
{
    uint64_t st = 99 + (uint64_t)ordo_rank();
    for (int width = 4; width <= 8; width += 4) {
        size_t off = width == 4 ? offsetof(cell_t, scratch32) : offsetof(cell_t, scratch64);
        ordo_atomic_type_t type = width == 4 ? ORDO_UINT32 : ORDO_INT64;
        uint64_t mask = width == 4 ? 0xffffffffull : ~0ull;
        uint64_t expect = 0;
        uint64_t zero = 0;
        CHECK_OK(ordo_put(NULL, &zero, (size_t)width, r, target, off, 0));
        for (int i = 0; i < 200; i++) {
            ordo_atomic_op_t op = (ordo_atomic_op_t)(test_rand(&st) % 6);
            uint64_t v = test_rand(&st) & mask, c = (i % 3 == 0) ? expect : test_rand(&st) & mask;
            uint64_t old = 0, res = 0;
            if (width == 4) {
                uint32_t v32 = (uint32_t)v, c32 = (uint32_t)c, r32 = 0;
                CHECK_OK(ordo_atomic(NULL, op, type, &v32, &c32, &r32, r, target, off, 0));
                res = r32;
            } else {
                CHECK_OK(ordo_atomic(NULL, op, type, &v, &c, &res, r, target, off, 0));
            }
            old = res;
            CHECK(old == expect);
            expect = ref_apply(expect, op, v, c) & mask;
        }
    }
}

int main(void)
{
    REQUIRE_OK(ordo_init(NULL));
    int me = ordo_rank(), n = ordo_size();
    cell_t *cell;
    ordo_region_h r;
    REQUIRE_OK(ordo_region_alloc(sizeof(cell_t), 0, &r, (void **)&cell));
    CHECK_OK(ordo_barrier());

    /* each rank its own target for the reference check: no interference */
    every_op(r, (me + 1) % n);
    CHECK_OK(ordo_barrier());

    /* contention: everyone adds to rank 0 */
    uint64_t one = 1;
    uint32_t one32 = 1;
    for (int i = 0; i < M; i++) {
        uint64_t old;
        if (i % 2)
            CHECK_OK(ordo_atomic(NULL, ORDO_ATOMIC_ADD, ORDO_UINT64, &one, NULL, &old, r, 0,
                                 offsetof(cell_t, counter64), 0));
        else
            CHECK_OK(ordo_atomic(NULL, ORDO_ATOMIC_ADD, ORDO_UINT64, &one, NULL, NULL, r, 0,
                                 offsetof(cell_t, counter64), 0));
        ordo_request_h req = NULL;
        uint32_t old32;
        ordo_status_t s = ordo_atomic_nb(NULL, ORDO_ATOMIC_ADD, ORDO_UINT32, &one32, NULL,
                                         &old32, r, 0, offsetof(cell_t, counter32), 0, &req);
        CHECK(s == ORDO_OK || s == ORDO_INPROGRESS);
        CHECK_OK(ordo_request_wait(&req, NULL));
    }
    CHECK_OK(ordo_quiet(NULL));
    CHECK_OK(ordo_barrier());
    if (me == 0) {
        CHECK(cell->counter64 == (uint64_t)n * M);
        CHECK(cell->counter32 == (uint32_t)n * M);
    }

    /* compare-swap lock around get + put of a plain counter, on a strict
     * stream so the put is complete before the unlock swap */
    ordo_stream_params_t sp = {.field_mask = ORDO_STREAM_FIELD_ORDER, .order = ORDO_ORDER_STRICT};
    ordo_stream_h s;
    REQUIRE_OK(ordo_stream_create(&sp, &s));
    uint64_t unlocked = 0, mine = (uint64_t)me + 1;
    for (int i = 0; i < M / 4; i++) {
        uint64_t old;
        do {
            CHECK_OK(ordo_atomic(s, ORDO_ATOMIC_CSWAP, ORDO_UINT64, &mine, &unlocked, &old, r, 0,
                                 offsetof(cell_t, lock), 0));
        } while (old != 0);
        uint64_t g;
        CHECK_OK(ordo_get(s, &g, 8, r, 0, offsetof(cell_t, guarded), 0));
        g++;
        CHECK_OK(ordo_put(s, &g, 8, r, 0, offsetof(cell_t, guarded), 0));
        CHECK_OK(ordo_atomic(s, ORDO_ATOMIC_SWAP, ORDO_UINT64, &unlocked, NULL, &old, r, 0,
                             offsetof(cell_t, lock), 0));
        CHECK(old == mine);
    }
    CHECK_OK(ordo_quiet(s));
    CHECK_OK(ordo_barrier());
    if (me == 0)
        CHECK(cell->guarded == (uint64_t)n * (M / 4));
    CHECK_OK(ordo_stream_destroy(s));
    CHECK_OK(ordo_region_free(r));
    CHECK_OK(ordo_finalize());
    return test_result("test_atomics");
}
