/* MPI on ordo: communicators (ordo contexts); their groups are in group.c.
 *
 * A communicator's MPI rank of a process is its member index in the ordo
 * context (ordo_comm_split orders members by key), so collectives, which
 * ordo runs in member order, agree with MPI's rank order.  Groups are
 * lists of world ranks. */
#include <stdio.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"

struct MPI_ABI_Comm om_comm_world, om_comm_self;
/* made by the program, not yet freed (or freed while requests made on it
 * go on: OM_MAGIC_COMM_FREED) */
static struct MPI_ABI_Comm *live;

/* (threads may create, free and reap communicators at once) */
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;

static void live_add(struct MPI_ABI_Comm *c)
{
    pthread_mutex_lock(&live_lock);
    c->prev = NULL;
    c->next = live;
    if (live)
        live->prev = c;
    live = c;
    pthread_mutex_unlock(&live_lock);
}

static void live_remove(struct MPI_ABI_Comm *c)
{
    pthread_mutex_lock(&live_lock);
    if (c->prev)
        c->prev->next = c->next;
    else
        live = c->next;
    if (c->next)
        c->next->prev = c->prev;
    pthread_mutex_unlock(&live_lock);
}

int om_comm_rank_of_world(struct MPI_ABI_Comm *c, int world)
{
    if (c->identity && !c->remote)   /* no call into ordo on a message's path */
        return world >= 0 && world < c->group->size ? world : MPI_UNDEFINED;
    if (c->remote || atomic_load_explicit(&c->oc_gone, memory_order_relaxed)) {
        /* the remote group's index, or the group's once the context is gone */
        int r = om_group_index(c->remote ? c->remote : c->group, world);
        return r < 0 ? MPI_UNDEFINED : r;
    }
    int index = -1;
    if (ordo_comm_index(c->oc, world, &index) != ORDO_OK)
        return MPI_UNDEFINED;
    return index;
}

/* Fill a communicator around a built ordo context: its group g (held),
 * or with g NULL its members, in member order. */
static int comm_fill(struct MPI_ABI_Comm *c, ordo_comm_h oc, int owns, struct MPI_ABI_Group *g)
{
    if (g) {
        g->refs++;
    } else {
        int n = 0;
        if (ordo_comm_size(oc, &n) != ORDO_OK)
            return MPI_ERR_INTERN;
        if (!(g = om_group_new(n)))
            return MPI_ERR_NO_MEM;
        for (int i = 0; i < n; i++)
            ordo_comm_member(oc, i, &g->ranks[i]);
        om_group_find_me(g);
    }
    c->magic = OM_MAGIC_COMM;
    c->oc = oc;
    c->owns_oc = owns;
    c->group = g;
    c->identity = 1;
    for (int i = 0; i < g->size && c->identity; i++)
        c->identity = g->ranks[i] == i;
    c->errh = MPI_ERRORS_ARE_FATAL;
    c->info = MPI_INFO_NULL;
    return MPI_SUCCESS;
}

int om_comms_init(void)
{
    int rc = comm_fill(&om_comm_world, ORDO_COMM_WORLD, 0, NULL);
    if (rc != MPI_SUCCESS)
        return rc;
    strcpy(om_comm_world.name, "MPI_COMM_WORLD");
    ordo_comm_h self;
    int me = om_g.world_rank;
    ordo_comm_params_t p = {.field_mask = ORDO_COMM_FIELD_RANKS, .nranks = 1, .ranks = &me};
    ordo_status_t st = ordo_comm_create(&p, &self);
    if (st != ORDO_OK) {
        fprintf(stderr, "[ordo-mpi] MPI_Init: MPI_COMM_SELF: %s\n", ordo_status_string(st));
        return om_class_of(st);
    }
    rc = comm_fill(&om_comm_self, self, 1, NULL);
    strcpy(om_comm_self.name, "MPI_COMM_SELF");
    return rc;
}

static void comm_release(struct MPI_ABI_Comm *c)
{
    om_direct_forget(c);
    om_session_release(c->session);
    c->session = NULL;
    if (c->remote)
        om_group_release(c->remote);
    c->remote = NULL;
    free(c->cart);
    c->cart = NULL;
    free(c->graph);
    c->graph = NULL;
    om_comm_bpool_release(c);
    om_attrs_free(c);
    om_group_release(c->group);
    om_errh_release(c->errh);
    om_info_release(c->info);
    c->magic = OM_MAGIC_DEAD;
}

