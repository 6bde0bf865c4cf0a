/* MPI on ordo: the "external32" data representation (MPI_Pack_external,
 * MPI_Unpack_external, MPI_Pack_external_size): big-endian, IEEE floating
 * point, and the sizes MPI 4.0 section 14.5.2 fixes (MPI_LONG and
 * MPI_UNSIGNED_LONG are 4 bytes there, MPI_WCHAR 2).
 *
 * Data is packed as usual (om_pack: the type map's order) and the packed
 * bytes converted element by element.  Which predefined type each packed
 * element is comes from the type: one basic type all through (the common
 * case), else its constructor's arguments, walked down to predefined
 * types.  Values that the external size cannot hold (a long past 32 bits)
 * and the types with no conversion here (long double and its complex and
 * pair types, REAL16, COMPLEX32) fail with MPI_ERR_CONVERSION. */
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"

/* How one element of a predefined type converts: n parts of `native`
 * bytes each, `ext` bytes each externally; narrow: 1 signed, 2 unsigned
 * (ext < native, range checked), 0 the same size (byte order alone). */
typedef struct part {
    int n, native, ext, narrow;
} part_t;

/* The parts of predefined type h (a pair type has two kinds): how many
 * kinds, 0 for a type that does not convert. */
static int parts_of(MPI_Datatype h, part_t p[2])
{
    struct MPI_ABI_Datatype *t = om_type(h);
    if (h == MPI_LONG_DOUBLE || h == MPI_C_LONG_DOUBLE_COMPLEX ||
        h == MPI_CXX_LONG_DOUBLE_COMPLEX || h == MPI_LONG_DOUBLE_INT || h == MPI_REAL16 ||
        h == MPI_COMPLEX32 || !t)
        return 0;
    if (h == MPI_LONG || h == MPI_UNSIGNED_LONG) {
        p[0] = (part_t){1, (int)sizeof(long), 4, h == MPI_LONG ? 1 : 2};
        return 1;
    }
    if (h == MPI_WCHAR) {
        p[0] = (part_t){1, (int)t->size, 2, 2};
        return 1;
    }
    if (h == MPI_C_FLOAT_COMPLEX || h == MPI_CXX_FLOAT_COMPLEX || h == MPI_COMPLEX ||
        h == MPI_COMPLEX8 || h == MPI_C_DOUBLE_COMPLEX || h == MPI_CXX_DOUBLE_COMPLEX ||
        h == MPI_DOUBLE_COMPLEX || h == MPI_COMPLEX16 || h == MPI_COMPLEX4 ||
        h == MPI_2INT || h == MPI_2REAL || h == MPI_2DOUBLE_PRECISION || h == MPI_2INTEGER) {
        int half = (int)t->size / 2;   /* two of the same */
        p[0] = (part_t){2, half, half, 0};
        return 1;
    }
    if (h == MPI_FLOAT_INT || h == MPI_DOUBLE_INT || h == MPI_SHORT_INT) {
        int value = (int)t->size - (int)sizeof(int);   /* packed: value, then the int */
        p[0] = (part_t){1, value, value, 0};
        p[1] = (part_t){1, (int)sizeof(int), 4, 0};
        return 2;
    }
    if (h == MPI_LONG_INT) {
        p[0] = (part_t){1, (int)sizeof(long), 4, 1};
        p[1] = (part_t){1, (int)sizeof(int), 4, 0};
        return 2;
    }
    p[0] = (part_t){1, (int)t->size, (int)t->size, 0};
    return 1;
}

/* Where a conversion stands: packed native bytes on one side, external
 * ones on the other (either NULL when only sizes are counted). */
typedef struct conv {
    int         to_ext;      /* pack: native -> external; unpack: the other way */
    const char *in;
    char       *out;
    size_t      ext_bytes;   /* external bytes so far */
    size_t      native_bytes;
    int         failed;      /* an MPI class */
} conv_t;

/* Big-endian bytes of v (n <= 8) and back. */
static void put_be(char *out, uint64_t v, int n)
{
    for (int i = n - 1; i >= 0; i--, v >>= 8)
        out[i] = (char)(v & 0xff);
}

static uint64_t get_be(const char *in, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v = v << 8 | (unsigned char)in[i];
    return v;
}

