/* MPI on ordo: collectives on intercommunicators (intercomm.c makes them).
 *
 * Each is one round of messages between the two groups on the
 * intercommunicator's collectives context, then work done here: every
 * process sends straight to the remote processes that need its data and
 * receives straight from those whose data it needs, so no step waits for
 * another and the immediate forms need no schedule.  The round's tag is
 * the collective's sequence number on the communicator: rounds in flight
 * at once (immediate forms) keep apart, and each pair's messages match in
 * the order they were sent.  A reduction combines the remote group's
 * contributions here, in remote rank order (right for operations that do
 * not commute).  The all-to-all shapes (barrier, allgather, allreduce,
 * reduce_scatter) send local x remote messages, as many as the data needs
 * for the exchanges but more than leader-based schemes for the small ones:
 * fine for the groups intercommunicators usually join. */
#include <stdlib.h>
#include <string.h>

#include "coll_job.h"

/* A block received packed, unpacked into the program's buffer at the end. */
typedef struct unpack {
    void   *tmp;
    size_t  len;
    void   *ubuf;
    MPI_Count count;
    struct MPI_ABI_Datatype *t;   /* held */
} unpack_t;

typedef struct round {
    struct MPI_ABI_Comm *c;
    int              tag;
    size_t           n, cap;
    ordo_request_h  *reqs;
    ordo_status_t    st;          /* the first failure, posting or completing */
    int              nun, capun;
    unpack_t        *un;
    int              nown, capown;
    void           **own;         /* packed copies, freed at the end */
    job_t           *j;           /* a reduction's combining, or NULL */
} round_t;

static round_t *round_new(struct MPI_ABI_Comm *c)
{
    round_t *r = calloc(1, sizeof(*r));
    if (r) {
        r->c = c;
        r->tag = (int)(c->coll_seq % ((uint32_t)ORDO_TAG_MAX + 1u));
    }
    c->coll_seq++;   /* every member counts every call alike, failed or not */
    return r;
}

static void round_free(round_t *r)
{
    for (int i = 0; i < r->nun; i++)
        om_type_release(r->un[i].t);
    for (int i = 0; i < r->nown; i++)
        free(r->own[i]);
    free(r->un);
    free(r->own);
    free(r->reqs);
    om_job_free(r->j);
    free(r);
}

static int grow(void **arr, int *cap, int need, size_t elem)
{
    if (need <= *cap)
        return 1;
    int nc = *cap ? *cap * 2 : 8;
    while (nc < need)
        nc *= 2;
    void *p = realloc(*arr, elem * (size_t)nc);
    if (!p)
        return 0;
    *arr = p;
    *cap = nc;
    return 1;
}

/* Memory the round frees at the end (NULL: out of memory, recorded). */
static void *own(round_t *r, size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p || !grow((void **)&r->own, &r->capown, r->nown + 1, sizeof(void *))) {
        free(p);
        r->st = ORDO_ERR_NO_MEMORY;
        return NULL;
    }
    r->own[r->nown++] = p;
    return p;
}

static void post(round_t *r, int send, void *buf, size_t len, int world)
{
    if (r->st != ORDO_OK)
        return;
    int cap = (int)r->cap;
    if (!grow((void **)&r->reqs, &cap, (int)r->n + 1, sizeof(ordo_request_h))) {
        r->st = ORDO_ERR_NO_MEMORY;
        return;
    }
    r->cap = (size_t)cap;
    ordo_request_h q = NULL;
    ordo_status_t st = send ? ordo_send_nb(r->c->coll_oc, buf, len, world, r->tag, &q)
                            : ordo_recv_nb(r->c->coll_oc, buf, len, world, r->tag, &q);
    if (st != ORDO_OK && st != ORDO_INPROGRESS)
        r->st = st;
    else if (q)
        r->reqs[r->n++] = q;
}

/* (buf, count, t) as bytes to send: the buffer itself when contiguous
 * (NULL for no data is fine), else a packed copy the round owns (out of
 * memory: r->st says so, and post() then posts nothing). */
