/* MPI on ordo: datatypes.  Every type, predefined or derived, is kept as
 * the byte blocks of one element (offset from the buffer, length), merged
 * where they touch; sending or receiving a non-contiguous type packs it
 * through those blocks, a contiguous one goes as it is. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"

#define OM_MAX_BLOCKS (1 << 24)

#define predef om_predef_types
struct MPI_ABI_Datatype om_predef_types[OM_TYPE_SLOTS];
static om_block_t predef_block[OM_TYPE_SLOTS][2];
static int predef_align[OM_TYPE_SLOTS];

struct pair_layout {
    int value_size, index_off;   /* value at 0, an int at index_off */
};

static void define(MPI_Datatype h, const char *name, size_t size, int align)
{
    size_t i = (uintptr_t)h - 0x200;
    struct MPI_ABI_Datatype *t = &predef[i];
    t->magic = OM_MAGIC_TYPE;
    t->refs = 1;
    t->predefined = 1;
    t->committed = 1;
    t->size = size;
    t->lb = t->true_lb = 0;
    t->extent = t->true_extent = (MPI_Aint)size;
    t->basic = h;
    t->basic_count = 1;
    t->nelems = 1;
    t->contiguous = 1;
    t->nblocks = 1;
    predef_block[i][0].disp = 0;
    predef_block[i][0].len = size;
    t->blocks = predef_block[i];
    t->combiner = MPI_COMBINER_NAMED;
    predef_align[i] = align;
    snprintf(t->name, sizeof(t->name), "%s", name);
}

/* The value-and-index types of MINLOC / MAXLOC: a value, then an int at
 * the offset C's struct layout gives it. */
static void define_pair(MPI_Datatype h, const char *name, struct pair_layout l, int align,
                        MPI_Aint extent)
{
    define(h, name, (size_t)l.value_size + sizeof(int), align);
    size_t i = (uintptr_t)h - 0x200;
    struct MPI_ABI_Datatype *t = &predef[i];
    t->extent = t->true_extent = extent;
    if (l.index_off == l.value_size) {
        predef_block[i][0].len = (size_t)l.value_size + sizeof(int);
        t->true_extent = l.index_off + (MPI_Aint)sizeof(int);
        t->contiguous = t->true_extent == extent;
    } else {
        predef_block[i][0].len = (size_t)l.value_size;
        predef_block[i][1].disp = l.index_off;
        predef_block[i][1].len = sizeof(int);
        t->nblocks = 2;
        t->contiguous = 0;
        t->true_extent = l.index_off + (MPI_Aint)sizeof(int);
    }
}

