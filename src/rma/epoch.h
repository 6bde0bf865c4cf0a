/* Inside the synchronisation epochs: what the fence, post-start-complete-wait
 * and flush calls (epoch.c) and the passive-target locks (epoch_lock.c)
 * share.  The layout of the synchronisation words is described in epoch.c. */
#ifndef ORDO_RMA_EPOCH_H
#define ORDO_RMA_EPOCH_H

#include "rma.h"

#define SYNC_WRITER    0
#define SYNC_READERS   64                                     /* a line per rank */

enum { EPOCH_LOCK_HELD = 1, EPOCH_LOCK_EXCL = 2, EPOCH_LOCK_NOCHECK = 4 };

typedef struct epoch_counters {
    uint64_t syncs, skips, lock_retries;
} epoch_counters_t;
extern epoch_counters_t epoch_counters;

/* An atomic on a synchronisation word at rank: by loads and stores where
 * it is mapped, else through its transport. */
ordo_status_t epoch_sync_amo(const struct rma_epoch *ep, int rank, size_t off,
                             ordo_atomic_op_t aop, uint64_t value, uint64_t compare,
                             uint64_t *old_p);
/* Store to a word at rank that only this rank writes: a plain
 * store-release where it is mapped. */
ordo_status_t epoch_sync_store(const struct rma_epoch *ep, int rank, size_t off, uint64_t value);
static inline ordo_status_t epoch_sync_add(const struct rma_epoch *ep, int rank, size_t off,
                                           uint64_t delta)
{
    return epoch_sync_amo(ep, rank, off, ORDO_ATOMIC_ADD, delta, 0, NULL);
}

/* Bounds a wait for peers: ORDO_EPOCH_TIMEOUT, and the peers' health. */
typedef struct waiter {
    uint64_t deadline;   /* 0: not set yet (set at the first look at the clock) */
    unsigned idle, looks;
} waiter_t;
void          epoch_waiter_init(waiter_t *w);
/* One pass of a wait that has not held: progress, and now and then the
 * clock (ORDO_ERR_TIMED_OUT) and the health of group[first .. n) (NULL:
 * ranks first .. n-1; ORDO_ERR_PEER_DEAD). */
ordo_status_t epoch_waiter_pass(waiter_t *w, const int *group, int first, int n);

/* The region's epoch state, or why there is none. */
ordo_status_t epoch_of(ordo_region_h region, const char *call, struct rma_epoch **ep_p);
#define EPOCH_PROLOGUE(region, call, ep)                   \
    ORDO_CHECK_INIT();                                     \
    struct rma_epoch *ep;                                  \
    do {                                                   \
        ordo_status_t st_ = epoch_of(region, call, &ep);   \
        if (st_ != ORDO_OK)                                \
            return st_;                                    \
    } while (0)
/* A call made out of turn: said, and ORDO_ERR_EPOCH. */
ordo_status_t epoch_misuse(const struct ordo_region *r, const char *call, const char *why);
/* Leave a fence epoch no operation used (another kind may begin). */
ordo_status_t epoch_leave_fence(struct ordo_region *r, const char *call);

#endif
