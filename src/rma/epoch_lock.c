/* MPI-RMA passive target: lock, unlock, lock_all and unlock_all on the
 * writer word and reader flags of the synchronisation region (epoch.c). */
#define _POSIX_C_SOURCE 200809L
#include <stdatomic.h>
#include <stdio.h>

#include "epoch.h"
#include "../base/log.h"

static inline size_t reader_off(int rank) { return SYNC_READERS + (size_t)rank * 64; }

static inline uint64_t sync_load(const struct rma_epoch *ep, int rank, size_t off)
{
    ordo_tl_rkey_t *k = ep->sync->rkeys[rank];
    if (k->ptr)
        return atomic_load((_Atomic uint64_t *)((char *)k->ptr + off));
    uint64_t v = 0;
    epoch_sync_amo(ep, rank, off, ORDO_ATOMIC_ADD, 0, 0, &v);
    return v;
}

/* Wait until the word at (rank, off) reads 0; holder: whom it waits for
 * (the log names it; its death fails the wait). */
static ordo_status_t lock_wait_clear(struct ordo_region *r, const char *call, waiter_t *w,
                                     int rank, size_t off, const char *how)
{
    struct rma_epoch *ep = r->epoch;
    uint64_t v;
    while ((v = sync_load(ep, rank, off)) != 0) {
        int holder = off == SYNC_WRITER ? (int)v - 1 : (int)((off - SYNC_READERS) / 64);
        ordo_status_t st = epoch_waiter_pass(w, &holder, 0, 1);
        if (st != ORDO_OK) {
            ordo_error("%s on region %u: rank %d's lock is held %s by rank %d%s", call, r->id,
                       rank, how, holder,
                       st == ORDO_ERR_PEER_DEAD ? ", which died" : " (timed out)");
            return st;
        }
    }
    return ORDO_OK;
}

/* One try for a shared lock at rank: *taken 1, or 0 when a writer holds
 * it (the flag is down again). */
static ordo_status_t shared_try(const struct rma_epoch *ep, int rank, int *taken)
{
    size_t flag = reader_off(ordo_ctx->rank);
    ordo_status_t st = epoch_sync_add(ep, rank, flag, 1);
    *taken = 0;
    if (st != ORDO_OK)
        return st;
    if (sync_load(ep, rank, SYNC_WRITER) == 0) {
        *taken = 1;
        return ORDO_OK;
    }
    epoch_counters.lock_retries++;
    return epoch_sync_store(ep, rank, flag, 0);
}

static ordo_status_t lock_release(struct rma_epoch *ep, int rank, uint8_t how)
{
    if (how & EPOCH_LOCK_NOCHECK)
        return ORDO_OK;
    size_t word = how & EPOCH_LOCK_EXCL ? SYNC_WRITER : reader_off(ordo_ctx->rank);
    return epoch_sync_store(ep, rank, word, 0);
}

/* Lock words at each rank: WRITER holds the exclusive holder's rank + 1;
 * READER[o] is 1 while rank o holds or tries for a shared lock there, each
 * on a line of its own, so readers never contend with one another.  A
 * reader raises its flag and then reads WRITER; a writer takes WRITER by
 * compare-and-swap and then reads every flag.  Both write before they read,
 * with sequentially consistent atomics, so at least one sees the other and
 * never both get in (Dekker); a reader that sees a writer lowers its flag
 * and waits. */
/* A lock at a dead rank is never granted: its lock words may still be
 * mapped here (shared memory outlives its owner), but nothing it holds can
 * be reached or released. */
static ordo_status_t target_alive(struct ordo_region *r, const char *call, int rank)
{
    if (!ordo_boot_rank_dead(ordo_ctx->boot, rank))
        return ORDO_OK;
    ordo_error("%s on region %u: rank %d died", call, r->id, rank);
    return ORDO_ERR_PEER_DEAD;
}

