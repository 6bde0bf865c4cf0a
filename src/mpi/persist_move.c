/* MPI on ordo: persistent collectives (MPI-4's *_init), the data-moving
 * ones here, the reductions and neighbourhood ones in persist_reduce.c.
 * An init call keeps its arguments: buffers by reference (the program
 * keeps them until the request is freed), count, displacement and type
 * arrays copied (programs reuse theirs, as mpi4py does); each MPI_Start
 * runs the immediate form with them and the persistent request takes over
 * what that started (request.c).  Errors in the arguments surface at
 * MPI_Start. */
#include <stdlib.h>
#include <string.h>

#include "coll_job.h"

struct om_pcoll {
    om_pcoll_start_t start;
    om_pkeep_t       keep;         /* the copied arrays */
    _Alignas(max_align_t) char args[];
};

const void *om_pcoll_keep(om_pkeep_t *keep, MPI_Comm comm, const void *arr, size_t elem,
                          int side, int root)
{
    struct MPI_ABI_Comm *c = om_comm(comm);
    if (!arr || !c)
        return arr;
    int n = om_peer_group(c)->size;   /* an intercommunicator's arrays name remote ranks */
    if (side == OM_PSIDE_ROOT) {
        /* read at the root alone (MPI_ROOT names it on an intercommunicator) */
        n = (c->remote ? root == MPI_ROOT : c->group->rank == root) ? n : 0;
    } else if (side == OM_PSIDE_LOCAL) {
        n = c->group->size;
    } else if (side != OM_PSIDE_ALL) {
        int nin = 0, nout = 0;
        const int *in, *out;
        if (c->graph)
            om_graph_neighbors(c, &nin, &in, &nout, &out);
        else if (c->cart)
            nin = nout = 2 * c->cart->ndims;
        n = side == OM_PSIDE_IN ? nin : nout;
    }
    if (n <= 0)
        return arr;
    void *copy = keep->n < OM_PKEEP_MAX ? malloc(elem * (size_t)n) : NULL;
    if (!copy) {
        keep->failed = 1;
        return arr;
    }
    memcpy(copy, arr, elem * (size_t)n);
    keep->blocks[keep->n++] = copy;
    return copy;
}

static void keep_free(om_pkeep_t *keep)
{
    for (int i = 0; i < keep->n; i++)
        free(keep->blocks[i]);
    keep->n = 0;
}

void om_pcoll_free(struct om_pcoll *p)
{
    keep_free(&p->keep);
    free(p);
}

int om_persistent_init(MPI_Comm comm, om_pcoll_start_t start, const void *args, size_t len,
                       om_pkeep_t *keep, MPI_Info info, MPI_Request *request, const char *func)
{
    om_pkeep_t none = {0};
    if (!keep)
        keep = &none;
    if (!om_ready(func))
        return MPI_ERR_OTHER;
    if (!om_comm(comm)) {
        keep_free(keep);
        return om_comm_error(comm, MPI_ERR_COMM, func, "not a communicator");
    }
    (void)info;   /* no hint changes how ordo runs a collective */
    if (!request) {
        keep_free(keep);
        return om_comm_error(comm, MPI_ERR_ARG, func, "request is NULL");
    }
    struct MPI_ABI_Request *r = keep->failed ? NULL : om_req_new(OM_REQ_COLL, comm);
    struct om_pcoll *p = r ? malloc(sizeof(*p) + len) : NULL;
    if (!p) {
        if (r)
            om_req_free(r);
        keep_free(keep);
        return om_comm_error(comm, MPI_ERR_NO_MEM, func, "no memory for a request");
    }
    p->start = start;
    p->keep = *keep;
    memcpy(p->args, args, len);
    r->persistent = 1;
    r->pcoll = p;
    *request = r;
    return MPI_SUCCESS;
}

int om_pcoll_run(const struct om_pcoll *p, MPI_Request *op)
{
    return p->start(p->args, op);
}

typedef struct {
    MPI_Comm comm;
} Barrier_init_args_t;

static int start_Barrier_init(const void *args, MPI_Request *out)
{
    const Barrier_init_args_t *a = args;
    return PMPI_Ibarrier(a->comm, out);
}

int PMPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request* request)
{
    Barrier_init_args_t a = {comm};
    return om_persistent_init(comm, start_Barrier_init, &a, sizeof(a), NULL, info, request,
                              "MPI_Barrier_init");
}
OM_ALIAS(Barrier_init)

typedef struct {
    void* buffer;
    int count;
    MPI_Datatype datatype;
    int root;
    MPI_Comm comm;
} Bcast_init_args_t;

static int start_Bcast_init(const void *args, MPI_Request *out)
{
    const Bcast_init_args_t *a = args;
    return PMPI_Ibcast(a->buffer, a->count, a->datatype, a->root, a->comm, out);
}

int PMPI_Bcast_init(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                    MPI_Info info, MPI_Request* request)
{
    Bcast_init_args_t a = {buffer, count, datatype, root, comm};
    return om_persistent_init(comm, start_Bcast_init, &a, sizeof(a), NULL, info, request,
                              "MPI_Bcast_init");
}
OM_ALIAS(Bcast_init)

typedef struct {
    void* buffer;
    MPI_Count count;
    MPI_Datatype datatype;
    int root;
    MPI_Comm comm;
} Bcast_init_c_args_t;

static int start_Bcast_init_c(const void *args, MPI_Request *out)
{
    const Bcast_init_c_args_t *a = args;
    return PMPI_Ibcast_c(a->buffer, a->count, a->datatype, a->root, a->comm, out);
}

int PMPI_Bcast_init_c(void* buffer, MPI_Count count, MPI_Datatype datatype, int root,
                      MPI_Comm comm, MPI_Info info, MPI_Request* request)
{
    Bcast_init_c_args_t a = {buffer, count, datatype, root, comm};
    return om_persistent_init(comm, start_Bcast_init_c, &a, sizeof(a), NULL, info, request,
                              "MPI_Bcast_init_c");
}
OM_ALIAS(Bcast_init_c)

typedef struct {
    const void* sendbuf;
    int sendcount;
    MPI_Datatype sendtype;
    void* recvbuf;
    int recvcount;
    MPI_Datatype recvtype;
    int root;
    MPI_Comm comm;
} Gather_init_args_t;

static int start_Gather_init(const void *args, MPI_Request *out)
{
    const Gather_init_args_t *a = args;
    return PMPI_Igather(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcount,
                        a->recvtype, a->root, a->comm, out);
}

int PMPI_Gather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                     int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                     MPI_Info info, MPI_Request* request)
{
    Gather_init_args_t a = {sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                            comm};
    return om_persistent_init(comm, start_Gather_init, &a, sizeof(a), NULL, info, request,
                              "MPI_Gather_init");
}
OM_ALIAS(Gather_init)

typedef struct {
    const void* sendbuf;
    MPI_Count sendcount;
    MPI_Datatype sendtype;
    void* recvbuf;
    MPI_Count recvcount;
    MPI_Datatype recvtype;
    int root;
    MPI_Comm comm;
} Gather_init_c_args_t;

static int start_Gather_init_c(const void *args, MPI_Request *out)
{
    const Gather_init_c_args_t *a = args;
    return PMPI_Igather_c(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcount,
                          a->recvtype, a->root, a->comm, out);
}

int PMPI_Gather_init_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                       void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                       MPI_Comm comm, MPI_Info info, MPI_Request* request)
{
    Gather_init_c_args_t a = {sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                              comm};
    return om_persistent_init(comm, start_Gather_init_c, &a, sizeof(a), NULL, info, request,
                              "MPI_Gather_init_c");
}
OM_ALIAS(Gather_init_c)

typedef struct {
    const void* sendbuf;
    int sendcount;
    MPI_Datatype sendtype;
    void* recvbuf;
    const int *recvcounts;
    const int *displs;
    MPI_Datatype recvtype;
    int root;
    MPI_Comm comm;
} Gatherv_init_args_t;

static int start_Gatherv_init(const void *args, MPI_Request *out)
{
    const Gatherv_init_args_t *a = args;
    return PMPI_Igatherv(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcounts,
                         a->displs, a->recvtype, a->root, a->comm, out);
}

