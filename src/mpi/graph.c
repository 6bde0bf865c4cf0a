/* MPI on ordo: graph and distributed graph topologies.  As for Cartesian
 * ones (topo.c), the communicator is an ordinary one carrying the graph:
 * MPI_Graph_create keeps the first nnodes ranks in their order and every
 * process holds the whole graph; a distributed graph keeps every process,
 * each holding only its own in- and out-edges.  Nothing is reordered:
 * ranks on one machine or two gain nothing from it. */
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"

/* data[]: GRAPH: index[nnodes] then edges[nedges]; DIST_GRAPH: sources,
 * source weights, destinations, destination weights. */
struct om_graph {
    int kind;                      /* MPI_GRAPH or MPI_DIST_GRAPH */
    int nnodes, nedges;            /* GRAPH */
    int indegree, outdegree, weighted;   /* DIST_GRAPH */
    int data[];
};

static om_graph_t *graph_new(int kind, size_t nints)
{
    om_graph_t *g = calloc(1, sizeof(*g) + sizeof(int) * (nints ? nints : 1));
    if (g)
        g->kind = kind;
    return g;
}

static size_t graph_ints(const om_graph_t *g)
{
    return g->kind == MPI_GRAPH ? (size_t)g->nnodes + (size_t)g->nedges
                                : 2 * ((size_t)g->indegree + (size_t)g->outdegree);
}

int om_graph_copy(const struct MPI_ABI_Comm *src, struct MPI_ABI_Comm *dst)
{
    if (!src->graph)
        return MPI_SUCCESS;
    size_t n = graph_ints(src->graph);
    dst->graph = graph_new(src->graph->kind, n);
    if (!dst->graph)
        return MPI_ERR_NO_MEM;
    memcpy(dst->graph, src->graph, sizeof(*src->graph) + sizeof(int) * n);
    return MPI_SUCCESS;
}

int om_graph_kind(const struct MPI_ABI_Comm *c)
{
    return c->graph ? c->graph->kind : MPI_UNDEFINED;
}

#define GRAPH_ARG(g, comm, kind_, func)                                           \
    OM_COMM_ARG(c_, comm, func);                                                  \
    om_graph_t *g = c_->graph;                                                    \
    if (!g || g->kind != (kind_))                                                 \
        return om_comm_error(comm, MPI_ERR_TOPOLOGY, func, "the communicator has no %s",   \
                             (kind_) == MPI_GRAPH ? "graph topology"              \
                                                  : "distributed graph topology")

/* ---------------------------------------------------------------- graph */

/* index[] must not decrease and end at nedges; edges name nodes. */
static const char *graph_invalid(int nnodes, const int *index, const int *edges)
{
    int prev = 0;
    for (int i = 0; i < nnodes; i++) {
        if (index[i] < prev)
            return "index[] decreases (or starts below 0)";
        prev = index[i];
    }
    for (int e = 0; e < prev; e++)
        if (edges[e] < 0 || edges[e] >= nnodes)
            return "an edge names a node outside 0 .. nnodes-1";
    return NULL;
}

int PMPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[],
                      int reorder, MPI_Comm *comm_graph)
{
    const char *func = "MPI_Graph_create";
    OM_COMM_ARG(c, comm_old, func);
    if (om_intra_only(c, comm_old, func))
        return MPI_ERR_COMM;
    (void)reorder;   /* kept in order: see the top of the file */
    if (!comm_graph || nnodes < 0 || (nnodes > 0 && (!index || (index[nnodes - 1] > 0 &&
                                                                 !edges))))
        return om_comm_error(comm_old, MPI_ERR_ARG, func,
                             "nnodes %d, or index, edges or comm_graph NULL", nnodes);
    if (nnodes > c->group->size)
        return om_comm_error(comm_old, MPI_ERR_TOPOLOGY, func,
                             "a graph of %d nodes over a communicator of %d", nnodes,
                             c->group->size);
    const char *why = graph_invalid(nnodes, index, edges);
    if (why)
        return om_comm_error(comm_old, MPI_ERR_TOPOLOGY, func, "%s", why);
    int nedges = nnodes ? index[nnodes - 1] : 0;
    om_graph_t *g = graph_new(MPI_GRAPH, (size_t)nnodes + (size_t)nedges);
    if (!g)
        return om_comm_error(comm_old, MPI_ERR_NO_MEM, func, "no memory");
    g->nnodes = nnodes;
    g->nedges = nedges;
    memcpy(g->data, index, sizeof(int) * (size_t)nnodes);
    memcpy(g->data + nnodes, edges, sizeof(int) * (size_t)nedges);
    int in = c->group->rank < nnodes;
    int rc = PMPI_Comm_split(comm_old, in ? 0 : MPI_UNDEFINED, c->group->rank, comm_graph);
    if (rc != MPI_SUCCESS || *comm_graph == MPI_COMM_NULL) {
        free(g);
        return rc;
    }
    (*comm_graph)->graph = g;
    return MPI_SUCCESS;
}
OM_ALIAS(Graph_create)

int PMPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[],
                   int *newrank)
{
    const char *func = "MPI_Graph_map";
    OM_COMM_ARG(c, comm, func);
    if (om_intra_only(c, comm, func))
        return MPI_ERR_COMM;
    (void)index, (void)edges;
    if (!newrank || nnodes < 1)
        return om_comm_error(comm, MPI_ERR_ARG, func, "nnodes %d, or newrank NULL", nnodes);
    if (nnodes > c->group->size)
        return om_comm_error(comm, MPI_ERR_TOPOLOGY, func,
                             "a graph of %d nodes over a communicator of %d", nnodes,
                             c->group->size);
    *newrank = c->group->rank < nnodes ? c->group->rank : MPI_UNDEFINED;
    return MPI_SUCCESS;
}
OM_ALIAS(Graph_map)

int PMPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges)
{
    GRAPH_ARG(g, comm, MPI_GRAPH, "MPI_Graphdims_get");
    if (!nnodes || !nedges)
        return om_comm_error(comm, MPI_ERR_ARG, "MPI_Graphdims_get", "nnodes or nedges NULL");
    *nnodes = g->nnodes;
    *nedges = g->nedges;
    return MPI_SUCCESS;
}
OM_ALIAS(Graphdims_get)

int PMPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[])
{
    const char *func = "MPI_Graph_get";
    GRAPH_ARG(g, comm, MPI_GRAPH, func);
    if (maxindex < 0 || maxedges < 0 || (maxindex > 0 && !index) || (maxedges > 0 && !edges))
        return om_comm_error(comm, MPI_ERR_ARG, func, "maxindex %d, maxedges %d, or NULL",
                             maxindex, maxedges);
    int ni = maxindex < g->nnodes ? maxindex : g->nnodes;
    int ne = maxedges < g->nedges ? maxedges : g->nedges;
    if (ni)
        memcpy(index, g->data, sizeof(int) * (size_t)ni);
    if (ne)
        memcpy(edges, g->data + g->nnodes, sizeof(int) * (size_t)ne);
    return MPI_SUCCESS;
}
OM_ALIAS(Graph_get)

/* rank's neighbours in g: their first index in data and count. */
static int graph_node(om_graph_t *g, int rank, int *first)
{
    *first = rank ? g->data[rank - 1] : 0;
    return g->data[rank] - *first;
}

int PMPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors)
{
    const char *func = "MPI_Graph_neighbors_count";
    GRAPH_ARG(g, comm, MPI_GRAPH, func);
    if (rank < 0 || rank >= g->nnodes)
        return om_comm_error(comm, MPI_ERR_RANK, func, "rank %d outside the %d nodes", rank,
                             g->nnodes);
    if (!nneighbors)
        return om_comm_error(comm, MPI_ERR_ARG, func, "nneighbors is NULL");
    int first;
    *nneighbors = graph_node(g, rank, &first);
    return MPI_SUCCESS;
}
OM_ALIAS(Graph_neighbors_count)

int PMPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[])
{
    const char *func = "MPI_Graph_neighbors";
    GRAPH_ARG(g, comm, MPI_GRAPH, func);
    if (rank < 0 || rank >= g->nnodes)
        return om_comm_error(comm, MPI_ERR_RANK, func, "rank %d outside the %d nodes", rank,
                             g->nnodes);
    if (maxneighbors < 0 || (maxneighbors > 0 && !neighbors))
        return om_comm_error(comm, MPI_ERR_ARG, func, "maxneighbors %d, or neighbors NULL",
                             maxneighbors);
    int first, n = graph_node(g, rank, &first);
    if (n > maxneighbors)
        n = maxneighbors;
    if (n)
        memcpy(neighbors, g->data + g->nnodes + first, sizeof(int) * (size_t)n);
    return MPI_SUCCESS;
}
OM_ALIAS(Graph_neighbors)

/* ------------------------------------------------------ distributed graph */

static inline int *dist_sources(om_graph_t *g) { return g->data; }
static inline int *dist_sweights(om_graph_t *g) { return g->data + g->indegree; }
static inline int *dist_dests(om_graph_t *g) { return g->data + 2 * g->indegree; }
static inline int *dist_dweights(om_graph_t *g) { return g->data + 2 * g->indegree + g->outdegree; }

/* A weights argument: a real array, MPI_UNWEIGHTED or MPI_WEIGHTS_EMPTY. */
static int weights_given(const int *w)
{
    return w != MPI_UNWEIGHTED && w != MPI_WEIGHTS_EMPTY;
}

/* Every rank in 0 .. size-1; NULL, or what is wrong. */
static const char *ranks_invalid(int n, const int *ranks, int size)
{
    for (int i = 0; i < n; i++)
        if (ranks[i] < 0 || ranks[i] >= size)
            return "a neighbour outside the communicator's ranks";
    return NULL;
}

/* A copy of comm_old carrying g (freed on failure). */
static int dist_attach(MPI_Comm comm_old, om_graph_t *g, MPI_Comm *newcomm)
{
    int rc = PMPI_Comm_dup(comm_old, newcomm);
    if (rc != MPI_SUCCESS) {
        free(g);
        return rc;
    }
    free((*newcomm)->graph);   /* a dup copies the old one's: replaced */
    free((*newcomm)->cart);
    (*newcomm)->cart = NULL;
    (*newcomm)->graph = g;
    return MPI_SUCCESS;
}

int PMPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[],
                                    const int sourceweights[], int outdegree,
                                    const int destinations[], const int destweights[],
                                    MPI_Info info, int reorder, MPI_Comm *comm_dist_graph)
{
    const char *func = "MPI_Dist_graph_create_adjacent";
    OM_COMM_ARG(c, comm_old, func);
    if (om_intra_only(c, comm_old, func))
        return MPI_ERR_COMM;
    (void)info, (void)reorder;
    if (!comm_dist_graph || indegree < 0 || outdegree < 0 || (indegree > 0 && !sources) ||
        (outdegree > 0 && !destinations))
        return om_comm_error(comm_old, MPI_ERR_ARG, func,
                             "indegree %d, outdegree %d, or sources, destinations or "
                             "comm_dist_graph NULL", indegree, outdegree);
    int ws = weights_given(sourceweights), wd = weights_given(destweights);
    if ((indegree > 0 && !sourceweights) || (outdegree > 0 && !destweights) ||
        (sourceweights == MPI_UNWEIGHTED) != (destweights == MPI_UNWEIGHTED))
        return om_comm_error(comm_old, MPI_ERR_ARG, func,
                             "weights NULL, or MPI_UNWEIGHTED on one side only");
    const char *why = ranks_invalid(indegree, sources, c->group->size);
    if (!why)
        why = ranks_invalid(outdegree, destinations, c->group->size);
    if (why)
        return om_comm_error(comm_old, MPI_ERR_RANK, func, "%s", why);
    om_graph_t *g = graph_new(MPI_DIST_GRAPH, 2 * ((size_t)indegree + (size_t)outdegree));
    if (!g)
        return om_comm_error(comm_old, MPI_ERR_NO_MEM, func, "no memory");
    g->indegree = indegree;
    g->outdegree = outdegree;
    g->weighted = sourceweights != MPI_UNWEIGHTED;
    for (int i = 0; i < indegree; i++) {
        dist_sources(g)[i] = sources[i];
        dist_sweights(g)[i] = ws ? sourceweights[i] : 1;
    }
    for (int i = 0; i < outdegree; i++) {
        dist_dests(g)[i] = destinations[i];
        dist_dweights(g)[i] = wd ? destweights[i] : 1;
    }
    return dist_attach(comm_old, g, comm_dist_graph);
}
OM_ALIAS(Dist_graph_create_adjacent)

