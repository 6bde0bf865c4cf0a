/* MPI conformance: windows over communicators of fewer ranks than the job.
 * Halves of the job (ranks in reverse order, so a window rank is not the
 * world rank), MPI_COMM_SELF (ranks making different numbers of windows),
 * the ranks of one node (MPI_Win_allocate_shared over
 * MPI_COMM_TYPE_SHARED, also when the job spans nodes), each window kind
 * and synchronisation mode; ranks named by the window's communicator, a
 * rank past it an error of its class. */
#include <stdint.h>

#include "mpi_harness.h"

/* Every window kind over c, each rank putting its world rank into every
 * other's memory at slot (its rank in c), in fence, lock_all, exclusive
 * lock and PSCW epochs. */
static void over(MPI_Comm c)
{
    int n, r;
    OK(MPI_Comm_size(c, &n));
    OK(MPI_Comm_rank(c, &r));
    int *world = calloc((size_t)n, sizeof(int));
    OK(MPI_Allgather(&me, 1, MPI_INT, world, 1, MPI_INT, c));

    /* allocate, fence */
    int *base = NULL;
    MPI_Win win;
    OK(MPI_Win_allocate((MPI_Aint)(n + 1) * (MPI_Aint)sizeof(int), sizeof(int), MPI_INFO_NULL,
                        c, &base, &win));
    MPI_Group wg, cg;
    int same = MPI_UNEQUAL;
    OK(MPI_Win_get_group(win, &wg));
    OK(MPI_Comm_group(c, &cg));
    OK(MPI_Group_compare(wg, cg, &same));
    CHECK(same == MPI_IDENT);
    OK(MPI_Group_free(&wg));
    for (int i = 0; i <= n; i++)
        base[i] = -1;
    OK(MPI_Win_fence(0, win));
    for (int t = 0; t < n; t++)
        OK(MPI_Put(&me, 1, MPI_INT, t, r, 1, MPI_INT, win));
    OK(MPI_Win_fence(0, win));
    for (int i = 0; i < n; i++)
        CHECK(base[i] == world[i]);
    CHECK(base[n] == -1);
    int got = -2;
    OK(MPI_Get(&got, 1, MPI_INT, (r + 1) % n, r, 1, MPI_INT, win));
    OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    CHECK(got == me);
    /* a rank past the communicator, though a rank of the job */
    OK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    OK(MPI_Win_lock_all(0, win));
    CHECK(class_of(MPI_Put(&me, 1, MPI_INT, n, 0, 1, MPI_INT, win)) == MPI_ERR_RANK);
    /* a counter at slot n of rank 0, by every rank */
    int one = 1;
    OK(MPI_Accumulate(&one, 1, MPI_INT, 0, n, 1, MPI_INT, MPI_SUM, win));
    OK(MPI_Win_flush_all(win));
    OK(MPI_Win_unlock_all(win));
    OK(MPI_Barrier(c));
    if (r == 0)
        CHECK(base[n] == -1 + n);
    OK(MPI_Win_free(&win));

    /* create over the program's memory: exclusive locks, PSCW */
    long *mine = calloc((size_t)n, sizeof(long));
    OK(MPI_Win_create(mine, (MPI_Aint)n * (MPI_Aint)sizeof(long), sizeof(long), MPI_INFO_NULL,
                      c, &win));
    for (int t = 0; t < n; t++) {
        long v = 100 + me;
        OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, win));
        OK(MPI_Put(&v, 1, MPI_LONG, t, r, 1, MPI_LONG, win));
        OK(MPI_Win_unlock(t, win));
    }
    OK(MPI_Barrier(c));
    for (int i = 0; i < n; i++)
        CHECK(mine[i] == 100 + world[i]);
    OK(MPI_Win_post(cg, 0, win));
    OK(MPI_Win_start(cg, 0, win));
    for (int t = 0; t < n; t++) {
        long v = 200 + me;
        OK(MPI_Put(&v, 1, MPI_LONG, t, r, 1, MPI_LONG, win));
    }
    OK(MPI_Win_complete(win));
    OK(MPI_Win_wait(win));
    for (int i = 0; i < n; i++)
        CHECK(mine[i] == 200 + world[i]);
    OK(MPI_Win_free(&win));
    free(mine);

    /* dynamic: the addresses swapped over c */
    OK(MPI_Win_create_dynamic(MPI_INFO_NULL, c, &win));
    long *area = calloc((size_t)n, sizeof(long));
    OK(MPI_Win_attach(win, area, (MPI_Aint)n * (MPI_Aint)sizeof(long)));
    MPI_Aint at = 0, *ats = calloc((size_t)n, sizeof(MPI_Aint));
    OK(MPI_Get_address(area, &at));
    OK(MPI_Allgather(&at, 1, MPI_AINT, ats, 1, MPI_AINT, c));
    OK(MPI_Win_fence(0, win));
    for (int t = 0; t < n; t++) {
        long v = 300 + me;
        OK(MPI_Put(&v, 1, MPI_LONG, t, ats[t] + (MPI_Aint)r * (MPI_Aint)sizeof(long), 1,
                   MPI_LONG, win));
    }
    OK(MPI_Win_fence(0, win));
    for (int i = 0; i < n; i++)
        CHECK(area[i] == 300 + world[i]);
    OK(MPI_Win_detach(win, area));
    OK(MPI_Win_free(&win));
    free(ats);
    free(area);
    OK(MPI_Group_free(&cg));
    free(world);
}

