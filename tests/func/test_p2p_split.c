/* Which rendezvous-gets both sides copy, a half each (msgs_split counts
 * them at the receiver), under ORDO_P2P_PROTOCOL=rget on 2 ranks:
 * - ORDO_RNDV_SPLIT unset (auto, shared memory): from 128 KiB always, and
 *   from 32 KiB for a message that meets no rendezvous of the receiver's
 *   own to its sender, where every rank has a CPU of its own; below 32 KiB
 *   never;
 * - ORDO_RNDV_SPLIT=N: from N bytes, exchange or not (0: never);
 * never a message a rank sends itself.  Every byte is checked whichever way
 * it moved. */
#include <stdlib.h>
#include <string.h>

#include "../harness.h"

static int me;

static uint64_t splits(void)
{
    ordo_stats_t s;
    REQUIRE_OK(ordo_stats_get(&s));
    return s.msgs_split;
}

static void expect_data(const char *in, size_t len, uint64_t seed)
{
    char *want = malloc(len);
    test_fill(want, len, seed);
    CHECK(memcmp(in, want, len) == 0);
    free(want);
}

/* Rank 0 sends len bytes to rank 1, whose receive is posted first; rank 1
 * has nothing of its own in flight to rank 0.  Returns rank 1's splits. */
static uint64_t one_way(size_t len, uint64_t seed)
{
    char *buf = malloc(len);
    ordo_request_h r = NULL;
    if (me == 1)
        CHECK_STATUS(ordo_recv_nb(NULL, buf, len, 0, 5, &r), ORDO_INPROGRESS);
    REQUIRE_OK(ordo_barrier());
    uint64_t before = splits();
    if (me == 0) {
        test_fill(buf, len, seed);
        CHECK_OK(ordo_send(NULL, buf, len, 1, 5));
    } else {
        CHECK_OK(ordo_request_wait(&r, NULL));
        expect_data(buf, len, seed);
    }
    uint64_t n = splits() - before;
    REQUIRE_OK(ordo_barrier());
    free(buf);
    return n;
}

/* Both send len bytes to each other: rank 1's request-to-send goes first,
 * then rank 1 receives rank 0's message while its own is still in flight
 * (rank 0 posts its receive only after that; a message above the bounce
 * buffers is not pulled before its receive is posted).  Returns rank 1's
 * splits. */
static uint64_t exchange(size_t len, uint64_t seed)
{
    char *out = malloc(len), *in = malloc(len);
    test_fill(out, len, seed + (uint64_t)me);
    ordo_request_h s = NULL;
    REQUIRE_OK(ordo_barrier());
    uint64_t before = splits();
    if (me == 1)
        CHECK(ordo_send_nb(NULL, out, len, 0, 6, &s) == ORDO_INPROGRESS);
    REQUIRE_OK(ordo_barrier());
    if (me == 0)
        CHECK(ordo_send_nb(NULL, out, len, 1, 6, &s) == ORDO_INPROGRESS);
    else
        CHECK_OK(ordo_recv(NULL, in, len, 0, 6, NULL));
    REQUIRE_OK(ordo_coll_barrier(NULL));   /* rank 0 puts its half of a split meanwhile */
    if (me == 0)
        CHECK_OK(ordo_recv(NULL, in, len, 1, 6, NULL));
    CHECK_OK(ordo_request_wait(&s, NULL));
    expect_data(in, len, seed + (uint64_t)(1 - me));
    uint64_t n = splits() - before;
    REQUIRE_OK(ordo_barrier());
    free(out), free(in);
    return n;
}

/* A message to ourselves is never split: one CPU copies either way. */
static uint64_t to_self(size_t len, uint64_t seed)
{
    char *out = malloc(len), *in = malloc(len);
    test_fill(out, len, seed);
    uint64_t before = splits();
    ordo_request_h s = NULL;
    CHECK(ordo_send_nb(NULL, out, len, me, 7, &s) == ORDO_INPROGRESS);
    CHECK_OK(ordo_recv(NULL, in, len, me, 7, NULL));
    CHECK_OK(ordo_request_wait(&s, NULL));
    expect_data(in, len, seed);
    free(out), free(in);
    return splits() - before;
}

int main(void)
{
    REQUIRE_OK(ordo_init(NULL));
    me = ordo_rank();
    if (ordo_size() != 2 || ordo_node_count() != 1) {
        fprintf(stderr, "run with ordorun -n 2 (one node)\n");
        ordo_finalize();
        return 2;
    }
    const char *p = getenv("ORDO_P2P_PROTOCOL"), *set = getenv("ORDO_RNDV_SPLIT");
    if (p == NULL || strcmp(p, "rget") != 0) {
        fprintf(stderr, "run with ORDO_P2P_PROTOCOL=rget\n");
        ordo_finalize();
        return 2;
    }
    /* where ranks share CPUs auto keeps the larger limit for every message */
    char why[512];
    CHECK_OK(ordo_setting_describe("ORDO_RNDV_SPLIT", why, sizeof(why)));
    int shared = set == NULL && strstr(why, ": not here") != NULL;
    size_t from = set ? strtoull(set, NULL, 0) : 0;
    const size_t lens[] = {24576, 32768, 49152, 98304, 131072, 262144};
    for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
        size_t len = lens[i];
        /* a message the bounce buffers hold may be pulled before its receive
         * is posted, ending the exchange early: those are checked alone */
        int swapped = len > ((size_t)32 << 10);
        uint64_t alone = one_way(len, 100 + i), both = swapped ? exchange(len, 200 + 2 * i) : 0;
        if (me != 1)
            continue;
        uint64_t want_alone, want_both;
        if (set) {
            want_alone = from && len >= from;
            want_both = swapped && want_alone;
        } else {
            want_alone = len >= (shared ? (size_t)128 << 10 : (size_t)32 << 10);
            want_both = swapped && len >= ((size_t)128 << 10);
        }
        if (alone != want_alone || both != want_both)
            fprintf(stderr, "[rank 1] %zu bytes: split %llu alone, %llu in an exchange; "
                    "expected %llu, %llu\n", len, (unsigned long long)alone,
                    (unsigned long long)both, (unsigned long long)want_alone,
                    (unsigned long long)want_both);
        CHECK(alone == want_alone);
        CHECK(both == want_both);
    }
    CHECK(to_self(262144, 300) == 0);
    CHECK_OK(ordo_finalize());
    return test_result("test_p2p_split");
}
