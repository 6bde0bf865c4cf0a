/*
 * ordo — a communication runtime where ordering is an explicit choice.
 *
 * This is the only header a program includes.  Conventions:
 *  - every call returns ordo_status_t (ORDO_OK, ORDO_INPROGRESS or a negative
 *    ORDO_ERR_*); output arguments end in _p, come last and are written only
 *    on success;
 *  - the runtime is initialised once per process (ordo_init); which threads
 *    may call it is the thread level asked there (ordo_thread_level_t);
 *  - the library never aborts or exits the program: bad input returns an
 *    error and changes nothing.
 */
#ifndef ORDO_H
#define ORDO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <ordo/export.h>
#include <ordo/status.h>
#include <ordo/version.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- handles */

typedef struct ordo_stream  *ordo_stream_h;   /* an ordered lane of operations */
typedef struct ordo_region  *ordo_region_h;   /* remotely accessible memory */
typedef struct ordo_request *ordo_request_h;  /* a non-blocking operation */
typedef struct ordo_comm    *ordo_comm_h;     /* a matching context (two-sided, below) */

/* The stream every process has after ordo_init; its mode comes from
 * ORDO_ORDER.  Pass it (or NULL, which means the same) where a stream is
 * expected. */
#define ORDO_STREAM_DEFAULT ((ordo_stream_h)0)

/* ------------------------------------------------------------- life cycle */

enum {
    ORDO_INIT_FIELD_NONE = 0,
    ORDO_INIT_FIELD_OOB  = 1u << 0,  /* oob: join over the caller's collectives */
    ORDO_INIT_FIELD_THREAD_LEVEL = 1u << 1   /* thread_level: which threads may call */
};

/* The caller's own bootstrap, for a program that already runs under another
 * runtime (an MPI program: examples/mpi_bootstrap.c): ordo joins over the
 * caller's collectives instead of through a launcher, and ignores the
 * launcher's environment.  Every process of the job calls ordo_init with the
 * same size and its own rank.
 *
 *  allgather  starts a collective over all size processes: each contributes
 *             len bytes from sbuf, and rbuf receives size * len bytes in
 *             rank order; it sets *req and returns 0, or non-zero if it
 *             could not start;
 *  test       0 once the collective of req completed, 1 while it runs,
 *             negative if it failed;
 *  free       releases req (after test returned 0 or negative).
 *
 * ordo starts one collective at a time, from the thread that calls ordo,
 * drives its own progress between tests, and gives up after
 * ORDO_BOOT_TIMEOUT.  In MPI: MPI_Iallgather on a duplicate of the
 * program's communicator, MPI_Test, and free.  The callbacks are used until
 * ordo_finalize returns (ordo_barrier and region allocation use them). */
typedef struct ordo_oob {
    int    rank;
    int    size;
    void  *arg;          /* passed to every callback */
    int  (*allgather)(void *arg, const void *sbuf, void *rbuf, size_t len, void **req);
    int  (*test)(void *arg, void *req);
    void (*free)(void *arg, void *req);
} ordo_oob_t;

/* Which threads may call ordo, as MPI's thread levels:
 *  SINGLE      only the thread that called ordo_init, and the program has
 *              no other thread that calls ordo;
 *  FUNNELED    only the thread that called ordo_init (other threads exist
 *              but never call ordo);
 *  SERIALIZED  any thread, but never two at once: the program orders its
 *              calls (a lock of its own, a join);
 *  MULTIPLE    any thread, any time: ordo serialises its calls itself, and a
 *              thread that waits (a blocking call, ordo_request_wait, a
 *              collective) lets the others in while it waits, so one thread
 *              may wait for a message another thread sends.
 * At SINGLE and FUNNELED a call from another thread is refused with
 * ORDO_ERR_THREAD and changes nothing; SERIALIZED is the program's promise
 * (not checked).  The lower levels cost nothing; MULTIPLE costs a few
 * plain stores per call while one thread calls ordo (its locks are biased
 * to that thread), one uncontended lock per call once several do.  At
 * MULTIPLE streams are the unit of concurrency for one-sided calls: a put,
 * get, atomic or put_signal that completes on issue (target mapped into
 * this process, nothing pending on the stream, a region without
 * ORDO_REGION_EPOCHS), a fence, and a quiet or flush with nothing pending
 * take their stream's lock alone, so threads on different streams never
 * contend (counted: ops_stream_locked); everything else takes one
 * process-wide lock.
 * Collective calls are still made in the same order on every rank, and at
 * MULTIPLE never by two threads at once for the same context, as MPI asks
 * of communicators: the ordo_coll_* calls and ordo_comm_destroy count for
 * their context; region allocation, creation and free, ordo_comm_create
 * and ordo_barrier for ORDO_COMM_WORLD.  Threads may
 * share a stream (its order is then the order their calls ran in); a
 * request is tested, waited for or cancelled by one thread only. */
typedef enum ordo_thread_level {
    ORDO_THREAD_SINGLE     = 0,
    ORDO_THREAD_FUNNELED   = 1,
    ORDO_THREAD_SERIALIZED = 2,
    ORDO_THREAD_MULTIPLE   = 3
} ordo_thread_level_t;

typedef struct ordo_init_params {
    uint64_t   field_mask;   /* ORDO_INIT_FIELD_* bits of the fields set */
    ordo_oob_t oob;          /* ORDO_INIT_FIELD_OOB */
    ordo_thread_level_t thread_level;   /* ORDO_INIT_FIELD_THREAD_LEVEL; otherwise the
                                           setting ORDO_THREAD_LEVEL (default multiple) */
} ordo_init_params_t;

/* Join the job.  With params->oob, over the caller's collectives (above).
 * Otherwise: started by ordorun, Open MPI's mpirun or srun --mpi=pmix
 * (PMIx), or MPICH's mpiexec (PMI-1), the process learns its rank from the
 * launcher; started alone it is rank 0 of 1.  Started by a launcher ordo
 * cannot join (its environment is there, its server is not), it returns
 * ORDO_ERR_BOOTSTRAP and the log names the launcher: never a silent
 * singleton.  An MPI program passes oob rather than joining the launcher a
 * second time (MPICH's PMI-1 connection is not shared).  params may be
 * NULL; unknown field_mask bits give ORDO_ERR_INVALID_PARAM. */
ORDO_API ordo_status_t ordo_init(const ordo_init_params_t *params);

/* The thread level this process runs at: the one asked (ordo has every
 * level, so it is never lowered). */
ORDO_API ordo_status_t ordo_query_thread(ordo_thread_level_t *level_p);

/* Complete everything outstanding, synchronise with all ranks, release all
 * resources.  Regions and streams not freed are freed here.  Where the job
 * goes on after a rank died (ordorun --on-failure notify), the survivors
 * synchronise without it and finalize returns ORDO_OK. */
ORDO_API ordo_status_t ordo_finalize(void);

/* Wall-clock seconds since an arbitrary point of this process's past
 * (CLOCK_MONOTONIC: never steps back), and the resolution of that clock in
 * seconds, as MPI_Wtime / MPI_Wtick.  Callable at any time, from any
 * thread, before ordo_init too; times of different processes are not
 * comparable. */
ORDO_API double ordo_wtime(void);
ORDO_API double ordo_wtick(void);

/* End the whole job with exit status `status` (1 .. 255; anything else
 * becomes 1), as MPI_Abort: the launcher ends every rank and exits with
 * it (ordorun says which rank called; Open MPI's mpirun and srun through
 * PMIx_Abort, MPICH's mpiexec through PMI's abort).  Under the caller's own
 * bootstrap (ordo_oob_t) or alone, only this process ends, with that
 * status, and the program's runtime decides for the others.  Does not
 * return, except with ORDO_ERR_NOT_INITIALIZED before ordo_init.  The one
 * call by which the library ends a program: the program asked for it. */
ORDO_API ordo_status_t ordo_abort(int status);

/* Rank and size of this process in the job; -1 before ordo_init. */
ORDO_API int ordo_rank(void);
ORDO_API int ordo_size(void);
/* The node rank runs on (0 .. nodes-1): ranks of one node share memory and
 * reach each other through it; others only through the network.  -1 for a
 * rank outside [0, size) or before ordo_init. */
ORDO_API int ordo_node_of(int rank);
/* How many nodes the job spans (ordorun --nodes, or the launcher's nodes). */
ORDO_API int ordo_node_count(void);

