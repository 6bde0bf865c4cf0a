/* Two-sided data over whichever protocol the environment forces
 * (ORDO_P2P_PROTOCOL, ORDO_RNDV, ORDO_SINGLE_COPY, ORDO_TL_REORDER): every
 * size class pre-posted and unexpected, truncation, and a seeded randomised
 * stress (sizes 0 B - 8 MiB, tags, wildcards) with every byte verified.
 * Args: [seed] [stress rounds] */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"

static int me, np;

#define GUARD 64
#define MAXMSG (8u << 20)

static uint64_t msg_seed(int src, int dst, uint32_t index, uint64_t round)
{
    return ((uint64_t)src << 48) ^ ((uint64_t)dst << 32) ^ index ^ (round << 20);
}

static const size_t sizes[] = {0, 1, 7, 8, 64, 1000, 4096, 8192, 8193, 16384, 32768, 32769,
                               65536, 200000, 1 << 20, 3 << 20, MAXMSG};
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))

/* Ring exchange of every size: to the right, from the left; the receive
 * posted before (even sizes) or after (odd) the message arrives; then the
 * same message into a buffer half its size. */
static void size_classes(void)
{
    int right = (me + 1) % np, left = (me + np - 1) % np;
    char *out = malloc(MAXMSG), *in = malloc(MAXMSG + GUARD), *want = malloc(MAXMSG);
    for (size_t i = 0; i < NSIZES; i++) {
        size_t len = sizes[i];
        test_fill(out, len, msg_seed(me, right, (uint32_t)i, 0));
        test_fill(want, len, msg_seed(left, me, (uint32_t)i, 0));
        for (int trunc = 0; trunc < 2; trunc++) {
            if (trunc && len == 0)
                continue;
            size_t cap = trunc ? len / 2 : len;
            memset(in, 0xa5, cap + GUARD);
            ordo_request_h r = NULL, s = NULL;
            int preposted = (i + (size_t)trunc) % 2 == 0;
            if (preposted)
                CHECK_STATUS(ordo_recv_nb(NULL, in, cap, left, (int)i, &r), ORDO_INPROGRESS);
            REQUIRE_OK(ordo_barrier());
            ordo_status_t st = ordo_send_nb(NULL, out, len, right, (int)i, &s);
            CHECK(st == ORDO_OK || st == ORDO_INPROGRESS);
            if (!preposted) {
                CHECK_OK(ordo_probe(NULL, left, (int)i, NULL));   /* arrived: unexpected */
                CHECK_STATUS(ordo_recv_nb(NULL, in, cap, left, (int)i, &r), ORDO_INPROGRESS);
            }
            ordo_completion_t info;
            CHECK_STATUS(ordo_request_wait(&r, &info), trunc ? ORDO_ERR_TRUNCATED : ORDO_OK);
            CHECK_OK(ordo_request_wait(&s, NULL));
            CHECK(info.error == (trunc ? ORDO_ERR_TRUNCATED : ORDO_OK));
            CHECK(info.source == left && info.tag == (int)i);
            CHECK(info.length == cap && info.msg_length == len);
            CHECK(memcmp(in, want, cap) == 0);
            int guard_ok = 1;
            for (size_t g = 0; g < GUARD; g++)
                guard_ok &= (unsigned char)in[cap + g] == 0xa5;
            CHECK(guard_ok);   /* nothing written past the buffer */
        }
    }
    free(out), free(in), free(want);
    REQUIRE_OK(ordo_barrier());
}

/* The protocol the environment asked for really carried the data. */
static void protocol_used(void)
{
    const char *p = getenv("ORDO_P2P_PROTOCOL");
    const char *sc = getenv("ORDO_SINGLE_COPY");
    int single = !(sc && strcmp(sc, "off") == 0);
    ordo_stats_t s;
    REQUIRE_OK(ordo_stats_get(&s));
    if (p == NULL || strcmp(p, "auto") == 0) {
        /* eager carries what lies between the inline limit and the
         * crossover auto measured for a message sent alone; a machine too
         * busy to time its single copy well may set that crossover at the
         * inline limit itself, and then nothing goes eager */
        char why[512], lim[64];
        CHECK_OK(ordo_setting_describe("ORDO_EAGER_MAX", why, sizeof(why)));
        CHECK_OK(ordo_setting_describe("ORDO_SHORT_MAX", lim, sizeof(lim)));
        const char *upto = strstr(why, "up to ");
        unsigned long long cross = upto ? strtoull(upto + 6, NULL, 10) : 0;
        CHECK(upto != NULL && cross > 0);
        CHECK(s.msgs_short > 0);
        if (cross > strtoull(lim, NULL, 10))
            CHECK(s.msgs_eager > 0);
        /* above the bounce buffers: a rendezvous, whose data goes by single
         * copy or, on shared memory where that is faster here, through
         * bounce-buffer fragments */
        CHECK(s.msgs_rget + s.msgs_rput + s.msgs_pipelined > 0);
        if (strstr(why, "fragments") == NULL)
            CHECK(s.msgs_pipelined == 0);
    } else if (strcmp(p, "short") == 0) {
        CHECK(s.msgs_short > 0);
    } else if (strcmp(p, "eager") == 0) {
        CHECK(s.msgs_eager > 0 && s.msgs_pipelined > 0 && s.msgs_short == 0);
    } else if (strcmp(p, "rget") == 0) {
        CHECK(s.msgs_rget > 0 && s.msgs_short == 0 && s.msgs_eager == 0);
    } else if (strcmp(p, "rput") == 0) {
        CHECK(s.msgs_rput > 0 && s.msgs_short == 0 && s.msgs_eager == 0);
    }
    if (!single)
        CHECK(s.single_copy_ops == 0);
}

