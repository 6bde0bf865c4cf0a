/* MPI on ordo: one-sided operations on windows (win.c).
 *
 * Put and get of contiguous data are ordo's non-blocking put / get with
 * implicit completion on the window's relaxed stream: the epoch calls
 * (flush, unlock, fence, complete) complete them.  Other layouts go block
 * by block, through a packed buffer.
 *
 * Accumulates are element-wise atomic, as MPI asks: each element is one
 * ordo remote atomic on the window's accumulate stream.  Integer
 * elements of 4 or 8 bytes with sum, band, bor, bxor or replace are
 * ordo's atomics themselves; every other (type, operation) pair of 1, 2,
 * 4 or 8 bytes is a compare-and-swap loop on the aligned word that holds
 * the element (read, combine here, swap if unchanged), which stays atomic
 * against the native ones.  Elements of other sizes (long double, double
 * complex) are refused with MPI_ERR_UNSUPPORTED_OPERATION. */
#include <stdlib.h>
#include <string.h>

#include "rma_direct.h"

#define rma_error(win, code, func, ...) \
    om_raise(OM_ON_WIN, (void *)(win), code, func, __VA_ARGS__)

/* The target: its world rank and the byte offset (the address, for a
 * dynamic window) of target_disp.  0: go on; 1: MPI_PROC_NULL, nothing to
 * do; else an error class raised. */
static int target_at(struct MPI_ABI_Win *w, MPI_Win win, int rank, MPI_Aint disp, int *world,
                     size_t *off, const char *func)
{
    if (rank == MPI_PROC_NULL)
        return 1;
    if (rank < 0 || rank >= w->group->size)
        return -rma_error(win, MPI_ERR_RANK, func, "target rank %d (of %d)", rank,
                          w->group->size);
    if (disp < 0 && w->flavor != MPI_WIN_FLAVOR_DYNAMIC)
        return -rma_error(win, MPI_ERR_DISP, func, "target_disp %ld (rank %d)", (long)disp,
                          rank);
    *world = w->group->ranks[rank];
    *off = w->flavor == MPI_WIN_FLAVOR_DYNAMIC ? (size_t)disp
                                               : (size_t)disp * (size_t)w->units[rank];
    return 0;
}

static __attribute__((noinline, cold)) int rma_failed(MPI_Win win, ordo_status_t st,
                                                      const char *func)
{
    int cls = st == ORDO_ERR_EPOCH         ? MPI_ERR_RMA_SYNC
              : st == ORDO_ERR_OUT_OF_BOUNDS ? MPI_ERR_RMA_RANGE
                                             : om_class_of(st);
    return om_raise(OM_ON_WIN, (void *)win, cls, func, "%s", ordo_status_string(st));
}

/* Check both sides' (count, type) and that they carry as many bytes. */
static int sides(MPI_Win win, const void *obuf, MPI_Count ocount, MPI_Datatype otype,
                 MPI_Count tcount, MPI_Datatype ttype, struct MPI_ABI_Datatype **ot,
                 struct MPI_ABI_Datatype **tt, size_t *bytes, const char *func)
{
    int rc = om_check_buffer(obuf, ocount, otype, ot);
    if (rc == MPI_SUCCESS)
        rc = om_check_buffer(NULL, tcount, ttype, tt);
    if (rc != MPI_SUCCESS)
        return -rma_error(win, rc, func, "origin count %lld, target count %lld",
                          (long long)ocount, (long long)tcount);
    size_t ob, tb;
    om_type_bytes(*ot, ocount, &ob);
    om_type_bytes(*tt, tcount, &tb);
    if (ob != tb)
        return -rma_error(win, MPI_ERR_TYPE, func,
                          "the origin carries %zu bytes, the target type %zu", ob, tb);
    *bytes = ob;
    return 0;
}

/* Each block of count target elements of t at off: call fn(block offset,
 * length, position in the packed data). */
typedef ordo_status_t (*block_fn)(void *ctx, size_t off, size_t len, size_t pos);

