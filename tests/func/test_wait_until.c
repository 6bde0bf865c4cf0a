/* ordo_wait_until, ordo_test and the set forms on words of a rank's own
 * region memory that peers write.  Any rank count. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"

static int me, np;

enum { WORDS = 64, FLAG = 0, DATA = 8 * 8, SET = 16 * 8, BYTES = WORDS * 8 };

static void local_comparisons(ordo_region_h r, uint64_t *w)
{
    int flag = -1;
    uint64_t five = 5;
    w[1] = 5;
    size_t off = 8;
    static const struct { ordo_cmp_t cmp; uint64_t v; int expect; } cases[] = {
        {ORDO_CMP_EQ, 5, 1}, {ORDO_CMP_EQ, 6, 0}, {ORDO_CMP_NE, 6, 1}, {ORDO_CMP_NE, 5, 0},
        {ORDO_CMP_GT, 4, 1}, {ORDO_CMP_GT, 5, 0}, {ORDO_CMP_GE, 5, 1}, {ORDO_CMP_GE, 6, 0},
        {ORDO_CMP_LT, 6, 1}, {ORDO_CMP_LT, 5, 0}, {ORDO_CMP_LE, 5, 1}, {ORDO_CMP_LE, 4, 0}};
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        CHECK_OK(ordo_test(r, off, ORDO_UINT64, cases[i].cmp, &cases[i].v, &flag));
        CHECK(flag == cases[i].expect);
    }
    CHECK_OK(ordo_wait_until(r, off, ORDO_UINT64, ORDO_CMP_EQ, &five));
    /* signed and unsigned 32-bit: 0xffffffff is -1 or 4294967295 */
    uint32_t *w32 = (uint32_t *)&w[2];
    w32[0] = 0xffffffffu;
    int32_t zero = 0;
    CHECK_OK(ordo_test(r, 16, ORDO_INT32, ORDO_CMP_LT, &zero, &flag));
    CHECK(flag == 1);
    CHECK_OK(ordo_test(r, 16, ORDO_UINT32, ORDO_CMP_GT, &zero, &flag));
    CHECK(flag == 1);
    int64_t minus1 = -1;
    w[3] = (uint64_t)-2;
    CHECK_OK(ordo_test(r, 24, ORDO_INT64, ORDO_CMP_LT, &minus1, &flag));
    CHECK(flag == 1);
    CHECK_OK(ordo_test(r, 24, ORDO_UINT64, ORDO_CMP_GT, &minus1, &flag));
    CHECK(flag == 0);

    /* errors, each refused by name and changing nothing */
    CHECK_STATUS(ordo_test(r, BYTES - 4, ORDO_UINT64, ORDO_CMP_EQ, &five, &flag),
                 ORDO_ERR_OUT_OF_BOUNDS);
    CHECK_STATUS(ordo_test(r, (size_t)-4, ORDO_UINT32, ORDO_CMP_EQ, &five, &flag),
                 ORDO_ERR_OUT_OF_BOUNDS);
    CHECK_STATUS(ordo_test(r, 4, ORDO_UINT64, ORDO_CMP_EQ, &five, &flag), ORDO_ERR_MISALIGNED);
    CHECK_STATUS(ordo_test(r, 8, (ordo_atomic_type_t)9, ORDO_CMP_EQ, &five, &flag),
                 ORDO_ERR_INVALID_PARAM);
    CHECK_STATUS(ordo_test(r, 8, ORDO_UINT64, (ordo_cmp_t)6, &five, &flag),
                 ORDO_ERR_INVALID_PARAM);
    CHECK_STATUS(ordo_test(r, 8, ORDO_UINT64, ORDO_CMP_EQ, NULL, &flag), ORDO_ERR_INVALID_PARAM);
    CHECK_STATUS(ordo_test(r, 8, ORDO_UINT64, ORDO_CMP_EQ, &five, NULL), ORDO_ERR_INVALID_PARAM);
    CHECK_STATUS(ordo_test(NULL, 8, ORDO_UINT64, ORDO_CMP_EQ, &five, &flag),
                 ORDO_ERR_INVALID_HANDLE);
    size_t idx, offs[2] = {8, BYTES};
    CHECK_STATUS(ordo_wait_until_any(r, offs, 2, ORDO_UINT64, ORDO_CMP_EQ, &five, &idx),
                 ORDO_ERR_OUT_OF_BOUNDS);   /* every word checked before any wait */
    CHECK_STATUS(ordo_wait_until_any(r, offs, 1, ORDO_UINT64, ORDO_CMP_EQ, &five, NULL),
                 ORDO_ERR_INVALID_PARAM);
    CHECK_OK(ordo_wait_until_any(r, offs, 0, ORDO_UINT64, ORDO_CMP_EQ, &five, &idx));
    CHECK(idx == ORDO_INDEX_NONE);
    size_t count = 9;
    CHECK_OK(ordo_wait_until_some(r, NULL, 0, ORDO_UINT64, ORDO_CMP_EQ, &five, NULL, &count));
    CHECK(count == 0);
    memset(w, 0, BYTES);
}