/* ---------------------------------------------------------------- stress */

typedef struct planned {
    size_t len;
    int    tag;
    int    seen;
} planned_t;

static size_t random_size(uint64_t *st)
{
    switch (test_rand(st) % 8) {
    case 0:  return 0;
    case 1: case 2: return test_rand(st) % 256;
    case 3:  return test_rand(st) % 8200;
    case 4:  return test_rand(st) % 40000;
    case 5:  return test_rand(st) % (1u << 20);
    case 6:  return test_rand(st) % (MAXMSG + 1);
    default: return 8 + test_rand(st) % 64;
    }
}

static void stress(uint64_t seed, int rounds)
{
    enum { PER = 6 };   /* messages per (sender, receiver) pair per round */
    char *in = malloc(MAXMSG), *want = malloc(MAXMSG);
    for (int round = 0; round < rounds; round++) {
        /* Every rank derives the whole plan from the shared seed. */
        uint64_t st = seed * 1000003u + (uint64_t)round;
        planned_t *plan = calloc((size_t)np * np * PER, sizeof(*plan));
        for (int s = 0; s < np; s++)
            for (int d = 0; d < np; d++)
                for (int k = 0; k < PER; k++) {
                    planned_t *p = &plan[(s * np + d) * PER + k];
                    p->len = (test_rand(&st) % 4 == 0) ? random_size(&st) : test_rand(&st) % 9000;
                    /* unique per sender and receiver, so each receive has
                     * exactly one message it may match, wildcards or not */
                    p->tag = (s * PER + k) * 1000 + (int)(test_rand(&st) % 1000);
                }
        /* send: all non-blocking, buffers kept until done */
        char **bufs = calloc((size_t)np * PER, sizeof(char *));
        ordo_request_h *sreq = calloc((size_t)np * PER, sizeof(ordo_request_h));
        ordo_request_h *rreq = calloc((size_t)np * PER, sizeof(ordo_request_h));
        char **rbufs = calloc((size_t)np * PER, sizeof(char *));
        size_t *caps = calloc((size_t)np * PER, sizeof(size_t));
        /* receives: per planned message, with a random wildcard; wildcard
         * receives get a buffer for the largest message they could match */
        for (int s = 0; s < np; s++)
            for (int k = 0; k < PER; k++) {
                planned_t *p = &plan[(s * np + me) * PER + k];
                int mode = (int)(test_rand(&st) % 4);
                int src = mode == 1 ? ORDO_ANY_SOURCE : s;
                int tag = mode == 2 ? ORDO_ANY_TAG : p->tag;
                if (mode == 1 || mode == 2) {
                    /* ANY_TAG from s may match any of s's messages, in order;
                     * ANY_SOURCE with this tag only messages with this tag */
                    size_t cap = 0;
                    for (int s2 = 0; s2 < np; s2++)
                        for (int k2 = 0; k2 < PER; k2++) {
                            planned_t *q = &plan[(s2 * np + me) * PER + k2];
                            if ((mode == 1 && q->tag == p->tag) || (mode == 2 && s2 == s))
                                cap = q->len > cap ? q->len : cap;
                        }
                    caps[s * PER + k] = cap;
                } else {
                    caps[s * PER + k] = p->len;
                }
                rbufs[s * PER + k] = malloc(caps[s * PER + k] ? caps[s * PER + k] : 1);
                CHECK_STATUS(ordo_recv_nb(NULL, rbufs[s * PER + k], caps[s * PER + k], src,
                                          tag, &rreq[s * PER + k]), ORDO_INPROGRESS);
            }
        for (int d = 0; d < np; d++)
            for (int k = 0; k < PER; k++) {
                planned_t *p = &plan[(me * np + d) * PER + k];
                char *b = bufs[d * PER + k] = malloc(p->len ? p->len : 1);
                test_fill(b, p->len, msg_seed(me, d, (uint32_t)p->tag, (uint64_t)round));
                ordo_status_t rc = ordo_send_nb(NULL, b, p->len, d, p->tag, &sreq[d * PER + k]);
                CHECK(rc == ORDO_OK || rc == ORDO_INPROGRESS);
            }
        ordo_completion_t *infos = calloc((size_t)np * PER, sizeof(*infos));
        CHECK_OK(ordo_request_waitall((size_t)np * PER, rreq, infos));
        CHECK_OK(ordo_request_waitall((size_t)np * PER, sreq, NULL));
        for (int i = 0; i < np * PER; i++) {
            ordo_completion_t *in_ = &infos[i];
            planned_t *p = NULL;
            for (int k = 0; k < PER && in_->source >= 0 && in_->source < np; k++) {
                planned_t *q = &plan[(in_->source * np + me) * PER + k];
                if (q->tag == in_->tag && !q->seen) {
                    p = q;
                    break;
                }
            }
            CHECK(p != NULL);
            if (p == NULL)
                continue;
            p->seen = 1;
            CHECK(in_->msg_length == p->len && in_->length == p->len);
            test_fill(want, p->len, msg_seed(in_->source, me, (uint32_t)p->tag, (uint64_t)round));
            CHECK(memcmp(rbufs[i], want, p->len) == 0);
        }
        for (int i = 0; i < np * PER; i++) {
            free(bufs[i]);
            free(rbufs[i]);
        }
        free(bufs), free(sreq), free(rreq), free(rbufs), free(caps), free(infos), free(plan);
    }
    free(in), free(want);
    REQUIRE_OK(ordo_barrier());
}

