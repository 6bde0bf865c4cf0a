/* Offload engines: a few copy threads that move large transfers while the
 * initiator goes on.  A transfer is split into chunks; engines and any
 * initiator that waits (ordo_quiet, request wait) claim chunks, so a waiting
 * CPU is never idle while its own transfer is queued behind a sleeping
 * thread.  Completion is only signalled by a counter: the initiator polls
 * it from progress, so callbacks never run on an engine thread. */
#ifndef ORDO_SHM_ENGINE_H
#define ORDO_SHM_ENGINE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef enum ordo_engine_kind {
    ORDO_ENGINE_MEMCPY,     /* both sides mapped here */
    ORDO_ENGINE_CMA_WRITE,  /* process_vm_writev into pid */
    ORDO_ENGINE_CMA_READ    /* process_vm_readv from pid */
} ordo_engine_kind_t;

typedef struct ordo_engine_job {
    ordo_engine_kind_t      kind;
    char                   *dst;
    const char             *src;
    size_t                  len;
    pid_t                   pid;        /* CMA peer */
    size_t                  chunk;
    uint32_t                nchunks;
    uint32_t                next;       /* next chunk to claim, under the pool lock */
    _Atomic uint32_t        done;       /* chunks copied; the job is complete at nchunks */
    _Atomic int             error;      /* errno of a failed chunk, 0 if none */
    struct ordo_engine_job *runnable_next;
} ordo_engine_job_t;   /* embed it first in the owner's job record */

typedef struct ordo_engine_pool {
    pthread_mutex_t     lock;
    pthread_cond_t      wake;
    ordo_engine_job_t  *runnable_head, *runnable_tail;
    pthread_t          *threads;
    int                 nthreads;   /* wanted */
    int                 running;    /* started (lazily, at the first job) */
    int                 any_core;   /* not confined to the rank's binding */
    int                 started;
    int                 stop;
} ordo_engine_pool_t;

int  ordo_engine_pool_init(ordo_engine_pool_t *pool, int nthreads, int any_core);
void ordo_engine_pool_fini(ordo_engine_pool_t *pool);

/* Queue a job (its kind, dst, src, len, pid set); chunk is the work unit.
 * Returns 0, or an errno when the engine threads could not be started (the
 * job is still queued and completes by ordo_engine_help). */
int  ordo_engine_submit(ordo_engine_pool_t *pool, ordo_engine_job_t *job, size_t chunk);

/* Copy one queued chunk on the calling thread; 1 if it did, 0 if none waits. */
int  ordo_engine_help(ordo_engine_pool_t *pool);

static inline int ordo_engine_job_done(ordo_engine_job_t *job)
{
    return atomic_load_explicit(&job->done, memory_order_acquire) == job->nchunks;
}

#endif
