/* A message lane's reader never trusts the writer's memory: records whose
 * kind, inline length, bounce index or bounce length break the lane's
 * geometry are not delivered (nothing is read out of bounds), the lane is
 * marked broken with the reason, and stays silent; good records before
 * them are delivered.  The record layout is written here on purpose: the
 * test plays a writer that corrupts its own records. */
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include "../../src/base/compiler.h"
#include "../../src/tl/am_ring.h"

/* am_ring.c's record: stamp (8), len (4), kind (2), bounce index (2) */
enum { OFF_LEN = 8, OFF_KIND = 12, OFF_BIDX = 14 };

static int delivered;

static ordo_status_t count(void *arg, void *data, size_t len, _Atomic uint32_t *bounce)
{
    (void)arg, (void)data, (void)len, (void)bounce;
    delivered++;
    return ORDO_OK;
}

static ordo_am_geometry_t geo;
static char *base;
static size_t section;

/* A fresh lane with one good record, then one to corrupt; returns the
 * second record's address. */
static char *lane_with_records(int bcopy, ordo_am_tx_t *tx, ordo_am_rx_t *rx)
{
    memset(base, 0, section);
    ordo_am_tx_init(tx, base, &geo);
    ordo_am_rx_init(rx, base, &geo);
    char hdr[16] = "good record";
    CHECK_OK(ordo_am_send_short(tx, hdr, sizeof(hdr), NULL, 0));
    uint64_t at = tx->tail;
    CHECK_OK(bcopy ? ordo_am_send_bcopy(tx, hdr, sizeof(hdr), hdr, 8)
                   : ordo_am_send_short(tx, hdr, sizeof(hdr), NULL, 0));
    return base + ORDO_CACHE_LINE + (size_t)(at & (geo.ring_size - 1));
}

static void expect_broken(ordo_am_rx_t *rx, const char *why)
{
    delivered = 0;
    CHECK(ordo_am_poll(rx, 64, count, NULL) == 1);   /* the good one */
    CHECK(delivered == 1);
    CHECK(rx->broken != NULL && strstr(rx->broken, why) != NULL);
    size_t len;
    CHECK(ordo_am_peek(rx, &len) == NULL);
    CHECK(ordo_am_poll(rx, 64, count, NULL) == 0 && delivered == 1);
}

int main(void)
{
    ordo_am_geometry_init(&geo, 256, 4096, 4, 0);
    CHECK(geo.rotate == 1);
    section = ordo_am_section_size(&geo);
    base = aligned_alloc(4096, section);
    if (base == NULL)
        return 1;
    ordo_am_tx_t tx;
    ordo_am_rx_t rx;

    /* untouched: both delivered */
    lane_with_records(1, &tx, &rx);
    delivered = 0;
    CHECK(ordo_am_poll(&rx, 64, count, NULL) == 2 && delivered == 2 && rx.broken == NULL);

    /* bounce buffers are taken as they are needed: one at a time reuses
     * the first, a window of three touches three, all four busy refuse */
    memset(base, 0, section);
    ordo_am_tx_init(&tx, base, &geo);
    ordo_am_rx_init(&rx, base, &geo);
    char msg[64] = "payload";
    for (int i = 0; i < 5; i++) {
        CHECK_OK(ordo_am_send_bcopy(&tx, msg, 8, msg, 32));
        delivered = 0;
        CHECK(ordo_am_poll(&rx, 64, count, NULL) == 1 && delivered == 1);   /* released */
    }
    CHECK(tx.span == 1);
    for (int i = 0; i < 3; i++)
        CHECK_OK(ordo_am_send_bcopy(&tx, msg, 8, msg, 32));
    CHECK(tx.span == 3);
    CHECK(ordo_am_poll(&rx, 64, count, NULL) == 3);
    for (int i = 0; i < 3; i++)
        CHECK_OK(ordo_am_send_bcopy(&tx, msg, 8, msg, 32));
    CHECK(tx.span == 3);
    CHECK_OK(ordo_am_send_bcopy(&tx, msg, 8, msg, 32));
    CHECK(tx.span == 4);
    CHECK_STATUS(ordo_am_send_bcopy(&tx, msg, 8, msg, 32), ORDO_ERR_BUSY);
    CHECK(ordo_am_poll(&rx, 64, count, NULL) == 4 && rx.broken == NULL);

    /* a lane told to rotate through three buffers' bytes cycles through
     * three even one message at a time, and still grows to all four */
    ordo_am_geometry_t rot;
    ordo_am_geometry_init(&rot, 256, 4096, 4, 2 * geo.bounce_size + 1);
    CHECK(rot.rotate == 3);
    ordo_am_geometry_init(&rot, 256, 4096, 4, 100 * geo.bounce_size);
    CHECK(rot.rotate == 4);   /* never more than the lane has */
    ordo_am_geometry_init(&rot, 256, 4096, 4, 2 * geo.bounce_size + 1);
    memset(base, 0, section);
    ordo_am_tx_init(&tx, base, &rot);
    ordo_am_rx_init(&rx, base, &rot);
    for (int i = 0; i < 7; i++) {
        CHECK(tx.next_bounce == (unsigned)i % 3);   /* 0 1 2 0 1 2 0 */
        CHECK_OK(ordo_am_send_bcopy(&tx, msg, 8, msg, 32));
        delivered = 0;
        CHECK(ordo_am_poll(&rx, 64, count, NULL) == 1 && delivered == 1);
    }
    CHECK(tx.span == 3);
    for (int i = 0; i < 4; i++)
        CHECK_OK(ordo_am_send_bcopy(&tx, msg, 8, msg, 32));
    CHECK(tx.span == 4);
    CHECK_STATUS(ordo_am_send_bcopy(&tx, msg, 8, msg, 32), ORDO_ERR_BUSY);
    CHECK(ordo_am_poll(&rx, 64, count, NULL) == 4 && rx.broken == NULL);

    char *rec = lane_with_records(0, &tx, &rx);
    *(uint16_t *)(rec + OFF_KIND) = 9;
    expect_broken(&rx, "no known kind");

    rec = lane_with_records(0, &tx, &rx);
    *(uint32_t *)(rec + OFF_LEN) = 1u << 30;
    expect_broken(&rx, "longer than the ring");

    rec = lane_with_records(1, &tx, &rx);
    *(uint16_t *)(rec + OFF_BIDX) = 4;   /* one past the last buffer */
    expect_broken(&rx, "bounce-buffer record");

    rec = lane_with_records(1, &tx, &rx);
    *(uint32_t *)(rec + OFF_LEN) = (uint32_t)geo.bounce_size + 1;
    expect_broken(&rx, "bounce-buffer record");

    free(base);
    return test_result("test_am_ring");
}
