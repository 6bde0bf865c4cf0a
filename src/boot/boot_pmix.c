/* Bootstrap through PMIx: Open MPI's mpirun (its daemons serve PMIx),
 * srun --mpi=pmix, and any other launcher with a PMIx server.
 *
 * Rank and size come from PMIx; an allgather is Put, Commit and a fence
 * that collects the data, then a Get per rank; the barrier is a fence
 * without data.  Fences are non-blocking underneath, so a rank waiting in
 * one still drives its transports (a peer may need this rank's progress to
 * reach the same fence).  Peers that abort or end without finalizing are
 * marked dead when the server sends the event.  Descriptors between the
 * ranks of one machine go through boot_local.c.
 *
 * libpmix is opened with dlopen, as libfabric is, so that a machine without
 * it still runs ordorun jobs, and a program that never meets a PMIx
 * launcher never loads it. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pmix.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot.h"
#include "boot_local.h"
#include "boot_proto.h"
#include "../base/log.h"

static struct pmix_lib {
    void *handle;
    pmix_status_t (*init)(pmix_proc_t *, pmix_info_t[], size_t);
    pmix_status_t (*finalize)(const pmix_info_t[], size_t);
    pmix_status_t (*abort)(int, const char[], pmix_proc_t[], size_t);
    pmix_status_t (*get)(const pmix_proc_t *, const char[], const pmix_info_t[], size_t,
                         pmix_value_t **);
    pmix_status_t (*put)(pmix_scope_t, const char[], pmix_value_t *);
    pmix_status_t (*commit)(void);
    pmix_status_t (*fence_nb)(const pmix_proc_t[], size_t, const pmix_info_t[], size_t,
                              pmix_op_cbfunc_t, void *);
    pmix_status_t (*register_event)(pmix_status_t[], size_t, pmix_info_t[], size_t,
                                    pmix_notification_fn_t, pmix_hdlr_reg_cbfunc_t, void *);
    pmix_status_t (*deregister_event)(size_t, pmix_op_cbfunc_t, void *);
    const char   *(*error_string)(pmix_status_t);
    void          (*value_destruct)(pmix_value_t *);
    pmix_status_t (*info_load)(pmix_info_t *, const char *, const void *, pmix_data_type_t);
} px;

static ordo_status_t load(void)
{
    if (px.handle)
        return ORDO_OK;
    /* RTLD_GLOBAL: PMIx's own plugins resolve its symbols from it */
    void *h = dlopen("libpmix.so.2", RTLD_NOW | RTLD_GLOBAL);
    if (h == NULL) {
        ordo_error("started by a PMIx launcher (PMIX_NAMESPACE=%s), but libpmix cannot be "
                   "loaded (%s): install libpmix2", getenv("PMIX_NAMESPACE"), dlerror());
        return ORDO_ERR_BOOTSTRAP;
    }
    struct { const char *name; void **slot; } fns[] = {
        {"PMIx_Init", (void **)&px.init}, {"PMIx_Finalize", (void **)&px.finalize},
        {"PMIx_Abort", (void **)&px.abort},
        {"PMIx_Get", (void **)&px.get}, {"PMIx_Put", (void **)&px.put},
        {"PMIx_Commit", (void **)&px.commit}, {"PMIx_Fence_nb", (void **)&px.fence_nb},
        {"PMIx_Register_event_handler", (void **)&px.register_event},
        {"PMIx_Deregister_event_handler", (void **)&px.deregister_event},
        {"PMIx_Error_string", (void **)&px.error_string},
        {"PMIx_Value_destruct", (void **)&px.value_destruct},
        {"PMIx_Info_load", (void **)&px.info_load},
    };
    for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) {
        *fns[i].slot = dlsym(h, fns[i].name);
        if (*fns[i].slot == NULL) {
            ordo_error("libpmix lacks %s: a PMIx older than 4 is not supported", fns[i].name);
            dlclose(h);
            memset(&px, 0, sizeof(px));
            return ORDO_ERR_BOOTSTRAP;
        }
    }
    px.handle = h;
    return ORDO_OK;
}

typedef struct boot_pmix {
    ordo_boot_t    super;
    pmix_proc_t    me;
    int            timeout_ms;
    unsigned char *health;        /* written by PMIx's thread, read by waits */
    size_t         event_ref;
    int            event_registered;
} boot_pmix_t;