static ordo_status_t each_block(const struct MPI_ABI_Datatype *t, MPI_Count count, size_t off,
                                block_fn fn, void *ctx)
{
    size_t pos = 0;
    for (MPI_Count e = 0; e < count; e++)
        for (int i = 0; i < t->nblocks; i++) {
            size_t at = off + (size_t)(e * t->extent + t->blocks[i].disp);
            ordo_status_t st = fn(ctx, at, t->blocks[i].len, pos);
            if (st != ORDO_OK)
                return st;
            pos += t->blocks[i].len;
        }
    return ORDO_OK;
}

struct xfer {
    struct MPI_ABI_Win *w;
    int world;
    char *buf;
};

static ordo_status_t put_block(void *ctx, size_t off, size_t len, size_t pos)
{
    struct xfer *x = ctx;
    return ordo_put(x->w->data, x->buf + pos, len, x->w->region, x->world, off, 0);
}

static ordo_status_t get_block(void *ctx, size_t off, size_t len, size_t pos)
{
    struct xfer *x = ctx;
    return ordo_get(x->w->data, x->buf + pos, len, x->w->region, x->world, off, 0);
}

/* Put or get; with request: a request that completes locally (the origin
 * buffer may be reused, or holds the data). */
static int xfer(int is_put, void *obuf, MPI_Count ocount, MPI_Datatype otype, int rank,
                MPI_Aint disp, MPI_Count tcount, MPI_Datatype ttype, MPI_Win win,
                MPI_Request *request, const char *func)
{
    OM_WIN_ARG(w, win, func);
    w->through_ordo = 1;
    struct MPI_ABI_Datatype *ot = NULL, *tt = NULL;
    size_t bytes = 0, off = 0;
    int world = 0, rc;
    if ((rc = sides(win, obuf, ocount, otype, tcount, ttype, &ot, &tt, &bytes, func)) != 0)
        return -rc;
    if (request && !(*request = om_req_new(OM_REQ_SEND, w->comm)))
        return rma_error(win, MPI_ERR_NO_MEM, func, "no memory for a request");
    rc = target_at(w, win, rank, disp, &world, &off, func);
    if (rc != 0 || bytes == 0) {
        if (request) {
            if (rc < 0) {
                om_req_free(*request);
                *request = MPI_REQUEST_NULL;
            } else {
                om_status_empty(&(*request)->done_status);
                (*request)->completed = 1;
            }
        }
        return rc < 0 ? -rc : MPI_SUCCESS;
    }
    ordo_status_t st;
    if (ot->contiguous && tt->contiguous) {
        ordo_request_h *orq = request ? &(*request)->or_ : NULL;
        st = is_put ? ordo_put_nb(w->data, obuf, bytes, w->region, world, off, 0, orq)
                    : ordo_get_nb(w->data, obuf, bytes, w->region, world, off, 0, orq);
        if (st == ORDO_INPROGRESS)
            st = ORDO_OK;
    } else {
        /* through a packed buffer, block by block: done when this returns */
        char *tmp = malloc(bytes);
        if (!tmp) {
            if (request)
                om_req_free(*request);
            return rma_error(win, MPI_ERR_NO_MEM, func, "no memory for %zu bytes", bytes);
        }
        struct xfer x = {w, world, tmp};
        if (is_put) {
            om_pack(ot, obuf, ocount, tmp);
            st = each_block(tt, tcount, off, put_block, &x);
        } else {
            st = each_block(tt, tcount, off, get_block, &x);
            if (st == ORDO_OK)
                om_unpack(ot, tmp, bytes, obuf, ocount);
        }
        free(tmp);
    }
    if (request) {
        if (st != ORDO_OK) {
            om_req_free(*request);
            *request = MPI_REQUEST_NULL;
        } else if (!(*request)->or_) {
            om_status_empty(&(*request)->done_status);
            (*request)->completed = 1;
        }
    }
    return st == ORDO_OK ? MPI_SUCCESS : rma_failed(win, st, func);
}

