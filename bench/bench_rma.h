/* The one-sided calls the benchmarks use, over ordo regions or MPI-3 RMA
 * windows (built with -DBENCH_MPI), so that one source measures both with
 * the same method.
 *
 * Semantics are MPI's: bc_put / bc_get / the atomics issue an operation
 * that completes at the next flush or synchronisation (the source or
 * destination buffer must be left alone until then), and on an MPI window
 * every operation lies in an epoch.  An ordo window made without BC_EPOCHS
 * is a plain region used the way an ordo program uses it (operations on a
 * stream, completed by ordo_flush / ordo_quiet; lock_all and unlock_all
 * only complete); with BC_EPOCHS it takes part in ordo's MPI-RMA epochs.
 *
 * Ordering modes: ordo measures each of strict, default and relaxed on a
 * stream of that mode (bc_win_order); MPI has no such modes, so an MPI
 * build measures once, with order null.  Every failure ends the program
 * with a message: a figure measured past an error would mean nothing. */
#ifndef ORDO_BENCH_RMA_H
#define ORDO_BENCH_RMA_H

#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "bench_comm.h"
#include "bench_common.h"

/* How a window's memory comes to be: allocated by the library, the
 * program's own memory made accessible, or attached to a dynamic window. */
enum { BC_WIN_ALLOCATE = 0, BC_WIN_CREATE = 1, BC_WIN_DYNAMIC = 2, BC_WIN_KINDS = 3 };
static const char *const bc_win_kind_names[BC_WIN_KINDS] = {"allocate", "create", "dynamic"};

/* bc_win_make flags */
#define BC_EPOCHS 1u   /* ordo: MPI-RMA epochs (MPI windows always have them) */
#define BC_NOZERO 2u   /* leave the memory as the library gives it (regcost times the
                        * library's call alone) */

#ifdef BENCH_MPI

typedef struct bc_win {
    MPI_Win   win;
    int       kind;
    void     *mem;        /* create / dynamic: the program's memory */
    MPI_Aint *disp;       /* dynamic: each rank's base address */
} bc_win_t;
typedef struct bc_group { MPI_Group group; } bc_group_t;
#define BC_NOPRECEDE MPI_MODE_NOPRECEDE
#define BC_NOSUCCEED MPI_MODE_NOSUCCEED
#define BC_NOSTORE   MPI_MODE_NOSTORE
#define BC_NOPUT     MPI_MODE_NOPUT

/* NULL when this build can make windows of the kind, else why not. */
static inline const char *bc_win_unsupported(int kind) { (void)kind; return NULL; }

/* Collective: a window over bytes of the program's memory at every rank,
 * which stays the program's (bc_win_free does not free it). */
static inline void bc_win_create_on(void *mem, size_t bytes, unsigned flags, bc_win_t *w)
{
    (void)flags;
    memset(w, 0, sizeof(*w));
    w->kind = BC_WIN_CREATE;
    MPI_Win_create(mem, (MPI_Aint)bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w->win);
}

/* Collective: a window of bytes at every rank, zero-filled (unless
 * BC_NOZERO); *base is the local memory. */
static inline void bc_win_make(int kind, size_t bytes, unsigned flags, bc_win_t *w, void **base)
{
    memset(w, 0, sizeof(*w));
    w->kind = kind;
    if (kind == BC_WIN_ALLOCATE) {
        /* Whole pages: MPICH 4.0.2 (ch4:ucx) packs the ranks' portions of a
         * shared window back to back, and a put into a portion that is not
         * a multiple of the page size lands in the wrong rank's memory
         * (8 B: in the origin's own).  The program sees only `bytes`. */
        long page = sysconf(_SC_PAGESIZE);
        size_t whole = (bytes + (size_t)page - 1) / (size_t)page * (size_t)page;
        MPI_Win_allocate((MPI_Aint)whole, 1, MPI_INFO_NULL, MPI_COMM_WORLD, base, &w->win);
        if (!(flags & BC_NOZERO))
            memset(*base, 0, bytes);
        return;
    }
    void *mem = bench_buffer(bytes);
    memset(mem, 0, bytes);
    *base = mem;
    if (kind == BC_WIN_CREATE) {
        bc_win_create_on(mem, bytes, flags, w);
        w->mem = mem;
        return;
    }
    w->mem = mem;
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &w->win);
    MPI_Win_attach(w->win, w->mem, (MPI_Aint)bytes);
    MPI_Aint mine;
    MPI_Get_address(w->mem, &mine);
    int np;
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    w->disp = malloc(sizeof(MPI_Aint) * (size_t)np);
    MPI_Allgather(&mine, 1, MPI_AINT, w->disp, 1, MPI_AINT, MPI_COMM_WORLD);
}
static inline void bc_win_free(bc_win_t *w)
{
    if (w->kind == BC_WIN_DYNAMIC)
        MPI_Win_detach(w->win, w->mem);
    MPI_Win_free(&w->win);
    free(w->mem);
    free(w->disp);
}
/* A dynamic window made once, to which memory is attached and detached
 * (regcost times these two calls alone). */
