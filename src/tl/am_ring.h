/* A one-way message lane from one sender to one receiver, laid out in a
 * section of memory both can reach (shared memory for shm, process memory
 * for self):
 *
 *   [control line: head]  [byte ring]  [bounce flags]  [bounce buffers]
 *
 * The ring carries records of header + inline data (the short protocol) or a
 * reference to a bounce buffer (eager).  One writer, one reader, no locks:
 * each record starts with a stamp equal to its ring position (a 64-bit count
 * that never repeats), written last with release order; the reader waits for
 * the stamp it expects.  Before publishing a record the writer makes sure
 * the stamp word of the next position is zero (it clears a block of line
 * starts ahead at a time, the block's first before the stamp and the rest
 * after it), so stale bytes of an earlier lap are never taken for a record.
 * An inline record's first line (its stamp, the line the reader polls) is
 * written after the rest, and a long payload starts on a line.  The reader
 * publishes how far it has read (head) so the writer knows the free space;
 * bounce buffers have one busy flag each, set by the writer and cleared by
 * the reader when it is done with the data.
 *
 * The writer goes round its bounce buffers in laps of `rotate_bytes` of
 * records (the bytes written, not the buffers: a 16 KiB record in a 32 KiB
 * buffer counts 16), even when fewer are in flight, and takes more only
 * while more are in flight.  Writing a line that another core still holds
 * (it read the buffer last) first takes it away from that core: on a 2-core
 * EPYC VM that made copying 64 KiB into a reused buffer take 9 us instead
 * of 2, and 16 KiB one-way 1.30 us going round 1 MiB of lines against 1.10
 * round 2 MiB.  A buffer reused only after the reader went through more
 * than its L2 cache of others has left that cache by then.
 *
 * A lane may stream its bounce buffers (stream_chunk): a long record is
 * published once its first chunk is in, and the writer counts the bytes in
 * place (the buffer's `arrived` word, beside its busy flag) after each
 * further chunk, so the reader copies the front out while the back goes
 * in.  A reader of such a lane reads a bounce buffer's bytes only below
 * ordo_am_arrived.
 *
 * Short records may leave the ring, which then carries a one-line
 * reference, for two areas of their own (a lane may have either, both or
 * neither; shm gives them where cores own the lines they wrote, see
 * docs/shm-messages.md for what they measured):
 * - the hot buffer (hot_size): records of more than hot_min bytes go there
 *   whenever the reader is past the last one: the writer rewrites lines it
 *   still owns;
 * - the spill ring (spill_size): records of more than spill_min bytes are
 *   laid one after another in a ring of twice a core's L2 cache, so a line
 *   is written again only after the reader's cache let it go.  Both ends
 *   place records in it by the same rule, so no position is read from the
 *   writer's memory.
 * Either is free again once the reader's head has passed the record that
 * used it: no flag goes back and forth.  A hot record may stream
 * (hot_stream): it then goes as a bounce buffer's does, with the flag line
 * after the bounce buffers' flags, and the writer takes the hot buffer
 * again only once the reader gave it back.  And a short record too long
 * for the hot buffer, sent while the reader has read everything before it
 * (alone_min: a message sent alone, as in a ping-pong), goes through a
 * streamed bounce buffer, so the reader copies its front out while the
 * back goes in; in a stream of records, where the reader is behind and the
 * stream is what overlaps, it goes to the spill ring.
 *
 * Where a core gives up the lines it wrote once another core read them
 * (Intel: no Owned state), the writer may ask for lines back for writing
 * ahead of time (own_ahead):
 * after each inline record, the lines the next one takes if it is as long
 * (up to own_ahead bytes, within the free space, not the first line, which
 * the reader polls).  A ping-pong's sender then takes them while it waits
 * for the answer, not line by line as it writes.  Asked once, 8 KiB ahead,
 * they were the reader's again by the time they were written (its
 * prefetchers follow the ring).
 *
 * Where a core can push lines it wrote out to the cache all cores share
 * (CLDEMOTE), the writer does so with a record sent in answer (an inline
 * one whole, another its reference line): one that follows, since its
 * last, a record from that peer (ordo_am_tx_pair),
 * as in a ping-pong, whose reader waits for it and then reads the lines
 * there rather than from the writer's core.  A stream of records is left
 * alone: its reader is behind, and pushing each line out halved a window's
 * bandwidth. */
