/* Thread levels (ordo.h, ordo_thread_level_t).
 *
 *   test_threads multiple [iters]   threads hammer two-sided, one-sided and
 *                                   collectives at once, each on its own
 *                                   stream and context; one thread waits
 *                                   for a message another thread sends;
 *                                   two threads share a stream; one is in
 *                                   ordo_barrier while another exchanges
 *                                   messages; the initial thread waits in a
 *                                   receive for a message a new thread
 *                                   sends
 *   test_threads shared [iters]     threads share one context, each on its
 *                                   own tags, windows of messages checked
 *                                   (run under mpirun and mpiexec too)
 *   test_threads single|funneled    another thread is refused, changing
 *                                   nothing; the initial thread goes on
 *   test_threads serialized         another thread may call, one at a time
 *   test_threads env LEVEL          ordo_init(NULL) runs at ORDO_THREAD_LEVEL
 *   test_threads streams [iters]    MULTIPLE's one-sided fast path: threads on
 *                                   their own streams put, get, add and
 *                                   put_signal over more regions than the
 *                                   attach cache holds (run with a small
 *                                   ORDO_ATTACH_CACHE_MAX: mappings come and
 *                                   go under them), every value checked; the
 *                                   operations that could go fast did so
 *                                   under the stream's lock alone
 *                                   (ops_stream_locked), and at SINGLE none
 *
 * Any rank count; at more ranks than cores it is oversubscribed but
 * correct. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../harness.h"

#define NTHREADS 4

static int iters = 200;

typedef struct worker {
    int           t;
    ordo_comm_h   comm;
    ordo_region_h region;
} worker_t;

/* Each rank's region: a counter every thread of every rank adds to, then
 * one word per (rank, thread) that the partner rank's thread writes. */
static size_t slot_offset(int rank, int t)
{
    return 8 + ((size_t)rank * NTHREADS + (size_t)t) * 8;
}

static uint64_t stamp(int rank, int t, int i)
{
    return ((uint64_t)(rank + 1) << 48) | ((uint64_t)t << 32) | (uint64_t)i;
}

static int partner(void)
{
    int me = ordo_rank(), p = me ^ 1;
    return p < ordo_size() ? p : me;
}

static void *hammer(void *arg)
{
    worker_t *w = arg;
    int me = ordo_rank(), n = ordo_size(), peer = partner();
    ordo_stream_h s;
    ordo_stream_params_t sp = {.field_mask = ORDO_STREAM_FIELD_ORDER,
                               .order = (ordo_order_t)(w->t % 3)};
    CHECK_OK(ordo_stream_create(&sp, &s));
    for (int i = 0; i < iters; i++) {
        /* two-sided with the same thread of the partner rank */
        uint64_t out[4] = {(uint64_t)me, (uint64_t)w->t, (uint64_t)i, 0xfeed}, in[4] = {0};
        ordo_request_h rq = NULL;
        ordo_status_t st = ordo_send_nb(w->comm, out, sizeof(out), peer, i & 0x7fff, &rq);
        CHECK(st == ORDO_OK || st == ORDO_INPROGRESS);
        CHECK_OK(ordo_recv(w->comm, in, sizeof(in), peer, i & 0x7fff, NULL));
        CHECK(in[0] == (uint64_t)peer && in[1] == (uint64_t)w->t && in[2] == (uint64_t)i &&
              in[3] == 0xfeed);
        if (st == ORDO_INPROGRESS)
            CHECK_OK(ordo_request_wait(&rq, NULL));

        /* one-sided: this thread's word at the partner, and the shared counter */
        uint64_t v = stamp(me, w->t, i), one = 1, old = 0;
        CHECK_OK(ordo_put(s, &v, sizeof(v), w->region, peer, slot_offset(me, w->t), 0));
        CHECK_OK(ordo_atomic(s, ORDO_ATOMIC_ADD, ORDO_UINT64, &one, NULL, &old, w->region,
                             0, 0, 0));
        CHECK(old < (uint64_t)n * NTHREADS * (uint64_t)iters);
        CHECK_OK(ordo_flush(s, peer));

        /* collective on this thread's own context */
        if (i % 8 == 0) {
            int64_t x = w->t + i, sum = 0;
            CHECK_OK(ordo_coll_allreduce(w->comm, &x, &sum, 1, ORDO_DT_INT64,
                                         ORDO_REDUCE_SUM));
            CHECK(sum == (int64_t)n * x);
        }
    }
    CHECK_OK(ordo_quiet(s));
    CHECK_OK(ordo_stream_destroy(s));
    return NULL;
}

