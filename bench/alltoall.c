/* alltoall: time of one all-to-all exchange of `size` bytes per pair of
 * ranks (as osu_alltoall measures it: many back to back, time / count).
 * For ordo the algorithm is ORDO_COLL_ALLTOALL (pairwise: two-sided
 * exchange; put: one-sided puts into each receiver's scratch with a single
 * completion; auto when unset) and is reported as the variant; for MPI it
 * is MPI_Alltoall.  Options: --size BYTES (default 8 B to 64 KiB by 8x). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_comm.h"
#include "bench_common.h"

int main(int argc, char **argv)
{
    bench_opts_t o = {.trials = 10, .iters = 2000, .warmup = 200, .window = 1, .size = 0};
    if (bc_init(&argc, &argv) != 0 || bench_parse(argc, argv, &o))
        return 2;
    int me = bc_rank(), np = bc_size();
    const char *v = bc_alltoall_variant();
    int one_sided = strcmp(v, "put") == 0;
    double *samples = calloc((size_t)o.trials, sizeof(double));
    for (size_t size = o.size ? o.size : 8; size <= (o.size ? o.size : 65536); size *= 8) {
        char *sbuf = bench_buffer(size * (size_t)np), *rbuf = bench_buffer(size * (size_t)np);
        int iters = bench_scaled_iters(o.iters, size * (size_t)np);
        for (int t = -1; t < o.trials; t++) {
            int n = t < 0 ? o.warmup : iters;
            bc_barrier();
            double t0 = bench_now_us();
            for (int i = 0; i < n; i++)
                bc_alltoall(sbuf, rbuf, size);
            if (t >= 0)
                samples[t] = (bench_now_us() - t0) / n;
        }
        if (me == 0) {
            bench_point_t p = {.experiment = "alltoall", .impl = BENCH_IMPL,
                               .paradigm = one_sided ? "one-sided" : "two-sided", .variant = v,
                               .np = np, .pairs = 0, .window = 1, .size = size,
                               .metric = "time_us", .unit = "us", .iters = iters};
            bench_emit(&p, samples, o.trials);
        }
        free(sbuf);
        free(rbuf);
    }
    free(samples);
    bc_finalize();
    return 0;
}
