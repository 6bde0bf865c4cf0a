/* MPI on ordo: MPI_Type_create_subarray, a block of an n-dimensional
 * array (what halo exchanges send), and MPI_Type_create_darray, a
 * process's part of an array distributed over a process grid (HPF's block
 * and cyclic distributions).  Made from the other constructors: the
 * fastest dimension's run as a contiguous type, each slower one as an
 * hvector of the faster, the part moved to its start and the whole given
 * the full array's extent; the result decodes as what the program made. */
#include <stdlib.h>

#include "mpi_internal.h"

/* t moved to disp, in a type of extent bytes from 0 (the whole array). */
static int place(MPI_Datatype t, MPI_Aint disp, MPI_Aint extent, MPI_Datatype *newtype)
{
    MPI_Datatype placed = MPI_DATATYPE_NULL;
    int one = 1;
    int rc = PMPI_Type_create_struct(1, &one, &disp, &t, &placed);
    if (rc == MPI_SUCCESS) {
        rc = PMPI_Type_create_resized(placed, 0, extent, newtype);
        PMPI_Type_free(&placed);
    }
    return rc;
}

/* n elements of one dimension: of `inner` one after another at the
 * fastest dimension, `stride` bytes apart at the others. */
static int run(int first, int64_t n, MPI_Aint stride, MPI_Datatype inner, MPI_Datatype *out)
{
    return first ? PMPI_Type_contiguous_c(n, inner, out)
                 : PMPI_Type_create_hvector_c(n, 1, stride, inner, out);
}

static int subarray(int ndims, const int64_t *sizes, const int64_t *subsizes,
                    const int64_t *starts, int order, MPI_Datatype oldtype,
                    MPI_Datatype *newtype, const char *func)
{
    struct MPI_ABI_Datatype *o = om_type(oldtype);
    if (!o)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_TYPE, func, "not a datatype");
    if (!newtype || ndims <= 0 || (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN))
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, func, "ndims %d, order %d", ndims,
                             order);
    for (int d = 0; d < ndims; d++)
        if (sizes[d] <= 0 || subsizes[d] <= 0 || subsizes[d] > sizes[d] || starts[d] < 0 ||
            starts[d] > sizes[d] - subsizes[d])
            return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, func,
                                 "dimension %d: size %lld, subsize %lld, start %lld", d,
                                 (long long)sizes[d], (long long)subsizes[d],
                                 (long long)starts[d]);
    /* walk from the fastest dimension to the slowest */
    MPI_Aint stride = o->extent, disp = 0;
    MPI_Datatype t = MPI_DATATYPE_NULL;
    int rc = MPI_SUCCESS;
    for (int k = 0; k < ndims && rc == MPI_SUCCESS; k++) {
        int d = order == MPI_ORDER_C ? ndims - 1 - k : k;
        MPI_Datatype next;
        rc = run(k == 0, subsizes[d], stride, k == 0 ? oldtype : t, &next);
        if (t != MPI_DATATYPE_NULL)
            PMPI_Type_free(&t);
        t = next;
        disp += (MPI_Aint)starts[d] * stride;
        stride *= (MPI_Aint)sizes[d];
    }
    if (rc == MPI_SUCCESS)
        rc = place(t, disp, stride, newtype);
    if (t != MPI_DATATYPE_NULL)
        PMPI_Type_free(&t);
    if (rc != MPI_SUCCESS)
        return rc;
    /* it decodes as what the program made */
    om_envelope_t *e = om_envelope_new(3 * ndims + 2, 0, 1);
    if (!e) {
        PMPI_Type_free(newtype);
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_NO_MEM, func, "no memory");
    }
    e->ints[0] = ndims;
    for (int d = 0; d < ndims; d++) {
        e->ints[1 + d] = sizes[d];
        e->ints[1 + ndims + d] = subsizes[d];
        e->ints[1 + 2 * ndims + d] = starts[d];
    }
    e->ints[1 + 3 * ndims] = order;
    e->types[0] = oldtype;
    om_type_reenvelope(*newtype, e, MPI_COMBINER_SUBARRAY);
    return MPI_SUCCESS;
}

static int64_t *wide(const void *a, int n, int large)
{
    int64_t *out = malloc(sizeof(int64_t) * (size_t)(n > 0 ? n : 1));
    for (int i = 0; out && i < n; i++)
        out[i] = large ? ((const int64_t *)a)[i] : ((const int *)a)[i];
    return out;
}

