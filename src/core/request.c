/* Completing requests of every kind for the program. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

static ordo_status_t check_request(ordo_request_h *req)
{
    if (req == NULL)
        return ORDO_ERR_INVALID_PARAM;
    if (*req && ((*req)->magic != ORDO_MAGIC_REQUEST || !(*req)->user_held))
        return ORDO_ERR_INVALID_HANDLE;
    return ORDO_OK;
}

static const ordo_completion_t empty_info = {.source = -1, .tag = -1};

/* A handle with nothing to complete: none, or a persistent request not
 * started since its last completion (wait and test return at once for it,
 * waitall / waitany / testsome pass over it, as MPI's inactive requests). */
static inline int is_idle(const struct ordo_request *op)
{
    return op == NULL || (op->persistent && op->inner == NULL && !op->done_at_start);
}

/* Hand a completed request's result to the program and release it; a
 * persistent request hands its transfer's and stays. */
static ordo_status_t finish(ordo_request_h *req, ordo_completion_t *info_p)
{
    struct ordo_request *op = *req;
    if (op->persistent) {
        if (op->inner) {
            struct ordo_request *in = op->inner;
            op->inner = NULL;
            return finish(&in, info_p);
        }
        if (op->done_at_start) {
            op->done_at_start = 0;
            if (info_p) {
                *info_p = op->info;
                info_p->error = op->status;
            }
            return op->status;
        }
        if (info_p)
            *info_p = empty_info;
        return ORDO_OK;
    }
    ordo_status_t st = op->status;
    if (info_p) {
        *info_p = op->info;
        info_p->error = st;
    }
    op->user_held = 0;
    if (op->release)
        op->release(op);
    else
        ordo_op_release(op);
    *req = NULL;
    return st;
}

static inline int is_done(const struct ordo_request *op)
{
    if (op != NULL && op->persistent)
        return op->inner == NULL || op->inner->state == ORDO_OP_DONE;
    return op == NULL || op->state == ORDO_OP_DONE;
}

ORDO_API ordo_status_t ordo_request_test(ordo_request_h *req, int *done_p,
                                         ordo_completion_t *info_p)
{
    ORDO_CHECK_INIT();
    ordo_status_t st = check_request(req);
    if (st != ORDO_OK || done_p == NULL)
        return st != ORDO_OK ? st : ORDO_ERR_INVALID_PARAM;
    if (*req == NULL) {
        *done_p = 1;
        if (info_p)
            *info_p = empty_info;
        return ORDO_OK;
    }
    if (!is_done(*req))
        ordo_progress_once();
    if (!is_done(*req)) {
        *done_p = 0;
        return ORDO_OK;
    }
    *done_p = 1;
    return finish(req, info_p);
}

ORDO_API ordo_status_t ordo_request_check(ordo_request_h req, int *done_p,
                                          ordo_completion_t *info_p)
{
    ORDO_CHECK_INIT();
    ordo_status_t st = check_request(&req);
    if (st != ORDO_OK || done_p == NULL)
        return st != ORDO_OK ? st : ORDO_ERR_INVALID_PARAM;
    if (is_idle(req)) {
        *done_p = 1;
        if (info_p)
            *info_p = empty_info;
        return ORDO_OK;
    }
    if (!is_done(req))
        ordo_progress_once();
    if (!is_done(req)) {
        *done_p = 0;
        return ORDO_OK;
    }
    *done_p = 1;
    /* what finish would hand over: a started persistent request's transfer */
    const struct ordo_request *op = req->persistent && req->inner ? req->inner : req;
    if (info_p) {
        *info_p = op->info;
        info_p->error = op->status;
    }
    return op->status;
}

ORDO_API ordo_status_t ordo_request_wait(ordo_request_h *req, ordo_completion_t *info_p)
{
    ORDO_CHECK_INIT();
    return ordo_request_wait_inner(req, info_p);
}

/* ordo_request_wait for the blocking calls built on it: the call waiting
 * keeps its own name (ordorun --timeout reports it). */
ordo_status_t ordo_request_wait_inner(ordo_request_h *req, ordo_completion_t *info_p)
{
    if (ORDO_UNLIKELY(ordo_ctx == NULL))
        return ORDO_ERR_NOT_INITIALIZED;
    ordo_status_t st = check_request(req);
    if (st != ORDO_OK)
        return st;
    if (*req == NULL) {
        if (info_p)
            *info_p = empty_info;
        return ORDO_OK;
    }
    unsigned idle = 0;
    while (!is_done(*req))
        ordo_progress_wait(&idle);
    return finish(req, info_p);
}

