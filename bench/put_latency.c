/* put_latency: one-sided ping-pong as `ucx_perftest -t ucp_put_lat` measures
 * it.  Rank 0 puts `size` bytes into rank 1 and flushes; rank 1 polls the
 * last 8 bytes of its window, then puts back; latency = round trip / 2.
 * ordo: once per ordering mode, on a plain region; MPI: a window from
 * MPI_Win_allocate in a lock_all epoch, put + MPI_Win_flush, polling with
 * MPI_Win_sync. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_rma.h"

static void wait_for(bc_win_t *w, volatile char *buf, size_t size, uint64_t seq)
{
    _Atomic uint64_t *tail = (_Atomic uint64_t *)(buf + size - 8);
    while (atomic_load_explicit(tail, memory_order_acquire) != seq)
        bc_win_sync(w);
}

int main(int argc, char **argv)
{
    bench_opts_t o = {.trials = 10, .iters = 100000, .warmup = 10000, .window = 1, .size = 8};
    if (bc_init(&argc, &argv) != 0 || bench_parse(argc, argv, &o))
        return 2;
    if (bc_size() != 2 || o.size < 8 || o.size % 8) {
        if (bc_rank() == 0)
            fprintf(stderr, "put_latency: needs exactly 2 ranks and a size that is a multiple of 8\n");
        bc_finalize();
        return 2;
    }
    int me = bc_rank(), peer = 1 - me;
    char *buf;
    bc_win_t w;
    bc_win_make(BC_WIN_ALLOCATE, o.size, 0, &w, (void **)&buf);
    bc_lock_all(&w);
    char *src = calloc(1, o.size);
    double *samples = calloc((size_t)o.trials, sizeof(double));
    uint64_t seq = 0;
    for (int m = 0; m < bc_order_count(); m++) {
        bc_win_order(&w, m);
        for (int t = -1; t < o.trials; t++) {
            int n = t < 0 ? o.warmup : o.iters;
            bc_barrier();
            double t0 = bench_now_us();
            for (int i = 0; i < n; i++) {
                seq++;
                memcpy(src + o.size - 8, &seq, 8);
                if (me == 0) {
                    bc_put(src, o.size, peer, 0, &w);
                    bc_flush(&w, peer);
                    wait_for(&w, buf, o.size, seq);
                } else {
                    wait_for(&w, buf, o.size, seq);
                    bc_put(src, o.size, peer, 0, &w);
                    bc_flush(&w, peer);
                }
            }
            double t1 = bench_now_us();
            if (t >= 0)
                samples[t] = (t1 - t0) / n / 2;
        }
        if (me == 0) {
            bench_point_t p = {.experiment = "put_latency", .impl = BENCH_IMPL,
                               .paradigm = "one-sided", .variant = "put+flush",
                               .order = bc_order_name(m), .np = 2, .pairs = 1, .window = 1,
                               .size = o.size, .metric = "latency_us", .unit = "us"};
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
