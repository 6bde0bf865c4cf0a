/* MPI-RMA synchronisation epochs: fence phases (with and without
 * assertions, which must not change results), post/start/complete/wait
 * with partial groups, exclusive and shared locks, flush, and every misuse
 * as a status.  Runs at any rank count; argument 1 (optional): "create" to
 * use regions created over program memory (reached by single copy) instead
 * of allocated ones. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../harness.h"

static int me, np, use_create;

#define SLOTS 64   /* int64 slots per rank in the data region */

typedef struct region {
    ordo_region_h h;
    int64_t      *mem;
    void         *own;   /* create: the program's buffer */
} region_t;

static void region_open(region_t *r, size_t bytes, unsigned flags)
{
    if (use_create) {
        r->own = calloc(1, bytes);
        r->mem = r->own;
        REQUIRE_OK(ordo_region_create(r->own, bytes, flags, &r->h));
    } else {
        r->own = NULL;
        REQUIRE_OK(ordo_region_alloc(bytes, flags, &r->h, (void **)&r->mem));
    }
}

static void region_close(region_t *r)
{
    REQUIRE_OK(ordo_region_free(r->h));
    free(r->own);
}

static uint64_t stat_skips(void)
{
    ordo_stats_t s;
    REQUIRE_OK(ordo_stats_get(&s));
    return s.epoch_skips;
}

static uint64_t stat_syncs(void)
{
    ordo_stats_t s;
    REQUIRE_OK(ordo_stats_get(&s));
    return s.epoch_syncs;
}

static int64_t tagval(int phase, int origin, int k) { return phase * 1000000 + origin * 1000 + k; }

/* Phases separated by fences: in phase p each rank puts into slot `me` of
 * rank (me + p) % np and gets slot 0 of rank (me + 2p) % np, which its owner
 * stored locally before the fence.  Returns a checksum of everything seen. */
static uint64_t fence_phases(region_t *r, int with_asserts)
{
    uint64_t sum = 0;
    int64_t v, got;
    unsigned open_as = with_asserts ? ORDO_ASSERT_NOPRECEDE : 0;
    unsigned close_as = with_asserts ? ORDO_ASSERT_NOPUT | ORDO_ASSERT_NOSUCCEED : 0;
    for (int p = 0; p < 6; p++) {
        r->mem[0] = tagval(p, me, 99);   /* a local store before the fence */
        uint64_t skips = stat_skips();
        CHECK_OK(ordo_epoch_fence(r->h, p == 0 || with_asserts ? open_as : 0));
        if (with_asserts)
            CHECK(stat_skips() > skips);   /* NOPRECEDE skipped the completion */
        int t = (me + p) % np, g = (me + 2 * p) % np;
        v = tagval(p, me, 1);
        CHECK_OK(ordo_put(NULL, &v, 8, r->h, t, 8 * (size_t)(1 + me), 0));
        CHECK_OK(ordo_get(NULL, &got, 8, r->h, g, 0, 0));
        CHECK(got == tagval(p, g, 99));
        sum = sum * 31 + (uint64_t)got;
        CHECK_OK(ordo_epoch_fence(r->h, close_as));
        /* the rank that put here this phase: (me - p) mod np */
        int from = ((me - p) % np + np) % np;
        CHECK(r->mem[1 + from] == tagval(p, from, 1));
        sum = sum * 31 + (uint64_t)r->mem[1 + from];
        if (!with_asserts)
            continue;
        /* after NOSUCCEED no epoch is open */
        CHECK_STATUS(ordo_put(NULL, &v, 8, r->h, t, 8, 0), ORDO_ERR_EPOCH);
        /* the closing fence of the next phase without the opening's assert */
    }
    if (!with_asserts)
        CHECK_OK(ordo_epoch_fence(r->h, ORDO_ASSERT_NOSUCCEED));
    return sum;
}

