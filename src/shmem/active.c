/* The active-set collectives OpenSHMEM 1.5 deprecates but programs and
 * benchmarks still call: a set of PEs named by (PE_start, logPE_stride,
 * PE_size), with pSync and pWrk arrays of the program's.  Each set becomes
 * an ordo context over its PEs the first time this PE calls a collective
 * on it (collective over the set's members, which all call that first
 * collective), kept until shmem_finalize; ordo's collectives need neither
 * pSync nor pWrk, so they are never touched (they stay as the program set
 * them, which is what the standard asks of them on return). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "shmem_internal.h"

typedef struct active_set {
    int                start, log_stride, size;
    ordo_comm_h        comm;
    struct active_set *next;
} active_set_t;

/* At SHMEM_THREAD_MULTIPLE threads may use different sets at once (never
 * one set from two threads: a collective): the list is guarded, the
 * context's creation, a collective, is not. */
static active_set_t *sets;
static pthread_mutex_t sets_lock = PTHREAD_MUTEX_INITIALIZER;

static active_set_t *find(int start, int log_stride, int size)
{
    pthread_mutex_lock(&sets_lock);
    active_set_t *s = sets;
    while (s && !(s->start == start && s->log_stride == log_stride && s->size == size))
        s = s->next;
    pthread_mutex_unlock(&sets_lock);
    return s;
}

int shmem_active_set(const char *routine, int PE_start, int logPE_stride, int PE_size,
                     ordo_comm_h *comm_p)
{
    if (!shmem_ready(routine))
        return -1;
    int npes = shmem_g.npes;
    if (PE_start < 0 || PE_size < 1 || logPE_stride < 0 || logPE_stride > 30 ||
        PE_start >= npes ||
        (long long)PE_start + ((long long)(PE_size - 1) << logPE_stride) >= npes) {
        shmem_error(routine, "active set (PE_start %d, logPE_stride %d, PE_size %d) does not "
                             "fit the job's %d PEs: nothing done",
                    PE_start, logPE_stride, PE_size, npes);
        return -1;
    }
    int stride = 1 << logPE_stride, me = shmem_g.me;
    if (me < PE_start || (me - PE_start) % stride || (me - PE_start) / stride >= PE_size) {
        shmem_error(routine, "this PE (%d) is not in the active set (PE_start %d, "
                             "logPE_stride %d, PE_size %d): only its members call",
                    me, PE_start, logPE_stride, PE_size);
        return -1;
    }
    if (PE_size == npes) {
        *comm_p = ORDO_COMM_WORLD;   /* every PE, in order */
        return 0;
    }
    active_set_t *s = find(PE_start, logPE_stride, PE_size);
    if (s) {
        *comm_p = s->comm;
        return 0;
    }
    s = calloc(1, sizeof(*s));
    int *ranks = malloc((size_t)PE_size * sizeof(int));
    ordo_status_t st = ORDO_ERR_NO_MEMORY;
    if (s && ranks) {
        for (int i = 0; i < PE_size; i++)
            ranks[i] = PE_start + i * stride;
        ordo_comm_params_t p = {.field_mask = ORDO_COMM_FIELD_RANKS, .nranks = PE_size,
                                .ranks = ranks};
        st = ordo_comm_create(&p, &s->comm);
    }
    free(ranks);
    if (st != ORDO_OK) {
        shmem_error(routine, "cannot make the active set's context: %s",
                    ordo_status_string(st));
        free(s);
        return -1;
    }
    s->start = PE_start;
    s->log_stride = logPE_stride;
    s->size = PE_size;
    pthread_mutex_lock(&sets_lock);
    s->next = sets;
    sets = s;
    pthread_mutex_unlock(&sets_lock);
    *comm_p = s->comm;
    return 0;
}

/* At shmem_finalize: ordo_finalize takes the contexts down with the rest. */
void shmem_active_sets_fini(void)
{
    while (sets) {
        active_set_t *s = sets;
        sets = s->next;
        free(s);
    }
}

static void report(const char *routine, ordo_status_t st)
{
    if (st != ORDO_OK)
        shmem_error(routine, "%s", ordo_status_string(st));
}

void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    (void)pSync;
    ordo_comm_h c;
    if (shmem_active_set("shmem_barrier", PE_start, logPE_stride, PE_size, &c) != 0)
        return;
    shmem_quiet();   /* as shmem_barrier_all: this PE's puts are complete first */
    report("shmem_barrier", ordo_coll_barrier(c));
}

/* The root's dest is left alone, as the deprecated routines specify (the
 * team broadcast writes it). */
static void broadcast(const char *routine, void *dest, const void *source, size_t bytes,
                      int PE_root, int PE_start, int logPE_stride, int PE_size)
{
    ordo_comm_h c;
    if (shmem_active_set(routine, PE_start, logPE_stride, PE_size, &c) != 0)
        return;
    if (PE_root < 0 || PE_root >= PE_size) {
        shmem_error(routine, "PE_root %d is not in the active set (0 .. %d): nothing done",
                    PE_root, PE_size - 1);
        return;
    }
    int root = PE_start + (PE_root << logPE_stride);
    void *buf = shmem_g.me == root ? (void *)source : dest;
    report(routine, ordo_coll_bcast(c, buf, bytes, root));
}