static int subarray_any(int ndims, const void *sizes, const void *subsizes, const void *starts,
                        int order, MPI_Datatype oldtype, MPI_Datatype *newtype, int large,
                        const char *func)
{
    if (ndims <= 0 || !sizes || !subsizes || !starts)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, func, "ndims %d or a NULL array",
                             ndims);
    int64_t *a = wide(sizes, ndims, large), *b = wide(subsizes, ndims, large),
            *c = wide(starts, ndims, large);
    int rc = a && b && c ? subarray(ndims, a, b, c, order, oldtype, newtype, func)
                         : om_comm_error(MPI_COMM_SELF, MPI_ERR_NO_MEM, func, "no memory");
    free(a);
    free(b);
    free(c);
    return rc;
}

int PMPI_Type_create_subarray(int ndims, const int array_of_sizes[],
                              const int array_of_subsizes[], const int array_of_starts[],
                              int order, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return subarray_any(ndims, array_of_sizes, array_of_subsizes, array_of_starts, order,
                        oldtype, newtype, 0, "MPI_Type_create_subarray");
}
OM_ALIAS(Type_create_subarray)

int PMPI_Type_create_subarray_c(int ndims, const MPI_Count array_of_sizes[],
                                const MPI_Count array_of_subsizes[],
                                const MPI_Count array_of_starts[], int order,
                                MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return subarray_any(ndims, array_of_sizes, array_of_subsizes, array_of_starts, order,
                        oldtype, newtype, 1, "MPI_Type_create_subarray_c");
}
OM_ALIAS(Type_create_subarray_c)

/* ------------------------------------------------------------------ darray */

/* This process's part of one dimension of g elements over p processes (it
 * is the c-th): its type, made of `inner`, and where it starts (bytes). */
static int darray_dim(int first, int64_t g, int dist, int darg, int p, int c, MPI_Aint stride,
                      MPI_Datatype inner, MPI_Datatype *out, MPI_Aint *start,
                      const char *func)
{
    if (dist != MPI_DISTRIBUTE_CYCLIC) {   /* block (none: one block of all) */
        int64_t b = darg == MPI_DISTRIBUTE_DFLT_DARG ? (g + p - 1) / p : darg;
        if (b * p < g)
            return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, func,
                                 "blocks of %d over %d processes miss some of %lld elements",
                                 darg, p, (long long)g);
        int64_t mine = g - b * c;
        mine = mine < 0 ? 0 : mine > b ? b : mine;
        *start = mine ? (MPI_Aint)(b * c) * stride : 0;
        return run(first, mine, stride, inner, out);
    }
    int64_t b = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg, st = (int64_t)c * b, mine = 0;
    if (st < g) {   /* whole rounds of p blocks, then what is left of the last */
        int64_t span = g - st, round = (int64_t)p * b;
        mine = span / round * b + (span % round < b ? span % round : b);
    }
    *start = mine ? (MPI_Aint)st * stride : 0;
    int64_t count = mine / b, rest = mine % b;
    MPI_Aint round_bytes = (MPI_Aint)p * (MPI_Aint)b * stride;
    MPI_Datatype blk = MPI_DATATYPE_NULL, blocks = MPI_DATATYPE_NULL, tail = MPI_DATATYPE_NULL;
    int rc = run(first, b, stride, inner, &blk);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Type_create_hvector_c(count, 1, round_bytes, blk, &blocks);
    if (rc == MPI_SUCCESS && rest)
        rc = run(first, rest, stride, inner, &tail);
    if (rc == MPI_SUCCESS && rest) {
        int ones[2] = {1, 1};
        MPI_Aint disps[2] = {0, (MPI_Aint)count * round_bytes};
        MPI_Datatype parts[2] = {blocks, tail};
        rc = PMPI_Type_create_struct(2, ones, disps, parts, out);
    } else if (rc == MPI_SUCCESS) {
        rc = PMPI_Type_dup(blocks, out);
    }
    MPI_Datatype *made[] = {&blk, &blocks, &tail};
    for (int i = 0; i < 3; i++)
        if (*made[i] != MPI_DATATYPE_NULL)
            PMPI_Type_free(made[i]);
    return rc;
}

