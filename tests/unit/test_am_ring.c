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
#include "../../src/base/config.h"
#include "../../src/tl/am_ring.h"
#include "../../src/tl/tl.h"
#include "am_lane.h"

/* am_ring.c's record: stamp (8), len (4), kind (2), bounce index or, for
 * an inline record, where its data starts (2) */
enum { OFF_LEN = 8, OFF_KIND = 12, OFF_BIDX = 14 };

static int delivered;

static ordo_status_t count(void *arg, void *data, size_t len, _Atomic uint32_t *bounce)
{
    (void)arg, (void)data, (void)len, (void)bounce;
    delivered++;
    return ORDO_OK;
}

/* Delivered records' bytes, in order, for the hot-buffer checks. */
static char got[8][1200];
static size_t got_len[8];

static ordo_status_t keep(void *arg, void *data, size_t len, _Atomic uint32_t *bounce)
{
    (void)arg, (void)bounce;
    if (delivered < 8 && len <= sizeof(got[0])) {
        memcpy(got[delivered], data, len);
        got_len[delivered] = len;
    }
    delivered++;
    return ORDO_OK;
}

/* Keeps the bounce buffer of the record it is handed (one at a time). */
static _Atomic uint32_t *held;

static ordo_status_t hold(void *arg, void *data, size_t len, _Atomic uint32_t *bounce)
{
    (void)arg, (void)data, (void)len;
    delivered++;
    if (bounce == NULL || held != NULL)
        return ORDO_OK;
    held = bounce;
    return ORDO_INPROGRESS;
}

static ordo_am_geometry_t geo;
static char *base;
static size_t section;

/* A fresh lane with one good record, then one to corrupt; returns the
 * second record's address. */
static char *lane_with_records(int bcopy, ordo_am_tx_t *tx, ordo_am_rx_t *rx)
{
    am_lane_reset(base, &geo, tx, rx);
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
    _Atomic uint32_t *pb;
    CHECK(ordo_am_peek(rx, &len, &pb) == NULL);
    CHECK(ordo_am_poll(rx, 64, count, NULL) == 0 && delivered == 1);
}

/* An inline record of a long payload after a header of whole words lays
 * the payload on a line boundary; a short one, or one after an odd
 * header, follows the record's header; each arrives whole. */
static void inline_layout(ordo_am_tx_t *tx, ordo_am_rx_t *rx)
{
    am_lane_reset(base, &geo, tx, rx);
    static char pay[1024];
    for (size_t i = 0; i < sizeof(pay); i++)
        pay[i] = (char)(i * 7 + 3);
    char hdr[64] = "header";
    const struct { size_t hdrlen, len; int aligned; } cases[] = {
        {40, 1000, 1}, {48, 256, 1}, {8, 300, 1}, {40, 255, 0}, {12, 600, 0}, {56, 600, 0},
        {40, 0, 0}, {0, 700, 1},
    };
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        size_t hl = cases[k].hdrlen, n = cases[k].len;
        uint64_t at = tx->tail;
        CHECK_OK(ordo_am_send_short(tx, hdr, hl, pay, n));
        char *recp = base + ORDO_CACHE_LINE + (size_t)(at & (geo.ring_size - 1));
        size_t plen;
        _Atomic uint32_t *pb;
        char *p = ordo_am_peek(rx, &plen, &pb);
        CHECK(p != NULL && pb == NULL && plen == hl + n);
        if (p == NULL)
            return;
        CHECK(memcmp(p, hdr, hl) == 0 && memcmp(p + hl, pay, n) == 0);
        if (cases[k].aligned)
            CHECK(((uintptr_t)(p + hl) & (ORDO_CACHE_LINE - 1)) == 0);
        else
            CHECK(p == recp + 16);
        CHECK(*(uint16_t *)(recp + OFF_BIDX) == (uint16_t)(p - recp));
        ordo_am_consume(rx);
        CHECK(rx->head == tx->tail);
    }
}

