/* MPI on ordo: the neighbourhood collectives (Neighbor_allgather(v),
 * Neighbor_alltoall(v,w)), blocking and non-blocking, with their
 * large-count forms, on Cartesian, graph and distributed graph
 * communicators.  Each maps onto ordo's neighbourhood exchange: the blocks
 * as bytes, a side whose blocks are not all contiguous going through a
 * packed buffer (packed at the call, unpacked block by block at
 * completion); blocks to or from MPI_PROC_NULL are left out, their place
 * in the buffer untouched.  On a grid the neighbours are, per dimension,
 * the one below then the one above, and what a process sends downwards is
 * received upwards: each direction has its own tag, so a periodic
 * dimension of size 1 or 2, where both neighbours are one process, still
 * puts every block in its place. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "coll_job.h"

/* One side: n blocks, block k counts[k] elements of types[k] at byte
 * displacement displs[k] of the buffer; peers[k] its comm rank (or
 * MPI_PROC_NULL), tags[k] its direction's tag (NULL: 0). */
typedef struct nside {
    int n;
    const int *peers;
    int *tags;
    MPI_Count *counts;
    MPI_Aint *displs;
    MPI_Datatype *types;
} nside_t;

typedef struct nbrs {
    int nin, nout;
    const int *in, *out;
    int *grid;         /* a grid's neighbours (ours to free) */
    int *rtags, *stags;
} nbrs_t;

static void nbrs_free(nbrs_t *nb)
{
    free(nb->grid);
    free(nb->rtags);
    free(nb->stags);
}

/* The topology's neighbours of this process, or MPI_ERR_TOPOLOGY. */
static int neighbours(struct MPI_ABI_Comm *c, nbrs_t *nb)
{
    memset(nb, 0, sizeof(*nb));
    if (c->graph)
        return om_graph_neighbors(c, &nb->nin, &nb->in, &nb->nout, &nb->out);
    if (!c->cart)
        return MPI_ERR_TOPOLOGY;
    int n = 2 * c->cart->ndims;
    nb->grid = malloc(sizeof(int) * (size_t)(n ? n : 1));
    nb->rtags = malloc(sizeof(int) * (size_t)(n ? n : 1));
    nb->stags = malloc(sizeof(int) * (size_t)(n ? n : 1));
    if (!nb->grid || !nb->rtags || !nb->stags)
        return MPI_ERR_NO_MEM;
    nb->nin = nb->nout = om_cart_neighbors(c, nb->grid);
    nb->in = nb->out = nb->grid;
    for (int k = 0; k < n; k++) {
        /* sent downwards (even k) with tag k; the one below receives it
         * from above (its k + 1), so a receive expects its partner's tag */
        nb->stags[k] = k % 64;
        nb->rtags[k] = (k ^ 1) % 64;
    }
    return MPI_SUCCESS;
}

/* ordo's arrays for one side, PROC_NULL blocks left out: world ranks,
 * tags, byte lengths and offsets (in buf itself where every block there
 * is contiguous, else in a packed buffer). */
typedef struct oside {
    int     m;
    int    *peers, *tags;
    size_t *lens, *offs;
    char   *base;
} oside_t;