/* The ranks of this node: a shared window, each rank storing into its
 * neighbour's memory directly. */
static void node_shared(void)
{
    MPI_Comm node;
    OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    int nsize = 0, nrank = 0;
    OK(MPI_Comm_size(node, &nsize));
    OK(MPI_Comm_rank(node, &nrank));
    double *mine = NULL, *theirs = NULL;
    MPI_Win win;
    OK(MPI_Win_allocate_shared(2 * sizeof(double), sizeof(double), MPI_INFO_NULL, node, &mine,
                               &win));
    MPI_Aint size = 0;
    int unit = 0;
    OK(MPI_Win_shared_query(win, (nrank + 1) % nsize, &size, &unit, &theirs));
    CHECK(size == 2 * (MPI_Aint)sizeof(double) && unit == (int)sizeof(double));
    OK(MPI_Win_lock_all(MPI_MODE_NOCHECK, win));
    theirs[0] = 2.5 * me;
    OK(MPI_Win_sync(win));
    OK(MPI_Barrier(node));
    OK(MPI_Win_sync(win));
    int from = (nrank - 1 + nsize) % nsize, from_world = -1;
    MPI_Group ng, wg;
    OK(MPI_Comm_group(node, &ng));
    OK(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    OK(MPI_Group_translate_ranks(ng, 1, &from, wg, &from_world));
    CHECK(mine[0] == 2.5 * from_world);
    OK(MPI_Win_unlock_all(win));
    OK(MPI_Win_free(&win));
    OK(MPI_Group_free(&ng));
    OK(MPI_Group_free(&wg));
    if (nsize != np) {
        /* over ranks of two nodes: refused on every rank together */
        MPI_Comm all;
        OK(MPI_Comm_dup(MPI_COMM_WORLD, &all));
        OK(MPI_Comm_set_errhandler(all, MPI_ERRORS_RETURN));
        CHECK(class_of(MPI_Win_allocate_shared(8, 1, MPI_INFO_NULL, all, &mine, &win)) ==
              MPI_ERR_RMA_SHARED);
        OK(MPI_Comm_free(&all));
    }
    OK(MPI_Comm_free(&node));
}

int main(int argc, char **argv)
{
    mpi_test_init(&argc, &argv);

    /* halves by parity, in reverse order of world rank */
    MPI_Comm half;
    OK(MPI_Comm_split(MPI_COMM_WORLD, me % 2, np - me, &half));
    over(half);

    /* MPI_COMM_SELF, a different number of times at each rank, then a
     * window over the whole job still agrees */
    for (int i = 0; i <= me % 3; i++)
        over(MPI_COMM_SELF);
    over(MPI_COMM_WORLD);
    over(half);

    node_shared();

    /* the window's communicator may go before the window */
    MPI_Comm dup;
    OK(MPI_Comm_dup(half, &dup));
    int *base = NULL;
    MPI_Win win;
    OK(MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, dup, &base, &win));
    OK(MPI_Comm_free(&dup));
    *base = 0;
    OK(MPI_Win_fence(0, win));
    OK(MPI_Accumulate(&me, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win));
    OK(MPI_Win_fence(0, win));
    OK(MPI_Win_free(&win));

    OK(MPI_Comm_free(&half));
    return mpi_test_report("mpi_win_comm");
}
