/* halo: the halo exchange of Gropp and Thakur (EuroPVM/MPI 2005), time per
 * exchange with 2, 4 or 8 partners, in every variant they measured:
 *
 *   two-sided  sendrecv             Irecv + Isend to each partner, Waitall
 *              psendrecv            the same with persistent requests
 *   one-sided  put-fence            fence; a put to each partner; fence
 *              put-fence-asserts    the same with NOPRECEDE before and
 *                                   NOSTORE|NOPUT|NOSUCCEED after
 *              put-pscw             post + start; puts; complete + wait
 *              put-lock-shared      per partner lock shared, put, unlock;
 *                                   then a barrier so targets know
 *              put-lock-shared-nb   the same without the barrier
 *
 * Partners are the neighbours in a periodic 2-D grid of the ranks (2: left
 * and right in a ring; 4: and up and down; 8: and the diagonals).  With few
 * ranks a neighbour can be the same rank twice, or this rank itself; each
 * direction still has its own buffers and tag, as in the original.  Each
 * trial times many exchanges and reports the average; the value is the
 * median of the trials and stats.min is the paper's min-of-averages.
 *
 * Options: --pairs N (partners: 2, 4 or 8; default all three), --variant
 * NAME (default all), --size BYTES (default 8, 1024 and 16384). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_rma.h"

/* Directions in pairs of opposites: opposite(j) = j ^ 1. */
static const int DX[8] = {+1, -1, 0, 0, +1, -1, +1, -1};
static const int DY[8] = {0, 0, +1, -1, +1, -1, -1, +1};

static int me, np, px, py;

static int neighbour(int j)
{
    int x = me % px, y = me / px;
    x = ((x + DX[j]) % px + px) % px;
    y = ((y + DY[j]) % py + py) % py;
    return y * px + x;
}

/* px * py = np, as square as it goes (MPI_Dims_create's choice). */
static void grid(int partners)
{
    px = np;
    py = 1;
    if (partners == 2)
        return;
    for (int d = 1; d * d <= np; d++)
        if (np % d == 0) {
            py = d;
            px = np / d;
        }
}

typedef struct halo {
    int       n;                 /* partners */
    int       partner[8];
    size_t    len;
    char     *sbuf, *rbuf;       /* n * len each (rbuf: two-sided) */
    char     *win_base;
    bc_win_t  win;               /* n * len per rank, slot j for direction j */
    bc_group_t group;            /* the distinct partners */
    bc_req_t  reqs[16], preqs[16];
} halo_t;

static void sendrecv(halo_t *h)
{
    for (int j = 0; j < h->n; j++) {
        bc_irecv(h->rbuf + (size_t)j * h->len, h->len, h->partner[j], j ^ 1, &h->reqs[j]);
        bc_isend(h->sbuf + (size_t)j * h->len, h->len, h->partner[j], j, &h->reqs[h->n + j]);
    }
    bc_waitall(2 * h->n, h->reqs);
}

#if BC_HAVE_PERSISTENT
static void psendrecv(halo_t *h)
{
    bc_startall(2 * h->n, h->preqs);
    bc_waitall(2 * h->n, h->preqs);
}
#endif

/* Direction j's data goes to slot j ^ 1 at the partner: it arrives from
 * the partner's opposite direction. */
static void puts_all(halo_t *h)
{
    for (int j = 0; j < h->n; j++)
        bc_put(h->sbuf + (size_t)j * h->len, h->len, h->partner[j], (size_t)(j ^ 1) * h->len,
               &h->win);
}

static void put_fence(halo_t *h)
{
    bc_fence(&h->win, 0);
    puts_all(h);
    bc_fence(&h->win, 0);
}

static void put_fence_asserts(halo_t *h)
{
    bc_fence(&h->win, BC_NOPRECEDE);
    puts_all(h);
    bc_fence(&h->win, BC_NOSTORE | BC_NOPUT | BC_NOSUCCEED);
}

static void put_pscw(halo_t *h)
{
    bc_post(&h->win, &h->group);
    bc_start(&h->win, &h->group);
    puts_all(h);
    bc_complete(&h->win);
    bc_wait(&h->win);
}

static void put_lock_nb(halo_t *h)
{
    for (int j = 0; j < h->n; j++) {
        bc_lock_shared(&h->win, h->partner[j]);
        bc_put(h->sbuf + (size_t)j * h->len, h->len, h->partner[j], (size_t)(j ^ 1) * h->len,
               &h->win);
        bc_unlock(&h->win, h->partner[j]);
    }
}

static void put_lock(halo_t *h)
{
    put_lock_nb(h);
    bc_coll_barrier();
}

typedef struct variant {
    const char *name, *paradigm;
    void (*run)(halo_t *h);
} variant_t;

