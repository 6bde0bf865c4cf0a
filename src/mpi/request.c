/* MPI on ordo: requests and their completion (wait, test and their any /
 * some / all forms, cancel, persistent starts), and statuses. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"

/* The free list of requests (mpi_internal.h: om_req_new, om_req_free). */
struct MPI_ABI_Request *om_free_reqs;
pthread_mutex_t om_free_reqs_lock = PTHREAD_MUTEX_INITIALIZER;

struct MPI_ABI_Request om_send_done = {
    .magic = OM_MAGIC_REQ, .kind = OM_REQ_SEND, .comm = MPI_COMM_WORLD, .completed = 1,
    .done_status = {.MPI_SOURCE = MPI_ANY_SOURCE, .MPI_TAG = MPI_ANY_TAG,
                    .MPI_ERROR = MPI_SUCCESS}};


static struct MPI_ABI_Request *req_of(MPI_Request h)
{
    if ((uintptr_t)h < 0x1000 || h->magic != OM_MAGIC_REQ)
        return NULL;
    return h;
}

void om_status_set(MPI_Status *st, int source, int tag, int error, size_t bytes, int cancelled)
{
    st->MPI_SOURCE = source;
    st->MPI_TAG = tag;
    st->MPI_ERROR = error;
    st->MPI_internal[0] = (int)(uint32_t)(uint64_t)bytes;
    st->MPI_internal[1] = (int)(uint32_t)((uint64_t)bytes >> 32);
    st->MPI_internal[2] = cancelled;
    st->MPI_internal[3] = 0;
    st->MPI_internal[4] = 0;
}

void om_status_empty(MPI_Status *st)
{
    om_status_set(st, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_SUCCESS, 0, 0);
}

/* What an ordo completion says, as MPI's status of r. */
static int finish_ordo(struct MPI_ABI_Request *r, ordo_status_t st, const ordo_completion_t *ci)
{
    int err = om_class_of(st);
    if (r->kind == OM_REQ_RECV) {
        struct MPI_ABI_Comm *c = om_comm(r->comm);
        int src = ci->source;
        if (c && src >= 0 && c != &om_comm_world)
            src = om_comm_rank_of_world(c, src);
        size_t got = ci->length;
        if (r->pack && !ci->cancelled)
            om_unpack(r->utype, r->pack, got, r->ubuf, r->ucount);
        om_status_set(&r->done_status, ci->cancelled ? MPI_ANY_SOURCE : src,
                      ci->cancelled ? MPI_ANY_TAG : (ci->tag < 0 ? MPI_ANY_TAG : ci->tag), err,
                      ci->cancelled ? 0 : got, ci->cancelled);
    } else {
        om_status_set(&r->done_status, MPI_ANY_SOURCE, MPI_ANY_TAG, err, 0, 0);
    }
    if (r->pack) {   /* most have none: no call */
        free(r->pack);
        r->pack = NULL;
    }
    if (r->utype) {
        om_type_release(r->utype);
        r->utype = NULL;
    }
    r->completed = 1;
    if (r->finish && !ci->cancelled) {
        int rc = r->finish(r);
        if (rc != MPI_SUCCESS && err == MPI_SUCCESS)
            r->done_status.MPI_ERROR = err = rc;
    }
    return err;
}

/* Drive r towards completion (blocking when wait): 1 once its outcome
 * is in done_status, 0 while it is not.  A sendrecv's send half (or2)
 * completes first; its failure is the request's. */
