/* regcost: what it costs to make memory remotely accessible, and what it
 * costs to use memory that was not (IPDPS 2014, Figures 6 and 9).
 *
 * Creation cost vs concurrency (Figure 6): every rank at once creates and
 * frees windows of `size` bytes; the time per call at rank 0, for
 *   allocate / allocate-free      the library allocates (MPI_Win_allocate,
 *                                 ordo_region_alloc)
 *   create / create-free          the program's memory (MPI_Win_create,
 *                                 ordo_region_create)
 *   dynamic / dynamic-detach      attach to / detach from a dynamic window
 *                                 made once (MPI_Win_attach,
 *                                 ordo_region_attach)
 * np is the concurrency; run at several np to see it grow.
 *
 * Registered vs unregistered (Figure 9, "shared" vs "non-shared"): np/2
 * pairs, each rank gets a window of W blocks of `size` bytes from its
 * partner, then flushes, both directions at once; aggregate bandwidth
 * (decimal MB/s) when
 *   get-shared           the destination is window memory too
 *   get-non-shared       the destination is plain malloc memory
 *   get-target-created   ... and the target window is the program's
 *                        memory (create), not allocated by the library
 * --variant picks one of these names. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_rma.h"

static const char *const get_variants[] = {"get-shared", "get-non-shared", "get-target-created"};

static void emit(const char *variant, const char *metric, const char *unit, size_t size, int np,
                 int pairs, int W, int iters, int warmup, const double *samples, int n)
{
    if (bc_rank() != 0)
        return;
    bench_point_t p = {.experiment = "regcost", .impl = BENCH_IMPL, .paradigm = "one-sided",
                       .variant = variant, .np = np, .pairs = pairs, .window = W, .size = size,
                       .metric = metric, .unit = unit, .iters = iters, .warmup = warmup};
    bench_emit(&p, samples, n);
}

static int wanted(const char *variant, const char *name)
{
    if (variant == NULL)
        return 1;
    size_t n = strlen(name);
    /* "create" also selects "create-free" */
    return strncmp(variant, name, n) == 0 && (variant[n] == '\0' || variant[n] == '-');
}

/* Figure 6: create and free, each timed on its own. */
static void creation(const bench_opts_t *o, int kind, double *made, double *freed)
{
    int np = bc_size();
    const char *name = bc_win_kind_names[kind];
    char free_name[32];
    snprintf(free_name, sizeof(free_name), "%s-%s", name,
             kind == BC_WIN_DYNAMIC ? "detach" : "free");
    if (!wanted(o->variant, name))
        return;
    const char *why = bc_win_unsupported(kind);
    if (why) {
        if (bc_rank() == 0) {
            bench_point_t p = {.experiment = "regcost", .impl = BENCH_IMPL,
                               .paradigm = "one-sided", .variant = name, .np = np, .pairs = 0,
                               .window = 1, .size = o->size, .metric = "time_us", .unit = "us"};
            bench_skip(&p, why);
            p.variant = free_name;
            bench_skip(&p, why);
        }
        return;
    }
    /* the program's memory is allocated once, outside the timing; so is a
     * dynamic window: only the library's calls are timed */
    char *mem = kind == BC_WIN_ALLOCATE ? NULL : bench_buffer(o->size);
    bc_dyn_t dyn;
    if (kind == BC_WIN_DYNAMIC)
        bc_dyn_create(&dyn);
    int iters = bench_scaled_iters(o->iters, o->size / 64 + 1);
    for (int t = -1; t < o->trials; t++) {
        double in = 0, out = 0;
        int n = t < 0 ? o->warmup : iters;
        for (int i = 0; i < n; i++) {
            bc_barrier();
            double t0 = bench_now_us(), t1, t2;
            if (kind == BC_WIN_DYNAMIC) {
                bc_dyn_attach(&dyn, mem, o->size);
                t1 = bench_now_us();
                bc_dyn_detach(&dyn, mem);
                t2 = bench_now_us();
                in += t1 - t0;
                out += t2 - t1;
                continue;
            }
            bc_win_t w;
            void *base;
            if (kind == BC_WIN_CREATE)
                bc_win_create_on(mem, o->size, 0, &w);
            else
                bc_win_make(BC_WIN_ALLOCATE, o->size, BC_NOZERO, &w, &base);
            t1 = bench_now_us();
            bc_win_free(&w);
            t2 = bench_now_us();
            in += t1 - t0;
            out += t2 - t1;
        }
        if (t >= 0) {
            made[t] = in / n;
            freed[t] = out / n;
        }
    }
    if (kind == BC_WIN_DYNAMIC)
        bc_dyn_free(&dyn);
    free(mem);
    emit(name, "time_us", "us", o->size, np, 0, 1, iters, o->warmup, made, o->trials);
    emit(free_name, "time_us", "us", o->size, np, 0, 1, iters, o->warmup, freed, o->trials);
}

