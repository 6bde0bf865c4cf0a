/* latency: two-sided ping-pong as osu_latency measures it.  Rank 0 sends
 * `size` bytes to rank 1 with a blocking send and waits for the same back;
 * each round trip is timed on its own (two clock reads, as OSU does) and
 * latency = summed round trips / (2 * iterations).  OSU's counts: 10000
 * iterations after 100 warm-up ones up to 8 KiB, 1000 after 10 above, with
 * a send and a receive buffer.  With more ranks, rank i pairs with rank
 * i + np/2 (multi-pair latency); rank 0's pair is reported. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_comm.h"
#include "bench_common.h"

int main(int argc, char **argv)
{
    bench_opts_t o = {.trials = 10, .iters = 10000, .warmup = 100, .window = 1, .size = 8};
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
    int iters = bench_osu_iters(&o, 10000, 1000), warm = bench_osu_warmup(&o, 100, 10);
    char *sbuf = bench_buffer(o.size), *rbuf = bench_buffer(o.size);
    double *samples = calloc((size_t)o.trials, sizeof(double));
    for (int t = 0; t < o.trials; t++) {
        double total = 0;
        bc_barrier();
        for (int i = 0; i < warm + iters; i++) {
            double t0 = bench_now_us();
            if (first) {
                bc_send(sbuf, o.size, peer, 1);
                bc_recv(rbuf, o.size, peer, 1);
            } else {
                bc_recv(rbuf, o.size, peer, 1);
                bc_send(sbuf, o.size, peer, 1);
            }
            if (i >= warm)
                total += bench_now_us() - t0;
        }
        samples[t] = total / (2.0 * iters);
    }
    if (me == 0) {
        bench_point_t p = {.experiment = pairs > 1 ? "multi_latency" : "latency",
                           .impl = BENCH_IMPL, .paradigm = "two-sided", .np = np,
                           .pairs = pairs, .window = 1, .size = o.size,
                           .metric = "latency_us", .unit = "us", .iters = iters, .warmup = warm};
        bench_emit(&p, samples, o.trials);
    }
    free(samples);
    free(sbuf);
    free(rbuf);
    bc_finalize();
    return 0;
}
