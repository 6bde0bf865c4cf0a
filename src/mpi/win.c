/* MPI on ordo: windows (ordo regions with MPI's synchronisation epochs)
 * and their synchronisation calls; the operations are in rma.c.
 *
 * A window is one ordo region created with ORDO_REGION_EPOCHS, so fence,
 * post / start / complete / wait and the locks are ordo's epoch calls, and
 * two ordo streams: puts and gets go on a relaxed one (MPI orders none of
 * them), accumulates on a default-mode one, which keeps atomics in order
 * among themselves as MPI's default accumulate_ordering asks, or on the
 * relaxed one when the window's info says accumulate_ordering=none.
 * ordo regions span every rank of the job: a window's communicator must
 * hold them all (any order); a window over fewer ranks is refused with
 * MPI_ERR_UNSUPPORTED_OPERATION. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"

static int win_error(MPI_Win win, int code, const char *func, const char *what)
{
    return om_raise(OM_ON_WIN, (void *)win, code, func, "%s", what);
}

int om_win_failed(MPI_Win win, ordo_status_t st, const char *func)
{
    return om_raise(OM_ON_WIN, (void *)win, om_class_of(st), func, "%s",
                    ordo_status_string(st));
}

/* What the window's info asks: accumulate_ordering=none puts accumulates
 * on the relaxed stream (any other value keeps the default stream, which
 * gives all four orderings: none of them alone is cheaper there). */
static int relaxed_accumulates(MPI_Info info)
{
    const char *v = om_info_lookup(info, "accumulate_ordering");
    return v && strcmp(v, "none") == 0;
}

/* same_disp_unit=true: every rank passes the same disp_unit (and the same
 * hint, as the standard requires), so the units need no exchange. */
static int same_disp_unit(MPI_Info info)
{
    const char *v = om_info_lookup(info, "same_disp_unit");
    return v && strcmp(v, "true") == 0;
}

enum { W_CREATE, W_ALLOCATE, W_SHARED, W_DYNAMIC };