static int advance(struct MPI_ABI_Request *r, int wait)
{
    if (r->completed)
        return 1;
    if (r->greq)
        return om_greq_advance(r, wait);
    if (r->poll) {
        int p = r->poll(r, wait);   /* mpi_internal.h says what it returns */
        if (!p)
            return 0;
        if (p != 2)
            om_status_empty(&r->done_status);
        if (p < 0)
            r->done_status.MPI_ERROR = -p;
        r->completed = 1;
        return 1;
    }
    ordo_status_t st2 = ORDO_OK;
    if (r->or2) {
        if (wait) {
            st2 = ordo_request_wait(&r->or2, NULL);
        } else {
            int done = 0;
            st2 = ordo_request_test(&r->or2, &done, NULL);
            if (st2 == ORDO_OK && !done)
                return 0;
        }
        r->or2 = NULL;
        r->or2_status = st2;
        free(r->pack2);
        r->pack2 = NULL;
    }
    ordo_completion_t ci;
    memset(&ci, 0, sizeof(ci));
    ci.source = ci.tag = -1;
    ordo_status_t st = ORDO_OK;
    if (r->or_) {
        if (wait) {
            st = ordo_request_wait(&r->or_, &ci);
        } else {
            int done = 0;
            st = ordo_request_test(&r->or_, &done, &ci);
            if (st == ORDO_OK && !done)
                return 0;
        }
    }
    finish_ordo(r, st == ORDO_OK ? r->or2_status : st, &ci);
    return 1;
}

int om_req_complete(struct MPI_ABI_Request *r, int wait, MPI_Status *status)
{
    if (r->persistent && !r->active) {
        if (status)
            om_status_empty(status);
        return 1;
    }
    if (!advance(r, wait))
        return 0;
    if (status)
        *status = r->done_status;
    int err = r->done_status.MPI_ERROR;
    if (r->persistent)
        r->active = r->completed = 0;
    return err == MPI_SUCCESS ? 1 : -err;
}


/* Complete *request (blocking or not); on completion a non-persistent
 * one is released and the handle set to MPI_REQUEST_NULL.  Returns 1, 0
 * (not yet), or -class. */
static int complete_handle(MPI_Request *request, int wait, MPI_Status *status)
{
    if (*request == MPI_REQUEST_NULL) {
        if (status)
            om_status_empty(status);
        return 1;
    }
    struct MPI_ABI_Request *r = req_of(*request);
    if (!r)
        return -MPI_ERR_REQUEST;
    int rc = om_req_complete(r, wait, status);
    if (rc != 0 && !r->persistent) {
        /* a generalized request's free function fails its completion */
        int frc = r->greq ? om_greq_release(r) : MPI_SUCCESS;
        om_req_free(r);
        *request = MPI_REQUEST_NULL;
        if (frc != MPI_SUCCESS && rc == 1)
            rc = -frc;
    }
    return rc;
}

int PMPI_Wait(MPI_Request *request, MPI_Status *status)
{
    if (!request)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Wait", "request is NULL");
    MPI_Comm comm = req_of(*request) ? (*request)->comm : MPI_COMM_SELF;
    int rc = complete_handle(request, 1, status);
    if (rc == -MPI_ERR_REQUEST)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_REQUEST, "MPI_Wait", "not a request");
    if (rc < 0)
        return om_comm_error(comm, -rc, "MPI_Wait", "the operation failed");
    return MPI_SUCCESS;
}
OM_ALIAS(Wait)

int PMPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    if (!request || !flag)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Test", "a NULL argument");
    MPI_Comm comm = req_of(*request) ? (*request)->comm : MPI_COMM_SELF;
    int rc = complete_handle(request, 0, status);
    if (rc == -MPI_ERR_REQUEST)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_REQUEST, "MPI_Test", "not a request");
    *flag = rc != 0;
    if (rc == 0)
        ordo_progress();
    if (rc < 0)
        return om_comm_error(comm, -rc, "MPI_Test", "the operation failed");
    return MPI_SUCCESS;
}
OM_ALIAS(Test)

/* Wait for the plain (not persistent, not sendrecv) ordo requests among
 * reqs in one ordo_request_waitall, chunk by chunk, so that one progress
 * pass serves them all (a wait per request would run a pass for each);
 * their outcomes go into their statuses, and the caller's loop then finds
 * them complete.  With release (no statuses wanted), one that succeeded
 * is released at once and its handle nulled: the caller's loop passes it
 * by. */
