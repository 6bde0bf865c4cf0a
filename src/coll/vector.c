/* Scatter and the vector collectives (gatherv, scatterv, allgatherv,
 * alltoallv): their schedules and public calls.  Rooted ones are linear
 * (the root posts every member's transfer at once, which the transports
 * overlap); allgatherv goes around the ring and alltoallv pairwise, as
 * their fixed-size counterparts do. */
#include <stdint.h>
#include <string.h>

#include "coll.h"
#include "../base/log.h"

#define R(op, k) ((op)->c->members[(k)])

/* ------------------------------------------------------------ checking */

/* n blocks of lens[j] bytes at buf + displs[j]: the arrays are there and
 * every block fits in memory. */
static int blocks_ok(const char *call, const void *buf, const size_t *lens,
                     const size_t *displs, int n)
{
    if (lens == NULL || displs == NULL) {
        ordo_error("%s: lens and displs are needed here", call);
        return 0;
    }
    for (int j = 0; j < n; j++) {
        if (lens[j] == 0)
            continue;
        if (buf == NULL || lens[j] > SIZE_MAX - displs[j] ||
            !ordo_span_ok(buf, 1, displs[j] + lens[j])) {
            ordo_error("%s: block %d (%zu bytes at offset %zu) does not fit in memory%s", call,
                       j, lens[j], displs[j], buf == NULL ? " (the buffer is NULL)" : "");
            return 0;
        }
    }
    return 1;
}

/* This member's own block: len bytes, and what the arrays say of it. */
static int own_block_ok(const char *call, size_t len, size_t slot)
{
    if (len == slot)
        return 1;
    ordo_error("%s: this member passes %zu bytes, its slot in the arrays has %zu", call, len,
               slot);
    return 0;
}

/* ------------------------------------------------------------ schedules */

/* Block at off of buf, len bytes: an empty block may sit in no buffer at all. */
static inline char *blk(const void *buf, size_t off, size_t len)
{
    return len ? (char *)buf + off : (char *)buf;
}

static void build_scatter(coll_op_t *op, const char *sbuf, const size_t *lens,
                          const size_t *displs, size_t len, char *rbuf, int root)
{
    int n = op->c->nmembers, i = op->c->my_index;
    if (R(op, i) == root) {
        coll_copy(op, rbuf, blk(sbuf, displs[i], lens[i]), lens[i]);
        coll_end_round(op);
        for (int j = 0; j < n; j++)
            if (j != i)
                coll_send(op, R(op, j), blk(sbuf, displs[j], lens[j]), lens[j], 0);
    } else {
        coll_recv(op, root, rbuf, len, 0);
    }
    coll_end_round(op);
}

static void build_gatherv(coll_op_t *op, const char *sbuf, size_t len, char *rbuf,
                          const size_t *lens, const size_t *displs, int root)
{
    int n = op->c->nmembers, i = op->c->my_index;
    if (R(op, i) == root) {
        coll_copy(op, blk(rbuf, displs[i], len), sbuf, len);
        coll_end_round(op);
        for (int j = 0; j < n; j++)
            if (j != i)
                coll_recv(op, R(op, j), blk(rbuf, displs[j], lens[j]), lens[j], 0);
    } else {
        coll_send(op, root, sbuf, len, 0);
    }
    coll_end_round(op);
}

static void build_allgatherv(coll_op_t *op, const char *sbuf, size_t len, char *rbuf,
                             const size_t *lens, const size_t *displs)
{
    int n = op->c->nmembers, i = op->c->my_index;
    coll_copy(op, blk(rbuf, displs[i], len), sbuf, len);
    coll_end_round(op);
    int right = R(op, (i + 1) % n), left = R(op, (i - 1 + n) % n);
    for (int s = 0; s < n - 1; s++) {
        int out = (i - s + n) % n, in = (i - s - 1 + n) % n;
        coll_send(op, right, blk(rbuf, displs[out], lens[out]), lens[out], s);
        coll_recv(op, left, blk(rbuf, displs[in], lens[in]), lens[in], s);
        coll_end_round(op);
    }
}

