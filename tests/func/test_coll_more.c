/* Scatter, the vector collectives, reduce-scatter and the prefix
 * reductions, each against a reference every member computes locally (all
 * data derives from seeds), on the world and on a subset context (every
 * rank but rank 1, when there are at least 3), blocking and non-blocking,
 * with empty, small and rendezvous-sized blocks; the neighbourhood
 * exchange around the ring, tags telling the directions apart (one or two
 * members: both neighbours are one member); then their misuse. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"

static int me, np;

/* The byte at k of the block member `from` sends member `to` in trial t. */
static unsigned char byte_of(int from, int to, int t, size_t k)
{
    uint64_t s = ((uint64_t)from << 48) ^ ((uint64_t)to << 32) ^ ((uint64_t)t << 24) ^ k;
    return (unsigned char)(test_rand(&s) >> 56);
}

static void fill(unsigned char *p, size_t len, int from, int to, int t)
{
    for (size_t k = 0; k < len; k++)
        p[k] = byte_of(from, to, t, k);
}

static int holds(const unsigned char *p, size_t len, int from, int to, int t)
{
    for (size_t k = 0; k < len; k++)
        if (p[k] != byte_of(from, to, t, k))
            return 0;
    return 1;
}

/* Element k of member rank's reduction input in trial t: small integers,
 * so every order of a double sum gives the same bits. */
static int64_t elem(int rank, int t, size_t k)
{
    uint64_t s = ((uint64_t)rank << 40) ^ ((uint64_t)t << 20) ^ k;
    return (int64_t)(test_rand(&s) % 2001) - 1000;
}

/* Block lengths that differ per member (some empty, one beyond the eager
 * size where big is set). */
static size_t vlen(int j, int t, int big)
{
    size_t l = (size_t)((j * 131 + t * 17) % 700);
    if (j % 3 == 2)
        l = 0;
    if (big && j == 1)
        l += 70000;
    return l;
}

/* Blocks placed in reverse member order with 8-byte gaps: displs are free. */
static size_t place(const size_t *lens, int n, size_t *displs)
{
    size_t at = 0;
    for (int j = n - 1; j >= 0; j--) {
        displs[j] = at;
        at += lens[j] + 8;
    }
    return at;
}

static void rooted(ordo_comm_h comm, const int *m, int n, int mi, int t, int big)
{
    int root = m[(t * 7) % n], ri = (t * 7) % n;
    size_t lens[64], displs[64], len = big ? 70001 : (size_t)(t % 5) * 13;
    /* scatter: uniform blocks from the root */
    unsigned char *s = malloc((size_t)n * len + 1), *r = malloc(len + 1);
    if (m[mi] == root)
        for (int j = 0; j < n; j++)
            fill(s + (size_t)j * len, len, root, m[j], t);
    CHECK_OK(ordo_coll_scatter(comm, m[mi] == root ? s : NULL, len, r, root));
    CHECK(holds(r, len, root, m[mi], t));
    free(s), free(r);
    /* scatterv and gatherv: the root's arrays only */
    for (int j = 0; j < n; j++)
        lens[j] = vlen(j, t, big);
    size_t total = place(lens, n, displs), mine = lens[mi];
    unsigned char *big_buf = malloc(total + 1), *one = malloc(mine + 1);
    memset(big_buf, 0x5a, total + 1);
    if (m[mi] == root)
        for (int j = 0; j < n; j++)
            fill(big_buf + displs[j], lens[j], root, m[j], t + 1);
    CHECK_OK(ordo_coll_scatterv(comm, m[mi] == root ? big_buf : NULL,
                                m[mi] == root ? lens : NULL, m[mi] == root ? displs : NULL,
                                one, mine, root));
    CHECK(holds(one, mine, root, m[mi], t + 1));
    fill(one, mine, m[mi], root, t + 2);
    memset(big_buf, 0x5a, total + 1);
    CHECK_OK(ordo_coll_gatherv(comm, one, mine, big_buf, m[mi] == root ? lens : NULL,
                               m[mi] == root ? displs : NULL, root));
    if (m[mi] == root) {
        for (int j = 0; j < n; j++) {
            CHECK(holds(big_buf + displs[j], lens[j], m[j], root, t + 2));
            for (int g = 0; g < 8; g++)   /* the gaps stay as they were */
                CHECK(big_buf[displs[j] + lens[j] + (size_t)g] == 0x5a);
        }
    }
    free(big_buf), free(one);
    (void)ri;
}