static void wait_together(int count, MPI_Request reqs[], int release)
{
    enum { CHUNK = 64 };
    ordo_request_h h[CHUNK];
    ordo_completion_t ci[CHUNK];
    int at[CHUNK];
    int n = 0;
    for (int i = 0; i <= count; i++) {
        struct MPI_ABI_Request *r = i < count ? reqs[i] : NULL;   /* checked by the caller */
        if (r && r != MPI_REQUEST_NULL && !r->completed && r->or_ && !r->or2 &&
            !r->persistent) {
            at[n] = i;
            h[n++] = r->or_;
        }
        if (n == CHUNK || (i == count && n > 0)) {
            ordo_request_waitall((size_t)n, h, ci);
            for (int k = 0; k < n; k++) {
                struct MPI_ABI_Request *q = reqs[at[k]];
                q->or_ = NULL;
                if (finish_ordo(q, ci[k].error, &ci[k]) == MPI_SUCCESS && release) {
                    om_req_free(q);
                    reqs[at[k]] = MPI_REQUEST_NULL;
                }
            }
            n = 0;
        }
    }
}

/* Multiple completion: an error sets MPI_ERR_IN_STATUS, each status
 * saying its own (MPI_SUCCESS or the class; MPI_ERR_PENDING for those not
 * completed by waitall). */
static int all_of(int count, MPI_Request reqs[], MPI_Status statuses[], int wait, int *flag,
                  const char *func)
{
    if (count < 0 || (count > 0 && !reqs))
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, func, "count %d or requests NULL",
                             count);
    for (int i = 0; i < count; i++)
        if (reqs[i] != MPI_REQUEST_NULL && !req_of(reqs[i]))
            return om_comm_error(MPI_COMM_SELF, MPI_ERR_REQUEST, func,
                                 "requests[%d] is not a request", i);
    if (!wait) {
        /* testall completes all or none */
        for (int i = 0; i < count; i++) {
            struct MPI_ABI_Request *r = req_of(reqs[i]);
            if (r && !(r->persistent && !r->active) && !advance(r, 0)) {
                *flag = 0;
                ordo_progress();
                return MPI_SUCCESS;
            }
        }
        *flag = 1;
    } else {
        wait_together(count, reqs, statuses == MPI_STATUSES_IGNORE);
    }
    int failed = 0, ignore = statuses == MPI_STATUSES_IGNORE;
    MPI_Comm comm = MPI_COMM_SELF;
    for (int i = 0; i < count; i++) {
        MPI_Status one;
        if (ignore && (reqs[i] == MPI_REQUEST_NULL || reqs[i] == &om_send_done)) {
            reqs[i] = MPI_REQUEST_NULL;   /* released by wait_together, or nothing to do */
            continue;
        }
        struct MPI_ABI_Request *r = req_of(reqs[i]);
        if (r)
            comm = r->comm;
        int rc = complete_handle(&reqs[i], 1, ignore ? NULL : &one);
        if (rc < 0)
            failed = 1;
        if (!ignore)
            statuses[i] = one;
    }
    if (failed)
        return om_comm_error(comm, MPI_ERR_IN_STATUS, func, "an operation failed");
    return MPI_SUCCESS;
}

int PMPI_Waitall(int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[])
{
    return all_of(count, array_of_requests, array_of_statuses, 1, NULL, "MPI_Waitall");
}
OM_ALIAS(Waitall)

int PMPI_Testall(int count, MPI_Request array_of_requests[], int *flag,
                 MPI_Status array_of_statuses[])
{
    if (!flag)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Testall", "flag is NULL");
    return all_of(count, array_of_requests, array_of_statuses, 0, flag, "MPI_Testall");
}
OM_ALIAS(Testall)

static int active(MPI_Request h)
{
    struct MPI_ABI_Request *r = req_of(h);
    return r && !(r->persistent && !r->active);
}

static int any_of(int count, MPI_Request reqs[], int *index, MPI_Status *status, int wait,
                  int *flag, const char *func)
{
    if (count < 0 || (count > 0 && !reqs) || !index)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, func, "count %d or a NULL array",
                             count);
    for (;;) {
        int any_active = 0;
        for (int i = 0; i < count; i++) {
            if (reqs[i] != MPI_REQUEST_NULL && !req_of(reqs[i]))
                return om_comm_error(MPI_COMM_SELF, MPI_ERR_REQUEST, func,
                                     "requests[%d] is not a request", i);
            if (!active(reqs[i]))
                continue;
            any_active = 1;
            MPI_Comm comm = reqs[i]->comm;
            int rc = complete_handle(&reqs[i], 0, status);
            if (rc != 0) {
                *index = i;
                if (flag)
                    *flag = 1;
                return rc < 0 ? om_comm_error(comm, -rc, func, "the operation failed")
                              : MPI_SUCCESS;
            }
        }
        if (!any_active) {
            *index = MPI_UNDEFINED;
            if (flag)
                *flag = 1;
            if (status)
                om_status_empty(status);
            return MPI_SUCCESS;
        }
        ordo_progress();
        if (!wait) {
            *flag = 0;
            *index = MPI_UNDEFINED;
            return MPI_SUCCESS;
        }
    }
}

