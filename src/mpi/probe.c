/* MPI on ordo: probes, and matched probes (MPI_Mprobe / MPI_Improbe with
 * MPI_Mrecv / MPI_Imrecv).  A matched probe receives the message it found
 * at once, into memory of ours, with the source and tag it found; at
 * MPI_THREAD_MULTIPLE no other receive is posted between the probe and
 * that receive (om_post_lock), so the message is the one probed.
 * MPI_Mrecv copies it out. */
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"


static int probe_args(struct MPI_ABI_Comm *c, MPI_Comm comm, int source, int tag,
                      const char *func)
{
    if (!(source == MPI_PROC_NULL || source == MPI_ANY_SOURCE ||
          (source >= 0 && source < om_peer_group(c)->size)))
        return om_comm_error(comm, MPI_ERR_RANK, func, "source %d (of %d)", source,
                             om_peer_group(c)->size);
    if (!(tag == MPI_ANY_TAG || (tag >= 0 && tag <= ORDO_TAG_MAX)))
        return om_comm_error(comm, MPI_ERR_TAG, func, "tag %d", tag);
    return MPI_SUCCESS;
}

static void status_of(struct MPI_ABI_Comm *c, const ordo_completion_t *ci, MPI_Status *st)
{
    int src = c == &om_comm_world ? ci->source : om_comm_rank_of_world(c, ci->source);
    om_status_set(st, src, ci->tag, MPI_SUCCESS, ci->msg_length, 0);
}

/* Probe (blocking when flag is NULL) on c: *found and the message's
 * envelope in *ci. */
static int probe(struct MPI_ABI_Comm *c, MPI_Comm comm, int source, int tag, int *flag,
                 ordo_completion_t *ci, const char *func)
{
    int src = source == MPI_ANY_SOURCE ? ORDO_ANY_SOURCE : om_world_rank(c, source);
    int t = tag == MPI_ANY_TAG ? ORDO_ANY_TAG : tag;
    ordo_status_t st = flag ? ordo_probe_nb(c->oc, src, t, flag, ci)
                            : ordo_probe(c->oc, src, t, ci);
    if (st == ORDO_OK && !flag)
        return MPI_SUCCESS;
    if (st == ORDO_OK) {
        if (!*flag)
            ordo_progress();
        return MPI_SUCCESS;
    }
    return om_comm_failed(comm, st, func);
}

static int probe_any(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status,
                     const char *func)
{
    OM_COMM_ARG(c, comm, func);
    int rc = probe_args(c, comm, source, tag, func);
    if (rc != MPI_SUCCESS)
        return rc;
    if (source == MPI_PROC_NULL) {
        if (flag)
            *flag = 1;
        if (status)
            om_status_set(status, MPI_PROC_NULL, MPI_ANY_TAG, MPI_SUCCESS, 0, 0);
        return MPI_SUCCESS;
    }
    ordo_completion_t ci;
    memset(&ci, 0, sizeof(ci));
    rc = probe(c, comm, source, tag, flag, &ci, func);
    if (rc == MPI_SUCCESS && status && (!flag || *flag))
        status_of(c, &ci, status);
    return rc;
}

int PMPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    return probe_any(source, tag, comm, NULL, status, "MPI_Probe");
}
OM_ALIAS(Probe)

int PMPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
    if (!flag)
        return om_comm_error(comm, MPI_ERR_ARG, "MPI_Iprobe", "flag is NULL");
    return probe_any(source, tag, comm, flag, status, "MPI_Iprobe");
}
OM_ALIAS(Iprobe)

static int mprobe_any(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
                      MPI_Status *status, const char *func)
{
    OM_COMM_ARG(c, comm, func);
    int rc = probe_args(c, comm, source, tag, func);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!message)
        return om_comm_error(comm, MPI_ERR_ARG, func, "message is NULL");
    if (source == MPI_PROC_NULL) {
        if (flag)
            *flag = 1;
        *message = MPI_MESSAGE_NO_PROC;
        if (status)
            om_status_set(status, MPI_PROC_NULL, MPI_ANY_TAG, MPI_SUCCESS, 0, 0);
        return MPI_SUCCESS;
    }
    ordo_completion_t ci;
    memset(&ci, 0, sizeof(ci));
    om_post_lock();
    rc = probe(c, comm, source, tag, flag, &ci, func);
    if (rc != MPI_SUCCESS || (flag && !*flag)) {
        om_post_unlock();
        return rc;
    }
    struct MPI_ABI_Message *m = calloc(1, sizeof(*m));
    void *data = malloc(ci.msg_length ? ci.msg_length : 1);
    if (!m || !data) {
        om_post_unlock();
        free(m);
        free(data);
        return om_comm_error(comm, MPI_ERR_NO_MEM, func, "no memory for %zu bytes",
                             ci.msg_length);
    }
    ordo_request_h req = NULL;
    ordo_status_t st = ordo_recv_nb(c->oc, data, ci.msg_length, ci.source, ci.tag, &req);
    om_post_unlock();
    ordo_completion_t got;
    memset(&got, 0, sizeof(got));
    if (st == ORDO_INPROGRESS)
        st = ordo_request_wait(&req, &got);
    if (st != ORDO_OK) {
        free(m);
        free(data);
        return om_comm_failed(comm, st, func);
    }
    m->magic = OM_MAGIC_MSG;
    m->comm = comm;
    m->data = data;
    m->len = got.length;
    status_of(c, &got, &m->status);
    *message = m;
    if (status)
        *status = m->status;
    return MPI_SUCCESS;
}

int PMPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status)
{
    return mprobe_any(source, tag, comm, NULL, message, status, "MPI_Mprobe");
}
OM_ALIAS(Mprobe)

int PMPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
                 MPI_Status *status)
{
    if (!flag)
        return om_comm_error(comm, MPI_ERR_ARG, "MPI_Improbe", "flag is NULL");
    return mprobe_any(source, tag, comm, flag, message, status, "MPI_Improbe");
}
OM_ALIAS(Improbe)

/* Copy a matched message into the program's buffer; the message is gone. */
static int mrecv_into(void *buf, MPI_Count count, MPI_Datatype type, MPI_Message *message,
                      MPI_Status *status, const char *func)
{
    if (!message)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, func, "message is NULL");
    if (*message == MPI_MESSAGE_NO_PROC) {
        if (status)
            om_status_set(status, MPI_PROC_NULL, MPI_ANY_TAG, MPI_SUCCESS, 0, 0);
        *message = MPI_MESSAGE_NULL;
        return MPI_SUCCESS;
    }
    struct MPI_ABI_Message *m = *message;
    if ((uintptr_t)m < 0x1000 || m->magic != OM_MAGIC_MSG)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_REQUEST, func, "not a matched message");
    struct MPI_ABI_Datatype *t;
    int rc = om_check_buffer(buf, count, type, &t);
    if (rc != MPI_SUCCESS)
        return om_comm_error(m->comm, rc, func, "count %lld", (long long)count);
    size_t cap = 0;
    om_type_bytes(t, count, &cap);
    size_t n = m->len < cap ? m->len : cap;
    om_unpack(t, m->data, n, buf, count);
    MPI_Status st = m->status;
    om_status_set(&st, st.MPI_SOURCE, st.MPI_TAG,
                  m->len > cap ? MPI_ERR_TRUNCATE : MPI_SUCCESS, n, 0);
    MPI_Comm comm = m->comm;
    m->magic = OM_MAGIC_DEAD;
    free(m->data);
    free(m);
    *message = MPI_MESSAGE_NULL;
    if (status)
        *status = st;
    if (st.MPI_ERROR != MPI_SUCCESS)
        return om_comm_error(comm, st.MPI_ERROR, func,
                             "the message was longer than the receive buffer");
    return MPI_SUCCESS;
}

int PMPI_Mrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
               MPI_Status *status)
{
    return mrecv_into(buf, count, datatype, message, status, "MPI_Mrecv");
}
OM_ALIAS(Mrecv)

int PMPI_Mrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                 MPI_Status *status)
{
    return mrecv_into(buf, count, datatype, message, status, "MPI_Mrecv_c");
}
OM_ALIAS(Mrecv_c)

static int imrecv_into(void *buf, MPI_Count count, MPI_Datatype type, MPI_Message *message,
                       MPI_Request *request, const char *func)
{
    if (!request)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, func, "request is NULL");
    MPI_Comm comm = MPI_COMM_SELF;
    if (message && *message != MPI_MESSAGE_NO_PROC && (uintptr_t)*message >= 0x1000 &&
        (*message)->magic == OM_MAGIC_MSG)
        comm = (*message)->comm;
    MPI_Status st;
    int rc = mrecv_into(buf, count, type, message, &st, func);
    if (rc != MPI_SUCCESS && rc != MPI_ERR_TRUNCATE)
        return rc;
    struct MPI_ABI_Request *r = om_req_new(OM_REQ_RECV, comm);
    if (!r)
        return om_comm_error(comm, MPI_ERR_NO_MEM, func, "no memory for a request");
    r->done_status = st;
    r->completed = 1;
    *request = r;
    return MPI_SUCCESS;
}

int PMPI_Imrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
                MPI_Request *request)
{
    return imrecv_into(buf, count, datatype, message, request, "MPI_Imrecv");
}
OM_ALIAS(Imrecv)

int PMPI_Imrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                  MPI_Request *request)
{
    return imrecv_into(buf, count, datatype, message, request, "MPI_Imrecv_c");
}
OM_ALIAS(Imrecv_c)
