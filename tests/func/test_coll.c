/* Collectives against references computed locally: every rank can make
 * every other rank's data from the seed, so each result is checked exactly.
 * Runs on the world and on a subset context (every rank but rank 1), with
 * whatever algorithms the ORDO_COLL_* settings force; non-blocking ones are
 * overlapped with each other and with the program's own messages. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"

static int me, np;

/* Element k of member rank's contribution in trial t: small integers, so
 * float and double sums and products are exact in any order. */
static double value(int rank, int t, size_t k, int rop)
{
    uint64_t s = ((uint64_t)rank << 40) ^ ((uint64_t)t << 20) ^ k;
    uint64_t r = test_rand(&s) ^ test_rand(&s);
    if (rop == ORDO_REDUCE_PROD)
        return (double)(1 + (r % 2));          /* at most 2^8 over 8 ranks */
    return (double)((int64_t)(r % 2001) - 1000);
}

static size_t esize(ordo_dtype_t dt)
{
    return dt == ORDO_DT_INT32 || dt == ORDO_DT_FLOAT ? 4 : 8;
}

static void store(void *buf, size_t k, ordo_dtype_t dt, double v)
{
    switch (dt) {
    case ORDO_DT_INT32: ((int32_t *)buf)[k] = (int32_t)v; break;
    case ORDO_DT_INT64: ((int64_t *)buf)[k] = (int64_t)v * 1000003; break;
    case ORDO_DT_FLOAT: ((float *)buf)[k] = (float)v; break;
    case ORDO_DT_DOUBLE: ((double *)buf)[k] = v; break;
    }
}

/* The reference: combine member contributions in member order. */
static void reference(void *out, const int *members, int n, int t, size_t count,
                      ordo_dtype_t dt, ordo_reduce_op_t rop)
{
    char *one = malloc(count * esize(dt) + 1);
    for (int m = 0; m < n; m++) {
        char *dst = m == 0 ? out : one;
        for (size_t k = 0; k < count; k++)
            store(dst, k, dt, value(members[m], t, k, rop));
        if (m == 0)
            continue;
        for (size_t k = 0; k < count; k++) {
#define COMBINE(T)                                                            \
            do {                                                              \
                T *a = (T *)out + k, b = ((T *)one)[k];                       \
                switch (rop) {                                                \
                case ORDO_REDUCE_SUM: *a = (T)(*a + b); break;                \
                case ORDO_REDUCE_MIN: *a = b < *a ? b : *a; break;            \
                case ORDO_REDUCE_MAX: *a = b > *a ? b : *a; break;            \
                case ORDO_REDUCE_PROD: *a = (T)(*a * b); break;               \
                default: break;                                               \
                }                                                             \
            } while (0)
/* integer sums and products wrap, as the library's do */
#define INTEGER(S, U)                                                         \
            do {                                                              \
                S *a = (S *)out + k, b = ((S *)one)[k];                       \
                switch (rop) {                                                \
                case ORDO_REDUCE_SUM: *a = (S)((U)*a + (U)b); break;          \
                case ORDO_REDUCE_PROD: *a = (S)((U)*a * (U)b); break;         \
                case ORDO_REDUCE_MIN: *a = b < *a ? b : *a; break;            \
                case ORDO_REDUCE_MAX: *a = b > *a ? b : *a; break;            \
                case ORDO_REDUCE_BAND: *a = (S)((U)*a & (U)b); break;         \
                case ORDO_REDUCE_BOR: *a = (S)((U)*a | (U)b); break;          \
                default: break;                                               \
                }                                                             \
            } while (0)
            switch (dt) {
            case ORDO_DT_INT32: INTEGER(int32_t, uint32_t); break;
            case ORDO_DT_INT64: INTEGER(int64_t, uint64_t); break;
            case ORDO_DT_FLOAT: COMBINE(float); break;
            case ORDO_DT_DOUBLE: COMBINE(double); break;
            }
#undef COMBINE
#undef INTEGER
        }
    }
    free(one);
}

static const size_t counts[] = {0, 1, 3, 17, 1000, 20011};
#define NCOUNTS (sizeof(counts) / sizeof(counts[0]))

