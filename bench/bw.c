/* bw and bibw: two-sided bandwidth as osu_bw and osu_bibw measure it.
 * bw: rank 0 posts a window of W non-blocking sends, rank 1 a window of W
 * receives; after each window rank 1 answers with a 4-byte message.  bibw:
 * both ranks post W receives then W sends and wait for all.  As in OSU,
 * every operation of a window uses the same buffer (their default single
 * buffer), each window is timed on its own and the times are summed, with
 * OSU's counts: 100 windows after 10 warm-up ones up to 8 KiB, 20 after 2
 * above, W = 64.  Bandwidth in decimal MB/s.  The ordo build also measures
 * a plain memcpy of the same size. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_comm.h"
#include "bench_common.h"

static double window_bw(char *sbuf, char *rbuf, size_t size, int W, int warm, int iters,
                        int bidir)
{
    int me = bc_rank(), peer = 1 - me;
    bc_req_t *reqs = calloc(2 * (size_t)W, sizeof(bc_req_t));
    char ack[4] = {0};
    double total = 0;
    bc_barrier();
    for (int i = 0; i < warm + iters; i++) {
        int n = 0;
        double t0 = bench_now_us();
        if (bidir)
            for (int w = 0; w < W; w++)
                bc_irecv(rbuf, size, peer, 2, &reqs[n++]);
        if (me == 0 || bidir)
            for (int w = 0; w < W; w++)
                bc_isend(sbuf, size, peer, 2, &reqs[n++]);
        if (me == 1 && !bidir)
            for (int w = 0; w < W; w++)
                bc_irecv(rbuf, size, peer, 2, &reqs[n++]);
        bc_waitall(n, reqs);
        if (!bidir) {
            if (me == 0)
                bc_recv(ack, 4, peer, 3);
            else
                bc_send(ack, 4, peer, 3);
        }
        if (i >= warm)
            total += bench_now_us() - t0;
    }
    free(reqs);
    return (double)size * W * iters * (bidir ? 2 : 1) / total;   /* bytes/us = MB/s */
}

int main(int argc, char **argv)
{
    bench_opts_t o = {.trials = 10, .iters = 100, .warmup = 10, .window = 64, .size = 1 << 20};
    if (bc_init(&argc, &argv) != 0 || bench_parse(argc, argv, &o))
        return 2;
    if (bc_size() != 2) {
        if (bc_rank() == 0)
            fprintf(stderr, "bw: needs exactly 2 ranks\n");
        bc_finalize();
        return 2;
    }
    int W = o.window;
    int iters = bench_osu_iters(&o, 100, 20), warm = bench_osu_warmup(&o, 10, 2);
    char *sbuf = bench_buffer(o.size), *rbuf = bench_buffer(o.size);
    double *samples = calloc((size_t)o.trials, sizeof(double));
    for (int bidir = 0; bidir <= 1; bidir++) {
        for (int t = 0; t < o.trials; t++)
            samples[t] = window_bw(sbuf, rbuf, o.size, W, warm, iters, bidir);
        if (bc_rank() == 0) {
            bench_point_t p = {.experiment = bidir ? "bibw" : "bw", .impl = BENCH_IMPL,
                               .paradigm = "two-sided", .np = 2, .pairs = 1, .window = W,
                               .size = o.size, .metric = "bandwidth_MBps", .unit = "MB/s",
                               .iters = iters, .warmup = warm};
            bench_emit(&p, samples, o.trials);
        }
    }
#ifndef BENCH_MPI
    if (bc_rank() == 0) {
        /* the copy a shared-memory transport cannot beat: same size, same
         * buffers, same count */
        for (int t = 0; t < o.trials; t++) {
            double total = 0;
            for (int i = 0; i < warm + iters; i++) {
                double t0 = bench_now_us();
                for (int w = 0; w < W; w++)
                    memcpy(rbuf, sbuf, o.size);
                if (i >= warm)
                    total += bench_now_us() - t0;
            }
            samples[t] = (double)o.size * W * iters / total;
        }
        bench_point_t p = {.experiment = "bw", .impl = "memcpy", .paradigm = "local",
                           .np = 1, .pairs = 1, .window = W, .size = o.size,
                           .metric = "bandwidth_MBps", .unit = "MB/s", .iters = iters,
                           .warmup = warm};
        bench_emit(&p, samples, o.trials);
    }
#endif
    free(samples);
    free(sbuf);
    free(rbuf);
    bc_finalize();
    return 0;
}
