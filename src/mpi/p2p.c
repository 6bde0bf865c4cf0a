/* MPI on ordo: point-to-point.  Ranks are translated to world ranks, tags
 * and wildcards to ordo's; contiguous data goes as it lies, other data is
 * packed into a buffer of ours (and received into one, unpacked at
 * completion). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"

static pthread_mutex_t post_mutex = PTHREAD_MUTEX_INITIALIZER;

void om_post_lock(void)
{
    if (om_g.thread_level == MPI_THREAD_MULTIPLE)
        pthread_mutex_lock(&post_mutex);
}

void om_post_unlock(void)
{
    if (om_g.thread_level == MPI_THREAD_MULTIPLE)
        pthread_mutex_unlock(&post_mutex);
}

/* How many ranks c's sends and receives name: world's without a lookup */
static inline int peer_count(const struct MPI_ABI_Comm *c)
{
    return c == &om_comm_world ? om_g.world_size : om_peer_group(c)->size;
}

static int check_peer(struct MPI_ABI_Comm *c, int peer, int recv)
{
    if (peer == MPI_PROC_NULL || (recv && peer == MPI_ANY_SOURCE))
        return MPI_SUCCESS;
    return peer >= 0 && peer < peer_count(c) ? MPI_SUCCESS : MPI_ERR_RANK;
}

static int check_tag(int tag, int recv)
{
    if (recv && tag == MPI_ANY_TAG)
        return MPI_SUCCESS;
    return tag >= 0 && tag <= ORDO_TAG_MAX ? MPI_SUCCESS : MPI_ERR_TAG;
}

/* The arguments every send and receive checks: (buf, count, type), the
 * peer and the tag.  MPI_SUCCESS with the type and its bytes, or the
 * class raised on comm naming func. */
static int message_args(struct MPI_ABI_Comm *c, MPI_Comm comm, const void *buf, MPI_Count count,
                        MPI_Datatype type, int peer, int tag, int recv,
                        struct MPI_ABI_Datatype **t_p, size_t *bytes_p, const char *func)
{
    (void)buf;   /* MPI_BOTTOM (NULL) with absolute displacements is valid */
    struct MPI_ABI_Datatype *t = om_type(type);
    int rc = !t || !t->committed                     ? MPI_ERR_TYPE
             : om_type_bytes(t, count, bytes_p) != 0 ? MPI_ERR_COUNT
                                                     : check_peer(c, peer, recv);
    if (rc == MPI_SUCCESS)
        rc = check_tag(tag, recv);
    if (rc != MPI_SUCCESS)
        return om_comm_error(comm, rc, func, "count %lld, %s %d (of %d), tag %d",
                             (long long)count, recv ? "source" : "dest", peer,
                             om_peer_group(c)->size,
                             tag);
    *t_p = t;
    return MPI_SUCCESS;
}

static int ordo_source(struct MPI_ABI_Comm *c, int source)
{
    /* world's ranks are ordo's (and a duplicate's): no lookup on the
     * message-rate path */
    return source == MPI_ANY_SOURCE        ? ORDO_ANY_SOURCE
           : c->identity && !c->remote ? source
                                       : om_world_rank(c, source);
}

static int ordo_tag(int tag)
{
    return tag == MPI_ANY_TAG ? ORDO_ANY_TAG : tag;
}

/* ----------------------------------------------------------------- sends */

/* The short way of MPI_Send, MPI_Recv, MPI_Isend and MPI_Irecv, for the
 * message rate and latency: a dozen compares, then ordo.  Anything else,
 * errors included, takes the general way, which names what is wrong.
 *
 * The type: a contiguous predefined one, whose size times an int count
 * cannot overflow; below MPI_THREAD_MULTIPLE only (receives are posted
 * under a lock there), with the library up.  NULL: the general way. */
