/* MPI on ordo: attributes cached on communicators, and the predefined
 * ones (MPI_TAG_UB and the others every MPI_COMM_WORLD carries). */
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"

/* A key, of the kind of object it was made for (MPI: using it on
 * another kind is MPI_ERR_KEYVAL), with that kind's callbacks. */
enum { KV_COMM, KV_TYPE, KV_WIN };
static const char *const kind_name[] = {"communicator", "datatype", "window"};

typedef struct keyval {
    int   id, kind;
    union {
        MPI_Comm_copy_attr_function *comm;
        MPI_Type_copy_attr_function *type;
        MPI_Win_copy_attr_function  *win;
    } copy;
    union {
        MPI_Comm_delete_attr_function *comm;
        MPI_Type_delete_attr_function *type;
        MPI_Win_delete_attr_function  *win;
    } del;
    void          *extra;
    struct keyval *next;
} keyval_t;

/* The object an attribute hangs on, as its callbacks are given it. */
typedef union {
    MPI_Comm     comm;
    MPI_Datatype type;
    MPI_Win      win;
} obj_t;

static keyval_t *keyvals;

static keyval_t *keyval_find(int id, int kind)
{
    for (keyval_t *k = keyvals; k; k = k->next)
        if (k->id == id)
            return k->kind == kind ? k : NULL;
    return NULL;
}

/* A new key of kind for *out (the caller sets its callbacks through *k_p);
 * MPI_SUCCESS, or the error raised on MPI_COMM_SELF naming func. */
static int keyval_make(int kind, int *out, void *extra, const char *func, keyval_t **k_p)
{
    if (!out)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, func, "the keyval argument is NULL");
    keyval_t *k = calloc(1, sizeof(*k));
    if (!k)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_NO_MEM, func, "no memory");
    k->id = ++om_g.next_keyval;
    k->kind = kind;
    k->extra = extra;
    k->next = keyvals;
    keyvals = k;
    *out = k->id;
    *k_p = k;
    return MPI_SUCCESS;
}

/* The delete callback of a's key (the NULL one does nothing). */
static int call_delete(int kind, obj_t obj, const om_attr_t *a)
{
    keyval_t *k = keyval_find(a->keyval, kind);
    if (!k)
        return MPI_SUCCESS;
    switch (kind) {
    case KV_COMM:
        return k->del.comm ? k->del.comm(obj.comm, a->keyval, a->value, k->extra) : MPI_SUCCESS;
    case KV_TYPE:
        return k->del.type ? k->del.type(obj.type, a->keyval, a->value, k->extra) : MPI_SUCCESS;
    default:
        return k->del.win ? k->del.win(obj.win, a->keyval, a->value, k->extra) : MPI_SUCCESS;
    }
}

/* Remove *link after its delete callback agreed (its error otherwise). */
static int list_delete(om_attr_t **link, int kind, obj_t obj)
{
    int rc = call_delete(kind, obj, *link);
    if (rc != MPI_SUCCESS)
        return rc;
    om_attr_t *a = *link;
    *link = a->next;
    free(a);
    return MPI_SUCCESS;
}

static om_attr_t **list_find(om_attr_t **list, int keyval)
{
    for (om_attr_t **l = list; *l; l = &(*l)->next)
        if ((*l)->keyval == keyval)
            return l;
    return NULL;
}

/* Set: an earlier value of the key is deleted first (its callback runs). */
static int list_set(om_attr_t **list, int kind, obj_t obj, int keyval, void *value,
                    const char **why)
{
    if (!keyval_find(keyval, kind)) {
        *why = "not a key the program made for this kind of object";
        return MPI_ERR_KEYVAL;
    }
    om_attr_t **old = list_find(list, keyval);
    if (old) {
        int rc = list_delete(old, kind, obj);
        if (rc != MPI_SUCCESS) {
            *why = "the delete callback of the value it replaces failed";
            return rc;
        }
    }
    om_attr_t *a = calloc(1, sizeof(*a));
    if (!a) {
        *why = "no memory";
        return MPI_ERR_NO_MEM;
    }
    a->keyval = keyval;
    a->value = value;
    a->next = *list;
    *list = a;
    return MPI_SUCCESS;
}

