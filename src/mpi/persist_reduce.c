/* MPI on ordo: persistent collectives (MPI-4's *_init), the reductions
 * and the neighbourhood ones; persist_move.c has the others and says how
 * they work. */
#include "coll_job.h"

typedef struct {
    const void* sendbuf;
    void* recvbuf;
    int count;
    MPI_Datatype datatype;
    MPI_Op op;
    int root;
    MPI_Comm comm;
} Reduce_init_args_t;

static int start_Reduce_init(const void *args, MPI_Request *out)
{
    const Reduce_init_args_t *a = args;
    return PMPI_Ireduce(a->sendbuf, a->recvbuf, a->count, a->datatype, a->op, a->root, a->comm,
                        out);
}

int PMPI_Reduce_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request* request)
{
    Reduce_init_args_t a = {sendbuf, recvbuf, count, datatype, op, root, comm};
    return om_persistent_init(comm, start_Reduce_init, &a, sizeof(a), NULL, info, request,
                              "MPI_Reduce_init");
}
OM_ALIAS(Reduce_init)

typedef struct {
    const void* sendbuf;
    void* recvbuf;
    MPI_Count count;
    MPI_Datatype datatype;
    MPI_Op op;
    int root;
    MPI_Comm comm;
} Reduce_init_c_args_t;

static int start_Reduce_init_c(const void *args, MPI_Request *out)
{
    const Reduce_init_c_args_t *a = args;
    return PMPI_Ireduce_c(a->sendbuf, a->recvbuf, a->count, a->datatype, a->op, a->root, a->comm,
                          out);
}

int PMPI_Reduce_init_c(const void* sendbuf, void* recvbuf, MPI_Count count,
                       MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Info info,
                       MPI_Request* request)
{
    Reduce_init_c_args_t a = {sendbuf, recvbuf, count, datatype, op, root, comm};
    return om_persistent_init(comm, start_Reduce_init_c, &a, sizeof(a), NULL, info, request,
                              "MPI_Reduce_init_c");
}
OM_ALIAS(Reduce_init_c)

typedef struct {
    const void* sendbuf;
    void* recvbuf;
    int count;
    MPI_Datatype datatype;
    MPI_Op op;
    MPI_Comm comm;
} Allreduce_init_args_t;

static int start_Allreduce_init(const void *args, MPI_Request *out)
{
    const Allreduce_init_args_t *a = args;
    return PMPI_Iallreduce(a->sendbuf, a->recvbuf, a->count, a->datatype, a->op, a->comm, out);
}

int PMPI_Allreduce_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                        MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request* request)
{
    Allreduce_init_args_t a = {sendbuf, recvbuf, count, datatype, op, comm};
    return om_persistent_init(comm, start_Allreduce_init, &a, sizeof(a), NULL, info, request,
                              "MPI_Allreduce_init");
}
OM_ALIAS(Allreduce_init)

typedef struct {
    const void* sendbuf;
    void* recvbuf;
    MPI_Count count;
    MPI_Datatype datatype;
    MPI_Op op;
    MPI_Comm comm;
} Allreduce_init_c_args_t;

static int start_Allreduce_init_c(const void *args, MPI_Request *out)
{
    const Allreduce_init_c_args_t *a = args;
    return PMPI_Iallreduce_c(a->sendbuf, a->recvbuf, a->count, a->datatype, a->op, a->comm,
                             out);
}

int PMPI_Allreduce_init_c(const void* sendbuf, void* recvbuf, MPI_Count count,
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                          MPI_Request* request)
{
    Allreduce_init_c_args_t a = {sendbuf, recvbuf, count, datatype, op, comm};
    return om_persistent_init(comm, start_Allreduce_init_c, &a, sizeof(a), NULL, info, request,
                              "MPI_Allreduce_init_c");
}
OM_ALIAS(Allreduce_init_c)

typedef struct {
    const void* sendbuf;
    void* recvbuf;
    const int *recvcounts;
    MPI_Datatype datatype;
    MPI_Op op;
    MPI_Comm comm;
} Reduce_scatter_init_args_t;

static int start_Reduce_scatter_init(const void *args, MPI_Request *out)
{
    const Reduce_scatter_init_args_t *a = args;
    return PMPI_Ireduce_scatter(a->sendbuf, a->recvbuf, a->recvcounts, a->datatype, a->op,
                                a->comm, out);
}

