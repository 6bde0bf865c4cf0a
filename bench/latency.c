/* latency: two-sided ping-pong as osu_latency measures it.  Rank 0 sends
 * `size` bytes to rank 1 with a blocking send and waits for the same back;
 * latency = round trip / 2.  With more ranks, rank i pairs with rank
 * i + np/2 (multi-pair latency); rank 0's pair is reported. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_comm.h"
#include "bench_common.h"

int main(int argc, char **argv)
{
    bench_opts_t o = {.trials = 10, .iters = 100000, .warmup = 10000, .window = 1, .size = 8};
    if (bc_init(&argc, &argv) != 0 || bench_parse(argc, argv, &o))
        return 2;
    int me = bc_rank(), np = bc_size();
    if (np < 2 || np % 2) {
        if (me == 0)
            fprintf(stderr, "latency: needs an even number of ranks\n");
        bc_finalize();
        return 2;
    }
    int pairs = np / 2, peer = me < pairs ? me + pairs : me - pairs, first = me < pairs;
    int iters = bench_scaled_iters(o.iters, o.size), warm = bench_scaled_iters(o.warmup, o.size);
    char *buf = bench_buffer(o.size);
    double *samples = calloc((size_t)o.trials, sizeof(double));
    for (int t = -1; t < o.trials; t++) {
        int n = t < 0 ? warm : iters;
        bc_barrier();
        double t0 = bench_now_us();
        for (int i = 0; i < n; i++) {
            if (first) {
                bc_send(buf, o.size, peer, 1);
                bc_recv(buf, o.size, peer, 1);
            } else {
                bc_recv(buf, o.size, peer, 1);
                bc_send(buf, o.size, peer, 1);
            }
        }
        if (t >= 0)
            samples[t] = (bench_now_us() - t0) / (2.0 * n);
    }
    if (me == 0) {
        bench_point_t p = {.experiment = pairs > 1 ? "multi_latency" : "latency",
                           .impl = BENCH_IMPL, .paradigm = "two-sided", .np = np,
                           .pairs = pairs, .window = 1, .size = o.size,
                           .metric = "latency_us", .unit = "us"};
        bench_emit(&p, samples, o.trials);
    }
    free(samples);
    free(buf);
    bc_finalize();
    return 0;
}
