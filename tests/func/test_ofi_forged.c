/* Batches of puts and atomics a peer forges (its records arrive over the
 * network; nothing in them is trusted): rank 0 hands its network transport
 * batches "from rank 1" that are truncated, name memory it never exposed,
 * reach past the end of a region or wrap around, carry an atomic of no
 * width, an operation that needs an answer or none at all, a misaligned
 * word, a kind that does not exist, or claim more records than they carry.
 * Not a byte of the region may change but the valid records' (applied in
 * order up to the first refusal); rank 1 receives acknowledgements of
 * batches it never sent and drops them; then the two exchange real puts
 * and atomics over the network as if nothing happened.  Run with ordorun
 * --nodes 2 -n 2. */
#define _GNU_SOURCE   /* ofi.h: struct sigaction */
#include <signal.h>
#include <stdint.h>
#include <string.h>

#include "../harness.h"
#include "../../src/core/core.h"
#include "../../src/tl/ofi/ofi.h"

enum { SIZE = 4096 };

static char msg[1024];
static size_t msg_len;

static void begin(uint32_t id, uint32_t count)
{
    ofi_puts_hdr_t h = {.id = id, .count = count};
    memcpy(msg, &h, sizeof(h));
    msg_len = sizeof(h);
}

static void record(uint64_t mem_id, uint64_t offset, uint32_t len, uint32_t kind,
                   const void *data, size_t carried)
{
    ofi_put_rec_t r = {.mem_id = mem_id, .offset = offset, .len = len, .kind = kind};
    memcpy(msg + msg_len, &r, sizeof(r));
    msg_len += sizeof(r);
    memset(msg + msg_len, 0, (carried + 7) & ~(size_t)7);
    memcpy(msg + msg_len, data, carried);
    msg_len += (carried + 7) & ~(size_t)7;
}

static void deliver(ofi_iface_t *o)
{
    if (o->threaded)
        pthread_mutex_lock(&o->lock);   /* as the progress helper holds it */
    ofi_batch_apply(o, 1, 0, msg, msg_len);
    if (o->threaded)
        pthread_mutex_unlock(&o->lock);
}

static int unchanged(const unsigned char *base, const unsigned char *before)
{
    return memcmp(base, before, SIZE) == 0;
}

int main(void)
{
    test_init_two_nodes();
    ordo_region_h r;
    void *addr;
    REQUIRE_OK(ordo_region_alloc(SIZE, 0, &r, &addr));
    unsigned char *base = addr;
    memset(base, 0x11, SIZE);
    CHECK_OK(ordo_coll_barrier(NULL));
    if (ordo_rank() == 0) {
        int ti = ordo_ctx->tl_of_rank[1];
        ofi_iface_t *o = (ofi_iface_t *)ordo_ctx->ifaces[ti];
        REQUIRE_OK(r->mem[ti] != NULL ? ORDO_OK : ORDO_ERR_INVALID_HANDLE);
        uint64_t id = r->mem[ti]->id;
        static unsigned char before[SIZE];
        memcpy(before, base, SIZE);
        const uint64_t one = 1, bytes = 0x2222222222222222ull;
        const uint32_t never = 0xfffffff0u;   /* no batch rank 1 ever sent */

        begin(never, 0);
        msg_len = 3;                                   /* shorter than a header */
        deliver(o);
        begin(never, 1);                               /* a record cut short */
        msg_len += sizeof(ofi_put_rec_t) - 1;
        deliver(o);
        begin(never, 1);                               /* its data cut short */
        record(id, 0, 64, OFI_REC_PUT, &bytes, 8);
        deliver(o);
        begin(never, 1);
        record(id + 1000, 0, 8, OFI_REC_PUT, &bytes, 8);   /* memory never exposed */
        deliver(o);
        begin(never, 1);
        record(id, SIZE - 4, 8, OFI_REC_PUT, &bytes, 8);   /* past the end */
        deliver(o);
        begin(never, 1);
        record(id, UINT64_MAX - 3, 8, OFI_REC_PUT, &bytes, 8);   /* wraps around */
        deliver(o);
        begin(never, 1);
        record(id, 0, 3, OFI_REC_ATOMIC | ORDO_ATOMIC_ADD << 8, &one, 8);   /* no width */
        deliver(o);
        begin(never, 1);
        record(id, 0, 8, OFI_REC_ATOMIC | ORDO_ATOMIC_CSWAP << 8, &one, 8);  /* needs a compare */
        deliver(o);
        begin(never, 1);
        record(id, 0, 8, OFI_REC_ATOMIC | 0xffu << 8, &one, 8);   /* no such operation */
        deliver(o);
        begin(never, 1);
        record(id, 4, 8, OFI_REC_ATOMIC | ORDO_ATOMIC_ADD << 8, &one, 8);   /* misaligned */
        deliver(o);
        begin(never, 1);
        record(id, 0, 8, 7, &bytes, 8);                    /* no such kind */
        deliver(o);
        CHECK(unchanged(base, before));

        /* valid records are applied in order up to the first refusal */
        begin(never, 3);
        record(id, 64, 8, OFI_REC_PUT, &bytes, 8);
        record(id, 128, 8, OFI_REC_ATOMIC | ORDO_ATOMIC_ADD << 8, &one, 8);
        record(id, SIZE, 8, OFI_REC_PUT, &bytes, 8);       /* refused: the rest is not */
        deliver(o);
        begin(never, 5);                                   /* claims more than it carries */
        record(id, 256, 8, OFI_REC_PUT, &bytes, 8);
        deliver(o);
        uint64_t word;
        memcpy(&word, base + 64, 8);
        CHECK(word == bytes);
        memcpy(&word, base + 128, 8);
        CHECK(word == 0x1111111111111111ull + 1);
        memcpy(&word, base + 256, 8);
        CHECK(word == bytes);
        memcpy(before + 64, base + 64, 8);
        memcpy(before + 128, base + 128, 8);
        memcpy(before + 256, base + 256, 8);
        CHECK(unchanged(base, before));
    }
    CHECK_OK(ordo_coll_barrier(NULL));

    /* both go on: rank 1 puts into rank 0 and adds to a word there over the
     * network, with the acknowledgements it never asked for dropped */
    if (ordo_rank() == 1) {
        uint64_t v = 0x3333333333333333ull, old = 0, add = 5;
        CHECK_OK(ordo_put(NULL, &v, sizeof(v), r, 0, 512, 0));
        CHECK_OK(ordo_atomic(NULL, ORDO_ATOMIC_ADD, ORDO_UINT64, &add, NULL, &old, r, 0,
                             128, 0));
        CHECK(old == 0x1111111111111111ull + 1);
        CHECK_OK(ordo_quiet(NULL));
    }
    CHECK_OK(ordo_coll_barrier(NULL));
    if (ordo_rank() == 0) {
        uint64_t word;
        memcpy(&word, base + 512, 8);
        CHECK(word == 0x3333333333333333ull);
        memcpy(&word, base + 128, 8);
        CHECK(word == 0x1111111111111111ull + 6);
    }
    CHECK_OK(ordo_coll_barrier(NULL));
    CHECK_OK(ordo_region_free(r));
    CHECK_OK(ordo_finalize());
    return test_result("test_ofi_forged");
}
