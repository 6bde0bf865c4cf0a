/* MPI on ordo: data through datatypes: packing along a type's blocks
 * (what every non-contiguous send, receive and collective does), MPI_Pack
 * and MPI_Unpack, and the counts a status gives in a type. */
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"

void om_pack(const struct MPI_ABI_Datatype *t, const void *buf, MPI_Count count, void *out)
{
    char *o = out;
    const char *b = buf;
    for (MPI_Count e = 0; e < count; e++, b += t->extent)
        for (int i = 0; i < t->nblocks; i++) {
            memcpy(o, b + t->blocks[i].disp, t->blocks[i].len);
            o += t->blocks[i].len;
        }
}

void om_unpack(const struct MPI_ABI_Datatype *t, const void *in, size_t len, void *buf,
               MPI_Count count)
{
    const char *p = in;
    char *b = buf;
    for (MPI_Count e = 0; e < count && len; e++, b += t->extent)
        for (int i = 0; i < t->nblocks && len; i++) {
            size_t n = t->blocks[i].len < len ? t->blocks[i].len : len;
            memcpy(b + t->blocks[i].disp, p, n);
            p += n;
            len -= n;
        }
}

int PMPI_Get_count_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    struct MPI_ABI_Datatype *t;
    int rc = om_type_arg(datatype, &t, "MPI_Get_count");
    if (rc)
        return rc;
    if (!status || !count)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Get_count", "a NULL argument");
    size_t bytes = om_status_bytes(status);
    if (t->size == 0)
        *count = 0;
    else
        *count = bytes % t->size ? MPI_UNDEFINED : (MPI_Count)(bytes / t->size);
    return MPI_SUCCESS;
}
OM_ALIAS(Get_count_c)

int PMPI_Get_count(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
    MPI_Count n = 0;
    int rc = PMPI_Get_count_c(status, datatype, &n);
    if (rc == MPI_SUCCESS && count)
        *count = n > INT32_MAX ? MPI_UNDEFINED : (int)n;
    return rc;
}
OM_ALIAS(Get_count)

int PMPI_Get_elements_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    struct MPI_ABI_Datatype *t;
    int rc = om_type_arg(datatype, &t, "MPI_Get_elements");
    if (rc)
        return rc;
    if (!status || !count)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Get_elements",
                             "a NULL argument");
    /* whole elements count all their basic elements; a part of one is
     * counted where the type is of one basic type (a mixed type's part:
     * MPI_UNDEFINED) */
    size_t bytes = om_status_bytes(status);
    if (t->size == 0) {
        *count = 0;
    } else {
        size_t whole = bytes / t->size, rest = bytes % t->size;
        size_t each = t->basic_count ? t->size / t->basic_count : 0;
        if (rest == 0)
            *count = (MPI_Count)(whole * t->nelems);
        else if (each && rest % each == 0)
            *count = (MPI_Count)(whole * t->nelems + rest / each);
        else
            *count = MPI_UNDEFINED;
    }
    return MPI_SUCCESS;
}
OM_ALIAS(Get_elements_c)

int PMPI_Get_elements(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
    MPI_Count n = 0;
    int rc = PMPI_Get_elements_c(status, datatype, &n);
    if (rc == MPI_SUCCESS && count)
        *count = n > INT32_MAX ? MPI_UNDEFINED : (int)n;
    return rc;
}
OM_ALIAS(Get_elements)

int PMPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int *size)
{
    (void)comm;
    struct MPI_ABI_Datatype *t;
    int rc = om_type_arg(datatype, &t, "MPI_Pack_size");
    if (rc)
        return rc;
    size_t bytes;
    if (!size || om_type_bytes(t, incount, &bytes) != 0 || bytes > INT32_MAX)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Pack_size",
                             "incount %d, or size NULL", incount);
    *size = (int)bytes;
    return MPI_SUCCESS;
}
OM_ALIAS(Pack_size)

int PMPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf,
              int outsize, int *position, MPI_Comm comm)
{
    (void)comm;
    struct MPI_ABI_Datatype *t;
    int rc = om_type_arg(datatype, &t, "MPI_Pack");
    if (rc)
        return rc;
    size_t bytes;
    if (!position || incount < 0 || om_type_bytes(t, incount, &bytes) != 0)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Pack", "incount %d", incount);
    if (*position < 0 || (size_t)*position + bytes > (size_t)outsize)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_TRUNCATE, "MPI_Pack",
                             "%zu bytes at position %d pass outsize %d", bytes, *position,
                             outsize);
    om_pack(t, inbuf, incount, (char *)outbuf + *position);
    *position += (int)bytes;
    return MPI_SUCCESS;
}
OM_ALIAS(Pack)

int PMPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount,
                MPI_Datatype datatype, MPI_Comm comm)
{
    (void)comm;
    struct MPI_ABI_Datatype *t;
    int rc = om_type_arg(datatype, &t, "MPI_Unpack");
    if (rc)
        return rc;
    size_t bytes;
    if (!position || outcount < 0 || om_type_bytes(t, outcount, &bytes) != 0)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Unpack", "outcount %d",
                             outcount);
    if (*position < 0 || (size_t)*position + bytes > (size_t)insize)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_TRUNCATE, "MPI_Unpack",
                             "%zu bytes at position %d pass insize %d", bytes, *position,
                             insize);
    om_unpack(t, (const char *)inbuf + *position, bytes, outbuf, outcount);
    *position += (int)bytes;
    return MPI_SUCCESS;
}
OM_ALIAS(Unpack)