typedef struct bc_dyn { MPI_Win win; } bc_dyn_t;
static inline void bc_dyn_create(bc_dyn_t *d)
{
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &d->win);
}
static inline void bc_dyn_attach(bc_dyn_t *d, void *mem, size_t bytes)
{
    MPI_Win_attach(d->win, mem, (MPI_Aint)bytes);
}
static inline void bc_dyn_detach(bc_dyn_t *d, void *mem) { MPI_Win_detach(d->win, mem); }
static inline void bc_dyn_free(bc_dyn_t *d) { MPI_Win_free(&d->win); }

static inline MPI_Aint bc_disp(const bc_win_t *w, int rank, size_t off)
{
    return (w->disp ? w->disp[rank] : 0) + (MPI_Aint)off;
}

static inline int bc_order_count(void) { return 1; }
static inline const char *bc_order_name(int i) { (void)i; return NULL; }
static inline void bc_win_order(bc_win_t *w, int i) { (void)w, (void)i; }

static inline void bc_put(const void *src, size_t len, int rank, size_t off, bc_win_t *w)
{
    MPI_Put(src, (int)len, MPI_BYTE, rank, bc_disp(w, rank, off), (int)len, MPI_BYTE, w->win);
}
static inline void bc_get(void *dst, size_t len, int rank, size_t off, bc_win_t *w)
{
    MPI_Get(dst, (int)len, MPI_BYTE, rank, bc_disp(w, rank, off), (int)len, MPI_BYTE, w->win);
}
/* Fetching atomics complete before they return (their result is needed). */
static inline uint64_t bc_fetch_add(bc_win_t *w, int rank, size_t off, uint64_t add)
{
    uint64_t old;
    MPI_Fetch_and_op(&add, &old, MPI_UINT64_T, rank, bc_disp(w, rank, off), MPI_SUM, w->win);
    MPI_Win_flush(rank, w->win);
    return old;
}
static inline uint64_t bc_cswap(bc_win_t *w, int rank, size_t off, uint64_t cmp, uint64_t val)
{
    uint64_t old;
    MPI_Compare_and_swap(&val, &cmp, &old, MPI_UINT64_T, rank, bc_disp(w, rank, off), w->win);
    MPI_Win_flush(rank, w->win);
    return old;
}
/* Non-fetching add: completes at the next flush. */
static inline void bc_add(bc_win_t *w, int rank, size_t off, const uint64_t *add)
{
    MPI_Accumulate(add, 1, MPI_UINT64_T, rank, bc_disp(w, rank, off), 1, MPI_UINT64_T, MPI_SUM,
                   w->win);
}
static inline void bc_flush(bc_win_t *w, int rank) { MPI_Win_flush(rank, w->win); }
static inline void bc_flush_local(bc_win_t *w, int rank) { MPI_Win_flush_local(rank, w->win); }
static inline void bc_flush_all(bc_win_t *w) { MPI_Win_flush_all(w->win); }
/* One look of a rank that polls its window for a peer's update: make the
 * memory as updated by others visible to its loads (MPI_Win_sync, the
 * unified model), and let the library progress, which MPI_Win_sync alone
 * need not do (MPICH over UCX does not, and the peer's flush then waits on
 * this rank forever): MPI_Iprobe is a call MPI requires to progress. */
