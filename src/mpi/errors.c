/* MPI on ordo: error classes and strings, error handlers, and raising an
 * error on the object a call was about. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"

static struct MPI_ABI_Errhandler eh_fatal = {.magic = OM_MAGIC_ERRH, .refs = 1, .predefined = 0x141};
static struct MPI_ABI_Errhandler eh_abort = {.magic = OM_MAGIC_ERRH, .refs = 1, .predefined = 0x142};
static struct MPI_ABI_Errhandler eh_return = {.magic = OM_MAGIC_ERRH, .refs = 1, .predefined = 0x143};

static struct MPI_ABI_Errhandler *errh_of(MPI_Errhandler h)
{
    if (h == MPI_ERRORS_ARE_FATAL)
        return &eh_fatal;
    if (h == MPI_ERRORS_ABORT)
        return &eh_abort;
    if (h == MPI_ERRORS_RETURN)
        return &eh_return;
    if ((uintptr_t)h < 0x1000 || h->magic != OM_MAGIC_ERRH)
        return NULL;
    return h;
}

int om_class_of(ordo_status_t st)
{
    switch (st) {
    case ORDO_OK:
    case ORDO_INPROGRESS:          return MPI_SUCCESS;
    case ORDO_ERR_INVALID_PARAM:   return MPI_ERR_ARG;
    case ORDO_ERR_NO_MEMORY:       return MPI_ERR_NO_MEM;
    case ORDO_ERR_NOT_INITIALIZED: return MPI_ERR_OTHER;
    case ORDO_ERR_INVALID_RANK:    return MPI_ERR_RANK;
    case ORDO_ERR_OUT_OF_BOUNDS:   return MPI_ERR_RMA_RANGE;
    case ORDO_ERR_MISALIGNED:      return MPI_ERR_RMA_RANGE;
    case ORDO_ERR_INVALID_HANDLE:  return MPI_ERR_ARG;
    case ORDO_ERR_UNSUPPORTED:     return MPI_ERR_UNSUPPORTED_OPERATION;
    case ORDO_ERR_UNREACHABLE:     return MPI_ERR_OTHER;
    case ORDO_ERR_IO:              return MPI_ERR_OTHER;
    case ORDO_ERR_BOOTSTRAP:       return MPI_ERR_OTHER;
    case ORDO_ERR_PEER_DEAD:       return MPI_ERR_PROC_ABORTED;
    case ORDO_ERR_BUSY:            return MPI_ERR_PENDING;
    case ORDO_ERR_ALREADY:         return MPI_ERR_OTHER;
    case ORDO_ERR_PERMISSION:      return MPI_ERR_ACCESS;
    case ORDO_ERR_TIMED_OUT:       return MPI_ERR_OTHER;
    case ORDO_ERR_TRUNCATED:       return MPI_ERR_TRUNCATE;
    case ORDO_ERR_EPOCH:           return MPI_ERR_RMA_SYNC;
    case ORDO_ERR_THREAD:          return MPI_ERR_OTHER;
    case ORDO_ERR_COLL_BROKEN:     return MPI_ERR_OTHER;
    }
    return MPI_ERR_INTERN;
}

static void run_handler(struct MPI_ABI_Errhandler *eh, om_on_t on, void *handle, int code,
                        const char *what)
{
    if (eh->predefined == 0x143)
        return;
    if (eh->predefined) {
        fprintf(stderr, "[ordo-mpi rank %d] fatal error (the handler is %s): %s\n",
                om_g.world_rank,
                eh->predefined == 0x141 ? "MPI_ERRORS_ARE_FATAL" : "MPI_ERRORS_ABORT", what);
        fflush(NULL);
        ordo_abort(code > 0 && code < 256 ? code : 1);
        exit(1);   /* before MPI_Init: this process alone */
    }
    if (on == OM_ON_WIN && eh->win_fn) {
        MPI_Win w = (MPI_Win)handle;
        eh->win_fn(&w, &code);
    } else if (on == OM_ON_SESSION && eh->session_fn) {
        MPI_Session s = (MPI_Session)handle;
        eh->session_fn(&s, &code);
    } else if (eh->comm_fn) {
        MPI_Comm c = (MPI_Comm)handle;
        eh->comm_fn(&c, &code);
    }
}

static int verbose(void)
{
    const char *level = getenv("ORDO_LOG_LEVEL");
    return level && (strcmp(level, "info") == 0 || strcmp(level, "debug") == 0);
}

