/* Two-sided contexts: creation with an agreed id, splitting, destruction,
 * the calls that describe one, and the runtime's own exchanges over its
 * control context (the core's agreed gathers for regions). */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "p2p.h"
#include "../base/log.h"
#include "../base/timer.h"

/* A context with an agreed id over the given members (ascending world
 * ranks; NULL: every rank). */
ordo_status_t p2p_comm_new(ordo_match_t match, uint32_t id, const int *members, int n,
                              int slot, p2p_comm_t **comm_p)
{
    if (id >= p2p->capcomms) {
        uint32_t cap = p2p->capcomms ? p2p->capcomms : 8;
        while (cap <= id)
            cap *= 2;
        p2p_comm_t **a = realloc(p2p->comms, cap * sizeof(*a));
        if (a == NULL)
            return ORDO_ERR_NO_MEMORY;
        memset(a + p2p->capcomms, 0, (cap - p2p->capcomms) * sizeof(*a));
        p2p->comms = a;
        p2p->capcomms = cap;
    }
    int size = p2p->size;
    if (members == NULL)
        n = size;
    p2p_comm_t *c = calloc(1, sizeof(*c));
    uint32_t *seqs = calloc(5 * (size_t)size, sizeof(uint32_t));
    int *mem = malloc((size_t)n * sizeof(int)), *idx = malloc((size_t)size * sizeof(int));
    if (c == NULL || seqs == NULL || mem == NULL || idx == NULL) {
        free(c), free(seqs), free(mem), free(idx);
        return ORDO_ERR_NO_MEMORY;
    }
    for (int r = 0; r < size; r++)
        idx[r] = -1;
    for (int i = 0; i < n; i++) {
        mem[i] = members ? members[i] : i;
        idx[mem[i]] = i;
    }
    c->magic = P2P_MAGIC_COMM;
    c->id = id;
    c->match = match;
    c->send_seq = seqs;
    c->recv_seq = seqs + size;
    c->credits = seqs + 2 * (size_t)size;
    c->owed = seqs + 3 * (size_t)size;
    c->nqueued = seqs + 4 * (size_t)size;
    for (int r = 0; r < size; r++)
        c->credits[r] = p2p->lim.credits;
    c->nmembers = n;
    c->members = mem;
    c->index_of = idx;
    c->my_index = idx[p2p->rank];
    c->slot = slot;
    p2p->comms[id] = c;
    if (id >= p2p->ncomms)
        p2p->ncomms = id + 1;
    if (id >= p2p->next_id)
        p2p->next_id = id + 1;
    if (p2p->future)
        p2p_admit_future(c);
    if (p2p->future_notices)
        p2p_admit_future_notices(c);
    *comm_p = c;
    return ORDO_OK;
}

/* Drop what arrived for a context that goes away, giving credits back. */
static size_t comm_discard(p2p_comm_t *c)
{
    size_t n = 0;
    while (c->unexp_head) {
        p2p_msg_t *m = c->unexp_head;
        p2p_unexpected_unlink(c, m);
        /* a rendezvous sender must not hang: tell it the data was taken (0 B) */
        p2p_msg_drop(c, m, ORDO_OK);
        n++;
    }
    return n;
}

/* A destroyed context keeps its (small) record until finalize, so a stale
 * handle fails with ORDO_ERR_INVALID_HANDLE instead of touching freed memory. */
void p2p_comm_retire(p2p_comm_t *c)
{
    c->magic = ORDO_MAGIC_DEAD;
    if (c->slot >= 0) {
        if (p2p->slot_reset)
            p2p->slot_reset(c->slot);
        p2p->slots_free |= (uint64_t)1 << c->slot;
    }
    c->slot = -1;
    free(c->send_seq);
    free(c->members);
    free(c->index_of);
    free(c->coll_fails);
    c->coll_fails = NULL;
    c->send_seq = c->recv_seq = c->credits = c->owed = c->nqueued = NULL;
    c->members = c->index_of = NULL;
}

/* Blocking exchange on the runtime's own context. */
ordo_status_t p2p_ctl_send(const void *buf, size_t len, int dest, int tag)
{
    ordo_request_h r;
    ordo_status_t st = p2p_isend(p2p->comms[P2P_CTL_COMM], buf, len, dest, tag, &r);
    return st == ORDO_INPROGRESS ? ordo_request_wait_inner(&r, NULL) : st;
}

ordo_status_t p2p_ctl_recv(void *buf, size_t len, int src, int tag)
{
    ordo_request_h r;
    ordo_status_t st = p2p_irecv(p2p->comms[P2P_CTL_COMM], buf, len, src, tag, &r);
    return st == ORDO_INPROGRESS ? ordo_request_wait_inner(&r, NULL) : st;
}