static const char *pxerr(pmix_status_t rc)
{
    return px.error_string ? px.error_string(rc) : "?";
}

/* The event handler has no argument of its own: the one open bootstrap. */
static _Atomic(boot_pmix_t *) events_to;

static void mark_dead(boot_pmix_t *p, const pmix_proc_t *who, pmix_status_t why)
{
    if (who == NULL || strncmp(who->nspace, p->me.nspace, PMIX_MAX_NSLEN) != 0 ||
        who->rank >= (pmix_rank_t)p->super.size)
        return;
    if (!__atomic_exchange_n(&p->health[who->rank], 1, __ATOMIC_RELAXED))
        ordo_warn("PMIx: rank %u ended abnormally (%s)", who->rank, pxerr(why));
}

static void on_event(size_t id, pmix_status_t status, const pmix_proc_t *source,
                     pmix_info_t info[], size_t ninfo, pmix_info_t *results, size_t nresults,
                     pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    (void)id;
    (void)source;       /* who raised the event (a server), not whom it is about */
    (void)results;
    (void)nresults;
    boot_pmix_t *p = atomic_load(&events_to);
    for (size_t i = 0; p && i < ninfo; i++) {
        if (strncmp(info[i].key, PMIX_EVENT_AFFECTED_PROC, PMIX_MAX_KEYLEN) == 0 &&
            info[i].value.type == PMIX_PROC)
            mark_dead(p, info[i].value.data.proc, status);
        if (strncmp(info[i].key, PMIX_EVENT_AFFECTED_PROCS, PMIX_MAX_KEYLEN) == 0 &&
            info[i].value.type == PMIX_DATA_ARRAY && info[i].value.data.darray &&
            info[i].value.data.darray->type == PMIX_PROC) {
            const pmix_proc_t *procs = info[i].value.data.darray->array;
            for (size_t k = 0; k < info[i].value.data.darray->size; k++)
                mark_dead(p, &procs[k], status);
        }
    }
    if (cbfunc)
        cbfunc(PMIX_SUCCESS, NULL, 0, NULL, NULL, cbdata);
}

typedef struct fence_wait {
    atomic_int    done;
    pmix_status_t status;
    pmix_info_t   info;
} fence_wait_t;

static void fence_done(pmix_status_t status, void *cbdata)
{
    fence_wait_t *w = cbdata;
    w->status = status;
    atomic_store_explicit(&w->done, 1, memory_order_release);
}