static const void *as_bytes(round_t *r, const void *buf, MPI_Count count,
                            struct MPI_ABI_Datatype *t, size_t *bytes)
{
    om_type_bytes(t, count, bytes);
    if (t->contiguous)
        return buf;
    void *p = own(r, *bytes);
    if (p)
        om_pack(t, buf, count, p);
    return p;
}

static void send_to(round_t *r, const void *buf, MPI_Count count, struct MPI_ABI_Datatype *t,
                    int world)
{
    size_t bytes = 0;
    const void *data = as_bytes(r, buf, count, t, &bytes);
    post(r, 1, (void *)data, bytes, world);   /* nothing if as_bytes failed */
}

static void recv_from(round_t *r, void *buf, MPI_Count count, struct MPI_ABI_Datatype *t,
                      int world)
{
    size_t bytes = 0;
    om_type_bytes(t, count, &bytes);
    if (t->contiguous) {
        post(r, 0, buf, bytes, world);
        return;
    }
    void *tmp = own(r, bytes);
    if (!tmp)
        return;
    if (!grow((void **)&r->un, &r->capun, r->nun + 1, sizeof(unpack_t))) {
        r->st = ORDO_ERR_NO_MEMORY;
        return;
    }
    om_type_retain(t);
    r->un[r->nun++] = (unpack_t){tmp, bytes, buf, count, t};
    post(r, 0, tmp, bytes, world);
}

/* After every message: unpack, combine; the round's outcome as a class. */
static int round_finish(round_t *r)
{
    if (r->st != ORDO_OK)
        return om_class_of(r->st);
    for (int i = 0; i < r->nun; i++)
        om_unpack(r->un[i].t, r->un[i].tmp, r->un[i].len, r->un[i].ubuf, r->un[i].count);
    return r->j ? om_job_finish(r->j) : MPI_SUCCESS;
}

static int round_poll(struct MPI_ABI_Request *req, int wait)
{
    round_t *r = req->poll_arg;
    if (wait) {
        ordo_status_t st = ordo_request_waitall(r->n, r->reqs, NULL);
        if (r->st == ORDO_OK)
            r->st = st;
    } else {
        int left = 0;
        for (size_t i = 0; i < r->n; i++) {
            if (!r->reqs[i])
                continue;
            int done = 0;
            ordo_status_t st = ordo_request_test(&r->reqs[i], &done, NULL);
            if (done && st != ORDO_OK && r->st == ORDO_OK)
                r->st = st;
            left += !done;
        }
        if (left)
            return 0;
    }
    int rc = round_finish(r);
    round_free(r);
    req->poll_arg = NULL;
    return rc == MPI_SUCCESS ? 1 : -rc;
}

/* Run the round to its end (blocking: request NULL) or hand it to a
 * request that completes with its last message. */
static int round_end(round_t *r, MPI_Comm comm, MPI_Request *request, const char *func)
{
    if (r->st != ORDO_OK)   /* a message could not start: its peer's never comes */
        for (size_t i = 0; i < r->n; i++)
            ordo_request_cancel(r->reqs[i]);   /* receives end; sends are not cancelled */
    if (!request) {
        ordo_status_t st = ordo_request_waitall(r->n, r->reqs, NULL);
        if (r->st == ORDO_OK)
            r->st = st;
        int rc = round_finish(r);
        round_free(r);
        return rc == MPI_SUCCESS ? rc : om_comm_error(comm, rc, func, "the collective failed");
    }
    struct MPI_ABI_Request *q = om_req_new(OM_REQ_COLL, comm);
    if (!q) {
        ordo_request_waitall(r->n, r->reqs, NULL);
        round_free(r);
        return om_comm_error(comm, MPI_ERR_NO_MEM, func, "no memory for a request");
    }
    q->poll = round_poll;
    q->poll_arg = r;
    *request = q;
    return MPI_SUCCESS;
}