static void reductions(ordo_comm_h comm, const int *members, int n, int root)
{
    static const ordo_dtype_t dts[] = {ORDO_DT_INT32, ORDO_DT_INT64, ORDO_DT_FLOAT,
                                       ORDO_DT_DOUBLE};
    int t = 0;
    for (size_t ci = 0; ci < NCOUNTS; ci++)
        for (int d = 0; d < 4; d++)
            for (int rop = ORDO_REDUCE_SUM; rop <= ORDO_REDUCE_BOR; rop++) {
                ordo_dtype_t dt = dts[d];
                if (dt >= ORDO_DT_FLOAT && rop >= ORDO_REDUCE_BAND)
                    continue;
                /* the big counts only with sums, to keep the test short */
                if (counts[ci] >= 1000 && rop != ORDO_REDUCE_SUM)
                    continue;
                size_t count = counts[ci], bytes = count * esize(dt);
                char *in = malloc(bytes + 1), *out = malloc(bytes + 1),
                     *want = malloc(bytes + 1);
                for (size_t k = 0; k < count; k++)
                    store(in, k, dt, value(me, t, k, rop));
                reference(want, members, n, t, count, dt, rop);
                memset(out, 0x5a, bytes);
                CHECK_OK(ordo_coll_allreduce(comm, in, out, count, dt, rop));
                CHECK(memcmp(out, want, bytes) == 0);
                /* in place */
                CHECK_OK(ordo_coll_allreduce(comm, in, in, count, dt, rop));
                CHECK(memcmp(in, want, bytes) == 0);
                for (size_t k = 0; k < count; k++)
                    store(in, k, dt, value(me, t, k, rop));
                memset(out, 0x5a, bytes);
                CHECK_OK(ordo_coll_reduce(comm, in, me == root ? out : NULL, count, dt, rop,
                                          root));
                if (me == root)
                    CHECK(memcmp(out, want, bytes) == 0);
                free(in), free(out), free(want);
                t++;
            }
}

static void data_movement(ordo_comm_h comm, const int *members, int n, int root)
{
    static const size_t lens[] = {0, 1, 8, 100, 5000, 70000, 300000};
    for (size_t li = 0; li < sizeof(lens) / sizeof(lens[0]); li++) {
        size_t len = lens[li];
        char *buf = malloc(len + 1), *want = malloc(len + 1);
        test_fill(want, len, 1000 + li * 31 + (size_t)root);
        if (me == root)
            memcpy(buf, want, len);
        else
            memset(buf, 0, len);
        CHECK_OK(ordo_coll_bcast(comm, buf, len, root));
        CHECK(memcmp(buf, want, len) == 0);
        free(buf), free(want);

        if (len > 70000)
            continue;   /* n blocks of it: the rest stays small */
        char *mine = malloc(len + 1), *all = malloc((size_t)n * len + 1),
             *ref = malloc((size_t)n * len + 1);
        test_fill(mine, len, (uint64_t)me * 7919 + li);
        for (int j = 0; j < n; j++)
            test_fill(ref + (size_t)j * len, len, (uint64_t)members[j] * 7919 + li);
        memset(all, 0, (size_t)n * len);
        CHECK_OK(ordo_coll_gather(comm, mine, len, me == root ? all : NULL, root));
        if (me == root)
            CHECK(memcmp(all, ref, (size_t)n * len) == 0);
        memset(all, 0, (size_t)n * len);
        CHECK_OK(ordo_coll_allgather(comm, mine, len, all));
        CHECK(memcmp(all, ref, (size_t)n * len) == 0);
        free(mine), free(all), free(ref);

        /* alltoall: block j of member m is filled from (m, j) */
        size_t blen = len > 20000 ? 20000 : len;
        char *sb = malloc((size_t)n * blen + 1), *rb = malloc((size_t)n * blen + 1),
             *rw = malloc((size_t)n * blen + 1);
        for (int j = 0; j < n; j++) {
            test_fill(sb + (size_t)j * blen, blen, (uint64_t)me * 131 + (uint64_t)members[j]);
            test_fill(rw + (size_t)j * blen, blen, (uint64_t)members[j] * 131 + (uint64_t)me);
        }
        memset(rb, 0, (size_t)n * blen);
        CHECK_OK(ordo_coll_alltoall(comm, sb, blen, rb));
        CHECK(memcmp(rb, rw, (size_t)n * blen) == 0);
        free(sb), free(rb), free(rw);
    }
}