static void everyone(ordo_comm_h comm, const int *m, int n, int mi, int t, int big)
{
    size_t lens[64], displs[64];
    for (int j = 0; j < n; j++)
        lens[j] = vlen(j, t, big);
    size_t total = place(lens, n, displs);
    unsigned char *mine = malloc(lens[mi] + 1), *all = malloc(total + 1);
    fill(mine, lens[mi], m[mi], -1, t);
    memset(all, 0x5a, total + 1);
    CHECK_OK(ordo_coll_allgatherv(comm, mine, lens[mi], all, lens, displs));
    for (int j = 0; j < n; j++)
        CHECK(holds(all + displs[j], lens[j], m[j], -1, t));
    free(mine), free(all);
    /* alltoallv: member a sends member b f(a, b) bytes */
    size_t sl[64], sd[64], rl[64], rd[64];
    for (int j = 0; j < n; j++) {
        sl[j] = vlen((mi * 5 + j) % 64, t, big && j == (mi + 1) % n);
        rl[j] = vlen((j * 5 + mi) % 64, t, big && mi == (j + 1) % n);
    }
    size_t stotal = place(sl, n, sd), rtotal = place(rl, n, rd);
    unsigned char *sb = malloc(stotal + 1), *rb = malloc(rtotal + 1);
    for (int j = 0; j < n; j++)
        fill(sb + sd[j], sl[j], m[mi], m[j], t);
    memset(rb, 0x5a, rtotal + 1);
    CHECK_OK(ordo_coll_alltoallv(comm, sb, sl, sd, rb, rl, rd));
    for (int j = 0; j < n; j++)
        CHECK(holds(rb + rd[j], rl[j], m[j], m[mi], t));
    free(sb), free(rb);
}

/* Reduce-scatter (vector and block) and scan / exscan on int64 sums and
 * double maxima, against sums made here. */
static void reductions(ordo_comm_h comm, const int *m, int n, int mi, int t, size_t scale)
{
    size_t counts[64], total = 0, off = 0;
    for (int j = 0; j < n; j++) {
        counts[j] = (size_t)((j * 3 + t) % 5) * scale;
        if (j < mi)
            off += counts[j];
        total += counts[j];
    }
    int64_t *in = malloc((total + 1) * sizeof(int64_t)), *out = malloc((total + 1) * 8);
    for (size_t k = 0; k < total; k++)
        in[k] = elem(m[mi], t, k);
    CHECK_OK(ordo_coll_reduce_scatter(comm, in, out, counts, ORDO_DT_INT64, ORDO_REDUCE_SUM));
    for (size_t k = 0; k < counts[mi]; k++) {
        int64_t want = 0;
        for (int j = 0; j < n; j++)
            want += elem(m[j], t, off + k);
        CHECK(out[k] == want);
    }
    /* block form, doubles, maximum */
    size_t count = 3 * scale;
    double *din = malloc(((size_t)n * count + 1) * sizeof(double)), *dout = malloc((count + 1) * 8);
    for (size_t k = 0; k < (size_t)n * count; k++)
        din[k] = (double)elem(m[mi], t + 1, k);
    CHECK_OK(ordo_coll_reduce_scatter_block(comm, din, dout, count, ORDO_DT_DOUBLE,
                                            ORDO_REDUCE_MAX));
    for (size_t k = 0; k < count; k++) {
        double want = -1e9;
        for (int j = 0; j < n; j++) {
            double v = (double)elem(m[j], t + 1, (size_t)mi * count + k);
            want = v > want ? v : want;
        }
        CHECK(dout[k] == want);
    }
    free(din), free(dout);
    /* scan and exscan (in place too) */
    size_t sc = 7 * scale + 1;
    int64_t *sin = malloc(sc * 8), *sout = malloc(sc * 8);
    for (size_t k = 0; k < sc; k++)
        sin[k] = elem(m[mi], t + 2, k);
    CHECK_OK(ordo_coll_scan(comm, sin, sout, sc, ORDO_DT_INT64, ORDO_REDUCE_SUM));
    for (size_t k = 0; k < sc; k++) {
        int64_t want = 0;
        for (int j = 0; j <= mi; j++)
            want += elem(m[j], t + 2, k);
        CHECK(sout[k] == want);
    }
    for (size_t k = 0; k < sc; k++)
        sout[k] = 0x5a5a;
    CHECK_OK(ordo_coll_exscan(comm, sin, sout, sc, ORDO_DT_INT64, ORDO_REDUCE_SUM));
    for (size_t k = 0; k < sc; k++) {
        int64_t want = mi == 0 ? 0x5a5a : 0;
        for (int j = 0; j < mi; j++)
            want += elem(m[j], t + 2, k);
        CHECK(sout[k] == want);
    }
    CHECK_OK(ordo_coll_scan(comm, sin, sin, sc, ORDO_DT_INT64, ORDO_REDUCE_MAX));
    for (size_t k = 0; k < sc; k++) {
        int64_t want = elem(m[0], t + 2, k);
        for (int j = 1; j <= mi; j++)
            want = elem(m[j], t + 2, k) > want ? elem(m[j], t + 2, k) : want;
        CHECK(sin[k] == want);
    }
    free(sin), free(sout);
    free(in), free(out);
}