/* A thread blocked in a receive must let in the thread that sends it. */
typedef struct {
    ordo_comm_h comm;
    uint64_t    got;
} waiter_t;

static void *wait_for_self(void *arg)
{
    waiter_t *w = arg;
    CHECK_OK(ordo_recv(w->comm, &w->got, sizeof(w->got), ordo_rank(), 77, NULL));
    return NULL;
}

/* Two threads share one stream (its order is then their calls' order):
 * each puts its own words, both quiet it, and every word lands. */
typedef struct {
    ordo_stream_h s;
    ordo_region_h region;
    int           t;
} sharer_t;

enum { SHARED_WORDS = 256 };

static void *share_stream(void *arg)
{
    sharer_t *a = arg;
    int peer = partner();
    for (int i = 0; i < SHARED_WORDS; i++) {
        uint64_t v = stamp(ordo_rank(), a->t, i);
        size_t off = slot_offset(ordo_size(), 0) + ((size_t)a->t * SHARED_WORDS + (size_t)i) * 8;
        CHECK_OK(ordo_put(a->s, &v, sizeof(v), a->region, peer, off, 0));
    }
    CHECK_OK(ordo_quiet(a->s));
    return NULL;
}

/* One thread in ordo_barrier (the launcher's, a world collective) while
 * another keeps exchanging messages on its own context. */
typedef struct {
    ordo_comm_h comm;
    int         rounds;
} chatter_t;

static void *chat(void *arg)
{
    chatter_t *c = arg;
    int peer = partner();
    for (int i = 0; i < c->rounds; i++) {
        int out = i, in = -1;
        ordo_request_h rq = NULL;
        ordo_status_t st = ordo_send_nb(c->comm, &out, sizeof(out), peer, 9, &rq);
        CHECK(st == ORDO_OK || st == ORDO_INPROGRESS);
        CHECK_OK(ordo_recv(c->comm, &in, sizeof(in), peer, 9, NULL));
        CHECK(in == i);
        if (st == ORDO_INPROGRESS)
            CHECK_OK(ordo_request_wait(&rq, NULL));
    }
    return NULL;
}

static void run_shared_and_mixed(ordo_region_h region, void *base, ordo_comm_h comm)
{
    ordo_stream_h s;
    CHECK_OK(ordo_stream_create(NULL, &s));
    sharer_t sh[2] = {{.s = s, .region = region, .t = 0}, {.s = s, .region = region, .t = 1}};
    pthread_t th[2];
    for (int t = 0; t < 2; t++)
        CHECK(pthread_create(&th[t], NULL, share_stream, &sh[t]) == 0);
    for (int t = 0; t < 2; t++)
        CHECK(pthread_join(th[t], NULL) == 0);
    CHECK_OK(ordo_coll_barrier(ORDO_COMM_WORLD));
    const uint64_t *words = (const uint64_t *)((const char *)base + slot_offset(ordo_size(), 0));
    int peer = partner();
    for (int t = 0; t < 2; t++)
        for (int i = 0; i < SHARED_WORDS; i++)
            CHECK(words[t * SHARED_WORDS + i] == stamp(peer, t, i));
    CHECK_OK(ordo_stream_destroy(s));

    chatter_t ch = {.comm = comm, .rounds = 2000};
    pthread_t chatter;
    CHECK(pthread_create(&chatter, NULL, chat, &ch) == 0);
    for (int i = 0; i < 20; i++)
        CHECK_OK(ordo_barrier());
    CHECK(pthread_join(chatter, NULL) == 0);
}

/* The first thread to call ordo owns the process-wide lock's bias; here it
 * waits in a receive for a message only a second thread sends, so the
 * second must take the lock from it while it waits (a revocation). */
typedef struct {
    ordo_comm_h comm;
} late_sender_t;

