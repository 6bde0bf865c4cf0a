/* A communication thread beside the computing one (ORDO_THREAD_MULTIPLE).
 *
 * Every rank passes values round a ring: its main thread computes them and
 * sends each to the right-hand rank, while a second thread receives from
 * the left-hand rank and sums what arrives.  The receiving thread spends
 * most of its time blocked in ordo_recv; ordo lets the sending thread in
 * meanwhile.  At the end the ranks check the total with an allreduce.
 *
 *   ordorun -n 4 build/bin/threads_ring [count]
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <ordo/ordo.h>

typedef struct {
    ordo_comm_h comm;
    int         left, count;
    int64_t     sum;
    ordo_status_t status;
} listener_t;

static int64_t value(int rank, int i) { return (int64_t)rank * 1000003 + i; }

static void *listen_left(void *arg)
{
    listener_t *l = arg;
    for (int i = 0; i < l->count && l->status == ORDO_OK; i++) {
        int64_t v;
        l->status = ordo_recv(l->comm, &v, sizeof(v), l->left, 1, NULL);
        l->sum += v;
    }
    return NULL;
}

static int fail(const char *what, ordo_status_t st)
{
    fprintf(stderr, "threads_ring: %s: %s\n", what, ordo_status_string(st));
    return 1;
}

int main(int argc, char **argv)
{
    int count = argc > 1 ? atoi(argv[1]) : 10000;
    ordo_init_params_t params = {.field_mask = ORDO_INIT_FIELD_THREAD_LEVEL,
                                 .thread_level = ORDO_THREAD_MULTIPLE};
    ordo_status_t st = ordo_init(&params);
    if (st != ORDO_OK)
        return fail("ordo_init", st);
    int me = ordo_rank(), n = ordo_size();

    /* the ring's messages get a context of their own */
    listener_t l = {.left = (me + n - 1) % n, .count = count, .status = ORDO_OK};
    if ((st = ordo_comm_create(NULL, &l.comm)) != ORDO_OK)
        return fail("ordo_comm_create", st);
    pthread_t listener;
    if (pthread_create(&listener, NULL, listen_left, &l) != 0)
        return fail("pthread_create", ORDO_ERR_IO);

    int right = (me + 1) % n;
    for (int i = 0; i < count && st == ORDO_OK; i++) {
        int64_t v = value(me, i);   /* "computed" */
        st = ordo_send(l.comm, &v, sizeof(v), right, 1);
    }
    pthread_join(listener, NULL);
    if (st != ORDO_OK)
        return fail("ordo_send", st);
    if (l.status != ORDO_OK)
        return fail("ordo_recv", l.status);

    int64_t expected = 0, total = 0;
    for (int i = 0; i < count; i++)
        expected += value(l.left, i);
    int64_t ok = l.sum == expected, all_ok = 0;
    if ((st = ordo_coll_allreduce(ORDO_COMM_WORLD, &l.sum, &total, 1, ORDO_DT_INT64,
                                  ORDO_REDUCE_SUM)) != ORDO_OK ||
        (st = ordo_coll_allreduce(ORDO_COMM_WORLD, &ok, &all_ok, 1, ORDO_DT_INT64,
                                  ORDO_REDUCE_MIN)) != ORDO_OK)
        return fail("ordo_coll_allreduce", st);
    if (me == 0)
        printf("threads_ring: %d ranks passed %d values each; total %lld, %s\n", n, count,
               (long long)total, all_ok ? "every rank summed what it should" : "WRONG SUMS");
    ordo_comm_destroy(l.comm);
    ordo_finalize();
    return all_ok ? 0 : 1;
}
