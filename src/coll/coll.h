/* Collectives: every algorithm is written as a schedule — rounds of steps
 * (two-sided sends and receives, one-sided puts and atomics into the
 * scratch region, waits on scratch words, local copies and reductions) —
 * that one engine runs without blocking.  So every collective is
 * non-blocking for free, and the blocking call is the non-blocking one plus
 * a wait.
 *
 * Rounds: a round's local steps (copy, reduce, set) run first, in order,
 * then its communication is issued; the round ends when that communication
 * has completed and its waits hold.
 *
 * Scratch: a region every rank allocates at init, one slot per context
 * that has one (agreed at context creation, p2p/).  A slot holds counters
 * (monotonic, so a barrier never needs a reset) and a staging area for the
 * one-sided broadcast and alltoall.  Writers into a member's staging area
 * first wait until that member consumed the previous use (its CONSUMED
 * word), so consecutive collectives never overwrite data still being read. */
#ifndef ORDO_COLL_H
#define ORDO_COLL_H

#include <stdatomic.h>

#include "../p2p/p2p.h"

enum coll_step_kind {
    CS_SEND = 1, CS_RECV,
    CS_COPY, CS_REDUCE, CS_SET,              /* local, run at the round's start */
    CS_PUT, CS_ADD,                          /* one-sided into a member's slot */
    CS_QUIET,                                /* complete this rank's puts and adds */
    CS_WAIT,                                 /* until a member's slot word >= value */
    CS_ROUND                                 /* ends a round */
};

typedef struct coll_step {
    uint8_t     kind;
    uint8_t     dtype, op;      /* REDUCE */
    uint8_t     sub;            /* SEND/RECV: tag offset (0 .. 63) */
    uint8_t     seen;           /* WAIT: held once, not read again */
    int         peer;           /* world rank */
    void       *dst;
    const void *src;
    size_t      len;            /* bytes */
    size_t      off;            /* offset in the slot (PUT, ADD, WAIT, SET) */
    uint64_t    value;
} coll_step_t;

/* Offsets inside a slot. */
#define COLL_W_ARRIVE    0      /* tree barrier: children arrived here */
#define COLL_W_RELEASE   64     /* tree barrier: released by the parent */
#define COLL_W_SHM       128    /* shm barrier: the leader's shared counter */
#define COLL_W_READY     192    /* staging: writers that finished a use */
#define COLL_W_CONSUMED  256    /* staging: uses this member finished reading */
#define COLL_SYNC_BYTES  4096
#define COLL_DATA        COLL_SYNC_BYTES

typedef struct coll_op {
    struct ordo_request super;
    p2p_comm_t      *c;
    int32_t          tag;          /* base tag (negative) */
    coll_step_t     *steps;
    size_t           n, cap;
    size_t           pos;          /* first step of the running round */
    size_t           end;          /* its end (a CS_ROUND or n) */
    ordo_request_h  *reqs;         /* the round's communication in flight */
    size_t           nreqs, capreqs;
    void            *tmp;          /* freed with the operation */
    ordo_status_t    error;
    uint32_t         call;         /* its call number on the context (failure.c) */
    uint8_t          told;         /* error came from a member's notice */
    uint8_t          held;         /* not issued until the context's failed calls are
                                      answered for (failure.c) */
    int              started;      /* the running round's steps were issued */
    unsigned         looks;        /* waits found not holding (dead-member checks) */
    struct coll_op  *next;
} coll_op_t;

/* Local counters of a scratch slot, cleared when its context gives it back. */
typedef struct coll_slot {
    uint64_t barriers;             /* tree / shm barriers done */
    uint64_t uses;                 /* staging uses (broadcast chunks, alltoall rounds) */
    uint64_t ready;                /* READY value expected after the last use */
} coll_slot_t;

typedef struct coll_state {
    ordo_region_h  scratch;
    char         **mapped;         /* each rank's part where mapped here (looked up on
                                      first use), else NULL */
    uint8_t       *looked_up;
    size_t         slot_bytes;
    ordo_stream_h  stream;         /* relaxed: puts and adds of the schedules */
    coll_slot_t    slots[P2P_MAX_SLOTS];
    coll_op_t     *active;
    coll_op_t     *free_ops;
    int            in_progress;
    ordo_stats_t   stats;
} coll_state_t;

extern coll_state_t *coll;

/* sched.c: building and running schedules */
coll_op_t    *coll_op_new(p2p_comm_t *c);
void         *coll_tmp(coll_op_t *op, size_t bytes);       /* freed with op */
/* Start op: ORDO_OK (done; op freed, *req_p NULL) or ORDO_INPROGRESS. */
ordo_status_t coll_start(coll_op_t *op, ordo_request_h *req_p);
void          coll_op_abort(coll_op_t *op);
void          coll_ops_free_all(void);
/* Whether a member of c died (logged): one-sided waits cannot tell whom
 * they wait for, so any death fails them. */