#ifndef ORDO_TL_AM_RING_H
#define ORDO_TL_AM_RING_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <ordo/status.h>

typedef struct ordo_am_geometry {
    size_t   ring_size;     /* bytes, a power of two */
    size_t   bounce_size;   /* bytes of one bounce buffer (largest eager record) */
    unsigned nbounce;       /* bounce buffers in the lane */
    size_t   rotate_bytes;  /* record bytes of one lap round the buffers (0: reuse the
                               first free one) */
    size_t   stream_chunk;  /* 0: a record is published whole; else payloads of at least
                               twice this stream, in four chunks of at least this size
                               (a power of two times it; set after init) */
    size_t   hot_stream;    /* 0: a hot record is published whole; else those of more
                               than twice this stream, as bounce buffers do (set after
                               init) */
    size_t   hot_size;      /* 0: no hot buffer; else its bytes, a line multiple */
    size_t   alone_min;     /* 0: none; else short records above this many bytes go
                               through a bounce buffer, streamed, when the reader has
                               read every record before them (set after init) */
    size_t   hot_min;       /* short records above this many bytes use the hot buffer */
    size_t   spill_size;    /* 0: no spill ring; else its bytes, a power of two */
    size_t   spill_min;     /* short records above this many bytes use the spill ring
                               (the hot and spill fields are set after init) */
    size_t   own_ahead;     /* 0: none; else the most ring bytes the writer asks for
                               ahead of time (set after init) */
    int      demote;        /* the writer pushes the ring lines of a record sent in
                               answer out to the cache the cores share (set after
                               init; needs ordo_am_tx_pair) */
} ordo_am_geometry_t;

/* The sender's end. */
typedef struct ordo_am_tx {
    char              *base;
    ordo_am_geometry_t geo;
    uint64_t           tail;        /* next record position */
    uint64_t           head_seen;   /* reader's head as last read */
    uint64_t           cleared;     /* stamps are cleared up to here */
    unsigned           next_bounce; /* where the lap goes on */
    unsigned           touched;     /* buffers used so far: 0 .. touched-1 */
    size_t             lap_bytes;   /* record bytes written in this lap */
    uint64_t           hot_until;   /* the hot buffer is free once the head is here */
    unsigned           hot_skip;    /* records to send without trying the hot buffer */
    int                hot_flagged; /* the last hot record was streamed: its flag says
                                       when the reader gave the buffer back */
    unsigned           idle_skip;   /* records to send without looking whether the reader
                                       is idle (alone_min) */
    uint64_t           spill_tail;  /* next spill ring position */
    uint64_t           spill_seen;  /* the reader's spill head as last read */
    const struct ordo_am_rx *pair;  /* the lane from the same peer to this process */
    uint64_t           pair_seen;   /* its head at this lane's last record */
    uint64_t           demoted;     /* records pushed out (geo.demote), for tests */
} ordo_am_tx_t;

/* The receiver's end. */
typedef struct ordo_am_rx {
    char              *base;
    ordo_am_geometry_t geo;
    uint64_t           head;
    /* A record that broke the lane's rules was read (the writer's memory
     * is not trusted: a kind, length or bounce index out of the geometry):
     * the lane delivers nothing more.  What was wrong, for the log. */
    const char        *broken;
    uint64_t           spill_head;  /* spill ring position of the next spilled record */
    size_t             peek_size;   /* ring bytes of the record ordo_am_peek returned */
    size_t             peek_spill;  /* ... and spill ring bytes (with a skipped end) */
    _Atomic uint32_t  *peek_bounce; /* ... or its bounce buffer's flag */
    int                broken_told; /* the owner logged it */
} ordo_am_rx_t;

/* What a receiver is handed: data is valid until the deliver function
 * returns, or, when it keeps a bounce buffer (bounce != NULL and it returned
 * ORDO_INPROGRESS), until ordo_am_release(bounce). */
typedef ordo_status_t (*ordo_am_deliver_func_t)(void *arg, void *data, size_t len,
                                                _Atomic uint32_t *bounce);