static void *send_late(void *arg)
{
    late_sender_t *l = arg;
    struct timespec pause = {0, 20 * 1000 * 1000};
    nanosleep(&pause, NULL);   /* the initial thread is inside ordo_recv by now */
    uint64_t v = 0x1a7e;
    CHECK_OK(ordo_send(l->comm, &v, sizeof(v), ordo_rank(), 91));
    return NULL;
}

static void run_owner_waits(ordo_comm_h comm)
{
    late_sender_t l = {.comm = comm};
    pthread_t th;
    CHECK(pthread_create(&th, NULL, send_late, &l) == 0);
    uint64_t got = 0;
    CHECK_OK(ordo_recv(comm, &got, sizeof(got), ordo_rank(), 91, NULL));
    CHECK(got == 0x1a7e);
    CHECK(pthread_join(th, NULL) == 0);
}

static void run_multiple(void)
{
    ordo_init_params_t p = {.field_mask = ORDO_INIT_FIELD_THREAD_LEVEL,
                            .thread_level = ORDO_THREAD_MULTIPLE};
    REQUIRE_OK(ordo_init(&p));
    ordo_thread_level_t got;
    CHECK_OK(ordo_query_thread(&got));
    CHECK(got == ORDO_THREAD_MULTIPLE);

    int n = ordo_size(), me = ordo_rank();
    ordo_region_h region;
    void *base;
    size_t bytes = slot_offset(n, 0) + 2 * SHARED_WORDS * 8;
    REQUIRE_OK(ordo_region_alloc(bytes, 0, &region, &base));
    memset(base, 0, bytes);
    worker_t w[NTHREADS];
    pthread_t th[NTHREADS];
    for (int t = 0; t < NTHREADS; t++) {
        w[t] = (worker_t){.t = t, .region = region};
        REQUIRE_OK(ordo_comm_create(NULL, &w[t].comm));
    }
    waiter_t wt = {0};
    REQUIRE_OK(ordo_comm_create(NULL, &wt.comm));
    CHECK_OK(ordo_coll_barrier(ORDO_COMM_WORLD));
    run_owner_waits(wt.comm);   /* before any other thread has called ordo */

    pthread_t waiter;
    CHECK(pthread_create(&waiter, NULL, wait_for_self, &wt) == 0);
    for (int t = 0; t < NTHREADS; t++)
        CHECK(pthread_create(&th[t], NULL, hammer, &w[t]) == 0);
    struct timespec pause = {0, 20 * 1000 * 1000};
    nanosleep(&pause, NULL);   /* the waiter is inside ordo_recv by now */
    uint64_t token = 0x5eed0000u + (uint64_t)me;
    CHECK_OK(ordo_send(wt.comm, &token, sizeof(token), me, 77));
    CHECK(pthread_join(waiter, NULL) == 0);
    CHECK(wt.got == token);
    for (int t = 0; t < NTHREADS; t++)
        CHECK(pthread_join(th[t], NULL) == 0);

    CHECK_OK(ordo_quiet(ORDO_STREAM_DEFAULT));
    CHECK_OK(ordo_coll_barrier(ORDO_COMM_WORLD));
    const uint64_t *words = base;
    int peer = partner();
    for (int t = 0; t < NTHREADS; t++)
        CHECK(words[slot_offset(peer, t) / 8] == stamp(peer, t, iters - 1));
    if (me == 0)
        CHECK(words[0] == (uint64_t)n * NTHREADS * (uint64_t)iters);
    CHECK_OK(ordo_coll_barrier(ORDO_COMM_WORLD));
    run_shared_and_mixed(region, base, w[0].comm);
    CHECK_OK(ordo_coll_barrier(ORDO_COMM_WORLD));
    for (int t = 0; t < NTHREADS; t++)
        CHECK_OK(ordo_comm_destroy(w[t].comm));
    CHECK_OK(ordo_comm_destroy(wt.comm));
    CHECK_OK(ordo_region_free(region));
}

/* What a second thread sees at SINGLE, FUNNELED or SERIALIZED. */
typedef struct {
    ordo_region_h region;
    ordo_status_t put, barrier, query;
    int           rank;
} outsider_t;