int PMPI_Gatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                      const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                      int root, MPI_Comm comm, MPI_Info info, MPI_Request* request)
{
    Gatherv_init_args_t a = {sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                             root, comm};
    om_pkeep_t keep = {0};
    a.recvcounts = om_pcoll_keep(&keep, comm, recvcounts, sizeof(*recvcounts), OM_PSIDE_ROOT,
                                 root);
    a.displs = om_pcoll_keep(&keep, comm, displs, sizeof(*displs), OM_PSIDE_ROOT, root);
    return om_persistent_init(comm, start_Gatherv_init, &a, sizeof(a), &keep, info, request,
                              "MPI_Gatherv_init");
}
OM_ALIAS(Gatherv_init)

typedef struct {
    const void* sendbuf;
    MPI_Count sendcount;
    MPI_Datatype sendtype;
    void* recvbuf;
    const MPI_Count *recvcounts;
    const MPI_Aint *displs;
    MPI_Datatype recvtype;
    int root;
    MPI_Comm comm;
} Gatherv_init_c_args_t;

static int start_Gatherv_init_c(const void *args, MPI_Request *out)
{
    const Gatherv_init_c_args_t *a = args;
    return PMPI_Igatherv_c(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcounts,
                           a->displs, a->recvtype, a->root, a->comm, out);
}

int PMPI_Gatherv_init_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                        void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                        MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                        MPI_Request* request)
{
    Gatherv_init_c_args_t a = {sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                               recvtype, root, comm};
    om_pkeep_t keep = {0};
    a.recvcounts = om_pcoll_keep(&keep, comm, recvcounts, sizeof(*recvcounts), OM_PSIDE_ROOT,
                                 root);
    a.displs = om_pcoll_keep(&keep, comm, displs, sizeof(*displs), OM_PSIDE_ROOT, root);
    return om_persistent_init(comm, start_Gatherv_init_c, &a, sizeof(a), &keep, info, request,
                              "MPI_Gatherv_init_c");
}
OM_ALIAS(Gatherv_init_c)

typedef struct {
    const void* sendbuf;
    int sendcount;
    MPI_Datatype sendtype;
    void* recvbuf;
    int recvcount;
    MPI_Datatype recvtype;
    int root;
    MPI_Comm comm;
} Scatter_init_args_t;

static int start_Scatter_init(const void *args, MPI_Request *out)
{
    const Scatter_init_args_t *a = args;
    return PMPI_Iscatter(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcount,
                         a->recvtype, a->root, a->comm, out);
}

int PMPI_Scatter_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                      int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                      MPI_Info info, MPI_Request* request)
{
    Scatter_init_args_t a = {sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                             comm};
    return om_persistent_init(comm, start_Scatter_init, &a, sizeof(a), NULL, info, request,
                              "MPI_Scatter_init");
}
OM_ALIAS(Scatter_init)

typedef struct {
    const void* sendbuf;
    MPI_Count sendcount;
    MPI_Datatype sendtype;
    void* recvbuf;
    MPI_Count recvcount;
    MPI_Datatype recvtype;
    int root;
    MPI_Comm comm;
} Scatter_init_c_args_t;

static int start_Scatter_init_c(const void *args, MPI_Request *out)
{
    const Scatter_init_c_args_t *a = args;
    return PMPI_Iscatter_c(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcount,
                           a->recvtype, a->root, a->comm, out);
}

int PMPI_Scatter_init_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                        void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                        MPI_Comm comm, MPI_Info info, MPI_Request* request)
{
    Scatter_init_c_args_t a = {sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                               comm};
    return om_persistent_init(comm, start_Scatter_init_c, &a, sizeof(a), NULL, info, request,
                              "MPI_Scatter_init_c");
}
OM_ALIAS(Scatter_init_c)

typedef struct {
    const void* sendbuf;
    const int *sendcounts;
    const int *displs;
    MPI_Datatype sendtype;
    void* recvbuf;
    int recvcount;
    MPI_Datatype recvtype;
    int root;
    MPI_Comm comm;
} Scatterv_init_args_t;

