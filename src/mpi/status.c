/* MPI on ordo: what a status says and what a program may set in one
 * (MPI_Status_set_* / get_*, MPI_Test_cancelled).  The count lives in
 * MPI_internal[0..1] (bytes), cancelled in MPI_internal[2]. */
#include <stdint.h>

#include "mpi_internal.h"

int PMPI_Test_cancelled(const MPI_Status *status, int *flag)
{
    if (!status || !flag)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Test_cancelled",
                             "a NULL argument");
    *flag = status->MPI_internal[2] != 0;
    return MPI_SUCCESS;
}
OM_ALIAS(Test_cancelled)

int PMPI_Status_set_cancelled(MPI_Status *status, int flag)
{
    if (!status)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Status_set_cancelled",
                             "status is NULL");
    status->MPI_internal[2] = flag != 0;
    return MPI_SUCCESS;
}
OM_ALIAS(Status_set_cancelled)

int PMPI_Status_set_elements_c(MPI_Status *status, MPI_Datatype datatype, MPI_Count count)
{
    struct MPI_ABI_Datatype *t = om_type(datatype);
    if (!t)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_TYPE, "MPI_Status_set_elements",
                             "not a datatype");
    if (!status || count < 0)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Status_set_elements",
                             "a NULL status or a negative count");
    /* mixed types: whole elements (a part of one has no byte count here) */
    size_t bytes = t->basic_count ? (size_t)count * (t->size / t->basic_count)
                   : t->nelems   ? (size_t)count / t->nelems * t->size
                                 : 0;
    status->MPI_internal[0] = (int)(uint32_t)(uint64_t)bytes;
    status->MPI_internal[1] = (int)(uint32_t)((uint64_t)bytes >> 32);
    return MPI_SUCCESS;
}
OM_ALIAS(Status_set_elements_c)

int PMPI_Status_set_elements(MPI_Status *status, MPI_Datatype datatype, int count)
{
    return PMPI_Status_set_elements_c(status, datatype, count);
}
OM_ALIAS(Status_set_elements)

int PMPI_Status_set_source(MPI_Status *status, int source)
{
    if (!status)
        return MPI_ERR_ARG;
    status->MPI_SOURCE = source;
    return MPI_SUCCESS;
}
OM_ALIAS(Status_set_source)

int PMPI_Status_set_tag(MPI_Status *status, int tag)
{
    if (!status)
        return MPI_ERR_ARG;
    status->MPI_TAG = tag;
    return MPI_SUCCESS;
}
OM_ALIAS(Status_set_tag)

int PMPI_Status_set_error(MPI_Status *status, int error)
{
    if (!status)
        return MPI_ERR_ARG;
    status->MPI_ERROR = error;
    return MPI_SUCCESS;
}
OM_ALIAS(Status_set_error)

int PMPI_Status_get_source(const MPI_Status *status, int *source)
{
    if (!status || !source)
        return MPI_ERR_ARG;
    *source = status->MPI_SOURCE;
    return MPI_SUCCESS;
}
OM_ALIAS(Status_get_source)

int PMPI_Status_get_tag(const MPI_Status *status, int *tag)
{
    if (!status || !tag)
        return MPI_ERR_ARG;
    *tag = status->MPI_TAG;
    return MPI_SUCCESS;
}
OM_ALIAS(Status_get_tag)

int PMPI_Status_get_error(const MPI_Status *status, int *error)
{
    if (!status || !error)
        return MPI_ERR_ARG;
    *error = status->MPI_ERROR;
    return MPI_SUCCESS;
}
OM_ALIAS(Status_get_error)