/* Wait until every rank of the job entered this barrier, through the
 * launcher (ordorun, PMIx, PMI): a round trip to it, milliseconds at
 * scale, meant for start-up and tear-down.  It completes nothing: call
 * ordo_quiet first to complete one-sided operations.  The barrier between
 * ranks in a program's steps is the collective ordo_coll_barrier
 * (microseconds, over the transports, on any context). */
ORDO_API ordo_status_t ordo_launcher_barrier(void);
/* The former name of ordo_launcher_barrier, kept for existing programs. */
ORDO_API ordo_status_t ordo_barrier(void);

/* ------------------------------------------------------- ordering, streams */

/* The ordering guarantee between two operations of one stream to the same
 * target rank (docs/guide.md, "Ordering"):
 *  STRICT   complete and become visible in issue order; a get after a put to
 *           the same address returns the put's data;
 *  DEFAULT  puts and atomics stay in order among themselves; gets may pass
 *           earlier puts (and puts may pass earlier gets);
 *  RELAXED  no order; only ordo_fence orders and ordo_quiet/ordo_flush
 *           complete. */
typedef enum ordo_order {
    ORDO_ORDER_STRICT  = 0,
    ORDO_ORDER_DEFAULT = 1,
    ORDO_ORDER_RELAXED = 2
} ordo_order_t;

/* Name of an ordering mode ("strict", "default", "relaxed"). */
ORDO_API const char *ordo_order_name(ordo_order_t order);

enum {
    ORDO_STREAM_FIELD_ORDER = 1u << 0
};

typedef struct ordo_stream_params {
    uint64_t     field_mask;  /* ORDO_STREAM_FIELD_* bits of the fields set */
    ordo_order_t order;       /* default: the value of ORDO_ORDER */
} ordo_stream_params_t;

ORDO_API ordo_status_t ordo_stream_create(const ordo_stream_params_t *params,
                                          ordo_stream_h *stream_p);
/* Completes the stream's outstanding operations, then frees it, in time
 * independent of the number of streams.  Requests of the stream that the
 * program still holds become invalid.  Its handle then returns
 * ORDO_ERR_INVALID_HANDLE, until a stream created later takes over its
 * record (handles, like MPI's, are reused). */
ORDO_API ordo_status_t ordo_stream_destroy(ordo_stream_h stream);
ORDO_API ordo_status_t ordo_stream_order(ordo_stream_h stream, ordo_order_t *order_p);

/* ----------------------------------------------------------------- regions */

enum {
    /* ordo_region_create: map the memory into local peers (copy-in now,
     * copy-out at free) instead of reaching it by single copy.  Needed for
     * remote atomics on created regions and for ordo_region_ptr. */
    ORDO_REGION_CREATE_MAPPED = 1u << 0,
    /* ordo_region_alloc / ordo_region_create: the region takes part in
     * MPI-RMA synchronisation epochs (ordo_epoch_*, below): one-sided
     * operations on it must lie inside an access epoch to their target.
     * Costs a small companion region of synchronisation words. */
    ORDO_REGION_EPOCHS = 1u << 1
};

/* Errors of the collective region calls (alloc, create, free) are agreed:
 * a call that fails on one rank (a bad argument, no memory, a refused system
 * call) fails on every rank with that rank's status (the lowest failing
 * rank's, where several fail), as soon as every rank has reached the call,
 * and nothing is left allocated; the others log which rank failed and why.
 * Only a handle that is no region at all is refused at the caller alone. */

/* Collective over all ranks: each rank allocates size bytes (sizes may
 * differ per rank; 0 is allowed) zero-filled and remotely accessible.
 * *addr_p is the local address.  The memory is backed as it is touched; a
 * size that could never be backed (more than memory and swap, the commit
 * limit under strict overcommit, or the process's cgroup limit) fails at
 * once with ORDO_ERR_NO_MEMORY and a log line naming the limit. */
ORDO_API ordo_status_t ordo_region_alloc(size_t size, unsigned flags,
                                         ordo_region_h *region_p, void **addr_p);

/* Collective over all ranks: make [addr, addr+size) of this process
 * remotely accessible.  By default peers reach it by single copy
 * (process_vm_readv/writev); where the kernel refuses that, or with
 * ORDO_REGION_CREATE_MAPPED, the pages are moved into shared memory (their
 * content is kept) and moved back at ordo_region_free.  The memory must
 * stay valid until the region is freed.  Moving in copies whole pages,
 * including memory around the region on its first and last page: while
 * ordo_region_create runs, no other thread of the program may write that
 * memory (ordo's own threads are paused for it).  Page-aligned memory, or
 * ordo_region_alloc, has no such neighbours.  Moving back at free is
 * atomic: other threads may go on using the neighbours. */
ORDO_API ordo_status_t ordo_region_create(void *addr, size_t size, unsigned flags,
                                          ordo_region_h *region_p);

/* Collective over all ranks: a dynamic region, with no memory of its own
 * (as MPI_Win_create_dynamic).  Each rank then attaches and detaches its
 * own memory at any time, alone (ordo_region_attach / _detach).
 *
 * Operations on a dynamic region name their target by the owner's virtual
 * address: the offset argument of a put, get, atomic or signal is the
 * address, in the target rank, of the first byte ((size_t)(uintptr_t)p,
 * which the program sends to the initiator, as MPI_Get_address's result).
 * [address, address + length) must lie within one memory area the target
 * has attached: otherwise the operation fails with ORDO_ERR_OUT_OF_BOUNDS,
 * the log names the address, and nothing is touched on either side.  An
 * operation issued after the target's ordo_region_attach returned (and the
 * program told the initiator the address) finds the memory; one on memory
 * detached meanwhile is erroneous, as in MPI.  Before each operation the
 * initiator checks the target's table of attachments for changes: a load
 * on this node, an 8-byte read over a network (what MPI libraries do for
 * dynamic windows), so a dynamic region costs more per operation there
 * than an allocated one.
 *
 * flags: ORDO_REGION_EPOCHS as for other regions, and
 * ORDO_REGION_CREATE_MAPPED: each attached area's pages move into shared
 * memory while attached (as ordo_region_create does, with its rule about
 * neighbours on the first and last page), so local peers map them: needed
 * for remote atomics from ranks of the same node.  Without it those reach
 * attached memory by single copy.  ordo_region_size of a dynamic region is
 * 0 and ordo_region_ptr ORDO_ERR_UNSUPPORTED.  Errors are agreed, as for
 * the other collective region calls; ordo_region_free releases it (and
 * detaches what is still attached). */
ORDO_API ordo_status_t ordo_region_create_dynamic(unsigned flags, ordo_region_h *region_p);

/* Attach [addr, addr+size) of this process to a dynamic region: peers may
 * reach it once this returns.  Not collective; costs no message.  The
 * memory must stay valid until it is detached.  Areas attached by one rank
 * must not overlap (ORDO_ERR_INVALID_PARAM, logged); size 0 is allowed
 * (nothing is reachable there).  At most ORDO_DYNAMIC_ATTACH_MAX areas of
 * a rank at once (ORDO_ERR_NO_MEMORY, logged with the setting).  A region
 * that is not dynamic: ORDO_ERR_INVALID_PARAM. */
ORDO_API ordo_status_t ordo_region_attach(ordo_region_h region, void *addr, size_t size);

/* Detach the area attached at addr (the address given to
 * ordo_region_attach); this process's own operations on it complete first.
 * Peers must have finished theirs (the program synchronises, as MPI
 * requires); later ones fail with ORDO_ERR_OUT_OF_BOUNDS.  Nothing attached
 * at addr: ORDO_ERR_INVALID_PARAM. */
ORDO_API ordo_status_t ordo_region_detach(ordo_region_h region, void *addr);

/* The same three over the members of a context (ordo_comm_create,
 * ordo_comm_split; ORDO_COMM_WORLD: every rank, as above), as an MPI window
 * over a communicator: collective over those members only, called by each
 * in the same order relative to its other collective region and context
 * calls.  Targets stay world ranks, as on contexts: an operation, epoch
 * call, ordo_region_size or ordo_region_ptr naming a rank outside the
 * region is ORDO_ERR_INVALID_RANK, and an epoch over every rank (fence,
 * lock_all, flush_all) is over the region's members.  Errors are agreed
 * among the members.  A handle that is no context, or a context this rank
 * is not a member of, is refused at the caller alone
 * (ORDO_ERR_INVALID_HANDLE, ORDO_ERR_INVALID_RANK). */
