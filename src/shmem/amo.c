/* OpenSHMEM atomic memory operations on ordo's remote atomics: every AMO
 * type is a 4- or 8-byte word, so each is done on the unsigned integer of
 * its width (two's complement makes add and the bitwise operators the same
 * for signed types; fetch, set and swap move bits, so float and double
 * need nothing more). */
#include <string.h>

#include "shmem_internal.h"

static int amo(const char *routine, shmem_ctx_t ctx, ordo_atomic_op_t op, size_t width,
               const void *value, const void *compare, void *result, const void *dest, int pe,
               int nbi)
{
    size_t off = 0;
    ordo_stream_h s;
    ordo_region_h r = NULL;
    if (!shmem_ready(routine) || (s = shmem_ctx_stream(routine, ctx)) == NULL ||
        (pe = shmem_ctx_world_pe(routine, ctx, pe)) < 0 ||
        !shmem_symmetric(routine, dest, width, &r, &off))
        return 0;
    ordo_atomic_type_t type = width == 4 ? ORDO_UINT32 : ORDO_UINT64;
    ordo_status_t st = nbi ? ordo_atomic_nb(s, op, type, value, compare, result, r, pe, off,
                                            0, NULL)
                           : ordo_atomic(s, op, type, value, compare, result, r, pe, off, 0);
    if (st != ORDO_OK && st != ORDO_INPROGRESS) {
        shmem_error(routine, "%s", ordo_status_string(st));
        return 0;
    }
    return 1;
}

_Static_assert(sizeof(int) == 4 && sizeof(long) == 8 && sizeof(long long) == 8 &&
               sizeof(size_t) == 8 && sizeof(ptrdiff_t) == 8 && sizeof(float) == 4 &&
               sizeof(double) == 8, "every AMO type is a 4- or 8-byte word here");

/* fetch: an add of zero that returns the old value; set: a swap whose old
 * value is dropped. */
#define DEF_AMO_EXT(N, T)                                                                    \
    T shmem_ctx_##N##_atomic_fetch(shmem_ctx_t ctx, const T *source, int pe)                 \
    {                                                                                        \
        T zero, old;                                                                         \
        memset(&zero, 0, sizeof(T));                                                         \
        memset(&old, 0, sizeof(T));                                                          \
        amo("shmem_" #N "_atomic_fetch", ctx, ORDO_ATOMIC_ADD, sizeof(T), &zero, NULL, &old, \
            source, pe, 0);                                                                  \
        return old;                                                                          \
    }                                                                                        \
    T shmem_##N##_atomic_fetch(const T *source, int pe)                                      \
    {                                                                                        \
        return shmem_ctx_##N##_atomic_fetch(SHMEM_CTX_DEFAULT, source, pe);                  \
    }                                                                                        \
    void shmem_ctx_##N##_atomic_set(shmem_ctx_t ctx, T *dest, T value, int pe)               \
    {                                                                                        \
        T old;                                                                               \
        amo("shmem_" #N "_atomic_set", ctx, ORDO_ATOMIC_SWAP, sizeof(T), &value, NULL, &old, \
            dest, pe, 0);                                                                    \
    }                                                                                        \
    void shmem_##N##_atomic_set(T *dest, T value, int pe)                                    \
    {                                                                                        \
        shmem_ctx_##N##_atomic_set(SHMEM_CTX_DEFAULT, dest, value, pe);                      \
    }                                                                                        \
    T shmem_ctx_##N##_atomic_swap(shmem_ctx_t ctx, T *dest, T value, int pe)                 \
    {                                                                                        \
        T old;                                                                               \
        memset(&old, 0, sizeof(T));                                                          \
        amo("shmem_" #N "_atomic_swap", ctx, ORDO_ATOMIC_SWAP, sizeof(T), &value, NULL, &old, \
            dest, pe, 0);                                                                    \
        return old;                                                                          \
    }                                                                                        \
    T shmem_##N##_atomic_swap(T *dest, T value, int pe)                                      \
    {                                                                                        \
        return shmem_ctx_##N##_atomic_swap(SHMEM_CTX_DEFAULT, dest, value, pe);              \
    }                                                                                        \
    void shmem_ctx_##N##_atomic_fetch_nbi(shmem_ctx_t ctx, T *fetch, const T *source,        \
                                          int pe)                                            \
    {                                                                                        \
        static const T zero;                                                                 \
        amo("shmem_" #N "_atomic_fetch_nbi", ctx, ORDO_ATOMIC_ADD, sizeof(T), &zero, NULL,   \
            fetch, source, pe, 1);                                                           \
    }                                                                                        \
    void shmem_##N##_atomic_fetch_nbi(T *fetch, const T *source, int pe)                     \
    {                                                                                        \
        shmem_ctx_##N##_atomic_fetch_nbi(SHMEM_CTX_DEFAULT, fetch, source, pe);              \
    }                                                                                        \
    void shmem_ctx_##N##_atomic_swap_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value,        \
                                         int pe)                                             \
    {                                                                                        \
        amo("shmem_" #N "_atomic_swap_nbi", ctx, ORDO_ATOMIC_SWAP, sizeof(T), &value, NULL,  \
            fetch, dest, pe, 1);                                                             \
    }                                                                                        \
    void shmem_##N##_atomic_swap_nbi(T *fetch, T *dest, T value, int pe)                     \
    {                                                                                        \
        shmem_ctx_##N##_atomic_swap_nbi(SHMEM_CTX_DEFAULT, fetch, dest, value, pe);          \
    }

