/* MPI on ordo: MPI-4 sessions.
 *
 * A session is one more user of ordo (init.c: om_runtime_up): the first of
 * MPI_Init and MPI_Session_init starts ordo, the last of MPI_Finalize and
 * MPI_Session_finalize ends it, and ordo cannot start again in the same
 * process.  Two process sets are named: "mpi://WORLD" (every process of
 * the job) and "mpi://SELF" (this one); a group from one gives
 * communicators through MPI_Comm_create_from_group, which derive from the
 * session (its buffered-send buffer serves them, bsend.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mpi_internal.h"

#define OM_MAGIC_SESSION 0x4f4d5345u

struct MPI_ABI_Session {
    uint32_t         magic;
    int              refs;    /* its handle until finalized, and what derives from it */
    MPI_Errhandler   errh;
    MPI_Info         info;    /* as given (MPI_INFO_NULL: none) */
    struct om_bpool *bpool;   /* its buffered-send buffer (bsend.c), NULL if none */
};

static struct MPI_ABI_Session *session_of(MPI_Session s)
{
    if ((uintptr_t)s < 0x1000 || s->magic != OM_MAGIC_SESSION)
        return NULL;
    return s;
}

struct MPI_ABI_Session *om_session_retain(struct MPI_ABI_Session *s)
{
    if (s)
        s->refs++;
    return s;
}

void om_session_release(struct MPI_ABI_Session *s)
{
    if (s && --s->refs == 0)
        free(s);
}

struct om_bpool **om_session_bpool(MPI_Session session)
{
    struct MPI_ABI_Session *s = session_of(session);
    return s ? &s->bpool : NULL;
}

MPI_Errhandler om_session_errh(MPI_Session session)
{
    struct MPI_ABI_Session *s = session_of(session);
    return s ? s->errh : MPI_ERRHANDLER_NULL;
}

#define om_session_error(s, code, func, ...) \
    om_raise(OM_ON_SESSION, (void *)(s), code, func, __VA_ARGS__)

#define SESSION_ARG(s, session, func)                                             \
    if (!om_ready(func))                                                          \
        return MPI_ERR_OTHER;                                                     \
    struct MPI_ABI_Session *s = session_of(session);                              \
    if (!s)                                                                       \
        return om_session_error(session, MPI_ERR_SESSION, func, "not a session");

/* The thread level an info's "thread_level" asks for (MPI 4.0 section
 * 11.3.1), MPI_THREAD_SINGLE without one; -1 for a value that is none. */
static int level_asked(MPI_Info info)
{
    static const struct { const char *name; int level; } levels[] = {
        {"MPI_THREAD_SINGLE", MPI_THREAD_SINGLE},
        {"MPI_THREAD_FUNNELED", MPI_THREAD_FUNNELED},
        {"MPI_THREAD_SERIALIZED", MPI_THREAD_SERIALIZED},
        {"MPI_THREAD_MULTIPLE", MPI_THREAD_MULTIPLE}};
    const char *v = info != MPI_INFO_NULL ? om_info_lookup(info, "thread_level") : NULL;
    if (!v)
        return MPI_THREAD_SINGLE;
    for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++)
        if (strcasecmp(v, levels[i].name) == 0)
            return levels[i].level;
    return -1;
}

static const char *level_name(int level)
{
    return level == MPI_THREAD_MULTIPLE     ? "MPI_THREAD_MULTIPLE"
           : level == MPI_THREAD_SERIALIZED ? "MPI_THREAD_SERIALIZED"
           : level == MPI_THREAD_FUNNELED   ? "MPI_THREAD_FUNNELED"
                                            : "MPI_THREAD_SINGLE";
}

int PMPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session)
{
    static const char *const func = "MPI_Session_init";
    /* before ordo is up errors are said on stderr and returned, as for
     * MPI_Init: no handler can run yet */
    if (!session) {
        fprintf(stderr, "[ordo-mpi] %s: session is NULL\n", func);
        return MPI_ERR_ARG;
    }
    if (info != MPI_INFO_NULL && !om_info(info)) {
        fprintf(stderr, "[ordo-mpi] %s: not an info object\n", func);
        return MPI_ERR_INFO;
    }
    int kind = om_errh_kind(errhandler);
    if (kind != 0 && kind != 3) {
        fprintf(stderr, "[ordo-mpi] %s: not a session error handler\n", func);
        return MPI_ERR_ARG;
    }
    int level = level_asked(info);
    if (level < 0) {
        fprintf(stderr, "[ordo-mpi] %s: thread_level \"%s\" is none of MPI_THREAD_SINGLE, "
                        "_FUNNELED, _SERIALIZED, _MULTIPLE\n", func,
                om_info_lookup(info, "thread_level"));
        return MPI_ERR_INFO_VALUE;
    }
    struct MPI_ABI_Session *s = calloc(1, sizeof(*s));
    if (!s) {
        fprintf(stderr, "[ordo-mpi] %s: no memory\n", func);
        return MPI_ERR_NO_MEM;
    }
    int rc = om_runtime_up(level, NULL, func);
    if (rc == MPI_SUCCESS)
        rc = om_info_dup_of(info, &s->info);
    if (rc != MPI_SUCCESS) {
        free(s);
        return rc;
    }
    s->magic = OM_MAGIC_SESSION;
    s->refs = 1;
    om_errh_retain(errhandler);
    s->errh = errhandler;
    *session = s;
    return MPI_SUCCESS;
}
OM_ALIAS(Session_init)

int PMPI_Session_finalize(MPI_Session *session)
{
    static const char *const func = "MPI_Session_finalize";
    if (!session)
        return om_session_error(MPI_SESSION_NULL, MPI_ERR_ARG, func, "session is NULL");
    SESSION_ARG(s, *session, func);
    om_bpool_release(&s->bpool);   /* its buffered messages go first */
    om_errh_release(s->errh);
    om_info_release(s->info);
    s->magic = OM_MAGIC_DEAD;
    om_session_release(s);
    *session = MPI_SESSION_NULL;
    return om_runtime_down(func);   /* the last user ends ordo */
}
OM_ALIAS(Session_finalize)

/* ------------------------------------------------------- process sets */

static const char *const psets[] = {"mpi://WORLD", "mpi://SELF"};
enum { NPSETS = 2 };

/* The process set a name names (MPI: case does not matter), or -1. */
static int pset_index(const char *name)
{
    for (int i = 0; name && i < NPSETS; i++)
        if (strcasecmp(name, psets[i]) == 0)
            return i;
    return -1;
}

int PMPI_Session_get_num_psets(MPI_Session session, MPI_Info info, int *npset_names)
{
    (void)info;   /* no hint narrows the sets here */
    SESSION_ARG(s, session, "MPI_Session_get_num_psets");
    (void)s;
    if (!npset_names)
        return om_session_error(session, MPI_ERR_ARG, "MPI_Session_get_num_psets",
                                "npset_names is NULL");
    *npset_names = NPSETS;
    return MPI_SUCCESS;
}
OM_ALIAS(Session_get_num_psets)

/* *pset_len 0: the length the name needs (with its terminating NUL) is
 * returned there; else up to *pset_len - 1 characters and a NUL are
 * written, and *pset_len is again the full length. */
int PMPI_Session_get_nth_pset(MPI_Session session, MPI_Info info, int n, int *pset_len,
                              char *pset_name)
{
    static const char *const func = "MPI_Session_get_nth_pset";
    (void)info;
    SESSION_ARG(s, session, func);
    (void)s;
    if (!pset_len || (*pset_len > 0 && !pset_name))
        return om_session_error(session, MPI_ERR_ARG, func, "pset_len or pset_name is NULL");
    if (n < 0 || n >= NPSETS)
        return om_session_error(session, MPI_ERR_ARG, func, "n = %d (there are %d sets)", n,
                                NPSETS);
    int need = (int)strlen(psets[n]) + 1;
    if (*pset_len > 0)
        snprintf(pset_name, (size_t)*pset_len, "%s", psets[n]);
    *pset_len = need;
    return MPI_SUCCESS;
}
OM_ALIAS(Session_get_nth_pset)