int om_raise(om_on_t on, void *handle, int code, const char *func, const char *fmt, ...)
{
    char text[768];
    int n = snprintf(text, sizeof(text), "%s: ", func);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text + n, sizeof(text) - (size_t)n, fmt, ap);
    va_end(ap);

    /* An error with no object of its own, or about a handle that is no
     * communicator, is raised on MPI_COMM_SELF (MPI-4.0 section 9.3). */
    MPI_Errhandler h = MPI_ERRORS_ARE_FATAL;
    if (on == OM_ON_SESSION && om_session_errh((MPI_Session)handle) == MPI_ERRHANDLER_NULL)
        on = OM_ON_NONE;   /* no session: as for no communicator */
    if (on == OM_ON_NONE) {
        on = OM_ON_COMM;
        handle = (void *)MPI_COMM_SELF;
    }
    if (on == OM_ON_COMM) {
        /* (a request's, which the program may have freed since) */
        struct MPI_ABI_Comm *c = om_comm_of_request((MPI_Comm)handle);
        if (!c) {
            handle = (void *)MPI_COMM_SELF;
            c = om_comm(MPI_COMM_SELF);
        }
        if (c)
            h = c->errh;
    }
    if (on == OM_ON_WIN) {
        struct MPI_ABI_Win *w = om_win((MPI_Win)handle);
        if (w)
            h = w->errh;
    }
    if (on == OM_ON_SESSION)
        h = om_session_errh((MPI_Session)handle);
    /* files: the fatal handler (none is made here) */
    struct MPI_ABI_Errhandler *eh = errh_of(h);
    if (!eh)
        eh = &eh_fatal;
    /* The fatal handlers print the message themselves; an error the
     * program asked to have returned is its to report (printed at
     * ORDO_LOG_LEVEL info and up, to find where it came from). */
    if ((!eh->predefined || eh->predefined == 0x143) && verbose())
        fprintf(stderr, "[ordo-mpi rank %d] %s\n", om_g.world_rank, text);
    run_handler(eh, on, handle, code, text);
    return code;
}

int om_unsupported(om_on_t on, void *handle, const char *func)
{
    return om_raise(on, handle, MPI_ERR_UNSUPPORTED_OPERATION, func,
                    "not implemented by ordo-mpi (docs/mpi.md lists what is)");
}

int om_comm_failed(MPI_Comm comm, ordo_status_t st, const char *func)
{
    return om_comm_error(comm, om_class_of(st), func, "%s", ordo_status_string(st));
}

/* ----------------------------------------------------- error handlers */

/* A handler of the program's: fn stored where its kind says. */
static int errh_new(void *fn, int kind, MPI_Errhandler *errhandler, const char *func)
{
    if (!fn || !errhandler)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, func, "%s is NULL",
                             fn ? "errhandler" : "the function");
    struct MPI_ABI_Errhandler *eh = calloc(1, sizeof(*eh));
    if (!eh)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_NO_MEM, func, "no memory");
    eh->magic = OM_MAGIC_ERRH;
    eh->refs = 1;
    if (kind == 1)
        eh->comm_fn = (MPI_Comm_errhandler_function *)fn;
    else if (kind == 2)
        eh->win_fn = (MPI_Win_errhandler_function *)fn;
    else
        eh->session_fn = (MPI_Session_errhandler_function *)fn;
    *errhandler = eh;
    return MPI_SUCCESS;
}

int PMPI_Comm_create_errhandler(MPI_Comm_errhandler_function *fn, MPI_Errhandler *errhandler)
{
    return errh_new((void *)fn, 1, errhandler, "MPI_Comm_create_errhandler");
}
OM_ALIAS(Comm_create_errhandler)

int PMPI_Win_create_errhandler(MPI_Win_errhandler_function *fn, MPI_Errhandler *errhandler)
{
    return errh_new((void *)fn, 2, errhandler, "MPI_Win_create_errhandler");
}
OM_ALIAS(Win_create_errhandler)

int PMPI_Session_create_errhandler(MPI_Session_errhandler_function *fn,
                                   MPI_Errhandler *errhandler)
{
    return errh_new((void *)fn, 3, errhandler, "MPI_Session_create_errhandler");
}
OM_ALIAS(Session_create_errhandler)

static void errh_release(MPI_Errhandler h)
{
    struct MPI_ABI_Errhandler *eh = errh_of(h);
    if (eh && !eh->predefined && --eh->refs == 0) {
        eh->magic = OM_MAGIC_DEAD;
        free(eh);
    }
}