static inline const struct MPI_ABI_Datatype *plain_type(MPI_Datatype type, int count)
{
    uintptr_t v = (uintptr_t)type - 0x200;
    if (v == 0 || v >= OM_TYPE_SLOTS || count < 0 || !om_up() ||
        om_g.thread_level == MPI_THREAD_MULTIPLE)
        return NULL;
    const struct MPI_ABI_Datatype *t = &om_predef_types[v];
    return t->magic == OM_MAGIC_TYPE && t->committed && t->contiguous ? t : NULL;
}

/* The communicator: world, or one whose ranks are world's (a duplicate, a
 * split that keeps world's order); for an immediate call (slot_p) only
 * once it has its direct slot, which its first one takes the general way.
 * NULL: the general way. */
static inline struct MPI_ABI_Comm *plain_comm(MPI_Comm comm, int *slot_p)
{
    if (comm == MPI_COMM_WORLD) {
        if (slot_p)
            *slot_p = 0;
        return om_comm_world.magic == OM_MAGIC_COMM ? &om_comm_world : NULL;
    }
    if ((uintptr_t)comm < 0x1000 || comm->magic != OM_MAGIC_COMM || !comm->identity ||
        comm->remote)
        return NULL;
    if (slot_p &&
        (*slot_p = atomic_load_explicit(&comm->direct_slot, memory_order_relaxed)) <= 0)
        return NULL;
    return comm;
}

/* The peer and tag: a rank of c (or MPI_ANY_SOURCE for a receive; not
 * MPI_PROC_NULL, which the general way completes at once) and a tag
 * check_tag takes. */
static inline int plain_peer_tag(const struct MPI_ABI_Comm *c, int peer, int tag, int recv)
{
    return ((recv && peer == MPI_ANY_SOURCE) || (unsigned)peer < (unsigned)peer_count(c)) &&
           check_tag(tag, recv) == MPI_SUCCESS;
}

int om_isend(struct MPI_ABI_Comm *c, MPI_Comm comm, const void *buf, MPI_Count count,
             MPI_Datatype type, int dest, int tag, int mode, struct MPI_ABI_Request **r_p,
             const char *func)
{
    struct MPI_ABI_Datatype *t;
    size_t bytes;
    int rc = message_args(c, comm, buf, count, type, dest, tag, 0, &t, &bytes, func);
    if (rc != MPI_SUCCESS)
        return rc;
    struct MPI_ABI_Request *r = om_req_new(OM_REQ_SEND, comm);
    if (!r)
        return om_comm_error(comm, MPI_ERR_NO_MEM, func, "no memory for a request");
    *r_p = r;
    if (dest == MPI_PROC_NULL) {
        om_status_set(&r->done_status, MPI_PROC_NULL, MPI_ANY_TAG, MPI_SUCCESS, 0, 0);
        r->completed = 1;
        return MPI_SUCCESS;
    }
    const void *data = buf;
    if (!t->contiguous || mode == OM_SEND_BUFFERED) {
        if (mode == OM_SEND_BUFFERED && (rc = om_bsend_room(c, comm, bytes, func))) {
            om_req_free(r);
            return rc;
        }
        r->pack = malloc(bytes ? bytes : 1);
        if (!r->pack) {
            om_req_free(r);
            return om_comm_error(comm, MPI_ERR_NO_MEM, func, "no memory to pack %zu bytes",
                                 bytes);
        }
        om_pack(t, buf, count, r->pack);
        data = r->pack;
    } else {
        data = (const char *)buf + t->lb;
    }
    int world = om_world_rank(c, dest);
    ordo_status_t st = mode == OM_SEND_SYNC
                           ? ordo_send_sync_nb(c->oc, data, bytes, world, tag, &r->or_)
                           : ordo_send_nb(c->oc, data, bytes, world, tag, &r->or_);
    if (st != ORDO_OK && st != ORDO_INPROGRESS) {
        om_req_free(r);
        return om_comm_failed(comm, st, func);
    }
    if (mode == OM_SEND_BUFFERED)   /* the program's request completes now: the data is ours */
        return om_bsend_keep(c, comm, r, bytes, r_p, func);
    return MPI_SUCCESS;
}

