/* ORDO_PROC_NULL in every point-to-point and one-sided call, ordo_sendrecv,
 * and the clock (ordo_wtime, ordo_wtick).  Any rank count. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../harness.h"

static int me, np;

static void clock_calls(void)
{
    double tick = ordo_wtick();
    CHECK(tick > 0 && tick < 1e-3);
    double t0 = ordo_wtime();
    struct timespec nap = {0, 10 * 1000 * 1000};
    nanosleep(&nap, NULL);
    double t1 = ordo_wtime();
    CHECK(t1 - t0 >= 0.009 && t1 - t0 < 5.0);
}

static void two_sided(void)
{
    int x = 7, y = 42;
    ordo_request_h req = (ordo_request_h)&x;
    CHECK_OK(ordo_send(ORDO_COMM_WORLD, &x, sizeof(x), ORDO_PROC_NULL, 3));
    CHECK_OK(ordo_send_nb(ORDO_COMM_WORLD, &x, sizeof(x), ORDO_PROC_NULL, 3, &req));
    CHECK(req == NULL);

    ordo_completion_t info = {.source = 99, .tag = 99, .length = 99};
    CHECK_OK(ordo_recv(ORDO_COMM_WORLD, &y, sizeof(y), ORDO_PROC_NULL, 3, &info));
    CHECK(y == 42);   /* nothing received */
    CHECK(info.source == ORDO_PROC_NULL && info.tag == ORDO_ANY_TAG && info.length == 0 &&
          info.msg_length == 0);
    CHECK_OK(ordo_recv(ORDO_COMM_WORLD, &y, sizeof(y), ORDO_PROC_NULL, ORDO_ANY_TAG, NULL));

    CHECK_STATUS(ordo_recv_nb(ORDO_COMM_WORLD, &y, sizeof(y), ORDO_PROC_NULL, 3, &req),
                 ORDO_INPROGRESS);
    int flag = 0;
    memset(&info, 0x55, sizeof(info));
    CHECK_OK(ordo_request_test(&req, &flag, &info));
    CHECK(flag == 1 && req == NULL);
    CHECK(info.source == ORDO_PROC_NULL && info.length == 0 && y == 42);

    memset(&info, 0x55, sizeof(info));
    CHECK_OK(ordo_probe(ORDO_COMM_WORLD, ORDO_PROC_NULL, 3, &info));
    CHECK(info.source == ORDO_PROC_NULL && info.tag == ORDO_ANY_TAG && info.length == 0);
    flag = 0;
    CHECK_OK(ordo_probe_nb(ORDO_COMM_WORLD, ORDO_PROC_NULL, ORDO_ANY_TAG, &flag, NULL));
    CHECK(flag == 1);

    /* the arguments are still checked */
    CHECK_STATUS(ordo_send(ORDO_COMM_WORLD, &x, sizeof(x), ORDO_PROC_NULL, -5),
                 ORDO_ERR_INVALID_PARAM);
    CHECK_STATUS(ordo_send(ORDO_COMM_WORLD, NULL, 4, ORDO_PROC_NULL, 1), ORDO_ERR_INVALID_PARAM);
    CHECK_STATUS(ordo_recv(ORDO_COMM_WORLD, NULL, 4, ORDO_PROC_NULL, 1, NULL),
                 ORDO_ERR_INVALID_PARAM);
    CHECK_STATUS(ordo_send_nb(ORDO_COMM_WORLD, &x, sizeof(x), ORDO_PROC_NULL, 1, NULL),
                 ORDO_ERR_INVALID_PARAM);
    CHECK_STATUS(ordo_send(ORDO_COMM_WORLD, &x, sizeof(x), -3, 1), ORDO_ERR_INVALID_RANK);
}

static void sendrecv(void)
{
    /* a non-periodic shift to the right: the ends talk to ORDO_PROC_NULL */
    int left = me > 0 ? me - 1 : ORDO_PROC_NULL, right = me < np - 1 ? me + 1 : ORDO_PROC_NULL;
    int out = 1000 + me, in = -1;
    ordo_completion_t info;
    CHECK_OK(ordo_sendrecv(ORDO_COMM_WORLD, &out, sizeof(out), right, 4, &in, sizeof(in), left,
                           4, &info));
    if (left == ORDO_PROC_NULL)
        CHECK(in == -1 && info.source == ORDO_PROC_NULL && info.length == 0);
    else
        CHECK(in == 1000 + left && info.source == left && info.length == sizeof(in));

    /* a periodic ring of large messages: the receives are posted first, so
     * no rank waits for another's (rendezvous) send to be received */
    enum { BIG = 1 << 20 };
    char *sbuf = malloc(BIG), *rbuf = malloc(BIG);
    memset(sbuf, 'a' + me % 26, BIG);
    memset(rbuf, 0, BIG);
    int pr = (me + 1) % np, pl = (me + np - 1) % np;
    CHECK_OK(ordo_sendrecv(ORDO_COMM_WORLD, sbuf, BIG, pr, 5, rbuf, BIG, pl, 5, NULL));
    CHECK(rbuf[0] == 'a' + pl % 26 && rbuf[BIG - 1] == 'a' + pl % 26);

    /* a receive buffer too small: truncated, nothing past it written */
    memset(rbuf, 0, BIG);
    CHECK_STATUS(ordo_sendrecv(ORDO_COMM_WORLD, sbuf, 64, pr, 6, rbuf, 16, pl, 6, &info),
                 ORDO_ERR_TRUNCATED);
    CHECK(info.msg_length == 64 && info.length == 16 && rbuf[15] == 'a' + pl % 26 &&
          rbuf[16] == 0);

    /* a send that cannot start: its error, and the receive is withdrawn */
    CHECK_STATUS(ordo_sendrecv(ORDO_COMM_WORLD, sbuf, 8, np + 5, 7, rbuf, 8, pl, 7, NULL),
                 ORDO_ERR_INVALID_RANK);
    /* the withdrawn receive takes nothing: a message sent after it (nobody
     * sends tag 7 before this barrier) goes to the next receive */
    CHECK_OK(ordo_coll_barrier(ORDO_COMM_WORLD));
    int token = me, got = -1;
    CHECK_OK(ordo_sendrecv(ORDO_COMM_WORLD, &token, sizeof(token), pr, 7, &got, sizeof(got),
                           pl, 7, NULL));
    CHECK(got == pl);
    free(sbuf), free(rbuf);
}

