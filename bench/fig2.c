/* fig2: the windowed bidirectional benchmark of Figure 2 in Ibrahim et al.
 * (IPDPS 2014), OSU's osu_mbw_mr extended to both directions.  Ranks form
 * np/2 pairs (rank i with i + np/2); in each iteration every rank issues a
 * window of W operations of `size` bytes to its partner and waits for all
 * of them, both directions at once:
 *
 *   get    W gets from the partner's window, then a flush (one-sided)
 *   put    W puts into the partner's window, then a flush (one-sided)
 *   isend  W receives posted, then W sends, then wait for all (two-sided)
 *
 * As in the paper no buffer is reused within a window of one-sided
 * operations.  Aggregate bandwidth = size * W * iterations * ranks / time
 * (decimal MB/s), the time taken between barriers.  The one-sided variants
 * run once per ordering mode (ordo; order null for MPI).  --variant picks
 * one of get, put, isend. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_rma.h"

static const char *const variants[] = {"get", "put", "isend"};

static double trial(bc_win_t *w, char *local, char *rbuf, size_t size, int W, int partner,
                    int v, int iters, bc_req_t *reqs)
{
    bc_barrier();
    double t0 = bench_now_us();
    for (int i = 0; i < iters; i++) {
        if (v == 2) {
            for (int j = 0; j < W; j++)
                bc_irecv(rbuf + (size_t)j * size, size, partner, 7, &reqs[j]);
            for (int j = 0; j < W; j++)
                bc_isend(local + (size_t)j * size, size, partner, 7, &reqs[W + j]);
            bc_waitall(2 * W, reqs);
            continue;
        }
        for (int j = 0; j < W; j++) {
            if (v == 0)
                bc_get(local + (size_t)j * size, size, partner, (size_t)j * size, w);
            else
                bc_put(local + (size_t)j * size, size, partner, (size_t)j * size, w);
        }
        bc_flush(w, partner);
    }
    bc_coll_barrier();
    return bench_now_us() - t0;
}

typedef struct trial_arg {
    bc_win_t *w;
    char     *local, *rbuf;
    size_t    size;
    int       W, partner, v;
    bc_req_t *reqs;
} trial_arg_t;

static double run(void *arg, int iters)
{
    trial_arg_t *a = arg;
    return trial(a->w, a->local, a->rbuf, a->size, a->W, a->partner, a->v, iters, a->reqs);
}

int main(int argc, char **argv)
{
    bench_opts_t o = {.trials = 10, .iters = 2000, .warmup = 200, .window = 64, .size = 8};
    if (bc_init(&argc, &argv) != 0 || bench_parse(argc, argv, &o))
        return 2;
    int me = bc_rank(), np = bc_size();
    if (np < 2 || np % 2) {
        if (me == 0)
            fprintf(stderr, "fig2: needs an even number of ranks\n");
        bc_finalize();
        return 2;
    }
    int known = o.variant == NULL;
    for (int v = 0; v < 3; v++)
        known |= o.variant && strcmp(o.variant, variants[v]) == 0;
    if (!known) {
        if (me == 0)
            fprintf(stderr, "fig2: unknown --variant %s (get, put or isend)\n", o.variant);
        bc_finalize();
        return 2;
    }
    int pairs = np / 2, partner = (me + pairs) % np, W = o.window;
    size_t bytes = o.size * (size_t)W;
    char *base;
    bc_win_t w;
    bc_win_make(BC_WIN_ALLOCATE, bytes, 0, &w, (void **)&base);
    char *local = bench_buffer(bytes), *rbuf = bench_buffer(bytes);
    bc_req_t *reqs = calloc(2 * (size_t)W, sizeof(bc_req_t));
    double *samples = calloc((size_t)o.trials * 3, sizeof(double));
    int iters = bench_scaled_iters(o.iters, bytes / 64 + 1);
    bc_lock_all(&w);
    for (int v = 0; v < 3; v++) {
        if (o.variant && strcmp(o.variant, variants[v]) != 0)
            continue;
        int orders = v == 2 ? 1 : bc_order_count(), n[3];
        int warm = iters / 10 + 1;
        trial_arg_t arg = {&w, local, rbuf, o.size, W, partner, v, reqs};
        for (int m = 0; m < orders; m++) {
            if (v != 2)
                bc_win_order(&w, m);
            /* every rank runs the same rounds and count: the slowest decides */
            n[m] = bench_budget_iters(iters, bench_warm_up(run, &arg, warm, bc_max_all));
        }
        /* the modes take turns trial by trial (a drift favours none) */
        for (int t = 0; t < o.trials; t++)
            for (int m = 0; m < orders; m++) {
                if (v != 2)
                    bc_win_order(&w, m);
                samples[m * o.trials + t] = (double)o.size * W * n[m] * np / run(&arg, n[m]);
            }
        for (int m = 0; m < orders && me == 0; m++) {
            bench_point_t p = {.experiment = "fig2", .impl = BENCH_IMPL,
                               .paradigm = v == 2 ? "two-sided" : "one-sided",
                               .variant = variants[v], .order = v == 2 ? NULL : bc_order_name(m),
                               .np = np, .pairs = pairs, .window = W, .size = o.size,
                               .metric = "bandwidth_MBps", .unit = "MB/s", .iters = n[m],
                               .warmup = warm};
            bench_emit(&p, samples + m * o.trials, o.trials);
        }
    }
    bc_unlock_all(&w);
    bc_barrier();
    free(samples);
    free(reqs);
    free(local);
    free(rbuf);
    bc_win_free(&w);
    bc_finalize();
    return 0;
}