static int side_build(struct MPI_ABI_Comm *c, const nside_t *s, const void *buf, int sending,
                      job_t *j, int *keep_i, oside_t *o)
{
    struct MPI_ABI_Datatype **t = calloc((size_t)(s->n ? s->n : 1), sizeof(*t));
    if (!t)
        return MPI_ERR_NO_MEM;
    int direct = 1, rc = MPI_SUCCESS;
    size_t *len = calloc((size_t)(s->n ? s->n : 1), sizeof(size_t));
    if (!len) {
        free(t);
        return MPI_ERR_NO_MEM;
    }
    for (int k = 0; k < s->n && rc == MPI_SUCCESS; k++) {
        if (s->peers[k] == MPI_PROC_NULL)
            continue;
        rc = om_check_buffer(buf, s->counts[k], s->types[k], &t[k]);
        if (rc == MPI_SUCCESS) {
            om_type_bytes(t[k], s->counts[k], &len[k]);
            if (len[k] && !t[k]->contiguous)
                direct = 0;
        }
    }
    /* one allocation for ordo's arrays, kept by the job until completion */
    size_t nn = (size_t)(s->n ? s->n : 1);
    char *mem = rc == MPI_SUCCESS ? calloc(1, nn * (2 * sizeof(int) + 2 * sizeof(size_t)))
                                  : NULL;
    if (rc == MPI_SUCCESS && !mem)
        rc = MPI_ERR_NO_MEM;
    if (rc != MPI_SUCCESS) {
        free(t);
        free(len);
        return rc;
    }
    j->keep[(*keep_i)++] = (size_t *)mem;
    o->lens = (size_t *)mem;
    o->offs = o->lens + nn;
    o->peers = (int *)(o->offs + nn);
    o->tags = o->peers + nn;
    o->m = 0;
    size_t packed = 0;
    for (int k = 0; k < s->n; k++)
        if (s->peers[k] != MPI_PROC_NULL)
            packed += len[k];
    char *p = NULL;
    if (!direct) {
        p = malloc(packed ? packed : 1);
        if (!p) {
            free(t);
            free(len);
            return MPI_ERR_NO_MEM;
        }
        if (sending) {
            j->stmp = p;
        } else {
            j->tmp = p;
            j->ubuf = (char *)buf;
            j->uts = calloc(nn, sizeof(*j->uts));
            if (!j->uts) {
                free(t);
                free(len);
                return MPI_ERR_NO_MEM;
            }
        }
    }
    /* in place: offsets from the lowest block, so none is negative (and
     * MPI_BOTTOM, whose displacements are addresses, works) */
    MPI_Aint low = 0;
    int any = 0;
    for (int k = 0; direct && k < s->n; k++)
        if (s->peers[k] != MPI_PROC_NULL && len[k] && (!any || s->displs[k] < low))
            low = s->displs[k], any = 1;
    o->base = direct ? (char *)((uintptr_t)buf + (uintptr_t)low) : p;
    size_t at = 0;
    for (int k = 0; k < s->n; k++) {
        if (s->peers[k] == MPI_PROC_NULL)
            continue;
        int m = o->m++;
        o->peers[m] = om_world_rank(c, s->peers[k]);
        o->tags[m] = s->tags ? s->tags[k] : 0;
        o->lens[m] = len[k];
        o->offs[m] = direct ? (len[k] ? (size_t)(s->displs[k] - low) : 0) : at;
        if (!direct && sending) {
            om_pack(t[k], (const char *)buf + s->displs[k], s->counts[k], p + at);
        } else if (!direct) {
            j->tdispl[j->n] = at;
            j->tlen[j->n] = len[k];
            j->udispl[j->n] = s->displs[k];
            j->ucount[j->n] = s->counts[k];
            j->uts[j->n] = t[k];
            om_type_retain(t[k]);
            j->n++;
        }
        at += len[k];
    }
    free(t);
    free(len);
    return MPI_SUCCESS;
}

static int exchange(struct MPI_ABI_Comm *c, MPI_Comm comm, const void *sendbuf,
                    const nside_t *snd, void *recvbuf, const nside_t *rcv,
                    MPI_Request *request, const char *func)
{
    job_t *j = om_job_new(rcv->n);
    if (!j)
        return om_comm_error(comm, MPI_ERR_NO_MEM, func, "no memory");
    int keep_i = 0;
    oside_t so, ro;
    int rc = side_build(c, snd, sendbuf, 1, j, &keep_i, &so);
    if (rc == MPI_SUCCESS)
        rc = side_build(c, rcv, recvbuf, 0, j, &keep_i, &ro);
    if (rc != MPI_SUCCESS) {
        om_job_free(j);
        return om_comm_error(comm, rc, func, "%s", rc == MPI_ERR_NO_MEM ? "no memory"
                                                  : "a count or datatype");
    }
    ordo_request_h oreq = NULL;
    ordo_status_t st =
        request ? ordo_coll_neighbor_alltoallv_nb(c->oc, so.base, so.m, so.peers, so.lens,
                                                  so.offs, so.tags, ro.base, ro.m, ro.peers,
                                                  ro.lens, ro.offs, ro.tags, &oreq)
                : ordo_coll_neighbor_alltoallv(c->oc, so.base, so.m, so.peers, so.lens,
                                               so.offs, so.tags, ro.base, ro.m, ro.peers,
                                               ro.lens, ro.offs, ro.tags);
    return om_coll_conclude(comm, st, oreq, j, request, func);
}