/* The case the standard sends hand to ordo straight, blocking or not:
 * a committed contiguous type (whose data starts at buf: its lower bound
 * is 0), a rank of the peer group, a tag of ordo's range; *bytes_p its
 * length.  0: the general path checks, and names what is wrong. */
static inline int plain_send(struct MPI_ABI_Comm *c, MPI_Count count, MPI_Datatype type,
                             int dest, int tag, size_t *bytes_p)
{
    struct MPI_ABI_Datatype *t = om_type(type);
    return t && t->committed && t->contiguous && dest >= 0 && dest < peer_count(c) &&
           check_tag(tag, 0) == MPI_SUCCESS && om_type_bytes(t, count, bytes_p) == 0;
}

/* The case the receives hand to ordo straight: a committed contiguous
 * type (its data from buf + its lower bound, *t_p), a rank of the peer
 * group or MPI_ANY_SOURCE, a tag of ordo's range or MPI_ANY_TAG; *bytes_p
 * its capacity.  0: the general path checks, and names what is wrong. */
static inline int plain_recv(struct MPI_ABI_Comm *c, MPI_Count count, MPI_Datatype type,
                             int source, int tag, struct MPI_ABI_Datatype **t_p,
                             size_t *bytes_p)
{
    struct MPI_ABI_Datatype *t = om_type(type);
    *t_p = t;
    return t && t->contiguous && t->committed && source != MPI_PROC_NULL &&
           check_peer(c, source, 1) == MPI_SUCCESS && check_tag(tag, 1) == MPI_SUCCESS &&
           om_type_bytes(t, count, bytes_p) == 0;
}

/* A blocking send: the fast path sends contiguous data straight. */
static int send_mode(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag,
                     MPI_Comm comm, int mode, const char *func)
{
    OM_COMM_ARG(c, comm, func);
    size_t bytes;
    if (mode == OM_SEND_STD && plain_send(c, count, type, dest, tag, &bytes)) {
        ordo_status_t st = ordo_send(c->oc, buf, bytes, om_world_rank(c, dest), tag);
        return st == ORDO_OK ? MPI_SUCCESS : om_comm_failed(comm, st, func);
    }
    struct MPI_ABI_Request *r;
    int rc = om_isend(c, comm, buf, count, type, dest, tag, mode, &r, func);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = om_req_complete(r, 1, NULL);
    om_req_free(r);
    return rc < 0 ? om_comm_error(comm, -rc, func, "the send failed") : MPI_SUCCESS;
}

#define SEND(NAME, CT, MODE)                                                               \
    int PMPI_##NAME(const void *buf, CT count, MPI_Datatype datatype, int dest, int tag,   \
                    MPI_Comm comm)                                                         \
    {                                                                                      \
        return send_mode(buf, count, datatype, dest, tag, comm, MODE, "MPI_" #NAME);       \
    }                                                                                      \
    OM_ALIAS(NAME)

/* Every other MPI_Send, apart so that the common one keeps a small frame */
static __attribute__((noinline)) int send_other(const void *buf, int count,
                                                MPI_Datatype datatype, int dest, int tag,
                                                MPI_Comm comm)
{
    return send_mode(buf, count, datatype, dest, tag, comm, OM_SEND_STD, "MPI_Send");
}

int PMPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
              MPI_Comm comm)
{
    const struct MPI_ABI_Datatype *t = plain_type(datatype, count);
    struct MPI_ABI_Comm *c;
    if (t && (c = plain_comm(comm, NULL)) && plain_peer_tag(c, dest, tag, 0)) {
        ordo_status_t st =
            ordo_send(c->oc, (const char *)buf + t->lb, (size_t)count * t->size, dest, tag);
        return st == ORDO_OK ? MPI_SUCCESS : om_comm_failed(comm, st, "MPI_Send");
    }
    return send_other(buf, count, datatype, dest, tag, comm);
}
OM_ALIAS(Send)

