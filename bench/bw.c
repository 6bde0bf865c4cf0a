/* bw and bibw: two-sided bandwidth as osu_bw and osu_bibw measure it.
 * bw: rank 0 posts a window of W non-blocking sends, rank 1 a window of W
 * receives; after each window rank 1 answers with a 4-byte message.
 * bibw: both ranks send and receive a window at once.  Bandwidth in decimal
 * MB/s.  The ordo build also measures a plain memcpy of the same size. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_comm.h"
#include "bench_common.h"

static double window_bw(char *sbuf, char *rbuf, size_t size, int W, int iters, int bidir)
{
    int me = bc_rank(), peer = 1 - me;
    bc_req_t *reqs = calloc(2 * (size_t)W, sizeof(bc_req_t));
    char ack[4] = {0};
    bc_barrier();
    double t0 = bench_now_us();
    for (int i = 0; i < iters; i++) {
        int n = 0;
        if (me == 1 || bidir)
            for (int w = 0; w < W; w++)
                bc_irecv(rbuf + (size_t)w * size, size, peer, 2, &reqs[n++]);
        if (me == 0 || bidir)
            for (int w = 0; w < W; w++)
                bc_isend(sbuf + (size_t)w * size, size, peer, 2, &reqs[n++]);
        bc_waitall(n, reqs);
        if (!bidir) {
            if (me == 0)
                bc_recv(ack, 4, peer, 3);
            else
                bc_send(ack, 4, peer, 3);
        }
    }
    double us = bench_now_us() - t0;
    free(reqs);
    return (double)size * W * iters * (bidir ? 2 : 1) / us;   /* bytes/us = MB/s */
}

int main(int argc, char **argv)
{
    bench_opts_t o = {.trials = 10, .iters = 2000, .warmup = 200, .window = 64, .size = 1 << 20};
    if (bc_init(&argc, &argv) != 0 || bench_parse(argc, argv, &o))
        return 2;
    if (bc_size() != 2) {
        if (bc_rank() == 0)
            fprintf(stderr, "bw: needs exactly 2 ranks\n");
        bc_finalize();
        return 2;
    }
    /* Large messages: a smaller window keeps the buffers within reason, as
     * the OSU benchmarks do. */
    int W = o.size >= (1u << 20) ? (o.window < 16 ? o.window : 16) : o.window;
    int iters = bench_scaled_iters(o.iters, o.size * (size_t)W / 64);
    char *sbuf = bench_buffer(o.size * (size_t)W), *rbuf = bench_buffer(o.size * (size_t)W);
    double *samples = calloc((size_t)o.trials, sizeof(double));
    for (int bidir = 0; bidir <= 1; bidir++) {
        window_bw(sbuf, rbuf, o.size, W, bench_scaled_iters(o.warmup, o.size * (size_t)W / 64),
                  bidir);
        for (int t = 0; t < o.trials; t++)
            samples[t] = window_bw(sbuf, rbuf, o.size, W, iters, bidir);
        if (bc_rank() == 0) {
            bench_point_t p = {.experiment = bidir ? "bibw" : "bw", .impl = BENCH_IMPL,
                               .paradigm = "two-sided", .np = 2, .pairs = 1, .window = W,
                               .size = o.size, .metric = "bandwidth_MBps", .unit = "MB/s"};
            bench_emit(&p, samples, o.trials);
        }
    }
#ifndef BENCH_MPI
    if (bc_rank() == 0) {
        /* the copy a shared-memory transport cannot beat, same size, same method */
        for (int t = -1; t < o.trials; t++) {
            double t0 = bench_now_us();
            for (int i = 0; i < iters; i++)
                for (int w = 0; w < W; w++)
                    memcpy(rbuf + (size_t)w * o.size, sbuf + (size_t)w * o.size, o.size);
            if (t >= 0)
                samples[t] = (double)o.size * W * iters / (bench_now_us() - t0);
        }
        bench_point_t p = {.experiment = "bw", .impl = "memcpy", .paradigm = "local",
                           .np = 1, .pairs = 1, .window = W, .size = o.size,
                           .metric = "bandwidth_MBps", .unit = "MB/s"};
        bench_emit(&p, samples, o.trials);
    }
#endif
    free(samples);
    free(sbuf);
    free(rbuf);
    bc_finalize();
    return 0;
}
