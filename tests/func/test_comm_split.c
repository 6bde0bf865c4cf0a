/* ordo_comm_split: members of a color form a context ordered by key (ties
 * by their order in the parent), a negative color joins none, the
 * translation calls agree with the order, and the new context carries
 * point-to-point traffic and collectives in that order; a split of a split;
 * misuse agreed over the parent. */
#include <stdlib.h>
#include <string.h>

#include "../harness.h"

static int me, np;

/* Split the world by color = rank % ncolors, key = -rank (reverse order),
 * and check everything about the result. */
static void by_parity(int ncolors)
{
    ordo_comm_h c;
    REQUIRE_OK(ordo_comm_split(ORDO_COMM_WORLD, me % ncolors, -me, &c));
    int want_n = 0;
    for (int r = 0; r < np; r++)
        want_n += r % ncolors == me % ncolors;
    int n = -1, idx = -1;
    CHECK_OK(ordo_comm_size(c, &n));
    CHECK(n == want_n);
    CHECK_OK(ordo_comm_rank(c, &idx));
    /* by key -rank: the highest rank of the color is index 0 */
    int want_idx = 0;
    for (int r = me + 1; r < np; r++)
        want_idx += r % ncolors == me % ncolors;
    CHECK(idx == want_idx);
    for (int i = 0; i < n; i++) {
        int w = -1, back = -1;
        CHECK_OK(ordo_comm_member(c, i, &w));
        CHECK(w % ncolors == me % ncolors);
        CHECK_OK(ordo_comm_index(c, w, &back));
        CHECK(back == i);
        if (i > 0) {
            int prev;
            CHECK_OK(ordo_comm_member(c, i - 1, &prev));
            CHECK(prev > w);
        }
    }
    for (int r = 0; r < np; r++) {
        int x = 7;
        if (r % ncolors != me % ncolors) {
            CHECK_STATUS(ordo_comm_index(c, r, &x), ORDO_ERR_INVALID_RANK);
            CHECK(x == -1);
        }
    }
    /* collectives follow the member order */
    int *all = malloc((size_t)n * sizeof(int));
    CHECK_OK(ordo_coll_allgather(c, &me, sizeof(me), all));
    for (int i = 0; i < n; i++) {
        int w;
        CHECK_OK(ordo_comm_member(c, i, &w));
        CHECK(all[i] == w);
    }
    int64_t one = 1, pos = -1;
    CHECK_OK(ordo_coll_scan(c, &one, &pos, 1, ORDO_DT_INT64, ORDO_REDUCE_SUM));
    CHECK(pos == idx + 1);
    /* a ring by index, addressed by world ranks */
    int right, left, got = -1;
    CHECK_OK(ordo_comm_member(c, (idx + 1) % n, &right));
    CHECK_OK(ordo_comm_member(c, (idx - 1 + n) % n, &left));
    CHECK_OK(ordo_sendrecv(c, &me, sizeof(me), right, 5, &got, sizeof(got), left, 5, NULL));
    CHECK(got == left);
    /* a split of the split: halves by index, same key: parent order */
    ordo_comm_h h;
    REQUIRE_OK(ordo_comm_split(c, idx < n / 2, 0, &h));
    int hn = 0, hidx = -1;
    CHECK_OK(ordo_comm_size(h, &hn));
    CHECK_OK(ordo_comm_rank(h, &hidx));
    CHECK(hn == (idx < n / 2 ? n / 2 : n - n / 2));
    CHECK(hidx == (idx < n / 2 ? idx : idx - n / 2));
    CHECK_OK(ordo_coll_barrier(h));
    CHECK_OK(ordo_comm_destroy(h));
    free(all);
    CHECK_OK(ordo_comm_destroy(c));
}

int main(void)
{
    REQUIRE_OK(ordo_init(NULL));
    me = ordo_rank();
    np = ordo_size();
    by_parity(1);
    by_parity(2);
    by_parity(3);
    /* a negative color joins none */
    ordo_comm_h c = NULL;
    CHECK_OK(ordo_comm_split(ORDO_COMM_WORLD, me == 0 ? -1 : 4, me, &c));
    if (me == 0) {
        CHECK(c == ORDO_COMM_NULL);
        int n;
        CHECK_STATUS(ordo_comm_size(c, &n), ORDO_ERR_INVALID_HANDLE);
        CHECK_STATUS(ordo_send(c, &n, sizeof(n), 0, 0), ORDO_ERR_INVALID_HANDLE);
        CHECK_STATUS(ordo_coll_barrier(c), ORDO_ERR_INVALID_HANDLE);
        CHECK_STATUS(ordo_comm_destroy(c), ORDO_ERR_INVALID_HANDLE);
    } else {
        int n;
        CHECK_OK(ordo_comm_size(c, &n));
        CHECK(n == np - 1);
        CHECK_OK(ordo_coll_barrier(c));
        CHECK_OK(ordo_comm_destroy(c));
    }
    /* one member's misuse fails the split at every member */
    c = NULL;
    ordo_status_t st = ordo_comm_split(ORDO_COMM_WORLD, 0, 0, me == np - 1 ? NULL : &c);
    CHECK_STATUS(st, ORDO_ERR_INVALID_PARAM);
    CHECK(c == NULL);
    int r;
    CHECK_STATUS(ordo_comm_split(ORDO_COMM_NULL, 0, 0, &c), ORDO_ERR_INVALID_HANDLE);
    CHECK_STATUS(ordo_comm_index(ORDO_COMM_WORLD, np, &r), ORDO_ERR_INVALID_RANK);
    CHECK_STATUS(ordo_comm_rank(ORDO_COMM_WORLD, NULL), ORDO_ERR_INVALID_PARAM);
    r = -1;
    CHECK_OK(ordo_comm_rank(ORDO_COMM_WORLD, &r));
    CHECK(r == me);
    CHECK_OK(ordo_coll_barrier(ORDO_COMM_WORLD));
    int rc = test_result("test_comm_split");
    CHECK_OK(ordo_finalize());
    return rc;
}