ORDO_API ordo_status_t ordo_region_alloc_on(ordo_comm_h comm, size_t size, unsigned flags,
                                            ordo_region_h *region_p, void **addr_p);
ORDO_API ordo_status_t ordo_region_create_on(ordo_comm_h comm, void *addr, size_t size,
                                             unsigned flags, ordo_region_h *region_p);
ORDO_API ordo_status_t ordo_region_create_dynamic_on(ordo_comm_h comm, unsigned flags,
                                                     ordo_region_h *region_p);

/* Collective over the region's ranks: completes this process's operations
 * on the region, waits for every rank of it, then releases it (on every
 * rank, also when one of them failed to complete its operations: all
 * return that failure).  Using the handle afterwards returns
 * ORDO_ERR_INVALID_HANDLE. */
ORDO_API ordo_status_t ordo_region_free(ordo_region_h region);

/* Size of the region at a rank. */
ORDO_API ordo_status_t ordo_region_size(ordo_region_h region, int rank, size_t *size_p);

/* A load/store pointer to the region's memory at a rank, where that memory is
 * mapped into this process (shared-memory peers); ORDO_ERR_UNSUPPORTED when
 * it is only reachable by copy. */
ORDO_API ordo_status_t ordo_region_ptr(ordo_region_h region, int rank, void **ptr_p);

/* -------------------------------------------------------- one-sided: data */

enum {
    /* Order this operation after every earlier operation of its stream, to
     * every target, whatever the stream's mode (a point-to-point fence). */
    ORDO_OP_FENCED = 1u << 0
};

/* Blocking put: returns when src may be reused.  The data is visible at the
 * target after ordo_quiet / ordo_flush (or earlier, by the stream's order). */
ORDO_API ordo_status_t ordo_put(ordo_stream_h stream, const void *src, size_t len,
                                ordo_region_h region, int rank, size_t offset,
                                unsigned flags);

/* Blocking get: returns when dst holds the data. */
ORDO_API ordo_status_t ordo_get(ordo_stream_h stream, void *dst, size_t len,
                                ordo_region_h region, int rank, size_t offset,
                                unsigned flags);

/* Non-blocking put / get.  Returns ORDO_OK when the operation completed at
 * once (*req_p is set to NULL), ORDO_INPROGRESS with a request to test or
 * wait for, or an error (nothing was issued).  A put's request completes when
 * src may be reused; a get's when dst holds the data.  When req_p is NULL the
 * operation is implicit: it completes by ordo_quiet / ordo_flush only, and src
 * / dst must be left alone until then. */
ORDO_API ordo_status_t ordo_put_nb(ordo_stream_h stream, const void *src, size_t len,
                                   ordo_region_h region, int rank, size_t offset,
                                   unsigned flags, ordo_request_h *req_p);
ORDO_API ordo_status_t ordo_get_nb(ordo_stream_h stream, void *dst, size_t len,
                                   ordo_region_h region, int rank, size_t offset,
                                   unsigned flags, ordo_request_h *req_p);
/* ordo_put_nb with req_p NULL (OpenSHMEM's put_nbi), taking ordo_put's
 * arguments: the two share one code path, so that a window of these is
 * never slower than the same window of blocking puts. */
ORDO_API ordo_status_t ordo_put_nbi(ordo_stream_h stream, const void *src, size_t len,
                                    ordo_region_h region, int rank, size_t offset,
                                    unsigned flags);

/* ----------------------------------------------------- one-sided: atomics */

typedef enum ordo_atomic_op {
    ORDO_ATOMIC_ADD   = 0,  /* *t += v            (fetch: old value) */
    ORDO_ATOMIC_AND   = 1,  /* *t &= v */
    ORDO_ATOMIC_OR    = 2,  /* *t |= v */
    ORDO_ATOMIC_XOR   = 3,  /* *t ^= v */
    ORDO_ATOMIC_SWAP  = 4,  /* *t  = v            (result required) */
    ORDO_ATOMIC_CSWAP = 5   /* if (*t == c) *t = v (result required) */
} ordo_atomic_op_t;

typedef enum ordo_atomic_type {
    ORDO_UINT32 = 0,
    ORDO_INT32  = 1,
    ORDO_UINT64 = 2,
    ORDO_INT64  = 3
} ordo_atomic_type_t;

/* Remote atomic on a 4- or 8-byte integer at (region, rank, offset), which
 * must be aligned to its width.  value (and compare, for CSWAP) point at one
 * integer of the type.  When result is not NULL the old value is written
 * there (a fetching atomic); SWAP and CSWAP require it. */
ORDO_API ordo_status_t ordo_atomic(ordo_stream_h stream, ordo_atomic_op_t op,
                                   ordo_atomic_type_t type, const void *value,
                                   const void *compare, void *result,
                                   ordo_region_h region, int rank, size_t offset,
                                   unsigned flags);

/* Non-blocking form; result must stay valid until completion. */
ORDO_API ordo_status_t ordo_atomic_nb(ordo_stream_h stream, ordo_atomic_op_t op,
                                      ordo_atomic_type_t type, const void *value,
                                      const void *compare, void *result,
                                      ordo_region_h region, int rank, size_t offset,
                                      unsigned flags, ordo_request_h *req_p);

/* ------------------------------------------------------------ put-with-signal */

typedef enum ordo_signal_op {
    ORDO_SIGNAL_SET = 0,   /* the signal word becomes the value */
    ORDO_SIGNAL_ADD = 1    /* the value is added to it */
} ordo_signal_op_t;

/* Put len bytes from src to (region, rank, offset), then set or add a
 * 64-bit signal word at (region, rank, sig_offset) (aligned to 8), as
 * OpenSHMEM's put_signal: a process that sees the signal (ordo_wait_until)
 * sees the data, on every transport and in every ordering mode.  It is
 * ordering for this one operation, not a fence: in a relaxed stream the
 * signal waits for what this rank issued to that rank before it, and
 * nothing else; in strict and default streams, which keep a put and an
 * atomic in order, nothing more is done.  Blocking: returns when both
 * completed.  Non-blocking: with req_p, the request completes when both
 * did (so the signal waits for the put in every mode); with req_p NULL,
 * both complete by ordo_quiet / ordo_flush and src must be left alone
 * until then (ORDO_OK or ORDO_INPROGRESS, as ordo_put_nb).  ORDO_PROC_NULL: nothing happens.  Errors as ordo_put and
 * ordo_atomic, the signal word checked before anything moves.  Counted in
 * ordo_stats (signals). */
ORDO_API ordo_status_t ordo_put_signal(ordo_stream_h stream, const void *src, size_t len,
                                       ordo_region_h region, int rank, size_t offset,
                                       size_t sig_offset, uint64_t signal,
                                       ordo_signal_op_t sig_op, unsigned flags);
ORDO_API ordo_status_t ordo_put_signal_nb(ordo_stream_h stream, const void *src, size_t len,
                                          ordo_region_h region, int rank, size_t offset,
                                          size_t sig_offset, uint64_t signal,
                                          ordo_signal_op_t sig_op, unsigned flags,
                                          ordo_request_h *req_p);

/* ------------------------------------------------- waiting on local words */

/* Comparisons of a word of this rank's region memory with a value. */
typedef enum ordo_cmp {
    ORDO_CMP_EQ = 0,
    ORDO_CMP_NE = 1,
    ORDO_CMP_GT = 2,
    ORDO_CMP_GE = 3,
    ORDO_CMP_LT = 4,
    ORDO_CMP_LE = 5
} ordo_cmp_t;

/* Wait until the 4- or 8-byte integer of the given type at offset of this
 * rank's own memory of region compares to *value as cmp says (the flag a
 * peer's put or atomic raises; OpenSHMEM's wait_until).  The word is read
 * atomically with acquire order: what the writer put before it, in an
 * order its stream keeps (a put then a fenced put, or a put-with-flag
 * done right), is visible once it returns.  The wait drives progress, gives
 * its core away when ranks outnumber cores (ORDO_YIELD) and lets other
 * threads in; it has no time limit of its own (ordorun --timeout bounds a
 * job).  Errors: the region handle; an offset outside it
 * (ORDO_ERR_OUT_OF_BOUNDS) or not aligned to the width
 * (ORDO_ERR_MISALIGNED); an unknown type or comparison, or value NULL
 * (ORDO_ERR_INVALID_PARAM). */
