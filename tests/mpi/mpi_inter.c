/* Intercommunicators: made from a parent (MPI_Intercomm_create) and from
 * groups, their queries, messages between the groups (ranks are remote
 * ranks, MPI_ANY_SOURCE reports one), every collective with its
 * intercommunicator meaning (MPI_ROOT / MPI_PROC_NULL roots, a group
 * receiving the other's data, reductions of the other group's
 * contributions), immediate forms, derived types, merge, split, create,
 * dup, and the calls an intercommunicator refuses.  The world splits into
 * even (A) and odd (B) ranks; with one rank only the refusals run. */
#include "mpi_harness.h"

static MPI_Comm inter, local;
static int side, lrank, lsize, rsize;   /* side 0: A (even world ranks), 1: B */

/* The remote group's size for an allocation. */
static size_t nr(void)
{
    return rsize > 0 ? (size_t)rsize : 1;
}

/* The world rank of remote rank r, as the split made them. */
static int remote_world(int r)
{
    return 2 * r + !side;
}

static void make(void)
{
    side = me % 2;
    OK(MPI_Comm_split(MPI_COMM_WORLD, side, me, &local));
    MPI_Comm_rank(local, &lrank);
    MPI_Comm_size(local, &lsize);
    OK(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, side ? 0 : 1, 77, &inter));
    int flag = 0, n = -1, r = -1;
    OK(MPI_Comm_test_inter(inter, &flag));
    CHECK(flag == 1);
    OK(MPI_Comm_size(inter, &n));
    OK(MPI_Comm_rank(inter, &r));
    CHECK(n == lsize && r == lrank);
    OK(MPI_Comm_remote_size(inter, &rsize));
    CHECK(rsize == (side ? (np + 1) / 2 : np / 2));
    MPI_Group rg, wg;
    OK(MPI_Comm_remote_group(inter, &rg));
    OK(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    int first = 0, w = -1;
    OK(MPI_Group_translate_ranks(rg, 1, &first, wg, &w));
    CHECK(w == remote_world(0));
    MPI_Group_free(&rg);
    MPI_Group_free(&wg);
}

static void messages(void)
{
    /* every A member to every B member and back: value world*1000 + peer */
    int *out = malloc(sizeof(int) * nr()), *in = malloc(sizeof(int) * nr());
    MPI_Request *q = malloc(sizeof(MPI_Request) * 2 * nr());
    for (int j = 0; j < rsize; j++) {
        out[j] = me * 1000 + j;
        OK(MPI_Irecv(&in[j], 1, MPI_INT, j, 5, inter, &q[j]));
        OK(MPI_Isend(&out[j], 1, MPI_INT, j, 5, inter, &q[rsize + j]));
    }
    OK(MPI_Waitall(2 * rsize, q, MPI_STATUSES_IGNORE));
    for (int j = 0; j < rsize; j++)
        CHECK(in[j] == remote_world(j) * 1000 + lrank);
    /* a wildcard receive reports the remote rank */
    int v = -1;
    MPI_Status st;
    if (lrank == 0)
        OK(MPI_Send(&me, 1, MPI_INT, rsize - 1, 6, inter));
    if (lrank == lsize - 1) {   /* the last local rank hears from the other side's 0 */
        OK(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 6, inter, &st));
        CHECK(v == remote_world(0) && st.MPI_SOURCE == 0 && st.MPI_TAG == 6);
    }
    /* a rank past the remote group is refused */
    CHECK(class_of(MPI_Send(&v, 1, MPI_INT, rsize, 0, inter)) == MPI_ERR_RANK);
    free(out);
    free(in);
    free(q);
}

