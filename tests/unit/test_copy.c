/* Streaming copies (base/copy.h): every byte arrives whatever the
 * alignment of either side and the length (head, 64-byte body, tail), and
 * nothing around the destination is written; ordo_copy_out streams only
 * from ordo_stream_min up.  The auto threshold follows a core's L2 cache,
 * at least 256 KiB, and an explicit setting wins. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include "../../src/base/copy.h"
#include "../../src/base/machine.h"

static void one(size_t len, size_t dalign, size_t salign, int streaming)
{
    enum { GUARD = 80 };
    unsigned char *src = malloc(len + 64), *dst = malloc(len + 64 + 2 * GUARD);
    unsigned char *s = src + salign, *d = dst + GUARD + dalign;
    for (size_t i = 0; i < len; i++)
        s[i] = (unsigned char)(i * 7 + len + 1);
    memset(dst, 0xa5, len + 64 + 2 * GUARD);
    if (streaming)
        ordo_copy_stream(d, s, len);
    else
        ordo_copy_out(d, s, len);
    CHECK(memcmp(d, s, len) == 0);
    size_t bad = 0;
    for (unsigned char *p = dst; p < d; p++)
        bad += *p != 0xa5;
    for (unsigned char *p = d + len; p < dst + len + 64 + 2 * GUARD; p++)
        bad += *p != 0xa5;
    CHECK(bad == 0);
    free(src);
    free(dst);
}

int main(void)
{
    static const size_t lens[] = {0, 1, 15, 16, 17, 63, 64, 65, 127, 128, 129, 4095, 4096,
                                  65536 + 37, (1u << 20) + 5};
    for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++)
        for (size_t da = 0; da < 20; da += 3)
            for (size_t sa = 0; sa < 20; sa += 7) {
                one(lens[i], da, sa, 1);
                ordo_stream_min = 64;              /* through the choice, both ways */
                one(lens[i], da, sa, 0);
                ordo_stream_min = SIZE_MAX;
                one(lens[i], da, sa, 0);
            }
    ordo_auto_choice_t c;
    ordo_auto_stream(SIZE_MAX, 1 << 20, 0, &c);
    CHECK(c.stream_min == 2u << 20 && strstr(c.stream_why, "L2") != NULL);
    ordo_auto_stream(SIZE_MAX, 64 << 10, 0, &c);
    CHECK(c.stream_min == 256u << 10);          /* a small L2: not below 256 KiB */
    ordo_auto_stream(SIZE_MAX, 0, 0, &c);
    CHECK(c.stream_min == 2u << 20 && strstr(c.stream_why, "assumed") != NULL);
    ordo_auto_stream(SIZE_MAX, 1 << 20, 32l << 20, &c);   /* a quarter of a 32 MiB L3 */
    CHECK(c.stream_min == 8u << 20 && strstr(c.stream_why, "L3") != NULL);
    ordo_auto_stream(SIZE_MAX, 2 << 20, 4l << 20, &c);    /* a small L3: twice the L2 */
    CHECK(c.stream_min == 4u << 20 && strstr(c.stream_why, "L2") != NULL);
    ordo_auto_stream(4096, 1 << 20, 32l << 20, &c);
    CHECK(c.stream_min == 4096 && strstr(c.stream_why, "asks") != NULL);
    return test_failures ? 1 : 0;
}