ORDO_API ordo_status_t ordo_wait_until(ordo_region_h region, size_t offset,
                                       ordo_atomic_type_t type, ordo_cmp_t cmp,
                                       const void *value);
/* The same without waiting: *flag_p = 1 if it holds now (after one
 * progress pass), else 0. */
ORDO_API ordo_status_t ordo_test(ordo_region_h region, size_t offset, ordo_atomic_type_t type,
                                 ordo_cmp_t cmp, const void *value, int *flag_p);
/* Over a set of n words (offsets[], every one checked before any wait):
 *  all   until every word held (each waited for in turn, then not looked
 *        at again);
 *  any   until one holds: *index_p is its index in offsets (n == 0:
 *        ORDO_INDEX_NONE at once);
 *  some  until at least one holds: indices[] receives the index of every
 *        word that held at that look (room for n), *count_p how many. */
ORDO_API ordo_status_t ordo_wait_until_all(ordo_region_h region, const size_t *offsets,
                                           size_t n, ordo_atomic_type_t type, ordo_cmp_t cmp,
                                           const void *value);
ORDO_API ordo_status_t ordo_wait_until_any(ordo_region_h region, const size_t *offsets,
                                           size_t n, ordo_atomic_type_t type, ordo_cmp_t cmp,
                                           const void *value, size_t *index_p);
ORDO_API ordo_status_t ordo_wait_until_some(ordo_region_h region, const size_t *offsets,
                                            size_t n, ordo_atomic_type_t type, ordo_cmp_t cmp,
                                            const void *value, size_t *indices,
                                            size_t *count_p);

/* ------------------------------------------------- one-sided: completion */

/* Order: operations issued on the stream after the fence become visible at
 * each target after those issued before it.  Completes nothing, waits for
 * nobody (OpenSHMEM's shmem_fence).  Not MPI_Win_fence: that is the
 * collective ordo_epoch_fence. */
ORDO_API ordo_status_t ordo_fence(ordo_stream_h stream);

/* Complete every operation of the stream, at every target: afterwards their
 * data is visible to any process that synchronises with this one. */
ORDO_API ordo_status_t ordo_quiet(ordo_stream_h stream);

/* Complete the stream's operations to one rank. */
ORDO_API ordo_status_t ordo_flush(ordo_stream_h stream, int rank);

/* ------------------------------------------ one-sided: synchronisation epochs */

/* MPI-RMA's three synchronisation modes, on a region created with
 * ORDO_REGION_EPOCHS.  An access epoch is the span in which this rank may
 * issue operations on the region to a target:
 *
 *   fence ... fence               to every rank (all ranks call every fence)
 *   start(group) ... complete     to the group; each target exposes its
 *                                 memory with post(group of origins) ... wait
 *   lock(rank) ... unlock(rank)   to that rank (passive target: it takes no
 *   lock_all ... unlock_all       part); to every rank, as shared locks
 *
 * An operation (put, get, atomic, on any stream) on such a region outside an
 * access epoch to its target fails with ORDO_ERR_EPOCH and issues nothing.
 * Closing an epoch (fence, complete, unlock) completes this rank's
 * operations of every stream on the region towards the epoch's targets,
 * and opening one (fence, start, lock) acquires what others completed
 * before: MPI's rules for when data is visible hold.  Operations may also
 * be completed inside a passive epoch with the flush calls.
 *
 * Misuse is a status, never a hang and never a half-change: calls out of
 * order (complete without start, unlock of a rank not locked, a fence
 * inside a lock epoch, lock twice, ...) return ORDO_ERR_EPOCH and change
 * nothing; a wait for peers (fence, start, wait, lock) that does not hold
 * within ORDO_EPOCH_TIMEOUT seconds returns ORDO_ERR_TIMED_OUT and the log
 * names the ranks it waited for (mismatched groups); a peer that died turns
 * it into ORDO_ERR_PEER_DEAD. */

/* Assertions (MPI_MODE_*): promises that let a call skip work.  Each names
 * what it skips; a false promise is the program's error (the ones ordo can
 * see cheaply return ORDO_ERR_EPOCH). */
enum {
    /* fence: no operation on the region was issued since the previous fence
     * (by any rank; all ranks give it or none): skips completing earlier
     * operations.  With NOSUCCEED too, the fence does nothing at all. */
    ORDO_ASSERT_NOPRECEDE = 1u << 0,
    /* fence: no operation follows until the next fence (all ranks give it or
     * none): opens no access epoch. */
    ORDO_ASSERT_NOSUCCEED = 1u << 1,
    /* fence, post: this rank did not store to its part of the region since
     * the last synchronisation: skips the barrier that publishes its stores
     * (an instruction on weakly ordered CPUs, free on x86). */
    ORDO_ASSERT_NOSTORE   = 1u << 2,
    /* fence, post: no put or atomic will update this rank's part of the
     * region until the next synchronisation: the closing fence or wait skips
     * the barrier that acquires incoming data (free on x86 too). */
    ORDO_ASSERT_NOPUT     = 1u << 3,
    /* start, post, lock, lock_all: the matching post already happened / no
     * other rank holds or requests a conflicting lock: skips the handshake
     * (no waiting for posts; no lock word taken).  Give it on both start
     * and post, or on neither. */
    ORDO_ASSERT_NOCHECK   = 1u << 4
};

/* Fence (MPI_Win_fence): closes the current fence epoch (completing this
 * rank's operations), waits until every rank did the same, and opens the
 * next one (unless NOSUCCEED).  Collective over all ranks.  Not ordo_fence,
 * which only orders one stream's operations. */
ORDO_API ordo_status_t ordo_epoch_fence(ordo_region_h region, unsigned asserts);

/* Post: open an exposure epoch for the n ranks listed (distinct; this rank
 * may be among them), who may then access this rank's part of the region
 * after their start.  Does not wait.  Asserts: NOCHECK, NOSTORE, NOPUT. */
ORDO_API ordo_status_t ordo_epoch_post(ordo_region_h region, int n, const int *ranks,
                                       unsigned asserts);
/* Start: open an access epoch to the n ranks listed; returns when each of
 * them posted to this rank (or at once with NOCHECK). */
ORDO_API ordo_status_t ordo_epoch_start(ordo_region_h region, int n, const int *ranks,
                                        unsigned asserts);
/* Complete: close the access epoch opened by start; this rank's operations
 * to its group are complete at their targets on return. */
ORDO_API ordo_status_t ordo_epoch_complete(ordo_region_h region);
/* Wait: close the exposure epoch opened by post; returns when every rank
 * of its group completed, so their operations are visible here. */
ORDO_API ordo_status_t ordo_epoch_wait(ordo_region_h region);
/* Test: wait without blocking; *done_p = 1 when it closed the epoch. */
ORDO_API ordo_status_t ordo_epoch_test(ordo_region_h region, int *done_p);

typedef enum ordo_lock_type {
    ORDO_LOCK_SHARED    = 0,  /* with other shared holders */
    ORDO_LOCK_EXCLUSIVE = 1   /* alone */
} ordo_lock_type_t;

/* Lock: open a passive-target access epoch to rank; returns holding the
 * lock at rank (shared locks wait out an exclusive holder, an exclusive
 * lock waits out everyone; no fairness is promised).  Assert: NOCHECK. */
ORDO_API ordo_status_t ordo_epoch_lock(ordo_region_h region, ordo_lock_type_t type, int rank,
                                       unsigned asserts);
/* Unlock: complete this rank's operations to rank, then release the lock. */
ORDO_API ordo_status_t ordo_epoch_unlock(ordo_region_h region, int rank);
/* A shared lock at every rank, and its release. */
ORDO_API ordo_status_t ordo_epoch_lock_all(ordo_region_h region, unsigned asserts);
ORDO_API ordo_status_t ordo_epoch_unlock_all(ordo_region_h region);

/* Inside a passive-target epoch to rank (lock or lock_all): complete this
 * rank's operations to it on the region, at the target (flush), or only so
 * far that their buffers may be reused (flush_local).  The _all forms do it
 * for every rank locked. */
ORDO_API ordo_status_t ordo_epoch_flush(ordo_region_h region, int rank);
ORDO_API ordo_status_t ordo_epoch_flush_local(ordo_region_h region, int rank);
ORDO_API ordo_status_t ordo_epoch_flush_all(ordo_region_h region);
ORDO_API ordo_status_t ordo_epoch_flush_local_all(ordo_region_h region);

/* ------------------------------------------------------- two-sided: setup */

