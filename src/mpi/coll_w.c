/* MPI on ordo: Alltoallw, the all-to-all whose every block has its own
 * datatype and a displacement in bytes, blocking and non-blocking, with
 * its large-count forms.  It maps onto ordo's byte alltoallv: the send
 * blocks packed one after another (the buffer itself where every block is
 * contiguous), the receive blocks straight into
 * recvbuf where they can be, else into a packed buffer that the job
 * unpacks block by block with each block's own datatype. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "coll_job.h"

/* Block i of a side: counts[i] elements of types[i] at buf + displs[i]
 * bytes.  The arrays are the program's: int, or MPI_Count / MPI_Aint. */
typedef struct wside {
    const void *counts, *displs;
    const MPI_Datatype *types;
    int large;
} wside_t;

static MPI_Count w_count(const wside_t *s, int i)
{
    return s->large ? ((const MPI_Count *)s->counts)[i] : ((const int *)s->counts)[i];
}

static MPI_Aint w_displ(const wside_t *s, int i)
{
    return s->large ? ((const MPI_Aint *)s->displs)[i] : ((const int *)s->displs)[i];
}

/* Check every block's datatype and count; the byte lengths into lens, and
 * whether every block may be moved where it is (contiguous). */
static int w_check(const wside_t *s, const void *buf, int n, struct MPI_ABI_Datatype **t,
                   size_t *lens, int *direct)
{
    *direct = 1;
    for (int i = 0; i < n; i++) {
        MPI_Count ci = w_count(s, i);
        int rc = om_check_buffer(buf, ci, s->types[i], &t[i]);
        if (rc != MPI_SUCCESS)
            return rc;
        om_type_bytes(t[i], ci, &lens[i]);
        if (lens[i] && !t[i]->contiguous)
            *direct = 0;
    }
    return MPI_SUCCESS;
}

/* Where ordo takes a side's offsets from when its blocks move where they
 * are: the lowest block, so no offset is negative (and MPI_BOTTOM, whose
 * displacements are addresses, works); offs[i] from there. */
static char *w_base(const wside_t *s, const void *buf, int n, const size_t *lens, size_t *offs)
{
    MPI_Aint low = 0;
    int any = 0;
    for (int i = 0; i < n; i++)
        if (lens[i] && (!any || w_displ(s, i) < low))
            low = w_displ(s, i), any = 1;
    for (int i = 0; i < n; i++)
        offs[i] = lens[i] ? (size_t)(w_displ(s, i) - low) : 0;
    return (char *)((uintptr_t)buf + (uintptr_t)low);
}

/* On an intercommunicator: the arrays widened, for coll_inter.c. */
static int inter(struct MPI_ABI_Comm *c, MPI_Comm comm, const void *sendbuf, wside_t snd,
                 void *recvbuf, wside_t rcv, MPI_Request *request, const char *func)
{
    int m = c->remote->size, rc;
    if (sendbuf == MPI_IN_PLACE)
        return om_inter_alltoallw(c, comm, sendbuf, NULL, NULL, NULL, recvbuf, NULL, NULL,
                                  NULL, request, func);
    MPI_Count *sc = om_counts_of(snd.counts, m, snd.large);
    MPI_Count *rc_ = om_counts_of(rcv.counts, m, rcv.large);
    MPI_Aint *sd = om_displs_of(snd.displs, m, snd.large);
    MPI_Aint *rd = om_displs_of(rcv.displs, m, rcv.large);
    rc = sc && rc_ && sd && rd
             ? om_inter_alltoallw(c, comm, sendbuf, sc, sd, snd.types, recvbuf, rc_, rd,
                                  rcv.types, request, func)
             : om_comm_error(comm, MPI_ERR_NO_MEM, func, "no memory");
    free(sc); free(rc_); free(sd); free(rd);
    return rc;
}