static inline void bc_win_sync(bc_win_t *w)
{
    int flag;
    MPI_Win_sync(w->win);
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
}

static inline void bc_group_make(bc_group_t *g, int n, const int *ranks)
{
    MPI_Group world;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, n, ranks, &g->group);
    MPI_Group_free(&world);
}
static inline void bc_group_free(bc_group_t *g) { MPI_Group_free(&g->group); }
static inline void bc_fence(bc_win_t *w, int asserts) { MPI_Win_fence(asserts, w->win); }
/* MPI has no put-with-signal and no call that only orders two puts: the
 * nearest is completing the first (MPI_Win_flush) before the second. */
#define BC_HAVE_PUT_SIGNAL 0
static inline void bc_order_puts(bc_win_t *w, int rank) { MPI_Win_flush(rank, w->win); }
static inline void bc_put_signal(const void *src, size_t len, int rank, size_t off,
                                 size_t sig_off, uint64_t sig, bc_win_t *w)
{
    (void)src, (void)len, (void)rank, (void)off, (void)sig_off, (void)sig, (void)w;
}
static inline void bc_post(bc_win_t *w, bc_group_t *g) { MPI_Win_post(g->group, 0, w->win); }
static inline void bc_start(bc_win_t *w, bc_group_t *g) { MPI_Win_start(g->group, 0, w->win); }
static inline void bc_complete(bc_win_t *w) { MPI_Win_complete(w->win); }
static inline void bc_wait(bc_win_t *w) { MPI_Win_wait(w->win); }
static inline void bc_lock_shared(bc_win_t *w, int rank)
{
    MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, w->win);
}
static inline void bc_unlock(bc_win_t *w, int rank) { MPI_Win_unlock(rank, w->win); }
static inline void bc_lock_all(bc_win_t *w) { MPI_Win_lock_all(0, w->win); }
static inline void bc_unlock_all(bc_win_t *w) { MPI_Win_unlock_all(w->win); }

#else

typedef struct bc_win {
    ordo_region_h region;
    ordo_stream_h stream;     /* the ordering mode measured (bc_win_order) */
    int           own_stream; /* stream was created here */
    int           epochs;
    void         *mem;        /* create / dynamic: the program's memory */
    uint64_t     *disp;       /* dynamic: each rank's address of its memory */
} bc_win_t;
typedef struct bc_group { int n; int *ranks; } bc_group_t;
#define BC_NOPRECEDE ORDO_ASSERT_NOPRECEDE
#define BC_NOSUCCEED ORDO_ASSERT_NOSUCCEED
#define BC_NOSTORE   ORDO_ASSERT_NOSTORE
#define BC_NOPUT     ORDO_ASSERT_NOPUT

static inline void bc_check(ordo_status_t st, const char *what)
{
    if (st != ORDO_OK && st != ORDO_INPROGRESS) {
        fprintf(stderr, "benchmark: %s failed: %s\n", what, ordo_status_string(st));
        exit(1);
    }
}

static inline const char *bc_win_unsupported(int kind) { (void)kind; return NULL; }

typedef struct bc_dyn { ordo_region_h region; } bc_dyn_t;
static inline void bc_dyn_create(bc_dyn_t *d)
{
    bc_check(ordo_region_create_dynamic(0, &d->region), "dynamic region create");
}
static inline void bc_dyn_attach(bc_dyn_t *d, void *mem, size_t bytes)
{
    bc_check(ordo_region_attach(d->region, mem, bytes), "attach");
}
static inline void bc_dyn_detach(bc_dyn_t *d, void *mem)
{
    bc_check(ordo_region_detach(d->region, mem), "detach");
}
static inline void bc_dyn_free(bc_dyn_t *d)
{
    bc_check(ordo_region_free(d->region), "region free");
}

/* Where an operation on rank's memory points: a dynamic region is
 * addressed by the owner's addresses. */
static inline size_t bc_off(const bc_win_t *w, int rank, size_t off)
{
    return (w->disp ? (size_t)w->disp[rank] : 0) + off;
}