/* A matching context (like an MPI communicator over all ranks): a message
 * is received only by a receive posted on the context it was sent on, so a
 * library can keep its traffic apart from the application's (ordo_comm_h,
 * declared with the other handles). */

/* The context every process has after ordo_init (ordered matching). */
#define ORDO_COMM_WORLD ((ordo_comm_h)0)
/* No context: what ordo_comm_split gives a member that joins none.  Every
 * call refuses it with ORDO_ERR_INVALID_HANDLE. */
ORDO_API extern struct ordo_comm ordo_comm_null_object;
#define ORDO_COMM_NULL (&ordo_comm_null_object)

#define ORDO_ANY_SOURCE (-1)      /* receive / probe: from any rank */
/* A rank that is no rank (the edge of a non-periodic neighbourhood, as
 * MPI_PROC_NULL): every point-to-point and one-sided call accepts it and
 * completes at once, moving nothing and checking nothing of the target.
 * A send or put to it returns ORDO_OK with no request; a receive or probe
 * from it completes with source ORDO_PROC_NULL, tag ORDO_ANY_TAG and
 * length 0 (a non-blocking receive through a request complete at once);
 * a fetching atomic leaves its result as it was; ordo_flush, and
 * ordo_epoch_lock / unlock / flush / flush_local on it, return ORDO_OK.
 * Its arguments are still checked (handles, buffers, tags). */
#define ORDO_PROC_NULL  (-2)
#define ORDO_ANY_TAG    (-1)      /* receive / probe: any tag */
#define ORDO_TAG_MAX    0x7fffffff /* tags are 0 .. ORDO_TAG_MAX */

/* Matching order of a context:
 *  ORDERED     MPI's non-overtaking rule: of two messages from one sender
 *              that both match a receive, the one sent first is received
 *              first; receives match in the order they were posted.  Kept
 *              with per-sender sequence numbers, whatever order the
 *              transport delivers in.
 *  OVERTAKING  MPI-4 mpi_assert_allow_overtaking: messages match in the
 *              order they arrive; the completion's seq tells the send order.
 * Matching order never orders data: the payloads of matched messages move
 * in any order and in parallel. */
typedef enum ordo_match {
    ORDO_MATCH_ORDERED    = 0,
    ORDO_MATCH_OVERTAKING = 1
} ordo_match_t;

enum {
    ORDO_COMM_FIELD_MATCH = 1u << 0,
    ORDO_COMM_FIELD_RANKS = 1u << 1
};

typedef struct ordo_comm_params {
    uint64_t     field_mask;  /* ORDO_COMM_FIELD_* bits of the fields set */
    ordo_match_t match;       /* default: ORDO_MATCH_ORDERED */
    int          nranks;      /* RANKS: the members, as world ranks (any order; */
    const int   *ranks;       /*   a context's member order is ascending rank) */
} ordo_comm_params_t;

/* Collective over the members (all ranks, or those listed with
 * ORDO_COMM_FIELD_RANKS, this rank among them), called by each member in
 * the same order relative to its other context creations, with the same
 * parameters (like MPI_Comm_dup / MPI_Comm_create_group).  Ranks stay world
 * ranks on every context: sends, receives and collective roots name world
 * ranks, and a rank outside the context is ORDO_ERR_INVALID_RANK.  A member
 * that cannot build the context makes every member fail with its status.
 * A malformed list is refused by the caller alone (it cannot know whom to
 * tell): give every member the same list. */
ORDO_API ordo_status_t ordo_comm_create(const ordo_comm_params_t *params, ordo_comm_h *comm_p);
/* Collective over the members.  ORDO_ERR_BUSY on every member, and the
 * context is kept, while receives are posted on it at any member; messages
 * that arrived and were never received are discarded, with a warning. */
ORDO_API ordo_status_t ordo_comm_destroy(ordo_comm_h comm);
/* Split comm as MPI_Comm_split does: collective over comm's members, each
 * giving a color and a key.  Members of one color form a new context, its
 * member order (the index each has in it: its rank there) by key, ties by
 * their order in comm.  A negative color joins none: *comm_p is
 * ORDO_COMM_NULL.  The new context matches as comm does.  As everywhere,
 * sends, receives and roots on it name world ranks: ordo_comm_member and
 * ordo_comm_index translate.  Failures are agreed over comm's members. */
ORDO_API ordo_status_t ordo_comm_split(ordo_comm_h comm, int color, int key,
                                       ordo_comm_h *comm_p);
/* Number of members, and the world rank of member index (0 .. size-1, in
 * member order: ascending ranks for ordo_comm_create, by key for
 * ordo_comm_split). */
ORDO_API ordo_status_t ordo_comm_size(ordo_comm_h comm, int *size_p);
ORDO_API ordo_status_t ordo_comm_member(ordo_comm_h comm, int index, int *rank_p);
/* The index (rank within the context) of world rank `rank`: ORDO_ERR_INVALID_RANK
 * (and *index_p = -1) for a rank that is not a member.  ordo_comm_rank
 * gives this process's (MPI_Comm_rank). */
ORDO_API ordo_status_t ordo_comm_index(ordo_comm_h comm, int rank, int *index_p);
ORDO_API ordo_status_t ordo_comm_rank(ordo_comm_h comm, int *index_p);

/* What a completed request reports.  For receives and probes source, tag,
 * seq and the lengths describe the message; for sends and one-sided
 * operations source and tag are -1. */
typedef struct ordo_completion {
    int           source;      /* sending rank */
    int           tag;
    size_t        length;      /* bytes delivered into the receive buffer */
    size_t        msg_length;  /* bytes the sender sent (> length: truncated) */
    uint64_t      seq;         /* the message's number among the sender's sends to
                                  this rank on this context, from 0 */
    ordo_status_t error;       /* the operation's status (ORDO_ERR_TRUNCATED, ...) */
    int           cancelled;   /* the receive was cancelled before it matched */
} ordo_completion_t;

/* ------------------------------------------------------- two-sided: data */

/* Blocking send of len bytes (0 allowed) to rank dest with tag: returns
 * when buf may be reused.  Messages within the eager limit complete when
 * copied out; larger ones when the receiver took the data (rendezvous), so
 * a blocking send of a large message waits for its receive, as MPI_Send
 * may.  The eager limit is ORDO_EAGER_MAX where it is set; left auto, it is
 * ORDO_EAGER_MAX's auto value, except that on shared memory a message sent
 * while none of its sender's to that peer is in flight goes by rendezvous
 * above the size where a single copy measured cheaper (ordo-info prints
 * that size; never below ORDO_SHORT_MAX).  A receiver inside an ordo call
 * takes such a message before its receive is posted (at once where its own
 * send to the sender waits, else within some tens of microseconds), so
 * ranks that all send before they receive, in pairs or around a ring,
 * still complete. */
ORDO_API ordo_status_t ordo_send(ordo_comm_h comm, const void *buf, size_t len, int dest,
                                 int tag);
/* Non-blocking send: ORDO_OK when complete at once (*req_p = NULL), else
 * ORDO_INPROGRESS with a request; buf must stay untouched until it
 * completes.  req_p is required. */
ORDO_API ordo_status_t ordo_send_nb(ordo_comm_h comm, const void *buf, size_t len, int dest,
                                    int tag, ordo_request_h *req_p);
/* Synchronous send (MPI_Ssend, MPI_Issend): as ordo_send / ordo_send_nb,
 * but complete only once the receiver matched the message, whatever its
 * size (it always goes by rendezvous). */
ORDO_API ordo_status_t ordo_send_sync(ordo_comm_h comm, const void *buf, size_t len, int dest,
                                      int tag);
ORDO_API ordo_status_t ordo_send_sync_nb(ordo_comm_h comm, const void *buf, size_t len,
                                         int dest, int tag, ordo_request_h *req_p);

/* Blocking receive into buf of cap bytes from source (or ORDO_ANY_SOURCE)
 * with tag (or ORDO_ANY_TAG).  A longer message fills buf and returns
 * ORDO_ERR_TRUNCATED; the rest is dropped and nothing past buf is written.
 * info_p may be NULL.  A cap (or, for sends, a len) that cannot describe
 * memory (more than PTRDIFF_MAX bytes, or wrapping past the end of the
 * address space) is refused with ORDO_ERR_INVALID_PARAM. */
ORDO_API ordo_status_t ordo_recv(ordo_comm_h comm, void *buf, size_t cap, int source, int tag,
                                 ordo_completion_t *info_p);
