/* MPI on ordo: requests and their completion (wait, test and their any /
 * some / all forms, the status calls that release nothing, free, cancel).
 * Direct requests (ordo's own, direct.c) are known to each; status.c has
 * what a status says, start.c the persistent starts. */
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
    return om_req_record(h);
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
        struct MPI_ABI_Comm *c = om_comm_of_request(r->comm);
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
    om_detached_poll();
    if (!request)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Wait", "request is NULL");
    if (om_req_direct(*request))
        return om_direct_complete(request, 1, NULL, status, "MPI_Wait");
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
    om_detached_poll();
    if (!request || !flag)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Test", "a NULL argument");
    if (om_req_direct(*request))
        return om_direct_complete(request, 0, flag, status, "MPI_Test");
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

/* A direct request that wait_together completed, as the caller's loop
 * needs it: nothing (released) when it succeeded and no status is wanted,
 * else a completed record holding its status.  MPI_ERR_NO_MEM when no
 * record could be made (its outcome is then lost). */
static int direct_done(MPI_Request *h, const ordo_completion_t *ci, int release)
{
    if (ci->error == ORDO_OK && release) {
        *h = MPI_REQUEST_NULL;
        return MPI_SUCCESS;
    }
    struct MPI_ABI_Request *q = om_req_new(OM_REQ_RECV, om_direct_comm(*h));
    *h = q ? q : MPI_REQUEST_NULL;
    if (!q)
        return MPI_ERR_NO_MEM;
    om_direct_status(&q->done_status, ci->error, ci);
    q->completed = 1;
    return MPI_SUCCESS;
}

/* How many requests one ordo_request_waitall takes (arrays on the stack) */
enum { WAIT_CHUNK = 64 };

/* A chunk ordo refused whole (ORDO_ERR_INVALID_HANDLE): the index in reqs
 * of its direct handle that is not ordo's (ours are), or -1. */
static int refused_at(int n, ordo_request_h h[], const int at[], MPI_Request reqs[])
{
    for (int k = 0; k < n; k++) {
        int done = 0;
        if (om_req_direct(reqs[at[k]]) &&
            ordo_request_check(h[k], &done, NULL) == ORDO_ERR_INVALID_HANDLE)
            return at[k];
    }
    return -1;
}

/* Wait for the plain (not persistent, not sendrecv) ordo requests among
 * reqs, direct ones included, in one ordo_request_waitall, chunk by
 * chunk, so that one progress pass serves them all (a wait per request
 * would run a pass for each); their outcomes go into their statuses, and
 * the caller's loop then finds them complete.  With release (no statuses
 * wanted), one that succeeded is released at once and its handle nulled:
 * the caller's loop passes it by.  MPI_SUCCESS, MPI_ERR_REQUEST with
 * *bad_p its index when a direct handle is not ordo's (nothing of its
 * chunk was waited for), or MPI_ERR_NO_MEM. */
static int wait_together(int count, MPI_Request reqs[], int release, int *bad_p)
{
    enum { CHUNK = WAIT_CHUNK };
    ordo_request_h h[CHUNK];
    ordo_completion_t ci[CHUNK];
    int at[CHUNK];
    int n = 0, rc = MPI_SUCCESS;
    for (int i = 0; i <= count; i++) {
        MPI_Request r = i < count ? reqs[i] : NULL;   /* checked by the caller */
        if (r && om_req_direct(r)) {
            at[n] = i;
            h[n++] = om_direct_ordo(r);
        } else if (r && r != MPI_REQUEST_NULL && !r->completed && r->or_ && !r->or2 &&
                   !r->persistent) {
            at[n] = i;
            h[n++] = r->or_;
        }
        if (n == CHUNK || (i == count && n > 0)) {
            if (ordo_request_waitall((size_t)n, h, ci) == ORDO_ERR_INVALID_HANDLE &&
                h[0] != NULL) {
                *bad_p = refused_at(n, h, at, reqs);
                return MPI_ERR_REQUEST;
            }
            for (int k = 0; k < n; k++) {
                MPI_Request *slot = &reqs[at[k]];
                if (om_req_direct(*slot)) {
                    if (direct_done(slot, &ci[k], release) != MPI_SUCCESS)
                        rc = MPI_ERR_NO_MEM;
                    continue;
                }
                struct MPI_ABI_Request *q = *slot;
                q->or_ = NULL;
                if (finish_ordo(q, ci[k].error, &ci[k]) == MPI_SUCCESS && release) {
                    om_req_free(q);
                    *slot = MPI_REQUEST_NULL;
                }
            }
            n = 0;
        }
    }
    return rc;
}