enum nkind { N_ALLGATHER, N_ALLGATHERV, N_ALLTOALL, N_ALLTOALLV, N_ALLTOALLW };

/* The program's arguments, whatever the call: counts / displacements of
 * either width (large: MPI_Count / MPI_Aint), element displacements
 * (v forms) or bytes (w). */
typedef struct nargs {
    const void *buf;
    MPI_Count count;              /* allgather's send, alltoall's both */
    const void *counts, *displs;  /* the v and w forms */
    MPI_Datatype type;
    const MPI_Datatype *types;    /* w */
} nargs_t;

static MPI_Count arg_count(const nargs_t *a, int k, int large)
{
    return large ? ((const MPI_Count *)a->counts)[k] : ((const int *)a->counts)[k];
}

static MPI_Aint arg_displ(const nargs_t *a, int k, int large)
{
    return large ? ((const MPI_Aint *)a->displs)[k] : ((const int *)a->displs)[k];
}

/* One side's blocks as nside_t (arrays ours to free). */
static int describe(enum nkind kind, int sending, const nargs_t *a, int large, int n,
                    const int *peers, int *tags, nside_t *s)
{
    memset(s, 0, sizeof(*s));
    s->n = n;
    s->peers = peers;
    s->tags = tags;
    size_t nn = (size_t)(n ? n : 1);
    s->counts = malloc(nn * sizeof(MPI_Count));
    s->displs = malloc(nn * sizeof(MPI_Aint));
    s->types = malloc(nn * sizeof(MPI_Datatype));
    if (!s->counts || !s->displs || !s->types)
        return MPI_ERR_NO_MEM;
    int vector = (kind == N_ALLGATHERV && !sending) || kind == N_ALLTOALLV;
    if ((vector || kind == N_ALLTOALLW) && n > 0 && (!a->counts || !a->displs))
        return MPI_ERR_ARG;
    if (kind == N_ALLTOALLW && n > 0 && !a->types)
        return MPI_ERR_ARG;
    MPI_Aint extent = 0;
    if (kind != N_ALLTOALLW) {
        struct MPI_ABI_Datatype *t = om_type(a->type);
        if (!t)
            return MPI_ERR_TYPE;
        extent = t->extent;
    }
    for (int k = 0; k < n; k++) {
        if (kind == N_ALLTOALLW) {   /* byte displacements, MPI_Aint in both forms */
            s->counts[k] = arg_count(a, k, large);
            s->displs[k] = ((const MPI_Aint *)a->displs)[k];
            s->types[k] = a->types[k];
        } else if (vector) {
            s->counts[k] = arg_count(a, k, large);
            s->displs[k] = arg_displ(a, k, large) * extent;
            s->types[k] = a->type;
        } else {
            /* allgather sends one block to all; the others are a row */
            int row = !(kind == N_ALLGATHER || kind == N_ALLGATHERV) || !sending;
            s->counts[k] = a->count;
            s->displs[k] = row ? (MPI_Aint)k * (MPI_Aint)a->count * extent : 0;
            s->types[k] = a->type;
        }
        if (s->counts[k] < 0)
            return MPI_ERR_COUNT;
    }
    return MPI_SUCCESS;
}

static void describe_free(nside_t *s)
{
    free(s->counts);
    free(s->displs);
    free(s->types);
}

static int neighbor(enum nkind kind, nargs_t snd, nargs_t rcv, MPI_Comm comm,
                    MPI_Request *request, int large, const char *func)
{
    COLL_COMM(c, comm, func);
    if (snd.buf == MPI_IN_PLACE || rcv.buf == MPI_IN_PLACE)
        return om_comm_error(comm, MPI_ERR_BUFFER, func,
                             "MPI_IN_PLACE is not allowed in a neighbourhood collective");
    nbrs_t nb;
    int rc = neighbours(c, &nb);
    if (rc != MPI_SUCCESS) {
        nbrs_free(&nb);
        return om_comm_error(comm, rc, func, "%s", rc == MPI_ERR_TOPOLOGY
                             ? "the communicator has no topology" : "no memory");
    }
    nside_t s, r;
    rc = describe(kind, 1, &snd, large, nb.nout, nb.out, nb.stags, &s);
    int rc2 = describe(kind, 0, &rcv, large, nb.nin, nb.in, nb.rtags, &r);
    if (rc == MPI_SUCCESS)
        rc = rc2;
    if (rc == MPI_SUCCESS)
        rc = exchange(c, comm, snd.buf, &s, (void *)rcv.buf, &r, request, func);
    else
        rc = om_comm_error(comm, rc, func, "the counts, displacements or datatypes");
    describe_free(&s);
    describe_free(&r);
    nbrs_free(&nb);
    return rc;
}

