/* OpenSHMEM 1.5 on ordo (libordo-shmem): a PE is an ordo rank, the
 * symmetric heap an ordo region, a context an ordo stream, a team an ordo
 * context.  Programs include <shmem.h> (ordo-oshcc adds the directory) and
 * are started by ordorun or a site's launcher like any ordo program.
 *
 * What this library provides and leaves out is listed in docs/shmem.md.
 * Errors: the routines the standard gives a return value report through it;
 * those it does not (put, get, atomics on a non-symmetric address or a PE
 * outside the job) log an error naming the routine and what was wrong and
 * do nothing — they never crash the program.
 *
 * ordo extensions (shmemx.h style, named SHMEMX_): the ordering mode of a
 * context, SHMEMX_CTX_ORDER_STRICT / _DEFAULT / _RELAXED in the options of
 * shmem_ctx_create.  Without one a context orders what OpenSHMEM asks and
 * no more: nothing between fences (ordo's relaxed mode). */
#ifndef ORDO_SHMEM_H
#define ORDO_SHMEM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SHMEM_MAJOR_VERSION 1
#define SHMEM_MINOR_VERSION 5
#define _SHMEM_MAJOR_VERSION SHMEM_MAJOR_VERSION
#define _SHMEM_MINOR_VERSION SHMEM_MINOR_VERSION
#define SHMEM_MAX_NAME_LEN 256
#define SHMEM_VENDOR_STRING "ordo"

#define SHMEM_THREAD_SINGLE     0
#define SHMEM_THREAD_FUNNELED   1
#define SHMEM_THREAD_SERIALIZED 2
#define SHMEM_THREAD_MULTIPLE   3

#define SHMEM_CMP_EQ 0
#define SHMEM_CMP_NE 1
#define SHMEM_CMP_GT 2
#define SHMEM_CMP_GE 3
#define SHMEM_CMP_LT 4
#define SHMEM_CMP_LE 5

#define SHMEM_SIGNAL_SET 0
#define SHMEM_SIGNAL_ADD 1

#define SHMEM_CTX_SERIALIZED (1L << 0)
#define SHMEM_CTX_PRIVATE    (1L << 1)
#define SHMEM_CTX_NOSTORE    (1L << 2)
/* ordo extension: the context's ordering mode (at most one). */
#define SHMEMX_CTX_ORDER_STRICT  (1L << 8)
#define SHMEMX_CTX_ORDER_DEFAULT (1L << 9)
#define SHMEMX_CTX_ORDER_RELAXED (1L << 10)

#define SHMEM_MALLOC_ATOMICS_REMOTE (1L << 0)
#define SHMEM_MALLOC_SIGNAL_REMOTE  (1L << 1)

#define SHMEM_TEAM_NUM_CONTEXTS (1L << 0)

typedef struct shmem_ctx_s *shmem_ctx_t;
typedef struct shmem_team_s *shmem_team_t;
typedef struct {
    int num_contexts;
} shmem_team_config_t;

extern shmem_ctx_t const SHMEM_CTX_DEFAULT;
#define SHMEM_CTX_INVALID ((shmem_ctx_t)0)
extern shmem_team_t const SHMEM_TEAM_WORLD;
extern shmem_team_t const SHMEM_TEAM_SHARED;
#define SHMEM_TEAM_INVALID ((shmem_team_t)0)

/* ------------------------------------------------------------ library */

void shmem_init(void);
int  shmem_init_thread(int requested, int *provided);
void shmem_query_thread(int *provided);
void shmem_finalize(void);
void shmem_global_exit(int status);
int  shmem_my_pe(void);
int  shmem_n_pes(void);
int  shmem_pe_accessible(int pe);
int  shmem_addr_accessible(const void *addr, int pe);
void *shmem_ptr(const void *dest, int pe);
void shmem_info_get_version(int *major, int *minor);
void shmem_info_get_name(char *name);

/* ------------------------------------------------------ symmetric heap */

/* Collective over every PE, in the same order with the same arguments; a
 * barrier on the way out.  The heap's size is SHMEM_SYMMETRIC_SIZE bytes
 * (K, M, G suffixes; default 128M). */
void *shmem_malloc(size_t size);
void *shmem_malloc_with_hints(size_t size, long hints);
void *shmem_calloc(size_t count, size_t size);
void *shmem_align(size_t alignment, size_t size);
void *shmem_realloc(void *ptr, size_t size);
void  shmem_free(void *ptr);

/* ------------------------------------------------------ teams, contexts */

int  shmem_team_my_pe(shmem_team_t team);
int  shmem_team_n_pes(shmem_team_t team);
int  shmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t *config);
int  shmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team);
int  shmem_team_split_strided(shmem_team_t parent_team, int start, int stride, int size,
                              const shmem_team_config_t *config, long config_mask,
                              shmem_team_t *new_team);
/* The parent as a grid xrange PEs wide: *xaxis_team the PEs of this PE's
 * row, *yaxis_team those of its column. */
int  shmem_team_split_2d(shmem_team_t parent_team, int xrange,
                         const shmem_team_config_t *xaxis_config, long xaxis_mask,
                         shmem_team_t *xaxis_team, const shmem_team_config_t *yaxis_config,
                         long yaxis_mask, shmem_team_t *yaxis_team);
void shmem_team_destroy(shmem_team_t team);
int  shmem_team_sync(shmem_team_t team);

int  shmem_ctx_create(long options, shmem_ctx_t *ctx);
int  shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t *ctx);
void shmem_ctx_destroy(shmem_ctx_t ctx);
int  shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t *team);

/* ----------------------------------------------------- type lists */

/* X(TYPENAME, TYPE) over the standard RMA types. */
#define ORDO_SHMEM_RMA_TYPES(X)                                                        \
    X(float, float) X(double, double) X(longdouble, long double) X(char, char)         \
    X(schar, signed char) X(short, short) X(int, int) X(long, long)                    \
    X(longlong, long long) X(uchar, unsigned char) X(ushort, unsigned short)           \
    X(uint, unsigned int) X(ulong, unsigned long) X(ulonglong, unsigned long long)     \
    X(int8, int8_t) X(int16, int16_t) X(int32, int32_t) X(int64, int64_t)              \
    X(uint8, uint8_t) X(uint16, uint16_t) X(uint32, uint32_t) X(uint64, uint64_t)      \
    X(size, size_t) X(ptrdiff, ptrdiff_t)
/* The standard AMO types (every AMO). */
#define ORDO_SHMEM_AMO_TYPES(X)                                                        \
    X(int, int) X(long, long) X(longlong, long long) X(uint, unsigned int)             \
    X(ulong, unsigned long) X(ulonglong, unsigned long long) X(int32, int32_t)         \
    X(int64, int64_t) X(uint32, uint32_t) X(uint64, uint64_t) X(size, size_t)          \
    X(ptrdiff, ptrdiff_t)
/* The extended AMO types beyond the standard ones (fetch, set, swap). */
#define ORDO_SHMEM_EXT_AMO_TYPES(X) X(float, float) X(double, double)
/* The bitwise AMO types. */
#define ORDO_SHMEM_BITWISE_AMO_TYPES(X)                                                \
    X(uint, unsigned int) X(ulong, unsigned long) X(ulonglong, unsigned long long)     \
    X(int32, int32_t) X(int64, int64_t) X(uint32, uint32_t) X(uint64, uint64_t)
/* The point-to-point synchronisation types. */
#define ORDO_SHMEM_P2P_SYNC_TYPES(X) ORDO_SHMEM_AMO_TYPES(X)
/* Reduction types, by operator class. */
#define ORDO_SHMEM_BITWISE_REDUCE_TYPES(X)                                             \
    X(uchar, unsigned char) X(ushort, unsigned short) X(uint, unsigned int)            \
    X(ulong, unsigned long) X(ulonglong, unsigned long long) X(int8, int8_t)           \
    X(int16, int16_t) X(int32, int32_t) X(int64, int64_t) X(uint8, uint8_t)            \
    X(uint16, uint16_t) X(uint32, uint32_t) X(uint64, uint64_t) X(size, size_t)
#define ORDO_SHMEM_ARITH_REDUCE_TYPES(X)                                               \
    X(char, char) X(schar, signed char) X(short, short) X(int, int) X(long, long)      \
    X(longlong, long long) X(ptrdiff, ptrdiff_t) X(uchar, unsigned char)               \
    X(ushort, unsigned short) X(uint, unsigned int) X(ulong, unsigned long)            \
    X(ulonglong, unsigned long long) X(int8, int8_t) X(int16, int16_t)                 \
    X(int32, int32_t) X(int64, int64_t) X(uint8, uint8_t) X(uint16, uint16_t)          \
    X(uint32, uint32_t) X(uint64, uint64_t) X(size, size_t) X(float, float)            \
    X(double, double) X(longdouble, long double)
/* Sizes of the sized routines (bits). */
#define ORDO_SHMEM_SIZES(X) X(8) X(16) X(32) X(64) X(128)

/* --------------------------------------------------------------- RMA */

#define ORDO_SHMEM_DECL_RMA(N, T)                                                           \
    void shmem_##N##_put(T *dest, const T *source, size_t nelems, int pe);                 \
    void shmem_ctx_##N##_put(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems,      \
                             int pe);                                                       \
    void shmem_##N##_get(T *dest, const T *source, size_t nelems, int pe);                 \
    void shmem_ctx_##N##_get(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems,      \
                             int pe);                                                       \
    void shmem_##N##_put_nbi(T *dest, const T *source, size_t nelems, int pe);             \
    void shmem_ctx_##N##_put_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems,  \
                                 int pe);                                                   \
    void shmem_##N##_get_nbi(T *dest, const T *source, size_t nelems, int pe);             \
    void shmem_ctx_##N##_get_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems,  \
                                 int pe);                                                   \
    void shmem_##N##_p(T *dest, T value, int pe);                                           \
    void shmem_ctx_##N##_p(shmem_ctx_t ctx, T *dest, T value, int pe);                      \
    T    shmem_##N##_g(const T *source, int pe);                                            \
    T    shmem_ctx_##N##_g(shmem_ctx_t ctx, const T *source, int pe);                       \
    void shmem_##N##_iput(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,          \
                          size_t nelems, int pe);                                           \
    void shmem_ctx_##N##_iput(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst,     \
                              ptrdiff_t sst, size_t nelems, int pe);                        \
    void shmem_##N##_iget(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,          \
                          size_t nelems, int pe);                                           \
    void shmem_ctx_##N##_iget(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst,     \
                              ptrdiff_t sst, size_t nelems, int pe);                        \
    void shmem_##N##_put_signal(T *dest, const T *source, size_t nelems, uint64_t *sig_addr,\
                                uint64_t signal, int sig_op, int pe);                       \
    void shmem_ctx_##N##_put_signal(shmem_ctx_t ctx, T *dest, const T *source,              \
                                    size_t nelems, uint64_t *sig_addr, uint64_t signal,     \
                                    int sig_op, int pe);                                    \
    void shmem_##N##_put_signal_nbi(T *dest, const T *source, size_t nelems,                \
                                    uint64_t *sig_addr, uint64_t signal, int sig_op,        \
                                    int pe);                                                \
    void shmem_ctx_##N##_put_signal_nbi(shmem_ctx_t ctx, T *dest, const T *source,          \
                                        size_t nelems, uint64_t *sig_addr, uint64_t signal, \
                                        int sig_op, int pe);
ORDO_SHMEM_RMA_TYPES(ORDO_SHMEM_DECL_RMA)

