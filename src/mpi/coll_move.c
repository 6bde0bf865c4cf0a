/* MPI on ordo: the collectives that move data without combining it:
 * gather, scatter, allgather, alltoall and their vector forms, blocking
 * and non-blocking.  Each maps onto ordo's byte collective of the same
 * name; a side whose datatype is not contiguous goes through a packed
 * buffer (packed before the call on the sending side, unpacked by the
 * job at completion on the receiving side). */
#include <stdlib.h>
#include <string.h>

#include "coll_job.h"

/* n blocks of a buffer in ordo's terms: block i is counts[i] elements of
 * t at element displacement displs[i] of buf (counts NULL: `count` each;
 * displs NULL: i * count).  Contiguous t: lens and offsets in bytes on
 * buf itself.  Otherwise a packed buffer in *base (owned by j): packed
 * now for a sending side, recorded in j for unpacking on a receiving one. */
typedef struct blocks {
    size_t *lens, *offs;
    char   *base;
    size_t  total;
} blocks_t;

static void blocks_free(blocks_t *b)
{
    free(b->lens);
    free(b->offs);
}

static int blocks_make(struct MPI_ABI_Datatype *t, const void *buf, int n, MPI_Count count,
                       const MPI_Count *counts, const MPI_Aint *displs, int sending, job_t *j,
                       blocks_t *b)
{
    memset(b, 0, sizeof(*b));
    b->lens = calloc((size_t)n + 1, sizeof(size_t));
    b->offs = calloc((size_t)n + 1, sizeof(size_t));
    if (!b->lens || !b->offs)
        return MPI_ERR_NO_MEM;
    size_t packed = 0;
    for (int i = 0; i < n; i++) {
        MPI_Count ci = counts ? counts[i] : count;
        MPI_Aint di = displs ? displs[i] : (MPI_Aint)i * (MPI_Aint)count;
        if (ci < 0)
            return MPI_ERR_COUNT;
        b->lens[i] = (size_t)ci * t->size;
        b->offs[i] = t->contiguous ? (size_t)(di * t->extent) : packed;
        packed += b->lens[i];
    }
    b->total = packed;
    if (t->contiguous) {
        b->base = (char *)buf;
        return MPI_SUCCESS;
    }
    char *p = malloc(packed ? packed : 1);
    if (!p)
        return MPI_ERR_NO_MEM;
    b->base = p;
    if (sending) {
        j->stmp = p;
        for (int i = 0; i < n; i++) {
            MPI_Count ci = counts ? counts[i] : count;
            MPI_Aint di = displs ? displs[i] : (MPI_Aint)i * (MPI_Aint)count;
            om_pack(t, (const char *)buf + di * t->extent, ci, p + b->offs[i]);
        }
        return MPI_SUCCESS;
    }
    j->tmp = p;
    j->n = n;
    j->ubuf = (char *)buf;
    j->ut = t;
    om_type_retain(t);
    for (int i = 0; i < n; i++) {
        MPI_Count ci = counts ? counts[i] : count;
        MPI_Aint di = displs ? displs[i] : (MPI_Aint)i * (MPI_Aint)count;
        j->tdispl[i] = b->offs[i];
        j->tlen[i] = b->lens[i];
        j->udispl[i] = di * t->extent;
        j->ucount[i] = ci;
    }
    return MPI_SUCCESS;
}

/* The program's count and displacement arrays: int, or for the
 * large-count (_c) forms MPI_Count and MPI_Aint. */
/* One entry for the eight calls.  The v forms pass counts and displs for
 * the side that has several blocks (rcounts/rdispls for gathers, scounts /
 * sdispls for scatter, both for alltoallv); the others pass NULL and a
 * count. */