/* Barriers that really wait: rank r sets a flag in a region before the
 * barrier; after it every member sees every member's flag. */
static void barriers(ordo_comm_h comm, const int *members, int n)
{
    ordo_region_h reg;
    void *base;
    /* regions are collective over all ranks: only on the world */
    if (comm != ORDO_COMM_WORLD) {
        for (int k = 0; k < 50; k++)
            CHECK_OK(ordo_coll_barrier(comm));
        return;
    }
    REQUIRE_OK(ordo_region_alloc(8 * (size_t)np, 0, &reg, &base));
    for (uint64_t round = 1; round <= 30; round++) {
        for (int j = 0; j < n; j++)
            CHECK_OK(ordo_put(NULL, &round, 8, reg, members[j], 8 * (size_t)me, 0));
        CHECK_OK(ordo_quiet(NULL));
        CHECK_OK(ordo_coll_barrier(comm));
        for (int j = 0; j < n; j++)
            CHECK(((volatile uint64_t *)base)[members[j]] >= round);
        CHECK_OK(ordo_coll_barrier(comm));
    }
    CHECK_OK(ordo_region_free(reg));
}

/* Several non-blocking collectives at once, and the program's own messages
 * (ORDO_ANY_TAG) in between, which must never take a collective's. */
static void overlapped(ordo_comm_h comm, const int *members, int n)
{
    enum { K = 2000 };
    int64_t *in = malloc(K * 8), *out = malloc(K * 8), *want = malloc(K * 8);
    for (int k = 0; k < K; k++)
        in[k] = me * 1000 + k;
    for (int k = 0; k < K; k++) {
        want[k] = 0;
        for (int j = 0; j < n; j++)
            want[k] += members[j] * 1000 + k;
    }
    char bc[64] = {0};
    if (me == members[n - 1])
        memset(bc, 7, sizeof(bc));
    ordo_request_h reqs[3];
    CHECK(ordo_coll_allreduce_nb(comm, in, out, K, ORDO_DT_INT64, ORDO_REDUCE_SUM, &reqs[0]) >= 0);
    CHECK(ordo_coll_barrier_nb(comm, &reqs[1]) >= 0);
    CHECK(ordo_coll_bcast_nb(comm, bc, sizeof(bc), members[n - 1], &reqs[2]) >= 0);
    /* a ring of the program's messages among the members, on the world */
    int idx = 0;
    while (members[idx] != me)
        idx++;
    int right = members[(idx + 1) % n], left = members[(idx + n - 1) % n], x = -1, y = me;
    ordo_completion_t info;
    CHECK_OK(ordo_send(NULL, &y, sizeof(y), right, 42));
    CHECK_OK(ordo_recv(NULL, &x, sizeof(x), ORDO_ANY_SOURCE, ORDO_ANY_TAG, &info));
    CHECK(x == left && info.tag == 42);
    CHECK_OK(ordo_request_waitall(3, reqs, NULL));
    CHECK(memcmp(out, want, K * 8) == 0);
    for (size_t i = 0; i < sizeof(bc); i++)
        CHECK(bc[i] == 7);
    free(in), free(out), free(want);
}

