/* rma_sync: put and get latency and bandwidth per MPI-RMA synchronisation
 * mode, as osu_put_latency / osu_get_latency / osu_put_bw / osu_get_bw
 * measure them (rank 0 the origin, rank 1 the target), on a window with
 * epochs:
 *
 *   flush        lock_all once; per op (latency) or per window of W ops
 *                (bandwidth): ops, flush(1)
 *   flush_local  the same with flush_local (buffer reusable, not remote)
 *   lock         per op or window: lock(1) shared, ops, unlock(1)
 *   lock_all     per op or window: lock_all, ops, unlock_all
 *   fence        both ranks: fence, rank 0 ops, fence
 *   pscw         rank 0 start(1), ops, complete; rank 1 post(0), wait
 *
 * Latency is the time per op with window 1; fence and pscw synchronise both
 * sides, so there, as in OSU, each rank in turn issues one op and the time
 * per iteration is halved;
 * bandwidth is size * W * windows / time, decimal MB/s.  Variants are
 * "put-<mode>" and "get-<mode>"; --variant runs one.  The window comes from
 * --window (default 32 for bandwidth). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_rma.h"

enum { FLUSH, FLUSH_LOCAL, LOCK, LOCK_ALL, FENCE, PSCW, NMODES };
static const char *const mode_names[NMODES] = {"flush", "flush_local", "lock",
                                               "lock_all", "fence", "pscw"};

typedef struct ctx {
    bc_win_t   w;
    bc_group_t to_target, to_origin;
    char      *local;
    size_t     size;
    int        me, get;
} ctx_t;

static void ops(ctx_t *c, int n, int target)
{
    for (int j = 0; j < n; j++) {
        if (c->get)
            bc_get(c->local + (size_t)j * c->size, c->size, target, (size_t)j * c->size, &c->w);
        else
            bc_put(c->local + (size_t)j * c->size, c->size, target, (size_t)j * c->size, &c->w);
    }
}

/* iters epochs of W ops each, timed at rank 0 (rank 1 takes part in the
 * active modes and waits otherwise).  With W = 1 the active modes run as
 * OSU's latency tests do, a ping-pong: rank 0's op and synchronisation,
 * then rank 1's back (two ops per iteration). */
static double run(ctx_t *c, int mode, int W, int iters)
{
    bc_barrier();
    if (mode == FLUSH || mode == FLUSH_LOCAL)
        bc_lock_all(&c->w);
    if (mode == FENCE)
        bc_fence(&c->w, 0);   /* opens the first epoch, as OSU's does */
    double t0 = bench_now_us();
    for (int i = 0; i < iters; i++) {
        switch (mode) {
        case FLUSH:
        case FLUSH_LOCAL:
            if (c->me == 0) {
                ops(c, W, 1);
                if (mode == FLUSH)
                    bc_flush(&c->w, 1);
                else
                    bc_flush_local(&c->w, 1);
            }
            break;
        case LOCK:
            if (c->me == 0) {
                bc_lock_shared(&c->w, 1);
                ops(c, W, 1);
                bc_unlock(&c->w, 1);
            }
            break;
        case LOCK_ALL:
            if (c->me == 0) {
                bc_lock_all(&c->w);
                ops(c, W, 1);
                bc_unlock_all(&c->w);
            }
            break;
        case FENCE:
            if (W == 1) {
                if (c->me == 0)
                    ops(c, 1, 1);
                bc_fence(&c->w, 0);
                if (c->me == 1)
                    ops(c, 1, 0);
                bc_fence(&c->w, 0);
                break;
            }
            bc_fence(&c->w, 0);
            if (c->me == 0)
                ops(c, W, 1);
            bc_fence(&c->w, 0);
            break;
        case PSCW:
            if (c->me == 0) {
                bc_start(&c->w, &c->to_target);
                ops(c, W, 1);
                bc_complete(&c->w);
                if (W == 1) {
                    bc_post(&c->w, &c->to_target);
                    bc_wait(&c->w);
                }
            } else {
                bc_post(&c->w, &c->to_origin);
                bc_wait(&c->w);
                if (W == 1) {
                    bc_start(&c->w, &c->to_origin);
                    ops(c, 1, 0);
                    bc_complete(&c->w);
                }
            }
            break;
        }
    }
    double us = bench_now_us() - t0;
    if (mode == FLUSH || mode == FLUSH_LOCAL)
        bc_unlock_all(&c->w);
    if (mode == FENCE)
        bc_fence(&c->w, BC_NOSUCCEED);   /* the window may be locked next */
    return us;
}

