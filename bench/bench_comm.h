/* The two-sided calls the benchmarks use, over ordo or over MPI (built with
 * -DBENCH_MPI by an MPI compiler wrapper), so that one source measures both
 * with the same method.  Thin inline wrappers: nothing here may cost time
 * the library itself does not. */
#ifndef ORDO_BENCH_COMM_H
#define ORDO_BENCH_COMM_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef BENCH_MPI
#include <mpi.h>

typedef MPI_Request bc_req_t;
#define BC_REQ_NULL MPI_REQUEST_NULL

/* BENCH_IMPL_NAME (openmpi, mpich) comes from the build */
#define BENCH_STR_(x) #x
#define BENCH_STR(x) BENCH_STR_(x)
#ifdef BENCH_IMPL_NAME
#define BENCH_IMPL BENCH_STR(BENCH_IMPL_NAME)
#else
#define BENCH_IMPL "mpi"
#endif

static inline int bc_init(int *argc, char ***argv)
{
    return MPI_Init(argc, argv) == MPI_SUCCESS ? 0 : -1;
}
static inline void bc_finalize(void) { MPI_Finalize(); }
static inline int bc_rank(void) { int r; MPI_Comm_rank(MPI_COMM_WORLD, &r); return r; }
static inline int bc_size(void) { int n; MPI_Comm_size(MPI_COMM_WORLD, &n); return n; }
static inline void bc_barrier(void) { MPI_Barrier(MPI_COMM_WORLD); }
/* The library's own barrier, the one measured (bc_barrier only lines
 * trials up). */
static inline void bc_coll_barrier(void) { MPI_Barrier(MPI_COMM_WORLD); }
static inline const char *bc_barrier_variant(void) { return "MPI_Barrier"; }
/* block bytes to and from every rank */
static inline void bc_alltoall(const void *sbuf, void *rbuf, size_t block)
{
    MPI_Alltoall(sbuf, (int)block, MPI_BYTE, rbuf, (int)block, MPI_BYTE, MPI_COMM_WORLD);
}
static inline const char *bc_alltoall_variant(void) { return "MPI_Alltoall"; }
static inline void bc_isend(const void *buf, size_t len, int dest, int tag, bc_req_t *r)
{
    MPI_Isend(buf, (int)len, MPI_BYTE, dest, tag, MPI_COMM_WORLD, r);
}
static inline void bc_irecv(void *buf, size_t len, int src, int tag, bc_req_t *r)
{
    MPI_Irecv(buf, (int)len, MPI_BYTE, src, tag, MPI_COMM_WORLD, r);
}
static inline void bc_send(const void *buf, size_t len, int dest, int tag)
{
    MPI_Send(buf, (int)len, MPI_BYTE, dest, tag, MPI_COMM_WORLD);
}
static inline void bc_recv(void *buf, size_t len, int src, int tag)
{
    MPI_Recv(buf, (int)len, MPI_BYTE, src, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}
static inline void bc_waitall(int n, bc_req_t *r) { MPI_Waitall(n, r, MPI_STATUSES_IGNORE); }

/* Persistent requests (MPI_Send_init / MPI_Recv_init + MPI_Startall). */
#define BC_HAVE_PERSISTENT 1
static inline void bc_send_init(const void *buf, size_t len, int dest, int tag, bc_req_t *r)
{
    MPI_Send_init(buf, (int)len, MPI_BYTE, dest, tag, MPI_COMM_WORLD, r);
}
static inline void bc_recv_init(void *buf, size_t len, int src, int tag, bc_req_t *r)
{
    MPI_Recv_init(buf, (int)len, MPI_BYTE, src, tag, MPI_COMM_WORLD, r);
}
static inline void bc_startall(int n, bc_req_t *r) { MPI_Startall(n, r); }
static inline void bc_req_free(bc_req_t *r) { MPI_Request_free(r); }

/* One-sided, MPI-3 RMA: a window from MPI_Win_allocate, byte displacements. */
typedef struct bc_win { MPI_Win win; } bc_win_t;
typedef struct bc_group { MPI_Group group; } bc_group_t;
#define BC_NOPRECEDE MPI_MODE_NOPRECEDE
#define BC_NOSUCCEED MPI_MODE_NOSUCCEED
#define BC_NOSTORE   MPI_MODE_NOSTORE
#define BC_NOPUT     MPI_MODE_NOPUT

static inline void bc_win_alloc(size_t bytes, bc_win_t *w, void **base)
{
    MPI_Win_allocate((MPI_Aint)bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, base, &w->win);
}
static inline void bc_win_free(bc_win_t *w) { MPI_Win_free(&w->win); }
static inline void bc_group_make(bc_group_t *g, int n, const int *ranks)
{
    MPI_Group world;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, n, ranks, &g->group);
    MPI_Group_free(&world);
}
static inline void bc_group_free(bc_group_t *g) { MPI_Group_free(&g->group); }
static inline void bc_put(const void *src, size_t len, int rank, size_t off, bc_win_t *w)
{
    MPI_Put(src, (int)len, MPI_BYTE, rank, (MPI_Aint)off, (int)len, MPI_BYTE, w->win);
}
static inline void bc_fence(bc_win_t *w, int asserts) { MPI_Win_fence(asserts, w->win); }
static inline void bc_post(bc_win_t *w, bc_group_t *g) { MPI_Win_post(g->group, 0, w->win); }
static inline void bc_start(bc_win_t *w, bc_group_t *g) { MPI_Win_start(g->group, 0, w->win); }
static inline void bc_complete(bc_win_t *w) { MPI_Win_complete(w->win); }
static inline void bc_wait(bc_win_t *w) { MPI_Win_wait(w->win); }
static inline void bc_lock_shared(bc_win_t *w, int rank)
{
    MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, w->win);
}
static inline void bc_unlock(bc_win_t *w, int rank) { MPI_Win_unlock(rank, w->win); }

