/* MPI on ordo: direct requests (direct.c), a part of mpi_internal.h
 * (included from there, after the request records it builds on). */
#ifndef ORDO_MPI_DIRECT_H
#define ORDO_MPI_DIRECT_H

/* Direct requests (direct.c): a standard send or a receive of contiguous
 * data on MPI_COMM_WORLD, or on an intracommunicator whose ranks are
 * world's (rank i is world rank i: a duplicate of world, a split that
 * keeps its order), is handed to the program as ordo's own request with
 * the low bit set and the communicator's direct slot in the next three
 * (0: world).  ordo's requests are aligned to 16 bytes (one that is not
 * gets a record); predefined handles are small even numbers.  A slot is
 * a communicator's for good: once all are taken, later communicators'
 * requests get records. */
#define OM_DIRECT_BIT   ((uintptr_t)1)
#define OM_DIRECT_MASK  ((uintptr_t)15)
#define OM_DIRECT_SLOTS 8
extern struct MPI_ABI_Comm *_Atomic om_direct_comms[OM_DIRECT_SLOTS];
static inline int om_req_direct(MPI_Request h)
{
    return ((uintptr_t)h & OM_DIRECT_BIT) != 0;
}
static inline ordo_request_h om_direct_ordo(MPI_Request h)
{
    return (ordo_request_h)((uintptr_t)h & ~OM_DIRECT_MASK);
}
/* o as the direct handle of a communicator's slot, or NULL when o cannot
 * carry one (not aligned) */
static inline MPI_Request om_direct_handle(ordo_request_h o, int slot)
{
    if ((uintptr_t)o & OM_DIRECT_MASK)
        return NULL;
    return (MPI_Request)((uintptr_t)o | (uintptr_t)slot << 1 | OM_DIRECT_BIT);
}
/* The communicator a direct request was made on: world for slot 0, and
 * for one freed since (its requests complete as any, and report to
 * world's error handler). */
static inline MPI_Comm om_direct_comm(MPI_Request h)
{
    struct MPI_ABI_Comm *c = atomic_load_explicit(&om_direct_comms[((uintptr_t)h >> 1) & 7],
                                                  memory_order_acquire);
    return c ? c : MPI_COMM_WORLD;
}
/* c's direct slot (taken at its first use), or -1: its requests get
 * records. */
int om_direct_slot_take(struct MPI_ABI_Comm *c);
static inline int om_direct_slot(struct MPI_ABI_Comm *c)
{
    if (c == &om_comm_world)
        return 0;
    int s = atomic_load_explicit(&c->direct_slot, memory_order_relaxed);
    return s ? s : om_direct_slot_take(c);
}
/* Forget c as its communicator is released (its slot is not reused): a
 * direct request of its that completes later reports to world. */
void om_direct_forget(struct MPI_ABI_Comm *c);
/* The status a direct request's completion gives. */
void om_direct_status(MPI_Status *st, ordo_status_t rc, const ordo_completion_t *ci);
/* Make *h, when direct, a record holding its ordo request (for the calls
 * built on records): MPI_SUCCESS or MPI_ERR_NO_MEM. */
int  om_req_adopt(MPI_Request *h);
/* om_req_adopt for every entry; MPI_ERR_NO_MEM raised on world naming func. */
int  om_req_adopt_all(int count, MPI_Request reqs[], const char *func);
/* Wait for or test a direct *h: done sets *h to MPI_REQUEST_NULL and fills
 * status (may be NULL); *flag (may be NULL) whether it completed.  Errors
 * raised naming func: the operation's on its communicator, a stale
 * handle's on world. */
int  om_direct_complete(MPI_Request *h, int wait, int *flag, MPI_Status *status,
                        const char *func);
/* Whether a direct h completed, without completing it (Request_get_status). */
int  om_direct_peek(MPI_Request h, int *flag, MPI_Status *status, const char *func);
/* Cancel a direct receive (it then completes as cancelled). */
int  om_direct_cancel(MPI_Request h);

#endif
