/* Benchmark harness: timing, repeated trials, statistics and the
 * "ordo-bench/1" JSON line every program prints (one line per measured
 * point, raw per-trial samples and the environment included). */
#ifndef ORDO_BENCH_COMMON_H
#define ORDO_BENCH_COMMON_H

#include <stddef.h>
#include <stdint.h>

#define BENCH_SCHEMA "ordo-bench/1"

typedef struct bench_point {
    const char *experiment;   /* put_latency, msgrate, put_bw, ... */
    const char *impl;         /* ordo, memcpy */
    const char *paradigm;     /* one-sided, two-sided, local */
    const char *variant;      /* NULL or a pattern / sync mode */
    const char *order;        /* strict, default, relaxed, or NULL */
    int         np, pairs, window;
    size_t      size;
    const char *metric;       /* latency_us, bandwidth_MBps, rate_Mmsgps, time_us */
    const char *unit;
    int         iters;        /* timed iterations per trial (0: --iters as given) */
    int         warmup;       /* untimed ones before (0: --warmup as given) */
} bench_point_t;

typedef struct bench_stats {
    double median, min, max, mean, p99;
} bench_stats_t;

/* Microseconds on the clock the library's own benchmarks use (MPI_Wtime
 * in the MPI builds, as the OSU benchmarks time; CLOCK_MONOTONIC for ordo). */
double bench_now_us(void);
void   bench_stats_compute(const double *samples, int n, bench_stats_t *out);
/* Print one JSON line to stdout: point, value = median of samples. */
void   bench_emit(const bench_point_t *p, const double *samples, int n);

/* Print one JSON line for a point that was not measured, and why (a
 * feature the library lacks): value null, "skipped" the reason. */
void   bench_skip(const bench_point_t *p, const char *reason);

/* Collective, once after the library's init (bc_init calls it): learns
 * every rank's CPU binding (sched_getaffinity), which the records carry.
 * 0, or -1 when the exchange failed. */
int bench_gather_bindings(void);

/* Options shared by the programs: --trials N --iters N --warmup N --window W
 * --size BYTES --pairs N --variant NAME (pairs and variant: 0 / NULL unless
 * given; each program says what they select).  Unknown options are an
 * error naming the option. */
typedef struct bench_opts {
    int         trials, iters, warmup, window;
    size_t      size;
    int         pairs;
    const char *variant;
    int         iters_given, warmup_given;   /* set by bench_parse */
} bench_opts_t;
int bench_parse(int argc, char **argv, bench_opts_t *o);

/* Iterations for a size: the given count up to 8 KiB, fewer above so that
 * large sizes take about as long (at least 20). */
int   bench_scaled_iters(int iters, size_t size);
/* A timed trial's budget: the ordering experiments' slow points (a strict
 * stream over the network waits for every operation) would otherwise take
 * minutes at the iteration count the fast ones need. */
#define BENCH_TRIAL_BUDGET_US 200000.0
/* One timed run of iters iterations, in microseconds. */
typedef double (*bench_trial_fn)(void *arg, int iters);
/* Warm up: trial in rounds of 1, 2, 4 ... iterations until warm have run
 * or a trial's budget has passed, so that a slow point warms up in a
 * fraction of a second however large warm is.  Returns the pace of the
 * last round, microseconds per iteration.  agree (NULL when one rank
 * decides alone): called by every rank with its time after each round,
 * returning the largest, so that ranks that run rounds together (both
 * issue) stop together. */
double bench_warm_up(bench_trial_fn trial, void *arg, int warm, double (*agree)(double));
/* Iterations for a trial of at most BENCH_TRIAL_BUDGET_US at pace
 * microseconds per iteration: iters (as given or the program's default: the
 * most), or fewer, at least 10. */
int   bench_budget_iters(int iters, double pace_us);
/* The OSU benchmarks' iteration and warm-up ("skip") counts for o->size:
 * `small` up to 8 KiB (their LARGE_MESSAGE_SIZE), `large` above; --iters or
 * --warmup given on the command line wins for every size. */
int   bench_osu_iters(const bench_opts_t *o, int small, int large);
int   bench_osu_warmup(const bench_opts_t *o, int small, int large);
/* A page-aligned, touched buffer of at least size bytes (never NULL:
 * exits with a message when out of memory). */
char *bench_buffer(size_t size);

#endif