static inline void bc_win_create_on(void *mem, size_t bytes, unsigned flags, bc_win_t *w)
{
    memset(w, 0, sizeof(*w));
    w->epochs = (flags & BC_EPOCHS) != 0;
    bc_check(ordo_region_create(mem, bytes, w->epochs ? ORDO_REGION_EPOCHS : 0, &w->region),
             "region create");
}

/* ordo_region_alloc zero-fills by itself, so BC_NOZERO changes nothing. */
static inline void bc_win_make(int kind, size_t bytes, unsigned flags, bc_win_t *w, void **base)
{
    if (kind == BC_WIN_ALLOCATE) {
        memset(w, 0, sizeof(*w));
        w->epochs = (flags & BC_EPOCHS) != 0;
        bc_check(ordo_region_alloc(bytes, w->epochs ? ORDO_REGION_EPOCHS : 0, &w->region, base),
                 "region alloc");
        return;
    }
    void *mem = bench_buffer(bytes);
    memset(mem, 0, bytes);
    *base = mem;
    if (kind == BC_WIN_CREATE) {
        bc_win_create_on(mem, bytes, flags, w);
        w->mem = mem;
        return;
    }
    memset(w, 0, sizeof(*w));
    w->epochs = (flags & BC_EPOCHS) != 0;
    w->mem = mem;
    bc_check(ordo_region_create_dynamic(w->epochs ? ORDO_REGION_EPOCHS : 0, &w->region),
             "dynamic region create");
    bc_check(ordo_region_attach(w->region, mem, bytes), "attach");
    uint64_t mine = (uint64_t)(uintptr_t)mem;
    w->disp = malloc(sizeof(uint64_t) * (size_t)ordo_size());
    bc_check(ordo_coll_allgather(NULL, &mine, sizeof(mine), w->disp), "allgather");
}
static inline void bc_win_order(bc_win_t *w, int i)
{
    if (w->own_stream)
        bc_check(ordo_stream_destroy(w->stream), "stream destroy");
    ordo_stream_params_t sp = {.field_mask = ORDO_STREAM_FIELD_ORDER,
                               .order = (ordo_order_t)(ORDO_ORDER_STRICT + i)};
    bc_check(ordo_stream_create(&sp, &w->stream), "stream create");
    w->own_stream = 1;
}
static inline void bc_win_free(bc_win_t *w)
{
    if (w->own_stream)
        bc_check(ordo_stream_destroy(w->stream), "stream destroy");
    if (w->disp)
        bc_check(ordo_region_detach(w->region, w->mem), "detach");
    bc_check(ordo_region_free(w->region), "region free");
    free(w->mem);
    free(w->disp);
}

static inline int bc_order_count(void) { return 3; }
static inline const char *bc_order_name(int i)
{
    return ordo_order_name((ordo_order_t)(ORDO_ORDER_STRICT + i));
}

static inline void bc_put(const void *src, size_t len, int rank, size_t off, bc_win_t *w)
{
    bc_check(ordo_put_nb(w->stream, src, len, w->region, rank, bc_off(w, rank, off), 0,
                         NULL), "put");
}
static inline void bc_get(void *dst, size_t len, int rank, size_t off, bc_win_t *w)
{
    bc_check(ordo_get_nb(w->stream, dst, len, w->region, rank, bc_off(w, rank, off), 0,
                         NULL), "get");
}
static inline uint64_t bc_fetch_add(bc_win_t *w, int rank, size_t off, uint64_t add)
{
    uint64_t old;
    bc_check(ordo_atomic(w->stream, ORDO_ATOMIC_ADD, ORDO_UINT64, &add, NULL, &old, w->region,
                         rank, bc_off(w, rank, off), 0), "fetch-add");
    return old;
}
static inline uint64_t bc_cswap(bc_win_t *w, int rank, size_t off, uint64_t cmp, uint64_t val)
{
    uint64_t old;
    bc_check(ordo_atomic(w->stream, ORDO_ATOMIC_CSWAP, ORDO_UINT64, &val, &cmp, &old, w->region,
                         rank, bc_off(w, rank, off), 0), "compare-swap");
    return old;
}
static inline void bc_add(bc_win_t *w, int rank, size_t off, const uint64_t *add)
{
    bc_check(ordo_atomic_nb(w->stream, ORDO_ATOMIC_ADD, ORDO_UINT64, add, NULL, NULL, w->region,
                            rank, bc_off(w, rank, off), 0, NULL), "add");
}
/* Without epochs ordo completes per stream; it has no local-only flush
 * there, so flush_local is the full flush (never weaker than asked). */