void om_types_init(void)
{
    define(MPI_AINT, "MPI_AINT", sizeof(MPI_Aint), 8);
    define(MPI_COUNT, "MPI_COUNT", sizeof(MPI_Count), 8);
    define(MPI_OFFSET, "MPI_OFFSET", sizeof(MPI_Offset), 8);
    define(MPI_PACKED, "MPI_PACKED", 1, 1);
    define(MPI_SHORT, "MPI_SHORT", sizeof(short), 2);
    define(MPI_INT, "MPI_INT", sizeof(int), 4);
    define(MPI_LONG, "MPI_LONG", sizeof(long), 8);
    define(MPI_LONG_LONG, "MPI_LONG_LONG", sizeof(long long), 8);
    define(MPI_UNSIGNED_SHORT, "MPI_UNSIGNED_SHORT", sizeof(short), 2);
    define(MPI_UNSIGNED, "MPI_UNSIGNED", sizeof(int), 4);
    define(MPI_UNSIGNED_LONG, "MPI_UNSIGNED_LONG", sizeof(long), 8);
    define(MPI_UNSIGNED_LONG_LONG, "MPI_UNSIGNED_LONG_LONG", sizeof(long long), 8);
    define(MPI_FLOAT, "MPI_FLOAT", sizeof(float), 4);
    define(MPI_C_FLOAT_COMPLEX, "MPI_C_FLOAT_COMPLEX", 2 * sizeof(float), 4);
    define(MPI_CXX_FLOAT_COMPLEX, "MPI_CXX_FLOAT_COMPLEX", 2 * sizeof(float), 4);
    define(MPI_DOUBLE, "MPI_DOUBLE", sizeof(double), 8);
    define(MPI_C_DOUBLE_COMPLEX, "MPI_C_DOUBLE_COMPLEX", 2 * sizeof(double), 8);
    define(MPI_CXX_DOUBLE_COMPLEX, "MPI_CXX_DOUBLE_COMPLEX", 2 * sizeof(double), 8);
    define(MPI_LONG_DOUBLE, "MPI_LONG_DOUBLE", sizeof(long double), 16);
    define(MPI_C_LONG_DOUBLE_COMPLEX, "MPI_C_LONG_DOUBLE_COMPLEX", 2 * sizeof(long double),
           16);
    define(MPI_CXX_LONG_DOUBLE_COMPLEX, "MPI_CXX_LONG_DOUBLE_COMPLEX",
           2 * sizeof(long double), 16);
    /* Fortran types, at the sizes of gfortran's defaults */
    define(MPI_LOGICAL, "MPI_LOGICAL", 4, 4);
    define(MPI_INTEGER, "MPI_INTEGER", 4, 4);
    define(MPI_REAL, "MPI_REAL", 4, 4);
    define(MPI_COMPLEX, "MPI_COMPLEX", 8, 4);
    define(MPI_DOUBLE_PRECISION, "MPI_DOUBLE_PRECISION", 8, 8);
    define(MPI_DOUBLE_COMPLEX, "MPI_DOUBLE_COMPLEX", 16, 8);
    define(MPI_CHARACTER, "MPI_CHARACTER", 1, 1);
    define(MPI_2REAL, "MPI_2REAL", 8, 4);
    define(MPI_2DOUBLE_PRECISION, "MPI_2DOUBLE_PRECISION", 16, 8);
    define(MPI_2INTEGER, "MPI_2INTEGER", 8, 4);
    define(MPI_LOGICAL1, "MPI_LOGICAL1", 1, 1);
    define(MPI_INTEGER1, "MPI_INTEGER1", 1, 1);
    define(MPI_LOGICAL2, "MPI_LOGICAL2", 2, 2);
    define(MPI_INTEGER2, "MPI_INTEGER2", 2, 2);
    define(MPI_REAL2, "MPI_REAL2", 2, 2);
    define(MPI_LOGICAL4, "MPI_LOGICAL4", 4, 4);
    define(MPI_INTEGER4, "MPI_INTEGER4", 4, 4);
    define(MPI_REAL4, "MPI_REAL4", 4, 4);
    define(MPI_COMPLEX4, "MPI_COMPLEX4", 4, 2);
    define(MPI_LOGICAL8, "MPI_LOGICAL8", 8, 8);
    define(MPI_INTEGER8, "MPI_INTEGER8", 8, 8);
    define(MPI_REAL8, "MPI_REAL8", 8, 8);
    define(MPI_COMPLEX8, "MPI_COMPLEX8", 8, 4);
    define(MPI_LOGICAL16, "MPI_LOGICAL16", 16, 16);
    define(MPI_INTEGER16, "MPI_INTEGER16", 16, 16);
    define(MPI_REAL16, "MPI_REAL16", 16, 16);
    define(MPI_COMPLEX16, "MPI_COMPLEX16", 16, 8);
    define(MPI_COMPLEX32, "MPI_COMPLEX32", 32, 16);
    define(MPI_C_BOOL, "MPI_C_BOOL", sizeof(_Bool), 1);
    define(MPI_CXX_BOOL, "MPI_CXX_BOOL", 1, 1);
    define(MPI_WCHAR, "MPI_WCHAR", 4, 4);
    define(MPI_INT8_T, "MPI_INT8_T", 1, 1);
    define(MPI_UINT8_T, "MPI_UINT8_T", 1, 1);
    define(MPI_CHAR, "MPI_CHAR", 1, 1);
    define(MPI_SIGNED_CHAR, "MPI_SIGNED_CHAR", 1, 1);
    define(MPI_UNSIGNED_CHAR, "MPI_UNSIGNED_CHAR", 1, 1);
    define(MPI_BYTE, "MPI_BYTE", 1, 1);
    define(MPI_INT16_T, "MPI_INT16_T", 2, 2);
    define(MPI_UINT16_T, "MPI_UINT16_T", 2, 2);
    define(MPI_INT32_T, "MPI_INT32_T", 4, 4);
    define(MPI_UINT32_T, "MPI_UINT32_T", 4, 4);
    define(MPI_INT64_T, "MPI_INT64_T", 8, 8);
    define(MPI_UINT64_T, "MPI_UINT64_T", 8, 8);
    define(MPI_2INT, "MPI_2INT", 2 * sizeof(int), 4);
    struct { float v; int i; } fi;
    struct { double v; int i; } di;
    struct { long v; int i; } li;
    struct { short v; int i; } si;
    struct { long double v; int i; } ldi;
    define_pair(MPI_FLOAT_INT, "MPI_FLOAT_INT",
                (struct pair_layout){sizeof(float), (int)((char *)&fi.i - (char *)&fi)}, 4,
                sizeof(fi));
    define_pair(MPI_DOUBLE_INT, "MPI_DOUBLE_INT",
                (struct pair_layout){sizeof(double), (int)((char *)&di.i - (char *)&di)}, 8,
                sizeof(di));
    define_pair(MPI_LONG_INT, "MPI_LONG_INT",
                (struct pair_layout){sizeof(long), (int)((char *)&li.i - (char *)&li)}, 8,
                sizeof(li));
    define_pair(MPI_SHORT_INT, "MPI_SHORT_INT",
                (struct pair_layout){sizeof(short), (int)((char *)&si.i - (char *)&si)}, 4,
                sizeof(si));
    define_pair(MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT",
                (struct pair_layout){sizeof(long double),
                                     (int)((char *)&ldi.i - (char *)&ldi)}, 16, sizeof(ldi));
}