static int list_get(om_attr_t *list, int kind, int keyval, void *out, int *flag)
{
    if (!keyval_find(keyval, kind))
        return MPI_ERR_KEYVAL;
    *flag = 0;
    om_attr_t **a = list_find(&list, keyval);
    if (a) {
        memcpy(out, &(*a)->value, sizeof((*a)->value));
        *flag = 1;
    }
    return MPI_SUCCESS;
}

static int list_remove(om_attr_t **list, int kind, obj_t obj, int keyval, const char **why)
{
    om_attr_t **a = keyval_find(keyval, kind) ? list_find(list, keyval) : NULL;
    if (!a) {
        *why = "no attribute with that key here";
        return MPI_ERR_KEYVAL;
    }
    int rc = list_delete(a, kind, obj);
    if (rc != MPI_SUCCESS)
        *why = "the delete callback failed";
    return rc;
}

/* A duplicate's attributes: each whose key has a copy callback is offered
 * to it (the DUP_FN constant, 1, copies the value). */
static int list_copy(om_attr_t *from, int kind, obj_t obj, om_attr_t **to)
{
    for (om_attr_t *a = from; a; a = a->next) {
        keyval_t *k = keyval_find(a->keyval, kind);
        void *copy_fn = k ? (kind == KV_COMM ? (void *)(uintptr_t)k->copy.comm
                             : (void *)(uintptr_t)k->copy.type) : NULL;
        if (!copy_fn)
            continue;
        void *out = NULL;
        int flag = 0;
        if ((uintptr_t)copy_fn == 1) {
            out = a->value;
            flag = 1;
        } else {
            int rc = kind == KV_COMM
                         ? k->copy.comm(obj.comm, a->keyval, k->extra, a->value, &out, &flag)
                         : k->copy.type(obj.type, a->keyval, k->extra, a->value, &out, &flag);
            if (rc != MPI_SUCCESS)
                return rc;
        }
        if (flag) {
            om_attr_t *n = calloc(1, sizeof(*n));
            if (!n)
                return MPI_ERR_NO_MEM;
            n->keyval = a->keyval;
            n->value = out;
            n->next = *to;
            *to = n;
        }
    }
    return MPI_SUCCESS;
}

/* Every attribute, deleted in turn; one whose callback refuses is dropped
 * anyway (the object goes), its error returned. */
static int list_free(om_attr_t **list, int kind, obj_t obj)
{
    int first = MPI_SUCCESS;
    while (*list) {
        int rc = call_delete(kind, obj, *list);
        if (rc != MPI_SUCCESS && first == MPI_SUCCESS)
            first = rc;
        om_attr_t *a = *list;
        *list = a->next;
        free(a);
    }
    return first;
}

static int free_keyval(int *keyval, int kind, const char *func)
{
    if (!keyval || !keyval_find(*keyval, kind))
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_KEYVAL, func, "not a %s key the program "
                             "made", kind_name[kind]);
    /* the key stays known while attributes use it: MPI lets them outlive
     * the handle */
    *keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
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
    keyval_t *k = NULL;
    int rc = keyval_make(KV_COMM, comm_keyval, extra_state, "MPI_Comm_create_keyval", &k);
    if (rc != MPI_SUCCESS)
        return rc;
    k->copy.comm = copy_fn;
    k->del.comm = delete_fn;
    return MPI_SUCCESS;
}
OM_ALIAS(Comm_create_keyval)

int PMPI_Comm_free_keyval(int *comm_keyval)
{
    return free_keyval(comm_keyval, KV_COMM, "MPI_Comm_free_keyval");
}
OM_ALIAS(Comm_free_keyval)

/* The handle a communicator's callbacks are given. */
static MPI_Comm comm_handle(struct MPI_ABI_Comm *c)
{
    return c == &om_comm_world ? MPI_COMM_WORLD : c == &om_comm_self ? MPI_COMM_SELF
                                                                     : (MPI_Comm)c;
}

int PMPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void *attribute_val)
{
    struct MPI_ABI_Comm *c = om_comm(comm);
    if (!c)
        return om_comm_error(comm, MPI_ERR_COMM, "MPI_Comm_set_attr", "not a communicator");
    const char *why = "";
    int rc = list_set(&c->attrs, KV_COMM, (obj_t){.comm = comm}, comm_keyval, attribute_val,
                      &why);
    return rc == MPI_SUCCESS ? rc
                             : om_comm_error(comm, rc, "MPI_Comm_set_attr", "key %d: %s",
                                             comm_keyval, why);
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
    if (list_get(c->attrs, KV_COMM, comm_keyval, attribute_val, flag) != MPI_SUCCESS)
        return om_comm_error(comm, MPI_ERR_KEYVAL, "MPI_Comm_get_attr",
                             "key %d is not a communicator key", comm_keyval);
    return MPI_SUCCESS;
}
OM_ALIAS(Comm_get_attr)

int PMPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval)
{
    struct MPI_ABI_Comm *c = om_comm(comm);
    if (!c)
        return om_comm_error(comm, MPI_ERR_COMM, "MPI_Comm_delete_attr",
                             "not a communicator");
    const char *why = "";
    int rc = list_remove(&c->attrs, KV_COMM, (obj_t){.comm = comm}, comm_keyval, &why);
    return rc == MPI_SUCCESS ? rc
                             : om_comm_error(comm, rc, "MPI_Comm_delete_attr", "key %d: %s",
                                             comm_keyval, why);
}
OM_ALIAS(Comm_delete_attr)

/* MPI_Comm_dup and the others that copy attributes. */
int om_attrs_copy(struct MPI_ABI_Comm *from, MPI_Comm to)
{
    int rc = list_copy(from->attrs, KV_COMM, (obj_t){.comm = comm_handle(from)}, &to->attrs);
    return rc == MPI_SUCCESS ? rc
                             : om_comm_error(to, rc, "MPI_Comm_dup", "an attribute copy failed");
}

void om_attrs_free(struct MPI_ABI_Comm *c)
{
    list_free(&c->attrs, KV_COMM, (obj_t){.comm = comm_handle(c)});
}

/* ------------------------------------------------- the MPI-1 names for them */

int PMPI_Keyval_create(MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn,
                       int *keyval, void *extra_state)
{
    return PMPI_Comm_create_keyval(copy_fn, delete_fn, keyval, extra_state);
}
OM_ALIAS(Keyval_create)

int PMPI_Keyval_free(int *keyval)
{
    return free_keyval(keyval, KV_COMM, "MPI_Keyval_free");
}
OM_ALIAS(Keyval_free)

int PMPI_Attr_put(MPI_Comm comm, int keyval, void *attribute_val)
{
    return PMPI_Comm_set_attr(comm, keyval, attribute_val);
}
OM_ALIAS(Attr_put)

int PMPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag)
{
    return PMPI_Comm_get_attr(comm, keyval, attribute_val, flag);
}
OM_ALIAS(Attr_get)

int PMPI_Attr_delete(MPI_Comm comm, int keyval)
{
    return PMPI_Comm_delete_attr(comm, keyval);
}
OM_ALIAS(Attr_delete)

/* ---------------------------------------------------------------- datatypes */

int PMPI_Type_create_keyval(MPI_Type_copy_attr_function *copy_fn,
                            MPI_Type_delete_attr_function *delete_fn, int *type_keyval,
                            void *extra_state)
{
    keyval_t *k = NULL;
    int rc = keyval_make(KV_TYPE, type_keyval, extra_state, "MPI_Type_create_keyval", &k);
    if (rc != MPI_SUCCESS)
        return rc;
    k->copy.type = copy_fn;
    k->del.type = delete_fn;
    return MPI_SUCCESS;
}
OM_ALIAS(Type_create_keyval)

int PMPI_Type_free_keyval(int *type_keyval)
{
    return free_keyval(type_keyval, KV_TYPE, "MPI_Type_free_keyval");
}
OM_ALIAS(Type_free_keyval)

int PMPI_Type_set_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val)
{
    struct MPI_ABI_Datatype *t = om_type(datatype);
    if (!t)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_TYPE, "MPI_Type_set_attr", "not a datatype");
    const char *why = "";
    int rc = list_set(&t->attrs, KV_TYPE, (obj_t){.type = datatype}, type_keyval,
                      attribute_val, &why);
    return rc == MPI_SUCCESS ? rc
                             : om_comm_error(MPI_COMM_SELF, rc, "MPI_Type_set_attr",
                                             "key %d: %s", type_keyval, why);
}
OM_ALIAS(Type_set_attr)