/* Several at once, non-blocking, with the program's own messages between. */
static void overlapped(ordo_comm_h comm, const int *m, int n, int mi, int t)
{
    size_t lens[64], displs[64];
    for (int j = 0; j < n; j++)
        lens[j] = vlen(j, t, 0);
    size_t total = place(lens, n, displs);
    unsigned char *mine = malloc(lens[mi] + 1), *all = malloc(total + 1);
    fill(mine, lens[mi], m[mi], -1, t);
    int64_t x[5], scan[5], ex[5] = {9, 9, 9, 9, 9};
    for (int k = 0; k < 5; k++)
        x[k] = elem(m[mi], t, (size_t)k);
    ordo_request_h r[3];
    ordo_status_t st[3];
    st[0] = ordo_coll_allgatherv_nb(comm, mine, lens[mi], all, lens, displs, &r[0]);
    st[1] = ordo_coll_scan_nb(comm, x, scan, 5, ORDO_DT_INT64, ORDO_REDUCE_SUM, &r[1]);
    st[2] = ordo_coll_exscan_nb(comm, x, ex, 5, ORDO_DT_INT64, ORDO_REDUCE_MIN, &r[2]);
    for (int q = 0; q < 3; q++) {
        CHECK(st[q] == ORDO_OK || st[q] == ORDO_INPROGRESS);
        if (st[q] == ORDO_INPROGRESS)
            CHECK_OK(ordo_request_wait(&r[q], NULL));
    }
    for (int j = 0; j < n; j++)
        CHECK(holds(all + displs[j], lens[j], m[j], -1, t));
    for (int k = 0; k < 5; k++) {
        int64_t sum = 0, min = INT64_MAX;
        for (int j = 0; j <= mi; j++)
            sum += elem(m[j], t, (size_t)k);
        for (int j = 0; j < mi; j++)
            min = elem(m[j], t, (size_t)k) < min ? elem(m[j], t, (size_t)k) : min;
        CHECK(scan[k] == sum);
        CHECK(ex[k] == (mi == 0 ? 9 : min));
    }
    free(mine), free(all);
}

static void run_on(ordo_comm_h comm, const int *m, int n)
{
    int mi = 0;
    while (m[mi] != me)
        mi++;
    for (int t = 0; t < 6; t++) {
        rooted(comm, m, n, mi, t, t == 5);
        everyone(comm, m, n, mi, t, t == 5);
        reductions(comm, m, n, mi, t, t == 5 ? 1000 : 1);
        overlapped(comm, m, n, mi, t);
    }
}

