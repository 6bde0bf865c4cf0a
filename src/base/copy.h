/* Copies into another process's memory.  Large ones go with streaming
 * (non-temporal) stores: a put of megabytes into a peer's memory would
 * otherwise first read every destination line into this core's caches
 * (to write it) and evict the initiator's own data, for lines only the
 * target will read.  Measured on a 2-core EPYC VM, 16 puts of 2 MiB into
 * 32 MiB: memcpy 15-18 GB/s, streaming 24-26 GB/s; below about the size
 * of a core's L2 cache ordinary stores win (the lines stay in cache for
 * the reader).  ordo_stream_min is where streaming starts (ORDO_STREAM_MIN;
 * SIZE_MAX: never). */
#ifndef ORDO_BASE_COPY_H
#define ORDO_BASE_COPY_H

#include <stddef.h>
#include <string.h>

extern size_t ordo_stream_min;

/* Streaming copy, ordered before any later store of this thread (it ends
 * with a store fence: a put's data is in place before the flag a later
 * put sets, whatever the stream's ordering fences do). */
void ordo_copy_stream(void *dst, const void *src, size_t len);

static inline void ordo_copy_out(void *dst, const void *src, size_t len)
{
    if (len >= ordo_stream_min)
        ordo_copy_stream(dst, src, len);
    else
        memcpy(dst, src, len);
}

#endif
