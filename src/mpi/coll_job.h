/* MPI on ordo: what the collective files share.  A job is what a
 * collective still does after ordo's part completes: unpack blocks into
 * the program's buffer, combine gathered contributions. */
#ifndef ORDO_MPI_COLL_JOB_H
#define ORDO_MPI_COLL_JOB_H

#include "mpi_internal.h"

#pragma GCC visibility push(hidden)

enum { R_NONE, R_ROOT, R_ALL, R_SCAN, R_EXSCAN, R_SEGMENT };

/* What completion still does.  Unpack: blocks of tmp into the program's
 * buffer; reduce: combine the n contributions gathered in tmp. */
typedef struct job {
    void   *tmp, *stmp;          /* ours, freed at the end */
    int     n;                   /* blocks to unpack (0: none) */
    size_t *tdispl, *tlen;       /* block i: tlen[i] bytes at tmp + tdispl[i] */
    char   *ubuf;
    MPI_Aint *udispl;            /* block i lands at ubuf + udispl[i] (bytes) */
    MPI_Count *ucount;           /* ... as ucount[i] elements of ut */
    struct MPI_ABI_Datatype *ut;
    struct MPI_ABI_Datatype **uts;   /* block i's own datatype (Alltoallw), or NULL: ut */
    /* reductions */
    int     rmode;
    MPI_Op  op;
    struct MPI_ABI_Datatype *rt;
    MPI_Count rcount;            /* elements per contribution */
    int     me, members;
    void   *rbuf;                /* where the result goes (rt layout) */
    MPI_Count seg_first, seg_count;   /* R_SEGMENT: elements of the result kept */
    size_t *keep[4];             /* arrays ordo reads until completion */
} job_t;

/* Make j a reduction (mode R_*): `members` contributions of count
 * elements of t, combined with op in rank order, the result (or, for
 * R_SEGMENT, seg_count elements from seg_first) unpacked into rbuf; `me`
 * for the scans.  op and t are held until om_job_free. */
void om_job_reduce(job_t *j, int mode, MPI_Op op, struct MPI_ABI_Datatype *t, MPI_Count count,
                   int members, int me, void *rbuf, MPI_Count seg_first, MPI_Count seg_count);
/* Finish a job whose data arrived: combine, unpack; an MPI class. */
int om_job_finish(job_t *j);
/* A job with room for n blocks to unpack (n may be 0). */
job_t *om_job_new(int n);
void   om_job_free(job_t *j);
/* After ordo's call gave st (and maybe oreq): blocking (request NULL),
 * wait, finish j and free it; else hand j to a new request that finishes
 * it on completion.  Errors are raised on comm. */
int om_coll_conclude(MPI_Comm comm, ordo_status_t st, ordo_request_h oreq, job_t *j,
                     MPI_Request *request, const char *func);
/* (buf, count, type) as bytes ordo can move: the buffer itself when
 * contiguous, else a packed copy in *copy (the caller frees it). */
int om_coll_bytes(MPI_Comm comm, const void *buf, MPI_Count count, MPI_Datatype type,
                  const void **data, size_t *bytes, void **copy,
                  struct MPI_ABI_Datatype **t_p, const char *func);

/* Persistent collectives (persist_move.c): an init call keeps its
 * arguments, copies of its arrays, and the function that starts the
 * immediate form with them. */
typedef int (*om_pcoll_start_t)(const void *args, MPI_Request *out);
enum { OM_PKEEP_MAX = 8 };
typedef struct om_pkeep {
    int   n, failed;
    void *blocks[OM_PKEEP_MAX];
} om_pkeep_t;
/* How long an array is: one entry per peer (ALL: the remote group's
 * members on an intercommunicator), per peer at the root alone (ROOT), per
 * member of the local group (LOCAL: reduce_scatter's counts), per
 * neighbour sent to (OUT) or received from (IN). */
enum { OM_PSIDE_ALL, OM_PSIDE_ROOT, OM_PSIDE_LOCAL, OM_PSIDE_OUT, OM_PSIDE_IN };
/* A copy of arr (elem bytes an entry) kept in keep, or arr itself where
 * nothing is to copy (NULL, no entries; keep->failed when out of memory). */
const void *om_pcoll_keep(om_pkeep_t *keep, MPI_Comm comm, const void *arr, size_t elem,
                          int side, int root);
int om_persistent_init(MPI_Comm comm, om_pcoll_start_t start, const void *args, size_t len,
                       om_pkeep_t *keep, MPI_Info info, MPI_Request *request,
                       const char *func);

/* The collectives that move data without combining it (coll_move.c). */
enum om_move { M_GATHER, M_SCATTER, M_ALLGATHER, M_ALLTOALL };
/* A v-form's n counts or displacements, int or large (MPI_Count /
 * MPI_Aint) as the program gave them, widened (NULL for NULL, or out of
 * memory). */
MPI_Count *om_counts_of(const void *in, int n, int large);
MPI_Aint *om_displs_of(const void *in, int n, int large);

/* Collectives on an intercommunicator c (coll_inter.c): as the calls of
 * the same name; the v forms' arrays widened, NULL for the others.
 * Roots are MPI_ROOT, MPI_PROC_NULL or a remote rank. */
int om_inter_barrier(struct MPI_ABI_Comm *c, MPI_Comm comm, MPI_Request *request,
                     const char *func);
int om_inter_bcast(struct MPI_ABI_Comm *c, MPI_Comm comm, void *buf, MPI_Count count,
                   MPI_Datatype type, int root, MPI_Request *request, const char *func);
int om_inter_move(struct MPI_ABI_Comm *c, MPI_Comm comm, enum om_move what,
                  const void *sendbuf, MPI_Count scount, const MPI_Count *scounts,
                  const MPI_Aint *sdispls, MPI_Datatype stype, void *recvbuf,
                  MPI_Count rcount, const MPI_Count *rcounts, const MPI_Aint *rdispls,
                  MPI_Datatype rtype, int root, MPI_Request *request, const char *func);
int om_inter_alltoallw(struct MPI_ABI_Comm *c, MPI_Comm comm, const void *sendbuf,
                       const MPI_Count *scounts, const MPI_Aint *sdispls,
                       const MPI_Datatype *stypes, void *recvbuf, const MPI_Count *rcounts,
                       const MPI_Aint *rdispls, const MPI_Datatype *rtypes,
                       MPI_Request *request, const char *func);
/* reduce (R_ROOT), allreduce (R_ALL), reduce_scatter_block (R_SEGMENT,
 * counts NULL, count the recvcount) and reduce_scatter (R_SEGMENT with the
 * local group's counts); scans are refused. */
int om_inter_reduce(struct MPI_ABI_Comm *c, MPI_Comm comm, const void *sendbuf,
                    void *recvbuf, MPI_Count count, const MPI_Count *counts,
                    MPI_Datatype type, MPI_Op op, int root, int mode, MPI_Request *request,
                    const char *func);

#define COLL_COMM(c, comm, func)                                                  \
    if (!om_ready(func))                                                          \
        return MPI_ERR_OTHER;                                                     \
    struct MPI_ABI_Comm *c = om_comm(comm);                                       \
    if (!c)                                                                       \
        return om_comm_error(comm, MPI_ERR_COMM, func, "not a communicator");

static inline int om_root_ok(struct MPI_ABI_Comm *c, MPI_Comm comm, int root,
                             const char *func)
{
    if (root < 0 || root >= c->group->size)
        return om_comm_error(comm, MPI_ERR_ROOT, func, "root %d (of %d)", root,
                             c->group->size);
    return MPI_SUCCESS;
}

#pragma GCC visibility pop

#endif
