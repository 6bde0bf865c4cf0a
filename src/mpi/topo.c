/* MPI on ordo: Cartesian process topologies.  A Cartesian communicator is
 * an ordinary one (made by splitting the old one: the first prod(dims)
 * ranks, in their order, since ranks on one machine or two gain nothing
 * from reordering) carrying its grid; every query is arithmetic on the
 * grid in row-major order, as the standard numbers it. */
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"

static inline int *cart_dims(om_cart_t *t) { return t->dims_periods; }
static inline int *cart_periods(om_cart_t *t) { return t->dims_periods + t->ndims; }

static om_cart_t *cart_new(int ndims, const int *dims, const int *periods)
{
    om_cart_t *t = malloc(sizeof(*t) + sizeof(int) * 2 * (size_t)(ndims ? ndims : 1));
    if (!t)
        return NULL;
    t->ndims = ndims;
    for (int i = 0; i < ndims; i++) {
        cart_dims(t)[i] = dims[i];
        cart_periods(t)[i] = periods[i] != 0;
    }
    return t;
}

int om_cart_copy(const struct MPI_ABI_Comm *src, struct MPI_ABI_Comm *dst)
{
    if (!src->cart)
        return MPI_SUCCESS;
    om_cart_t *t = src->cart;
    dst->cart = cart_new(t->ndims, cart_dims(t), cart_periods(t));
    return dst->cart ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

/* The product of n dimensions, or -1 past INT_MAX or for one below 1. */
static long long grid_size(int n, const int *dims)
{
    long long p = 1;
    for (int i = 0; i < n; i++) {
        if (dims[i] < 1)
            return -1;
        p *= dims[i];
        if (p > 0x7fffffff)
            return -1;
    }
    return p;
}

/* The coordinates of rank in t, row-major. */
static void coords_of(om_cart_t *t, int rank, int *coords)
{
    for (int i = t->ndims - 1; i >= 0; i--) {
        coords[i] = rank % cart_dims(t)[i];
        rank /= cart_dims(t)[i];
    }
}

#define CART_ARG(t, comm, func)                                                   \
    OM_COMM_ARG(c_, comm, func);                                                  \
    om_cart_t *t = c_->cart;                                                      \
    if (!t)                                                                       \
        return om_comm_error(comm, MPI_ERR_TOPOLOGY, func,                        \
                             "the communicator has no Cartesian topology")

int PMPI_Topo_test(MPI_Comm comm, int *status)
{
    OM_COMM_ARG(c, comm, "MPI_Topo_test");
    if (!status)
        return om_comm_error(comm, MPI_ERR_ARG, "MPI_Topo_test", "status is NULL");
    *status = c->cart ? MPI_CART : om_graph_kind(c);
    return MPI_SUCCESS;
}
OM_ALIAS(Topo_test)

/* Balanced: the primes of what the fixed entries leave, largest first,
 * each to the free dimension with the smallest product so far; the free
 * ones then in non-increasing order. */
int PMPI_Dims_create(int nnodes, int ndims, int dims[])
{
    const char *func = "MPI_Dims_create";
    if (!om_ready(func))
        return MPI_ERR_OTHER;
    if (nnodes < 1 || ndims < 0 || (ndims > 0 && !dims))
        return om_comm_error(MPI_COMM_WORLD, MPI_ERR_ARG, func,
                             "nnodes %d, ndims %d (nnodes > 0, ndims >= 0, dims given)",
                             nnodes, ndims);
    long long fixed = 1;
    int nfree = 0;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] < 0)
            return om_comm_error(MPI_COMM_WORLD, MPI_ERR_DIMS, func,
                                 "dims[%d] = %d is negative", i, dims[i]);
        if (dims[i] > 0)
            fixed *= dims[i];
        else
            nfree++;
        if (fixed > nnodes)
            break;
    }
    if (fixed > nnodes || nnodes % fixed != 0)
        return om_comm_error(MPI_COMM_WORLD, MPI_ERR_DIMS, func,
                             "the dimensions given do not divide %d nodes", nnodes);
    int left = (int)(nnodes / fixed);
    if (nfree == 0)
        return left == 1 ? MPI_SUCCESS
                         : om_comm_error(MPI_COMM_WORLD, MPI_ERR_DIMS, func,
                                         "the dimensions given make %lld, not %d", fixed,
                                         nnodes);
    int *free_dims = calloc((size_t)nfree, sizeof(int));
    if (!free_dims)
        return om_comm_error(MPI_COMM_WORLD, MPI_ERR_NO_MEM, func, "no memory");
    int primes[31], np = 0;   /* an int has at most 31 prime factors */
    for (int f = 2; (long long)f * f <= left; f++)
        while (left % f == 0) {
            primes[np++] = f;
            left /= f;
        }
    if (left > 1)
        primes[np++] = left;
    for (int i = 0; i < nfree; i++)
        free_dims[i] = 1;
    for (int k = np - 1; k >= 0; k--) {   /* largest prime first */
        int smallest = 0;
        for (int i = 1; i < nfree; i++)
            if (free_dims[i] < free_dims[smallest])
                smallest = i;
        free_dims[smallest] *= primes[k];
    }
    for (int i = 1; i < nfree; i++)       /* non-increasing */
        for (int j = i; j > 0 && free_dims[j] > free_dims[j - 1]; j--) {
            int x = free_dims[j];
            free_dims[j] = free_dims[j - 1];
            free_dims[j - 1] = x;
        }
    for (int i = 0, k = 0; i < ndims; i++)
        if (dims[i] == 0)
            dims[i] = free_dims[k++];
    free(free_dims);
    return MPI_SUCCESS;
}
OM_ALIAS(Dims_create)

int PMPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[],
                     int reorder, MPI_Comm *comm_cart)
{
    const char *func = "MPI_Cart_create";
    OM_COMM_ARG(c, comm_old, func);
    if (om_intra_only(c, comm_old, func))
        return MPI_ERR_COMM;
    (void)reorder;   /* kept in order: see the top of the file */
    if (!comm_cart || ndims < 0 || (ndims > 0 && (!dims || !periods)))
        return om_comm_error(comm_old, MPI_ERR_ARG, func,
                             "ndims %d, or dims, periods or comm_cart NULL", ndims);
    long long n = grid_size(ndims, dims);
    if (n < 0)
        return om_comm_error(comm_old, MPI_ERR_DIMS, func,
                             "a dimension below 1, or a grid past INT_MAX processes");
    if (n > c->group->size)
        return om_comm_error(comm_old, MPI_ERR_TOPOLOGY, func,
                             "a grid of %lld processes over a communicator of %d", n,
                             c->group->size);
    om_cart_t *t = cart_new(ndims, dims, periods);
    if (!t)
        return om_comm_error(comm_old, MPI_ERR_NO_MEM, func, "no memory");
    int in = c->group->rank < n;
    int rc = PMPI_Comm_split(comm_old, in ? 0 : MPI_UNDEFINED, c->group->rank, comm_cart);
    if (rc != MPI_SUCCESS || *comm_cart == MPI_COMM_NULL) {
        free(t);
        return rc;
    }
    (*comm_cart)->cart = t;
    return MPI_SUCCESS;
}
OM_ALIAS(Cart_create)

int PMPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[],
                  int *newrank)
{
    const char *func = "MPI_Cart_map";
    OM_COMM_ARG(c, comm, func);
    if (om_intra_only(c, comm, func))
        return MPI_ERR_COMM;
    (void)periods;
    if (!newrank || ndims < 0 || (ndims > 0 && !dims))
        return om_comm_error(comm, MPI_ERR_ARG, func, "ndims %d, or dims or newrank NULL",
                             ndims);
    long long n = grid_size(ndims, dims);
    if (n < 0 || n > c->group->size)
        return om_comm_error(comm, MPI_ERR_DIMS, func,
                             "the grid does not fit the communicator's %d processes",
                             c->group->size);
    *newrank = c->group->rank < n ? c->group->rank : MPI_UNDEFINED;
    return MPI_SUCCESS;
}
OM_ALIAS(Cart_map)

int PMPI_Cartdim_get(MPI_Comm comm, int *ndims)
{
    CART_ARG(t, comm, "MPI_Cartdim_get");
    if (!ndims)
        return om_comm_error(comm, MPI_ERR_ARG, "MPI_Cartdim_get", "ndims is NULL");
    *ndims = t->ndims;
    return MPI_SUCCESS;
}
OM_ALIAS(Cartdim_get)

int PMPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[])
{
    const char *func = "MPI_Cart_get";
    CART_ARG(t, comm, func);
    if (maxdims < t->ndims || (t->ndims > 0 && (!dims || !periods || !coords)))
        return om_comm_error(comm, MPI_ERR_ARG, func,
                             "maxdims %d below the %d dimensions, or an array NULL", maxdims,
                             t->ndims);
    for (int i = 0; i < t->ndims; i++) {
        dims[i] = cart_dims(t)[i];
        periods[i] = cart_periods(t)[i];
    }
    coords_of(t, c_->group->rank, coords);
    return MPI_SUCCESS;
}
OM_ALIAS(Cart_get)

int PMPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank)
{
    const char *func = "MPI_Cart_rank";
    CART_ARG(t, comm, func);
    if (!rank || (t->ndims > 0 && !coords))
        return om_comm_error(comm, MPI_ERR_ARG, func, "coords or rank is NULL");
    int r = 0;
    for (int i = 0; i < t->ndims; i++) {
        int d = cart_dims(t)[i], x = coords[i];
        if (x < 0 || x >= d) {
            if (!cart_periods(t)[i])
                return om_comm_error(comm, MPI_ERR_ARG, func,
                                     "coordinate %d in dimension %d outside 0..%d, which "
                                     "is not periodic", x, i, d - 1);
            x = ((x % d) + d) % d;
        }
        r = r * d + x;
    }
    *rank = r;
    return MPI_SUCCESS;
}
OM_ALIAS(Cart_rank)

int PMPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[])
{
    const char *func = "MPI_Cart_coords";
    CART_ARG(t, comm, func);
    if (rank < 0 || rank >= c_->group->size)
        return om_comm_error(comm, MPI_ERR_RANK, func, "rank %d outside 0..%d", rank,
                             c_->group->size - 1);
    if (maxdims < t->ndims || (t->ndims > 0 && !coords))
        return om_comm_error(comm, MPI_ERR_ARG, func,
                             "maxdims %d below the %d dimensions, or coords NULL", maxdims,
                             t->ndims);
    coords_of(t, rank, coords);
    return MPI_SUCCESS;
}
OM_ALIAS(Cart_coords)

/* The rank at coords moved by step along dim, MPI_PROC_NULL off a
 * non-periodic edge. */
static int neighbour(om_cart_t *t, const int *coords, int dim, long long step)
{
    int d = cart_dims(t)[dim];
    long long x = coords[dim] + step;
    if (x < 0 || x >= d) {
        if (!cart_periods(t)[dim])
            return MPI_PROC_NULL;
        x = ((x % d) + d) % d;
    }
    int r = 0;
    for (int i = 0; i < t->ndims; i++)
        r = r * cart_dims(t)[i] + (i == dim ? (int)x : coords[i]);
    return r;
}

int om_cart_neighbors(struct MPI_ABI_Comm *c, int *nbrs)
{
    om_cart_t *t = c->cart;
    int n = t->ndims;
    int coords[n ? n : 1];
    coords_of(t, c->group->rank, coords);
    for (int d = 0; d < n; d++) {
        nbrs[2 * d] = neighbour(t, coords, d, -1);
        nbrs[2 * d + 1] = neighbour(t, coords, d, 1);
    }
    return 2 * n;
}

int PMPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *rank_source,
                    int *rank_dest)
{
    const char *func = "MPI_Cart_shift";
    CART_ARG(t, comm, func);
    if (!rank_source || !rank_dest)
        return om_comm_error(comm, MPI_ERR_ARG, func, "rank_source or rank_dest is NULL");
    if (direction < 0 || direction >= t->ndims)
        return om_comm_error(comm, MPI_ERR_DIMS, func, "direction %d outside 0..%d",
                             direction, t->ndims - 1);
    int coords[t->ndims];   /* ndims >= 1 here: direction is one of them */
    coords_of(t, c_->group->rank, coords);
    *rank_dest = neighbour(t, coords, direction, disp);
    *rank_source = neighbour(t, coords, direction, -(long long)disp);
    return MPI_SUCCESS;
}
OM_ALIAS(Cart_shift)

/* The processes that agree on the dimensions dropped form a sub-grid of
 * the ones kept, numbered row-major over those. */
int PMPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
    const char *func = "MPI_Cart_sub";
    CART_ARG(t, comm, func);
    if (!newcomm || (t->ndims > 0 && !remain_dims))
        return om_comm_error(comm, MPI_ERR_ARG, func, "remain_dims or newcomm is NULL");
    int n = t->ndims, kept = 0;
    int coords[n ? n : 1], dims[n ? n : 1], periods[n ? n : 1];
    coords_of(t, c_->group->rank, coords);
    int color = 0, key = 0;
    for (int i = 0; i < n; i++) {
        if (remain_dims[i]) {
            key = key * cart_dims(t)[i] + coords[i];
            dims[kept] = cart_dims(t)[i];
            periods[kept++] = cart_periods(t)[i];
        } else {
            color = color * cart_dims(t)[i] + coords[i];
        }
    }
    om_cart_t *sub = cart_new(kept, dims, periods);
    if (!sub)
        return om_comm_error(comm, MPI_ERR_NO_MEM, func, "no memory");
    int rc = PMPI_Comm_split(comm, color, key, newcomm);
    if (rc != MPI_SUCCESS || *newcomm == MPI_COMM_NULL) {
        free(sub);
        return rc;
    }
    (*newcomm)->cart = sub;
    return MPI_SUCCESS;
}
OM_ALIAS(Cart_sub)
