#include "am_ring.h"

#include <string.h>

#include "../base/compiler.h"

enum { REC_DATA = 1, REC_BCOPY = 2, REC_WRAP = 3, REC_HOT = 4, REC_SPILL = 5 };

#define REC_HDR   16u
/* An inline record of a payload of at least this many bytes starts its
 * data so that the payload after the header is line-aligned: the copies in
 * and out then split no vector across two lines (one-way 1 KiB 0.56 -> 0.49
 * us between two threads of a 2-core Xeon VM; a smaller one would take a
 * second line for nothing). */
#define ALIGN_MIN 256u
/* Short records that stay in the ring after the hot buffer was found busy. */
#define HOT_SKIP  32u
#define LINE      ORDO_CACHE_LINE
/* The writer clears stamps this far ahead of its tail, a block at a time:
 * clearing only the next line would put a store to a line the reader last
 * held a lap ago (a cross-core or memory miss) in front of every publish. */
#define AHEAD     (16 * LINE)

typedef struct am_rec {
    _Atomic uint64_t stamp;   /* position + 1 once the record is complete */
    uint32_t         len;
    uint16_t         kind;
    uint16_t         bidx;    /* REC_BCOPY: the bounce buffer; REC_DATA: where the data
                                 starts, in bytes from the record's start */
} am_rec_t;

typedef struct am_ctrl {
    _Atomic uint64_t head;         /* written by the reader only */
    _Atomic uint64_t spill_head;   /* likewise */
    char             pad[LINE - 2 * sizeof(uint64_t)];
} am_ctrl_t;

static inline size_t align_line(size_t n) { return (n + LINE - 1) & ~(size_t)(LINE - 1); }

static inline char *ring_of(char *base) { return base + LINE; }

static inline _Atomic uint32_t *flag_of(char *base, const ordo_am_geometry_t *g, unsigned i)
{
    return (_Atomic uint32_t *)(base + LINE + g->ring_size + (size_t)i * LINE);
}

/* nbounce + 1 flag lines: the last is the hot buffer's, for a record
 * streamed into it (bounce index nbounce) */
static inline char *bounce_of(char *base, const ordo_am_geometry_t *g, unsigned i)
{
    return base + LINE + g->ring_size + ((size_t)g->nbounce + 1) * LINE +
           (size_t)i * g->bounce_size;
}

static inline char *hot_of(char *base, const ordo_am_geometry_t *g)
{
    return bounce_of(base, g, g->nbounce);
}

static inline char *spill_of(char *base, const ordo_am_geometry_t *g)
{
    return hot_of(base, g) + g->hot_size;
}

/* Where a spilled record of recsize bytes goes when the ring's next free
 * position is pos: there, or at the next lap's start when it would cross
 * the end (writer and reader place alike). */
static inline uint64_t spill_place(uint64_t pos, size_t recsize, size_t size)
{
    size_t off = (size_t)(pos & (size - 1));
    return off + recsize > size ? pos + (size - off) : pos;
}

void ordo_am_geometry_init(ordo_am_geometry_t *geo, size_t short_max, size_t eager_max,
                           unsigned nbounce, size_t rotate_bytes)
{
    /* Room for at least 16 of the largest short records. */
    size_t want = 16 * align_line(REC_HDR + 64 + short_max);
    size_t ring = 64 * 1024;
    while (ring < want)
        ring <<= 1;
    geo->ring_size = ring;
    geo->bounce_size = align_line(eager_max + 64);
    geo->nbounce = nbounce;
    geo->rotate_bytes = rotate_bytes;
    geo->stream_chunk = 0;
    geo->hot_stream = 0;
    geo->hot_size = 0;
    geo->alone_min = 0;
    geo->hot_min = 0;
    geo->spill_size = 0;
    geo->spill_min = 0;
    geo->own_ahead = 0;
}

size_t ordo_am_short_capacity(const ordo_am_geometry_t *geo)
{
    return geo->ring_size / 16 - REC_HDR;
}

size_t ordo_am_section_size(const ordo_am_geometry_t *geo)
{
    size_t n = LINE + geo->ring_size + LINE + (size_t)geo->nbounce * (LINE + geo->bounce_size) +
               geo->hot_size + geo->spill_size;
    return (n + 4095) & ~(size_t)4095;
}

void ordo_am_tx_init(ordo_am_tx_t *tx, void *base, const ordo_am_geometry_t *geo)
{
    memset(tx, 0, sizeof(*tx));
    tx->base = base;
    tx->geo = *geo;
}

