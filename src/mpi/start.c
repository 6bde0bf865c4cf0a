/* MPI on ordo: starting persistent requests (MPI_Start, MPI_Startall):
 * point-to-point ones start their transfer again with the bound
 * arguments, collective and partitioned ones their own way. */
#include "mpi_internal.h"

static int start_one(struct MPI_ABI_Request *r)
{
    struct MPI_ABI_Comm *c = om_comm(r->comm);
    if (!c)
        return MPI_ERR_COMM;
    struct MPI_ABI_Request *op = NULL;
    if (r->part)
        return om_part_start(r);
    if (r->pcoll) {
        /* a collective: what the immediate form started moves in */
        int rc = om_pcoll_run(r->pcoll, &op);
        if (rc != MPI_SUCCESS)
            return rc;
        r->or_ = op->or_;
        r->finish = op->finish;
        r->fctx = op->fctx;
        r->poll = op->poll;   /* an intercommunicator's round (coll_inter.c) */
        r->poll_arg = op->poll_arg;
        r->completed = op->completed;
        r->done_status = op->done_status;
        op->or_ = NULL;
        op->finish = NULL;
        op->fctx = NULL;
        op->poll = NULL;
        op->poll_arg = NULL;
        om_req_free(op);
        r->active = 1;
        return MPI_SUCCESS;
    }
    int rc = r->kind == OM_REQ_SEND
                 ? om_isend(c, r->comm, r->pbuf, r->pcount, r->ptype, r->ppeer, r->ptag,
                            r->pmode, &op, "MPI_Start")
                 : om_irecv(c, r->comm, (void *)r->pbuf, r->pcount, r->ptype, r->ppeer,
                            r->ptag, &op, "MPI_Start");
    if (rc != MPI_SUCCESS)
        return rc;
    /* the transfer's state moves into the persistent request */
    r->or_ = op->or_;
    r->pack = op->pack;
    r->ubuf = op->ubuf;
    r->ucount = op->ucount;
    r->utype = op->utype;
    op->utype = NULL;
    r->proc_null = op->proc_null;
    r->completed = op->completed;
    r->done_status = op->done_status;
    op->pack = NULL;
    om_req_free(op);
    r->active = 1;
    return MPI_SUCCESS;
}

int PMPI_Start(MPI_Request *request)
{
    struct MPI_ABI_Request *r = request ? om_req_record(*request) : NULL;
    if (!r || !r->persistent)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_REQUEST, "MPI_Start",
                             "not a persistent request");
    if (r->active)
        return om_comm_error(r->comm, MPI_ERR_REQUEST, "MPI_Start",
                             "the request is already active");
    int rc = start_one(r);
    return rc == MPI_SUCCESS ? rc : om_comm_error(r->comm, rc, "MPI_Start", "cannot start");
}
OM_ALIAS(Start)

int PMPI_Startall(int count, MPI_Request array_of_requests[])
{
    if (count < 0 || (count > 0 && !array_of_requests))
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Startall",
                             "count %d or requests NULL", count);
    for (int i = 0; i < count; i++) {
        struct MPI_ABI_Request *r = om_req_record(array_of_requests[i]);
        if (!r || !r->persistent || r->active)
            return om_comm_error(MPI_COMM_SELF, MPI_ERR_REQUEST, "MPI_Startall",
                                 "requests[%d] is not an inactive persistent request", i);
    }
    for (int i = 0; i < count; i++) {
        int rc = start_one(array_of_requests[i]);
        if (rc != MPI_SUCCESS)
            return om_comm_error(array_of_requests[i]->comm, rc, "MPI_Startall",
                                 "requests[%d] cannot start", i);
    }
    return MPI_SUCCESS;
}
OM_ALIAS(Startall)