static void test_fence(void)
{
    region_t r;
    region_open(&r, SLOTS * 8, ORDO_REGION_EPOCHS);
    int64_t v = 7;
    /* no epoch yet */
    CHECK_STATUS(ordo_put(NULL, &v, 8, r.h, (me + 1) % np, 0, 0), ORDO_ERR_EPOCH);
    CHECK_STATUS(ordo_get(NULL, &v, 8, r.h, me, 0, 0), ORDO_ERR_EPOCH);
    CHECK_STATUS(ordo_atomic(NULL, ORDO_ATOMIC_ADD, ORDO_INT64, &v, NULL, NULL, r.h, me, 0, 0),
                 ORDO_ERR_EPOCH);
    uint64_t plain = fence_phases(&r, 0);
    uint64_t asserted = fence_phases(&r, 1);
    CHECK(plain == asserted);

    /* a fence with nothing on either side synchronises with nobody */
    uint64_t syncs = stat_syncs(), skips = stat_skips();
    CHECK_OK(ordo_epoch_fence(r.h, ORDO_ASSERT_NOPRECEDE | ORDO_ASSERT_NOSUCCEED));
    CHECK(stat_syncs() == syncs);
    CHECK(stat_skips() == skips + 2);
    /* NOPRECEDE after operations is refused, and changes nothing */
    CHECK_OK(ordo_epoch_fence(r.h, ORDO_ASSERT_NOPRECEDE));
    CHECK_OK(ordo_put(NULL, &v, 8, r.h, me, 0, 0));
    CHECK_STATUS(ordo_epoch_fence(r.h, ORDO_ASSERT_NOPRECEDE), ORDO_ERR_EPOCH);
    CHECK_STATUS(ordo_epoch_fence(r.h, ORDO_ASSERT_NOCHECK), ORDO_ERR_INVALID_PARAM);
    /* a lock may not begin inside a fence epoch that was used */
    CHECK_STATUS(ordo_epoch_lock(r.h, ORDO_LOCK_SHARED, me, 0), ORDO_ERR_EPOCH);
    CHECK_OK(ordo_epoch_fence(r.h, ORDO_ASSERT_NOSUCCEED));
    /* atomics in a fence epoch (they need mapped memory: not on single copy) */
    if (use_create) {
        region_close(&r);
        return;
    }
    CHECK_OK(ordo_epoch_fence(r.h, 0));
    int64_t one = 1;
    CHECK_OK(ordo_atomic(NULL, ORDO_ATOMIC_ADD, ORDO_INT64, &one, NULL, NULL, r.h, 0,
                         8 * (SLOTS - 1), 0));
    CHECK_OK(ordo_epoch_fence(r.h, ORDO_ASSERT_NOSUCCEED));
    if (me == 0)
        CHECK(r.mem[SLOTS - 1] == np);
    region_close(&r);
}

/* Post/start/complete/wait with partial groups: even ranks are origins,
 * each reaching ranks (e+1) and (e+2) mod np; every other rank only
 * exposes (or does nothing when nobody targets it). */
static int targets_of(int e, int *t)
{
    if (e % 2 != 0 || np == 1)
        return 0;
    int n = 0;
    t[n++] = (e + 1) % np;
    if ((e + 2) % np != t[0])
        t[n++] = (e + 2) % np;
    return n;
}

static int origins_of(int rank, int *o)
{
    int n = 0, t[2];
    for (int e = 0; e < np; e++) {
        int k = targets_of(e, t);
        for (int i = 0; i < k; i++)
            if (t[i] == rank)
                o[n++] = e;
    }
    return n;
}

