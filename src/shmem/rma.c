/* OpenSHMEM RMA on ordo: put, get (blocking and _nbi), p, g, iput, iget,
 * put-with-signal, on the symmetric heap, through a context's stream. */
#include <string.h>

#include "shmem_internal.h"

/* Where a transfer goes: the stream, the remote offset; 0 after logging
 * what was wrong (nothing is done then). */
static inline __attribute__((always_inline)) int
target(const char *routine, shmem_ctx_t ctx, const void *remote, size_t bytes, int *pe_p,
       ordo_stream_h *s_p, ordo_region_h *r_p, size_t *off_p)
{
    if (!shmem_ready(routine) || (*s_p = shmem_ctx_stream(routine, ctx)) == NULL ||
        (*pe_p = shmem_ctx_world_pe(routine, ctx, *pe_p)) < 0)
        return 0;
    return shmem_symmetric(routine, remote, bytes, r_p, off_p);
}

/* A multiply that says when it overflows (a division per call, the
 * obvious check, costs more than an 8-byte put). */
static inline int bytes_of(const char *routine, size_t nelems, size_t size, size_t *bytes_p)
{
    if (__builtin_expect(__builtin_mul_overflow(nelems, size, bytes_p), 0)) {
        shmem_error(routine, "%zu elements of %zu bytes overflow: nothing done", nelems, size);
        return 0;
    }
    return 1;
}

static void check(const char *routine, ordo_status_t st)
{
    if (st != ORDO_OK && st != ORDO_INPROGRESS)
        shmem_error(routine, "%s", ordo_status_string(st));
}

/* nelems elements of size bytes to PE pe of ctx's team.  Inline in each
 * routine: the checks and the call to ordo are the whole cost of an 8-byte
 * put, and each call between them shows. */
static inline __attribute__((always_inline)) void
ordo_shmem_put(const char *routine, shmem_ctx_t ctx, void *dest, const void *source,
               size_t nelems, size_t size, int pe, int nbi)
{
    size_t bytes, off = 0;
    ordo_stream_h s;
    ordo_region_h r = NULL;
    if (!bytes_of(routine, nelems, size, &bytes) || !target(routine, ctx, dest, bytes, &pe, &s, &r, &off) ||
        bytes == 0)
        return;
    check(routine, nbi ? ordo_put_nbi(s, source, bytes, r, pe, off, 0)
                       : ordo_put(s, source, bytes, r, pe, off, 0));
}

static inline __attribute__((always_inline)) void
ordo_shmem_get(const char *routine, shmem_ctx_t ctx, void *dest, const void *source,
               size_t nelems, size_t size, int pe, int nbi)
{
    size_t bytes, off = 0;
    ordo_stream_h s;
    ordo_region_h r = NULL;
    if (!bytes_of(routine, nelems, size, &bytes) ||
        !target(routine, ctx, source, bytes, &pe, &s, &r, &off) || bytes == 0)
        return;
    check(routine, nbi ? ordo_get_nb(s, dest, bytes, r, pe, off, 0, NULL)
                       : ordo_get(s, dest, bytes, r, pe, off, 0));
}

/* Strided: element k of source (stride sst) to element k of dest (dst).
 * The remote side is checked once, over all it spans, so a bad call is
 * refused whole (and said once); then one transfer per element. */
static void strided(const char *routine, shmem_ctx_t ctx, void *dest, const void *source,
                    ptrdiff_t dst, ptrdiff_t sst, size_t nelems, size_t size, int pe, int put)
{
    if (nelems == 0)
        return;
    if (dst < 1 || sst < 1) {
        shmem_error(routine, "strides must be positive (dst %td, sst %td): nothing done", dst,
                    sst);
        return;
    }
    size_t rstride = (size_t)(put ? dst : sst), steps = 0, span = 0, off = 0;
    ordo_stream_h s;
    ordo_region_h r = NULL;
    /* the remote elements lie within (nelems-1) * rstride + 1 element slots */
    if (!bytes_of(routine, nelems - 1, rstride, &steps) ||
        !bytes_of(routine, steps, size, &span) || span > SIZE_MAX - size) {
        if (span > SIZE_MAX - size)
            shmem_error(routine, "the strided span overflows: nothing done");
        return;
    }
    span += size;
    if (!target(routine, ctx, put ? dest : source, span, &pe, &s, &r, &off))
        return;
    for (size_t k = 0; k < nelems; k++) {
        char *d = (char *)dest + (size_t)dst * k * size;
        const char *src = (const char *)source + (size_t)sst * k * size;
        ordo_status_t st = put ? ordo_put(s, src, size, r, pe, off + rstride * k * size, 0)
                               : ordo_get(s, d, size, r, pe, off + rstride * k * size, 0);
        if (st != ORDO_OK && st != ORDO_INPROGRESS) {
            check(routine, st);
            return;
        }
    }
}

