/* MPI on ordo: decoding datatypes (MPI_Type_get_envelope and
 * MPI_Type_get_contents, and their large-count forms): each derived type
 * keeps the arguments its constructor was given (datatype.c records them
 * in an envelope); the types among them are held until it is freed. */
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"

om_envelope_t *om_envelope_new(int ni, int na, int nd)
{
    om_envelope_t *e = calloc(1, sizeof(*e));
    if (!e)
        return NULL;
    e->ni = ni;
    e->na = na;
    e->nd = nd;
    e->ints = calloc((size_t)ni + 1, sizeof(int64_t));
    e->aints = calloc((size_t)na + 1, sizeof(MPI_Aint));
    e->types = calloc((size_t)nd + 1, sizeof(MPI_Datatype));
    if (!e->ints || !e->aints || !e->types) {
        free(e->ints);
        free(e->aints);
        free(e->types);
        free(e);
        return NULL;
    }
    return e;
}

/* The types are held once the envelope is complete: called by the
 * constructor's caller through om_envelope_hold. */
static void hold(om_envelope_t *e)
{
    for (int i = 0; i < e->nd; i++) {
        struct MPI_ABI_Datatype *t = om_type(e->types[i]);
        if (t)
            om_type_retain(t);
    }
}

void om_envelope_free(om_envelope_t *e)
{
    if (!e)
        return;
    for (int i = 0; i < e->nd; i++) {
        struct MPI_ABI_Datatype *t = om_type(e->types[i]);
        if (t)
            om_type_release(t);
    }
    free(e->ints);
    free(e->aints);
    free(e->types);
    free(e);
}

void om_envelope_hold(om_envelope_t *e)
{
    if (e)
        hold(e);
}

int om_type_made_large(int rc, MPI_Datatype *newtype)
{
    struct MPI_ABI_Datatype *t = rc == MPI_SUCCESS && newtype ? om_type(*newtype) : NULL;
    if (t && t->env)
        t->env->large = 1;
    return rc;
}

void om_type_reenvelope(struct MPI_ABI_Datatype *t, om_envelope_t *e, int combiner)
{
    om_envelope_hold(e);
    om_envelope_free(t->env);
    t->env = e;
    t->combiner = combiner;
}

static int envelope(MPI_Datatype datatype, int *ni, int *na, MPI_Count *nc, int *nd,
                    int *combiner, const char *func)
{
    struct MPI_ABI_Datatype *t;
    int rc = om_type_arg(datatype, &t, func);
    if (rc)
        return rc;
    if (!ni || !na || !nd || !combiner)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, func, "a NULL argument");
    if (nc)
        *nc = 0;
    if (t->predefined || !t->env) {
        *ni = *na = *nd = 0;
        *combiner = MPI_COMBINER_NAMED;
        return MPI_SUCCESS;
    }
    *ni = t->env->ni;
    *na = t->env->na;
    *nd = t->env->nd;
    if (nc && t->env->large) {   /* the large-count forms: every count and address is one */
        *nc = *ni + *na;
        *ni = *na = 0;
    }
    *combiner = t->combiner;
    return MPI_SUCCESS;
}

int PMPI_Type_get_envelope(MPI_Datatype datatype, int *num_integers, int *num_addresses,
                           int *num_datatypes, int *combiner)
{
    return envelope(datatype, num_integers, num_addresses, NULL, num_datatypes, combiner,
                    "MPI_Type_get_envelope");
}
OM_ALIAS(Type_get_envelope)