static void rooted(void)
{
    /* A's rank 0 broadcasts to B, then B's rank 0 to A; a strided type
     * (every other int) packs and unpacks */
    MPI_Datatype every_other;
    OK(MPI_Type_vector(3, 1, 2, MPI_INT, &every_other));
    OK(MPI_Type_commit(&every_other));
    for (int from = 0; from < 2; from++) {
        int buf[6] = {0};
        int root = side == from ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
        if (root == MPI_ROOT)
            for (int i = 0; i < 6; i++)
                buf[i] = 100 * from + i;
        OK(MPI_Bcast(buf, 1, every_other, root, inter));
        if (side != from)
            CHECK(buf[0] == 100 * from && buf[2] == 100 * from + 2 &&
                  buf[4] == 100 * from + 4 && buf[1] == 0);
    }
    MPI_Type_free(&every_other);

    /* gather at A's rank 0 from B; scatter from it to B; reduce at it */
    int root = side == 0 ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    int *all = calloc(nr() + 1, sizeof(int)), mine = me + 1, got = -1, sum = -1;
    OK(MPI_Gather(&mine, 1, MPI_INT, all, 1, MPI_INT, root, inter));
    if (root == MPI_ROOT)
        for (int j = 0; j < rsize; j++)
            CHECK(all[j] == remote_world(j) + 1);
    if (root == MPI_ROOT)
        for (int j = 0; j < rsize; j++)
            all[j] = 50 + j;
    OK(MPI_Scatter(all, 1, MPI_INT, &got, 1, MPI_INT, root, inter));
    if (side == 1)
        CHECK(got == 50 + lrank);
    OK(MPI_Reduce(&mine, &sum, 1, MPI_INT, MPI_SUM, root, inter));
    if (root == MPI_ROOT) {
        int want = 0;
        for (int j = 0; j < rsize; j++)
            want += remote_world(j) + 1;
        CHECK(sum == want);
    }
    /* gatherv with a gap between the blocks */
    int *counts = malloc(sizeof(int) * nr()), *displs = malloc(sizeof(int) * nr());
    int *wide = calloc(2 * nr() + 1, sizeof(int));
    for (int j = 0; j < rsize; j++)
        counts[j] = 1, displs[j] = 2 * j;
    OK(MPI_Gatherv(&mine, 1, MPI_INT, wide, counts, displs, MPI_INT, root, inter));
    if (root == MPI_ROOT)
        for (int j = 0; j < rsize; j++)
            CHECK(wide[2 * j] == remote_world(j) + 1 && wide[2 * j + 1] == 0);
    /* a root that is none of MPI_ROOT, MPI_PROC_NULL or a remote rank */
    CHECK(class_of(MPI_Bcast(&mine, 1, MPI_INT, rsize, inter)) == MPI_ERR_ROOT);
    free(all);
    free(counts);
    free(displs);
    free(wide);
}