static void one_sided(void)
{
    ordo_region_h r;
    void *base;
    REQUIRE_OK(ordo_region_alloc(64, ORDO_REGION_EPOCHS, &r, &base));
    memset(base, 0, 64);
    CHECK_OK(ordo_coll_barrier(ORDO_COMM_WORLD));
    uint64_t v = 0x1122334455667788ull, got = 5, one = 1;
    ordo_request_h req = (ordo_request_h)&v;
    /* the region takes epochs: PROC_NULL needs none */
    CHECK_OK(ordo_put(NULL, &v, 8, r, ORDO_PROC_NULL, 0, 0));
    CHECK_OK(ordo_put_nb(NULL, &v, 8, r, ORDO_PROC_NULL, 1u << 30, 0, &req));
    CHECK(req == NULL);
    CHECK_OK(ordo_get(NULL, &got, 8, r, ORDO_PROC_NULL, 0, 0));
    CHECK(got == 5);
    req = (ordo_request_h)&v;
    CHECK_OK(ordo_get_nb(NULL, &got, 8, r, ORDO_PROC_NULL, 0, 0, &req));
    CHECK(req == NULL && got == 5);
    CHECK_OK(ordo_atomic(NULL, ORDO_ATOMIC_ADD, ORDO_UINT64, &one, NULL, &got, r,
                         ORDO_PROC_NULL, 3, 0));   /* misaligned, but no target */
    CHECK(got == 5);
    req = (ordo_request_h)&v;
    CHECK_OK(ordo_atomic_nb(NULL, ORDO_ATOMIC_SWAP, ORDO_UINT64, &one, NULL, &got, r,
                            ORDO_PROC_NULL, 0, 0, &req));
    CHECK(req == NULL && got == 5);
    CHECK_OK(ordo_flush(NULL, ORDO_PROC_NULL));
    CHECK_OK(ordo_epoch_lock(r, ORDO_LOCK_EXCLUSIVE, ORDO_PROC_NULL, 0));
    CHECK_OK(ordo_epoch_flush(r, ORDO_PROC_NULL));
    CHECK_OK(ordo_epoch_flush_local(r, ORDO_PROC_NULL));
    CHECK_OK(ordo_epoch_unlock(r, ORDO_PROC_NULL));
    /* still checked: the handle, the buffer, SWAP's result */
    CHECK_STATUS(ordo_put(NULL, &v, 8, NULL, ORDO_PROC_NULL, 0, 0), ORDO_ERR_INVALID_HANDLE);
    CHECK_STATUS(ordo_put(NULL, NULL, 8, r, ORDO_PROC_NULL, 0, 0), ORDO_ERR_INVALID_PARAM);
    CHECK_STATUS(ordo_atomic(NULL, ORDO_ATOMIC_SWAP, ORDO_UINT64, &one, NULL, NULL, r,
                             ORDO_PROC_NULL, 0, 0), ORDO_ERR_INVALID_PARAM);
    CHECK_STATUS(ordo_put(NULL, &v, 8, r, -7, 0, 0), ORDO_ERR_INVALID_RANK);
    CHECK_OK(ordo_quiet(NULL));
    CHECK_OK(ordo_coll_barrier(ORDO_COMM_WORLD));
    const uint64_t *w = base;
    for (int i = 0; i < 8; i++)
        CHECK(w[i] == 0);   /* nothing landed anywhere */
    CHECK_OK(ordo_region_free(r));
}

int main(void)
{
    clock_calls();   /* before ordo_init too */
    REQUIRE_OK(ordo_init(NULL));
    me = ordo_rank();
    np = ordo_size();
    clock_calls();
    two_sided();
    sendrecv();
    one_sided();
    CHECK_OK(ordo_finalize());
    return test_result("test_proc_null");
}
