/* Neighbourhood collectives, blocking and non-blocking (each case both
 * ways): on a periodic ring grid, where with 1 or 2 processes both
 * neighbours are one process and each block must still land in its own
 * place; on a closed line (blocks from MPI_PROC_NULL untouched); on a 2-D
 * periodic grid with blocks of different lengths; on a distributed graph
 * with a strided datatype (Neighbor_alltoallw, also from MPI_BOTTOM) and
 * Neighbor_allgatherv;
 * on a graph; persistent (Neighbor_alltoall_init); and the errors (no
 * topology, MPI_IN_PLACE). */
#include "mpi_harness.h"

/* GCC 12 takes the standard ABI's MPI_UNWEIGHTED, a fixed small address,
 * for an array of no size that the call would read (mpi_graph.c too). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wstringop-overread"
#endif

static int nb;

#define NCOLL(blocking, immediate, ...)                                            \
    do {                                                                           \
        MPI_Request req_ = MPI_REQUEST_NULL;                                       \
        if (nb) {                                                                  \
            OK(MPI_##immediate(__VA_ARGS__, &req_));                               \
            OK(MPI_Wait(&req_, MPI_STATUS_IGNORE));                                \
        } else {                                                                   \
            OK(MPI_##blocking(__VA_ARGS__));                                       \
        }                                                                          \
    } while (0)

static int np, me;

/* a ring grid: what goes down arrives from above, what goes up from below */
static void ring(int periodic)
{
    MPI_Comm g;
    int dims[1] = {np}, periods[1] = {periodic};
    OK(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &g));
    int below = (me + np - 1) % np, above = (me + 1) % np;
    int has_below = periodic || me > 0, has_above = periodic || me < np - 1;
    int out[2] = {me * 10 + 0, me * 10 + 1}, in[2] = {-1, -1};
    NCOLL(Neighbor_alltoall, Ineighbor_alltoall, out, 1, MPI_INT, in, 1, MPI_INT, g);
    CHECK(in[0] == (has_below ? below * 10 + 1 : -1));   /* below sent it upwards */
    CHECK(in[1] == (has_above ? above * 10 + 0 : -1));
    in[0] = in[1] = -1;
    NCOLL(Neighbor_allgather, Ineighbor_allgather, &me, 1, MPI_INT, in, 1, MPI_INT, g);
    CHECK(in[0] == (has_below ? below : -1) && in[1] == (has_above ? above : -1));
    OK(MPI_Comm_free(&g));
}

/* a 2-D periodic grid: to the neighbour in slot k, k + 1 ints of value
 * me * 100 + k; from slot k, as many as that neighbour sends in the
 * opposite direction (slot k ^ 1) */
static void grid2d(void)
{
    int dims[2] = {0, 0}, periods[2] = {1, 1};
    OK(MPI_Dims_create(np, 2, dims));
    MPI_Comm g;
    OK(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &g));
    int nbr[4];
    OK(MPI_Cart_shift(g, 0, 1, &nbr[0], &nbr[1]));
    OK(MPI_Cart_shift(g, 1, 1, &nbr[2], &nbr[3]));
    int sc[4], sd[4], rc[4], rd[4], sbuf[16], rbuf[16];
    for (int k = 0, at = 0, rat = 0; k < 4; k++) {
        sc[k] = k + 1;
        sd[k] = at;
        for (int i = 0; i < sc[k]; i++)
            sbuf[at + i] = me * 100 + k;
        at += sc[k];
        rc[k] = (k ^ 1) + 1;
        rd[k] = rat;
        rat += rc[k];
    }
    memset(rbuf, 0xff, sizeof(rbuf));
    NCOLL(Neighbor_alltoallv, Ineighbor_alltoallv, sbuf, sc, sd, MPI_INT, rbuf, rc, rd,
          MPI_INT, g);
    int good = 1;
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < rc[k]; i++)
            good &= rbuf[rd[k] + i] == nbr[k] * 100 + (k ^ 1);
    CHECK(good);
    OK(MPI_Comm_free(&g));
}