/* The short ways' target: a rank of the window and the byte offset of disp
 * there, no error named (0: the general way, which names it). */
static inline int fast_target(const struct MPI_ABI_Win *w, int rank, MPI_Aint disp,
                              size_t *off)
{
    return rank >= 0 && rank < w->group->size && disp >= 0 &&
           !__builtin_mul_overflow((size_t)disp, (size_t)w->units[rank], off);
}

/* The common case, checked and issued in a few steps: the same contiguous
 * type on both sides, a rank of the window, a displacement inside what
 * memory can address.  1: issued (*rc its outcome); 0: take the general
 * way, which checks everything and names what is wrong. */
static inline int xfer_fast(int is_put, void *obuf, MPI_Count ocount, MPI_Datatype otype,
                            int rank, MPI_Aint disp, MPI_Count tcount, MPI_Datatype ttype,
                            MPI_Win win, const char *func, int *rc)
{
    struct MPI_ABI_Win *w = om_win(win);
    struct MPI_ABI_Datatype *t = otype == ttype ? om_type(otype) : NULL;
    size_t bytes, off;
    if (!om_up() || !w || !t || !t->committed || !t->contiguous || ocount != tcount ||
        om_type_bytes(t, ocount, &bytes) != 0 || bytes == 0 || !fast_target(w, rank, disp, &off))
        return 0;
    char *at;
    if (bytes <= om_g.direct_max && (at = om_direct_at(w, rank, off, bytes)) != NULL) {
        if (is_put)
            memcpy(at, obuf, bytes);
        else
            memcpy(obuf, at, bytes);
        *rc = MPI_SUCCESS;
        return 1;
    }
    w->through_ordo = 1;
    int world = w->group->ranks[rank];
    ordo_status_t st = is_put ? ordo_put_nbi(w->data, obuf, bytes, w->region, world, off, 0)
                              : ordo_get_nb(w->data, obuf, bytes, w->region, world, off, 0, NULL);
    *rc = st == ORDO_OK || st == ORDO_INPROGRESS ? MPI_SUCCESS : rma_failed(win, st, func);
    return 1;
}