/* Misuse, the same at every member (so every member refuses alike). */
/* To the left k + 1 bytes of k, to the right 3 bytes of 100 + k, tags 0
 * and 1; from the left what it sent rightwards, from the right what it
 * sent leftwards. */
static void neighbor_ring(int nb)
{
    int left = (me + np - 1) % np, right = (me + 1) % np;
    char out[8], in[8];
    memset(out, me, 4);
    memset(out + 4, 100 + me, 3);
    memset(in, -1, sizeof(in));
    int dests[2] = {left, right}, srcs[2] = {left, right};
    int stags[2] = {0, 1}, rtags[2] = {1, 0};
    size_t slens[2] = {(size_t)(me % 4) + 1, 3}, sdispls[2] = {0, 4};
    size_t rlens[2] = {3, (size_t)(right % 4) + 1}, rdispls[2] = {0, 4};
    if (nb) {
        ordo_request_h r = NULL;
        ordo_status_t st = ordo_coll_neighbor_alltoallv_nb(ORDO_COMM_WORLD, out, 2, dests,
                                                           slens, sdispls, stags, in, 2, srcs,
                                                           rlens, rdispls, rtags, &r);
        CHECK(st == ORDO_OK || st == ORDO_INPROGRESS);
        if (st == ORDO_INPROGRESS)
            CHECK_OK(ordo_request_wait(&r, NULL));
    } else {
        CHECK_OK(ordo_coll_neighbor_alltoallv(ORDO_COMM_WORLD, out, 2, dests, slens, sdispls,
                                              stags, in, 2, srcs, rlens, rdispls, rtags));
    }
    int good = 1;
    for (int k = 0; k < 3; k++)
        good &= in[k] == (char)(100 + left);
    for (size_t k = 0; k < rlens[1]; k++)
        good &= in[4 + k] == (char)right;
    good &= in[3] == -1 && (rlens[1] == 4 || in[4 + rlens[1]] == -1);
    CHECK(good);
}

static void errors(void)
{
    char b[64] = {0};
    size_t lens[64] = {0}, displs[64] = {0};
    CHECK_STATUS(ordo_coll_scatter(ORDO_COMM_WORLD, b, 1, b, np), ORDO_ERR_INVALID_RANK);
    CHECK_STATUS(ordo_coll_scatter_nb(ORDO_COMM_WORLD, b, 1, b, 0, NULL),
                 ORDO_ERR_INVALID_PARAM);
    CHECK_STATUS(ordo_coll_gatherv(ORDO_COMM_WORLD, b, 1, b, NULL, displs, me),
                 ORDO_ERR_INVALID_PARAM);   /* every member is "the root" of its own call */
    CHECK_STATUS(ordo_coll_allgatherv(ORDO_COMM_WORLD, b, 1, b, lens, NULL),
                 ORDO_ERR_INVALID_PARAM);
    lens[me] = 2;   /* its own slot says 2, it passes 1 */
    CHECK_STATUS(ordo_coll_allgatherv(ORDO_COMM_WORLD, b, 1, b, lens, displs),
                 ORDO_ERR_INVALID_PARAM);
    lens[me] = 0;
    displs[0] = SIZE_MAX - 1;
    lens[0] = 4;
    CHECK_STATUS(ordo_coll_alltoallv(ORDO_COMM_WORLD, b, lens, displs, b, lens, displs),
                 ORDO_ERR_INVALID_PARAM);
    CHECK_STATUS(ordo_coll_reduce_scatter(ORDO_COMM_WORLD, b, b, NULL, ORDO_DT_INT32,
                                          ORDO_REDUCE_SUM), ORDO_ERR_INVALID_PARAM);
    size_t huge[64];
    for (int j = 0; j < 64; j++)
        huge[j] = SIZE_MAX / 2;
    CHECK_STATUS(ordo_coll_reduce_scatter(ORDO_COMM_WORLD, b, b, huge, ORDO_DT_INT32,
                                          ORDO_REDUCE_SUM), ORDO_ERR_INVALID_PARAM);
    CHECK_STATUS(ordo_coll_reduce_scatter_block(ORDO_COMM_WORLD, b, b, SIZE_MAX / 2,
                                                ORDO_DT_INT64, ORDO_REDUCE_SUM),
                 ORDO_ERR_INVALID_PARAM);
    CHECK_STATUS(ordo_coll_scan(ORDO_COMM_WORLD, b, b, 1, (ordo_dtype_t)9, ORDO_REDUCE_SUM),
                 ORDO_ERR_INVALID_PARAM);
    /* the neighbourhood exchange: a rank outside, a tag past 63 */
    int bad = np, peer = (me + 1) % np, tag = 64;
    size_t len1 = 1, zero = 0;
    CHECK_STATUS(ordo_coll_neighbor_alltoallv(ORDO_COMM_WORLD, b, 1, &bad, &len1, &zero, NULL,
                                              b, 0, NULL, NULL, NULL, NULL),
                 ORDO_ERR_INVALID_PARAM);
    CHECK_STATUS(ordo_coll_neighbor_alltoallv(ORDO_COMM_WORLD, b, 1, &peer, &len1, &zero, &tag,
                                              b, 0, NULL, NULL, NULL, NULL),
                 ORDO_ERR_INVALID_PARAM);

    CHECK_STATUS(ordo_coll_exscan(ORDO_COMM_WORLD, b, b, 1, ORDO_DT_DOUBLE, ORDO_REDUCE_BAND),
                 ORDO_ERR_INVALID_PARAM);
    CHECK_STATUS(ordo_coll_exscan(ORDO_COMM_WORLD, NULL, b, 1, ORDO_DT_INT32, ORDO_REDUCE_SUM),
                 ORDO_ERR_INVALID_PARAM);
    /* every member refused alike: the world's collectives still work */
    int64_t one = 1, sum = 0;
    CHECK_OK(ordo_coll_allreduce(ORDO_COMM_WORLD, &one, &sum, 1, ORDO_DT_INT64,
                                 ORDO_REDUCE_SUM));
    CHECK(sum == np);
}

