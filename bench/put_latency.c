/* put_latency: one-sided put latency, by two definitions (variants).
 *
 *   pingpong  as `ucx_perftest -t ucp_put_lat`: rank 0 puts `size` bytes
 *             into rank 1 and flushes; rank 1 polls the last 8 bytes of its
 *             window, then puts back; latency = round trip / 2.
 *   one-way   as osu_put_latency in its default flush mode: rank 0 puts
 *             and flushes, back to back; latency = time / iterations;
 *             rank 1 only waits at the closing barrier.
 *
 * OSU's counts for both: 10000 iterations after 100 warm-up ones up to
 * 8 KiB, 1000 after 10 above.  ordo: once per ordering mode, on a plain
 * region, completed with ordo_flush; MPI: a window from MPI_Win_allocate in
 * a lock_all epoch, MPI_Put + MPI_Win_flush, the polling rank calling
 * MPI_Win_sync and MPI_Iprobe so that its library progresses (bc_win_sync). */
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

/* One trial of the ping-pong: microseconds per one-way trip. */
static double pingpong(bc_win_t *w, char *buf, char *src, size_t size, int warm, int iters,
                       uint64_t *seq)
{
    int me = bc_rank(), peer = 1 - me;
    double t0 = 0;
    bc_barrier();
    for (int i = 0; i < warm + iters; i++) {
        if (i == warm)
            t0 = bench_now_us();
        ++*seq;
        memcpy(src + size - 8, seq, 8);
        if (me == 0) {
            bc_put(src, size, peer, 0, w);
            bc_flush(w, peer);
            wait_for(w, buf, size, *seq);
        } else {
            wait_for(w, buf, size, *seq);
            bc_put(src, size, peer, 0, w);
            bc_flush(w, peer);
        }
    }
    return (bench_now_us() - t0) / iters / 2;
}

/* One trial of OSU's definition: microseconds per put + flush at rank 0. */
static double one_way(bc_win_t *w, char *src, size_t size, int warm, int iters)
{
    double us = 0;
    bc_barrier();
    if (bc_rank() == 0) {
        double t0 = 0;
        for (int i = 0; i < warm + iters; i++) {
            if (i == warm)
                t0 = bench_now_us();
            bc_put(src, size, 1, 0, w);
            bc_flush(w, 1);
        }
        us = (bench_now_us() - t0) / iters;
    }
    bc_barrier();
    return us;
}

int main(int argc, char **argv)
{
    bench_opts_t o = {.trials = 10, .iters = 10000, .warmup = 100, .window = 1, .size = 8};
    if (bc_init(&argc, &argv) != 0 || bench_parse(argc, argv, &o))
        return 2;
    if (bc_size() != 2 || o.size < 8 || o.size % 8) {
        if (bc_rank() == 0)
            fprintf(stderr, "put_latency: needs exactly 2 ranks and a size that is a multiple of 8\n");
        bc_finalize();
        return 2;
    }
    int iters = bench_osu_iters(&o, 10000, 1000), warm = bench_osu_warmup(&o, 100, 10);
    char *buf;
    bc_win_t w;
    bc_win_make(BC_WIN_ALLOCATE, o.size, 0, &w, (void **)&buf);
    bc_lock_all(&w);
    /* page-aligned and written, as OSU allocates its origin buffer */
    char *src = bench_buffer(o.size);
    double *samples = calloc((size_t)o.trials, sizeof(double));
    uint64_t seq = 0;
    static const char *const variants[] = {"pingpong", "one-way"};
    for (int m = 0; m < bc_order_count(); m++) {
        bc_win_order(&w, m);
        for (int v = 0; v < 2; v++) {
            for (int t = 0; t < o.trials; t++)
                samples[t] = v == 0 ? pingpong(&w, buf, src, o.size, warm, iters, &seq)
                                    : one_way(&w, src, o.size, warm, iters);
            if (bc_rank() == 0) {
                bench_point_t p = {.experiment = "put_latency", .impl = BENCH_IMPL,
                                   .paradigm = "one-sided", .variant = variants[v],
                                   .order = bc_order_name(m), .np = 2, .pairs = 1, .window = 1,
                                   .size = o.size, .metric = "latency_us", .unit = "us",
                                   .iters = iters, .warmup = warm};
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
