/* Inside the one-sided layer: what the operations (rma.c) and the
 * synchronisation epochs (epoch.c) share. */
#ifndef ORDO_RMA_H
#define ORDO_RMA_H

#include "../core/core.h"

/* Epoch state of a region created with ORDO_REGION_EPOCHS, at this rank. */
struct rma_epoch {
    struct ordo_region *sync;       /* companion region: the synchronisation words */
    uint8_t   all_access;           /* a fence epoch or lock_all: every rank */
    uint8_t  *access;               /* per rank: in the start group, or locked */
    uint64_t  ops;                  /* operations admitted in the open epochs */
    /* fence */
    uint8_t   fence_open;
    unsigned  fence_asserts;        /* of the last fence */
    uint64_t  fences;               /* fences this rank passed */
    /* passive target */
    uint8_t  *lock;                 /* per rank: EPOCH_LOCK_* bits */
    int       nlocked;
    uint8_t   lock_all;             /* EPOCH_LOCK_* bits of lock_all, 0: none */
    /* post / start / complete / wait */
    int      *start_group, nstart;
    uint8_t   started;
    int      *post_group, npost;
    uint8_t   posted;
    unsigned  post_asserts;
    uint64_t *posts_seen;           /* per target: its posts this rank consumed */
    uint64_t *completes_seen;       /* per origin: its completes this rank consumed */
    uint64_t *posts_made;           /* per origin: posts this rank made to it */
    uint64_t *completes_made;       /* per target: completes this rank made to it */
};

/* May this rank issue an operation on region r to rank now? */
static inline ordo_status_t rma_epoch_admit(struct ordo_region *r, int rank)
{
    struct rma_epoch *ep = r->epoch;
    if (ORDO_LIKELY(ep == NULL))
        return ORDO_OK;
    if (ORDO_UNLIKELY(!(ep->all_access | ep->access[rank])))
        return ORDO_ERR_EPOCH;
    ep->ops++;
    return ORDO_OK;
}

/* Complete this rank's operations, of every stream, on region r to rank
 * (-1: to every rank); local_only: only until their buffers are free.
 * Returns the first error of an implicit operation of those streams. */
ordo_status_t rma_region_drain(struct ordo_region *r, int rank, int local_only);

/* epoch.c: the layer's region hooks and counters */
ordo_status_t rma_epoch_region_open(struct ordo_region *r);
void          rma_epoch_region_close(struct ordo_region *r);
void          rma_epoch_stats_reset(void);
void          rma_epoch_stats(ordo_stats_t *sum);

#endif