/* MPI_Waitall with no statuses over direct requests only (and null or
 * finished sends): the message-rate case, a window of receives or sends.
 * Nothing of ours to finish, so ordo waits for them chunk by chunk with
 * no completion records asked for (its first error is all a status-less
 * wait can report: MPI_ERR_IN_STATUS, as the general path gives), and
 * every handle becomes MPI_REQUEST_NULL; *comm_p the communicator of a
 * failed chunk's first.  MPI_ERR_REQUEST with *bad_p when a handle is
 * not ordo's (its chunk was not waited for).  -1, with
 * nothing done, when a handle is anything else: up to WAIT_CHUNK handles
 * are checked here as they are gathered, more by the caller first. */
static int wait_direct(int count, MPI_Request reqs[], int *bad_p, MPI_Comm *comm_p)
{
    ordo_request_h h[WAIT_CHUNK];
    int at[WAIT_CHUNK];
    int n = 0, failed = 0, from = 0;   /* reqs[from..i] not yet nulled */
    for (int i = 0; i <= count; i++) {
        MPI_Request r = i < count ? reqs[i] : MPI_REQUEST_NULL;
        if (om_req_direct(r)) {
            at[n] = i;
            h[n++] = om_direct_ordo(r);
        } else if (r != MPI_REQUEST_NULL && r != &om_send_done) {
            return -1;   /* in the first chunk: nothing was waited for yet */
        }
        if (n == WAIT_CHUNK || (i == count && n > 0)) {
            ordo_status_t st = ordo_request_waitall((size_t)n, h, NULL);
            if (st == ORDO_ERR_INVALID_HANDLE && h[0] != NULL) {
                *bad_p = refused_at(n, h, at, reqs);
                return MPI_ERR_REQUEST;
            }
            if (st != ORDO_OK && !failed)   /* reported where the chunk's first was made */
                *comm_p = om_direct_comm(reqs[at[0]]);
            failed |= st != ORDO_OK;
            n = 0;
            for (; from <= i && from < count; from++)   /* null and om_send_done too */
                reqs[from] = MPI_REQUEST_NULL;
        }
    }
    for (; from < count; from++)   /* a last stretch with nothing to wait for */
        reqs[from] = MPI_REQUEST_NULL;
    return failed ? MPI_ERR_IN_STATUS : MPI_SUCCESS;
}

/* Whether every handle is null, direct or a request of ours (*records_p
 * 1 when one is ours); MPI_ERR_REQUEST raised naming the first that is
 * not. */
static int check_handles(int count, MPI_Request reqs[], int *records_p, const char *func)
{
    for (int i = 0; i < count; i++) {
        MPI_Request r = reqs[i];
        if (r == MPI_REQUEST_NULL || om_req_direct(r) || r == &om_send_done)
            continue;
        if (!req_of(r))
            return om_comm_error(MPI_COMM_SELF, MPI_ERR_REQUEST, func,
                                 "requests[%d] is not a request", i);
        *records_p = 1;
    }
    return MPI_SUCCESS;
}

/* Multiple completion: an error sets MPI_ERR_IN_STATUS, each status
 * saying its own (MPI_SUCCESS or the class; MPI_ERR_PENDING for those not
 * completed by waitall). */