/* A round, or MPI_ERR_NO_MEM raised (the call's sequence number spent). */
#define ROUND(r, c, comm, func)                                              \
    round_t *r = round_new(c);                                               \
    if (!r)                                                                  \
        return om_comm_error(comm, MPI_ERR_NO_MEM, func, "no memory");

/* ------------------------------------------------------------ the shapes */

/* Where this process stands in a rooted call: the root (MPI_ROOT), out of
 * it (MPI_PROC_NULL: the root's other group members), or in the group
 * across from the root (root names it there). */
enum { AT_ROOT, OUT, ACROSS };

static int role_of(struct MPI_ABI_Comm *c, MPI_Comm comm, int root, int *role,
                   const char *func)
{
    if (root == MPI_ROOT)
        *role = AT_ROOT;
    else if (root == MPI_PROC_NULL)
        *role = OUT;
    else if (root >= 0 && root < c->remote->size)
        *role = ACROSS;
    else
        return om_comm_error(comm, MPI_ERR_ROOT, func,
                             "root %d: on an intercommunicator MPI_ROOT, MPI_PROC_NULL or a "
                             "remote rank (of %d)", root, c->remote->size);
    return MPI_SUCCESS;
}

static int checked(MPI_Comm comm, const void *buf, MPI_Count count, MPI_Datatype type,
                   struct MPI_ABI_Datatype **t, const char *what, const char *func)
{
    if (buf == MPI_IN_PLACE)
        return om_comm_error(comm, MPI_ERR_BUFFER, func,
                             "MPI_IN_PLACE: not on an intercommunicator");
    int rc = om_check_buffer(buf, count, type, t);
    return rc == MPI_SUCCESS ? rc : om_comm_error(comm, rc, func, "the %s count or datatype",
                                                  what);
}

int om_inter_barrier(struct MPI_ABI_Comm *c, MPI_Comm comm, MPI_Request *request,
                     const char *func)
{
    ROUND(r, c, comm, func);
    static char none;   /* zero-byte messages: each side learns the other came */
    for (int i = 0; i < c->remote->size; i++)
        post(r, 0, &none, 0, c->remote->ranks[i]);
    for (int i = 0; i < c->remote->size; i++)
        post(r, 1, &none, 0, c->remote->ranks[i]);
    return round_end(r, comm, request, func);
}

int om_inter_bcast(struct MPI_ABI_Comm *c, MPI_Comm comm, void *buf, MPI_Count count,
                   MPI_Datatype type, int root, MPI_Request *request, const char *func)
{
    int role, rc;
    struct MPI_ABI_Datatype *t = NULL;
    if ((rc = role_of(c, comm, root, &role, func)) ||
        (role != OUT && (rc = checked(comm, buf, count, type, &t, "", func))))
        return rc;
    ROUND(r, c, comm, func);
    if (role == ACROSS) {
        recv_from(r, buf, count, t, c->remote->ranks[root]);
    } else if (role == AT_ROOT) {
        size_t bytes = 0;
        const void *data = as_bytes(r, buf, count, t, &bytes);
        for (int i = 0; i < c->remote->size; i++)
            post(r, 1, (void *)data, bytes, c->remote->ranks[i]);
    }
    return round_end(r, comm, request, func);
}

/* Block i of a side: counts[i] (or count) elements at displs[i] (or
 * i * count) elements from buf. */
static char *block(const void *buf, struct MPI_ABI_Datatype *t, int i, MPI_Count count,
                   const MPI_Aint *displs)
{
    MPI_Aint d = displs ? displs[i] : (MPI_Aint)i * (MPI_Aint)count;
    return (char *)buf + d * t->extent;
}