static int start_Scatterv_init(const void *args, MPI_Request *out)
{
    const Scatterv_init_args_t *a = args;
    return PMPI_Iscatterv(a->sendbuf, a->sendcounts, a->displs, a->sendtype, a->recvbuf,
                          a->recvcount, a->recvtype, a->root, a->comm, out);
}

int PMPI_Scatterv_init(const void* sendbuf, const int sendcounts[], const int displs[],
                       MPI_Datatype sendtype, void* recvbuf, int recvcount,
                       MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                       MPI_Request* request)
{
    Scatterv_init_args_t a = {sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                              recvtype, root, comm};
    om_pkeep_t keep = {0};
    a.sendcounts = om_pcoll_keep(&keep, comm, sendcounts, sizeof(*sendcounts), OM_PSIDE_ROOT,
                                 root);
    a.displs = om_pcoll_keep(&keep, comm, displs, sizeof(*displs), OM_PSIDE_ROOT, root);
    return om_persistent_init(comm, start_Scatterv_init, &a, sizeof(a), &keep, info, request,
                              "MPI_Scatterv_init");
}
OM_ALIAS(Scatterv_init)

typedef struct {
    const void* sendbuf;
    const MPI_Count *sendcounts;
    const MPI_Aint *displs;
    MPI_Datatype sendtype;
    void* recvbuf;
    MPI_Count recvcount;
    MPI_Datatype recvtype;
    int root;
    MPI_Comm comm;
} Scatterv_init_c_args_t;

static int start_Scatterv_init_c(const void *args, MPI_Request *out)
{
    const Scatterv_init_c_args_t *a = args;
    return PMPI_Iscatterv_c(a->sendbuf, a->sendcounts, a->displs, a->sendtype, a->recvbuf,
                            a->recvcount, a->recvtype, a->root, a->comm, out);
}

int PMPI_Scatterv_init_c(const void* sendbuf, const MPI_Count sendcounts[],
                         const MPI_Aint displs[], MPI_Datatype sendtype, void* recvbuf,
                         MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                         MPI_Info info, MPI_Request* request)
{
    Scatterv_init_c_args_t a = {sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                                recvtype, root, comm};
    om_pkeep_t keep = {0};
    a.sendcounts = om_pcoll_keep(&keep, comm, sendcounts, sizeof(*sendcounts), OM_PSIDE_ROOT,
                                 root);
    a.displs = om_pcoll_keep(&keep, comm, displs, sizeof(*displs), OM_PSIDE_ROOT, root);
    return om_persistent_init(comm, start_Scatterv_init_c, &a, sizeof(a), &keep, info, request,
                              "MPI_Scatterv_init_c");
}
OM_ALIAS(Scatterv_init_c)

typedef struct {
    const void* sendbuf;
    int sendcount;
    MPI_Datatype sendtype;
    void* recvbuf;
    int recvcount;
    MPI_Datatype recvtype;
    MPI_Comm comm;
} Allgather_init_args_t;

static int start_Allgather_init(const void *args, MPI_Request *out)
{
    const Allgather_init_args_t *a = args;
    return PMPI_Iallgather(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcount,
                           a->recvtype, a->comm, out);
}

int PMPI_Allgather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                        int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                        MPI_Request* request)
{
    Allgather_init_args_t a = {sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                               comm};
    return om_persistent_init(comm, start_Allgather_init, &a, sizeof(a), NULL, info, request,
                              "MPI_Allgather_init");
}
OM_ALIAS(Allgather_init)

typedef struct {
    const void* sendbuf;
    MPI_Count sendcount;
    MPI_Datatype sendtype;
    void* recvbuf;
    MPI_Count recvcount;
    MPI_Datatype recvtype;
    MPI_Comm comm;
} Allgather_init_c_args_t;

static int start_Allgather_init_c(const void *args, MPI_Request *out)
{
    const Allgather_init_c_args_t *a = args;
    return PMPI_Iallgather_c(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcount,
                             a->recvtype, a->comm, out);
}

