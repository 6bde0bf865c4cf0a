/* overlap: how much communication hides behind computation, by the
 * overlapped-fraction formula of Shan et al. (PGAS 2011, Figure 2):
 *
 *   fraction = 1 - (T_total - max(T_comp, T_comm)) / min(T_comp, T_comm)
 *
 * 1 when communication hides entirely behind computation (T_total equals
 * the longer of the two), 0 when they add up.  Rank pairs (i, i + np/2)
 * exchange `size` bytes each way:
 *
 *   put    a put to the partner, then a flush (one-sided)
 *   isend  a receive and a send posted, then wait for both (two-sided)
 *
 * T_comm is the exchange alone; T_comp a compute loop calibrated to last
 * about T_comm; T_total the exchange issued, the loop run, then completed.
 * Each trial's fraction comes from averages over --iters exchanges and is
 * reported as measured: 1 when the exchange hides wholly behind the
 * computation, 0 when not at all, below 0 when issuing both together made
 * them slower than one after the other (the ranks compete for the cores),
 * and a little above 1 from timing noise.  The
 * program also reports the time to issue the operation alone (variant
 * put-issue / isend-issue, time_us): the LogGP overhead o. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_rma.h"

static volatile double sink;

static void compute(long units)
{
    double x = 1.0;
    for (long i = 0; i < units; i++)
        x = x * 1.0000001 + 1e-9;
    sink = x;
}

/* Loop units per microsecond on this core. */
static double calibrate(void)
{
    long units = 1000;
    for (;;) {
        double t0 = bench_now_us();
        compute(units);
        double us = bench_now_us() - t0;
        if (us > 2000)
            return (double)units / us;
        units *= 4;
    }
}

typedef struct ctx {
    bc_win_t w;
    char    *sbuf, *rbuf;
    size_t   size;
    int      partner, two_sided;
    bc_req_t reqs[2];
} ctx_t;

static void issue(ctx_t *c)
{
    if (c->two_sided) {
        bc_irecv(c->rbuf, c->size, c->partner, 9, &c->reqs[0]);
        bc_isend(c->sbuf, c->size, c->partner, 9, &c->reqs[1]);
    } else {
        bc_put(c->sbuf, c->size, c->partner, 0, &c->w);
    }
}

static void finish(ctx_t *c)
{
    if (c->two_sided)
        bc_waitall(2, c->reqs);
    else
        bc_flush(&c->w, c->partner);
}

/* Average microseconds per exchange: with `units` of computation between
 * issue and completion (units < 0: none, and the time of the issue alone
 * goes to *issue_us). */
static double exchange(ctx_t *c, long units, int iters, double *issue_us)
{
    bc_barrier();
    double t0 = bench_now_us(), issuing = 0;
    for (int i = 0; i < iters; i++) {
        double a = bench_now_us();
        issue(c);
        issuing += bench_now_us() - a;
        if (units > 0)
            compute(units);
        finish(c);
    }
    double us = (bench_now_us() - t0) / iters;
    if (issue_us)
        *issue_us = issuing / iters;
    return us;
}

int main(int argc, char **argv)
{
    bench_opts_t o = {.trials = 7, .iters = 2000, .warmup = 200, .window = 1, .size = 8};
    if (bc_init(&argc, &argv) != 0 || bench_parse(argc, argv, &o))
        return 2;
    int me = bc_rank(), np = bc_size();
    if (np < 2 || np % 2) {
        if (me == 0)
            fprintf(stderr, "overlap: needs an even number of ranks\n");
        bc_finalize();
        return 2;
    }
    if (o.variant && strcmp(o.variant, "put") && strcmp(o.variant, "isend")) {
        if (me == 0)
            fprintf(stderr, "overlap: unknown --variant %s (put or isend)\n", o.variant);
        bc_finalize();
        return 2;
    }
    ctx_t c = {.size = o.size, .partner = (me + np / 2) % np};
    char *base;
    bc_win_make(BC_WIN_ALLOCATE, o.size, 0, &c.w, (void **)&base);
    c.sbuf = bench_buffer(o.size);
    c.rbuf = bench_buffer(o.size);
    double per_us = calibrate();
    double *frac = calloc((size_t)o.trials, sizeof(double));
    double *iss = calloc((size_t)o.trials, sizeof(double));
    int iters = bench_scaled_iters(o.iters, o.size);
    bc_lock_all(&c.w);
    for (c.two_sided = 0; c.two_sided <= 1; c.two_sided++) {
        const char *name = c.two_sided ? "isend" : "put";
        if (o.variant && strcmp(o.variant, name) != 0)
            continue;
        exchange(&c, -1, iters / 10 + 1, NULL);
        for (int t = 0; t < o.trials; t++) {
            double comm = exchange(&c, -1, iters, &iss[t]);
            long units = (long)(comm * per_us);
            double t0 = bench_now_us();
            compute(units);
            double comp = bench_now_us() - t0;
            double total = exchange(&c, units, iters, NULL);
            double lo = comm < comp ? comm : comp, hi = comm < comp ? comp : comm;
            double f = lo > 0 ? 1.0 - (total - hi) / lo : 0;
            frac[t] = f;
        }
        if (me == 0) {
            char issue_name[32];
            snprintf(issue_name, sizeof(issue_name), "%s-issue", name);
            bench_point_t p = {.experiment = "overlap", .impl = BENCH_IMPL,
                               .paradigm = c.two_sided ? "two-sided" : "one-sided",
                               .variant = name, .np = np, .pairs = np / 2, .window = 1,
                               .size = o.size, .metric = "fraction", .unit = "1",
                               .iters = iters, .warmup = iters / 10 + 1};
            bench_emit(&p, frac, o.trials);
            p.variant = issue_name;
            p.metric = "time_us";
            p.unit = "us";
            bench_emit(&p, iss, o.trials);
        }
    }
    bc_unlock_all(&c.w);
    bc_barrier();
    free(frac);
    free(iss);
    free(c.sbuf);
    free(c.rbuf);
    bc_win_free(&c.w);
    bc_finalize();
    return 0;
}
