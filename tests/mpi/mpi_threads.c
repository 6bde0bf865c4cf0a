/* MPI at MPI_THREAD_MULTIPLE: threads of every rank send and receive at
 * once, each on its own tags, through every path that takes a request from
 * the shared free list and gives it back (immediate sends and receives,
 * the sends done at once that share one completed request, waits one by
 * one and all together, blocking receives, persistent requests), and the
 * data arrives intact; a generalized request completed by one thread
 * while another waits for it.  Run under ThreadSanitizer too (label
 * threads). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "mpi_harness.h"

enum { THREADS = 4, ROUNDS = 300, WINDOW = 8 };

typedef struct {
    int id, bad;
} worker_t;

static void *worker(void *arg)
{
    worker_t *w = arg;
    int right = (me + 1) % np, left = (me + np - 1) % np;
    int tag = 100 + w->id;   /* a thread's messages never match another's */
    uint64_t out[WINDOW], in[WINDOW];
    MPI_Request reqs[2 * WINDOW];
    for (int r = 0; r < ROUNDS; r++) {
        for (int k = 0; k < WINDOW; k++) {
            out[k] = (uint64_t)me << 40 | (uint64_t)w->id << 32 | (uint64_t)(r * WINDOW + k);
            in[k] = 0;
            if (MPI_Irecv(&in[k], 1, MPI_UINT64_T, left, tag, MPI_COMM_WORLD, &reqs[k]) ||
                MPI_Isend(&out[k], 1, MPI_UINT64_T, right, tag, MPI_COMM_WORLD,
                          &reqs[WINDOW + k]))
                w->bad++;
        }
        if (r % 2) {
            if (MPI_Waitall(2 * WINDOW, reqs, MPI_STATUSES_IGNORE))
                w->bad++;
        } else {
            for (int k = 0; k < 2 * WINDOW; k++) {
                MPI_Status st;
                if (MPI_Wait(&reqs[k], &st) || (k < WINDOW && st.MPI_SOURCE != left))
                    w->bad++;
            }
        }
        for (int k = 0; k < WINDOW; k++)
            if (in[k] != ((uint64_t)left << 40 | (uint64_t)w->id << 32 |
                          (uint64_t)(r * WINDOW + k)))
                w->bad++;
        /* a blocking exchange as well */
        uint64_t one = (uint64_t)r, got = ~(uint64_t)0;
        if (MPI_Sendrecv(&one, 1, MPI_UINT64_T, right, tag + 50, &got, 1, MPI_UINT64_T, left,
                         tag + 50, MPI_COMM_WORLD, MPI_STATUS_IGNORE) ||
            got != (uint64_t)r)
            w->bad++;
    }
    /* persistent requests, started and completed many times */
    uint64_t pout = 7, pin = 0;
    MPI_Request p[2];
    if (MPI_Recv_init(&pin, 1, MPI_UINT64_T, left, tag + 200, MPI_COMM_WORLD, &p[0]) ||
        MPI_Send_init(&pout, 1, MPI_UINT64_T, right, tag + 200, MPI_COMM_WORLD, &p[1]))
        w->bad++;
    for (int r = 0; r < ROUNDS / 10; r++) {
        pout = (uint64_t)r;
        if (MPI_Startall(2, p) || MPI_Waitall(2, p, MPI_STATUSES_IGNORE) || pin != (uint64_t)r)
            w->bad++;
    }
    MPI_Request_free(&p[0]);
    MPI_Request_free(&p[1]);
    return NULL;
}

static _Atomic int greq_queries, greq_frees;
static int greq_payload;   /* written before Grequest_complete, read after the wait */

static int gq(void *extra, MPI_Status *st)
{
    (void)extra;
    greq_queries++;
    st->MPI_TAG = greq_payload;
    return MPI_SUCCESS;
}

static int gf(void *extra)
{
    (void)extra;
    greq_frees++;
    return MPI_SUCCESS;
}

static int gc(void *extra, int complete)
{
    (void)extra, (void)complete;
    return MPI_SUCCESS;
}

static void *completer(void *arg)
{
    greq_payload = 42;
    MPI_Grequest_complete(*(MPI_Request *)arg);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided = mpi_test_init_thread(&argc, &argv, MPI_THREAD_MULTIPLE);
    CHECK(provided == MPI_THREAD_MULTIPLE);
    if (provided == MPI_THREAD_MULTIPLE) {
        pthread_t t[THREADS];
        worker_t w[THREADS];
        for (int i = 0; i < THREADS; i++) {
            w[i] = (worker_t){.id = i, .bad = 0};
            CHECK(pthread_create(&t[i], NULL, worker, &w[i]) == 0);
        }
        for (int i = 0; i < THREADS; i++) {
            pthread_join(t[i], NULL);
            if (w[i].bad)
                fprintf(stderr, "[rank %d] thread %d: %d failure(s)\n", me, i, w[i].bad);
            failures += w[i].bad;
        }
    }
    if (provided == MPI_THREAD_MULTIPLE) {
        MPI_Request g, copy;
        OK(MPI_Grequest_start(gq, gf, gc, NULL, &g));
        copy = g;
        pthread_t t;
        CHECK(pthread_create(&t, NULL, completer, &copy) == 0);
        MPI_Status st;
        OK(MPI_Wait(&g, &st));
        pthread_join(t, NULL);
        CHECK(st.MPI_TAG == 42 && greq_queries == 1 && greq_frees == 1);
    }
    return mpi_test_report("mpi_threads");
}
