/* startup: how long joining the job takes.  Each rank times its own
 * bc_init (ordo_init, or MPI_Init; both followed by the harness's gather of
 * the ranks' bindings), and its first collective barrier after it; the
 * slowest rank's times are the job's.  Then rank 0 times its finalize.
 * One trial per launch: a process joins a job once, so ordo-bench's
 * launches are the trials.  The launcher's own start (fork, exec, its
 * daemons) is outside: it is the same for a program whatever library it
 * uses, and ordo-bench runs ordo under each launcher (--launcher). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench_comm.h"
#include "bench_common.h"

/* The clock read before the library starts and after it ends: not
 * bench_now_us, which is MPI_Wtime in the MPI builds. */
static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

int main(int argc, char **argv)
{
    double t0 = now_us();
    if (bc_init(&argc, &argv) != 0)
        return 2;
    double t_init = now_us() - t0;
    bc_coll_barrier();
    double t_barrier = now_us() - t0;
    bench_opts_t o = {.trials = 1, .iters = 1, .warmup = 0, .window = 1, .size = 0};
    if (bench_parse(argc, argv, &o))
        return 2;
    int me = bc_rank(), np = bc_size();
    double init = bc_max_at_root(t_init), barrier = bc_max_at_root(t_barrier);
    bench_point_t p = {.experiment = "startup", .impl = BENCH_IMPL, .paradigm = "none",
                       .np = np, .pairs = 0, .window = 1, .size = 0,
                       .metric = "time_us", .unit = "us"};
    if (me == 0) {
        p.variant = "init";
        bench_emit(&p, &init, 1);
        p.variant = "init-to-first-barrier";
        bench_emit(&p, &barrier, 1);
    }
    double t1 = now_us();
    bc_finalize();
    double fin = now_us() - t1;
    if (me == 0) {
        p.variant = "finalize (rank 0)";
        bench_emit(&p, &fin, 1);
    }
    return 0;
}