static void *outsider(void *arg)
{
    outsider_t *o = arg;
    uint64_t v = 42;
    o->put = ordo_put(ORDO_STREAM_DEFAULT, &v, sizeof(v), o->region, ordo_rank(), 0, 0);
    if (o->put == ORDO_OK)
        o->put = ordo_quiet(ORDO_STREAM_DEFAULT);
    ordo_thread_level_t l;
    o->query = ordo_query_thread(&l);
    o->rank = ordo_rank();   /* plain queries are not calls into the runtime */
    return NULL;
}

static void run_level(ordo_thread_level_t level)
{
    ordo_init_params_t p = {.field_mask = ORDO_INIT_FIELD_THREAD_LEVEL, .thread_level = level};
    REQUIRE_OK(ordo_init(&p));
    ordo_thread_level_t got;
    CHECK_OK(ordo_query_thread(&got));
    CHECK(got == level);
    ordo_region_h region;
    void *base;
    REQUIRE_OK(ordo_region_alloc(64, 0, &region, &base));
    memset(base, 0, 64);
    outsider_t o = {.region = region};
    pthread_t th;
    CHECK(pthread_create(&th, NULL, outsider, &o) == 0);
    CHECK(pthread_join(th, NULL) == 0);   /* one at a time: SERIALIZED's promise */
    CHECK(o.rank == ordo_rank());
    if (level == ORDO_THREAD_SERIALIZED) {
        CHECK_OK(o.put);
        CHECK_OK(o.query);
        CHECK(*(volatile uint64_t *)base == 42);
    } else {
        CHECK_STATUS(o.put, ORDO_ERR_THREAD);
        CHECK_STATUS(o.query, ORDO_ERR_THREAD);
        CHECK(*(volatile uint64_t *)base == 0);   /* refused: nothing changed */
    }
    /* the initial thread goes on as before */
    uint64_t v = 7;
    CHECK_OK(ordo_put(ORDO_STREAM_DEFAULT, &v, sizeof(v), region, ordo_rank(), 8, 0));
    CHECK_OK(ordo_quiet(ORDO_STREAM_DEFAULT));
    CHECK(((volatile uint64_t *)base)[1] == 7);
    CHECK_OK(ordo_coll_barrier(ORDO_COMM_WORLD));
    CHECK_OK(ordo_region_free(region));
}

/* ------------------------------------------------ MULTIPLE's fast path */

enum { FAST_THREADS = 2, FAST_REGIONS = 5 };

/* Region layout: word 0 a counter every thread adds to; then per (rank,
 * thread) a data word and a signal word the partner's same thread writes. */
static size_t fast_data(int rank, int t) { return 8 + ((size_t)rank * FAST_THREADS + (size_t)t) * 16; }
static size_t fast_sig(int rank, int t) { return fast_data(rank, t) + 8; }

typedef struct {
    int           t;
    ordo_region_h regions[FAST_REGIONS];
    void         *bases[FAST_REGIONS];
    uint64_t      local_ops;   /* to this rank: always mapped, so always fast */
} fast_worker_t;

static void *fast_hammer(void *arg)
{
    fast_worker_t *w = arg;
    int me = ordo_rank(), peer = partner();
    ordo_stream_h s;
    ordo_stream_params_t sp = {.field_mask = ORDO_STREAM_FIELD_ORDER,
                               .order = (ordo_order_t)(w->t % 3)};
    CHECK_OK(ordo_stream_create(&sp, &s));
    for (int i = 0; i < iters; i++) {
        int r = (i + w->t) % FAST_REGIONS;
        ordo_region_h reg = w->regions[r];
        uint64_t v = stamp(me, w->t, i), back = 0, one = 1, old = 0;
        /* the partner's word for this thread, read back */
        CHECK_OK(ordo_put(s, &v, sizeof(v), reg, peer, fast_data(me, w->t), 0));
        CHECK_OK(ordo_get(s, &back, sizeof(back), reg, peer, fast_data(me, w->t),
                          ORDO_OP_FENCED));   /* a get after a put: ordered in no mode */
        if (peer == me || ordo_size() == 1)
            w->local_ops += 2;
        CHECK_OK(ordo_flush(s, peer));
        CHECK(back == v);
        /* a shared counter at this rank: local, mapped, fast */
        CHECK_OK(ordo_atomic(s, ORDO_ATOMIC_ADD, ORDO_UINT64, &one, NULL, &old, reg, me, 0, 0));
        w->local_ops++;
        /* data then signal at the partner: the signal never before the data */
        CHECK_OK(ordo_put_signal(s, &v, sizeof(v), reg, peer, fast_data(me, w->t),
                                 fast_sig(me, w->t), (uint64_t)i + 1, ORDO_SIGNAL_SET, 0));
        if (peer == me)
            w->local_ops++;
        /* and what the partner's thread signalled here */
        const volatile uint64_t *mine = w->bases[r];
        uint64_t sig = __atomic_load_n((const uint64_t *)&mine[fast_sig(peer, w->t) / 8],
                                       __ATOMIC_ACQUIRE);
        uint64_t data = mine[fast_data(peer, w->t) / 8];
        if (sig != 0)
            CHECK(data >> 48 == (uint64_t)peer + 1 && (data & 0xffffffffu) + 1 >= sig);
    }
    CHECK_OK(ordo_quiet(s));
    CHECK_OK(ordo_stream_destroy(s));
    return NULL;
}