/* One value of `p`: native (host order) to external or back. */
static void convert_one(conv_t *c, const part_t *p, const char *src, char *dst)
{
    if (!p->narrow) {   /* the same size: the byte order alone */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        for (int i = 0; i < p->native; i++)
            dst[i] = src[p->native - 1 - i];
#else
        memcpy(dst, src, (size_t)p->native);
#endif
        return;
    }
    if (c->to_ext) {
        int64_t v = 0;
        uint64_t u = 0;
        if (p->native == 8) {
            memcpy(&v, src, 8);
            memcpy(&u, src, 8);
        } else {
            int32_t w;
            memcpy(&w, src, 4);
            v = w;
            u = (uint32_t)w;
        }
        int64_t lo = p->narrow == 1 ? -((int64_t)1 << (8 * p->ext - 1)) : 0;
        int64_t hi = p->narrow == 1 ? ((int64_t)1 << (8 * p->ext - 1)) - 1
                                    : ((int64_t)1 << (8 * p->ext)) - 1;
        if (p->narrow == 1 ? (v < lo || v > hi) : u > (uint64_t)hi)
            c->failed = MPI_ERR_CONVERSION;
        put_be(dst, p->narrow == 1 ? (uint64_t)v : u, p->ext);
    } else {
        uint64_t u = get_be(src, p->ext);
        int negative = p->narrow == 1 && (u >> (8 * p->ext - 1));   /* sign-extend */
        int64_t v = negative ? (int64_t)u - ((int64_t)1 << (8 * p->ext)) : (int64_t)u;
        if (p->native == 8)
            memcpy(dst, &v, 8);
        else {
            int32_t w = (int32_t)v;
            memcpy(dst, &w, 4);
        }
    }
}

/* n elements of predefined type h, next in the stream. */
static void run(conv_t *c, MPI_Datatype h, MPI_Count n)
{
    part_t p[2];
    int kinds = parts_of(h, p);
    if (!kinds) {
        c->failed = MPI_ERR_CONVERSION;
        return;
    }
    for (MPI_Count e = 0; e < n && !c->failed; e++)
        for (int k = 0; k < kinds; k++)
            for (int i = 0; i < p[k].n; i++) {
                if (c->out) {
                    const char *src = c->in + (c->to_ext ? c->native_bytes : c->ext_bytes);
                    char *dst = c->out + (c->to_ext ? c->ext_bytes : c->native_bytes);
                    convert_one(c, &p[k], src, dst);
                }
                c->native_bytes += (size_t)p[k].native;
                c->ext_bytes += (size_t)p[k].ext;
            }
}

/* count elements of t, in type map order. */
static void walk(conv_t *c, struct MPI_ABI_Datatype *t, MPI_Count count)
{
    if (c->failed || count <= 0 || t->size == 0)
        return;
    if (t->basic != MPI_DATATYPE_NULL && t->basic_count > 0) {
        run(c, t->basic, count * (MPI_Count)t->basic_count);
        return;
    }
    om_envelope_t *e = t->env;
    if (!e || e->nd < 1) {
        c->failed = MPI_ERR_CONVERSION;
        return;
    }
    if (t->combiner == MPI_COMBINER_STRUCT) {   /* count, blocklengths, ..., types */
        for (MPI_Count k = 0; k < count && !c->failed; k++)
            for (int i = 0; i < e->nd; i++)
                walk(c, om_type(e->types[i]), (MPI_Count)e->ints[1 + i]);
        return;
    }
    /* one old type: the element is whole copies of it, in its own order */
    struct MPI_ABI_Datatype *old = om_type(e->types[0]);
    if (!old || old->size == 0) {
        c->failed = old ? c->failed : MPI_ERR_CONVERSION;
        return;
    }
    walk(c, old, count * (MPI_Count)(t->size / old->size));
}

static int datarep_ok(const char *datarep, const char *func)
{
    if (!datarep)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, func, "datarep is NULL");
    if (strcmp(datarep, "external32") != 0)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, func,
                             "data representation \"%s\": external32 is the one here",
                             datarep);
    return MPI_SUCCESS;
}

static int size_of(const char *datarep, MPI_Count count, MPI_Datatype datatype, MPI_Count *size,
                   const char *func)
{
    struct MPI_ABI_Datatype *t;
    int rc = datarep_ok(datarep, func);
    if (rc || (rc = om_type_arg(datatype, &t, func)))
        return rc;
    if (!size || count < 0)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, func, "%s",
                             size ? "a negative count" : "size is NULL");
    conv_t c = {.to_ext = 1};
    walk(&c, t, count);
    if (c.failed)
        return om_comm_error(MPI_COMM_SELF, c.failed, func,
                             "a type external32 has no conversion for here");
    *size = (MPI_Count)c.ext_bytes;
    return MPI_SUCCESS;
}