int main(int argc, char **argv)
{
    bench_opts_t o = {.trials = 10, .iters = 20000, .warmup = 1000, .window = 32, .size = 8};
    if (bc_init(&argc, &argv) != 0 || bench_parse(argc, argv, &o))
        return 2;
    ctx_t c = {.me = bc_rank(), .size = o.size};
    if (bc_size() != 2) {
        if (c.me == 0)
            fprintf(stderr, "rma_sync: needs exactly 2 ranks\n");
        bc_finalize();
        return 2;
    }
    int known = o.variant == NULL;
    for (int g = 0; g < 2; g++)
        for (int m = 0; m < NMODES; m++) {
            char name[32];
            snprintf(name, sizeof(name), "%s-%s", g ? "get" : "put", mode_names[m]);
            known |= o.variant && strcmp(o.variant, name) == 0;
        }
    if (!known) {
        if (c.me == 0)
            fprintf(stderr, "rma_sync: unknown --variant %s (put-<mode> or get-<mode>, mode one "
                            "of flush, flush_local, lock, lock_all, fence, pscw)\n", o.variant);
        bc_finalize();
        return 2;
    }
    int W = o.window;
    size_t bytes = o.size * (size_t)W;
    char *base;
    bc_win_make(BC_WIN_ALLOCATE, bytes, BC_EPOCHS, &c.w, (void **)&base);
    c.local = bench_buffer(bytes);
    int target = 1, origin = 0;
    bc_group_make(&c.to_target, 1, &target);
    bc_group_make(&c.to_origin, 1, &origin);
    double *samples = calloc((size_t)o.trials, sizeof(double));
    int lat_iters = bench_scaled_iters(o.iters, o.size);
    /* windows per bandwidth trial: long enough that one interruption is noise */
    int bw_iters = bench_scaled_iters(o.iters / 4 + 1, o.size * (size_t)W / 16);
    for (c.get = 0; c.get <= 1; c.get++) {
        for (int m = 0; m < NMODES; m++) {
            char name[32];
            snprintf(name, sizeof(name), "%s-%s", c.get ? "get" : "put", mode_names[m]);
            if (o.variant && strcmp(o.variant, name) != 0)
                continue;
            for (int bw = 0; bw <= 1; bw++) {
                int w = bw ? W : 1, iters = bw ? bw_iters : lat_iters;
                int warm = bw ? bw_iters / 10 + 1 : bench_scaled_iters(o.warmup, o.size);
                run(&c, m, w, warm);
                int pingpong = !bw && (m == FENCE || m == PSCW);
                for (int t = 0; t < o.trials; t++) {
                    double us = run(&c, m, w, iters);
                    samples[t] = bw ? (double)o.size * w * iters / us
                                    : us / iters / (pingpong ? 2 : 1);
                }
                if (c.me == 0) {
                    bench_point_t p = {.experiment = "rma_sync", .impl = BENCH_IMPL,
                                       .paradigm = "one-sided", .variant = name, .np = 2,
                                       .pairs = 1, .window = w, .size = o.size,
                                       .metric = bw ? "bandwidth_MBps" : "latency_us",
                                       .unit = bw ? "MB/s" : "us", .iters = iters,
                                       .warmup = warm};
                    bench_emit(&p, samples, o.trials);
                }
            }
        }
    }
    bc_barrier();
    free(samples);
    free(c.local);
    bc_group_free(&c.to_target);
    bc_group_free(&c.to_origin);
    bc_win_free(&c.w);
    bc_finalize();
    return 0;
}