int PMPI_Allgather_init_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                          void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                          MPI_Comm comm, MPI_Info info, MPI_Request* request)
{
    Allgather_init_c_args_t a = {sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                 comm};
    return om_persistent_init(comm, start_Allgather_init_c, &a, sizeof(a), NULL, info, request,
                              "MPI_Allgather_init_c");
}
OM_ALIAS(Allgather_init_c)

typedef struct {
    const void* sendbuf;
    int sendcount;
    MPI_Datatype sendtype;
    void* recvbuf;
    const int *recvcounts;
    const int *displs;
    MPI_Datatype recvtype;
    MPI_Comm comm;
} Allgatherv_init_args_t;

static int start_Allgatherv_init(const void *args, MPI_Request *out)
{
    const Allgatherv_init_args_t *a = args;
    return PMPI_Iallgatherv(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcounts,
                            a->displs, a->recvtype, a->comm, out);
}

int PMPI_Allgatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                         void* recvbuf, const int recvcounts[], const int displs[],
                         MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                         MPI_Request* request)
{
    Allgatherv_init_args_t a = {sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                recvtype, comm};
    om_pkeep_t keep = {0};
    a.recvcounts = om_pcoll_keep(&keep, comm, recvcounts, sizeof(*recvcounts), OM_PSIDE_ALL, 0);
    a.displs = om_pcoll_keep(&keep, comm, displs, sizeof(*displs), OM_PSIDE_ALL, 0);
    return om_persistent_init(comm, start_Allgatherv_init, &a, sizeof(a), &keep, info, request,
                              "MPI_Allgatherv_init");
}
OM_ALIAS(Allgatherv_init)

typedef struct {
    const void* sendbuf;
    MPI_Count sendcount;
    MPI_Datatype sendtype;
    void* recvbuf;
    const MPI_Count *recvcounts;
    const MPI_Aint *displs;
    MPI_Datatype recvtype;
    MPI_Comm comm;
} Allgatherv_init_c_args_t;

static int start_Allgatherv_init_c(const void *args, MPI_Request *out)
{
    const Allgatherv_init_c_args_t *a = args;
    return PMPI_Iallgatherv_c(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcounts,
                              a->displs, a->recvtype, a->comm, out);
}

int PMPI_Allgatherv_init_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                           void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                           MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                           MPI_Request* request)
{
    Allgatherv_init_c_args_t a = {sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                  recvtype, comm};
    om_pkeep_t keep = {0};
    a.recvcounts = om_pcoll_keep(&keep, comm, recvcounts, sizeof(*recvcounts), OM_PSIDE_ALL, 0);
    a.displs = om_pcoll_keep(&keep, comm, displs, sizeof(*displs), OM_PSIDE_ALL, 0);
    return om_persistent_init(comm, start_Allgatherv_init_c, &a, sizeof(a), &keep, info, request,
                              "MPI_Allgatherv_init_c");
}
OM_ALIAS(Allgatherv_init_c)

typedef struct {
    const void* sendbuf;
    int sendcount;
    MPI_Datatype sendtype;
    void* recvbuf;
    int recvcount;
    MPI_Datatype recvtype;
    MPI_Comm comm;
} Alltoall_init_args_t;

static int start_Alltoall_init(const void *args, MPI_Request *out)
{
    const Alltoall_init_args_t *a = args;
    return PMPI_Ialltoall(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcount,
                          a->recvtype, a->comm, out);
}

int PMPI_Alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                       MPI_Request* request)
{
    Alltoall_init_args_t a = {sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm};
    return om_persistent_init(comm, start_Alltoall_init, &a, sizeof(a), NULL, info, request,
                              "MPI_Alltoall_init");
}
OM_ALIAS(Alltoall_init)

typedef struct {
    const void* sendbuf;
    MPI_Count sendcount;
    MPI_Datatype sendtype;
    void* recvbuf;
    MPI_Count recvcount;
    MPI_Datatype recvtype;
    MPI_Comm comm;
} Alltoall_init_c_args_t;

static int start_Alltoall_init_c(const void *args, MPI_Request *out)
{
    const Alltoall_init_c_args_t *a = args;
    return PMPI_Ialltoall_c(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcount,
                            a->recvtype, a->comm, out);
}

