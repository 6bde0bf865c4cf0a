/* MPI on ordo: MPI-4 partitioned point-to-point (MPI_Psend_init,
 * MPI_Precv_init, MPI_Pready*, MPI_Parrived).
 *
 * A partitioned request is a persistent one over the whole buffer
 * (partitions x count elements) with the partitions' state beside it.
 * The message goes as one: the send starts when the last partition is
 * marked ready (by whichever thread marks it), and a partition has
 * arrived when the whole message has.  MPI allows that; what it costs is
 * the overlap of early partitions with late ones, which one lane of
 * shared memory or one network connection would not give much of anyway.
 * The message is an ordinary one of the same source, tag and
 * communicator: a program must not have an ordinary message with the same
 * envelope in flight at once (docs/mpi.md). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"

struct om_part {
    int              partitions;
    int              send;
    atomic_int       ready;      /* partitions marked ready since the start */
    atomic_uchar    *marked;     /* each partition's mark */
    pthread_mutex_t  lock;       /* op: posted by the last Pready, completed by poll */
    struct MPI_ABI_Request *op;  /* the transfer under way, NULL before it starts */
    int              arrived;    /* a receive's transfer completed (status kept) */
    MPI_Status       status;
};

void om_part_free(struct MPI_ABI_Request *r)
{
    struct om_part *p = r->part;
    if (p->op)
        om_req_free(p->op);
    pthread_mutex_destroy(&p->lock);
    free(p->marked);
    free(p);
    r->part = NULL;
}

/* The transfer's start: a receive at MPI_Start, a send at the last
 * partition's Pready. */
static int post(struct MPI_ABI_Request *r, const char *func)
{
    struct MPI_ABI_Comm *c = om_comm(r->comm);
    struct om_part *p = r->part;
    if (!c)
        return MPI_ERR_COMM;
    return p->send ? om_isend(c, r->comm, r->pbuf, r->pcount, r->ptype, r->ppeer, r->ptag,
                              OM_SEND_STD, &p->op, func)
                   : om_irecv(c, r->comm, (void *)r->pbuf, r->pcount, r->ptype, r->ppeer,
                              r->ptag, &p->op, func);
}

/* Complete the transfer if it is done (blocking when wait): 2 with
 * done_status filled, 0 not yet (or not started), < 0 minus the class. */
static int part_poll(struct MPI_ABI_Request *r, int wait)
{
    struct om_part *p = r->part;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        if (!p->arrived && p->op && om_req_complete(p->op, wait, &p->status) != 0) {
            om_req_free(p->op);
            p->op = NULL;
            p->arrived = 1;
        }
        int arrived = p->arrived;
        pthread_mutex_unlock(&p->lock);
        if (arrived) {
            r->done_status = p->status;
            return p->status.MPI_ERROR == MPI_SUCCESS ? 2 : -p->status.MPI_ERROR;
        }
        if (!wait)
            return 0;
        ordo_progress();   /* the send waits for another thread's last Pready */
    }
}

int om_part_start(struct MPI_ABI_Request *r)
{
    struct om_part *p = r->part;
    atomic_store(&p->ready, 0);
    for (int i = 0; i < p->partitions; i++)
        atomic_store(&p->marked[i], 0);
    p->arrived = 0;
    r->completed = 0;
    r->active = 1;
    if (!p->send) {
        int rc = post(r, "MPI_Start");
        if (rc != MPI_SUCCESS) {
            r->active = 0;
            return rc;
        }
    }
    return MPI_SUCCESS;
}

static int part_init(const void *buf, int partitions, MPI_Count count, MPI_Datatype datatype,
                     int peer, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request,
                     int send, const char *func)
{
    (void)info;   /* no hint changes how the message goes */
    if (partitions < 1 || count < 0)
        return om_comm_error(comm, partitions < 1 ? MPI_ERR_ARG : MPI_ERR_COUNT, func,
                             "%d partitions of %lld elements", partitions, (long long)count);
    if (count > 0 && (MPI_Count)partitions > INT64_MAX / count)
        return om_comm_error(comm, MPI_ERR_COUNT, func, "%d x %lld elements overflow",
                             partitions, (long long)count);
    if (peer == MPI_ANY_SOURCE || tag == MPI_ANY_TAG)
        return om_comm_error(comm, peer == MPI_ANY_SOURCE ? MPI_ERR_RANK : MPI_ERR_TAG, func,
                             "partitioned receives name their source and tag");
    struct om_part *p = calloc(1, sizeof(*p));
    atomic_uchar *marked = calloc((size_t)partitions, sizeof(atomic_uchar));
    if (!p || !marked) {
        free(p);
        free(marked);
        return om_comm_error(comm, MPI_ERR_NO_MEM, func, "no memory");
    }
    int rc = send ? PMPI_Send_init_c(buf, count * partitions, datatype, peer, tag, comm,
                                     request)
                  : PMPI_Recv_init_c((void *)buf, count * partitions, datatype, peer, tag,
                                     comm, request);
    if (rc != MPI_SUCCESS) {
        free(p);
        free(marked);
        return rc;
    }
    p->partitions = partitions;
    p->send = send;
    p->marked = marked;
    pthread_mutex_init(&p->lock, NULL);
    (*request)->part = p;
    (*request)->poll = part_poll;
    return MPI_SUCCESS;
}

