/* The 1-D heat equation of heat.c, written as an OpenSHMEM program (any
 * OpenSHMEM 1.5 library builds it; here, ordo's):
 *
 *   ordo-oshcc -O2 heat_shmem.c -lm -o heat_shmem
 *   ordorun -n 4 ./heat_shmem [cells] [steps]
 *
 * Each PE owns a block of cells.  Its boundary cells go into the
 * neighbours' halos with shmem_double_put_signal (the flag, the step
 * number, is never seen before the value) and it waits for its own halos
 * with shmem_uint64_wait_until; halos are double-buffered by step parity.
 * Every 50 steps the PEs agree on the largest change (a max reduction).
 * At the end every PE collects the field and PE 0 compares it bit for bit
 * with the same computation done serially. */
#include <math.h>
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ALPHA 0.25

static double initial(long i, long n) { return i >= n / 3 && i < 2 * n / 3 ? 100.0 : 0.0; }

static double step(const double *u, double *next, long len)
{
    double most = 0;
    for (long i = 1; i <= len; i++) {
        next[i] = u[i] + ALPHA * (u[i - 1] - 2 * u[i] + u[i + 1]);
        double d = fabs(next[i] - u[i]);
        most = d > most ? d : most;
    }
    return most;
}

/* Symmetric: halos [side][parity] and their flags (side 0: left, 1: right). */
static double halo[2][2];
static uint64_t flag[2][2];

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 4096, steps = argc > 2 ? atol(argv[2]) : 1000;
    shmem_init();
    int me = shmem_my_pe(), np = shmem_n_pes();
    if (n < np) {
        if (me == 0)
            fprintf(stderr, "heat_shmem: %ld cells cannot be split over %d PEs\n", n, np);
        shmem_finalize();
        return 2;
    }
    long base = n / np, extra = n % np;
    long len = base + (me < extra), first = me * base + (me < extra ? me : extra);
    int left = me - 1, right = me + 1 < np ? me + 1 : -1;
    double *u = calloc((size_t)len + 2, sizeof(double));
    double *next = calloc((size_t)len + 2, sizeof(double));
    for (long i = 0; i < len; i++)
        u[i + 1] = initial(first + i, n);
    double *local = shmem_malloc(sizeof(double)), *change = shmem_malloc(sizeof(double));
    shmem_barrier_all();

    for (long s = 0; s < steps; s++) {
        int parity = (int)(s & 1);
        uint64_t f = (uint64_t)s + 1;
        /* my first cell is my left neighbour's right halo, my last its
         * right neighbour's left one */
        if (left >= 0)
            shmem_double_put_signal(&halo[1][parity], &u[1], 1, &flag[1][parity], f,
                                    SHMEM_SIGNAL_SET, left);
        if (right >= 0)
            shmem_double_put_signal(&halo[0][parity], &u[len], 1, &flag[0][parity], f,
                                    SHMEM_SIGNAL_SET, right);
        if (left >= 0) {
            shmem_uint64_wait_until(&flag[0][parity], SHMEM_CMP_GE, f);
            u[0] = halo[0][parity];
        }
        if (right >= 0) {
            shmem_uint64_wait_until(&flag[1][parity], SHMEM_CMP_GE, f);
            u[len + 1] = halo[1][parity];
        }
        *local = step(u, next, len);
        double *t = u;
        u = next;
        next = t;
        if ((s + 1) % 50 == 0 || s + 1 == steps)
            shmem_double_max_reduce(SHMEM_TEAM_WORLD, change, local, 1);
    }

    /* the whole field everywhere (blocks of different lengths), checked at PE 0 */
    double *mine = shmem_malloc((size_t)(base + 1) * sizeof(double));
    double *all = shmem_malloc((size_t)n * sizeof(double));
    memcpy(mine, &u[1], (size_t)len * sizeof(double));
    shmem_double_collect(SHMEM_TEAM_WORLD, all, mine, (size_t)len);
    int status = 0;
    if (me == 0) {
        double *a = calloc((size_t)n + 2, sizeof(double)), *b = calloc((size_t)n + 2, 8);
        for (long i = 0; i < n; i++)
            a[i + 1] = initial(i, n);
        for (long s = 0; s < steps; s++) {
            step(a, b, n);
            double *t = a;
            a = b;
            b = t;
        }
        if (memcmp(a + 1, all, (size_t)n * sizeof(double)) == 0) {
            printf("heat_shmem: %d PEs, %ld cells, %ld steps, last change %.3g: matches the "
                   "serial run\n", np, n, steps, *change);
        } else {
            printf("heat_shmem: the field differs from the serial run\n");
            status = 1;
        }
        free(a), free(b);
    }
    shmem_free(all);
    shmem_free(mine);
    shmem_free(change);
    shmem_free(local);
    free(u), free(next);
    shmem_finalize();
    return status;
}
