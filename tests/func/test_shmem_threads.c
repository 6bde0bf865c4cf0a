/* OpenSHMEM at SHMEM_THREAD_MULTIPLE: threads of each PE, each with a
 * context of its own (an ordo stream: they run side by side, not one
 * process-wide lock), put to their word at the next PE, add to a counter
 * there, put-with-signal to it, fetch from it, and quiet their context;
 * one more thread waits for a signal another PE's thread sends.  Every
 * value is checked; any PE count. */
#include <pthread.h>
#include <stdio.h>

#include "../shmem_harness.h"

enum { THREADS = 3, ITERS = 2000 };


/* Symmetric: per thread, a data word and a signal word the previous PE's
 * same thread writes; a counter every thread of every PE adds to. */
static long words[THREADS];
static uint64_t signals[THREADS];
static long counter;

static void *worker(void *arg)
{
    int t = (int)(long)arg, next = (me + 1) % npes;
    shmem_ctx_t ctx;
    CHECK(shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) == 0);
    for (int i = 1; i <= ITERS; i++) {
        long v = (long)me * 1000000 + (long)t * 10000 + i;
        shmem_ctx_long_put(ctx, &words[t], &v, 1, next);
        shmem_ctx_long_atomic_add(ctx, &counter, 1, next);
        if (i % 100 == 0) {
            shmem_ctx_quiet(ctx);
            long back = shmem_ctx_long_g(ctx, &words[t], next);
            CHECK(back == v);
        }
    }
    /* the last value, then the signal: never seen before it */
    long last = (long)me * 1000000 + (long)t * 10000 + ITERS;
    shmem_ctx_long_put_signal(ctx, &words[t], &last, 1, &signals[t], 1, SHMEM_SIGNAL_SET,
                              next);
    shmem_ctx_quiet(ctx);
    shmem_ctx_destroy(ctx);
    return NULL;
}

int main(void)
{
    int provided = -1;
    if (shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided) != 0 ||
        provided != SHMEM_THREAD_MULTIPLE) {
        fprintf(stderr, "shmem_init_thread(MULTIPLE) gave %d\n", provided);
        return 1;
    }
    me = shmem_my_pe();
    npes = shmem_n_pes();
    shmem_barrier_all();
    pthread_t th[THREADS];
    for (int t = 0; t < THREADS; t++)
        CHECK(pthread_create(&th[t], NULL, worker, (void *)(long)t) == 0);
    /* this thread waits for what the previous PE's threads signal */
    int prev = (me - 1 + npes) % npes;
    for (int t = 0; t < THREADS; t++) {
        shmem_uint64_wait_until(&signals[t], SHMEM_CMP_EQ, 1);
        CHECK(__atomic_load_n(&words[t], __ATOMIC_ACQUIRE) ==
              (long)prev * 1000000 + (long)t * 10000 + ITERS);
    }
    for (int t = 0; t < THREADS; t++)
        CHECK(pthread_join(th[t], NULL) == 0);
    shmem_barrier_all();
    CHECK(counter == (long)THREADS * ITERS);
    int rc = shmem_test_report("test_shmem_threads");
    shmem_finalize();
    return rc;
}