int PMPI_Psend_init(const void *buf, int partitions, MPI_Count count, MPI_Datatype datatype,
                    int dest, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return part_init(buf, partitions, count, datatype, dest, tag, comm, info, request, 1,
                     "MPI_Psend_init");
}
OM_ALIAS(Psend_init)

int PMPI_Precv_init(void *buf, int partitions, MPI_Count count, MPI_Datatype datatype,
                    int source, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return part_init(buf, partitions, count, datatype, source, tag, comm, info, request, 0,
                     "MPI_Precv_init");
}
OM_ALIAS(Precv_init)

/* The partitioned request behind a handle, active, of the side asked
 * (send: Pready; receive: Parrived); else the class raised. */
static int part_arg(MPI_Request request, int send, struct MPI_ABI_Request **r_p,
                    const char *func)
{
    if (!om_ready(func))
        return MPI_ERR_OTHER;
    struct MPI_ABI_Request *r = om_req_record(request);
    if (!r || !r->part || r->part->send != send)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_REQUEST, func,
                             "not a partitioned %s request", send ? "send" : "receive");
    *r_p = r;
    return MPI_SUCCESS;
}

static int mark(struct MPI_ABI_Request *r, int partition, const char *func)
{
    struct om_part *p = r->part;
    if (!r->active)
        return om_comm_error(r->comm, MPI_ERR_REQUEST, func, "the request is not started");
    if (partition < 0 || partition >= p->partitions)
        return om_comm_error(r->comm, MPI_ERR_ARG, func, "partition %d (of %d)", partition,
                             p->partitions);
    if (atomic_exchange(&p->marked[partition], 1))
        return om_comm_error(r->comm, MPI_ERR_ARG, func, "partition %d is already ready",
                             partition);
    if (atomic_fetch_add(&p->ready, 1) + 1 < p->partitions)
        return MPI_SUCCESS;
    pthread_mutex_lock(&p->lock);   /* the last one: the message goes */
    int rc = post(r, func);
    pthread_mutex_unlock(&p->lock);
    return rc;
}

int PMPI_Pready(int partition, MPI_Request request)
{
    struct MPI_ABI_Request *r = NULL;
    int rc = part_arg(request, 1, &r, "MPI_Pready");
    return rc ? rc : mark(r, partition, "MPI_Pready");
}
OM_ALIAS(Pready)

int PMPI_Pready_range(int partition_low, int partition_high, MPI_Request request)
{
    struct MPI_ABI_Request *r = NULL;
    int rc = part_arg(request, 1, &r, "MPI_Pready_range");
    if (!rc && partition_low > partition_high)
        rc = om_comm_error(r->comm, MPI_ERR_ARG, "MPI_Pready_range", "low %d > high %d",
                           partition_low, partition_high);
    for (int i = partition_low; !rc && i <= partition_high; i++)
        rc = mark(r, i, "MPI_Pready_range");
    return rc;
}
OM_ALIAS(Pready_range)

int PMPI_Pready_list(int length, const int array_of_partitions[], MPI_Request request)
{
    struct MPI_ABI_Request *r = NULL;
    int rc = part_arg(request, 1, &r, "MPI_Pready_list");
    if (!rc && (length < 0 || (length > 0 && !array_of_partitions)))
        rc = om_comm_error(r->comm, MPI_ERR_ARG, "MPI_Pready_list",
                           "length %d, or the list NULL", length);
    for (int i = 0; !rc && i < length; i++)
        rc = mark(r, array_of_partitions[i], "MPI_Pready_list");
    return rc;
}
OM_ALIAS(Pready_list)

/* A partition has arrived when the message has (it travels whole); an
 * inactive request's have all. */
int PMPI_Parrived(MPI_Request request, int partition, int *flag)
{
    struct MPI_ABI_Request *r = NULL;
    int rc = part_arg(request, 0, &r, "MPI_Parrived");
    if (rc)
        return rc;
    if (!flag || partition < 0 || partition >= r->part->partitions)
        return om_comm_error(r->comm, MPI_ERR_ARG, "MPI_Parrived", "partition %d (of %d)%s",
                             partition, r->part->partitions, flag ? "" : ", flag NULL");
    if (!r->active) {
        *flag = 1;
        return MPI_SUCCESS;
    }
    rc = part_poll(r, 0);
    *flag = rc != 0;
    return rc < 0 ? om_comm_error(r->comm, -rc, "MPI_Parrived", "the receive failed")
                  : MPI_SUCCESS;
}
OM_ALIAS(Parrived)
