/* msgrate (one-sided): rank 0 issues windows of W puts to rank 1, then a
 * flush, once per ordering mode (ordo; MPI has none).  Variants:
 *   put    W puts of `size` bytes;
 *   mixed  one large put (64 KiB) then W-1 small puts to the same target:
 *          the workload where order costs something, since strict and
 *          default must hold the small puts behind the large one.
 * MPI: MPI_Put in a lock_all epoch, MPI_Win_flush per window, as
 * osu_put_bw's flush mode counts messages. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_rma.h"

#define LARGE (64u << 10)

static double run_trial(bc_win_t *w, const char *src, size_t region, const bench_opts_t *o,
                        int mixed, int iters)
{
    double t0 = bench_now_us();
    size_t base = mixed ? LARGE : 0;
    for (int i = 0; i < iters; i++) {
        int j = 0;
        if (mixed) {
            bc_put(src, LARGE, 1, 0, w);
            j = 1;
        }
        for (; j < o->window; j++)
            bc_put(src, o->size, 1, base + ((size_t)j * o->size) % (region - base - o->size + 1), w);
        bc_flush(w, 1);
    }
    return bench_now_us() - t0;
}

int main(int argc, char **argv)
{
    bench_opts_t o = {.trials = 10, .iters = 20000, .warmup = 2000, .window = 64, .size = 8};
    if (bc_init(&argc, &argv) != 0 || bench_parse(argc, argv, &o))
        return 2;
    if (bc_size() != 2) {
        if (bc_rank() == 0)
            fprintf(stderr, "put_rate: needs exactly 2 ranks\n");
        bc_finalize();
        return 2;
    }
    size_t region = LARGE + (size_t)o.window * o.size + 64;
    char *buf;
    bc_win_t w;
    bc_win_make(BC_WIN_ALLOCATE, region, 0, &w, (void **)&buf);
    bc_lock_all(&w);
    char *src = calloc(1, LARGE > o.size ? LARGE : o.size);
    double *samples = calloc((size_t)o.trials, sizeof(double));
    for (int mixed = 0; mixed <= 1; mixed++) {
        for (int m = 0; m < bc_order_count(); m++) {
            bc_win_order(&w, m);
            /* a mixed window moves 64 KiB more: fewer of them */
            int iters = mixed ? o.iters / 20 + 1 : o.iters;
            int warm = mixed ? o.warmup / 20 + 1 : o.warmup;
            for (int t = -1; t < o.trials; t++) {
                bc_barrier();
                if (bc_rank() == 0) {
                    double us = run_trial(&w, src, region, &o, mixed, t < 0 ? warm : iters);
                    if (t >= 0)
                        samples[t] = (double)iters * o.window / us;   /* Mmsg/s */
                    else   /* only rank 0 times: no agreement needed */
                        iters = bench_budget_iters(&o, iters, warm, us);
                }
            }
            bc_barrier();
            if (bc_rank() == 0) {
                bench_point_t p = {.experiment = "msgrate", .impl = BENCH_IMPL,
                                   .paradigm = "one-sided", .variant = mixed ? "mixed-put" : "put",
                                   .order = bc_order_name(m), .np = 2, .pairs = 1,
                                   .window = o.window, .size = o.size, .metric = "rate_Mmsgps",
                                   .unit = "Mmsg/s", .iters = iters, .warmup = warm};
                bench_emit(&p, samples, o.trials);
            }
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