/* Threads sharing one fresh stream: the first to use it takes its lock's
 * bias, the other revokes it while the first may be inside.  The stream's
 * counters are plain additions under its lock: a lost one would show two
 * threads inside at once. */
enum { SHARE_ROUNDS = 20, SHARE_OPS = 5000 };

typedef struct {
    ordo_stream_h     *stream;   /* the round's, set by the main thread */
    ordo_region_h      region;
    pthread_barrier_t *round;
    unsigned           ready;    /* both spin until both are there */
} share_arg_t;

static void *share_rounds(void *arg)
{
    share_arg_t *a = arg;
    for (int r = 0; r < SHARE_ROUNDS; r++) {
        pthread_barrier_wait(a->round);   /* the stream is new */
        /* a barrier's wake-up takes longer than a round: start together */
        unsigned target = 2u * ((unsigned)r + 1);
        __atomic_add_fetch(&a->ready, 1, __ATOMIC_SEQ_CST);
        while (__atomic_load_n(&a->ready, __ATOMIC_ACQUIRE) < target)
            ;
        uint64_t one = 1;
        for (int i = 0; i < SHARE_OPS; i++) {
            CHECK_OK(ordo_atomic(*a->stream, ORDO_ATOMIC_ADD, ORDO_UINT64, &one, NULL, NULL,
                                 a->region, ordo_rank(), 0, 0));
            if (i % 50 == 0)
                CHECK_OK(ordo_quiet(*a->stream));
        }
        pthread_barrier_wait(a->round);   /* both done with it */
        pthread_barrier_wait(a->round);   /* the main thread destroyed it */
    }
    return NULL;
}

static void run_shared_rounds(ordo_region_h region, const void *base)
{
    ordo_stream_h stream = NULL;
    pthread_barrier_t round;
    pthread_barrier_init(&round, NULL, 3);
    share_arg_t a = {.stream = &stream, .region = region, .round = &round};
    pthread_t th[2];
    uint64_t start = __atomic_load_n((const uint64_t *)base, __ATOMIC_ACQUIRE);
    for (int t = 0; t < 2; t++)
        CHECK(pthread_create(&th[t], NULL, share_rounds, &a) == 0);
    for (int r = 0; r < SHARE_ROUNDS; r++) {
        CHECK_OK(ordo_stream_create(NULL, &stream));
        pthread_barrier_wait(&round);
        pthread_barrier_wait(&round);
        CHECK_OK(ordo_stream_destroy(stream));
        pthread_barrier_wait(&round);
    }
    for (int t = 0; t < 2; t++)
        CHECK(pthread_join(th[t], NULL) == 0);
    pthread_barrier_destroy(&round);
    uint64_t end = __atomic_load_n((const uint64_t *)base, __ATOMIC_ACQUIRE);
    CHECK(end - start == 2ull * SHARE_ROUNDS * SHARE_OPS);
}