static void build_alltoallv(coll_op_t *op, const char *sbuf, const size_t *slens,
                            const size_t *sdispls, char *rbuf, const size_t *rlens,
                            const size_t *rdispls)
{
    int n = op->c->nmembers, i = op->c->my_index;
    coll_copy(op, blk(rbuf, rdispls[i], rlens[i]), blk(sbuf, sdispls[i], slens[i]), slens[i]);
    coll_end_round(op);
    for (int s = 1; s < n; s++) {
        int to = (i + s) % n, from = (i - s + n) % n;
        coll_send(op, R(op, to), blk(sbuf, sdispls[to], slens[to]), slens[to], s);
        coll_recv(op, R(op, from), blk(rbuf, rdispls[from], rlens[from]), rlens[from], s);
        coll_end_round(op);
    }
}

/* ---------------------------------------------------------- public calls */

/* The uniform blocks of scatter as arrays (in the op's temporary). */
static int uniform_blocks(coll_op_t *op, size_t len, size_t **lens_p, size_t **displs_p)
{
    size_t n = (size_t)op->c->nmembers;
    size_t *a = coll_tmp(op, 2 * n * sizeof(size_t));
    if (a == NULL)
        return 0;
    for (size_t j = 0; j < n; j++)
        a[j] = len, a[n + j] = j * len;
    *lens_p = a;
    *displs_p = a + n;
    return 1;
}

ORDO_API ordo_status_t ordo_coll_scatter_nb(ordo_comm_h comm, const void *sbuf, size_t len,
                                            void *rbuf, int root, ordo_request_h *req_p)
{
    ORDO_API_ENTER();
    coll_op_t *op;
    ordo_status_t st = coll_begin(comm, req_p, &op);
    if (st != ORDO_OK)
        return st;
    if ((st = coll_check_root(op, root)) != ORDO_OK)
        return coll_reject(op, st);
    int at_root = R(op, op->c->my_index) == root;
    if (!coll_buffer_ok("ordo_coll_scatter", rbuf, 1, len) ||
        (at_root && !coll_buffer_ok("ordo_coll_scatter", sbuf, (size_t)op->c->nmembers, len)))
        return coll_reject(op, ORDO_ERR_INVALID_PARAM);
    size_t *lens = NULL, *displs = NULL;
    if (at_root && !uniform_blocks(op, len, &lens, &displs))
        return coll_reject(op, ORDO_ERR_NO_MEMORY);
    build_scatter(op, sbuf, lens, displs, len, rbuf, root);
    return coll_start(op, req_p);
}

ORDO_API ordo_status_t ordo_coll_scatter(ordo_comm_h comm, const void *sbuf, size_t len,
                                         void *rbuf, int root)
{
    ORDO_API_ENTER();
    ordo_request_h r = NULL;
    ordo_status_t st = ordo_coll_scatter_nb(comm, sbuf, len, rbuf, root, &r);
    return coll_wait_for(st, r);
}

ORDO_API ordo_status_t ordo_coll_scatterv_nb(ordo_comm_h comm, const void *sbuf,
                                             const size_t *lens, const size_t *displs,
                                             void *rbuf, size_t len, int root,
                                             ordo_request_h *req_p)
{
    ORDO_API_ENTER();
    coll_op_t *op;
    ordo_status_t st = coll_begin(comm, req_p, &op);
    if (st != ORDO_OK)
        return st;
    if ((st = coll_check_root(op, root)) != ORDO_OK)
        return coll_reject(op, st);
    int i = op->c->my_index, at_root = R(op, i) == root;
    if (!coll_buffer_ok("ordo_coll_scatterv", rbuf, 1, len) ||
        (at_root && (!blocks_ok("ordo_coll_scatterv", sbuf, lens, displs, op->c->nmembers) ||
                     !own_block_ok("ordo_coll_scatterv", len, lens[i]))))
        return coll_reject(op, ORDO_ERR_INVALID_PARAM);
    build_scatter(op, sbuf, lens, displs, len, rbuf, root);
    return coll_start(op, req_p);
}

ORDO_API ordo_status_t ordo_coll_scatterv(ordo_comm_h comm, const void *sbuf, const size_t *lens,
                                          const size_t *displs, void *rbuf, size_t len,
                                          int root)
{
    ORDO_API_ENTER();
    ordo_request_h r = NULL;
    ordo_status_t st = ordo_coll_scatterv_nb(comm, sbuf, lens, displs, rbuf, len, root, &r);
    return coll_wait_for(st, r);
}