void ordo_am_tx_pair(ordo_am_tx_t *tx, const ordo_am_rx_t *rx)
{
    tx->pair = rx;
    tx->pair_seen = rx->head;
}

void ordo_am_rx_init(ordo_am_rx_t *rx, void *base, const ordo_am_geometry_t *geo)
{
    memset(rx, 0, sizeof(*rx));
    rx->base = base;
    rx->geo = *geo;
}

static inline void clear_stamp(char *ring, size_t R, uint64_t pos)
{
    atomic_store_explicit((_Atomic uint64_t *)(ring + (size_t)(pos & (R - 1))), 0,
                          memory_order_relaxed);
}

/* Reserve recsize bytes at the tail, writing a wrap record first when the
 * record would cross the end.  Returns the record or NULL when full. */
static am_rec_t *reserve(ordo_am_tx_t *tx, size_t recsize)
{
    size_t R = tx->geo.ring_size;
    size_t idx = (size_t)(tx->tail & (R - 1));
    size_t skip = idx + recsize > R ? R - idx : 0;
    size_t need = skip + recsize + AHEAD;   /* + the stamps we clear ahead */
    if (ORDO_UNLIKELY(tx->tail + need - tx->head_seen > R)) {
        am_ctrl_t *ctrl = (am_ctrl_t *)tx->base;
        tx->head_seen = atomic_load_explicit(&ctrl->head, memory_order_acquire);
        if (tx->tail + need - tx->head_seen > R)
            return NULL;
    }
    char *ring = ring_of(tx->base);
    if (ORDO_UNLIKELY(skip)) {
        am_rec_t *w = (am_rec_t *)(ring + idx);
        clear_stamp(ring, R, 0);
        w->kind = REC_WRAP;
        w->len = 0;
        atomic_store_explicit(&w->stamp, tx->tail + 1, memory_order_release);
        tx->tail += skip;
        idx = 0;
    }
    return (am_rec_t *)(ring + idx);
}

void ordo_am_ahead_span(const ordo_am_tx_t *tx, size_t recsize, uint64_t *from_p,
                        uint64_t *to_p)
{
    uint64_t from = tx->tail + LINE;
    uint64_t to = tx->tail + ORDO_MIN(recsize, tx->geo.own_ahead);
    uint64_t free_end = tx->head_seen + tx->geo.ring_size;
    if (to > free_end)
        to = free_end;
    *from_p = from;
    *to_p = to < from ? from : to;
}

/* After a record of recsize ring bytes: its successor's lines, if it is as
 * long (ordo_am_ahead_span), asked for writing.  Only prefetches: nothing
 * in the ring changes. */
static inline void own_ahead(ordo_am_tx_t *tx, size_t recsize)
{
    uint64_t pos, to;
    ordo_am_ahead_span(tx, recsize, &pos, &to);
    size_t R = tx->geo.ring_size;
    char *ring = ring_of(tx->base);
    for (; pos < to; pos += LINE)
        ordo_prefetch_write(ring + (size_t)(pos & (R - 1)));
}

/* Whether the paired lane delivered something since this one's last
 * record (am_ring.h): this record answers the peer. */
static inline int answering(ordo_am_tx_t *tx)
{
    if (tx->pair == NULL)
        return 0;
    uint64_t head = tx->pair->head;
    int answer = head != tx->pair_seen;
    tx->pair_seen = head;
    return answer;
}

static void publish(ordo_am_tx_t *tx, am_rec_t *rec, size_t recsize)
{
    uint64_t next = tx->tail + recsize;
    size_t R = tx->geo.ring_size;
    char *ring = ring_of(tx->base);
    /* Everything up to next + AHEAD is free (reserve checked), so no unread
     * record is touched.  Only the stamp the reader looks at next must be
     * zero before this record is seen; the rest of the block goes after the
     * stamp, whose store would otherwise wait for each of them (lines the
     * reader held a lap ago): one-way 1 KiB 0.87 -> 0.77 us on a 2-core Xeon
     * VM.  Clearing only the next stamp, one line ahead each time, made 8 B
     * 0.24 -> 0.31; but after a record of the block's length or more, the
     * next one, if as long, writes those lines anyway, and lines taken ahead
     * of it are the reader's again by then (its prefetchers follow the
     * ring): there only the next stamp (2 KiB 0.89 -> 0.80). */
    int clear = tx->cleared < next + LINE;
    if (ORDO_UNLIKELY(clear))
        clear_stamp(ring, R, next);
    atomic_store_explicit(&rec->stamp, tx->tail + 1, memory_order_release);
    tx->tail = next;
    if (tx->geo.demote && answering(tx)) {
        for (size_t off = 0; off < recsize; off += LINE)
            ordo_demote((char *)rec + off);
        tx->demoted++;
    }
    if (ORDO_UNLIKELY(clear)) {
        uint64_t end = recsize >= AHEAD ? next + LINE : next + AHEAD;
        for (uint64_t pos = next + LINE; pos < end; pos += LINE)
            clear_stamp(ring, R, pos);
        tx->cleared = end;
    }
    if (tx->geo.own_ahead && recsize > LINE)
        own_ahead(tx, recsize);
}