#define ORDO_SHMEM_DECL_SIZED(B)                                                            \
    void shmem_put##B(void *dest, const void *source, size_t nelems, int pe);              \
    void shmem_ctx_put##B(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,   \
                          int pe);                                                          \
    void shmem_get##B(void *dest, const void *source, size_t nelems, int pe);              \
    void shmem_ctx_get##B(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,   \
                          int pe);                                                          \
    void shmem_put##B##_nbi(void *dest, const void *source, size_t nelems, int pe);        \
    void shmem_ctx_put##B##_nbi(shmem_ctx_t ctx, void *dest, const void *source,            \
                                size_t nelems, int pe);                                     \
    void shmem_get##B##_nbi(void *dest, const void *source, size_t nelems, int pe);        \
    void shmem_ctx_get##B##_nbi(shmem_ctx_t ctx, void *dest, const void *source,            \
                                size_t nelems, int pe);                                     \
    void shmem_iput##B(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,       \
                       size_t nelems, int pe);                                              \
    void shmem_ctx_iput##B(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst,  \
                           ptrdiff_t sst, size_t nelems, int pe);                           \
    void shmem_iget##B(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,       \
                       size_t nelems, int pe);                                              \
    void shmem_ctx_iget##B(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst,  \
                           ptrdiff_t sst, size_t nelems, int pe);                           \
    void shmem_put##B##_signal(void *dest, const void *source, size_t nelems,               \
                               uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);    \
    void shmem_ctx_put##B##_signal(shmem_ctx_t ctx, void *dest, const void *source,         \
                                   size_t nelems, uint64_t *sig_addr, uint64_t signal,      \
                                   int sig_op, int pe);                                     \
    void shmem_put##B##_signal_nbi(void *dest, const void *source, size_t nelems,           \
                                   uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);\
    void shmem_ctx_put##B##_signal_nbi(shmem_ctx_t ctx, void *dest, const void *source,     \
                                       size_t nelems, uint64_t *sig_addr, uint64_t signal,  \
                                       int sig_op, int pe);
ORDO_SHMEM_SIZES(ORDO_SHMEM_DECL_SIZED)

void shmem_putmem(void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_putmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
void shmem_getmem(void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_getmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
void shmem_putmem_nbi(void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_putmem_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                          int pe);
void shmem_getmem_nbi(void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_getmem_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                          int pe);
void shmem_putmem_signal(void *dest, const void *source, size_t nelems, uint64_t *sig_addr,
                         uint64_t signal, int sig_op, int pe);
void shmem_ctx_putmem_signal(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                             uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
void shmem_putmem_signal_nbi(void *dest, const void *source, size_t nelems, uint64_t *sig_addr,
                             uint64_t signal, int sig_op, int pe);
void shmem_ctx_putmem_signal_nbi(shmem_ctx_t ctx, void *dest, const void *source,
                                 size_t nelems, uint64_t *sig_addr, uint64_t signal,
                                 int sig_op, int pe);
uint64_t shmem_signal_fetch(const uint64_t *sig_addr);
uint64_t shmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value);

/* -------------------------------------------------------------- AMOs */

#define ORDO_SHMEM_DECL_AMO_EXT(N, T)                                                       \
    T    shmem_##N##_atomic_fetch(const T *source, int pe);                                 \
    T    shmem_ctx_##N##_atomic_fetch(shmem_ctx_t ctx, const T *source, int pe);            \
    void shmem_##N##_atomic_set(T *dest, T value, int pe);                                  \
    void shmem_ctx_##N##_atomic_set(shmem_ctx_t ctx, T *dest, T value, int pe);             \
    T    shmem_##N##_atomic_swap(T *dest, T value, int pe);                                 \
    T    shmem_ctx_##N##_atomic_swap(shmem_ctx_t ctx, T *dest, T value, int pe);            \
    void shmem_##N##_atomic_fetch_nbi(T *fetch, const T *source, int pe);                   \
    void shmem_ctx_##N##_atomic_fetch_nbi(shmem_ctx_t ctx, T *fetch, const T *source,       \
                                          int pe);                                          \
    void shmem_##N##_atomic_swap_nbi(T *fetch, T *dest, T value, int pe);                   \
    void shmem_ctx_##N##_atomic_swap_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value,       \
                                         int pe);
#define ORDO_SHMEM_DECL_AMO_STD(N, T)                                                       \
    ORDO_SHMEM_DECL_AMO_EXT(N, T)                                                           \
    T    shmem_##N##_atomic_compare_swap(T *dest, T cond, T value, int pe);                 \
    T    shmem_ctx_##N##_atomic_compare_swap(shmem_ctx_t ctx, T *dest, T cond, T value,     \
                                             int pe);                                       \
    T    shmem_##N##_atomic_fetch_inc(T *dest, int pe);                                     \
    T    shmem_ctx_##N##_atomic_fetch_inc(shmem_ctx_t ctx, T *dest, int pe);                \
    void shmem_##N##_atomic_inc(T *dest, int pe);                                           \
    void shmem_ctx_##N##_atomic_inc(shmem_ctx_t ctx, T *dest, int pe);                      \
    T    shmem_##N##_atomic_fetch_add(T *dest, T value, int pe);                            \
    T    shmem_ctx_##N##_atomic_fetch_add(shmem_ctx_t ctx, T *dest, T value, int pe);       \
    void shmem_##N##_atomic_add(T *dest, T value, int pe);                                  \
    void shmem_ctx_##N##_atomic_add(shmem_ctx_t ctx, T *dest, T value, int pe);             \
    void shmem_##N##_atomic_compare_swap_nbi(T *fetch, T *dest, T cond, T value, int pe);   \
    void shmem_ctx_##N##_atomic_compare_swap_nbi(shmem_ctx_t ctx, T *fetch, T *dest,        \
                                                 T cond, T value, int pe);                  \
    void shmem_##N##_atomic_fetch_inc_nbi(T *fetch, T *dest, int pe);                       \
    void shmem_ctx_##N##_atomic_fetch_inc_nbi(shmem_ctx_t ctx, T *fetch, T *dest, int pe);  \
    void shmem_##N##_atomic_fetch_add_nbi(T *fetch, T *dest, T value, int pe);              \
    void shmem_ctx_##N##_atomic_fetch_add_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value,  \
                                              int pe);
#define ORDO_SHMEM_DECL_AMO_BIT1(N, T, OP)                                                  \
    T    shmem_##N##_atomic_fetch_##OP(T *dest, T value, int pe);                           \
    T    shmem_ctx_##N##_atomic_fetch_##OP(shmem_ctx_t ctx, T *dest, T value, int pe);      \
    void shmem_##N##_atomic_##OP(T *dest, T value, int pe);                                 \
    void shmem_ctx_##N##_atomic_##OP(shmem_ctx_t ctx, T *dest, T value, int pe);            \
    void shmem_##N##_atomic_fetch_##OP##_nbi(T *fetch, T *dest, T value, int pe);           \
    void shmem_ctx_##N##_atomic_fetch_##OP##_nbi(shmem_ctx_t ctx, T *fetch, T *dest,        \
                                                 T value, int pe);
#define ORDO_SHMEM_DECL_AMO_BIT(N, T)                                                       \
    ORDO_SHMEM_DECL_AMO_BIT1(N, T, and) ORDO_SHMEM_DECL_AMO_BIT1(N, T, or)                  \
    ORDO_SHMEM_DECL_AMO_BIT1(N, T, xor)
ORDO_SHMEM_AMO_TYPES(ORDO_SHMEM_DECL_AMO_STD)
ORDO_SHMEM_EXT_AMO_TYPES(ORDO_SHMEM_DECL_AMO_EXT)
ORDO_SHMEM_BITWISE_AMO_TYPES(ORDO_SHMEM_DECL_AMO_BIT)

/* ------------------------------------------------ memory ordering, sync */

void shmem_fence(void);
void shmem_ctx_fence(shmem_ctx_t ctx);
void shmem_quiet(void);
void shmem_ctx_quiet(shmem_ctx_t ctx);
void shmem_barrier_all(void);
void shmem_sync_all(void);

/* Distributed locks: lock is a symmetric long, zero before first use. */
void shmem_set_lock(long *lock);
void shmem_clear_lock(long *lock);
int  shmem_test_lock(long *lock);

#define ORDO_SHMEM_DECL_WAIT(N, T)                                                          \
    void   shmem_##N##_wait_until(T *ivar, int cmp, T cmp_value);                          \
    void   shmem_##N##_wait_until_all(T *ivars, size_t nelems, const int *status, int cmp,  \
                                      T cmp_value);                                         \
    size_t shmem_##N##_wait_until_any(T *ivars, size_t nelems, const int *status, int cmp,  \
                                      T cmp_value);                                         \
    size_t shmem_##N##_wait_until_some(T *ivars, size_t nelems, size_t *indices,            \
                                       const int *status, int cmp, T cmp_value);            \
    void   shmem_##N##_wait_until_all_vector(T *ivars, size_t nelems, const int *status,    \
                                             int cmp, T *cmp_values);                       \
    size_t shmem_##N##_wait_until_any_vector(T *ivars, size_t nelems, const int *status,    \
                                             int cmp, T *cmp_values);                       \
    size_t shmem_##N##_wait_until_some_vector(T *ivars, size_t nelems, size_t *indices,     \
                                              const int *status, int cmp, T *cmp_values);   \
    int    shmem_##N##_test(T *ivar, int cmp, T cmp_value);                                 \
    int    shmem_##N##_test_all(T *ivars, size_t nelems, const int *status, int cmp,        \
                                T cmp_value);                                               \
    size_t shmem_##N##_test_any(T *ivars, size_t nelems, const int *status, int cmp,        \
                                T cmp_value);                                               \
    size_t shmem_##N##_test_some(T *ivars, size_t nelems, size_t *indices,                  \
                                 const int *status, int cmp, T cmp_value);                  \
    int    shmem_##N##_test_all_vector(T *ivars, size_t nelems, const int *status, int cmp, \
                                       T *cmp_values);                                      \
    size_t shmem_##N##_test_any_vector(T *ivars, size_t nelems, const int *status, int cmp, \
                                       T *cmp_values);                                      \
    size_t shmem_##N##_test_some_vector(T *ivars, size_t nelems, size_t *indices,           \
                                        const int *status, int cmp, T *cmp_values);
ORDO_SHMEM_P2P_SYNC_TYPES(ORDO_SHMEM_DECL_WAIT)

/* ------------------------------------------------------- collectives */

/* On a team (SHMEM_TEAM_WORLD, SHMEM_TEAM_SHARED or a split); 0 on
 * success, nonzero otherwise.  dest and source are symmetric. */
int shmem_broadcastmem(shmem_team_t team, void *dest, const void *source, size_t nelems,
                       int PE_root);
int shmem_collectmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_fcollectmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_alltoallmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
#define ORDO_SHMEM_DECL_COLL(N, T)                                                          \
    int shmem_##N##_broadcast(shmem_team_t team, T *dest, const T *source, size_t nelems,   \
                              int PE_root);                                                 \
    int shmem_##N##_collect(shmem_team_t team, T *dest, const T *source, size_t nelems);    \
    int shmem_##N##_fcollect(shmem_team_t team, T *dest, const T *source, size_t nelems);   \
    int shmem_##N##_alltoall(shmem_team_t team, T *dest, const T *source, size_t nelems);
ORDO_SHMEM_RMA_TYPES(ORDO_SHMEM_DECL_COLL)