static void run_streams(ordo_thread_level_t level)
{
    ordo_init_params_t p = {.field_mask = ORDO_INIT_FIELD_THREAD_LEVEL, .thread_level = level};
    REQUIRE_OK(ordo_init(&p));
    int n = ordo_size(), me = ordo_rank();
    size_t bytes = fast_data(n, 0);
    fast_worker_t w[FAST_THREADS];
    for (int r = 0; r < FAST_REGIONS; r++) {
        ordo_region_h reg;
        void *base;
        REQUIRE_OK(ordo_region_alloc(bytes, 0, &reg, &base));
        memset(base, 0, bytes);
        for (int t = 0; t < FAST_THREADS; t++) {
            w[t].regions[r] = reg;
            w[t].bases[r] = base;
        }
    }
    ordo_stats_t before, after;
    CHECK_OK(ordo_coll_barrier(ORDO_COMM_WORLD));
    if (level == ORDO_THREAD_MULTIPLE) {
        ordo_stats_t s0, s1;
        CHECK_OK(ordo_stats_get(&s0));
        run_shared_rounds(w[0].regions[0], w[0].bases[0]);
        CHECK_OK(ordo_stats_get(&s1));
        /* every add counted once: no two threads were inside the lock */
        CHECK(s1.atomics - s0.atomics == 2ull * SHARE_ROUNDS * SHARE_OPS);
        ((uint64_t *)w[0].bases[0])[0] = 0;
    }
    CHECK_OK(ordo_coll_barrier(ORDO_COMM_WORLD));
    CHECK_OK(ordo_stats_get(&before));
    pthread_t th[FAST_THREADS];
    int threads = level == ORDO_THREAD_MULTIPLE ? FAST_THREADS : 1;
    for (int t = 0; t < FAST_THREADS; t++) {
        w[t].t = t;
        w[t].local_ops = 0;
    }
    if (threads == 1) {
        fast_hammer(&w[0]);   /* the initial thread, as the lower levels ask */
    } else {
        for (int t = 0; t < threads; t++)
            CHECK(pthread_create(&th[t], NULL, fast_hammer, &w[t]) == 0);
        for (int t = 0; t < threads; t++)
            CHECK(pthread_join(th[t], NULL) == 0);
    }
    CHECK_OK(ordo_stats_get(&after));
    CHECK_OK(ordo_coll_barrier(ORDO_COMM_WORLD));

    /* every thread's last word and signal landed at the partner */
    int peer = partner();
    uint64_t adds = 0;
    for (int r = 0; r < FAST_REGIONS; r++)
        adds += ((const uint64_t *)w[0].bases[r])[0];
    CHECK(adds == (uint64_t)threads * (uint64_t)iters);
    for (int t = 0; t < threads; t++) {
        int last = iters - 1, r = (last + t) % FAST_REGIONS;
        const uint64_t *words = w[0].bases[r];
        CHECK(words[fast_data(peer, t) / 8] == stamp(peer, t, last));
        CHECK(words[fast_sig(peer, t) / 8] == (uint64_t)last + 1);
    }
    uint64_t fast = after.ops_stream_locked - before.ops_stream_locked, local = 0;
    for (int t = 0; t < threads; t++)
        local += w[t].local_ops;
    if (level == ORDO_THREAD_MULTIPLE) {
        /* every operation to this rank's own memory went fast; to a mapped
         * peer most did (the first after an eviction goes the usual way) */
        CHECK(fast >= local);
        if (peer != me && after.attach_evictions == before.attach_evictions &&
            after.attach_misses > 0)
            CHECK(fast > local);
    } else {
        CHECK(fast == 0);   /* the lower levels never take stream locks */
    }
    if (me == 0)
        printf("test_threads streams: %d thread(s), %llu calls under the stream lock alone "
               "(fences, quiets, flushes included) for %llu puts, gets and atomics, %llu "
               "mapping evictions\n",
               threads, (unsigned long long)fast,
               (unsigned long long)(after.puts + after.gets + after.atomics -
                                    before.puts - before.gets - before.atomics),
               (unsigned long long)(after.attach_evictions - before.attach_evictions));
    for (int r = 0; r < FAST_REGIONS; r++)
        CHECK_OK(ordo_region_free(w[0].regions[r]));
}

static int level_named(const char *s, ordo_thread_level_t *l)
{
    static const char *const names[] = {"single", "funneled", "serialized", "multiple"};
    for (int i = 0; i < 4; i++)
        if (strcmp(s, names[i]) == 0) {
            *l = (ordo_thread_level_t)i;
            return 1;
        }
    return 0;
}