/* Bytes left by an earlier lap that read as the stamp a record at their
 * place would have in this lap never pass for a record: the writer clears
 * the stamp the reader looks at next before it publishes.  Lap 0 carries
 * payloads whose every word is the stamp of lap 1 at that place; lap 1
 * then sends one-line records, and after each the reader finds nothing. */
static void stale_stamps(ordo_am_tx_t *tx, ordo_am_rx_t *rx)
{
    am_lane_reset(base, &geo, tx, rx);
    size_t R = geo.ring_size;
    uint64_t words[128];
    char hdr[8] = "stale";
    while (tx->tail < R - 4096) {
        /* a 1 KiB payload after an 8-byte header starts a line into the record */
        size_t off = (size_t)(tx->tail & (R - 1)) + ORDO_CACHE_LINE;
        for (size_t i = 0; i < 128; i++)
            words[i] = R + off + 8 * i + 1;
        CHECK_OK(ordo_am_send_short(tx, hdr, sizeof(hdr), words, sizeof(words)));
        delivered = 0;
        CHECK(ordo_am_poll(rx, 64, count, NULL) == 1 && delivered == 1);
    }
    for (int lap = 0; lap < 2; lap++) {   /* over the stale bytes, up to the next lap */
        for (uint64_t end = tx->tail + R / 2; tx->tail < end;) {
            CHECK_OK(ordo_am_send_short(tx, hdr, sizeof(hdr), NULL, 0));
            delivered = 0;
            CHECK(ordo_am_poll(rx, 64, count, NULL) == 1 && delivered == 1 && rx->broken == NULL);
            size_t plen;
            _Atomic uint32_t *pb;
            CHECK(ordo_am_peek(rx, &plen, &pb) == NULL);
            if (delivered != 1)
                return;
        }
    }
}

/* A record sent in answer (the lane back from the peer delivered something
 * since this lane's last record) has its lines pushed out; a stream of
 * records, or a lane with no pair or with demote off, does not. */
static void answers_demoted(void)
{
    ordo_am_geometry_t dg = geo;
    dg.demote = 1;
    ordo_am_tx_t out, back_tx;
    ordo_am_rx_t out_rx, back;
    char *a = am_lane_new(&dg, &out, &out_rx), *b = am_lane_new(&dg, &back_tx, &back);
    if (a == NULL || b == NULL)
        return;
    char msg[600] = "question";
    ordo_am_tx_pair(&out, &back);
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 4; i++)   /* a window: none answers */
            CHECK_OK(ordo_am_send_short(&out, msg, 8, msg, i ? 500 : 8));
        CHECK(out.demoted == (uint64_t)round);
        delivered = 0;
        CHECK(ordo_am_poll(&out_rx, 64, count, NULL) == 4);
        CHECK_OK(ordo_am_send_short(&back_tx, msg, 8, NULL, 0));   /* the peer answers */
        CHECK(back_tx.demoted == 0);                               /* unpaired */
        CHECK(ordo_am_poll(&back, 64, count, NULL) == 1);
    }
    CHECK_OK(ordo_am_send_short(&out, msg, 8, msg, 600));   /* in answer */
    CHECK(out.demoted == 3);
    delivered = 0;
    CHECK(ordo_am_poll(&out_rx, 64, keep, NULL) == 1 && got_len[0] == 608 &&
          memcmp(got[0] + 8, msg, 600) == 0);
    /* demote off: answers are left where they are */
    dg.demote = 0;
    am_lane_reset(a, &dg, &out, &out_rx);
    am_lane_reset(b, &dg, &back_tx, &back);
    ordo_am_tx_pair(&out, &back);
    CHECK_OK(ordo_am_send_short(&back_tx, msg, 8, NULL, 0));
    CHECK(ordo_am_poll(&back, 64, count, NULL) == 1);
    CHECK_OK(ordo_am_send_short(&out, msg, 8, msg, 100));
    CHECK(out.demoted == 0);
    free(a);
    free(b);
}

