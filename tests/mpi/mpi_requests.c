/* MPI conformance: requests and communicators over their lives.  Windows
 * waited for with no statuses (ordo-mpi's message-rate path); requests on
 * communicators other than world (ordo's own requests where the ranks are
 * world's, records elsewhere), each reporting to its own error handler;
 * communicators freed while requests made on them go on; requests freed
 * while their operations go on.  Pairs exchange: rank r with r ^ 1 (an
 * odd last rank alone only joins the collective calls). */
#include <stdlib.h>
#include <string.h>

#include "mpi_harness.h"

static int peer;
static MPI_Comm pairs;   /* the ranks that have a partner */

/* Windows waited for with no statuses (the message-rate case, which ordo
 * waits for in chunks of 64 with nothing of ours to finish): more than a
 * chunk, mixed with null handles, finished sends and requests of ours; a
 * failure among them; a stale handle past the first chunk. */
static void status_free_windows(void)
{
    enum { W = 150, TRUNC = 100, STALE = 90 };
    static int in[W], out[W];
    int pair[2] = {0, 0};
    MPI_Request r[W];
    MPI_Datatype strided;
    OK(MPI_Type_vector(2, 1, 2, MPI_INT, &strided));
    OK(MPI_Type_commit(&strided));
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < W; i++) {
            in[i] = -1;
            out[i] = 100000 * round + 1000 * me + i;
        }
        int strided_in[3] = {-1, -1, -1};
        for (int i = 0; i < W; i++) {
            if (i == 7) {
                r[i] = MPI_REQUEST_NULL;
            } else if (i == 8) {
                OK(MPI_Isend(&out[i], 1, MPI_INT, peer, 91, MPI_COMM_WORLD, &r[i]));
            } else if (round == 1 && i == 40) {   /* a request of ours */
                OK(MPI_Irecv(strided_in, 1, strided, peer, 90, MPI_COMM_WORLD, &r[i]));
            } else {
                int *into = round == 2 && i == TRUNC ? pair : &in[i];
                OK(MPI_Irecv(into, 1, MPI_INT, peer, 90, MPI_COMM_WORLD, &r[i]));
            }
        }
        for (int i = 0; i < W; i++) {
            if (i == 7 || i == 8)
                continue;
            if (round == 1 && i == 40) {
                int two[2] = {out[i], -out[i]};
                OK(MPI_Send(two, 2, MPI_INT, peer, 90, MPI_COMM_WORLD));
            } else if (round == 2 && i == TRUNC) {
                int two[2] = {out[i], -out[i]};
                OK(MPI_Send(two, 2, MPI_INT, peer, 90, MPI_COMM_WORLD));
            } else {
                OK(MPI_Send(&out[i], 1, MPI_INT, peer, 90, MPI_COMM_WORLD));
            }
        }
        int got = 0;
        OK(MPI_Recv(&got, 1, MPI_INT, peer, 91, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(got == 100000 * round + 1000 * peer + 8);
        int rc = class_of(MPI_Waitall(W, r, MPI_STATUSES_IGNORE));
        CHECK(rc == (round == 2 ? MPI_ERR_IN_STATUS : MPI_SUCCESS));
        for (int i = 0; i < W; i++) {
            CHECK(r[i] == MPI_REQUEST_NULL);
            int want = 100000 * round + 1000 * peer + i;
            if (i == 7 || i == 8)
                CHECK(in[i] == -1);
            else if (round == 1 && i == 40)
                CHECK(strided_in[0] == want && strided_in[2] == -want && in[i] == -1);
            else if (round == 2 && i == TRUNC)
                CHECK(pair[0] == want && pair[1] == 0 && in[i] == -1);
            else
                CHECK(in[i] == want);
        }
    }
    OK(MPI_Type_free(&strided));
    /* a stale handle in the second chunk: refused, naming it; the first
     * chunk's were waited for and released, the rest stay the program's */
    for (int i = 0; i < W; i++)
        OK(MPI_Irecv(&in[i], 1, MPI_INT, peer, 92, MPI_COMM_WORLD, &r[i]));
    MPI_Request stale = r[STALE];
    for (int i = 0; i < W; i++)
        OK(MPI_Send(&out[i], 1, MPI_INT, peer, 92, MPI_COMM_WORLD));
    OK(MPI_Waitall(W, r, MPI_STATUSES_IGNORE));
    for (int i = 0; i < W; i++) {
        in[i] = -1;
        if (i != STALE)
            OK(MPI_Irecv(&in[i], 1, MPI_INT, peer, 93, MPI_COMM_WORLD, &r[i]));
    }
    r[STALE] = stale;
    for (int i = 0; i < W; i++)
        if (i != STALE)
            OK(MPI_Send(&out[i], 1, MPI_INT, peer, 93, MPI_COMM_WORLD));
    CHECK(class_of(MPI_Waitall(W, r, MPI_STATUSES_IGNORE)) == MPI_ERR_REQUEST);
    CHECK(r[0] == MPI_REQUEST_NULL && r[63] == MPI_REQUEST_NULL && r[STALE] == stale &&
          r[64] != MPI_REQUEST_NULL && r[W - 1] != MPI_REQUEST_NULL);
    r[STALE] = MPI_REQUEST_NULL;
    OK(MPI_Waitall(W, r, MPI_STATUSES_IGNORE));
    for (int i = 0; i < W; i++)
        CHECK(i == STALE ? in[i] == -1 : in[i] == out[i] - 1000 * me + 1000 * peer);
}

