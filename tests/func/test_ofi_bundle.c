/* Short messages gathered into bundles on the network transport (run under
 * ordorun --nodes 2 -n 2; argument "bundled" where ORDO_OFI_MSG_BUNDLE
 * bundles, "unbundled" where it does not).
 *
 * - a window of small non-blocking sends goes out in a few messages
 *   (msg_bundles far below msgs_bundled), and nothing is bundled when off;
 * - messages of every size from 0 B to past the bundle limit, on three
 *   tags, arrive intact and, per tag, in the order sent (MPI's
 *   non-overtaking rule), received by tag in an order unlike the sending;
 * - a ping-pong's messages go out at once, not gathered (each is alone
 *   between two drives of the transport, as the one before it was);
 * - a send that completed, after which its sender makes no ordo call for a
 *   while, still reaches its receiver in that while (the progress helper
 *   sends what was gathered). */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../harness.h"

#define COUNT   1200
#define MAXLEN  5000           /* beyond the 4 KiB bundle limit */
#define WINDOW  60
#define TAGS    3

static ordo_stats_t stats(void)
{
    ordo_stats_t s;
    CHECK_OK(ordo_stats_get(&s));
    return s;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Message i: its length, tag and content follow from i alone. */
static size_t len_of(int i)
{
    if (i % 17 == 0)
        return 0;
    if (i % 10 == 0)
        return (size_t)(i * 131) % MAXLEN + 1;   /* up to past the limit */
    return (size_t)(i * 37) % 301;
}
static int tag_of(int i) { return (i * 7) % TAGS; }

static void fill(char *buf, int i) { test_fill(buf, len_of(i), 1000 + (uint64_t)i); }

static void window_is_gathered(int bundled)
{
    ordo_stats_t a = stats();
    char msg[8] = "ordo";
    if (ordo_rank() == 0) {
        for (int round = 0; round < 8; round++) {
            ordo_request_h req[64];
            for (int i = 0; i < 64; i++) {
                ordo_status_t s = ordo_send_nb(ORDO_COMM_WORLD, msg, sizeof(msg), 1, 9, &req[i]);
                CHECK(s == ORDO_OK || s == ORDO_INPROGRESS);
                if (s == ORDO_OK)
                    req[i] = NULL;
            }
            CHECK_OK(ordo_request_waitall(64, req, NULL));
            CHECK_OK(ordo_recv(ORDO_COMM_WORLD, msg, sizeof(msg), 1, 10, NULL));
        }
        ordo_stats_t b = stats();
        uint64_t n = b.msgs_bundled - a.msgs_bundled, m = b.msg_bundles - a.msg_bundles;
        printf("window: %llu messages in %llu bundles\n", (unsigned long long)n,
               (unsigned long long)m);
        if (bundled) {
            CHECK(n >= 8 * 63);   /* the first window's first may go at once */
            CHECK(m * 4 < n);
        } else {
            CHECK(n == 0 && m == 0);
        }
    } else {
        for (int round = 0; round < 8; round++) {
            for (int i = 0; i < 64; i++) {
                char got[8];
                CHECK_OK(ordo_recv(ORDO_COMM_WORLD, got, sizeof(got), 0, 9, NULL));
                CHECK(memcmp(got, msg, sizeof(got)) == 0);
            }
            CHECK_OK(ordo_send(ORDO_COMM_WORLD, msg, sizeof(msg), 0, 10));
        }
    }
}

static void ping_pong_goes_at_once(void)
{
    enum { TRIPS = 200 };
    char msg[8] = "pingpong";
    int peer = 1 - ordo_rank();
    CHECK_OK(ordo_coll_barrier(ORDO_COMM_WORLD));
    ordo_stats_t a = stats();
    for (int i = 0; i < TRIPS; i++) {
        if (ordo_rank() == 0) {
            CHECK_OK(ordo_send(ORDO_COMM_WORLD, msg, sizeof(msg), peer, 13));
            CHECK_OK(ordo_recv(ORDO_COMM_WORLD, msg, sizeof(msg), peer, 13, NULL));
        } else {
            CHECK_OK(ordo_recv(ORDO_COMM_WORLD, msg, sizeof(msg), peer, 13, NULL));
            CHECK_OK(ordo_send(ORDO_COMM_WORLD, msg, sizeof(msg), peer, 13));
        }
    }
    ordo_stats_t b = stats();
    uint64_t n = b.msgs_bundled - a.msgs_bundled;
    printf("ping-pong: %llu of %d messages gathered\n", (unsigned long long)n, TRIPS);
    /* the protocol's own messages (credits) may share a drive with a
     * program's message now and then; a ping-pong's are not gathered */
    CHECK(n * 8 < TRIPS);
}

static void sizes_and_order_hold(void)
{
    static char out[WINDOW][MAXLEN], want[MAXLEN];
    if (ordo_rank() == 0) {
        for (int base = 0; base < COUNT; base += WINDOW) {
            ordo_request_h req[WINDOW];
            for (int k = 0; k < WINDOW; k++) {
                int i = base + k;
                fill(out[k], i);
                ordo_status_t s = ordo_send_nb(ORDO_COMM_WORLD, out[k], len_of(i), 1, tag_of(i),
                                               &req[k]);
                CHECK(s == ORDO_OK || s == ORDO_INPROGRESS);
                if (s == ORDO_OK)
                    req[k] = NULL;
            }
            CHECK_OK(ordo_request_waitall(WINDOW, req, NULL));
        }
    } else {
        /* every receive posted first, tag by tag, last tag first: matching
         * differs from the sending order, and the program is safe (it
         * relies on no buffering) */
        static char in_all[COUNT][MAXLEN];
        static ordo_request_h req[COUNT];
        static int which[COUNT];
        int n = 0;
        for (int t = TAGS - 1; t >= 0; t--) {
            for (int i = 0; i < COUNT; i++) {
                if (tag_of(i) != t)
                    continue;
                ordo_status_t s = ordo_recv_nb(ORDO_COMM_WORLD, in_all[n], MAXLEN, 0, t, &req[n]);
                CHECK(s == ORDO_OK || s == ORDO_INPROGRESS);
                which[n++] = i;
            }
        }
        static ordo_completion_t info[COUNT];
        CHECK_OK(ordo_request_waitall(COUNT, req, info));
        for (int k = 0; k < n; k++) {
            int i = which[k];
            fill(want, i);
            if (info[k].length != len_of(i) || memcmp(in_all[k], want, len_of(i)) != 0) {
                fprintf(stderr, "message %d (tag %d, %zu B) arrived as %zu B or corrupt\n", i,
                        tag_of(i), len_of(i), info[k].length);
                test_failures++;
                return;
            }
        }
    }
}

static void sent_while_sender_computes(int bundled)
{
    char msg[16] = "late";
    CHECK_OK(ordo_coll_barrier(ORDO_COMM_WORLD));
    if (ordo_rank() == 0) {
        /* two: the second is gathered even where a first goes at once */
        ordo_stats_t a = stats();
        CHECK_OK(ordo_send(ORDO_COMM_WORLD, msg, sizeof(msg), 1, 11));
        CHECK_OK(ordo_send(ORDO_COMM_WORLD, msg, sizeof(msg), 1, 12));
        ordo_stats_t b = stats();
        CHECK(!bundled || b.msgs_bundled - a.msgs_bundled >= 1);
        /* no ordo call for 400 ms */
        double t0 = now_ms();
        while (now_ms() - t0 < 400)
            ;
    } else {
        double t0 = now_ms();
        CHECK_OK(ordo_recv(ORDO_COMM_WORLD, msg, sizeof(msg), 0, 11, NULL));
        CHECK_OK(ordo_recv(ORDO_COMM_WORLD, msg, sizeof(msg), 0, 12, NULL));
        double waited = now_ms() - t0;
        printf("messages sent before 400 ms without ordo calls arrived in %.1f ms\n", waited);
        CHECK(waited < 200);
    }
}

int main(int argc, char **argv)
{
    int bundled = argc > 1 && strcmp(argv[1], "bundled") == 0;
    REQUIRE_OK(ordo_init(NULL));
    if (ordo_size() != 2) {
        if (ordo_rank() == 0)
            fprintf(stderr, "test_ofi_bundle: run with 2 ranks\n");
        ordo_finalize();
        return 2;
    }
    window_is_gathered(bundled);
    ping_pong_goes_at_once();
    sizes_and_order_hold();
    /* only with the progress helper: manual progress promises nothing here */
    const char *progress = getenv("ORDO_OFI_PROGRESS");
    if (progress == NULL || strcmp(progress, "manual") != 0)
        sent_while_sender_computes(bundled);
    CHECK_OK(ordo_finalize());
    return test_result("test_ofi_bundle");
}