int PMPI_Reduce_scatter_init(const void* sendbuf, void* recvbuf, const int recvcounts[],
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                             MPI_Request* request)
{
    Reduce_scatter_init_args_t a = {sendbuf, recvbuf, recvcounts, datatype, op, comm};
    om_pkeep_t keep = {0};
    a.recvcounts = om_pcoll_keep(&keep, comm, recvcounts, sizeof(*recvcounts), OM_PSIDE_LOCAL, 0);
    return om_persistent_init(comm, start_Reduce_scatter_init, &a, sizeof(a), &keep, info,
                              request, "MPI_Reduce_scatter_init");
}
OM_ALIAS(Reduce_scatter_init)

typedef struct {
    const void* sendbuf;
    void* recvbuf;
    const MPI_Count *recvcounts;
    MPI_Datatype datatype;
    MPI_Op op;
    MPI_Comm comm;
} Reduce_scatter_init_c_args_t;

static int start_Reduce_scatter_init_c(const void *args, MPI_Request *out)
{
    const Reduce_scatter_init_c_args_t *a = args;
    return PMPI_Ireduce_scatter_c(a->sendbuf, a->recvbuf, a->recvcounts, a->datatype, a->op,
                                  a->comm, out);
}

int PMPI_Reduce_scatter_init_c(const void* sendbuf, void* recvbuf, const MPI_Count recvcounts[],
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                               MPI_Request* request)
{
    Reduce_scatter_init_c_args_t a = {sendbuf, recvbuf, recvcounts, datatype, op, comm};
    om_pkeep_t keep = {0};
    a.recvcounts = om_pcoll_keep(&keep, comm, recvcounts, sizeof(*recvcounts), OM_PSIDE_LOCAL, 0);
    return om_persistent_init(comm, start_Reduce_scatter_init_c, &a, sizeof(a), &keep, info,
                              request, "MPI_Reduce_scatter_init_c");
}
OM_ALIAS(Reduce_scatter_init_c)

typedef struct {
    const void* sendbuf;
    void* recvbuf;
    int recvcount;
    MPI_Datatype datatype;
    MPI_Op op;
    MPI_Comm comm;
} Reduce_scatter_block_init_args_t;

static int start_Reduce_scatter_block_init(const void *args, MPI_Request *out)
{
    const Reduce_scatter_block_init_args_t *a = args;
    return PMPI_Ireduce_scatter_block(a->sendbuf, a->recvbuf, a->recvcount, a->datatype, a->op,
                                      a->comm, out);
}

int PMPI_Reduce_scatter_block_init(const void* sendbuf, void* recvbuf, int recvcount,
                                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                   MPI_Info info, MPI_Request* request)
{
    Reduce_scatter_block_init_args_t a = {sendbuf, recvbuf, recvcount, datatype, op, comm};
    return om_persistent_init(comm, start_Reduce_scatter_block_init, &a, sizeof(a), NULL, info,
                              request, "MPI_Reduce_scatter_block_init");
}
OM_ALIAS(Reduce_scatter_block_init)

typedef struct {
    const void* sendbuf;
    void* recvbuf;
    MPI_Count recvcount;
    MPI_Datatype datatype;
    MPI_Op op;
    MPI_Comm comm;
} Reduce_scatter_block_init_c_args_t;

static int start_Reduce_scatter_block_init_c(const void *args, MPI_Request *out)
{
    const Reduce_scatter_block_init_c_args_t *a = args;
    return PMPI_Ireduce_scatter_block_c(a->sendbuf, a->recvbuf, a->recvcount, a->datatype, a->op,
                                        a->comm, out);
}

int PMPI_Reduce_scatter_block_init_c(const void* sendbuf, void* recvbuf, MPI_Count recvcount,
                                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                     MPI_Info info, MPI_Request* request)
{
    Reduce_scatter_block_init_c_args_t a = {sendbuf, recvbuf, recvcount, datatype, op, comm};
    return om_persistent_init(comm, start_Reduce_scatter_block_init_c, &a, sizeof(a), NULL, info,
                              request, "MPI_Reduce_scatter_block_init_c");
}
OM_ALIAS(Reduce_scatter_block_init_c)

typedef struct {
    const void* sendbuf;
    void* recvbuf;
    int count;
    MPI_Datatype datatype;
    MPI_Op op;
    MPI_Comm comm;
} Scan_init_args_t;

static int start_Scan_init(const void *args, MPI_Request *out)
{
    const Scan_init_args_t *a = args;
    return PMPI_Iscan(a->sendbuf, a->recvbuf, a->count, a->datatype, a->op, a->comm, out);
}