void om_type_retain(struct MPI_ABI_Datatype *t)
{
    if (!t->predefined)
        t->refs++;
}

void om_type_release(struct MPI_ABI_Datatype *t)
{
    if (t->predefined || --t->refs > 0)
        return;
    t->magic = OM_MAGIC_DEAD;
    om_envelope_free(t->env);
    free(t->blocks);
    free(t);
}

/* ------------------------------------------------------------ building */

typedef struct builder {
    om_block_t  *blocks;
    int          n, cap;
    size_t       size;
    MPI_Aint     lb, ub, true_lb, true_ub;
    int          any, tany;
    MPI_Datatype basic;
    size_t       basic_count, nelems;
    int          mixed;
    int          align;
} builder_t;

typedef struct derived {
    struct MPI_ABI_Datatype t;
    int align;
} derived_t;

static int type_align(const struct MPI_ABI_Datatype *t)
{
    return t->predefined ? predef_align[t - predef] : ((const derived_t *)t)->align;
}

/* Append `count` copies of t starting at byte offset disp (copies
 * t->extent apart). */
static int builder_add(builder_t *b, const struct MPI_ABI_Datatype *t, MPI_Aint disp,
                       MPI_Count count)
{
    if (count <= 0)
        return MPI_SUCCESS;
    for (MPI_Count e = 0; e < count; e++) {
        MPI_Aint at = disp + (MPI_Aint)e * t->extent;
        for (int i = 0; i < t->nblocks; i++) {
            MPI_Aint d = at + t->blocks[i].disp;
            size_t len = t->blocks[i].len;
            if (b->n && b->blocks[b->n - 1].disp + (MPI_Aint)b->blocks[b->n - 1].len == d) {
                b->blocks[b->n - 1].len += len;
                continue;
            }
            if (b->n == b->cap) {
                if (b->cap >= OM_MAX_BLOCKS)
                    return MPI_ERR_NO_MEM;
                int cap = b->cap ? b->cap * 2 : 8;
                om_block_t *nb = realloc(b->blocks, sizeof(*nb) * (size_t)cap);
                if (!nb)
                    return MPI_ERR_NO_MEM;
                b->blocks = nb;
                b->cap = cap;
            }
            b->blocks[b->n].disp = d;
            b->blocks[b->n].len = len;
            b->n++;
        }
    }
    MPI_Aint first = disp, last = disp + (MPI_Aint)(count - 1) * t->extent;
    MPI_Aint lo = (t->extent >= 0 ? first : last), hi = (t->extent >= 0 ? last : first);
    MPI_Aint lb = lo + t->lb, ub = hi + t->lb + t->extent;
    MPI_Aint tlb = lo + t->true_lb, tub = hi + t->true_lb + t->true_extent;
    if (!b->any || lb < b->lb)
        b->lb = lb;
    if (!b->any || ub > b->ub)
        b->ub = ub;
    if (t->size) {
        if (!b->tany || tlb < b->true_lb)
            b->true_lb = tlb;
        if (!b->tany || tub > b->true_ub)
            b->true_ub = tub;
        b->tany = 1;
    }
    b->any = 1;
    b->size += t->size * (size_t)count;
    b->nelems += t->nelems * (size_t)count;
    if (t->basic == MPI_DATATYPE_NULL || (b->basic && b->basic != t->basic))
        b->mixed = 1;
    else if (t->size) {
        b->basic = t->basic;
        b->basic_count += t->basic_count * (size_t)count;
    }
    int a = type_align(t);
    if (a > b->align)
        b->align = a;
    return MPI_SUCCESS;
}