/* A short record's bytes into buf (inline after rec, or elsewhere), then
 * rec, of recsize ring bytes, published. */
static inline void put_short(ordo_am_tx_t *tx, am_rec_t *rec, unsigned kind, size_t recsize,
                             char *buf, const void *hdr, size_t hdrlen, const void *payload,
                             size_t len)
{
    memcpy(buf, hdr, hdrlen);
    if (len)
        memcpy(buf + hdrlen, payload, len);
    rec->len = (uint32_t)(hdrlen + len);
    rec->kind = (uint16_t)kind;
    publish(tx, rec, recsize);
}

/* Bytes [from, to) of hdr followed by payload, into the same place of dst. */
static inline void copy_span(char *dst, const char *hdr, size_t hdrlen, const char *payload,
                             size_t from, size_t to)
{
    if (from < hdrlen) {
        size_t n = ORDO_MIN(to, hdrlen) - from;
        memcpy(dst + from, hdr + from, n);
        from += n;
    }
    if (from < to)
        memcpy(dst + from, payload + (from - hdrlen), to - from);
}

/* A short record inline in the ring, its first line written last: the
 * reader polls that line, and a writer that wrote it first would take it
 * back from the reader for the stamp after the rest (one-way 1 KiB 0.87 ->
 * 0.79 us on a 2-core Xeon VM; 0.70 with publish's clearing after the
 * stamp). */
static inline void put_inline(ordo_am_tx_t *tx, am_rec_t *rec, size_t recsize, size_t at,
                              const void *hdr, size_t hdrlen, const void *payload, size_t len)
{
    char *data = (char *)rec + at;
    size_t total = hdrlen + len, first = ORDO_MIN(total, (size_t)LINE - at);
    if (total > first)
        copy_span(data, hdr, hdrlen, payload, first, total);
    copy_span(data, hdr, hdrlen, payload, 0, first);
    rec->len = (uint32_t)total;
    rec->kind = REC_DATA;
    rec->bidx = (uint16_t)at;
    publish(tx, rec, recsize);
}

/* Where an inline record's data starts (inline_at_ok holds for it). */
static inline size_t inline_at(size_t hdrlen, size_t len)
{
    return len >= ALIGN_MIN && hdrlen <= LINE - REC_HDR && hdrlen % 8 == 0 ? LINE - hdrlen
                                                                          : REC_HDR;
}

/* What a reader accepts as an inline record's data start: after the
 * record's header, in its first line, 8-byte aligned. */
static inline int inline_at_ok(size_t at)
{
    return at >= REC_HDR && at <= LINE && at % 8 == 0;
}

/* Whether the reader's head has reached pos.  Reading the head takes its
 * line from the reader: worth it when records go one at a time (the reader
 * is done by now), not in a stream, so after a miss (*skip set) the writer
 * does not look again for the next HOT_SKIP tries. */
static int head_reached(ordo_am_tx_t *tx, uint64_t pos, unsigned *skip)
{
    if (tx->head_seen >= pos)
        return 1;
    if (*skip) {
        (*skip)--;
        return 0;
    }
    tx->head_seen = atomic_load_explicit(&((am_ctrl_t *)tx->base)->head, memory_order_acquire);
    if (tx->head_seen >= pos)
        return 1;
    *skip = HOT_SKIP;
    return 0;
}

/* hdr + payload into buffer buf (bounce index b), published by rec as soon
 * as its first chunk is in when it is at least two chunks of min_chunk
 * (four chunks or fewer: each costs the reader a look at the count), the
 * rest counted in place (the buffer's arrived word) as it goes in. */