/* Largest inline record data the ring takes. */
size_t ordo_am_short_capacity(const ordo_am_geometry_t *geo);
/* Bytes of a lane section; page-size multiple. */
size_t ordo_am_section_size(const ordo_am_geometry_t *geo);
/* Geometry for a short limit, an eager limit and a buffer count; the
 * writer's laps round the buffers write rotate_bytes of records (0: it
 * reuses the first free buffer). */
void   ordo_am_geometry_init(ordo_am_geometry_t *geo, size_t short_max, size_t eager_max,
                             unsigned nbounce, size_t rotate_bytes);

/* A new section must read as zeros: fresh anonymous or memfd pages do, and
 * take memory only where messages use them. */
void ordo_am_tx_init(ordo_am_tx_t *tx, void *base, const ordo_am_geometry_t *geo);
void ordo_am_rx_init(ordo_am_rx_t *rx, void *base, const ordo_am_geometry_t *geo);
/* rx: the lane from tx's peer to this process, read by the same thread (or
 * under the same lock) as tx is written.  A record tx sends after rx
 * delivered something since tx's last one answers the peer, whose reader
 * is likely waiting for it (geo.demote). */
void ordo_am_tx_pair(ordo_am_tx_t *tx, const ordo_am_rx_t *rx);

/* Send hdr+payload inline.  ORDO_ERR_BUSY when the ring is full (nothing was
 * written; try again after the receiver drained). */
ordo_status_t ordo_am_send_short(ordo_am_tx_t *tx, const void *hdr, size_t hdrlen,
                                 const void *payload, size_t len);
/* Send hdr+payload through a bounce buffer.  ORDO_ERR_BUSY when every
 * buffer is in use or the ring is full. */
ordo_status_t ordo_am_send_bcopy(ordo_am_tx_t *tx, const void *hdr, size_t hdrlen,
                                 const void *payload, size_t len);

/* Deliver up to max records in ring order; returns how many.  A record
 * that breaks the lane's rules is not delivered: rx->broken says why, and
 * the lane stays silent from then on (the caller reports it once). */
unsigned ordo_am_poll(ordo_am_rx_t *rx, unsigned max, ordo_am_deliver_func_t deliver,
                      void *arg);

/* The next record, when it is complete (a wrap record in front of it is
 * stepped over): its bytes and length, without delivering it; NULL when
 * nothing is there.  *bounce_p is NULL for a short one (inline, hot or
 * spilled: all its bytes are there), else the record's bounce buffer,
 * whose bytes may still be arriving (ordo_am_arrived).  A receiver that
 * used the record calls ordo_am_consume (which releases the bounce buffer:
 * no keeping); one that did not leaves it for ordo_am_poll. */
void *ordo_am_peek(ordo_am_rx_t *rx, size_t *len_p, _Atomic uint32_t **bounce_p);
/* Step over the record ordo_am_peek returned. */
void  ordo_am_consume(ordo_am_rx_t *rx);

/* The ring positions [*from_p, *to_p) whose lines the writer asks for
 * after publishing a record of recsize ring bytes (geo.own_ahead set):
 * past the tail's first line, as far as a record that long reaches, at
 * most own_ahead bytes, never past the free space as last seen. */
void ordo_am_ahead_span(const ordo_am_tx_t *tx, size_t recsize, uint64_t *from_p,
                        uint64_t *to_p);

/* For a lane whose writer is this process: whether anything is unread. */
static inline int ordo_am_lane_busy(const ordo_am_tx_t *tx, const ordo_am_rx_t *rx)
{
    return tx->tail != rx->head;
}

static inline void ordo_am_release(_Atomic uint32_t *bounce)
{
    atomic_store_explicit(bounce, 0, memory_order_release);
}

/* Where a bounce buffer's arrived count lies: the same line as its flag. */
#define ORDO_AM_ARRIVED_OFFSET 32

/* Bytes of the record in bounce buffer `bounce` (header included) that
 * are in place: all of it once its writer finished.  Written by the other
 * process: a bound on what to read, never an index. */
static inline size_t ordo_am_arrived(_Atomic uint32_t *bounce)
{
    _Atomic uint32_t *a = (_Atomic uint32_t *)((char *)bounce + ORDO_AM_ARRIVED_OFFSET);
    return atomic_load_explicit(a, memory_order_acquire);
}

#endif