#define DEF_AMO_STD(N, T)                                                                    \
    DEF_AMO_EXT(N, T)                                                                        \
    T shmem_ctx_##N##_atomic_compare_swap(shmem_ctx_t ctx, T *dest, T cond, T value, int pe) \
    {                                                                                        \
        T old = 0;                                                                           \
        amo("shmem_" #N "_atomic_compare_swap", ctx, ORDO_ATOMIC_CSWAP, sizeof(T), &value,   \
            &cond, &old, dest, pe, 0);                                                       \
        return old;                                                                          \
    }                                                                                        \
    T shmem_##N##_atomic_compare_swap(T *dest, T cond, T value, int pe)                      \
    {                                                                                        \
        return shmem_ctx_##N##_atomic_compare_swap(SHMEM_CTX_DEFAULT, dest, cond, value, pe); \
    }                                                                                        \
    T shmem_ctx_##N##_atomic_fetch_add(shmem_ctx_t ctx, T *dest, T value, int pe)            \
    {                                                                                        \
        T old = 0;                                                                           \
        amo("shmem_" #N "_atomic_fetch_add", ctx, ORDO_ATOMIC_ADD, sizeof(T), &value, NULL,  \
            &old, dest, pe, 0);                                                              \
        return old;                                                                          \
    }                                                                                        \
    T shmem_##N##_atomic_fetch_add(T *dest, T value, int pe)                                 \
    {                                                                                        \
        return shmem_ctx_##N##_atomic_fetch_add(SHMEM_CTX_DEFAULT, dest, value, pe);         \
    }                                                                                        \
    void shmem_ctx_##N##_atomic_add(shmem_ctx_t ctx, T *dest, T value, int pe)               \
    {                                                                                        \
        amo("shmem_" #N "_atomic_add", ctx, ORDO_ATOMIC_ADD, sizeof(T), &value, NULL, NULL,  \
            dest, pe, 0);                                                                    \
    }                                                                                        \
    void shmem_##N##_atomic_add(T *dest, T value, int pe)                                    \
    {                                                                                        \
        shmem_ctx_##N##_atomic_add(SHMEM_CTX_DEFAULT, dest, value, pe);                      \
    }                                                                                        \
    T shmem_ctx_##N##_atomic_fetch_inc(shmem_ctx_t ctx, T *dest, int pe)                     \
    {                                                                                        \
        return shmem_ctx_##N##_atomic_fetch_add(ctx, dest, (T)1, pe);                        \
    }                                                                                        \
    T shmem_##N##_atomic_fetch_inc(T *dest, int pe)                                          \
    {                                                                                        \
        return shmem_ctx_##N##_atomic_fetch_inc(SHMEM_CTX_DEFAULT, dest, pe);                \
    }                                                                                        \
    void shmem_ctx_##N##_atomic_inc(shmem_ctx_t ctx, T *dest, int pe)                        \
    {                                                                                        \
        shmem_ctx_##N##_atomic_add(ctx, dest, (T)1, pe);                                     \
    }                                                                                        \
    void shmem_##N##_atomic_inc(T *dest, int pe)                                             \
    {                                                                                        \
        shmem_ctx_##N##_atomic_inc(SHMEM_CTX_DEFAULT, dest, pe);                             \
    }                                                                                        \
    void shmem_ctx_##N##_atomic_compare_swap_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T cond, \
                                                 T value, int pe)                            \
    {                                                                                        \
        /* value and cond are read when the operation starts: ordo copies them */           \
        amo("shmem_" #N "_atomic_compare_swap_nbi", ctx, ORDO_ATOMIC_CSWAP, sizeof(T),       \
            &value, &cond, fetch, dest, pe, 1);                                              \
    }                                                                                        \
    void shmem_##N##_atomic_compare_swap_nbi(T *fetch, T *dest, T cond, T value, int pe)     \
    {                                                                                        \
        shmem_ctx_##N##_atomic_compare_swap_nbi(SHMEM_CTX_DEFAULT, fetch, dest, cond, value, \
                                                pe);                                         \
    }                                                                                        \
    void shmem_ctx_##N##_atomic_fetch_add_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value,   \
                                              int pe)                                        \
    {                                                                                        \
        amo("shmem_" #N "_atomic_fetch_add_nbi", ctx, ORDO_ATOMIC_ADD, sizeof(T), &value,    \
            NULL, fetch, dest, pe, 1);                                                       \
    }                                                                                        \
    void shmem_##N##_atomic_fetch_add_nbi(T *fetch, T *dest, T value, int pe)                \
    {                                                                                        \
        shmem_ctx_##N##_atomic_fetch_add_nbi(SHMEM_CTX_DEFAULT, fetch, dest, value, pe);     \
    }                                                                                        \
    void shmem_ctx_##N##_atomic_fetch_inc_nbi(shmem_ctx_t ctx, T *fetch, T *dest, int pe)    \
    {                                                                                        \
        shmem_ctx_##N##_atomic_fetch_add_nbi(ctx, fetch, dest, (T)1, pe);                    \
    }                                                                                        \
    void shmem_##N##_atomic_fetch_inc_nbi(T *fetch, T *dest, int pe)                         \
    {                                                                                        \
        shmem_ctx_##N##_atomic_fetch_inc_nbi(SHMEM_CTX_DEFAULT, fetch, dest, pe);            \
    }

