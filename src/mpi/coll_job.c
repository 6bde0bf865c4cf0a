/* MPI on ordo: the completion half of collectives (coll_job.h). */
#include <stdlib.h>
#include <string.h>

#include "coll_job.h"

void om_job_free(job_t *j)
{
    if (!j)
        return;
    free(j->tmp);
    free(j->stmp);
    free(j->tdispl);
    free(j->tlen);
    free(j->udispl);
    free(j->ucount);
    for (int i = 0; i < 4; i++)
        free(j->keep[i]);
    if (j->ut)
        om_type_release(j->ut);
    if (j->uts) {
        for (int i = 0; i < j->n; i++)
            if (j->uts[i])
                om_type_release(j->uts[i]);
        free(j->uts);
    }
    if (j->rt)
        om_type_release(j->rt);
    if (j->op)
        om_op_release(j->op);
    free(j);
}

job_t *om_job_new(int n)
{
    job_t *j = calloc(1, sizeof(*j));
    if (!j)
        return NULL;
    if (n > 0) {
        j->tdispl = calloc((size_t)n, sizeof(size_t));
        j->tlen = calloc((size_t)n, sizeof(size_t));
        j->udispl = calloc((size_t)n, sizeof(MPI_Aint));
        j->ucount = calloc((size_t)n, sizeof(MPI_Count));
        if (!j->tdispl || !j->tlen || !j->udispl || !j->ucount) {
            om_job_free(j);
            return NULL;
        }
    }
    return j;
}

/* Apply the reduction to n packed contributions of `bytes` each at all:
 * the result, packed, into out (bytes). */
static int combine(job_t *j, const char *all, size_t bytes, int first, int last, void *out)
{
    struct MPI_ABI_Datatype *t = j->rt;
    if (first > last)
        return MPI_SUCCESS;
    if (!om_op_is_user(j->op)) {
        memcpy(out, all + (size_t)last * bytes, bytes);
        for (int i = last - 1; i >= first; i--)
            om_op_apply(j->op, t, all + (size_t)i * bytes, out, j->rcount);
        return MPI_SUCCESS;
    }
    /* user operations see the type's own layout */
    size_t span = (size_t)(t->true_extent + (j->rcount > 0 ? j->rcount - 1 : 0) * t->extent);
    char *acc = malloc(span ? span : 1), *in = malloc(span ? span : 1);
    if (!acc || !in) {
        free(acc);
        free(in);
        return MPI_ERR_NO_MEM;
    }
    char *acc_base = acc - t->true_lb, *in_base = in - t->true_lb;
    om_unpack(t, all + (size_t)last * bytes, bytes, acc_base, j->rcount);
    for (int i = last - 1; i >= first; i--) {
        om_unpack(t, all + (size_t)i * bytes, bytes, in_base, j->rcount);
        om_op_apply(j->op, t, in_base, acc_base, j->rcount);
    }
    om_pack(t, acc_base, j->rcount, out);
    free(acc);
    free(in);
    return MPI_SUCCESS;
}

void om_job_reduce(job_t *j, int mode, MPI_Op op, struct MPI_ABI_Datatype *t, MPI_Count count,
                   int members, int me, void *rbuf, MPI_Count seg_first, MPI_Count seg_count)
{
    j->rmode = mode;
    j->op = op;
    om_op_retain(op);
    j->rt = t;
    om_type_retain(t);
    j->rcount = count;
    j->members = members;
    j->me = me;
    j->rbuf = rbuf;
    j->seg_first = seg_first;
    j->seg_count = seg_count;
}

int om_job_finish(job_t *j)
{
    int rc = MPI_SUCCESS;
    if (j->rmode != R_NONE) {
        size_t bytes = (size_t)j->rcount * j->rt->size;
        void *res = malloc(bytes ? bytes : 1);
        if (!res)
            return MPI_ERR_NO_MEM;
        int last = j->members - 1, write = 1;
        switch (j->rmode) {
        case R_SCAN:   last = j->me; break;
        case R_EXSCAN: last = j->me - 1; write = j->me > 0; break;
        default: break;
        }
        if (write) {
            rc = combine(j, j->tmp, bytes, 0, last, res);
            if (rc == MPI_SUCCESS) {
                if (j->rmode == R_SEGMENT) {
                    size_t each = j->rt->size;
                    om_unpack(j->rt, (char *)res + (size_t)j->seg_first * each,
                              (size_t)j->seg_count * each, j->rbuf, j->seg_count);
                } else {
                    om_unpack(j->rt, res, bytes, j->rbuf, j->rcount);
                }
            }
        }
        free(res);
    }
    for (int i = 0; i < j->n; i++)
        om_unpack(j->uts ? j->uts[i] : j->ut, (char *)j->tmp + j->tdispl[i], j->tlen[i],
                  j->ubuf + j->udispl[i], j->ucount[i]);
    return rc;
}