static int builder_finish(builder_t *b, int combiner, int pad_struct, MPI_Datatype *out)
{
    derived_t *d = calloc(1, sizeof(*d));
    if (!d) {
        free(b->blocks);
        return MPI_ERR_NO_MEM;
    }
    struct MPI_ABI_Datatype *t = &d->t;
    t->magic = OM_MAGIC_TYPE;
    t->refs = 1;
    t->size = b->size;
    t->lb = b->any ? b->lb : 0;
    MPI_Aint ub = b->any ? b->ub : 0;
    if (pad_struct && b->align > 1) {
        MPI_Aint ext = ub - t->lb, a = b->align;
        if (ext % a)
            ub += a - ext % a;
    }
    t->extent = ub - t->lb;
    t->true_lb = b->true_lb;
    t->true_extent = b->true_ub - b->true_lb;
    t->basic = b->mixed ? MPI_DATATYPE_NULL : b->basic;
    t->basic_count = b->mixed ? 0 : b->basic_count;
    t->nelems = b->nelems;
    t->nblocks = b->n;
    t->blocks = b->blocks;
    t->contiguous = b->n <= 1 && (b->n == 0 || b->blocks[0].disp == 0) &&
                    t->extent == (MPI_Aint)t->size && t->lb == 0;
    t->combiner = combiner;
    d->align = b->align ? b->align : 1;
    *out = t;
    return MPI_SUCCESS;
}

int om_type_arg(MPI_Datatype h, struct MPI_ABI_Datatype **t, const char *func)
{
    *t = om_type(h);
    if (!*t)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_TYPE, func, "not a datatype");
    return MPI_SUCCESS;
}

/* Keep a new type's constructor arguments (env, made by the caller) for
 * MPI_Type_get_contents; a type without them (no memory) is freed. */
static int with_env(int rc, MPI_Datatype *newtype, om_envelope_t *env, const char *func)
{
    if (rc != MPI_SUCCESS) {
        om_envelope_free(env);
        return rc;
    }
    if (!env) {
        om_type_release(*newtype);
        *newtype = MPI_DATATYPE_NULL;
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_NO_MEM, func, "no memory");
    }
    om_envelope_hold(env);
    (*newtype)->env = env;
    return MPI_SUCCESS;
}

static int made(int rc, const char *func)
{
    return rc == MPI_SUCCESS ? rc : om_comm_error(MPI_COMM_SELF, rc, func,
                                                  "no memory for the type map");
}

#define NEWTYPE_ARGS(func)                                                        \
    if (!newtype)                                                                 \
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, func, "newtype is NULL");