void om_comms_finalize(void)
{
    /* what the program left: its contexts end with ordo, its memory here */
    while (live) {
        struct MPI_ABI_Comm *c = live;
        live_remove(c);
        /* freed here, not by its last record (comm_release may free records) */
        atomic_store_explicit(&c->oc_gone, 0, memory_order_relaxed);
        comm_release(c);
        free(c);
    }
    if (om_comm_self.owns_oc)
        ordo_comm_destroy(om_comm_self.oc);
    comm_release(&om_comm_self);
    comm_release(&om_comm_world);
}

struct MPI_ABI_Comm *om_comm_wrap(ordo_comm_h oc, struct MPI_ABI_Group *group,
                                  MPI_Errhandler errh)
{
    struct MPI_ABI_Comm *nc = calloc(1, sizeof(*nc));
    if (!nc || comm_fill(nc, oc, 1, group) != MPI_SUCCESS) {
        free(nc);
        return NULL;
    }
    om_errh_retain(errh);
    nc->errh = errh;
    live_add(nc);
    return nc;
}

/* A new communicator over some of c's members: those giving color >= 0,
 * ranked by key, matching with overtaking when asked.  Collective over c;
 * *out is MPI_COMM_NULL for a negative color. */
static int comm_derive(struct MPI_ABI_Comm *c, int color, int key, int overtaking,
                       MPI_Comm *out, const char *func, MPI_Comm parent)
{
    ordo_comm_h oc = NULL;
    ordo_status_t st = ordo_comm_split(c->oc, color < 0 ? -1 : color, key, &oc);
    if (st != ORDO_OK)
        return om_comm_failed(parent, st, func);
    if (oc == ORDO_COMM_NULL) {
        *out = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    if (overtaking) {
        /* ordo sets the matching order at creation: a context over the
         * same members, then ordered by key as split would */
        int n = 0, me = 0;
        ordo_comm_size(oc, &n);
        ordo_comm_rank(oc, &me);
        int *ranks = malloc(sizeof(int) * (size_t)n);
        if (!ranks) {
            ordo_comm_destroy(oc);
            return om_comm_error(parent, MPI_ERR_NO_MEM, func, "no memory");
        }
        for (int i = 0; i < n; i++)
            ordo_comm_member(oc, i, &ranks[i]);
        ordo_comm_params_t p = {.field_mask = ORDO_COMM_FIELD_RANKS | ORDO_COMM_FIELD_MATCH,
                                .match = ORDO_MATCH_OVERTAKING, .nranks = n, .ranks = ranks};
        ordo_comm_h ot = NULL;
        st = ordo_comm_create(&p, &ot);
        free(ranks);
        ordo_comm_h ordered = NULL;
        if (st == ORDO_OK) {
            st = ordo_comm_split(ot, 0, me, &ordered);
            ordo_comm_destroy(ot);
        }
        ordo_comm_destroy(oc);
        if (st != ORDO_OK)
            return om_comm_failed(parent, st, func);
        oc = ordered;
    }
    struct MPI_ABI_Comm *nc = calloc(1, sizeof(*nc));
    int rc = nc ? comm_fill(nc, oc, 1, NULL) : MPI_ERR_NO_MEM;
    if (rc != MPI_SUCCESS) {
        free(nc);
        ordo_comm_destroy(oc);
        return om_comm_error(parent, rc, func, "no memory for the communicator");
    }
    nc->overtaking = overtaking;
    nc->session = om_session_retain(c->session);
    /* a new communicator inherits its parent's error handler (MPI 4.1
     * section 9.3) */
    om_errh_retain(c->errh);
    nc->errh = c->errh;
    live_add(nc);
    *out = nc;
    return MPI_SUCCESS;
}

static int hint_true(MPI_Info info, const char *key)
{
    const char *v = om_info_lookup(info, key);
    return v && strcmp(v, "true") == 0;
}

int PMPI_Comm_size(MPI_Comm comm, int *size)
{
    OM_COMM_ARG(c, comm, "MPI_Comm_size");
    if (!size)
        return om_comm_error(comm, MPI_ERR_ARG, "MPI_Comm_size", "size is NULL");
    *size = c->group->size;
    return MPI_SUCCESS;
}
OM_ALIAS(Comm_size)

int PMPI_Comm_rank(MPI_Comm comm, int *rank)
{
    OM_COMM_ARG(c, comm, "MPI_Comm_rank");
    if (!rank)
        return om_comm_error(comm, MPI_ERR_ARG, "MPI_Comm_rank", "rank is NULL");
    *rank = c->group->rank;
    return MPI_SUCCESS;
}
OM_ALIAS(Comm_rank)

int PMPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    OM_COMM_ARG(c, comm, "MPI_Comm_dup_with_info");
    if (!newcomm)
        return om_comm_error(comm, MPI_ERR_ARG, "MPI_Comm_dup_with_info", "newcomm is NULL");
    int ot = hint_true(info, "mpi_assert_allow_overtaking");
    int rc = c->remote ? om_inter_dup(c, comm, ot, newcomm, "MPI_Comm_dup_with_info")
                       : comm_derive(c, 0, c->group->rank, ot, newcomm,
                                     "MPI_Comm_dup_with_info", comm);
    if (rc == MPI_SUCCESS && *newcomm != MPI_COMM_NULL) {
        om_info_dup_of(info, &(*newcomm)->info);
        rc = om_attrs_copy(c, *newcomm);   /* as MPI_Comm_dup, but for the hints */
        if (rc == MPI_SUCCESS)
            rc = om_cart_copy(c, *newcomm);
        if (rc == MPI_SUCCESS)
            rc = om_graph_copy(c, *newcomm);
    }
    return rc;
}
OM_ALIAS(Comm_dup_with_info)

