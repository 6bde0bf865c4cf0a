/* atomics: latency of remote 64-bit atomics, rank 0 to a word at rank 1,
 * as osu_fop_latency / osu_cas_latency / osu_acc_latency measure them:
 *
 *   fetch-add   fetching add, result back at the origin
 *   cswap       compare-and-swap, result back at the origin
 *   add         non-fetching add, then flush (completed at the target)
 *
 * ordo: on a plain region, once per ordering mode; MPI: MPI_Fetch_and_op /
 * MPI_Compare_and_swap / MPI_Accumulate in a lock_all epoch, each followed
 * by MPI_Win_flush.  Every result is checked: the word at rank 1 must hold
 * the exact count at the end. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_rma.h"

enum { FETCH_ADD, CSWAP, ADD, NOPS };
static const char *const op_names[NOPS] = {"fetch-add", "cswap", "add"};

int main(int argc, char **argv)
{
    bench_opts_t o = {.trials = 10, .iters = 50000, .warmup = 5000, .window = 1, .size = 8};
    if (bc_init(&argc, &argv) != 0 || bench_parse(argc, argv, &o))
        return 2;
    int me = bc_rank();
    if (bc_size() != 2) {
        if (me == 0)
            fprintf(stderr, "atomics: needs exactly 2 ranks\n");
        bc_finalize();
        return 2;
    }
    uint64_t *word;
    bc_win_t w;
    bc_win_make(BC_WIN_ALLOCATE, 64, 0, &w, (void **)&word);
    double *samples = calloc((size_t)o.trials, sizeof(double));
    int bad = 0;
    for (int m = 0; m < bc_order_count(); m++) {
        bc_win_order(&w, m);
        for (int op = 0; op < NOPS; op++) {
            if (o.variant && strcmp(o.variant, op_names[op]) != 0)
                continue;
            uint64_t expect = 0, one = 1;
            bc_barrier();
            *(volatile uint64_t *)word = 0;
            bc_barrier();
            bc_lock_all(&w);
            for (int t = -1; t < o.trials; t++) {
                int n = t < 0 ? o.warmup : o.iters;
                double t0 = bench_now_us();
                if (me == 0) {
                    for (int i = 0; i < n; i++, expect++) {
                        if (op == FETCH_ADD)
                            bad |= bc_fetch_add(&w, 1, 0, 1) != expect;
                        else if (op == CSWAP)
                            bad |= bc_cswap(&w, 1, 0, expect, expect + 1) != expect;
                        else {
                            bc_add(&w, 1, 0, &one);
                            bc_flush(&w, 1);
                        }
                    }
                }
                if (t >= 0)
                    samples[t] = (bench_now_us() - t0) / n;
            }
            bc_unlock_all(&w);
            bc_barrier();
            if (me == 1) {
                bc_lock_all(&w);   /* MPI_Win_sync belongs in a passive epoch */
                bc_win_sync(&w);
                bad |= *(volatile uint64_t *)word != (uint64_t)(o.warmup + o.trials * o.iters);
                bc_unlock_all(&w);
            }
            if (me == 0) {
                bench_point_t p = {.experiment = "atomics", .impl = BENCH_IMPL,
                                   .paradigm = "one-sided", .variant = op_names[op],
                                   .order = bc_order_name(m), .np = 2, .pairs = 1, .window = 1,
                                   .size = 8, .metric = "latency_us", .unit = "us"};
                bench_emit(&p, samples, o.trials);
            }
        }
    }
    if (bad)
        fprintf(stderr, "atomics: rank %d saw a wrong atomic result\n", me);
    free(samples);
    bc_win_free(&w);
    bc_finalize();
    return bad ? 1 : 0;
}