SEND(Send_c, MPI_Count, OM_SEND_STD)
SEND(Ssend, int, OM_SEND_SYNC)
SEND(Ssend_c, MPI_Count, OM_SEND_SYNC)
/* Ready mode: the receive is posted (the program says so); a standard
 * send is a correct way to honour it. */
SEND(Rsend, int, OM_SEND_STD)
SEND(Rsend_c, MPI_Count, OM_SEND_STD)
SEND(Bsend, int, OM_SEND_BUFFERED)
SEND(Bsend_c, MPI_Count, OM_SEND_BUFFERED)

/* ordo's request o, of a communicator with a direct slot, as the
 * program's handle: direct, or in a record of ours where o cannot carry
 * the slot (never: ordo's requests are aligned). */
static int hand_out(ordo_request_h o, int slot, enum om_req_kind kind, MPI_Comm comm,
                    MPI_Request *request, const char *func)
{
    MPI_Request h = om_direct_handle(o, slot);
    if (__builtin_expect(h != NULL, 1)) {
        *request = h;
        return MPI_SUCCESS;
    }
    struct MPI_ABI_Request *r = om_req_new(kind, comm);
    if (!r) {
        if (kind == OM_REQ_RECV)
            ordo_request_cancel(o);   /* an unmatched receive ends at once */
        ordo_request_wait(&o, NULL);
        return om_comm_error(comm, MPI_ERR_NO_MEM, func, "no memory for a request");
    }
    r->or_ = o;
    *request = r;
    return MPI_SUCCESS;
}

/* An immediate standard send of contiguous data.  On world, or where the
 * ranks are world's, ordo's request is the program's (direct.c);
 * elsewhere the record is taken first (so
 * that no send goes out without one to report it) and made a request only
 * when the send does not complete at once.  A short one does: it then
 * gets the shared completed request.  0: not this case, the general path
 * takes it. */
static inline __attribute__((always_inline)) int
isend_fast(struct MPI_ABI_Comm *c, MPI_Comm comm, const void *buf, MPI_Count count,
           MPI_Datatype type, int dest, int tag, MPI_Request *request, const char *func, int *rc)
{
    size_t bytes;
    if (!plain_send(c, count, type, dest, tag, &bytes))
        return 0;
    ordo_request_h orq = NULL;
    int slot = om_direct_slot(c);
    if (slot >= 0) {
        /* ordo's request is the program's (direct.c): nothing of ours;
         * the communicator's ranks are world's */
        ordo_status_t st = ordo_send_nb(c->oc, buf, bytes, dest, tag, &orq);
        if (st != ORDO_OK && st != ORDO_INPROGRESS) {
            *rc = om_comm_failed(comm, st, func);
            return 1;
        }
        if (orq == NULL) {   /* gone at once */
            *request = &om_send_done;
            *rc = MPI_SUCCESS;
        } else {
            *rc = hand_out(orq, slot, OM_REQ_SEND, comm, request, func);
        }
        return 1;
    }
    struct MPI_ABI_Request *r = om_req_take();
    if (!r)
        return 0;   /* the general path says it */
    ordo_status_t st = ordo_send_nb(c->oc, buf, bytes, om_world_rank(c, dest), tag, &orq);
    if (st == ORDO_INPROGRESS) {
        om_req_init(r, OM_REQ_SEND, comm)->or_ = orq;
        *request = r;
        *rc = MPI_SUCCESS;
        return 1;
    }
    om_req_put(r);
    if (st == ORDO_OK)
        *request = &om_send_done;
    *rc = st == ORDO_OK ? MPI_SUCCESS : om_comm_failed(comm, st, func);
    return 1;
}