#define ORDO_SHMEM_DECL_REDUCE1(N, T, OP)                                                   \
    int shmem_##N##_##OP##_reduce(shmem_team_t team, T *dest, const T *source,              \
                                  size_t nreduce);
#define ORDO_SHMEM_DECL_REDUCE_BIT(N, T)                                                    \
    ORDO_SHMEM_DECL_REDUCE1(N, T, and) ORDO_SHMEM_DECL_REDUCE1(N, T, or)                    \
    ORDO_SHMEM_DECL_REDUCE1(N, T, xor)
#define ORDO_SHMEM_DECL_REDUCE_ARITH(N, T)                                                  \
    ORDO_SHMEM_DECL_REDUCE1(N, T, max) ORDO_SHMEM_DECL_REDUCE1(N, T, min)                   \
    ORDO_SHMEM_DECL_REDUCE1(N, T, sum) ORDO_SHMEM_DECL_REDUCE1(N, T, prod)
ORDO_SHMEM_BITWISE_REDUCE_TYPES(ORDO_SHMEM_DECL_REDUCE_BIT)
ORDO_SHMEM_ARITH_REDUCE_TYPES(ORDO_SHMEM_DECL_REDUCE_ARITH)

/* Strided all-to-all: dst and sst are strides in elements. */
int shmem_alltoallsmem(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst,
                       ptrdiff_t sst, size_t nelems);
#define ORDO_SHMEM_DECL_ALLTOALLS(N, T)                                                     \
    int shmem_##N##_alltoalls(shmem_team_t team, T *dest, const T *source, ptrdiff_t dst,   \
                              ptrdiff_t sst, size_t nelems);
ORDO_SHMEM_RMA_TYPES(ORDO_SHMEM_DECL_ALLTOALLS)

#ifndef __cplusplus   /* C's complex types (C++'s std::complex is another type) */
int shmem_complexd_sum_reduce(shmem_team_t team, double _Complex *dest,
                              const double _Complex *source, size_t nreduce);
int shmem_complexd_prod_reduce(shmem_team_t team, double _Complex *dest,
                               const double _Complex *source, size_t nreduce);
int shmem_complexf_sum_reduce(shmem_team_t team, float _Complex *dest,
                              const float _Complex *source, size_t nreduce);
int shmem_complexf_prod_reduce(shmem_team_t team, float _Complex *dest,
                               const float _Complex *source, size_t nreduce);
#endif

/* ------------------------------------- deprecated (OpenSHMEM 1.5 Annex) */

/* Active sets: the PEs PE_start + i * 2^logPE_stride, 0 <= i < PE_size,
 * every one of them calling.  pSync and pWrk are accepted and left as
 * they are (ordo's collectives need neither); the sizes below are what
 * programs allocate. */
#define SHMEM_SYNC_VALUE              (-1L)
#define SHMEM_BARRIER_SYNC_SIZE       1
#define SHMEM_BCAST_SYNC_SIZE         1
#define SHMEM_COLLECT_SYNC_SIZE       1
#define SHMEM_REDUCE_SYNC_SIZE        1
#define SHMEM_ALLTOALL_SYNC_SIZE      1
#define SHMEM_ALLTOALLS_SYNC_SIZE     1
#define SHMEM_SYNC_SIZE               1
#define SHMEM_REDUCE_MIN_WRKDATA_SIZE 1
#define _SHMEM_SYNC_VALUE              SHMEM_SYNC_VALUE
#define _SHMEM_BARRIER_SYNC_SIZE       SHMEM_BARRIER_SYNC_SIZE
#define _SHMEM_BCAST_SYNC_SIZE         SHMEM_BCAST_SYNC_SIZE
#define _SHMEM_COLLECT_SYNC_SIZE       SHMEM_COLLECT_SYNC_SIZE
#define _SHMEM_REDUCE_SYNC_SIZE        SHMEM_REDUCE_SYNC_SIZE
#define _SHMEM_ALLTOALL_SYNC_SIZE      SHMEM_ALLTOALL_SYNC_SIZE
#define _SHMEM_ALLTOALLS_SYNC_SIZE     SHMEM_ALLTOALLS_SYNC_SIZE
#define _SHMEM_SYNC_SIZE               SHMEM_SYNC_SIZE
#define _SHMEM_REDUCE_MIN_WRKDATA_SIZE SHMEM_REDUCE_MIN_WRKDATA_SIZE
#define _SHMEM_CMP_EQ SHMEM_CMP_EQ
#define _SHMEM_CMP_NE SHMEM_CMP_NE
#define _SHMEM_CMP_GT SHMEM_CMP_GT
#define _SHMEM_CMP_GE SHMEM_CMP_GE
#define _SHMEM_CMP_LT SHMEM_CMP_LT
#define _SHMEM_CMP_LE SHMEM_CMP_LE
#define _SHMEM_THREAD_SINGLE     SHMEM_THREAD_SINGLE
#define _SHMEM_THREAD_FUNNELED   SHMEM_THREAD_FUNNELED
#define _SHMEM_THREAD_SERIALIZED SHMEM_THREAD_SERIALIZED
#define _SHMEM_THREAD_MULTIPLE   SHMEM_THREAD_MULTIPLE
#define _SHMEM_MAX_NAME_LEN      SHMEM_MAX_NAME_LEN
#define _SHMEM_VENDOR_STRING     SHMEM_VENDOR_STRING

void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync);
/* The root's dest is not written (the team broadcast writes it). */
#define ORDO_SHMEM_DECL_ACTIVE(B)                                                           \
    void shmem_broadcast##B(void *dest, const void *source, size_t nelems, int PE_root,    \
                            int PE_start, int logPE_stride, int PE_size, long *pSync);      \
    void shmem_collect##B(void *dest, const void *source, size_t nelems, int PE_start,     \
                          int logPE_stride, int PE_size, long *pSync);                      \
    void shmem_fcollect##B(void *dest, const void *source, size_t nelems, int PE_start,    \
                           int logPE_stride, int PE_size, long *pSync);                     \
    void shmem_alltoall##B(void *dest, const void *source, size_t nelems, int PE_start,    \
                           int logPE_stride, int PE_size, long *pSync);                     \
    void shmem_alltoalls##B(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,  \
                            size_t nelems, int PE_start, int logPE_stride, int PE_size,     \
                            long *pSync);
ORDO_SHMEM_DECL_ACTIVE(32)
ORDO_SHMEM_DECL_ACTIVE(64)

#define ORDO_SHMEM_DECL_TO_ALL1(N, T, OP)                                                   \
    void shmem_##N##_##OP##_to_all(T *dest, const T *source, int nreduce, int PE_start,     \
                                   int logPE_stride, int PE_size, T *pWrk, long *pSync);
#define ORDO_SHMEM_DECL_TO_ALL_INT(N, T)                                                    \
    ORDO_SHMEM_DECL_TO_ALL1(N, T, and) ORDO_SHMEM_DECL_TO_ALL1(N, T, or)                    \
    ORDO_SHMEM_DECL_TO_ALL1(N, T, xor) ORDO_SHMEM_DECL_TO_ALL1(N, T, max)                   \
    ORDO_SHMEM_DECL_TO_ALL1(N, T, min) ORDO_SHMEM_DECL_TO_ALL1(N, T, sum)                   \
    ORDO_SHMEM_DECL_TO_ALL1(N, T, prod)
#define ORDO_SHMEM_DECL_TO_ALL_FLOAT(N, T)                                                  \
    ORDO_SHMEM_DECL_TO_ALL1(N, T, max) ORDO_SHMEM_DECL_TO_ALL1(N, T, min)                   \
    ORDO_SHMEM_DECL_TO_ALL1(N, T, sum) ORDO_SHMEM_DECL_TO_ALL1(N, T, prod)
ORDO_SHMEM_DECL_TO_ALL_INT(short, short)
ORDO_SHMEM_DECL_TO_ALL_INT(int, int)
ORDO_SHMEM_DECL_TO_ALL_INT(long, long)
ORDO_SHMEM_DECL_TO_ALL_INT(longlong, long long)
ORDO_SHMEM_DECL_TO_ALL_FLOAT(float, float)
ORDO_SHMEM_DECL_TO_ALL_FLOAT(double, double)
ORDO_SHMEM_DECL_TO_ALL_FLOAT(longdouble, long double)
#ifndef __cplusplus
ORDO_SHMEM_DECL_TO_ALL1(complexd, double _Complex, sum)
ORDO_SHMEM_DECL_TO_ALL1(complexd, double _Complex, prod)
ORDO_SHMEM_DECL_TO_ALL1(complexf, float _Complex, sum)
ORDO_SHMEM_DECL_TO_ALL1(complexf, float _Complex, prod)
#endif

/* The names before OpenSHMEM 1.2 (start_pes's npes is ignored, as the
 * standard allows); the cache routines do nothing (memory is coherent). */
void  start_pes(int npes);
int   _my_pe(void);
int   _num_pes(void);
void *shmalloc(size_t size);
void  shfree(void *ptr);
void *shrealloc(void *ptr, size_t size);
void *shmemalign(size_t alignment, size_t size);
void  shmem_clear_cache_inv(void);
void  shmem_set_cache_inv(void);
void  shmem_clear_cache_line_inv(void *dest);
void  shmem_set_cache_line_inv(void *dest);
void  shmem_udcflush(void);
void  shmem_udcflush_line(void *dest);
/* The AMO names before OpenSHMEM 1.4 (shmem_int_fadd for
 * shmem_int_atomic_fetch_add, and so on), on the default context. */
#define ORDO_SHMEM_DECL_OLD_AMO_EXT(N, T)                                                   \
    T    shmem_##N##_fetch(const T *source, int pe);                                        \
    void shmem_##N##_set(T *dest, T value, int pe);                                         \
    T    shmem_##N##_swap(T *dest, T value, int pe);
#define ORDO_SHMEM_DECL_OLD_AMO(N, T)                                                       \
    ORDO_SHMEM_DECL_OLD_AMO_EXT(N, T)                                                       \
    T    shmem_##N##_cswap(T *dest, T cond, T value, int pe);                               \
    T    shmem_##N##_finc(T *dest, int pe);                                                 \
    void shmem_##N##_inc(T *dest, int pe);                                                  \
    T    shmem_##N##_fadd(T *dest, T value, int pe);                                        \
    void shmem_##N##_add(T *dest, T value, int pe);
ORDO_SHMEM_DECL_OLD_AMO(int, int)
ORDO_SHMEM_DECL_OLD_AMO(long, long)
ORDO_SHMEM_DECL_OLD_AMO(longlong, long long)
ORDO_SHMEM_DECL_OLD_AMO_EXT(float, float)
ORDO_SHMEM_DECL_OLD_AMO_EXT(double, double)
long shmem_swap(long *dest, long value, int pe);

/* shmem_wait(ivar, v): shmem_wait_until(ivar, SHMEM_CMP_NE, v). */
void  shmem_wait(long *ivar, long cmp_value);
void  shmem_short_wait(short *ivar, short cmp_value);
void  shmem_int_wait(int *ivar, int cmp_value);
void  shmem_long_wait(long *ivar, long cmp_value);
void  shmem_longlong_wait(long long *ivar, long long cmp_value);


/* ------------------------------------------- C11 type-generic interfaces */