static int contiguous(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype,
                      const char *func)
{
    struct MPI_ABI_Datatype *o;
    int rc = om_type_arg(oldtype, &o, func);
    if (rc)
        return rc;
    NEWTYPE_ARGS(func);
    if (count < 0)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_COUNT, func, "count %lld",
                             (long long)count);
    builder_t b = {0};
    rc = builder_add(&b, o, 0, count);
    if (rc == MPI_SUCCESS) {
        om_envelope_t *e = om_envelope_new(1, 0, 1);
        if (e) {
            e->ints[0] = count;
            e->types[0] = oldtype;
        }
        return with_env(made(builder_finish(&b, MPI_COMBINER_CONTIGUOUS, 0, newtype), func),
                        newtype, e, func);
    }
    free(b.blocks);
    return made(rc, func);
}

int PMPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return contiguous(count, oldtype, newtype, "MPI_Type_contiguous");
}
OM_ALIAS(Type_contiguous)

/* vector (stride in elements, given as stride) and hvector (in bytes) */
static int hvector(MPI_Count count, MPI_Count blocklength, MPI_Aint stride_bytes,
                   MPI_Count stride, MPI_Datatype oldtype, MPI_Datatype *newtype, int combiner,
                   const char *func)
{
    struct MPI_ABI_Datatype *o;
    int rc = om_type_arg(oldtype, &o, func);
    if (rc)
        return rc;
    NEWTYPE_ARGS(func);
    if (count < 0 || blocklength < 0)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_COUNT, func, "count %lld, blocklength %lld",
                             (long long)count, (long long)blocklength);
    builder_t b = {0};
    for (MPI_Count i = 0; rc == MPI_SUCCESS && i < count; i++)
        rc = builder_add(&b, o, (MPI_Aint)i * stride_bytes, blocklength);
    if (rc == MPI_SUCCESS) {
        int vec = combiner == MPI_COMBINER_VECTOR;
        om_envelope_t *e = om_envelope_new(vec ? 3 : 2, vec ? 0 : 1, 1);
        if (e) {
            e->ints[0] = count;
            e->ints[1] = blocklength;
            if (vec)
                e->ints[2] = stride;
            else
                e->aints[0] = stride_bytes;
            e->types[0] = oldtype;
        }
        return with_env(made(builder_finish(&b, combiner, 0, newtype), func), newtype, e,
                        func);
    }
    free(b.blocks);
    return made(rc, func);
}

int PMPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype,
                     MPI_Datatype *newtype)
{
    struct MPI_ABI_Datatype *o = om_type(oldtype);
    return hvector(count, blocklength, o ? (MPI_Aint)stride * o->extent : 0, stride, oldtype,
                   newtype, MPI_COMBINER_VECTOR, "MPI_Type_vector");
}
OM_ALIAS(Type_vector)

int PMPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                             MPI_Datatype *newtype)
{
    return hvector(count, blocklength, stride, 0, oldtype, newtype, MPI_COMBINER_HVECTOR,
                   "MPI_Type_create_hvector");
}
OM_ALIAS(Type_create_hvector)

/* indexed forms: displacements in elements of oldtype (scale = extent) or
 * bytes (scale = 1); blocklengths per block, or one for all */
/* The program's arrays: int (wide 0) or, for the large-count (_c) forms
 * and the byte displacements, 64-bit (wide 1). */
static MPI_Count elem_at(const void *a, int wide, MPI_Count i)
{
    return wide ? ((const int64_t *)a)[i] : ((const int *)a)[i];
}

/* indexed forms: displacements in elements of oldtype or in bytes;
 * blocklengths per block, or one for all (blocklengths NULL) */
