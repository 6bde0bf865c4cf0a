/* MPI on ordo: intercommunicators.
 *
 * An intercommunicator joins two disjoint groups.  Here it is two ordo
 * contexts over their union, listed in ascending world rank (a list every
 * member computes alike, so ordo agrees the contexts among the members
 * without a parent): one carries the program's messages, matching as its
 * hints ask, the other its collectives (coll_inter.c), always ordered.
 * The local group gives MPI_Comm_rank and MPI_Comm_size; the remote group
 * names every peer (mpi_internal.h: om_peer_group). */
#include <stdlib.h>
#include <string.h>

#include "coll_job.h"

static int by_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The intercommunicator between local (this process in it) and remote:
 * MPI_SUCCESS with *out, a class (groups that share a process, no
 * memory), or -1 with ordo's status in *failed.  Its error handler is
 * errh. */
static int inter_make(struct MPI_ABI_Group *local, struct MPI_ABI_Group *remote,
                      int overtaking, MPI_Errhandler errh, MPI_Comm *out,
                      ordo_status_t *failed)
{
    int n = local->size + remote->size;
    int *all = malloc(sizeof(int) * (size_t)(n ? n : 1));
    if (!all)
        return MPI_ERR_NO_MEM;
    memcpy(all, local->ranks, sizeof(int) * (size_t)local->size);
    memcpy(all + local->size, remote->ranks, sizeof(int) * (size_t)remote->size);
    qsort(all, (size_t)n, sizeof(int), by_int);
    for (int i = 1; i < n; i++)
        if (all[i] == all[i - 1]) {   /* every member finds it: nobody goes on */
            free(all);
            return MPI_ERR_GROUP;
        }
    ordo_comm_params_t p = {.field_mask = ORDO_COMM_FIELD_RANKS | ORDO_COMM_FIELD_MATCH,
                            .match = overtaking ? ORDO_MATCH_OVERTAKING : ORDO_MATCH_ORDERED,
                            .nranks = n, .ranks = all};
    ordo_comm_h oc = NULL, coll = NULL;
    ordo_status_t st = ordo_comm_create(&p, &oc);
    if (st == ORDO_OK) {
        p.match = ORDO_MATCH_ORDERED;
        st = ordo_comm_create(&p, &coll);
        if (st != ORDO_OK)
            ordo_comm_destroy(oc);
    }
    free(all);
    if (st != ORDO_OK) {
        *failed = st;
        return -1;
    }
    struct MPI_ABI_Comm *nc = om_comm_wrap(oc, local, errh);   /* MPI ranks: the local group's */
    if (!nc) {
        ordo_comm_destroy(coll);
        ordo_comm_destroy(oc);
        return MPI_ERR_NO_MEM;
    }
    remote->refs++;
    nc->remote = remote;
    nc->coll_oc = coll;
    nc->overtaking = overtaking;
    nc->session = om_session_retain(local->session);
    *out = nc;
    return MPI_SUCCESS;
}

/* Raise what inter_make returned on comm. */
static int made(int rc, ordo_status_t st, MPI_Comm comm, const char *func)
{
    if (rc < 0)
        return om_comm_failed(comm, st, func);
    if (rc == MPI_ERR_GROUP)
        return om_comm_error(comm, rc, func, "the two groups share a process");
    return rc == MPI_SUCCESS ? rc : om_comm_error(comm, rc, func, "no memory");
}

ordo_status_t om_inter_destroy(struct MPI_ABI_Comm *c)
{
    ordo_status_t st = ordo_comm_destroy(c->oc);   /* busy while receives are posted */
    if (st != ORDO_OK)
        return st;
    ordo_comm_destroy(c->coll_oc);
    c->coll_oc = NULL;
    return ORDO_OK;
}

int om_inter_dup(struct MPI_ABI_Comm *c, MPI_Comm comm, int overtaking, MPI_Comm *newcomm,
                 const char *func)
{
    ordo_status_t st = ORDO_OK;
    int rc = inter_make(c->group, c->remote, overtaking, c->errh, newcomm, &st);
    return made(rc, st, comm, func);
}