static void put_signal(const char *routine, shmem_ctx_t ctx, void *dest, const void *source,
                       size_t nelems, size_t size, uint64_t *sig_addr, uint64_t signal,
                       int sig_op, int pe, int nbi)
{
    size_t bytes, off = 0, sig_off = 0;
    ordo_stream_h s;
    ordo_region_h r = NULL, sr = NULL;
    if (sig_op != SHMEM_SIGNAL_SET && sig_op != SHMEM_SIGNAL_ADD) {
        shmem_error(routine, "sig_op %d is neither SHMEM_SIGNAL_SET nor SHMEM_SIGNAL_ADD",
                    sig_op);
        return;
    }
    if (!bytes_of(routine, nelems, size, &bytes) ||
        !target(routine, ctx, dest, bytes, &pe, &s, &r, &off) ||
        !shmem_symmetric(routine, sig_addr, sizeof(*sig_addr), &sr, &sig_off))
        return;
    if (sr != r) {
        shmem_error(routine, "the signal and the data must both be on the symmetric heap, or "
                             "both in global data: nothing done");
        return;
    }
    ordo_signal_op_t op = sig_op == SHMEM_SIGNAL_SET ? ORDO_SIGNAL_SET : ORDO_SIGNAL_ADD;
    check(routine, nbi ? ordo_put_signal_nb(s, source, bytes, r, pe, off, sig_off, signal, op,
                                            0, NULL)
                       : ordo_put_signal(s, source, bytes, r, pe, off, sig_off, signal, op, 0));
}

/* ------------------------------------------------------------ typed */