/* Each member sends its part to every other and receives theirs, all at
 * once (messages of one pair stay in order on the runtime's context, so
 * successive gathers pair up, also those of lists that share members, as
 * long as each rank makes them in the same order).  Bounded as the
 * bootstrap's gather is: a dead peer fails it at once, a peer that never
 * joins after ORDO_BOOT_TIMEOUT seconds. */
ordo_status_t p2p_ctl_allgather(const int *members, int n, const void *mine, size_t len,
                                void *all)
{
    int me = -1;
    for (int i = 0; members && i < n; i++)
        if (members[i] == p2p->rank)
            me = i;
    if (members == NULL) {
        n = p2p->size;
        me = p2p->rank;
    }
    if (me < 0)
        return ORDO_ERR_INVALID_RANK;
    memcpy((char *)all + (size_t)me * len, mine, len);
    if (n == 1)
        return ORDO_OK;
    ordo_request_h *rq = calloc(2 * (size_t)n, sizeof(*rq));
    if (rq == NULL)
        return ORDO_ERR_NO_MEMORY;
    p2p_comm_t *ctl = p2p->comms[P2P_CTL_COMM];
    ordo_status_t st = ORDO_OK;
    for (int r = 0; r < n && st == ORDO_OK; r++) {
        if (r == me)
            continue;
        st = p2p_irecv(ctl, (char *)all + (size_t)r * len, len, members ? members[r] : r,
                       P2P_TAG_AGREE, &rq[r]);
        if (st == ORDO_INPROGRESS || st == ORDO_OK)
            st = ORDO_OK;
    }
    for (int i = 1; i < n && st == ORDO_OK; i++) {
        int r = (me + i) % n;   /* each rank starts with its right neighbour */
        st = p2p_isend(ctl, mine, len, members ? members[r] : r, P2P_TAG_AGREE, &rq[n + r]);
        if (st == ORDO_INPROGRESS)
            st = ORDO_OK;
    }
    uint64_t deadline = ordo_config.boot_timeout > 0
                            ? ordo_time_ns() + (uint64_t)ordo_config.boot_timeout * 1000000000ull
                            : 0;
    unsigned idle = 0, looks = 0;
    for (;;) {
        int pending = 0;
        for (int i = 0; i < 2 * n; i++)
            pending |= rq[i] != NULL && rq[i]->state != ORDO_OP_DONE;
        if (!pending)
            break;
        ordo_progress_wait(&idle);
        if ((++looks & 255) == 0 && deadline && ordo_time_ns() > deadline) {
            ordo_error("ranks did not all join an agreed step of a region's creation or "
                       "free within ORDO_BOOT_TIMEOUT=%d s", ordo_config.boot_timeout);
            if (st == ORDO_OK)
                st = ORDO_ERR_TIMED_OUT;
            for (int r = 0; r < n; r++)
                if (rq[r] && rq[r]->state != ORDO_OP_DONE)
                    (void)rq[r]->cancel(rq[r]);   /* a posted receive: done, cancelled */
            break;
        }
    }
    for (int i = 0; i < 2 * n; i++) {
        if (rq[i] == NULL || rq[i]->state != ORDO_OP_DONE)
            continue;   /* a send still queued at a timeout completes on its own */
        ordo_completion_t info;
        ordo_status_t s2 = ordo_request_wait_inner(&rq[i], &info);
        if (s2 == ORDO_OK && i < n && info.length != len)
            s2 = ORDO_ERR_IO;   /* a part of another length: not the same gather */
        if (st == ORDO_OK)
            st = s2;
    }
    free(rq);
    return st;
}

/* A barrier over the members that also combines a value: each member
 * reports to the lowest, which folds every report into its own value (fold
 * may be NULL), finishes the result (may be NULL) and answers everyone.
 * Messages between two ranks stay in order, so exchanges of contexts that
 * overlap in members pair up as long as every rank makes them in the same
 * order. */
static ordo_status_t members_exchange(const int *members, int n, int tag, uint64_t val[2],
                                      void (*fold)(uint64_t acc[2], const uint64_t in[2]),
                                      void (*finish)(uint64_t acc[2]))
{
    const size_t len = 2 * sizeof(uint64_t);
    ordo_status_t st = ORDO_OK;
    if (members[0] != p2p->rank) {
        if ((st = p2p_ctl_send(val, len, members[0], tag)) == ORDO_OK)
            st = p2p_ctl_recv(val, len, members[0], tag);
        return st;
    }
    for (int i = 1; i < n && st == ORDO_OK; i++) {
        uint64_t theirs[2];
        if ((st = p2p_ctl_recv(theirs, len, members[i], tag)) == ORDO_OK && fold)
            fold(val, theirs);
    }
    if (finish)
        finish(val);
    for (int i = 1; i < n; i++) {
        ordo_status_t s2 = p2p_ctl_send(val, len, members[i], tag);
        if (st == ORDO_OK)
            st = s2;
    }
    return st;
}