/* Each process names some edges (sources[i] -> degrees[i] destinations);
 * every edge goes to its source (an out-edge) and to its destination (an
 * in-edge) in one all-to-all of (peer, weight) pairs: to rank r first
 * its out-edges, then its in-edges, each kind in the order given. */
int PMPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                           const int destinations[], const int weights[], MPI_Info info,
                           int reorder, MPI_Comm *comm_dist_graph)
{
    const char *func = "MPI_Dist_graph_create";
    OM_COMM_ARG(c, comm_old, func);
    if (om_intra_only(c, comm_old, func))
        return MPI_ERR_COMM;
    (void)info, (void)reorder;
    int size = c->group->size;
    if (!comm_dist_graph || n < 0 || (n > 0 && (!sources || !degrees)) || !weights)
        return om_comm_error(comm_old, MPI_ERR_ARG, func,
                             "n %d, or sources, degrees, weights or comm_dist_graph NULL", n);
    long long total = 0;
    for (int i = 0; i < n; i++) {
        if (degrees[i] < 0)
            return om_comm_error(comm_old, MPI_ERR_ARG, func, "degrees[%d] is %d", i,
                                 degrees[i]);
        total += degrees[i];
    }
    if (total > 0x3fffffff)
        return om_comm_error(comm_old, MPI_ERR_ARG, func, "%lld edges: too many", total);
    if (total > 0 && !destinations)
        return om_comm_error(comm_old, MPI_ERR_ARG, func, "destinations is NULL");
    const char *why = ranks_invalid(n, sources, size);
    if (!why)
        why = ranks_invalid((int)total, destinations, size);
    if (why)
        return om_comm_error(comm_old, MPI_ERR_RANK, func, "%s", why);
    int wgiven = weights_given(weights);

    /* records of 3 ints (0 out / 1 in, the edge's other end, its weight),
     * to each peer its out-edges first, then its in-edges */
    int *counts = calloc(4 * (size_t)size, sizeof(int));
    int *sendbuf = malloc(sizeof(int) * 3 * 2 * (size_t)(total ? total : 1));
    int rc = MPI_ERR_NO_MEM;
    int *recvbuf = NULL;
    om_graph_t *g = NULL;
    if (!counts || !sendbuf)
        goto out;
    int *scount = counts, *sdispl = counts + size, *rcount = counts + 2 * (size_t)size,
        *rdispl = counts + 3 * (size_t)size;
    for (int pass = 0, e = 0; pass < 2; pass++, e = 0)
        for (int i = 0; i < n; i++)
            for (int k = 0; k < degrees[i]; k++, e++)
                scount[pass == 0 ? sources[i] : destinations[e]] += 3;
    for (int r = 0, at = 0; r < size; r++) {
        sdispl[r] = at;
        at += scount[r];
        scount[r] = 0;   /* filled again below as the cursor */
    }
    for (int pass = 0; pass < 2; pass++) {
        int e = 0;
        for (int i = 0; i < n; i++)
            for (int k = 0; k < degrees[i]; k++, e++) {
                int to = pass == 0 ? sources[i] : destinations[e];
                int *rec = sendbuf + sdispl[to] + scount[to];
                rec[0] = pass;                                        /* 0 out, 1 in */
                rec[1] = pass == 0 ? destinations[e] : sources[i];    /* the other end */
                rec[2] = wgiven ? weights[e] : 1;
                scount[to] += 3;
            }
    }
    rc = PMPI_Alltoall(scount, 1, MPI_INT, rcount, 1, MPI_INT, comm_old);
    if (rc != MPI_SUCCESS)
        goto out;
    long long got = 0;
    for (int r = 0; r < size; r++) {
        rdispl[r] = (int)got;
        got += rcount[r];
    }
    if (got > 0x7fffffff) {
        rc = om_comm_error(comm_old, MPI_ERR_ARG, func, "too many edges at one process");
        goto out;
    }
    recvbuf = malloc(sizeof(int) * (size_t)(got ? got : 1));
    if (!recvbuf) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    rc = PMPI_Alltoallv(sendbuf, scount, sdispl, MPI_INT, recvbuf, rcount, rdispl, MPI_INT,
                        comm_old);
    if (rc != MPI_SUCCESS)
        goto out;
    int indeg = 0, outdeg = 0;
    for (long long i = 0; i < got; i += 3) {
        if (recvbuf[i] == 0)
            outdeg++;
        else
            indeg++;
    }
    g = graph_new(MPI_DIST_GRAPH, 2 * ((size_t)indeg + (size_t)outdeg));
    if (!g) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    g->indegree = indeg;
    g->outdegree = outdeg;
    /* weighted when any process gave weights: all agree on MPI_UNWEIGHTED */
    g->weighted = weights != MPI_UNWEIGHTED;
    for (long long i = 0, ni = 0, no = 0; i < got; i += 3) {
        if (recvbuf[i] == 0) {
            dist_dests(g)[no] = recvbuf[i + 1];
            dist_dweights(g)[no++] = recvbuf[i + 2];
        } else {
            dist_sources(g)[ni] = recvbuf[i + 1];
            dist_sweights(g)[ni++] = recvbuf[i + 2];
        }
    }
    rc = dist_attach(comm_old, g, comm_dist_graph);
    g = NULL;
out:
    free(g);
    free(recvbuf);
    free(sendbuf);
    free(counts);
    if (rc == MPI_ERR_NO_MEM)
        return om_comm_error(comm_old, rc, func, "no memory");
    return rc;
}
OM_ALIAS(Dist_graph_create)

int PMPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree, int *outdegree,
                                    int *weighted)
{
    const char *func = "MPI_Dist_graph_neighbors_count";
    GRAPH_ARG(g, comm, MPI_DIST_GRAPH, func);
    if (!indegree || !outdegree || !weighted)
        return om_comm_error(comm, MPI_ERR_ARG, func, "an argument is NULL");
    *indegree = g->indegree;
    *outdegree = g->outdegree;
    *weighted = g->weighted;
    return MPI_SUCCESS;
}
OM_ALIAS(Dist_graph_neighbors_count)

int PMPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[],
                              int sourceweights[], int maxoutdegree, int destinations[],
                              int destweights[])
{
    const char *func = "MPI_Dist_graph_neighbors";
    GRAPH_ARG(g, comm, MPI_DIST_GRAPH, func);
    if (maxindegree < 0 || maxoutdegree < 0 || (maxindegree > 0 && !sources) ||
        (maxoutdegree > 0 && !destinations))
        return om_comm_error(comm, MPI_ERR_ARG, func,
                             "maxindegree %d, maxoutdegree %d, or sources or destinations "
                             "NULL", maxindegree, maxoutdegree);
    int ni = maxindegree < g->indegree ? maxindegree : g->indegree;
    int no = maxoutdegree < g->outdegree ? maxoutdegree : g->outdegree;
    int ws = g->weighted && weights_given(sourceweights) && sourceweights;
    int wd = g->weighted && weights_given(destweights) && destweights;
    for (int i = 0; i < ni; i++) {
        sources[i] = dist_sources(g)[i];
        if (ws)
            sourceweights[i] = dist_sweights(g)[i];
    }
    for (int i = 0; i < no; i++) {
        destinations[i] = dist_dests(g)[i];
        if (wd)
            destweights[i] = dist_dweights(g)[i];
    }
    return MPI_SUCCESS;
}
OM_ALIAS(Dist_graph_neighbors)

int om_graph_neighbors(struct MPI_ABI_Comm *c, int *nin, const int **in, int *nout,
                       const int **out)
{
    om_graph_t *g = c->graph;
    if (g->kind == MPI_GRAPH) {
        int first, n = graph_node(g, c->group->rank, &first);
        *nin = *nout = n;
        *in = *out = g->data + g->nnodes + first;
    } else {
        *nin = g->indegree;
        *in = dist_sources(g);
        *nout = g->outdegree;
        *out = dist_dests(g);
    }
    return MPI_SUCCESS;
}