#define DEF_RMA(N, T)                                                                        \
    void shmem_ctx_##N##_put(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems,      \
                             int pe)                                                         \
    {                                                                                        \
        ordo_shmem_put("shmem_" #N "_put", ctx, dest, source, nelems, sizeof(T), pe, 0);     \
    }                                                                                        \
    void shmem_##N##_put(T *dest, const T *source, size_t nelems, int pe)                   \
    {                                                                                        \
        shmem_ctx_##N##_put(SHMEM_CTX_DEFAULT, dest, source, nelems, pe);                    \
    }                                                                                        \
    void shmem_ctx_##N##_get(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems,      \
                             int pe)                                                         \
    {                                                                                        \
        ordo_shmem_get("shmem_" #N "_get", ctx, dest, source, nelems, sizeof(T), pe, 0);     \
    }                                                                                        \
    void shmem_##N##_get(T *dest, const T *source, size_t nelems, int pe)                   \
    {                                                                                        \
        shmem_ctx_##N##_get(SHMEM_CTX_DEFAULT, dest, source, nelems, pe);                    \
    }                                                                                        \
    void shmem_ctx_##N##_put_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems,  \
                                 int pe)                                                     \
    {                                                                                        \
        ordo_shmem_put("shmem_" #N "_put_nbi", ctx, dest, source, nelems, sizeof(T), pe, 1); \
    }                                                                                        \
    void shmem_##N##_put_nbi(T *dest, const T *source, size_t nelems, int pe)               \
    {                                                                                        \
        shmem_ctx_##N##_put_nbi(SHMEM_CTX_DEFAULT, dest, source, nelems, pe);                \
    }                                                                                        \
    void shmem_ctx_##N##_get_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems,  \
                                 int pe)                                                     \
    {                                                                                        \
        ordo_shmem_get("shmem_" #N "_get_nbi", ctx, dest, source, nelems, sizeof(T), pe, 1); \
    }                                                                                        \
    void shmem_##N##_get_nbi(T *dest, const T *source, size_t nelems, int pe)               \
    {                                                                                        \
        shmem_ctx_##N##_get_nbi(SHMEM_CTX_DEFAULT, dest, source, nelems, pe);                \
    }                                                                                        \
    void shmem_ctx_##N##_p(shmem_ctx_t ctx, T *dest, T value, int pe)                        \
    {                                                                                        \
        ordo_shmem_put("shmem_" #N "_p", ctx, dest, &value, 1, sizeof(T), pe, 0);            \
    }                                                                                        \
    void shmem_##N##_p(T *dest, T value, int pe)                                             \
    {                                                                                        \
        shmem_ctx_##N##_p(SHMEM_CTX_DEFAULT, dest, value, pe);                               \
    }                                                                                        \
    T shmem_ctx_##N##_g(shmem_ctx_t ctx, const T *source, int pe)                            \
    {                                                                                        \
        T value;                                                                             \
        memset(&value, 0, sizeof(value));                                                    \
        ordo_shmem_get("shmem_" #N "_g", ctx, &value, source, 1, sizeof(T), pe, 0);          \
        return value;                                                                        \
    }                                                                                        \
    T shmem_##N##_g(const T *source, int pe)                                                 \
    {                                                                                        \
        return shmem_ctx_##N##_g(SHMEM_CTX_DEFAULT, source, pe);                             \
    }                                                                                        \
    void shmem_ctx_##N##_iput(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst,      \
                              ptrdiff_t sst, size_t nelems, int pe)                          \
    {                                                                                        \
        strided("shmem_" #N "_iput", ctx, dest, source, dst, sst, nelems, sizeof(T), pe, 1); \
    }                                                                                        \
    void shmem_##N##_iput(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,           \
                          size_t nelems, int pe)                                             \
    {                                                                                        \
        shmem_ctx_##N##_iput(SHMEM_CTX_DEFAULT, dest, source, dst, sst, nelems, pe);         \
    }                                                                                        \
    void shmem_ctx_##N##_iget(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst,      \
                              ptrdiff_t sst, size_t nelems, int pe)                          \
    {                                                                                        \
        strided("shmem_" #N "_iget", ctx, dest, source, dst, sst, nelems, sizeof(T), pe, 0); \
    }                                                                                        \
    void shmem_##N##_iget(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,           \
                          size_t nelems, int pe)                                             \
    {                                                                                        \
        shmem_ctx_##N##_iget(SHMEM_CTX_DEFAULT, dest, source, dst, sst, nelems, pe);         \
    }                                                                                        \
    void shmem_ctx_##N##_put_signal(shmem_ctx_t ctx, T *dest, const T *source,               \
                                    size_t nelems, uint64_t *sig_addr, uint64_t signal,      \
                                    int sig_op, int pe)                                      \
    {                                                                                        \
        put_signal("shmem_" #N "_put_signal", ctx, dest, source, nelems, sizeof(T), sig_addr, \
                   signal, sig_op, pe, 0);                                                   \
    }                                                                                        \
    void shmem_##N##_put_signal(T *dest, const T *source, size_t nelems, uint64_t *sig_addr, \
                                uint64_t signal, int sig_op, int pe)                         \
    {                                                                                        \
        shmem_ctx_##N##_put_signal(SHMEM_CTX_DEFAULT, dest, source, nelems, sig_addr, signal, \
                                   sig_op, pe);                                              \
    }                                                                                        \
    void shmem_ctx_##N##_put_signal_nbi(shmem_ctx_t ctx, T *dest, const T *source,           \
                                        size_t nelems, uint64_t *sig_addr, uint64_t signal,  \
                                        int sig_op, int pe)                                  \
    {                                                                                        \
        put_signal("shmem_" #N "_put_signal_nbi", ctx, dest, source, nelems, sizeof(T),      \
                   sig_addr, signal, sig_op, pe, 1);                                         \
    }                                                                                        \
    void shmem_##N##_put_signal_nbi(T *dest, const T *source, size_t nelems,                 \
                                    uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) \
    {                                                                                        \
        shmem_ctx_##N##_put_signal_nbi(SHMEM_CTX_DEFAULT, dest, source, nelems, sig_addr,    \
                                       signal, sig_op, pe);                                  \
    }
ORDO_SHMEM_RMA_TYPES(DEF_RMA)

/* ------------------------------------------------------------ sized */