static int move(enum om_move what, const void *sendbuf, MPI_Count scount, const void *scounts,
                const void *sdispls, MPI_Datatype stype, void *recvbuf, MPI_Count rcount,
                const void *rcounts, const void *rdispls, MPI_Datatype rtype, int root,
                MPI_Comm comm, MPI_Request *request, int large, const char *func)
{
    COLL_COMM(c, comm, func);
    if (c->remote) {
        int m = c->remote->size;
        MPI_Count *sc = om_counts_of(scounts, m, large), *rc_ = om_counts_of(rcounts, m, large);
        MPI_Aint *sd = om_displs_of(sdispls, m, large), *rd = om_displs_of(rdispls, m, large);
        int rc = (scounts && !sc) || (rcounts && !rc_) || (sdispls && !sd) || (rdispls && !rd)
                     ? om_comm_error(comm, MPI_ERR_NO_MEM, func, "no memory")
                     : om_inter_move(c, comm, what, sendbuf, scount, sc, sd, stype, recvbuf,
                                     rcount, rc_, rd, rtype, root, request, func);
        free(sc); free(rc_); free(sd); free(rd);
        return rc;
    }
    int n = c->group->size, me = c->group->rank, rc;
    int rooted = what == M_GATHER || what == M_SCATTER;
    if (rooted && (rc = om_root_ok(c, comm, root, func)))
        return rc;
    int at_root = rooted && me == root;
    /* in place: the root's recvbuf for scatter, everyone's sendbuf otherwise */
    int in_place = what == M_SCATTER ? recvbuf == MPI_IN_PLACE : sendbuf == MPI_IN_PLACE;
    if (in_place && rooted && !at_root)
        return om_comm_error(comm, MPI_ERR_BUFFER, func,
                             "MPI_IN_PLACE is the root's to pass");
    /* which sides have several blocks here */
    int many_recv = what == M_ALLGATHER || what == M_ALLTOALL || (what == M_GATHER && at_root);
    int many_send = what == M_ALLTOALL || (what == M_SCATTER && at_root);
    int one_send = what == M_GATHER || what == M_ALLGATHER;
    int one_recv = what == M_SCATTER;

    struct MPI_ABI_Datatype *st = NULL, *rt = NULL;
    if ((one_send || many_send) && !(in_place && what != M_SCATTER) &&
        (rc = om_check_buffer(sendbuf, scount, stype, &st)) != MPI_SUCCESS)
        return om_comm_error(comm, rc, func, "the send count or datatype");
    if ((one_recv && !(in_place && at_root)) || many_recv) {
        if ((rc = om_check_buffer(recvbuf, rcount, rtype, &rt)) != MPI_SUCCESS)
            return om_comm_error(comm, rc, func, "the receive count or datatype");
    }
    if ((scounts && many_send && (!sdispls && what != M_ALLTOALL)) ||
        (rcounts && many_recv && !rdispls))
        return om_comm_error(comm, MPI_ERR_ARG, func, "counts without displacements");

    job_t *j = om_job_new(n);
    MPI_Count *sc = om_counts_of(scounts, n, large), *rc_ = om_counts_of(rcounts, n, large);
    MPI_Aint *sd = om_displs_of(sdispls, n, large), *rd = om_displs_of(rdispls, n, large);
    blocks_t sb = {0}, rb = {0};
    int err = !j || (scounts && !sc) || (rcounts && !rc_) || (sdispls && !sd) ||
                      (rdispls && !rd)
                  ? MPI_ERR_NO_MEM
                  : MPI_SUCCESS;
    /* in place: this member's block is already where it belongs in
     * recvbuf; it is sent from a copy */
    void *inplace_copy = NULL;
    if (!err && in_place && (what == M_GATHER || what == M_ALLGATHER)) {
        MPI_Aint d = rd ? rd[me] : (MPI_Aint)me * (MPI_Aint)rcount;
        MPI_Count cnt = rc_ ? rc_[me] : rcount;
        size_t bytes = (size_t)cnt * rt->size;
        inplace_copy = malloc(bytes ? bytes : 1);
        if (!inplace_copy)
            err = MPI_ERR_NO_MEM;
        else
            om_pack(rt, (char *)recvbuf + d * rt->extent, cnt, inplace_copy);
        st = NULL;
        scount = (MPI_Count)bytes;
    }
    if (!err && in_place && what == M_ALLTOALL) {
        /* the send blocks are the receive blocks, sent from a copy */
        err = blocks_make(rt, recvbuf, n, rcount, rc_, rd, 1, j, &sb);
        if (!err && !j->stmp) {   /* contiguous: copy the span the blocks cover */
            size_t end = 0;
            for (int i = 0; i < n; i++)
                if (sb.offs[i] + sb.lens[i] > end)
                    end = sb.offs[i] + sb.lens[i];
            void *copy = malloc(end ? end : 1);
            if (!copy) {
                err = MPI_ERR_NO_MEM;
            } else {
                memcpy(copy, recvbuf, end);
                sb.base = copy;
                j->stmp = copy;
            }
        }
    } else if (!err && many_send) {
        err = blocks_make(st, sendbuf, n, scount, sc, sd, 1, j, &sb);
    }
    if (!err && many_recv)
        err = blocks_make(rt, recvbuf, n, rcount, rc_, rd, 0, j, &rb);

    const void *sdata = NULL;
    size_t sbytes = 0;
    void *scopy = NULL;
    if (!err && one_send) {
        if (inplace_copy) {
            sdata = inplace_copy;
            sbytes = (size_t)scount;
        } else {
            err = om_coll_bytes(comm, sendbuf, scount, stype, &sdata, &sbytes, &scopy, NULL,
                                func);
            if (err) {
                free(sc); free(rc_); free(sd); free(rd);
                blocks_free(&sb); blocks_free(&rb);
                om_job_free(j);
                return err;   /* already raised */
            }
        }
    }
    /* a single receive block (scatter): straight, or packed then unpacked */
    void *rdata = NULL;
    size_t rbytes = 0;
    if (!err && one_recv && !(in_place && at_root)) {
        om_type_bytes(rt, rcount, &rbytes);
        if (rt->contiguous) {
            rdata = recvbuf;
        } else {
            rdata = malloc(rbytes ? rbytes : 1);
            if (!rdata)
                err = MPI_ERR_NO_MEM;
            else {
                j->tmp = rdata;
                j->n = 1;
                j->tlen[0] = rbytes;
                j->ubuf = recvbuf;
                j->ucount[0] = rcount;
                j->ut = rt;
                om_type_retain(rt);
            }
        }
    }
    if (!err && in_place && at_root && what == M_SCATTER) {
        /* the root keeps its block where it is: it receives into a scratch
         * block of its own size */
        size_t mine = sb.lens[me];
        rdata = malloc(mine ? mine : 1);
        rbytes = mine;
        if (!rdata)
            err = MPI_ERR_NO_MEM;
        else {
            free(j->tmp);
            j->tmp = rdata;
        }
    }
    if (err) {
        free(sc); free(rc_); free(sd); free(rd); free(scopy); free(inplace_copy);
        blocks_free(&sb); blocks_free(&rb);
        om_job_free(j);
        return om_comm_error(comm, err, func, "%s",
                             err == MPI_ERR_NO_MEM ? "no memory" : "bad counts");
    }
    /* the packed send copies live as long as the job */
    if (scopy || inplace_copy) {
        void *keep = scopy ? scopy : inplace_copy;
        if (j->stmp)
            free(keep);   /* never both: a one-send call has no blocks to send */
        else
            j->stmp = keep;
    }

    ordo_request_h oreq = NULL;
    ordo_status_t ost;
    int w = rooted ? om_world_rank(c, root) : 0;
    int uniform_recv = !rcounts, uniform_send = !scounts;
    switch (what) {
    case M_GATHER:
        if (uniform_recv)
            ost = request ? ordo_coll_gather_nb(c->oc, sdata, sbytes, rb.base, w, &oreq)
                          : ordo_coll_gather(c->oc, sdata, sbytes, rb.base, w);
        else
            ost = request ? ordo_coll_gatherv_nb(c->oc, sdata, sbytes, rb.base, rb.lens,
                                                 rb.offs, w, &oreq)
                          : ordo_coll_gatherv(c->oc, sdata, sbytes, rb.base, rb.lens, rb.offs,
                                              w);
        break;
    case M_ALLGATHER:
        if (uniform_recv && rt->contiguous)
            ost = request ? ordo_coll_allgather_nb(c->oc, sdata, sbytes, rb.base, &oreq)
                          : ordo_coll_allgather(c->oc, sdata, sbytes, rb.base);
        else
            ost = request ? ordo_coll_allgatherv_nb(c->oc, sdata, sbytes, rb.base, rb.lens,
                                                    rb.offs, &oreq)
                          : ordo_coll_allgatherv(c->oc, sdata, sbytes, rb.base, rb.lens,
                                                 rb.offs);
        break;
    case M_SCATTER:
        if (uniform_send)
            ost = request ? ordo_coll_scatter_nb(c->oc, sb.base, rbytes, rdata, w, &oreq)
                          : ordo_coll_scatter(c->oc, sb.base, rbytes, rdata, w);
        else
            ost = request ? ordo_coll_scatterv_nb(c->oc, sb.base, sb.lens, sb.offs, rdata,
                                                  rbytes, w, &oreq)
                          : ordo_coll_scatterv(c->oc, sb.base, sb.lens, sb.offs, rdata, rbytes,
                                               w);
        break;
    default:
        ost = request ? ordo_coll_alltoallv_nb(c->oc, sb.base, sb.lens, sb.offs, rb.base,
                                               rb.lens, rb.offs, &oreq)
                      : ordo_coll_alltoallv(c->oc, sb.base, sb.lens, sb.offs, rb.base,
                                            rb.lens, rb.offs);
        break;
    }
    free(sc); free(rc_); free(sd); free(rd);
    /* ordo reads the length and offset arrays when the call starts: the
     * non-blocking forms keep them in the job until completion */
    if (request) {
        j->keep[0] = sb.lens;
        j->keep[1] = sb.offs;
        j->keep[2] = rb.lens;
        j->keep[3] = rb.offs;
    } else {
        blocks_free(&sb);
        blocks_free(&rb);
    }
    return om_coll_conclude(comm, ost, oreq, j, request, func);
}