int PMPI_Alltoall_init_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                         void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                         MPI_Comm comm, MPI_Info info, MPI_Request* request)
{
    Alltoall_init_c_args_t a = {sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                comm};
    return om_persistent_init(comm, start_Alltoall_init_c, &a, sizeof(a), NULL, info, request,
                              "MPI_Alltoall_init_c");
}
OM_ALIAS(Alltoall_init_c)

typedef struct {
    const void* sendbuf;
    const int *sendcounts;
    const int *sdispls;
    MPI_Datatype sendtype;
    void* recvbuf;
    const int *recvcounts;
    const int *rdispls;
    MPI_Datatype recvtype;
    MPI_Comm comm;
} Alltoallv_init_args_t;

static int start_Alltoallv_init(const void *args, MPI_Request *out)
{
    const Alltoallv_init_args_t *a = args;
    return PMPI_Ialltoallv(a->sendbuf, a->sendcounts, a->sdispls, a->sendtype, a->recvbuf,
                           a->recvcounts, a->rdispls, a->recvtype, a->comm, out);
}

int PMPI_Alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                        MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                        const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                        MPI_Request* request)
{
    Alltoallv_init_args_t a = {sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                               rdispls, recvtype, comm};
    om_pkeep_t keep = {0};
    a.sendcounts = om_pcoll_keep(&keep, comm, sendcounts, sizeof(*sendcounts), OM_PSIDE_ALL, 0);
    a.sdispls = om_pcoll_keep(&keep, comm, sdispls, sizeof(*sdispls), OM_PSIDE_ALL, 0);
    a.recvcounts = om_pcoll_keep(&keep, comm, recvcounts, sizeof(*recvcounts), OM_PSIDE_ALL, 0);
    a.rdispls = om_pcoll_keep(&keep, comm, rdispls, sizeof(*rdispls), OM_PSIDE_ALL, 0);
    return om_persistent_init(comm, start_Alltoallv_init, &a, sizeof(a), &keep, info, request,
                              "MPI_Alltoallv_init");
}
OM_ALIAS(Alltoallv_init)

typedef struct {
    const void* sendbuf;
    const MPI_Count *sendcounts;
    const MPI_Aint *sdispls;
    MPI_Datatype sendtype;
    void* recvbuf;
    const MPI_Count *recvcounts;
    const MPI_Aint *rdispls;
    MPI_Datatype recvtype;
    MPI_Comm comm;
} Alltoallv_init_c_args_t;

static int start_Alltoallv_init_c(const void *args, MPI_Request *out)
{
    const Alltoallv_init_c_args_t *a = args;
    return PMPI_Ialltoallv_c(a->sendbuf, a->sendcounts, a->sdispls, a->sendtype, a->recvbuf,
                             a->recvcounts, a->rdispls, a->recvtype, a->comm, out);
}

int PMPI_Alltoallv_init_c(const void* sendbuf, const MPI_Count sendcounts[],
                          const MPI_Aint sdispls[], MPI_Datatype sendtype, void* recvbuf,
                          const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                          MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                          MPI_Request* request)
{
    Alltoallv_init_c_args_t a = {sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                 rdispls, recvtype, comm};
    om_pkeep_t keep = {0};
    a.sendcounts = om_pcoll_keep(&keep, comm, sendcounts, sizeof(*sendcounts), OM_PSIDE_ALL, 0);
    a.sdispls = om_pcoll_keep(&keep, comm, sdispls, sizeof(*sdispls), OM_PSIDE_ALL, 0);
    a.recvcounts = om_pcoll_keep(&keep, comm, recvcounts, sizeof(*recvcounts), OM_PSIDE_ALL, 0);
    a.rdispls = om_pcoll_keep(&keep, comm, rdispls, sizeof(*rdispls), OM_PSIDE_ALL, 0);
    return om_persistent_init(comm, start_Alltoallv_init_c, &a, sizeof(a), &keep, info, request,
                              "MPI_Alltoallv_init_c");
}
OM_ALIAS(Alltoallv_init_c)

