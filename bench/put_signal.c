/* put_signal: the cost of ordering one put behind another — data, then a
 * flag the target waits on — by three means (variants), as a ping-pong:
 * rank 0 sends `size` bytes and a flag to rank 1, which waits for the flag,
 * checks the data's last word and answers the same way; latency = round
 * trip / 2.
 *
 *   put-signal      ordo_put_signal: the flag travels with the put, held
 *                   back only behind that put (ordo only: MPI has none)
 *   put-fence-put   put, an ordering call, put of the flag: ordo_fence for
 *                   ordo (orders, completes nothing); MPI has no such call,
 *                   so its nearest, MPI_Win_flush, completes the data first
 *   put-flush-put   put, a flush that completes it at the target, put of
 *                   the flag: the ordering-free baseline both can do
 *
 * Each variant once per ordering mode of the stream (ordo); on MPI a
 * window from MPI_Win_allocate in a lock_all epoch. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_rma.h"

enum { PUT_SIGNAL, PUT_FENCE_PUT, PUT_FLUSH_PUT, NVARIANTS };
static const char *const variants[NVARIANTS] = {"put-signal", "put-fence-put", "put-flush-put"};

static size_t flag_at(size_t size) { return (size + 63) & ~(size_t)63; }

static void wait_flag(bc_win_t *w, char *buf, size_t size, uint64_t seq)
{
    _Atomic uint64_t *flag = (_Atomic uint64_t *)(buf + flag_at(size));
    while (atomic_load_explicit(flag, memory_order_acquire) < seq)
        bc_win_sync(w);
    uint64_t tail;
    memcpy(&tail, buf + size - 8, 8);
    if (tail != seq) {   /* the flag came before the data: ordering broken */
        fprintf(stderr, "put_signal: flag %llu seen before its data (%llu)\n",
                (unsigned long long)seq, (unsigned long long)tail);
        exit(3);
    }
}

static void send_one(int v, bc_win_t *w, char *src, size_t size, int peer, uint64_t seq,
                     uint64_t *flag_src)
{
    memcpy(src + size - 8, &seq, 8);
    *flag_src = seq;
    switch (v) {
    case PUT_SIGNAL:
        bc_put_signal(src, size, peer, 0, flag_at(size), seq, w);
        break;
    case PUT_FENCE_PUT:
        bc_put(src, size, peer, 0, w);
        bc_order_puts(w, peer);
        bc_put(flag_src, 8, peer, flag_at(size), w);
        break;
    default:
        bc_put(src, size, peer, 0, w);
        bc_flush(w, peer);
        bc_put(flag_src, 8, peer, flag_at(size), w);
        break;
    }
    bc_flush(w, peer);   /* as put_latency: each message completed before the next */
}

static double pingpong(int v, bc_win_t *w, char *buf, char *src, size_t size, int warm,
                       int iters, uint64_t *seq)
{
    int me = bc_rank(), peer = 1 - me;
    uint64_t flag_src;
    double t0 = 0;
    bc_barrier();
    for (int i = 0; i < warm + iters; i++) {
        if (i == warm)
            t0 = bench_now_us();
        ++*seq;
        if (me == 0) {
            send_one(v, w, src, size, peer, *seq, &flag_src);
            wait_flag(w, buf, size, *seq);
        } else {
            wait_flag(w, buf, size, *seq);
            send_one(v, w, src, size, peer, *seq, &flag_src);
        }
    }
    return (bench_now_us() - t0) / iters / 2;
}

int main(int argc, char **argv)
{
    bench_opts_t o = {.trials = 10, .iters = 10000, .warmup = 100, .window = 1, .size = 8};
    if (bc_init(&argc, &argv) != 0 || bench_parse(argc, argv, &o))
        return 2;
    if (bc_size() != 2 || o.size < 8 || o.size % 8) {
        if (bc_rank() == 0)
            fprintf(stderr, "put_signal: needs exactly 2 ranks and a size that is a multiple "
                            "of 8\n");
        bc_finalize();
        return 2;
    }
    int iters = bench_osu_iters(&o, 10000, 1000), warm = bench_osu_warmup(&o, 100, 10);
    char *buf;
    bc_win_t w;
    bc_win_make(BC_WIN_ALLOCATE, flag_at(o.size) + 64, 0, &w, (void **)&buf);
    bc_lock_all(&w);
    /* page-aligned and written, as OSU allocates its origin buffer */
    char *src = bench_buffer(o.size);
    double *samples = calloc((size_t)o.trials, sizeof(double));
    uint64_t seq = 0;
    for (int m = 0; m < bc_order_count(); m++) {
        bc_win_order(&w, m);
        for (int v = 0; v < NVARIANTS; v++) {
            if (v == PUT_SIGNAL && !BC_HAVE_PUT_SIGNAL)
                continue;
            for (int t = 0; t < o.trials; t++)
                samples[t] = pingpong(v, &w, buf, src, o.size, warm, iters, &seq);
            if (bc_rank() == 0) {
                bench_point_t p = {.experiment = "put_signal", .impl = BENCH_IMPL,
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
