/* MPI on ordo: handles as integers (MPI_<Type>_toint / _fromint, what the
 * standard ABI gives Fortran and other languages instead of c2f / f2c).
 * A predefined handle is its own value (below 0x1000); one the library
 * made gets the next index of a table, 0x1000 up, kept until the end. */
#include <pthread.h>
#include <stdlib.h>

#include "mpi_internal.h"

#define OM_INT_BASE 0x1000

static void **table;
static int used, cap;
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

static int to_int(void *h)
{
    uintptr_t v = (uintptr_t)h;
    if (v < OM_INT_BASE)
        return (int)v;
    pthread_mutex_lock(&table_lock);
    int found = -1;
    for (int i = 0; i < used; i++)
        if (table[i] == h) {
            found = i;
            break;
        }
    if (found < 0 && used == cap && cap < (1 << 24)) {
        int ncap = cap ? cap * 2 : 64;
        void **t = realloc(table, sizeof(*t) * (size_t)ncap);
        if (t) {
            table = t;
            cap = ncap;
        }
    }
    if (found < 0 && used < cap) {
        table[used] = h;
        found = used++;
    }
    pthread_mutex_unlock(&table_lock);
    return found < 0 ? -1 : OM_INT_BASE + found;
}

static void *from_int(int i)
{
    if (i >= 0 && i < OM_INT_BASE)
        return (void *)(uintptr_t)i;
    pthread_mutex_lock(&table_lock);
    void *h = i - OM_INT_BASE < used ? table[i - OM_INT_BASE] : NULL;
    pthread_mutex_unlock(&table_lock);
    return h;
}

#define HANDLE_INT(NAME, TYPE, NULLV)                                            \
    int PMPI_##NAME##_toint(TYPE h)                                              \
    {                                                                            \
        return to_int((void *)h);                                                \
    }                                                                            \
    OM_ALIAS(NAME##_toint)                                                       \
    TYPE PMPI_##NAME##_fromint(int i)                                            \
    {                                                                            \
        void *h = from_int(i);                                                   \
        return h ? (TYPE)h : NULLV;                                              \
    }                                                                            \
    OM_ALIAS(NAME##_fromint)

HANDLE_INT(Comm, MPI_Comm, MPI_COMM_NULL)
HANDLE_INT(Errhandler, MPI_Errhandler, MPI_ERRHANDLER_NULL)
HANDLE_INT(File, MPI_File, MPI_FILE_NULL)
HANDLE_INT(Group, MPI_Group, MPI_GROUP_NULL)
HANDLE_INT(Info, MPI_Info, MPI_INFO_NULL)
HANDLE_INT(Message, MPI_Message, MPI_MESSAGE_NULL)
HANDLE_INT(Op, MPI_Op, MPI_OP_NULL)
HANDLE_INT(Request, MPI_Request, MPI_REQUEST_NULL)
HANDLE_INT(Session, MPI_Session, MPI_SESSION_NULL)
HANDLE_INT(Type, MPI_Datatype, MPI_DATATYPE_NULL)
HANDLE_INT(Win, MPI_Win, MPI_WIN_NULL)