/* Errors a communicator's handler sees, and on which communicator */
static MPI_Comm handled_on;
static int handled;
static void note_error(MPI_Comm *comm, int *code, ...)
{
    (void)code;
    handled_on = *comm;
    handled++;
}

/* The partner's rank in c */
static int partner_in(MPI_Comm c)
{
    int cpeer = MPI_UNDEFINED;
    MPI_Group wg, cg;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Comm_group(c, &cg);
    MPI_Group_translate_ranks(wg, 1, &peer, cg, &cpeer);
    MPI_Group_free(&wg);
    MPI_Group_free(&cg);
    return cpeer;
}

/* Requests on communicators other than world: one whose ranks are
 * world's (ordo-mpi hands out ordo's own request there too), one that
 * reverses them, and more of the first kind than ordo-mpi has slots for.
 * Each reports a failure to its own error handler, and its statuses name
 * its own ranks. */
static void other_comms(void)
{
    enum { NCOMM = 12 };
    MPI_Comm comms[NCOMM + 1];
    MPI_Errhandler eh;
    OK(MPI_Comm_create_errhandler(note_error, &eh));
    for (int k = 0; k <= NCOMM; k++) {
        if (k < NCOMM)
            OK(MPI_Comm_dup(pairs, &comms[k]));   /* ranks as world's */
        else   /* ranks reversed: a record of ours translates them */
            OK(MPI_Comm_split(pairs, 0, -me, &comms[k]));
        MPI_Comm c = comms[k];
        int cpeer = partner_in(c);
        OK(MPI_Comm_set_errhandler(c, eh));
        int out[2] = {100 * k + me, -(100 * k + me)}, in[2] = {-1, -1}, small = -1;
        MPI_Request r[3];
        MPI_Status st[3];
        /* statuses name the communicator's ranks */
        OK(MPI_Irecv(in, 1, MPI_INT, MPI_ANY_SOURCE, 5, c, &r[0]));
        OK(MPI_Isend(out, 1, MPI_INT, cpeer, 5, c, &r[1]));
        OK(MPI_Waitall(2, r, st));
        CHECK(in[0] == 100 * k + peer && st[0].MPI_SOURCE == cpeer && st[0].MPI_TAG == 5);
        /* a truncated receive: the communicator's handler, through wait
         * and through a status-free waitall */
        handled = 0;
        handled_on = MPI_COMM_NULL;
        OK(MPI_Irecv(&small, 1, MPI_INT, cpeer, 6, c, &r[0]));
        OK(MPI_Send(out, 2, MPI_INT, cpeer, 6, c));
        CHECK(class_of(MPI_Wait(&r[0], &st[0])) == MPI_ERR_TRUNCATE);
        CHECK(handled == 1 && handled_on == c && small == 100 * k + peer);
        OK(MPI_Irecv(&small, 1, MPI_INT, cpeer, 7, c, &r[0]));
        OK(MPI_Irecv(&in[1], 1, MPI_INT, cpeer, 8, c, &r[1]));
        OK(MPI_Send(out, 2, MPI_INT, cpeer, 7, c));
        OK(MPI_Send(out, 1, MPI_INT, cpeer, 8, c));
        CHECK(class_of(MPI_Waitall(2, r, MPI_STATUSES_IGNORE)) == MPI_ERR_IN_STATUS);
        CHECK(handled == 2 && handled_on == c && in[1] == 100 * k + peer);
        CHECK(r[0] == MPI_REQUEST_NULL && r[1] == MPI_REQUEST_NULL);
    }
    for (int k = 0; k <= NCOMM; k++)
        OK(MPI_Comm_free(&comms[k]));
    OK(MPI_Errhandler_free(&eh));
}

