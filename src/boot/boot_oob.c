/* Bootstrap over the caller's own collectives (ordo_oob_t in ordo.h): an MPI
 * program initialises ordo over its communicator, as UCC and UCX let a host
 * library bootstrap them.  An allgather is one of the caller's, tested
 * until it completes while ordo drives its transports; the barrier is an
 * allgather of one byte.  The caller's runtime owns failure handling, so no
 * health is kept; descriptors between local ranks go through boot_local.c. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "boot.h"
#include "boot_local.h"
#include "../base/log.h"

typedef struct boot_oob {
    ordo_boot_t   super;
    ordo_oob_t    oob;
    int           timeout_ms;
    } boot_oob_t;

static ordo_status_t oob_allgather(ordo_boot_t *b, const char *tag, const void *mine,
                                   size_t len, void *all)
{
    boot_oob_t *o = (boot_oob_t *)b;
    void *req = NULL;
    int rc = o->oob.allgather(o->oob.arg, mine, all, len, &req);
    if (rc != 0) {
        ordo_error("the caller's allgather ('%s', %zu bytes) did not start: %d", tag, len, rc);
        return ORDO_ERR_BOOTSTRAP;
    }
    long long deadline = o->timeout_ms < 0 ? -1 : ordo_boot_now_ms() + o->timeout_ms;
    for (unsigned spins = 0;; spins++) {
        rc = o->oob.test(o->oob.arg, req);
        if (rc <= 0)
            break;
        if (deadline >= 0 && ordo_boot_now_ms() >= deadline) {
            /* req stays with the caller's runtime: freeing a running
             * collective is not ours to do */
            ordo_error("the caller's allgather ('%s') did not complete in %d s "
                       "(ORDO_BOOT_TIMEOUT)", tag, o->timeout_ms / 1000);
            return ORDO_ERR_TIMED_OUT;
        }
        ordo_boot_idle(b, spins);
    }
    o->oob.free(o->oob.arg, req);
    if (rc < 0) {
        ordo_error("the caller's allgather ('%s') failed: %d", tag, rc);
        return ORDO_ERR_BOOTSTRAP;
    }
    return ORDO_OK;
}

static ordo_status_t oob_barrier(ordo_boot_t *b)
{
    char *all = malloc((size_t)b->size);
    if (all == NULL)
        return ORDO_ERR_NO_MEMORY;
    char mine = 1;
    ordo_status_t st = oob_allgather(b, "barrier", &mine, 1, all);
    free(all);
    return st;
}

static void oob_fini(ordo_boot_t *b, int clean)
{
    (void)clean;
    boot_oob_t *o = (boot_oob_t *)b;
    ordo_boot_local_close(o->super.local);
    free(o);
}

static const ordo_boot_ops_t oob_ops = {
    .size = sizeof(ordo_boot_ops_t), .name = "caller",
    .allgather = oob_allgather, .barrier = oob_barrier,
    .fd_put = ordo_boot_local_fd_put, .fd_get = ordo_boot_local_fd_get,
    .fd_del = ordo_boot_local_fd_del, .fini = oob_fini,
};

ordo_status_t ordo_boot_oob_open(const ordo_oob_t *oob, int timeout_s, ordo_boot_t **boot_p)
{
    if (oob->size < 1 || oob->size > (1 << 24) || oob->rank < 0 || oob->rank >= oob->size ||
        !oob->allgather || !oob->test || !oob->free) {
        ordo_error("ordo_init: params->oob is not a bootstrap: rank %d of size %d, callbacks "
                   "allgather %s, test %s, free %s", oob->rank, oob->size,
                   oob->allgather ? "set" : "NULL", oob->test ? "set" : "NULL",
                   oob->free ? "set" : "NULL");
        return ORDO_ERR_INVALID_PARAM;
    }
    boot_oob_t *o = calloc(1, sizeof(*o));
    if (o == NULL)
        return ORDO_ERR_NO_MEMORY;
    o->oob = *oob;
    o->super.ops = &oob_ops;
    o->super.rank = oob->rank;
    o->super.size = oob->size;
    o->timeout_ms = timeout_s > 0 ? timeout_s * 1000 : -1;
    ordo_boot_describe_binding(o->super.binding, sizeof(o->super.binding));
    ordo_status_t st = ordo_boot_local_open(&o->super, timeout_s, &o->super.local);
    if (st != ORDO_OK) {
        free(o);
        return st;
    }
    *boot_p = &o->super;
    return ORDO_OK;
}