static int darray(int size, int rank, int ndims, const int64_t *gsizes, const int *distribs,
                  const int *dargs, const int *psizes, int order, MPI_Datatype oldtype,
                  MPI_Datatype *newtype, const char *func)
{
    struct MPI_ABI_Datatype *o = om_type(oldtype);
    if (!o)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_TYPE, func, "not a datatype");
    if (!newtype || size <= 0 || rank < 0 || rank >= size ||
        (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN))
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, func, "size %d, rank %d, order %d",
                             size, rank, order);
    int64_t procs = 1;
    for (int d = 0; d < ndims; d++) {
        int dist = distribs[d], darg = dargs[d];
        if (gsizes[d] <= 0 || psizes[d] <= 0 ||
            (dist != MPI_DISTRIBUTE_BLOCK && dist != MPI_DISTRIBUTE_CYCLIC &&
             dist != MPI_DISTRIBUTE_NONE) ||
            (dist == MPI_DISTRIBUTE_NONE && psizes[d] != 1) ||
            (darg != MPI_DISTRIBUTE_DFLT_DARG && (darg <= 0 || dist == MPI_DISTRIBUTE_NONE)))
            return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, func,
                                 "dimension %d: size %lld, distribution %d, argument %d, "
                                 "%d processes", d, (long long)gsizes[d], dist, darg,
                                 psizes[d]);
        procs *= psizes[d];
    }
    if (procs != size)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, func,
                             "a process grid of %lld for %d processes", (long long)procs, size);
    /* the process grid is row-major whatever the array's order */
    int *coord = malloc(sizeof(int) * (size_t)ndims);
    if (!coord)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_NO_MEM, func, "no memory");
    for (int d = 0, left = rank; d < ndims; d++) {
        procs /= psizes[d];
        coord[d] = (int)(left / procs);
        left = (int)(left % procs);
    }
    MPI_Aint stride = o->extent, disp = 0;
    MPI_Datatype t = oldtype;
    int rc = MPI_SUCCESS;
    for (int k = 0; k < ndims && rc == MPI_SUCCESS; k++) {
        int d = order == MPI_ORDER_C ? ndims - 1 - k : k;
        MPI_Datatype next = MPI_DATATYPE_NULL;
        MPI_Aint start = 0;
        rc = darray_dim(k == 0, gsizes[d], distribs[d], dargs[d], psizes[d], coord[d], stride,
                        t, &next, &start, func);
        if (k > 0)
            PMPI_Type_free(&t);
        t = next;
        disp += start;
        stride *= (MPI_Aint)gsizes[d];
    }
    free(coord);
    if (rc == MPI_SUCCESS)
        rc = place(t, disp, stride, newtype);
    if (ndims > 0 && t != MPI_DATATYPE_NULL)
        PMPI_Type_free(&t);
    if (rc != MPI_SUCCESS)
        return rc;
    om_envelope_t *e = om_envelope_new(4 * ndims + 4, 0, 1);
    if (!e) {
        PMPI_Type_free(newtype);
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_NO_MEM, func, "no memory");
    }
    e->ints[0] = size;
    e->ints[1] = rank;
    e->ints[2] = ndims;
    for (int d = 0; d < ndims; d++) {
        e->ints[3 + d] = gsizes[d];
        e->ints[3 + ndims + d] = distribs[d];
        e->ints[3 + 2 * ndims + d] = dargs[d];
        e->ints[3 + 3 * ndims + d] = psizes[d];
    }
    e->ints[3 + 4 * ndims] = order;
    e->types[0] = oldtype;
    om_type_reenvelope(*newtype, e, MPI_COMBINER_DARRAY);
    return MPI_SUCCESS;
}

static int darray_any(int size, int rank, int ndims, const void *gsizes, const int *distribs,
                      const int *dargs, const int *psizes, int order, MPI_Datatype oldtype,
                      MPI_Datatype *newtype, int large, const char *func)
{
    if (ndims <= 0 || !gsizes || !distribs || !dargs || !psizes)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, func, "ndims %d or a NULL array",
                             ndims);
    int64_t *g = wide(gsizes, ndims, large);
    int rc = g ? darray(size, rank, ndims, g, distribs, dargs, psizes, order, oldtype, newtype,
                        func)
               : om_comm_error(MPI_COMM_SELF, MPI_ERR_NO_MEM, func, "no memory");
    free(g);
    return rc;
}

int PMPI_Type_create_darray(int size, int rank, int ndims, const int array_of_gsizes[],
                            const int array_of_distribs[], const int array_of_dargs[],
                            const int array_of_psizes[], int order, MPI_Datatype oldtype,
                            MPI_Datatype *newtype)
{
    return darray_any(size, rank, ndims, array_of_gsizes, array_of_distribs, array_of_dargs,
                      array_of_psizes, order, oldtype, newtype, 0, "MPI_Type_create_darray");
}
OM_ALIAS(Type_create_darray)

int PMPI_Type_create_darray_c(int size, int rank, int ndims, const MPI_Count array_of_gsizes[],
                              const int array_of_distribs[], const int array_of_dargs[],
                              const int array_of_psizes[], int order, MPI_Datatype oldtype,
                              MPI_Datatype *newtype)
{
    return darray_any(size, rank, ndims, array_of_gsizes, array_of_distribs, array_of_dargs,
                      array_of_psizes, order, oldtype, newtype, 1, "MPI_Type_create_darray_c");
}
OM_ALIAS(Type_create_darray_c)