int PMPI_Type_get_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val, int *flag)
{
    struct MPI_ABI_Datatype *t = om_type(datatype);
    if (!t)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_TYPE, "MPI_Type_get_attr", "not a datatype");
    if (!attribute_val || !flag)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Type_get_attr",
                             "a NULL argument");
    if (list_get(t->attrs, KV_TYPE, type_keyval, attribute_val, flag) != MPI_SUCCESS)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_KEYVAL, "MPI_Type_get_attr",
                             "key %d is not a datatype key", type_keyval);
    return MPI_SUCCESS;
}
OM_ALIAS(Type_get_attr)

int PMPI_Type_delete_attr(MPI_Datatype datatype, int type_keyval)
{
    struct MPI_ABI_Datatype *t = om_type(datatype);
    if (!t)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_TYPE, "MPI_Type_delete_attr",
                             "not a datatype");
    const char *why = "";
    int rc = list_remove(&t->attrs, KV_TYPE, (obj_t){.type = datatype}, type_keyval, &why);
    return rc == MPI_SUCCESS ? rc
                             : om_comm_error(MPI_COMM_SELF, rc, "MPI_Type_delete_attr",
                                             "key %d: %s", type_keyval, why);
}
OM_ALIAS(Type_delete_attr)

int om_type_attrs_copy(MPI_Datatype from, struct MPI_ABI_Datatype *to)
{
    struct MPI_ABI_Datatype *f = om_type(from);
    return f ? list_copy(f->attrs, KV_TYPE, (obj_t){.type = from}, &to->attrs) : MPI_SUCCESS;
}

int om_type_attrs_free(MPI_Datatype type, struct MPI_ABI_Datatype *t)
{
    return list_free(&t->attrs, KV_TYPE, (obj_t){.type = type});
}

/* ------------------------------------------------------------------ windows */

int PMPI_Win_create_keyval(MPI_Win_copy_attr_function *copy_fn,
                           MPI_Win_delete_attr_function *delete_fn, int *win_keyval,
                           void *extra_state)
{
    keyval_t *k = NULL;
    int rc = keyval_make(KV_WIN, win_keyval, extra_state, "MPI_Win_create_keyval", &k);
    if (rc != MPI_SUCCESS)
        return rc;
    k->copy.win = copy_fn;   /* windows are never duplicated: kept, never called */
    k->del.win = delete_fn;
    return MPI_SUCCESS;
}
OM_ALIAS(Win_create_keyval)

int PMPI_Win_free_keyval(int *win_keyval)
{
    return free_keyval(win_keyval, KV_WIN, "MPI_Win_free_keyval");
}
OM_ALIAS(Win_free_keyval)

int PMPI_Win_set_attr(MPI_Win win, int win_keyval, void *attribute_val)
{
    OM_WIN_ARG(w, win, "MPI_Win_set_attr");
    const char *why = "";
    int rc = list_set(&w->attrs, KV_WIN, (obj_t){.win = win}, win_keyval, attribute_val,
                      &why);
    return rc == MPI_SUCCESS ? rc
                             : om_raise(OM_ON_WIN, (void *)win, rc, "MPI_Win_set_attr",
                                        "key %d: %s", win_keyval, why);
}
OM_ALIAS(Win_set_attr)

int PMPI_Win_delete_attr(MPI_Win win, int win_keyval)
{
    OM_WIN_ARG(w, win, "MPI_Win_delete_attr");
    const char *why = "";
    int rc = list_remove(&w->attrs, KV_WIN, (obj_t){.win = win}, win_keyval, &why);
    return rc == MPI_SUCCESS ? rc
                             : om_raise(OM_ON_WIN, (void *)win, rc, "MPI_Win_delete_attr",
                                        "key %d: %s", win_keyval, why);
}
OM_ALIAS(Win_delete_attr)

/* The program's keys on a window (the predefined ones are win.c's). */
int om_win_attr_get(MPI_Win win, struct MPI_ABI_Win *w, int keyval, void *out, int *flag)
{
    if (list_get(w->attrs, KV_WIN, keyval, out, flag) != MPI_SUCCESS)
        return om_raise(OM_ON_WIN, (void *)win, MPI_ERR_KEYVAL, "MPI_Win_get_attr",
                        "key %d is not a window key", keyval);
    return MPI_SUCCESS;
}

int om_win_attrs_free(MPI_Win win, struct MPI_ABI_Win *w)
{
    return list_free(&w->attrs, KV_WIN, (obj_t){.win = win});
}