static void test_pscw(void)
{
    region_t r;
    region_open(&r, SLOTS * 8, ORDO_REGION_EPOCHS);
    int *org = malloc(sizeof(int) * (size_t)np), tgt[2];
    int norg = origins_of(me, org), ntgt = targets_of(me, tgt);
    for (int round = 0; round < 5; round++) {
        unsigned as = round == 3 ? ORDO_ASSERT_NOCHECK : 0;
        if (norg)
            CHECK_OK(ordo_epoch_post(r.h, norg, org, as | (round == 2 ? ORDO_ASSERT_NOSTORE : 0)));
        if (as)   /* NOCHECK: the program knows the posts happened */
            CHECK_OK(ordo_coll_barrier(ORDO_COMM_WORLD));
        if (ntgt) {
            CHECK_OK(ordo_epoch_start(r.h, ntgt, tgt, as));
            for (int i = 0; i < ntgt; i++) {
                int64_t v = tagval(round, me, tgt[i]);
                CHECK_OK(ordo_put(NULL, &v, 8, r.h, tgt[i], 8 * (size_t)(1 + me), 0));
            }
            /* outside the group: refused */
            int other = -1;
            for (int k = 0; k < np && other < 0; k++)
                if (k != tgt[0] && (ntgt < 2 || k != tgt[1]))
                    other = k;
            if (other >= 0)
                CHECK_STATUS(ordo_put(NULL, &round, 4, r.h, other, 0, 0), ORDO_ERR_EPOCH);
            CHECK_OK(ordo_epoch_complete(r.h));
        }
        if (norg) {
            if (round % 2) {
                int done = 0;
                while (!done)
                    CHECK_OK(ordo_epoch_test(r.h, &done));
            } else {
                CHECK_OK(ordo_epoch_wait(r.h));
            }
            for (int i = 0; i < norg; i++)
                CHECK(r.mem[1 + org[i]] == tagval(round, org[i], me));
        }
        /* no barrier: the next round's puts wait for the next post */
    }
    /* misuse */
    CHECK_STATUS(ordo_epoch_complete(r.h), ORDO_ERR_EPOCH);
    CHECK_STATUS(ordo_epoch_wait(r.h), ORDO_ERR_EPOCH);
    int dup[2] = {0, 0}, bad = np;
    CHECK_STATUS(ordo_epoch_post(r.h, 2, dup, 0), ORDO_ERR_INVALID_PARAM);
    CHECK_STATUS(ordo_epoch_start(r.h, 1, &bad, 0), ORDO_ERR_INVALID_RANK);
    CHECK_STATUS(ordo_epoch_start(r.h, 1, &me, ORDO_ASSERT_NOSTORE), ORDO_ERR_INVALID_PARAM);
    CHECK_STATUS(ordo_epoch_post(r.h, -1, &me, 0), ORDO_ERR_INVALID_PARAM);
    /* an empty group is an epoch like any other */
    CHECK_OK(ordo_epoch_post(r.h, 0, NULL, 0));
    CHECK_STATUS(ordo_epoch_post(r.h, 0, NULL, 0), ORDO_ERR_EPOCH);
    CHECK_OK(ordo_epoch_start(r.h, 0, NULL, 0));
    CHECK_STATUS(ordo_epoch_start(r.h, 0, NULL, 0), ORDO_ERR_EPOCH);
    CHECK_STATUS(ordo_epoch_fence(r.h, 0), ORDO_ERR_EPOCH);
    CHECK_OK(ordo_epoch_complete(r.h));
    CHECK_OK(ordo_epoch_wait(r.h));
    free(org);
    region_close(&r);
}

/* Mismatched groups end in ORDO_ERR_TIMED_OUT, not a hang (the test sets
 * ORDO_EPOCH_TIMEOUT to 1 s): rank 0 starts towards rank 1, which never
 * posts; rank 1 then waits for a complete that never comes. */