static void all_to_all(void)
{
    int mine = me + 1;
    /* allgather / allreduce: each group gets the other's */
    int *from = calloc(nr(), sizeof(int));
    OK(MPI_Allgather(&mine, 1, MPI_INT, from, 1, MPI_INT, inter));
    int want = 0;
    for (int j = 0; j < rsize; j++) {
        CHECK(from[j] == remote_world(j) + 1);
        want += remote_world(j) + 1;
    }
    /* no data, and no buffers: a message of no bytes each way all the same */
    OK(MPI_Allgather(NULL, 0, MPI_INT, NULL, 0, MPI_INT, inter));
    int sum = -1;
    OK(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, inter));
    CHECK(sum == want);
    /* a persistent form, started twice */
    MPI_Request pr;
    OK(MPI_Allreduce_init(&mine, &sum, 1, MPI_INT, MPI_SUM, inter, MPI_INFO_NULL, &pr));
    for (int k = 0; k < 2; k++) {
        sum = -1;
        OK(MPI_Start(&pr));
        OK(MPI_Wait(&pr, MPI_STATUS_IGNORE));
        CHECK(sum == want);
    }
    OK(MPI_Request_free(&pr));
    /* immediate forms, two in flight at once */
    int sum2 = -1, *from2 = calloc(nr(), sizeof(int));
    MPI_Request q[3];
    OK(MPI_Iallreduce(&mine, &sum2, 1, MPI_INT, MPI_MAX, inter, &q[0]));
    OK(MPI_Iallgather(&mine, 1, MPI_INT, from2, 1, MPI_INT, inter, &q[1]));
    OK(MPI_Ibarrier(inter, &q[2]));
    OK(MPI_Waitall(3, q, MPI_STATUSES_IGNORE));
    CHECK(sum2 == remote_world(rsize - 1) + 1);
    for (int j = 0; j < rsize; j++)
        CHECK(from2[j] == remote_world(j) + 1);
    /* alltoall: block j to remote rank j */
    int *out = malloc(sizeof(int) * nr()), *in = calloc(nr(), sizeof(int));
    for (int j = 0; j < rsize; j++)
        out[j] = me * 100 + j;
    OK(MPI_Alltoall(out, 1, MPI_INT, in, 1, MPI_INT, inter));
    for (int j = 0; j < rsize; j++)
        CHECK(in[j] == remote_world(j) * 100 + lrank);
    /* alltoallw with byte displacements, the same exchange */
    int *cnt = malloc(sizeof(int) * nr()), *dsp = malloc(sizeof(int) * nr());
    MPI_Datatype *ty = malloc(sizeof(MPI_Datatype) * nr());
    for (int j = 0; j < rsize; j++)
        cnt[j] = 1, dsp[j] = (int)sizeof(int) * j, ty[j] = MPI_INT, in[j] = -1;
    OK(MPI_Alltoallw(out, cnt, dsp, ty, in, cnt, dsp, ty, inter));
    for (int j = 0; j < rsize; j++)
        CHECK(in[j] == remote_world(j) * 100 + lrank);
    /* reduce_scatter_block, two elements each: both sides' vectors are
     * 2 x group size long and must agree, so only with groups alike */
    if (lsize == rsize) {
        int n = lsize * 2, *v = malloc(sizeof(int) * (size_t)n), res[2] = {-1, -1};
        for (int i = 0; i < n; i++)
            v[i] = me + i;
        OK(MPI_Reduce_scatter_block(v, res, 2, MPI_INT, MPI_SUM, inter));
        int w0 = 0, w1 = 0;
        for (int j = 0; j < rsize; j++)
            w0 += remote_world(j) + 2 * lrank, w1 += remote_world(j) + 2 * lrank + 1;
        CHECK(res[0] == w0 && res[1] == w1);
        free(v);
    }
    /* reduce_scatter: the remote group's vectors summed, this rank's segment */
    int total = lsize + 1, *v = malloc(sizeof(int) * (size_t)total), res[2] = {-1, -1};
    int *rc_ = malloc(sizeof(int) * (size_t)lsize);
    for (int i = 0; i < lsize; i++)
        rc_[i] = i == 0 ? 2 : 1;
    /* both sides' totals must agree: only when the groups are the same size */
    if (lsize == rsize) {
        for (int i = 0; i < total; i++)
            v[i] = me * 10 + i;
        OK(MPI_Reduce_scatter(v, res, rc_, MPI_INT, MPI_SUM, inter));
        int first = lrank == 0 ? 0 : lrank + 1;
        int w = 0;
        for (int j = 0; j < rsize; j++)
            w += remote_world(j) * 10 + first;
        CHECK(res[0] == w);
    }
    /* scans mean nothing between two groups */
    CHECK(class_of(MPI_Scan(&mine, &sum, 1, MPI_INT, MPI_SUM, inter)) == MPI_ERR_COMM);
    free(v);
    free(rc_);
    free(from);
    free(from2);
    free(out);
    free(in);
    free(cnt);
    free(dsp);
    free(ty);
}

