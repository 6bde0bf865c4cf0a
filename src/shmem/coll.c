/* OpenSHMEM team collectives on ordo's collectives over the team's ordo
 * context: broadcast, collect (sizes differ: allgatherv), fcollect
 * (allgather), alltoall, and the reductions.  A reduction gathers every
 * PE's source and combines them here in team order, for every type and
 * operator the standard lists (ordo's own reductions know four types):
 * exact and identical on every PE, at the cost of n x nreduce elements of
 * memory. */
#include <stdlib.h>
#include <string.h>

#include "shmem_internal.h"

static int ok(const char *routine, ordo_status_t st)
{
    if (st == ORDO_OK)
        return 0;
    shmem_error(routine, "%s", ordo_status_string(st));
    return -1;
}

int shmem_broadcastmem(shmem_team_t team, void *dest, const void *source, size_t nelems,
                       int PE_root)
{
    struct shmem_team_s *t = shmem_team_of("shmem_broadcast", team);
    if (t == NULL || !shmem_ready("shmem_broadcast"))
        return -1;
    if (PE_root < 0 || PE_root >= t->n) {
        shmem_error("shmem_broadcast", "PE_root %d is not in the team (0 .. %d)", PE_root,
                    t->n - 1);
        return -1;
    }
    if (t->my_pe == PE_root && dest != source && nelems)
        memmove(dest, source, nelems);   /* the root's dest gets the data too */
    return ok("shmem_broadcast", ordo_coll_bcast(t->comm, dest, nelems, t->pes[PE_root]));
}

int shmem_fcollectmem(shmem_team_t team, void *dest, const void *source, size_t nelems)
{
    struct shmem_team_s *t = shmem_team_of("shmem_fcollect", team);
    if (t == NULL || !shmem_ready("shmem_fcollect"))
        return -1;
    return ok("shmem_fcollect", ordo_coll_allgather(t->comm, source, nelems, dest));
}

int shmem_collectmem(shmem_team_t team, void *dest, const void *source, size_t nelems)
{
    struct shmem_team_s *t = shmem_team_of("shmem_collect", team);
    if (t == NULL || !shmem_ready("shmem_collect"))
        return -1;
    size_t *lens = malloc(2 * (size_t)t->n * sizeof(size_t));
    if (lens == NULL)
        return -1;
    size_t *displs = lens + t->n;
    int rc = ok("shmem_collect", ordo_coll_allgather(t->comm, &nelems, sizeof(nelems), lens));
    if (rc == 0) {
        size_t at = 0;
        for (int i = 0; i < t->n; i++)
            displs[i] = at, at += lens[i];
        rc = ok("shmem_collect",
                ordo_coll_allgatherv(t->comm, source, nelems, dest, lens, displs));
    }
    free(lens);
    return rc;
}

int shmem_alltoallmem(shmem_team_t team, void *dest, const void *source, size_t nelems)
{
    struct shmem_team_s *t = shmem_team_of("shmem_alltoall", team);
    if (t == NULL || !shmem_ready("shmem_alltoall"))
        return -1;
    return ok("shmem_alltoall", ordo_coll_alltoall(t->comm, source, nelems, dest));
}

#define DEF_COLL(N, T)                                                                       \
    int shmem_##N##_broadcast(shmem_team_t team, T *dest, const T *source, size_t nelems,    \
                              int PE_root)                                                   \
    {                                                                                        \
        return shmem_broadcastmem(team, dest, source, nelems * sizeof(T), PE_root);          \
    }                                                                                        \
    int shmem_##N##_collect(shmem_team_t team, T *dest, const T *source, size_t nelems)      \
    {                                                                                        \
        return shmem_collectmem(team, dest, source, nelems * sizeof(T));                     \
    }                                                                                        \
    int shmem_##N##_fcollect(shmem_team_t team, T *dest, const T *source, size_t nelems)     \
    {                                                                                        \
        return shmem_fcollectmem(team, dest, source, nelems * sizeof(T));                    \
    }                                                                                        \
    int shmem_##N##_alltoall(shmem_team_t team, T *dest, const T *source, size_t nelems)     \
    {                                                                                        \
        return shmem_alltoallmem(team, dest, source, nelems * sizeof(T));                    \
    }
ORDO_SHMEM_RMA_TYPES(DEF_COLL)

/* ------------------------------------------------------------ reductions */