ORDO_API ordo_status_t ordo_coll_gatherv_nb(ordo_comm_h comm, const void *sbuf, size_t len,
                                            void *rbuf, const size_t *lens,
                                            const size_t *displs, int root,
                                            ordo_request_h *req_p)
{
    ORDO_API_ENTER();
    coll_op_t *op;
    ordo_status_t st = coll_begin(comm, req_p, &op);
    if (st != ORDO_OK)
        return st;
    if ((st = coll_check_root(op, root)) != ORDO_OK)
        return coll_reject(op, st);
    int i = op->c->my_index, at_root = R(op, i) == root;
    if (!coll_buffer_ok("ordo_coll_gatherv", sbuf, 1, len) ||
        (at_root && (!blocks_ok("ordo_coll_gatherv", rbuf, lens, displs, op->c->nmembers) ||
                     !own_block_ok("ordo_coll_gatherv", len, lens[i]))))
        return coll_reject(op, ORDO_ERR_INVALID_PARAM);
    build_gatherv(op, sbuf, len, rbuf, lens, displs, root);
    return coll_start(op, req_p);
}

ORDO_API ordo_status_t ordo_coll_gatherv(ordo_comm_h comm, const void *sbuf, size_t len,
                                         void *rbuf, const size_t *lens, const size_t *displs,
                                         int root)
{
    ORDO_API_ENTER();
    ordo_request_h r = NULL;
    ordo_status_t st = ordo_coll_gatherv_nb(comm, sbuf, len, rbuf, lens, displs, root, &r);
    return coll_wait_for(st, r);
}

ORDO_API ordo_status_t ordo_coll_allgatherv_nb(ordo_comm_h comm, const void *sbuf, size_t len,
                                               void *rbuf, const size_t *lens,
                                               const size_t *displs, ordo_request_h *req_p)
{
    ORDO_API_ENTER();
    coll_op_t *op;
    ordo_status_t st = coll_begin(comm, req_p, &op);
    if (st != ORDO_OK)
        return st;
    if (!coll_buffer_ok("ordo_coll_allgatherv", sbuf, 1, len) ||
        !blocks_ok("ordo_coll_allgatherv", rbuf, lens, displs, op->c->nmembers) ||
        !own_block_ok("ordo_coll_allgatherv", len, lens[op->c->my_index]))
        return coll_reject(op, ORDO_ERR_INVALID_PARAM);
    build_allgatherv(op, sbuf, len, rbuf, lens, displs);
    return coll_start(op, req_p);
}

ORDO_API ordo_status_t ordo_coll_allgatherv(ordo_comm_h comm, const void *sbuf, size_t len,
                                            void *rbuf, const size_t *lens,
                                            const size_t *displs)
{
    ORDO_API_ENTER();
    ordo_request_h r = NULL;
    ordo_status_t st = ordo_coll_allgatherv_nb(comm, sbuf, len, rbuf, lens, displs, &r);
    return coll_wait_for(st, r);
}

ORDO_API ordo_status_t ordo_coll_alltoallv_nb(ordo_comm_h comm, const void *sbuf,
                                              const size_t *slens, const size_t *sdispls,
                                              void *rbuf, const size_t *rlens,
                                              const size_t *rdispls, ordo_request_h *req_p)
{
    ORDO_API_ENTER();
    coll_op_t *op;
    ordo_status_t st = coll_begin(comm, req_p, &op);
    if (st != ORDO_OK)
        return st;
    int n = op->c->nmembers, i = op->c->my_index;
    if (!blocks_ok("ordo_coll_alltoallv", sbuf, slens, sdispls, n) ||
        !blocks_ok("ordo_coll_alltoallv", rbuf, rlens, rdispls, n) ||
        !own_block_ok("ordo_coll_alltoallv", slens[i], rlens[i]))
        return coll_reject(op, ORDO_ERR_INVALID_PARAM);
    build_alltoallv(op, sbuf, slens, sdispls, rbuf, rlens, rdispls);
    return coll_start(op, req_p);
}

ORDO_API ordo_status_t ordo_coll_alltoallv(ordo_comm_h comm, const void *sbuf,
                                           const size_t *slens, const size_t *sdispls,
                                           void *rbuf, const size_t *rlens,
                                           const size_t *rdispls)
{
    ORDO_API_ENTER();
    ordo_request_h r = NULL;
    ordo_status_t st = ordo_coll_alltoallv_nb(comm, sbuf, slens, sdispls, rbuf, rlens,
                                                rdispls, &r);
    return coll_wait_for(st, r);
}
