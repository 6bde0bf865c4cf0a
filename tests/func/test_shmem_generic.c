/* The C11 type-generic interfaces of <shmem.h>: each picks the routine of
 * the type its pointer argument points to, with and without a context. */
#include <stdio.h>

#include "../shmem_harness.h"


static long lbuf[8];
static double dbuf[4];
static int ibuf[4];
static unsigned long long counter;

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    int right = (me + 1) % npes, left = (me - 1 + npes) % npes;
    long lsrc[8];
    double dsrc[4];
    for (int k = 0; k < 8; k++)
        lsrc[k] = me * 100 + k;
    for (int k = 0; k < 4; k++)
        dsrc[k] = me + 0.5 * k;
    shmem_ctx_t ctx;
    CHECK(shmem_ctx_create(SHMEMX_CTX_ORDER_STRICT, &ctx) == 0);
    shmem_barrier_all();
    shmem_put(lbuf, lsrc, 8, right);           /* shmem_long_put */
    shmem_put(ctx, dbuf, dsrc, 4, right);      /* shmem_ctx_double_put */
    shmem_p(&ibuf[0], me + 7, right);          /* shmem_int_p */
    shmem_ctx_quiet(ctx);
    shmem_barrier_all();
    for (int k = 0; k < 8; k++)
        CHECK(lbuf[k] == left * 100 + k);
    for (int k = 0; k < 4; k++)
        CHECK(dbuf[k] == left + 0.5 * k);
    CHECK(ibuf[0] == left + 7);
    CHECK(shmem_g(&lbuf[2], right) == me * 100 + 2);
    double back[4];
    shmem_get(ctx, back, dbuf, 4, right);
    CHECK(back[3] == me + 1.5);
    shmem_barrier_all();
    /* atomics */
    unsigned long long before = shmem_atomic_fetch_add(&counter, 2ull, 0);
    CHECK(before < 3ull * (unsigned long long)npes);
    shmem_atomic_inc(ctx, &counter, 0);
    shmem_ctx_quiet(ctx);
    shmem_barrier_all();
    if (me == 0)
        CHECK(counter == 3ull * (unsigned long long)npes);
    CHECK(shmem_atomic_fetch(&counter, 0) == 3ull * (unsigned long long)npes);
    shmem_barrier_all();
    /* wait and test */
    shmem_p(&ibuf[1], 1, right);
    shmem_wait_until(&ibuf[1], SHMEM_CMP_EQ, 1);
    CHECK(shmem_test(&ibuf[1], SHMEM_CMP_EQ, 1));
    shmem_barrier_all();
    /* team collectives */
    long *src = shmem_malloc(2 * sizeof(long)), *dst = shmem_malloc(2 * (size_t)npes * 8);
    src[0] = me, src[1] = 1;
    CHECK(shmem_sum_reduce(SHMEM_TEAM_WORLD, dst, src, 2) == 0);
    CHECK(dst[0] == (long)npes * (npes - 1) / 2 && dst[1] == npes);
    CHECK(shmem_fcollect(SHMEM_TEAM_WORLD, dst, src, 2) == 0);
    CHECK(dst[2 * (npes - 1)] == npes - 1);
    CHECK(shmem_broadcast(SHMEM_TEAM_WORLD, dst, src, 2, 0) == 0);
    CHECK(dst[0] == 0);
    shmem_free(dst);
    shmem_free(src);
    shmem_ctx_destroy(ctx);
    int rc = shmem_test_report("test_shmem_generic");
    shmem_finalize();
    return rc;
}