static ordo_status_t fence(boot_pmix_t *p, bool collect, const char *what)
{
    fence_wait_t *w = calloc(1, sizeof(*w));
    if (w == NULL)
        return ORDO_ERR_NO_MEMORY;
    px.info_load(&w->info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    pmix_status_t rc = px.fence_nb(NULL, 0, &w->info, 1, fence_done, w);
    if (rc == PMIX_OPERATION_SUCCEEDED) {
        free(w);
        return ORDO_OK;
    }
    if (rc != PMIX_SUCCESS) {
        ordo_error("PMIx fence (%s) refused: %s", what, pxerr(rc));
        free(w);
        return ORDO_ERR_BOOTSTRAP;
    }
    long long deadline = p->timeout_ms < 0 ? -1 : ordo_boot_now_ms() + p->timeout_ms;
    for (unsigned spins = 0; !atomic_load_explicit(&w->done, memory_order_acquire); spins++) {
        if (deadline >= 0 && ordo_boot_now_ms() >= deadline) {
            /* w stays allocated: PMIx may still call back into it */
            ordo_error("PMIx fence (%s): not every rank arrived in %d s (ORDO_BOOT_TIMEOUT)",
                       what, p->timeout_ms / 1000);
            return ORDO_ERR_TIMED_OUT;
        }
        ordo_boot_idle(&p->super, spins);
    }
    rc = w->status;
    free(w);
    if (rc != PMIX_SUCCESS) {
        ordo_error("PMIx fence (%s) failed: %s", what, pxerr(rc));
        return rc == PMIX_ERR_PROC_ABORTED || rc == PMIX_ERR_LOST_CONNECTION ?
               ORDO_ERR_PEER_DEAD : ORDO_ERR_BOOTSTRAP;
    }
    return ORDO_OK;
}

static ordo_status_t px_barrier(ordo_boot_t *b)
{
    return fence((boot_pmix_t *)b, false, "barrier");
}

static ordo_status_t px_allgather(ordo_boot_t *b, const char *tag, const void *mine,
                                  size_t len, void *all)
{
    boot_pmix_t *p = (boot_pmix_t *)b;
    if (len == 0)
        return fence(p, false, tag);
    pmix_value_t v;
    memset(&v, 0, sizeof(v));
    v.type = PMIX_BYTE_OBJECT;
    v.data.bo.bytes = (char *)mine;            /* PMIx_Put copies it */
    v.data.bo.size = len;
    pmix_status_t rc = px.put(PMIX_GLOBAL, tag, &v);
    if (rc == PMIX_SUCCESS)
        rc = px.commit();
    if (rc != PMIX_SUCCESS) {
        ordo_error("PMIx put '%s': %s", tag, pxerr(rc));
        return ORDO_ERR_BOOTSTRAP;
    }
    ordo_status_t st = fence(p, true, tag);
    if (st != ORDO_OK)
        return st;
    for (int r = 0; r < b->size; r++) {
        pmix_proc_t who = p->me;
        who.rank = (pmix_rank_t)r;
        pmix_value_t *got = NULL;
        rc = px.get(&who, tag, NULL, 0, &got);
        if (rc != PMIX_SUCCESS || got == NULL) {
            ordo_error("PMIx get '%s' of rank %d: %s", tag, r, pxerr(rc));
            return ORDO_ERR_BOOTSTRAP;
        }
        int ok = got->type == PMIX_BYTE_OBJECT && got->data.bo.size == len;
        if (ok)
            memcpy((char *)all + (size_t)r * len, got->data.bo.bytes, len);
        else
            ordo_error("PMIx get '%s' of rank %d: %zu bytes, expected %zu", tag, r,
                       got->type == PMIX_BYTE_OBJECT ? got->data.bo.size : 0, len);
        px.value_destruct(got);
        free(got);
        if (!ok)
            return ORDO_ERR_BOOTSTRAP;
    }
    return ORDO_OK;
}

static void px_fini(ordo_boot_t *b, int clean)
{
    (void)clean;        /* PMIx learns a clean end from PMIx_Finalize */
    boot_pmix_t *p = (boot_pmix_t *)b;
    ordo_boot_local_close(p->super.local);
    if (p->event_registered)
        px.deregister_event(p->event_ref, NULL, NULL);
    atomic_store(&events_to, NULL);
    pmix_status_t rc = px.finalize(NULL, 0);
    if (rc != PMIX_SUCCESS)
        ordo_warn("PMIx_Finalize: %s", pxerr(rc));
    free(p->health);
    free(p);
}

static int px_abort(ordo_boot_t *b, int status, const char *why)
{
    (void)b;
    pmix_status_t rc = px.abort(status, why, NULL, 0);   /* NULL: the whole job */
    if (rc != PMIX_SUCCESS)
        ordo_warn("PMIx_Abort: %s", pxerr(rc));
    return 0;   /* the server has it once the call returns */
}

static const ordo_boot_ops_t pmix_ops = {
    .size = sizeof(ordo_boot_ops_t), .name = "pmix",
    .allgather = px_allgather, .barrier = px_barrier,
    .fd_put = ordo_boot_local_fd_put, .fd_get = ordo_boot_local_fd_get,
    .fd_del = ordo_boot_local_fd_del, .fini = px_fini, .abort = px_abort,
};

static ordo_status_t job_size(boot_pmix_t *p, int *size_p)
{
    pmix_proc_t job = p->me;
    job.rank = PMIX_RANK_WILDCARD;
    pmix_value_t *v = NULL;
    pmix_status_t rc = px.get(&job, PMIX_JOB_SIZE, NULL, 0, &v);
    if (rc != PMIX_SUCCESS || v == NULL) {
        ordo_error("PMIx: no job size (%s)", pxerr(rc));
        return ORDO_ERR_BOOTSTRAP;
    }
    long long n = v->type == PMIX_UINT32 ? (long long)v->data.uint32 :
                  v->type == PMIX_INT ? (long long)v->data.integer : -1;
    px.value_destruct(v);
    free(v);
    if (n < 1 || n > (1 << 24) || p->me.rank >= (pmix_rank_t)n) {
        ordo_error("PMIx: job size %lld does not hold rank %u", n, p->me.rank);
        return ORDO_ERR_BOOTSTRAP;
    }
    *size_p = (int)n;
    return ORDO_OK;
}

/* PMIx's list of the ranks on this node, checked against what the ranks
 * found by themselves (boot_local.c: one kernel and namespaces); sharing
 * memory needs the latter, so a disagreement is reported, not obeyed. */
static void check_local_peers(boot_pmix_t *p)
{
    pmix_proc_t job = p->me;
    job.rank = PMIX_RANK_WILDCARD;
    pmix_value_t *v = NULL;
    if (px.get(&job, PMIX_LOCAL_PEERS, NULL, 0, &v) != PMIX_SUCCESS || v == NULL)
        return;
    if (v->type == PMIX_STRING && v->data.string) {
        ordo_boot_t *b = &p->super;
        int listed = 0, agree = 1;
        for (const char *s = v->data.string; *s;) {
            char *end;
            long r = strtol(s, &end, 10);
            if (end == s)
                break;
            if (r >= 0 && r < b->size) {
                listed++;
                agree &= b->machine_of[r] == b->machine_of[b->rank];
            }
            s = *end == ',' ? end + 1 : end;
        }
        int found = 0;
        for (int r = 0; r < b->size; r++)
            found += b->machine_of[r] == b->machine_of[b->rank];
        if (!agree || listed != found)
            ordo_warn("PMIx lists local peers \"%s\", but %d rank(s) share this machine's "
                      "kernel and namespaces: memory is shared with those", v->data.string,
                      found);
    }
    px.value_destruct(v);
    free(v);
}

ordo_status_t ordo_boot_pmix_open(int timeout_s, ordo_boot_t **boot_p)
{
    ordo_status_t st = load();
    if (st != ORDO_OK)
        return st;
    boot_pmix_t *p = calloc(1, sizeof(*p));
    if (p == NULL)
        return ORDO_ERR_NO_MEMORY;
    pmix_status_t rc = px.init(&p->me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        ordo_error("started by a PMIx launcher (PMIX_NAMESPACE=%s, PMIX_RANK=%s), but "
                   "PMIx_Init failed: %s", getenv("PMIX_NAMESPACE"), getenv("PMIX_RANK"),
                   pxerr(rc));
        free(p);
        return ORDO_ERR_BOOTSTRAP;
    }
    p->super.ops = &pmix_ops;
    p->timeout_ms = timeout_s > 0 ? timeout_s * 1000 : -1;
    int size;
    if ((st = job_size(p, &size)) != ORDO_OK)
        goto fail;
    p->super.rank = (int)p->me.rank;
    p->super.size = size;
    ordo_boot_describe_binding(p->super.binding, sizeof(p->super.binding));
    p->health = calloc((size_t)size, 1);
    if (p->health == NULL) {
        st = ORDO_ERR_NO_MEMORY;
        goto fail;
    }
    p->super.health = p->health;
    atomic_store(&events_to, p);
    pmix_status_t codes[] = {PMIX_ERR_PROC_ABORTED, PMIX_ERR_PROC_ABORTING,
                             PMIX_ERR_PROC_TERM_WO_SYNC, PMIX_ERR_PROC_KILLED_BY_CMD};
    rc = px.register_event(codes, sizeof(codes) / sizeof(codes[0]), NULL, 0, on_event, NULL,
                           NULL);
    if (rc >= 0) {          /* blocking form: the handler's reference */
        p->event_ref = (size_t)rc;
        p->event_registered = 1;
    } else {
        ordo_warn("PMIx: no events about peers (%s): a dead peer is noticed only by "
                  "timeouts", pxerr(rc));
    }
    if ((st = ordo_boot_local_open(&p->super, timeout_s, &p->super.local)) != ORDO_OK)
        goto fail;
    check_local_peers(p);
    *boot_p = &p->super;
    return ORDO_OK;
fail:
    ordo_boot_local_close(p->super.local);
    p->super.local = NULL;
    px_fini(&p->super, 0);
    return st;
}
