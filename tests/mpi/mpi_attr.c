/* Attributes cached on communicators, datatypes and windows (and the null
 * handles' names): keys of one
 * kind refused on another, copy callbacks at MPI_Comm_dup / MPI_Type_dup,
 * delete callbacks when a value is replaced or deleted and when the object
 * is freed, a callback's error failing the call, and the MPI-1 names. */
#include <stdint.h>
#include <string.h>

#include "mpi_harness.h"

static int deleted, copied;
static void *last_deleted;

static int comm_del(MPI_Comm comm, int key, void *val, void *extra)
{
    (void)comm, (void)key;
    deleted++;
    last_deleted = val;
    return extra ? MPI_ERR_OTHER : MPI_SUCCESS;   /* extra set: refuse */
}

static int type_copy(MPI_Datatype t, int key, void *extra, void *in, void *out, int *flag)
{
    (void)t, (void)key, (void)extra;
    copied++;
    /* the copy holds the value plus one, to tell it from the original */
    *(intptr_t *)out = (intptr_t)in + 1;
    *flag = 1;
    return MPI_SUCCESS;
}

static int type_del(MPI_Datatype t, int key, void *val, void *extra)
{
    (void)t, (void)key, (void)extra;
    deleted++;
    last_deleted = val;
    return MPI_SUCCESS;
}

static int win_del(MPI_Win w, int key, void *val, void *extra)
{
    /* the window is still whole while its attributes go */
    int *base = NULL, flag = 0;
    MPI_Win_get_attr(w, MPI_WIN_BASE, &base, &flag);
    (void)key, (void)extra;
    if (flag)
        deleted++;
    last_deleted = val;
    return MPI_SUCCESS;
}

static void comms(void)
{
    int key = MPI_KEYVAL_INVALID, flag = 0;
    void *v = NULL;
    static int a, b;
    OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, comm_del, &key, NULL));
    OK(MPI_Comm_set_attr(MPI_COMM_SELF, key, &a));
    deleted = 0;
    OK(MPI_Comm_set_attr(MPI_COMM_SELF, key, &b));   /* replaces: a deleted */
    CHECK(deleted == 1 && last_deleted == &a);
    OK(MPI_Comm_get_attr(MPI_COMM_SELF, key, &v, &flag));
    CHECK(flag && v == &b);
    MPI_Comm dup;
    OK(MPI_Comm_dup(MPI_COMM_SELF, &dup));   /* NULL_COPY_FN: not copied */
    OK(MPI_Comm_get_attr(dup, key, &v, &flag));
    CHECK(!flag);
    OK(MPI_Comm_set_attr(dup, key, &a));
    deleted = 0;
    OK(MPI_Comm_free(&dup));   /* its attribute deleted with it */
    CHECK(deleted == 1 && last_deleted == &a);
    OK(MPI_Comm_delete_attr(MPI_COMM_SELF, key));
    CHECK(class_of(MPI_Comm_delete_attr(MPI_COMM_SELF, key)) == MPI_ERR_KEYVAL);
    OK(MPI_Comm_free_keyval(&key));
    CHECK(key == MPI_KEYVAL_INVALID);

    /* a delete callback that refuses fails the call, the value stays */
    int stubborn;
    OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, comm_del, &stubborn, &flag));
    OK(MPI_Comm_set_attr(MPI_COMM_WORLD, stubborn, &a));
    CHECK(MPI_Comm_delete_attr(MPI_COMM_WORLD, stubborn) != MPI_SUCCESS);
    OK(MPI_Comm_get_attr(MPI_COMM_WORLD, stubborn, &v, &flag));
    CHECK(flag && v == &a);

    /* the MPI-1 names are the same calls */
    int old = MPI_KEYVAL_INVALID;
    OK(MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, &old, NULL));
    OK(MPI_Attr_put(MPI_COMM_WORLD, old, &b));
    OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    OK(MPI_Attr_get(dup, old, &v, &flag));
    CHECK(flag && v == &b);
    OK(MPI_Attr_delete(dup, old));
    OK(MPI_Attr_get(dup, old, &v, &flag));
    CHECK(!flag);
    OK(MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, &v, &flag));
    CHECK(flag && *(int *)v >= 32767);
    OK(MPI_Keyval_free(&old));
    CHECK(old == MPI_KEYVAL_INVALID);
    OK(MPI_Comm_free(&dup));
}

