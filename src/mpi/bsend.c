/* MPI on ordo: buffered sends (MPI_Bsend and friends) and the buffers they
 * go through: the process's (MPI_Buffer_attach) and, from MPI-4.1, a
 * communicator's or a session's own, with their flushes. */
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"

/* MPI_Bsend copies the message and returns: the copy is accounted against
 * the attached buffer's size (with MPI_BSEND_OVERHEAD per message) and
 * sent from memory of ours; finished copies are reclaimed as sends go.
 * A buffer is the process's (MPI_Buffer_attach) or, from MPI-4.1, a
 * communicator's own, which its sends use first, or its session's, which
 * they use next; MPI_BUFFER_AUTOMATIC attached means no limit. */
typedef struct bsend {
    struct MPI_ABI_Request *req;
    size_t                  charge;
    uint64_t                seq;       /* in the pool's order, for the flushes */
    struct bsend           *next;
} bsend_t;

struct om_bpool {
    void    *addr;
    size_t   size, used;
    int      attached, automatic;
    uint64_t seq;                      /* messages buffered so far */
    bsend_t *pending;
};

static struct om_bpool proc_pool;

static void bsend_reclaim(struct om_bpool *p, int wait)
{
    for (bsend_t **l = &p->pending; *l;) {
        bsend_t *b = *l;
        if (om_req_complete(b->req, wait, NULL) == 0) {
            l = &b->next;
            continue;
        }
        om_req_free(b->req);
        p->used -= b->charge;
        *l = b->next;
        free(b);
    }
}

/* The pool a buffered send on c uses: c's own if it has one attached,
 * else its session's, else the process's. */
static struct om_bpool *pool_of(struct MPI_ABI_Comm *c)
{
    if (c && c->bpool && c->bpool->attached)
        return c->bpool;
    struct om_bpool **s = c && c->session ? om_session_bpool(c->session) : NULL;
    return s && *s && (*s)->attached ? *s : &proc_pool;
}

/* The pool calls raise their errors on the object whose buffer it is (on,
 * obj): a communicator, a session, or MPI_COMM_SELF for the process's. */
static int pool_attach(struct om_bpool *p, void *buffer, MPI_Count size, om_on_t on,
                       void *obj, const char *func)
{
    if (p->attached)
        return om_raise(on, obj, MPI_ERR_BUFFER, func, "a buffer is already attached");
    int automatic = buffer == MPI_BUFFER_AUTOMATIC;
    if (!automatic && (size < 0 || (size > 0 && !buffer)))
        return om_raise(on, obj, MPI_ERR_BUFFER, func, "size %lld at %p", (long long)size,
                        buffer);
    p->addr = buffer;
    p->size = automatic ? 0 : (size_t)size;
    p->automatic = automatic;
    p->attached = 1;
    return MPI_SUCCESS;
}

/* p NULL: the object never had a buffer of its own. */
static int pool_detach(struct om_bpool *p, void *buffer_addr, MPI_Count *size, om_on_t on,
                       void *obj, const char *func)
{
    if (!buffer_addr || !size)
        return om_raise(on, obj, MPI_ERR_ARG, func, "a NULL argument");
    if (!p || (!p->attached && p != &proc_pool))
        return om_raise(on, obj, MPI_ERR_BUFFER, func, "no buffer is attached");
    bsend_reclaim(p, 1);   /* MPI: detach waits for the buffered messages */
    memcpy(buffer_addr, &p->addr, sizeof(void *));
    *size = (MPI_Count)p->size;
    p->addr = NULL;
    p->size = 0;
    p->attached = p->automatic = 0;
    return MPI_SUCCESS;
}

/* A flush request: complete once the messages buffered before it are. */
static int flush_poll(struct MPI_ABI_Request *r, int wait)
{
    struct om_bpool *p = r->poll_arg;
    for (;;) {
        bsend_reclaim(p, 0);
        int left = 0;
        for (bsend_t *b = p->pending; b && !left; b = b->next)
            left = b->seq <= r->poll_seq;
        if (!left)
            return 1;
        if (!wait)
            return 0;
        ordo_progress();
    }
}

static int pool_iflush(struct om_bpool *p, MPI_Request *request, om_on_t on, void *obj,
                       const char *func)
{
    if (!request)
        return om_raise(on, obj, MPI_ERR_ARG, func, "request is NULL");
    struct MPI_ABI_Request *r =
        om_req_new(OM_REQ_DONE, on == OM_ON_COMM ? (MPI_Comm)obj : MPI_COMM_SELF);
    if (!r)
        return om_raise(on, obj, MPI_ERR_NO_MEM, func, "no memory for a request");
    r->poll = flush_poll;
    r->poll_arg = p;
    r->poll_seq = p->seq;
    *request = r;
    return MPI_SUCCESS;
}

