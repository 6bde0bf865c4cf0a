/* MPI-RMA synchronisation epochs on regions created with ORDO_REGION_EPOCHS.
 *
 * Such a region has a companion region of synchronisation words, allocated
 * with it (so mapped between local peers).  At every rank it holds:
 *
 *   WRITER          the rank's lock: the exclusive holder's rank + 1
 *   READER[r]       1 while rank r holds a shared lock here (a line each)
 *   FENCE[r]        fences rank r passed
 *   POST[r]         exposure epochs rank r opened to this rank (post)
 *   COMPLETE[r]     access epochs rank r closed towards this rank (complete)
 *
 * Only rank r writes its entries (and its reader flag), so they are plain
 * stores; the writer word alone takes a compare-and-swap.  The counters
 * only grow — nothing is ever reset, so a slow reader cannot take
 * an old epoch for a new one — and each rank keeps locally how many it
 * consumed.  Every wait for peers polls this rank's own words; taking a
 * lock is the one wait on another rank's words.
 *
 * The fence is a split barrier over those counters: arrive at every rank,
 * then wait for every rank's arrival here.  Ranks that skip a fence skip
 * it together (NOPRECEDE and NOSUCCEED are collective assertions), so the
 * counts stay in step. */
#define _POSIX_C_SOURCE 200809L
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "epoch.h"
#include "../base/config.h"
#include "../base/log.h"
#include "../base/timer.h"

#define SYNC_COUNTERS  (SYNC_READERS + 64 * (size_t)ordo_ctx->size)
enum { CNT_FENCE, CNT_POST, CNT_COMPLETE, CNT_KINDS };

#define FENCE_ASSERTS (ORDO_ASSERT_NOPRECEDE | ORDO_ASSERT_NOSUCCEED | ORDO_ASSERT_NOSTORE | \
                       ORDO_ASSERT_NOPUT)
#define POST_ASSERTS  (ORDO_ASSERT_NOCHECK | ORDO_ASSERT_NOSTORE | ORDO_ASSERT_NOPUT)

static inline size_t cnt_off(int kind, int rank)
{
    return SYNC_COUNTERS + ((size_t)kind * (size_t)ordo_ctx->size + (size_t)rank) * 8;
}

static inline _Atomic uint64_t *my_word(const struct rma_epoch *ep, size_t off)
{
    return (_Atomic uint64_t *)((char *)ep->sync->addr + off);
}

/* An atomic on a synchronisation word at rank: by loads and stores where
 * it is mapped, else through its transport. */
ordo_status_t epoch_sync_amo(const struct rma_epoch *ep, int rank, size_t off,
                             ordo_atomic_op_t aop, uint64_t value, uint64_t compare,
                             uint64_t *old_p)
{
    ordo_tl_rkey_t *k = ep->sync->rkeys[rank];
    uint64_t old = 0;
    if (ORDO_LIKELY(k->ptr != NULL)) {
        old = ordo_tl_atomic_apply((char *)k->ptr + off, aop, 8, value, compare);
    } else {
        ordo_tl_iface_t *f = ordo_iface_of(rank);
        ordo_status_t st = f->ops->atomic(f, k, off, aop, 8, value, compare, &old, 0, NULL);
        if (st != ORDO_OK) {
            ordo_error("synchronising with rank %d: %s", rank, ordo_status_string(st));
            return st;
        }
    }
    if (old_p)
        *old_p = old;
    return ORDO_OK;
}

/* Store to a synchronisation word at rank that only this rank writes (a
 * counter of its own, its reader flag, the writer word it holds): a plain
 * store-release where it is mapped — no locked instruction. */
