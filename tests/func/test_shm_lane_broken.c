/* A peer that breaks its shared-memory lane is cut off, not waited for.
 *
 * Three ranks over shm.  Rank 1 writes a record of no known kind into its
 * lane to rank 0 while rank 0 sleeps outside ordo.  Rank 0's receive from
 * rank 1 then fails with ORDO_ERR_PEER_DEAD within seconds (before the cut,
 * it waited until the job's time limit), and rank 0 and rank 2 go on
 * exchanging messages as before. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "../harness.h"
#include "../../src/base/compiler.h"
#include "../../src/core/core.h"
#include "../../src/tl/am_ring.h"
#include "../../src/tl/shm/shm_am.h"

/* am_ring.c's record: stamp (8), len (4), kind (2), bounce index (2) */
enum { OFF_KIND = 12 };

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Rank 1: a record of no known kind into its lane to rank 0. */
static void break_lane_to(int to)
{
    ordo_tl_iface_t *f = ordo_iface_of(to);
    REQUIRE_OK(strcmp(f->ops->name, "shm") == 0 ? ORDO_OK : ORDO_ERR_UNSUPPORTED);
    ordo_am_tx_t *tx;
    REQUIRE_OK(shm_mailbox_lane(shm_mailbox_of(f), to, &tx));
    char hdr[32] = {0};
    uint64_t at = tx->tail;
    REQUIRE_OK(ordo_am_send_short(tx, hdr, sizeof(hdr), NULL, 0));
    char *rec = tx->base + ORDO_CACHE_LINE + (size_t)(at & (tx->geo.ring_size - 1));
    uint16_t bad = 0x7777;
    memcpy(rec + OFF_KIND, &bad, sizeof(bad));
}

int main(void)
{
    REQUIRE_OK(ordo_init(NULL));
    int me = ordo_rank(), n = ordo_size();
    if (n != 3) {
        fprintf(stderr, "run with 3 ranks over shm\n");
        ordo_finalize();
        return 2;
    }
    int x = 0;
    /* the lanes are attached and working */
    if (me == 0) {
        CHECK_OK(ordo_recv(ORDO_COMM_WORLD, &x, sizeof(x), 1, 1, NULL));
        CHECK_OK(ordo_recv(ORDO_COMM_WORLD, &x, sizeof(x), 2, 1, NULL));
    } else {
        CHECK_OK(ordo_send(ORDO_COMM_WORLD, &me, sizeof(me), 0, 1));
    }
    CHECK_OK(ordo_barrier());
    if (me == 0) {
        struct timespec nap = {0, 300 * 1000 * 1000};
        nanosleep(&nap, NULL);   /* outside ordo: rank 1 breaks the lane meanwhile */
        double t0 = now();
        CHECK_STATUS(ordo_recv(ORDO_COMM_WORLD, &x, sizeof(x), 1, 2, NULL), ORDO_ERR_PEER_DEAD);
        CHECK(now() - t0 < 10.0);
        /* the other peers carry on */
        for (int i = 0; i < 100; i++) {
            CHECK_OK(ordo_recv(ORDO_COMM_WORLD, &x, sizeof(x), 2, 3, NULL));
            CHECK(x == i);
            CHECK_OK(ordo_send(ORDO_COMM_WORLD, &x, sizeof(x), 2, 4));
        }
    } else if (me == 1) {
        break_lane_to(0);
    } else {
        for (int i = 0; i < 100; i++) {
            CHECK_OK(ordo_send(ORDO_COMM_WORLD, &i, sizeof(i), 0, 3));
            CHECK_OK(ordo_recv(ORDO_COMM_WORLD, &x, sizeof(x), 0, 4, NULL));
            CHECK(x == i);
        }
    }
    CHECK_OK(ordo_barrier());
    ordo_finalize();   /* rank 0 no longer trusts rank 1: its status is not the point */
    return test_result("test_shm_lane_broken");
}
