/* Reduce-scatter and the prefix reductions (scan, exscan): schedules and
 * public calls.  Reduce-scatter runs around the ring (n-1 steps, each
 * member sending one segment per step, so every byte crosses each link
 * once); scan and exscan by recursive doubling (log2 n steps). */
#include <stdint.h>
#include <string.h>

#include "coll.h"
#include "../base/log.h"

#define R(op, k) ((op)->c->members[(k)])

/* ------------------------------------------------------------ schedules */

/* Around the ring: in step s member i sends its partial reduction of
 * segment i-s-1 to the right and adds the left's of segment i-s-2 into its
 * own, so after n-1 steps it holds the full reduction of segment i.  off[]
 * holds the n+1 segment boundaries in bytes. */
#define COUNT(j) (counts ? counts[j] : block)

static void build_reduce_scatter(coll_op_t *op, const void *sbuf, void *rbuf,
                                 const size_t *counts, size_t block, int dt, int rop)
{
    int n = op->c->nmembers, i = op->c->my_index;
    size_t es = coll_dtype_size(dt), total = 0, most = 0;
    for (int j = 0; j < n; j++) {
        total += COUNT(j) * es;
        most = COUNT(j) * es > most ? COUNT(j) * es : most;
    }
    if (n == 1) {
        coll_copy(op, rbuf, sbuf, total);
        coll_end_round(op);
        return;
    }
    /* one allocation: the boundaries, the accumulator (all of sbuf), one
     * segment arriving */
    size_t head = ((size_t)(n + 1) * sizeof(size_t) + 15) & ~(size_t)15;
    char *mem = coll_tmp(op, head + total + most);
    if (mem == NULL)
        return;
    size_t *off = (size_t *)(void *)mem;
    char *acc = mem + head, *in = acc + total;
    off[0] = 0;
    for (int j = 0; j < n; j++)
        off[j + 1] = off[j] + COUNT(j) * es;
    if (total)
        memcpy(acc, sbuf, total);   /* before anything is sent from it */
    int right = R(op, (i + 1) % n), left = R(op, (i - 1 + n) % n);
    for (int s = 0; s < n - 1; s++) {
        int out = (i - s - 1 + 2 * n) % n, seg = (i - s - 2 + 2 * n) % n;
        coll_send(op, right, acc + off[out], off[out + 1] - off[out], s);
        coll_recv(op, left, in, off[seg + 1] - off[seg], s);
        coll_end_round(op);
        coll_reduce_step(op, acc + off[seg], in, off[seg + 1] - off[seg], dt, rop);
    }
    coll_copy(op, rbuf, acc + off[i], off[i + 1] - off[i]);
    coll_end_round(op);
}
#undef COUNT

/* Recursive doubling with partner i ^ mask: each member keeps the
 * reduction of the members it has heard of so far (partial) and exchanges
 * it; what comes from a lower member belongs to its prefix too.  Every
 * operator here is commutative, so partial may take the new part on
 * either side. */
static void build_scan(coll_op_t *op, const void *sbuf, void *rbuf, size_t bytes, int dt,
                       int rop, int exclusive)
{
    int n = op->c->nmembers, i = op->c->my_index;
    char *partial = coll_tmp(op, 2 * bytes);
    if (partial == NULL)
        return;
    char *in = partial + bytes;
    if (bytes)
        memcpy(partial, sbuf, bytes);   /* before rbuf (maybe sbuf) is written */
    if (!exclusive) {
        coll_copy(op, rbuf, sbuf, bytes);
        coll_end_round(op);
    }
    int have_prefix = !exclusive, step = 0;
    for (int mask = 1; mask < n; mask <<= 1, step++) {
        int partner = i ^ mask;
        if (partner >= n)
            continue;
        coll_send(op, R(op, partner), partial, bytes, step);
        coll_recv(op, R(op, partner), in, bytes, step);
        coll_end_round(op);
        coll_reduce_step(op, partial, in, bytes, dt, rop);
        if (partner < i) {
            if (have_prefix)
                coll_reduce_step(op, rbuf, in, bytes, dt, rop);
            else
                coll_copy(op, rbuf, in, bytes);
            have_prefix = 1;
        }
    }
    coll_end_round(op);
}

/* ---------------------------------------------------------- public calls */

/* The checks every reduction of these makes: operator and type, then the
 * buffers (count elements at sbuf, mine at rbuf). */
static ordo_status_t check_reduction(const char *call, const void *sbuf, size_t count,
                                     void *rbuf, size_t mine, int dt, int rop)
{
    ordo_status_t st = coll_check_reduction(dt, rop);
    if (st != ORDO_OK)
        return st;
    size_t es = coll_dtype_size(dt);
    if (!coll_buffer_ok(call, sbuf, count, es) || !coll_buffer_ok(call, rbuf, mine, es))
        return ORDO_ERR_INVALID_PARAM;
    return ORDO_OK;
}