static int indexed(MPI_Count count, const void *blocklengths, int bl_wide, MPI_Count one_length,
                   const void *displs, int d_wide, int in_bytes, MPI_Datatype oldtype,
                   MPI_Datatype *newtype, int combiner, const char *func)
{
    struct MPI_ABI_Datatype *o;
    int rc = om_type_arg(oldtype, &o, func);
    if (rc)
        return rc;
    NEWTYPE_ARGS(func);
    if (count < 0 || (count > 0 && (!displs || (!blocklengths && one_length < 0))))
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, func, "count %lld or a NULL array",
                             (long long)count);
    builder_t b = {0};
    for (MPI_Count i = 0; rc == MPI_SUCCESS && i < count; i++) {
        MPI_Count len = blocklengths ? elem_at(blocklengths, bl_wide, i) : one_length;
        if (len < 0) {
            free(b.blocks);
            return om_comm_error(MPI_COMM_SELF, MPI_ERR_COUNT, func,
                                 "block %lld has length %lld", (long long)i, (long long)len);
        }
        MPI_Aint d = (MPI_Aint)elem_at(displs, d_wide, i);
        rc = builder_add(&b, o, in_bytes ? d : d * o->extent, len);
    }
    if (rc == MPI_SUCCESS) {
        /* count, the block lengths (or the one), the displacements: in
         * elements among the integers, in bytes among the addresses */
        int nbl = blocklengths ? (int)count : 1;
        om_envelope_t *e = om_envelope_new(1 + nbl + (in_bytes ? 0 : (int)count),
                                           in_bytes ? (int)count : 0, 1);
        if (e) {
            e->ints[0] = count;
            for (int i = 0; i < nbl; i++)
                e->ints[1 + i] = blocklengths ? elem_at(blocklengths, bl_wide, i) : one_length;
            for (int i = 0; i < (int)count; i++) {
                if (in_bytes)
                    e->aints[i] = (MPI_Aint)elem_at(displs, d_wide, i);
                else
                    e->ints[1 + nbl + i] = elem_at(displs, d_wide, i);
            }
            e->types[0] = oldtype;
        }
        return with_env(made(builder_finish(&b, combiner, 0, newtype), func), newtype, e,
                        func);
    }
    free(b.blocks);
    return made(rc, func);
}

int PMPI_Type_indexed(int count, const int array_of_blocklengths[],
                      const int array_of_displacements[], MPI_Datatype oldtype,
                      MPI_Datatype *newtype)
{
    return indexed(count, array_of_blocklengths, 0, -1, array_of_displacements, 0, 0, oldtype,
                   newtype, MPI_COMBINER_INDEXED, "MPI_Type_indexed");
}
OM_ALIAS(Type_indexed)

int PMPI_Type_create_hindexed(int count, const int array_of_blocklengths[],
                              const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                              MPI_Datatype *newtype)
{
    return indexed(count, array_of_blocklengths, 0, -1, array_of_displacements, 1, 1, oldtype,
                   newtype, MPI_COMBINER_HINDEXED, "MPI_Type_create_hindexed");
}
OM_ALIAS(Type_create_hindexed)

int PMPI_Type_create_indexed_block(int count, int blocklength,
                                   const int array_of_displacements[], MPI_Datatype oldtype,
                                   MPI_Datatype *newtype)
{
    return indexed(count, NULL, 0, blocklength, array_of_displacements, 0, 0, oldtype, newtype,
                   MPI_COMBINER_INDEXED_BLOCK, "MPI_Type_create_indexed_block");
}
OM_ALIAS(Type_create_indexed_block)

int PMPI_Type_create_hindexed_block(int count, int blocklength,
                                    const MPI_Aint array_of_displacements[],
                                    MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return indexed(count, NULL, 0, blocklength, array_of_displacements, 1, 1, oldtype, newtype,
                   MPI_COMBINER_HINDEXED_BLOCK, "MPI_Type_create_hindexed_block");
}
OM_ALIAS(Type_create_hindexed_block)

static int create_struct(MPI_Count count, const void *blocklengths, const void *displs, int wide,
                         const MPI_Datatype types[], MPI_Datatype *newtype, const char *func)
{
    NEWTYPE_ARGS(func);
    if (count < 0 || (count > 0 && (!blocklengths || !displs || !types)))
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, func, "count %lld or a NULL array",
                             (long long)count);
    builder_t b = {0};
    int rc = MPI_SUCCESS;
    for (MPI_Count i = 0; rc == MPI_SUCCESS && i < count; i++) {
        struct MPI_ABI_Datatype *o = om_type(types[i]);
        MPI_Count len = elem_at(blocklengths, wide, i);
        if (!o || len < 0) {
            free(b.blocks);
            return om_comm_error(MPI_COMM_SELF, o ? MPI_ERR_COUNT : MPI_ERR_TYPE, func,
                                 "block %lld: %s", (long long)i,
                                 o ? "negative length" : "not a datatype");
        }
        rc = builder_add(&b, o, (MPI_Aint)((const int64_t *)displs)[i], len);
    }
    if (rc == MPI_SUCCESS) {
        om_envelope_t *e = om_envelope_new(1 + (int)count, (int)count, (int)count);
        if (e) {
            e->ints[0] = count;
            for (int i = 0; i < (int)count; i++) {
                e->ints[1 + i] = elem_at(blocklengths, wide, i);
                e->aints[i] = (MPI_Aint)((const int64_t *)displs)[i];
                e->types[i] = types[i];
            }
        }
        return with_env(made(builder_finish(&b, MPI_COMBINER_STRUCT, 1, newtype), func),
                        newtype, e, func);
    }
    free(b.blocks);
    return made(rc, func);
}