/* Put and get, their request forms, and the large-count ones */
/* (the general way apart, so that the common one keeps a small frame) */
#define XFER(NAME, PUT, CT, CONST)                                                         \
    static __attribute__((noinline)) int NAME##_other(                                     \
        CONST void *origin_addr, CT origin_count, MPI_Datatype origin_datatype,            \
        int target_rank, MPI_Aint target_disp, CT target_count,                            \
        MPI_Datatype target_datatype, MPI_Win win)                                         \
    {                                                                                      \
        return xfer(PUT, (void *)origin_addr, origin_count, origin_datatype, target_rank,  \
                    target_disp, target_count, target_datatype, win, NULL, "MPI_" #NAME);  \
    }                                                                                      \
    int PMPI_##NAME(CONST void *origin_addr, CT origin_count, MPI_Datatype origin_datatype, \
                    int target_rank, MPI_Aint target_disp, CT target_count,                \
                    MPI_Datatype target_datatype, MPI_Win win)                             \
    {                                                                                      \
        int rc;                                                                            \
        if (xfer_fast(PUT, (void *)origin_addr, origin_count, origin_datatype, target_rank, \
                      target_disp, target_count, target_datatype, win, "MPI_" #NAME, &rc)) \
            return rc;                                                                     \
        return NAME##_other(origin_addr, origin_count, origin_datatype, target_rank,       \
                            target_disp, target_count, target_datatype, win);              \
    }                                                                                      \
    OM_ALIAS(NAME)

#define RXFER(NAME, PUT, CT, CONST)                                                        \
    int PMPI_##NAME(CONST void *origin_addr, CT origin_count, MPI_Datatype origin_datatype, \
                    int target_rank, MPI_Aint target_disp, CT target_count,                \
                    MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request)       \
    {                                                                                      \
        if (!request)                                                                      \
            return om_raise(OM_ON_WIN, (void *)win, MPI_ERR_ARG, "MPI_" #NAME,             \
                            "request is NULL");                                            \
        return xfer(PUT, (void *)origin_addr, origin_count, origin_datatype, target_rank,  \
                    target_disp, target_count, target_datatype, win, request,              \
                    "MPI_" #NAME);                                                         \
    }                                                                                      \
    OM_ALIAS(NAME)

XFER(Put, 1, int, const)
XFER(Put_c, 1, MPI_Count, const)
XFER(Get, 0, int, )
XFER(Get_c, 0, MPI_Count, )
RXFER(Rput, 1, int, const)
RXFER(Rput_c, 1, MPI_Count, const)
RXFER(Rget, 0, int, )
RXFER(Rget_c, 0, MPI_Count, )

/* ------------------------------------------------------------ accumulate */

/* One element of es bytes at (world, off): combine it with *val by op;
 * the old value into *old when not NULL.  Native atomic where it maps,
 * else a compare-and-swap loop on the aligned word holding it. */
static ordo_status_t acc_one(struct MPI_ABI_Win *w, struct MPI_ABI_Datatype *bt, int world,
                             size_t off, MPI_Op op, const void *val, void *old, int implicit)
{
    size_t es = bt->size;
    int sgn = 0;
    om_integer_type(bt->basic, &sgn);
    if (om_acc_native(bt, op) && off % es == 0) {
        ordo_atomic_type_t at = es == 4 ? (sgn ? ORDO_INT32 : ORDO_UINT32)
                                        : (sgn ? ORDO_INT64 : ORDO_UINT64);
        uint64_t zero = 0, dummy;
        ordo_atomic_op_t ao = op == MPI_SUM    ? ORDO_ATOMIC_ADD
                              : op == MPI_BAND ? ORDO_ATOMIC_AND
                              : op == MPI_BOR  ? ORDO_ATOMIC_OR
                              : op == MPI_BXOR ? ORDO_ATOMIC_XOR
                              : op == MPI_NO_OP ? ORDO_ATOMIC_ADD
                                                : ORDO_ATOMIC_SWAP;
        if (op == MPI_NO_OP) {
            if (!old)
                return ORDO_OK;
            val = &zero;   /* an atomic read: add nothing */
        }
        if (!old && ao == ORDO_ATOMIC_SWAP)
            old = &dummy;
        if (!old && implicit) {
            ordo_status_t st = ordo_atomic_nb(w->acc, ao, at, val, NULL, NULL, w->region,
                                              world, off, 0, NULL);
            return st == ORDO_INPROGRESS ? ORDO_OK : st;
        }
        return ordo_atomic(w->acc, ao, at, val, NULL, old, w->region, world, off, 0);
    }
    if (es != 1 && es != 2 && es != 4 && es != 8)
        return ORDO_ERR_UNSUPPORTED;
    /* the word of 4 or 8 bytes that holds the element */
    size_t ws = es == 8 ? 8 : 4, woff = off - off % ws, shift = off % ws;
    if (shift + es > ws)
        return ORDO_ERR_MISALIGNED;
    ordo_atomic_type_t at = ws == 8 ? ORDO_UINT64 : ORDO_UINT32;
    uint64_t zero = 0, cur = 0, next = 0, seen = 0;
    ordo_status_t st = ordo_atomic(w->acc, ORDO_ATOMIC_ADD, at, &zero, NULL, &cur, w->region,
                                   world, woff, 0);
    for (int tries = 0; st == ORDO_OK; tries++) {
        unsigned char elem[8];
        memcpy(elem, (unsigned char *)&cur + shift, es);
        if (old)
            memcpy(old, elem, es);
        if (op == MPI_NO_OP)
            return ORDO_OK;
        /* MPI_REPLACE and the others: the new element from val */
        om_op_apply(op, bt, val, elem, 1);
        next = cur;
        memcpy((unsigned char *)&next + shift, elem, es);
        if (next == cur)
            return ORDO_OK;
        st = ordo_atomic(w->acc, ORDO_ATOMIC_CSWAP, at, &next, &cur, &seen, w->region, world,
                         woff, 0);
        if (st != ORDO_OK || seen == cur)
            return st;
        cur = seen;   /* another process changed the word: again */
        if (tries > OM_NARROW_TRIES_MAX)
            return ORDO_ERR_BUSY;
    }
    return st;
}

struct acc_ctx {
    struct MPI_ABI_Win *w;
    struct MPI_ABI_Datatype *bt;   /* the basic element type */
    int world;
    MPI_Op op;
    const char *val;               /* packed origin elements */
    char *old;                     /* packed old values, or NULL */
    int implicit;                  /* val stays valid until completion */
};

static ordo_status_t acc_block(void *ctx, size_t off, size_t len, size_t pos)
{
    struct acc_ctx *a = ctx;
    size_t es = a->bt->size;
    for (size_t k = 0; k < len; k += es) {
        ordo_status_t st = acc_one(a->w, a->bt, a->world, off + k, a->op,
                                   a->val ? a->val + pos + k : NULL,
                                   a->old ? a->old + pos + k : NULL, a->implicit);
        if (st != ORDO_OK)
            return st;
    }
    return ORDO_OK;
}

/* The checks of the common case: one predefined element type of 1, 2, 4 or
 * 8 bytes on every side, a valid predefined operation, a rank of the
 * window, an aligned displacement; then om_acc_direct. */
static inline int acc_fast(const void *obuf, MPI_Count ocount, MPI_Datatype otype, void *rbuf,
                           MPI_Count rcount, MPI_Datatype rtype, int rank, MPI_Aint disp,
                           MPI_Count tcount, MPI_Datatype ttype, MPI_Op op, MPI_Win win,
                           int *rc, const char *func)
{
    struct MPI_ABI_Win *w = om_win(win);
    struct MPI_ABI_Datatype *t = om_type(ttype);
    size_t off;
    if (!om_up() || !w || w->through_ordo || !t || !t->predefined || t->basic_count != 1 ||
        (t->size != 1 && t->size != 2 && t->size != 4 && t->size != 8) || tcount < 1 ||
        (rbuf && (rcount != tcount || rtype != ttype)) ||
        (op != MPI_NO_OP && (ocount != tcount || otype != ttype || !obuf)) ||
        (op == MPI_NO_OP && !rbuf) || !fast_target(w, rank, disp, &off) ||
        (off & (t->size - 1)) != 0 || (size_t)tcount > SIZE_MAX / 16)
        return 0;
    if (tcount == 1 && om_acc_native(t, op)) {
        /* one integer, an operation the CPU has (valid for every integer) */
        char *at = om_direct_at(w, rank, off, t->size);
        if (!at)
            return 0;
        const void *in = op == MPI_NO_OP ? NULL : obuf;
        if (t->size == 8)
            OM_ACC_NATIVE(uint64_t, at, in, rbuf, op);
        else
            OM_ACC_NATIVE(uint32_t, at, in, rbuf, op);
        *rc = MPI_SUCCESS;
        return 1;
    }
    if (om_op_is_user(op) || om_op_check(op, t) != MPI_SUCCESS)
        return 0;
    ordo_status_t st;
    if (!om_acc_direct(w, t, tcount, rank, off, op, op == MPI_NO_OP ? NULL : obuf, rbuf, &st))
        return 0;
    *rc = st == ORDO_OK ? MPI_SUCCESS : rma_failed(win, st, func);
    return 1;
}

/* Accumulate, get_accumulate, fetch_and_op in one: origin elements (none
 * for MPI_NO_OP) combined into the target, the old target values into the
 * result buffer when there is one. */
static int accumulate(const void *obuf, MPI_Count ocount, MPI_Datatype otype, void *rbuf,
                      MPI_Count rcount, MPI_Datatype rtype, int rank, MPI_Aint disp,
                      MPI_Count tcount, MPI_Datatype ttype, MPI_Op op, MPI_Win win,
                      MPI_Request *request, const char *func)
{
    OM_WIN_ARG(w, win, func);
    w->through_ordo = 1;
    struct MPI_ABI_Datatype *tt = om_type(ttype), *ot = NULL, *rt = NULL;
    int rc = om_check_buffer(NULL, tcount, ttype, &tt);
    if (rc == MPI_SUCCESS && op != MPI_NO_OP)
        rc = om_check_buffer(obuf, ocount, otype, &ot);
    if (rc == MPI_SUCCESS && rbuf)
        rc = om_check_buffer(rbuf, rcount, rtype, &rt);
    if (rc == MPI_SUCCESS && tcount > 0)
        rc = om_op_check(op, tt);
    else if (rc == MPI_SUCCESS)   /* nothing combined: any predefined operation will do */
        rc = om_op_check(op, om_type(MPI_INT)) == MPI_SUCCESS ||
                     om_op_check(op, om_type(MPI_2INT)) == MPI_SUCCESS
                 ? MPI_SUCCESS : MPI_ERR_OP;
    if (rc == MPI_SUCCESS && om_op_is_user(op))
        rc = MPI_ERR_OP;   /* MPI allows only predefined operations here */
    if (rc == MPI_SUCCESS && tt->basic == MPI_DATATYPE_NULL)
        rc = MPI_ERR_TYPE;   /* one basic type throughout */
    size_t tb = 0, ob = 0, rb = 0;
    if (rc == MPI_SUCCESS) {
        om_type_bytes(tt, tcount, &tb);
        if (ot)
            om_type_bytes(ot, ocount, &ob);
        if (rt)
            om_type_bytes(rt, rcount, &rb);
        if ((ot && (ob != tb || ot->basic != tt->basic)) ||
            (rt && (rb != tb || rt->basic != tt->basic)))
            rc = MPI_ERR_TYPE;
    }
    if (rc != MPI_SUCCESS)
        return rma_error(win, rc, func, "target count %lld, origin count %lld",
                         (long long)tcount, (long long)ocount);
    struct MPI_ABI_Datatype *bt = om_type(tt->basic);
    int world = 0;
    size_t off = 0;
    rc = target_at(w, win, rank, disp, &world, &off, func);
    if (rc < 0)
        return -rc;
    ordo_status_t st = ORDO_OK;
    if (rc == 0 && tb > 0) {
        char *packed = NULL, *old = NULL;
        int direct = ot && ot->contiguous;
        if (ot && !direct && !(packed = malloc(ob)))
            st = ORDO_ERR_NO_MEMORY;
        if (st == ORDO_OK && rt && !(old = malloc(rb)))
            st = ORDO_ERR_NO_MEMORY;
        if (st == ORDO_OK) {
            if (packed)
                om_pack(ot, obuf, ocount, packed);
            struct acc_ctx a = {w, bt, world, op, direct ? obuf : packed, old,
                                direct && !request};
            st = each_block(tt, tcount, off, acc_block, &a);
            if (st == ORDO_OK && old)
                om_unpack(rt, old, rb, rbuf, rcount);
        }
        free(packed);
        free(old);
    }
    if (request) {
        *request = om_req_new(OM_REQ_SEND, w->comm);
        if (*request) {
            om_status_empty(&(*request)->done_status);
            (*request)->completed = 1;
        }
    }
    if (st == ORDO_ERR_UNSUPPORTED)
        return rma_error(win, MPI_ERR_UNSUPPORTED_OPERATION, func,
                         "accumulates on %zu-byte elements are not supported", bt->size);
    return st == ORDO_OK ? MPI_SUCCESS : rma_failed(win, st, func);
}

/* Accumulate and get_accumulate, their request and large-count forms (the
 * forms without a request try acc_fast first: FAST) */
#define ACC(NAME, CT, REQ_PARAM, REQ, FAST)                                                   \
    int PMPI_##NAME(const void *origin_addr, CT origin_count, MPI_Datatype origin_datatype,   \
                    int target_rank, MPI_Aint target_disp, CT target_count,                   \
                    MPI_Datatype target_datatype, MPI_Op op, MPI_Win win REQ_PARAM)           \
    {                                                                                         \
        int rc_;                                                                              \
        if (FAST && acc_fast(origin_addr, origin_count, origin_datatype, NULL, 0,             \
                             MPI_DATATYPE_NULL, target_rank, target_disp, target_count,       \
                             target_datatype, op, win, &rc_, "MPI_" #NAME))                   \
            return rc_;                                                                       \
        return accumulate(origin_addr, origin_count, origin_datatype, NULL, 0,                \
                          MPI_DATATYPE_NULL, target_rank, target_disp, target_count,          \
                          target_datatype, op, win, REQ, "MPI_" #NAME);                       \
    }                                                                                         \
    OM_ALIAS(NAME)

#define GET_ACC(NAME, CT, REQ_PARAM, REQ, FAST)                                               \
    int PMPI_##NAME(const void *origin_addr, CT origin_count, MPI_Datatype origin_datatype,   \
                    void *result_addr, CT result_count, MPI_Datatype result_datatype,         \
                    int target_rank, MPI_Aint target_disp, CT target_count,                   \
                    MPI_Datatype target_datatype, MPI_Op op, MPI_Win win REQ_PARAM)           \
    {                                                                                         \
        int rc_;                                                                              \
        if (FAST && acc_fast(origin_addr, origin_count, origin_datatype, result_addr,         \
                             result_count, result_datatype, target_rank, target_disp,         \
                             target_count, target_datatype, op, win, &rc_, "MPI_" #NAME))     \
            return rc_;                                                                       \
        return accumulate(origin_addr, origin_count, origin_datatype, result_addr,            \
                          result_count, result_datatype, target_rank, target_disp,            \
                          target_count, target_datatype, op, win, REQ, "MPI_" #NAME);         \
    }                                                                                         \
    OM_ALIAS(NAME)

#define COMMA ,
ACC(Accumulate, int, , NULL, 1)
ACC(Accumulate_c, MPI_Count, , NULL, 1)
ACC(Raccumulate, int, COMMA MPI_Request *request, request, 0)
ACC(Raccumulate_c, MPI_Count, COMMA MPI_Request *request, request, 0)
GET_ACC(Get_accumulate, int, , NULL, 1)
GET_ACC(Get_accumulate_c, MPI_Count, , NULL, 1)
GET_ACC(Rget_accumulate, int, COMMA MPI_Request *request, request, 0)
GET_ACC(Rget_accumulate_c, MPI_Count, COMMA MPI_Request *request, request, 0)

int PMPI_Fetch_and_op(const void *origin_addr, void *result_addr, MPI_Datatype datatype,
                      int target_rank, MPI_Aint target_disp, MPI_Op op, MPI_Win win)
{
    int rc;
    if (acc_fast(origin_addr, 1, datatype, result_addr, 1, datatype, target_rank, target_disp,
                 1, datatype, op, win, &rc, "MPI_Fetch_and_op"))
        return rc;
    return accumulate(origin_addr, 1, datatype, result_addr, 1, datatype, target_rank,
                      target_disp, 1, datatype, op, win, NULL, "MPI_Fetch_and_op");
}
OM_ALIAS(Fetch_and_op)

/* Compare-and-swap of one element of 4 or 8 bytes of a predefined type, at
 * a rank reached directly (as om_acc_direct): the CPU's, comparing bits as
 * ordo's does.  1: done; 0: the general way. */
static inline int cas_fast(const void *obuf, const void *cbuf, void *rbuf, MPI_Datatype type,
                           int rank, MPI_Aint disp, MPI_Win win)
{
    struct MPI_ABI_Win *w = om_win(win);
    struct MPI_ABI_Datatype *t = om_type(type);
    size_t off;
    char *at;
    if (!om_up() || !w || w->through_ordo || !t || !t->predefined || t->basic_count != 1 ||
        (t->size != 4 && t->size != 8) || !obuf || !cbuf || !rbuf ||
        !fast_target(w, rank, disp, &off) || (off & (t->size - 1)) != 0 ||
        !(at = om_direct_at(w, rank, off, t->size)))
        return 0;
    if (t->size == 4) {
        uint32_t v, c;
        memcpy(&v, obuf, 4);
        memcpy(&c, cbuf, 4);
        atomic_compare_exchange_strong((_Atomic uint32_t *)(void *)at, &c, v);
        memcpy(rbuf, &c, 4);
    } else {
        uint64_t v, c;
        memcpy(&v, obuf, 8);
        memcpy(&c, cbuf, 8);
        atomic_compare_exchange_strong((_Atomic uint64_t *)(void *)at, &c, v);
        memcpy(rbuf, &c, 8);
    }
    return 1;
}

int PMPI_Compare_and_swap(const void *origin_addr, const void *compare_addr,
                          void *result_addr, MPI_Datatype datatype, int target_rank,
                          MPI_Aint target_disp, MPI_Win win)
{
    const char *func = "MPI_Compare_and_swap";
    if (cas_fast(origin_addr, compare_addr, result_addr, datatype, target_rank, target_disp,
                 win))
        return MPI_SUCCESS;
    OM_WIN_ARG(w, win, func);
    w->through_ordo = 1;
    struct MPI_ABI_Datatype *t = om_type(datatype);
    if (!t || !t->predefined || !origin_addr || !compare_addr || !result_addr)
        return rma_error(win, t ? MPI_ERR_ARG : MPI_ERR_TYPE, func,
                         "a predefined type and three buffers are needed");
    int world = 0;
    size_t off = 0;
    int rc = target_at(w, win, target_rank, target_disp, &world, &off, func);
    if (rc != 0)
        return rc < 0 ? -rc : MPI_SUCCESS;
    size_t es = t->size;
    if (es != 1 && es != 2 && es != 4 && es != 8)
        return rma_error(win, MPI_ERR_TYPE, func, "%zu-byte elements", es);
    size_t ws = es == 8 ? 8 : 4, woff = off - off % ws, shift = off % ws;
    ordo_atomic_type_t at = ws == 8 ? ORDO_UINT64 : ORDO_UINT32;
    ordo_status_t st;
    if (es == ws && shift == 0) {
        st = ordo_atomic(w->acc, ORDO_ATOMIC_CSWAP, at, origin_addr, compare_addr, result_addr,
                         w->region, world, off, 0);
    } else if (shift + es > ws) {
        st = ORDO_ERR_MISALIGNED;
    } else {
        /* a narrow element: swap its word when the element compares equal */
        uint64_t zero = 0, cur = 0, next, seen = 0;
        st = ordo_atomic(w->acc, ORDO_ATOMIC_ADD, at, &zero, NULL, &cur, w->region, world,
                         woff, 0);
        for (int tries = 0; st == ORDO_OK; tries++) {
            if (tries > OM_NARROW_TRIES_MAX) {
                st = ORDO_ERR_BUSY;
                break;
            }
            memcpy(result_addr, (char *)&cur + shift, es);
            if (memcmp(result_addr, compare_addr, es) != 0)
                break;
            next = cur;
            memcpy((char *)&next + shift, origin_addr, es);
            st = ordo_atomic(w->acc, ORDO_ATOMIC_CSWAP, at, &next, &cur, &seen, w->region,
                             world, woff, 0);
            if (seen == cur)
                break;
            cur = seen;
        }
    }
    return st == ORDO_OK ? MPI_SUCCESS : rma_failed(win, st, func);
}
OM_ALIAS(Compare_and_swap)