/* MPI_Comm_free with receives still posted: they complete normally (a
 * message sent before the free, a truncated one reported to the freed
 * communicator's handler, one cancelled), on a duplicate (direct requests)
 * and on a split that reverses the ranks (requests of ours, whose statuses
 * translate them). */
static void freed_with_pending(void)
{
    MPI_Errhandler eh;
    OK(MPI_Comm_create_errhandler(note_error, &eh));
    for (int k = 0; k < 2; k++) {
        MPI_Comm c, was;
        if (k == 0)
            OK(MPI_Comm_dup(pairs, &c));
        else
            OK(MPI_Comm_split(pairs, 0, -me, &c));
        OK(MPI_Comm_set_errhandler(c, eh));
        int cpeer = partner_in(c);
        int got = -1, small = -1, never = -1, out[2] = {7000 + me, 8000 + me};
        MPI_Request r[3];
        MPI_Status st;
        OK(MPI_Irecv(&got, 1, MPI_INT, MPI_ANY_SOURCE, 11, c, &r[0]));
        OK(MPI_Irecv(&small, 1, MPI_INT, cpeer, 13, c, &r[1]));
        OK(MPI_Irecv(&never, 1, MPI_INT, cpeer, 12, c, &r[2]));
        OK(MPI_Send(out, 1, MPI_INT, cpeer, 11, c));
        OK(MPI_Send(out, 2, MPI_INT, cpeer, 13, c));
        was = c;
        OK(MPI_Comm_free(&c));   /* tag 12's receive is posted everywhere */
        CHECK(c == MPI_COMM_NULL);
        OK(MPI_Wait(&r[0], &st));
        CHECK(got == 7000 + peer && st.MPI_SOURCE == cpeer && st.MPI_TAG == 11);
        handled = 0;
        CHECK(class_of(MPI_Wait(&r[1], &st)) == MPI_ERR_TRUNCATE);
        CHECK(handled == 1 && handled_on == was && small == 7000 + peer);
        OK(MPI_Cancel(&r[2]));
        OK(MPI_Wait(&r[2], &st));
        int cancelled = 0;
        OK(MPI_Test_cancelled(&st, &cancelled));
        CHECK(cancelled && never == -1);
        /* nothing posted at the free (its context goes at once), a
         * request not yet completed: its status still names its ranks */
        if (k == 0)
            OK(MPI_Comm_dup(pairs, &c));
        else
            OK(MPI_Comm_split(pairs, 0, -me, &c));
        OK(MPI_Irecv(&got, 1, MPI_INT, MPI_ANY_SOURCE, 15, c, &r[0]));
        OK(MPI_Send(&out[1], 1, MPI_INT, cpeer, 15, c));
        for (int flag = 0; !flag;)
            OK(MPI_Request_get_status(r[0], &flag, MPI_STATUS_IGNORE));
        OK(MPI_Comm_free(&c));
        OK(MPI_Wait(&r[0], &st));
        CHECK(got == 8000 + peer && st.MPI_SOURCE == cpeer && st.MPI_TAG == 15);
    }
    OK(MPI_Errhandler_free(&eh));
}