int PMPI_Type_create_struct(int count, const int array_of_blocklengths[],
                            const MPI_Aint array_of_displacements[],
                            const MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
    return create_struct(count, array_of_blocklengths, array_of_displacements, 0,
                         array_of_types, newtype, "MPI_Type_create_struct");
}
OM_ALIAS(Type_create_struct)

int PMPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
                             MPI_Datatype *newtype)
{
    struct MPI_ABI_Datatype *o;
    int rc = om_type_arg(oldtype, &o, "MPI_Type_create_resized");
    if (rc)
        return rc;
    NEWTYPE_ARGS("MPI_Type_create_resized");
    builder_t b = {0};
    rc = builder_add(&b, o, 0, 1);
    if (rc == MPI_SUCCESS) {
        b.lb = lb;
        b.ub = lb + extent;
        rc = builder_finish(&b, MPI_COMBINER_RESIZED, 0, newtype);
        if (rc == MPI_SUCCESS)
            ((derived_t *)*newtype)->align = type_align(o);
        om_envelope_t *e = om_envelope_new(0, 2, 1);
        if (e) {
            e->aints[0] = lb;
            e->aints[1] = extent;
            e->types[0] = oldtype;
        }
        return with_env(made(rc, "MPI_Type_create_resized"), newtype, e,
                        "MPI_Type_create_resized");
    }
    free(b.blocks);
    return made(rc, "MPI_Type_create_resized");
}
OM_ALIAS(Type_create_resized)

int PMPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    struct MPI_ABI_Datatype *o;
    int rc = om_type_arg(oldtype, &o, "MPI_Type_dup");
    if (rc)
        return rc;
    NEWTYPE_ARGS("MPI_Type_dup");
    builder_t b = {0};
    rc = builder_add(&b, o, 0, 1);
    if (rc == MPI_SUCCESS) {
        b.lb = o->lb;
        b.ub = o->lb + o->extent;
        rc = builder_finish(&b, MPI_COMBINER_DUP, 0, newtype);
        if (rc == MPI_SUCCESS) {
            (*newtype)->committed = o->committed;
            rc = om_type_attrs_copy(oldtype, *newtype);
            if (rc != MPI_SUCCESS) {
                om_type_attrs_free(*newtype, *newtype);
                om_type_release(*newtype);
                *newtype = MPI_DATATYPE_NULL;
                return om_comm_error(MPI_COMM_SELF, rc, "MPI_Type_dup",
                                     "an attribute copy failed");
            }
        }
        om_envelope_t *e = om_envelope_new(0, 0, 1);
        if (e)
            e->types[0] = oldtype;
        return with_env(made(rc, "MPI_Type_dup"), newtype, e, "MPI_Type_dup");
    }
    free(b.blocks);
    return made(rc, "MPI_Type_dup");
}
OM_ALIAS(Type_dup)

int PMPI_Type_commit(MPI_Datatype *datatype)
{
    struct MPI_ABI_Datatype *t = datatype ? om_type(*datatype) : NULL;
    if (!t)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_TYPE, "MPI_Type_commit", "not a datatype");
    t->committed = 1;
    return MPI_SUCCESS;
}
OM_ALIAS(Type_commit)