typedef struct {
    const void* sendbuf;
    const int *sendcounts;
    const int *sdispls;
    const MPI_Datatype *sendtypes;
    void* recvbuf;
    const int *recvcounts;
    const int *rdispls;
    const MPI_Datatype *recvtypes;
    MPI_Comm comm;
} Alltoallw_init_args_t;

static int start_Alltoallw_init(const void *args, MPI_Request *out)
{
    const Alltoallw_init_args_t *a = args;
    return PMPI_Ialltoallw(a->sendbuf, a->sendcounts, a->sdispls, a->sendtypes, a->recvbuf,
                           a->recvcounts, a->rdispls, a->recvtypes, a->comm, out);
}

int PMPI_Alltoallw_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                        const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                        const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                        MPI_Info info, MPI_Request* request)
{
    Alltoallw_init_args_t a = {sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                               rdispls, recvtypes, comm};
    om_pkeep_t keep = {0};
    a.sendcounts = om_pcoll_keep(&keep, comm, sendcounts, sizeof(*sendcounts), OM_PSIDE_ALL, 0);
    a.sdispls = om_pcoll_keep(&keep, comm, sdispls, sizeof(*sdispls), OM_PSIDE_ALL, 0);
    a.sendtypes = om_pcoll_keep(&keep, comm, sendtypes, sizeof(*sendtypes), OM_PSIDE_ALL, 0);
    a.recvcounts = om_pcoll_keep(&keep, comm, recvcounts, sizeof(*recvcounts), OM_PSIDE_ALL, 0);
    a.rdispls = om_pcoll_keep(&keep, comm, rdispls, sizeof(*rdispls), OM_PSIDE_ALL, 0);
    a.recvtypes = om_pcoll_keep(&keep, comm, recvtypes, sizeof(*recvtypes), OM_PSIDE_ALL, 0);
    return om_persistent_init(comm, start_Alltoallw_init, &a, sizeof(a), &keep, info, request,
                              "MPI_Alltoallw_init");
}
OM_ALIAS(Alltoallw_init)

typedef struct {
    const void* sendbuf;
    const MPI_Count *sendcounts;
    const MPI_Aint *sdispls;
    const MPI_Datatype *sendtypes;
    void* recvbuf;
    const MPI_Count *recvcounts;
    const MPI_Aint *rdispls;
    const MPI_Datatype *recvtypes;
    MPI_Comm comm;
} Alltoallw_init_c_args_t;

static int start_Alltoallw_init_c(const void *args, MPI_Request *out)
{
    const Alltoallw_init_c_args_t *a = args;
    return PMPI_Ialltoallw_c(a->sendbuf, a->sendcounts, a->sdispls, a->sendtypes, a->recvbuf,
                             a->recvcounts, a->rdispls, a->recvtypes, a->comm, out);
}

int PMPI_Alltoallw_init_c(const void* sendbuf, const MPI_Count sendcounts[],
                          const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                          void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                          const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                          MPI_Request* request)
{
    Alltoallw_init_c_args_t a = {sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                                 rdispls, recvtypes, comm};
    om_pkeep_t keep = {0};
    a.sendcounts = om_pcoll_keep(&keep, comm, sendcounts, sizeof(*sendcounts), OM_PSIDE_ALL, 0);
    a.sdispls = om_pcoll_keep(&keep, comm, sdispls, sizeof(*sdispls), OM_PSIDE_ALL, 0);
    a.sendtypes = om_pcoll_keep(&keep, comm, sendtypes, sizeof(*sendtypes), OM_PSIDE_ALL, 0);
    a.recvcounts = om_pcoll_keep(&keep, comm, recvcounts, sizeof(*recvcounts), OM_PSIDE_ALL, 0);
    a.rdispls = om_pcoll_keep(&keep, comm, rdispls, sizeof(*rdispls), OM_PSIDE_ALL, 0);
    a.recvtypes = om_pcoll_keep(&keep, comm, recvtypes, sizeof(*recvtypes), OM_PSIDE_ALL, 0);
    return om_persistent_init(comm, start_Alltoallw_init_c, &a, sizeof(a), &keep, info, request,
                              "MPI_Alltoallw_init_c");
}
OM_ALIAS(Alltoallw_init_c)
