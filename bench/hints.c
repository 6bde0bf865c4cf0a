/* hints (MPI only): what MPI-4's ordering hints buy, each measured with
 * and without it in one launch, the two taking turns trial by trial so
 * that a drift of the machine favours neither.  --variant picks one:
 *   overtaking  message rate as msgrate measures it (rank 0 sends windows
 *               of W MPI_Isend to rank 1, which posts W MPI_Irecv and
 *               answers each window with 4 bytes; a barrier before each
 *               window), on a communicator from MPI_Comm_dup_with_info
 *               without and with mpi_assert_allow_overtaking=true;
 *   accumulate  rank 0 issues windows of W MPI_Accumulate (MPI_SUM of
 *               size/8 uint64 elements, to distinct places) to rank 1,
 *               then MPI_Win_flush, in a lock_all epoch, on a window from
 *               MPI_Win_allocate without and with accumulate_ordering=none;
 *   put         the same with MPI_Put of size bytes (MPI orders no puts,
 *               so the hint may buy nothing here: measured to show it).
 * Records: experiment "hints", variant "<measure>" and "<measure> with
 * <hint>", rates in millions of operations per second. */
#ifndef BENCH_MPI
#error "hints measures MPI's info hints: build it with an MPI (BENCH_MPI)"
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_comm.h"
#include "bench_common.h"

enum { OVERTAKING, ACCUMULATE, PUT, MEASURES };
static const char *const measure_names[MEASURES] = {"isend", "accumulate", "put"};
static const char *const hint_names[MEASURES] = {
    "mpi_assert_allow_overtaking", "accumulate_ordering=none", "accumulate_ordering=none"};

typedef struct trial_arg {
    int                 measure;
    const bench_opts_t *o;
    MPI_Comm            comm;    /* overtaking */
    MPI_Win             win;     /* accumulate, put */
    char               *sbuf, *rbuf;
    MPI_Request        *reqs;
} trial_arg_t;

/* iters windows; every rank calls it; rank 0's time counts */
static double run_trial(void *arg, int iters)
{
    const trial_arg_t *a = arg;
    const bench_opts_t *o = a->o;
    int me, W = o->window, n = (int)o->size;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    double total = 0;
    for (int i = 0; i < iters; i++) {
        if (a->measure == OVERTAKING) {
            char ack[4] = {0};
            MPI_Barrier(a->comm);
            double t0 = bench_now_us();
            if (me == 0) {
                for (int w = 0; w < W; w++)
                    MPI_Isend(a->sbuf, n, MPI_BYTE, 1, 4, a->comm, &a->reqs[w]);
                bc_waitall(W, a->reqs);
                MPI_Recv(ack, 4, MPI_BYTE, 1, 5, a->comm, MPI_STATUS_IGNORE);
            } else {
                for (int w = 0; w < W; w++)
                    MPI_Irecv(a->rbuf, n, MPI_BYTE, 0, 4, a->comm, &a->reqs[w]);
                bc_waitall(W, a->reqs);
                MPI_Send(ack, 4, MPI_BYTE, 0, 5, a->comm);
            }
            total += bench_now_us() - t0;
        } else if (me == 0) {
            /* one-sided: rank 0 alone issues (and times) */
            double t0 = bench_now_us();
            for (int w = 0; w < W; w++) {
                MPI_Aint disp = (MPI_Aint)w * (MPI_Aint)o->size;
                if (a->measure == PUT)
                    MPI_Put(a->sbuf, n, MPI_BYTE, 1, disp, n, MPI_BYTE, a->win);
                else
                    MPI_Accumulate(a->sbuf, n / 8, MPI_UINT64_T, 1, disp, n / 8,
                                   MPI_UINT64_T, MPI_SUM, a->win);
            }
            MPI_Win_flush(1, a->win);
            total += bench_now_us() - t0;
        }
    }
    return total;
}

/* The slowest rank's pace rules the two-sided rounds: both stop together. */
static double agree(double v) { return bc_max_all(v); }

