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
 * (K, M, G suffixes; default 256M). */
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

#ifdef __cplusplus
}
#endif
#endif