int PMPI_Type_get_envelope_c(MPI_Datatype datatype, MPI_Count *num_integers,
                             MPI_Count *num_addresses, MPI_Count *num_large_counts,
                             MPI_Count *num_datatypes, int *combiner)
{
    int ni = 0, na = 0, nd = 0;
    MPI_Count nc = 0;
    if (!num_integers || !num_addresses || !num_large_counts || !num_datatypes)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, "MPI_Type_get_envelope_c",
                             "a NULL argument");
    int rc = envelope(datatype, &ni, &na, &nc, &nd, combiner, "MPI_Type_get_envelope_c");
    if (rc == MPI_SUCCESS) {
        *num_integers = ni;
        *num_addresses = na;
        *num_large_counts = nc;
        *num_datatypes = nd;
    }
    return rc;
}
OM_ALIAS(Type_get_envelope_c)

/* large: the _c form asks (max_c, counts given); a type a _c constructor
 * made then gives its integers and addresses as large counts, in that
 * order.  The plain form gives them as int and MPI_Aint, refusing a value
 * an int cannot hold. */
static int contents(MPI_Datatype datatype, MPI_Count max_i, MPI_Count max_a, MPI_Count max_d,
                    int *ints, MPI_Aint *aints, int large, MPI_Count max_c, MPI_Count *counts,
                    MPI_Datatype *types, const char *func)
{
    struct MPI_ABI_Datatype *t;
    int rc = om_type_arg(datatype, &t, func);
    if (rc)
        return rc;
    if (t->predefined || !t->env)
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_TYPE, func,
                             "a predefined type has no contents");
    om_envelope_t *e = t->env;
    int as_counts = large && e->large;
    int ni = as_counts ? 0 : e->ni, na = as_counts ? 0 : e->na;
    int nc = as_counts ? e->ni + e->na : 0;
    if (max_i < ni || max_a < na || max_c < nc || max_d < e->nd || (ni && !ints) ||
        (na && !aints) || (nc && !counts) || (e->nd && !types))
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_ARG, func,
                             "room for %lld, %lld, %lld and %lld values; the type has %d, %d, "
                             "%d and %d", (long long)max_i, (long long)max_a, (long long)max_c,
                             (long long)max_d, ni, na, nc, e->nd);
    for (int i = 0; i < ni; i++)
        if (e->ints[i] != (int)e->ints[i])
            return om_comm_error(MPI_COMM_SELF, MPI_ERR_TYPE, func,
                                 "the value %lld does not fit an int: use "
                                 "MPI_Type_get_contents_c", (long long)e->ints[i]);
    for (int i = 0; i < ni; i++)
        ints[i] = (int)e->ints[i];
    if (na)
        memcpy(aints, e->aints, sizeof(MPI_Aint) * (size_t)na);
    for (int i = 0; i < nc; i++)
        counts[i] = i < e->ni ? (MPI_Count)e->ints[i] : (MPI_Count)e->aints[i - e->ni];
    for (int i = 0; i < e->nd; i++) {
        /* a derived type given back is a new reference the program frees */
        struct MPI_ABI_Datatype *d = om_type(e->types[i]);
        if (d)
            om_type_retain(d);
        types[i] = e->types[i];
    }
    return MPI_SUCCESS;
}

int PMPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses,
                           int max_datatypes, int array_of_integers[],
                           MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[])
{
    return contents(datatype, max_integers, max_addresses, max_datatypes, array_of_integers,
                    array_of_addresses, 0, 0, NULL, array_of_datatypes,
                    "MPI_Type_get_contents");
}
OM_ALIAS(Type_get_contents)

int PMPI_Type_get_contents_c(MPI_Datatype datatype, MPI_Count max_integers,
                             MPI_Count max_addresses, MPI_Count max_large_counts,
                             MPI_Count max_datatypes, int array_of_integers[],
                             MPI_Aint array_of_addresses[], MPI_Count array_of_large_counts[],
                             MPI_Datatype array_of_datatypes[])
{
    return contents(datatype, max_integers, max_addresses, max_datatypes, array_of_integers,
                    array_of_addresses, 1, max_large_counts, array_of_large_counts,
                    array_of_datatypes, "MPI_Type_get_contents_c");
}
OM_ALIAS(Type_get_contents_c)