int PMPI_Scan_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                   MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request* request)
{
    Scan_init_args_t a = {sendbuf, recvbuf, count, datatype, op, comm};
    return om_persistent_init(comm, start_Scan_init, &a, sizeof(a), NULL, info, request,
                              "MPI_Scan_init");
}
OM_ALIAS(Scan_init)

typedef struct {
    const void* sendbuf;
    void* recvbuf;
    MPI_Count count;
    MPI_Datatype datatype;
    MPI_Op op;
    MPI_Comm comm;
} Scan_init_c_args_t;

static int start_Scan_init_c(const void *args, MPI_Request *out)
{
    const Scan_init_c_args_t *a = args;
    return PMPI_Iscan_c(a->sendbuf, a->recvbuf, a->count, a->datatype, a->op, a->comm, out);
}

int PMPI_Scan_init_c(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request* request)
{
    Scan_init_c_args_t a = {sendbuf, recvbuf, count, datatype, op, comm};
    return om_persistent_init(comm, start_Scan_init_c, &a, sizeof(a), NULL, info, request,
                              "MPI_Scan_init_c");
}
OM_ALIAS(Scan_init_c)

typedef struct {
    const void* sendbuf;
    void* recvbuf;
    int count;
    MPI_Datatype datatype;
    MPI_Op op;
    MPI_Comm comm;
} Exscan_init_args_t;

static int start_Exscan_init(const void *args, MPI_Request *out)
{
    const Exscan_init_args_t *a = args;
    return PMPI_Iexscan(a->sendbuf, a->recvbuf, a->count, a->datatype, a->op, a->comm, out);
}

int PMPI_Exscan_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request* request)
{
    Exscan_init_args_t a = {sendbuf, recvbuf, count, datatype, op, comm};
    return om_persistent_init(comm, start_Exscan_init, &a, sizeof(a), NULL, info, request,
                              "MPI_Exscan_init");
}
OM_ALIAS(Exscan_init)

typedef struct {
    const void* sendbuf;
    void* recvbuf;
    MPI_Count count;
    MPI_Datatype datatype;
    MPI_Op op;
    MPI_Comm comm;
} Exscan_init_c_args_t;

static int start_Exscan_init_c(const void *args, MPI_Request *out)
{
    const Exscan_init_c_args_t *a = args;
    return PMPI_Iexscan_c(a->sendbuf, a->recvbuf, a->count, a->datatype, a->op, a->comm, out);
}

int PMPI_Exscan_init_c(const void* sendbuf, void* recvbuf, MPI_Count count,
                       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                       MPI_Request* request)
{
    Exscan_init_c_args_t a = {sendbuf, recvbuf, count, datatype, op, comm};
    return om_persistent_init(comm, start_Exscan_init_c, &a, sizeof(a), NULL, info, request,
                              "MPI_Exscan_init_c");
}
OM_ALIAS(Exscan_init_c)

typedef struct {
    const void* sendbuf;
    int sendcount;
    MPI_Datatype sendtype;
    void* recvbuf;
    int recvcount;
    MPI_Datatype recvtype;
    MPI_Comm comm;
} Neighbor_allgather_init_args_t;

static int start_Neighbor_allgather_init(const void *args, MPI_Request *out)
{
    const Neighbor_allgather_init_args_t *a = args;
    return PMPI_Ineighbor_allgather(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf,
                                    a->recvcount, a->recvtype, a->comm, out);
}

int PMPI_Neighbor_allgather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void* recvbuf, int recvcount, MPI_Datatype recvtype,
                                 MPI_Comm comm, MPI_Info info, MPI_Request* request)
{
    Neighbor_allgather_init_args_t a = {sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                        recvtype, comm};
    return om_persistent_init(comm, start_Neighbor_allgather_init, &a, sizeof(a), NULL, info,
                              request, "MPI_Neighbor_allgather_init");
}
OM_ALIAS(Neighbor_allgather_init)

typedef struct {
    const void* sendbuf;
    MPI_Count sendcount;
    MPI_Datatype sendtype;
    void* recvbuf;
    MPI_Count recvcount;
    MPI_Datatype recvtype;
    MPI_Comm comm;
} Neighbor_allgather_init_c_args_t;

static int start_Neighbor_allgather_init_c(const void *args, MPI_Request *out)
{
    const Neighbor_allgather_init_c_args_t *a = args;
    return PMPI_Ineighbor_allgather_c(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf,
                                      a->recvcount, a->recvtype, a->comm, out);
}

