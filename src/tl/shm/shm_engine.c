#define _GNU_SOURCE
#include "shm_engine.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/uio.h>
#include <unistd.h>

#include "../../base/log.h"
#include "../../base/quiesce.h"

static void copy_chunk(ordo_engine_job_t *job, uint32_t i)
{
    size_t off = (size_t)i * job->chunk;
    size_t len = job->len - off < job->chunk ? job->len - off : job->chunk;
    if (job->kind == ORDO_ENGINE_MEMCPY) {
        memcpy(job->dst + off, job->src + off, len);
    } else {
        /* process_vm_* may move fewer bytes than asked: loop until done. */
        size_t moved = 0;
        while (moved < len) {
            struct iovec local, remote;
            ssize_t n;
            if (job->kind == ORDO_ENGINE_CMA_WRITE) {
                local = (struct iovec){(void *)(job->src + off + moved), len - moved};
                remote = (struct iovec){job->dst + off + moved, len - moved};
                n = process_vm_writev(job->pid, &local, 1, &remote, 1, 0);
            } else {
                local = (struct iovec){job->dst + off + moved, len - moved};
                remote = (struct iovec){(void *)(job->src + off + moved), len - moved};
                n = process_vm_readv(job->pid, &local, 1, &remote, 1, 0);
            }
            if (n <= 0) {
                int expected = 0;
                atomic_compare_exchange_strong(&job->error, &expected, n < 0 ? errno : EIO);
                break;
            }
            moved += (size_t)n;
        }
    }
    atomic_fetch_add_explicit(&job->done, 1, memory_order_release);
}

/* Claim the next chunk under the lock; the job leaves the runnable list when
 * its last chunk is claimed, so no engine touches it after its final
 * done increment. */
static ordo_engine_job_t *claim(ordo_engine_pool_t *pool, uint32_t *chunk_p)
{
    ordo_engine_job_t *job = pool->runnable_head;
    if (job == NULL)
        return NULL;
    *chunk_p = job->next++;
    if (job->next == job->nchunks) {
        /* stored atomically: ordo_engine_help peeks at it without the lock */
        __atomic_store_n(&pool->runnable_head, job->runnable_next, __ATOMIC_RELAXED);
        if (pool->runnable_head == NULL)
            pool->runnable_tail = NULL;
    }
    return job;
}

static void *engine_main(void *arg)
{
    ordo_engine_pool_t *pool = arg;
    pthread_mutex_lock(&pool->lock);
    for (;;) {
        while (!pool->stop && pool->runnable_head == NULL)
            pthread_cond_wait(&pool->wake, &pool->lock);
        if (pool->stop)
            break;
        uint32_t i;
        ordo_engine_job_t *job = claim(pool, &i);
        pthread_mutex_unlock(&pool->lock);
        ordo_quiesce_work_begin();
        copy_chunk(job, i);
        ordo_quiesce_work_end();
        pthread_mutex_lock(&pool->lock);
    }
    pthread_mutex_unlock(&pool->lock);
    return NULL;
}

int ordo_engine_pool_init(ordo_engine_pool_t *pool, int nthreads, int any_core)
{
    memset(pool, 0, sizeof(*pool));
    pool->nthreads = nthreads;
    pool->any_core = any_core;
    if (pthread_mutex_init(&pool->lock, NULL))
        return ENOMEM;
    if (pthread_cond_init(&pool->wake, NULL)) {
        pthread_mutex_destroy(&pool->lock);
        return ENOMEM;
    }
    return 0;
}

/* Threads start with the first large transfer: programs that never make one
 * never pay for them. */
static int start_threads(ordo_engine_pool_t *pool)
{
    pool->started = 1;
    if (pool->nthreads == 0)
        return 0;
    pool->threads = calloc((size_t)pool->nthreads, sizeof(pthread_t));
    if (pool->threads == NULL) {
        pool->nthreads = 0;
        return ENOMEM;
    }
    /* Engines stand for offload hardware: by default they may run on any
     * core, not only the one the rank is bound to. */
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    if (pool->any_core) {
        cpu_set_t all;
        CPU_ZERO(&all);
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        for (long c = 0; c < n && c < CPU_SETSIZE; c++)
            CPU_SET((int)c, &all);
        pthread_attr_setaffinity_np(&attr, sizeof(all), &all);
    }
    for (int i = 0; i < pool->nthreads; i++) {
        int rc = pthread_create(&pool->threads[i], &attr, engine_main, pool);
        if (rc) {
            ordo_warn("could not start offload engine %d (%s): the initiator copies instead",
                      i, strerror(rc));
            pool->nthreads = i;
            pthread_attr_destroy(&attr);
            return rc;
        }
        pool->running = i + 1;
    }
    pthread_attr_destroy(&attr);
    return 0;
}

void ordo_engine_pool_fini(ordo_engine_pool_t *pool)
{
    pthread_mutex_lock(&pool->lock);
    pool->stop = 1;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
    for (int i = 0; i < pool->running; i++)
        pthread_join(pool->threads[i], NULL);
    free(pool->threads);
    pthread_cond_destroy(&pool->wake);
    pthread_mutex_destroy(&pool->lock);
}

int ordo_engine_submit(ordo_engine_pool_t *pool, ordo_engine_job_t *job, size_t chunk)
{
    job->chunk = chunk;
    job->nchunks = (uint32_t)((job->len + chunk - 1) / chunk);
    if (job->nchunks == 0)
        job->nchunks = 1;
    job->next = 0;
    atomic_store_explicit(&job->done, 0, memory_order_relaxed);
    atomic_store_explicit(&job->error, 0, memory_order_relaxed);
    job->runnable_next = NULL;
    int rc = 0;
    pthread_mutex_lock(&pool->lock);
    if (!pool->started)
        rc = start_threads(pool);
    if (pool->runnable_tail)
        pool->runnable_tail->runnable_next = job;
    else
        __atomic_store_n(&pool->runnable_head, job, __ATOMIC_RELAXED);
    pool->runnable_tail = job;
    if (pool->nthreads)
        pthread_cond_signal(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
    return rc;
}

int ordo_engine_help(ordo_engine_pool_t *pool)
{
    if (__atomic_load_n(&pool->runnable_head, __ATOMIC_RELAXED) == NULL)   /* cheap peek; a miss is retried */
        return 0;
    pthread_mutex_lock(&pool->lock);
    uint32_t i;
    ordo_engine_job_t *job = claim(pool, &i);
    pthread_mutex_unlock(&pool->lock);
    if (job == NULL)
        return 0;
    copy_chunk(job, i);
    return 1;
}