static void put_streamed(ordo_am_tx_t *tx, am_rec_t *rec, char *buf, unsigned b,
                         size_t min_chunk, const void *hdr, size_t hdrlen,
                         const void *payload, size_t len)
{
    _Atomic uint32_t *flag = flag_of(tx->base, &tx->geo, b);
    _Atomic uint32_t *arrived = (_Atomic uint32_t *)((char *)flag + ORDO_AM_ARRIVED_OFFSET);
    const char *from = payload;
    size_t chunk = min_chunk;
    while (chunk && chunk * 4 < len)
        chunk *= 2;
    size_t first = chunk && len >= 2 * min_chunk ? chunk : len;
    atomic_store_explicit(flag, 1, memory_order_relaxed);
    memcpy(buf, hdr, hdrlen);
    if (first)
        memcpy(buf + hdrlen, from, first);
    /* before the record: the reader's acquire of its stamp orders it */
    atomic_store_explicit(arrived, (uint32_t)(hdrlen + first), memory_order_relaxed);
    rec->len = (uint32_t)(hdrlen + len);
    rec->kind = REC_BCOPY;
    rec->bidx = (uint16_t)b;
    publish(tx, rec, LINE);
    for (size_t off = first; off < len; off += chunk) {
        size_t n = len - off < chunk ? len - off : chunk;
        memcpy(buf + hdrlen + off, from + off, n);
        atomic_store_explicit(arrived, (uint32_t)(hdrlen + off + n), memory_order_release);
    }
}

/* A short record through the hot buffer, when the reader is past the last
 * one (and gave it back, if it was streamed there): NULL when not. */
static am_rec_t *send_hot(ordo_am_tx_t *tx, const void *hdr, size_t hdrlen, const void *payload,
                          size_t len)
{
    const ordo_am_geometry_t *g = &tx->geo;
    if (tx->hot_flagged) {
        /* a streamed one may be kept by the reader, as a bounce buffer */
        if (atomic_load_explicit(flag_of(tx->base, g, g->nbounce), memory_order_acquire)) {
            tx->hot_skip = HOT_SKIP;
            return NULL;
        }
        tx->hot_flagged = 0;
    }
    if (!head_reached(tx, tx->hot_until, &tx->hot_skip))
        return NULL;
    am_rec_t *rec = reserve(tx, LINE);
    if (rec == NULL)
        return NULL;
    char *buf = hot_of(tx->base, g);
    if (g->hot_stream && len > 2 * g->hot_stream) {
        /* the reader copies the front out while the back goes in */
        put_streamed(tx, rec, buf, g->nbounce, g->hot_stream, hdr, hdrlen, payload, len);
        tx->hot_flagged = 1;
    } else {
        put_short(tx, rec, REC_HOT, LINE, buf, hdr, hdrlen, payload, len);
    }
    tx->hot_until = tx->tail;
    return rec;
}

/* A short record through the spill ring, when it has room: NULL when not. */
static am_rec_t *send_spill(ordo_am_tx_t *tx, const void *hdr, size_t hdrlen,
                            const void *payload, size_t len)
{
    const ordo_am_geometry_t *g = &tx->geo;
    size_t recsize = align_line(hdrlen + len);
    uint64_t at = spill_place(tx->spill_tail, recsize, g->spill_size);
    if (at + recsize - tx->spill_seen > g->spill_size) {
        am_ctrl_t *ctrl = (am_ctrl_t *)tx->base;
        tx->spill_seen = atomic_load_explicit(&ctrl->spill_head, memory_order_acquire);
        if (at + recsize - tx->spill_seen > g->spill_size)
            return NULL;
    }
    am_rec_t *rec = reserve(tx, LINE);
    if (rec == NULL)
        return NULL;
    char *buf = spill_of(tx->base, g) + (size_t)(at & (g->spill_size - 1));
    put_short(tx, rec, REC_SPILL, LINE, buf, hdr, hdrlen, payload, len);
    tx->spill_tail = at + recsize;
    return rec;
}

ordo_status_t ordo_am_send_short(ordo_am_tx_t *tx, const void *hdr, size_t hdrlen,
                                 const void *payload, size_t len)
{
    size_t n = hdrlen + len;
    if (n > tx->geo.hot_min && n <= tx->geo.hot_size &&
        send_hot(tx, hdr, hdrlen, payload, len) != NULL)
        return ORDO_OK;
    if (tx->geo.alone_min && n > tx->geo.alone_min && n <= tx->geo.bounce_size &&
        head_reached(tx, tx->tail, &tx->idle_skip) &&   /* the reader is idle */
        ordo_am_send_bcopy(tx, hdr, hdrlen, payload, len) == ORDO_OK)
        return ORDO_OK;
    if (n > tx->geo.spill_min && tx->geo.spill_size &&
        send_spill(tx, hdr, hdrlen, payload, len) != NULL)
        return ORDO_OK;
    size_t at = inline_at(hdrlen, len), recsize = align_line(at + hdrlen + len);
    am_rec_t *rec = reserve(tx, recsize);
    if (ORDO_UNLIKELY(rec == NULL))
        return ORDO_ERR_BUSY;
    put_inline(tx, rec, recsize, at, hdr, hdrlen, payload, len);
    return ORDO_OK;
}