int PMPI_Waitany(int count, MPI_Request array_of_requests[], int *index, MPI_Status *status)
{
    return any_of(count, array_of_requests, index, status, 1, NULL, "MPI_Waitany");
}
OM_ALIAS(Waitany)

int PMPI_Testany(int count, MPI_Request array_of_requests[], int *index, int *flag,
                 MPI_Status *status)
{
    if (!flag)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Testany", "flag is NULL");
    return any_of(count, array_of_requests, index, status, 0, flag, "MPI_Testany");
}
OM_ALIAS(Testany)

static int some_of(int incount, MPI_Request reqs[], int *outcount, int indices[],
                   MPI_Status statuses[], int wait, const char *func)
{
    if (incount < 0 || (incount > 0 && (!reqs || !indices)) || !outcount)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, func, "incount %d or a NULL array",
                             incount);
    for (;;) {
        int n = 0, any_active = 0, failed = 0;
        MPI_Comm comm = MPI_COMM_SELF;
        for (int i = 0; i < incount; i++) {
            if (reqs[i] != MPI_REQUEST_NULL && !req_of(reqs[i]))
                return om_comm_error(MPI_COMM_SELF, MPI_ERR_REQUEST, func,
                                     "requests[%d] is not a request", i);
            if (!active(reqs[i]))
                continue;
            any_active = 1;
            comm = reqs[i]->comm;
            MPI_Status one;
            int rc = complete_handle(&reqs[i], 0, &one);
            if (rc == 0)
                continue;
            if (rc < 0)
                failed = 1;
            if (statuses != MPI_STATUSES_IGNORE)
                statuses[n] = one;
            indices[n++] = i;
        }
        if (!any_active) {
            *outcount = MPI_UNDEFINED;
            return MPI_SUCCESS;
        }
        if (n > 0 || !wait) {
            *outcount = n;
            if (n == 0)
                ordo_progress();
            return failed ? om_comm_error(comm, MPI_ERR_IN_STATUS, func,
                                          "an operation failed")
                          : MPI_SUCCESS;
        }
        ordo_progress();
    }
}

int PMPI_Waitsome(int incount, MPI_Request array_of_requests[], int *outcount,
                  int array_of_indices[], MPI_Status array_of_statuses[])
{
    return some_of(incount, array_of_requests, outcount, array_of_indices, array_of_statuses,
                   1, "MPI_Waitsome");
}
OM_ALIAS(Waitsome)

int PMPI_Testsome(int incount, MPI_Request array_of_requests[], int *outcount,
                  int array_of_indices[], MPI_Status array_of_statuses[])
{
    return some_of(incount, array_of_requests, outcount, array_of_indices, array_of_statuses,
                   0, "MPI_Testsome");
}
OM_ALIAS(Testsome)

int PMPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status)
{
    if (!flag)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Request_get_status",
                             "flag is NULL");
    if (request == MPI_REQUEST_NULL || !active(request)) {
        if (request != MPI_REQUEST_NULL && !req_of(request))
            return om_comm_error(MPI_COMM_SELF, MPI_ERR_REQUEST, "MPI_Request_get_status",
                                 "not a request");
        *flag = 1;
        if (status)
            om_status_empty(status);
        return MPI_SUCCESS;
    }
    /* complete it inside, without releasing the handle */
    struct MPI_ABI_Request *r = request;
    if (!advance(r, 0)) {
        *flag = 0;
        ordo_progress();
        return MPI_SUCCESS;
    }
    *flag = 1;
    if (status)
        *status = r->done_status;
    return MPI_SUCCESS;
}
OM_ALIAS(Request_get_status)