typedef void (*combine_fn)(void *acc, const void *in, size_t n);

/* Over an ordo context of n members (a team's, or an active set's). */
static int reduce_over(const char *routine, ordo_comm_h comm, int n, void *dest,
                       const void *source, size_t nreduce, size_t size, combine_fn combine)
{
    if (nreduce && size > SIZE_MAX / nreduce / (size_t)n) {
        shmem_error(routine, "%zu elements from %d PEs overflow", nreduce, n);
        return -1;
    }
    size_t bytes = nreduce * size;
    char *all = malloc((size_t)n * bytes + 1);
    if (all == NULL) {
        shmem_error(routine, "no memory to gather %d x %zu bytes", n, bytes);
        return -1;
    }
    int rc = ok(routine, ordo_coll_allgather(comm, source, bytes, all));
    if (rc == 0) {
        for (int i = 1; i < n; i++)
            combine(all, all + (size_t)i * bytes, nreduce);
        memcpy(dest, all, bytes);   /* dest may be source: everything was gathered first */
    }
    free(all);
    return rc;
}

static int reduce(const char *routine, shmem_team_t team, void *dest, const void *source,
                  size_t nreduce, size_t size, combine_fn combine)
{
    struct shmem_team_s *t = shmem_team_of(routine, team);
    if (t == NULL || !shmem_ready(routine))
        return -1;
    return reduce_over(routine, t->comm, t->n, dest, source, nreduce, size, combine);
}

#define COMBINE_FN(N, T, OP, EXPR)                                                           \
    static void combine_##N##_##OP(void *acc, const void *in, size_t n)                      \
    {                                                                                        \
        T *a = acc;                                                                          \
        const T *b = in;                                                                     \
        for (size_t k = 0; k < n; k++)                                                       \
            a[k] = (T)(EXPR);                                                                \
    }