static void test_mismatch(void)
{
    if (np < 2)
        return;
    region_t r;
    region_open(&r, SLOTS * 8, ORDO_REGION_EPOCHS);
    int zero = 0, one = 1;
    if (me == 0) {   /* rank 1 does not post */
        CHECK_STATUS(ordo_epoch_start(r.h, 1, &one, 0), ORDO_ERR_TIMED_OUT);
        CHECK_STATUS(ordo_epoch_complete(r.h), ORDO_ERR_EPOCH);   /* nothing opened */
    }
    CHECK_OK(ordo_barrier());
    if (me == 1) {   /* rank 0 does not start */
        CHECK_OK(ordo_epoch_post(r.h, 1, &zero, 0));
        CHECK_STATUS(ordo_epoch_wait(r.h), ORDO_ERR_TIMED_OUT);
    }
    CHECK_OK(ordo_barrier());
    if (me == 0) {   /* now it does: rank 1's exposure is still open */
        CHECK_OK(ordo_epoch_start(r.h, 1, &one, 0));
        CHECK_OK(ordo_epoch_complete(r.h));
    } else if (me == 1) {
        CHECK_OK(ordo_epoch_wait(r.h));
    }
    region_close(&r);
}

/* N ranks x M get-increment-put under an exclusive lock: exact, on a
 * counter at every rank. */
static void test_exclusive(void)
{
    region_t r;
    region_open(&r, SLOTS * 8, ORDO_REGION_EPOCHS);
    CHECK_OK(ordo_barrier());
    const int M = 50 * np;   /* each rank reaches each counter 50 times */
    for (int i = 0; i < M; i++) {
        int t = (me + i) % np;
        int64_t v;
        CHECK_OK(ordo_epoch_lock(r.h, ORDO_LOCK_EXCLUSIVE, t, 0));
        CHECK_OK(ordo_get(NULL, &v, 8, r.h, t, 0, 0));
        v++;
        CHECK_OK(ordo_put(NULL, &v, 8, r.h, t, 0, 0));
        CHECK_OK(ordo_epoch_unlock(r.h, t));
    }
    CHECK_OK(ordo_barrier());
    CHECK(r.mem[0] == M);
    region_close(&r);
}

/* Readers (shared) and writers (exclusive) mixed on one target: a writer
 * updates two words with a pause between the puts; no reader may see them
 * differ, and the writers' increments all count. */
static void test_readers_writers(void)
{
    region_t r;
    region_open(&r, SLOTS * 8, ORDO_REGION_EPOCHS);
    CHECK_OK(ordo_coll_barrier(ORDO_COMM_WORLD));
    int writes = 0, torn = 0;
    for (int i = 0; i < 3000; i++) {
        int64_t a, b;
        if ((i + me) % 3 == 0) {
            CHECK_OK(ordo_epoch_lock(r.h, ORDO_LOCK_EXCLUSIVE, 0, 0));
            CHECK_OK(ordo_get(NULL, &a, 8, r.h, 0, 0, 0));
            a++;
            CHECK_OK(ordo_put(NULL, &a, 8, r.h, 0, 0, 0));
            for (volatile int k = 0; k < 2000; k++)
                ;
            CHECK_OK(ordo_put(NULL, &a, 8, r.h, 0, 8, 0));
            CHECK_OK(ordo_epoch_unlock(r.h, 0));
            writes++;
        } else {
            CHECK_OK(ordo_epoch_lock(r.h, ORDO_LOCK_SHARED, 0, 0));
            CHECK_OK(ordo_get(NULL, &a, 8, r.h, 0, 0, 0));
            for (volatile int k = 0; k < 500; k++)
                ;
            CHECK_OK(ordo_get(NULL, &b, 8, r.h, 0, 8, 0));
            torn += a != b;
            CHECK_OK(ordo_epoch_unlock(r.h, 0));
        }
    }
    CHECK(torn == 0);
    int64_t total = writes;
    CHECK_OK(ordo_coll_allreduce(ORDO_COMM_WORLD, &total, &total, 1, ORDO_DT_INT64,
                                 ORDO_REDUCE_SUM));
    if (me == 0)
        CHECK(r.mem[0] == total && r.mem[1] == total);
    region_close(&r);
}