int PMPI_Neighbor_allgather_init_c(const void* sendbuf, MPI_Count sendcount,
                                   MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount,
                                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                   MPI_Request* request)
{
    Neighbor_allgather_init_c_args_t a = {sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                          recvtype, comm};
    return om_persistent_init(comm, start_Neighbor_allgather_init_c, &a, sizeof(a), NULL, info,
                              request, "MPI_Neighbor_allgather_init_c");
}
OM_ALIAS(Neighbor_allgather_init_c)

typedef struct {
    const void* sendbuf;
    int sendcount;
    MPI_Datatype sendtype;
    void* recvbuf;
    const int *recvcounts;
    const int *displs;
    MPI_Datatype recvtype;
    MPI_Comm comm;
} Neighbor_allgatherv_init_args_t;

static int start_Neighbor_allgatherv_init(const void *args, MPI_Request *out)
{
    const Neighbor_allgatherv_init_args_t *a = args;
    return PMPI_Ineighbor_allgatherv(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf,
                                     a->recvcounts, a->displs, a->recvtype, a->comm, out);
}

int PMPI_Neighbor_allgatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                  void* recvbuf, const int recvcounts[], const int displs[],
                                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                  MPI_Request* request)
{
    Neighbor_allgatherv_init_args_t a = {sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                         displs, recvtype, comm};
    om_pkeep_t keep = {0};
    a.recvcounts = om_pcoll_keep(&keep, comm, recvcounts, sizeof(*recvcounts), OM_PSIDE_IN, 0);
    a.displs = om_pcoll_keep(&keep, comm, displs, sizeof(*displs), OM_PSIDE_IN, 0);
    return om_persistent_init(comm, start_Neighbor_allgatherv_init, &a, sizeof(a), &keep, info,
                              request, "MPI_Neighbor_allgatherv_init");
}
OM_ALIAS(Neighbor_allgatherv_init)

typedef struct {
    const void* sendbuf;
    MPI_Count sendcount;
    MPI_Datatype sendtype;
    void* recvbuf;
    const MPI_Count *recvcounts;
    const MPI_Aint *displs;
    MPI_Datatype recvtype;
    MPI_Comm comm;
} Neighbor_allgatherv_init_c_args_t;

static int start_Neighbor_allgatherv_init_c(const void *args, MPI_Request *out)
{
    const Neighbor_allgatherv_init_c_args_t *a = args;
    return PMPI_Ineighbor_allgatherv_c(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf,
                                       a->recvcounts, a->displs, a->recvtype, a->comm, out);
}

int PMPI_Neighbor_allgatherv_init_c(const void* sendbuf, MPI_Count sendcount,
                                    MPI_Datatype sendtype, void* recvbuf,
                                    const MPI_Count recvcounts[], const MPI_Aint displs[],
                                    MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                    MPI_Request* request)
{
    Neighbor_allgatherv_init_c_args_t a = {sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                           displs, recvtype, comm};
    om_pkeep_t keep = {0};
    a.recvcounts = om_pcoll_keep(&keep, comm, recvcounts, sizeof(*recvcounts), OM_PSIDE_IN, 0);
    a.displs = om_pcoll_keep(&keep, comm, displs, sizeof(*displs), OM_PSIDE_IN, 0);
    return om_persistent_init(comm, start_Neighbor_allgatherv_init_c, &a, sizeof(a), &keep, info,
                              request, "MPI_Neighbor_allgatherv_init_c");
}
OM_ALIAS(Neighbor_allgatherv_init_c)

typedef struct {
    const void* sendbuf;
    int sendcount;
    MPI_Datatype sendtype;
    void* recvbuf;
    int recvcount;
    MPI_Datatype recvtype;
    MPI_Comm comm;
} Neighbor_alltoall_init_args_t;

static int start_Neighbor_alltoall_init(const void *args, MPI_Request *out)
{
    const Neighbor_alltoall_init_args_t *a = args;
    return PMPI_Ineighbor_alltoall(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf,
                                   a->recvcount, a->recvtype, a->comm, out);
}

int PMPI_Neighbor_alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                void* recvbuf, int recvcount, MPI_Datatype recvtype,
                                MPI_Comm comm, MPI_Info info, MPI_Request* request)
{
    Neighbor_alltoall_init_args_t a = {sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                       recvtype, comm};
    return om_persistent_init(comm, start_Neighbor_alltoall_init, &a, sizeof(a), NULL, info,
                              request, "MPI_Neighbor_alltoall_init");
}
OM_ALIAS(Neighbor_alltoall_init)