#define COMBINE(N, T, OP, EXPR)                                                              \
    COMBINE_FN(N, T, OP, EXPR)                                                               \
    int shmem_##N##_##OP##_reduce(shmem_team_t team, T *dest, const T *source,               \
                                  size_t nreduce)                                            \
    {                                                                                        \
        return reduce("shmem_" #N "_" #OP "_reduce", team, dest, source, nreduce, sizeof(T), \
                      combine_##N##_##OP);                                                   \
    }

#define DEF_REDUCE_BIT(N, T)                                                                 \
    COMBINE(N, T, and, a[k] & b[k]) COMBINE(N, T, or, a[k] | b[k])                           \
    COMBINE(N, T, xor, a[k] ^ b[k])
/* Integer sums and products wrap (computed unsigned: a signed overflow
 * would be undefined in C); floating ones are IEEE's. */
#define DEF_REDUCE_INT(N, T)                                                                 \
    COMBINE(N, T, max, b[k] > a[k] ? b[k] : a[k])                                            \
    COMBINE(N, T, min, b[k] < a[k] ? b[k] : a[k])                                            \
    COMBINE(N, T, sum, (unsigned long long)a[k] + (unsigned long long)b[k])                  \
    COMBINE(N, T, prod, (unsigned long long)a[k] * (unsigned long long)b[k])
#define DEF_REDUCE_FLOAT(N, T)                                                               \
    COMBINE(N, T, max, b[k] > a[k] ? b[k] : a[k])                                            \
    COMBINE(N, T, min, b[k] < a[k] ? b[k] : a[k])                                            \
    COMBINE(N, T, sum, a[k] + b[k]) COMBINE(N, T, prod, a[k] * b[k])
/* ORDO_SHMEM_ARITH_REDUCE_TYPES (shmem.h), split by kind */
#define INT_REDUCE_TYPES(X)                                                                  \
    X(char, char) X(schar, signed char) X(short, short) X(int, int) X(long, long)            \
    X(longlong, long long) X(ptrdiff, ptrdiff_t) X(uchar, unsigned char)                     \
    X(ushort, unsigned short) X(uint, unsigned int) X(ulong, unsigned long)                  \
    X(ulonglong, unsigned long long) X(int8, int8_t) X(int16, int16_t) X(int32, int32_t)     \
    X(int64, int64_t) X(uint8, uint8_t) X(uint16, uint16_t) X(uint32, uint32_t)              \
    X(uint64, uint64_t) X(size, size_t)
#define FLOAT_REDUCE_TYPES(X) X(float, float) X(double, double) X(longdouble, long double)
#define DEF_REDUCE_COMPLEX(N, T)                                                             \
    COMBINE(N, T, sum, a[k] + b[k]) COMBINE(N, T, prod, a[k] * b[k])
ORDO_SHMEM_BITWISE_REDUCE_TYPES(DEF_REDUCE_BIT)
INT_REDUCE_TYPES(DEF_REDUCE_INT)
FLOAT_REDUCE_TYPES(DEF_REDUCE_FLOAT)
DEF_REDUCE_COMPLEX(complexd, double _Complex)
DEF_REDUCE_COMPLEX(complexf, float _Complex)

/* ------------------------------------------------ team alltoalls (strided) */

int shmem_alltoallsmem(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst,
                       ptrdiff_t sst, size_t nelems)
{
    struct shmem_team_s *t = shmem_team_of("shmem_alltoalls", team);
    if (t == NULL || !shmem_ready("shmem_alltoalls"))
        return -1;
    return shmem_alltoalls_over("shmem_alltoalls", t->comm, t->n, dest, source, dst, sst,
                                nelems, 1);
}

#define DEF_ALLTOALLS(N, T)                                                                  \
    int shmem_##N##_alltoalls(shmem_team_t team, T *dest, const T *source, ptrdiff_t dst,    \
                              ptrdiff_t sst, size_t nelems)                                  \
    {                                                                                        \
        struct shmem_team_s *t = shmem_team_of("shmem_" #N "_alltoalls", team);              \
        if (t == NULL || !shmem_ready("shmem_" #N "_alltoalls"))                             \
            return -1;                                                                       \
        return shmem_alltoalls_over("shmem_" #N "_alltoalls", t->comm, t->n, dest, source,   \
                                    dst, sst, nelems, sizeof(T));                            \
    }
ORDO_SHMEM_RMA_TYPES(DEF_ALLTOALLS)

/* ---------------------------------------- active-set reductions (deprecated) */

/* pWrk and pSync are the program's and stay untouched (see active.c). */
#define TO_ALL(N, T, OP)                                                                     \
    void shmem_##N##_##OP##_to_all(T *dest, const T *source, int nreduce, int PE_start,      \
                                   int logPE_stride, int PE_size, T *pWrk, long *pSync)      \
    {                                                                                        \
        (void)pWrk, (void)pSync;                                                             \
        const char *routine = "shmem_" #N "_" #OP "_to_all";                                 \
        if (nreduce < 0) {                                                                   \
            shmem_error(routine, "nreduce %d is negative: nothing done", nreduce);           \
            return;                                                                          \
        }                                                                                    \
        ordo_comm_h c;                                                                       \
        if (shmem_active_set(routine, PE_start, logPE_stride, PE_size, &c) == 0)             \
            reduce_over(routine, c, PE_size, dest, source, (size_t)nreduce, sizeof(T),      \
                        combine_##N##_##OP);                                                 \
    }
/* the team reductions have no bitwise forms for signed types: */
#define TO_ALL_BIT(N, T)                                                                     \
    COMBINE_FN(N, T, and, a[k] & b[k]) COMBINE_FN(N, T, or, a[k] | b[k])                     \
    COMBINE_FN(N, T, xor, a[k] ^ b[k])                                                       \
    TO_ALL(N, T, and) TO_ALL(N, T, or) TO_ALL(N, T, xor)
#define TO_ALL_ORDERED(N, T) TO_ALL(N, T, max) TO_ALL(N, T, min)
#define TO_ALL_ARITH(N, T) TO_ALL(N, T, sum) TO_ALL(N, T, prod)
#define TO_ALL_INT_TYPES(X) X(short, short) X(int, int) X(long, long) X(longlong, long long)
#define TO_ALL_FLOAT_TYPES(X) X(float, float) X(double, double) X(longdouble, long double)
TO_ALL_INT_TYPES(TO_ALL_BIT)
TO_ALL_INT_TYPES(TO_ALL_ORDERED)
TO_ALL_INT_TYPES(TO_ALL_ARITH)
TO_ALL_FLOAT_TYPES(TO_ALL_ORDERED)
TO_ALL_FLOAT_TYPES(TO_ALL_ARITH)
TO_ALL_ARITH(complexd, double _Complex)
TO_ALL_ARITH(complexf, float _Complex)
