/* Collective errors are agreed: a call that fails at one member fails at
 * every member with the same status, at once (never after a timeout), and
 * the context goes on working when nobody had started the call, or fails
 * every later collective alike (ORDO_ERR_COLL_BROKEN) when somebody had.
 * Each case runs on a context of its own; statuses are compared over the
 * world's point-to-point traffic, which a broken context never touches.
 *
 * argv[1] "bcast-truncate" adds a run-time failure (a member's broadcast
 * buffer shorter than the root's): run it with a two-sided broadcast. */
#define _POSIX_C_SOURCE 200809L
#include <string.h>
#include <time.h>

#include "../harness.h"

static int me, np, last;

/* Every rank's st to rank 0, which checks they are all the same (and
 * expected, unless expected is ORDO_INPROGRESS: any one status).  Returns
 * the status everyone had. */
static ordo_status_t all_same(const char *what, ordo_status_t st, ordo_status_t expected)
{
    int32_t mine = st, all[64] = {0};
    if (me == 0) {
        all[0] = mine;
        for (int r = 1; r < np; r++)
            REQUIRE_OK(ordo_recv(ORDO_COMM_WORLD, &all[r], sizeof(all[r]), r, 77, NULL));
        for (int r = 0; r < np; r++) {
            if (all[r] != all[0] || (expected != ORDO_INPROGRESS && all[r] != (int32_t)expected)) {
                fprintf(stderr, "%s: rank %d got %s, rank 0 %s\n", what, r,
                        ordo_status_string((ordo_status_t)all[r]),
                        ordo_status_string((ordo_status_t)all[0]));
                test_failures++;
            }
        }
    } else {
        REQUIRE_OK(ordo_send(ORDO_COMM_WORLD, &mine, sizeof(mine), 0, 77));
    }
    int32_t first = mine;
    REQUIRE_OK(ordo_coll_bcast(ORDO_COMM_WORLD, &first, sizeof(first), 0));
    return (ordo_status_t)first;
}

static ordo_comm_h fresh(void)
{
    ordo_comm_h c;
    REQUIRE_OK(ordo_comm_create(NULL, &c));
    return c;
}

/* The call after a failure: the same status everywhere, OK or broken; and
 * when it worked, it computed the right thing. */
static void next_call_agrees(ordo_comm_h c, const char *what, ordo_status_t expected)
{
    int64_t v = me + 1, sum = 0;
    ordo_status_t st = ordo_coll_allreduce(c, &v, &sum, 1, ORDO_DT_INT64, ORDO_REDUCE_SUM);
    CHECK(st == ORDO_OK || st == ORDO_ERR_COLL_BROKEN);
    if (st == ORDO_OK)
        CHECK(sum == (int64_t)np * (np + 1) / 2);
    all_same(what, st, expected);
}

static void drive_progress_for(double seconds)
{
    double end = ordo_wtime() + seconds;
    while (ordo_wtime() < end)
        ordo_progress();
}

/* Every member refuses the same call: each fails alone, the context stays
 * in step (the world's too). */
static void uniform_refusal(ordo_comm_h c, const char *what)
{
    char buf[8] = {0};
    CHECK_STATUS(ordo_coll_bcast(c, buf, sizeof(buf), np), ORDO_ERR_INVALID_RANK);
    int64_t x = 1, y = 0;
    CHECK_STATUS(ordo_coll_allreduce(c, &x, &y, 1, (ordo_dtype_t)99, ORDO_REDUCE_SUM),
                 ORDO_ERR_INVALID_PARAM);
    next_call_agrees(c, what, ORDO_OK);
}

/* One member refuses an allreduce the others run: all fail with its status
 * within moments. */
static void one_refuses(ordo_comm_h c)
{
    int64_t v[4] = {1, 2, 3, 4}, out[4];
    double t0 = ordo_wtime();
    ordo_status_t st = ordo_coll_allreduce(c, me == last ? NULL : v, out, 4, ORDO_DT_INT64,
                                           ORDO_REDUCE_SUM);
    CHECK(ordo_wtime() - t0 < 20.0);
    all_same("one_refuses", st, ORDO_ERR_INVALID_PARAM);
    next_call_agrees(c, "one_refuses: next", ORDO_INPROGRESS);
}

/* The refuser comes late: the others are already waiting inside the call. */
static void late_refuser(ordo_comm_h c)
{
    char mine[16], all[16 * 64];
    memset(mine, me, sizeof(mine));
    ordo_status_t st;
    if (me == last) {
        nanosleep(&(struct timespec){.tv_nsec = 300 * 1000 * 1000}, NULL);
        st = ordo_coll_allgather_nb(c, mine, sizeof(mine), all, NULL);
    } else {
        double t0 = ordo_wtime();
        st = ordo_coll_allgather(c, mine, sizeof(mine), all);
        CHECK(ordo_wtime() - t0 < 20.0);
    }
    all_same("late_refuser", st, ORDO_ERR_INVALID_PARAM);
    next_call_agrees(c, "late_refuser: next", ORDO_ERR_COLL_BROKEN);
}