/* MPI 4.1: the status of one, some or all requests, none released. */
int PMPI_Request_get_status_any(int count, const MPI_Request array_of_requests[], int *index,
                                int *flag, MPI_Status *status)
{
    if (count < 0 || (count > 0 && !array_of_requests) || !index || !flag)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Request_get_status_any",
                             "count %d or a NULL argument", count);
    int any = 0;
    for (int i = 0; i < count; i++) {
        MPI_Request h = array_of_requests[i];
        if (h == MPI_REQUEST_NULL || !active(h))
            continue;
        any = 1;
        if (advance(h, 0)) {
            *index = i;
            *flag = 1;
            if (status)
                *status = h->done_status;
            return MPI_SUCCESS;
        }
    }
    *index = MPI_UNDEFINED;
    *flag = !any;
    if (!any && status)
        om_status_empty(status);
    if (any)
        ordo_progress();
    return MPI_SUCCESS;
}
OM_ALIAS(Request_get_status_any)

int PMPI_Request_get_status_some(int incount, const MPI_Request array_of_requests[],
                                 int *outcount, int array_of_indices[],
                                 MPI_Status array_of_statuses[])
{
    if (incount < 0 || (incount > 0 && (!array_of_requests || !array_of_indices)) || !outcount)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Request_get_status_some",
                             "incount %d or a NULL argument", incount);
    int n = 0, any = 0;
    for (int i = 0; i < incount; i++) {
        MPI_Request h = array_of_requests[i];
        if (h == MPI_REQUEST_NULL || !active(h))
            continue;
        any = 1;
        if (advance(h, 0)) {
            if (array_of_statuses != MPI_STATUSES_IGNORE)
                array_of_statuses[n] = h->done_status;
            array_of_indices[n++] = i;
        }
    }
    *outcount = any ? n : MPI_UNDEFINED;
    if (any && !n)
        ordo_progress();
    return MPI_SUCCESS;
}
OM_ALIAS(Request_get_status_some)

int PMPI_Request_get_status_all(int count, const MPI_Request array_of_requests[], int *flag,
                                MPI_Status array_of_statuses[])
{
    if (count < 0 || (count > 0 && !array_of_requests) || !flag)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Request_get_status_all",
                             "count %d or a NULL argument", count);
    for (int i = 0; i < count; i++) {
        MPI_Request h = array_of_requests[i];
        if (h != MPI_REQUEST_NULL && active(h) && !advance(h, 0)) {
            *flag = 0;
            ordo_progress();
            return MPI_SUCCESS;
        }
    }
    *flag = 1;
    for (int i = 0; array_of_statuses != MPI_STATUSES_IGNORE && i < count; i++) {
        MPI_Request h = array_of_requests[i];
        if (h == MPI_REQUEST_NULL || !active(h))
            om_status_empty(&array_of_statuses[i]);
        else
            array_of_statuses[i] = h->done_status;
    }
    return MPI_SUCCESS;
}
OM_ALIAS(Request_get_status_all)

int PMPI_Request_free(MPI_Request *request)
{
    struct MPI_ABI_Request *r = request ? req_of(*request) : NULL;
    if (!r)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_REQUEST, "MPI_Request_free",
                             "not a request");
    if (r->greq) {
        /* not yet complete: MPI_Grequest_complete frees it */
        int active = OM_GREQ_ACTIVE;
        if (atomic_compare_exchange_strong(&r->greq->state, &active, OM_GREQ_FREED)) {
            *request = MPI_REQUEST_NULL;
            return MPI_SUCCESS;
        }
    }
    if (r->or_ || (r->persistent && r->active)) {
        /* MPI lets the operation go on; it completes here, then goes */
        om_req_complete(r, 1, NULL);
    }
    om_req_free(r);
    *request = MPI_REQUEST_NULL;
    return MPI_SUCCESS;
}
OM_ALIAS(Request_free)