/* shmem_put(dest, source, nelems, pe), shmem_put(ctx, dest, source,
 * nelems, pe), shmem_atomic_fetch_add(dest, value, pe), shmem_sum_reduce(
 * team, dest, source, nreduce), ...: the routine for the type dest (or
 * ivar) points to, chosen at compile time, over the standard's types that
 * are distinct C types (int32_t and the like are typedefs of them). */
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__cplusplus)
/* chosen for a type the interface does not cover: the call does not compile */
void ordo_shmem_generic_type_not_supported(void);
#define ORDO_SHMEM_NARG(...) ORDO_SHMEM_NARG_(__VA_ARGS__, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define ORDO_SHMEM_NARG_(_1, _2, _3, _4, _5, _6, _7, _8, _9, N, ...) N
#define ORDO_SHMEM_CAT(a, b) ORDO_SHMEM_CAT_(a, b)
#define ORDO_SHMEM_CAT_(a, b) a##b
#define ORDO_SHMEM_BY_NARG(name, ...) \
    ORDO_SHMEM_CAT(name, ORDO_SHMEM_NARG(__VA_ARGS__))(__VA_ARGS__)
#define ORDO_SHMEM_NONE default: ordo_shmem_generic_type_not_supported

#define shmem_put(...) ORDO_SHMEM_BY_NARG(ordo_shmem_put_, __VA_ARGS__)
#define ordo_shmem_put_4(a0, a1, a2, a3) \
    _Generic(*(a0), float: shmem_float_put, double: shmem_double_put, long double: shmem_longdouble_put, char: shmem_char_put, signed char: shmem_schar_put, short: shmem_short_put, int: shmem_int_put, long: shmem_long_put, long long: shmem_longlong_put, unsigned char: shmem_uchar_put, unsigned short: shmem_ushort_put, unsigned int: shmem_uint_put, unsigned long: shmem_ulong_put, unsigned long long: shmem_ulonglong_put, ORDO_SHMEM_NONE)(a0, a1, a2, a3)
#define ordo_shmem_put_5(c, a0, a1, a2, a3) \
    _Generic(*(a0), float: shmem_ctx_float_put, double: shmem_ctx_double_put, long double: shmem_ctx_longdouble_put, char: shmem_ctx_char_put, signed char: shmem_ctx_schar_put, short: shmem_ctx_short_put, int: shmem_ctx_int_put, long: shmem_ctx_long_put, long long: shmem_ctx_longlong_put, unsigned char: shmem_ctx_uchar_put, unsigned short: shmem_ctx_ushort_put, unsigned int: shmem_ctx_uint_put, unsigned long: shmem_ctx_ulong_put, unsigned long long: shmem_ctx_ulonglong_put, ORDO_SHMEM_NONE)(c, a0, a1, a2, a3)
#define shmem_get(...) ORDO_SHMEM_BY_NARG(ordo_shmem_get_, __VA_ARGS__)
#define ordo_shmem_get_4(a0, a1, a2, a3) \
    _Generic(*(a0), float: shmem_float_get, double: shmem_double_get, long double: shmem_longdouble_get, char: shmem_char_get, signed char: shmem_schar_get, short: shmem_short_get, int: shmem_int_get, long: shmem_long_get, long long: shmem_longlong_get, unsigned char: shmem_uchar_get, unsigned short: shmem_ushort_get, unsigned int: shmem_uint_get, unsigned long: shmem_ulong_get, unsigned long long: shmem_ulonglong_get, ORDO_SHMEM_NONE)(a0, a1, a2, a3)
#define ordo_shmem_get_5(c, a0, a1, a2, a3) \
    _Generic(*(a0), float: shmem_ctx_float_get, double: shmem_ctx_double_get, long double: shmem_ctx_longdouble_get, char: shmem_ctx_char_get, signed char: shmem_ctx_schar_get, short: shmem_ctx_short_get, int: shmem_ctx_int_get, long: shmem_ctx_long_get, long long: shmem_ctx_longlong_get, unsigned char: shmem_ctx_uchar_get, unsigned short: shmem_ctx_ushort_get, unsigned int: shmem_ctx_uint_get, unsigned long: shmem_ctx_ulong_get, unsigned long long: shmem_ctx_ulonglong_get, ORDO_SHMEM_NONE)(c, a0, a1, a2, a3)
#define shmem_put_nbi(...) ORDO_SHMEM_BY_NARG(ordo_shmem_put_nbi_, __VA_ARGS__)
#define ordo_shmem_put_nbi_4(a0, a1, a2, a3) \
    _Generic(*(a0), float: shmem_float_put_nbi, double: shmem_double_put_nbi, long double: shmem_longdouble_put_nbi, char: shmem_char_put_nbi, signed char: shmem_schar_put_nbi, short: shmem_short_put_nbi, int: shmem_int_put_nbi, long: shmem_long_put_nbi, long long: shmem_longlong_put_nbi, unsigned char: shmem_uchar_put_nbi, unsigned short: shmem_ushort_put_nbi, unsigned int: shmem_uint_put_nbi, unsigned long: shmem_ulong_put_nbi, unsigned long long: shmem_ulonglong_put_nbi, ORDO_SHMEM_NONE)(a0, a1, a2, a3)
#define ordo_shmem_put_nbi_5(c, a0, a1, a2, a3) \
    _Generic(*(a0), float: shmem_ctx_float_put_nbi, double: shmem_ctx_double_put_nbi, long double: shmem_ctx_longdouble_put_nbi, char: shmem_ctx_char_put_nbi, signed char: shmem_ctx_schar_put_nbi, short: shmem_ctx_short_put_nbi, int: shmem_ctx_int_put_nbi, long: shmem_ctx_long_put_nbi, long long: shmem_ctx_longlong_put_nbi, unsigned char: shmem_ctx_uchar_put_nbi, unsigned short: shmem_ctx_ushort_put_nbi, unsigned int: shmem_ctx_uint_put_nbi, unsigned long: shmem_ctx_ulong_put_nbi, unsigned long long: shmem_ctx_ulonglong_put_nbi, ORDO_SHMEM_NONE)(c, a0, a1, a2, a3)
#define shmem_get_nbi(...) ORDO_SHMEM_BY_NARG(ordo_shmem_get_nbi_, __VA_ARGS__)
#define ordo_shmem_get_nbi_4(a0, a1, a2, a3) \
    _Generic(*(a0), float: shmem_float_get_nbi, double: shmem_double_get_nbi, long double: shmem_longdouble_get_nbi, char: shmem_char_get_nbi, signed char: shmem_schar_get_nbi, short: shmem_short_get_nbi, int: shmem_int_get_nbi, long: shmem_long_get_nbi, long long: shmem_longlong_get_nbi, unsigned char: shmem_uchar_get_nbi, unsigned short: shmem_ushort_get_nbi, unsigned int: shmem_uint_get_nbi, unsigned long: shmem_ulong_get_nbi, unsigned long long: shmem_ulonglong_get_nbi, ORDO_SHMEM_NONE)(a0, a1, a2, a3)
#define ordo_shmem_get_nbi_5(c, a0, a1, a2, a3) \
    _Generic(*(a0), float: shmem_ctx_float_get_nbi, double: shmem_ctx_double_get_nbi, long double: shmem_ctx_longdouble_get_nbi, char: shmem_ctx_char_get_nbi, signed char: shmem_ctx_schar_get_nbi, short: shmem_ctx_short_get_nbi, int: shmem_ctx_int_get_nbi, long: shmem_ctx_long_get_nbi, long long: shmem_ctx_longlong_get_nbi, unsigned char: shmem_ctx_uchar_get_nbi, unsigned short: shmem_ctx_ushort_get_nbi, unsigned int: shmem_ctx_uint_get_nbi, unsigned long: shmem_ctx_ulong_get_nbi, unsigned long long: shmem_ctx_ulonglong_get_nbi, ORDO_SHMEM_NONE)(c, a0, a1, a2, a3)
#define shmem_p(...) ORDO_SHMEM_BY_NARG(ordo_shmem_p_, __VA_ARGS__)
#define ordo_shmem_p_3(a0, a1, a2) \
    _Generic(*(a0), float: shmem_float_p, double: shmem_double_p, long double: shmem_longdouble_p, char: shmem_char_p, signed char: shmem_schar_p, short: shmem_short_p, int: shmem_int_p, long: shmem_long_p, long long: shmem_longlong_p, unsigned char: shmem_uchar_p, unsigned short: shmem_ushort_p, unsigned int: shmem_uint_p, unsigned long: shmem_ulong_p, unsigned long long: shmem_ulonglong_p, ORDO_SHMEM_NONE)(a0, a1, a2)
#define ordo_shmem_p_4(c, a0, a1, a2) \
    _Generic(*(a0), float: shmem_ctx_float_p, double: shmem_ctx_double_p, long double: shmem_ctx_longdouble_p, char: shmem_ctx_char_p, signed char: shmem_ctx_schar_p, short: shmem_ctx_short_p, int: shmem_ctx_int_p, long: shmem_ctx_long_p, long long: shmem_ctx_longlong_p, unsigned char: shmem_ctx_uchar_p, unsigned short: shmem_ctx_ushort_p, unsigned int: shmem_ctx_uint_p, unsigned long: shmem_ctx_ulong_p, unsigned long long: shmem_ctx_ulonglong_p, ORDO_SHMEM_NONE)(c, a0, a1, a2)
#define shmem_g(...) ORDO_SHMEM_BY_NARG(ordo_shmem_g_, __VA_ARGS__)
#define ordo_shmem_g_2(a0, a1) \
    _Generic(*(a0), float: shmem_float_g, double: shmem_double_g, long double: shmem_longdouble_g, char: shmem_char_g, signed char: shmem_schar_g, short: shmem_short_g, int: shmem_int_g, long: shmem_long_g, long long: shmem_longlong_g, unsigned char: shmem_uchar_g, unsigned short: shmem_ushort_g, unsigned int: shmem_uint_g, unsigned long: shmem_ulong_g, unsigned long long: shmem_ulonglong_g, ORDO_SHMEM_NONE)(a0, a1)
#define ordo_shmem_g_3(c, a0, a1) \
    _Generic(*(a0), float: shmem_ctx_float_g, double: shmem_ctx_double_g, long double: shmem_ctx_longdouble_g, char: shmem_ctx_char_g, signed char: shmem_ctx_schar_g, short: shmem_ctx_short_g, int: shmem_ctx_int_g, long: shmem_ctx_long_g, long long: shmem_ctx_longlong_g, unsigned char: shmem_ctx_uchar_g, unsigned short: shmem_ctx_ushort_g, unsigned int: shmem_ctx_uint_g, unsigned long: shmem_ctx_ulong_g, unsigned long long: shmem_ctx_ulonglong_g, ORDO_SHMEM_NONE)(c, a0, a1)
#define shmem_iput(...) ORDO_SHMEM_BY_NARG(ordo_shmem_iput_, __VA_ARGS__)
#define ordo_shmem_iput_6(a0, a1, a2, a3, a4, a5) \
    _Generic(*(a0), float: shmem_float_iput, double: shmem_double_iput, long double: shmem_longdouble_iput, char: shmem_char_iput, signed char: shmem_schar_iput, short: shmem_short_iput, int: shmem_int_iput, long: shmem_long_iput, long long: shmem_longlong_iput, unsigned char: shmem_uchar_iput, unsigned short: shmem_ushort_iput, unsigned int: shmem_uint_iput, unsigned long: shmem_ulong_iput, unsigned long long: shmem_ulonglong_iput, ORDO_SHMEM_NONE)(a0, a1, a2, a3, a4, a5)