static int win_make(int kind, void *base, MPI_Aint size, int disp_unit, MPI_Info info,
                    MPI_Comm comm, void *baseptr, MPI_Win *win, const char *func)
{
    OM_COMM_ARG(c, comm, func);
    if (om_intra_only(c, comm, func))
        return MPI_ERR_COMM;
    if (!win || (kind != W_CREATE && kind != W_DYNAMIC && !baseptr))
        return om_comm_error(comm, MPI_ERR_ARG, func, "%s is NULL", win ? "baseptr" : "win");
    if (size < 0)
        return om_comm_error(comm, MPI_ERR_SIZE, func, "size %ld", (long)size);
    if (disp_unit <= 0)
        return om_comm_error(comm, MPI_ERR_DISP, func, "disp_unit %d (it is > 0)", disp_unit);
    if (info != MPI_INFO_NULL && !om_info(info))
        return om_comm_error(comm, MPI_ERR_INFO, func, "not an info object");
    struct MPI_ABI_Win *w = calloc(1, sizeof(*w));
    int *units = calloc((size_t)c->group->size, sizeof(int));
    if (!w || !units) {
        free(w);
        free(units);
        return om_comm_error(comm, MPI_ERR_NO_MEM, func, "no memory");
    }
    /* every rank's displacement unit, in the communicator's rank order,
     * and for memory the library allocates (rounded up to whole words,
     * below) every rank's size as the program asked it */
    ordo_status_t st = ORDO_OK;
    int allocated = kind == W_ALLOCATE || kind == W_SHARED;
    MPI_Aint *sizes = allocated ? calloc((size_t)c->group->size, sizeof(MPI_Aint)) : NULL;
    if (allocated && !sizes) {
        free(w);
        free(units);
        return om_comm_error(comm, MPI_ERR_NO_MEM, func, "no memory");
    }
    if (allocated) {
        struct { int64_t size; int32_t unit, pad; } mine = {size, disp_unit, 0},
            *all = calloc((size_t)c->group->size, sizeof(mine));
        st = all ? ordo_coll_allgather(c->oc, &mine, sizeof(mine), all) : ORDO_ERR_NO_MEMORY;
        for (int i = 0; all && st == ORDO_OK && i < c->group->size; i++) {
            units[i] = all[i].unit;
            sizes[i] = (MPI_Aint)all[i].size;
        }
        free(all);
    } else if (kind == W_DYNAMIC || same_disp_unit(info)) {   /* dynamic: units of 1 */
        for (int i = 0; i < c->group->size; i++)
            units[i] = disp_unit;
    } else {
        st = ordo_coll_allgather(c->oc, &disp_unit, sizeof(int), units);
    }
    unsigned flags = ORDO_REGION_EPOCHS;
    void *mem = base;
    if (st == ORDO_OK) {
        switch (kind) {
        case W_CREATE:
            /* mapped: peers of the node reach it by load / store and atomics */
            st = ordo_region_create_on(c->oc, base, (size_t)size,
                                       flags | ORDO_REGION_CREATE_MAPPED, &w->region);
            break;
        case W_DYNAMIC:
            st = ordo_region_create_dynamic_on(c->oc, flags | ORDO_REGION_CREATE_MAPPED,
                                               &w->region);
            break;
        default:
            /* whole 8-byte words: an accumulate on a narrower element works
             * on the word that holds it, which must lie in the region */
            st = ordo_region_alloc_on(c->oc, ((size_t)size + 7) & ~(size_t)7, flags,
                                      &w->region, &mem);
            break;
        }
    }
    ordo_stream_params_t relaxed = {.field_mask = ORDO_STREAM_FIELD_ORDER,
                                    .order = ORDO_ORDER_RELAXED};
    ordo_stream_params_t ordered = {.field_mask = ORDO_STREAM_FIELD_ORDER,
                                    .order = ORDO_ORDER_DEFAULT};
    if (st == ORDO_OK)
        st = ordo_stream_create(&relaxed, &w->data);
    w->acc_relaxed = relaxed_accumulates(info);
    if (st == ORDO_OK && !w->acc_relaxed)
        st = ordo_stream_create(&ordered, &w->acc);
    if (st != ORDO_OK) {
        if (w->data)
            ordo_stream_destroy(w->data);
        if (w->region)
            ordo_region_free(w->region);
        free(units);
        free(sizes);
        free(w);
        return om_comm_failed(comm, st, func);
    }
    if (w->acc_relaxed)
        w->acc = w->data;
    w->magic = OM_MAGIC_WIN;
    w->comm = comm;
    w->group = c->group;
    c->group->refs++;
    w->base = kind == W_DYNAMIC ? NULL : mem;
    w->size = kind == W_DYNAMIC ? 0 : size;
    w->disp_unit = kind == W_DYNAMIC ? 1 : disp_unit;
    w->units = units;
    w->sizes = sizes;
    w->flavor = kind == W_CREATE     ? MPI_WIN_FLAVOR_CREATE
                : kind == W_ALLOCATE ? MPI_WIN_FLAVOR_ALLOCATE
                : kind == W_SHARED   ? MPI_WIN_FLAVOR_SHARED
                                     : MPI_WIN_FLAVOR_DYNAMIC;
    if (kind != W_DYNAMIC) {   /* without them, puts and gets go through ordo alone */
        w->direct = calloc((size_t)c->group->size, sizeof(*w->direct));
        w->locked = calloc((size_t)c->group->size, 1);
    }
    w->model = MPI_WIN_UNIFIED;
    w->errh = MPI_ERRORS_ARE_FATAL;
    om_info_dup_of(info, &w->info);
    if (kind == W_ALLOCATE || kind == W_SHARED)
        memcpy(baseptr, &mem, sizeof(mem));
    *win = w;
    return MPI_SUCCESS;
}

int PMPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                    MPI_Win *win)
{
    return win_make(W_CREATE, base, size, disp_unit, info, comm, NULL, win, "MPI_Win_create");
}
OM_ALIAS(Win_create)

int PMPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                      void *baseptr, MPI_Win *win)
{
    return win_make(W_ALLOCATE, NULL, size, disp_unit, info, comm, baseptr, win,
                    "MPI_Win_allocate");
}
OM_ALIAS(Win_allocate)

int PMPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                             void *baseptr, MPI_Win *win)
{
    int rc = win_make(W_SHARED, NULL, size, disp_unit, info, comm, baseptr, win,
                      "MPI_Win_allocate_shared");
    if (rc != MPI_SUCCESS)
        return rc;
    /* every rank's memory must be mapped here: ranks of one node.  Agreed
     * (the lowest verdict), so that every rank frees the window together
     * when one cannot map another's memory: a free is collective. */
    struct MPI_ABI_Win *w = *win;
    int32_t unmapped = -1, first = -1;
    for (int i = 0; i < w->group->size && unmapped < 0; i++) {
        void *p = NULL;
        size_t sz = 0;
        ordo_region_size(w->region, w->group->ranks[i], &sz);
        if (sz && ordo_region_ptr(w->region, w->group->ranks[i], &p) != ORDO_OK)
            unmapped = i;
    }
    int32_t mine = unmapped < 0 ? INT32_MAX : unmapped;
    struct MPI_ABI_Comm *c = om_comm(comm);
    if (!c || ordo_coll_allreduce(c->oc, &mine, &first, 1, ORDO_DT_INT32, ORDO_REDUCE_MIN) !=
                  ORDO_OK)
        first = mine == INT32_MAX ? 0 : mine;   /* cannot agree: say what this rank saw */
    if (first == INT32_MAX)
        return MPI_SUCCESS;
    PMPI_Win_free(win);
    return om_comm_error(comm, MPI_ERR_RMA_SHARED, "MPI_Win_allocate_shared",
                         "rank %d's memory cannot be mapped by every rank (another node?)",
                         (int)first);
}
OM_ALIAS(Win_allocate_shared)

/* the large-count forms: a displacement unit as an MPI_Aint */
static int unit_of(MPI_Aint disp_unit, MPI_Comm comm, const char *func, int *unit)
{
    if (disp_unit <= 0 || disp_unit > INT32_MAX)
        return om_comm_error(comm, MPI_ERR_DISP, func, "disp_unit %ld", (long)disp_unit);
    *unit = (int)disp_unit;
    return MPI_SUCCESS;
}

int PMPI_Win_create_c(void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
                      MPI_Comm comm, MPI_Win *win)
{
    int unit = 1, rc = unit_of(disp_unit, comm, "MPI_Win_create_c", &unit);
    return rc ? rc : win_make(W_CREATE, base, size, unit, info, comm, NULL, win,
                              "MPI_Win_create_c");
}
OM_ALIAS(Win_create_c)

int PMPI_Win_allocate_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                        void *baseptr, MPI_Win *win)
{
    int unit = 1, rc = unit_of(disp_unit, comm, "MPI_Win_allocate_c", &unit);
    return rc ? rc : win_make(W_ALLOCATE, NULL, size, unit, info, comm, baseptr, win,
                              "MPI_Win_allocate_c");
}
OM_ALIAS(Win_allocate_c)

int PMPI_Win_allocate_shared_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
                               MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    int unit = 1, rc = unit_of(disp_unit, comm, "MPI_Win_allocate_shared_c", &unit);
    return rc ? rc : PMPI_Win_allocate_shared(size, unit, info, comm, baseptr, win);
}
OM_ALIAS(Win_allocate_shared_c)

int PMPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    return win_make(W_DYNAMIC, NULL, 0, 1, info, comm, NULL, win, "MPI_Win_create_dynamic");
}
OM_ALIAS(Win_create_dynamic)

int PMPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size, int *disp_unit,
                          void *baseptr)
{
    OM_WIN_ARG(w, win, "MPI_Win_shared_query");
    if (!size || !disp_unit || !baseptr)
        return win_error(win, MPI_ERR_ARG, "MPI_Win_shared_query", "a NULL argument");
    if (rank != MPI_PROC_NULL && (rank < 0 || rank >= w->group->size))
        return win_error(win, MPI_ERR_RANK, "MPI_Win_shared_query", "no such rank");
    int r = rank;
    if (rank == MPI_PROC_NULL) {   /* the lowest rank with memory */
        r = 0;
        for (int i = 0; i < w->group->size; i++) {
            size_t sz = 0;
            ordo_region_size(w->region, w->group->ranks[i], &sz);
            if (w->sizes ? w->sizes[i] > 0 : sz > 0) {
                r = i;
                break;
            }
        }
    }
    size_t sz = 0;
    void *p = NULL;
    ordo_region_size(w->region, w->group->ranks[r], &sz);
    if (sz && ordo_region_ptr(w->region, w->group->ranks[r], &p) != ORDO_OK)
        return win_error(win, MPI_ERR_RMA_SHARED, "MPI_Win_shared_query",
                         "that rank's memory is not mapped here");
    *size = w->sizes ? w->sizes[r] : (MPI_Aint)sz;   /* as asked, not as rounded */
    *disp_unit = w->units[r];
    memcpy(baseptr, &p, sizeof(p));
    return MPI_SUCCESS;
}
OM_ALIAS(Win_shared_query)

int PMPI_Win_shared_query_c(MPI_Win win, int rank, MPI_Aint *size, MPI_Aint *disp_unit,
                            void *baseptr)
{
    int unit = 0;
    int rc = PMPI_Win_shared_query(win, rank, size, disp_unit ? &unit : NULL, baseptr);
    if (rc == MPI_SUCCESS)
        *disp_unit = unit;
    return rc;
}
OM_ALIAS(Win_shared_query_c)

int PMPI_Win_attach(MPI_Win win, void *base, MPI_Aint size)
{
    OM_WIN_ARG(w, win, "MPI_Win_attach");
    if (w->flavor != MPI_WIN_FLAVOR_DYNAMIC)
        return win_error(win, MPI_ERR_RMA_FLAVOR, "MPI_Win_attach", "not a dynamic window");
    if (size < 0)
        return win_error(win, MPI_ERR_SIZE, "MPI_Win_attach", "a negative size");
    ordo_status_t st = ordo_region_attach(w->region, base, (size_t)size);
    if (st != ORDO_OK)
        return om_raise(OM_ON_WIN, (void *)win,
                        st == ORDO_ERR_INVALID_PARAM ? MPI_ERR_RMA_ATTACH : om_class_of(st),
                        "MPI_Win_attach", "%s", ordo_status_string(st));
    return MPI_SUCCESS;
}
OM_ALIAS(Win_attach)

int PMPI_Win_detach(MPI_Win win, const void *base)
{
    OM_WIN_ARG(w, win, "MPI_Win_detach");
    if (w->flavor != MPI_WIN_FLAVOR_DYNAMIC)
        return win_error(win, MPI_ERR_RMA_FLAVOR, "MPI_Win_detach", "not a dynamic window");
    ordo_status_t st = ordo_region_detach(w->region, (void *)base);
    if (st != ORDO_OK)
        return om_raise(OM_ON_WIN, (void *)win,
                        st == ORDO_ERR_INVALID_PARAM ? MPI_ERR_RMA_ATTACH : om_class_of(st),
                        "MPI_Win_detach", "%s", ordo_status_string(st));
    return MPI_SUCCESS;
}
OM_ALIAS(Win_detach)

