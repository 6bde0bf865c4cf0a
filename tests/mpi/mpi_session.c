/* MPI-4 sessions: a program that starts MPI with a session alone, finds
 * the process sets, makes a communicator from "mpi://WORLD" and works on
 * it; a second session beside it; errors raised on a session reach its
 * handler; then the World Model joins (MPI_Init) and leaves (MPI_Finalize)
 * while the session lives on, and the last session's end ends MPI. */
#include <stdint.h>
#include <strings.h>

#include "mpi_harness.h"

static int handled;

static void on_session_error(MPI_Session *s, int *code, ...)
{
    (void)s;
    handled = *code;
}

int main(void)
{
    int flag = 1;
    MPI_Initialized(&flag);
    int before = flag;

    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "thread_level", "MPI_THREAD_FUNNELED");
    MPI_Session s = MPI_SESSION_NULL, s2 = MPI_SESSION_NULL;
    int rc = MPI_Session_init(info, MPI_ERRORS_RETURN, &s);
    MPI_Info_free(&info);
    if (rc != MPI_SUCCESS) {
        printf("MPI_Session_init failed: %d\n", rc);
        return 1;
    }
    CHECK(before == 0);
    MPI_Initialized(&flag);
    CHECK(flag == 0);   /* a session is not the World Model */

    /* the process sets */
    int n = 0;
    OK(MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n));
    CHECK(n >= 2);
    int found_world = 0, found_self = 0;
    for (int i = 0; i < n; i++) {
        int len = 0;
        OK(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, NULL));
        char name[MPI_MAX_PSET_NAME_LEN];
        CHECK(len > 1 && len <= (int)sizeof(name));
        OK(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, name));
        found_world |= strcasecmp(name, "mpi://WORLD") == 0;
        found_self |= strcasecmp(name, "mpi://SELF") == 0;
    }
    CHECK(found_world && found_self);
    MPI_Info pinfo;
    char value[32];
    int vlen = (int)sizeof(value);
    OK(MPI_Session_get_pset_info(s, "mpi://WORLD", &pinfo));
    OK(MPI_Info_get_string(pinfo, "mpi_size", &vlen, value, &flag));
    CHECK(flag);
    np = atoi(value);
    MPI_Info_free(&pinfo);

    /* a communicator of the world set */
    MPI_Group wg;
    OK(MPI_Group_from_session_pset(s, "mpi://world", &wg));   /* case does not matter */
    MPI_Comm world;
    OK(MPI_Comm_create_from_group(wg, "mpi_session", MPI_INFO_NULL, MPI_ERRORS_RETURN, &world));
    MPI_Group_free(&wg);
    int size = -1;
    MPI_Comm_rank(world, &me);
    MPI_Comm_size(world, &size);
    CHECK(size == np);
    int one = 1, sum = 0;
    OK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, world));
    CHECK(sum == np);

    /* the session's buffer serves buffered sends on its communicators (the
     * process has none attached) */
    static char sbuf[1024];
    OK(MPI_Session_attach_buffer(s, sbuf, (int)sizeof(sbuf)));
    int token = me, got_token = -1;
    OK(MPI_Bsend(&token, 1, MPI_INT, (me + 1) % np, 4, world));
    OK(MPI_Recv(&got_token, 1, MPI_INT, (me + np - 1) % np, 4, world, MPI_STATUS_IGNORE));
    CHECK(got_token == (me + np - 1) % np);
    OK(MPI_Session_flush_buffer(s));
    void *was = NULL;
    int was_size = 0;
    OK(MPI_Session_detach_buffer(s, &was, &was_size));
    CHECK(was == sbuf && was_size == (int)sizeof(sbuf));
    CHECK(class_of(MPI_Bsend(&token, 1, MPI_INT, me, 4, world)) == MPI_ERR_BUFFER);

    /* the session's info says the thread level it has */
    MPI_Info used;
    OK(MPI_Session_get_info(s, &used));
    vlen = (int)sizeof(value);
    OK(MPI_Info_get_string(used, "thread_level", &vlen, value, &flag));
    CHECK(flag && strncmp(value, "MPI_THREAD_", 11) == 0);
    MPI_Info_free(&used);

    /* errors on a session go to its handler */
    MPI_Group bad = MPI_GROUP_NULL;
    CHECK(class_of(MPI_Group_from_session_pset(s, "mpi://nowhere", &bad)) == MPI_ERR_ARG);
    MPI_Errhandler eh;
    OK(MPI_Session_create_errhandler(on_session_error, &eh));
    OK(MPI_Session_init(MPI_INFO_NULL, eh, &s2));
    OK(MPI_Session_call_errhandler(s2, MPI_ERR_OTHER));
    CHECK(handled == MPI_ERR_OTHER);
    handled = 0;
    MPI_Group_from_session_pset(s2, "mpi://nowhere", &bad);
    CHECK(handled == MPI_ERR_ARG);
    handled = 0;   /* a buffer call's error too: no buffer at NULL */
    MPI_Session_attach_buffer(s2, NULL, 100);
    CHECK(handled == MPI_ERR_BUFFER);
    MPI_Errhandler got;
    OK(MPI_Session_get_errhandler(s2, &got));
    CHECK(got == eh);
    MPI_Errhandler_free(&got);
    CHECK(class_of(MPI_Comm_set_errhandler(world, eh)) == MPI_ERR_ARG);   /* not a comm's */
    MPI_Errhandler_free(&eh);
    MPI_Group self;
    OK(MPI_Group_from_session_pset(s2, "mpi://SELF", &self));
    int gsize = -1;
    MPI_Group_size(self, &gsize);
    CHECK(gsize == 1);
    MPI_Group_free(&self);
    OK(MPI_Session_finalize(&s2));
    CHECK(s2 == MPI_SESSION_NULL);

    /* the World Model joins and leaves; the session's communicator lives on */
    OK(MPI_Init(NULL, NULL));
    MPI_Initialized(&flag);
    CHECK(flag == 1);
    sum = 0;
    OK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK(sum == np);
    OK(MPI_Finalize());
    MPI_Finalized(&flag);
    CHECK(flag == 1);
    sum = 0;
    OK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, world));
    CHECK(sum == np);

    /* the report, over the session's communicator */
    int failed = 0, len = 0;
    OK(MPI_Allreduce(&failures, &failed, 1, MPI_INT, MPI_SUM, world));
    static char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    MPI_Get_library_version(lib, &len);
    lib[len < 40 ? len : 40] = '\0';
    OK(MPI_Comm_free(&world));
    rc = MPI_Session_finalize(&s);   /* the last user: MPI ends here */
    if (me == 0)
        printf("mpi_session: %d ranks, %d failure(s), on %s\n", np, failed + (rc != 0), lib);
    return failed || rc ? 1 : 0;
}