/* inlined into each caller, as irecv_any */
static inline __attribute__((always_inline)) int
isend_mode(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
           int mode, MPI_Request *request, const char *func)
{
    OM_COMM_ARG(c, comm, func);
    if (!request)
        return om_comm_error(comm, MPI_ERR_ARG, func, "request is NULL");
    int frc;
    if (mode == OM_SEND_STD && isend_fast(c, comm, buf, count, type, dest, tag, request, func,
                                          &frc))
        return frc;
    struct MPI_ABI_Request *r;
    int rc = om_isend(c, comm, buf, count, type, dest, tag, mode, &r, func);
    if (rc != MPI_SUCCESS)
        return rc;
    /* gone at once, nothing of ours to free at completion (not a send to
     * MPI_PROC_NULL or a buffered one, complete with statuses of their
     * own): the program gets the shared completed request */
    if (!r->or_ && !r->pack && !r->completed) {
        om_req_free(r);
        r = &om_send_done;
    }
    *request = r;
    return MPI_SUCCESS;
}

#define ISEND(NAME, CT, MODE)                                                              \
    int PMPI_##NAME(const void *buf, CT count, MPI_Datatype datatype, int dest, int tag,   \
                    MPI_Comm comm, MPI_Request *request)                                   \
    {                                                                                      \
        return isend_mode(buf, count, datatype, dest, tag, comm, MODE, request,            \
                          "MPI_" #NAME);                                                   \
    }                                                                                      \
    OM_ALIAS(NAME)

/* After ordo was asked for an immediate send or receive of ours that is
 * not done at once: its failure raised, else o handed out (hand_out).
 * Apart, so that the short ways keep a small frame. */
static __attribute__((noinline)) int hand_out_or_fail(ordo_status_t st, ordo_request_h o,
                                                       int slot, enum om_req_kind kind,
                                                       MPI_Comm comm, MPI_Request *request,
                                                       const char *func)
{
    if (st != ORDO_OK && st != ORDO_INPROGRESS)
        return om_comm_failed(comm, st, func);
    if (o == NULL)   /* (never: a posted receive always has a request) */
        return om_comm_error(comm, MPI_ERR_INTERN, func, "no request for the receive");
    return hand_out(o, slot, kind, comm, request, func);
}

/* MPI_Isend's short way (plain_type): 1 sent, *rc its outcome; 0:
 * isend_mode takes it.  ordo's request is the handle (direct.c). */
static inline __attribute__((always_inline)) int
isend_plain(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
            MPI_Request *request, int *rc)
{
    const struct MPI_ABI_Datatype *t = plain_type(type, count);
    struct MPI_ABI_Comm *c;
    int slot;
    if (!t || !request || !(c = plain_comm(comm, &slot)) || !plain_peer_tag(c, dest, tag, 0))
        return 0;
    ordo_request_h o = NULL;
    ordo_status_t st =
        ordo_send_nb(c->oc, (const char *)buf + t->lb, (size_t)count * t->size, dest, tag, &o);
    MPI_Request h = o ? om_direct_handle(o, slot) : &om_send_done;   /* NULL: gone at once */
    if (__builtin_expect((st == ORDO_OK || st == ORDO_INPROGRESS) && h, 1)) {
        *request = h;
        *rc = MPI_SUCCESS;
    } else {
        *rc = hand_out_or_fail(st, o, slot, OM_REQ_SEND, comm, request, "MPI_Isend");
    }
    return 1;
}

/* Every other MPI_Isend, apart so that the common one keeps a small frame */
static __attribute__((noinline)) int isend_other(const void *buf, int count,
                                                 MPI_Datatype datatype, int dest, int tag,
                                                 MPI_Comm comm, MPI_Request *request)
{
    return isend_mode(buf, count, datatype, dest, tag, comm, OM_SEND_STD, request, "MPI_Isend");
}

int PMPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm, MPI_Request *request)
{
    int rc;
    if (isend_plain(buf, count, datatype, dest, tag, comm, request, &rc))
        return rc;
    return isend_other(buf, count, datatype, dest, tag, comm, request);
}
OM_ALIAS(Isend)