void om_bpool_release(struct om_bpool **slot)
{
    if (!*slot)
        return;
    bsend_reclaim(*slot, 1);   /* its messages go before it does */
    free(*slot);
    *slot = NULL;
}

void om_comm_bpool_release(struct MPI_ABI_Comm *c)
{
    om_bpool_release(&c->bpool);
}

int PMPI_Buffer_attach_c(void *buffer, MPI_Count size)
{
    return pool_attach(&proc_pool, buffer, size, OM_ON_COMM, MPI_COMM_SELF,
                       "MPI_Buffer_attach");
}
OM_ALIAS(Buffer_attach_c)

int PMPI_Buffer_attach(void *buffer, int size)
{
    return PMPI_Buffer_attach_c(buffer, size);
}
OM_ALIAS(Buffer_attach)

int PMPI_Buffer_detach_c(void *buffer_addr, MPI_Count *size)
{
    return pool_detach(&proc_pool, buffer_addr, size, OM_ON_COMM, MPI_COMM_SELF,
                       "MPI_Buffer_detach");
}
OM_ALIAS(Buffer_detach_c)

/* The int forms of the detach calls: the size the large form gave (read
 * through n once that call returned). */
static int int_size(int rc, const MPI_Count *n, int *size)
{
    if (rc == MPI_SUCCESS && size)
        *size = (int)*n;
    return rc;
}

int PMPI_Buffer_detach(void *buffer_addr, int *size)
{
    MPI_Count n = 0;
    return int_size(PMPI_Buffer_detach_c(buffer_addr, &n), &n, size);
}
OM_ALIAS(Buffer_detach)

int PMPI_Buffer_flush(void)
{
    bsend_reclaim(&proc_pool, 1);
    return MPI_SUCCESS;
}
OM_ALIAS(Buffer_flush)

int PMPI_Buffer_iflush(MPI_Request *request)
{
    return pool_iflush(&proc_pool, request, OM_ON_COMM, MPI_COMM_SELF, "MPI_Buffer_iflush");
}
OM_ALIAS(Buffer_iflush)

int PMPI_Comm_attach_buffer_c(MPI_Comm comm, void *buffer, MPI_Count size)
{
    OM_COMM_ARG(c, comm, "MPI_Comm_attach_buffer");
    if (!c->bpool && !(c->bpool = calloc(1, sizeof(*c->bpool))))
        return om_comm_error(comm, MPI_ERR_NO_MEM, "MPI_Comm_attach_buffer", "no memory");
    return pool_attach(c->bpool, buffer, size, OM_ON_COMM, comm, "MPI_Comm_attach_buffer");
}
OM_ALIAS(Comm_attach_buffer_c)

int PMPI_Comm_attach_buffer(MPI_Comm comm, void *buffer, int size)
{
    return PMPI_Comm_attach_buffer_c(comm, buffer, size);
}
OM_ALIAS(Comm_attach_buffer)

int PMPI_Comm_detach_buffer_c(MPI_Comm comm, void *buffer_addr, MPI_Count *size)
{
    OM_COMM_ARG(c, comm, "MPI_Comm_detach_buffer");
    return pool_detach(c->bpool, buffer_addr, size, OM_ON_COMM, comm,
                       "MPI_Comm_detach_buffer");
}
OM_ALIAS(Comm_detach_buffer_c)

int PMPI_Comm_detach_buffer(MPI_Comm comm, void *buffer_addr, int *size)
{
    MPI_Count n = 0;
    return int_size(PMPI_Comm_detach_buffer_c(comm, buffer_addr, &n), &n, size);
}
OM_ALIAS(Comm_detach_buffer)

int PMPI_Comm_flush_buffer(MPI_Comm comm)
{
    OM_COMM_ARG(c, comm, "MPI_Comm_flush_buffer");
    bsend_reclaim(pool_of(c), 1);
    return MPI_SUCCESS;
}
OM_ALIAS(Comm_flush_buffer)

int PMPI_Comm_iflush_buffer(MPI_Comm comm, MPI_Request *request)
{
    OM_COMM_ARG(c, comm, "MPI_Comm_iflush_buffer");
    return pool_iflush(pool_of(c), request, OM_ON_COMM, comm, "MPI_Comm_iflush_buffer");
}
OM_ALIAS(Comm_iflush_buffer)

