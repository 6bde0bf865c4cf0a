/* thread_rate: what a thread level costs, and what threads on their own
 * streams gain (ordo only: the MPI libraries have no streams).
 *
 *   ordorun -n 2 thread_rate [--level single|multiple] [--threads T]
 *                            [--window W] [--iters N] [--trials N]
 *
 * Rank 0 measures, rank 1 is the target; 8-byte operations:
 *   put-flush  one put then ordo_flush, one thread: the latency of a
 *              completed put (µs);
 *   pingpong   8-byte send/recv ping-pong, one thread: half a round trip (µs)
 *              (two-sided runs under the process-wide lock at MULTIPLE);
 *   put-rate   T threads, each with a stream of its own, issue windows of W
 *              puts to its own words at rank 1 and flush each window: puts
 *              per second, all threads together (Mmsg/s); rank 1 sleeps
 *              meanwhile, leaving the cores to them.
 * Run it once per level: the level's cost is the ratio of the two runs' one-
 * thread figures; the streams' gain is put-rate at T=2 against T=1, with
 * ordorun --bind none (bound, a rank's threads share its one core), and
 * only where rank 0's threads and rank 1 find idle cores: with fewer, it
 * measures the scheduler, not ordo. */
#define _POSIX_C_SOURCE 200809L
#include <ordo/ordo.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_common.h"

enum { MAX_THREADS = 64 };

static void check(ordo_status_t st, const char *what)
{
    if (st != ORDO_OK && st != ORDO_INPROGRESS) {
        fprintf(stderr, "thread_rate: %s: %s\n", what, ordo_status_string(st));
        ordo_abort(1);
    }
}

typedef struct {
    ordo_region_h region;
    ordo_stream_h stream;
    size_t        base;     /* this thread's words at rank 1 */
    int           window, iters;
    pthread_barrier_t *start;
    double        t0, t1;
} rate_arg_t;

static void *put_windows(void *arg)
{
    rate_arg_t *a = arg;
    uint64_t v = 1;
    pthread_barrier_wait(a->start);
    a->t0 = bench_now_us();
    for (int i = 0; i < a->iters; i++) {
        for (int j = 0; j < a->window; j++)
            check(ordo_put(a->stream, &v, sizeof(v), a->region, 1, a->base + (size_t)j * 8, 0),
                  "put");
        check(ordo_flush(a->stream, 1), "flush");
    }
    a->t1 = bench_now_us();
    return NULL;
}

static double put_rate(ordo_region_h region, int threads, int window, int iters)
{
    rate_arg_t a[MAX_THREADS];
    pthread_t th[MAX_THREADS];
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, (unsigned)threads);
    for (int t = 0; t < threads; t++) {
        a[t] = (rate_arg_t){.region = region, .base = (size_t)t * (size_t)window * 8,
                            .window = window, .iters = iters, .start = &start};
        check(ordo_stream_create(NULL, &a[t].stream), "stream create");
    }
    for (int t = 1; t < threads; t++)
        if (pthread_create(&th[t], NULL, put_windows, &a[t]) != 0) {
            fprintf(stderr, "thread_rate: cannot start a thread\n");
            ordo_abort(1);
        }
    put_windows(&a[0]);
    /* from the first start to the last end: threads that did not run at
     * once (one core for both) count as the sum of their times */
    double first = a[0].t0, last = a[0].t1;
    for (int t = 1; t < threads; t++) {
        pthread_join(th[t], NULL);
        first = a[t].t0 < first ? a[t].t0 : first;
        last = a[t].t1 > last ? a[t].t1 : last;
    }
    for (int t = 0; t < threads; t++)
        check(ordo_stream_destroy(a[t].stream), "stream destroy");
    pthread_barrier_destroy(&start);
    return (double)threads * iters * window / (last - first);   /* Mmsg/s */
}

static double put_flush(ordo_region_h region, int iters)
{
    uint64_t v = 2;
    double t0 = bench_now_us();
    for (int i = 0; i < iters; i++) {
        check(ordo_put(ORDO_STREAM_DEFAULT, &v, sizeof(v), region, 1, 0, 0), "put");
        check(ordo_flush(ORDO_STREAM_DEFAULT, 1), "flush");
    }
    return (bench_now_us() - t0) / iters;
}

static double pingpong(int iters)
{
    uint64_t v = 3;
    int me = ordo_rank(), peer = 1 - me;
    double t0 = bench_now_us();
    for (int i = 0; i < iters; i++) {
        if (me == 0) {
            check(ordo_send(ORDO_COMM_WORLD, &v, 8, peer, 1), "send");
            check(ordo_recv(ORDO_COMM_WORLD, &v, 8, peer, 1, NULL), "recv");
        } else {
            check(ordo_recv(ORDO_COMM_WORLD, &v, 8, peer, 1, NULL), "recv");
            check(ordo_send(ORDO_COMM_WORLD, &v, 8, peer, 1), "send");
        }
    }
    return (bench_now_us() - t0) / iters / 2;
}

static int usage(void)
{
    fprintf(stderr, "usage: thread_rate [--level single|multiple] [--threads T] [--window W] "
                    "[--iters N] [--trials N]\n");
    return 2;
}