#define DEF_SIZED(B)                                                                         \
    void shmem_ctx_put##B(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,    \
                          int pe)                                                            \
    {                                                                                        \
        ordo_shmem_put("shmem_put" #B, ctx, dest, source, nelems, B / 8, pe, 0);             \
    }                                                                                        \
    void shmem_put##B(void *dest, const void *source, size_t nelems, int pe)                \
    {                                                                                        \
        shmem_ctx_put##B(SHMEM_CTX_DEFAULT, dest, source, nelems, pe);                       \
    }                                                                                        \
    void shmem_ctx_get##B(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,    \
                          int pe)                                                            \
    {                                                                                        \
        ordo_shmem_get("shmem_get" #B, ctx, dest, source, nelems, B / 8, pe, 0);             \
    }                                                                                        \
    void shmem_get##B(void *dest, const void *source, size_t nelems, int pe)                \
    {                                                                                        \
        shmem_ctx_get##B(SHMEM_CTX_DEFAULT, dest, source, nelems, pe);                       \
    }                                                                                        \
    void shmem_ctx_put##B##_nbi(shmem_ctx_t ctx, void *dest, const void *source,             \
                                size_t nelems, int pe)                                       \
    {                                                                                        \
        ordo_shmem_put("shmem_put" #B "_nbi", ctx, dest, source, nelems, B / 8, pe, 1);      \
    }                                                                                        \
    void shmem_put##B##_nbi(void *dest, const void *source, size_t nelems, int pe)          \
    {                                                                                        \
        shmem_ctx_put##B##_nbi(SHMEM_CTX_DEFAULT, dest, source, nelems, pe);                 \
    }                                                                                        \
    void shmem_ctx_get##B##_nbi(shmem_ctx_t ctx, void *dest, const void *source,             \
                                size_t nelems, int pe)                                       \
    {                                                                                        \
        ordo_shmem_get("shmem_get" #B "_nbi", ctx, dest, source, nelems, B / 8, pe, 1);      \
    }                                                                                        \
    void shmem_get##B##_nbi(void *dest, const void *source, size_t nelems, int pe)          \
    {                                                                                        \
        shmem_ctx_get##B##_nbi(SHMEM_CTX_DEFAULT, dest, source, nelems, pe);                 \
    }                                                                                        \
    void shmem_ctx_iput##B(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst,   \
                           ptrdiff_t sst, size_t nelems, int pe)                             \
    {                                                                                        \
        strided("shmem_iput" #B, ctx, dest, source, dst, sst, nelems, B / 8, pe, 1);         \
    }                                                                                        \
    void shmem_iput##B(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,        \
                       size_t nelems, int pe)                                                \
    {                                                                                        \
        shmem_ctx_iput##B(SHMEM_CTX_DEFAULT, dest, source, dst, sst, nelems, pe);            \
    }                                                                                        \
    void shmem_ctx_iget##B(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst,   \
                           ptrdiff_t sst, size_t nelems, int pe)                             \
    {                                                                                        \
        strided("shmem_iget" #B, ctx, dest, source, dst, sst, nelems, B / 8, pe, 0);         \
    }                                                                                        \
    void shmem_iget##B(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,        \
                       size_t nelems, int pe)                                                \
    {                                                                                        \
        shmem_ctx_iget##B(SHMEM_CTX_DEFAULT, dest, source, dst, sst, nelems, pe);            \
    }                                                                                        \
    void shmem_ctx_put##B##_signal(shmem_ctx_t ctx, void *dest, const void *source,          \
                                   size_t nelems, uint64_t *sig_addr, uint64_t signal,       \
                                   int sig_op, int pe)                                       \
    {                                                                                        \
        put_signal("shmem_put" #B "_signal", ctx, dest, source, nelems, B / 8, sig_addr,     \
                   signal, sig_op, pe, 0);                                                   \
    }                                                                                        \
    void shmem_put##B##_signal(void *dest, const void *source, size_t nelems,                \
                               uint64_t *sig_addr, uint64_t signal, int sig_op, int pe)      \
    {                                                                                        \
        shmem_ctx_put##B##_signal(SHMEM_CTX_DEFAULT, dest, source, nelems, sig_addr, signal, \
                                  sig_op, pe);                                               \
    }                                                                                        \
    void shmem_ctx_put##B##_signal_nbi(shmem_ctx_t ctx, void *dest, const void *source,      \
                                       size_t nelems, uint64_t *sig_addr, uint64_t signal,   \
                                       int sig_op, int pe)                                   \
    {                                                                                        \
        put_signal("shmem_put" #B "_signal_nbi", ctx, dest, source, nelems, B / 8, sig_addr, \
                   signal, sig_op, pe, 1);                                                   \
    }                                                                                        \
    void shmem_put##B##_signal_nbi(void *dest, const void *source, size_t nelems,            \
                                   uint64_t *sig_addr, uint64_t signal, int sig_op, int pe)  \
    {                                                                                        \
        shmem_ctx_put##B##_signal_nbi(SHMEM_CTX_DEFAULT, dest, source, nelems, sig_addr,     \
                                      signal, sig_op, pe);                                   \
    }