typedef struct {
    const void* sendbuf;
    MPI_Count sendcount;
    MPI_Datatype sendtype;
    void* recvbuf;
    MPI_Count recvcount;
    MPI_Datatype recvtype;
    MPI_Comm comm;
} Neighbor_alltoall_init_c_args_t;

static int start_Neighbor_alltoall_init_c(const void *args, MPI_Request *out)
{
    const Neighbor_alltoall_init_c_args_t *a = args;
    return PMPI_Ineighbor_alltoall_c(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf,
                                     a->recvcount, a->recvtype, a->comm, out);
}

int PMPI_Neighbor_alltoall_init_c(const void* sendbuf, MPI_Count sendcount,
                                  MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount,
                                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                  MPI_Request* request)
{
    Neighbor_alltoall_init_c_args_t a = {sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                         recvtype, comm};
    return om_persistent_init(comm, start_Neighbor_alltoall_init_c, &a, sizeof(a), NULL, info,
                              request, "MPI_Neighbor_alltoall_init_c");
}
OM_ALIAS(Neighbor_alltoall_init_c)

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
} Neighbor_alltoallv_init_args_t;

static int start_Neighbor_alltoallv_init(const void *args, MPI_Request *out)
{
    const Neighbor_alltoallv_init_args_t *a = args;
    return PMPI_Ineighbor_alltoallv(a->sendbuf, a->sendcounts, a->sdispls, a->sendtype,
                                    a->recvbuf, a->recvcounts, a->rdispls, a->recvtype, a->comm,
                                    out);
}

int PMPI_Neighbor_alltoallv_init(const void* sendbuf, const int sendcounts[],
                                 const int sdispls[], MPI_Datatype sendtype, void* recvbuf,
                                 const int recvcounts[], const int rdispls[],
                                 MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                 MPI_Request* request)
{
    Neighbor_alltoallv_init_args_t a = {sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                        recvcounts, rdispls, recvtype, comm};
    om_pkeep_t keep = {0};
    a.sendcounts = om_pcoll_keep(&keep, comm, sendcounts, sizeof(*sendcounts), OM_PSIDE_OUT, 0);
    a.sdispls = om_pcoll_keep(&keep, comm, sdispls, sizeof(*sdispls), OM_PSIDE_OUT, 0);
    a.recvcounts = om_pcoll_keep(&keep, comm, recvcounts, sizeof(*recvcounts), OM_PSIDE_IN, 0);
    a.rdispls = om_pcoll_keep(&keep, comm, rdispls, sizeof(*rdispls), OM_PSIDE_IN, 0);
    return om_persistent_init(comm, start_Neighbor_alltoallv_init, &a, sizeof(a), &keep, info,
                              request, "MPI_Neighbor_alltoallv_init");
}
OM_ALIAS(Neighbor_alltoallv_init)

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
} Neighbor_alltoallv_init_c_args_t;

static int start_Neighbor_alltoallv_init_c(const void *args, MPI_Request *out)
{
    const Neighbor_alltoallv_init_c_args_t *a = args;
    return PMPI_Ineighbor_alltoallv_c(a->sendbuf, a->sendcounts, a->sdispls, a->sendtype,
                                      a->recvbuf, a->recvcounts, a->rdispls, a->recvtype,
                                      a->comm, out);
}

int PMPI_Neighbor_alltoallv_init_c(const void* sendbuf, const MPI_Count sendcounts[],
                                   const MPI_Aint sdispls[], MPI_Datatype sendtype,
                                   void* recvbuf, const MPI_Count recvcounts[],
                                   const MPI_Aint rdispls[], MPI_Datatype recvtype,
                                   MPI_Comm comm, MPI_Info info, MPI_Request* request)
{
    Neighbor_alltoallv_init_c_args_t a = {sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                          recvcounts, rdispls, recvtype, comm};
    om_pkeep_t keep = {0};
    a.sendcounts = om_pcoll_keep(&keep, comm, sendcounts, sizeof(*sendcounts), OM_PSIDE_OUT, 0);
    a.sdispls = om_pcoll_keep(&keep, comm, sdispls, sizeof(*sdispls), OM_PSIDE_OUT, 0);
    a.recvcounts = om_pcoll_keep(&keep, comm, recvcounts, sizeof(*recvcounts), OM_PSIDE_IN, 0);
    a.rdispls = om_pcoll_keep(&keep, comm, rdispls, sizeof(*rdispls), OM_PSIDE_IN, 0);
    return om_persistent_init(comm, start_Neighbor_alltoallv_init_c, &a, sizeof(a), &keep, info,
                              request, "MPI_Neighbor_alltoallv_init_c");
}
OM_ALIAS(Neighbor_alltoallv_init_c)

