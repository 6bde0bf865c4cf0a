/* Cartesian topologies and what goes with them: Dims_create's balanced
 * factorings and its errors; Cart_create over all or fewer ranks (the rest
 * get MPI_COMM_NULL), the grid's queries (Topo_test, Cartdim_get,
 * Cart_get, Cart_rank with periodic wrap, Cart_coords), Cart_shift at
 * periodic and closed edges, a ring exchange along each dimension through
 * Cart_shift's neighbours, Cart_sub's sub-grids, the topology kept by
 * Comm_dup and dropped by Comm_split; the error handler a new communicator
 * inherits; the MPI-3 info and _x calls. */
#include "mpi_harness.h"

static void dims_create(void)
{
    int d2[2] = {0, 0};
    OK(MPI_Dims_create(12, 2, d2));
    CHECK(d2[0] == 4 && d2[1] == 3);
    int d3[3] = {0, 0, 0};
    OK(MPI_Dims_create(16, 3, d3));
    CHECK(d3[0] * d3[1] * d3[2] == 16 && d3[0] >= d3[1] && d3[1] >= d3[2] && d3[0] <= 4);
    int fixed[3] = {0, 3, 0};
    OK(MPI_Dims_create(30, 3, fixed));
    CHECK(fixed[1] == 3 && fixed[0] * fixed[2] == 10 && fixed[0] >= fixed[2]);
    int prime[2] = {0, 0};
    OK(MPI_Dims_create(7, 2, prime));
    CHECK(prime[0] == 7 && prime[1] == 1);
    int bad[2] = {5, 0};
    CHECK(class_of(MPI_Dims_create(12, 2, bad)) == MPI_ERR_DIMS);   /* 5 does not divide 12 */
    int neg[2] = {-1, 0};
    CHECK(class_of(MPI_Dims_create(4, 2, neg)) == MPI_ERR_DIMS);
    int full[2] = {2, 3};
    OK(MPI_Dims_create(6, 2, full));
    CHECK(full[0] == 2 && full[1] == 3);
}

/* every rank passes its rank along each dimension of a periodic grid and
 * gets its upstream neighbour's */
static void ring_exchange(MPI_Comm cart, int ndims)
{
    int rank;
    OK(MPI_Comm_rank(cart, &rank));
    for (int d = 0; d < ndims; d++) {
        int src, dst, got = -1;
        OK(MPI_Cart_shift(cart, d, 1, &src, &dst));
        OK(MPI_Sendrecv(&rank, 1, MPI_INT, dst, d, &got, 1, MPI_INT, src, d, cart,
                        MPI_STATUS_IGNORE));
        CHECK(got == src);
    }
}