/* Shared locks admit readers together; an exclusive holder keeps them out
 * until it unlocks, and they then see what it wrote. */
static void test_shared(void)
{
    if (np < 2)
        return;
    region_t r;
    region_open(&r, SLOTS * 8, ORDO_REGION_EPOCHS);
    int t = np - 1;   /* the target */
    CHECK_OK(ordo_barrier());
    if (me == 0 || me == 1) {
        int peer = 1 - me;
        char c = 0;
        CHECK_OK(ordo_epoch_lock(r.h, ORDO_LOCK_SHARED, t, 0));
        /* both hold it at once: each tells the other, then waits to hear */
        CHECK_OK(ordo_send(ORDO_COMM_WORLD, &c, 1, peer, 5));
        CHECK_OK(ordo_recv(ORDO_COMM_WORLD, &c, 1, peer, 5, NULL));
        int64_t v;
        CHECK_OK(ordo_get(NULL, &v, 8, r.h, t, 0, 0));
        CHECK(v == 0);
        CHECK_OK(ordo_epoch_unlock(r.h, t));
    }
    CHECK_OK(ordo_barrier());
    uint64_t retries0;
    ordo_stats_t s;
    CHECK_OK(ordo_stats_get(&s));
    retries0 = s.lock_retries;
    if (me == 0) {
        CHECK_OK(ordo_epoch_lock(r.h, ORDO_LOCK_EXCLUSIVE, t, 0));
        char c = 0;
        CHECK_OK(ordo_send(ORDO_COMM_WORLD, &c, 1, 1, 6));
        struct timespec ts = {0, 50 * 1000 * 1000};
        nanosleep(&ts, NULL);   /* rank 1 is trying meanwhile */
        int64_t v = 4242;
        CHECK_OK(ordo_put(NULL, &v, 8, r.h, t, 0, 0));
        CHECK_OK(ordo_epoch_unlock(r.h, t));
    } else if (me == 1) {
        char c;
        CHECK_OK(ordo_recv(ORDO_COMM_WORLD, &c, 1, 0, 6, NULL));
        CHECK_OK(ordo_epoch_lock(r.h, ORDO_LOCK_SHARED, t, 0));
        int64_t v;
        CHECK_OK(ordo_get(NULL, &v, 8, r.h, t, 0, 0));
        CHECK(v == 4242);
        CHECK_OK(ordo_epoch_unlock(r.h, t));
        CHECK_OK(ordo_stats_get(&s));
        CHECK(s.lock_retries > retries0);
    }
    CHECK_OK(ordo_barrier());
    region_close(&r);
}

/* lock_all takes all its shared locks or none: rank 1's lock_all, blocked
 * at rank 1 by rank 0's exclusive lock, must not keep its flag at rank 0,
 * where rank 0 next wants an exclusive lock too (else both wait). */
static void test_lock_all_backoff(void)
{
    if (np < 2)
        return;
    region_t r;
    region_open(&r, SLOTS * 8, ORDO_REGION_EPOCHS);
    CHECK_OK(ordo_barrier());
    char c = 0;
    if (me == 0) {
        CHECK_OK(ordo_epoch_lock(r.h, ORDO_LOCK_EXCLUSIVE, 1, 0));
        CHECK_OK(ordo_send(ORDO_COMM_WORLD, &c, 1, 1, 8));
        struct timespec ts = {0, 20 * 1000 * 1000};
        nanosleep(&ts, NULL);   /* rank 1 is in lock_all meanwhile */
        CHECK_OK(ordo_epoch_lock(r.h, ORDO_LOCK_EXCLUSIVE, 0, 0));
        CHECK_OK(ordo_epoch_unlock(r.h, 0));
        CHECK_OK(ordo_epoch_unlock(r.h, 1));
    } else if (me == 1) {
        CHECK_OK(ordo_recv(ORDO_COMM_WORLD, &c, 1, 0, 8, NULL));
        CHECK_OK(ordo_epoch_lock_all(r.h, 0));
        CHECK_OK(ordo_epoch_unlock_all(r.h));
    }
    CHECK_OK(ordo_barrier());
    region_close(&r);
}