static ordo_status_t lock_acquire(struct ordo_region *r, const char *call, int rank, int excl)
{
    struct rma_epoch *ep = r->epoch;
    int me = ordo_ctx->rank;
    waiter_t w;
    epoch_waiter_init(&w);
    ordo_status_t st;
    if (!excl) {
        for (;;) {
            int taken;
            if ((st = shared_try(ep, rank, &taken)) != ORDO_OK || taken)
                return st;
            if ((st = lock_wait_clear(r, call, &w, rank, SYNC_WRITER, "exclusively")) != ORDO_OK)
                return st;
        }
    }
    for (;;) {
        uint64_t old;
        st = epoch_sync_amo(ep, rank, SYNC_WRITER, ORDO_ATOMIC_CSWAP, (uint64_t)me + 1, 0, &old);
        if (st != ORDO_OK || old == 0)
            break;
        epoch_counters.lock_retries++;
        if ((st = lock_wait_clear(r, call, &w, rank, SYNC_WRITER, "exclusively")) != ORDO_OK)
            return st;
    }
    for (int o = 0; o < ordo_ctx->size && st == ORDO_OK; o++) {
        if (sync_load(ep, rank, reader_off(o)) == 0)
            continue;
        epoch_counters.lock_retries++;
        st = lock_wait_clear(r, call, &w, rank, reader_off(o), "shared");
        if (st != ORDO_OK)
            lock_release(ep, rank, EPOCH_LOCK_HELD | EPOCH_LOCK_EXCL);
    }
    return st;
}

ORDO_API ordo_status_t ordo_epoch_lock(ordo_region_h region, ordo_lock_type_t type, int rank,
                                       unsigned asserts)
{
    ORDO_API_ENTER();
    EPOCH_PROLOGUE(region, "ordo_epoch_lock", ep);
    const char *call = "ordo_epoch_lock";
    if ((unsigned)type > ORDO_LOCK_EXCLUSIVE || (asserts & ~(unsigned)ORDO_ASSERT_NOCHECK))
        return ORDO_ERR_INVALID_PARAM;
    if (rank == ORDO_PROC_NULL)
        return ORDO_OK;   /* no target: nothing to lock */
    if (rank < 0 || rank >= ordo_ctx->size || !ordo_region_spans(region, rank))
        return ORDO_ERR_INVALID_RANK;
    if (ep->lock_all || ep->lock[rank]) {
        char why[96];
        snprintf(why, sizeof(why), "rank %d is already locked by this rank%s", rank,
                 ep->lock_all ? " (lock_all)" : "");
        return epoch_misuse(region, call, why);
    }
    if (ep->started)
        return epoch_misuse(region, call, "called inside a start epoch (complete it first)");
    ordo_status_t st = epoch_leave_fence(region, call);
    if (st == ORDO_OK)
        st = target_alive(region, call, rank);
    if (st != ORDO_OK)
        return st;
    uint8_t how = EPOCH_LOCK_HELD | (type == ORDO_LOCK_EXCLUSIVE ? EPOCH_LOCK_EXCL : 0);
    if (asserts & ORDO_ASSERT_NOCHECK) {
        how |= EPOCH_LOCK_NOCHECK;
        epoch_counters.skips++;
    } else {
        st = lock_acquire(region, call, rank, type == ORDO_LOCK_EXCLUSIVE);
        if (st == ORDO_OK && (st = target_alive(region, call, rank)) != ORDO_OK)
            lock_release(ep, rank, how);   /* it died while we waited */
        if (st != ORDO_OK)
            return st;
        atomic_thread_fence(memory_order_acquire);
        epoch_counters.syncs++;
    }
    ep->lock[rank] = how;
    ep->nlocked++;
    ep->access[rank] = 1;
    return ORDO_OK;
}

