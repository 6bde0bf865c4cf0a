/* MPI on ordo: what the files of the layer share.  Built on ordo's public
 * API only (include/ordo/ordo.h), in a library of its own (libmpi_abi.so.1,
 * the MPI 5.0 standard ABI), as the OpenSHMEM layer is.
 *
 * Handles: the predefined ones are the small constants of the ABI, mapped
 * here to static objects; those the library creates are pointers to the
 * structs below, each starting with a magic number so a freed or foreign
 * handle is refused with the MPI error class instead of followed.
 *
 * Internal names start with om_ ("ordo MPI"). */
#ifndef ORDO_MPI_INTERNAL_H
#define ORDO_MPI_INTERNAL_H

#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <ordo/ordo.h>

#include "../../include/ordo-mpi/mpi.h"

/* MPI_name is a weak alias of PMPI_name, exported beside it, so a
 * profiling library's MPI_name wins and reaches ours through PMPI_name. */
#define OM_ALIAS(name)                                                     \
    extern __typeof__(PMPI_##name) MPI_##name                                    \
        __attribute__((weak, alias("PMPI_" #name), visibility("default")));

#pragma GCC visibility push(hidden)

/* ------------------------------------------------------------- objects */

#define OM_MAGIC_COMM  0x4f4d434du   /* "OMCM" */
#define OM_MAGIC_GROUP 0x4f4d4750u
#define OM_MAGIC_REQ   0x4f4d5251u
#define OM_MAGIC_TYPE  0x4f4d5459u
#define OM_MAGIC_INFO  0x4f4d494eu
#define OM_MAGIC_ERRH  0x4f4d4548u
#define OM_MAGIC_OP    0x4f4d4f50u
#define OM_MAGIC_MSG   0x4f4d4d53u
#define OM_MAGIC_WIN   0x4f4d5749u
#define OM_MAGIC_DEAD  0xdeadbeefu
/* a communicator the program freed while requests made on it go on (or
 * receives are still posted on it): no longer the program's, kept for
 * those requests (comm.c) */
#define OM_MAGIC_COMM_FREED 0x4f4d4346u

/* An ordered list of world ranks: a group, and a communicator's members. */
struct MPI_ABI_Group {
    uint32_t magic;
    int      refs;      /* handles and communicators holding it */
    int      size;
    int      rank;      /* this process's index, or MPI_UNDEFINED */
    int     *ranks;     /* index -> world rank */
    struct MPI_ABI_Session *session;   /* from a session's process set (held), or NULL */
};

typedef struct om_attr {
    int             keyval;
    void           *value;
    struct om_attr *next;
} om_attr_t;

/* Communicator: an ordo context, its members in MPI rank order, and the
 * hints it was given.  An intercommunicator (remote set, intercomm.c) is
 * a context over both groups: its MPI ranks are those of the groups, not
 * the context's member order, and its collectives run on coll_oc. */
struct MPI_ABI_Comm {
    uint32_t        magic;
    ordo_comm_h     oc;         /* ORDO_COMM_WORLD for MPI_COMM_WORLD */
    struct MPI_ABI_Group *group;
    struct MPI_ABI_Group *remote;   /* the remote group; NULL for an intracommunicator */
    ordo_comm_h     coll_oc;    /* intercommunicator: its collectives' own context */
    uint32_t        coll_seq;   /* intercommunicator: collectives started, their tag */
    int             owns_oc;    /* destroyed with the communicator */
    int             overtaking; /* mpi_assert_allow_overtaking was given */
    MPI_Errhandler  errh;
    MPI_Info        info;       /* the hints as given (MPI_INFO_NULL: none) */
    om_attr_t      *attrs;
    struct om_cart *cart;       /* its Cartesian topology, NULL if none (topo.c) */
    struct om_graph *graph;     /* its (distributed) graph topology, NULL if none (graph.c) */
    struct om_bpool *bpool;     /* its own buffered-send buffer (MPI-4.1), NULL if none (bsend.c) */
    struct MPI_ABI_Session *session;   /* the session it derives from (held), or NULL */
    int             identity;   /* an intracommunicator whose rank i is world rank i */
    _Atomic int     records;    /* request records made on it and not yet freed */
    _Atomic int     oc_gone;    /* freed by the program and its context destroyed:
                                   the record that ends `records` frees it */
    _Atomic int     direct_slot;   /* om_direct_slot: 0 not yet asked, -1 none */
    char            name[MPI_MAX_OBJECT_NAME];
    struct MPI_ABI_Comm *prev, *next;   /* the live ones the program made */
};

/* A Cartesian topology: ndims dimensions, then dims and periods, one
 * allocation (freed with the communicator). */
typedef struct om_cart {
    int ndims;
    int dims_periods[];   /* dims[ndims], then periods[ndims] */
} om_cart_t;
/* dst gets a copy of src's topology, if any (Comm_dup); an MPI error. */
int om_cart_copy(const struct MPI_ABI_Comm *src, struct MPI_ABI_Comm *dst);
/* A graph or distributed graph topology (graph.c), one allocation. */
typedef struct om_graph om_graph_t;
int om_graph_copy(const struct MPI_ABI_Comm *src, struct MPI_ABI_Comm *dst);
/* MPI_GRAPH, MPI_DIST_GRAPH, or MPI_UNDEFINED without one. */
int om_graph_kind(const struct MPI_ABI_Comm *c);
/* The neighbours of this process in c's graph (c->graph set): in order,
 * the ranks it receives from and sends to (the graph's own arrays). */
int om_graph_neighbors(struct MPI_ABI_Comm *c, int *nin, const int **in, int *nout,
                       const int **out);
/* This process's neighbours in c's grid (c->cart set), into nbrs (2 x
 * ndims): per dimension the one below, then the one above (MPI_PROC_NULL
 * off a closed edge); returns how many. */
int om_cart_neighbors(struct MPI_ABI_Comm *c, int *nbrs);

/* Error handler: predefined (fn NULL: the kind says which) or the
 * program's. */
struct MPI_ABI_Errhandler {
    uint32_t magic;
    int      refs;
    int      predefined;   /* MPI_ERRORS_* value it stands for, 0 for a user one */
    MPI_Comm_errhandler_function *comm_fn;
    MPI_Win_errhandler_function  *win_fn;
    MPI_Session_errhandler_function *session_fn;
};

/* Info object: key/value strings, in the order set. */
typedef struct om_info_entry {
    char *key, *value;
} om_info_entry_t;

struct MPI_ABI_Info {
    uint32_t         magic;
    int              n, cap;
    om_info_entry_t *entries;
};

/* Datatype: a type map flattened to byte blocks (offset, length) of one
 * element, merged where adjacent, plus what MPI reports of it.  basic is
 * the predefined type every element is made of (what reductions need), or
 * MPI_DATATYPE_NULL when mixed. */
typedef struct om_block {
    MPI_Aint disp;
    size_t   len;
} om_block_t;

struct MPI_ABI_Datatype {
    uint32_t     magic;
    int          refs;
    int          predefined;   /* a static object standing for an ABI constant */
    int          committed;
    size_t       size;         /* bytes of data in one element */
    MPI_Aint     lb, extent;
    MPI_Aint     true_lb, true_extent;
    MPI_Datatype basic;        /* element type, for reductions */
    size_t       basic_count;  /* elements of `basic` in one element */
    size_t       nelems;       /* basic elements in one element, of whatever types */
    int          contiguous;   /* one block at 0 of `size` bytes, extent == size */
    int          nblocks;
    om_block_t  *blocks;
    int          combiner;     /* MPI_COMBINER_* it was made by */
    struct om_envelope *env;   /* its constructor's arguments (derived types) */
    int          f90;          /* an MPI_Type_create_f90_* type: kept, never freed */
    om_attr_t   *attrs;
    char         name[MPI_MAX_OBJECT_NAME];
};

/* User reduction operation. */
struct MPI_ABI_Op {
    uint32_t           magic;
    MPI_User_function *fn;
    MPI_User_function_c *fn_c;
    int                commute;
    int                refs;    /* reductions in flight using it */
    int                freed;   /* MPI_Op_free called: gone for the program, kept for them */
};

/* Request.  Receives of non-contiguous data land in `pack` and are
 * unpacked on completion; sends of it leave from `pack`. */
enum om_req_kind {
    OM_REQ_SEND, OM_REQ_RECV, OM_REQ_COLL, OM_REQ_DONE
};

struct MPI_ABI_Request {   /* om_req_new sets every field but done_status: add new ones there */
    uint32_t         magic;
    enum om_req_kind kind;
    ordo_request_h   or_;        /* NULL: complete (or an inactive persistent one) */
    ordo_request_h   or2;        /* a sendrecv's send half, completed first */
    ordo_status_t    or2_status;
    void            *pack2;      /* what the send half sends from, when ours */
    MPI_Comm         comm;
    int              persistent, active;
    int              proc_null;  /* a receive from MPI_PROC_NULL */
    int              completed;  /* done_status holds the outcome */
    /* what completion reports and does */
    MPI_Status       done_status;
    void            *pack;       /* bounce buffer for derived types, freed at the end */
    void            *ubuf;       /* the program's buffer, for unpacking */
    MPI_Count        ucount;
    struct MPI_ABI_Datatype *utype;   /* held (a reference) until completion */
    /* persistent arguments */
    const void      *pbuf;
    MPI_Count        pcount;
    MPI_Datatype     ptype;
    int              ppeer, ptag, pmode;
    /* collectives: what completion still does (unpack, reduce, free) */
    int            (*finish)(struct MPI_ABI_Request *r);
    void            *fctx;
    struct om_pcoll *pcoll;      /* a persistent collective's call (persist_move.c) */
    struct om_greq  *greq;       /* a generalized request's functions (grequest.c) */
    struct om_part  *part;       /* a partitioned one's partitions (partitioned.c) */
    /* a request of the library's own making: complete once poll says so
     * (poll_arg, poll_seq its arguments; p2p.c's buffer flushes): 1 done
     * (an empty status), 2 done with done_status filled, 0 not yet, < 0
     * failed (minus the class) */
    int            (*poll)(struct MPI_ABI_Request *r, int wait);
    void            *poll_arg;
    uint64_t         poll_seq;
    struct MPI_ABI_Request *next_free;
};

/* send modes */
enum { OM_SEND_STD, OM_SEND_SYNC, OM_SEND_BUFFERED, OM_SEND_READY };

/* Window: an ordo region with epochs, a relaxed stream for puts and gets,
 * and the stream accumulates go on (win.c says which). */
struct MPI_ABI_Win {
    uint32_t       magic;
    ordo_region_h  region;
    ordo_stream_h  data, acc;
    int            acc_relaxed;   /* accumulate_ordering=none: acc == data */
    MPI_Comm       comm;
    struct MPI_ABI_Group *group;  /* window rank -> world rank */
    void          *base;
    MPI_Aint       size;
    int            disp_unit;
    int           *units;         /* every rank's disp_unit */
    MPI_Aint      *sizes;         /* every rank's size, for memory the library allocated
                                     (NULL: the region's sizes are the program's) */
    int            flavor, model;
    MPI_Errhandler errh;
    MPI_Info       info;
    om_attr_t     *attrs;
    char           name[MPI_MAX_OBJECT_NAME];
    /* The short ways of one-sided operations (rma_direct.h): per window
     * rank, its memory where it is mapped here (asked of ordo once), and the
     * passive epochs this rank opened (set once ordo opened them, cleared
     * before ordo closes them) */
    struct om_direct { char *base; size_t size; int asked; } *direct;
    uint8_t       *locked;
    int            lock_all;
    /* operations were handed to ordo since ordo last completed them all
     * (flush_all, unlock_all, fence): until then a flush asks it */
    int            through_ordo;
};

/* A matched message (MPI_Mprobe): the message is received at once into
 * memory of ours and copied out by MPI_Mrecv. */
struct MPI_ABI_Message {
    uint32_t   magic;
    MPI_Comm   comm;
    void      *data;
    size_t     len;
    MPI_Status status;
};

/* ----------------------------------------------------------- the library */

typedef struct om_state {
    int initialized, finalized;   /* the World Model: MPI_Init, MPI_Finalize called */
    int running;                  /* ordo is up: from the first MPI_Init or MPI_Session_init */
    int users;                    /* the World Model (until MPI_Finalize) and live sessions */
    int ended;                    /* ordo was finalized: it cannot start again */
    int thread_level;
    int world_rank, world_size;
    void *main_thread;
    int next_keyval;
    int direct_pins;              /* peers' windows mapped for good (rma_direct.c) */
    size_t direct_max;            /* the largest put or get copied that way */
    int last_error_class;       /* MPI_Add_error_class */
} om_state_t;

extern om_state_t om_g;
extern struct MPI_ABI_Comm om_comm_world, om_comm_self;
extern struct MPI_ABI_Group om_group_empty;

/* Where an error is raised: its object's handler. */
typedef enum om_on {
    OM_ON_NONE, OM_ON_COMM, OM_ON_WIN, OM_ON_FILE,
    OM_ON_SESSION
} om_on_t;

/* Raise error class `code` on the object (its handler runs: fatal ones
 * print the message and end the job, MPI_ERRORS_RETURN and user handlers
 * return): logs `fmt` naming the function and what was wrong; returns code
 * for the caller to return. */
int om_raise(om_on_t on, void *handle, int code, const char *func, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
#define om_comm_error(comm, code, func, ...) \
    om_raise(OM_ON_COMM, (void *)(comm), code, func, __VA_ARGS__)
int om_unsupported(om_on_t on, void *handle, const char *func);

/* The MPI error class for an ordo status. */
int om_class_of(ordo_status_t st);
/* Raise an ordo failure on a communicator. */
int om_comm_failed(MPI_Comm comm, ordo_status_t st, const char *func);

/* Checks each function makes first: the library is up (else a line on
 * stderr naming func, and 0).  Inline, as the lookups below: every message
 * passes them. */
int om_not_ready(const char *func);
static inline int om_up(void)   /* the same test, silent */
{
    return om_g.running;
}
static inline int om_ready(const char *func)
{
    return __builtin_expect(om_up(), 1) ? 1 : om_not_ready(func);
}

/* Handle lookups: NULL for a null, freed or foreign handle. */
static inline struct MPI_ABI_Comm *om_comm(MPI_Comm comm)
{
    if (comm == MPI_COMM_WORLD)
        return om_comm_world.magic == OM_MAGIC_COMM ? &om_comm_world : NULL;
    if (comm == MPI_COMM_SELF)
        return om_comm_self.magic == OM_MAGIC_COMM ? &om_comm_self : NULL;
    if ((uintptr_t)comm < 0x1000 || comm->magic != OM_MAGIC_COMM)
        return NULL;
    return comm;
}
struct MPI_ABI_Group *om_group(MPI_Group group);
#define OM_TYPE_SLOTS 0x100   /* predefined datatype handles are 0x200 .. 0x2ff */
extern struct MPI_ABI_Datatype om_predef_types[OM_TYPE_SLOTS];
/* A request's communicator, freed by the program since or not */
static inline struct MPI_ABI_Comm *om_comm_of_request(MPI_Comm comm)
{
    struct MPI_ABI_Comm *c = om_comm(comm);
    if (c || (uintptr_t)comm < 0x1000)
        return c;
    return comm->magic == OM_MAGIC_COMM_FREED ? comm : NULL;
}
static inline struct MPI_ABI_Datatype *om_type(MPI_Datatype type)
{
    uintptr_t v = (uintptr_t)type;
    if (v > 0x200 && v < 0x200 + OM_TYPE_SLOTS)
        return om_predef_types[v - 0x200].magic == OM_MAGIC_TYPE ? &om_predef_types[v - 0x200]
                                                                 : NULL;
    if (v < 0x1000 || type->magic != OM_MAGIC_TYPE)
        return NULL;
    return type;
}
struct MPI_ABI_Info *om_info(MPI_Info info);

/* Communicator: translate ranks.  A peer (a send's destination, a
 * receive's source) is in the remote group of an intercommunicator. */
static inline struct MPI_ABI_Group *om_peer_group(const struct MPI_ABI_Comm *c)
{
    return c->remote ? c->remote : c->group;
}
static inline int om_world_rank(struct MPI_ABI_Comm *c, int rank)
{
    return om_peer_group(c)->ranks[rank];
}
/* The peer rank of world rank `world` (MPI_UNDEFINED when not one). */
int om_comm_rank_of_world(struct MPI_ABI_Comm *c, int world);

/* Groups */
struct MPI_ABI_Group *om_group_new(int size);
void om_group_release(struct MPI_ABI_Group *g);
/* Set g->rank: this process's index, or MPI_UNDEFINED. */
void om_group_find_me(struct MPI_ABI_Group *g);
/* The index of world rank `world` in g, or -1. */
int om_group_index(const struct MPI_ABI_Group *g, int world);
/* MPI_IDENT, MPI_SIMILAR or MPI_UNEQUAL */
int om_group_compare(const struct MPI_ABI_Group *a, const struct MPI_ABI_Group *b);

/* Info */
const char *om_info_lookup(MPI_Info info, const char *key);

/* Datatypes */
void om_types_init(void);
void om_type_retain(struct MPI_ABI_Datatype *t);
void om_type_release(struct MPI_ABI_Datatype *t);
/* A derived type's constructor arguments, as MPI_Type_get_contents gives
 * them back; the types in it are held (a reference each). */
typedef struct om_envelope {
    int           ni, na, nd;
    int           large;   /* made by a large-count (_c) constructor: its integers and
                              addresses are MPI_Count values, reported as large counts */
    int64_t      *ints;
    MPI_Aint     *aints;
    MPI_Datatype *types;
} om_envelope_t;
om_envelope_t *om_envelope_new(int ni, int na, int nd);
void om_envelope_hold(om_envelope_t *e);   /* take the references, once filled */
void om_envelope_free(om_envelope_t *e);
/* A _c constructor's result (rc its return): its arguments are large counts. */
int om_type_made_large(int rc, MPI_Datatype *newtype);
/* A type made from others decodes as combiner with the arguments of e
 * (filled): e's references are taken, the type's former envelope goes. */
void om_type_reenvelope(struct MPI_ABI_Datatype *t, om_envelope_t *e, int combiner);

/* The datatype of a handle, or the MPI_ERR_TYPE raised naming func. */
int om_type_arg(MPI_Datatype h, struct MPI_ABI_Datatype **t, const char *func);
/* Bytes of count elements of t: 0, or -1 past what memory can hold. */
static inline int om_type_bytes(struct MPI_ABI_Datatype *t, MPI_Count count, size_t *bytes_p)
{
    size_t bytes;   /* no division: this is on every message's path */
    if (count < 0 || __builtin_mul_overflow((size_t)count, t->size, &bytes) ||
        bytes > (size_t)PTRDIFF_MAX)
        return -1;
    *bytes_p = bytes;
    return 0;
}
/* Pack count elements at buf into out (om_type_bytes long); unpack the
 * reverse, of at most `len` bytes (a short message fills what it has). */
void om_pack(const struct MPI_ABI_Datatype *t, const void *buf, MPI_Count count, void *out);
void om_unpack(const struct MPI_ABI_Datatype *t, const void *in, size_t len, void *buf,
               MPI_Count count);
/* Check a (buffer, count, type) argument: the MPI error class or 0. */
static inline int om_check_buffer(const void *buf, MPI_Count count, MPI_Datatype type,
                                  struct MPI_ABI_Datatype **t_p)
{
    (void)buf;   /* MPI_BOTTOM (NULL) with absolute displacements is valid */
    struct MPI_ABI_Datatype *t = om_type(type);
    size_t bytes;
    if (!t || !t->committed)
        return MPI_ERR_TYPE;
    if (om_type_bytes(t, count, &bytes) != 0)
        return MPI_ERR_COUNT;
    *t_p = t;
    return MPI_SUCCESS;
}

/* Reductions */
int om_op_check(MPI_Op op, struct MPI_ABI_Datatype *t);
/* inout[i] = in[i] op inout[i], count elements of type: in the type's
 * layout for user operations and MPI_REPLACE (om_op_is_user), packed
 * (om_pack) for the other predefined ones. */
int om_op_is_user(MPI_Op op);
/* A reduction in flight holds a user operation (MPI_Op_free may come
 * before it completes: the operation then lives until it does). */
void om_op_retain(MPI_Op op);
void om_op_release(MPI_Op op);
void om_op_apply(MPI_Op op, struct MPI_ABI_Datatype *t, const void *in, void *inout,
                 MPI_Count count);
/* The ordo collective a (type, op) pair maps onto: 1 when it does. */
int om_op_native(MPI_Op op, struct MPI_ABI_Datatype *t, ordo_dtype_t *dt, ordo_reduce_op_t *ro);

/* Status */
void om_status_set(MPI_Status *st, int source, int tag, int error, size_t bytes, int cancelled);
void om_status_empty(MPI_Status *st);
static inline size_t om_status_bytes(const MPI_Status *st)
{
    uint64_t lo = (uint32_t)st->MPI_internal[0], hi = (uint32_t)st->MPI_internal[1];
    return (size_t)(lo | hi << 32);
}

/* Requests */
/* The request of every send that completed when it started (a short
 * message gone at once): one shared, read-only object, complete with an
 * empty status, that freeing leaves alone, so such a send costs no
 * request of its own (as MPICH's lightweight requests). */
extern struct MPI_ABI_Request om_send_done;

/* Requests come from a free list (request.c), inline: every message takes
 * one.  Threads of an MPI_THREAD_MULTIPLE process take and give back under
 * a lock; at the other levels one thread at a time is in MPI. */
extern struct MPI_ABI_Request *om_free_reqs;
extern pthread_mutex_t om_free_reqs_lock;

static inline int om_free_reqs_take(void)
{
    if (om_g.thread_level != MPI_THREAD_MULTIPLE)
        return 0;
    pthread_mutex_lock(&om_free_reqs_lock);
    return 1;
}

static inline void om_free_reqs_give(int locked)
{
    if (locked)
        pthread_mutex_unlock(&om_free_reqs_lock);
}

/* A record, not yet a request (NULL: no memory): om_req_init makes it
 * one, om_req_put gives it back unused (a send that completed at once
 * needs none, so it costs no initialisation). */
static inline struct MPI_ABI_Request *om_req_take(void)
{
    int locked = om_free_reqs_take();
    struct MPI_ABI_Request *r = om_free_reqs;
    if (r)
        om_free_reqs = r->next_free;
    om_free_reqs_give(locked);
    return r ? r : malloc(sizeof(*r));
}

static inline void om_req_put(struct MPI_ABI_Request *r)
{
    r->magic = OM_MAGIC_DEAD;
    int locked = om_free_reqs_take();
    r->next_free = om_free_reqs;
    om_free_reqs = r;
    om_free_reqs_give(locked);
}

/* A record on comm holds it (MPI lets a communicator be freed while
 * requests made on it go on): counted, plainly below MPI_THREAD_MULTIPLE. */
static inline void om_comm_hold(MPI_Comm comm, int by)
{
    if ((uintptr_t)comm < 0x1000)
        return;   /* world, self and null live as long as the library */
    if (om_g.thread_level == MPI_THREAD_MULTIPLE)
        atomic_fetch_add_explicit(&comm->records, by, memory_order_relaxed);
    else
        atomic_store_explicit(&comm->records,
                              atomic_load_explicit(&comm->records, memory_order_relaxed) + by,
                              memory_order_relaxed);
}
/* A record on comm went: a communicator the program freed goes with its last. */
void om_comm_reap(struct MPI_ABI_Comm *c);
static inline void om_comm_unhold(MPI_Comm comm)
{
    om_comm_hold(comm, -1);
    if ((uintptr_t)comm >= 0x1000 &&
        __builtin_expect(atomic_load_explicit(&comm->oc_gone, memory_order_relaxed), 0))
        om_comm_reap(comm);
}

static inline struct MPI_ABI_Request *om_req_init(struct MPI_ABI_Request *r,
                                                   enum om_req_kind kind, MPI_Comm comm)
{
    /* field by field, not memset: a string store of the whole record was
     * most of a send's cost here.  done_status is written at completion,
     * before anything reads it. */
    r->magic = OM_MAGIC_REQ;
    r->kind = kind;
    r->or_ = r->or2 = NULL;
    r->or2_status = ORDO_OK;
    r->pack2 = r->pack = r->ubuf = NULL;
    r->comm = comm;
    om_comm_hold(comm, 1);
    r->persistent = r->active = r->proc_null = r->completed = 0;
    r->ucount = 0;
    r->utype = NULL;
    r->pbuf = NULL;
    r->pcount = 0;
    r->ptype = MPI_DATATYPE_NULL;
    r->ppeer = r->ptag = r->pmode = 0;
    r->finish = NULL;
    r->fctx = NULL;
    r->pcoll = NULL;
    r->greq = NULL;
    r->part = NULL;
    r->poll = NULL;
    r->poll_arg = NULL;
    r->poll_seq = 0;
    r->next_free = NULL;
    return r;
}

static inline struct MPI_ABI_Request *om_req_new(enum om_req_kind kind, MPI_Comm comm)
{
    struct MPI_ABI_Request *r = om_req_take();
    return r ? om_req_init(r, kind, comm) : NULL;
}

/* A persistent collective's record, with its copied arrays (persist_move.c). */
void om_pcoll_free(struct om_pcoll *p);

/* Generalized requests (grequest.c): the program's functions, and where
 * the request stands (threads may complete and free it at once). */
enum { OM_GREQ_ACTIVE, OM_GREQ_DONE, OM_GREQ_FREED /* freed before done: done frees it */ };
struct om_greq {
    MPI_Grequest_query_function  *query;
    MPI_Grequest_free_function   *free_fn;
    MPI_Grequest_cancel_function *cancel;
    void                         *extra;
    _Atomic int                   state;
};
/* Partitioned requests (partitioned.c): starting one, and its end. */
int om_part_start(struct MPI_ABI_Request *r);
void om_part_free(struct MPI_ABI_Request *r);

/* Its free function, then the record; what the function returned (the
 * request's completion reports it; om_req_free calls it otherwise). */
int om_greq_release(struct MPI_ABI_Request *r);
/* Complete r (blocking when wait, progressing ordo meanwhile): 1 once its
 * query function filled done_status, 0 while MPI_Grequest_complete has
 * not been called. */
int om_greq_advance(struct MPI_ABI_Request *r, int wait);

static inline void om_req_free(struct MPI_ABI_Request *r)
{
    if (r == &om_send_done)
        return;
    if (r->pack)   /* most have none: no call */
        free(r->pack);
    if (r->pack2)
        free(r->pack2);
    if (r->utype)
        om_type_release(r->utype);
    if (r->pcoll)
        om_pcoll_free(r->pcoll);
    if (r->greq)
        om_greq_release(r);
    if (r->part)
        om_part_free(r);
    om_comm_unhold(r->comm);
    om_req_put(r);
}
#include "direct.h"   /* direct requests: ordo's own, handed out as ours */
/* h as a record of ours, or NULL (a predefined handle, a direct request,
 * or not a request). */
static inline struct MPI_ABI_Request *om_req_record(MPI_Request h)
{
    if ((uintptr_t)h < 0x1000 || om_req_direct(h) || h->magic != OM_MAGIC_REQ)
        return NULL;
    return h;
}
/* Requests the program freed while active (detached.c): released by the
 * completion calls once finished (om_detached_poll, one load while there
 * are none), finished by MPI_Finalize (om_detached_finish). */
extern _Atomic int om_detached_count;
void om_detached_release(void);
static inline void om_detached_poll(void)
{
    if (__builtin_expect(atomic_load_explicit(&om_detached_count, memory_order_relaxed), 0))
        om_detached_release();
}
void om_detached_finish(void);

/* Complete r if it is done (block when `wait`): 1 when complete (status
 * filled; a non-persistent r freed), 0 when not, < 0 an MPI error class
 * (also in status->MPI_ERROR). */
int om_req_complete(struct MPI_ABI_Request *r, int wait, MPI_Status *status);
/* Start a persistent collective's call: the immediate form's request. */
int om_pcoll_run(const struct om_pcoll *p, MPI_Request *op);


/* Receives are posted under this lock at MPI_THREAD_MULTIPLE, so a
 * matched probe's receive takes the message it found (no other thread's
 * receive comes between). */
void om_post_lock(void);
void om_post_unlock(void);

/* Start a send or receive of (buf, count, type) on c (ranks are c's;
 * MPI_PROC_NULL allowed): the request is returned in *r_p. */
int om_isend(struct MPI_ABI_Comm *c, MPI_Comm comm, const void *buf, MPI_Count count,
             MPI_Datatype type, int dest, int tag, int mode, struct MPI_ABI_Request **r_p,
             const char *func);
int om_irecv(struct MPI_ABI_Comm *c, MPI_Comm comm, void *buf, MPI_Count count,
             MPI_Datatype type, int source, int tag, struct MPI_ABI_Request **r_p,
             const char *func);

/* Attributes cached on communicators; dup copies those whose key says so */
void om_attrs_free(struct MPI_ABI_Comm *c);
int om_attrs_copy(struct MPI_ABI_Comm *from, MPI_Comm to);
/* Buffered sends (bsend.c): a communicator's finish and its buffer goes;
 * whether bytes fit the buffer a send on c uses (MPI_ERR_BUFFER raised
 * when not); a send's request r kept until done, the program handed a
 * complete one in *r_p. */
void om_comm_bpool_release(struct MPI_ABI_Comm *c);
int om_bsend_room(struct MPI_ABI_Comm *c, MPI_Comm comm, size_t bytes, const char *func);
int om_bsend_keep(struct MPI_ABI_Comm *c, MPI_Comm comm, struct MPI_ABI_Request *r,
                  size_t bytes, struct MPI_ABI_Request **r_p, const char *func);
/* Datatypes' and windows' attributes (attr.c): copied by MPI_Type_dup,
 * deleted (their callbacks run) by MPI_Type_free / MPI_Win_free, which
 * fail with a callback's error. */
int om_type_attrs_copy(MPI_Datatype from, struct MPI_ABI_Datatype *to);
int om_type_attrs_free(MPI_Datatype type, struct MPI_ABI_Datatype *t);
int om_win_attr_get(MPI_Win win, struct MPI_ABI_Win *w, int keyval, void *out, int *flag);
int om_win_attrs_free(MPI_Win win, struct MPI_ABI_Win *w);

/* The name of a null handle (MPI-4.1: predefined handles all have one). */
static inline int om_null_name(const char *name, char *out, int *len)
{
    strcpy(out, name);
    *len = (int)strlen(name);
    return MPI_SUCCESS;
}

/* ordo for one more user (MPI_Init, MPI_Session_init), started by the
 * first at thread level `required` (*provided: the level ordo gives), and
 * its end after the last (om_runtime_down: a world barrier, every
 * communicator freed, ordo finalized).  An MPI class, said on stderr. */
int om_runtime_up(int required, int *provided, const char *func);
int om_runtime_down(const char *func);
/* A session's error handler (MPI_ERRHANDLER_NULL for no session: its
 * errors are raised as those of no object, on MPI_COMM_SELF). */
MPI_Errhandler om_session_errh(MPI_Session session);
/* Sessions are counted references: the groups and communicators derived
 * from one hold it (its memory outlives MPI_Session_finalize while they
 * do; the program must free them first, as MPI says).  retain takes NULL. */
struct MPI_ABI_Session *om_session_retain(struct MPI_ABI_Session *s);
void om_session_release(struct MPI_ABI_Session *s);
/* A live session's buffered-send buffer slot (bsend.c fills it), NULL for
 * no live session; and a buffer's end (its messages sent first). */
struct om_bpool **om_session_bpool(MPI_Session session);
void om_bpool_release(struct om_bpool **slot);

/* Communicators made and ended with the library */
int om_comms_init(void);
void om_comms_finalize(void);
/* A communicator around a built ordo context (owned: destroyed with it),
 * its group `group` (held; NULL: the context's members), the parent's
 * error handler, listed among the live ones; NULL without memory (oc is
 * then the caller's). */
struct MPI_ABI_Comm *om_comm_wrap(ordo_comm_h oc, struct MPI_ABI_Group *group,
                                  MPI_Errhandler errh);
/* The communicator of g's members in g's order, made by them alone
 * (comm.c); MPI_COMM_NULL where this process is not one.  MPI_SUCCESS, a
 * class, or -1 with ordo's status in *failed. */
int om_comm_from_group(struct MPI_ABI_Group *g, int overtaking, MPI_Comm *newcomm,
                       ordo_status_t *failed);

/* Intercommunicators (intercomm.c): a duplicate, and a split (MPI_Comm_split,
 * and MPI_Comm_create with colour 0 / key the group index for members of
 * the group) of intercommunicator c. */
int om_inter_dup(struct MPI_ABI_Comm *c, MPI_Comm comm, int overtaking, MPI_Comm *newcomm,
                 const char *func);
int om_inter_split(struct MPI_ABI_Comm *c, MPI_Comm comm, int color, int key,
                   MPI_Comm *newcomm, const char *func);
/* Its end: both contexts destroyed, the remote group released. */
ordo_status_t om_inter_destroy(struct MPI_ABI_Comm *c);
/* A call that needs an intracommunicator refuses c (MPI_ERR_COMM raised). */
static inline int om_intra_only(struct MPI_ABI_Comm *c, MPI_Comm comm, const char *func)
{
    if (!c->remote)
        return MPI_SUCCESS;
    return om_comm_error(comm, MPI_ERR_COMM, func, "an intercommunicator: this call needs "
                                                   "an intracommunicator");
}

/* Error handlers are counted references */
void om_errh_retain(MPI_Errhandler h);
void om_errh_release(MPI_Errhandler h);

/* An error handler's kind: 0 predefined, 1 the program's (communicator),
 * 2 the program's (window), 3 the program's (session), -1 not a handler */
int om_errh_kind(MPI_Errhandler h);
/* *slot becomes h (held; the old one released) when h is predefined or
 * of `kind`; else MPI_ERR_ARG and nothing changes.  The callers raise. */
int om_errh_set(MPI_Errhandler *slot, MPI_Errhandler h, int kind);

/* Windows */
static inline struct MPI_ABI_Win *om_win(MPI_Win win)
{
    if ((uintptr_t)win < 0x1000 || win->magic != OM_MAGIC_WIN)
        return NULL;
    return win;
}
int om_win_failed(MPI_Win win, ordo_status_t st, const char *func);
void om_rma_init(void);   /* the short way's limit, once ordo is up */

/* The first checks of a call on a communicator or a window: the library is
 * up (else MPI_ERR_OTHER, said on stderr), and the handle is one (else the
 * class raised naming func); c or w is then the object. */
#define OM_COMM_ARG(c, comm, func)                                                \
    if (!om_ready(func))                                                          \
        return MPI_ERR_OTHER;                                                     \
    struct MPI_ABI_Comm *c = om_comm(comm);                                       \
    if (!c)                                                                       \
        return om_comm_error(comm, MPI_ERR_COMM, func, "not a communicator");
#define OM_WIN_ARG(w, win, func)                                                  \
    if (!om_ready(func))                                                          \
        return MPI_ERR_OTHER;                                                     \
    struct MPI_ABI_Win *w = om_win(win);                                          \
    if (!w)                                                                       \
        return om_comm_error(MPI_COMM_SELF, MPI_ERR_WIN, func, "not a window");

/* Info: a copy (MPI_INFO_NULL for MPI_INFO_NULL), and its end */
int om_info_dup_of(MPI_Info info, MPI_Info *out);
void om_info_release(MPI_Info info);

#pragma GCC visibility pop

#endif
