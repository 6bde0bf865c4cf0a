/* msgrate (one-sided): rank 0 issues windows of W puts to rank 1, then a
 * flush, once per ordering mode (ordo; MPI has none).  Variants:
 *   put    W puts of `size` bytes;
 *   mixed  one large put (64 KiB) then W-1 small puts to the same target:
 *          the workload where order costs something, since strict and
 *          default must hold the small puts behind the large one.
 * MPI: MPI_Put in a lock_all epoch, MPI_Win_flush per window, as
 * osu_put_bw's flush mode counts messages.  With one rank it puts into its
 * own window (ordo's self transport). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_rma.h"

#define LARGE (64u << 10)

typedef struct trial_arg {
    bc_win_t          *w;
    const char        *src;
    size_t             region;
    const bench_opts_t *o;
    int                mixed;
} trial_arg_t;

static double run_trial(void *arg, int iters)
{
    const trial_arg_t *a = arg;
    const bench_opts_t *o = a->o;
    int target = bc_size() - 1;
    double t0 = bench_now_us();
    size_t base = a->mixed ? LARGE : 0;
    for (int i = 0; i < iters; i++) {
        int j = 0;
        if (a->mixed) {
            bc_put(a->src, LARGE, target, 0, a->w);
            j = 1;
        }
        for (; j < o->window; j++)
            bc_put(a->src, o->size, target,
                   base + ((size_t)j * o->size) % (a->region - base - o->size + 1), a->w);
        bc_flush(a->w, target);
    }
    return bench_now_us() - t0;
}

int main(int argc, char **argv)
{
    bench_opts_t o = {.trials = 10, .iters = 20000, .warmup = 2000, .window = 64, .size = 8};
    if (bc_init(&argc, &argv) != 0 || bench_parse(argc, argv, &o))
        return 2;
    if (bc_size() > 2) {
        if (bc_rank() == 0)
            fprintf(stderr, "put_rate: needs 1 or 2 ranks\n");
        bc_finalize();
        return 2;
    }
    size_t region = LARGE + (size_t)o.window * o.size + 64;
    char *buf;
    bc_win_t w;
    bc_win_make(BC_WIN_ALLOCATE, region, 0, &w, (void **)&buf);
    bc_lock_all(&w);
    char *src = calloc(1, LARGE > o.size ? LARGE : o.size);
    int nmodes = bc_order_count();
    double *samples = calloc((size_t)o.trials * (size_t)nmodes, sizeof(double));
    int iters[3] = {0, 0, 0}, warm = 0;
    for (int mixed = 0; mixed <= 1; mixed++) {
        trial_arg_t arg = {.w = &w, .src = src, .region = region, .o = &o, .mixed = mixed};
        /* a mixed window moves 64 KiB more: fewer of them */
        warm = mixed ? o.warmup / 20 + 1 : o.warmup;
        for (int m = 0; m < nmodes; m++) {   /* each mode's pace sets its own count */
            bc_win_order(&w, m);
            bc_barrier();
            if (bc_rank() == 0)   /* only rank 0 issues and times: it decides alone */
                iters[m] = bench_budget_iters(mixed ? o.iters / 20 + 1 : o.iters,
                                              bench_warm_up(run_trial, &arg, warm, NULL));
        }
        /* the modes take turns trial by trial, so that a drift of the machine
         * over the run favours none of them */
        for (int t = 0; t < o.trials; t++) {
            for (int m = 0; m < nmodes; m++) {
                bc_win_order(&w, m);
                bc_barrier();
                if (bc_rank() == 0)
                    samples[m * o.trials + t] =
                        (double)iters[m] * o.window / run_trial(&arg, iters[m]);   /* Mmsg/s */
            }
        }
        bc_barrier();
        for (int m = 0; m < nmodes && bc_rank() == 0; m++) {
            bench_point_t p = {.experiment = "msgrate", .impl = BENCH_IMPL,
                               .paradigm = "one-sided", .variant = mixed ? "mixed-put" : "put",
                               .order = bc_order_name(m), .np = bc_size(), .pairs = 1,
                               .window = o.window, .size = o.size, .metric = "rate_Mmsgps",
                               .unit = "Mmsg/s", .iters = iters[m], .warmup = warm};
            bench_emit(&p, samples + m * o.trials, o.trials);
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