int           coll_member_died(p2p_comm_t *c);
unsigned      coll_progress_ops(void);

/* Step helpers (errors collect in op and surface at coll_start). */
void coll_send(coll_op_t *op, int peer, const void *buf, size_t len, int sub);
void coll_recv(coll_op_t *op, int peer, void *buf, size_t len, int sub);
void coll_copy(coll_op_t *op, void *dst, const void *src, size_t len);
void coll_reduce_step(coll_op_t *op, void *acc, const void *in, size_t len, int dtype, int rop);
void coll_put(coll_op_t *op, int peer, size_t off, const void *src, size_t len);
void coll_add_word(coll_op_t *op, int peer, size_t off, uint64_t v);
void coll_set_word(coll_op_t *op, size_t off, uint64_t v);
void coll_quiet(coll_op_t *op);
void coll_wait_local(coll_op_t *op, size_t off, uint64_t v);
void coll_wait_remote(coll_op_t *op, int peer, size_t off, uint64_t v);
void coll_end_round(coll_op_t *op);

/* The slot's local counters for c (NULL: c has no slot). */
coll_slot_t  *coll_slot_of(p2p_comm_t *c);
/* rank's part of the scratch region where it is mapped here, else NULL. */
char         *coll_mapped(int rank);
/* Word off of slot in rank's part where mapped here, else NULL. */
static inline _Atomic uint64_t *coll_word(int rank, int slot, size_t off)
{
    char *base = coll_mapped(rank);
    return base ? (_Atomic uint64_t *)(base + (size_t)slot * coll->slot_bytes + off) : NULL;
}
/* Our own staging area for slot. */
static inline char *coll_staging(int slot)
{
    return coll_mapped(ordo_ctx->rank) + (size_t)slot * coll->slot_bytes + COLL_DATA;
}
/* Whether every member's scratch is mapped here (the shm barrier). */
int           coll_all_mapped(p2p_comm_t *c);

/* coll.c: what every public collective call does */
/* Resolve comm and take the call's number and op (a failure after the
 * number is taken is told to the members). */
ordo_status_t coll_begin(ordo_comm_h comm, ordo_request_h *req_p, coll_op_t **op_p);
/* root must be a member of op's context (logged). */
ordo_status_t coll_check_root(coll_op_t *op, int root);
/* n blocks of len bytes at buf fit in memory (else logged, naming call). */
int           coll_span_ok(const char *call, const void *buf, size_t n, size_t len);
/* The same, and a NULL buf refused where it would hold bytes (logged). */
int           coll_buffer_ok(const char *call, const void *buf, size_t n, size_t len);
/* Refuse op before it issued anything: the members are told. */
ordo_status_t coll_reject(coll_op_t *op, ordo_status_t st);
/* The blocking form's end: wait for req when st says it runs. */
ordo_status_t coll_wait_for(ordo_status_t st, ordo_request_h req);

/* failure.c: collective failures agreed among the members */
void          coll_failure_init(void);
void          coll_failure_fini(void);
/* This rank refused call (or failed it before issuing anything): tell the
 * members. */
void          coll_refused(p2p_comm_t *c, uint32_t call, ordo_status_t st);
/* The status call must fail with before it issues anything (a member
 * failed it, or the context broke), else ORDO_OK.  Cheap to skip while
 * c->coll_fails is NULL. */
ordo_status_t coll_call_doomed(p2p_comm_t *c, uint32_t call);
/* Whether calls of c wait for members' answers about a call that failed
 * here (they may not issue anything yet). */
int           coll_held(p2p_comm_t *c);
/* call failed here after issuing steps: the context breaks, members are told. */
void          coll_ran_failed(p2p_comm_t *c, uint32_t call, ordo_status_t st);
/* The direct barrier runs call of c now (NULL: none runs). */
void          coll_direct_running(p2p_comm_t *c, uint32_t call);

/* reduce.c */
size_t        coll_dtype_size(int dtype);
ordo_status_t coll_check_reduction(int dtype, int rop);
void          coll_apply(void *acc, const void *in, size_t count, int dtype, int rop);

/* algorithms.c: build the schedule of each collective into op */
/* auto takes the shared-counter barrier below this many members (all
 * mapped), the tree from it */
#define COLL_SHM_BARRIER_MEMBERS_MAX 8
int  coll_barrier_alg(p2p_comm_t *c, int alg);     /* the one that runs on c */
int  coll_tree_children(int n, int i, int k);      /* of member i, radix k */
void coll_build_barrier(coll_op_t *op, int alg);
void coll_build_bcast(coll_op_t *op, void *buf, size_t len, int root, int alg);
void coll_build_reduce(coll_op_t *op, const void *sbuf, void *rbuf, size_t count, int dtype,
                       int rop, int root, int alg);
void coll_build_gather(coll_op_t *op, const void *sbuf, size_t len, void *rbuf, int root,
                       int all);
void coll_build_alltoall(coll_op_t *op, const void *sbuf, size_t len, void *rbuf, int alg);

#endif