int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    OM_COMM_ARG(c, comm, "MPI_Comm_dup");
    if (!newcomm)
        return om_comm_error(comm, MPI_ERR_ARG, "MPI_Comm_dup", "newcomm is NULL");
    int rc = c->remote ? om_inter_dup(c, comm, c->overtaking, newcomm, "MPI_Comm_dup")
                       : comm_derive(c, 0, c->group->rank, c->overtaking, newcomm,
                                     "MPI_Comm_dup", comm);
    if (rc == MPI_SUCCESS) {
        om_info_dup_of(c->info, &(*newcomm)->info);
        rc = om_attrs_copy(c, *newcomm);
        if (rc == MPI_SUCCESS)
            rc = om_cart_copy(c, *newcomm);
        if (rc == MPI_SUCCESS)
            rc = om_graph_copy(c, *newcomm);
    }
    return rc;
}
OM_ALIAS(Comm_dup)

/* The immediate forms duplicate at once and hand back a completed
 * request: every member makes the call at the same point of its
 * collective order, so the duplication completes as they all reach it
 * (a program that waits for a message sent after another member's idup
 * before making its own would wait for ever here; docs/mpi.md). */
static int idup(MPI_Comm comm, int with_info, MPI_Info info, MPI_Comm *newcomm,
                MPI_Request *request, const char *func)
{
    if (!request)
        return om_comm_error(comm, MPI_ERR_ARG, func, "request is NULL");
    int rc = with_info ? PMPI_Comm_dup_with_info(comm, info, newcomm)
                       : PMPI_Comm_dup(comm, newcomm);
    if (rc != MPI_SUCCESS)
        return rc;
    struct MPI_ABI_Request *r = om_req_new(OM_REQ_DONE, comm);
    if (!r)
        return om_comm_error(comm, MPI_ERR_NO_MEM, func, "no memory");
    om_status_empty(&r->done_status);
    r->completed = 1;
    *request = r;
    return MPI_SUCCESS;
}

int PMPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm,
                             MPI_Request *request)
{
    return idup(comm, 1, info, newcomm, request, "MPI_Comm_idup_with_info");
}
OM_ALIAS(Comm_idup_with_info)

int PMPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
    return idup(comm, 0, MPI_INFO_NULL, newcomm, request, "MPI_Comm_idup");
}
OM_ALIAS(Comm_idup)

int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    OM_COMM_ARG(c, comm, "MPI_Comm_split");
    if (!newcomm)
        return om_comm_error(comm, MPI_ERR_ARG, "MPI_Comm_split", "newcomm is NULL");
    if (color < 0 && color != MPI_UNDEFINED)
        return om_comm_error(comm, MPI_ERR_ARG, "MPI_Comm_split",
                             "color %d: colors are >= 0, or MPI_UNDEFINED", color);
    if (c->remote)
        return om_inter_split(c, comm, color, key, newcomm, "MPI_Comm_split");
    return comm_derive(c, color == MPI_UNDEFINED ? -1 : color, key, c->overtaking, newcomm,
                       "MPI_Comm_split", comm);
}
OM_ALIAS(Comm_split)

int PMPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info,
                         MPI_Comm *newcomm)
{
    OM_COMM_ARG(c, comm, "MPI_Comm_split_type");
    if (!newcomm)
        return om_comm_error(comm, MPI_ERR_ARG, "MPI_Comm_split_type", "newcomm is NULL");
    /* The one hardware level told apart is the node, what ordo maps
     * memory across ("mpi_shared_memory"; cache and NUMA domains are not):
     * SHARED splits by node; the guided types do for that resource type
     * and give MPI_COMM_NULL for any other or none; UNGUIDED splits by node
     * where that makes smaller communicators, else there is no level below
     * and every process gets MPI_COMM_NULL. */
    int color = ordo_node_of(om_g.world_rank), unguided = 0;
    const char *res = om_info_lookup(info, "mpi_hw_resource_type");
    switch (split_type) {
    case MPI_UNDEFINED:
        color = -1;
        break;
    case MPI_COMM_TYPE_SHARED:
        break;
    case MPI_COMM_TYPE_HW_GUIDED:
    case MPI_COMM_TYPE_RESOURCE_GUIDED:
        if (!res || strcmp(res, "mpi_shared_memory") != 0)
            color = -1;
        break;
    case MPI_COMM_TYPE_HW_UNGUIDED: {
        int spread = 0;
        for (int i = 1; i < c->group->size; i++)
            spread |= ordo_node_of(c->group->ranks[i]) != ordo_node_of(c->group->ranks[0]);
        color = spread ? color : -1;
        unguided = spread;
        break;
    }
    default:
        return om_comm_error(comm, MPI_ERR_ARG, "MPI_Comm_split_type",
                             "%d is no split type", split_type);
    }
    /* on an intercommunicator each side splits its group alike, and the
     * processes of one color on both sides are joined (MPI 4.0) */
    int rc = c->remote ? om_inter_split(c, comm, color < 0 ? MPI_UNDEFINED : color, key,
                                        newcomm, "MPI_Comm_split_type")
                       : comm_derive(c, color, key, c->overtaking ||
                                            hint_true(info, "mpi_assert_allow_overtaking"),
                                     newcomm, "MPI_Comm_split_type", comm);
    if (rc == MPI_SUCCESS && *newcomm != MPI_COMM_NULL) {
        if (unguided && info != MPI_INFO_NULL)   /* the level it split at, as MPI-4 says */
            rc = PMPI_Info_set(info, "mpi_hw_resource_type", "mpi_shared_memory");
        om_info_dup_of(info, &(*newcomm)->info);
    }
    return rc;
}
OM_ALIAS(Comm_split_type)

int PMPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    OM_COMM_ARG(c, comm, "MPI_Comm_create");
    struct MPI_ABI_Group *g = om_group(group);
    if (!g)
        return om_comm_error(comm, MPI_ERR_GROUP, "MPI_Comm_create", "not a group");
    if (!newcomm)
        return om_comm_error(comm, MPI_ERR_ARG, "MPI_Comm_create", "newcomm is NULL");
    for (int i = 0; i < g->size; i++)
        if (om_group_index(c->group, g->ranks[i]) < 0)
            return om_comm_error(comm, MPI_ERR_GROUP, "MPI_Comm_create",
                                 "the group's rank %d is not in the communicator", i);
    int mine = om_group_index(g, om_g.world_rank);
    if (c->remote)   /* the group is of the local side; the remote side gives its own */
        return om_inter_split(c, comm, mine < 0 ? MPI_UNDEFINED : 0, mine, newcomm,
                              "MPI_Comm_create");
    /* MPI 2.2: members may pass different (disjoint) groups, each making
     * a communicator of its own; a group's first member tells it apart */
    return comm_derive(c, mine < 0 ? -1 : g->ranks[0], mine, c->overtaking, newcomm,
                       "MPI_Comm_create", comm);
}
OM_ALIAS(Comm_create)

/* ordo agrees context ids among the members themselves: g's members
 * alone make it. */
