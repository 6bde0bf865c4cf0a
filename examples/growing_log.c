/* growing_log: every rank keeps a log that grows while the job runs, in
 * chunks it allocates as it needs them, and the others read it one-sided,
 * without the owner's help: the case dynamic regions are for (a window
 * whose memory is not known when it is made, as MPI_Win_create_dynamic).
 *
 * Each rank attaches every new chunk to one dynamic region and publishes
 * the chunk's address in a small directory (an allocated region): a reader
 * gets the directory, then the records from the owner's chunks by their
 * addresses.  At the end every rank reads every peer's whole log and checks
 * each record; it prints "logs verified" when all match.
 *
 *   ordorun -n 4 build/bin/growing_log [records per rank] [records per chunk] */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <ordo/ordo.h>

typedef struct record {
    int32_t  writer;
    int32_t  index;
    uint64_t value;
} record_t;

#define MAX_CHUNKS 256

typedef struct directory {
    uint64_t count;                /* records written so far */
    uint64_t chunk[MAX_CHUNKS];    /* each chunk's address in the owner */
} directory_t;

static uint64_t value_of(int writer, int index)
{
    return (uint64_t)writer * 1000003u + (uint64_t)index * 7919u + 1;
}

static int fail(const char *what, ordo_status_t st)
{
    fprintf(stderr, "growing_log: %s: %s\n", what, ordo_status_string(st));
    ordo_finalize();
    return 1;
}

int main(int argc, char **argv)
{
    int total = argc > 1 ? atoi(argv[1]) : 5000;
    int per_chunk = argc > 2 ? atoi(argv[2]) : 100;
    ordo_status_t st = ordo_init(NULL);
    if (st != ORDO_OK)
        return fail("ordo_init", st);
    if (total < 1 || per_chunk < 1 || (total + per_chunk - 1) / per_chunk > MAX_CHUNKS) {
        fprintf(stderr, "growing_log: at most %d chunks of records\n", MAX_CHUNKS);
        ordo_finalize();
        return 2;
    }
    int me = ordo_rank(), n = ordo_size();

    ordo_region_h log, dir_region;
    directory_t *dir;
    if ((st = ordo_region_create_dynamic(0, &log)) != ORDO_OK)
        return fail("ordo_region_create_dynamic", st);
    if ((st = ordo_region_alloc(sizeof(directory_t), 0, &dir_region, (void **)&dir)) != ORDO_OK)
        return fail("ordo_region_alloc", st);

    /* write: a new chunk whenever the last one is full, attached before
     * its address is published (a reader that sees it finds it attached) */
    record_t *chunks[MAX_CHUNKS];
    int nchunks = 0;
    for (int i = 0; i < total; i++) {
        if (i % per_chunk == 0) {
            chunks[nchunks] = malloc(sizeof(record_t) * (size_t)per_chunk);
            if ((st = ordo_region_attach(log, chunks[nchunks],
                                         sizeof(record_t) * (size_t)per_chunk)) != ORDO_OK)
                return fail("ordo_region_attach", st);
            dir->chunk[nchunks] = (uint64_t)(uintptr_t)chunks[nchunks];
            nchunks++;
        }
        chunks[nchunks - 1][i % per_chunk] =
            (record_t){.writer = me, .index = i, .value = value_of(me, i)};
        dir->count = (uint64_t)i + 1;
    }
    if ((st = ordo_barrier()) != ORDO_OK)
        return fail("ordo_barrier", st);

    /* read every peer's log: its directory, then each record by address */
    int64_t bad = 0;
    for (int peer = 0; peer < n; peer++) {
        directory_t theirs;
        if ((st = ordo_get(NULL, &theirs, sizeof(theirs), dir_region, peer, 0, 0)) != ORDO_OK)
            return fail("reading a directory", st);
        for (uint64_t i = 0; i < theirs.count; i++) {
            record_t r;
            size_t at = (size_t)theirs.chunk[i / (uint64_t)per_chunk] +
                        (size_t)(i % (uint64_t)per_chunk) * sizeof(record_t);
            if ((st = ordo_get(NULL, &r, sizeof(r), log, peer, at, 0)) != ORDO_OK)
                return fail("reading a record", st);
            bad += r.writer != peer || r.index != (int32_t)i || r.value != value_of(peer, (int)i);
        }
        bad += theirs.count != (uint64_t)total;
    }
    int64_t all_bad = 0;
    if ((st = ordo_coll_allreduce(NULL, &bad, &all_bad, 1, ORDO_DT_INT64, ORDO_REDUCE_SUM)) !=
        ORDO_OK)
        return fail("ordo_coll_allreduce", st);

    /* a chunk leaves the log when it is detached; the rest goes with the region */
    if ((st = ordo_region_detach(log, chunks[0])) != ORDO_OK)
        return fail("ordo_region_detach", st);
    if ((st = ordo_region_free(log)) != ORDO_OK || (st = ordo_region_free(dir_region)) != ORDO_OK)
        return fail("ordo_region_free", st);
    for (int c = 0; c < nchunks; c++)
        free(chunks[c]);
    if (me == 0) {
        if (all_bad == 0)
            printf("logs verified: %d ranks x %d records in chunks of %d\n", n, total, per_chunk);
        else
            printf("logs differ: %lld records wrong\n", (long long)all_bad);
    }
    ordo_finalize();
    return all_bad != 0;
}
