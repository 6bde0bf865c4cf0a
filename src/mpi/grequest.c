/* MPI on ordo: generalized requests.  The program completes them
 * (MPI_Grequest_complete, from any thread); Wait and Test report them
 * complete once it has, with the status its query function fills; its
 * free function runs when the request goes (at once, or when it completes
 * if freed before), its cancel function on MPI_Cancel. */
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "mpi_internal.h"

int PMPI_Grequest_start(MPI_Grequest_query_function *query_fn,
                        MPI_Grequest_free_function *free_fn,
                        MPI_Grequest_cancel_function *cancel_fn, void *extra_state,
                        MPI_Request *request)
{
    const char *func = "MPI_Grequest_start";
    if (!om_ready(func))
        return MPI_ERR_OTHER;
    if (!query_fn || !free_fn || !cancel_fn || !request)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, func,
                             "a function or the request is NULL");
    struct om_greq *g = malloc(sizeof(*g));
    struct MPI_ABI_Request *r = g ? om_req_new(OM_REQ_DONE, MPI_COMM_SELF) : NULL;
    if (!r) {
        free(g);
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_NO_MEM, func, "no memory for a request");
    }
    g->query = query_fn;
    g->free_fn = free_fn;
    g->cancel = cancel_fn;
    g->extra = extra_state;
    atomic_init(&g->state, OM_GREQ_ACTIVE);
    r->greq = g;
    *request = r;
    return MPI_SUCCESS;
}
OM_ALIAS(Grequest_start)

int PMPI_Grequest_complete(MPI_Request request)
{
    struct MPI_ABI_Request *r = om_req_record(request);
    if (!r || !r->greq)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_REQUEST, "MPI_Grequest_complete",
                             "not a generalized request");
    if (atomic_exchange(&r->greq->state, OM_GREQ_DONE) == OM_GREQ_FREED)
        om_req_free(r);   /* freed before: it goes now */
    return MPI_SUCCESS;
}
OM_ALIAS(Grequest_complete)

int om_greq_advance(struct MPI_ABI_Request *r, int wait)
{
    struct om_greq *g = r->greq;
    while (atomic_load(&g->state) != OM_GREQ_DONE) {
        if (!wait)
            return 0;
        /* another thread, or a callback of ordo's progress, completes it */
        ordo_progress();
        sched_yield();
    }
    om_status_empty(&r->done_status);
    r->done_status.MPI_ERROR = MPI_SUCCESS;
    int rc = g->query(g->extra, &r->done_status);
    if (rc != MPI_SUCCESS)
        r->done_status.MPI_ERROR = rc;
    r->completed = 1;
    return 1;
}

int om_greq_release(struct MPI_ABI_Request *r)
{
    struct om_greq *g = r->greq;
    r->greq = NULL;
    int rc = g->free_fn(g->extra);
    free(g);
    return rc;
}