int PMPI_Cancel(MPI_Request *request)
{
    struct MPI_ABI_Request *r = request ? req_of(*request) : NULL;
    if (!r)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_REQUEST, "MPI_Cancel", "not a request");
    if (r->greq) {   /* the program's to cancel, told whether it completed */
        int rc = r->greq->cancel(r->greq->extra,
                                 atomic_load(&r->greq->state) == OM_GREQ_DONE);
        return rc == MPI_SUCCESS ? rc : om_comm_error(MPI_COMM_SELF, rc, "MPI_Cancel",
                                                      "the cancel function failed");
    }
    /* a send cannot be cancelled here: it completes normally, and
     * MPI_Test_cancelled says so (MPI allows either) */
    if (r->kind == OM_REQ_RECV && r->or_)
        ordo_request_cancel(r->or_);
    return MPI_SUCCESS;
}
OM_ALIAS(Cancel)

int PMPI_Test_cancelled(const MPI_Status *status, int *flag)
{
    if (!status || !flag)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Test_cancelled",
                             "a NULL argument");
    *flag = status->MPI_internal[2] != 0;
    return MPI_SUCCESS;
}
OM_ALIAS(Test_cancelled)

int PMPI_Status_set_cancelled(MPI_Status *status, int flag)
{
    if (!status)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Status_set_cancelled",
                             "status is NULL");
    status->MPI_internal[2] = flag != 0;
    return MPI_SUCCESS;
}
OM_ALIAS(Status_set_cancelled)

int PMPI_Status_set_elements_c(MPI_Status *status, MPI_Datatype datatype, MPI_Count count)
{
    struct MPI_ABI_Datatype *t = om_type(datatype);
    if (!t)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_TYPE, "MPI_Status_set_elements",
                             "not a datatype");
    if (!status || count < 0)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Status_set_elements",
                             "a NULL status or a negative count");
    /* mixed types: whole elements (a part of one has no byte count here) */
    size_t bytes = t->basic_count ? (size_t)count * (t->size / t->basic_count)
                   : t->nelems   ? (size_t)count / t->nelems * t->size
                                 : 0;
    status->MPI_internal[0] = (int)(uint32_t)(uint64_t)bytes;
    status->MPI_internal[1] = (int)(uint32_t)((uint64_t)bytes >> 32);
    return MPI_SUCCESS;
}
OM_ALIAS(Status_set_elements_c)

int PMPI_Status_set_elements(MPI_Status *status, MPI_Datatype datatype, int count)
{
    return PMPI_Status_set_elements_c(status, datatype, count);
}
OM_ALIAS(Status_set_elements)

int PMPI_Status_set_source(MPI_Status *status, int source)
{
    if (!status)
        return MPI_ERR_ARG;
    status->MPI_SOURCE = source;
    return MPI_SUCCESS;
}
OM_ALIAS(Status_set_source)

int PMPI_Status_set_tag(MPI_Status *status, int tag)
{
    if (!status)
        return MPI_ERR_ARG;
    status->MPI_TAG = tag;
    return MPI_SUCCESS;
}
OM_ALIAS(Status_set_tag)

int PMPI_Status_set_error(MPI_Status *status, int error)
{
    if (!status)
        return MPI_ERR_ARG;
    status->MPI_ERROR = error;
    return MPI_SUCCESS;
}
OM_ALIAS(Status_set_error)

int PMPI_Status_get_source(const MPI_Status *status, int *source)
{
    if (!status || !source)
        return MPI_ERR_ARG;
    *source = status->MPI_SOURCE;
    return MPI_SUCCESS;
}
OM_ALIAS(Status_get_source)

int PMPI_Status_get_tag(const MPI_Status *status, int *tag)
{
    if (!status || !tag)
        return MPI_ERR_ARG;
    *tag = status->MPI_TAG;
    return MPI_SUCCESS;
}
OM_ALIAS(Status_get_tag)

int PMPI_Status_get_error(const MPI_Status *status, int *error)
{
    if (!status || !error)
        return MPI_ERR_ARG;
    *error = status->MPI_ERROR;
    return MPI_SUCCESS;
}
OM_ALIAS(Status_get_error)

/* ----------------------------------------------------------- persistent */

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
    struct MPI_ABI_Request *r = request ? req_of(*request) : NULL;
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
        struct MPI_ABI_Request *r = req_of(array_of_requests[i]);
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
