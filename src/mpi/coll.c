/* MPI on ordo: collectives, blocking and non-blocking.
 *
 * Data moves through ordo's collectives as bytes: contiguous buffers as
 * they lie, others packed first and unpacked when the collective
 * completes.  A reduction whose (type, operation) pair ordo supports runs
 * as ordo's reduction; the others gather every member's contribution
 * (ordo_coll_gather / allgather) and combine them here in rank order,
 * x0 op x1 op ... (so non-commutative operations are right), then keep
 * what the call asks for: the root's result, everyone's, a prefix, or a
 * segment. */
#include <stdlib.h>
#include <string.h>

#include "coll_job.h"

/* ---------------------------------------------------------------- barrier */

static int barrier(MPI_Comm comm, MPI_Request *request, const char *func)
{
    COLL_COMM(c, comm, func);
    if (c->remote)
        return om_inter_barrier(c, comm, request, func);
    ordo_request_h oreq = NULL;
    ordo_status_t st = request ? ordo_coll_barrier_nb(c->oc, &oreq) : ordo_coll_barrier(c->oc);
    return om_coll_conclude(comm, st, oreq, NULL, request, func);
}

int PMPI_Barrier(MPI_Comm comm)
{
    return barrier(comm, NULL, "MPI_Barrier");
}
OM_ALIAS(Barrier)

int PMPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
    if (!request)
        return om_comm_error(comm, MPI_ERR_ARG, "MPI_Ibarrier", "request is NULL");
    return barrier(comm, request, "MPI_Ibarrier");
}
OM_ALIAS(Ibarrier)

/* ------------------------------------------------------------------ bcast */

static int bcast(void *buf, MPI_Count count, MPI_Datatype type, int root, MPI_Comm comm,
                 MPI_Request *request, const char *func)
{
    COLL_COMM(c, comm, func);
    if (c->remote)
        return om_inter_bcast(c, comm, buf, count, type, root, request, func);
    int rc = om_root_ok(c, comm, root, func);
    if (rc)
        return rc;
    struct MPI_ABI_Datatype *t;
    const void *data;
    size_t bytes;
    void *copy;
    rc = om_coll_bytes(comm, buf, count, type, &data, &bytes, &copy, &t, func);
    if (rc)
        return rc;
    job_t *j = NULL;
    if (copy) {
        j = om_job_new(1);
        if (!j) {
            free(copy);
            return om_comm_error(comm, MPI_ERR_NO_MEM, func, "no memory");
        }
        j->tmp = copy;
        if (c->group->rank != root) {   /* the root's data is already in place */
            j->n = 1;
            j->tlen[0] = bytes;
            j->ubuf = buf;
            j->ucount[0] = count;
            j->ut = t;
            om_type_retain(t);
        }
    }
    ordo_request_h oreq = NULL;
    int wroot = om_world_rank(c, root);
    ordo_status_t st = request ? ordo_coll_bcast_nb(c->oc, (void *)data, bytes, wroot, &oreq)
                               : ordo_coll_bcast(c->oc, (void *)data, bytes, wroot);
    return om_coll_conclude(comm, st, oreq, j, request, func);
}

int PMPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    return bcast(buffer, count, datatype, root, comm, NULL, "MPI_Bcast");
}
OM_ALIAS(Bcast)

int PMPI_Bcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    return bcast(buffer, count, datatype, root, comm, NULL, "MPI_Bcast_c");
}
OM_ALIAS(Bcast_c)

int PMPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                MPI_Request *request)
{
    if (!request)
        return om_comm_error(comm, MPI_ERR_ARG, "MPI_Ibcast", "request is NULL");
    return bcast(buffer, count, datatype, root, comm, request, "MPI_Ibcast");
}
OM_ALIAS(Ibcast)

/* ------------------------------------------------------------- reductions */

/* One entry for reduce, allreduce, scan, exscan and reduce_scatter(_block):
 * counts (NULL: every member gets `count`) gives reduce_scatter's
 * segments. */