/* a distributed ring: hear from the left, speak to the right */
static void dist(void)
{
    int left = (me + np - 1) % np, right = (me + 1) % np;
    MPI_Comm d;
    OK(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &left, MPI_UNWEIGHTED, 1, &right,
                                      MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &d));
    /* allgatherv: two ints land at element 3 of the receive buffer */
    int two[2] = {me, -me}, got[6] = {-1, -1, -1, -1, -1, -1}, cnt = 2, at = 3;
    NCOLL(Neighbor_allgatherv, Ineighbor_allgatherv, two, 2, MPI_INT, got, &cnt, &at, MPI_INT,
          d);
    CHECK(got[2] == -1 && got[3] == left && got[4] == -left && got[5] == -1);
    /* alltoallw: every other int of six sent, received as three ints */
    MPI_Datatype one, every_other;
    OK(MPI_Type_vector(1, 1, 2, MPI_INT, &one));
    OK(MPI_Type_create_resized(one, 0, 2 * sizeof(int), &every_other));
    OK(MPI_Type_free(&one));
    OK(MPI_Type_commit(&every_other));
    int six[7], three[4] = {-1, -1, -1, -1};
    for (int i = 0; i < 7; i++)
        six[i] = me * 10 + i;
    int c3 = 3;
    MPI_Aint s_at = sizeof(int), r_at = sizeof(int);   /* start at element 1 */
    MPI_Datatype st = every_other, rt = MPI_INT;
    NCOLL(Neighbor_alltoallw, Ineighbor_alltoallw, six, &c3, &s_at, &st, three, &c3, &r_at, &rt,
          d);
    CHECK(three[0] == -1 && three[1] == left * 10 + 1 && three[2] == left * 10 + 3 &&
          three[3] == left * 10 + 5);
    /* the same from MPI_BOTTOM, displacements as addresses */
    three[1] = three[2] = three[3] = -1;
    MPI_Aint s_abs, r_abs;
    OK(MPI_Get_address(&six[1], &s_abs));
    OK(MPI_Get_address(&three[1], &r_abs));
    NCOLL(Neighbor_alltoallw, Ineighbor_alltoallw, MPI_BOTTOM, &c3, &s_abs, &st, MPI_BOTTOM,
          &c3, &r_abs, &rt, d);
    CHECK(three[0] == -1 && three[1] == left * 10 + 1 && three[2] == left * 10 + 3 &&
          three[3] == left * 10 + 5);
    OK(MPI_Type_free(&every_other));
    OK(MPI_Comm_free(&d));
}

/* a graph ring: both neighbours, in the graph's order */
static void graph(void)
{
    int index[8], edges[16], e = 0;
    for (int i = 0; i < np; i++) {
        edges[e++] = (i + np - 1) % np;
        edges[e++] = (i + 1) % np;
        index[i] = e;
    }
    MPI_Comm g;
    OK(MPI_Graph_create(MPI_COMM_WORLD, np, index, edges, 0, &g));
    int in[2] = {-1, -1};
    NCOLL(Neighbor_allgather, Ineighbor_allgather, &me, 1, MPI_INT, in, 1, MPI_INT, g);
    CHECK(in[0] == edges[2 * me] && in[1] == edges[2 * me + 1]);
    OK(MPI_Comm_free(&g));
}

int main(int argc, char **argv)
{
    mpi_test_init(&argc, &argv);
    OK(MPI_Comm_size(MPI_COMM_WORLD, &np));
    OK(MPI_Comm_rank(MPI_COMM_WORLD, &me));
    for (nb = 0; nb < 2; nb++) {
        ring(1);
        ring(0);
        grid2d();
        dist();
        if (np <= 8)
            graph();
    }
    /* persistent: made once, started twice with new data */
    MPI_Comm pg;
    int pdims[1] = {np}, pper[1] = {1};
    OK(MPI_Cart_create(MPI_COMM_WORLD, 1, pdims, pper, 0, &pg));
    int pout[2], pin[2];
    MPI_Request preq;
    OK(MPI_Neighbor_alltoall_init(pout, 1, MPI_INT, pin, 1, MPI_INT, pg, MPI_INFO_NULL, &preq));
    for (int round = 0; round < 2; round++) {
        pout[0] = me * 10 + round;
        pout[1] = me * 10 + 5 + round;
        pin[0] = pin[1] = -1;
        OK(MPI_Start(&preq));
        OK(MPI_Wait(&preq, MPI_STATUS_IGNORE));
        CHECK(pin[0] == ((me + np - 1) % np) * 10 + 5 + round &&
              pin[1] == ((me + 1) % np) * 10 + round);
    }
    OK(MPI_Request_free(&preq));
    OK(MPI_Comm_free(&pg));

    int x = 0, y[2];
    CHECK(class_of(MPI_Neighbor_allgather(&x, 1, MPI_INT, y, 1, MPI_INT, MPI_COMM_WORLD)) ==
          MPI_ERR_TOPOLOGY);
    MPI_Comm g;
    int dims[1] = {np}, periods[1] = {1};
    OK(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &g));
    CHECK(class_of(MPI_Neighbor_allgather(MPI_IN_PLACE, 1, MPI_INT, y, 1, MPI_INT, g)) ==
          MPI_ERR_BUFFER);
    OK(MPI_Comm_free(&g));
    return mpi_test_report("mpi_neighbor");
}