static ordo_status_t check_all(size_t n, ordo_request_h *reqs)
{
    if (n && reqs == NULL)
        return ORDO_ERR_INVALID_PARAM;
    for (size_t i = 0; i < n; i++)
        if (check_request(&reqs[i]) != ORDO_OK)
            return ORDO_ERR_INVALID_HANDLE;   /* nothing waited for, nothing released */
    return ORDO_OK;
}

ORDO_API ordo_status_t ordo_request_waitall(size_t n, ordo_request_h *reqs,
                                            ordo_completion_t *infos)
{
    ORDO_CHECK_INIT();
    ordo_status_t first = check_all(n, reqs);
    if (first != ORDO_OK)
        return first;
    if (infos)
        for (size_t i = 0; i < n; i++)
            if (is_idle(reqs[i]))
                infos[i] = empty_info;
    /* finished here: a persistent handle stays, so the array cannot tell */
    unsigned char small[64], *done = n <= sizeof(small) ? small : calloc(n, 1);
    if (done == NULL)
        return ORDO_ERR_NO_MEMORY;
    for (size_t i = 0; i < n; i++)
        done[i] = (unsigned char)is_idle(reqs[i]);
    /* Complete them in whatever order they finish, not in array order, so
     * one slow request does not hold back the release of the others. */
    size_t left = n;
    unsigned idle = 0;
    while (left) {
        left = 0;
        for (size_t i = 0; i < n; i++) {
            if (done[i])
                continue;
            if (!is_done(reqs[i])) {
                left++;
                continue;
            }
            done[i] = 1;
            ordo_status_t st = finish(&reqs[i], infos ? &infos[i] : NULL);
            if (first == ORDO_OK && st != ORDO_OK)
                first = st;
        }
        if (left)
            ordo_progress_wait(&idle);
    }
    if (done != small)
        free(done);
    return first;
}

ORDO_API ordo_status_t ordo_request_waitany(size_t n, ordo_request_h *reqs, size_t *index_p,
                                            ordo_completion_t *info_p)
{
    ORDO_CHECK_INIT();
    ordo_status_t st = check_all(n, reqs);
    if (st != ORDO_OK || index_p == NULL)
        return st != ORDO_OK ? st : ORDO_ERR_INVALID_PARAM;
    unsigned idle = 0;
    for (;;) {
        int any = 0;
        for (size_t i = 0; i < n; i++) {
            if (is_idle(reqs[i]))
                continue;
            any = 1;
            if (is_done(reqs[i])) {
                *index_p = i;
                return finish(&reqs[i], info_p);
            }
        }
        if (!any) {
            *index_p = ORDO_INDEX_NONE;
            if (info_p)
                *info_p = empty_info;
            return ORDO_OK;
        }
        ordo_progress_wait(&idle);
    }
}

ORDO_API ordo_status_t ordo_request_testsome(size_t n, ordo_request_h *reqs, size_t *count_p,
                                             size_t *indices, ordo_completion_t *infos)
{
    ORDO_CHECK_INIT();
    ordo_status_t first = check_all(n, reqs);
    if (first != ORDO_OK || count_p == NULL || (n && indices == NULL))
        return first != ORDO_OK ? first : ORDO_ERR_INVALID_PARAM;
    ordo_progress_once();
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (is_idle(reqs[i]) || !is_done(reqs[i]))
            continue;
        ordo_status_t st = finish(&reqs[i], infos ? &infos[k] : NULL);
        indices[k++] = i;
        if (first == ORDO_OK && st != ORDO_OK)
            first = st;
    }
    *count_p = k;
    return first;
}

ORDO_API ordo_status_t ordo_request_cancel(ordo_request_h req)
{
    ORDO_CHECK_INIT();
    if (req == NULL)
        return ORDO_ERR_INVALID_PARAM;
    if (req->magic != ORDO_MAGIC_REQUEST || !req->user_held)
        return ORDO_ERR_INVALID_HANDLE;
    if (req->persistent) {
        if (req->inner == NULL)
            return ORDO_OK;   /* nothing started: nothing to cancel */
        req = req->inner;
    }
    if (req->cancel == NULL)
        return ORDO_ERR_UNSUPPORTED;
    return req->cancel(req);
}