static void cartesian(void)
{
    /* the whole world as a periodic 2-D grid */
    int dims[2] = {0, 0}, periods[2] = {1, 0};
    OK(MPI_Dims_create(np, 2, dims));
    MPI_Comm cart;
    OK(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart));
    CHECK(cart != MPI_COMM_NULL);
    if (cart == MPI_COMM_NULL)
        return;
    OK(MPI_Comm_set_errhandler(cart, MPI_ERRORS_RETURN));
    int status = -1, nd = -1, rank;
    OK(MPI_Topo_test(cart, &status));
    CHECK(status == MPI_CART);
    OK(MPI_Topo_test(MPI_COMM_WORLD, &status));
    CHECK(status == MPI_UNDEFINED);
    OK(MPI_Cartdim_get(cart, &nd));
    CHECK(nd == 2);
    OK(MPI_Comm_rank(cart, &rank));
    int gd[2], gp[2], gc[2], back = -1;
    OK(MPI_Cart_get(cart, 2, gd, gp, gc));
    CHECK(gd[0] == dims[0] && gd[1] == dims[1] && gp[0] == 1 && gp[1] == 0);
    CHECK(gc[0] == rank / dims[1] && gc[1] == rank % dims[1]);   /* row-major */
    OK(MPI_Cart_rank(cart, gc, &back));
    CHECK(back == rank);
    int cc[2];
    for (int r = 0; r < np; r++) {
        OK(MPI_Cart_coords(cart, r, 2, cc));
        OK(MPI_Cart_rank(cart, cc, &back));
        CHECK(back == r);
    }
    /* periodic dimension 0 wraps; closed dimension 1 refuses */
    int wrap[2] = {gc[0] + dims[0], gc[1]};
    OK(MPI_Cart_rank(cart, wrap, &back));
    CHECK(back == rank);
    int off[2] = {gc[0], dims[1]};
    CHECK(class_of(MPI_Cart_rank(cart, off, &back)) == MPI_ERR_ARG);
    CHECK(class_of(MPI_Cart_coords(cart, np, 2, cc)) == MPI_ERR_RANK);
    /* shifts: around dimension 0, off the edge of dimension 1 */
    int src, dst;
    OK(MPI_Cart_shift(cart, 0, 1, &src, &dst));
    CHECK(dst == ((gc[0] + 1) % dims[0]) * dims[1] + gc[1]);
    CHECK(src == ((gc[0] - 1 + dims[0]) % dims[0]) * dims[1] + gc[1]);
    OK(MPI_Cart_shift(cart, 1, 1, &src, &dst));
    CHECK(dst == (gc[1] + 1 < dims[1] ? rank + 1 : MPI_PROC_NULL));
    CHECK(src == (gc[1] > 0 ? rank - 1 : MPI_PROC_NULL));
    OK(MPI_Cart_shift(cart, 1, 0, &src, &dst));
    CHECK(src == rank && dst == rank);
    CHECK(class_of(MPI_Cart_shift(cart, 2, 1, &src, &dst)) == MPI_ERR_DIMS);
    ring_exchange(cart, 1);   /* dimension 0 is the periodic one */

    /* rows: dimension 1 kept, one sub-grid per row */
    int keep[2] = {0, 1};
    MPI_Comm row;
    OK(MPI_Cart_sub(cart, keep, &row));
    int rsize = 0, rrank = -1;
    OK(MPI_Comm_size(row, &rsize));
    OK(MPI_Comm_rank(row, &rrank));
    CHECK(rsize == dims[1] && rrank == gc[1]);
    OK(MPI_Cartdim_get(row, &nd));
    CHECK(nd == 1);
    int sum = 0;
    OK(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, row));
    int first = gc[0] * dims[1];
    CHECK(sum == dims[1] * first + dims[1] * (dims[1] - 1) / 2);
    OK(MPI_Comm_free(&row));
    /* nothing kept: a 0-dimensional grid of one */
    int none[2] = {0, 0};
    MPI_Comm alone;
    OK(MPI_Cart_sub(cart, none, &alone));
    OK(MPI_Comm_size(alone, &rsize));
    OK(MPI_Cartdim_get(alone, &nd));
    CHECK(rsize == 1 && nd == 0);
    OK(MPI_Comm_free(&alone));

    /* dup keeps the grid, split does not */
    MPI_Comm dup, split;
    OK(MPI_Comm_dup(cart, &dup));
    OK(MPI_Topo_test(dup, &status));
    CHECK(status == MPI_CART);
    OK(MPI_Cart_get(dup, 2, gd, gp, gc));
    CHECK(gd[0] == dims[0] && gp[0] == 1);
    OK(MPI_Comm_split(cart, 0, rank, &split));
    OK(MPI_Topo_test(split, &status));
    CHECK(status == MPI_UNDEFINED);
    CHECK(class_of(MPI_Cartdim_get(split, &nd)) == MPI_ERR_TOPOLOGY);
    OK(MPI_Comm_free(&split));
    OK(MPI_Comm_free(&dup));
    OK(MPI_Comm_free(&cart));

    /* a grid over fewer ranks than the world: the rest are left out */
    int one[1] = {np > 1 ? np - 1 : 1}, per[1] = {1};
    MPI_Comm part;
    OK(MPI_Cart_create(MPI_COMM_WORLD, 1, one, per, 1, &part));
    if (me < one[0]) {
        CHECK(part != MPI_COMM_NULL);
        if (part != MPI_COMM_NULL) {
            ring_exchange(part, 1);
            OK(MPI_Comm_free(&part));
        }
    } else {
        CHECK(part == MPI_COMM_NULL);
    }
    int map = -2;
    OK(MPI_Cart_map(MPI_COMM_WORLD, 1, one, per, &map));
    CHECK(map == (me < one[0] ? me : MPI_UNDEFINED));
    /* too large a grid, and a dimension of none */
    int big[1] = {np + 1}, zero[1] = {0};
    MPI_Comm never = MPI_COMM_NULL;
    CHECK(class_of(MPI_Cart_create(MPI_COMM_WORLD, 1, big, per, 0, &never)) ==
          MPI_ERR_TOPOLOGY);
    CHECK(class_of(MPI_Cart_create(MPI_COMM_WORLD, 1, zero, per, 0, &never)) == MPI_ERR_DIMS);
    CHECK(never == MPI_COMM_NULL);
}

/* A communicator made from another takes its error handler. */
static void errhandler_inherited(void)
{
    MPI_Comm split;
    OK(MPI_Comm_split(MPI_COMM_WORLD, 0, me, &split));
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    OK(MPI_Comm_get_errhandler(split, &eh));
    CHECK(eh == MPI_ERRORS_RETURN);
    if (eh != MPI_ERRHANDLER_NULL)
        OK(MPI_Errhandler_free(&eh));
    int x = 0;   /* returns, not fatal: a rank outside the communicator */
    CHECK(class_of(MPI_Send(&x, 1, MPI_INT, np, 0, split)) == MPI_ERR_RANK);
    OK(MPI_Comm_free(&split));
}

static void info_and_x(void)
{
    MPI_Info info;
    OK(MPI_Info_create(&info));
    OK(MPI_Info_set(info, "ordo_test_key", "value"));
    char v[16];
    int flag = 0, len = -1;
    OK(MPI_Info_get_valuelen(info, "ordo_test_key", &len, &flag));
    CHECK(flag && len == 5);
    OK(MPI_Info_get(info, "ordo_test_key", 3, v, &flag));
    CHECK(flag && strcmp(v, "val") == 0);   /* at most valuelen characters */
    OK(MPI_Info_get(info, "ordo_test_key", 15, v, &flag));
    CHECK(flag && strcmp(v, "value") == 0);
    OK(MPI_Info_get(info, "absent", 15, v, &flag));
    CHECK(!flag);
    OK(MPI_Info_free(&info));

    MPI_Count size = 0, lb = -1, extent = 0;
    OK(MPI_Type_size_x(MPI_DOUBLE, &size));
    CHECK(size == 8);
    OK(MPI_Type_get_extent_x(MPI_INT, &lb, &extent));
    CHECK(lb == 0 && extent == 4);
    OK(MPI_Type_get_true_extent_x(MPI_INT, &lb, &extent));
    CHECK(lb == 0 && extent == 4);
    MPI_Status st;
    OK(MPI_Status_set_elements_x(&st, MPI_INT, 3));
    MPI_Count n = 0;
    OK(MPI_Get_elements_x(&st, MPI_INT, &n));
    CHECK(n == 3);
}

int main(int argc, char **argv)
{
    mpi_test_init(&argc, &argv);
    dims_create();
    cartesian();
    errhandler_inherited();
    info_and_x();
    return mpi_test_report("mpi_topo");
}
