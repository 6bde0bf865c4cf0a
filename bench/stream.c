/* stream: STREAM's four kernels with the operands at another rank, read by
 * one-sided gets (Shan et al., PGAS 2011, Figure 4: STREAM between two
 * nodes, one pair).  Rank i (i < np/2) computes into its local array from
 * arrays a, b, c of `size` bytes each that live at rank i + np/2:
 *
 *   copy   c = a'          scale  b = q * c'
 *   add    c = a' + b'     triad  a = b' + q * c'      (' : remote)
 *
 * naive      get each whole remote operand, flush, then compute
 * pipelined  chunks of 64 KiB, the gets of chunk k+1 in flight while
 *            chunk k is computed (double buffering)
 *
 * Bandwidth as STREAM counts it (copy and scale move 2 arrays, add and
 * triad 3; decimal MB/s) per computing rank, summed over the pairs.
 * Variants "<kernel>-naive", "<kernel>-pipelined"; the results are checked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_rma.h"

#define CHUNK (64u << 10)
#define Q 3.0

enum { COPY, SCALE, ADD, TRIAD, NKERNELS };
static const char *const kernels[NKERNELS] = {"copy", "scale", "add", "triad"};
static const int operands[NKERNELS][2] = {{0, -1}, {2, -1}, {0, 1}, {1, 2}};
static const int arrays_moved[NKERNELS] = {2, 2, 3, 3};

typedef struct ctx {
    bc_win_t w;           /* a, b, c at the owner, one after another */
    double  *remote;      /* this rank's a, b, c (the partner reads them) */
    double  *in[2][2];    /* [buffer][operand] staging for the gets */
    double  *out;
    size_t   n;           /* doubles per array */
    int      partner;
} ctx_t;

static void kernel(int k, double *out, const double *x, const double *y, size_t n)
{
    switch (k) {
    case COPY:  for (size_t i = 0; i < n; i++) out[i] = x[i]; break;
    case SCALE: for (size_t i = 0; i < n; i++) out[i] = Q * x[i]; break;
    case ADD:   for (size_t i = 0; i < n; i++) out[i] = x[i] + y[i]; break;
    case TRIAD: for (size_t i = 0; i < n; i++) out[i] = x[i] + Q * y[i]; break;
    }
}

/* Elements [first, first + count) of kernel k's remote operands into
 * staging buffer buf, at the same positions there. */
static void fetch(ctx_t *c, int k, int buf, size_t first, size_t count)
{
    for (int j = 0; j < 2; j++) {
        int arr = operands[k][j];
        if (arr >= 0)
            bc_get(c->in[buf][j] + first, count * 8, c->partner,
                   ((size_t)arr * c->n + first) * 8, &c->w);
    }
}

static void run(ctx_t *c, int k, int pipelined)
{
    if (!pipelined) {
        fetch(c, k, 0, 0, c->n);
        bc_flush(&c->w, c->partner);
        kernel(k, c->out, c->in[0][0], c->in[0][1], c->n);
        return;
    }
    size_t per = CHUNK / 8, chunks = (c->n + per - 1) / per;
    fetch(c, k, 0, 0, per < c->n ? per : c->n);
    bc_flush(&c->w, c->partner);
    for (size_t ch = 0; ch < chunks; ch++) {
        size_t first = ch * per, count = first + per <= c->n ? per : c->n - first;
        int cur = (int)(ch % 2);
        if (ch + 1 < chunks) {   /* the next chunk, into the other buffer */
            size_t nf = first + per;
            fetch(c, k, 1 - cur, nf, nf + per <= c->n ? per : c->n - nf);
        }
        kernel(k, c->out + first, c->in[cur][0] + first, c->in[cur][1] + first, count);
        bc_flush(&c->w, c->partner);
    }
}

static int check(const ctx_t *c, int k)
{
    for (size_t i = 0; i < c->n; i += c->n / 7 + 1) {
        double a = 1.0 + (double)i, b = 2.0, cc = 0.5 * (double)i, want = 0;
        switch (k) {
        case COPY:  want = a; break;
        case SCALE: want = Q * cc; break;
        case ADD:   want = a + b; break;
        case TRIAD: want = b + Q * cc; break;
        }
        if (c->out[i] != want)
            return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    bench_opts_t o = {.trials = 7, .iters = 20, .warmup = 2, .window = 1, .size = 8u << 20};
    if (bc_init(&argc, &argv) != 0 || bench_parse(argc, argv, &o))
        return 2;
    int me = bc_rank(), np = bc_size();
    if (np < 2 || np % 2 || o.size < 8 || o.size % 8) {
        if (me == 0)
            fprintf(stderr, "stream: needs an even number of ranks and a --size that is a "
                            "multiple of 8\n");
        bc_finalize();
        return 2;
    }
    ctx_t c = {.n = o.size / 8, .partner = (me + np / 2) % np};
    int computing = me < np / 2;
    bc_win_make(BC_WIN_ALLOCATE, 3 * o.size, 0, &c.w, (void **)&c.remote);
    for (size_t i = 0; i < c.n; i++) {
        c.remote[i] = 1.0 + (double)i;
        c.remote[c.n + i] = 2.0;
        c.remote[2 * c.n + i] = 0.5 * (double)i;
    }
    for (int b = 0; b < 2; b++)
        for (int j = 0; j < 2; j++)
            c.in[b][j] = (double *)bench_buffer(o.size);
    c.out = (double *)bench_buffer(o.size);
    bc_barrier();
    bc_lock_all(&c.w);
    double *samples = calloc((size_t)o.trials, sizeof(double));
    int iters = bench_scaled_iters(o.iters, o.size / 1024), bad = 0;
    for (int k = 0; k < NKERNELS; k++) {
        for (int pipelined = 0; pipelined <= 1; pipelined++) {
            char name[32];
            snprintf(name, sizeof(name), "%s-%s", kernels[k], pipelined ? "pipelined" : "naive");
            if (o.variant && strcmp(o.variant, name) != 0)
                continue;
            for (int t = -1; t < o.trials; t++) {
                int n = t < 0 ? o.warmup : iters;
                bc_barrier();
                double t0 = bench_now_us();
                if (computing) {
                    for (int i = 0; i < n; i++)
                        run(&c, k, pipelined);
                    bad |= check(&c, k);
                }
                double us = bench_now_us() - t0;
                if (t >= 0)
                    samples[t] = (double)arrays_moved[k] * (double)o.size * n * (np / 2) / us;
            }
            if (me == 0) {
                bench_point_t p = {.experiment = "stream", .impl = BENCH_IMPL,
                                   .paradigm = "one-sided", .variant = name, .np = np,
                                   .pairs = np / 2, .window = 1, .size = o.size,
                                   .metric = "bandwidth_MBps", .unit = "MB/s", .iters = iters};
                bench_emit(&p, samples, o.trials);
            }
        }
    }
    bc_unlock_all(&c.w);
    bc_barrier();
    if (bad)
        fprintf(stderr, "stream: rank %d computed a wrong result\n", me);
    free(samples);
    for (int b = 0; b < 2; b++)
        for (int j = 0; j < 2; j++)
            free(c.in[b][j]);
    free(c.out);
    bc_win_free(&c.w);
    bc_finalize();
    return bad ? 1 : 0;
}