/* -------------------------------------------------------------- the calls */

#define NREQ(func)                                                                \
    if (!request)                                                                 \
        return om_comm_error(comm, MPI_ERR_ARG, func, "request is NULL");

/* allgather and alltoall: one count and type each side, told apart by KIND */
#define N_SAME_COUNT_CALLS(KIND, NAME, INAME, CT, L)                                          \
    int PMPI_##NAME(const void *sendbuf, CT sendcount, MPI_Datatype sendtype, void *recvbuf,  \
                    CT recvcount, MPI_Datatype recvtype, MPI_Comm comm)                       \
    {                                                                                         \
        nargs_t s = {.buf = sendbuf, .count = sendcount, .type = sendtype};                   \
        nargs_t r = {.buf = recvbuf, .count = recvcount, .type = recvtype};                   \
        return neighbor(KIND, s, r, comm, NULL, L, "MPI_" #NAME);                             \
    }                                                                                         \
    OM_ALIAS(NAME)                                                                            \
    int PMPI_##INAME(const void *sendbuf, CT sendcount, MPI_Datatype sendtype, void *recvbuf, \
                     CT recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request) \
    {                                                                                         \
        NREQ("MPI_" #INAME);                                                                  \
        nargs_t s = {.buf = sendbuf, .count = sendcount, .type = sendtype};                   \
        nargs_t r = {.buf = recvbuf, .count = recvcount, .type = recvtype};                   \
        return neighbor(KIND, s, r, comm, request, L, "MPI_" #INAME);                         \
    }                                                                                         \
    OM_ALIAS(INAME)

N_SAME_COUNT_CALLS(N_ALLGATHER, Neighbor_allgather, Ineighbor_allgather, int, 0)
N_SAME_COUNT_CALLS(N_ALLGATHER, Neighbor_allgather_c, Ineighbor_allgather_c, MPI_Count, 1)
N_SAME_COUNT_CALLS(N_ALLTOALL, Neighbor_alltoall, Ineighbor_alltoall, int, 0)
N_SAME_COUNT_CALLS(N_ALLTOALL, Neighbor_alltoall_c, Ineighbor_alltoall_c, MPI_Count, 1)

#define N_ALLGATHERV_CALLS(NAME, INAME, CT, AT, L)                                            \
    int PMPI_##NAME(const void *sendbuf, CT sendcount, MPI_Datatype sendtype, void *recvbuf,  \
                    const CT recvcounts[], const AT displs[], MPI_Datatype recvtype,          \
                    MPI_Comm comm)                                                            \
    {                                                                                         \
        nargs_t s = {.buf = sendbuf, .count = sendcount, .type = sendtype};                   \
        nargs_t r = {.buf = recvbuf, .counts = recvcounts, .displs = displs,                  \
                     .type = recvtype};                                                       \
        return neighbor(N_ALLGATHERV, s, r, comm, NULL, L, "MPI_" #NAME);                     \
    }                                                                                         \
    OM_ALIAS(NAME)                                                                            \
    int PMPI_##INAME(const void *sendbuf, CT sendcount, MPI_Datatype sendtype, void *recvbuf, \
                     const CT recvcounts[], const AT displs[], MPI_Datatype recvtype,         \
                     MPI_Comm comm, MPI_Request *request)                                     \
    {                                                                                         \
        NREQ("MPI_" #INAME);                                                                  \
        nargs_t s = {.buf = sendbuf, .count = sendcount, .type = sendtype};                   \
        nargs_t r = {.buf = recvbuf, .counts = recvcounts, .displs = displs,                  \
                     .type = recvtype};                                                       \
        return neighbor(N_ALLGATHERV, s, r, comm, request, L, "MPI_" #INAME);                 \
    }                                                                                         \
    OM_ALIAS(INAME)

N_ALLGATHERV_CALLS(Neighbor_allgatherv, Ineighbor_allgatherv, int, int, 0)
N_ALLGATHERV_CALLS(Neighbor_allgatherv_c, Ineighbor_allgatherv_c, MPI_Count, MPI_Aint, 1)

#define N_ALLTOALLV_CALLS(NAME, INAME, CT, AT, L)                                             \
    int PMPI_##NAME(const void *sendbuf, const CT sendcounts[], const AT sdispls[],           \
                    MPI_Datatype sendtype, void *recvbuf, const CT recvcounts[],              \
                    const AT rdispls[], MPI_Datatype recvtype, MPI_Comm comm)                 \
    {                                                                                         \
        nargs_t s = {.buf = sendbuf, .counts = sendcounts, .displs = sdispls,                 \
                     .type = sendtype};                                                       \
        nargs_t r = {.buf = recvbuf, .counts = recvcounts, .displs = rdispls,                 \
                     .type = recvtype};                                                       \
        return neighbor(N_ALLTOALLV, s, r, comm, NULL, L, "MPI_" #NAME);                      \
    }                                                                                         \
    OM_ALIAS(NAME)                                                                            \
    int PMPI_##INAME(const void *sendbuf, const CT sendcounts[], const AT sdispls[],          \
                     MPI_Datatype sendtype, void *recvbuf, const CT recvcounts[],             \
                     const AT rdispls[], MPI_Datatype recvtype, MPI_Comm comm,                \
                     MPI_Request *request)                                                    \
    {                                                                                         \
        NREQ("MPI_" #INAME);                                                                  \
        nargs_t s = {.buf = sendbuf, .counts = sendcounts, .displs = sdispls,                 \
                     .type = sendtype};                                                       \
        nargs_t r = {.buf = recvbuf, .counts = recvcounts, .displs = rdispls,                 \
                     .type = recvtype};                                                       \
        return neighbor(N_ALLTOALLV, s, r, comm, request, L, "MPI_" #INAME);                  \
    }                                                                                         \
    OM_ALIAS(INAME)

N_ALLTOALLV_CALLS(Neighbor_alltoallv, Ineighbor_alltoallv, int, int, 0)
N_ALLTOALLV_CALLS(Neighbor_alltoallv_c, Ineighbor_alltoallv_c, MPI_Count, MPI_Aint, 1)

#define N_ALLTOALLW_CALLS(NAME, INAME, CT, AT, L)                                             \
    int PMPI_##NAME(const void *sendbuf, const CT sendcounts[], const MPI_Aint sdispls[],     \
                    const MPI_Datatype sendtypes[], void *recvbuf, const CT recvcounts[],     \
                    const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)  \
    {                                                                                         \
        nargs_t s = {.buf = sendbuf, .counts = sendcounts, .displs = sdispls,                 \
                     .types = sendtypes};                                                     \
        nargs_t r = {.buf = recvbuf, .counts = recvcounts, .displs = rdispls,                 \
                     .types = recvtypes};                                                     \
        return neighbor(N_ALLTOALLW, s, r, comm, NULL, L, "MPI_" #NAME);                      \
    }                                                                                         \
    OM_ALIAS(NAME)                                                                            \
    int PMPI_##INAME(const void *sendbuf, const CT sendcounts[], const MPI_Aint sdispls[],    \
                     const MPI_Datatype sendtypes[], void *recvbuf, const CT recvcounts[],    \
                     const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, \
                     MPI_Request *request)                                                    \
    {                                                                                         \
        NREQ("MPI_" #INAME);                                                                  \
        nargs_t s = {.buf = sendbuf, .counts = sendcounts, .displs = sdispls,                 \
                     .types = sendtypes};                                                     \
        nargs_t r = {.buf = recvbuf, .counts = recvcounts, .displs = rdispls,                 \
                     .types = recvtypes};                                                     \
        return neighbor(N_ALLTOALLW, s, r, comm, request, L, "MPI_" #INAME);                  \
    }                                                                                         \
    OM_ALIAS(INAME)

N_ALLTOALLW_CALLS(Neighbor_alltoallw, Ineighbor_alltoallw, int, MPI_Aint, 0)
N_ALLTOALLW_CALLS(Neighbor_alltoallw_c, Ineighbor_alltoallw_c, MPI_Count, MPI_Aint, 1)