int PMPI_Win_free(MPI_Win *win)
{
    struct MPI_ABI_Win *w = win ? om_win(*win) : NULL;
    if (!om_ready("MPI_Win_free"))
        return MPI_ERR_OTHER;
    if (!w)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_WIN, "MPI_Win_free", "not a window");
    int rc = om_win_attrs_free(*win, w);   /* the callbacks see a window still there */
    if (rc != MPI_SUCCESS)
        return win_error(*win, rc, "MPI_Win_free", "an attribute's delete callback failed");
    ordo_status_t st = ordo_region_free(w->region);
    if (st != ORDO_OK)
        return om_win_failed(*win, st, "MPI_Win_free");
    if (w->acc != w->data)
        ordo_stream_destroy(w->acc);
    ordo_stream_destroy(w->data);
    for (int i = 0; w->direct && i < w->group->size; i++)
        om_g.direct_pins -= w->direct[i].base != NULL;   /* unmapped with the region */
    om_group_release(w->group);
    om_errh_release(w->errh);
    om_info_release(w->info);
    free(w->units);
    free(w->sizes);
    free(w->direct);
    free(w->locked);
    w->magic = OM_MAGIC_DEAD;
    free(w);
    *win = MPI_WIN_NULL;
    return MPI_SUCCESS;
}
OM_ALIAS(Win_free)

/* ---------------------------------------------------------- information */

int PMPI_Win_get_group(MPI_Win win, MPI_Group *group)
{
    OM_WIN_ARG(w, win, "MPI_Win_get_group");
    if (!group)
        return win_error(win, MPI_ERR_ARG, "MPI_Win_get_group", "group is NULL");
    w->group->refs++;
    *group = w->group;
    return MPI_SUCCESS;
}
OM_ALIAS(Win_get_group)

int PMPI_Win_get_attr(MPI_Win win, int keyval, void *attribute_val, int *flag)
{
    OM_WIN_ARG(w, win, "MPI_Win_get_attr");
    if (!attribute_val || !flag)
        return win_error(win, MPI_ERR_ARG, "MPI_Win_get_attr", "a NULL argument");
    /* the values are pointers: to the base itself for MPI_WIN_BASE, to
     * integers kept in the window for the others */
    void *p;
    switch (keyval) {
    case MPI_WIN_BASE:          p = w->base; break;
    case MPI_WIN_SIZE:          p = &w->size; break;
    case MPI_WIN_DISP_UNIT:     p = &w->disp_unit; break;
    case MPI_WIN_CREATE_FLAVOR: p = &w->flavor; break;
    case MPI_WIN_MODEL:         p = &w->model; break;
    default:
        return om_win_attr_get(win, w, keyval, attribute_val, flag);
    }
    memcpy(attribute_val, &p, sizeof(p));
    *flag = 1;
    return MPI_SUCCESS;
}
OM_ALIAS(Win_get_attr)

int PMPI_Win_set_info(MPI_Win win, MPI_Info info)
{
    OM_WIN_ARG(w, win, "MPI_Win_set_info");
    /* the streams are chosen at creation: later hints are kept and shown,
     * and change nothing */
    MPI_Info copy = MPI_INFO_NULL;
    if (om_info_dup_of(info, &copy) != MPI_SUCCESS)
        return win_error(win, MPI_ERR_INFO, "MPI_Win_set_info", "not an info object");
    om_info_release(w->info);
    w->info = copy;
    return MPI_SUCCESS;
}
OM_ALIAS(Win_set_info)

int PMPI_Info_create(MPI_Info *info);
int PMPI_Info_set(MPI_Info info, const char *key, const char *value);

int PMPI_Win_get_info(MPI_Win win, MPI_Info *info_used)
{
    OM_WIN_ARG(w, win, "MPI_Win_get_info");
    if (!info_used)
        return win_error(win, MPI_ERR_ARG, "MPI_Win_get_info", "info_used is NULL");
    int rc = w->info != MPI_INFO_NULL ? om_info_dup_of(w->info, info_used)
                                      : PMPI_Info_create(info_used);
    if (rc == MPI_SUCCESS)
        PMPI_Info_set(*info_used, "accumulate_ordering",
                      w->acc_relaxed ? "none" : "rar,raw,war,waw");
    return rc;
}
OM_ALIAS(Win_get_info)

int PMPI_Win_set_name(MPI_Win win, const char *win_name)
{
    OM_WIN_ARG(w, win, "MPI_Win_set_name");
    if (!win_name)
        return win_error(win, MPI_ERR_ARG, "MPI_Win_set_name", "the name is NULL");
    strncpy(w->name, win_name, sizeof(w->name) - 1);
    return MPI_SUCCESS;
}
OM_ALIAS(Win_set_name)

