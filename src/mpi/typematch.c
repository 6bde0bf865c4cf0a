/* MPI on ordo: datatypes found by what they hold rather than built: the
 * named type of a type class and size (MPI_Type_match_size), the pair
 * type of a value and an index (MPI_Type_get_value_index, MPI-4.1), and
 * Fortran 90's parameterized types (MPI_Type_create_f90_integer / real /
 * complex), which name a precision and range and stand for the smallest
 * kind that holds them. */
#include "mpi_internal.h"

int PMPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype);

int PMPI_Type_match_size(int typeclass, int size, MPI_Datatype *datatype)
{
    static const struct { int cls, size; MPI_Datatype type; } named[] = {
        {MPI_TYPECLASS_INTEGER, 1, MPI_INTEGER1},  {MPI_TYPECLASS_INTEGER, 2, MPI_INTEGER2},
        {MPI_TYPECLASS_INTEGER, 4, MPI_INTEGER4},  {MPI_TYPECLASS_INTEGER, 8, MPI_INTEGER8},
        {MPI_TYPECLASS_INTEGER, 16, MPI_INTEGER16}, {MPI_TYPECLASS_REAL, 2, MPI_REAL2},
        {MPI_TYPECLASS_REAL, 4, MPI_REAL4},        {MPI_TYPECLASS_REAL, 8, MPI_REAL8},
        {MPI_TYPECLASS_REAL, 16, MPI_REAL16},      {MPI_TYPECLASS_COMPLEX, 4, MPI_COMPLEX4},
        {MPI_TYPECLASS_COMPLEX, 8, MPI_COMPLEX8},  {MPI_TYPECLASS_COMPLEX, 16, MPI_COMPLEX16},
        {MPI_TYPECLASS_COMPLEX, 32, MPI_COMPLEX32},
    };
    if (!datatype)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Type_match_size",
                             "datatype is NULL");
    if (typeclass != MPI_TYPECLASS_INTEGER && typeclass != MPI_TYPECLASS_REAL &&
        typeclass != MPI_TYPECLASS_COMPLEX)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Type_match_size",
                             "typeclass %d is none of MPI_TYPECLASS_INTEGER, _REAL, _COMPLEX",
                             typeclass);
    for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++)
        if (named[i].cls == typeclass && named[i].size == size) {
            *datatype = named[i].type;
            return MPI_SUCCESS;
        }
    return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Type_match_size",
                         "no %s type of %d bytes",
                         typeclass == MPI_TYPECLASS_INTEGER ? "integer"
                         : typeclass == MPI_TYPECLASS_REAL  ? "real" : "complex", size);
}
OM_ALIAS(Type_match_size)

int PMPI_Type_get_value_index(MPI_Datatype value_type, MPI_Datatype index_type,
                              MPI_Datatype *pair_type)
{
    static const struct { MPI_Datatype value, index, pair; } pairs[] = {
        {MPI_FLOAT, MPI_INT, MPI_FLOAT_INT},
        {MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT},
        {MPI_LONG, MPI_INT, MPI_LONG_INT},
        {MPI_SHORT, MPI_INT, MPI_SHORT_INT},
        {MPI_LONG_DOUBLE, MPI_INT, MPI_LONG_DOUBLE_INT},
        {MPI_INT, MPI_INT, MPI_2INT},
        {MPI_REAL, MPI_REAL, MPI_2REAL},
        {MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, MPI_2DOUBLE_PRECISION},
        {MPI_INTEGER, MPI_INTEGER, MPI_2INTEGER},
    };
    struct MPI_ABI_Datatype *t;
    int rc;
    if ((rc = om_type_arg(value_type, &t, "MPI_Type_get_value_index")) ||
        (rc = om_type_arg(index_type, &t, "MPI_Type_get_value_index")))
        return rc;
    if (!pair_type)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Type_get_value_index",
                             "pair_type is NULL");
    /* a pair MPI names none for: MPI_DATATYPE_NULL, not an error */
    *pair_type = MPI_DATATYPE_NULL;
    for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++)
        if (pairs[i].value == value_type && pairs[i].index == index_type)
            *pair_type = pairs[i].pair;
    return MPI_SUCCESS;
}
OM_ALIAS(Type_get_value_index)

/* ------------------------------------------------------ Fortran 90 kinds */

/* The types made, kept until the library goes: the same arguments give
 * the same handle, and the program may not free them. */
enum { F90_MAX = 64 };
static struct {
    int          combiner, p, r;
    MPI_Datatype type;
} f90_made[F90_MAX];
static int f90_count;