static void derived(void)
{
    /* merge: A (high = 0) first */
    MPI_Comm merged;
    OK(MPI_Intercomm_merge(inter, side, &merged));
    int r = -1, n = -1;
    MPI_Comm_rank(merged, &r);
    MPI_Comm_size(merged, &n);
    CHECK(n == np && r == (side ? np / 2 + (np % 2) : 0) + lrank);
    int one = 1, sum = 0;
    OK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, merged));
    CHECK(sum == np);
    OK(MPI_Comm_free(&merged));

    /* dup: congruent, its own traffic */
    MPI_Comm dup;
    OK(MPI_Comm_dup(inter, &dup));
    int cmp = -1, flag = 0;
    OK(MPI_Comm_compare(inter, dup, &cmp));
    CHECK(cmp == MPI_CONGRUENT);
    OK(MPI_Comm_test_inter(dup, &flag));
    CHECK(flag);
    int x = me, y = -1;
    OK(MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_MIN, dup));
    CHECK(y == remote_world(0));
    OK(MPI_Comm_free(&dup));

    /* split: local rank 0 of each side apart from the rest */
    MPI_Comm part;
    OK(MPI_Comm_split(inter, lrank == 0 ? 0 : 1, -lrank, &part));
    if (lrank == 0) {
        CHECK(part != MPI_COMM_NULL);
        if (part != MPI_COMM_NULL) {
            int rs = -1;
            MPI_Comm_remote_size(part, &rs);
            CHECK(rs == 1);
            OK(MPI_Comm_free(&part));
        }
    } else if (rsize > 1) {   /* the other side has a colour-1 part too */
        CHECK(part != MPI_COMM_NULL);
        if (part != MPI_COMM_NULL) {
            int rr = -1;
            MPI_Comm_rank(part, &rr);
            CHECK(rr == lsize - 1 - lrank);   /* keys are -lrank: reversed */
            OK(MPI_Comm_free(&part));
        }
    } else {
        CHECK(part == MPI_COMM_NULL);
    }

    /* create: the local group's rank 0 alone on each side */
    MPI_Group lg, g0;
    MPI_Comm_group(inter, &lg);
    int zero = 0;
    MPI_Group_incl(lg, 1, &zero, &g0);
    MPI_Comm c0;
    OK(MPI_Comm_create(inter, g0, &c0));
    CHECK((lrank == 0) == (c0 != MPI_COMM_NULL));
    if (c0 != MPI_COMM_NULL) {
        int rs = -1, v = -1;
        MPI_Comm_remote_size(c0, &rs);
        CHECK(rs == 1);
        OK(MPI_Sendrecv(&me, 1, MPI_INT, 0, 1, &v, 1, MPI_INT, 0, 1, c0, MPI_STATUS_IGNORE));
        CHECK(v == remote_world(0));
        OK(MPI_Comm_free(&c0));
    }
    MPI_Group_free(&g0);
    MPI_Group_free(&lg);

    /* from groups, with no parent */
    MPI_Group wg, ga, gb;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    int range_a[1][3] = {{0, np - 1, 2}}, range_b[1][3] = {{1, np - 1, 2}};
    MPI_Group_range_incl(wg, 1, range_a, &ga);
    MPI_Group_range_incl(wg, 1, range_b, &gb);
    MPI_Comm fg;
    OK(MPI_Intercomm_create_from_groups(side ? gb : ga, 0, side ? ga : gb, 0, "mpi_inter",
                                        MPI_INFO_NULL, MPI_ERRORS_RETURN, &fg));
    int rs = -1;
    MPI_Comm_remote_size(fg, &rs);
    CHECK(rs == rsize);
    OK(MPI_Barrier(fg));
    OK(MPI_Comm_free(&fg));
    MPI_Group_free(&ga);
    MPI_Group_free(&gb);
    MPI_Group_free(&wg);

    /* what an intercommunicator refuses */
    int dims[1] = {lsize}, periods[1] = {0};
    MPI_Comm cart;
    CHECK(class_of(MPI_Cart_create(inter, 1, dims, periods, 0, &cart)) == MPI_ERR_COMM);
    MPI_Win win;
    CHECK(class_of(MPI_Win_create(NULL, 0, 1, MPI_INFO_NULL, inter, &win)) == MPI_ERR_COMM);
}

int main(int argc, char **argv)
{
    mpi_test_init(&argc, &argv);
    int flag = 1, rs = 0;
    OK(MPI_Comm_test_inter(MPI_COMM_WORLD, &flag));
    CHECK(flag == 0);
    CHECK(class_of(MPI_Comm_remote_size(MPI_COMM_WORLD, &rs)) == MPI_ERR_COMM);
    MPI_Comm m;
    CHECK(class_of(MPI_Intercomm_merge(MPI_COMM_WORLD, 0, &m)) == MPI_ERR_COMM);
    if (np >= 2) {
        make();
        messages();
        rooted();
        all_to_all();
        derived();
        OK(MPI_Comm_free(&inter));
        OK(MPI_Comm_free(&local));
    }
    return mpi_test_report("mpi_inter");
}