#define DEF_AMO_BIT1(N, T, OP, ORDO_OP)                                                      \
    T shmem_ctx_##N##_atomic_fetch_##OP(shmem_ctx_t ctx, T *dest, T value, int pe)           \
    {                                                                                        \
        T old = 0;                                                                           \
        amo("shmem_" #N "_atomic_fetch_" #OP, ctx, ORDO_OP, sizeof(T), &value, NULL, &old,   \
            dest, pe, 0);                                                                    \
        return old;                                                                          \
    }                                                                                        \
    T shmem_##N##_atomic_fetch_##OP(T *dest, T value, int pe)                                \
    {                                                                                        \
        return shmem_ctx_##N##_atomic_fetch_##OP(SHMEM_CTX_DEFAULT, dest, value, pe);        \
    }                                                                                        \
    void shmem_ctx_##N##_atomic_##OP(shmem_ctx_t ctx, T *dest, T value, int pe)              \
    {                                                                                        \
        amo("shmem_" #N "_atomic_" #OP, ctx, ORDO_OP, sizeof(T), &value, NULL, NULL, dest,   \
            pe, 0);                                                                          \
    }                                                                                        \
    void shmem_##N##_atomic_##OP(T *dest, T value, int pe)                                   \
    {                                                                                        \
        shmem_ctx_##N##_atomic_##OP(SHMEM_CTX_DEFAULT, dest, value, pe);                     \
    }                                                                                        \
    void shmem_ctx_##N##_atomic_fetch_##OP##_nbi(shmem_ctx_t ctx, T *fetch, T *dest,         \
                                                 T value, int pe)                            \
    {                                                                                        \
        amo("shmem_" #N "_atomic_fetch_" #OP "_nbi", ctx, ORDO_OP, sizeof(T), &value, NULL,  \
            fetch, dest, pe, 1);                                                             \
    }                                                                                        \
    void shmem_##N##_atomic_fetch_##OP##_nbi(T *fetch, T *dest, T value, int pe)             \
    {                                                                                        \
        shmem_ctx_##N##_atomic_fetch_##OP##_nbi(SHMEM_CTX_DEFAULT, fetch, dest, value, pe);  \
    }
#define DEF_AMO_BIT(N, T)                                                                    \
    DEF_AMO_BIT1(N, T, and, ORDO_ATOMIC_AND)                                                 \
    DEF_AMO_BIT1(N, T, or, ORDO_ATOMIC_OR)                                                   \
    DEF_AMO_BIT1(N, T, xor, ORDO_ATOMIC_XOR)

ORDO_SHMEM_AMO_TYPES(DEF_AMO_STD)
ORDO_SHMEM_EXT_AMO_TYPES(DEF_AMO_EXT)
ORDO_SHMEM_BITWISE_AMO_TYPES(DEF_AMO_BIT)