ordo_status_t epoch_sync_store(const struct rma_epoch *ep, int rank, size_t off,
                               uint64_t value)
{
    ordo_tl_rkey_t *k = ep->sync->rkeys[rank];
    if (ORDO_LIKELY(k->ptr != NULL)) {
        atomic_store_explicit((_Atomic uint64_t *)((char *)k->ptr + off), value,
                              memory_order_release);
        return ORDO_OK;
    }
    uint64_t old;
    return epoch_sync_amo(ep, rank, off, ORDO_ATOMIC_SWAP, value, 0, &old);
}

epoch_counters_t epoch_counters;

/* ------------------------------------------------------------ waiting */

/* The clock is read only once a wait has gone on a while: most epoch
 * calls (a lock nobody else holds) wait for nothing and need no clock. */
void epoch_waiter_init(waiter_t *w)
{
    w->deadline = 0;
    w->idle = w->looks = 0;
}

/* One pass of a wait that has not held: progress, and every few hundred
 * passes the clock (ORDO_ERR_TIMED_OUT) and the health of the ranks waited
 * for (ORDO_ERR_PEER_DEAD): group[first .. n), or ranks first .. n-1 when
 * group is NULL. */
static inline int member(const int *group, int i) { return group ? group[i] : i; }

/* The first of group[first .. n) that died, or -1. */
static int first_dead(const int *group, int first, int n)
{
    for (int i = first; i < n; i++)
        if (ordo_boot_rank_dead(ordo_ctx->boot, member(group, i)))
            return member(group, i);
    return -1;
}

ordo_status_t epoch_waiter_pass(waiter_t *w, const int *group, int first, int n)
{
    ordo_progress_wait(&w->idle);
    if ((++w->looks & 255) != 0)
        return ORDO_OK;
    if (first_dead(group, first, n) >= 0)
        return ORDO_ERR_PEER_DEAD;
    int t = ordo_config.epoch_timeout;
    if (t > 0) {
        uint64_t now = ordo_time_ns();
        if (w->deadline == 0)
            w->deadline = now + (uint64_t)t * 1000000000ull;   /* from the first look */
        else if (now > w->deadline)
            return ORDO_ERR_TIMED_OUT;
    }
    return ORDO_OK;
}

/* Writes "3, 5, 9" (at most a dozen, then "...") of the ranks listed. */
static void format_ranks(char *buf, size_t cap, const int *ranks, int n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && len + 16 < cap; i++) {
        if (i == 12) {
            snprintf(buf + len, cap - len, ", ...");
            return;
        }
        len += (size_t)snprintf(buf + len, cap - len, "%s%d", i ? ", " : "", ranks[i]);
    }
}

/* Has rank's entry of counter kind here reached its target: base[rank] + 1,
 * or `all` without base? */
static inline int counter_holds(const struct rma_epoch *ep, int kind, int rank,
                                const uint64_t *base, uint64_t all)
{
    uint64_t need = base ? base[rank] + 1 : all;
    return atomic_load_explicit(my_word(ep, cnt_off(kind, rank)), memory_order_acquire) >= need;
}

/* Wait until this rank's counter `kind` of every rank of group (NULL: all
 * ranks) reaches its target (counter_holds).  blocking 0: one look,
 * ORDO_INPROGRESS when it does not hold yet. */