static const variant_t variants[] = {
    {"sendrecv", "two-sided", sendrecv},
#if BC_HAVE_PERSISTENT
    {"psendrecv", "two-sided", psendrecv},
#else
    {"psendrecv", "two-sided", NULL},
#endif
    {"put-fence", "one-sided", put_fence},
    {"put-fence-asserts", "one-sided", put_fence_asserts},
    {"put-pscw", "one-sided", put_pscw},
    {"put-lock-shared", "one-sided", put_lock},
    {"put-lock-shared-nb", "one-sided", put_lock_nb},
};

static void setup(halo_t *h, int partners, size_t len)
{
    grid(partners);
    h->n = partners;
    h->len = len;
    int distinct[8], nd = 0;
    for (int j = 0; j < partners; j++) {
        h->partner[j] = neighbour(j);
        int seen = 0;
        for (int k = 0; k < nd; k++)
            seen |= distinct[k] == h->partner[j];
        if (!seen)
            distinct[nd++] = h->partner[j];
    }
    bc_group_make(&h->group, nd, distinct);
    h->sbuf = bench_buffer((size_t)partners * len);
    h->rbuf = bench_buffer((size_t)partners * len);
    bc_win_alloc((size_t)partners * len, &h->win, (void **)&h->win_base);
#if BC_HAVE_PERSISTENT
    for (int j = 0; j < partners; j++) {
        bc_recv_init(h->rbuf + (size_t)j * len, len, h->partner[j], j ^ 1, &h->preqs[j]);
        bc_send_init(h->sbuf + (size_t)j * len, len, h->partner[j], j, &h->preqs[partners + j]);
    }
#endif
}

static void teardown(halo_t *h)
{
#if BC_HAVE_PERSISTENT
    for (int j = 0; j < 2 * h->n; j++)
        bc_req_free(&h->preqs[j]);
#endif
    bc_win_free(&h->win);
    bc_group_free(&h->group);
    free(h->sbuf);
    free(h->rbuf);
}

int main(int argc, char **argv)
{
    bench_opts_t o = {.trials = 10, .iters = 2000, .warmup = 200, .window = 1, .size = 0};
    if (bc_init(&argc, &argv) != 0 || bench_parse(argc, argv, &o))
        return 2;
    me = bc_rank();
    np = bc_size();
    if (o.pairs && o.pairs != 2 && o.pairs != 4 && o.pairs != 8) {
        fprintf(stderr, "halo: --pairs takes 2, 4 or 8 partners\n");
        return 2;
    }
    int nv = (int)(sizeof(variants) / sizeof(variants[0])), known = o.variant == NULL;
    for (int v = 0; v < nv; v++)
        known |= o.variant && strcmp(o.variant, variants[v].name) == 0;
    if (!known) {
        fprintf(stderr, "halo: unknown --variant %s\n", o.variant);
        return 2;
    }
    static const size_t default_sizes[] = {8, 1024, 16384};
    size_t sizes[3];
    int nsizes = 0;
    if (o.size)
        sizes[nsizes++] = o.size;
    else
        for (int i = 0; i < 3; i++)
            sizes[nsizes++] = default_sizes[i];
    double *samples = calloc((size_t)o.trials, sizeof(double));
    for (int partners = 2; partners <= 8; partners *= 2) {
        if (o.pairs && partners != o.pairs)
            continue;
        for (int si = 0; si < nsizes; si++) {
            halo_t h;
            memset(&h, 0, sizeof(h));
            setup(&h, partners, sizes[si]);
            int iters = bench_scaled_iters(o.iters, sizes[si] * (size_t)partners);
            for (int v = 0; v < nv; v++) {
                const variant_t *var = &variants[v];
                if (o.variant && strcmp(o.variant, var->name) != 0)
                    continue;
                bench_point_t p = {.experiment = "halo", .impl = BENCH_IMPL,
                                   .paradigm = var->paradigm, .variant = var->name,
                                   .np = np, .pairs = partners, .window = 1,
                                   .size = sizes[si], .metric = "time_us", .unit = "us",
                                   .iters = iters};
                if (var->run == NULL) {
                    if (me == 0)
                        bench_skip(&p, "no persistent requests in this library");
                    continue;
                }
                for (int t = -1; t < o.trials; t++) {
                    int n = t < 0 ? o.warmup : iters;
                    bc_barrier();
                    double t0 = bench_now_us();
                    for (int i = 0; i < n; i++)
                        var->run(&h);
                    if (t >= 0)
                        samples[t] = (bench_now_us() - t0) / n;
                }
                if (me == 0)
                    bench_emit(&p, samples, o.trials);
            }
            teardown(&h);
        }
    }
    free(samples);
    bc_finalize();
    return 0;
}
