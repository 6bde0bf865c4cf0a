/* MPI on ordo: direct requests.  A standard send or a receive of
 * contiguous data on MPI_COMM_WORLD, or on a communicator whose ranks are
 * world's, needs nothing of ours at completion (no unpacking, world ranks
 * are its ranks; the communicator's error handler, found by the slot the
 * handle carries, reports it), so the program gets ordo's request itself
 * as its handle, tagged in its low bits (mpi_internal.h: om_req_direct).
 * A window of receives then costs one ordo request each, not an ordo
 * request and a record of ours:
 * the record was most of what MPI added to a receive (message rate
 * 0.55-0.7x ordo's own API with it on a 16-core Xeon, 0.8-0.9x without).
 * The calls that complete requests know direct ones; a call that needs a
 * record makes one (om_req_adopt), the by-value status calls read them
 * with ordo_request_check. */
#include <string.h>

#include "mpi_internal.h"

struct MPI_ABI_Comm *_Atomic om_direct_comms[OM_DIRECT_SLOTS] = {&om_comm_world};
static _Atomic int next_slot = 1;

int om_direct_slot_take(struct MPI_ABI_Comm *c)
{
    int want = -1;
    if (!c->remote && c->identity) {
        int s = atomic_fetch_add_explicit(&next_slot, 1, memory_order_relaxed);
        if (s < OM_DIRECT_SLOTS)
            want = s;
    }
    int none = 0;
    /* two threads' first sends at once: one slot is the communicator's,
     * the other's is never filled */
    if (!atomic_compare_exchange_strong(&c->direct_slot, &none, want))
        return none;
    if (want > 0)
        atomic_store_explicit(&om_direct_comms[want], c, memory_order_release);
    return want;
}

void om_direct_forget(struct MPI_ABI_Comm *c)
{
    int s = atomic_load_explicit(&c->direct_slot, memory_order_relaxed);
    if (s > 0)
        atomic_store_explicit(&om_direct_comms[s], NULL, memory_order_release);
}

void om_direct_status(MPI_Status *st, ordo_status_t rc, const ordo_completion_t *ci)
{
    /* a send's info names no source and no tag (-1): MPI's are ANY_ */
    om_status_set(st, ci->cancelled || ci->source < 0 ? MPI_ANY_SOURCE : ci->source,
                  ci->cancelled || ci->tag < 0 ? MPI_ANY_TAG : ci->tag, om_class_of(rc),
                  ci->cancelled ? 0 : ci->length, ci->cancelled);
}

static void no_info(ordo_completion_t *ci)
{
    memset(ci, 0, sizeof(*ci));
    ci->source = ci->tag = -1;
}

int om_req_adopt(MPI_Request *h)
{
    if (!om_req_direct(*h))
        return MPI_SUCCESS;
    /* a send held as a receive record completes the same: its info is
     * empty, and a cancel of it is refused by ordo (as of any send) */
    struct MPI_ABI_Request *r = om_req_new(OM_REQ_RECV, om_direct_comm(*h));
    if (!r)
        return MPI_ERR_NO_MEM;
    r->or_ = om_direct_ordo(*h);
    *h = r;
    return MPI_SUCCESS;
}

int om_req_adopt_all(int count, MPI_Request reqs[], const char *func)
{
    for (int i = 0; i < count; i++)
        if (om_req_adopt(&reqs[i]) != MPI_SUCCESS)
            return om_comm_error(MPI_COMM_WORLD, MPI_ERR_NO_MEM, func,
                                 "no memory for requests[%d]", i);
    return MPI_SUCCESS;
}

int om_direct_complete(MPI_Request *h, int wait, int *flag, MPI_Status *status,
                       const char *func)
{
    ordo_request_h o = om_direct_ordo(*h);
    MPI_Comm comm = om_direct_comm(*h);
    ordo_completion_t ci;
    no_info(&ci);
    int done = 1;
    ordo_status_t st = wait ? ordo_request_wait(&o, &ci) : ordo_request_test(&o, &done, &ci);
    if (o != NULL && done)   /* refused: not a request of ordo's (a stale handle) */
        return om_comm_error(MPI_COMM_WORLD, MPI_ERR_REQUEST, func, "not a request");
    if (flag)
        *flag = done;
    if (!done)
        return MPI_SUCCESS;
    *h = MPI_REQUEST_NULL;
    if (status)
        om_direct_status(status, st, &ci);
    if (st != ORDO_OK)
        return om_comm_error(comm, om_class_of(st), func, "%s",
                             st == ORDO_ERR_TRUNCATED ? "the message was longer than the "
                                                        "receive buffer"
                                                      : "the receive failed");
    return MPI_SUCCESS;
}

int om_direct_peek(MPI_Request h, int *flag, MPI_Status *status, const char *func)
{
    ordo_completion_t ci;
    no_info(&ci);
    int done = -1;
    ordo_status_t st = ordo_request_check(om_direct_ordo(h), &done, &ci);
    if (done < 0)
        return om_comm_error(MPI_COMM_WORLD, MPI_ERR_REQUEST, func, "not a request");
    *flag = done;
    if (done && status)
        om_direct_status(status, st, &ci);
    return MPI_SUCCESS;
}

int om_direct_cancel(MPI_Request h)
{
    ordo_status_t st = ordo_request_cancel(om_direct_ordo(h));
    if (st == ORDO_ERR_INVALID_HANDLE || st == ORDO_ERR_INVALID_PARAM)
        return om_comm_error(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Cancel", "not a request");
    return MPI_SUCCESS;
}