static inline void bc_flush(bc_win_t *w, int rank)
{
    bc_check(w->epochs ? ordo_epoch_flush(w->region, rank) : ordo_flush(w->stream, rank), "flush");
}
static inline void bc_flush_local(bc_win_t *w, int rank)
{
    bc_check(w->epochs ? ordo_epoch_flush_local(w->region, rank) : ordo_flush(w->stream, rank),
             "flush_local");
}
static inline void bc_flush_all(bc_win_t *w)
{
    bc_check(w->epochs ? ordo_epoch_flush_all(w->region) : ordo_quiet(w->stream), "flush_all");
}
/* As the MPI builds call MPI_Iprobe: the polling rank lets ordo progress,
 * which a network transport needs to place the peer's put (otherwise only
 * ordo's progress helper does, within about a millisecond). */
static inline void bc_win_sync(bc_win_t *w)
{
    (void)w;
    ordo_progress();
    atomic_thread_fence(memory_order_acquire);
}

static inline void bc_group_make(bc_group_t *g, int n, const int *ranks)
{
    g->n = n;
    g->ranks = malloc(sizeof(int) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++)
        g->ranks[i] = ranks[i];
}
static inline void bc_group_free(bc_group_t *g) { free(g->ranks); }
static inline void bc_fence(bc_win_t *w, int asserts)
{
    bc_check(ordo_epoch_fence(w->region, (unsigned)asserts), "fence");
}
#define BC_HAVE_PUT_SIGNAL 1
/* Order the stream's earlier puts before its later ones (ordo_fence:
 * nothing is completed, nobody is waited for). */
static inline void bc_order_puts(bc_win_t *w, int rank)
{
    (void)rank;
    bc_check(ordo_fence(w->stream), "fence");
}
static inline void bc_put_signal(const void *src, size_t len, int rank, size_t off,
                                 size_t sig_off, uint64_t sig, bc_win_t *w)
{
    bc_check(ordo_put_signal_nb(w->stream, src, len, w->region, rank, bc_off(w, rank, off),
                                bc_off(w, rank, sig_off), sig, ORDO_SIGNAL_SET, 0, NULL),
             "put_signal");
}
static inline void bc_post(bc_win_t *w, bc_group_t *g)
{
    bc_check(ordo_epoch_post(w->region, g->n, g->ranks, 0), "post");
}
static inline void bc_start(bc_win_t *w, bc_group_t *g)
{
    bc_check(ordo_epoch_start(w->region, g->n, g->ranks, 0), "start");
}
static inline void bc_complete(bc_win_t *w) { bc_check(ordo_epoch_complete(w->region), "complete"); }
static inline void bc_wait(bc_win_t *w) { bc_check(ordo_epoch_wait(w->region), "wait"); }
static inline void bc_lock_shared(bc_win_t *w, int rank)
{
    bc_check(ordo_epoch_lock(w->region, ORDO_LOCK_SHARED, rank, 0), "lock");
}
static inline void bc_unlock(bc_win_t *w, int rank)
{
    bc_check(ordo_epoch_unlock(w->region, rank), "unlock");
}
static inline void bc_lock_all(bc_win_t *w)
{
    if (w->epochs)
        bc_check(ordo_epoch_lock_all(w->region, 0), "lock_all");
}
static inline void bc_unlock_all(bc_win_t *w)
{
    bc_check(w->epochs ? ordo_epoch_unlock_all(w->region) : ordo_quiet(w->stream), "unlock_all");
}
#endif

/* halo and the programs written before window kinds: an allocated window
 * with epochs. */
static inline void bc_win_alloc(size_t bytes, bc_win_t *w, void **base)
{
    bc_win_make(BC_WIN_ALLOCATE, bytes, BC_EPOCHS, w, base);
}

#endif
