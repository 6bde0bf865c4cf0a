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
/* How long an array is: one entry per member (ALL), per member at the
 * root alone (ROOT), per neighbour sent to (OUT) or received from (IN). */
enum { OM_PSIDE_ALL, OM_PSIDE_ROOT, OM_PSIDE_OUT, OM_PSIDE_IN };
/* A copy of arr (elem bytes an entry) kept in keep, or arr itself where
 * nothing is to copy (NULL, no entries; keep->failed when out of memory). */
const void *om_pcoll_keep(om_pkeep_t *keep, MPI_Comm comm, const void *arr, size_t elem,
                          int side, int root);
int om_persistent_init(MPI_Comm comm, om_pcoll_start_t start, const void *args, size_t len,
                       om_pkeep_t *keep, MPI_Info info, MPI_Request *request,
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