static void errors(void)
{
    int x = 0;
    float f = 1;
    CHECK_STATUS(ordo_coll_bcast(NULL, &x, sizeof(x), np), ORDO_ERR_INVALID_RANK);
    CHECK_STATUS(ordo_coll_reduce(NULL, &x, &x, 1, ORDO_DT_INT32, ORDO_REDUCE_SUM, -3),
                 ORDO_ERR_INVALID_RANK);
    CHECK_STATUS(ordo_coll_allreduce(NULL, &f, &f, 1, ORDO_DT_FLOAT, ORDO_REDUCE_BAND),
                 ORDO_ERR_INVALID_PARAM);
    CHECK_STATUS(ordo_coll_allreduce(NULL, &x, &x, 1, (ordo_dtype_t)9, ORDO_REDUCE_SUM),
                 ORDO_ERR_INVALID_PARAM);
    CHECK_STATUS(ordo_coll_allreduce(NULL, NULL, &x, 1, ORDO_DT_INT32, ORDO_REDUCE_SUM),
                 ORDO_ERR_INVALID_PARAM);
    CHECK_STATUS(ordo_coll_barrier_nb(NULL, NULL), ORDO_ERR_INVALID_PARAM);
    /* subset contexts refuse bad member lists before talking to anyone */
    ordo_comm_h c = NULL;
    int outside = np, twice[2] = {me, me}, other = (me + 1) % np;
    ordo_comm_params_t p = {.field_mask = ORDO_COMM_FIELD_RANKS, .nranks = 1, .ranks = &outside};
    CHECK_STATUS(ordo_comm_create(&p, &c), ORDO_ERR_INVALID_RANK);
    p.nranks = 0;
    CHECK_STATUS(ordo_comm_create(&p, &c), ORDO_ERR_INVALID_PARAM);
    if (np > 1) {   /* a rank twice; a list without this rank */
        p.nranks = 2;
        p.ranks = twice;
        CHECK_STATUS(ordo_comm_create(&p, &c), ORDO_ERR_INVALID_PARAM);
        p.nranks = 1;
        p.ranks = &other;
        CHECK_STATUS(ordo_comm_create(&p, &c), ORDO_ERR_INVALID_PARAM);
    }
    CHECK(c == NULL);
    int r = -1;
    CHECK_STATUS(ordo_comm_member(NULL, np, &r), ORDO_ERR_INVALID_PARAM);
    CHECK_OK(ordo_comm_member(NULL, np - 1, &r));
    CHECK(r == np - 1);
    /* rejected calls leave the members in step */
    CHECK_OK(ordo_coll_allreduce(NULL, &x, &x, 1, ORDO_DT_INT32, ORDO_REDUCE_SUM));
}

static void run_on(ordo_comm_h comm, const int *members, int n)
{
    reductions(comm, members, n, members[n - 1]);
    for (int r = 0; r < n; r += n > 2 ? n - 1 : 1)   /* first and last member as root */
        data_movement(comm, members, n, members[r]);
    barriers(comm, members, n);
    overlapped(comm, members, n);
}

int main(void)
{
    REQUIRE_OK(ordo_init(NULL));
    me = ordo_rank();
    np = ordo_size();
    int *all = malloc((size_t)np * sizeof(int));
    for (int i = 0; i < np; i++)
        all[i] = i;
    run_on(ORDO_COMM_WORLD, all, np);
    errors();
    if (np >= 3) {
        /* every rank but 1, listed in reverse: members are ascending */
        int *sub = malloc((size_t)np * sizeof(int)), n = 0;
        for (int i = np - 1; i >= 0; i--)
            if (i != 1)
                sub[n++] = i;
        int *asc = malloc((size_t)n * sizeof(int));
        for (int i = 0; i < n; i++)
            asc[i] = sub[n - 1 - i];
        if (me != 1) {
            ordo_comm_params_t p = {.field_mask = ORDO_COMM_FIELD_RANKS, .nranks = n,
                                    .ranks = sub};
            ordo_comm_h c;
            REQUIRE_OK(ordo_comm_create(&p, &c));
            int size = 0, first = -1;
            CHECK_OK(ordo_comm_size(c, &size));
            CHECK_OK(ordo_comm_member(c, 0, &first));
            CHECK(size == n && first == 0);
            CHECK_STATUS(ordo_coll_bcast(c, &size, sizeof(size), 1), ORDO_ERR_INVALID_RANK);
            CHECK_STATUS(ordo_send(c, &size, sizeof(size), 1, 0), ORDO_ERR_INVALID_RANK);
            run_on(c, asc, n);
            CHECK_OK(ordo_comm_destroy(c));
        }
        free(sub), free(asc);
    }
    ordo_stats_t s;
    REQUIRE_OK(ordo_stats_get(&s));
    CHECK(np == 1 || s.collectives > 100);
    CHECK_OK(ordo_finalize());
    free(all);
    return test_result("test_coll");
}