/* lock_all + flush: a put flushed to its target is seen by a get of
 * another rank that learnt of it by message; flush_local frees buffers;
 * unlock completes non-blocking operations of every stream. */
static void test_flush(void)
{
    region_t r;
    region_open(&r, 4096 + SLOTS * 8, ORDO_REGION_EPOCHS);
    int t = np > 2 ? 2 : np - 1, reader = np > 1 ? 1 : 0;
    CHECK_OK(ordo_barrier());
    CHECK_OK(ordo_epoch_lock_all(r.h, 0));
    if (me == 0) {
        int64_t v = 777;
        CHECK_OK(ordo_put(NULL, &v, 8, r.h, t, 8, 0));
        CHECK_OK(ordo_epoch_flush(r.h, t));
        if (reader != me)
            CHECK_OK(ordo_send(ORDO_COMM_WORLD, &v, 8, reader, 7));
    }
    if (me == reader) {
        int64_t v = 0;
        if (reader != 0)
            CHECK_OK(ordo_recv(ORDO_COMM_WORLD, &v, 8, 0, 7, NULL));
        CHECK_OK(ordo_get(NULL, &v, 8, r.h, t, 8, 0));
        CHECK(v == 777);
    }
    /* non-blocking puts on a relaxed stream, completed by flush_local_all
     * (buffers) and the unlock (at the targets) */
    ordo_stream_h rs;
    ordo_stream_params_t sp = {.field_mask = ORDO_STREAM_FIELD_ORDER,
                               .order = ORDO_ORDER_RELAXED};
    CHECK_OK(ordo_stream_create(&sp, &rs));
    char *big = malloc(4096);
    memset(big, 'a' + me, 4096);
    int dst = (me + 1) % np;
    ordo_status_t st = ordo_put_nb(rs, big, 4096, r.h, dst, SLOTS * 8, 0, NULL);
    CHECK(st == ORDO_OK || st == ORDO_INPROGRESS);
    CHECK_OK(ordo_epoch_flush_local_all(r.h));
    CHECK_OK(ordo_epoch_flush_local(r.h, dst));
    CHECK_OK(ordo_epoch_flush_all(r.h));
    CHECK_OK(ordo_epoch_unlock_all(r.h));
    CHECK_OK(ordo_barrier());
    int from = (me - 1 + np) % np;
    char *mine = (char *)r.mem + SLOTS * 8;
    int good = 1;
    for (int i = 0; i < 4096; i++)
        good &= mine[i] == 'a' + from;
    CHECK(good);
    CHECK_OK(ordo_stream_destroy(rs));
    free(big);
    region_close(&r);
}