/* ------------------------------------------------------------ splitting */

typedef struct member {
    int key, old, world;
} member_t;

static int by_key(const void *a, const void *b)
{
    const member_t *x = a, *y = b;
    if (x->key != y->key)
        return (x->key > y->key) - (x->key < y->key);
    return (x->old > y->old) - (x->old < y->old);
}

static struct MPI_ABI_Group *group_of(const member_t *m, int n)
{
    struct MPI_ABI_Group *g = om_group_new(n);
    if (!g)
        return NULL;
    for (int i = 0; i < n; i++)
        g->ranks[i] = m[i].world;
    om_group_find_me(g);
    return g;
}

/* Each side splits its own group by (color, key); the processes of one
 * color on both sides form an intercommunicator, MPI_COMM_NULL where a
 * side has none of that color.  Every member's (color, key) is gathered
 * over the collectives' context, so each computes both groups alike. */
int om_inter_split(struct MPI_ABI_Comm *c, MPI_Comm comm, int color, int key,
                   MPI_Comm *newcomm, const char *func)
{
    int n = 0;
    ordo_comm_size(c->coll_oc, &n);
    int mine[2] = {color == MPI_UNDEFINED ? -1 : color, key};
    int *all = malloc(sizeof(int) * 2 * (size_t)n);
    member_t *loc = malloc(sizeof(member_t) * (size_t)n);
    member_t *rem = malloc(sizeof(member_t) * (size_t)n);
    if (!all || !loc || !rem) {
        free(all);
        free(loc);
        free(rem);
        return om_comm_error(comm, MPI_ERR_NO_MEM, func, "no memory");
    }
    ordo_status_t st = ordo_coll_allgather(c->coll_oc, mine, sizeof(mine), all);
    int nl = 0, nr = 0;
    for (int i = 0; st == ORDO_OK && i < n; i++) {
        int w = -1;
        ordo_comm_member(c->coll_oc, i, &w);
        if (mine[0] < 0 || all[2 * i] != mine[0])
            continue;
        int old = om_group_index(c->group, w);
        if (old >= 0)
            loc[nl++] = (member_t){all[2 * i + 1], old, w};
        else
            rem[nr++] = (member_t){all[2 * i + 1], om_group_index(c->remote, w), w};
    }
    free(all);
    *newcomm = MPI_COMM_NULL;
    int rc = MPI_SUCCESS;
    if (st == ORDO_OK && nl > 0 && nr > 0) {
        qsort(loc, (size_t)nl, sizeof(member_t), by_key);
        qsort(rem, (size_t)nr, sizeof(member_t), by_key);
        struct MPI_ABI_Group *gl = group_of(loc, nl), *gr = group_of(rem, nr);
        if (gl)   /* derived from c: of its session, if any */
            gl->session = om_session_retain(c->session);
        rc = gl && gr ? inter_make(gl, gr, c->overtaking, c->errh, newcomm, &st)
                      : MPI_ERR_NO_MEM;
        if (gl)
            om_group_release(gl);
        if (gr)
            om_group_release(gr);
    } else if (st != ORDO_OK) {
        rc = -1;
    }
    free(loc);
    free(rem);
    return made(rc, st, comm, func);
}

/* ------------------------------------------------------------ the calls */

/* ordo's broadcast of n ints from the leader over an intracommunicator
 * (not the program's MPI_Bcast: a failure here is reported once, by the
 * caller, and raises nothing on the local communicator). */
static ordo_status_t leader_bcast(struct MPI_ABI_Comm *lc, int leader, int *v, int n)
{
    return ordo_coll_bcast(lc->oc, v, sizeof(int) * (size_t)n, lc->group->ranks[leader]);
}

int PMPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm,
                          int remote_leader, int tag, MPI_Comm *newintercomm)
{
    static const char *const func = "MPI_Intercomm_create";
    OM_COMM_ARG(lc, local_comm, func);
    if (!newintercomm)
        return om_comm_error(local_comm, MPI_ERR_ARG, func, "newintercomm is NULL");
    int rc = om_intra_only(lc, local_comm, func);
    if (rc)
        return rc;
    if (local_leader < 0 || local_leader >= lc->group->size)
        return om_comm_error(local_comm, MPI_ERR_RANK, func, "local_leader %d (of %d)",
                             local_leader, lc->group->size);
    /* the leaders swap their groups over peer_comm; a leader that cannot
     * says so to its group with a size of -1 */
    int rsize = -1, *rranks = NULL;
    if (lc->group->rank == local_leader) {
        struct MPI_ABI_Comm *pc = om_comm(peer_comm);
        int lsize = lc->group->size;
        if (!pc)
            rc = om_comm_error(local_comm, MPI_ERR_COMM, func, "peer_comm is not a communicator");
        else if (remote_leader < 0 || remote_leader >= om_peer_group(pc)->size)
            rc = om_comm_error(peer_comm, MPI_ERR_RANK, func, "remote_leader %d (of %d)",
                               remote_leader, om_peer_group(pc)->size);
        else
            rc = PMPI_Sendrecv(&lsize, 1, MPI_INT, remote_leader, tag, &rsize, 1, MPI_INT,
                               remote_leader, tag, peer_comm, MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS && rsize >= 0 &&
            !(rranks = malloc(sizeof(int) * (size_t)(rsize ? rsize : 1))))
            rc = MPI_ERR_NO_MEM;
        if (rc == MPI_SUCCESS)
            rc = PMPI_Sendrecv(lc->group->ranks, lsize, MPI_INT, remote_leader, tag, rranks,
                               rsize, MPI_INT, remote_leader, tag, peer_comm,
                               MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            rsize = -1;
    }
    ordo_status_t st = leader_bcast(lc, local_leader, &rsize, 1);
    if (st == ORDO_OK && rsize < 0) {
        free(rranks);
        return om_comm_error(local_comm, rc ? rc : MPI_ERR_OTHER, func,
                             "the leaders could not exchange their groups");
    }
    /* the list in pieces through a buffer on the stack: a process short
     * of memory still takes its part, so its group does not wait on it */
    struct MPI_ABI_Group *remote = st == ORDO_OK ? om_group_new(rsize) : NULL;
    int piece[1024];
    for (int off = 0, k; st == ORDO_OK && off < rsize; off += k) {
        k = rsize - off < 1024 ? rsize - off : 1024;
        if (rranks)
            memcpy(piece, rranks + off, sizeof(int) * (size_t)k);
        st = leader_bcast(lc, local_leader, piece, k);
        if (remote)
            memcpy(remote->ranks + off, piece, sizeof(int) * (size_t)k);
    }
    if (remote)
        om_group_find_me(remote);
    free(rranks);
    if (st != ORDO_OK) {
        if (remote)
            om_group_release(remote);
        return om_comm_failed(local_comm, st, func);
    }
    if (!remote)
        return om_comm_error(local_comm, MPI_ERR_NO_MEM, func, "no memory");
    rc = inter_make(lc->group, remote, 0, lc->errh, newintercomm, &st);
    om_group_release(remote);
    return made(rc, st, local_comm, func);
}
OM_ALIAS(Intercomm_create)

int PMPI_Comm_set_info(MPI_Comm comm, MPI_Info info);
int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler);

/* MPI-4: from two groups alone.  The leaders matter to an implementation
 * that exchanges the groups through them; here both groups are given, and
 * ordo agrees the contexts among their members. */