#define ordo_shmem_iput_7(c, a0, a1, a2, a3, a4, a5) \
    _Generic(*(a0), float: shmem_ctx_float_iput, double: shmem_ctx_double_iput, long double: shmem_ctx_longdouble_iput, char: shmem_ctx_char_iput, signed char: shmem_ctx_schar_iput, short: shmem_ctx_short_iput, int: shmem_ctx_int_iput, long: shmem_ctx_long_iput, long long: shmem_ctx_longlong_iput, unsigned char: shmem_ctx_uchar_iput, unsigned short: shmem_ctx_ushort_iput, unsigned int: shmem_ctx_uint_iput, unsigned long: shmem_ctx_ulong_iput, unsigned long long: shmem_ctx_ulonglong_iput, ORDO_SHMEM_NONE)(c, a0, a1, a2, a3, a4, a5)
#define shmem_iget(...) ORDO_SHMEM_BY_NARG(ordo_shmem_iget_, __VA_ARGS__)
#define ordo_shmem_iget_6(a0, a1, a2, a3, a4, a5) \
    _Generic(*(a0), float: shmem_float_iget, double: shmem_double_iget, long double: shmem_longdouble_iget, char: shmem_char_iget, signed char: shmem_schar_iget, short: shmem_short_iget, int: shmem_int_iget, long: shmem_long_iget, long long: shmem_longlong_iget, unsigned char: shmem_uchar_iget, unsigned short: shmem_ushort_iget, unsigned int: shmem_uint_iget, unsigned long: shmem_ulong_iget, unsigned long long: shmem_ulonglong_iget, ORDO_SHMEM_NONE)(a0, a1, a2, a3, a4, a5)
#define ordo_shmem_iget_7(c, a0, a1, a2, a3, a4, a5) \
    _Generic(*(a0), float: shmem_ctx_float_iget, double: shmem_ctx_double_iget, long double: shmem_ctx_longdouble_iget, char: shmem_ctx_char_iget, signed char: shmem_ctx_schar_iget, short: shmem_ctx_short_iget, int: shmem_ctx_int_iget, long: shmem_ctx_long_iget, long long: shmem_ctx_longlong_iget, unsigned char: shmem_ctx_uchar_iget, unsigned short: shmem_ctx_ushort_iget, unsigned int: shmem_ctx_uint_iget, unsigned long: shmem_ctx_ulong_iget, unsigned long long: shmem_ctx_ulonglong_iget, ORDO_SHMEM_NONE)(c, a0, a1, a2, a3, a4, a5)
#define shmem_put_signal(...) ORDO_SHMEM_BY_NARG(ordo_shmem_put_signal_, __VA_ARGS__)
#define ordo_shmem_put_signal_7(a0, a1, a2, a3, a4, a5, a6) \
    _Generic(*(a0), float: shmem_float_put_signal, double: shmem_double_put_signal, long double: shmem_longdouble_put_signal, char: shmem_char_put_signal, signed char: shmem_schar_put_signal, short: shmem_short_put_signal, int: shmem_int_put_signal, long: shmem_long_put_signal, long long: shmem_longlong_put_signal, unsigned char: shmem_uchar_put_signal, unsigned short: shmem_ushort_put_signal, unsigned int: shmem_uint_put_signal, unsigned long: shmem_ulong_put_signal, unsigned long long: shmem_ulonglong_put_signal, ORDO_SHMEM_NONE)(a0, a1, a2, a3, a4, a5, a6)
#define ordo_shmem_put_signal_8(c, a0, a1, a2, a3, a4, a5, a6) \
    _Generic(*(a0), float: shmem_ctx_float_put_signal, double: shmem_ctx_double_put_signal, long double: shmem_ctx_longdouble_put_signal, char: shmem_ctx_char_put_signal, signed char: shmem_ctx_schar_put_signal, short: shmem_ctx_short_put_signal, int: shmem_ctx_int_put_signal, long: shmem_ctx_long_put_signal, long long: shmem_ctx_longlong_put_signal, unsigned char: shmem_ctx_uchar_put_signal, unsigned short: shmem_ctx_ushort_put_signal, unsigned int: shmem_ctx_uint_put_signal, unsigned long: shmem_ctx_ulong_put_signal, unsigned long long: shmem_ctx_ulonglong_put_signal, ORDO_SHMEM_NONE)(c, a0, a1, a2, a3, a4, a5, a6)
#define shmem_put_signal_nbi(...) ORDO_SHMEM_BY_NARG(ordo_shmem_put_signal_nbi_, __VA_ARGS__)
#define ordo_shmem_put_signal_nbi_7(a0, a1, a2, a3, a4, a5, a6) \
    _Generic(*(a0), float: shmem_float_put_signal_nbi, double: shmem_double_put_signal_nbi, long double: shmem_longdouble_put_signal_nbi, char: shmem_char_put_signal_nbi, signed char: shmem_schar_put_signal_nbi, short: shmem_short_put_signal_nbi, int: shmem_int_put_signal_nbi, long: shmem_long_put_signal_nbi, long long: shmem_longlong_put_signal_nbi, unsigned char: shmem_uchar_put_signal_nbi, unsigned short: shmem_ushort_put_signal_nbi, unsigned int: shmem_uint_put_signal_nbi, unsigned long: shmem_ulong_put_signal_nbi, unsigned long long: shmem_ulonglong_put_signal_nbi, ORDO_SHMEM_NONE)(a0, a1, a2, a3, a4, a5, a6)
#define ordo_shmem_put_signal_nbi_8(c, a0, a1, a2, a3, a4, a5, a6) \
    _Generic(*(a0), float: shmem_ctx_float_put_signal_nbi, double: shmem_ctx_double_put_signal_nbi, long double: shmem_ctx_longdouble_put_signal_nbi, char: shmem_ctx_char_put_signal_nbi, signed char: shmem_ctx_schar_put_signal_nbi, short: shmem_ctx_short_put_signal_nbi, int: shmem_ctx_int_put_signal_nbi, long: shmem_ctx_long_put_signal_nbi, long long: shmem_ctx_longlong_put_signal_nbi, unsigned char: shmem_ctx_uchar_put_signal_nbi, unsigned short: shmem_ctx_ushort_put_signal_nbi, unsigned int: shmem_ctx_uint_put_signal_nbi, unsigned long: shmem_ctx_ulong_put_signal_nbi, unsigned long long: shmem_ctx_ulonglong_put_signal_nbi, ORDO_SHMEM_NONE)(c, a0, a1, a2, a3, a4, a5, a6)
#define shmem_atomic_fetch(...) ORDO_SHMEM_BY_NARG(ordo_shmem_atomic_fetch_, __VA_ARGS__)
#define ordo_shmem_atomic_fetch_2(a0, a1) \
    _Generic(*(a0), int: shmem_int_atomic_fetch, long: shmem_long_atomic_fetch, long long: shmem_longlong_atomic_fetch, unsigned int: shmem_uint_atomic_fetch, unsigned long: shmem_ulong_atomic_fetch, unsigned long long: shmem_ulonglong_atomic_fetch, float: shmem_float_atomic_fetch, double: shmem_double_atomic_fetch, ORDO_SHMEM_NONE)(a0, a1)
#define ordo_shmem_atomic_fetch_3(c, a0, a1) \
    _Generic(*(a0), int: shmem_ctx_int_atomic_fetch, long: shmem_ctx_long_atomic_fetch, long long: shmem_ctx_longlong_atomic_fetch, unsigned int: shmem_ctx_uint_atomic_fetch, unsigned long: shmem_ctx_ulong_atomic_fetch, unsigned long long: shmem_ctx_ulonglong_atomic_fetch, float: shmem_ctx_float_atomic_fetch, double: shmem_ctx_double_atomic_fetch, ORDO_SHMEM_NONE)(c, a0, a1)
#define shmem_atomic_set(...) ORDO_SHMEM_BY_NARG(ordo_shmem_atomic_set_, __VA_ARGS__)
#define ordo_shmem_atomic_set_3(a0, a1, a2) \
    _Generic(*(a0), int: shmem_int_atomic_set, long: shmem_long_atomic_set, long long: shmem_longlong_atomic_set, unsigned int: shmem_uint_atomic_set, unsigned long: shmem_ulong_atomic_set, unsigned long long: shmem_ulonglong_atomic_set, float: shmem_float_atomic_set, double: shmem_double_atomic_set, ORDO_SHMEM_NONE)(a0, a1, a2)
#define ordo_shmem_atomic_set_4(c, a0, a1, a2) \
    _Generic(*(a0), int: shmem_ctx_int_atomic_set, long: shmem_ctx_long_atomic_set, long long: shmem_ctx_longlong_atomic_set, unsigned int: shmem_ctx_uint_atomic_set, unsigned long: shmem_ctx_ulong_atomic_set, unsigned long long: shmem_ctx_ulonglong_atomic_set, float: shmem_ctx_float_atomic_set, double: shmem_ctx_double_atomic_set, ORDO_SHMEM_NONE)(c, a0, a1, a2)
#define shmem_atomic_swap(...) ORDO_SHMEM_BY_NARG(ordo_shmem_atomic_swap_, __VA_ARGS__)
#define ordo_shmem_atomic_swap_3(a0, a1, a2) \
    _Generic(*(a0), int: shmem_int_atomic_swap, long: shmem_long_atomic_swap, long long: shmem_longlong_atomic_swap, unsigned int: shmem_uint_atomic_swap, unsigned long: shmem_ulong_atomic_swap, unsigned long long: shmem_ulonglong_atomic_swap, float: shmem_float_atomic_swap, double: shmem_double_atomic_swap, ORDO_SHMEM_NONE)(a0, a1, a2)
#define ordo_shmem_atomic_swap_4(c, a0, a1, a2) \
    _Generic(*(a0), int: shmem_ctx_int_atomic_swap, long: shmem_ctx_long_atomic_swap, long long: shmem_ctx_longlong_atomic_swap, unsigned int: shmem_ctx_uint_atomic_swap, unsigned long: shmem_ctx_ulong_atomic_swap, unsigned long long: shmem_ctx_ulonglong_atomic_swap, float: shmem_ctx_float_atomic_swap, double: shmem_ctx_double_atomic_swap, ORDO_SHMEM_NONE)(c, a0, a1, a2)
#define shmem_atomic_compare_swap(...) ORDO_SHMEM_BY_NARG(ordo_shmem_atomic_compare_swap_, __VA_ARGS__)
#define ordo_shmem_atomic_compare_swap_4(a0, a1, a2, a3) \
    _Generic(*(a0), int: shmem_int_atomic_compare_swap, long: shmem_long_atomic_compare_swap, long long: shmem_longlong_atomic_compare_swap, unsigned int: shmem_uint_atomic_compare_swap, unsigned long: shmem_ulong_atomic_compare_swap, unsigned long long: shmem_ulonglong_atomic_compare_swap, ORDO_SHMEM_NONE)(a0, a1, a2, a3)
#define ordo_shmem_atomic_compare_swap_5(c, a0, a1, a2, a3) \
    _Generic(*(a0), int: shmem_ctx_int_atomic_compare_swap, long: shmem_ctx_long_atomic_compare_swap, long long: shmem_ctx_longlong_atomic_compare_swap, unsigned int: shmem_ctx_uint_atomic_compare_swap, unsigned long: shmem_ctx_ulong_atomic_compare_swap, unsigned long long: shmem_ctx_ulonglong_atomic_compare_swap, ORDO_SHMEM_NONE)(c, a0, a1, a2, a3)
