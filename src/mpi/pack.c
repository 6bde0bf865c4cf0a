/* MPI on ordo: what a datatype says and does to data: its size, extents
 * and name; packing along its blocks (what every non-contiguous send,
 * receive and collective does), MPI_Pack and MPI_Unpack; the counts a
 * status gives in it. */
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

int PMPI_Pack_size_c(MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count *size)
{
    (void)comm;
    struct MPI_ABI_Datatype *t;
    int rc = om_type_arg(datatype, &t, "MPI_Pack_size_c");
    if (rc)
        return rc;
    size_t bytes;
    if (!size || om_type_bytes(t, incount, &bytes) != 0)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Pack_size_c",
                             "incount %lld, or size NULL", (long long)incount);
    *size = (MPI_Count)bytes;
    return MPI_SUCCESS;
}
OM_ALIAS(Pack_size_c)

int PMPI_Pack_c(const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf,
                MPI_Count outsize, MPI_Count *position, MPI_Comm comm)
{
    (void)comm;
    struct MPI_ABI_Datatype *t;
    int rc = om_type_arg(datatype, &t, "MPI_Pack_c");
    if (rc)
        return rc;
    size_t bytes;
    if (!position || om_type_bytes(t, incount, &bytes) != 0)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Pack_c", "incount %lld",
                             (long long)incount);
    if (*position < 0 || (uint64_t)*position + bytes > (uint64_t)outsize)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_TRUNCATE, "MPI_Pack_c",
                             "%zu bytes at position %lld pass outsize %lld", bytes,
                             (long long)*position, (long long)outsize);
    om_pack(t, inbuf, incount, (char *)outbuf + *position);
    *position += (MPI_Count)bytes;
    return MPI_SUCCESS;
}
OM_ALIAS(Pack_c)

int PMPI_Unpack_c(const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf,
                  MPI_Count outcount, MPI_Datatype datatype, MPI_Comm comm)
{
    (void)comm;
    struct MPI_ABI_Datatype *t;
    int rc = om_type_arg(datatype, &t, "MPI_Unpack_c");
    if (rc)
        return rc;
    size_t bytes;
    if (!position || om_type_bytes(t, outcount, &bytes) != 0)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Unpack_c", "outcount %lld",
                             (long long)outcount);
    if (*position < 0 || (uint64_t)*position + bytes > (uint64_t)insize)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_TRUNCATE, "MPI_Unpack_c",
                             "%zu bytes at position %lld pass insize %lld", bytes,
                             (long long)*position, (long long)insize);
    om_unpack(t, (const char *)inbuf + *position, bytes, outbuf, outcount);
    *position += (MPI_Count)bytes;
    return MPI_SUCCESS;
}
OM_ALIAS(Unpack_c)

int PMPI_Type_size_c(MPI_Datatype datatype, MPI_Count *size)
{
    struct MPI_ABI_Datatype *t;
    int rc = om_type_arg(datatype, &t, "MPI_Type_size");
    if (rc)
        return rc;
    if (!size)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Type_size", "size is NULL");
    *size = (MPI_Count)t->size;
    return MPI_SUCCESS;
}
OM_ALIAS(Type_size_c)

int PMPI_Type_size(MPI_Datatype datatype, int *size)
{
    MPI_Count n = 0;
    int rc = PMPI_Type_size_c(datatype, &n);
    if (rc == MPI_SUCCESS && size)
        *size = n > INT32_MAX ? MPI_UNDEFINED : (int)n;
    return rc;
}
OM_ALIAS(Type_size)

int PMPI_Type_get_extent_c(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent)
{
    struct MPI_ABI_Datatype *t;
    int rc = om_type_arg(datatype, &t, "MPI_Type_get_extent");
    if (rc)
        return rc;
    if (!lb || !extent)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Type_get_extent",
                             "a NULL argument");
    *lb = t->lb;
    *extent = t->extent;
    return MPI_SUCCESS;
}
OM_ALIAS(Type_get_extent_c)

int PMPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent)
{
    MPI_Count l = 0, e = 0;
    int rc = PMPI_Type_get_extent_c(datatype, &l, &e);
    if (rc == MPI_SUCCESS && lb && extent) {
        *lb = (MPI_Aint)l;
        *extent = (MPI_Aint)e;
    }
    return rc;
}
OM_ALIAS(Type_get_extent)

int PMPI_Type_get_true_extent_c(MPI_Datatype datatype, MPI_Count *true_lb,
                                MPI_Count *true_extent)
{
    struct MPI_ABI_Datatype *t;
    int rc = om_type_arg(datatype, &t, "MPI_Type_get_true_extent");
    if (rc)
        return rc;
    if (!true_lb || !true_extent)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Type_get_true_extent",
                             "a NULL argument");
    *true_lb = t->true_lb;
    *true_extent = t->true_extent;
    return MPI_SUCCESS;
}
OM_ALIAS(Type_get_true_extent_c)

int PMPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint *true_lb, MPI_Aint *true_extent)
{
    MPI_Count l = 0, e = 0;
    int rc = PMPI_Type_get_true_extent_c(datatype, &l, &e);
    if (rc == MPI_SUCCESS && true_lb && true_extent) {
        *true_lb = (MPI_Aint)l;
        *true_extent = (MPI_Aint)e;
    }
    return rc;
}
OM_ALIAS(Type_get_true_extent)

int PMPI_Type_set_name(MPI_Datatype datatype, const char *type_name)
{
    struct MPI_ABI_Datatype *t;
    int rc = om_type_arg(datatype, &t, "MPI_Type_set_name");
    if (rc)
        return rc;
    if (!type_name)   /* predefined types too may be renamed */
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Type_set_name", "name is NULL");
    snprintf(t->name, sizeof(t->name), "%s", type_name);
    return MPI_SUCCESS;
}
OM_ALIAS(Type_set_name)

int PMPI_Type_get_name(MPI_Datatype datatype, char *type_name, int *resultlen)
{
    if (datatype == MPI_DATATYPE_NULL && type_name && resultlen)
        return om_null_name("MPI_DATATYPE_NULL", type_name, resultlen);
    struct MPI_ABI_Datatype *t;
    int rc = om_type_arg(datatype, &t, "MPI_Type_get_name");
    if (rc)
        return rc;
    if (!type_name || !resultlen)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Type_get_name",
                             "a NULL argument");
    strcpy(type_name, t->name);
    *resultlen = (int)strlen(t->name);
    return MPI_SUCCESS;
}
OM_ALIAS(Type_get_name)

/* The MPI-3 _x forms of the large-count queries: the same as the _c ones,
 * whose MPI_Count they share. */
int PMPI_Get_elements_x(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    return PMPI_Get_elements_c(status, datatype, count);
}
OM_ALIAS(Get_elements_x)

int PMPI_Type_size_x(MPI_Datatype datatype, MPI_Count *size)
{
    return PMPI_Type_size_c(datatype, size);
}
OM_ALIAS(Type_size_x)

int PMPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent)
{
    return PMPI_Type_get_extent_c(datatype, lb, extent);
}
OM_ALIAS(Type_get_extent_x)

int PMPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count *true_lb,
                                MPI_Count *true_extent)
{
    return PMPI_Type_get_true_extent_c(datatype, true_lb, true_extent);
}
OM_ALIAS(Type_get_true_extent_x)

int PMPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype datatype, MPI_Count count)
{
    return PMPI_Status_set_elements_c(status, datatype, count);
}
OM_ALIAS(Status_set_elements_x)