static void types(void)
{
    int key = MPI_KEYVAL_INVALID, comm_key = MPI_KEYVAL_INVALID, flag = 0;
    void *v = NULL;
    static int a;
    OK(MPI_Type_create_keyval(type_copy, type_del, &key, NULL));
    OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &comm_key, NULL));
    MPI_Datatype t, d;
    OK(MPI_Type_contiguous(3, MPI_INT, &t));
    OK(MPI_Type_set_attr(t, key, &a));
    OK(MPI_Type_get_attr(t, key, &v, &flag));
    CHECK(flag && v == &a);
    /* a key of another kind, and none at all */
    CHECK(class_of(MPI_Type_set_attr(t, comm_key, &a)) == MPI_ERR_KEYVAL);
    CHECK(class_of(MPI_Type_get_attr(t, 999999, &v, &flag)) == MPI_ERR_KEYVAL);
    CHECK(class_of(MPI_Comm_set_attr(MPI_COMM_SELF, key, &a)) == MPI_ERR_KEYVAL);
    /* dup offers it to the copy callback */
    copied = 0;
    OK(MPI_Type_dup(t, &d));
    CHECK(copied == 1);
    OK(MPI_Type_get_attr(d, key, &v, &flag));
    CHECK(flag && (intptr_t)v == (intptr_t)&a + 1);
    /* freeing runs the delete callback with the object's value */
    deleted = 0;
    OK(MPI_Type_free(&d));
    CHECK(deleted == 1 && (intptr_t)last_deleted == (intptr_t)&a + 1);
    OK(MPI_Type_delete_attr(t, key));
    CHECK(deleted == 2 && last_deleted == &a);
    OK(MPI_Type_get_attr(t, key, &v, &flag));
    CHECK(!flag);
    CHECK(class_of(MPI_Type_delete_attr(t, key)) == MPI_ERR_KEYVAL);
    /* on a predefined type too */
    OK(MPI_Type_set_attr(MPI_DOUBLE, key, &a));
    OK(MPI_Type_get_attr(MPI_DOUBLE, key, &v, &flag));
    CHECK(flag && v == &a);
    OK(MPI_Type_delete_attr(MPI_DOUBLE, key));
    OK(MPI_Type_free(&t));
    OK(MPI_Type_free_keyval(&key));
    CHECK(key == MPI_KEYVAL_INVALID);
    CHECK(class_of(MPI_Type_free_keyval(&comm_key)) == MPI_ERR_KEYVAL);
    OK(MPI_Comm_free_keyval(&comm_key));
}

static void windows(void)
{
    int key = MPI_KEYVAL_INVALID, flag = 0, *base = NULL;
    void *v = NULL;
    static int a;
    MPI_Win win;
    OK(MPI_Win_allocate(64, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    OK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    OK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, win_del, &key, NULL));
    OK(MPI_Win_get_attr(win, key, &v, &flag));
    CHECK(!flag);
    OK(MPI_Win_set_attr(win, key, &a));
    OK(MPI_Win_get_attr(win, key, &v, &flag));
    CHECK(flag && v == &a);
    int *got_base = NULL;
    OK(MPI_Win_get_attr(win, MPI_WIN_BASE, &got_base, &flag));   /* still the predefined */
    CHECK(flag && got_base == base);
    CHECK(class_of(MPI_Win_set_attr(win, MPI_TAG_UB, &a)) == MPI_ERR_KEYVAL);
    deleted = 0;
    OK(MPI_Win_delete_attr(win, key));
    CHECK(deleted == 1 && last_deleted == &a);
    OK(MPI_Win_set_attr(win, key, &a));
    deleted = 0;
    OK(MPI_Win_free(&win));   /* deleted while the window is still whole */
    CHECK(deleted == 1 && win == MPI_WIN_NULL);
    OK(MPI_Win_free_keyval(&key));
    CHECK(key == MPI_KEYVAL_INVALID);
}

/* MPI-4.1: the null handles are predefined and have names */
static void null_names(void)
{
    char name[MPI_MAX_OBJECT_NAME];
    int len = 0;
    OK(MPI_Comm_get_name(MPI_COMM_NULL, name, &len));
    CHECK(strcmp(name, "MPI_COMM_NULL") == 0 && len == 13);
    OK(MPI_Type_get_name(MPI_DATATYPE_NULL, name, &len));
    CHECK(strcmp(name, "MPI_DATATYPE_NULL") == 0 && len == 17);
    OK(MPI_Win_get_name(MPI_WIN_NULL, name, &len));
    CHECK(strcmp(name, "MPI_WIN_NULL") == 0 && len == 12);
}

int main(int argc, char **argv)
{
    mpi_test_init(&argc, &argv);
    null_names();
    comms();
    types();
    windows();
    return mpi_test_report("mpi_attr");
}
