/* Graph and distributed graph topologies: Graph_create over all or fewer
 * ranks (the rest get MPI_COMM_NULL) and its queries (Topo_test,
 * Graphdims_get, Graph_get, Graph_neighbors_count, Graph_neighbors with a
 * short array), Graph_map, the errors of a malformed graph; a ring as a
 * distributed graph made adjacent (weighted) and made from edges some
 * other process names (Dist_graph_create), its neighbours, a message
 * along each edge, Comm_dup keeping it, a Cartesian query refusing it. */
#include "mpi_harness.h"

/* GCC 12 takes the standard ABI's MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY,
 * fixed small addresses, for arrays of no size that the call would read. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wstringop-overread"
#endif

/* a ring of n nodes, each linked to both sides (index / edges as the
 * standard's example builds them) */
static void ring(int n, int *index, int *edges)
{
    int e = 0;
    for (int i = 0; i < n; i++) {
        edges[e++] = (i + n - 1) % n;
        edges[e++] = (i + 1) % n;
        index[i] = e;
    }
}

static void graph(void)
{
    int size, rank;
    OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    OK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    int index[8], edges[16];
    ring(size, index, edges);
    MPI_Comm g;
    OK(MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 1, &g));
    CHECK(g != MPI_COMM_NULL);
    int status = -1;
    OK(MPI_Topo_test(g, &status));
    CHECK(status == MPI_GRAPH);
    int nn = -1, ne = -1;
    OK(MPI_Graphdims_get(g, &nn, &ne));
    CHECK(nn == size && ne == 2 * size);
    int gi[8], ge[16];
    OK(MPI_Graph_get(g, size, 2 * size, gi, ge));
    CHECK(memcmp(gi, index, sizeof(int) * (size_t)size) == 0);
    CHECK(memcmp(ge, edges, sizeof(int) * 2 * (size_t)size) == 0);
    int count = -1, nb[2] = {-1, -1};
    OK(MPI_Graph_neighbors_count(g, rank, &count));
    CHECK(count == 2);
    OK(MPI_Graph_neighbors(g, rank, 1, nb));   /* room for one: one written */
    CHECK(nb[0] == (rank + size - 1) % size && nb[1] == -1);
    CHECK(class_of(MPI_Graph_neighbors_count(g, size, &count)) == MPI_ERR_RANK);
    int dims = 0;
    CHECK(class_of(MPI_Cartdim_get(g, &dims)) == MPI_ERR_TOPOLOGY);
    CHECK(class_of(MPI_Graphdims_get(MPI_COMM_WORLD, &nn, &ne)) == MPI_ERR_TOPOLOGY);

    /* a message to each neighbour, one from each */
    int got[2] = {-1, -1};
    MPI_Request req[4];
    OK(MPI_Graph_neighbors(g, rank, 2, nb));
    for (int i = 0; i < 2; i++) {
        OK(MPI_Irecv(&got[i], 1, MPI_INT, nb[i], 7, g, &req[i]));
        OK(MPI_Isend(&rank, 1, MPI_INT, nb[i], 7, g, &req[2 + i]));
    }
    OK(MPI_Waitall(4, req, MPI_STATUSES_IGNORE));
    CHECK((got[0] == nb[0] && got[1] == nb[1]) || (got[0] == nb[1] && got[1] == nb[0]));

    MPI_Comm d;
    OK(MPI_Comm_dup(g, &d));
    OK(MPI_Topo_test(d, &status));
    CHECK(status == MPI_GRAPH);
    OK(MPI_Comm_free(&d));
    OK(MPI_Comm_free(&g));

    /* one node fewer: the last rank is left out */
    int n1 = size > 1 ? size - 1 : 1;
    ring(n1, index, edges);
    OK(MPI_Graph_create(MPI_COMM_WORLD, n1, index, edges, 0, &g));
    CHECK((rank < n1) == (g != MPI_COMM_NULL));
    int newrank = -2;
    OK(MPI_Graph_map(MPI_COMM_WORLD, n1, index, edges, &newrank));
    CHECK(newrank == (rank < n1 ? rank : MPI_UNDEFINED));
    if (g != MPI_COMM_NULL)
        OK(MPI_Comm_free(&g));

    /* malformed: an edge to no node, a decreasing index, too many nodes */
    int bad_edges[2] = {0, size};
    int bad_index[1] = {2};
    CHECK(class_of(MPI_Graph_create(MPI_COMM_WORLD, 1, bad_index, bad_edges, 0, &g)) ==
          MPI_ERR_TOPOLOGY);
    int down[2] = {2, 1};
    int e2[2] = {0, 0};
    if (size >= 2)
        CHECK(class_of(MPI_Graph_create(MPI_COMM_WORLD, 2, down, e2, 0, &g)) ==
              MPI_ERR_TOPOLOGY);
    int many[9];
    for (int i = 0; i < 9; i++)
        many[i] = 0;
    CHECK(class_of(MPI_Graph_create(MPI_COMM_WORLD, size + 1, many, e2, 0, &g)) ==
          MPI_ERR_TOPOLOGY);
}