#define shmem_atomic_fetch_inc(...) ORDO_SHMEM_BY_NARG(ordo_shmem_atomic_fetch_inc_, __VA_ARGS__)
#define ordo_shmem_atomic_fetch_inc_2(a0, a1) \
    _Generic(*(a0), int: shmem_int_atomic_fetch_inc, long: shmem_long_atomic_fetch_inc, long long: shmem_longlong_atomic_fetch_inc, unsigned int: shmem_uint_atomic_fetch_inc, unsigned long: shmem_ulong_atomic_fetch_inc, unsigned long long: shmem_ulonglong_atomic_fetch_inc, ORDO_SHMEM_NONE)(a0, a1)
#define ordo_shmem_atomic_fetch_inc_3(c, a0, a1) \
    _Generic(*(a0), int: shmem_ctx_int_atomic_fetch_inc, long: shmem_ctx_long_atomic_fetch_inc, long long: shmem_ctx_longlong_atomic_fetch_inc, unsigned int: shmem_ctx_uint_atomic_fetch_inc, unsigned long: shmem_ctx_ulong_atomic_fetch_inc, unsigned long long: shmem_ctx_ulonglong_atomic_fetch_inc, ORDO_SHMEM_NONE)(c, a0, a1)
#define shmem_atomic_inc(...) ORDO_SHMEM_BY_NARG(ordo_shmem_atomic_inc_, __VA_ARGS__)
#define ordo_shmem_atomic_inc_2(a0, a1) \
    _Generic(*(a0), int: shmem_int_atomic_inc, long: shmem_long_atomic_inc, long long: shmem_longlong_atomic_inc, unsigned int: shmem_uint_atomic_inc, unsigned long: shmem_ulong_atomic_inc, unsigned long long: shmem_ulonglong_atomic_inc, ORDO_SHMEM_NONE)(a0, a1)
#define ordo_shmem_atomic_inc_3(c, a0, a1) \
    _Generic(*(a0), int: shmem_ctx_int_atomic_inc, long: shmem_ctx_long_atomic_inc, long long: shmem_ctx_longlong_atomic_inc, unsigned int: shmem_ctx_uint_atomic_inc, unsigned long: shmem_ctx_ulong_atomic_inc, unsigned long long: shmem_ctx_ulonglong_atomic_inc, ORDO_SHMEM_NONE)(c, a0, a1)
#define shmem_atomic_fetch_add(...) ORDO_SHMEM_BY_NARG(ordo_shmem_atomic_fetch_add_, __VA_ARGS__)
#define ordo_shmem_atomic_fetch_add_3(a0, a1, a2) \
    _Generic(*(a0), int: shmem_int_atomic_fetch_add, long: shmem_long_atomic_fetch_add, long long: shmem_longlong_atomic_fetch_add, unsigned int: shmem_uint_atomic_fetch_add, unsigned long: shmem_ulong_atomic_fetch_add, unsigned long long: shmem_ulonglong_atomic_fetch_add, ORDO_SHMEM_NONE)(a0, a1, a2)
#define ordo_shmem_atomic_fetch_add_4(c, a0, a1, a2) \
    _Generic(*(a0), int: shmem_ctx_int_atomic_fetch_add, long: shmem_ctx_long_atomic_fetch_add, long long: shmem_ctx_longlong_atomic_fetch_add, unsigned int: shmem_ctx_uint_atomic_fetch_add, unsigned long: shmem_ctx_ulong_atomic_fetch_add, unsigned long long: shmem_ctx_ulonglong_atomic_fetch_add, ORDO_SHMEM_NONE)(c, a0, a1, a2)
#define shmem_atomic_add(...) ORDO_SHMEM_BY_NARG(ordo_shmem_atomic_add_, __VA_ARGS__)
#define ordo_shmem_atomic_add_3(a0, a1, a2) \
    _Generic(*(a0), int: shmem_int_atomic_add, long: shmem_long_atomic_add, long long: shmem_longlong_atomic_add, unsigned int: shmem_uint_atomic_add, unsigned long: shmem_ulong_atomic_add, unsigned long long: shmem_ulonglong_atomic_add, ORDO_SHMEM_NONE)(a0, a1, a2)
#define ordo_shmem_atomic_add_4(c, a0, a1, a2) \
    _Generic(*(a0), int: shmem_ctx_int_atomic_add, long: shmem_ctx_long_atomic_add, long long: shmem_ctx_longlong_atomic_add, unsigned int: shmem_ctx_uint_atomic_add, unsigned long: shmem_ctx_ulong_atomic_add, unsigned long long: shmem_ctx_ulonglong_atomic_add, ORDO_SHMEM_NONE)(c, a0, a1, a2)
#define shmem_atomic_fetch_and(...) ORDO_SHMEM_BY_NARG(ordo_shmem_atomic_fetch_and_, __VA_ARGS__)
#define ordo_shmem_atomic_fetch_and_3(a0, a1, a2) \
    _Generic(*(a0), unsigned int: shmem_uint_atomic_fetch_and, unsigned long: shmem_ulong_atomic_fetch_and, unsigned long long: shmem_ulonglong_atomic_fetch_and, ORDO_SHMEM_NONE)(a0, a1, a2)
#define ordo_shmem_atomic_fetch_and_4(c, a0, a1, a2) \
    _Generic(*(a0), unsigned int: shmem_ctx_uint_atomic_fetch_and, unsigned long: shmem_ctx_ulong_atomic_fetch_and, unsigned long long: shmem_ctx_ulonglong_atomic_fetch_and, ORDO_SHMEM_NONE)(c, a0, a1, a2)
#define shmem_atomic_and(...) ORDO_SHMEM_BY_NARG(ordo_shmem_atomic_and_, __VA_ARGS__)
#define ordo_shmem_atomic_and_3(a0, a1, a2) \
    _Generic(*(a0), unsigned int: shmem_uint_atomic_and, unsigned long: shmem_ulong_atomic_and, unsigned long long: shmem_ulonglong_atomic_and, ORDO_SHMEM_NONE)(a0, a1, a2)
#define ordo_shmem_atomic_and_4(c, a0, a1, a2) \
    _Generic(*(a0), unsigned int: shmem_ctx_uint_atomic_and, unsigned long: shmem_ctx_ulong_atomic_and, unsigned long long: shmem_ctx_ulonglong_atomic_and, ORDO_SHMEM_NONE)(c, a0, a1, a2)
#define shmem_atomic_fetch_or(...) ORDO_SHMEM_BY_NARG(ordo_shmem_atomic_fetch_or_, __VA_ARGS__)
#define ordo_shmem_atomic_fetch_or_3(a0, a1, a2) \
    _Generic(*(a0), unsigned int: shmem_uint_atomic_fetch_or, unsigned long: shmem_ulong_atomic_fetch_or, unsigned long long: shmem_ulonglong_atomic_fetch_or, ORDO_SHMEM_NONE)(a0, a1, a2)
#define ordo_shmem_atomic_fetch_or_4(c, a0, a1, a2) \
    _Generic(*(a0), unsigned int: shmem_ctx_uint_atomic_fetch_or, unsigned long: shmem_ctx_ulong_atomic_fetch_or, unsigned long long: shmem_ctx_ulonglong_atomic_fetch_or, ORDO_SHMEM_NONE)(c, a0, a1, a2)
#define shmem_atomic_or(...) ORDO_SHMEM_BY_NARG(ordo_shmem_atomic_or_, __VA_ARGS__)
#define ordo_shmem_atomic_or_3(a0, a1, a2) \
    _Generic(*(a0), unsigned int: shmem_uint_atomic_or, unsigned long: shmem_ulong_atomic_or, unsigned long long: shmem_ulonglong_atomic_or, ORDO_SHMEM_NONE)(a0, a1, a2)
#define ordo_shmem_atomic_or_4(c, a0, a1, a2) \
    _Generic(*(a0), unsigned int: shmem_ctx_uint_atomic_or, unsigned long: shmem_ctx_ulong_atomic_or, unsigned long long: shmem_ctx_ulonglong_atomic_or, ORDO_SHMEM_NONE)(c, a0, a1, a2)
#define shmem_atomic_fetch_xor(...) ORDO_SHMEM_BY_NARG(ordo_shmem_atomic_fetch_xor_, __VA_ARGS__)
#define ordo_shmem_atomic_fetch_xor_3(a0, a1, a2) \
    _Generic(*(a0), unsigned int: shmem_uint_atomic_fetch_xor, unsigned long: shmem_ulong_atomic_fetch_xor, unsigned long long: shmem_ulonglong_atomic_fetch_xor, ORDO_SHMEM_NONE)(a0, a1, a2)
#define ordo_shmem_atomic_fetch_xor_4(c, a0, a1, a2) \
    _Generic(*(a0), unsigned int: shmem_ctx_uint_atomic_fetch_xor, unsigned long: shmem_ctx_ulong_atomic_fetch_xor, unsigned long long: shmem_ctx_ulonglong_atomic_fetch_xor, ORDO_SHMEM_NONE)(c, a0, a1, a2)
#define shmem_atomic_xor(...) ORDO_SHMEM_BY_NARG(ordo_shmem_atomic_xor_, __VA_ARGS__)
#define ordo_shmem_atomic_xor_3(a0, a1, a2) \
    _Generic(*(a0), unsigned int: shmem_uint_atomic_xor, unsigned long: shmem_ulong_atomic_xor, unsigned long long: shmem_ulonglong_atomic_xor, ORDO_SHMEM_NONE)(a0, a1, a2)
#define ordo_shmem_atomic_xor_4(c, a0, a1, a2) \
    _Generic(*(a0), unsigned int: shmem_ctx_uint_atomic_xor, unsigned long: shmem_ctx_ulong_atomic_xor, unsigned long long: shmem_ctx_ulonglong_atomic_xor, ORDO_SHMEM_NONE)(c, a0, a1, a2)
#define shmem_atomic_fetch_nbi(...) ORDO_SHMEM_BY_NARG(ordo_shmem_atomic_fetch_nbi_, __VA_ARGS__)
#define ordo_shmem_atomic_fetch_nbi_3(a0, a1, a2) \
    _Generic(*(a0), int: shmem_int_atomic_fetch_nbi, long: shmem_long_atomic_fetch_nbi, long long: shmem_longlong_atomic_fetch_nbi, unsigned int: shmem_uint_atomic_fetch_nbi, unsigned long: shmem_ulong_atomic_fetch_nbi, unsigned long long: shmem_ulonglong_atomic_fetch_nbi, float: shmem_float_atomic_fetch_nbi, double: shmem_double_atomic_fetch_nbi, ORDO_SHMEM_NONE)(a0, a1, a2)
#define ordo_shmem_atomic_fetch_nbi_4(c, a0, a1, a2) \
    _Generic(*(a0), int: shmem_ctx_int_atomic_fetch_nbi, long: shmem_ctx_long_atomic_fetch_nbi, long long: shmem_ctx_longlong_atomic_fetch_nbi, unsigned int: shmem_ctx_uint_atomic_fetch_nbi, unsigned long: shmem_ctx_ulong_atomic_fetch_nbi, unsigned long long: shmem_ctx_ulonglong_atomic_fetch_nbi, float: shmem_ctx_float_atomic_fetch_nbi, double: shmem_ctx_double_atomic_fetch_nbi, ORDO_SHMEM_NONE)(c, a0, a1, a2)
