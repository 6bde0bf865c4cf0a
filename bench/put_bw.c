/* put_bw: bandwidth of large puts (window of W non-blocking puts then quiet)
 * per ordering mode, next to a plain memcpy of the same size measured in the
 * same run and process (impl "memcpy"), so the ratio needs no other run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ordo/ordo.h>
#include "bench_common.h"

int main(int argc, char **argv)
{
    bench_opts_t o = {.trials = 10, .iters = 50, .warmup = 5, .window = 16, .size = 1u << 20};
    if (bench_parse(argc, argv, &o) || ordo_init(NULL) != ORDO_OK)
        return 2;
    if (ordo_size() != 2) {
        if (ordo_rank() == 0)
            fprintf(stderr, "put_bw: needs exactly 2 ranks\n");
        ordo_finalize();
        return 2;
    }
    size_t region = o.size * (size_t)o.window;
    char *buf;
    ordo_region_h r;
    if (ordo_region_alloc(region, 0, &r, (void **)&buf) != ORDO_OK)
        return 1;
    char *src = malloc(o.size);
    memset(src, 7, o.size);
    double *samples = calloc((size_t)o.trials, sizeof(double));
    double bytes_per_trial = (double)o.size * o.window * o.iters;

    if (ordo_rank() == 0) {
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
    for (int m = ORDO_ORDER_STRICT; m <= ORDO_ORDER_RELAXED; m++) {
        ordo_stream_params_t sp = {.field_mask = ORDO_STREAM_FIELD_ORDER, .order = (ordo_order_t)m};
        ordo_stream_h s;
        ordo_stream_create(&sp, &s);
        for (int t = -1; t < o.trials; t++) {
            ordo_barrier();
            if (ordo_rank() != 0)
                continue;
            int iters = t < 0 ? o.warmup : o.iters;
            double t0 = bench_now_us();
            for (int i = 0; i < iters; i++) {
                for (int j = 0; j < o.window; j++)
                    ordo_put_nb(s, src, o.size, r, 1, (size_t)j * o.size, 0, NULL);
                ordo_quiet(s);
            }
            double us = bench_now_us() - t0;
            if (t >= 0)
                samples[t] = (double)o.size * o.window * iters / us;
        }
        ordo_barrier();
        if (ordo_rank() == 0) {
            bench_point_t p = {.experiment = "put_bw", .impl = "ordo", .paradigm = "one-sided",
                               .variant = "put_nb+quiet", .order = ordo_order_name((ordo_order_t)m),
                               .np = 2, .pairs = 1, .window = o.window, .size = o.size,
                               .metric = "bandwidth_MBps", .unit = "MB/s"};
            bench_emit(&p, samples, o.trials);
        }
        ordo_stream_destroy(s);
    }
    free(src);
    free(samples);
    ordo_region_free(r);
    return ordo_finalize() == ORDO_OK ? 0 : 1;
}