static int reduction(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype type,
                     MPI_Op op, int root, MPI_Comm comm, int mode, const MPI_Count *counts,
                     MPI_Request *request, const char *func)
{
    COLL_COMM(c, comm, func);
    if (c->remote)
        return om_inter_reduce(c, comm, sendbuf, recvbuf, count, counts, type, op, root, mode,
                               request, func);
    int n = c->group->size, me = c->group->rank, rc;
    if (mode == R_ROOT && (rc = om_root_ok(c, comm, root, func)))
        return rc;
    struct MPI_ABI_Datatype *t;
    MPI_Count total = count, seg_first = 0, seg_count = count;
    if (mode == R_SEGMENT) {
        total = 0;
        for (int i = 0; i < n; i++) {
            MPI_Count ci = counts ? counts[i] : count;
            if (ci < 0)
                return om_comm_error(comm, MPI_ERR_COUNT, func, "recvcounts[%d] = %lld", i,
                                     (long long)ci);
            if (i == me) {
                seg_first = total;
                seg_count = ci;
            }
            total += ci;
        }
    }
    rc = om_check_buffer(recvbuf, total, type, &t);
    if (rc == MPI_SUCCESS)
        rc = om_op_check(op, t);
    if (rc != MPI_SUCCESS)
        return om_comm_error(comm, rc, func, "count %lld with this datatype and op",
                             (long long)total);
    int in_place = sendbuf == MPI_IN_PLACE;
    if (in_place && mode == R_ROOT && me != root)
        in_place = 0;   /* only the root may pass it; elsewhere it means nothing */
    const void *src = in_place ? recvbuf : sendbuf;
    size_t bytes = 0;   /* the count was checked above */
    om_type_bytes(t, total, &bytes);

    ordo_dtype_t dt;
    ordo_reduce_op_t ro;
    ordo_request_h oreq = NULL;
    ordo_status_t st;
    if (om_op_native(op, t, &dt, &ro) && mode != R_SEGMENT) {
        size_t elems = (size_t)total * t->basic_count;
        /* ordo reads sbuf == rbuf as in place */
        const void *s = src;
        void *rb = recvbuf;
        if (mode == R_ROOT) {
            int w = om_world_rank(c, root);
            st = request ? ordo_coll_reduce_nb(c->oc, s, rb, elems, dt, ro, w, &oreq)
                         : ordo_coll_reduce(c->oc, s, rb, elems, dt, ro, w);
        } else if (mode == R_ALL) {
            st = request ? ordo_coll_allreduce_nb(c->oc, s, rb, elems, dt, ro, &oreq)
                         : ordo_coll_allreduce(c->oc, s, rb, elems, dt, ro);
        } else if (mode == R_SCAN) {
            st = request ? ordo_coll_scan_nb(c->oc, s, rb, elems, dt, ro, &oreq)
                         : ordo_coll_scan(c->oc, s, rb, elems, dt, ro);
        } else {
            st = request ? ordo_coll_exscan_nb(c->oc, s, rb, elems, dt, ro, &oreq)
                         : ordo_coll_exscan(c->oc, s, rb, elems, dt, ro);
        }
        return om_coll_conclude(comm, st, oreq, NULL, request, func);
    }
    if (om_op_native(op, t, &dt, &ro) && mode == R_SEGMENT && counts == NULL && !in_place) {
        size_t elems = (size_t)count * t->basic_count;
        st = request ? ordo_coll_reduce_scatter_block_nb(c->oc, src, recvbuf, elems, dt, ro,
                                                         &oreq)
                     : ordo_coll_reduce_scatter_block(c->oc, src, recvbuf, elems, dt, ro);
        return om_coll_conclude(comm, st, oreq, NULL, request, func);
    }

    /* combined here: every contribution, packed, gathered */
    job_t *j = om_job_new(0);
    if (!j)
        return om_comm_error(comm, MPI_ERR_NO_MEM, func, "no memory");
    j->stmp = malloc(bytes ? bytes : 1);
    int everyone = mode != R_ROOT;
    if (everyone || me == root)
        j->tmp = malloc(bytes ? bytes * (size_t)n : 1);
    if (!j->stmp || ((everyone || me == root) && !j->tmp)) {
        om_job_free(j);
        return om_comm_error(comm, MPI_ERR_NO_MEM, func, "no memory for %d x %zu bytes", n,
                             bytes);
    }
    om_pack(t, src, total, j->stmp);
    om_job_reduce(j, (everyone || me == root) ? mode : R_NONE, op, t, total, n, me, recvbuf,
                  seg_first, seg_count);
    if (everyone)
        st = request ? ordo_coll_allgather_nb(c->oc, j->stmp, bytes, j->tmp, &oreq)
                     : ordo_coll_allgather(c->oc, j->stmp, bytes, j->tmp);
    else {
        int w = om_world_rank(c, root);
        st = request ? ordo_coll_gather_nb(c->oc, j->stmp, bytes, j->tmp, w, &oreq)
                     : ordo_coll_gather(c->oc, j->stmp, bytes, j->tmp, w);
    }
    return om_coll_conclude(comm, st, oreq, j, request, func);
}