int PMPI_Errhandler_free(MPI_Errhandler *errhandler)
{
    if (!errhandler || !errh_of(*errhandler))
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Errhandler_free",
                             "not an error handler");
    errh_release(*errhandler);
    *errhandler = MPI_ERRHANDLER_NULL;
    return MPI_SUCCESS;
}
OM_ALIAS(Errhandler_free)

int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
    struct MPI_ABI_Comm *c = om_comm(comm);
    if (!c)
        return om_comm_error(comm, MPI_ERR_COMM, "MPI_Comm_set_errhandler",
                             "not a communicator");
    if (om_errh_set(&c->errh, errhandler, 1) != MPI_SUCCESS)
        return om_comm_error(comm, MPI_ERR_ARG, "MPI_Comm_set_errhandler",
                             "not a communicator error handler");
    return MPI_SUCCESS;
}
OM_ALIAS(Comm_set_errhandler)

int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    struct MPI_ABI_Comm *c = om_comm(comm);
    if (!c || !errhandler)
        return om_comm_error(comm, c ? MPI_ERR_ARG : MPI_ERR_COMM, "MPI_Comm_get_errhandler",
                             c ? "errhandler is NULL" : "not a communicator");
    struct MPI_ABI_Errhandler *eh = errh_of(c->errh);
    if (eh && !eh->predefined)
        eh->refs++;
    *errhandler = c->errh;
    return MPI_SUCCESS;
}
OM_ALIAS(Comm_get_errhandler)

int PMPI_Comm_call_errhandler(MPI_Comm comm, int errorcode)
{
    struct MPI_ABI_Comm *c = om_comm(comm);
    if (!c)
        return om_comm_error(comm, MPI_ERR_COMM, "MPI_Comm_call_errhandler",
                             "not a communicator");
    struct MPI_ABI_Errhandler *eh = errh_of(c->errh);
    char what[64];
    snprintf(what, sizeof(what), "MPI_Comm_call_errhandler: error code %d", errorcode);
    if (eh)
        run_handler(eh, OM_ON_COMM, (void *)comm, errorcode, what);
    return MPI_SUCCESS;
}
OM_ALIAS(Comm_call_errhandler)

int om_errh_kind(MPI_Errhandler h)
{
    struct MPI_ABI_Errhandler *eh = errh_of(h);
    return !eh ? -1 : eh->predefined ? 0 : eh->win_fn ? 2 : eh->session_fn ? 3 : 1;
}

int PMPI_Win_call_errhandler(MPI_Win win, int errorcode)
{
    struct MPI_ABI_Win *w = om_win(win);
    if (!w)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_WIN, "MPI_Win_call_errhandler",
                             "not a window");
    struct MPI_ABI_Errhandler *eh = errh_of(w->errh);
    char what[64];
    snprintf(what, sizeof(what), "MPI_Win_call_errhandler: error code %d", errorcode);
    if (eh)
        run_handler(eh, OM_ON_WIN, (void *)win, errorcode, what);
    return MPI_SUCCESS;
}
OM_ALIAS(Win_call_errhandler)

void om_errh_retain(MPI_Errhandler h)
{
    struct MPI_ABI_Errhandler *eh = errh_of(h);
    if (eh && !eh->predefined)
        eh->refs++;
}

void om_errh_release(MPI_Errhandler h)
{
    errh_release(h);
}

int om_errh_set(MPI_Errhandler *slot, MPI_Errhandler h, int kind)
{
    int k = om_errh_kind(h);
    if (k != 0 && k != kind)
        return MPI_ERR_ARG;
    om_errh_retain(h);
    errh_release(*slot);
    *slot = h;
    return MPI_SUCCESS;
}

/* ------------------------------------------------ classes and strings */