/* Context agreement: the largest next free id, and the free scratch slots
 * every member has in common (then the lowest of them, or -1). */
static void agree_fold(uint64_t acc[2], const uint64_t in[2])
{
    acc[0] = ORDO_MAX(acc[0], in[0]);
    acc[1] &= in[1];
}

static void agree_finish(uint64_t acc[2])
{
    int slot = -1;
    for (int b = 0; b < ordo_config.coll_slots && b < P2P_MAX_SLOTS; b++)
        if (acc[1] >> b & 1) {
            slot = b;
            break;
        }
    acc[1] = (uint64_t)(int64_t)slot;
}

static ordo_status_t comm_agree(const int *members, int n, uint32_t *id_p, int *slot_p)
{
    uint64_t v[2] = {p2p->next_id, p2p->slots_free};
    ordo_status_t st = members_exchange(members, n, P2P_TAG_CREATE, v, agree_fold,
                                        agree_finish);
    if (st != ORDO_OK)
        return st;
    *id_p = (uint32_t)v[0];
    *slot_p = (int)(int64_t)v[1];
    return ORDO_OK;
}

/* Status agreement: {status, rank} of the lowest member that failed. */
static void status_fold(uint64_t acc[2], const uint64_t in[2])
{
    if ((int64_t)acc[0] == ORDO_OK && (int64_t)in[0] != ORDO_OK) {
        acc[0] = in[0];
        acc[1] = in[1];
    }
}

/* Every member learns how the others fared and returns the same status:
 * the failure of the lowest failing member (logged by the others), else
 * the exchange's own. */