/* The named type a parameterized one stands for, as the Fortran compiler
 * would choose the kind (the smallest whose precision and range hold p and
 * r; MPI_UNDEFINED leaves one free), MPI_DATATYPE_NULL where none does. */
static MPI_Datatype f90_base(int combiner, int p, int r)
{
    if (combiner == MPI_COMBINER_F90_INTEGER) {
        static const struct { int range; MPI_Datatype type; } ints[] = {
            {2, MPI_INTEGER1}, {4, MPI_INTEGER2}, {9, MPI_INTEGER4}, {18, MPI_INTEGER8},
            {38, MPI_INTEGER16}};
        for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++)
            if (r <= ints[i].range)
                return ints[i].type;
        return MPI_DATATYPE_NULL;
    }
    /* IEEE single, double and quadruple: digits and decimal exponent range */
    static const struct { int precision, range; MPI_Datatype real, cplx; } reals[] = {
        {6, 37, MPI_REAL4, MPI_COMPLEX8},
        {15, 307, MPI_REAL8, MPI_COMPLEX16},
        {33, 4931, MPI_REAL16, MPI_COMPLEX32}};
    for (size_t i = 0; i < sizeof(reals) / sizeof(reals[0]); i++)
        if ((p == MPI_UNDEFINED || p <= reals[i].precision) &&
            (r == MPI_UNDEFINED || r <= reals[i].range))
            return combiner == MPI_COMBINER_F90_REAL ? reals[i].real : reals[i].cplx;
    return MPI_DATATYPE_NULL;
}

static int f90_type(int combiner, int p, int r, MPI_Datatype *newtype, const char *func)
{
    if (!newtype)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, func, "newtype is NULL");
    int ni = combiner == MPI_COMBINER_F90_INTEGER ? 1 : 2;
    if ((ni == 2 && p == MPI_UNDEFINED && r == MPI_UNDEFINED) || (ni == 2 && p < 0 &&
        p != MPI_UNDEFINED) || (r < 0 && r != MPI_UNDEFINED) || (ni == 1 && r < 0))
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, func,
                             "precision %d, range %d: at least one of them, and neither "
                             "negative", p, r);
    for (int i = 0; i < f90_count; i++)
        if (f90_made[i].combiner == combiner && f90_made[i].p == p && f90_made[i].r == r) {
            *newtype = f90_made[i].type;
            return MPI_SUCCESS;
        }
    MPI_Datatype base = f90_base(combiner, p, r);
    if (base == MPI_DATATYPE_NULL)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, func,
                             "no kind holds precision %d and range %d", p, r);
    if (f90_count == F90_MAX)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_INTERN, func,
                             "%d different parameterized types made already", F90_MAX);
    om_envelope_t *e = om_envelope_new(ni, 0, 0);
    MPI_Datatype t = MPI_DATATYPE_NULL;
    if (!e || PMPI_Type_contiguous(1, base, &t) != MPI_SUCCESS) {
        om_envelope_free(e);
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_NO_MEM, func, "no memory");
    }
    if (ni == 1) {
        e->ints[0] = r;
    } else {
        e->ints[0] = p;
        e->ints[1] = r;
    }
    om_type_reenvelope(t, e, combiner);   /* in place of the contiguous one's */
    t->f90 = 1;
    t->committed = 1;
    f90_made[f90_count].combiner = combiner;
    f90_made[f90_count].p = p;
    f90_made[f90_count].r = r;
    f90_made[f90_count++].type = t;
    *newtype = t;
    return MPI_SUCCESS;
}

int PMPI_Type_create_f90_integer(int r, MPI_Datatype *newtype)
{
    return f90_type(MPI_COMBINER_F90_INTEGER, MPI_UNDEFINED, r, newtype,
                    "MPI_Type_create_f90_integer");
}
OM_ALIAS(Type_create_f90_integer)

int PMPI_Type_create_f90_real(int p, int r, MPI_Datatype *newtype)
{
    return f90_type(MPI_COMBINER_F90_REAL, p, r, newtype, "MPI_Type_create_f90_real");
}
OM_ALIAS(Type_create_f90_real)

int PMPI_Type_create_f90_complex(int p, int r, MPI_Datatype *newtype)
{
    return f90_type(MPI_COMBINER_F90_COMPLEX, p, r, newtype, "MPI_Type_create_f90_complex");
}
OM_ALIAS(Type_create_f90_complex)
