/* msgrate (two-sided): multi-pair message rate as osu_mbw_mr measures it.
 * Rank i < np/2 sends windows of W non-blocking sends to rank i + np/2,
 * which posts W receives and answers each window with 4 bytes.  As in OSU,
 * every iteration starts with a barrier (untimed: receivers post after it,
 * so messages may arrive before their receive), every operation of a
 * window uses the same buffer, rank 0 times each window and sums, with
 * OSU's counts (100 windows after 10 warm-up ones up to 8 KiB, 20 after 2
 * above).  Rate = pairs * W * iterations / rank 0's time, in millions of
 * messages per second. */
#include <stdio.h>
#include <stdlib.h>

#include "bench_comm.h"
#include "bench_common.h"

int main(int argc, char **argv)
{
    bench_opts_t o = {.trials = 10, .iters = 100, .warmup = 10, .window = 64, .size = 8};
    if (bc_init(&argc, &argv) != 0 || bench_parse(argc, argv, &o))
        return 2;
    int me = bc_rank(), np = bc_size();
    if (np < 2 || np % 2) {
        if (me == 0)
            fprintf(stderr, "msgrate: needs an even number of ranks\n");
        bc_finalize();
        return 2;
    }
    int pairs = np / 2, sender = me < pairs, peer = sender ? me + pairs : me - pairs;
    int W = o.window;
    int iters = bench_osu_iters(&o, 100, 20), warm = bench_osu_warmup(&o, 10, 2);
    char *sbuf = bench_buffer(o.size), *rbuf = bench_buffer(o.size);
    char ack[4] = {0};
    bc_req_t *reqs = calloc((size_t)W, sizeof(bc_req_t));
    double *samples = calloc((size_t)o.trials, sizeof(double));
    for (int t = 0; t < o.trials; t++) {
        double total = 0;
        for (int i = 0; i < warm + iters; i++) {
            bc_coll_barrier();
            double t0 = bench_now_us();
            if (sender) {
                for (int w = 0; w < W; w++)
                    bc_isend(sbuf, o.size, peer, 4, &reqs[w]);
                bc_waitall(W, reqs);
                bc_recv(ack, 4, peer, 5);
            } else {
                for (int w = 0; w < W; w++)
                    bc_irecv(rbuf, o.size, peer, 4, &reqs[w]);
                bc_waitall(W, reqs);
                bc_send(ack, 4, peer, 5);
            }
            if (i >= warm)
                total += bench_now_us() - t0;
        }
        samples[t] = (double)pairs * W * iters / total;   /* Mmsg/s */
    }
    if (me == 0) {
        bench_point_t p = {.experiment = "msgrate", .impl = BENCH_IMPL, .paradigm = "two-sided",
                           .variant = "isend", .np = np, .pairs = pairs, .window = W,
                           .size = o.size, .metric = "rate_Mmsgps", .unit = "Mmsg/s",
                           .iters = iters, .warmup = warm};
        bench_emit(&p, samples, o.trials);
    }
    free(samples);
    free(reqs);
    free(sbuf);
    free(rbuf);
    bc_finalize();
    return 0;
}