ISEND(Isend_c, MPI_Count, OM_SEND_STD)
ISEND(Issend, int, OM_SEND_SYNC)
ISEND(Issend_c, MPI_Count, OM_SEND_SYNC)
ISEND(Irsend, int, OM_SEND_STD)
ISEND(Irsend_c, MPI_Count, OM_SEND_STD)
ISEND(Ibsend, int, OM_SEND_BUFFERED)
ISEND(Ibsend_c, MPI_Count, OM_SEND_BUFFERED)

/* -------------------------------------------------------------- receives */

int om_irecv(struct MPI_ABI_Comm *c, MPI_Comm comm, void *buf, MPI_Count count,
             MPI_Datatype type, int source, int tag, struct MPI_ABI_Request **r_p,
             const char *func)
{
    struct MPI_ABI_Datatype *t;
    size_t bytes;
    int rc = message_args(c, comm, buf, count, type, source, tag, 1, &t, &bytes, func);
    if (rc != MPI_SUCCESS)
        return rc;
    struct MPI_ABI_Request *r = om_req_new(OM_REQ_RECV, comm);
    if (!r)
        return om_comm_error(comm, MPI_ERR_NO_MEM, func, "no memory for a request");
    *r_p = r;
    if (source == MPI_PROC_NULL) {
        om_status_set(&r->done_status, MPI_PROC_NULL, MPI_ANY_TAG, MPI_SUCCESS, 0, 0);
        r->proc_null = r->completed = 1;
        return MPI_SUCCESS;
    }
    void *into = (char *)buf + t->lb;
    if (!t->contiguous) {
        r->pack = malloc(bytes ? bytes : 1);
        if (!r->pack) {
            om_req_free(r);
            return om_comm_error(comm, MPI_ERR_NO_MEM, func, "no memory for %zu bytes",
                                 bytes);
        }
        r->ubuf = buf;
        r->ucount = count;
        r->utype = t;
        om_type_retain(t);
        into = r->pack;
    }
    om_post_lock();
    ordo_status_t st = ordo_recv_nb(c->oc, into, bytes, ordo_source(c, source), ordo_tag(tag),
                                    &r->or_);
    om_post_unlock();
    if (st != ORDO_OK && st != ORDO_INPROGRESS) {
        om_req_free(r);
        return om_comm_failed(comm, st, func);
    }
    return MPI_SUCCESS;
}

/* A blocking receive of contiguous data: ordo's own blocking receive, which
 * takes a short message straight from the sender's queue (the latency
 * path), no request.  Not at MPI_THREAD_MULTIPLE, where receives are
 * posted under the lock that keeps matched probes safe and a blocking
 * receive cannot hold it while it waits. */
static int recv_direct(struct MPI_ABI_Comm *c, MPI_Comm comm, void *buf, size_t bytes,
                       int source, int tag, MPI_Status *status, const char *func)
{
    ordo_completion_t ci;
    memset(&ci, 0, sizeof(ci));
    ordo_status_t st = ordo_recv(c->oc, buf, bytes, ordo_source(c, source), ordo_tag(tag), &ci);
    if (st != ORDO_OK && st != ORDO_ERR_TRUNCATED)
        return om_comm_failed(comm, st, func);
    if (status != MPI_STATUS_IGNORE) {
        int src = c != &om_comm_world ? om_comm_rank_of_world(c, ci.source) : ci.source;
        om_status_set(status, src, ci.tag, om_class_of(st), ci.length, 0);
    }
    if (st == ORDO_ERR_TRUNCATED)
        return om_comm_error(comm, MPI_ERR_TRUNCATE, func,
                             "the message was longer than the receive buffer");
    return MPI_SUCCESS;
}

