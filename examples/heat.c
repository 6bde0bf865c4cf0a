/* A 1-D heat equation, explicit in time, its cells split in blocks over the
 * ranks, with the halo exchange done three ways:
 *
 *   sendrecv  two-sided: ordo_sendrecv with each neighbour (ORDO_PROC_NULL
 *             past the ends, so the edges need no special case)
 *   signal    one-sided: each boundary cell goes into the neighbour's halo
 *             with ordo_put_signal, whose flag is never visible before the
 *             value; the neighbour waits on the flag with ordo_wait_until
 *             (halos double-buffered by step parity, so a fast neighbour
 *             never overwrites a value not yet read)
 *   fence     one-sided in fence epochs: puts into the halos, then
 *             ordo_epoch_fence, as MPI_Put between MPI_Win_fence calls
 *
 * Every 50 steps the ranks agree on the largest change (allreduce, max).
 * At the end rank 0 gathers the field and compares it bit for bit with the
 * same computation done serially.
 *
 *   ordorun -n 4 build/bin/heat [sendrecv|signal|fence] [cells] [steps]
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ordo/ordo.h>

#define ALPHA 0.25

enum { SENDRECV, SIGNAL, FENCE };

/* The field at the start: a hot band in the middle of a cold rod. */
static double initial(long i, long n) { return i >= n / 3 && i < 2 * n / 3 ? 100.0 : 0.0; }

/* One step on cells [1, len] of u (u[0], u[len + 1]: the halos; fixed at 0
 * past the ends of the rod).  Returns the largest change. */
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

/* Region layout for the one-sided ways: halo values and their flags, per
 * side (0: left, 1: right) and step parity. */
#define HALO_AT(side, parity) ((size_t)(((side) * 2 + (parity)) * 8))
#define FLAG_AT(side, parity) ((size_t)(64 + ((side) * 2 + (parity)) * 8))
#define REGION_BYTES 128