ORDO_API ordo_status_t ordo_epoch_unlock(ordo_region_h region, int rank)
{
    ORDO_API_ENTER();
    EPOCH_PROLOGUE(region, "ordo_epoch_unlock", ep);
    if (rank == ORDO_PROC_NULL)
        return ORDO_OK;
    if (rank < 0 || rank >= ordo_ctx->size || !ordo_region_spans(region, rank))
        return ORDO_ERR_INVALID_RANK;
    if (!ep->lock[rank]) {
        char why[96];
        snprintf(why, sizeof(why), "rank %d is not locked by this rank%s", rank,
                 ep->lock_all ? " (it holds lock_all: use ordo_epoch_unlock_all)" : "");
        return epoch_misuse(region, "ordo_epoch_unlock", why);
    }
    ordo_status_t st = rma_region_drain(region, rank, 0);
    ordo_status_t s2 = lock_release(ep, rank, ep->lock[rank]);
    if (st == ORDO_OK)
        st = s2;
    ep->lock[rank] = 0;
    ep->access[rank] = 0;
    if (--ep->nlocked == 0)
        ep->ops = 0;
    return st;
}

ORDO_API ordo_status_t ordo_epoch_lock_all(ordo_region_h region, unsigned asserts)
{
    ORDO_API_ENTER();
    EPOCH_PROLOGUE(region, "ordo_epoch_lock_all", ep);
    const char *call = "ordo_epoch_lock_all";
    if (asserts & ~(unsigned)ORDO_ASSERT_NOCHECK)
        return ORDO_ERR_INVALID_PARAM;
    if (ep->lock_all || ep->nlocked || ep->started)
        return epoch_misuse(region, call,
                            ep->lock_all  ? "lock_all is already held"
                            : ep->started ? "called inside a start epoch (complete it first)"
                            : "called while ranks are locked (unlock them first)");
    ordo_status_t st = epoch_leave_fence(region, call);
    int span = ordo_region_span(region);
    for (int i = 0; i < span && st == ORDO_OK; i++)
        st = target_alive(region, call, ordo_region_member(region, i));
    if (st != ORDO_OK)
        return st;
    uint8_t how = EPOCH_LOCK_HELD;
    if (asserts & ORDO_ASSERT_NOCHECK) {
        how |= EPOCH_LOCK_NOCHECK;
        epoch_counters.skips++;
    } else {
        /* all or nothing: a rank holding some flags while it waits out a
         * writer could be what another writer waits for */
        waiter_t w;
        epoch_waiter_init(&w);
        for (int i = 0; i < span;) {
            int r = ordo_region_member(region, i), taken;
            st = shared_try(ep, r, &taken);
            if (st == ORDO_OK && taken) {
                i++;
                continue;
            }
            for (int q = 0; q < i; q++)
                lock_release(ep, ordo_region_member(region, q), how);
            if (st == ORDO_OK)
                st = lock_wait_clear(region, call, &w, r, SYNC_WRITER, "exclusively");
            if (st != ORDO_OK)
                return st;
            i = 0;
        }
        atomic_thread_fence(memory_order_acquire);
        epoch_counters.syncs++;
    }
    ep->lock_all = how;
    ep->all_access = 1;
    return ORDO_OK;
}

ORDO_API ordo_status_t ordo_epoch_unlock_all(ordo_region_h region)
{
    ORDO_API_ENTER();
    EPOCH_PROLOGUE(region, "ordo_epoch_unlock_all", ep);
    if (!ep->lock_all)
        return epoch_misuse(region, "ordo_epoch_unlock_all", "lock_all is not held");
    ordo_status_t st = rma_region_drain(region, -1, 0);
    for (int i = 0; i < ordo_region_span(region); i++) {
        ordo_status_t s2 = lock_release(ep, ordo_region_member(region, i), ep->lock_all);
        if (st == ORDO_OK)
            st = s2;
    }
    ep->lock_all = 0;
    ep->all_access = 0;
    ep->ops = 0;
    return st;
}