static const char *const class_text[] = {
    [MPI_SUCCESS] = "no error",
    [MPI_ERR_BUFFER] = "invalid buffer pointer",
    [MPI_ERR_COUNT] = "invalid count argument",
    [MPI_ERR_TYPE] = "invalid datatype",
    [MPI_ERR_TAG] = "invalid tag",
    [MPI_ERR_COMM] = "invalid communicator",
    [MPI_ERR_RANK] = "invalid rank",
    [MPI_ERR_REQUEST] = "invalid request",
    [MPI_ERR_ROOT] = "invalid root",
    [MPI_ERR_GROUP] = "invalid group",
    [MPI_ERR_OP] = "invalid operation",
    [MPI_ERR_TOPOLOGY] = "invalid topology",
    [MPI_ERR_DIMS] = "invalid dimension argument",
    [MPI_ERR_ARG] = "invalid argument",
    [MPI_ERR_UNKNOWN] = "unknown error",
    [MPI_ERR_TRUNCATE] = "message truncated",
    [MPI_ERR_OTHER] = "other error",
    [MPI_ERR_INTERN] = "internal error",
    [MPI_ERR_PENDING] = "pending request",
    [MPI_ERR_IN_STATUS] = "error code is in status",
    [MPI_ERR_ACCESS] = "permission denied",
    [MPI_ERR_AMODE] = "invalid file access mode",
    [MPI_ERR_ASSERT] = "invalid assert argument",
    [MPI_ERR_BAD_FILE] = "invalid file name",
    [MPI_ERR_BASE] = "invalid base address",
    [MPI_ERR_CONVERSION] = "data conversion error",
    [MPI_ERR_DISP] = "invalid displacement",
    [MPI_ERR_DUP_DATAREP] = "data representation already defined",
    [MPI_ERR_FILE_EXISTS] = "file exists",
    [MPI_ERR_FILE_IN_USE] = "file in use",
    [MPI_ERR_FILE] = "invalid file handle",
    [MPI_ERR_INFO_KEY] = "info key too long",
    [MPI_ERR_INFO_NOKEY] = "no such info key",
    [MPI_ERR_INFO_VALUE] = "info value too long",
    [MPI_ERR_INFO] = "invalid info object",
    [MPI_ERR_IO] = "I/O error",
    [MPI_ERR_KEYVAL] = "invalid attribute key",
    [MPI_ERR_LOCKTYPE] = "invalid lock type",
    [MPI_ERR_NAME] = "service name not published",
    [MPI_ERR_NO_MEM] = "out of memory",
    [MPI_ERR_NOT_SAME] = "arguments differ between processes",
    [MPI_ERR_NO_SPACE] = "out of space",
    [MPI_ERR_NO_SUCH_FILE] = "no such file",
    [MPI_ERR_PORT] = "invalid port",
    [MPI_ERR_QUOTA] = "quota exceeded",
    [MPI_ERR_READ_ONLY] = "read-only file",
    [MPI_ERR_RMA_ATTACH] = "memory cannot be attached",
    [MPI_ERR_RMA_CONFLICT] = "conflicting accesses to a window",
    [MPI_ERR_RMA_RANGE] = "access outside the window",
    [MPI_ERR_RMA_SHARED] = "memory cannot be shared",
    [MPI_ERR_RMA_SYNC] = "wrong RMA synchronization",
    [MPI_ERR_SERVICE] = "invalid service name",
    [MPI_ERR_SIZE] = "invalid size",
    [MPI_ERR_SPAWN] = "spawn error",
    [MPI_ERR_UNSUPPORTED_DATAREP] = "unsupported data representation",
    [MPI_ERR_UNSUPPORTED_OPERATION] = "operation not supported",
    [MPI_ERR_WIN] = "invalid window",
    [MPI_ERR_RMA_FLAVOR] = "wrong window flavor",
    [MPI_ERR_PROC_ABORTED] = "a process aborted",
    [MPI_ERR_VALUE_TOO_LARGE] = "value too large",
    [MPI_ERR_SESSION] = "invalid session",
    [MPI_ERR_ERRHANDLER] = "invalid error handler",
    [MPI_ERR_ABI] = "ABI mismatch",
};

/* Codes and classes the program adds: MPI_ERR_LASTCODE + 1 upwards (the
 * standard keeps them above it), each with the class it belongs to (a
 * class: itself) and its text ("" until the program gives one). */
#define OM_USER_CODES 256
static char *user_string[OM_USER_CODES];
static int   user_class[OM_USER_CODES];

#define OM_REMOVED (-1)   /* in user_class: removed (MPI_Remove_error_*) */

static int added_index(int code)
{
    return code - MPI_ERR_LASTCODE - 1;
}

static int added(int code)
{
    return code > MPI_ERR_LASTCODE && code <= om_g.last_error_class &&
           user_class[added_index(code)] != OM_REMOVED;
}

static int known_code(int code)
{
    return (code >= 0 && code <= MPI_ERR_ABI) || added(code) ||
           (code >= MPI_T_ERR_CANNOT_INIT && code <= MPI_T_ERR_PVAR_NO_ATOMIC);
}