#define CHECK(call)                                                                   \
    do {                                                                              \
        ordo_status_t st_ = (call);                                                   \
        if (st_ != ORDO_OK) {                                                         \
            fprintf(stderr, "heat: %s failed: %s\n", #call, ordo_status_string(st_)); \
            ordo_abort(1);                                                            \
        }                                                                             \
    } while (0)

int main(int argc, char **argv)
{
    const char *how = argc > 1 ? argv[1] : "sendrecv";
    long n = argc > 2 ? atol(argv[2]) : 4096, steps = argc > 3 ? atol(argv[3]) : 1000;
    int mode = strcmp(how, "signal") == 0 ? SIGNAL : strcmp(how, "fence") == 0 ? FENCE : SENDRECV;
    if (mode == SENDRECV && strcmp(how, "sendrecv") != 0) {
        fprintf(stderr, "usage: heat [sendrecv|signal|fence] [cells] [steps]\n");
        return 2;
    }
    CHECK(ordo_init(NULL));
    int me = ordo_rank(), np = ordo_size();
    if (n < np) {
        fprintf(stderr, "heat: %ld cells cannot be split over %d ranks\n", n, np);
        ordo_finalize();
        return 2;
    }
    /* this rank's block: [first, first + len) */
    long base = n / np, extra = n % np;
    long len = base + (me < extra), first = me * base + (me < extra ? me : extra);
    int left = me > 0 ? me - 1 : ORDO_PROC_NULL, right = me < np - 1 ? me + 1 : ORDO_PROC_NULL;
    double *u = calloc((size_t)len + 2, sizeof(double));
    double *next = calloc((size_t)len + 2, sizeof(double));
    for (long i = 0; i < len; i++)
        u[i + 1] = initial(first + i, n);

    ordo_region_h region = NULL;
    double *mine = NULL;
    if (mode != SENDRECV)
        CHECK(ordo_region_alloc(REGION_BYTES, mode == FENCE ? ORDO_REGION_EPOCHS : 0, &region,
                                (void **)&mine));
    if (mode == FENCE)
        CHECK(ordo_epoch_fence(region, ORDO_ASSERT_NOPRECEDE));
    CHECK(ordo_coll_barrier(ORDO_COMM_WORLD));   /* every region is there before any put */

    double change = 0, t0 = ordo_wtime();
    for (long s = 0; s < steps; s++) {
        int parity = (int)(s & 1);
        switch (mode) {
        case SENDRECV:
            /* u[1] to the left while u[len + 1] comes from the right, then
             * the other way round */
            CHECK(ordo_sendrecv(ORDO_COMM_WORLD, &u[1], 8, left, 0, &u[len + 1], 8, right, 0,
                                NULL));
            CHECK(ordo_sendrecv(ORDO_COMM_WORLD, &u[len], 8, right, 1, &u[0], 8, left, 1,
                                NULL));
            break;
        case SIGNAL: {
            /* my first cell is my left neighbour's right halo, my last its
             * right neighbour's left one; the flag says which step it is */
            uint64_t flag = (uint64_t)s + 1;
            CHECK(ordo_put_signal(NULL, &u[1], 8, region, left, HALO_AT(1, parity),
                                  FLAG_AT(1, parity), flag, ORDO_SIGNAL_SET, 0));
            CHECK(ordo_put_signal(NULL, &u[len], 8, region, right, HALO_AT(0, parity),
                                  FLAG_AT(0, parity), flag, ORDO_SIGNAL_SET, 0));
            if (left != ORDO_PROC_NULL) {
                CHECK(ordo_wait_until(region, FLAG_AT(0, parity), ORDO_UINT64, ORDO_CMP_GE,
                                      &flag));
                memcpy(&u[0], (char *)mine + HALO_AT(0, parity), 8);
            }
            if (right != ORDO_PROC_NULL) {
                CHECK(ordo_wait_until(region, FLAG_AT(1, parity), ORDO_UINT64, ORDO_CMP_GE,
                                      &flag));
                memcpy(&u[len + 1], (char *)mine + HALO_AT(1, parity), 8);
            }
            break;
        }
        case FENCE:
            CHECK(ordo_put(NULL, &u[1], 8, region, left, HALO_AT(1, 0), 0));
            CHECK(ordo_put(NULL, &u[len], 8, region, right, HALO_AT(0, 0), 0));
            CHECK(ordo_epoch_fence(region, 0));
            if (left != ORDO_PROC_NULL)
                memcpy(&u[0], (char *)mine + HALO_AT(0, 0), 8);
            if (right != ORDO_PROC_NULL)
                memcpy(&u[len + 1], (char *)mine + HALO_AT(1, 0), 8);
            /* nobody puts the next step's halos before everyone read these */
            CHECK(ordo_epoch_fence(region, 0));
            break;
        }
        double local = step(u, next, len);
        double *t = u;
        u = next;
        next = t;
        if ((s + 1) % 50 == 0 || s + 1 == steps)
            CHECK(ordo_coll_allreduce(ORDO_COMM_WORLD, &local, &change, 1, ORDO_DT_DOUBLE,
                                      ORDO_REDUCE_MAX));
    }
    double seconds = ordo_wtime() - t0;

    /* the whole field at rank 0, against the serial run */
    size_t *lens = malloc((size_t)np * sizeof(size_t)), *displs = malloc((size_t)np * 8);
    for (int r = 0; r < np; r++) {
        long rl = base + (r < extra), rf = r * base + (r < extra ? r : extra);
        lens[r] = (size_t)rl * sizeof(double);
        displs[r] = (size_t)rf * sizeof(double);
    }
    double *all = me == 0 ? malloc((size_t)n * sizeof(double)) : NULL;
    CHECK(ordo_coll_gatherv(ORDO_COMM_WORLD, &u[1], (size_t)len * sizeof(double), all,
                            lens, displs, 0));
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
            printf("heat: %s, %d ranks, %ld cells, %ld steps in %.3f s, last change %.3g: "
                   "matches the serial run\n", how, np, n, steps, seconds, change);
        } else {
            printf("heat: %s: the field differs from the serial run\n", how);
            status = 1;
        }
        free(a), free(b);
    }
    if (mode == FENCE)
        CHECK(ordo_epoch_fence(region, ORDO_ASSERT_NOSUCCEED));
    if (region)
        CHECK(ordo_region_free(region));
    free(all), free(lens), free(displs), free(u), free(next);
    CHECK(ordo_finalize());
    return status;
}
