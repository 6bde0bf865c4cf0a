/* MPI on ordo: attributes cached on communicators, and the predefined
 * ones (MPI_TAG_UB and the others every MPI_COMM_WORLD carries). */
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"

typedef struct keyval {
    int                            id;
    MPI_Comm_copy_attr_function   *copy;
    MPI_Comm_delete_attr_function *del;
    void                          *extra;
    struct keyval                 *next;
} keyval_t;

static keyval_t *keyvals;

static keyval_t *keyval_find(int id)
{
    for (keyval_t *k = keyvals; k; k = k->next)
        if (k->id == id)
            return k;
    return NULL;
}

/* The values the predefined keys point to (attribute values are
 * pointers to an int for these). */
static int tag_ub = ORDO_TAG_MAX, host_val = MPI_PROC_NULL, io_val = MPI_ANY_SOURCE;
static int wtime_global = 0, appnum = 0, universe, lastused;

static int predefined(int keyval, void *out)
{
    void *p = NULL;
    switch (keyval) {
    case MPI_TAG_UB:          p = &tag_ub; break;
    case MPI_HOST:            p = &host_val; break;
    case MPI_IO:              p = &io_val; break;
    case MPI_WTIME_IS_GLOBAL: p = &wtime_global; break;
    case MPI_APPNUM:          p = &appnum; break;
    case MPI_UNIVERSE_SIZE:   universe = om_g.world_size; p = &universe; break;
    case MPI_LASTUSEDCODE:    lastused = om_g.last_error_class; p = &lastused; break;
    default:                  return 0;
    }
    memcpy(out, &p, sizeof(p));
    return 1;
}

int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function *copy_fn,
                            MPI_Comm_delete_attr_function *delete_fn, int *comm_keyval,
                            void *extra_state)
{
    if (!comm_keyval)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Comm_create_keyval",
                             "comm_keyval is NULL");
    keyval_t *k = calloc(1, sizeof(*k));
    if (!k)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_NO_MEM, "MPI_Comm_create_keyval",
                             "no memory");
    k->id = ++om_g.next_keyval;
    k->copy = copy_fn;
    k->del = delete_fn;
    k->extra = extra_state;
    k->next = keyvals;
    keyvals = k;
    *comm_keyval = k->id;
    return MPI_SUCCESS;
}
OM_ALIAS(Comm_create_keyval)

int PMPI_Comm_free_keyval(int *comm_keyval)
{
    if (!comm_keyval || !keyval_find(*comm_keyval))
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_KEYVAL, "MPI_Comm_free_keyval",
                             "not a key made by MPI_Comm_create_keyval");
    /* the key stays known while attributes use it: MPI lets them outlive
     * the handle */
    *comm_keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}
OM_ALIAS(Comm_free_keyval)

static int attr_delete(struct MPI_ABI_Comm *c, MPI_Comm comm, om_attr_t **link)
{
    om_attr_t *a = *link;
    keyval_t *k = keyval_find(a->keyval);
    if (k && k->del && (uintptr_t)k->del > 1) {
        int rc = k->del(comm, a->keyval, a->value, k->extra);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    (void)c;
    *link = a->next;
    free(a);
    return MPI_SUCCESS;
}

int PMPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void *attribute_val)
{
    struct MPI_ABI_Comm *c = om_comm(comm);
    if (!c)
        return om_comm_error(comm, MPI_ERR_COMM, "MPI_Comm_set_attr", "not a communicator");
    if (!keyval_find(comm_keyval))
        return om_comm_error(comm, MPI_ERR_KEYVAL, "MPI_Comm_set_attr",
                             "key %d is not one the program made", comm_keyval);
    for (om_attr_t **l = &c->attrs; *l; l = &(*l)->next)
        if ((*l)->keyval == comm_keyval) {
            int rc = attr_delete(c, comm, l);
            if (rc != MPI_SUCCESS)
                return om_comm_error(comm, rc, "MPI_Comm_set_attr",
                                     "the delete callback failed");
            break;
        }
    om_attr_t *a = calloc(1, sizeof(*a));
    if (!a)
        return om_comm_error(comm, MPI_ERR_NO_MEM, "MPI_Comm_set_attr", "no memory");
    a->keyval = comm_keyval;
    a->value = attribute_val;
    a->next = c->attrs;
    c->attrs = a;
    return MPI_SUCCESS;
}
OM_ALIAS(Comm_set_attr)

int PMPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag)
{
    struct MPI_ABI_Comm *c = om_comm(comm);
    if (!c)
        return om_comm_error(comm, MPI_ERR_COMM, "MPI_Comm_get_attr", "not a communicator");
    if (!attribute_val || !flag)
        return om_comm_error(comm, MPI_ERR_ARG, "MPI_Comm_get_attr", "a NULL argument");
    *flag = 0;
    if (predefined(comm_keyval, attribute_val)) {
        *flag = 1;
        return MPI_SUCCESS;
    }
    if (!keyval_find(comm_keyval))
        return om_comm_error(comm, MPI_ERR_KEYVAL, "MPI_Comm_get_attr",
                             "key %d is not known", comm_keyval);
    for (om_attr_t *a = c->attrs; a; a = a->next)
        if (a->keyval == comm_keyval) {
            memcpy(attribute_val, &a->value, sizeof(a->value));
            *flag = 1;
        }
    return MPI_SUCCESS;
}
OM_ALIAS(Comm_get_attr)

int PMPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval)
{
    struct MPI_ABI_Comm *c = om_comm(comm);
    if (!c)
        return om_comm_error(comm, MPI_ERR_COMM, "MPI_Comm_delete_attr",
                             "not a communicator");
    for (om_attr_t **l = &c->attrs; *l; l = &(*l)->next)
        if ((*l)->keyval == comm_keyval) {
            int rc = attr_delete(c, comm, l);
            return rc == MPI_SUCCESS ? rc
                                     : om_comm_error(comm, rc, "MPI_Comm_delete_attr",
                                                     "the delete callback failed");
        }
    return om_comm_error(comm, MPI_ERR_KEYVAL, "MPI_Comm_delete_attr",
                         "no attribute with key %d", comm_keyval);
}
OM_ALIAS(Comm_delete_attr)

/* MPI_Comm_dup: each attribute whose key has a copy callback is offered
 * to it (MPI_COMM_DUP_FN, the constant 1, copies the value). */
int om_attrs_copy(struct MPI_ABI_Comm *from, MPI_Comm to)
{
    for (om_attr_t *a = from->attrs; a; a = a->next) {
        keyval_t *k = keyval_find(a->keyval);
        if (!k || !k->copy)
            continue;
        void *out = NULL;
        int flag = 0;
        if ((uintptr_t)k->copy == 1) {
            out = a->value;
            flag = 1;
        } else {
            int rc = k->copy(from == &om_comm_world ? MPI_COMM_WORLD
                             : from == &om_comm_self ? MPI_COMM_SELF
                                                     : (MPI_Comm)from,
                             a->keyval, k->extra, a->value, &out, &flag);
            if (rc != MPI_SUCCESS)
                return om_comm_error(to, rc, "MPI_Comm_dup", "an attribute copy failed");
        }
        if (flag) {
            om_attr_t *n = calloc(1, sizeof(*n));
            if (!n)
                return om_comm_error(to, MPI_ERR_NO_MEM, "MPI_Comm_dup", "no memory");
            n->keyval = a->keyval;
            n->value = out;
            n->next = to->attrs;
            to->attrs = n;
        }
    }
    return MPI_SUCCESS;
}

void om_attrs_free(struct MPI_ABI_Comm *c)
{
    MPI_Comm h = c == &om_comm_world ? MPI_COMM_WORLD
                 : c == &om_comm_self ? MPI_COMM_SELF : (MPI_Comm)c;
    while (c->attrs)
        if (attr_delete(c, h, &c->attrs) != MPI_SUCCESS) {
            om_attr_t *a = c->attrs;   /* its callback refused: dropped anyway */
            c->attrs = a->next;
            free(a);
        }
}