int main(int argc, char **argv)
{
    const char *level = "multiple";
    int threads = 1, window = 64, iters = 20000, trials = 10;
    for (int i = 1; i < argc; i++) {
        if (i + 1 >= argc)
            return usage();
        const char *opt = argv[i], *val = argv[++i];
        if (strcmp(opt, "--level") == 0)
            level = val;
        else if (strcmp(opt, "--threads") == 0)
            threads = atoi(val);
        else if (strcmp(opt, "--window") == 0)
            window = atoi(val);
        else if (strcmp(opt, "--iters") == 0)
            iters = atoi(val);
        else if (strcmp(opt, "--trials") == 0)
            trials = atoi(val);
        else
            return usage();
    }
    int multiple = strcmp(level, "multiple") == 0;
    if ((!multiple && strcmp(level, "single") != 0) || threads < 1 || threads > MAX_THREADS ||
        window < 1 || iters < 1 || trials < 1 || (!multiple && threads > 1))
        return usage();

    ordo_init_params_t p = {.field_mask = ORDO_INIT_FIELD_THREAD_LEVEL,
                            .thread_level = multiple ? ORDO_THREAD_MULTIPLE
                                                     : ORDO_THREAD_SINGLE};
    check(ordo_init(&p), "init");
    if (ordo_size() != 2) {
        if (ordo_rank() == 0)
            fprintf(stderr, "thread_rate: needs exactly 2 ranks\n");
        ordo_finalize();
        return 2;
    }
    ordo_region_h region;
    void *base;
    size_t flag_offset = (size_t)MAX_THREADS * (size_t)window * 8;
    check(ordo_region_alloc(flag_offset + 8, 0, &region, &base), "region alloc");
    memset(base, 0, flag_offset + 8);
    check(ordo_coll_barrier(ORDO_COMM_WORLD), "barrier");
    double *lat = calloc((size_t)trials, sizeof(double));
    double *pp = calloc((size_t)trials, sizeof(double));
    double *rate = calloc((size_t)trials, sizeof(double));
    int lat_iters = iters * 5;
    for (int t = -1; t < trials; t++) {   /* trial -1: warm-up */
        check(ordo_coll_barrier(ORDO_COMM_WORLD), "barrier");
        double l = ordo_rank() == 0 ? put_flush(region, lat_iters) : 0;
        check(ordo_coll_barrier(ORDO_COMM_WORLD), "barrier");
        double q = pingpong(iters);
        check(ordo_coll_barrier(ORDO_COMM_WORLD), "barrier");
        double r = 0;
        if (ordo_rank() == 0) {
            r = put_rate(region, threads, window, iters / 4 + 1);
            uint64_t done = 1;   /* rank 1 sleeps meanwhile: the cores are rank 0's */
            check(ordo_put(ORDO_STREAM_DEFAULT, &done, 8, region, 1, flag_offset, 0), "put");
            check(ordo_flush(ORDO_STREAM_DEFAULT, 1), "flush");
        } else {
            volatile uint64_t *flag = (volatile uint64_t *)((char *)base + flag_offset);
            struct timespec nap = {0, 50 * 1000};
            while (__atomic_load_n(flag, __ATOMIC_ACQUIRE) == 0)
                nanosleep(&nap, NULL);
            *flag = 0;
        }
        if (t >= 0) {
            lat[t] = l;
            pp[t] = q;
            rate[t] = r;
        }
    }
    check(ordo_coll_barrier(ORDO_COMM_WORLD), "barrier");
    if (ordo_rank() == 0) {
        char variant[64];
        snprintf(variant, sizeof(variant), "%s-put-flush", level);
        bench_point_t b = {.experiment = "thread_rate", .impl = "ordo",
                           .paradigm = "one-sided", .variant = variant, .np = 2, .pairs = 1,
                           .window = 1, .size = 8, .metric = "latency_us", .unit = "us",
                           .iters = lat_iters, .warmup = lat_iters};
        bench_emit(&b, lat, trials);
        snprintf(variant, sizeof(variant), "%s-pingpong", level);
        b.paradigm = "two-sided";
        b.iters = b.warmup = iters;
        bench_emit(&b, pp, trials);
        snprintf(variant, sizeof(variant), "%s-put-rate-%dthreads", level, threads);
        b.paradigm = "one-sided";
        b.window = window;
        b.metric = "rate_Mmsgps";
        b.unit = "Mmsg/s";
        b.iters = b.warmup = iters / 4 + 1;
        bench_emit(&b, rate, trials);
        bench_stats_t s1, s2, s3;
        bench_stats_compute(lat, trials, &s1);
        bench_stats_compute(pp, trials, &s2);
        bench_stats_compute(rate, trials, &s3);
        fprintf(stderr,
                "thread_rate %s: put+flush %.4f us, pingpong %.3f us, put rate with %d "
                "thread(s) %.1f Mmsg/s (medians of %d)\n",
                level, s1.median, s2.median, threads, s3.median, trials);
    }
    free(lat);
    free(pp);
    free(rate);
    check(ordo_region_free(region), "region free");
    check(ordo_finalize(), "finalize");
    return 0;
}
