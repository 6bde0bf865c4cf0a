/* A lane whose writer asks for ring lines ahead of time (own_ahead)
 * delivers what it delivered without: every record whole and in order,
 * through wraps and a full ring.  What it asks for after a record
 * (ordo_am_ahead_span) is the next record's lines if it is as long, past
 * the tail's own line (which the reader polls), at most own_ahead bytes,
 * and only free lines: never past the reader's head a lap on. */
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include "../../src/base/compiler.h"
#include "../../src/tl/am_ring.h"
#include "am_lane.h"

#define LINE ORDO_CACHE_LINE

static ordo_am_geometry_t geo;
static char *base;
static ordo_am_tx_t tx;
static ordo_am_rx_t rx;
static int next_in, bad;

static size_t len_of(int i)
{
    return (size_t)(i * 37 % 4000) + 1;   /* 1 .. 4000 bytes, lines of each count */
}

static ordo_status_t take(void *arg, void *data, size_t len, _Atomic uint32_t *bounce)
{
    (void)arg, (void)bounce;
    int i;
    memcpy(&i, data, sizeof(i));
    const unsigned char *p = (const unsigned char *)data + sizeof(i);
    if (i != next_in || len != sizeof(i) + len_of(i))
        bad++;
    for (size_t k = 0; k < len_of(i) && k + sizeof(i) < len; k++)
        if (p[k] != (unsigned char)(i + k))
            bad++;
    next_in++;
    return ORDO_OK;
}

static size_t spans, spans_cut;

/* What the writer would ask for after a record of recsize ring bytes. */
static void check_span(size_t recsize)
{
    uint64_t from, to;
    ordo_am_ahead_span(&tx, recsize, &from, &to);
    uint64_t free_end = tx.head_seen + geo.ring_size;
    size_t want = recsize < geo.own_ahead ? recsize : geo.own_ahead;
    CHECK(from == tx.tail + LINE);
    CHECK(to >= from && to <= free_end && to <= tx.tail + want);
    CHECK(to == tx.tail + want || to == free_end || want <= LINE);
    spans++;
    if (to < tx.tail + want)
        spans_cut++;
}

int main(void)
{
    /* more than the 16 lines the writer keeps free past its tail: the
     * free space can cut what it asks for */
    ordo_am_geometry_init(&geo, 4096, 4096, 2, 0);
    geo.own_ahead = 4096;
    base = am_lane_new(&geo, &tx, &rx);
    if (base == NULL)
        return 1;

    unsigned char payload[4100];
    int sent = 0;
    /* bursts of 1 .. 200 records before the reader drains: the ring fills
     * (its free space then bounds what is asked for) and wraps many times */
    for (int burst = 0; burst < 400; burst++) {
        int n = 1 + burst * 7 % 200;
        for (int k = 0; k < n; k++) {
            size_t len = len_of(sent);
            for (size_t b = 0; b < len; b++)
                payload[b] = (unsigned char)(sent + b);
            uint64_t before = tx.tail;
            ordo_status_t st = ordo_am_send_short(&tx, &sent, sizeof(sent), payload, len);
            if (st == ORDO_ERR_BUSY)
                break;           /* full: drain first */
            CHECK_OK(st);
            sent++;
            check_span((size_t)(tx.tail - before));
        }
        ordo_am_poll(&rx, 1u << 20, take, NULL);
        CHECK(next_in == sent);
    }
    CHECK(bad == 0);
    CHECK(sent > 20000);
    CHECK(tx.tail > 20 * geo.ring_size);   /* wrapped many times */
    CHECK(spans_cut > 0 && spans_cut < spans);   /* the free space bounded some */

    /* a record longer than own_ahead: own_ahead bytes at most */
    uint64_t from, to;
    ordo_am_ahead_span(&tx, 8192, &from, &to);
    CHECK(to - tx.tail <= geo.own_ahead);

    free(base);
    return test_result("test_am_ahead");
}
