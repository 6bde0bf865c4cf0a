/* MPI on ordo: MPI_Type_create_subarray, a block of an n-dimensional
 * array (what halo exchanges send).  Made from the other constructors:
 * the fastest dimension's run as a contiguous type, each slower one as
 * an hvector of the faster, the block moved to its start and the whole
 * given the full array's extent; the result decodes as a subarray. */
#include <stdlib.h>

#include "mpi_internal.h"

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
        if (k == 0)
            rc = PMPI_Type_contiguous_c(subsizes[d], oldtype, &next);
        else
            rc = PMPI_Type_create_hvector_c(subsizes[d], 1, stride, t, &next);
        if (t != MPI_DATATYPE_NULL)
            PMPI_Type_free(&t);
        t = next;
        disp += (MPI_Aint)starts[d] * stride;
        stride *= (MPI_Aint)sizes[d];
    }
    MPI_Datatype placed = MPI_DATATYPE_NULL;
    if (rc == MPI_SUCCESS) {
        int one = 1;
        rc = PMPI_Type_create_struct(1, &one, &disp, &t, &placed);
    }
    if (t != MPI_DATATYPE_NULL)
        PMPI_Type_free(&t);
    if (rc == MPI_SUCCESS) {
        rc = PMPI_Type_create_resized(placed, 0, stride, newtype);
        PMPI_Type_free(&placed);
    }
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
    om_envelope_hold(e);
    om_envelope_free((*newtype)->env);
    (*newtype)->env = e;
    (*newtype)->combiner = MPI_COMBINER_SUBARRAY;
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