static ordo_status_t wait_counters(struct ordo_region *r, const char *call, const char *missing,
                                   int kind, const int *group, int n, const uint64_t *base,
                                   uint64_t all, int blocking)
{
    struct rma_epoch *ep = r->epoch;
    waiter_t w;
    epoch_waiter_init(&w);
    int first = 0;   /* every member before it holds; counters only grow */
    for (;;) {
        while (first < n && counter_holds(ep, kind, member(group, first), base, all))
            first++;
        if (first == n)
            return ORDO_OK;
        ordo_status_t st;
        if (!blocking) {
            ordo_progress_once();
            int dead = first_dead(group, first, n);
            if (dead < 0)
                return ORDO_INPROGRESS;
            ordo_error("%s on region %u: rank %d died", call, r->id, dead);
            return ORDO_ERR_PEER_DEAD;
        }
        if ((st = epoch_waiter_pass(&w, group, first, n)) == ORDO_OK)
            continue;
        int *late = malloc(sizeof(int) * (size_t)(n - first));
        int nlate = 0, dead = -1;
        for (int i = first; late && i < n; i++) {
            int rank = member(group, i);
            if (!counter_holds(ep, kind, rank, base, all)) {
                late[nlate++] = rank;
                if (ordo_boot_rank_dead(ordo_ctx->boot, rank))
                    dead = rank;
            }
        }
        char list[160] = "";
        if (late)
            format_ranks(list, sizeof(list), late, nlate);
        free(late);
        if (st == ORDO_ERR_PEER_DEAD) {
            ordo_error("%s on region %u: rank %d died (still waiting for ranks %s)", call, r->id,
                       dead, list);
        } else {
            ordo_error("%s on region %u: ranks %s %s within ORDO_EPOCH_TIMEOUT=%d s "
                       "(mismatched groups or calls?)", call, r->id, list, missing,
                       ordo_config.epoch_timeout);
        }
        return st;
    }
}

/* ------------------------------------------------------------ checks */

ordo_status_t epoch_of(ordo_region_h region, const char *call, struct rma_epoch **ep_p)
{
    if (region == NULL || region->magic != ORDO_MAGIC_REGION)
        return ORDO_ERR_INVALID_HANDLE;
    if (region->epoch == NULL) {
        ordo_error("%s: region %u was not created with ORDO_REGION_EPOCHS", call, region->id);
        return ORDO_ERR_EPOCH;
    }
    *ep_p = region->epoch;
    return ORDO_OK;
}

ordo_status_t epoch_misuse(const struct ordo_region *r, const char *call, const char *why)
{
    ordo_error("%s on region %u: %s", call, r->id, why);
    return ORDO_ERR_EPOCH;
}

/* A fence opens an epoch only if operations follow it (MPI's rule), so
 * another kind of epoch may begin after a fence that no operation used. */
ordo_status_t epoch_leave_fence(struct ordo_region *r, const char *call)
{
    struct rma_epoch *ep = r->epoch;
    if (!ep->fence_open)
        return ORDO_OK;
    if (ep->ops)
        return epoch_misuse(r, call,
                            "operations were issued in the open fence epoch; end it with a fence "
                            "(ORDO_ASSERT_NOSUCCEED) first");
    ep->fence_open = 0;
    ep->all_access = 0;
    return ORDO_OK;
}

/* n distinct ranks of the region. */
static ordo_status_t check_group(const struct ordo_region *r, const char *call, int n,
                                 const int *ranks)
{
    if (n < 0 || n > ordo_ctx->size || (n > 0 && ranks == NULL))
        return ORDO_ERR_INVALID_PARAM;
    uint8_t *seen = calloc((size_t)ordo_ctx->size, 1);
    if (seen == NULL)
        return ORDO_ERR_NO_MEMORY;
    ordo_status_t st = ORDO_OK;
    for (int i = 0; i < n && st == ORDO_OK; i++) {
        if (ranks[i] < 0 || ranks[i] >= ordo_ctx->size || !ordo_region_spans(r, ranks[i])) {
            st = ORDO_ERR_INVALID_RANK;
        } else if (seen[ranks[i]]) {
            ordo_error("%s on region %u: rank %d is listed twice", call, r->id, ranks[i]);
            st = ORDO_ERR_INVALID_PARAM;
        }
        if (st == ORDO_OK)
            seen[ranks[i]] = 1;
    }
    free(seen);
    return st;
}

static inline void release_stores(unsigned asserts)
{
    if (asserts & ORDO_ASSERT_NOSTORE)
        epoch_counters.skips++;
    else
        atomic_thread_fence(memory_order_release);
}

static inline void acquire_puts(unsigned asserts)
{
    if (asserts & ORDO_ASSERT_NOPUT)
        epoch_counters.skips++;
    else
        atomic_thread_fence(memory_order_acquire);
}

