/* An MPI program that starts ordo over its own communicator (ordo_oob_t),
 * then mixes the two: halo values go around the ring by ordo puts, MPI
 * checks them, and an ordo allreduce is compared with MPI_Allreduce.
 *
 *   mpicc mpi_bootstrap.c -lordo -o mpi_bootstrap
 *   mpirun -n 4 ./mpi_bootstrap
 *
 * Prints "mpi_bootstrap: N ranks, ordo and MPI agree" on rank 0 and exits 0,
 * or names what differed and exits 1. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <ordo/ordo.h>

/* ordo's bootstrap collectives, over a communicator of ordo's own (a
 * duplicate, so they never match the program's messages). */
static int oob_allgather(void *arg, const void *sbuf, void *rbuf, size_t len, void **req)
{
    MPI_Request *r = malloc(sizeof(*r));
    if (r == NULL)
        return -1;
    int rc = MPI_Iallgather(sbuf, (int)len, MPI_BYTE, rbuf, (int)len, MPI_BYTE,
                            *(MPI_Comm *)arg, r);
    if (rc != MPI_SUCCESS) {
        free(r);
        return rc;
    }
    *req = r;
    return 0;
}

static int oob_test(void *arg, void *req)
{
    (void)arg;
    int done = 0;
    if (MPI_Test((MPI_Request *)req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
        return -1;
    return done ? 0 : 1;
}

static void oob_free(void *arg, void *req)
{
    (void)arg;
    free(req);
}

#define CHECK(what, call)                                                          \
    do {                                                                           \
        ordo_status_t st_ = (call);                                                \
        if (st_ != ORDO_OK) {                                                      \
            fprintf(stderr, "rank %d: %s: %s\n", rank, what, ordo_status_string(st_)); \
            MPI_Abort(MPI_COMM_WORLD, 1);                                          \
        }                                                                          \
    } while (0)

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm ordo_comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &ordo_comm);

    ordo_init_params_t params = {
        .field_mask = ORDO_INIT_FIELD_OOB,
        .oob = {.rank = rank, .size = size, .arg = &ordo_comm,
                .allgather = oob_allgather, .test = oob_test, .free = oob_free},
    };
    CHECK("ordo_init", ordo_init(&params));
    int bad = ordo_rank() != rank || ordo_size() != size;

    /* each rank puts its rank into its right neighbour's region */
    ordo_region_h region;
    int64_t *slot;
    CHECK("ordo_region_alloc", ordo_region_alloc(sizeof(int64_t), 0, &region, (void **)&slot));
    int64_t mine = 1000 + rank;
    CHECK("ordo_put", ordo_put(ORDO_STREAM_DEFAULT, &mine, sizeof(mine), region,
                               (rank + 1) % size, 0, 0));
    CHECK("ordo_quiet", ordo_quiet(ORDO_STREAM_DEFAULT));   /* at the target now */
    MPI_Barrier(MPI_COMM_WORLD);                            /* ... and every rank's has */
    if (*slot != 1000 + (rank + size - 1) % size) {
        fprintf(stderr, "rank %d: the left neighbour's put holds %lld\n", rank,
                (long long)*slot);
        bad = 1;
    }

    /* the same sum by both libraries */
    int64_t by_ordo, by_mpi;
    CHECK("ordo_coll_allreduce", ordo_coll_allreduce(ORDO_COMM_WORLD, slot, &by_ordo, 1,
                                                     ORDO_DT_INT64, ORDO_REDUCE_SUM));
    MPI_Allreduce(slot, &by_mpi, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    if (by_ordo != by_mpi) {
        fprintf(stderr, "rank %d: ordo's sum %lld, MPI's %lld\n", rank, (long long)by_ordo,
                (long long)by_mpi);
        bad = 1;
    }

    CHECK("ordo_region_free", ordo_region_free(region));
    CHECK("ordo_finalize", ordo_finalize());
    int any_bad;
    MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0 && !any_bad)
        printf("mpi_bootstrap: %d ranks, ordo and MPI agree\n", size);
    MPI_Comm_free(&ordo_comm);
    MPI_Finalize();
    return any_bad;
}