int PMPI_Win_get_name(MPI_Win win, char *win_name, int *resultlen)
{
    if (win == MPI_WIN_NULL && win_name && resultlen && om_ready("MPI_Win_get_name"))
        return om_null_name("MPI_WIN_NULL", win_name, resultlen);
    OM_WIN_ARG(w, win, "MPI_Win_get_name");
    if (!win_name || !resultlen)
        return win_error(win, MPI_ERR_ARG, "MPI_Win_get_name", "a NULL argument");
    strcpy(win_name, w->name);
    *resultlen = (int)strlen(w->name);
    return MPI_SUCCESS;
}
OM_ALIAS(Win_get_name)

int PMPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler)
{
    OM_WIN_ARG(w, win, "MPI_Win_set_errhandler");
    if (om_errh_set(&w->errh, errhandler, 2) != MPI_SUCCESS)
        return win_error(win, MPI_ERR_ARG, "MPI_Win_set_errhandler",
                         "not a window error handler");
    return MPI_SUCCESS;
}
OM_ALIAS(Win_set_errhandler)

int PMPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler)
{
    OM_WIN_ARG(w, win, "MPI_Win_get_errhandler");
    if (!errhandler)
        return win_error(win, MPI_ERR_ARG, "MPI_Win_get_errhandler", "errhandler is NULL");
    om_errh_retain(w->errh);
    *errhandler = w->errh;
    return MPI_SUCCESS;
}
OM_ALIAS(Win_get_errhandler)

/* -------------------------------------------------------- synchronisation */

static unsigned asserts_of(int mpi_assert)
{
    unsigned a = 0;
    if (mpi_assert & MPI_MODE_NOPRECEDE)
        a |= ORDO_ASSERT_NOPRECEDE;
    if (mpi_assert & MPI_MODE_NOSUCCEED)
        a |= ORDO_ASSERT_NOSUCCEED;
    if (mpi_assert & MPI_MODE_NOSTORE)
        a |= ORDO_ASSERT_NOSTORE;
    if (mpi_assert & MPI_MODE_NOPUT)
        a |= ORDO_ASSERT_NOPUT;
    if (mpi_assert & MPI_MODE_NOCHECK)
        a |= ORDO_ASSERT_NOCHECK;
    return a;
}

static int assert_ok(int mpi_assert)
{
    return (mpi_assert & ~(MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED | MPI_MODE_NOSTORE |
                           MPI_MODE_NOPUT | MPI_MODE_NOCHECK)) == 0;
}

static int sync_done(MPI_Win win, ordo_status_t st, const char *func)
{
    return st == ORDO_OK ? MPI_SUCCESS : om_win_failed(win, st, func);
}

/* What ordo completed: every operation of the window, none left pending
 * (flush_direct) */
static int all_done(MPI_Win win, ordo_status_t st, const char *func)
{
    if (st == ORDO_OK)
        om_win(win)->through_ordo = 0;
    return sync_done(win, st, func);
}

int PMPI_Win_fence(int mpi_assert, MPI_Win win)
{
    OM_WIN_ARG(w, win, "MPI_Win_fence");
    if (!assert_ok(mpi_assert))
        return win_error(win, MPI_ERR_ASSERT, "MPI_Win_fence", "unknown assert bits");
    return all_done(win, ordo_epoch_fence(w->region, asserts_of(mpi_assert)), "MPI_Win_fence");
}
OM_ALIAS(Win_fence)

/* The world ranks of a group's members, all in the window's group. */
static int group_ranks(struct MPI_ABI_Win *w, MPI_Group group, int **out, int *n)
{
    struct MPI_ABI_Group *g = om_group(group);
    if (!g)
        return MPI_ERR_GROUP;
    *n = g->size;
    *out = malloc(sizeof(int) * (size_t)(g->size ? g->size : 1));
    if (!*out)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < g->size; i++)
        (*out)[i] = g->ranks[i];
    (void)w;
    return MPI_SUCCESS;
}

