/* put_bw: bandwidth of large puts (a window of W puts, then a flush) per
 * ordering mode, as osu_put_bw measures it in flush mode.  The ordo build
 * also measures a plain memcpy of the same size in the same run and process
 * (impl "memcpy"), so the ratio needs no other run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_rma.h"

int main(int argc, char **argv)
{
    bench_opts_t o = {.trials = 10, .iters = 50, .warmup = 5, .window = 16, .size = 1u << 20};
    if (bc_init(&argc, &argv) != 0 || bench_parse(argc, argv, &o))
        return 2;
    if (bc_size() != 2) {
        if (bc_rank() == 0)
            fprintf(stderr, "put_bw: needs exactly 2 ranks\n");
        bc_finalize();
        return 2;
    }
    size_t region = o.size * (size_t)o.window;
    char *buf;
    bc_win_t w;
    bc_win_make(BC_WIN_ALLOCATE, region, 0, &w, (void **)&buf);
    bc_lock_all(&w);
    /* page-aligned and written, as OSU allocates its origin buffer */
    char *src = bench_buffer(o.size);
    double *samples = calloc((size_t)o.trials, sizeof(double));
#ifndef BENCH_MPI
    double bytes_per_trial = (double)o.size * o.window * o.iters;
    if (bc_rank() == 0) {
        /* the local reference: memcpy from the same source into W buffers */
        char *dst = malloc(region);
        memset(dst, 0, region);
        for (int t = -1; t < o.trials; t++) {
            double t0 = bench_now_us();
            for (int i = 0; i < o.iters; i++)
                for (int j = 0; j < o.window; j++)
                    memcpy(dst + (size_t)j * o.size, src, o.size);
            double us = bench_now_us() - t0;
            if (t >= 0)
                samples[t] = bytes_per_trial / us;   /* decimal MB/s */
        }
        free(dst);
        bench_point_t p = {.experiment = "put_bw", .impl = "memcpy", .paradigm = "local",
                           .variant = "memcpy", .order = NULL, .np = 1, .pairs = 1,
                           .window = o.window, .size = o.size, .metric = "bandwidth_MBps",
                           .unit = "MB/s"};
        bench_emit(&p, samples, o.trials);
    }
#endif
    for (int m = 0; m < bc_order_count(); m++) {
        bc_win_order(&w, m);
        for (int t = -1; t < o.trials; t++) {
            bc_barrier();
            if (bc_rank() != 0)
                continue;
            int iters = t < 0 ? o.warmup : o.iters;
            double t0 = bench_now_us();
            for (int i = 0; i < iters; i++) {
                for (int j = 0; j < o.window; j++)
                    bc_put(src, o.size, 1, (size_t)j * o.size, &w);
                bc_flush(&w, 1);
            }
            double us = bench_now_us() - t0;
            if (t >= 0)
                samples[t] = (double)o.size * o.window * iters / us;
        }
        bc_barrier();
        if (bc_rank() == 0) {
            bench_point_t p = {.experiment = "put_bw", .impl = BENCH_IMPL,
                               .paradigm = "one-sided", .variant = "put+flush",
                               .order = bc_order_name(m), .np = 2, .pairs = 1,
                               .window = o.window, .size = o.size,
                               .metric = "bandwidth_MBps", .unit = "MB/s"};
            bench_emit(&p, samples, o.trials);
        }
    }
    bc_unlock_all(&w);
    bc_barrier();
    free(src);
    free(samples);
    bc_win_free(&w);
    bc_finalize();
    return 0;
}
