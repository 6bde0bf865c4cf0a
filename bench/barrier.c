/* barrier: latency of one barrier over all ranks as osu_barrier measures
 * it: each barrier timed on its own (two clock reads) and summed over
 * 1000 barriers after 100 warm-up ones (OSU's collective counts), the
 * per-rank average then averaged over the ranks.  For ordo the algorithm
 * is ORDO_COLL_BARRIER (dissemination, tree, shm; auto when unset) and is
 * reported as the variant; for MPI it is MPI_Barrier. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_comm.h"
#include "bench_common.h"

int main(int argc, char **argv)
{
    bench_opts_t o = {.trials = 10, .iters = 1000, .warmup = 100, .window = 1, .size = 0};
    if (bc_init(&argc, &argv) != 0 || bench_parse(argc, argv, &o))
        return 2;
    int me = bc_rank(), np = bc_size();
    double *samples = calloc((size_t)o.trials, sizeof(double));
    for (int t = 0; t < o.trials; t++) {
        double total = 0;
        bc_barrier();
        for (int i = 0; i < o.warmup + o.iters; i++) {
            double t0 = bench_now_us();
            bc_coll_barrier();
            if (i >= o.warmup)
                total += bench_now_us() - t0;
        }
        samples[t] = bc_mean_at_root(total / o.iters);
    }
    if (me == 0) {
        /* tree and shm (auto's choice on one machine) use remote atomics */
        const char *v = bc_barrier_variant();
        int msgs = strcmp(v, "dissemination") == 0 || strcmp(v, "MPI_Barrier") == 0;
        bench_point_t p = {.experiment = "barrier", .impl = BENCH_IMPL,
                           .paradigm = msgs ? "two-sided" : "one-sided", .variant = v,
                           .np = np, .pairs = 0, .window = 1, .size = 0,
                           .metric = "latency_us", .unit = "us"};
        bench_emit(&p, samples, o.trials);
    }
    free(samples);
    bc_finalize();
    return 0;
}