/* MPI_Request_free of active requests: the operation goes on.  A freed
 * rendezvous send whose receiver first sends to us must not hold us up
 * (waiting for it in Request_free hung here); a freed receive fills its
 * buffer; a freed send still in flight at MPI_Finalize is finished there
 * (its receiver checks the data). */
static char *freed_send_data;   /* the freed send's: MPI_Finalize finishes it */

static void freed_active(void)
{
    enum { BIG = 1 << 20 };
    char *out = freed_send_data = malloc(BIG), *in = malloc(BIG);
    memset(out, 0x30 + me, BIG);
    memset(in, 0, BIG);
    MPI_Request r;
    if (me < peer) {
        OK(MPI_Isend(out, BIG, MPI_CHAR, peer, 20, MPI_COMM_WORLD, &r));
        OK(MPI_Request_free(&r));
        CHECK(r == MPI_REQUEST_NULL);
        OK(MPI_Recv(in, BIG, MPI_CHAR, peer, 21, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    } else {
        OK(MPI_Send(out, BIG, MPI_CHAR, peer, 21, MPI_COMM_WORLD));
        OK(MPI_Recv(in, BIG, MPI_CHAR, peer, 20, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    }
    CHECK(in[0] == 0x30 + peer && in[BIG - 1] == 0x30 + peer);
    /* a freed receive (on a duplicate too: direct there) */
    MPI_Comm dup;
    OK(MPI_Comm_dup(pairs, &dup));
    int got[2] = {-1, -1}, mine[2] = {500 + me, 600 + me}, done = -1;
    OK(MPI_Irecv(&got[0], 1, MPI_INT, peer, 22, MPI_COMM_WORLD, &r));
    OK(MPI_Request_free(&r));
    OK(MPI_Irecv(&got[1], 1, MPI_INT, peer, 22, dup, &r));
    OK(MPI_Request_free(&r));
    OK(MPI_Send(&mine[0], 1, MPI_INT, peer, 22, MPI_COMM_WORLD));
    OK(MPI_Send(&mine[1], 1, MPI_INT, peer, 22, dup));
    OK(MPI_Send(&me, 1, MPI_INT, peer, 23, MPI_COMM_WORLD));
    OK(MPI_Send(&me, 1, MPI_INT, peer, 23, dup));
    /* in order after the freed ones: those matched first */
    OK(MPI_Recv(&done, 1, MPI_INT, peer, 23, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    OK(MPI_Recv(&done, 1, MPI_INT, peer, 23, dup, MPI_STATUS_IGNORE));
    CHECK(got[0] == 500 + peer && got[1] == 600 + peer && done == peer);
    OK(MPI_Comm_free(&dup));
    /* in flight at MPI_Finalize */
    if (me < peer) {
        OK(MPI_Isend(out, BIG, MPI_CHAR, peer, 24, MPI_COMM_WORLD, &r));
        OK(MPI_Request_free(&r));
    } else {
        memset(in, 0, BIG);
        OK(MPI_Recv(in, BIG, MPI_CHAR, peer, 24, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(in[0] == 0x30 + peer && in[BIG - 1] == 0x30 + peer);
    }
    free(in);
}

int main(int argc, char **argv)
{
    mpi_test_init(&argc, &argv);
    peer = me ^ 1;
    int paired = peer < np;
    MPI_Comm_split(MPI_COMM_WORLD, paired, me, &pairs);
    if (paired) {
        status_free_windows();
        other_comms();
        freed_with_pending();
        freed_active();
    }
    MPI_Comm_free(&pairs);
    int rc = mpi_test_report("mpi_requests");   /* MPI_Finalize finished the freed send */
    free(freed_send_data);
    return rc;
}