/* Misuse of the passive mode, and calls on a region without epochs. */
static void test_misuse(void)
{
    region_t r, plain;
    region_open(&r, SLOTS * 8, ORDO_REGION_EPOCHS);
    region_open(&plain, 64, 0);
    int other = (me + 1) % np;
    int64_t v = 1;
    CHECK_STATUS(ordo_epoch_fence(plain.h, 0), ORDO_ERR_EPOCH);
    CHECK_STATUS(ordo_epoch_lock(plain.h, ORDO_LOCK_SHARED, me, 0), ORDO_ERR_EPOCH);
    CHECK_OK(ordo_put(NULL, &v, 8, plain.h, other, 0, 0));   /* no epochs needed there */
    CHECK_STATUS(ordo_epoch_unlock(r.h, me), ORDO_ERR_EPOCH);
    CHECK_STATUS(ordo_epoch_unlock_all(r.h), ORDO_ERR_EPOCH);
    CHECK_STATUS(ordo_epoch_flush(r.h, me), ORDO_ERR_EPOCH);
    CHECK_STATUS(ordo_epoch_flush_all(r.h), ORDO_ERR_EPOCH);
    CHECK_STATUS(ordo_epoch_flush(r.h, np), ORDO_ERR_INVALID_RANK);
    CHECK_STATUS(ordo_epoch_lock(r.h, ORDO_LOCK_SHARED, np, 0), ORDO_ERR_INVALID_RANK);
    CHECK_STATUS(ordo_epoch_lock(r.h, (ordo_lock_type_t)7, me, 0), ORDO_ERR_INVALID_PARAM);
    CHECK_STATUS(ordo_epoch_lock(r.h, ORDO_LOCK_SHARED, me, ORDO_ASSERT_NOPUT),
                 ORDO_ERR_INVALID_PARAM);
    CHECK_STATUS(ordo_epoch_fence(NULL, 0), ORDO_ERR_INVALID_HANDLE);

    CHECK_OK(ordo_epoch_lock(r.h, ORDO_LOCK_EXCLUSIVE, me, 0));
    CHECK_STATUS(ordo_epoch_lock(r.h, ORDO_LOCK_SHARED, me, 0), ORDO_ERR_EPOCH);
    CHECK_STATUS(ordo_epoch_lock_all(r.h, 0), ORDO_ERR_EPOCH);
    CHECK_STATUS(ordo_epoch_fence(r.h, 0), ORDO_ERR_EPOCH);
    CHECK_STATUS(ordo_epoch_start(r.h, 0, NULL, 0), ORDO_ERR_EPOCH);
    CHECK_OK(ordo_put(NULL, &v, 8, r.h, me, 0, 0));
    if (np > 1)
        CHECK_STATUS(ordo_put(NULL, &v, 8, r.h, other, 0, 0), ORDO_ERR_EPOCH);
    CHECK_OK(ordo_epoch_flush(r.h, me));
    CHECK_OK(ordo_epoch_flush_local_all(r.h));
    CHECK_OK(ordo_epoch_unlock(r.h, me));
    CHECK_STATUS(ordo_epoch_unlock(r.h, me), ORDO_ERR_EPOCH);
    CHECK_STATUS(ordo_put(NULL, &v, 8, r.h, me, 0, 0), ORDO_ERR_EPOCH);

    CHECK_OK(ordo_epoch_lock_all(r.h, 0));
    CHECK_STATUS(ordo_epoch_lock(r.h, ORDO_LOCK_SHARED, other, 0), ORDO_ERR_EPOCH);
    CHECK_STATUS(ordo_epoch_unlock(r.h, other), ORDO_ERR_EPOCH);
    CHECK_OK(ordo_put(NULL, &v, 8, r.h, other, 0, 0));
    CHECK_OK(ordo_epoch_flush(r.h, other));
    CHECK_OK(ordo_epoch_unlock_all(r.h));
    /* NOCHECK takes no lock word: skipped, counted */
    uint64_t skips = stat_skips();
    CHECK_OK(ordo_epoch_lock(r.h, ORDO_LOCK_EXCLUSIVE, me, ORDO_ASSERT_NOCHECK));
    CHECK(stat_skips() == skips + 1);
    CHECK_OK(ordo_epoch_unlock(r.h, me));
    CHECK_OK(ordo_barrier());
    region_close(&plain);
    region_close(&r);
}

int main(int argc, char **argv)
{
    setenv("ORDO_EPOCH_TIMEOUT", "1", 1);
    use_create = argc > 1 && strcmp(argv[1], "create") == 0;
    REQUIRE_OK(ordo_init(NULL));
    me = ordo_rank();
    np = ordo_size();
    test_fence();
    test_pscw();
    test_mismatch();
    test_exclusive();
    test_shared();
    test_readers_writers();
    test_lock_all_backoff();
    test_flush();
    test_misuse();
    CHECK_OK(ordo_finalize());
    return test_result("test_epochs");
}