static int post_start(MPI_Group group, int mpi_assert, MPI_Win win, int post, const char *func)
{
    OM_WIN_ARG(w, win, func);
    if (!assert_ok(mpi_assert))
        return win_error(win, MPI_ERR_ASSERT, func, "unknown assert bits");
    int *ranks = NULL, n = 0;
    int rc = group_ranks(w, group, &ranks, &n);
    if (rc != MPI_SUCCESS)
        return win_error(win, rc, func, rc == MPI_ERR_GROUP ? "not a group" : "no memory");
    ordo_status_t st = post ? ordo_epoch_post(w->region, n, ranks, asserts_of(mpi_assert))
                            : ordo_epoch_start(w->region, n, ranks, asserts_of(mpi_assert));
    free(ranks);
    return sync_done(win, st, func);
}

int PMPI_Win_post(MPI_Group group, int mpi_assert, MPI_Win win)
{
    return post_start(group, mpi_assert, win, 1, "MPI_Win_post");
}
OM_ALIAS(Win_post)

int PMPI_Win_start(MPI_Group group, int mpi_assert, MPI_Win win)
{
    return post_start(group, mpi_assert, win, 0, "MPI_Win_start");
}
OM_ALIAS(Win_start)

int PMPI_Win_complete(MPI_Win win)
{
    OM_WIN_ARG(w, win, "MPI_Win_complete");
    return sync_done(win, ordo_epoch_complete(w->region), "MPI_Win_complete");
}
OM_ALIAS(Win_complete)

int PMPI_Win_wait(MPI_Win win)
{
    OM_WIN_ARG(w, win, "MPI_Win_wait");
    return sync_done(win, ordo_epoch_wait(w->region), "MPI_Win_wait");
}
OM_ALIAS(Win_wait)

int PMPI_Win_test(MPI_Win win, int *flag)
{
    OM_WIN_ARG(w, win, "MPI_Win_test");
    if (!flag)
        return win_error(win, MPI_ERR_ARG, "MPI_Win_test", "flag is NULL");
    return sync_done(win, ordo_epoch_test(w->region, flag), "MPI_Win_test");
}
OM_ALIAS(Win_test)

static int target_of(struct MPI_ABI_Win *w, int rank)
{
    return rank == MPI_PROC_NULL ? ORDO_PROC_NULL
           : rank >= 0 && rank < w->group->size ? w->group->ranks[rank]
                                                 : -100;
}

int PMPI_Win_lock(int lock_type, int rank, int mpi_assert, MPI_Win win)
{
    OM_WIN_ARG(w, win, "MPI_Win_lock");
    if (lock_type != MPI_LOCK_SHARED && lock_type != MPI_LOCK_EXCLUSIVE)
        return win_error(win, MPI_ERR_LOCKTYPE, "MPI_Win_lock", "not a lock type");
    int t = target_of(w, rank);
    if (t == -100)
        return win_error(win, MPI_ERR_RANK, "MPI_Win_lock", "no such rank");
    if (!assert_ok(mpi_assert))
        return win_error(win, MPI_ERR_ASSERT, "MPI_Win_lock", "unknown assert bits");
    ordo_status_t st = ordo_epoch_lock(
        w->region, lock_type == MPI_LOCK_SHARED ? ORDO_LOCK_SHARED : ORDO_LOCK_EXCLUSIVE, t,
        asserts_of(mpi_assert));
    if (st == ORDO_OK && t >= 0 && w->locked)
        w->locked[rank] = 1;
    return sync_done(win, st, "MPI_Win_lock");
}
OM_ALIAS(Win_lock)

int PMPI_Win_unlock(int rank, MPI_Win win)
{
    OM_WIN_ARG(w, win, "MPI_Win_unlock");
    int t = target_of(w, rank);
    if (t == -100)
        return win_error(win, MPI_ERR_RANK, "MPI_Win_unlock", "no such rank");
    if (t >= 0 && w->locked)
        w->locked[rank] = 0;
    return sync_done(win, ordo_epoch_unlock(w->region, t), "MPI_Win_unlock");
}
OM_ALIAS(Win_unlock)

