/* Streaming copies (copy.h).  SSE2 is part of x86-64 itself, so no
 * compiler flag or run-time check is needed; elsewhere a plain memcpy. */
#include "copy.h"

#include <stdint.h>

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

size_t ordo_stream_min = SIZE_MAX;

#if defined(__x86_64__)
void ordo_copy_stream(void *dst, const void *src, size_t len)
{
    char *d = dst;
    const char *s = src;
    size_t head = (16 - ((uintptr_t)d & 15)) & 15;   /* streaming stores need 16-byte alignment */
    if (head > len)
        head = len;
    memcpy(d, s, head);
    d += head;
    s += head;
    len -= head;
    for (size_t n = len / 64; n > 0; n--, d += 64, s += 64) {
        __m128i a = _mm_loadu_si128((const __m128i *)s);
        __m128i b = _mm_loadu_si128((const __m128i *)(s + 16));
        __m128i c = _mm_loadu_si128((const __m128i *)(s + 32));
        __m128i e = _mm_loadu_si128((const __m128i *)(s + 48));
        _mm_stream_si128((__m128i *)d, a);
        _mm_stream_si128((__m128i *)(d + 16), b);
        _mm_stream_si128((__m128i *)(d + 32), c);
        _mm_stream_si128((__m128i *)(d + 48), e);
    }
    memcpy(d, s, len % 64);
    _mm_sfence();
}
#else
void ordo_copy_stream(void *dst, const void *src, size_t len)
{
    memcpy(dst, src, len);
}
#endif
