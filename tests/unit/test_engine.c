/* Offload engines: many jobs of random sizes, with and without threads,
 * the initiator helping; every byte lands once. */
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include "../../src/tl/shm/shm_engine.h"

static void run(int threads)
{
    ordo_engine_pool_t pool;
    CHECK(ordo_engine_pool_init(&pool, threads, threads % 2) == 0);
    enum { JOBS = 64 };
    ordo_engine_job_t jobs[JOBS];
    char *src[JOBS], *dst[JOBS];
    uint64_t st = 7;
    for (int i = 0; i < JOBS; i++) {
        size_t len = 1 + test_rand(&st) % (300 << 10);
        src[i] = malloc(len);
        dst[i] = calloc(1, len);
        test_fill(src[i], len, (uint64_t)i);
        memset(&jobs[i], 0, sizeof(jobs[i]));
        jobs[i].kind = ORDO_ENGINE_MEMCPY;
        jobs[i].src = src[i];
        jobs[i].dst = dst[i];
        jobs[i].len = len;
        CHECK(ordo_engine_submit(&pool, &jobs[i], 4096 + (size_t)(i % 4) * 8192) == 0);
    }
    for (int i = 0; i < JOBS; i++) {
        while (!ordo_engine_job_done(&jobs[i]))
            ordo_engine_help(&pool);
        CHECK(memcmp(src[i], dst[i], jobs[i].len) == 0);
        CHECK(atomic_load(&jobs[i].error) == 0);
        free(src[i]);
        free(dst[i]);
    }
    CHECK(ordo_engine_help(&pool) == 0);
    ordo_engine_pool_fini(&pool);
}

int main(void)
{
    run(0);
    run(1);
    run(3);
    return test_result("test_engine");
}
