/* Persistent point-to-point requests (MPI_Send_init / MPI_Recv_init /
 * MPI_Start): the arguments are checked and bound once; each start begins
 * one transfer with them, which the usual wait / test calls complete,
 * leaving the handle for the next start.  The handle's object is kept on a
 * free list when freed, never returned to malloc before finalize, so a
 * stale handle is refused by its magic without touching freed memory. */
#include <stdlib.h>

#include "p2p.h"
#include "../base/log.h"

typedef struct p2p_persist {
    struct ordo_request super;   /* first: the handle */
    uint8_t             kind;    /* P2P_SEND, P2P_RECV */
    ordo_comm_h         comm;    /* resolved again at each start */
    void               *buf;
    size_t              len;     /* send: length; receive: capacity */
    int                 peer, tag;
    struct p2p_persist *next_free, *next_made;
} p2p_persist_t;

#define MAGIC_PERSIST_DEAD 0x50455244u   /* "PERD" */

static p2p_persist_t *free_persists, *made_persists;   /* free; every one made */

static ordo_status_t persist_new(uint8_t kind, ordo_comm_h comm, void *buf, size_t len,
                                 int peer, int tag, ordo_request_h *req_p)
{
    p2p_persist_t *p = free_persists;
    if (p)
        free_persists = p->next_free;
    else if ((p = malloc(sizeof(*p))) == NULL)
        return ORDO_ERR_NO_MEMORY;
    else
        p->next_made = made_persists, made_persists = p;
    p2p_persist_t *made = p->next_made;
    *p = (p2p_persist_t){.kind = kind, .comm = comm, .buf = buf, .len = len, .peer = peer,
                         .tag = tag, .next_made = made};
    p->super.magic = ORDO_MAGIC_REQUEST;
    p->super.type = ORDO_OP_P2P;
    p->super.state = ORDO_OP_DONE;
    p->super.user_held = 1;
    p->super.persistent = 1;
    p->super.info = (ordo_completion_t){.source = -1, .tag = -1};
    *req_p = &p->super;
    return ORDO_OK;
}

ORDO_API ordo_status_t ordo_send_init(ordo_comm_h comm, const void *buf, size_t len, int dest,
                                      int tag, ordo_request_h *req_p)
{
    ORDO_CHECK_INIT();
    ordo_status_t st = p2p_send_check(comm, buf, len, dest, tag);
    if (st != ORDO_OK)
        return st;
    if (req_p == NULL)
        return ORDO_ERR_INVALID_PARAM;
    return persist_new(P2P_SEND, comm, (void *)buf, len, dest, tag, req_p);
}

ORDO_API ordo_status_t ordo_recv_init(ordo_comm_h comm, void *buf, size_t cap, int source,
                                      int tag, ordo_request_h *req_p)
{
    ORDO_CHECK_INIT();
    ordo_status_t st = p2p_recv_check(comm, buf, cap, source, tag);
    if (st != ORDO_OK)
        return st;
    if (req_p == NULL)
        return ORDO_ERR_INVALID_PARAM;
    return persist_new(P2P_RECV, comm, buf, cap, source, tag, req_p);
}

static ordo_status_t persist_of(ordo_request_h req, p2p_persist_t **p_p)
{
    if (req == NULL || req->magic != ORDO_MAGIC_REQUEST || !req->user_held ||
        !req->persistent)
        return req != NULL && req->magic == ORDO_MAGIC_REQUEST && req->user_held
                   ? ORDO_ERR_INVALID_PARAM   /* a request, but not a persistent one */
                   : ORDO_ERR_INVALID_HANDLE;
    *p_p = (p2p_persist_t *)req;
    return ORDO_OK;
}

static ordo_status_t start_one(ordo_request_h req)
{
    p2p_persist_t *p;
    ordo_status_t st = persist_of(req, &p);
    if (st != ORDO_OK) {
        ordo_error("ordo_start: not a persistent request (%s)", ordo_status_string(st));
        return st;
    }
    if (p->super.inner != NULL || p->super.done_at_start) {
        ordo_error("ordo_start: the request was started and has not been completed "
                   "(wait or test for it first)");
        return ORDO_ERR_BUSY;
    }
    ordo_request_h in = NULL;
    st = p->kind == P2P_SEND ? ordo_send_nb(p->comm, p->buf, p->len, p->peer, p->tag, &in)
                             : ordo_recv_nb(p->comm, p->buf, p->len, p->peer, p->tag, &in);
    if (st == ORDO_INPROGRESS || (st == ORDO_OK && in != NULL)) {
        p->super.inner = in;
        return ORDO_OK;
    }
    if (st != ORDO_OK)
        return st;   /* refused (a context destroyed, a dead peer): still inactive */
    /* finished at once: the next completion reports it */
    p->super.done_at_start = 1;
    p->super.status = st;
    p->super.info = (ordo_completion_t){.source = -1, .tag = -1};
    if (p->kind == P2P_SEND && st == ORDO_OK)
        p->super.info.length = p->super.info.msg_length = p->len;
    if (p->kind == P2P_RECV && p->peer == ORDO_PROC_NULL)
        p->super.info = (ordo_completion_t){.source = ORDO_PROC_NULL, .tag = ORDO_ANY_TAG};
    return ORDO_OK;
}

ORDO_API ordo_status_t ordo_start(ordo_request_h req)
{
    ORDO_CHECK_INIT();
    return start_one(req);
}

ORDO_API ordo_status_t ordo_startall(size_t n, ordo_request_h *reqs)
{
    ORDO_CHECK_INIT();
    if (n && reqs == NULL)
        return ORDO_ERR_INVALID_PARAM;
    /* all checked first: a bad one starts none */
    for (size_t i = 0; i < n; i++) {
        p2p_persist_t *p;
        ordo_status_t st = persist_of(reqs[i], &p);
        if (st != ORDO_OK) {
            ordo_error("ordo_startall: request %zu is not a persistent request", i);
            return st;
        }
        if (p->super.inner != NULL || p->super.done_at_start) {
            ordo_error("ordo_startall: request %zu was started and not completed", i);
            return ORDO_ERR_BUSY;
        }
    }
    ordo_status_t first = ORDO_OK;
    for (size_t i = 0; i < n; i++) {
        ordo_status_t st = start_one(reqs[i]);
        if (first == ORDO_OK && st != ORDO_OK)
            first = st;
    }
    return first;
}

ORDO_API ordo_status_t ordo_request_free(ordo_request_h *req)
{
    ORDO_CHECK_INIT();
    if (req == NULL)
        return ORDO_ERR_INVALID_PARAM;
    p2p_persist_t *p;
    ordo_status_t st = persist_of(*req, &p);
    if (st != ORDO_OK) {
        ordo_error("ordo_request_free: %s", st == ORDO_ERR_INVALID_PARAM
                   ? "only persistent requests are freed; others end with wait or test"
                   : "not a request");
        return st;
    }
    if (p->super.inner != NULL) {
        ordo_error("ordo_request_free: the request's transfer is still running (wait for it, "
                   "or cancel it, first)");
        return ORDO_ERR_BUSY;
    }
    p->super.magic = MAGIC_PERSIST_DEAD;
    p->super.user_held = 0;
    p->next_free = free_persists;
    free_persists = p;
    *req = NULL;
    return ORDO_OK;
}

void p2p_persist_fini(void)
{
    while (made_persists) {
        p2p_persist_t *p = made_persists;
        made_persists = p->next_made;
        free(p);
    }
    free_persists = NULL;
}