/* ------------------------------------------------------------ fence */

ORDO_API ordo_status_t ordo_epoch_fence(ordo_region_h region, unsigned asserts)
{
    ORDO_API_ENTER();
    EPOCH_PROLOGUE(region, "ordo_epoch_fence", ep);
    const char *call = "ordo_epoch_fence";
    if (asserts & ~(unsigned)FENCE_ASSERTS)
        return ORDO_ERR_INVALID_PARAM;
    if (ep->started || ep->nlocked || ep->lock_all || ep->posted)
        return epoch_misuse(region, call,
                            ep->posted ? "called inside a post exposure epoch (wait first)"
                            : "called inside a start or lock access epoch (close it first)");
    if ((asserts & ORDO_ASSERT_NOPRECEDE) && ep->ops)
        return epoch_misuse(region, call,
                            "ORDO_ASSERT_NOPRECEDE, but operations were issued since the "
                            "previous fence");
    ordo_status_t st = ORDO_OK;
    if (asserts & ORDO_ASSERT_NOPRECEDE)
        epoch_counters.skips++;
    else
        st = rma_region_drain(region, -1, 0);
    unsigned prev = ep->fence_asserts;
    ep->fence_asserts = asserts;
    ep->ops = 0;
    ep->fence_open = !(asserts & ORDO_ASSERT_NOSUCCEED);
    ep->all_access = ep->fence_open;
    if ((asserts & ORDO_ASSERT_NOPRECEDE) && (asserts & ORDO_ASSERT_NOSUCCEED)) {
        epoch_counters.skips++;   /* nothing before, nothing after: no barrier */
        return st;
    }
    release_stores(asserts);
    ep->fences++;
    int me = ordo_ctx->rank;
    for (int i = 0; i < ordo_region_span(region); i++) {
        ordo_status_t s2 = epoch_sync_store(ep, ordo_region_member(region, i),
                                            cnt_off(CNT_FENCE, me), ep->fences);
        if (st == ORDO_OK)
            st = s2;
    }
    ordo_status_t s2 = wait_counters(region, call, "did not reach the fence", CNT_FENCE,
                                     region->members, ordo_region_span(region), NULL,
                                     ep->fences, 1);
    if (st == ORDO_OK)
        st = s2;
    acquire_puts(prev);
    epoch_counters.syncs++;
    return st;
}

/* ------------------------------------------------------------ PSCW */

ORDO_API ordo_status_t ordo_epoch_post(ordo_region_h region, int n, const int *ranks,
                                       unsigned asserts)
{
    ORDO_API_ENTER();
    EPOCH_PROLOGUE(region, "ordo_epoch_post", ep);
    const char *call = "ordo_epoch_post";
    if (asserts & ~(unsigned)POST_ASSERTS)
        return ORDO_ERR_INVALID_PARAM;
    ordo_status_t st = check_group(region, call, n, ranks);
    if (st != ORDO_OK)
        return st;
    if (ep->posted)
        return epoch_misuse(region, call, "an exposure epoch is already open (wait for it first)");
    if ((st = epoch_leave_fence(region, call)) != ORDO_OK)
        return st;
    if (n)
        memcpy(ep->post_group, ranks, sizeof(int) * (size_t)n);
    ep->npost = n;
    ep->posted = 1;
    ep->post_asserts = asserts;
    release_stores(asserts);
    if (asserts & ORDO_ASSERT_NOCHECK) {
        epoch_counters.skips++;
        return ORDO_OK;
    }
    int me = ordo_ctx->rank;
    for (int i = 0; i < n; i++) {
        ordo_status_t s2 = epoch_sync_store(ep, ranks[i], cnt_off(CNT_POST, me),
                                            ++ep->posts_made[ranks[i]]);
        if (st == ORDO_OK)
            st = s2;
    }
    return st;
}

