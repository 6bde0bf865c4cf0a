/* Collective failures, agreed.  A collective call that fails at one member
 * must fail at the others too, at once, never after a timeout.
 *
 * Every collective call on a context takes the next call number there,
 * whether it runs or is refused, so members name the same call alike.  A
 * member whose call fails tells every other member (a NOTICE: the call,
 * its status, who failed it).  What a member does with a notice depends on
 * where it stands with that call:
 *
 *  - not made yet: kept; when it comes, it fails at once with that status
 *    and issues nothing (so a call every member refuses, or that fails
 *    everywhere before anyone started it, leaves the context as it was);
 *  - refused or failed here too: nothing;
 *  - running here (it has issued steps): it fails with that status;
 *  - completed here (a rooted collective can finish at a member that
 *    needs nothing from the failing one): logged.
 *
 * A member that did not run the call (it refused it, or failed it on a
 * notice before starting it) tells the members so too, and holds its next
 * collectives of the context back until every other member has answered
 * for that call: all of them without running it leave the context in
 * step, and the held calls go ahead.
 * In the last two cases steps of the call went out — messages and counts
 * in members' scratch that nobody will take back — so the context's
 * collectives cannot be kept in step any more: the member *breaks* the
 * context and tells every member (a notice marked RAN), and from then on
 * every collective of the context fails with ORDO_ERR_COLL_BROKEN at every
 * member (its point-to-point traffic goes on; a new context starts fresh).
 * Messages of a failed call, or of a broken context's collectives, are
 * dropped as they arrive (their credits go back; a rendezvous sender is
 * told), so no memory or credit stays held by them.
 *
 * The record is a window of the last FAIL_WINDOW calls' fates, allocated
 * at a context's first failure. */
#include <stdlib.h>

#include "coll.h"
#include "../base/log.h"

#define FAIL_WINDOW  1024u
#define NOTICE_RAN   1u        /* the sender had started the call: the context broke */

enum { CALL_NOTICED = 1,       /* a member failed it; not made here yet */
       CALL_FAILED_HERE };     /* refused here, or failed here before issuing anything */

typedef struct fail_entry {
    uint32_t call;
    int32_t  status;
    int32_t  rank;             /* the member that failed it */
    uint32_t answers;          /* members that told us they did not run it */
    uint8_t  state;
} fail_entry_t;

typedef struct coll_fails {
    ordo_status_t broken;      /* ORDO_OK, or ORDO_ERR_COLL_BROKEN */
    unsigned      unresolved;  /* calls failed here still waiting for answers */
    uint32_t      broken_call; /* the call that broke it ... */
    ordo_status_t broken_status;   /* ... fails with this status */
    fail_entry_t  calls[FAIL_WINDOW];
} coll_fails_t;

/* The direct barrier (coll.c) runs outside the schedule engine: while it
 * spins, its call counts as running. */
static p2p_comm_t *direct_c;
static uint32_t    direct_call;

static coll_fails_t *fails_of(p2p_comm_t *c)
{
    if (c->coll_fails == NULL && (c->coll_fails = calloc(1, sizeof(coll_fails_t))) == NULL)
        ordo_error("no memory to record a failed collective of context %u", c->id);
    return c->coll_fails;
}

static fail_entry_t *entry_of(coll_fails_t *f, uint32_t call)
{
    return &f->calls[call % FAIL_WINDOW];
}

/* Whether call was made here already (call numbers wrap). */
static int made_here(const p2p_comm_t *c, uint32_t call)
{
    return (int32_t)(call - c->coll_seq) < 0;
}

static void tell_members(p2p_comm_t *c, uint32_t call, ordo_status_t st, int origin,
                         unsigned flags)
{
    for (int i = 0; i < c->nmembers; i++) {
        if (i == c->my_index)
            continue;
        p2p_hdr_t h = {.type = P2P_NOTICE, .comm = c->id, .tag = st, .seq = call,
                       .len = flags, .sreq = (uint64_t)origin};
        p2p_send_ctl(c->members[i], &h, NULL, 0);
    }
}

static int coll_drops(p2p_comm_t *c, int32_t tag)
{
    const coll_fails_t *f = c->coll_fails;
    if (f->broken)
        return 1;
    uint32_t call24 = ((uint32_t)tag >> 6) & 0xffffffu;
    const fail_entry_t *e = &f->calls[call24 % FAIL_WINDOW];
    return e->state != 0 && (e->call & 0xffffffu) == call24;
}

/* Fail every running call of c: call with st, later ones as broken. */
static void fail_running(p2p_comm_t *c, uint32_t call, ordo_status_t st)
{
    for (coll_op_t *op = coll->active; op; op = op->next) {
        if (op->c != c || op->error != ORDO_OK)
            continue;
        op->error = op->call == call ? st : ORDO_ERR_COLL_BROKEN;
        op->told = 1;
    }
}

static void break_context(p2p_comm_t *c, uint32_t call, ordo_status_t st, int origin,
                          int tell)
{
    coll_fails_t *f = fails_of(c);
    if (f == NULL) {
        fail_running(c, call, st);
        return;
    }
    if (f->broken)
        return;
    f->broken = ORDO_ERR_COLL_BROKEN;
    f->broken_call = call;
    f->broken_status = st;
    ordo_error("collective call %u of context %u failed at rank %d (%s) after members had "
               "started it: the context's collectives are over (its point-to-point traffic "
               "is not affected); create a new context for more", call, c->id, origin,
               ordo_status_string(st));
    fail_running(c, call, st);
    p2p_drop_coll_unexpected(c, ORDO_ERR_COLL_BROKEN);
    if (tell)
        tell_members(c, call, st, origin, NOTICE_RAN);
}

