/* put_latency: one-sided ping-pong as `ucx_perftest -t ucp_put_lat` measures
 * it.  Rank 0 puts `size` bytes into rank 1 and flushes; rank 1 polls the
 * last 8 bytes of its buffer, then puts back; latency = round trip / 2. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ordo/ordo.h>
#include "bench_common.h"

static void wait_for(volatile char *buf, size_t size, uint64_t seq)
{
    _Atomic uint64_t *tail = (_Atomic uint64_t *)(buf + size - 8);
    while (atomic_load_explicit(tail, memory_order_acquire) != seq)
        ;
}

int main(int argc, char **argv)
{
    bench_opts_t o = {.trials = 10, .iters = 100000, .warmup = 10000, .window = 1, .size = 8};
    if (bench_parse(argc, argv, &o) || ordo_init(NULL) != ORDO_OK)
        return 2;
    if (ordo_size() != 2 || o.size < 8 || o.size % 8) {
        if (ordo_rank() == 0)
            fprintf(stderr, "put_latency: needs exactly 2 ranks and a size that is a multiple of 8\n");
        ordo_finalize();
        return 2;
    }
    int me = ordo_rank(), peer = 1 - me;
    char *buf;
    ordo_region_h r;
    if (ordo_region_alloc(o.size, 0, &r, (void **)&buf) != ORDO_OK)
        return 1;
    char *src = calloc(1, o.size);
    double *samples = calloc((size_t)o.trials, sizeof(double));
    uint64_t seq = 0;
    for (int t = -1; t < o.trials; t++) {
        int n = t < 0 ? o.warmup : o.iters;
        ordo_barrier();
        double t0 = bench_now_us();
        for (int i = 0; i < n; i++) {
            seq++;
            memcpy(src + o.size - 8, &seq, 8);
            if (me == 0) {
                ordo_put(NULL, src, o.size, r, peer, 0, 0);
                ordo_flush(NULL, peer);
                wait_for(buf, o.size, seq);
            } else {
                wait_for(buf, o.size, seq);
                ordo_put(NULL, src, o.size, r, peer, 0, 0);
                ordo_flush(NULL, peer);
            }
        }
        double t1 = bench_now_us();
        if (t >= 0)
            samples[t] = (t1 - t0) / n / 2;
    }
    if (me == 0) {
        ordo_order_t order;
        ordo_stream_order(NULL, &order);
        bench_point_t p = {.experiment = "put_latency", .impl = "ordo", .paradigm = "one-sided",
                           .variant = "put+flush", .order = ordo_order_name(order), .np = 2,
                           .pairs = 1, .window = 1, .size = o.size, .metric = "latency_us",
                           .unit = "us"};
        bench_emit(&p, samples, o.trials);
    }
    free(src);
    free(samples);
    ordo_region_free(r);
    return ordo_finalize() == ORDO_OK ? 0 : 1;
}
