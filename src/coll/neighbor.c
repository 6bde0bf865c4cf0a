/* The neighbourhood exchange (MPI's neighbourhood collectives): each
 * member sends its blocks to the members it names and receives from the
 * ones it names, all in one round, so every transfer overlaps the others.
 * A collective call like the others (every member makes it, in the same
 * order; failures are agreed), with each member's own neighbours. */
#include <stdint.h>
#include <string.h>

#include "coll.h"
#include "../base/log.h"

/* n blocks: peers[k] a member of op's context, lens[k] bytes at
 * buf + displs[k] in memory, tags[k] (if given) 0 .. 63. */
static int side_ok(coll_op_t *op, const char *what, const void *buf, int n, const int *peers,
                   const size_t *lens, const size_t *displs, const int *tags)
{
    const char *call = "ordo_coll_neighbor_alltoallv";
    if (n < 0 || (n > 0 && (peers == NULL || lens == NULL || displs == NULL))) {
        ordo_error("%s: %d %s blocks, or their peers, lens or displs NULL", call, n, what);
        return 0;
    }
    for (int k = 0; k < n; k++) {
        int p = peers[k];
        if (p < 0 || p >= ordo_ctx->size || op->c->index_of[p] < 0) {
            ordo_error("%s: %s block %d names rank %d, not a member of the context", call,
                       what, k, p);
            return 0;
        }
        if (tags != NULL && (tags[k] < 0 || tags[k] > 63)) {
            ordo_error("%s: %s block %d has tag %d (0 .. 63)", call, what, k, tags[k]);
            return 0;
        }
        if (lens[k] != 0 && (buf == NULL || lens[k] > SIZE_MAX - displs[k] ||
                             !ordo_span_ok(buf, 1, displs[k] + lens[k]))) {
            ordo_error("%s: %s block %d (%zu bytes at offset %zu) does not fit in memory%s",
                       call, what, k, lens[k], displs[k],
                       buf == NULL ? " (the buffer is NULL)" : "");
            return 0;
        }
    }
    return 1;
}

ORDO_API ordo_status_t ordo_coll_neighbor_alltoallv_nb(
    ordo_comm_h comm, const void *sbuf, int nout, const int *dests, const size_t *slens,
    const size_t *sdispls, const int *stags, void *rbuf, int nin, const int *srcs,
    const size_t *rlens, const size_t *rdispls, const int *rtags, ordo_request_h *req_p)
{
    ORDO_API_ENTER();
    coll_op_t *op;
    ordo_status_t st = coll_begin(comm, req_p, &op);
    if (st != ORDO_OK)
        return st;
    if (!side_ok(op, "send", sbuf, nout, dests, slens, sdispls, stags) ||
        !side_ok(op, "receive", rbuf, nin, srcs, rlens, rdispls, rtags))
        return coll_reject(op, ORDO_ERR_INVALID_PARAM);
    /* receives first: a block to oneself finds its receive posted */
    for (int k = 0; k < nin; k++)
        coll_recv(op, srcs[k], rlens[k] ? (char *)rbuf + rdispls[k] : rbuf, rlens[k],
                  rtags ? rtags[k] : 0);
    for (int k = 0; k < nout; k++)
        coll_send(op, dests[k], slens[k] ? (const char *)sbuf + sdispls[k] : sbuf, slens[k],
                  stags ? stags[k] : 0);
    coll_end_round(op);
    return coll_start(op, req_p);
}

ORDO_API ordo_status_t ordo_coll_neighbor_alltoallv(
    ordo_comm_h comm, const void *sbuf, int nout, const int *dests, const size_t *slens,
    const size_t *sdispls, const int *stags, void *rbuf, int nin, const int *srcs,
    const size_t *rlens, const size_t *rdispls, const int *rtags)
{
    ORDO_API_ENTER();
    ordo_request_h r = NULL;
    ordo_status_t st = ordo_coll_neighbor_alltoallv_nb(comm, sbuf, nout, dests, slens, sdispls,
                                                       stags, rbuf, nin, srcs, rlens, rdispls,
                                                       rtags, &r);
    return coll_wait_for(st, r);
}