/* -------------------------------------------------------------- the calls */

/* Each call and its large-count form (_c: MPI_Count counts, MPI_Aint
 * displacements), blocking and immediate. */
#define REQ_ARG(func)                                                             \
    if (!request)                                                                 \
        return om_comm_error(comm, MPI_ERR_ARG, func, "request is NULL");

#define GATHER_LIKE(NAME, INAME, WHAT, CT, L)                                                 \
    int PMPI_##NAME(const void *sendbuf, CT sendcount, MPI_Datatype sendtype, void *recvbuf,  \
                    CT recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)             \
    {                                                                                         \
        return move(WHAT, sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, recvcount, NULL, \
                    NULL, recvtype, root, comm, NULL, L, "MPI_" #NAME);                       \
    }                                                                                         \
    OM_ALIAS(NAME)                                                                            \
    int PMPI_##INAME(const void *sendbuf, CT sendcount, MPI_Datatype sendtype, void *recvbuf, \
                     CT recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,            \
                     MPI_Request *request)                                                    \
    {                                                                                         \
        REQ_ARG("MPI_" #INAME);                                                               \
        return move(WHAT, sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, recvcount, NULL, \
                    NULL, recvtype, root, comm, request, L, "MPI_" #INAME);                   \
    }                                                                                         \
    OM_ALIAS(INAME)

GATHER_LIKE(Gather, Igather, M_GATHER, int, 0)
GATHER_LIKE(Gather_c, Igather_c, M_GATHER, MPI_Count, 1)
GATHER_LIKE(Scatter, Iscatter, M_SCATTER, int, 0)
GATHER_LIKE(Scatter_c, Iscatter_c, M_SCATTER, MPI_Count, 1)

#define ALL_LIKE(NAME, INAME, WHAT, CT, L)                                                    \
    int PMPI_##NAME(const void *sendbuf, CT sendcount, MPI_Datatype sendtype, void *recvbuf,  \
                    CT recvcount, MPI_Datatype recvtype, MPI_Comm comm)                       \
    {                                                                                         \
        return move(WHAT, sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, recvcount, NULL, \
                    NULL, recvtype, 0, comm, NULL, L, "MPI_" #NAME);                          \
    }                                                                                         \
    OM_ALIAS(NAME)                                                                            \
    int PMPI_##INAME(const void *sendbuf, CT sendcount, MPI_Datatype sendtype, void *recvbuf, \
                     CT recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request) \
    {                                                                                         \
        REQ_ARG("MPI_" #INAME);                                                               \
        return move(WHAT, sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, recvcount, NULL, \
                    NULL, recvtype, 0, comm, request, L, "MPI_" #INAME);                      \
    }                                                                                         \
    OM_ALIAS(INAME)

ALL_LIKE(Allgather, Iallgather, M_ALLGATHER, int, 0)
ALL_LIKE(Allgather_c, Iallgather_c, M_ALLGATHER, MPI_Count, 1)
ALL_LIKE(Alltoall, Ialltoall, M_ALLTOALL, int, 0)
ALL_LIKE(Alltoall_c, Ialltoall_c, M_ALLTOALL, MPI_Count, 1)

#define GATHERV(NAME, INAME, CT, AT, L)                                                       \
    int PMPI_##NAME(const void *sendbuf, CT sendcount, MPI_Datatype sendtype, void *recvbuf,  \
                    const CT recvcounts[], const AT displs[], MPI_Datatype recvtype, int root, \
                    MPI_Comm comm)                                                            \
    {                                                                                         \
        return move(M_GATHER, sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, 0,           \
                    recvcounts, displs, recvtype, root, comm, NULL, L, "MPI_" #NAME);         \
    }                                                                                         \
    OM_ALIAS(NAME)                                                                            \
    int PMPI_##INAME(const void *sendbuf, CT sendcount, MPI_Datatype sendtype, void *recvbuf, \
                     const CT recvcounts[], const AT displs[], MPI_Datatype recvtype,         \
                     int root, MPI_Comm comm, MPI_Request *request)                           \
    {                                                                                         \
        REQ_ARG("MPI_" #INAME);                                                               \
        return move(M_GATHER, sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, 0,           \
                    recvcounts, displs, recvtype, root, comm, request, L, "MPI_" #INAME);     \
    }                                                                                         \
    OM_ALIAS(INAME)

GATHERV(Gatherv, Igatherv, int, int, 0)
GATHERV(Gatherv_c, Igatherv_c, MPI_Count, MPI_Aint, 1)

#define SCATTERV(NAME, INAME, CT, AT, L)                                                      \
    int PMPI_##NAME(const void *sendbuf, const CT sendcounts[], const AT displs[],            \
                    MPI_Datatype sendtype, void *recvbuf, CT recvcount,                       \
                    MPI_Datatype recvtype, int root, MPI_Comm comm)                           \
    {                                                                                         \
        return move(M_SCATTER, sendbuf, 0, sendcounts, displs, sendtype, recvbuf, recvcount,  \
                    NULL, NULL, recvtype, root, comm, NULL, L, "MPI_" #NAME);                 \
    }                                                                                         \
    OM_ALIAS(NAME)                                                                            \
    int PMPI_##INAME(const void *sendbuf, const CT sendcounts[], const AT displs[],           \
                     MPI_Datatype sendtype, void *recvbuf, CT recvcount,                      \
                     MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)    \
    {                                                                                         \
        REQ_ARG("MPI_" #INAME);                                                               \
        return move(M_SCATTER, sendbuf, 0, sendcounts, displs, sendtype, recvbuf, recvcount,  \
                    NULL, NULL, recvtype, root, comm, request, L, "MPI_" #INAME);             \
    }                                                                                         \
    OM_ALIAS(INAME)

SCATTERV(Scatterv, Iscatterv, int, int, 0)
SCATTERV(Scatterv_c, Iscatterv_c, MPI_Count, MPI_Aint, 1)

#define ALLGATHERV(NAME, INAME, CT, AT, L)                                                    \
    int PMPI_##NAME(const void *sendbuf, CT sendcount, MPI_Datatype sendtype, void *recvbuf,  \
                    const CT recvcounts[], const AT displs[], MPI_Datatype recvtype,          \
                    MPI_Comm comm)                                                            \
    {                                                                                         \
        return move(M_ALLGATHER, sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, 0,        \
                    recvcounts, displs, recvtype, 0, comm, NULL, L, "MPI_" #NAME);            \
    }                                                                                         \
    OM_ALIAS(NAME)                                                                            \
    int PMPI_##INAME(const void *sendbuf, CT sendcount, MPI_Datatype sendtype, void *recvbuf, \
                     const CT recvcounts[], const AT displs[], MPI_Datatype recvtype,         \
                     MPI_Comm comm, MPI_Request *request)                                     \
    {                                                                                         \
        REQ_ARG("MPI_" #INAME);                                                               \
        return move(M_ALLGATHER, sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, 0,        \
                    recvcounts, displs, recvtype, 0, comm, request, L, "MPI_" #INAME);        \
    }                                                                                         \
    OM_ALIAS(INAME)

ALLGATHERV(Allgatherv, Iallgatherv, int, int, 0)
ALLGATHERV(Allgatherv_c, Iallgatherv_c, MPI_Count, MPI_Aint, 1)

#define ALLTOALLV(NAME, INAME, CT, AT, L)                                                     \
    int PMPI_##NAME(const void *sendbuf, const CT sendcounts[], const AT sdispls[],           \
                    MPI_Datatype sendtype, void *recvbuf, const CT recvcounts[],              \
                    const AT rdispls[], MPI_Datatype recvtype, MPI_Comm comm)                 \
    {                                                                                         \
        return move(M_ALLTOALL, sendbuf, 0, sendcounts, sdispls, sendtype, recvbuf, 0,        \
                    recvcounts, rdispls, recvtype, 0, comm, NULL, L, "MPI_" #NAME);           \
    }                                                                                         \
    OM_ALIAS(NAME)                                                                            \
    int PMPI_##INAME(const void *sendbuf, const CT sendcounts[], const AT sdispls[],          \
                     MPI_Datatype sendtype, void *recvbuf, const CT recvcounts[],             \
                     const AT rdispls[], MPI_Datatype recvtype, MPI_Comm comm,                \
                     MPI_Request *request)                                                    \
    {                                                                                         \
        REQ_ARG("MPI_" #INAME);                                                               \
        return move(M_ALLTOALL, sendbuf, 0, sendcounts, sdispls, sendtype, recvbuf, 0,        \
                    recvcounts, rdispls, recvtype, 0, comm, request, L, "MPI_" #INAME);       \
    }                                                                                         \
    OM_ALIAS(INAME)

ALLTOALLV(Alltoallv, Ialltoallv, int, int, 0)
ALLTOALLV(Alltoallv_c, Ialltoallv_c, MPI_Count, MPI_Aint, 1)