static int recv_any(void *buf, MPI_Count count, MPI_Datatype type, int source, int tag,
                    MPI_Comm comm, MPI_Status *status, const char *func)
{
    OM_COMM_ARG(c, comm, func);
    struct MPI_ABI_Datatype *t;
    size_t bytes;
    if (om_g.thread_level != MPI_THREAD_MULTIPLE &&
        plain_recv(c, count, type, source, tag, &t, &bytes))
        return recv_direct(c, comm, (char *)buf + t->lb, bytes, source, tag, status, func);
    struct MPI_ABI_Request *r;
    int rc = om_irecv(c, comm, buf, count, type, source, tag, &r, func);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = om_req_complete(r, 1, status);
    om_req_free(r);
    if (rc < 0)
        return om_comm_error(comm, -rc, func, "%s",
                             -rc == MPI_ERR_TRUNCATE ? "the message was longer than the "
                                                       "receive buffer"
                                                     : "the receive failed");
    return MPI_SUCCESS;
}

/* Every other MPI_Recv, apart so that the common one keeps a small frame */
static __attribute__((noinline)) int recv_other(void *buf, int count, MPI_Datatype datatype,
                                                int source, int tag, MPI_Comm comm,
                                                MPI_Status *status)
{
    return recv_any(buf, count, datatype, source, tag, comm, status, "MPI_Recv");
}

int PMPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
              MPI_Status *status)
{
    const struct MPI_ABI_Datatype *t = plain_type(datatype, count);
    struct MPI_ABI_Comm *c;
    if (t && (c = plain_comm(comm, NULL)) && plain_peer_tag(c, source, tag, 1))
        return recv_direct(c, comm, (char *)buf + t->lb, (size_t)count * t->size, source, tag,
                           status, "MPI_Recv");
    return recv_other(buf, count, datatype, source, tag, comm, status);
}
OM_ALIAS(Recv)

int PMPI_Recv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                MPI_Comm comm, MPI_Status *status)
{
    return recv_any(buf, count, datatype, source, tag, comm, status, "MPI_Recv_c");
}
OM_ALIAS(Recv_c)

/* inlined into each caller: a window of receives pays one call a receive */
static inline __attribute__((always_inline)) int
irecv_any(void *buf, MPI_Count count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
          MPI_Request *request, const char *func)
{
    OM_COMM_ARG(c, comm, func);
    if (!request)
        return om_comm_error(comm, MPI_ERR_ARG, func, "request is NULL");
    /* contiguous data on world, or where ranks are world's: ordo's request
     * is the program's (direct.c) */
    struct MPI_ABI_Datatype *t;
    size_t bytes;
    int slot = om_direct_slot(c);
    if (slot >= 0 && plain_recv(c, count, type, source, tag, &t, &bytes)) {
        ordo_request_h o = NULL;
        om_post_lock();
        ordo_status_t st = ordo_recv_nb(c->oc, (char *)buf + t->lb, bytes,
                                        ordo_source(c, source), ordo_tag(tag), &o);
        om_post_unlock();
        return hand_out_or_fail(st, o, slot, OM_REQ_RECV, comm, request, func);
    }
    struct MPI_ABI_Request *r;
    int rc = om_irecv(c, comm, buf, count, type, source, tag, &r, func);
    if (rc == MPI_SUCCESS)
        *request = r;
    return rc;
}

/* MPI_Irecv's short way (plain_type): a rank of the communicator or
 * MPI_ANY_SOURCE, a tag or MPI_ANY_TAG; ordo's request is the handle.  1:
 * posted, *rc its outcome; 0: irecv_any takes it. */
static inline __attribute__((always_inline)) int
irecv_plain(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
            MPI_Request *request, int *rc)
{
    const struct MPI_ABI_Datatype *t = plain_type(type, count);
    struct MPI_ABI_Comm *c;
    int slot;
    if (!t || !request || !(c = plain_comm(comm, &slot)) || !plain_peer_tag(c, source, tag, 1))
        return 0;
    ordo_request_h o = NULL;
    ordo_status_t st = ordo_recv_nb(c->oc, (char *)buf + t->lb, (size_t)count * t->size,
                                    source == MPI_ANY_SOURCE ? ORDO_ANY_SOURCE : source,
                                    tag == MPI_ANY_TAG ? ORDO_ANY_TAG : tag, &o);
    MPI_Request h = om_direct_handle(o, slot);
    if (__builtin_expect((st == ORDO_OK || st == ORDO_INPROGRESS) && o && h, 1)) {
        *request = h;
        *rc = MPI_SUCCESS;
    } else {
        *rc = hand_out_or_fail(st, o, slot, OM_REQ_RECV, comm, request, "MPI_Irecv");
    }
    return 1;
}