int om_bsend_room(struct MPI_ABI_Comm *c, MPI_Comm comm, size_t bytes, const char *func)
{
    struct om_bpool *p = pool_of(c);
    bsend_reclaim(p, 0);
    size_t charge = bytes + MPI_BSEND_OVERHEAD;
    if (!p->automatic && p->used + charge > p->size)
        return om_comm_error(comm, MPI_ERR_BUFFER, func,
                             "%zu bytes do not fit in the attached buffer (%zu of %zu bytes in "
                             "use)", bytes, p->used, p->size);
    return MPI_SUCCESS;
}

int om_bsend_keep(struct MPI_ABI_Comm *c, MPI_Comm comm, struct MPI_ABI_Request *r,
                  size_t bytes, struct MPI_ABI_Request **r_p, const char *func)
{
    bsend_t *b = malloc(sizeof(*b));
    if (!b) {
        om_req_complete(r, 1, NULL);
        om_req_free(r);
        return om_comm_error(comm, MPI_ERR_NO_MEM, func, "no memory");
    }
    struct om_bpool *p = pool_of(c);
    b->req = r;
    b->charge = bytes + MPI_BSEND_OVERHEAD;
    b->seq = ++p->seq;
    b->next = p->pending;
    p->pending = b;
    p->used += b->charge;
    struct MPI_ABI_Request *done = om_req_new(OM_REQ_SEND, comm);
    if (!done)
        return om_comm_error(comm, MPI_ERR_NO_MEM, func, "no memory for a request");
    om_status_set(&done->done_status, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_SUCCESS, 0, 0);
    done->completed = 1;
    *r_p = done;
    return MPI_SUCCESS;
}

/* ------------------------------------------------- a session's buffer */

#define SESSION_SLOT(slot, session, func)                                         \
    if (!om_ready(func))                                                          \
        return MPI_ERR_OTHER;                                                     \
    struct om_bpool **slot = om_session_bpool(session);                           \
    if (!slot)                                                                    \
        return om_raise(OM_ON_SESSION, (void *)(session), MPI_ERR_SESSION, func,   \
                        "not a session");

/* A session's errors go to its handler. */
int PMPI_Session_attach_buffer_c(MPI_Session session, void *buffer, MPI_Count size)
{
    SESSION_SLOT(slot, session, "MPI_Session_attach_buffer");
    if (!*slot && !(*slot = calloc(1, sizeof(**slot))))
        return om_raise(OM_ON_SESSION, (void *)session, MPI_ERR_NO_MEM,
                        "MPI_Session_attach_buffer", "no memory");
    return pool_attach(*slot, buffer, size, OM_ON_SESSION, (void *)session,
                       "MPI_Session_attach_buffer");
}
OM_ALIAS(Session_attach_buffer_c)

int PMPI_Session_attach_buffer(MPI_Session session, void *buffer, int size)
{
    return PMPI_Session_attach_buffer_c(session, buffer, size);
}
OM_ALIAS(Session_attach_buffer)

int PMPI_Session_detach_buffer_c(MPI_Session session, void *buffer_addr, MPI_Count *size)
{
    SESSION_SLOT(slot, session, "MPI_Session_detach_buffer");
    return pool_detach(*slot, buffer_addr, size, OM_ON_SESSION, (void *)session,
                       "MPI_Session_detach_buffer");
}
OM_ALIAS(Session_detach_buffer_c)

int PMPI_Session_detach_buffer(MPI_Session session, void *buffer_addr, int *size)
{
    MPI_Count n = 0;
    return int_size(PMPI_Session_detach_buffer_c(session, buffer_addr, &n), &n, size);
}
OM_ALIAS(Session_detach_buffer)

int PMPI_Session_flush_buffer(MPI_Session session)
{
    SESSION_SLOT(slot, session, "MPI_Session_flush_buffer");
    if (*slot)
        bsend_reclaim(*slot, 1);
    return MPI_SUCCESS;
}
OM_ALIAS(Session_flush_buffer)

int PMPI_Session_iflush_buffer(MPI_Session session, MPI_Request *request)
{
    SESSION_SLOT(slot, session, "MPI_Session_iflush_buffer");
    if (!*slot && !(*slot = calloc(1, sizeof(**slot))))
        return om_raise(OM_ON_SESSION, (void *)session, MPI_ERR_NO_MEM,
                        "MPI_Session_iflush_buffer", "no memory");
    return pool_iflush(*slot, request, OM_ON_SESSION, (void *)session,
                       "MPI_Session_iflush_buffer");
}
OM_ALIAS(Session_iflush_buffer)