#define REDUCE_FNS(NAME, INAME, CT, MODE)                                                         \
    int PMPI_##NAME(const void *sendbuf, void *recvbuf, CT count, MPI_Datatype datatype,   \
                    MPI_Op op, MPI_Comm comm)                                              \
    {                                                                                      \
        return reduction(sendbuf, recvbuf, count, datatype, op, 0, comm, MODE, NULL, NULL, \
                         "MPI_" #NAME);                                                    \
    }                                                                                      \
    OM_ALIAS(NAME)                                                                         \
    int PMPI_##INAME(const void *sendbuf, void *recvbuf, CT count, MPI_Datatype datatype,  \
                     MPI_Op op, MPI_Comm comm, MPI_Request *request)                       \
    {                                                                                      \
        if (!request)                                                                      \
            return om_comm_error(comm, MPI_ERR_ARG, "MPI_" #INAME, "request is NULL");     \
        return reduction(sendbuf, recvbuf, count, datatype, op, 0, comm, MODE, NULL,       \
                         request, "MPI_" #INAME);                                          \
    }                                                                                      \
    OM_ALIAS(INAME)

REDUCE_FNS(Allreduce, Iallreduce, int, R_ALL)
REDUCE_FNS(Scan, Iscan, int, R_SCAN)
REDUCE_FNS(Exscan, Iexscan, int, R_EXSCAN)
REDUCE_FNS(Allreduce_c, Iallreduce_c, MPI_Count, R_ALL)
REDUCE_FNS(Scan_c, Iscan_c, MPI_Count, R_SCAN)
REDUCE_FNS(Exscan_c, Iexscan_c, MPI_Count, R_EXSCAN)
REDUCE_FNS(Reduce_scatter_block, Ireduce_scatter_block, int, R_SEGMENT)
REDUCE_FNS(Reduce_scatter_block_c, Ireduce_scatter_block_c, MPI_Count, R_SEGMENT)

#define REDUCE_ROOT(NAME, INAME, CT)                                                       \
    int PMPI_##NAME(const void *sendbuf, void *recvbuf, CT count, MPI_Datatype datatype,   \
                    MPI_Op op, int root, MPI_Comm comm)                                    \
    {                                                                                      \
        return reduction(sendbuf, recvbuf, count, datatype, op, root, comm, R_ROOT, NULL,  \
                         NULL, "MPI_" #NAME);                                              \
    }                                                                                      \
    OM_ALIAS(NAME)                                                                         \
    int PMPI_##INAME(const void *sendbuf, void *recvbuf, CT count, MPI_Datatype datatype,  \
                     MPI_Op op, int root, MPI_Comm comm, MPI_Request *request)             \
    {                                                                                      \
        if (!request)                                                                      \
            return om_comm_error(comm, MPI_ERR_ARG, "MPI_" #INAME, "request is NULL");     \
        return reduction(sendbuf, recvbuf, count, datatype, op, root, comm, R_ROOT, NULL,  \
                         request, "MPI_" #INAME);                                          \
    }                                                                                      \
    OM_ALIAS(INAME)

REDUCE_ROOT(Reduce, Ireduce, int)
REDUCE_ROOT(Reduce_c, Ireduce_c, MPI_Count)

int PMPI_Reduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    if (!recvcounts)
        return om_comm_error(comm, MPI_ERR_ARG, "MPI_Reduce_scatter_c", "recvcounts is NULL");
    return reduction(sendbuf, recvbuf, 0, datatype, op, 0, comm, R_SEGMENT, recvcounts, NULL,
                     "MPI_Reduce_scatter_c");
}
OM_ALIAS(Reduce_scatter_c)

int PMPI_Ireduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                           MPI_Request *request)
{
    if (!recvcounts || !request)
        return om_comm_error(comm, MPI_ERR_ARG, "MPI_Ireduce_scatter_c", "a NULL argument");
    return reduction(sendbuf, recvbuf, 0, datatype, op, 0, comm, R_SEGMENT, recvcounts,
                     request, "MPI_Ireduce_scatter_c");
}
OM_ALIAS(Ireduce_scatter_c)

int PMPI_Ibcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                  MPI_Request *request)
{
    if (!request)
        return om_comm_error(comm, MPI_ERR_ARG, "MPI_Ibcast_c", "request is NULL");
    return bcast(buffer, count, datatype, root, comm, request, "MPI_Ibcast_c");
}
OM_ALIAS(Ibcast_c)

static int reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                          MPI_Request *request, const char *func)
{
    COLL_COMM(c, comm, func);
    if (!recvcounts)
        return om_comm_error(comm, MPI_ERR_ARG, func, "recvcounts is NULL");
    int n = c->group->size;
    MPI_Count *counts = malloc(sizeof(MPI_Count) * (size_t)n);
    if (!counts)
        return om_comm_error(comm, MPI_ERR_NO_MEM, func, "no memory");
    for (int i = 0; i < n; i++)
        counts[i] = recvcounts[i];
    /* in place: the whole input is in recvbuf, the result goes to its start */
    int rc = reduction(sendbuf, recvbuf, 0, datatype, op, 0, comm, R_SEGMENT, counts, request,
                       func);
    free(counts);
    return rc;
}

int PMPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm, NULL,
                          "MPI_Reduce_scatter");
}
OM_ALIAS(Reduce_scatter)

int PMPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    if (!request)
        return om_comm_error(comm, MPI_ERR_ARG, "MPI_Ireduce_scatter", "request is NULL");
    return reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm, request,
                          "MPI_Ireduce_scatter");
}
OM_ALIAS(Ireduce_scatter)