static ordo_status_t agree_status(const int *members, int n, int tag, ordo_status_t mine,
                                  const char *what)
{
    uint64_t v[2] = {(uint64_t)(int64_t)mine, (uint64_t)p2p->rank};
    ordo_status_t st = members_exchange(members, n, tag, v, status_fold, NULL);
    if (st != ORDO_OK)
        return st;
    ordo_status_t agreed = (ordo_status_t)(int64_t)v[0];
    if (agreed != ORDO_OK && mine == ORDO_OK)
        ordo_error("%s failed on rank %d (%s): it fails on every member", what, (int)v[1],
                   ordo_status_string(agreed));
    return agreed;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The members asked for, sorted; an error naming what is wrong. */
static ordo_status_t comm_members(const ordo_comm_params_t *params, int **members_p, int *n_p)
{
    int n = p2p->size;
    const int *ranks = NULL;
    if (params && (params->field_mask & ORDO_COMM_FIELD_RANKS)) {
        n = params->nranks;
        ranks = params->ranks;
        if (n < 1 || n > p2p->size || ranks == NULL) {
            ordo_error("ordo_comm_create: %d ranks asked for (1 .. %d, and a list)", n,
                       p2p->size);
            return ORDO_ERR_INVALID_PARAM;
        }
    }
    int *m = malloc((size_t)n * sizeof(int));
    if (m == NULL)
        return ORDO_ERR_NO_MEMORY;
    for (int i = 0; i < n; i++)
        m[i] = ranks ? ranks[i] : i;
    qsort(m, (size_t)n, sizeof(int), cmp_int);
    int self = 0;
    for (int i = 0; i < n; i++) {
        int outside = m[i] < 0 || m[i] >= p2p->size;
        if (outside || (i && m[i] == m[i - 1])) {
            ordo_error("ordo_comm_create: rank %d %s", m[i],
                       outside ? "is not in the job" : "is listed twice");
            free(m);
            return outside ? ORDO_ERR_INVALID_RANK : ORDO_ERR_INVALID_PARAM;
        }
        self |= m[i] == p2p->rank;
    }
    if (!self) {
        ordo_error("ordo_comm_create: this rank (%d) is not among the ranks listed; only "
                   "members call it", p2p->rank);
        free(m);
        return ORDO_ERR_INVALID_PARAM;
    }
    *members_p = m;
    *n_p = n;
    return ORDO_OK;
}

ORDO_API ordo_status_t ordo_comm_create(const ordo_comm_params_t *params, ordo_comm_h *comm_p)
{
    ORDO_CHECK_INIT();
    if (comm_p == NULL)
        return ORDO_ERR_INVALID_PARAM;
    ordo_match_t match = ORDO_MATCH_ORDERED;
    if (params && (params->field_mask & ~(uint64_t)(ORDO_COMM_FIELD_MATCH |
                                                    ORDO_COMM_FIELD_RANKS)))
        return ORDO_ERR_INVALID_PARAM;
    if (params && (params->field_mask & ORDO_COMM_FIELD_MATCH)) {
        if ((unsigned)params->match > ORDO_MATCH_OVERTAKING)
            return ORDO_ERR_INVALID_PARAM;
        match = params->match;
    }
    int *members, n;
    ordo_status_t st = comm_members(params, &members, &n);
    if (st != ORDO_OK)
        return st;
    st = p2p_comm_create_over(match, members, n, "ordo_comm_create", comm_p);
    free(members);
    return st;
}

ordo_status_t p2p_comm_create_over(ordo_match_t match, const int *members, int n,
                                   const char *what, p2p_comm_t **c_p)
{
    int slot;
    uint32_t id;
    p2p_comm_t *c = NULL;
    ordo_status_t st = comm_agree(members, n, &id, &slot);
    if (st != ORDO_OK)
        return st;
    if (slot >= 0)
        p2p->slots_free &= ~((uint64_t)1 << slot);
    st = p2p_comm_new(match, id, members, n, slot, &c);
    if (st != ORDO_OK && slot >= 0)
        p2p->slots_free |= (uint64_t)1 << slot;
    /* a member that could not build the context makes all give it up */
    st = agree_status(members, n, P2P_TAG_CREATE, st, what);
    if (st != ORDO_OK) {
        if (c)
            p2p_comm_retire(c);
        if (id >= p2p->next_id)
            p2p->next_id = id + 1;
        return st;
    }
    *c_p = c;
    return ORDO_OK;
}

ORDO_API ordo_status_t ordo_comm_destroy(ordo_comm_h comm)
{
    ORDO_CHECK_INIT();
    if (comm == NULL)
        return ORDO_ERR_INVALID_PARAM;   /* the world context lives until finalize */
    p2p_comm_t *c;
    ordo_status_t st = p2p_comm_resolve(comm, &c);
    if (st != ORDO_OK)
        return st;
    if (c->posted_head) {
        /* the caller's to report (MPI_Comm_free keeps the context) */
        ordo_debug("ordo_comm_destroy: receives are still posted on the context");
        st = ORDO_ERR_BUSY;
    }
    /* every member is done with the context before any drops it, and all
     * keep it where one may not drop it */
    st = agree_status(c->members, c->nmembers, P2P_TAG_DESTROY, st, "ordo_comm_destroy");
    if (st == ORDO_ERR_BUSY)
        return st;
    ordo_progress_once();
    size_t n = comm_discard(c);
    if (n)
        ordo_warn("ordo_comm_destroy: %zu message(s) sent on the context were never "
                  "received; discarded", n);
    p2p_comm_retire(c);
    return st;
}

/* The core's comm_members: a region over a context spans its members. */
ordo_status_t p2p_comm_members(ordo_comm_h comm, int **members_p, int *n_p)
{
    p2p_comm_t *c;
    ordo_status_t st = p2p_comm_resolve(comm, &c);
    if (st != ORDO_OK)
        return st;
    if (c->my_index < 0)
        return ORDO_ERR_INVALID_RANK;
    *n_p = c->nmembers;
    *members_p = NULL;
    if (c->nmembers == p2p->size)
        return ORDO_OK;   /* every rank: as a region over all of them */
    if ((*members_p = malloc(sizeof(int) * (size_t)c->nmembers)) == NULL)
        return ORDO_ERR_NO_MEMORY;
    memcpy(*members_p, c->members, sizeof(int) * (size_t)c->nmembers);
    return ORDO_OK;
}

ORDO_API ordo_status_t ordo_comm_size(ordo_comm_h comm, int *size_p)
{
    ORDO_CHECK_INIT();
    p2p_comm_t *c;
    ordo_status_t st = p2p_comm_resolve(comm, &c);
    if (st != ORDO_OK)
        return st;
    if (size_p == NULL)
        return ORDO_ERR_INVALID_PARAM;
    *size_p = c->nmembers;
    return ORDO_OK;
}

ORDO_API ordo_status_t ordo_comm_member(ordo_comm_h comm, int index, int *rank_p)
{
    ORDO_CHECK_INIT();
    p2p_comm_t *c;
    ordo_status_t st = p2p_comm_resolve(comm, &c);
    if (st != ORDO_OK)
        return st;
    if (rank_p == NULL || index < 0 || index >= c->nmembers)
        return ORDO_ERR_INVALID_PARAM;
    *rank_p = c->members[index];
    return ORDO_OK;
}