int om_inter_move(struct MPI_ABI_Comm *c, MPI_Comm comm, enum om_move what,
                  const void *sendbuf, MPI_Count scount, const MPI_Count *scounts,
                  const MPI_Aint *sdispls, MPI_Datatype stype, void *recvbuf,
                  MPI_Count rcount, const MPI_Count *rcounts, const MPI_Aint *rdispls,
                  MPI_Datatype rtype, int root, MPI_Request *request, const char *func)
{
    int m = c->remote->size, role = ACROSS, rc;
    const int *rem = c->remote->ranks;
    if ((what == M_GATHER || what == M_SCATTER) &&
        (rc = role_of(c, comm, root, &role, func)))
        return rc;
    /* which buffers this process uses */
    int sends = role == ACROSS ? what != M_SCATTER : role == AT_ROOT && what == M_SCATTER;
    int recvs = role == ACROSS ? what != M_GATHER : role == AT_ROOT && what == M_GATHER;
    struct MPI_ABI_Datatype *st = NULL, *rt = NULL;
    if ((sends && (rc = checked(comm, sendbuf, scounts ? 0 : scount, stype, &st, "send",
                                func))) ||
        (recvs && (rc = checked(comm, recvbuf, rcounts ? 0 : rcount, rtype, &rt, "receive",
                                func))))
        return rc;
    for (int i = 0; i < m; i++)
        if ((sends && scounts && scounts[i] < 0) || (recvs && rcounts && rcounts[i] < 0))
            return om_comm_error(comm, MPI_ERR_COUNT, func, "a negative count for rank %d",
                                 i);
    ROUND(r, c, comm, func);
    int many_recv = what == M_ALLGATHER || what == M_ALLTOALL || what == M_GATHER;
    if (recvs && many_recv) {
        for (int i = 0; i < m; i++)
            recv_from(r, block(recvbuf, rt, i, rcount, rdispls), rcounts ? rcounts[i] : rcount,
                      rt, rem[i]);
    } else if (recvs) {
        recv_from(r, recvbuf, rcount, rt, rem[root]);
    }
    if (sends && (what == M_ALLTOALL || what == M_SCATTER)) {
        for (int i = 0; i < m; i++)
            send_to(r, block(sendbuf, st, i, scount, sdispls), scounts ? scounts[i] : scount,
                    st, rem[i]);
    } else if (sends && what == M_ALLGATHER) {
        size_t bytes = 0;
        const void *data = as_bytes(r, sendbuf, scount, st, &bytes);
        for (int i = 0; i < m; i++)
            post(r, 1, (void *)data, bytes, rem[i]);
    } else if (sends) {
        send_to(r, sendbuf, scount, st, rem[root]);
    }
    return round_end(r, comm, request, func);
}

int om_inter_alltoallw(struct MPI_ABI_Comm *c, MPI_Comm comm, const void *sendbuf,
                       const MPI_Count *scounts, const MPI_Aint *sdispls,
                       const MPI_Datatype *stypes, void *recvbuf, const MPI_Count *rcounts,
                       const MPI_Aint *rdispls, const MPI_Datatype *rtypes,
                       MPI_Request *request, const char *func)
{
    int m = c->remote->size, rc;
    struct MPI_ABI_Datatype *t;
    if (sendbuf == MPI_IN_PLACE)
        return checked(comm, sendbuf, 0, MPI_DATATYPE_NULL, &t, "send", func);
    for (int i = 0; i < m; i++)
        if ((rc = checked(comm, sendbuf, scounts[i], stypes[i], &t, "send", func)) ||
            (rc = checked(comm, recvbuf, rcounts[i], rtypes[i], &t, "receive", func)))
            return rc;
    ROUND(r, c, comm, func);
    for (int i = 0; i < m; i++)
        recv_from(r, (char *)recvbuf + rdispls[i], rcounts[i], om_type(rtypes[i]),
                  c->remote->ranks[i]);
    for (int i = 0; i < m; i++)
        send_to(r, (const char *)sendbuf + sdispls[i], scounts[i], om_type(stypes[i]),
                c->remote->ranks[i]);
    return round_end(r, comm, request, func);
}