ordo_status_t ordo_am_send_bcopy(ordo_am_tx_t *tx, const void *hdr, size_t hdrlen,
                                 const void *payload, size_t len)
{
    const ordo_am_geometry_t *g = &tx->geo;
    /* The lap's next buffer: a fresh one while the first lap is under way,
     * else the next free one in turn among those used (a window's releases
     * come in order, so the next is usually free), and a fresh one only
     * when all of those are busy: a lane touches the buffers one lap takes
     * and as many as it ever had in flight, not all it may have. */
    unsigned n = tx->touched, b = g->nbounce;
    if (tx->next_bounce >= n && n < g->nbounce &&
        atomic_load_explicit(flag_of(tx->base, g, n), memory_order_acquire) == 0)
        b = n;
    for (unsigned i = 0; b == g->nbounce && i < n; i++) {
        unsigned c = tx->next_bounce + i;
        c = c >= n ? c - n : c;
        if (atomic_load_explicit(flag_of(tx->base, g, c), memory_order_acquire) == 0)
            b = c;
    }
    if (b == g->nbounce) {
        if (n == g->nbounce ||
            atomic_load_explicit(flag_of(tx->base, g, n), memory_order_acquire) != 0)
            return ORDO_ERR_BUSY;
        b = n;
    }
    am_rec_t *rec = reserve(tx, LINE);
    if (rec == NULL)
        return ORDO_ERR_BUSY;
    if (b == tx->touched)
        tx->touched++;
    tx->lap_bytes += align_line(hdrlen + len);
    if (tx->lap_bytes >= g->rotate_bytes) {
        tx->lap_bytes = 0;
        tx->next_bounce = 0;
    } else {
        tx->next_bounce = b + 1;
    }
    put_streamed(tx, rec, bounce_of(tx->base, g, b), b, g->stream_chunk, hdr, hdrlen, payload,
                 len);
    return ORDO_OK;
}

/* The record at the reader's head, and stepping over it (publishing how far
 * the reader got, for the writer's free-space check). */
static inline am_rec_t *head_rec(const ordo_am_rx_t *rx)
{
    return (am_rec_t *)(ring_of(rx->base) + (size_t)(rx->head & (rx->geo.ring_size - 1)));
}

static inline void step_over(ordo_am_rx_t *rx, size_t recsize)
{
    rx->head += recsize;
    atomic_store_explicit(&((am_ctrl_t *)rx->base)->head, rx->head, memory_order_release);
}

/* Stepping over a record whose data took spill bytes of the spill ring. */
static inline void step_over_spill(ordo_am_rx_t *rx, size_t recsize, size_t spill)
{
    if (spill) {
        rx->spill_head += spill;
        atomic_store_explicit(&((am_ctrl_t *)rx->base)->spill_head, rx->spill_head,
                              memory_order_release);
    }
    step_over(rx, recsize);
}

/* The data of a short record of kind (inline from data_at, hot or spilled)
 * and len bytes at the head, the ring bytes it takes and the spill ring
 * bytes. */
static inline char *short_data(ordo_am_rx_t *rx, unsigned kind, size_t len, unsigned data_at,
                               size_t *recsize_p, size_t *spill_p)
{
    const ordo_am_geometry_t *g = &rx->geo;
    *spill_p = 0;
    if (kind == REC_DATA) {
        *recsize_p = align_line(data_at + len);
        return (char *)head_rec(rx) + data_at;
    }
    *recsize_p = LINE;
    if (kind == REC_HOT)
        return hot_of(rx->base, g);
    size_t size = align_line(len);
    uint64_t at = spill_place(rx->spill_head, size, g->spill_size);
    *spill_p = (size_t)(at + size - rx->spill_head);
    return spill_of(rx->base, g) + (size_t)(at & (g->spill_size - 1));
}

/* The fields of the complete record at the head, read once (the writer
 * could change them under us) and checked against the geometry: a kind
 * that is none, inline data running past the ring's end, a bounce index
 * or length outside the buffers.  0, or -1 with rx->broken set. */