static int alltoallw(const void *sendbuf, wside_t snd, void *recvbuf, wside_t rcv,
                     MPI_Comm comm, MPI_Request *request, const char *func)
{
    COLL_COMM(c, comm, func);
    int n = c->group->size, rc;
    int in_place = sendbuf == MPI_IN_PLACE;
    if (!rcv.counts || !rcv.displs || !rcv.types ||
        (!in_place && (!snd.counts || !snd.displs || !snd.types)))
        return om_comm_error(comm, MPI_ERR_ARG, func, "a count, displacement or type array "
                             "is NULL");
    if (c->remote)
        return inter(c, comm, sendbuf, snd, recvbuf, rcv, request, func);
    if (in_place)
        snd = rcv;   /* the blocks sent are the ones received, from a copy */
    struct MPI_ABI_Datatype **st = calloc((size_t)n, sizeof(*st)),
                            **rt = calloc((size_t)n, sizeof(*rt));
    size_t *slen = calloc((size_t)n + 1, sizeof(size_t)), *soff = calloc((size_t)n + 1,
                                                                          sizeof(size_t));
    size_t *rlen = calloc((size_t)n + 1, sizeof(size_t)), *roff = calloc((size_t)n + 1,
                                                                          sizeof(size_t));
    job_t *j = om_job_new(n);
    char *spack = NULL;
    rc = st && rt && slen && soff && rlen && roff && j ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    int sdirect = 0, rdirect = 0;
    const void *sbase = in_place ? recvbuf : sendbuf;
    if (rc == MPI_SUCCESS && (rc = w_check(&snd, sbase, n, st, slen, &sdirect)) != MPI_SUCCESS)
        rc = om_comm_error(comm, rc, func, "a send count or datatype");
    else if (rc == MPI_SUCCESS &&
             (rc = w_check(&rcv, recvbuf, n, rt, rlen, &rdirect)) != MPI_SUCCESS)
        rc = om_comm_error(comm, rc, func, "a receive count or datatype");
    else if (rc == MPI_ERR_NO_MEM)
        rc = om_comm_error(comm, rc, func, "no memory");
    if (rc != MPI_SUCCESS)
        goto fail;

    /* send side: in place, or anything not contiguous, goes packed */
    char *sb = (char *)sendbuf;
    if (sdirect && !in_place) {
        sb = w_base(&snd, sendbuf, n, slen, soff);
    } else {
        size_t total = 0;
        for (int i = 0; i < n; i++)
            total += slen[i];
        spack = malloc(total ? total : 1);
        if (!spack) {
            rc = om_comm_error(comm, MPI_ERR_NO_MEM, func, "no memory for %zu bytes", total);
            goto fail;
        }
        for (int i = 0; i < n; i++) {
            soff[i] = i ? soff[i - 1] + slen[i - 1] : 0;
            om_pack(st[i], (const char *)sbase + w_displ(&snd, i), w_count(&snd, i),
                    spack + soff[i]);
        }
        sb = spack;
        j->stmp = spack;   /* lives as long as the call */
        spack = NULL;
    }

    /* receive side: straight into recvbuf, or packed and unpacked by the job */
    char *rb = recvbuf;
    if (rdirect && !in_place) {
        rb = w_base(&rcv, recvbuf, n, rlen, roff);
    } else {
        size_t total = 0;
        for (int i = 0; i < n; i++) {
            roff[i] = total;
            total += rlen[i];
        }
        char *tmp = malloc(total ? total : 1);
        j->uts = calloc((size_t)n, sizeof(*j->uts));
        if (!tmp || !j->uts) {
            free(tmp);
            rc = om_comm_error(comm, MPI_ERR_NO_MEM, func, "no memory for %zu bytes", total);
            goto fail;
        }
        j->tmp = tmp;
        j->n = n;
        j->ubuf = recvbuf;
        for (int i = 0; i < n; i++) {
            j->tdispl[i] = roff[i];
            j->tlen[i] = rlen[i];
            j->udispl[i] = w_displ(&rcv, i);
            j->ucount[i] = w_count(&rcv, i);
            j->uts[i] = rt[i];
            om_type_retain(rt[i]);
        }
        rb = tmp;
    }

    ordo_request_h oreq = NULL;
    ordo_status_t ost = request ? ordo_coll_alltoallv_nb(c->oc, sb, slen, soff, rb, rlen, roff,
                                                         &oreq)
                                : ordo_coll_alltoallv(c->oc, sb, slen, soff, rb, rlen, roff);
    /* ordo reads the length and offset arrays until completion */
    if (request) {
        j->keep[0] = slen;
        j->keep[1] = soff;
        j->keep[2] = rlen;
        j->keep[3] = roff;
    } else {
        free(slen); free(soff); free(rlen); free(roff);
    }
    free(st);
    free(rt);
    return om_coll_conclude(comm, ost, oreq, j, request, func);

fail:
    free(spack);
    free(st); free(rt);
    free(slen); free(soff); free(rlen); free(roff);
    om_job_free(j);
    return rc;
}

int PMPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                   const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    wside_t s = {sendcounts, sdispls, sendtypes, 0}, r = {recvcounts, rdispls, recvtypes, 0};
    return alltoallw(sendbuf, s, recvbuf, r, comm, NULL, "MPI_Alltoallw");
}
OM_ALIAS(Alltoallw)

int PMPI_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                    const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                    const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                    MPI_Request *request)
{
    if (!request)
        return om_comm_error(comm, MPI_ERR_ARG, "MPI_Ialltoallw", "request is NULL");
    wside_t s = {sendcounts, sdispls, sendtypes, 0}, r = {recvcounts, rdispls, recvtypes, 0};
    return alltoallw(sendbuf, s, recvbuf, r, comm, request, "MPI_Ialltoallw");
}
OM_ALIAS(Ialltoallw)

int PMPI_Alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                     const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    wside_t s = {sendcounts, sdispls, sendtypes, 1}, r = {recvcounts, rdispls, recvtypes, 1};
    return alltoallw(sendbuf, s, recvbuf, r, comm, NULL, "MPI_Alltoallw_c");
}
OM_ALIAS(Alltoallw_c)

int PMPI_Ialltoallw_c(const void *sendbuf, const MPI_Count sendcounts[],
                      const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
                      const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                      const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request)
{
    if (!request)
        return om_comm_error(comm, MPI_ERR_ARG, "MPI_Ialltoallw_c", "request is NULL");
    wside_t s = {sendcounts, sdispls, sendtypes, 1}, r = {recvcounts, rdispls, recvtypes, 1};
    return alltoallw(sendbuf, s, recvbuf, r, comm, request, "MPI_Ialltoallw_c");
}
OM_ALIAS(Ialltoallw_c)
