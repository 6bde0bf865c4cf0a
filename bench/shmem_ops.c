/* shmem_ops: the one-sided figures of the PGAS paper, as OpenSHMEM programs
 * measure them, from one source built three ways (bench_shmem.h): for
 * ordo's OpenSHMEM, for ordo's native API, and for Open MPI's OpenSHMEM.
 * Variants, between 2 PEs (PE 0 active unless said):
 *
 *   put          shmem_putmem + shmem_quiet, back to back: time per pair
 *                (osu_oshm_put's definition)
 *   get          shmem_getmem, back to back (osu_oshm_get)
 *   put-rate     --window puts (_nbi), then one quiet: puts per second
 *                (osu_oshm_put_mr_nb)
 *   put-rate-blocking  the same with blocking puts (osu_oshm_put_mr)
 *   put-signal   ping-pong of a put-with-signal and a wait on the flag at
 *                the target, round trip / 2 (OpenSHMEM 1.5; skipped where
 *                the library lacks it)
 *   fetch-add    shmem_uint64_atomic_fetch_add, back to back
 *   barrier      shmem_barrier_all, both PEs
 *
 * Each variant, once per --size (the data variants; atomics and the
 * barrier move 8 bytes whatever it says).  The two rates run on the
 * default context (order null in the records) and, where the library has
 * ordering options (ordo's SHMEMX_CTX_ORDER_*), on a context of each: more
 * freedom must never be slower, and non-blocking never slower than
 * blocking. */
#include <string.h>

#include "bench_shmem.h"

enum { PUT, GET, PUT_RATE, PUT_RATE_BLOCKING, PUT_SIGNAL, FETCH_ADD, BARRIER, NVARIANTS };
static const char *const names[NVARIANTS] = {"put", "get", "put-rate", "put-rate-blocking",
                                             "put-signal", "fetch-add", "barrier"};

static double one_trial(int v, char *buf, char *src, uint64_t *flag, size_t size, int window,
                        int warm, int iters, uint64_t *seq)
{
    int me = bs_rank(), peer = 1 - me;
    double t0 = 0;
    bs_barrier();
    for (int i = 0; i < warm + iters; i++) {
        if (i == warm)
            t0 = bench_now_us();
        switch (v) {
        case PUT:
            if (me == 0) {
                bs_put(buf, src, size, peer);
                bs_quiet();
            }
            break;
        case GET:
            if (me == 0)
                bs_get(src, buf, size, peer);
            break;
        case PUT_RATE:
            if (me == 0) {
                for (int w = 0; w < window; w++)
                    bs_cput_nbi(buf, src, size, peer);
                bs_cquiet();
            }
            break;
        case PUT_RATE_BLOCKING:
            if (me == 0) {
                for (int w = 0; w < window; w++)
                    bs_cput(buf, src, size, peer);
                bs_cquiet();
            }
            break;
        case PUT_SIGNAL:
            ++*seq;
            if (me == 0) {
                bs_put_signal(buf, src, size, flag, *seq, peer);
                bs_wait_ge(flag, *seq);
            } else {
                bs_wait_ge(flag, *seq);
                bs_put_signal(buf, src, size, flag, *seq, peer);
            }
            break;
        case FETCH_ADD:
            if (me == 0)
                bs_fetch_add((uint64_t *)(void *)buf, 1, peer);
            break;
        default:
            bs_barrier();
            break;
        }
    }
    double us = bench_now_us() - t0;
    bs_barrier();
    if (v == PUT_RATE || v == PUT_RATE_BLOCKING)
        return (double)window * iters / us;            /* millions per second */
    return v == PUT_SIGNAL ? us / iters / 2 : us / iters;
}

int main(int argc, char **argv)
{
    bench_opts_t o = {.trials = 10, .iters = 10000, .warmup = 100, .window = 64, .size = 8};
    if (bs_init() != 0 || bench_parse(argc, argv, &o))
        return 2;
    bench_gather_bindings();
    if (bs_size() != 2 || o.size < 8) {
        if (bs_rank() == 0)
            fprintf(stderr, "shmem_ops: needs exactly 2 PEs and a size of at least 8\n");
        bs_finalize();
        return 2;
    }
    int iters = bench_osu_iters(&o, 10000, 1000), warm = bench_osu_warmup(&o, 100, 10);
    size_t size = o.size;
    char *buf = bs_alloc(size + 64), *src = calloc(1, size);
    uint64_t *flag = bs_alloc(sizeof(uint64_t));
    double *samples = calloc((size_t)o.trials, sizeof(double));
    uint64_t seq = 0;
    /* the rates on every context, nbi and blocking: each trial of one takes
     * its turn with a trial of every other, so that a drift of the machine
     * favours none of the forms compared (ordering options; nbi vs blocking) */
    int nctx = bs_ctx_count(), usable[4] = {0};
    double *rate_samples = calloc((size_t)o.trials * 8, sizeof(double));
    for (int c = 0; c < nctx; c++)
        usable[c] = bs_ctx_use(c) == 0;
    for (int t = 0; t < o.trials; t++)
        for (int c = 0; c < nctx; c++)
            for (int b = 0; b < 2 && usable[c]; b++) {
                bs_ctx_use(c);
                rate_samples[(c * 2 + b) * o.trials + t] =
                    one_trial(b ? PUT_RATE_BLOCKING : PUT_RATE, buf, src, flag, size, o.window,
                              warm, iters, &seq);
            }
    bs_ctx_done();
    for (int v = 0; v < NVARIANTS; v++) {
        int rate = v == PUT_RATE || v == PUT_RATE_BLOCKING;
        int sized = v == PUT || v == GET || rate || v == PUT_SIGNAL;
        for (int c = 0; c < (rate ? nctx : 1); c++) {
            bench_point_t p = {.experiment = "shmem", .impl = BENCH_IMPL,
                               .paradigm = "one-sided", .variant = names[v],
                               .order = rate ? bs_ctx_order(c) : NULL, .np = 2, .pairs = 1,
                               .window = rate ? o.window : 1, .size = sized ? size : 8,
                               .metric = rate ? "rate_Mmsgps" : "latency_us",
                               .unit = rate ? "Mmsg/s" : "us", .iters = iters, .warmup = warm};
            if (v == PUT_SIGNAL && !BS_HAVE_PUT_SIGNAL) {
                if (bs_rank() == 0)
                    bench_skip(&p, "the OpenSHMEM library predates put-with-signal (1.5)");
                continue;
            }
            if (rate && !usable[c]) {
                if (bs_rank() == 0)
                    bench_skip(&p, "the library could not create a context with this option");
                continue;
            }
            double *mine = samples;
            if (rate)
                mine = rate_samples + (c * 2 + (v == PUT_RATE_BLOCKING)) * o.trials;
            else
                for (int t = 0; t < o.trials; t++)
                    samples[t] = one_trial(v, buf, src, flag, p.size, o.window, warm, iters,
                                           &seq);
            if (bs_rank() == 0)
                bench_emit(&p, mine, o.trials);
        }
    }
    free(rate_samples);
    free(samples);
    free(src);
    bs_free(flag);
    bs_free(buf);
    bs_finalize();
    return 0;
}