/* Non-blocking receive; completes through the request (req_p required). */
ORDO_API ordo_status_t ordo_recv_nb(ordo_comm_h comm, void *buf, size_t cap, int source,
                                    int tag, ordo_request_h *req_p);

/* Send sbuf to dest and receive into rbuf from source at once, as
 * MPI_Sendrecv: the receive is posted first, so exchanges in a ring or with
 * a partner never deadlock whatever the message sizes.  Either side may be
 * ORDO_PROC_NULL.  info_p (may be NULL) describes the receive.  Returns the
 * send's error if it failed, else the receive's status (ORDO_ERR_TRUNCATED
 * when the message was longer than rcap).  If the send cannot start, the
 * receive is cancelled (a message it matched meanwhile stays received) and
 * the send's error returned. */
ORDO_API ordo_status_t ordo_sendrecv(ordo_comm_h comm, const void *sbuf, size_t slen, int dest,
                                     int stag, void *rbuf, size_t rcap, int source, int rtag,
                                     ordo_completion_t *info_p);

/* Wait until a message matching (source, tag) can be received and describe
 * it in *info_p without receiving it (info_p may be NULL: then it only
 * waits, as MPI_Probe with MPI_STATUS_IGNORE).  Like a blocking receive it
 * waits until such a message comes, or its source dies (ORDO_ERR_PEER_DEAD). */
ORDO_API ordo_status_t ordo_probe(ordo_comm_h comm, int source, int tag,
                                  ordo_completion_t *info_p);
/* Non-blocking probe: *flag_p = 1 and *info_p filled when such a message
 * is there, else *flag_p = 0.  info_p may be NULL. */
ORDO_API ordo_status_t ordo_probe_nb(ordo_comm_h comm, int source, int tag, int *flag_p,
                                     ordo_completion_t *info_p);

/* Cancel a posted receive that has not matched yet: it then completes with
 * info.cancelled = 1 and status ORDO_OK.  A receive that already matched
 * completes normally (cancelled = 0).  The request must still be waited
 * for.  Sends and one-sided operations cannot be cancelled
 * (ORDO_ERR_UNSUPPORTED). */
ORDO_API ordo_status_t ordo_request_cancel(ordo_request_h req);

/* --------------------------------------------------------------- requests */

/* Requests of every kind (one-sided, send, receive) are completed by the
 * calls below.  Where a completion info pointer is taken it may be NULL. */

/* Test a request without blocking.  *done_p is 1 when it completed; then the
 * request is released, *req is set to NULL, *info_p is filled and the
 * operation's status is returned.  Otherwise ORDO_OK with *done_p = 0.  A
 * NULL *req is complete. */
ORDO_API ordo_status_t ordo_request_test(ordo_request_h *req, int *done_p,
                                         ordo_completion_t *info_p);

/* Whether a request completed, without releasing it (MPI_Request_get_status):
 * *done_p = 1, *info_p filled and the operation's status returned when it
 * did; ORDO_OK with *done_p = 0 when not (one progress pass runs).  The
 * request stays the program's either way, to be completed by wait or test.
 * A NULL or inactive persistent request is done, with an empty info. */
ORDO_API ordo_status_t ordo_request_check(ordo_request_h req, int *done_p,
                                          ordo_completion_t *info_p);

/* Wait for a request, release it, set *req to NULL; returns its status. */
ORDO_API ordo_status_t ordo_request_wait(ordo_request_h *req, ordo_completion_t *info_p);

/* Wait for all n requests (NULL entries are complete); every entry is set to
 * NULL.  infos, when not NULL, has n entries.  Returns ORDO_OK or the first
 * error among them. */
ORDO_API ordo_status_t ordo_request_waitall(size_t n, ordo_request_h *reqs,
                                            ordo_completion_t *infos);

/* Wait until one of n requests completes; release it, set its entry to
 * NULL and *index_p to its index.  When every entry is NULL, *index_p is
 * ORDO_INDEX_NONE at once.  Returns that request's status. */
#define ORDO_INDEX_NONE ((size_t)-1)
ORDO_API ordo_status_t ordo_request_waitany(size_t n, ordo_request_h *reqs, size_t *index_p,
                                            ordo_completion_t *info_p);

/* Complete whichever of n requests are done, without blocking: their
 * indices go to indices[0 .. *count_p) (and their infos to infos[], when
 * not NULL, in the same order).  Returns ORDO_OK or the first error. */
ORDO_API ordo_status_t ordo_request_testsome(size_t n, ordo_request_h *reqs, size_t *count_p,
                                             size_t *indices, ordo_completion_t *infos);

/* Persistent point-to-point requests (MPI_Send_init, MPI_Recv_init,
 * MPI_Start, MPI_Startall): the arguments are checked and bound once, and
 * each ordo_start begins one transfer with them.  It is completed by the
 * calls above, which report it as for ordo_send_nb / ordo_recv_nb but
 * leave the handle in place (not NULL), inactive until the next start.
 * Waiting for or testing an inactive handle returns ORDO_OK at once with
 * an empty info; waitall / waitany / testsome pass over inactive handles
 * as over NULL ones.  Starting an active request is ORDO_ERR_BUSY;
 * ordo_startall checks every request before it starts any.  Cancel
 * applies to the running transfer.  A start the transfer refuses (the
 * context destroyed since: ORDO_ERR_INVALID_HANDLE; a dead peer) returns
 * that error and leaves the request inactive. */
ORDO_API ordo_status_t ordo_send_init(ordo_comm_h comm, const void *buf, size_t len, int dest,
                                      int tag, ordo_request_h *req_p);
ORDO_API ordo_status_t ordo_recv_init(ordo_comm_h comm, void *buf, size_t cap, int source,
                                      int tag, ordo_request_h *req_p);
ORDO_API ordo_status_t ordo_start(ordo_request_h req);
ORDO_API ordo_status_t ordo_startall(size_t n, ordo_request_h *reqs);
/* Release an inactive persistent request and set *req to NULL (an active
 * one: ORDO_ERR_BUSY; any other request: ORDO_ERR_INVALID_PARAM, they end
 * with wait or test). */
ORDO_API ordo_status_t ordo_request_free(ordo_request_h *req);

/* Drive communication (engine completions, deferred operations). */
ORDO_API ordo_status_t ordo_progress(void);

/* Which transport carries this process's operations to rank, as text:
 * "self", "shm", or for the network "ofi tcp;ofi_rxm on eth0, 4 lanes"
 * (truncated to len).  ORDO_ERR_INVALID_RANK outside [0, size). */
ORDO_API ordo_status_t ordo_transport_describe(int rank, char *buf, size_t len);

/* The value setting name (an ORDO_* variable; `ordo-info` lists them) has
 * in this job, as text (truncated to len): what it was set to, or for one
 * left `auto` whose value ordo chooses from the machine and the job (the
 * offload engines, the PIO limit, the two-sided thresholds), the choice
 * and why, e.g. for ORDO_ENGINES on 2 ranks of 2 cores "0: 2 ranks x 1
 * thread on 2 CPUs leave 0 idle: ...".  Other auto settings read "auto".
 * ORDO_ERR_INVALID_PARAM for a name that is no setting. */
ORDO_API ordo_status_t ordo_setting_describe(const char *name, char *buf, size_t len);

/* ------------------------------------------------------------ collectives */

/* Collectives run over the members of a context (ORDO_COMM_WORLD: every
 * rank; see ordo_comm_create for subsets).  Every member calls the same
 * collectives in the same order with matching arguments; roots are world
 * ranks.  Each has a non-blocking form (_nb: ORDO_OK when it finished at
 * once with *req_p = NULL, else ORDO_INPROGRESS and a request to test or
 * wait for; buffers stay untouched until then).  Several may be in flight on
 * one context, and they never match the program's own messages.  The
 * algorithm follows ORDO_COLL_* settings (ordo-info lists them); a forced
 * one-sided algorithm on a context without a scratch slot runs its
 * two-sided counterpart.  Buffer sizes (count x element size, len x members)
 * that overflow or pass PTRDIFF_MAX are refused with ORDO_ERR_INVALID_PARAM
 * by every member that passes them.
 *
 * Errors are agreed: a call that fails at one member (a refused argument,
 * no memory, a truncated step, a dead member) fails with the same status at
 * every member that had not completed it, as soon as that member hears of
 * it — never after a timeout.  A call refused by every member (or failed
 * everywhere before anyone started it) leaves the context in step.  Once a
 * member had started a failed call, the context's collectives are over:
 * every later collective on it fails with ORDO_ERR_COLL_BROKEN at every
 * member (its point-to-point traffic is not affected; create a new context
 * to go on).  A member that needs nothing from the failing one (a
 * broadcast's root) may complete the call before it hears; it logs it. */

