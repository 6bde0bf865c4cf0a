/* MPI conformance: point-to-point.  Every send mode, blocking, immediate
 * and persistent; receives with wildcards; probes and matched probes; the
 * wait / test family; cancel; MPI_PROC_NULL; truncation; derived types on
 * the wire.  Pairs exchange: rank r with r ^ 1 (an odd last rank alone
 * checks what needs no partner). */
#include "mpi_harness.h"

static int peer;
static MPI_Comm pairs;   /* the ranks that have a partner */

static void modes(void)
{
    int out[4] = {1, 2, 3, 4}, in[4] = {0};
    MPI_Status st;
    int count = -1;
    /* blocking, each mode; the even rank sends first */
    for (int mode = 0; mode < 4; mode++) {
        memset(in, 0, sizeof(in));
        if (me % 2 == 0) {
            switch (mode) {
            case 0: OK(MPI_Send(out, 4, MPI_INT, peer, mode, MPI_COMM_WORLD)); break;
            case 1: OK(MPI_Ssend(out, 4, MPI_INT, peer, mode, MPI_COMM_WORLD)); break;
            case 2: OK(MPI_Rsend(out, 4, MPI_INT, peer, mode, MPI_COMM_WORLD)); break;
            default: {
                int size = 0;
                OK(MPI_Pack_size(4, MPI_INT, MPI_COMM_WORLD, &size));
                size += MPI_BSEND_OVERHEAD;
                void *buf = malloc((size_t)size);
                OK(MPI_Buffer_attach(buf, size));
                /* a message larger than the buffer does not fit */
                static int big[1024];
                CHECK(class_of(MPI_Bsend(big, 1024, MPI_INT, peer, mode, MPI_COMM_WORLD)) ==
                      MPI_ERR_BUFFER);
                OK(MPI_Bsend(out, 4, MPI_INT, peer, mode, MPI_COMM_WORLD));
                void *back = NULL;
                int back_size = 0;
                OK(MPI_Buffer_detach(&back, &back_size));
                CHECK(back == buf && back_size == size);
                free(buf);
            }
            }
        } else {
            if (mode == 2)   /* ready mode: the receive is posted first */
                OK(MPI_Recv(in, 4, MPI_INT, peer, mode, MPI_COMM_WORLD, &st));
            else
                OK(MPI_Recv(in, 4, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
            CHECK(st.MPI_SOURCE == peer && st.MPI_TAG == mode);
            OK(MPI_Get_count(&st, MPI_INT, &count));
            CHECK(count == 4 && in[3] == 4);
        }
        OK(MPI_Barrier(pairs));
    }
}

/* MPI-4.1 buffers: a communicator's own (used before the process's by its
 * sends), MPI_BUFFER_AUTOMATIC, flush and iflush, detach giving back what
 * was attached. */
static void comm_buffers(void)
{
    MPI_Comm c;
    OK(MPI_Comm_dup(pairs, &c));
    int prank;
    OK(MPI_Comm_rank(c, &prank));
    int other = prank ^ 1, out[8] = {1, 2, 3, 4, 5, 6, 7, 8}, in[8];
    int size = 0;
    OK(MPI_Pack_size(8, MPI_INT, c, &size));
    size += MPI_BSEND_OVERHEAD;
    void *buf = malloc((size_t)size), *back = NULL;
    MPI_Count back_size = 0;
    CHECK(class_of(MPI_Comm_detach_buffer_c(c, &back, &back_size)) == MPI_ERR_BUFFER);
    OK(MPI_Comm_attach_buffer(c, buf, size));
    CHECK(class_of(MPI_Comm_attach_buffer(c, buf, size)) == MPI_ERR_BUFFER);
    /* the process has no buffer: the communicator's carries this one */
    OK(MPI_Bsend(out, 8, MPI_INT, other, 1, c));
    static int more[64];   /* larger than the communicator's buffer */
    CHECK(class_of(MPI_Bsend(more, 64, MPI_INT, other, 1, c)) == MPI_ERR_BUFFER);
    MPI_Request req;
    OK(MPI_Comm_iflush_buffer(c, &req));
    OK(MPI_Recv(in, 8, MPI_INT, other, 1, c, MPI_STATUS_IGNORE));
    OK(MPI_Wait(&req, MPI_STATUS_IGNORE));   /* the message went */
    CHECK(req == MPI_REQUEST_NULL && in[7] == 8);
    OK(MPI_Bsend(out, 8, MPI_INT, other, 2, c));   /* room again */
    OK(MPI_Recv(in, 8, MPI_INT, other, 2, c, MPI_STATUS_IGNORE));
    OK(MPI_Comm_flush_buffer(c));
    OK(MPI_Comm_detach_buffer_c(c, &back, &back_size));
    CHECK(back == buf && back_size == size);
    free(buf);
    /* automatic: no limit, given back as MPI_BUFFER_AUTOMATIC */
    OK(MPI_Comm_attach_buffer(c, MPI_BUFFER_AUTOMATIC, 0));
    static int big[4096];
    for (int i = 0; i < 3; i++)
        OK(MPI_Bsend(big, 4096, MPI_INT, other, 3, c));
    for (int i = 0; i < 3; i++)
        OK(MPI_Recv(big, 4096, MPI_INT, other, 3, c, MPI_STATUS_IGNORE));
    OK(MPI_Buffer_iflush(&req));   /* the process's: nothing there */
    OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    int isize = 0;
    OK(MPI_Comm_detach_buffer(c, &back, &isize));
    CHECK(back == MPI_BUFFER_AUTOMATIC && isize == 0);
    /* freed with a buffer attached and a message in it: it goes first */
    OK(MPI_Comm_attach_buffer(c, MPI_BUFFER_AUTOMATIC, 0));
    OK(MPI_Bsend(out, 8, MPI_INT, other, 4, c));
    OK(MPI_Recv(in, 8, MPI_INT, other, 4, c, MPI_STATUS_IGNORE));
    OK(MPI_Comm_free(&c));
}

static void synchronous(void)
{
    /* an Issend does not complete before its receive is posted */
    int v = 11, got = 0, flag = 1;
    MPI_Request req;
    if (me % 2 == 0) {
        OK(MPI_Issend(&v, 1, MPI_INT, peer, 20, MPI_COMM_WORLD, &req));
        for (int i = 0; i < 200 && flag; i++)
            OK(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
        CHECK(flag == 0);
        OK(MPI_Barrier(pairs));
        OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        CHECK(req == MPI_REQUEST_NULL);
    } else {
        OK(MPI_Barrier(pairs));
        OK(MPI_Recv(&got, 1, MPI_INT, peer, 20, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(got == 11);
    }
}

static void immediate(void)
{
    enum { N = 24 };
    int out[N], in[N];
    MPI_Request reqs[2 * N];
    MPI_Status sts[2 * N];
    for (int i = 0; i < N; i++) {
        out[i] = 100 * me + i;
        in[i] = -1;
        OK(MPI_Irecv(&in[i], 1, MPI_INT, peer, i, MPI_COMM_WORLD, &reqs[i]));
    }
    for (int i = 0; i < N; i++)
        OK(MPI_Isend(&out[i], 1, MPI_INT, peer, i, MPI_COMM_WORLD, &reqs[N + i]));
    /* waitany until half, then waitsome, then waitall */
    int done = 0;
    while (done < N / 2) {
        int idx = -1;
        OK(MPI_Waitany(2 * N, reqs, &idx, &sts[0]));
        CHECK(idx >= 0 && idx < 2 * N && reqs[idx] == MPI_REQUEST_NULL);
        if (idx < N)
            CHECK(sts[0].MPI_SOURCE == peer && sts[0].MPI_TAG == idx);
        done++;
    }
    int outcount = 0, idxs[2 * N];
    OK(MPI_Waitsome(2 * N, reqs, &outcount, idxs, sts));
    CHECK(outcount >= 1 || outcount == MPI_UNDEFINED);
    OK(MPI_Waitall(2 * N, reqs, sts));
    for (int i = 0; i < 2 * N; i++)
        CHECK(reqs[i] == MPI_REQUEST_NULL);
    for (int i = 0; i < N; i++)
        CHECK(in[i] == 100 * peer + i);
    /* all null: waitany says MPI_UNDEFINED, testall is true */
    int idx = 0, flag = 0;
    OK(MPI_Waitany(2 * N, reqs, &idx, MPI_STATUS_IGNORE));
    CHECK(idx == MPI_UNDEFINED);
    OK(MPI_Testall(2 * N, reqs, &flag, MPI_STATUSES_IGNORE));
    CHECK(flag == 1);
}

static void persistent(void)
{
    int out = 0, in = -1;
    MPI_Request reqs[2];
    OK(MPI_Recv_init(&in, 1, MPI_INT, peer, 30, MPI_COMM_WORLD, &reqs[0]));
    OK(MPI_Send_init(&out, 1, MPI_INT, peer, 30, MPI_COMM_WORLD, &reqs[1]));
    for (int round = 0; round < 5; round++) {
        out = 1000 * me + round;
        OK(MPI_Startall(2, reqs));
        CHECK(class_of(MPI_Start(&reqs[0])) == MPI_ERR_REQUEST);   /* already active */
        OK(MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE));
        CHECK(reqs[0] != MPI_REQUEST_NULL && reqs[1] != MPI_REQUEST_NULL);
        CHECK(in == 1000 * peer + round);
    }
    /* an inactive persistent request waits as complete, status empty */
    MPI_Status st;
    OK(MPI_Wait(&reqs[0], &st));
    CHECK(st.MPI_TAG == MPI_ANY_TAG && reqs[0] != MPI_REQUEST_NULL);
    OK(MPI_Request_free(&reqs[0]));
    OK(MPI_Request_free(&reqs[1]));
    CHECK(reqs[0] == MPI_REQUEST_NULL);
}

static void probes(void)
{
    int out[3] = {7, 8, 9}, in[3] = {0};
    MPI_Status st;
    int flag = 0, count = 0;
    OK(MPI_Send(out, 3, MPI_INT, peer, 40, MPI_COMM_WORLD));
    OK(MPI_Probe(peer, 40, MPI_COMM_WORLD, &st));
    OK(MPI_Get_count(&st, MPI_INT, &count));
    CHECK(st.MPI_SOURCE == peer && st.MPI_TAG == 40 && count == 3);
    OK(MPI_Iprobe(MPI_ANY_SOURCE, 40, MPI_COMM_WORLD, &flag, &st));
    CHECK(flag && st.MPI_TAG == 40);
    OK(MPI_Recv(in, 3, MPI_INT, peer, 40, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(in[2] == 9);
    OK(MPI_Iprobe(peer, 40, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
    CHECK(!flag);

    /* matched probes: the message found is the one received */
    MPI_Message msg;
    OK(MPI_Send(out, 2, MPI_INT, peer, 41, MPI_COMM_WORLD));
    OK(MPI_Send(out, 3, MPI_INT, peer, 42, MPI_COMM_WORLD));
    OK(MPI_Mprobe(peer, 42, MPI_COMM_WORLD, &msg, &st));
    OK(MPI_Get_count(&st, MPI_INT, &count));
    CHECK(count == 3 && msg != MPI_MESSAGE_NULL);
    memset(in, 0, sizeof(in));
    OK(MPI_Mrecv(in, 3, MPI_INT, &msg, &st));
    CHECK(msg == MPI_MESSAGE_NULL && in[2] == 9 && st.MPI_TAG == 42);
    flag = 0;
    while (!flag)
        OK(MPI_Improbe(peer, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &msg, &st));
    CHECK(st.MPI_TAG == 41);
    MPI_Request req;
    memset(in, 0, sizeof(in));
    OK(MPI_Imrecv(in, 3, MPI_INT, &msg, &req));
    OK(MPI_Wait(&req, &st));
    OK(MPI_Get_count(&st, MPI_INT, &count));
    CHECK(count == 2 && in[1] == 8 && in[2] == 0);
    OK(MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &msg, &st));
    CHECK(msg == MPI_MESSAGE_NO_PROC && st.MPI_SOURCE == MPI_PROC_NULL);
    OK(MPI_Mrecv(in, 1, MPI_INT, &msg, &st));
    CHECK(msg == MPI_MESSAGE_NULL);
}

static void edges(void)
{
    /* MPI_PROC_NULL: at once, source MPI_PROC_NULL, nothing received */
    int v = 5, count = -1;
    MPI_Status st;
    OK(MPI_Send(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD));
    OK(MPI_Recv(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st));
    OK(MPI_Get_count(&st, MPI_INT, &count));
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG && count == 0 && v == 5);

    /* a cancelled receive that never matched */
    MPI_Request req;
    int flag = 0;
    OK(MPI_Irecv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &req));
    OK(MPI_Cancel(&req));
    OK(MPI_Wait(&req, &st));
    OK(MPI_Test_cancelled(&st, &flag));
    CHECK(flag == 1);

    /* the immediate sendrecv forms around a ring, and the 4.1 status calls */
    int out2 = 10 * me, in2 = -1, token2 = me;
    MPI_Request two[2];
    OK(MPI_Isendrecv(&out2, 1, MPI_INT, (me + 1) % np, 51, &in2, 1, MPI_INT,
                     (me - 1 + np) % np, 51, MPI_COMM_WORLD, &two[0]));
    OK(MPI_Isendrecv_replace(&token2, 1, MPI_INT, (me + 1) % np, 52, (me - 1 + np) % np, 52,
                             MPI_COMM_WORLD, &two[1]));
    int all_done = 0;
    while (!all_done)
        OK(MPI_Request_get_status_all(2, two, &all_done, MPI_STATUSES_IGNORE));
    CHECK(two[0] != MPI_REQUEST_NULL);   /* not released */
    OK(MPI_Waitall(2, two, MPI_STATUSES_IGNORE));
    CHECK(in2 == 10 * ((me - 1 + np) % np) && token2 == (me - 1 + np) % np);

    /* Sendrecv_replace around a ring */
    int token = me;
    OK(MPI_Sendrecv_replace(&token, 1, MPI_INT, (me + 1) % np, 50, (me - 1 + np) % np, 50,
                            MPI_COMM_WORLD, &st));
    CHECK(token == (me - 1 + np) % np && st.MPI_SOURCE == (me - 1 + np) % np);
}

static void truncation(void)
{
    int out[4] = {1, 2, 3, 4}, in[4] = {0, 0, 0, -1};
    MPI_Status st;
    if (me % 2 == 0) {
        OK(MPI_Send(out, 4, MPI_INT, peer, 60, MPI_COMM_WORLD));
    } else {
        int rc = MPI_Recv(in, 2, MPI_INT, peer, 60, MPI_COMM_WORLD, &st);
        CHECK(class_of(rc) == MPI_ERR_TRUNCATE);
        CHECK(in[0] == 1 && in[1] == 2 && in[2] == 0 && in[3] == -1);   /* nothing past */
    }
}

/* Receives of contiguous data on MPI_COMM_WORLD (ordo-mpi hands out ordo's
 * own request for them): every call that takes a request knows them. */
static void world_receives(void)
{
    enum { N = 6 };
    int out[N], in[N], big[4] = {1, 2, 3, 4}, small[2] = {0, 0};
    MPI_Request r[N + 2];
    MPI_Status st[N + 2];
    for (int i = 0; i < N; i++) {
        out[i] = 1000 * me + i;
        in[i] = -1;
    }
    /* status without release, then the wait says the same */
    OK(MPI_Irecv(&in[0], 1, MPI_INT, peer, 70, MPI_COMM_WORLD, &r[0]));
    int flag = 1;
    OK(MPI_Request_get_status(r[0], &flag, &st[0]));
    OK(MPI_Send(&out[0], 1, MPI_INT, peer, 70, MPI_COMM_WORLD));
    for (flag = 0; !flag;)
        OK(MPI_Request_get_status(r[0], &flag, &st[0]));
    CHECK(r[0] != MPI_REQUEST_NULL && st[0].MPI_SOURCE == peer && st[0].MPI_TAG == 70);
    int count = -1;
    OK(MPI_Wait(&r[0], &st[1]));
    OK(MPI_Get_count(&st[1], MPI_INT, &count));
    CHECK(r[0] == MPI_REQUEST_NULL && count == 1 && in[0] == 1000 * peer);
    /* as an integer and back; Start and Grequest_complete refuse it */
    OK(MPI_Irecv(&in[1], 1, MPI_INT, MPI_ANY_SOURCE, 71, MPI_COMM_WORLD, &r[1]));
    CHECK(MPI_Request_fromint(MPI_Request_toint(r[1])) == r[1]);
    CHECK(class_of(MPI_Start(&r[1])) == MPI_ERR_REQUEST);
    CHECK(class_of(MPI_Grequest_complete(r[1])) == MPI_ERR_REQUEST);
    /* the any / some / all forms, with a derived-type receive among them */
    MPI_Datatype pair;
    OK(MPI_Type_vector(2, 1, 2, MPI_INT, &pair));
    OK(MPI_Type_commit(&pair));
    int strided[3] = {-1, -7, -1};
    OK(MPI_Irecv(strided, 1, pair, peer, 72, MPI_COMM_WORLD, &r[2]));
    for (int i = 3; i < N; i++)
        OK(MPI_Irecv(&in[i], 1, MPI_INT, peer, 70 + i, MPI_COMM_WORLD, &r[i]));
    OK(MPI_Send(&out[1], 1, MPI_INT, peer, 71, MPI_COMM_WORLD));
    int two[2] = {5, 6};
    OK(MPI_Send(two, 2, MPI_INT, peer, 72, MPI_COMM_WORLD));
    for (int i = 3; i < N; i++)
        OK(MPI_Send(&out[i], 1, MPI_INT, peer, 70 + i, MPI_COMM_WORLD));
    int idx = -1;
    OK(MPI_Waitany(1, &r[1], &idx, &st[0]));
    CHECK(idx == 0 && st[0].MPI_SOURCE == peer && in[1] == 1000 * peer + 1);
    flag = 0;
    while (!flag)
        OK(MPI_Testall(N - 2, &r[2], &flag, &st[2]));
    CHECK(strided[0] == 5 && strided[1] == -7 && strided[2] == 6);
    for (int i = 3; i < N; i++)
        CHECK(in[i] == 1000 * peer + i && st[i].MPI_TAG == 70 + i && r[i] == MPI_REQUEST_NULL);
    OK(MPI_Type_free(&pair));
    /* a truncated one: its error in its status, through waitall */
    OK(MPI_Irecv(small, 2, MPI_INT, peer, 77, MPI_COMM_WORLD, &r[0]));
    OK(MPI_Irecv(&in[0], 1, MPI_INT, peer, 78, MPI_COMM_WORLD, &r[1]));
    OK(MPI_Send(big, 4, MPI_INT, peer, 77, MPI_COMM_WORLD));
    OK(MPI_Send(&out[2], 1, MPI_INT, peer, 78, MPI_COMM_WORLD));
    CHECK(class_of(MPI_Waitall(2, r, st)) == MPI_ERR_IN_STATUS);
    CHECK(st[0].MPI_ERROR == MPI_ERR_TRUNCATE && st[1].MPI_ERROR == MPI_SUCCESS);
    CHECK(small[0] == 1 && small[1] == 2 && in[0] == 1000 * peer + 2);
    CHECK(r[0] == MPI_REQUEST_NULL && r[1] == MPI_REQUEST_NULL);
    /* ... and through a wait of its own */
    OK(MPI_Irecv(small, 2, MPI_INT, peer, 79, MPI_COMM_WORLD, &r[0]));
    OK(MPI_Send(big, 4, MPI_INT, peer, 79, MPI_COMM_WORLD));
    CHECK(class_of(MPI_Wait(&r[0], &st[0])) == MPI_ERR_TRUNCATE);
    /* freed while active: the handle goes, the receive goes on */
    OK(MPI_Isend(&out[5], 1, MPI_INT, peer, 80, MPI_COMM_WORLD, &r[1]));
    OK(MPI_Irecv(&in[5], 1, MPI_INT, peer, 80, MPI_COMM_WORLD, &r[0]));
    OK(MPI_Request_free(&r[0]));
    CHECK(r[0] == MPI_REQUEST_NULL);
    OK(MPI_Wait(&r[1], MPI_STATUS_IGNORE));
    /* a copy of a handle kept past its completion is no request any more:
     * every call says so, none hangs or reads past it */
    OK(MPI_Irecv(&in[4], 1, MPI_INT, peer, 82, MPI_COMM_WORLD, &r[0]));
    MPI_Request stale = r[0];
    OK(MPI_Send(&out[4], 1, MPI_INT, peer, 82, MPI_COMM_WORLD));
    OK(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
    CHECK(class_of(MPI_Wait(&stale, MPI_STATUS_IGNORE)) == MPI_ERR_REQUEST);
    CHECK(class_of(MPI_Test(&stale, &flag, MPI_STATUS_IGNORE)) == MPI_ERR_REQUEST);
    CHECK(class_of(MPI_Request_get_status(stale, &flag, MPI_STATUS_IGNORE)) ==
          MPI_ERR_REQUEST);
    CHECK(class_of(MPI_Waitall(1, &stale, MPI_STATUSES_IGNORE)) == MPI_ERR_REQUEST);
    /* cancelled: testsome reports it so */
    OK(MPI_Irecv(&in[4], 1, MPI_INT, peer, 81, MPI_COMM_WORLD, &r[0]));
    OK(MPI_Cancel(&r[0]));
    int outcount = 0, idxs[1];
    while (outcount == 0)
        OK(MPI_Testsome(1, r, &outcount, idxs, st));
    OK(MPI_Test_cancelled(&st[0], &flag));
    CHECK(outcount == 1 && flag == 1);
}

static void derived(void)
{
    /* a column of a 4x4 matrix goes out as a vector, lands contiguous */
    double m[4][4], col[4] = {0};
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            m[i][j] = 10 * i + j + me;
    MPI_Datatype column;
    OK(MPI_Type_vector(4, 1, 4, MPI_DOUBLE, &column));
    OK(MPI_Type_commit(&column));
    MPI_Request req;
    OK(MPI_Irecv(col, 4, MPI_DOUBLE, peer, 70, MPI_COMM_WORLD, &req));
    OK(MPI_Send(&m[0][2], 1, column, peer, 70, MPI_COMM_WORLD));
    MPI_Status st;
    OK(MPI_Wait(&req, &st));
    for (int i = 0; i < 4; i++)
        CHECK(col[i] == 10 * i + 2 + peer);
    /* and back: contiguous out, received into the column of a matrix */
    double back[4][4] = {{0}};
    OK(MPI_Irecv(&back[0][1], 1, column, peer, 71, MPI_COMM_WORLD, &req));
    OK(MPI_Type_free(&column));   /* the receive holds what it needs */
    OK(MPI_Send(col, 4, MPI_DOUBLE, peer, 71, MPI_COMM_WORLD));
    OK(MPI_Wait(&req, &st));
    int elements = 0;
    OK(MPI_Get_elements(&st, MPI_DOUBLE, &elements));
    CHECK(elements == 4);
    for (int i = 0; i < 4; i++)
        CHECK(back[i][1] == 10 * i + 2 + me && back[i][0] == 0 && back[i][2] == 0);
}

/* A generalized request's state: what its functions were called with. */
typedef struct greq_state {
    int queries, frees, cancels, cancel_complete;
} greq_state_t;

static int greq_query(void *extra, MPI_Status *status)
{
    greq_state_t *g = extra;
    g->queries++;
    status->MPI_SOURCE = 3;
    status->MPI_TAG = 7;
    MPI_Status_set_elements(status, MPI_INT, 5);
    MPI_Status_set_cancelled(status, 0);
    return MPI_SUCCESS;
}

static int greq_free(void *extra)
{
    ((greq_state_t *)extra)->frees++;
    return MPI_SUCCESS;
}

static int greq_cancel(void *extra, int complete)
{
    greq_state_t *g = extra;
    g->cancels++;
    g->cancel_complete = complete;
    return MPI_SUCCESS;
}

static void generalized(void)
{
    greq_state_t g = {0};
    MPI_Request r;
    OK(MPI_Grequest_start(greq_query, greq_free, greq_cancel, &g, &r));
    int flag = 1;
    OK(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
    CHECK(!flag && g.queries == 0);   /* the program has not completed it */
    OK(MPI_Cancel(&r));
    CHECK(g.cancels == 1 && g.cancel_complete == 0);
    OK(MPI_Grequest_complete(r));
    MPI_Status st;
    OK(MPI_Wait(&r, &st));
    int n = 0;
    OK(MPI_Get_count(&st, MPI_INT, &n));
    CHECK(r == MPI_REQUEST_NULL && st.MPI_SOURCE == 3 && st.MPI_TAG == 7 && n == 5);
    CHECK(g.queries == 1 && g.frees == 1);

    /* freed before it completes: its free function runs at completion */
    greq_state_t h = {0};
    OK(MPI_Grequest_start(greq_query, greq_free, greq_cancel, &h, &r));
    MPI_Request keep = r;
    OK(MPI_Request_free(&r));
    CHECK(r == MPI_REQUEST_NULL && h.frees == 0);
    OK(MPI_Grequest_complete(keep));
    CHECK(h.frees == 1);

    /* among others in a Waitall */
    greq_state_t k = {0};
    MPI_Request two[2];
    OK(MPI_Grequest_start(greq_query, greq_free, greq_cancel, &k, &two[0]));
    OK(MPI_Grequest_complete(two[0]));
    int x = me, y = -1;
    OK(MPI_Irecv(&y, 1, MPI_INT, 0, 11, MPI_COMM_SELF, &two[1]));
    OK(MPI_Send(&x, 1, MPI_INT, 0, 11, MPI_COMM_SELF));
    MPI_Status sts[2];
    OK(MPI_Waitall(2, two, sts));
    CHECK(y == me && sts[0].MPI_TAG == 7 && k.queries == 1 && k.frees == 1);
    CHECK(class_of(MPI_Grequest_complete(MPI_REQUEST_NULL)) == MPI_ERR_REQUEST);
}

/* MPI-4 partitioned messages: 4 partitions of 8 ints, started twice, made
 * ready in pieces (a range, a list); the receiver watches a partition
 * arrive.  With oneself (peer == me) both sides are this process. */
static void partitioned(void)
{
    enum { P = 4, N = 8 };
    int out[P * N] = {0}, in[P * N] = {0};
    MPI_Request s = MPI_REQUEST_NULL, r = MPI_REQUEST_NULL;
    int sends = me <= peer, recvs = me >= peer;   /* the lower rank sends */
    if (sends)
        OK(MPI_Psend_init(out, P, N, MPI_INT, peer, 31, MPI_COMM_WORLD, MPI_INFO_NULL, &s));
    if (recvs)
        OK(MPI_Precv_init(in, P, N, MPI_INT, peer, 31, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < P * N; i++)
            out[i] = round * 1000 + i, in[i] = -1;
        if (recvs)
            OK(MPI_Start(&r));
        if (sends) {
            OK(MPI_Start(&s));
            OK(MPI_Pready_range(0, 1, s));
            int flag = 1;
            if (recvs) {   /* with oneself: nothing goes before the last partition */
                OK(MPI_Parrived(r, 0, &flag));
                CHECK(flag == 0);
            }
            int rest[2] = {3, 2};
            OK(MPI_Pready_list(2, rest, s));
            CHECK(class_of(MPI_Pready(1, s)) == MPI_ERR_ARG);   /* twice */
            CHECK(class_of(MPI_Pready(P, s)) == MPI_ERR_ARG);   /* no such partition */
        }
        if (recvs) {
            int flag = 0;
            while (!flag)
                OK(MPI_Parrived(r, P - 1, &flag));
            MPI_Status st;
            OK(MPI_Wait(&r, &st));
            for (int i = 0; i < P * N; i++)
                CHECK(in[i] == round * 1000 + i);
            CHECK(class_of(MPI_Pready(0, r)) == MPI_ERR_REQUEST);   /* a receive */
        }
        if (sends)
            OK(MPI_Wait(&s, MPI_STATUS_IGNORE));
    }
    if (sends)
        OK(MPI_Request_free(&s));
    if (recvs)
        OK(MPI_Request_free(&r));
}

int main(int argc, char **argv)
{
    mpi_test_init(&argc, &argv);
    peer = me ^ 1;
    int paired = peer < np;

    MPI_Comm_split(MPI_COMM_WORLD, paired, me, &pairs);
    generalized();
    if (paired) {
        modes();
        comm_buffers();
        synchronous();
        immediate();
        persistent();
        probes();
        truncation();
        world_receives();
        derived();
        partitioned();
    } else {
        peer = me;   /* alone: what works with oneself */
        immediate();
        persistent();
        probes();
        derived();
        partitioned();
    }
    MPI_Comm_free(&pairs);
    edges();
    return mpi_test_report("mpi_p2p");
}
