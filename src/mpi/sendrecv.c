/* MPI on ordo: the combined send-and-receive calls (MPI_Sendrecv and
 * MPI_Sendrecv_replace, blocking and immediate), built on the immediate
 * send and receive of p2p.c. */
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"

static int sendrecv_any(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                        int dest, int sendtag, void *recvbuf, MPI_Count recvcount,
                        MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                        MPI_Status *status, const char *func)
{
    OM_COMM_ARG(c, comm, func);
    struct MPI_ABI_Request *rr, *sr;
    int rc = om_irecv(c, comm, recvbuf, recvcount, recvtype, source, recvtag, &rr, func);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = om_isend(c, comm, sendbuf, sendcount, sendtype, dest, sendtag, OM_SEND_STD, &sr, func);
    if (rc != MPI_SUCCESS) {
        if (rr->or_)
            ordo_request_cancel(rr->or_);
        om_req_complete(rr, 1, NULL);
        om_req_free(rr);
        return rc;
    }
    int src = om_req_complete(sr, 1, NULL);
    om_req_free(sr);
    int rrc = om_req_complete(rr, 1, status);
    om_req_free(rr);
    if (src < 0)
        return om_comm_error(comm, -src, func, "the send failed");
    if (rrc < 0)
        return om_comm_error(comm, -rrc, func, "the receive failed");
    return MPI_SUCCESS;
}

int PMPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                  int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source,
                  int recvtag, MPI_Comm comm, MPI_Status *status)
{
    return sendrecv_any(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                        recvtype, source, recvtag, comm, status, "MPI_Sendrecv");
}
OM_ALIAS(Sendrecv)

int PMPI_Sendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                    int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                    int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    return sendrecv_any(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                        recvtype, source, recvtag, comm, status, "MPI_Sendrecv_c");
}
OM_ALIAS(Sendrecv_c)

/* The replace forms send from a packed copy of the buffer they receive
 * into: *copy_p (the caller's to free) of *bytes_p bytes, or the class
 * raised on comm. */
static int replace_copy(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Comm comm,
                        void **copy_p, size_t *bytes_p, const char *func)
{
    struct MPI_ABI_Datatype *t;
    int rc = om_check_buffer(buf, count, datatype, &t);
    if (rc != MPI_SUCCESS)
        return om_comm_error(comm, rc, func, "count %lld", (long long)count);
    size_t bytes = 0;
    om_type_bytes(t, count, &bytes);
    void *copy = malloc(bytes ? bytes : 1);
    if (!copy)
        return om_comm_error(comm, MPI_ERR_NO_MEM, func, "no memory for %zu bytes", bytes);
    om_pack(t, buf, count, copy);
    *copy_p = copy;
    *bytes_p = bytes;
    return MPI_SUCCESS;
}

static int sendrecv_replace_any(void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                                int sendtag, int source, int recvtag, MPI_Comm comm,
                                MPI_Status *status, const char *func)
{
    OM_COMM_ARG(c, comm, func);
    void *copy;
    size_t bytes;
    int rc = replace_copy(buf, count, datatype, comm, &copy, &bytes, func);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = sendrecv_any(copy, (MPI_Count)bytes, MPI_BYTE, dest, sendtag, buf, count, datatype,
                      source, recvtag, comm, status, func);
    free(copy);
    return rc;
}

int PMPI_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                          int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    return sendrecv_replace_any(buf, count, datatype, dest, sendtag, source, recvtag, comm,
                                status, "MPI_Sendrecv_replace");
}
OM_ALIAS(Sendrecv_replace)

int PMPI_Sendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                            int sendtag, int source, int recvtag, MPI_Comm comm,
                            MPI_Status *status)
{
    return sendrecv_replace_any(buf, count, datatype, dest, sendtag, source, recvtag, comm,
                                status, "MPI_Sendrecv_replace_c");
}
OM_ALIAS(Sendrecv_replace_c)

/* The immediate forms: one request, the receive's, that completes once
 * the send did too. */
static int isendrecv_any(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                         int dest, int sendtag, void *recvbuf, MPI_Count recvcount,
                         MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                         MPI_Request *request, void *own_copy, const char *func)
{
    if (!om_ready(func)) {
        free(own_copy);
        return MPI_ERR_OTHER;
    }
    struct MPI_ABI_Comm *c = om_comm(comm);
    if (!c || !request) {
        free(own_copy);
        return om_comm_error(comm, c ? MPI_ERR_ARG : MPI_ERR_COMM, func, "%s",
                             c ? "request is NULL" : "not a communicator");
    }
    struct MPI_ABI_Request *rr, *sr;
    int rc = om_irecv(c, comm, recvbuf, recvcount, recvtype, source, recvtag, &rr, func);
    if (rc != MPI_SUCCESS) {
        free(own_copy);
        return rc;
    }
    rc = om_isend(c, comm, sendbuf, sendcount, sendtype, dest, sendtag, OM_SEND_STD, &sr, func);
    if (rc != MPI_SUCCESS) {
        if (rr->or_)
            ordo_request_cancel(rr->or_);
        om_req_complete(rr, 1, NULL);
        om_req_free(rr);
        free(own_copy);
        return rc;
    }
    rr->or2 = sr->or_;      /* NULL when the send completed at once */
    rr->pack2 = sr->pack ? sr->pack : own_copy;
    if (sr->pack)
        free(own_copy);
    sr->pack = NULL;
    sr->or_ = NULL;
    om_req_free(sr);
    if (!rr->or2) {
        free(rr->pack2);
        rr->pack2 = NULL;
    }
    *request = rr;
    return MPI_SUCCESS;
}

int PMPI_Isendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                   int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                   int source, int recvtag, MPI_Comm comm, MPI_Request *request)
{
    return isendrecv_any(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                         recvtype, source, recvtag, comm, request, NULL, "MPI_Isendrecv");
}
OM_ALIAS(Isendrecv)

int PMPI_Isendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                     int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                     int source, int recvtag, MPI_Comm comm, MPI_Request *request)
{
    return isendrecv_any(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                         recvtype, source, recvtag, comm, request, NULL, "MPI_Isendrecv_c");
}
OM_ALIAS(Isendrecv_c)

static int isendrecv_replace_any(void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                                 int sendtag, int source, int recvtag, MPI_Comm comm,
                                 MPI_Request *request, const char *func)
{
    void *copy;
    size_t bytes;
    int rc = replace_copy(buf, count, datatype, comm, &copy, &bytes, func);
    if (rc != MPI_SUCCESS)
        return rc;
    return isendrecv_any(copy, (MPI_Count)bytes, MPI_BYTE, dest, sendtag, buf, count, datatype,
                         source, recvtag, comm, request, copy, func);
}

int PMPI_Isendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                           int source, int recvtag, MPI_Comm comm, MPI_Request *request)
{
    return isendrecv_replace_any(buf, count, datatype, dest, sendtag, source, recvtag, comm,
                                 request, "MPI_Isendrecv_replace");
}
OM_ALIAS(Isendrecv_replace)

int PMPI_Isendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                             int sendtag, int source, int recvtag, MPI_Comm comm,
                             MPI_Request *request)
{
    return isendrecv_replace_any(buf, count, datatype, dest, sendtag, source, recvtag, comm,
                                 request, "MPI_Isendrecv_replace_c");
}
OM_ALIAS(Isendrecv_replace_c)