int main(void)
{
    ordo_am_geometry_init(&geo, 256, 4096, 4, 0);
    CHECK(geo.rotate_bytes == 0);
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
    am_lane_reset(base, &geo, &tx, &rx);
    char msg[64] = "payload";
    for (int i = 0; i < 5; i++) {
        CHECK_OK(ordo_am_send_bcopy(&tx, msg, 8, msg, 32));
        delivered = 0;
        CHECK(ordo_am_poll(&rx, 64, count, NULL) == 1 && delivered == 1);   /* released */
    }
    CHECK(tx.touched == 1);
    /* a bounce-buffer record peeked: its buffer and flag; consumed, freed */
    CHECK_OK(ordo_am_send_bcopy(&tx, msg, 8, msg + 8, 40));
    {
        size_t blen;
        _Atomic uint32_t *bflag = NULL;
        char *b = ordo_am_peek(&rx, &blen, &bflag);
        CHECK(b != NULL && blen == 48 && bflag != NULL && memcmp(b, msg, 48) == 0);
        CHECK(atomic_load(bflag) == 1 && ordo_am_arrived(bflag) == 48);
        ordo_am_consume(&rx);
        CHECK(atomic_load(bflag) == 0);
        CHECK(ordo_am_peek(&rx, &blen, &bflag) == NULL);
    }
    for (int i = 0; i < 3; i++)
        CHECK_OK(ordo_am_send_bcopy(&tx, msg, 8, msg, 32));
    CHECK(tx.touched == 3);
    CHECK(ordo_am_poll(&rx, 64, count, NULL) == 3);
    for (int i = 0; i < 3; i++)
        CHECK_OK(ordo_am_send_bcopy(&tx, msg, 8, msg, 32));
    CHECK(tx.touched == 3);
    CHECK_OK(ordo_am_send_bcopy(&tx, msg, 8, msg, 32));
    CHECK(tx.touched == 4);
    CHECK_STATUS(ordo_am_send_bcopy(&tx, msg, 8, msg, 32), ORDO_ERR_BUSY);
    CHECK(ordo_am_poll(&rx, 64, count, NULL) == 4 && rx.broken == NULL);

    /* a lane whose laps write 2.5 buffers' worth of full records cycles
     * through three even one message at a time, and still grows to all
     * four */
    ordo_am_geometry_t rot;
    ordo_am_geometry_init(&rot, 256, 4096, 4, 2 * geo.bounce_size + geo.bounce_size / 2);
    CHECK(ordo_am_section_size(&rot) == section);
    am_lane_reset(base, &rot, &tx, &rx);
    static char full[4096];
    for (int i = 0; i < 7; i++) {
        CHECK(tx.next_bounce == (unsigned)i % 3);   /* 0 1 2 0 1 2 0 */
        CHECK_OK(ordo_am_send_bcopy(&tx, msg, 8, full, 4096));
        delivered = 0;
        CHECK(ordo_am_poll(&rx, 64, count, NULL) == 1 && delivered == 1);
    }
    CHECK(tx.touched == 3);
    for (int i = 0; i < 4; i++)
        CHECK_OK(ordo_am_send_bcopy(&tx, msg, 8, full, 4096));
    CHECK(tx.touched == 4);
    CHECK_STATUS(ordo_am_send_bcopy(&tx, msg, 8, msg, 32), ORDO_ERR_BUSY);
    CHECK(ordo_am_poll(&rx, 64, count, NULL) == 4 && rx.broken == NULL);

    /* a lap counts the bytes written, not the buffers: a lap of two
     * 1032-byte records and a line (1088 bytes each, line-aligned) takes
     * three buffers; one of full records, one buffer */
    ordo_am_geometry_init(&rot, 256, 4096, 4, 2 * 1088 + 1);
    am_lane_reset(base, &rot, &tx, &rx);
    for (int i = 0; i < 6; i++) {
        CHECK(tx.next_bounce == (unsigned)i % 3);
        CHECK_OK(ordo_am_send_bcopy(&tx, msg, 8, full, 1024));
        CHECK(ordo_am_poll(&rx, 64, count, NULL) == 1);
    }
    CHECK(tx.touched == 3);
    for (int i = 0; i < 3; i++) {
        CHECK_OK(ordo_am_send_bcopy(&tx, msg, 8, full, 4096));
        CHECK(tx.next_bounce == 0);
        CHECK(ordo_am_poll(&rx, 64, count, NULL) == 1);
    }
    CHECK(tx.touched == 3 && rx.broken == NULL);

    /* shared memory's buffer count: the step's, or (ORDO_EAGER_BUFFERS
     * auto) as many more as a lap of the smallest messages put in bounce
     * buffers takes (eager ones, or above a hot buffer ones sent alone), up
     * to ORDO_TL_BOUNCE_MORE times the step; a lap never writes more than
     * the step's buffers hold */
    {
        ordo_tl_am_limits_t lim = {.short_max = 8192, .eager_max = 32768, .nbounce = 64};
        unsigned n;
        size_t lap;
        ordo_tl_am_lane_layout(&lim, 2u << 20, 0, &n, &lap);
        CHECK(n == 256 && lap == 2u << 20);   /* 2 MiB of 8 KiB + 1 records */
        ordo_tl_am_lane_layout(&lim, 2u << 20, 4096, &n, &lap);
        CHECK(n == 512 && lap == 2u << 20);   /* and of 4 KiB + 1, above a hot buffer */
        ordo_tl_am_lane_layout(&lim, 2u << 20, 1024, &n, &lap);
        CHECK(n == 64 * ORDO_TL_BOUNCE_MORE);
        ordo_config.eager_buffers = 64;       /* set: the count stands */
        ordo_tl_am_lane_layout(&lim, 2u << 20, 0, &n, &lap);
        CHECK(n == 64 && lap == 2u << 20);
        ordo_config.eager_buffers = 0;
        ordo_tl_am_lane_layout(&lim, 4u << 20, 0, &n, &lap);
        CHECK(n == 257 && lap == 64 * (32768 + 64));   /* the step's bytes */
        ordo_tl_am_limits_t big = {.short_max = 1024, .eager_max = 16384, .nbounce = 16};
        ordo_tl_am_lane_layout(&big, 2u << 20, 1024, &n, &lap);
        CHECK(n == 16 * ORDO_TL_BOUNCE_MORE && lap == 16 * (16384 + 64));
        ordo_tl_am_lane_layout(&big, 0, 1024, &n, &lap);
        CHECK(n == 16 && lap == 0);           /* no rotation: the step's */
        ordo_tl_am_limits_t flat = {.short_max = 4096, .eager_max = 4096, .nbounce = 8};
        ordo_tl_am_lane_layout(&flat, 2u << 20, 0, &n, &lap);
        CHECK(n == 8);                         /* no eager messages */
    }

    /* the hot buffer: a short record above hot_min goes there while the
     * reader has passed the last one, else inline; order and bytes kept */
    ordo_am_geometry_t hot = geo;
    hot.hot_size = 512;
    hot.hot_min = 64;
    size_t hsection = ordo_am_section_size(&hot);
    CHECK(hsection >= section && hsection - ordo_am_section_size(&geo) <= 4096);
    char *hbase = am_lane_new(&hot, &tx, &rx);
    if (hbase == NULL)
        return 1;
    char big[1200], hdr8[8] = "header!";
    for (int i = 0; i < (int)sizeof(big); i++)
        big[i] = (char)(i * 7 + 1);
    CHECK_OK(ordo_am_send_short(&tx, hdr8, 8, big, 300));   /* hot */
    uint64_t after_first = tx.tail;
    CHECK(tx.hot_until == after_first);
    CHECK_OK(ordo_am_send_short(&tx, hdr8, 8, big + 1, 200));   /* busy: inline */
    CHECK(tx.hot_until == after_first);
    CHECK_OK(ordo_am_send_short(&tx, hdr8, 8, big, 16));   /* small: inline */
    CHECK_OK(ordo_am_send_short(&tx, hdr8, 8, big, 505));   /* past hot_size: inline */
    CHECK(tx.hot_until == after_first);
    delivered = 0;
    CHECK(ordo_am_poll(&rx, 64, keep, NULL) == 4 && rx.broken == NULL);
    CHECK(got_len[0] == 308 && memcmp(got[0], hdr8, 8) == 0 && memcmp(got[0] + 8, big, 300) == 0);
    CHECK(got_len[1] == 208 && memcmp(got[1] + 8, big + 1, 200) == 0);
    CHECK(got_len[2] == 24 && got_len[3] == 513 && memcmp(got[3] + 8, big, 505) == 0);
    /* after a miss a stream of records stays in the ring for a while
     * (the writer does not fetch the reader's head for each) */
    CHECK(tx.hot_skip > 0);
    for (int i = 0; i < 100 && tx.hot_skip; i++) {
        uint64_t at = tx.tail;
        CHECK_OK(ordo_am_send_short(&tx, hdr8, 8, big, 200));
        CHECK(tx.tail - at > ORDO_CACHE_LINE);   /* inline */
        CHECK(ordo_am_poll(&rx, 64, count, NULL) == 1);
    }
    CHECK(tx.hot_skip == 0);
    /* read: the next one goes hot again, and peek hands out its bytes */
    CHECK_OK(ordo_am_send_short(&tx, hdr8, 8, big + 2, 100));
    CHECK(tx.hot_until == tx.tail);
    size_t plen;
    _Atomic uint32_t *pb = &(_Atomic uint32_t){1};
    char *p = ordo_am_peek(&rx, &plen, &pb);
    CHECK(pb == NULL);
    CHECK(p != NULL && plen == 108 && memcmp(p + 8, big + 2, 100) == 0);
    CHECK(p < hbase + ORDO_CACHE_LINE || p >= hbase + ORDO_CACHE_LINE + hot.ring_size);
    CHECK_OK(ordo_am_send_short(&tx, hdr8, 8, big, 100));   /* not consumed yet: inline */
    ordo_am_consume(&rx);
    p = ordo_am_peek(&rx, &plen, &pb);
    CHECK(p != NULL && plen == 108 && p >= hbase + ORDO_CACHE_LINE &&
          p < hbase + ORDO_CACHE_LINE + hot.ring_size);
    ordo_am_consume(&rx);
    /* a hot record claiming more than the hot buffer is not delivered */
    tx.hot_skip = 0;   /* as after a stream of records */
    uint64_t at = tx.tail;
    CHECK_OK(ordo_am_send_short(&tx, hdr8, 8, big, 100));
    CHECK(tx.tail - at == ORDO_CACHE_LINE);   /* hot */
    char *hrec = hbase + ORDO_CACHE_LINE + (size_t)(at & (hot.ring_size - 1));
    *(uint32_t *)(hrec + OFF_LEN) = (uint32_t)hot.hot_size + 1;
    delivered = 0;
    CHECK(ordo_am_poll(&rx, 64, count, NULL) == 0 && delivered == 0);
    CHECK(rx.broken != NULL && strstr(rx.broken, "hot-buffer record") != NULL);
    free(hbase);

    /* a hot record of more than two hot_stream chunks streams, handed over as
     * a bounce buffer's (the flag line after the bounce buffers'); one the
     * reader keeps keeps the writer off the hot buffer until given back */
    ordo_am_geometry_t hs = geo;
    hs.hot_size = 1024 + 64;
    hs.hot_min = 64;
    hs.hot_stream = 256;
    hs.alone_min = hs.hot_size;
    char *hsbase = am_lane_new(&hs, &tx, &rx);
    if (hsbase == NULL)
        return 1;
    CHECK_OK(ordo_am_send_short(&tx, hdr8, 8, big, 1000));
    {
        size_t blen;
        _Atomic uint32_t *bflag = NULL;
        char *b = ordo_am_peek(&rx, &blen, &bflag);
        CHECK(b != NULL && bflag != NULL && blen == 1008 && ordo_am_arrived(bflag) == 1008);
        CHECK(memcmp(b, hdr8, 8) == 0 && memcmp(b + 8, big, 1000) == 0);
        CHECK(atomic_load(bflag) == 1);
        ordo_am_consume(&rx);
        CHECK(atomic_load(bflag) == 0);
    }
    CHECK_OK(ordo_am_send_short(&tx, hdr8, 8, big + 1, 1000));   /* hot again */
    CHECK(tx.hot_until == tx.tail);
    held = NULL;
    delivered = 0;
    CHECK(ordo_am_poll(&rx, 64, hold, NULL) == 1 && held != NULL);
    at = tx.tail;
    CHECK_OK(ordo_am_send_short(&tx, hdr8, 8, big, 1000));   /* kept: inline */
    CHECK(tx.tail - at > ORDO_CACHE_LINE && tx.hot_skip > 0);
    ordo_am_release(held);
    CHECK(ordo_am_poll(&rx, 64, count, NULL) == 1);
    tx.hot_skip = 0;
    CHECK_OK(ordo_am_send_short(&tx, hdr8, 8, big, 512));   /* two chunks: whole */
    {
        size_t blen;
        _Atomic uint32_t *bflag = &(_Atomic uint32_t){1};
        CHECK(ordo_am_peek(&rx, &blen, &bflag) != NULL && bflag == NULL && blen == 520);
        ordo_am_consume(&rx);
    }
    /* too long for the hot buffer: a bounce buffer while the reader has
     * read everything (sent alone), inline while it has not */
    CHECK_OK(ordo_am_send_short(&tx, hdr8, 8, big, 1100));
    CHECK_OK(ordo_am_send_short(&tx, hdr8, 8, big + 3, 1100));
    delivered = 0;
    CHECK(ordo_am_poll(&rx, 64, keep, NULL) == 2 && rx.broken == NULL);
    CHECK(got_len[0] == 1108 && memcmp(got[0] + 8, big, 1100) == 0);
    CHECK(got_len[1] == 1108 && memcmp(got[1] + 8, big + 3, 1100) == 0);
    CHECK(tx.touched == 1 && tx.idle_skip > 0);
    /* a streamed hot record claiming more than the hot buffer: not delivered */
    am_lane_reset(hsbase, &hs, &tx, &rx);
    at = tx.tail;
    CHECK_OK(ordo_am_send_short(&tx, hdr8, 8, big, 1000));
    hrec = hsbase + ORDO_CACHE_LINE + (size_t)(at & (hs.ring_size - 1));
    CHECK(*(uint16_t *)(hrec + OFF_BIDX) == hs.nbounce);
    *(uint32_t *)(hrec + OFF_LEN) = (uint32_t)hs.hot_size + 1;
    delivered = 0;
    CHECK(ordo_am_poll(&rx, 64, count, NULL) == 0 && delivered == 0 && rx.broken != NULL);
    free(hsbase);

    /* the spill ring: records above spill_min laid one after another,
     * wrapping to its start where one would cross the end; inline when it
     * is full; peek and poll find each where the writer put it */
    ordo_am_geometry_t sp = geo;
    sp.spill_size = 4096;
    sp.spill_min = 128;
    char *sbase = am_lane_new(&sp, &tx, &rx);
    if (sbase == NULL)
        return 1;
    char *ring_lo = sbase + ORDO_CACHE_LINE, *ring_hi = ring_lo + sp.ring_size;
    for (int round = 0; round < 6; round++) {
        /* 3 x 1024-byte records (with the header) fill 3 KiB; the fourth
         * does not fit before the reader frees some: inline */
        uint64_t at = tx.tail;
        for (int i = 0; i < 3; i++)
            CHECK_OK(ordo_am_send_short(&tx, hdr8, 8, big + i, 1000 - 8 * round));
        CHECK(tx.tail - at == 3 * ORDO_CACHE_LINE);   /* three references */
        if (round == 0) {
            at = tx.tail;
            CHECK_OK(ordo_am_send_short(&tx, hdr8, 8, big, 1100));
            CHECK(tx.tail - at > ORDO_CACHE_LINE);   /* full: inline */
        }
        CHECK_OK(ordo_am_send_short(&tx, hdr8, 8, big, 100));   /* small: inline */
        delivered = 0;
        size_t want = round == 0 ? 5 : 4;
        CHECK(ordo_am_poll(&rx, 64, keep, NULL) == want && rx.broken == NULL);
        for (int i = 0; i < 3; i++)
            CHECK(got_len[i] == 1008 - 8 * (size_t)round &&
                  memcmp(got[i], hdr8, 8) == 0 && memcmp(got[i] + 8, big + i, got_len[i] - 8) == 0);
        /* and once through peek */
        CHECK_OK(ordo_am_send_short(&tx, hdr8, 8, big + 3, 900));
        size_t plen;
        _Atomic uint32_t *pb;
        char *p = ordo_am_peek(&rx, &plen, &pb);
        CHECK(pb == NULL);
        CHECK(p != NULL && plen == 908 && memcmp(p + 8, big + 3, 900) == 0);
        CHECK(p < ring_lo || p >= ring_hi);
        ordo_am_consume(&rx);
    }
    CHECK(rx.spill_head == tx.spill_tail && tx.spill_tail > 4 * sp.spill_size);
    uint64_t sat = tx.tail;
    CHECK_OK(ordo_am_send_short(&tx, hdr8, 8, big, 300));
    *(uint32_t *)(ring_lo + (size_t)(sat & (sp.ring_size - 1)) + OFF_LEN) = 4097;
    delivered = 0;
    CHECK(ordo_am_poll(&rx, 64, count, NULL) == 0 && delivered == 0);
    CHECK(rx.broken != NULL && strstr(rx.broken, "spill-ring record") != NULL);
    free(sbase);

    inline_layout(&tx, &rx);
    stale_stamps(&tx, &rx);
    answers_demoted();

    char *rec = lane_with_records(0, &tx, &rx);
    *(uint16_t *)(rec + OFF_KIND) = 9;
    expect_broken(&rx, "no known kind");

    rec = lane_with_records(0, &tx, &rx);
    *(uint32_t *)(rec + OFF_LEN) = 1u << 30;
    expect_broken(&rx, "longer than the ring");

    rec = lane_with_records(0, &tx, &rx);
    *(uint16_t *)(rec + OFF_BIDX) = 72;   /* data past the record's first line */
    expect_broken(&rx, "starts outside its first line");

    rec = lane_with_records(0, &tx, &rx);
    *(uint16_t *)(rec + OFF_BIDX) = 4;   /* data inside the record's own header */
    expect_broken(&rx, "starts outside its first line");

    rec = lane_with_records(1, &tx, &rx);
    *(uint16_t *)(rec + OFF_BIDX) = 4;   /* one past the last: the hot buffer's, none here */
    expect_broken(&rx, "bounce-buffer record");

    rec = lane_with_records(1, &tx, &rx);
    *(uint16_t *)(rec + OFF_BIDX) = 5;   /* past even that */
    expect_broken(&rx, "bounce-buffer record");

    rec = lane_with_records(1, &tx, &rx);
    *(uint32_t *)(rec + OFF_LEN) = (uint32_t)geo.bounce_size + 1;
    expect_broken(&rx, "bounce-buffer record");

    free(base);
    return test_result("test_am_ring");
}