static int all_of(int count, MPI_Request reqs[], MPI_Status statuses[], int wait, int *flag,
                  const char *func)
{
    om_detached_poll();
    if (count < 0 || (count > 0 && !reqs))
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, func, "count %d or requests NULL",
                             count);
    /* Every handle is checked before anything is waited for: up to a
     * chunk by wait_direct as it gathers them (the message-rate path
     * reads each once), more here first, as a wait_direct that finds a
     * request of ours midway could not go back on its waits. */
    int records = 0;   /* requests of ours (not null, direct or om_send_done) */
    if (count > WAIT_CHUNK && check_handles(count, reqs, &records, func) != MPI_SUCCESS)
        return MPI_ERR_REQUEST;
    if (wait && !records && statuses == MPI_STATUSES_IGNORE) {
        int bad = -1;
        MPI_Comm comm = MPI_COMM_WORLD;
        int rc = wait_direct(count, reqs, &bad, &comm);
        if (rc == MPI_ERR_REQUEST)
            return om_comm_error(MPI_COMM_SELF, MPI_ERR_REQUEST, func,
                                 "requests[%d] is not a request", bad);
        if (rc > 0)
            return om_comm_error(comm, rc, func, "an operation failed");
        if (rc == MPI_SUCCESS)
            return MPI_SUCCESS;
    }
    if (count <= WAIT_CHUNK && check_handles(count, reqs, &records, func) != MPI_SUCCESS)
        return MPI_ERR_REQUEST;
    if (!wait && om_req_adopt_all(count, reqs, func) != MPI_SUCCESS)
        return MPI_ERR_NO_MEM;
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
        int bad = -1;
        int rc = wait_together(count, reqs, statuses == MPI_STATUSES_IGNORE, &bad);
        if (rc == MPI_ERR_REQUEST)
            return om_comm_error(MPI_COMM_SELF, MPI_ERR_REQUEST, func,
                                 "requests[%d] is not a request", bad);
        if (rc != MPI_SUCCESS)
            return om_comm_error(MPI_COMM_WORLD, rc, func, "no memory for a status");
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
    om_detached_poll();
    if (count < 0 || (count > 0 && !reqs) || !index)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, func, "count %d or a NULL array",
                             count);
    if (om_req_adopt_all(count, reqs, func) != MPI_SUCCESS)
        return MPI_ERR_NO_MEM;
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
    om_detached_poll();
    if (incount < 0 || (incount > 0 && (!reqs || !indices)) || !outcount)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, func, "incount %d or a NULL array",
                             incount);
    if (om_req_adopt_all(incount, reqs, func) != MPI_SUCCESS)
        return MPI_ERR_NO_MEM;
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
    if (om_req_direct(request))
        return om_direct_peek(request, flag, status, "MPI_Request_get_status");
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
        if (om_req_direct(h)) {
            int done = 0, rc = om_direct_peek(h, &done, status, "MPI_Request_get_status_any");
            if (rc != MPI_SUCCESS)
                return rc;
            any = 1;
            if (done) {
                *index = i;
                *flag = 1;
                return MPI_SUCCESS;
            }
            continue;
        }
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
        if (om_req_direct(h)) {
            MPI_Status one;
            int done = 0, rc = om_direct_peek(h, &done, &one, "MPI_Request_get_status_some");
            if (rc != MPI_SUCCESS)
                return rc;
            any = 1;
            if (done) {
                if (array_of_statuses != MPI_STATUSES_IGNORE)
                    array_of_statuses[n] = one;
                array_of_indices[n++] = i;
            }
            continue;
        }
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
        int done = 1;
        if (om_req_direct(h)) {
            int rc = om_direct_peek(h, &done, NULL, "MPI_Request_get_status_all");
            if (rc != MPI_SUCCESS)
                return rc;
        } else if (h != MPI_REQUEST_NULL && active(h)) {
            done = advance(h, 0);
        }
        if (!done) {
            *flag = 0;
            ordo_progress();
            return MPI_SUCCESS;
        }
    }
    *flag = 1;
    for (int i = 0; array_of_statuses != MPI_STATUSES_IGNORE && i < count; i++) {
        MPI_Request h = array_of_requests[i];
        int done = 0;
        if (om_req_direct(h))   /* done, as the loop above found */
            om_direct_peek(h, &done, &array_of_statuses[i], "MPI_Request_get_status_all");
        else if (h == MPI_REQUEST_NULL || !active(h))
            om_status_empty(&array_of_statuses[i]);
        else
            array_of_statuses[i] = h->done_status;
    }
    return MPI_SUCCESS;
}
OM_ALIAS(Request_get_status_all)


int PMPI_Cancel(MPI_Request *request)
{
    if (request && om_req_direct(*request))
        return om_direct_cancel(*request);
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
