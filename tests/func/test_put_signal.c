/* ordo_put_signal: a rank that sees the signal sees the data, in every
 * ordering mode, for small, medium and large puts, blocking and not, on
 * every transport (the functional suite's variants include four network
 * lanes, where a relaxed stream really reorders).  Any rank count: each
 * rank writes to its right-hand neighbour. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"

enum { SIG = 0, DATA = 64, MAXLEN = 70000, BYTES = DATA + MAXLEN + 64 };

static int me, np;

static uint64_t word_of(uint64_t round, int from, size_t i)
{
    return (round << 40) ^ ((uint64_t)from << 32) ^ (uint64_t)i;
}

static void fill(uint64_t *buf, size_t len, uint64_t round, int from)
{
    for (size_t i = 0; i < len / 8; i++)
        buf[i] = word_of(round, from, i);
}

static int seen_whole(const volatile uint64_t *data, size_t len, uint64_t round, int from)
{
    size_t n = len / 8, step = n > 256 ? 97 : 1;
    for (size_t i = 0; i < n; i += step)
        if (data[i] != word_of(round, from, i))
            return 0;
    return data[n - 1] == word_of(round, from, n - 1);
}

static void litmus(ordo_region_h r, uint64_t *base, ordo_order_t order, size_t len, int rounds)
{
    ordo_stream_params_t sp = {.field_mask = ORDO_STREAM_FIELD_ORDER, .order = order};
    ordo_stream_h s;
    REQUIRE_OK(ordo_stream_create(&sp, &s));
    int right = (me + 1) % np, left = (me + np - 1) % np;
    uint64_t *src = malloc(len);
    int bad = 0;
    for (int k = 1; k <= rounds; k++) {
        uint64_t round = (uint64_t)k;
        fill(src, len, round, me);
        ordo_signal_op_t op = k % 2 ? ORDO_SIGNAL_SET : ORDO_SIGNAL_ADD;
        /* SET writes the round; ADD adds one to the previous round's value */
        uint64_t value = op == ORDO_SIGNAL_SET ? round : 1;
        switch (k % 3) {
        case 0:
            CHECK_OK(ordo_put_signal(s, src, len, r, right, DATA, SIG, value, op, 0));
            break;
        case 1: {
            ordo_request_h req = NULL;
            ordo_status_t st = ordo_put_signal_nb(s, src, len, r, right, DATA, SIG, value, op, 0,
                                                  &req);
            CHECK(st == ORDO_OK || st == ORDO_INPROGRESS);
            if (st == ORDO_INPROGRESS)
                CHECK_OK(ordo_request_wait(&req, NULL));
            break;
        }
        default: {   /* implicit: complete by the quiet below */
            ordo_status_t st = ordo_put_signal_nb(s, src, len, r, right, DATA, SIG, value, op, 0,
                                                  NULL);
            CHECK(st == ORDO_OK || st == ORDO_INPROGRESS);
            break;
        }
        }
        CHECK_OK(ordo_wait_until(r, SIG, ORDO_UINT64, ORDO_CMP_GE, &round));
        if (!seen_whole((const volatile uint64_t *)((char *)base + DATA), len, round, left))
            bad++;
        CHECK_OK(ordo_quiet(s));   /* src is reused next round */
        CHECK_OK(ordo_coll_barrier(ORDO_COMM_WORLD));
    }
    if (bad)
        fprintf(stderr, "[rank %d] %s, %zu B: the signal came before the data %d time(s) in %d\n",
                me, ordo_order_name(order), len, bad, rounds);
    CHECK(bad == 0);
    __atomic_store_n(&base[SIG / 8], 0, __ATOMIC_RELAXED);
    CHECK_OK(ordo_coll_barrier(ORDO_COMM_WORLD));
    free(src);
    CHECK_OK(ordo_stream_destroy(s));
}

static void errors(ordo_region_h r, uint64_t *base)
{
    uint64_t v = 77;
    int right = (me + 1) % np;
    CHECK_STATUS(ordo_put_signal(NULL, &v, 8, r, right, DATA, SIG + 4, 1, ORDO_SIGNAL_SET, 0),
                 ORDO_ERR_MISALIGNED);
    CHECK_STATUS(ordo_put_signal(NULL, &v, 8, r, right, DATA, BYTES - 4, 1, ORDO_SIGNAL_SET, 0),
                 ORDO_ERR_OUT_OF_BOUNDS);
    CHECK_STATUS(ordo_put_signal(NULL, &v, 8, r, right, DATA, SIG, 1, (ordo_signal_op_t)2, 0),
                 ORDO_ERR_INVALID_PARAM);
    CHECK_STATUS(ordo_put_signal(NULL, &v, 8, NULL, right, DATA, SIG, 1, ORDO_SIGNAL_SET, 0),
                 ORDO_ERR_INVALID_HANDLE);
    CHECK_STATUS(ordo_put_signal(NULL, &v, 8, r, np + 3, DATA, SIG, 1, ORDO_SIGNAL_SET, 0),
                 ORDO_ERR_INVALID_RANK);
    CHECK_OK(ordo_put_signal(NULL, &v, 8, r, ORDO_PROC_NULL, DATA, SIG, 1, ORDO_SIGNAL_SET, 0));
    CHECK_OK(ordo_quiet(NULL));
    CHECK_OK(ordo_coll_barrier(ORDO_COMM_WORLD));
    /* nothing moved: the refused calls checked the signal word first */
    CHECK(base[SIG / 8] == 0 && base[DATA / 8] != 77);
    CHECK_OK(ordo_coll_barrier(ORDO_COMM_WORLD));   /* everybody looked before anybody puts */
    ordo_stats_t st0, st1;
    CHECK_OK(ordo_stats_get(&st0));
    CHECK_OK(ordo_put_signal(NULL, &v, 8, r, right, DATA, SIG, 5, ORDO_SIGNAL_SET, 0));
    CHECK_OK(ordo_stats_get(&st1));
    CHECK(st1.signals == st0.signals + 1);
    uint64_t five = 5;
    CHECK_OK(ordo_wait_until(r, SIG, ORDO_UINT64, ORDO_CMP_EQ, &five));
    CHECK(base[DATA / 8] == 77);
    CHECK_OK(ordo_coll_barrier(ORDO_COMM_WORLD));
    base[SIG / 8] = 0;
    CHECK_OK(ordo_coll_barrier(ORDO_COMM_WORLD));
}

int main(void)
{
    REQUIRE_OK(ordo_init(NULL));
    me = ordo_rank();
    np = ordo_size();
    ordo_region_h r;
    void *mem;
    REQUIRE_OK(ordo_region_alloc(BYTES, 0, &r, &mem));
    uint64_t *base = mem;
    memset(base, 0, BYTES);
    CHECK_OK(ordo_coll_barrier(ORDO_COMM_WORLD));
    errors(r, base);
    static const ordo_order_t orders[] = {ORDO_ORDER_STRICT, ORDO_ORDER_DEFAULT,
                                          ORDO_ORDER_RELAXED};
    static const struct { size_t len; int rounds; } sizes[] = {{8, 300}, {1000, 200},
                                                                {MAXLEN, 30}};
    for (size_t o = 0; o < 3; o++)
        for (size_t z = 0; z < 3; z++)
            litmus(r, base, orders[o], sizes[z].len, sizes[z].rounds);
    CHECK_OK(ordo_region_free(r));
    CHECK_OK(ordo_finalize());
    return test_result("test_put_signal");
}