int om_comm_from_group(struct MPI_ABI_Group *g, int overtaking, MPI_Comm *newcomm,
                       ordo_status_t *failed)
{
    int mine = om_group_index(g, om_g.world_rank);
    if (mine < 0) {
        *newcomm = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    ordo_comm_params_t p = {.field_mask = ORDO_COMM_FIELD_RANKS | ORDO_COMM_FIELD_MATCH,
                            .match = overtaking ? ORDO_MATCH_OVERTAKING : ORDO_MATCH_ORDERED,
                            .nranks = g->size, .ranks = g->ranks};
    ordo_comm_h members = NULL, ordered = NULL;
    ordo_status_t st = ordo_comm_create(&p, &members);
    if (st == ORDO_OK) {
        st = ordo_comm_split(members, 0, mine, &ordered);   /* the group's order */
        ordo_comm_destroy(members);
    }
    if (st != ORDO_OK) {
        *failed = st;
        return -1;
    }
    struct MPI_ABI_Comm *nc = calloc(1, sizeof(*nc));
    int rc = nc ? comm_fill(nc, ordered, 1, NULL) : MPI_ERR_NO_MEM;
    if (rc != MPI_SUCCESS) {
        free(nc);
        ordo_comm_destroy(ordered);
        return rc;
    }
    nc->overtaking = overtaking;
    nc->session = om_session_retain(g->session);   /* a session's group: its communicator */
    live_add(nc);
    *newcomm = nc;
    return MPI_SUCCESS;
}

int PMPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
    (void)tag;   /* ordo agrees context ids among the members themselves */
    OM_COMM_ARG(c, comm, "MPI_Comm_create_group");
    struct MPI_ABI_Group *g = om_group(group);
    if (!g)
        return om_comm_error(comm, MPI_ERR_GROUP, "MPI_Comm_create_group", "not a group");
    if (!newcomm)
        return om_comm_error(comm, MPI_ERR_ARG, "MPI_Comm_create_group", "newcomm is NULL");
    ordo_status_t st = ORDO_OK;
    int rc = om_intra_only(c, comm, "MPI_Comm_create_group");
    if (rc)
        return rc;
    rc = om_comm_from_group(g, c->overtaking, newcomm, &st);
    if (rc < 0)
        return om_comm_failed(comm, st, "MPI_Comm_create_group");
    return rc == MPI_SUCCESS ? rc
                             : om_comm_error(comm, rc, "MPI_Comm_create_group", "no memory");
}
OM_ALIAS(Comm_create_group)

int PMPI_Comm_set_info(MPI_Comm comm, MPI_Info info);
int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler);
int PMPI_Comm_free(MPI_Comm *comm);

/* MPI-4: a communicator from a group alone, with no parent (its members
 * call it; the string tag tells concurrent ones apart in MPI, and ordo's
 * member-agreed context ids need it not).  The hints of info are its
 * own, mpi_assert_allow_overtaking included; errhandler is its handler. */
int PMPI_Comm_create_from_group(MPI_Group group, const char *stringtag, MPI_Info info,
                                MPI_Errhandler errhandler, MPI_Comm *newcomm)
{
    static const char *const func = "MPI_Comm_create_from_group";
    if (!om_ready(func))
        return MPI_ERR_OTHER;
    struct MPI_ABI_Group *g = om_group(group);
    if (!g)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_GROUP, func, "not a group");
    if (!stringtag || !newcomm)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, func, "%s is NULL",
                             stringtag ? "newcomm" : "stringtag");
    if (info != MPI_INFO_NULL && !om_info(info))
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_INFO, func, "not an info object");
    int kind = om_errh_kind(errhandler);   /* predefined (0) or a communicator's (1) */
    if (kind != 0 && kind != 1)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, func,
                             "not a communicator error handler");
    ordo_status_t st = ORDO_OK;
    int rc = om_comm_from_group(g, hint_true(info, "mpi_assert_allow_overtaking"), newcomm, &st);
    if (rc < 0)
        return om_comm_failed(MPI_COMM_SELF, st, func);
    if (rc != MPI_SUCCESS)
        return om_comm_error(MPI_COMM_SELF, rc, func, "no memory");
    if (*newcomm == MPI_COMM_NULL)
        return MPI_SUCCESS;
    if ((rc = PMPI_Comm_set_errhandler(*newcomm, errhandler)) != MPI_SUCCESS ||
        (rc = PMPI_Comm_set_info(*newcomm, info)) != MPI_SUCCESS) {
        PMPI_Comm_free(newcomm);
        return rc;
    }
    return MPI_SUCCESS;
}
OM_ALIAS(Comm_create_from_group)