/* the ring of ranks as a distributed graph: each hears from its left and
 * sends to its right, weight = the sender's rank + 1 */
static void check_ring(MPI_Comm d, int weighted)
{
    int size, rank;
    OK(MPI_Comm_size(d, &size));
    OK(MPI_Comm_rank(d, &rank));
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    int status = -1;
    OK(MPI_Topo_test(d, &status));
    CHECK(status == MPI_DIST_GRAPH);
    int in = -1, out = -1, w = -1;
    OK(MPI_Dist_graph_neighbors_count(d, &in, &out, &w));
    CHECK(in == 1 && out == 1 && w == weighted);
    int src = -1, sw = -1, dst = -1, dw = -1;
    OK(MPI_Dist_graph_neighbors(d, 1, &src, &sw, 1, &dst, &dw));
    CHECK(src == left && dst == right);
    if (weighted)
        CHECK(sw == left + 1 && dw == rank + 1);
    int got = -1;
    OK(MPI_Sendrecv(&rank, 1, MPI_INT, dst, 3, &got, 1, MPI_INT, src, 3, d,
                    MPI_STATUS_IGNORE));
    CHECK(got == left);
}

static void dist_graph(void)
{
    int size, rank;
    OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    OK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    MPI_Comm d;
    int sw = left + 1, dw = rank + 1;
    OK(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &left, &sw, 1, &right, &dw,
                                      MPI_INFO_NULL, 0, &d));
    check_ring(d, 1);
    MPI_Comm dd;
    OK(MPI_Comm_dup(d, &dd));
    check_ring(dd, 1);
    OK(MPI_Comm_free(&dd));
    OK(MPI_Comm_free(&d));
    OK(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &left, MPI_UNWEIGHTED, 1, &right,
                                      MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &d));
    check_ring(d, 0);
    OK(MPI_Comm_free(&d));

    /* the same ring, each edge named by a process that is neither of its
     * ends where there is one (rank r names the edge left(r) -> r), or by
     * rank 0 alone for all of them */
    int s = (left + size - 1) % size;   /* the edge into left comes from s */
    int deg = 1, wt = s + 1;
    OK(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &s, &deg, &left, &wt, MPI_INFO_NULL, 0, &d));
    check_ring(d, 1);
    OK(MPI_Comm_free(&d));
    int srcs[8], degs[8], dsts[8], wts[8];
    for (int i = 0; i < size; i++) {
        srcs[i] = i;
        degs[i] = 1;
        dsts[i] = (i + 1) % size;
        wts[i] = i + 1;
    }
    int n = rank == 0 ? size : 0;
    OK(MPI_Dist_graph_create(MPI_COMM_WORLD, n, srcs, degs, dsts,
                             n ? wts : MPI_WEIGHTS_EMPTY, MPI_INFO_NULL, 0, &d));
    check_ring(d, 1);
    OK(MPI_Comm_free(&d));

    int bad = size;
    CHECK(class_of(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &bad, MPI_UNWEIGHTED, 0,
                                                  NULL, MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                                  &d)) == MPI_ERR_RANK);
    CHECK(class_of(MPI_Dist_graph_neighbors_count(MPI_COMM_WORLD, &deg, &deg, &deg)) ==
          MPI_ERR_TOPOLOGY);
}

int main(int argc, char **argv)
{
    mpi_test_init(&argc, &argv);
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size <= 8) {   /* the fixed arrays above */
        graph();
        dist_graph();
    }
    return mpi_test_report("mpi_graph");
}