#else
#include <ordo/ordo.h>

typedef ordo_request_h bc_req_t;
#define BC_REQ_NULL NULL
#define BENCH_IMPL "ordo"

static inline int bc_init(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    return ordo_init(NULL) == ORDO_OK ? 0 : -1;
}
static inline void bc_finalize(void) { ordo_finalize(); }
static inline int bc_rank(void) { return ordo_rank(); }
static inline int bc_size(void) { return ordo_size(); }
static inline void bc_barrier(void) { ordo_barrier(); }
static inline void bc_coll_barrier(void) { ordo_coll_barrier(ORDO_COMM_WORLD); }
static inline const char *bc_barrier_variant(void)
{
    const char *alg = getenv("ORDO_COLL_BARRIER");
    return alg && *alg ? alg : "auto";
}
static inline void bc_alltoall(const void *sbuf, void *rbuf, size_t block)
{
    ordo_coll_alltoall(ORDO_COMM_WORLD, sbuf, block, rbuf);
}
static inline const char *bc_alltoall_variant(void)
{
    const char *alg = getenv("ORDO_COLL_ALLTOALL");
    return alg && *alg ? alg : "auto";
}
static inline void bc_isend(const void *buf, size_t len, int dest, int tag, bc_req_t *r)
{
    ordo_send_nb(ORDO_COMM_WORLD, buf, len, dest, tag, r);
}
static inline void bc_irecv(void *buf, size_t len, int src, int tag, bc_req_t *r)
{
    ordo_recv_nb(ORDO_COMM_WORLD, buf, len, src, tag, r);
}
static inline void bc_send(const void *buf, size_t len, int dest, int tag)
{
    ordo_send(ORDO_COMM_WORLD, buf, len, dest, tag);
}
static inline void bc_recv(void *buf, size_t len, int src, int tag)
{
    ordo_recv(ORDO_COMM_WORLD, buf, len, src, tag, NULL);
}
static inline void bc_waitall(int n, bc_req_t *r) { ordo_request_waitall((size_t)n, r, NULL); }

/* ordo has no persistent requests. */
#define BC_HAVE_PERSISTENT 0

/* One-sided: a region with MPI-RMA epochs.  A failed call ends the
 * benchmark: a figure measured past an error would mean nothing. */
static inline void bc_check(ordo_status_t st, const char *what)
{
    if (st != ORDO_OK) {
        fprintf(stderr, "benchmark: %s failed: %s\n", what, ordo_status_string(st));
        exit(1);
    }
}
typedef struct bc_win { ordo_region_h region; } bc_win_t;
typedef struct bc_group { int n; int *ranks; } bc_group_t;
#define BC_NOPRECEDE ORDO_ASSERT_NOPRECEDE
#define BC_NOSUCCEED ORDO_ASSERT_NOSUCCEED
#define BC_NOSTORE   ORDO_ASSERT_NOSTORE
#define BC_NOPUT     ORDO_ASSERT_NOPUT

static inline void bc_win_alloc(size_t bytes, bc_win_t *w, void **base)
{
    bc_check(ordo_region_alloc(bytes, ORDO_REGION_EPOCHS, &w->region, base), "region alloc");
}
static inline void bc_win_free(bc_win_t *w) { bc_check(ordo_region_free(w->region), "free"); }
static inline void bc_group_make(bc_group_t *g, int n, const int *ranks)
{
    g->n = n;
    g->ranks = malloc(sizeof(int) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++)
        g->ranks[i] = ranks[i];
}
static inline void bc_group_free(bc_group_t *g) { free(g->ranks); }
static inline void bc_put(const void *src, size_t len, int rank, size_t off, bc_win_t *w)
{
    bc_check(ordo_put(ORDO_STREAM_DEFAULT, src, len, w->region, rank, off, 0), "put");
}
static inline void bc_fence(bc_win_t *w, int asserts)
{
    bc_check(ordo_epoch_fence(w->region, (unsigned)asserts), "fence");
}
static inline void bc_post(bc_win_t *w, bc_group_t *g)
{
    bc_check(ordo_epoch_post(w->region, g->n, g->ranks, 0), "post");
}
static inline void bc_start(bc_win_t *w, bc_group_t *g)
{
    bc_check(ordo_epoch_start(w->region, g->n, g->ranks, 0), "start");
}
static inline void bc_complete(bc_win_t *w) { bc_check(ordo_epoch_complete(w->region), "complete"); }
static inline void bc_wait(bc_win_t *w) { bc_check(ordo_epoch_wait(w->region), "wait"); }
static inline void bc_lock_shared(bc_win_t *w, int rank)
{
    bc_check(ordo_epoch_lock(w->region, ORDO_LOCK_SHARED, rank, 0), "lock");
}
static inline void bc_unlock(bc_win_t *w, int rank)
{
    bc_check(ordo_epoch_unlock(w->region, rank), "unlock");
}
#endif

#endif