ORDO_API ordo_status_t ordo_epoch_start(ordo_region_h region, int n, const int *ranks,
                                        unsigned asserts)
{
    ORDO_API_ENTER();
    EPOCH_PROLOGUE(region, "ordo_epoch_start", ep);
    const char *call = "ordo_epoch_start";
    if (asserts & ~(unsigned)ORDO_ASSERT_NOCHECK)
        return ORDO_ERR_INVALID_PARAM;
    ordo_status_t st = check_group(region, call, n, ranks);
    if (st != ORDO_OK)
        return st;
    if (ep->started || ep->nlocked || ep->lock_all)
        return epoch_misuse(region, call,
                            ep->started ? "an access epoch is already started (complete it first)"
                            : "called inside a lock epoch (unlock first)");
    if ((st = epoch_leave_fence(region, call)) != ORDO_OK)
        return st;
    if (asserts & ORDO_ASSERT_NOCHECK) {
        epoch_counters.skips++;
    } else {
        st = wait_counters(region, call, "did not post to this rank", CNT_POST, ranks, n,
                           ep->posts_seen, 0, 1);
        if (st != ORDO_OK)
            return st;   /* nothing consumed: the epoch did not open */
        for (int i = 0; i < n; i++)
            ep->posts_seen[ranks[i]]++;
        epoch_counters.syncs++;
    }
    for (int i = 0; i < n; i++)
        ep->access[ranks[i]] = 1;
    if (n)
        memcpy(ep->start_group, ranks, sizeof(int) * (size_t)n);
    ep->nstart = n;
    ep->started = 1;
    return ORDO_OK;
}

ORDO_API ordo_status_t ordo_epoch_complete(ordo_region_h region)
{
    ORDO_API_ENTER();
    EPOCH_PROLOGUE(region, "ordo_epoch_complete", ep);
    if (!ep->started)
        return epoch_misuse(region, "ordo_epoch_complete", "no access epoch was started");
    ordo_status_t st = rma_region_drain(region, -1, 0);
    int me = ordo_ctx->rank;
    for (int i = 0; i < ep->nstart; i++) {
        int t = ep->start_group[i];
        ordo_status_t s2 =
            epoch_sync_store(ep, t, cnt_off(CNT_COMPLETE, me), ++ep->completes_made[t]);
        if (st == ORDO_OK)
            st = s2;
        ep->access[t] = 0;
    }
    ep->started = 0;
    ep->nstart = 0;
    ep->ops = 0;
    return st;
}

static ordo_status_t wait_common(ordo_region_h region, const char *call, int *done_p)
{
    EPOCH_PROLOGUE(region, call, ep);
    if (!ep->posted)
        return epoch_misuse(region, call, "no exposure epoch was posted");
    ordo_status_t st = wait_counters(region, call, "did not complete their access epoch",
                                     CNT_COMPLETE, ep->post_group, ep->npost,
                                     ep->completes_seen, 0, done_p == NULL);
    if (st == ORDO_INPROGRESS) {
        *done_p = 0;
        return ORDO_OK;
    }
    if (st != ORDO_OK)
        return st;   /* still posted: the program may wait again */
    for (int i = 0; i < ep->npost; i++)
        ep->completes_seen[ep->post_group[i]]++;
    acquire_puts(ep->post_asserts);
    ep->posted = 0;
    ep->npost = 0;
    epoch_counters.syncs++;
    if (done_p)
        *done_p = 1;
    return ORDO_OK;
}

ORDO_API ordo_status_t ordo_epoch_wait(ordo_region_h region)
{
    ORDO_API_ENTER();
    return wait_common(region, "ordo_epoch_wait", NULL);
}

ORDO_API ordo_status_t ordo_epoch_test(ordo_region_h region, int *done_p)
{
    ORDO_API_ENTER();
    if (done_p == NULL)
        return ORDO_ERR_INVALID_PARAM;
    return wait_common(region, "ordo_epoch_test", done_p);
}