int PMPI_Comm_free(MPI_Comm *comm)
{
    if (!om_ready("MPI_Comm_free"))
        return MPI_ERR_OTHER;
    struct MPI_ABI_Comm *c = comm ? om_comm(*comm) : NULL;
    if (!c || c == &om_comm_world || c == &om_comm_self)
        return om_comm_error(comm ? *comm : MPI_COMM_NULL, MPI_ERR_COMM, "MPI_Comm_free",
                             c ? "a predefined communicator cannot be freed"
                               : "not a communicator");
    ordo_status_t st = c->remote ? om_inter_destroy(c)
                       : c->owns_oc ? ordo_comm_destroy(c->oc) : ORDO_OK;
    if (st == ORDO_ERR_BUSY && !c->remote) {
        /* Receives are still posted on it, here or at another member (ordo
         * tells every member alike and keeps the context): MPI lets them
         * complete normally.  The program's handle goes; the communicator
         * stays for them, out of the program's reach, until MPI_Finalize. */
        c->magic = OM_MAGIC_COMM_FREED;
        *comm = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    if (st != ORDO_OK)
        return om_comm_failed(*comm, st, "MPI_Comm_free");
    *comm = MPI_COMM_NULL;
    if (atomic_load_explicit(&c->records, memory_order_relaxed) > 0) {
        /* requests made on it go on (a send not yet taken, a freed
         * request): it goes with the last of them */
        c->magic = OM_MAGIC_COMM_FREED;
        atomic_store_explicit(&c->oc_gone, 1, memory_order_release);
        om_comm_reap(c);   /* (the last may have gone meanwhile) */
        return MPI_SUCCESS;
    }
    live_remove(c);
    comm_release(c);
    free(c);
    return MPI_SUCCESS;
}
OM_ALIAS(Comm_free)

void om_comm_reap(struct MPI_ABI_Comm *c)
{
    int gone = 1;
    if (atomic_load_explicit(&c->records, memory_order_acquire) != 0 ||
        !atomic_compare_exchange_strong(&c->oc_gone, &gone, 0))
        return;   /* still held, or reaped by another thread */
    live_remove(c);
    comm_release(c);
    free(c);
}

int PMPI_Comm_disconnect(MPI_Comm *comm)
{
    return PMPI_Comm_free(comm);
}
OM_ALIAS(Comm_disconnect)

int PMPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result)
{
    if (!om_ready("MPI_Comm_compare"))
        return MPI_ERR_OTHER;
    struct MPI_ABI_Comm *a = om_comm(comm1), *b = om_comm(comm2);
    if (!a || !b || !result)
        return om_comm_error(a ? comm2 : comm1, result ? MPI_ERR_COMM : MPI_ERR_ARG,
                             "MPI_Comm_compare", "%s", result ? "not a communicator"
                                                              : "result is NULL");
    if (a == b) {
        *result = MPI_IDENT;
        return MPI_SUCCESS;
    }
    int g = om_group_compare(a->group, b->group);
    if (!a->remote != !b->remote)   /* an intra- and an intercommunicator */
        g = MPI_UNEQUAL;
    else if (a->remote) {   /* both groups must agree */
        int r = om_group_compare(a->remote, b->remote);
        g = g == MPI_UNEQUAL || r == MPI_UNEQUAL ? MPI_UNEQUAL
            : g == MPI_IDENT && r == MPI_IDENT   ? MPI_IDENT
                                                 : MPI_SIMILAR;
    }
    *result = g == MPI_IDENT ? MPI_CONGRUENT : g;
    return MPI_SUCCESS;
}
OM_ALIAS(Comm_compare)

int PMPI_Comm_test_inter(MPI_Comm comm, int *flag)
{
    OM_COMM_ARG(c, comm, "MPI_Comm_test_inter");
    if (!flag)
        return om_comm_error(comm, MPI_ERR_ARG, "MPI_Comm_test_inter", "flag is NULL");
    *flag = c->remote != NULL;
    return MPI_SUCCESS;
}
OM_ALIAS(Comm_test_inter)

/* The remote group: an intercommunicator's alone (MPI makes these calls
 * erroneous on an intracommunicator). */