/* Threads sharing one context, each on its own tags: every first message to
 * a peer may find its mailbox unmapped, and under mpirun or mpiexec the
 * peer's descriptor takes a while to come; no other thread may send in
 * the middle of that send (they took its sequence number, and the ordered
 * receiver waited for ever). */
enum { SHARED_THREADS = 4, SHARED_WINDOW = 8 };

static void *shared_worker(void *arg)
{
    int id = (int)(intptr_t)arg, me = ordo_rank(), np = ordo_size();
    int right = (me + 1) % np, left = (me + np - 1) % np, tag = 100 + id;
    uint64_t out[SHARED_WINDOW], in[SHARED_WINDOW];
    ordo_request_h q[2 * SHARED_WINDOW];
    for (int r = 0; r < iters; r++) {
        for (int k = 0; k < SHARED_WINDOW; k++) {
            out[k] = (uint64_t)me << 40 | (uint64_t)id << 32 | (uint64_t)(r * SHARED_WINDOW + k);
            in[k] = 0;
            CHECK(ordo_recv_nb(NULL, &in[k], 8, left, tag, &q[k]) >= 0);
            CHECK(ordo_send_nb(NULL, &out[k], 8, right, tag, &q[SHARED_WINDOW + k]) >= 0);
        }
        if (r % 2) {
            CHECK_OK(ordo_request_waitall(2 * SHARED_WINDOW, q, NULL));
        } else {
            for (int k = 0; k < 2 * SHARED_WINDOW; k++)
                CHECK_OK(ordo_request_wait(&q[k], NULL));
        }
        for (int k = 0; k < SHARED_WINDOW; k++)
            CHECK(in[k] == ((uint64_t)left << 40 | (uint64_t)id << 32 |
                            (uint64_t)(r * SHARED_WINDOW + k)));
    }
    return NULL;
}

static void run_shared(void)
{
    ordo_init_params_t p = {.field_mask = ORDO_INIT_FIELD_THREAD_LEVEL,
                            .thread_level = ORDO_THREAD_MULTIPLE};
    REQUIRE_OK(ordo_init(&p));
    pthread_t t[SHARED_THREADS];
    int started = 0;
    for (int i = 0; i < SHARED_THREADS; i++) {
        int rc = pthread_create(&t[i], NULL, shared_worker, (void *)(intptr_t)i);
        CHECK(rc == 0);
        started += rc == 0;
    }
    for (int i = 0; i < started; i++)
        pthread_join(t[i], NULL);
    CHECK_OK(ordo_barrier());
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "multiple";
    ordo_thread_level_t level;
    if (strcmp(mode, "multiple") == 0) {
        if (argc > 2)
            iters = atoi(argv[2]);
        run_multiple();
    } else if (strcmp(mode, "shared") == 0) {
        if (argc > 2)
            iters = atoi(argv[2]);
        run_shared();
    } else if (strcmp(mode, "streams") == 0) {
        if (argc > 2)
            iters = atoi(argv[2]);
        level = ORDO_THREAD_MULTIPLE;
        if (argc > 3 && !level_named(argv[3], &level))
            return 2;
        run_streams(level);
    } else if (strcmp(mode, "env") == 0 && argc > 2 && level_named(argv[2], &level)) {
        REQUIRE_OK(ordo_init(NULL));
        ordo_thread_level_t got;
        CHECK_OK(ordo_query_thread(&got));
        CHECK(got == level);
    } else if (level_named(mode, &level)) {
        run_level(level);
    } else {
        fprintf(stderr, "usage: test_threads multiple [iters] | shared [iters] | streams [iters "
                        "[LEVEL]] | single | funneled | serialized | env LEVEL\n");
        return 2;
    }
    CHECK_OK(ordo_finalize());
    if (strcmp(mode, "env") == 0) {
        ordo_init_params_t bad = {.field_mask = ORDO_INIT_FIELD_THREAD_LEVEL,
                                  .thread_level = (ordo_thread_level_t)9};
        CHECK_STATUS(ordo_init(&bad), ORDO_ERR_INVALID_PARAM);
    }
    return test_result("test_threads");
}