static int head_fields(ordo_am_rx_t *rx, const am_rec_t *rec, unsigned *kind_p, size_t *len_p,
                       unsigned *bidx_p)
{
    const ordo_am_geometry_t *g = &rx->geo;
    unsigned kind = *(const volatile uint16_t *)&rec->kind;
    size_t len = *(const volatile uint32_t *)&rec->len;
    unsigned bidx = *(const volatile uint16_t *)&rec->bidx;
    size_t room = g->ring_size - (size_t)(rx->head & (g->ring_size - 1));
    if (kind == REC_DATA && !inline_at_ok(bidx))
        rx->broken = "an inline record whose data starts outside its first line";
    else if (kind == REC_DATA && bidx + len > room)
        rx->broken = "an inline record longer than the ring holds there";
    else if (kind == REC_BCOPY &&
             (bidx < g->nbounce ? len > g->bounce_size
                                : bidx > g->nbounce || !g->hot_size || len > g->hot_size))
        rx->broken = "a bounce-buffer record whose index or length is outside the buffers";
    else if (kind == REC_HOT && len > g->hot_size)
        rx->broken = "a hot-buffer record longer than the hot buffer";
    else if (kind == REC_SPILL && len > g->spill_size)
        rx->broken = "a spill-ring record longer than the spill ring";
    else if (kind < REC_DATA || kind > REC_SPILL)
        rx->broken = "a record of no known kind";
    if (rx->broken)
        return -1;
    *kind_p = kind;
    *len_p = len;
    *bidx_p = bidx;
    return 0;
}

unsigned ordo_am_poll(ordo_am_rx_t *rx, unsigned max, ordo_am_deliver_func_t deliver,
                      void *arg)
{
    const ordo_am_geometry_t *g = &rx->geo;
    size_t R = g->ring_size;
    unsigned n = 0;
    while (n < max && !rx->broken) {
        am_rec_t *rec = head_rec(rx);
        if (atomic_load_explicit(&rec->stamp, memory_order_acquire) != rx->head + 1)
            break;
        unsigned kind, bidx;
        size_t len, recsize;
        if (head_fields(rx, rec, &kind, &len, &bidx) != 0)
            break;
        if (kind == REC_WRAP) {
            recsize = R - (size_t)(rx->head & (R - 1));
        } else if (kind != REC_BCOPY) {
            size_t spill;
            char *data = short_data(rx, kind, len, bidx, &recsize, &spill);
            if (deliver(arg, data, len, NULL) == ORDO_ERR_BUSY)
                break;
            step_over_spill(rx, recsize, spill);
            n++;
            continue;
        } else {
            recsize = LINE;
            _Atomic uint32_t *flag = flag_of(rx->base, g, bidx);
            ordo_status_t st = deliver(arg, bounce_of(rx->base, g, bidx), len, flag);
            if (st == ORDO_ERR_BUSY)
                break;
            if (st != ORDO_INPROGRESS)
                ordo_am_release(flag);
            n++;
        }
        step_over(rx, recsize);
    }
    return n;
}

void *ordo_am_peek(ordo_am_rx_t *rx, size_t *len_p, _Atomic uint32_t **bounce_p)
{
    unsigned kind, bidx;
    size_t len;
    for (;;) {
        am_rec_t *rec = head_rec(rx);
        if (rx->broken ||
            atomic_load_explicit(&rec->stamp, memory_order_acquire) != rx->head + 1 ||
            head_fields(rx, rec, &kind, &len, &bidx) != 0)
            return NULL;
        if (kind != REC_WRAP)
            break;
        step_over(rx, rx->geo.ring_size - (size_t)(rx->head & (rx->geo.ring_size - 1)));
    }
    *len_p = len;
    if (kind == REC_BCOPY) {
        rx->peek_size = LINE;
        rx->peek_spill = 0;
        rx->peek_bounce = *bounce_p = flag_of(rx->base, &rx->geo, bidx);
        return bounce_of(rx->base, &rx->geo, bidx);
    }
    rx->peek_bounce = *bounce_p = NULL;
    return short_data(rx, kind, len, bidx, &rx->peek_size, &rx->peek_spill);
}

void ordo_am_consume(ordo_am_rx_t *rx)
{
    /* as the peek found it; frees the bounce buffer, hot buffer or spill
     * ring space the record used */
    if (rx->peek_bounce)
        ordo_am_release(rx->peek_bounce);
    step_over_spill(rx, rx->peek_size, rx->peek_spill);
}