#define shmem_atomic_swap_nbi(...) ORDO_SHMEM_BY_NARG(ordo_shmem_atomic_swap_nbi_, __VA_ARGS__)
#define ordo_shmem_atomic_swap_nbi_4(a0, a1, a2, a3) \
    _Generic(*(a0), int: shmem_int_atomic_swap_nbi, long: shmem_long_atomic_swap_nbi, long long: shmem_longlong_atomic_swap_nbi, unsigned int: shmem_uint_atomic_swap_nbi, unsigned long: shmem_ulong_atomic_swap_nbi, unsigned long long: shmem_ulonglong_atomic_swap_nbi, float: shmem_float_atomic_swap_nbi, double: shmem_double_atomic_swap_nbi, ORDO_SHMEM_NONE)(a0, a1, a2, a3)
#define ordo_shmem_atomic_swap_nbi_5(c, a0, a1, a2, a3) \
    _Generic(*(a0), int: shmem_ctx_int_atomic_swap_nbi, long: shmem_ctx_long_atomic_swap_nbi, long long: shmem_ctx_longlong_atomic_swap_nbi, unsigned int: shmem_ctx_uint_atomic_swap_nbi, unsigned long: shmem_ctx_ulong_atomic_swap_nbi, unsigned long long: shmem_ctx_ulonglong_atomic_swap_nbi, float: shmem_ctx_float_atomic_swap_nbi, double: shmem_ctx_double_atomic_swap_nbi, ORDO_SHMEM_NONE)(c, a0, a1, a2, a3)
#define shmem_atomic_compare_swap_nbi(...) ORDO_SHMEM_BY_NARG(ordo_shmem_atomic_compare_swap_nbi_, __VA_ARGS__)
#define ordo_shmem_atomic_compare_swap_nbi_5(a0, a1, a2, a3, a4) \
    _Generic(*(a0), int: shmem_int_atomic_compare_swap_nbi, long: shmem_long_atomic_compare_swap_nbi, long long: shmem_longlong_atomic_compare_swap_nbi, unsigned int: shmem_uint_atomic_compare_swap_nbi, unsigned long: shmem_ulong_atomic_compare_swap_nbi, unsigned long long: shmem_ulonglong_atomic_compare_swap_nbi, ORDO_SHMEM_NONE)(a0, a1, a2, a3, a4)
#define ordo_shmem_atomic_compare_swap_nbi_6(c, a0, a1, a2, a3, a4) \
    _Generic(*(a0), int: shmem_ctx_int_atomic_compare_swap_nbi, long: shmem_ctx_long_atomic_compare_swap_nbi, long long: shmem_ctx_longlong_atomic_compare_swap_nbi, unsigned int: shmem_ctx_uint_atomic_compare_swap_nbi, unsigned long: shmem_ctx_ulong_atomic_compare_swap_nbi, unsigned long long: shmem_ctx_ulonglong_atomic_compare_swap_nbi, ORDO_SHMEM_NONE)(c, a0, a1, a2, a3, a4)
#define shmem_atomic_fetch_inc_nbi(...) ORDO_SHMEM_BY_NARG(ordo_shmem_atomic_fetch_inc_nbi_, __VA_ARGS__)
#define ordo_shmem_atomic_fetch_inc_nbi_3(a0, a1, a2) \
    _Generic(*(a0), int: shmem_int_atomic_fetch_inc_nbi, long: shmem_long_atomic_fetch_inc_nbi, long long: shmem_longlong_atomic_fetch_inc_nbi, unsigned int: shmem_uint_atomic_fetch_inc_nbi, unsigned long: shmem_ulong_atomic_fetch_inc_nbi, unsigned long long: shmem_ulonglong_atomic_fetch_inc_nbi, ORDO_SHMEM_NONE)(a0, a1, a2)
#define ordo_shmem_atomic_fetch_inc_nbi_4(c, a0, a1, a2) \
    _Generic(*(a0), int: shmem_ctx_int_atomic_fetch_inc_nbi, long: shmem_ctx_long_atomic_fetch_inc_nbi, long long: shmem_ctx_longlong_atomic_fetch_inc_nbi, unsigned int: shmem_ctx_uint_atomic_fetch_inc_nbi, unsigned long: shmem_ctx_ulong_atomic_fetch_inc_nbi, unsigned long long: shmem_ctx_ulonglong_atomic_fetch_inc_nbi, ORDO_SHMEM_NONE)(c, a0, a1, a2)
#define shmem_atomic_fetch_add_nbi(...) ORDO_SHMEM_BY_NARG(ordo_shmem_atomic_fetch_add_nbi_, __VA_ARGS__)
#define ordo_shmem_atomic_fetch_add_nbi_4(a0, a1, a2, a3) \
    _Generic(*(a0), int: shmem_int_atomic_fetch_add_nbi, long: shmem_long_atomic_fetch_add_nbi, long long: shmem_longlong_atomic_fetch_add_nbi, unsigned int: shmem_uint_atomic_fetch_add_nbi, unsigned long: shmem_ulong_atomic_fetch_add_nbi, unsigned long long: shmem_ulonglong_atomic_fetch_add_nbi, ORDO_SHMEM_NONE)(a0, a1, a2, a3)
#define ordo_shmem_atomic_fetch_add_nbi_5(c, a0, a1, a2, a3) \
    _Generic(*(a0), int: shmem_ctx_int_atomic_fetch_add_nbi, long: shmem_ctx_long_atomic_fetch_add_nbi, long long: shmem_ctx_longlong_atomic_fetch_add_nbi, unsigned int: shmem_ctx_uint_atomic_fetch_add_nbi, unsigned long: shmem_ctx_ulong_atomic_fetch_add_nbi, unsigned long long: shmem_ctx_ulonglong_atomic_fetch_add_nbi, ORDO_SHMEM_NONE)(c, a0, a1, a2, a3)
#define shmem_atomic_fetch_and_nbi(...) ORDO_SHMEM_BY_NARG(ordo_shmem_atomic_fetch_and_nbi_, __VA_ARGS__)
#define ordo_shmem_atomic_fetch_and_nbi_4(a0, a1, a2, a3) \
    _Generic(*(a0), unsigned int: shmem_uint_atomic_fetch_and_nbi, unsigned long: shmem_ulong_atomic_fetch_and_nbi, unsigned long long: shmem_ulonglong_atomic_fetch_and_nbi, ORDO_SHMEM_NONE)(a0, a1, a2, a3)
#define ordo_shmem_atomic_fetch_and_nbi_5(c, a0, a1, a2, a3) \
    _Generic(*(a0), unsigned int: shmem_ctx_uint_atomic_fetch_and_nbi, unsigned long: shmem_ctx_ulong_atomic_fetch_and_nbi, unsigned long long: shmem_ctx_ulonglong_atomic_fetch_and_nbi, ORDO_SHMEM_NONE)(c, a0, a1, a2, a3)
#define shmem_atomic_fetch_or_nbi(...) ORDO_SHMEM_BY_NARG(ordo_shmem_atomic_fetch_or_nbi_, __VA_ARGS__)
#define ordo_shmem_atomic_fetch_or_nbi_4(a0, a1, a2, a3) \
    _Generic(*(a0), unsigned int: shmem_uint_atomic_fetch_or_nbi, unsigned long: shmem_ulong_atomic_fetch_or_nbi, unsigned long long: shmem_ulonglong_atomic_fetch_or_nbi, ORDO_SHMEM_NONE)(a0, a1, a2, a3)
#define ordo_shmem_atomic_fetch_or_nbi_5(c, a0, a1, a2, a3) \
    _Generic(*(a0), unsigned int: shmem_ctx_uint_atomic_fetch_or_nbi, unsigned long: shmem_ctx_ulong_atomic_fetch_or_nbi, unsigned long long: shmem_ctx_ulonglong_atomic_fetch_or_nbi, ORDO_SHMEM_NONE)(c, a0, a1, a2, a3)
#define shmem_atomic_fetch_xor_nbi(...) ORDO_SHMEM_BY_NARG(ordo_shmem_atomic_fetch_xor_nbi_, __VA_ARGS__)
#define ordo_shmem_atomic_fetch_xor_nbi_4(a0, a1, a2, a3) \
    _Generic(*(a0), unsigned int: shmem_uint_atomic_fetch_xor_nbi, unsigned long: shmem_ulong_atomic_fetch_xor_nbi, unsigned long long: shmem_ulonglong_atomic_fetch_xor_nbi, ORDO_SHMEM_NONE)(a0, a1, a2, a3)
#define ordo_shmem_atomic_fetch_xor_nbi_5(c, a0, a1, a2, a3) \
    _Generic(*(a0), unsigned int: shmem_ctx_uint_atomic_fetch_xor_nbi, unsigned long: shmem_ctx_ulong_atomic_fetch_xor_nbi, unsigned long long: shmem_ctx_ulonglong_atomic_fetch_xor_nbi, ORDO_SHMEM_NONE)(c, a0, a1, a2, a3)
#define shmem_wait_until(a0, a1, a2) \
    _Generic(*(a0), int: shmem_int_wait_until, long: shmem_long_wait_until, long long: shmem_longlong_wait_until, unsigned int: shmem_uint_wait_until, unsigned long: shmem_ulong_wait_until, unsigned long long: shmem_ulonglong_wait_until, ORDO_SHMEM_NONE)(a0, a1, a2)
#define shmem_wait_until_all(a0, a1, a2, a3, a4) \
    _Generic(*(a0), int: shmem_int_wait_until_all, long: shmem_long_wait_until_all, long long: shmem_longlong_wait_until_all, unsigned int: shmem_uint_wait_until_all, unsigned long: shmem_ulong_wait_until_all, unsigned long long: shmem_ulonglong_wait_until_all, ORDO_SHMEM_NONE)(a0, a1, a2, a3, a4)
#define shmem_wait_until_any(a0, a1, a2, a3, a4) \
    _Generic(*(a0), int: shmem_int_wait_until_any, long: shmem_long_wait_until_any, long long: shmem_longlong_wait_until_any, unsigned int: shmem_uint_wait_until_any, unsigned long: shmem_ulong_wait_until_any, unsigned long long: shmem_ulonglong_wait_until_any, ORDO_SHMEM_NONE)(a0, a1, a2, a3, a4)
#define shmem_wait_until_some(a0, a1, a2, a3, a4, a5) \
    _Generic(*(a0), int: shmem_int_wait_until_some, long: shmem_long_wait_until_some, long long: shmem_longlong_wait_until_some, unsigned int: shmem_uint_wait_until_some, unsigned long: shmem_ulong_wait_until_some, unsigned long long: shmem_ulonglong_wait_until_some, ORDO_SHMEM_NONE)(a0, a1, a2, a3, a4, a5)
#define shmem_wait_until_all_vector(a0, a1, a2, a3, a4) \
    _Generic(*(a0), int: shmem_int_wait_until_all_vector, long: shmem_long_wait_until_all_vector, long long: shmem_longlong_wait_until_all_vector, unsigned int: shmem_uint_wait_until_all_vector, unsigned long: shmem_ulong_wait_until_all_vector, unsigned long long: shmem_ulonglong_wait_until_all_vector, ORDO_SHMEM_NONE)(a0, a1, a2, a3, a4)
#define shmem_wait_until_any_vector(a0, a1, a2, a3, a4) \
    _Generic(*(a0), int: shmem_int_wait_until_any_vector, long: shmem_long_wait_until_any_vector, long long: shmem_longlong_wait_until_any_vector, unsigned int: shmem_uint_wait_until_any_vector, unsigned long: shmem_ulong_wait_until_any_vector, unsigned long long: shmem_ulonglong_wait_until_any_vector, ORDO_SHMEM_NONE)(a0, a1, a2, a3, a4)