int PMPI_Win_lock_all(int mpi_assert, MPI_Win win)
{
    OM_WIN_ARG(w, win, "MPI_Win_lock_all");
    if (!assert_ok(mpi_assert))
        return win_error(win, MPI_ERR_ASSERT, "MPI_Win_lock_all", "unknown assert bits");
    ordo_status_t st = ordo_epoch_lock_all(w->region, asserts_of(mpi_assert));
    if (st == ORDO_OK)
        w->lock_all = 1;
    return sync_done(win, st, "MPI_Win_lock_all");
}
OM_ALIAS(Win_lock_all)

int PMPI_Win_unlock_all(MPI_Win win)
{
    OM_WIN_ARG(w, win, "MPI_Win_unlock_all");
    w->lock_all = 0;
    return all_done(win, ordo_epoch_unlock_all(w->region), "MPI_Win_unlock_all");
}
OM_ALIAS(Win_unlock_all)

/* A flush of a window none of whose operations went through ordo since
 * ordo last completed them all (rma.c's direct puts and gets, complete on
 * issue), to a rank inside a lock or lock_all epoch (FLUSH_ALL: lock_all),
 * below MPI_THREAD_MULTIPLE: a full fence, for the stores to be seen before
 * what the program does next.  1: done. */
#define FLUSH_ALL (-1)
static inline int flush_direct(MPI_Win win, int rank)
{
    struct MPI_ABI_Win *w = om_win(win);
    if (!om_up() || !w || w->through_ordo || !w->locked ||
        om_g.thread_level == MPI_THREAD_MULTIPLE)
        return 0;
    if (rank == FLUSH_ALL ? !w->lock_all
                          : (unsigned)rank >= (unsigned)w->group->size ||
                                !(w->lock_all | w->locked[rank]))
        return 0;
    atomic_thread_fence(memory_order_seq_cst);
    return 1;
}

#define FLUSH(NAME, CALL)                                                         \
    int PMPI_Win_##NAME(int rank, MPI_Win win)                                    \
    {                                                                             \
        if (flush_direct(win, rank))                                              \
            return MPI_SUCCESS;                                                   \
        OM_WIN_ARG(w, win, "MPI_Win_" #NAME);                                     \
        int t = target_of(w, rank);                                               \
        if (t == -100)                                                            \
            return win_error(win, MPI_ERR_RANK, "MPI_Win_" #NAME, "no such rank"); \
        return sync_done(win, CALL(w->region, t), "MPI_Win_" #NAME);              \
    }                                                                             \
    OM_ALIAS(Win_##NAME)

FLUSH(flush, ordo_epoch_flush)
FLUSH(flush_local, ordo_epoch_flush_local)

int PMPI_Win_flush_all(MPI_Win win)
{
    if (flush_direct(win, FLUSH_ALL))
        return MPI_SUCCESS;
    OM_WIN_ARG(w, win, "MPI_Win_flush_all");
    return all_done(win, ordo_epoch_flush_all(w->region), "MPI_Win_flush_all");
}
OM_ALIAS(Win_flush_all)

int PMPI_Win_flush_local_all(MPI_Win win)
{
    if (flush_direct(win, FLUSH_ALL))
        return MPI_SUCCESS;
    OM_WIN_ARG(w, win, "MPI_Win_flush_local_all");
    return sync_done(win, ordo_epoch_flush_local_all(w->region), "MPI_Win_flush_local_all");
}
OM_ALIAS(Win_flush_local_all)

int PMPI_Win_sync(MPI_Win win)
{
    OM_WIN_ARG(w, win, "MPI_Win_sync");
    (void)w;
    /* the unified model: the public and private copies are one memory;
     * a full barrier orders this process's loads and stores around it */
    atomic_thread_fence(memory_order_seq_cst);
    return MPI_SUCCESS;
}
OM_ALIAS(Win_sync)
