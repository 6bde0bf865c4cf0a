/* Persistent point-to-point requests: a halo ring restarted many times with
 * new contents each time (eager and rendezvous sizes), the inactive
 * handle's behaviour in wait / test / waitall / waitany, ORDO_PROC_NULL,
 * cancel and restart, and every misuse. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"

static int me, np;

static void ring(size_t len, int iters)
{
    int right = (me + 1) % np, left = (me - 1 + np) % np;
    unsigned char *out = malloc(len + 1), *in = malloc(len + 1);
    ordo_request_h r[2];
    REQUIRE_OK(ordo_recv_init(ORDO_COMM_WORLD, in, len, left, 3, &r[0]));
    REQUIRE_OK(ordo_send_init(ORDO_COMM_WORLD, out, len, right, 3, &r[1]));
    for (int it = 0; it < iters; it++) {
        test_fill(out, len, (uint64_t)me * 1000 + (uint64_t)it);   /* new contents, same buffer */
        CHECK_OK(ordo_startall(2, r));
        ordo_completion_t info[2];
        CHECK_OK(ordo_request_waitall(2, r, info));
        CHECK(r[0] != NULL && r[1] != NULL);   /* the handles stay */
        CHECK(info[0].source == left && info[0].tag == 3 && info[0].length == len);
        unsigned char *want = malloc(len + 1);
        test_fill(want, len, (uint64_t)left * 1000 + (uint64_t)it);
        CHECK(memcmp(in, want, len) == 0);
        free(want);
    }
    CHECK_OK(ordo_request_free(&r[0]));
    CHECK_OK(ordo_request_free(&r[1]));
    CHECK(r[0] == NULL && r[1] == NULL);
    free(out), free(in);
}