/* Pack (to_ext: the program's data at native into ext) or unpack (the
 * other way) count elements of datatype; ext is extsize bytes, and
 * *position the offset in it, advanced past what was moved. */
static int convert(int to_ext, const char *datarep, void *native_buf, MPI_Count count,
                   MPI_Datatype datatype, char *ext, MPI_Count extsize, MPI_Count *position,
                   const char *func)
{
    MPI_Count need;
    int rc = size_of(datarep, count, datatype, &need, func);
    if (rc)
        return rc;
    if (!position || *position < 0 || (need && !ext))
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, func, "a NULL or negative position");
    if (*position > extsize || need > extsize - *position)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_TRUNCATE, func,
                             "%lld bytes at %lld of a buffer of %lld", (long long)need,
                             (long long)*position, (long long)extsize);
    struct MPI_ABI_Datatype *t = om_type(datatype);
    size_t native = 0;
    om_type_bytes(t, count, &native);
    char *tmp = malloc(native ? native : 1);
    if (!tmp)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_NO_MEM, func, "no memory");
    if (to_ext)
        om_pack(t, native_buf, count, tmp);
    conv_t c = {.to_ext = to_ext, .in = to_ext ? tmp : ext + *position,
                .out = to_ext ? ext + *position : tmp};
    walk(&c, t, count);
    if (!to_ext && !c.failed)
        om_unpack(t, tmp, native, native_buf, count);
    free(tmp);
    if (c.failed)
        return om_comm_error(MPI_COMM_SELF, c.failed, func,
                             "a value does not fit its external32 size");
    *position += need;
    return MPI_SUCCESS;
}

int PMPI_Pack_external_size_c(const char datarep[], MPI_Count incount, MPI_Datatype datatype,
                              MPI_Count *size)
{
    return size_of(datarep, incount, datatype, size, "MPI_Pack_external_size_c");
}
OM_ALIAS(Pack_external_size_c)

int PMPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype datatype,
                            MPI_Aint *size)
{
    MPI_Count s = 0;
    int rc = size_of(datarep, incount, datatype, &s, "MPI_Pack_external_size");
    if (rc == MPI_SUCCESS && size)
        *size = (MPI_Aint)s;
    return rc;
}
OM_ALIAS(Pack_external_size)

int PMPI_Pack_external_c(const char datarep[], const void *inbuf, MPI_Count incount,
                         MPI_Datatype datatype, void *outbuf, MPI_Count outsize,
                         MPI_Count *position)
{
    return convert(1, datarep, (void *)inbuf, incount, datatype, outbuf, outsize, position,
                   "MPI_Pack_external_c");
}
OM_ALIAS(Pack_external_c)

int PMPI_Pack_external(const char datarep[], const void *inbuf, int incount,
                       MPI_Datatype datatype, void *outbuf, MPI_Aint outsize,
                       MPI_Aint *position)
{
    MPI_Count pos = position ? *position : 0;
    int rc = convert(1, datarep, (void *)inbuf, incount, datatype, outbuf, outsize,
                     position ? &pos : NULL, "MPI_Pack_external");
    if (rc == MPI_SUCCESS)
        *position = (MPI_Aint)pos;
    return rc;
}
OM_ALIAS(Pack_external)

int PMPI_Unpack_external_c(const char datarep[], const void *inbuf, MPI_Count insize,
                           MPI_Count *position, void *outbuf, MPI_Count outcount,
                           MPI_Datatype datatype)
{
    return convert(0, datarep, outbuf, outcount, datatype, (char *)inbuf, insize, position,
                   "MPI_Unpack_external_c");
}
OM_ALIAS(Unpack_external_c)

int PMPI_Unpack_external(const char datarep[], const void *inbuf, MPI_Aint insize,
                         MPI_Aint *position, void *outbuf, int outcount, MPI_Datatype datatype)
{
    MPI_Count pos = position ? *position : 0;
    int rc = convert(0, datarep, outbuf, outcount, datatype, (char *)inbuf, insize,
                     position ? &pos : NULL, "MPI_Unpack_external");
    if (rc == MPI_SUCCESS)
        *position = (MPI_Aint)pos;
    return rc;
}
OM_ALIAS(Unpack_external)