static int remote_of(MPI_Comm comm, const void *out, struct MPI_ABI_Group **g,
                     const char *func)
{
    OM_COMM_ARG(c, comm, func);
    if (!out)
        return om_comm_error(comm, MPI_ERR_ARG, func, "a NULL argument");
    if (!c->remote)
        return om_comm_error(comm, MPI_ERR_COMM, func,
                             "an intracommunicator: it has no remote group");
    *g = c->remote;
    return MPI_SUCCESS;
}

int PMPI_Comm_remote_size(MPI_Comm comm, int *size)
{
    struct MPI_ABI_Group *g = NULL;
    int rc = remote_of(comm, size, &g, "MPI_Comm_remote_size");
    if (rc == MPI_SUCCESS)
        *size = g->size;
    return rc;
}
OM_ALIAS(Comm_remote_size)

int PMPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group)
{
    struct MPI_ABI_Group *g = NULL;
    int rc = remote_of(comm, group, &g, "MPI_Comm_remote_group");
    if (rc == MPI_SUCCESS) {
        g->refs++;
        *group = g;
    }
    return rc;
}
OM_ALIAS(Comm_remote_group)

int PMPI_Comm_group(MPI_Comm comm, MPI_Group *group)
{
    OM_COMM_ARG(c, comm, "MPI_Comm_group");
    if (!group)
        return om_comm_error(comm, MPI_ERR_ARG, "MPI_Comm_group", "group is NULL");
    c->group->refs++;
    *group = c->group;
    return MPI_SUCCESS;
}
OM_ALIAS(Comm_group)

int PMPI_Comm_set_name(MPI_Comm comm, const char *comm_name)
{
    OM_COMM_ARG(c, comm, "MPI_Comm_set_name");
    if (!comm_name)
        return om_comm_error(comm, MPI_ERR_ARG, "MPI_Comm_set_name", "the name is NULL");
    snprintf(c->name, sizeof(c->name), "%s", comm_name);
    return MPI_SUCCESS;
}
OM_ALIAS(Comm_set_name)

int PMPI_Comm_get_name(MPI_Comm comm, char *comm_name, int *resultlen)
{
    if (comm == MPI_COMM_NULL && comm_name && resultlen)   /* a predefined handle's name */
        return om_null_name("MPI_COMM_NULL", comm_name, resultlen);
    OM_COMM_ARG(c, comm, "MPI_Comm_get_name");
    if (!comm_name || !resultlen)
        return om_comm_error(comm, MPI_ERR_ARG, "MPI_Comm_get_name", "a NULL argument");
    strcpy(comm_name, c->name);
    *resultlen = (int)strlen(c->name);
    return MPI_SUCCESS;
}
OM_ALIAS(Comm_get_name)

int PMPI_Comm_set_info(MPI_Comm comm, MPI_Info info)
{
    OM_COMM_ARG(c, comm, "MPI_Comm_set_info");
    /* ordo fixes a context's matching order when it is made: a hint
     * given later is recorded (MPI_Comm_get_info shows it) but changes
     * nothing; give it to MPI_Comm_dup_with_info to have it apply. */
    MPI_Info copy = MPI_INFO_NULL;
    int rc = om_info_dup_of(info, &copy);
    if (rc != MPI_SUCCESS)
        return om_comm_error(comm, rc, "MPI_Comm_set_info", "not an info object");
    om_info_release(c->info);
    c->info = copy;
    return MPI_SUCCESS;
}
OM_ALIAS(Comm_set_info)

int PMPI_Info_create(MPI_Info *info);
int PMPI_Info_set(MPI_Info info, const char *key, const char *value);

int PMPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used)
{
    OM_COMM_ARG(c, comm, "MPI_Comm_get_info");
    if (!info_used)
        return om_comm_error(comm, MPI_ERR_ARG, "MPI_Comm_get_info", "info_used is NULL");
    int rc = c->info != MPI_INFO_NULL ? om_info_dup_of(c->info, info_used)
                                      : PMPI_Info_create(info_used);
    if (rc == MPI_SUCCESS)
        PMPI_Info_set(*info_used, "mpi_assert_allow_overtaking",
                      c->overtaking ? "true" : "false");
    return rc;
}
OM_ALIAS(Comm_get_info)

/* ordo starts no processes dynamically: nobody has a parent. */
int PMPI_Comm_get_parent(MPI_Comm *parent)
{
    if (!parent)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Comm_get_parent",
                             "parent is NULL");
    *parent = MPI_COMM_NULL;
    return MPI_SUCCESS;
}
OM_ALIAS(Comm_get_parent)