/* Every other MPI_Irecv, apart so that the common one keeps a small frame */
static __attribute__((noinline)) int irecv_other(void *buf, int count, MPI_Datatype datatype,
                                                 int source, int tag, MPI_Comm comm,
                                                 MPI_Request *request)
{
    return irecv_any(buf, count, datatype, source, tag, comm, request, "MPI_Irecv");
}

int PMPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
               MPI_Request *request)
{
    int rc;
    if (irecv_plain(buf, count, datatype, source, tag, comm, request, &rc))
        return rc;
    return irecv_other(buf, count, datatype, source, tag, comm, request);
}
OM_ALIAS(Irecv)

int PMPI_Irecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                 MPI_Comm comm, MPI_Request *request)
{
    return irecv_any(buf, count, datatype, source, tag, comm, request, "MPI_Irecv_c");
}
OM_ALIAS(Irecv_c)

/* ---------------------------------------------------------- persistent */

static int init_any(const void *buf, MPI_Count count, MPI_Datatype type, int peer, int tag,
                    MPI_Comm comm, int send, int mode, MPI_Request *request, const char *func)
{
    OM_COMM_ARG(c, comm, func);
    struct MPI_ABI_Datatype *t;
    size_t bytes;
    int rc = message_args(c, comm, buf, count, type, peer, tag, !send, &t, &bytes, func);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!request)
        return om_comm_error(comm, MPI_ERR_ARG, func, "request is NULL");
    struct MPI_ABI_Request *r = om_req_new(send ? OM_REQ_SEND : OM_REQ_RECV, comm);
    if (!r)
        return om_comm_error(comm, MPI_ERR_NO_MEM, func, "no memory for a request");
    r->persistent = 1;
    r->pbuf = buf;
    r->pcount = count;
    r->ptype = type;
    r->ppeer = peer;
    r->ptag = tag;
    r->pmode = mode;
    *request = r;
    return MPI_SUCCESS;
}

#define SEND_INIT(NAME, CT, MODE)                                                          \
    int PMPI_##NAME(const void *buf, CT count, MPI_Datatype datatype, int dest, int tag,   \
                    MPI_Comm comm, MPI_Request *request)                                   \
    {                                                                                      \
        return init_any(buf, count, datatype, dest, tag, comm, 1, MODE, request,           \
                        "MPI_" #NAME);                                                     \
    }                                                                                      \
    OM_ALIAS(NAME)

SEND_INIT(Send_init, int, OM_SEND_STD)
SEND_INIT(Send_init_c, MPI_Count, OM_SEND_STD)
SEND_INIT(Ssend_init, int, OM_SEND_SYNC)
SEND_INIT(Ssend_init_c, MPI_Count, OM_SEND_SYNC)
SEND_INIT(Rsend_init, int, OM_SEND_STD)
SEND_INIT(Rsend_init_c, MPI_Count, OM_SEND_STD)
SEND_INIT(Bsend_init, int, OM_SEND_BUFFERED)
SEND_INIT(Bsend_init_c, MPI_Count, OM_SEND_BUFFERED)

int PMPI_Recv_init(void *buf, int count, MPI_Datatype datatype, int source, int tag,
                   MPI_Comm comm, MPI_Request *request)
{
    return init_any(buf, count, datatype, source, tag, comm, 0, 0, request, "MPI_Recv_init");
}
OM_ALIAS(Recv_init)

int PMPI_Recv_init_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                     MPI_Comm comm, MPI_Request *request)
{
    return init_any(buf, count, datatype, source, tag, comm, 0, 0, request,
                    "MPI_Recv_init_c");
}
OM_ALIAS(Recv_init_c)