int PMPI_Error_class(int errorcode, int *errorclass)
{
    if (!errorclass || !known_code(errorcode))
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Error_class",
                             "%d is no error code of this library", errorcode);
    /* a predefined code is its own class */
    *errorclass = added(errorcode) ? user_class[added_index(errorcode)] : errorcode;
    return MPI_SUCCESS;
}
OM_ALIAS(Error_class)

int PMPI_Error_string(int errorcode, char *string, int *resultlen)
{
    if (!string || !resultlen || !known_code(errorcode))
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Error_string",
                             "%d is no error code of this library", errorcode);
    const char *text = "MPI_T error";
    if (errorcode <= MPI_ERR_ABI) {
        text = class_text[errorcode];
    } else if (added(errorcode)) {
        const char *u = user_string[added_index(errorcode)];
        text = u ? u : "";
    }
    int n = snprintf(string, MPI_MAX_ERROR_STRING, "%s", text);
    *resultlen = n < MPI_MAX_ERROR_STRING ? n : MPI_MAX_ERROR_STRING - 1;
    return MPI_SUCCESS;
}
OM_ALIAS(Error_string)

/* A new code of errorclass (-1: a new class of its own). */
static int add_code(int errorclass, int *out, const char *func)
{
    if (added_index(om_g.last_error_class) + 1 >= OM_USER_CODES)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_NO_MEM, func,
                             "all %d error codes and classes a program may add are taken",
                             OM_USER_CODES);
    int code = ++om_g.last_error_class;
    user_class[added_index(code)] = errorclass < 0 ? code : errorclass;
    *out = code;
    return MPI_SUCCESS;
}

int PMPI_Add_error_class(int *errorclass)
{
    if (!errorclass)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Add_error_class",
                             "errorclass is NULL");
    return add_code(-1, errorclass, "MPI_Add_error_class");
}
OM_ALIAS(Add_error_class)

int PMPI_Add_error_code(int errorclass, int *errorcode)
{
    /* a predefined class, or one the program added (not an added code) */
    int is_class = (errorclass >= 0 && errorclass <= MPI_ERR_ABI) ||
                   (added(errorclass) && user_class[added_index(errorclass)] == errorclass);
    if (!errorcode || !is_class)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Add_error_code",
                             "%d is no error class", errorclass);
    return add_code(errorclass, errorcode, "MPI_Add_error_code");
}
OM_ALIAS(Add_error_code)

int PMPI_Add_error_string(int errorcode, const char *string)
{
    if (!string || !added(errorcode))
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Add_error_string",
                             "%d is no error code the program added", errorcode);
    int i = added_index(errorcode);
    char *copy = strdup(string);
    if (!copy)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_NO_MEM, "MPI_Add_error_string",
                             "no memory");
    free(user_string[i]);
    user_string[i] = copy;
    return MPI_SUCCESS;
}
OM_ALIAS(Add_error_string)

/* MPI-4.1's removals, in reverse of adding: a string first, then the
 * codes of a class, then the class.  A removed one is no code any more
 * (its number is not given out again). */
int PMPI_Remove_error_class(int errorclass)
{
    const char *func = "MPI_Remove_error_class";
    if (!added(errorclass) || user_class[added_index(errorclass)] != errorclass)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, func,
                             "%d is no error class the program added", errorclass);
    if (user_string[added_index(errorclass)])
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, func,
                             "error class %d still has its string", errorclass);
    for (int c = errorclass + 1; c <= om_g.last_error_class; c++)
        if (user_class[added_index(c)] == errorclass)
            return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, func,
                                 "error class %d still has code %d", errorclass, c);
    user_class[added_index(errorclass)] = OM_REMOVED;
    return MPI_SUCCESS;
}
OM_ALIAS(Remove_error_class)

int PMPI_Remove_error_code(int errorcode)
{
    const char *func = "MPI_Remove_error_code";
    if (!added(errorcode) || user_class[added_index(errorcode)] == errorcode)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, func,
                             "%d is no error code the program added", errorcode);
    if (user_string[added_index(errorcode)])
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, func,
                             "error code %d still has its string", errorcode);
    user_class[added_index(errorcode)] = OM_REMOVED;
    return MPI_SUCCESS;
}
OM_ALIAS(Remove_error_code)

int PMPI_Remove_error_string(int errorcode)
{
    if (!added(errorcode))
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Remove_error_string",
                             "%d is no error code the program added", errorcode);
    int i = added_index(errorcode);
    free(user_string[i]);
    user_string[i] = NULL;
    return MPI_SUCCESS;
}
OM_ALIAS(Remove_error_string)
