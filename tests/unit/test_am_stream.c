/* A lane that streams its bounce buffers: a writer thread sends messages
 * of several lengths (below two chunks: whole; above: published after the
 * first chunk) while the reader copies each one out through
 * ordo_tl_am_copy as it lands; every byte must be the writer's.  Then the
 * copy's bound: bytes that never come end it with ORDO_ERR_TIMED_OUT after
 * the wait, having copied what did come; and a message with no descriptor
 * (a short one) is copied at once. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include "../../src/tl/am_ring.h"
#include "../../src/tl/tl.h"
#include "am_lane.h"

enum { MSGS = 600, HDR = 16, MAXLEN = 40000, CHUNK = 4096 };

static ordo_am_geometry_t geo;
static char *base;
static ordo_am_tx_t tx;
static ordo_am_rx_t rx;
static ordo_tl_iface_t iface;
static ordo_tl_ops_t ops;
static int seen;

static size_t len_of(int i)
{
    static const size_t lens[] = {0, 1, 100, CHUNK * 2 - 1, CHUNK * 2, CHUNK * 3 + 17, 20000,
                                  MAXLEN};
    return lens[i % (int)(sizeof(lens) / sizeof(lens[0]))];
}

static unsigned char byte_of(int msg, size_t at)
{
    return (unsigned char)(msg * 31 + at * 7 + (at >> 12));
}

static size_t arrived(ordo_tl_iface_t *f, void *desc)
{
    (void)f;
    return ordo_am_arrived(desc);
}

static void *writer(void *arg)
{
    (void)arg;
    char *payload = malloc(MAXLEN);
    for (int i = 0; i < MSGS; i++) {
        size_t len = len_of(i);
        for (size_t k = 0; k < len; k++)
            payload[k] = (char)byte_of(i, k);
        char hdr[HDR];
        memset(hdr, 0, sizeof(hdr));
        memcpy(hdr, &i, sizeof(i));
        memcpy(hdr + sizeof(i), &len, sizeof(len));
        while (ordo_am_send_bcopy(&tx, hdr, HDR, payload, len) == ORDO_ERR_BUSY)
            ;   /* the reader frees buffers as it goes */
    }
    free(payload);
    return NULL;
}

static unsigned char out[MAXLEN];

static ordo_status_t take(void *arg, void *data, size_t len, _Atomic uint32_t *bounce)
{
    (void)arg;
    int i;
    size_t plen;
    memcpy(&i, data, sizeof(i));   /* the header is in place when it is handed up */
    memcpy(&plen, (char *)data + sizeof(i), sizeof(plen));
    CHECK(i == seen && len == HDR + plen && plen == len_of(i));
    CHECK_OK(ordo_tl_am_copy(&iface, bounce, out, (char *)data + HDR, HDR, plen));
    int good = 1;
    for (size_t k = 0; k < plen; k++)
        good &= out[k] == byte_of(i, k);
    CHECK(good);
    seen++;
    return ORDO_OK;
}

int main(void)
{
    ops.am_arrived = arrived;
    iface.ops = &ops;
    ordo_am_geometry_init(&geo, 256, MAXLEN, 8, 0);
    geo.stream_chunk = CHUNK;
    base = am_lane_new(&geo, &tx, &rx);
    if (base == NULL)
        return 1;

    pthread_t t;
    if (pthread_create(&t, NULL, writer, NULL) != 0)
        return 1;
    while (seen < MSGS && rx.broken == NULL)
        ordo_am_poll(&rx, 8, take, NULL);
    pthread_join(t, NULL);
    CHECK(seen == MSGS && rx.broken == NULL);

    /* a writer that stops part way: what came is copied, then the bound */
    _Atomic uint32_t line[16];
    memset(line, 0, sizeof(line));
    atomic_store(&line[ORDO_AM_ARRIVED_OFFSET / 4], HDR + 100);
    char src[300], dst[300];
    memset(src, 0x5a, sizeof(src));
    memset(dst, 0, sizeof(dst));
    ordo_tl_am_wait_ns = 20 * 1000 * 1000;
    CHECK_STATUS(ordo_tl_am_copy(&iface, line, dst, src, HDR, sizeof(dst)), ORDO_ERR_TIMED_OUT);
    CHECK(dst[99] == 0x5a && dst[100] == 0);
    /* a count past the message (the writer lies) bounds nothing beyond it */
    atomic_store(&line[ORDO_AM_ARRIVED_OFFSET / 4], 1u << 30);
    memset(dst, 0, sizeof(dst));
    CHECK_OK(ordo_tl_am_copy(&iface, line, dst, src, HDR, 200));
    CHECK(dst[199] == 0x5a && dst[200] == 0);
    /* no descriptor: whole at once */
    memset(dst, 0, sizeof(dst));
    CHECK_OK(ordo_tl_am_copy(&iface, NULL, dst, src, HDR, 300));
    CHECK(dst[299] == 0x5a);
    free(base);
    return test_failures ? 1 : 0;
}