typedef enum ordo_dtype {
    ORDO_DT_INT32  = 0,
    ORDO_DT_INT64  = 1,
    ORDO_DT_FLOAT  = 2,
    ORDO_DT_DOUBLE = 3
} ordo_dtype_t;

/* SUM, MIN, MAX, PROD on every type; BAND, BOR on the integer types only.
 * Results are identical at every member (each element is combined once, in
 * one order, then distributed). */
typedef enum ordo_reduce_op {
    ORDO_REDUCE_SUM  = 0,
    ORDO_REDUCE_MIN  = 1,
    ORDO_REDUCE_MAX  = 2,
    ORDO_REDUCE_PROD = 3,
    ORDO_REDUCE_BAND = 4,
    ORDO_REDUCE_BOR  = 5
} ordo_reduce_op_t;

ORDO_API ordo_status_t ordo_coll_barrier(ordo_comm_h comm);
ORDO_API ordo_status_t ordo_coll_barrier_nb(ordo_comm_h comm, ordo_request_h *req_p);

/* len bytes of root's buf into every member's buf. */
ORDO_API ordo_status_t ordo_coll_bcast(ordo_comm_h comm, void *buf, size_t len, int root);
ORDO_API ordo_status_t ordo_coll_bcast_nb(ordo_comm_h comm, void *buf, size_t len, int root,
                                          ordo_request_h *req_p);

/* Element-wise reduction of count elements; the result in root's rbuf
 * (reduce; rbuf is ignored elsewhere and may be NULL) or in every member's
 * (allreduce).  sbuf == rbuf reduces in place. */
ORDO_API ordo_status_t ordo_coll_reduce(ordo_comm_h comm, const void *sbuf, void *rbuf,
                                        size_t count, ordo_dtype_t dtype, ordo_reduce_op_t op,
                                        int root);
ORDO_API ordo_status_t ordo_coll_reduce_nb(ordo_comm_h comm, const void *sbuf, void *rbuf,
                                           size_t count, ordo_dtype_t dtype,
                                           ordo_reduce_op_t op, int root,
                                           ordo_request_h *req_p);
ORDO_API ordo_status_t ordo_coll_allreduce(ordo_comm_h comm, const void *sbuf, void *rbuf,
                                           size_t count, ordo_dtype_t dtype,
                                           ordo_reduce_op_t op);
ORDO_API ordo_status_t ordo_coll_allreduce_nb(ordo_comm_h comm, const void *sbuf, void *rbuf,
                                              size_t count, ordo_dtype_t dtype,
                                              ordo_reduce_op_t op, ordo_request_h *req_p);

/* Every member's len bytes, in member order (ascending rank), into root's
 * rbuf (gather; n * len bytes) or every member's (allgather). */
ORDO_API ordo_status_t ordo_coll_gather(ordo_comm_h comm, const void *sbuf, size_t len,
                                        void *rbuf, int root);
ORDO_API ordo_status_t ordo_coll_gather_nb(ordo_comm_h comm, const void *sbuf, size_t len,
                                           void *rbuf, int root, ordo_request_h *req_p);
ORDO_API ordo_status_t ordo_coll_allgather(ordo_comm_h comm, const void *sbuf, size_t len,
                                           void *rbuf);
ORDO_API ordo_status_t ordo_coll_allgather_nb(ordo_comm_h comm, const void *sbuf, size_t len,
                                              void *rbuf, ordo_request_h *req_p);

/* Block j (len bytes at sbuf + j * len) goes to member j, arriving at
 * rbuf + i * len there, where i is this member's index. */
ORDO_API ordo_status_t ordo_coll_alltoall(ordo_comm_h comm, const void *sbuf, size_t len,
                                          void *rbuf);
ORDO_API ordo_status_t ordo_coll_alltoall_nb(ordo_comm_h comm, const void *sbuf, size_t len,
                                             void *rbuf, ordo_request_h *req_p);

/* root's sbuf holds one block of len bytes per member, in member order;
 * member i gets block i in rbuf (sbuf is ignored elsewhere and may be
 * NULL). */
ORDO_API ordo_status_t ordo_coll_scatter(ordo_comm_h comm, const void *sbuf, size_t len,
                                         void *rbuf, int root);
ORDO_API ordo_status_t ordo_coll_scatter_nb(ordo_comm_h comm, const void *sbuf, size_t len,
                                            void *rbuf, int root, ordo_request_h *req_p);

/* The vector forms: blocks of different lengths.  lens[j] and displs[j]
 * (bytes) give member j's block in the buffer they describe; they are read
 * where that buffer is (gatherv, scatterv: at the root only; allgatherv,
 * alltoallv: everywhere) and may be NULL elsewhere.  Each member's own len
 * must equal what the others' arrays say of it: a block longer than its
 * slot is ORDO_ERR_TRUNCATED (agreed, as every collective error).  Blocks
 * must not overlap in a receive buffer. */
ORDO_API ordo_status_t ordo_coll_gatherv(ordo_comm_h comm, const void *sbuf, size_t len,
                                         void *rbuf, const size_t *lens, const size_t *displs,
                                         int root);
ORDO_API ordo_status_t ordo_coll_gatherv_nb(ordo_comm_h comm, const void *sbuf, size_t len,
                                            void *rbuf, const size_t *lens,
                                            const size_t *displs, int root,
                                            ordo_request_h *req_p);
ORDO_API ordo_status_t ordo_coll_scatterv(ordo_comm_h comm, const void *sbuf, const size_t *lens,
                                          const size_t *displs, void *rbuf, size_t len,
                                          int root);
ORDO_API ordo_status_t ordo_coll_scatterv_nb(ordo_comm_h comm, const void *sbuf,
                                             const size_t *lens, const size_t *displs,
                                             void *rbuf, size_t len, int root,
                                             ordo_request_h *req_p);
ORDO_API ordo_status_t ordo_coll_allgatherv(ordo_comm_h comm, const void *sbuf, size_t len,
                                            void *rbuf, const size_t *lens,
                                            const size_t *displs);
ORDO_API ordo_status_t ordo_coll_allgatherv_nb(ordo_comm_h comm, const void *sbuf, size_t len,
                                               void *rbuf, const size_t *lens,
                                               const size_t *displs, ordo_request_h *req_p);
/* Member j gets slens[j] bytes from sbuf + sdispls[j]; this member's block
 * from member j arrives at rbuf + rdispls[j], rlens[j] bytes. */
ORDO_API ordo_status_t ordo_coll_alltoallv(ordo_comm_h comm, const void *sbuf,
                                           const size_t *slens, const size_t *sdispls,
                                           void *rbuf, const size_t *rlens,
                                           const size_t *rdispls);
ORDO_API ordo_status_t ordo_coll_alltoallv_nb(ordo_comm_h comm, const void *sbuf,
                                              const size_t *slens, const size_t *sdispls,
                                              void *rbuf, const size_t *rlens,
                                              const size_t *rdispls, ordo_request_h *req_p);

/* The neighbourhood exchange (MPI's neighbourhood collectives, on any
 * graph): this member sends nout blocks, block k (slens[k] bytes at sbuf +
 * sdispls[k]) to dests[k], and receives nin blocks, block k (rlens[k]
 * bytes at rbuf + rdispls[k]) from srcs[k]; dests and srcs are world ranks
 * of members (repeats allowed, oneself too).  Every member calls it, as any
 * collective, each with its own neighbours (none is fine); all transfers go
 * at once.  A block is received by the receive from its sender with the
 * same tag (stags[k], rtags[k]: 0 .. 63; NULL: all 0), the k-th sent to a
 * peer with a tag by the k-th receive from that peer with it: tags tell
 * apart blocks that two members exchange in several roles (the two
 * directions of a periodic dimension of size 2).  A block longer than its
 * receive is ORDO_ERR_TRUNCATED.  Receive blocks must not overlap. */
ORDO_API ordo_status_t ordo_coll_neighbor_alltoallv(
    ordo_comm_h comm, const void *sbuf, int nout, const int *dests, const size_t *slens,
    const size_t *sdispls, const int *stags, void *rbuf, int nin, const int *srcs,
    const size_t *rlens, const size_t *rdispls, const int *rtags);
