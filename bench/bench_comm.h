/* The two-sided calls the benchmarks use, over ordo or over MPI (built with
 * -DBENCH_MPI by an MPI compiler wrapper), so that one source measures both
 * with the same method.  Thin inline wrappers: nothing here may cost time
 * the library itself does not. */
#ifndef ORDO_BENCH_COMM_H
#define ORDO_BENCH_COMM_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_common.h"

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
    if (MPI_Init(argc, argv) != MPI_SUCCESS)
        return -1;
    return bench_gather_bindings();
}
static inline void bc_finalize(void) { MPI_Finalize(); }
static inline int bc_rank(void) { int r; MPI_Comm_rank(MPI_COMM_WORLD, &r); return r; }
static inline int bc_size(void) { int n; MPI_Comm_size(MPI_COMM_WORLD, &n); return n; }
static inline void bc_barrier(void) { MPI_Barrier(MPI_COMM_WORLD); }
/* The library's own barrier, the one measured (bc_barrier only lines
 * trials up). */
static inline void bc_coll_barrier(void) { MPI_Barrier(MPI_COMM_WORLD); }
static inline const char *bc_barrier_variant(void) { return "MPI_Barrier"; }
/* The mean over all ranks of v, at rank 0 (elsewhere: v). */
static inline double bc_mean_at_root(double v)
{
    double sum = v;
    MPI_Reduce(&v, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    return sum / bc_size();
}
/* The largest v over all ranks, at rank 0 (elsewhere: v). */
static inline double bc_max_at_root(double v)
{
    double max = v;
    MPI_Reduce(&v, &max, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    return max;
}
/* The largest v over all ranks, at every rank. */
static inline double bc_max_all(double v)
{
    double max = v;
    MPI_Allreduce(&v, &max, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return max;
}
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
/* MPICH spells MPI_STATUSES_IGNORE (MPI_Status *)1 and declares the
 * argument as an array; GCC 12 then reports an overflow of a zero-size
 * object that cannot happen (MPI never writes through the sentinel). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif
static inline void bc_waitall(int n, bc_req_t *r) { MPI_Waitall(n, r, MPI_STATUSES_IGNORE); }
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

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

#else
#include <ordo/ordo.h>

typedef ordo_request_h bc_req_t;
#define BC_REQ_NULL NULL
#define BENCH_IMPL "ordo"

static inline int bc_init(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    /* single-threaded, as MPI_Init gives the MPI side, unless the run asks
     * a level (ORDO_THREAD_LEVEL, recorded with the settings) */
    ordo_init_params_t p = {.field_mask = 0};
    if (getenv("ORDO_THREAD_LEVEL") == NULL) {
        p.field_mask = ORDO_INIT_FIELD_THREAD_LEVEL;
        p.thread_level = ORDO_THREAD_SINGLE;
    }
    if (ordo_init(&p) != ORDO_OK)
        return -1;
    return bench_gather_bindings();
}
static inline void bc_finalize(void) { ordo_finalize(); }
static inline int bc_rank(void) { return ordo_rank(); }
static inline int bc_size(void) { return ordo_size(); }
/* Lining ranks up between timed steps, as MPI_Barrier does for the MPI
 * builds: over the transports.  The launcher's barrier (ordo_barrier) lets
 * ranks leave tens of microseconds apart, which a timed step that waits
 * for its peers (region creation) would count as its own. */
static inline void bc_barrier(void) { ordo_coll_barrier(ORDO_COMM_WORLD); }
static inline void bc_coll_barrier(void) { ordo_coll_barrier(ORDO_COMM_WORLD); }
static inline const char *bc_barrier_variant(void)
{
    const char *alg = getenv("ORDO_COLL_BARRIER");
    return alg && *alg ? alg : "auto";
}
static inline double bc_mean_at_root(double v)
{
    double sum = v;
    ordo_coll_reduce(ORDO_COMM_WORLD, &v, &sum, 1, ORDO_DT_DOUBLE, ORDO_REDUCE_SUM, 0);
    return sum / bc_size();
}
static inline double bc_max_at_root(double v)
{
    double max = v;
    ordo_coll_reduce(ORDO_COMM_WORLD, &v, &max, 1, ORDO_DT_DOUBLE, ORDO_REDUCE_MAX, 0);
    return max;
}
static inline double bc_max_all(double v)
{
    double max = v;
    ordo_coll_allreduce(ORDO_COMM_WORLD, &v, &max, 1, ORDO_DT_DOUBLE, ORDO_REDUCE_MAX);
    return max;
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

#define BC_HAVE_PERSISTENT 1
static inline void bc_send_init(const void *buf, size_t len, int dest, int tag, bc_req_t *r)
{
    ordo_send_init(ORDO_COMM_WORLD, buf, len, dest, tag, r);
}
static inline void bc_recv_init(void *buf, size_t len, int src, int tag, bc_req_t *r)
{
    ordo_recv_init(ORDO_COMM_WORLD, buf, len, src, tag, r);
}
static inline void bc_startall(int n, bc_req_t *r) { ordo_startall((size_t)n, r); }
static inline void bc_req_free(bc_req_t *r) { ordo_request_free(r); }

#endif

#endif
