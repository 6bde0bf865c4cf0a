/* What the OpenSHMEM tests share: CHECK, which counts a failure on this PE
 * and says where (any thread may call it), and the closing report, the
 * failures of every PE summed and printed at PE 0. */
#ifndef ORDO_TESTS_SHMEM_HARNESS_H
#define ORDO_TESTS_SHMEM_HARNESS_H

#include <shmem.h>
#include <stdio.h>

static int me, npes, failures;

#define CHECK(cond)                                                                 \
    do {                                                                            \
        if (!(cond)) {                                                              \
            fprintf(stderr, "[PE %d] %s:%d: CHECK(%s) failed\n", me, __FILE__,      \
                    __LINE__, #cond);                                               \
            __atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED);                     \
        }                                                                           \
    } while (0)

/* Collective over SHMEM_TEAM_WORLD: "<what>: N PEs, F failure(s)" at PE 0
 * (F over every PE); then main's exit status for this PE. */
static int shmem_test_report(const char *what)
{
    int *f = shmem_malloc(sizeof(int)), *sum = shmem_malloc(sizeof(int));
    *f = failures;
    shmem_int_sum_reduce(SHMEM_TEAM_WORLD, sum, f, 1);
    if (me == 0)
        printf("%s: %d PEs, %d failure(s)\n", what, npes, *sum);
    shmem_free(sum);
    shmem_free(f);
    return failures ? 1 : 0;
}

#endif
