/* msgrate (one-sided): rank 0 issues windows of W non-blocking puts to rank 1,
 * then quiet, on a stream of each ordering mode.  Variants:
 *   put    W puts of `size` bytes;
 *   mixed  one large put (--large, engine) then W-1 small puts to the same
 *          target: the workload where the order costs something, since
 *          strict and default must hold the small puts behind the large one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ordo/ordo.h>
#include "bench_common.h"

#define LARGE (64u << 10)

static double run_trial(ordo_stream_h s, ordo_region_h r, const char *src, size_t region,
                        const bench_opts_t *o, int mixed, int iters)
{
    double t0 = bench_now_us();
    for (int i = 0; i < iters; i++) {
        int j = 0;
        if (mixed) {
            ordo_put_nb(s, src, LARGE, r, 1, 0, 0, NULL);
            j = 1;
        }
        size_t base = mixed ? LARGE : 0;
        for (; j < o->window; j++)
            ordo_put_nb(s, src, o->size, r, 1, base + ((size_t)j * o->size) % (region - base - o->size + 1), 0,
                        NULL);
        ordo_quiet(s);
    }
    return bench_now_us() - t0;
}

int main(int argc, char **argv)
{
    bench_opts_t o = {.trials = 10, .iters = 20000, .warmup = 2000, .window = 64, .size = 8};
    if (bench_parse(argc, argv, &o) || ordo_init(NULL) != ORDO_OK)
        return 2;
    if (ordo_size() != 2) {
        if (ordo_rank() == 0)
            fprintf(stderr, "put_rate: needs exactly 2 ranks\n");
        ordo_finalize();
        return 2;
    }
    size_t region = LARGE + (size_t)o.window * o.size + 64;
    char *buf;
    ordo_region_h r;
    if (ordo_region_alloc(region, 0, &r, (void **)&buf) != ORDO_OK)
        return 1;
    char *src = calloc(1, LARGE > o.size ? LARGE : o.size);
    double *samples = calloc((size_t)o.trials, sizeof(double));
    for (int mixed = 0; mixed <= 1; mixed++) {
        for (int m = ORDO_ORDER_STRICT; m <= ORDO_ORDER_RELAXED; m++) {
            ordo_stream_params_t sp = {.field_mask = ORDO_STREAM_FIELD_ORDER, .order = (ordo_order_t)m};
            ordo_stream_h s;
            ordo_stream_create(&sp, &s);
            int iters = mixed ? o.iters / 20 + 1 : o.iters;
            for (int t = -1; t < o.trials; t++) {
                ordo_barrier();
                if (ordo_rank() == 0) {
                    double us = run_trial(s, r, src, region, &o, mixed, t < 0 ? o.warmup / 20 + 1 : iters);
                    if (t >= 0)
                        samples[t] = (double)iters * o.window / us;   /* Mmsg/s */
                }
            }
            ordo_barrier();
            if (ordo_rank() == 0) {
                bench_point_t p = {.experiment = "msgrate", .impl = "ordo", .paradigm = "one-sided",
                                   .variant = mixed ? "mixed-put" : "put",
                                   .order = ordo_order_name((ordo_order_t)m), .np = 2, .pairs = 1,
                                   .window = o.window, .size = o.size, .metric = "rate_Mmsgps",
                                   .unit = "Mmsg/s"};
                bench_emit(&p, samples, o.trials);
            }
            ordo_stream_destroy(s);
        }
    }
    free(src);
    free(samples);
    ordo_region_free(r);
    return ordo_finalize() == ORDO_OK ? 0 : 1;
}