int PMPI_Type_free(MPI_Datatype *datatype)
{
    struct MPI_ABI_Datatype *t = datatype ? om_type(*datatype) : NULL;
    if (!t || t->predefined || t->f90)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_TYPE, "MPI_Type_free", "%s",
                             !t ? "not a datatype"
                             : t->f90 ? "a parameterized Fortran type cannot be freed"
                                      : "a predefined datatype cannot be freed");
    int rc = om_type_attrs_free(*datatype, t);
    if (rc != MPI_SUCCESS)
        return om_comm_error(MPI_COMM_SELF, rc, "MPI_Type_free",
                             "an attribute's delete callback failed");
    /* operations in flight that unpack into it hold a reference */
    *datatype = MPI_DATATYPE_NULL;
    om_type_release(t);
    return MPI_SUCCESS;
}
OM_ALIAS(Type_free)

/* ------------------------------------------------- the large-count forms */

int PMPI_Type_contiguous_c(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    int rc = contiguous(count, oldtype, newtype, "MPI_Type_contiguous_c");
    return om_type_made_large(rc, newtype);
}
OM_ALIAS(Type_contiguous_c)

int PMPI_Type_vector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                       MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    struct MPI_ABI_Datatype *o = om_type(oldtype);
    int rc = hvector(count, blocklength, o ? (MPI_Aint)stride * o->extent : 0, stride, oldtype,
                     newtype, MPI_COMBINER_VECTOR, "MPI_Type_vector_c");
    return om_type_made_large(rc, newtype);
}
OM_ALIAS(Type_vector_c)

int PMPI_Type_create_hvector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                               MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    int rc = hvector(count, blocklength, (MPI_Aint)stride, 0, oldtype, newtype,
                     MPI_COMBINER_HVECTOR, "MPI_Type_create_hvector_c");
    return om_type_made_large(rc, newtype);
}
OM_ALIAS(Type_create_hvector_c)

int PMPI_Type_indexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                        const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                        MPI_Datatype *newtype)
{
    int rc = indexed(count, array_of_blocklengths, 1, -1, array_of_displacements, 1, 0, oldtype,
                     newtype, MPI_COMBINER_INDEXED, "MPI_Type_indexed_c");
    return om_type_made_large(rc, newtype);
}
OM_ALIAS(Type_indexed_c)

int PMPI_Type_create_hindexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                                const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                MPI_Datatype *newtype)
{
    int rc = indexed(count, array_of_blocklengths, 1, -1, array_of_displacements, 1, 1, oldtype,
                     newtype, MPI_COMBINER_HINDEXED, "MPI_Type_create_hindexed_c");
    return om_type_made_large(rc, newtype);
}
OM_ALIAS(Type_create_hindexed_c)

int PMPI_Type_create_indexed_block_c(MPI_Count count, MPI_Count blocklength,
                                     const MPI_Count array_of_displacements[],
                                     MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    int rc = indexed(count, NULL, 1, blocklength, array_of_displacements, 1, 0, oldtype, newtype,
                     MPI_COMBINER_INDEXED_BLOCK, "MPI_Type_create_indexed_block_c");
    return om_type_made_large(rc, newtype);
}
OM_ALIAS(Type_create_indexed_block_c)

int PMPI_Type_create_hindexed_block_c(MPI_Count count, MPI_Count blocklength,
                                      const MPI_Count array_of_displacements[],
                                      MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    int rc = indexed(count, NULL, 1, blocklength, array_of_displacements, 1, 1, oldtype, newtype,
                     MPI_COMBINER_HINDEXED_BLOCK, "MPI_Type_create_hindexed_block_c");
    return om_type_made_large(rc, newtype);
}
OM_ALIAS(Type_create_hindexed_block_c)

int PMPI_Type_create_struct_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                              const MPI_Count array_of_displacements[],
                              const MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
    int rc = create_struct(count, array_of_blocklengths, array_of_displacements, 1,
                           array_of_types, newtype, "MPI_Type_create_struct_c");
    return om_type_made_large(rc, newtype);
}
OM_ALIAS(Type_create_struct_c)

int PMPI_Type_create_resized_c(MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent,
                               MPI_Datatype *newtype)
{
    int rc = PMPI_Type_create_resized(oldtype, (MPI_Aint)lb, (MPI_Aint)extent, newtype);
    return om_type_made_large(rc, newtype);
}
OM_ALIAS(Type_create_resized_c)