/* Unmatched messages must not hold the buffers a later message needs:
 * nine 9000-byte sends with one tag, then one with another that the
 * receiver takes first; and a rank that sends itself 1 MB then nine short
 * messages before it receives any.  Under a forced protocol, or without
 * single copy, either used to hang once the first messages held every
 * bounce buffer of the pair. */
static int sent_ok(ordo_status_t st) { return st == ORDO_OK || st == ORDO_INPROGRESS; }

static void held_back(void)
{
    enum { N = 9, LEN = 9000, BIG = 1000000 };
    char *buf = malloc((size_t)(N + 1) * LEN), *big = malloc(BIG), *bigin = malloc(BIG);
    ordo_request_h req[N + 2];
    if (np >= 2 && me < 2) {
        int peer = 1 - me;
        if (me == 0) {
            for (int i = 0; i <= N; i++) {
                memset(buf + (size_t)i * LEN, 'a' + i, LEN);
                CHECK(sent_ok(ordo_send_nb(NULL, buf + (size_t)i * LEN, LEN, peer, i < N ? 1 : 2,
                                             &req[i])));
            }
            CHECK_OK(ordo_request_waitall(N + 1, req, NULL));
        } else {
            CHECK_OK(ordo_recv(NULL, buf + (size_t)N * LEN, LEN, peer, 2, NULL));
            CHECK(buf[(size_t)N * LEN] == 'a' + N);
            for (int i = 0; i < N; i++) {
                CHECK_OK(ordo_recv(NULL, buf + (size_t)i * LEN, LEN, peer, 1, NULL));
                CHECK(buf[(size_t)i * LEN] == 'a' + i && buf[(size_t)i * LEN + LEN - 1] == 'a' + i);
            }
        }
    }
    memset(big, 'B', BIG);
    CHECK(sent_ok(ordo_send_nb(NULL, big, BIG, me, 3, &req[0])));
    for (int i = 0; i < N; i++) {
        memset(buf + (size_t)i * 100, 'k' + i, 100);
        CHECK(sent_ok(ordo_send_nb(NULL, buf + (size_t)i * 100, 100, me, 3, &req[1 + i])));
    }
    CHECK_OK(ordo_recv(NULL, bigin, BIG, me, 3, NULL));
    CHECK(bigin[0] == 'B' && bigin[BIG - 1] == 'B');
    for (int i = 0; i < N; i++) {
        char small[100];
        CHECK_OK(ordo_recv(NULL, small, sizeof(small), me, 3, NULL));
        CHECK(small[0] == 'k' + i && small[99] == 'k' + i);
    }
    CHECK_OK(ordo_request_waitall(N + 1, req, NULL));
    CHECK_OK(ordo_coll_barrier(NULL));
    free(buf);
    free(big);
    free(bigin);
}

int main(int argc, char **argv)
{
    uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 10) : 1;
    int rounds = argc > 2 ? atoi(argv[2]) : 4;
    REQUIRE_OK(ordo_init(NULL));
    me = ordo_rank();
    np = ordo_size();
    size_classes();
    protocol_used();
    held_back();
    stress(seed, rounds);
    CHECK_OK(ordo_finalize());
    return test_result("test_p2p_protocols");
}
