/* MPI conformance: collectives, blocking and non-blocking (each case is
 * run both ways), with MPI_IN_PLACE, derived datatypes, every kind of
 * predefined operation and the program's own (non-commutative: the
 * order of ranks is checked); Alltoallw with a datatype per block, byte
 * displacements, a strided one, in place; persistent collectives started
 * again and again. */
#include "mpi_harness.h"

static int nb;   /* this pass uses the I-forms and waits */

static void finish(MPI_Request *req)
{
    if (nb)
        OK(MPI_Wait(req, MPI_STATUS_IGNORE));
}

/* COLL(Bcast, Ibcast, args...): the blocking call, or the immediate one
 * and a wait, as this pass says */
#define COLL(blocking, immediate, ...)                                             \
    do {                                                                           \
        MPI_Request req_ = MPI_REQUEST_NULL;                                       \
        if (nb)                                                                    \
            OK(MPI_##immediate(__VA_ARGS__, &req_));                               \
        else                                                                       \
            OK(MPI_##blocking(__VA_ARGS__));                                       \
        finish(&req_);                                                             \
    } while (0)

/* a op b = a: the result of x0 op x1 op ... is x0; and b: x(n-1) */
static void first_op(void *in, void *inout, int *len, MPI_Datatype *t)
{
    (void)t;
    memcpy(inout, in, sizeof(int) * (size_t)*len);
}

static void last_op(void *in, void *inout, int *len, MPI_Datatype *t)
{
    (void)in;
    (void)inout;
    (void)len;
    (void)t;
}

static void barrier_bcast(void)
{
    MPI_Request req;
    if (nb) {
        OK(MPI_Ibarrier(MPI_COMM_WORLD, &req));
        OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    } else {
        OK(MPI_Barrier(MPI_COMM_WORLD));
    }
    for (int root = 0; root < np; root++) {
        int v[5] = {0};
        if (me == root)
            for (int i = 0; i < 5; i++)
                v[i] = root * 10 + i;
        COLL(Bcast, Ibcast, v, 5, MPI_INT, root, MPI_COMM_WORLD);
        CHECK(v[0] == root * 10 && v[4] == root * 10 + 4);
    }
    /* a strided type: every other double of 8 */
    double a[8];
    for (int i = 0; i < 8; i++)
        a[i] = me == 0 ? i : -1;
    MPI_Datatype every2;
    OK(MPI_Type_vector(4, 1, 2, MPI_DOUBLE, &every2));
    OK(MPI_Type_commit(&every2));
    COLL(Bcast, Ibcast, a, 1, every2, 0, MPI_COMM_WORLD);
    for (int i = 0; i < 8; i++)
        CHECK(a[i] == (i % 2 == 0 || me == 0 ? i : -1));
    OK(MPI_Type_free(&every2));
}

static void reductions(void)
{
    int v[3] = {me, me + 1, -me}, r[3] = {0};
    int sum = np * (np - 1) / 2;
    COLL(Allreduce, Iallreduce, v, r, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(r[0] == sum && r[1] == sum + np && r[2] == -sum);
    for (int root = 0; root < np; root++) {
        memset(r, 0, sizeof(r));
        COLL(Reduce, Ireduce, v, r, 3, MPI_INT, MPI_MAX, root, MPI_COMM_WORLD);
        if (me == root)
            CHECK(r[0] == np - 1 && r[2] == 0);
    }
    /* in place */
    int ip[2] = {me, 1};
    COLL(Allreduce, Iallreduce, MPI_IN_PLACE, ip, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(ip[0] == sum && ip[1] == np);
    int root_ip[1] = {me};
    COLL(Reduce, Ireduce, me == 0 ? MPI_IN_PLACE : root_ip, root_ip, 1, MPI_INT, MPI_SUM, 0,
         MPI_COMM_WORLD);
    if (me == 0)
        CHECK(root_ip[0] == sum);
    /* operations ordo's own reductions leave to this layer */
    unsigned u = 100u + (unsigned)me, umin = 0;
    COLL(Allreduce, Iallreduce, &u, &umin, 1, MPI_UNSIGNED, MPI_MIN, MPI_COMM_WORLD);
    CHECK(umin == 100u);
    unsigned char bits = (unsigned char)(1u << (me % 8)), bx = 0, land = 0;
    COLL(Allreduce, Iallreduce, &bits, &bx, 1, MPI_UNSIGNED_CHAR, MPI_BXOR, MPI_COMM_WORLD);
    unsigned char want = 0;
    for (int i = 0; i < np; i++)
        want ^= (unsigned char)(1u << (i % 8));
    CHECK(bx == want);
    COLL(Allreduce, Iallreduce, &bits, &land, 1, MPI_UNSIGNED_CHAR, MPI_LAND, MPI_COMM_WORLD);
    CHECK(land == 1);
    double d = 1.0 + me, prod = 0;
    COLL(Allreduce, Iallreduce, &d, &prod, 1, MPI_DOUBLE, MPI_PROD, MPI_COMM_WORLD);
    double fact = 1;
    for (int i = 1; i <= np; i++)
        fact *= i;
    CHECK(prod == fact);
    long long big = (long long)me << 40, bigsum = 0;
    COLL(Allreduce, Iallreduce, &big, &bigsum, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    CHECK(bigsum == (long long)sum << 40);
    /* MINLOC / MAXLOC: value and the lowest rank that has it */
    struct { double v; int i; } in = {(double)(me % 2), me}, mx, mn;
    COLL(Allreduce, Iallreduce, &in, &mx, 1, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
    COLL(Allreduce, Iallreduce, &in, &mn, 1, MPI_DOUBLE_INT, MPI_MINLOC, MPI_COMM_WORLD);
    CHECK(mx.v == (np > 1 ? 1.0 : 0.0) && mx.i == (np > 1 ? 1 : 0));
    CHECK(mn.v == 0.0 && mn.i == 0);
    struct { short v; int i; } sin = {(short)(-me), me}, sout;
    COLL(Allreduce, Iallreduce, &sin, &sout, 1, MPI_SHORT_INT, MPI_MINLOC, MPI_COMM_WORLD);
    CHECK(sout.v == -(np - 1) && sout.i == np - 1);
    /* the program's own, non-commutative: the order of ranks shows */
    MPI_Op first, last;
    OK(MPI_Op_create(first_op, 0, &first));
    OK(MPI_Op_create(last_op, 0, &last));
    int x = 1000 + me, got = 0, commute = 1;
    OK(MPI_Op_commutative(first, &commute));
    CHECK(commute == 0);
    COLL(Allreduce, Iallreduce, &x, &got, 1, MPI_INT, first, MPI_COMM_WORLD);
    CHECK(got == 1000);
    COLL(Allreduce, Iallreduce, &x, &got, 1, MPI_INT, last, MPI_COMM_WORLD);
    CHECK(got == 1000 + np - 1);
    COLL(Scan, Iscan, &x, &got, 1, MPI_INT, last, MPI_COMM_WORLD);
    CHECK(got == 1000 + me);
    got = -7;
    COLL(Exscan, Iexscan, &x, &got, 1, MPI_INT, first, MPI_COMM_WORLD);
    CHECK(me == 0 ? got == -7 : got == 1000);
    /* freed while a reduction using it is in flight: that one completes */
    MPI_Request q;
    got = 0;
    OK(MPI_Iallreduce(&x, &got, 1, MPI_INT, first, MPI_COMM_WORLD, &q));
    OK(MPI_Op_free(&first));
    CHECK(first == MPI_OP_NULL);
    OK(MPI_Wait(&q, MPI_STATUS_IGNORE));
    CHECK(got == 1000);
    OK(MPI_Op_free(&last));
    /* prefix sums */
    int one = me + 1, pre = 0;
    COLL(Scan, Iscan, &one, &pre, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(pre == (me + 1) * (me + 2) / 2);
    pre = -1;
    COLL(Exscan, Iexscan, &one, &pre, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me > 0)
        CHECK(pre == me * (me + 1) / 2);
    /* reduce_scatter: rank i gets i + 1 elements */
    int total = np * (np + 1) / 2;
    int *all = malloc(sizeof(int) * (size_t)total), *counts = malloc(sizeof(int) * (size_t)np);
    int *seg = calloc((size_t)np + 1, sizeof(int));
    for (int i = 0; i < total; i++)
        all[i] = i;
    for (int i = 0; i < np; i++)
        counts[i] = i + 1;
    COLL(Reduce_scatter, Ireduce_scatter, all, seg, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    int start = me * (me + 1) / 2;
    for (int k = 0; k <= me; k++)
        CHECK(seg[k] == np * (start + k));
    int *blk = malloc(sizeof(int) * 2 * (size_t)np), mine2[2] = {0};
    for (int i = 0; i < 2 * np; i++)
        blk[i] = i;
    COLL(Reduce_scatter_block, Ireduce_scatter_block, blk, mine2, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(mine2[0] == np * 2 * me && mine2[1] == np * (2 * me + 1));
    free(all);
    free(counts);
    free(seg);
    free(blk);
}

static void movement(void)
{
    int *all = malloc(sizeof(int) * 4 * (size_t)np), *counts = malloc(sizeof(int) * (size_t)np);
    int *displs = malloc(sizeof(int) * (size_t)np), mine[4];
    for (int root = 0; root < np; root++) {
        /* gather two ints from each */
        mine[0] = me;
        mine[1] = -me;
        memset(all, 0xff, sizeof(int) * 4 * (size_t)np);
        COLL(Gather, Igather, mine, 2, MPI_INT, all, 2, MPI_INT, root, MPI_COMM_WORLD);
        if (me == root)
            for (int i = 0; i < np; i++)
                CHECK(all[2 * i] == i && all[2 * i + 1] == -i);
        /* scatter them back, doubled */
        if (me == root)
            for (int i = 0; i < 2 * np; i++)
                all[i] *= 2;
        memset(mine, 0, sizeof(mine));
        COLL(Scatter, Iscatter, all, 2, MPI_INT, mine, 2, MPI_INT, root, MPI_COMM_WORLD);
        CHECK(mine[0] == 2 * me && mine[1] == -2 * me);
        /* scatter in place: the root's block stays where it is */
        if (me == root) {
            for (int i = 0; i < np; i++)
                all[i] = 300 + i;
            COLL(Scatter, Iscatter, all, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, root,
                 MPI_COMM_WORLD);
            CHECK(all[root] == 300 + root);
        } else {
            int got = -1;
            COLL(Scatter, Iscatter, NULL, 0, MPI_INT, &got, 1, MPI_INT, root, MPI_COMM_WORLD);
            CHECK(got == 300 + me);
        }
        /* in place at the root */
        if (me == root) {
            for (int i = 0; i < np; i++)
                all[i] = i == root ? 555 : -1;
            COLL(Gather, Igather, MPI_IN_PLACE, 1, MPI_INT, all, 1, MPI_INT, root, MPI_COMM_WORLD);
            for (int i = 0; i < np; i++)
                CHECK(all[i] == (i == root ? 555 : 100 + i));
        } else {
            int v = 100 + me;
            COLL(Gather, Igather, &v, 1, MPI_INT, NULL, 0, MPI_INT, root, MPI_COMM_WORLD);
        }
        /* v forms: rank i has i + 1 ints, placed from the end backwards */
        int n = me + 1, off = 0;
        for (int i = np - 1; i >= 0; i--) {
            counts[i] = i + 1;
            displs[i] = off;
            off += i + 1;
        }
        for (int k = 0; k < n; k++)
            mine[k % 4] = me;
        int *vbuf = calloc((size_t)off, sizeof(int)), vmine[4] = {me, me, me, me};
        COLL(Gatherv, Igatherv, vmine, n > 4 ? 4 : n, MPI_INT, vbuf, counts, displs, MPI_INT, root,
             MPI_COMM_WORLD);
        if (me == root && np <= 4)
            for (int i = 0; i < np; i++)
                for (int k = 0; k < i + 1; k++)
                    CHECK(vbuf[displs[i] + k] == i);
        int back[4] = {-1, -1, -1, -1};
        if (np <= 4) {
            COLL(Scatterv, Iscatterv, vbuf, counts, displs, MPI_INT, back, n, MPI_INT, root,
                 MPI_COMM_WORLD);
            if (np <= 4)
                for (int k = 0; k < n; k++)
                    CHECK(me == root ? 1 : back[k] == me);
        }
        free(vbuf);
    }
    /* allgather, into a resized type: each block lands 3 ints apart */
    int *spread = malloc(sizeof(int) * 3 * (size_t)np);
    for (int i = 0; i < 3 * np; i++)
        spread[i] = -1;
    MPI_Datatype wide;
    OK(MPI_Type_create_resized(MPI_INT, 0, 3 * sizeof(int), &wide));
    OK(MPI_Type_commit(&wide));
    int v = 7 * me;
    COLL(Allgather, Iallgather, &v, 1, MPI_INT, spread, 1, wide, MPI_COMM_WORLD);
    for (int i = 0; i < np; i++)
        CHECK(spread[3 * i] == 7 * i && spread[3 * i + 1] == -1);
    OK(MPI_Type_free(&wide));
    free(spread);
    /* allgather in place, allgatherv */
    for (int i = 0; i < np; i++)
        all[i] = i == me ? 3 * me : -1;
    COLL(Allgather, Iallgather, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, 1, MPI_INT, MPI_COMM_WORLD);
    for (int i = 0; i < np; i++)
        CHECK(all[i] == 3 * i);
    for (int i = 0; i < np; i++) {
        counts[i] = i % 2 + 1;
        displs[i] = 2 * i;
    }
    int two[2] = {me, me};
    memset(all, 0xff, sizeof(int) * 4 * (size_t)np);
    COLL(Allgatherv, Iallgatherv, two, me % 2 + 1, MPI_INT, all, counts, displs, MPI_INT, MPI_COMM_WORLD);
    for (int i = 0; i < np; i++) {
        CHECK(all[2 * i] == i);
        CHECK(all[2 * i + 1] == (i % 2 ? i : -1));
    }
    /* alltoall: block j goes to rank j */
    int *sbuf = malloc(sizeof(int) * (size_t)np), *rbuf = malloc(sizeof(int) * (size_t)np);
    for (int j = 0; j < np; j++)
        sbuf[j] = 100 * me + j;
    COLL(Alltoall, Ialltoall, sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, MPI_COMM_WORLD);
    for (int j = 0; j < np; j++)
        CHECK(rbuf[j] == 100 * j + me);
    COLL(Alltoall, Ialltoall, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, rbuf, 1, MPI_INT, MPI_COMM_WORLD);
    for (int j = 0; j < np; j++)
        CHECK(rbuf[j] == 100 * me + j);
    /* alltoallv: rank j gets j % 2 + 1 ints from everyone */
    int *sc = malloc(sizeof(int) * (size_t)np), *sd = malloc(sizeof(int) * (size_t)np);
    int *rc = malloc(sizeof(int) * (size_t)np), *rd = malloc(sizeof(int) * (size_t)np);
    int *sv = malloc(sizeof(int) * 2 * (size_t)np), *rv = malloc(sizeof(int) * 2 * (size_t)np);
    for (int j = 0; j < np; j++) {
        sc[j] = j % 2 + 1;
        sd[j] = 2 * j;
        sv[2 * j] = sv[2 * j + 1] = 1000 * me + j;
        rc[j] = me % 2 + 1;
        rd[j] = 2 * j;
        rv[2 * j] = rv[2 * j + 1] = -1;
    }
    COLL(Alltoallv, Ialltoallv, sv, sc, sd, MPI_INT, rv, rc, rd, MPI_INT, MPI_COMM_WORLD);
    for (int j = 0; j < np; j++) {
        CHECK(rv[2 * j] == 1000 * j + me);
        CHECK(rv[2 * j + 1] == (me % 2 ? 1000 * j + me : -1));
    }
    free(sc); free(sd); free(rc); free(rd); free(sv); free(rv);
    free(sbuf); free(rbuf); free(all); free(counts); free(displs);
}

/* Rank r sends peer p (p + 1) ints r*100 + p*10 + k.  Sent from
 * contiguous ints at byte displacements, or (odd peers) as a vector taking
 * every other int of a spread copy; received as ints at the end of the
 * buffer in peer order, backwards in memory (even peers: ints, straight
 * into place), or as a vector (odd ones: through a packed buffer). */
static void alltoallw(void)
{
    int n = np, tot = n * (n + 1) / 2;
    int rlen = 2 * n * n + 2;
    int *sbuf = calloc((size_t)(2 * tot + 2), sizeof(int));
    int *rbuf = calloc((size_t)rlen, sizeof(int));
    int *sc = malloc(sizeof(int) * (size_t)n), *sd = malloc(sizeof(int) * (size_t)n);
    int *rc = malloc(sizeof(int) * (size_t)n), *rd = malloc(sizeof(int) * (size_t)n);
    MPI_Datatype *sts = malloc(sizeof(MPI_Datatype) * (size_t)n);
    MPI_Datatype *rts = malloc(sizeof(MPI_Datatype) * (size_t)n);
    MPI_Datatype one_int, every_other;
    OK(MPI_Type_vector(1, 1, 2, MPI_INT, &one_int));   /* one int, extent of one */
    OK(MPI_Type_create_resized(one_int, 0, 2 * sizeof(int), &every_other));
    OK(MPI_Type_free(&one_int));
    OK(MPI_Type_commit(&every_other));
    int at = 0;
    for (int p = 0; p < n; p++) {   /* the send blocks, spread: value, hole, value ... */
        sd[p] = at * (int)sizeof(int);
        for (int k = 0; k <= p; k++)
            sbuf[at + 2 * k] = me * 100 + p * 10 + k;
        if (p % 2) {
            sc[p] = p + 1;
            sts[p] = every_other;
        } else {   /* even peers: the same values packed tight first */
            for (int k = 0; k <= p; k++)
                sbuf[at + k] = me * 100 + p * 10 + k;
            sc[p] = p + 1;
            sts[p] = MPI_INT;
        }
        at += 2 * (p + 1);
    }
    /* receive: from peer q, (me + 1) ints; blocks laid out from the end */
    int end = rlen;
    for (int q = 0; q < n; q++) {
        end -= 2 * (me + 1);
        rd[q] = end * (int)sizeof(int);
        if (q % 2) {
            rc[q] = me + 1;
            rts[q] = every_other;
        } else {
            rc[q] = me + 1;
            rts[q] = MPI_INT;
        }
    }
    COLL(Alltoallw, Ialltoallw, sbuf, sc, sd, sts, rbuf, rc, rd, rts, MPI_COMM_WORLD);
    int good = 1;
    for (int q = 0; q < n; q++) {
        int base = rd[q] / (int)sizeof(int), step = q % 2 ? 2 : 1;
        for (int k = 0; k <= me; k++)
            good &= rbuf[base + step * k] == q * 100 + me * 10 + k;
    }
    CHECK(good);

    /* in place: every block an int pair, exchanged */
    for (int q = 0; q < n; q++) {
        rc[q] = 2;
        rd[q] = 2 * q * (int)sizeof(int);
        rts[q] = MPI_INT;
        rbuf[2 * q] = me;
        rbuf[2 * q + 1] = q;
    }
    COLL(Alltoallw, Ialltoallw, MPI_IN_PLACE, NULL, NULL, NULL, rbuf, rc, rd, rts,
         MPI_COMM_WORLD);
    good = 1;
    for (int q = 0; q < n; q++)
        good &= rbuf[2 * q] == q && rbuf[2 * q + 1] == me;
    CHECK(good);
    OK(MPI_Type_free(&every_other));
    free(sbuf); free(rbuf); free(sc); free(sd); free(rc); free(rd); free(sts); free(rts);
}

/* MPI-4's persistent collectives: made once, started again and again
 * (each start sees the buffers as they are then), alone and together. */
static void persistent(void)
{
    int v = 0, sum = 0, vals[64];
    MPI_Request req[3];
    OK(MPI_Bcast_init(&v, 1, MPI_INT, np - 1, MPI_COMM_WORLD, MPI_INFO_NULL, &req[0]));
    OK(MPI_Allreduce_init(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                          &req[1]));
    OK(MPI_Allgather_init(&me, 1, MPI_INT, vals, 1, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL,
                          &req[2]));
    for (int round = 0; round < 3; round++) {
        v = me == np - 1 ? 100 + round : -1;
        OK(MPI_Start(&req[0]));
        OK(MPI_Wait(&req[0], MPI_STATUS_IGNORE));
        CHECK(v == 100 + round && req[0] != MPI_REQUEST_NULL);   /* kept for the next */
        v = me + round;
        memset(vals, 0xff, sizeof(int) * (size_t)np);
        OK(MPI_Startall(2, &req[1]));
        OK(MPI_Waitall(2, &req[1], MPI_STATUSES_IGNORE));
        CHECK(sum == np * (np - 1) / 2 + np * round);
        int good = 1;
        for (int i = 0; i < np; i++)
            good &= vals[i] == i;
        CHECK(good);
    }
    int flag = 0;
    OK(MPI_Test(&req[0], &flag, MPI_STATUS_IGNORE));   /* inactive: complete at once */
    CHECK(flag);
    for (int i = 0; i < 3; i++)
        OK(MPI_Request_free(&req[i]));
    CHECK(req[0] == MPI_REQUEST_NULL);
    /* the arrays are the call's from init on: the program may reuse its own */
    int *cnt = malloc(sizeof(int) * (size_t)np), *dsp = malloc(sizeof(int) * (size_t)np);
    int *out = malloc(sizeof(int) * (size_t)np), *in = malloc(sizeof(int) * (size_t)np);
    for (int i = 0; i < np; i++)
        cnt[i] = 1, dsp[i] = i, out[i] = me * 100 + i;
    MPI_Request a2a;
    OK(MPI_Alltoallv_init(out, cnt, dsp, MPI_INT, in, cnt, dsp, MPI_INT, MPI_COMM_WORLD,
                          MPI_INFO_NULL, &a2a));
    for (int i = 0; i < np; i++)
        cnt[i] = -7, dsp[i] = 1 << 20, in[i] = -1;
    OK(MPI_Start(&a2a));
    OK(MPI_Wait(&a2a, MPI_STATUS_IGNORE));
    int good = 1;
    for (int i = 0; i < np; i++)
        good &= in[i] == i * 100 + me;
    CHECK(good);
    OK(MPI_Request_free(&a2a));
    free(cnt), free(dsp), free(out), free(in);
    MPI_Request b;
    OK(MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &b));
    for (int i = 0; i < 2; i++) {
        OK(MPI_Start(&b));
        OK(MPI_Wait(&b, MPI_STATUS_IGNORE));
    }
    OK(MPI_Request_free(&b));
}

/* MPI_Reduce_local and its large-count form: predefined and user ops. */
static void reduce_local(void)
{
    int in[4] = {1, 2, 3, 4}, io[4] = {10, 20, 30, 40};
    OK(MPI_Reduce_local(in, io, 4, MPI_INT, MPI_SUM));
    CHECK(io[0] == 11 && io[3] == 44);
    OK(MPI_Reduce_local_c(in, io, (MPI_Count)4, MPI_INT, MPI_MAX));
    CHECK(io[0] == 11 && io[3] == 44);
    MPI_Op first;   /* a op b = a: the first two of io become in's */
    OK(MPI_Op_create(first_op, 0, &first));
    OK(MPI_Reduce_local_c(in, io, (MPI_Count)2, MPI_INT, first));
    CHECK(io[0] == 1 && io[1] == 2 && io[2] == 33);
    OK(MPI_Op_free(&first));
    CHECK(class_of(MPI_Reduce_local_c(in, io, (MPI_Count)4, MPI_BYTE, MPI_SUM)) == MPI_ERR_OP);
    CHECK(class_of(MPI_Reduce_local_c(in, io, (MPI_Count)-1, MPI_INT, MPI_SUM)) ==
          MPI_ERR_COUNT);
}

int main(int argc, char **argv)
{
    mpi_test_init(&argc, &argv);
    reduce_local();
    for (nb = 0; nb < 2; nb++) {
        barrier_bcast();
        reductions();
        movement();
        alltoallw();
    }
    persistent();
    /* on a communicator of some ranks, ranked backwards */
    MPI_Comm rev;
    OK(MPI_Comm_split(MPI_COMM_WORLD, 0, np - me, &rev));
    int r = -1, s = 0;
    OK(MPI_Comm_rank(rev, &r));
    OK(MPI_Allreduce(&r, &s, 1, MPI_INT, MPI_SUM, rev));
    CHECK(s == np * (np - 1) / 2);
    int *order = malloc(sizeof(int) * (size_t)np);
    OK(MPI_Allgather(&me, 1, MPI_INT, order, 1, MPI_INT, rev));
    for (int i = 0; i < np; i++)
        CHECK(order[i] == np - 1 - i);
    free(order);
    OK(MPI_Comm_free(&rev));
    return mpi_test_report("mpi_coll");
}
