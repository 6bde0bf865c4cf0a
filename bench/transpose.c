/* transpose: the all-to-all of NAS FT's transpose, two-sided against
 * one-sided gets (Shan et al., PGAS 2011: FT with the MPI_Alltoall
 * replaced by gets).  Each rank holds np blocks of `size` bytes, block p
 * bound for rank p; a transpose moves every block to its rank and then
 * reorders the received elements locally (16-byte complex numbers, block
 * by block into interleaved order, the same work in every variant):
 *
 *   alltoall    the library's all-to-all (MPI_Alltoall, ordo_coll_alltoall)
 *   get         a barrier (sources ready), a get of this rank's block from
 *               every rank, flush_all, a barrier (sources free again): the
 *               CAF "sync all; get; sync all" in one lock_all epoch
 *   get-fence   fence; the gets; fence
 *
 * The barriers are the library's (MPI_Barrier, ordo_coll_barrier).  Time
 * per transpose in microseconds.  Every trial checks the data. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_rma.h"

static const char *const variants[] = {"alltoall", "get", "get-fence"};

typedef struct ctx {
    bc_win_t w;
    char    *src;      /* window memory: block p for rank p */
    char    *recv, *out;
    size_t   size;
    int      me, np;
} ctx_t;

static void reorder(ctx_t *c)
{
    size_t elems = c->size / 16;
    for (int p = 0; p < c->np; p++)
        for (size_t e = 0; e < elems; e++)
            memcpy(c->out + (e * (size_t)c->np + (size_t)p) * 16,
                   c->recv + (size_t)p * c->size + e * 16, 16);
}

static void transpose(ctx_t *c, int v)
{
    if (v == 0) {
        bc_alltoall(c->src, c->recv, c->size);
    } else {
        if (v == 1)
            bc_coll_barrier();
        else
            bc_fence(&c->w, 0);
        for (int k = 0; k < c->np; k++) {
            int p = (c->me + k) % c->np;   /* spread the load over sources */
            bc_get(c->recv + (size_t)p * c->size, c->size, p, (size_t)c->me * c->size, &c->w);
        }
        if (v == 1) {
            bc_flush_all(&c->w);
            bc_coll_barrier();
        } else {
            bc_fence(&c->w, 0);
        }
    }
    reorder(c);
}

static int check(const ctx_t *c)
{
    for (int p = 0; p < c->np; p++) {
        uint32_t tag[2];
        memcpy(tag, c->recv + (size_t)p * c->size, 8);
        if (tag[0] != (uint32_t)p || tag[1] != (uint32_t)c->me)
            return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    bench_opts_t o = {.trials = 7, .iters = 500, .warmup = 50, .window = 1, .size = 4096};
    if (bc_init(&argc, &argv) != 0 || bench_parse(argc, argv, &o))
        return 2;
    ctx_t c = {.me = bc_rank(), .np = bc_size(), .size = o.size};
    if (o.size < 16 || o.size % 16) {
        if (c.me == 0)
            fprintf(stderr, "transpose: --size must be a multiple of 16 (complex numbers)\n");
        bc_finalize();
        return 2;
    }
    int known = o.variant == NULL;
    for (int v = 0; v < 3; v++)
        known |= o.variant && strcmp(o.variant, variants[v]) == 0;
    if (!known) {
        if (c.me == 0)
            fprintf(stderr, "transpose: unknown --variant %s (alltoall, get, get-fence)\n",
                    o.variant);
        bc_finalize();
        return 2;
    }
    size_t bytes = o.size * (size_t)c.np;
    bc_win_make(BC_WIN_ALLOCATE, bytes, BC_EPOCHS, &c.w, (void **)&c.src);
    c.recv = bench_buffer(bytes);
    c.out = bench_buffer(bytes);
    for (int p = 0; p < c.np; p++) {
        uint32_t tag[2] = {(uint32_t)c.me, (uint32_t)p};
        memcpy(c.src + (size_t)p * o.size, tag, 8);
    }
    bc_barrier();
    double *samples = calloc((size_t)o.trials, sizeof(double));
    int iters = bench_scaled_iters(o.iters, bytes), bad = 0;
    for (int v = 0; v < 3; v++) {
        if (o.variant && strcmp(o.variant, variants[v]) != 0)
            continue;
        if (v == 1)
            bc_lock_all(&c.w);
        else if (v == 2)
            bc_fence(&c.w, 0);
        for (int t = -1; t < o.trials; t++) {
            int n = t < 0 ? o.warmup : iters;
            memset(c.recv, 0, bytes);
            bc_barrier();
            double t0 = bench_now_us();
            for (int i = 0; i < n; i++)
                transpose(&c, v);
            if (t >= 0)
                samples[t] = (bench_now_us() - t0) / n;
            bad |= check(&c);
        }
        if (v == 1)
            bc_unlock_all(&c.w);
        else if (v == 2)
            bc_fence(&c.w, BC_NOSUCCEED);
        if (c.me == 0) {
            bench_point_t p = {.experiment = "transpose", .impl = BENCH_IMPL,
                               .paradigm = v ? "one-sided" : "two-sided",
                               .variant = variants[v], .np = c.np,
                               .pairs = 0, .window = 1, .size = o.size, .metric = "time_us",
                               .unit = "us", .iters = iters};
            bench_emit(&p, samples, o.trials);
        }
    }
    if (bad)
        fprintf(stderr, "transpose: rank %d received a wrong block\n", c.me);
    free(samples);
    free(c.recv);
    free(c.out);
    bc_win_free(&c.w);
    bc_finalize();
    return bad ? 1 : 0;
}
