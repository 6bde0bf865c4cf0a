/* MPI on ordo: requests the program freed while their operation was
 * still going (MPI_Request_free).  MPI lets it go on; waiting for it there
 * could hang a correct program (a rendezvous send freed before its sender
 * receives what its receiver sends first).  Such records wait in a list;
 * every completion call (wait, test and their forms) and each
 * Request_free releases those that finished, and MPI_Finalize finishes
 * the rest first.  A freed receive of non-contiguous data is unpacked into
 * the program's buffer when one of those calls finds it finished. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#include "mpi_internal.h"

static struct MPI_ABI_Request *detached;   /* linked by next_free */
_Atomic int om_detached_count;                   /* read unlocked: 0 most of the time */
static pthread_mutex_t detached_lock = PTHREAD_MUTEX_INITIALIZER;

static void detach(struct MPI_ABI_Request *r)
{
    pthread_mutex_lock(&detached_lock);
    r->next_free = detached;
    detached = r;
    atomic_fetch_add_explicit(&om_detached_count, 1, memory_order_relaxed);
    pthread_mutex_unlock(&detached_lock);
}

/* Release the freed requests that finished; 1 while some have not.  The
 * list is taken whole and what is left put back, so that a completion
 * that calls back into MPI (a finish function) finds it empty, not
 * locked. */
static int release_finished(void)
{
    pthread_mutex_lock(&detached_lock);
    struct MPI_ABI_Request *mine = detached;
    detached = NULL;
    pthread_mutex_unlock(&detached_lock);
    struct MPI_ABI_Request *left = NULL, *last = NULL;
    while (mine) {
        struct MPI_ABI_Request *r = mine;
        mine = r->next_free;
        if (om_req_complete(r, 0, NULL) == 0 || (r->persistent && r->active)) {
            r->next_free = left;
            left = r;
            if (!last)
                last = r;
            continue;
        }
        atomic_fetch_sub_explicit(&om_detached_count, 1, memory_order_relaxed);
        om_req_free(r);
    }
    if (!left)
        return 0;
    pthread_mutex_lock(&detached_lock);
    last->next_free = detached;
    detached = left;
    pthread_mutex_unlock(&detached_lock);
    return 1;
}

void om_detached_release(void)
{
    release_finished();
}

void om_detached_finish(void)
{
    if (atomic_load_explicit(&om_detached_count, memory_order_relaxed) == 0)
        return;
    /* Their peers are on their way into MPI_Finalize too, progressing;
     * what has not finished in 10 s never will (a receive nobody sends
     * to, a send nobody receives: erroneous programs): receives are
     * cancelled, and what is left ends with ordo. */
    double until = ordo_wtime() + 10.0;
    while (release_finished() && ordo_wtime() < until)
        ordo_progress();
    pthread_mutex_lock(&detached_lock);
    int left = 0;
    for (struct MPI_ABI_Request *r = detached; r; r = r->next_free) {
        if (r->kind == OM_REQ_RECV && r->or_)
            ordo_request_cancel(r->or_);
        left++;
    }
    pthread_mutex_unlock(&detached_lock);
    if (left && release_finished())
        fprintf(stderr, "[ordo-mpi rank %d] MPI_Finalize: %d request(s) freed while active "
                "never finished\n", om_g.world_rank, left);
}

int PMPI_Request_free(MPI_Request *request)
{
    if (request && om_req_adopt(request) != MPI_SUCCESS)
        return om_comm_error(MPI_COMM_WORLD, MPI_ERR_NO_MEM, "MPI_Request_free",
                             "no memory for the request");
    struct MPI_ABI_Request *r = request ? om_req_record(*request) : NULL;
    if (!r)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_REQUEST, "MPI_Request_free",
                             "not a request");
    *request = MPI_REQUEST_NULL;
    if (r->greq) {
        /* not yet complete: MPI_Grequest_complete frees it */
        int active = OM_GREQ_ACTIVE;
        if (atomic_compare_exchange_strong(&r->greq->state, &active, OM_GREQ_FREED))
            return MPI_SUCCESS;
    }
    if ((r->or_ && !r->completed) || (r->persistent && r->active)) {
        /* MPI lets the operation go on: it is released once done */
        detach(r);
        om_detached_poll();
        return MPI_SUCCESS;
    }
    om_req_free(r);
    return MPI_SUCCESS;
}
OM_ALIAS(Request_free)