#define shmem_wait_until_some_vector(a0, a1, a2, a3, a4, a5) \
    _Generic(*(a0), int: shmem_int_wait_until_some_vector, long: shmem_long_wait_until_some_vector, long long: shmem_longlong_wait_until_some_vector, unsigned int: shmem_uint_wait_until_some_vector, unsigned long: shmem_ulong_wait_until_some_vector, unsigned long long: shmem_ulonglong_wait_until_some_vector, ORDO_SHMEM_NONE)(a0, a1, a2, a3, a4, a5)
#define shmem_test(a0, a1, a2) \
    _Generic(*(a0), int: shmem_int_test, long: shmem_long_test, long long: shmem_longlong_test, unsigned int: shmem_uint_test, unsigned long: shmem_ulong_test, unsigned long long: shmem_ulonglong_test, ORDO_SHMEM_NONE)(a0, a1, a2)
#define shmem_test_all(a0, a1, a2, a3, a4) \
    _Generic(*(a0), int: shmem_int_test_all, long: shmem_long_test_all, long long: shmem_longlong_test_all, unsigned int: shmem_uint_test_all, unsigned long: shmem_ulong_test_all, unsigned long long: shmem_ulonglong_test_all, ORDO_SHMEM_NONE)(a0, a1, a2, a3, a4)
#define shmem_test_any(a0, a1, a2, a3, a4) \
    _Generic(*(a0), int: shmem_int_test_any, long: shmem_long_test_any, long long: shmem_longlong_test_any, unsigned int: shmem_uint_test_any, unsigned long: shmem_ulong_test_any, unsigned long long: shmem_ulonglong_test_any, ORDO_SHMEM_NONE)(a0, a1, a2, a3, a4)
#define shmem_test_some(a0, a1, a2, a3, a4, a5) \
    _Generic(*(a0), int: shmem_int_test_some, long: shmem_long_test_some, long long: shmem_longlong_test_some, unsigned int: shmem_uint_test_some, unsigned long: shmem_ulong_test_some, unsigned long long: shmem_ulonglong_test_some, ORDO_SHMEM_NONE)(a0, a1, a2, a3, a4, a5)
#define shmem_test_all_vector(a0, a1, a2, a3, a4) \
    _Generic(*(a0), int: shmem_int_test_all_vector, long: shmem_long_test_all_vector, long long: shmem_longlong_test_all_vector, unsigned int: shmem_uint_test_all_vector, unsigned long: shmem_ulong_test_all_vector, unsigned long long: shmem_ulonglong_test_all_vector, ORDO_SHMEM_NONE)(a0, a1, a2, a3, a4)
#define shmem_test_any_vector(a0, a1, a2, a3, a4) \
    _Generic(*(a0), int: shmem_int_test_any_vector, long: shmem_long_test_any_vector, long long: shmem_longlong_test_any_vector, unsigned int: shmem_uint_test_any_vector, unsigned long: shmem_ulong_test_any_vector, unsigned long long: shmem_ulonglong_test_any_vector, ORDO_SHMEM_NONE)(a0, a1, a2, a3, a4)
#define shmem_test_some_vector(a0, a1, a2, a3, a4, a5) \
    _Generic(*(a0), int: shmem_int_test_some_vector, long: shmem_long_test_some_vector, long long: shmem_longlong_test_some_vector, unsigned int: shmem_uint_test_some_vector, unsigned long: shmem_ulong_test_some_vector, unsigned long long: shmem_ulonglong_test_some_vector, ORDO_SHMEM_NONE)(a0, a1, a2, a3, a4, a5)
#define shmem_broadcast(a0, a1, a2, a3, a4) \
    _Generic(*(a1), float: shmem_float_broadcast, double: shmem_double_broadcast, long double: shmem_longdouble_broadcast, char: shmem_char_broadcast, signed char: shmem_schar_broadcast, short: shmem_short_broadcast, int: shmem_int_broadcast, long: shmem_long_broadcast, long long: shmem_longlong_broadcast, unsigned char: shmem_uchar_broadcast, unsigned short: shmem_ushort_broadcast, unsigned int: shmem_uint_broadcast, unsigned long: shmem_ulong_broadcast, unsigned long long: shmem_ulonglong_broadcast, ORDO_SHMEM_NONE)(a0, a1, a2, a3, a4)
#define shmem_collect(a0, a1, a2, a3) \
    _Generic(*(a1), float: shmem_float_collect, double: shmem_double_collect, long double: shmem_longdouble_collect, char: shmem_char_collect, signed char: shmem_schar_collect, short: shmem_short_collect, int: shmem_int_collect, long: shmem_long_collect, long long: shmem_longlong_collect, unsigned char: shmem_uchar_collect, unsigned short: shmem_ushort_collect, unsigned int: shmem_uint_collect, unsigned long: shmem_ulong_collect, unsigned long long: shmem_ulonglong_collect, ORDO_SHMEM_NONE)(a0, a1, a2, a3)
#define shmem_fcollect(a0, a1, a2, a3) \
    _Generic(*(a1), float: shmem_float_fcollect, double: shmem_double_fcollect, long double: shmem_longdouble_fcollect, char: shmem_char_fcollect, signed char: shmem_schar_fcollect, short: shmem_short_fcollect, int: shmem_int_fcollect, long: shmem_long_fcollect, long long: shmem_longlong_fcollect, unsigned char: shmem_uchar_fcollect, unsigned short: shmem_ushort_fcollect, unsigned int: shmem_uint_fcollect, unsigned long: shmem_ulong_fcollect, unsigned long long: shmem_ulonglong_fcollect, ORDO_SHMEM_NONE)(a0, a1, a2, a3)
#define shmem_alltoall(a0, a1, a2, a3) \
    _Generic(*(a1), float: shmem_float_alltoall, double: shmem_double_alltoall, long double: shmem_longdouble_alltoall, char: shmem_char_alltoall, signed char: shmem_schar_alltoall, short: shmem_short_alltoall, int: shmem_int_alltoall, long: shmem_long_alltoall, long long: shmem_longlong_alltoall, unsigned char: shmem_uchar_alltoall, unsigned short: shmem_ushort_alltoall, unsigned int: shmem_uint_alltoall, unsigned long: shmem_ulong_alltoall, unsigned long long: shmem_ulonglong_alltoall, ORDO_SHMEM_NONE)(a0, a1, a2, a3)
#define shmem_alltoalls(a0, a1, a2, a3, a4, a5) \
    _Generic(*(a1), float: shmem_float_alltoalls, double: shmem_double_alltoalls, long double: shmem_longdouble_alltoalls, char: shmem_char_alltoalls, signed char: shmem_schar_alltoalls, short: shmem_short_alltoalls, int: shmem_int_alltoalls, long: shmem_long_alltoalls, long long: shmem_longlong_alltoalls, unsigned char: shmem_uchar_alltoalls, unsigned short: shmem_ushort_alltoalls, unsigned int: shmem_uint_alltoalls, unsigned long: shmem_ulong_alltoalls, unsigned long long: shmem_ulonglong_alltoalls, ORDO_SHMEM_NONE)(a0, a1, a2, a3, a4, a5)
#define shmem_and_reduce(a0, a1, a2, a3) \
    _Generic(*(a1), unsigned char: shmem_uchar_and_reduce, unsigned short: shmem_ushort_and_reduce, unsigned int: shmem_uint_and_reduce, unsigned long: shmem_ulong_and_reduce, unsigned long long: shmem_ulonglong_and_reduce, ORDO_SHMEM_NONE)(a0, a1, a2, a3)
#define shmem_or_reduce(a0, a1, a2, a3) \
    _Generic(*(a1), unsigned char: shmem_uchar_or_reduce, unsigned short: shmem_ushort_or_reduce, unsigned int: shmem_uint_or_reduce, unsigned long: shmem_ulong_or_reduce, unsigned long long: shmem_ulonglong_or_reduce, ORDO_SHMEM_NONE)(a0, a1, a2, a3)
#define shmem_xor_reduce(a0, a1, a2, a3) \
    _Generic(*(a1), unsigned char: shmem_uchar_xor_reduce, unsigned short: shmem_ushort_xor_reduce, unsigned int: shmem_uint_xor_reduce, unsigned long: shmem_ulong_xor_reduce, unsigned long long: shmem_ulonglong_xor_reduce, ORDO_SHMEM_NONE)(a0, a1, a2, a3)
#define shmem_max_reduce(a0, a1, a2, a3) \
    _Generic(*(a1), char: shmem_char_max_reduce, signed char: shmem_schar_max_reduce, short: shmem_short_max_reduce, int: shmem_int_max_reduce, long: shmem_long_max_reduce, long long: shmem_longlong_max_reduce, unsigned char: shmem_uchar_max_reduce, unsigned short: shmem_ushort_max_reduce, unsigned int: shmem_uint_max_reduce, unsigned long: shmem_ulong_max_reduce, unsigned long long: shmem_ulonglong_max_reduce, float: shmem_float_max_reduce, double: shmem_double_max_reduce, long double: shmem_longdouble_max_reduce, ORDO_SHMEM_NONE)(a0, a1, a2, a3)
#define shmem_min_reduce(a0, a1, a2, a3) \
    _Generic(*(a1), char: shmem_char_min_reduce, signed char: shmem_schar_min_reduce, short: shmem_short_min_reduce, int: shmem_int_min_reduce, long: shmem_long_min_reduce, long long: shmem_longlong_min_reduce, unsigned char: shmem_uchar_min_reduce, unsigned short: shmem_ushort_min_reduce, unsigned int: shmem_uint_min_reduce, unsigned long: shmem_ulong_min_reduce, unsigned long long: shmem_ulonglong_min_reduce, float: shmem_float_min_reduce, double: shmem_double_min_reduce, long double: shmem_longdouble_min_reduce, ORDO_SHMEM_NONE)(a0, a1, a2, a3)
#define shmem_sum_reduce(a0, a1, a2, a3) \
    _Generic(*(a1), double _Complex: shmem_complexd_sum_reduce, float _Complex: shmem_complexf_sum_reduce, char: shmem_char_sum_reduce, signed char: shmem_schar_sum_reduce, short: shmem_short_sum_reduce, int: shmem_int_sum_reduce, long: shmem_long_sum_reduce, long long: shmem_longlong_sum_reduce, unsigned char: shmem_uchar_sum_reduce, unsigned short: shmem_ushort_sum_reduce, unsigned int: shmem_uint_sum_reduce, unsigned long: shmem_ulong_sum_reduce, unsigned long long: shmem_ulonglong_sum_reduce, float: shmem_float_sum_reduce, double: shmem_double_sum_reduce, long double: shmem_longdouble_sum_reduce, ORDO_SHMEM_NONE)(a0, a1, a2, a3)
#define shmem_prod_reduce(a0, a1, a2, a3) \
    _Generic(*(a1), double _Complex: shmem_complexd_prod_reduce, float _Complex: shmem_complexf_prod_reduce, char: shmem_char_prod_reduce, signed char: shmem_schar_prod_reduce, short: shmem_short_prod_reduce, int: shmem_int_prod_reduce, long: shmem_long_prod_reduce, long long: shmem_longlong_prod_reduce, unsigned char: shmem_uchar_prod_reduce, unsigned short: shmem_ushort_prod_reduce, unsigned int: shmem_uint_prod_reduce, unsigned long: shmem_ulong_prod_reduce, unsigned long long: shmem_ulonglong_prod_reduce, float: shmem_float_prod_reduce, double: shmem_double_prod_reduce, long double: shmem_longdouble_prod_reduce, ORDO_SHMEM_NONE)(a0, a1, a2, a3)
#endif

#ifdef __cplusplus
}
#endif
#endif