static coll_op_t *running_op(p2p_comm_t *c, uint32_t call)
{
    for (coll_op_t *op = coll->active; op; op = op->next)
        if (op->c == c && op->call == call)
            return op;
    return NULL;
}

/* e's call failed here without running: the members are told (st: why,
 * origin: who failed it first), and later calls wait for their answers. */
static void failed_here(p2p_comm_t *c, coll_fails_t *f, fail_entry_t *e, ordo_status_t st,
                        int origin)
{
    e->state = CALL_FAILED_HERE;
    if (e->answers + 1u < (uint32_t)c->nmembers)
        f->unresolved++;
    p2p_drop_coll_unexpected(c, st);
    tell_members(c, e->call, st, origin, 0);
}

/* A fresh entry for call, in the window slot of an older one. */
static fail_entry_t *claim_entry(p2p_comm_t *c, coll_fails_t *f, uint32_t call)
{
    fail_entry_t *e = entry_of(f, call);
    if (e->state == CALL_FAILED_HERE && e->answers + 1u < (uint32_t)c->nmembers) {
        /* FAIL_WINDOW calls later and still unanswered: give up on it */
        f->unresolved--;
        break_context(c, e->call, (ordo_status_t)e->status, e->rank, 1);
    }
    *e = (fail_entry_t){.call = call};
    return e;
}

static void on_notice(p2p_comm_t *c, int src, const p2p_hdr_t *h)
{
    ordo_status_t st = (ordo_status_t)h->tag;
    int origin = h->sreq < (uint64_t)ordo_ctx->size ? (int)h->sreq : -1;
    if (c->index_of[src] < 0 || origin < 0 || c->index_of[origin] < 0 || st >= 0 ||
        st < ORDO_ERR_COLL_BROKEN || (h->len & ~(uint64_t)NOTICE_RAN) != 0) {
        ordo_error("rank %d sent a malformed notice of a failed collective on context %u "
                   "(status %d, rank %lld, flags %llu): ignored", src, c->id, (int)h->tag,
                   (long long)h->sreq, (unsigned long long)h->len);
        return;
    }
    uint32_t call = h->seq;
    coll_fails_t *f = fails_of(c);
    if (f == NULL) {
        fail_running(c, call, st);
        return;
    }
    if (f->broken)
        return;
    if (h->len & NOTICE_RAN) {   /* a member had started it: steps are out */
        break_context(c, call, st, origin, 0);
        return;
    }
    fail_entry_t *e = entry_of(f, call);
    if (e->state != 0 && e->call == call) {   /* failed here too, or already told */
        if (++e->answers + 1u == (uint32_t)c->nmembers && e->state == CALL_FAILED_HERE)
            f->unresolved--;   /* nobody ran it: the context stays in step */
        return;
    }
    if (running_op(c, call) || (direct_c == c && direct_call == call)) {
        break_context(c, call, st, origin, 1);
        return;
    }
    if (made_here(c, call)) {
        ordo_error("collective call %u of context %u completed here, but rank %d failed it "
                   "(%s): its results at other members are not to be trusted", call, c->id,
                   origin, ordo_status_string(st));
        break_context(c, call, st, origin, 1);
        return;
    }
    e = claim_entry(c, f, call);
    if (f->broken)
        return;
    *e = (fail_entry_t){.call = call, .status = st, .rank = origin, .answers = 1,
                        .state = CALL_NOTICED};
    p2p_drop_coll_unexpected(c, st);
}

void coll_failure_init(void)
{
    p2p->coll_notice = on_notice;
    p2p->coll_drops = coll_drops;
    direct_c = NULL;
}

void coll_failure_fini(void)
{
    p2p->coll_notice = NULL;
    p2p->coll_drops = NULL;
}

void coll_refused(p2p_comm_t *c, uint32_t call, ordo_status_t st)
{
    coll_fails_t *f = fails_of(c);
    if (f == NULL || f->broken)
        return;   /* broken: every member fails every call anyway */
    fail_entry_t *e = entry_of(f, call);
    if (e->call != call || e->state != CALL_NOTICED) {
        e = claim_entry(c, f, call);
        if (f->broken)
            return;
    }
    e->status = st;   /* ours, not the notice's: this caller is told why it failed here */
    e->rank = ordo_ctx->rank;
    failed_here(c, f, e, st, ordo_ctx->rank);
}

ordo_status_t coll_call_doomed(p2p_comm_t *c, uint32_t call)
{
    coll_fails_t *f = c->coll_fails;
    if (f == NULL)
        return ORDO_OK;
    if (f->broken)
        return call == f->broken_call ? f->broken_status : f->broken;
    fail_entry_t *e = entry_of(f, call);
    if (e->call != call || e->state == 0)
        return ORDO_OK;
    if (e->state == CALL_NOTICED) {
        ordo_error("collective call %u of context %u: rank %d failed it (%s), so it fails "
                   "here too", call, c->id, e->rank, ordo_status_string(e->status));
        failed_here(c, f, e, (ordo_status_t)e->status, e->rank);
    }
    return e->status;
}

int coll_held(p2p_comm_t *c)
{
    const coll_fails_t *f = c->coll_fails;
    return f != NULL && !f->broken && f->unresolved > 0;
}

void coll_ran_failed(p2p_comm_t *c, uint32_t call, ordo_status_t st)
{
    break_context(c, call, st, ordo_ctx->rank, 1);
}

void coll_direct_running(p2p_comm_t *c, uint32_t call)
{
    direct_c = c;
    direct_call = call;
}
