/* msgrate (two-sided): multi-pair message rate as osu_mbw_mr measures it.
 * Rank i < np/2 sends windows of W non-blocking sends to rank i + np/2,
 * which pre-posts W receives and answers each window with 4 bytes.  Rate =
 * pairs * W * iterations / time, in millions of messages per second. */
#include <stdio.h>
#include <stdlib.h>

#include "bench_comm.h"
#include "bench_common.h"

int main(int argc, char **argv)
{
    bench_opts_t o = {.trials = 10, .iters = 20000, .warmup = 2000, .window = 64, .size = 8};
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
    char *buf = bench_buffer(o.size * (size_t)W);
    char ack[4] = {0};
    bc_req_t *reqs = calloc((size_t)W, sizeof(bc_req_t));
    double *samples = calloc((size_t)o.trials, sizeof(double));
    int iters = bench_scaled_iters(o.iters, o.size);
    for (int t = -1; t < o.trials; t++) {
        int n = t < 0 ? bench_scaled_iters(o.warmup, o.size) : iters;
        bc_barrier();
        double t0 = bench_now_us();
        for (int i = 0; i < n; i++) {
            if (sender) {
                for (int w = 0; w < W; w++)
                    bc_isend(buf + (size_t)w * o.size, o.size, peer, 4, &reqs[w]);
                bc_waitall(W, reqs);
                bc_recv(ack, 4, peer, 5);
            } else {
                for (int w = 0; w < W; w++)
                    bc_irecv(buf + (size_t)w * o.size, o.size, peer, 4, &reqs[w]);
                bc_waitall(W, reqs);
                bc_send(ack, 4, peer, 5);
            }
        }
        bc_coll_barrier();
        if (t >= 0)
            samples[t] = (double)pairs * W * n / (bench_now_us() - t0);   /* Mmsg/s */
    }
    if (me == 0) {
        bench_point_t p = {.experiment = "msgrate", .impl = BENCH_IMPL, .paradigm = "two-sided",
                           .variant = "isend", .np = np, .pairs = pairs, .window = W,
                           .size = o.size, .metric = "rate_Mmsgps", .unit = "Mmsg/s"};
        bench_emit(&p, samples, o.trials);
    }
    free(samples);
    free(reqs);
    free(buf);
    bc_finalize();
    return 0;
}