/* ------------------------------------------------------------ flush */

/* Inside a passive-target epoch (lock or lock_all) to rank, or, for -1, to
 * some rank. */
static inline int passive_epoch_to(const struct rma_epoch *ep, int rank)
{
    return ep->lock_all || (rank < 0 ? ep->nlocked != 0 : ep->lock[rank] != 0);
}

/* rank: the one to flush, or -1 for every rank locked (the _all forms). */
static ordo_status_t flush_common(ordo_region_h region, const char *call, int rank,
                                  int local_only)
{
    EPOCH_PROLOGUE(region, call, ep);
    if (rank == ORDO_PROC_NULL)
        return ORDO_OK;
    if (rank >= 0 && !ordo_region_spans(region, rank))
        return ORDO_ERR_INVALID_RANK;
    if (!passive_epoch_to(ep, rank))
        return epoch_misuse(region, call,
                            "outside a passive-target epoch (lock or lock_all) to the rank");
    int taken = ordo_stream_lock(ordo_ctx->default_stream);
    ordo_ctx->default_stream->stats.flush_calls++;
    ordo_stream_unlock(ordo_ctx->default_stream, taken);
    ordo_status_t st = rma_region_drain(region, rank, local_only);
    /* complete at the target: visible before this rank's later loads too
     * (a load of what the target wrote after seeing the data), as
     * ordo_flush and ordo_quiet promise */
    atomic_thread_fence(memory_order_seq_cst);
    return st;
}

static inline int bad_rank(int rank)
{
    return ordo_ctx && rank != ORDO_PROC_NULL && (rank < 0 || rank >= ordo_ctx->size);
}

/* The flush of a rank (FLUSH_ALL: of every rank locked) in a passive-target
 * epoch when every operation on the region since its last drain completed
 * on issue (no slow_ops: an MPI flush after puts on shared memory): nothing
 * to wait for, in a few loads.
 * Below MULTIPLE only, where no other thread changes the epoch meanwhile;
 * at MULTIPLE the epoch's state is the process-wide lock's.  1: done. */
#define FLUSH_ALL (-1)
static ORDO_INLINE int flush_fast(ordo_region_h region, int rank)
{
    struct rma_epoch *ep;
    if (ORDO_UNLIKELY(ordo_threads_mode == ORDO_THREADS_LOCK ||
                      (ordo_threads_mode == ORDO_THREADS_CHECK && !ordo_threads_on_initial())) ||
        region == NULL || region->magic != ORDO_MAGIC_REGION || (ep = region->epoch) == NULL)
        return 0;
    if (rank != FLUSH_ALL &&
        (rank < 0 || rank >= ordo_ctx->size || !ordo_region_spans(region, rank)))
        return 0;
    if (!passive_epoch_to(ep, rank))
        return 0;
    if (__atomic_load_n(&region->slow_ops, __ATOMIC_ACQUIRE) != 0)
        return 0;
    ordo_ctx->default_stream->stats.flush_calls++;
    ordo_ctx->region_drains++;   /* as rma_region_drain counts every wait */
    atomic_thread_fence(memory_order_seq_cst);   /* as flush_common */
    return 1;
}

static __attribute__((noinline)) ordo_status_t flush_one(ordo_region_h region, int rank,
                                                         int local_only, const char *call)
{
    ORDO_THREADS_GUARD_AS(call);
    ordo_activity_enter(call);
    return bad_rank(rank) ? ORDO_ERR_INVALID_RANK : flush_common(region, call, rank, local_only);
}

ORDO_API ordo_status_t ordo_epoch_flush(ordo_region_h region, int rank)
{
    if (ORDO_LIKELY(ordo_ctx != NULL) && flush_fast(region, rank))
        return ORDO_OK;
    return flush_one(region, rank, 0, "ordo_epoch_flush");
}