int main(int argc, char **argv)
{
    bench_opts_t o = {.trials = 10, .iters = 100, .warmup = 10, .window = 64, .size = 8};
    if (bc_init(&argc, &argv) != 0 || bench_parse(argc, argv, &o))
        return 2;
    int me = bc_rank(), measure = -1;
    for (int m = 0; m < MEASURES && o.variant; m++)
        if (strcmp(o.variant, m == OVERTAKING ? "overtaking" : measure_names[m]) == 0)
            measure = m;
    const char *why = bc_size() != 2                   ? "needs 2 ranks"
                      : measure < 0                    ? "--variant overtaking, accumulate or put"
                      : measure != OVERTAKING && o.size % 8 ? "--size: a multiple of 8 (uint64)"
                                                       : NULL;
    if (why) {
        if (me == 0)
            fprintf(stderr, "hints: %s\n", why);
        bc_finalize();
        return 2;
    }
    size_t bytes = o.size ? o.size : 1;
    trial_arg_t arg[2];
    for (int h = 0; h < 2; h++) {
        memset(&arg[h], 0, sizeof(arg[h]));
        arg[h].measure = measure;
        arg[h].o = &o;
        arg[h].sbuf = bench_buffer(bytes);
        arg[h].rbuf = bench_buffer(bytes);
        memset(arg[h].sbuf, 1, bytes);
        arg[h].reqs = calloc((size_t)o.window, sizeof(MPI_Request));
        MPI_Info info = MPI_INFO_NULL;
        if (h) {
            MPI_Info_create(&info);
            if (measure == OVERTAKING)
                MPI_Info_set(info, "mpi_assert_allow_overtaking", "true");
            else
                MPI_Info_set(info, "accumulate_ordering", "none");
        }
        if (measure == OVERTAKING) {
            MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &arg[h].comm);
        } else {
            void *base;
            MPI_Win_allocate((MPI_Aint)(o.size * (size_t)o.window + 8), 1, info,
                             MPI_COMM_WORLD, &base, &arg[h].win);
            memset(base, 0, o.size * (size_t)o.window + 8);
            MPI_Win_lock_all(0, arg[h].win);
        }
        if (info != MPI_INFO_NULL)
            MPI_Info_free(&info);
    }
    /* each form's pace sets its own count, within a trial's time budget */
    int iters[2], warm = bench_osu_warmup(&o, 10, 2);
    for (int h = 0; h < 2; h++) {
        bc_barrier();
        double pace = bench_warm_up(run_trial, &arg[h], warm,
                                    measure == OVERTAKING ? agree : NULL);
        iters[h] = bench_budget_iters(bench_osu_iters(&o, 100, 20), bc_max_all(pace));
    }
    double *samples = calloc(2 * (size_t)o.trials, sizeof(double));
    for (int t = 0; t < o.trials; t++)
        for (int k = 0; k < 2; k++) {
            int h = (t + k) % 2;   /* which goes first alternates */
            bc_barrier();
            double us = run_trial(&arg[h], iters[h]);
            samples[h * o.trials + t] = (double)iters[h] * o.window / us;   /* M ops/s */
        }
    bc_barrier();
    for (int h = 0; h < 2 && me == 0; h++) {
        char variant[96];
        snprintf(variant, sizeof(variant), "%s%s%s", measure_names[measure],
                 h ? " with " : "", h ? hint_names[measure] : "");
        bench_point_t p = {.experiment = "hints", .impl = BENCH_IMPL,
                           .paradigm = measure == OVERTAKING ? "two-sided" : "one-sided",
                           .variant = variant, .np = 2, .pairs = 1, .window = o.window,
                           .size = o.size, .metric = "rate_Mmsgps", .unit = "Mmsg/s",
                           .iters = iters[h], .warmup = warm};
        bench_emit(&p, samples + h * o.trials, o.trials);
    }
    for (int h = 0; h < 2; h++) {
        if (measure == OVERTAKING) {
            MPI_Comm_free(&arg[h].comm);
        } else {
            MPI_Win_unlock_all(arg[h].win);
            MPI_Win_free(&arg[h].win);
        }
        free(arg[h].sbuf);
        free(arg[h].rbuf);
        free(arg[h].reqs);
    }
    free(samples);
    bc_finalize();
    return 0;
}