/* Rank me writes data then a flag at its right-hand neighbour, round after
 * round; the neighbour waits for each flag and must see the data. */
static void flags_carry_data(ordo_region_h r, uint64_t *w)
{
    enum { ROUNDS = 200 };
    int right = (me + 1) % np, left = (me + np - 1) % np;
    ordo_stream_params_t sp = {.field_mask = ORDO_STREAM_FIELD_ORDER,
                               .order = ORDO_ORDER_RELAXED};
    ordo_stream_h s;
    REQUIRE_OK(ordo_stream_create(&sp, &s));
    for (uint64_t round = 1; round <= ROUNDS; round++) {
        uint64_t data[4] = {round, round * 3, (uint64_t)me, ~round};
        /* relaxed stream: the fenced flag is what keeps it behind the data */
        CHECK_OK(ordo_put(s, data, sizeof(data), r, right, DATA, 0));
        CHECK_OK(ordo_put(s, &round, 8, r, right, FLAG, ORDO_OP_FENCED));
        CHECK_OK(ordo_wait_until(r, FLAG, ORDO_UINT64, ORDO_CMP_GE, &round));
        CHECK(w[DATA / 8] == round && w[DATA / 8 + 2] == (uint64_t)left);
        CHECK(w[DATA / 8 + 1] == 3 * w[DATA / 8] && w[DATA / 8 + 3] == ~w[DATA / 8]);
        /* the writer may not run ahead of this round: agree before the next */
        CHECK_OK(ordo_coll_barrier(ORDO_COMM_WORLD));
    }
    CHECK_OK(ordo_quiet(s));
    CHECK_OK(ordo_stream_destroy(s));
}

/* Every rank raises its own word of a set at rank 0 by an atomic. */
static void sets(ordo_region_h r, uint64_t *w)
{
    uint64_t one = 1;
    size_t offs[WORDS / 2];
    for (int i = 0; i < np && i < WORDS / 2 - 16; i++)
        offs[i] = SET + (size_t)i * 8;
    int n = np < WORDS / 2 - 16 ? np : WORDS / 2 - 16;
    CHECK_OK(ordo_coll_barrier(ORDO_COMM_WORLD));
    if (me < n)
        CHECK_OK(ordo_atomic(NULL, ORDO_ATOMIC_ADD, ORDO_UINT64, &one, NULL, NULL, r, 0,
                             offs[me], 0));
    CHECK_OK(ordo_quiet(NULL));
    if (me == 0) {
        size_t idx = ORDO_INDEX_NONE, count = 0, indices[WORDS / 2];
        CHECK_OK(ordo_wait_until_any(r, offs, (size_t)n, ORDO_UINT64, ORDO_CMP_EQ, &one, &idx));
        CHECK(idx < (size_t)n && w[offs[idx] / 8] == 1);
        CHECK_OK(ordo_wait_until_some(r, offs, (size_t)n, ORDO_UINT64, ORDO_CMP_NE, &(uint64_t){0},
                                      indices, &count));
        CHECK(count >= 1 && count <= (size_t)n);
        for (size_t k = 0; k < count; k++)
            CHECK(indices[k] < (size_t)n && w[offs[indices[k]] / 8] == 1);
        CHECK_OK(ordo_wait_until_all(r, offs, (size_t)n, ORDO_UINT64, ORDO_CMP_GE, &one));
        for (int i = 0; i < n; i++)
            CHECK(w[offs[i] / 8] == 1);
    }
    CHECK_OK(ordo_coll_barrier(ORDO_COMM_WORLD));
}

int main(void)
{
    REQUIRE_OK(ordo_init(NULL));
    me = ordo_rank();
    np = ordo_size();
    ordo_region_h r;
    void *base;
    REQUIRE_OK(ordo_region_alloc(BYTES, 0, &r, &base));
    uint64_t *w = base;
    memset(w, 0, BYTES);
    local_comparisons(r, w);
    CHECK_OK(ordo_coll_barrier(ORDO_COMM_WORLD));
    flags_carry_data(r, w);
    sets(r, w);
    CHECK_OK(ordo_region_free(r));
    CHECK_OK(ordo_finalize());
    return test_result("test_wait_until");
}