ORDO_API ordo_status_t ordo_epoch_flush_local(ordo_region_h region, int rank)
{
    if (ORDO_LIKELY(ordo_ctx != NULL) && flush_fast(region, rank))
        return ORDO_OK;
    return flush_one(region, rank, 1, "ordo_epoch_flush_local");
}

ORDO_API ordo_status_t ordo_epoch_flush_all(ordo_region_h region)
{
    if (ORDO_LIKELY(ordo_ctx != NULL) && flush_fast(region, FLUSH_ALL))
        return ORDO_OK;
    ORDO_API_ENTER();
    return flush_common(region, "ordo_epoch_flush_all", -1, 0);
}

ORDO_API ordo_status_t ordo_epoch_flush_local_all(ordo_region_h region)
{
    if (ORDO_LIKELY(ordo_ctx != NULL) && flush_fast(region, FLUSH_ALL))
        return ORDO_OK;
    ORDO_API_ENTER();
    return flush_common(region, "ordo_epoch_flush_local_all", -1, 1);
}

/* ------------------------------------------------------------ the layer */

ordo_status_t rma_epoch_region_open(struct ordo_region *r)
{
    if (!(r->flags & ORDO_REGION_EPOCHS))
        return ORDO_OK;
    size_t n = (size_t)ordo_ctx->size;
    struct rma_epoch *ep = calloc(1, sizeof(*ep));
    if (ep) {
        ep->access = calloc(n, 1);
        ep->lock = calloc(n, 1);
        ep->start_group = calloc(n, sizeof(int));
        ep->post_group = calloc(n, sizeof(int));
        ep->posts_seen = calloc(n, sizeof(uint64_t));
        ep->completes_seen = calloc(n, sizeof(uint64_t));
        ep->posts_made = calloc(n, sizeof(uint64_t));
        ep->completes_made = calloc(n, sizeof(uint64_t));
    }
    ordo_status_t st = ORDO_ERR_NO_MEMORY;
    /* the companion is collective: every rank allocates it, even one whose
     * own bookkeeping failed, so the others are not left waiting */
    struct ordo_region *sync = NULL;
    ordo_status_t s2 = ordo_region_alloc_internal(r->members, ordo_region_span(r),
                                                  SYNC_COUNTERS + CNT_KINDS * n * 8, ORDO_OK,
                                                  &sync);
    if (ep && ep->access && ep->lock && ep->start_group && ep->post_group && ep->posts_seen &&
        ep->completes_seen && ep->posts_made && ep->completes_made)
        st = s2;
    if (st == ORDO_OK) {
        ep->sync = sync;
        r->epoch = ep;
        return ORDO_OK;
    }
    if (sync && s2 == ORDO_OK)
        ordo_region_release(sync);
    r->epoch = ep;
    rma_epoch_region_close(r);
    return st;
}

void rma_epoch_region_close(struct ordo_region *r)
{
    struct rma_epoch *ep = r->epoch;
    if (ep == NULL)
        return;
    if (ep->sync && (ep->started || ep->posted || ep->nlocked || ep->lock_all))
        ordo_warn("region %u freed inside an epoch (%s); it is closed without completing "
                  "its synchronisation", r->id,
                  ep->started ? "start" : ep->posted ? "post" : "lock");
    if (ep->sync)
        ordo_region_release(ep->sync);
    free(ep->access);
    free(ep->lock);
    free(ep->start_group);
    free(ep->post_group);
    free(ep->posts_seen);
    free(ep->completes_seen);
    free(ep->posts_made);
    free(ep->completes_made);
    free(ep);
    r->epoch = NULL;
}

void rma_epoch_stats_reset(void)
{
    memset(&epoch_counters, 0, sizeof(epoch_counters));
}

void rma_epoch_stats(ordo_stats_t *sum)
{
    sum->epoch_syncs += epoch_counters.syncs;
    sum->epoch_skips += epoch_counters.skips;
    sum->lock_retries += epoch_counters.lock_retries;
}