int PMPI_Intercomm_create_from_groups(MPI_Group local_group, int local_leader,
                                      MPI_Group remote_group, int remote_leader,
                                      const char *stringtag, MPI_Info info,
                                      MPI_Errhandler errhandler, MPI_Comm *newintercomm)
{
    static const char *const func = "MPI_Intercomm_create_from_groups";
    if (!om_ready(func))
        return MPI_ERR_OTHER;
    struct MPI_ABI_Group *lg = om_group(local_group), *rg = om_group(remote_group);
    if (!lg || !rg)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_GROUP, func, "%s is not a group",
                             lg ? "remote_group" : "local_group");
    if (!stringtag || !newintercomm)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, func, "%s is NULL",
                             stringtag ? "newintercomm" : "stringtag");
    if (lg->rank == MPI_UNDEFINED)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_GROUP, func,
                             "this process is not in local_group");
    if (local_leader < 0 || local_leader >= lg->size || remote_leader < 0 ||
        remote_leader >= rg->size)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_RANK, func,
                             "local_leader %d (of %d), remote_leader %d (of %d)", local_leader,
                             lg->size, remote_leader, rg->size);
    if (info != MPI_INFO_NULL && !om_info(info))
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_INFO, func, "not an info object");
    int kind = om_errh_kind(errhandler);
    if (kind != 0 && kind != 1)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, func,
                             "not a communicator error handler");
    const char *ot = om_info_lookup(info, "mpi_assert_allow_overtaking");
    ordo_status_t st = ORDO_OK;
    int rc = inter_make(lg, rg, ot && strcmp(ot, "true") == 0, errhandler, newintercomm, &st);
    if ((rc = made(rc, st, MPI_COMM_SELF, func)) != MPI_SUCCESS)
        return rc;
    return PMPI_Comm_set_info(*newintercomm, info);
}
OM_ALIAS(Intercomm_create_from_groups)

/* One intracommunicator of both groups: the group that passed high =
 * false first; when both passed the same, the one holding the lower world
 * rank among the leaders (MPI leaves that order to the library). */
int PMPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm)
{
    static const char *const func = "MPI_Intercomm_merge";
    OM_COMM_ARG(c, intercomm, func);
    if (!newintracomm)
        return om_comm_error(intercomm, MPI_ERR_ARG, func, "newintracomm is NULL");
    if (!c->remote)
        return om_comm_error(intercomm, MPI_ERR_COMM, func, "not an intercommunicator");
    int n = 0, rl = -1;
    ordo_comm_size(c->coll_oc, &n);
    ordo_comm_index(c->coll_oc, c->remote->ranks[0], &rl);
    int mine = high != 0, *highs = malloc(sizeof(int) * (size_t)n);
    if (!highs)
        return om_comm_error(intercomm, MPI_ERR_NO_MEM, func, "no memory");
    ordo_status_t st = ordo_coll_allgather(c->coll_oc, &mine, sizeof(int), highs);
    int theirs = st == ORDO_OK ? highs[rl] : 0;
    free(highs);
    if (st != ORDO_OK)
        return om_comm_failed(intercomm, st, func);
    int first = mine != theirs ? !mine : c->group->ranks[0] < c->remote->ranks[0];
    struct MPI_ABI_Group *a = first ? c->group : c->remote, *b = first ? c->remote : c->group;
    struct MPI_ABI_Group *g = om_group_new(a->size + b->size);
    if (!g)
        return om_comm_error(intercomm, MPI_ERR_NO_MEM, func, "no memory");
    memcpy(g->ranks, a->ranks, sizeof(int) * (size_t)a->size);
    memcpy(g->ranks + a->size, b->ranks, sizeof(int) * (size_t)b->size);
    om_group_find_me(g);
    int rc = om_comm_from_group(g, c->overtaking, newintracomm, &st);
    om_group_release(g);
    if (rc < 0)
        return om_comm_failed(intercomm, st, func);
    if (rc != MPI_SUCCESS)
        return om_comm_error(intercomm, rc, func, "no memory");
    (*newintracomm)->session = om_session_retain(c->session);
    return PMPI_Comm_set_errhandler(*newintracomm, c->errh);
}
OM_ALIAS(Intercomm_merge)