int PMPI_Info_create(MPI_Info *info);
int PMPI_Info_set(MPI_Info info, const char *key, const char *value);
int PMPI_Info_free(MPI_Info *info);

int PMPI_Session_get_pset_info(MPI_Session session, const char *pset_name, MPI_Info *info)
{
    static const char *const func = "MPI_Session_get_pset_info";
    SESSION_ARG(s, session, func);
    (void)s;
    int i = pset_index(pset_name);
    if (!info || i < 0)
        return om_session_error(session, MPI_ERR_ARG, func, "%s",
                                info ? "no such process set" : "info is NULL");
    char size[16];
    snprintf(size, sizeof(size), "%d", i == 0 ? om_g.world_size : 1);
    int rc = PMPI_Info_create(info);
    if (rc == MPI_SUCCESS && (rc = PMPI_Info_set(*info, "mpi_size", size)) != MPI_SUCCESS)
        PMPI_Info_free(info);
    return rc;
}
OM_ALIAS(Session_get_pset_info)

int PMPI_Group_from_session_pset(MPI_Session session, const char *pset_name,
                                 MPI_Group *newgroup)
{
    static const char *const func = "MPI_Group_from_session_pset";
    SESSION_ARG(s, session, func);
    (void)s;
    int i = pset_index(pset_name);
    if (!newgroup || i < 0)
        return om_session_error(session, MPI_ERR_ARG, func, "%s%s%s",
                                newgroup ? "no process set \"" : "newgroup is NULL",
                                newgroup && pset_name ? pset_name : "", newgroup ? "\"" : "");
    int n = i == 0 ? om_g.world_size : 1;
    struct MPI_ABI_Group *g = om_group_new(n);
    if (!g)
        return om_session_error(session, MPI_ERR_NO_MEM, func, "no memory");
    for (int k = 0; k < n; k++)
        g->ranks[k] = i == 0 ? k : om_g.world_rank;
    om_group_find_me(g);
    g->session = om_session_retain(s);
    *newgroup = g;
    return MPI_SUCCESS;
}
OM_ALIAS(Group_from_session_pset)

int PMPI_Session_get_info(MPI_Session session, MPI_Info *info_used)
{
    static const char *const func = "MPI_Session_get_info";
    SESSION_ARG(s, session, func);
    if (!info_used)
        return om_session_error(session, MPI_ERR_ARG, func, "info_used is NULL");
    int rc = s->info != MPI_INFO_NULL ? om_info_dup_of(s->info, info_used)
                                      : PMPI_Info_create(info_used);
    if (rc == MPI_SUCCESS)   /* the level the session has, which may exceed the asked */
        rc = PMPI_Info_set(*info_used, "thread_level", level_name(om_g.thread_level));
    return rc;
}
OM_ALIAS(Session_get_info)

/* ------------------------------------------------------ error handlers */

int PMPI_Session_set_errhandler(MPI_Session session, MPI_Errhandler errhandler)
{
    static const char *const func = "MPI_Session_set_errhandler";
    SESSION_ARG(s, session, func);
    if (om_errh_set(&s->errh, errhandler, 3) != MPI_SUCCESS)
        return om_session_error(session, MPI_ERR_ARG, func, "not a session error handler");
    return MPI_SUCCESS;
}
OM_ALIAS(Session_set_errhandler)

int PMPI_Session_get_errhandler(MPI_Session session, MPI_Errhandler *errhandler)
{
    static const char *const func = "MPI_Session_get_errhandler";
    SESSION_ARG(s, session, func);
    if (!errhandler)
        return om_session_error(session, MPI_ERR_ARG, func, "errhandler is NULL");
    om_errh_retain(s->errh);   /* the program frees what it gets */
    *errhandler = s->errh;
    return MPI_SUCCESS;
}
OM_ALIAS(Session_get_errhandler)

int PMPI_Session_call_errhandler(MPI_Session session, int errorcode)
{
    static const char *const func = "MPI_Session_call_errhandler";
    SESSION_ARG(s, session, func);
    (void)s;
    om_session_error(session, errorcode, func, "error code %d", errorcode);
    return MPI_SUCCESS;
}
OM_ALIAS(Session_call_errhandler)