int main(void)
{
    REQUIRE_OK(ordo_init(NULL));
    me = ordo_rank();
    np = ordo_size();
    if (np > 64) {
        ordo_finalize();
        return 0;
    }
    int all[64];
    for (int i = 0; i < np; i++)
        all[i] = i;
    run_on(ORDO_COMM_WORLD, all, np);
    neighbor_ring(0);
    neighbor_ring(1);
    errors();
    if (np >= 3 && me != 1) {
        int sub[64], n = 0;
        for (int i = np - 1; i >= 0; i--)
            if (i != 1)
                sub[n++] = i;
        ordo_comm_params_t p = {.field_mask = ORDO_COMM_FIELD_RANKS, .nranks = n, .ranks = sub};
        ordo_comm_h c;
        REQUIRE_OK(ordo_comm_create(&p, &c));
        int asc[64];
        for (int i = 0; i < n; i++)
            asc[i] = sub[n - 1 - i];
        run_on(c, asc, n);
        CHECK_OK(ordo_comm_destroy(c));
    }
    /* a neighbourhood block longer than its receive (every member sends
     * 8 bytes right and takes 4 from the left) fails the call everywhere
     * and ends its context's collectives: on a context of its own */
    ordo_comm_h t;
    REQUIRE_OK(ordo_comm_split(ORDO_COMM_WORLD, 0, me, &t));
    int right = (me + 1) % np, left = (me + np - 1) % np;
    size_t eight = 8, four = 4, zero = 0;
    char b8[8] = {0}, b4[4];
    CHECK_STATUS(ordo_coll_neighbor_alltoallv(t, b8, 1, &right, &eight, &zero, NULL, b4, 1,
                                              &left, &four, &zero, NULL),
                 ORDO_ERR_TRUNCATED);
    CHECK_OK(ordo_comm_destroy(t));
    CHECK_OK(ordo_coll_barrier(ORDO_COMM_WORLD));
    int rc = test_result("test_coll_more");
    CHECK_OK(ordo_finalize());
    return rc;
}