static int req_finish(struct MPI_ABI_Request *r)
{
    job_t *j = r->fctx;
    int rc = j ? om_job_finish(j) : MPI_SUCCESS;
    om_job_free(j);
    r->fctx = NULL;
    r->finish = NULL;
    return rc;
}

/* Run or start: ordo's call gave st and maybe a request.  Blocking:
 * wait, finish, free.  Non-blocking: a request that finishes on
 * completion. */
int om_coll_conclude(MPI_Comm comm, ordo_status_t st, ordo_request_h oreq, job_t *j,
                    MPI_Request *request, const char *func)
{
    if (st != ORDO_OK && st != ORDO_INPROGRESS) {
        om_job_free(j);
        return om_comm_failed(comm, st, func);
    }
    if (!request) {
        if (st == ORDO_INPROGRESS)
            st = ordo_request_wait(&oreq, NULL);
        int rc = st == ORDO_OK && j ? om_job_finish(j) : om_class_of(st);
        om_job_free(j);
        return rc == MPI_SUCCESS ? rc : om_comm_error(comm, rc, func, "the collective failed");
    }
    struct MPI_ABI_Request *r = om_req_new(OM_REQ_COLL, comm);
    if (!r) {
        if (st == ORDO_INPROGRESS)
            ordo_request_wait(&oreq, NULL);
        om_job_free(j);
        return om_comm_error(comm, MPI_ERR_NO_MEM, func, "no memory for a request");
    }
    r->or_ = st == ORDO_INPROGRESS ? oreq : NULL;
    r->fctx = j;
    r->finish = j ? req_finish : NULL;
    *request = r;
    return MPI_SUCCESS;
}

/* The bytes of (buf, count, type) as ordo moves them: the buffer itself
 * when contiguous, else a packed copy (*copy, to free). */
int om_coll_bytes(MPI_Comm comm, const void *buf, MPI_Count count, MPI_Datatype type,
                    const void **data, size_t *bytes, void **copy,
                    struct MPI_ABI_Datatype **t_p, const char *func)
{
    struct MPI_ABI_Datatype *t;
    int rc = om_check_buffer(buf, count, type, &t);
    if (rc != MPI_SUCCESS)
        return om_comm_error(comm, rc, func, "count %lld with this datatype",
                             (long long)count);
    om_type_bytes(t, count, bytes);
    *copy = NULL;
    if (t_p)
        *t_p = t;
    if (t->contiguous) {
        *data = buf;
        return MPI_SUCCESS;
    }
    *copy = malloc(*bytes ? *bytes : 1);
    if (!*copy)
        return om_comm_error(comm, MPI_ERR_NO_MEM, func, "no memory for %zu bytes", *bytes);
    om_pack(t, buf, count, *copy);
    *data = *copy;
    return MPI_SUCCESS;
}

MPI_Count *om_counts_of(const void *in, int n, int large)
{
    if (!in)
        return NULL;
    MPI_Count *out = malloc(sizeof(MPI_Count) * (size_t)(n ? n : 1));
    for (int i = 0; out && i < n; i++)
        out[i] = large ? ((const MPI_Count *)in)[i] : ((const int *)in)[i];
    return out;
}

MPI_Aint *om_displs_of(const void *in, int n, int large)
{
    if (!in)
        return NULL;
    MPI_Aint *out = malloc(sizeof(MPI_Aint) * (size_t)(n ? n : 1));
    for (int i = 0; out && i < n; i++)
        out[i] = large ? ((const MPI_Aint *)in)[i] : ((const int *)in)[i];
    return out;
}