static void fcollect(const char *routine, void *dest, const void *source, size_t bytes,
                     int PE_start, int logPE_stride, int PE_size)
{
    ordo_comm_h c;
    if (shmem_active_set(routine, PE_start, logPE_stride, PE_size, &c) == 0)
        report(routine, ordo_coll_allgather(c, source, bytes, dest));
}

static void collect(const char *routine, void *dest, const void *source, size_t bytes,
                    int PE_start, int logPE_stride, int PE_size)
{
    ordo_comm_h c;
    if (shmem_active_set(routine, PE_start, logPE_stride, PE_size, &c) != 0)
        return;
    size_t *lens = malloc(2 * (size_t)PE_size * sizeof(size_t));
    if (lens == NULL) {
        shmem_error(routine, "no memory for %d PEs' sizes", PE_size);
        return;
    }
    size_t *displs = lens + PE_size;
    ordo_status_t st = ordo_coll_allgather(c, &bytes, sizeof(bytes), lens);
    if (st == ORDO_OK) {
        size_t at = 0;
        for (int i = 0; i < PE_size; i++)
            displs[i] = at, at += lens[i];
        st = ordo_coll_allgatherv(c, source, bytes, dest, lens, displs);
    }
    report(routine, st);
    free(lens);
}

static void alltoall(const char *routine, void *dest, const void *source, size_t bytes,
                     int PE_start, int logPE_stride, int PE_size)
{
    ordo_comm_h c;
    if (shmem_active_set(routine, PE_start, logPE_stride, PE_size, &c) == 0)
        report(routine, ordo_coll_alltoall(c, source, bytes, dest));
}

/* dst, sst: element strides.  The blocks are gathered, exchanged and
 * scattered again: ordo's alltoall moves contiguous blocks. */
int shmem_alltoalls_over(const char *routine, ordo_comm_h c, int n, void *dest,
                         const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
                         size_t size)
{
    if (dst < 1 || sst < 1) {
        shmem_error(routine, "strides dst %td and sst %td must be at least 1: nothing done",
                    dst, sst);
        return -1;
    }
    if (nelems && size > SIZE_MAX / nelems / (size_t)n / 2) {
        shmem_error(routine, "%zu elements for %d PEs overflow", nelems, n);
        return -1;
    }
    size_t block = nelems * size, total = block * (size_t)n;
    char *out = malloc(2 * total + 1), *in = out + total;
    if (out == NULL) {
        shmem_error(routine, "no memory for %zu bytes", 2 * total);
        return -1;
    }
    const char *src = source;
    char *dst_b = dest;
    for (size_t j = 0; j < (size_t)n * nelems; j++)
        memcpy(out + j * size, src + j * (size_t)sst * size, size);
    ordo_status_t st = ordo_coll_alltoall(c, out, block, in);
    if (st == ORDO_OK)
        for (size_t j = 0; j < (size_t)n * nelems; j++)
            memcpy(dst_b + j * (size_t)dst * size, in + j * size, size);
    free(out);
    report(routine, st);
    return st == ORDO_OK ? 0 : -1;
}

#define DEF_SIZED(B)                                                                         \
    void shmem_broadcast##B(void *dest, const void *source, size_t nelems, int PE_root,     \
                            int PE_start, int logPE_stride, int PE_size, long *pSync)        \
    {                                                                                        \
        (void)pSync;                                                                         \
        broadcast("shmem_broadcast" #B, dest, source, nelems * (B / 8), PE_root, PE_start,  \
                  logPE_stride, PE_size);                                                    \
    }                                                                                        \
    void shmem_collect##B(void *dest, const void *source, size_t nelems, int PE_start,      \
                          int logPE_stride, int PE_size, long *pSync)                        \
    {                                                                                        \
        (void)pSync;                                                                         \
        collect("shmem_collect" #B, dest, source, nelems * (B / 8), PE_start, logPE_stride, \
                PE_size);                                                                    \
    }                                                                                        \
    void shmem_fcollect##B(void *dest, const void *source, size_t nelems, int PE_start,     \
                           int logPE_stride, int PE_size, long *pSync)                       \
    {                                                                                        \
        (void)pSync;                                                                         \
        fcollect("shmem_fcollect" #B, dest, source, nelems * (B / 8), PE_start,             \
                 logPE_stride, PE_size);                                                     \
    }                                                                                        \
    void shmem_alltoall##B(void *dest, const void *source, size_t nelems, int PE_start,     \
                           int logPE_stride, int PE_size, long *pSync)                       \
    {                                                                                        \
        (void)pSync;                                                                         \
        alltoall("shmem_alltoall" #B, dest, source, nelems * (B / 8), PE_start,             \
                 logPE_stride, PE_size);                                                     \
    }                                                                                        \
    void shmem_alltoalls##B(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,   \
                            size_t nelems, int PE_start, int logPE_stride, int PE_size,      \
                            long *pSync)                                                     \
    {                                                                                        \
        (void)pSync;                                                                         \
        ordo_comm_h c;                                                                       \
        if (shmem_active_set("shmem_alltoalls" #B, PE_start, logPE_stride, PE_size, &c) == 0)\
            shmem_alltoalls_over("shmem_alltoalls" #B, c, PE_size, dest, source, dst, sst,  \
                                 nelems, B / 8);                                             \
    }
DEF_SIZED(32)
DEF_SIZED(64)
