/* MPI on ordo: direct requests.  A standard send or a receive of
 * contiguous data on MPI_COMM_WORLD needs nothing of ours at completion
 * (no unpacking, world ranks are its ranks, world's error handler reports
 * it), so the program gets ordo's request itself as its handle, tagged in
 * the low bit (mpi_internal.h: om_req_direct).  A window of receives then
 * costs one ordo request each, not an ordo request and a record of ours:
 * the record was most of what MPI added to a receive (message rate
 * 0.55-0.7x ordo's own API with it on a 16-core Xeon, 0.8-0.9x without).
 * The calls that complete requests know direct ones; a call that needs a
 * record makes one (om_req_adopt), the by-value status calls read them
 * with ordo_request_check. */
#include <string.h>

#include "mpi_internal.h"

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
    struct MPI_ABI_Request *r = om_req_new(OM_REQ_RECV, MPI_COMM_WORLD);
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
        return om_comm_error(MPI_COMM_WORLD, om_class_of(st), func, "%s",
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