/* Reductions: the remote group's contributions land one after another in
 * the job's buffer, packed, and the job combines them in remote rank
 * order.  reduce_scatter_block sends each remote process its own segment;
 * reduce_scatter, whose split the sender does not know (each group gives
 * its own counts), sends the whole vector and the receiver keeps its
 * segment. */
int om_inter_reduce(struct MPI_ABI_Comm *c, MPI_Comm comm, const void *sendbuf,
                    void *recvbuf, MPI_Count count, const MPI_Count *counts,
                    MPI_Datatype type, MPI_Op op, int root, int mode, MPI_Request *request,
                    const char *func)
{
    int m = c->remote->size, n = c->group->size, me = c->group->rank, role = ACROSS, rc;
    const int *rem = c->remote->ranks;
    if (mode == R_SCAN || mode == R_EXSCAN)
        return om_comm_error(comm, MPI_ERR_COMM, func,
                             "an intercommunicator: MPI defines no scan on one");
    if (mode == R_ROOT && (rc = role_of(c, comm, root, &role, func)))
        return rc;
    /* how many elements each contributes (total) and this process keeps */
    MPI_Count total = count, keep = count, seg_first = 0;
    if (mode == R_SEGMENT && counts) {
        total = 0;
        for (int i = 0; i < n; i++) {
            if (counts[i] < 0)
                return om_comm_error(comm, MPI_ERR_COUNT, func, "recvcounts[%d] = %lld", i,
                                     (long long)counts[i]);
            if (i == me)
                seg_first = total;
            total += counts[i];
        }
        keep = counts[me];
    } else if (mode == R_SEGMENT) {
        total = count * n;   /* the same on both sides, split over the remote group */
        if (total % m)
            return om_comm_error(comm, MPI_ERR_COUNT, func,
                                 "recvcount %lld x %d local processes does not split over "
                                 "%d remote ones", (long long)count, n, m);
    }
    int sends = role == ACROSS, recvs = mode == R_ROOT ? role == AT_ROOT : 1;
    struct MPI_ABI_Datatype *t = NULL;
    if ((sends && (rc = checked(comm, sendbuf, total, type, &t, "send", func))) ||
        (recvs && (rc = checked(comm, recvbuf, mode == R_SEGMENT ? keep : total, type, &t,
                                "receive", func))))
        return rc;
    if (t && (rc = om_op_check(op, t)) != MPI_SUCCESS)
        return om_comm_error(comm, rc, func, "the op with this datatype");
    ROUND(r, c, comm, func);
    if (recvs) {
        /* the contributions received: each `each` elements, whole vectors
         * (reduce_scatter) or this process's segment alone (block) */
        MPI_Count each = mode == R_SEGMENT && !counts ? keep : total;
        size_t bytes = 0;
        om_type_bytes(t, each, &bytes);
        job_t *j = om_job_new(0);
        char *tmp = j ? malloc(bytes * (size_t)m + 1) : NULL;
        if (!tmp) {
            om_job_free(j);
            r->st = ORDO_ERR_NO_MEMORY;
        } else {
            r->j = j;
            j->tmp = tmp;
            om_job_reduce(j, mode == R_SEGMENT && counts ? R_SEGMENT : R_ALL, op, t, each, m,
                          0, recvbuf, seg_first, keep);
            for (int i = 0; i < m; i++)
                post(r, 0, tmp + (size_t)i * bytes, bytes, rem[i]);
        }
    }
    if (sends && mode == R_SEGMENT && !counts) {
        MPI_Count part = total / m;
        for (int i = 0; i < m; i++)
            send_to(r, (const char *)sendbuf + (MPI_Aint)i * part * t->extent, part, t,
                    rem[i]);
    } else if (sends) {
        size_t bytes = 0;
        const void *data = as_bytes(r, sendbuf, total, t, &bytes);
        int first = mode == R_ROOT ? root : 0, last = mode == R_ROOT ? root : m - 1;
        for (int i = first; i <= last; i++)
            post(r, 1, (void *)data, bytes, rem[i]);
    }
    return round_end(r, comm, request, func);
}