ORDO_SHMEM_SIZES(DEF_SIZED)

/* ------------------------------------------------------------- mem */

void shmem_ctx_putmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe)
{
    ordo_shmem_put("shmem_putmem", ctx, dest, source, nelems, 1, pe, 0);
}
void shmem_putmem(void *dest, const void *source, size_t nelems, int pe)
{
    shmem_ctx_putmem(SHMEM_CTX_DEFAULT, dest, source, nelems, pe);
}
void shmem_ctx_getmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe)
{
    ordo_shmem_get("shmem_getmem", ctx, dest, source, nelems, 1, pe, 0);
}
void shmem_getmem(void *dest, const void *source, size_t nelems, int pe)
{
    shmem_ctx_getmem(SHMEM_CTX_DEFAULT, dest, source, nelems, pe);
}
void shmem_ctx_putmem_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                          int pe)
{
    ordo_shmem_put("shmem_putmem_nbi", ctx, dest, source, nelems, 1, pe, 1);
}
void shmem_putmem_nbi(void *dest, const void *source, size_t nelems, int pe)
{
    shmem_ctx_putmem_nbi(SHMEM_CTX_DEFAULT, dest, source, nelems, pe);
}
void shmem_ctx_getmem_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                          int pe)
{
    ordo_shmem_get("shmem_getmem_nbi", ctx, dest, source, nelems, 1, pe, 1);
}
void shmem_getmem_nbi(void *dest, const void *source, size_t nelems, int pe)
{
    shmem_ctx_getmem_nbi(SHMEM_CTX_DEFAULT, dest, source, nelems, pe);
}
void shmem_ctx_putmem_signal(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                             uint64_t *sig_addr, uint64_t signal, int sig_op, int pe)
{
    put_signal("shmem_putmem_signal", ctx, dest, source, nelems, 1, sig_addr, signal, sig_op,
               pe, 0);
}
void shmem_putmem_signal(void *dest, const void *source, size_t nelems, uint64_t *sig_addr,
                         uint64_t signal, int sig_op, int pe)
{
    shmem_ctx_putmem_signal(SHMEM_CTX_DEFAULT, dest, source, nelems, sig_addr, signal, sig_op,
                            pe);
}
void shmem_ctx_putmem_signal_nbi(shmem_ctx_t ctx, void *dest, const void *source,
                                 size_t nelems, uint64_t *sig_addr, uint64_t signal,
                                 int sig_op, int pe)
{
    put_signal("shmem_putmem_signal_nbi", ctx, dest, source, nelems, 1, sig_addr, signal,
               sig_op, pe, 1);
}
void shmem_putmem_signal_nbi(void *dest, const void *source, size_t nelems, uint64_t *sig_addr,
                             uint64_t signal, int sig_op, int pe)
{
    shmem_ctx_putmem_signal_nbi(SHMEM_CTX_DEFAULT, dest, source, nelems, sig_addr, signal,
                                sig_op, pe);
}

uint64_t shmem_signal_fetch(const uint64_t *sig_addr)
{
    return sig_addr ? __atomic_load_n(sig_addr, __ATOMIC_ACQUIRE) : 0;
}

uint64_t shmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value)
{
    size_t off = 0;
    ordo_region_h r = NULL;
    if (!shmem_ready("shmem_signal_wait_until") ||
        !shmem_symmetric("shmem_signal_wait_until", sig_addr, 8, &r, &off))
        return 0;
    ordo_status_t st = ordo_wait_until(r, off, ORDO_UINT64, (ordo_cmp_t)cmp, &cmp_value);
    if (st != ORDO_OK)
        shmem_error("shmem_signal_wait_until", "%s", ordo_status_string(st));
    return __atomic_load_n(sig_addr, __ATOMIC_ACQUIRE);
}