/* The refuser is first and the others learn of it before they make the
 * call: they fail it without starting it, and the context stays usable. */
static void early_refuser(ordo_comm_h c)
{
    int64_t v = 1, out = 0;
    ordo_status_t st;
    if (me == last) {
        st = ordo_coll_reduce(c, &v, &out, 1, ORDO_DT_INT64, (ordo_reduce_op_t)42, 0);
    } else {
        drive_progress_for(0.3);   /* the notice arrives meanwhile */
        st = ordo_coll_reduce(c, &v, &out, 1, ORDO_DT_INT64, ORDO_REDUCE_SUM, 0);
    }
    all_same("early_refuser", st, ORDO_ERR_INVALID_PARAM);
    next_call_agrees(c, "early_refuser: next", ORDO_OK);
}

/* Barriers (the direct one-sided barrier where it applies): one member's
 * barrier is refused while the others wait in theirs. */
static void barrier_refused(ordo_comm_h c)
{
    ordo_status_t st;
    if (me == last) {
        nanosleep(&(struct timespec){.tv_nsec = 100 * 1000 * 1000}, NULL);
        st = ordo_coll_barrier_nb(c, NULL);
    } else {
        st = ordo_coll_barrier(c);
    }
    all_same("barrier_refused", st, ORDO_ERR_INVALID_PARAM);
    /* the others had started theirs: the context broke */
    all_same("barrier_refused: next", ordo_coll_barrier(c), ORDO_ERR_COLL_BROKEN);
}

/* Non-blocking: two calls in flight when the first is refused elsewhere.
 * The second was in flight when the context broke: it may still complete
 * at a member that had everything it needed, or fail as broken. */
static void refused_while_others_in_flight(ordo_comm_h c)
{
    int64_t a = me, b = 0, x = me, y = 0;
    ordo_request_h r1 = NULL, r2 = NULL;
    ordo_status_t s1, s2;
    if (me == last) {
        s1 = ordo_coll_allreduce_nb(c, &a, &b, 1, ORDO_DT_INT64, (ordo_reduce_op_t)77, &r1);
        s2 = ordo_coll_allreduce_nb(c, &x, &y, 1, ORDO_DT_INT64, ORDO_REDUCE_MAX, &r2);
    } else {
        s1 = ordo_coll_allreduce_nb(c, &a, &b, 1, ORDO_DT_INT64, ORDO_REDUCE_SUM, &r1);
        s2 = ordo_coll_allreduce_nb(c, &x, &y, 1, ORDO_DT_INT64, ORDO_REDUCE_MAX, &r2);
    }
    if (s1 == ORDO_INPROGRESS)
        s1 = ordo_request_wait(&r1, NULL);
    if (s2 == ORDO_INPROGRESS)
        s2 = ordo_request_wait(&r2, NULL);
    all_same("in_flight: first", s1, ORDO_ERR_INVALID_PARAM);
    CHECK(s2 == ORDO_OK || s2 == ORDO_ERR_COLL_BROKEN);
    all_same("in_flight: after", ordo_coll_barrier(c), ORDO_ERR_COLL_BROKEN);
}

/* A run-time failure: a member's buffer is shorter than the root's
 * message, so its receive is truncated. */
static void bcast_truncated(ordo_comm_h c)
{
    static char buf[4096];
    size_t len = me == last ? 16 : sizeof(buf);
    ordo_status_t st = ordo_coll_bcast(c, buf, len, 0);
    /* the root and members beyond the short one may finish first (rooted) */
    CHECK(st == ORDO_OK || st == ORDO_ERR_TRUNCATED);
    if (me == last)
        CHECK_STATUS(st, ORDO_ERR_TRUNCATED);
    next_call_agrees(c, "bcast_truncated: next", ORDO_ERR_COLL_BROKEN);
}

int main(int argc, char **argv)
{
    REQUIRE_OK(ordo_init(NULL));
    me = ordo_rank();
    np = ordo_size();
    last = np - 1;
    if (np < 2 || np > 64) {
        ordo_finalize();
        return 0;   /* nobody to disagree with */
    }
    uniform_refusal(ORDO_COMM_WORLD, "uniform_refusal: world");
    void (*cases[])(ordo_comm_h) = {one_refuses, late_refuser, early_refuser, barrier_refused,
                                    refused_while_others_in_flight};
    /* repeated: messages of failed calls must not pile up or hold credits */
    for (int round = 0; round < 3; round++) {
        for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
            ordo_comm_h c = fresh();
            cases[k](c);
            CHECK_OK(ordo_comm_destroy(c));
        }
    }
    if (argc > 1 && strcmp(argv[1], "bcast-truncate") == 0) {
        ordo_comm_h c = fresh();
        bcast_truncated(c);
        CHECK_OK(ordo_comm_destroy(c));
    }
    ordo_comm_h c = fresh();
    uniform_refusal(c, "uniform_refusal: context");
    CHECK_OK(ordo_comm_destroy(c));
    CHECK_OK(ordo_coll_barrier(ORDO_COMM_WORLD));
    int rc = test_result("test_coll_errors");
    CHECK_OK(ordo_finalize());
    return rc;
}