static void inactive_and_misuse(void)
{
    int x = 5, y = 0;
    ordo_request_h s, r, stale;
    REQUIRE_OK(ordo_send_init(ORDO_COMM_WORLD, &x, sizeof(x), me, 9, &s));
    REQUIRE_OK(ordo_recv_init(ORDO_COMM_WORLD, &y, sizeof(y), me, 9, &r));
    /* never started: complete at once, empty */
    ordo_completion_t info;
    CHECK_OK(ordo_request_wait(&s, &info));
    CHECK(s != NULL && info.source == -1);
    int done = 0;
    CHECK_OK(ordo_request_test(&r, &done, NULL));
    CHECK(done == 1 && r != NULL);
    done = 0;
    CHECK_OK(ordo_request_check(r, &done, &info));   /* inactive: done, empty */
    CHECK(done == 1 && info.source == -1);
    size_t idx = 0;
    ordo_request_h both[2] = {s, r};
    CHECK_OK(ordo_request_waitany(2, both, &idx, NULL));
    CHECK(idx == ORDO_INDEX_NONE);
    /* started: waitany finds the active one */
    CHECK_OK(ordo_start(r));
    CHECK_STATUS(ordo_start(r), ORDO_ERR_BUSY);
    CHECK_STATUS(ordo_request_free(&r), ORDO_ERR_BUSY);
    CHECK_OK(ordo_start(s));
    size_t count = 0, indices[2];
    ordo_request_h pair[2] = {s, r};
    for (int i = 0; i < 1000000; i++) {   /* a started one: checked, kept, then waited */
        CHECK_OK(ordo_request_check(r, &done, &info));
        if (done)
            break;
    }
    CHECK(done == 1 && info.length == sizeof(y) && info.source == me);
    CHECK_OK(ordo_request_waitall(2, pair, NULL));
    CHECK(y == 5);
    CHECK_OK(ordo_request_testsome(2, pair, &count, indices, NULL));
    CHECK(count == 0);   /* both inactive again */
    /* cancel a receive nobody sends to, then use the request again */
    CHECK_OK(ordo_start(r));
    CHECK_OK(ordo_request_cancel(r));
    CHECK_OK(ordo_request_wait(&r, &info));
    CHECK(info.cancelled == 1);
    x = 6;
    CHECK_OK(ordo_start(s));
    CHECK_OK(ordo_start(r));
    CHECK_OK(ordo_request_wait(&s, NULL));
    CHECK_OK(ordo_request_wait(&r, NULL));
    CHECK(y == 6);
    /* freed: the old handle is refused */
    stale = s;
    CHECK_OK(ordo_request_free(&s));
    CHECK_STATUS(ordo_start(stale), ORDO_ERR_INVALID_HANDLE);
    CHECK_STATUS(ordo_request_wait(&stale, NULL), ORDO_ERR_INVALID_HANDLE);
    CHECK_OK(ordo_request_free(&r));
    /* startall checks all before starting any */
    ordo_request_h a, b;
    REQUIRE_OK(ordo_recv_init(ORDO_COMM_WORLD, &y, sizeof(y), me, 10, &a));
    REQUIRE_OK(ordo_start(a));
    REQUIRE_OK(ordo_send_init(ORDO_COMM_WORLD, &x, sizeof(x), me, 10, &b));
    ordo_request_h ab[2] = {b, a};
    CHECK_STATUS(ordo_startall(2, ab), ORDO_ERR_BUSY);
    CHECK_OK(ordo_start(b));   /* b was not started by the refused startall */
    CHECK_OK(ordo_request_wait(&a, NULL));
    CHECK_OK(ordo_request_wait(&b, NULL));
    CHECK_OK(ordo_request_free(&a));
    CHECK_OK(ordo_request_free(&b));
    /* a request that is not persistent */
    ordo_request_h nb;
    REQUIRE_OK(ordo_recv_nb(ORDO_COMM_WORLD, &y, sizeof(y), me, 11, &nb) == ORDO_INPROGRESS
                   ? ORDO_OK : ORDO_ERR_IO);
    CHECK_STATUS(ordo_start(nb), ORDO_ERR_INVALID_PARAM);
    CHECK_STATUS(ordo_request_free(&nb), ORDO_ERR_INVALID_PARAM);
    CHECK(nb != NULL);
    x = 7;
    CHECK_OK(ordo_send(ORDO_COMM_WORLD, &x, sizeof(x), me, 11));
    CHECK_OK(ordo_request_wait(&nb, NULL));
    CHECK(y == 7);
    CHECK_STATUS(ordo_start(NULL), ORDO_ERR_INVALID_HANDLE);
    /* arguments checked at init */
    CHECK_STATUS(ordo_send_init(ORDO_COMM_WORLD, &x, 4, np, 0, &nb), ORDO_ERR_INVALID_RANK);
    CHECK_STATUS(ordo_recv_init(ORDO_COMM_WORLD, &x, 4, 0, -5, &nb), ORDO_ERR_INVALID_PARAM);
    CHECK_STATUS(ordo_send_init(ORDO_COMM_WORLD, NULL, 4, 0, 0, &nb), ORDO_ERR_INVALID_PARAM);
    CHECK_STATUS(ordo_send_init(ORDO_COMM_WORLD, &x, 4, 0, 0, NULL), ORDO_ERR_INVALID_PARAM);
    CHECK_STATUS(ordo_startall(1, NULL), ORDO_ERR_INVALID_PARAM);
    CHECK_STATUS(ordo_request_free(NULL), ORDO_ERR_INVALID_PARAM);
    /* ORDO_PROC_NULL: complete at once, reported as MPI does */
    ordo_request_h pn;
    REQUIRE_OK(ordo_recv_init(ORDO_COMM_WORLD, &y, sizeof(y), ORDO_PROC_NULL, 1, &pn));
    CHECK_OK(ordo_start(pn));
    CHECK_OK(ordo_request_wait(&pn, &info));
    CHECK(info.source == ORDO_PROC_NULL && info.tag == ORDO_ANY_TAG && info.length == 0);
    CHECK_OK(ordo_request_free(&pn));
    REQUIRE_OK(ordo_send_init(ORDO_COMM_WORLD, &x, sizeof(x), ORDO_PROC_NULL, 1, &pn));
    CHECK_OK(ordo_start(pn));
    CHECK_OK(ordo_request_wait(&pn, NULL));
    CHECK_OK(ordo_request_free(&pn));
}

/* A context destroyed under an inactive request: its next start is refused. */
static void destroyed_context(void)
{
    ordo_comm_h c;
    REQUIRE_OK(ordo_comm_create(NULL, &c));
    int x = 1;
    ordo_request_h s;
    REQUIRE_OK(ordo_send_init(c, &x, sizeof(x), me, 0, &s));
    CHECK_OK(ordo_comm_destroy(c));
    CHECK_STATUS(ordo_start(s), ORDO_ERR_INVALID_HANDLE);
    CHECK_OK(ordo_request_free(&s));
}

int main(void)
{
    REQUIRE_OK(ordo_init(NULL));
    me = ordo_rank();
    np = ordo_size();
    ring(8, 200);
    ring(3000, 50);
    ring(200000, 10);
    inactive_and_misuse();
    destroyed_context();
    CHECK_OK(ordo_coll_barrier(ORDO_COMM_WORLD));
    int rc = test_result("test_persistent");
    CHECK_OK(ordo_finalize());
    return rc;
}