typedef struct {
    const void* sendbuf;
    const int *sendcounts;
    const MPI_Aint *sdispls;
    const MPI_Datatype *sendtypes;
    void* recvbuf;
    const int *recvcounts;
    const MPI_Aint *rdispls;
    const MPI_Datatype *recvtypes;
    MPI_Comm comm;
} Neighbor_alltoallw_init_args_t;

static int start_Neighbor_alltoallw_init(const void *args, MPI_Request *out)
{
    const Neighbor_alltoallw_init_args_t *a = args;
    return PMPI_Ineighbor_alltoallw(a->sendbuf, a->sendcounts, a->sdispls, a->sendtypes,
                                    a->recvbuf, a->recvcounts, a->rdispls, a->recvtypes, a->comm,
                                    out);
}

int PMPI_Neighbor_alltoallw_init(const void* sendbuf, const int sendcounts[],
                                 const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                 void* recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                                 const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                                 MPI_Request* request)
{
    Neighbor_alltoallw_init_args_t a = {sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                                        recvcounts, rdispls, recvtypes, comm};
    om_pkeep_t keep = {0};
    a.sendcounts = om_pcoll_keep(&keep, comm, sendcounts, sizeof(*sendcounts), OM_PSIDE_OUT, 0);
    a.sdispls = om_pcoll_keep(&keep, comm, sdispls, sizeof(*sdispls), OM_PSIDE_OUT, 0);
    a.sendtypes = om_pcoll_keep(&keep, comm, sendtypes, sizeof(*sendtypes), OM_PSIDE_OUT, 0);
    a.recvcounts = om_pcoll_keep(&keep, comm, recvcounts, sizeof(*recvcounts), OM_PSIDE_IN, 0);
    a.rdispls = om_pcoll_keep(&keep, comm, rdispls, sizeof(*rdispls), OM_PSIDE_IN, 0);
    a.recvtypes = om_pcoll_keep(&keep, comm, recvtypes, sizeof(*recvtypes), OM_PSIDE_IN, 0);
    return om_persistent_init(comm, start_Neighbor_alltoallw_init, &a, sizeof(a), &keep, info,
                              request, "MPI_Neighbor_alltoallw_init");
}
OM_ALIAS(Neighbor_alltoallw_init)

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
} Neighbor_alltoallw_init_c_args_t;

static int start_Neighbor_alltoallw_init_c(const void *args, MPI_Request *out)
{
    const Neighbor_alltoallw_init_c_args_t *a = args;
    return PMPI_Ineighbor_alltoallw_c(a->sendbuf, a->sendcounts, a->sdispls, a->sendtypes,
                                      a->recvbuf, a->recvcounts, a->rdispls, a->recvtypes,
                                      a->comm, out);
}

int PMPI_Neighbor_alltoallw_init_c(const void* sendbuf, const MPI_Count sendcounts[],
                                   const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                   void* recvbuf, const MPI_Count recvcounts[],
                                   const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                                   MPI_Comm comm, MPI_Info info, MPI_Request* request)
{
    Neighbor_alltoallw_init_c_args_t a = {sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                                          recvcounts, rdispls, recvtypes, comm};
    om_pkeep_t keep = {0};
    a.sendcounts = om_pcoll_keep(&keep, comm, sendcounts, sizeof(*sendcounts), OM_PSIDE_OUT, 0);
    a.sdispls = om_pcoll_keep(&keep, comm, sdispls, sizeof(*sdispls), OM_PSIDE_OUT, 0);
    a.sendtypes = om_pcoll_keep(&keep, comm, sendtypes, sizeof(*sendtypes), OM_PSIDE_OUT, 0);
    a.recvcounts = om_pcoll_keep(&keep, comm, recvcounts, sizeof(*recvcounts), OM_PSIDE_IN, 0);
    a.rdispls = om_pcoll_keep(&keep, comm, rdispls, sizeof(*rdispls), OM_PSIDE_IN, 0);
    a.recvtypes = om_pcoll_keep(&keep, comm, recvtypes, sizeof(*recvtypes), OM_PSIDE_IN, 0);
    return om_persistent_init(comm, start_Neighbor_alltoallw_init_c, &a, sizeof(a), &keep, info,
                              request, "MPI_Neighbor_alltoallw_init_c");
}
OM_ALIAS(Neighbor_alltoallw_init_c)