static double get_trial(bc_win_t *w, char *dst, size_t size, int W, int partner, int iters)
{
    bc_barrier();
    double t0 = bench_now_us();
    for (int i = 0; i < iters; i++) {
        for (int j = 0; j < W; j++)
            bc_get(dst + (size_t)j * size, size, partner, (size_t)j * size, w);
        bc_flush(w, partner);
    }
    bc_coll_barrier();
    return bench_now_us() - t0;
}

/* Figure 9: get bandwidth by where the memory came from. */
static void registered(const bench_opts_t *o, double *samples)
{
    int np = bc_size();
    if (np % 2)
        return;
    int pairs = np / 2, partner = (bc_rank() + pairs) % np, W = o->window;
    size_t bytes = o->size * (size_t)W;
    int iters = bench_scaled_iters(o->iters, bytes / 64 + 1);
    for (int v = 0; v < 3; v++) {
        if (o->variant && strcmp(o->variant, get_variants[v]) != 0)
            continue;
        bc_win_t target, dstwin;
        char *tbase, *dst;
        bc_win_make(v == 2 ? BC_WIN_CREATE : BC_WIN_ALLOCATE, bytes, 0, &target, (void **)&tbase);
        if (v == 0)
            bc_win_make(BC_WIN_ALLOCATE, bytes, 0, &dstwin, (void **)&dst);
        else
            dst = bench_buffer(bytes);
        bc_lock_all(&target);
        get_trial(&target, dst, o->size, W, partner, iters / 10 + 1);
        for (int t = 0; t < o->trials; t++)
            samples[t] = (double)bytes * iters * np /
                         get_trial(&target, dst, o->size, W, partner, iters);
        bc_unlock_all(&target);
        bc_barrier();
        emit(get_variants[v], "bandwidth_MBps", "MB/s", o->size, np, pairs, W, iters,
             iters / 10 + 1, samples, o->trials);
        if (v == 0)
            bc_win_free(&dstwin);
        else
            free(dst);
        bc_win_free(&target);
    }
}

int main(int argc, char **argv)
{
    bench_opts_t o = {.trials = 5, .iters = 200, .warmup = 10, .window = 16, .size = 4096};
    if (bc_init(&argc, &argv) != 0 || bench_parse(argc, argv, &o))
        return 2;
    int known = o.variant == NULL;
    for (int k = 0; k < BC_WIN_KINDS; k++)
        known |= wanted(o.variant, bc_win_kind_names[k]);
    for (int v = 0; v < 3; v++)
        known |= o.variant && strcmp(o.variant, get_variants[v]) == 0;
    if (!known) {
        if (bc_rank() == 0)
            fprintf(stderr, "regcost: unknown --variant %s (allocate, create, dynamic, "
                            "get-shared, get-non-shared, get-target-created)\n", o.variant);
        bc_finalize();
        return 2;
    }
    double *a = calloc((size_t)o.trials, sizeof(double));
    double *b = calloc((size_t)o.trials, sizeof(double));
    for (int k = 0; k < BC_WIN_KINDS; k++)
        creation(&o, k, a, b);
    registered(&o, a);
    free(a);
    free(b);
    bc_finalize();
    return 0;
}