ORDO_API ordo_status_t ordo_coll_neighbor_alltoallv_nb(
    ordo_comm_h comm, const void *sbuf, int nout, const int *dests, const size_t *slens,
    const size_t *sdispls, const int *stags, void *rbuf, int nin, const int *srcs,
    const size_t *rlens, const size_t *rdispls, const int *rtags, ordo_request_h *req_p);

/* Reduce, then scatter: sbuf holds the sum of counts[] elements at every
 * member; member i gets the element-wise reduction of segment i (counts[i]
 * elements, after the segments before it) in rbuf.  The _block form gives
 * every member count elements (sbuf: members x count).  counts must be the
 * same array at every member. */
ORDO_API ordo_status_t ordo_coll_reduce_scatter(ordo_comm_h comm, const void *sbuf, void *rbuf,
                                                const size_t *counts, ordo_dtype_t dtype,
                                                ordo_reduce_op_t op);
ORDO_API ordo_status_t ordo_coll_reduce_scatter_nb(ordo_comm_h comm, const void *sbuf,
                                                   void *rbuf, const size_t *counts,
                                                   ordo_dtype_t dtype, ordo_reduce_op_t op,
                                                   ordo_request_h *req_p);
ORDO_API ordo_status_t ordo_coll_reduce_scatter_block(ordo_comm_h comm, const void *sbuf,
                                                      void *rbuf, size_t count,
                                                      ordo_dtype_t dtype, ordo_reduce_op_t op);
ORDO_API ordo_status_t ordo_coll_reduce_scatter_block_nb(ordo_comm_h comm, const void *sbuf,
                                                         void *rbuf, size_t count,
                                                         ordo_dtype_t dtype,
                                                         ordo_reduce_op_t op,
                                                         ordo_request_h *req_p);

/* Prefix reductions in member order: scan gives member i the reduction of
 * members 0 .. i (inclusive), exscan of members 0 .. i-1 (member 0's rbuf
 * is left as it was).  sbuf == rbuf works in place. */
ORDO_API ordo_status_t ordo_coll_scan(ordo_comm_h comm, const void *sbuf, void *rbuf,
                                      size_t count, ordo_dtype_t dtype, ordo_reduce_op_t op);
ORDO_API ordo_status_t ordo_coll_scan_nb(ordo_comm_h comm, const void *sbuf, void *rbuf,
                                         size_t count, ordo_dtype_t dtype, ordo_reduce_op_t op,
                                         ordo_request_h *req_p);
ORDO_API ordo_status_t ordo_coll_exscan(ordo_comm_h comm, const void *sbuf, void *rbuf,
                                        size_t count, ordo_dtype_t dtype, ordo_reduce_op_t op);
ORDO_API ordo_status_t ordo_coll_exscan_nb(ordo_comm_h comm, const void *sbuf, void *rbuf,
                                           size_t count, ordo_dtype_t dtype,
                                           ordo_reduce_op_t op, ordo_request_h *req_p);

/* ------------------------------------------------------------- statistics */

/* What the runtime did, and what ordering cost it.  Sums over all streams. */
#define ORDO_STATS_LANES 8                /* ORDO_OFI_LANES is at most this */

typedef struct ordo_stats {
    uint64_t puts, gets, atomics;       /* operations issued by the program */
    uint64_t bytes_put, bytes_got;
    uint64_t pio_ops;                   /* done by loads/stores in mapped memory */
    uint64_t engine_ops;                /* handed to an offload engine */
    uint64_t single_copy_ops;           /* process_vm_readv/writev */
    uint64_t ops_deferred;              /* held back because the order required it */
    uint64_t ops_serialised;            /* blocking ops that waited for earlier ones */
    uint64_t fences_inserted;           /* memory fences issued to keep order */
    uint64_t fence_calls, quiet_calls, flush_calls;
    uint64_t attach_hits, attach_misses, attach_evictions;  /* peer mapping cache */
    /* two-sided */
    uint64_t sends, recvs;              /* messages sent, receives completed */
    uint64_t recvs_direct;              /* blocking receives that took a short message
                                           straight from the sender's queue */
    uint64_t bytes_sent, bytes_received;
    uint64_t msgs_short, msgs_eager, msgs_rget, msgs_rput, msgs_pipelined;  /* by protocol */
    uint64_t msgs_unexpected;           /* arrived before their receive was posted */
    uint64_t msgs_early;                /* arrived ahead of sequence, held to keep order */
    uint64_t credit_stalls;             /* sends held back by flow control */
    uint64_t deliveries_reordered;      /* shuffled by the ORDO_TL_REORDER test mode */
    /* collectives */
    uint64_t collectives;               /* collectives completed */
    /* RMA synchronisation epochs */
    uint64_t epoch_syncs;               /* fences, starts, waits and locks that
                                           synchronised with peers */
    uint64_t epoch_skips;               /* steps skipped on the strength of an assertion */
    uint64_t lock_retries;              /* lock attempts that found the lock taken */
    /* the network */
    uint64_t completions_reordered;     /* one-sided operations that completed after a
                                           later one of their stream (lanes, engines) */
    uint64_t registrations;             /* local buffers registered with the network for
                                           one operation */
    uint64_t registration_ns;           /* time those registrations took */
    uint64_t bounce_ops;                /* small transfers copied through pre-registered
                                           bounce buffers instead */
    uint64_t rcache_hits, rcache_misses;   /* registration cache lookups */
    uint64_t rcache_evictions;          /* unused registrations dropped for the bounds */
    uint64_t rcache_invalidations;      /* dropped because their memory was unmapped,
                                           remapped or released to the kernel */
    uint64_t network_ordered;           /* default-mode writes issued behind one in flight
                                           without waiting: the transport keeps their order
                                           (one endpoint, the provider's FI_ORDER_* bits) */
    uint64_t puts_batched;              /* short puts, and atomics whose old value nobody
                                           wants, gathered into batches (one message per
                                           peer and lane, ORDO_OFI_PUT_BATCH) */
    uint64_t put_batches;               /* those batches sent */
    uint64_t msgs_bundled;              /* short messages (sends, protocol messages)
                                           gathered into bundles (one message per peer
                                           and lane, ORDO_OFI_MSG_BUNDLE) */
    uint64_t msg_bundles;               /* those bundles sent */
    uint64_t pinned_bytes;              /* memory the network's registrations hold pinned
                                           now, counted per registration as the kernel
                                           counts a NIC's (ORDO_OFI_MR_LOCAL=2; a NIC's
                                           provider pins, and counts, for itself) */
    uint64_t signals;                   /* ordo_put_signal(_nb) calls (what holding the
                                           signal behind its put cost is in ops_deferred
                                           and ops_serialised) */
    uint64_t ops_stream_locked;         /* at ORDO_THREAD_MULTIPLE, one-sided calls done
                                           under their stream's lock alone, without the
                                           process-wide one: put, get, atomic, put_signal
                                           done at once in mapped memory (nothing pending
                                           on the stream, no epochs); fence; quiet and
                                           flush with nothing pending */
    /* which lane of the network carried what (ORDO_OFI_LANES): operations
     * per lane, and the unordered ones that kept to their peer's current
     * lane (short puts and messages fill one batch there) or spread to
     * another (large transfers, or the current lane busy) */
    uint64_t lane_ops[ORDO_STATS_LANES];
    uint64_t lane_kept, lane_spread;
    /* what the ordering freedoms were used for: one-sided operations
     * (puts + gets + atomics as counted above) issued on streams of each
     * mode, indexed by ordo_order_t; and messages of overtaking contexts that
     * arrived ahead of an earlier send of their sender and were matched at
     * once (an ordered context would have held them back: msgs_early) */
    uint64_t ops_by_order[3];
    uint64_t msgs_overtook;
    uint64_t msgs_split;                /* rendezvous-gets received here whose data both
                                           sides copied, a half each (ORDO_RNDV_SPLIT) */
    uint64_t rma_held;                  /* network puts and gets held until earlier ones
                                           to the same peer on the same lane completed:
                                           the bytes in flight there had reached
                                           ORDO_OFI_INFLIGHT_MAX */
} ordo_stats_t;

ORDO_API ordo_status_t ordo_stats_get(ordo_stats_t *stats_p);
/* Print the counters, one "name value" per line, to stream. */
ORDO_API ordo_status_t ordo_stats_print(FILE *stream);

#ifdef __cplusplus
}
#endif
#endif