ORDO_API ordo_status_t ordo_coll_reduce_scatter_nb(ordo_comm_h comm, const void *sbuf,
                                                   void *rbuf, const size_t *counts,
                                                   ordo_dtype_t dtype, ordo_reduce_op_t rop,
                                                   ordo_request_h *req_p)
{
    ORDO_API_ENTER();
    coll_op_t *op;
    ordo_status_t st = coll_begin(comm, req_p, &op);
    if (st != ORDO_OK)
        return st;
    int n = op->c->nmembers;
    if (counts == NULL) {
        ordo_error("ordo_coll_reduce_scatter: counts is NULL");
        return coll_reject(op, ORDO_ERR_INVALID_PARAM);
    }
    size_t total = 0;
    for (int j = 0; j < n; j++) {
        if (counts[j] > SIZE_MAX - total) {
            ordo_error("ordo_coll_reduce_scatter: the counts' sum overflows");
            return coll_reject(op, ORDO_ERR_INVALID_PARAM);
        }
        total += counts[j];
    }
    st = check_reduction("ordo_coll_reduce_scatter", sbuf, total, rbuf,
                         counts[op->c->my_index], dtype, rop);
    if (st != ORDO_OK)
        return coll_reject(op, st);
    build_reduce_scatter(op, sbuf, rbuf, counts, 0, dtype, rop);
    return coll_start(op, req_p);
}

ORDO_API ordo_status_t ordo_coll_reduce_scatter(ordo_comm_h comm, const void *sbuf, void *rbuf,
                                                const size_t *counts, ordo_dtype_t dtype,
                                                ordo_reduce_op_t op)
{
    ORDO_API_ENTER();
    ordo_request_h r = NULL;
    ordo_status_t st = ordo_coll_reduce_scatter_nb(comm, sbuf, rbuf, counts, dtype, op, &r);
    return coll_wait_for(st, r);
}

ORDO_API ordo_status_t ordo_coll_reduce_scatter_block_nb(ordo_comm_h comm, const void *sbuf,
                                                         void *rbuf, size_t count,
                                                         ordo_dtype_t dtype,
                                                         ordo_reduce_op_t rop,
                                                         ordo_request_h *req_p)
{
    ORDO_API_ENTER();
    coll_op_t *op;
    ordo_status_t st = coll_begin(comm, req_p, &op);
    if (st != ORDO_OK)
        return st;
    size_t n = (size_t)op->c->nmembers;
    if (count > SIZE_MAX / n) {
        ordo_error("ordo_coll_reduce_scatter_block: %zu x %zu elements overflow", n, count);
        return coll_reject(op, ORDO_ERR_INVALID_PARAM);
    }
    st = check_reduction("ordo_coll_reduce_scatter_block", sbuf, n * count, rbuf, count,
                         dtype, rop);
    if (st != ORDO_OK)
        return coll_reject(op, st);
    build_reduce_scatter(op, sbuf, rbuf, NULL, count, dtype, rop);
    return coll_start(op, req_p);
}

ORDO_API ordo_status_t ordo_coll_reduce_scatter_block(ordo_comm_h comm, const void *sbuf,
                                                      void *rbuf, size_t count,
                                                      ordo_dtype_t dtype, ordo_reduce_op_t op)
{
    ORDO_API_ENTER();
    ordo_request_h r = NULL;
    ordo_status_t st = ordo_coll_reduce_scatter_block_nb(comm, sbuf, rbuf, count, dtype, op,
                                                           &r);
    return coll_wait_for(st, r);
}

static ordo_status_t scan_nb(const char *call, ordo_comm_h comm, const void *sbuf, void *rbuf,
                             size_t count, ordo_dtype_t dtype, ordo_reduce_op_t rop,
                             int exclusive, ordo_request_h *req_p)
{
    coll_op_t *op;
    ordo_status_t st = coll_begin(comm, req_p, &op);
    if (st != ORDO_OK)
        return st;
    st = check_reduction(call, sbuf, count, rbuf, count, dtype, rop);
    if (st != ORDO_OK)
        return coll_reject(op, st);
    build_scan(op, sbuf, rbuf, count * coll_dtype_size(dtype), dtype, rop, exclusive);
    return coll_start(op, req_p);
}

ORDO_API ordo_status_t ordo_coll_scan_nb(ordo_comm_h comm, const void *sbuf, void *rbuf,
                                         size_t count, ordo_dtype_t dtype, ordo_reduce_op_t op,
                                         ordo_request_h *req_p)
{
    ORDO_API_ENTER();
    return scan_nb("ordo_coll_scan", comm, sbuf, rbuf, count, dtype, op, 0, req_p);
}

ORDO_API ordo_status_t ordo_coll_scan(ordo_comm_h comm, const void *sbuf, void *rbuf,
                                      size_t count, ordo_dtype_t dtype, ordo_reduce_op_t op)
{
    ORDO_API_ENTER();
    ordo_request_h r = NULL;
    ordo_status_t st = ordo_coll_scan_nb(comm, sbuf, rbuf, count, dtype, op, &r);
    return coll_wait_for(st, r);
}

ORDO_API ordo_status_t ordo_coll_exscan_nb(ordo_comm_h comm, const void *sbuf, void *rbuf,
                                           size_t count, ordo_dtype_t dtype,
                                           ordo_reduce_op_t op, ordo_request_h *req_p)
{
    ORDO_API_ENTER();
    return scan_nb("ordo_coll_exscan", comm, sbuf, rbuf, count, dtype, op, 1, req_p);
}

ORDO_API ordo_status_t ordo_coll_exscan(ordo_comm_h comm, const void *sbuf, void *rbuf,
                                        size_t count, ordo_dtype_t dtype, ordo_reduce_op_t op)
{
    ORDO_API_ENTER();
    ordo_request_h r = NULL;
    ordo_status_t st = ordo_coll_exscan_nb(comm, sbuf, rbuf, count, dtype, op, &r);
    return coll_wait_for(st, r);
}
